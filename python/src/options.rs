//! The `Finder` options as Python passes them (keywords with string
//! values) turned into a [`urifind::FinderBuilder`], whose `build`
//! checks them; its refusals are shown in the command's messages with
//! the keyword's name standing where the command names its flag.
//! [`KEYWORDS`] is the one list of the options.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use pyo3::IntoPyObjectExt;
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
    /// Report URIs whose host a browser reads as an IP address or a
    /// domain (`http://0x7f.1/`), with that host in `host_as_read`.
    pub browser_hosts: bool,
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
            browser_hosts: false,
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
pub static KEYWORDS: [Keyword; 8] = [
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
            o.hyphen = hyphen_of(&v.extract::<String>()?)?;
            Ok(())
        },
        get: |o, py| py_obj(py, o.hyphen.name()),
    },
    Keyword {
        name: "browser_hosts",
        set: |o, v| {
            o.browser_hosts = flag(v)?;
            Ok(())
        },
        get: |o, py| py_obj(py, o.browser_hosts),
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

    /// The library's checks of these options (its refusals in the
    /// keywords' words); scheme names are kept in lower case.
    fn check(&mut self) -> PyResult<()> {
        self.builder().build().map_err(finder_error)?;
        for s in self.schemes.iter_mut().flatten() {
            s.make_ascii_lowercase();
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
        self.builder().build().expect("checked in Options::from_kwargs")
    }

    fn builder(&self) -> FinderBuilder {
        let mut b = Finder::builder();
        b.grammar(self.grammar)
            .any_scheme(self.any_scheme)
            .abbreviated(self.abbrev)
            .iri(self.iri)
            .browser_hosts(self.browser_hosts);
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
