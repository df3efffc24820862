//! Scanning input that arrives in pieces: [`Stream`] pulls from any
//! `io::Read`, [`Feeder`] is pushed chunks by its caller. Both keep only
//! a window of the input (the bytes the engine may still look at around
//! the next trigger, plus one read buffer) and report the same items, at
//! the same absolute offsets, as a scan of the whole input at once.

use std::io;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread;

use crate::scan::decision::Out;
use crate::scan::engine::Engine;
use crate::scan::lines::Lines;
use crate::scan::{Item, Position};

/// How many bytes a stream asks its reader for at once.
const READ_SIZE: usize = 256 * 1024;

/// How many bytes a reading thread puts in one block.
const AHEAD_BLOCK: usize = 1 << 20;
/// How many blocks may wait, read but not yet scanned.
const AHEAD_DEPTH: usize = 2;
/// Room left free at the front of each block for the bytes a stream
/// still needs from the block before (a window: see `decision::Limits`).
const AHEAD_HEAD: usize = 256 * 1024;

/// Blocks read by a second thread: `(block, n)` holds input in
/// `block[AHEAD_HEAD..AHEAD_HEAD + n]`; `n == 0` is the end.
struct Blocks {
    rx: Receiver<io::Result<(Vec<u8>, usize)>>,
    back: SyncSender<Vec<u8>>,
}

impl Blocks {
    fn start<R: io::Read + Send + 'static>(mut rdr: R) -> Blocks {
        let (tx, rx) = sync_channel(AHEAD_DEPTH);
        let (back, spare) = sync_channel::<Vec<u8>>(AHEAD_DEPTH + 2);
        thread::spawn(move || loop {
            let mut block = spare.try_recv().unwrap_or_default();
            block.resize(AHEAD_HEAD + AHEAD_BLOCK, 0);
            let res = loop {
                match rdr.read(&mut block[AHEAD_HEAD..]) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    r => break r,
                }
            };
            let last = !matches!(res, Ok(n) if n > 0);
            // The stream went away: stop quietly.
            if tx.send(res.map(|n| (block, n))).is_err() || last {
                return;
            }
        });
        Blocks { rx, back }
    }
}

/// The state both stream forms share.
struct Core<'f> {
    eng: Engine<'f>,
    /// `buf[off..off + len]` holds the input from absolute offset `base`.
    buf: Vec<u8>,
    off: usize,
    len: usize,
    base: usize,
    eof: bool,
    lines: Option<Lines>,
}

impl std::fmt::Debug for Core<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Core")
            .field("base", &self.base)
            .field("buffered", &self.len)
            .field("searched_to", &self.eng.searched_to())
            .field("eof", &self.eof)
            .field("count_lines", &self.lines.is_some())
            .finish()
    }
}

impl<'f> Core<'f> {
    fn new(eng: Engine<'f>) -> Core<'f> {
        Core {
            eng,
            buf: Vec::new(),
            off: 0,
            len: 0,
            base: 0,
            eof: false,
            lines: None,
        }
    }

    /// The position of absolute offset `to` (within the buffer).
    fn count_to(&mut self, to: usize) -> Option<Position> {
        let base = self.base;
        let buf = &self.buf[self.off..self.off + self.len];
        self.lines.as_mut().map(|l| l.advance(buf, base, to))
    }

    fn out(&mut self, o: Out) -> Item<'static> {
        match o {
            Out::Match(f) => {
                let start = f.span.start;
                let buf = &self.buf[self.off..self.off + self.len];
                let mut m = f.into_match(buf, self.base).into_owned();
                m.position = self.count_to(start);
                Item::Match(m)
            }
            Out::Rejected(mut r) => {
                r.position = self.count_to(r.span.start);
                Item::Rejected(*r)
            }
        }
    }

    /// The next item that the bytes at hand decide; `None` when more
    /// input is needed, or (after the end of input) when all is done.
    fn next_item(&mut self) -> Option<Item<'static>> {
        loop {
            if let Some(o) = self.eng.pop() {
                return Some(self.out(o));
            }
            let buf = &self.buf[self.off..self.off + self.len];
            let t = self.eng.next_trigger(buf, self.base, self.eof)?;
            if !self.eng.decide(buf, self.base, self.eof, t) {
                return None;
            }
        }
    }

    /// Drops what the engine can no longer need and returns room for at
    /// least `want` more bytes.
    fn space(&mut self, want: usize) -> &mut [u8] {
        let keep = self.eng.keep_from().max(self.base);
        if (keep > self.base && (keep - self.base) * 2 >= self.len)
            || self.off > 0
        {
            if self.lines.is_some() {
                self.count_to(keep);
            }
            let from = self.off + keep - self.base;
            self.buf.copy_within(from..self.off + self.len, 0);
            self.len -= keep - self.base;
            self.base = keep;
            self.off = 0;
        }
        if self.buf.len() < self.len + want {
            self.buf.resize(self.len + want, 0);
        }
        &mut self.buf[self.len..]
    }

    /// Takes `block[head..head + n]` as the next input without copying
    /// it: the bytes still needed from before (at most `head`, see
    /// [`AHEAD_HEAD`]) are copied in front of it. Returns the old buffer
    /// for reuse.
    fn take_block(
        &mut self,
        mut block: Vec<u8>,
        head: usize,
        n: usize,
    ) -> Vec<u8> {
        let keep = self.eng.keep_from().max(self.base);
        let carry = self.len - (keep - self.base);
        if carry > head {
            let room = self.space(n);
            room[..n].copy_from_slice(&block[head..head + n]);
            self.len += n;
            return block;
        }
        if self.lines.is_some() {
            self.count_to(keep);
        }
        let start = head - carry;
        let from = self.off + keep - self.base;
        block[start..head].copy_from_slice(&self.buf[from..from + carry]);
        let old = std::mem::replace(&mut self.buf, block);
        self.off = start;
        self.len = carry + n;
        self.base = keep;
        old
    }
}

/// Iterator over the items in a stream; see [`crate::Finder::stream`].
///
/// Memory is bounded by the bracket bound and the longest URI (the
/// window the engine may see around a trigger) plus one read buffer.
///
/// # Example
///
/// ```
/// let f = urifind::Finder::new();
/// let input = std::io::Cursor::new(b"<http://a.example/\n  b> ok".to_vec());
/// let mut s = f.stream(input);
/// let Ok(urifind::scan::Item::Match(m)) = s.next().unwrap() else { panic!() };
/// assert_eq!(m.uri(), b"http://a.example/b");
/// assert!(s.next().is_none());
/// ```
pub struct Stream<'f, R> {
    core: Core<'f>,
    rdr: R,
    done: bool,
    ahead: Option<Blocks>,
}

impl<R> std::fmt::Debug for Stream<'_, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stream")
            .field("core", &self.core)
            .field("done", &self.done)
            .field("read_ahead", &self.ahead.is_some())
            .finish_non_exhaustive()
    }
}

impl<'f, R: io::Read> Stream<'f, R> {
    pub(crate) fn new(eng: Engine<'f>, rdr: R) -> Stream<'f, R> {
        Stream { core: Core::new(eng), rdr, done: false, ahead: None }
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
        if let Some(ahead) = &self.ahead {
            return match ahead.rx.recv() {
                Ok(Ok((_, 0))) | Err(_) => {
                    self.core.eof = true;
                    Ok(())
                }
                Ok(Ok((block, n))) => {
                    let old = self.core.take_block(block, AHEAD_HEAD, n);
                    let _ = ahead.back.try_send(old);
                    Ok(())
                }
                Ok(Err(e)) => Err(e),
            };
        }
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

impl<'f> Stream<'f, io::Empty> {
    pub(crate) fn read_ahead<R: io::Read + Send + 'static>(
        eng: Engine<'f>,
        rdr: R,
    ) -> Stream<'f, io::Empty> {
        Stream {
            core: Core::new(eng),
            rdr: io::empty(),
            done: false,
            ahead: Some(Blocks::start(rdr)),
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
///
/// # Example
///
/// ```
/// let f = urifind::Finder::new();
/// let mut n = 0;
/// let mut feeder = f.feeder();
/// for chunk in [&b"mailto:a@"[..], b"b.example an", b"d http://c.example/"] {
///     feeder.feed(chunk, &mut |_| n += 1);
/// }
/// feeder.finish(&mut |_| n += 1);
/// assert_eq!(n, 2);
/// ```
pub struct Feeder<'f> {
    core: Core<'f>,
}

impl std::fmt::Debug for Feeder<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Feeder").field("core", &self.core).finish()
    }
}

impl<'f> Feeder<'f> {
    pub(crate) fn new(eng: Engine<'f>) -> Feeder<'f> {
        Feeder { core: Core::new(eng) }
    }

    /// Count lines so that items carry a [`Position`].
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::scan::Item;
    ///
    /// let f = urifind::Finder::new();
    /// let mut at = Vec::new();
    /// let mut feeder = f.feeder().count_lines(true);
    /// let mut keep = |it: Item<'static>| {
    ///     if let Item::Match(m) = it {
    ///         at.push(m.position().unwrap().line);
    ///     }
    /// };
    /// feeder.feed(b"a\nb\nhttp://a.example/", &mut keep);
    /// feeder.finish(&mut keep);
    /// assert_eq!(at, [3]);
    /// ```
    pub fn count_lines(mut self, yes: bool) -> Self {
        self.core.lines = yes.then(Lines::new);
        self
    }

    /// Adds the next chunk of input and hands every item it decides to
    /// `sink`, in order. An item whose decision needs bytes not fed yet
    /// waits for them.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let mut n = 0;
    /// let mut feeder = f.feeder();
    /// feeder.feed(b"see http://a.example/ and <http://b.", &mut |_| n += 1);
    /// assert_eq!(n, 1);
    /// feeder.feed(b"example/>", &mut |_| n += 1);
    /// feeder.finish(&mut |_| n += 1);
    /// assert_eq!(n, 2);
    /// ```
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
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let mut uris = Vec::new();
    /// let mut feeder = f.feeder();
    /// feeder.feed(b"http://a.example/x", &mut |_| unreachable!());
    /// feeder.finish(&mut |it| {
    ///     if let urifind::scan::Item::Match(m) = it {
    ///         uris.push(m.uri().to_vec());
    ///     }
    /// });
    /// assert_eq!(uris, [b"http://a.example/x".to_vec()]);
    /// ```
    pub fn finish(mut self, sink: &mut dyn FnMut(Item<'static>)) {
        self.core.eof = true;
        while let Some(it) = self.core.next_item() {
            sink(it);
        }
    }
}
