//! Where a link leads, through the command: `--unwrap` and
//! `--unwrap=both`, embedded links, `--browser-hosts`, the JSON fields,
//! mail mode's `shown` against a wrapper's target, the shipped Outlook
//! message; and the invariants of the `link` fuzz target
//! (`fuzz/common/link.rs`) on generated URIs.

use proptest::prelude::*;

use crate::cli::{run_text as run, text_json as json};

#[path = "../fuzz/common/link.rs"]
mod invariants;

const SAFE: &str = "https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fa.example%2Fr%3Fid%3D7%26x%3D1&data=05%7C01&sdata=Zm9v&reserved=0";
const LOGIN: &str =
    "https://login.example/?redirect_to=https%3A%2F%2Fb.example%2Fp&x=1";

#[test]
fn plain_output_is_unchanged_without_unwrap() {
    let text = format!("see {SAFE} and {LOGIN}\n");
    let out = run(&[], text.as_bytes());
    assert_eq!(out.stdout, format!("{SAFE}\n{LOGIN}\n"));
}

#[test]
fn unwrap_prints_targets_and_embedded_links() {
    let text = format!("see {SAFE} and {LOGIN}\n");
    let out = run(&["--unwrap"], text.as_bytes());
    assert_eq!(out.code, 0);
    assert_eq!(
        out.stdout,
        format!(
            "https://a.example/r?id=7&x=1\n{LOGIN}\nhttps://b.example/p\n"
        )
    );
    assert_eq!(run(&["--unwrap=target"], text.as_bytes()).stdout, out.stdout);
    let both = run(&["--unwrap=both", "-n"], text.as_bytes());
    assert_eq!(
        both.stdout,
        format!(
            "1:{SAFE}\n1:https://a.example/r?id=7&x=1\n1:{LOGIN}\n1:https://b.example/p\n"
        )
    );
    // Counts count the URIs found, not the lines printed.
    assert_eq!(run(&["--unwrap", "-c"], text.as_bytes()).stdout, "2\n");
}

#[test]
fn undecodable_and_opaque_wrappers_print_as_themselves() {
    let bad = "https://eur02.safelinks.protection.outlook.com/?url=not%20a%20link&data=x";
    let opaque = "https://protect-eu.mimecast.com/s/AbCd?domain=c.example";
    let text = format!("{bad}\n{opaque}\n");
    let out = run(&["--unwrap"], text.as_bytes());
    assert_eq!(out.code, 0, "failure never changes the exit status");
    assert_eq!(out.stdout, text);
    let j = json(&run(&["--json"], text.as_bytes()));
    assert_eq!(j[0]["unwrap"], "malformed");
    assert_eq!(j[0]["wrappers"], serde_json::json!(["safelinks"]));
    assert!(j[0].get("target").is_none());
    assert_eq!(j[1]["unwrap"], "opaque");
    assert_eq!(j[1]["target_host"], "c.example");
    assert_eq!(j[1]["flags"], serde_json::json!(["wrapped"]));
}

#[test]
fn json_fields_only_where_they_apply() {
    let text = format!("{SAFE} {LOGIN} https://plain.example/x\n");
    // The same with and without --unwrap.
    let out = run(&["--json"], text.as_bytes());
    assert_eq!(
        run(&["--json", "--unwrap"], text.as_bytes()).stdout,
        out.stdout
    );
    let j = json(&out);
    assert_eq!(j[0]["uri"], SAFE);
    assert_eq!(j[0]["target"], "https://a.example/r?id=7&x=1");
    assert_eq!(j[0]["wrappers"], serde_json::json!(["safelinks"]));
    assert_eq!(j[0]["unwrap"], "decoded");
    assert_eq!(j[0]["target_host"], "a.example");
    assert_eq!(j[1]["embedded"], serde_json::json!(["https://b.example/p"]));
    assert_eq!(j[1]["flags"], serde_json::json!(["embedded"]));
    for key in [
        "target",
        "wrappers",
        "unwrap",
        "target_host",
        "embedded",
        "host_as_read",
        "flags",
    ] {
        assert!(j[2].get(key).is_none(), "{key} on a plain URI");
        assert!(
            j[1].get(key).is_some() == matches!(key, "embedded" | "flags"),
            "{key}"
        );
    }
}

#[test]
fn browser_hosts_only_when_asked() {
    let text = b"at http://0x7f.1/a and http://%77%77%77.example.com/b, not http://1.2.3.08/ or http://ho%2Fst/\n";
    assert_eq!(run(&[], text).code, 1);
    let out = run(&["--browser-hosts", "--json"], text);
    let j = json(&out);
    assert_eq!(j.len(), 2);
    assert_eq!(j[0]["uri"], "http://0x7f.1/a");
    assert_eq!(j[0]["host_as_read"], "127.0.0.1");
    assert_eq!(j[0]["flags"], serde_json::json!(["numeric", "obscured"]));
    assert_eq!(j[1]["uri"], "http://%77%77%77.example.com/b");
    assert_eq!(j[1]["host_as_read"], "www.example.com");
    assert_eq!(j[1]["flags"], serde_json::json!(["obscured"]));
    // Full-width letters and ideographic full stops, as written.
    let wide = "go http://ｅｘａｍｐｌｅ。com/x now\n";
    assert_eq!(run(&[], wide.as_bytes()).stdout, "");
    let out = run(&["--browser-hosts", "--json"], wide.as_bytes());
    let j = json(&out);
    assert_eq!(j[0]["written"], "http://ｅｘａｍｐｌｅ。com/x");
    assert_eq!(j[0]["host_as_read"], "example.com");
}

#[test]
fn line_modes_refuse_link_flags() {
    for flag in ["--unwrap", "--browser-hosts"] {
        let out = run(&["--check", flag], b"http://a.example/\n");
        assert_eq!(out.code, 2, "{flag}");
        assert!(out.stderr.contains(flag), "{}", out.stderr);
    }
}

fn corpus(name: &str) -> Vec<u8> {
    crate::cli::corpus("links", name)
}

#[test]
fn outlook_message() {
    let msg = corpus("outlook-safelinks.eml");
    let out = run(&["--mail", "--unwrap"], &msg);
    // The plain part writes each link's text and then its wrapper, the
    // HTML part adds a link text that is another URI.
    assert_eq!(
        out.stdout,
        "https://share.example.org/reports/q3.pdf?dl=1\n\
         https://share.example.org/reports/q3.pdf?dl=1\n\
         https://login.example.net/verify?next=https%3A%2F%2Fshare.example.org%2F\n\
         https://share.example.org/\n\
         https://share.example.org/\n"
    );
    assert_eq!(
        run(&["--mail", "--unwrap", "-u"], &msg).stdout,
        "https://share.example.org/reports/q3.pdf?dl=1\n\
         https://login.example.net/verify?next=https%3A%2F%2Fshare.example.org%2F\n\
         https://share.example.org/\n"
    );
    let j = json(&run(&["--mail", "--json"], &msg));
    // The report's link shows its own target: no `shown`. The second
    // shows a host it does not lead to.
    let report: Vec<_> =
        j.iter().filter(|m| m["target_host"] == "share.example.org").collect();
    assert!(!report.is_empty());
    assert!(report.iter().all(|m| m.get("shown").is_none()), "{report:?}");
    let login: Vec<_> =
        j.iter().filter(|m| m["target_host"] == "login.example.net").collect();
    assert!(
        login.iter().any(|m| m["shown"] == "https://share.example.org/"),
        "{login:?}"
    );
}

/// URIs made of wrapper-shaped pieces.
fn uri() -> impl Strategy<Value = Vec<u8>> {
    const PIECES: &[&str] = &[
        "https://",
        "http://",
        "urldefense.com",
        "urldefense.proofpoint.com",
        "eur01.safelinks.protection.outlook.com",
        "www.google.com",
        "slack-redir.net",
        "secure-web.cisco.com",
        "x.cdn.ampproject.org",
        "a.example",
        "0x7f.1",
        "/v3/__",
        "/v2/url?u=",
        "/v1/url?u=",
        "/?url=",
        "/url?q=",
        "/link?url=",
        "/c/s/",
        "__;",
        "!!",
        "*",
        "**",
        "**A",
        "**_",
        "PyY",
        "w6k",
        "-3A__",
        "_",
        "-",
        "%3A%2F%2F",
        "%25",
        "%C3%A9",
        "%E2%82",
        "&",
        ";",
        "=",
        "?",
        "#",
        "www.",
        "é",
        "&amp;",
    ];
    prop::collection::vec(prop::sample::select(PIECES), 0..24)
        .prop_map(|v| v.concat().into_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn link_invariants_hold(opt in any::<u8>(), u in uri()) {
        let mut data = vec![opt];
        data.extend(u);
        invariants::check_link(&data);
    }

    #[test]
    fn link_invariants_hold_on_noise(data in prop::collection::vec(any::<u8>(), 0..300)) {
        invariants::check_link(&data);
    }
}
