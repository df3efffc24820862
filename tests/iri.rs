//! IRIs (RFC 3987): the grammar against RFC 3986's on ASCII, the mapping
//! to URIs (section 3.1), and the examples of SPEC.md section 6.

use std::borrow::Cow;

use proptest::prelude::*;
use urifind::grammar::{Grammar, IriValidator, Part, Validator};
use urifind::iri::Iri;
use urifind::uri::Components;

/// The five components and the authority's parts, as a tuple to compare.
type Parts<'a> = (
    Option<&'a [u8]>,
    Option<&'a [u8]>,
    Option<&'a [u8]>,
    Option<&'a [u8]>,
    Option<&'a [u8]>,
    &'a [u8],
    Option<&'a [u8]>,
    Option<&'a [u8]>,
);

fn parts<'a>(c: &Components<'a>) -> Parts<'a> {
    (
        c.scheme,
        c.authority,
        c.userinfo,
        c.host,
        c.port,
        c.path,
        c.query,
        c.fragment,
    )
}

#[test]
fn spec_section_6_iris_are_valid_and_map() {
    let rules =
        Validator::new(Grammar::Rfc2396bis).absolute(true).scheme_rules(true);
    let v = IriValidator::new().absolute(true).mapped(rules);
    for (iri, uri) in [
        ("http://www.example.fr/café", "http://www.example.fr/caf%C3%A9"),
        ("http://www.bücher.example/", "http://www.xn--bcher-kva.example/"),
        (
            "http://ru.example.org/wiki/Страница",
            "http://ru.example.org/wiki/\
             %D0%A1%D1%82%D1%80%D0%B0%D0%BD%D0%B8%D1%86%D0%B0",
        ),
        ("http://北京大学.cn", "http://xn--1lq90ic7fzpc.cn"),
        ("http://例え.テスト", "http://xn--r8jz45g.xn--zckzah"),
        (
            "http://ja.wikipedia.org/wiki/日本語",
            "http://ja.wikipedia.org/wiki/%E6%97%A5%E6%9C%AC%E8%AA%9E",
        ),
        ("http://中国.中国/", "http://xn--fiqs8s.xn--fiqs8s/"),
    ] {
        let c = v.validate(iri.as_bytes());
        assert!(c.is_ok(), "{iri}: {:?}", c.unwrap_err().message());
        assert_eq!(Iri::parse(iri).unwrap().to_uri(), uri);
    }
    // Invalid IRIs stay invalid; a bad host after IDNA too.
    for bad in [
        "http://-bad-.exämple/",
        "http://www.example.fr/ café",
        "http://a.example/\u{e000}",
        "http://ä.123/",
    ] {
        assert!(v.validate(bad.as_bytes()).is_err(), "{bad}");
    }
    assert!(!v.is_valid(b"http://www.example.fr/caf\xe9"));
}

#[test]
fn rfc2396_grammar_on_the_mapped_uri() {
    // RFC 2396 has no IPv6 literals: the mapped URI fails there.
    let v = IriValidator::new().mapped(Validator::new(Grammar::Rfc2396));
    let e = v.validate("http://[::1]/é".as_bytes()).unwrap_err();
    assert_eq!(e.part(), Part::Authority);
    assert!(IriValidator::new().is_valid("http://[::1]/é".as_bytes()));
}

/// Bytes that make up URIs, IRIs and their faults.
fn iri_bytes() -> impl Strategy<Value = Vec<u8>> {
    let alphabet: Vec<u8> =
        b"aZ09:/?#[]@%.-_~!$&'()*+,;=vF1 <\"\\^`{|}\x00\x7f".to_vec();
    let byte = prop_oneof![
        8 => proptest::sample::select(alphabet),
        1 => any::<u8>(),
    ];
    let wide = proptest::sample::select(vec![
        "é",
        "ß",
        "日本",
        "Ω",
        "\u{200c}",
        "\u{a0}",
        "\u{e000}",
        "\u{fffe}",
        "\u{fdd0}",
        "\u{10000}",
        "\u{e0001}",
        "\u{e1000}",
        "\u{f0000}",
        "\u{2488}",
        "한",
        "ü",
        "\u{3002}",
        "\u{ff0e}",
    ]);
    let frag = prop_oneof![
        1 => Just(b"http://".to_vec()),
        1 => Just(b"[::1]".to_vec()),
        1 => Just(b"1.2.3.4".to_vec()),
        1 => Just(b"%41".to_vec()),
        1 => Just(b"a.b".to_vec()),
        1 => Just(b"\xc3".to_vec()),
        2 => wide.prop_map(|w| w.as_bytes().to_vec()),
        3 => proptest::collection::vec(byte, 0..6),
    ];
    proptest::collection::vec(frag, 0..8).prop_map(|v| v.concat())
}

/// Strings shaped like IRIs: a scheme, often an authority whose labels
/// mix ASCII and other scripts, then path, query and fragment pieces.
fn iri_like() -> impl Strategy<Value = Vec<u8>> {
    let piece = proptest::sample::select(vec![
        "a", "b-c", "é", "日本", "例え", "Straße", "\u{200c}", "x1", "-",
        "\u{e000}", "%C3%A9", "\u{2488}", "Ω", "1", "\u{fffd}", "\u{3002}",
    ]);
    let label = proptest::collection::vec(piece.clone(), 1..3)
        .prop_map(|v| v.concat());
    let host =
        proptest::collection::vec(label, 1..4).prop_map(|v| v.join("."));
    let tail = proptest::collection::vec(
        (proptest::sample::select(vec!["/", "?", "#", ":", "@", ""]), piece),
        0..5,
    )
    .prop_map(|v| v.into_iter().map(|(a, b)| format!("{a}{b}")).collect());
    let scheme = proptest::sample::select(vec![
        "http://", "ftp://u@", "foo://", "urn:",
    ]);
    (scheme, host, tail).prop_map(|(s, h, t): (&str, String, String)| {
        format!("{s}{h}{t}").into_bytes()
    })
}

/// IRI-like strings and bytes around them.
fn iris() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![iri_bytes(), iri_like()]
}

/// ASCII bytes that make up URIs and their faults.
fn ascii_bytes() -> impl Strategy<Value = Vec<u8>> {
    iri_bytes().prop_map(|v| v.into_iter().filter(u8::is_ascii).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// On ASCII, RFC 3987 is RFC 3986: the same strings, the same
    /// components, and the mapping is the identity.
    #[test]
    fn ascii_iris_are_rfc3986_uris(s in ascii_bytes()) {
        for abs in [false, true] {
            let iri = IriValidator::new().absolute(abs).validate(&s);
            let uri = Validator::new(Grammar::Rfc3986).absolute(abs).validate(&s);
            prop_assert_eq!(iri.is_ok(), uri.is_ok(), "{:?}", String::from_utf8_lossy(&s));
            if let (Ok(i), Ok(u)) = (iri, uri) {
                prop_assert_eq!(parts(&i), parts(&u));
                let t = Iri::from_bytes(&s).unwrap();
                let mapped = t.to_uri();
                prop_assert!(matches!(mapped, Cow::Borrowed(_)));
                prop_assert_eq!(mapped.as_bytes(), &s[..]);
            }
        }
    }

    /// Every valid IRI maps to a valid RFC 3986 URI reference (an
    /// absolute one when the IRI is), ASCII, with the same scheme.
    #[test]
    fn every_iri_maps_to_an_rfc3986_uri(s in iris()) {
        let Ok(iri) = Iri::from_bytes(&s) else { return Ok(()) };
        let uri = iri.to_uri();
        prop_assert!(uri.is_ascii());
        let c = Validator::new(Grammar::Rfc3986).validate(uri.as_bytes());
        prop_assert!(c.is_ok(), "{} -> {}", iri, uri);
        let c = c.unwrap();
        let i = iri.components();
        prop_assert_eq!(c.scheme, i.scheme);
        prop_assert_eq!(c.authority.is_some(), i.authority.is_some());
        prop_assert_eq!(c.query.is_some(), i.query.is_some());
        prop_assert_eq!(c.fragment.is_some(), i.fragment.is_some());
        if IriValidator::new().absolute(true).is_valid(&s) {
            let v = Validator::new(Grammar::Rfc3986).absolute(true);
            prop_assert!(v.is_valid(uri.as_bytes()));
        }
    }

    /// The mapped check says what the URI validator says about the
    /// mapping, at offsets inside the IRI.
    #[test]
    fn mapped_check_agrees_with_the_mapping(s in iris()) {
        for g in [Grammar::Rfc2396bis, Grammar::Rfc3986] {
            let rules = Validator::new(g).absolute(true).scheme_rules(true);
            let v = IriValidator::new().absolute(true).mapped(rules);
            let plain = IriValidator::new().absolute(true).validate(&s);
            match v.validate(&s) {
                Ok(_) => {
                    let iri = Iri::from_bytes(&s).unwrap();
                    prop_assert!(rules.is_valid(iri.to_uri().as_bytes()));
                }
                Err(e) => {
                    prop_assert!(e.offset() <= s.len());
                    if plain.is_ok() {
                        let iri = Iri::from_bytes(&s).unwrap();
                        prop_assert!(!rules.is_valid(iri.to_uri().as_bytes()));
                        prop_assert!(std::str::from_utf8(&s).unwrap().is_char_boundary(e.offset()));
                    }
                }
            }
        }
    }

    /// Faults: within the input, after UTF-8 only; and a fault
    /// in the path, query or fragment leaves a valid prefix.
    #[test]
    fn faults_leave_valid_prefixes(s in iris()) {
        for abs in [false, true] {
            let v = IriValidator::new().absolute(abs);
            let Err(e) = v.validate(&s) else { continue };
            let o = e.offset();
            prop_assert!(o <= s.len());
            // all before the fault was read, as UTF-8
            prop_assert!(
                std::str::from_utf8(&s[..o]).is_ok(),
                "{:?} at {}",
                String::from_utf8_lossy(&s),
                o
            );
            prop_assert!(!e.message().is_empty());
            if matches!(e.part(), Part::Path | Part::Query | Part::Fragment) {
                prop_assert!(
                    v.is_valid(&s[..o]),
                    "{:?}: prefix {:?} ({})",
                    String::from_utf8_lossy(&s),
                    String::from_utf8_lossy(&s[..o]),
                    e.message()
                );
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(s in proptest::collection::vec(any::<u8>(), 0..64)) {
        let rules = Validator::default().absolute(true).scheme_rules(true);
        let v = IriValidator::new().mapped(rules);
        if let Ok(c) = v.validate(&s) {
            prop_assert!(std::str::from_utf8(&s).is_ok());
            prop_assert!(c.path.len() <= s.len());
        }
    }
}

/// What a finder with IRIs reports in `text`, as strings.
fn found(iri: bool, text: &str) -> Vec<String> {
    let f = urifind::Finder::builder().iri(iri).build().unwrap();
    f.find_iter(text.as_bytes())
        .map(|m| String::from_utf8(m.uri().to_vec()).unwrap())
        .collect()
}

#[test]
fn bare_iris_in_spaced_scripts() {
    for (text, want) in [
        ("http://example.net/résumé", "http://example.net/résumé"),
        ("https://el.example.org/Αθήνα.", "https://el.example.org/Αθήνα"),
        ("https://ru.example.net/книга", "https://ru.example.net/книга"),
        ("請見http://www.example.cn/了解", "http://www.example.cn/"),
        (
            "https://fa.example.org/کتاب\u{200c}خانه را",
            "https://fa.example.org/کتاب\u{200c}خانه",
        ),
        (
            "http://www.example.fr/café\u{2014}oui",
            "http://www.example.fr/café",
        ),
    ] {
        assert_eq!(found(true, text), [want], "{text}");
    }
    // Without IRIs the same candidates are rejected, not cut; a joiner
    // rejects too.
    assert!(found(false, "http://example.net/résumé").is_empty());
    assert!(found(false, "https://fa.example.org/a\u{200c}b").is_empty());
    assert!(found(false, "https://fa.example.org/a\u{200d}").is_empty());
    assert_eq!(found(false, "請見http://www.example.cn/了解").len(), 1);
}

#[test]
fn hosts_of_unspaced_scripts() {
    for (text, want) in [
        ("http://東京.example/", "http://東京.example/"),
        ("http://www.example.jpから", "http://www.example.jp"),
        ("http://東京.example/駅", "http://東京.example/"),
        ("http://中国.中国/中国", "http://中国.中国/"),
        ("新网址 http://例子.测试/首页 已上线", "http://例子.测试/"),
        ("http://user@北京大学.cn/x", "http://user@北京大学.cn/x"),
        ("see http://北京大学.cn.", "http://北京大学.cn"),
    ] {
        assert_eq!(found(true, text), [want], "{text}");
    }
    // Han after ASCII in a label ends the host, whatever comes next.
    assert_eq!(found(true, "http://ab北京.cn"), ["http://ab"]);
}

#[test]
fn delimited_iris() {
    for (text, want) in [
        ("<https://zh.example.org/页面>", "https://zh.example.org/页面"),
        ("《http://zh.example.org/目录》", "http://zh.example.org/目录"),
        ("\"http://ja.example.org/日本語\"", "http://ja.example.org/日本語"),
        (
            "<http://www.example.fr/documents/\n  résumé-2024.pdf>",
            "http://www.example.fr/documents/résumé-2024.pdf",
        ),
        ("«http://fr.example.org/été»", "http://fr.example.org/été"),
        ("‘http://a.example/ü’", "http://a.example/ü"),
    ] {
        assert_eq!(found(true, text), [want], "{text}");
    }
    // A character RFC 3987 refuses: the brackets delimit nothing, and
    // bare text ends at the private-use character.
    assert_eq!(
        found(true, "<http://a.example/x\u{e000}y>"),
        ["http://a.example/x"]
    );
    // A private-use character is fine in a query.
    assert_eq!(
        found(true, "<http://a.example/?\u{e000}>"),
        ["http://a.example/?\u{e000}"]
    );
}

#[test]
fn iri_validation_in_the_finder() {
    // The scheme rules apply to the IDNA form of the host.
    assert!(found(true, "http://-bad-.exämple/").is_empty());
    assert!(found(true, "http://ä.123/").is_empty());
    // IDNA refuses U+2488: the brackets delimit nothing, and in bare
    // text that character (a number, not a letter) ends the IRI.
    assert_eq!(found(true, "<http://a\u{2488}b.example/>"), ["http://a"]);
    // Bytes that are not UTF-8 end an IRI as they end a URI.
    let f = urifind::Finder::builder().iri(true).build().unwrap();
    let m: Vec<_> = f.find_iter(b"http://www.example.fr/caf\xe9 x").collect();
    assert_eq!(m[0].uri(), b"http://www.example.fr/caf");
    // The rejected candidate says why.
    let f =
        urifind::Finder::builder().iri(true).rejected(true).build().unwrap();
    let items: Vec<_> = f.items("http://-bad-.exämple/".as_bytes()).collect();
    let Some(urifind::scan::Item::Rejected(r)) = items.first() else {
        panic!("{items:?}")
    };
    assert_eq!(r.candidate(), "http://-bad-.exämple/".as_bytes());
}

#[test]
fn matches_map_to_uris() {
    let f = urifind::Finder::builder().iri(true).build().unwrap();
    let text = "http://www.bücher.example/ and http://a.example/x";
    let m: Vec<_> = f.find_iter(text.as_bytes()).collect();
    assert!(m[0].is_iri() && !m[1].is_iri());
    assert_eq!(m[0].to_uri(), &b"http://www.xn--bcher-kva.example/"[..]);
    assert_eq!(m[1].to_uri(), &b"http://a.example/x"[..]);
    assert!(matches!(m[1].to_uri(), Cow::Borrowed(_)));
}
