//! HTML parts, read with the project's HTML tokenizer (`tokenizer`) the
//! way a mail reader renders them.
//!
//! The tokenizer reports the byte position of every tag, attribute value
//! and text run and hands out text and attribute values as written: the
//! character references are decoded here, with a map, so that every
//! match points at raw bytes. (A tokenizer that decodes for us, like
//! `html5ever`'s, gives no byte positions; `lol_html`, used before and
//! kept as the tests' reference, re-serializes every token it reports.)
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
//!
//! What the parser reports is gathered in `events`; link targets and
//! resources are decoded and validated in `target`; this file builds
//! the visible text and hands everything on in the order of the HTML.

use std::collections::VecDeque;
use std::sync::Arc;

use super::found::{found, note, Found, FoundMatch, Kind, Out};
use super::offsets::{Layers, OffsetMap};
use super::{MailContext, MailFinder, PartInfo};
use crate::charref::{char_ref, Ref, Where};
use crate::uri::same_link;

mod events;
#[cfg(any(test, feature = "html-oracle"))]
pub(crate) mod oracle;
pub use events::link_count;
mod target;
mod tokenizer;

use events::{events, Ev, CHUNK};
use target::{target, Room, Target, NO_LINK};

/// Appends `src` (at `base` in the HTML) to `out` with its character
/// references decoded, mapping every byte back; with `spaces`, line
/// breaks become spaces (as a browser shows them outside `<pre>`).
fn decode_refs(
    src: &[u8],
    base: usize,
    out: &mut Vec<u8>,
    map: &mut OffsetMap,
    spaces: bool,
    at: Where,
) {
    let first = out.len();
    map.linear(out.len(), base);
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'&', &src[i..]) {
        let a = i + k;
        out.extend_from_slice(&src[i..a]);
        match char_ref(&src[a..], at) {
            Some((len, r)) => {
                map.group(out.len(), base + a, len);
                match r {
                    Ref::Char(c) => {
                        let mut b = [0; 4];
                        out.extend_from_slice(
                            c.encode_utf8(&mut b).as_bytes(),
                        );
                    }
                    Ref::Named(s) => out.extend_from_slice(s),
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
        let run = &mut out[first..];
        let mut at = 0;
        while let Some(k) = memchr::memchr2(b'\n', b'\r', &run[at..]) {
            run[at + k] = b' ';
            at += k + 1;
        }
    }
}

/// A link's target and the first URI its visible text shows: the same
/// link is reported once, as the target (returns true: the text's match
/// is dropped); a different one stays, and the target says what the
/// text shows ([`super::MailMatch::shown`]).
fn link_shown(target: &mut FoundMatch, text: &FoundMatch) -> bool {
    if same_link(&target.uri, &text.uri) {
        return true;
    }
    // A gateway shows the link it wraps: text that is the target is no
    // mismatch (the text is still found).
    if !crate::link::shows_target(&target.uri, &text.uri) {
        target.shown = Some(text.uri.clone());
    }
    false
}

/// An `<a>` element: its target's index in the found list, and where
/// its visible text starts.
struct Anchor {
    target: Option<usize>,
    start: usize,
}

/// What one HTML part builds while its events come: the visible text
/// and its map, the links (their text ranges) and the findings of the
/// markup, in the order of the HTML.
struct Page<'a> {
    mf: &'a MailFinder,
    html: &'a [u8],
    lay: &'a Layers<'a>,
    part: &'a Arc<PartInfo>,
    vis: Vec<u8>,
    vmap: OffsetMap,
    pre: usize,
    open: Option<Anchor>,
    /// Link targets and markup findings; for a link target, the range
    /// of the visible text of its `<a>`.
    found: Vec<Mark>,
    /// What validating values reuses; its scan is the part's one:
    /// every link target and CSS run during the events, then the
    /// visible text.
    room: Room<'a>,
}

/// A finding of the markup, held compactly until the visible text is
/// scanned: a link target or resource, or what CSS held.
enum Mark {
    Target(Target),
    Found(Box<Found>),
}

impl Mark {
    /// Where it starts in the message.
    fn at(&self) -> usize {
        match self {
            Mark::Target(t) => t.span.0,
            Mark::Found(f) => f.span.0,
        }
    }

    /// The finding it stands for (`html` is the part's).
    fn found(self, html: &[u8], part: &Arc<PartInfo>) -> Found {
        match self {
            Mark::Target(t) => t.found(html, part),
            Mark::Found(f) => *f,
        }
    }
}

impl Page<'_> {
    /// Holds the target or resource at `range`, when it is one; returns
    /// its index.
    fn target(
        &mut self,
        range: (usize, usize),
        resource: bool,
    ) -> Option<usize> {
        let t = target(
            self.mf,
            self.html,
            range,
            self.lay,
            resource,
            &mut self.room,
        )?;
        self.found.push(Mark::Target(t));
        Some(self.found.len() - 1)
    }
}

impl Page<'_> {
    fn event(&mut self, ev: Ev) {
        let (html, lay, part) = (self.html, self.lay, self.part);
        match ev {
            Ev::Text(s, e) => {
                let spaces = self.pre == 0;
                decode_refs(
                    &html[s..e],
                    s,
                    &mut self.vis,
                    &mut self.vmap,
                    spaces,
                    Where::Text,
                );
            }
            Ev::Break(s, e) => {
                let br = html
                    .get(s + 1..s + 3)
                    .is_some_and(|n| n.eq_ignore_ascii_case(b"br"));
                if br || self.vis.last().is_some_and(|&b| b != b'\n') {
                    self.vmap.group(self.vis.len(), s, e - s);
                    self.vis.push(b'\n');
                }
            }
            Ev::Pre(on) => {
                self.pre =
                    if on { self.pre + 1 } else { self.pre.saturating_sub(1) };
            }
            Ev::Anchor { href, closes } => {
                let idx = href.and_then(|h| self.target(h, false));
                if closes {
                    self.close();
                    let start = self.vis.len();
                    self.open = Some(Anchor { target: idx, start });
                }
            }
            Ev::AnchorEnd => self.close(),
            Ev::Resource(s, e) => {
                self.target((s, e), true);
            }
            Ev::Css(s, e) => {
                let (text, map) = &mut self.room.dec;
                text.clear();
                map.clear();
                // style and srcset attributes, <style>, the DOCTYPE: the
                // attribute rule is the cautious one for all three.
                let at = Where::Attribute;
                decode_refs(&html[s..e], s, text, map, false, at);
                let (text, map) = &self.room.dec;
                let l = lay.then(map);
                let ctx = MailContext::HtmlResource;
                for item in self.room.scanner.items(text) {
                    let f = found(item, &l, part, &ctx);
                    self.found.push(Mark::Found(Box::new(f)));
                }
            }
        }
    }

    /// Ends the open `<a>`, if any: its text is what was seen since.
    fn close(&mut self) {
        if let Some(a) = self.open.take() {
            if let Some(t) = a.target {
                if let Mark::Target(t) = &mut self.found[t] {
                    t.link = (a.start, self.vis.len());
                }
            }
        }
    }
}

/// How many text findings the comparison of links with their visible
/// text has looked at (tests check it grows with the text, not with
/// links times text).
#[cfg(test)]
pub(crate) fn shown_steps() -> usize {
    SHOWN_STEPS.with(std::cell::Cell::get)
}

#[cfg(test)]
thread_local! {
    static SHOWN_STEPS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Reads the HTML text `html` (UTF-8 or ASCII-compatible), whose offsets
/// `lay` maps back to the message, and hands what it finds to `out`, in
/// the order of the HTML.
pub(crate) fn read(
    mf: &MailFinder,
    html: &[u8],
    lay: &Layers<'_>,
    part: &Arc<PartInfo>,
    out: &mut Out<'_>,
) {
    let mut page = Page {
        mf,
        html,
        lay,
        part,
        vis: Vec::with_capacity(html.len() / 2),
        vmap: OffsetMap::new(),
        pre: 0,
        open: None,
        found: Vec::new(),
        room: Room::new(mf),
    };
    let err = events(html, mf.html_resources, CHUNK, &mut |ev| page.event(ev));
    page.close();
    let Page { found: mut markup, vis, vmap, room, .. } = page;
    let mut scanner = room.scanner;
    markup.sort_by_key(Mark::at);
    // The visible text, scanned once; its findings merged with those of
    // the markup by position. A link's text comes after its target, so
    // what it shows is looked for ahead, in findings not yet handed on.
    let vl = lay.then(&vmap);
    let mut text = scanner.items(&vis).map(|item| {
        let local = match &item {
            crate::scan::Item::Match(m) => m.span().start,
            crate::scan::Item::Rejected(r) => r.span().start,
        };
        (local, found(item, &vl, part, &MailContext::HtmlText), false)
    });
    let mut ahead: VecDeque<(usize, Found, bool)> = VecDeque::new();
    for mark in markup {
        let link = match &mark {
            Mark::Target(t) if t.link != NO_LINK => Some(t.link),
            _ => None,
        };
        let mut f = mark.found(html, part);
        loop {
            if ahead.is_empty() {
                ahead.extend(text.next());
            }
            match ahead.front() {
                Some((_, t, _)) if t.span.0 < f.span.0 => {
                    let (_, t, dropped) = ahead.pop_front().expect("front");
                    if !dropped {
                        out.push(t);
                    }
                }
                _ => break,
            }
        }
        if let (Some((start, end)), Kind::Match(tm)) = (link, &mut f.kind) {
            let mut k = 0;
            loop {
                if k == ahead.len() {
                    match text.next() {
                        Some(t) => ahead.push_back(t),
                        None => break,
                    }
                }
                #[cfg(test)]
                SHOWN_STEPS.with(|c| c.set(c.get() + 1));
                let (at, t, dropped) = &mut ahead[k];
                if *at >= end {
                    break;
                }
                if let (true, Kind::Match(sm)) = (*at >= start, &t.kind) {
                    *dropped = link_shown(tm, sm);
                    break;
                }
                k += 1;
            }
        }
        out.push(f);
    }
    for (_, t, dropped) in ahead.into_iter().chain(text) {
        if !dropped {
            out.push(t);
        }
    }
    if let (Some(reason), false) = (err, html.is_empty()) {
        note(out, part, lay.range(0, html.len()), reason);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(s: &[u8]) -> (String, OffsetMap) {
        let mut out = Vec::new();
        let mut map = OffsetMap::new();
        decode_refs(s, 0, &mut out, &mut map, true, Where::Text);
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
        // A legacy name decodes without its ';' in text.
        let (t, _) = refs(b"&amp");
        assert_eq!(t, "&");
    }

    /// `decode_refs` the slow way: a byte at a time, each decoded byte
    /// with the source range it came from; with `spaces`, every line
    /// break of the result is a space (one written as a reference, `&#10;`,
    /// too: a browser shows both alike).
    fn refs_slow(
        src: &[u8],
        base: usize,
        spaces: bool,
        at: Where,
    ) -> (Vec<u8>, Vec<(usize, usize)>) {
        let (mut out, mut from) = (Vec::new(), Vec::new());
        let mut i = 0;
        while i < src.len() {
            if src[i] == b'&' {
                if let Some((len, r)) = char_ref(&src[i..], at) {
                    let mut b = [0; 4];
                    let bytes = match r {
                        Ref::Char(c) => c.encode_utf8(&mut b).as_bytes(),
                        Ref::Named(s) => s,
                    };
                    for &c in bytes {
                        out.push(c);
                        from.push((base + i, base + i + len));
                    }
                    i += len;
                    continue;
                }
            }
            out.push(src[i]);
            from.push((base + i, base + i + 1));
            i += 1;
        }
        for c in out.iter_mut().filter(|_| spaces) {
            if *c == b'\n' || *c == b'\r' {
                *c = b' ';
            }
        }
        (out, from)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3_000))]
        /// The decoder (references found with `memchr`, line breaks
        /// turned to spaces in one sweep, runs without a reference
        /// copied whole) is the byte-at-a-time reading, text and
        /// places, also when it appends to text already decoded.
        #[test]
        fn decode_refs_is_the_slow_reading(
            a in proptest::collection::vec(proptest::sample::select(b"a&#x;1\n\r lmtp=".to_vec()), 0..24),
            b in proptest::collection::vec(proptest::sample::select(b"a&#x;1\n\r lmtp=".to_vec()), 0..24),
            spaces in proptest::bool::ANY,
            attribute in proptest::bool::ANY,
        ) {
            let at = if attribute { Where::Attribute } else { Where::Text };
            let (mut out, mut map) = (Vec::new(), OffsetMap::new());
            decode_refs(&a, 0, &mut out, &mut map, !spaces, at);
            let gap = a.len() + 3;
            decode_refs(&b, gap, &mut out, &mut map, spaces, at);
            let (mut want, mut from) = refs_slow(&a, 0, !spaces, at);
            let (wb, fb) = refs_slow(&b, gap, spaces, at);
            want.extend(wb);
            from.extend(fb);
            proptest::prop_assert_eq!(&out, &want);
            for (d, f) in from.iter().enumerate() {
                proptest::prop_assert_eq!(map.byte(d), *f, "byte {}", d);
            }
        }
    }

    fn attr(s: &[u8]) -> String {
        let mut out = Vec::new();
        let mut map = OffsetMap::new();
        decode_refs(s, 0, &mut out, &mut map, false, Where::Attribute);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn legacy_names_without_semicolon() {
        // In text: the longest legacy name that starts the run, the rest
        // kept as written, and the map pointing the decoded character at
        // the whole reference.
        let (t, m) = refs(b"&copy2026 &notit; &notin; &ltx &eacutes");
        assert_eq!(t, "\u{a9}2026 \u{ac}it; \u{2209} <x \u{e9}s");
        assert_eq!(m.byte(0), (0, 5));
        assert_eq!(m.byte(2), (5, 6));
        // Only the legacy names: these need their ';'.
        let (t, _) = refs(b"&hellip &rarr &nbspx &hellip;");
        assert_eq!(t, "&hellip &rarr \u{a0}x \u{2026}");
        // Names are case-sensitive, and the longest match wins over a
        // shorter legacy one (&amp; vs &amp).
        let (t, _) = refs(b"&AMP &Amp; &amp;x");
        assert_eq!(t, "& &Amp; &x");
        // In an attribute value, a legacy name followed by '=' or a letter
        // or digit stays as written (query strings keep their '&copy=');
        // followed by anything else, or with its ';', it is decoded.
        assert_eq!(attr(b"?a=1&copy=2&reg2&not"), "?a=1&copy=2&reg2\u{ac}");
        assert_eq!(attr(b"?a&lt;b&gt c&amp;d&amp"), "?a<b> c&d&");
        // A hostile run: long names, a '&' at the end, digits only.
        let long = format!("&{}; &#; &", "a".repeat(100));
        assert_eq!(refs(long.as_bytes()).0, long);
        assert_eq!(refs(b"&123;&;&").0, "&123;&;&");
    }

    #[test]
    fn entity_table_is_the_standards() {
        // Every name with its ';', the legacy ones without it as well.
        let get = |k: &[u8]| htmlize::ENTITIES.get(k).copied();
        assert_eq!(get(b"&nbsp;"), Some("\u{a0}".as_bytes()));
        assert_eq!(get(b"&nbsp"), Some("\u{a0}".as_bytes()));
        assert_eq!(get(b"&hellip"), None);
        assert_eq!(
            get(b"&CounterClockwiseContourIntegral;"),
            Some("\u{2233}".as_bytes())
        );
        // Two code points for one name.
        assert_eq!(
            get(b"&NotEqualTilde;"),
            Some("\u{2242}\u{338}".as_bytes())
        );
        let legacy = htmlize::ENTITIES.keys().filter(|k| !k.ends_with(b";"));
        assert_eq!(legacy.count(), 106);
        assert_eq!(htmlize::ENTITIES.len(), 2231);
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
        let mut sink = crate::mail::found::Collect::default();
        read(&mf, html.as_bytes(), &lay, &part, &mut Out::new(&mut sink));
        sink.found
            .into_iter()
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
    fn links_meet_their_text_in_one_pass() {
        // Every link's text shows another URI: each link looks at the
        // text findings after it once (with the quadratic search of old,
        // 2,000 links took 2,000,000 steps).
        let one =
            "<a href=\"http://d.example/z\">http://e.example/w</a><br>\n";
        for n in [1000, 2000] {
            let html = one.repeat(n);
            let before = shown_steps();
            let got = run(&html, false);
            let steps = shown_steps() - before;
            assert_eq!(got.len(), 2 * n);
            assert!(steps <= 2 * n, "{n} links: {steps} steps");
            assert!(got
                .iter()
                .step_by(2)
                .all(|(u, c, s)| u == "http://d.example/z"
                    && c == "html-href"
                    && s.as_deref() == Some("http://e.example/w")));
        }
        // The same link in the text is reported once, as the target.
        let same =
            "<a href=\"http://a.example/\">http://a.example</a> ".repeat(500);
        let got = run(&same, false);
        assert_eq!(got.len(), 500);
        assert!(got.iter().all(|(_, c, s)| c == "html-href" && s.is_none()));
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
