//! The URI model: Appendix B split, section 5.2 resolution (Appendix C and
//! corpora/resolve/), section 6 normalization (corpora/normalize/).

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use urifind::uri::{
    default_port, equivalent, normalize, resolve, Components, ResolveMode,
};

fn corpus(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora").join(rel)
}

fn show(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// One resolution case read from a corpora/resolve/ file.
struct ResolveCase {
    line: usize,
    base: Vec<u8>,
    reference: Vec<u8>,
    expected: Vec<u8>,
    mode: ResolveMode,
}

/// Reads the format described at the top of corpora/resolve/appendix-c.txt.
fn load_resolve(name: &str) -> Vec<ResolveCase> {
    let path = corpus(&format!("resolve/{name}"));
    let data = std::fs::read(&path).unwrap();
    let mut base: Option<Vec<u8>> = None;
    let mut cases = Vec::new();
    for (i, line) in data.split(|&b| b == b'\n').enumerate() {
        if let Some(b) = line.strip_prefix(b"@base ") {
            base = Some(b.to_vec());
        } else if line.contains(&b'\t') {
            let fields: Vec<&[u8]> = line.split(|&b| b == b'\t').collect();
            let mode = match fields.get(2).copied() {
                None => ResolveMode::Strict,
                Some(b"compatible") => ResolveMode::Compatible,
                Some(other) => {
                    panic!("{name}:{}: unknown mode {:?}", i + 1, show(other))
                }
            };
            assert!(fields.len() <= 3, "{name}:{}: too many fields", i + 1);
            cases.push(ResolveCase {
                line: i + 1,
                base: base.clone().expect("a case before any @base"),
                reference: fields[0].to_vec(),
                expected: fields[1].to_vec(),
                mode,
            });
        }
    }
    cases
}

fn check_resolve_file(name: &str, min_cases: usize) {
    let cases = load_resolve(name);
    assert!(cases.len() >= min_cases, "{name}: only {} cases", cases.len());
    let mut failures = Vec::new();
    for c in &cases {
        let got = resolve(&c.base, &c.reference, c.mode).unwrap();
        if got != c.expected {
            failures.push(format!(
                "{name}:{}: base {} ref {:?} ({:?}): expected {}, got {}",
                c.line,
                show(&c.base),
                show(&c.reference),
                c.mode,
                show(&c.expected),
                show(&got)
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn resolve_appendix_c() {
    // 22 normal + 21 abnormal rows (http:g counted once per reading).
    let cases = load_resolve("appendix-c.txt");
    assert_eq!(cases.len(), 43);
    assert!(cases.iter().all(|c| c.base == b"http://a/b/c/d;p?q"));
    check_resolve_file("appendix-c.txt", 43);
}

#[test]
fn resolve_extra() {
    check_resolve_file("extra.txt", 80);
}

#[test]
fn resolve_reference_with_scheme_is_taken_verbatim() {
    // Strict mode: T = R, so any reference with a scheme comes back
    // unchanged, dot segments and all.
    for r in [&b"g:h"[..], b"http:g", b"http://x/./y/../z?a#b", b"a:"] {
        assert_eq!(resolve(b"http://a/b", r, ResolveMode::Strict).unwrap(), r);
    }
}

#[test]
fn resolve_rejects_base_without_scheme() {
    for base in [&b""[..], b"/a/b", b"//a/b", b"a/b", b"?q", b"#f"] {
        let err = resolve(base, b"g", ResolveMode::Strict).unwrap_err();
        assert_eq!(
            err.to_string(),
            "base URI is not absolute (it has no scheme)"
        );
    }
}

#[test]
fn resolve_rejects_base_with_invalid_scheme() {
    for base in [&b"1http://a/"[..], b"ht tp://a/", b"-a:b", b"\xff:x"] {
        let err = resolve(base, b"g", ResolveMode::Compatible).unwrap_err();
        assert!(
            err.to_string().starts_with("base URI is not absolute"),
            "{err}"
        );
        // It is a std error usable with `?` and Box<dyn Error>.
        let _: Box<dyn std::error::Error> = Box::new(err);
    }
    assert!(resolve(b"a+b-c.d:x", b"g", ResolveMode::Strict).is_ok());
}

#[test]
fn resolve_non_utf8_reference() {
    let got = resolve(b"http://a/b/c", b"\xff/../\xfe", ResolveMode::Strict);
    assert_eq!(got.unwrap(), b"http://a/b/\xfe");
}

#[test]
fn split_appendix_b_example() {
    // The table after the regular expression in Appendix B.
    let c = Components::split(b"http://www.ics.uci.edu/pub/ietf/uri/#Related");
    assert_eq!(c.scheme, Some(&b"http"[..])); // $2
    assert_eq!(c.authority, Some(&b"www.ics.uci.edu"[..])); // $4
    assert_eq!(c.path, b"/pub/ietf/uri/"); // $5
    assert_eq!(c.query, None); // $7 <undefined>
    assert_eq!(c.fragment, Some(&b"Related"[..])); // $9
    assert_eq!(c.userinfo, None);
    assert_eq!(c.host, Some(&b"www.ics.uci.edu"[..]));
    assert_eq!(c.port, None);
}

#[test]
fn split_keeps_empty_apart_from_undefined() {
    let c = Components::split(b"s://?#");
    assert_eq!(c.scheme, Some(&b"s"[..]));
    assert_eq!(c.authority, Some(&b""[..]));
    assert_eq!(c.host, Some(&b""[..]));
    assert_eq!(c.path, b"");
    assert_eq!(c.query, Some(&b""[..]));
    assert_eq!(c.fragment, Some(&b""[..]));
    let c = Components::split(b"");
    assert_eq!(c, Components::default());
    // Appendix B: a scheme needs at least one character before ':'.
    let c = Components::split(b":a");
    assert_eq!(c.scheme, None);
    assert_eq!(c.path, b":a");
}

#[test]
fn split_authority_parts() {
    let c = Components::split(b"ftp://u:p@[::1]:21/x");
    assert_eq!(c.userinfo, Some(&b"u:p"[..]));
    assert_eq!(c.host, Some(&b"[::1]"[..]));
    assert_eq!(c.port, Some(&b"21"[..]));
    let c = Components::split(b"http://[::1]/");
    assert_eq!(c.host, Some(&b"[::1]"[..]));
    assert_eq!(c.port, None);
    let c = Components::split(b"http://a@b@c:/");
    assert_eq!(c.userinfo, Some(&b"a@b"[..]));
    assert_eq!(c.host, Some(&b"c"[..]));
    assert_eq!(c.port, Some(&b""[..]));
}

#[test]
fn recompose_round_trips_appendix_c() {
    for c in load_resolve("appendix-c.txt") {
        for s in [&c.reference, &c.expected, &c.base] {
            let mut out = Vec::new();
            Components::split(s).recompose(&mut out);
            assert_eq!(&out, s);
        }
    }
}

/// `INPUT<TAB>EXPECTED...` lines of a corpora/normalize/ file.
fn load_tabbed(name: &str) -> Vec<(usize, Vec<Vec<u8>>)> {
    let data = std::fs::read(corpus(&format!("normalize/{name}"))).unwrap();
    data.split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, l)| l.contains(&b'\t'))
        .map(|(i, l)| {
            (i + 1, l.split(|&b| b == b'\t').map(<[u8]>::to_vec).collect())
        })
        .collect()
}

#[test]
fn normalize_cases() {
    let cases = load_tabbed("cases.txt");
    assert!(cases.len() >= 60, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for (line, f) in &cases {
        assert_eq!(f.len(), 2, "cases.txt:{line}: expected two fields");
        let got = normalize(&f[0]);
        if got != f[1] {
            failures.push(format!(
                "cases.txt:{line}: {:?}: expected {:?}, got {:?}",
                show(&f[0]),
                show(&f[1]),
                show(&got)
            ));
        }
        // The expected form is itself normal, and equivalent to the input.
        assert_eq!(normalize(&f[1]), f[1], "cases.txt:{line}: not idempotent");
        assert!(equivalent(&f[0], &f[1]), "cases.txt:{line}");
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn equivalence_pairs_both_ways() {
    let pairs = load_tabbed("equivalence.txt");
    assert!(pairs.len() >= 25);
    let (mut same, mut different) = (0, 0);
    for (line, f) in &pairs {
        assert_eq!(f.len(), 3, "equivalence.txt:{line}: expected 3 fields");
        let want = match &f[2][..] {
            b"same" => {
                same += 1;
                true
            }
            b"different" => {
                different += 1;
                false
            }
            other => panic!("equivalence.txt:{line}: {:?}", show(other)),
        };
        let (a, b) = (&f[0], &f[1]);
        assert_eq!(equivalent(a, b), want, "equivalence.txt:{line} (a, b)");
        assert_eq!(equivalent(b, a), want, "equivalence.txt:{line} (b, a)");
        assert!(equivalent(a, a) && equivalent(b, b));
    }
    assert!(same >= 10 && different >= 10, "{same} same, {different} diff");
}

#[test]
fn normalize_non_utf8_bytes_are_kept() {
    assert_eq!(
        normalize(b"HTTP://\xC3\x89x.example:80/\xff%7e%ff"),
        b"http://\xC3\x89x.example/\xff~%FF"
    );
}

#[test]
fn default_ports() {
    assert_eq!(default_port(b"http"), Some("80"));
    assert_eq!(default_port(b"Http"), Some("80"));
    assert_eq!(default_port(b"https"), Some("443"));
    assert_eq!(default_port(b"ftp"), Some("21"));
    assert_eq!(default_port(b"gopher"), Some("70"));
    assert_eq!(default_port(b"telnet"), Some("23"));
    assert_eq!(default_port(b"nntp"), Some("119"));
    assert_eq!(default_port(b"wais"), Some("210"));
    assert_eq!(default_port(b"prospero"), Some("1525"));
    assert_eq!(default_port(b"file"), None);
    assert_eq!(default_port(b"mailto"), None);
    assert_eq!(default_port(b""), None);
    assert_eq!(default_port(b"http:"), None);
}

/// The same merge, done literally as the draft's steps 3-6 on a string,
/// to check the segment-stack implementation against.
fn literal_merge(base_path: &[u8], rel: &[u8]) -> Vec<u8> {
    let mut buf: Vec<u8> = match base_path.iter().rposition(|&c| c == b'/') {
        Some(i) => base_path[..=i].to_vec(),
        None if base_path.is_empty() => b"/".to_vec(),
        None => Vec::new(),
    };
    buf.extend_from_slice(rel);
    // Where complete segments start: after every '/', and at 0 unless the
    // buffer is rooted. Whether it is rooted is decided once, on the
    // buffer as merged: in a relative buffer like "a/..//..", removing
    // "a/../" leaves "/..", whose first (empty) segment is still a
    // segment, not a root (the segment-stack reading of the draft).
    let rooted = buf.first() == Some(&b'/');
    let seg_starts = |b: &[u8]| -> Vec<usize> {
        let mut v: Vec<usize> = Vec::new();
        if !rooted {
            v.push(0);
        }
        v.extend(
            b.iter()
                .enumerate()
                .filter(|(_, &c)| c == b'/')
                .map(|(i, _)| i + 1),
        );
        v
    };
    // Step 3: remove every "./" whose "." is a complete segment.
    loop {
        let s = seg_starts(&buf);
        match s.iter().find(|&&i| buf[i..].starts_with(b"./")) {
            Some(&i) => {
                buf.drain(i..i + 2);
            }
            None => break,
        }
    }
    // Step 4: a final "." segment.
    if let Some(&last) = seg_starts(&buf).last() {
        if &buf[last..] == b"." {
            buf.truncate(last);
        }
    }
    // Step 5: leftmost "<segment>/../", segment != "..", iteratively.
    loop {
        let s = seg_starts(&buf);
        let hit = s.iter().find_map(|&i| {
            let end = buf[i..].iter().position(|&c| c == b'/')? + i;
            let seg = &buf[i..end];
            (seg != b".." && buf[end..].starts_with(b"/../"))
                .then_some((i, end + 4))
        });
        match hit {
            Some((a, b)) => {
                buf.drain(a..b);
            }
            None => break,
        }
    }
    // Step 6: a final "<segment>/..".
    let s = seg_starts(&buf);
    if s.len() >= 2 {
        let (a, b) = (s[s.len() - 2], s[s.len() - 1]);
        if &buf[b..] == b".." && &buf[a..b - 1] != b".." {
            buf.truncate(a);
        }
    }
    buf
}

fn segment() -> impl Strategy<Value = &'static [u8]> {
    prop_oneof![
        Just(&b"."[..]),
        Just(&b".."[..]),
        Just(&b"a"[..]),
        Just(&b"b;x=1"[..]),
        Just(&b"..."[..]),
    ]
}

/// Paths made of dot segments, names, "/" and empty segments, whose first
/// byte is not "/" (so that Appendix B reads them as a relative path).
fn rel_path() -> impl Strategy<Value = Vec<u8>> {
    let part = prop_oneof![Just(&b"/"[..]), segment()];
    (segment(), proptest::collection::vec(part, 0..12)).prop_map(
        |(first, rest)| {
            let mut v = first.to_vec();
            v.extend(rest.concat());
            v
        },
    )
}

/// A base path: empty, relative, or absolute (never starting with "//",
/// which would be an authority).
fn base_path() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        1 => Just(Vec::new()),
        4 => rel_path(),
        8 => rel_path().prop_map(|p| [&b"/"[..], &p].concat()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn resolve_never_panics(r in proptest::collection::vec(any::<u8>(), 0..64)) {
        let base = b"http://a/b/c/d;p?q";
        let strict = resolve(base, &r, ResolveMode::Strict).unwrap();
        let compat = resolve(base, &r, ResolveMode::Compatible).unwrap();
        // Either the reference is absolute (strict: itself) or the result
        // carries the base's scheme.
        prop_assert!(strict == r || strict.starts_with(b"http:"));
        prop_assert!(compat == r || compat.starts_with(b"http:"));
    }

    #[test]
    fn resolve_any_base_never_panics(
        b in proptest::collection::vec(any::<u8>(), 0..32),
        r in proptest::collection::vec(any::<u8>(), 0..32),
    ) {
        let mut base = b"x:".to_vec();
        base.extend_from_slice(&b);
        prop_assert!(resolve(&base, &r, ResolveMode::Strict).is_ok());
    }

    #[test]
    fn merge_matches_literal_string_steps(
        base in base_path(),
        rel in rel_path(),
    ) {
        let mut b = b"s:".to_vec();
        b.extend_from_slice(&base);
        let got = resolve(&b, &rel, ResolveMode::Strict).unwrap();
        let mut want = b"s:".to_vec();
        want.extend(literal_merge(&base, &rel));
        prop_assert_eq!(show(&got), show(&want));
    }

    #[test]
    fn normalize_is_idempotent(x in proptest::collection::vec(any::<u8>(), 0..64)) {
        let once = normalize(&x);
        prop_assert_eq!(normalize(&once), once.clone());
        prop_assert!(equivalent(&x, &once));
    }

    #[test]
    fn normalize_is_idempotent_on_uri_like(
        x in "[hH][tT][tT][pP]:(//[a-zA-Z%0-9:@.\\[\\]]{0,12})?[/a-zA-Z%0-9.?#~]{0,20}"
    ) {
        let once = normalize(x.as_bytes());
        prop_assert_eq!(normalize(&once), once.clone());
    }
}
