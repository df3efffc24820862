//! The command in mail mode: `--mail`, `--mail=auto` (the default),
//! `--mail=never`, `--html-resources`, plain output pointing into the raw
//! file, JSON fields, Maildir walks and gzip'd mboxes.

use std::io::Write;

use crate::cli::run_text as run;

fn corpus(name: &str) -> Vec<u8> {
    crate::cli::corpus("mail", name)
}

const QP: &[u8] = b"From: Ana <ana@example.org>\n\
Date: Tue, 3 Nov 2026 10:00:00 +0100\n\
Message-ID: <m1@example.org>\n\
Content-Type: text/plain; charset=utf-8\n\
Content-Transfer-Encoding: quoted-printable\n\
\n\
The bug is https://bugs.example.org/show_bug.cgi?id=3D210337 and https://gro=\n\
ups.example.com/d/x.\n";

#[test]
fn auto_detects_mail_and_never_reads_raw() {
    let auto = run(&[], QP);
    assert_eq!(auto.code, 0);
    assert_eq!(
        auto.stdout,
        "https://bugs.example.org/show_bug.cgi?id=210337\n\
         https://groups.example.com/d/x\n"
    );
    let forced = run(&["--mail"], QP);
    assert_eq!(forced.stdout, auto.stdout);
    let raw = run(&["--mail=never"], QP);
    assert!(raw.stdout.contains("id=3D210337"), "{}", raw.stdout);
}

#[test]
fn plain_text_is_not_mail_by_default() {
    let text = b"Subject: not a message\nsee https://a.example/x=\nz\n";
    assert_eq!(run(&[], text).stdout, "https://a.example/x=\n");
}

#[test]
fn offsets_and_lines_point_into_the_raw_input() {
    let out = run(&["-n", "-b", "--column"], QP);
    let lines: Vec<&str> = out.stdout.lines().collect();
    // Line 7, column 12, byte offset of the 'h' in the raw input.
    let raw = std::str::from_utf8(QP).unwrap();
    let at = raw.find("https://bugs").unwrap();
    assert_eq!(
        lines[0],
        format!("7:12:{at}:https://bugs.example.org/show_bug.cgi?id=210337")
    );
    let at = raw.find("https://gro").unwrap();
    assert!(
        lines[1].ends_with(&format!(":{at}:https://groups.example.com/d/x"))
    );
}

#[test]
fn json_says_where_each_uri_came_from() {
    let out = run(&["--json"], &corpus("html-newsletter.eml"));
    let v: Vec<serde_json::Value> =
        out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(v[0]["context"], "header:List-Unsubscribe");
    assert_eq!(v[0]["message"], 1);
    assert_eq!(v[0]["message_id"], "nl.2026-11.ana@example.com");
    let bad = v
        .iter()
        .find(|m| {
            m["uri"]
                == "http://login-example.com.attacker.example/verify?id=77"
        })
        .unwrap();
    assert_eq!(bad["context"], "html-href");
    assert_eq!(bad["shown"], "https://www.example.com/account");
    assert_eq!(bad["part"], "1");
    assert_eq!(bad["content_type"], "text/html");
    assert_eq!(bad["encoding"], "quoted-printable");
    assert_eq!(bad["delimiter"], "angle");
}

#[test]
fn html_resources_on_request() {
    let input = corpus("html-newsletter.eml");
    let without = run(&["--mail"], &input).stdout;
    let with = run(&["--mail", "--html-resources"], &input).stdout;
    assert!(!without.contains("logo.png"));
    assert!(with.contains("https://cdn.example.com/logo.png"));
    assert!(with.contains("http://www.w3.org/TR/html4/loose.dtd"));
}

#[test]
fn maildir_walk_lists_messages_with_uris() {
    let d = tempfile::tempdir().unwrap();
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(d.path().join(sub)).unwrap();
    }
    std::fs::write(d.path().join("cur/1.host:2,S"), QP).unwrap();
    std::fs::write(
        d.path().join("new/2.host"),
        b"From: a@example.org\nDate: x\n\nno links here\n",
    )
    .unwrap();
    let dir = d.path().to_str().unwrap();
    let out = run(&["--mail", "-l", dir], b"");
    assert_eq!(out.code, 0);
    let names: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(names.len(), 1);
    assert!(names[0].ends_with("cur/1.host:2,S"));
}

#[test]
fn gzip_mbox_with_mail() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("archive.mbox.gz");
    let mut gz =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&corpus("archive.mbox")).unwrap();
    std::fs::write(&p, gz.finish().unwrap()).unwrap();
    let out = run(&["--mail", p.to_str().unwrap()], b"");
    let want = String::from_utf8(corpus("archive.expected")).unwrap();
    assert_eq!(out.stdout, want);
}

#[test]
fn usage_errors() {
    let out = run(&["--mail=sometimes"], b"");
    assert_eq!(out.code, 2);
    let out = run(&["--check", "--mail"], b"");
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("--mail"));
}

#[test]
fn notes_on_broken_mail_under_rejected() {
    let input = corpus("broken-parts.eml");
    let quiet = run(&["--mail"], &input);
    assert!(quiet.stderr.is_empty(), "{}", quiet.stderr);
    let noisy = run(&["--mail", "--json"], &input);
    assert!(noisy.stderr.contains("bad base64"), "{}", noisy.stderr);
}

#[test]
fn binary_files_of_a_mail_store_are_skipped() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("1.eml"), QP).unwrap();
    std::fs::write(
        d.path().join("dovecot.index"),
        b"\x01\x00\x00http://idx.example/\x00",
    )
    .unwrap();
    let out = run(&["--mail", "-c", d.path().to_str().unwrap()], b"");
    assert!(out.stdout.contains("1.eml:2"), "{}", out.stdout);
    assert!(!out.stdout.contains("dovecot.index:"), "{}", out.stdout);
    // Silently in a walk, as ripgrep; named, with a note.
    assert_eq!(out.stderr, "");
    let index = d.path().join("dovecot.index");
    let out = run(&["--mail", "-c", index.to_str().unwrap()], b"");
    assert!(out.stderr.contains("binary file skipped"), "{}", out.stderr);
}

#[test]
fn a_message_over_the_size_limit_is_skipped_and_the_run_goes_on() {
    let mut mbox =
        b"From a@b Tue Nov  3 10:00:00 2026\nSubject: big\n\n".to_vec();
    mbox.extend(std::iter::repeat_n(b'x', 3000));
    mbox.extend_from_slice(b" http://big.example/\n\n");
    mbox.extend_from_slice(
        b"From c@d Tue Nov  3 10:00:00 2026\nSubject: small\n\nhttp://ok.example/\n",
    );
    let out = run(&["--mail", "--max-message-size", "2K"], &mbox);
    assert_eq!(out.stdout, "http://ok.example/\n");
    assert_eq!(out.code, 2, "a skipped message ends the run with status 2");
    assert!(out.stderr.contains("message 1"), "{}", out.stderr);
    assert!(out.stderr.contains("limit of 2048 bytes"), "{}", out.stderr);
    // Under the default limit both are read.
    let all = run(&["--mail"], &mbox);
    assert_eq!(all.stdout, "http://big.example/\nhttp://ok.example/\n");
    assert_eq!(all.code, 0);
    // Sizes take K, M and G; anything else is a usage error.
    assert_eq!(run(&["--mail", "--max-message-size", "1g"], &mbox).code, 0);
    for bad in ["0", "2X", "K", "-1", "99999999999999999999G"] {
        let arg = format!("--max-message-size={bad}");
        let o = run(&["--mail", &arg], &mbox);
        assert_eq!(o.code, 2, "{bad}");
        assert!(
            o.stderr.contains("--max-message-size"),
            "{bad}: {}",
            o.stderr
        );
    }
}
