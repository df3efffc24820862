//! The fast answer for the common URI: one that cannot be a wrapper, has
//! no query and earns no flag gets an empty analysis from a look at its
//! bytes, before it is split into components. Anything this look cannot
//! settle goes to the full analysis; the answer is the same either way
//! (the unit tests hold the two equal on generated and crafted URIs).
//!
//! Which hosts may be wrappers is asked of the table of formats
//! ([`super::formats::may_wrap`]), so a new row is seen here too.

use super::formats;

/// Lowercase ASCII letters, digits, `.` and `-`.
static HOST_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_lowercase()
            || c.is_ascii_digit()
            || c == b'.'
            || c == b'-';
        b += 1;
    }
    t
};

/// Whether `uri` certainly has an empty analysis: it has no authority,
/// or it has no `?` at all, no userinfo, a port of digits if any, and a
/// host of lowercase ASCII letters, digits, dots and hyphens (no `--`,
/// so no `xn--` label) whose last label starts with a letter, and the
/// table of formats says no wrapper has that host.
///
/// `false` only means "ask the full analysis".
pub(crate) fn nothing_to_find(uri: &[u8]) -> bool {
    if memchr::memchr(b'?', uri).is_some() {
        return false;
    }
    // The scheme and the authority, as `Components::split` finds them.
    let mut rest = uri;
    if let Some(i) = uri.iter().position(|&b| matches!(b, b':' | b'/' | b'#'))
    {
        if i > 0 && uri[i] == b':' {
            rest = &uri[i + 1..];
        }
    }
    let Some(a) = rest.strip_prefix(b"//") else {
        // No authority: nothing to analyse.
        return true;
    };
    let mut k = 0;
    while k < a.len() && HOST_BYTE[usize::from(a[k])] {
        k += 1;
    }
    let host = &a[..k];
    if a.get(k) == Some(&b':') {
        k += 1;
        while k < a.len() && a[k].is_ascii_digit() {
            k += 1;
        }
    }
    if k < a.len() && !matches!(a[k], b'/' | b'#') {
        return false;
    }
    if let Some(h) = host.iter().position(|&b| b == b'-') {
        if host[h..].windows(2).any(|w| w == b"--") {
            return false;
        }
    }
    let name = host.strip_suffix(b".").unwrap_or(host);
    let last =
        &name[name.iter().rposition(|&b| b == b'.').map_or(0, |k| k + 1)..];
    last.first().is_some_and(u8::is_ascii_lowercase)
        && !formats::may_wrap(name)
}

#[cfg(test)]
mod tests {
    use super::super::Analyzer;
    use super::*;
    use proptest::prelude::*;

    /// The analyzers whose answers the fast one must give.
    fn analyzers() -> [Analyzer; 3] {
        let an = Analyzer::new();
        [an, an.browser_hosts(true), an.iri(true).browser_hosts(true)]
    }

    /// The fast answer, when given, is the full analysis's, and
    /// `analyze` is the full analysis.
    fn agrees(uri: &[u8]) -> Result<(), TestCaseError> {
        for an in analyzers() {
            let full = an.analyze_fully(uri);
            if nothing_to_find(uri) {
                prop_assert!(
                    full.is_empty(),
                    "{:?}: {full:?}",
                    String::from_utf8_lossy(uri)
                );
            }
            prop_assert_eq!(an.analyze(uri), full);
        }
        Ok(())
    }

    #[test]
    fn plain_uris_are_told_fast() {
        for u in [
            "http://www.example.com/",
            "https://a.example",
            "https://a-b.example.org:8080/p/q.html#top",
            "ftp://ftp.example.net/pub/",
            "http://www.example.com./x",
            "mailto:a@b.example",
            "urn:isbn:0451450523",
            "https://www.example.com/c/s/en/us/index.html",
            "https://www.outlook.com.example/",
            "https://mygoogle.com/url",
        ] {
            assert!(nothing_to_find(u.as_bytes()), "{u}");
            assert!(
                Analyzer::new().analyze_fully(u.as_bytes()).is_empty(),
                "{u}"
            );
        }
    }

    #[test]
    fn wrappers_and_flagged_hosts_are_not() {
        for u in [
            // Formats whose target is in the path.
            "https://secure-web.cisco.com/1xYz/https%3A%2F%2Fa.example%2F",
            "https://a.r.us-east-1.awstrack.me/L0/https:%2F%2Fa.example%2F/1/abc",
            "https://a-example.cdn.ampproject.org/c/s/a.example/",
            "https://urldefense.com/v3/__https://a.example/__;!!x$",
            "https://protect-eu.mimecast.com/s/abc",
            "https://url.uk.m.mimecastprotect.com/s/abc",
            "https://www.google.de/url",
            "https://eu.protection.sophos.com/",
            "https://imsva91-ctp.trendmicro.com/wis/clicktime/v1/query",
            // Flags.
            "http://user@a.example/",
            "http://192.0.2.1/",
            "http://2130706433/",
            "http://0x7f.1/",
            "http://[::1]/",
            "http://xn--bcher-kva.example/",
            "http://bücher.example/",
            "http://%77ww.example/",
            "http://A.EXAMPLE/",
            // A query.
            "https://a.example/?next=https%3A%2F%2Fb.example%2F",
        ] {
            assert!(!nothing_to_find(u.as_bytes()), "{u}");
        }
        let cisco =
            b"https://secure-web.cisco.com/1xYz/https%3A%2F%2Fa.example%2F";
        assert!(!Analyzer::new().analyze(cisco).is_empty());
    }

    /// Every host of the table, in any case and with a trailing dot,
    /// is one the table says may wrap.
    #[test]
    fn the_table_answers_for_its_own_hosts() {
        use super::super::formats::{may_wrap, HostRule, FORMATS};
        for rule in FORMATS.iter().flat_map(|r| r.hosts) {
            let hosts: Vec<String> = match *rule {
                HostRule::Is(h) | HostRule::EndsIn(h) => {
                    vec![h.into(), format!("a.{h}")]
                }
                HostRule::EndsInPart(h) => {
                    vec![h.into(), format!("x-{h}"), format!("a.{h}")]
                }
                HostRule::Google => {
                    vec!["google.com".into(), "www.google.co.uk".into()]
                }
                HostRule::MimecastRegion => {
                    vec!["protect-us.mimecast.com".into()]
                }
            };
            for h in hosts {
                assert!(may_wrap(h.as_bytes()), "{h}");
                for p in [
                    "/",
                    "/s/x",
                    "/c/s/a.example/",
                    "/v3/__https://a.example/__;!!x$",
                ] {
                    for host in
                        [h.clone(), format!("{h}."), h.to_ascii_uppercase()]
                    {
                        let u = format!("https://{host}{p}");
                        agrees(u.as_bytes()).unwrap();
                    }
                }
            }
        }
    }

    fn piece(
        options: &'static [&'static str],
    ) -> impl Strategy<Value = String> {
        proptest::sample::select(options).prop_map(str::to_owned)
    }

    proptest! {
        #[test]
        fn fast_equals_full_on_noise(uri in prop::collection::vec(any::<u8>(), 0..80)) {
            agrees(&uri)?;
        }

        #[test]
        fn fast_equals_full_on_near_plain_text(uri in "[a-zA-Z0-9:/?#@.%\\[\\]x-]{0,40}") {
            agrees(uri.as_bytes())?;
        }

        #[test]
        fn fast_equals_full_on_crafted_uris(
            scheme in piece(&["http://", "https://", "ftp://", "//", "mailto:", "x:", ""]),
            user in piece(&["", "", "u@", "a:b@"]),
            host in piece(&[
                "a.example", "www.example.com", "a-b.example.org", "example.com.",
                "urldefense.com", "urldefense.us", "urldefense.proofpoint.com",
                "secure-web.cisco.com", "x.cisco.com", "a.r.us-east-1.awstrack.me",
                "a-example.cdn.ampproject.org", "protect-eu.mimecast.com",
                "url.uk.m.mimecastprotect.com", "www.google.com", "google.co.uk",
                "nam12.safelinks.protection.outlook.com", "eu.protection.sophos.com",
                "imsva91-ctp.trendmicro.com", "slack-redir.net", "l.facebook.com",
                "192.0.2.1", "2130706433", "0x7f.1", "1.2.3.a", "a.1", "[::1]",
                "xn--bcher-kva.example", "a--b.example", "bücher.example",
                "%77ww.example", "A.Example", "a..b", ".", "", "-a.example",
                "www。example。com", "ａ.example",
            ]),
            port in piece(&["", "", ":80", ":", ":x", ":8:8"]),
            path in piece(&[
                "", "/", "/p/q.html", "/url", "/s/abc", "/c/s/a.example/",
                "/L0/https:%2F%2Fa.example%2F/1/abc",
                "/1xYz/https%3A%2F%2Fa.example%2F",
                "/v3/__https://a.example/p*x=1__;Pw!!tok!sig$", "/v2/url",
                "/link", "/l.php", "/redirect",
            ]),
            query in piece(&["", "", "?", "?q=x", "?url=https%3A%2F%2Fa.example%2F", "?u=http://b.example/"]),
            fragment in piece(&["", "", "#f", "#?x", "#a@b"]),
        ) {
            let u = format!("{scheme}{user}{host}{port}{path}{query}{fragment}");
            agrees(u.as_bytes())?;
        }
    }
}
