//! The `Finder` options as Python passes them (keywords with string
//! values) turned into a [`urifind::FinderBuilder`], and the checks the
//! command makes on the same options, with its messages (the keyword's
//! name standing where the command names its flag).

use pyo3::prelude::*;
use pyo3::types::PyString;
use urifind::mail::MailFinder;
use urifind::{Finder, Grammar};

use crate::errors::OptionError;

/// Which form of a URI with a hyphen at a line break is reported first:
/// the command's `--hyphen keep|drop|both`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hyphen {
    /// The URI with its hyphen (the default).
    Keep,
    /// The form without the hyphen.
    Drop,
    /// The kept form, and the form without the hyphen after it
    /// (`find_uris` lists both).
    Both,
}

impl Hyphen {
    /// The name Python passes and gets back.
    pub fn name(self) -> &'static str {
        match self {
            Hyphen::Keep => "keep",
            Hyphen::Drop => "drop",
            Hyphen::Both => "both",
        }
    }

    fn parse(s: &str) -> PyResult<Hyphen> {
        match s {
            "keep" => Ok(Hyphen::Keep),
            "drop" => Ok(Hyphen::Drop),
            "both" => Ok(Hyphen::Both),
            _ => Err(OptionError::new_err(format!(
                "invalid value '{s}' for hyphen (expected keep, drop or both)"
            ))),
        }
    }

    /// The form reported as `uri`: the one without the hyphen under
    /// `drop`, when the hyphen rule applied.
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

/// The grammar named `name`, with the command's message for an unknown
/// one.
///
/// # Errors
///
/// `OptionError` when the name is none of the grammars.
pub fn grammar_of(name: &str) -> PyResult<Grammar> {
    name.parse::<Grammar>().map_err(|e| OptionError::new_err(e.to_string()))
}

/// A scheme name as RFC 3986 section 3.1 spells it: a letter, then
/// letters, digits, `+`, `-` or `.`.
fn valid_scheme(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphabetic()
        && b[1..].iter().all(|&c| {
            c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')
        })
}

/// Every option of a `Finder`, checked; kept so that a finder can be
/// pickled and shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The grammar candidates are validated against.
    pub grammar: Grammar,
    /// Accepted schemes (lower case), when restricted.
    pub schemes: Option<Vec<String>>,
    /// Accept any syntactically valid scheme.
    pub any_scheme: bool,
    /// Find abbreviated URIs (`www.example.com/x`).
    pub abbrev: bool,
    /// Find IRIs.
    pub iri: bool,
    /// Read the input as mail (MIME parts decoded).
    pub mail: bool,
    /// Which form a hyphenated URI is reported in.
    pub hyphen: Hyphen,
}

impl Options {
    /// Checks the options as the command checks its flags.
    ///
    /// # Errors
    ///
    /// `OptionError` with the command's message for a bad value or a
    /// combination the command refuses.
    pub fn new(
        grammar: &str,
        schemes: Option<&Bound<'_, PyAny>>,
        any_scheme: bool,
        abbrev: bool,
        iri: bool,
        mail: bool,
        hyphen: &str,
    ) -> PyResult<Options> {
        let grammar = grammar_of(grammar)?;
        let schemes = match schemes {
            None => None,
            Some(obj) => Some(scheme_list(obj)?),
        };
        if any_scheme && schemes.is_some() {
            return Err(OptionError::new_err(
                "schemes and any_scheme cannot be used together",
            ));
        }
        let hyphen = Hyphen::parse(hyphen)?;
        if iri && grammar == Grammar::Rfc2396 {
            return Err(OptionError::new_err(
                "iri cannot be used with grammar rfc2396, which predates \
                 IRIs (use rfc2396bis or rfc3986)",
            ));
        }
        Ok(Options { grammar, schemes, any_scheme, abbrev, iri, mail, hyphen })
    }

    /// The mail-mode finder, when `mail` is on.
    pub fn build_mail(&self) -> Option<MailFinder> {
        self.mail.then(|| MailFinder::new(self.build()))
    }

    /// The library's finder for these options.
    pub fn build(&self) -> Finder {
        let mut b = Finder::builder();
        b.grammar(self.grammar)
            .any_scheme(self.any_scheme)
            .abbreviated(self.abbrev)
            .iri(self.iri);
        if let Some(s) = &self.schemes {
            b.schemes(s);
        }
        b.build()
    }
}

/// `schemes` as a list of names: a string is split at commas (as the
/// command's `--scheme http,https`), any other iterable gives one name
/// per item.
fn scheme_list(obj: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let raw: Vec<String> = if let Ok(s) = obj.cast::<PyString>() {
        s.to_cow()?.split(',').map(str::to_owned).collect()
    } else {
        let mut v = Vec::new();
        for item in obj.try_iter()? {
            v.push(item?.extract::<String>()?);
        }
        v
    };
    if raw.is_empty() {
        return Err(OptionError::new_err(
            "schemes is empty (give at least one scheme, or None for all)",
        ));
    }
    let mut out = Vec::with_capacity(raw.len());
    for s in &raw {
        let s = s.trim();
        if !valid_scheme(s) {
            return Err(OptionError::new_err(format!(
                "invalid scheme '{s}' in schemes (a letter, then letters, \
                 digits, '+', '-' or '.')"
            )));
        }
        out.push(s.to_ascii_lowercase());
    }
    Ok(out)
}
