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

use urifind::mail::{MailContext, MailFinder, MailItem, Messages, Origin};
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
    cfg.finder_builder().build().expect("checked by Config::from_args")
}

/// Which notes on broken mail go to stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notes {
    /// None (`-s`).
    None,
    /// Only that a message was skipped (over the size limit).
    Skipped,
    /// Every note (with `--rejected` or `--json`).
    All,
}

/// The notes `cfg` asks for.
pub fn notes(cfg: &Config) -> Notes {
    if cfg.no_messages {
        Notes::None
    } else if cfg.rejected || cfg.json {
        Notes::All
    } else {
        Notes::Skipped
    }
}

/// Whether items need line and column numbers.
pub fn count_lines(cfg: &Config) -> bool {
    cfg.line_number || cfg.column || cfg.json
}

/// Whether mail items need the fields naming where in a message they
/// were found (message, part, content type, ...): only JSON prints them.
/// Without them, a count or a list of URIs costs no writing of places.
pub fn places(cfg: &Config) -> bool {
    cfg.json
}

/// Searches `input` (one not [`Kind::skipped`]), handing each item
/// to `sink`. In mail, notes on broken mail go to stderr under the
/// input's name, as `notes` says, and items come with their place in
/// the message when `places` asks for it (see [`places`]; otherwise
/// with none).
///
/// # Errors
///
/// [`Fail::Read`] when reading the input failed (the items before the
/// failure have been handed on), [`Fail::Write`] when `sink` failed.
pub fn search(
    mf: &MailFinder,
    input: Opened,
    count_lines: bool,
    places: bool,
    notes: (&[u8], Notes),
    max_message: usize,
    sink: &mut Sink<'_>,
) -> Result<(), Fail> {
    debug_assert!(input.kind.skipped().is_none());
    let finder = mf.finder();
    if input.kind == Kind::Mail {
        return match input.source {
            #[cfg(unix)]
            Source::Mapped(map) => {
                let msgs = Messages::new(map.bytes())
                    .max_message_size(max_message)
                    .count_lines(count_lines);
                mail(mf, msgs, places, notes, sink)
            }
            Source::Reader(rdr, _) => {
                let msgs = Messages::new(rdr)
                    .max_message_size(max_message)
                    .count_lines(count_lines);
                mail(mf, msgs, places, notes, sink)
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

/// The fields naming where in a message an item was found: their
/// values written one after another into one buffer that is kept from
/// item to item, so that handing on a match allocates nothing.
#[derive(Default)]
struct Place {
    /// The values, back to back.
    buf: Vec<u8>,
    /// Each field's name and where its value ends in `buf`.
    ends: Vec<(&'static str, usize)>,
}

impl Place {
    /// The most fields an item has.
    const MAX: usize = 8;

    /// Starts the fields of an item found at `origin`, in `context`.
    fn start(&mut self, origin: &Origin, context: &MailContext) {
        use std::io::Write as _;
        self.buf.clear();
        self.ends.clear();
        self.push("message", |b| {
            let _ = write!(b, "{}", origin.message());
        });
        if let Some(id) = origin.message_id() {
            self.push("message_id", |b| b.extend_from_slice(id.as_bytes()));
        }
        self.push("part", |b| b.extend_from_slice(origin.part().as_bytes()));
        self.push("content_type", |b| {
            b.extend_from_slice(origin.content_type().as_bytes())
        });
        self.push("encoding", |b| {
            b.extend_from_slice(origin.encoding().as_bytes())
        });
        self.push("context", |b| {
            let _ = write!(b, "{context}");
        });
    }

    /// Adds the field `name`, its value written by `value`.
    fn push(&mut self, name: &'static str, value: impl FnOnce(&mut Vec<u8>)) {
        debug_assert!(self.ends.len() < Self::MAX);
        value(&mut self.buf);
        self.ends.push((name, self.buf.len()));
    }

    /// Hands the fields to `f` as the printer takes them.
    fn with<T>(&self, f: impl FnOnce(&[Field<'_>]) -> T) -> T {
        let mut fields: [Field<'_>; Self::MAX] = [("", &[]); Self::MAX];
        let mut from = 0;
        for (slot, &(name, end)) in fields.iter_mut().zip(&self.ends) {
            *slot = (name, &self.buf[from..end]);
            from = end;
        }
        f(&fields[..self.ends.len()])
    }
}

/// Set when a message was skipped for its size: its URIs were not
/// searched, so the run ends with status 2, as after an input that could
/// not be read.
pub static SKIPPED: AtomicBool = AtomicBool::new(false);

/// Reads every message of `msgs`, handing each item to `sink`, with
/// its place when `places` says so.
fn mail<R: Read>(
    mf: &MailFinder,
    msgs: Messages<R>,
    places: bool,
    (name, notes): (&[u8], Notes),
    sink: &mut Sink<'_>,
) -> Result<(), Fail> {
    let mut place = Place::default();
    for msg in msgs {
        let msg = msg.map_err(Fail::Read)?;
        if msg.skipped().is_some() {
            SKIPPED.store(true, Ordering::Relaxed);
        }
        let mut res = Ok(true);
        msg.for_each_item(mf, |item| {
            let item = match item {
                MailItem::Match(m) if !places => Item::Match(m.into_match()),
                MailItem::Rejected(r) if !places => {
                    Item::Rejected(r.into_rejected())
                }
                MailItem::Match(m) => {
                    place.start(m.origin(), m.context());
                    if let Some(s) = m.shown() {
                        place.push("shown", |b| b.extend_from_slice(s));
                    }
                    if !m.parts_seen().is_empty() {
                        place.push("parts_seen", |b| {
                            for (i, p) in m.parts_seen().iter().enumerate() {
                                if i > 0 {
                                    b.push(b',');
                                }
                                b.extend_from_slice(p.as_bytes());
                            }
                        });
                    }
                    Item::Match(m.into_match())
                }
                MailItem::Rejected(r) => {
                    place.start(r.origin(), r.context());
                    Item::Rejected(r.into_rejected())
                }
                MailItem::Note(n) => {
                    let say = match notes {
                        Notes::All => true,
                        Notes::Skipped => msg.skipped().is_some(),
                        Notes::None => false,
                    };
                    if say {
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
                    return true;
                }
                // Kinds of report this command does not know yet.
                _ => return true,
            };
            res = if places {
                place.with(|fields| sink(fields, &item))
            } else {
                sink(&[], &item)
            };
            matches!(res, Ok(true))
        });
        if !res.map_err(Fail::Write)? {
            return Ok(());
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
