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
    let mut at = 0;
    let body = loop {
        let rest = &block[at..];
        if rest.starts_with(b"\n") {
            break at + 1;
        }
        if rest.starts_with(b"\r\n") {
            break at + 2;
        }
        let end = at + memchr::memchr(b'\n', rest)? + 1;
        if matches!(block.get(end), Some(b' ' | b'\t')) {
            return None; // folded
        }
        let line = &block[at..end];
        let colon = memchr::memchr(b':', line)?;
        let name = &line[..colon];
        let start = at + colon + 1;
        let token =
            |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_');
        if name.is_empty() || !name.iter().all(token) {
            return None;
        }
        let (name, value) = field(name, &block[start..end])?;
        headers.push(Header {
            name,
            value,
            offset_field: at as u32,
            offset_start: start as u32,
            offset_end: end as u32,
        });
        at = end;
    };
    Some(body)
}

/// One field: its name and value as the parser gives them (`value` runs
/// to the line's end, its line break included).
fn field<'x>(
    name: &'x [u8],
    value: &'x [u8],
) -> Option<(HeaderName<'x>, HeaderValue<'x>)> {
    const TRANSFER: &[u8] = b"content-transfer-encoding";
    if name.eq_ignore_ascii_case(b"content-type") {
        return Some((HeaderName::ContentType, content_type(value)?));
    }
    // `prepare` masks a line that starts with the name (whatever
    // follows it) when its tail is in one of the two usual cases.
    let masked = name.get(..TRANSFER.len()).is_some_and(|n| {
        n.eq_ignore_ascii_case(TRANSFER)
            && matches!(&n[9..17], b"ransfer-" | b"RANSFER-")
    });
    if masked {
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
    let v = value.strip_suffix(b"\n")?;
    let v = v.strip_suffix(b"\r").unwrap_or(v);
    let mut at = blanks(v, 0);
    let (c_type, k) = word(v, at, lower)?;
    at = k;
    if v.get(at) != Some(&b'/') {
        return None;
    }
    let (c_subtype, k) = word(v, at + 1, lower)?;
    at = blanks(v, k);
    let mut attributes = Vec::new();
    while at < v.len() {
        if v[at] != b';' {
            return None;
        }
        let (name, k) = word(v, blanks(v, at + 1), lower)?;
        if v.get(k) != Some(&b'=') {
            return None;
        }
        let (value, k) = if v.get(k + 1) == Some(&b'"') {
            let (w, e) = word(v, k + 2, any)?;
            (w, (v.get(e) == Some(&b'"')).then_some(e + 1)?)
        } else {
            word(v, k + 1, any)?
        };
        // `prepare` masks the charset parameter's name.
        let name = if name == "charset" { "xharset" } else { name };
        attributes.push(Attribute { name: name.into(), value: value.into() });
        at = blanks(v, k);
    }
    Some(HeaderValue::ContentType(ContentType {
        c_type: c_type.into(),
        c_subtype: Some(c_subtype.into()),
        attributes: (!attributes.is_empty()).then_some(attributes),
    }))
}

/// Where the blanks from `at` end.
fn blanks(v: &[u8], mut at: usize) -> usize {
    while matches!(v.get(at), Some(b' ' | b'\t')) {
        at += 1;
    }
    at
}

/// The bytes of a token from `at` on (one or more), and where it ends.
fn word(
    v: &[u8],
    at: usize,
    ok: impl Fn(u8) -> bool,
) -> Option<(&str, usize)> {
    let n = v.get(at..)?.iter().take_while(|&&b| ok(b)).count();
    let w = std::str::from_utf8(&v[at..at + n]).ok()?;
    (n > 0).then_some((w, at + n))
}

/// A byte of a token in lower case (the parser lower-cases the type,
/// the subtype and parameter names: those with upper case letters are
/// left to it).
fn lower(b: u8) -> bool {
    matches!(b,
        b'a'..=b'z' | b'0'..=b'9' | b'!' | b'#' | b'$' | b'%' | b'&' | b'+'
        | b'-' | b'.' | b'^' | b'_' | b'`' | b'{' | b'|' | b'}' | b'~')
}

/// A byte of a parameter value that nothing in the parser treats
/// specially.
fn any(b: u8) -> bool {
    lower(b) || b.is_ascii_uppercase()
}

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
