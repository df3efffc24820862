//! The public items a scan yields ([`Item`]: a [`Match`] or a
//! [`Rejected`] candidate, with its [`Context`] and [`Position`]) and how
//! a match's URI is built from the input: as it stands, rejoined across
//! line breaks ([`rejoin`]), or with a scheme put in front of an
//! abbreviation ([`prefix`]).

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

use crate::scan::refusal::RejectReason;
use crate::scan::text;
#[cfg(doc)]
use crate::scan::{Finder, FinderBuilder, Items, Stream};

/// How a URI was delimited in the text.
///
/// More contexts will come (mail headers): match with a `_` arm.
///
/// # Example
///
/// ```
/// use urifind::{Context, Finder};
///
/// let f = Finder::new();
/// let text = b"<http://a.example/> \"http://b.example/\" http://c.example/";
/// let got: Vec<Context> = f.find_iter(text).map(|m| m.context()).collect();
/// assert_eq!(got, [Context::Angle, Context::Quoted, Context::Bare]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
    /// [`FinderBuilder::abbreviated`]), reported with a scheme prepended.
    Abbreviated,
    /// Inside a pair of CJK or typographic brackets or quotes (`「...」`,
    /// `“...”`, `«...»`, ...; only with [`FinderBuilder::iri`]).
    Paired,
}

impl Context {
    /// A short lower-case name: `angle`, `url-prefixed`, `quoted`, `bare`,
    /// `abbreviated`, `paired`.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(urifind::Context::UrlPrefixed.name(), "url-prefixed");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Context::Angle => "angle",
            Context::UrlPrefixed => "url-prefixed",
            Context::Quoted => "quoted",
            Context::Bare => "bare",
            Context::Abbreviated => "abbreviated",
            Context::Paired => "paired",
        }
    }
}

/// A line and column, both 1-based; the column counts bytes.
///
/// # Example
///
/// ```
/// let f = urifind::Finder::new();
/// let mut items = f.items(b"one\ntwo <http://a.example/>").count_lines(true);
/// let Some(urifind::scan::Item::Match(m)) = items.next() else { panic!() };
/// let p = m.position().unwrap();
/// assert_eq!((p.line, p.column), (2, 5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The line number.
    pub line: u64,
    /// The byte column.
    pub column: u64,
}

/// A URI found in text.
///
/// # Example
///
/// ```
/// let f = urifind::Finder::new();
/// let text = b"see <http://a.example/long-\n  path> now";
/// let m = f.find_iter(text).next().unwrap();
/// assert_eq!(m.uri(), b"http://a.example/long-path");
/// assert_eq!(m.span(), 4..35);
/// assert_eq!(m.without_hyphen(), Some(&b"http://a.example/longpath"[..]));
/// ```
#[derive(Clone)]
pub struct Match<'h> {
    pub(crate) span: Range<usize>,
    pub(crate) uri_span: Range<usize>,
    /// The input over `uri_span` (empty once the match owns its URI).
    pub(crate) region: &'h [u8],
    pub(crate) shape: Shape,
    /// The URI when it is not `region` as it stands: built from `region`
    /// the first time it is asked for (or given, once owned).
    pub(crate) built: OnceLock<Box<[u8]>>,
    pub(crate) context: Context,
    pub(crate) without_hyphen: Option<Box<[u8]>>,
    pub(crate) position: Option<Position>,
}

/// How a match's URI is made from the input under its `uri_span`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// The bytes as they stand.
    Plain,
    /// Rejoined across line breaks: the bytes with the whitespace and
    /// quote prefixes between its pieces removed
    /// ([`rejoin`]).
    Joined,
    /// An abbreviated URI: a scheme put in front of the bytes
    /// ([`prefix`]).
    Abbreviated,
    /// Held in `built` (the match borrows nothing).
    Owned,
}

impl Match<'_> {
    /// A match that owns its URI (made outside the scanner: mail mode
    /// reports offsets into the raw message).
    pub(crate) fn owned(
        span: Range<usize>,
        uri_span: Range<usize>,
        uri: Vec<u8>,
        context: Context,
        without_hyphen: Option<Vec<u8>>,
        position: Option<Position>,
    ) -> Match<'static> {
        Match {
            span,
            uri_span,
            region: &[],
            shape: Shape::Owned,
            built: OnceLock::from(uri.into_boxed_slice()),
            context,
            without_hyphen: without_hyphen.map(Vec::into_boxed_slice),
            position,
        }
    }
}

impl PartialEq for Match<'_> {
    fn eq(&self, o: &Match<'_>) -> bool {
        self.span == o.span
            && self.uri_span == o.uri_span
            && self.uri() == o.uri()
            && self.context == o.context
            && self.without_hyphen == o.without_hyphen
            && self.position == o.position
    }
}

impl Eq for Match<'_> {}

impl std::fmt::Debug for Match<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Match")
            .field("span", &self.span)
            .field("uri_span", &self.uri_span)
            .field("uri", &self.uri())
            .field("context", &self.context)
            .field("without_hyphen", &self.without_hyphen)
            .field("position", &self.position)
            .finish()
    }
}

impl<'h> Match<'h> {
    /// The byte range of the whole match in the input, delimiters
    /// included.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let m = f.find_iter(b"a <URL:http://a.example/> b").next().unwrap();
    /// assert_eq!(m.span(), 2..25);
    /// ```
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }
    /// The byte range from the URI's first byte to its last in the input
    /// (it may contain removed whitespace and quote prefixes).
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let m = f.find_iter(b"a <URL:http://a.example/> b").next().unwrap();
    /// assert_eq!(m.uri_span(), 7..24);
    /// ```
    pub fn uri_span(&self) -> Range<usize> {
        self.uri_span.clone()
    }
    /// The URI as reported: delimiters and embedded whitespace removed.
    ///
    /// A URI rejoined across line breaks, or abbreviated, is put together
    /// the first time it is asked for: until then a match borrows the
    /// input and owns nothing.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let m = f.find_iter(b"<http://a.example/\n  x>").next().unwrap();
    /// assert_eq!(m.uri(), b"http://a.example/x");
    /// ```
    pub fn uri(&self) -> &[u8] {
        match self.shape {
            Shape::Plain => self.region,
            _ => self.built.get_or_init(|| self.build()),
        }
    }

    /// Appends the URI to `out`: the bytes of [`Match::uri`], without
    /// building a rejoined or abbreviated URI in memory of its own first.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let m = f.find_iter(b"<http://a.example/\n  b>").next().unwrap();
    /// let mut out = b"URI: ".to_vec();
    /// m.write_uri(&mut out);
    /// assert_eq!(out, b"URI: http://a.example/b");
    /// ```
    pub fn write_uri(&self, out: &mut Vec<u8>) {
        if let Some(b) = self.built.get() {
            out.extend_from_slice(b);
            return;
        }
        match self.shape {
            Shape::Plain => out.extend_from_slice(self.region),
            Shape::Joined => rejoin_into(self.region, out),
            _ => out.extend_from_slice(self.uri()),
        }
    }

    /// The URI of a match that is not its input as it stands.
    fn build(&self) -> Box<[u8]> {
        match self.shape {
            Shape::Plain | Shape::Owned => self.region.into(),
            Shape::Joined => rejoin(self.region).into(),
            Shape::Abbreviated => {
                [prefix(self.region), self.region].concat().into()
            }
        }
    }
    /// How the URI was delimited.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let m = f.find_iter(b"<URL:http://a.example/>").next().unwrap();
    /// assert_eq!(m.context(), urifind::Context::UrlPrefixed);
    /// ```
    pub fn context(&self) -> Context {
        self.context
    }
    /// When the hyphen rule applied, the form without the hyphen.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let m = f.find_iter(b"http://a.example/x-\ny").next().unwrap();
    /// assert_eq!(m.uri(), b"http://a.example/x-y");
    /// assert_eq!(m.without_hyphen(), Some(&b"http://a.example/xy"[..]));
    /// ```
    pub fn without_hyphen(&self) -> Option<&[u8]> {
        self.without_hyphen.as_deref()
    }
    /// The line and column of the span's start, when the stream was asked
    /// to count lines ([`Stream::count_lines`], [`Items::count_lines`]).
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// assert_eq!(f.find_iter(b"http://a.example/").next().unwrap().position(), None);
    /// ```
    pub fn position(&self) -> Option<Position> {
        self.position
    }
    /// Whether the match is an IRI that is not also a URI: it holds
    /// non-ASCII characters (only with [`FinderBuilder::iri`]).
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::builder().iri(true).build().unwrap();
    /// let m = f.find_iter("<http://a.example/é>".as_bytes()).next().unwrap();
    /// assert!(m.is_iri());
    /// let m = f.find_iter(b"<http://a.example/e>").next().unwrap();
    /// assert!(!m.is_iri());
    /// ```
    pub fn is_iri(&self) -> bool {
        !self.uri().is_ascii()
    }
    /// The URI form of the match: for an IRI ([`Match::is_iri`]) its
    /// mapping to a URI (RFC 3987 section 3.1, see
    /// [`crate::iri::Iri::to_uri`]), otherwise [`Match::uri`] itself.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::builder().iri(true).build().unwrap();
    /// let m = f.find_iter("http://www.bücher.example/".as_bytes()).next().unwrap();
    /// assert_eq!(m.to_uri(), &b"http://www.xn--bcher-kva.example/"[..]);
    /// ```
    pub fn to_uri(&self) -> Cow<'_, [u8]> {
        if !self.is_iri() {
            return Cow::Borrowed(self.uri());
        }
        match crate::iri::Iri::from_bytes(self.uri()) {
            Ok(iri) => match iri.to_uri() {
                Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
                Cow::Owned(s) => Cow::Owned(s.into_bytes()),
            },
            // (Every IRI the finder reports is valid.)
            Err(_) => Cow::Borrowed(self.uri()),
        }
    }
    /// Where the link leads (see [`crate::link`]): the target of a
    /// wrapper, embedded links, flags. Made when asked, by the default
    /// analyzer on [`Match::to_uri`]; [`Finder::link_analyzer`] gives one
    /// that matches the finder's options.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let text = b"<https://urldefense.proofpoint.com/v2/url?u=https-3A__a.example_x&d=D>";
    /// let m = f.find_iter(text).next().unwrap();
    /// assert_eq!(m.link().target.as_deref(), Some("https://a.example/x"));
    /// ```
    pub fn link(&self) -> crate::link::Link {
        crate::link::analyze(&self.to_uri())
    }
    /// A copy that borrows nothing.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let m: urifind::Match<'static> = {
    ///     let text = b"http://a.example/".to_vec();
    ///     f.find_iter(&text).next().unwrap().into_owned()
    /// };
    /// assert_eq!(m.uri(), b"http://a.example/");
    /// ```
    pub fn into_owned(self) -> Match<'static> {
        let uri = match self.built.get() {
            Some(_) => self.built.into_inner().unwrap_or_default(),
            None => self.build(),
        };
        Match {
            span: self.span,
            uri_span: self.uri_span,
            region: &[],
            shape: Shape::Owned,
            built: OnceLock::from(uri),
            context: self.context,
            without_hyphen: self.without_hyphen,
            position: self.position,
        }
    }
}

/// A candidate that looked like a URI but failed validation.
///
/// # Example
///
/// ```
/// use urifind::scan::Item;
///
/// let f = urifind::Finder::builder().rejected(true).build().unwrap();
/// let Some(Item::Rejected(r)) = f.items(b"at <http://a.example/%zz>").next() else {
///     panic!()
/// };
/// assert_eq!(r.candidate(), b"http://a.example/%zz");
/// assert_eq!(r.offset(), 17);
/// assert_eq!(r.span(), 3..25);
/// assert_eq!(r.context(), urifind::Context::Angle);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    pub(crate) span: Range<usize>,
    pub(crate) candidate: Vec<u8>,
    pub(crate) offset: usize,
    pub(crate) reason: Box<RejectReason>,
    pub(crate) context: Context,
    pub(crate) position: Option<Position>,
}

impl Rejected {
    /// The byte range of the candidate in the input.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::builder().rejected(true).build().unwrap();
    /// let Some(urifind::scan::Item::Rejected(r)) = f.items(b"x http://").next() else {
    ///     panic!()
    /// };
    /// assert_eq!(r.span(), 2..9);
    /// ```
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }
    /// The candidate text (delimiters and embedded whitespace removed).
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::builder().rejected(true).build().unwrap();
    /// let text = b"<http://a.example/\n  %zz>";
    /// let Some(urifind::scan::Item::Rejected(r)) = f.items(text).next() else {
    ///     panic!()
    /// };
    /// assert_eq!(r.candidate(), b"http://a.example/%zz");
    /// ```
    pub fn candidate(&self) -> &[u8] {
        &self.candidate
    }
    /// The 0-based offset of the fault within [`Rejected::candidate`].
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::builder().rejected(true).build().unwrap();
    /// let Some(urifind::scan::Item::Rejected(r)) = f.items(b"http://256.0.0.1/").next() else {
    ///     panic!()
    /// };
    /// assert_eq!(r.offset(), 7);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }
    /// Why it was rejected.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::scan::{Item, RejectReason};
    ///
    /// let f = urifind::Finder::builder().rejected(true).build().unwrap();
    /// let Some(Item::Rejected(r)) = f.items(b"http://256.0.0.1/").next() else {
    ///     panic!()
    /// };
    /// assert!(matches!(r.reason(), RejectReason::Invalid(_)));
    /// assert_eq!(
    ///     r.reason().to_string(),
    ///     "octet 256 is out of range in IPv4 address"
    /// );
    /// ```
    pub fn reason(&self) -> &RejectReason {
        &self.reason
    }
    /// How the candidate was delimited.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::builder().rejected(true).build().unwrap();
    /// let Some(urifind::scan::Item::Rejected(r)) = f.items(b"http://").next() else {
    ///     panic!()
    /// };
    /// assert_eq!(r.context(), urifind::Context::Bare);
    /// ```
    pub fn context(&self) -> Context {
        self.context
    }
    /// Line and column of the span's start, when lines are counted.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::builder().rejected(true).build().unwrap();
    /// let mut items = f.items(b"\n  http://").count_lines(true);
    /// let Some(urifind::scan::Item::Rejected(r)) = items.next() else {
    ///     panic!()
    /// };
    /// let p = r.position().unwrap();
    /// assert_eq!((p.line, p.column), (2, 3));
    /// ```
    pub fn position(&self) -> Option<Position> {
        self.position
    }
}

/// What the scanner reports: a match, or (when asked) a rejected
/// candidate. More kinds may come: match with a `_` arm.
///
/// # Example
///
/// ```
/// use urifind::scan::Item;
///
/// let f = urifind::Finder::builder().rejected(true).build().unwrap();
/// for item in f.items(b"http://a.example/ http://") {
///     match item {
///         Item::Match(m) => assert_eq!(m.uri(), b"http://a.example/"),
///         Item::Rejected(r) => assert_eq!(r.candidate(), b"http://"),
///         _ => unreachable!(),
///     }
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Item<'h> {
    /// A URI.
    Match(Match<'h>),
    /// A rejected candidate (only with [`FinderBuilder::rejected`]).
    Rejected(Rejected),
}

impl Item<'_> {
    /// A copy of this item that borrows nothing from the input.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::{scan::Item, Finder};
    ///
    /// let f = Finder::builder().rejected(true).build().unwrap();
    /// let owned: Vec<Item<'static>> = {
    ///     let text = b"<http://a.example/x> and http://256.1.1.1/".to_vec();
    ///     f.items(&text).map(Item::into_owned).collect()
    /// };
    /// assert!(matches!(owned[0], Item::Match(_)));
    /// assert!(matches!(owned[1], Item::Rejected(_)));
    /// ```
    pub fn into_owned(self) -> Item<'static> {
        match self {
            Item::Match(m) => Item::Match(m.into_owned()),
            Item::Rejected(r) => Item::Rejected(r),
        }
    }
}

/// Whether a byte between two pieces of a rejoined URI is removed: what
/// `continuation::gap` steps over (blanks, line breaks, quote prefixes and
/// indentation) is whitespace and `>`, and no piece holds either.
#[inline]
pub(crate) fn removed(b: u8) -> bool {
    text::is_ws(b) || b == b'>'
}

/// The URI rejoined from the input between its first byte and its last
/// (`region`): the bytes that are not [`removed`].
pub(crate) fn rejoin(region: &[u8]) -> Vec<u8> {
    // Sized exactly (it becomes a boxed slice).
    let n = region.iter().filter(|&&b| !removed(b)).count();
    let mut out = Vec::with_capacity(n);
    rejoin_into(region, &mut out);
    out
}

/// [`rejoin`], appended to `out`, a piece at a time.
pub(crate) fn rejoin_into(region: &[u8], out: &mut Vec<u8>) {
    let mut rest = region;
    while !rest.is_empty() {
        let k = rest.iter().position(|&b| removed(b)).unwrap_or(rest.len());
        out.extend_from_slice(&rest[..k]);
        let gap = rest[k..].iter().take_while(|&&b| removed(b)).count();
        rest = &rest[k + gap..];
    }
}

/// The scheme and `//` put in front of the abbreviated URI `uri` (which
/// starts with `www.` or `ftp.`).
#[inline]
pub(crate) fn prefix(uri: &[u8]) -> &'static [u8] {
    if uri.len() >= 3 && uri[..3].eq_ignore_ascii_case(b"ftp") {
        b"ftp://"
    } else {
        b"http://"
    }
}
