//! Where the messages of an mbox file start, by the library's rule (the
//! splitter of `urifind --mail`: a `From ` envelope line after a blank
//! line, see `urifind::mail::message_ranges`), for the readers of
//! `urifind.mbox_source` and `urifind.spark`: in a whole file held in
//! memory, or in a window of a large file read by byte ranges; and, for
//! an uncompressed file, the messages of a byte range read here, counted
//! or planned as batches (Arrow offsets over runs of the file, which
//! Python maps into memory), so that reading a range costs no Python
//! object per message. Searching in Rust (one substring search over the
//! bytes, the GIL released) keeps the cut far cheaper than the scan that
//! follows.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use urifind::mail::{judged_len, message_ranges, message_starts, LOOKBEHIND};

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
        let starts = message_starts(window, start)
            .take_while(|&p| p < judged)
            .collect();
        (starts, judged)
    })
}

/// Where the messages of an uncompressed mbox file that start in
/// `[start, end)` start (file offsets, in order; 0 first when `start` is
/// 0), and where the last of them ends (the next message's start, or the
/// file's end). The file is searched in pieces of about `window` bytes
/// read into one buffer, so that memory stays bounded whatever the
/// range; the last message is followed past `end` to its end. With
/// `whole`, every message of the file, and a file that does not start
/// with `From ` is one message.
fn range_starts(
    file: &mut File,
    start: u64,
    end: u64,
    whole: bool,
    window: usize,
) -> io::Result<(Vec<u64>, u64)> {
    let size = file.metadata()?.len();
    let end = if whole { u64::MAX } else { end };
    let mut starts = Vec::new();
    if start == 0 && size > 0 || whole && size == 0 {
        starts.push(0);
    }
    if whole {
        let mut head = [0u8; 5];
        let n = read_at(file, 0, &mut head)?;
        if &head[..n] != b"From " {
            return Ok((starts, size));
        }
    }
    // Pieces that stay in the processor's cache while they are searched.
    let window = window.clamp(1, READ_PIECE);
    let mut buf = Vec::new();
    let mut pos = start.max(1); // where the search goes on
    let mut want = window;
    loop {
        let w = pos.saturating_sub(LOOKBEHIND as u64);
        buf.resize(want, 0);
        let n = read_at(file, w, &mut buf)?;
        let at_end = w + n as u64 >= size;
        let piece = &buf[..n];
        let judged = judged_len(piece, at_end);
        for p in message_starts(piece, (pos - w) as usize) {
            if p >= judged {
                break;
            }
            let at = w + p as u64;
            if at >= end {
                return Ok((starts, at));
            }
            starts.push(at);
        }
        if at_end {
            return Ok((starts, size));
        }
        let next = pos.max(w + judged as u64);
        if starts.is_empty() && next >= end {
            return Ok((starts, next.min(size)));
        }
        // A piece that could not be judged (a cut line with no line
        // break yet) is read again, larger, until it can.
        want = if next == pos { want * 2 } else { window };
        pos = next;
    }
}

/// The largest piece a file is read in to find its message starts: a
/// piece that stays in the processor's cache is searched right after it
/// is read, where a piece of many megabytes is read back from memory
/// (counting the messages of a 2.2 GB file in two threads took 0.94 s
/// in 16 MiB pieces, 0.40 s in 1 MiB pieces).
const READ_PIECE: usize = 1 << 20;

/// The smallest piece the files are read in (a smaller `window` would
/// only cost calls).
const MIN_WINDOW: usize = 4096;

/// Reads `file` from `offset` into `buf` until it is full or the file
/// ends; the bytes read.
fn read_at(file: &mut File, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
    file.seek(SeekFrom::Start(offset))?;
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// One record batch of messages as `batches` plans it: the file's bytes
/// `[lo, hi)` hold the kept messages back to back.
#[derive(Debug, PartialEq)]
struct Batch {
    lo: u64,
    hi: u64,
    /// Arrow offsets of the messages into `[lo, hi)` (one more than the
    /// messages).
    offsets: Vec<i32>,
    /// Where each message starts in the file.
    starts: Vec<i64>,
    /// Which messages are kept (none when all are).
    skipped: Option<Vec<bool>>,
}

/// The messages `starts` (ending at `stop`) cut into batches of about
/// `batch` bytes; a message longer than `limit` is not kept (a null, no
/// bytes) and ends its batch, so that the kept bytes of a batch are one
/// run of the file.
fn batches(starts: &[u64], stop: u64, limit: u64, batch: u64) -> Vec<Batch> {
    let mut out: Vec<Batch> = Vec::new();
    let mut open = false;
    for (i, &s) in starts.iter().enumerate() {
        let e = starts.get(i + 1).copied().unwrap_or(stop);
        let len = e - s;
        let kept = len <= limit;
        if open {
            let b = out.last().expect("an open batch");
            if kept && b.hi - b.lo + len > batch {
                open = false;
            }
        }
        if !open {
            out.push(Batch {
                lo: s,
                hi: s,
                offsets: vec![0],
                starts: Vec::new(),
                skipped: None,
            });
            open = true;
        }
        let b = out.last_mut().expect("an open batch");
        if kept {
            b.hi += len;
        }
        let k = i32::try_from(b.hi - b.lo).expect("a batch under 2 GiB");
        b.offsets.push(k);
        b.starts.push(s as i64);
        if !kept {
            let n = b.starts.len();
            let skipped = b.skipped.get_or_insert_with(|| vec![false; n - 1]);
            skipped.push(true);
            open = false;
        } else if let Some(skipped) = b.skipped.as_mut() {
            skipped.push(false);
        }
    }
    out
}

/// The little-endian bytes of `values`.
fn le_bytes<T: Copy, const N: usize>(
    values: &[T],
    f: fn(T) -> [u8; N],
) -> Vec<u8> {
    values.iter().flat_map(|&v| f(v)).collect()
}

/// An Arrow validity bitmap: bit `i` set when message `i` is kept.
fn validity(skipped: &[bool]) -> Vec<u8> {
    let mut bits = vec![0u8; skipped.len().div_ceil(8)];
    for (i, &s) in skipped.iter().enumerate() {
        if !s {
            bits[i / 8] |= 1 << (i % 8);
        }
    }
    bits
}

/// One batch for Python: the file's bytes `lo..hi` to map, the Arrow
/// offsets (`int32`) and the messages' file offsets (`int64`) as
/// little-endian bytes, the validity bitmap (None when every message is
/// kept) and the number of messages.
type PyBatch =
    (u64, u64, Py<PyBytes>, Py<PyBytes>, Option<Py<PyBytes>>, usize);

/// The messages of the uncompressed mbox file at `path` that start in
/// `[start, end)` (every message of the file with `whole`), cut by the
/// library's rule, as batches of about `batch` bytes for
/// `urifind.mbox_source` to build Arrow arrays from without a Python
/// object per message: for each batch, the file's bytes `lo..hi` that
/// hold its messages back to back, their Arrow `int32` offsets into
/// those bytes and their `int64` file offsets (little-endian bytes), a
/// validity bitmap (None when no message is longer than `limit`; a longer
/// one has no bytes and ends its batch) and the count. The file is read
/// in pieces of `window` bytes with the GIL released.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn mbox_file_batches(
    py: Python<'_>,
    path: PathBuf,
    start: u64,
    end: u64,
    whole: bool,
    window: usize,
    limit: u64,
    batch: u64,
) -> PyResult<Vec<PyBatch>> {
    let planned = py.detach(|| -> io::Result<Vec<Batch>> {
        let mut file = File::open(&path)?;
        let (starts, stop) = range_starts(
            &mut file,
            start,
            end,
            whole,
            window.max(MIN_WINDOW),
        )?;
        Ok(batches(&starts, stop, limit, batch))
    });
    let planned = planned.map_err(|e| {
        pyo3::exceptions::PyOSError::new_err(format!(
            "{}: {e}",
            path.display()
        ))
    })?;
    Ok(planned
        .into_iter()
        .map(|b| {
            let n = b.starts.len();
            (
                b.lo,
                b.hi,
                PyBytes::new(py, &le_bytes(&b.offsets, i32::to_le_bytes))
                    .unbind(),
                PyBytes::new(py, &le_bytes(&b.starts, i64::to_le_bytes))
                    .unbind(),
                b.skipped.map(|s| PyBytes::new(py, &validity(&s)).unbind()),
                n,
            )
        })
        .collect())
}

/// How many messages of the uncompressed mbox file at `path` start in
/// `[start, end)` (its first one, at 0, counted when `start` is 0), with
/// the GIL released: what the ranges before a range hold, to number that
/// range's messages. The file is mapped into memory and searched in
/// place, with no copy into a buffer (the file must not be cut short
/// meanwhile, as for the readers). `_window` is no longer used.
#[pyfunction]
pub fn mbox_file_count(
    py: Python<'_>,
    path: PathBuf,
    start: u64,
    end: u64,
    _window: usize,
) -> PyResult<usize> {
    py.detach(|| -> io::Result<usize> {
        let file = File::open(&path)?;
        if file.metadata()?.len() == 0 {
            return Ok(0);
        }
        // SAFETY: the map is read only and dropped before returning; a
        // file changed meanwhile gives wrong counts (or a fault when cut
        // short), as for any reader of a file being written.
        let map = unsafe { memmap2::Mmap::map(&file)? };
        Ok(count_starts(&map, start, end))
    })
    .map_err(|e: io::Error| {
        pyo3::exceptions::PyOSError::new_err(format!(
            "{}: {e}",
            path.display()
        ))
    })
}

/// How many messages of `data`, a whole mbox file, start in `[start,
/// end)`: its first one, at 0, when `start` is 0, and the starts the
/// library's rule finds from there.
fn count_starts(data: &[u8], start: u64, end: u64) -> usize {
    let (start, end) = (clamp(start, data.len()), clamp(end, data.len()));
    let first = usize::from(start == 0 && !data.is_empty());
    first + message_starts(data, start.max(1)).take_while(|&p| p < end).count()
}

/// `offset` as an index into `len` bytes, at most `len`.
fn clamp(offset: u64, len: usize) -> usize {
    usize::try_from(offset).map_or(len, |o| o.min(len))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const ENV: &str = "From a@b Tue Nov  3 10:00:00 2026\n";

    fn mbox() -> Vec<u8> {
        let mut m = Vec::new();
        for i in 0..30 {
            m.extend_from_slice(ENV.as_bytes());
            let body = format!(
                "Subject: {i}\n\nFrom here on\n>From a@b quoted\n{}\n\n",
                "x".repeat(i * 7)
            );
            m.extend_from_slice(body.as_bytes());
        }
        m
    }

    fn file(data: &[u8]) -> (File, PathBuf) {
        let p = std::env::temp_dir().join(format!(
            "urifind-mbox-{}-{:?}.mbox",
            std::process::id(),
            std::thread::current().id()
        ));
        File::create(&p).unwrap().write_all(data).unwrap();
        (File::open(&p).unwrap(), p)
    }

    #[test]
    fn ranges_cover_the_library_split_at_any_cut_and_window() {
        let data = mbox();
        let want: Vec<u64> =
            message_ranges(&data).map(|r| r.start as u64).collect();
        assert_eq!(want.len(), 30);
        let (mut f, p) = file(&data);
        let size = data.len() as u64;
        for split in [3u64, 17, 333, size] {
            for window in [16usize, 64, 1 << 20] {
                let mut got = Vec::new();
                let mut a = 0;
                while a < size {
                    let b = (a + split).min(size);
                    let (s, stop) =
                        range_starts(&mut f, a, b, false, window).unwrap();
                    if let Some(&last) = s.last() {
                        let next = want
                            .iter()
                            .find(|&&x| x > last)
                            .copied()
                            .unwrap_or(size);
                        assert_eq!(
                            stop, next,
                            "split {split} window {window}"
                        );
                    }
                    got.extend(s);
                    a = b;
                }
                assert_eq!(got, want, "split {split} window {window}");
            }
        }
        std::fs::remove_file(p).unwrap();
    }

    #[test]
    fn starts_equal_the_library_search_from_any_offset() {
        // Body `From ` lines, quoted ones, CRLF blank lines, a `From `
        // line with no blank line before it, one at the very end.
        let mut data = mbox();
        data.extend_from_slice(
            b"\r\nFrom c@d Tue Nov  3 10:00:00 2026\r\n\r\nFrom x\nFrom \n\nFrom ",
        );
        let mut all = Vec::new();
        let mut at = 0;
        while let Some(p) = urifind::mail::next_message_start(&data, at) {
            all.push(p);
            at = p + 1;
        }
        assert_eq!(
            all.len(),
            30,
            "29 messages after the first, one after CRLF"
        );
        for from in 0..data.len() + 3 {
            let want: Vec<usize> =
                all.iter().copied().filter(|&p| p >= from).collect();
            let got: Vec<usize> = message_starts(&data, from).collect();
            assert_eq!(got, want, "from {from}");
            // The library's search from there finds the first of them.
            assert_eq!(
                urifind::mail::next_message_start(&data, from),
                want.first().copied(),
                "from {from}"
            );
        }
    }

    #[test]
    fn mapped_counts_equal_the_ranges_starts() {
        let data = mbox();
        let (mut f, p) = file(&data);
        let size = data.len() as u64;
        for split in [1u64, 5, 64, 333, size, size + 9] {
            let mut a = 0;
            while a < size {
                let b = a + split;
                let (s, _) = range_starts(&mut f, a, b, false, 64).unwrap();
                assert_eq!(count_starts(&data, a, b), s.len(), "[{a}, {b})");
                a = b;
            }
        }
        assert_eq!(count_starts(&data, 0, size), 30);
        assert_eq!(count_starts(b"", 0, 9), 0);
        std::fs::remove_file(p).unwrap();
    }

    #[test]
    fn a_whole_file_that_is_not_an_mbox_is_one_message() {
        let data = b"preamble\n\nFrom x@y Tue Nov  3 10:00:00 2026\n";
        let (mut f, p) = file(data);
        let size = data.len() as u64;
        assert_eq!(
            range_starts(&mut f, 0, 3, true, 4).unwrap(),
            (vec![0], size)
        );
        // Cut, the same bytes hold a start (a range of a file checked to
        // be an mbox only reads by the rule).
        assert_eq!(
            range_starts(&mut f, 0, 3, false, 4).unwrap(),
            (vec![0], 10)
        );
        std::fs::remove_file(p).unwrap();
    }

    #[test]
    fn long_messages_are_nulls_that_end_their_batch() {
        // Messages of 10, 50 (over the limit), 10, 10 and 10 bytes.
        let b = batches(&[0, 10, 60, 70, 80], 90, 40, 25);
        assert_eq!(b.len(), 3);
        assert_eq!(
            (b[0].lo, b[0].hi, &b[0].offsets[..]),
            (0, 10, &[0, 10, 10][..])
        );
        assert_eq!(b[0].skipped, Some(vec![false, true]));
        assert_eq!(
            (b[1].lo, b[1].hi, &b[1].offsets[..]),
            (60, 80, &[0, 10, 20][..])
        );
        assert_eq!(b[1].skipped, None);
        assert_eq!((b[2].lo, b[2].hi, &b[2].starts[..]), (80, 90, &[80][..]));
        assert_eq!(validity(&[false, true, false]), vec![0b101]);
    }
}
