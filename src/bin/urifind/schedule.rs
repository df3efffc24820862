//! Which thread searches which input, and when its output is printed:
//! the inputs of the walk one after another, or on `-j N` threads with
//! each input's output kept together and printed in walk order, in
//! bounded memory.
//!
//! Each input goes through the same three steps whatever the thread:
//! `input::open`, `search::search`, and the printer; one large mapped
//! file searched alone goes to `parts::search`, which runs the library
//! on every core and hands the printer each part's formatted output.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};

use urifind::mail::MailFinder;
use urifind::scan::Item;

use crate::config::{Config, Report};
use crate::input;
use crate::printer::{io_reason, Field, Printer};
use crate::search::{self, Fail};
use crate::walk::{Entry, Walk};
use crate::Status;

/// Searches every input of `walk`, printing through `printer`.
///
/// # Errors
///
/// Only errors writing the output; input errors are reported on stderr
/// and recorded in the returned status.
pub fn search_all<W: Write + Send>(
    walk: Walk,
    cfg: &Config,
    finder: &MailFinder,
    printer: &mut Printer<W>,
) -> io::Result<Status> {
    let one_file = cfg.paths.len() == 1 && !cfg.paths[0].is_dir();
    let mut st = if cfg.threads == 1 || one_file {
        let mut st = Status::default();
        for e in walk {
            search_one(&e, cfg, finder, printer, &mut st)?;
            if cfg.report == Report::Quiet && st.found {
                break;
            }
        }
        printer.flush()?;
        st
    } else {
        search_parallel(walk, cfg, finder, printer)?
    };
    if cfg.report == Report::FilesWithoutMatch {
        // Success is a file listed, as in ripgrep.
        st.found = printer.listed();
    }
    Ok(st)
}

/// The note for an input skipped as `kind` (binary, gzip without
/// `-z`): for a file named on the command line only; a walk skips them
/// silently, as ripgrep does.
fn skip_note(entry: &Entry, kind: input::Kind) -> Option<&'static str> {
    let named = matches!(entry, Entry::Stdin | Entry::File(_, true));
    kind.skipped().filter(|_| named)
}

/// Searches one entry straight to the printer (no holding of items).
fn search_one<W: Write + Send>(
    entry: &Entry,
    cfg: &Config,
    finder: &MailFinder,
    printer: &mut Printer<W>,
    st: &mut Status,
) -> io::Result<()> {
    let name = entry.name();
    if let Entry::Error(_, m) = entry {
        st.error = true;
        return printer.error(&name, m);
    }
    let input = match input::open(entry, cfg) {
        Ok(i) if i.kind.skipped().is_some() => {
            return match skip_note(entry, i.kind) {
                Some(note) => printer.error(&name, note),
                None => Ok(()),
            };
        }
        Ok(i) => i,
        Err(e) => {
            st.error = true;
            return printer.error(&name, &io_reason(&e));
        }
    };
    printer.begin();
    #[cfg(unix)]
    if let input::Source::Mapped(map) = &input.source {
        let hay = map.bytes();
        if input.kind == input::Kind::Text
            && hay.len() >= crate::parts::MIN_LEN
            && crate::parts::splits(cfg)
        {
            let found = crate::parts::search(
                finder.finder(),
                map,
                &name,
                cfg,
                printer,
            )?;
            if let Some(found) = found {
                st.found |= found;
                return printer.end(&name);
            }
        }
    }
    let first_only = cfg.report.first_only();
    let mut found = false;
    let res = search::search(
        finder,
        input,
        search::count_lines(cfg),
        search::places(cfg),
        (&name, search::notes(cfg)),
        cfg.max_message_size,
        &mut |place, item| {
            let counted = printer.item(&name, place, item)?;
            found |= counted;
            let settled = first_only && counted;
            Ok(!settled && !printer.full())
        },
    );
    st.found |= found;
    match res {
        Ok(()) => printer.end(&name),
        Err(Fail::Write(e)) => Err(e),
        Err(Fail::Read(e)) => {
            st.error = true;
            printer.end_early(&name, &io_reason(&e))
        }
    }
}

/// How many items a worker may hold for an input whose turn to print
/// has not come, and how many finished inputs' items may wait in all,
/// before workers wait: this bounds memory whatever the inputs hold.
const HOLD_LIMIT: usize = 64 * 1024;

/// An item waiting for its turn to print, with its place in the input.
type Held = (Vec<(&'static str, Vec<u8>)>, Item<'static>);

/// What a worker found in one entry, waiting for its turn to print.
enum Found {
    Error(String),
    /// Skipped (binary, gzip without `-z`), with the note to print.
    Skipped(Option<&'static str>),
    /// Items not printed yet, a read error, and whether the worker
    /// already printed part of this entry (so `begin` was called).
    Items(Vec<Held>, Option<String>, bool),
}

/// The printing side of a parallel search, shared by the workers.
struct Turns<'p, W: Write> {
    printer: &'p mut Printer<W>,
    /// The entry whose output is printed now.
    next: usize,
    /// Entries finished before their turn, with their names.
    done: BTreeMap<usize, (Vec<u8>, Found)>,
    /// Items held in `done`.
    held: usize,
    st: Status,
    /// Output failed: everyone stops.
    err: Option<io::Error>,
}

/// The walk, shared by the workers: each takes the next entry and its
/// number in walk order.
struct Claims {
    walk: Walk,
    next: usize,
}

/// A copy of `item` that borrows nothing.
fn owned(item: Item<'_>) -> Item<'static> {
    item.into_owned()
}

/// Prints one held item.
fn print_held<W: Write>(
    printer: &mut Printer<W>,
    name: &[u8],
    (place, item): &Held,
) -> io::Result<bool> {
    if place.is_empty() {
        return printer.item(name, &[], item);
    }
    let place: Vec<Field<'_>> =
        place.iter().map(|(k, v)| (*k, v.as_slice())).collect();
    printer.item(name, &place, item)
}

impl<W: Write> Turns<'_, W> {
    /// Prints what was found for entry `i` and everything finished after
    /// it that can now go out.
    fn finish(&mut self, i: usize, name: Vec<u8>, found: Found) {
        if i != self.next {
            if let Found::Items(items, ..) = &found {
                self.held += items.len();
            }
            self.done.insert(i, (name, found));
            return;
        }
        let mut found = Some((name, found));
        while let Some((name, f)) = found.take() {
            if let Err(e) = self.print(&name, f) {
                self.err.get_or_insert(e);
            }
            self.next += 1;
            found = self.done.remove(&self.next);
            if let Some((_, Found::Items(items, ..))) = &found {
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
                self.st.error = true;
                self.printer.error(name, &m)?;
            }
            Found::Skipped(None) => {}
            Found::Skipped(Some(note)) => self.printer.error(name, note)?,
            Found::Items(items, err, begun) => {
                if !begun {
                    self.printer.begin();
                }
                for held in &items {
                    self.st.found |= print_held(self.printer, name, held)?;
                }
                match err {
                    None => self.printer.end(name)?,
                    Some(m) => {
                        self.st.error = true;
                        self.printer.end_early(name, &m)?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Searches the walk's entries on `cfg.threads` workers. The worker
/// whose entry is next in order prints as it searches; the others hold
/// their items until their turn (waiting when they hold [`HOLD_LIMIT`]),
/// so output keeps walk order, each input's output stays together, and
/// memory stays bounded.
fn search_parallel<W: Write + Send>(
    walk: Walk,
    cfg: &Config,
    finder: &MailFinder,
    printer: &mut Printer<W>,
) -> io::Result<Status> {
    let turns = Mutex::new(Turns {
        printer,
        next: 0,
        done: BTreeMap::new(),
        held: 0,
        st: Status::default(),
        err: None,
    });
    let cv = Condvar::new();
    let claims = Mutex::new(Claims { walk, next: 0 });
    let quit = AtomicBool::new(false);
    let work = Work {
        cfg,
        finder,
        turns: &turns,
        cv: &cv,
        claims: &claims,
        quit: &quit,
    };
    std::thread::scope(|s| {
        for _ in 0..cfg.threads {
            s.spawn(|| work.worker());
        }
    });
    let t = turns.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some(e) = t.err {
        return Err(e);
    }
    t.printer.flush()?;
    Ok(t.st)
}

/// What every worker shares.
struct Work<'a, 'p, W: Write> {
    cfg: &'a Config,
    finder: &'a MailFinder,
    turns: &'a Mutex<Turns<'p, W>>,
    cv: &'a Condvar,
    claims: &'a Mutex<Claims>,
    /// Under `-q`, a URI was found: workers take no more entries and
    /// stop searching theirs.
    quit: &'a AtomicBool,
}

impl<'a, 'p, W: Write> Work<'a, 'p, W> {
    fn lock(&self) -> std::sync::MutexGuard<'a, Turns<'p, W>> {
        self.turns.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn worker(&self) {
        loop {
            {
                let mut t = self.lock();
                while t.held > HOLD_LIMIT && t.err.is_none() {
                    t = self.cv.wait(t).unwrap_or_else(|p| p.into_inner());
                }
                if t.err.is_some() {
                    return;
                }
            }
            if self.quit.load(Ordering::Relaxed) {
                return;
            }
            let (i, entry) = {
                let mut c =
                    self.claims.lock().unwrap_or_else(|p| p.into_inner());
                let Some(e) = c.walk.next() else { return };
                c.next += 1;
                (c.next - 1, e)
            };
            let found = self.search_entry(i, &entry);
            self.lock().finish(i, entry.name(), found);
            self.cv.notify_all();
        }
    }

    /// Searches entry number `i`, printing directly once it is its turn.
    fn search_entry(&self, i: usize, entry: &Entry) -> Found {
        if let Entry::Error(_, m) = entry {
            return Found::Error(m.clone());
        }
        let input = match input::open(entry, self.cfg) {
            Ok(i) if i.kind.skipped().is_some() => {
                return Found::Skipped(skip_note(entry, i.kind));
            }
            Ok(i) => i,
            Err(e) => return Found::Error(io_reason(&e)),
        };
        let mut turn = Turn {
            work: self,
            i,
            name: entry.name(),
            items: Vec::new(),
            begun: false,
        };
        let cfg = self.cfg;
        let name = entry.name();
        let res = search::search(
            self.finder,
            input,
            search::count_lines(cfg),
            search::places(cfg),
            (&name, search::notes(cfg)),
            cfg.max_message_size,
            &mut |place, item| {
                if self.quit.load(Ordering::Relaxed) {
                    return Ok(false);
                }
                // Only what the printer may show is worth holding.
                if matches!(item, Item::Rejected(_)) != cfg.rejected {
                    return Ok(true);
                }
                if cfg.report.first_only() {
                    turn.items.push(hold(place, item));
                    if cfg.report == Report::Quiet {
                        self.quit.store(true, Ordering::Relaxed);
                    }
                    return Ok(false);
                }
                // Without -u every item shown counts: once -m of them
                // are held, the rest of the input cannot be printed.
                let held = turn.items.len() as u64;
                if !cfg.unique && cfg.max_count.is_some_and(|m| held >= m) {
                    return Ok(false);
                }
                Ok(turn.item(place, item))
            },
        );
        let Turn { items, begun, .. } = turn;
        match res {
            Ok(()) | Err(Fail::Write(_)) => Found::Items(items, None, begun),
            Err(Fail::Read(e)) => {
                Found::Items(items, Some(io_reason(&e)), begun)
            }
        }
    }
}

/// A copy of an item and its place, to print later.
fn hold(place: &[Field<'_>], item: &Item<'_>) -> Held {
    let place = place.iter().map(|(k, v)| (*k, v.to_vec())).collect();
    (place, owned(item.clone()))
}

/// One worker's entry while it is searched: items held until its turn,
/// then printed as they come.
struct Turn<'w, 'a, 'p, W: Write> {
    work: &'w Work<'a, 'p, W>,
    /// The entry's number in walk order.
    i: usize,
    name: Vec<u8>,
    items: Vec<Held>,
    /// Whether the printer began this entry.
    begun: bool,
}

impl<W: Write> Turn<'_, '_, '_, W> {
    /// Holds or prints `item`; returns whether to go on searching.
    fn item(&mut self, place: &[Field<'_>], item: &Item<'_>) -> bool {
        let mut t = self.work.lock();
        if t.err.is_some() {
            return false;
        }
        let mut item = Some(item);
        if t.next != self.i {
            self.items.extend(item.take().map(|it| hold(place, it)));
            if self.items.len() < HOLD_LIMIT {
                return true;
            }
            while t.next != self.i && t.err.is_none() {
                t = self.work.cv.wait(t).unwrap_or_else(|p| p.into_inner());
            }
            if t.err.is_some() {
                return false;
            }
        }
        // Our turn: print what is held and go on printing as we search.
        if !self.begun {
            t.printer.begin();
            self.begun = true;
        }
        let mut res = Ok(());
        for held in self.items.drain(..) {
            match print_held(t.printer, &self.name, &held) {
                Ok(counted) => t.st.found |= counted,
                Err(e) => {
                    res = Err(e);
                    break;
                }
            }
        }
        if let (Ok(()), Some(item)) = (&res, item) {
            match t.printer.item(&self.name, place, item) {
                Ok(counted) => t.st.found |= counted,
                Err(e) => res = Err(e),
            }
        }
        if let Err(e) = res {
            t.err = Some(e);
            self.work.cv.notify_all();
            return false;
        }
        !t.printer.full()
    }
}
