//! Link targets and resources of an HTML part: an attribute value,
//! its character references decoded, trimmed and validated as a whole
//! URI, held compactly until the part's visible text has been scanned.

use std::sync::Arc;

use super::decode_refs;
use crate::charref::Where;
use crate::mail::found::{Found, FoundMatch, Kind};
use crate::mail::offsets::{Layers, OffsetMap};
use crate::mail::{MailContext, MailFinder, PartInfo};
use crate::scan::Scanner;

/// No visible text (`Target::link`).
pub(super) const NO_LINK: (usize, usize) = (usize::MAX, 0);

/// A link target or resource, validated, held until the visible text
/// is scanned: its raw spans and its URI, which is most often the very
/// bytes of the attribute value (then only their place is kept).
#[derive(Debug)]
pub(super) struct Target {
    pub(super) span: (usize, usize),
    uri_span: (usize, usize),
    uri: Held,
    delimiter: crate::scan::Context,
    resource: bool,
    /// For the target of an `<a>`, the range of its visible text;
    /// otherwise [`NO_LINK`].
    pub(super) link: (usize, usize),
}

/// A target's URI: `len` bytes of the HTML at `at`, or its own copy
/// (character references decoded, whitespace removed, or a form without
/// a hyphen).
#[derive(Debug)]
enum Held {
    Html(usize, u32),
    Owned(Box<(Vec<u8>, Option<Vec<u8>>)>),
}

impl Target {
    /// The finding it stands for.
    pub(super) fn found(self, html: &[u8], part: &Arc<PartInfo>) -> Found {
        let (uri, without_hyphen) = match self.uri {
            Held::Html(at, n) => (html[at..at + n as usize].to_vec(), None),
            Held::Owned(b) => *b,
        };
        let context = if self.resource {
            MailContext::HtmlResource
        } else {
            MailContext::HtmlHref
        };
        Found {
            part: part.clone(),
            context,
            span: self.span,
            kind: Kind::Match(FoundMatch {
                uri,
                without_hyphen,
                delimiter: self.delimiter,
                uri_span: self.uri_span,
                shown: None,
                parts_seen: Vec::new(),
            }),
        }
    }
}

/// What validating values keeps from one to the next (one per HTML
/// part): the part's scan, which keeps its setup, and the room a value
/// is decoded and bracketed in.
pub(super) struct Room<'f> {
    pub(super) scanner: Scanner<'f>,
    /// The value in angle brackets, as it is validated.
    syn: Vec<u8>,
    /// A value or CSS run with its character references decoded, and
    /// its map.
    pub(super) dec: (Vec<u8>, OffsetMap),
}

impl<'f> Room<'f> {
    pub(super) fn new(mf: &'f MailFinder) -> Room<'f> {
        Room {
            scanner: mf.finder.scanner(),
            syn: Vec::new(),
            dec: (Vec::new(), OffsetMap::new()),
        }
    }
}

/// A link target: the value at `(s, e)` of the HTML, decoded, trimmed
/// and validated as a whole (in `room`, the part's).
pub(super) fn target(
    mf: &MailFinder,
    html: &[u8],
    (s, e): (usize, usize),
    lay: &Layers<'_>,
    resource: bool,
    room: &mut Room<'_>,
) -> Option<Target> {
    let Room { scanner, syn, dec } = room;
    let raw = html.get(s..e)?;
    let shift;
    // Most values hold no character reference: read where they stand;
    // the others are decoded into `dec` (the caller's, reused).
    let (val, map): (&[u8], &OffsetMap) =
        if memchr::memchr(b'&', raw).is_none() {
            shift = OffsetMap::shift(s);
            (raw, &shift)
        } else {
            let (val, map) = dec;
            val.clear();
            map.clear();
            decode_refs(raw, s, val, map, false, Where::Attribute);
            (&val[..], &*map)
        };
    let lead = val.iter().take_while(|b| b.is_ascii_whitespace()).count();
    let trail = val[lead..]
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_whitespace())
        .count();
    let core = &val[lead..val.len() - trail];
    if core.is_empty() {
        return None;
    }
    if !mf.html_resources
        && core.len() >= 4
        && core[..4].eq_ignore_ascii_case(b"cid:")
    {
        return None;
    }
    syn.clear();
    syn.push(b'<');
    syn.extend_from_slice(core);
    syn.push(b'>');
    let m = scanner.find_iter(syn).next()?;
    if m.span() != (0..syn.len()) {
        return None;
    }
    let l = lay.then(map);
    let us = m.uri_span();
    let span = l.range(lead, lead + core.len());
    // Most often the URI is the whole value: one lookup.
    let uri_span = if us == (1..syn.len() - 1) {
        span
    } else {
        l.range(us.start - 1 + lead, us.end - 1 + lead)
    };
    // The URI as the value wrote it: no reference decoded, nothing
    // removed inside.
    let as_written = val.len() == raw.len()
        && m.without_hyphen().is_none()
        && m.uri() == core
        && &raw[lead..lead + core.len()] == core;
    let uri = match u32::try_from(core.len()) {
        Ok(n) if as_written => Held::Html(s + lead, n),
        _ => Held::Owned(Box::new((
            m.uri().to_vec(),
            m.without_hyphen().map(<[u8]>::to_vec),
        ))),
    };
    let delimiter = m.context();
    Some(Target { span, uri_span, uri, delimiter, resource, link: NO_LINK })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value validated with the part's one scanner, one after the
    /// other, and each with a scanner of its own: the same targets (a
    /// value that leaves the scan in some state, an unclosed `<` or a
    /// URI cut short, changes nothing for the next).
    #[test]
    fn one_scanner_for_every_value_is_a_scanner_per_value() {
        let values: &[&str] = &[
            "http://a.example/x",
            " https://a.example/?a=1&amp;b=2 ",
            "<http://b.example/",
            "http://c.example/ x",
            "mailto:a@b.example",
            "URL:http://d.example/",
            "http://e.example/&lt;y&gt;",
            "http://f.example/a-\n  b",
            "\"http://g.example/",
            "((((http://h.example/)",
            "cid:part1@example",
            "javascript:void(0)",
            "http://",
            "&#104;ttp://i.example/",
            "http://j.example/\u{e9}",
            "",
            "   ",
            "http://k.example/>x<y",
        ];
        for resources in [false, true] {
            let mf = MailFinder::new(crate::Finder::new())
                .html_resources(resources);
            let map = OffsetMap::shift(0);
            let lay = Layers::new(&map);
            let mut html = String::new();
            let mut ranges = Vec::new();
            for v in values.iter().cycle().take(3 * values.len()) {
                html.push_str("<a href=\"");
                ranges.push((html.len(), html.len() + v.len()));
                html.push_str(v);
                html.push_str("\">");
            }
            let html = html.as_bytes();
            let mut shared = Room::new(&mf);
            let mut found = 0;
            for &r in &ranges {
                let one = target(&mf, html, r, &lay, resources, &mut shared);
                let alone =
                    target(&mf, html, r, &lay, resources, &mut Room::new(&mf));
                assert_eq!(format!("{one:?}"), format!("{alone:?}"));
                found += usize::from(one.is_some());
            }
            // Some values are links, some are not.
            assert!(found > 3 * 4 && found < ranges.len(), "{found}");
        }
    }
}
