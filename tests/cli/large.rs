//! Large files, searched in memory (and on several threads): the same
//! output as a stream.

use super::*;

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
