#!/usr/bin/env python3
"""Whole-process speed of the command on every generated kind, against
plain prose: `urifind FILE > /dev/null`, file in page cache, best of N
runs, interleaved with the prose run so that machine noise hits both.

Usage: python3 corpora/gen/process.py [SIZE_MIB [RUNS [KIND...]]]
(defaults: 16 MiB, 5 runs, every kind). Builds the release command and
the generator first; files go to corpora/generated/ (ignored by git).

Prints MB/s per kind and its ratio to prose (goal: >= 0.33).
"""
import os
import subprocess
import sys
import time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
size = int(sys.argv[1]) if len(sys.argv) > 1 else 16
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "urifind",
                "--example", "gencorpus"], cwd=root, check=True)
exe = os.path.join(root, "target", "release", "urifind")
gen = os.path.join(root, "target", "release", "examples", "gencorpus")
listed = subprocess.run([gen, "list"], capture_output=True, text=True,
                        check=True).stdout.splitlines()
kinds = sys.argv[3:] or [k.split()[0] for k in listed if k.strip()]
out = os.path.join(root, "corpora", "generated")
os.makedirs(out, exist_ok=True)


def corpus(kind):
    path = os.path.join(out, f"{kind}-{size}M.txt")
    if not os.path.exists(path):
        with open(path, "wb") as f:
            subprocess.run([gen, kind, f"{size}M", "2003"], stdout=f, check=True)
    return path


def run(path, extra):
    s = time.perf_counter()
    subprocess.run([exe, *extra, path], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - s


prose = corpus("prose")
mb = size * 1024 * 1024 / 1e6
print(f"{'kind':<20} {'MB/s':>8} {'prose MB/s':>11} {'ratio':>6}")
for kind in kinds:
    path = corpus(kind)
    extra = ["--abbrev"] if kind == "adv-www-run" else []
    ta, tp = [], []
    for _ in range(runs):
        ta.append(run(path, extra))
        tp.append(run(prose, extra))
    a, p = min(ta), min(tp)
    print(f"{kind:<20} {mb / a:8.0f} {mb / p:11.0f} {p / a:6.2f}")
