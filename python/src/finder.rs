//! The `Finder` and `Match` classes: one finder built from keyword
//! options, shared by any number of threads, scanning `str` or `bytes`
//! with the GIL released, and pickled as its options (so Spark can ship
//! it to executors, where it is rebuilt once).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};

use urifind::mail::{MailFinder, Messages};

use crate::arrow;
use crate::options::{Hyphen, Options};

/// The text a scan reads: a `bytes` object borrowed as it is, or the
/// UTF-8 encoding of a `str` (offsets count its bytes).
pub enum Text<'py> {
    /// Borrowed from an immutable `bytes` object.
    Bytes(Bound<'py, PyBytes>),
    /// Encoded or copied.
    Owned(Vec<u8>),
}

impl<'py> Text<'py> {
    /// Reads `str`, `bytes`, `bytearray` or `memoryview`.
    ///
    /// # Errors
    ///
    /// `TypeError` for anything else; `UnicodeEncodeError` for a `str`
    /// with lone surrogates.
    pub fn of(obj: &Bound<'py, PyAny>) -> PyResult<Text<'py>> {
        if let Ok(b) = obj.cast::<PyBytes>() {
            Ok(Text::Bytes(b.clone()))
        } else if let Ok(s) = obj.cast::<PyString>() {
            Ok(Text::Owned(s.to_cow()?.into_owned().into_bytes()))
        } else if let Ok(b) = obj.cast::<PyByteArray>() {
            Ok(Text::Owned(b.to_vec()))
        } else if let Ok(v) = obj.extract::<Vec<u8>>() {
            Ok(Text::Owned(v))
        } else {
            Err(PyTypeError::new_err(format!(
                "text must be str or bytes, not {}",
                obj.get_type().name()?
            )))
        }
    }

    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Text::Bytes(b) => b.as_bytes(),
            Text::Owned(v) => v,
        }
    }
}

/// Text from bytes that are almost always ASCII (URIs), kept readable
/// when they are not.
pub fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Python's `repr` of a string.
fn py_repr(py: Python<'_>, s: &str) -> PyResult<String> {
    Ok(PyString::new(py, s).repr()?.to_cow()?.into_owned())
}

/// A URI found in text.
///
/// `uri` is the URI as reported (delimiters and line-break whitespace
/// removed); `start` and `end` are the byte offsets of its first and past
/// its last byte in the input (in the UTF-8 encoding of a `str`);
/// `span_start` and `span_end` cover the whole match, delimiters
/// included; `context` says how it was delimited (`angle`,
/// `url-prefixed`, `quoted`, `bare`, `abbreviated`); `without_hyphen` is
/// the form without the hyphen when a hyphen stood at a line break inside
/// it, else `None`.
#[pyclass(module = "urifind", frozen, eq)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    #[pyo3(get)]
    uri: String,
    #[pyo3(get)]
    start: usize,
    #[pyo3(get)]
    end: usize,
    #[pyo3(get)]
    span_start: usize,
    #[pyo3(get)]
    span_end: usize,
    #[pyo3(get)]
    context: String,
    #[pyo3(get)]
    without_hyphen: Option<String>,
}

impl Match {
    fn of(m: &urifind::Match<'_>, hyphen: Hyphen) -> Match {
        let uri = hyphen.primary(m.uri(), m.without_hyphen());
        Match {
            uri: lossy(uri),
            start: m.uri_span().start,
            end: m.uri_span().end,
            span_start: m.span().start,
            span_end: m.span().end,
            context: m.context().name().to_owned(),
            without_hyphen: m.without_hyphen().map(lossy),
        }
    }
}

#[pymethods]
impl Match {
    #[new]
    #[pyo3(signature = (uri, start, end, span_start, span_end, context, without_hyphen=None))]
    fn new(
        uri: String,
        start: usize,
        end: usize,
        span_start: usize,
        span_end: usize,
        context: String,
        without_hyphen: Option<String>,
    ) -> Match {
        Match {
            uri,
            start,
            end,
            span_start,
            span_end,
            context,
            without_hyphen,
        }
    }

    /// `(span_start, span_end)`.
    #[getter]
    fn span(&self) -> (usize, usize) {
        (self.span_start, self.span_end)
    }

    /// The fields as a dict, keyed as the fields of `find_arrow`'s
    /// structs.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("uri", &self.uri)?;
        d.set_item("start", self.start)?;
        d.set_item("end", self.end)?;
        d.set_item("span_start", self.span_start)?;
        d.set_item("span_end", self.span_end)?;
        d.set_item("context", &self.context)?;
        d.set_item("without_hyphen", &self.without_hyphen)?;
        Ok(d)
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let m = slf.get();
        let args = (
            m.uri.clone(),
            m.start,
            m.end,
            m.span_start,
            m.span_end,
            m.context.clone(),
            m.without_hyphen.clone(),
        )
            .into_pyobject(slf.py())?;
        Ok((slf.get_type().into_any(), args))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let alt = match &self.without_hyphen {
            Some(a) => format!(", without_hyphen={}", py_repr(py, a)?),
            None => String::new(),
        };
        Ok(format!(
            "Match(uri={}, start={}, end={}, context={}{alt})",
            py_repr(py, &self.uri)?,
            self.start,
            self.end,
            py_repr(py, &self.context)?
        ))
    }
}

/// Finds URIs in text; build once, use from any number of threads.
///
/// Options are the command's: `grammar` (`rfc2396bis`, `rfc2396`,
/// `rfc3986`), `schemes` (accepted schemes, a list or a comma-separated
/// string), `any_scheme`, `abbrev` (abbreviated URIs like
/// `www.example.com/x`), `iri`, `mail`, and `hyphen` (`keep`, `drop`,
/// `both`: which form of a URI with a hyphen at a line break is reported
/// as `uri`; `both` makes `find_uris` list both).
#[pyclass(module = "urifind", frozen)]
pub struct Finder {
    pub(crate) opts: Options,
    pub(crate) inner: urifind::Finder,
    pub(crate) mail: Option<MailFinder>,
}

impl Finder {
    /// Calls `f` on every match in `hay`, in order: the plain scan, or
    /// with `mail`, each message of `hay` (an mbox or one message) read
    /// as a mail reader shows it, offsets into `hay`.
    pub(crate) fn each(
        &self,
        hay: &[u8],
        mut f: impl FnMut(&urifind::Match<'_>),
    ) {
        match &self.mail {
            None => self.inner.find_iter(hay).for_each(|m| f(&m)),
            Some(mf) => {
                for msg in Messages::new(hay) {
                    // Reading from a slice cannot fail.
                    let Ok(msg) = msg else { break };
                    msg.matches(mf).for_each(|m| f(m.as_match()));
                }
            }
        }
    }

    /// The matches in `hay`, owned, scanned without the GIL.
    fn scan(
        &self,
        py: Python<'_>,
        hay: &[u8],
    ) -> Vec<urifind::Match<'static>> {
        py.detach(|| {
            let mut v = Vec::new();
            self.each(hay, |m| v.push(m.clone().into_owned()));
            v
        })
    }
}

#[pymethods]
impl Finder {
    #[new]
    #[pyo3(signature = (
        grammar = "rfc2396bis",
        schemes = None,
        any_scheme = false,
        abbrev = false,
        iri = false,
        mail = false,
        hyphen = "keep",
    ))]
    fn new(
        grammar: &str,
        schemes: Option<&Bound<'_, PyAny>>,
        any_scheme: bool,
        abbrev: bool,
        iri: bool,
        mail: bool,
        hyphen: &str,
    ) -> PyResult<Finder> {
        let opts = Options::new(
            grammar, schemes, any_scheme, abbrev, iri, mail, hyphen,
        )?;
        let inner = opts.build();
        let mail = opts.build_mail();
        Ok(Finder { opts, inner, mail })
    }

    /// The URIs in `text` (`str` or `bytes`) as `Match` objects, in order.
    fn find(
        &self,
        py: Python<'_>,
        text: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<Match>> {
        let text = Text::of(text)?;
        let found = self.scan(py, text.as_bytes());
        let h = self.opts.hyphen;
        Ok(found.iter().map(|m| Match::of(m, h)).collect())
    }

    /// The URIs in `text` as strings, as the command prints them (with
    /// `hyphen="both"`, a hyphenated URI is followed by its form without
    /// the hyphen).
    fn find_uris<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let text = Text::of(text)?;
        let found = self.scan(py, text.as_bytes());
        let h = self.opts.hyphen;
        let out = PyList::empty(py);
        for m in &found {
            let uri = h.primary(m.uri(), m.without_hyphen());
            out.append(PyString::new(py, &String::from_utf8_lossy(uri)))?;
            if let (Hyphen::Both, Some(alt)) = (h, m.without_hyphen()) {
                out.append(PyString::new(py, &String::from_utf8_lossy(alt)))?;
            }
        }
        Ok(out)
    }

    /// The matches of every row of an Arrow array of strings or binaries
    /// (any object with `__arrow_c_array__`, or a stream of them with
    /// `__arrow_c_stream__`), as a `pyarrow` `list<struct>` array (a
    /// `ChunkedArray` for a stream), null rows giving null lists. The
    /// struct fields are those of `Match`.
    fn find_arrow<'py>(
        slf: &Bound<'py, Self>,
        array: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        arrow::find_arrow(slf.get(), array)
    }

    /// Like `find_arrow`, for one array, without `pyarrow`: the result
    /// is an object with `__arrow_c_array__` and `__arrow_c_schema__`
    /// that any Arrow library imports (Polars, DuckDB, nanoarrow, arro3).
    fn find_arrow_c(
        &self,
        array: &Bound<'_, PyAny>,
    ) -> PyResult<arrow::MatchArray> {
        arrow::find_arrow_c(self, array)
    }

    #[getter]
    fn grammar(&self) -> &'static str {
        self.opts.grammar.name()
    }

    #[getter]
    fn schemes(&self) -> Option<Vec<String>> {
        self.opts.schemes.clone()
    }

    #[getter]
    fn any_scheme(&self) -> bool {
        self.opts.any_scheme
    }

    #[getter]
    fn abbrev(&self) -> bool {
        self.opts.abbrev
    }

    #[getter]
    fn iri(&self) -> bool {
        self.opts.iri
    }

    #[getter]
    fn mail(&self) -> bool {
        self.opts.mail
    }

    #[getter]
    fn hyphen(&self) -> &'static str {
        self.opts.hyphen.name()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Finder>() {
            Ok(o) => o.get().opts == self.opts,
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let mut h = DefaultHasher::new();
        format!("{:?}", self.opts).hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let o = &slf.get().opts;
        let args = (
            o.grammar.name(),
            o.schemes.clone(),
            o.any_scheme,
            o.abbrev,
            o.iri,
            o.mail,
            o.hyphen.name(),
        )
            .into_pyobject(slf.py())?;
        Ok((slf.get_type().into_any(), args))
    }

    fn __repr__(&self) -> String {
        let o = &self.opts;
        let schemes = match &o.schemes {
            Some(s) => {
                let names: Vec<String> =
                    s.iter().map(|n| format!("'{n}'")).collect();
                format!("[{}]", names.join(", "))
            }
            None => "None".into(),
        };
        let py_bool = |b: bool| if b { "True" } else { "False" };
        format!(
            "Finder(grammar='{}', schemes={schemes}, any_scheme={}, \
             abbrev={}, iri={}, mail={}, hyphen='{}')",
            o.grammar.name(),
            py_bool(o.any_scheme),
            py_bool(o.abbrev),
            py_bool(o.iri),
            py_bool(o.mail),
            o.hyphen.name()
        )
    }
}
