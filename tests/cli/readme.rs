//! The README's console examples print what the README shows: every
//! `$ COMMAND` of a `console` block that shows output and runs urifind
//! (or the `grep` it is compared with, or makes a file they read) is
//! run with `sh`, in a directory
//! holding `note.txt` (from the README's own `cat note.txt`) and the
//! shipped `corpora/`, and its standard output must be the lines shown.

use std::path::PathBuf;

use super::*;

/// One example: the command and the output the README shows.
struct Example {
    line: usize,
    command: String,
    shown: String,
}

/// The examples of the `console` blocks of `readme` that show output.
fn examples(readme: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut inside = false;
    for (i, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            inside = line == "```console";
            continue;
        }
        if !inside {
            continue;
        }
        match line.strip_prefix("$ ") {
            Some(cmd) => out.push(Example {
                line: i + 1,
                command: cmd.to_string(),
                shown: String::new(),
            }),
            None => {
                let ex = out.last_mut().expect("output after a command");
                ex.shown.push_str(line);
                ex.shown.push('\n');
            }
        }
    }
    out
}

#[test]
fn every_console_example_prints_what_the_readme_shows() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let all = examples(&readme);
    let d = tmp();
    let note = all.iter().find(|e| e.command == "cat note.txt").unwrap();
    write(d.path(), "note.txt", note.shown.as_bytes());
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("corpora"), d.path().join("corpora"))
        .unwrap();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_urifind"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    let mut wrong = Vec::new();
    for ex in &all {
        let runs = ex.command.contains("urifind")
            || ex.command.starts_with("grep ")
            || ex.command.starts_with("printf ")
            || ex.command.starts_with("cat ");
        // Commands that show nothing run only when they make a file a
        // later example reads.
        if !runs || (ex.shown.is_empty() && !ex.command.contains(" > ")) {
            continue;
        }
        let out = Command::new("sh")
            .stdin(Stdio::null())
            .arg("-c")
            .arg(&ex.command)
            .current_dir(d.path())
            .env("PATH", &path)
            .env_remove("NO_COLOR")
            .env_remove("TERM")
            .output()
            .unwrap();
        ran += 1;
        let got = String::from_utf8_lossy(&out.stdout);
        if got != ex.shown {
            wrong.push(format!(
                "README.md:{}: $ {}\n--- shown\n{}--- printed\n{}",
                ex.line, ex.command, ex.shown, got
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(ran >= 12, "only {ran} examples ran");
}

#[test]
fn examples_are_read_with_their_output() {
    let md = "x\n```console\n$ a\none\ntwo\n$ b\n```\n$ c\n```console\n$ d\n3\n```\n";
    let e = examples(md);
    let got: Vec<_> =
        e.iter().map(|e| (e.command.as_str(), e.shown.as_str())).collect();
    assert_eq!(got, [("a", "one\ntwo\n"), ("b", ""), ("d", "3\n")]);
}
