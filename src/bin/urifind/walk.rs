//! Inputs: turning PATH arguments into a list of inputs (walking
//! directories in sorted order), opening each one (binary check, gzip),
//! and searching them, one after another or on `-j N` threads with each
//! file's output kept together and printed in the order of the list.
//!
//! Walk rules: directory entries are visited in byte order of their
//! names, so the output does not depend on the file system. Symbolic links
//! found in a walk are skipped unless `-L`; with `-L` a link back to a
//! directory being walked is reported as a loop. FIFOs, sockets and
//! devices found in a walk are skipped (reading them could block forever);
//! named explicitly on the command line, they are read.

use std::fs::{self, File};
use std::io::{self, Cursor, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use urifind::scan::Item;

use urifind::Finder;

use crate::args::{Config, Report};
use crate::output::Printer;

/// How many bytes are looked at for a NUL to call a file binary.
const BINARY_PEEK: usize = 8 * 1024;

/// One thing to search, or an error found while listing.
#[derive(Debug, PartialEq, Eq)]
pub enum Entry {
    /// Standard input.
    Stdin,
    /// A file (or FIFO named on the command line).
    File(PathBuf),
    /// A path that could not be listed or examined.
    Error(PathBuf, String),
}

impl Entry {
    /// The name printed for this entry.
    pub fn name(&self) -> Vec<u8> {
        match self {
            Entry::Stdin => b"-".to_vec(),
            Entry::File(p) | Entry::Error(p, _) => path_bytes(p),
        }
    }
}

/// The bytes of a path (lossless on Unix).
pub fn path_bytes(p: &Path) -> Vec<u8> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        p.as_os_str().as_bytes().to_vec()
    }
    #[cfg(not(unix))]
    {
        p.to_string_lossy().into_owned().into_bytes()
    }
}

/// An I/O error in words, without Rust's "(os error N)" suffix.
pub fn io_reason(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// Writes `urifind: NAME: reason` to stderr.
pub fn report_error(name: &[u8], reason: &str) {
    let mut err = io::stderr().lock();
    let _ = err.write_all(b"urifind: ");
    let _ = err.write_all(name);
    let _ = writeln!(err, ": {reason}");
}

/// Lists every input named by `paths`, walking directories.
pub fn collect(paths: &[PathBuf], follow: bool) -> Vec<Entry> {
    let mut out = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            out.push(Entry::Stdin);
            continue;
        }
        match fs::metadata(p) {
            Err(e) => out.push(Entry::Error(p.clone(), io_reason(&e))),
            Ok(md) if md.is_dir() => {
                let mut ancestors = vec![file_id(&md)];
                walk_dir(p, follow, &mut ancestors, &mut out);
            }
            Ok(_) => out.push(Entry::File(p.clone())),
        }
    }
    out
}

/// A file's identity (device and inode) for loop detection.
fn file_id(md: &fs::Metadata) -> (u64, u64) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        (md.dev(), md.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = md;
        (0, 0)
    }
}

fn walk_dir(
    dir: &Path,
    follow: bool,
    ancestors: &mut Vec<(u64, u64)>,
    out: &mut Vec<Entry>,
) {
    let rd = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => {
            out.push(Entry::Error(dir.to_path_buf(), io_reason(&e)));
            return;
        }
    };
    let mut children = Vec::new();
    for ent in rd {
        match ent {
            Ok(ent) => children.push(ent),
            Err(e) => out.push(Entry::Error(dir.to_path_buf(), io_reason(&e))),
        }
    }
    children.sort_by_key(|e| e.file_name());
    for ent in children {
        let path = ent.path();
        let ft = match ent.file_type() {
            Ok(ft) => ft,
            Err(e) => {
                out.push(Entry::Error(path, io_reason(&e)));
                continue;
            }
        };
        let md = if ft.is_symlink() {
            if !follow {
                continue;
            }
            match fs::metadata(&path) {
                Ok(md) => md,
                Err(e) => {
                    out.push(Entry::Error(path, io_reason(&e)));
                    continue;
                }
            }
        } else if ft.is_dir() {
            match fs::symlink_metadata(&path) {
                Ok(md) => md,
                Err(e) => {
                    out.push(Entry::Error(path, io_reason(&e)));
                    continue;
                }
            }
        } else if ft.is_file() {
            out.push(Entry::File(path));
            continue;
        } else {
            // FIFO, socket or device found in a walk: skipped.
            continue;
        };
        if md.is_dir() {
            let id = file_id(&md);
            if ancestors.contains(&id) {
                out.push(Entry::Error(
                    path,
                    "symbolic link loop (a link to a directory above it) \
                     not followed"
                        .into(),
                ));
                continue;
            }
            ancestors.push(id);
            walk_dir(&path, follow, ancestors, out);
            ancestors.pop();
        } else if md.is_file() {
            out.push(Entry::File(path));
        }
    }
}

/// Files at least this large are read ahead on a second thread.
const READ_AHEAD_MIN: u64 = 4 << 20;

/// An opened input, ready to scan.
pub enum Opened {
    /// Text to scan, and whether to read it ahead on a second thread.
    Text(Box<dyn Read + Send>, bool),
    /// A binary file, skipped.
    Binary,
}

/// Reads up to [`BINARY_PEEK`] bytes: until full or end of input when
/// `fill`, else with one read (so an interactive stdin is not held up).
fn peek<R: Read>(rdr: &mut R, fill: bool) -> io::Result<Vec<u8>> {
    let mut head = vec![0; BINARY_PEEK];
    let mut n = 0;
    while n < head.len() {
        match rdr.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => {
                n += k;
                if !fill {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    head.truncate(n);
    Ok(head)
}

/// Opens `entry` for scanning: decompresses gzip with `-z`, and skips
/// binary data (a NUL in the first 8 KiB) unless `-a`.
///
/// # Errors
///
/// Errors opening or reading the start of the input.
pub fn open(entry: &Entry, cfg: &Config) -> io::Result<Opened> {
    // Large files, pipes and gzip are read on a second thread while the
    // first scans (README: Performance); a read from a pipe returns what
    // has arrived, so the filter stays live.
    type Input = (Box<dyn Read + Send>, bool, bool);
    let (rdr, regular, mut ahead): Input = match entry {
        Entry::Stdin => (Box::new(io::stdin()), false, true),
        Entry::File(p) => {
            let f = File::open(p)?;
            let md = f.metadata()?;
            let big = md.is_file() && md.len() >= READ_AHEAD_MIN;
            (Box::new(f), md.is_file(), big)
        }
        Entry::Error(_, m) => return Err(io::Error::other(m.clone())),
    };
    let mut rdr = rdr;
    let mut head = peek(&mut rdr, regular)?;
    if cfg.gzip && head.starts_with(&[0x1f, 0x8b]) {
        let raw = Cursor::new(head).chain(rdr);
        // Decompression runs on its own thread, ahead of the scanner.
        let mut gz: Box<dyn Read + Send> =
            Box::new(flate2::read::MultiGzDecoder::new(raw));
        ahead = true;
        head = peek(&mut gz, true)?;
        rdr = gz;
    }
    // Standard input is a filter: it is always text (a NUL is a control
    // byte that ends a URI, SPEC.md 1.3), as in `grep -a`.
    let stdin = matches!(entry, Entry::Stdin);
    if !cfg.text && !stdin && memchr::memchr(0, &head).is_some() {
        return Ok(Opened::Binary);
    }
    Ok(Opened::Text(Box::new(Cursor::new(head).chain(rdr)), ahead))
}

/// What went wrong while scanning.
pub enum Fail {
    /// Reading the input failed (reported, the run goes on).
    Read(io::Error),
    /// Writing the output failed (the run stops).
    Write(io::Error),
}

/// Scans `rdr`, handing each item to `sink` until it returns `false`.
fn scan(
    finder: &Finder,
    (rdr, ahead): (Box<dyn Read + Send>, bool),
    count_lines: bool,
    sink: &mut dyn FnMut(Item<'static>) -> io::Result<bool>,
) -> Result<(), Fail> {
    fn drain(
        items: impl Iterator<Item = io::Result<Item<'static>>>,
        sink: &mut dyn FnMut(Item<'static>) -> io::Result<bool>,
    ) -> Result<(), Fail> {
        for item in items {
            let item = item.map_err(Fail::Read)?;
            if !sink(item).map_err(Fail::Write)? {
                break;
            }
        }
        Ok(())
    }
    if ahead {
        drain(finder.stream_read_ahead(rdr).count_lines(count_lines), sink)
    } else {
        drain(finder.stream(rdr).count_lines(count_lines), sink)
    }
}

/// How the run went.
#[derive(Clone, Copy, Debug, Default)]
pub struct Status {
    /// Something was found (printed or counted).
    pub found: bool,
    /// An error was reported.
    pub error: bool,
}

/// Does this item matter in this run (a match, or a rejected candidate
/// under `--rejected`)?
fn relevant(cfg: &Config, item: &Item<'_>) -> bool {
    matches!(item, Item::Rejected(_)) == cfg.rejected
}

fn binary_note(name: &[u8]) {
    report_error(
        name,
        "binary file skipped (a NUL byte in its first 8 KiB; -a searches it)",
    );
}

/// Searches every entry, printing through `printer`.
///
/// # Errors
///
/// Only errors writing the output; input errors are reported on stderr
/// and recorded in the returned status.
pub fn search_all<W: Write + Send>(
    entries: &[Entry],
    cfg: &Config,
    finder: &Finder,
    printer: &mut Printer<W>,
) -> io::Result<Status> {
    let threads = cfg.threads.min(entries.len()).max(1);
    if threads == 1 {
        let mut st = Status::default();
        for e in entries {
            search_one(e, cfg, finder, printer, &mut st)?;
        }
        printer.flush()?;
        return Ok(st);
    }
    search_parallel(entries, cfg, finder, printer, threads)
}

/// Searches one entry straight to the printer (no buffering of items).
fn search_one<W: Write>(
    entry: &Entry,
    cfg: &Config,
    finder: &Finder,
    printer: &mut Printer<W>,
    st: &mut Status,
) -> io::Result<()> {
    let name = entry.name();
    if let Entry::Error(_, m) = entry {
        printer.flush()?;
        report_error(&name, m);
        st.error = true;
        return Ok(());
    }
    let rdr = match open(entry, cfg) {
        Ok(Opened::Text(r, ahead)) => (r, ahead),
        Ok(Opened::Binary) => {
            binary_note(&name);
            return Ok(());
        }
        Err(e) => {
            printer.flush()?;
            report_error(&name, &io_reason(&e));
            st.error = true;
            return Ok(());
        }
    };
    printer.begin();
    let first_only = cfg.report == Report::FilesWithMatches;
    let mut found = false;
    let res = scan(finder, rdr, count_lines(cfg), &mut |item| {
        let counted = printer.item(&name, &item)?;
        found |= counted;
        Ok(!(first_only && counted))
    });
    st.found |= found;
    match res {
        Ok(()) => printer.end(&name),
        Err(Fail::Write(e)) => Err(e),
        Err(Fail::Read(e)) => {
            printer.flush()?;
            report_error(&name, &io_reason(&e));
            st.error = true;
            Ok(())
        }
    }
}

/// Whether items need line and column numbers.
pub fn count_lines(cfg: &Config) -> bool {
    cfg.line_number || cfg.column || cfg.json
}

/// How many items a worker may hold for a file whose turn to print has
/// not come, and how many finished files' items may wait in all, before
/// workers wait: this bounds memory whatever the inputs hold.
const HOLD_LIMIT: usize = 64 * 1024;

/// What a worker found in one entry, waiting for its turn to print.
enum Found {
    Error(String),
    Binary,
    /// Items not printed yet, a read error, and whether the worker
    /// already printed part of this entry (so `begin` was called).
    Items(Vec<Item<'static>>, Option<String>, bool),
}

/// The printing side of a parallel search, shared by the workers.
struct Turns<'p, W: Write> {
    printer: &'p mut Printer<W>,
    /// The entry whose output is printed now.
    next: usize,
    /// Entries finished before their turn.
    done: std::collections::BTreeMap<usize, Found>,
    /// Items held in `done`.
    held: usize,
    st: Status,
    /// Output failed: everyone stops.
    err: Option<io::Error>,
}

impl<W: Write> Turns<'_, W> {
    /// Prints what was found for entry `i` and everything finished after
    /// it that can now go out.
    fn finish(&mut self, entries: &[Entry], i: usize, found: Found) {
        if i != self.next {
            if let Found::Items(items, ..) = &found {
                self.held += items.len();
            }
            self.done.insert(i, found);
            return;
        }
        let mut found = Some(found);
        while let Some(f) = found.take() {
            if let Err(e) = self.print(&entries[self.next].name(), f) {
                self.err.get_or_insert(e);
            }
            self.next += 1;
            found = self.done.remove(&self.next);
            if let Some(Found::Items(items, ..)) = &found {
                self.held -= items.len();
            }
        }
    }

    fn print(&mut self, name: &[u8], found: Found) -> io::Result<()> {
        if self.err.is_some() {
            return Ok(());
        }
        match found {
            Found::Error(m) => {
                self.printer.flush()?;
                report_error(name, &m);
                self.st.error = true;
            }
            Found::Binary => {
                self.printer.flush()?;
                binary_note(name);
            }
            Found::Items(items, err, begun) => {
                if !begun {
                    self.printer.begin();
                }
                for item in &items {
                    self.st.found |= self.printer.item(name, item)?;
                }
                match err {
                    None => self.printer.end(name)?,
                    Some(m) => {
                        self.printer.flush()?;
                        report_error(name, &m);
                        self.st.error = true;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Searches `entries` on `threads` workers. The worker whose entry is
/// next in order prints as it scans; the others hold their items until
/// their turn (waiting when they hold [`HOLD_LIMIT`]), so output keeps
/// the order of the list, each file's output stays together, and memory
/// stays bounded.
fn search_parallel<W: Write + Send>(
    entries: &[Entry],
    cfg: &Config,
    finder: &Finder,
    printer: &mut Printer<W>,
    threads: usize,
) -> io::Result<Status> {
    let turns = Mutex::new(Turns {
        printer,
        next: 0,
        done: Default::default(),
        held: 0,
        st: Status::default(),
        err: None,
    });
    let cv = Condvar::new();
    let claim = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| worker(entries, cfg, finder, &turns, &cv, &claim));
        }
    });
    let t = turns.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some(e) = t.err {
        return Err(e);
    }
    t.printer.flush()?;
    Ok(t.st)
}

fn worker<W: Write>(
    entries: &[Entry],
    cfg: &Config,
    finder: &Finder,
    turns: &Mutex<Turns<'_, W>>,
    cv: &Condvar,
    claim: &AtomicUsize,
) {
    let lock = || turns.lock().unwrap_or_else(|p| p.into_inner());
    loop {
        {
            let mut t = lock();
            while t.held > HOLD_LIMIT && t.err.is_none() {
                t = cv.wait(t).unwrap_or_else(|p| p.into_inner());
            }
            if t.err.is_some() {
                return;
            }
        }
        let i = claim.fetch_add(1, Ordering::SeqCst);
        if i >= entries.len() {
            return;
        }
        let found = scan_entry(entries, i, cfg, finder, turns, cv);
        lock().finish(entries, i, found);
        cv.notify_all();
    }
}

/// Scans entry `i`, printing directly once it is its turn.
fn scan_entry<W: Write>(
    entries: &[Entry],
    i: usize,
    cfg: &Config,
    finder: &Finder,
    turns: &Mutex<Turns<'_, W>>,
    cv: &Condvar,
) -> Found {
    let entry = &entries[i];
    if let Entry::Error(_, m) = entry {
        return Found::Error(m.clone());
    }
    let rdr = match open(entry, cfg) {
        Ok(Opened::Text(r, ahead)) => (r, ahead),
        Ok(Opened::Binary) => return Found::Binary,
        Err(e) => return Found::Error(io_reason(&e)),
    };
    let name = entry.name();
    let first_only = cfg.report == Report::FilesWithMatches;
    let lock = || turns.lock().unwrap_or_else(|p| p.into_inner());
    let mut items = Vec::new();
    let mut begun = false;
    let res = scan(finder, rdr, count_lines(cfg), &mut |item| {
        if !relevant(cfg, &item) {
            return Ok(true);
        }
        items.push(item);
        if first_only {
            return Ok(false);
        }
        let mut t = lock();
        if t.err.is_some() {
            return Ok(false);
        }
        if t.next != i {
            if items.len() < HOLD_LIMIT {
                return Ok(true);
            }
            while t.next != i && t.err.is_none() {
                t = cv.wait(t).unwrap_or_else(|p| p.into_inner());
            }
            if t.err.is_some() {
                return Ok(false);
            }
        }
        // Our turn: print what we hold and go on printing as we scan.
        if !begun {
            t.printer.begin();
            begun = true;
        }
        for item in items.drain(..) {
            match t.printer.item(&name, &item) {
                Ok(counted) => t.st.found |= counted,
                Err(e) => {
                    t.err = Some(e);
                    cv.notify_all();
                    return Ok(false);
                }
            }
        }
        Ok(true)
    });
    match res {
        Ok(()) | Err(Fail::Write(_)) => Found::Items(items, None, begun),
        Err(Fail::Read(e)) => Found::Items(items, Some(io_reason(&e)), begun),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(entries: &[Entry], root: &Path) -> Vec<String> {
        entries
            .iter()
            .map(|e| match e {
                Entry::Stdin => "-".to_string(),
                Entry::File(p) => {
                    p.strip_prefix(root).unwrap().display().to_string()
                }
                Entry::Error(p, _) => format!(
                    "ERR {}",
                    p.strip_prefix(root).unwrap_or(p).display()
                ),
            })
            .collect()
    }

    fn tree() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        let r = d.path();
        fs::create_dir_all(r.join("b/sub")).unwrap();
        fs::create_dir_all(r.join("a")).unwrap();
        fs::write(r.join("z.txt"), "z").unwrap();
        fs::write(r.join("b/2.txt"), "2").unwrap();
        fs::write(r.join("b/1.txt"), "1").unwrap();
        fs::write(r.join("b/sub/x"), "x").unwrap();
        fs::write(r.join("a/y"), "y").unwrap();
        d
    }

    #[test]
    fn walk_is_sorted_and_depth_first() {
        let d = tree();
        let e = collect(&[d.path().to_path_buf()], false);
        assert_eq!(
            names(&e, d.path()),
            ["a/y", "b/1.txt", "b/2.txt", "b/sub/x", "z.txt"]
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_skipped_unless_followed_and_loops_caught() {
        let d = tree();
        let r = d.path();
        std::os::unix::fs::symlink(r.join("a"), r.join("b/link")).unwrap();
        std::os::unix::fs::symlink(r, r.join("a/up")).unwrap();
        std::os::unix::fs::symlink(r.join("gone"), r.join("dangling"))
            .unwrap();
        let e = collect(&[r.to_path_buf()], false);
        assert_eq!(
            names(&e, r),
            ["a/y", "b/1.txt", "b/2.txt", "b/sub/x", "z.txt"]
        );
        let e = collect(&[r.to_path_buf()], true);
        assert_eq!(
            names(&e, r),
            [
                "ERR a/up",
                "a/y",
                "b/1.txt",
                "b/2.txt",
                "ERR b/link/up",
                "b/link/y",
                "b/sub/x",
                "ERR dangling",
                "z.txt"
            ]
        );
    }

    #[test]
    fn explicit_paths_and_errors_keep_their_order() {
        let d = tree();
        let r = d.path();
        let e = collect(
            &[
                r.join("z.txt"),
                PathBuf::from("-"),
                r.join("nope"),
                r.join("a"),
            ],
            false,
        );
        assert_eq!(names(&e, r), ["z.txt", "-", "ERR nope", "a/y"]);
        match &e[2] {
            Entry::Error(_, m) => assert_eq!(m, "No such file or directory"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn peek_fills_or_reads_once() {
        struct Trickle(usize);
        impl Read for Trickle {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0 == 0 {
                    return Ok(0);
                }
                self.0 -= 1;
                buf[0] = b'x';
                Ok(1)
            }
        }
        assert_eq!(peek(&mut Trickle(5), true).unwrap().len(), 5);
        assert_eq!(peek(&mut Trickle(5), false).unwrap().len(), 1);
        let big = vec![b'a'; 20_000];
        assert_eq!(peek(&mut &big[..], true).unwrap().len(), BINARY_PEEK);
    }

    #[test]
    fn io_reason_drops_os_error_suffix() {
        let e = io::Error::from_raw_os_error(2);
        assert_eq!(io_reason(&e), "No such file or directory");
    }
}
