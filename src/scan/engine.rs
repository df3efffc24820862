//! The engine behind every scan, and the protocol the drivers follow:
//! ask for the next trigger ([`Engine::next_trigger`], found by
//! `trigger`), let the engine decide it with the input at hand
//! ([`Engine::decide`]), take the outcomes ([`Engine::pop`]), and drop
//! input before [`Engine::keep_from`]. Deciding a trigger means building
//! the window around it ([`View`]) and handing it to the context that
//! owns it: an abbreviation (`abbrev`), or for a colon the plainest URIs
//! at once (`plain`), else its scheme, then a delimited context
//! (`delimited`) if one opens before it, else bare text (`bare`).
//! Contexts build and judge candidates in `candidate`.
//!
//! The engine only ever looks at a bounded window around a trigger
//! ([`Limits`]), so a slice and a stream split anywhere see the same
//! bytes for every decision and report the same items at the same
//! offsets. A decision that needed bytes past the end of its window
//! says so ([`View::touch`]); a stream then undoes it and waits for
//! more input.

use std::cell::Cell;
use std::ops::Range;
use std::sync::OnceLock;

use crate::scan::bare::Bare;
use crate::scan::candidate::Candidates;
use crate::scan::delimited::Closers;
use crate::scan::lines::Lines;
use crate::scan::trigger::{Mark, Trigger, Triggers};
use crate::scan::{abbrev, delimited, iri, plain, scheme, text, xml};
use crate::scan::{
    Context, FinderBuilder, Item, Match, Position, Rejected, Shape,
};

/// How far the engine may look around a trigger.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Bytes before a trigger the engine may read.
    pub behind: usize,
    /// Bytes after a trigger the engine may read.
    pub ahead: usize,
}

impl Limits {
    pub(crate) fn of(o: &FinderBuilder) -> Limits {
        Limits {
            behind: o.bracket_bound + 4096,
            ahead: 2 * o.max_uri_len + 2 * o.bracket_bound + 4096,
        }
    }
}

/// A match with absolute offsets: the URI is made from the input over
/// `uri_span` as `shape` says.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    pub span: Range<usize>,
    pub uri_span: Range<usize>,
    pub shape: Shape,
    pub context: Context,
    pub alt: Option<Box<[u8]>>,
}

impl Found {
    /// A placeholder, overwritten in place (`Candidates::push_found`).
    pub(crate) const EMPTY: Found = Found {
        span: 0..0,
        uri_span: 0..0,
        shape: Shape::Plain,
        context: Context::Bare,
        alt: None,
    };

    /// The public match, borrowing the input from `buf` (which starts at
    /// absolute `base`).
    #[inline(always)]
    pub(crate) fn into_match(self, buf: &[u8], base: usize) -> Match<'_> {
        Match {
            region: &buf[self.uri_span.start - base..self.uri_span.end - base],
            span: self.span,
            uri_span: self.uri_span,
            shape: self.shape,
            built: OnceLock::new(),
            context: self.context,
            without_hyphen: self.alt,
            position: None,
        }
    }
}

/// What the engine reports.
#[derive(Clone, Debug)]
pub(crate) enum Out {
    Match(Found),
    Rejected(Box<Rejected>),
}

impl Out {
    /// Where the item starts (absolute).
    #[inline(always)]
    pub(crate) fn start(&self) -> usize {
        match self {
            Out::Match(f) => f.span.start,
            Out::Rejected(r) => r.span.start,
        }
    }

    /// Where the item starts as `lines` counts it (when it counts lines),
    /// in `hay`, the whole input from offset 0.
    #[inline(always)]
    pub(crate) fn position(
        &self,
        hay: &[u8],
        lines: Option<&mut Lines>,
    ) -> Option<Position> {
        lines.map(|l| l.advance(hay, 0, self.start()))
    }

    /// The public item, borrowing `hay` (the whole input, from offset 0),
    /// at `position`. (Always inline: an item returned from a call is
    /// copied out through memory.)
    #[inline(always)]
    pub(crate) fn into_item(
        self,
        hay: &[u8],
        position: Option<Position>,
    ) -> Item<'_> {
        match self {
            Out::Match(f) => {
                let mut m = f.into_match(hay, 0);
                m.position = position;
                Item::Match(m)
            }
            Out::Rejected(mut r) => {
                r.position = position;
                Item::Rejected(*r)
            }
        }
    }
}

/// The window around one trigger: `v` is the input from absolute offset
/// `base`; the engine never reads before `lo` (where the previous match
/// ended) for the start of a candidate.
pub(crate) struct View<'a> {
    pub v: &'a [u8],
    pub base: usize,
    pub lo: usize,
    /// Whether `v` ends where the input does.
    pub end_of_input: bool,
    /// IRIs are scanned too ([`FinderBuilder::iri`]).
    pub iri: bool,
    /// Set when a decision needed bytes at or past the window's end.
    hit_end: Cell<bool>,
}

impl View<'_> {
    /// Notes that a decision read `v` up to index `i`.
    #[inline]
    pub(crate) fn touch(&self, i: usize) {
        if i >= self.v.len() {
            self.hit_end.set(true);
        }
    }

    /// The end of the run of bytes that continue a bare URI (with IRIs,
    /// a bare IRI) from `v[i]` (at most `cap`), noting what deciding it
    /// read.
    #[inline]
    pub(crate) fn run(&self, i: usize, cap: usize) -> usize {
        let i = if self.iri {
            iri::bare_run(self.v, i, cap, self.end_of_input)
        } else {
            text::uri_run(self.v, i, cap, self.end_of_input)
        };
        self.touch(text::run_stop(self.v, i).0);
        i
    }
}

#[cfg(test)]
impl<'a> View<'a> {
    /// The whole of `v` as the input, nothing matched yet.
    pub(crate) fn whole(v: &'a [u8]) -> View<'a> {
        View {
            v,
            base: 0,
            lo: 0,
            end_of_input: true,
            iri: false,
            hit_end: Cell::new(false),
        }
    }
}

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
    cands: Candidates<'f>,
    closers: Closers,
    bare: Bare,
    /// The plainest bare URIs are decided in one pass (`plain`): not
    /// with IRIs, a list of schemes, any scheme, or the filters off.
    plain: bool,
}

impl<'f> Engine<'f> {
    pub(crate) fn new(opts: &'f FinderBuilder) -> Engine<'f> {
        Engine {
            limits: Limits::of(opts),
            triggers: Triggers::new(opts),
            cands: Candidates::new(opts),
            closers: Closers::default(),
            bare: Bare::default(),
            plain: opts.prefilter
                && !opts.iri
                && !opts.any_scheme
                && opts.schemes.is_none(),
        }
    }

    /// The next outcome decided, oldest first.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<Out> {
        self.cands.pop()
    }

    /// Moves the next outcome into `dst` (see [`Candidates::pop_into`]);
    /// false when none waits.
    #[inline(always)]
    pub(crate) fn pop_into(&mut self, dst: &mut Out) -> bool {
        self.cands.pop_into(dst)
    }

    /// How many outcomes wait to be taken.
    #[inline]
    pub(crate) fn queued(&self) -> usize {
        self.cands.queued()
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
        self.triggers.next(buf, base, eof, self.cands.resume())
    }

    /// Where the scan stands, between two triggers (outcomes that wait
    /// to be taken change nothing ahead).
    pub(crate) fn state(&self) -> State {
        let pos = self.triggers.pos();
        let r = self.cands.resume();
        State { pos, resume: (r + self.limits.behind > pos).then_some(r) }
    }

    /// Goes to the state `s` (of a scan of the same input).
    pub(crate) fn restart(&mut self, s: State) {
        self.cands.restore(0, s.resume.unwrap_or(0));
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
            lo: self.cands.resume().max(lo) - lo,
            end_of_input: eof && hi == base + buf.len(),
            iri: self.cands.opts().iri,
            hit_end: Cell::new(false),
        }
    }

    /// Hands the trigger `t` to the context that owns it.
    fn handle(&mut self, vw: &View<'_>, t: Trigger) {
        match t {
            Trigger::Abbrev(t) => {
                self.triggers.took_abbrev(t);
                abbrev::scan(&mut self.cands, vw, t - vw.base);
                self.triggers.set_pos((t + 1).max(self.cands.resume()));
            }
            Trigger::Colon(t) => {
                self.bare.clear_skip();
                self.colon(vw, t - vw.base);
                let pos =
                    (t + 1).max(self.cands.resume()).max(self.bare.skip_to());
                self.triggers.set_pos(pos);
            }
        }
    }

    /// A `:` at `v[c]`: the plainest bare URI at once, or its scheme,
    /// then the context around it.
    #[inline(always)]
    fn colon(&mut self, vw: &View<'_>, c: usize) {
        if self.plain {
            let found = plain::decide(
                &self.cands,
                &mut self.bare,
                &mut self.closers,
                vw,
                c,
            );
            if let Some(f) = found {
                if cfg!(debug_assertions) {
                    self.check_plain(vw, c, f);
                } else {
                    self.cands.report_found(f);
                }
                return;
            }
        }
        self.colon_general(vw, c);
    }

    /// Holds `plain` to the general way: deciding the colon `v[c]` so
    /// reports the match `want`, and nothing else.
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    fn check_plain(&mut self, vw: &View<'_>, c: usize, want: Found) {
        #[cfg(debug_assertions)]
        {
            let n = self.cands.queued();
            self.colon_general(vw, c);
            assert_eq!(self.cands.queued(), n + 1, "{want:?}");
            let Some(Out::Match(f)) = self.cands.last_queued() else {
                panic!("{want:?}: no match");
            };
            assert_eq!(
                (&f.span, &f.uri_span, f.shape, f.context, &f.alt),
                (&want.span, &want.uri_span, want.shape, want.context, &None),
            );
            assert_eq!(self.cands.resume(), want.span.end);
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
        let bound = self.cands.opts().bracket_bound;
        if v[r].is_ascii_alphabetic() {
            // A `URL:` right after `<` is a prefix, not a scheme.
            if v[r..c].eq_ignore_ascii_case(b"url")
                && delimited::angle_before(v, r, lo, bound).is_some()
            {
                return;
            }
            if let Some((open, d)) = delimited::opened(v, r, lo, bound, vw.iri)
            {
                if delimited::scan(
                    &mut self.cands,
                    &mut self.closers,
                    vw,
                    open,
                    r,
                    c,
                    d,
                ) {
                    return;
                }
            }
        }
        if xml::closing_tag(vw, r, c) {
            return;
        }
        let Some(s) = scheme::bare_start_of(v, r, c, dot) else { return };
        self.bare.scan(&mut self.cands, vw, s, c);
    }

    /// What a stream saves before a trial decision.
    fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            resume: self.cands.resume(),
            queued: self.cands.queued(),
            triggers: self.triggers.mark(),
        }
    }

    fn restore(&mut self, c: Checkpoint) {
        self.cands.restore(c.queued, c.resume);
        self.triggers.reset(c.triggers);
    }
}

/// What a trial decision may change and [`Engine::decide`] undoes.
struct Checkpoint {
    resume: usize,
    queued: usize,
    triggers: Mark,
}
