//! The delimited contexts (docs/CONTRACT.md sections 1.1 and 1.2): angle
//! brackets, with or without `URL:`, and double quotes, as one table of
//! openers and closers ([`DELIMITERS`]). This module finds the opener
//! before a scheme and the closer after it, removes the whitespace runs
//! that hold a line break (through `continuation`), and hands the
//! rejoined text to `candidate` for acceptance.

use crate::scan::candidate::Candidates;
use crate::scan::continuation::{self, Gap};
use crate::scan::engine::View;
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
const ANGLE: usize = 0;
/// Angle brackets with `URL:` (`<` whitespace `URL:` whitespace scheme).
const URL_PREFIXED: usize = 1;
/// Double quotes (`"` right before the scheme).
const QUOTED: usize = 2;
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
    let i = back_over_ws(v, s, lo, bound)?;
    if i > lo && v[i - 1] == b'<' {
        return Some((i - 1, &DELIMITERS[ANGLE]));
    }
    if i >= lo + 4 && v[i - 4..i].eq_ignore_ascii_case(b"url:") {
        return angle_before(v, i - 4, lo, bound)
            .map(|o| (o, &DELIMITERS[URL_PREFIXED]));
    }
    None
}

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
    (s - i <= bound).then_some(i)
}

/// Tries the context `d` opened at `v[open]` for the scheme at
/// `v[s..c]`; true when that decided the colon: it reported a URI, or
/// the brackets hold an XML element (see `xml`).
pub(crate) fn scan(
    cands: &mut Candidates<'_>,
    vw: &View<'_>,
    open: usize,
    s: usize,
    c: usize,
    d: &Delimiter,
) -> bool {
    let v = vw.v;
    let slashes = v[c + 1..].starts_with(b"//");
    vw.touch(c + 3);
    if !cands.accepts(&v[s..c], slashes, d.context) {
        return false;
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
    // Up to `bracket_bound` bytes between the opener and the closer.
    let inside = open + 1 + cands.opts().bracket_bound;
    let limit = (inside + 1).min(v.len());
    cands.start();
    let mut a = s;
    let mut i = s;
    let close = loop {
        i = text::uri_bytes_run(v, i, limit.min(inside));
        if i >= limit {
            vw.touch(i);
            return false;
        }
        let b = v[i];
        if closes(i) {
            break i;
        }
        if i >= inside {
            return false;
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
                None => return false,
            }
        }
        if !text::is_ws(b) || !d.rejoins {
            return false;
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
            Gap::End => return false,
        };
        if j >= limit {
            vw.touch(j);
            return false;
        }
        let closed = closes(j);
        if !closed && j >= inside {
            return false;
        }
        if closed {
            if !broke && d.close_needs_break {
                return false;
            }
            cands.push_seg(v, vw.base, a, seg_end);
            a = j;
            break j;
        }
        if !broke || continuation::starts_uri(vw, j) {
            return false;
        }
        cands.push_seg(v, vw.base, a, seg_end);
        a = j;
        i = j;
    };
    if a < close {
        cands.push_seg(v, vw.base, a, close);
    }
    if cands.is_empty() {
        return false;
    }
    let scheme_len = c - s;
    if d.context == Context::Angle && xml::is_element(cands.text(), scheme_len)
    {
        // An XML element: nothing in it is a URI, not even bare.
        return true;
    }
    let mut len = cands.text().len();
    if d.trims_last && matches!(cands.text().last(), Some(b'.' | b',')) {
        len -= 1;
    }
    let span = vw.base + open..vw.base + close + closer.len();
    match cands.check_len(len, scheme_len, d.context) {
        Ok(()) => {
            cands.report_delimited(len, span, d.context, scheme_len);
            true
        }
        Err(f) => {
            cands.reject(span, d.context, f);
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{opened, DELIMITERS};
    use crate::scan::Finder;

    /// Each row's opener opens its context, and its closer closes it;
    /// the paired marks only when IRIs are scanned.
    #[test]
    fn the_table_describes_the_contexts() {
        let iri = Finder::builder().iri(true).build();
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
        let f = Finder::builder().iri(true).build();
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
