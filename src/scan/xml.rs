//! XML elements are not URIs (docs/CONTRACT.md section 1.1): `<ns:local>`
//! without a `URL:` label, whose part after the colon is one XML name, is
//! an element with a namespace prefix, however much the prefix looks like
//! a scheme (`<dav:href>`, `<geo:lat>`); so is its closing tag
//! `</ns:local>`, whatever the prefix. `mailto` is the exception: a
//! local mailbox is a single name (`<mailto:root>`).
//!
//! `delimited` asks [`is_element`] of a bracketed candidate, the engine
//! asks [`closing_tag`] of a colon before it tries bare text.

use crate::scan::decision::View;

/// Whether `b` may start an XML name (ASCII: a letter or `_`).
#[inline]
fn name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

/// Whether `b` may continue an XML name (ASCII: a letter, a digit, `-`
/// or `_`).
#[inline]
fn name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// Whether `t` is one XML name.
fn is_name(t: &[u8]) -> bool {
    t.first().is_some_and(|&b| name_start(b))
        && t.iter().all(|&b| name_byte(b))
}

/// Whether the text between `<` and `>`, `t`, whose scheme is its first
/// `scheme_len` bytes, is an element: `prefix:name`, the prefix not
/// `mailto`.
pub(crate) fn is_element(t: &[u8], scheme_len: usize) -> bool {
    !t[..scheme_len].eq_ignore_ascii_case(b"mailto")
        && is_name(&t[scheme_len + 1..])
}

/// Whether the run of scheme characters `v[r..c]` and its colon stand
/// in a closing tag `</prefix:name>`.
#[inline]
pub(crate) fn closing_tag(vw: &View<'_>, r: usize, c: usize) -> bool {
    let v = vw.v;
    if r < 2 || v[r - 1] != b'/' || v[r - 2] != b'<' {
        return false;
    }
    let mut i = c + 1;
    vw.touch(i);
    if i >= v.len() || !name_start(v[i]) {
        return false;
    }
    while i < v.len() && name_byte(v[i]) {
        i += 1;
    }
    vw.touch(i);
    v.get(i) == Some(&b'>')
}

#[cfg(test)]
mod tests {
    use super::is_element;

    #[test]
    fn elements() {
        for t in ["dav:href", "soap:Body", "geo:lat", "tel:name", "x:_a-1"] {
            let c = t.find(':').unwrap();
            assert!(is_element(t.as_bytes(), c), "{t}");
        }
        for t in [
            "mailto:root",
            "MailTo:root",
            "urn:ietf:rfc",
            "geo:1",
            "news:comp.lang",
            "tel:+1",
            "geo:",
            "http://a",
        ] {
            let c = t.find(':').unwrap();
            assert!(!is_element(t.as_bytes(), c), "{t}");
        }
    }
}
