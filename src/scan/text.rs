//! Byte classes and small text helpers the scanner shares: which bytes
//! continue a URI, scheme characters, whitespace, mail quote prefixes,
//! line starts, and the one Unicode decision of SPEC.md section 1.3.

use unicode_general_category::{get_general_category, GeneralCategory as G};
use unicode_script::{Script, UnicodeScript};

/// Continues a bare URI (before the `%` rule).
const URI: u8 = 1;
/// `ALPHA / DIGIT / "+" / "-" / "."`.
const SCHEME: u8 = 2;
/// Space, tab, CR, LF, VT, FF.
const WS: u8 = 4;
/// Trailing punctuation trimmed from a bare URI: `.,;:!?'`.
const TRIM: u8 = 8;

const fn classes() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut b = 0usize;
    while b < 128 {
        let c = b as u8;
        let mut v = 0;
        if c.is_ascii_alphanumeric() {
            v |= URI | SCHEME;
        }
        match c {
            b'-' | b'.' => v |= URI | SCHEME,
            b'+' => v |= URI | SCHEME,
            b'_' | b'~' | b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*'
            | b',' | b';' | b'=' | b':' | b'/' | b'?' | b'#' | b'[' | b']'
            | b'@' | b'%' => v |= URI,
            b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => v |= WS,
            _ => {}
        }
        if matches!(c, b'.' | b',' | b';' | b':' | b'!' | b'?' | b'\'') {
            v |= TRIM;
        }
        t[b] = v;
        b += 1;
    }
    t
}

static CLASS: [u8; 256] = classes();

/// Whether `b` may continue a bare URI (`%` is checked separately).
#[inline]
pub(crate) fn is_uri_byte(b: u8) -> bool {
    CLASS[b as usize] & URI != 0
}

/// Whether `b` is a scheme character.
#[inline]
pub(crate) fn is_scheme_byte(b: u8) -> bool {
    CLASS[b as usize] & SCHEME != 0
}

/// Whether `b` is ASCII whitespace.
#[inline]
pub(crate) fn is_ws(b: u8) -> bool {
    CLASS[b as usize] & WS != 0
}

/// Whether `b` is trailing punctuation trimmed from bare URIs.
#[inline]
pub(crate) fn is_trim(b: u8) -> bool {
    CLASS[b as usize] & TRIM != 0
}

/// Whether `v[i]` is a `%` followed by two hex digits.
#[inline]
pub(crate) fn is_escape_at(v: &[u8], i: usize) -> bool {
    v.len() > i + 2
        && v[i + 1].is_ascii_hexdigit()
        && v[i + 2].is_ascii_hexdigit()
}

/// Whether the byte at `v[i]` continues a bare URI.
#[inline]
pub(crate) fn continues(v: &[u8], i: usize) -> bool {
    let b = v[i];
    is_uri_byte(b) && (b != b'%' || is_escape_at(v, i))
}

/// The index of the start of the line containing `v[i]` (0 when no line
/// break precedes it in `v`).
pub(crate) fn line_start(v: &[u8], i: usize) -> usize {
    memchr::memrchr(b'\n', &v[..i]).map_or(0, |n| n + 1)
}

/// Reads a mail quote prefix (`>`, `> >`, `>>`, spaces and tabs between
/// and after) at `v[i..]`: returns its depth and the index after it.
pub(crate) fn quote_prefix(v: &[u8], mut i: usize) -> (usize, usize) {
    let mut depth = 0;
    while i < v.len() && v[i] == b'>' {
        depth += 1;
        i += 1;
        while i < v.len() && (v[i] == b' ' || v[i] == b'\t') {
            i += 1;
        }
    }
    (depth, i)
}

/// Skips spaces and tabs (and a CR that is not followed by LF, which is
/// not a line break) from `v[i..]`.
pub(crate) fn skip_blanks(v: &[u8], mut i: usize) -> usize {
    while i < v.len() {
        match v[i] {
            b' ' | b'\t' | 0x0b | 0x0c => i += 1,
            b'\r' if v.get(i + 1) != Some(&b'\n') => i += 1,
            _ => break,
        }
    }
    i
}

/// If a line break (LF or CRLF) starts at `v[i]`, the index after it.
#[inline]
pub(crate) fn line_break_at(v: &[u8], i: usize) -> Option<usize> {
    match v.get(i) {
        Some(b'\n') => Some(i + 1),
        Some(b'\r') if v.get(i + 1) == Some(&b'\n') => Some(i + 2),
        _ => None,
    }
}

/// What a non-ASCII character right after a URI means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NonAscii {
    /// It ends the URI (punctuation, symbols, spaces, other numbers,
    /// letters of scripts written without spaces, bytes not UTF-8).
    Ends,
    /// It is a letter, mark or digit of a script written with spaces:
    /// the candidate is an IRI and is rejected.
    Rejects,
}

/// Classifies the non-ASCII character starting at `v[i]`.
pub(crate) fn non_ascii(v: &[u8], i: usize) -> NonAscii {
    let (ch, _) = bstr::decode_utf8(&v[i..]);
    let Some(ch) = ch else { return NonAscii::Ends };
    let word = matches!(
        get_general_category(ch),
        G::UppercaseLetter
            | G::LowercaseLetter
            | G::TitlecaseLetter
            | G::ModifierLetter
            | G::OtherLetter
            | G::NonspacingMark
            | G::SpacingMark
            | G::EnclosingMark
            | G::DecimalNumber
            | G::LetterNumber
    );
    if !word {
        return NonAscii::Ends;
    }
    match ch.script() {
        // Scripts written without spaces between words: a URI may run
        // straight into their text.
        Script::Han
        | Script::Hiragana
        | Script::Katakana
        | Script::Bopomofo
        | Script::Thai
        | Script::Lao
        | Script::Khmer
        | Script::Myanmar
        | Script::Yi
        | Script::Common => NonAscii::Ends,
        _ => NonAscii::Rejects,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_spec() {
        for b in b"<>\"{}|\\^` \t\n".iter() {
            assert!(!is_uri_byte(*b), "{}", *b as char);
        }
        for b in b"azAZ09-._~!$&'()*+,;=:/?#[]@%".iter() {
            assert!(is_uri_byte(*b), "{}", *b as char);
        }
        assert!(continues(b"%2F", 0));
        assert!(!continues(b"%2", 0));
        assert!(!continues(b"%zz", 0));
    }

    #[test]
    fn quote_prefixes() {
        assert_eq!(quote_prefix(b"> > x", 0), (2, 4));
        assert_eq!(quote_prefix(b">>x", 0), (2, 2));
        assert_eq!(quote_prefix(b"x", 0), (0, 0));
    }

    #[test]
    fn non_ascii_rule() {
        let s = "ßéΩж한ก漢。“»\u{a0}¹\u{308}".as_bytes();
        let got: Vec<NonAscii> = "ßéΩж한ก漢。“»\u{a0}¹\u{308}"
            .char_indices()
            .map(|(i, _)| non_ascii(s, i))
            .collect();
        use NonAscii::*;
        assert_eq!(
            got,
            [
                Rejects, Rejects, Rejects, Rejects, Rejects, Ends, Ends, Ends,
                Ends, Ends, Ends, Ends, Rejects
            ]
        );
        assert_eq!(non_ascii(b"\xe9t\xe9", 0), Ends, "Latin-1 is not UTF-8");
    }
}
