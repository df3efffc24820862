//! What non-ASCII text does to a candidate: the one Unicode decision of
//! SPEC.md section 1.3 (a letter of a spaced script rejects a URI) and
//! the scanning rules of section 6 for IRIs (such letters continue an
//! IRI; letters of unspaced scripts continue one only inside a host
//! label with no ASCII before them; every character RFC 3987 allows
//! belongs to an IRI inside delimiters, the paired CJK and typographic
//! brackets and quotes among them).
//!
//! Every function here reads UTF-8 at a byte offset and never more than
//! four bytes past it; bytes that are not UTF-8 (a truncated character
//! included) end an IRI as they end a URI.

use unicode_general_category::{get_general_category, GeneralCategory as G};
use unicode_script::{Script, UnicodeScript};

use crate::grammar::{is_iprivate, is_ucschar};
use crate::scan::text;

/// The class of a non-ASCII character for bare scanning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wide {
    /// A letter, combining mark or decimal digit (categories L, M, Nd,
    /// Nl) of a script written with spaces between words, or U+200C /
    /// U+200D: it rejects a bare URI and continues a bare IRI.
    Spaced,
    /// A letter, mark or digit of a script written without spaces (Han,
    /// kana, Thai, ...): it ends a bare URI or IRI, except inside an IRI's
    /// host label that has no ASCII before it.
    Unspaced,
    /// Anything else (punctuation, symbols, spaces, other numbers) and
    /// bytes that are not UTF-8: it ends a bare URI or IRI.
    Other,
}

/// The UTF-8 character at `v[i]` and its length, if there is one.
#[inline]
pub(crate) fn decode(v: &[u8], i: usize) -> Option<(char, usize)> {
    match bstr::decode_utf8(&v[i..]) {
        (Some(c), n) => Some((c, n)),
        (None, _) => None,
    }
}

/// The class of `ch` (not ASCII).
pub(crate) fn class(ch: char) -> Wide {
    if matches!(ch, '\u{200c}' | '\u{200d}') {
        return Wide::Spaced;
    }
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
        return Wide::Other;
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
        | Script::Tibetan
        | Script::Tai_Le
        | Script::New_Tai_Lue
        | Script::Tai_Tham
        | Script::Tai_Viet
        | Script::Balinese
        | Script::Javanese
        | Script::Buginese
        | Script::Yi
        | Script::Common => Wide::Unspaced,
        _ => Wide::Spaced,
    }
}

/// The class of the character at `v[i]` (a byte of 0x80 or more), and
/// its length.
#[inline]
pub(crate) fn class_at(v: &[u8], i: usize) -> (Wide, usize) {
    match decode(v, i) {
        Some((ch, n)) => (class(ch), n),
        None => (Wide::Other, 1),
    }
}

/// The end of the bare IRI run from `v[i]`: bytes that continue a bare
/// URI and characters of class [`Wide::Spaced`], up to `cap`. A
/// character may end past `cap` (by at most three bytes), so that a run
/// longer than the bound is seen to be.
pub(crate) fn bare_run(v: &[u8], mut i: usize, cap: usize) -> usize {
    loop {
        i = text::uri_run(v, i, cap);
        if i >= cap || v[i] < 0x80 {
            return i;
        }
        match class_at(v, i) {
            (Wide::Spaced, n) => i += n,
            _ => return i,
        }
    }
}

/// Where the bare IRI authority that starts at `v[a]` (after `//`) ends,
/// scanning no further than `cap`: at a `/`, `?` or `#` (the IRI goes on
/// with [`bare_run`]), or at what ends the IRI. Letters of unspaced
/// scripts continue it while no ASCII came before them in their label
/// (labels start after `//`, `@` and `.`).
pub(crate) fn authority_end(v: &[u8], a: usize, cap: usize) -> usize {
    let mut i = a;
    let mut ascii = false;
    while i < cap {
        let b = v[i];
        if b < 0x80 {
            if matches!(b, b'/' | b'?' | b'#') || !text::continues(v, i) {
                return i;
            }
            ascii = !matches!(b, b'.' | b'@');
            i += 1;
            continue;
        }
        match class_at(v, i) {
            (Wide::Spaced, n) => i += n,
            (Wide::Unspaced, n) if !ascii => i += n,
            _ => return i,
        }
    }
    i
}

/// Whether the character at `v[i]` (a byte of 0x80 or more) is one RFC
/// 3987 allows somewhere in an IRI (`ucschar` or `iprivate`); its length.
pub(crate) fn allowed_at(v: &[u8], i: usize) -> Option<usize> {
    let (ch, n) = decode(v, i)?;
    (is_ucschar(ch) || is_iprivate(ch)).then_some(n)
}

/// The paired brackets and quotes of CJK and typographic text that
/// delimit an IRI (SPEC.md section 6), opener and closer.
const PAIRS: [(&str, &str); 9] = [
    ("\u{300c}", "\u{300d}"), // 「 」
    ("\u{300e}", "\u{300f}"), // 『 』
    ("\u{3010}", "\u{3011}"), // 【 】
    ("\u{3008}", "\u{3009}"), // 〈 〉
    ("\u{300a}", "\u{300b}"), // 《 》
    ("\u{ff08}", "\u{ff09}"), // （ ）
    ("\u{201c}", "\u{201d}"), // “ ”
    ("\u{2018}", "\u{2019}"), // ‘ ’
    ("\u{00ab}", "\u{00bb}"), // « »
];

/// When one of the paired openers ends right before `v[s]` (not before
/// `lo`), its index and the closer that goes with it.
pub(crate) fn paired_opener(
    v: &[u8],
    s: usize,
    lo: usize,
) -> Option<(usize, &'static [u8])> {
    if s == 0 || v[s - 1] < 0x80 {
        return None;
    }
    PAIRS.iter().find_map(|&(o, c)| {
        let o = o.as_bytes();
        (s >= lo + o.len() && v[..s].ends_with(o))
            .then(|| (s - o.len(), c.as_bytes()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes(s: &str) -> Vec<Wide> {
        s.chars().map(class).collect()
    }

    #[test]
    fn spaced_unspaced_other() {
        use Wide::*;
        assert_eq!(classes("ßéΩж한\u{308}\u{200c}\u{200d}٣ک"), [Spaced; 10]);
        assert_eq!(classes("ก漢かカㄅ"), [Unspaced; 5]);
        assert_eq!(classes("。“»\u{a0}¹€—「"), [Other; 8]);
        assert_eq!(class_at(b"\xe9t\xe9", 0), (Other, 1), "Latin-1");
        assert_eq!(class_at("日".as_bytes()[..2].as_ref(), 0).0, Other);
    }

    #[test]
    fn runs() {
        let v = "http://a.example/café et".as_bytes();
        assert_eq!(bare_run(v, 0, v.len()), "http://a.example/café".len());
        let v = "http://a.example/を参照".as_bytes();
        assert_eq!(bare_run(v, 0, v.len()), "http://a.example/".len());
        // a character that crosses the cap is taken whole
        let v = "ab\u{e9}".as_bytes();
        assert_eq!(bare_run(v, 0, 3), 4);
        let v = "ab\u{e9}".as_bytes();
        assert_eq!(bare_run(v, 0, 2), 2);
    }

    #[test]
    fn hosts() {
        let end = |s: &str| authority_end(s.as_bytes(), 0, s.len());
        assert_eq!(end("北京大学.cn"), "北京大学.cn".len());
        assert_eq!(end("例え.テスト/en/"), "例え.テスト".len());
        assert_eq!(end("www.example.jpへ。"), "www.example.jp".len());
        assert_eq!(end("u@中国.中国?x"), "u@中国.中国".len());
        assert_eq!(end("a中"), 1);
        assert_eq!(end("bücher.example/"), "bücher.example".len());
        assert_eq!(end("a.example, b"), "a.example,".len());
        assert_eq!(end("a.example\u{3002}x"), "a.example".len());
    }

    #[test]
    fn pairs() {
        let v = "見て「http://a/」".as_bytes();
        let s = "見て「".len();
        assert_eq!(
            paired_opener(v, s, 0),
            Some(("見て".len(), "」".as_bytes()))
        );
        assert_eq!(paired_opener(v, s, "見て".len() + 1), None);
        assert_eq!(paired_opener(b"(http", 1, 0), None);
        let v = "«http".as_bytes();
        assert_eq!(paired_opener(v, 2, 0), Some((0, "»".as_bytes())));
        assert_eq!(allowed_at("日".as_bytes(), 0), Some(3));
        assert_eq!(allowed_at("\u{fffe}".as_bytes(), 0), None);
        assert_eq!(allowed_at(b"\xff", 0), None);
    }
}
