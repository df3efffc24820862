//! One small function per wrapping format: from the wrapper's parts to
//! the bytes of its target (not yet validated), to an opaque token, or
//! to the finding that the wrapper is malformed. Each names the
//! published description it follows. The table in `formats` says which
//! URIs each one is given.
//!
//! Every decoder is one pass over the wrapper, and what it returns is
//! never longer than the wrapper.

use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine as _;

use super::parts::Parts;
use super::query::{decode_once, param, undo_refs};

/// What a decoder makes of a wrapper.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Decoded {
    /// The target's bytes, to be validated.
    Target(Vec<u8>),
    /// The target is not in the URI (a token on the gateway's servers);
    /// the host it discloses, if any.
    Opaque(Option<Vec<u8>>),
    /// The wrapper does not hold what its format says.
    Malformed,
}

/// The parameter `name` of the wrapper's query, decoded once.
fn query_param(p: &Parts<'_>, name: &str) -> Decoded {
    match p.query.and_then(|q| param(q, name.as_bytes())) {
        Some(v) if !v.is_empty() => Decoded::Target(decode_once(v)),
        _ => Decoded::Malformed,
    }
}

/// Microsoft Defender for Office 365, Safe Links: the original URL is
/// the `url` parameter (Microsoft's "Safe Links in Microsoft Defender for
/// Office 365"); `data`, `sdata` and `reserved` are the service's own.
pub(crate) fn safelinks(p: &Parts<'_>) -> Decoded {
    query_param(p, "url")
}

/// Proofpoint URL Defense v1 (Proofpoint's published URL Defense
/// decoder): `u` percent-encoded, `&` written as `&amp;`.
pub(crate) fn urldefense_v1(p: &Parts<'_>) -> Decoded {
    match query_param(p, "u") {
        Decoded::Target(t) => Decoded::Target(undo_refs(t)),
        d => d,
    }
}

/// Proofpoint URL Defense v2 (Proofpoint's published URL Defense
/// decoder): `u` percent-encoded with `-` in place of `%` and `_` in
/// place of `/`, then HTML references.
pub(crate) fn urldefense_v2(p: &Parts<'_>) -> Decoded {
    let Some(u) =
        p.query.and_then(|q| param(q, b"u")).filter(|u| !u.is_empty())
    else {
        return Decoded::Malformed;
    };
    let swapped: Vec<u8> = u
        .iter()
        .map(|&b| match b {
            b'-' => b'%',
            b'_' => b'/',
            b => b,
        })
        .collect();
    Decoded::Target(undo_refs(decode_once(&swapped)))
}

/// base64 that takes padding or its absence, and trailing bits.
fn lenient(a: &alphabet::Alphabet) -> GeneralPurpose {
    GeneralPurpose::new(
        a,
        GeneralPurposeConfig::new()
            .with_decode_padding_mode(DecodePaddingMode::Indifferent)
            .with_decode_allow_trailing_bits(true),
    )
}

/// The run lengths of URL Defense v3: `**` and a character of this
/// alphabet stand for 2 + its position bytes.
const RUN: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Proofpoint URL Defense v3 (Proofpoint's published URL Defense
/// decoder): the path is `/v3/__BODY__;REPL!TOKEN!SIGNATURE$`, BODY the
/// target with some bytes replaced by `*`, REPL those bytes in order, as
/// base64url without padding. In BODY, `*` takes the next byte, and `**`
/// followed by a run character c the next 2 + index(c) bytes; every
/// replacement byte is taken exactly once.
pub(crate) fn urldefense_v3(p: &Parts<'_>) -> Decoded {
    let rest = &p.uri[p.path_at + "/v3/__".len()..];
    let Some(end) = memchr::memmem::find(rest, b"__;") else {
        return Decoded::Malformed;
    };
    let body = &rest[..end];
    let after = &rest[end + 3..];
    let repl = &after[..memchr::memchr(b'!', after).unwrap_or(after.len())];
    let Ok(bytes) = lenient(&alphabet::URL_SAFE).decode(repl) else {
        return Decoded::Malformed;
    };
    let mut out = Vec::with_capacity(body.len() + bytes.len());
    let (mut i, mut k) = (0, 0);
    while i < body.len() {
        if body[i] != b'*' {
            out.push(body[i]);
            i += 1;
            continue;
        }
        let n = if body.get(i + 1) == Some(&b'*') {
            let Some(pos) =
                body.get(i + 2).and_then(|c| RUN.iter().position(|r| r == c))
            else {
                return Decoded::Malformed;
            };
            i += 3;
            pos + 2
        } else {
            i += 1;
            1
        };
        let Some(take) = bytes.get(k..k + n) else {
            return Decoded::Malformed;
        };
        out.extend_from_slice(take);
        k += n;
    }
    if k != bytes.len() {
        return Decoded::Malformed;
    }
    Decoded::Target(second_slash(out))
}

/// `scheme:/host...` with its second slash restored (a single slash
/// before a host is how some mail clients pass v3 targets on).
fn second_slash(mut t: Vec<u8>) -> Vec<u8> {
    let Some(c) = t
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || b"+-.".contains(&b)))
    else {
        return t;
    };
    if c > 0
        && t[c] == b':'
        && t.get(c + 1) == Some(&b'/')
        && t.get(c + 2).is_some_and(|&b| b != b'/')
    {
        t.insert(c + 1, b'/');
    }
    t
}

/// Google's redirect (`/url`, as search results and Gmail link out):
/// the first non-empty of `q` and `url`.
pub(crate) fn google(p: &Parts<'_>) -> Decoded {
    match query_param(p, "q") {
        Decoded::Malformed => query_param(p, "url"),
        d => d,
    }
}

/// Facebook's link shim (Facebook Engineering, "Link Shim"): `u`.
pub(crate) fn facebook(p: &Parts<'_>) -> Decoded {
    query_param(p, "u")
}

/// Barracuda Email Protection, Link Protection (Barracuda's
/// documentation of rewritten links): `a`.
pub(crate) fn barracuda(p: &Parts<'_>) -> Decoded {
    query_param(p, "a")
}

/// Trend Micro Email Security, Time-of-Click Protection (Trend Micro's
/// online help on rewritten URLs): `url`.
pub(crate) fn trendmicro(p: &Parts<'_>) -> Decoded {
    query_param(p, "url")
}

/// Trellix (formerly `FireEye`) Email Security URL rewriting (Trellix's
/// documentation of URL protection): `u`.
pub(crate) fn fireeye(p: &Parts<'_>) -> Decoded {
    query_param(p, "u")
}

/// Slack's link redirector (`slack-redir.net/link?url=`): `url`.
pub(crate) fn slack(p: &Parts<'_>) -> Decoded {
    query_param(p, "url")
}

/// The redirect `YouTube` puts on links in descriptions and comments: `q`.
pub(crate) fn youtube(p: &Parts<'_>) -> Decoded {
    query_param(p, "q")
}

/// Cisco Secure Email URL rewriting (the Cisco Secure Email Gateway user
/// guide's rewritten URLs): `/TOKEN/TARGET`, the target the last path
/// segment, percent-encoded.
pub(crate) fn cisco(p: &Parts<'_>) -> Decoded {
    let segs = &p.path[1..];
    match segs.iter().rposition(|&b| b == b'/') {
        Some(k) if k > 0 && k + 1 < segs.len() => {
            Decoded::Target(decode_once(&segs[k + 1..]))
        }
        _ => Decoded::Malformed,
    }
}

/// Sophos Email, Time-of-Click protection (Sophos Central's
/// documentation of rewritten links): `u` is the target in base64.
pub(crate) fn sophos(p: &Parts<'_>) -> Decoded {
    let Decoded::Target(b64) = query_param(p, "u") else {
        return Decoded::Malformed;
    };
    lenient(&alphabet::STANDARD)
        .decode(&b64)
        .or_else(|_| lenient(&alphabet::URL_SAFE).decode(&b64))
        .map_or(Decoded::Malformed, Decoded::Target)
}

/// Amazon SES click tracking (the Amazon SES developer guide on open and
/// click tracking): `/L0/TARGET/...`, the target one percent-encoded
/// segment.
pub(crate) fn awstrack(p: &Parts<'_>) -> Decoded {
    let seg = &p.path["/L0/".len()..];
    let seg = &seg[..memchr::memchr(b'/', seg).unwrap_or(seg.len())];
    if seg.is_empty() {
        return Decoded::Malformed;
    }
    Decoded::Target(decode_once(seg))
}

/// The AMP cache (the AMP Cache URL format): `/c/s/HOST/PATH` is
/// `https://HOST/PATH`, `/c/HOST/PATH` is `http://HOST/PATH`; the query
/// and fragment are the target's.
pub(crate) fn amp(p: &Parts<'_>) -> Decoded {
    let rest = &p.path["/c/".len()..];
    let (scheme, rest): (&[u8], _) = match rest.strip_prefix(b"s/") {
        Some(r) => (b"https://", r),
        None => (b"http://", rest),
    };
    if rest.is_empty() || rest[0] == b'/' {
        return Decoded::Malformed;
    }
    let mut t = Vec::with_capacity(p.uri.len());
    t.extend_from_slice(scheme);
    t.extend_from_slice(rest);
    if let Some(q) = p.query {
        t.push(b'?');
        t.extend_from_slice(q);
    }
    if let Some(f) = p.fragment {
        t.push(b'#');
        t.extend_from_slice(f);
    }
    Decoded::Target(t)
}

/// Mimecast URL Protect (Mimecast's Targeted Threat Protection
/// documentation): `/s/TOKEN`, the target kept on Mimecast's servers;
/// `domain`, when present, names the target's host.
pub(crate) fn mimecast(p: &Parts<'_>) -> Decoded {
    let host = p
        .query
        .and_then(|q| param(q, b"domain"))
        .map(decode_once)
        .filter(|h| !h.is_empty());
    Decoded::Opaque(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(f: fn(&Parts<'_>) -> Decoded, uri: &str) -> Decoded {
        f(&Parts::of(uri.as_bytes()).unwrap())
    }

    fn target(s: &str) -> Decoded {
        Decoded::Target(s.as_bytes().to_vec())
    }

    #[test]
    fn v3_replacements_and_runs() {
        // "?" and "&" replaced: base64url of "?&" is "PyY".
        assert_eq!(
            run(urldefense_v3, "https://urldefense.com/v3/__https://a.example/p*x=1*y=2__;PyY!!tok!sig$"),
            target("https://a.example/p?x=1&y=2")
        );
        // "**A" takes two bytes (é in UTF-8), "*" one: "w6k_" is C3 A9 3F.
        assert_eq!(
            run(urldefense_v3, "https://urldefense.com/v3/__https://a.example/caf**A*__;w6k_!!t$"),
            target("https://a.example/café?")
        );
        // "**B" takes three bytes.
        assert_eq!(
            run(urldefense_v3, "https://urldefense.com/v3/__https://a.example/x**B__;JiYm!!t$"),
            target("https://a.example/x&&&")
        );
        // Nothing replaced.
        assert_eq!(
            run(
                urldefense_v3,
                "https://urldefense.com/v3/__https://a.example/__;!!t!s$"
            ),
            target("https://a.example/")
        );
        // One slash after the scheme gets its second.
        assert_eq!(
            run(
                urldefense_v3,
                "https://urldefense.com/v3/__https:/a.example/__;!!t$"
            ),
            target("https://a.example/")
        );
    }

    #[test]
    fn v3_malformed() {
        for bad in [
            // a '*' without its byte
            "https://urldefense.com/v3/__https://a.example/*__;!!t$",
            // a byte left over
            "https://urldefense.com/v3/__https://a.example/*__;PyY!!t$",
            // a run character outside the alphabet
            "https://urldefense.com/v3/__https://a.example/**.__;PyY!!t$",
            // no "__;"
            "https://urldefense.com/v3/__https://a.example/",
            // REPL is no base64url
            "https://urldefense.com/v3/__https://a.example/*__;P=Y!!t$",
        ] {
            assert_eq!(run(urldefense_v3, bad), Decoded::Malformed, "{bad}");
        }
    }

    #[test]
    fn v1_and_v2() {
        assert_eq!(
            run(urldefense_v1, "https://urldefense.proofpoint.com/v1/url?u=http://a.example/?x%3D1%26amp%3By%3D2&k=abc"),
            target("http://a.example/?x=1&y=2")
        );
        assert_eq!(
            run(urldefense_v2, "https://urldefense.proofpoint.com/v2/url?u=https-3A__a.example_p-5Fq_a-2Db-3Fx-3D1-26amp-3By-3D2&d=D"),
            target("https://a.example/p_q/a-b?x=1&y=2")
        );
        assert_eq!(
            run(urldefense_v2, "https://urldefense.com/v2/url?d=x"),
            Decoded::Malformed
        );
    }

    #[test]
    fn query_formats_keep_plus() {
        assert_eq!(
            run(safelinks, "https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fa.example%2Fa+b&data=1"),
            target("https://a.example/a+b")
        );
        assert_eq!(
            run(
                google,
                "https://www.google.com/url?q=&url=https%3A%2F%2Fa.example%2F"
            ),
            target("https://a.example/")
        );
        assert_eq!(
            run(google, "https://www.google.com/url?q=https://b.example/&url=https%3A%2F%2Fa.example%2F"),
            target("https://b.example/")
        );
        assert_eq!(
            run(google, "https://www.google.com/url?sa=t"),
            Decoded::Malformed
        );
    }

    #[test]
    fn path_formats() {
        assert_eq!(
            run(cisco, "https://secure-web.cisco.com/1AbC-dEf/https%3A%2F%2Fa.example%2Fx"),
            target("https://a.example/x")
        );
        assert_eq!(
            run(cisco, "https://secure-web.cisco.com/onlytoken"),
            Decoded::Malformed
        );
        assert_eq!(
            run(awstrack, "https://x.r.us-east-1.awstrack.me/L0/https:%2F%2Fa.example%2Fp%3Fq=1/1/0100-0000/abc=123"),
            target("https://a.example/p?q=1")
        );
        assert_eq!(
            run(amp, "https://a-example.cdn.ampproject.org/c/s/a.example/amp/x?y=1#z"),
            target("https://a.example/amp/x?y=1#z")
        );
        assert_eq!(
            run(amp, "https://a-example.cdn.ampproject.org/c/a.example/x"),
            target("http://a.example/x")
        );
    }

    #[test]
    fn sophos_base64() {
        // base64 of "https://a.example/" is aHR0cHM6Ly9hLmV4YW1wbGUv
        assert_eq!(
            run(sophos, "https://eu-central-1.protection.sophos.com?d=a.example&u=aHR0cHM6Ly9hLmV4YW1wbGUv&i=1"),
            target("https://a.example/")
        );
        assert_eq!(
            run(sophos, "https://us.protection.sophos.com/?u=%%%"),
            Decoded::Malformed
        );
    }

    #[test]
    fn mimecast_is_opaque() {
        assert_eq!(
            run(
                mimecast,
                "https://protect-eu.mimecast.com/s/AbC?domain=a.example"
            ),
            Decoded::Opaque(Some(b"a.example".to_vec()))
        );
        assert_eq!(
            run(mimecast, "https://protect-eu.mimecast.com/s/AbC"),
            Decoded::Opaque(None)
        );
    }
}
