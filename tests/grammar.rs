//! The strict validator against labeled corpora (corpora/grammar/*.txt),
//! plus property tests.
//!
//! Corpus line format, tab-separated:
//!
//! ```text
//! GRAMMARS <TAB> EXPECT <TAB> URI [<TAB> "MESSAGE"] [<TAB> # comment]
//! ```
//!
//! * GRAMMARS: `*` or a comma list of `bis`, `2396`, `3986`, then any of
//!   `+abs` (absolute-URI) and `+rules` (scheme rules);
//! * EXPECT: `valid`, `valid:server` (authority parsed as a server: host
//!   filled), `valid:regname` (authority only a reg-name: host `None`),
//!   `invalid`, `invalid:OFFSET` or `invalid:OFFSET:PART` with PART one of
//!   scheme, authority, path, query, fragment;
//! * URI: the bytes, with `\xHH` and `\\` escapes;
//! * MESSAGE: the exact message expected.
//!
//! Blank lines and lines starting with `#` are ignored.

use proptest::prelude::*;
use urifind::grammar::{schemes, Grammar, Part, Validator};
use urifind::uri::Components;

const GRAMMARS: [Grammar; 3] =
    [Grammar::Rfc2396bis, Grammar::Rfc2396, Grammar::Rfc3986];

fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() && b[i + 1] == b'\\' {
            out.push(b'\\');
            i += 2;
        } else if b[i] == b'\\' && i + 3 < b.len() && b[i + 1] == b'x' {
            let h = std::str::from_utf8(&b[i + 2..i + 4]).unwrap();
            out.push(u8::from_str_radix(h, 16).expect("bad \\x escape"));
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

/// Checks every line of one corpus file; returns the failures and the
/// number of (line, grammar) checks made.
fn run_corpus(name: &str, text: &str) -> (Vec<String>, usize) {
    let mut fails = Vec::new();
    let mut checks = 0;
    for (no, line) in text.lines().enumerate() {
        let no = no + 1;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 3 {
            fails.push(format!("{name}:{no}: malformed line"));
            continue;
        }
        let mut spec = f[0].split('+');
        let list = spec.next().unwrap();
        let mods: Vec<&str> = spec.collect();
        let grammars: Vec<Grammar> = if list == "*" {
            GRAMMARS.to_vec()
        } else {
            list.split(',')
                .map(|g| match g {
                    "bis" => Grammar::Rfc2396bis,
                    "2396" => Grammar::Rfc2396,
                    "3986" => Grammar::Rfc3986,
                    _ => panic!("{name}:{no}: unknown grammar {g}"),
                })
                .collect()
        };
        let uri = unescape(f[2]);
        let message = f[3..]
            .iter()
            .find(|x| x.starts_with('"'))
            .map(|x| x.trim_matches('"'));
        let mut exp = f[1].split(':');
        let verdict = exp.next().unwrap();
        let arg1 = exp.next();
        let arg2 = exp.next();
        for g in grammars {
            checks += 1;
            let v = Validator::new(g)
                .absolute(mods.contains(&"abs"))
                .scheme_rules(mods.contains(&"rules"));
            let got = v.validate(&uri);
            let here = format!("{name}:{no}: [{}] {:?}", g.name(), f[2]);
            match (verdict, got) {
                ("valid", Ok(c)) => match arg1 {
                    Some("server") if c.host.is_none() => {
                        fails.push(format!("{here}: expected a server"))
                    }
                    Some("regname") if c.host.is_some() => {
                        fails.push(format!("{here}: expected a reg-name"))
                    }
                    _ => {}
                },
                ("valid", Err(e)) => fails.push(format!(
                    "{here}: expected valid, got error at {} ({}): {}",
                    e.offset(),
                    e.part().name(),
                    e.message()
                )),
                ("invalid", Ok(_)) => {
                    fails.push(format!("{here}: expected invalid, got valid"))
                }
                ("invalid", Err(e)) => {
                    let mut wrong = Vec::new();
                    if let Some(o) = arg1 {
                        if o.parse::<usize>().unwrap() != e.offset() {
                            wrong.push(format!("offset {}", e.offset()));
                        }
                    }
                    if let Some(p) = arg2 {
                        if p != e.part().name() {
                            wrong.push(format!("part {}", e.part().name()));
                        }
                    }
                    if let Some(m) = message {
                        if m != e.message() {
                            wrong.push(format!("message {:?}", e.message()));
                        }
                    }
                    if !wrong.is_empty() {
                        fails.push(format!(
                            "{here}: got {} (message {:?})",
                            wrong.join(", "),
                            e.message()
                        ));
                    }
                }
                _ => panic!("{name}:{no}: bad expectation {}", f[1]),
            }
        }
    }
    (fails, checks)
}

fn check_file(name: &str, text: &str, min_checks: usize) {
    let (fails, checks) = run_corpus(name, text);
    assert!(
        fails.is_empty(),
        "{} of {checks} checks failed:\n{}",
        fails.len(),
        fails.join("\n")
    );
    assert!(checks >= min_checks, "{name}: only {checks} checks");
}

#[test]
fn draft_examples() {
    let text = include_str!("../corpora/grammar/draft-examples.txt");
    check_file("draft-examples.txt", text, 100);
}

#[test]
fn edge_cases() {
    let text = include_str!("../corpora/grammar/edge-cases.txt");
    check_file("edge-cases.txt", text, 850);
}

#[test]
fn ipv6_literals() {
    let text = include_str!("../corpora/grammar/ipv6.txt");
    check_file("ipv6.txt", text, 100);
}

#[test]
fn scheme_rules() {
    let text = include_str!("../corpora/grammar/scheme-rules.txt");
    check_file("scheme-rules.txt", text, 100);
}

/// The benchmark's list: every line is valid rfc2396bis; the counts in
/// the other grammars are pinned so the benchmark's assertions mean
/// something.
#[test]
fn realworld_counts() {
    let text = include_str!("../corpora/grammar/realworld.txt");
    let uris: Vec<&[u8]> = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.as_bytes())
        .collect();
    assert!(uris.len() >= 300, "only {} URIs", uris.len());
    for g in GRAMMARS {
        let v = Validator::new(g);
        let n = uris.iter().filter(|u| v.validate(u).is_ok()).count();
        let bad: Vec<_> = uris
            .iter()
            .filter(|u| v.validate(u).is_err())
            .map(|u| String::from_utf8_lossy(u))
            .collect();
        let expected = match g {
            Grammar::Rfc2396bis => uris.len(),
            // RFC 2396 has no brackets (10 IPv6 literals, 2 opaque parts)
            // and no empty hier-part (about:, DAV:)
            Grammar::Rfc2396 => uris.len() - 14,
            // '[' ']' in opaque parts are rfc2396bis only
            Grammar::Rfc3986 => uris.len() - 2,
            _ => panic!("no expectation for {}", g.name()),
        };
        assert_eq!(n, expected, "{}: invalid ones: {bad:?}", g.name());
    }
}

#[test]
fn registry_is_sorted_lower_case_and_complete() {
    let r = schemes::REGISTERED;
    assert!(r.len() > 350, "{}", r.len());
    for w in r.windows(2) {
        assert!(w[0] < w[1], "not sorted: {} {}", w[0], w[1]);
    }
    for s in r {
        assert_eq!(s.to_ascii_lowercase(), *s);
        assert!(schemes::is_registered(s.as_bytes()), "{s}");
        assert!(schemes::is_registered(s.to_ascii_uppercase().as_bytes()));
        // every registered name is a valid scheme in every grammar
        let uri = format!("{s}:x");
        for g in GRAMMARS {
            let c = Validator::new(g).validate(uri.as_bytes()).unwrap();
            assert_eq!(c.scheme, Some(s.as_bytes()));
        }
    }
    for s in ["http", "https", "mailto", "urn", "z39.50s", "web+ap", "shttp"] {
        assert!(schemes::is_registered(s.as_bytes()), "{s}");
    }
    for s in ["", "note", "javascript", "x", "httpx", "http:", "HTTP "] {
        assert!(!schemes::is_registered(s.as_bytes()), "{s}");
    }
    // longer than any name: never registered, never a panic
    assert!(!schemes::is_registered(&[b'a'; 200]));
    // every IP-based scheme of docs/CONTRACT.md is registered
    for s in [
        "http", "https", "shttp", "ftp", "sftp", "ssh", "telnet", "gopher",
        "wais", "nntp", "prospero", "ws", "wss", "imap", "pop", "ldap",
        "ldaps", "rtsp", "rtsps", "irc", "ircs", "git", "svn", "rsync",
    ] {
        assert!(schemes::is_ip_based(s.as_bytes()), "{s}");
        assert!(schemes::is_registered(s.as_bytes()), "{s}");
    }
    assert!(!schemes::REGISTRY_DATE.is_empty());
}

/// is_ip_based is docs/CONTRACT.md section 2's list, any case, nothing more.
#[test]
fn ip_based_is_exactly_the_spec_list() {
    const SPEC: [&str; 26] = [
        "http", "https", "shttp", "ftp", "ftps", "sftp", "ssh", "telnet",
        "gopher", "wais", "nntp", "prospero", "ws", "wss", "imap", "imaps",
        "pop", "ldap", "ldaps", "rtsp", "rtsps", "irc", "ircs", "git", "svn",
        "rsync",
    ];
    let mut names: Vec<Vec<u8>> =
        schemes::REGISTERED.iter().map(|s| s.as_bytes().to_vec()).collect();
    for s in SPEC {
        names.push(s.to_ascii_uppercase().into_bytes());
        names.push(format!("{s}x").into_bytes());
        names.push(s.as_bytes()[1..].to_vec());
    }
    // bytes that fold onto letters under `| 0x20` only if they are letters
    names.push(b"HTTP".to_vec());
    names.push(b"\x08ttp".to_vec());
    names.push(b"h\x14tp".to_vec());
    names.push(b"".to_vec());
    names.push(b"prosperos".to_vec());
    for n in names {
        let want = SPEC.iter().any(|s| s.as_bytes().eq_ignore_ascii_case(&n));
        assert_eq!(schemes::is_ip_based(&n), want, "{n:?}");
    }
}

#[test]
fn components_follow_appendix_b() {
    let v = Validator::new(Grammar::Rfc2396bis);
    let c =
        v.validate(b"http://www.ics.uci.edu/pub/ietf/uri/#Related").unwrap();
    assert_eq!(c.scheme, Some(&b"http"[..]));
    assert_eq!(c.authority, Some(&b"www.ics.uci.edu"[..]));
    assert_eq!(c.host, Some(&b"www.ics.uci.edu"[..]));
    assert_eq!(c.path, b"/pub/ietf/uri/");
    assert_eq!(c.query, None);
    assert_eq!(c.fragment, Some(&b"Related"[..]));
    // empty versus undefined
    let c = v.validate(b"http://a/?#").unwrap();
    assert_eq!(c.query, Some(&b""[..]));
    assert_eq!(c.fragment, Some(&b""[..]));
    let c = v.validate(b"file:///etc").unwrap();
    assert_eq!(c.authority, Some(&b""[..]));
    assert_eq!(c.host, Some(&b""[..]));
    assert_eq!(c.port, None);
    // opaque part: Appendix B still splits at '?'
    let c = v.validate(b"mailto:a@b?subject=x#f").unwrap();
    assert_eq!(c.path, b"a@b");
    assert_eq!(c.query, Some(&b"subject=x"[..]));
    assert_eq!(c.authority, None);
    // server vs reg-name
    let c = v.validate(b"ftp://u:p@h.example:21/").unwrap();
    assert_eq!(c.userinfo, Some(&b"u:p"[..]));
    assert_eq!(c.host, Some(&b"h.example"[..]));
    assert_eq!(c.port, Some(&b"21"[..]));
    let c = v.validate(b"http://a:b:c/").unwrap();
    assert_eq!((c.userinfo, c.host, c.port), (None, None, None));
    // under RFC 3986 every authority is [userinfo@]host[:port]
    let v = Validator::new(Grammar::Rfc3986);
    let c = v.validate(b"http://256.256.256.256:8/").unwrap();
    assert_eq!(c.host, Some(&b"256.256.256.256"[..]));
    assert_eq!(c.port, Some(&b"8"[..]));
    // the scheme rules fill host even where the grammar saw a reg-name
    let v = Validator::new(Grammar::Rfc2396bis).scheme_rules(true);
    let c = v.validate(b"http://localhost./x").unwrap();
    assert_eq!(c.host, Some(&b"localhost."[..]));
    let c = v.validate(b"https://u:p@a.example:8443/x").unwrap();
    assert_eq!(c.userinfo, Some(&b"u:p"[..]));
    assert_eq!(c.host, Some(&b"a.example"[..]));
    assert_eq!(c.port, Some(&b"8443"[..]));
    // and leave the reg-name of a scheme that is not IP-based alone
    let c = v.validate(b"foo://a_b:c/").unwrap();
    assert_eq!((c.userinfo, c.host, c.port), (None, None, None));
}

#[test]
fn messages_are_formatted_on_demand() {
    let v = Validator::default();
    let e = v.validate(b"http://a/b c").unwrap_err();
    assert_eq!(e.message(), "a space is not allowed in a path");
    assert_eq!(e.to_string(), e.message());
    let e = v.validate(b"http://a/\xc3\xa9").unwrap_err();
    assert_eq!(
        e.message(),
        "non-ASCII byte 0xc3 is not allowed in a path (percent-encode it)"
    );
    let e = v.validate(b"a\nb").unwrap_err();
    assert_eq!(e.message(), "control byte 0x0a is not allowed in a path");
    let e = v
        .scheme_rules(true)
        .validate(b"http://1.2.3.99999999999999999999999/");
    assert_eq!(
        e.unwrap_err().message(),
        "octet is out of range in IPv4 address"
    );
}

/// What re-assembling the components gives (Section 5.2's recomposition).
fn assemble(c: &Components<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    if let Some(s) = c.scheme {
        out.extend_from_slice(s);
        out.push(b':');
    }
    if let Some(a) = c.authority {
        out.extend_from_slice(b"//");
        out.extend_from_slice(a);
    }
    out.extend_from_slice(c.path);
    if let Some(q) = c.query {
        out.push(b'?');
        out.extend_from_slice(q);
    }
    if let Some(f) = c.fragment {
        out.push(b'#');
        out.extend_from_slice(f);
    }
    out
}

fn check_accepted(s: &[u8], c: &Components<'_>) {
    assert_eq!(assemble(c), s);
    // server components re-assemble to the authority
    if let Some(h) = c.host {
        let mut a = Vec::new();
        if let Some(u) = c.userinfo {
            a.extend_from_slice(u);
            a.push(b'@');
        }
        a.extend_from_slice(h);
        if let Some(p) = c.port {
            a.push(b':');
            a.extend_from_slice(p);
        }
        assert_eq!(Some(&a[..]), c.authority);
    } else {
        assert_eq!((c.userinfo, c.port), (None, None));
    }
    // and the five components are Appendix B's
    let b = Components::split(s);
    assert_eq!(
        (c.scheme, c.authority, c.path, c.query, c.fragment),
        (b.scheme, b.authority, b.path, b.query, b.fragment)
    );
}

/// Bytes that make up URIs and their faults, weighted towards the
/// interesting ones.
fn uri_bytes() -> impl Strategy<Value = Vec<u8>> {
    let alphabet: Vec<u8> =
        b"aZ09:/?#[]@%.-_~!$&'()*+,;=vF1 <\"\\^`{|}\x00\x7f\xc3".to_vec();
    let byte = prop_oneof![
        8 => proptest::sample::select(alphabet),
        1 => any::<u8>(),
    ];
    let frag = prop_oneof![
        Just(b"http://".to_vec()),
        Just(b"[::1]".to_vec()),
        Just(b"1.2.3.4".to_vec()),
        Just(b"%41".to_vec()),
        Just(b"a.b".to_vec()),
        proptest::collection::vec(byte, 0..6),
    ];
    proptest::collection::vec(frag, 0..8).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn no_panic_and_components_reassemble(s in uri_bytes()) {
        for g in GRAMMARS {
            for (abs, rules) in [(false, false), (true, false), (false, true)] {
                let v = Validator::new(g).absolute(abs).scheme_rules(rules);
                match v.validate(&s) {
                    Ok(c) => {
                        check_accepted(&s, &c);
                        if abs {
                            prop_assert!(c.scheme.is_some());
                        }
                    }
                    Err(e) => {
                        prop_assert!(e.offset() <= s.len());
                        prop_assert!(!e.message().is_empty());
                    }
                }
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(s in proptest::collection::vec(any::<u8>(), 0..64)) {
        for g in GRAMMARS {
            if let Ok(c) = Validator::new(g).scheme_rules(true).validate(&s) {
                check_accepted(&s, &c);
            }
        }
    }

    /// The same contract on any input, without the scheme rules: a fault
    /// in the path, query or fragment leaves a valid prefix, except that
    /// RFC 2396 refuses `scheme:` alone.
    #[test]
    fn prefix_before_any_late_fault_is_valid(s in uri_bytes()) {
        for g in GRAMMARS {
            for abs in [false, true] {
                let v = Validator::new(g).absolute(abs);
                let Err(e) = v.validate(&s) else { continue };
                if !matches!(e.part(), Part::Path | Part::Query | Part::Fragment) {
                    continue;
                }
                let p = &s[..e.offset()];
                let bare_scheme = p.last() == Some(&b':')
                    && Components::split(p).scheme.map(|x| x.len() + 1)
                        == Some(p.len());
                if g == Grammar::Rfc2396 && bare_scheme {
                    continue;
                }
                prop_assert!(
                    v.validate(p).is_ok(),
                    "{}: prefix {:?} of {:?} ({})",
                    g.name(),
                    String::from_utf8_lossy(p),
                    String::from_utf8_lossy(&s),
                    e
                );
            }
        }
    }

    /// RFC 3986 mode agrees with fluent-uri, an independent strict RFC 3986
    /// parser, on what is a URI reference.
    #[test]
    fn rfc3986_agrees_with_fluent_uri(s in uri_bytes()) {
        let ours = Validator::new(Grammar::Rfc3986).validate(&s);
        let theirs = std::str::from_utf8(&s)
            .is_ok_and(|t| fluent_uri::UriRef::<&str>::parse(t).is_ok());
        prop_assert_eq!(
            ours.is_ok(),
            theirs,
            "{:?}: ours {:?}",
            String::from_utf8_lossy(&s),
            ours.err().map(|e| e.to_string())
        );
    }

    /// The same on authorities made of the bytes IPv4 and IPv6 literals,
    /// ports and userinfo are made of.
    #[test]
    fn rfc3986_authorities_agree_with_fluent_uri(
        a in proptest::collection::vec(
            proptest::sample::select(b"0123456789abcdefvV:.[]@%-_".to_vec()),
            0..24,
        )
    ) {
        let mut s = b"http://".to_vec();
        s.extend_from_slice(&a);
        s.push(b'/');
        let ours = Validator::new(Grammar::Rfc3986).validate(&s);
        let t = std::str::from_utf8(&s).unwrap();
        let theirs = fluent_uri::Uri::<&str>::parse(t).is_ok();
        prop_assert_eq!(
            ours.is_ok(),
            theirs,
            "{}: ours {:?}",
            t,
            ours.err().map(|e| e.to_string())
        );
    }

    /// And on bracketed literals built from IPv6 pieces.
    #[test]
    fn rfc3986_ipv6_agrees_with_fluent_uri(
        parts in proptest::collection::vec(
            proptest::sample::select(vec![
                "1", "ab", "ffff", "0", "12345", ":", ":", "::", "1.2.3.4",
                "256.1.1.1", "01.2.3.4", "1.2.3", "v1.x", "g",
            ]),
            0..12,
        )
    ) {
        let t = format!("http://[{}]/", parts.concat());
        let ours = Validator::new(Grammar::Rfc3986).validate(t.as_bytes());
        let theirs = fluent_uri::Uri::<&str>::parse(t.as_str()).is_ok();
        prop_assert_eq!(
            ours.is_ok(),
            theirs,
            "{}: ours {:?}",
            t,
            ours.err().map(|e| e.to_string())
        );
    }

    /// The scanner's contract: a fault in the path, query or fragment of
    /// a URI whose scheme and authority are fine leaves a valid prefix.
    #[test]
    fn prefix_before_a_late_fault_is_valid(tail in uri_bytes()) {
        let mut s = b"http://a.example/".to_vec();
        s.extend_from_slice(&tail);
        for g in GRAMMARS {
            let v = Validator::new(g).scheme_rules(true);
            if let Err(e) = v.validate(&s) {
                if matches!(e.part(), Part::Path | Part::Query | Part::Fragment) {
                    let p = &s[..e.offset()];
                    prop_assert!(
                        v.validate(p).is_ok(),
                        "{}: prefix {:?} of {:?}",
                        g.name(),
                        String::from_utf8_lossy(p),
                        String::from_utf8_lossy(&s)
                    );
                }
            }
        }
    }
}
