//! The Appendix E scanner: finds URIs in prose, over byte slices and
//! streams.
//!
//! SKELETON: public API fixed; the implementation is in progress.

use std::borrow::Cow;
use std::io;
use std::ops::Range;

use crate::grammar::Grammar;

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
        Finder { opts: self.clone() }
    }
}

/// Finds URIs in text; build once, use many times.
#[derive(Clone, Debug)]
pub struct Finder {
    opts: FinderBuilder,
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
    /// The URIs in `hay`, in order.
    pub fn find_iter<'f, 'h>(&'f self, hay: &'h [u8]) -> FindIter<'f, 'h> {
        FindIter { items: self.items(hay) }
    }
    /// Matches and (when asked) rejected candidates in `hay`, in order.
    pub fn items<'f, 'h>(&'f self, hay: &'h [u8]) -> Items<'f, 'h> {
        let _ = (&self.opts, hay);
        unimplemented!("scanner in progress")
    }
    /// Streams over a reader with bounded memory; same items and absolute
    /// offsets as [`Finder::items`] on the whole input.
    pub fn stream<R: io::Read>(&self, rdr: R) -> Stream<'_, R> {
        let _ = rdr;
        unimplemented!("scanner in progress")
    }
}

/// Iterator over matches in a slice.
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

/// Iterator over items in a slice.
pub struct Items<'f, 'h> {
    _finder: &'f Finder,
    _hay: &'h [u8],
}

impl<'f, 'h> Iterator for Items<'f, 'h> {
    type Item = Item<'h>;
    fn next(&mut self) -> Option<Item<'h>> {
        unimplemented!("scanner in progress")
    }
}

/// Iterator over items in a stream.
pub struct Stream<'f, R> {
    _finder: &'f Finder,
    _rdr: R,
    _count_lines: bool,
}

impl<'f, R: io::Read> Stream<'f, R> {
    /// Count lines so that items carry a [`Position`].
    pub fn count_lines(mut self, yes: bool) -> Self {
        self._count_lines = yes;
        self
    }
}

impl<'f, R: io::Read> Iterator for Stream<'f, R> {
    type Item = io::Result<Item<'static>>;
    fn next(&mut self) -> Option<io::Result<Item<'static>>> {
        unimplemented!("scanner in progress")
    }
}
