//! The split driver: one slice searched in parts, each part on any
//! thread, and the parts joined so that the items are exactly those of
//! one scan of the whole slice ([`Split`], [`SplitPart`], [`Journal`]).
//!
//! Between two triggers a scan's future depends on two offsets only:
//! where the trigger search goes on, and where the last match ended
//! (before which no candidate may start). Every other piece of engine
//! state is a cache of facts about the input. The second offset matters
//! only while it lies within the engine's look-behind of the first:
//! further back, no window reaches it. So two scans that pass through
//! the same [`State`] report the same items from there on.
//!
//! A part's scan starts fresh at its first byte (as if no match had
//! ended nearby), which may be wrong for the first few triggers: a match
//! of the previous part may run across the cut, or have ended just
//! before it. It therefore notes the states it passes through near its
//! start (its head), and goes on past its end for a while noting the
//! states there (its tail). Where the previous part's tail and the next
//! part's head share a state, the previous part's items before it and
//! the next part's items after it make up the whole scan's items. If
//! they share none, the next part is scanned again from the last state
//! of the previous part's tail, which is right: the scan is still
//! linear, only slower.
//!
//! To keep the notes small, a scan notes a state only when the step
//! before it reported something or it crossed a 1 KiB boundary: after
//! two scans agree on a state, they agree on which later states they
//! note. Where it notes states, its trigger search stops at each such
//! boundary, so that both scans pass through states there even in text
//! whose search would leap over many blocks at once.

use std::ops::Range;

use crate::scan::decision::{Found, Out};
use crate::scan::engine::{Engine, State};
use crate::scan::lines::Lines;
use crate::scan::Position;
use crate::scan::{Finder, Item};

/// How far a part's scan goes on past its end, noting states.
const TAIL: usize = 64 * 1024;

/// How far from its start a part's scan notes states.
const HEAD: usize = 2 * TAIL;

/// How far past where a cut should fall a line start is looked for.
const CUT_SEEK: usize = 64 * 1024;

/// A state is noted at least once per this many bytes.
const BLOCK: usize = 1024;

/// How many fresh scans [`Split::meets_soon`] starts before a cut, and
/// how far apart (a prime, so that the starts fall at unlike places of
/// any repeating text).
const TRIES: usize = 6;
const TRY_STEP: usize = 2053;

/// How far past the cut [`Split::meets_soon`] follows its scans: where
/// parts meet at all, they mostly meet within the first URI after the
/// cut (a longer URI across it only costs the guess).
const TRY_AHEAD: usize = 16 * 1024;

/// A slice cut into parts (at line starts where it has them), to be
/// searched on several threads; see [`Finder::split`].
///
/// # Example
///
/// Search each part (here one after another; any thread may take any
/// part), then join neighbours and keep each part's share:
///
/// ```
/// let f = urifind::Finder::new();
/// let text = b"see <http://a.example/\n  x> and\nhttp://b.example/\n"
///     .repeat(20_000);
/// let split = f.split(&text, 4);
/// let mut parts = Vec::new();
/// for i in 0..split.len() {
///     let mut part = split.part(i);
///     let uris: Vec<Vec<u8>> = part
///         .by_ref()
///         .map(|it| match it {
///             urifind::scan::Item::Match(m) => m.uri().to_vec(),
///             _ => unreachable!(),
///         })
///         .collect();
///     parts.push((uris, part.journal()));
/// }
/// let mut all = Vec::new();
/// let mut from = 0;
/// for i in 0..parts.len() {
///     let keep = match parts.get(i + 1) {
///         None => parts[i].0.len(),
///         Some(next) => {
///             let j = split.join(&parts[i].1, &next.1).expect("shared state");
///             let keep = j.keep;
///             all.extend_from_slice(&parts[i].0[from..keep]);
///             from = j.from;
///             continue;
///         }
///     };
///     all.extend_from_slice(&parts[i].0[from..keep]);
/// }
/// let whole: Vec<Vec<u8>> = f.find_iter(&text).map(|m| m.uri().to_vec()).collect();
/// assert_eq!(all, whole);
/// ```
#[derive(Debug)]
pub struct Split<'f, 'h> {
    finder: &'f Finder,
    hay: &'h [u8],
    /// Where each part starts; the first is 0.
    starts: Vec<usize>,
}

/// Where two neighbouring parts meet; see [`Split::join`].
///
/// # Example
///
/// ```
/// let f = urifind::Finder::new();
/// let text = b"a http://a.example/ b\n".repeat(10_000);
/// let split = f.split(&text, 2);
/// let (mut a, mut b) = (split.part(0), split.part(1));
/// let (na, nb) = (a.by_ref().count(), b.by_ref().count());
/// let j = split.join(&a.journal(), &b.journal()).unwrap();
/// assert_eq!(j.keep + (nb - j.from), 10_000);
/// assert!(j.keep <= na);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Joint {
    /// How many of the earlier part's items belong to the whole scan
    /// (its first items, after those its own predecessor took).
    pub keep: usize,
    /// How many of the later part's items to skip: the rest belong to
    /// the whole scan.
    pub from: usize,
}

/// What a part's scan noted near its start and past its end, for
/// [`Split::join`]; see [`SplitPart::journal`].
///
/// # Example
///
/// ```
/// let f = urifind::Finder::new();
/// let text = b"x http://a.example/\n".repeat(5000);
/// let split = f.split(&text, 2);
/// let mut p = split.part(0);
/// let n = p.by_ref().count();
/// assert_eq!(p.journal().items(), n);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Journal {
    head: Vec<(State, usize)>,
    tail: Vec<(State, usize)>,
    items: usize,
}

impl Journal {
    /// How many items the part's scan reported in all (past its end
    /// included).
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let text = b"http://a.example/\n".repeat(3);
    /// let split = f.split(&text, 1);
    /// let mut p = split.part(0);
    /// p.by_ref().for_each(drop);
    /// assert_eq!(p.journal().items(), 3);
    /// ```
    pub fn items(&self) -> usize {
        self.items
    }
}

impl<'f, 'h> Split<'f, 'h> {
    pub(crate) fn new(
        finder: &'f Finder,
        hay: &'h [u8],
        parts: usize,
    ) -> Split<'f, 'h> {
        // A part is never shorter than its head (but the last): the
        // state where a part meets its predecessor then comes before
        // every state of its tail.
        let parts = parts.max(1);
        let len = (hay.len() / parts).max(HEAD);
        let mut starts = vec![0];
        for k in 1..parts {
            let at = (k * len).max(starts[starts.len() - 1] + HEAD);
            if at >= hay.len() {
                break;
            }
            let s = cut_near(hay, at);
            if s >= hay.len() {
                break;
            }
            if s > starts[starts.len() - 1] {
                starts.push(s);
            }
        }
        Split { finder, hay, starts }
    }

    /// How many parts.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// assert_eq!(f.split(b"one line, no break", 4).len(), 1);
    /// assert_eq!(f.split(&b"a\n".repeat(200_000), 2).len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether there are no parts (never: an empty slice is one empty
    /// part).
    ///
    /// # Example
    ///
    /// ```
    /// assert!(!urifind::Finder::new().split(b"", 3).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Whether part `i` starts a line (every part does where lines are
    /// short enough; see [`Finder::split`]).
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let lines = b"http://a.example/\n".repeat(20_000);
    /// assert!(f.split(&lines, 2).starts_line(1));
    /// let one = b"http://a.example/ ".repeat(20_000);
    /// assert!(!f.split(&one, 2).starts_line(1));
    /// ```
    pub fn starts_line(&self, i: usize) -> bool {
        let s = self.starts[i];
        s == 0 || self.hay[s - 1] == b'\n'
    }

    /// The bytes of part `i` (each starts a line where the text has
    /// lines).
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let text = b"a\n".repeat(200_000);
    /// let s = f.split(&text, 2);
    /// assert_eq!(s.range(0), 0..200_000);
    /// assert_eq!(s.range(1), 200_000..400_000);
    /// ```
    pub fn range(&self, i: usize) -> Range<usize> {
        let end = self.starts.get(i + 1).copied().unwrap_or(self.hay.len());
        self.starts[i]..end
    }

    /// The scan of part `i`, starting fresh at its first byte and going
    /// on past its end (the last part: to the end of the slice).
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let text = b"http://a.example/\n".repeat(20_000);
    /// let s = f.split(&text, 2);
    /// assert_eq!(s.range(1).len(), 180_000);
    /// assert!(s.part(1).count() >= 10_000);
    /// ```
    pub fn part(&self, i: usize) -> SplitPart<'f, 'h> {
        let r = self.range(i);
        let mut eng = self.finder.engine();
        eng.restart(State::fresh(r.start));
        self.scan(eng, r)
    }

    /// Where part `next` meets the part before it, given their
    /// journals: the first state both scans passed through. `None`
    /// when they share none; then [`Split::rescan`] gives the part
    /// again.
    ///
    /// # Example
    ///
    /// See [`Split`].
    pub fn join(&self, prev: &Journal, next: &Journal) -> Option<Joint> {
        let (a, b) = (&prev.tail, &next.head);
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            let (sa, sb) = (a[i].0, b[j].0);
            if sa == sb {
                return Some(Joint { keep: a[i].1, from: b[j].1 });
            }
            if sa.pos() <= sb.pos() {
                i += 1;
            } else {
                j += 1;
            }
        }
        None
    }

    /// Part `i` scanned again from the last state of the previous part's
    /// journal `prev`, when [`Split::join`] found no shared state: all
    /// of its items belong to the whole scan, after the first
    /// [`Split::rescan_keeps`] items of the previous part.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let text = b"http://a.example/\n".repeat(40_000);
    /// let split = f.split(&text, 2);
    /// let mut a = split.part(0);
    /// let na = a.by_ref().count();
    /// let prev = a.journal();
    /// let keep = split.rescan_keeps(&prev);
    /// let nb = split.rescan(&prev, 1).count();
    /// assert!(keep <= na);
    /// assert_eq!(keep + nb, 40_000);
    /// ```
    pub fn rescan(&self, prev: &Journal, i: usize) -> SplitPart<'f, 'h> {
        let r = self.range(i);
        let mut eng = self.finder.engine();
        let start = prev.tail.last().map_or(State::fresh(r.start), |s| s.0);
        eng.restart(start);
        self.scan(eng, start.pos().min(r.end)..r.end)
    }

    /// How many of the previous part's items come before a
    /// [`Split::rescan`] of the part after it.
    ///
    /// # Example
    ///
    /// See [`Split::rescan`].
    pub fn rescan_keeps(&self, prev: &Journal) -> usize {
        prev.tail.last().map_or(prev.items, |s| s.1)
    }

    /// The rest of the slice from part `i` on, scanned from the last
    /// state of the previous part's journal `prev`: what one scan would
    /// report after the first [`Split::rescan_keeps`] items of the
    /// previous part. For a text whose parts do not meet (quotes that
    /// pair across every line, say), searched on from there in one go.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::scan::Item;
    ///
    /// let f = urifind::Finder::new();
    /// let text = b"\"http://a.example/\n  x".repeat(40_000);
    /// let split = f.split(&text, 4);
    /// let span = |it: Item<'_>| match it {
    ///     Item::Match(m) => m.span(),
    ///     _ => unreachable!(),
    /// };
    /// let mut a = split.part(0);
    /// let na: Vec<_> = a.by_ref().map(span).collect();
    /// let prev = a.journal();
    /// let keep = split.rescan_keeps(&prev);
    /// let rest: Vec<_> = split.rest(&prev, 1).map(span).collect();
    /// let whole: Vec<_> = f.items(&text).map(span).collect();
    /// assert_eq!([&na[..keep], &rest[..]].concat(), whole);
    /// ```
    pub fn rest(&self, prev: &Journal, i: usize) -> SplitPart<'f, 'h> {
        let mut p = self.rescan(prev, i);
        p.tail_from = self.hay.len();
        p.stop = usize::MAX;
        p
    }

    /// What the scan of part `i` notes near its start, without scanning
    /// the rest of it: enough for [`Split::join`] to say whether it
    /// meets a predecessor's journal.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let text = b"see http://a.example/ here\n".repeat(40_000);
    /// let split = f.split(&text, 4);
    /// let mut a = split.part(0);
    /// a.by_ref().for_each(drop);
    /// assert!(split.join(&a.journal(), &split.probe(1)).is_some());
    /// ```
    pub fn probe(&self, i: usize) -> Journal {
        let mut p = self.part(i);
        p.stop = p.head_end.min(p.stop);
        p.tail_from = usize::MAX;
        p.by_ref().for_each(drop);
        p.journal
    }

    /// Whether part `i` is likely to meet the part before it: scans
    /// started afresh at a few points shortly before its start all
    /// share a state with its own scan soon after the cut. Ordinary
    /// text passes at once. Text whose scan depends on what lies far
    /// back (quotes that pair across every line, so that a scan's phase
    /// is fixed by everything before it) fails nearly always, and is
    /// better searched in one go than in parts scanned twice. A guess
    /// for scheduling, at the cost of scanning some 150 KiB: only
    /// [`Split::join`] says where parts meet.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let prose = b"see http://a.example/ here\n".repeat(40_000);
    /// assert!(f.split(&prose, 2).meets_soon(1));
    /// let quoted = b"\"http://a.example/\n  x".repeat(40_000);
    /// assert!(!f.split(&quoted, 2).meets_soon(1));
    /// ```
    pub fn meets_soon(&self, i: usize) -> bool {
        if i == 0 || i >= self.len() {
            return true;
        }
        let cut = self.starts[i];
        let next = {
            let mut p = self.part(i);
            p.stop = (cut + TRY_AHEAD).min(p.head_end).min(p.stop);
            p.tail_from = usize::MAX;
            p.by_ref().for_each(drop);
            p.journal
        };
        (1..=TRIES).all(|k| {
            let from = cut.saturating_sub(k * TRY_STEP);
            let mut eng = self.finder.engine();
            eng.restart(State::fresh(from));
            let mut p = self.scan(eng, from..cut);
            p.head_end = from;
            p.stop = p.stop.min(cut + TRY_AHEAD);
            p.by_ref().for_each(drop);
            self.join(&p.journal, &next).is_some()
        })
    }

    fn scan(&self, eng: Engine<'f>, r: Range<usize>) -> SplitPart<'f, 'h> {
        let last = r.end == self.hay.len();
        SplitPart {
            hay: self.hay,
            eng,
            head_end: r.start.saturating_add(HEAD),
            tail_from: r.end,
            stop: if last { usize::MAX } else { r.end.saturating_add(TAIL) },
            done: false,
            noted: None,
            journal: Journal::default(),
            lines: None,
        }
    }
}

/// Where to cut near `at` (at or after it): the first line start within
/// [`CUT_SEEK`] bytes, else the first byte after a blank, else `at`. Any
/// cut gives the same items; one where few URIs run across lets the
/// parts meet soonest.
fn cut_near(hay: &[u8], at: usize) -> usize {
    let near = &hay[at - 1..hay.len().min(at + CUT_SEEK)];
    if let Some(i) = memchr::memchr(b'\n', near) {
        return at + i;
    }
    match memchr::memchr2(b' ', b'\t', near) {
        Some(i) => at + i,
        None => at,
    }
}

/// An item as a scan found it, not made into an [`Item`] yet; see
/// [`SplitPart::for_each_pending`].
///
/// # Example
///
/// See [`SplitPart::for_each_pending`].
#[derive(Debug)]
pub struct Pending {
    out: Out,
    position: Option<Position>,
}

impl Pending {
    /// A placeholder, overwritten in place.
    const EMPTY: Pending =
        Pending { out: Out::Match(Found::EMPTY), position: None };

    /// The item, borrowing `hay`: the whole slice the [`Split`] was made
    /// of.
    ///
    /// # Example
    ///
    /// See [`SplitPart::for_each_pending`].
    #[inline(always)]
    pub fn item(self, hay: &[u8]) -> Item<'_> {
        self.out.into_item(hay, self.position)
    }
}

/// The scan of one part of a [`Split`]: an iterator over its items,
/// then [`SplitPart::journal`] for joining it with its neighbours.
///
/// # Example
///
/// ```
/// let f = urifind::Finder::new();
/// let text = b"http://a.example/\n".repeat(100);
/// let split = f.split(&text, 1);
/// assert_eq!(split.part(0).count(), 100);
/// ```
pub struct SplitPart<'f, 'h> {
    hay: &'h [u8],
    eng: Engine<'f>,
    head_end: usize,
    tail_from: usize,
    stop: usize,
    done: bool,
    /// The items reported and the block of the last state noted.
    noted: Option<(usize, usize)>,
    journal: Journal,
    lines: Option<Lines>,
}

impl std::fmt::Debug for SplitPart<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SplitPart")
            .field("searched_to", &self.eng.searched_to())
            .field("tail_from", &self.tail_from)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl<'h> SplitPart<'_, 'h> {
    /// Count lines so that items carry a [`Position`]: `line_start` is
    /// a line start at or before the part (its first byte when it starts
    /// a line, see [`Split::starts_line`]) and `line` that line's number.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::scan::Item;
    ///
    /// let f = urifind::Finder::new();
    /// let text = b"a line\nsee http://a.example/ here\n".repeat(10_000);
    /// let split = f.split(&text, 2);
    /// let r = split.range(1);
    /// assert!(split.starts_line(1));
    /// let line = 1 + text[..r.start].iter().filter(|&&b| b == b'\n').count();
    /// let mut part = split.part(1).count_lines(r.start, line as u64);
    /// let Some(Item::Match(m)) = part.next() else { panic!() };
    /// let whole = f.items(&text).count_lines(true);
    /// let same = whole.filter_map(|it| match it {
    ///     Item::Match(w) if w.span() == m.span() => w.position(),
    ///     _ => None,
    /// });
    /// assert_eq!(m.position(), same.last());
    /// ```
    pub fn count_lines(mut self, line_start: usize, line: u64) -> Self {
        self.lines = Some(Lines::at(line_start, line));
        self
    }

    /// Hands the items, in order, to `f` until it returns false; returns
    /// false when `f` stopped, true when the part is done. The items the
    /// iterator gives, made where `f` takes them rather than moved out
    /// of a call (cheaper when items are many).
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let text = b"http://a.example/\n".repeat(10);
    /// let split = f.split(&text, 1);
    /// let mut part = split.part(0);
    /// let mut n = 0;
    /// assert!(part.for_each_while(|_| { n += 1; true }));
    /// assert_eq!((n, part.journal().items()), (10, 10));
    /// ```
    #[inline]
    pub fn for_each_while(
        &mut self,
        mut f: impl FnMut(Item<'h>) -> bool,
    ) -> bool {
        let hay = self.hay;
        self.for_each_pending(|p| f(p.item(hay)))
    }

    /// Like [`SplitPart::for_each_while`], but hands each item as the scan
    /// found it ([`Pending`]): about two thirds the size of an item and
    /// not made into one yet, so that a thread that scans can leave that
    /// work, and the copy, to a thread that takes the items.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::scan::Item;
    ///
    /// let f = urifind::Finder::new();
    /// let text = b"http://a.example/\n".repeat(10);
    /// let split = f.split(&text, 1);
    /// let mut found = Vec::new();
    /// split.part(0).for_each_pending(|p| { found.push(p); true });
    /// let Item::Match(m) = found.remove(0).item(&text) else { panic!() };
    /// assert_eq!(m.uri(), b"http://a.example/");
    /// ```
    #[inline]
    pub fn for_each_pending(
        &mut self,
        mut f: impl FnMut(Pending) -> bool,
    ) -> bool {
        loop {
            while let Some(out) = self.eng.pop() {
                self.journal.items += 1;
                let position = out.position(self.hay, self.lines.as_mut());
                if !f(Pending { out, position }) {
                    return false;
                }
            }
            if !self.step() {
                return true;
            }
        }
    }

    /// Moves the next items, as [`SplitPart::for_each_pending`] hands
    /// them, to the end of `batch` until it holds at least `max` (then
    /// true) or the part is done (false). Faster than handing them one
    /// by one: the outcomes of a step of the scan are taken after the
    /// next step, when the processor has finished writing them (read at
    /// once, each waits on its store buffer).
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let text = b"http://a.example/\n".repeat(10);
    /// let split = f.split(&text, 1);
    /// let mut part = split.part(0);
    /// let mut batch = Vec::new();
    /// assert!(part.fill_pending(&mut batch, 4));
    /// assert!(batch.len() >= 4);
    /// assert!(!part.fill_pending(&mut batch, 100));
    /// assert_eq!((batch.len(), part.journal().items()), (10, 10));
    /// ```
    pub fn fill_pending(
        &mut self,
        batch: &mut Vec<Pending>,
        max: usize,
    ) -> bool {
        loop {
            let ready = self.eng.queued();
            let more = self.step();
            let n = if more { ready } else { self.eng.queued() };
            for _ in 0..n {
                // (Written in place, field by field: moved whole through
                // the stack, its bytes would be read back wider than they
                // were written.)
                batch.push(Pending::EMPTY);
                if let Some(p) = batch.last_mut() {
                    self.eng.pop_into(&mut p.out);
                    self.journal.items += 1;
                    if self.lines.is_some() {
                        p.position =
                            p.out.position(self.hay, self.lines.as_mut());
                    }
                }
            }
            if !more {
                return false;
            }
            if batch.len() >= max {
                return true;
            }
        }
    }

    /// What the scan noted, once it is over (before, what it noted so
    /// far).
    ///
    /// # Example
    ///
    /// See [`Split`].
    pub fn journal(self) -> Journal {
        self.journal
    }

    /// Notes the state between two steps, then takes the next step;
    /// false when the scan is over.
    fn step(&mut self) -> bool {
        if self.done {
            return false;
        }
        let st = self.eng.state();
        let p = st.pos();
        // (Outcomes still queued were reported before this state.)
        let items = self.journal.items + self.eng.queued();
        // Noted only when something was reported or a block began since
        // the step before (see the module doc).
        let mark = (items, p / BLOCK);
        if self.noted != Some(mark) {
            if p < self.head_end {
                self.journal.head.push((st, items));
            }
            if p >= self.tail_from {
                self.journal.tail.push((st, items));
            }
        }
        self.noted = Some(mark);
        if p >= self.stop {
            self.done = true;
            return false;
        }
        // Near the start and past the end, the trigger search stops at
        // every block boundary (as a stream's would at the end of what it
        // has read), so that two scans pass through the same states
        // there even where the search would leap over whole blocks.
        // Before the tail, it stops where the tail begins.
        let watch = p < self.head_end || p + 8 >= self.tail_from;
        let lim =
            if watch { ((p + 8) / BLOCK + 1) * BLOCK } else { self.tail_from };
        if lim < self.hay.len() {
            match self.eng.next_trigger(&self.hay[..lim], 0, false) {
                None => return true,
                Some(t) => {
                    self.eng.decide(self.hay, 0, true, t);
                    return true;
                }
            }
        }
        match self.eng.next_trigger(self.hay, 0, true) {
            None => {
                self.done = true;
                // The end is a state every scan reaches last.
                self.journal.head.push((State::END, items));
                self.journal.tail.push((State::END, items));
                false
            }
            Some(t) => {
                self.eng.decide(self.hay, 0, true, t);
                true
            }
        }
    }
}

impl<'h> Iterator for SplitPart<'_, 'h> {
    type Item = Item<'h>;
    fn next(&mut self) -> Option<Item<'h>> {
        loop {
            if let Some(o) = self.eng.pop() {
                self.journal.items += 1;
                let at = o.position(self.hay, self.lines.as_mut());
                return Some(o.into_item(self.hay, at));
            }
            if !self.step() {
                return None;
            }
        }
    }
}
