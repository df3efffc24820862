//! The strict validator: is a byte string a URI reference under a grammar,
//! and if not, where and why not.
//!
//! Three grammars, each its collected BNF read literally:
//!
//! * [`Grammar::Rfc2396bis`]: Appendix A of draft-fielding-uri-rfc2396bis-00,
//!   slips included (`dec-octet`'s `"1" 2*DIGIT` takes `1000`, an IPv6
//!   literal may end in `:` after `::`, a one-label `hostname` may not end
//!   in a dot, at most five groups before `::`);
//! * [`Grammar::Rfc2396`]: RFC 2396 Appendix A (no brackets, `hier_part`
//!   not empty, no bare `?query` reference);
//! * [`Grammar::Rfc3986`]: RFC 3986 Appendix A.
//!
//! The module is laid out in layers, each using only those below it:
//! `chars` (byte classes, one table), `lex` (runs of a class, escapes,
//! character faults), `alphabet` (what a class admits: ASCII for URIs,
//! `ucschar` too for IRIs), `authority` (server, `reg-name`, host names, IPv4,
//! IPv6), `parse` (scheme, path, query, fragment; it calls `authority`),
//! `rules` (the scheme rules of docs/CONTRACT.md section 2) and
//! [`schemes`] (scheme tables and the scheme families). Beside them,
//! `fast` takes the common shape (`http://host/path`) in one pass and
//! hands everything else to the full parse.
//!
//! Validation reads the input left to right, eight bytes at a time where
//! it can, with no allocation and no backtracking beyond short re-reads
//! of an authority (server after `reg-name`, the scheme rules' host
//! check). An [`Error`] holds an
//! [`ErrorKind`] and formats its message only when asked.
//!
//! # Offsets
//!
//! An error's offset is the first byte at which no parse can continue,
//! with two refinements that make it useful: a bad escape points at its
//! `%`, and within an authority (whose extent is fixed first, as in
//! Appendix B) a fault points at the offending byte of the userinfo, host
//! or port. When the part is [`Part::Path`], [`Part::Query`] or
//! [`Part::Fragment`], the bytes before the offset are a valid URI
//! reference whenever the input's scheme and authority are (the scanner
//! relies on this to cut a bare URI at its first bad byte), with one
//! exception: under RFC 2396 `scheme:` alone is not valid.

use std::fmt;
use std::sync::OnceLock;

use crate::uri::Components;
use alphabet::Ascii;

mod alphabet;
mod authority;
mod chars;
mod fast;
mod iri;
mod lex;
mod parse;
mod rules;
pub mod schemes;

pub(crate) use alphabet::not_utf8 as iri_not_utf8;
pub use alphabet::{is_iprivate, is_ucschar};
pub(crate) use fast::plain_run;
pub use iri::IriValidator;

/// The grammar a string is checked against.
///
/// # Example
///
/// ```
/// use urifind::Grammar;
///
/// let g: Grammar = "rfc3986".parse().unwrap();
/// assert_eq!(g, Grammar::Rfc3986);
/// assert_eq!(Grammar::default(), Grammar::Rfc2396bis);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Grammar {
    /// Appendix A of draft-fielding-uri-rfc2396bis-00, read literally.
    #[default]
    Rfc2396bis,
    /// RFC 2396's collected BNF (Appendix A).
    Rfc2396,
    /// RFC 3986's collected ABNF (Appendix A).
    Rfc3986,
}

impl Grammar {
    /// The name used on the command line: `rfc2396bis`, `rfc2396`,
    /// `rfc3986`.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::Grammar;
    ///
    /// assert_eq!(Grammar::Rfc3986.name(), "rfc3986");
    /// assert_eq!(Grammar::Rfc3986.name().parse::<Grammar>(), Ok(Grammar::Rfc3986));
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Grammar::Rfc2396bis => "rfc2396bis",
            Grammar::Rfc2396 => "rfc2396",
            Grammar::Rfc3986 => "rfc3986",
        }
    }
}

impl std::str::FromStr for Grammar {
    type Err = ParseGrammarError;
    fn from_str(s: &str) -> Result<Grammar, ParseGrammarError> {
        match s.to_ascii_lowercase().as_str() {
            "rfc2396bis" | "rfc2396bis-00" | "2396bis" => {
                Ok(Grammar::Rfc2396bis)
            }
            "rfc2396" | "2396" => Ok(Grammar::Rfc2396),
            "rfc3986" | "3986" => Ok(Grammar::Rfc3986),
            _ => Err(ParseGrammarError { name: s.to_string() }),
        }
    }
}

/// A name that is no [`Grammar`]'s, from [`str::parse`].
///
/// # Example
///
/// ```
/// use urifind::grammar::ParseGrammarError;
/// use urifind::Grammar;
///
/// let e: ParseGrammarError = "rfc1738".parse::<Grammar>().unwrap_err();
/// assert_eq!(e.name(), "rfc1738");
/// assert_eq!(
///     e.to_string(),
///     "unknown grammar 'rfc1738' (expected rfc2396bis, rfc2396 or rfc3986)"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseGrammarError {
    name: String,
}

impl ParseGrammarError {
    /// The name that was given.
    ///
    /// # Example
    ///
    /// ```
    /// let e = "x".parse::<urifind::Grammar>().unwrap_err();
    /// assert_eq!(e.name(), "x");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl fmt::Display for ParseGrammarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown grammar '{}' (expected rfc2396bis, rfc2396 or rfc3986)",
            self.name
        )
    }
}

impl std::error::Error for ParseGrammarError {}

/// The component in which a fault lies.
///
/// # Example
///
/// ```
/// use urifind::grammar::{Part, Validator};
///
/// let e = Validator::default().validate(b"http://a/?q#f#").unwrap_err();
/// assert_eq!(e.part(), Part::Fragment);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Part {
    /// The scheme (or a missing scheme where one is required).
    Scheme,
    /// The authority, or a scheme rule about the authority.
    Authority,
    /// The path (or opaque part).
    Path,
    /// The query.
    Query,
    /// The fragment.
    Fragment,
}

impl Part {
    /// A short lower-case name: `scheme`, `authority`, `path`, `query`,
    /// `fragment`.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::grammar::{Part, Validator};
    ///
    /// let e = Validator::default().validate(b"http://a/b%zz").unwrap_err();
    /// assert_eq!(e.part().name(), "path");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Part::Scheme => "scheme",
            Part::Authority => "authority",
            Part::Path => "path",
            Part::Query => "query",
            Part::Fragment => "fragment",
        }
    }
}

/// What is wrong, without where (see [`Error`] for that).
///
/// # Example
///
/// ```
/// use urifind::grammar::{ErrorKind, Grammar, Validator};
///
/// let v = Validator::new(Grammar::Rfc3986);
/// let e = v.validate(b"http://a/b%zz").unwrap_err();
/// assert_eq!(e.kind(), ErrorKind::Escape);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// `byte` may not stand where it stands; `place` names the rule in
    /// words ("a path", "a query", "a host name").
    Char {
        /// The offending byte.
        byte: u8,
        /// Where it stands, in words.
        place: &'static str,
    },
    /// A `%` not followed by two hex digits.
    Escape,
    /// An IPv4 octet above 255 (the value saturates at `u64::MAX`).
    Octet {
        /// The octet's decimal value.
        value: u64,
    },
    /// An IPv4 octet the grammar's `dec-octet` does not admit for another
    /// reason than its size (a leading zero, `2000` under rfc2396bis).
    OctetForm,
    /// Any other fault, described in words.
    Other(&'static str),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ErrorKind::Char { byte, place } => match byte {
                b' ' => write!(f, "a space is not allowed in {place}"),
                0x21..=0x7e => {
                    write!(f, "'{}' is not allowed in {place}", byte as char)
                }
                0x80..=0xff => write!(
                    f,
                    "non-ASCII byte 0x{byte:02x} is not allowed in {place} \
                     (percent-encode it)"
                ),
                _ => write!(
                    f,
                    "control byte 0x{byte:02x} is not allowed in {place}"
                ),
            },
            ErrorKind::Escape => {
                f.write_str("'%' must be followed by two hex digits")
            }
            ErrorKind::Octet { value: u64::MAX } => {
                f.write_str("octet is out of range in IPv4 address")
            }
            ErrorKind::Octet { value } => {
                write!(f, "octet {value} is out of range in IPv4 address")
            }
            ErrorKind::OctetForm => f.write_str(
                "octet has a form the grammar does not allow in IPv4 address",
            ),
            ErrorKind::Other(m) => f.write_str(m),
        }
    }
}

/// Why and where a string is not a valid URI reference.
///
/// # Example
///
/// ```
/// use urifind::grammar::{Grammar, Part, Validator};
///
/// let v = Validator::new(Grammar::Rfc2396bis);
/// let e = v.validate(b"http://a.example/x[1]").unwrap_err();
/// assert_eq!(e.offset(), 18);
/// assert_eq!(e.part(), Part::Path);
/// assert_eq!(e.message(), "'[' is not allowed in a path");
/// ```
#[derive(Clone, Debug)]
pub struct Error {
    offset: usize,
    part: Part,
    kind: ErrorKind,
    message: OnceLock<String>,
}

impl PartialEq for Error {
    fn eq(&self, other: &Error) -> bool {
        self.offset == other.offset
            && self.part == other.part
            && self.kind == other.kind
    }
}

impl Eq for Error {}

/// A fault as the parser passes it around: an [`Error`] without its
/// message cache, small to move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fault {
    pub(crate) offset: usize,
    pub(crate) part: Part,
    pub(crate) kind: ErrorKind,
}

impl Fault {
    #[inline]
    pub(crate) fn new(offset: usize, part: Part, kind: ErrorKind) -> Fault {
        Fault { offset, part, kind }
    }
}

impl From<Fault> for Error {
    #[cold]
    fn from(f: Fault) -> Error {
        Error {
            offset: f.offset,
            part: f.part,
            kind: f.kind,
            message: OnceLock::new(),
        }
    }
}

impl Error {
    /// The 0-based byte offset of the first byte at which no parse can
    /// continue (the length of the input when it ends too early).
    ///
    /// # Example
    ///
    /// ```
    /// let v = urifind::grammar::Validator::default();
    /// assert_eq!(v.validate(b"a b").unwrap_err().offset(), 1);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The component in which the fault lies.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::grammar::{Part, Validator};
    ///
    /// let e = Validator::default().validate(b"http://a/b?c d").unwrap_err();
    /// assert_eq!(e.part(), Part::Query);
    /// ```
    pub fn part(&self) -> Part {
        self.part
    }

    /// What is wrong, as a value.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::grammar::{ErrorKind, Validator};
    ///
    /// let v = Validator::default().scheme_rules(true);
    /// let e = v.validate(b"http://1.2.3.300/").unwrap_err();
    /// assert_eq!(e.kind(), ErrorKind::Octet { value: 300 });
    /// ```
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The fault in words a user understands.
    ///
    /// The text is formatted on the first call (validation itself never
    /// allocates).
    ///
    /// # Example
    ///
    /// ```
    /// let e = urifind::grammar::Validator::default().validate(b"%").unwrap_err();
    /// assert_eq!(e.message(), "'%' must be followed by two hex digits");
    /// assert_eq!(e.to_string(), e.message());
    /// ```
    pub fn message(&self) -> &str {
        self.message.get_or_init(|| self.kind.to_string())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.kind, f)
    }
}

impl std::error::Error for Error {}

/// A strict validator for one grammar.
///
/// # Example
///
/// ```
/// use urifind::grammar::{Grammar, Validator};
///
/// let v = Validator::new(Grammar::Rfc2396bis).absolute(true);
/// assert!(v.validate(b"ftp://ftp.is.co.za/rfc/rfc1808.txt").is_ok());
/// assert!(v.validate(b"../g").is_err());
///
/// // The generic grammar takes any reg-name; the scheme rules do not.
/// let v = Validator::new(Grammar::Rfc2396bis);
/// assert!(v.validate(b"http://256.1.1.1/").is_ok());
/// let e = v.scheme_rules(true).validate(b"http://256.1.1.1/").unwrap_err();
/// assert_eq!(e.message(), "octet 256 is out of range in IPv4 address");
/// assert_eq!(e.offset(), 7);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Validator {
    grammar: Grammar,
    absolute: bool,
    scheme_rules: bool,
}

impl Validator {
    /// A validator for `URI-reference` under `grammar`.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::grammar::{Grammar, Validator};
    ///
    /// // A bare query is a reference under rfc2396bis, not under RFC 2396.
    /// assert!(Validator::new(Grammar::Rfc2396bis).is_valid(b"?y"));
    /// assert!(!Validator::new(Grammar::Rfc2396).is_valid(b"?y"));
    /// ```
    pub fn new(grammar: Grammar) -> Validator {
        Validator { grammar, absolute: false, scheme_rules: false }
    }

    /// Accept only `absolute-URI [ "#" fragment ]` (no relative
    /// references).
    ///
    /// # Example
    ///
    /// ```
    /// let v = urifind::grammar::Validator::default().absolute(true);
    /// assert!(v.is_valid(b"urn:x#y"));
    /// assert!(!v.is_valid(b"/x"));
    /// ```
    pub fn absolute(mut self, yes: bool) -> Validator {
        self.absolute = yes;
        self
    }

    /// Apply the IP-based scheme rules of docs/CONTRACT.md section 2 on
    /// top of the grammar (see [`schemes::IP_BASED`]).
    ///
    /// # Example
    ///
    /// ```
    /// let v = urifind::grammar::Validator::default();
    /// assert!(v.is_valid(b"http://-x-/"));
    /// assert!(!v.scheme_rules(true).is_valid(b"http://-x-/"));
    /// ```
    pub fn scheme_rules(mut self, yes: bool) -> Validator {
        self.scheme_rules = yes;
        self
    }

    /// The grammar this validator checks.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::grammar::{Grammar, Validator};
    ///
    /// assert_eq!(Validator::default().grammar(), Grammar::Rfc2396bis);
    /// ```
    pub fn grammar(&self) -> Grammar {
        self.grammar
    }

    /// Validates `s`, returning its components or the first fault.
    ///
    /// Components follow Appendix B (undefined is `None`, empty is
    /// `Some(b"")`). When the authority parses as a server
    /// (`[userinfo "@"] host [":" port]`), `userinfo`, `host` and `port`
    /// are filled; when only `reg-name` matches, they are `None`. Under
    /// the scheme rules an accepted IP-based URI always has them.
    ///
    /// # Errors
    ///
    /// The first fault, as an [`Error`]: where, in which part, and what
    /// is wrong.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::grammar::{Grammar, Validator};
    ///
    /// let v = Validator::new(Grammar::Rfc2396bis);
    /// let c = v.validate(b"ftp://anon@[::1]:21/pub?x#y").unwrap();
    /// assert_eq!(c.userinfo, Some(&b"anon"[..]));
    /// assert_eq!(c.host, Some(&b"[::1]"[..]));
    /// assert_eq!(c.port, Some(&b"21"[..]));
    /// assert_eq!(c.path, b"/pub");
    ///
    /// let c = v.validate(b"http://a_b:c/").unwrap(); // a reg-name
    /// assert_eq!(c.authority, Some(&b"a_b:c"[..]));
    /// assert_eq!(c.host, None);
    /// ```
    #[inline]
    pub fn validate<'a>(&self, s: &'a [u8]) -> Result<Components<'a>, Error> {
        if self.scheme_rules {
            if let Some(c) = fast::common(s) {
                return Ok(c);
            }
        }
        self.full(s)
    }

    /// Whether `s` is valid and of the common shape (`http://host/path`
    /// for an IP-based scheme, under the scheme rules): a quick yes for
    /// most URIs; false says nothing.
    #[inline(always)]
    pub(crate) fn is_common(&self, s: &[u8]) -> bool {
        self.scheme_rules && fast::common(s).is_some()
    }

    /// [`Validator::is_common`] of `s` whose first `scheme` bytes are
    /// scheme characters before a `:`, without reading them again.
    #[inline(always)]
    pub(crate) fn is_common_after(&self, s: &[u8], scheme: usize) -> bool {
        self.scheme_rules && fast::is_common_after(s, scheme)
    }

    /// How far the common shape goes from the start of `s`, which starts
    /// with a scheme of `scheme` bytes (see `fast::common_prefix`):
    /// `Some(k)` when `s[..k]` is valid and of that shape and `s[k]`
    /// cannot extend it; only under the scheme rules.
    #[inline(always)]
    pub(crate) fn common_prefix(
        &self,
        s: &[u8],
        scheme: usize,
    ) -> Option<(usize, usize)> {
        if self.scheme_rules {
            fast::common_prefix(s, scheme)
        } else {
            None
        }
    }

    /// [`Validator::common_prefix`] for the plainest URIs (see
    /// `fast::plain_prefix`): no escape, `&` or `)` after the authority.
    /// `s` starts with an IP-based scheme of `scheme` bytes, which the
    /// caller has checked.
    #[inline(always)]
    pub(crate) fn plain_prefix(
        &self,
        s: &[u8],
        scheme: usize,
    ) -> Option<(usize, usize)> {
        if self.scheme_rules {
            fast::plain_after(s, scheme)
        } else {
            None
        }
    }

    /// [`Validator::validate`] without the fast path for the common
    /// shape.
    pub(crate) fn full<'a>(
        &self,
        s: &'a [u8],
    ) -> Result<Components<'a>, Error> {
        let g = self.grammar;
        let mut c = Components::default();
        let (auth_start, ip_based) = parse::uri_reference::<Ascii>(
            s,
            g,
            self.absolute,
            self.scheme_rules,
            &mut c,
        )?;
        if ip_based {
            rules::check(s, self.grammar, auth_start, &mut c)?;
        }
        Ok(c)
    }

    /// Whether `s` is valid (the same as `validate(s).is_ok()`).
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::grammar::Validator;
    ///
    /// assert!(Validator::default().is_valid(b"about:"));
    /// ```
    #[inline]
    pub fn is_valid(&self, s: &[u8]) -> bool {
        self.validate(s).is_ok()
    }
}
