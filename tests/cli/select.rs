//! What is selected: rejected candidates, schemes, abbreviations,
//! grammars, the hyphen rule, normal forms, length bounds and IRIs.

use super::*;

// ---- selection ------------------------------------------------------

#[test]
fn rejected_candidates_with_reason_and_offset() {
    let input = b"bad http://256.1.1.1/x good http://a.example/\n";
    let o = run(&[], input);
    assert_eq!(o.lines(), ["http://a.example/"]);
    let o = run(&["--rejected"], input);
    assert_eq!(o.code, 0);
    let lines = o.lines();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("http://256.1.1.1/x: offset "), "{lines:?}");
    let o = run(&["--rejected", "--json"], input);
    let v = json_lines(&o);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["type"], "rejected");
    assert_eq!(v[0]["candidate"], "http://256.1.1.1/x");
    assert_eq!(v[0]["span_start"], 4);
    let off = v[0]["offset"].as_u64().unwrap();
    assert!((7..=17).contains(&off), "offset {off} not in the host");
    assert!(!v[0]["reason"].as_str().unwrap().is_empty());
    let o = run(&["--rejected"], b"http://a.example/\n");
    assert_eq!((o.code, o.text()), (1, String::new()));
}

#[test]
fn scheme_list_and_any_scheme() {
    let input = b"http://a.example/ https://b.example/ ftp://c.example/\n";
    let o = run(&["--scheme", "https,FTP"], input);
    assert_eq!(o.lines(), ["https://b.example/", "ftp://c.example/"]);
    let o = run(&["--scheme", "gopher"], input);
    assert_eq!(o.code, 1);
    let input = b"see zzz:abc here\n";
    assert_eq!(run(&[], input).code, 1);
    assert_eq!(run(&["--any-scheme"], input).lines(), ["zzz:abc"]);
}

#[test]
fn abbrev() {
    let input = b"visit www.w3.org/Addressing/ today\n";
    assert_eq!(run(&[], input).code, 1);
    let o = run(&["--abbrev"], input);
    assert_eq!(o.lines(), ["http://www.w3.org/Addressing/"]);
    let o = run(&["--abbrev", "--json"], input);
    assert_eq!(json_lines(&o)[0]["delimiter"], "abbreviated");
}

#[test]
fn grammar_choice() {
    // RFC 2396 has no '[' ']' at all, so an IPv6 literal is not a host.
    let input = b"see <http://[::1]/x>\n";
    assert_eq!(run(&[], input).lines(), ["http://[::1]/x"]);
    assert_eq!(
        run(&["--grammar", "rfc3986"], input).lines(),
        ["http://[::1]/x"]
    );
    assert_eq!(run(&["--grammar", "rfc2396"], input).code, 1);
}

const HYPHEN: &[u8] = b"see http://a.example/foo-\n  bar/ now\n";

#[test]
fn hyphen_keep_drop_both() {
    let kept = "http://a.example/foo-bar/";
    let dropped = "http://a.example/foobar/";
    assert_eq!(run(&[], HYPHEN).lines(), [kept]);
    assert_eq!(run(&["--hyphen", "keep"], HYPHEN).lines(), [kept]);
    assert_eq!(run(&["--hyphen", "drop"], HYPHEN).lines(), [dropped]);
    assert_eq!(run(&["--hyphen", "both"], HYPHEN).lines(), [kept, dropped]);
    assert_eq!(
        run(&["--hyphen=both", "-n"], HYPHEN).lines(),
        [format!("1:{kept}"), format!("1:{dropped}")]
    );
    let v = json_lines(&run(&["--json"], HYPHEN));
    assert_eq!(v[0]["uri"], kept);
    assert_eq!(v[0]["alternatives"], serde_json::json!([dropped]));
}

#[test]
fn normalize_and_unique_by_normal_form() {
    let input = b"HTTP://A.Example:80/%7euser and http://a.example/~user\n";
    let o = run(&["--normalize"], input);
    assert_eq!(
        o.lines(),
        ["http://a.example/~user", "http://a.example/~user"]
    );
    let o = run(&["--normalize", "-u"], input);
    assert_eq!(o.lines(), ["http://a.example/~user"]);
    // Without --normalize both are printed as written.
    assert_eq!(run(&["-u"], input).lines().len(), 2);
    let v = json_lines(&run(&["--normalize", "--json"], input));
    assert_eq!(v[0]["uri"], "HTTP://A.Example:80/%7euser");
    assert_eq!(v[0]["normalized"], "http://a.example/~user");
}

#[test]
fn max_uri_len() {
    let input = b"http://a.example/0123456789\n";
    assert_eq!(run(&[], input).code, 0);
    let o = run(&["--max-uri-len", "20"], input);
    assert_eq!((o.code, o.text()), (1, String::new()));
    let o = run(&["--max-uri-len", "20", "--rejected"], input);
    assert_eq!(o.code, 0);
    assert!(o.text().starts_with("http://a.example/"), "{}", o.text());
}

#[test]
fn iri_finds_and_maps_internationalized_addresses() {
    let input = "Siehe https://de.wikipedia.org/wiki/Müller und \
                 「http://例え.テスト/索引」, or http://a.example/x.\n";
    let out = run(&["--iri"], input.as_bytes());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.lines(),
        [
            "https://de.wikipedia.org/wiki/Müller",
            "http://例え.テスト/索引",
            "http://a.example/x"
        ]
    );
    let out = run(&["--iri", "--to-uri"], input.as_bytes());
    assert_eq!(
        out.lines(),
        [
            "https://de.wikipedia.org/wiki/M%C3%BCller",
            "http://xn--r8jz45g.xn--zckzah/%E7%B4%A2%E5%BC%95",
            "http://a.example/x"
        ]
    );
    // Without --iri the bare IRI is rejected, not cut, and the host of
    // Han and kana ends the other right after `//`.
    let out = run(&[], input.as_bytes());
    assert_eq!(out.lines(), ["http://a.example/x"]);
}

#[test]
fn iri_json_carries_the_uri_form() {
    let input = "<http://www.bücher.example/ü> http://a.example/\n";
    let out = run(&["--iri", "--json"], input.as_bytes());
    let v = json_lines(&out);
    assert_eq!(v[0]["iri"], true);
    assert_eq!(v[0]["uri"], "http://www.xn--bcher-kva.example/%C3%BC");
    assert_eq!(v[0]["written"], "http://www.bücher.example/ü");
    assert_eq!(v[0]["delimiter"], "angle");
    // A URI is printed as before: no "iri", no "written".
    assert_eq!(v[1]["uri"], "http://a.example/");
    assert!(v[1].get("iri").is_none() && v[1].get("written").is_none());
    // ASCII input: the same bytes out with and without --iri.
    let ascii =
        b"<http://a.example/x> \"http://b.example/y\" http://c.example/z.\n";
    for args in [&["--json"][..], &[][..]] {
        let with: Vec<&str> = [args, &["--iri"]].concat();
        assert_eq!(run(args, ascii).stdout, run(&with, ascii).stdout);
    }
}

#[test]
fn iri_usage_errors() {
    let out = run(&["--iri", "--grammar", "rfc2396"], b"x\n");
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("rfc2396"), "{}", out.stderr);
    let out = run(&["--to-uri"], b"x\n");
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("--iri"), "{}", out.stderr);
}
