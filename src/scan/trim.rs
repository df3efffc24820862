//! What is trimmed from the end of a bare URI (docs/CONTRACT.md section
//! 1.3): sentence punctuation (`.` `,` `;` `:` `!` `?` and an opening
//! `(`), again and again; apostrophes, by what comes before the scheme
//! and how many the URI holds; and emphasis markup, the mirror image of a
//! run of `*`, `_` or `~` that stands right before the scheme at the
//! start of a word (`*http://a.example/x*.`). The rules take turns
//! until none applies.
//!
//! [`Marks`] reads what stands before the scheme; `candidate` trims a
//! candidate's text with it.

use unicode_general_category::{get_general_category, GeneralCategory as G};

use crate::scan::decision::View;
use crate::scan::text;

/// Emphasis markup: `*`, `_`, `~`.
#[inline]
fn is_mark(b: u8) -> bool {
    matches!(b, b'*' | b'_' | b'~')
}

/// What stands before a bare URI's scheme, as the trimming rules see it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Marks {
    /// The run of emphasis markup right before the scheme, reversed (as
    /// it closes), when that run starts a word; else empty.
    pub(crate) closing: Vec<u8>,
    /// A `'` or a backquote before the scheme (past any markup): the URI
    /// was quoted, and a trailing `'` closes the quote.
    pub(crate) quoted: bool,
}

impl Marks {
    /// What stands before the scheme at `v[s]` (bytes before the view
    /// count as unknown: no word starts there, no quote).
    #[inline]
    pub(crate) fn before(vw: &View<'_>, s: usize) -> Marks {
        let v = vw.v;
        if s == 0 || !matches!(v[s - 1], b'*' | b'_' | b'~' | b'\'' | b'`') {
            return Marks::default();
        }
        let mut j = s;
        while j > 0 && is_mark(v[j - 1]) {
            j -= 1;
        }
        let quoted = j > 0 && matches!(v[j - 1], b'\'' | b'`');
        let closing = if j < s && starts_word(v, j, vw.base == 0) {
            v[j..s].iter().rev().copied().collect()
        } else {
            Vec::new()
        };
        Marks { closing, quoted }
    }
}

/// Whether a word starts at `v[j]`: at the start of a line, or after
/// whitespace (a space character, outside ASCII too), an opening bracket
/// or a quote. `start`: `v` starts the input.
fn starts_word(v: &[u8], j: usize, start: bool) -> bool {
    if j == 0 {
        return start;
    }
    let b = v[j - 1];
    if b < 0x80 {
        return text::is_ws(b)
            || matches!(b, b'(' | b'[' | b'{' | b'<' | b'"' | b'\'' | b'`');
    }
    let (ch, _) = bstr::decode_last_utf8(&v[..j]);
    ch.is_some_and(|c| {
        matches!(
            get_general_category(c),
            G::OpenPunctuation
                | G::InitialPunctuation
                | G::FinalPunctuation
                | G::SpaceSeparator
        )
    })
}

/// The length of `t[..len]` once its end is trimmed as the module says,
/// never into its first `keep` bytes (the scheme and its colon).
#[inline(always)]
pub(crate) fn trimmed(t: &[u8], len: usize, keep: usize, m: &Marks) -> usize {
    // Most URIs end in a byte that nothing trims.
    if len > keep
        && m.closing.is_empty()
        && t[len - 1] != b'\''
        && !text::is_trim(t[len - 1])
    {
        return len;
    }
    trim_end(t, len, keep, m)
}

/// [`trimmed`] past its quick look.
fn trim_end(t: &[u8], mut len: usize, keep: usize, m: &Marks) -> usize {
    let mut quotes = None;
    let mut emphasis = !m.closing.is_empty();
    while len > keep {
        let b = t[len - 1];
        if b == b'\'' {
            // Trimmed when the URI was quoted, else while the URI holds
            // an odd number of them (`a'b'` and `x''` pair up).
            let n = quotes.get_or_insert_with(|| {
                t[..len].iter().filter(|&&x| x == b'\'').count()
            });
            if m.quoted || *n % 2 == 1 {
                *n -= 1;
                len -= 1;
                continue;
            }
        } else if text::is_trim(b) {
            len -= 1;
            continue;
        }
        if emphasis
            && len >= keep + m.closing.len()
            && t[..len].ends_with(&m.closing)
        {
            emphasis = false;
            len -= m.closing.len();
            continue;
        }
        break;
    }
    len
}

#[cfg(test)]
mod tests {
    use super::{trimmed, Marks};

    fn trim<'a>(t: &'a str, closing: &str, quoted: bool) -> &'a str {
        let m = Marks { closing: closing.bytes().rev().collect(), quoted };
        &t[..trimmed(t.as_bytes(), t.len(), 5, &m)]
    }

    #[test]
    fn punctuation_and_paren() {
        assert_eq!(trim("http:x/a.,;:!?", "", false), "http:x/a");
        assert_eq!(trim("http:x/a((.", "", false), "http:x/a");
        assert_eq!(trim("http:...", "", false), "http:");
    }

    #[test]
    fn apostrophes() {
        assert_eq!(trim("http:x/a'b'", "", false), "http:x/a'b'");
        assert_eq!(trim("http:x/''", "", false), "http:x/''");
        assert_eq!(trim("http:x/'''", "", false), "http:x/''");
        assert_eq!(trim("http:x/x'.", "", false), "http:x/x");
        assert_eq!(trim("http:x/it's'", "", true), "http:x/it's");
        assert_eq!(trim("http:x/x''", "", true), "http:x/x");
    }

    #[test]
    fn emphasis_in_pairs() {
        assert_eq!(trim("http:x/x*.", "*", false), "http:x/x");
        assert_eq!(trim("http:x/x**", "**", false), "http:x/x");
        assert_eq!(trim("http:x/x*_", "_*", false), "http:x/x");
        // Once only, and only the whole run.
        assert_eq!(trim("http:x/x**", "*", false), "http:x/x*");
        assert_eq!(trim("http:x/x*", "**", false), "http:x/x*");
        assert_eq!(trim("http:x/x_", "", false), "http:x/x_");
        // Taking turns with punctuation and quotes.
        assert_eq!(trim("http:x/x.*'", "*", true), "http:x/x");
        assert_eq!(trim("http:x/x_).", "_", false), "http:x/x_)");
    }
}
