//! Searching one input: the library's [`Finder`], built from the
//! configuration, run over an opened input's bytes, each item handed to a
//! sink (the printer, or a holder waiting for its turn to print) together
//! with where inside the input it was found.
//!
//! Plain text is one text, searched whole: a mapped file as one slice,
//! anything else as a stream. An input format made of several texts
//! (recognized by `input::kind`) is split here, each text searched in
//! turn and its items handed on with fields naming it (`printer::Field`).

use std::io;
#[cfg(unix)]
use std::sync::atomic::{AtomicBool, Ordering};

use urifind::scan::Item;
use urifind::Finder;

use crate::config::Config;
use crate::input::{Kind, Opened, Source};
use crate::printer::Field;

/// What went wrong while searching.
pub enum Fail {
    /// Reading the input failed (reported, the run goes on).
    Read(io::Error),
    /// Writing the output failed (the run stops).
    Write(io::Error),
}

/// Receives each item with the place inside the input it came from, and
/// says whether to go on (`false` stops the search of this input).
pub type Sink<'s> = dyn FnMut(&[Field<'_>], Item<'_>) -> io::Result<bool> + 's;

/// The finder for `cfg`'s selection options.
pub fn finder(cfg: &Config) -> Finder {
    let mut b = Finder::builder();
    b.grammar(cfg.grammar)
        .any_scheme(cfg.any_scheme)
        .abbreviated(cfg.abbrev)
        .rejected(cfg.rejected);
    if let Some(s) = &cfg.schemes {
        b.schemes(s);
    }
    if let Some(n) = cfg.max_uri_len {
        b.max_uri_len(n);
    }
    if let Some(n) = cfg.bracket_bound {
        b.bracket_bound(n);
    }
    b.build()
}

/// Whether items need line and column numbers.
pub fn count_lines(cfg: &Config) -> bool {
    cfg.line_number || cfg.column || cfg.json
}

/// Searches `input` (which is not [`Kind::Binary`]), handing each item
/// to `sink`.
///
/// # Errors
///
/// [`Fail::Read`] when reading the input failed (the items before the
/// failure have been handed on), [`Fail::Write`] when `sink` failed.
pub fn search(
    finder: &Finder,
    input: Opened,
    count_lines: bool,
    sink: &mut Sink<'_>,
) -> Result<(), Fail> {
    debug_assert!(input.kind != Kind::Binary);
    match input.source {
        #[cfg(unix)]
        Source::Mapped(map) => {
            // One thread maps pages in ahead while this one searches the
            // file as one slice, in place.
            let stop = AtomicBool::new(false);
            std::thread::scope(|s| {
                s.spawn(|| map.prefault(&stop));
                let items = finder.items(map.bytes()).count_lines(count_lines);
                let res = drain(items.map(Ok), sink);
                stop.store(true, Ordering::Relaxed);
                res
            })
        }
        Source::Reader(rdr, true) => {
            drain(finder.stream_read_ahead(rdr).count_lines(count_lines), sink)
        }
        Source::Reader(rdr, false) => {
            drain(finder.stream(rdr).count_lines(count_lines), sink)
        }
    }
}

/// Hands `items` to `sink`, in order, as found in one plain text.
fn drain<'h>(
    items: impl Iterator<Item = io::Result<Item<'h>>>,
    sink: &mut Sink<'_>,
) -> Result<(), Fail> {
    for item in items {
        let item = item.map_err(Fail::Read)?;
        if !sink(&[], item).map_err(Fail::Write)? {
            break;
        }
    }
    Ok(())
}
