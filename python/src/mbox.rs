//! Where the messages of an mbox file start: at every line that starts
//! with `From `. `urifind.spark.read_mbox` cuts files there; searching
//! in Rust (one substring search over the file) keeps the cut far cheaper
//! than the scan that follows.

use memchr::memmem;
use pyo3::prelude::*;

/// The offsets of the lines of `data` that start with `From `, in order.
#[pyfunction]
pub fn mbox_starts(py: Python<'_>, data: &[u8]) -> Vec<usize> {
    py.detach(|| {
        let mut starts = Vec::new();
        if data.starts_with(b"From ") {
            starts.push(0);
        }
        starts.extend(memmem::find_iter(data, b"\nFrom ").map(|i| i + 1));
        starts
    })
}
