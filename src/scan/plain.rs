//! The commonest colons, decided in one pass: `scheme://host/path` of
//! an IP-based scheme whose letters follow
//!
//! * a blank, a line start or the end of the previous match (with
//!   nothing before that could open a context), a `)` or `]`, a
//!   character reference for `<`, `>` or `"`, or a `<` or `"` whose
//!   closer is nowhere within the bracket bound (or whose context fails
//!   as the delimited scan reads it): a bare URI whose run of URI bytes
//!   ends at a byte no URI holds (whitespace, `<`, `"`, ...) or at such
//!   a character reference, or that a `]` or `)` without a partner
//!   ends, with nothing to trim or join;
//! * a `<` or `"` right before the scheme: a URI that ends at the
//!   closer, or at a line break after which the next line's text goes on
//!   with bytes a path takes as they stand, up to the closer (two pieces,
//!   rejoined), with nothing to trim.
//!
//! The engine tries it before anything else; it reports exactly what the
//! general way (scheme, contexts, `delimited`, `bare`) would, and
//! declines everything else, which then goes that way. In debug builds
//! the engine runs the general way after it and checks that both agree.
//!
//! What it saves is the general way's many small steps for shapes that
//! need none of them: the scheme is letters only and needs no lookup of
//! its parts, the context is known from one byte, the candidate is read
//! once and checked in the same pass (no copy of its pieces), and no
//! bracket, escape, character reference or trailing punctuation asks for
//! more.

use crate::grammar::{self, schemes};
use crate::scan::bare::Bare;
use crate::scan::continuation::{self, Gap};
use crate::scan::decision::{Found, View};
use crate::scan::delimited::{Closers, Delimiter, ANGLE, DELIMITERS, QUOTED};
use crate::scan::entity::{self, Amp};
use crate::scan::judge::Judge;
use crate::scan::{text, Context, Shape};

/// A match of the plain way in two words, so that it comes back from
/// the calls that find it in registers (a [`Found`] is written to memory
/// a word at a time and read back wider, which the processor cannot
/// forward from its store buffer: a stall at every match of dense text).
/// `start` is where the URI starts in the view, with what the match is
/// in its top bits (`KIND_SHIFT`); `end` is where the URI ends. A
/// delimited match's span takes its one-byte opener and closer too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
pub(crate) struct Hit {
    start: usize,
    end: usize,
}

/// Where the kind of a [`Hit`] sits in its `start` (offsets in a view
/// are far below).
const KIND_SHIFT: u32 = usize::BITS - 3;
/// The kinds of [`Hit`]: none (the plain way declines), a bare URI, a
/// URI in angle brackets or quotes, either of those rejoined.
const NONE: usize = 0;
const BARE: usize = 1;
const ANGLED: usize = 2;
const QUOTED_: usize = 3;
const JOINED: usize = 4;

impl Hit {
    /// The plain way declines.
    pub(crate) const NONE: Hit = Hit { start: NONE, end: 0 };

    fn new(kind: usize, start: usize, end: usize) -> Hit {
        debug_assert!(start < 1 << KIND_SHIFT);
        Hit { start: start | kind << KIND_SHIFT, end }
    }

    /// The bare URI `v[s..e]`.
    #[inline(always)]
    fn bare(s: usize, e: usize) -> Hit {
        Hit::new(BARE, s, e)
    }

    /// Whether it is a match in angle brackets or quotes (it ends at
    /// their closer).
    #[inline(always)]
    fn closed(self) -> bool {
        self.start >> KIND_SHIFT & 3 > BARE
    }

    /// The match, with absolute offsets in a view starting at `base`.
    #[inline(always)]
    pub(crate) fn found(self, base: usize) -> Option<Found> {
        let kind = self.start >> KIND_SHIFT;
        let s = base + (self.start & ((1 << KIND_SHIFT) - 1));
        let e = base + self.end;
        let (span, context) = match kind & 3 {
            NONE => return None,
            BARE => (s..e, Context::Bare),
            ANGLED => (s - 1..e + 1, Context::Angle),
            _ => (s - 1..e + 1, Context::Quoted),
        };
        let shape =
            if kind & JOINED != 0 { Shape::Joined } else { Shape::Plain };
        Some(Found { span, uri_span: s..e, shape, context, alt: None })
    }
}

/// A bound on the schemes taken: they are shorter (`prospero`, the one
/// IP-based scheme of eight letters, goes the general way).
const SCHEME_MAX: usize = 8;

/// The bytes that, standing right before the blank or line break before
/// a scheme, may let a context open (the last byte of an opener, a mail
/// quote prefix, another line break, more blanks): the plain way
/// declines after them.
static MAY_OPEN: [bool; 256] = {
    let mut t = [false; 256];
    let bytes = b" \t\x0b\x0c\r\n<:>";
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] = true;
        i += 1;
    }
    t
};

/// The longest run the walk of the whole common shape reads (after an
/// `&` that starts no reference): as the bare way's.
const COMMON_MAX: usize = 512;

/// Whether the `;` at `v[i]` ends a character reference for `<`, `>` or
/// `"` that starts after `lo` and at most 16 bytes before it.
#[inline]
fn ends_reference(v: &[u8], lo: usize, i: usize) -> bool {
    // Most are `&lt;` or `&gt;`.
    if i >= lo + 3 && v[i - 3] == b'&' {
        let w = [v[i - 2] | 0x20, v[i - 1] | 0x20];
        return &w == b"lt" || &w == b"gt";
    }
    let from = i.saturating_sub(16).max(lo);
    let Some(k) = v[from..i].iter().rposition(|&b| b == b'&') else {
        return false;
    };
    let a = from + k;
    !v[a..i].contains(&b';') && entity::amp_at(v, a) == Amp::Delimiter
}

/// How many of the last bytes of `w` (the eight bytes before a colon,
/// read little-endian) are ASCII letters: those that end it, up to a
/// byte that is not one.
#[inline(always)]
fn letters_ending(w: u64) -> usize {
    const HI: u64 = 0x8080_8080_8080_8080;
    // Lower case: only letters land in `a..=z` (bytes from 0x80 keep
    // their high bit, and are told apart by it).
    let x = w | 0x2020_2020_2020_2020;
    let low = x & !HI;
    // Per byte, bit 7 of `low + 0x1f` says `low >= b'a'`, of `low + 5`
    // says `low > b'z'`; neither sum carries out of its byte.
    let from_a = low.wrapping_add(0x1f1f_1f1f_1f1f_1f1f);
    let past_z = low.wrapping_add(0x0505_0505_0505_0505);
    let letters = from_a & !past_z & !x & HI;
    (!letters & HI).leading_zeros() as usize / 8
}

/// The match the colon `v[c]` starts, when the plainest way can tell
/// (see the module doc); [`Hit::NONE`] declines, saying nothing. Remembers the
/// run in `bare`'s cache and what it learns of closers in `closers`, as
/// the general way would.
#[inline(always)]
pub(crate) fn decide(
    judge: &Judge<'_>,
    bare: &mut Bare,
    closers: &mut Closers,
    vw: &View<'_>,
    c: usize,
) -> Hit {
    let v = vw.v;
    if c + 3 >= v.len() || v[c + 1] != b'/' || v[c + 2] != b'/' {
        return Hit::NONE;
    }
    // The scheme: the letters right before the colon, back to the end of
    // the previous match, an IP-based one. (Read a word at a time: a
    // colon in the input's first eight bytes goes the general way.)
    let lo = vw.lo;
    if c < 8 {
        return Hit::NONE;
    }
    let w = u64::from_le_bytes(v[c - 8..c].try_into().expect("eight bytes"));
    let n = letters_ending(w).min(c - lo);
    if !(2..SCHEME_MAX).contains(&n)
        || !schemes::is_ip_based_folded(
            (w | 0x2020_2020_2020_2020) >> (8 * (8 - n)),
        )
    {
        return Hit::NONE;
    }
    let s = c - n;
    if s == lo {
        return bare_uri(judge, bare, vw, s, n);
    }
    // What stands before it: nothing that opens a context, or an
    // opener right before it.
    match v[s - 1] {
        b' ' | b'\t' | b'\n' => {
            if s - 1 > lo && MAY_OPEN[v[s - 2] as usize] {
                return Hit::NONE;
            }
            bare_uri(judge, bare, vw, s, n)
        }
        b'<' => opened(judge, bare, closers, vw, s, n, &DELIMITERS[ANGLE]),
        b'"' => opened(judge, bare, closers, vw, s, n, &DELIMITERS[QUOTED]),
        _ => after_other(judge, bare, vw, s, n),
    }
}

/// [`decide`] after the opener of `d` right before the scheme: a URI in
/// that context, or a bare one when the context's closer is nowhere
/// within the bracket bound (turned away, as `delimited` does). What is
/// known of closers says at once whether it is; when it does not, the
/// URI is read in the context first: a closer it ends at is the first
/// after the opener, and within the bound (no search for it is needed).
#[inline(always)]
fn opened(
    judge: &Judge<'_>,
    bare: &mut Bare,
    closers: &mut Closers,
    vw: &View<'_>,
    s: usize,
    n: usize,
    d: &Delimiter,
) -> Hit {
    let close = d.close.as_bytes()[0];
    let b = s + judge.opts().bracket_bound;
    match closers.known(vw, close, s, b) {
        Some(true) => delimited(judge, bare, vw, s, n, d),
        Some(false) => bare_uri(judge, bare, vw, s, n),
        None => {
            let hit = delimited(judge, bare, vw, s, n, d);
            if hit.closed() || closers.may_close(vw, close, s, b) {
                hit
            } else {
                bare_uri(judge, bare, vw, s, n)
            }
        }
    }
}

/// [`decide`] after another byte before the scheme: a bare URI after a
/// closing bracket or a character reference for `<`, `>` or `"`
/// (nothing opens after these, nor are they marks or part of a scheme;
/// each is a byte the plain walk stops at, so no two walks read the same
/// bytes). Out of line: the commonest URIs follow a blank.
#[inline(never)]
fn after_other(
    judge: &Judge<'_>,
    bare: &mut Bare,
    vw: &View<'_>,
    s: usize,
    n: usize,
) -> Hit {
    match vw.v[s - 1] {
        b')' | b']' => bare_uri(judge, bare, vw, s, n),
        b';' if ends_reference(vw.v, vw.lo, s - 1) => {
            bare_uri(judge, bare, vw, s, n)
        }
        _ => Hit::NONE,
    }
}

/// A bare URI with the scheme of `n` letters at `v[s]`: the common
/// shape, ending where the run of URI bytes does (at a byte no URI
/// holds, or at a character reference that stands for `<`, `>` or `"`;
/// any other `&` it holds starts none), or at a `]` or `)` without a
/// partner in it, with nothing to trim or join.
#[inline(always)]
fn bare_uri(
    judge: &Judge<'_>,
    bare: &mut Bare,
    vw: &View<'_>,
    s: usize,
    n: usize,
) -> Hit {
    let v = vw.v;
    let cap = (s + judge.opts().max_uri_len + 1).min(v.len());
    let Some((k, auth)) = judge.plain_prefix(&v[s..cap], n) else {
        return Hit::NONE;
    };
    let e = s + k;
    if e == cap {
        return Hit::NONE;
    }
    if text::is_uri_byte(v[e]) || v[e] >= 0x80 {
        return past_uri_byte(judge, vw, s, n, auth, e, cap);
    }
    let last = v[e - 1];
    if text::is_trim(last) || last == b'-' {
        return Hit::NONE;
    }
    debug_assert_eq!(text::uri_run(v, s, cap, vw.end_of_input), e);
    // (`v[e]` is neither `%` nor `&`: the run's decision read no further
    // than the general way's.)
    vw.touch(e + 3);
    bare.remember_run(vw.base + s, vw.base + e);
    Hit::bare(s, e)
}

/// [`bare_uri`] where the plain walk stopped at `v[e]`, a URI byte (the
/// authority ending at `auth`, relative to `s`): the URI ends at a
/// character reference for `<`, `>` or `"` (after any other `&`), or at
/// a `]` or `)` without a partner, where the run of URI bytes goes on.
/// (Out of line: the commonest URIs need none of it.)
#[inline(never)]
fn past_uri_byte(
    judge: &Judge<'_>,
    vw: &View<'_>,
    s: usize,
    n: usize,
    auth: usize,
    e: usize,
    cap: usize,
) -> Hit {
    let v = vw.v;
    let e = match v[e] {
        b'&' => match entity::amp_at(v, e) {
            Amp::Delimiter => e,
            Amp::Unsure => return Hit::NONE,
            Amp::Other => {
                // The run goes on: the common shape read whole, up to a
                // byte no URI holds, every `&` in it one that starts no
                // such reference and no `)` in it (no bracket ends it).
                // (Bounded as the bare way's walk is: such walks may read
                // the same bytes again.)
                let far = cap.min(s + COMMON_MAX);
                let Some((k, _)) = judge.common_prefix(&v[s..far], n) else {
                    return Hit::NONE;
                };
                let end = s + k;
                let after = (e + 1).min(end);
                let (paren, amp) = text::holds(&v[after..end], b')', b'&');
                if end == far
                    || text::is_uri_byte(v[end])
                    || v[end] >= 0x80
                    || paren
                    || (amp && !entity::all_other(v, after, end))
                {
                    return Hit::NONE;
                }
                end
            }
        },
        // A closing bracket that no opener before it in the URI pairs
        // (the shape holds no `[`, and `(` only after the authority)
        // ends it, wherever the run of URI bytes goes on.
        b']' => e,
        b')' if !text::holds(&v[s + auth..e], b'(', b'(').0 => e,
        _ => return Hit::NONE,
    };
    let last = v[e - 1];
    if text::is_trim(last) || last == b'-' {
        return Hit::NONE;
    }
    // (`v[e]` is not `%`: the run's decision read no further than the
    // general way's. The run is not remembered: where the URI ends, it
    // may go on.)
    vw.touch(e + 3);
    Hit::bare(s, e)
}

/// [`delimited`] where the first piece, ended by `v[e]`, is followed by
/// no line that may continue it (`gap`; [`Gap::End`] when `v[e]` is no
/// whitespace): the URI is bare where the context fails so. (Out of
/// line: the rarer case.)
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn failed_first(
    judge: &Judge<'_>,
    bare: &mut Bare,
    vw: &View<'_>,
    s: usize,
    n: usize,
    e: usize,
    gap: Gap,
    d: &Delimiter,
) -> Hit {
    let v = vw.v;
    let fails = match gap {
        // (A byte no URI holds ends the context.)
        _ if !text::is_ws(v[e]) => ends_context(v[e]),
        Gap::Blanks(j) => after_blanks(v, j, d),
        Gap::End => true,
        Gap::Line(_) => false,
    };
    if !fails {
        return Hit::NONE;
    }
    bare_uri(judge, bare, vw, s, n)
}

/// A URI with the scheme of `n` letters at `v[s]`, right after the
/// opener of `d` (one byte, as its closer is): the common shape up to the
/// closer, or up to a line break that the next line's text continues
/// up to the closer with bytes a path takes as they stand (two pieces,
/// rejoined), all within the bracket bound and the longest URI.
#[inline(always)]
fn delimited(
    judge: &Judge<'_>,
    bare: &mut Bare,
    vw: &View<'_>,
    s: usize,
    n: usize,
    d: &Delimiter,
) -> Hit {
    let v = vw.v;
    let open = s - 1;
    let close = d.close.as_bytes()[0];
    // As `delimited` reads: runs up to `stop`, a closer before it.
    let stop = (open + 1 + judge.opts().bracket_bound).min(v.len());
    let Some((k, auth)) = judge.plain_prefix(&v[s..stop], n) else {
        return Hit::NONE;
    };
    let e = s + k;
    if e >= stop {
        return Hit::NONE;
    }
    // Where the context fails as `delimited` reads it (nothing reported:
    // the URI is bare), and where it may not: the plain way declines.
    let (end, len, joined) = if v[e] == close {
        (e, k, 0)
    } else {
        // A line break, and the next line's text up to the closer. The
        // first piece ends in its path, query or fragment, where the
        // second one's bytes all stand as they are; it does not end in
        // a hyphen (whose alternative without it is asked for).
        let depth = || text::quote_prefix(v, text::line_start(v, open)).0;
        let gap = if text::is_ws(v[e]) {
            continuation::gap(vw, e, depth)
        } else {
            Gap::End
        };
        let Gap::Line(j) = gap else {
            return failed_first(judge, bare, vw, s, n, e, gap, d);
        };
        if k == auth || v[e - 1] == b'-' {
            return Hit::NONE;
        }
        if j >= stop || v[j] == close || continuation::starts_uri(vw, j) {
            return Hit::NONE;
        }
        let end = grammar::plain_run(v, j, stop);
        if end == j || end >= stop {
            return Hit::NONE;
        }
        if v[end] != close {
            return after_second(judge, bare, vw, s, n, end, d);
        }
        (end, k + (end - j), JOINED)
    };
    vw.touch(end + 1);
    if (d.trims_last && matches!(v[end - 1], b'.' | b','))
        || len > judge.opts().max_uri_len
    {
        return Hit::NONE;
    }
    let kind = if d.context == Context::Angle { ANGLED } else { QUOTED_ };
    Hit::new(kind | joined, s, end)
}

/// [`delimited`] after the second piece, ended by `v[end]`, not the
/// closer: the URI is bare where the context fails, which is so only
/// when nothing, or a line that starts a URI or with a byte no URI holds,
/// follows (read the same way each time). Out of line: the rarer case.
#[inline(never)]
fn after_second(
    judge: &Judge<'_>,
    bare: &mut Bare,
    vw: &View<'_>,
    s: usize,
    n: usize,
    end: usize,
    d: &Delimiter,
) -> Hit {
    let v = vw.v;
    if !text::is_ws(v[end]) {
        return Hit::NONE;
    }
    let open = s - 1;
    let stop = (open + 1 + judge.opts().bracket_bound).min(v.len());
    let depth = || text::quote_prefix(v, text::line_start(v, open)).0;
    let fails = match continuation::gap(vw, end, depth) {
        Gap::Blanks(j) => after_blanks(v, j, d),
        Gap::End => true,
        Gap::Line(j) => {
            j < v.len()
                && v[j] != d.close.as_bytes()[0]
                && (j >= stop
                    || ends_context(v[j])
                    || continuation::starts_uri(vw, j))
        }
    };
    if !fails {
        return Hit::NONE;
    }
    bare_uri(judge, bare, vw, s, n)
}

/// Whether a line's text that starts with `b` (not the closer) ends a
/// context at once: a byte no URI holds, not whitespace.
#[inline]
fn ends_context(b: u8) -> bool {
    !text::is_uri_byte(b) && !text::is_ws(b) && b < 0x80
}

/// Whether blanks without a line break, up to `v[j]`, end the context
/// of `d` in a URI (it then fails): unless its closer follows and may
/// close there.
#[inline]
fn after_blanks(v: &[u8], j: usize, d: &Delimiter) -> bool {
    j >= v.len() || v[j] != d.close.as_bytes()[0] || d.close_needs_break
}

#[cfg(test)]
mod tests;
