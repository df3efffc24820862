//! The engine behind every scan, and the protocol the drivers follow:
//! ask for the next trigger ([`Engine::next_trigger`], found by
//! `trigger`), let the engine decide it with the input at hand
//! ([`Engine::decide`]), take the outcomes ([`Engine::pop`]), and drop
//! input before [`Engine::keep_from`]. Deciding a trigger means building
//! the window around it ([`View`]) and handing it to the context that
//! owns it: an abbreviation (`abbrev`), or for a colon the plainest URIs
//! at once (`plain`), else its scheme, then a delimited context
//! (`delimited`) if one opens before it, else bare text (`bare`).
//! Contexts assemble candidates in `candidate`, judge them with `judge`
//! and return their [`Verdict`]; the engine queues the outcomes and
//! remembers where the last match ended, before which no new candidate
//! may start.
//!
//! The engine only ever looks at a bounded window around a trigger
//! ([`Limits`]), so a slice and a stream split anywhere see the same
//! bytes for every decision and report the same items at the same
//! offsets. A decision that needed bytes past the end of its window
//! says so ([`View::touch`]); a stream then undoes it and waits for
//! more input.

use std::cell::Cell;
use std::collections::VecDeque;

use crate::scan::bare::Bare;
use crate::scan::candidate::Candidate;
use crate::scan::decision::{Found, Limits, Out, Verdict, View};
use crate::scan::delimited::Closers;
use crate::scan::judge::Judge;
use crate::scan::trigger::{Mark, Trigger, Triggers};
use crate::scan::FinderBuilder;
use crate::scan::{abbrev, delimited, plain, scheme, text, xml};

/// Where a scan stands between two triggers, all its future depends
/// on: where the trigger search goes on, and where the last match ended
/// while that is still within the look-behind of a window (further
/// back, no decision can see it). Everything else the engine keeps is a
/// cache of facts about the input. See `split`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct State {
    pos: usize,
    resume: Option<usize>,
}

impl State {
    /// The state of a scan over: no trigger is left.
    pub(crate) const END: State = State { pos: usize::MAX, resume: None };

    /// A scan at `pos` with no match ended near it.
    pub(crate) fn fresh(pos: usize) -> State {
        State { pos, resume: None }
    }

    /// Where the trigger search goes on.
    pub(crate) fn pos(self) -> usize {
        self.pos
    }
}

/// The scanning state shared by slices and streams.
pub(crate) struct Engine<'f> {
    limits: Limits,
    triggers: Triggers<'f>,
    judge: Judge<'f>,
    cand: Candidate,
    closers: Closers,
    bare: Bare,
    /// The plainest bare URIs are decided in one pass (`plain`): not
    /// with IRIs, a list of schemes, any scheme, or the filters off.
    plain: bool,
    /// Matches and rejections not yet taken by a driver.
    queue: VecDeque<Out>,
    /// Absolute offset before which no new candidate may start (where
    /// the last match ended).
    resume: usize,
}

impl<'f> Engine<'f> {
    pub(crate) fn new(opts: &'f FinderBuilder) -> Engine<'f> {
        Engine {
            limits: Limits::of(opts),
            triggers: Triggers::new(opts),
            judge: Judge::new(opts),
            cand: Candidate::default(),
            closers: Closers::default(),
            bare: Bare::default(),
            plain: opts.prefilter
                && !opts.iri
                && !opts.any_scheme
                && opts.schemes.is_none(),
            queue: VecDeque::new(),
            resume: 0,
        }
    }

    /// Makes the engine ready for a new input, as [`Engine::new`] would,
    /// keeping what it set up for its options (the validators, the trigger
    /// search's routine) and the memory of its queue and candidate
    /// buffers. Every fact it cached about the last input (all keyed by
    /// offsets into it) is dropped.
    pub(crate) fn reset(&mut self) {
        self.triggers.restart();
        self.closers = Closers::default();
        self.bare = Bare::default();
        self.cand.start();
        self.queue.clear();
        self.resume = 0;
    }

    /// The next outcome decided, oldest first.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<Out> {
        self.queue.pop_front()
    }

    /// Moves the oldest outcome into `dst`, a match field by field (read
    /// whole right after it was queued field by field, it would wait on
    /// the store buffer: see `Engine::report`); false when none
    /// waits.
    #[inline(always)]
    pub(crate) fn pop_into(&mut self, dst: &mut Out) -> bool {
        let Some(front) = self.queue.front_mut() else { return false };
        match (front, dst) {
            (Out::Match(f), Out::Match(d)) => {
                d.span = f.span.clone();
                d.uri_span = f.uri_span.clone();
                d.shape = f.shape;
                d.context = f.context;
                d.alt = f.alt.take();
            }
            (src, d) => *d = std::mem::replace(src, Out::Match(Found::EMPTY)),
        }
        self.queue.pop_front();
        true
    }

    /// How many outcomes wait to be taken.
    #[inline]
    pub(crate) fn queued(&self) -> usize {
        self.queue.len()
    }

    /// The next trigger in `buf` (which starts at absolute `base`), or
    /// `None` when `buf` holds no more (with `eof`, none is to come).
    #[inline]
    pub(crate) fn next_trigger(
        &mut self,
        buf: &[u8],
        base: usize,
        eof: bool,
    ) -> Option<Trigger> {
        self.triggers.next(buf, base, eof, self.resume)
    }

    /// Where the scan stands, between two triggers (outcomes that wait
    /// to be taken change nothing ahead).
    pub(crate) fn state(&self) -> State {
        let pos = self.triggers.pos();
        let r = self.resume;
        State { pos, resume: (r + self.limits.behind > pos).then_some(r) }
    }

    /// Goes to the state `s` (of a scan of the same input).
    pub(crate) fn restart(&mut self, s: State) {
        self.queue.clear();
        self.resume = s.resume.unwrap_or(0);
        self.triggers.set_pos(s.pos);
    }

    /// The absolute offset the trigger search has reached.
    pub(crate) fn searched_to(&self) -> usize {
        self.triggers.pos()
    }

    /// The first absolute offset the engine may still read: input before
    /// it can be dropped.
    #[inline]
    pub(crate) fn keep_from(&self) -> usize {
        self.triggers.pos().saturating_sub(self.limits.behind)
    }

    /// Decides the trigger `t` with `buf` (which starts at absolute
    /// `base` and ends the input when `eof`). False when the decision
    /// needs bytes not in `buf` yet: nothing is then changed, and the
    /// same trigger comes again once more input is at hand.
    pub(crate) fn decide(
        &mut self,
        buf: &[u8],
        base: usize,
        eof: bool,
        t: Trigger,
    ) -> bool {
        let vw = self.window(buf, base, t.at(), eof);
        if eof || t.at() + self.limits.ahead <= base + buf.len() {
            self.handle(&vw, t);
            return true;
        }
        // Try with what is here; keep the result only if no decision
        // needed bytes that have not arrived yet.
        let saved = self.checkpoint();
        self.handle(&vw, t);
        if !vw.hit_end.get() {
            return true;
        }
        self.restore(saved);
        self.triggers.set_pos(t.at());
        false
    }

    /// The window the engine may see around the trigger at `t`.
    fn window<'b>(
        &self,
        buf: &'b [u8],
        base: usize,
        t: usize,
        eof: bool,
    ) -> View<'b> {
        let lo = t.saturating_sub(self.limits.behind).max(base);
        let hi = (t + self.limits.ahead).min(base + buf.len());
        View {
            v: &buf[lo - base..hi - base],
            base: lo,
            lo: self.resume.max(lo) - lo,
            end_of_input: eof && hi == base + buf.len(),
            iri: self.judge.opts().iri,
            hit_end: Cell::new(false),
        }
    }

    /// Hands the trigger `t` to the context that owns it.
    fn handle(&mut self, vw: &View<'_>, t: Trigger) {
        match t {
            Trigger::Abbrev(t) => {
                self.triggers.took_abbrev(t);
                let v =
                    abbrev::scan(&mut self.cand, &self.judge, vw, t - vw.base);
                self.take(v);
                self.triggers.set_pos((t + 1).max(self.resume));
            }
            Trigger::Colon(t) => {
                if let Some(f) = self.colon(vw, t).found(vw.base) {
                    self.report(f);
                }
            }
        }
    }

    /// [`Engine::decide`] with the whole input in `buf` (a slice): a
    /// match of the plain way comes back rather than queued (see
    /// [`plain::Hit`]); anything else is queued.
    #[inline(always)]
    pub(crate) fn decide_whole(
        &mut self,
        buf: &[u8],
        t: Trigger,
    ) -> Option<Found> {
        let vw = self.window(buf, 0, t.at(), true);
        match t {
            Trigger::Colon(t) => self.colon(&vw, t).found(vw.base),
            _ => {
                self.handle(&vw, t);
                None
            }
        }
    }

    /// The `:` at absolute `t`: the plainest URI at once, returned (the
    /// scan goes on after it, but it is not queued), or its scheme, then
    /// the context around it, queued.
    #[inline(always)]
    fn colon(&mut self, vw: &View<'_>, t: usize) -> plain::Hit {
        let c = t - vw.base;
        self.bare.clear_skip();
        let mut hit = plain::Hit::NONE;
        if self.plain {
            hit = plain::decide(
                &self.judge,
                &mut self.bare,
                &mut self.closers,
                vw,
                c,
            );
            if let Some(f) = hit.found(vw.base) {
                if cfg!(debug_assertions) {
                    self.check_plain(vw, c, &f);
                }
                self.resume = f.span.end;
            }
        }
        if hit == plain::Hit::NONE {
            self.colon_general(vw, c);
        }
        let pos = (t + 1).max(self.resume).max(self.bare.skip_to());
        self.triggers.set_pos(pos);
        hit
    }

    /// Holds `plain` to the general way: deciding the colon `v[c]` so
    /// reports the match `want`, and nothing else.
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    fn check_plain(&mut self, vw: &View<'_>, c: usize, want: &Found) {
        #[cfg(debug_assertions)]
        {
            let n = self.queue.len();
            self.colon_general(vw, c);
            assert_eq!(self.queue.len(), n + 1, "{want:?}");
            let Some(Out::Match(f)) = self.queue.pop_back() else {
                panic!("{want:?}: no match");
            };
            assert_eq!(
                (&f.span, &f.uri_span, f.shape, f.context, &f.alt),
                (&want.span, &want.uri_span, want.shape, want.context, &None),
            );
            assert_eq!(self.resume, want.span.end);
        }
        #[cfg(not(debug_assertions))]
        let _ = (vw, c, want);
    }

    /// [`Engine::colon`] the general way.
    fn colon_general(&mut self, vw: &View<'_>, c: usize) {
        let v = vw.v;
        let lo = vw.lo;
        // Fast path: a URI has at least one byte after `scheme:`, and in
        // no context can that be a space, a tab or a byte that ends URIs
        // (a line break may still be rejoined inside brackets). Most
        // colons in prose end here.
        vw.touch(c + 1);
        match v.get(c + 1) {
            None => return,
            Some(b' ' | b'\t') => {
                // Only a whitespace run holding a line break, removed
                // inside brackets and quotes, may follow `scheme:`.
                let j = text::skip_blanks(v, c + 1);
                vw.touch(j + 2);
                if text::line_break_at(v, j).is_none() {
                    return;
                }
            }
            Some(&b)
                if !text::is_uri_byte(b)
                    && b != b'\n'
                    && b != b'\r'
                    && !(vw.iri && b >= 0x80) =>
            {
                return
            }
            _ => {}
        }
        // The run of scheme characters ending at the colon. Right after
        // an opener it is the scheme; in bare text `scheme` says which
        // part of it is.
        let (r, dot) = scheme::run(v, lo, c);
        if r == c {
            return;
        }
        let bound = self.judge.opts().bracket_bound;
        if v[r].is_ascii_alphabetic() {
            // A `URL:` right after `<` is a prefix, not a scheme.
            if v[r..c].eq_ignore_ascii_case(b"url")
                && delimited::angle_before(v, r, lo, bound).is_some()
            {
                return;
            }
            if let Some((open, d)) = delimited::opened(v, r, lo, bound, vw.iri)
            {
                let v = delimited::scan(
                    &mut self.cand,
                    &self.judge,
                    &mut self.closers,
                    vw,
                    open,
                    r,
                    c,
                    d,
                );
                if self.take(v) {
                    return;
                }
            }
        }
        if xml::closing_tag(vw, r, c) {
            return;
        }
        let Some(s) = scheme::bare_start_of(v, r, c, dot) else { return };
        let v = self.bare.scan(&mut self.cand, &self.judge, vw, s, c);
        self.take(v);
    }

    /// Queues what a context decided; true when that decided the
    /// trigger (a match, or nothing that any context may report).
    #[inline(always)]
    fn take(&mut self, v: Verdict) -> bool {
        match v {
            Verdict::Pass => false,
            Verdict::Nothing => true,
            Verdict::Match(f) => {
                self.report(f);
                true
            }
            Verdict::Rejected(r) => {
                self.queue.push_back(Out::Rejected(r));
                false
            }
        }
    }

    /// Queues a match, written field by field into the queue's own
    /// memory (built first and then moved in, it is stored a word at a
    /// time and at once read back in wider pieces, which the processor
    /// cannot forward from its store buffer: a stall of a dozen cycles at
    /// every match): no candidate starts before its end.
    #[inline(always)]
    fn report(&mut self, f: Found) {
        self.resume = f.span.end;
        self.queue.push_back(Out::Match(Found::EMPTY));
        if let Some(Out::Match(q)) = self.queue.back_mut() {
            q.span = f.span;
            q.uri_span = f.uri_span;
            q.shape = f.shape;
            q.context = f.context;
            q.alt = f.alt;
        }
    }

    /// What a stream saves before a trial decision.
    fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            resume: self.resume,
            queued: self.queue.len(),
            triggers: self.triggers.mark(),
        }
    }

    fn restore(&mut self, c: Checkpoint) {
        self.queue.truncate(c.queued);
        self.resume = c.resume;
        self.triggers.reset(c.triggers);
    }
}

/// What a trial decision may change and [`Engine::decide`] undoes.
struct Checkpoint {
    resume: usize,
    queued: usize,
    triggers: Mark,
}
