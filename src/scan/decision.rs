//! The vocabulary every decision shares: the window of input a
//! decision may read around a trigger ([`View`], bounded by [`Limits`])
//! and what a decision yields ([`Found`], a match with absolute offsets;
//! [`Out`], a match or a rejection, as the engine queues it; [`Verdict`],
//! what a context decides about a trigger). It stands under the rest of
//! the scanner and names none of its rooms but the byte classes, line
//! counting, the options and the public items (`item`).

use std::cell::Cell;
use std::ops::Range;
use std::sync::OnceLock;

use crate::scan::builder::FinderBuilder;
use crate::scan::item::{Context, Item, Match, Position, Rejected, Shape};
use crate::scan::lines::Lines;
use crate::scan::{iri, text};

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
    /// A placeholder, overwritten in place (`Engine::report`).
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
    pub(super) hit_end: Cell<bool>,
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

/// What a context decides about a trigger.
pub(crate) enum Verdict {
    /// Nothing to report: another context may still take the trigger.
    Pass,
    /// Nothing to report, and no other context may take the trigger
    /// (angle brackets that hold an XML element).
    Nothing,
    /// A match: no candidate starts before its end.
    Match(Found),
    /// A candidate refused, reported because rejections are asked for;
    /// another context may still take the trigger.
    Rejected(Box<Rejected>),
}
