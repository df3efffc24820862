//! `Finder.find_arrow`: Arrow arrays in and out through the Arrow C data
//! interface (the PyCapsule protocol, `__arrow_c_array__` and
//! `__arrow_c_stream__`), so pyarrow, Polars, DuckDB, DataFusion and Dask
//! hand their string columns over without a copy and without pandas.
//!
//! Rows are read in place (string, large string, binary, large binary and
//! their view forms), scanned with the GIL released, and the matches of
//! row `i` become list `i` of a `list<struct<uri, start, end, span_start,
//! span_end, context, without_hyphen>>` array, built in Rust and handed
//! back the same way. A null row gives a null list.

use std::ptr::NonNull;
use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::cast::AsArray;
use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::{ArrayStreamReader, FFI_ArrowArrayStream};
use arrow_array::{
    make_array, Array, ArrayRef, Int64Array, ListArray, StructArray,
};
use arrow_buffer::{NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, FieldRef, Fields};
use pyo3::exceptions::{
    PyImportError, PyOverflowError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyList, PyTuple};

use crate::finder::Finder;
use crate::options::Hyphen;

/// The struct fields of every match, in order.
pub const FIELDS: [&str; 7] = [
    "uri",
    "start",
    "end",
    "span_start",
    "span_end",
    "context",
    "without_hyphen",
];

/// The struct type of one match.
fn match_fields() -> Fields {
    Fields::from(vec![
        Field::new(FIELDS[0], DataType::Utf8, false),
        Field::new(FIELDS[1], DataType::Int64, false),
        Field::new(FIELDS[2], DataType::Int64, false),
        Field::new(FIELDS[3], DataType::Int64, false),
        Field::new(FIELDS[4], DataType::Int64, false),
        Field::new(FIELDS[5], DataType::Utf8, false),
        Field::new(FIELDS[6], DataType::Utf8, true),
    ])
}

/// The list's item field.
fn item_field() -> FieldRef {
    Arc::new(Field::new("item", DataType::Struct(match_fields()), false))
}

/// The type of the result, `list<struct<...>>`.
fn result_field() -> Field {
    Field::new("matches", DataType::List(item_field()), true)
}

/// Why a batch could not be scanned, said without the GIL.
enum Fault {
    /// The input's type is not text.
    Type(String),
    /// The result's offsets would overflow.
    Overflow,
}

impl From<Fault> for PyErr {
    fn from(f: Fault) -> PyErr {
        match f {
            Fault::Type(t) => PyTypeError::new_err(format!(
                "find_arrow takes an array of string, large_string, \
                 string_view, binary, large_binary or binary_view, not {t}"
            )),
            Fault::Overflow => PyOverflowError::new_err(
                "the URIs of one array exceed 2 GiB: pass smaller arrays \
                 (or chunks)",
            ),
        }
    }
}

/// Bytes as text: URIs are ASCII, so the fast check almost always
/// passes; anything else is kept readable.
fn text(b: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(b) {
        Ok(s) => s.into(),
        Err(_) => String::from_utf8_lossy(b),
    }
}

/// Builds the result array row by row.
struct Builder {
    hyphen: Hyphen,
    lists: Vec<i32>,
    valid: NullBufferBuilder,
    uri: StringBuilder,
    start: Vec<i64>,
    end: Vec<i64>,
    span_start: Vec<i64>,
    span_end: Vec<i64>,
    context: StringBuilder,
    alt: StringBuilder,
    /// Bytes in `uri` and `alt` so far, to refuse an overflow rather
    /// than panic on it.
    bytes: usize,
}

impl Builder {
    fn new(rows: usize, hyphen: Hyphen) -> Builder {
        let mut lists = Vec::with_capacity(rows + 1);
        lists.push(0);
        Builder {
            hyphen,
            lists,
            valid: NullBufferBuilder::new(rows),
            uri: StringBuilder::new(),
            start: Vec::new(),
            end: Vec::new(),
            span_start: Vec::new(),
            span_end: Vec::new(),
            context: StringBuilder::new(),
            alt: StringBuilder::new(),
            bytes: 0,
        }
    }

    fn null_row(&mut self) {
        self.valid.append_null();
        self.lists.push(self.start.len() as i32);
    }

    fn row(&mut self, f: &Finder, hay: &[u8]) -> Result<(), Fault> {
        let mut fault = None;
        f.each(hay, |m| {
            if fault.is_some() {
                return;
            }
            let uri = self.hyphen.primary(m.uri(), m.without_hyphen());
            let alt = m.without_hyphen();
            self.bytes += uri.len() + alt.map_or(0, <[u8]>::len);
            if self.bytes > i32::MAX as usize
                || self.start.len() >= i32::MAX as usize
            {
                fault = Some(Fault::Overflow);
                return;
            }
            self.uri.append_value(text(uri));
            let (us, sp) = (m.uri_span(), m.span());
            self.start.push(us.start as i64);
            self.end.push(us.end as i64);
            self.span_start.push(sp.start as i64);
            self.span_end.push(sp.end as i64);
            self.context.append_value(m.context().name());
            match alt {
                Some(a) => self.alt.append_value(text(a)),
                None => self.alt.append_null(),
            }
        });
        if let Some(e) = fault {
            return Err(e);
        }
        self.valid.append_non_null();
        self.lists.push(self.start.len() as i32);
        Ok(())
    }

    fn finish(mut self) -> ArrayRef {
        let cols: Vec<ArrayRef> = vec![
            Arc::new(self.uri.finish()),
            Arc::new(Int64Array::from(self.start)),
            Arc::new(Int64Array::from(self.end)),
            Arc::new(Int64Array::from(self.span_start)),
            Arc::new(Int64Array::from(self.span_end)),
            Arc::new(self.context.finish()),
            Arc::new(self.alt.finish()),
        ];
        let items = StructArray::new(match_fields(), cols, None);
        let offsets = OffsetBuffer::new(ScalarBuffer::from(self.lists));
        Arc::new(ListArray::new(
            item_field(),
            offsets,
            Arc::new(items),
            self.valid.finish(),
        ))
    }
}

/// Scans every row of `input` (run without the GIL).
fn scan_array(f: &Finder, input: &dyn Array) -> Result<ArrayRef, Fault> {
    let mut b = Builder::new(input.len(), f.opts.hyphen);
    let mut each = |row: Option<&[u8]>| match row {
        Some(hay) => b.row(f, hay),
        None => {
            b.null_row();
            Ok(())
        }
    };
    macro_rules! rows {
        ($arr:expr) => {{
            let a = $arr;
            for i in 0..a.len() {
                let v: Option<&[u8]> =
                    a.is_valid(i).then(|| a.value(i).as_ref());
                each(v)?;
            }
        }};
    }
    match input.data_type() {
        DataType::Utf8 => rows!(input.as_string::<i32>()),
        DataType::LargeUtf8 => rows!(input.as_string::<i64>()),
        DataType::Utf8View => rows!(input.as_string_view()),
        DataType::Binary => rows!(input.as_binary::<i32>()),
        DataType::LargeBinary => rows!(input.as_binary::<i64>()),
        DataType::BinaryView => rows!(input.as_binary_view()),
        DataType::Null => {
            for _ in 0..input.len() {
                each(None)?;
            }
        }
        other => return Err(Fault::Type(other.to_string())),
    }
    Ok(b.finish())
}

/// Imports one array from an object with `__arrow_c_array__`.
fn import_array(obj: &Bound<'_, PyAny>) -> PyResult<ArrayRef> {
    let pair = obj.call_method0("__arrow_c_array__")?;
    let pair = pair.cast::<PyTuple>()?;
    if pair.len() != 2 {
        return Err(PyValueError::new_err(
            "__arrow_c_array__ must return a tuple of two capsules",
        ));
    }
    let schema_cap = pair.get_item(0)?;
    let array_cap = pair.get_item(1)?;
    let schema_cap = schema_cap.cast::<PyCapsule>()?;
    let array_cap = array_cap.cast::<PyCapsule>()?;
    let schema: NonNull<FFI_ArrowSchema> =
        schema_cap.pointer_checked(Some(c"arrow_schema"))?.cast();
    let array: NonNull<FFI_ArrowArray> =
        array_cap.pointer_checked(Some(c"arrow_array"))?.cast();
    // SAFETY: the capsules are named as the PyCapsule protocol says, so
    // they hold an ArrowSchema and an ArrowArray. The array is moved out
    // (its capsule is left with a released struct, which its destructor
    // skips); the schema is only borrowed while its capsule is alive.
    let data = unsafe {
        let array = FFI_ArrowArray::from_raw(array.as_ptr());
        from_ffi(array, schema.as_ref())
    }
    .map_err(|e| PyValueError::new_err(format!("Arrow import: {e}")))?;
    Ok(make_array(data))
}

/// Imports a stream from an object with `__arrow_c_stream__`.
fn import_stream(obj: &Bound<'_, PyAny>) -> PyResult<ArrayStreamReader> {
    let cap = obj.call_method0("__arrow_c_stream__")?;
    let cap = cap.cast::<PyCapsule>()?;
    let stream: NonNull<FFI_ArrowArrayStream> =
        cap.pointer_checked(Some(c"arrow_array_stream"))?.cast();
    // SAFETY: a capsule named `arrow_array_stream` holds an
    // ArrowArrayStream; it is moved out and the capsule left released.
    unsafe { ArrayStreamReader::from_raw(stream.as_ptr()) }
        .map_err(|e| PyValueError::new_err(format!("Arrow import: {e}")))
}

/// Scans one imported array with the GIL released; the input is dropped
/// back under the GIL, since its producer's release callback may need
/// it.
fn scan_detached(
    py: Python<'_>,
    f: &Finder,
    input: &ArrayRef,
) -> PyResult<ArrayRef> {
    Ok(py.detach(|| scan_array(f, input.as_ref()))?)
}

/// The matches of one array, exported: an Arrow `list<struct>` array
/// behind the PyCapsule protocol (`__arrow_c_array__`,
/// `__arrow_c_schema__`), imported as it is by pyarrow
/// (`pyarrow.array(m)`), Polars, DuckDB, nanoarrow or arro3.
#[pyclass(module = "urifind", frozen)]
pub struct MatchArray {
    array: ArrayRef,
}

#[pymethods]
impl MatchArray {
    /// Exports the schema and the array as two capsules (each call
    /// exports afresh; the buffers are shared, not copied).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        let _ = requested_schema;
        let (array, _) = to_ffi(&self.array.to_data()).map_err(|e| {
            PyValueError::new_err(format!("Arrow export: {e}"))
        })?;
        let schema =
            FFI_ArrowSchema::try_from(result_field()).map_err(|e| {
                PyValueError::new_err(format!("Arrow export: {e}"))
            })?;
        Ok((
            PyCapsule::new_with_value(py, schema, c"arrow_schema")?,
            PyCapsule::new_with_value(py, array, c"arrow_array")?,
        ))
    }

    /// Exports the type as a capsule.
    fn __arrow_c_schema__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let schema =
            FFI_ArrowSchema::try_from(result_field()).map_err(|e| {
                PyValueError::new_err(format!("Arrow export: {e}"))
            })?;
        PyCapsule::new_with_value(py, schema, c"arrow_schema")
    }

    fn __len__(&self) -> usize {
        self.array.len()
    }

    fn __repr__(&self) -> String {
        format!("MatchArray(rows={})", self.array.len())
    }
}

/// `Finder.find_arrow_c`.
pub fn find_arrow_c(
    f: &Finder,
    obj: &Bound<'_, PyAny>,
) -> PyResult<MatchArray> {
    if !obj.hasattr("__arrow_c_array__")? {
        return Err(PyTypeError::new_err(
            "find_arrow_c takes one Arrow array (an object with \
             __arrow_c_array__); use find_arrow for streams and chunked \
             arrays",
        ));
    }
    let input = import_array(obj)?;
    let array = scan_detached(obj.py(), f, &input)?;
    drop(input);
    Ok(MatchArray { array })
}

/// `Finder.find_arrow`: a `pyarrow.Array` for an array, a
/// `pyarrow.ChunkedArray` for a stream.
pub fn find_arrow<'py>(
    f: &Finder,
    obj: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    let is_array = obj.hasattr("__arrow_c_array__")?;
    if !is_array && !obj.hasattr("__arrow_c_stream__")? {
        return Err(PyTypeError::new_err(format!(
            "find_arrow takes an Arrow array or stream (an object with \
             __arrow_c_array__ or __arrow_c_stream__), not {}",
            obj.get_type().name()?
        )));
    }
    let pa = py.import("pyarrow").map_err(|_| {
        PyImportError::new_err(
            "find_arrow returns pyarrow arrays: install pyarrow, or use \
             find_arrow_c, whose result any Arrow library imports",
        )
    })?;
    if is_array {
        let out = find_arrow_c(f, obj)?;
        return pa.call_method1("array", (out,));
    }
    let reader = import_stream(obj)?;
    let chunks = PyList::empty(py);
    for chunk in reader {
        let input = chunk.map_err(|e| {
            PyValueError::new_err(format!("Arrow import: {e}"))
        })?;
        let array = scan_detached(py, f, &input)?;
        drop(input);
        chunks.append(pa.call_method1("array", (MatchArray { array },))?)?;
    }
    let ty = pa
        .call_method1("array", (MatchArray { array: empty_result() },))?
        .getattr("type")?;
    pa.call_method1("chunked_array", (chunks, ty))
}

/// A result of no rows, for the type of an empty stream.
fn empty_result() -> ArrayRef {
    Builder::new(0, Hyphen::Keep).finish()
}
