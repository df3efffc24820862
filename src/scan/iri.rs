//! How IRIs are scanned (docs/CONTRACT.md section 6, with
//! [`crate::FinderBuilder::iri`]): in bare text, characters of class
//! [`Wide::Spaced`] continue an IRI, and those of class
//! [`Wide::Unspaced`] continue one only inside a host label with no ASCII
//! before them; inside delimiters every character RFC 3987 allows
//! belongs to the IRI ([`allowed_at`]).
//!
//! Every function here reads a character at a byte offset and never more
//! than four bytes past it; bytes that are not UTF-8 (a character cut by
//! the end of the input included) end an IRI as they end a URI.

use crate::grammar::{is_iprivate, is_ucschar};
use crate::scan::text::{self, Wide};

/// The end of the bare IRI run from `v[i]`: bytes that continue a bare
/// URI and characters of class [`Wide::Spaced`], up to `cap`. A
/// character may end past `cap` (by at most three bytes), so that a run
/// longer than the bound is seen to be.
pub(crate) fn bare_run(
    v: &[u8],
    mut i: usize,
    cap: usize,
    end_of_input: bool,
) -> usize {
    loop {
        i = text::uri_run(v, i, cap, end_of_input);
        if i >= cap || v[i] < 0x80 {
            return i;
        }
        match text::wide_at(v, i) {
            (Wide::Spaced, n) => i += n,
            _ => return i,
        }
    }
}

/// Where the bare IRI authority that starts at `v[a]` (after `//`) ends,
/// scanning no further than `cap` (a character may end past it): at a
/// `/`, `?` or `#` (the IRI goes on with [`bare_run`]), or at what ends
/// the IRI. Characters of class [`Wide::Unspaced`] continue it while no
/// ASCII came before them in their label (labels start after `//`, `@`
/// and `.`).
pub(crate) fn authority_end(
    v: &[u8],
    a: usize,
    cap: usize,
    end_of_input: bool,
) -> usize {
    let mut i = a;
    let mut ascii = false;
    while i < cap {
        let b = v[i];
        if b < 0x80 {
            if matches!(b, b'/' | b'?' | b'#')
                || !text::continues(v, i, end_of_input)
            {
                return i;
            }
            ascii = !matches!(b, b'.' | b'@');
            i += 1;
            continue;
        }
        match text::wide_at(v, i) {
            (Wide::Spaced, n) => i += n,
            (Wide::Unspaced, n) if !ascii => i += n,
            _ => return i,
        }
    }
    i
}

/// The length of the character at `v[i]` (a byte of 0x80 or more) when
/// RFC 3987 allows it somewhere in an IRI (a `ucschar` or an
/// `iprivate`).
pub(crate) fn allowed_at(v: &[u8], i: usize) -> Option<usize> {
    let (ch, n) = text::decode(v, i)?;
    (is_ucschar(ch) || is_iprivate(ch)).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes(s: &str) -> Vec<Wide> {
        s.chars().map(text::wide_class).collect()
    }

    #[test]
    fn spaced_unspaced_other() {
        use Wide::*;
        assert_eq!(classes("ßéΩж한\u{308}\u{200c}\u{200d}ک"), [Spaced; 9]);
        assert_eq!(classes("ก漢かカㄅ"), [Unspaced; 5]);
        assert_eq!(classes("。“»\u{a0}¹€—「"), [Other; 8]);
        assert_eq!(text::wide_at(b"\xe9t\xe9", 0), (Other, 1), "Latin-1");
        let cut = &"日".as_bytes()[..2];
        assert_eq!(text::wide_at(cut, 0), (Other, 1), "a cut character");
    }

    #[test]
    fn runs() {
        let v = "http://a.example/café et".as_bytes();
        assert_eq!(
            bare_run(v, 0, v.len(), true),
            "http://a.example/café".len()
        );
        let v = "http://a.example/を参照".as_bytes();
        assert_eq!(bare_run(v, 0, v.len(), true), "http://a.example/".len());
        let v = "a/کتاب\u{200c}خانه را".as_bytes();
        assert_eq!(bare_run(v, 0, v.len(), true), "a/کتاب\u{200c}خانه".len());
        // a character that crosses the cap is taken whole
        let v = "ab\u{e9}".as_bytes();
        assert_eq!(bare_run(v, 0, 3, true), 4);
        assert_eq!(bare_run(v, 0, 2, true), 2);
    }

    #[test]
    fn hosts() {
        let end = |s: &str| authority_end(s.as_bytes(), 0, s.len(), true);
        assert_eq!(end("北京大学.cn"), "北京大学.cn".len());
        assert_eq!(end("例え.テスト/en/"), "例え.テスト".len());
        assert_eq!(end("www.example.jpへ。"), "www.example.jp".len());
        assert_eq!(end("u@中国.中国?x"), "u@中国.中国".len());
        assert_eq!(end("a中"), 1);
        assert_eq!(end("bücher.example/"), "bücher.example".len());
        assert_eq!(end("a.example, b"), "a.example,".len());
        assert_eq!(end("a.example\u{3002}x"), "a.example".len());
        assert_eq!(end("a%2"), 1);
    }

    #[test]
    fn allowed() {
        assert_eq!(allowed_at("日".as_bytes(), 0), Some(3));
        assert_eq!(allowed_at("\u{e000}".as_bytes(), 0), Some(3));
        assert_eq!(allowed_at("\u{fffe}".as_bytes(), 0), None);
        assert_eq!(allowed_at(b"\xff", 0), None);
    }
}
