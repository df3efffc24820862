//! Links inside a query: a parameter (split at `&` or `;` in the
//! still-encoded query) whose value, decoded once, is an absolute
//! `http`, `https` or `ftp` URI (login pages' `redirect_to=`, tracking
//! links' `url=`), looked for again inside each one found, up to
//! [`super::MAX_DEPTH`] levels.

use super::query::{decode_once, params};
use super::{Analyzer, MAX_DEPTH};
use crate::uri::Components;

/// Appends the links embedded in `uri`'s query to `out`, in order, each
/// followed by those embedded in it; `level` is that of `uri`'s own
/// links (1 for a found URI's).
pub(crate) fn collect(
    an: &Analyzer,
    uri: &[u8],
    level: usize,
    out: &mut Vec<String>,
) {
    collect_query(an, Components::split(uri).query, level, out);
}

/// [`collect`] on a query already split off its URI.
pub(crate) fn collect_query(
    an: &Analyzer,
    query: Option<&[u8]>,
    level: usize,
    out: &mut Vec<String>,
) {
    let Some(q) = query else {
        return;
    };
    for (_, v) in params(q, b"&;") {
        // (A value that starts with none of `h`, `f`, `%` cannot decode
        // to one of the schemes.)
        let Some(v) = v.filter(|v| {
            matches!(v.first(), Some(b'h' | b'H' | b'f' | b'F' | b'%'))
        }) else {
            continue;
        };
        let d = decode_once(v);
        if !ip_scheme(&d) {
            continue;
        }
        let Some(link) = an.valid(d) else { continue };
        let at = out.len();
        out.push(link);
        if level < MAX_DEPTH {
            let inner = out[at].clone();
            collect(an, inner.as_bytes(), level + 1, out);
        }
    }
}

/// Whether `d` starts with `http://`, `https://` or `ftp://` (any case).
fn ip_scheme(d: &[u8]) -> bool {
    let Some(c) = d.iter().take(6).position(|&b| b == b':') else {
        return false;
    };
    let s = &d[..c];
    (s.eq_ignore_ascii_case(b"http")
        || s.eq_ignore_ascii_case(b"https")
        || s.eq_ignore_ascii_case(b"ftp"))
        && d[c + 1..].starts_with(b"//")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn embedded(uri: &str) -> Vec<String> {
        let mut v = Vec::new();
        collect(&Analyzer::new(), uri.as_bytes(), 1, &mut v);
        v
    }

    #[test]
    fn values_decoded_once() {
        assert_eq!(
            embedded("https://login.example/?redirect_to=https%3A%2F%2Fb.example%2Fp%3Fx%3D1;next=ftp://c.example/f&n=1"),
            ["https://b.example/p?x=1", "ftp://c.example/f"]
        );
        // Not absolute, not of these schemes, not valid.
        assert!(embedded("https://a.example/?u=%2Fpath&m=mailto%3Aa%40b.example&h=http%3A%2F%2F&s=https%3A%2F%2Fa%20b.example").is_empty());
        assert!(embedded("https://a.example/path").is_empty());
    }

    #[test]
    fn nested_up_to_five_levels() {
        // Each level one more round of encoding.
        let mut inner = String::from("https://l7.example/");
        for k in (1..=6).rev() {
            let enc: String =
                inner.bytes().map(|b| format!("%{b:02X}")).collect();
            inner = format!("https://l{k}.example/?u={enc}");
        }
        let got = embedded(&inner);
        // Five levels below the found URI: l2 ... l6, not l7.
        assert_eq!(got.len(), 5);
        assert!(got[0].starts_with("https://l2.example/?u="));
        assert!(got[4].starts_with("https://l6.example/?u="));
    }
}
