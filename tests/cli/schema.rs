//! `docs/json-schema.json` holds the JSON Lines output of every search
//! mode: plain text, mail, `--rejected`, hyphen alternatives, IRIs,
//! normal forms, counts and file lists, names that are not UTF-8.
//!
//! The schema is checked by a small checker written here for the part of
//! JSON Schema (2020-12) the file uses; a keyword it does not know makes
//! it fail, so the schema cannot grow past what is checked.

use std::path::Path;

use serde_json::{Map, Value};

use super::*;

fn schema() -> Value {
    let p =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/json-schema.json");
    serde_json::from_slice(&fs::read(p).unwrap()).unwrap()
}

/// Keywords the checker knows.
const KNOWN: &[&str] = &[
    "$schema",
    "$id",
    "title",
    "description",
    "$defs",
    "$ref",
    "oneOf",
    "type",
    "const",
    "enum",
    "pattern",
    "minimum",
    "properties",
    "required",
    "additionalProperties",
    "items",
];

/// Adds the faults of `v` against schema `s` to `faults` (none when it
/// holds), `root` being the whole schema for `$ref`s.
fn check(
    root: &Value,
    s: &Value,
    v: &Value,
    at: &str,
    faults: &mut Vec<String>,
) {
    let s = s.as_object().expect("a schema is an object");
    for key in s.keys() {
        assert!(KNOWN.contains(&key.as_str()), "keyword {key} not checked");
    }
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("a local $ref");
        check(root, &root["$defs"][name], v, at, faults);
    }
    check_rest(root, s, v, at, faults)
}

/// [`check`] for the keywords other than `$ref`.
fn check_rest(
    root: &Value,
    s: &Map<String, Value>,
    v: &Value,
    at: &str,
    faults: &mut Vec<String>,
) {
    let mut fault = |m: String| faults.push(format!("{at}: {m}"));
    if let Some(types) = s.get("type") {
        let types: Vec<&str> = match types {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => panic!("type"),
        };
        let is = |t: &str| match t {
            "string" => v.is_string(),
            "integer" => v.is_u64() || v.is_i64(),
            "boolean" => v.is_boolean(),
            "array" => v.is_array(),
            "object" => v.is_object(),
            "null" => v.is_null(),
            other => panic!("type {other}"),
        };
        if !types.iter().any(|t| is(t)) {
            fault(format!("{v} is not of type {types:?}"));
        }
    }
    if let Some(c) = s.get("const") {
        if c != v {
            fault(format!("{v} is not {c}"));
        }
    }
    if let Some(Value::Array(e)) = s.get("enum") {
        if !e.contains(v) {
            fault(format!("{v} is not one of {e:?}"));
        }
    }
    if let (Some(Value::String(p)), Some(t)) = (s.get("pattern"), v.as_str()) {
        if !regex::Regex::new(p).unwrap().is_match(t) {
            fault(format!("{t:?} does not match {p}"));
        }
    }
    if let (Some(m), Some(n)) = (s.get("minimum"), v.as_f64()) {
        if n < m.as_f64().unwrap() {
            fault(format!("{n} is below {m}"));
        }
    }
    if let (Some(items), Some(is)) = (v.as_array(), s.get("items")) {
        {
            for (i, item) in items.iter().enumerate() {
                check(root, is, item, &format!("{at}[{i}]"), faults);
            }
        }
    }
    if let Some(obj) = v.as_object() {
        let props = s.get("properties").and_then(Value::as_object);
        if let Some(Value::Array(req)) = s.get("required") {
            for r in req {
                if !obj.contains_key(r.as_str().unwrap()) {
                    faults.push(format!("{at}: {r} is missing"));
                }
            }
        }
        for (k, val) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(ps) => check(root, ps, val, &format!("{at}.{k}"), faults),
                None if s.get("additionalProperties")
                    == Some(&Value::Bool(false)) =>
                {
                    faults.push(format!("{at}: {k} is not allowed"));
                }
                None => {}
            }
        }
    }
    if let Some(Value::Array(alts)) = s.get("oneOf") {
        let holds: Vec<Vec<String>> = alts
            .iter()
            .map(|a| {
                let mut f = Vec::new();
                check(root, a, v, at, &mut f);
                f
            })
            .collect();
        let n = holds.iter().filter(|f| f.is_empty()).count();
        if n != 1 {
            faults.push(format!("{at}: {n} of oneOf hold: {holds:?}"));
        }
    }
}

/// Checks every line of `out` against the schema; returns how many.
fn holds(out: &Out) -> usize {
    let root = schema();
    let lines = json_lines(out);
    for v in &lines {
        let mut faults = Vec::new();
        check(&root, &root, v, "$", &mut faults);
        assert!(faults.is_empty(), "{v}\n{}", faults.join("\n"));
    }
    lines.len()
}

fn faults_of(v: Value) -> Vec<String> {
    let root = schema();
    let mut faults = Vec::new();
    check(&root, &root, &v, "$", &mut faults);
    faults
}

#[test]
fn the_checker_turns_down_what_the_schema_forbids() {
    let good = serde_json::json!({
        "type": "match", "path": "-", "context": "text", "line": 1,
        "column": 1, "span_start": 0, "span_end": 9, "uri_start": 0,
        "uri_end": 9, "uri": "http://a/", "delimiter": "bare",
        "alternatives": [], "flags": ["wrapped"], "unwrap": "decoded"
    });
    assert_eq!(faults_of(good.clone()), Vec::<String>::new());
    let bad = |k: &str, val: Value| {
        let mut v = good.clone();
        if val.is_null() {
            v.as_object_mut().unwrap().remove(k);
        } else {
            v[k] = val;
        }
        assert!(!faults_of(v).is_empty(), "{k} should be a fault");
    };
    // The old raw-mode shape: context as the delimiter, no delimiter.
    bad("context", "angle".into());
    bad("delimiter", Value::Null);
    bad("delimiter", "text".into());
    bad("span_start", (-1).into());
    bad("line", "1".into());
    bad("alternatives", serde_json::json!([1]));
    bad("flags", serde_json::json!(["bogus"]));
    bad("unwrap", "maybe".into());
    bad("part", "1..2".into());
    bad("surprise", true.into());
    bad("type", "count".into());
    assert!(!faults_of(serde_json::json!({"type": "count", "path": "-"}))
        .is_empty());
}

#[test]
fn raw_mode_output_holds_to_the_schema() {
    let text = "a <http://a.example/x> \"http://q.example/\" <URL:ftp://f.example/p>\n\
                www.w3.org/Addressing/ see http://www.example.com/read-\n me.txt\n\
                http://256.1.1.1/ and http://-bad-.example/ Müller: https://de.example/Müller\n\
                「https://例え.jp/」 http://a.example/%7Ex\n";
    let flags: &[&[&str]] = &[
        &["--json"],
        &["--json", "--abbrev", "--iri", "--normalize"],
        &["--json", "--rejected"],
        &["--json", "--rejected", "--iri"],
        &["--json", "-c"],
        &["--json", "-l"],
        &["--json", "--hyphen", "both", "-u"],
    ];
    let mut seen = std::collections::BTreeSet::new();
    for f in flags {
        let o = run(f, text.as_bytes());
        assert!(holds(&o) > 0, "{f:?}");
        for v in json_lines(&o) {
            seen.insert(format!("{}/{}", v["type"], v["delimiter"]));
            assert!(v["type"] != "match" || v["context"] == "text", "{v}");
        }
    }
    for want in [
        "\"match\"/\"angle\"",
        "\"match\"/\"quoted\"",
        "\"match\"/\"url-prefixed\"",
        "\"match\"/\"bare\"",
        "\"match\"/\"abbreviated\"",
        "\"match\"/\"paired\"",
        "\"rejected\"/\"bare\"",
        "\"count\"/null",
        "\"file\"/null",
    ] {
        assert!(seen.contains(want), "{want} not seen in {seen:?}");
    }
}

#[test]
fn a_non_utf8_name_and_uri_hold_to_the_schema() {
    let d = tmp();
    write(
        d.path(),
        "a.txt",
        b"http://a.example/\xff\n<http://b.example/x\xfe>\n",
    );
    let o =
        run_in(Some(d.path()), &["--json", "--rejected", "-a", "a.txt"], b"");
    holds(&o);
    let o = run(&["--json", "--iri"], b"http://a.example/\xc3\xa9\xff x\n");
    assert!(holds(&o) > 0);
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::OsStr::from_bytes(b"n\xffame.txt");
        fs::write(d.path().join(name), b"http://a.example/\n").unwrap();
        for f in [&["--json"][..], &["--json", "-c"], &["--json", "-l"]] {
            let mut args = f.to_vec();
            args.push(".");
            let o = run_in(Some(d.path()), &args, b"");
            assert!(o.text().contains("path_base64"), "{}", o.text());
            holds(&o);
        }
    }
}

#[test]
fn mail_output_holds_to_the_schema() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/mail");
    let mut contexts = std::collections::BTreeSet::new();
    let mut n = 0;
    for e in fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if !matches!(
            p.extension().and_then(|x| x.to_str()),
            Some("eml" | "mbox")
        ) {
            continue;
        }
        let p = p.to_str().unwrap();
        for f in [
            &["--json"][..],
            &["--json", "--rejected"],
            &["--json", "--html-resources"],
        ] {
            let mut args = vec!["--mail"];
            args.extend_from_slice(f);
            args.push(p);
            let o = run(&args, b"");
            n += holds(&o);
            for v in json_lines(&o) {
                let c = v["context"].as_str().unwrap().to_string();
                contexts.insert(c.split(':').next().unwrap().to_string());
                assert!(v["message"].is_u64(), "{v}");
                assert!(v["delimiter"].is_string(), "{v}");
            }
        }
    }
    assert!(n > 100, "{n}");
    for want in ["header", "text", "html-href", "html-text", "html-resource"] {
        assert!(contexts.contains(want), "{want} not seen in {contexts:?}");
    }
}
