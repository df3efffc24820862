/*!
The native half of the `urifind` Python package: urifind's scanner and
validator behind PyO3, with Arrow arrays in and out through the Arrow C
data interface.

The Python package (`python/urifind/`) re-exports everything here and adds
the Spark integration in pure Python. This crate owns:

* `options.rs`: Python keyword options into a [`urifind::FinderBuilder`],
  with the command's error messages (the one list of the options);
* `scan.rs`: the finders of one set of options run over one text, plain
  or as mail;
* `fields.rs`: the fields of a match (the one list of them);
* `offsets.rs`: byte offsets turned into character offsets;
* `finder.rs`: the `Finder` and `Match` classes (picklable, thread-safe,
  scanning with the GIL released);
* `arrow.rs`: `Finder.find_arrow` over string, large string, binary and
  view arrays (and streams of them), building a `list<struct>` array;
* `uri.rs`: `validate` and `resolve`;
* `mbox.rs`: where the messages of an mbox file start, by the
  library's rule, in a whole file, a window of one or a byte range of
  an uncompressed file read in Rust (for
  `urifind.mbox_source` and `urifind.spark.read_mbox`);
* `errors.rs`: the exception classes.
*/
#![deny(missing_docs)]

use pyo3::prelude::*;

mod arrow;
mod errors;
mod fields;
mod finder;
mod mbox;
mod offsets;
mod options;
mod scan;
mod uri;

/// The `urifind._urifind` extension module.
#[pymodule]
fn _urifind(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<errors::Error>())?;
    m.add("OptionError", py.get_type::<errors::OptionError>())?;
    m.add("ResolveError", py.get_type::<errors::ResolveError>())?;
    m.add("InvalidURIError", py.get_type::<errors::InvalidURIError>())?;
    m.add_class::<finder::Finder>()?;
    m.add_class::<finder::Match>()?;
    m.add_class::<uri::Validation>()?;
    m.add_class::<arrow::MatchArray>()?;
    m.add_function(wrap_pyfunction!(uri::validate, m)?)?;
    m.add_function(wrap_pyfunction!(uri::resolve, m)?)?;
    m.add_function(wrap_pyfunction!(mbox::mbox_starts, m)?)?;
    m.add_function(wrap_pyfunction!(mbox::mbox_window_starts, m)?)?;
    m.add_function(wrap_pyfunction!(mbox::mbox_file_batches, m)?)?;
    m.add_function(wrap_pyfunction!(mbox::mbox_file_count, m)?)?;
    let names =
        |it: &mut dyn Iterator<Item = &'static str>| it.collect::<Vec<_>>();
    m.add("MATCH_FIELDS", names(&mut fields::FIELDS.iter().map(|f| f.name)))?;
    m.add(
        "FINDER_OPTIONS",
        names(&mut options::KEYWORDS.iter().map(|k| k.name)),
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
