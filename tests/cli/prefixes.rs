//! Several files: names, line/column/offset prefixes, counts, file
//! lists, uniqueness and color.

use super::*;

// ---- files, names, prefixes ------------------------------------------

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
    // As ripgrep: no zero counts unless --include-zero, a single file
    // named too.
    let o = run_in(Some(d.path()), &["-c", "a.txt", "b.txt"], b"");
    assert_eq!(o.lines(), ["a.txt:2"]);
    assert_eq!(o.code, 0);
    let args = ["-c", "--include-zero", "a.txt", "b.txt"];
    let o = run_in(Some(d.path()), &args, b"");
    assert_eq!(o.lines(), ["a.txt:2", "b.txt:0"]);
    let o = run_in(Some(d.path()), &["-c", "b.txt"], b"");
    assert_eq!((o.lines(), o.code), (Vec::<String>::new(), 1));
    let o = run_in(Some(d.path()), &["-c", "--include-zero", "b.txt"], b"");
    assert_eq!((o.lines(), o.code), (vec!["0".to_string()], 1));
    let o = run_in(Some(d.path()), &["-c", "."], b"");
    assert_eq!(o.lines(), ["./a.txt:2", "./c.txt:1"]);
    let o = run_in(Some(d.path()), &["-c", "--json", "."], b"");
    assert_eq!(json_lines(&o).len(), 2);
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
