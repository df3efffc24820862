//! Splitting the input into messages: an mbox read from any reader,
//! message by message, or a single message.
//!
//! An input that starts with a `From ` line is an mbox: it is split at
//! every `From ` line that follows a blank line and looks like an
//! envelope line (a sender, then a time such as `10:00`), and mboxrd
//! quoting is undone (one `>` is removed from `>From `, `>>From `, ...
//! at the start of a line). Any other input is one message.
//!
//! Memory is bounded: one read buffer and the message being read. A
//! message longer than the limit ([`DEFAULT_MAX_MESSAGE`] unless set) is
//! not kept: it is read past and reported as skipped, with the reason.

use std::io::{self, Read};
use std::sync::Arc;

use memchr::memmem;

use super::found::{Found, Kind, Sink};
use super::mime;
use super::{
    MailFinder, MailItem, MailMatch, MailNote, MailRejected, Origin, PartInfo,
};

use crate::scan::{Match, Position};

/// The default largest message read (64 MiB); longer ones are skipped
/// with a note.
pub const DEFAULT_MAX_MESSAGE: usize = 64 << 20;

const READ_SIZE: usize = 256 << 10;

/// The first read's size; each read doubles it up to [`READ_SIZE`], so
/// that a short input (one message given as a slice, as the Python
/// package scans a column of messages) zeroes a few KiB of buffer, not
/// a whole read piece.
const FIRST_READ: usize = 4 << 10;

/// How the input is split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Split {
    Unknown,
    Mbox,
    Single,
}

/// The messages of an mbox or a single message, read from `R` one at a
/// time.
///
/// # Example
///
/// ```
/// use urifind::mail::Messages;
///
/// let mbox = b"From a@example.org Tue Nov  3 10:00:00 2026\n\
/// Subject: one\n\n>From here: http://one.example/\n\n\
/// From b@example.org Tue Nov  3 11:00:00 2026\n\
/// Subject: two\n\nhttp://two.example/\n";
/// let msgs: Vec<_> = Messages::new(&mbox[..]).map(|m| m.unwrap()).collect();
/// assert_eq!(msgs.len(), 2);
/// assert_eq!(msgs[0].index(), 1);
/// // mboxrd quoting is undone.
/// assert!(msgs[0].data().ends_with(b"From here: http://one.example/\n\n"));
/// // Offsets point into the input.
/// let start = msgs[1].raw_start() as usize;
/// assert!(mbox[start..].starts_with(b"Subject: two"));
/// ```
pub struct Messages<R> {
    rdr: R,
    buf: Vec<u8>,
    pos: usize,
    eof: bool,
    /// Absolute input offset of `buf[0]`.
    base: usize,
    /// Line number of `buf[pos]`, when counting.
    line: u64,
    count_lines: bool,
    limit: usize,
    /// The next read's size.
    read_size: usize,
    split: Split,
    index: usize,
    /// Whether the line before `buf[pos]` was blank.
    prev_blank: bool,
    /// Whether `buf[pos]` is inside a line (a very long line handed out
    /// in pieces).
    mid_line: bool,
    /// A read error to report after the message it cut short.
    error: Option<io::Error>,
    done: bool,
}

impl<R> std::fmt::Debug for Messages<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Messages")
            .field("offset", &(self.base + self.pos))
            .field("messages", &self.index)
            .field("limit", &self.limit)
            .field("mbox", &(self.split == Split::Mbox))
            .finish_non_exhaustive()
    }
}

impl<R: Read> Messages<R> {
    /// Reads messages from `rdr`.
    pub fn new(rdr: R) -> Messages<R> {
        Messages {
            rdr,
            buf: Vec::new(),
            pos: 0,
            eof: false,
            base: 0,
            line: 1,
            count_lines: false,
            limit: DEFAULT_MAX_MESSAGE,
            read_size: FIRST_READ,
            split: Split::Unknown,
            index: 0,
            prev_blank: true,
            mid_line: false,
            error: None,
            done: false,
        }
    }

    /// The largest message kept, in bytes (default
    /// [`DEFAULT_MAX_MESSAGE`]); a longer one is read past and reported
    /// as skipped.
    pub fn max_message_size(mut self, n: usize) -> Messages<R> {
        self.limit = n.max(1);
        self
    }

    /// Count lines, so that matches carry a line and column.
    pub fn count_lines(mut self, yes: bool) -> Messages<R> {
        self.count_lines = yes;
        self
    }

    /// Reads more input after `buf[pos..]`; returns false at the end.
    fn fill(&mut self) -> bool {
        if self.eof {
            return false;
        }
        if self.pos > 0 {
            self.buf.drain(..self.pos);
            self.base += self.pos;
            self.pos = 0;
        }
        let old = self.buf.len();
        self.buf.resize(old + self.read_size, 0);
        self.read_size = (self.read_size * 2).min(READ_SIZE);
        loop {
            match self.rdr.read(&mut self.buf[old..]) {
                Ok(0) => {
                    self.buf.truncate(old);
                    self.eof = true;
                    return false;
                }
                Ok(n) => {
                    self.buf.truncate(old + n);
                    return true;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.buf.truncate(old);
                    self.eof = true;
                    self.error = Some(e);
                    return false;
                }
            }
        }
    }

    /// The end of the complete lines in `buf[pos..]` (all of it at the
    /// end of input), reading more when there is none.
    fn lines_end(&mut self) -> Option<usize> {
        loop {
            let avail = &self.buf[self.pos..];
            if let Some(k) = memchr::memrchr(b'\n', avail) {
                return Some(self.pos + k + 1);
            }
            // No line end yet: a very long line is handed out in pieces
            // (no `From ` can start inside it).
            if avail.len() >= ENVELOPE_LINE_MAX {
                return Some(self.buf.len());
            }
            if !self.fill() {
                return (self.pos < self.buf.len()).then_some(self.buf.len());
            }
        }
    }

    fn count(&mut self, a: usize, b: usize) {
        if self.count_lines {
            self.line +=
                memchr::memchr_iter(b'\n', &self.buf[a..b]).count() as u64;
        }
    }

    /// Reads one whole input as a message.
    fn single(&mut self) -> Message {
        let start = self.base + self.pos;
        let mut msg = Message::new(self.index, start, self.line);
        msg.lines = self.count_lines;
        loop {
            let (a, b) = (self.pos, self.buf.len());
            msg.append(&self.buf[a..b], self.limit);
            self.count(a, b);
            self.pos = b;
            if !self.fill() {
                break;
            }
        }
        self.done = true;
        msg
    }

    /// Reads one message of an mbox, `buf[pos..]` at its `From ` line.
    fn mbox_message(&mut self) -> Option<Message> {
        // The envelope line.
        let end = self.lines_end()?;
        let nl = memchr::memchr(b'\n', &self.buf[self.pos..end])
            .map_or(end, |k| self.pos + k + 1);
        let from_line = self.buf[self.pos..nl].to_vec();
        self.count(self.pos, nl);
        self.pos = nl;
        self.prev_blank = false;
        let start = self.base + self.pos;
        let mut msg = Message::new(self.index, start, self.line);
        msg.lines = self.count_lines;
        msg.envelope = Some(from_line);
        let finder = memmem::Finder::new(b"From ");
        while let Some(end) = self.lines_end() {
            let region = self.pos;
            let mut copied = region;
            let mut at = region;
            while let Some(k) = finder.find(&self.buf[at..end]) {
                let h = at + k;
                at = h + 5;
                // Back over a run of '>' to the start of the line.
                let mut j = h;
                while j > region && self.buf[j - 1] == b'>' {
                    j -= 1;
                }
                let line_start = if j == region {
                    !self.mid_line
                } else {
                    self.buf[j - 1] == b'\n'
                };
                if !line_start {
                    continue;
                }
                if j == h {
                    if self.blank_before(region, h)
                        && envelope(&self.buf[h..end])
                    {
                        msg.append(&self.buf[copied..h], self.limit);
                        self.count(region, h);
                        self.pos = h;
                        return Some(msg);
                    }
                } else {
                    // mboxrd: drop one '>'.
                    msg.append(&self.buf[copied..j], self.limit);
                    msg.unquote();
                    copied = j + 1;
                }
            }
            msg.append(&self.buf[copied..end], self.limit);
            self.count(region, end);
            // The last line is blank when it ends here, and when it
            // starts here too, it is not the end of a long line.
            let ends_line = self.buf[end - 1] == b'\n';
            let starts_here =
                memchr::memrchr(b'\n', &self.buf[region..end - 1]).is_none();
            self.prev_blank = ends_line
                && !(starts_here && self.mid_line)
                && last_line_blank(&self.buf[region..end]).unwrap_or(false);
            self.mid_line = self.buf[end - 1] != b'\n';
            self.pos = end;
        }
        self.done = true;
        Some(msg)
    }

    /// Whether the line before the line starting at `h` is blank.
    fn blank_before(&self, region: usize, h: usize) -> bool {
        if h == region {
            return self.prev_blank;
        }
        let before = &self.buf[region..h - 1];
        let before = before.strip_suffix(b"\r").unwrap_or(before);
        // A line before that starts the region is blank unless it ends
        // a long line handed out in pieces.
        (before.is_empty() && !self.mid_line) || before.ends_with(b"\n")
    }
}

/// Whether the last line of `s` (which ends with a line break or is
/// cut) is blank; `None` when `s` is empty.
fn last_line_blank(s: &[u8]) -> Option<bool> {
    let body = s.strip_suffix(b"\n")?;
    let body = body.strip_suffix(b"\r").unwrap_or(body);
    if body.is_empty() {
        // The whole region is one empty line.
        return Some(true);
    }
    Some(body.ends_with(b"\n"))
}

/// The longest start of a line that [`envelope`] looks at: a reader
/// that holds this much of a line (or all of it) judges it as one that
/// holds more.
pub(crate) const ENVELOPE_LINE_MAX: usize = READ_SIZE * 4;

/// Whether the line at the start of `s` looks like an mbox envelope
/// line: `From `, then a sender that is an address or is followed by a
/// time (`10:00`) somewhere on the line (within its first
/// [`ENVELOPE_LINE_MAX`] bytes).
pub(crate) fn envelope(s: &[u8]) -> bool {
    let s = &s[..s.len().min(ENVELOPE_LINE_MAX)];
    let line = match memchr::memchr(b'\n', s) {
        Some(k) => &s[..k],
        None => s,
    };
    let Some(rest) = line.strip_prefix(b"From ") else { return false };
    if rest.first().is_none_or(|b| b.is_ascii_whitespace()) {
        return false;
    }
    let sender =
        rest.split(|b| b.is_ascii_whitespace()).next().unwrap_or(rest);
    if sender.contains(&b'@') {
        return true;
    }
    rest.windows(4).any(|w| {
        w[0].is_ascii_digit()
            && w[1] == b':'
            && w[2].is_ascii_digit()
            && w[3].is_ascii_digit()
    })
}

impl<R: Read> Iterator for Messages<R> {
    type Item = io::Result<Message>;

    fn next(&mut self) -> Option<io::Result<Message>> {
        if let Some(e) = self.error.take() {
            self.done = true;
            return Some(Err(e));
        }
        if self.done {
            return None;
        }
        if self.split == Split::Unknown {
            while self.buf.len() - self.pos < 5 && self.fill() {}
            if self.buf.len() == self.pos {
                self.done = true;
                return self.error.take().map(Err);
            }
            self.split = if self.buf[self.pos..].starts_with(b"From ") {
                Split::Mbox
            } else {
                Split::Single
            };
        }
        self.index += 1;
        let msg = match self.split {
            Split::Mbox => self.mbox_message()?,
            _ => self.single(),
        };
        Some(Ok(msg))
    }
}

/// One message of the input, as read (mboxrd quoting undone).
#[derive(Clone, Debug)]
pub struct Message {
    index: usize,
    data: Vec<u8>,
    start: usize,
    len_total: usize,
    removed: usize,
    pub(crate) unescaped: Vec<usize>,
    first_line: u64,
    lines: bool,
    envelope: Option<Vec<u8>>,
    skipped: Option<String>,
}

impl Message {
    fn new(index: usize, start: usize, line: u64) -> Message {
        Message {
            index,
            data: Vec::new(),
            start,
            len_total: 0,
            removed: 0,
            unescaped: Vec::new(),
            first_line: line,
            lines: false,
            envelope: None,
            skipped: None,
        }
    }

    /// A message made of `data` as it is (no mbox envelope, no
    /// unescaping), as if it were the whole input.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::mail::{MailFinder, Message};
    ///
    /// let m = Message::from_bytes(b"Subject: see http://a.example/\n\nhi\n".to_vec());
    /// let mf = MailFinder::new(urifind::Finder::new());
    /// assert_eq!(m.matches(&mf).count(), 1);
    /// ```
    pub fn from_bytes(data: Vec<u8>) -> Message {
        let mut m = Message::new(1, 0, 1);
        m.lines = true;
        m.len_total = data.len();
        m.data = data;
        m
    }

    /// Records a `>` removed here (mboxrd).
    fn unquote(&mut self) {
        self.removed += 1;
        if self.skipped.is_none() {
            self.unescaped.push(self.data.len());
        }
    }

    fn append(&mut self, s: &[u8], limit: usize) {
        self.len_total += s.len();
        if self.skipped.is_some() {
            return;
        }
        if self.data.len() + s.len() > limit {
            self.skipped = Some(format!(
                "message skipped: longer than the limit of {} bytes",
                limit
            ));
            self.data = Vec::new();
            self.unescaped = Vec::new();
            return;
        }
        self.data.extend_from_slice(s);
    }

    /// The message number in the input, from 1.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The message as read: the bytes after the mbox `From ` line, with
    /// mboxrd quoting undone (empty when skipped).
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The offset in the input of the message's first byte (after its
    /// `From ` line).
    pub fn raw_start(&self) -> usize {
        self.start
    }

    /// The message's length in the input.
    pub fn raw_len(&self) -> usize {
        self.len_total + self.removed
    }

    /// The mbox `From ` line, when the input is an mbox.
    pub fn envelope(&self) -> Option<&[u8]> {
        self.envelope.as_deref()
    }

    /// Why the message was not read (it was longer than the limit).
    pub fn skipped(&self) -> Option<&str> {
        self.skipped.as_deref()
    }

    /// The input offset of byte `p` of [`Message::data`].
    fn raw(&self, p: usize) -> usize {
        let shift = self.unescaped.partition_point(|&q| q <= p);
        self.start + p + shift
    }

    /// Everything found in the message: matches, rejected candidates
    /// (when `mf`'s finder reports them) and notes on broken mail, in
    /// order. They are collected first: [`Message::for_each_item`] hands
    /// them on as they are found instead, in no memory of their own.
    pub fn items(&self, mf: &MailFinder) -> std::vec::IntoIter<MailItem> {
        let mut out = Vec::new();
        self.for_each_item(mf, |it| {
            out.push(it);
            true
        });
        out.into_iter()
    }

    /// Hands everything found in the message to `f`, in order, as it is
    /// found (what [`Message::items`] collects), until `f` returns
    /// false. Only the alternatives of a `multipart/alternative` are
    /// held until all of them are read.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::mail::{MailFinder, MailItem, Message};
    ///
    /// let m = Message::from_bytes(b"Subject: x\n\nhttp://a.example/ http://b.example/\n".to_vec());
    /// let mf = MailFinder::new(urifind::Finder::new());
    /// let mut first = None;
    /// m.for_each_item(&mf, |it| {
    ///     if let MailItem::Match(m) = it {
    ///         first = Some(m.uri().to_vec());
    ///     }
    ///     false // enough
    /// });
    /// assert_eq!(first.as_deref(), Some(&b"http://a.example/"[..]));
    /// ```
    pub fn for_each_item(
        &self,
        mf: &MailFinder,
        mut f: impl FnMut(MailItem) -> bool,
    ) {
        if let Some(reason) = &self.skipped {
            let origin = Origin {
                message: self.index,
                message_id: None,
                part: Arc::new(PartInfo::default()),
            };
            let end = self.start + self.raw_len();
            f(MailItem::Note(MailNote {
                origin,
                reason: reason.clone(),
                span: self.start..end,
                position: self
                    .lines
                    .then_some(Position { line: self.first_line, column: 1 }),
            }));
            return;
        }
        let mut sink = ItemSink {
            msg: self,
            id: None,
            lines: Lines::new(self),
            f: &mut f,
            more: true,
        };
        mime::read(&self.data, mf, &mut sink);
    }

    /// A finding as the item handed out: offsets and position in the
    /// input.
    fn item(
        &self,
        f: Found,
        id: &Option<Arc<str>>,
        position: Option<Position>,
    ) -> MailItem {
        let span = self.raw(f.span.0)..self.raw_end(f.span);
        let origin = Origin {
            message: self.index,
            message_id: id.clone(),
            part: f.part,
        };
        match f.kind {
            Kind::Match(m) => {
                let u = self.raw(m.uri_span.0)..self.raw_end(m.uri_span);
                MailItem::Match(MailMatch {
                    origin,
                    context: f.context,
                    inner: Match::owned(
                        span,
                        u,
                        m.uri,
                        m.delimiter,
                        m.without_hyphen,
                        position,
                    ),
                    shown: m.shown,
                    parts_seen: m.parts_seen,
                })
            }
            Kind::Rejected(mut r) => {
                r.span = span;
                r.position = position;
                MailItem::Rejected(MailRejected {
                    origin,
                    context: f.context,
                    inner: r,
                })
            }
            Kind::Note(reason) => {
                MailItem::Note(MailNote { origin, reason, span, position })
            }
        }
    }

    /// The URIs found in the message, in order.
    pub fn matches(&self, mf: &MailFinder) -> impl Iterator<Item = MailMatch> {
        self.items(mf).filter_map(|it| match it {
            MailItem::Match(m) => Some(m),
            _ => None,
        })
    }

    fn raw_end(&self, (s, e): (usize, usize)) -> usize {
        if e <= s {
            self.raw(s)
        } else {
            self.raw(e - 1) + 1
        }
    }
}

/// Hands a message's findings on as items.
struct ItemSink<'m, 'f> {
    msg: &'m Message,
    id: Option<Arc<str>>,
    lines: Lines,
    f: &'f mut dyn FnMut(MailItem) -> bool,
    more: bool,
}

impl Sink for ItemSink<'_, '_> {
    fn message_id(&mut self, id: Option<String>) {
        self.id = id.map(Arc::from);
    }

    fn found(&mut self, f: Found) {
        if !self.more {
            return;
        }
        let position = self.lines.position(self.msg, f.span.0);
        let item = self.msg.item(f, &self.id, position);
        self.more = (self.f)(item);
    }
}

/// Line and column of offsets of a message's data, asked in about
/// increasing order: a cursor moves forward over the data; an offset
/// behind it starts from the last of the checkpoints kept every
/// [`Lines::STEP`] bytes, so that no lookup counts more than that again.
struct Lines {
    on: bool,
    at: usize,
    line: u64,
    line_start: usize,
    /// `(line, line_start)` at every multiple of `STEP` passed.
    marks: Vec<(u64, usize)>,
}

impl Lines {
    const STEP: usize = 4096;

    fn new(msg: &Message) -> Lines {
        Lines {
            on: msg.lines,
            at: 0,
            line: msg.first_line,
            line_start: 0,
            marks: vec![(msg.first_line, 0)],
        }
    }

    /// Moves the cursor to `p` (at or after it), counting lines and
    /// keeping checkpoints.
    fn advance(&mut self, data: &[u8], p: usize) {
        while self.at < p {
            let next_mark = (self.marks.len() * Self::STEP).min(p);
            let stop = next_mark.max(self.at + 1).min(p);
            for k in memchr::memchr_iter(b'\n', &data[self.at..stop]) {
                self.line += 1;
                self.line_start = self.at + k + 1;
            }
            self.at = stop;
            if self.at == self.marks.len() * Self::STEP {
                self.marks.push((self.line, self.line_start));
            }
        }
    }

    fn position(&mut self, msg: &Message, p: usize) -> Option<Position> {
        if !self.on {
            return None;
        }
        let data = &msg.data;
        let p = p.min(data.len());
        let (line, line_start) = if p >= self.at {
            self.advance(data, p);
            (self.line, self.line_start)
        } else {
            let m = p / Self::STEP;
            let (mut line, mut line_start) = self.marks[m];
            let from = m * Self::STEP;
            for k in memchr::memchr_iter(b'\n', &data[from..p]) {
                line += 1;
                line_start = from + k + 1;
            }
            (line, line_start)
        };
        let shifted = msg
            .unescaped
            .binary_search(&line_start)
            .is_ok_and(|_| p >= line_start);
        let column = (p - line_start) as u64 + 1 + u64::from(shifted);
        Some(Position { line, column })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out one byte at a time.
    struct Trickle<'a>(&'a [u8]);
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() || buf.is_empty() {
                return Ok(0);
            }
            buf[0] = self.0[0];
            self.0 = &self.0[1..];
            Ok(1)
        }
    }

    const MBOX: &[u8] = b"From a@example.org Tue Nov  3 10:00:00 2026\n\
Subject: one\n\
\n\
>From the archive\n\
>>From deeper\n\
From not a separator: no blank line before\n\
\n\
From this line has no time either\n\
\n\
From b@example.org Tue Nov  3 11:00:00 2026\r\n\
Subject: two\r\n\
\r\n\
body\r\n";

    fn split(input: &[u8], trickle: bool) -> Vec<Message> {
        let it: Box<dyn Iterator<Item = io::Result<Message>>> = if trickle {
            Box::new(Messages::new(Trickle(input)).count_lines(true))
        } else {
            Box::new(Messages::new(input).count_lines(true))
        };
        it.map(|m| m.unwrap()).collect()
    }

    #[test]
    fn mbox_split_and_unescape() {
        for trickle in [false, true] {
            let m = split(MBOX, trickle);
            assert_eq!(m.len(), 2, "trickle {trickle}");
            assert_eq!(
                m[0].data(),
                b"Subject: one\n\nFrom the archive\n>From deeper\n\
From not a separator: no blank line before\n\n\
From this line has no time either\n\n"
            );
            assert_eq!(m[0].unescaped.len(), 2);
            assert_eq!(m[1].data(), b"Subject: two\r\n\r\nbody\r\n");
            assert_eq!(m[1].index(), 2);
            let s = m[1].raw_start();
            assert!(MBOX[s..].starts_with(b"Subject: two"));
            assert_eq!(m[1].first_line, 11);
            assert_eq!(m[0].raw_len() + m[1].raw_len() + 44 + 45, MBOX.len());
        }
    }

    #[test]
    fn raw_offsets_account_for_removed_quotes() {
        let m = &split(MBOX, false)[0];
        // "deeper" in the message data and in the input.
        let p = m.data().windows(6).position(|w| w == b"deeper").unwrap();
        let r = m.raw(p);
        assert_eq!(&MBOX[r..r + 6], b"deeper");
        let p = m.data().windows(7).position(|w| w == b"archive").unwrap();
        let r = m.raw(p);
        assert_eq!(&MBOX[r..r + 7], b"archive");
    }

    #[test]
    fn single_message_is_not_split() {
        let input = b"Subject: x\n\nFrom here on\n\nFrom a@b Tue Nov  3 10:00:00 2026\n";
        let m = split(input, false);
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].data(), &input[..]);
        assert!(m[0].envelope().is_none());
    }

    #[test]
    fn long_message_is_skipped_and_the_next_kept() {
        let mut input =
            b"From a@b Tue Nov  3 10:00:00 2026\nSubject: big\n\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 5000));
        input.extend_from_slice(
            b"\n\nFrom c@d Tue Nov  3 10:00:00 2026\nSubject: small\n\nok\n",
        );
        let m: Vec<_> = Messages::new(&input[..])
            .max_message_size(1000)
            .map(|m| m.unwrap())
            .collect();
        assert_eq!(m.len(), 2);
        assert!(m[0].skipped().unwrap().contains("1000"));
        assert!(m[0].data().is_empty());
        assert_eq!(m[1].data(), b"Subject: small\n\nok\n");
        let mf = MailFinder::new(crate::Finder::new());
        let items: Vec<_> = m[0].items(&mf).collect();
        assert!(
            matches!(&items[..], [MailItem::Note(n)] if n.reason().contains("skipped"))
        );
    }

    #[test]
    fn envelope_lines() {
        assert!(envelope(b"From a@b Tue Nov  3 10:00:00 2026\n"));
        assert!(envelope(b"From MAILER-DAEMON Thu Jan  1 00:00:00 1970"));
        assert!(!envelope(b"From the desk of the editor, 10 May\n"));
        assert!(!envelope(b"From  a@b 10:00\n"));
        assert!(envelope(b"From a@b\n"));
        assert!(!envelope(b"From here on, nothing\n"));
        assert!(!envelope(b"Fro a@b 10:00\n"));
    }

    #[test]
    fn a_long_line_before_a_from_line_is_not_blank() {
        // A blank line, a line longer than a piece, then an envelope-like
        // line right after it: not a message start, however it is read.
        let mut input = b"From a@b Tue Nov  3 10:00:00 2026\n\n".to_vec();
        input.resize(input.len() + ENVELOPE_LINE_MAX + 300_000, b'y');
        input
            .extend_from_slice(b"\nFrom c@d Tue Nov  3 11:00:00 2026\nbody\n");
        for trickle in [false, true] {
            assert_eq!(split(&input, trickle).len(), 1, "trickle {trickle}");
        }
        assert_eq!(crate::mail::message_ranges(&input).count(), 1);
    }

    #[test]
    fn empty_input_has_no_message() {
        assert_eq!(split(b"", false).len(), 0);
    }

    #[test]
    fn positions_count_lines_and_removed_quotes() {
        let m = &split(MBOX, false)[0];
        let p = m.data().windows(6).position(|w| w == b"deeper").unwrap();
        let f = Found::note_at(p);
        let pos = Lines::new(m).position(m, f.span.0).unwrap();
        // Line 5 of the input: ">>From deeper", "deeper" at column 8.
        assert_eq!((pos.line, pos.column), (5, 8));
    }
}
