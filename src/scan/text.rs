//! Byte classes and small text helpers the scanner shares: which bytes
//! continue a URI, scheme characters, whitespace, mail quote prefixes,
//! line starts, the one Unicode decision of docs/CONTRACT.md section 1.3,
//! and text that can only be a host (asked of a dangling authority and
//! of an abbreviated URI).

use crate::scan::entity::{self, Amp};
use unicode_general_category::{get_general_category, GeneralCategory as G};
use unicode_script::{Script, UnicodeScript};

/// Continues a bare URI (before the `%` rule).
const URI: u8 = 1;
/// `ALPHA / DIGIT / "+" / "-" / "."`.
const SCHEME: u8 = 2;
/// Space, tab, CR, LF, VT, FF.
const WS: u8 = 4;
/// Trailing punctuation trimmed from a bare URI: `.,;:!?'(`.
const TRIM: u8 = 8;
/// Continues a bare URI whatever follows: [`URI`] but `%` and `&`.
const PLAIN: u8 = 16;

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
        if matches!(c, b'.' | b',' | b';' | b':' | b'!' | b'?' | b'\'' | b'(')
        {
            v |= TRIM;
        }
        if v & URI != 0 && c != b'%' && c != b'&' {
            v |= PLAIN;
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

/// [`is_scheme_byte`] where a constant is built.
pub(crate) const fn is_scheme_byte_const(b: u8) -> bool {
    classes()[b as usize] & SCHEME != 0
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

/// Whether the byte at `v[i]` continues a bare URI: a URI byte, but not
/// a `%` without two hex digits after it, nor an `&` that starts an
/// HTML-escaped delimiter, or may in more input than `v` (`end`: `v`
/// ends the input, and there is no more).
#[inline]
pub(crate) fn continues(v: &[u8], i: usize, end: bool) -> bool {
    match v[i] {
        b'%' => is_escape_at(v, i),
        b'&' => match entity::amp_at(v, i) {
            Amp::Delimiter => false,
            Amp::Other => true,
            Amp::Unsure => end,
        },
        b => is_uri_byte(b),
    }
}

/// For a bare run that stopped at `v[i]` (`i` may be `v.len()`): one
/// past the last byte deciding that read (a `%` and its two digits, a
/// UTF-8 character: `i + 3`; an `&` that may start a reference: all of
/// `v`), and whether more input than `v` might have decided otherwise.
#[inline]
pub(crate) fn run_stop(v: &[u8], i: usize) -> (usize, bool) {
    match v.get(i) {
        None => (i + 3, true),
        Some(b'%') => (i + 3, i + 3 > v.len()),
        Some(b'&') if entity::amp_at(v, i) == Amp::Unsure => {
            ((i + 3).max(v.len()), true)
        }
        Some(_) => (i + 3, false),
    }
}

/// From `v[i]`, eight bytes at a time, to the first block of eight (that
/// ends by `cap`) in which some byte lacks class `bit`: the AND of their
/// classes keeps the bit only if all have it.
#[inline(always)]
fn skip_class(v: &[u8], mut i: usize, cap: usize, bit: u8) -> usize {
    while let Some(w) = v.get(i..i + 8).filter(|_| i + 8 <= cap) {
        if w.iter().fold(bit, |a, &b| a & CLASS[b as usize]) == 0 {
            break;
        }
        i += 8;
    }
    i
}

/// The end of the run of bytes that continue a bare URI from `v[i]`, at
/// most `cap` (`end`: `v` ends the input).
#[inline]
pub(crate) fn uri_run(v: &[u8], i: usize, cap: usize, end: bool) -> usize {
    let mut i = skip_class(v, i, cap, PLAIN);
    while i < cap && continues(v, i, end) {
        i += 1;
    }
    i
}

/// The end of the run of URI bytes ([`is_uri_byte`], `%` whatever follows
/// it) from `v[i]`, at most `cap`.
#[inline]
pub(crate) fn uri_bytes_run(v: &[u8], i: usize, cap: usize) -> usize {
    let mut i = skip_class(v, i, cap, URI);
    while i < cap && is_uri_byte(v[i]) {
        i += 1;
    }
    i
}

/// The index of the start of the line containing `v[i]` (0 when no line
/// break precedes it in `v`).
pub(crate) fn line_start(v: &[u8], i: usize) -> usize {
    // The next few bytes back one by one (a short line, or the start of
    // a line found at once), memrchr for the rest.
    let near = i.saturating_sub(16);
    if let Some(n) = v[near..i].iter().rposition(|&b| b == b'\n') {
        return near + n + 1;
    }
    memchr::memrchr(b'\n', &v[..near]).map_or(0, |n| n + 1)
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

/// The class of a non-ASCII character, the one Unicode decision of
/// docs/CONTRACT.md sections 1.3 and 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wide {
    /// A letter, combining mark or decimal digit (categories L, M, Nd,
    /// Nl) of a script written with spaces between words, or U+200C /
    /// U+200D (written inside words of such scripts): it rejects a bare
    /// URI (an IRI follows) and continues a bare IRI.
    Spaced,
    /// A letter, mark or digit of a script written without spaces (Han,
    /// kana, Thai, ...): it ends a bare URI or IRI, except inside an IRI's
    /// host label with no ASCII before it.
    Unspaced,
    /// Anything else (punctuation, symbols, spaces, other numbers) and
    /// bytes that are not UTF-8: it ends a bare URI or IRI.
    Other,
}

/// The class of `ch`, a non-ASCII character.
pub(crate) fn wide_class(ch: char) -> Wide {
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

/// The UTF-8 character at `v[i]` and its length, if one is there whole.
#[inline]
pub(crate) fn decode(v: &[u8], i: usize) -> Option<(char, usize)> {
    match bstr::decode_utf8(&v[i..]) {
        (Some(c), n) => Some((c, n)),
        (None, _) => None,
    }
}

/// The class of the character at `v[i]` (a byte of 0x80 or more) and
/// its length (1 for a byte that starts no UTF-8 character).
#[inline]
pub(crate) fn wide_at(v: &[u8], i: usize) -> (Wide, usize) {
    match decode(v, i) {
        Some((ch, n)) => (wide_class(ch), n),
        None => (Wide::Other, 1),
    }
}

/// What a non-ASCII character right after a URI means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NonAscii {
    /// It ends the URI ([`Wide::Unspaced`], [`Wide::Other`]).
    Ends,
    /// It is [`Wide::Spaced`]: the candidate is an IRI and is rejected.
    Rejects,
}

/// Classifies the non-ASCII character starting at `v[i]`.
pub(crate) fn non_ascii(v: &[u8], i: usize) -> NonAscii {
    match wide_at(v, i).0 {
        Wide::Spaced => NonAscii::Rejects,
        Wide::Unspaced | Wide::Other => NonAscii::Ends,
    }
}

/// Whether `t` holds the byte `a`, and whether it holds `b`: eight bytes
/// at a time, for the short parts of a URI.
#[inline]
pub(crate) fn holds(t: &[u8], a: u8, b: u8) -> (bool, bool) {
    let (mut ma, mut mb) = (0, 0);
    let mut words = t.chunks_exact(8);
    for w in words.by_ref() {
        let w = u64::from_le_bytes(w.try_into().expect("eight bytes"));
        ma |= eq_bytes(w, a);
        mb |= eq_bytes(w, b);
    }
    let (mut ha, mut hb) = (ma != 0, mb != 0);
    for &x in words.remainder() {
        ha |= x == a;
        hb |= x == b;
    }
    (ha, hb)
}

/// The high bit of each byte of the word `w` that is a `:`.
#[inline(always)]
pub(crate) fn colons(w: u64) -> u64 {
    eq_bytes(w, b':')
}

/// Bit masks over a 64-byte block, bit `i` for byte `i`: the bulk form of
/// the byte classes, for text where colons come every few bytes
/// (`a:a:a:`, `::::`, `12:34:56`). Computed eight bytes at a time in
/// plain `u64` arithmetic (SWAR), without `unsafe` or target features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Block {
    /// `:`.
    pub colon: u64,
    /// `/`.
    pub slash: u64,
    /// `l` or `L`.
    pub ell: u64,
    /// `<`.
    pub lt: u64,
    /// `"`.
    pub quote: u64,
    /// A superset of the scheme characters: ASCII from `+` up, but
    /// not `:`, `<` or `>`. It shares no byte with `opener`.
    pub scheme: u64,
    /// A superset of the bytes that open a context before a scheme, or
    /// lie between it and its `<`: ASCII up to `"` (whitespace, controls,
    /// `!`, `"`), `<` and `>` (which ends a mail quote prefix).
    pub opener: u64,
}

const LO7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const HI: u64 = 0x8080_8080_8080_8080;

/// `b` in every byte of a word.
const fn splat(b: u8) -> u64 {
    (b as u64) * 0x0101_0101_0101_0101
}

/// The high bit of each byte of `w` that equals `b` (exact: no borrow
/// crosses bytes).
#[inline(always)]
fn eq_bytes(w: u64, b: u8) -> u64 {
    let t = w ^ splat(b);
    !(((t & LO7) + LO7) | t) & HI
}

/// The high bit of each byte of `x` (high bits clear) that is at least
/// `lo` (`1..=0x7f`).
#[inline(always)]
fn at_least(x: u64, lo: u8) -> u64 {
    (x + splat(0x80 - lo)) & HI
}

/// Eight high bits, one per byte, packed into the low eight bits.
#[inline(always)]
fn pack(h: u64) -> u64 {
    ((h >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// The masks of `b`.
#[inline]
pub(crate) fn block(b: &[u8; 64]) -> Block {
    let mut k = Block {
        colon: 0,
        slash: 0,
        ell: 0,
        lt: 0,
        quote: 0,
        scheme: 0,
        opener: 0,
    };
    for (i, c) in b.chunks_exact(8).enumerate() {
        let w = u64::from_le_bytes(c.try_into().expect("eight bytes"));
        let ascii = !w & HI;
        let x = w & LO7;
        let colon = eq_bytes(w, b':');
        let lt = eq_bytes(w, b'<');
        let gt = eq_bytes(w, b'>');
        let scheme = at_least(x, b'+') & ascii & !colon & !lt & !gt;
        let opener = (!at_least(x, b'"' + 1) & ascii) | lt | gt;
        let sh = 8 * i as u32;
        k.colon |= pack(colon) << sh;
        k.slash |= pack(eq_bytes(w, b'/')) << sh;
        k.ell |= pack(eq_bytes(w | splat(0x20), b'l')) << sh;
        k.lt |= pack(lt) << sh;
        k.quote |= pack(eq_bytes(w, b'"')) << sh;
        k.scheme |= pack(scheme) << sh;
        k.opener |= pack(opener) << sh;
    }
    k
}

/// Whether the byte after a run at `v[e]` starts a letter of a spaced
/// script: the candidate is then an IRI.
#[inline]
pub(crate) fn rejects_non_ascii(v: &[u8], e: usize) -> bool {
    e < v.len() && v[e] >= 0x80 && non_ascii(v, e) == NonAscii::Rejects
}

/// Whether `hp` is `host[:port]` where the host can only be a host: a
/// name with a dot, an IPv4 address or a bracketed IPv6 literal.
pub(crate) fn host_only(hp: &[u8]) -> bool {
    let (host, port) = if hp.first() == Some(&b'[') {
        match hp.iter().position(|&x| x == b']') {
            Some(r) => {
                let inner = &hp[1..r];
                if inner.is_empty()
                    || !inner.iter().all(|&x| {
                        x.is_ascii_hexdigit() || x == b':' || x == b'.'
                    })
                    || !inner.contains(&b':')
                {
                    return false;
                }
                (&hp[..=r], &hp[r + 1..])
            }
            None => return false,
        }
    } else {
        match hp.iter().position(|&x| x == b':') {
            Some(p) => (&hp[..p], &hp[p..]),
            None => (hp, &hp[hp.len()..]),
        }
    };
    let port_ok = port.is_empty()
        || (port[0] == b':' && port[1..].iter().all(u8::is_ascii_digit));
    if !port_ok {
        return false;
    }
    if host.first() == Some(&b'[') {
        return true;
    }
    let name = host.strip_suffix(b".").unwrap_or(host);
    if !name.contains(&b'.') {
        return false;
    }
    // The rightmost label is a top-level domain (two letters or more, as
    // `e.g.` has not) or the last octet of an IPv4 address.
    let labels = name.split(|&x| x == b'.');
    let last = labels.clone().next_back().unwrap_or_default();
    let ipv4 = labels.clone().count() == 4
        && labels
            .clone()
            .all(|l| !l.is_empty() && l.iter().all(u8::is_ascii_digit));
    if !ipv4 && (last.len() < 2 || !last[0].is_ascii_alphabetic()) {
        return false;
    }
    name.split(|&x| x == b'.').all(|l| {
        !l.is_empty()
            && l.len() <= 63
            && l.iter().all(|&x| x.is_ascii_alphanumeric() || x == b'-')
            && l[0] != b'-'
            && l[l.len() - 1] != b'-'
    })
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
        assert!(continues(b"%2F", 0, false));
        assert!(!continues(b"%2", 0, false));
        assert!(!continues(b"%zz", 0, false));
        assert!(continues(b"&amp;", 0, false));
        assert!(!continues(b"&gt;", 0, true));
        assert!(!continues(b"&#x3c;", 0, true));
        // A reference cut by the end of the input is none; one cut by
        // the end of what is at hand may be.
        assert_eq!(uri_run(b"x&#0000", 0, 7, true), 7);
        assert_eq!(uri_run(b"x&#0000", 0, 7, false), 1);
        assert_eq!(run_stop(b"x&#0000", 1), (7, true));
        assert_eq!(uri_run(b"x&gt;", 0, 5, true), 1);
        assert_eq!(run_stop(b"x&gt;", 1), (4, false));
        assert_eq!(run_stop(b"x%4", 1), (4, true));
        assert_eq!(run_stop(b"x ", 1), (4, false));
    }

    #[test]
    fn quote_prefixes() {
        assert_eq!(quote_prefix(b"> > x", 0), (2, 4));
        assert_eq!(quote_prefix(b">>x", 0), (2, 2));
        assert_eq!(quote_prefix(b"x", 0), (0, 0));
    }

    #[test]
    fn non_ascii_rule() {
        let s = "ßéΩж한ก漢。“»\u{a0}¹\u{308}\u{200c}".as_bytes();
        let got: Vec<NonAscii> = "ßéΩж한ก漢。“»\u{a0}¹\u{308}\u{200c}"
            .char_indices()
            .map(|(i, _)| non_ascii(s, i))
            .collect();
        use NonAscii::*;
        assert_eq!(
            got,
            [
                Rejects, Rejects, Rejects, Rejects, Rejects, Ends, Ends, Ends,
                Ends, Ends, Ends, Ends, Rejects, Rejects
            ]
        );
        assert_eq!(non_ascii(b"\xe9t\xe9", 0), Ends, "Latin-1 is not UTF-8");
    }

    #[test]
    fn block_masks_match_bytes() {
        // Every byte value at every position of the block.
        for shift in 0..64 {
            let mut b = [0u8; 64];
            for (i, x) in b.iter_mut().enumerate() {
                *x = ((i * 4 + shift * 64) % 256) as u8;
            }
            for round in 0..4 {
                for x in b.iter_mut() {
                    *x = x.wrapping_add(round);
                }
                let k = block(&b);
                for (i, &x) in b.iter().enumerate() {
                    let bit = |m: u64| m >> i & 1 == 1;
                    assert_eq!(bit(k.colon), x == b':', "{x:#x}");
                    assert_eq!(bit(k.slash), x == b'/', "{x:#x}");
                    assert_eq!(bit(k.ell), x | 0x20 == b'l', "{x:#x}");
                    assert_eq!(bit(k.lt), x == b'<', "{x:#x}");
                    assert_eq!(bit(k.quote), x == b'"', "{x:#x}");
                    assert_eq!(
                        bit(k.scheme),
                        (b'+'..=0x7f).contains(&x)
                            && x != b':'
                            && x != b'<'
                            && x != b'>',
                        "{x:#x}"
                    );
                    assert_eq!(
                        bit(k.opener),
                        x <= b'"' || x == b'<' || x == b'>',
                        "{x:#x}"
                    );
                    // The supersets the engine relies on.
                    if is_scheme_byte(x) {
                        assert!(bit(k.scheme), "{x:#x}");
                    }
                    if is_ws(x) || x == b'<' || x == b'"' {
                        assert!(bit(k.opener), "{x:#x}");
                    }
                    assert!(!(bit(k.scheme) && bit(k.opener)), "{x:#x}");
                }
            }
        }
    }

    #[test]
    fn hosts() {
        for h in
            ["www.ietf.org", "192.168.1.1", "[::1]", "a.example:8080", "a.bc."]
        {
            assert!(host_only(h.as_bytes()), "{h}");
        }
        for h in [
            "Makes", "and", "format", "", "a..b", "-a.b", "[]", "a.b:x", "e.g",
        ] {
            assert!(!host_only(h.as_bytes()), "{h}");
        }
    }
}
