//! Walking: turning the PATH arguments into the inputs to search, in
//! order, lazily. Directories are walked with the `ignore` crate's
//! walker; nothing here opens or reads a file.
//!
//! Rules: PATH arguments keep their order; `-` is standard input; a path
//! named on the command line is searched whatever it is (a FIFO too) and
//! whatever the globs say. Inside a directory, entries are visited in
//! byte order of their names, depth first, so the output does not depend
//! on the file system. Every file is searched, hidden ones and those in
//! hidden directories too (Maildir++ folders start with a dot), unless
//! `-g` globs, `-t`/`-T` file types or, with `--respect-ignore`,
//! `.gitignore`/`.ignore` files leave it out; a `.git` directory is never
//! entered (a repository's own files, as ripgrep leaves them out). Symbolic links are skipped unless `-L`; with `-L` a link
//! back to a directory being walked is reported as a loop. FIFOs,
//! sockets and devices found in a walk are skipped (reading them could
//! block forever).

use std::fs;
use std::path::{Path, PathBuf};

use ignore::WalkBuilder;

use crate::config::Config;
use crate::printer::io_reason;

/// One thing to search, or an error found while listing.
#[derive(Debug, PartialEq, Eq)]
pub enum Entry {
    /// Standard input.
    Stdin,
    /// A file (or FIFO named on the command line), and whether it was
    /// named on the command line (rather than found in a walk).
    File(PathBuf, bool),
    /// A path that could not be listed or examined.
    Error(PathBuf, String),
}

impl Entry {
    /// The name printed for this entry.
    pub fn name(&self) -> Vec<u8> {
        match self {
            Entry::Stdin => b"-".to_vec(),
            Entry::File(p, _) | Entry::Error(p, _) => path_bytes(p),
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

/// What the walk needs to know from the configuration.
#[derive(Clone, Debug)]
pub struct WalkOptions {
    /// Follow symbolic links found in directories (`-L`).
    pub follow: bool,
    /// Honour `.gitignore`, `.ignore` and `.git/info/exclude` files.
    pub respect_ignore: bool,
    /// The `-g` globs.
    pub globs: ignore::overrides::Override,
    /// The `-t`/`-T` file types.
    pub types: ignore::types::Types,
}

impl WalkOptions {
    /// The walk options of `cfg`.
    pub fn of(cfg: &Config) -> WalkOptions {
        WalkOptions {
            follow: cfg.follow,
            respect_ignore: cfg.respect_ignore,
            globs: cfg.globs.clone(),
            types: cfg.types.clone(),
        }
    }
}

/// The inputs named by PATH arguments, in order; see the module doc.
pub struct Walk {
    /// The PATH arguments not walked yet, the next one last.
    roots: Vec<PathBuf>,
    dir: Option<ignore::Walk>,
    opts: WalkOptions,
}

impl Walk {
    /// Walks `paths` (as given on the command line).
    pub fn new(paths: &[PathBuf], opts: WalkOptions) -> Walk {
        let mut roots = paths.to_vec();
        roots.reverse();
        Walk { roots, dir: None, opts }
    }

    fn dir_walker(&self, root: &Path) -> ignore::Walk {
        let mut b = WalkBuilder::new(root);
        let honour = self.opts.respect_ignore;
        b.standard_filters(false)
            .hidden(false)
            .ignore(honour)
            .git_ignore(honour)
            .git_exclude(honour)
            .parents(honour)
            .require_git(false)
            .follow_links(self.opts.follow)
            .overrides(self.opts.globs.clone())
            .types(self.opts.types.clone())
            .filter_entry(|e| !is_git_dir(e))
            .sort_by_file_name(|a, b| a.cmp(b));
        b.build()
    }

    /// The next input of the walk in progress, if any.
    fn next_in_dir(&mut self) -> Option<Entry> {
        let walk = self.dir.as_mut()?;
        for res in walk.by_ref() {
            match res {
                Ok(dent) => {
                    if let Some(err) = dent.error() {
                        // An ignore file that could not be read or parsed.
                        let (p, m) = describe(err);
                        let p = p.unwrap_or_else(|| dent.path().to_owned());
                        return Some(Entry::Error(p, m));
                    }
                    if dent.depth() == 0 {
                        continue;
                    }
                    // With -L this is the type of the link's target; a
                    // link not followed is a link, and is skipped, as are
                    // FIFOs, sockets and devices.
                    if dent.file_type().is_some_and(|t| t.is_file()) {
                        return Some(Entry::File(dent.into_path(), false));
                    }
                }
                Err(err) => {
                    let (p, m) = describe(&err);
                    return Some(Entry::Error(p.unwrap_or_default(), m));
                }
            }
        }
        self.dir = None;
        None
    }
}

impl Iterator for Walk {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        loop {
            if let Some(e) = self.next_in_dir() {
                return Some(e);
            }
            let p = self.roots.pop()?;
            if p.as_os_str() == "-" {
                return Some(Entry::Stdin);
            }
            match fs::metadata(&p) {
                Err(e) => return Some(Entry::Error(p, io_reason(&e))),
                Ok(md) if md.is_dir() => self.dir = Some(self.dir_walker(&p)),
                Ok(_) => return Some(Entry::File(p, true)),
            }
        }
    }
}

/// Whether `e` is a `.git` directory found in a walk (one named on the
/// command line is searched).
fn is_git_dir(e: &ignore::DirEntry) -> bool {
    e.depth() > 0
        && e.file_name() == ".git"
        && e.file_type().is_some_and(|t| t.is_dir())
}

/// The message for a link that leads back to a directory being walked.
const LOOP: &str =
    "symbolic link loop (a link to a directory above it) not followed";

/// The path an error is about (if it says) and what went wrong, in
/// words.
fn describe(err: &ignore::Error) -> (Option<PathBuf>, String) {
    use ignore::Error as E;
    match err {
        E::WithPath { path, err } => {
            let (p, m) = describe(err);
            (p.or_else(|| Some(path.clone())), m)
        }
        E::WithDepth { err, .. } | E::WithLineNumber { err, .. } => {
            describe(err)
        }
        E::Loop { child, .. } => (Some(child.clone()), LOOP.into()),
        E::Io(e) => {
            // The walker wraps the system's error in its own; unwrap it
            // to say what the system said, as for any other input.
            let walkdir = e.get_ref().and_then(|r| r.downcast_ref());
            match walkdir.and_then(walkdir::Error::io_error) {
                Some(e) => (None, io_reason(e)),
                None => (None, io_reason(e)),
            }
        }
        E::Partial(errs) => {
            let mut path = None;
            let mut msgs = Vec::new();
            for e in errs {
                let (p, m) = describe(e);
                path = path.or(p);
                msgs.push(m);
            }
            (path, msgs.join("; "))
        }
        other => (None, other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(follow: bool) -> WalkOptions {
        WalkOptions {
            follow,
            respect_ignore: false,
            globs: ignore::overrides::Override::empty(),
            types: ignore::types::Types::empty(),
        }
    }

    fn collect(paths: &[PathBuf], follow: bool) -> Vec<Entry> {
        Walk::new(paths, opts(follow)).collect()
    }

    fn names(entries: &[Entry], root: &Path) -> Vec<String> {
        entries
            .iter()
            .map(|e| match e {
                Entry::Stdin => "-".to_string(),
                Entry::File(p, _) => {
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
        fs::write(r.join("a.txt"), "a").unwrap();
        d
    }

    #[test]
    fn walk_is_sorted_and_depth_first() {
        let d = tree();
        let e = collect(&[d.path().to_path_buf()], false);
        assert_eq!(
            names(&e, d.path()),
            ["a/y", "a.txt", "b/1.txt", "b/2.txt", "b/sub/x", "z.txt"]
        );
    }

    #[test]
    fn hidden_files_and_directories_are_walked() {
        let d = tree();
        let r = d.path();
        fs::create_dir_all(r.join(".Sent/cur")).unwrap();
        fs::write(r.join(".Sent/cur/1"), "m").unwrap();
        fs::write(r.join(".hidden"), "h").unwrap();
        let e = collect(&[r.join("b"), r.to_path_buf()], false);
        assert_eq!(
            names(&e, r),
            [
                "b/1.txt",
                "b/2.txt",
                "b/sub/x",
                ".Sent/cur/1",
                ".hidden",
                "a/y",
                "a.txt",
                "b/1.txt",
                "b/2.txt",
                "b/sub/x",
                "z.txt"
            ]
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_skipped_unless_followed_and_loops_caught() {
        let d = tree();
        let r = d.path();
        fs::remove_file(r.join("a.txt")).unwrap();
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
        match &e[0] {
            Entry::Error(_, m) => assert_eq!(m, LOOP),
            other => panic!("{other:?}"),
        }
        match &e[7] {
            Entry::Error(_, m) => assert_eq!(m, "No such file or directory"),
            other => panic!("{other:?}"),
        }
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
    fn globs_select_files_and_prune_directories() {
        let d = tree();
        let r = d.path();
        let mut ob = ignore::overrides::OverrideBuilder::new(r);
        ob.add("*.txt").unwrap().add("!2.txt").unwrap();
        let o = WalkOptions { globs: ob.build().unwrap(), ..opts(false) };
        let e: Vec<_> = Walk::new(&[r.to_path_buf()], o).collect();
        assert_eq!(names(&e, r), ["a.txt", "b/1.txt", "z.txt"]);
        let mut ob = ignore::overrides::OverrideBuilder::new(r);
        ob.add("!b").unwrap();
        let o = WalkOptions { globs: ob.build().unwrap(), ..opts(false) };
        let e: Vec<_> = Walk::new(&[r.to_path_buf()], o).collect();
        assert_eq!(names(&e, r), ["a/y", "a.txt", "z.txt"]);
    }

    #[test]
    fn git_directories_are_not_walked_unless_named() {
        let d = tree();
        let r = d.path();
        fs::create_dir_all(r.join("a/.git/refs")).unwrap();
        fs::write(r.join("a/.git/config"), "c").unwrap();
        fs::write(r.join("a/.git/refs/h"), "h").unwrap();
        fs::write(r.join("b/.git"), "gitdir: ../x").unwrap();
        let e = collect(&[r.join("a"), r.join("b"), r.join("a/.git")], false);
        assert_eq!(
            names(&e, r),
            [
                "a/y",
                "b/.git",
                "b/1.txt",
                "b/2.txt",
                "b/sub/x",
                "a/.git/config",
                "a/.git/refs/h"
            ]
        );
        let o = WalkOptions { respect_ignore: true, ..opts(false) };
        let e: Vec<_> = Walk::new(&[r.join("a")], o).collect();
        assert_eq!(names(&e, r), ["a/y"]);
    }

    #[test]
    fn types_select_walked_files_not_named_ones() {
        let d = tree();
        let r = d.path();
        fs::write(r.join("b/page.html"), "h").unwrap();
        let mut tb = ignore::types::TypesBuilder::new();
        tb.add_defaults();
        tb.select("txt");
        let o = WalkOptions { types: tb.build().unwrap(), ..opts(false) };
        let e: Vec<_> = Walk::new(&[r.join("b"), r.join("a/y")], o).collect();
        assert_eq!(names(&e, r), ["b/1.txt", "b/2.txt", "a/y"]);
        let mut tb = ignore::types::TypesBuilder::new();
        tb.add_defaults();
        tb.negate("txt");
        let o = WalkOptions { types: tb.build().unwrap(), ..opts(false) };
        let e: Vec<_> = Walk::new(&[r.join("b")], o).collect();
        assert_eq!(names(&e, r), ["b/page.html", "b/sub/x"]);
    }

    #[test]
    fn named_files_are_marked() {
        let d = tree();
        let r = d.path();
        let e = collect(&[r.join("a.txt"), r.join("a")], false);
        assert_eq!(
            e,
            [
                Entry::File(r.join("a.txt"), true),
                Entry::File(r.join("a/y"), false)
            ]
        );
    }

    #[test]
    fn ignore_files_only_when_asked() {
        let d = tree();
        let r = d.path();
        fs::write(r.join(".gitignore"), "sub/\n").unwrap();
        fs::write(r.join("b/.ignore"), "1.txt\n").unwrap();
        let e = collect(&[r.join("b")], false);
        assert_eq!(
            names(&e, r),
            ["b/.ignore", "b/1.txt", "b/2.txt", "b/sub/x"]
        );
        let o = WalkOptions { respect_ignore: true, ..opts(false) };
        let e: Vec<_> = Walk::new(&[r.join("b")], o).collect();
        assert_eq!(names(&e, r), ["b/.ignore", "b/2.txt"]);
    }
}
