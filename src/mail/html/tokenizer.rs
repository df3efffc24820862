//! The project's own HTML tokenizer: one pass over an HTML part, reporting
//! the [`Ev`]ents the reader needs as byte ranges, with no copy of the
//! input and no allocation per tag.
//!
//! It follows the WHATWG tokenizer where the events depend on it (data,
//! tags and attributes, comments and bogus comments, DOCTYPE, CDATA
//! sections, RCDATA, RAWTEXT, script data with its escaped states,
//! PLAINTEXT), and it reproduces what `lol_html` 3.0, used before, made
//! of the rest: which start tags switch the text state (`<noscript>` is
//! RAWTEXT), foreign content (`<svg>`, `<math>`: CDATA sections and
//! self-closing tags, their integration points), and which open element
//! an end tag closes (the nearest open element of that name, with every
//! element opened after it). Where that parser departs from the standard
//! (a start tag ending in `=>` leaves the tokenizer in the data state
//! while its text keeps the element's text type), this one departs
//! alike, so that the events are the same: the tests compare the two on
//! every part of the corpora, on generated tag soup and under fuzzing.
//!
//! Every step moves forward (a state hands a byte back at most once
//! before another state consumes it) and each open element is popped
//! once, so the time is linear in the part whatever it holds; the
//! memory is the open elements (8 bytes each) and the namespaces (1 byte
//! each).

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher, RandomState};

use memchr::{memchr, memchr2, memmem};

use super::events::{classify, resource_kind, tag_name, Ev, Tag};

/// The name hash of an unrepresentable name (see [`hash_step`]).
const NO_HASH: u64 = !0;

/// One byte more of a tag name as one integer: five bits per byte
/// (`a`-`z` in either case, `1`-`6`), as long as it fits; any other byte,
/// or a name too long, gives [`NO_HASH`]. Names that give it are read
/// differently in foreign content.
const fn hash_step(h: u64, c: u8) -> u64 {
    if h >> 59 != 0 {
        return NO_HASH;
    }
    match c {
        b'a'..=b'z' | b'A'..=b'Z' => (h << 5) | ((c & 0x1F) as u64 + 5),
        b'1'..=b'6' => (h << 5) | ((c & 0x0F) as u64 - 1),
        _ => NO_HASH,
    }
}

fn name_hash(name: &[u8]) -> u64 {
    name.iter().fold(0, |h, &c| hash_step(h, c))
}

/// A tag name in ASCII lower case, if it is short enough to be one the
/// rules name (longer ones compare equal to none of them).
struct Lower {
    buf: [u8; 16],
    len: usize,
}

impl Lower {
    fn of(name: &[u8]) -> Lower {
        let mut buf = [0xFF; 16];
        let len = if name.len() <= buf.len() {
            buf[..name.len()].copy_from_slice(name);
            buf[..name.len()].make_ascii_lowercase();
            name.len()
        } else {
            1
        };
        Lower { buf, len }
    }

    fn get(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

/// Start tags that leave foreign content.
fn foreign_exit(l: &[u8]) -> bool {
    matches!(
        l,
        b"b" | b"big"
            | b"blockquote"
            | b"body"
            | b"br"
            | b"center"
            | b"code"
            | b"dd"
            | b"div"
            | b"dl"
            | b"dt"
            | b"em"
            | b"embed"
            | b"h1"
            | b"h2"
            | b"h3"
            | b"h4"
            | b"h5"
            | b"h6"
            | b"head"
            | b"hr"
            | b"i"
            | b"img"
            | b"li"
            | b"listing"
            | b"menu"
            | b"meta"
            | b"nobr"
            | b"ol"
            | b"p"
            | b"pre"
            | b"ruby"
            | b"s"
            | b"small"
            | b"span"
            | b"strong"
            | b"strike"
            | b"sub"
            | b"sup"
            | b"table"
            | b"tt"
            | b"u"
            | b"ul"
            | b"var"
    )
}

/// HTML elements without content.
fn void(l: &[u8]) -> bool {
    matches!(
        l,
        b"area"
            | b"base"
            | b"basefont"
            | b"bgsound"
            | b"br"
            | b"col"
            | b"embed"
            | b"hr"
            | b"img"
            | b"input"
            | b"keygen"
            | b"link"
            | b"meta"
            | b"param"
            | b"source"
            | b"track"
            | b"wbr"
    )
}

/// `MathML` elements whose content is text.
fn math_text(l: &[u8]) -> bool {
    matches!(l, b"mi" | b"mo" | b"mn" | b"ms" | b"mtext")
}

/// SVG elements whose content is HTML.
fn svg_html(l: &[u8]) -> bool {
    matches!(l, b"desc" | b"title" | b"foreignobject")
}

/// The text an HTML start tag (lower case) begins, and the name its end
/// tag must have.
fn text_of(l: &[u8]) -> (TextType, &'static [u8]) {
    match l {
        b"title" => (TextType::RcData, b"title"),
        b"textarea" => (TextType::RcData, b"textarea"),
        b"plaintext" => (TextType::Plain, b""),
        b"script" => (TextType::Script, b"script"),
        b"style" => (TextType::RawText, b"style"),
        b"iframe" => (TextType::RawText, b"iframe"),
        b"xmp" => (TextType::RawText, b"xmp"),
        b"noembed" => (TextType::RawText, b"noembed"),
        b"noframes" => (TextType::RawText, b"noframes"),
        b"noscript" => (TextType::RawText, b"noscript"),
        _ => (TextType::Data, b""),
    }
}

fn is(name: &[u8], what: &[u8]) -> bool {
    name.eq_ignore_ascii_case(what)
}

/// Mixes the keys of [`Tokenizer::open_names`] (names as integers) with
/// a seed of the process, cheaper than `SipHash` on one integer.
#[derive(Clone)]
struct Mix(u64);

impl BuildHasher for Mix {
    type Hasher = MixHasher;
    fn build_hasher(&self) -> MixHasher {
        MixHasher(self.0)
    }
}

struct MixHasher(u64);

impl Hasher for MixHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        // The finalizer of splitmix64.
        let mut z = (self.0 ^ n).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        self.0 = z ^ (z >> 31);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

fn ws(c: u8) -> bool {
    matches!(c, b' ' | b'\n' | b'\r' | b'\t' | 0x0C)
}

/// Ends a tag name.
fn name_end(c: u8) -> bool {
    ws(c) || c == b'/' || c == b'>'
}

/// How the text of the current element is read or reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TextType {
    Data,
    RcData,
    RawText,
    Script,
    Plain,
    Cdata,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ns {
    Html,
    Svg,
    Math,
}

/// An attribute of the start tag being read, by byte ranges.
#[derive(Clone, Copy, Debug)]
struct Attr {
    name: (usize, usize),
    value: Option<(usize, usize)>,
}

/// How a tag ended.
struct TagEnd {
    /// After its `>`.
    end: usize,
    self_closing: bool,
    /// Ended by `=>` (an attribute with an empty value): the data state
    /// follows, whatever the element's text type.
    to_data: bool,
}

/// What the end of an open element reports (the low two bits of an
/// entry of [`Tokenizer::open`]).
const KIND_NONE: u64 = 0;
const KIND_ANCHOR: u64 = 1;
const KIND_BLOCK: u64 = 2;
const KIND_PRE: u64 = 3;

struct Tokenizer<'h, 'e> {
    html: &'h [u8],
    resources: bool,
    each: &'e mut dyn FnMut(Ev),
    /// The last event, held back while text may still join it.
    last: Option<Ev>,
    /// How the text is read (the state of the tokenizer).
    state: TextType,
    /// How the text is reported (differs from `state` after `=>`).
    text_type: TextType,
    /// Where the text not yet reported starts.
    text_start: usize,
    /// The element whose RCDATA, RAWTEXT or script data is read.
    raw_name: &'static [u8],
    cdata_allowed: bool,
    ns: Vec<Ns>,
    /// Open elements.
    open: Open,
    /// How many open elements have each name (by [`Self::key`]).
    open_names: HashMap<u64, u32, Mix>,
    /// Names that are not [`hash_step`] integers, as keys.
    hasher: RandomState,
    /// The attributes of the current start tag, up to [`MAX_KEPT`]
    /// (the vector is kept from tag to tag).
    attrs: Vec<Attr>,
    /// The current start tag has more: they are read again from the tag.
    spill: bool,
}

/// How many attributes of a tag are kept: a tag with more is read again
/// when they are looked at (so that a tag of a million attributes costs
/// no memory), once for each look.
const MAX_KEPT: usize = 32;

/// Reports the events of `html` to `each`, in order.
pub(super) fn tokenize(
    html: &[u8],
    resources: bool,
    each: &mut dyn FnMut(Ev),
) {
    let mut t = Tokenizer {
        html,
        resources,
        each,
        last: None,
        state: TextType::Data,
        text_type: TextType::Data,
        text_start: 0,
        raw_name: b"",
        cdata_allowed: false,
        ns: vec![Ns::Html],
        open: Open::for_part(html.len()),
        open_names: HashMap::with_hasher(Mix(RandomState::new().hash_one(0))),
        hasher: RandomState::new(),
        attrs: Vec::new(),
        spill: false,
    };
    t.run();
    if let Some(ev) = t.last.take() {
        (t.each)(ev);
    }
}

/// Reads the rest of a tag of `h` whose name ends at `p` (at its
/// delimiter): attributes (each handed to `sink`), `/`, up to `>`;
/// `None` if the part ends first.
fn tag_rest(
    h: &[u8],
    mut p: usize,
    sink: &mut dyn FnMut(Attr),
) -> Option<TagEnd> {
    let done = |end, self_closing, to_data| {
        Some(TagEnd { end, self_closing, to_data })
    };
    // The byte at `p` ends the name.
    let mut self_closing_next = match *h.get(p)? {
        b'>' => return done(p + 1, false, false),
        c => c == b'/',
    };
    p += 1;
    loop {
        if self_closing_next {
            self_closing_next = false;
            // Else read again as before an attribute name.
            if *h.get(p)? == b'>' {
                return done(p + 1, true, false);
            }
        }
        // Before an attribute name.
        let c = *h.get(p)?;
        if ws(c) {
            p += 1;
            continue;
        }
        match c {
            b'/' => {
                p += 1;
                self_closing_next = true;
                continue;
            }
            b'>' => return done(p + 1, false, false),
            _ => {}
        }
        // An attribute name: its first byte may be anything else.
        let name_start = p;
        p += 1;
        loop {
            let c = *h.get(p)?;
            if ws(c) || matches!(c, b'=' | b'/' | b'>') {
                break;
            }
            p += 1;
        }
        let mut attr = Attr { name: (name_start, p), value: None };
        // After the name.
        loop {
            let c = *h.get(p)?;
            if ws(c) {
                p += 1;
                continue;
            }
            match c {
                b'=' => break,
                b'/' => {
                    sink(attr);
                    p += 1;
                    self_closing_next = true;
                }
                b'>' => {
                    sink(attr);
                    return done(p + 1, false, false);
                }
                _ => {
                    // Another attribute starts here.
                    sink(attr);
                    let name_start = p;
                    p += 1;
                    loop {
                        let c = *h.get(p)?;
                        if ws(c) || matches!(c, b'=' | b'/' | b'>') {
                            break;
                        }
                        p += 1;
                    }
                    attr = Attr { name: (name_start, p), value: None };
                    continue;
                }
            }
            break;
        }
        if self_closing_next {
            continue;
        }
        // At `=`: before the value.
        p += 1;
        loop {
            let c = *h.get(p)?;
            if ws(c) {
                p += 1;
                continue;
            }
            match c {
                b'"' | b'\'' => {
                    let from = p + 1;
                    let k = memchr(c, h.get(from..)?)?;
                    attr.value = Some((from, from + k));
                    sink(attr);
                    p = from + k + 1;
                }
                b'>' => {
                    sink(attr);
                    return done(p + 1, false, true);
                }
                _ => {
                    let from = p;
                    loop {
                        let c = *h.get(p)?;
                        if ws(c) || c == b'>' {
                            break;
                        }
                        p += 1;
                    }
                    attr.value = Some((from, p));
                    sink(attr);
                    if h[p] == b'>' {
                        return done(p + 1, false, false);
                    }
                    p += 1;
                }
            }
            break;
        }
    }
}

/// The open elements, each where its name starts (after `<`) times 4
/// plus what its end reports: in 4 bytes each when the part is under
/// 1 GiB, else in 8.
enum Open {
    Small(Vec<u32>),
    Large(Vec<u64>),
}

impl Open {
    fn for_part(len: usize) -> Open {
        if len < (1 << 30) - 1 {
            Open::Small(Vec::new())
        } else {
            Open::Large(Vec::new())
        }
    }

    fn push(&mut self, e: u64) {
        match self {
            Open::Small(v) => v.push(e as u32),
            Open::Large(v) => v.push(e),
        }
    }

    fn pop(&mut self) -> Option<u64> {
        match self {
            Open::Small(v) => v.pop().map(u64::from),
            Open::Large(v) => v.pop(),
        }
    }

    fn len(&self) -> usize {
        match self {
            Open::Small(v) => v.len(),
            Open::Large(v) => v.len(),
        }
    }

    /// The last entry for which `f` holds.
    fn rposition(&self, mut f: impl FnMut(u64) -> bool) -> Option<usize> {
        match self {
            Open::Small(v) => v.iter().rposition(|&e| f(u64::from(e))),
            Open::Large(v) => v.iter().rposition(|&e| f(e)),
        }
    }
}

/// The states of script data (outside tags).
#[derive(Clone, Copy)]
enum Sd {
    Data,
    Lt,
    EndOpen,
    EndName,
    EscStart,
    EscDashDash,
    Esc,
    EscLt,
    EscEndOpen,
    EscEndName,
    DblStart,
    Dbl,
    DblDashDash,
    DblLt,
    DblEndName,
    DblEnd,
}

impl Tokenizer<'_, '_> {
    fn at(&self, i: usize) -> Option<u8> {
        self.html.get(i).copied()
    }

    fn emit(&mut self, ev: Ev) {
        if let Some(prev) = self.last.replace(ev) {
            (self.each)(prev);
        }
    }

    /// Reports the text from `text_start` to `to` by its type.
    fn flush(&mut self, to: usize) {
        let s = self.text_start;
        if to <= s {
            return;
        }
        let ev = match self.text_type {
            TextType::Data | TextType::Plain | TextType::Cdata => {
                Ev::Text(s, to)
            }
            TextType::RawText if self.resources => Ev::Css(s, to),
            _ => return,
        };
        match (&mut self.last, ev) {
            (Some(Ev::Text(_, end)), Ev::Text(..))
            | (Some(Ev::Css(_, end)), Ev::Css(..))
                if *end == s =>
            {
                *end = to;
            }
            (_, ev) => self.emit(ev),
        }
    }

    /// A token (no event of its own) from `at` to `end`, or to the end of
    /// the part; returns where reading goes on.
    fn skip(&mut self, at: usize, end: Option<usize>) -> Option<usize> {
        self.flush(at);
        self.text_start = end.unwrap_or(self.html.len());
        end
    }

    fn run(&mut self) {
        let len = self.html.len();
        let mut i = 0;
        while let Some(next) = self.step(i) {
            i = next;
        }
        self.flush(len);
    }

    /// Reads on from `i` in the current state up to the end of the next
    /// token; `None` at the end of the part.
    fn step(&mut self, i: usize) -> Option<usize> {
        match self.state {
            TextType::Data => {
                let k = memchr(b'<', &self.html[i..])?;
                Some(self.tag_open(i + k))
            }
            TextType::RcData | TextType::RawText => {
                let (lt, delim) = self.raw_end(i)?;
                self.end_tag(lt, lt + 2, delim)
            }
            TextType::Script => {
                let (lt, delim) = self.script_end(i)?;
                self.end_tag(lt, lt + 2, delim)
            }
            TextType::Plain => None,
            TextType::Cdata => {
                let k = memmem::find(&self.html[i..], b"]]>")?;
                let end = self.skip(i + k, Some(i + k + 3));
                self.text_type = TextType::Data;
                self.state = TextType::Data;
                end
            }
        }
    }

    /// After a `<` in the data state: returns where reading goes on (the
    /// end of the part when it ends inside a token).
    fn tag_open(&mut self, lt: usize) -> usize {
        let len = self.html.len();
        let Some(c) = self.at(lt + 1) else {
            return len;
        };
        let next = match c {
            b'a'..=b'z' | b'A'..=b'Z' => {
                let name_end = self.name_from(lt + 1);
                self.start_tag(lt, name_end)
            }
            b'!' => self.markup(lt),
            b'/' => match self.at(lt + 2) {
                None => return len,
                Some(b'a'..=b'z' | b'A'..=b'Z') => {
                    let name_end = self.name_from(lt + 2);
                    self.end_tag(lt, lt + 2, name_end)
                }
                Some(b'>') => self.skip(lt, Some(lt + 3)),
                Some(_) => self.bogus(lt, lt + 2),
            },
            b'?' => self.bogus(lt, lt + 2),
            _ => return lt + 1,
        };
        next.unwrap_or(len)
    }

    /// Where the tag name from `from` ends (the part's length if the
    /// part ends first).
    fn name_from(&self, from: usize) -> usize {
        self.html[from..]
            .iter()
            .position(|&c| name_end(c))
            .map_or(self.html.len(), |k| from + k)
    }

    /// A bogus comment from `lt`, whose text starts at `from`.
    fn bogus(&mut self, lt: usize, from: usize) -> Option<usize> {
        let end = memchr(b'>', self.html.get(from..).unwrap_or_default())
            .map(|k| from + k + 1);
        self.skip(lt, end)
    }

    /// After `<!`.
    fn markup(&mut self, lt: usize) -> Option<usize> {
        let rest = &self.html[lt + 2..];
        if rest.starts_with(b"--") {
            let end = self.comment_end(lt + 4);
            self.skip(lt, end)
        } else if rest.len() >= 7 && is(&rest[..7], b"DOCTYPE") {
            let from = lt + 9;
            let end = memchr(b'>', &self.html[from..]).map(|k| from + k + 1);
            self.flush(lt);
            if self.resources {
                self.emit(Ev::Css(lt, end.unwrap_or(self.html.len())));
            }
            self.text_start = end.unwrap_or(self.html.len());
            end
        } else if rest.starts_with(b"[CDATA[") && self.cdata_allowed {
            let end = self.skip(lt, Some(lt + 9));
            self.text_type = TextType::Cdata;
            self.state = TextType::Cdata;
            end
        } else {
            self.bogus(lt, lt + 2)
        }
    }

    /// Where a comment whose text starts at `from` ends (after its `>`).
    fn comment_end(&self, from: usize) -> Option<usize> {
        let h = self.html;
        let mut p = from;
        // The start: `<!-->` and `<!--->` are whole comments.
        match self.at(p)? {
            b'>' => return Some(p + 1),
            b'-' => match self.at(p + 1)? {
                b'>' => return Some(p + 2),
                b'-' => {
                    p += 2;
                    if let Some(e) = self.comment_close(&mut p) {
                        return Some(e);
                    }
                }
                _ => p += 1,
            },
            _ => {}
        }
        loop {
            // In the comment: up to the next `--`.
            let k = memchr(b'-', h.get(p..)?)?;
            p += k + 1;
            if self.at(p)? != b'-' {
                continue;
            }
            p += 1;
            if let Some(e) = self.comment_close(&mut p) {
                return Some(e);
            }
        }
    }

    /// After `--` in a comment: the end if `>`, `!>` or more dashes then
    /// one of them follow; else `p` is left where the comment goes on.
    fn comment_close(&self, p: &mut usize) -> Option<usize> {
        loop {
            match self.at(*p) {
                Some(b'>') => return Some(*p + 1),
                Some(b'-') => *p += 1,
                Some(b'!') => match self.at(*p + 1) {
                    Some(b'>') => return Some(*p + 2),
                    Some(b'-') => {
                        // `--!-`: one dash, which a second one closes
                        // again.
                        *p += 2;
                        if self.at(*p) == Some(b'-') {
                            *p += 1;
                            continue;
                        }
                        return None;
                    }
                    _ => {
                        *p += 1;
                        return None;
                    }
                },
                _ => return None,
            }
        }
    }

    /// Hands the attributes of the current start tag (whose name ends at
    /// `name_end`) to `f`, in order.
    fn visit_attrs(
        &mut self,
        name_end: usize,
        f: &mut dyn FnMut(&mut Self, Attr),
    ) {
        let attrs = std::mem::take(&mut self.attrs);
        if self.spill {
            let h = self.html;
            tag_rest(h, name_end, &mut |a| f(self, a));
        } else {
            for &a in &attrs {
                f(self, a);
            }
        }
        self.attrs = attrs;
    }

    /// The key of an open element's name in [`Self::open_names`].
    fn key(&self, name: &[u8]) -> u64 {
        let h = name_hash(name);
        if h != NO_HASH {
            return h;
        }
        let mut hasher = self.hasher.build_hasher();
        for c in name {
            hasher.write_u8(c.to_ascii_lowercase());
        }
        hasher.finish()
    }

    fn enter(&mut self, ns: Ns) {
        self.ns.push(ns);
        self.cdata_allowed = ns != Ns::Html;
    }

    fn leave(&mut self) {
        if self.ns.len() > 1 {
            self.ns.pop();
        }
        self.cdata_allowed = self.ns() != Ns::Html;
    }

    fn ns(&self) -> Ns {
        self.ns.last().copied().unwrap_or(Ns::Html)
    }

    /// A start tag at `lt` whose name ends at `name_end`.
    fn start_tag(&mut self, lt: usize, name_end: usize) -> Option<usize> {
        let h = self.html;
        let (attrs, spill) = (&mut self.attrs, &mut self.spill);
        attrs.clear();
        *spill = false;
        let te = tag_rest(h, name_end, &mut |a| {
            if attrs.len() < MAX_KEPT {
                attrs.push(a);
            } else {
                *spill = true;
            }
        });
        let Some(te) = te else {
            return self.skip(lt, None);
        };
        self.flush(lt);
        let name = &h[lt + 1..name_end];
        let low = Lower::of(name);
        let l = low.get();
        // What the tree makes of it: namespace and text type.
        let mut text = TextType::Data;
        match l {
            b"svg" => self.enter(Ns::Svg),
            b"math" => self.enter(Ns::Math),
            _ if self.ns() != Ns::Html => {
                self.foreign_start(name_end, l, te.self_closing)
            }
            _ => {
                let raw_name;
                (text, raw_name) = text_of(l);
                if text != TextType::Data {
                    self.raw_name = raw_name;
                }
            }
        }
        self.text_type = text;
        self.state = if te.to_data { TextType::Data } else { text };
        let content =
            if self.ns() == Ns::Html { !void(l) } else { !te.self_closing };
        // The events.
        let at = (lt, te.end);
        let tag = classify(tag_name(h, lt));
        if self.resources {
            let anchor = matches!(tag, Tag::Anchor | Tag::Area);
            self.visit_attrs(name_end, &mut |t, a| {
                let Some((s, e)) = a.value else { return };
                match resource_kind(&h[a.name.0..a.name.1], anchor) {
                    Some(true) => t.emit(Ev::Css(s, e)),
                    Some(false) => t.emit(Ev::Resource(s, e)),
                    None => {}
                }
            });
        }
        let mut kind = KIND_NONE;
        match tag {
            Tag::Anchor | Tag::Area => {
                // The first `href`, with or without a value.
                let mut href = None;
                self.visit_attrs(name_end, &mut |_, a| {
                    if href.is_none() && is(&h[a.name.0..a.name.1], b"href") {
                        href = Some(a.value);
                    }
                });
                let href = href.flatten();
                let closes = content && tag == Tag::Anchor;
                self.emit(Ev::Anchor { href, closes });
                if closes {
                    kind = KIND_ANCHOR;
                }
            }
            Tag::Br => self.emit(Ev::Break(at.0, at.1)),
            Tag::Block => {
                self.emit(Ev::Break(at.0, at.1));
                kind = KIND_BLOCK;
            }
            Tag::Pre => {
                self.emit(Ev::Break(at.0, at.1));
                self.emit(Ev::Pre(true));
                kind = KIND_PRE;
            }
            Tag::Other => {}
        }
        if content {
            let key = self.key(name);
            *self.open_names.entry(key).or_default() += 1;
            self.open.push(((lt as u64 + 1) << 2) | kind);
        }
        self.text_start = te.end;
        Some(te.end)
    }

    /// The tree rules for a start tag in foreign content.
    fn foreign_start(
        &mut self,
        name_end: usize,
        l: &[u8],
        self_closing: bool,
    ) {
        let ns = self.ns();
        if foreign_exit(l) {
            self.leave();
        } else if (ns == Ns::Svg && svg_html(l))
            || (ns == Ns::Math && math_text(l))
        {
            if !self_closing {
                self.enter(Ns::Html);
            }
        } else if l == b"font" {
            let h = self.html;
            let mut leaves = false;
            self.visit_attrs(name_end, &mut |_, a| {
                let n = &h[a.name.0..a.name.1];
                leaves |= is(n, b"color") || is(n, b"size") || is(n, b"face");
            });
            if leaves {
                self.leave();
            }
        } else if ns == Ns::Math && !self_closing && l == b"annotation-xml" {
            let h = self.html;
            let mut html = false;
            self.visit_attrs(name_end, &mut |_, a| {
                html |= a.value.is_some_and(|(s, e)| {
                    is(&h[a.name.0..a.name.1], b"encoding")
                        && (is(&h[s..e], b"text/html")
                            || is(&h[s..e], b"application/xhtml+xml"))
                });
            });
            if html {
                self.enter(Ns::Html);
            }
        }
    }

    /// An end tag at `lt` whose name runs from `name_start` to
    /// `name_end`.
    fn end_tag(
        &mut self,
        lt: usize,
        name_start: usize,
        name_end: usize,
    ) -> Option<usize> {
        let h = self.html;
        let Some(te) = tag_rest(h, name_end, &mut |_| {}) else {
            return self.skip(lt, None);
        };
        self.flush(lt);
        let name = &h[name_start..name_end];
        let low = Lower::of(name);
        let l = low.get();
        // The tree rules.
        let ns = self.ns();
        if ns == Ns::Html {
            if self.ns.len() >= 2 {
                let prev = self.ns[self.ns.len() - 2];
                if (prev == Ns::Math
                    && (math_text(l) || l == b"annotation-xml"))
                    || (prev == Ns::Svg && svg_html(l))
                {
                    self.leave();
                }
            }
        } else if (ns == Ns::Svg && l == b"svg")
            || (ns == Ns::Math && l == b"math")
            || l == b"p"
            || l == b"br"
        {
            self.leave();
        }
        self.text_type = TextType::Data;
        self.state = TextType::Data;
        self.close(name, (lt, te.end));
        self.text_start = te.end;
        Some(te.end)
    }

    /// Pops the open elements up to the last one named `name`, if any,
    /// reporting their ends, innermost first.
    fn close(&mut self, name: &[u8], at: (usize, usize)) {
        let key = self.key(name);
        if !self.open_names.contains_key(&key) {
            return;
        }
        let h = self.html;
        let Some(i) = self.open.rposition(|e| {
            let from = (e >> 2) as usize;
            let open_name = &h[from..self.name_from(from)];
            is(open_name, name)
        }) else {
            return;
        };
        while self.open.len() > i {
            let Some(e) = self.open.pop() else { break };
            let from = (e >> 2) as usize;
            let k = self.key(&h[from..self.name_from(from)]);
            if let Some(n) = self.open_names.get_mut(&k) {
                *n -= 1;
                if *n == 0 {
                    self.open_names.remove(&k);
                }
            }
            match e & 3 {
                KIND_ANCHOR => self.emit(Ev::AnchorEnd),
                KIND_BLOCK => self.emit(Ev::Break(at.0, at.1)),
                KIND_PRE => {
                    self.emit(Ev::Pre(false));
                    self.emit(Ev::Break(at.0, at.1));
                }
                _ => {}
            }
        }
    }

    /// In RCDATA or RAWTEXT from `i`: the `<` of the end tag of the
    /// element and the byte after its name.
    fn raw_end(&self, mut i: usize) -> Option<(usize, usize)> {
        let h = self.html;
        let n = self.raw_name.len();
        loop {
            let lt = i + memchr(b'<', &h[i..])?;
            i = lt + 1;
            if h.get(lt + 1) == Some(&b'/')
                && h.get(lt + 2..lt + 2 + n)
                    .is_some_and(|s| is(s, self.raw_name))
                && h.get(lt + 2 + n).is_some_and(|&c| name_end(c))
            {
                return Some((lt, lt + 2 + n));
            }
        }
    }

    /// In script data from `i`: the `<` of `</script` and the byte after
    /// the name, following the escaped (`<!--`) and double escaped
    /// (`<!--<script>`) states.
    fn script_end(&self, from: usize) -> Option<(usize, usize)> {
        let h = self.html;
        let script_at =
            |p: usize| h.get(p..p + 6).is_some_and(|s| is(s, b"script"));
        let alpha = |c: u8| c.is_ascii_alphabetic();
        let mut p = from;
        let mut lt = from;
        let mut name = from;
        let mut st = Sd::Data;
        loop {
            st = match st {
                Sd::Data => {
                    lt = p + memchr(b'<', h.get(p..)?)?;
                    p = lt + 1;
                    Sd::Lt
                }
                Sd::Lt => match *h.get(p)? {
                    b'/' => {
                        p += 1;
                        Sd::EndOpen
                    }
                    b'!' => {
                        p += 1;
                        Sd::EscStart
                    }
                    _ => Sd::Data,
                },
                Sd::EndOpen | Sd::EscEndOpen => {
                    let c = *h.get(p)?;
                    let esc = matches!(st, Sd::EscEndOpen);
                    if alpha(c) {
                        name = p;
                        p += 1;
                        if esc {
                            Sd::EscEndName
                        } else {
                            Sd::EndName
                        }
                    } else if esc {
                        Sd::Esc
                    } else {
                        Sd::Data
                    }
                }
                Sd::EndName | Sd::EscEndName => {
                    let c = *h.get(p)?;
                    let esc = matches!(st, Sd::EscEndName);
                    if alpha(c) {
                        p += 1;
                        st
                    } else if name_end(c) && is(&h[name..p], b"script") {
                        return Some((lt, p));
                    } else if esc {
                        Sd::Esc
                    } else {
                        Sd::Data
                    }
                }
                Sd::EscStart => {
                    if h.get(p) == Some(&b'-') && h.get(p + 1) == Some(&b'-') {
                        p += 2;
                        Sd::EscDashDash
                    } else {
                        Sd::Data
                    }
                }
                Sd::EscDashDash => match *h.get(p)? {
                    b'-' => {
                        p += 1;
                        st
                    }
                    b'<' => {
                        lt = p;
                        p += 1;
                        Sd::EscLt
                    }
                    b'>' => Sd::Data,
                    _ => {
                        p += 1;
                        Sd::Esc
                    }
                },
                Sd::Esc => {
                    let q = p + memchr2(b'-', b'<', h.get(p..)?)?;
                    if h[q] == b'<' {
                        lt = q;
                        p = q + 1;
                        Sd::EscLt
                    } else if h.get(q + 1) == Some(&b'-') {
                        p = q + 2;
                        Sd::EscDashDash
                    } else {
                        p = q + 1;
                        Sd::Esc
                    }
                }
                Sd::EscLt => {
                    if script_at(p) {
                        p += 6;
                        Sd::DblStart
                    } else if *h.get(p)? == b'/' {
                        p += 1;
                        Sd::EscEndOpen
                    } else {
                        Sd::Esc
                    }
                }
                Sd::DblStart => {
                    if name_end(*h.get(p)?) {
                        p += 1;
                        Sd::Dbl
                    } else {
                        Sd::Esc
                    }
                }
                Sd::Dbl => {
                    let q = p + memchr2(b'-', b'<', h.get(p..)?)?;
                    if h[q] == b'<' {
                        p = q + 1;
                        Sd::DblLt
                    } else if h.get(q + 1) == Some(&b'-') {
                        p = q + 2;
                        Sd::DblDashDash
                    } else {
                        p = q + 1;
                        Sd::Dbl
                    }
                }
                Sd::DblDashDash => match *h.get(p)? {
                    b'-' => {
                        p += 1;
                        st
                    }
                    b'<' => {
                        p += 1;
                        Sd::DblLt
                    }
                    b'>' => Sd::Data,
                    _ => {
                        p += 1;
                        Sd::Dbl
                    }
                },
                Sd::DblLt => {
                    if *h.get(p)? == b'/' {
                        p += 1;
                        Sd::DblEndName
                    } else {
                        Sd::Dbl
                    }
                }
                Sd::DblEndName => {
                    if script_at(p) {
                        p += 6;
                        Sd::DblEnd
                    } else {
                        h.get(p)?;
                        Sd::Dbl
                    }
                }
                Sd::DblEnd => {
                    if name_end(*h.get(p)?) {
                        p += 1;
                        Sd::Esc
                    } else {
                        Sd::Dbl
                    }
                }
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::events::{Ev, CHUNK, SEEN};
    use super::super::oracle;
    use super::tokenize;
    use proptest::prelude::*;

    fn new(html: &[u8], resources: bool) -> Vec<Ev> {
        let mut v = Vec::new();
        tokenize(html, resources, &mut |e| v.push(e));
        v
    }

    fn old(html: &[u8], resources: bool, chunk: usize) -> Vec<Ev> {
        let mut v = Vec::new();
        let err = oracle::events(html, resources, chunk, &mut |e| v.push(e));
        assert_eq!(err, None);
        v
    }

    /// The tokenizer's events are the reference parser's, resources on
    /// and off, the parser given the HTML `chunk` bytes at a time. (On
    /// text that is not ASCII, give it the whole part: a character split
    /// between two of its chunks loses its bytes from the text's range.)
    fn same(html: &[u8], chunk: usize) {
        for resources in [false, true] {
            assert_eq!(
                new(html, resources),
                old(html, resources, chunk),
                "resources {resources}, chunk {chunk}: {:?}",
                String::from_utf8_lossy(html)
            );
        }
    }

    #[test]
    fn crafted_html_as_the_reference_parser_reads_it() {
        let cases: &[&str] = &[
            "",
            "plain text",
            "<a href=\"http://d.example/z\">http://e.example/w</a><br>",
            "a < b <3 <> </> </ x> <? pi ?> <!x> </",
            "<",
            "x<a",
            "<a href='x",
            "<a href=x>y</a",
            "<p>one<div>two</p>three</div>",
            "<a><b><i>x</a>y</b></i>",
            "<pre>a\nb</pre><listing>c</listing><xmp><a>d</xmp>",
            "<!-- c --> <!--> <!---> <!-- a -- b --!> <!-- x --!- y --> t",
            "<!-- <!-- <!--> --> e",
            "<!DOCTYPE html>x<!doctype html public \"a>b\">y<!DOCTYPE",
            "<![CDATA[x]]>y<svg><![CDATA[http://c.example/]]]>z</svg>",
            "<svg><![CDATA[never closed",
            "<math><mi><![CDATA[x]]></mi><![CDATA[y]]></math>",
            "<svg><a href=x/>t</a><a href=y>u</a></svg>v",
            "<svg><foreignObject><p>x</p><style>s</style></foreignObject>",
            "<svg><title>http://t.example/</title><desc/><p>out",
            "<svg><font color=red>x</font><font>y",
            "<math><annotation-xml encoding='text/html'><style>a</style>",
            "<math><annotation-xml></annotation-xml><p>",
            "<title>http://a.example/ <b></title>t",
            "<textarea><a href=x></TEXTAREA >t",
            "<style>a{}</stylex></style2></style/>b",
            "<style a=>http://q.example/<b>c</b></style>",
            "<title a=>http://q.example/<b>c</b>",
            "<script>if (a<b) x='</scr'+'ipt>'</script>after",
            "<script><!--<script>x</script>y--></script>z",
            "<script><!-- a --> b</script>c",
            "<script><!--<script></script>--><a>",
            "<script><!--<SCRIPT>x</SCRIPT></script>q",
            "<script><!-->x</script>y",
            "<noscript><a href=x>y</a></noscript>z",
            "<iframe>a</iframe><noembed>b</noembed><noframes>c</noframes>d",
            "<plaintext></plaintext><a href=x>",
            "<a href=x href=y HREF=z>t</a><area href=w><area>",
            "<img src=i.png style='u' srcset=s xmlns:o=urn:x data-x=y>",
            "<body background=b><form action=f><q cite=c><object data=d>",
            "<a/ href = \"x\" / >t</a/>",
            "<a =x 'y\"=z>t</a>",
            "<o:p>x</o:p><O:P>y</o:p><my-el><p>z</my-el>",
            "<div><span></div></span><h1>h</H1><TABLE><tr><td>c</table>",
            "<br/><br /><hr><p/>x",
            "text &amp; <b>bold</b>\u{e9}\u{fffd}",
            "<a href=\"\">e</a><a href>f</a><a href=>g</a>",
            "<p\0>x</p\0><a\tb>c</a>",
            "<svg><p/>x</p></svg>",
            "<svg/><a href=x>y</a>",
            "<math><br>x</math>",
        ];
        for case in cases {
            same(case.as_bytes(), CHUNK);
            if case.is_ascii() {
                same(case.as_bytes(), 1);
            }
        }
        // Tags with more attributes than are kept: read again.
        let many: String = (0..40).map(|i| format!(" a{i}=v")).collect();
        for tail in [" href=h style=s href=g", ""] {
            let html = format!("<a{many}{tail}>t</a><img{many}{tail} src=i>");
            same(html.as_bytes(), CHUNK);
        }
        let html = format!("<svg><font{many} size=1>x</font><p>");
        same(html.as_bytes(), CHUNK);
        // Bytes that are not UTF-8 in names.
        same(b"a\xff<b\xe9>x</b\xe9>y", CHUNK);
    }

    #[test]
    fn text_that_is_not_utf8_keeps_its_bytes() {
        // The reference parser decodes text as UTF-8 and drops from the
        // ranges a text node that is only the start of a character (and,
        // given the HTML in pieces, the part of a character before a
        // piece's end); the tokenizer reports the text as written.
        let html = b"a\xff<b>\xe2\x82</b>\xc3";
        assert_eq!(
            new(html, false),
            [Ev::Text(0, 2), Ev::Text(5, 7), Ev::Text(11, 12)]
        );
        assert_eq!(old(html, false, CHUNK), [Ev::Text(0, 2)]);
    }

    /// Every HTML part of the message corpora and of the labeled mail
    /// cases, as the reader decodes it.
    #[test]
    fn html_of_the_corpora() {
        use crate::mail::{MailFinder, Messages};
        let mut files = Vec::new();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for dir in ["corpora/mail", "../shared/cases-mail"] {
            let Ok(rd) = std::fs::read_dir(root.join(dir)) else {
                continue;
            };
            for e in rd.flatten() {
                let p = e.path();
                let ext = p.extension().and_then(|e| e.to_str());
                if matches!(ext, Some("eml" | "mbox" | "txt")) {
                    files.push(p);
                }
            }
        }
        files.push(root.join("corpora/message.eml"));
        files.sort();
        SEEN.with(|s| *s.borrow_mut() = Some(Vec::new()));
        let mf =
            MailFinder::new(crate::Finder::default()).html_resources(true);
        for f in &files {
            let data = std::fs::read(f).unwrap();
            for msg in Messages::new(&data[..]) {
                let _ = msg.unwrap().items(&mf).count();
            }
        }
        let parts = SEEN.with(|s| s.borrow_mut().take()).unwrap();
        assert!(parts.len() >= 7, "only {} HTML parts", parts.len());
        for html in &parts {
            same(html, usize::MAX);
            if html.is_ascii() {
                same(html, 7);
            }
        }
    }

    /// Pieces HTML is made of, tags and text states above all.
    const SOUP: &[&str] = &[
        "<a href=",
        "<a href='http://x.example/'>",
        "</a>",
        "<br/>",
        "<br>",
        "<p>",
        "</p>",
        "<pre>",
        "</pre>",
        "<script>",
        "</script>",
        "</SCRIPT ",
        "<!--",
        "-->",
        "--!>",
        "-",
        "--",
        "<!",
        "<![CDATA[",
        "]]>",
        "]",
        "<svg>",
        "</svg>",
        "<math>",
        "</math>",
        "<mi>",
        "<foreignObject>",
        "<title>",
        "</title>",
        "&amp;",
        "\"",
        "'",
        ">",
        "/",
        "=",
        " ",
        "\n",
        "a",
        "http://u.example/",
        "<textarea>",
        "</textarea>",
        "<plaintext>",
        "<noscript>",
        "</noscript>",
        "<style>",
        "</style>",
        "<xmp>",
        "<",
        "</",
        "<?",
        "<!DOCTYPE x>",
        "<div>",
        "</div>",
        "<o:p>",
        "</o:p>",
        "<img src=",
        "style=",
        "<font color=x>",
        "<desc>",
        "<area href=y>",
        "<b>",
        "</b>",
        "\0",
        "\u{e9}",
        "<annotation-xml encoding=text/html>",
        "</annotation-xml>",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn tag_soup_as_the_reference_parser_reads_it(
            picks in proptest::collection::vec(0..SOUP.len(), 0..60),
            chunk in 1usize..64,
        ) {
            let html: String = picks.iter().map(|&i| SOUP[i]).collect();
            same(html.as_bytes(), if html.is_ascii() { chunk } else { usize::MAX });
        }

        #[test]
        fn markup_characters_as_the_reference_parser_reads_them(
            html in r#"[<>/!?="' \n\-\[\]abcdeilmprstvxACDT]{0,200}"#,
        ) {
            same(html.as_bytes(), 13);
        }
    }
}
