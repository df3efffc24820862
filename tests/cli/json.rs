//! JSON Lines output: the fields of a match, lossless names, counts and
//! file lists.

use super::*;

// ---- JSON -----------------------------------------------------------

#[test]
fn json_objects_parse_and_carry_every_field() {
    let input =
        b"line one\nsee <http://a.example/x> and http://b.example/y.\n";
    let o = run(&["--json"], input);
    let v = json_lines(&o);
    assert_eq!(v.len(), 2);
    let a = &v[0];
    assert_eq!(a["type"], "match");
    assert_eq!(a["path"], "-");
    assert_eq!(a["line"], 2);
    assert_eq!(a["column"], 5);
    assert_eq!(a["span_start"], 13);
    assert_eq!(a["span_end"], 33);
    assert_eq!(a["uri_start"], 14);
    assert_eq!(a["uri_end"], 32);
    assert_eq!(a["uri"], "http://a.example/x");
    assert_eq!(a["context"], "text");
    assert_eq!(a["delimiter"], "angle");
    assert_eq!(a["alternatives"], serde_json::json!([]));
    let b = &v[1];
    assert_eq!(
        (&b["context"], &b["delimiter"]),
        (&"text".into(), &"bare".into())
    );
    assert_eq!(b["uri"], "http://b.example/y");
    let s = b["uri_start"].as_u64().unwrap() as usize;
    let e = b["uri_end"].as_u64().unwrap() as usize;
    assert_eq!(&input[s..e], b"http://b.example/y");
}

#[cfg(unix)]
#[test]
fn json_keeps_a_non_utf8_file_name_losslessly() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let d = tmp();
    let name = OsStr::from_bytes(b"caf\xe9.txt");
    fs::write(d.path().join(name), b"http://a.example/\n").unwrap();
    let mut cmd = urifind();
    cmd.current_dir(d.path()).arg("--json").arg(name);
    let out = cmd.output().unwrap();
    let o = Out {
        code: out.status.code().unwrap(),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into(),
    };
    let v = json_lines(&o);
    assert_eq!(v[0]["path"], "caf\u{fffd}.txt");
    assert_eq!(v[0]["path_base64"], "Y2Fm6S50eHQ=");
    // Plain output writes the name's bytes as they are.
    let mut cmd = urifind();
    cmd.current_dir(d.path()).arg("-H").arg(name);
    let out = cmd.output().unwrap();
    assert_eq!(out.stdout, b"caf\xe9.txt:http://a.example/\n");
}

#[test]
fn json_count_and_files() {
    let o = run(&["--json", "-c"], TWO);
    let v = json_lines(&o);
    assert_eq!(v[0]["count"], 2);
    assert_eq!(v[0]["path"], "-");
    let o = run(&["--json", "-l"], TWO);
    assert_eq!(json_lines(&o)[0]["path"], "-");
}
