//! The urifind command run as a process, one file per topic: stdin
//! filters, files, directories, pipes, every option, every exit status,
//! and the faults a grep-like tool must survive (unreadable paths, FIFOs,
//! symlink loops, binary data, closed stdout, bad arguments).
//!
//! Inputs are small and their expected URIs follow docs/CONTRACT.md. Paths are
//! given relative to a temporary directory (the child's working
//! directory) so the printed names are predictable.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

mod faults;
mod filter;
mod grep;
mod help;
mod json;
mod large;
mod lines;
mod prefixes;
mod readme;
mod schema;
mod select;
mod walk;

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

/// What the command printed, its standard output read as UTF-8 (for
/// the tests of other files that compare text).
pub(crate) struct TextOut {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// Runs urifind with `args`, feeding `stdin`; its output as text.
pub(crate) fn run_text(args: &[&str], stdin: &[u8]) -> TextOut {
    let out = run(args, stdin);
    TextOut {
        code: out.code,
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: out.stderr,
    }
}

/// The JSON lines urifind printed.
pub(crate) fn text_json(out: &TextOut) -> Vec<serde_json::Value> {
    out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The shipped file `corpora/DIR/NAME`.
pub(crate) fn corpus(dir: &str, name: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora").join(dir);
    fs::read(p.join(name)).unwrap()
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

fn tree() -> tempfile::TempDir {
    let d = tmp();
    write(d.path(), "docs/b.txt", b"<http://b.example/>\n");
    write(d.path(), "docs/a.txt", b"http://a.example/ http://a2.example/\n");
    write(d.path(), "docs/sub/c.txt", b"http://c.example/\n");
    write(d.path(), "docs/z.txt", b"no uri\n");
    d
}

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
