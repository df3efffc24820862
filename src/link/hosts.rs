//! Hosts as a browser reads them: the host parser of the WHATWG URL
//! Standard (the `url` crate's [`url::Host::parse`]) reads
//! `2130706433`, `0x7f.1`, `0177.0.0.1` as IPv4 addresses and
//! `%77%77%77.example.com` as `www.example.com`, where strict validation
//! rejects them. Used by the scanner (with
//! [`crate::FinderBuilder::browser_hosts`]) to accept a candidate whose
//! only fault is such a host, and by the link analysis to say how the
//! host is read.

use std::net::Ipv4Addr;

use url::Host;

use crate::grammar::schemes;

/// How a browser reads `host` (as written in a URI, without userinfo or
/// port): an IPv4 address in dotted decimal, or a valid domain in ASCII
/// (labels of letters, digits and inner hyphens, up to 63 bytes each).
/// `None` when the URL Standard rejects it, reads an IPv6 address, or
/// reads a domain that is not valid.
pub(crate) fn as_read(host: &[u8]) -> Option<String> {
    let s = std::str::from_utf8(host).ok()?;
    if s.is_empty() || s.starts_with('[') {
        return None;
    }
    match Host::parse(s).ok()? {
        Host::Ipv4(a) => Some(Ipv4Addr::to_string(&a)),
        Host::Domain(d) => valid_domain(&d).then_some(d),
        Host::Ipv6(_) => None,
    }
}

/// Whether `d` (ASCII, lower case, from the URL parser) is a valid
/// domain: 1 to 253 bytes, labels of 1 to 63 letters, digits and
/// hyphens that neither start nor end with a hyphen, one trailing dot
/// allowed.
fn valid_domain(d: &str) -> bool {
    let body = d.strip_suffix('.').unwrap_or(d);
    !body.is_empty()
        && body.len() <= 253
        && body.split('.').all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        })
}

/// Where the host of `t` (an absolute URI with `scheme://`, scheme of
/// `scheme_len` bytes) lies: after any `userinfo@`, before any port.
pub(crate) fn host_range(
    t: &[u8],
    scheme_len: usize,
) -> Option<(usize, usize)> {
    let a = scheme_len + 3;
    if t.len() < a || &t[scheme_len..a] != b"://" {
        return None;
    }
    let end = t[a..]
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .map_or(t.len(), |k| a + k);
    let h =
        t[a..end].iter().rposition(|&b| b == b'@').map_or(a, |k| a + k + 1);
    let hend = match t[h..end].iter().rposition(|&b| b == b':') {
        Some(k) if t[h + k + 1..end].iter().all(u8::is_ascii_digit) => h + k,
        _ => end,
    };
    Some((h, hend))
}

/// For a candidate `t` of an IP-based scheme whose host a browser reads
/// as an IPv4 address or a valid domain: `t` with that host replaced by
/// a plain one, to check that nothing else is wrong.
pub(crate) fn stand_in(t: &[u8], scheme_len: usize) -> Option<Vec<u8>> {
    if !schemes::is_ip_based(&t[..scheme_len]) {
        return None;
    }
    let (h, hend) = host_range(t, scheme_len)?;
    as_read(&t[h..hend])?;
    Some([&t[..h], b"x", &t[hend..]].concat())
}

/// The length of the character at the start of `s` when it is one that a
/// browser maps to ASCII in a host and spam writes there: a full-width
/// letter, digit, hyphen or full stop (U+FF0D, U+FF0E, U+FF10-U+FF19,
/// U+FF21-U+FF3A, U+FF41-U+FF5A), or an ideographic full stop (U+3002,
/// U+FF61); 0 otherwise.
pub(crate) fn wide_len(s: &[u8]) -> usize {
    let c = match s {
        [0xE3, 0x80, 0x82, ..] => return 3,
        [0xEF, b1 @ (0xBC | 0xBD), b2, ..] => {
            0xFF00 + (u32::from(b1 & 1) << 6) + u32::from(b2 & 0x3F)
        }
        _ => return 0,
    };
    let wide = matches!(c, 0xFF0D | 0xFF0E | 0xFF10..=0xFF19 | 0xFF21..=0xFF3A | 0xFF41..=0xFF5A | 0xFF61);
    if wide {
        3
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_as_a_browser_does() {
        for (h, want) in [
            ("2130706433", "127.0.0.1"),
            ("0x7f.1", "127.0.0.1"),
            ("0x7f.0.0.1", "127.0.0.1"),
            ("0177.0.0.1", "127.0.0.1"),
            ("1113343455", "66.92.69.223"),
            ("%77%77%77.example.com", "www.example.com"),
            ("WWW.Example.COM", "www.example.com"),
        ] {
            assert_eq!(as_read(h.as_bytes()).as_deref(), Some(want), "{h}");
        }
        for h in [
            "1.2.3.08",
            "4294967296",
            "ho%2Fst",
            "ex!ample.com",
            "a..b",
            "",
            "[::1]",
            "-a.example",
        ] {
            assert_eq!(as_read(h.as_bytes()), None, "{h}");
        }
    }

    #[test]
    fn wide_characters() {
        for ch in ['。', '．', '｡', 'ａ', 'Ｚ', '０', '－'] {
            let mut b = [0; 4];
            let s = ch.encode_utf8(&mut b);
            assert_eq!(wide_len(s.as_bytes()), 3, "{ch}");
        }
        for ch in ['、', '！', '／', 'é', '例'] {
            let mut b = [0; 4];
            let s = ch.encode_utf8(&mut b);
            assert_eq!(wide_len(s.as_bytes()), 0, "{ch}");
        }
        assert_eq!(
            as_read("ｅｘａｍｐｌｅ。com".as_bytes()).as_deref(),
            Some("example.com")
        );
    }

    #[test]
    fn stand_in_keeps_the_rest() {
        assert_eq!(
            stand_in(b"http://u@0x7f.1:8080/p?q", 4).unwrap(),
            b"http://u@x:8080/p?q"
        );
        assert_eq!(stand_in(b"http://1.2.3.08/", 4), None);
        assert_eq!(stand_in(b"foo://0x7f.1/", 3), None);
    }
}
