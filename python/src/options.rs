//! The `Finder` options as Python passes them (keywords with string
//! values) turned into a [`urifind::FinderBuilder`], and the checks the
//! command makes on the same options, with its messages (the keyword's
//! name standing where the command names its flag). [`KEYWORDS`] is the
//! one list of the options.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use pyo3::IntoPyObjectExt;
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

impl Default for Options {
    fn default() -> Options {
        Options {
            grammar: Grammar::Rfc2396bis,
            schemes: None,
            any_scheme: false,
            abbrev: false,
            iri: false,
            mail: false,
            hyphen: Hyphen::Keep,
        }
    }
}

/// One keyword option: its name, how a value given in Python sets it,
/// and how it is read back (for the attribute, `repr` and pickling).
pub struct Keyword {
    /// The keyword's name.
    pub name: &'static str,
    set: fn(&mut Options, &Bound<'_, PyAny>) -> PyResult<()>,
    get: for<'py> fn(&Options, Python<'py>) -> PyResult<Bound<'py, PyAny>>,
}

impl Keyword {
    /// The option's value in `o`, as Python sees it.
    ///
    /// # Errors
    ///
    /// Only when Python cannot make the object.
    pub fn get<'py>(
        &self,
        o: &Options,
        py: Python<'py>,
    ) -> PyResult<Bound<'py, PyAny>> {
        (self.get)(o, py)
    }
}

/// A bool from Python, strictly (`True`/`False`, as pyo3 extracts it).
fn flag(v: &Bound<'_, PyAny>) -> PyResult<bool> {
    v.extract::<bool>()
}

/// `v` as a Python object.
fn py_obj<'py, T: IntoPyObject<'py>>(
    py: Python<'py>,
    v: T,
) -> PyResult<Bound<'py, PyAny>> {
    v.into_bound_py_any(py)
}

/// The keyword options of a `Finder`, in the order `repr` shows them:
/// the one list of them (the constructor, the attributes, `repr`,
/// pickling and `urifind.FINDER_OPTIONS` all read it).
pub static KEYWORDS: [Keyword; 7] = [
    Keyword {
        name: "grammar",
        set: |o, v| {
            o.grammar = grammar_of(&v.extract::<String>()?)?;
            Ok(())
        },
        get: |o, py| py_obj(py, o.grammar.name()),
    },
    Keyword {
        name: "schemes",
        set: |o, v| {
            o.schemes = if v.is_none() { None } else { Some(scheme_list(v)?) };
            Ok(())
        },
        get: |o, py| py_obj(py, o.schemes.clone()),
    },
    Keyword {
        name: "any_scheme",
        set: |o, v| {
            o.any_scheme = flag(v)?;
            Ok(())
        },
        get: |o, py| py_obj(py, o.any_scheme),
    },
    Keyword {
        name: "abbrev",
        set: |o, v| {
            o.abbrev = flag(v)?;
            Ok(())
        },
        get: |o, py| py_obj(py, o.abbrev),
    },
    Keyword {
        name: "iri",
        set: |o, v| {
            o.iri = flag(v)?;
            Ok(())
        },
        get: |o, py| py_obj(py, o.iri),
    },
    Keyword {
        name: "mail",
        set: |o, v| {
            o.mail = flag(v)?;
            Ok(())
        },
        get: |o, py| py_obj(py, o.mail),
    },
    Keyword {
        name: "hyphen",
        set: |o, v| {
            o.hyphen = Hyphen::parse(&v.extract::<String>()?)?;
            Ok(())
        },
        get: |o, py| py_obj(py, o.hyphen.name()),
    },
];

/// The keyword named `name`.
pub fn keyword(name: &str) -> Option<&'static Keyword> {
    KEYWORDS.iter().find(|k| k.name == name)
}

impl Options {
    /// The options given as keywords (`None` for none: every default),
    /// checked as the command checks its flags.
    ///
    /// # Errors
    ///
    /// `TypeError` for a keyword that is no option (as Python says it
    /// for any function); `OptionError` with the command's message for a
    /// bad value or a combination the command refuses.
    pub fn from_kwargs(
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Options> {
        let mut o = Options::default();
        for (k, v) in kwargs.into_iter().flat_map(|d| d.iter()) {
            let name = k.extract::<String>()?;
            let Some(kw) = keyword(&name) else {
                return Err(PyTypeError::new_err(format!(
                    "Finder() got an unexpected keyword argument '{name}'"
                )));
            };
            (kw.set)(&mut o, &v)?;
        }
        o.check()?;
        Ok(o)
    }

    /// The combinations the command refuses.
    fn check(&self) -> PyResult<()> {
        if self.any_scheme && self.schemes.is_some() {
            return Err(OptionError::new_err(
                "schemes and any_scheme cannot be used together",
            ));
        }
        if self.iri && self.grammar == Grammar::Rfc2396 {
            return Err(OptionError::new_err(
                "iri cannot be used with grammar rfc2396, which predates \
                 IRIs (use rfc2396bis or rfc3986)",
            ));
        }
        Ok(())
    }

    /// Every option as a dict of keywords, which builds the same options
    /// again.
    ///
    /// # Errors
    ///
    /// Only when Python cannot make the objects.
    pub fn to_kwargs<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for kw in &KEYWORDS {
            d.set_item(kw.name, kw.get(self, py)?)?;
        }
        Ok(d)
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
