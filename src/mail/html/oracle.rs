//! The reference the tokenizer is checked against: the events as the
//! `lol_html` parser gives them (the reader used it before it had its own
//! tokenizer). Built for the tests and, with the `html-oracle` feature,
//! for the fuzz target that compares the two.

use std::cell::RefCell;
use std::rc::Rc;

use lol_html::html_content::{Attribute, Element, TextType};
use lol_html::{doc_text, doctype, element, end_tag, HtmlRewriter, Settings};

use super::events::{classify, resource_kind, tag_name, Ev, Tag};

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

type Events = Rc<RefCell<Vec<Ev>>>;

/// Runs the parser over `html`, `chunk` bytes at a time, handing every
/// event to `each` in order; returns why the parser gave up, if it did.
/// One handler sees every element and reads its name from the source
/// (cheaper than one selector per kind of element).
pub(super) fn events(
    html: &[u8],
    resources: bool,
    chunk: usize,
    each: &mut dyn FnMut(Ev),
) -> Option<String> {
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
                TextType::RawText if resources => {
                    // CSS of a `<style>`, in as many pieces as it came.
                    if let Some(Ev::Css(_, end)) = evs.last_mut() {
                        if *end == s {
                            *end = e;
                            return Ok(());
                        }
                    }
                    evs.push(Ev::Css(s, e));
                }
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
    let mut res = Ok(());
    for piece in html.chunks(chunk.max(1)) {
        res = rw.write(piece);
        if res.is_err() {
            break;
        }
        // Text or CSS at the end may go on in the next chunk: kept.
        let mut e = evs.borrow_mut();
        let keep =
            usize::from(matches!(e.last(), Some(Ev::Text(..) | Ev::Css(..))));
        let n = e.len() - keep;
        e.drain(..n).for_each(&mut *each);
    }
    if res.is_ok() {
        res = rw.end();
    }
    evs.take().into_iter().for_each(each);
    res.err().map(|e| format!("the HTML parser stopped: {e}"))
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
        match resource_kind(name, anchor) {
            Some(true) => evs.push(Ev::Css(s, e)),
            Some(false) => evs.push(Ev::Resource(s, e)),
            None => {}
        }
    }
}

/// Compares the tokenizer's events on `html` with this parser's (given
/// the part whole), resources on or off; says where they differ. On
/// input that is not UTF-8, where this parser drops bytes from its text
/// ranges, only runs the tokenizer.
#[cfg(feature = "html-oracle")]
pub fn compare(html: &[u8], resources: bool) -> Result<(), String> {
    let mut new = Vec::new();
    super::tokenizer::tokenize(html, resources, &mut |e| new.push(e));
    if std::str::from_utf8(html).is_err() {
        return Ok(());
    }
    let mut old = Vec::new();
    if let Some(err) =
        events(html, resources, usize::MAX, &mut |e| old.push(e))
    {
        return Err(err);
    }
    if new == old {
        return Ok(());
    }
    let at = new.iter().zip(&old).take_while(|(a, b)| a == b).count();
    Err(format!(
        "event {at}: tokenizer {:?}, parser {:?}",
        new.get(at),
        old.get(at)
    ))
}
