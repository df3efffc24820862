"""urifind.spark on a local[2] Spark: the column function and mapInArrow
equal `Finder` row by row, the readers keep one message, record or file
per row, read_mbox + find_uris over the mail cases equals `urifind
--mail`, and the example job counts hosts right.

Skipped, with the reason, where pyspark or Java is missing."""

import gzip
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import urifind

from conftest import PYTHON_DIR, REPO, SHARED, case_files

pyspark = pytest.importorskip("pyspark", reason="pyspark is not installed: Spark tests skipped")

if not (shutil.which("java") or os.environ.get("JAVA_HOME")):
    pytest.skip(
        "no Java runtime (java not on PATH, JAVA_HOME unset): Spark tests skipped; "
        "install one (apt-get install openjdk-17-jre-headless) to run them",
        allow_module_level=True,
    )

from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402

from urifind import spark as us  # noqa: E402


@pytest.fixture(scope="module")
def spark():
    s = (
        SparkSession.builder.master("local[2]")
        .appName("urifind tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "64")
        .getOrCreate()
    )
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()


def case_texts():
    return [p.read_bytes() for p in case_files(REPO / "corpora" / "cases")]


def by_id(rows, col):
    return [r[col] for r in sorted(rows, key=lambda r: r["id"])]


def as_dicts(structs):
    return None if structs is None else [s.asDict() for s in structs]


@pytest.fixture(scope="module")
def texts_df(spark):
    texts = case_texts() + [None]
    return spark.createDataFrame(
        list(enumerate(texts)), "id int, text binary"
    ).repartition(3), texts


@pytest.mark.parametrize("use_arrow_udf", [True, False], ids=["arrow_udf", "pandas_udf"])
def test_find_uris_column_equals_finder(texts_df, use_arrow_udf):
    if not use_arrow_udf:
        pytest.importorskip("pandas", reason="the pandas_udf path needs pandas")
    if use_arrow_udf and us._spark_version() < (4, 1):
        pytest.skip("Arrow UDFs need Spark >= 4.1")
    df, texts = texts_df
    opts = {"abbrev": True, "hyphen": "drop"}
    rows = df.select("id", us.find_uris("text", use_arrow_udf=use_arrow_udf, **opts).alias("m")).collect()
    got = [as_dicts(m) for m in by_id(rows, "m")]
    f = urifind.Finder(**opts)
    want = [None if t is None else [m.to_dict() for m in f.find(t)] for t in texts]
    assert got == want
    assert sum(len(w) for w in want if w) > 500


def test_find_uris_on_a_string_column(spark):
    df = spark.createDataFrame([("see <http://a.example/x\n  y> é http://b.example/.",)], "text string")
    (row,) = df.select(us.find_uris(F.col("text")).alias("m")).collect()
    assert [m.uri for m in row.m] == ["http://a.example/xy", "http://b.example/"]
    # offsets into a string column count characters, as Spark's own
    # string functions (substring) do; byte_start counts bytes
    assert row.m[1].start == len("see <http://a.example/x\n  y> é ")
    assert row.m[1].byte_start == len("see <http://a.example/x\n  y> é ".encode())


def test_find_uris_in_mail_mode_carries_where_it_was_found(spark):
    from test_mail_fields import MBOX

    df = spark.createDataFrame([(MBOX,)], "text binary")
    (row,) = df.select(us.find_uris("text", mail=True).alias("m")).collect()
    got = [m.asDict(recursive=True) for m in row.m]
    assert got == [m.to_dict() for m in urifind.Finder(mail=True).find(MBOX)]
    evil = [m for m in got if m["context"] == "html-href" and m["shown"]]
    assert evil and evil[0]["message_id"] == "m1@example.org" and evil[0]["part"] == "2"
    # the phishing signal, in Spark SQL
    flagged = (df.select(F.explode(us.find_uris("text", mail=True)).alias("m"))
               .where("m.context = 'html-href' AND m.shown IS NOT NULL AND m.shown != m.uri")
               .select("m.uri").collect())
    assert [r.uri for r in flagged] == ["https://evil.example.net/steal"]


def test_find_uris_carries_where_links_lead(spark, cli, tmp_path):
    """The link fields through the UDF, with `browser_hosts=True`, equal
    the command's `--json --browser-hosts` on the same text."""
    from test_link_fields import TEXT, cli_json

    df = spark.createDataFrame([(TEXT,)], "text binary")
    (row,) = df.select(us.find_uris("text", browser_hosts=True).alias("m")).collect()
    got = [m.asDict(recursive=True) for m in row.m]
    assert got == cli_json(cli, ["--browser-hosts"], TEXT, tmp_path)
    assert any(m["host_as_read"] == "127.0.0.1" for m in got)
    # wrapped links whose target host is not the wrapper's, in Spark SQL
    hosts = (df.select(F.explode(us.find_uris("text")).alias("m"))
             .where("m.target_host IS NOT NULL AND array_contains(m.flags, 'wrapped')")
             .select("m.target_host").collect())
    assert sorted(r.target_host for r in hosts) == ["docs.example.org", "intranet.example.com"]


def test_find_uris_table(texts_df):
    df, texts = texts_df
    f = urifind.Finder()
    rows = us.find_uris_table(df, "text").select("id", "uris").collect()
    assert [as_dicts(m) for m in by_id(rows, "uris")] == [
        None if t is None else [m.to_dict() for m in f.find(t)] for t in texts
    ]
    flat = us.find_uris_table(df, "text", explode=True)
    assert flat.columns == ["id"] + list(urifind.MATCH_FIELDS)
    got = sorted((r["id"], r["start"], r["uri"]) for r in flat.collect())
    want = sorted(
        (i, m.start, m.uri) for i, t in enumerate(texts) if t is not None for m in f.find(t)
    )
    assert got == want


def test_bad_options_fail_on_the_driver(spark):
    with pytest.raises(urifind.OptionError, match="unknown grammar"):
        us.find_uris("text", grammar="nope")
    with pytest.raises(TypeError, match="colour"):
        us.find_uris("text", colour="red")


# --- readers ----------------------------------------------------------------

MBOX = (
    b"From a@example.org Tue Nov  3 10:00:00 2026\n"
    b"Subject: one\n\nsee <http://one.example/\n  x>\n\n"
    b"From b@example.org Tue Nov  3 11:00:00 2026\n"
    b"Subject: two\n\n>From here: http://two.example/\n\n"
    b"From c@example.org Tue Nov  3 12:00:00 2026\n"
    b"Subject: three\n\nno link\n"
)


def test_split_mbox():
    msgs = us.split_mbox(MBOX)
    assert len(msgs) == 3 and b"".join(msgs) == MBOX
    assert all(m.startswith(b"From ") for m in msgs)
    assert us.split_mbox(b"no separator\nhttp://x.example/\n") == [b"no separator\nhttp://x.example/\n"]
    # As urifind --mail: a file that does not start with `From ` is one message.
    assert us.split_mbox(b"preamble\n\nFrom x@y 10:00\nbody\n") == [
        b"preamble\n\nFrom x@y 10:00\nbody\n"]
    assert us.split_mbox(b"\nFrom x\nbody\n") == [b"\nFrom x\nbody\n"]


def test_read_mbox(spark, tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.mbox").write_bytes(MBOX)
    (tmp_path / "b.mbox.gz").write_bytes(gzip.compress(MBOX))
    (tmp_path / "c.mbox").write_bytes(b"a message without a From line http://c.example/\n")
    (tmp_path / "sub" / "d.mbox").write_bytes(MBOX)
    rows = us.read_mbox(spark, str(tmp_path / "*.mbox*")).collect()
    assert sorted((Path(r.path).name, r["index"]) for r in rows) == [
        ("a.mbox", 0), ("a.mbox", 1), ("a.mbox", 2),
        ("b.mbox.gz", 0), ("b.mbox.gz", 1), ("b.mbox.gz", 2),
        ("c.mbox", 0),
    ]
    msgs = {(Path(r.path).name, r["index"]): bytes(r.message) for r in rows}
    assert msgs[("b.mbox.gz", 1)] == msgs[("a.mbox", 1)] == us.split_mbox(MBOX)[1]
    deep = us.read_mbox(spark, str(tmp_path), recursive=True).count()
    assert deep == 10
    uris = (
        us.read_mbox(spark, str(tmp_path / "a.mbox"))
        .select("index", F.explode(us.find_uris("message")).alias("m"))
        .orderBy("index", "m.start")
        .select("m.uri")
        .collect()
    )
    assert [r.uri for r in uris] == ["http://one.example/x", "http://two.example/"]


def test_read_mbox_and_find_uris_equal_urifind_mail(spark, cli):
    cases = SHARED / "cases-mail"
    if not cases.is_dir():
        pytest.skip(f"{cases} is not present")
    files = case_files(cases)
    rows = (
        us.read_mbox(spark, str(cases / "*.txt"))
        .select("path", "index", us.find_uris("message", mail=True).alias("m"))
        .collect()
    )
    got = {}
    for r in sorted(rows, key=lambda r: (r.path, r["index"])):
        got.setdefault(Path(r.path.removeprefix("file:")).name, []).extend(m.uri for m in r.m)
    for path in files:
        out = subprocess.run([str(cli), "--mail", str(path)], capture_output=True)
        assert got.get(path.name, []) == out.stdout.decode().splitlines(), path.name


def warc_record(kind, target, body, n):
    head = (
        f"WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {target}\r\n"
        f"WARC-Date: 2026-11-0{n}T00:00:00Z\r\n"
        f"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-00000000000{n}>\r\n"
        f"Content-Type: text/plain\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body + b"\r\n\r\n"


def test_read_wet(spark, tmp_path):
    pytest.importorskip("fastwarc", reason="fastwarc is not installed")
    bodies = [
        b"A page that links <http://one.example/a\n  b> and http://two.example/.",
        "Ünïcode text, then https://three.example/x?y=1".encode(),
    ]
    data = gzip.compress(warc_record("warcinfo", "", b"software: test", 1))
    for i, b in enumerate(bodies):
        data += gzip.compress(warc_record("conversion", f"http://src{i}.example/", b, i + 2))
    (tmp_path / "x.warc.wet.gz").write_bytes(data)
    (tmp_path / "y.warc.wet").write_bytes(gzip.decompress(data))
    df = us.read_wet(spark, str(tmp_path))
    rows = sorted(df.collect(), key=lambda r: (r.path, r["index"]))
    assert [(Path(r.path).name, r["index"], r.type) for r in rows] == [
        ("x.warc.wet.gz", 0, "conversion"), ("x.warc.wet.gz", 1, "conversion"),
        ("y.warc.wet", 0, "conversion"), ("y.warc.wet", 1, "conversion"),
    ]
    assert [bytes(r.content) for r in rows[:2]] == bodies
    assert rows[0].target_uri == "http://src0.example/" and rows[1].record_id.endswith("03>")
    uris = df.where(F.col("path").endswith(".gz")).select(F.explode(us.find_uris("content").uri)).collect()
    assert sorted(r[0] for r in uris) == [
        "http://one.example/ab", "http://two.example/", "https://three.example/x?y=1"]


def test_read_documents(spark, tmp_path):
    (tmp_path / "a.txt").write_bytes(b"doc a http://a.example/\n")
    (tmp_path / "b.txt.gz").write_bytes(gzip.compress(b"doc b <http://b.example/\n x>\n"))
    rows = us.read_documents(spark, str(tmp_path)).collect()
    got = {Path(r.path).name: bytes(r.content) for r in rows}
    assert got == {"a.txt": b"doc a http://a.example/\n", "b.txt.gz": b"doc b <http://b.example/\n x>\n"}
    raw = us.read_documents(spark, str(tmp_path), decompress=False).collect()
    assert {Path(r.path).name: bytes(r.content)[:2] for r in raw}["b.txt.gz"] == b"\x1f\x8b"


def test_example_top_hosts(spark, tmp_path):
    spec = importlib.util.spec_from_file_location(
        "spark_top_hosts", PYTHON_DIR / "examples" / "spark_top_hosts.py")
    ex = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ex)
    mbox = b""
    for i, (host, n) in enumerate([("a.example", 3), ("B.example", 2), ("c.example", 1)]):
        for j in range(n):
            mbox += (f"From x Tue Nov  3 10:00:0{j} 2026\n\nsee <http://{host}/\n  p{i}{j}> "
                     f"and mailto:u@{host}\n\n").encode()
    (tmp_path / "m.mbox").write_bytes(mbox)
    hosts, stats = ex.top_hosts(spark, str(tmp_path), "mbox", top=2)
    assert hosts == [("a.example", 3), ("b.example", 2)]
    assert stats["rows"] == 6 and stats["uris"] == 12 and stats["bytes"] == len(mbox)


def test_example_counts_mbox_uris_as_urifind_mail(spark, tmp_path, cli):
    """`--format mbox` reads mail in mail mode: its URI count is `urifind
    --mail -c` on the same mbox (raw bytes would count quoted-printable
    debris and HTML resources too)."""
    from test_mail_fields import MBOX

    spec = importlib.util.spec_from_file_location(
        "spark_top_hosts", PYTHON_DIR / "examples" / "spark_top_hosts.py")
    ex = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ex)
    path = tmp_path / "m.mbox"
    resources = (
        b"From c@example.org Tue Nov  3 12:00:00 2026\n"
        b"MIME-Version: 1.0\nContent-Type: text/html\n"
        b"Content-Transfer-Encoding: quoted-printable\n\n"
        b'<link href=3D"https://cdn.example.net/s.css"><img src=3D"https://cdn.exa=\n'
        b'mple.net/a.png"> see <a href=3D"https://c.example/">here</a>\n\n'
    )
    data = (MBOX + resources) * 3
    path.write_bytes(data)
    out = subprocess.run([str(cli), "--mail", "-c", str(path)], capture_output=True, text=True)
    want = int(out.stdout.strip())
    raw = len(urifind.Finder().find(data))
    assert raw > want  # the mbox tells the two modes apart
    hosts, stats = ex.top_hosts(spark, str(tmp_path), "mbox", top=5)
    assert stats["uris"] == want and stats["rows"] == 9
    assert ("evil.example.net", 3) in hosts


@pytest.mark.skipif(not shutil.which("spark-submit") and not os.environ.get("SPARK_HOME"),
                    reason="spark-submit is not on PATH")
def test_example_runs_with_spark_submit(tmp_path):
    (tmp_path / "m.mbox").write_bytes(MBOX)
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    out = subprocess.run(
        ["spark-submit", "--master", "local[2]", "--conf", "spark.ui.enabled=false",
         str(PYTHON_DIR / "examples" / "spark_top_hosts.py"), str(tmp_path)],
        capture_output=True, text=True, env=env, timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert lines[:2] == ["one.example  1", "two.example  1"]
    assert "3 rows" in lines[-1] and "rows/s" in lines[-1]
