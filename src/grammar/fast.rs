//! The common shape in one pass: `scheme://host[:port]` with a path,
//! query and fragment after it, for an IP-based scheme under the scheme
//! rules ([`super::rules`]). Nearly every URI in text has this shape,
//! and the full parse reads its authority three times (as a `reg-name`,
//! for the userinfo, for the host's labels); this reads each byte once.
//!
//! It answers only when sure: [`common`] returns the components of an
//! input that every grammar and the scheme rules accept, and `None` for
//! anything else (another shape, or a fault), which the full parse then
//! decides and explains. For the shape it takes, the grammars agree:
//!
//! * the host is a host name (labels of letters, digits and `-`, not at
//!   either end of a label, 1 to 63 of them, dots between, one trailing
//!   dot allowed, the last label starting with a letter), which every
//!   grammar's `reg-name` takes and which the scheme rules require of a
//!   host that is not an IP address;
//! * the port is digits (`*DIGIT` in every grammar);
//! * the path, query and fragment are the same sets in every grammar
//!   ([`super::chars::PATH`], [`super::chars::QUERY`]).
//!
//! The unit tests hold it to the full parse on random inputs.

use super::chars::{is, LABEL, PATH, QUERY, SCHEME};
use super::lex::scan;
use super::{schemes, Part};
use crate::uri::Components;

/// The longest IP-based scheme name ([`schemes::IP_BASED`] names have at
/// most eight letters).
const SCHEME_MAX: usize = 8;

/// The components of `s` when it has the common shape and is valid under
/// every grammar with the scheme rules; `None` otherwise.
#[inline(always)]
pub(crate) fn common(s: &[u8]) -> Option<Components<'_>> {
    let w = walk(s).filter(|w| w.end == s.len())?;
    Some(Components {
        scheme: Some(&s[..w.scheme]),
        authority: Some(&s[w.scheme + 3..w.authority]),
        userinfo: None,
        host: Some(&s[w.scheme + 3..w.host]),
        port: (w.host < w.authority).then(|| &s[w.host + 1..w.authority]),
        path: &s[w.authority..w.path],
        query: (w.query > w.path).then(|| &s[w.path + 1..w.query]),
        fragment: (w.end > w.query).then(|| &s[w.query + 1..w.end]),
    })
}

/// Whether `s`, whose first `scheme` bytes are scheme characters before
/// a `:`, has the common shape and is valid: [`common`]'s verdict,
/// without the components and without reading the scheme again (an
/// IP-based scheme is letters only, so a shape that reads from there
/// reads from where [`common`] does).
#[inline(always)]
pub(crate) fn is_common_after(s: &[u8], scheme: usize) -> bool {
    let yes = walk_after(s, scheme).is_some_and(|w| w.end == s.len());
    debug_assert_eq!(yes, common(s).is_some());
    yes
}

/// How far the common shape goes from the start of `s`: `Some((k, a))`
/// when `s[..k]` is valid of the common shape (under every grammar, with
/// the scheme rules) and `s[k]` is a byte the shape does not take where
/// it stands (or `k` is the length), `a` where its authority ends; `None`
/// when no prefix can be read so. A scanner that knows the run of URI
/// bytes ends at `k` has checked its candidate in the same pass that
/// found it.
///
/// `s` starts with a scheme of `scheme` bytes (a letter, then scheme
/// characters), which the caller has read.
#[inline(always)]
pub(crate) fn common_prefix(
    s: &[u8],
    scheme: usize,
) -> Option<(usize, usize)> {
    debug_assert!(
        s.len() < scheme + 3
            || scheme_end(s) == Some(scheme).filter(|&k| k <= SCHEME_MAX)
    );
    walk_after(s, scheme).map(|w| (w.end, w.authority))
}

/// The bytes [`plain_after`] reads after the authority: those of a
/// query ([`QUERY`], which holds the path's), but `&` and `)`.
static PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = super::chars::CLASS[b] & QUERY != 0
            && b != b'&' as usize
            && b != b')' as usize;
        b += 1;
    }
    t
};

/// The end of the run of bytes from `s[i]` (at most `cap`) that a path,
/// a query and a fragment all take as they stand, but `&` and `)`: the
/// bytes [`plain_after`] reads after the authority, but `#`.
#[inline(always)]
pub(crate) fn plain_run(s: &[u8], mut i: usize, cap: usize) -> usize {
    while i < cap && PLAIN[s[i] as usize] {
        i += 1;
    }
    i
}

/// [`plain_after`] of any `s` (the tests'): `None` unless its scheme
/// of `scheme` bytes is IP-based.
#[cfg(test)]
pub(crate) fn plain_prefix(s: &[u8], scheme: usize) -> Option<(usize, usize)> {
    if !schemes::is_ip_based(&s[..scheme.min(s.len())]) {
        return None;
    }
    plain_after(s, scheme)
}

/// [`common_prefix`] for the plainest URIs: it reads the same host and
/// port, then only the bytes of a path, query and fragment that stand
/// for themselves, without escapes, `&` or `)`. `Some((k, a))` says that
/// `s[..k]` is valid of the common shape (under every grammar, with the
/// scheme rules), its authority ending at `a`, and that `s[k]` (when
/// `k` is not the length) is neither one of those bytes nor a `#` that
/// may start the fragment; when `s[k]` is not a `%`, `&`, `)` or `#`
/// either, [`common_prefix`] stops there too.
///
/// `s` starts with an IP-based scheme of `scheme` bytes, which the
/// caller has checked.
#[inline(always)]
pub(crate) fn plain_after(s: &[u8], scheme: usize) -> Option<(usize, usize)> {
    debug_assert!(s.get(..scheme).is_none_or(schemes::is_ip_based));
    let n = s.len();
    if s.get(scheme..scheme + 3) != Some(b"://") {
        return None;
    }
    let mut j = host_name_end(s, scheme + 3)?;
    if j < n && s[j] == b':' {
        j += 1;
        while j < n && s[j].is_ascii_digit() {
            j += 1;
        }
    }
    let authority = j;
    if j == n || !matches!(s[j], b'/' | b'?' | b'#') {
        return Some((j, authority));
    }
    // The path and the query take the same bytes but `?`, which a query
    // may hold; the fragment takes a query's.
    let mut fragment = false;
    loop {
        while j < n && PLAIN[s[j] as usize] {
            j += 1;
        }
        if j < n && s[j] == b'#' && !fragment {
            fragment = true;
            j += 1;
            continue;
        }
        return Some((j, authority));
    }
}

/// Where the parts of a URI of the common shape end (indices into it).
struct Walk {
    /// The scheme, at its `:`.
    scheme: usize,
    /// The host; the authority ends later when a port follows.
    host: usize,
    authority: usize,
    path: usize,
    /// The end of the query; equal to `path` when there is none.
    query: usize,
    /// The end of what was read; equal to `query` when there is no
    /// fragment.
    end: usize,
}

/// The common shape read from the start of `s` as far as it goes, when
/// what it read is valid.
#[inline(always)]
fn walk(s: &[u8]) -> Option<Walk> {
    walk_after(s, scheme_end(s)?)
}

/// Where a scheme of at most [`SCHEME_MAX`] bytes at the start of `s`
/// ends (its length).
#[inline(always)]
fn scheme_end(s: &[u8]) -> Option<usize> {
    let n = s.len();
    let mut i = 1;
    while i < n && i <= SCHEME_MAX && is(s[i], SCHEME) {
        i += 1;
    }
    (n > 0 && s[0].is_ascii_alphabetic() && i <= SCHEME_MAX).then_some(i)
}

/// [`walk`] after a scheme of `i` bytes.
#[inline(always)]
fn walk_after(s: &[u8], i: usize) -> Option<Walk> {
    let n = s.len();
    // "://", the scheme IP-based
    if s.get(i..i + 3) != Some(b"://") || !schemes::is_ip_based(&s[..i]) {
        return None;
    }
    // host: label *( "." label ) [ "." ]
    let mut j = host_name_end(s, i + 3)?;
    let host = j;
    // [ ":" *DIGIT ]
    if j < n && s[j] == b':' {
        j += 1;
        j += s[j..].iter().take_while(|b| b.is_ascii_digit()).count();
    }
    let authority = j;
    let mut w = Walk { scheme: i, host, authority, path: j, query: j, end: j };
    // The authority ends at "/", "?", "#" or the end.
    if j < n && !matches!(s[j], b'/' | b'?' | b'#') {
        return Some(w);
    }
    // path-abempty, up to "?", "#" or the end (a bad escape stops it)
    let mut k = part(s, j, PATH);
    w.path = k;
    if k < n && s[k] == b'?' {
        k = part(s, k + 1, QUERY);
    }
    w.query = k;
    if k < n && s[k] == b'#' {
        k = part(s, k + 1, QUERY);
    }
    w.end = k;
    Some(w)
}

/// Where the host name that starts at `s[j]` ends (past one trailing
/// dot), when it is one: labels of letters, digits and `-` (not at
/// either end), 1 to 63 bytes each, dots between, the last starting
/// with a letter.
#[inline(always)]
fn host_name_end(s: &[u8], mut j: usize) -> Option<usize> {
    let n = s.len();
    let mut st = j;
    loop {
        while j < n && is(s[j], LABEL) {
            j += 1;
        }
        if j == st || j - st > 63 || s[st] == b'-' || s[j - 1] == b'-' {
            return None;
        }
        if j < n && s[j] == b'.' {
            j += 1;
            if j < n && is(s[j], LABEL) {
                st = j;
                continue;
            }
        }
        break;
    }
    s[st].is_ascii_alphabetic().then_some(j)
}

/// The end of the bytes of class `mask` and escapes from `s[i]`: the
/// first other byte, or a `%` that starts no escape.
#[inline(always)]
fn part(s: &[u8], i: usize, mask: u16) -> usize {
    match scan(s, i, mask, Part::Path) {
        Ok(k) => k,
        Err(f) => f.offset,
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{common, common_prefix, plain_prefix};
    use crate::grammar::{Grammar, Validator};

    /// The full parse (no fast path) under `g` with the scheme rules.
    fn full(s: &[u8], g: Grammar) -> Option<crate::uri::Components<'_>> {
        Validator::new(g).absolute(true).scheme_rules(true).full(s).ok()
    }

    const GRAMMARS: [Grammar; 3] =
        [Grammar::Rfc2396bis, Grammar::Rfc2396, Grammar::Rfc3986];

    /// Pieces of URIs and of near misses.
    const PIECES: &[&str] = &[
        "http", "HTTPS", "ftp", "file", "urn", "x", "://", ":", "//", "/",
        "a", "Z", "0", "9", "255", "256", "1.2.3.4", "-", ".", "..", "ab-c",
        "example", "[::1]", "[", "]", "@", "u:p@", "?", "#", "%", "%41",
        "%g1", "_", "~", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";",
        "=", " ", "\"", "<", ">", "\\", "^", "`", "{", "|", "}", "\u{e9}",
        "\x7f", "\n",
    ];

    /// Pieces of paths, queries and fragments that every grammar takes.
    const GOOD: &[&str] = &["/", "a", "x-y", "%41", "?", "#", "=", "&", "."];

    /// Hosts and tails, mostly of the common shape, often near misses.
    fn input() -> impl Strategy<Value = Vec<u8>> {
        let label = prop_oneof![
            3 => "[a-z][a-z0-9-]{0,6}[a-z0-9]",
            1 => "[a-zA-Z0-9-]{0,66}",
        ];
        let sep = prop_oneof![
            6 => Just("."),
            1 => proptest::sample::select(PIECES),
        ];
        let piece = prop_oneof![
            3 => proptest::sample::select(GOOD),
            1 => proptest::sample::select(PIECES),
        ];
        (
            proptest::sample::select(&["http", "https", "ftp", "file", "x"]),
            proptest::collection::vec((label, sep), 1..5),
            proptest::option::of("[0-9]{0,6}"),
            proptest::collection::vec(piece, 0..12),
        )
            .prop_map(|(scheme, host, port, tail)| {
                let mut s = format!("{scheme}://");
                let last = host.len() - 1;
                for (k, (l, sep)) in host.into_iter().enumerate() {
                    s.push_str(&l);
                    if k < last {
                        s.push_str(sep);
                    }
                }
                if let Some(p) = port {
                    s.push(':');
                    s.push_str(&p);
                }
                for p in tail {
                    s.push_str(p);
                }
                s.into_bytes()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(50_000))]

        /// What the fast path accepts, every grammar accepts with the
        /// same components.
        #[test]
        fn agrees_with_the_full_parse(s in input()) {
            if let Some(c) = common(&s) {
                for g in GRAMMARS {
                    prop_assert_eq!(Some(c), full(&s, g), "{:?}", g);
                }
            }
        }

        /// What the walk reads is valid and goes as far as the shape
        /// does: one byte more is not of the shape.
        #[test]
        fn prefix_is_valid_and_longest(s in input()) {
            if let Some((k, _)) = super::scheme_end(&s)
                .and_then(|i| common_prefix(&s, i))
            {
                prop_assert!(common(&s[..k]).is_some());
                for g in GRAMMARS {
                    prop_assert!(full(&s[..k], g).is_some(), "{:?}", g);
                }
                if k < s.len() {
                    prop_assert!(common(&s[..k + 1]).is_none());
                }
            }
        }

        /// The plain walk reads a valid prefix of the common shape, and
        /// stops where the walk with escapes does unless it stopped at a
        /// byte it leaves to that walk.
        #[test]
        fn plain_prefix_is_common_prefix(s in input()) {
            let Some(i) = super::scheme_end(&s) else { return Ok(()) };
            if let Some((k, a)) = plain_prefix(&s, i) {
                prop_assert!(common(&s[..k]).is_some());
                let full = common_prefix(&s, i);
                prop_assert_eq!(full.map(|f| f.1), Some(a));
                if k == s.len() || !b"%&)#".contains(&s[k]) {
                    prop_assert_eq!(full, Some((k, a)));
                }
            } else {
                prop_assert!(common_prefix(&s, i).is_none());
            }
        }

        /// On any bytes at all.
        #[test]
        fn agrees_on_any_bytes(
            s in proptest::collection::vec(any::<u8>(), 0..40)
        ) {
            let mut t = b"http://".to_vec();
            t.extend_from_slice(&s);
            for x in [&s, &t] {
                if let Some(c) = common(x) {
                    for g in GRAMMARS {
                        prop_assert_eq!(Some(c), full(x, g));
                    }
                }
            }
        }
    }

    /// The generated inputs exercise the fast path: many of them take it.
    #[test]
    fn inputs_take_the_fast_path() {
        use proptest::strategy::ValueTree;
        use proptest::test_runner::TestRunner;
        let mut runner = TestRunner::deterministic();
        let (mut some, mut all) = (0, 0);
        for _ in 0..5000 {
            let s = input().new_tree(&mut runner).unwrap().current();
            some += common(&s).is_some() as usize;
            all += 1;
        }
        assert!(some * 10 > all && some < all, "{some} of {all}");
    }

    /// The fast path takes the common URIs (else it would save nothing).
    #[test]
    fn takes_the_common_shape() {
        for s in [
            "http://a.example/x",
            "https://www.ietf.org/rfc/rfc3986.txt?x=1&y=%41#top",
            "ftp://ftp.is.co.za:21/rfc/rfc1808.txt",
            "http://a.example.:8080",
            "HTTP://A-B.example/",
            "http://a.example:/?#",
        ] {
            let c = common(s.as_bytes());
            assert!(c.is_some(), "{s}");
            for g in GRAMMARS {
                assert_eq!(c, full(s.as_bytes(), g), "{s} {g:?}");
            }
        }
        for s in [
            "http://1.2.3.4/",
            "http://[::1]/",
            "http://u@a.example/",
            "file:///etc",
            "http://a..b/",
            "http://-a.example/",
            "http://a.example/%zz",
            "http://a.example/ x",
            "http://a_b.example/",
            "mailto:a@b.example",
        ] {
            assert!(common(s.as_bytes()).is_none(), "{s}");
        }
    }
}
