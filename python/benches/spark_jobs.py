"""One timed Spark job on an mbox, submitted by `spark_cluster.py time`:

* `scan`: `read_mbox` + `find_uris(mail=True)`, the URIs counted;
* `fused`: `find_mbox_uris(mail=True)` (reading and finding in one
  step, every field of the matches), the URIs counted;
* `fused-uri`: the same with `fields=["uri"]`, the URIs counted;
* `read`: `read_mbox` alone, the messages' lengths summed;
* `text`: Spark's own `read.text`, the lines counted;
* `text-len`: `read.text` with the lines' lengths in bytes summed too,
  the work of `read` on lines (each value is touched);
* `binary`: Spark's `binaryFile` load, the file's length summed.

    spark-submit ... spark_jobs.py JOB MBOX [--split 128m] [--cold]

Prints one JSON line: the job, its wall time from making the DataFrame
to the action's end (the application's start not included: the
executors and their Python workers are started first, unless `--cold`),
the part of it spent making the DataFrame (`defined`: for `read_mbox`,
planning the ranges), the number of tasks of the reading
stage (the stage with the most tasks), and the result."""

import argparse
import json
import time

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

from urifind import spark as us


def job(spark, name, path, split):
    if name == "scan":
        df = us.read_mbox(spark, path, split_size=split)
        q = df.select(F.size(us.find_uris("message", mail=True)).alias("n")).agg(F.sum("n"))
    elif name in ("fused", "fused-uri"):
        fields = ["uri"] if name == "fused-uri" else None
        df = us.find_mbox_uris(spark, path, split_size=split, fields=fields)
        q = df.agg(F.count("*"))
    elif name == "read":
        df = us.read_mbox(spark, path, split_size=split)
        q = df.agg(F.sum(F.length("message")), F.count("*"))
    elif name == "text":
        df = spark.read.text(path)
        q = df.agg(F.count("*"))
    elif name == "text-len":
        df = spark.read.text(path)
        q = df.agg(F.sum(F.octet_length("value")), F.count("*"))
    elif name == "binary":
        df = spark.read.format("binaryFile").load(path)
        q = df.agg(F.sum(F.length("content")))
    else:
        raise SystemExit(f"unknown job {name}")
    return df, q


def main():
    p = argparse.ArgumentParser()
    p.add_argument("job")
    p.add_argument("path")
    p.add_argument("--split", default="128m")
    p.add_argument("--cold", action="store_true",
                   help="no warm-up: the job starts the executors' Python workers")
    args = p.parse_args()
    spark = SparkSession.builder.appName(f"urifind bench {args.job}").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    # Wait for both executors, so that the timing does not include their start.
    deadline = time.time() + 60
    sc = spark.sparkContext
    while (sc._jsc.sc().getExecutorMemoryStatus().size() < 3  # driver + executors
           and time.time() < deadline):
        time.sleep(0.2)
    sc.parallelize(range(4), 4).count()  # executors' Python daemons ready
    if not args.cold:
        # Every PySpark application starts its executors' Python workers
        # (and pyarrow in them) once; a small Arrow job does it here, so
        # that the timing is the job's own. `--cold` leaves it to the job.
        n = sc.defaultParallelism
        spark.range(0, n, 1, n).mapInArrow(lambda it: it, "id long").count()
    sc.setJobGroup("bench", args.job)
    start = time.perf_counter()
    _, q = job(spark, args.job, args.path, args.split)
    defined = time.perf_counter() - start
    row = q.first()
    seconds = time.perf_counter() - start
    tracker = sc.statusTracker()
    stages = [s for j in tracker.getJobIdsForGroup("bench")
              for s in tracker.getJobInfo(j).stageIds]
    # The reading stage: the one with the most tasks.
    tasks = max((tracker.getStageInfo(s).numTasks for s in stages
                 if tracker.getStageInfo(s)), default=0)
    print(json.dumps({"job": args.job, "seconds": round(seconds, 2),
                      "defined": round(defined, 2), "tasks": tasks,
                      "result": [v for v in row]}))
    spark.stop()


if __name__ == "__main__":
    main()
