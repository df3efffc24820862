//! The engine behind every scan: finds triggers (each `:` and, with
//! abbreviated URIs, each `www.`/`ftp.`), decides the delimiting context
//! around each one, and hands candidates to the validator.
//!
//! The engine only ever looks at a bounded window around a trigger
//! ([`Limits`]), so a slice and a stream split anywhere see the same
//! bytes for every decision and report the same items at the same
//! offsets.

use std::collections::VecDeque;
use std::ops::Range;

use crate::grammar::{schemes, Error, Part, Validator};
use crate::scan::text::{self, NonAscii};
use crate::scan::{Context, FinderBuilder, Rejected};

/// How many line breaks after a hyphen one URI may span: enough for any
/// URI a person broke, and a bound on the work per candidate.
const MAX_HYPHEN_JOINS: usize = 16;

/// The index of the next `:` in `buf` from `i`: a plain look at the next
/// few bytes first (colons come in runs in some text: `a:b:c`, `::`),
/// memchr for the long stretches.
#[inline]
fn find_colon(buf: &[u8], i: usize) -> Option<usize> {
    if i >= buf.len() {
        return None;
    }
    let near = (i + 8).min(buf.len());
    if let Some(k) = buf[i..near].iter().position(|&b| b == b':') {
        return Some(i + k);
    }
    memchr::memchr(b':', &buf[near..]).map(|k| near + k)
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
/// `1..DENSE_BLOCK` that [`Engine::colon_ok`] might accept, and all the
/// colons at those bits (`ell`: the byte before the block is `l` or `L`).
/// A colon left out surely fails it: the byte before it is no scheme
/// character, or no `//` follows it, its run of scheme characters is
/// shorter than three or does not end as a prose-opaque scheme does, and
/// the byte before that run opens no context (`"`, `<`, and whitespace or
/// `URL:` only when a `<` may lie before them: see
/// [`Engine::angle_near`]). The run test is one addition: a carry
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

/// Whether a `www.`/`ftp.` after the byte `p` is glued to a word, and so
/// no abbreviated URI (`x.www.a`, `a@ftp.b`, `http://www.`).
#[inline]
fn glued(p: u8) -> bool {
    p.is_ascii_alphanumeric()
        || matches!(p, b'.' | b'-' | b'@' | b'/' | b':' | b'%' | b'_' | b'+')
}

/// Whether the line at `buf[k..]` surely begins (after any blanks and
/// `>`, a superset of a quote prefix and indentation) with `scheme://` or
/// `URL:`, which continue no URI from the line before (see
/// [`Engine::after_break`] and the line breaks of [`Engine::delimited`]:
/// a line that starts otherwise after a `>` or a quote prefix of another
/// depth continues nothing either). False when unsure.
#[inline]
fn line_starts_uri(buf: &[u8], k: usize) -> bool {
    let mut j = k;
    while j < buf.len() && matches!(buf[j], b' ' | b'\t' | b'>' | 0x0b | 0x0c)
    {
        j += 1;
    }
    uri_at(buf, j).0
}

/// Whether `v[j..]` starts with `URL:` or `scheme://`, and the index of
/// the end of the run of scheme characters read (`j` when none was).
fn uri_at(v: &[u8], j: usize) -> (bool, usize) {
    if v.len() >= j + 4 && v[j..j + 4].eq_ignore_ascii_case(b"url:") {
        return (true, j);
    }
    if j >= v.len() || !v[j].is_ascii_alphabetic() {
        return (false, j);
    }
    let mut k = j;
    while k < v.len() && text::is_scheme_byte(v[k]) {
        k += 1;
    }
    (v[k..].starts_with(b"://"), k)
}

/// How much of a candidate longer than the bound a rejection shows.
const TOO_LONG_SHOWN: usize = 64;

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

/// A match with absolute offsets; the URI is `input[uri_span]` unless
/// `owned` holds it.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    pub span: Range<usize>,
    pub uri_span: Range<usize>,
    pub owned: Option<Vec<u8>>,
    pub context: Context,
    pub alt: Option<Vec<u8>>,
}

/// What the engine reports.
#[derive(Clone, Debug)]
pub(crate) enum Out {
    Match(Found),
    Rejected(Rejected),
}

/// The window around one trigger: `v` is the input from absolute offset
/// `base`; the engine never reads before `lo` (where the previous match
/// ended) for the start of a candidate.
#[derive(Clone, Copy)]
pub(crate) struct View<'a> {
    pub v: &'a [u8],
    pub base: usize,
    pub lo: usize,
}

/// What a known stretch of URI bytes looks like: the bare run starting
/// anywhere in `[from, reached)` continues at least to `reached`, and
/// stops there when `ended`.
#[derive(Clone, Copy, Debug, Default)]
struct RunCache {
    from: usize,
    reached: usize,
    ended: bool,
}

/// The scanning state shared by slices and streams.
pub(crate) struct Engine<'f> {
    pub opts: &'f FinderBuilder,
    pub limits: Limits,
    validator: Validator,
    /// Absolute offset before which no new candidate may start.
    pub resume: usize,
    /// Absolute offset of the next byte to search for triggers.
    pub pos: usize,
    pub queue: VecDeque<Out>,
    run: RunCache,
    /// The candidate being assembled: pieces of the view (absolute).
    segs: Vec<(usize, usize)>,
    /// Offsets in `text` of hyphens at which a line break was joined.
    joins: Vec<usize>,
    text: Vec<u8>,
    /// Scratch for [`Engine::open_depths`].
    depth: Vec<u32>,
    /// The next abbreviated-URI trigger at or after `pos`, if known.
    abbrev_next: Option<usize>,
    /// No abbreviated-URI trigger starts in `[pos, abbrev_clear)`.
    abbrev_clear: usize,
    /// Set when a decision needed bytes at or past the window's end (a
    /// stream then waits for more input before trusting it).
    pub hit_end: bool,
    /// Set by an overlong bare candidate when rejections are not
    /// reported: every trigger before it would start a candidate just as
    /// overlong (they lie in the same run of URI bytes), so the search
    /// jumps there instead of failing them one by one.
    skip_to: usize,
    ac: Option<&'f aho_corasick::AhoCorasick>,
}

/// How a candidate's scheme came to be accepted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Bare,
    Quoted,
    Angle,
    UrlPrefixed,
    Abbrev,
}

impl Ctx {
    fn public(self) -> Context {
        match self {
            Ctx::Bare => Context::Bare,
            Ctx::Quoted => Context::Quoted,
            Ctx::Angle => Context::Angle,
            Ctx::UrlPrefixed => Context::UrlPrefixed,
            Ctx::Abbrev => Context::Abbreviated,
        }
    }
}

/// Why a candidate failed.
struct Fault {
    offset: usize,
    reason: Reason,
    /// The fault lies in the path, query or fragment: a prefix may
    /// still be valid.
    tail: bool,
}

/// The reason of a [`Fault`], put in words only when a rejection is
/// reported (most candidates fail silently, at the rate of colons).
enum Reason {
    Grammar(Error),
    TooLong(usize),
    NothingAfter(&'static str),
    NonAscii,
    EmptyAuthority,
    DataComma,
    Code,
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::Grammar(e) => e.fmt(f),
            Reason::TooLong(n) => write!(f, "longer than {n} bytes"),
            Reason::NothingAfter(w) => write!(f, "nothing after '{w}'"),
            Reason::NonAscii => {
                f.write_str("a non-ASCII letter follows: an IRI, not a URI")
            }
            Reason::EmptyAuthority => f.write_str(
                "an unregistered scheme needs a non-empty authority",
            ),
            Reason::DataComma => f.write_str(
                "a data URI is [type/subtype][;param]...[;base64],data",
            ),
            Reason::Code => {
                f.write_str("':' or '/' after this scheme's ':' is not a URI")
            }
        }
    }
}

impl From<Error> for Fault {
    fn from(e: Error) -> Fault {
        Fault {
            offset: e.offset(),
            tail: matches!(
                e.part(),
                Part::Path | Part::Query | Part::Fragment
            ),
            reason: Reason::Grammar(e),
        }
    }
}

impl<'f> Engine<'f> {
    pub(crate) fn new(
        opts: &'f FinderBuilder,
        ac: Option<&'f aho_corasick::AhoCorasick>,
    ) -> Engine<'f> {
        Engine {
            opts,
            ac,
            hit_end: false,
            skip_to: 0,
            limits: Limits::of(opts),
            validator: Validator::new(opts.grammar)
                .absolute(true)
                .scheme_rules(true),
            resume: 0,
            pos: 0,
            queue: VecDeque::new(),
            run: RunCache::default(),
            segs: Vec::new(),
            joins: Vec::new(),
            text: Vec::new(),
            depth: Vec::new(),
            abbrev_next: None,
            abbrev_clear: 0,
        }
    }

    /// The next trigger at or after `self.pos` in `buf` (which starts at
    /// absolute `base`): `Ok(Some(t))`, or `Ok(None)` when there is none
    /// in `buf`, with `self.pos` moved to where the search must go on.
    pub(crate) fn next_trigger(
        &mut self,
        buf: &[u8],
        base: usize,
        eof: bool,
    ) -> Option<(usize, bool)> {
        let end = base + buf.len();
        let start = self.pos.max(base);
        // The next abbreviated-URI trigger first: colons are searched only
        // up to it, so that each one costs the bytes before it, not a
        // search of the whole buffer for a colon (text with many `www.`
        // and no URI colon would be quadratic).
        let mut abbrev = None;
        if let Some(ac) = self.ac {
            if self.abbrev_next.is_some_and(|a| a < start) {
                self.abbrev_next = None;
            }
            let mut from = start.max(self.abbrev_clear);
            while self.abbrev_next.is_none() && self.abbrev_clear < end {
                match ac.find(&buf[from - base..]) {
                    // Glued to a word (`x.www.a`, `:www.`): no trigger,
                    // as `abbreviated` would say at once.
                    Some(m)
                        if from + m.start() > base
                            && glued(buf[from + m.start() - base - 1]) =>
                    {
                        from += m.start() + 1;
                        self.abbrev_clear = from;
                    }
                    Some(m) => {
                        self.abbrev_next = Some(from + m.start());
                        self.abbrev_clear = from + m.start();
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
                        break;
                    }
                }
            }
            abbrev = self.abbrev_next;
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
        let colon = 'found: loop {
            let Some(ci) = find_colon(before_limit, from - base) else {
                break None;
            };
            if self.colon_ok(buf, base, ci) {
                break Some(base + ci);
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
                    if self.colon_ok(buf, base, k) {
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
            (Some(c), Some(a)) if a < c => Some((a, true)),
            (Some(c), _) => Some((c, false)),
            (None, Some(a)) => Some((a, true)),
            (None, None) => {
                self.pos = if eof || self.ac.is_none() {
                    end
                } else {
                    end.saturating_sub(3).max(start)
                };
                None
            }
        }
    }

    /// Whether the colon `buf[ci]` (the buffer starts at absolute `base`)
    /// may start a candidate: something a URI may hold follows it, a
    /// scheme character precedes it, and [`Engine::could_start`].
    #[inline(always)]
    fn colon_ok(&self, buf: &[u8], base: usize, ci: usize) -> bool {
        if !self.opts.prefilter {
            return true;
        }
        let next_ok = match buf.get(ci + 1) {
            None => true,
            Some(b' ' | b'\t') => {
                let j = text::skip_blanks(buf, ci + 1);
                j + 2 > buf.len() || text::line_break_at(buf, j).is_some()
            }
            Some(&b) => text::is_uri_byte(b) || b == b'\n' || b == b'\r',
        };
        let prev_ok = ci == 0 || text::is_scheme_byte(buf[ci - 1]);
        next_ok && prev_ok && self.could_start(buf, base, ci)
    }

    /// A cheap look at the colon `buf[ci]` (the buffer starts at absolute
    /// `base`): false only when `colon` would surely find no candidate
    /// there, because no context could accept its scheme without `//`
    /// (`a:b`, `std::x`, `Re:x`). Anything unsure goes on to `colon`.
    #[inline(always)]
    fn could_start(&self, buf: &[u8], base: usize, ci: usize) -> bool {
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
            if !quiet || text::is_uri_byte(b) {
                return true;
            }
            if !text::is_ws(b) {
                return false;
            }
            let j = text::skip_blanks(buf, ci + 3);
            return match text::line_break_at(buf, j) {
                Some(k) => !line_starts_uri(buf, k),
                None => j + 2 > buf.len(),
            };
        }
        let lo = self.resume.saturating_sub(base).min(ci);
        let far = ci.saturating_sub(64).max(lo);
        let mut s = ci;
        while s > far && text::is_scheme_byte(buf[s - 1]) {
            s -= 1;
        }
        if s == far && s > lo {
            return true;
        }
        while s < ci && !buf[s].is_ascii_alphabetic() {
            s += 1;
        }
        if s == ci {
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
        (!next_ws || !quiet) && schemes::is_prose_opaque(&buf[s..ci])
    }

    /// Whether a `<` may open an angle-bracket context for a scheme at
    /// `buf[s]`: a superset of [`Engine::opener`] that walks back over
    /// any whitespace and `>` (quote prefixes) and one `URL:`, and is
    /// true when it reaches `lo` or the bracket bound unsure.
    #[inline]
    fn angle_near(&self, buf: &[u8], s: usize, lo: usize) -> bool {
        let bound = s.saturating_sub(self.opts.bracket_bound + 8).max(lo);
        let mut i = s;
        let mut url = false;
        loop {
            // At most one line break between a scheme (or `URL:`) and
            // what opens it, as `back_over_ws` takes.
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

    /// Handles the trigger at absolute `t` with the window `vw`.
    pub(crate) fn trigger(&mut self, vw: View<'_>, t: usize, abbrev: bool) {
        if abbrev {
            self.abbrev_next = None;
            self.abbrev_clear = t + 1;
            self.abbreviated(vw, t - vw.base);
            self.pos = (t + 1).max(self.resume);
            return;
        }
        self.skip_to = 0;
        self.colon(vw, t - vw.base);
        self.pos = (t + 1).max(self.resume).max(self.skip_to);
    }

    /// A `:` at `v[c]`.
    fn colon(&mut self, vw: View<'_>, c: usize) {
        let v = vw.v;
        let lo = vw.lo;
        // Fast path: a URI has at least one byte after `scheme:`, and in
        // no context can that be a space, a tab or a byte that ends URIs
        // (a line break may still be rejoined inside brackets). Most
        // colons in prose end here.
        self.touch(v, c + 1);
        match v.get(c + 1) {
            None => return,
            Some(b' ' | b'\t') => {
                // Only a whitespace run holding a line break, removed
                // inside brackets and quotes, may follow `scheme:`.
                let j = text::skip_blanks(v, c + 1);
                self.touch(v, j + 2);
                if text::line_break_at(v, j).is_none() {
                    return;
                }
            }
            Some(&b) if !text::is_uri_byte(b) && b != b'\n' && b != b'\r' => {
                return
            }
            _ => {}
        }
        // The scheme: the run of scheme characters ending at the colon,
        // from its first letter.
        let mut s = c;
        while s > lo && text::is_scheme_byte(v[s - 1]) {
            s -= 1;
        }
        while s < c && !v[s].is_ascii_alphabetic() {
            s += 1;
        }
        if s == c {
            return;
        }
        let scheme = &v[s..c];
        // A `URL:` right after `<` is a prefix, not a scheme.
        if scheme.eq_ignore_ascii_case(b"url")
            && self.angle_before(v, s, lo).is_some()
        {
            return;
        }
        if s > lo && v[s - 1] == b'"' {
            if self.delimited(vw, s - 1, s, c, Ctx::Quoted) {
                return;
            }
        } else if let Some((open, url)) = self.opener(v, s, lo) {
            let ctx = if url { Ctx::UrlPrefixed } else { Ctx::Angle };
            if self.delimited(vw, open, s, c, ctx) {
                return;
            }
        }
        self.bare(vw, s, c);
    }

    /// Steps back from `v[s]` over whitespace that may hold one line
    /// break, and after that break a mail quote prefix of the same depth
    /// as the line before it (`> > <URL:\n> >   http://...`); returns
    /// where the whitespace starts.
    fn back_over_ws(&self, v: &[u8], s: usize, lo: usize) -> Option<usize> {
        let blank = |b: u8| matches!(b, b' ' | b'\t' | 0x0b | 0x0c | b'\r');
        let mut i = s;
        while i > lo && blank(v[i - 1]) {
            i -= 1;
        }
        // A quote prefix can only end in `>` (and its blanks): look for
        // the line start only then, so long lines cost nothing here.
        let mut depth = 0;
        if i > lo && v[i - 1] == b'>' {
            // (The line may start before `lo`, where the last match
            // ended: its quote prefix is context, not candidate.)
            let ls = text::line_start(v, i);
            let (d, end) = text::quote_prefix(v, ls);
            // The prefix takes the blanks after each `>` with it.
            if d > 0 && end >= i && end <= s {
                depth = d;
                i = ls;
            }
        }
        if i > lo && v[i - 1] == b'\n' {
            let mut j = i - 1;
            while j > lo && blank(v[j - 1]) {
                j -= 1;
            }
            // Only a `<` or the `:` of `URL:` up there matters to the
            // callers; the line above must be quoted alike, and not blank.
            let opens = j > lo && matches!(v[j - 1], b'<' | b':');
            let ls = if opens { text::line_start(v, j) } else { j };
            if opens && text::quote_prefix(v, ls).0 == depth && j > ls {
                i = j;
            } else if depth > 0 {
                return None;
            }
        } else if depth > 0 {
            return None;
        }
        (s - i <= self.opts.bracket_bound).then_some(i)
    }

    /// Whether a `<` (after optional whitespace) stands right before
    /// `v[s]`; returns its index.
    fn angle_before(&self, v: &[u8], s: usize, lo: usize) -> Option<usize> {
        let i = self.back_over_ws(v, s, lo)?;
        (i > lo && v[i - 1] == b'<').then(|| i - 1)
    }

    /// The `<` that opens an angle-bracket context for a scheme at `v[s]`
    /// (optional whitespace, an optional `URL:`, optional whitespace), and
    /// whether `URL:` was there.
    fn opener(&self, v: &[u8], s: usize, lo: usize) -> Option<(usize, bool)> {
        let i = self.back_over_ws(v, s, lo)?;
        if i > lo && v[i - 1] == b'<' {
            return Some((i - 1, false));
        }
        if i >= lo + 4 && v[i - 4..i].eq_ignore_ascii_case(b"url:") {
            return self.angle_before(v, i - 4, lo).map(|o| (o, true));
        }
        None
    }

    /// Whether a scheme is accepted in a context, before validation.
    fn accepts(&self, scheme: &[u8], slashes: bool, ctx: Ctx) -> bool {
        if let Some(list) = &self.opts.schemes {
            return list.iter().any(|x| x.eq_ignore_ascii_case(scheme));
        }
        if self.opts.any_scheme {
            return true;
        }
        match ctx {
            Ctx::UrlPrefixed => true,
            Ctx::Angle => slashes || schemes::is_registered(scheme),
            Ctx::Bare | Ctx::Quoted | Ctx::Abbrev => {
                slashes || schemes::is_prose_opaque(scheme)
            }
        }
    }

    /// The checks on a whole candidate text: grammar and scheme rules,
    /// then SPEC.md's rules on what may be extracted.
    fn check(
        &self,
        t: &[u8],
        scheme_len: usize,
        ctx: Ctx,
    ) -> Result<(), Fault> {
        if t.len() > self.opts.max_uri_len {
            return Err(Fault {
                offset: self.opts.max_uri_len,
                reason: Reason::TooLong(self.opts.max_uri_len),
                tail: false,
            });
        }
        let c = self.validator.validate(t)?;
        let scheme = &t[..scheme_len];
        let after = &t[scheme_len + 1..];
        let nothing = |what: &'static str| Fault {
            offset: t.len(),
            reason: Reason::NothingAfter(what),
            tail: false,
        };
        if after.is_empty() || after[0] == b'#' {
            return Err(nothing(":"));
        }
        if let Some(auth) = c.authority {
            if auth.is_empty() && c.path.is_empty() {
                return Err(nothing("//"));
            }
            let free = self.opts.any_scheme
                || self.opts.schemes.is_some()
                || ctx == Ctx::UrlPrefixed;
            if auth.is_empty() && !free && !schemes::is_registered(scheme) {
                return Err(Fault {
                    offset: scheme_len + 3,
                    reason: Reason::EmptyAuthority,
                    tail: false,
                });
            }
        } else if scheme.eq_ignore_ascii_case(b"data")
            && matches!(ctx, Ctx::Bare | Ctx::Quoted)
            && !data_head(after)
        {
            return Err(Fault {
                offset: t.len(),
                reason: Reason::DataComma,
                tail: false,
            });
        } else if matches!(after[0], b':' | b'/')
            && matches!(ctx, Ctx::Bare | Ctx::Quoted)
        {
            // `geo::Point`, `news::Item`: a C++ or Perl name, not a URI;
            // `mailto:/news:` is prose about schemes. The schemes written
            // without `//` in prose are opaque: no `/` or `:` first.
            return Err(Fault {
                offset: scheme_len + 1,
                reason: Reason::Code,
                tail: false,
            });
        }
        Ok(())
    }

    // ----- assembling candidates -----

    fn start_cand(&mut self) {
        self.segs.clear();
        self.joins.clear();
        self.text.clear();
    }

    fn push_seg(&mut self, v: &[u8], base: usize, a: usize, b: usize) {
        if let Some(&(_, e)) = self.segs.last() {
            if v[e - base - 1] == b'-' {
                self.joins.push(self.text.len() - 1);
            }
        }
        self.segs.push((base + a, base + b));
        self.text.extend_from_slice(&v[a..b]);
    }

    /// The absolute input offset of text offset `k` (`k` may equal the
    /// text length: the end of the last piece).
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
    fn input_end(&self, k: usize) -> usize {
        if k == 0 {
            return self.segs.first().map_or(0, |s| s.0);
        }
        self.input_offset(k - 1) + 1
    }

    /// Reports text[..len] as a match.
    fn report(
        &mut self,
        len: usize,
        span: Range<usize>,
        ctx: Ctx,
        scheme_len: usize,
    ) {
        let start = self.segs[0].0;
        let end = self.input_end(len);
        let contiguous = end - start == len && ctx != Ctx::Abbrev;
        let uri = &self.text[..len];
        let mut alt = None;
        if self.joins.iter().any(|&j| j < len) {
            let mut a = Vec::with_capacity(len);
            let mut last = 0;
            for &j in self.joins.iter().filter(|&&j| j < len) {
                a.extend_from_slice(&uri[last..j]);
                last = j + 1;
            }
            a.extend_from_slice(&uri[last..]);
            if self.check(&a, scheme_len, ctx).is_ok() {
                alt = Some(a);
            }
        }
        let found = Found {
            span,
            uri_span: start..end,
            owned: (!contiguous).then(|| uri.to_vec()),
            context: ctx.public(),
            alt,
        };
        self.queue.push_back(Out::Match(found));
    }

    fn reject(&mut self, span: Range<usize>, ctx: Ctx, f: Fault) {
        if !self.opts.rejected {
            return;
        }
        self.queue.push_back(Out::Rejected(Rejected {
            span,
            candidate: self.text.clone(),
            offset: f.offset,
            reason: f.reason.to_string(),
            context: ctx.public(),
            position: None,
        }));
    }

    // ----- bare URIs -----

    /// Scans the bare run starting at `v[s]` (at most one byte past the
    /// longest URI); returns its end. Runs are cached: the stop of a run
    /// does not depend on where it started, so overlapping candidates
    /// never rescan.
    fn run_from(&mut self, vw: View<'_>, s: usize) -> usize {
        let v = vw.v;
        let abs = vw.base + s;
        let cap = (s + self.opts.max_uri_len + 1).min(v.len());
        let rc = self.run;
        let cached = abs >= rc.from && abs <= rc.reached;
        let mut i = s;
        if cached {
            if rc.ended {
                let e = rc.reached - vw.base;
                // What follows the run decides too (a '%', a UTF-8
                // character): it must be in the window.
                self.touch(v, e + 3);
                return e;
            }
            i = rc.reached - vw.base;
            if i >= cap {
                return i;
            }
        }
        i = text::uri_run(v, i, cap);
        self.touch(v, i + 3);
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
    fn extend_run(&mut self, vw: View<'_>, s: usize) -> usize {
        let v = vw.v;
        let rc = self.run;
        if rc.ended || rc.reached < vw.base + s {
            return rc.reached;
        }
        let mut i = rc.reached - vw.base;
        i = text::uri_run(v, i, v.len());
        self.touch(v, i + 3);
        let cut = i == v.len() || (v[i] == b'%' && i + 3 > v.len());
        self.run =
            RunCache { from: rc.from, reached: vw.base + i, ended: !cut };
        vw.base + i
    }

    /// Notes that a decision read `v` up to index `i`.
    #[inline]
    fn touch(&mut self, v: &[u8], i: usize) {
        if i >= v.len() {
            self.hit_end = true;
        }
    }

    /// A scan of a continuation run (not cached).
    fn plain_run(&mut self, v: &[u8], mut i: usize, cap: usize) -> usize {
        i = text::uri_run(v, i, cap);
        self.touch(v, i + 3);
        i
    }

    /// A bare candidate with scheme `v[s..c]`.
    fn bare(&mut self, vw: View<'_>, s: usize, c: usize) {
        let v = vw.v;
        let scheme_len = c - s;
        let slashes = v[c + 1..].starts_with(b"//");
        self.touch(v, c + 3);
        if !self.accepts(&v[s..c], slashes, Ctx::Bare) {
            return;
        }
        let max = self.opts.max_uri_len;
        let mut e = self.run_from(vw, s);
        self.start_cand();
        let span_start = vw.base + s;
        if e - s > max {
            if !self.opts.rejected {
                // (Abbreviated URIs are triggered by `www.`/`ftp.`, not by
                // a colon, and end otherwise: one may lie in the run.)
                if !self.opts.abbrev {
                    let far = self.extend_run(vw, s);
                    self.skip_to = far.saturating_sub(max + 1);
                }
                return;
            }
            // Only the start of an overlong candidate is kept: copying it
            // whole for every colon inside it would cost O(n * max).
            let shown = (e - s).min(TOO_LONG_SHOWN);
            self.push_seg(v, vw.base, s, s + shown);
            let f = Fault {
                offset: shown,
                reason: Reason::TooLong(max),
                tail: false,
            };
            self.reject(span_start..vw.base + e, Ctx::Bare, f);
            return;
        }
        if e < v.len()
            && v[e] >= 0x80
            && text::non_ascii(v, e) == NonAscii::Rejects
        {
            self.push_seg(v, vw.base, s, e);
            let f =
                Fault { offset: e - s, reason: Reason::NonAscii, tail: false };
            self.reject(span_start..vw.base + e, Ctx::Bare, f);
            return;
        }
        self.push_seg(v, vw.base, s, e);
        // The quote depth of the line, needed only to look past its end.
        // (Both rules below look past a line end only: without a line
        // break after the run, finding the line start would be wasted.)
        let depth = if ((slashes && e == c + 3)
            || self.text.last() == Some(&b'-'))
            && text::line_break_at(v, text::skip_blanks(v, e)).is_some()
        {
            text::quote_prefix(v, text::line_start(v, s)).0
        } else {
            0
        };
        // Dangling authority: `scheme://` at a line end.
        if slashes && e == c + 3 {
            match self.dangling(v, e, depth) {
                Some((a, b)) => {
                    self.push_seg(v, vw.base, a, b);
                    self.joins.clear();
                    e = b;
                }
                None => {
                    let f = Fault {
                        offset: self.text.len(),
                        reason: Reason::NothingAfter("//"),
                        tail: false,
                    };
                    self.reject(span_start..vw.base + e, Ctx::Bare, f);
                    return;
                }
            }
        }
        // Hyphen at a line break.
        let mut joins = 0;
        while self.text.last() == Some(&b'-')
            && self.text.len() <= max
            && joins < MAX_HYPHEN_JOINS
        {
            joins += 1;
            let Some(a) = self.after_break(v, e, depth) else { break };
            let cap = (a + max + 1).min(v.len());
            let b = self.plain_run(v, a, cap);
            if b == a {
                // A line that goes on with a letter of a spaced script
                // makes the whole an IRI.
                if v[a] >= 0x80 && text::non_ascii(v, a) == NonAscii::Rejects {
                    let f = Fault {
                        offset: self.text.len(),
                        reason: Reason::NonAscii,
                        tail: false,
                    };
                    self.reject(span_start..vw.base + a, Ctx::Bare, f);
                    return;
                }
                break;
            }
            if b < v.len()
                && v[b] >= 0x80
                && text::non_ascii(v, b) == NonAscii::Rejects
            {
                let f = Fault {
                    offset: self.text.len() + b - a,
                    reason: Reason::NonAscii,
                    tail: false,
                };
                self.push_seg(v, vw.base, a, b);
                self.reject(span_start..vw.base + b, Ctx::Bare, f);
                return;
            }
            self.push_seg(v, vw.base, a, b);
            e = b;
        }
        let span_end = vw.base + e;
        if self.text.len() > max {
            let f = Fault {
                offset: max,
                reason: Reason::TooLong(max),
                tail: false,
            };
            self.reject(span_start..span_end, Ctx::Bare, f);
            return;
        }
        let len = self.trimmed(self.text.len(), scheme_len);
        match self.check(&self.text[..len], scheme_len, Ctx::Bare) {
            Ok(()) => self.report_bare(len, scheme_len, Ctx::Bare),
            Err(f) => {
                if f.tail {
                    let plen = self.trimmed(f.offset, scheme_len);
                    if self
                        .check(&self.text[..plen], scheme_len, Ctx::Bare)
                        .is_ok()
                    {
                        self.report_bare(plen, scheme_len, Ctx::Bare);
                        return;
                    }
                }
                self.reject(span_start..span_end, Ctx::Bare, f);
            }
        }
    }

    fn report_bare(&mut self, len: usize, scheme_len: usize, ctx: Ctx) {
        let start = self.segs[0].0;
        let end = self.input_end(len);
        self.report(len, start..end, ctx, scheme_len);
        self.resume = end;
    }

    /// The length of `text[..len]` with trailing punctuation trimmed
    /// (never into the scheme): `.,;:!?'` always, `)` and `]` when they
    /// have no opening partner inside the URI.
    fn trimmed(&mut self, mut len: usize, scheme_len: usize) -> usize {
        let mut depths_known = false;
        while len > scheme_len + 1 {
            let b = self.text[len - 1];
            if text::is_trim(b) {
                len -= 1;
                continue;
            }
            if b == b')' || b == b']' {
                if !depths_known {
                    self.open_depths(len);
                    depths_known = true;
                }
                if self.depth[len - 1] == 0 {
                    len -= 1;
                    continue;
                }
            }
            break;
        }
        len
    }

    /// For each `)` or `]` in `text[..len]`, how many openers of its kind
    /// before it are still unclosed (pairs matched left to right; a stray
    /// closer matches nothing). Trimming only shortens the text, so one
    /// pass serves every step of it.
    fn open_depths(&mut self, len: usize) {
        self.depth.clear();
        let (mut paren, mut square) = (0u32, 0u32);
        for &x in &self.text[..len] {
            let d = match x {
                b'(' => {
                    paren += 1;
                    0
                }
                b'[' => {
                    square += 1;
                    0
                }
                b')' => {
                    let d = paren;
                    paren = paren.saturating_sub(1);
                    d
                }
                b']' => {
                    let d = square;
                    square = square.saturating_sub(1);
                    d
                }
                _ => 0,
            };
            self.depth.push(d);
        }
    }

    /// After a URI ending at `v[e]`: when only blanks lie between it and
    /// a line break, the start of the next line's text (after a quote
    /// prefix of `depth` and indentation), unless that line is blank,
    /// quoted at another depth, or starts a new URI.
    fn after_break(
        &mut self,
        v: &[u8],
        e: usize,
        depth: usize,
    ) -> Option<usize> {
        let i = text::skip_blanks(v, e);
        self.touch(v, i + 2);
        let mut j = text::line_break_at(v, i)?;
        if depth > 0 {
            let (d, k) = text::quote_prefix(v, j);
            self.touch(v, k + 1);
            if d != depth {
                return None;
            }
            j = k;
        }
        let j = text::skip_blanks(v, j);
        self.touch(v, j + 2);
        if j >= v.len() || text::line_break_at(v, j).is_some() {
            return None;
        }
        if self.starts_uri(v, j) {
            return None;
        }
        Some(j)
    }

    /// Whether `v[j..]` starts with `scheme://` or `URL:`.
    fn starts_uri(&mut self, v: &[u8], j: usize) -> bool {
        self.touch(v, j + 4);
        let (yes, k) = uri_at(v, j);
        self.touch(v, k + 3);
        yes
    }

    /// For `scheme://` ending at `v[e]` at a line end: the next line's
    /// first word when it begins with an authority that can only be a
    /// host.
    fn dangling(
        &mut self,
        v: &[u8],
        e: usize,
        depth: usize,
    ) -> Option<(usize, usize)> {
        let a = self.after_break(v, e, depth)?;
        let cap = (a + self.opts.max_uri_len + 1).min(v.len());
        let b = self.plain_run(v, a, cap);
        let word = &v[a..b];
        let auth_end = word
            .iter()
            .position(|&x| matches!(x, b'/' | b'?' | b'#'))
            .unwrap_or(word.len());
        let auth = &word[..auth_end];
        let slash_follows = word.get(auth_end) == Some(&b'/');
        let hostport = match auth.iter().rposition(|&x| x == b'@') {
            Some(at) if slash_follows => &auth[at + 1..],
            Some(_) => return None,
            None => auth,
        };
        // Trailing punctuation of a sentence is not part of the host.
        let mut hp = hostport;
        if auth_end == word.len() {
            while let Some((&l, rest)) = hp.split_last() {
                if text::is_trim(l) || l == b')' {
                    hp = rest;
                } else {
                    break;
                }
            }
        }
        host_only(hp).then_some((a, b))
    }

    // ----- angle brackets and quotes -----

    /// Tries the delimited context opened at `v[open]` for the scheme at
    /// `v[s..c]`; true when it reported a URI.
    fn delimited(
        &mut self,
        vw: View<'_>,
        open: usize,
        s: usize,
        c: usize,
        ctx: Ctx,
    ) -> bool {
        let v = vw.v;
        let slashes = v[c + 1..].starts_with(b"//");
        self.touch(v, c + 3);
        if !self.accepts(&v[s..c], slashes, ctx) {
            return false;
        }
        let close_byte = if ctx == Ctx::Quoted { b'"' } else { b'>' };
        // The quote depth of the opener's line, needed at a line break.
        let mut depth = None;
        // Up to `bracket_bound` bytes between the opener and the closer.
        let inside = open + 1 + self.opts.bracket_bound;
        let limit = (inside + 1).min(v.len());
        self.start_cand();
        let mut a = s;
        let mut i = s;
        let close = loop {
            i = text::uri_bytes_run(v, i, limit.min(inside));
            if i >= limit {
                self.touch(v, i);
                return false;
            }
            let b = v[i];
            if b == close_byte {
                break i;
            }
            if i >= inside {
                return false;
            }
            if text::is_uri_byte(b) {
                i += 1;
                continue;
            }
            if !text::is_ws(b) {
                return false;
            }
            // A whitespace run: removed when it holds a line break.
            let seg_end = i;
            let mut j = text::skip_blanks(v, i);
            self.touch(v, j + 2);
            let mut broke = false;
            if let Some(k) = text::line_break_at(v, j) {
                broke = true;
                j = k;
                let depth = *depth.get_or_insert_with(|| {
                    text::quote_prefix(v, text::line_start(v, open)).0
                });
                if depth > 0 {
                    let (d, p) = text::quote_prefix(v, j);
                    self.touch(v, p + 1);
                    if d != depth {
                        return false;
                    }
                    j = p;
                }
                j = text::skip_blanks(v, j);
                self.touch(v, j + 2);
                if j >= v.len() || text::line_break_at(v, j).is_some() {
                    return false;
                }
            }
            if j >= limit {
                self.touch(v, j);
                return false;
            }
            if v[j] != close_byte && j >= inside {
                return false;
            }
            if v[j] == close_byte {
                if !broke && ctx == Ctx::Quoted {
                    return false;
                }
                self.push_seg(v, vw.base, a, seg_end);
                a = j;
                break j;
            }
            if !broke || self.starts_uri(v, j) {
                return false;
            }
            self.push_seg(v, vw.base, a, seg_end);
            a = j;
            i = j;
        };
        if a < close {
            self.push_seg(v, vw.base, a, close);
        }
        if self.segs.is_empty() {
            return false;
        }
        let scheme_len = c - s;
        let mut len = self.text.len();
        if ctx == Ctx::Quoted && matches!(self.text.last(), Some(b'.' | b','))
        {
            len -= 1;
        }
        let span = vw.base + open..vw.base + close + 1;
        match self.check(&self.text[..len], scheme_len, ctx) {
            Ok(()) => {
                self.report(len, span, ctx, scheme_len);
                self.resume = vw.base + close + 1;
                true
            }
            Err(f) => {
                self.reject(span, ctx, f);
                false
            }
        }
    }

    // ----- abbreviated URIs -----

    /// `www.` or `ftp.` at `v[w]`.
    fn abbreviated(&mut self, vw: View<'_>, w: usize) {
        let v = vw.v;
        if w < vw.lo {
            return;
        }
        if w > 0 && glued(v[w - 1]) {
            return;
        }
        let prefix: &[u8] = if v[w..w + 3].eq_ignore_ascii_case(b"ftp") {
            b"ftp://"
        } else {
            b"http://"
        };
        self.touch(v, w + 4);
        let cap = (w + self.opts.max_uri_len + 1).min(v.len());
        let e = self.plain_run(v, w, cap);
        if e < v.len()
            && v[e] >= 0x80
            && text::non_ascii(v, e) == NonAscii::Rejects
        {
            return;
        }
        self.start_cand();
        self.segs.push((vw.base + w, vw.base + e));
        self.text.extend_from_slice(prefix);
        let scheme_len = prefix.len() - 3;
        self.text.extend_from_slice(&v[w..e]);
        // Text offsets are shifted by the prefix; map them by hand.
        let shift = prefix.len();
        let mut len = self.trimmed(self.text.len(), scheme_len);
        let mut res = self.check(&self.text[..len], scheme_len, Ctx::Abbrev);
        if let Err(f) = &res {
            if f.tail {
                len = self.trimmed(f.offset, scheme_len);
                res = self.check(&self.text[..len], scheme_len, Ctx::Abbrev);
            }
        }
        // The host must look like one: a name with a dot (Appendix F's
        // `www.w3.org`), not `www.` alone.
        let rest = &self.text[shift..len];
        let auth_end = rest
            .iter()
            .position(|&x| matches!(x, b'/' | b'?' | b'#'))
            .unwrap_or(rest.len());
        if res.is_ok() && len > shift + 4 && host_only(&rest[..auth_end]) {
            let end = vw.base + w + (len - shift);
            let found = Found {
                span: vw.base + w..end,
                uri_span: vw.base + w..end,
                owned: Some(self.text[..len].to_vec()),
                context: Context::Abbreviated,
                alt: None,
            };
            self.queue.push_back(Out::Match(found));
            self.resume = end;
        }
    }
}

/// Whether the opaque part of a `data` URI starts as RFC 2397 says:
/// `[ type "/" subtype ] *( ";" attribute [ "=" value ] ) ","`
/// (`Data::Dumper($a,$b)` does not). Asked in bare and quoted text only:
/// inside angle brackets SPEC.md takes any registered scheme in any form.
fn data_head(after: &[u8]) -> bool {
    let Some(comma) = after.iter().position(|&b| b == b',') else {
        return false;
    };
    let token = |t: &[u8]| {
        !t.is_empty()
            && t.iter().all(|&b| {
                b.is_ascii_alphanumeric() || b"!#$&^_.+-%*'~".contains(&b)
            })
    };
    let mut parts = after[..comma].split(|&b| b == b';');
    let media = parts.next().unwrap_or_default();
    if !media.is_empty() {
        let mut ts = media.splitn(2, |&b| b == b'/');
        let (ty, sub) = (ts.next().unwrap_or_default(), ts.next());
        if !token(ty) || !sub.is_some_and(token) {
            return false;
        }
    }
    parts.all(|p| {
        let mut kv = p.splitn(2, |&b| b == b'=');
        token(kv.next().unwrap_or_default()) && kv.next().is_none_or(token)
    })
}

/// Whether `hp` is `host[:port]` where the host can only be a host: a
/// name with a dot, an IPv4 address or a bracketed IPv6 literal.
fn host_only(hp: &[u8]) -> bool {
    let (host, port) = if hp.first() == Some(&b'[') {
        match hp.iter().position(|&x| x == b']') {
            Some(r) => {
                let inner = &hp[1..r];
                if inner.is_empty()
                    || !inner.iter().all(|&x| {
                        x.is_ascii_hexdigit() || x == b':' || x == b'.'
                    })
                    || !inner.contains(&b':')
                {
                    return false;
                }
                (&hp[..=r], &hp[r + 1..])
            }
            None => return false,
        }
    } else {
        match hp.iter().position(|&x| x == b':') {
            Some(p) => (&hp[..p], &hp[p..]),
            None => (hp, &hp[hp.len()..]),
        }
    };
    let port_ok = port.is_empty()
        || (port[0] == b':' && port[1..].iter().all(u8::is_ascii_digit));
    if !port_ok {
        return false;
    }
    if host.first() == Some(&b'[') {
        return true;
    }
    let name = host.strip_suffix(b".").unwrap_or(host);
    if !name.contains(&b'.') {
        return false;
    }
    // The rightmost label is a top-level domain (two letters or more, as
    // `e.g.` has not) or the last octet of an IPv4 address.
    let labels = name.split(|&x| x == b'.');
    let last = labels.clone().next_back().unwrap_or_default();
    let ipv4 = labels.clone().count() == 4
        && labels
            .clone()
            .all(|l| !l.is_empty() && l.iter().all(u8::is_ascii_digit));
    if !ipv4 && (last.len() < 2 || !last[0].is_ascii_alphabetic()) {
        return false;
    }
    name.split(|&x| x == b'.').all(|l| {
        !l.is_empty()
            && l.len() <= 63
            && l.iter().all(|&x| x.is_ascii_alphanumeric() || x == b'-')
            && l[0] != b'-'
            && l[l.len() - 1] != b'-'
    })
}

/// What a stream saves before a trial decision.
pub(crate) struct Checkpoint {
    resume: usize,
    pos: usize,
    queued: usize,
    abbrev_next: Option<usize>,
    abbrev_clear: usize,
}

impl Engine<'_> {
    pub(crate) fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            resume: self.resume,
            pos: self.pos,
            queued: self.queue.len(),
            abbrev_next: self.abbrev_next,
            abbrev_clear: self.abbrev_clear,
        }
    }

    pub(crate) fn restore(&mut self, c: Checkpoint) {
        self.resume = c.resume;
        self.pos = c.pos;
        self.queue.truncate(c.queued);
        self.abbrev_next = c.abbrev_next;
        self.abbrev_clear = c.abbrev_clear;
    }
}

#[cfg(test)]
mod tests {
    use super::{dense_candidates, host_only, Engine, DENSE_BLOCK};
    use crate::scan::FinderBuilder;

    /// The bulk filter keeps every colon the exact test accepts.
    #[test]
    fn dense_filter_keeps_every_candidate() {
        let opts = FinderBuilder::default();
        let engine = Engine::new(&opts, None);
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
        let mut next = crate::scan::tests_support::splitmix(0x2003);
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
                if buf[8 + k] == b':' && engine.colon_ok(&buf, 0, 8 + k) {
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

    #[test]
    fn hosts() {
        for h in
            ["www.ietf.org", "192.168.1.1", "[::1]", "a.example:8080", "a.bc."]
        {
            assert!(host_only(h.as_bytes()), "{h}");
        }
        for h in [
            "Makes", "and", "format", "", "a..b", "-a.b", "[]", "a.b:x", "e.g",
        ] {
            assert!(!host_only(h.as_bytes()), "{h}");
        }
    }
}
