//! The grep and ripgrep flags a user types without thinking: `-q`, `-s`,
//! `-m`, `--files-without-match`, `-t`/`-T`/`--type-list`, and what a
//! walk leaves out (`.git`), with the exit statuses of each.

use super::*;

/// A directory with a file holding URIs, one holding none, and a
/// repository's `.git` and a Maildir++ folder, both holding URIs.
fn repo() -> tempfile::TempDir {
    let d = tmp();
    let p = d.path();
    write(
        p,
        "r/a.txt",
        b"http://a.example/1 http://a.example/2\nhttp://a.example/3\n",
    );
    write(p, "r/b.txt", b"no address here\n");
    write(p, "r/page.html", b"<a href=\"http://html.example/\">x</a>\n");
    write(
        p,
        "r/style.css",
        b"body { background: url(http://css.example/) }\n",
    );
    write(p, "r/.git/config", b"url = https://git.example/repo.git\n");
    write(p, "r/.git/logs/HEAD", b"clone: from https://git.example/\n");
    write(p, "r/.Sent/cur/1", b"http://sent.example/\n");
    d
}

#[test]
fn quiet_prints_nothing_and_says_found_by_its_status() {
    let d = repo();
    let o = run_in(Some(d.path()), &["-q", "r"], b"");
    assert_eq!((o.stdout.len(), o.stderr.as_str(), o.code), (0, "", 0));
    let o = run_in(Some(d.path()), &["-q", "r/b.txt"], b"");
    assert_eq!((o.stdout.len(), o.code), (0, 1));
    let o = run(&["--quiet", "-c"], b"http://a.example/\n");
    assert_eq!((o.stdout.len(), o.code), (0, 0));
    // A match wins over an error under -q (as grep and ripgrep), and the
    // error is still reported; without a match the error is status 2.
    let o = run_in(Some(d.path()), &["-q", "missing", "r/a.txt"], b"");
    assert_eq!(o.code, 0);
    assert!(o.stderr.contains("missing"), "{}", o.stderr);
    let o = run_in(Some(d.path()), &["-q", "missing", "r/b.txt"], b"");
    assert_eq!(o.code, 2);
    for j in ["-j1", "-j4"] {
        let o = run_in(Some(d.path()), &["-q", j, "r", "missing"], b"");
        assert_eq!((o.stdout.len(), o.code), (0, 0), "{j}");
    }
}

#[test]
fn quiet_stops_at_the_first_uri() {
    // An endless input: only stopping at the first URI lets this end.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_urifind"))
        .arg("-q")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut sin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = sin.write_all(b"http://first.example/\n");
        let line = [b'x'; 4096];
        // Ends when urifind has gone (a broken pipe), or after 1 GiB.
        for _ in 0..(1 << 18) {
            if sin.write_all(&line).is_err() {
                return true;
            }
        }
        false
    });
    let st = child.wait().unwrap();
    assert_eq!(st.code(), Some(0));
    assert!(feeder.join().unwrap(), "urifind read all of the input");
}

#[test]
fn no_messages_silences_input_errors_not_the_status() {
    let d = repo();
    write(d.path(), "bin.dat", b"x\0y http://b.example/");
    let args = ["-s", "missing", "bin.dat", "r/a.txt"];
    let o = run_in(Some(d.path()), &args, b"");
    assert_eq!(o.stderr, "");
    assert_eq!(o.lines().len(), 3);
    assert_eq!(o.code, 2);
    let o = run_in(Some(d.path()), &["--no-messages", "missing"], b"");
    assert_eq!((o.stderr.as_str(), o.code), ("", 2));
    // The line modes too: an input that cannot be read; not the
    // invalid lines, which are their output.
    let o = run_in(Some(d.path()), &["--check", "-s", "missing"], b"");
    assert_eq!((o.stderr.as_str(), o.code), ("", 2));
    let o = run(&["--check", "-s"], b"http://a/%zz\n");
    assert!(o.text().starts_with("-:1:"), "{}", o.text());
    // Usage errors are still reported.
    let o = run(&["-s", "--threads", "0"], b"");
    assert!(o.stderr.contains("--threads"), "{}", o.stderr);
}

#[test]
fn max_count_stops_each_file_after_num_uris() {
    let d = repo();
    let o = run_in(Some(d.path()), &["-m", "2", "r/a.txt"], b"");
    assert_eq!(o.lines(), ["http://a.example/1", "http://a.example/2"]);
    assert_eq!(o.code, 0);
    let o = run_in(Some(d.path()), &["-m1", "-c", "r/a.txt"], b"");
    assert_eq!(o.lines(), ["1"]);
    let o = run_in(Some(d.path()), &["--max-count=0", "r/a.txt"], b"");
    assert_eq!((o.lines().len(), o.code), (0, 1));
    // Per file, in a walk on one thread or several.
    for j in ["-j1", "-j3"] {
        let o = run_in(Some(d.path()), &["-m1", j, "-t", "txt", "r"], b"");
        assert_eq!(o.lines(), ["r/a.txt:http://a.example/1"], "{j}");
    }
    // With -u the limit counts URIs printed, repeats left out.
    let o =
        run(&["-u", "-m", "2"], b"http://x/ http://x/ http://y/ http://z/\n");
    assert_eq!(o.lines(), ["http://x/", "http://y/"]);
    assert!(run(&["-m", "x"], b"").code == 2);
}

#[test]
fn files_without_match_lists_files_with_no_uri() {
    let d = repo();
    let o = run_in(Some(d.path()), &["--files-without-match", "r"], b"");
    assert_eq!(o.lines(), ["r/b.txt"]);
    assert_eq!(o.code, 0);
    // Nothing listed is status 1, as in ripgrep.
    let o = run_in(Some(d.path()), &["--files-without-match", "r/a.txt"], b"");
    assert_eq!((o.lines().len(), o.code), (0, 1));
    let o = run_in(
        Some(d.path()),
        &["--files-without-match", "--json", "-j1", "r"],
        b"",
    );
    let v = json_lines(&o);
    assert_eq!(v.len(), 1);
    assert_eq!(
        (&v[0]["type"], &v[0]["path"]),
        (&"file".into(), &"r/b.txt".into())
    );
    let o = run(&["--files-without-match", "-l"], b"");
    assert_eq!(o.code, 2);
}

#[test]
fn types_select_and_leave_out_walked_files() {
    let d = repo();
    let o = run_in(Some(d.path()), &["-t", "html", "-l", "r"], b"");
    assert_eq!(o.lines(), ["r/page.html"]);
    let o =
        run_in(Some(d.path()), &["-T", "css", "-T", "txt", "-l", "r"], b"");
    assert_eq!(o.lines(), ["r/.Sent/cur/1", "r/page.html"]);
    let o =
        run_in(Some(d.path()), &["--type=css", "--type=html", "-l", "r"], b"");
    assert_eq!(o.lines(), ["r/page.html", "r/style.css"]);
    // A file named on the command line is searched whatever its type.
    let o = run_in(Some(d.path()), &["-t", "html", "r/a.txt"], b"");
    assert_eq!(o.lines().len(), 3);
    let o = run(&["-t", "no-such-type"], b"");
    assert_eq!(o.code, 2);
    assert!(o.stderr.contains("no-such-type"), "{}", o.stderr);
}

#[test]
fn type_list_names_each_type_with_its_globs() {
    let o = run(&["--type-list"], b"");
    assert_eq!(o.code, 0);
    let lines = o.lines();
    assert!(lines
        .iter()
        .any(|l| l.starts_with("html: ") && l.contains("*.html")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("txt: ") && l.contains("*.txt")));
    let names: Vec<_> =
        lines.iter().map(|l| l.split(':').next().unwrap()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
}

#[test]
fn git_directories_are_left_out_of_walks_hidden_ones_are_not() {
    let d = repo();
    for extra in [&[][..], &["--respect-ignore"][..]] {
        let mut args = vec!["-l"];
        args.extend_from_slice(extra);
        args.push("r");
        let o = run_in(Some(d.path()), &args, b"");
        assert_eq!(
            o.lines(),
            ["r/.Sent/cur/1", "r/a.txt", "r/page.html", "r/style.css"],
            "{extra:?}"
        );
    }
    // Named on the command line, a .git directory is searched.
    let o = run_in(Some(d.path()), &["-l", "r/.git"], b"");
    assert_eq!(o.lines(), ["r/.git/config", "r/.git/logs/HEAD"]);
}
