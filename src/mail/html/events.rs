//! What the reader takes from an HTML part, as byte ranges of its text:
//! text, line breaks, `<pre>`, links and their ends, resources and CSS,
//! in order; the names of the elements that matter and the attributes
//! that hold resources. The tokenizer that finds them is `tokenizer`.

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

/// What an attribute named `name` holds, if it is read with resources:
/// `Some(true)` CSS, `Some(false)` a resource's address. The `href` of a
/// link (`anchor`) is its target, not a resource.
pub(super) fn resource_kind(name: &[u8], anchor: bool) -> Option<bool> {
    let is = |n: &[u8]| name.eq_ignore_ascii_case(n);
    if name.len() >= 5 && name[..5].eq_ignore_ascii_case(b"xmlns") {
        Some(false)
    } else if is(b"style") || is(b"srcset") {
        Some(true)
    } else if RESOURCE_ATTRS.iter().any(|a| is(a)) && !(anchor && is(b"href"))
    {
        Some(false)
    } else {
        None
    }
}

/// What an element is to the reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tag {
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
pub(super) fn tag_name(html: &[u8], at: usize) -> &[u8] {
    let rest = html.get(at + 1..).unwrap_or_default();
    let n = rest
        .iter()
        .take_while(|b| !b.is_ascii_whitespace() && !matches!(b, b'/' | b'>'))
        .count();
    &rest[..n]
}

pub(super) fn classify(name: &[u8]) -> Tag {
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

/// How many links (`<a>` and `<area>` with an `href` value) an HTML part
/// holds, as mail mode reads HTML: what the parse-only floor of the mail
/// benchmarks counts. Not an interface of the library.
///
/// ```
/// let html = b"<p><a href=x>x</a> <a>y</a> <area href='z'>";
/// assert_eq!(urifind::mail::html_link_count(html), 2);
/// ```
pub fn link_count(html: &[u8]) -> usize {
    let mut n = 0;
    super::tokenizer::tokenize(html, false, &mut |ev| {
        n += usize::from(matches!(ev, Ev::Anchor { href: Some(_), .. }));
    });
    n
}

#[cfg(test)]
thread_local! {
    /// The HTML parts read, when a test gathers them.
    pub(super) static SEEN: std::cell::RefCell<Option<Vec<Vec<u8>>>> =
        const { std::cell::RefCell::new(None) };
}

/// How much HTML the reference parser (`oracle`, in the tests) is given
/// at a time; the tokenizer reads a part whole.
pub(super) const CHUNK: usize = 64 << 10;

/// Reads `html`, handing every event to `each` in order. `chunk` and the
/// error returned are the reference parser's (`oracle`), whose interface
/// this keeps: the tokenizer reads the part whole and never gives up.
pub(super) fn events(
    html: &[u8],
    resources: bool,
    _chunk: usize,
    each: &mut dyn FnMut(Ev),
) -> Option<String> {
    #[cfg(test)]
    SEEN.with(|s| {
        if let Some(parts) = s.borrow_mut().as_mut() {
            parts.push(html.to_vec());
        }
    });
    super::tokenizer::tokenize(html, resources, each);
    None
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
