//! Where the messages of an mbox held in memory (or a window of it)
//! start, by the rule [`Messages`](super::Messages) splits by: a line
//! that starts with `From `, follows a blank line and looks like an
//! envelope line. For readers that keep a file's bytes and hand out each
//! message as a slice of them (the Python package, Spark), and for
//! readers that cut a large mbox into byte ranges and need each range to
//! start at a message.
//!
//! The ranges are the raw bytes of each message: its `From ` line
//! included and mboxrd quoting (`>From `) left as it is, so that reading
//! one range with [`Messages`](super::Messages) gives that message
//! exactly as reading the whole file does.

use std::iter::FusedIterator;
use std::ops::Range;

use memchr::memmem;

use super::mbox::{envelope, ENVELOPE_LINE_MAX};

/// The bytes before a message start that decide whether it is one: the
/// line break that ends the blank line before it, that blank line (a
/// carriage return at most) and the line break before that.
pub const LOOKBEHIND: usize = 3;

/// Whether a message of an mbox starts at `data[at..]` other than the
/// first: the line there starts with `From `, looks like an envelope
/// line, and the line before it is blank (empty, or a lone carriage
/// return).
///
/// The answer depends only on `data[at - LOOKBEHIND..]` up to the end of
/// the line at `at`, so a window of a file holding those bytes answers as
/// the whole file does.
///
/// # Example
///
/// ```
/// use urifind::mail::is_message_start;
///
/// let mbox = b"From a@b Tue Nov  3 10:00:00 2026\n\nFrom here on\n\n\
/// From c@d Tue Nov  3 11:00:00 2026\n";
/// assert!(is_message_start(mbox, 49));
/// // Not an envelope line: "From here on" is a line of the body.
/// assert!(!is_message_start(mbox, 35));
/// // The first line starts the file, with no blank line before it.
/// assert!(!is_message_start(mbox, 0));
/// ```
pub fn is_message_start(data: &[u8], at: usize) -> bool {
    if at < 2 || at > data.len() || data[at - 1] != b'\n' {
        return false;
    }
    let blank = data[at - 2] == b'\n'
        || (at >= LOOKBEHIND && data[at - 3..at - 1] == *b"\n\r");
    blank && data[at..].starts_with(b"From ") && envelope(&data[at..])
}

/// The first message start at or after `from` (see [`is_message_start`]),
/// or `None`. The start of the file is not counted: an mbox's first
/// message starts at 0 when the file starts with `From `.
///
/// To align a byte range `[a, b)` of a large mbox read by one task, read
/// the file from `a - LOOKBEHIND` (or its start) and ask for the first
/// start at or after `LOOKBEHIND` (or `a`); the range's messages are
/// those starting before `b`, and the last one ends at the first start at
/// or after `b`. Every message is then read by exactly one range, whole.
///
/// # Example
///
/// ```
/// use urifind::mail::next_message_start;
///
/// let mbox = b"From a@b Tue Nov  3 10:00:00 2026\n\nFrom here on\n\n\
/// From c@d Tue Nov  3 11:00:00 2026\nbody\n";
/// assert_eq!(next_message_start(mbox, 1), Some(49));
/// assert_eq!(next_message_start(mbox, 49), Some(49));
/// assert_eq!(next_message_start(mbox, 50), None);
/// // A window that starts inside the file: three bytes before the offset
/// // are enough to judge a start there.
/// let window = &mbox[40..];
/// assert_eq!(next_message_start(window, 3), Some(9));
/// ```
pub fn next_message_start(data: &[u8], from: usize) -> Option<usize> {
    message_starts(data, from).next()
}

/// Every message start at or after `from` in `data`, in order: what
/// [`next_message_start`] finds one call after another, with one
/// substring searcher for all of them (building one per message would
/// bound a count of a large file's messages at the searcher's setup).
///
/// # Example
///
/// ```
/// use urifind::mail::message_starts;
///
/// let mbox = b"From a@b Tue Nov  3 10:00:00 2026\n\nFrom here on\n\n\
/// From c@d Tue Nov  3 11:00:00 2026\nbody\n";
/// assert_eq!(message_starts(mbox, 1).collect::<Vec<_>>(), [49]);
/// assert_eq!(message_starts(mbox, 50).count(), 0);
/// ```
pub fn message_starts(
    data: &[u8],
    from: usize,
) -> impl Iterator<Item = usize> + '_ {
    // A candidate `From ` at `at` is found by searching from `at - 1`
    // for the line break before it.
    let at = from.max(2);
    let hay = data.get(at - 1..).unwrap_or(&[]);
    memmem::find_iter(hay, b"\nFrom ")
        .map(move |k| at + k)
        .filter(move |&p| is_message_start(data, p))
}

/// How much of `window`, a piece of a larger file read from its start
/// or from a message search's offset less [`LOOKBEHIND`], can be told
/// apart: a message start `p` found by [`next_message_start`] in
/// `window` is one in the whole file when `p < judged_len(window,
/// at_end)`, and a later search goes on from there. That is up to the
/// last line break (a `From ` line cut by the window's end cannot be
/// judged yet), all of it at the end of the file, and past a cut line
/// that is long enough to be judged by its start.
///
/// # Example
///
/// ```
/// use urifind::mail::{judged_len, next_message_start};
///
/// let file = b"From a@b Tue Nov  3 10:00:00 2026\n\nFrom c@d Tue Nov  3 11:00:00 2026\n";
/// // A window cut inside the second envelope line cannot judge it yet.
/// let window = &file[..40];
/// assert_eq!(judged_len(window, false), 35);
/// assert_eq!(next_message_start(file, 1), Some(35));
/// assert_eq!(judged_len(file, true), file.len());
/// ```
pub fn judged_len(window: &[u8], at_end: bool) -> usize {
    if at_end {
        return window.len();
    }
    let lines = memchr::memrchr(b'\n', window).map_or(0, |k| k + 1);
    if window.len() - lines > ENVELOPE_LINE_MAX {
        // The cut line is judged by its start; no other start is in it.
        return window.len();
    }
    lines
}

/// The byte ranges of the messages of `data`, in order: when `data`
/// starts with `From ` (an mbox), one range from each message start to
/// the next, the `From ` line included; otherwise `data` is one message
/// (none when empty). The ranges cover `data` with no gap, and reading
/// each with [`Messages`](super::Messages) gives the same message as
/// reading all of `data`.
///
/// # Example
///
/// ```
/// use urifind::mail::message_ranges;
///
/// let mbox = b"From a@b Tue Nov  3 10:00:00 2026\n\n>From quoted\n\n\
/// From c@d Tue Nov  3 11:00:00 2026\nbody\n";
/// let r: Vec<_> = message_ranges(mbox).collect();
/// assert_eq!(r, [0..49, 49..mbox.len()]);
/// assert_eq!(message_ranges(b"Subject: x\n\nFrom a@b 10:00\n").count(), 1);
/// ```
pub fn message_ranges(data: &[u8]) -> MessageRanges<'_> {
    MessageRanges { data, next: (!data.is_empty()).then_some(0) }
}

/// The iterator of [`message_ranges`].
#[derive(Clone, Debug)]
pub struct MessageRanges<'a> {
    data: &'a [u8],
    next: Option<usize>,
}

impl Iterator for MessageRanges<'_> {
    type Item = Range<usize>;

    fn next(&mut self) -> Option<Range<usize>> {
        let start = self.next.take()?;
        let end = if self.data.starts_with(b"From ") {
            next_message_start(self.data, start + 1)
        } else {
            None
        };
        self.next = end;
        Some(start..end.unwrap_or(self.data.len()))
    }
}

impl FusedIterator for MessageRanges<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::Messages;

    /// The raw ranges of the messages `Messages` reads.
    fn streamed(data: &[u8]) -> Vec<Range<usize>> {
        Messages::new(data)
            .map(|m| {
                let m = m.unwrap();
                let env = m.envelope().map_or(0, <[u8]>::len);
                m.raw_start() - env..m.raw_start() + m.raw_len()
            })
            .collect()
    }

    const MBOX: &[u8] = b"From a@example.org Tue Nov  3 10:00:00 2026\n\
Subject: one\n\
\n\
>From the archive (mboxrd)\n\
From the archive (mboxo, no blank line before)\n\
\n\
From this line has no time either\n\
\n\
>>From deeper\n\
\n\
From b@example.org Tue Nov  3 11:00:00 2026\r\n\
Subject: two\r\n\
\r\n\
From c@example.org Tue Nov  3 12:00:00 2026\n\
\n\
From d@example.org Tue Nov  3 13:00:00 2026\n";

    #[test]
    fn ranges_are_those_of_messages() {
        let r: Vec<_> = message_ranges(MBOX).collect();
        assert_eq!(r.len(), 4);
        assert_eq!(r, streamed(MBOX));
        assert_eq!(r[0].start, 0);
        assert_eq!(r[3].end, MBOX.len());
        for w in r.windows(2) {
            assert_eq!(w[0].end, w[1].start);
            assert!(MBOX[w[1].start..].starts_with(b"From "));
        }
    }

    #[test]
    fn every_prefix_and_suffix_agrees() {
        // Cuts anywhere: the ranges of a prefix are those of Messages on it.
        for cut in 0..=MBOX.len() {
            let d = &MBOX[..cut];
            assert_eq!(
                message_ranges(d).collect::<Vec<_>>(),
                streamed(d),
                "{cut}"
            );
        }
    }

    #[test]
    fn alignment_in_a_window_matches_the_whole_file() {
        let whole: Vec<usize> =
            message_ranges(MBOX).skip(1).map(|r| r.start).collect();
        for a in 0..MBOX.len() {
            let w = a.saturating_sub(LOOKBEHIND);
            let got = next_message_start(&MBOX[w..], a - w).map(|p| p + w);
            let want = whole.iter().copied().find(|&p| p >= a.max(1));
            assert_eq!(got, want, "window from {w}, offset {a}");
        }
    }

    /// The message starts (but 0) of `file` found by reading it in
    /// windows of `size` bytes, as a reader of byte ranges does: each
    /// window holds LOOKBEHIND bytes before the search offset and grows
    /// while nothing in it can be judged.
    fn windowed(file: &[u8], size: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let (mut w, mut search) = (0, 1);
        let mut end = size.min(file.len());
        loop {
            let window = &file[w..end];
            let at_end = end == file.len();
            let judged = judged_len(window, at_end);
            let mut from = search - w;
            while let Some(p) = next_message_start(window, from) {
                if p >= judged {
                    break;
                }
                out.push(w + p);
                from = p + 1;
            }
            if at_end {
                return out;
            }
            search = search.max(w + judged);
            w = search.saturating_sub(LOOKBEHIND).max(w);
            end = (end.max(w) + size).min(file.len());
        }
    }

    #[test]
    fn windows_of_any_size_find_the_same_starts() {
        let whole: Vec<usize> =
            message_ranges(MBOX).skip(1).map(|r| r.start).collect();
        for size in 1..=MBOX.len() {
            assert_eq!(windowed(MBOX, size), whole, "windows of {size}");
        }
    }

    #[test]
    fn long_lines_are_judged_by_their_start() {
        let long = |head: &[u8], fill: u8| {
            let mut v = head.to_vec();
            v.resize(ENVELOPE_LINE_MAX + 100, fill);
            v
        };
        let mut file = b"From a@b Tue Nov  3 10:00:00 2026\n\n".to_vec();
        // An envelope line whose time comes after the judged start.
        file.extend(long(b"From someone ", b'x'));
        file.extend(b" 10:00\n\n");
        // A long line of the body, then a real start.
        file.extend(long(b"", b'y'));
        file.extend(b"\n\nFrom c@d Tue Nov  3 11:00:00 2026\nbody\n");
        let whole: Vec<usize> =
            message_ranges(&file).skip(1).map(|r| r.start).collect();
        assert_eq!(whole.len(), 1);
        assert_eq!(
            whole,
            streamed(&file)[1..].iter().map(|r| r.start).collect::<Vec<_>>()
        );
        for size in [1000, 4096, 65536, ENVELOPE_LINE_MAX / 3] {
            assert_eq!(windowed(&file, size), whole, "windows of {size}");
        }
    }

    #[test]
    fn crlf_blank_line_and_edges() {
        assert!(is_message_start(b"x\n\r\nFrom a@b 10:00\n", 4));
        assert!(!is_message_start(b"x\nx\r\nFrom a@b 10:00\n", 5));
        assert!(!is_message_start(b"\nFrom a@b 10:00\n", 1));
        assert!(!is_message_start(b"x\n\n", 3));
        assert!(!is_message_start(b"x\n\nFrom", 3));
        assert_eq!(next_message_start(b"", 0), None);
        assert_eq!(next_message_start(b"x\n\nFrom a@b\n", 100), None);
        assert_eq!(message_ranges(b"").count(), 0);
    }
}
