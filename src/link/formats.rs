//! The table of wrapping formats: each row says which hosts and paths
//! make a URI a wrapper of that format, and which decoder recovers its
//! target (the decoders live in `decoders`).
//!
//! Hosts are compared on the parsed authority of the URI (after any
//! `userinfo@`, before any port), ignoring case and one trailing dot,
//! as a whole host or as a suffix that starts at a label boundary; never
//! as a substring of the URI's text. Adding a format is one row here and
//! one function in `decoders`.

use super::decoders::{self, Decoded};
use super::parts::Parts;
use super::Format;

/// Which hosts a format uses.
#[derive(Clone, Copy, Debug)]
pub(crate) enum HostRule {
    /// Exactly this host.
    Is(&'static str),
    /// This host or one that ends in `.` and it.
    EndsIn(&'static str),
    /// A host that ends in it after `.` or `-` (`imsva91-ctp.` in front
    /// of `trendmicro.com`): the rest is still the vendor's domain.
    EndsInPart(&'static str),
    /// `google.` or `www.google.` followed by a public suffix (`com`,
    /// `co.uk`, `de`, ...), by the Public Suffix List.
    Google,
    /// `protect-LABEL.mimecast.com`.
    MimecastRegion,
}

/// Which paths a format uses.
#[derive(Clone, Copy, Debug)]
pub(crate) enum PathRule {
    /// Exactly this path.
    Is(&'static str),
    /// A path that starts with this.
    Prefix(&'static str),
    /// The empty path or `/`.
    Root,
}

/// One format: hosts, paths, decoder.
pub(crate) struct Row {
    pub(crate) format: Format,
    pub(crate) hosts: &'static [HostRule],
    pub(crate) paths: &'static [PathRule],
    pub(crate) decode: fn(&Parts<'_>) -> Decoded,
}

use HostRule::{EndsIn, EndsInPart, Google, Is, MimecastRegion};
use PathRule::{Prefix, Root};

/// The formats, in the order they are tried (no two rows share a host
/// and a path).
pub(crate) static FORMATS: &[Row] = &[
    Row {
        format: Format::SafeLinks,
        hosts: &[
            EndsIn("safelinks.protection.outlook.com"),
            EndsIn("safelinks.protection.office365.us"),
        ],
        paths: &[Root, Prefix("/ap/")],
        decode: decoders::safelinks,
    },
    Row {
        format: Format::UrlDefenseV1,
        hosts: &[Is("urldefense.proofpoint.com")],
        paths: &[PathRule::Is("/v1/url")],
        decode: decoders::urldefense_v1,
    },
    Row {
        format: Format::UrlDefenseV2,
        hosts: &[Is("urldefense.proofpoint.com"), Is("urldefense.com")],
        paths: &[PathRule::Is("/v2/url")],
        decode: decoders::urldefense_v2,
    },
    Row {
        format: Format::UrlDefenseV3,
        hosts: &[
            Is("urldefense.com"),
            Is("urldefense.us"),
            Is("urldefense.proofpoint.com"),
        ],
        paths: &[Prefix("/v3/__")],
        decode: decoders::urldefense_v3,
    },
    Row {
        format: Format::Google,
        hosts: &[Google],
        paths: &[PathRule::Is("/url")],
        decode: decoders::google,
    },
    Row {
        format: Format::Facebook,
        hosts: &[Is("l.facebook.com"), Is("lm.facebook.com")],
        paths: &[PathRule::Is("/l.php")],
        decode: decoders::facebook,
    },
    Row {
        format: Format::Barracuda,
        hosts: &[Is("linkprotect.cudasvc.com")],
        paths: &[PathRule::Is("/url")],
        decode: decoders::barracuda,
    },
    Row {
        format: Format::TrendMicro,
        hosts: &[EndsInPart("ctp.trendmicro.com")],
        paths: &[
            PathRule::Is("/wis/clicktime/v1/query"),
            PathRule::Is("/wis/clicktime/v2/clickthrough"),
        ],
        decode: decoders::trendmicro,
    },
    Row {
        format: Format::FireEye,
        hosts: &[Is("protect2.fireeye.com")],
        paths: &[PathRule::Is("/v1/url")],
        decode: decoders::fireeye,
    },
    Row {
        format: Format::Slack,
        hosts: &[Is("slack-redir.net")],
        paths: &[PathRule::Is("/link")],
        decode: decoders::slack,
    },
    Row {
        format: Format::YouTube,
        hosts: &[Is("www.youtube.com"), Is("youtube.com")],
        paths: &[PathRule::Is("/redirect")],
        decode: decoders::youtube,
    },
    Row {
        format: Format::Cisco,
        hosts: &[Is("secure-web.cisco.com")],
        paths: &[Prefix("/")],
        decode: decoders::cisco,
    },
    Row {
        format: Format::Sophos,
        hosts: &[EndsIn("protection.sophos.com")],
        paths: &[Root],
        decode: decoders::sophos,
    },
    Row {
        format: Format::AwsTrack,
        hosts: &[EndsIn("awstrack.me")],
        paths: &[Prefix("/L0/")],
        decode: decoders::awstrack,
    },
    Row {
        format: Format::Amp,
        hosts: &[EndsIn("cdn.ampproject.org")],
        paths: &[Prefix("/c/")],
        decode: decoders::amp,
    },
    Row {
        format: Format::Mimecast,
        hosts: &[MimecastRegion, EndsIn("mimecastprotect.com")],
        paths: &[Prefix("/s/")],
        decode: decoders::mimecast,
    },
];

/// Whether `host` is `suffix` or ends in `.suffix` (ASCII case ignored).
pub(crate) fn ends_in(host: &[u8], suffix: &[u8]) -> bool {
    let (h, s) = (host.len(), suffix.len());
    h >= s
        && host[h - s..].eq_ignore_ascii_case(suffix)
        && (h == s || host[h - s - 1] == b'.')
}

/// Whether `s` starts with `prefix` (ASCII case ignored).
fn starts_ci(s: &[u8], prefix: &[u8]) -> bool {
    s.len() >= prefix.len() && s[..prefix.len()].eq_ignore_ascii_case(prefix)
}

impl HostRule {
    fn matches(self, host: &[u8]) -> bool {
        match self {
            Is(h) => host.eq_ignore_ascii_case(h.as_bytes()),
            EndsIn(s) => ends_in(host, s.as_bytes()),
            EndsInPart(s) => {
                let (h, n) = (host.len(), s.len());
                ends_in(host, s.as_bytes())
                    || (h > n
                        && host[h - n..].eq_ignore_ascii_case(s.as_bytes())
                        && host[h - n - 1] == b'-')
            }
            Google => google(host),
            MimecastRegion => {
                let (pre, suf) = (&b"protect-"[..], &b".mimecast.com"[..]);
                host.len() > pre.len() + suf.len()
                    && starts_ci(host, pre)
                    && ends_in(host, &suf[1..])
                    && !host[pre.len()..host.len() - suf.len()].contains(&b'.')
            }
        }
    }
}

/// `google.SUFFIX` or `www.google.SUFFIX` where SUFFIX is a public
/// suffix as a whole.
fn google(host: &[u8]) -> bool {
    let rest = if starts_ci(host, b"www.") { &host[4..] } else { host };
    if !starts_ci(rest, b"google.") {
        return false;
    }
    let suffix = rest[7..].to_ascii_lowercase();
    psl::suffix(&suffix)
        .is_some_and(|s| s.is_known() && s.as_bytes().len() == suffix.len())
}

impl PathRule {
    fn matches(self, path: &[u8]) -> bool {
        match self {
            PathRule::Is(p) => path == p.as_bytes(),
            Prefix(p) => path.starts_with(p.as_bytes()),
            Root => path.is_empty() || path == b"/",
        }
    }
}

/// What every host a rule matches has, for a quick "certainly not":
/// a tail (a suffix that starts at a label boundary), or one of a few
/// starts.
enum Need {
    Tail(&'static str),
    Starts(&'static [&'static str]),
}

impl HostRule {
    fn need(self) -> Need {
        match self {
            Is(h) => Need::Tail(h),
            EndsIn(s) => Need::Tail(s),
            // The match may begin inside the first label, never later.
            EndsInPart(s) => Need::Tail(s.split_once('.').map_or("", |x| x.1)),
            Google => Need::Starts(&["google.", "www.google."]),
            MimecastRegion => Need::Tail("mimecast.com"),
        }
    }
}

/// The last `n` labels of `host` (all of it when it has fewer).
fn last_labels(host: &[u8], n: usize) -> &[u8] {
    let mut at = host.len();
    for _ in 0..n {
        match host[..at].iter().rposition(|&b| b == b'.') {
            Some(k) => at = k,
            None => return host,
        }
    }
    &host[at + 1..]
}

/// What the table's hosts need, gathered once: the last two labels of
/// every tail (each behind its [`print`]), and the starts.
struct Needs {
    tails: Vec<(u32, Vec<u8>)>,
    /// One bit per tail's print ([`bit`]): most hosts leave here.
    mask: u64,
    starts: Vec<&'static [u8]>,
    /// A rule whose tail has fewer than two labels: any host may match.
    any: bool,
}

fn needs() -> &'static Needs {
    static NEEDS: std::sync::OnceLock<Needs> = std::sync::OnceLock::new();
    NEEDS.get_or_init(|| {
        let mut n = Needs {
            tails: Vec::new(),
            mask: 0,
            starts: Vec::new(),
            any: false,
        };
        for rule in FORMATS.iter().flat_map(|r| r.hosts) {
            match rule.need() {
                Need::Tail(t) if t.matches('.').count() >= 1 => {
                    let t = t.to_ascii_lowercase().into_bytes();
                    let key = last_labels(&t, 2);
                    n.mask |= bit(print(key));
                    n.tails.push((print(key), key.to_vec()));
                }
                Need::Tail(_) => n.any = true,
                Need::Starts(s) => {
                    n.starts.extend(s.iter().map(|s| s.as_bytes()));
                }
            }
        }
        n.tails.sort();
        n.tails.dedup();
        n
    })
}

/// A few bits of `key` (length, first and last byte) that tell most
/// unequal keys apart in one comparison.
fn print(key: &[u8]) -> u32 {
    let (first, last) = (key.first().copied(), key.last().copied());
    (key.len() as u32) << 16
        | u32::from(first.unwrap_or(0)) << 8
        | u32::from(last.unwrap_or(0))
}

/// The bit of a print in [`Needs::mask`].
fn bit(print: u32) -> u64 {
    1 << (print.wrapping_mul(0x9E37_79B1) >> 26)
}

/// Whether a host of lowercase ASCII, without a trailing dot, may be one
/// of the table's (`false`: it is none). The quick answer of the table
/// for URIs that cannot be wrappers (`super::plain`).
pub(crate) fn may_wrap(host: &[u8]) -> bool {
    let n = needs();
    let key = last_labels(host, 2);
    let p = print(key);
    n.any
        || (n.mask & bit(p) != 0
            && n.tails.iter().any(|(q, t)| *q == p && t[..] == *key))
        || n.starts
            .iter()
            .any(|s| host.first() == s.first() && host.starts_with(s))
}

/// The row whose host and path `p` has, if any.
pub(crate) fn find(p: &Parts<'_>) -> Option<&'static Row> {
    // Every host of the table has a dot and a letter: most URIs leave
    // after one look at their last byte.
    if p.host.is_empty() || !p.host[p.host.len() - 1].is_ascii_alphabetic() {
        return None;
    }
    FORMATS.iter().find(|r| {
        r.hosts.iter().any(|h| h.matches(p.host))
            && r.paths.iter().any(|x| x.matches(p.path))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn format(uri: &str) -> Option<Format> {
        find(&Parts::of(uri.as_bytes())?).map(|r| r.format)
    }

    #[test]
    fn hosts_on_the_authority() {
        assert_eq!(
            format("https://EUR01.SafeLinks.Protection.Outlook.com/?url=x"),
            Some(Format::SafeLinks)
        );
        assert_eq!(
            format("https://safelinks.protection.outlook.com./?url=x"),
            Some(Format::SafeLinks)
        );
        assert_eq!(
            format("https://xsafelinks.protection.outlook.com/?url=x"),
            None
        );
        assert_eq!(
            format("https://urldefense.com.evil.example/v2/url?u=x"),
            None
        );
        assert_eq!(
            format("https://evil.example/urldefense.com/v2/url?u=x"),
            None
        );
        assert_eq!(
            format("https://urldefense.com@evil.example/v2/url?u=x"),
            None
        );
        assert_eq!(
            format("https://u@urldefense.com:443/v2/url?u=x"),
            Some(Format::UrlDefenseV2)
        );
    }

    #[test]
    fn google_and_public_suffixes() {
        assert_eq!(
            format("https://www.google.com/url?q=x"),
            Some(Format::Google)
        );
        assert_eq!(
            format("https://google.co.uk/url?q=x"),
            Some(Format::Google)
        );
        assert_eq!(
            format("https://www.google.com.au/url?q=x"),
            Some(Format::Google)
        );
        assert_eq!(format("https://google.de/url?q=x"), Some(Format::Google));
        assert_eq!(format("https://google.evil.example/url?q=x"), None);
        assert_eq!(format("https://mail.google.com/url?q=x"), None);
        assert_eq!(format("https://www.google.com/search?q=x"), None);
    }

    #[test]
    fn trend_micro_hosts() {
        for h in [
            "ctp.trendmicro.com",
            "imsva91-ctp.trendmicro.com",
            "eu.ctp.trendmicro.com",
        ] {
            let uri = format!("https://{h}:443/wis/clicktime/v1/query?url=x");
            assert_eq!(format(&uri), Some(Format::TrendMicro), "{h}");
        }
        for h in ["xctp.trendmicro.com", "ctp.trendmicro.com.evil.example"] {
            let uri = format!("https://{h}/wis/clicktime/v1/query?url=x");
            assert_eq!(format(&uri), None, "{h}");
        }
    }

    #[test]
    fn mimecast_regions() {
        assert_eq!(
            format("https://protect-eu.mimecast.com/s/abc"),
            Some(Format::Mimecast)
        );
        assert_eq!(format("https://protect-.mimecast.com/s/abc"), None);
        assert_eq!(format("https://protect-a.b.mimecast.com/s/abc"), None);
        assert_eq!(
            format("https://url.uk.m.mimecastprotect.com/s/abc"),
            Some(Format::Mimecast)
        );
    }
}
