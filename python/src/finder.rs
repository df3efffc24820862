//! The `Finder` and `Match` classes: one finder built from keyword
//! options, shared by any number of threads, scanning `str` or `bytes`
//! with the GIL released, and pickled as its options (so Spark can ship
//! it to executors, where it is rebuilt once). A `Match` holds the
//! values of [`FIELDS`], read as attributes.

use pyo3::exceptions::{PyAttributeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};

use crate::arrow;
use crate::fields::{self, Kind, Value, FIELDS};
use crate::offsets::{CharOffsets, Unit};
use crate::options::{keyword, Hyphen, Options, KEYWORDS};
use crate::scan::Scanner;

/// The text a scan reads: a `bytes` object borrowed as it is, the UTF-8
/// encoding of a `str`, or a copy of other bytes.
pub enum Text<'py> {
    /// Borrowed from an immutable `bytes` object.
    Bytes(Bound<'py, PyBytes>),
    /// A `str`, encoded.
    Str(Vec<u8>),
    /// Copied from a `bytearray` or a buffer.
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
            Ok(Text::Str(s.to_cow()?.into_owned().into_bytes()))
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
            Text::Str(v) | Text::Owned(v) => v,
        }
    }

    /// What offsets into it count: the characters of a `str`, else
    /// bytes.
    pub fn unit(&self) -> Unit {
        match self {
            Text::Str(_) => Unit::Chars,
            _ => Unit::Bytes,
        }
    }
}

/// Text from bytes that are almost always ASCII (URIs), kept readable
/// when they are not.
pub fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Python's `repr` of an object.
fn py_repr(v: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(v.repr()?.to_cow()?.into_owned())
}

/// A value as a Python object.
fn to_py<'py>(py: Python<'py>, v: &Value<'_>) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Int(i) => i.into_pyobject(py)?.into_any(),
        Value::Str(s) => PyString::new(py, s).into_any(),
        Value::Uri(m, hyphen) => {
            PyString::new(py, &fields::uri_text(m, *hyphen)).into_any()
        }
        Value::List(l) => {
            PyList::new(py, l.iter().map(|s| s.as_ref()))?.into_any()
        }
        Value::Null => py.None().into_bound(py),
    })
}

/// A Python object as the value of a field of kind `kind`.
fn from_py(
    kind: Kind,
    name: &str,
    v: &Bound<'_, PyAny>,
) -> PyResult<Value<'static>> {
    let optional = matches!(kind, Kind::OptInt | Kind::OptStr | Kind::StrList);
    if v.is_none() {
        return if optional {
            Ok(Value::Null)
        } else {
            Err(PyTypeError::new_err(format!(
                "Match field {name} cannot be None"
            )))
        };
    }
    Ok(match kind {
        Kind::Offset | Kind::Int | Kind::OptInt => Value::Int(v.extract()?),
        Kind::Str | Kind::OptStr => Value::Str(v.extract::<String>()?.into()),
        Kind::StrList => Value::List(
            v.extract::<Vec<String>>()?.into_iter().map(Into::into).collect(),
        ),
    })
}

/// A URI found in text, with the fields of `urifind.MATCH_FIELDS` as
/// attributes.
///
/// `uri` is the URI as reported (delimiters and line-break whitespace
/// removed). `start` and `end` are the offsets of its first and past its
/// last character in the input, `span_start` and `span_end` those of the
/// whole match, delimiters included: character offsets into a `str`
/// (`text[m.start:m.end]`), byte offsets into `bytes`; `byte_start`,
/// `byte_end`, `byte_span_start` and `byte_span_end` are always byte
/// offsets (into the UTF-8 encoding of a `str`). `context` says where the
/// URI was found (`text` outside mail; in a message `header:NAME`,
/// `text`, `html-href`, `html-text`) and `delimiter` how it was delimited
/// (`angle`, `url-prefixed`, `quoted`, `bare`, `abbreviated`, `paired`).
/// `without_hyphen` is the form without the hyphen when a hyphen stood at
/// a line break inside it. In mail mode `message` (from 1),
/// `message_id`, `part`, `content_type`, `encoding`, `shown` (the URI a
/// link's visible text shows, when it differs) and `parts_seen` say
/// where in which message; outside mail they are `None`. Where the link
/// leads, as the finder's link analysis reads the URI: `target` (a
/// wrapper's innermost target), `wrappers` (the formats unwrapped,
/// outermost first), `unwrap` (`decoded`, `opaque`, ...), `target_host`,
/// `embedded` (links inside the query), `host_as_read` (the host as a
/// browser reads it, when written otherwise) and `flags`; `None` where
/// they do not apply, an empty list included.
#[pyclass(module = "urifind", frozen, eq)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    /// The value of each of [`FIELDS`], in order.
    values: Vec<Value<'static>>,
}

impl Match {
    /// The matches of `text`, offsets in `unit`.
    fn all(s: &Scanner, text: &[u8], unit: Unit) -> Vec<Match> {
        let mut out = Vec::new();
        s.each(text, |h| {
            let values =
                FIELDS.iter().map(|f| (f.read)(h).into_owned()).collect();
            out.push(Match { values });
        });
        if unit == Unit::Chars && !text.is_ascii() {
            to_chars(text, &mut out);
        }
        out
    }
}

/// The `Offset` fields of `ms` turned into character offsets into `text`.
fn to_chars(text: &[u8], ms: &mut [Match]) {
    let offset_fields: Vec<usize> = (0..FIELDS.len())
        .filter(|&i| FIELDS[i].kind == Kind::Offset)
        .collect();
    let int = |v: &Value<'_>| if let Value::Int(i) = v { *i } else { 0 };
    let mut cols: Vec<Vec<i64>> = offset_fields
        .iter()
        .map(|&f| ms.iter().map(|m| int(&m.values[f])).collect())
        .collect();
    let mut slices: Vec<&mut [i64]> =
        cols.iter_mut().map(|c| &mut c[..]).collect();
    CharOffsets::default().convert(text, &mut slices);
    for (&f, col) in offset_fields.iter().zip(&cols) {
        for (m, &v) in ms.iter_mut().zip(col) {
            m.values[f] = Value::Int(v);
        }
    }
}

#[pymethods]
impl Match {
    /// A match of the given fields, by position in `MATCH_FIELDS` or by
    /// name; the optional ones (`None` when not given) may be left out.
    #[new]
    #[pyo3(signature = (*args, **kwargs))]
    fn new(
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Match> {
        if args.len() > FIELDS.len() {
            return Err(PyTypeError::new_err(format!(
                "Match() takes at most {} positional arguments ({} given)",
                FIELDS.len(),
                args.len()
            )));
        }
        let mut given: Vec<Option<Bound<'_, PyAny>>> =
            vec![None; FIELDS.len()];
        for (i, v) in args.iter().enumerate() {
            given[i] = Some(v);
        }
        for (k, v) in kwargs.into_iter().flat_map(|d| d.iter()) {
            let name = k.extract::<String>()?;
            let Some(i) = fields::index(&name) else {
                return Err(PyTypeError::new_err(format!(
                    "Match() got an unexpected keyword argument '{name}'"
                )));
            };
            if given[i].is_some() {
                return Err(PyTypeError::new_err(format!(
                    "Match() got multiple values for argument '{name}'"
                )));
            }
            given[i] = Some(v);
        }
        let values = FIELDS
            .iter()
            .zip(&given)
            .map(|(f, g)| match g {
                Some(v) => from_py(f.kind, f.name, v),
                None => from_py(
                    f.kind,
                    f.name,
                    &args.py().None().into_bound(args.py()),
                ),
            })
            .collect::<PyResult<_>>()?;
        Ok(Match { values })
    }

    fn __getattr__<'py>(
        &self,
        py: Python<'py>,
        name: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        match fields::index(name) {
            Some(i) => to_py(py, &self.values[i]),
            None => Err(PyAttributeError::new_err(format!(
                "'Match' object has no attribute '{name}'"
            ))),
        }
    }

    fn __dir__(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> =
            FIELDS.iter().map(|f| f.name).collect();
        names.extend(["span", "to_dict"]);
        names
    }

    /// `(span_start, span_end)`.
    #[getter]
    fn span<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        Ok((
            self.__getattr__(py, "span_start")?,
            self.__getattr__(py, "span_end")?,
        ))
    }

    /// The fields as a dict, keyed as the fields of `find_arrow`'s
    /// structs.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (f, v) in FIELDS.iter().zip(&self.values) {
            d.set_item(f.name, to_py(py, v)?)?;
        }
        Ok(d)
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let values = slf
            .get()
            .values
            .iter()
            .map(|v| to_py(py, v))
            .collect::<PyResult<Vec<_>>>()?;
        Ok((slf.get_type().into_any(), PyTuple::new(py, values)?))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut parts = Vec::new();
        for (f, v) in FIELDS.iter().zip(&self.values) {
            let shown = matches!(
                f.name,
                "uri" | "start" | "end" | "context" | "delimiter"
            );
            if shown || (*v != Value::Null && f.kind != Kind::Int) {
                parts.push(format!("{}={}", f.name, py_repr(&to_py(py, v)?)?));
            }
        }
        Ok(format!("Match({})", parts.join(", ")))
    }
}

/// Finds URIs in text; build once, use from any number of threads.
///
/// Options (keywords; `urifind.FINDER_OPTIONS` lists them) are the
/// command's: `grammar` (`rfc2396bis`, `rfc2396`, `rfc3986`), `schemes`
/// (accepted schemes, a list or a comma-separated string), `any_scheme`,
/// `abbrev` (abbreviated URIs like `www.example.com/x`), `iri`, `mail`,
/// `hyphen` (`keep`, `drop`, `both`: which form of a URI with a
/// hyphen at a line break is reported as `uri`; `both` makes `find_uris`
/// list both) and `browser_hosts` (also find URIs whose host a browser
/// reads as an IP address or a domain, `http://0x7f.1/`). Each is an
/// attribute of the finder.
#[pyclass(module = "urifind", frozen)]
pub struct Finder {
    pub(crate) scan: Scanner,
}

impl Finder {
    fn opts(&self) -> &Options {
        &self.scan.opts
    }
}

#[pymethods]
impl Finder {
    #[new]
    #[pyo3(signature = (**options))]
    fn new(options: Option<&Bound<'_, PyDict>>) -> PyResult<Finder> {
        Ok(Finder { scan: Scanner::new(Options::from_kwargs(options)?) })
    }

    /// The URIs in `text` (`str` or `bytes`) as `Match` objects, in
    /// order; offsets count the characters of a `str`, the bytes of
    /// `bytes`.
    fn find(
        &self,
        py: Python<'_>,
        text: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<Match>> {
        let text = Text::of(text)?;
        let (hay, unit) = (text.as_bytes(), text.unit());
        Ok(py.detach(|| Match::all(&self.scan, hay, unit)))
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
        let hay = text.as_bytes();
        let found = py.detach(|| {
            let mut v = Vec::new();
            self.scan.each(hay, |h| {
                let m = h.m;
                v.push(lossy(h.hyphen.primary(m.uri(), m.without_hyphen())));
                if let (Hyphen::Both, Some(alt)) =
                    (h.hyphen, m.without_hyphen())
                {
                    v.push(lossy(alt));
                }
            });
            v
        });
        PyList::new(py, found)
    }

    /// The matches of every row of an Arrow array of strings or binaries
    /// (any object with `__arrow_c_array__`, or a stream of them with
    /// `__arrow_c_stream__`), as a `pyarrow` `list<struct>` array (a
    /// `ChunkedArray` for a stream), null rows giving null lists. The
    /// struct fields are those of `Match`, or those named in `fields`
    /// (a list of names of `MATCH_FIELDS`, in the order wanted), which
    /// costs only what those fields cost; offsets count characters in
    /// string arrays, bytes in binary arrays.
    #[pyo3(signature = (array, fields = None))]
    fn find_arrow<'py>(
        &self,
        array: &Bound<'py, PyAny>,
        fields: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        arrow::find_arrow(&self.scan, array, &arrow::selection(fields)?)
    }

    /// Like `find_arrow`, for one array, without `pyarrow`: the result
    /// is an object with `__arrow_c_array__` and `__arrow_c_schema__`
    /// that any Arrow library imports (Polars, DuckDB, nanoarrow, arro3).
    #[pyo3(signature = (array, fields = None))]
    fn find_arrow_c(
        &self,
        array: &Bound<'_, PyAny>,
        fields: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<arrow::MatchArray> {
        arrow::find_arrow_c(&self.scan, array, &arrow::selection(fields)?)
    }

    fn __getattr__<'py>(
        &self,
        py: Python<'py>,
        name: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        match keyword(name) {
            Some(kw) => kw.get(self.opts(), py),
            None => Err(PyAttributeError::new_err(format!(
                "'Finder' object has no attribute '{name}'"
            ))),
        }
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Finder>() {
            Ok(o) => o.get().opts() == self.opts(),
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let mut h = DefaultHasher::new();
        format!("{:?}", self.opts()).hash(&mut h);
        h.finish()
    }

    /// Pickled as its options: `copyreg.__newobj_ex__(Finder, (),
    /// options)` builds it again.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let newobj = py.import("copyreg")?.getattr("__newobj_ex__")?;
        let kwargs = slf.get().opts().to_kwargs(py)?;
        let args =
            (slf.get_type(), PyTuple::empty(py), kwargs).into_pyobject(py)?;
        Ok((newobj, args))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut parts = Vec::new();
        for kw in &KEYWORDS {
            parts.push(format!(
                "{}={}",
                kw.name,
                py_repr(&kw.get(self.opts(), py)?)?
            ));
        }
        Ok(format!("Finder({})", parts.join(", ")))
    }
}
