"""The splittable mbox reader (`urifind.mbox_source`): an mbox cut into
byte ranges of any size, read in windows of any size, gives exactly the
messages of `urifind --mail` (the same cuts, each message once and
whole, `index` its number in the file), with `From ` lines in bodies
(mboxo and mboxrd quoting) and messages straddling the cuts; on Spark,
`spark.read.format("mbox")` with a small split size gives the URIs of
`urifind --mail`."""

import gzip
import json
import os
import shutil
import subprocess

import pyarrow as pa
import pytest

from urifind import mbox_source as ms
from urifind import spark as us


def envelope(i):
    return f"From sender{i}@example.org Tue Nov  3 10:{i % 60:02d}:00 2026"


def message(i):
    """Message i: URIs in its header and body, and (by i) `From ` lines
    that are no message start: mboxrd-quoted, mboxo (no blank line
    before), after a blank line but no envelope, CRLF lines."""
    nl = "\r\n" if i % 5 == 4 else "\n"
    body = [
        f"Subject: message {i} http://subject{i}.example/",
        "",
        f"see <http://body{i}.example/a/very/long/",
        f"  path/{i}> and http://plain{i}.example/?q={i}",
    ]
    if i % 3 == 0:
        body += [f">From http://quoted{i}.example/ (mboxrd)", f">>From deeper{i}"]
    if i % 3 == 1:
        body += [f"From http://mboxo{i}.example/ starts a line"]
    if i % 4 == 2:
        body += ["", f"From the desk of {i}: http://desk{i}.example/"]
    if i % 7 == 3:
        body += ["x" * (300 + i)]  # a long line, to straddle cuts
    return (envelope(i) + nl + nl.join(body) + nl + nl).encode()


@pytest.fixture(scope="module")
def mbox():
    return b"".join(message(i) for i in range(40))


def all_rows(path, split, window, index=True):
    rows = []
    for r in ms.plan(str(path), split_size=split, index=index, window=window):
        for b in ms.read_range(*r[:4], window=window, whole=r[4]):
            rows += b.to_pylist()
    return rows


def test_split_mbox_is_the_library_rule(mbox):
    msgs = us.split_mbox(mbox)
    assert len(msgs) == 40
    assert b"".join(msgs) == mbox
    assert msgs[7] == message(7)
    assert us.split_mbox(b"preamble\nFrom x@y 10:00\n") == [b"preamble\nFrom x@y 10:00\n"]
    assert us.split_mbox(b"") == []


@pytest.mark.parametrize("split", [1, 2, 3, 4, 5, 17, 100, 333, 1000, 4096, 1 << 30])
@pytest.mark.parametrize("window", [7, 64, 1 << 20])
def test_ranges_read_each_message_once(tmp_path, mbox, split, window):
    path = tmp_path / "m.mbox"
    path.write_bytes(mbox)
    rows = all_rows(path, split, window)
    want = us.split_mbox(mbox)
    assert [r["message"] for r in rows] == want
    assert [r["index"] for r in rows] == list(range(len(want)))
    offsets = [0]
    for m in want[:-1]:
        offsets.append(offsets[-1] + len(m))
    assert [r["offset"] for r in rows] == offsets
    assert {r["path"] for r in rows} == {str(path)}
    if split < len(mbox):
        assert len(ms.plan(str(path), split_size=split)) > 1


def test_without_index_the_pass_is_skipped(tmp_path, mbox):
    path = tmp_path / "m.mbox"
    path.write_bytes(mbox)
    rows = all_rows(path, 300, 64, index=False)
    assert [r["message"] for r in rows] == us.split_mbox(mbox)
    assert all(r["index"] is None for r in rows)


def test_gzip_and_not_mbox_are_one_range(tmp_path, mbox):
    (tmp_path / "a.mbox.gz").write_bytes(gzip.compress(mbox))
    (tmp_path / "b.txt").write_bytes(b"Subject: x\n\nFrom a@b 10:00\n\nhttp://b.example/\n")
    plan = ms.plan(str(tmp_path), split_size=10)
    assert [(os.path.basename(p), whole) for p, _, _, _, whole in plan] == [
        ("a.mbox.gz", True), ("b.txt", True)]
    rows = all_rows(tmp_path, 10, 64)
    assert [r["message"] for r in rows[:-1]] == us.split_mbox(mbox)
    assert rows[-1]["message"] == (tmp_path / "b.txt").read_bytes()
    assert rows[-1]["index"] == 0


def test_long_messages_are_read_past(tmp_path):
    big = b"From a@b Tue Nov  3 10:00:00 2026\n\n" + b"y" * 5000 + b"\n\n"
    small = b"From c@d Tue Nov  3 10:00:00 2026\n\nhttp://c.example/\n\n"
    path = tmp_path / "m.mbox"
    path.write_bytes(small + big + small)
    for split in (10, 1000, 100000):
        rows = []
        for r in ms.plan(str(path), split_size=split):
            for b in ms.read_range(*r[:4], window=256, limit=1000, whole=r[4]):
                rows += b.to_pylist()
        assert [r["message"] for r in rows] == [small, None, small], split
        assert [r["offset"] for r in rows] == [0, len(small), len(small) + len(big)]


def test_plain_files_are_batched_from_the_file_as_gzip_ones_are_read(tmp_path, mbox):
    # Two readers, one rule: an uncompressed file (starts found in Rust,
    # the messages mapped from the file) and the same bytes gzipped (read
    # and cut in Python windows) give the same rows, with long messages
    # (nulls), a message that is one long line, and CRLF envelopes.
    huge = b"From z@y Tue Nov  3 10:00:00 2026\r\n\r\n" + b"z" * 9000 + b"\r\n\r\n"
    data = b"".join(us.split_mbox(mbox)[:10]) + huge + b"".join(us.split_mbox(mbox)[10:]) + huge
    (tmp_path / "m.mbox").write_bytes(data)
    (tmp_path / "m.mbox.gz").write_bytes(gzip.compress(data))
    for window in (64, 1000, 1 << 20):
        plain, packed = (
            [row for b in ms.read_range(str(tmp_path / name), 0, len(data), 5,
                                        window=window, limit=4000, whole=True)
             for row in b.to_pylist()]
            for name in ("m.mbox", "m.mbox.gz"))
        for row in plain + packed:
            row.pop("path")
        assert plain == packed, window
        assert [r["message"] for r in plain] == [
            None if len(m) > 4000 else m for m in us.split_mbox(data)]
        assert [r["index"] for r in plain] == list(range(5, 5 + 42))
    # Batches hold about a window of messages, never a copy of the file.
    batches = list(ms.read_range(str(tmp_path / "m.mbox"), 0, len(data), 0,
                                 window=4000, whole=True))
    assert len(batches) > 3
    assert all(b.column("message").buffers()[2].size <= 4000 or b.num_rows == 1
               for b in batches)


def test_tasks_pack_small_files_and_leave_large_ranges_alone(tmp_path, mbox):
    for i in range(5):
        (tmp_path / f"small{i}.mbox").write_bytes(mbox)
    (tmp_path / "z-large.mbox").write_bytes(mbox * 4)
    split = 2 * ms.OPEN_COST + 2 * len(mbox)
    ranges = ms.plan(str(tmp_path), split_size=len(mbox) * 2)
    groups = ms.tasks(ranges, split)
    # Every range once, in order; two small files a task; the large
    # file's two ranges, each a task of its own.
    assert [r for g in groups for r in g] == ranges
    assert [len(g) for g in groups] == [2, 2, 1, 1, 1]
    assert all(sum(r[2] - r[1] + ms.OPEN_COST for r in g) <= split for g in groups if len(g) > 1)
    # A split smaller than the open cost never packs.
    assert ms.tasks(ranges, 1000) == [[r] for r in ranges]
    assert ms.tasks([], split) == []
    rows = [row for g in groups for b in ms.read_ranges(g) for row in b.to_pylist()]
    assert [r["message"] for r in rows] == us.split_mbox(mbox) * 5 + us.split_mbox(mbox * 4)


def test_split_size_for_gives_every_core_a_range():
    mib = 1 << 20
    assert ms.split_size_for(1000 * mib, 128 * mib, 1) == 128 * mib
    assert ms.split_size_for(100 * mib, 128 * mib, 2) == 50 * mib
    assert ms.split_size_for(10 * mib, 128 * mib, 8) == 4 * mib  # not below 4 MiB


def test_window_starts_wait_for_a_whole_line():
    from urifind import _urifind

    data = b"From a@b 10:00\n\nFrom c@d Tue"
    assert _urifind.mbox_window_starts(data, 3, False) == ([], 16)
    assert _urifind.mbox_window_starts(data, 3, True) == ([16], len(data))
    assert isinstance(ms.SCHEMA, str) and pa is not None


def cli_matches(cli, path):
    """`urifind --mail --json PATH`'s matches: (message, uri, file offsets
    of the URI and of its span, context, part, message_id)."""
    out = subprocess.run([str(cli), "--mail", "--json", str(path)], capture_output=True,
                         check=True)
    return [(j["message"], j["uri"], j["uri_start"], j["uri_end"], j["span_start"],
             j["span_end"], j["context"], j.get("part"), j.get("message_id"))
            for j in map(json.loads, out.stdout.splitlines()) if j.get("type") == "match"]


def uri_row_matches(rows):
    """The rows of `scan_tasks` in the terms of `cli_matches`: the message
    numbered from 1, offsets into the file."""
    return [(r["index"] + 1, r["uri"], r["offset"] + r["byte_start"],
             r["offset"] + r["byte_end"], r["offset"] + r["byte_span_start"],
             r["offset"] + r["byte_span_end"], r["context"], r["part"], r["message_id"])
            for r in rows]


@pytest.fixture(scope="module")
def mail_mbox(mbox):
    """The messages of `mbox` with MIME mail among them (quoted-printable,
    HTML links, a multipart message), the kind the mail reader decodes."""
    from test_mail_fields import MBOX

    return MBOX + mbox[:len(mbox) // 2] + MBOX.replace(b"m1@", b"m2@") + mbox


@pytest.mark.parametrize("split", [1, 97, 700, 5000, 1 << 30])
def test_scan_tasks_find_the_uris_of_urifind_mail(tmp_path, mail_mbox, cli, split):
    """The fused read-and-find of `find_mbox_uris`, at any split size:
    one row per URI of `urifind --mail --json`, in the same message, at
    the same file offsets, with the same mail fields."""
    import urifind

    path = tmp_path / "m.mbox"
    path.write_bytes(mail_mbox)
    groups = ms.tasks(ms.plan(str(path), split_size=split), split)
    finder = urifind.Finder(mail=True)
    fields = list(urifind.MATCH_FIELDS)
    tasks = pa.record_batch([pa.array(range(len(groups)), pa.int64())], names=["id"])
    batches = list(ms.scan_tasks(groups, split, finder, fields, iter([tasks])))
    assert all(b.schema.names == ["path", "index", "offset"] + fields for b in batches)
    rows = [r for b in batches for r in b.to_pylist()]
    want = cli_matches(cli, path)
    assert uri_row_matches(rows) == want
    assert len(want) > 150 and {w[6] for w in want} >= {"html-href", "text"}
    assert any("mboxo" in w[1] for w in want) and any("quoted" in w[1] for w in want)
    if split < len(mail_mbox):
        assert len(groups) > 1
    # A subset of the fields: the same rows, only those columns.
    some = [r for b in ms.scan_tasks(groups, split, finder, ["uri", "context"], iter([tasks]))
            for r in b.to_pylist()]
    assert some == [{k: r[k] for k in ("path", "index", "offset", "uri", "context")}
                    for r in rows]


# --- on Spark ---------------------------------------------------------------

def _spark_ready():
    try:
        import pyspark  # noqa: F401
    except ImportError:
        return False
    return bool(shutil.which("java") or os.environ.get("JAVA_HOME"))


@pytest.mark.skipif(not _spark_ready(), reason="pyspark or Java missing: Spark tests skipped")
def test_spark_splits_equal_urifind_mail(tmp_path, mbox, cli):
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    spark = (SparkSession.builder.master("local[2]").appName("mbox source")
             .config("spark.ui.enabled", "false").getOrCreate())
    path = tmp_path / "m.mbox"
    path.write_bytes(mbox)
    df = us.read_mbox(spark, str(path), split_size=700)
    assert df.rdd.getNumPartitions() > 5
    rows = (df.select("index", F.explode(us.find_uris("message", mail=True)).alias("m"))
            .select("index", "m.uri").collect())
    got = sorted((r["index"] + 1, r.uri) for r in rows)
    out = subprocess.run([str(cli), "--mail", "--json", str(path)], capture_output=True,
                         check=True)
    want = sorted((j["message"], j["uri"]) for j in map(json.loads, out.stdout.splitlines())
                  if j.get("type") == "match")
    assert got == want
    assert any("mboxo" in u for _, u in want) and any("quoted" in u for _, u in want)
    # Without index, the plan reads nothing but the files' first bytes.
    bare = us.read_mbox(spark, [str(path)], split_size=700, index=False).collect()
    assert sorted(r.offset for r in bare) == sorted(r.offset for r in df.collect())
    assert {r["index"] for r in bare} == {None}
    with pytest.raises(FileNotFoundError):
        us.read_mbox(spark, str(tmp_path / "missing.mbox"))
    ms.register(spark)
    source = spark.read.format("mbox").option("splitSize", "1k").load(str(path))
    assert source.rdd.getNumPartitions() > 5
    assert sorted(source.collect()) == sorted(df.collect())


@pytest.mark.skipif(not _spark_ready(), reason="pyspark or Java missing: Spark tests skipped")
def test_find_mbox_uris_is_read_mbox_and_find_uris_in_one_step(tmp_path, mail_mbox, cli):
    """`find_mbox_uris` at a small split size: the rows of `read_mbox` +
    `explode(find_uris(mail=True))`, every field, and the URIs of
    `urifind --mail --json` at the same file offsets."""
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    import urifind

    spark = (SparkSession.builder.master("local[2]").appName("mbox source")
             .config("spark.ui.enabled", "false").getOrCreate())
    path = tmp_path / "m.mbox"
    path.write_bytes(mail_mbox)
    fused = us.find_mbox_uris(spark, str(path), split_size=700)
    assert fused.columns == ["path", "index", "offset"] + list(urifind.MATCH_FIELDS)
    assert fused.rdd.getNumPartitions() > 5
    udf = (us.read_mbox(spark, str(path), split_size=700)
           .select("path", "index", "offset",
                   F.explode(us.find_uris("message", mail=True)).alias("m"))
           .select("path", "index", "offset", "m.*"))
    key = ("index", "byte_start", "context")
    got = sorted((r.asDict(recursive=True) for r in fused.collect()),
                 key=lambda r: tuple(r[k] for k in key))
    assert got == sorted((r.asDict(recursive=True) for r in udf.collect()),
                         key=lambda r: tuple(r[k] for k in key))
    assert sorted(uri_row_matches(got)) == sorted(cli_matches(cli, path))
    # Chosen fields only; options reach the finder; bad names fail here.
    few = us.find_mbox_uris(spark, str(path), split_size=700, fields=["uri", "context"])
    assert few.columns == ["path", "index", "offset", "uri", "context"]
    assert sorted(few.collect()) == sorted(fused.select(*few.columns).collect())
    plain = us.find_mbox_uris(spark, str(path), mail=False, fields=["uri"])
    plain = sorted(r.uri for r in plain.collect())
    f = urifind.Finder()
    assert plain == sorted(u for m in us.split_mbox(mail_mbox) for u in f.find_uris(m))
    assert plain != sorted(r["uri"] for r in got)
    # Bad field names fail on the driver with find_arrow's own errors.
    with pytest.raises(ValueError, match='"colour"'):
        us.find_mbox_uris(spark, str(path), fields=["uri", "colour"])
    with pytest.raises(ValueError, match='"uri" is asked for twice'):
        us.find_mbox_uris(spark, str(path), fields=["uri", "uri"])
    with pytest.raises(TypeError, match="not a string"):
        us.find_mbox_uris(spark, str(path), fields="uri")
    with pytest.raises(TypeError, match="colour"):
        us.find_mbox_uris(spark, str(path), colour="red")
