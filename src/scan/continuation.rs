//! Continuation over line breaks, for every context: whether the text
//! after a URI's last byte goes on with more of the URI on the next
//! line. One rule serves all of them: only blanks up to a line break,
//! then on the next line a mail quote prefix of the same depth as the
//! URI's first line, indentation, and text that is not blank and does
//! not start a URI of its own (`scheme://` or `URL:`).
//!
//! The contexts differ only in when they ask: inside angle brackets and
//! quotes at every line break (docs/CONTRACT.md sections 1.1 and 1.2),
//! in bare text after a hyphen or a dangling `scheme://` (section 1.3,
//! see `bare`).

use crate::scan::decision::View;
use crate::scan::text;

/// What follows a URI byte across whitespace starting at `v[i]`.
pub(crate) enum Gap {
    /// Blanks and no line break; the index after them.
    Blanks(usize),
    /// A line break and a next line that may continue the URI: where
    /// its text starts (after the quote prefix and indentation). That
    /// text may still start a new URI: see [`starts_uri`].
    Line(usize),
    /// A line break after which nothing continues: a blank line, another
    /// quote depth, or the end of the view.
    End,
}

/// The whitespace at `v[i]`, read as [`Gap`]. `depth` gives the quote
/// depth of the URI's first line; it is asked only after a line break.
#[inline]
pub(crate) fn gap(
    vw: &View<'_>,
    i: usize,
    depth: impl FnOnce() -> usize,
) -> Gap {
    let v = vw.v;
    let mut j = text::skip_blanks(v, i);
    vw.touch(j + 2);
    let Some(k) = text::line_break_at(v, j) else {
        return Gap::Blanks(j);
    };
    j = k;
    let depth = depth();
    if depth > 0 {
        let (d, p) = text::quote_prefix(v, j);
        vw.touch(p + 1);
        if d != depth {
            return Gap::End;
        }
        j = p;
    }
    j = text::skip_blanks(v, j);
    vw.touch(j + 2);
    if j >= v.len() || text::line_break_at(v, j).is_some() {
        return Gap::End;
    }
    Gap::Line(j)
}

/// After a URI ending at `v[e]`: the start of the next line's text when
/// that line continues it (see [`gap`] and [`starts_uri`]), on a first
/// line quoted `depth` deep.
#[inline]
pub(crate) fn next_line(
    vw: &View<'_>,
    e: usize,
    depth: usize,
) -> Option<usize> {
    match gap(vw, e, || depth) {
        Gap::Line(j) if !starts_uri(vw, j) => Some(j),
        _ => None,
    }
}

/// Whether `v[j..]` starts with `scheme://` or `URL:`: a line that does
/// continues no URI from the line before.
#[inline]
pub(crate) fn starts_uri(vw: &View<'_>, j: usize) -> bool {
    vw.touch(j + 4);
    let (yes, k) = uri_at(vw.v, j);
    vw.touch(k + 3);
    yes
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

/// Whether the line at `buf[k..]` surely begins (after any blanks and
/// `>`, a superset of a quote prefix and indentation) with `scheme://` or
/// `URL:`, and so continues no URI from the line before in any context
/// (a line that starts otherwise after a `>` or a quote prefix of
/// another depth continues nothing either). False when unsure: the
/// trigger search uses it to turn colons away early.
#[inline(always)]
pub(crate) fn line_starts_uri(buf: &[u8], k: usize) -> bool {
    let mut j = k;
    while j < buf.len() && matches!(buf[j], b' ' | b'\t' | b'>' | 0x0b | 0x0c)
    {
        j += 1;
    }
    uri_at(buf, j).0
}

/// For `scheme://` ending at `v[e]` at a line end: the next line's
/// first word when it begins with an authority that can only be a
/// host (at most `max` bytes of it are read).
pub(crate) fn dangling(
    vw: &View<'_>,
    e: usize,
    depth: usize,
    max: usize,
) -> Option<(usize, usize)> {
    let v = vw.v;
    let a = next_line(vw, e, depth)?;
    let cap = (a + max + 1).min(v.len());
    let b = vw.run(a, cap);
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
    text::host_only(hp).then_some((a, b))
}
