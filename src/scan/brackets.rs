//! Brackets in bare text (docs/CONTRACT.md section 1.3): a `)` or `]`
//! whose opening partner does not come before it in the URI ends the
//! URI, so `(http://a.example/x)` and the Markdown
//! `[t](https://t.example/)[m](mailto:m@t.example)` give what a reader
//! sees. Pairs are matched left to right, each kind on its own, across
//! the lines a URI is joined over.
//!
//! Where a bare URI ends thus depends on where it starts, unlike where
//! its run of URI bytes ends: `a:b(c:d)e` ends at the `)` from `c`, not
//! from `a`. Scanning each candidate's run again would make the colons
//! of one long run quadratic, so [`Brackets`] reads the bytes once from
//! an origin and answers for every later start from what it noted (see
//! its docs); [`cut`] is the plain scan, for the short pieces a URI is
//! continued with on the next line.

use std::collections::VecDeque;

/// The two kinds, as (opener, closer).
const KINDS: [(u8, u8); 2] = [(b'(', b')'), (b'[', b']')];

/// Unclosed openers of each kind, at some point of a URI.
pub(crate) type Depths = [u32; 2];

/// The first `)` or `]` in `v[a..b]` without a partner, with `depth`
/// openers of each kind still open before `a`; `b` when there is none.
/// `depth` is updated to the end of what was read.
pub(crate) fn cut(v: &[u8], a: usize, b: usize, depth: &mut Depths) -> usize {
    let mut i = a;
    while i < b {
        // Eight bytes without a bracket at a time.
        if let Some(w) = v.get(i..i + 8).filter(|_| i + 8 <= b) {
            let w = u64::from_le_bytes(w.try_into().expect("eight bytes"));
            if !any_of(w, b"()[]") {
                i += 8;
                continue;
            }
        }
        let x = v[i];
        i += 1;
        let t = BRACKET[x as usize];
        if t == 0 {
            continue;
        }
        let k = (t & 1) as usize;
        if t & CLOSE == 0 {
            depth[k] += 1;
        } else if depth[k] == 0 {
            return i - 1;
        } else {
            depth[k] -= 1;
        }
    }
    b
}

/// The bytes of `w` that are in `set`, as high bits: exact for the
/// lowest (a byte equal to `x` leaves a zero byte in `w ^ x`, which the
/// borrow of `y - 0x01..01` marks in its high bit; the borrow may mark a
/// byte above a marked one too, never one below).
#[inline(always)]
fn marks(w: u64, set: &[u8]) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    set.iter().fold(0, |m, &x| {
        let y = w ^ (ONES * x as u64);
        m | (y.wrapping_sub(ONES) & !y & HIGH)
    })
}

/// Whether one of the bytes of `w` is in `set`.
#[inline(always)]
pub(crate) fn any_of(w: u64, set: &[u8]) -> bool {
    marks(w, set) != 0
}

/// The index of the first byte of `t` in `set`, eight bytes at a time.
#[inline]
fn first_of(t: &[u8], set: &[u8]) -> Option<usize> {
    let mut words = t.chunks_exact(8);
    let mut i = 0;
    for w in &mut words {
        let m = marks(u64::from_le_bytes(w.try_into().expect("8")), set);
        if m != 0 {
            return Some(i + m.trailing_zeros() as usize / 8);
        }
        i += 8;
    }
    words.remainder().iter().position(|b| set.contains(b)).map(|k| i + k)
}

/// [`BRACKET`]: a closer.
const CLOSE: u8 = 2;

/// For each byte: 0, or a bracket with its kind in the low bit (0 for
/// round, 1 for square) and [`CLOSE`] for a closer, 4 always set.
static BRACKET: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'(' as usize] = 4;
    t[b')' as usize] = 4 | CLOSE;
    t[b'[' as usize] = 4 | 1;
    t[b']' as usize] = 4 | 1 | CLOSE;
    t
};

/// How long a stretch [`Brackets::end`] reads directly (short in the
/// unit tests, so that they ask the notes too).
const SHORT: usize = if cfg!(test) { 4 } else { 256 };

/// No close seen (yet).
const OPEN: usize = usize::MAX;

/// What the forward scan knows of one kind of bracket. Every position is
/// absolute; "matched" means matched left to right from the origin.
#[derive(Clone, Debug, Default)]
struct Kind {
    /// Openers in `[q, f)`, in order: position, and where they close
    /// (`OPEN` if not before `f`).
    pending: VecDeque<(usize, usize)>,
    /// How many openers left `pending` so far (the serial number of its
    /// front).
    popped: usize,
    /// Serial numbers of the openers of `pending` still open at `f`, the
    /// innermost last.
    own: VecDeque<usize>,
    /// Openers before `q` still open at `q` that close in `[q, f)`: where
    /// they close, the innermost (the first to close) last.
    known: VecDeque<usize>,
    /// How many openers before `q` are still open at `f`: they lie under
    /// those of `known`.
    common: usize,
    /// Closers in `[q, f)` that close nothing.
    strays: VecDeque<usize>,
}

impl Kind {
    fn clear(&mut self) {
        self.pending.clear();
        self.own.clear();
        self.known.clear();
        self.strays.clear();
        self.popped = 0;
        self.common = 0;
    }

    /// The forward scan reads an opener at `x`.
    fn open(&mut self, x: usize) {
        self.pending.push_back((x, OPEN));
        self.own.push_back(self.popped + self.pending.len() - 1);
    }

    /// The forward scan reads a closer at `x`.
    fn close(&mut self, x: usize) {
        if let Some(n) = self.own.pop_back() {
            self.pending[n - self.popped].1 = x;
        } else if self.common > 0 {
            // The innermost opener before `q` still open: it lies under
            // every one in `known`.
            self.common -= 1;
            self.known.push_front(x);
        } else {
            self.strays.push_back(x);
        }
    }

    /// Moves `q` to `s` (at most `f`): the openers, closes and strays
    /// before `s` leave the queues, in order, each once.
    fn advance(&mut self, s: usize) {
        loop {
            let o = self.pending.front().map_or(OPEN, |p| p.0);
            let k = self.known.back().copied().unwrap_or(OPEN);
            let t = self.strays.front().copied().unwrap_or(OPEN);
            let first = o.min(k).min(t);
            if first >= s {
                return;
            }
            if first == o {
                let (_, close) = self.pending.pop_front().expect("front");
                self.popped += 1;
                if close == OPEN {
                    self.own.pop_front();
                    self.common += 1;
                } else {
                    self.known.push_back(close);
                }
            } else if first == k {
                self.known.pop_back();
            } else {
                self.strays.pop_front();
            }
        }
    }

    /// After [`Kind::advance`] to `s`: the first closer at or after `s`
    /// without a partner after `s`, if it lies before `f`. It closes the
    /// innermost opener before `s` still open at `s`; with none, it is
    /// the first that closes nothing at all.
    fn answer(&self) -> Option<usize> {
        match self.known.back() {
            Some(&c) => Some(c),
            None if self.common > 0 => None,
            None => self.strays.front().copied(),
        }
    }
}

/// Where bare URIs end at a bracket, for starts that come in increasing
/// order (the colons of the text).
///
/// The bytes from an origin are read once, forward (`f`: how far). For
/// a start `s`, the first `)` without a partner after `s` is the one
/// that closes the innermost opener before `s` still open at `s` (the
/// openers after `s` are all inside it), and with no such opener, the
/// first `)` that closes nothing since the origin. So it is enough to
/// follow, at the last start asked (`q`), which openers are open and
/// where each closes, which the forward scan notes as it goes. Every
/// byte is read once by the forward scan and every bracket leaves the
/// notes once, and the notes only hold positions in `[q, f)`, at most
/// the longest URI after the last start.
#[derive(Clone, Debug, Default)]
pub(crate) struct Brackets {
    /// The last start asked.
    q: usize,
    /// How far the forward scan has read.
    f: usize,
    kinds: [Kind; 2],
    /// For each kind, `(from, at, found)`: no bracket of the kind in
    /// `[from, at)`, and one at `at` when `found` (`at` is at or after
    /// `f`). The kinds are searched apart, with memchr, and what was
    /// searched is kept across a fresh start (each byte is searched once).
    next: [(usize, usize, bool); 2],
}

impl Brackets {
    /// The first `)` or `]` without a partner in the URI that starts at
    /// `v[s]`, before `limit` (or `limit`). `v` starts at absolute `base`
    /// and holds `v[s..limit]`.
    #[inline]
    pub(crate) fn end(
        &mut self,
        v: &[u8],
        base: usize,
        s: usize,
        limit: usize,
    ) -> usize {
        // A short URI is read again: cheaper than the notes, and it
        // leaves them as they are (they hold for any later start).
        if limit - s <= SHORT {
            // Most URIs hold no closing bracket; most others one with no
            // opener before it (`(http://a.example/x)`).
            return match first_of(&v[s..limit], b")]") {
                None => limit,
                Some(k) if first_of(&v[s..s + k], b"([").is_none() => s + k,
                Some(_) => cut(v, s, limit, &mut Depths::default()),
            };
        }
        self.end_by_notes(v, base, s, limit)
    }

    /// [`Brackets::end`] for a long stretch, from the notes.
    fn end_by_notes(
        &mut self,
        v: &[u8],
        base: usize,
        s: usize,
        limit: usize,
    ) -> usize {
        let (s, limit) = (base + s, base + limit);
        if s < self.q || s > self.f || self.f < base {
            // Before what the notes are about, or after what was read:
            // start again from here.
            for k in &mut self.kinds {
                k.clear();
            }
            self.f = s;
            for n in &mut self.next {
                if !(n.0 <= s && s <= n.1) {
                    *n = (s, s, false);
                }
            }
        }
        self.q = s;
        for k in &mut self.kinds {
            k.advance(s);
        }
        loop {
            let best = self.kinds.iter().filter_map(Kind::answer).min();
            let target = best.unwrap_or(OPEN).min(limit);
            if self.f >= target {
                return target - base;
            }
            // Read on to the next bracket (or the target).
            let stop = target.min(base + v.len());
            let mut x = stop;
            for (k, &(open, close)) in KINDS.iter().enumerate() {
                let (_, at, found) = &mut self.next[k];
                if !*found && *at < stop {
                    let hay = &v[*at - base..stop - base];
                    match memchr::memchr2(open, close, hay) {
                        Some(i) => (*at, *found) = (*at + i, true),
                        None => *at = stop,
                    }
                }
                if *found {
                    x = x.min(*at);
                }
            }
            if x >= stop {
                self.f = stop;
                continue;
            }
            let b = v[x - base];
            for (k, &(open, close)) in KINDS.iter().enumerate() {
                if b == open || b == close {
                    if b == open {
                        self.kinds[k].open(x);
                    } else {
                        self.kinds[k].close(x);
                    }
                    self.next[k] = (x + 1, x + 1, false);
                }
            }
            self.f = x + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{cut, Brackets, Depths};

    /// The end for a start, by the plain scan.
    fn plain(v: &[u8], s: usize, limit: usize) -> usize {
        cut(v, s, limit, &mut Depths::default())
    }

    #[test]
    fn first_of_in_words() {
        for n in 0..40 {
            let mut t = vec![b'a'; n];
            assert_eq!(super::first_of(&t, b")]"), None);
            for i in 0..n {
                for c in [b')', b']'] {
                    t[i] = c;
                    // A closer further on changes nothing.
                    if i + 3 < n {
                        t[i + 3] = b']';
                    }
                    assert_eq!(super::first_of(&t, b")]"), Some(i), "{n}");
                    t[i] = b"([(*\\^"[i % 5];
                    if i + 3 < n {
                        t[i + 3] = b'a';
                    }
                    assert_eq!(super::first_of(&t, b")]"), None, "{n} {i}");
                    t[i] = b'a';
                }
            }
        }
    }

    #[test]
    fn plain_scan() {
        let v = b"a(b)c)d";
        assert_eq!(plain(v, 0, v.len()), 5);
        assert_eq!(plain(v, 2, v.len()), 3);
        assert_eq!(plain(b"x(y]z)", 0, 6), 3);
        assert_eq!(plain(b"[(])", 0, 4), 4);
        let mut d = [1, 0];
        assert_eq!(cut(b"ab)c)", 0, 5, &mut d), 4);
        assert_eq!(d, [0, 0]);
    }

    /// The notes answer every start in order as the plain scan does.
    #[test]
    fn the_notes_agree_with_the_plain_scan() {
        let mut next = crate::scan::tests::support::splitmix(0xb7ac);
        for round in 0..3000 {
            let n = 1 + (next() % 200) as usize;
            let v: Vec<u8> =
                (0..n).map(|_| b"()[]ab"[(next() % 6) as usize]).collect();
            let mut b = Brackets::default();
            let mut s = 0;
            while s < n {
                let limit = (s + (next() % 80) as usize).min(n);
                let got = b.end(&v, 0, s, limit);
                assert_eq!(got, plain(&v, s, limit), "{round} {s} {v:?}");
                s += 1 + (next() % 9) as usize;
            }
        }
    }

    /// A view that starts later than the first starts asked (a stream
    /// that dropped input) still gets the same answers.
    #[test]
    fn a_moving_view() {
        let v: Vec<u8> = b"((a)b(c)d)e)f(g)h]i".repeat(8);
        let mut b = Brackets::default();
        for s in 0..v.len() {
            let base = s.saturating_sub(5);
            let got = b.end(&v[base..], base, s - base, v.len() - base);
            assert_eq!(base + got, plain(&v, s, v.len()), "{s}");
        }
    }
}
