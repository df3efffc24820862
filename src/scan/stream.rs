//! Scanning input that arrives in pieces: [`Stream`] pulls from any
//! `io::Read`, [`Feeder`] is pushed chunks by its caller. Both keep only
//! a window of the input (the bytes the engine may still look at around
//! the next trigger, plus one read buffer) and report the same items, at
//! the same absolute offsets, as a scan of the whole input at once.

use std::io;

use crate::scan::engine::{Engine, Out};
use crate::scan::{materialize, window, Item, Lines, Position};

/// How many bytes a stream asks its reader for at once.
const READ_SIZE: usize = 256 * 1024;

/// The state both stream forms share.
struct Core<'f> {
    eng: Engine<'f>,
    /// `buf[..len]` holds the input from absolute offset `base`.
    buf: Vec<u8>,
    len: usize,
    base: usize,
    eof: bool,
    lines: Option<Lines>,
}

impl<'f> Core<'f> {
    fn new(eng: Engine<'f>) -> Core<'f> {
        Core { eng, buf: Vec::new(), len: 0, base: 0, eof: false, lines: None }
    }

    /// The position of absolute offset `to` (within the buffer).
    fn count_to(&mut self, to: usize) -> Option<Position> {
        let base = self.base;
        let buf = &self.buf[..self.len];
        self.lines.as_mut().map(|l| l.advance(buf, base, to))
    }

    fn out(&mut self, o: Out) -> Item<'static> {
        match o {
            Out::Match(f) => {
                let start = f.span.start;
                let buf = &self.buf[..self.len];
                let mut m = materialize(f, buf, self.base).into_owned();
                m.position = self.count_to(start);
                Item::Match(m)
            }
            Out::Rejected(mut r) => {
                r.position = self.count_to(r.span.start);
                Item::Rejected(r)
            }
        }
    }

    /// The next item that the bytes at hand decide; `None` when more
    /// input is needed, or (after the end of input) when all is done.
    fn next_item(&mut self) -> Option<Item<'static>> {
        loop {
            if let Some(o) = self.eng.queue.pop_front() {
                return Some(self.out(o));
            }
            let buf = &self.buf[..self.len];
            let end = self.base + buf.len();
            let (t, abbrev) =
                self.eng.next_trigger(buf, self.base, self.eof)?;
            let vw = window(buf, self.base, t, &self.eng);
            if self.eof || t + self.eng.limits.ahead <= end {
                self.eng.trigger(vw, t, abbrev);
                continue;
            }
            // Try with what is here; keep the result only if no decision
            // needed bytes that have not arrived yet.
            let saved = self.eng.checkpoint();
            self.eng.hit_end = false;
            self.eng.trigger(vw, t, abbrev);
            if !self.eng.hit_end {
                continue;
            }
            self.eng.restore(saved);
            self.eng.pos = t;
            return None;
        }
    }

    /// Drops what the engine can no longer need and returns room for at
    /// least `want` more bytes.
    fn space(&mut self, want: usize) -> &mut [u8] {
        let keep =
            self.eng.pos.saturating_sub(self.eng.limits.behind).max(self.base);
        if keep > self.base && (keep - self.base) * 2 >= self.len {
            if self.lines.is_some() {
                self.count_to(keep);
            }
            self.buf.copy_within(keep - self.base..self.len, 0);
            self.len -= keep - self.base;
            self.base = keep;
        }
        if self.buf.len() < self.len + want {
            self.buf.resize(self.len + want, 0);
        }
        &mut self.buf[self.len..]
    }
}

/// Iterator over the items in a stream; see [`crate::Finder::stream`].
///
/// Memory is bounded by the bracket bound and the longest URI (the
/// window the engine may see around a trigger) plus one read buffer.
pub struct Stream<'f, R> {
    core: Core<'f>,
    rdr: R,
    done: bool,
}

impl<'f, R: io::Read> Stream<'f, R> {
    pub(crate) fn new(eng: Engine<'f>, rdr: R) -> Stream<'f, R> {
        Stream { core: Core::new(eng), rdr, done: false }
    }

    /// Count lines so that items carry a [`Position`].
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let mut s = f.stream(&b"a\nb http://a.example/\n"[..]).count_lines(true);
    /// let it = s.next().unwrap().unwrap();
    /// let urifind::scan::Item::Match(m) = it else { panic!() };
    /// let p = m.position().unwrap();
    /// assert_eq!((p.line, p.column), (2, 3));
    /// ```
    pub fn count_lines(mut self, yes: bool) -> Self {
        self.core.lines = yes.then(Lines::new);
        self
    }

    fn refill(&mut self) -> io::Result<()> {
        let room = self.core.space(READ_SIZE);
        loop {
            match self.rdr.read(room) {
                Ok(n) => {
                    self.core.len += n;
                    self.core.eof = n == 0;
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }
}

impl<'f, R: io::Read> Iterator for Stream<'f, R> {
    type Item = io::Result<Item<'static>>;

    fn next(&mut self) -> Option<io::Result<Item<'static>>> {
        loop {
            if let Some(it) = self.core.next_item() {
                return Some(Ok(it));
            }
            if self.done || self.core.eof {
                self.done = true;
                return None;
            }
            if let Err(e) = self.refill() {
                self.done = true;
                return Some(Err(e));
            }
        }
    }
}

/// A scanner fed chunk by chunk; see [`crate::Finder::feeder`].
pub struct Feeder<'f> {
    core: Core<'f>,
}

impl<'f> Feeder<'f> {
    pub(crate) fn new(eng: Engine<'f>) -> Feeder<'f> {
        Feeder { core: Core::new(eng) }
    }

    /// Count lines so that items carry a [`Position`].
    pub fn count_lines(mut self, yes: bool) -> Self {
        self.core.lines = yes.then(Lines::new);
        self
    }

    /// Adds the next chunk of input and hands every item it decides to
    /// `sink`, in order.
    pub fn feed(
        &mut self,
        mut chunk: &[u8],
        sink: &mut dyn FnMut(Item<'static>),
    ) {
        while !chunk.is_empty() {
            let n = chunk.len().min(READ_SIZE);
            let room = self.core.space(n);
            room[..n].copy_from_slice(&chunk[..n]);
            self.core.len += n;
            chunk = &chunk[n..];
            while let Some(it) = self.core.next_item() {
                sink(it);
            }
        }
    }

    /// Ends the input and hands the remaining items to `sink`.
    pub fn finish(mut self, sink: &mut dyn FnMut(Item<'static>)) {
        self.core.eof = true;
        while let Some(it) = self.core.next_item() {
            sink(it);
        }
    }
}
