//! Which form of a URI broken at a hyphen is reported: the one choice
//! every front end offers (the command's `--hyphen`, the Python
//! package's `hyphen=`), named once here.

use std::fmt;

/// Which form of a URI that had a hyphen at a line break is reported
/// first ([`Match::without_hyphen`](crate::Match::without_hyphen) gives
/// the other).
///
/// # Example
///
/// ```
/// use urifind::{Finder, Hyphen};
///
/// let text = b"<http://a.example/long-\n   name>";
/// let m = Finder::new().find_iter(text).next().unwrap();
/// let primary = |h: Hyphen| h.primary(m.uri(), m.without_hyphen()).to_vec();
/// assert_eq!(primary(Hyphen::Keep), b"http://a.example/long-name");
/// assert_eq!(primary(Hyphen::Drop), b"http://a.example/longname");
/// assert_eq!("both".parse::<Hyphen>(), Ok(Hyphen::Both));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Hyphen {
    /// The URI with its hyphen (the default).
    #[default]
    Keep,
    /// The form without the hyphen.
    Drop,
    /// The kept form, then the form without the hyphen.
    Both,
}

impl Hyphen {
    /// Every choice, in the order the front ends list them.
    pub const ALL: [Hyphen; 3] = [Hyphen::Keep, Hyphen::Drop, Hyphen::Both];

    /// The name the front ends use: `keep`, `drop`, `both`.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(urifind::Hyphen::Drop.name(), "drop");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Hyphen::Keep => "keep",
            Hyphen::Drop => "drop",
            Hyphen::Both => "both",
        }
    }

    /// The form reported first: the one without the hyphen under
    /// [`Hyphen::Drop`] when the hyphen rule applied (`alt` is
    /// [`Match::without_hyphen`](crate::Match::without_hyphen)), `uri`
    /// otherwise.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::Hyphen;
    ///
    /// assert_eq!(Hyphen::Drop.primary(b"a-b", Some(b"ab")), b"ab");
    /// assert_eq!(Hyphen::Both.primary(b"a-b", Some(b"ab")), b"a-b");
    /// assert_eq!(Hyphen::Drop.primary(b"a-b", None), b"a-b");
    /// ```
    pub fn primary<'a>(
        self,
        uri: &'a [u8],
        alt: Option<&'a [u8]>,
    ) -> &'a [u8] {
        match (self, alt) {
            (Hyphen::Drop, Some(alt)) => alt,
            _ => uri,
        }
    }
}

impl std::str::FromStr for Hyphen {
    type Err = ParseHyphenError;
    fn from_str(s: &str) -> Result<Hyphen, ParseHyphenError> {
        Hyphen::ALL
            .into_iter()
            .find(|h| h.name() == s)
            .ok_or_else(|| ParseHyphenError { name: s.to_string() })
    }
}

/// A name that is no [`Hyphen`]'s, from [`str::parse`].
///
/// # Example
///
/// ```
/// let e = "maybe".parse::<urifind::Hyphen>().unwrap_err();
/// assert_eq!(e.name(), "maybe");
/// assert_eq!(e.to_string(), "unknown hyphen choice 'maybe' (expected keep, drop or both)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseHyphenError {
    name: String,
}

impl ParseHyphenError {
    /// The name that was given.
    ///
    /// # Example
    ///
    /// ```
    /// let e = "x".parse::<urifind::Hyphen>().unwrap_err();
    /// assert_eq!(e.name(), "x");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl fmt::Display for ParseHyphenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown hyphen choice '{}' (expected keep, drop or both)",
            self.name
        )
    }
}

impl std::error::Error for ParseHyphenError {}
