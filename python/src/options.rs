//! The `Finder` options as Python passes them (keywords with string
//! values) turned into a [`urifind::FinderBuilder`], whose `build`
//! checks them; its refusals are shown in the command's messages with
//! the keyword's name standing where the command names its flag.

use pyo3::prelude::*;
use pyo3::types::PyString;
use urifind::mail::MailFinder;
use urifind::{BuildError, Finder, FinderBuilder, Grammar};

use crate::errors::OptionError;

/// Which form of a URI with a hyphen at a line break is reported first:
/// the library's choice, named as the command's `--hyphen` names it.
pub use urifind::Hyphen;

/// The hyphen choice named `s`, with the message Python shows.
fn hyphen_of(s: &str) -> PyResult<Hyphen> {
    s.parse::<Hyphen>().map_err(|_| {
        OptionError::new_err(format!(
            "invalid value '{s}' for hyphen (expected keep, drop or both)"
        ))
    })
}

/// The library's refusal of a finder's options, in the words of the
/// keywords.
fn finder_error(e: BuildError) -> PyErr {
    OptionError::new_err(match e {
        BuildError::NoSchemes => {
            "schemes is empty (give at least one scheme, or None for all)"
                .to_string()
        }
        // The library names its options as the keywords do.
        e => e.to_string(),
    })
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
        let hyphen = hyphen_of(hyphen)?;
        let mut opts = Options {
            grammar,
            schemes,
            any_scheme,
            abbrev,
            iri,
            mail,
            hyphen,
        };
        opts.builder().build().map_err(finder_error)?;
        for s in opts.schemes.iter_mut().flatten() {
            s.make_ascii_lowercase();
        }
        Ok(opts)
    }

    /// The mail-mode finder, when `mail` is on.
    pub fn build_mail(&self) -> Option<MailFinder> {
        self.mail.then(|| MailFinder::new(self.build()))
    }

    /// The library's finder for these options.
    pub fn build(&self) -> Finder {
        self.builder().build().expect("checked in Options::new")
    }

    fn builder(&self) -> FinderBuilder {
        let mut b = Finder::builder();
        b.grammar(self.grammar)
            .any_scheme(self.any_scheme)
            .abbreviated(self.abbrev)
            .iri(self.iri);
        if let Some(s) = &self.schemes {
            b.schemes(s);
        }
        b
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
    // The names are checked by the library's builder, as given.
    let out = raw.iter().map(|s| s.trim().to_string()).collect();
    Ok(out)
}
