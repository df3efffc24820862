//! The delimited contexts (docs/CONTRACT.md sections 1.1 and 1.2): angle
//! brackets, with or without `URL:`, and double quotes, as one table of
//! openers and closers ([`DELIMITERS`]). This module finds the opener
//! before a scheme and the closer after it, removes the whitespace runs
//! that hold a line break (through `continuation`), and hands the
//! rejoined text to `candidate` for acceptance.

use crate::scan::candidate::Candidate;
use crate::scan::continuation::{self, Gap};
use crate::scan::decision::{Verdict, View};
use crate::scan::judge::Judge;
use crate::scan::{iri, text, xml, Context};

/// A delimited context: how it opens and closes, and what it asks of
/// the text between.
pub(crate) struct Delimiter {
    /// The context reported.
    pub context: Context,
    /// What opens it, before the scheme (whitespace may hold one line
    /// break where it may stand: see [`back_over_ws`]).
    pub opener: &'static str,
    /// What closes it.
    pub close: &'static str,
    /// Whitespace runs that hold a line break are removed (Appendix E's
    /// rejoining); without, any whitespace means no delimited URI.
    pub rejoins: bool,
    /// Whitespace right before the closer must hold a line break: a
    /// quote after a blank closes nothing (`"http://a.example/ "` is no
    /// quoted URI).
    pub close_needs_break: bool,
    /// A final `.` or `,` inside the closer is the sentence's, not the
    /// URI's (American punctuation inside quotes).
    pub trims_last: bool,
    /// Only when IRIs are scanned ([`crate::FinderBuilder::iri`]).
    pub iri_only: bool,
}

/// Angle brackets (`<` whitespace scheme).
pub(crate) const ANGLE: usize = 0;
/// Angle brackets with `URL:` (`<` whitespace `URL:` whitespace scheme).
const URL_PREFIXED: usize = 1;
/// Double quotes (`"` right before the scheme).
pub(crate) const QUOTED: usize = 2;
/// A row for a pair of CJK or typographic marks.
const fn paired(opener: &'static str, close: &'static str) -> Delimiter {
    Delimiter {
        context: Context::Paired,
        opener,
        close,
        rejoins: false,
        close_needs_break: false,
        trims_last: false,
        iri_only: true,
    }
}

/// A row for a pair of typographic quotes: a final `.` or `,` inside is
/// the sentence's, as inside `"..."`.
const fn quotes(opener: &'static str, close: &'static str) -> Delimiter {
    Delimiter { trims_last: true, ..paired(opener, close) }
}

/// The delimited contexts.
pub(crate) static DELIMITERS: [Delimiter; 12] = [
    Delimiter {
        context: Context::Angle,
        opener: "<",
        close: ">",
        rejoins: true,
        close_needs_break: false,
        trims_last: false,
        iri_only: false,
    },
    Delimiter {
        context: Context::UrlPrefixed,
        opener: "<URL:",
        close: ">",
        rejoins: true,
        close_needs_break: false,
        trims_last: false,
        iri_only: false,
    },
    Delimiter {
        context: Context::Quoted,
        opener: "\"",
        close: "\"",
        rejoins: true,
        close_needs_break: true,
        trims_last: true,
        iri_only: false,
    },
    paired("\u{300c}", "\u{300d}"), // corner brackets
    paired("\u{300e}", "\u{300f}"), // white corner brackets
    paired("\u{3010}", "\u{3011}"), // lenticular brackets
    paired("\u{3008}", "\u{3009}"), // CJK angle brackets
    paired("\u{300a}", "\u{300b}"), // double angle brackets
    paired("\u{ff08}", "\u{ff09}"), // full-width parentheses
    quotes("\u{201c}", "\u{201d}"), // curly double quotes
    quotes("\u{2018}", "\u{2019}"), // curly single quotes
    quotes("\u{00ab}", "\u{00bb}"), // guillemets
];

/// The context that opens before a scheme at `v[s]` (nothing before
/// `lo` is read), and where its opener is. A `"` right before the
/// scheme opens quotes (with `iri`, so does a paired mark); otherwise a
/// `<` (and maybe `URL:`) may stand before it, across whitespace.
#[inline]
pub(crate) fn opened(
    v: &[u8],
    s: usize,
    lo: usize,
    bound: usize,
    iri: bool,
) -> Option<(usize, &'static Delimiter)> {
    if s > lo && v[s - 1] == b'"' {
        return Some((s - 1, &DELIMITERS[QUOTED]));
    }
    if iri && s > lo && v[s - 1] >= 0x80 {
        // The paired marks are non-ASCII, right before the scheme.
        return DELIMITERS.iter().filter(|d| d.iri_only).find_map(|d| {
            let o = d.opener.len();
            (s >= lo + o && v[..s].ends_with(d.opener.as_bytes()))
                .then(|| (s - o, d))
        });
    }
    // Most schemes in text follow a word and a blank: nothing opens.
    let i = blanks_before(v, s, lo);
    if i == lo || !ENDS_OPENER[usize::from(v[i - 1])] {
        return None;
    }
    // (A `<` on the scheme's line: no line break or quote prefix to
    // step over.)
    if v[i - 1] == b'<' {
        return (s - i <= bound).then(|| (i - 1, &DELIMITERS[ANGLE]));
    }
    let i = back_over_ws_from(v, s, i, lo, bound)?;
    if i > lo && v[i - 1] == b'<' {
        return Some((i - 1, &DELIMITERS[ANGLE]));
    }
    if i >= lo + 4 && v[i - 4..i].eq_ignore_ascii_case(b"url:") {
        return angle_before(v, i - 4, lo, bound)
            .map(|o| (o, &DELIMITERS[URL_PREFIXED]));
    }
    None
}

/// The blanks [`back_over_ws`] steps over on a line.
#[inline(always)]
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | 0x0b | 0x0c | b'\r')
}

/// The bytes that may stand before the blanks before a scheme that a
/// context opens (`opened` reads further only after one of them): the
/// last byte of an opener that whitespace may follow (`<`, the `:` of
/// `URL:`), the `>` of a mail quote prefix and a line break.
static ENDS_OPENER: [bool; 256] = {
    let mut t = [false; 256];
    t[b'<' as usize] = true;
    t[b':' as usize] = true;
    t[b'>' as usize] = true;
    t[b'\n' as usize] = true;
    t
};

/// Whether a `<` (after optional whitespace) stands right before
/// `v[s]`; returns its index.
pub(crate) fn angle_before(
    v: &[u8],
    s: usize,
    lo: usize,
    bound: usize,
) -> Option<usize> {
    let i = back_over_ws(v, s, lo, bound)?;
    (i > lo && v[i - 1] == b'<').then(|| i - 1)
}

/// Steps back from `v[s]` over whitespace that may hold one line
/// break, and after that break a mail quote prefix of the same depth as
/// the line before it (`> > <URL:\n> >   http://...`); returns where the
/// whitespace starts, at most `bound` bytes back.
fn back_over_ws(v: &[u8], s: usize, lo: usize, bound: usize) -> Option<usize> {
    back_over_ws_from(v, s, blanks_before(v, s, lo), lo, bound)
}

/// Where the blanks right before `v[s]` start (not before `lo`).
#[inline(always)]
fn blanks_before(v: &[u8], s: usize, lo: usize) -> usize {
    s - v[lo.min(s)..s].iter().rev().take_while(|&&b| is_blank(b)).count()
}

/// [`back_over_ws`] with the blanks right before `v[s]` already stepped
/// over, to `v[i]`.
fn back_over_ws_from(
    v: &[u8],
    s: usize,
    mut i: usize,
    lo: usize,
    bound: usize,
) -> Option<usize> {
    let blank = is_blank;
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
    (s - i <= bound).then_some(i)
}

/// Where the next closer of each kind lies, as far as the input has
/// been searched: a context whose closer is nowhere within the bracket
/// bound is turned away at once, without reading the text between
/// (`<http://a.example/\n  x` repeated, where no `>` ever comes, would
/// otherwise be read to its line break and beyond for every `<`).
///
/// The openers the engine asks about only move forward (an opener lies
/// after the colon of every earlier scheme), so each byte is searched
/// once per closer: linear time. What is known holds for the input, not
/// a window of it, so a stream that undoes a decision keeps it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Closers {
    /// For `>` and `"`: no such byte in `[from, to)` (absolute offsets),
    /// and when `found`, one at `to`.
    known: [Known; 2],
}

#[derive(Clone, Copy, Debug, Default)]
struct Known {
    from: usize,
    to: usize,
    found: bool,
}

impl Closers {
    /// [`Closers::may_close`] when what is known answers it without a
    /// search; `None` when a search is needed.
    #[inline(always)]
    pub(crate) fn known(
        &self,
        vw: &View<'_>,
        close: u8,
        a: usize,
        b: usize,
    ) -> Option<bool> {
        let slot = match close {
            b'>' => 0,
            b'"' => 1,
            _ => return Some(true),
        };
        if b >= vw.v.len() {
            return Some(true);
        }
        let k = &self.known[slot];
        let (aa, bb) = (vw.base + a, vw.base + b);
        if aa < k.from || aa > k.to || !(k.found || k.to > bb) {
            return None;
        }
        Some(k.found && k.to <= bb)
    }

    /// Whether a closer that starts with the byte `close` may start in
    /// `v[a..=b]`: false only when none does and the whole range is in
    /// the view. (Only `>` and `"` are remembered: other closers may
    /// always come.)
    #[inline(always)]
    pub(crate) fn may_close(
        &mut self,
        vw: &View<'_>,
        close: u8,
        a: usize,
        b: usize,
    ) -> bool {
        let slot = match close {
            b'>' => 0,
            b'"' => 1,
            _ => return true,
        };
        if b >= vw.v.len() {
            return true;
        }
        let k = &mut self.known[slot];
        let (aa, bb) = (vw.base + a, vw.base + b);
        if aa < k.from || aa > k.to {
            *k = Known { from: aa, to: aa, found: false };
        }
        if !k.found && k.to <= bb {
            k.search(vw, close);
        }
        k.found && k.to <= bb
    }
}

impl Known {
    /// Searches the view from `to` for the next `close`.
    #[inline(never)]
    fn search(&mut self, vw: &View<'_>, close: u8) {
        let from = self.to - vw.base;
        match memchr::memchr(close, &vw.v[from..]) {
            Some(i) => {
                self.to = vw.base + from + i;
                self.found = true;
            }
            None => self.to = vw.base + vw.v.len(),
        }
    }
}

/// Tries the context `d` opened at `v[open]` for the scheme at
/// `v[s..c]`: a match, a rejection (the colon may still start a bare
/// URI), [`Verdict::Nothing`] when the brackets hold an XML element (see
/// `xml`), or [`Verdict::Pass`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn scan(
    cand: &mut Candidate,
    judge: &Judge<'_>,
    closers: &mut Closers,
    vw: &View<'_>,
    open: usize,
    s: usize,
    c: usize,
    d: &Delimiter,
) -> Verdict {
    let v = vw.v;
    // Up to `bracket_bound` bytes between the opener and the closer: the
    // closer starts at `inside` at the latest (a scan that finds none
    // there reports nothing, whatever comes after).
    let inside = open + 1 + judge.opts().bracket_bound;
    if judge.opts().prefilter
        && !closers.may_close(vw, d.close.as_bytes()[0], open + 1, inside)
    {
        return Verdict::Pass;
    }
    let slashes = v[c + 1..].starts_with(b"//");
    vw.touch(c + 3);
    if !judge.accepts(&v[s..c], slashes, d.context) {
        return Verdict::Pass;
    }
    let closer = d.close.as_bytes();
    let closes = |j: usize| {
        v[j] == closer[0] && {
            vw.touch(j + closer.len() - 1);
            v[j..].starts_with(closer)
        }
    };
    // The quote depth of the opener's line, needed at a line break.
    let mut depth = None;
    let limit = (inside + 1).min(v.len());
    cand.start();
    let mut a = s;
    // (`scheme:` is made of URI bytes.)
    let mut i = (c + 1).min(limit.min(inside));
    let close = loop {
        i = text::uri_bytes_run(v, i, limit.min(inside));
        if i >= limit {
            vw.touch(i);
            return Verdict::Pass;
        }
        let b = v[i];
        if closes(i) {
            break i;
        }
        if i >= inside {
            return Verdict::Pass;
        }
        if text::is_uri_byte(b) {
            i += 1;
            continue;
        }
        if vw.iri && b >= 0x80 {
            // Every character RFC 3987 allows belongs to an IRI here.
            vw.touch(i + 3);
            match iri::allowed_at(v, i) {
                Some(n) => {
                    i += n;
                    continue;
                }
                None => return Verdict::Pass,
            }
        }
        if !text::is_ws(b) || !d.rejoins {
            return Verdict::Pass;
        }
        // A whitespace run: removed when it holds a line break.
        let seg_end = i;
        let first_line = || {
            *depth.get_or_insert_with(|| {
                text::quote_prefix(v, text::line_start(v, open)).0
            })
        };
        let (j, broke) = match continuation::gap(vw, i, first_line) {
            Gap::Blanks(j) => (j, false),
            Gap::Line(j) => (j, true),
            Gap::End => return Verdict::Pass,
        };
        if j >= limit {
            vw.touch(j);
            return Verdict::Pass;
        }
        let closed = closes(j);
        if !closed && j >= inside {
            return Verdict::Pass;
        }
        if closed {
            if !broke && d.close_needs_break {
                return Verdict::Pass;
            }
            cand.push_seg(v, vw.base, a, seg_end);
            a = j;
            break j;
        }
        if !broke || continuation::starts_uri(vw, j) {
            return Verdict::Pass;
        }
        cand.push_seg(v, vw.base, a, seg_end);
        a = j;
        i = j;
    };
    if a < close {
        cand.push_seg(v, vw.base, a, close);
    }
    if cand.is_empty() {
        return Verdict::Pass;
    }
    let scheme_len = c - s;
    if d.context == Context::Angle
        && xml::is_element(cand.text(vw), scheme_len)
    {
        // An XML element: nothing in it is a URI, not even bare.
        return Verdict::Nothing;
    }
    let mut len = cand.text(vw).len();
    if d.trims_last && matches!(cand.text(vw).last(), Some(b'.' | b',')) {
        len -= 1;
    }
    let span = vw.base + open..vw.base + close + closer.len();
    match judge.check(&cand.text(vw)[..len], scheme_len, d.context) {
        Ok(()) => Verdict::Match(
            cand.found(judge, vw, len, span, d.context, scheme_len),
        ),
        Err(f) => cand.rejected(judge, vw, span, d.context, f),
    }
}

#[cfg(test)]
mod tests {
    use super::{opened, DELIMITERS};
    use crate::scan::{Finder, Item};

    /// Turning away a context whose closer is beyond the bracket bound
    /// changes no item: closers just inside and just outside the bound,
    /// none at all, several openers sharing one closer.
    #[test]
    fn closer_look_ahead_changes_no_item() {
        let mut texts: Vec<String> = Vec::new();
        for gap in 0..40 {
            let pad = "x".repeat(gap);
            for (open, close) in [("<", ">"), ("<URL:", ">"), ("\"", "\"")] {
                texts.push(format!(
                    "{open}http://a.example/{pad}{close} {open}http://b.example/\n  {pad}{close}"
                ));
                texts.push(format!(
                    "{open}http://a.example/\n  x{open}http://b.example/{pad} {close}{pad}"
                ));
            }
        }
        texts.push("<http://a.example/\n  x".repeat(50));
        texts.push("\"http://a.example/\n  x\"".repeat(50));
        for (open, close) in
            [("\u{300c}", "\u{300d}"), ("\u{201c}", "\u{201d}")]
        {
            texts.push(format!("{open}http://a.example/x{close}").repeat(9));
            texts.push(format!("{open}http://a.example/x {open}").repeat(9));
        }
        for (bound, iri) in [0, 5, 17, 20, 24, 33, 2048]
            .into_iter()
            .flat_map(|b| [(b, false), (b, true)])
        {
            let mut b = Finder::builder();
            b.bracket_bound(bound).rejected(true).iri(iri);
            let on = b.build().unwrap();
            let off = b.prefilter(false).build().unwrap();
            for t in &texts {
                let x: Vec<Item<'_>> = on.items(t.as_bytes()).collect();
                let y: Vec<Item<'_>> = off.items(t.as_bytes()).collect();
                assert_eq!(x, y, "bound {bound}: {t:?}");
            }
        }
    }

    /// The quick test before the walk back over whitespace knows how
    /// every opener that whitespace may follow ends (the paired marks
    /// stand right before the scheme, and are read before it).
    #[test]
    fn every_opener_ends_in_a_known_byte() {
        for d in DELIMITERS.iter().filter(|d| !d.iri_only) {
            let last = *d.opener.as_bytes().last().unwrap();
            assert!(
                last == b'"' || super::ENDS_OPENER[usize::from(last)],
                "{}",
                d.opener
            );
        }
    }

    /// Each row's opener opens its context, and its closer closes it;
    /// the paired marks only when IRIs are scanned.
    #[test]
    fn the_table_describes_the_contexts() {
        let iri = Finder::builder().iri(true).build().unwrap();
        for d in &DELIMITERS {
            let uri = "http://a.example/x";
            let t = format!("see {}{uri}{} ok", d.opener, d.close);
            let v = t.as_bytes();
            let s = 4 + d.opener.len();
            let (open, got) = opened(v, s, 0, 2048, true).unwrap();
            assert_eq!((open, got.context), (4, d.context), "{t}");
            let m = iri.find_iter(v).next().unwrap();
            assert_eq!(m.context(), d.context, "{t}");
            assert_eq!(m.span(), 4..s + uri.len() + d.close.len(), "{t}");
            let m = Finder::new().find_iter(v).next().unwrap();
            if d.iri_only {
                assert_eq!(opened(v, s, 0, 2048, false).map(|o| o.0), None);
                assert_eq!(m.context(), crate::Context::Bare, "{t}");
            } else {
                assert_eq!(m.context(), d.context, "{t}");
            }
        }
    }

    /// Inside the paired marks: any character RFC 3987 allows, no
    /// whitespace, and a final `.` or `,` trimmed inside quotes only.
    #[test]
    fn paired_marks() {
        let f = Finder::builder().iri(true).build().unwrap();
        let uris = |t: &str| -> Vec<String> {
            f.find_iter(t.as_bytes())
                .map(|m| String::from_utf8(m.uri().to_vec()).unwrap())
                .collect()
        };
        assert_eq!(
            uris("「http://ja.example.org/索引」"),
            ["http://ja.example.org/索引"]
        );
        assert_eq!(uris("“http://a.example/ü.”"), ["http://a.example/ü"]);
        assert_eq!(uris("（http://a.example/x.）"), ["http://a.example/x."]);
        // a space: the marks delimit nothing; bare text then stops at 索
        assert_eq!(uris("「http://a.example/索 引」"), ["http://a.example/"]);
        // no line breaks rejoined
        assert_eq!(uris("《http://a.example/\n目录》"), ["http://a.example/"]);
        // an opener glued to a word still opens
        assert_eq!(
            uris("見て『http://a.example/頁』"),
            ["http://a.example/頁"]
        );
        // the scheme must follow the opener directly
        assert_eq!(uris("「 http://a.example/頁」"), ["http://a.example/"]);
    }
}
