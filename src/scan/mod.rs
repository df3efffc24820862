//! The Appendix E scanner: finds URIs in prose, over byte slices and
//! streams.
//!
//! This module owns the public face of scanning ([`Finder`], [`Match`],
//! [`Rejected`]) and the two drivers, one over a slice ([`Items`]) and
//! one over any reader ([`Stream`]). The decisions themselves live in
//! `engine` (contexts, candidates, validation) and `text` (byte
//! classes); both drivers feed the same engine the same windows, which
//! is why they agree byte for byte.

use std::borrow::Cow;
use std::io;
use std::ops::Range;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

use crate::grammar::Grammar;

mod engine;
mod text;

use engine::{Engine, Found, Out, View};

/// How a URI was delimited in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Context {
    /// `<...>`.
    Angle,
    /// `<URL:...>`.
    UrlPrefixed,
    /// `"..."`.
    Quoted,
    /// Bare in prose.
    Bare,
    /// An abbreviated URI (`www.w3.org/...`, only with
    /// [`FinderBuilder::abbrev`]), reported with a scheme prepended.
    Abbreviated,
}

impl Context {
    /// A short lower-case name: `angle`, `url-prefixed`, `quoted`, `bare`,
    /// `abbreviated`.
    pub fn name(self) -> &'static str {
        match self {
            Context::Angle => "angle",
            Context::UrlPrefixed => "url-prefixed",
            Context::Quoted => "quoted",
            Context::Bare => "bare",
            Context::Abbreviated => "abbreviated",
        }
    }
}

/// A line and column, both 1-based; the column counts bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The line number.
    pub line: u64,
    /// The byte column.
    pub column: u64,
}

/// A URI found in text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match<'h> {
    pub(crate) span: Range<usize>,
    pub(crate) uri_span: Range<usize>,
    pub(crate) uri: Cow<'h, [u8]>,
    pub(crate) context: Context,
    pub(crate) without_hyphen: Option<Vec<u8>>,
    pub(crate) position: Option<Position>,
}

impl<'h> Match<'h> {
    /// The byte range of the whole match in the input, delimiters
    /// included.
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }
    /// The byte range from the URI's first byte to its last in the input
    /// (it may contain removed whitespace and quote prefixes).
    pub fn uri_span(&self) -> Range<usize> {
        self.uri_span.clone()
    }
    /// The URI as reported: delimiters and embedded whitespace removed.
    pub fn uri(&self) -> &[u8] {
        &self.uri
    }
    /// How the URI was delimited.
    pub fn context(&self) -> Context {
        self.context
    }
    /// When the hyphen rule applied, the form without the hyphen.
    pub fn without_hyphen(&self) -> Option<&[u8]> {
        self.without_hyphen.as_deref()
    }
    /// The line and column of the span's start, when the stream was asked
    /// to count lines ([`Stream::count_lines`]).
    pub fn position(&self) -> Option<Position> {
        self.position
    }
    /// A copy that borrows nothing.
    pub fn into_owned(self) -> Match<'static> {
        Match {
            span: self.span,
            uri_span: self.uri_span,
            uri: Cow::Owned(self.uri.into_owned()),
            context: self.context,
            without_hyphen: self.without_hyphen,
            position: self.position,
        }
    }
}

/// A candidate that looked like a URI but failed validation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    pub(crate) span: Range<usize>,
    pub(crate) candidate: Vec<u8>,
    pub(crate) offset: usize,
    pub(crate) reason: String,
    pub(crate) context: Context,
    pub(crate) position: Option<Position>,
}

impl Rejected {
    /// The byte range of the candidate in the input.
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }
    /// The candidate text (delimiters and embedded whitespace removed).
    pub fn candidate(&self) -> &[u8] {
        &self.candidate
    }
    /// The 0-based offset of the fault within [`Rejected::candidate`].
    pub fn offset(&self) -> usize {
        self.offset
    }
    /// Why it was rejected.
    pub fn reason(&self) -> &str {
        &self.reason
    }
    /// How the candidate was delimited.
    pub fn context(&self) -> Context {
        self.context
    }
    /// Line and column of the span's start (streams counting lines only).
    pub fn position(&self) -> Option<Position> {
        self.position
    }
}

/// What the scanner reports: a match, or (when asked) a rejected
/// candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item<'h> {
    /// A URI.
    Match(Match<'h>),
    /// A rejected candidate (only with [`FinderBuilder::rejected`]).
    Rejected(Rejected),
}

/// Builds a [`Finder`] with options.
///
/// # Example
///
/// ```
/// use urifind::Finder;
///
/// let f = Finder::builder().schemes(["ftp"]).build();
/// let text = b"http://a.example/ and ftp://b.example/pub/";
/// let got: Vec<&[u8]> = f.find_iter(text).map(|m| &text[m.uri_span()]).collect();
/// assert_eq!(got, [&b"ftp://b.example/pub/"[..]]);
/// ```
#[derive(Clone, Debug)]
pub struct FinderBuilder {
    grammar: Grammar,
    schemes: Option<Vec<Vec<u8>>>,
    any_scheme: bool,
    abbrev: bool,
    bracket_bound: usize,
    max_uri_len: usize,
    rejected: bool,
}

impl Default for FinderBuilder {
    fn default() -> Self {
        FinderBuilder {
            grammar: Grammar::default(),
            schemes: None,
            any_scheme: false,
            abbrev: false,
            bracket_bound: 2048,
            max_uri_len: 64 * 1024,
            rejected: false,
        }
    }
}

impl FinderBuilder {
    /// Default options.
    pub fn new() -> FinderBuilder {
        FinderBuilder::default()
    }
    /// The grammar candidates are validated against.
    pub fn grammar(&mut self, g: Grammar) -> &mut FinderBuilder {
        self.grammar = g;
        self
    }
    /// Accept only these schemes (case-insensitive).
    pub fn schemes<I, S>(&mut self, schemes: I) -> &mut FinderBuilder
    where
        I: IntoIterator<Item = S>,
        S: AsRef<[u8]>,
    {
        self.schemes = Some(
            schemes
                .into_iter()
                .map(|s| s.as_ref().to_ascii_lowercase())
                .collect(),
        );
        self
    }
    /// Accept every syntactically valid scheme in every context.
    pub fn any_scheme(&mut self, yes: bool) -> &mut FinderBuilder {
        self.any_scheme = yes;
        self
    }
    /// Find abbreviated URIs (`www.example.com/x`).
    pub fn abbrev(&mut self, yes: bool) -> &mut FinderBuilder {
        self.abbrev = yes;
        self
    }
    /// Bytes allowed between `<` and `>` (default 2048).
    pub fn bracket_bound(&mut self, n: usize) -> &mut FinderBuilder {
        self.bracket_bound = n;
        self
    }
    /// Longest URI reported (default 64 KiB); longer candidates are
    /// rejected.
    pub fn max_uri_len(&mut self, n: usize) -> &mut FinderBuilder {
        self.max_uri_len = n;
        self
    }
    /// Also report rejected candidates as [`Item::Rejected`].
    pub fn rejected(&mut self, yes: bool) -> &mut FinderBuilder {
        self.rejected = yes;
        self
    }
    /// Builds the finder.
    pub fn build(&self) -> Finder {
        let abbrev = self.abbrev.then(|| {
            AhoCorasickBuilder::new()
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::LeftmostFirst)
                .build(["www.", "ftp."])
                .expect("two literal patterns always build")
        });
        Finder { opts: self.clone(), abbrev }
    }
}

/// Finds URIs in text; build once, use many times.
///
/// # Example
///
/// ```
/// use urifind::{Context, Finder};
///
/// let text = b"Yes, Jim, I found it under \"http://www.w3.org/Addressing/\",\n\
///              but you can probably pick it up from <ftp://ds.internic.\n\
///              net/rfc/>.";
/// let f = Finder::new();
/// let m: Vec<_> = f.find_iter(text).collect();
/// assert_eq!(m[0].uri(), b"http://www.w3.org/Addressing/");
/// assert_eq!(m[0].context(), Context::Quoted);
/// assert_eq!(m[1].uri(), b"ftp://ds.internic.net/rfc/");
/// assert_eq!(m[1].context(), Context::Angle);
/// ```
#[derive(Clone, Debug)]
pub struct Finder {
    opts: FinderBuilder,
    abbrev: Option<AhoCorasick>,
}

impl Default for Finder {
    fn default() -> Self {
        Finder::new()
    }
}

impl Finder {
    /// A finder with default options.
    pub fn new() -> Finder {
        FinderBuilder::new().build()
    }

    /// A builder for options.
    pub fn builder() -> FinderBuilder {
        FinderBuilder::new()
    }

    fn engine(&self) -> Engine<'_> {
        Engine::new(&self.opts, self.abbrev.as_ref())
    }

    /// The URIs in `hay`, in order.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let n = f.find_iter(b"(see http://a.example/x_(y)).").count();
    /// assert_eq!(n, 1);
    /// ```
    pub fn find_iter<'f, 'h>(&'f self, hay: &'h [u8]) -> FindIter<'f, 'h> {
        FindIter { items: self.items(hay) }
    }

    /// Matches and (when asked with [`FinderBuilder::rejected`]) rejected
    /// candidates in `hay`, in order.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::scan::Item;
    ///
    /// let f = urifind::Finder::builder().rejected(true).build();
    /// let items: Vec<_> = f.items(b"http://256.1.1.1/ http://a.example/").collect();
    /// assert!(matches!(&items[0], Item::Rejected(r) if r.reason().contains("256")));
    /// assert!(matches!(&items[1], Item::Match(m) if m.uri() == b"http://a.example/"));
    /// ```
    pub fn items<'f, 'h>(&'f self, hay: &'h [u8]) -> Items<'f, 'h> {
        Items { hay, eng: self.engine(), done: false }
    }

    /// Scans a reader in bounded memory: the same items, at the same
    /// absolute offsets, as [`Finder::items`] on the whole input.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::scan::Item;
    ///
    /// let f = urifind::Finder::new();
    /// let input = &b"line one\n<http://a.example/\n  b/c> done\n"[..];
    /// let uris: Vec<Vec<u8>> = f
    ///     .stream(input)
    ///     .map(|it| match it.unwrap() {
    ///         Item::Match(m) => m.uri().to_vec(),
    ///         Item::Rejected(_) => unreachable!(),
    ///     })
    ///     .collect();
    /// assert_eq!(uris, [b"http://a.example/b/c".to_vec()]);
    /// ```
    pub fn stream<R: io::Read>(&self, rdr: R) -> Stream<'_, R> {
        Stream {
            eng: self.engine(),
            rdr,
            buf: Vec::new(),
            base: 0,
            eof: false,
            done: false,
            lines: None,
        }
    }
}

/// The window the engine may see around the trigger at `t`.
fn window<'b>(
    buf: &'b [u8],
    base: usize,
    t: usize,
    eng: &Engine<'_>,
) -> View<'b> {
    let lo = t.saturating_sub(eng.limits.behind).max(base);
    let hi = (t + eng.limits.ahead).min(base + buf.len());
    View {
        v: &buf[lo - base..hi - base],
        base: lo,
        lo: eng.resume.max(lo) - lo,
    }
}

/// Turns an engine match into a public one, the URI borrowed from or
/// copied out of `buf` (which starts at absolute `base`).
fn materialize<'b>(f: Found, buf: &'b [u8], base: usize) -> Match<'b> {
    let uri = match f.owned {
        Some(o) => Cow::Owned(o),
        None => {
            Cow::Borrowed(&buf[f.uri_span.start - base..f.uri_span.end - base])
        }
    };
    Match {
        span: f.span,
        uri_span: f.uri_span,
        uri,
        context: f.context,
        without_hyphen: f.alt,
        position: None,
    }
}

/// Iterator over the matches in a slice; see [`Finder::find_iter`].
pub struct FindIter<'f, 'h> {
    items: Items<'f, 'h>,
}

impl<'f, 'h> Iterator for FindIter<'f, 'h> {
    type Item = Match<'h>;
    fn next(&mut self) -> Option<Match<'h>> {
        loop {
            match self.items.next()? {
                Item::Match(m) => return Some(m),
                Item::Rejected(_) => continue,
            }
        }
    }
}

/// Iterator over the items in a slice; see [`Finder::items`].
pub struct Items<'f, 'h> {
    hay: &'h [u8],
    eng: Engine<'f>,
    done: bool,
}

impl<'f, 'h> Iterator for Items<'f, 'h> {
    type Item = Item<'h>;
    fn next(&mut self) -> Option<Item<'h>> {
        loop {
            if let Some(o) = self.eng.queue.pop_front() {
                return Some(match o {
                    Out::Match(f) => Item::Match(materialize(f, self.hay, 0)),
                    Out::Rejected(r) => Item::Rejected(r),
                });
            }
            if self.done {
                return None;
            }
            match self.eng.next_trigger(self.hay, 0, true) {
                None => self.done = true,
                Some((t, abbrev)) => {
                    let vw = window(self.hay, 0, t, &self.eng);
                    self.eng.trigger(vw, t, abbrev);
                }
            }
        }
    }
}

/// How many bytes a stream asks its reader for at once.
const READ_SIZE: usize = 256 * 1024;

/// Line counting for streams: the line of absolute offset `at` and the
/// start of that line.
#[derive(Clone, Copy, Debug)]
struct Lines {
    at: usize,
    line: u64,
    line_start: usize,
}

/// Iterator over the items in a stream; see [`Finder::stream`].
///
/// Memory is bounded by the bracket bound and the longest URI (the
/// window the engine may see around a trigger) plus one read buffer.
pub struct Stream<'f, R> {
    eng: Engine<'f>,
    rdr: R,
    buf: Vec<u8>,
    base: usize,
    eof: bool,
    done: bool,
    lines: Option<Lines>,
}

impl<'f, R: io::Read> Stream<'f, R> {
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
        self.lines = yes.then_some(Lines { at: 0, line: 1, line_start: 0 });
        self
    }

    /// Advances the line count to absolute offset `to` (within `buf`).
    fn count_to(&mut self, to: usize) -> Option<Position> {
        let l = self.lines.as_mut()?;
        if to >= l.at {
            let seg = &self.buf[l.at - self.base..to - self.base];
            let n = memchr::memchr_iter(b'\n', seg).count() as u64;
            if n > 0 {
                l.line += n;
                l.line_start = l.at + memchr::memrchr(b'\n', seg).unwrap() + 1;
            }
            l.at = to;
            Some(Position {
                line: l.line,
                column: (to - l.line_start) as u64 + 1,
            })
        } else {
            // An item that starts before the previous one (a rejected
            // bracket, then a match inside it): count back.
            let seg = &self.buf[to - self.base..l.at - self.base];
            let n = memchr::memchr_iter(b'\n', seg).count() as u64;
            let line = l.line - n;
            let ls = match memchr::memrchr(b'\n', &self.buf[..to - self.base])
            {
                Some(i) => self.base + i + 1,
                None => l.line_start.min(to),
            };
            Some(Position { line, column: (to - ls) as u64 + 1 })
        }
    }

    /// Drops what the engine can no longer need and reads more.
    fn refill(&mut self) -> io::Result<()> {
        let keep =
            self.eng.pos.saturating_sub(self.eng.limits.behind).max(self.base);
        if keep > self.base && (keep - self.base) * 2 >= self.buf.len() {
            if self.lines.is_some() {
                self.count_to(keep);
            }
            self.buf.drain(..keep - self.base);
            self.base = keep;
        }
        let len = self.buf.len();
        self.buf.resize(len + READ_SIZE, 0);
        loop {
            match self.rdr.read(&mut self.buf[len..]) {
                Ok(n) => {
                    self.buf.truncate(len + n);
                    if n == 0 {
                        self.eof = true;
                    }
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.buf.truncate(len);
                    return Err(e);
                }
            }
        }
    }

    fn out(&mut self, o: Out) -> Item<'static> {
        match o {
            Out::Match(f) => {
                let start = f.span.start;
                let mut m = materialize(f, &self.buf, self.base).into_owned();
                m.position = self.count_to(start);
                Item::Match(m)
            }
            Out::Rejected(mut r) => {
                r.position = self.count_to(r.span.start);
                Item::Rejected(r)
            }
        }
    }
}

impl<'f, R: io::Read> Iterator for Stream<'f, R> {
    type Item = io::Result<Item<'static>>;
    fn next(&mut self) -> Option<io::Result<Item<'static>>> {
        loop {
            if let Some(o) = self.eng.queue.pop_front() {
                return Some(Ok(self.out(o)));
            }
            if self.done {
                return None;
            }
            let end = self.base + self.buf.len();
            match self.eng.next_trigger(&self.buf, self.base, self.eof) {
                Some((t, abbrev)) => {
                    if self.eof || t + self.eng.limits.ahead <= end {
                        let vw = window(&self.buf, self.base, t, &self.eng);
                        self.eng.trigger(vw, t, abbrev);
                        continue;
                    }
                    // Try with what is here; keep the result only if no
                    // decision needed bytes that have not arrived.
                    let saved = self.eng.checkpoint();
                    self.eng.hit_end = false;
                    let vw = window(&self.buf, self.base, t, &self.eng);
                    self.eng.trigger(vw, t, abbrev);
                    if !self.eng.hit_end {
                        continue;
                    }
                    self.eng.restore(saved);
                    self.eng.pos = t;
                }
                None if self.eof => {
                    self.done = true;
                    continue;
                }
                None => {}
            }
            if let Err(e) = self.refill() {
                self.done = true;
                return Some(Err(e));
            }
        }
    }
}
