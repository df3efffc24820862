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
#[allow(dead_code)]
mod iri;
mod stream;
mod text;

use engine::{Engine, Found, Out, View};
pub use stream::{Feeder, Stream};

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
    /// to count lines ([`Stream::count_lines`], [`Items::count_lines`]).
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
    /// Line and column of the span's start, when lines are counted.
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
    /// Turn colons away before the engine looks at them (the per-colon
    /// pre-check and the bulk filter). Off only in tests, which check that
    /// the filters change no item.
    prefilter: bool,
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
            prefilter: true,
        }
    }
}

impl FinderBuilder {
    /// Default options.
    pub fn new() -> FinderBuilder {
        FinderBuilder::default()
    }
    /// Whether colons are turned away before the engine looks at them (on
    /// by default). Not part of the API: the filters only save work, and
    /// the property tests and fuzz targets turn them off to check that
    /// they change no item.
    #[doc(hidden)]
    pub fn prefilter(&mut self, yes: bool) -> &mut FinderBuilder {
        self.prefilter = yes;
        self
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
        Items { hay, eng: self.engine(), done: false, lines: None }
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
        Stream::new(self.engine(), rdr)
    }

    /// Like [`Finder::stream`], but a second thread reads ahead while
    /// this one scans, into blocks the scanner then uses in place: for
    /// large inputs on a machine with a core to spare, reading costs
    /// (almost) no time. Same items, same offsets.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let data = b"see <http://a.example/\n  x> and http://b.example/.".to_vec();
    /// let n = f.stream_read_ahead(std::io::Cursor::new(data)).count();
    /// assert_eq!(n, 2);
    /// ```
    pub fn stream_read_ahead<R: io::Read + Send + 'static>(
        &self,
        rdr: R,
    ) -> Stream<'_, io::Empty> {
        Stream::read_ahead(self.engine(), rdr)
    }

    /// A scanner you feed chunk by chunk, for callers that do their own
    /// reading; it reports the same items as [`Finder::stream`].
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::scan::Item;
    ///
    /// let f = urifind::Finder::new();
    /// let mut uris = Vec::new();
    /// let mut keep = |it: Item<'static>| {
    ///     if let Item::Match(m) = it {
    ///         uris.push(m.uri().to_vec());
    ///     }
    /// };
    /// let mut feeder = f.feeder();
    /// feeder.feed(b"see <http://a.exa", &mut keep);
    /// feeder.feed(b"mple/\n  x> ok", &mut keep);
    /// feeder.finish(&mut keep);
    /// assert_eq!(uris, [b"http://a.example/x".to_vec()]);
    /// ```
    pub fn feeder(&self) -> Feeder<'_> {
        Feeder::new(self.engine())
    }
}

/// The window the engine may see around the trigger at `t`.
pub(crate) fn window<'b>(
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
pub(crate) fn materialize<'b>(
    f: Found,
    buf: &'b [u8],
    base: usize,
) -> Match<'b> {
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
    lines: Option<Lines>,
}

impl<'f, 'h> Items<'f, 'h> {
    /// Count lines so that items carry a [`Position`].
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::scan::Item;
    ///
    /// let f = urifind::Finder::new();
    /// let it = f.items(b"a\nb http://a.example/\n").count_lines(true).next();
    /// let Some(Item::Match(m)) = it else { panic!() };
    /// let p = m.position().unwrap();
    /// assert_eq!((p.line, p.column), (2, 3));
    /// ```
    pub fn count_lines(mut self, yes: bool) -> Self {
        self.lines = yes.then(Lines::new);
        self
    }
}

impl<'f, 'h> Iterator for Items<'f, 'h> {
    type Item = Item<'h>;
    fn next(&mut self) -> Option<Item<'h>> {
        loop {
            if let Some(o) = self.eng.queue.pop_front() {
                let hay = self.hay;
                let mut pos = |at: usize| {
                    self.lines.as_mut().map(|l| l.advance(hay, 0, at))
                };
                return Some(match o {
                    Out::Match(f) => {
                        let p = pos(f.span.start);
                        let mut m = materialize(f, hay, 0);
                        m.position = p;
                        Item::Match(m)
                    }
                    Out::Rejected(mut r) => {
                        r.position = pos(r.span.start);
                        Item::Rejected(r)
                    }
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

/// Line counting: the line of absolute offset `at` and the start of
/// that line. Items come almost in order, so counting moves forward over
/// the bytes between them (and back for the rare item that starts before
/// the previous one: a rejected bracket, then a match inside it).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lines {
    at: usize,
    line: u64,
    line_start: usize,
}

impl Lines {
    pub(crate) fn new() -> Lines {
        Lines { at: 0, line: 1, line_start: 0 }
    }

    /// Moves to absolute offset `to`; `buf` holds the input from
    /// absolute `base` and covers both `self.at` and `to`.
    pub(crate) fn advance(
        &mut self,
        buf: &[u8],
        base: usize,
        to: usize,
    ) -> Position {
        if to >= self.at {
            let seg = &buf[self.at - base..to - base];
            let n = memchr::memchr_iter(b'\n', seg).count() as u64;
            if let Some(i) = memchr::memrchr(b'\n', seg) {
                self.line += n;
                self.line_start = self.at + i + 1;
            }
            self.at = to;
            Position {
                line: self.line,
                column: (to - self.line_start) as u64 + 1,
            }
        } else {
            let seg = &buf[to - base..self.at - base];
            let n = memchr::memchr_iter(b'\n', seg).count() as u64;
            let ls = match memchr::memrchr(b'\n', &buf[..to - base]) {
                Some(i) => base + i + 1,
                None => self.line_start.min(to),
            };
            Position { line: self.line - n, column: (to - ls) as u64 + 1 }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out at most `n` bytes per call.
    struct Chunked<'a>(&'a [u8], usize);

    impl io::Read for Chunked<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(self.1).min(out.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    const TEXTS: &[&str] = &[
        "Yes, Jim, I found it under \"http://www.w3.org/Addressing/\",\n\
         but you can probably pick it up from <ftp://ds.internic.\n\
         net/rfc/>.  Note the warning in <http://www.ics.uci.edu/pub/\n\
         ietf/uri/historical.html#WARNING>.\n",
        "> > <http://www.example.com/long-\n> > page.html>\nhttp://\n  a.example/x \
         [https://a.example/x](https://b.example/y) URL:http://c.example/",
        "<URL:\n http://www.example.com/pub/\n file.txt> mailto:a@b.example, \
         http://a.example/x_(y)). <x-doc:chapter-4> <URL:x-doc:c-3>",
    ];

    fn slice_items(f: &Finder, t: &[u8]) -> Vec<Item<'static>> {
        f.items(t)
            .count_lines(true)
            .map(|i| match i {
                Item::Match(m) => Item::Match(m.into_owned()),
                Item::Rejected(r) => Item::Rejected(r),
            })
            .collect()
    }

    #[test]
    fn stream_equals_slice_for_every_chunk_size() {
        let f = Finder::builder().rejected(true).abbrev(true).build();
        for t in TEXTS {
            let want = slice_items(&f, t.as_bytes());
            assert!(!want.is_empty());
            for n in 1..=9 {
                let got: Vec<_> = f
                    .stream(Chunked(t.as_bytes(), n))
                    .count_lines(true)
                    .map(|i| i.unwrap())
                    .collect();
                assert_eq!(got, want, "chunk size {n}\n{t}");
            }
        }
    }

    #[test]
    fn feeder_equals_slice() {
        for t in TEXTS {
            super::tests_support::check_stream_equals_slice(t.as_bytes());
        }
    }

    #[test]
    fn read_ahead_across_many_blocks() {
        // Several MiB, with URIs (some broken over lines, some in
        // brackets) at every offset modulo the block size.
        let mut t = Vec::new();
        let mut k = 0;
        while t.len() < 3_500_000 {
            t.extend_from_slice(TEXTS[k % TEXTS.len()].as_bytes());
            t.extend(std::iter::repeat_n(b'x', k % 977));
            t.push(b'\n');
            k += 1;
        }
        let f = Finder::builder().rejected(true).build();
        let want: Vec<Item<'static>> = f
            .items(&t)
            .count_lines(true)
            .map(|i| match i {
                Item::Match(m) => Item::Match(m.into_owned()),
                Item::Rejected(r) => Item::Rejected(r),
            })
            .collect();
        assert!(want.len() > 10_000);
        for n in [usize::MAX, 70_001, 4096] {
            let got: Vec<_> = f
                .stream_read_ahead(tests_support::ChunkedOwned(
                    t.clone(),
                    0,
                    n,
                ))
                .count_lines(true)
                .map(|i| i.unwrap())
                .collect();
            assert!(got == want, "read-ahead with reads of {n} bytes differs");
        }
    }

    #[test]
    fn appendix_e_example() {
        let f = Finder::new();
        let got: Vec<_> = f
            .find_iter(TEXTS[0].as_bytes())
            .map(|m| m.uri().to_vec())
            .collect();
        assert_eq!(
            got,
            [
                &b"http://www.w3.org/Addressing/"[..],
                b"ftp://ds.internic.net/rfc/",
                b"http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING",
            ]
        );
    }

    #[test]
    fn offsets_point_at_the_text() {
        let f = Finder::new();
        let t = TEXTS[1].as_bytes();
        for m in f.find_iter(t) {
            let u = m.uri();
            assert_eq!(t[m.uri_span().start], u[0]);
            assert_eq!(t[m.uri_span().end - 1], u[u.len() - 1]);
            assert!(m.span().start <= m.uri_span().start);
            assert!(m.uri_span().end <= m.span().end);
        }
    }

    #[test]
    fn hyphen_alternative() {
        let f = Finder::new();
        let m =
            f.find_iter(b"<http://a.example/read-\n me.txt>").next().unwrap();
        assert_eq!(m.uri(), b"http://a.example/read-me.txt");
        assert_eq!(
            m.without_hyphen(),
            Some(&b"http://a.example/readme.txt"[..])
        );
    }

    #[test]
    fn stream_positions() {
        let f = Finder::new();
        let t = b"x\r\nsee <http://a.example/\n b> and\nhttp://c.example/";
        let pos: Vec<_> = f
            .stream(Chunked(t, 3))
            .count_lines(true)
            .map(|i| match i.unwrap() {
                Item::Match(m) => m.position().unwrap(),
                Item::Rejected(_) => unreachable!(),
            })
            .map(|p| (p.line, p.column))
            .collect();
        assert_eq!(pos, [(2, 5), (4, 1)]);
    }
}

/// The colon filters (`Engine::colon_ok` and the bulk filter) only save
/// work: with them off, every colon goes to the engine's full path, and
/// the items must be the same.
#[cfg(test)]
mod prefilter_tests {
    use super::*;

    fn items(f: &Finder, t: &[u8]) -> Vec<String> {
        f.items(t).map(|i| format!("{i:?}")).collect()
    }

    fn compare(t: &[u8]) {
        for rejected in [false, true] {
            let mut b = Finder::builder();
            b.rejected(rejected);
            let on = b.build();
            let off = b.prefilter(false).build();
            assert_eq!(
                items(&on, t),
                items(&off, t),
                "rejected {rejected}: {:?}",
                bstr::BStr::new(t)
            );
        }
    }

    #[test]
    fn filters_change_no_item() {
        const PIECES: &[&str] = &[
            "http://",
            "https://",
            "mailto:",
            "news:",
            "urn:x:y",
            "a:",
            ":",
            "::",
            "URL:",
            "url:",
            "<",
            ">",
            "> ",
            "> > ",
            "\"",
            " ",
            "  ",
            "\t",
            "\n",
            "\r\n",
            "\n   ",
            "-\n",
            "a.example",
            "/x",
            ".",
            ",",
            ";",
            ")",
            "(",
            "[",
            "]",
            "%41",
            "@",
            "user@",
            "ftp://",
            "www.",
            "x",
            "abc",
            "Note:",
            "10:30",
            "std::",
            "data:",
            "tel:",
            "geo:",
            "sip:",
            "l",
            "L",
            "3",
            "caf\u{e9}",
            "\u{201c}",
        ];
        let mut next = tests_support::splitmix(0x5eed);
        for round in 0..3000 {
            let mut t = String::new();
            // Long texts too, so that the bulk filter's blocks fill up.
            let n = if round % 10 == 0 { 400 } else { 60 };
            for _ in 0..n {
                t.push_str(PIECES[(next() >> 16) as usize % PIECES.len()]);
            }
            compare(t.as_bytes());
        }
        // Every labelled case, ours and the shared ones.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut cases = 0;
        for dir in ["corpora/cases", "../shared/cases"] {
            let Ok(rd) = std::fs::read_dir(root.join(dir)) else { continue };
            for e in rd {
                let p = e.unwrap().path();
                if p.extension().is_some_and(|x| x == "txt") {
                    compare(&std::fs::read(&p).unwrap());
                    cases += 1;
                }
            }
        }
        assert!(cases > 300, "only {cases} case files");
    }
}

#[cfg(test)]
mod abbrev_tests {
    use super::*;

    #[test]
    fn abbreviated_uris() {
        let f = Finder::builder().abbrev(true).build();
        let t = b"See www.w3.org/Addressing/, ftp.example.org/pub and \
                  http://www.example.com/ or me@www.example.net. WWW.X.ORG:";
        let got: Vec<(Vec<u8>, Context)> =
            f.find_iter(t).map(|m| (m.uri().to_vec(), m.context())).collect();
        let want: Vec<(Vec<u8>, Context)> = vec![
            (b"http://www.w3.org/Addressing/".to_vec(), Context::Abbreviated),
            (b"ftp://ftp.example.org/pub".to_vec(), Context::Abbreviated),
            (b"http://www.example.com/".to_vec(), Context::Bare),
            (b"http://WWW.X.ORG".to_vec(), Context::Abbreviated),
        ];
        assert_eq!(got, want);
        assert_eq!(Finder::new().find_iter(b"www.w3.org/x").count(), 0);
    }
}

#[cfg(test)]
mod regressions {
    use super::tests_support::*;

    #[test]
    fn abbrev_after_url_prefix() {
        for t in [
            &b"a <URL:<www.#http://a.example"[..],
            b"http://news:.<URL:<www.[http://",
        ] {
            check_stream_equals_slice(t);
        }
    }
}

#[cfg(test)]
mod tests_support {
    use super::*;

    /// splitmix64 from `seed`: deterministic pseudo-random numbers for
    /// tests that generate their inputs.
    pub fn splitmix(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
    }

    /// A reader that hands out at most `n` bytes per call.
    pub struct Chunked<'a>(pub &'a [u8], pub usize);

    impl io::Read for Chunked<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(self.1).min(out.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// An owned reader that hands out at most `n` bytes per call.
    pub struct ChunkedOwned(pub Vec<u8>, pub usize, pub usize);

    impl io::Read for ChunkedOwned {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let rest = &self.0[self.1..];
            let n = rest.len().min(self.2).min(out.len());
            out[..n].copy_from_slice(&rest[..n]);
            self.1 += n;
            Ok(n)
        }
    }

    pub fn check_stream_equals_slice(t: &[u8]) {
        let f = Finder::builder().rejected(true).abbrev(true).build();
        let want: Vec<Item<'static>> = f
            .items(t)
            .count_lines(true)
            .map(|i| match i {
                Item::Match(m) => Item::Match(m.into_owned()),
                Item::Rejected(r) => Item::Rejected(r),
            })
            .collect();
        for n in 1..=9 {
            let got: Vec<_> = f
                .stream(Chunked(t, n))
                .count_lines(true)
                .map(|i| i.unwrap())
                .collect();
            assert_eq!(got, want, "chunk size {n}: {:?}", bstr::BStr::new(t));
            let mut fed = Vec::new();
            let mut feeder = f.feeder().count_lines(true);
            for chunk in t.chunks(n) {
                feeder.feed(chunk, &mut |it| fed.push(it));
            }
            feeder.finish(&mut |it| fed.push(it));
            assert_eq!(fed, want, "feeder, chunk size {n}");
            let ahead: Vec<_> = f
                .stream_read_ahead(ChunkedOwned(t.to_vec(), 0, n))
                .count_lines(true)
                .map(|i| i.unwrap())
                .collect();
            assert_eq!(ahead, want, "read-ahead, chunk size {n}");
        }
    }
}
