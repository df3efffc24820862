"""Writes the inputs of the Spark job figures: an mbox directory and a
WET directory of generated text (the corpus generator's `mail` and
`prose` kinds), so that the example job can be timed on them.

    python3 python/benches/spark_inputs.py DIR [--mib 1024]

writes DIR/mbox/list-N.mbox (4 MiB each, `gencorpus mail`, seeds 1..)
and DIR/wet/part-N.warc.wet.gz (WET files of `conversion` records of
about 8 KiB of `gencorpus prose` each, 64 MiB of text per file, every
record its own gzip member as in Common Crawl's files). Then time
the job with, for example:

    spark-submit --master 'local[2]' --driver-memory 4g \\
        python/examples/spark_top_hosts.py --format mbox DIR/mbox
"""

import argparse
import gzip
import subprocess
import uuid
from pathlib import Path

from common import REPO


def gencorpus(kind, size, seed):
    return subprocess.run(
        [str(REPO / "target" / "release" / "examples" / "gencorpus"), kind, str(size), str(seed)],
        check=True, capture_output=True,
    ).stdout


def wet_record(target, body, n):
    head = (
        "WARC/1.0\r\nWARC-Type: conversion\r\n"
        f"WARC-Target-URI: {target}\r\n"
        "WARC-Date: 2026-11-01T00:00:00Z\r\n"
        f"WARC-Record-ID: <urn:uuid:{uuid.UUID(int=n)}>\r\n"
        "Content-Type: text/plain\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return gzip.compress(head.encode() + body + b"\r\n\r\n", compresslevel=1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    p.add_argument("--mib", type=int, default=1024, help="MiB of text per format")
    args = p.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "gencorpus"],
                   cwd=REPO, check=True)
    out = Path(args.dir)
    (out / "mbox").mkdir(parents=True, exist_ok=True)
    (out / "wet").mkdir(parents=True, exist_ok=True)
    for i in range(args.mib // 4):
        (out / "mbox" / f"list-{i + 1}.mbox").write_bytes(gencorpus("mail", 4 << 20, i + 1))
    n = 0
    for i in range(max(1, args.mib // 64)):
        text = gencorpus("prose", 64 << 20, 1000 + i)
        parts, start = [], 0
        while start < len(text):
            end = text.find(b"\n", start + 8192)
            end = len(text) if end < 0 else end + 1
            parts.append(wet_record(f"http://site{n % 997}.example/page{n}", text[start:end], n))
            start, n = end, n + 1
        (out / "wet" / f"part-{i + 1}.warc.wet.gz").write_bytes(b"".join(parts))


if __name__ == "__main__":
    main()
