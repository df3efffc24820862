"""Is the GIL released while scanning? Two threads sharing one `Finder`
should finish the same work faster than one on a machine with two free
cores (a benchmark, not a test: on a busy machine the figure drops).

    python3 python/benches/gil.py

Scans the prose corpus 16 times (one `find_uris` per copy, and one
`find_arrow` per 1 MiB slice of 4 KiB rows) on 1 thread and on 2 threads,
best of 5, and prints the speed-up. With the GIL held it would stay at
1.0x or below; released, it approaches 2x.
"""

import os

# numpy (imported by pyarrow) starts OpenBLAS threads that spin on the
# other core; nothing here uses them.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import time
from concurrent.futures import ThreadPoolExecutor

import pyarrow as pa

import urifind
from common import corpus, rows_of


def timed(fn, jobs, threads):
    best = float("inf")
    with ThreadPoolExecutor(threads) as pool:
        for _ in range(5):
            t = time.perf_counter()
            list(pool.map(fn, jobs))
            best = min(best, time.perf_counter() - t)
    return best


def main():
    data = corpus().read_bytes()
    f = urifind.Finder()
    texts = [data] * 16
    rows = rows_of(data, 4096)
    arrays = [pa.array(rows[i:i + 256], pa.string()) for i in range(0, len(rows), 256)] * 16
    total = len(data) * 16
    for name, fn, jobs in [("find_uris", f.find_uris, texts),
                           ("find_arrow", f.find_arrow, arrays)]:
        one = timed(fn, jobs, 1)
        two = timed(fn, jobs, 2)
        print(f"{name:<11} 1 thread {total / one / 1e6:6.0f} MB/s, "
              f"2 threads {total / two / 1e6:6.0f} MB/s: {one / two:.2f}x")


if __name__ == "__main__":
    main()
