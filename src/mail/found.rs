//! What reading a message finds, before it is tied to the input: the
//! shared vocabulary of the MIME walk (`mime`) and of HTML parts
//! (`html`), and the way it leaves them.
//!
//! Everything found goes to an [`Out`] as soon as it is found: straight
//! on to the caller's [`Sink`], so that a message costs no memory per
//! match, except inside a `multipart/alternative`, whose alternatives
//! are held (their matches are compared with each other before any is
//! reported).

use std::sync::Arc;

use super::offsets::Layers;
use super::{MailContext, MailFinder, PartInfo};
use crate::scan::{Context, Item, Rejected};

/// A match as found, with offsets in the message's bytes.
#[derive(Clone, Debug)]
pub(crate) struct FoundMatch {
    pub(crate) uri: Vec<u8>,
    pub(crate) without_hyphen: Option<Vec<u8>>,
    pub(crate) delimiter: Context,
    pub(crate) uri_span: (usize, usize),
    pub(crate) shown: Option<Vec<u8>>,
    pub(crate) parts_seen: Vec<String>,
}

/// What was found.
#[derive(Clone, Debug)]
pub(crate) enum Kind {
    Match(FoundMatch),
    Rejected(Rejected),
    Note(String),
}

/// Something found in a message, offsets in the message's bytes.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    pub(crate) part: Arc<PartInfo>,
    pub(crate) context: MailContext,
    pub(crate) span: (usize, usize),
    pub(crate) kind: Kind,
}

impl Found {
    /// A note at `p` (for tests of positions).
    #[cfg(test)]
    pub(crate) fn note_at(p: usize) -> Found {
        Found {
            part: Arc::new(PartInfo::default()),
            context: MailContext::Text,
            span: (p, p + 1),
            kind: Kind::Note(String::new()),
        }
    }
}

/// Where a message's findings go, in order.
pub(crate) trait Sink {
    /// The message's `Message-ID`, once, before anything is found.
    fn message_id(&mut self, id: Option<String>);
    /// One finding.
    fn found(&mut self, f: Found);
}

/// The findings of one message on their way out: to the sink, or held
/// while the alternatives of a `multipart/alternative` are read.
pub(crate) struct Out<'s> {
    sink: &'s mut dyn Sink,
    held: Vec<Vec<Found>>,
}

impl<'s> Out<'s> {
    pub(crate) fn new(sink: &'s mut dyn Sink) -> Out<'s> {
        Out { sink, held: Vec::new() }
    }

    pub(crate) fn message_id(&mut self, id: Option<String>) {
        self.sink.message_id(id);
    }

    /// Hands `f` on, or holds it.
    pub(crate) fn push(&mut self, f: Found) {
        match self.held.last_mut() {
            Some(v) => v.push(f),
            None => self.sink.found(f),
        }
    }

    /// Holds what is found from now until [`Out::release`].
    pub(crate) fn hold(&mut self) {
        self.held.push(Vec::new());
    }

    /// What was found since the matching [`Out::hold`].
    pub(crate) fn release(&mut self) -> Vec<Found> {
        self.held.pop().unwrap_or_default()
    }
}

/// A scanner item of a decoded text, mapped back through `lay`.
pub(crate) fn found(
    item: Item<'_>,
    lay: &Layers<'_>,
    part: &Arc<PartInfo>,
    context: &MailContext,
) -> Found {
    let (span, kind) = match item {
        Item::Match(m) => {
            let s = m.span();
            let u = m.uri_span();
            let span = lay.range(s.start, s.end);
            // Most matches are their URI (no delimiter): one lookup.
            let uri_span =
                if u == s { span } else { lay.range(u.start, u.end) };
            let km = FoundMatch {
                without_hyphen: m.without_hyphen().map(<[u8]>::to_vec),
                delimiter: m.context(),
                uri_span,
                uri: m.uri().to_vec(),
                shown: None,
                parts_seen: Vec::new(),
            };
            (span, Kind::Match(km))
        }
        Item::Rejected(r) => {
            let s = r.span();
            (lay.range(s.start, s.end), Kind::Rejected(r))
        }
    };
    Found { part: part.clone(), context: context.clone(), span, kind }
}

/// Scans `text` with the finder, mapping through `lay`, into `out`.
pub(crate) fn scan(
    mf: &MailFinder,
    text: &[u8],
    lay: &Layers<'_>,
    part: &Arc<PartInfo>,
    context: &MailContext,
    out: &mut Out<'_>,
) {
    for item in mf.finder.items(text) {
        out.push(found(item, lay, part, context));
    }
}

/// A note on `span` of the message.
pub(crate) fn note(
    out: &mut Out<'_>,
    part: &Arc<PartInfo>,
    span: (usize, usize),
    reason: String,
) {
    out.push(Found {
        part: part.clone(),
        context: MailContext::Text,
        span,
        kind: Kind::Note(reason),
    });
}

/// Collects findings (for tests).
#[cfg(test)]
#[derive(Default)]
pub(crate) struct Collect {
    pub(crate) id: Option<String>,
    pub(crate) found: Vec<Found>,
}

#[cfg(test)]
impl Sink for Collect {
    fn message_id(&mut self, id: Option<String>) {
        self.id = id;
    }
    fn found(&mut self, f: Found) {
        self.found.push(f);
    }
}
