//! `validate` (the command's `--check` and `--parse`) and `resolve` (its
//! `--resolve BASE`), with the same messages.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use urifind::grammar::Validator;
use urifind::uri::ResolveMode;

use crate::errors::{InvalidURIError, ResolveError};
use crate::finder::{lossy, Text};
use crate::options::grammar_of;

/// What `validate` says of a string: `ok`, and either the components
/// (`scheme`, `authority`, `userinfo`, `host`, `port`, `path`, `query`,
/// `fragment`; `None` when undefined, `""` when empty) or where and why
/// it is not valid (`offset`, the 0-based byte offset of the fault,
/// `reason`, the command's message, and `part`, the component at fault).
/// True in a boolean context when valid.
#[pyclass(module = "urifind", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct Validation {
    ok: bool,
    offset: Option<usize>,
    reason: Option<String>,
    part: Option<&'static str>,
    scheme: Option<String>,
    authority: Option<String>,
    userinfo: Option<String>,
    host: Option<String>,
    port: Option<String>,
    path: Option<String>,
    query: Option<String>,
    fragment: Option<String>,
}

#[pymethods]
impl Validation {
    fn __bool__(&self) -> bool {
        self.ok
    }

    /// The components as a dict (empty when not valid).
    fn components<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        if !self.ok {
            return Ok(d);
        }
        for (k, v) in [
            ("scheme", &self.scheme),
            ("authority", &self.authority),
            ("userinfo", &self.userinfo),
            ("host", &self.host),
            ("port", &self.port),
            ("path", &self.path),
            ("query", &self.query),
            ("fragment", &self.fragment),
        ] {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    fn __repr__(&self) -> String {
        match (&self.reason, self.offset) {
            (Some(r), Some(o)) => {
                format!("Validation(ok=False, offset={o}, reason={r:?})")
            }
            _ => format!(
                "Validation(ok=True, scheme={:?}, path={:?})",
                self.scheme,
                self.path.as_deref().unwrap_or("")
            ),
        }
    }
}

/// Validates `s` (`str` or `bytes`) as a URI reference under `grammar`;
/// `absolute` accepts only absolute URIs, `scheme_rules` applies the host
/// rules of the IP-based schemes on top (as the finder does).
#[pyfunction]
#[pyo3(signature = (s, grammar = "rfc2396bis", absolute = false, scheme_rules = false))]
pub fn validate(
    s: &Bound<'_, PyAny>,
    grammar: &str,
    absolute: bool,
    scheme_rules: bool,
) -> PyResult<Validation> {
    let v = Validator::new(grammar_of(grammar)?)
        .absolute(absolute)
        .scheme_rules(scheme_rules);
    let text = Text::of(s)?;
    let none = Validation {
        ok: false,
        offset: None,
        reason: None,
        part: None,
        scheme: None,
        authority: None,
        userinfo: None,
        host: None,
        port: None,
        path: None,
        query: None,
        fragment: None,
    };
    Ok(match v.validate(text.as_bytes()) {
        Ok(c) => Validation {
            ok: true,
            scheme: c.scheme.map(lossy),
            authority: c.authority.map(lossy),
            userinfo: c.userinfo.map(lossy),
            host: c.host.map(lossy),
            port: c.port.map(lossy),
            path: Some(lossy(c.path)),
            query: c.query.map(lossy),
            fragment: c.fragment.map(lossy),
            ..none
        },
        Err(e) => Validation {
            offset: Some(e.offset()),
            reason: Some(e.message().to_owned()),
            part: Some(e.part().name()),
            ..none
        },
    })
}

/// Resolves the reference `ref` against `base` (section 5.2), as the
/// command's `--resolve`: the base must be an absolute URI and the
/// reference a URI reference under `grammar`; `compat` reads `http:g`
/// the backwards-compatible way; `normalize` returns the section 6 normal
/// form.
///
/// Raises `ResolveError` for a bad base and `InvalidURIError` (with
/// `offset` and `reason`) for a bad reference.
#[pyfunction]
#[pyo3(signature = (base, r#ref, grammar = "rfc2396bis", compat = false, normalize = false))]
pub fn resolve(
    base: &Bound<'_, PyAny>,
    r#ref: &Bound<'_, PyAny>,
    grammar: &str,
    compat: bool,
    normalize: bool,
) -> PyResult<String> {
    let g = grammar_of(grammar)?;
    let base = Text::of(base)?;
    let base = base.as_bytes();
    let reference = Text::of(r#ref)?;
    let reference = reference.as_bytes();
    if let Err(e) = Validator::new(g).absolute(true).validate(base) {
        return Err(ResolveError::new_err(format!(
            "base '{}' is not an absolute URI: {} (at byte {})",
            String::from_utf8_lossy(base),
            e.message(),
            e.offset()
        )));
    }
    if let Err(e) = Validator::new(g).validate(reference) {
        let err = InvalidURIError::new_err(format!(
            "'{}' is not a URI reference: {} (at byte {})",
            String::from_utf8_lossy(reference),
            e.message(),
            e.offset()
        ));
        let v = err.value(r#ref.py());
        v.setattr("offset", e.offset())?;
        v.setattr("reason", e.message())?;
        return Err(err);
    }
    let mode =
        if compat { ResolveMode::Compatible } else { ResolveMode::Strict };
    let r = urifind::uri::resolve(base, reference, mode)
        .map_err(|e| ResolveError::new_err(e.to_string()))?;
    let r = if normalize { urifind::uri::normalize(&r) } else { r };
    Ok(lossy(&r))
}
