"""Throughput of `Finder.find_arrow` on the prose corpus against the Rust
library's in-memory figure on the same bytes.

    python3 python/benches/throughput.py [--check]

Prints MB/s (10^6 bytes/s, best of 7) for the library (`scanspeed`) and
for `find_arrow` on the corpus as one row and cut into rows of 64 KiB,
4 KiB and 1 KiB (as a column of documents would come), each as
`string` and as `binary`, with the ratio to the library. `--check` exits
1 when `find_arrow` on 4 KiB rows is below 80% of the library.
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


def best(fn, n=7):
    t = float("inf")
    for _ in range(n):
        s = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - s)
    return t


def main():
    path = corpus()
    data = path.read_bytes()
    rust, rust_uris = rust_mbs(path)
    f = urifind.Finder()
    print(f"corpus: {path.name}, {len(data)} bytes; library (scanspeed): "
          f"{rust:.0f} MB/s, {rust_uris} URIs")
    print(f"{'input':<28} {'MB/s':>7} {'x lib':>6} {'URIs':>8}")
    t = best(lambda: f.find_uris(data))
    print(f"{'find_uris(bytes)':<28} {len(data) / t / 1e6:>7.0f} "
          f"{len(data) / t / 1e6 / rust:>6.2f} {len(f.find_uris(data)):>8}")
    ratio_4k = None
    for row_bytes in [None, 64 * 1024, 4096, 1024]:
        rows = [data] if row_bytes is None else rows_of(data, row_bytes)
        for ty in [pa.string(), pa.binary()]:
            arr = pa.array(rows, pa.large_string() if row_bytes is None and ty == pa.string() else ty)
            t = best(lambda: f.find_arrow(arr))
            n = pa.compute.sum(pa.compute.list_value_length(f.find_arrow(arr))).as_py()
            mbs = len(data) / t / 1e6
            name = f"find_arrow {len(rows)} rows {ty}"
            print(f"{name:<28} {mbs:>7.0f} {mbs / rust:>6.2f} {n:>8}")
            if row_bytes == 4096 and ty == pa.string():
                ratio_4k = mbs / rust
    if "--check" in sys.argv and ratio_4k < 0.8:
        print(f"find_arrow on 4 KiB rows is {ratio_4k:.2f} of the library (< 0.80)")
        sys.exit(1)


if __name__ == "__main__":
    main()
