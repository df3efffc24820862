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
