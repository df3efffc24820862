//! One large file searched on several threads: the library cuts the
//! mapped file into parts at line starts ([`Split`]), workers search
//! and format the parts in any order, and this thread writes each
//! part's share of the output in file order, joining neighbours where
//! their scans agree (or scanning a part again where they never do).
//! The output is byte for byte that of one scan.
//!
//! Output of every URI splits: counts, file lists and `-u` need the
//! whole file's items in one place. Line numbers (`-n`, `--column`,
//! JSON) split when every part starts a line: a worker first counts the
//! lines of its part, and starts numbering where the parts before it
//! end. At most twice as many parts as workers are held at once, so
//! memory stays bounded by the part size, not the file size.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Condvar, Mutex};

use urifind::scan::{Journal, Pending, Split, SplitPart};
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
        && cfg.max_count.is_none()
        && !cfg.line_buffered
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

/// Searches and formats one part (unless `cancel` is set meanwhile:
/// then what is returned is of no use).
fn run(
    part: SplitPart<'_, '_>,
    name: &[u8],
    cfg: &Config,
    cancel: &AtomicBool,
    (out, mut ends): Buffers,
) -> Done {
    let mut part = part;
    let mut p = Printer::new(out, cfg);
    p.begin();
    part.for_each_while(|item| {
        // Writing into memory cannot fail.
        let _ = p.item(name, &[], &item);
        ends.push(p.written());
        ends.len() % 1024 != 0 || !cancel.load(Ordering::Relaxed)
    });
    Done { out: p.into_output(), ends, journal: part.journal() }
}

/// Memory for a part's output and item ends, used again part after
/// part (a fresh allocation costs a page fault every few KiB, and
/// growing it a copy of what it holds).
type Buffers = (Vec<u8>, Vec<usize>);

/// The parts' hand-over between the workers and this thread.
struct Crew {
    board: Mutex<Board>,
    turn: Condvar,
    parts: usize,
    /// How many parts may be claimed ahead of the one written.
    ahead: usize,
    /// Set with `Board::stop`, read without the lock.
    cancel: AtomicBool,
    /// Buffers of parts already written.
    spare: Mutex<Vec<Buffers>>,
    /// The longest part: what a part's output usually fits in.
    part_len: usize,
}

struct Board {
    /// The next part to claim.
    claim: usize,
    /// Parts done, not taken yet.
    done: BTreeMap<usize, Done>,
    /// Parts this thread has taken.
    taken: usize,
    /// No part is claimed while paused.
    paused: bool,
    /// Writing failed or the parts never meet: everyone stops.
    stop: bool,
    /// The line breaks in each part counted so far.
    breaks: Vec<Option<u64>>,
}

impl Crew {
    fn new(parts: usize, ahead: usize, part_len: usize) -> Crew {
        Crew {
            board: Mutex::new(Board {
                claim: 0,
                done: BTreeMap::new(),
                taken: 0,
                paused: false,
                stop: false,
                breaks: vec![None; parts],
            }),
            turn: Condvar::new(),
            parts,
            ahead,
            cancel: AtomicBool::new(false),
            spare: Mutex::new(Vec::new()),
            part_len,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Board> {
        self.board.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait<'a>(
        &self,
        b: std::sync::MutexGuard<'a, Board>,
    ) -> std::sync::MutexGuard<'a, Board> {
        self.turn.wait(b).unwrap_or_else(|e| e.into_inner())
    }

    /// The next part for a worker, or `None` when there is no more work.
    fn claim(&self) -> Option<usize> {
        let mut b = self.lock();
        loop {
            if b.stop || b.claim >= self.parts {
                return None;
            }
            if !b.paused && b.claim < b.taken + self.ahead {
                b.claim += 1;
                return Some(b.claim - 1);
            }
            b = self.wait(b);
        }
    }

    /// A worker finished part `k`.
    fn finish(&self, k: usize, d: Done) {
        self.lock().done.insert(k, d);
        self.turn.notify_all();
    }

    /// Part `k` holds `n` line breaks.
    fn counted(&self, k: usize, n: u64) {
        self.lock().breaks[k] = Some(n);
        self.turn.notify_all();
    }

    /// The number of the line part `k` starts, once the parts before it
    /// are counted (`None` when everyone stops).
    fn first_line(&self, k: usize) -> Option<u64> {
        let mut b = self.lock();
        loop {
            let before: Option<u64> = b.breaks[..k].iter().copied().sum();
            if let Some(n) = before {
                return Some(n + 1);
            }
            if b.stop {
                return None;
            }
            b = self.wait(b);
        }
    }

    /// Part `k` once done, or `None` if no worker took it.
    fn take(&self, k: usize) -> Option<Done> {
        let mut b = self.lock();
        loop {
            if let Some(d) = b.done.remove(&k) {
                b.taken = k + 1;
                self.turn.notify_all();
                return Some(d);
            }
            if k >= b.claim && (b.paused || b.stop) {
                return None;
            }
            b = self.wait(b);
        }
    }

    fn pause(&self, yes: bool) {
        self.lock().paused = yes;
        self.turn.notify_all();
    }

    /// Buffers for the next part: spare ones, or new ones with room for
    /// a part's usual output.
    fn buffers(&self) -> Buffers {
        let spare = self.spare.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let (mut out, mut ends) = spare.unwrap_or_default();
        out.clear();
        ends.clear();
        out.reserve(self.part_len);
        ends.reserve(self.part_len / 32);
        (out, ends)
    }

    /// The buffers of a part written out, for another part.
    fn recycle(&self, d: Done) {
        let mut spare = self.spare.lock().unwrap_or_else(|e| e.into_inner());
        if spare.len() < self.ahead {
            spare.push((d.out, d.ends));
        }
    }

    fn quit(&self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.lock().stop = true;
        self.turn.notify_all();
    }
}

/// What every thread of one file's search shares.
struct Job<'a, 'h> {
    split: Split<'a, 'h>,
    map: &'a Mapped,
    name: &'a [u8],
    cfg: &'a Config,
    crew: Crew,
    /// Items carry line numbers.
    lines: bool,
}

impl<'h> Job<'_, 'h> {
    /// `part` numbering lines from the start of part `k` (when asked).
    fn numbered<'p>(
        &self,
        part: SplitPart<'p, 'h>,
        k: usize,
    ) -> Option<SplitPart<'p, 'h>> {
        if !self.lines {
            return Some(part);
        }
        let line = self.crew.first_line(k)?;
        Some(part.count_lines(self.split.range(k).start, line))
    }

    /// A worker: claims parts, searches and formats them, hands them in.
    fn work(&self) {
        while let Some(k) = self.crew.claim() {
            let r = self.split.range(k);
            self.map.populate(r.clone());
            if self.lines {
                let hay = &self.map.bytes()[r.clone()];
                let n = memchr::memchr_iter(b'\n', hay).count();
                self.crew.counted(k, n as u64);
            }
            let Some(part) = self.numbered(self.split.part(k), k) else {
                return;
            };
            let bufs = self.crew.buffers();
            let d = run(part, self.name, self.cfg, &self.crew.cancel, bufs);
            self.map.release(r);
            self.crew.finish(k, d);
        }
    }
}

/// Searches the mapped file `name` on `cfg.threads` workers, writing
/// the output through `printer`; returns whether anything was printed,
/// or `None` (and does nothing) when the file makes one part, or when
/// lines are counted and a part would not start a line.
///
/// # Errors
///
/// Errors writing the output.
pub fn search<W: Write + Send>(
    finder: &Finder,
    map: &Mapped,
    name: &[u8],
    cfg: &Config,
    printer: &mut Printer<W>,
) -> io::Result<Option<bool>> {
    let hay = map.bytes();
    let threads = cfg.threads;
    let size = (hay.len() / (4 * threads)).clamp(PART.0, PART.1);
    let split = finder.split(hay, hay.len().div_ceil(size));
    let lines = crate::search::count_lines(cfg);
    let n = split.len();
    if n < 2 || (lines && !(0..n).all(|k| split.starts_line(k))) {
        return Ok(None);
    }
    if !split.meets_soon(1) {
        // The parts would not meet: one scan here, printing elsewhere.
        let mut all = split.rest(&Journal::default(), 0);
        if lines {
            all = all.count_lines(0, 1);
        }
        return rest_in_one_go(all, map, 0, name, printer).map(Some);
    }
    let longest = (0..n).map(|k| split.range(k).len()).max().unwrap_or(0);
    let job = Job {
        crew: Crew::new(n, 2 * threads, longest),
        split,
        map,
        name,
        cfg,
        lines,
    };
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| job.work());
        }
        let res = join_all(&job, printer);
        job.crew.quit();
        res.map(Some)
    })
}

/// How many items go from the scanning thread to the printing one at a
/// time.
const BATCH: usize = 4096;

/// Searches the rest of the file in one scan on this thread while
/// another formats and writes what it finds (and a third maps pages in
/// ahead, from `from` on); returns whether anything was printed.
fn rest_in_one_go<W: Write + Send>(
    rest: SplitPart<'_, '_>,
    map: &Mapped,
    from: usize,
    name: &[u8],
    printer: &mut Printer<W>,
) -> io::Result<bool> {
    let stop = AtomicBool::new(false);
    let hay = map.bytes();
    let (tx, rx) = mpsc::sync_channel::<Vec<Pending>>(4);
    let (back, spare) = mpsc::channel::<Vec<Pending>>();
    std::thread::scope(|s| {
        s.spawn(|| map.prefault(from, &stop));
        let print = s.spawn(move || {
            let mut found = false;
            for mut batch in rx {
                for p in batch.drain(..) {
                    found |= printer.item(name, &[], &p.item(hay))?;
                }
                let _ = back.send(batch);
            }
            Ok(found)
        });
        // (A batch is filled to `BATCH` or a few items more: a step of
        // the scan may find more than one.)
        let room = BATCH + 64;
        let mut batch = Vec::with_capacity(room);
        let mut rest = rest;
        while rest.fill_pending(&mut batch, BATCH) {
            let next =
                spare.try_recv().unwrap_or_else(|_| Vec::with_capacity(room));
            // (Printing failed when it hung up: its error is the answer.)
            if tx.send(std::mem::replace(&mut batch, next)).is_err() {
                break;
            }
        }
        if !batch.is_empty() {
            let _ = tx.send(batch);
        }
        drop(tx);
        let res =
            print.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        stop.store(true, Ordering::Relaxed);
        res
    })
}

/// Takes the parts in order and writes each one's share. Where a part
/// fails to meet its predecessor, it is scanned again here, from where
/// the predecessor's scan stood, while no new part is claimed; then the
/// start of the next part is tried against that scan. If they do not
/// meet either, the text's scan depends on what lies far back (quotes
/// that pair across many lines, say): the workers stop and the rest of
/// the file is searched here in one go, as on one thread.
fn join_all<W: Write + Send>(
    job: &Job<'_, '_>,
    printer: &mut Printer<W>,
) -> io::Result<bool> {
    let (split, crew) = (&job.split, &job.crew);
    let mut found = false;
    let mut write = |p: &mut Printer<W>, d: &Done, a: usize, b: usize| {
        let out = &d.out[d.upto(a)..d.upto(b)];
        found |= !out.is_empty();
        p.formatted(out)
    };
    let Some(mut prev) = crew.take(0) else { return Ok(false) };
    let mut from = 0;
    for k in 1..split.len() {
        let Some(next) = crew.take(k) else { break };
        if let Some(j) = split.join(&prev.journal, &next.journal) {
            write(printer, &prev, from, j.keep)?;
            crew.recycle(std::mem::replace(&mut prev, next));
            from = j.from;
            continue;
        }
        crew.pause(true);
        write(printer, &prev, from, split.rescan_keeps(&prev.journal))?;
        let never = AtomicBool::new(false);
        let again = job.numbered(split.rescan(&prev.journal, k), k);
        let again = again.expect("part k was counted when it was taken");
        let bufs = crew.buffers();
        let d = run(again, job.name, job.cfg, &never, bufs);
        crew.recycle(std::mem::replace(&mut prev, d));
        from = 0;
        let last = k + 1 == split.len();
        if last || split.join(&prev.journal, &split.probe(k + 1)).is_some() {
            crew.pause(false);
            continue;
        }
        // The line breaks of part `k` are counted: the line part `k + 1`
        // starts is known before everyone stops.
        let rest = job.numbered(split.rest(&prev.journal, k + 1), k + 1);
        crew.quit();
        write(printer, &prev, 0, split.rescan_keeps(&prev.journal))?;
        let rest = rest.expect("the parts before were counted");
        let from = split.range(k + 1).start;
        return rest_in_one_go(rest, job.map, from, job.name, printer)
            .map(|f| f || found);
    }
    write(printer, &prev, from, prev.ends.len())?;
    Ok(found)
}
