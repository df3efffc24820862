"""Where the tasks of a timed Spark job spent their time, from Spark's
event log (`spark_cluster.py time ... --conf spark.eventLog.enabled=true
--conf spark.eventLog.dir=DIR`):

    python3 python/benches/spark_tasks.py DIR/eventlog_v2_app-...  # one application

For the stage with the most tasks (the reading stage), per task: its
wall time on the executor (run), the JVM thread's CPU time in it (cpu),
garbage collection (gc), and the SQL metrics of the stage that Spark
keeps per task (time in Python, bytes from Python, rows); then the
stage's wall time from its first task's launch to its last task's end,
and the sums."""

import json
import subprocess
import sys
from pathlib import Path


def read(f):
    """A log file's text (Spark 4 compresses logs with zstd)."""
    if f.suffix == ".zstd":
        return subprocess.run(["zstd", "-dc", str(f)], capture_output=True, check=True,
                              text=True).stdout
    return f.read_text()


def main():
    log = Path(sys.argv[1])
    # A log is a file, or a directory of rolled files (Spark 4).
    files = sorted(log.glob("events_*"), key=lambda f: int(f.name.split("_")[1])) \
        if log.is_dir() else [log]
    events = [json.loads(line) for f in files for line in read(f).splitlines()]
    stages = {}
    for e in events:
        if e["Event"] == "SparkListenerTaskEnd":
            stages.setdefault(e["Stage ID"], []).append(e)
    stage = max(stages.values(), key=len)
    print("| task | launch (s) | run (s) | cpu (s) | gc (s) | deser (s) | metrics |")
    print("|---|---|---|---|---|---|---|")
    t0 = min(e["Task Info"]["Launch Time"] for e in stage)
    end = max(e["Task Info"]["Finish Time"] for e in stage)
    sums = {"run": 0, "cpu": 0, "gc": 0}
    for e in sorted(stage, key=lambda e: e["Task Info"]["Launch Time"]):
        info, m = e["Task Info"], e["Task Metrics"]
        run = m["Executor Run Time"] / 1e3
        cpu = m["Executor CPU Time"] / 1e9
        gc = m["JVM GC Time"] / 1e3
        sums["run"] += run
        sums["cpu"] += cpu
        sums["gc"] += gc
        acc = {a.get("Name", "?"): a.get("Update") for a in info.get("Accumulables", [])
               if not str(a.get("Name", "")).startswith("internal.")}
        print(f"| {info['Task ID']} | {(info['Launch Time'] - t0) / 1e3:.2f} | {run:.2f} | "
              f"{cpu:.2f} | {gc:.2f} | {m['Executor Deserialize Time'] / 1e3:.2f} | "
              f"{json.dumps(acc)} |")
    print(f"\nstage wall {(end - t0) / 1e3:.2f} s, {len(stage)} tasks; sums: "
          + ", ".join(f"{k} {v:.2f} s" for k, v in sums.items()))


if __name__ == "__main__":
    main()
