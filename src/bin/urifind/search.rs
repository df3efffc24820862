//! Searching one input: the library's [`Finder`], built from the
//! configuration, run over an opened input's bytes, each item handed to a
//! sink (the printer, or a holder waiting for its turn to print) together
//! with where inside the input it was found.
//!
//! Plain text is one text, searched whole: a mapped file as one slice,
//! anything else as a stream. Mail (an mbox or a message, recognized by
//! `input::kind`) is split here into messages by the library's
//! [`Messages`], each read with a [`MailFinder`]; its items reach the
//! sink with fields naming where in the mail they were found
//! (`printer::Field`), and offsets in the raw input.

use std::io::{self, Read};
#[cfg(unix)]
use std::sync::atomic::{AtomicBool, Ordering};

use urifind::mail::{MailFinder, MailItem, Messages, Origin};
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
pub type Sink<'s> =
    dyn FnMut(&[Field<'_>], &Item<'_>) -> io::Result<bool> + 's;

/// The finder for `cfg`'s selection and mail options.
pub fn finder(cfg: &Config) -> MailFinder {
    MailFinder::new(text_finder(cfg)).html_resources(cfg.html_resources)
}

/// The finder for `cfg`'s selection options.
fn text_finder(cfg: &Config) -> Finder {
    let mut b = Finder::builder();
    b.grammar(cfg.grammar)
        .any_scheme(cfg.any_scheme)
        .abbreviated(cfg.abbrev)
        .iri(cfg.iri)
        .browser_hosts(cfg.browser_hosts)
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
/// to `sink`. In mail, notes on broken mail go to stderr under the
/// input's name when `notes` holds it (a message over the size limit is
/// always reported).
///
/// # Errors
///
/// [`Fail::Read`] when reading the input failed (the items before the
/// failure have been handed on), [`Fail::Write`] when `sink` failed.
pub fn search(
    mf: &MailFinder,
    input: Opened,
    count_lines: bool,
    notes: (&[u8], bool),
    sink: &mut Sink<'_>,
) -> Result<(), Fail> {
    debug_assert!(input.kind != Kind::Binary);
    let finder = mf.finder();
    if input.kind == Kind::Mail {
        return match input.source {
            #[cfg(unix)]
            Source::Mapped(map) => {
                let msgs = Messages::new(map.bytes());
                mail(mf, msgs.count_lines(count_lines), notes, sink)
            }
            Source::Reader(rdr, _) => {
                let msgs = Messages::new(rdr);
                mail(mf, msgs.count_lines(count_lines), notes, sink)
            }
        };
    }
    match input.source {
        #[cfg(unix)]
        Source::Mapped(map) => {
            // One thread maps pages in ahead while this one searches the
            // file as one slice, in place.
            let stop = AtomicBool::new(false);
            std::thread::scope(|s| {
                s.spawn(|| map.prefault(0, &stop));
                let items = finder.items(map.bytes()).count_lines(count_lines);
                let res = drain_slice(items, sink);
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

/// The fields naming where in a message an item was found.
fn place(origin: &Origin, context: String) -> Vec<(&'static str, Vec<u8>)> {
    let mut f = vec![
        ("message", origin.message().to_string().into_bytes()),
        ("part", origin.part().as_bytes().to_vec()),
        ("content_type", origin.content_type().as_bytes().to_vec()),
        ("encoding", origin.encoding().as_bytes().to_vec()),
        ("context", context.into_bytes()),
    ];
    if let Some(id) = origin.message_id() {
        f.insert(1, ("message_id", id.as_bytes().to_vec()));
    }
    f
}

/// Reads every message of `msgs`, handing each item to `sink`.
fn mail<R: Read>(
    mf: &MailFinder,
    msgs: Messages<R>,
    (name, notes): (&[u8], bool),
    sink: &mut Sink<'_>,
) -> Result<(), Fail> {
    for msg in msgs {
        let msg = msg.map_err(Fail::Read)?;
        for item in msg.items(mf) {
            let (mut fields, item) = match item {
                MailItem::Match(m) => {
                    let mut f = place(m.origin(), m.context().name());
                    if let Some(s) = m.shown() {
                        f.push(("shown", s.to_vec()));
                    }
                    if !m.parts_seen().is_empty() {
                        f.push((
                            "parts_seen",
                            m.parts_seen().join(",").into_bytes(),
                        ));
                    }
                    (f, Item::Match(m.into_match()))
                }
                MailItem::Rejected(r) => {
                    let f = place(r.origin(), r.context().name());
                    (f, Item::Rejected(r.into_rejected()))
                }
                MailItem::Note(n) => {
                    if notes || msg.skipped().is_some() {
                        let o = n.origin();
                        let mut what = format!("message {}", o.message());
                        if !o.part().is_empty() {
                            what.push_str(&format!(", part {}", o.part()));
                        }
                        crate::printer::report_error(
                            name,
                            &format!("{what}: {}", n.reason()),
                        );
                    }
                    continue;
                }
            };
            let place: Vec<Field<'_>> =
                fields.iter_mut().map(|(k, v)| (*k, &v[..])).collect();
            if !sink(&place, &item).map_err(Fail::Write)? {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Hands the items of one slice to `sink`, in order (reading a slice
/// cannot fail).
fn drain_slice(
    mut items: urifind::scan::Items<'_, '_>,
    sink: &mut Sink<'_>,
) -> Result<(), Fail> {
    let mut res = Ok(());
    items.for_each_while(|item| match sink(&[], &item) {
        Ok(more) => more,
        Err(e) => {
            res = Err(Fail::Write(e));
            false
        }
    });
    res
}

/// Hands `items` to `sink`, in order, as found in one plain text.
fn drain<'h>(
    items: impl Iterator<Item = io::Result<Item<'h>>>,
    sink: &mut Sink<'_>,
) -> Result<(), Fail> {
    for item in items {
        let item = item.map_err(Fail::Read)?;
        if !sink(&[], &item).map_err(Fail::Write)? {
            break;
        }
    }
    Ok(())
}
