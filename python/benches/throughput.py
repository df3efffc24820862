"""Throughput of `Finder.find_arrow` on the prose corpus against the Rust
library's in-memory figure on the same bytes.

    python3 python/benches/throughput.py [--rounds N] [--check]

Prints MB/s (10^6 bytes/s) for the library (`scanspeed`) and for
`find_arrow` on the corpus as one row and cut into rows of 64 KiB, 4 KiB
and 1 KiB (as a column of documents would come), each as `string` and as
`binary`, with the ratio to the library; then, on the 4 KiB string rows,
for three choices of `fields`: every field but the link fields, `uri`,
`start` and `end`, and none (the scan alone and the lists: the floor,
also given for the corpus as one row).
Each figure is the best of N rounds (7 unless told), the inputs taken in
turn within a round and the library timed once a round, so that a busy
machine weighs on all of them alike; the Python calls are timed in CPU
time of the thread (`time.thread_time`: the scan runs on the calling
thread with the GIL released), so that time given to other processes is
not counted. `--check` exits 1 when `find_arrow`
on 4 KiB rows with every field is below 40% of the library.
"""

import os

# numpy (imported by pyarrow) starts OpenBLAS threads that spin on the
# other core; nothing here uses them.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import sys
import time

import pyarrow as pa
import pyarrow.compute  # noqa: F401

import urifind
from common import corpus, rows_of, rust_mbs


LINK_FIELDS = ["target", "wrappers", "unwrap", "target_host", "embedded",
               "host_as_read", "flags"]


def main():
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 7
    path = corpus()
    data = path.read_bytes()
    f = urifind.Finder()
    runs = {"find_uris(bytes)": (lambda: f.find_uris(data), lambda r: len(r))}
    count = lambda r: pa.compute.sum(pa.compute.list_value_length(r)).as_py()  # noqa: E731
    four_k = None
    for row_bytes in [None, 64 * 1024, 4096, 1024]:
        rows = [data] if row_bytes is None else rows_of(data, row_bytes)
        for ty in [pa.string(), pa.binary()]:
            arr = pa.array(rows, pa.large_string() if row_bytes is None and ty == pa.string() else ty)
            runs[f"find_arrow {len(rows)} rows {ty}"] = (lambda a=arr: f.find_arrow(a), count)
            if row_bytes == 4096 and ty == pa.string():
                four_k = arr
                default_4k = f"find_arrow {len(rows)} rows {ty}"
    no_link = [n for n in urifind.MATCH_FIELDS if n not in LINK_FIELDS]
    for name, fields in [("all but link fields", no_link),
                         ("uri,start,end", ["uri", "start", "end"]),
                         ("no field (floor)", [])]:
        runs[f"  4 KiB, {name}"] = (lambda fs=fields: f.find_arrow(four_k, fields=fs), count)
    one_row = pa.array([data], pa.large_string())
    runs["  1 row, no field (floor)"] = (lambda: f.find_arrow(one_row, fields=[]), count)
    best = {k: float("inf") for k in runs}
    rust, rust_uris = 0.0, 0
    for _ in range(rounds):
        mbs, rust_uris = rust_mbs(path)
        rust = max(rust, mbs)
        for k, (fn, _) in runs.items():
            s = time.thread_time()
            fn()
            best[k] = min(best[k], time.thread_time() - s)
    print(f"corpus: {path.name}, {len(data)} bytes; library (scanspeed): "
          f"{rust:.0f} MB/s, {rust_uris} URIs; best of {rounds} rounds")
    print(f"{'input':<34} {'MB/s':>7} {'x lib':>6} {'URIs':>8}")
    for k, (fn, n) in runs.items():
        mbs = len(data) / best[k] / 1e6
        print(f"{k:<34} {mbs:>7.0f} {mbs / rust:>6.2f} {n(fn()):>8}")
    ratio_4k = len(data) / best[default_4k] / 1e6 / rust
    if "--check" in sys.argv and ratio_4k < 0.4:
        print(f"find_arrow on 4 KiB rows is {ratio_4k:.2f} of the library (< 0.40)")
        sys.exit(1)


if __name__ == "__main__":
    main()
