//! Jumps over overlong bare candidates: where the trigger search may go
//! on after a bare candidate longer than the longest URI, without
//! deciding every colon in between.
//!
//! Where a run of URI bytes ends does not depend on where it starts,
//! but where a bare URI ends does: a `)` or `]` without a partner after
//! the start ends it (see `brackets`). A colon later in the run starts a
//! candidate that a bracket ends sooner only if that bracket closes
//! nothing opened since the colon. So, counting openers from the first
//! overlong candidate's colon (the origin), a later colon with nothing
//! open at it has the same bracket end as the origin's: the first closer
//! that closes nothing opened since the origin. A colon with something
//! open at it may end at its partner, however near.
//!
//! A colon with an opener open at it still ends no sooner than the next
//! closer of either kind after it: when that closer (or the end of the
//! run) lies more than the longest URI away, the colon's candidate is
//! overlong whatever it pairs, and the reading goes on past it. In
//! `http://[::1:http://[::1:...` (an IP literal never closed) every
//! colon is such a one.
//!
//! [`Jump`] reads forward from the origin, once, up to the first closer
//! that closes nothing, the first colon with an opener open and a closer
//! within the longest URI, or the end of the run, whichever comes first
//! (the stop). Every colon before the stop either has nothing open at it
//! and ends at the stop or later, so that each one more than the longest
//! URI before the stop is overlong too, or is overlong by itself: the
//! search may jump to that distance before the stop. Later colons are
//! decided one by one; the first one at or past the stop starts a new
//! origin, and no byte is read twice (nor searched twice for a closer).

use crate::scan::brackets;

/// Jumps end at the next multiple of this: two scans of the same text
/// started at different places then land at the same places once they
/// are in the same run, and go on alike from there (see `split`).
const LANDING: usize = 4096;

/// Where the search may go on from the colon at `c` when no bracket ends
/// a candidate before `end`: the longest URI before `end`, but no further
/// than the next landing; 0 when that is not past `c`.
fn landing(c: usize, end: usize, max: usize) -> usize {
    let to = end.saturating_sub(max + 1).min((c / LANDING + 1) * LANDING);
    if to > c {
        to
    } else {
        0
    }
}

/// The forward reading from an origin; see the module doc.
#[derive(Clone, Debug, Default)]
pub(crate) struct Jump {
    /// The colon openers are counted from (absolute).
    origin: usize,
    /// How far the reading went (absolute): to the stop, if any.
    read: usize,
    /// Openers still open at `read`: round, square.
    open: [u32; 2],
    /// Where the reading stopped: a closer that closes nothing, or a
    /// colon with an opener open.
    stop: Option<usize>,
    /// The last colon asked about.
    asked: usize,
    /// `(from, at, found)`: no `)` or `]` in `[from, at)` (absolute),
    /// and one at `at` when `found`. A fact about the input, kept when
    /// a new origin starts.
    closer: (usize, usize, bool),
}

impl Jump {
    /// For the overlong bare candidate whose colon is at absolute `c`,
    /// in a run of URI bytes that goes on at least to absolute `far`:
    /// where the trigger search may go on (every colon before it starts
    /// a candidate longer than `max`), or 0 when not past `c`. `v` is the
    /// input from absolute `base` and holds `[c, far)`.
    pub(crate) fn past(
        &mut self,
        v: &[u8],
        base: usize,
        c: usize,
        far: usize,
        max: usize,
    ) -> usize {
        landing(c, self.reach(v, base, c, far, max), max)
    }

    /// Like [`Jump::past`] for a bare candidate not known to be overlong
    /// (its run of URI bytes is longer than `max`, its brackets are not
    /// read yet): `None` unless the reading shows that no bracket ends
    /// it within `max` bytes.
    pub(crate) fn overlong(
        &mut self,
        v: &[u8],
        base: usize,
        c: usize,
        far: usize,
        max: usize,
    ) -> Option<usize> {
        let end = self.reach(v, base, c, far, max);
        (end - c > max).then(|| landing(c, end, max))
    }

    /// No bracket ends the candidate from the colon at `c` before the
    /// offset returned (absolute), reading on towards `far`; `max` is the
    /// longest URI.
    fn reach(
        &mut self,
        v: &[u8],
        base: usize,
        c: usize,
        far: usize,
        max: usize,
    ) -> usize {
        let fresh = c < self.asked
            || c < self.origin
            || c > self.read
            || self.read < base
            || self.stop.is_some_and(|p| c >= p);
        self.asked = c;
        if fresh {
            let closer = self.closer;
            *self = Jump {
                origin: c,
                read: c,
                asked: c,
                closer,
                ..Jump::default()
            };
        }
        if self.stop.is_none() {
            self.read_to(v, base, far, max);
        }
        self.stop.unwrap_or(self.read)
    }

    /// Reads on towards absolute `far` (the colon at the origin itself
    /// opens nothing: it is read as any byte). Eight bytes at a time
    /// where none matters; bracket by bracket where they are dense.
    fn read_to(&mut self, v: &[u8], base: usize, far: usize, max: usize) {
        let end = far - base;
        let mut i = self.read - base;
        while i < end {
            let word = v.get(i..i + 8).filter(|_| i + 8 <= end);
            if let Some(w) = word {
                let w = u64::from_le_bytes(w.try_into().expect("8 bytes"));
                if !brackets::any_of(w, b"()[]:") {
                    i += 8;
                    continue;
                }
            }
            let n = if word.is_some() { 8 } else { 1 };
            let mut next = i + n;
            for (at, &b) in v[i..i + n].iter().enumerate() {
                let x = base + i + at;
                if !self.byte(b) {
                    continue;
                }
                if b == b':' {
                    // A colon with an opener open: overlong by itself if
                    // the next closer, or the end of the run, is far.
                    let q = self.next_closer(v, base, x, far);
                    let near = q.unwrap_or(far);
                    if near - x > max {
                        // So is every colon up to the longest URI before
                        // it, and no closer comes in between: only the
                        // openers there are counted.
                        let lim = near - max;
                        let skip = &v[x + 1 - base..lim - base];
                        self.open[0] += count(b'(', skip);
                        self.open[1] += count(b'[', skip);
                        next = lim - base;
                        break;
                    }
                    if q.is_none() {
                        // The run may go on past `far`: wait for more.
                        self.read = x;
                        return;
                    }
                }
                self.stop = Some(x);
                self.read = x;
                return;
            }
            i = next;
        }
        self.read = far;
    }

    /// The first `)` or `]` at or after absolute `x`, if there is one
    /// before `far`. `v` starts at `base` and holds `[x, far)`. Asked for
    /// increasing `x`, each byte is searched once.
    fn next_closer(
        &mut self,
        v: &[u8],
        base: usize,
        x: usize,
        far: usize,
    ) -> Option<usize> {
        let (from, at, found) = self.closer;
        let known = from <= x && x <= at;
        if known && (found || at >= far) {
            return (found && at < far).then_some(at);
        }
        // Search on from where nothing is known.
        let (from, start) = if known { (from, at) } else { (x, x) };
        let at = memchr::memchr2(b')', b']', &v[start - base..far - base])
            .map_or(far, |k| start + k);
        self.closer = (from, at, at < far);
        (at < far).then_some(at)
    }

    /// Takes in one byte; true when the reading may stop at it: a closer
    /// that closes nothing, or a colon with an opener open (which stops
    /// it only if a closer comes soon after it).
    #[inline(always)]
    fn byte(&mut self, b: u8) -> bool {
        match b {
            b'(' => self.open[0] += 1,
            b'[' => self.open[1] += 1,
            b')' | b']' => {
                let k = usize::from(b == b']');
                if self.open[k] == 0 {
                    return true;
                }
                self.open[k] -= 1;
            }
            b':' => return self.open != [0, 0],
            _ => {}
        }
        false
    }
}

/// How many times `b` occurs in `t`.
fn count(b: u8, t: &[u8]) -> u32 {
    let n = memchr::memchr_iter(b, t).count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::Jump;
    use crate::scan::brackets::{cut, Depths};

    /// Whether the bare candidate from the colon at `c` (its scheme
    /// right before it, no bracket in between) runs past `max`: its end
    /// is the first closer without a partner, or the end of `v`.
    fn overlong(v: &[u8], c: usize, max: usize) -> bool {
        cut(v, c, v.len(), &mut Depths::default()) - c > max
    }

    /// Every colon a jump passes over is overlong, asked colon after
    /// colon as the engine asks (each overlong one asks).
    #[test]
    fn every_colon_jumped_over_is_overlong() {
        let mut next = crate::scan::tests::support::splitmix(0x1a3b);
        let mut jumped = 0;
        for round in 0..3000 {
            let n = 1 + (next() % 400) as usize;
            let v: Vec<u8> = (0..n)
                .map(|_| b"()[]::aaaaaaaaa"[(next() % 15) as usize])
                .collect();
            let max = 1 + (next() % 40) as usize;
            let mut j = Jump::default();
            let mut c = 0;
            while c < n {
                // As the engine asks: first before reading the brackets
                // (the run is longer than `max`), then when overlong.
                let to = if v[c] != b':' || n - c <= max {
                    None
                } else if let Some(to) = j.overlong(&v, 0, c, n, max) {
                    assert!(overlong(&v, c, max), "{round}: {c}");
                    Some(to)
                } else if overlong(&v, c, max) {
                    Some(j.past(&v, 0, c, n, max))
                } else {
                    None
                };
                if let Some(to) = to.filter(|&to| to > c) {
                    jumped += 1;
                    for k in c..to {
                        assert!(
                            v[k] != b':' || overlong(&v, k, max),
                            "{round}: {k} in {c}..{to} {:?}",
                            String::from_utf8_lossy(&v)
                        );
                    }
                    c = to;
                    continue;
                }
                c += 1;
            }
        }
        assert!(jumped > 1000, "{jumped}");
    }

    /// An IP literal never closed: every colon after the first has a `[`
    /// open at it, but no closer comes, so each is overlong by itself and
    /// the jump goes to the longest URI before the first colon within the
    /// longest URI of the run's end (at 1100).
    #[test]
    fn openers_never_closed_do_not_stop_a_jump() {
        let v = b"http://[::1:".repeat(100);
        let mut j = Jump::default();
        assert_eq!(j.past(&v, 0, 4, v.len(), 100), 1100 - 101);
        // A closer stops it at the first colon with an opener open that
        // lies within the longest URI before the closer (at 500).
        let mut v = b"http://[::1:".repeat(100);
        v[600] = b']';
        let mut j = Jump::default();
        assert_eq!(j.past(&v, 0, 4, v.len(), 100), 500 - 101);
        // Asked again from a later colon, the closer is not searched for
        // again, and the answer holds.
        assert_eq!(j.past(&v, 0, 300, v.len(), 100), 500 - 101);
    }

    /// A run of balanced brackets is jumped over to the longest URI
    /// before its end.
    #[test]
    fn balanced_brackets_do_not_stop_a_jump() {
        let v = b"http://a.b/(x)".repeat(100);
        let mut j = Jump::default();
        assert_eq!(j.past(&v, 0, 4, v.len(), 100), v.len() - 101);
        // A colon inside brackets stops it.
        let v =
            [&b"a:"[..], &b"b(c)".repeat(50), b"(d:e)", &[b'f'; 300]].concat();
        let mut j = Jump::default();
        assert_eq!(j.past(&v, 0, 1, v.len(), 100), 202 + 2 - 101);
        // So does a closer that closes nothing.
        let v = [&b"a:"[..], &[b'b'; 300], b")", &[b'c'; 300]].concat();
        let mut j = Jump::default();
        assert_eq!(j.past(&v, 0, 1, v.len(), 100), 302 - 101);
        assert_eq!(j.past(&v, 0, 150, v.len(), 100), 302 - 101);
        assert_eq!(j.past(&v, 0, 250, v.len(), 100), 0);
    }
}
