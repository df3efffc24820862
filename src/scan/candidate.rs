//! A candidate being assembled: its text made of pieces of the input
//! (a URI broken over lines is several pieces, read in place while it
//! is one), its trailing punctuation trimmed, and, once a context has
//! judged it ([`Judge`]), the outcome made from it: a match with the
//! input offsets of its text, or a rejection that shows the text.
//!
//! Every context (delimited, bare, abbreviated) builds its candidates
//! here and nowhere else; the engine queues what they decide.

use std::ops::Range;

use crate::scan::decision::{Found, Verdict, View};
use crate::scan::item::rejoin;
use crate::scan::judge::Judge;
use crate::scan::refusal::Refusal;
use crate::scan::trim::{self, Marks};
use crate::scan::{Context, Rejected, Shape};

/// The candidate being assembled (its buffers are kept from one
/// candidate to the next).
#[derive(Default)]
pub(crate) struct Candidate {
    /// The candidate's pieces of the input (absolute offsets).
    segs: Vec<(usize, usize)>,
    /// Offsets in the text of hyphens at which a line break was joined.
    joins: Vec<usize>,
    /// The candidate's text when it is not one piece of the input as it
    /// stands (when `built`): the pieces, in order, or for an abbreviated
    /// URI the scheme put in front and the piece. A candidate on one line
    /// is read in place, never copied.
    text: Vec<u8>,
    built: bool,
    /// The first piece, as indices into the view it was taken from (the
    /// whole candidate unless `built`).
    one: (usize, usize),
    /// What stands before a bare candidate's scheme.
    marks: Marks,
}

/// The text of a candidate (see [`Candidate::text`]).
#[inline(always)]
fn text_of<'s>(
    one: (usize, usize),
    text: &'s [u8],
    built: bool,
    vw: &'s View<'_>,
) -> &'s [u8] {
    if built {
        text
    } else {
        &vw.v[one.0..one.1]
    }
}

impl Candidate {
    /// Starts a new candidate.
    #[inline]
    pub(crate) fn start(&mut self) {
        self.segs.clear();
        self.joins.clear();
        self.built = false;
        self.one = (0, 0);
        self.marks.quoted = false;
        self.marks.closing.clear();
    }

    /// Adds `v[a..b]` (the view starts at absolute `base`) to the
    /// candidate, noting a hyphen the previous piece ended in. The first
    /// piece stays in place; the text is copied out only when a second
    /// one comes.
    #[inline(always)]
    pub(crate) fn push_seg(
        &mut self,
        v: &[u8],
        base: usize,
        a: usize,
        b: usize,
    ) {
        if let Some(&(_, e)) = self.segs.last() {
            if !self.built {
                self.text.clear();
                self.text.extend_from_slice(&v[self.one.0..self.one.1]);
                self.built = true;
            }
            if v[e - base - 1] == b'-' {
                self.joins.push(self.text.len() - 1);
            }
            self.text.extend_from_slice(&v[a..b]);
        } else {
            self.one = (a, b);
        }
        self.segs.push((base + a, base + b));
    }

    /// Starts an abbreviated candidate: `prefix` (a scheme and `://`)
    /// and then `v[a..b]`.
    pub(crate) fn start_abbreviated(
        &mut self,
        prefix: &[u8],
        v: &[u8],
        base: usize,
        a: usize,
        b: usize,
    ) {
        self.start();
        self.segs.push((base + a, base + b));
        self.one = (a, b);
        self.text.clear();
        self.text.extend_from_slice(prefix);
        self.text.extend_from_slice(&v[a..b]);
        self.built = true;
    }

    /// Forgets the hyphens joined so far (a dangling authority's line
    /// break is no hyphen's).
    pub(crate) fn clear_joins(&mut self) {
        self.joins.clear();
    }

    /// The candidate's text (`vw` is the view it was assembled from).
    #[inline]
    pub(crate) fn text<'s>(&'s self, vw: &'s View<'_>) -> &'s [u8] {
        text_of(self.one, &self.text, self.built, vw)
    }

    /// Whether no piece was added.
    pub(crate) fn is_empty(&self) -> bool {
        self.segs.is_empty()
    }

    /// The absolute input offset of text offset `k` (`k` may equal the
    /// text length: the end of the last piece).
    #[inline]
    fn input_offset(&self, k: usize) -> usize {
        let mut left = k;
        for &(a, b) in &self.segs {
            if left < b - a {
                return a + left;
            }
            left -= b - a;
        }
        self.segs.last().map_or(0, |&(_, b)| b)
    }

    /// The input offset just past text byte `k - 1`.
    #[inline]
    fn input_end(&self, k: usize) -> usize {
        if !self.built {
            return self.segs[0].0 + k;
        }
        if k == 0 {
            return self.segs.first().map_or(0, |s| s.0);
        }
        self.input_offset(k - 1) + 1
    }

    /// What stands before the candidate's scheme, for
    /// [`Candidate::trimmed`] (none unless set after
    /// [`Candidate::start`]).
    pub(crate) fn set_marks(&mut self, m: Marks) {
        self.marks = m;
    }

    /// The length of the text's first `len` bytes with its end trimmed
    /// (never into the scheme): sentence punctuation, apostrophes and
    /// emphasis markup, as `trim` says. (A `)` or `]` at the end has its
    /// partner in the URI: one without ends a bare URI before it.)
    #[inline(always)]
    pub(crate) fn trimmed(
        &self,
        vw: &View<'_>,
        len: usize,
        scheme_len: usize,
    ) -> usize {
        let t = text_of(self.one, &self.text, self.built, vw);
        trim::trimmed(t, len, scheme_len + 1, &self.marks)
    }

    // ----- the outcome -----

    /// The text's first `len` bytes as a match spanning `span`. The
    /// match holds offsets only: the driver reads the URI from its input
    /// (or rejoins it there, when asked, for a URI in pieces).
    #[inline(always)]
    pub(crate) fn found(
        &self,
        judge: &Judge<'_>,
        vw: &View<'_>,
        len: usize,
        span: Range<usize>,
        ctx: Context,
        scheme_len: usize,
    ) -> Found {
        let start = self.segs[0].0;
        let end = self.input_end(len);
        let contiguous = end - start == len;
        debug_assert!(
            contiguous
                || rejoin(&vw.v[start - vw.base..end - vw.base])
                    == self.text(vw)[..len],
            "a rejoined URI is its input without what joining removes"
        );
        let alt = if self.joins.iter().any(|&j| j < len) {
            self.without_hyphens(judge, &self.text(vw)[..len], scheme_len, ctx)
        } else {
            None
        };
        let shape = if contiguous { Shape::Plain } else { Shape::Joined };
        Found { span, uri_span: start..end, shape, context: ctx, alt }
    }

    /// The candidate `uri` without the hyphens at which line breaks
    /// were joined, when that is a URI too.
    #[cold]
    fn without_hyphens(
        &self,
        judge: &Judge<'_>,
        uri: &[u8],
        scheme_len: usize,
        ctx: Context,
    ) -> Option<Box<[u8]>> {
        let len = uri.len();
        let mut a = Vec::with_capacity(len);
        let mut last = 0;
        for &j in self.joins.iter().filter(|&&j| j < len) {
            a.extend_from_slice(&uri[last..j]);
            last = j + 1;
        }
        a.extend_from_slice(&uri[last..]);
        judge
            .check_every_rule(&a, scheme_len, ctx)
            .is_ok()
            .then(|| a.into_boxed_slice())
    }

    /// A bare match of the text's first `len` bytes: its span is the
    /// URI's.
    #[inline(always)]
    pub(crate) fn found_bare(
        &self,
        judge: &Judge<'_>,
        vw: &View<'_>,
        len: usize,
        scheme_len: usize,
    ) -> Found {
        let start = self.segs[0].0;
        let end = self.input_end(len);
        self.found(judge, vw, len, start..end, Context::Bare, scheme_len)
    }

    /// An abbreviated match: `text[..len]`, whose first `shift` bytes
    /// (the scheme put in front) are not in the input.
    pub(crate) fn found_abbreviated(&self, len: usize, shift: usize) -> Found {
        let start = self.segs[0].0;
        let end = start + (len - shift);
        Found {
            span: start..end,
            uri_span: start..end,
            shape: Shape::Abbreviated,
            context: Context::Abbreviated,
            alt: None,
        }
    }

    /// The candidate refused for `f`: a rejection spanning `span` when
    /// rejections are asked for, else nothing.
    pub(crate) fn rejected(
        &self,
        judge: &Judge<'_>,
        vw: &View<'_>,
        span: Range<usize>,
        ctx: Context,
        f: Refusal,
    ) -> Verdict {
        if !judge.opts().rejected {
            return Verdict::Pass;
        }
        Verdict::Rejected(Box::new(Rejected {
            span,
            candidate: self.text(vw).to_vec(),
            offset: f.offset,
            reason: Box::new(f.reason),
            context: ctx,
            position: None,
        }))
    }
}
