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

use crate::scan::candidate::{Candidates, Fault, RejectReason};
use crate::scan::continuation;
use crate::scan::engine::View;
use crate::scan::text::{self, NonAscii};
use crate::scan::Context;

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

/// The bare-text scanner's state: the run cache and where the trigger
/// search may jump to.
#[derive(Debug, Default)]
pub(crate) struct Bare {
    run: RunCache,
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

    /// Scans the bare run starting at `v[s]` (at most one byte past the
    /// longest URI); returns its end.
    fn run_from(&mut self, vw: &View<'_>, s: usize, max: usize) -> usize {
        let v = vw.v;
        let abs = vw.base + s;
        let cap = (s + max + 1).min(v.len());
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
        i = text::uri_run(v, i, cap);
        vw.touch(i + 3);
        // A '%' near the window's end may be an escape in a longer one.
        let cut = i == v.len() || (v[i] == b'%' && i + 3 > v.len());
        self.run = RunCache {
            from: if cached { rc.from } else { abs },
            reached: vw.base + i,
            ended: !cut && i < cap,
        };
        i
    }

    /// Extends the cached run that holds `v[s]` as far as the window
    /// goes (or to its end); returns the absolute offset it reached.
    /// Each byte is scanned once however often this is called.
    fn extend_run(&mut self, vw: &View<'_>, s: usize) -> usize {
        let v = vw.v;
        let rc = self.run;
        if rc.ended || rc.reached < vw.base + s {
            return rc.reached;
        }
        let mut i = rc.reached - vw.base;
        i = text::uri_run(v, i, v.len());
        vw.touch(i + 3);
        let cut = i == v.len() || (v[i] == b'%' && i + 3 > v.len());
        self.run =
            RunCache { from: rc.from, reached: vw.base + i, ended: !cut };
        vw.base + i
    }

    /// A bare candidate with scheme `v[s..c]`.
    pub(crate) fn scan(
        &mut self,
        cands: &mut Candidates<'_>,
        vw: &View<'_>,
        s: usize,
        c: usize,
    ) {
        let v = vw.v;
        let opts = cands.opts();
        let scheme_len = c - s;
        let slashes = v[c + 1..].starts_with(b"//");
        vw.touch(c + 3);
        if !cands.accepts(&v[s..c], slashes, Context::Bare) {
            return;
        }
        let max = opts.max_uri_len;
        let mut e = self.run_from(vw, s, max);
        cands.start();
        let span_start = vw.base + s;
        let reject = |cands: &mut Candidates<'_>, end: usize, f: Fault| {
            cands.reject(span_start..vw.base + end, Context::Bare, f);
        };
        if e - s > max {
            if !opts.rejected {
                // (Abbreviated URIs are triggered by `www.`/`ftp.`, not by
                // a colon, and end otherwise: one may lie in the run.)
                if !opts.abbrev {
                    let far = self.extend_run(vw, s);
                    self.skip_to = far.saturating_sub(max + 1);
                }
                return;
            }
            // Only the start of an overlong candidate is kept: copying it
            // whole for every colon inside it would cost O(n * max).
            let shown = (e - s).min(TOO_LONG_SHOWN);
            cands.push_seg(v, vw.base, s, s + shown);
            reject(
                cands,
                e,
                Fault::whole(shown, RejectReason::TooLong { limit: max }),
            );
            return;
        }
        if rejects_non_ascii(v, e) {
            cands.push_seg(v, vw.base, s, e);
            reject(cands, e, Fault::whole(e - s, RejectReason::Iri));
            return;
        }
        cands.push_seg(v, vw.base, s, e);
        // The quote depth of the line, needed only to look past its end.
        // (Both rules below look past a line end only: without a line
        // break after the run, finding the line start would be wasted.)
        let depth = if ((slashes && e == c + 3)
            || cands.text().last() == Some(&b'-'))
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
                    cands.push_seg(v, vw.base, a, b);
                    cands.clear_joins();
                    e = b;
                }
                None => {
                    let n = cands.text().len();
                    reject(
                        cands,
                        e,
                        Fault::whole(n, RejectReason::NothingAfterSlashes),
                    );
                    return;
                }
            }
        }
        // Hyphen at a line break.
        let mut joins = 0;
        while cands.text().last() == Some(&b'-')
            && cands.text().len() <= max
            && joins < MAX_HYPHEN_JOINS
        {
            joins += 1;
            let Some(a) = continuation::next_line(vw, e, depth) else {
                break;
            };
            let cap = (a + max + 1).min(v.len());
            let b = vw.run(a, cap);
            if b == a {
                // A line that goes on with a letter of a spaced script
                // makes the whole an IRI.
                if v[a] >= 0x80 && text::non_ascii(v, a) == NonAscii::Rejects {
                    let n = cands.text().len();
                    reject(cands, a, Fault::whole(n, RejectReason::Iri));
                    return;
                }
                break;
            }
            if rejects_non_ascii(v, b) {
                let n = cands.text().len() + b - a;
                cands.push_seg(v, vw.base, a, b);
                reject(cands, b, Fault::whole(n, RejectReason::Iri));
                return;
            }
            cands.push_seg(v, vw.base, a, b);
            e = b;
        }
        if cands.text().len() > max {
            reject(
                cands,
                e,
                Fault::whole(max, RejectReason::TooLong { limit: max }),
            );
            return;
        }
        let len = cands.trimmed(cands.text().len(), scheme_len);
        match cands.check_len(len, scheme_len, Context::Bare) {
            Ok(()) => cands.report_bare(len, scheme_len),
            Err(f) => {
                if f.tail {
                    let plen = cands.trimmed(f.offset, scheme_len);
                    if cands.check_len(plen, scheme_len, Context::Bare).is_ok()
                    {
                        cands.report_bare(plen, scheme_len);
                        return;
                    }
                }
                reject(cands, e, f);
            }
        }
    }
}

/// Whether the byte after a run at `v[e]` starts a letter of a spaced
/// script: the candidate is then an IRI.
#[inline]
pub(crate) fn rejects_non_ascii(v: &[u8], e: usize) -> bool {
    e < v.len() && v[e] >= 0x80 && text::non_ascii(v, e) == NonAscii::Rejects
}
