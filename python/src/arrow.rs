//! `Finder.find_arrow`: Arrow arrays in and out through the Arrow C data
//! interface (the PyCapsule protocol, `__arrow_c_array__` and
//! `__arrow_c_stream__`), so pyarrow, Polars, DuckDB, DataFusion and Dask
//! hand their string columns over without a copy and without pandas.
//!
//! Rows are read in place (string, large string, binary, large binary and
//! their view forms), scanned with the GIL released, and the matches of
//! row `i` become list `i` of a `list<struct<...>>` array whose struct
//! has one column per field of [`FIELDS`], built in Rust and handed back
//! the same way. A null row gives a null list. Offsets count characters
//! in string rows, bytes in binary rows.

use std::ptr::NonNull;
use std::sync::Arc;

use arrow_array::builder::{Int64Builder, ListBuilder, StringBuilder};
use arrow_array::cast::AsArray;
use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::{ArrayStreamReader, FFI_ArrowArrayStream};
use arrow_array::{
    make_array, new_null_array, Array, ArrayRef, Int64Array, ListArray,
    StructArray,
};
use arrow_buffer::{NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, FieldRef, Fields};
use pyo3::exceptions::{
    PyImportError, PyOverflowError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyList, PyString, PyTuple};

use crate::fields::{self, Kind, Source, Value, FIELDS};
use crate::offsets::{CharOffsets, Unit};
use crate::scan::Scanner;

/// The Arrow type of a field's values, and whether it may be null.
fn arrow_type(kind: Kind) -> (DataType, bool) {
    match kind {
        Kind::Offset | Kind::Int => (DataType::Int64, false),
        Kind::OptInt => (DataType::Int64, true),
        Kind::Str => (DataType::Utf8, false),
        Kind::OptStr => (DataType::Utf8, true),
        Kind::StrList => (
            DataType::List(Arc::new(Field::new("item", DataType::Utf8, true))),
            true,
        ),
    }
}

/// The struct type of a match of the fields `sel` (indexes into
/// [`FIELDS`]).
fn match_fields(sel: &[usize]) -> Fields {
    sel.iter()
        .map(|&i| {
            let (ty, null) = arrow_type(FIELDS[i].kind);
            Field::new(FIELDS[i].name, ty, null)
        })
        .collect()
}

/// The list's item field.
fn item_field(sel: &[usize]) -> FieldRef {
    Arc::new(Field::new("item", DataType::Struct(match_fields(sel)), false))
}

/// The field of a result array, `list<struct<...>>`, from its type.
fn result_field(array: &dyn Array) -> Field {
    Field::new("matches", array.data_type().clone(), true)
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

/// The values of one field, built match by match.
enum Column {
    /// A column with no value yet but `n` nulls: nothing is stored until
    /// its first value, and a column that stays null (the mail fields
    /// outside mail, the link fields on prose) is made in one piece at
    /// the end.
    Nulls(usize),
    /// `Offset` and `Int` fields.
    Int(Vec<i64>),
    /// `OptInt` fields.
    OptInt(Int64Builder),
    /// `Str` and `OptStr` fields.
    Str(StringBuilder),
    /// `StrList` fields.
    List(ListBuilder<StringBuilder>),
}

impl Column {
    fn new(kind: Kind) -> Column {
        match kind {
            Kind::Offset | Kind::Int => Column::Int(Vec::new()),
            Kind::Str => Column::Str(StringBuilder::new()),
            Kind::OptInt | Kind::OptStr | Kind::StrList => Column::Nulls(0),
        }
    }

    /// A builder of `kind` holding `n` nulls.
    fn nulls(kind: Kind, n: usize) -> Column {
        match kind {
            Kind::Offset | Kind::Int => Column::Int(vec![0; n]),
            Kind::OptInt => {
                let mut c = Int64Builder::new();
                c.append_nulls(n);
                Column::OptInt(c)
            }
            Kind::Str | Kind::OptStr => {
                let mut c = StringBuilder::new();
                c.append_nulls(n);
                Column::Str(c)
            }
            Kind::StrList => {
                let mut c = ListBuilder::new(StringBuilder::new());
                for _ in 0..n {
                    c.append(false);
                }
                Column::List(c)
            }
        }
    }

    /// Appends a null.
    fn push_null(&mut self) {
        match self {
            Column::Nulls(n) => *n += 1,
            Column::Int(c) => c.push(0),
            Column::OptInt(c) => c.append_null(),
            Column::Str(c) => c.append_null(),
            Column::List(c) => c.append(false),
        }
    }

    /// Appends `v`, of a field of `kind`; the number of string bytes it
    /// adds.
    fn push(&mut self, kind: Kind, v: Value<'_>) -> usize {
        if let Column::Nulls(n) = *self {
            if v == Value::Null {
                *self = Column::Nulls(n + 1);
                return 0;
            }
            *self = Column::nulls(kind, n);
        }
        match (self, v) {
            (Column::Int(c), Value::Int(i)) => c.push(i),
            (Column::OptInt(c), Value::Int(i)) => c.append_value(i),
            (Column::Str(c), Value::Str(s)) => {
                c.append_value(&s);
                return s.len();
            }
            (Column::List(c), Value::List(l)) => {
                let n = l.iter().map(|s| s.len()).sum();
                for s in l {
                    c.values().append_value(s);
                }
                c.append(true);
                return n;
            }
            (c, _) => c.push_null(),
        }
        0
    }

    fn finish(self, kind: Kind) -> ArrayRef {
        match self {
            Column::Nulls(n) => new_null_array(&arrow_type(kind).0, n),
            Column::Int(c) => Arc::new(Int64Array::from(c)),
            Column::OptInt(mut c) => Arc::new(c.finish()),
            Column::Str(mut c) => Arc::new(c.finish()),
            Column::List(mut c) => Arc::new(c.finish()),
        }
    }
}

/// Builds the result array row by row, one column per selected field.
struct Builder<'s> {
    /// The fields built, as indexes into [`FIELDS`], in order.
    sel: &'s [usize],
    /// Whether a link field is among them (the link analysis is made
    /// only then).
    link: bool,
    lists: Vec<i32>,
    valid: NullBufferBuilder,
    cols: Vec<Column>,
    /// Matches so far.
    len: usize,
    /// String bytes so far, to refuse an overflow rather than panic on
    /// it.
    bytes: usize,
    chars: CharOffsets,
}

impl<'s> Builder<'s> {
    fn new(sel: &'s [usize], rows: usize) -> Builder<'s> {
        let mut lists = Vec::with_capacity(rows + 1);
        lists.push(0);
        Builder {
            sel,
            link: sel.iter().any(|&i| FIELDS[i].from == Source::Link),
            lists,
            valid: NullBufferBuilder::new(rows),
            cols: sel.iter().map(|&i| Column::new(FIELDS[i].kind)).collect(),
            len: 0,
            bytes: 0,
            chars: CharOffsets::default(),
        }
    }

    fn null_row(&mut self) {
        self.valid.append_null();
        self.lists.push(self.len as i32);
    }

    fn row(
        &mut self,
        s: &Scanner,
        hay: &[u8],
        unit: Unit,
    ) -> Result<(), Fault> {
        let first = self.len;
        let mut fault = None;
        s.each(hay, |h| {
            if fault.is_some() {
                return;
            }
            // One look says when every link field is null, as on most
            // URIs: they are not read then.
            let no_link = self.link && h.link().is_empty();
            for (&i, col) in self.sel.iter().zip(&mut self.cols) {
                let f = &FIELDS[i];
                let null = match f.from {
                    Source::Match => false,
                    Source::Mail => h.mail.is_none(),
                    Source::Link => no_link,
                };
                if null {
                    col.push_null();
                } else {
                    self.bytes += col.push(f.kind, (f.read)(h));
                }
            }
            self.len += 1;
            if self.bytes > i32::MAX as usize || self.len >= i32::MAX as usize
            {
                fault = Some(Fault::Overflow);
            }
        });
        if let Some(e) = fault {
            return Err(e);
        }
        if unit == Unit::Chars && self.len > first {
            let mut offsets: Vec<&mut [i64]> = self
                .sel
                .iter()
                .zip(&mut self.cols)
                .filter_map(|(&i, c)| match (FIELDS[i].kind, c) {
                    (Kind::Offset, Column::Int(v)) => Some(&mut v[first..]),
                    _ => None,
                })
                .collect();
            self.chars.convert(hay, &mut offsets);
        }
        self.valid.append_non_null();
        self.lists.push(self.len as i32);
        Ok(())
    }

    fn finish(mut self) -> ArrayRef {
        let cols: Vec<ArrayRef> = self
            .sel
            .iter()
            .zip(self.cols)
            .map(|(&i, c)| c.finish(FIELDS[i].kind))
            .collect();
        let fields = match_fields(self.sel);
        let items = if fields.is_empty() {
            StructArray::new_empty_fields(self.len, None)
        } else {
            StructArray::new(fields, cols, None)
        };
        let offsets = OffsetBuffer::new(ScalarBuffer::from(self.lists));
        Arc::new(ListArray::new(
            item_field(self.sel),
            offsets,
            Arc::new(items),
            self.valid.finish(),
        ))
    }
}

/// Scans every row of `input` (run without the GIL).
fn scan_array(
    s: &Scanner,
    sel: &[usize],
    input: &dyn Array,
) -> Result<ArrayRef, Fault> {
    let mut b = Builder::new(sel, input.len());
    let unit = match input.data_type() {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => {
            Unit::Chars
        }
        _ => Unit::Bytes,
    };
    let mut each = |row: Option<&[u8]>| match row {
        Some(hay) => b.row(s, hay, unit),
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
    s: &Scanner,
    sel: &[usize],
    input: &ArrayRef,
) -> PyResult<ArrayRef> {
    Ok(py.detach(|| scan_array(s, sel, input.as_ref()))?)
}

/// The fields a caller asks for: every field for `None`, else the names
/// of an iterable of strings, in its order.
///
/// # Errors
///
/// `TypeError` for a string (one name is given as a list of one) or an
/// item that is no string; `ValueError` for a name that is no field's
/// or that comes twice.
pub fn selection(fields: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<usize>> {
    let Some(fields) = fields.filter(|f| !f.is_none()) else {
        return Ok((0..FIELDS.len()).collect());
    };
    if fields.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "fields takes a list of field names (fields=[\"uri\"]), not a \
             string",
        ));
    }
    let mut names = Vec::new();
    for item in fields.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "fields takes a list of field names, not {}",
            fields.get_type().name().map_or("?".into(), |n| n.to_string())
        ))
    })? {
        let item = item?;
        let name = item.cast::<PyString>().map_err(|_| {
            PyTypeError::new_err(format!(
                "fields takes field names (strings), not {}",
                item.get_type().name().map_or("?".into(), |n| n.to_string())
            ))
        })?;
        names.push(name.to_cow()?.into_owned());
    }
    fields::select(&names).map_err(PyValueError::new_err)
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
        Ok((
            self.__arrow_c_schema__(py)?,
            PyCapsule::new_with_value(py, array, c"arrow_array")?,
        ))
    }

    /// Exports the type as a capsule.
    fn __arrow_c_schema__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let schema = FFI_ArrowSchema::try_from(result_field(&*self.array))
            .map_err(|e| {
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

/// `Finder.find_arrow_c`: the fields `sel` of the matches.
pub fn find_arrow_c(
    s: &Scanner,
    obj: &Bound<'_, PyAny>,
    sel: &[usize],
) -> PyResult<MatchArray> {
    if !obj.hasattr("__arrow_c_array__")? {
        return Err(PyTypeError::new_err(
            "find_arrow_c takes one Arrow array (an object with \
             __arrow_c_array__); use find_arrow for streams and chunked \
             arrays",
        ));
    }
    let input = import_array(obj)?;
    let array = scan_detached(obj.py(), s, sel, &input)?;
    drop(input);
    Ok(MatchArray { array })
}

/// `Finder.find_arrow`: a `pyarrow.Array` for an array, a
/// `pyarrow.ChunkedArray` for a stream; the fields `sel` of the matches.
pub fn find_arrow<'py>(
    s: &Scanner,
    obj: &Bound<'py, PyAny>,
    sel: &[usize],
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
        let out = find_arrow_c(s, obj, sel)?;
        return pa.call_method1("array", (out,));
    }
    let reader = import_stream(obj)?;
    let chunks = PyList::empty(py);
    for chunk in reader {
        let input = chunk.map_err(|e| {
            PyValueError::new_err(format!("Arrow import: {e}"))
        })?;
        let array = scan_detached(py, s, sel, &input)?;
        drop(input);
        chunks.append(pa.call_method1("array", (MatchArray { array },))?)?;
    }
    let empty = Builder::new(sel, 0).finish();
    let ty = pa
        .call_method1("array", (MatchArray { array: empty },))?
        .getattr("type")?;
    pa.call_method1("chunked_array", (chunks, ty))
}
