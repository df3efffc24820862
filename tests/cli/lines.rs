//! The line modes: --check, --parse, --resolve.

use super::*;

// ---- --check, --parse, --resolve ------------------------------------

#[test]
fn check_plain_reports_invalid_lines() {
    let input = b"http://a/b/c\n\nhttp://a/b%zz\r\n../g\nhttp://a/ b\n";
    let o = run(&["--check"], input);
    let lines = o.lines();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("-:3:11: "), "{lines:?}");
    assert!(lines[1].starts_with("-:5:10: "), "{lines:?}");
    assert_eq!(o.code, 1);
    let o = run(&["--check"], b"http://a/b/c\n\n../g\r\n");
    assert_eq!((o.code, o.text()), (0, String::new()));
    // An empty input has no invalid line.
    assert_eq!(run(&["--check"], b"").code, 0);
}

#[test]
fn check_absolute_grammar_and_scheme_rules() {
    let o = run(&["--check", "--absolute"], b"../g\n");
    assert!(o.text().starts_with("-:1:1: "), "{}", o.text());
    assert_eq!(o.code, 1);
    let o = run(&["--check"], b"http://256.256.256.256/\n");
    assert_eq!(o.code, 0, "generic grammar: reg-name");
    let o = run(&["--check", "--scheme-rules"], b"http://256.256.256.256/\n");
    assert_eq!(o.code, 1);
    let o = run(&["--check", "--grammar", "rfc2396"], b"http://[::1]/\n");
    assert_eq!(o.code, 1);
    let o = run(&["--check", "--grammar", "rfc3986"], b"http://[::1]/\n");
    assert_eq!(o.code, 0);
}

#[test]
fn check_bounds_line_length() {
    let mut input = b"http://a/".to_vec();
    input.extend(std::iter::repeat_n(b'x', 200_000));
    input.extend_from_slice(b"\nhttp://a/ok\n");
    let o = run(&["--check"], &input);
    assert_eq!(o.code, 1);
    assert_eq!(
        o.text(),
        "-:1:65537: line longer than 65536 bytes (the bound is set by \
         --max-uri-len)\n"
    );
    let o = run(&["--check", "--max-uri-len", "300000"], &input);
    assert_eq!((o.code, o.text()), (0, String::new()));
    let v = json_lines(&run(&["--check", "--json"], &input));
    assert_eq!(v.len(), 2);
    assert_eq!(v[0]["truncated"], true);
    assert_eq!(v[0]["input"].as_str().unwrap().len(), 65536);
    assert_eq!(v[1]["valid"], true);
}

#[test]
fn check_json_shape() {
    let o = run(&["--check", "--json"], b"http://a/\nhttp://a/%zz\n\xff\n");
    let v = json_lines(&o);
    assert_eq!(v.len(), 3);
    assert_eq!(
        v[0],
        serde_json::json!({"line":1,"input":"http://a/","valid":true})
    );
    assert_eq!(v[1]["line"], 2);
    assert_eq!(v[1]["valid"], false);
    assert_eq!(v[1]["error"]["offset"], 9);
    assert!(v[1]["error"]["message"].as_str().unwrap().contains('%'));
    assert_eq!(v[2]["valid"], false);
    assert_eq!(v[2]["input"], "\u{fffd}");
    assert_eq!(v[2]["input_base64"], "/w==");
    assert_eq!(v[2]["error"]["offset"], 0);
    assert_eq!(o.code, 1);
}

#[test]
fn check_files_name_their_lines() {
    let d = tmp();
    write(d.path(), "u.txt", b"http://a/\nhttp://a/%\n");
    let o = run_in(Some(d.path()), &["--check", "u.txt"], b"");
    assert!(o.text().starts_with("u.txt:2:10: "), "{}", o.text());
    let o = run_in(Some(d.path()), &["--check", "u.txt", "nope"], b"");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("urifind: nope: No such file"));
}

#[test]
fn parse_components() {
    let o = run(
        &["--parse"],
        b"http://u@a.example:8080/p/q?x=1#f\nmailto:x@y\n%\n",
    );
    let v = json_lines(&o);
    assert_eq!(
        v[0],
        serde_json::json!({
            "line": 1, "input": "http://u@a.example:8080/p/q?x=1#f",
            "valid": true, "scheme": "http", "authority": "u@a.example:8080",
            "userinfo": "u", "host": "a.example", "port": "8080",
            "path": "/p/q", "query": "x=1", "fragment": "f"
        })
    );
    assert_eq!(v[1]["scheme"], "mailto");
    assert_eq!(v[1]["authority"], serde_json::Value::Null);
    assert_eq!(v[1]["path"], "x@y");
    assert_eq!(v[1]["query"], serde_json::Value::Null);
    assert_eq!(v[2]["valid"], false);
    assert_eq!(o.code, 1);
}

#[test]
fn resolve_appendix_c() {
    let base = "http://a/b/c/d;p?q";
    let input = b"g\n../g\n?y\n#s\n\n/./g\ng:h\n//g\n../../../g\nhttp:g\n";
    let o = run(&["--resolve", base], input);
    assert_eq!(
        o.lines(),
        [
            "http://a/b/c/g",
            "http://a/b/g",
            "http://a/b/c/d;p?y",
            "http://a/b/c/d;p?q#s",
            "http://a/b/c/d;p?q",
            "http://a/./g",
            "g:h",
            "http://g",
            "http://a/../g",
            "http:g"
        ]
    );
    assert_eq!(o.code, 0);
    let o = run(&["--resolve", base, "--compat"], b"http:g\n");
    assert_eq!(o.lines(), ["http://a/b/c/g"]);
    let v = json_lines(&run(&["--resolve", base, "--json"], b"../g\n"));
    assert_eq!(
        v[0],
        serde_json::json!({"line":1,"input":"../g","valid":true,
                           "resolved":"http://a/b/g"})
    );
}

#[test]
fn resolve_faults() {
    let o = run(&["--resolve", "../not-absolute"], b"g\n");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("not an absolute URI"), "{}", o.stderr);
    let o = run(&["--resolve", "http://a/b"], b"g\n%zz\nh\n");
    assert_eq!(o.lines(), ["http://a/g", "http://a/h"]);
    assert!(o.stderr.starts_with("urifind: -:2:1: "), "{}", o.stderr);
    assert_eq!(o.code, 1);
}
