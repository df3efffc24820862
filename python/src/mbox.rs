//! Where the messages of an mbox file start, by the library's rule (the
//! splitter of `urifind --mail`: a `From ` envelope line after a blank
//! line, see `urifind::mail::message_ranges`), for the readers of
//! `urifind.mbox_source` and `urifind.spark`: in a whole file held in
//! memory, or in a window of a large file read by byte ranges. Searching
//! in Rust (one substring search over the bytes, the GIL released) keeps
//! the cut far cheaper than the scan that follows.

use pyo3::prelude::*;
use urifind::mail::{judged_len, message_ranges, next_message_start};

/// The offsets where the messages of `data` (a whole mbox file, or one
/// message when it does not start with `From `) start, in order: 0 first
/// (none when `data` is empty).
#[pyfunction]
pub fn mbox_starts(py: Python<'_>, data: &[u8]) -> Vec<usize> {
    py.detach(|| message_ranges(data).map(|r| r.start).collect())
}

/// The message starts at or after `start` in `window`, a piece of a
/// larger mbox file (read from its beginning or from at least
/// `urifind::mail::LOOKBEHIND` bytes before `start`), that can be judged
/// from the window, and the offset up to which it was judged (where the
/// next window's search goes on). `at_end`: the window ends the file.
#[pyfunction]
pub fn mbox_window_starts(
    py: Python<'_>,
    window: &[u8],
    start: usize,
    at_end: bool,
) -> (Vec<usize>, usize) {
    py.detach(|| {
        let judged = judged_len(window, at_end);
        let mut starts = Vec::new();
        let mut from = start;
        while let Some(p) = next_message_start(window, from) {
            if p >= judged {
                break;
            }
            starts.push(p);
            from = p + 1;
        }
        (starts, judged)
    })
}
