//! The options of a [`Finder`] and the one place they are checked:
//! [`FinderBuilder`] collects them, [`FinderBuilder::build`] refuses
//! those out of range or in conflict ([`BuildError`]), so that every
//! front end (the command, the Python package) maps the same refusals
//! to its own words instead of checking on its own.

use super::Finder;
use crate::grammar::Grammar;

/// Builds a [`Finder`] with options.
///
/// # Example
///
/// ```
/// use urifind::Finder;
///
/// let f = Finder::builder().schemes(["ftp"]).build().unwrap();
/// let text = b"http://a.example/ and ftp://b.example/pub/";
/// let got: Vec<&[u8]> = f.find_iter(text).map(|m| &text[m.uri_span()]).collect();
/// assert_eq!(got, [&b"ftp://b.example/pub/"[..]]);
/// ```
#[derive(Clone, Debug)]
pub struct FinderBuilder {
    pub(super) grammar: Grammar,
    pub(super) schemes: Option<Vec<Vec<u8>>>,
    pub(super) any_scheme: bool,
    pub(super) abbrev: bool,
    pub(super) bracket_bound: usize,
    pub(super) max_uri_len: usize,
    pub(super) rejected: bool,
    pub(super) iri: bool,
    /// Accept hosts a browser reads (`link::hosts`).
    pub(super) browser_hosts: bool,
    /// Turn colons away before the engine looks at them (the per-colon
    /// pre-check and the bulk filter), and delimited contexts whose
    /// closer is nowhere within the bracket bound before reading them;
    /// read a bare URI of the common shape and check it in one pass. Off
    /// only in tests, which check that these change no item.
    pub(super) prefilter: bool,
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
            iri: false,
            browser_hosts: false,
            prefilter: true,
        }
    }
}

impl FinderBuilder {
    /// Default options.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::FinderBuilder::new().build().unwrap();
    /// assert_eq!(f.find_iter(b"http://a.example/").count(), 1);
    /// ```
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
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::{Finder, Grammar};
    ///
    /// // RFC 2396 has no IPv6 literals.
    /// let text = b"<http://[::1]/>";
    /// assert_eq!(Finder::new().find_iter(text).count(), 1);
    /// let f = Finder::builder().grammar(Grammar::Rfc2396).build().unwrap();
    /// assert_eq!(f.find_iter(text).count(), 0);
    /// ```
    pub fn grammar(&mut self, g: Grammar) -> &mut FinderBuilder {
        self.grammar = g;
        self
    }
    /// Accept only these schemes (case-insensitive), in every context.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::builder().schemes(["FTP"]).build().unwrap();
    /// let text = b"http://a.example/ ftp://b.example/";
    /// let got: Vec<&[u8]> = f.find_iter(text).map(|m| &text[m.uri_span()]).collect();
    /// assert_eq!(got, [&b"ftp://b.example/"[..]]);
    /// ```
    pub fn schemes<I, S>(&mut self, schemes: I) -> &mut FinderBuilder
    where
        I: IntoIterator<Item = S>,
        S: AsRef<[u8]>,
    {
        self.schemes =
            Some(schemes.into_iter().map(|s| s.as_ref().to_vec()).collect());
        self
    }
    /// Accept every syntactically valid scheme in every context.
    ///
    /// # Example
    ///
    /// ```
    /// let text = b"see foo:bar here";
    /// assert_eq!(urifind::Finder::new().find_iter(text).count(), 0);
    /// let f = urifind::Finder::builder().any_scheme(true).build().unwrap();
    /// assert_eq!(f.find_iter(text).next().unwrap().uri(), b"foo:bar");
    /// ```
    pub fn any_scheme(&mut self, yes: bool) -> &mut FinderBuilder {
        self.any_scheme = yes;
        self
    }
    /// Find abbreviated URIs (`www.example.com/x`), reported with a
    /// scheme put in front.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::builder().abbreviated(true).build().unwrap();
    /// let m = f.find_iter(b"see www.w3.org/Addressing/.").next().unwrap();
    /// assert_eq!(m.uri(), b"http://www.w3.org/Addressing/");
    /// assert_eq!(m.context(), urifind::Context::Abbreviated);
    /// ```
    pub fn abbreviated(&mut self, yes: bool) -> &mut FinderBuilder {
        self.abbrev = yes;
        self
    }
    /// Bytes allowed between `<` and `>` (default 2048).
    ///
    /// # Example
    ///
    /// ```
    /// let text = b"<http://a.example/\n   0123456789>";
    /// assert_eq!(urifind::Finder::new().find_iter(text).count(), 1);
    /// let f = urifind::Finder::builder().bracket_bound(20).build().unwrap();
    /// // The brackets are too far apart: only the bare part is found.
    /// let m = f.find_iter(text).next().unwrap();
    /// assert_eq!(m.uri(), b"http://a.example/");
    /// ```
    pub fn bracket_bound(&mut self, n: usize) -> &mut FinderBuilder {
        self.bracket_bound = n;
        self
    }
    /// Longest URI reported (default 64 KiB); longer candidates are
    /// rejected.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::builder().max_uri_len(10).build().unwrap();
    /// assert_eq!(f.find_iter(b"http://a.example/").count(), 0);
    /// ```
    pub fn max_uri_len(&mut self, n: usize) -> &mut FinderBuilder {
        self.max_uri_len = n;
        self
    }
    /// Also report rejected candidates as
    /// [`Item::Rejected`](super::Item::Rejected).
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::builder().rejected(true).build().unwrap();
    /// assert_eq!(f.items(b"http://256.0.0.1/").count(), 1);
    /// assert_eq!(f.find_iter(b"http://256.0.0.1/").count(), 0);
    /// ```
    pub fn rejected(&mut self, yes: bool) -> &mut FinderBuilder {
        self.rejected = yes;
        self
    }
    /// Find IRIs (RFC 3987) as well as URIs (off by default).
    ///
    /// In bare text, letters, combining marks and digits of scripts written
    /// with spaces between words (and U+200C, U+200D) then continue the
    /// candidate instead of rejecting it; letters of scripts written
    /// without spaces (Han, kana, Thai, ...) continue it only inside a
    /// host label that holds no ASCII before them. Inside `<...>`,
    /// `"..."` and the paired CJK and typographic brackets and quotes
    /// ([`Context::Paired`](super::Context::Paired)), every character RFC
    /// 3987 allows belongs to the IRI. A candidate with non-ASCII characters is validated by RFC
    /// 3987's grammar, and the URI it maps to
    /// ([`crate::iri::Iri::to_uri`]) by the chosen grammar and the scheme
    /// rules. On ASCII text nothing changes.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::builder().iri(true).build().unwrap();
    /// let text = "Siehe https://de.wikipedia.org/wiki/Müller, 「http://例え.テスト/索引」.";
    /// let found: Vec<_> = f.find_iter(text.as_bytes()).collect();
    /// assert_eq!(found[0].uri(), "https://de.wikipedia.org/wiki/Müller".as_bytes());
    /// assert_eq!(
    ///     found[0].to_uri(),
    ///     "https://de.wikipedia.org/wiki/M%C3%BCller".as_bytes()
    /// );
    /// assert_eq!(found[1].uri(), "http://例え.テスト/索引".as_bytes());
    /// assert_eq!(found[1].context(), urifind::Context::Paired);
    ///
    /// // Without it, the bare IRI is rejected (not cut).
    /// let f = urifind::Finder::new();
    /// assert_eq!(f.find_iter(text.as_bytes()).count(), 0);
    /// ```
    pub fn iri(&mut self, yes: bool) -> &mut FinderBuilder {
        self.iri = yes;
        self
    }
    /// Also report a candidate of an IP-based scheme whose only fault is
    /// a host that a browser reads as an IPv4 address or a valid domain
    /// (the WHATWG URL Standard's host parser: `2130706433`, `0x7f.1`,
    /// `0177.0.0.1`, `%77%77%77.example.com`). The URI is reported as
    /// written; [`crate::link::Link::host_as_read`] says how the host is
    /// read. Off by default: such hosts are not URI hosts.
    ///
    /// # Example
    ///
    /// ```
    /// let text = b"go to http://0x7f.1/admin or http://1.2.3.08/";
    /// assert_eq!(urifind::Finder::new().find_iter(text).count(), 0);
    /// let f = urifind::Finder::builder().browser_hosts(true).build().unwrap();
    /// let m: Vec<_> = f.find_iter(text).collect();
    /// assert_eq!(m.len(), 1);
    /// assert_eq!(m[0].uri(), b"http://0x7f.1/admin");
    /// let link = f.link_analyzer().analyze(m[0].uri());
    /// assert_eq!(link.host_as_read.as_deref(), Some("127.0.0.1"));
    /// ```
    pub fn browser_hosts(&mut self, yes: bool) -> &mut FinderBuilder {
        self.browser_hosts = yes;
        self
    }
    /// Builds the finder, once every option is checked.
    ///
    /// # Errors
    ///
    /// The first option that is out of range or contradicts another, as
    /// a [`BuildError`] (checked in this order: the URI bound, IRIs with
    /// RFC 2396, the scheme list against [`FinderBuilder::any_scheme`],
    /// each scheme name).
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::{BuildError, Finder, Grammar};
    ///
    /// let f = Finder::builder().rejected(true).build().unwrap();
    /// let g = f.clone();
    /// assert_eq!(g.items(b"http://").count(), 1);
    ///
    /// let e = Finder::builder().schemes(["http", "9p"]).build().unwrap_err();
    /// assert_eq!(e, BuildError::InvalidScheme("9p".into()));
    /// let e = Finder::builder().iri(true).grammar(Grammar::Rfc2396).build();
    /// assert_eq!(e.unwrap_err(), BuildError::IriWithRfc2396);
    /// ```
    pub fn build(&self) -> Result<Finder, BuildError> {
        if self.max_uri_len == 0 {
            return Err(BuildError::ZeroMaxUriLen);
        }
        if self.iri && self.grammar == Grammar::Rfc2396 {
            return Err(BuildError::IriWithRfc2396);
        }
        let mut opts = self.clone();
        if let Some(list) = &mut opts.schemes {
            if self.any_scheme {
                return Err(BuildError::SchemesAndAnyScheme);
            }
            if list.is_empty() {
                return Err(BuildError::NoSchemes);
            }
            for name in list.iter_mut() {
                if !is_scheme_name(name) {
                    let name = String::from_utf8_lossy(name).into_owned();
                    return Err(BuildError::InvalidScheme(name));
                }
                name.make_ascii_lowercase();
            }
        }
        Ok(Finder { opts })
    }
}

/// Whether `s` is a scheme name: RFC 3986 `scheme = ALPHA *( ALPHA /
/// DIGIT / "+" / "-" / "." )`.
fn is_scheme_name(s: &[u8]) -> bool {
    s.first().is_some_and(u8::is_ascii_alphabetic)
        && s[1..].iter().all(|&c| {
            c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')
        })
}

/// Why [`FinderBuilder::build`] refused its options.
///
/// Front ends name the options in their own words (the command's flags,
/// the Python package's keywords); [`std::fmt::Display`] names the
/// builder's methods.
///
/// # Example
///
/// ```
/// use urifind::{BuildError, Finder};
///
/// let e = Finder::builder().schemes(["http"]).any_scheme(true).build();
/// let e = e.unwrap_err();
/// assert_eq!(e, BuildError::SchemesAndAnyScheme);
/// assert_eq!(e.to_string(), "schemes and any_scheme cannot be used together");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// [`FinderBuilder::max_uri_len`] was 0.
    ZeroMaxUriLen,
    /// IRIs were asked for under [`Grammar::Rfc2396`], which predates
    /// them.
    IriWithRfc2396,
    /// Both a list of schemes and [`FinderBuilder::any_scheme`].
    SchemesAndAnyScheme,
    /// [`FinderBuilder::schemes`] was given no name.
    NoSchemes,
    /// A name given to [`FinderBuilder::schemes`] is no scheme name (a
    /// letter, then letters, digits, `+`, `-` or `.`); the name as given.
    InvalidScheme(String),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::ZeroMaxUriLen => {
                f.write_str("max_uri_len must be at least 1")
            }
            BuildError::IriWithRfc2396 => f.write_str(
                "iri cannot be used with grammar rfc2396, which predates \
                 IRIs (use rfc2396bis or rfc3986)",
            ),
            BuildError::SchemesAndAnyScheme => {
                f.write_str("schemes and any_scheme cannot be used together")
            }
            BuildError::NoSchemes => f.write_str(
                "schemes is empty (give at least one scheme, or none to \
                 accept the default ones)",
            ),
            BuildError::InvalidScheme(s) => write!(
                f,
                "invalid scheme '{s}' in schemes (a letter, then letters, \
                 digits, '+', '-' or '.')"
            ),
        }
    }
}

impl std::error::Error for BuildError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scheme_names() {
        assert!(is_scheme_name(b"a"));
        assert!(is_scheme_name(b"svn+ssh"));
        assert!(is_scheme_name(b"x-y.z"));
        assert!(!is_scheme_name(b"-x"));
        assert!(!is_scheme_name(b"a_b"));
        assert!(!is_scheme_name(b""));
        assert!(!is_scheme_name("é".as_bytes()));
    }

    #[test]
    fn every_refusal() {
        let refused = |f: &mut FinderBuilder| f.build().unwrap_err();
        let b = FinderBuilder::new;
        assert_eq!(refused(b().max_uri_len(0)), BuildError::ZeroMaxUriLen);
        // A zero bracket bound is a choice: nothing is delimited.
        assert!(b().bracket_bound(0).build().is_ok());
        assert_eq!(
            refused(b().iri(true).grammar(Grammar::Rfc2396)),
            BuildError::IriWithRfc2396
        );
        assert_eq!(
            refused(b().schemes(["http"]).any_scheme(true)),
            BuildError::SchemesAndAnyScheme
        );
        assert_eq!(
            refused(b().schemes(Vec::<&str>::new())),
            BuildError::NoSchemes
        );
        // The name as given, not lower-cased.
        assert_eq!(
            refused(b().schemes(["http", "A_B"])),
            BuildError::InvalidScheme("A_B".into())
        );
        // The first refusal in the documented order.
        let e = refused(b().max_uri_len(0).schemes(["1"]).any_scheme(true));
        assert_eq!(e, BuildError::ZeroMaxUriLen);
        // Accepted: names are matched case-insensitively.
        let f = b().schemes(["FTP"]).build().unwrap();
        assert_eq!(f.find_iter(b"ftp://a.example/").count(), 1);
        assert!(b().iri(true).grammar(Grammar::Rfc3986).build().is_ok());
    }
}
