//! `Finder.find_arrow`: Arrow arrays in and out through the Arrow C data
//! interface (the PyCapsule protocol, `__arrow_c_array__` and
//! `__arrow_c_stream__`), so pyarrow, Polars, DuckDB, DataFusion and Dask
//! hand their string columns over without a copy and without pandas.
//!
//! Rows are read in place (string, large string, binary, large binary and
//! their view forms), scanned with the GIL released, and the matches of
//! row `i` become list `i` of a `list<struct<...>>` array whose struct
//! has one column per field of [`FIELDS`] (or per field the caller
//! names, `fields=[...]`, in that order: only those are built), built in
//! Rust and handed back the same way. A null row gives a null list.
//! Offsets count characters in string rows, bytes in binary rows.
//!
//! The columns are built match by match, each value appended to its
//! column's buffers (no buffer of its own for a string, a rejoined URI
//! included): each field's read is inlined where its value is pushed, a
//! column whose values are all null so far stores nothing (and is made
//! in one piece at the end if it stays so), and the columns start with
//! the room the last array's density suggests.

use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use arrow_array::builder::{Int64Builder, ListBuilder, StringBuilder};
use arrow_array::cast::AsArray;
use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::{ArrayStreamReader, FFI_ArrowArrayStream};
use arrow_array::{
    make_array, new_null_array, Array, ArrayRef, Int64Array, ListArray,
    StringArray, StructArray,
};
use arrow_buffer::{Buffer, NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, FieldRef, Fields};
use pyo3::exceptions::{
    PyImportError, PyOverflowError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyList, PyString, PyTuple};

use crate::fields::{
    self, Field as MatchField, Hit, Kind, Source, Value, FIELDS,
};
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

/// A column of strings: the values one after the other in one buffer.
struct StrCol {
    offsets: Vec<i32>,
    data: Vec<u8>,
    nulls: NullBufferBuilder,
}

impl StrCol {
    /// A column with room for the offsets of `cap` values.
    fn with_capacity(cap: usize) -> StrCol {
        let mut offsets = Vec::with_capacity(cap + 1);
        offsets.push(0);
        StrCol { offsets, data: Vec::new(), nulls: NullBufferBuilder::new(0) }
    }

    /// Ends the value appended to `data`. The offset is cut to 32 bits
    /// here; the builder refuses the array when the strings pass 2 GiB.
    #[inline(always)]
    fn end(&mut self) {
        self.offsets.push(self.data.len() as i32);
    }

    #[inline(always)]
    fn push(&mut self, s: &str) {
        self.data.extend_from_slice(s.as_bytes());
        self.end();
        self.nulls.append_non_null();
    }

    #[inline(always)]
    fn push_null(&mut self) {
        self.end();
        self.nulls.append_null();
    }

    /// Appends the bytes `write` appends, as text: bytes that are not
    /// UTF-8 are replaced as `String::from_utf8_lossy` does. The number
    /// of bytes added.
    #[inline(always)]
    fn push_written(&mut self, write: impl FnOnce(&mut Vec<u8>)) -> usize {
        let start = self.data.len();
        write(&mut self.data);
        let new = &self.data[start..];
        if !new.is_ascii() && std::str::from_utf8(new).is_err() {
            let fixed = String::from_utf8_lossy(new).into_owned();
            self.data.truncate(start);
            self.data.extend_from_slice(fixed.as_bytes());
        }
        self.end();
        self.nulls.append_non_null();
        self.data.len() - start
    }

    fn finish(mut self) -> StringArray {
        let offsets = OffsetBuffer::new(ScalarBuffer::from(self.offsets));
        let nulls = self.nulls.finish();
        // SAFETY: `data` only ever grows by the bytes of a `&str` or by
        // bytes checked (or made) UTF-8 above, and an offset is pushed
        // at the end of every value, so the offsets rise from 0 to
        // `data.len()` and each value is UTF-8. The cut to 32 bits wraps
        // only past 2 GiB, where the builder returns an error and this
        // is never called.
        unsafe {
            StringArray::new_unchecked(
                offsets,
                Buffer::from_vec(self.data),
                nulls,
            )
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
    Str(StrCol),
    /// `StrList` fields.
    List(ListBuilder<StringBuilder>),
}

impl Column {
    /// An empty column, with room for `cap` values where it stores any.
    fn new(kind: Kind, cap: usize) -> Column {
        match kind {
            Kind::Offset | Kind::Int => Column::Int(Vec::with_capacity(cap)),
            Kind::Str => Column::Str(StrCol::with_capacity(cap)),
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
                let mut c = StrCol::with_capacity(n);
                for _ in 0..n {
                    c.push_null();
                }
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
    #[inline(always)]
    fn push_null(&mut self) {
        match self {
            Column::Nulls(n) => *n += 1,
            Column::Int(c) => c.push(0),
            Column::OptInt(c) => c.append_null(),
            Column::Str(c) => c.push_null(),
            Column::List(c) => c.append(false),
        }
    }

    /// Appends `v`, of a field of `kind`; the number of string bytes it
    /// adds.
    #[inline(always)]
    fn push(&mut self, kind: Kind, v: Value<'_>) -> usize {
        // The value is matched first, so that where `push` is inlined
        // after a field's read each arm knows its column's work.
        match v {
            Value::Null => {
                self.push_null();
                0
            }
            Value::Int(i) => {
                match self.ready(kind) {
                    Column::Int(c) => c.push(i),
                    Column::OptInt(c) => c.append_value(i),
                    c => c.push_null(),
                }
                0
            }
            Value::Str(s) => match self.ready(kind) {
                Column::Str(c) => {
                    c.push(&s);
                    s.len()
                }
                c => {
                    c.push_null();
                    0
                }
            },
            Value::Uri(m, hyphen) => match self.ready(kind) {
                Column::Str(c) => {
                    c.push_written(|out| fields::write_uri(m, hyphen, out))
                }
                c => {
                    c.push_null();
                    0
                }
            },
            Value::List(l) => match self.ready(kind) {
                Column::List(c) => {
                    let n = l.iter().map(|s| s.len()).sum();
                    for s in l {
                        c.values().append_value(s);
                    }
                    c.append(true);
                    n
                }
                c => {
                    c.push_null();
                    0
                }
            },
        }
    }

    /// The column, made a builder (of `kind`) if it held only nulls.
    #[inline(always)]
    fn ready(&mut self, kind: Kind) -> &mut Column {
        if let Column::Nulls(n) = *self {
            *self = Column::nulls(kind, n);
        }
        self
    }

    fn finish(self, kind: Kind) -> ArrayRef {
        match self {
            Column::Nulls(n) => new_null_array(&arrow_type(kind).0, n),
            Column::Int(c) => Arc::new(Int64Array::from(c)),
            Column::OptInt(mut c) => Arc::new(c.finish()),
            Column::Str(c) => Arc::new(c.finish()),
            Column::List(mut c) => Arc::new(c.finish()),
        }
    }
}

/// Calls `$m!` with the index of every field of [`FIELDS`]: the one
/// list of them, for the code that wants each as a constant.
macro_rules! field_indexes {
    ($m:ident) => {
        $m!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25)
    };
}

/// The number of fields [`field_indexes`] lists.
const INDEXED: usize = {
    macro_rules! count {
        ($($n:literal)*) => { [$($n),*].len() };
    }
    field_indexes!(count)
};

/// Appends the value of `FIELDS[i]` for `h` to `col`; the string bytes
/// it adds. `no_link` says the match's link analysis is empty.
///
/// Each field has an arm of its own, in which `FIELDS[i]` is a constant:
/// its `read` is inlined there and its value goes to the column without
/// passing through memory (read through the function pointer, the value
/// came back on the stack and was loaded from there at once, a stall on
/// every field of every match).
#[inline(always)]
fn push_field(
    i: usize,
    h: &Hit<'_>,
    col: &mut Column,
    no_link: bool,
) -> usize {
    macro_rules! arms {
        ($($n:literal)*) => {
            match i {
                $($n => push_read(&FIELDS[$n], h, col, no_link),)*
                _ => push_read(&FIELDS[i], h, col, no_link),
            }
        };
    }
    field_indexes!(arms)
}

/// Appends every field of `h`, in order, to `cols` (a column per field):
/// [`push_field`] with no choice of arm to make, for the default
/// selection. The string bytes added.
#[inline(always)]
fn push_all(
    h: &Hit<'_>,
    cols: &mut [Column; INDEXED],
    no_link: bool,
) -> usize {
    macro_rules! all {
        ($($n:literal)*) => {
            0 $(+ push_read(&FIELDS[$n], h, &mut cols[$n], no_link))*
        };
    }
    field_indexes!(all)
}

#[inline(always)]
fn push_read(
    f: &MatchField,
    h: &Hit<'_>,
    col: &mut Column,
    no_link: bool,
) -> usize {
    let null = match f.from {
        Source::Match => false,
        Source::Mail => h.mail.is_none(),
        Source::Link => no_link,
    };
    if null {
        col.push_null();
        0
    } else {
        col.push(f.kind, (f.read)(h))
    }
}

/// Builds the result array row by row, one column per selected field.
struct Builder<'s> {
    /// The fields built, as indexes into [`FIELDS`], in order.
    sel: &'s [usize],
    /// Whether a link field is among them (the link analysis is made
    /// only then).
    link: bool,
    /// Whether an offset is among them (only then is a row's text
    /// looked at for characters that are not ASCII).
    offsets: bool,
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
    /// A builder of `rows` rows and about `matches` matches.
    fn new(sel: &'s [usize], rows: usize, matches: usize) -> Builder<'s> {
        let mut lists = Vec::with_capacity(rows + 1);
        lists.push(0);
        Builder {
            sel,
            link: sel.iter().any(|&i| FIELDS[i].from == Source::Link),
            offsets: sel.iter().any(|&i| FIELDS[i].kind == Kind::Offset),
            lists,
            valid: NullBufferBuilder::new(rows),
            cols: sel
                .iter()
                .map(|&i| Column::new(FIELDS[i].kind, matches))
                .collect(),
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
        scratch: &mut urifind::scan::Scanner<'_>,
        hay: &[u8],
        unit: Unit,
    ) -> Result<(), Fault> {
        let first = self.len;
        let mut fault = None;
        // Where the last match ends: no offset lies beyond.
        let mut end = 0;
        // Every field in order: the columns as an array, for `push_all`.
        let is_all = self.sel.len() == INDEXED
            && self.sel.iter().enumerate().all(|(k, &i)| k == i);
        s.each_in(scratch, hay, |h| {
            if fault.is_some() {
                return;
            }
            end = end.max(h.m.span().end);
            // One look says when every link field is null, as on most
            // URIs: they are not read then.
            let no_link = self.link && h.link().is_empty();
            let all: Option<&mut [Column; INDEXED]> = if is_all {
                self.cols.as_mut_slice().try_into().ok()
            } else {
                None
            };
            if let Some(cols) = all {
                self.bytes += push_all(h, cols, no_link);
            } else {
                for (&i, col) in self.sel.iter().zip(&mut self.cols) {
                    self.bytes += push_field(i, h, col, no_link);
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
        if unit == Unit::Chars
            && self.offsets
            && self.len > first
            && !hay[..end.min(hay.len())].is_ascii()
        {
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
    let guess = s.density.guess(input_bytes(input), sel.len());
    let mut b = Builder::new(sel, input.len(), guess);
    let mut text_bytes = 0;
    // One scan for every row, rather than a new one per row.
    let mut scratch = s.scratch();
    let unit = match input.data_type() {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => {
            Unit::Chars
        }
        _ => Unit::Bytes,
    };
    let mut each = |row: Option<&[u8]>| match row {
        Some(hay) => {
            text_bytes += hay.len();
            b.row(s, &mut scratch, hay, unit)
        }
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
    s.density.learn(text_bytes, b.len);
    Ok(b.finish())
}

/// The bytes of `input`'s buffers: about the bytes of its text, for a
/// guess at the size of the result.
fn input_bytes(input: &dyn Array) -> usize {
    input.get_buffer_memory_size()
}

/// How many matches the text scanned last held per byte, kept by the
/// finder to size the columns of the next result: a hint, which never
/// changes the result, and whose guess is held so that the room given
/// to all the columns together (8 bytes a value at most) is at most
/// the size of the text.
#[derive(Default)]
pub struct Density(AtomicU64);

impl Density {
    /// About the number of matches in `bytes` bytes of text, for
    /// `columns` columns.
    fn guess(&self, bytes: usize, columns: usize) -> usize {
        let per_mib = self.0.load(Ordering::Relaxed);
        let n = (bytes as u128 * u128::from(per_mib)) >> 20;
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        n.min(bytes / (8 * columns.max(1)))
    }

    /// Notes `matches` matches in `bytes` bytes of text (texts too short
    /// to tell are not noted).
    fn learn(&self, bytes: usize, matches: usize) {
        if bytes >= 1 << 16 {
            let per_mib = ((matches as u128) << 20) / bytes as u128;
            let per_mib = u64::try_from(per_mib).unwrap_or(u64::MAX);
            self.0.store(per_mib, Ordering::Relaxed);
        }
    }
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
    let empty = Builder::new(sel, 0, 0).finish();
    let ty = pa
        .call_method1("array", (MatchArray { array: empty },))?
        .getattr("type")?;
    pa.call_method1("chunked_array", (chunks, ty))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_density_guess_follows_the_last_text_within_its_bound() {
        let d = Density::default();
        assert_eq!(d.guess(1 << 20, 26), 0);
        d.learn(1 << 20, 1234);
        assert_eq!(d.guess(1 << 21, 26), 2468);
        // A text too short to tell is not noted.
        d.learn(100, 50);
        assert_eq!(d.guess(1 << 20, 1), 1234);
        // Dense text: the room of all columns stays within the text.
        d.learn(1 << 20, 1 << 19);
        assert_eq!(d.guess(1 << 20, 26), (1 << 20) / (8 * 26));
        assert_eq!(d.guess(1 << 20, 0), (1 << 20) / 8);
    }

    #[test]
    fn every_field_has_an_arm_of_its_own() {
        assert_eq!(FIELDS.len(), INDEXED);
    }
}
