//! Bare URIs in prose (docs/CONTRACT.md section 1.3): the run of URI
//! bytes from the scheme, a dangling `scheme://` at a line end joined to
//! the host on the next line, a hyphen at a line end joined to the next
//! line (both through `continuation`), a non-ASCII letter right after
//! the run (an IRI, rejected), trailing punctuation trimmed, and a
//! candidate cut at its first bad byte when what comes before is a URI.
//!
//! Runs are cached: where a run of URI bytes stops does not depend on
//! where it started, so the candidates of the colons inside one run
//! never scan it again (linear time on `a:a:a:...`).

use crate::grammar::schemes;
use crate::scan::brackets::{self, Brackets, Depths};
use crate::scan::candidate::Candidate;
use crate::scan::continuation;
use crate::scan::decision::{Verdict, View};
use crate::scan::entity;
use crate::scan::iri;
use crate::scan::judge::Judge;
use crate::scan::jump::Jump;
use crate::scan::refusal::{Refusal, RejectReason};
use crate::scan::text::{self, NonAscii};
use crate::scan::trim::Marks;
use crate::scan::Context;

/// The longest run the one-pass walk of the common shape reads.
const COMMON_MAX: usize = 512;

/// How many line breaks after a hyphen one URI may span: enough for any
/// URI a person broke, and a bound on the work per candidate.
const MAX_HYPHEN_JOINS: usize = 16;

/// How much of a candidate longer than the bound a rejection shows.
const TOO_LONG_SHOWN: usize = 64;

/// What a known stretch of URI bytes looks like: the bare run starting
/// anywhere in `[from, reached)` continues at least to `reached`, and
/// stops there when `ended`.
#[derive(Clone, Copy, Debug, Default)]
struct RunCache {
    from: usize,
    reached: usize,
    ended: bool,
}

/// The bare-text scanner's state: the run cache, where brackets end
/// URIs, and where the trigger search may jump to.
#[derive(Debug, Default)]
pub(crate) struct Bare {
    run: RunCache,
    brackets: Brackets,
    /// Where overlong candidates end, for jumps past them.
    jump: Jump,
    /// Set by an overlong bare candidate when rejections are not
    /// reported: every trigger before it would start a candidate just as
    /// overlong (they lie in the same run of URI bytes), so the search
    /// jumps there instead of failing them one by one.
    skip_to: usize,
}

impl Bare {
    /// Where the trigger search may jump to after the last candidate
    /// (0: no jump).
    #[inline]
    pub(crate) fn skip_to(&self) -> usize {
        self.skip_to
    }

    /// Forgets the jump, before a new trigger.
    #[inline]
    pub(crate) fn clear_skip(&mut self) {
        self.skip_to = 0;
    }

    /// Notes that the bare run from absolute `from` stops at absolute
    /// `to` (what follows it is decided, in the view).
    #[inline(always)]
    pub(crate) fn remember_run(&mut self, from: usize, to: usize) {
        self.run = RunCache { from, reached: to, ended: true };
    }

    /// Scans the bare run starting at `v[s]`, as far as `cap` (one byte
    /// past the longest URI from the candidate's start); returns its end.
    fn run_from(&mut self, vw: &View<'_>, s: usize, cap: usize) -> usize {
        let abs = vw.base + s;
        let rc = self.run;
        let cached = abs >= rc.from && abs <= rc.reached;
        let mut i = s;
        if cached {
            if rc.ended {
                let e = rc.reached - vw.base;
                // What follows the run decides too (a '%', a UTF-8
                // character): it must be in the window.
                vw.touch(e + 3);
                return e;
            }
            i = rc.reached - vw.base;
            if i >= cap {
                return i;
            }
        }
        i = run(vw, i, cap);
        // A '%' or '&' near the window's end may be an escape or go on
        // in a longer one (with IRIs, a non-ASCII byte may start a
        // character the window cuts).
        let (reach, cut) = stop(vw, i);
        vw.touch(reach);
        self.run = RunCache {
            from: if cached { rc.from } else { abs },
            reached: vw.base + i,
            ended: !cut && i < cap,
        };
        i
    }

    /// The end of the run from `v[s]` (as [`Bare::run_from`] finds it,
    /// at most `cap`) when the run is a URI of the common shape as it
    /// stands (the shape stops where the run of URI bytes does), and
    /// whether its path holds a `)`. `None` says nothing. (Not with IRIs,
    /// whose runs end otherwise.)
    #[inline(always)]
    fn common_run(
        &mut self,
        judge: &Judge<'_>,
        vw: &View<'_>,
        s: usize,
        scheme_len: usize,
        cap: usize,
    ) -> Option<(usize, bool)> {
        let v = vw.v;
        // A longer run is read the long way, whose run is remembered
        // across the colons inside it (this walk is not: in a run as long
        // as the longest URI, every colon would read it all again). A
        // colon inside a run already known to be that long skips it.
        let (abs, rc) = (vw.base + s, self.run);
        if abs >= rc.from
            && abs <= rc.reached
            && rc.reached - abs >= COMMON_MAX
        {
            return None;
        }
        let cap = cap.min(s + COMMON_MAX);
        let (k, auth) = judge.common_prefix(&v[s..cap], scheme_len)?;
        let e = s + k;
        if e == cap || text::continues(v, e, vw.end_of_input) {
            return None;
        }
        // (The scheme and host hold neither. An `&` may start a
        // character reference that ends the run, which the shape takes:
        // the run goes on past each `&` that starts none.)
        let (amp, paren) = text::holds(&v[s + auth..e], b'&', b')');
        if amp && !entity::all_other(v, s + auth, e) {
            return None;
        }
        debug_assert_eq!(text::uri_run(v, s, cap, vw.end_of_input), e);
        // As `run_from` would: what follows the run decides too (a `%`,
        // a UTF-8 character), and the run is remembered.
        let (reach, cut) = text::run_stop(v, e);
        vw.touch(reach);
        self.run =
            RunCache { from: vw.base + s, reached: vw.base + e, ended: !cut };
        Some((e, paren))
    }

    /// Extends the cached run that holds `v[s]` as far as the window
    /// goes (or to its end); returns the absolute offset it reached.
    /// Each byte is scanned once however often this is called.
    fn extend_run(&mut self, vw: &View<'_>, s: usize) -> usize {
        let v = vw.v;
        let (abs, rc) = (vw.base + s, self.run);
        // The cache holds another run when the candidate's end was found
        // without it (an IRI's authority): read this one from its start.
        let holds = abs >= rc.from && abs <= rc.reached;
        if holds && rc.ended {
            return rc.reached;
        }
        let (from, mut i) =
            if holds { (rc.from, rc.reached - vw.base) } else { (abs, s) };
        i = run(vw, i, v.len());
        let (reach, cut) = stop(vw, i);
        vw.touch(reach);
        self.run = RunCache { from, reached: vw.base + i, ended: !cut };
        vw.base + i
    }

    /// A bare candidate with scheme `v[s..c]`.
    pub(crate) fn scan(
        &mut self,
        cand: &mut Candidate,
        judge: &Judge<'_>,
        vw: &View<'_>,
        s: usize,
        c: usize,
    ) -> Verdict {
        let v = vw.v;
        let opts = judge.opts();
        let scheme_len = c - s;
        let slashes = v[c + 1..].starts_with(b"//");
        vw.touch(c + 3);
        if !judge.accepts(&v[s..c], slashes, Context::Bare) {
            return Verdict::Pass;
        }
        let max = opts.max_uri_len;
        let cap = (s + max + 1).min(v.len());
        // The common shape read in the same pass that finds the run: a
        // run that ends where the shape does is a URI as it stands.
        let checked = if slashes && opts.prefilter && !vw.iri {
            self.common_run(judge, vw, s, scheme_len, cap)
        } else {
            None
        };
        let mut e = if let Some((e, _)) = checked {
            e
        } else if vw.iri && slashes {
            // An IRI's host may hold letters of unspaced scripts, which
            // end the rest: the authority first, then the run after it.
            // (A scheme as long as the bound leaves no authority to read.)
            let a = if c + 3 < cap {
                iri::authority_end(v, c + 3, cap, vw.end_of_input)
            } else {
                cap
            };
            vw.touch(text::run_stop(v, a).0);
            if a < cap && matches!(v[a], b'/' | b'?' | b'#') {
                self.run_from(vw, a, cap)
            } else {
                a
            }
        } else {
            self.run_from(vw, s, cap)
        };
        // With browser hosts, a host goes on through full-width letters
        // and ideographic full stops (see `link::hosts`).
        let checked = if opts.browser_hosts && slashes && !vw.iri {
            let wide = wide_host(vw, c + 3, e, cap);
            if wide == e {
                checked
            } else {
                e = wide;
                None
            }
        } else {
            checked
        };
        // A run longer than the longest URI: unless a bracket ends it
        // sooner, the candidate is overlong, and the colons after it too
        // (see `jump`).
        if e - s > max && !opts.rejected && !opts.abbrev && !vw.iri {
            let far = self.extend_run(vw, s);
            let c = vw.base + c;
            if let Some(to) = self.jump.overlong(v, vw.base, c, far, max) {
                self.skip_to = to;
                return Verdict::Pass;
            }
        }
        // (A URI of the common shape holds no `]`, nor a `)` before its
        // path: without one there, no bracket can end it.)
        if checked.is_none_or(|(_, paren)| paren) {
            e = self.brackets.end(v, vw.base, s, e);
        }
        if e - s <= max && unclosed_literal(vw, opts, c, e) {
            return Verdict::Pass;
        }
        cand.start();
        cand.set_marks(Marks::before(vw, s));
        let span_start = vw.base + s;
        let reject = |cand: &Candidate, end: usize, f: Refusal| {
            cand.rejected(
                judge,
                vw,
                span_start..vw.base + end,
                Context::Bare,
                f,
            )
        };
        if e - s > max {
            if !opts.rejected {
                // (Abbreviated URIs are triggered by `www.`/`ftp.`, not by
                // a colon, and end otherwise: one may lie in the run.)
                if !opts.abbrev {
                    // Colons after it start candidates as overlong, but
                    // for those a closing bracket may end (see `jump`).
                    let far = self.extend_run(vw, s);
                    let c = vw.base + c;
                    self.skip_to = self.jump.past(v, vw.base, c, far, max);
                }
                return Verdict::Pass;
            }
            // Only the start of an overlong candidate is kept: copying it
            // whole for every colon inside it would cost O(n * max).
            let shown = (e - s).min(TOO_LONG_SHOWN);
            cand.push_seg(v, vw.base, s, s + shown);
            return reject(
                cand,
                e,
                Refusal::whole(shown, RejectReason::TooLong { limit: max }),
            );
        }
        if !vw.iri && text::rejects_non_ascii(v, e) {
            cand.push_seg(v, vw.base, s, e);
            return reject(cand, e, Refusal::whole(e - s, RejectReason::Iri));
        }
        cand.push_seg(v, vw.base, s, e);
        // The quote depth of the line, needed only to look past its end.
        // (Both rules below look past a line end only: without a line
        // break after the run, finding the line start would be wasted.)
        let depth = if ((slashes && e == c + 3)
            || cand.text(vw).last() == Some(&b'-'))
            && text::line_break_at(v, text::skip_blanks(v, e)).is_some()
        {
            text::quote_prefix(v, text::line_start(v, s)).0
        } else {
            0
        };
        // Dangling authority: `scheme://` at a line end.
        if slashes && e == c + 3 {
            match continuation::dangling(vw, e, depth, max) {
                Some((a, b)) => {
                    let b = brackets::cut(v, a, b, &mut Depths::default());
                    cand.push_seg(v, vw.base, a, b);
                    cand.clear_joins();
                    e = b;
                }
                None => {
                    let n = cand.text(vw).len();
                    return reject(
                        cand,
                        e,
                        Refusal::whole(n, RejectReason::NothingAfterSlashes),
                    );
                }
            }
        }
        // Hyphen at a line break. (Brackets pair across the break: the
        // openers still open where the text so far ends.)
        let mut joins = 0;
        let mut open: Option<Depths> = None;
        while cand.text(vw).last() == Some(&b'-')
            && cand.text(vw).len() <= max
            && joins < MAX_HYPHEN_JOINS
        {
            joins += 1;
            let Some(a) = continuation::next_line(vw, e, depth) else {
                break;
            };
            let cap = (a + max + 1).min(v.len());
            let b = vw.run(a, cap);
            let d = open.get_or_insert_with(|| {
                let mut d = Depths::default();
                let t = cand.text(vw);
                brackets::cut(t, 0, t.len(), &mut d);
                d
            });
            let b = brackets::cut(v, a, b, d);
            if b == a {
                // A line that goes on with a letter of a spaced script
                // makes the whole an IRI.
                if v[a] >= 0x80 && text::non_ascii(v, a) == NonAscii::Rejects {
                    let n = cand.text(vw).len();
                    return reject(
                        cand,
                        a,
                        Refusal::whole(n, RejectReason::Iri),
                    );
                }
                break;
            }
            if text::rejects_non_ascii(v, b) {
                let n = cand.text(vw).len() + b - a;
                cand.push_seg(v, vw.base, a, b);
                return reject(cand, b, Refusal::whole(n, RejectReason::Iri));
            }
            cand.push_seg(v, vw.base, a, b);
            e = b;
        }
        if cand.text(vw).len() > max {
            return reject(
                cand,
                e,
                Refusal::whole(max, RejectReason::TooLong { limit: max }),
            );
        }
        let len = cand.trimmed(vw, cand.text(vw).len(), scheme_len);
        // (The text starts with the run; the common shape checked it.)
        let res = if checked.is_some_and(|(e, _)| e == s + len) {
            Ok(())
        } else {
            judge.check(&cand.text(vw)[..len], scheme_len, Context::Bare)
        };
        match res {
            Ok(()) => {
                Verdict::Match(cand.found_bare(judge, vw, len, scheme_len))
            }
            Err(f) => {
                let cut = if f.tail {
                    Some(f.offset)
                } else {
                    // At whitespace or the end of the input (a dash).
                    let word_end = len == cand.text(vw).len()
                        && match v.get(e) {
                            Some(&b) => text::is_ws(b),
                            None => vw.end_of_input,
                        };
                    host_cut(cand.text(vw), len, scheme_len, word_end)
                };
                if let Some(cut) = cut {
                    let plen = cand.trimmed(vw, cut, scheme_len);
                    let t = &cand.text(vw)[..plen];
                    if judge.check(t, scheme_len, Context::Bare).is_ok() {
                        let f = cand.found_bare(judge, vw, plen, scheme_len);
                        return Verdict::Match(f);
                    }
                }
                reject(cand, e, f)
            }
        }
    }
}

/// Whether the bare candidate whose colon is `v[c]` and whose run ends
/// at `e` is an IP literal with no `]` (`http://[::1`), when rejections
/// are not reported: nothing is then reported for it, so the checks can
/// be skipped. Its authority starts with `[`, which only an IP literal
/// may, and that needs its `]`; every cut of it the checks might try
/// (at a fault, before a host's `*`, trimmed) keeps the `[` or leaves
/// `scheme://` with nothing after it. (Not with IRIs or browser hosts,
/// whose hosts are read otherwise; not when a line break after a hyphen
/// may join more text.)
#[inline]
fn unclosed_literal(
    vw: &View<'_>,
    opts: &crate::scan::FinderBuilder,
    c: usize,
    e: usize,
) -> bool {
    let v = vw.v;
    !opts.rejected
        && !vw.iri
        && !opts.browser_hosts
        && e > c + 3
        && v[c + 1..c + 4] == *b"//["
        && v[e - 1] != b'-'
        && memchr::memchr(b']', &v[c + 4..e]).is_none()
}

/// Where a candidate `t[..len]` with a bad host is cut instead of
/// rejected (docs/CONTRACT.md section 2): for an IP-based scheme, before
/// the first `*` or `'` of its host (the authority after any
/// `userinfo@`: a footnote mark, the quote closing an HTML attribute),
/// or before a run of `-` that ends the host and the candidate, when the
/// candidate ends a word (`word_end`: a dash in the sentence).
fn host_cut(
    t: &[u8],
    len: usize,
    scheme_len: usize,
    word_end: bool,
) -> Option<usize> {
    let a = scheme_len + 3;
    if len < a
        || !t[scheme_len + 1..].starts_with(b"//")
        || !schemes::is_ip_based(&t[..scheme_len])
    {
        return None;
    }
    let auth_end = t[a..len]
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .map_or(len, |k| a + k);
    let h = t[a..auth_end]
        .iter()
        .position(|&b| b == b'@')
        .map_or(a, |k| a + k + 1);
    if let Some(k) =
        t[h..auth_end].iter().position(|&b| b == b'*' || b == b'\'')
    {
        return Some(h + k);
    }
    if word_end && auth_end == len && t[len - 1] == b'-' {
        let dashes =
            t[h..len].iter().rev().take_while(|&&b| b == b'-').count();
        return Some(len - dashes);
    }
    None
}

/// Where a run that stopped at `e` ends when the authority from `a` goes
/// on through characters a browser maps to ASCII in a host
/// ([`crate::link::hosts::wide_len`]), at most `cap`; `e` when it does
/// not.
fn wide_host(vw: &View<'_>, a: usize, mut e: usize, cap: usize) -> usize {
    let v = vw.v;
    let in_authority = |from: usize, to: usize| {
        !v[from.min(to)..to].iter().any(|b| matches!(b, b'/' | b'?' | b'#'))
    };
    let mut from = a;
    while e < cap && in_authority(from, e) {
        vw.touch(e + 4);
        let n = crate::link::hosts::wide_len(&v[e..cap]);
        if n == 0 {
            break;
        }
        from = e;
        e = text::uri_run(v, e + n, cap, vw.end_of_input);
        vw.touch(text::run_stop(v, e).0);
    }
    e
}

/// The end of the bare run (with IRIs, the bare IRI run) from `v[i]`,
/// at most `cap` (an IRI's last character may end past it). (Always
/// inline: a call here, in the walk of every bare run, costs more than
/// the copies.)
#[inline(always)]
fn run(vw: &View<'_>, i: usize, cap: usize) -> usize {
    if vw.iri {
        iri::bare_run(vw.v, i, cap, vw.end_of_input)
    } else {
        text::uri_run(vw.v, i, cap, vw.end_of_input)
    }
}

/// Where a run that stopped at `v[i]` makes its decision reach, and
/// whether the run may go on in a longer window: a `%` or `&` near the
/// window's end may start an escape or a character reference (see
/// [`text::run_stop`]); with IRIs, a non-ASCII byte there may start a
/// character the window cuts.
#[inline]
fn stop(vw: &View<'_>, i: usize) -> (usize, bool) {
    let v = vw.v;
    let (reach, cut) = text::run_stop(v, i);
    let wide_cut = vw.iri && i < v.len() && v[i] >= 0x80 && i + 4 > v.len();
    (reach, cut || wide_cut)
}
