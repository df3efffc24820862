//! What the HTML parser (`lol_html`) reports of an HTML part, as byte
//! ranges of its text: text chunks, line breaks, `<pre>`, links and their
//! ends, resources and CSS, in order, a chunk of HTML at a time.

use std::cell::RefCell;
use std::rc::Rc;

use lol_html::html_content::{Attribute, Element, TextType};
use lol_html::{doc_text, doctype, element, end_tag, HtmlRewriter, Settings};

/// What the parser saw, by byte ranges of the HTML text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Ev {
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

/// How much HTML the parser is given at a time: the events of one chunk
/// are handed on before the next is read, so that they are never all
/// held.
pub(super) const CHUNK: usize = 64 << 10;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_of_the_parser_change_nothing() {
        // Events of a part given to the parser in pieces (text, character
        // references and tags cut anywhere) are those of the whole part.
        let html = "<p>x &amp; <a href='http://a.example/?a=1&amp;b=2'>see \
                    http://b.example/&lt;</a></p><pre>http://c.\nexample/</pre>\
                    <style>p{}</style><img src=http://d.example/i>&eacute;";
        let whole = {
            let mut v = Vec::new();
            events(html.as_bytes(), true, usize::MAX, &mut |e| v.push(e));
            v
        };
        for chunk in [1, 2, 3, 7, 64] {
            let mut v: Vec<Ev> = Vec::new();
            events(html.as_bytes(), true, chunk, &mut |e| v.push(e));
            assert_eq!(v, whole, "chunk {chunk}");
        }
    }
}
