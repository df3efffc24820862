//! Data-driven tests over the labeled cases: every `NAME.txt` in
//! `corpora/cases/` (and in `../shared/cases/` and `../shared/cases-reader/`
//! when those directories exist, both run with the default options)
//! must yield exactly the URIs listed in `NAME.expected`, in order, and the
//! streaming path must yield the same items with the same offsets as the
//! slice path whatever the read sizes. `corpora/sample.txt` is checked the
//! same way against `corpora/sample.expected`.
//!
//! Every failure is collected and printed (name, expected, got) before the
//! test fails, so one run shows the whole picture.

use std::fmt::Write as _;
use std::io::{self, Read};
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use urifind::scan::{Context, Item};
use urifind::Finder;

/// Read sizes the streaming path is exercised with.
const CHUNK_SIZES: &[usize] = &[1, 2, 3, 7, 64, 4096];

/// A reader that hands out at most `chunk` bytes per `read` call, so the
/// stream sees short reads that split the input anywhere.
struct ChunkedReader<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl Read for ChunkedReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.chunk.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// What a stream item must agree on with the slice item at the same
/// place: everything that does not depend on how the input was fed.
#[derive(Debug, PartialEq, Eq)]
enum Seen {
    Match {
        uri: String,
        span: Range<usize>,
        uri_span: Range<usize>,
        context: Context,
        without_hyphen: Option<String>,
    },
    Rejected {
        candidate: String,
        span: Range<usize>,
        offset: usize,
    },
}

fn show(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Shortens long values (some cases hold URIs of tens of kilobytes) so
/// that failure reports stay readable.
fn abbreviate<T: std::fmt::Debug>(v: &T) -> String {
    const MAX: usize = 400;
    let s = format!("{v:?}");
    if s.len() <= MAX {
        return s;
    }
    let mut cut = MAX;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}... ({} bytes)", &s[..cut], s.len())
}

fn seen(item: &Item<'_>) -> Seen {
    match item {
        Item::Match(m) => Seen::Match {
            uri: show(m.uri()),
            span: m.span(),
            uri_span: m.uri_span(),
            context: m.context(),
            without_hyphen: m.without_hyphen().map(show),
        },
        Item::Rejected(r) => Seen::Rejected {
            candidate: show(r.candidate()),
            span: r.span(),
            offset: r.offset(),
        },
        _ => panic!("an item of a kind these tests do not know"),
    }
}

/// The expected URIs: one per line, trailing CR stripped, blank lines
/// ignored (the convention of `../shared/score.py`).
fn parse_expected(data: &[u8]) -> Vec<String> {
    data.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
        .map(show)
        .collect()
}

fn panic_message(e: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = e.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = e.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic".to_string()
    }
}

/// Checks one input; returns a description of every problem found.
fn check_one(name: &str, input: &[u8], expected: &[String]) -> Vec<String> {
    let mut problems = Vec::new();
    let finder = Finder::new();
    let got = catch_unwind(AssertUnwindSafe(|| {
        finder.find_iter(input).map(|m| show(m.uri())).collect::<Vec<_>>()
    }));
    match got {
        Err(e) => problems.push(format!(
            "{name}: find_iter panicked: {}\n  expected: {}",
            panic_message(e),
            abbreviate(&expected)
        )),
        Ok(got) if got != expected => problems.push(format!(
            "{name}: wrong URIs\n  expected: {}\n  got:      {}",
            abbreviate(&expected),
            abbreviate(&got)
        )),
        Ok(_) => {}
    }
    stream_agrees(name, "", &finder, input, &mut problems);
    // With rejected candidates reported too, their offsets must also be
    // the same whichever way the input is fed.
    let with_rejected = Finder::builder().rejected(true).build().unwrap();
    stream_agrees(
        name,
        " (rejected on)",
        &with_rejected,
        input,
        &mut problems,
    );
    problems
}

/// Checks that streaming `input` through `finder` at every read size in
/// [`CHUNK_SIZES`] yields the same items, offsets included, as the slice
/// path; `mode` labels the finder's options in reports.
fn stream_agrees(
    name: &str,
    mode: &str,
    finder: &Finder,
    input: &[u8],
    problems: &mut Vec<String>,
) {
    let slice = match catch_unwind(AssertUnwindSafe(|| {
        finder.items(input).map(|i| seen(&i)).collect::<Vec<_>>()
    })) {
        Ok(items) => items,
        Err(e) => {
            problems.push(format!(
                "{name}{mode}: items panicked: {}",
                panic_message(e)
            ));
            return;
        }
    };
    for &chunk in CHUNK_SIZES {
        let streamed = catch_unwind(AssertUnwindSafe(|| {
            let rdr = ChunkedReader { data: input, chunk };
            finder
                .stream(rdr)
                .map(|r| r.map(|i| seen(&i)))
                .collect::<io::Result<Vec<_>>>()
        }));
        match streamed {
            Err(e) => {
                problems.push(format!(
                    "{name}{mode}: stream (chunk {chunk}) panicked: {}",
                    panic_message(e)
                ));
                // The other chunk sizes would panic the same way.
                break;
            }
            Ok(Err(e)) => problems.push(format!(
                "{name}{mode}: stream (chunk {chunk}) error: {e}"
            )),
            Ok(Ok(items)) if items != slice => {
                // Show the first item where the two runs part ways.
                let at = slice
                    .iter()
                    .zip(&items)
                    .position(|(a, b)| a != b)
                    .unwrap_or(slice.len().min(items.len()));
                problems.push(format!(
                    "{name}{mode}: stream (chunk {chunk}) differs from \
                     slice at item {at} ({} vs {} items)\n  slice:  {}\n  \
                     stream: {}",
                    slice.len(),
                    items.len(),
                    abbreviate(&slice.get(at)),
                    abbreviate(&items.get(at))
                ));
            }
            Ok(Ok(_)) => {}
        }
    }
}

/// The `NAME.txt` files of a case directory, sorted.
fn case_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
}

/// Runs every case of `dir`; panics with every failure listed.
fn run_dir(dir: &Path) {
    let files = case_files(dir);
    assert!(!files.is_empty(), "{}: no cases", dir.display());
    let mut failures = Vec::new();
    let mut failed_cases = Vec::new();
    for txt in &files {
        let name = txt.file_stem().unwrap().to_string_lossy().into_owned();
        let exp_path = txt.with_extension("expected");
        let input = std::fs::read(txt).expect("read case input");
        let expected = match std::fs::read(&exp_path) {
            Ok(data) => parse_expected(&data),
            Err(e) => {
                failures.push(format!("{name}: {}: {e}", exp_path.display()));
                failed_cases.push(name);
                continue;
            }
        };
        let problems = check_one(&name, &input, &expected);
        if !problems.is_empty() {
            failed_cases.push(name);
            failures.extend(problems);
        }
    }
    if !failures.is_empty() {
        let mut report = String::new();
        for f in &failures {
            writeln!(report, "{f}").unwrap();
        }
        panic!(
            "{}: {} of {} cases failed:\n{report}\nfailed cases: {}",
            dir.display(),
            failed_cases.len(),
            files.len(),
            failed_cases.join(" ")
        );
    }
}

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn own_cases() {
    run_dir(&manifest_dir().join("corpora/cases"));
}

#[test]
fn shared_cases() {
    let dir = manifest_dir().join("../shared/cases");
    if dir.is_dir() {
        run_dir(&dir);
    }
}

#[test]
fn shared_reader_cases() {
    let dir = manifest_dir().join("../shared/cases-reader");
    if dir.is_dir() {
        run_dir(&dir);
    }
}

#[test]
fn sample_text() {
    let dir = manifest_dir().join("corpora");
    let input = std::fs::read(dir.join("sample.txt")).expect("sample.txt");
    let expected = parse_expected(
        &std::fs::read(dir.join("sample.expected")).expect("sample.expected"),
    );
    assert!(!expected.is_empty(), "sample.expected lists no URI");
    let problems = check_one("sample", &input, &expected);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn expected_files_are_well_formed() {
    // Every case has both files, and every expected line is a plain ASCII
    // URI without spaces: a typo in a label must not pass silently.
    for txt in case_files(&manifest_dir().join("corpora/cases")) {
        let exp = txt.with_extension("expected");
        let data = std::fs::read(&exp)
            .unwrap_or_else(|e| panic!("{}: {e}", exp.display()));
        for uri in parse_expected(&data) {
            assert!(
                uri.bytes().all(|b| b.is_ascii_graphic()),
                "{}: not a plain ASCII URI: {uri:?}",
                exp.display()
            );
            assert!(uri.contains(':'), "{}: no scheme: {uri}", exp.display());
        }
    }
}
