//! The trigger search: where the engine must look next. A trigger is a
//! `:` that may end a scheme, or (with abbreviated URIs) a `www.` or
//! `ftp.` not glued to a word. Colons are found with memchr (SIMD), or
//! in prose a block at a time by the sieve (`sieve.rs`), which turns
//! most of them away by their neighbours; most colons in text cannot
//! start a URI, and the filters turn those away before any window is
//! built: a per-colon pre-check ([`Triggers::colon_ok`]) and, in
//! colon-dense text, a bulk filter that decides 64-byte blocks at once
//! with bit operations ([`dense_candidates`]). All are supersets of what
//! the contexts accept, and every scheme list they use is derived from
//! [`schemes::PROSE_OPAQUE`].

use crate::grammar::schemes;
use crate::scan::abbrev;
use crate::scan::continuation;
use crate::scan::sieve::{self, Sieved};
use crate::scan::{scheme, text, FinderBuilder};

/// A place where a URI may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// A `:` at this absolute offset.
    Colon(usize),
    /// A `www.` or `ftp.` at this absolute offset.
    Abbrev(usize),
}

impl Trigger {
    /// The absolute offset of the trigger.
    #[inline]
    pub(crate) fn at(self) -> usize {
        match self {
            Trigger::Colon(t) | Trigger::Abbrev(t) => t,
        }
    }
}

/// The index of the next `:` in `buf` from `i`: when `near`, the next
/// sixteen bytes a word at a time first (colons come close together in
/// some text: `a:b:c`, `12:34:56`, `http://`), memchr for the long
/// stretches.
#[inline]
fn find_colon(
    colons: &ColonSearch,
    buf: &[u8],
    i: usize,
    near: bool,
) -> Option<usize> {
    let mut k = i;
    while near && k + 8 <= buf.len() && k < i + 16 {
        let w: [u8; 8] = buf[k..k + 8].try_into().expect("eight bytes");
        let m = text::colons(u64::from_le_bytes(w));
        if m != 0 {
            return Some(k + (m.trailing_zeros() / 8) as usize);
        }
        k += 8;
    }
    if k >= buf.len() {
        return None;
    }
    colons.find(&buf[k..]).map(|j| k + j)
}

/// memchr for `:` with its routine chosen and its vectors set up once:
/// the generic call does both at every call, a good part of its cost on
/// the short stretches between the colons of prose.
#[derive(Clone, Copy, Debug)]
struct ColonSearch {
    #[cfg(target_arch = "x86_64")]
    avx2: Option<memchr::arch::x86_64::avx2::memchr::One>,
}

impl ColonSearch {
    fn new() -> ColonSearch {
        ColonSearch {
            #[cfg(target_arch = "x86_64")]
            avx2: memchr::arch::x86_64::avx2::memchr::One::new(b':'),
        }
    }

    /// The index of the first `:` in `hay`.
    #[inline(always)]
    fn find(&self, hay: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some(one) = &self.avx2 {
            return one.find(hay);
        }
        memchr::memchr(b':', hay)
    }
}

/// Colons turned away at most this far apart, [`DENSE_STREAK`] in a
/// row, make the text colon-dense: the search then filters 64-byte
/// blocks in bulk.
const DENSE: usize = 16;

/// See [`DENSE`].
const DENSE_STREAK: usize = 4;

/// How far the search goes colon by colon after a block in which the
/// bulk filter kept most colons.
const BULK_PAUSE: usize = 1024;

/// How many bytes of a 64-byte block [`dense_candidates`] decides.
const DENSE_BLOCK: usize = 62;

/// In a 64-byte block that starts with a colon, the colons at bits
/// `1..DENSE_BLOCK` that [`Triggers::colon_ok`] might accept, and all the
/// colons at those bits (`ell`: the byte before the block is `l` or `L`).
/// A colon left out surely fails it: the byte before it is no scheme
/// character, or no `//` follows it, its run of scheme characters is
/// shorter than three or does not end as a prose-opaque scheme does, and
/// the byte before that run opens no context (`"`, `<`, and whitespace or
/// `URL:` only when a `<` may lie before them: see
/// [`Triggers::angle_near`]). The run test is one addition: a carry
/// entering a run at its first byte comes out right after its last.
#[inline]
fn dense_candidates(block: &[u8; 64], ell: bool) -> (u64, u64) {
    let k = text::block(block);
    // Whitespace and `URL:` open a context only after a `<`: without one
    // in the block, only a `"` right before a scheme does, or the block's
    // first colon when it may end a `URL:` (`ell`) with a `<` before the
    // block, together with the whitespace and `>` right after it.
    let opener = if k.lt != 0 {
        k.opener | (k.colon & ((k.ell << 1) | ell as u64))
    } else if ell {
        let mut i = 1;
        while i < 64 && (text::is_ws(block[i]) || block[i] == b'>') {
            i += 1;
        }
        k.quote | (u64::MAX >> (64 - i))
    } else {
        k.quote
    };
    let runs = k.scheme;
    let opened = runs.wrapping_add(runs & (opener << 1)) & !runs;
    let slashes = (k.slash >> 1) & (k.slash >> 2);
    // A run at least as long as the shortest prose-opaque scheme.
    let mut long = u64::MAX;
    let mut n = 1;
    while n <= schemes::PROSE_OPAQUE_MIN_LEN {
        long &= runs << n;
        n += 1;
    }
    let window = ((1u64 << DENSE_BLOCK) - 1) & !1;
    let colons = k.colon & window;
    let mut kept = colons & (runs << 1) & (slashes | long | opened);
    // Those kept only for a long run: the run must end as a prose-opaque
    // scheme does (`http:http:`, `URL:URL:` end otherwise).
    let mut only_long = kept & !(slashes | opened);
    while only_long != 0 {
        let i = only_long.trailing_zeros() as usize;
        if !opaque_tail(block[i - 2], block[i - 1]) {
            kept &= !(1 << i);
        }
        only_long &= only_long - 1;
    }
    (kept, colons)
}

/// Whether a scheme may end in the letters `a`, `b` (any case) and be
/// prose-opaque: derived from [`schemes::PROSE_OPAQUE`].
#[inline]
fn opaque_tail(a: u8, b: u8) -> bool {
    let (a, b) = (a | 0x20, b | 0x20);
    a.is_ascii_lowercase()
        && b.is_ascii_lowercase()
        && schemes::PROSE_OPAQUE_TAILS[(a - b'a') as usize] >> (b - b'a') & 1
            != 0
}

/// Where [`Triggers::sieve`] ended (offsets in its buffer).
enum Sift {
    /// At a colon that [`Triggers::colon_ok`] accepts.
    Found(usize),
    /// At a colon-dense block, to be searched colon by colon.
    Dense(usize),
    /// Where it could read no further; no trigger before.
    Stop(usize),
}

/// The search for triggers: where it stands, and what it knows of the
/// next abbreviated-URI trigger.
#[derive(Clone, Debug)]
pub(crate) struct Triggers<'f> {
    opts: &'f FinderBuilder,
    /// Absolute offset of the next byte to search.
    pos: usize,
    /// The next abbreviated-URI trigger at or after `pos`, if known.
    abbrev_next: Option<usize>,
    /// No abbreviated-URI trigger starts in `[pos, abbrev_clear)`.
    abbrev_clear: usize,
    colons: ColonSearch,
}

/// Where a trigger search stands, to go back to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    pos: usize,
    abbrev_next: Option<usize>,
    abbrev_clear: usize,
}

impl<'f> Triggers<'f> {
    pub(crate) fn new(opts: &'f FinderBuilder) -> Triggers<'f> {
        Triggers {
            opts,
            pos: 0,
            abbrev_next: None,
            abbrev_clear: 0,
            colons: ColonSearch::new(),
        }
    }

    /// Absolute offset of the next byte to search.
    #[inline]
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// Moves the search to absolute `pos`.
    #[inline]
    pub(crate) fn set_pos(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// Notes that the abbreviated-URI trigger at `t` was taken.
    #[inline]
    pub(crate) fn took_abbrev(&mut self, t: usize) {
        self.abbrev_next = None;
        self.abbrev_clear = t + 1;
    }

    /// Where the search stands.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            pos: self.pos,
            abbrev_next: self.abbrev_next,
            abbrev_clear: self.abbrev_clear,
        }
    }

    /// Goes back to the start of a new input, as [`Triggers::new`] would
    /// leave it.
    pub(crate) fn restart(&mut self) {
        self.pos = 0;
        self.abbrev_next = None;
        self.abbrev_clear = 0;
    }

    /// Goes back to `m`.
    pub(crate) fn reset(&mut self, m: Mark) {
        self.pos = m.pos;
        self.abbrev_next = m.abbrev_next;
        self.abbrev_clear = m.abbrev_clear;
    }

    /// The next trigger at or after [`Triggers::pos`] in `buf` (which
    /// starts at absolute `base`), or `None` when there is none in `buf`,
    /// with the position moved to where the search must go on. No
    /// candidate may start before `resume`.
    #[inline]
    pub(crate) fn next(
        &mut self,
        buf: &[u8],
        base: usize,
        eof: bool,
        resume: usize,
    ) -> Option<Trigger> {
        let end = base + buf.len();
        let start = self.pos.max(base);
        // The next abbreviated-URI trigger first: colons are searched only
        // up to it, so that each one costs the bytes before it, not a
        // search of the whole buffer for a colon (text with many `www.`
        // and no URI colon would be quadratic).
        let mut abbrev = None;
        if self.opts.abbrev {
            if self.abbrev_next.is_some_and(|a| a < start) {
                self.abbrev_next = None;
            }
            let from = start.max(self.abbrev_clear);
            if self.abbrev_next.is_none() && self.abbrev_clear < end {
                // Glued to a word (`x.www.a`, `:www.`): no trigger, as
                // `abbreviated` would say at once. (One search over the
                // rest: no two triggers overlap.)
                let next = abbrev::next(buf, from - base).map(|i| base + i);
                match next {
                    Some(at) => {
                        self.abbrev_next = Some(at);
                        self.abbrev_clear = at;
                    }
                    None => {
                        // A match may start in the last three bytes and
                        // end past the buffer: search those again when
                        // more input comes.
                        self.abbrev_clear = if eof {
                            end
                        } else {
                            end.saturating_sub(3).max(from)
                        };
                    }
                }
            }
            // One found past the end of a shorter buffer (a split scan's
            // search stops short of what it searched before) waits.
            abbrev = self.abbrev_next.filter(|&a| a < end);
        }
        let limit = abbrev.unwrap_or(end);
        // Most colons in text cannot start a URI: no scheme character
        // before them, or a byte after them that no URI has there (see
        // `colon`). Skip those here, without building a window.
        let mut from = start;
        // A colon turned away before `dense_until` follows another within
        // a few bytes: colon-dense text, filtered a block at a time.
        let mut dense_until = 0;
        let mut streak = 0usize;
        let mut bulk_from = 0;
        let bulk = !self.opts.any_scheme
            && self.opts.schemes.is_none()
            && self.opts.prefilter;
        let before_limit = &buf[..limit - base];
        // Whether colons come close together here: the last one turned
        // away lay within a few bytes of where its search began (prose
        // has one every hundred bytes or more, where the look at the
        // next bytes before memchr is wasted).
        let mut near = true;
        // Prose: colons far apart, turned away a block at a time (the
        // sieve, out of line) from the first colon turned away far from
        // where its search began (not in URI-dense text, where the next
        // colon is mostly a trigger) to colon-dense text or the buffer's
        // end. No sieve from a colon before `sieve_at`.
        let mut sieve_at = if self.opts.prefilter { 0 } else { usize::MAX };
        let colon = 'found: loop {
            let Some(ci) =
                find_colon(&self.colons, before_limit, from - base, near)
            else {
                break None;
            };
            near = ci < from - base + 16;
            if self.colon_ok(buf, base, ci, resume) {
                break Some(base + ci);
            }
            if !near && ci >= sieve_at {
                match self.sieve(buf, base, ci + 1, limit - base, resume, bulk)
                {
                    Sift::Found(k) => break Some(base + k),
                    Sift::Dense(p) => {
                        sieve_at = p + BULK_PAUSE;
                        from = base + p;
                    }
                    Sift::Stop(p) => {
                        sieve_at = usize::MAX;
                        from = base + p;
                    }
                }
                continue;
            }
            streak = if ci < dense_until { streak + 1 } else { 1 };
            if bulk
                && streak >= DENSE_STREAK
                && ci >= bulk_from
                && ci + 64 <= buf.len()
            {
                let block: &[u8; 64] = buf[ci..ci + 64].try_into().unwrap();
                let ell = ci > 0 && buf[ci - 1] | 0x20 == b'l';
                let (mut m, colons) = dense_candidates(block, ell);
                if 2 * m.count_ones() > colons.count_ones() {
                    // The filter kept most colons (`http://` on every
                    // line): it costs more than it saves here.
                    bulk_from = ci + BULK_PAUSE;
                }
                while m != 0 {
                    let k = ci + m.trailing_zeros() as usize;
                    if self.colon_ok(buf, base, k, resume) {
                        break 'found Some(base + k);
                    }
                    m &= m - 1;
                }
                from = base + ci + DENSE_BLOCK;
                // A block with few colons (`12:34:56` in prose) is not
                // worth another: go back to colon by colon.
                if colons.count_ones() < DENSE_STREAK as u32 * 2 {
                    streak = 0;
                }
                dense_until = ci + DENSE_BLOCK + DENSE;
                continue;
            }
            dense_until = ci + 1 + DENSE;
            from = base + ci + 1;
        };
        match (colon, abbrev) {
            (Some(c), Some(a)) if a < c => Some(Trigger::Abbrev(a)),
            (Some(c), _) => Some(Trigger::Colon(c)),
            (None, Some(a)) => Some(Trigger::Abbrev(a)),
            (None, None) => {
                self.pos = if eof || !self.opts.abbrev {
                    end
                } else {
                    end.saturating_sub(3).max(start)
                };
                None
            }
        }
    }

    /// The sieve's way from `buf[from]` to `buf[end]` (the buffer starts
    /// at absolute `base`): the first colon there that
    /// [`Triggers::colon_ok`] accepts, or where the sieve gave way. Out of
    /// line: the search for the next trigger in URI-dense text, where it
    /// is not taken, stays small.
    #[inline(never)]
    fn sieve(
        &self,
        buf: &[u8],
        base: usize,
        mut from: usize,
        end: usize,
        resume: usize,
        numbers: bool,
    ) -> Sift {
        loop {
            match sieve::next(buf, from, end, numbers) {
                Sieved::Block(p, mut keep) => {
                    while keep != 0 {
                        let k = p + keep.trailing_zeros() as usize;
                        if self.colon_ok(buf, base, k, resume) {
                            return Sift::Found(k);
                        }
                        keep &= keep - 1;
                    }
                    from = p + sieve::BLOCK;
                }
                Sieved::Dense(p) => return Sift::Dense(p),
                Sieved::Stop(p) => return Sift::Stop(p),
            }
        }
    }

    /// Whether the colon `buf[ci]` (the buffer starts at absolute `base`)
    /// may start a candidate: something a URI may hold follows it, a
    /// scheme character precedes it, and [`Triggers::could_start`].
    #[inline(always)]
    pub(crate) fn colon_ok(
        &self,
        buf: &[u8],
        base: usize,
        ci: usize,
        resume: usize,
    ) -> bool {
        if !self.opts.prefilter {
            return true;
        }
        if ci > 0 && !text::is_scheme_byte(buf[ci - 1]) {
            return false;
        }
        let next_ok = match buf.get(ci + 1) {
            None => true,
            Some(b' ' | b'\t') => match buf.get(ci + 2) {
                // One blank and then text (`Note: x`, the common case):
                // no line break.
                Some(&b) if !text::is_ws(b) => ci + 4 > buf.len(),
                _ => {
                    let j = text::skip_blanks(buf, ci + 1);
                    j + 2 > buf.len() || text::line_break_at(buf, j).is_some()
                }
            },
            // (With IRIs, a non-ASCII character may come first.)
            Some(&b) => {
                text::is_uri_byte(b)
                    || b == b'\n'
                    || b == b'\r'
                    || (self.opts.iri && b >= 0x80)
            }
        };
        next_ok && self.could_start(buf, base, ci, resume)
    }

    /// A cheap look at the colon `buf[ci]` (the buffer starts at absolute
    /// `base`): false only when the engine would surely find no candidate
    /// there, because no context could accept its scheme without `//`
    /// (`a:b`, `std::x`, `Re:x`). Anything unsure goes on to the engine.
    #[inline(always)]
    fn could_start(
        &self,
        buf: &[u8],
        base: usize,
        ci: usize,
        resume: usize,
    ) -> bool {
        if self.opts.any_scheme || self.opts.schemes.is_some() {
            return true;
        }
        if ci + 3 > buf.len() {
            return true;
        }
        // What a candidate with nothing after its scheme would show is
        // reported when asked for: keep those colons then.
        let quiet = !self.opts.rejected;
        if buf[ci + 1..].starts_with(b"//") {
            // `scheme://` and then a byte no URI holds there, or blanks
            // and no line break: no context gives it an authority or a
            // path (`ssh:// and`).
            // (`http://` on every line: the next line begins a URI of its
            // own, which is no continuation of this one in any context.)
            let Some(&b) = buf.get(ci + 3) else { return true };
            // (With IRIs or browser hosts, a host may start non-ASCII.)
            let wide = self.opts.iri || self.opts.browser_hosts;
            if !quiet || text::is_uri_byte(b) || (wide && b >= 0x80) {
                return true;
            }
            if !text::is_ws(b) {
                return false;
            }
            let j = text::skip_blanks(buf, ci + 3);
            return match text::line_break_at(buf, j) {
                Some(k) => !continuation::line_starts_uri(buf, k),
                None => j + 2 > buf.len(),
            };
        }
        let lo = resume.saturating_sub(base).min(ci);
        let far = ci.saturating_sub(64).max(lo);
        let mut s = ci;
        while s > far && text::is_scheme_byte(buf[s - 1]) {
            s -= 1;
        }
        if s == far && s > lo {
            return true;
        }
        // A scheme starts with a letter in every context (`10:30` starts
        // nothing).
        if !buf[s..ci].iter().any(u8::is_ascii_alphabetic) {
            return false;
        }
        if s > lo {
            let before = buf[s - 1];
            if before == b'<' || before == b'"' {
                return true;
            }
            // (`>`: the end of a quote prefix on a continuation line.)
            if (text::is_ws(before) || before == b':' || before == b'>')
                && self.angle_near(buf, s, lo)
            {
                return true;
            }
        }
        // Out of brackets and quotes, `scheme:` and then whitespace is
        // nothing: only a bare candidate remains, and it must hold more.
        let next_ws = text::is_ws(buf[ci + 1]);
        (!next_ws || !quiet) && scheme::may_be_prose_opaque(buf, s, ci)
    }

    /// Whether a `<` may open an angle-bracket context for a scheme at
    /// `buf[s]`: a superset of `delimited::opened` that walks back over
    /// any whitespace and `>` (quote prefixes) and one `URL:`, and is
    /// true when it reaches `lo` or the bracket bound unsure.
    #[inline]
    fn angle_near(&self, buf: &[u8], s: usize, lo: usize) -> bool {
        let bound = s.saturating_sub(self.opts.bracket_bound + 8).max(lo);
        let mut i = s;
        let mut url = false;
        loop {
            // At most one line break between a scheme (or `URL:`) and
            // what opens it, as `delimited` takes.
            let mut breaks = 0;
            while i > bound && (text::is_ws(buf[i - 1]) || buf[i - 1] == b'>')
            {
                if buf[i - 1] == b'\n' {
                    breaks += 1;
                    if breaks > 1 {
                        return false;
                    }
                }
                i -= 1;
            }
            if i <= bound {
                return true;
            }
            match buf[i - 1] {
                b'<' => return true,
                b':' if !url
                    && i >= bound + 4
                    && buf[i - 4..i - 1].eq_ignore_ascii_case(b"url") =>
                {
                    url = true;
                    i -= 4;
                }
                _ => return false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{dense_candidates, Triggers, DENSE_BLOCK};
    use crate::grammar::schemes::PROSE_OPAQUE;
    use crate::scan::FinderBuilder;

    /// The bulk filter keeps every colon the exact test accepts.
    #[test]
    fn dense_filter_keeps_every_candidate() {
        let opts = FinderBuilder::default();
        let triggers = Triggers::new(&opts);
        let pieces: &[&[u8]] = &[
            b"a",
            b":",
            b"/",
            b"<",
            b"\"",
            b" ",
            b"l",
            b"L",
            b"url",
            b"URL",
            b"u",
            b"R",
            b"1",
            b"-",
            b".",
            b"+",
            b"x",
            b"\n",
            b"\t",
            b">",
            b",",
            b"_",
            b"\xc3\xa9",
            b"mailto",
            b"NEWS",
            b"urn",
            b"tel",
            b"sips",
            b"xmpp",
            b"magnet",
            b"geo",
            b"cid",
            b"mid",
            b"data",
            b"http",
            b"Email",
            b"3sip",
            b"mid.",
            b"nurse",
        ];
        let mut next = crate::scan::tests::support::splitmix(0x2003);
        let (mut kept, mut accepted, mut colons) = (0, 0, 0);
        for round in 0..20_000 {
            // Bias some rounds towards runs of `a:` and `url:`.
            let mut buf: Vec<u8> = Vec::new();
            while buf.len() < 80 {
                let r = next();
                if round % 3 == 0 && r % 4 != 0 {
                    buf.push(b"a:"[(r >> 8) as usize % 2]);
                } else {
                    let p = pieces[(r >> 8) as usize % pieces.len()];
                    buf.extend_from_slice(p);
                }
            }
            buf.truncate(80);
            buf[8] = b':';
            let block: &[u8; 64] = buf[8..72].try_into().unwrap();
            let (m, _) = dense_candidates(block, buf[7] | 0x20 == b'l');
            for k in 1..DENSE_BLOCK {
                colons += (buf[8 + k] == b':') as usize;
                if buf[8 + k] == b':' && triggers.colon_ok(&buf, 0, 8 + k, 0) {
                    accepted += 1;
                    assert!(
                        m >> k & 1 == 1,
                        "colon {k} dropped in {:?}",
                        String::from_utf8_lossy(&buf)
                    );
                }
                kept += (m >> k & 1) as usize;
            }
        }
        // The filter must also filter: far fewer kept than colons.
        assert!(
            accepted > 1000 && kept < colons / 3,
            "{accepted} {kept} {colons}"
        );
        let a_colon = b"a:".repeat(32);
        let block: &[u8; 64] = a_colon[..64].try_into().unwrap();
        assert_eq!(dense_candidates(block, false).0, 0);
        // `URL:` and nothing but blanks to the block's end (the fuzzers).
        let mut blank = [b' '; 64];
        blank[0] = b':';
        assert_eq!(dense_candidates(&blank, true), (0, 0));
        let mut b = *block;
        b[10..18].copy_from_slice(b" http://");
        assert_eq!(dense_candidates(&b, false).0, 1 << 15);
    }

    /// Every prose-opaque scheme, in any case, after a blank, at every
    /// place in a block, is kept by the bulk filter.
    #[test]
    fn dense_filter_keeps_every_prose_opaque_scheme() {
        for s in PROSE_OPAQUE {
            for name in [s.to_string(), s.to_ascii_uppercase()] {
                let word = format!(" {name}:x");
                for at in 1..DENSE_BLOCK - word.len() + 1 {
                    let mut block = *b":a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a:a";
                    block[at..at + word.len()]
                        .copy_from_slice(word.as_bytes());
                    let colon = at + word.len() - 2;
                    let (m, _) = dense_candidates(&block, false);
                    assert!(m >> colon & 1 == 1, "{name} at {at}");
                }
            }
        }
    }
}
