//! The strict validator: is a byte string a URI reference under a grammar,
//! and if not, where and why not.
//!
//! TEMPORARY SKELETON: the real rules (three grammars, fault messages,
//! scheme rules) replace this file; only the public API is fixed here.

use std::fmt;

use crate::uri::Components;

pub mod schemes;

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
    pub fn name(self) -> &'static str {
        match self {
            Grammar::Rfc2396bis => "rfc2396bis",
            Grammar::Rfc2396 => "rfc2396",
            Grammar::Rfc3986 => "rfc3986",
        }
    }
}

impl std::str::FromStr for Grammar {
    type Err = String;
    fn from_str(s: &str) -> Result<Grammar, String> {
        match s.to_ascii_lowercase().as_str() {
            "rfc2396bis" | "rfc2396bis-00" | "2396bis" => Ok(Grammar::Rfc2396bis),
            "rfc2396" | "2396" => Ok(Grammar::Rfc2396),
            "rfc3986" | "3986" => Ok(Grammar::Rfc3986),
            _ => Err(format!(
                "unknown grammar '{s}' (expected rfc2396bis, rfc2396 or rfc3986)"
            )),
        }
    }
}

/// The component in which a fault lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// Why and where a string is not a valid URI reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    offset: usize,
    part: Part,
    message: String,
}

impl Error {
    /// The 0-based byte offset of the first byte at which no parse can
    /// continue (the length of the input when it ends too early).
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The component in which the fault lies.
    pub fn part(&self) -> Part {
        self.part
    }

    /// The fault in words a user understands.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
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
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Validator {
    grammar: Grammar,
    absolute: bool,
    scheme_rules: bool,
}

impl Validator {
    /// A validator for `URI-reference` under `grammar`.
    pub fn new(grammar: Grammar) -> Validator {
        Validator { grammar, absolute: false, scheme_rules: false }
    }

    /// Accept only `absolute-URI [ "#" fragment ]` (no relative
    /// references).
    pub fn absolute(mut self, yes: bool) -> Validator {
        self.absolute = yes;
        self
    }

    /// Apply the IP-based scheme rules of SPEC.md section 2 on top of the
    /// grammar.
    pub fn scheme_rules(mut self, yes: bool) -> Validator {
        self.scheme_rules = yes;
        self
    }

    /// The grammar this validator checks.
    pub fn grammar(&self) -> Grammar {
        self.grammar
    }

    /// Validates `s`, returning its components or the first fault.
    pub fn validate<'a>(&self, s: &'a [u8]) -> Result<Components<'a>, Error> {
        // TEMPORARY: a crude character check until the real rules land.
        for (i, &b) in s.iter().enumerate() {
            let ok = b.is_ascii_alphanumeric()
                || b"-_.!~*'();/?:@&=+$,#%[]".contains(&b);
            if !ok {
                return Err(Error {
                    offset: i,
                    part: Part::Path,
                    message: format!("byte 0x{b:02x} is not allowed"),
                });
            }
        }
        let c = Components::split(s);
        if self.absolute && c.scheme.is_none() {
            return Err(Error {
                offset: 0,
                part: Part::Scheme,
                message: "a scheme is required".into(),
            });
        }
        Ok(c)
    }
}
