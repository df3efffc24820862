//! The delimited contexts (docs/CONTRACT.md sections 1.1 and 1.2): angle
//! brackets, with or without `URL:`, and double quotes, as one table of
//! openers and closers ([`DELIMITERS`]). This module finds the opener
//! before a scheme and the closer after it, removes the whitespace runs
//! that hold a line break (through `continuation`), and hands the
//! rejoined text to `candidate` for acceptance.

use crate::scan::candidate::Candidates;
use crate::scan::continuation::{self, Gap};
use crate::scan::engine::View;
use crate::scan::{text, Context};

/// A delimited context: how it opens and closes, and what it asks of
/// the text between.
pub(crate) struct Delimiter {
    /// The context reported.
    pub context: Context,
    /// What opens it, before the scheme (whitespace may hold one line
    /// break where it may stand: see [`back_over_ws`]).
    #[cfg_attr(not(test), allow(dead_code))]
    pub opener: &'static str,
    /// The byte that closes it.
    pub close: u8,
    /// Whitespace right before the closer must hold a line break: a
    /// quote after a blank closes nothing (`"http://a.example/ "` is no
    /// quoted URI).
    pub close_needs_break: bool,
    /// A final `.` or `,` inside the closer is the sentence's, not the
    /// URI's (American punctuation inside quotes).
    pub trims_last: bool,
}

/// Angle brackets (`<` whitespace scheme).
const ANGLE: usize = 0;
/// Angle brackets with `URL:` (`<` whitespace `URL:` whitespace scheme).
const URL_PREFIXED: usize = 1;
/// Double quotes (`"` right before the scheme).
const QUOTED: usize = 2;

/// The delimited contexts.
pub(crate) static DELIMITERS: [Delimiter; 3] = [
    Delimiter {
        context: Context::Angle,
        opener: "<",
        close: b'>',
        close_needs_break: false,
        trims_last: false,
    },
    Delimiter {
        context: Context::UrlPrefixed,
        opener: "<URL:",
        close: b'>',
        close_needs_break: false,
        trims_last: false,
    },
    Delimiter {
        context: Context::Quoted,
        opener: "\"",
        close: b'"',
        close_needs_break: true,
        trims_last: true,
    },
];

/// The context that opens before a scheme at `v[s]` (nothing before
/// `lo` is read), and where its opener is. A `"` right before the
/// scheme opens quotes; otherwise a `<` (and maybe `URL:`) may stand
/// before it, across whitespace.
#[inline]
pub(crate) fn opened(
    v: &[u8],
    s: usize,
    lo: usize,
    bound: usize,
) -> Option<(usize, &'static Delimiter)> {
    if s > lo && v[s - 1] == b'"' {
        return Some((s - 1, &DELIMITERS[QUOTED]));
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
/// `v[s..c]`; true when it reported a URI.
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
    let close_byte = d.close;
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
        if v[j] != close_byte && j >= inside {
            return false;
        }
        if v[j] == close_byte {
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
    let mut len = cands.text().len();
    if d.trims_last && matches!(cands.text().last(), Some(b'.' | b',')) {
        len -= 1;
    }
    let span = vw.base + open..vw.base + close + 1;
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

    /// Each row's opener opens its context, and its closer closes it.
    #[test]
    fn the_table_describes_the_contexts() {
        for d in &DELIMITERS {
            let uri = "http://a.example/x";
            let t = format!("see {}{uri}{} ok", d.opener, d.close as char);
            let v = t.as_bytes();
            let s = 4 + d.opener.len();
            let (open, got) = opened(v, s, 0, 2048).unwrap();
            assert_eq!((open, got.context), (4, d.context), "{t}");
            let m = Finder::new().find_iter(v).next().unwrap();
            assert_eq!(m.context(), d.context, "{t}");
            assert_eq!(m.span(), 4..s + uri.len() + 1, "{t}");
        }
    }
}
