//! What a character class admits: the one place where the URI grammars
//! and RFC 3987's IRI grammar differ.
//!
//! RFC 3987 writes its productions as RFC 3986's with `ucschar` added
//! wherever RFC 3986 admits `unreserved` (and, in a query, `iprivate`);
//! on ASCII the two are the same. So the parsers (`authority`, `parse`)
//! are written once, generic over an [`Alphabet`]: [`Ascii`] reads bytes
//! of a class and escapes, as the URI grammars do; [`Ucs`] reads the same
//! and, at a non-ASCII byte, decodes one UTF-8 character and takes it
//! when it is a `ucschar` (or an `iprivate` in a query). Each is
//! monomorphized, so the URI parse pays nothing for the IRI one.
//!
//! ```text
//! ucschar  = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF
//!          / %x10000-1FFFD / %x20000-2FFFD / %x30000-3FFFD
//!          / %x40000-4FFFD / %x50000-5FFFD / %x60000-6FFFD
//!          / %x70000-7FFFD / %x80000-8FFFD / %x90000-9FFFD
//!          / %xA0000-AFFFD / %xB0000-BFFFD / %xC0000-CFFFD
//!          / %xD0000-DFFFD / %xE1000-EFFFD
//! iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD
//! ```

use super::chars::FUTURE;
use super::lex::{char_err, escape, run, scan, Result};
use super::{Error, ErrorKind, Fault, Part};

/// What the parsers read at a character: the URI grammars' bytes or
/// RFC 3987's characters.
pub(crate) trait Alphabet: Copy {
    /// The fault of an absolute reference without a scheme, in words.
    const NO_SCHEME: &'static str;

    /// The end of the run, from `i`, of bytes of class `mask` (the ASCII
    /// half of a set), escapes and what the alphabet adds in `part`; or
    /// the fault of a bad escape, at its `%`.
    fn scan(s: &[u8], i: usize, mask: u16, part: Part) -> Result<usize>;

    /// The fault of the character at `s[i]` standing in `part` (`place`
    /// names the rule in words).
    fn char_err(s: &[u8], i: usize, part: Part, place: &'static str) -> Fault;

    /// The fault of an IP literal opened at `s[h]` with no `]` before the
    /// authority's end `e`.
    fn unclosed_literal(s: &[u8], h: usize, e: usize) -> Fault;
}

/// The URI grammars' alphabet: ASCII bytes of a class, and escapes.
#[derive(Clone, Copy)]
pub(crate) struct Ascii;

impl Alphabet for Ascii {
    const NO_SCHEME: &'static str = "a URI must start with a scheme";

    #[inline(always)]
    fn scan(s: &[u8], i: usize, mask: u16, part: Part) -> Result<usize> {
        scan(s, i, mask, part)
    }

    #[cold]
    fn char_err(s: &[u8], i: usize, part: Part, place: &'static str) -> Fault {
        char_err(s, i, part, place)
    }

    #[cold]
    fn unclosed_literal(_: &[u8], _: usize, e: usize) -> Fault {
        missing_bracket(e)
    }
}

/// RFC 3987's alphabet: [`Ascii`] and the `ucschar` characters (and the
/// `iprivate` ones in a query), read as UTF-8.
#[derive(Clone, Copy)]
pub(crate) struct Ucs;

impl Alphabet for Ucs {
    const NO_SCHEME: &'static str = "an IRI must start with a scheme";

    #[inline]
    fn scan(s: &[u8], mut i: usize, mask: u16, part: Part) -> Result<usize> {
        // iquery = *( ipchar / iprivate / "/" / "?" ): only a query takes
        // iprivate.
        let private = part == Part::Query;
        let n = s.len();
        loop {
            i = run(s, i, mask);
            if i == n {
                return Ok(i);
            }
            match s[i] {
                b'%' => i = escape(s, i, part)?,
                0x80.. => match decode(s, i) {
                    Some((c, k))
                        if is_ucschar(c) || (private && is_iprivate(c)) =>
                    {
                        i += k
                    }
                    _ => return Ok(i),
                },
                _ => return Ok(i),
            }
        }
    }

    #[cold]
    fn char_err(s: &[u8], i: usize, part: Part, place: &'static str) -> Fault {
        if s[i] < 0x80 {
            return char_err(s, i, part, place);
        }
        let m = match (decode(s, i), part) {
            (None, _) => return utf8_fault(i, part),
            (Some(_), Part::Scheme) => {
                "a scheme is ASCII letters, digits, '+', '-' and '.'"
            }
            (Some(_), Part::Authority) => {
                "a character that is not a ucschar is not allowed in an \
                 IRI's authority"
            }
            (Some(_), Part::Path) => {
                "a character that is not a ucschar is not allowed in an \
                 IRI's path"
            }
            (Some(_), Part::Query) => {
                "a character that is neither a ucschar nor an iprivate is \
                 not allowed in an IRI's query"
            }
            (Some(_), Part::Fragment) => {
                "a character that is not a ucschar is not allowed in an \
                 IRI's fragment"
            }
        };
        Fault::new(i, part, ErrorKind::Other(m))
    }

    /// No parse gets past the first byte no IP literal holds (`IPvFuture`
    /// takes every byte `IPv6address` takes), so the fault is there when the
    /// literal holds one, and at the authority's end otherwise.
    #[cold]
    fn unclosed_literal(s: &[u8], h: usize, e: usize) -> Fault {
        match (h + 1..e).find(|&k| !super::chars::is(s[k], FUTURE)) {
            Some(k) => Ucs::char_err(s, k, Part::Authority, "an IPv6 address"),
            None => missing_bracket(e),
        }
    }
}

#[cold]
fn missing_bracket(e: usize) -> Fault {
    let m = "missing ']' after IPv6 address";
    Fault::new(e, Part::Authority, ErrorKind::Other(m))
}

/// Whether `c` is a `ucschar` (RFC 3987 section 2.2):
///
/// ```text
/// ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF
///         / %x10000-1FFFD / %x20000-2FFFD / %x30000-3FFFD
///         / %x40000-4FFFD / %x50000-5FFFD / %x60000-6FFFD
///         / %x70000-7FFFD / %x80000-8FFFD / %x90000-9FFFD
///         / %xA0000-AFFFD / %xB0000-BFFFD / %xC0000-CFFFD
///         / %xD0000-DFFFD / %xE1000-EFFFD
/// ```
///
/// That is every character from U+00A0 on except surrogates, the private
/// use areas, the non-characters (U+FDD0-FDEF and the last two of every
/// plane) and the tags and variation selectors of plane 14 below
/// U+E1000.
///
/// # Example
///
/// ```
/// use urifind::grammar::is_ucschar;
///
/// assert!(is_ucschar('é') && is_ucschar('日') && is_ucschar('\u{200c}'));
/// assert!(!is_ucschar('a') && !is_ucschar('\u{fffe}'));
/// assert!(!is_ucschar('\u{e000}')); // private use: iprivate
/// ```
pub fn is_ucschar(c: char) -> bool {
    let c = u32::from(c);
    match c {
        0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF => true,
        // %x10000-1FFFD / ... / %xD0000-DFFFD / %xE1000-EFFFD: planes 1
        // to 14 less each plane's last two code points, and less
        // U+E0000-E0FFF.
        0x10000..=0xEFFFD => {
            c & 0xFFFF <= 0xFFFD && !(0xE0000..0xE1000).contains(&c)
        }
        _ => false,
    }
}

/// Whether `c` is an `iprivate` (RFC 3987 section 2.2), which only a
/// query may hold:
///
/// ```text
/// iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD
/// ```
///
/// # Example
///
/// ```
/// use urifind::grammar::is_iprivate;
///
/// assert!(is_iprivate('\u{e000}') && is_iprivate('\u{10fffd}'));
/// assert!(!is_iprivate('é') && !is_iprivate('\u{10ffff}'));
/// ```
pub fn is_iprivate(c: char) -> bool {
    matches!(
        u32::from(c),
        0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD
    )
}

/// The UTF-8 character that starts at `s[i]`, and its length; `None`
/// when the bytes there are not UTF-8.
#[inline]
fn decode(s: &[u8], i: usize) -> Option<(char, usize)> {
    match bstr::decode_utf8(&s[i..]) {
        (Some(c), n) => Some((c, n)),
        (None, _) => None,
    }
}

/// The fault of bytes that are not UTF-8 at offset `i`, in `part`.
#[cold]
fn utf8_fault(i: usize, part: Part) -> Fault {
    let m = "bytes that are not UTF-8 are not allowed in an IRI";
    Fault::new(i, part, ErrorKind::Other(m))
}

/// The error of bytes that are not UTF-8 at offset `i`.
#[cold]
pub(crate) fn not_utf8(i: usize) -> Error {
    utf8_fault(i, Part::Path).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ucschar_bounds() {
        let yes = [
            0xA0, 0xD7FF, 0xF900, 0xFDCF, 0xFDF0, 0xFFEF, 0x10000, 0x1FFFD,
            0x20000, 0xDFFFD, 0xE1000, 0xEFFFD, 0x200C, 0x200D,
        ];
        let no = [
            0x7F, 0x9F, 0xE000, 0xF8FF, 0xFDD0, 0xFDEF, 0xFFF0, 0xFFFE,
            0xFFFF, 0x1FFFE, 0x1FFFF, 0xE0000, 0xE0001, 0xE0FFF, 0xEFFFE,
            0xF0000, 0x10FFFD,
        ];
        for c in yes {
            assert!(is_ucschar(char::from_u32(c).unwrap()), "{c:x}");
        }
        for c in no {
            assert!(!is_ucschar(char::from_u32(c).unwrap()), "{c:x}");
        }
        for c in [0xE000, 0xF8FF, 0xF0000, 0xFFFFD, 0x100000, 0x10FFFD] {
            assert!(is_iprivate(char::from_u32(c).unwrap()), "{c:x}");
        }
        for c in [0xD7FF, 0xF900, 0xFFFFE, 0x10FFFE, 0xA0] {
            assert!(!is_iprivate(char::from_u32(c).unwrap()), "{c:x}");
        }
    }

    #[test]
    fn ascii_is_the_uri_alphabet() {
        use crate::grammar::chars::PATH;
        // The same run and the same fault on ASCII; a non-ASCII byte
        // ends the URI run and is read as a character by the IRI one.
        let s = "a/b%41c d".as_bytes();
        assert_eq!(Ascii::scan(s, 0, PATH, Part::Path).unwrap(), 7);
        assert_eq!(Ucs::scan(s, 0, PATH, Part::Path).unwrap(), 7);
        let s = "a/é/b".as_bytes();
        assert_eq!(Ascii::scan(s, 0, PATH, Part::Path).unwrap(), 2);
        assert_eq!(Ucs::scan(s, 0, PATH, Part::Path).unwrap(), s.len());
        // iprivate in a query only
        let s = "\u{e000}".as_bytes();
        assert_eq!(Ucs::scan(s, 0, PATH, Part::Path).unwrap(), 0);
        assert_eq!(Ucs::scan(s, 0, PATH, Part::Query).unwrap(), 3);
        let e = Ascii::scan(b"a%4", 0, PATH, Part::Path).unwrap_err();
        assert_eq!((e.offset, e.kind), (1, ErrorKind::Escape));
    }
}
