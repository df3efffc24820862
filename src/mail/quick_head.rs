//! A part's header block of only plain one-line fields, read without the
//! parser.
//!
//! The parts of a plain multipart (see `flat`) are read one header block
//! at a time. Most such blocks are a line or two (`Content-Type:
//! text/plain; charset=utf-8`, a transfer encoding, a disposition), and
//! with a million of them, setting up the parser for each costs more
//! than everything else done with the part. A block made only of such
//! lines is read here; anything else (folded lines, comments, quoting
//! beyond the simplest, RFC 2231 parameters, encoded words, upper-case
//! types, a `Message-ID`, a line that is no field) is left to the
//! parser.
//!
//! For a silent block (only structural fields, none of it searched),
//! [`silent`] gives what it says about the part's body without building
//! the fields at all: parts whose blocks differ only in what the walk
//! ignores (the case of a name, a `name=` parameter) then cost what
//! parts with one repeated block cost.
//!
//! The answer must be the parser's, field for field: what `mime::prepare`
//! would have made of the block (a `Content-Transfer-Encoding` name
//! masked to `Xontent-...`, a `charset` parameter to `xharset`), then
//! read by the parser as `MailFinder` configures it (`Content-Type`
//! parsed, other fields kept with their offsets and no value). The
//! tests hold the two to the same answer on every block they can build
//! from common and unusual lines, and on the sample mail.

use std::borrow::Cow;

use mail_parser::{Attribute, ContentType, Header, HeaderName, HeaderValue};

/// The fields of `block` (a header block ending with its blank line),
/// pushed on `headers` (empty), and where its body starts, as the parser
/// reads the block once prepared; `None` when the block holds anything
/// but plain one-line fields (`headers` then holds some of them).
pub(crate) fn read<'x>(
    block: &'x [u8],
    headers: &mut Vec<Header<'x>>,
) -> Option<usize> {
    fields(block, |at, name, start, end| {
        let (name, value) = field(name, &block[start..end])?;
        headers.push(Header {
            name,
            value,
            offset_field: at as u32,
            offset_start: start as u32,
            offset_end: end as u32,
        });
        Some(())
    })
}

/// What a silent header block says about its part's body: a block that
/// [`read`] takes whose fields are all structural (see
/// `headers::structural`), so that the walk searches none of it. The
/// slices are the block's own bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Silent<'x> {
    /// Where the body starts in the block.
    pub(crate) body: usize,
    /// The first `Content-Type` field's type and subtype (lower case;
    /// empty without one) and its first `charset` parameter.
    pub(crate) ctype: &'x [u8],
    pub(crate) subtype: &'x [u8],
    pub(crate) charset: Option<&'x [u8]>,
    /// The first `Content-Transfer-Encoding` field's value, blanks and
    /// line break trimmed, as written.
    pub(crate) encoding: Option<&'x [u8]>,
}

/// `block` read as [`Silent`] without building its fields (nothing is
/// allocated); `None` when it is not silent or not a block [`read`]
/// takes. The tests hold it to the parser's reading of the block.
pub(crate) fn silent(block: &[u8]) -> Option<Silent<'_>> {
    let mut s = Silent {
        body: 0,
        ctype: b"",
        subtype: b"",
        charset: None,
        encoding: None,
    };
    let mut typed = false;
    s.body = fields(block, |_, name, start, end| {
        let value = &block[start..end];
        // A value the walk would read as text, not as a field.
        if value.starts_with(b"//") {
            return None;
        }
        if name.eq_ignore_ascii_case(b"content-type") {
            let mut charset = None;
            let (t, st) = content_type_parts(value, |n, v| {
                if charset.is_none() && (n == b"charset" || n == b"xharset") {
                    charset = Some(v);
                }
            })?;
            if !typed {
                (typed, s.ctype, s.subtype, s.charset) =
                    (true, t, st, charset);
            }
        } else if name.eq_ignore_ascii_case(TRANSFER) {
            // Only under the name `prepare` masks (see `field`).
            if !masked_transfer(name) {
                return None;
            }
            s.encoding.get_or_insert(value.trim_ascii());
        } else if !super::headers::structural(name) {
            return None;
        }
        Some(())
    })?;
    Some(s)
}

/// The plain one-line fields of `block`, each given to `each` as the
/// offset of its line, its name, and its value's offsets (to the line's
/// end, its line break included); where the body starts. `None` as soon
/// as a line is folded or no field, or `each` says `None`.
fn fields<'x>(
    block: &'x [u8],
    mut each: impl FnMut(usize, &'x [u8], usize, usize) -> Option<()>,
) -> Option<usize> {
    let mut at = 0;
    loop {
        let rest = &block[at..];
        if rest.starts_with(b"\n") {
            return Some(at + 1);
        }
        if rest.starts_with(b"\r\n") {
            return Some(at + 2);
        }
        // The name, a token, up to its colon; then the line's end.
        let token =
            |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_');
        let colon = rest.iter().position(|b| !token(b))?;
        if colon == 0 || rest[colon] != b':' {
            return None;
        }
        let end = at + colon + memchr::memchr(b'\n', &rest[colon..])? + 1;
        if matches!(block.get(end), Some(b' ' | b'\t')) {
            return None; // folded
        }
        each(at, &rest[..colon], at + colon + 1, end)?;
        at = end;
    }
}

const TRANSFER: &[u8] = b"content-transfer-encoding";

/// Whether `prepare` masks a field name that starts with
/// `Content-Transfer-Encoding` (any case): when its tail is in one of
/// the two usual cases.
fn masked_transfer(name: &[u8]) -> bool {
    name.get(..TRANSFER.len()).is_some_and(|n| {
        n.eq_ignore_ascii_case(TRANSFER)
            && matches!(&n[9..17], b"ransfer-" | b"RANSFER-")
    })
}

/// One field: its name and value as the parser gives them (`value` runs
/// to the line's end, its line break included).
fn field<'x>(
    name: &'x [u8],
    value: &'x [u8],
) -> Option<(HeaderName<'x>, HeaderValue<'x>)> {
    if name.eq_ignore_ascii_case(b"content-type") {
        return Some((HeaderName::ContentType, content_type(value)?));
    }
    // `prepare` masks a line that starts with the name (whatever
    // follows it).
    if masked_transfer(name) {
        let mut masked = String::with_capacity(name.len());
        masked.push('X');
        masked.push_str(std::str::from_utf8(&name[1..]).ok()?);
        return Some((
            HeaderName::Other(Cow::Owned(masked)),
            HeaderValue::Empty,
        ));
    }
    let name = HeaderName::parse(std::str::from_utf8(name).ok()?)?;
    // The fields the parser reads a value of, under their own name.
    if matches!(
        name,
        HeaderName::ContentType
            | HeaderName::ContentTransferEncoding
            | HeaderName::MessageId
    ) {
        return None;
    }
    Some((name, HeaderValue::Empty))
}

/// `type/subtype` and `; name=value` parameters (values bare or in
/// quotes, nothing to unquote), blanks around them; lower case names.
fn content_type(value: &[u8]) -> Option<HeaderValue<'_>> {
    let mut attributes = Vec::new();
    let mut ok = true;
    let (c_type, c_subtype) = content_type_parts(value, |name, value| {
        // `prepare` masks the charset parameter's name.
        let name = if name == b"charset" { b"xharset" } else { name };
        match (std::str::from_utf8(name), std::str::from_utf8(value)) {
            (Ok(name), Ok(value)) => attributes
                .push(Attribute { name: name.into(), value: value.into() }),
            _ => ok = false,
        }
    })?;
    let str = |w| std::str::from_utf8(w).ok();
    Some(HeaderValue::ContentType(ContentType {
        c_type: str(c_type).filter(|_| ok)?.into(),
        c_subtype: Some(str(c_subtype)?.into()),
        attributes: (!attributes.is_empty()).then_some(attributes),
    }))
}

/// The grammar of [`content_type`]: the type and subtype of `value` (a
/// field's value to its line's end), each parameter's name and value
/// given to `param` in order; `None` when the value is anything else.
fn content_type_parts<'x>(
    value: &'x [u8],
    mut param: impl FnMut(&'x [u8], &'x [u8]),
) -> Option<(&'x [u8], &'x [u8])> {
    let v = value.strip_suffix(b"\n")?;
    let v = v.strip_suffix(b"\r").unwrap_or(v);
    let mut at = blanks(v, 0);
    let (c_type, k) = word(v, at, LOWER)?;
    at = k;
    if v.get(at) != Some(&b'/') {
        return None;
    }
    let (c_subtype, k) = word(v, at + 1, LOWER)?;
    at = blanks(v, k);
    while at < v.len() {
        if v[at] != b';' {
            return None;
        }
        let (name, k) = word(v, blanks(v, at + 1), LOWER)?;
        if v.get(k) != Some(&b'=') {
            return None;
        }
        let (value, k) = if v.get(k + 1) == Some(&b'"') {
            let (w, e) = word(v, k + 2, ANY)?;
            (w, (v.get(e) == Some(&b'"')).then_some(e + 1)?)
        } else {
            word(v, k + 1, ANY)?
        };
        param(name, value);
        at = blanks(v, k);
    }
    Some((c_type, c_subtype))
}

/// Where the blanks from `at` end.
fn blanks(v: &[u8], mut at: usize) -> usize {
    while matches!(v.get(at), Some(b' ' | b'\t')) {
        at += 1;
    }
    at
}

/// The bytes of a token from `at` on (one or more), and where it ends:
/// bytes of `class` ([`LOWER`] or [`ANY`]).
fn word(v: &[u8], at: usize, class: u8) -> Option<(&[u8], usize)> {
    let rest = v.get(at..)?;
    let n = rest
        .iter()
        .position(|&b| CLASSES[usize::from(b)] & class == 0)
        .unwrap_or(rest.len());
    (n > 0).then_some((&rest[..n], at + n))
}

/// Byte classes of tokens: a token in lower case (the parser
/// lower-cases the type, the subtype and parameter names: those with
/// upper case letters are left to it) ...
const LOWER: u8 = 1;
/// ... and a parameter value that nothing in the parser treats
/// specially (those and upper case letters).
const ANY: u8 = 2;

/// The classes of every byte, looked up rather than tested (a million
/// parts' header blocks go through [`word`]).
static CLASSES: [u8; 256] = {
    let mut t = [0; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = match c {
            b'a'..=b'z'
            | b'0'..=b'9'
            | b'!'
            | b'#'
            | b'$'
            | b'%'
            | b'&'
            | b'+'
            | b'-'
            | b'.'
            | b'^'
            | b'_'
            | b'`'
            | b'{'
            | b'|'
            | b'}'
            | b'~' => LOWER | ANY,
            b'A'..=b'Z' => ANY,
            _ => 0,
        };
        b += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::MailFinder;

    /// Lines that make up header blocks: the common ones first.
    const LINES: [&str; 24] = [
        "Content-Type: text/plain",
        "Content-Type: text/plain; charset=utf-8",
        "Content-Type: text/html; charset=\"UTF-8\"",
        "content-type:text/plain;charset=iso-8859-1; format=flowed",
        "Content-Type: text/plain ; charset=us-ascii  ",
        "Content-Transfer-Encoding: quoted-printable",
        "Content-Transfer-Encoding: 7bit",
        "CONTENT-TRANSFER-ENCODING: BASE64",
        "Content-Disposition: inline; filename=a.txt",
        "Content-ID: <x@example.org>",
        "X-Mailer: something",
        // Left to the parser, or read as it reads them.
        "Content-TrAnsfer-Encoding: base64",
        "Content-Type: Text/Plain",
        "Content-Type: text/plain; CHARSET=utf-8",
        "Content-Type: text/plain; name*0=a; name*1=b",
        "Content-Type: text/plain; name=\"a b.txt\"",
        "Content-Type: text/plain (comment)",
        "Content-Type: text",
        "Content-Type: text/plain; charset=",
        "Content-Type: text/plain; charset==?utf-8?q?x?=",
        "Message-ID: <a@b.example>",
        "Subject: =?utf-8?q?caf=C3=A9?=",
        "Folded: one\n two",
        "not a field",
    ];

    /// The parser's reading of `block` prepared as the walk prepares it.
    fn parser_reads(mf: &MailFinder, block: &[u8]) -> Option<String> {
        let prepared = crate::mail::mime::prepare_block(block);
        let m = mf.parser.parse(&prepared[..])?;
        let p = &m.parts[0];
        Some(format!("{:?} {}", p.headers, p.offset_body))
    }

    fn quick_reads(block: &[u8]) -> Option<String> {
        let mut headers = Vec::new();
        let body = read(block, &mut headers)?;
        Some(format!("{headers:?} {body}"))
    }

    #[test]
    fn quick_reading_is_the_parsers() {
        let mf = MailFinder::new(crate::Finder::new());
        let mut quick = 0;
        let mut blocks = 0;
        for eol in ["\n", "\r\n"] {
            for a in LINES {
                for b in LINES.iter().chain([&""]) {
                    let mut block = format!("{a}{eol}");
                    if !b.is_empty() {
                        block.push_str(&format!("{b}{eol}"));
                    }
                    block.push_str(eol);
                    let block = block.replace('\n', eol).replace("\r\r", "\r");
                    let q = quick_reads(block.as_bytes());
                    blocks += 1;
                    if q.is_some() {
                        quick += 1;
                        assert_eq!(
                            q,
                            parser_reads(&mf, block.as_bytes()),
                            "{block:?}"
                        );
                    }
                }
            }
        }
        // The common lines, in pairs, are all read here.
        assert!(quick >= 2 * 11 * 12, "{quick} of {blocks}");
        assert!(quick < blocks);
    }

    /// Pieces that header lines are made of, ordinary and not.
    const PIECES: [&str; 28] = [
        "Content-Type",
        "content-TYPE",
        "Content-Transfer-Encoding",
        "CONTENT-TRANSFER-ENCODING",
        "Content-Disposition",
        "X-A",
        ":",
        ": ",
        " ",
        "\t",
        "text",
        "/",
        "plain",
        "HTML",
        ";",
        "charset",
        "CharSet",
        "=",
        "\"",
        "utf-8",
        "*0",
        "(",
        ")",
        "\\",
        "'",
        "=?",
        "\r",
        "\n",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]

        /// Any block made of those pieces and ended by a blank line: when
        /// the quick reader takes it, it reads it as the parser does.
        #[test]
        fn any_block_it_takes_reads_as_the_parser_does(
            picks in proptest::collection::vec(0..PIECES.len(), 0..24),
        ) {
            let mf = MailFinder::new(crate::Finder::new());
            let mut block: String = picks.iter().map(|&k| PIECES[k]).collect();
            block.push_str("\n\n");
            if let Some(q) = quick_reads(block.as_bytes()) {
                proptest::prop_assert_eq!(
                    Some(q),
                    parser_reads(&mf, block.as_bytes()),
                    "{:?}",
                    block
                );
            }
        }
    }

    #[test]
    fn common_blocks_are_read_here() {
        let mf = MailFinder::new(crate::Finder::new());
        for block in [
            &b"Content-Type: text/plain\n\n"[..],
            b"Content-Type: text/plain; charset=\"utf-8\"\r\n\
              Content-Transfer-Encoding: base64\r\n\r\n",
            b"\n",
        ] {
            let q = quick_reads(block);
            assert!(q.is_some(), "{}", String::from_utf8_lossy(block));
            assert_eq!(q, parser_reads(&mf, block));
        }
        // No blank line: left to the parser.
        assert!(read(b"Content-Type: text/plain\n", &mut Vec::new()).is_none());
    }

    #[test]
    fn sample_mail_blocks_read_here_are_read_as_the_parser_does() {
        let mf = MailFinder::new(crate::Finder::new());
        let mut quick = 0;
        for block in crate::mail::mime::tests::header_blocks() {
            if let Some(q) = quick_reads(&block) {
                quick += 1;
                assert_eq!(
                    Some(q),
                    parser_reads(&mf, &block),
                    "{}",
                    String::from_utf8_lossy(&block)
                );
            }
        }
        assert!(quick > 10, "{quick}");
    }
}
