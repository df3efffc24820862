"""What the benchmarks share: the generated prose corpus (the one the
library's own benchmarks use: `gencorpus prose 4M 2003`) and the Rust
library's in-memory figure on it (`examples/scanspeed`)."""

import re
import subprocess
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def corpus(kind="prose", size="4M", seed="2003"):
    """The generated corpus as bytes, written once under target/."""
    out = REPO / "target" / f"corpus-{kind}-{size}-{seed}.txt"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out.parent, delete=False) as tmp:
            subprocess.run(
                ["cargo", "run", "--release", "--quiet", "--example", "gencorpus",
                 "--", kind, size, seed],
                cwd=REPO, stdout=tmp, check=True,
            )
        Path(tmp.name).rename(out)
    return out


def rust_mbs(path):
    """The library's in-memory MB/s on `path` (best of 5, the
    `scanspeed` example), and its URI count."""
    out = subprocess.run(
        ["cargo", "run", "--release", "--quiet", "--example", "scanspeed", "--", str(path)],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout
    m = re.search(r"([\d.]+) MB/s\s+(\d+) URIs", out)
    return float(m.group(1)), int(m.group(2))


def rows_of(data, row_bytes):
    """`data` cut into rows of about `row_bytes`, at line ends."""
    rows, start = [], 0
    while start < len(data):
        end = data.find(b"\n", start + row_bytes)
        end = len(data) if end < 0 else end + 1
        rows.append(data[start:end])
        start = end
    return rows
