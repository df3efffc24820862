//! Walking one message: its MIME structure as `mail-parser` reads it,
//! part by part, to the text that is scanned.
//!
//! `mail-parser` finds the header fields, the parts, their nesting
//! (`multipart/*`, `message/rfc822` and digests) and the raw byte range
//! of every body; the bodies are decoded here again (see `decode`),
//! because every decoded byte must map back to raw bytes. Part paths are
//! IMAP's: the parts of a multipart are `1`, `2`, ...; a single-part
//! body is `1`; a nested message's parts continue its part's path.
//!
//! Searched: header fields (see `headers`), every `text/*` part,
//! `message/delivery-status` and its kin, HTML parts (see `html`),
//! nested messages, recursively; other attachments are skipped. In a
//! `multipart/alternative` a URI found in more than one alternative is
//! reported once, from the first that holds it.
//!
//! What cannot be read as MIME says (a multipart without its boundary,
//! base64 that stops being base64, a charset nobody knows, nesting past
//! [`MAX_DEPTH`]) is scanned as raw text, with a note.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use mail_parser::{HeaderName, Message as Parsed, MessagePart, PartType};

use super::decode::{self, Charset};
use super::flat;
use super::found::{note, scan, Found, FoundMatch, Kind, Out, Sink};
use super::headers;
use super::html;
use super::offsets::{Layers, OffsetMap};
use super::quick_head;
use super::{MailContext, MailFinder, PartInfo};

/// How deep parts may nest before the rest is read as raw text.
pub(crate) const MAX_DEPTH: usize = 48;

/// Reads one message: its `Message-ID`, then everything found in it, in
/// order, offsets in `data`, to `sink`.
pub(crate) fn read(data: &[u8], mf: &MailFinder, sink: &mut dyn Sink) {
    read_as(data, mf, sink, true);
}

/// [`read`], splitting a plain multipart part by part (see `flat`) when
/// `split` allows; returns whether it did.
pub(crate) fn read_as(
    data: &[u8],
    mf: &MailFinder,
    sink: &mut dyn Sink,
    split: bool,
) -> bool {
    let map = OffsetMap::shift(0);
    let lay = Layers::new(&map);
    let mut w = Walker { mf, out: Out::new(sink) };
    if split && starts_with_field(data) && w.flat(data, &lay) {
        return true;
    }
    let prepared;
    let parsed = if starts_with_field(data) {
        prepared = prepare(data);
        mf.parser.parse(&prepared[..])
    } else {
        None
    };
    match parsed {
        Some(msg) => {
            w.out.message_id(message_id(&msg.parts[0]));
            w.message(&msg, data, &lay, "", 0);
            dismantle(msg);
        }
        None => {
            w.out.message_id(None);
            let part =
                Arc::new(PartInfo { path: "1".into(), ..PartInfo::default() });
            scan(mf, data, &lay, &part, &MailContext::Text, &mut w.out);
        }
    }
    false
}

/// The `Message-ID` of a message whose header block is `root`'s.
fn message_id(root: &MessagePart<'_>) -> Option<String> {
    root.headers
        .iter()
        .find(|h| h.name == HeaderName::MessageId)
        .and_then(|h| h.value.as_text())
        .map(str::to_string)
}

/// Whether `data` starts with a header field (`Name:` then a blank or
/// the line's end, the name a token): otherwise it is no message (a
/// line of prose, `mailto:a@b.example`), and all of it is text.
fn starts_with_field(data: &[u8]) -> bool {
    let line = &data[..memchr::memchr(b'\n', data).unwrap_or(data.len())];
    let Some(k) = memchr::memchr(b':', line) else { return false };
    let token =
        |b: &u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(b);
    let name = line[..k].trim_ascii_end();
    !name.is_empty()
        && name.iter().all(token)
        && matches!(line.get(k + 1), None | Some(b' ' | b'\t' | b'\r'))
}

/// The bytes given to the parser: the message with two changes of the
/// same length, so that every offset the parser reports holds for the
/// message itself.
///
/// * `Content-Transfer-Encoding` field names are masked (their first
///   letter becomes `X`): the parser then finds the structure without
///   decoding bodies, which are decoded here anyway, with offset maps;
///   `transfer_encoding` reads the field from the message.
/// * So are `charset` parameter names (the parser would convert every
///   text body to a string, a third of the time spent on a message);
///   `content_type` reads the parameter under its masked name.
/// * A header block ended by a line of only blanks: the parser would
///   read that line as a fold, so its first blank becomes a CR, which
///   ends the block as a blank line does.
fn prepare(data: &[u8]) -> Cow<'_, [u8]> {
    mask(patch_header_end(data))
}

/// A part's header block (ending with its blank line) as given to the
/// parser: [`prepare`]'s masks (its block ends where the parser sees it
/// end).
pub(crate) fn prepare_block(block: &[u8]) -> Cow<'_, [u8]> {
    mask(Cow::Borrowed(block))
}

/// The masks of [`prepare`] (not the end of the header block).
fn mask(out: Cow<'_, [u8]>) -> Cow<'_, [u8]> {
    let n = needles();
    let t: &[u8] = &out;
    let mut masks = Vec::new();
    // Each name found by its tail in the two usual cases ("ransfer-",
    // "harset"), then checked whole in any case where it stands. A
    // short text (a part's header block) is searched byte by byte for
    // the tails' first letters: setting up the substring searches would
    // cost more than the search.
    let mut look = |fs: &[memchr::memmem::Finder<'static>; 2],
                    back: usize,
                    stands: fn(&[u8], usize) -> bool| {
        let mut hit = |p: usize| {
            if let Some(at) = p.checked_sub(back) {
                if stands(t, at) {
                    masks.push(at);
                }
            }
        };
        if t.len() <= SHORT {
            let [lower, upper] = fs.each_ref().map(|f| f.needle());
            for (p, &b) in t.iter().enumerate() {
                if (b == lower[0] || b == upper[0])
                    && (t[p..].starts_with(lower) || t[p..].starts_with(upper))
                {
                    hit(p);
                }
            }
        } else {
            fs.iter().for_each(|f| f.find_iter(t).for_each(&mut hit));
        }
    };
    look(&n.transfer, 9, transfer_field_at);
    look(&n.charset, 1, charset_parameter_at);
    if masks.is_empty() {
        return out;
    }
    let mut v = out.into_owned();
    for at in masks {
        v[at] = b'X';
    }
    Cow::Owned(v)
}

/// Whether a `Content-Transfer-Encoding` field name (any case) starts a
/// line at `t[at]`.
fn transfer_field_at(t: &[u8], at: usize) -> bool {
    const NAME: &[u8] = b"content-transfer-encoding";
    (at == 0 || t[at - 1] == b'\n')
        && t.get(at..at + NAME.len())
            .is_some_and(|n| n.eq_ignore_ascii_case(NAME))
}

/// Whether a `charset` parameter name (any case) stands at `t[at]`:
/// after a blank or `;`, before `=` or `*` (blanks between).
fn charset_parameter_at(t: &[u8], at: usize) -> bool {
    let end = at + CHARSET.len();
    let after = t
        .get(end..)
        .and_then(|r| r.iter().find(|b| !matches!(b, b' ' | b'\t')));
    at > 0
        && matches!(t[at - 1], b' ' | b'\t' | b';' | b'\n')
        && t.get(at..end).is_some_and(|w| w.eq_ignore_ascii_case(CHARSET))
        && matches!(after, Some(b'=' | b'*'))
}

/// Up to this length, [`mask`] looks for its names byte by byte.
const SHORT: usize = 1024;

/// The parameter name `prepare` masks.
const CHARSET: &[u8] = b"charset";

/// The searches `prepare` runs on every message, built once.
struct Needles {
    transfer: [memchr::memmem::Finder<'static>; 2],
    charset: [memchr::memmem::Finder<'static>; 2],
}

fn needles() -> &'static Needles {
    static NEEDLES: std::sync::OnceLock<Needles> = std::sync::OnceLock::new();
    NEEDLES.get_or_init(|| {
        let f = |n: &'static [u8]| memchr::memmem::Finder::new(n);
        Needles {
            transfer: [f(b"ransfer-"), f(b"RANSFER-")],
            charset: [f(b"harset"), f(b"HARSET")],
        }
    })
}

/// A header block ended by a line of only blanks: the parser would read
/// that line as a fold, so its first blank becomes a CR (same length,
/// same lines), which ends the block as a blank line does.
fn patch_header_end(data: &[u8]) -> Cow<'_, [u8]> {
    let mut at = 0;
    let mut first = true;
    while at < data.len() {
        let end =
            memchr::memchr(b'\n', &data[at..]).map_or(data.len(), |k| at + k);
        let line = &data[at..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            return Cow::Borrowed(data);
        }
        if line.iter().all(|&b| b == b' ' || b == b'\t') {
            if first || end == data.len() {
                return Cow::Borrowed(data);
            }
            let mut v = data.to_vec();
            v[at] = b'\r';
            return Cow::Owned(v);
        }
        first = false;
        at = end + 1;
    }
    Cow::Borrowed(data)
}

/// Drops a parsed message without recursing into its nested messages
/// (a message nested thousands deep must not exhaust the stack).
fn dismantle(msg: Parsed<'_>) {
    let mut stack = vec![msg];
    while let Some(mut m) = stack.pop() {
        for p in &mut m.parts {
            if let PartType::Message(_) = &p.body {
                if let PartType::Message(n) = std::mem::take(&mut p.body) {
                    stack.push(n);
                }
            }
        }
    }
}

/// A part's header block alone (`block`, prepared, ending with its
/// blank line), read with the parser's header reader: the header fields
/// and the start of the body that a parse of the block as a message
/// gives (the tests hold the two to the same answer), without building
/// a message around them.
fn part_head<'x>(
    parser: &mail_parser::MessageParser,
    block: &'x [u8],
) -> Option<MessagePart<'x>> {
    let mut stream = mail_parser::parsers::MessageStream::new(block);
    let mut headers = Vec::new();
    let offset_body = if stream.parse_headers(parser, &mut headers) {
        stream.offset()
    } else if headers.is_empty() {
        return None;
    } else {
        // A block cut before its blank line: fields and no body.
        block.len()
    };
    Some(MessagePart {
        headers,
        offset_body: offset_body as u32,
        ..MessagePart::default()
    })
}

/// The path of child `i` (from 1) under `prefix`.
fn child(prefix: &str, i: usize) -> String {
    if prefix.is_empty() {
        i.to_string()
    } else {
        format!("{prefix}.{i}")
    }
}

/// `type` and `subtype` of a part, lower case; empty when not given.
fn content_type<'p>(
    part: &'p MessagePart<'_>,
) -> (Cow<'p, str>, Cow<'p, str>, Option<&'p str>) {
    let ct = part
        .headers
        .iter()
        .find(|h| h.name == HeaderName::ContentType)
        .and_then(|h| h.value.as_content_type());
    // (The parser gives them in lower case already, as a rule.)
    let lower = |s: &'p str| match s.bytes().any(|b| b.is_ascii_uppercase()) {
        true => Cow::Owned(s.to_ascii_lowercase()),
        false => Cow::Borrowed(s),
    };
    match ct {
        Some(c) => (
            lower(c.ctype()),
            lower(c.subtype().unwrap_or("")),
            // (Under the name `prepare` gave it.)
            c.attribute("xharset").or_else(|| c.attribute("charset")),
        ),
        None => (Cow::Borrowed(""), Cow::Borrowed(""), None),
    }
}

/// The transfer encoding as written, lower case (read from `buf`, the
/// message: the parser saw the field under a masked name).
fn transfer_encoding(part: &MessagePart<'_>, buf: &[u8]) -> String {
    part.headers
        .iter()
        .find(|h| {
            buf.get(h.offset_field as usize..h.offset_start as usize)
                .and_then(|n| n.strip_suffix(b":"))
                .is_some_and(|n| {
                    n.trim_ascii()
                        .eq_ignore_ascii_case(b"content-transfer-encoding")
                })
        })
        .and_then(|h| buf.get(h.offset_start as usize..h.offset_end as usize))
        .map(|v| String::from_utf8_lossy(v.trim_ascii()).to_ascii_lowercase())
        .unwrap_or_default()
}

/// What a leaf part's header fields say about reading its body: its
/// type, subtype and charset (lower case, empty when not given) and its
/// transfer encoding as written (lower case). Read from the header
/// block alone, so the same block bytes read the same anywhere.
#[derive(Clone, Debug)]
struct Reading<'p> {
    ct: Cow<'p, str>,
    st: Cow<'p, str>,
    charset: Option<Cow<'p, str>>,
    cte: String,
}

/// The last header block of a plain multipart that was silent (no text
/// of it read: every field one the walk passes over), with what it says
/// about the part's body. The next part whose block is the same bytes
/// reads the same: it is neither parsed nor read again. Nor is one
/// whose block `quick_head::silent` reads as saying the same (another
/// case of a field name, another `name=` parameter): only its body's
/// start is taken from it.
#[derive(Default)]
struct LastHead {
    block: Vec<u8>,
    /// Where the body starts in the block.
    body: usize,
    /// None when no block is kept.
    reading: Option<Reading<'static>>,
    /// The names given to the findings of the last part read this way.
    info: Option<Arc<PartInfo>>,
}

/// What is done with a leaf part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Leaf {
    /// Nothing (an attachment).
    Skip,
    /// An encoded `message/rfc822` the parser could not read as one:
    /// decoded and read again.
    Message,
    /// Its body read as text or HTML.
    Body,
}

impl<'p> Reading<'p> {
    fn of(part: &'p MessagePart<'_>, buf: &[u8]) -> Reading<'p> {
        let (ct, st, charset) = content_type(part);
        Reading {
            ct,
            st,
            charset: charset.map(Cow::Borrowed),
            cte: transfer_encoding(part, buf),
        }
    }

    /// Whether a silent block read as `q` reads as this.
    fn says(&self, q: &quick_head::Silent<'_>) -> bool {
        let cte = q.encoding.unwrap_or_default();
        self.ct.as_bytes() == q.ctype
            && self.st.as_bytes() == q.subtype
            && self.charset.as_ref().map(|c| c.as_bytes()) == q.charset
            && self.cte.len() == cte.len()
            && self.cte.as_bytes().eq_ignore_ascii_case(cte)
    }

    /// The same reading, owning its text.
    fn owned(&self) -> Reading<'static> {
        let own = |c: &Cow<'_, str>| Cow::Owned(c.to_string());
        Reading {
            ct: own(&self.ct),
            st: own(&self.st),
            charset: self.charset.as_ref().map(own),
            cte: self.cte.clone(),
        }
    }

    fn how(&self) -> Leaf {
        let encoded =
            matches!(self.cte.as_str(), "quoted-printable" | "base64");
        if how(&self.ct, &self.st) == Read::Skip {
            Leaf::Skip
        } else if self.ct == "message"
            && matches!(&self.st[..], "rfc822" | "global")
            && encoded
        {
            Leaf::Message
        } else {
            Leaf::Body
        }
    }

    /// The part at `path` read this way.
    fn info(&self, path: String) -> PartInfo {
        PartInfo {
            path,
            content_type: if self.ct.is_empty() {
                "text/plain".into()
            } else {
                [&self.ct[..], "/", &self.st].concat()
            },
            encoding: self.cte.clone(),
        }
    }
}

/// How a leaf part is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Read {
    Text,
    Html,
    Skip,
}

fn how(ctype: &str, subtype: &str) -> Read {
    match (ctype, subtype) {
        ("text", "html") => Read::Html,
        ("text", _) | ("", _) | ("multipart", _) => Read::Text,
        (
            "message",
            "delivery-status"
            | "global-delivery-status"
            | "disposition-notification"
            | "global-disposition-notification"
            | "feedback-report"
            | "rfc822-headers"
            | "global-headers"
            | "rfc822"
            | "global"
            | "news",
        ) => Read::Text,
        _ => Read::Skip,
    }
}

struct Walker<'f, 's> {
    mf: &'f MailFinder,
    out: Out<'s>,
}

impl Walker<'_, '_> {
    /// Reads `data` part by part when it is a plain multipart (see
    /// `flat`): what the full parse would find, without a record of
    /// every part. Returns false, having read nothing, otherwise.
    fn flat(&mut self, data: &[u8], lay: &Layers<'_>) -> bool {
        if u32::try_from(data.len()).is_err() {
            return false;
        }
        let Some(head) = flat::blank_line_end(data, 0) else { return false };
        let prepared = prepare(&data[..head]);
        let Some(parsed) = self.mf.parser.parse(&prepared[..]) else {
            return false;
        };
        let root = &parsed.parts[0];
        let body = root.offset_body as usize;
        let boundary = root
            .headers
            .iter()
            .find(|h| h.name == HeaderName::ContentType)
            .and_then(|h| h.value.as_content_type())
            .filter(|c| {
                c.ctype() == "multipart" && c.subtype() != Some("digest")
            })
            .and_then(|c| c.attribute("boundary"));
        let spans = match boundary {
            Some(b) if body <= head => flat::parts(data, body, b.as_bytes()),
            _ => None,
        };
        let Some(spans) = spans else { return false };
        self.out.message_id(message_id(root));
        self.headers(root, data, lay, "");
        let (ct, st, _) = content_type(root);
        let alt = ct == "multipart" && st == "alternative";
        let mut groups = Vec::new();
        let mut spare = Vec::new();
        let mut last = LastHead::default();
        for (i, span) in spans.enumerate() {
            if alt {
                self.out.hold();
            }
            self.flat_part(data, lay, &span, i + 1, &mut spare, &mut last);
            if alt {
                groups.push(self.out.release());
            }
        }
        if alt {
            merge_alternatives(groups, &mut self.out);
        }
        true
    }

    /// Part `n` (from 1) of a plain multipart: its header block read
    /// alone (see `quick_head`; `spare` is room for its fields, kept from
    /// one part to the next), its offsets moved to the message's; or,
    /// when the block is the same bytes as the last silent one, or
    /// silent and saying what the last one said, read as that one was
    /// (see [`LastHead`]).
    fn flat_part<'d>(
        &mut self,
        data: &'d [u8],
        lay: &Layers<'_>,
        span: &flat::Span,
        n: usize,
        spare: &mut Vec<mail_parser::Header<'d>>,
        last: &mut LastHead,
    ) {
        let block = &data[span.header..span.head_end];
        if last.reading.is_some() && last.block == block {
            self.same_head(data, lay, span, last.body, n, last);
            return;
        }
        if let Some(q) = quick_head::silent(block) {
            if last.reading.as_ref().is_some_and(|r| r.says(&q)) {
                self.same_head(data, lay, span, q.body, n, last);
                return;
            }
        }
        last.reading = None;
        let path = child("", n);
        if let Some(body) = quick_head::read(block, spare) {
            let mut part = MessagePart {
                headers: std::mem::take(spare),
                offset_body: body as u32,
                ..MessagePart::default()
            };
            self.flat_leaf(data, lay, span, path, &mut part, last);
            *spare = std::mem::take(&mut part.headers);
            spare.clear();
            return;
        }
        spare.clear();
        let prepared = prepare_block(block);
        if let Some(mut part) = part_head(&self.mf.parser, &prepared) {
            self.flat_leaf(data, lay, span, path, &mut part, last);
        }
    }

    /// Part `n` of a plain multipart whose silent header block reads as
    /// `last`'s, its body `body` bytes into the block: read as `last`
    /// says. The part's names are written into those of the last part
    /// when nothing holds them any more, so that a run of such parts
    /// allocates nothing.
    fn same_head(
        &mut self,
        data: &[u8],
        lay: &Layers<'_>,
        span: &flat::Span,
        body: usize,
        n: usize,
        last: &mut LastHead,
    ) {
        let LastHead { reading: Some(r), info, .. } = last else {
            return;
        };
        let body = span.header + body;
        let end = flat::body_end(data, body, span.next);
        let span = clamp(data, body as u32, end as u32);
        match r.how() {
            Leaf::Skip => {}
            Leaf::Message => {
                let path = child("", n);
                self.encoded_message(span, &r.cte, data, lay, path, 2);
            }
            Leaf::Body => {
                let reused = info.as_mut().and_then(Arc::get_mut).map(|i| {
                    i.path.clear();
                    i.path.push_str(itoa::Buffer::new().format(n));
                });
                if reused.is_none() {
                    *info = Some(Arc::new(r.info(child("", n))));
                }
                let Some(info) = info.as_ref() else { return };
                let info = Arc::clone(info);
                self.body_text(r, &info, span, data, lay);
            }
        }
    }

    /// A part of a plain multipart whose header block (offsets in the
    /// block) was read; kept in `last` when it is silent.
    fn flat_leaf(
        &mut self,
        data: &[u8],
        lay: &Layers<'_>,
        span: &flat::Span,
        path: String,
        part: &mut MessagePart<'_>,
        last: &mut LastHead,
    ) {
        let rel_body = part.offset_body as usize;
        let base = span.header as u32;
        for h in &mut part.headers {
            h.offset_field += base;
            h.offset_start += base;
            h.offset_end += base;
        }
        let body = span.header + part.offset_body as usize;
        part.offset_header = base;
        part.offset_body = body as u32;
        part.offset_end = flat::body_end(data, body, span.next) as u32;
        let silent = !self.headers(part, data, lay, &path);
        let r = Reading::of(part, data);
        let body = clamp(data, part.offset_body, part.offset_end);
        let info = self.leaf_as(&r, body, data, lay, path, 1);
        if silent {
            last.block.clear();
            last.block.extend_from_slice(&data[span.header..span.head_end]);
            last.body = rel_body;
            last.reading = Some(r.owned());
            last.info = info;
        }
    }

    /// A message (the input or a nested one) whose headers have path
    /// `path`.
    fn message(
        &mut self,
        msg: &Parsed<'_>,
        buf: &[u8],
        lay: &Layers<'_>,
        path: &str,
        depth: usize,
    ) {
        let Some(root) = msg.parts.first() else { return };
        self.headers(root, buf, lay, path);
        self.body(msg, 0, buf, lay, child(path, 1), path, depth);
    }

    /// A part inside a multipart, at `path`.
    fn entity(
        &mut self,
        msg: &Parsed<'_>,
        id: usize,
        buf: &[u8],
        lay: &Layers<'_>,
        path: String,
        depth: usize,
    ) {
        let Some(part) = msg.parts.get(id) else { return };
        if depth > MAX_DEPTH {
            let span = (part.offset_header, part.offset_end);
            self.too_deep(buf, lay, path, span, "parts");
            return;
        }
        self.headers(part, buf, lay, &path);
        let prefix = path.clone();
        self.body(msg, id, buf, lay, path, &prefix, depth);
    }

    #[allow(clippy::too_many_arguments)]
    fn body(
        &mut self,
        msg: &Parsed<'_>,
        id: usize,
        buf: &[u8],
        lay: &Layers<'_>,
        leaf_path: String,
        prefix: &str,
        depth: usize,
    ) {
        let part = &msg.parts[id];
        match &part.body {
            PartType::Multipart(children) => {
                let (ct, st, _) = content_type(part);
                let alt = ct == "multipart" && st == "alternative";
                let mut groups = Vec::new();
                for (i, &c) in children.iter().enumerate() {
                    if alt {
                        self.out.hold();
                    }
                    self.entity(
                        msg,
                        c as usize,
                        buf,
                        lay,
                        child(prefix, i + 1),
                        depth + 1,
                    );
                    if alt {
                        groups.push(self.out.release());
                    }
                }
                if alt {
                    merge_alternatives(groups, &mut self.out);
                }
            }
            PartType::Message(nested) => {
                self.nested(part, nested, buf, lay, leaf_path, depth + 1)
            }
            _ => self.leaf(part, buf, lay, leaf_path, depth),
        }
    }

    /// Reads `buf[start..end]` of an entity nested past [`MAX_DEPTH`]
    /// (`what`: "parts" or "messages") as raw text, with a note.
    fn too_deep(
        &mut self,
        buf: &[u8],
        lay: &Layers<'_>,
        path: String,
        (start, end): (u32, u32),
        what: &str,
    ) {
        let (s, e) = clamp(buf, start, end);
        let info = Arc::new(PartInfo { path, ..PartInfo::default() });
        let why = format!(
            "{what} nested more than {MAX_DEPTH} deep: read as raw text"
        );
        note(&mut self.out, &info, (s, e), why);
        let map = OffsetMap::shift(s);
        scan(
            self.mf,
            &buf[s..e],
            &lay.then(&map),
            &info,
            &MailContext::Text,
            &mut self.out,
        );
    }

    /// A `message/rfc822` part at `path`.
    fn nested(
        &mut self,
        part: &MessagePart<'_>,
        nested: &Parsed<'_>,
        buf: &[u8],
        lay: &Layers<'_>,
        path: String,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            let span = (part.offset_body, part.offset_end);
            self.too_deep(buf, lay, path, span, "messages");
            return;
        }
        let cte = transfer_encoding(part, buf);
        if !matches!(cte.as_str(), "quoted-printable" | "base64") {
            // Parsed in place: offsets are in `buf`.
            self.message(nested, buf, lay, &path, depth);
            return;
        }
        let span = clamp(buf, part.offset_body, part.offset_end);
        self.encoded_message(span, &cte, buf, lay, path, depth);
    }

    /// A `message/rfc822` part in base64 or quoted-printable, its body
    /// `buf[s..e]`: decoded here, with a map, and read again.
    fn encoded_message(
        &mut self,
        (s, e): (usize, usize),
        cte: &str,
        buf: &[u8],
        lay: &Layers<'_>,
        path: String,
        depth: usize,
    ) {
        let (text, map) = match cte {
            "quoted-printable" => {
                let d = decode::quoted_printable(&buf[s..e], s);
                (d.text, d.map)
            }
            _ => {
                let b = decode::base64(&buf[s..e], s);
                (b.decoded.text, b.decoded.map)
            }
        };
        let l = lay.then(&map);
        let prepared;
        let parsed = if starts_with_field(&text) {
            prepared = prepare(&text);
            self.mf.parser.parse(&prepared[..])
        } else {
            None
        };
        match parsed {
            Some(m) => {
                self.message(&m, &text, &l, &path, depth);
                dismantle(m);
            }
            None => {
                let info = Arc::new(PartInfo { path, ..PartInfo::default() });
                scan(
                    self.mf,
                    &text,
                    &l,
                    &info,
                    &MailContext::Text,
                    &mut self.out,
                );
            }
        }
    }

    /// The header fields of `part` (of a message or a MIME part).
    /// Returns whether any of its text was read (a field searched, or a
    /// line that is no field): a block that reads none is silent, and so
    /// is the same block anywhere else.
    fn headers(
        &mut self,
        part: &MessagePart<'_>,
        buf: &[u8],
        lay: &Layers<'_>,
        path: &str,
    ) -> bool {
        if part.headers.is_empty() {
            return false;
        }
        let mut read = false;
        // Made when something is found: most part headers hold nothing.
        let mut info = None;
        let info_for = |info: &mut Option<Arc<PartInfo>>| {
            let new = || {
                Arc::new(PartInfo { path: path.into(), ..PartInfo::default() })
            };
            Arc::clone(info.get_or_insert_with(new))
        };
        let mut prev = part.offset_header as usize;
        for h in &part.headers {
            let (f, e) = clamp(buf, h.offset_field, h.offset_end);
            let s = (h.offset_start as usize).clamp(f, e);
            if f > prev && prev < buf.len() {
                // Lines the parser passed over: read as text.
                let gap = &buf[prev..f];
                if gap.iter().any(|b| !b.is_ascii_whitespace()) {
                    read = true;
                    let map = OffsetMap::shift(prev);
                    scan(
                        self.mf,
                        gap,
                        &lay.then(&map),
                        &info_for(&mut info),
                        &MailContext::Text,
                        &mut self.out,
                    );
                }
            }
            prev = prev.max(e);
            let name = buf[f..s]
                .strip_suffix(b":")
                .unwrap_or(&buf[f..s])
                .trim_ascii();
            if !headers::field_name(name) || buf[s..e].starts_with(b"//") {
                // Not a header field (prose before a blank line, in a
                // message that is not one, or a URI at a line's start
                // that the parser took for one): the line as text.
                read = true;
                let map = OffsetMap::shift(f);
                let l = lay.then(&map);
                let text = &buf[f..e];
                scan(
                    self.mf,
                    text,
                    &l,
                    &info_for(&mut info),
                    &MailContext::Text,
                    &mut self.out,
                );
                continue;
            }
            if headers::structural(name) {
                continue;
            }
            read = true;
            let value = &buf[s..e];
            let ctx = MailContext::Header(
                String::from_utf8_lossy(name).into_owned(),
            );
            match headers::decode_words(value, s) {
                Some(d) => scan(
                    self.mf,
                    &d.text,
                    &lay.then(&d.map),
                    &info_for(&mut info),
                    &ctx,
                    &mut self.out,
                ),
                None => {
                    let map = OffsetMap::shift(s);
                    scan(
                        self.mf,
                        value,
                        &lay.then(&map),
                        &info_for(&mut info),
                        &ctx,
                        &mut self.out,
                    );
                }
            }
        }
        read
    }

    /// A part with a body and no parts.
    fn leaf(
        &mut self,
        part: &MessagePart<'_>,
        buf: &[u8],
        lay: &Layers<'_>,
        path: String,
        depth: usize,
    ) {
        let r = Reading::of(part, buf);
        let span = clamp(buf, part.offset_body, part.offset_end);
        self.leaf_as(&r, span, buf, lay, path, depth);
    }

    /// A leaf part at `path` whose body is `buf[span]`, read as `r`
    /// says; the names its findings were given, if it was read.
    fn leaf_as(
        &mut self,
        r: &Reading<'_>,
        span: (usize, usize),
        buf: &[u8],
        lay: &Layers<'_>,
        path: String,
        depth: usize,
    ) -> Option<Arc<PartInfo>> {
        match r.how() {
            Leaf::Skip => None,
            Leaf::Message => {
                self.encoded_message(span, &r.cte, buf, lay, path, depth + 1);
                None
            }
            Leaf::Body => {
                let info = Arc::new(r.info(path));
                self.body_text(r, &info, span, buf, lay);
                Some(info)
            }
        }
    }

    /// The body `buf[s..e]` of a leaf part read as `r` says (a text or
    /// HTML part), found things named by `info`.
    fn body_text(
        &mut self,
        r: &Reading<'_>,
        info: &Arc<PartInfo>,
        (s, e): (usize, usize),
        buf: &[u8],
        lay: &Layers<'_>,
    ) {
        let (ct, cte, charset) = (&r.ct, &r.cte, r.charset.as_deref());
        let how = how(ct, &r.st);
        let body = &buf[s..e];
        if *ct == "multipart" {
            note(
                &mut self.out,
                info,
                (s, e),
                "multipart part without its boundary: read as raw text".into(),
            );
        }
        let (decoded, stopped) = match cte.as_str() {
            "quoted-printable" => {
                (Some(decode::quoted_printable(body, s)), None)
            }
            "base64" => {
                let b = decode::base64(body, s);
                (Some(b.decoded), b.stopped)
            }
            _ => (None, None),
        };
        let shift;
        let (text, map): (&[u8], &OffsetMap) = match &decoded {
            Some(d) => (&d.text, &d.map),
            None => {
                shift = OffsetMap::shift(s);
                (body, &shift)
            }
        };
        let l1 = lay.then(map);
        let converted = match decode::charset(charset.map(str::as_bytes)) {
            Charset::Convert(enc) => decode::to_utf8(text, enc),
            Charset::Unknown => {
                let cs = charset.unwrap_or("");
                note(
                    &mut self.out,
                    info,
                    (s, e),
                    format!("unknown charset '{cs}': read as it is"),
                );
                None
            }
            Charset::AsIs => None,
        };
        let (text, l2) = match &converted {
            Some(c) => (&c.text[..], l1.then(&c.map)),
            None => (text, l1),
        };
        match how {
            Read::Html => html::read(self.mf, text, &l2, info, &mut self.out),
            _ => scan(
                self.mf,
                text,
                &l2,
                info,
                &MailContext::Text,
                &mut self.out,
            ),
        }
        if let Some(k) = stopped {
            let at = s + k;
            note(
                &mut self.out,
                info,
                (at, e),
                "bad base64: the rest of the part read as raw text".into(),
            );
            let map = OffsetMap::shift(at);
            scan(
                self.mf,
                &buf[at..e],
                &lay.then(&map),
                info,
                &MailContext::Text,
                &mut self.out,
            );
        }
    }
}

/// `a..b` as offsets into `buf`, clamped and ordered.
fn clamp(buf: &[u8], a: u32, b: u32) -> (usize, usize) {
    let a = (a as usize).min(buf.len());
    let b = (b as usize).min(buf.len()).max(a);
    (a, b)
}

/// Joins what the alternatives of a `multipart/alternative` found: a
/// URI seen in more than one alternative is kept once, where it was
/// first seen, with the list of parts that hold it.
fn merge_alternatives(groups: Vec<Vec<Found>>, out: &mut Out<'_>) {
    let mut holders: HashMap<Vec<u8>, Vec<(usize, String)>> = HashMap::new();
    for (g, v) in groups.iter().enumerate() {
        for f in v {
            if let Kind::Match(m) = &f.kind {
                let h = holders.entry(m.uri.clone()).or_default();
                if h.last().is_none_or(|(last, _)| *last != g) {
                    h.push((g, f.part.path.clone()));
                }
            }
        }
    }
    // What the text of a link shows, from whichever alternative has it
    // (the plain text part has none to say).
    let mut shown: HashMap<Vec<u8>, Vec<u8>> = HashMap::new();
    for f in groups.iter().flatten() {
        if let Kind::Match(FoundMatch { uri, shown: Some(s), .. }) = &f.kind {
            shown.entry(uri.clone()).or_insert_with(|| s.clone());
        }
    }
    let mut emitted: HashSet<Vec<u8>> = HashSet::new();
    for v in groups {
        for mut f in v {
            if let Kind::Match(m) = &mut f.kind {
                let h = &holders[&m.uri];
                if h.len() > 1 {
                    if !emitted.insert(m.uri.clone()) {
                        continue;
                    }
                    m.parts_seen = h.iter().map(|(_, p)| p.clone()).collect();
                    if m.shown.is_none() {
                        m.shown = shown.get(&m.uri).cloned();
                    }
                }
            }
            out.push(f);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn header_end_patch_keeps_lengths() {
        let d = b"From: a\nSubject: b\n \t\nbody\n";
        let p = patch_header_end(d);
        assert_eq!(p.len(), d.len());
        assert_eq!(&p[..], b"From: a\nSubject: b\n\r\t\nbody\n");
        let d = b"From: a\n\n  \nbody\n";
        assert!(matches!(patch_header_end(d), Cow::Borrowed(_)));
    }

    /// Header blocks: crafted ones, then every header block of the
    /// sample mail.
    pub(crate) fn header_blocks() -> Vec<Vec<u8>> {
        let crafted: [&[u8]; 14] = [
            b"Content-Type: text/plain\n\n",
            b"Content-Type: text/plain; charset=\"utf-8\"\r\n\r\n",
            b"content-type:TEXT/Html;\n\tcharset=iso-8859-1; format=flowed\n\n",
            b"Content-Transfer-Encoding: Quoted-Printable\nContent-Type: text/plain\n\n",
            b"Content-Type: text/plain; name*0=a; name*1=b.txt\n\n",
            b"Content-Type: text/plain (a comment) ; charset=us-ascii\n\n",
            b"Content-Disposition: attachment; filename=x.txt\nContent-ID: <a@b>\n\n",
            b"X-Long: folded\n over\n  lines\nContent-Type: text/plain\n\n",
            b"not a field\nContent-Type: text/plain\n\n",
            b" \tleading blanks\n\n",
            b"\n",
            b"\r\n",
            b"Content-Type: text/plain\n",
            b"Content-Type: text/plain; charset=utf-8\nSubject: =?utf-8?q?x?=\n",
        ];
        let mut blocks: Vec<Vec<u8>> =
            crafted.iter().map(|b| b.to_vec()).collect();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/mail");
        let mf = MailFinder::new(crate::Finder::new());
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_none_or(|x| x != "eml") {
                continue;
            }
            let data = std::fs::read(path).unwrap();
            let prepared = prepare(&data);
            let msg = mf.parser.parse(&prepared[..]).unwrap();
            for p in &msg.parts {
                let (h, b) =
                    (p.offset_header as usize, p.offset_body as usize);
                blocks.push(data[h..b.max(h)].to_vec());
            }
        }
        blocks
    }

    #[test]
    fn a_header_block_alone_reads_as_in_a_message() {
        let mf = MailFinder::new(crate::Finder::new());
        let blocks = header_blocks();
        assert!(blocks.len() > 40, "{}", blocks.len());
        for block in blocks {
            let prepared = mask(Cow::Borrowed(&block[..]));
            let whole = mf.parser.parse(&prepared[..]);
            let alone = part_head(&mf.parser, &prepared);
            let whole = whole.map(|m| {
                let p = &m.parts[0];
                (p.headers.clone(), p.offset_body)
            });
            let alone = alone.map(|p| (p.headers, p.offset_body));
            assert_eq!(alone, whole, "{}", String::from_utf8_lossy(&block));
        }
    }

    /// Pieces of header lines: names in several cases, separators,
    /// values, parameters (quoted, RFC 2231, encoded words, comments),
    /// folds.
    const NAMES: [&str; 12] = [
        "Content-Type",
        "content-type",
        "CONTENT-TYPE",
        "Content-type",
        "Content-Transfer-Encoding",
        "content-transfer-encoding",
        "Content-TrAnsfer-Encoding",
        "Content-Disposition",
        "MIME-Version",
        "Content-ID",
        "X-Other",
        "Subject",
    ];
    const SEPS: [&str; 4] = [":", ": ", ":\t", " :"];
    const VALUES: [&str; 12] = [
        "text/plain",
        "TEXT/Plain",
        "text/html",
        "application/octet-stream",
        "message/rfc822",
        "base64",
        " Base64 ",
        "quoted-printable",
        "7bit",
        "//x.example/",
        "1.0",
        "attachment",
    ];
    const PARAMS: [&str; 13] = [
        "",
        "; charset=utf-8",
        "; CHARSET=\"iso-8859-1\"",
        "; name=\"a b\"",
        "; name*0*=utf-8''a%20b; name*1=c",
        "; charset=",
        "; xharset=x",
        " (comment)",
        "; name==?utf-8?q?x?=",
        "; name=p0001",
        ";charset=us-ascii ;format=flowed",
        "; charset=\"a\\\"b\"",
        "; charset=utf-8; charset=latin1",
    ];

    /// A header block built from picks of those pieces: each line a
    /// name, a separator, a value, parameters and maybe a fold; `crlf`
    /// for CRLF line breaks.
    fn block_of(
        lines: &[(usize, usize, usize, usize, bool)],
        crlf: bool,
    ) -> Vec<u8> {
        let eol = if crlf { "\r\n" } else { "\n" };
        let mut b = String::new();
        for &(n, s, v, p, fold) in lines {
            b.push_str(NAMES[n % NAMES.len()]);
            b.push_str(SEPS[s % SEPS.len()]);
            b.push_str(VALUES[v % VALUES.len()]);
            if fold {
                b.push_str(eol);
                b.push(' ');
            }
            b.push_str(PARAMS[p % PARAMS.len()]);
            b.push_str(eol);
        }
        b.push_str(eol);
        b.into_bytes()
    }

    fn line(
    ) -> impl proptest::strategy::Strategy<Value = (usize, usize, usize, usize, bool)>
    {
        (
            0..NAMES.len(),
            0..SEPS.len(),
            0..VALUES.len(),
            0..PARAMS.len(),
            proptest::bool::weighted(0.1),
        )
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(5_000))]

        /// A block that `quick_head::silent` reads says what the parser's
        /// reading of it says (type, subtype, charset, transfer encoding,
        /// where the body starts), and the walk searches none of it.
        #[test]
        fn silent_blocks_read_as_the_parser_reads_them(
            lines in proptest::collection::vec(line(), 0..4),
            crlf: bool,
        ) {
            let mf = MailFinder::new(crate::Finder::builder().rejected(true).build().unwrap());
            let block = block_of(&lines, crlf);
            let Some(q) = quick_head::silent(&block) else { return Ok(()) };
            let prepared = prepare_block(&block);
            let part = part_head(&mf.parser, &prepared);
            proptest::prop_assert!(part.is_some());
            let part = part.unwrap();
            proptest::prop_assert_eq!(q.body, part.offset_body as usize);
            let r = Reading::of(&part, &block);
            proptest::prop_assert!(r.says(&q), "{:?} {:?}", r, q);
            proptest::prop_assert_eq!(r.ct.as_bytes(), q.ctype);
            proptest::prop_assert_eq!(r.st.as_bytes(), q.subtype);
            proptest::prop_assert_eq!(r.charset.as_ref().map(|c| c.as_bytes()), q.charset);
            let mut sink = crate::mail::found::Collect::default();
            let map = OffsetMap::shift(0);
            let lay = Layers::new(&map);
            let mut w = Walker { mf: &mf, out: Out::new(&mut sink) };
            proptest::prop_assert!(!w.headers(&part, &block, &lay, "1"));
            proptest::prop_assert!(sink.found.is_empty());
            // What `quick_head::read` takes, it takes too.
            proptest::prop_assert!(quick_head::read(&block, &mut Vec::new()).is_some());
        }

        /// A plain multipart whose parts' header blocks are made of
        /// those pieces, each followed by others that differ from it
        /// (or not): split part by part, reading a block that says what
        /// the last one said as that one was read, it gives what the
        /// full parse gives.
        #[test]
        fn parts_with_varied_header_blocks_read_as_parsed(
            blocks in proptest::collection::vec(
                (proptest::collection::vec(line(), 0..3), proptest::bool::ANY), 1..4),
            picks in proptest::collection::vec((0..4usize, 0..3usize), 1..10),
        ) {
            let mf = MailFinder::new(crate::Finder::builder().rejected(true).build().unwrap());
            let bodies = ["http://a.example/x\n", "aHR0cDovL2I2NC5leGFtcGxlLw==\n", "caf=E9 http://q.example/?a=3D1\n"];
            let mut m = b"From: a@example.org\nContent-Type: multipart/mixed; boundary=b\n\n".to_vec();
            for &(k, body) in &picks {
                let (lines, crlf) = &blocks[k % blocks.len()];
                m.extend_from_slice(b"--b\n");
                m.extend_from_slice(&block_of(lines, *crlf));
                m.extend_from_slice(bodies[body].as_bytes());
            }
            m.extend_from_slice(b"--b--\n");
            // Nested messages are never split (and the parser's debug
            // build asserts on some of these).
            proptest::prop_assume!(memchr::memmem::find(&m, b"message/").is_none());
            let walk = |split| {
                let mut sink = crate::mail::found::Collect::default();
                read_as(&m, &mf, &mut sink, split);
                format!("{:?} {:?}", sink.id, sink.found)
            };
            proptest::prop_assert_eq!(walk(true), walk(false));
        }
    }

    /// Every one-line block of those pieces, with either line break:
    /// the silent ones read as the parser reads them (the property test
    /// above adds folds and several lines), and many are silent.
    #[test]
    fn every_one_line_block_reads_as_the_parser_reads_it() {
        let mf = MailFinder::new(crate::Finder::new());
        let mut silent = 0;
        for n in 0..NAMES.len() {
            for s in 0..SEPS.len() {
                for v in 0..VALUES.len() {
                    for p in 0..PARAMS.len() {
                        for crlf in [false, true] {
                            let block = block_of(&[(n, s, v, p, false)], crlf);
                            let Some(q) = quick_head::silent(&block) else {
                                continue;
                            };
                            silent += 1;
                            let prepared = prepare_block(&block);
                            let part =
                                part_head(&mf.parser, &prepared).unwrap();
                            let r = Reading::of(&part, &block);
                            let text = String::from_utf8_lossy(&block);
                            assert_eq!(
                                q.body, part.offset_body as usize,
                                "{text}"
                            );
                            assert!(r.says(&q), "{text}: {r:?} {q:?}");
                        }
                    }
                }
            }
        }
        assert!(silent > 1000, "{silent}");
    }

    /// The reading of the varied blocks the quick reader takes: a
    /// block of another case or another `name=` reads as silent and
    /// says what the common block says.
    #[test]
    fn varied_silent_blocks_say_the_same() {
        let mf = MailFinder::new(crate::Finder::new());
        let common = b"Content-Type: text/plain\n\n";
        let prepared = prepare_block(common);
        let part = part_head(&mf.parser, &prepared).unwrap();
        let r = Reading::of(&part, common);
        for same in [
            &b"Content-type: text/plain\n\n"[..],
            b"Content-Type: text/plain; name=p0000001\n\n",
            b"CONTENT-TYPE:text/plain\r\n\r\n",
            b"MIME-Version: 1.0\nContent-Type: text/plain\n\n",
        ] {
            let q = quick_head::silent(same).unwrap();
            assert!(r.says(&q), "{}", String::from_utf8_lossy(same));
        }
        for other in [
            &b"Content-Type: text/plain; charset=utf-8\n\n"[..],
            b"Content-Type: text/html\n\n",
            b"Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n",
        ] {
            let q = quick_head::silent(other).unwrap();
            assert!(!r.says(&q), "{}", String::from_utf8_lossy(other));
        }
        for not_silent in [
            &b"Subject: hi\nContent-Type: text/plain\n\n"[..],
            b"Content-ID://x.example/\n\n",
            b"Content-Type: text/plain (comment)\n\n",
            b"Content-Type: text/plain;\n name=x\n\n",
        ] {
            assert!(
                quick_head::silent(not_silent).is_none(),
                "{}",
                String::from_utf8_lossy(not_silent)
            );
        }
    }

    #[test]
    fn masks_are_found_in_short_and_long_text() {
        let block = b"Content-Type: text/plain; CHARSET=x; charset=y\n\
            CONTENT-TRANSFER-ENCODING: base64\ncontent-transfer-encoding: 7bit\n\n";
        let short = mask(Cow::Borrowed(&block[..])).into_owned();
        let mut long = block.to_vec();
        long.resize(SHORT + 100, b'z');
        let long = mask(Cow::Owned(long)).into_owned();
        assert_eq!(short, long[..block.len()]);
        assert_eq!(
            &short[..],
            b"Content-Type: text/plain; XHARSET=x; Xharset=y\n\
            XONTENT-TRANSFER-ENCODING: base64\nXontent-transfer-encoding: 7bit\n\n"
        );
    }

    #[test]
    fn paths() {
        assert_eq!(child("", 2), "2");
        assert_eq!(child("2", 1), "2.1");
    }

    #[test]
    fn what_is_read() {
        assert_eq!(how("text", "html"), Read::Html);
        assert_eq!(how("text", "x-markdown"), Read::Text);
        assert_eq!(how("message", "delivery-status"), Read::Text);
        assert_eq!(how("image", "png"), Read::Skip);
        assert_eq!(how("application", "pdf"), Read::Skip);
    }
}
