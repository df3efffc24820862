//! Standard input as a filter, exit statuses, and the byte-for-byte
//! promise of every output mode.

use std::io::{BufRead, BufReader};
use std::sync::mpsc;
use std::time::Duration;

use super::*;

// ---- stdin filter and exit statuses ----------------------------------

#[test]
fn stdin_filter_prints_each_uri() {
    let o = run(&[], TWO);
    assert_eq!(o.text(), "http://a.example/x\nhttp://b.example/y\n");
    assert_eq!(o.code, 0);
    assert_eq!(o.stderr, "");
}

#[test]
fn dash_is_stdin() {
    let o = run(&["-"], TWO);
    assert_eq!(o.lines(), ["http://a.example/x", "http://b.example/y"]);
}

#[test]
fn nothing_found_is_status_1() {
    let o = run(&[], b"no addresses here, Note: see below, 10:30\n");
    assert_eq!(o.code, 1);
    assert_eq!(o.text(), "");
    assert_eq!(o.stderr, "");
}

#[test]
fn empty_input_is_status_1() {
    let o = run(&[], b"");
    assert_eq!((o.code, o.text()), (1, String::new()));
}

#[test]
fn appendix_e_worked_example() {
    let input =
        b"Yes, Jim, I found it under \"http://www.w3.org/Addressing/\",\n\
but you can probably pick it up from <ftp://ds.internic.\n\
net/rfc/>.  Note the warning in <http://www.ics.uci.edu/pub/\n\
ietf/uri/historical.html#WARNING>.\n";
    let o = run(&[], input);
    assert_eq!(
        o.lines(),
        [
            "http://www.w3.org/Addressing/",
            "ftp://ds.internic.net/rfc/",
            "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING"
        ]
    );
}

#[test]
fn output_is_byte_for_byte_lossless() {
    let uri = "http://a.example/a%20b;p?x=1&y=2#frag~";
    let input = format!("<{uri}> and \"{uri}\" and {uri}\n");
    let o = run(&[], input.as_bytes());
    assert_eq!(o.lines(), [uri, uri, uri]);
    let o = run(&["--json"], input.as_bytes());
    for v in json_lines(&o) {
        assert_eq!(v["uri"], uri);
    }
}

#[test]
fn every_output_mode_prints_the_uri_byte_for_byte() {
    let uri = "http://a.example/~u/a%20b;p=1?x=1&y=$,+*!'()#f/?:@";
    let input = format!("x <{uri}>\n");
    for args in [
        &[][..],
        &["-n"],
        &["-b"],
        &["--column"],
        &["-H"],
        &["-H", "-0"],
        &["--color=always"],
        &["-u"],
        &["--hyphen=drop"],
        &["--hyphen=both"],
        &["--line-buffered"],
        &["-j", "3"],
    ] {
        let o = run(args, input.as_bytes());
        let mut t = o.stdout.clone();
        // Drop color escapes, then everything up to the prefix.
        for esc in ["\x1b[0m", "\x1b[1;31m"] {
            let s = String::from_utf8(t).unwrap().replace(esc, "");
            t = s.into_bytes();
        }
        let t = String::from_utf8(t).unwrap();
        assert!(t.ends_with(&format!("{uri}\n")), "{args:?}: {t:?}");
        assert_eq!(t.matches(uri).count(), 1, "{args:?}: {t:?}");
    }
    let v = json_lines(&run(&["--json"], input.as_bytes()));
    assert_eq!(v[0]["uri"], uri);
}

#[test]
fn stdin_output_appears_as_input_arrives() {
    // With --line-buffered, the first URI is readable while stdin is
    // still open: urifind is a filter, not a batch job.
    let mut child = urifind()
        .arg("--line-buffered")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut sin = child.stdin.take().unwrap();
    let sout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        BufReader::new(sout).read_line(&mut line).unwrap();
        tx.send(line).unwrap();
    });
    sin.write_all(b"first http://a.example/1 line\n").unwrap();
    sin.flush().unwrap();
    let line = rx.recv_timeout(Duration::from_secs(20));
    drop(sin);
    let status = child.wait().unwrap();
    assert_eq!(
        line.expect("no output while stdin open"),
        "http://a.example/1\n"
    );
    assert!(status.success());
}
