//! Where a scheme starts (docs/CONTRACT.md section 1.3): the run of
//! scheme characters that ends at a colon, and in bare text the part of
//! it a reader takes for the scheme. Leading `+`, `-` and `.` are not
//! part of it (the marks of a patch's lines); what is left must start
//! with a letter; and when the run is not a registered scheme but its
//! part after the last `.` (a missing space after a full stop), or after
//! a quoted-printable `=XX` escape, is one, that part is the scheme.
//!
//! The engine and the trigger search's per-colon filter both ask here,
//! so the filter stays a superset of what the engine accepts.

use crate::grammar::schemes;
use crate::scan::text;

/// The start of the run of scheme characters that ends at the colon
/// `v[c]`, not before `lo`.
#[cfg(test)]
pub(crate) fn run_start(v: &[u8], lo: usize, c: usize) -> usize {
    run(v, lo, c).0
}

/// [`bare_start_of`] for the run `v[r..c]`.
#[cfg(test)]
pub(crate) fn bare_start(v: &[u8], r: usize, c: usize) -> Option<usize> {
    bare_start_of(v, r, c, v[r..c].contains(&b'.'))
}

/// The start of the run of scheme characters that ends at the colon
/// `v[c]`, not before `lo`, and whether the run holds a `.` (for
/// [`bare_start_of`]), in one walk.
#[inline]
pub(crate) fn run(v: &[u8], lo: usize, c: usize) -> (usize, bool) {
    let (mut r, mut dot) = (c, false);
    for &b in v[lo.min(c)..c].iter().rev() {
        if !text::is_scheme_byte(b) {
            break;
        }
        dot |= b == b'.';
        r -= 1;
    }
    (r, dot)
}

/// The run `v[r..c]` without its leading `+`, `-` and `.`: where it
/// starts.
#[inline]
fn stripped(v: &[u8], r: usize, c: usize) -> usize {
    let mut s = r;
    while s < c && matches!(v[s], b'+' | b'-' | b'.') {
        s += 1;
    }
    s
}

/// An uppercase hexadecimal digit, as quoted-printable writes them.
#[inline]
fn upper_hex(b: u8) -> bool {
    b.is_ascii_digit() || (b'A'..=b'F').contains(&b)
}

/// Where the part after a quoted-printable escape starts in the run
/// `v[s..c]` (`=3Dhttps`: the `=` before the run, two uppercase hex
/// digits), when there is such a part.
#[inline]
fn after_escape(v: &[u8], r: usize, s: usize, c: usize) -> Option<usize> {
    (s == r
        && r > 0
        && v[r - 1] == b'='
        && c - s > 2
        && upper_hex(v[s])
        && upper_hex(v[s + 1]))
    .then_some(s + 2)
}

/// Where the part after the last `.` of the run `v[s..c]` starts, when
/// the run holds a `.`.
#[inline]
fn after_dot(v: &[u8], s: usize, c: usize) -> Option<usize> {
    // (Scheme runs are short: a plain loop beats a call to memrchr.)
    v[s..c].iter().rposition(|&b| b == b'.').map(|d| s + d + 1)
}

/// In bare text, where the scheme of the run `v[r..c]` (see
/// [`run`]) starts, or `None` when the run holds no scheme (it
/// starts with a digit: `9p://`, `3com:`).
///
/// # Example (crate-internal)
///
/// `sentence.http` gives the start of `http`; `svn+ssh` stays whole;
/// `=3Dhttps` (after a `=`) gives `https`; `+https` gives `https`.
///
/// `dot` says whether the run holds a `.` (see [`run`]).
#[inline]
pub(crate) fn bare_start_of(
    v: &[u8],
    r: usize,
    c: usize,
    dot: bool,
) -> Option<usize> {
    // Most runs start with a letter, hold no dot and follow no `=`: the
    // whole run is the scheme.
    if !dot && v[r].is_ascii_alphabetic() && (r == 0 || v[r - 1] != b'=') {
        return Some(r);
    }
    let s = stripped(v, r, c);
    if s == c {
        return None;
    }
    // Most runs are a plain scheme: no dot, no `=` before. Only a run
    // that may hold a registered part is looked up.
    let tails =
        after_dot(v, s, c).is_some() || after_escape(v, r, s, c).is_some();
    if tails && !schemes::is_registered(&v[s..c]) {
        let tail = after_dot(v, s, c)
            .into_iter()
            .chain(after_escape(v, r, s, c))
            .find(|&t| schemes::is_registered(&v[t..c]));
        if tail.is_some() {
            return tail;
        }
    }
    v[s].is_ascii_alphabetic().then_some(s)
}

/// Whether the bare scheme of the run `v[r..c]` may be one written
/// without `//` in prose ([`schemes::is_prose_opaque`]): a superset of
/// `bare_start` followed by that test, which never looks the run up in
/// the registry (the trigger search asks it of many colons).
#[inline(always)]
pub(crate) fn may_be_prose_opaque(v: &[u8], r: usize, c: usize) -> bool {
    // The run from its first letter: most runs, and a superset of the
    // run without its leading marks.
    let mut s = r;
    while s < c && !v[s].is_ascii_alphabetic() {
        s += 1;
    }
    if schemes::is_prose_opaque(&v[s..c]) {
        return true;
    }
    // The part after the run's last dot: those names are letters only,
    // at least `MIN` of them.
    let (min, max) =
        (schemes::PROSE_OPAQUE_MIN_LEN, schemes::PROSE_OPAQUE_MAX_LEN);
    if c - r > min && v[c - min..c].iter().all(u8::is_ascii_alphabetic) {
        let mut n = min;
        while n <= max && c - n > r && v[c - n - 1].is_ascii_alphabetic() {
            n += 1;
        }
        if n <= max && c - n > r && v[c - n - 1] == b'.' {
            return schemes::is_prose_opaque(&v[c - n..c]);
        }
    }
    after_escape(v, r, r, c)
        .is_some_and(|t| schemes::is_prose_opaque(&v[t..c]))
}

#[cfg(test)]
mod tests {
    use super::{bare_start, may_be_prose_opaque, run_start};

    /// The bare scheme in `t`, which holds one colon.
    fn scheme(t: &str) -> Option<&str> {
        let v = t.as_bytes();
        let c = t.find(':').unwrap();
        let r = run_start(v, 0, c);
        bare_start(v, r, c).map(|s| &t[s..c])
    }

    #[test]
    fn leading_marks_are_dropped() {
        assert_eq!(scheme("+https://a"), Some("https"));
        assert_eq!(scheme("-http://a"), Some("http"));
        assert_eq!(scheme(" .https://a"), Some("https"));
        assert_eq!(scheme("+-.ftp://a"), Some("ftp"));
        assert_eq!(scheme("+++://a"), None);
    }

    #[test]
    fn a_scheme_starts_with_a_letter() {
        assert_eq!(scheme("9p://fs/"), None);
        assert_eq!(scheme("see 3com:x"), None);
        assert_eq!(scheme("+9p://fs/"), None);
        assert_eq!(scheme("x9p://fs/"), Some("x9p"));
    }

    #[test]
    fn the_part_after_the_last_dot() {
        assert_eq!(scheme("sentence.http://e"), Some("http"));
        assert_eq!(scheme("FAQ.HTTP://e"), Some("HTTP"));
        assert_eq!(scheme("a.b.https://e"), Some("https"));
        assert_eq!(scheme("3.http://e"), Some("http"));
        // Registered as a whole, or no registered tail: the whole run.
        assert_eq!(scheme("iris.beep://e"), Some("iris.beep"));
        assert_eq!(scheme("a.b.foo://e"), Some("a.b.foo"));
        // No dot: compound schemes stay whole.
        assert_eq!(scheme("svn+ssh://e"), Some("svn+ssh"));
        assert_eq!(scheme("git+https://e"), Some("git+https"));
    }

    #[test]
    fn the_part_after_a_quoted_printable_escape() {
        assert_eq!(scheme("=3Dhttps://e"), Some("https"));
        assert_eq!(scheme("or=A0https://e"), Some("https"));
        assert_eq!(scheme("=20http://e"), Some("http"));
        // Lower case is no escape; an unregistered rest stays whole.
        assert_eq!(scheme("url=abc://h/"), Some("abc"));
        assert_eq!(scheme("x=3dhttp://e"), None);
        assert_eq!(scheme("=ABfoo://e"), Some("ABfoo"));
        // Without the `=` the digits are just a run that starts badly.
        assert_eq!(scheme("3Dhttps://e"), None);
    }

    #[test]
    fn the_filter_is_a_superset() {
        use crate::grammar::schemes::is_prose_opaque;
        // Every run whose bare scheme is prose-opaque passes the filter.
        let pieces: &[&str] = &[
            "mailto", "news", "geo", "sms", "x", "a", ".", "+", "-", "=",
            "3D", "A0", "9", "D", "ail", "to", "e.g.",
        ];
        let mut next = crate::scan::tests::support::splitmix(0x5c4e);
        let mut opaque = 0;
        for _ in 0..200_000 {
            let mut t = String::new();
            for _ in 0..1 + next() % 5 {
                t.push_str(pieces[(next() % pieces.len() as u64) as usize]);
            }
            t.push(':');
            let v = t.as_bytes();
            let c = t.len() - 1;
            let r = run_start(v, 0, c);
            let found =
                bare_start(v, r, c).is_some_and(|s| is_prose_opaque(&v[s..c]));
            if found {
                opaque += 1;
                assert!(may_be_prose_opaque(v, r, c), "{t}");
            }
        }
        assert!(opaque > 10_000, "{opaque}");
        for t in ["http:x", "a.http:x", "=3Dhttp:x", "notmailto:x", "10:x"] {
            let v = t.as_bytes();
            let c = t.rfind(':').unwrap();
            assert!(!may_be_prose_opaque(v, run_start(v, 0, c), c), "{t}");
        }
    }
}
