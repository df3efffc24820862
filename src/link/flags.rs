//! The flags of a link: what an analyst looks at first (wrapped,
//! embedded links, userinfo, a numeric or obscured host, an IDN host, a
//! label that mixes scripts).

use unicode_security::MixedScript;

use super::Flag;

/// The flags of a URI's host (`host`, as written, without userinfo or
/// port), beside what the caller knows: a userinfo, how a browser reads
/// the host.
pub(crate) fn host_flags(
    host: &[u8],
    has_user: bool,
    as_read: Option<&str>,
    out: &mut Vec<Flag>,
) {
    if has_user {
        out.push(Flag::HasUser);
    }
    let dotted = !host.is_empty()
        && host.iter().all(|&b| b.is_ascii_digit() || b == b'.');
    let numeric = host.first() == Some(&b'[')
        || dotted
        || as_read.is_some_and(|r| r.parse::<std::net::Ipv4Addr>().is_ok());
    if numeric {
        out.push(Flag::Numeric);
    }
    if as_read.is_some() {
        out.push(Flag::Obscured);
    }
    let idn = |l: &&[u8]| {
        !l.is_ascii() || (l.len() >= 4 && l[..4].eq_ignore_ascii_case(b"xn--"))
    };
    // (An ASCII host without `xn--` has no IDN label.)
    let plain = host.is_ascii()
        && !host.windows(4).any(|w| w.eq_ignore_ascii_case(b"xn--"));
    if !plain && labels(host).any(|l| idn(&l)) {
        out.push(Flag::Idn);
        if labels(host).filter(idn).any(mixed) {
            out.push(Flag::MixedScript);
        }
    }
}

/// The labels of `host`, split at `.` and at the full stops a browser
/// reads as one (U+3002, U+FF0E, U+FF61).
fn labels(host: &[u8]) -> impl Iterator<Item = &[u8]> + '_ {
    let mut rest = Some(host);
    std::iter::from_fn(move || {
        let r = rest?;
        let mut i = 0;
        while i < r.len() {
            let dot = match r[i..] {
                [b'.', ..] => 1,
                [0xE3, 0x80, 0x82, ..]
                | [0xEF, 0xBC, 0x8E, ..]
                | [0xEF, 0xBD, 0xA1, ..] => 3,
                _ => 0,
            };
            if dot > 0 {
                rest = Some(&r[i + dot..]);
                return Some(&r[..i]);
            }
            i += 1;
        }
        rest = None;
        Some(r)
    })
}

/// Whether a label (non-ASCII, or an `xn--` label) mixes scripts:
/// Unicode Technical Standard 39's single-script test (section 5.1, with
/// `Script_Extensions` and the augmented sets that let Han and kana
/// stand together) fails.
fn mixed(label: &[u8]) -> bool {
    let text = if label.is_ascii() {
        let lower = String::from_utf8_lossy(&label[4..]).to_ascii_lowercase();
        match idna::punycode::decode_to_string(&lower) {
            Some(s) => s,
            None => return false,
        }
    } else {
        match std::str::from_utf8(label) {
            Ok(s) => s.to_owned(),
            Err(_) => return false,
        }
    };
    !text.as_str().is_single_script()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(host: &str, user: bool, read: Option<&str>) -> Vec<Flag> {
        let mut v = Vec::new();
        host_flags(host.as_bytes(), user, read, &mut v);
        v
    }

    #[test]
    fn hosts() {
        assert_eq!(flags("a.example", false, None), []);
        assert_eq!(
            flags("192.0.2.1", true, None),
            [Flag::HasUser, Flag::Numeric]
        );
        assert_eq!(flags("[::1]", false, None), [Flag::Numeric]);
        assert_eq!(
            flags("0x7f.1", false, Some("127.0.0.1")),
            [Flag::Numeric, Flag::Obscured]
        );
        assert_eq!(
            flags("%77ww.example", false, Some("www.example")),
            [Flag::Obscured]
        );
        assert_eq!(flags("xn--bcher-kva.example", false, None), [Flag::Idn]);
        assert_eq!(flags("bücher.example", false, None), [Flag::Idn]);
    }

    #[test]
    fn mixed_scripts() {
        // Latin "p", "y", "l" with Cyrillic "а" (U+0430).
        assert_eq!(
            flags("pаypal.example", false, None),
            [Flag::Idn, Flag::MixedScript]
        );
        // The same label in its ACE form.
        let ace = idna::domain_to_ascii("pаypal.example").unwrap();
        assert_eq!(flags(&ace, false, None), [Flag::Idn, Flag::MixedScript]);
        // Han and kana together are one writing system.
        assert_eq!(flags("例え.テスト", false, None), [Flag::Idn]);
        // Ideographic full stops separate labels.
        assert_eq!(
            flags("www。example。com", false, Some("www.example.com")),
            [Flag::Obscured]
        );
    }
}
