//! Query parameters and the decoding the formats share: splitting a
//! still-encoded query into parameters, percent-decoding once (`+` kept
//! as `+`, unlike form decoding), and undoing HTML character references.
//!
//! Every function here is one pass over its input, and its output is
//! never longer than its input.

use crate::charref::{char_ref, Ref, Where};

/// The parameters of `query` (still encoded), split at any byte of
/// `seps`: each as its name and its value (`None` without `=`).
pub(crate) fn params<'q>(
    query: &'q [u8],
    seps: &'static [u8],
) -> impl Iterator<Item = (&'q [u8], Option<&'q [u8]>)> + 'q {
    query.split(move |b| seps.contains(b)).map(|p| {
        match p.iter().position(|&b| b == b'=') {
            Some(k) => (&p[..k], Some(&p[k + 1..])),
            None => (p, None),
        }
    })
}

/// The value of the first parameter of `query` named exactly `name`
/// (split at `&`), still encoded.
pub(crate) fn param<'q>(query: &'q [u8], name: &[u8]) -> Option<&'q [u8]> {
    params(query, b"&")
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.unwrap_or(b""))
}

/// The value of one hexadecimal digit.
fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// `s` percent-decoded once: every `%XX` becomes its byte, everything
/// else (a `+`, a `%` without two hex digits) stays as it is.
pub(crate) fn decode_once(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let Some(k) = memchr::memchr(b'%', &s[i..]) else {
            out.extend_from_slice(&s[i..]);
            break;
        };
        let a = i + k;
        out.extend_from_slice(&s[i..a]);
        match (
            s.get(a + 1).and_then(|&b| hex(b)),
            s.get(a + 2).and_then(|&b| hex(b)),
        ) {
            (Some(h), Some(l)) => {
                out.push(h << 4 | l);
                i = a + 3;
            }
            _ => {
                out.push(b'%');
                i = a + 1;
            }
        }
    }
    out
}

/// `s` with its HTML character references (`&amp;`, `&#38;`, `&#x26;`)
/// replaced by what they stand for, as HTML reads them.
pub(crate) fn undo_refs(s: Vec<u8>) -> Vec<u8> {
    if !s.contains(&b'&') {
        return s;
    }
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'&', &s[i..]) {
        let a = i + k;
        out.extend_from_slice(&s[i..a]);
        match char_ref(&s[a..], Where::Attribute) {
            Some((len, r)) => {
                match r {
                    Ref::Char(c) => {
                        out.extend_from_slice(
                            c.encode_utf8(&mut [0; 4]).as_bytes(),
                        );
                    }
                    Ref::Named(n) => out.extend_from_slice(n),
                }
                i = a + len;
            }
            None => {
                out.push(b'&');
                i = a + 1;
            }
        }
    }
    out.extend_from_slice(&s[i..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_once_and_keeps_plus() {
        assert_eq!(decode_once(b"a%2Fb+c%252F"), b"a/b+c%2F");
        assert_eq!(decode_once(b"100%"), b"100%");
        assert_eq!(decode_once(b"%zz%4"), b"%zz%4");
        assert_eq!(decode_once(b"%C3%A9"), "é".as_bytes());
    }

    #[test]
    fn parameters() {
        let q = b"a=1&b&c=&a=2";
        assert_eq!(param(q, b"a"), Some(&b"1"[..]));
        assert_eq!(param(q, b"b"), Some(&b""[..]));
        assert_eq!(param(q, b"c"), Some(&b""[..]));
        assert_eq!(param(q, b"A"), None);
        let all: Vec<_> = params(b"x=1;y=2", b"&;").collect();
        assert_eq!(
            all,
            [(&b"x"[..], Some(&b"1"[..])), (&b"y"[..], Some(&b"2"[..]))]
        );
    }

    #[test]
    fn references() {
        assert_eq!(
            undo_refs(b"a=1&amp;b=2&#38;c&#x26;d&e".to_vec()),
            b"a=1&b=2&c&d&e"
        );
        assert_eq!(undo_refs(b"no refs".to_vec()), b"no refs");
    }
}
