//! Directories and what a walk meets: sorting, parallel output, binary
//! files, gzip, globs, ignore files, hidden files and links.

use super::*;

// ---- directories, binary, gzip --------------------------------------

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
    let o = run_in(Some(d.path()), &["-c", "--include-zero", "docs"], b"");
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
fn binary_file_in_a_walk_is_skipped_silently_named_one_with_a_note() {
    let d = tree();
    write(d.path(), "docs/bin.dat", b"http://bin.example/\0\x01\x02");
    let o = run_in(Some(d.path()), &["-l", "docs"], b"");
    assert_eq!(o.lines(), ["docs/a.txt", "docs/b.txt", "docs/sub/c.txt"]);
    assert_eq!(o.stderr, "", "a walk says nothing about binary files");
    assert_eq!(o.code, 0);
    let o = run_in(Some(d.path()), &["docs/bin.dat"], b"");
    assert_eq!(
        o.stderr,
        "urifind: docs/bin.dat: binary file skipped (a NUL byte in its \
         first 8 KiB; -a searches it)\n"
    );
    assert_eq!((o.lines().len(), o.code), (0, 1));
    let o = run_in(Some(d.path()), &["-a", "docs/bin.dat"], b"");
    assert_eq!(o.lines(), ["http://bin.example/"]);
    assert_eq!(o.stderr, "");
}

#[test]
fn gzip_without_z_is_skipped_and_the_note_suggests_z() {
    let d = tree();
    let mut gz = flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::default(),
    );
    gz.write_all(b"http://gz.example/\n").unwrap();
    write(d.path(), "docs/old.txt.gz", &gz.finish().unwrap());
    let o = run_in(Some(d.path()), &["-c", "--include-zero", "docs"], b"");
    assert_eq!(o.stderr, "");
    assert!(!o.text().contains("old.txt.gz"), "{}", o.text());
    let o = run_in(Some(d.path()), &["docs/old.txt.gz"], b"");
    assert!(o.stderr.contains("docs/old.txt.gz: gzip file"), "{}", o.stderr);
    assert!(o.stderr.contains("-z"), "{}", o.stderr);
    assert!(!o.stderr.contains("-a"), "-a does not read gzip: {}", o.stderr);
    assert_eq!(o.code, 1);
    let o = run_in(Some(d.path()), &["-z", "docs/old.txt.gz"], b"");
    assert_eq!(o.lines(), ["http://gz.example/"]);
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

#[test]
fn count_of_a_truncated_gzip_is_what_was_read_before_the_error() {
    let d = tmp();
    let mut text = Vec::new();
    for i in 0..2000 {
        text.extend_from_slice(
            format!("line {i} http://h{i}.example/\n").as_bytes(),
        );
    }
    let mut gz = flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::default(),
    );
    gz.write_all(&text).unwrap();
    let full = gz.finish().unwrap();
    write(d.path(), "cut.gz", &full[..full.len() / 2]);
    let o = run_in(Some(d.path()), &["-z", "cut.gz"], b"");
    let read = o.lines().len();
    assert!(read > 0 && read < 2000, "{read}");
    let o = run_in(Some(d.path()), &["-z", "-c", "cut.gz"], b"");
    assert_eq!(o.lines(), [read.to_string()]);
    assert!(o.stderr.starts_with("urifind: cut.gz: "), "{}", o.stderr);
    assert_eq!(o.code, 2);
    // Among other files, in parallel, too.
    write(d.path(), "ok.txt", b"http://ok.example/\n");
    let o =
        run_in(Some(d.path()), &["-z", "-c", "-j2", "cut.gz", "ok.txt"], b"");
    assert_eq!(o.lines(), [format!("cut.gz:{read}"), "ok.txt:1".into()]);
    assert_eq!(o.code, 2);
}

// ---- walking: globs, ignore files, hidden files, links ---------------

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
    let o = run_in(Some(p), &["-c", "--include-zero", "m"], b"");
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
