//! The urifind command run as a process: stdin filters, files,
//! directories, pipes, every option, every exit status, and the faults a
//! grep-like tool must survive (unreadable paths, FIFOs, symlink loops,
//! binary data, closed stdout, bad arguments).
//!
//! Inputs are small and their expected URIs follow docs/CONTRACT.md. Paths are
//! given relative to a temporary directory (the child's working
//! directory) so the printed names are predictable.

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

struct Out {
    code: i32,
    stdout: Vec<u8>,
    stderr: String,
}

impl Out {
    fn text(&self) -> String {
        String::from_utf8(self.stdout.clone()).expect("stdout is UTF-8")
    }
    fn lines(&self) -> Vec<String> {
        self.text().lines().map(str::to_string).collect()
    }
}

fn urifind() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_urifind"));
    c.env_remove("NO_COLOR").env_remove("TERM");
    c
}

/// Runs urifind in `dir` with `args`, feeding `stdin`.
fn run_in(dir: Option<&Path>, args: &[&str], stdin: &[u8]) -> Out {
    let mut cmd = urifind();
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let mut child = cmd.spawn().expect("spawn urifind");
    let mut sin = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        // The child may exit without reading: ignore EPIPE here.
        let _ = sin.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait urifind");
    feeder.join().unwrap();
    Out {
        code: out.status.code().expect("exited normally"),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn run(args: &[&str], stdin: &[u8]) -> Out {
    run_in(None, args, stdin)
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

fn write(dir: &Path, name: &str, data: &[u8]) {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        fs::create_dir_all(parent).unwrap();
    }
    fs::write(p, data).unwrap();
}

fn json_lines(out: &Out) -> Vec<serde_json::Value> {
    out.text()
        .lines()
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"))
        })
        .collect()
}

const TWO: &[u8] = b"see <http://a.example/x> and http://b.example/y.\n";

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

// ---- files, names, prefixes ------------------------------------------

fn two_files() -> tempfile::TempDir {
    let d = tmp();
    write(
        d.path(),
        "a.txt",
        b"one\nsee http://a.example/1 and\n<http://a.example/2>\n",
    );
    write(d.path(), "b.txt", b"nothing\n");
    write(d.path(), "c.txt", b"x <mailto:c@c.example> y\n");
    d
}

#[test]
fn single_file_has_no_name_by_default() {
    let d = two_files();
    let o = run_in(Some(d.path()), &["a.txt"], b"");
    assert_eq!(o.lines(), ["http://a.example/1", "http://a.example/2"]);
}

#[test]
fn several_files_get_names() {
    let d = two_files();
    let o = run_in(Some(d.path()), &["a.txt", "b.txt", "c.txt"], b"");
    assert_eq!(
        o.lines(),
        [
            "a.txt:http://a.example/1",
            "a.txt:http://a.example/2",
            "c.txt:mailto:c@c.example"
        ]
    );
    assert_eq!(o.code, 0);
}

#[test]
fn with_and_without_filename() {
    let d = two_files();
    let o = run_in(Some(d.path()), &["-H", "c.txt"], b"");
    assert_eq!(o.lines(), ["c.txt:mailto:c@c.example"]);
    let o = run_in(Some(d.path()), &["--no-filename", "a.txt", "c.txt"], b"");
    assert_eq!(
        o.lines(),
        ["http://a.example/1", "http://a.example/2", "mailto:c@c.example"]
    );
    let o = run_in(Some(d.path()), &["-H"], TWO);
    assert_eq!(o.lines(), ["-:http://a.example/x", "-:http://b.example/y"]);
}

#[test]
fn line_number_column_and_byte_offset() {
    let d = two_files();
    let o = run_in(Some(d.path()), &["-n", "a.txt"], b"");
    assert_eq!(o.lines(), ["2:http://a.example/1", "3:http://a.example/2"]);
    let o = run_in(Some(d.path()), &["-n", "--column", "-H", "a.txt"], b"");
    assert_eq!(
        o.lines(),
        ["a.txt:2:5:http://a.example/1", "a.txt:3:1:http://a.example/2"]
    );
    // -b is the 0-based offset of the URI's first byte (after '<').
    let o = run_in(Some(d.path()), &["-b", "a.txt"], b"");
    assert_eq!(o.lines(), ["8:http://a.example/1", "32:http://a.example/2"]);
}

#[test]
fn count_per_file() {
    let d = two_files();
    let o = run_in(Some(d.path()), &["-c", "a.txt", "b.txt"], b"");
    assert_eq!(o.lines(), ["a.txt:2", "b.txt:0"]);
    assert_eq!(o.code, 0);
    let o = run_in(Some(d.path()), &["-c", "b.txt"], b"");
    assert_eq!((o.lines(), o.code), (vec!["0".to_string()], 1));
    let o = run(&["-c"], b"http://a.example/ http://a.example/ x\n");
    assert_eq!(o.lines(), ["2"]);
    let o = run(&["-c", "-u"], b"http://a.example/ http://a.example/ x\n");
    assert_eq!(o.lines(), ["1"]);
}

#[test]
fn files_with_matches_and_null() {
    let d = two_files();
    let o = run_in(Some(d.path()), &["-l", "a.txt", "b.txt", "c.txt"], b"");
    assert_eq!(o.lines(), ["a.txt", "c.txt"]);
    let o =
        run_in(Some(d.path()), &["-l", "-0", "a.txt", "b.txt", "c.txt"], b"");
    assert_eq!(o.stdout, b"a.txt\0c.txt\0");
    let o = run_in(Some(d.path()), &["-l", "b.txt"], b"");
    assert_eq!((o.stdout.len(), o.code), (0, 1));
    let o = run_in(Some(d.path()), &["-0", "a.txt", "c.txt"], b"");
    assert_eq!(
        o.stdout,
        b"a.txt\0http://a.example/1\na.txt\0http://a.example/2\n\
          c.txt\0mailto:c@c.example\n"
    );
}

#[test]
fn unique_keeps_first_occurrence_order() {
    let input =
        b"http://b.example/ http://a.example/ http://b.example/ http://a.example/\n";
    let o = run(&["-u"], input);
    assert_eq!(o.lines(), ["http://b.example/", "http://a.example/"]);
    let o = run(&[], input);
    assert_eq!(o.lines().len(), 4);
}

#[test]
fn unique_is_per_file_when_names_are_shown() {
    let d = tmp();
    write(d.path(), "1", b"http://a.example/ http://a.example/\n");
    write(d.path(), "2", b"http://a.example/\n");
    let o = run_in(Some(d.path()), &["-u", "1", "2"], b"");
    assert_eq!(o.lines(), ["1:http://a.example/", "2:http://a.example/"]);
    let o = run_in(Some(d.path()), &["-u", "--no-filename", "1", "2"], b"");
    assert_eq!(o.lines(), ["http://a.example/"]);
}

#[test]
fn color() {
    let d = two_files();
    let o =
        run_in(Some(d.path()), &["--color=always", "-n", "-H", "c.txt"], b"");
    let t = o.text();
    assert!(t.contains("\x1b[35mc.txt\x1b[0m"), "{t:?}");
    assert!(t.contains("\x1b[1;31mmailto:c@c.example\x1b[0m"), "{t:?}");
    assert!(t.contains("\x1b[32m1\x1b[0m"), "{t:?}");
    for args in [&["--color=never"][..], &[], &["--color=always", "--json"]] {
        let o = run(args, TWO);
        assert!(!o.text().contains('\x1b'), "{args:?}");
    }
}

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
    assert_eq!(a["context"], "angle");
    assert_eq!(a["alternatives"], serde_json::json!([]));
    let b = &v[1];
    assert_eq!(b["context"], "bare");
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
    assert_eq!(json_lines(&o)[0]["context"], "abbreviated");
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

// ---- directories, binary, gzip --------------------------------------

fn tree() -> tempfile::TempDir {
    let d = tmp();
    write(d.path(), "docs/b.txt", b"<http://b.example/>\n");
    write(d.path(), "docs/a.txt", b"http://a.example/ http://a2.example/\n");
    write(d.path(), "docs/sub/c.txt", b"http://c.example/\n");
    write(d.path(), "docs/z.txt", b"no uri\n");
    d
}

#[test]
fn directory_walk_sorted_with_names() {
    let d = tree();
    let want = [
        "docs/a.txt:http://a.example/",
        "docs/a.txt:http://a2.example/",
        "docs/b.txt:http://b.example/",
        "docs/sub/c.txt:http://c.example/",
    ];
    for j in ["1", "2", "4"] {
        let o = run_in(Some(d.path()), &["-j", j, "docs"], b"");
        assert_eq!(o.lines(), want, "-j {j}");
        assert_eq!(o.code, 0);
    }
    let o = run_in(Some(d.path()), &["-c", "docs"], b"");
    assert_eq!(
        o.lines(),
        ["docs/a.txt:2", "docs/b.txt:1", "docs/sub/c.txt:1", "docs/z.txt:0"]
    );
}

#[test]
fn parallel_output_keeps_each_file_together() {
    let d = tmp();
    let mut want = Vec::new();
    for f in 0..20 {
        let mut text = String::new();
        for u in 0..200 {
            text.push_str(&format!("x http://h{f}.example/{u} y\n"));
            want.push(format!("d/{f:02}:http://h{f}.example/{u}"));
        }
        write(d.path(), &format!("d/{f:02}"), text.as_bytes());
    }
    let o = run_in(Some(d.path()), &["-j", "4", "d"], b"");
    assert_eq!(o.lines(), want);
}

#[test]
fn parallel_output_with_files_larger_than_the_hold_limit() {
    // Workers hold at most 64 Ki items for a file whose turn has not
    // come, then wait: the output must still be complete and in order.
    let d = tmp();
    for f in 0..4 {
        let mut text = Vec::new();
        for u in 0..(if f == 1 { 150_000 } else { 70_000 }) {
            text.extend_from_slice(
                format!("x http://h{f}.example/{u}\n").as_bytes(),
            );
        }
        write(d.path(), &format!("d/{f}"), &text);
    }
    let one = run_in(Some(d.path()), &["-j", "1", "d"], b"");
    let four = run_in(Some(d.path()), &["-j", "4", "d"], b"");
    assert_eq!(one.stdout.len(), four.stdout.len());
    assert!(one.stdout == four.stdout, "-j 4 output differs from -j 1");
    assert_eq!(one.text().lines().count(), 360_000);
    let c = run_in(Some(d.path()), &["-j", "4", "-c", "d"], b"");
    assert_eq!(
        c.lines(),
        ["d/0:70000", "d/1:150000", "d/2:70000", "d/3:70000"]
    );
}

#[test]
fn binary_file_in_a_directory_is_skipped_with_a_note() {
    let d = tree();
    write(d.path(), "docs/bin.dat", b"http://bin.example/\0\x01\x02");
    let o = run_in(Some(d.path()), &["-l", "docs"], b"");
    assert_eq!(o.lines(), ["docs/a.txt", "docs/b.txt", "docs/sub/c.txt"]);
    assert!(
        o.stderr.contains("urifind: docs/bin.dat: binary file"),
        "{}",
        o.stderr
    );
    assert_eq!(o.code, 0);
    let o = run_in(Some(d.path()), &["-a", "docs/bin.dat"], b"");
    assert_eq!(o.lines(), ["http://bin.example/"]);
    assert_eq!(o.stderr, "");
}

#[test]
fn text_mode_keeps_nul_and_invalid_utf8_around_uris() {
    let input =
        b"\xff\xfe <http://a.example/x> \0 http://b.example/y\xe9t\xe9\0\n";
    let o = run(&["-a"], input);
    assert_eq!(o.lines(), ["http://a.example/x", "http://b.example/y"]);
    // Standard input is a filter and always text: a NUL only ends a URI.
    let o = run(&[], input);
    assert_eq!(o.lines(), ["http://a.example/x", "http://b.example/y"]);
    assert_eq!(o.code, 0);
    assert_eq!(o.stderr, "");
}

#[test]
fn gzip_input() {
    use flate2::write::GzEncoder;
    let d = tmp();
    let mut gz = GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(TWO).unwrap();
    write(d.path(), "list.txt.gz", &gz.finish().unwrap());
    write(d.path(), "plain.txt", b"http://p.example/\n");
    let o = run_in(Some(d.path()), &["-z", "list.txt.gz"], b"");
    assert_eq!(o.lines(), ["http://a.example/x", "http://b.example/y"]);
    // -z leaves files that are not gzip as they are.
    let o = run_in(Some(d.path()), &["-z", "plain.txt"], b"");
    assert_eq!(o.lines(), ["http://p.example/"]);
    let o = run_in(
        Some(d.path()),
        &["-z"],
        &fs::read(d.path().join("list.txt.gz")).unwrap(),
    );
    assert_eq!(o.lines().len(), 2);
}

#[test]
fn corrupt_gzip_is_an_error() {
    let d = tmp();
    let mut data = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3];
    data.extend_from_slice(b"this is not deflate data at all");
    write(d.path(), "bad.gz", &data);
    write(d.path(), "ok.txt", b"http://ok.example/\n");
    let o = run_in(Some(d.path()), &["-z", "bad.gz", "ok.txt"], b"");
    assert_eq!(o.code, 2);
    assert!(o.stderr.starts_with("urifind: bad.gz: "), "{}", o.stderr);
    assert_eq!(o.lines(), ["ok.txt:http://ok.example/"]);
}

// ---- walking: globs, ignore files, hidden files, links ---------------

fn mixed_tree() -> tempfile::TempDir {
    let d = tmp();
    let p = d.path();
    write(p, "m/a.txt", b"http://a.example/\n");
    write(p, "m/b.md", b"http://b.example/\n");
    write(p, "m/old/c.txt", b"http://c.example/\n");
    write(p, "m/.Sent/cur/1", b"http://sent.example/\n");
    write(p, "m/.hidden.txt", b"http://hidden.example/\n");
    d
}

#[test]
fn hidden_files_and_directories_are_searched_by_default() {
    let d = mixed_tree();
    let o = run_in(Some(d.path()), &["-l", "m"], b"");
    assert_eq!(
        o.lines(),
        ["m/.Sent/cur/1", "m/.hidden.txt", "m/a.txt", "m/b.md", "m/old/c.txt"]
    );
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
}

#[test]
fn globs_include_and_exclude() {
    let d = mixed_tree();
    let p = Some(d.path());
    let o = run_in(p, &["-l", "-g", "*.txt", "m"], b"");
    assert_eq!(o.lines(), ["m/.hidden.txt", "m/a.txt", "m/old/c.txt"]);
    // '!' excludes; an excluded directory is not entered.
    let o = run_in(p, &["-l", "-g", "*.txt", "--glob", "!old/", "m"], b"");
    assert_eq!(o.lines(), ["m/.hidden.txt", "m/a.txt"]);
    let o = run_in(p, &["-l", "-g", "!.*", "m"], b"");
    assert_eq!(o.lines(), ["m/a.txt", "m/b.md", "m/old/c.txt"]);
    // The last matching glob wins.
    let o = run_in(p, &["-l", "-g", "!*.txt", "-g", "a.txt", "m"], b"");
    assert_eq!(o.lines(), ["m/a.txt"]);
    // A file named on the command line is searched whatever the globs.
    let o = run_in(p, &["-g", "*.md", "m/a.txt", "m"], b"");
    assert_eq!(
        o.lines(),
        ["m/a.txt:http://a.example/", "m/b.md:http://b.example/"]
    );
    // Nothing selected is "nothing found", not an error.
    let o = run_in(p, &["-g", "*.none", "m"], b"");
    assert_eq!((o.code, o.stderr.as_str(), o.text()), (1, "", "".into()));
    let o = run_in(p, &["-g", "[", "m"], b"");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("-g ["), "{}", o.stderr);
}

#[test]
fn ignore_files_are_honoured_only_when_asked() {
    let d = mixed_tree();
    let p = d.path();
    write(p, "m/.gitignore", b"*.md\n.Sent/\n");
    write(p, "m/old/.ignore", b"c.txt\n");
    let all = [
        "m/.Sent/cur/1",
        "m/.gitignore",
        "m/.hidden.txt",
        "m/a.txt",
        "m/b.md",
        "m/old/.ignore",
        "m/old/c.txt",
    ];
    let o = run_in(Some(p), &["-c", "m"], b"");
    let names: Vec<_> = o
        .lines()
        .iter()
        .map(|l| l.split(':').next().unwrap().to_string())
        .collect();
    assert_eq!(names, all);
    let o = run_in(Some(p), &["-l", "--respect-ignore", "m"], b"");
    assert_eq!(o.lines(), ["m/.hidden.txt", "m/a.txt"]);
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
    // Globs and ignore files together: both apply.
    let o =
        run_in(Some(p), &["-l", "--respect-ignore", "-g", "!.*", "m"], b"");
    assert_eq!(o.lines(), ["m/a.txt"]);
}

#[cfg(unix)]
#[test]
fn links_are_followed_only_with_follow() {
    use std::os::unix::fs::symlink;
    let d = mixed_tree();
    let p = d.path();
    write(p, "elsewhere/x.txt", b"http://x.example/\n");
    symlink(p.join("elsewhere"), p.join("m/dirlink")).unwrap();
    symlink(p.join("m/a.txt"), p.join("m/filelink")).unwrap();
    let o = run_in(Some(p), &["-l", "-g", "!.*", "m"], b"");
    assert_eq!(o.lines(), ["m/a.txt", "m/b.md", "m/old/c.txt"]);
    let o = run_in(Some(p), &["-L", "-l", "-g", "!.*", "m"], b"");
    assert_eq!(
        o.lines(),
        ["m/a.txt", "m/b.md", "m/dirlink/x.txt", "m/filelink", "m/old/c.txt"]
    );
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
    // A loop is reported, the rest searched, and the status says so.
    symlink("..", p.join("m/old/loop")).unwrap();
    let o = run_in(Some(p), &["-L", "-l", "-g", "!.*", "m"], b"");
    assert_eq!(
        o.lines(),
        ["m/a.txt", "m/b.md", "m/dirlink/x.txt", "m/filelink", "m/old/c.txt"]
    );
    assert_eq!(
        o.stderr,
        "urifind: m/old/loop: symbolic link loop (a link to a directory \
         above it) not followed\n"
    );
    assert_eq!(o.code, 2);
}

// ---- large files: searched in memory, same output as a stream ---------

/// Over 4 MiB of text with URIs of every context, rejoined line breaks,
/// rejected candidates and non-UTF-8 bytes.
fn large_text() -> Vec<u8> {
    let mut t = Vec::new();
    let mut i = 0u32;
    while t.len() < 5 << 20 {
        let piece = match i % 7 {
            0 => format!("see <http://a{i}.example/p\n  ath/{i}> ok\n"),
            1 => format!("> \"ftp://b{i}.example/x\n> y\" and more\n"),
            2 => format!("bare http://c{i}.example/q?x={i}, then.\n"),
            3 => format!("bad http://256.{i}.1.1/ here\n"),
            4 => format!("<URL:mailto:u{i}@d.example>"),
            5 => {
                format!("long line {} http://e.example/{i}\n", "w ".repeat(40))
            }
            _ => format!("http://f.example/hy-\nphen{i} and urn:x:{i}\n"),
        };
        t.extend_from_slice(piece.as_bytes());
        if i % 7 == 4 {
            t.extend_from_slice(b"\xff\xfe text\n");
        }
        i += 1;
    }
    t
}

#[test]
fn a_large_file_prints_what_its_stream_prints() {
    let d = tmp();
    let text = large_text();
    write(d.path(), "big.txt", &text);
    for args in [
        &["-n", "--column", "-b"][..],
        &["--rejected", "-n", "-b"],
        &["-c"],
        &["-u", "--hyphen", "both"],
        &["--abbrev", "--any-scheme"],
    ] {
        let mut file_args = args.to_vec();
        file_args.push("big.txt");
        let file = run_in(Some(d.path()), &file_args, b"");
        let stdin = run_in(Some(d.path()), args, &text);
        assert_eq!(file.code, 0, "{args:?}: {}", file.stderr);
        assert!(file.stdout == stdin.stdout, "{args:?}: outputs differ");
        assert!(file.stdout.len() > 5, "{args:?}");
    }
    // JSON too, but for the name.
    let file = run_in(Some(d.path()), &["--json", "big.txt"], b"");
    let stdin = run_in(Some(d.path()), &["--json"], &text);
    let file = file.text().replace("\"path\":\"big.txt\"", "\"path\":\"-\"");
    assert_eq!(file, stdin.text());
    // Several large files on two threads: the output of one thread.
    write(d.path(), "d/1.txt", &text);
    write(d.path(), "d/2.txt", &text[..text.len() / 2]);
    write(d.path(), "d/3.txt", b"http://small.example/\n");
    let one = run_in(Some(d.path()), &["-j", "1", "-n", "d"], b"");
    let two = run_in(Some(d.path()), &["-j", "2", "-n", "d"], b"");
    assert!(one.stdout == two.stdout, "-j 2 output differs from -j 1");
    assert!(one.text().ends_with("d/3.txt:1:http://small.example/\n"));
}

/// One file over 8 MiB searched on several threads: its output is that
/// of its stream, byte for byte (line numbers, columns and JSON too), in
/// text whose parts meet where they are cut, in text whose quotes pair
/// across every line (the parts would never meet: one scan, printed on
/// another thread), and in text that turns from one to the other (parts
/// scanned again in order).
#[test]
fn one_large_file_on_several_threads_prints_what_its_stream_prints() {
    let d = tmp();
    let mut text = large_text();
    text.extend_from_slice(&large_text());
    let quotes = b"\"http://a.example/\n  x".repeat(9 << 20 >> 4);
    // Prose first, then quotes: the first parts meet, later ones not.
    let mut mixed = text[..3 << 20].to_vec();
    mixed.extend_from_slice(&quotes);
    write(d.path(), "big.txt", &text);
    write(d.path(), "quotes.txt", &quotes);
    write(d.path(), "mixed.txt", &mixed);
    for (name, data) in
        [("big.txt", &text), ("quotes.txt", &quotes), ("mixed.txt", &mixed)]
    {
        let stdin = run_in(Some(d.path()), &[], data);
        assert!(stdin.stdout.len() > 1 << 20);
        for args in [
            &["-j", "2"][..],
            &["-j", "3", "-b", "--color=always"],
            &["-j", "2", "-n", "--column"],
            &["-j", "2", "--json", "--rejected"],
        ] {
            let mut file_args = args.to_vec();
            file_args.push(name);
            let file = run_in(Some(d.path()), &file_args, b"");
            let want = run_in(Some(d.path()), args, data);
            assert_eq!(
                file.code, want.code,
                "{name} {args:?}: {}",
                file.stderr
            );
            assert!(file.stderr.is_empty(), "{name} {args:?}");
            // (JSON names the input: standard input is "-".)
            let want = String::from_utf8_lossy(&want.stdout)
                .replace("\"path\":\"-\"", &format!("\"path\":\"{name}\""))
                .into_bytes();
            if args.len() == 2 {
                assert!(want == stdin.stdout);
                assert_eq!(file.code, 0);
            }
            let got = String::from_utf8_lossy(&file.stdout).into_owned();
            assert!(got.as_bytes() == want, "{name} {args:?}: outputs differ");
        }
    }
}

// ---- faults ---------------------------------------------------------

#[test]
fn missing_file_among_readable_ones_is_status_2() {
    let d = two_files();
    let o = run_in(Some(d.path()), &["a.txt", "nope.txt", "c.txt"], b"");
    assert_eq!(
        o.lines(),
        [
            "a.txt:http://a.example/1",
            "a.txt:http://a.example/2",
            "c.txt:mailto:c@c.example"
        ]
    );
    assert_eq!(o.stderr, "urifind: nope.txt: No such file or directory\n");
    assert_eq!(o.code, 2);
}

/// Whether permission bits stop this process (not when running as root).
fn permissions_apply(dir: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let probe = dir.join("probe");
        fs::write(&probe, b"x").unwrap();
        fs::set_permissions(&probe, fs::Permissions::from_mode(0o000))
            .unwrap();
        let denied = fs::read(&probe).is_err();
        fs::set_permissions(&probe, fs::Permissions::from_mode(0o600))
            .unwrap();
        fs::remove_file(&probe).unwrap();
        denied
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        false
    }
}

#[cfg(unix)]
#[test]
fn unreadable_file_and_directory() {
    use std::os::unix::fs::PermissionsExt;
    let d = two_files();
    let p = d.path();
    if permissions_apply(p) {
        write(p, "locked/x.txt", b"http://x.example/\n");
        write(p, "secret.txt", b"http://s.example/\n");
        fs::set_permissions(
            p.join("secret.txt"),
            fs::Permissions::from_mode(0o000),
        )
        .unwrap();
        fs::set_permissions(
            p.join("locked"),
            fs::Permissions::from_mode(0o000),
        )
        .unwrap();
        let o = run_in(Some(p), &["secret.txt", "locked", "c.txt"], b"");
        assert_eq!(o.lines(), ["c.txt:mailto:c@c.example"]);
        assert!(o.stderr.contains("urifind: secret.txt: Permission denied"));
        assert!(o.stderr.contains("urifind: locked: Permission denied"));
        assert_eq!(o.code, 2);
        fs::set_permissions(
            p.join("locked"),
            fs::Permissions::from_mode(0o700),
        )
        .unwrap();
    } else {
        // Running as root: permission bits do not stop us, so stand in
        // with paths the kernel refuses for everyone: a file used as a
        // directory (ENOTDIR) and a directory read as a file (EISDIR is
        // not an error for urifind: directories are walked).
        let o = run_in(Some(p), &["a.txt/sub", "c.txt"], b"");
        assert_eq!(o.lines(), ["c.txt:mailto:c@c.example"]);
        assert_eq!(o.stderr, "urifind: a.txt/sub: Not a directory\n");
        assert_eq!(o.code, 2);
    }
}

#[cfg(unix)]
#[test]
fn dangling_symlink_and_vanished_file() {
    use std::os::unix::fs::symlink;
    let d = tree();
    let p = d.path();
    // A link whose target is gone is what a file removed between the
    // listing and the open looks like.
    symlink(p.join("docs/gone.txt"), p.join("docs/link.txt")).unwrap();
    // Named explicitly: an error, the other files still searched.
    let o = run_in(Some(p), &["docs/link.txt", "docs/b.txt"], b"");
    assert_eq!(o.lines(), ["docs/b.txt:http://b.example/"]);
    assert_eq!(
        o.stderr,
        "urifind: docs/link.txt: No such file or directory\n"
    );
    assert_eq!(o.code, 2);
    // In a walk, links are not followed by default...
    let o = run_in(Some(p), &["-l", "docs"], b"");
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
    // ...and with -L the dangling one is reported.
    let o = run_in(Some(p), &["-L", "-l", "docs"], b"");
    assert_eq!(o.lines(), ["docs/a.txt", "docs/b.txt", "docs/sub/c.txt"]);
    assert_eq!(
        o.stderr,
        "urifind: docs/link.txt: No such file or directory\n"
    );
    assert_eq!(o.code, 2);
}

#[cfg(unix)]
#[test]
fn symlink_loops() {
    use std::os::unix::fs::symlink;
    let d = tree();
    let p = d.path();
    symlink("l2", p.join("l1")).unwrap();
    symlink("l1", p.join("l2")).unwrap();
    let o = run_in(Some(p), &["l1", "docs/b.txt"], b"");
    assert_eq!(o.lines(), ["docs/b.txt:http://b.example/"]);
    assert!(o
        .stderr
        .starts_with("urifind: l1: Too many levels of symbolic links"));
    assert_eq!(o.code, 2);
    // A link to an enclosing directory, walked with -L.
    symlink("..", p.join("docs/sub/up")).unwrap();
    let o = run_in(Some(p), &["-L", "-c", "docs"], b"");
    assert_eq!(
        o.lines(),
        ["docs/a.txt:2", "docs/b.txt:1", "docs/sub/c.txt:1", "docs/z.txt:0"]
    );
    assert!(o.stderr.starts_with("urifind: docs/sub/up: symbolic link loop"));
    assert_eq!(o.code, 2);
}

#[test]
fn files_vanishing_during_a_walk_are_reported_and_the_rest_searched() {
    // Race a walk against deletions: whatever the timing, each deleted
    // file is either never listed (silent) or reported as gone, every
    // kept file is searched, and the status is 2 exactly when something
    // was reported.
    let d = tmp();
    for f in 0..3000 {
        write(
            d.path(),
            &format!("d/{f:04}"),
            format!("http://h{f}.example/\n").as_bytes(),
        );
    }
    let child = urifind()
        .current_dir(d.path())
        .args(["-j", "2", "d"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // From the end: those are listed but not yet opened for the longest.
    for f in (0..3000).rev().filter(|f| f % 3 == 0) {
        let _ = fs::remove_file(d.path().join(format!("d/{f:04}")));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    for f in (0..3000).filter(|f| f % 3 != 0) {
        assert!(stdout.contains(&format!("d/{f:04}:http://h{f}.example/\n")));
    }
    for line in stderr.lines() {
        let name = line
            .strip_prefix("urifind: d/")
            .and_then(|l| l.strip_suffix(": No such file or directory"))
            .unwrap_or_else(|| panic!("unexpected message {line:?}"));
        assert_eq!(name.parse::<u32>().unwrap() % 3, 0, "{line}");
    }
    let want = if stderr.is_empty() { 0 } else { 2 };
    assert_eq!(out.status.code(), Some(want), "{stderr}");
}

// Debug builds check the scanner's one-pass ways against the general way
// by reading the same bytes twice, and a file truncated under its map
// changes between the reads (its pages turn to zeros): the check would
// report that, not the command. CI runs this test on a release build.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "debug builds read bytes twice to cross-check; run with --release"
)]
fn file_truncated_while_read_ends_early_without_error() {
    let d = tmp();
    let mut big = Vec::new();
    for i in 0..400_000 {
        big.extend_from_slice(
            format!("w http://h.example/{i} w\n").as_bytes(),
        );
    }
    write(d.path(), "big.txt", &big);
    let child = urifind()
        .current_dir(d.path())
        .args(["-c", "big.txt"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    fs::OpenOptions::new()
        .write(true)
        .open(d.path().join("big.txt"))
        .unwrap()
        .set_len(1000)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    // A shrunken file reads as a shorter one: what was read is counted,
    // nothing is reported, the status says whether anything was found.
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let n: u64 =
        String::from_utf8(out.stdout).unwrap().trim().parse().unwrap();
    assert!(n <= 400_000);
    assert_eq!(out.status.code(), Some(if n > 0 { 0 } else { 1 }));
}

#[cfg(unix)]
fn mkfifo(p: &Path) -> bool {
    Command::new("mkfifo").arg(p).status().is_ok_and(|s| s.success())
}

#[cfg(unix)]
#[test]
fn fifo_named_is_read_fifo_in_walk_is_skipped() {
    let d = tree();
    let p = d.path();
    if !mkfifo(&p.join("docs/pipe")) {
        eprintln!("mkfifo unavailable; FIFO test skipped");
        return;
    }
    // In a walk: skipped (reading it would block forever).
    let o = run_in(Some(p), &["-l", "docs"], b"");
    assert_eq!(o.lines(), ["docs/a.txt", "docs/b.txt", "docs/sub/c.txt"]);
    assert_eq!(o.code, 0);
    // Named: read like a file.
    let fifo = p.join("docs/pipe");
    let writer = std::thread::spawn(move || {
        let mut f = fs::OpenOptions::new().write(true).open(fifo).unwrap();
        f.write_all(b"from a pipe: http://fifo.example/\n").unwrap();
    });
    let o = run_in(Some(p), &["docs/pipe"], b"");
    writer.join().unwrap();
    assert_eq!(o.lines(), ["http://fifo.example/"]);
}

#[test]
fn closed_stdout_ends_quietly_with_status_0() {
    // `urifind big | head -1`.
    let d = tmp();
    let mut big = Vec::new();
    for i in 0..200_000 {
        big.extend_from_slice(
            format!("line {i} http://h.example/{i}\n").as_bytes(),
        );
    }
    write(d.path(), "big.txt", &big);
    let mut child = urifind()
        .current_dir(d.path())
        .arg("big.txt")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut sout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    sout.read_line(&mut line).unwrap();
    assert_eq!(line, "http://h.example/0\n");
    drop(sout);
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(err, "");
    assert_eq!(status.code(), Some(0));
}

#[test]
fn closed_stdout_in_check_mode_ends_quietly() {
    let d = tmp();
    let mut big = Vec::new();
    for i in 0..300_000 {
        big.extend_from_slice(format!("http://h.example/{i}\n").as_bytes());
    }
    write(d.path(), "uris.txt", &big);
    let mut child = urifind()
        .current_dir(d.path())
        .args(["--check", "--json", "uris.txt"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut sout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    sout.read_line(&mut line).unwrap();
    assert!(line.starts_with("{\"line\":1,"), "{line}");
    drop(sout);
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    assert_eq!((status.code(), err.as_str()), (Some(0), ""));
}

#[test]
fn closed_stdout_in_a_parallel_walk_ends_quietly() {
    let d = tmp();
    for f in 0..40 {
        let mut text = Vec::new();
        for i in 0..5_000 {
            text.extend_from_slice(
                format!("x http://h{f}.example/{i}\n").as_bytes(),
            );
        }
        write(d.path(), &format!("d/{f:02}.txt"), &text);
    }
    let mut child = urifind()
        .current_dir(d.path())
        .args(["-j", "2", "d"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut sout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    sout.read_line(&mut line).unwrap();
    assert_eq!(line, "d/00.txt:http://h0.example/0\n");
    drop(sout);
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    assert_eq!((status.code(), err.as_str()), (Some(0), ""));
}

#[test]
fn bracket_bound() {
    let input = b"see <http://a.example/x\n  y>\n";
    assert_eq!(run(&[], input).lines(), ["http://a.example/xy"]);
    // Past the bound the '<' delimits nothing: the URI is read bare.
    let o = run(&["--bracket-bound", "10"], input);
    assert_eq!(o.lines(), ["http://a.example/x"]);
}

#[test]
fn invalid_arguments_are_status_2() {
    for (args, msg) in [
        (&["--bogus"][..], "--bogus"),
        (&["--grammar", "rfc1738"], "unknown grammar"),
        (&["-j", "0"], "at least 1"),
        (&["--scheme", "9p"], "invalid scheme"),
        (&["--color", "blue"], "blue"),
        (&["--hyphen", "maybe"], "maybe"),
        (&["--check", "--parse"], "cannot be used"),
        (&["--absolute"], "--check"),
        (&["-c", "-l"], "cannot be used"),
    ] {
        let o = run(args, TWO);
        assert_eq!(o.code, 2, "{args:?}");
        assert!(o.stderr.contains(msg), "{args:?}: {}", o.stderr);
        assert_eq!(o.text(), "", "{args:?}");
    }
}

#[test]
fn found_plus_error_is_status_2() {
    let d = two_files();
    let o = run_in(Some(d.path()), &["nope", "a.txt"], b"");
    assert_eq!(o.code, 2);
    assert_eq!(o.lines().len(), 2);
}

// ---- help, man page, completions ------------------------------------

#[test]
fn help_version_and_generate() {
    let o = run(&["--help"], b"");
    assert_eq!(o.code, 0);
    assert!(o.text().contains("Examples:"));
    assert!(o.text().contains("--check"));
    let o = run(&["--version"], b"");
    assert!(o.text().starts_with("urifind "));
    let o = run(&["--generate", "man"], b"");
    assert!(o.text().contains(".TH urifind"));
    assert_eq!(o.code, 0);
    let o = run(&["--generate", "complete-bash"], b"");
    assert!(o.text().contains("_urifind"));
    let o = run(&["--generate", "complete-zsh"], b"");
    assert!(o.text().contains("#compdef urifind"));
    let o = run(&["--generate", "complete-fish"], b"");
    assert!(o.text().contains("complete -c urifind"));
}

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
    assert_eq!(v[0]["context"], "angle");
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
