"""A splittable mbox reader for Spark: `spark.read.format("mbox")`.

Large mailboxes are cut into byte ranges (`splitSize`, 128 MiB by
default) that separate tasks read, as Spark cuts text files into line
ranges: a range's messages are those that *start* inside it, the last one
read on past the range's end to its own end, so every message is read
exactly once and whole. Where a message starts is decided by the
library's rule, the one `urifind --mail` splits by (an envelope `From `
line after a blank line; a `>From ` line of a body is not a start), so
Spark and the command cut any mbox the same way.

    from urifind.mbox_source import register
    register(spark)
    df = spark.read.format("mbox").option("splitSize", "64m").load(path)

With `minPartitions` (`read_mbox` sets it to the cluster's default
parallelism), the split size is made smaller, down to 4 MiB, so that the
files give at least that many ranges, as Spark sizes the splits of its
own file readers. Ranges are packed into tasks as Spark packs files
(`tasks`): a range of a large file is a task, small files share one.

`urifind.spark.read_mbox` reads the same tasks without the data source:
it plans them in the driver's own process and reads them with
`mapInArrow` over one row per task. A Python data source is planned in
Python processes that Spark starts on the driver for each query (the
source's lookup, its schema, its partitions), each paying Python's and
pyarrow's start-up; `read_mbox` starts none.

Rows: `path: string, index: bigint, offset: bigint, message: binary`.
`index` counts the messages of a file from 0; `offset` is where the
message (its `From ` line) starts in the file. To number the messages of
a range, the ranges before it are counted first: when the reader is
planned, the driver searches each file's earlier ranges for message
starts (a substring search in Rust over the bytes, no parsing, threads
in parallel; about as fast as the file can be read). With
`.option("index", "false")` there is no such pass and `index` is null.

A task reads its range in batches of about a window of the file
(`splitSize` capped at `windowSize`, 2 MiB by default): where the
messages start is found in Rust, reading the file a piece at a time
into one buffer, and each batch's messages, a run of the file, are
mapped from it into memory and given to Arrow as they are, with no copy
and no Python object per message (so a file must not be cut short while
it is read, as for any reader of Spark). A message
longer than `maxMessageSize` (80 MiB, the command's 64 MiB limit plus
room for the `From ` line and mboxrd quotes) is read past without being
kept and comes out with a null `message`; the finder in mail mode skips
any message over 64 MiB as the command does. A file that does not start with `From ` is one
message, as for the command. A `.gz` file cannot be cut (a gzip stream
can only be read from its start): it is one task, decompressed as it is
read, with the same bounded window.

Paths: a file, a directory (its files; `recursiveFileLookup` for
subdirectories) or a glob, on a filesystem that every executor sees under
the same path (local disks of a one-machine cluster, NFS, a mounted
bucket).
"""

import array
import glob
import gzip
import mmap
import os
from concurrent.futures import ThreadPoolExecutor

import pyarrow as pa

from urifind import _urifind

__all__ = ["MboxDataSource", "SCHEMA", "plan", "read_range", "read_ranges",
           "read_tasks", "register", "scan_tasks", "split_size_for", "tasks",
           "uri_rows", "WHERE"]

#: Where a message is (a DDL string): its file, its number in the file
#: and its offset there; the columns `scan_tasks` gives each URI too.
WHERE = "path string, index bigint, offset bigint"

#: The rows' schema (a DDL string).
SCHEMA = WHERE + ", message binary"

#: Bytes before a search offset that decide a start there (see
#: `urifind::mail::LOOKBEHIND`).
LOOKBEHIND = 3

_MIB = 1 << 20
_DEFAULTS = {
    "splitSize": 128 * _MIB,
    # The size of a batch of messages: Spark copies each batch it gets
    # from Python into rows, and a batch that still fits in the
    # processor's cache is copied faster (on the 2.22 GB mailbox, 15%
    # less executor CPU than with 16 MiB batches, and a smaller peak).
    "windowSize": 2 * _MIB,
    # The finder's own limit (64 MiB) holds for the messages it gets;
    # this one (larger, as it counts the `From ` line and mboxrd quotes)
    # keeps a task's memory bounded.
    "maxMessageSize": 80 * _MIB,
}


def _size(text):
    """A byte count such as `1048576`, `64k`, `128m` or `1g`."""
    s = str(text).strip().lower().rstrip("b")
    mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}.get(s[-1:], 1)
    if mult != 1:
        s = s[:-1]
    n = int(float(s) * mult)
    if n <= 0:
        raise ValueError(f"not a positive size: {text!r}")
    return n


def _truthy(text):
    return str(text).strip().lower() in ("1", "true", "yes")


def _files(path, recursive):
    """The files at `path` (a file, directory or glob), sorted."""
    out = []
    for p in sorted(glob.glob(path)) if glob.has_magic(path) else [path]:
        if os.path.isdir(p):
            if recursive:
                for root, dirs, names in os.walk(p):
                    dirs.sort()
                    out.extend(os.path.join(root, n) for n in sorted(names))
            else:
                out.extend(
                    os.path.join(p, n)
                    for n in sorted(os.listdir(p))
                    if os.path.isfile(os.path.join(p, n))
                )
        elif os.path.isfile(p):
            out.append(p)
        elif not glob.has_magic(path):
            raise FileNotFoundError(f"{p}: no such file or directory")
    return out


def _is_mbox(path):
    """Whether a plain file starts with `From ` (else it is one message
    and is never cut)."""
    with open(path, "rb") as f:
        return f.read(5) == b"From "


class _Windows:
    """A file read in windows: `buf` holds the file's bytes from offset
    `w`; `more()` appends the next piece, keeping what is still needed."""

    def __init__(self, path, start, window):
        self.window = window
        if path.endswith(".gz"):
            self.f = gzip.open(path, "rb")
        else:
            self.f = open(path, "rb")
            self.f.seek(start)
        self.w = start
        self.buf = self.f.read(window)
        self.eof = len(self.buf) < window

    def more(self, keep):
        """Drop the bytes before file offset `keep`, read the next piece."""
        tail = memoryview(self.buf)[keep - self.w:]
        piece = self.f.read(self.window)
        self.eof = len(piece) < self.window
        self.buf = b"".join((tail, piece))
        self.w = keep

    def close(self):
        self.f.close()


def _starts(win, search):
    """The message starts judged in the window from file offset
    `search`, as file offsets, and the offset up to which it was judged."""
    starts, judged = _urifind.mbox_window_starts(win.buf, search - win.w, win.eof)
    return [win.w + p for p in starts], win.w + judged


def count_range(path, start, end, window=_DEFAULTS["windowSize"]):
    """How many messages of an uncompressed mbox file start in
    `[start, end)` (its first message, at 0, included when `start` is
    0): a search in Rust of the file mapped into memory, with the GIL
    released (`window` is no longer used)."""
    return _urifind.mbox_file_count(os.fspath(path), start, end, window)


def read_range(path, start, end, first_index=None, *,
               window=_DEFAULTS["windowSize"], limit=_DEFAULTS["maxMessageSize"],
               whole=False):
    """The messages of a file that start in `[start, end)` as Arrow record
    batches (`SCHEMA`) of about `window` bytes, `index` counted from
    `first_index` (null when None). With `whole`, the file is one message
    or not an mbox: every message from its start, whatever `end`."""
    if path.endswith(".gz"):
        win = _Windows(path, max(0, start - LOOKBEHIND), window)
        try:
            yield from _read(win, path, start, end, first_index, limit, whole)
        finally:
            win.close()
        return
    # An uncompressed file: where its messages start is found in Rust,
    # and each batch's messages are one run of the file, mapped into
    # memory and handed to Arrow as they are (no copy, no Python object
    # per message).
    planned = _urifind.mbox_file_batches(path, start, end, whole, window, limit, window)
    if not planned:
        return
    index = first_index
    with open(path, "rb") as f:
        for lo, hi, offsets, starts, valid, n in planned:
            messages = pa.Array.from_buffers(
                pa.binary(), n,
                [valid and pa.py_buffer(valid), pa.py_buffer(offsets), _mapped(f, lo, hi)],
                null_count=-1 if valid else 0,
            )
            yield _record_batch(path, index, pa.py_buffer(starts), messages)
            if index is not None:
                index += n


def _mapped(f, lo, hi):
    """The bytes `[lo, hi)` of open file `f` as an Arrow buffer mapped
    from the file (unmapped when the last array using it goes)."""
    if hi <= lo:
        return pa.py_buffer(b"")
    base = lo - lo % mmap.ALLOCATIONGRANULARITY
    m = mmap.mmap(f.fileno(), hi - base, access=mmap.ACCESS_READ, offset=base)
    return pa.py_buffer(m).slice(lo - base)


def _record_batch(path, index, starts, messages):
    """A record batch of `SCHEMA`: `messages` of file `path`, numbered
    from `index` (nulls when None), `starts` their file offsets (an
    `int64` buffer)."""
    n = len(messages)
    idx = (pa.Array.from_buffers(pa.int64(), n, [
        None, pa.py_buffer(array.array("q", range(index, index + n)))])
        if index is not None else pa.nulls(n, pa.int64()))
    return pa.RecordBatch.from_arrays(
        [_repeated(path, n), idx,
         pa.Array.from_buffers(pa.int64(), n, [None, starts]), messages],
        names=["path", "index", "offset", "message"],
    )


def _repeated(text, n):
    """A string array of `n` times `text`. It and `index` are built from
    their buffers: making an array from Python objects (`pa.scalar`,
    `pa.array` of a `str` or a `range`) makes pyarrow import pandas,
    which cost each executor's Python worker a quarter of a second on its
    first task."""
    data = text.encode()
    offsets = array.array("i", range(0, (n + 1) * len(data), len(data)) if data else [0] * (n + 1))
    return pa.Array.from_buffers(pa.string(), n, [None, pa.py_buffer(offsets),
                                                  pa.py_buffer(data * n)])


def _read(win, path, start, end, index, limit, whole):
    mbox = not whole or win.buf[:5] == b"From "
    if whole:
        end = float("inf")
    cur = 0 if start == 0 else None  # start of the message being read
    skipping = False  # the message being read is past the limit
    search = max(start, 1)
    while True:
        if mbox:
            starts, judged = _starts(win, search)
        else:
            starts, judged = [], win.w + len(win.buf)
        done = []  # (offset, end or None when skipped) of finished messages
        finished = False
        for p in starts:
            if cur is not None:
                done.append((cur, _kept(cur, p, skipping, limit)))
                skipping = False
            if p >= end:
                cur, finished = None, True
                break
            cur = p
        if win.eof and cur is not None:
            done.append((cur, _kept(cur, win.w + len(win.buf), skipping, limit)))
            cur = None
        if done:
            yield _batch(win, path, done, index)
            if index is not None:
                index += len(done)
        search = max(search, judged)
        if finished or win.eof or (cur is None and search >= end):
            return
        keep = max(win.w, search - LOOKBEHIND)
        if cur is not None and not skipping:
            if win.w + len(win.buf) - cur > limit:
                skipping = True
            else:
                keep = min(keep, cur)
        win.more(keep)


def _kept(start, end, skipping, limit):
    """A finished message's end, or None when it is not kept."""
    return None if skipping or end - start > limit else end


def _batch(win, path, done, index):
    """A record batch of the messages `done` (file offset, end or None
    when skipped), slices of the window's buffer."""
    n = len(done)
    offs = [0]
    pieces = []
    for s, e in done:
        if e is not None:
            pieces.append((s - win.w, e - win.w))
            offs.append(offs[-1] + e - s)
        else:
            offs.append(offs[-1])
    if len(pieces) == 1 or all(b == c for (_, b), (c, _) in zip(pieces, pieces[1:])):
        lo = pieces[0][0] if pieces else 0
        data = pa.py_buffer(memoryview(win.buf)[lo:lo + offs[-1]])
    else:
        data = pa.py_buffer(b"".join(memoryview(win.buf)[a:b] for a, b in pieces))
    valid = [e is not None for _, e in done]
    mask = None if all(valid) else pa.array(valid, pa.bool_()).buffers()[1]
    messages = pa.Array.from_buffers(
        pa.binary(), n, [mask, pa.array(offs, pa.int32()).buffers()[1], data],
        null_count=-1,
    )
    starts = pa.array([s for s, _ in done], pa.int64()).buffers()[1]
    return _record_batch(path, index, starts, messages)


def split_size_for(total, split_size=_DEFAULTS["splitSize"], min_partitions=1):
    """The split size for files of `total` bytes: `split_size`, made
    smaller (down to 4 MiB) when that gives fewer than `min_partitions`
    ranges in all, as Spark sizes the splits of its own file readers."""
    if min_partitions > 1:
        return min(split_size, max(4 * _MIB, -(-total // min_partitions)))
    return split_size


def plan(path, *, split_size=_DEFAULTS["splitSize"], recursive=False,
         index=True, window=_DEFAULTS["windowSize"], threads=None,
         min_partitions=1):
    """The byte ranges to read, as tuples `(path, start, end, first_index,
    whole)`: one per file that is compressed, not an mbox or no larger
    than the split size, else one per split size (`split_size_for`).
    `path` is a path, a directory, a glob or a list of them. Only the
    files' sizes and first five bytes are read, unless `index`: then the
    messages of each file's ranges but its last are counted (in threads,
    a substring search in Rust) to number the messages of the next."""
    ranges = []
    paths = [path] if isinstance(path, (str, os.PathLike)) else list(path)
    files = [(p, os.path.getsize(p)) for q in paths for p in _files(os.fspath(q), recursive)]
    split_size = split_size_for(sum(size for _, size in files), split_size, min_partitions)
    for p, size in files:
        if p.endswith(".gz") or size <= split_size or not _is_mbox(p):
            ranges.append([p, 0, size, 0 if index else None, True])
            continue
        cuts = list(range(0, size, split_size)) + [size]
        for a, b in zip(cuts, cuts[1:]):
            ranges.append([p, a, b, None, False])
    if index:
        _number(ranges, window, threads)
    return [tuple(r) for r in ranges]


def _number(ranges, window, threads):
    """Sets the first index of each cut range of `plan`: the count of the
    messages that start in the file's ranges before it. Those bytes are
    counted in pieces of `window` bytes (16 MiB at least), spread over `threads`
    threads (the search runs in Rust without the GIL), so that a file of
    two ranges is counted by every core too; a file's last range is not
    counted, as no range follows it."""
    # Pieces of 16 MiB at least: the file is mapped and searched in
    # place, and smaller pieces only add calls (planning the 2.2 GB file
    # took 0.27 s in 2 MiB pieces, 0.21 s in 16 MiB ones).
    step = max(window, 16 * _MIB)
    cut = [r for r in ranges if not r[4]]
    pieces = []  # (range, start, end): the bytes before a range, in pieces
    for r, nxt in zip(cut, cut[1:] + [None]):
        if r[1] == 0:
            r[3] = 0
        if nxt is None or nxt[1] == 0:
            continue  # the file's last range
        pieces += [(r, a, min(a + step, r[2])) for a in range(r[1], r[2], step)]
    with ThreadPoolExecutor(threads or os.cpu_count() or 1) as pool:
        counts = list(pool.map(lambda q: count_range(q[0][0], q[1], q[2], window), pieces))
    per_range = {}
    for (r, _, _), n in zip(pieces, counts):
        per_range[id(r)] = per_range.get(id(r), 0) + n
    for r, nxt in zip(cut, cut[1:]):
        if nxt[1] != 0:
            nxt[3] = r[3] + per_range[id(r)]


#: What opening a file costs, in bytes read, when ranges are packed
#: into tasks (Spark's `spark.sql.files.openCostInBytes` default).
OPEN_COST = 4 * _MIB


def tasks(ranges, split_size=_DEFAULTS["splitSize"]):
    """The ranges of `plan` packed into tasks, in order: a range of a
    large file is a task of its own, small files share a task up to
    `split_size` bytes (each counted `OPEN_COST` more), as Spark packs
    small files into its file readers' partitions."""
    out, size = [], 0
    for r in ranges:
        cost = r[2] - r[1] + OPEN_COST
        if out and size + cost <= split_size:
            out[-1].append(r)
            size += cost
        else:
            out.append([r])
            size = cost
    return out


def read_ranges(ranges, *, window=_DEFAULTS["windowSize"],
                limit=_DEFAULTS["maxMessageSize"], split_size=None):
    """The messages of the ranges of `plan` (one task's, from `tasks`) as
    Arrow record batches (`SCHEMA`), a range at a time; the window is
    `window` capped at the split size."""
    if split_size is not None:
        window = min(window, max(split_size, 1 << 16))
    for path, start, end, first, whole in ranges:
        yield from read_range(path, start, end, first, window=window, limit=limit,
                              whole=whole)


def read_tasks(tasks, split_size, batches):
    """`mapInArrow`'s function for `urifind.spark.read_mbox` (bound to
    the first two arguments): for each row of `batches` (a task number),
    the messages of that task of `tasks` (see `tasks`), as record
    batches."""
    for batch in batches:
        for task in batch.column(0).to_pylist():
            yield from read_ranges(tasks[task], split_size=split_size)


def scan_tasks(tasks, split_size, finder, fields, batches):
    """`mapInArrow`'s function for `urifind.spark.find_mbox_uris` (bound
    to the first four arguments): for each row of `batches` (a task
    number), the URIs of the messages of that task of `tasks`, found by
    `finder` (a `urifind.Finder`) in the same Python worker that reads
    them, one row per URI: `path`, `index` and `offset` of its message,
    then the match's `fields` (names of `urifind.MATCH_FIELDS`). The
    messages never leave the worker; only the URIs go back to Spark."""
    for batch in batches:
        for task in batch.column(0).to_pylist():
            for msgs in read_ranges(tasks[task], split_size=split_size):
                yield uri_rows(msgs, finder, fields)


def uri_rows(msgs, finder, fields):
    """The URIs of a record batch of messages (`SCHEMA`) as a record
    batch of one row per URI (see `scan_tasks`)."""
    import pyarrow.compute as pc  # here: the reader alone does without it

    found = finder.find_arrow(msgs.column("message"), fields=fields)
    rows = pc.list_parent_indices(found)
    flat = pc.list_flatten(found)
    names = msgs.schema.names[:3]  # WHERE
    cols = [msgs.column(n).take(rows) for n in names]
    for name in fields:
        cols.append(flat.field(name))
    return pa.RecordBatch.from_arrays(cols, names=names + list(fields))


def register(spark):
    """Registers the `mbox` format with `spark` (once per session)."""
    from urifind.mbox_datasource import MboxDataSource

    spark.dataSource.register(MboxDataSource)


def __getattr__(name):
    # The data source's class is imported when it is asked for: importing
    # `pyspark.sql.datasource` costs each executor's Python worker about
    # 0.1 s, which the readers of `read_mbox` and `find_mbox_uris` need
    # not pay.
    if name == "MboxDataSource":
        from urifind.mbox_datasource import MboxDataSource

        return MboxDataSource
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
