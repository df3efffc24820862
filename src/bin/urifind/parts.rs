//! One large file searched on several threads: the library cuts the
//! mapped file into parts at line starts ([`Split`]), workers search
//! and format the parts in any order, and this thread writes each
//! part's share of the output in file order, joining neighbours where
//! their scans agree (or scanning a part again where they never do).
//! The output is byte for byte that of one scan.
//!
//! Only plain output of every URI splits: counts, file lists and `-u`
//! need the whole file's items in one place, and line numbers (`-n`,
//! `--column`, JSON) need the lines before each part counted first.
//! At most twice as many parts as workers are held at once, so memory
//! stays bounded by the part size, not the file size.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::{Condvar, Mutex};

use urifind::scan::{Journal, Part, Split};
use urifind::Finder;

use crate::config::{Config, Report};
use crate::mapped::Mapped;
use crate::printer::Printer;

/// Files smaller than this are searched on one thread.
pub const MIN_LEN: usize = 8 << 20;

/// The smallest and largest part.
const PART: (usize, usize) = (2 << 20, 16 << 20);

/// Whether `cfg` asks for output that parts can produce on their own
/// (and for more than one thread).
pub fn splits(cfg: &Config) -> bool {
    cfg.threads > 1
        && cfg.report == Report::Each
        && !cfg.unique
        && !cfg.line_buffered
        && !crate::search::count_lines(cfg)
}

/// One part searched and formatted: its output, where the output of
/// each item ends, and its journal.
struct Done {
    out: Vec<u8>,
    ends: Vec<usize>,
    journal: Journal,
}

impl Done {
    /// The output of the first `n` items.
    fn upto(&self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            self.ends[n - 1]
        }
    }
}

/// Searches and formats one part.
fn run(part: Part<'_, '_>, name: &[u8], cfg: &Config) -> Done {
    let mut part = part;
    let mut p = Printer::new(Vec::new(), cfg);
    p.begin();
    let mut ends = Vec::new();
    for item in part.by_ref() {
        // Writing into memory cannot fail.
        let _ = p.item(name, &[], &item);
        ends.push(p.written());
    }
    Done { out: p.into_output(), ends, journal: part.journal() }
}

/// What the workers and this thread share.
struct Board {
    /// The next part to claim.
    claim: usize,
    /// Parts done, not written yet.
    done: BTreeMap<usize, Done>,
    /// Parts this thread has taken.
    taken: usize,
    /// Writing failed: everyone stops.
    stop: bool,
}

/// Searches the mapped file `name` on `threads` workers, writing the
/// output through `printer`; returns whether anything was printed.
///
/// # Errors
///
/// Errors writing the output.
pub fn search<W: Write>(
    finder: &Finder,
    map: &Mapped,
    name: &[u8],
    cfg: &Config,
    printer: &mut Printer<W>,
) -> io::Result<bool> {
    let hay = map.bytes();
    let threads = cfg.threads;
    let size = (hay.len() / (4 * threads)).clamp(PART.0, PART.1);
    let split = finder.split(hay, hay.len().div_ceil(size));
    let n = split.len();
    let board = Mutex::new(Board {
        claim: 0,
        done: BTreeMap::new(),
        taken: 0,
        stop: false,
    });
    let turn = Condvar::new();
    let lock = || board.lock().unwrap_or_else(|e| e.into_inner());
    let worker = || loop {
        let k = {
            let mut b = lock();
            while !b.stop && b.claim < n && b.claim >= b.taken + 2 * threads {
                b = turn.wait(b).unwrap_or_else(|e| e.into_inner());
            }
            if b.stop || b.claim >= n {
                return;
            }
            b.claim += 1;
            b.claim - 1
        };
        map.populate(split.range(k));
        let d = run(split.part(k), name, cfg);
        lock().done.insert(k, d);
        turn.notify_all();
    };
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(worker);
        }
        let take = |k: usize| {
            let mut b = lock();
            loop {
                if let Some(d) = b.done.remove(&k) {
                    b.taken = k + 1;
                    turn.notify_all();
                    return d;
                }
                b = turn.wait(b).unwrap_or_else(|e| e.into_inner());
            }
        };
        let quit = || {
            lock().stop = true;
            turn.notify_all();
        };
        let res = join_all(&split, name, cfg, take, quit, printer);
        quit();
        res
    })
}

/// Takes the parts in order and writes each one's share. Where two
/// parts in a row fail to meet their predecessor, the text's scan
/// depends on what lies far back (quotes that pair across many lines,
/// say): the workers are stopped (`quit`) and this thread scans the
/// rest of the file itself, part after part.
fn join_all<W: Write>(
    split: &Split<'_, '_>,
    name: &[u8],
    cfg: &Config,
    mut take: impl FnMut(usize) -> Done,
    quit: impl Fn(),
    printer: &mut Printer<W>,
) -> io::Result<bool> {
    let mut found = false;
    let mut write = |d: &Done, a: usize, b: usize| {
        let out = &d.out[d.upto(a)..d.upto(b)];
        found |= !out.is_empty();
        printer.formatted(out)
    };
    let (mut prev, mut from) = (take(0), 0);
    let mut misses = 0;
    for k in 1..split.len() {
        let next = (misses < 2).then(|| take(k));
        let joint =
            next.as_ref().and_then(|n| split.join(&prev.journal, &n.journal));
        match (joint, next) {
            (Some(j), Some(next)) => {
                write(&prev, from, j.keep)?;
                (prev, from) = (next, j.from);
                misses = 0;
            }
            _ => {
                misses += 1;
                if misses == 2 {
                    quit();
                }
                write(&prev, from, split.rescan_keeps(&prev.journal))?;
                prev = run(split.rescan(&prev.journal, k), name, cfg);
                from = 0;
            }
        }
    }
    write(&prev, from, prev.ends.len())?;
    Ok(found)
}
