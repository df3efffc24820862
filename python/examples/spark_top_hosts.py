"""The hosts most linked from a directory of mail or web text, with Spark.

    spark-submit --master 'local[2]' python/examples/spark_top_hosts.py \\
        --format mbox /path/to/archive/ --top 20

runs as it is on one machine, and unchanged on a cluster (`--master yarn`,
`k8s://...`; every executor needs the `urifind` package installed, or a
packed environment given with `--archives`). PATH is a file, a directory
or a glob; `--format` says how it is read:

* `mbox`: one row per mail message (`urifind.spark.read_mbox`, large
  files read in parallel by byte ranges), read in mail mode as
  `urifind --mail` reads it;
* `wet`: one row per WARC/WET record (`urifind.spark.read_wet`);
* `files`: one row per file (`urifind.spark.read_documents`).

Every row's text goes through `urifind.spark.find_uris` (one Finder per
Python worker, Arrow batches, no round trip to the driver), once, in mail
mode for `mbox` (messages read as a mail reader shows them, so the count
is that of `urifind --mail`); the
host of each URI with an authority is taken with a regular expression in
Spark SQL, and the hosts are counted. The job prints the top hosts and what it
read: rows, bytes, URIs, seconds, rows/s and MB/s (10^6 bytes/s).
"""

import argparse
import time

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

from urifind import spark as us

# scheme "://" [userinfo "@"] host, where host is an IP literal in
# brackets or everything up to a port, path, query or fragment.
HOST = r"^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?(\[[^\]/?#]*\]|[^:/?#]*)"


def texts(spark, path, fmt):
    """The input as a DataFrame with one text column, `text` (binary)."""
    if fmt == "mbox":
        return us.read_mbox(spark, path, recursive=True).select(
            F.col("message").alias("text"))
    if fmt == "wet":
        return us.read_wet(spark, path, recursive=True).select(
            F.col("content").alias("text"))
    return us.read_documents(spark, path, recursive=True).select(
        F.col("content").alias("text"))


def top_hosts(spark, path, fmt="mbox", top=20, **finder_options):
    """The `top` hosts most linked from `path`, as `(host, count)` pairs,
    and the job's totals: a dict of rows, bytes, uris and seconds.

    The text is read and scanned once: each URI becomes a row with its
    host, and the rows are counted per host together with the input's
    rows and bytes (carried by each input row's first URI, or by the row
    itself when it has none), so the totals come from the small per-host
    table and nothing large is cached. Mail is read in mail mode unless
    the options say otherwise."""
    if fmt == "mbox":
        finder_options = {"mail": True, **finder_options}
    start = time.perf_counter()
    first = (F.col("pos") == 0) | F.col("pos").isNull()
    per_host = (
        texts(spark, path, fmt)
        .select(
            F.length("text").alias("bytes"),
            F.posexplode_outer(us.find_uris("text", **finder_options)),
        )
        .select(
            F.when(first, F.col("bytes")).alias("row_bytes"),
            F.when(first, F.lit(1)).alias("row"),
            F.col("col.uri").alias("uri"),
            F.lower(F.regexp_extract("col.uri", HOST, 1)).alias("host"),
        )
        .groupBy("host")
        .agg(
            F.count("uri").alias("count"),
            F.sum("row").alias("rows"),
            F.sum("row_bytes").alias("bytes"),
        )
        .persist()
    )
    totals = per_host.agg(
        F.coalesce(F.sum("rows"), F.lit(0)).alias("rows"),
        F.coalesce(F.sum("bytes"), F.lit(0)).alias("bytes"),
        F.coalesce(F.sum("count"), F.lit(0)).alias("uris"),
    ).first()
    hosts = (
        per_host.where(F.col("host") != "")
        .orderBy(F.desc("count"), "host")
        .limit(top)
        .collect()
    )
    seconds = time.perf_counter() - start
    per_host.unpersist()
    stats = {
        "rows": totals["rows"],
        "bytes": totals["bytes"],
        "uris": totals["uris"],
        "seconds": seconds,
    }
    return [(r["host"], r["count"]) for r in hosts], stats


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("path", help="a file, directory or glob")
    p.add_argument("--format", choices=["mbox", "wet", "files"], default="mbox")
    p.add_argument("--top", type=int, default=20)
    p.add_argument("--abbrev", action="store_true",
                   help="also count abbreviated URIs (www.example.com/x)")
    args = p.parse_args(argv)

    spark = SparkSession.builder.appName("urifind top hosts").getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    hosts, s = top_hosts(spark, args.path, args.format, args.top,
                         abbrev=args.abbrev, mail=args.format == "mbox")
    width = max([len(h) for h, _ in hosts] + [4])
    for host, count in hosts:
        print(f"{host:<{width}}  {count}")
    sec = s["seconds"]
    print(
        f"\n{s['rows']} rows, {s['bytes'] / 1e6:.1f} MB, {s['uris']} URIs in "
        f"{sec:.1f} s: {s['rows'] / sec:.0f} rows/s, "
        f"{s['bytes'] / 1e6 / sec:.1f} MB/s "
        f"(master {spark.sparkContext.master}, "
        f"{spark.sparkContext.defaultParallelism} cores)"
    )
    spark.stop()


if __name__ == "__main__":
    main()
