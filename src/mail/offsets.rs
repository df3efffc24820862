//! Offsets of decoded text back to the bytes it was decoded from.
//!
//! Every decoding step of mail mode (quoted-printable, base64, charset
//! conversion, HTML character references, RFC 2047 encoded words, the
//! visible text of an HTML part) produces a new byte string and an
//! [`OffsetMap`] from it to its source. A match found in the final text is
//! carried back layer by layer ([`Layers`]) to the raw input, so that
//! byte offsets and line numbers point at what the user has on disk.
//!
//! A map is a sorted list of segments, each covering the decoded bytes
//! from its start up to the next segment's start:
//!
//! * *linear*: decoded byte `d` came from source byte `src + (d - dec)`
//!   (text copied unchanged);
//! * *group*: every decoded byte of the segment came from the source
//!   bytes `src..src + len` together (a `=3D` escape, one character of a
//!   multi-byte charset, an `&amp;`, a decoded encoded word);
//! * *base64*: a run of whole base64 quanta with no whitespace inside,
//!   four source characters for three decoded bytes; decoded byte `k`
//!   (0, 1, 2) of a quantum is made of the bits of characters `k` and
//!   `k + 1`;
//! * *quoted-printable*: a whole quoted-printable body, text copied
//!   unchanged except at its escapes (one decoded byte from three source
//!   bytes) and soft line breaks (the source moves on, nothing decoded),
//!   each kept as an 8-byte step of a run rather than a segment of its
//!   own.
//!
//! Memory is one segment (12 bytes while offsets stay under 4 GiB) per
//! line break that moves the source, per HTML tag or character
//! reference, or per non-ASCII character of a converted charset, and 8
//! bytes per escape or soft line break of quoted-printable; lookups are
//! a binary search, started from where the last one ended.

use std::cell::Cell;

/// How the decoded bytes of one segment relate to the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Linear,
    Group(u32),
    Base64,
    /// A quoted-printable run: its steps are `runs[i]`.
    Qp(u32),
}

/// A step of a quoted-printable run: from decoded offset `at` (relative
/// to its segment, the top bit set for an escape) the source is `cum`
/// bytes further on than the decoded text is (relative to the segment's
/// start), and for an escape that byte is made of three source bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    at: u32,
    cum: u32,
}

const ESCAPE: u32 = 1 << 31;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seg {
    dec: usize,
    src: usize,
    kind: Kind,
}

/// A segment in 12 bytes, for offsets under 4 GiB (every map of a
/// message under 4 GiB): the kind in the top two bits of `kind`, its
/// number (a group's length, a run's index) in the rest.
#[derive(Clone, Copy, Debug)]
struct Small {
    dec: u32,
    src: u32,
    kind: u32,
}

const TAG: u32 = 30;
const NUM: u32 = (1 << TAG) - 1;

impl Small {
    fn new(s: Seg) -> Option<Small> {
        let (tag, n) = match s.kind {
            Kind::Linear => (0, 0),
            Kind::Group(n) => (1, n),
            Kind::Base64 => (2, 0),
            Kind::Qp(r) => (3, r),
        };
        Some(Small {
            dec: u32::try_from(s.dec).ok()?,
            src: u32::try_from(s.src).ok()?,
            kind: (n <= NUM).then_some(tag << TAG | n)?,
        })
    }

    fn seg(self) -> Seg {
        let n = self.kind & NUM;
        let kind = match self.kind >> TAG {
            0 => Kind::Linear,
            1 => Kind::Group(n),
            2 => Kind::Base64,
            _ => Kind::Qp(n),
        };
        Seg { dec: self.dec as usize, src: self.src as usize, kind }
    }
}

/// A map's segments: small while every one fits, full size after.
#[derive(Clone, Debug)]
enum Segs {
    Small(Vec<Small>),
    Full(Vec<Seg>),
}

impl Default for Segs {
    fn default() -> Segs {
        Segs::Small(Vec::new())
    }
}

impl Segs {
    fn len(&self) -> usize {
        match self {
            Segs::Small(v) => v.len(),
            Segs::Full(v) => v.len(),
        }
    }

    fn get(&self, i: usize) -> Option<Seg> {
        match self {
            Segs::Small(v) => v.get(i).map(|s| s.seg()),
            Segs::Full(v) => v.get(i).copied(),
        }
    }

    fn last(&self) -> Option<Seg> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    fn pop(&mut self) {
        match self {
            Segs::Small(v) => drop(v.pop()),
            Segs::Full(v) => drop(v.pop()),
        }
    }

    fn push(&mut self, seg: Seg) {
        match (&mut *self, Small::new(seg)) {
            (Segs::Small(v), Some(small)) => v.push(small),
            (Segs::Small(v), None) => {
                let mut full: Vec<Seg> = v.iter().map(|s| s.seg()).collect();
                full.push(seg);
                *self = Segs::Full(full);
            }
            (Segs::Full(v), _) => v.push(seg),
        }
    }

    /// The index of the last segment starting at or before `d`.
    fn find(&self, d: usize) -> Option<usize> {
        let n = match self {
            Segs::Small(v) => v.partition_point(|s| s.dec as usize <= d),
            Segs::Full(v) => v.partition_point(|s| s.dec <= d),
        };
        n.checked_sub(1)
    }

    /// [`Segs::find`], looked for ahead of segment `h` first, in steps
    /// that double: lookups that move forward a few segments at a time
    /// (the matches of a text, in order) touch only the segments near
    /// the last one, not the whole list.
    fn find_after(&self, h: usize, d: usize) -> Option<usize> {
        let dec = |i: usize| self.get(i).map(|s| s.dec);
        if dec(h).is_none_or(|x| x > d) {
            return self.find(d);
        }
        // Segment `lo` starts at or before `d`; find the first past it.
        let (mut lo, mut step) = (h, 1);
        let mut hi = loop {
            match dec(lo + step) {
                Some(x) if x <= d => {
                    lo += step;
                    step *= 2;
                }
                _ => break (lo + step).min(self.len()),
            }
        };
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if dec(mid).is_some_and(|x| x <= d) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Some(lo)
    }

    #[cfg(test)]
    fn heap(&self) -> usize {
        match self {
            Segs::Small(v) => v.capacity() * size_of::<Small>(),
            Segs::Full(v) => v.capacity() * size_of::<Seg>(),
        }
    }
}

/// A map from offsets in a decoded byte string to offsets in its source.
#[derive(Clone, Debug, Default)]
pub(crate) struct OffsetMap {
    segs: Segs,
    /// Where decoded byte 0 came from, while there is no segment.
    shift: usize,
    runs: Vec<Vec<Step>>,
    /// The segment and the step of the last lookup: matches are looked
    /// up in order, so the next is most often there or just after.
    hint: Cell<(usize, usize)>,
}

impl OffsetMap {
    /// An empty map (add segments as the decoder writes).
    pub(crate) fn new() -> OffsetMap {
        OffsetMap::default()
    }

    /// The map of text copied unchanged from `src` on (no segment: made
    /// for every header field and part scanned, it allocates nothing).
    pub(crate) fn shift(src: usize) -> OffsetMap {
        OffsetMap { shift: src, ..OffsetMap::default() }
    }

    /// Empties the map for a new text, keeping its memory.
    pub(crate) fn clear(&mut self) {
        match &mut self.segs {
            Segs::Small(v) => v.clear(),
            Segs::Full(_) => self.segs = Segs::default(),
        }
        self.shift = 0;
        self.runs.clear();
        self.hint.set((0, 0));
    }

    fn push(&mut self, seg: Seg) {
        debug_assert_eq!(self.shift, 0, "a shift map takes no segment");
        let mut last = self.segs.last();
        if let Some(l) = last {
            debug_assert!(l.dec <= seg.dec, "segments out of order");
            if l.dec == seg.dec {
                // The previous segment covers nothing: replace it.
                self.segs.pop();
                last = self.segs.last();
            }
        }
        // A linear segment that continues a linear predecessor is
        // folded into it.
        if let Some(a) = last {
            if a.kind == Kind::Linear
                && seg.kind == Kind::Linear
                && seg.src >= a.src
                && seg.src - a.src == seg.dec - a.dec
            {
                return;
            }
        }
        self.segs.push(seg);
    }

    /// From decoded offset `dec` on, bytes are copied from `src` on.
    pub(crate) fn linear(&mut self, dec: usize, src: usize) {
        self.push(Seg { dec, src, kind: Kind::Linear });
    }

    /// From decoded offset `dec` up to the next segment, bytes all come
    /// from the `len` source bytes at `src`.
    pub(crate) fn group(&mut self, dec: usize, src: usize, len: usize) {
        let len = u32::try_from(len).unwrap_or(u32::MAX);
        self.push(Seg { dec, src, kind: Kind::Group(len) });
    }

    /// From decoded offset `dec` on, whole base64 quanta are decoded from
    /// the characters at `src` on, with no whitespace between them.
    pub(crate) fn base64(&mut self, dec: usize, src: usize) {
        self.push(Seg { dec, src, kind: Kind::Base64 });
    }

    /// Quoted-printable: decoded offset `dec` comes from source offset
    /// `src`, made of the three bytes of an escape when `escape`, else
    /// copied (the first byte after a soft line break); the bytes after
    /// it are copied, up to the next call.
    pub(crate) fn qp(&mut self, dec: usize, src: usize, escape: bool) {
        if let Some(Seg { dec: d0, src: s0, kind: Kind::Qp(r) }) =
            self.segs.last()
        {
            let at = dec - d0;
            let cum = (src - s0).checked_sub(at);
            if let (Ok(at32), Some(Ok(cum))) =
                (u32::try_from(at), cum.map(u32::try_from))
            {
                if at32 < ESCAPE {
                    let run = &mut self.runs[r as usize];
                    let step =
                        Step { at: at32 | (ESCAPE * u32::from(escape)), cum };
                    match run.last_mut() {
                        Some(last) if last.at & !ESCAPE == at32 => {
                            *last = step
                        }
                        _ => run.push(step),
                    }
                    return;
                }
            }
        }
        // A new run (the first, or past what 32 bits hold).
        let r = u32::try_from(self.runs.len()).unwrap_or(u32::MAX);
        let first = Step { at: ESCAPE * u32::from(escape), cum: 0 };
        self.runs.push(if escape { vec![first] } else { Vec::new() });
        self.segs.push(Seg { dec, src, kind: Kind::Qp(r) });
    }

    fn seg(&self, d: usize) -> Option<Seg> {
        let segs = &self.segs;
        let covers = |i: usize| {
            segs.get(i).is_some_and(|s| s.dec <= d)
                && segs.get(i + 1).is_none_or(|s| s.dec > d)
        };
        let (h, step) = self.hint.get();
        let i = if covers(h) {
            h
        } else if covers(h + 1) {
            h + 1
        } else {
            segs.find_after(h, d)?
        };
        if i != h {
            self.hint.set((i, step));
        }
        segs.get(i)
    }

    /// The last step of `run` at or before relative offset `i`.
    fn step(&self, run: &[Step], i: usize) -> Option<Step> {
        let at = |k: usize| (run[k].at & !ESCAPE) as usize;
        let covers = |k: usize| {
            k < run.len()
                && at(k) <= i
                && (k + 1 == run.len() || at(k + 1) > i)
        };
        let (seg, h) = self.hint.get();
        let k = if covers(h) {
            h
        } else if covers(h + 1) {
            h + 1
        } else {
            run.partition_point(|st| (st.at & !ESCAPE) as usize <= i)
                .checked_sub(1)?
        };
        self.hint.set((seg, k));
        Some(run[k])
    }

    /// The source range of decoded byte `d`.
    pub(crate) fn byte(&self, d: usize) -> (usize, usize) {
        let Some(s) = self.seg(d) else {
            let at = self.shift + d;
            return (at, at + 1);
        };
        let i = d - s.dec;
        match s.kind {
            Kind::Linear => (s.src + i, s.src + i + 1),
            Kind::Group(n) => (s.src, s.src + n as usize),
            Kind::Base64 => {
                let (q, k) = (i / 3, i % 3);
                let at = s.src + 4 * q + k;
                (at, at + 2)
            }
            Kind::Qp(r) => {
                let Some(st) = self.step(&self.runs[r as usize], i) else {
                    return (s.src + i, s.src + i + 1);
                };
                let escape = st.at & ESCAPE != 0;
                let at = s.src + i + st.cum as usize;
                if (st.at & !ESCAPE) as usize == i && escape {
                    (at, at + 3)
                } else {
                    let at = at + if escape { 2 } else { 0 };
                    (at, at + 1)
                }
            }
        }
    }

    /// The source range of the decoded range `start..end` (`end > start`):
    /// from the first source byte of its first byte to the last of its
    /// last.
    pub(crate) fn range(&self, start: usize, end: usize) -> (usize, usize) {
        if self.segs.len() == 0 {
            // A shift (most layers of an HTML part's links): no lookup.
            return (self.shift + start, self.shift + end.max(start + 1));
        }
        let (s, _) = self.byte(start);
        let (_, e) = self.byte(end.max(start + 1) - 1);
        (s, e.max(s))
    }

    /// The number of segments (for tests and memory checks).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.segs.len()
    }

    /// The heap bytes the map holds (for memory checks).
    #[cfg(test)]
    pub(crate) fn heap(&self) -> usize {
        self.segs.heap()
            + self
                .runs
                .iter()
                .map(|r| r.capacity() * size_of::<Step>())
                .sum::<usize>()
    }
}

/// A stack of maps, innermost (the text that was scanned) first, that
/// carries ranges back to the outermost source.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layers<'a> {
    pub(crate) map: &'a OffsetMap,
    pub(crate) outer: Option<&'a Layers<'a>>,
}

impl<'a> Layers<'a> {
    /// One map.
    pub(crate) fn new(map: &'a OffsetMap) -> Layers<'a> {
        Layers { map, outer: None }
    }

    /// `map` on top of `self`.
    pub(crate) fn then(&'a self, map: &'a OffsetMap) -> Layers<'a> {
        Layers { map, outer: Some(self) }
    }

    /// The outermost source range of the innermost range `start..end`.
    pub(crate) fn range(&self, start: usize, end: usize) -> (usize, usize) {
        let (mut s, mut e) = self.map.range(start, end);
        let mut at = self.outer;
        while let Some(l) = at {
            if e <= s {
                e = s + 1;
            }
            (s, e) = l.map.range(s, e);
            at = l.outer;
        }
        (s, e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_ahead_and_behind_find_the_same_segment() {
        let mut m = OffsetMap::new();
        for k in 0..1000 {
            m.group(3 * k, 10 * k, 2);
        }
        let all: Vec<_> = (0..3000).map(|d| m.byte(d)).collect();
        // In order, in strides, backwards, and jumping about.
        for stride in [1, 2, 7, 50, 999] {
            for d in (0..3000).step_by(stride) {
                assert_eq!(m.byte(d), all[d], "stride {stride}, {d}");
            }
        }
        for d in (0..3000).rev().step_by(13) {
            assert_eq!(m.byte(d), all[d]);
        }
        for d in [2999, 0, 1500, 3, 2998, 1] {
            assert_eq!(m.byte(d), all[d]);
        }
        assert_eq!(all[4], (10, 12));
    }

    #[test]
    fn linear_segments_merge() {
        let mut m = OffsetMap::new();
        m.linear(0, 10);
        m.linear(5, 15);
        m.linear(7, 17);
        assert_eq!(m.len(), 1);
        assert_eq!(m.byte(6), (16, 17));
        m.linear(8, 30); // a jump (a soft line break)
        assert_eq!(m.len(), 2);
        assert_eq!(m.byte(9), (31, 32));
        assert_eq!(m.range(6, 10), (16, 32));
    }

    #[test]
    fn offsets_past_4_gib_and_long_groups_widen_the_map() {
        let big = 1usize << 33;
        let mut m = OffsetMap::new();
        m.linear(0, 10);
        m.group(5, 40, 1 << 31);
        m.linear(6, 50);
        assert!(matches!(m.segs, Segs::Full(_)));
        assert_eq!(m.byte(1), (11, 12));
        assert_eq!(m.byte(5), (40, 40 + (1 << 31)));
        let mut m = OffsetMap::new();
        m.linear(0, 10);
        assert!(matches!(m.segs, Segs::Small(_)));
        m.group(5, big, 3);
        m.linear(6, big + 3);
        m.qp(8, big + 9, true);
        assert_eq!(m.byte(1), (11, 12));
        assert_eq!(m.byte(5), (big, big + 3));
        assert_eq!(m.byte(7), (big + 4, big + 5));
        assert_eq!(m.byte(8), (big + 9, big + 12));
        assert_eq!(m.byte(9), (big + 12, big + 13));
        // Small segments are 12 bytes.
        assert_eq!(size_of::<Small>(), 12);
    }

    #[test]
    fn groups_cover_their_source() {
        // "a=3Db": a at 0, '=' from 1..4, b at 4.
        let mut m = OffsetMap::new();
        m.linear(0, 0);
        m.group(1, 1, 3);
        m.linear(2, 4);
        assert_eq!(m.byte(0), (0, 1));
        assert_eq!(m.byte(1), (1, 4));
        assert_eq!(m.byte(2), (4, 5));
        assert_eq!(m.range(0, 3), (0, 5));
        assert_eq!(m.range(1, 2), (1, 4));
    }

    #[test]
    fn empty_segments_are_replaced() {
        let mut m = OffsetMap::new();
        m.linear(0, 0);
        m.linear(3, 3);
        m.linear(3, 9); // nothing decoded from the first place
        assert_eq!(m.byte(3), (9, 10));
        assert_eq!(m.len(), 2);
    }

    #[test]
    fn base64_bytes_point_at_their_characters() {
        // "aGVsbG8h" decodes to "hello!": quanta at 100 and 104.
        let mut m = OffsetMap::new();
        m.base64(0, 100);
        assert_eq!(m.byte(0), (100, 102));
        assert_eq!(m.byte(1), (101, 103));
        assert_eq!(m.byte(2), (102, 104));
        assert_eq!(m.byte(3), (104, 106));
        assert_eq!(m.byte(5), (106, 108));
        assert_eq!(m.range(1, 5), (101, 107));
    }

    #[test]
    fn layers_compose() {
        // Inner: text "xy" at 2.. of a middle string; middle byte 2 came
        // from outer 10..13 (an escape), byte 3 from 13.
        let mut inner = OffsetMap::new();
        inner.linear(0, 2);
        let mut outer = OffsetMap::new();
        outer.linear(0, 0);
        outer.group(2, 10, 3);
        outer.linear(3, 13);
        let base = Layers::new(&outer);
        let l = base.then(&inner);
        assert_eq!(l.range(0, 2), (10, 14));
        assert_eq!(l.range(1, 2), (13, 14));
    }

    #[test]
    fn a_shift_maps_ranges_as_its_bytes_do() {
        // The range of a shift (answered without a lookup) is the one
        // its first and last bytes give, empty ranges included.
        for shift in [0, 7, usize::MAX / 4] {
            let m = OffsetMap::shift(shift);
            for (start, end) in [(0, 1), (0, 0), (5, 9), (9, 5), (3, 4)] {
                let (s, _) = m.byte(start);
                let (_, e) = m.byte(end.max(start + 1) - 1);
                assert_eq!(
                    m.range(start, end),
                    (s, e.max(s)),
                    "{start}..{end}"
                );
            }
        }
        // Under a map with segments, a shift layer adds its offset.
        let mut outer = OffsetMap::new();
        outer.linear(0, 100);
        outer.group(10, 200, 5);
        outer.linear(11, 205);
        let inner = OffsetMap::shift(8);
        let base = Layers::new(&outer);
        assert_eq!(base.then(&inner).range(0, 3), (108, 205));
    }

    /// What a list of `(dec, src, group length)` segments, kept as
    /// pushed (no folding, no replacing), says of decoded byte `d`: the
    /// last segment starting at or before `d` that is not followed by
    /// one starting at the same place.
    fn naive(
        segs: &[(usize, usize, Option<usize>)],
        d: usize,
    ) -> (usize, usize) {
        let (dec, src, group) = segs
            .iter()
            .rev()
            .find(|s| s.0 <= d)
            .copied()
            .expect("a segment at 0");
        match group {
            Some(n) => (src, src + n),
            None => (src + d - dec, src + d - dec + 1),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2_000))]
        /// Folding a linear segment into the one it continues, and
        /// replacing one that covers nothing, change no lookup.
        #[test]
        fn folded_map_is_the_list_of_segments(
            steps in proptest::collection::vec((0usize..4, 0usize..3, 0usize..6, 1usize..4), 1..40)
        ) {
            let mut m = OffsetMap::new();
            let mut list: Vec<(usize, usize, Option<usize>)> = Vec::new();
            let mut dec = 0;
            for (i, &(adv, kind, val, len)) in steps.iter().enumerate() {
                if i > 0 {
                    dec += adv;
                }
                let seg = match (kind, list.last()) {
                    // A linear segment that continues the last one: the
                    // case folding is for.
                    (0, Some(&(d0, s0, None))) => (dec, s0 + (dec - d0), None),
                    (0 | 1, _) => (dec, 10 * val, None),
                    _ => (dec, 10 * val, Some(len)),
                };
                match seg.2 {
                    None => m.linear(seg.0, seg.1),
                    Some(n) => m.group(seg.0, seg.1, n),
                }
                // A later segment at the same place replaces the earlier.
                list.retain(|s| s.0 != dec);
                list.push(seg);
            }
            for d in 0..dec + 4 {
                proptest::prop_assert_eq!(m.byte(d), naive(&list, d), "byte {}", d);
            }
            let mut again = m.clone();
            again.clear();
            again.linear(0, 7);
            proptest::prop_assert_eq!(again.byte(3), (10, 11));
        }
    }
}
