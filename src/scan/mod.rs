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

use aho_corasick::AhoCorasick;

use crate::grammar::Grammar;

mod abbrev;
mod bare;
mod candidate;
mod continuation;
mod delimited;
mod engine;
mod lines;
mod slice;
mod stream;
mod text;
mod trigger;

use engine::Engine;
pub use slice::{FindIter, Items};
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
        let abbrev = self.abbrev.then(abbrev::searcher);
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
        FindIter::new(self.items(hay))
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
        Items::new(self.engine(), hay)
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

#[cfg(test)]
mod tests;
