//! Help, man page and shell completions: every example pastes into a
//! shell as it stands, the man page has sections of its own for the
//! examples and the exit status, and completions offer the values of
//! options that take one of a list.

use super::*;

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

#[test]
fn help_examples_paste_into_a_shell() {
    let o = run(&["--help"], b"");
    let text = o.text();
    assert!(
        text.contains("urifind --resolve 'http://a/b/c/d;p?q' refs.txt"),
        "{text}"
    );
    assert!(!text.contains("--resolve http://a/b/c/d;p?q"), "{text}");
    // Each example, as the shell splits it, keeps its words: no ';' or
    // '?' left for the shell to act on outside quotes.
    let examples = text.split("Examples:").nth(1).unwrap();
    for line in examples.lines().filter(|l| l.starts_with("  urifind ")) {
        let cmd = line.trim_start();
        let unquoted: String = cmd.split('\'').step_by(2).collect();
        assert!(!unquoted.contains(';'), "{cmd}");
    }
}

#[test]
fn man_page_has_examples_and_exit_status_sections() {
    let o = run(&["--generate", "man"], b"");
    let man = o.text();
    assert!(!man.contains(".SH EXTRA"), "{man}");
    assert!(man.contains("\n.SH EXAMPLES\n"), "{man}");
    assert!(man.contains("\n.SH \"EXIT STATUS\"\n"), "{man}");
    // Each example is one line of its own, in bold, quotes kept.
    assert!(
        man.contains(
            "\n\\fBurifind \\-\\-resolve \\*(Aqhttp://a/b/c/d;p?q\\*(Aq refs.txt\\fR\n"
        ),
        "{man}"
    );
    assert!(
        man.contains("\n\\fBurifind \\-q notes.txt && echo yes\\fR\n"),
        "{man}"
    );
}

/// What bash completion offers after `words` (the last one being
/// completed), or `None` when bash cannot be run.
fn bash_completes(words: &[&str]) -> Option<Vec<String>> {
    let script = run(&["--generate", "complete-bash"], b"").text();
    let d = tmp();
    write(d.path(), "complete.bash", script.as_bytes());
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let prog = format!(
        "source ./complete.bash; COMP_WORDS=({}); COMP_CWORD={}; \
         COMP_LINE=\"${{COMP_WORDS[*]}}\"; COMP_POINT=${{#COMP_LINE}}; \
         _urifind urifind '{}' '{}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        quoted.join(" "),
        words.len() - 1,
        words[words.len() - 1],
        words[words.len() - 2],
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(prog)
        .current_dir(d.path())
        .output()
        .ok()?;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut v: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    v.sort();
    Some(v)
}

#[test]
fn bash_completion_offers_values_not_file_names() {
    let Some(got) = bash_completes(&["urifind", "--grammar", "rfc"]) else {
        return;
    };
    assert_eq!(got, ["rfc2396", "rfc2396bis", "rfc3986"]);
    let got = bash_completes(&["urifind", "--hyphen", ""]).unwrap();
    assert_eq!(got, ["both", "drop", "keep"]);
    let got = bash_completes(&["urifind", "--color", "a"]).unwrap();
    assert_eq!(got, ["always", "auto"]);
    let got = bash_completes(&["urifind", "--generate", "complete-"]).unwrap();
    assert_eq!(got, ["complete-bash", "complete-fish", "complete-zsh"]);
    // A PATH gets no list of words, so bash falls back to file names.
    let got = bash_completes(&["urifind", "-n", "rfc-"]).unwrap();
    assert_eq!(got, Vec::<String>::new());
    let script = run(&["--generate", "complete-bash"], b"").text();
    assert!(script.contains("-o default urifind"), "{script}");
}
