//! Link analysis as a whole: every format through `analyze`, spoofed
//! hosts, nested and malformed wrappers, non-ASCII targets, and a long
//! crafted input.

use super::*;

fn target(uri: &str) -> Option<String> {
    analyze(uri.as_bytes()).target
}

#[test]
fn every_format() {
    let cases = [
        ("https://nam12.safelinks.protection.outlook.com/ap/w-1/?url=https%3A%2F%2Fa.example%2F&data=x", Format::SafeLinks, "https://a.example/"),
        ("https://gcc02.safelinks.protection.office365.us/?url=https%3A%2F%2Fa.example%2F&data=x", Format::SafeLinks, "https://a.example/"),
        ("https://urldefense.proofpoint.com/v1/url?u=http://a.example/&k=1", Format::UrlDefenseV1, "http://a.example/"),
        ("https://urldefense.com/v2/url?u=http-3A__a.example_&d=1", Format::UrlDefenseV2, "http://a.example/"),
        ("https://urldefense.us/v3/__https://a.example/__;!!x$", Format::UrlDefenseV3, "https://a.example/"),
        ("https://www.google.co.uk/url?q=https://a.example/&sa=D", Format::Google, "https://a.example/"),
        ("https://lm.facebook.com/l.php?u=https%3A%2F%2Fa.example%2F", Format::Facebook, "https://a.example/"),
        ("https://linkprotect.cudasvc.com/url?a=https%3A%2F%2Fa.example%2F&c=E", Format::Barracuda, "https://a.example/"),
        ("https://imsva91-ctp.trendmicro.com/wis/clicktime/v1/query?url=https%3a%2f%2fa.example%2f&umid=1", Format::TrendMicro, "https://a.example/"),
        ("https://protect2.fireeye.com/v1/url?k=1&u=https%3A%2F%2Fa.example%2F", Format::FireEye, "https://a.example/"),
        ("https://slack-redir.net/link?url=https%3A%2F%2Fa.example%2F", Format::Slack, "https://a.example/"),
        ("https://youtube.com/redirect?q=https%3A%2F%2Fa.example%2F", Format::YouTube, "https://a.example/"),
        ("https://secure-web.cisco.com/1xYz/https%3A%2F%2Fa.example%2F", Format::Cisco, "https://a.example/"),
        ("https://eu.protection.sophos.com?d=a.example&u=aHR0cHM6Ly9hLmV4YW1wbGUv", Format::Sophos, "https://a.example/"),
        ("https://a.r.us-east-1.awstrack.me/L0/https:%2F%2Fa.example%2F/1/abc", Format::AwsTrack, "https://a.example/"),
        ("https://a-example.cdn.ampproject.org/c/s/a.example/", Format::Amp, "https://a.example/"),
    ];
    for (uri, format, want) in cases {
        let l = analyze(uri.as_bytes());
        assert_eq!(l.wrappers, [format], "{uri}");
        assert_eq!(l.unwrap, Some(Unwrap::Decoded), "{uri}");
        assert_eq!(l.target.as_deref(), Some(want), "{uri}");
        assert_eq!(l.target_host.as_deref(), Some("a.example"), "{uri}");
        assert_eq!(l.flags, [Flag::Wrapped], "{uri}");
    }
}

#[test]
fn spoofed_hosts_are_not_unwrapped() {
    for uri in [
        "https://urldefense.com.evil.example/v2/url?u=https-3A__bank.example_&d=x",
        "https://evil.example/urldefense.com/v2/url?u=https-3A__bank.example_",
        "https://urldefense.com@evil.example/v2/url?u=https-3A__bank.example_",
        "https://notsafelinks.protection.outlook.com/?url=https%3A%2F%2Fa.example%2F",
        "https://google.evil.example/url?q=https://a.example/",
        "https://www.google.com/search?q=https://a.example/",
    ] {
        let l = analyze(uri.as_bytes());
        assert!(l.wrappers.is_empty(), "{uri}");
        assert_eq!(l.target, None, "{uri}");
    }
    // The spoof's own query still carries an embedded link.
    let l = analyze(b"https://evil.example/eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fa.example%2F");
    assert_eq!(l.embedded, ["https://a.example/"]);
    assert_eq!(l.flags, [Flag::Embedded]);
}

#[test]
fn nested_wrappers() {
    let l = analyze(b"https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Furldefense.proofpoint.com%2Fv2%2Furl%3Fu%3Dhttps-3A__intranet.example.com_hr_%26d%3DDwMF&data=05");
    assert_eq!(l.wrappers, [Format::SafeLinks, Format::UrlDefenseV2]);
    assert_eq!(l.target.as_deref(), Some("https://intranet.example.com/hr/"));
    assert_eq!(l.unwrap, Some(Unwrap::Decoded));
    assert!(l.embedded.is_empty(), "a wrapper's target is no embedded link");

    // Six layers of Slack: five are unwrapped.
    let mut uri = String::from("https://end.example/");
    for _ in 0..6 {
        let enc: String = uri.bytes().map(|b| format!("%{b:02X}")).collect();
        uri = format!("https://slack-redir.net/link?url={enc}");
    }
    let l = analyze(uri.as_bytes());
    assert_eq!(l.unwrap, Some(Unwrap::TooDeep));
    assert_eq!(l.wrappers.len(), MAX_DEPTH);
    let last = l.target.unwrap();
    assert!(
        last.starts_with("https://slack-redir.net/link?url=%68%74%74%70"),
        "{last}"
    );

    // Safe Links around an opaque Mimecast link.
    let l = analyze(b"https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fprotect-us.mimecast.com%2Fs%2FAbC%3Fdomain%3Db.example&data=0");
    assert_eq!(l.wrappers, [Format::SafeLinks, Format::Mimecast]);
    assert_eq!(l.unwrap, Some(Unwrap::Opaque));
    assert_eq!(
        l.target.as_deref(),
        Some("https://protect-us.mimecast.com/s/AbC?domain=b.example")
    );
    assert_eq!(l.target_host.as_deref(), Some("b.example"));
}

#[test]
fn malformed_wrappers() {
    for uri in [
        "https://eur02.safelinks.protection.outlook.com/?url=not%20a%20link&data=x",
        "https://eur02.safelinks.protection.outlook.com/?data=x",
        "https://urldefense.com/v3/__https://a.example/*__;!!x$",
        "https://urldefense.proofpoint.com/v2/url?u=https-3A__a.example_-25zz&d=x",
        "https://secure-web.cisco.com/token",
        "https://l.facebook.com/l.php?u=http%3A%2F%2Fa%20b.example%2F",
        "https://l.facebook.com/l.php?u=http%3A%2F%2F256.1.1.1%2F",
    ] {
        let l = analyze(uri.as_bytes());
        assert_eq!(l.unwrap, Some(Unwrap::Malformed), "{uri}");
        assert_eq!(l.target, None, "{uri}");
        assert_eq!(l.wrappers.len(), 1, "{uri}");
    }
    // An inner malformed wrapper is the last target reached.
    let l = analyze(b"https://slack-redir.net/link?url=https%3A%2F%2Furldefense.com%2Fv3%2F__https%3A%2F%2Fa.example%2F*__%3B%21%21x%24");
    assert_eq!(l.wrappers, [Format::Slack, Format::UrlDefenseV3]);
    assert_eq!(l.unwrap, Some(Unwrap::Malformed));
    assert_eq!(
        l.target.as_deref(),
        Some("https://urldefense.com/v3/__https://a.example/*__;!!x$")
    );
}

#[test]
fn non_ascii_targets() {
    // URL Defense v3 carries UTF-8: "ü" (C3 BC) as "**A", base64url "w7w".
    let uri = "https://urldefense.com/v3/__https://b**Acher.example/m**A__;w7zDvA!!x$";
    assert_eq!(
        target(uri).as_deref(),
        Some("https://xn--bcher-kva.example/m%C3%BC")
    );
    let l = Analyzer::new().iri(true).analyze(uri.as_bytes());
    assert_eq!(l.target.as_deref(), Some("https://bücher.example/mü"));
    assert_eq!(l.target_host.as_deref(), Some("bücher.example"));
    // Bytes that are not UTF-8 make no target.
    assert_eq!(
        target(
            "https://slack-redir.net/link?url=https%3A%2F%2Fa.example%2F%FF"
        ),
        None
    );
}

#[test]
fn any_scheme_is_a_target() {
    // The grammar decides, not a list of schemes: an analyst wants to
    // see this one.
    let l = analyze(b"https://l.facebook.com/l.php?u=javascript%3Aalert(1)");
    assert_eq!(l.target.as_deref(), Some("javascript:alert(1)"));
    assert_eq!(l.target_host, None);
}

#[test]
fn www_targets_get_a_scheme() {
    assert_eq!(
        target("https://www.google.com/url?q=www.a.example/x&sa=D").as_deref(),
        Some("http://www.a.example/x")
    );
}

#[test]
fn plain_uris_have_nothing() {
    for uri in [
        "https://a.example/",
        "https://a.example/?q=1&b=words",
        "mailto:a@b.example",
        "urn:isbn:0451450523",
        "https://www.google.com/maps?hl=en",
    ] {
        assert!(analyze(uri.as_bytes()).is_empty(), "{uri}");
    }
}

#[test]
fn targets_never_longer_and_always_valid() {
    let v =
        Validator::new(Grammar::default()).absolute(true).scheme_rules(true);
    for uri in [
        "https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fa.example%2F&data=x",
        "https://urldefense.com/v3/__https://a.example/p*x=1*y=2__;PyY!!tok!sig$",
        "https://a-example.cdn.ampproject.org/c/s/a.example/",
        "https://eu.protection.sophos.com?u=aHR0cHM6Ly9hLmV4YW1wbGUv",
    ] {
        let t = target(uri).unwrap();
        assert!(t.len() <= uri.len(), "{uri}");
        assert!(v.is_valid(t.as_bytes()), "{uri}");
    }
}

#[test]
fn long_crafted_input_is_linear() {
    // A v3 body of 200 000 stars, a query of 100 000 parameters that
    // each look like a link: each pass is linear, so this is quick.
    let n = 200_000;
    let uri = format!(
        "https://urldefense.com/v3/__https://a.example/{}__;{}!!x$",
        "*".repeat(n),
        "PyY".repeat(n / 2 / 2)
    );
    let t = std::time::Instant::now();
    let l = analyze(uri.as_bytes());
    assert_eq!(l.unwrap, Some(Unwrap::Malformed));
    let q: String = (0..100_000).map(|_| "u=http%3A%2F%2F&").collect();
    let l = analyze(format!("https://a.example/?{q}").as_bytes());
    assert!(l.embedded.is_empty());
    assert!(
        t.elapsed() < std::time::Duration::from_secs(2),
        "{:?}",
        t.elapsed()
    );
}
