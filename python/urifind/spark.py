"""urifind on Spark: find URIs where the text already lives.

Everything here is built on Spark's own readers and UDFs; nothing is
collected to the driver. Each Python worker builds one `Finder` per set of
options and keeps it (workers are reused between tasks), and every batch
of rows goes to it as one Arrow array, scanned in Rust with the GIL
released.

* `find_uris(col, **options)`: a column of `array<struct<...>>` (the
  fields of `urifind.MATCH_FIELDS`, as `Match` has them), one struct per
  URI found in the text (`string` or `binary`) of each row; offsets count
  characters in a `string` column, bytes in a `binary` one. An Arrow UDF
  on Spark >= 4.1, a `pandas_udf` before.
* `find_uris_table(df, col, **options)`: the same through `mapInArrow`,
  as a new column, or one row per URI with `explode=True`.
* `find_mbox_uris(spark, path, **options)`: one row per URI of the mbox
  files at `path`, each task reading its byte range and finding the URIs
  in the same Python worker (`urifind.mbox_source.scan_tasks`), so the
  messages never go back to the JVM.
* Readers that keep a message or record in one row, so URIs that wrap
  across lines are found whole: `read_mbox` (one mail message per row,
  large files read in parallel by byte ranges: `urifind.mbox_source`),
  `read_wet` (one WARC/WET record per row, read with FastWARC) and
  `read_documents` (one file per row, Spark's `binaryFile`).

The options are those of `urifind.Finder`. It needs the `spark` extra
(`pip install 'urifind[spark]'`: pyarrow, pyspark, pandas, fastwarc) and
a Java runtime for Spark (17 or newer for Spark 4).
"""

import functools
import gzip
import re

try:
    import pandas  # noqa: F401  (Spark's mapInArrow and pandas_udf need it)
    import pyarrow as pa
    import pyarrow.compute  # noqa: F401  (pa.compute)
    import pyspark  # noqa: F401
except ImportError as e:
    raise ImportError(
        f"urifind.spark needs {e.name or 'pyarrow, pyspark and pandas'}, which is "
        "not installed: install the spark extra, pip install 'urifind[spark]'"
    ) from e

import urifind
from urifind import _urifind

__all__ = [
    "MATCH_TYPE",
    "find_uris",
    "find_mbox_uris",
    "find_uris_table",
    "read_documents",
    "read_mbox",
    "read_wet",
]

_OPTIONS = tuple(urifind.FINDER_OPTIONS)


def _key(options):
    """The options as a hashable key; checked once, on the driver, so a
    bad option fails there with the command's message and not in a
    task."""
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        raise TypeError(f"unknown Finder option(s): {', '.join(unknown)}")
    schemes = options.get("schemes")
    if schemes is not None and not isinstance(schemes, str):
        options = dict(options, schemes=tuple(schemes))
    urifind.Finder(**options)
    return tuple(sorted(options.items()))


@functools.lru_cache(maxsize=None)
def _finder(key):
    """The worker's finder for these options, built on first use."""
    opts = dict(key)
    if isinstance(opts.get("schemes"), tuple):
        opts["schemes"] = list(opts["schemes"])
    return urifind.Finder(**opts)


def _spark_version():
    import pyspark

    m = re.match(r"(\d+)\.(\d+)", pyspark.__version__)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def _match_arrow_type():
    """The Arrow type of `Finder.find_arrow`'s result, as the extension
    builds it (`list<struct<...>>`, one field per `MATCH_FIELDS`)."""
    return pa.array(urifind.Finder().find_arrow_c(pa.array([], pa.string()))).type


def _spark_type():
    """The Spark `DataType` of `find_uris`'s column, made from the Arrow
    type of the matches (built without a JVM, so that workers can build
    it too): every field nullable, as Spark writes them."""
    from pyspark.sql import types as T

    def spark(t):
        if pa.types.is_integer(t):
            return T.LongType()
        if pa.types.is_string(t):
            return T.StringType()
        if pa.types.is_list(t):
            return T.ArrayType(spark(t.value_type))
        raise TypeError(f"no Spark type for the match field type {t}")

    item = _match_arrow_type().value_type
    return T.ArrayType(T.StructType([T.StructField(f.name, spark(f.type)) for f in item]))


#: The Spark type of `find_uris`'s column (a DDL string).
MATCH_TYPE = _spark_type().simpleString()


def _as_spark_arrow(result, field_type):
    """The finder's result in the Arrow type Spark expects (the same
    values; field names and nullability as Spark writes them)."""
    if result.type.equals(field_type):
        return result
    return result.cast(field_type)


def _arrow_type():
    from pyspark.sql.pandas.types import to_arrow_type

    return to_arrow_type(_spark_type())


def find_uris(col, *, use_arrow_udf=None, **options):
    """A column of the URIs found in `col` (a column of `string` or
    `binary`, or its name): `array<struct<...>>` (`MATCH_TYPE`), one
    struct per URI, null for a null row.

    On Spark >= 4.1 this is an Arrow UDF (rows go to Rust as Arrow
    arrays); before, a `pandas_udf` (`use_arrow_udf=False` forces it).
    The keyword options are `urifind.Finder`'s.

    >>> df.select(F.explode(find_uris("text")).alias("m")).select("m.uri")
    """
    from pyspark.sql import functions as F

    key = _key(options)
    if use_arrow_udf is None:
        use_arrow_udf = _spark_version() >= (4, 1)
    if use_arrow_udf:

        def scan(texts: pa.Array) -> pa.Array:
            out = _finder(key).find_arrow(texts)
            return _as_spark_arrow(out, _arrow_type())

        udf = F.arrow_udf(scan, MATCH_TYPE)
    else:
        import pandas as pd

        def scan_pandas(texts: pd.Series) -> pd.Series:
            out = _finder(key).find_arrow(pa.Array.from_pandas(texts))
            return pd.Series(out.to_pylist(), index=texts.index)

        udf = F.pandas_udf(scan_pandas, MATCH_TYPE)
    return udf(col)


def find_uris_table(df, col, *, output="uris", explode=False, **options):
    """`df` with the URIs of column `col` added, through `mapInArrow`
    (each Arrow batch goes to the finder as it is).

    By default a column `output` of `MATCH_TYPE` is appended. With
    `explode=True` there is one row per URI instead: the columns of `df`
    (but `col`) followed by the match's fields (`urifind.MATCH_FIELDS`).
    """
    from pyspark.sql.types import StructField, StructType

    key = _key(options)
    names = df.columns
    if col not in names:
        raise ValueError(f"no column {col!r} in {names}")
    match_type = _spark_type()
    if explode:
        kept = [f for f in df.schema.fields if f.name != col]
        schema = StructType(kept + list(match_type.elementType.fields))
    else:
        if output in names:
            raise ValueError(f"column {output!r} already exists")
        schema = StructType(list(df.schema.fields) + [StructField(output, match_type)])

    def batches(it):
        arrow_type = _arrow_type()
        for batch in it:
            found = _finder(key).find_arrow(batch.column(col))
            found = _as_spark_arrow(found, arrow_type)
            if not explode:
                yield pa.RecordBatch.from_arrays(
                    list(batch.columns) + [found], names=names + [output]
                )
                continue
            rows = pa.compute.list_parent_indices(found)
            flat = pa.compute.list_flatten(found)
            cols = [batch.column(n).take(rows) for n in names if n != col]
            cols += [flat.field(i) for i in range(flat.type.num_fields)]
            yield pa.RecordBatch.from_arrays(cols, schema=pa.schema(
                [batch.schema.field(n) for n in names if n != col]
                + [flat.type.field(i) for i in range(flat.type.num_fields)]
            ))

    return df.mapInArrow(batches, schema)


# --- readers ---------------------------------------------------------------

def split_mbox(data):
    """The messages of an mbox file's bytes, as `urifind --mail` splits
    them: a message starts at each envelope `From ` line that follows a
    blank line (the line stays with its message; a `From ` line of a body,
    quoted as `>From ` or not, is no start). A file that does not start
    with `From ` is one message. Nothing is lost: the messages joined are
    the input."""
    starts = _urifind.mbox_starts(data)
    ends = starts[1:] + [len(data)]
    return [data[s:e] for s, e in zip(starts, ends)]


def _gunzip(path, data):
    """`data` as `bytes`, decompressed when `path` ends with `.gz`."""
    if path.endswith(".gz"):
        return gzip.decompress(data)
    return bytes(data)


def _files(batch):
    """`(path, content)` of each row of a `binaryFile` batch, the content
    a zero-copy view of the batch's buffer."""
    paths = batch.column("path").to_pylist()
    content = batch.column("content")
    if content.offset or content.null_count:
        content = pa.concat_arrays([content])  # a fresh, unsliced copy
    _, offsets, data = content.buffers()
    offs = memoryview(offsets).cast("i")
    view = memoryview(data) if data is not None else memoryview(b"")
    for i, p in enumerate(paths):
        yield p, view[offs[i]:offs[i + 1]]


def _binary_files(spark, path, recursive):
    reader = spark.read.format("binaryFile")
    if recursive:
        reader = reader.option("recursiveFileLookup", "true")
    return reader.load(path).select("path", "content")


def read_documents(spark, path, *, recursive=False, decompress=True):
    """One row per file, `path: string, content: binary` (Spark's
    `binaryFile` reader: globs and directories work), `.gz` files
    decompressed unless `decompress=False`."""
    df = _binary_files(spark, path, recursive)
    if not decompress:
        return df

    def gunzip(it):
        for batch in it:
            paths = batch.column("path").to_pylist()
            if not any(p.endswith(".gz") for p in paths):
                yield batch
                continue
            contents = [_gunzip(p, c) for p, c in _files(batch)]
            yield pa.RecordBatch.from_arrays(
                [batch.column("path"), pa.array(contents, pa.binary())],
                names=["path", "content"],
            )

    return df.mapInArrow(gunzip, "path string, content binary")


def _mbox_tasks(spark, path, recursive, split_size, index):
    """The tasks of `read_mbox` and `find_mbox_uris` (`mbox_source.tasks`),
    planned in the driver's process, the split size they were cut by,
    and a DataFrame of one row per task to run them over."""
    from urifind import mbox_source as ms

    try:
        parallelism = spark.sparkContext.defaultParallelism
    except Exception:  # Spark Connect: no SparkContext
        parallelism = 1
    split = ms._size(split_size) if split_size is not None else ms._DEFAULTS["splitSize"]
    ranges = ms.plan(path, split_size=split, recursive=recursive, index=index,
                     min_partitions=parallelism)
    split = ms.split_size_for(sum(r[2] - r[1] for r in ranges), split, parallelism)
    groups = ms.tasks(ranges, split)
    return groups, split, spark.range(0, len(groups), 1, max(1, len(groups)))


def read_mbox(spark, path, *, recursive=False, split_size=None, index=True):
    """One row per mail message of the mbox files at `path` (a file, a
    directory, a glob or a list of them; `.gz` files are decompressed):
    `path: string, index: bigint, offset: bigint, message: binary`,
    `index` counting the messages of a file from 0 (null with
    `index=False`) and `offset` where the message starts in it. Messages
    are split as `urifind --mail` splits them (see `split_mbox`); a file
    without a `From ` line first is one message.

    Large files are read in ranges of `split_size` bytes (128 MiB by
    default, smaller when that would leave cores idle) by separate tasks,
    with no size limit; small files share a task. The ranges are planned
    here, in the driver's process, from the files' sizes (and, for
    `index`, a count of the message starts of each large file's earlier
    ranges: a substring search in Rust), and read by `mapInArrow` over
    one row per task: nothing on the driver starts a Python worker. The
    rows are those of the `mbox` data source of `urifind.mbox_source`
    (`spark.read.format("mbox")`), which reads the same ranges.

    To find the URIs of the messages, `find_mbox_uris` does the reading
    and the finding in one step, at little more than the cost of reading."""
    from urifind import mbox_source as ms

    groups, split, tasks = _mbox_tasks(spark, path, recursive, split_size, index)
    # A function of mbox_source (pickled by reference, so that the
    # executors import that module and not this one, which needs pandas).
    return tasks.mapInArrow(functools.partial(ms.read_tasks, groups, split), ms.SCHEMA)


def find_mbox_uris(spark, path, *, mail=True, fields=None, recursive=False,
                   split_size=None, index=True, **options):
    """One row per URI in the mail messages of the mbox files at `path`:
    `path: string, index: bigint, offset: bigint` of its message (as
    `read_mbox` has them), then the match's fields (`fields`, names of
    `urifind.MATCH_FIELDS`, all of them by default, typed as in
    `MATCH_TYPE`; offsets count bytes in the message).

    The rows are those of
    `read_mbox(...).select("path", "index", "offset",
    F.explode(find_uris("message", mail=True)))`, made in one step: each
    task reads its byte range of the file and finds the URIs in the same
    Python worker, so the messages never go back to Spark and no second
    Python worker is started; only the URIs leave the worker. Scanning a
    mailbox this way costs little more than reading it. `mail=True` reads
    each message as `urifind --mail` does; the other keyword options are
    `urifind.Finder`'s, and `path`, `recursive`, `split_size` and `index`
    are `read_mbox`'s. Asking only for the fields you use (`fields=["uri",
    "context"]`) makes the rows smaller.

    >>> find_mbox_uris(spark, "archive/").groupBy("uri").count()
    """
    from urifind import mbox_source as ms

    key = _key(dict(options, mail=mail))
    # The fields are checked here, on the driver, by the finder's own
    # rule: the rows it gives for no text have the fields asked for.
    item = _finder(key).find_arrow(pa.array([], pa.binary()), fields=fields).type
    fields = [f.name for f in item.value_type]
    match_fields = {f.name: f for f in _spark_type().elementType.fields}
    schema = ", ".join([ms.WHERE] + [
        f"`{f}` {match_fields[f].dataType.simpleString()}" for f in fields])
    groups, split, tasks = _mbox_tasks(spark, path, recursive, split_size, index)
    scan = functools.partial(ms.scan_tasks, groups, split, _finder(key), fields)
    return tasks.mapInArrow(scan, schema)


WET_RECORD_TYPES = ("conversion", "response", "resource")


def read_warc_bytes(data, record_types=WET_RECORD_TYPES):
    """The records of one WARC or WET file's bytes (gzip, zstd or lz4
    compressed or not) as tuples `(index, record_id, type, target_uri,
    date, content)`, read with FastWARC; HTTP headers are taken off
    response records."""
    import io

    from fastwarc import warc

    mask = 0
    for t in record_types:
        mask |= getattr(warc.WarcRecordType, t)
    out = []
    it = warc.ArchiveIterator(io.BytesIO(data), record_types=mask, parse_http=True)
    for i, rec in enumerate(it):
        h = rec.headers
        out.append((
            i,
            h.get("WARC-Record-ID"),
            h.get("WARC-Type"),
            h.get("WARC-Target-URI"),
            h.get("WARC-Date"),
            rec.reader.read(),
        ))
    return out


def read_wet(spark, path, *, record_types=WET_RECORD_TYPES, recursive=False):
    """One row per WARC record of the WET (or WARC) files at `path`, read
    with FastWARC: `path: string, index: int, record_id: string, type:
    string, target_uri: string, date: string, content: binary`. Only the
    given record types are kept (by default `conversion`, the text of a
    WET file, and `response` and `resource`, whose HTTP headers are taken
    off)."""
    df = _binary_files(spark, path, recursive)
    types = tuple(record_types)
    schema = ("path string, index int, record_id string, type string, "
              "target_uri string, date string, content binary")

    def records(it):
        for batch in it:
            rows = []
            for p, data in _files(batch):
                rows.extend((p,) + r for r in read_warc_bytes(data, types))
            cols = list(zip(*rows)) if rows else [[]] * 7
            yield pa.RecordBatch.from_arrays(
                [pa.array(cols[0], pa.string()), pa.array(cols[1], pa.int32()),
                 pa.array(cols[2], pa.string()), pa.array(cols[3], pa.string()),
                 pa.array(cols[4], pa.string()), pa.array(cols[5], pa.string()),
                 pa.array(cols[6], pa.binary())],
                names=["path", "index", "record_id", "type", "target_uri",
                       "date", "content"],
            )

    return df.mapInArrow(records, schema)
