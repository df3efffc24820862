"""A standalone Spark cluster on this machine, and the jobs timed on it.

    python3 python/benches/spark_cluster.py start [--workers 2 --cores 1 --memory 3g]
    python3 python/benches/spark_cluster.py pack          # the executors' Python
    python3 python/benches/spark_cluster.py check MBOX    # example job == urifind --mail
    python3 python/benches/spark_cluster.py time MBOX [--runs 3] [--jobs scan,fused,read,text,binary] [--cold]
    python3 python/benches/spark_cluster.py stop
    python3 python/benches/spark_cluster.py mkmbox OUT SIZE  # an mbox to read

`start` launches a master and workers as separate processes with the
launcher classes that come with PySpark (`spark-class
org.apache.spark.deploy.master.Master` and `...worker.Worker`), on free
local ports; their logs and process ids are kept in
`target/spark-cluster/`. Run it with the Python that has PySpark (and the
urifind wheel) installed: its `spark-submit` is used, and it is the
driver's Python.

`pack` builds the executors' Python as Spark's documentation advises for
packages with compiled code (`--py-files` takes pure-Python zips only): a
virtual environment with the urifind wheel (`target/wheels/`), pyarrow
and pandas, packed with venv-pack into `target/spark-cluster/env.tar.gz`
and shipped with `spark.archives=env.tar.gz#environment`; the executors
unpack it in their working directory and run
`./environment/bin/python`. The driver runs where `./environment` is the
same environment unpacked (`target/spark-cluster/`), as client mode
needs for a Python data source: Spark plans it in a Python worker of the
driver, started with the executors' Python setting.

`check` submits `python/examples/spark_top_hosts.py` to the cluster on
MBOX and checks its URI count and host counts against `urifind --mail`
on the same file, then `find_mbox_uris` with 1 MiB ranges (its count
too, and that it ran in several tasks). `time` submits `spark_jobs.py` once per job and run,
and prints the wall time of each job (measured in the driver around the
action, the application's start not included: each application first
starts its executors' Python workers with a small Arrow job, unless
`--cold`), the tasks it ran, and
the peak memory of an executor: the largest resident set, summed over an
executor's JVM and its Python workers, sampled every 0.1 s.
"""

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from common import REPO

STATE = REPO / "target" / "spark-cluster"
BENCHES = Path(__file__).resolve().parent


def spark_home():
    import pyspark

    return Path(pyspark.__file__).resolve().parent


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(name, cls, *args):
    log = open(STATE / f"{name}.log", "wb")
    env = dict(os.environ, SPARK_NO_DAEMONIZE="1", SPARK_LOCAL_IP="127.0.0.1",
               SPARK_WORKER_DIR=str(STATE / f"{name}-work"),
               # Each application unpacks the packed environment into its
               # own directory (hundreds of MB): remove those of finished
               # applications within minutes, not the default week.
               SPARK_WORKER_OPTS="-Dspark.worker.cleanup.enabled=true "
                                 "-Dspark.worker.cleanup.interval=60 "
                                 "-Dspark.worker.cleanup.appDataTtl=120")
    proc = subprocess.Popen([str(spark_home() / "bin" / "spark-class"), cls, *args],
                            stdout=log, stderr=subprocess.STDOUT, env=env,
                            start_new_session=True)
    (STATE / f"{name}.pid").write_text(str(proc.pid))
    return proc


def wait_for(name, pattern, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        text = (STATE / f"{name}.log").read_text(errors="replace")
        m = re.search(pattern, text)
        if m:
            return m
        time.sleep(0.5)
    sys.exit(f"{name} did not start: see {STATE / (name + '.log')}")


def start(args):
    if (STATE / "master.url").exists():
        sys.exit(f"a cluster is running ({(STATE / 'master.url').read_text()}); stop it first")
    STATE.mkdir(parents=True, exist_ok=True)
    port = free_port()
    launch("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
           "--port", str(port), "--webui-port", str(free_port()))
    wait_for("master", r"Starting Spark master at (spark://\S+)")
    url = f"spark://127.0.0.1:{port}"
    for i in range(args.workers):
        launch(f"worker{i}", "org.apache.spark.deploy.worker.Worker", "--cores",
               str(args.cores), "--memory", args.memory, "--host", "127.0.0.1",
               "--webui-port", str(free_port()), url)
    for i in range(args.workers):
        wait_for(f"worker{i}", r"Successfully registered with master")
    (STATE / "master.url").write_text(url)
    print(url)


def stop(_args):
    for pid_file in sorted(STATE.glob("*.pid")):
        pid = int(pid_file.read_text())
        try:
            os.killpg(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        pid_file.unlink()
    (STATE / "master.url").unlink(missing_ok=True)


def pack(_args):
    wheels = sorted((REPO / "target" / "wheels").glob("urifind-*.whl"))
    if not wheels:
        sys.exit("no wheel in target/wheels: maturin build --release -m python/Cargo.toml -o target/wheels")
    env = STATE / "env"
    shutil.rmtree(env, ignore_errors=True)
    STATE.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    pip = [str(env / "bin" / "python"), "-m", "pip", "install", "--quiet",
           "--disable-pip-version-check"]
    subprocess.run(pip + ["pyarrow>=14", "pandas>=2.2,<3", "venv-pack", str(wheels[-1])],
                   check=True)
    out = STATE / "env.tar.gz"
    out.unlink(missing_ok=True)
    subprocess.run([str(env / "bin" / "venv-pack"), "-q", "-p", str(env), "-o", str(out)],
                   check=True)
    print(out)


def submit(app, *app_args, conf=()):
    """Runs `app` with spark-submit on the cluster; its stdout."""
    url = (STATE / "master.url").read_text()
    archive = STATE / "env.tar.gz"
    if not archive.exists():
        sys.exit("no packed environment: run `pack` first")
    cmd = [str(spark_home() / "bin" / "spark-submit"), "--master", url,
           "--conf", f"spark.archives={archive}#environment",
           "--conf", "spark.pyspark.python=./environment/bin/python",
           "--conf", f"spark.pyspark.driver.python={sys.executable}",
           "--conf", "spark.ui.enabled=false",
           "--conf", "spark.executor.memory=1g",
           "--driver-memory", "2g"]
    for c in conf:
        cmd += ["--conf", c]
    cmd += [str(app), *map(str, app_args)]
    # A Python data source (read_mbox) is planned in a Python worker of
    # the driver, which runs spark.pyspark.python too: in client mode the
    # environment must be at ./environment where the driver runs as well.
    link = STATE / "environment"
    if not link.exists():
        link.symlink_to("env")
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=STATE)
    if res.returncode != 0:
        (STATE / "submit.err").write_text(res.stderr)
        (STATE / "submit.out").write_text(res.stdout)
        errs = [ln for ln in res.stderr.splitlines() if "Error" in ln or "Exception" in ln]
        sys.stderr.write("\n".join(errs[:20]) + "\n")
        sys.exit(f"spark-submit failed ({res.returncode}); see {STATE / 'submit.err'}")
    return res.stdout


def urifind_bin():
    exe = Path(os.environ.get("URIFIND_BIN", REPO / "target" / "release" / "urifind"))
    if not exe.exists():
        subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "urifind"],
                       cwd=REPO, check=True)
    return exe


HOST = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?(\[[^\]/?#]*\]|[^:/?#]*)")


def check(args):
    out = submit(REPO / "python" / "examples" / "spark_top_hosts.py", "--format", "mbox",
                 "--top", "10", os.path.abspath(args.mbox))
    lines = out.strip().splitlines()
    got_hosts = [(h, int(c)) for h, c in (ln.split() for ln in lines[:lines.index("")])]
    total = re.search(r"(\d+) URIs in", out)
    cli = subprocess.run([str(urifind_bin()), "--mail", args.mbox], capture_output=True,
                         check=True, text=True).stdout.splitlines()
    counts = {}
    for u in cli:
        m = HOST.match(u)
        host = m.group(1).lower() if m else ""
        if host:
            counts[host] = counts.get(host, 0) + 1
    want = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
    print(out)
    ok = got_hosts == want and total and int(total.group(1)) == len(cli)
    print(f"urifind --mail: {len(cli)} URIs; the job: {total.group(1) if total else '?'}; "
          f"top hosts {'equal' if got_hosts == want else 'DIFFER'}")
    if not ok:
        print("want:", want, file=sys.stderr)
        sys.exit(1)
    # find_mbox_uris on the cluster, the file cut into several ranges.
    out = submit(BENCHES / "spark_jobs.py", "fused-uri", os.path.abspath(args.mbox),
                 "--split", "1m")
    fused = json.loads(out.strip().splitlines()[-1])
    print(f"find_mbox_uris: {fused['result'][0]} URIs in {fused['tasks']} tasks")
    if fused["result"] != [len(cli)] or fused["tasks"] < 2:
        sys.exit("find_mbox_uris differs from urifind --mail, or ran in one task")


class Sampler(threading.Thread):
    """Peak resident memory of each executor (its JVM and Python
    workers), from /proc."""

    def __init__(self):
        super().__init__(daemon=True)
        self.peak = 0
        self.running = True

    @staticmethod
    def procs():
        out = {}
        for d in Path("/proc").iterdir():
            if not d.name.isdigit():
                continue
            try:
                stat = (d / "stat").read_text()
                ppid = int(stat.rsplit(")", 1)[1].split()[1])
                rss = int((d / "statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
                cmd = (d / "cmdline").read_bytes()
            except (OSError, ValueError, IndexError):
                continue
            out[int(d.name)] = (ppid, rss, cmd)
        return out

    def run(self):
        while self.running:
            ps = self.procs()
            children = {}
            for pid, (ppid, _, _) in ps.items():
                children.setdefault(ppid, []).append(pid)
            for pid, (_, _, cmd) in ps.items():
                if b"CoarseGrainedExecutorBackend" not in cmd:
                    continue
                total, todo = 0, [pid]
                while todo:
                    p = todo.pop()
                    total += ps.get(p, (0, 0, b""))[1]
                    todo += children.get(p, [])
                self.peak = max(self.peak, total)
            time.sleep(0.1)


def timed(args):
    jobs = args.jobs.split(",")
    results = []
    for run in range(args.runs):
        for job in jobs:
            sampler = Sampler()
            sampler.start()
            conf = [f"spark.sql.files.maxPartitionBytes={args.split}", *args.conf]
            out = submit(BENCHES / "spark_jobs.py", job, os.path.abspath(args.mbox),
                         "--split", args.split, *(["--cold"] if args.cold else []),
                         conf=conf)
            sampler.running = False
            sampler.join()
            r = json.loads(out.strip().splitlines()[-1])
            r["peak_executor_mib"] = round(sampler.peak / 2**20)
            r["run"] = run + 1
            results.append(r)
            print(json.dumps(r), flush=True)
    print()
    print(f"{os.path.getsize(args.mbox) / 1e6:.0f} MB mbox {args.mbox}")
    print("| job | time (s), best of runs | tasks | result | peak executor memory (MiB) |")
    print("|---|---|---|---|---|")
    for job in jobs:
        rs = [r for r in results if r["job"] == job]
        best = min(rs, key=lambda r: r["seconds"])
        times = ", ".join(f"{r['seconds']:.1f}" for r in rs)
        print(f"| {job} | {best['seconds']:.1f} ({times}) | {best['tasks']} | "
              f"{best['result']} | {max(r['peak_executor_mib'] for r in rs)} |")


def mkmbox(args):
    """An mbox of about SIZE bytes made of the messages of `corpora/mail`
    (MIME, HTML, encodings, broken mail) over and over, each with its own
    envelope line and its `From ` lines quoted as mboxrd does."""
    from urifind.spark import split_mbox

    mail = REPO / "corpora" / "mail"
    msgs = [p.read_bytes() for p in sorted(mail.glob("*.eml"))]
    for m in split_mbox((mail / "archive.mbox").read_bytes()):
        msgs.append(m[m.index(b"\n") + 1:])
    quote = re.compile(rb"(?m)^(>*From )")
    target = int(args.size.rstrip("MmBb")) * (1 << 20 if args.size[-1:] in "Mm" else 1)
    with open(args.out, "wb") as f:
        written = i = 0
        while written < target:
            m = quote.sub(rb">\1", msgs[i % len(msgs)])
            m = m if m.endswith(b"\n") else m + b"\n"
            env = b"From sender%d@example.org Tue Nov  3 10:%02d:00 2026\n" % (i, i % 60)
            written += f.write(env + m + b"\n")
            i += 1
    print(f"{args.out}: {i} messages, {written} bytes")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("start")
    s.add_argument("--workers", type=int, default=2)
    s.add_argument("--cores", type=int, default=1)
    s.add_argument("--memory", default="3g")
    s.set_defaults(func=start)
    sub.add_parser("stop").set_defaults(func=stop)
    sub.add_parser("pack").set_defaults(func=pack)
    c = sub.add_parser("check")
    c.add_argument("mbox")
    c.set_defaults(func=check)
    t = sub.add_parser("time")
    t.add_argument("mbox")
    t.add_argument("--runs", type=int, default=3)
    t.add_argument("--jobs", default="scan,read,text,binary")
    t.add_argument("--split", default="128m", help="split size of the mbox reader and read.text")
    t.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                   help="a Spark setting for every job (spark.eventLog.enabled=true, ...)")
    t.add_argument("--cold", action="store_true",
                   help="time each job with the executors' Python workers not yet started")
    t.set_defaults(func=timed)
    m = sub.add_parser("mkmbox")
    m.add_argument("out")
    m.add_argument("size", help="bytes, or MiB with an M suffix")
    m.set_defaults(func=mkmbox)
    args = p.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
