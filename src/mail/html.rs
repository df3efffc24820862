//! HTML parts, read with an HTML parser (`lol_html`) the way a mail
//! reader renders them.
//!
//! `lol_html` is used because it reports the byte position of every tag,
//! attribute value and text chunk in its input and hands out text and
//! attribute values as written: the character references are decoded
//! here, with a map, so that every match points at raw bytes. (A
//! tokenizer that decodes for us, like `html5ever`'s, gives no byte
//! positions.) It streams and does no tree building, so its cost is
//! close to a scan of the part.
//!
//! Reported:
//!
//! * the targets of `<a href>` and `<area href>`: character references
//!   decoded, surrounding whitespace removed, then validated as if
//!   written in angle brackets (the whole value must be one URI);
//!   `cid:` targets only with resources on;
//! * the URIs of the visible text: text outside `<script>`, `<style>`,
//!   `<title>` and `<textarea>`, character references decoded, block
//!   elements and `<br>` read as line breaks, and line breaks inside the
//!   text read as the spaces a browser shows (except in `<pre>`).
//!
//! When the visible text of a link shows a URI, the two are compared:
//! the same link (equivalent after normalization) is reported once, as
//! the target; a different one is reported too, and the target's match
//! says what the text shows ([`super::MailMatch::shown`]).
//!
//! Markup resources (`<img src>`, `<link href>`, `xmlns`, the DOCTYPE,
//! CSS in `<style>` and `style=`) are read only when asked.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use lol_html::html_content::{Attribute, Element, TextType};
use lol_html::{doc_text, doctype, element, end_tag, HtmlRewriter, Settings};

use super::entities::NAMED;
use super::mime::{self, Found, Kind};
use super::offsets::{Layers, OffsetMap};
use super::{MailContext, MailFinder, PartInfo};

/// What the parser saw, by byte ranges of the HTML text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ev {
    Text(usize, usize),
    Break(usize, usize),
    Pre(bool),
    Anchor { href: Option<(usize, usize)>, closes: bool },
    AnchorEnd,
    Resource(usize, usize),
    Css(usize, usize),
}

/// Attributes holding a resource's address.
const RESOURCE_ATTRS: [&[u8]; 12] = [
    b"src",
    b"href",
    b"background",
    b"poster",
    b"data",
    b"action",
    b"cite",
    b"longdesc",
    b"formaction",
    b"manifest",
    b"codebase",
    b"profile",
];

fn range(r: std::ops::Range<usize>) -> (usize, usize) {
    (r.start, r.end)
}

fn name_is(html: &[u8], a: &Attribute<'_>, name: &[u8]) -> bool {
    a.name_source_location()
        .and_then(|l| html.get(l.bytes()))
        .is_some_and(|n| n.eq_ignore_ascii_case(name))
}

fn value_range(a: &Attribute<'_>) -> Option<(usize, usize)> {
    a.value_source_location().map(|l| range(l.bytes()))
}

/// What an element is to the reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tag {
    /// `<a>`: a link with visible text.
    Anchor,
    /// `<area>`: a link without.
    Area,
    /// `<br>`: a line break.
    Br,
    /// A block element: a line break before and after.
    Block,
    /// `<pre>` and its kin: a block whose line breaks are kept.
    Pre,
    /// Anything else (inline).
    Other,
}

/// The name of the tag starting at `html[at]` (`<` then the name).
fn tag_name(html: &[u8], at: usize) -> &[u8] {
    let rest = html.get(at + 1..).unwrap_or_default();
    let n = rest
        .iter()
        .take_while(|b| !b.is_ascii_whitespace() && !matches!(b, b'/' | b'>'))
        .count();
    &rest[..n]
}

fn classify(name: &[u8]) -> Tag {
    if name.len() > 10 {
        return Tag::Other;
    }
    let mut buf = [0u8; 10];
    let lower = &mut buf[..name.len()];
    lower.copy_from_slice(name);
    lower.make_ascii_lowercase();
    match &*lower {
        b"a" => Tag::Anchor,
        b"area" => Tag::Area,
        b"br" => Tag::Br,
        b"pre" | b"listing" | b"plaintext" | b"xmp" => Tag::Pre,
        b"address" | b"article" | b"aside" | b"blockquote" | b"body"
        | b"caption" | b"center" | b"dd" | b"details" | b"dialog" | b"dir"
        | b"div" | b"dl" | b"dt" | b"fieldset" | b"figcaption" | b"figure"
        | b"footer" | b"form" | b"h1" | b"h2" | b"h3" | b"h4" | b"h5"
        | b"h6" | b"header" | b"hr" | b"html" | b"li" | b"main" | b"menu"
        | b"nav" | b"ol" | b"p" | b"section" | b"summary" | b"table"
        | b"tbody" | b"td" | b"tfoot" | b"th" | b"thead" | b"tr" | b"ul" => {
            Tag::Block
        }
        _ => Tag::Other,
    }
}

type Events = Rc<RefCell<Vec<Ev>>>;

/// Runs the parser over `html`; returns the events and, if the parser
/// gave up, why. One handler sees every element and reads its name from
/// the source (cheaper than one selector per kind of element).
fn events(html: &[u8], resources: bool) -> (Vec<Ev>, Option<String>) {
    let evs: Events = Rc::new(RefCell::new(Vec::new()));
    let on_end =
        |el: &mut Element<'_, '_>, evs: &Events, last: [Option<Ev>; 2]| {
            let e = evs.clone();
            el.on_end_tag(end_tag!(move |end| {
                let at = range(end.source_location().bytes());
                let mut e = e.borrow_mut();
                for ev in last.iter().flatten() {
                    e.push(match ev {
                        Ev::Break(..) => Ev::Break(at.0, at.1),
                        other => other.clone(),
                    });
                }
                Ok(())
            }))
        };
    let e1 = evs.clone();
    let e2 = evs.clone();
    let e3 = evs.clone();
    let mut settings = Settings::new()
        .with_strict(false)
        .with_adjust_charset_on_meta_tag(false)
        .append_element_content_handler(element!("*", move |el| {
            let at = range(el.source_location().bytes());
            let tag = classify(tag_name(html, at.0));
            if resources {
                resource_attrs(html, el, tag, &e1);
            }
            let closes = el.can_have_content();
            match tag {
                Tag::Anchor | Tag::Area => {
                    let href = el
                        .attributes()
                        .iter()
                        .find(|a| name_is(html, a, b"href"))
                        .and_then(value_range);
                    let closes = closes && tag == Tag::Anchor;
                    e1.borrow_mut().push(Ev::Anchor { href, closes });
                    if closes {
                        on_end(el, &e1, [Some(Ev::AnchorEnd), None])?;
                    }
                }
                Tag::Br => e1.borrow_mut().push(Ev::Break(at.0, at.1)),
                Tag::Block => {
                    e1.borrow_mut().push(Ev::Break(at.0, at.1));
                    if closes {
                        on_end(el, &e1, [Some(Ev::Break(0, 0)), None])?;
                    }
                }
                Tag::Pre => {
                    let mut e = e1.borrow_mut();
                    e.push(Ev::Break(at.0, at.1));
                    e.push(Ev::Pre(true));
                    drop(e);
                    if closes {
                        let last =
                            [Some(Ev::Pre(false)), Some(Ev::Break(0, 0))];
                        on_end(el, &e1, last)?;
                    }
                }
                Tag::Other => {}
            }
            Ok(())
        }))
        .append_document_content_handler(doc_text!(move |t| {
            let (s, e) = range(t.source_location().bytes());
            if s == e {
                return Ok(());
            }
            let mut evs = e2.borrow_mut();
            match t.text_type() {
                TextType::Data
                | TextType::CDataSection
                | TextType::PlainText => {
                    if let Some(Ev::Text(_, end)) = evs.last_mut() {
                        if *end == s {
                            *end = e;
                            return Ok(());
                        }
                    }
                    evs.push(Ev::Text(s, e));
                }
                TextType::RawText if resources => evs.push(Ev::Css(s, e)),
                _ => {}
            }
            Ok(())
        }));
    if resources {
        settings =
            settings.append_document_content_handler(doctype!(move |d| {
                let at = range(d.source_location().bytes());
                e3.borrow_mut().push(Ev::Css(at.0, at.1));
                Ok(())
            }));
    }
    let mut rw = HtmlRewriter::new(settings, |_: &[u8]| {});
    let res = rw.write(html).and_then(|()| rw.end());
    let err = res.err().map(|e| format!("the HTML parser stopped: {e}"));
    let evs = evs.take();
    (evs, err)
}

fn resource_attrs(html: &[u8], el: &Element<'_, '_>, tag: Tag, evs: &Events) {
    let anchor = matches!(tag, Tag::Anchor | Tag::Area);
    let mut evs = evs.borrow_mut();
    for a in el.attributes() {
        let Some((s, e)) = value_range(a) else { continue };
        let Some(name) =
            a.name_source_location().and_then(|l| html.get(l.bytes()))
        else {
            continue;
        };
        let lower = name.to_ascii_lowercase();
        if lower.starts_with(b"xmlns") {
            evs.push(Ev::Resource(s, e));
        } else if lower == b"style" || lower == b"srcset" {
            evs.push(Ev::Css(s, e));
        } else if RESOURCE_ATTRS.contains(&&lower[..])
            && !(anchor && lower == b"href")
        {
            evs.push(Ev::Resource(s, e));
        }
    }
}

/// What a character reference stands for.
pub(crate) enum Ref {
    Char(char),
    Named(&'static str),
}

/// Windows-1252 meanings of the numeric references 0x80 to 0x9F, as
/// HTML reads them.
const C1: [u32; 32] = [
    0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6,
    0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019,
    0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
    0x0153, 0x9D, 0x017E, 0x0178,
];

/// The character reference at the start of `s` (which starts with `&`):
/// its length and what it stands for.
pub(crate) fn char_ref(s: &[u8]) -> Option<(usize, Ref)> {
    if s.get(1) == Some(&b'#') {
        let hex = matches!(s.get(2), Some(b'x' | b'X'));
        let digits_at = if hex { 3 } else { 2 };
        let mut v: u32 = 0;
        let mut k = digits_at;
        while let Some(&c) = s.get(k) {
            let d = if hex {
                (c as char).to_digit(16)
            } else {
                (c as char).to_digit(10)
            };
            let Some(d) = d else { break };
            v = v.saturating_mul(if hex { 16 } else { 10 }).saturating_add(d);
            k += 1;
        }
        if k == digits_at {
            return None;
        }
        if s.get(k) == Some(&b';') {
            k += 1;
        }
        let v = match v {
            0x80..=0x9F => C1[(v - 0x80) as usize],
            v => v,
        };
        let c = if v == 0 {
            '\u{fffd}'
        } else {
            char::from_u32(v).unwrap_or('\u{fffd}')
        };
        return Some((k, Ref::Char(c)));
    }
    let name_len = s[1..]
        .iter()
        .take(32)
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    if name_len == 0 || s.get(1 + name_len) != Some(&b';') {
        return None;
    }
    let name = std::str::from_utf8(&s[1..1 + name_len]).ok()?;
    let i = NAMED.binary_search_by(|(n, _)| n.cmp(&name)).ok()?;
    Some((name_len + 2, Ref::Named(NAMED[i].1)))
}

/// Appends `src` (at `base` in the HTML) to `out` with its character
/// references decoded, mapping every byte back; with `spaces`, line
/// breaks become spaces (as a browser shows them outside `<pre>`).
fn decode_refs(
    src: &[u8],
    base: usize,
    out: &mut Vec<u8>,
    map: &mut OffsetMap,
    spaces: bool,
) {
    let first = out.len();
    map.linear(out.len(), base);
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'&', &src[i..]) {
        let a = i + k;
        out.extend_from_slice(&src[i..a]);
        match char_ref(&src[a..]) {
            Some((len, r)) => {
                map.group(out.len(), base + a, len);
                match r {
                    Ref::Char(c) => {
                        let mut b = [0; 4];
                        out.extend_from_slice(
                            c.encode_utf8(&mut b).as_bytes(),
                        );
                    }
                    Ref::Named(s) => out.extend_from_slice(s.as_bytes()),
                }
                i = a + len;
                map.linear(out.len(), base + i);
            }
            None => {
                out.push(b'&');
                i = a + 1;
            }
        }
    }
    out.extend_from_slice(&src[i..]);
    if spaces {
        for b in &mut out[first..] {
            if *b == b'\n' || *b == b'\r' {
                *b = b' ';
            }
        }
    }
}

/// Whether two URIs are the same link: equivalent after normalization,
/// an empty path after an authority counting as `/`.
pub(crate) fn same_link(a: &[u8], b: &[u8]) -> bool {
    fn norm(u: &[u8]) -> Vec<u8> {
        let mut n = crate::uri::normalize(u);
        let c = crate::uri::Components::split(&n);
        if c.authority.is_some() && c.path.is_empty() {
            let at = c.scheme.map_or(0, |s| s.len() + 1)
                + 2
                + c.authority.map_or(0, <[u8]>::len);
            n.insert(at, b'/');
        }
        n
    }
    a == b || norm(a) == norm(b)
}

/// A link target: the value at `(s, e)` of the HTML, decoded, trimmed
/// and validated as a whole.
fn target(
    mf: &MailFinder,
    html: &[u8],
    (s, e): (usize, usize),
    lay: &Layers<'_>,
    part: &Arc<PartInfo>,
    context: MailContext,
) -> Option<Found> {
    let mut val = Vec::new();
    let mut map = OffsetMap::new();
    decode_refs(html.get(s..e)?, s, &mut val, &mut map, false);
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
    let mut syn = Vec::with_capacity(core.len() + 2);
    syn.push(b'<');
    syn.extend_from_slice(core);
    syn.push(b'>');
    let m = mf.finder.find_iter(&syn).next()?;
    if m.span() != (0..syn.len()) {
        return None;
    }
    let l = lay.then(&map);
    let us = m.uri_span();
    let uri_span = l.range(us.start - 1 + lead, us.end - 1 + lead);
    let span = l.range(lead, lead + core.len());
    Some(Found {
        part: part.clone(),
        context,
        span,
        kind: Kind::Match(mime::FoundMatch {
            uri: m.uri().to_vec(),
            without_hyphen: m.without_hyphen().map(<[u8]>::to_vec),
            delimiter: m.context(),
            uri_span,
            shown: None,
            parts_seen: Vec::new(),
        }),
    })
}

/// An `<a>` element: its target's index in the found list, and the
/// range of its visible text.
struct Anchor {
    target: Option<usize>,
    start: usize,
    end: usize,
}

/// Reads the HTML text `html` (UTF-8 or ASCII-compatible), whose offsets
/// `lay` maps back to the message, and appends what it finds to `out`.
pub(crate) fn read(
    mf: &MailFinder,
    html: &[u8],
    lay: &Layers<'_>,
    part: &Arc<PartInfo>,
    out: &mut Vec<Found>,
) {
    let (evs, err) = events(html, mf.html_resources);
    let mut found: Vec<Found> = Vec::new();
    let mut vis = Vec::with_capacity(html.len() / 2);
    let mut vmap = OffsetMap::new();
    let mut pre = 0usize;
    let mut anchors: Vec<Anchor> = Vec::new();
    let mut open: Option<Anchor> = None;
    for ev in evs {
        match ev {
            Ev::Text(s, e) => {
                decode_refs(&html[s..e], s, &mut vis, &mut vmap, pre == 0);
            }
            Ev::Break(s, e) => {
                let br = html
                    .get(s + 1..s + 3)
                    .is_some_and(|n| n.eq_ignore_ascii_case(b"br"));
                if br || vis.last().is_some_and(|&b| b != b'\n') {
                    vmap.group(vis.len(), s, e - s);
                    vis.push(b'\n');
                }
            }
            Ev::Pre(on) => {
                pre = if on { pre + 1 } else { pre.saturating_sub(1) };
            }
            Ev::Anchor { href, closes } => {
                let t = href.and_then(|h| {
                    target(mf, html, h, lay, part, MailContext::HtmlHref)
                });
                let idx = t.map(|t| {
                    found.push(t);
                    found.len() - 1
                });
                if closes {
                    if let Some(mut a) = open.take() {
                        a.end = vis.len();
                        anchors.push(a);
                    }
                    open =
                        Some(Anchor { target: idx, start: vis.len(), end: 0 });
                }
            }
            Ev::AnchorEnd => {
                if let Some(mut a) = open.take() {
                    a.end = vis.len();
                    anchors.push(a);
                }
            }
            Ev::Resource(s, e) => {
                if let Some(t) = target(
                    mf,
                    html,
                    (s, e),
                    lay,
                    part,
                    MailContext::HtmlResource,
                ) {
                    found.push(t);
                }
            }
            Ev::Css(s, e) => {
                let mut text = Vec::new();
                let mut map = OffsetMap::new();
                decode_refs(&html[s..e], s, &mut text, &mut map, false);
                let l = lay.then(&map);
                mime::scan(
                    mf,
                    &text,
                    &l,
                    part,
                    &MailContext::HtmlResource,
                    &mut found,
                );
            }
        }
    }
    if let Some(mut a) = open.take() {
        a.end = vis.len();
        anchors.push(a);
    }
    // The visible text.
    let vl = lay.then(&vmap);
    let mut text: Vec<(usize, Found)> = Vec::new();
    for item in mf.finder.items(&vis) {
        let local = match &item {
            crate::scan::Item::Match(m) => m.span().start,
            crate::scan::Item::Rejected(r) => r.span().start,
        };
        let f = mime::found(item, &vl, part, &MailContext::HtmlText);
        text.push((local, f));
    }
    // Links whose text shows a URI.
    let mut drop = vec![false; text.len()];
    for a in &anchors {
        let Some(ti) = a.target else { continue };
        let shown = text.iter().position(|(at, f)| {
            *at >= a.start && *at < a.end && matches!(f.kind, Kind::Match(_))
        });
        let Some(si) = shown else { continue };
        let Kind::Match(sm) = &text[si].1.kind else { continue };
        let shown_uri = sm.uri.clone();
        if let Kind::Match(tm) = &mut found[ti].kind {
            if same_link(&tm.uri, &shown_uri) {
                drop[si] = true;
            } else if !crate::link::shows_target(&tm.uri, &shown_uri) {
                tm.shown = Some(shown_uri);
            }
        }
    }
    found.extend(
        text.into_iter().zip(drop).filter(|(_, d)| !d).map(|((_, f), _)| f),
    );
    found.sort_by_key(|f| f.span.0);
    if let (Some(reason), false) = (err, html.is_empty()) {
        let span = lay.range(0, html.len());
        found.push(Found {
            part: part.clone(),
            context: MailContext::Text,
            span,
            kind: Kind::Note(reason),
        });
    }
    out.extend(found);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(s: &[u8]) -> (String, OffsetMap) {
        let mut out = Vec::new();
        let mut map = OffsetMap::new();
        decode_refs(s, 0, &mut out, &mut map, true);
        (String::from_utf8(out).unwrap(), map)
    }

    #[test]
    fn character_references() {
        let (t, m) =
            refs(b"a&amp;b &lt;x&gt; &#233;&#xE9;&eacute; &#150;&bogus; &\nz");
        assert_eq!(t, "a&b <x> \u{e9}\u{e9}\u{e9} \u{2013}&bogus; & z");
        assert_eq!(m.byte(1), (1, 6));
        assert_eq!(m.byte(2), (6, 7));
        let (t, _) = refs(b"&#0;&#x110000;&#xD800");
        assert_eq!(t, "\u{fffd}\u{fffd}\u{fffd}");
        let (t, _) = refs(b"&amp");
        assert_eq!(t, "&amp");
    }

    #[test]
    fn named_table_is_sorted() {
        assert!(NAMED.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(NAMED.iter().any(|(n, v)| *n == "nbsp" && *v == "\u{a0}"));
    }

    #[test]
    fn same_links() {
        assert!(same_link(b"http://A.example", b"http://a.example/"));
        assert!(same_link(b"https://a.example/x", b"https://a.example/x"));
        assert!(!same_link(b"https://a.example/x", b"https://a.example/y"));
        assert!(!same_link(b"https://t.example/?u=x", b"https://x.example/"));
    }

    fn run(
        html: &str,
        resources: bool,
    ) -> Vec<(String, String, Option<String>)> {
        let mf =
            MailFinder::new(crate::Finder::new()).html_resources(resources);
        let map = OffsetMap::shift(0);
        let lay = Layers::new(&map);
        let part = Arc::new(PartInfo::default());
        let mut out = Vec::new();
        read(&mf, html.as_bytes(), &lay, &part, &mut out);
        out.into_iter()
            .filter_map(|f| match f.kind {
                Kind::Match(m) => {
                    // Every raw span holds the URI's characters.
                    let raw = &html.as_bytes()[m.uri_span.0..m.uri_span.1];
                    assert!(!raw.is_empty());
                    Some((
                        String::from_utf8(m.uri).unwrap(),
                        f.context.name(),
                        m.shown.map(|s| String::from_utf8(s).unwrap()),
                    ))
                }
                _ => None,
            })
            .collect()
    }

    fn uris(html: &str, resources: bool) -> Vec<String> {
        run(html, resources).into_iter().map(|(u, _, _)| u).collect()
    }

    #[test]
    fn links_text_and_markup() {
        let html = r#"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>http://title.example/</title>
<link rel="stylesheet" href="https://cdn.example/s.css"><style>body{background:url(https://cdn.example/bg.png)}</style></head>
<body><p>Join <a href=" https://meet.example/j/1?a=1&amp;b=2 ">here</a>.<br>Text https://text.example/x<br><img src="https://cdn.example/logo.png">
<a href="https://track.example/c?u=1">https://docs.example/</a> <a href="https://same.example">https://same.example/</a>
<a href="cid:part1@example">inline</a><a href="javascript:void(0)">js</a><a href="/relative">rel</a>
<script>var u = "http://script.example/";</script></p></body></html>"#;
        let got = run(html, false);
        assert_eq!(
            got,
            [
                (
                    "https://meet.example/j/1?a=1&b=2".into(),
                    "html-href".into(),
                    None
                ),
                ("https://text.example/x".into(), "html-text".into(), None),
                (
                    "https://track.example/c?u=1".into(),
                    "html-href".into(),
                    Some("https://docs.example/".into())
                ),
                ("https://docs.example/".into(), "html-text".into(), None),
                ("https://same.example".into(), "html-href".into(), None),
            ]
        );
        let with = uris(html, true);
        for r in [
            "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd",
            "http://www.w3.org/1999/xhtml",
            "https://cdn.example/s.css",
            "https://cdn.example/bg.png",
            "https://cdn.example/logo.png",
            "cid:part1@example",
        ] {
            assert!(with.iter().any(|u| u == r), "{r} missing from {with:?}");
        }
        assert!(!with.iter().any(|u| u.contains("script.example")));
        assert!(!with.iter().any(|u| u.contains("title.example")));
    }

    #[test]
    fn blocks_break_lines_and_inline_elements_do_not() {
        assert_eq!(
            uris("<div>https://a.example/</div>more<p>https://b.<b>example</b>/c</p>", false),
            ["https://a.example/", "https://b.example/c"]
        );
        // A line break in the source is a space, except in <pre>.
        assert_eq!(
            uris("<p>&lt;https://a.example/\nx&gt;</p>", false),
            ["https://a.example/"]
        );
        assert_eq!(
            uris("<pre>&lt;https://a.example/\nx&gt;</pre>", false),
            ["https://a.example/x"]
        );
    }

    #[test]
    fn unclosed_anchors_and_broken_markup() {
        let got = uris("<a href='http://a.example/'>x<a href=\"http://b.example/\"> https://c.example/", false);
        assert_eq!(
            got,
            ["http://a.example/", "http://b.example/", "https://c.example/"]
        );
        assert!(uris("<a href=", false).is_empty());
        assert!(
            uris("<<<>>><!-- http://comment.example/ -->", false).is_empty()
        );
    }
}
