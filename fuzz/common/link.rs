//! Invariants of link analysis (`urifind::link`), shared by the `link`
//! fuzz target and the property test `tests/link.rs`: for any URI,
//! unwrapping never panics, a target (as decoded) is never longer than
//! its wrapper, every target and embedded link validates, its URI form is
//! the mapping of its decoded form, and a finder with browser hosts
//! reports only URIs that validate or whose host a browser reads.
#![allow(dead_code)]

use urifind::grammar::{Grammar, Validator};
use urifind::iri::Iri;
use urifind::link::{Analyzer, Link, MAX_DEPTH};
use urifind::scan::Finder;

/// Wrapper starts the fuzzer may put in front of its bytes, so that every
/// decoder is reached without having to guess a host.
const PREFIXES: &[&str] = &[
    "",
    "https://eur01.safelinks.protection.outlook.com/?url=",
    "https://urldefense.proofpoint.com/v1/url?u=",
    "https://urldefense.proofpoint.com/v2/url?u=",
    "https://urldefense.com/v3/__",
    "https://www.google.com/url?q=",
    "https://l.facebook.com/l.php?u=",
    "https://secure-web.cisco.com/t/",
    "https://eu.protection.sophos.com/?u=",
    "https://a.r.us-east-1.awstrack.me/L0/",
    "https://a-example.cdn.ampproject.org/c/s/",
    "https://protect-eu.mimecast.com/s/",
    "https://login.example/?next=",
];

/// Byte 0: grammar (bits 0-1), browser hosts (bit 2), the prefix (bits
/// 4-7); the rest is the URI after the prefix.
pub fn check_link(data: &[u8]) {
    let Some((&opt, rest)) = data.split_first() else { return };
    let g = match opt & 3 {
        0 => Grammar::Rfc2396bis,
        1 => Grammar::Rfc2396,
        _ => Grammar::Rfc3986,
    };
    let browser = opt & 4 != 0;
    let prefix = PREFIXES[usize::from(opt >> 4) % PREFIXES.len()];
    let uri = [prefix.as_bytes(), rest].concat();
    check_uri(&uri, g, browser);
    // Whatever a finder with browser hosts reports, and its analysis.
    let f = Finder::builder().grammar(g).browser_hosts(true).build().unwrap();
    let v = Validator::new(g).absolute(true).scheme_rules(true);
    let an = f.link_analyzer();
    for m in f.find_iter(&uri) {
        let u = m.to_uri();
        let l = an.analyze(m.uri());
        assert!(
            v.is_valid(&u) || l.host_as_read.is_some(),
            "a browser-host match neither validates nor has a host as read: {:?}",
            String::from_utf8_lossy(m.uri())
        );
        check_uri(m.uri(), g, true);
    }
}

/// The invariants of one URI's analysis.
pub fn check_uri(uri: &[u8], g: Grammar, browser: bool) {
    let an = Analyzer::new().grammar(g).browser_hosts(browser);
    let as_uri = an.analyze(uri);
    let as_iri = an.iri(true).analyze(uri);
    shape(&as_uri);
    shape(&as_iri);
    assert_eq!(as_uri.wrappers, as_iri.wrappers);
    assert_eq!(as_uri.unwrap, as_iri.unwrap);
    assert_eq!(as_uri.target.is_some(), as_iri.target.is_some());
    assert_eq!(as_uri.embedded.len(), as_iri.embedded.len());
    let v = Validator::new(g).absolute(true).scheme_rules(true);
    let valid = |t: &str| {
        v.is_valid(t.as_bytes())
            || (browser && an.analyze(t.as_bytes()).host_as_read.is_some())
    };
    if let (Some(t), Some(ti)) = (&as_uri.target, &as_iri.target) {
        assert!(
            ti.len() <= uri.len(),
            "target longer than its wrapper: {ti:?}"
        );
        assert!(valid(t), "target does not validate: {t:?}");
        assert_eq!(&mapped(ti), t, "the URI form is the decoded form mapped");
    }
    for (e, ei) in as_uri.embedded.iter().zip(&as_iri.embedded) {
        assert!(ei.len() <= uri.len(), "embedded link longer than its URI");
        assert!(valid(e), "embedded link does not validate: {e:?}");
        assert_eq!(&mapped(ei), e);
    }
}

/// The URI form of a decoded target.
fn mapped(t: &str) -> String {
    if t.is_ascii() {
        return t.to_owned();
    }
    Iri::parse(t).expect("a decoded target is an IRI").to_uri().into_owned()
}

/// What every analysis holds to, whatever the URI.
fn shape(l: &Link) {
    assert!(l.wrappers.len() <= MAX_DEPTH);
    assert_eq!(l.unwrap.is_some(), !l.wrappers.is_empty());
    if l.wrappers.is_empty() {
        assert!(l.target.is_none() && l.target_host.is_none());
    }
}
