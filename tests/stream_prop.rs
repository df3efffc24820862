//! Property tests over the scanner's guarantees, on the stable toolchain:
//! chunked streaming equals whole-slice scanning (items and absolute
//! offsets), every reported URI validates, offsets lie inside the input and
//! point at the reported bytes. The checks are shared with the fuzz
//! targets (`fuzz/common/invariants.rs`); the inputs here are biased toward
//! URI-like text so that the properties exercise the scanner, not only
//! noise.

use proptest::prelude::*;

#[path = "../fuzz/common/invariants.rs"]
pub(crate) mod invariants;

#[path = "../corpora/gen/gen.rs"]
pub(crate) mod gen;

/// Pieces that make URIs, their delimiters and the traps around them.
const FRAGMENTS: &[&str] = &[
    "http://",
    "https://",
    "ftp://",
    "mailto:",
    "news:",
    "urn:x:y",
    "file:",
    "www.",
    "ftp.",
    "<",
    ">",
    "<URL:",
    "URL:",
    "\n",
    "\r\n",
    "> ",
    "> > ",
    "-\n",
    "- \n",
    "\"",
    "a.example",
    "b.example.org",
    "/x",
    "/y-",
    ".",
    ",",
    ";",
    ":",
    "!",
    "?",
    "'",
    ")",
    "(",
    "]",
    "[",
    " ",
    "  ",
    "\t",
    "%",
    "%41",
    "%zz",
    "#",
    "#f",
    "?q=1",
    "&",
    "@",
    "user@",
    ":80",
    "192.0.2.1",
    "[::1]",
    "256.1.1.1",
    "\n\n",
    "\n   ",
    "Note:",
    "10:30",
    "x",
    "abc",
    "caf\u{e9}",
    "\u{201c}",
    "\u{ff09}",
    "\u{0}",
    "=3D",
    "9",
    "+",
    "*",
    "_",
    "~",
    "`",
    "</",
    "&lt;",
    "&#x3e;",
    "&#0",
    "&amp;",
    "sms:+1",
    "matrix:r/",
    "bitcoin:",
    "file:/",
    "...",
    "--",
    // IRIs: spaced and unspaced scripts, joiners, the paired marks,
    // characters RFC 3987 refuses
    "Stra\u{df}e",
    "\u{41a}\u{43d}\u{438}\u{433}\u{430}",
    "\u{65e5}\u{672c}",
    "\u{5317}\u{4eac}.cn",
    "\u{4f8b}\u{3048}.\u{30c6}\u{30b9}\u{30c8}",
    "\u{3092}",
    "\u{200c}",
    "\u{300c}",
    "\u{300d}",
    "\u{201d}",
    "\u{ab}",
    "\u{bb}",
    "\u{ff08}",
    "\u{e000}",
    "\u{fffe}",
    "\u{a0}",
];

pub(crate) fn text() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        6 => prop::sample::select(FRAGMENTS)
            .prop_map(|s| s.as_bytes().to_vec()),
        1 => any::<u8>().prop_map(|b| vec![b]),
    ];
    prop::collection::vec(piece, 0..120).prop_map(|v| v.concat())
}

fn sizes() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(
        prop_oneof![4 => 1usize..8, 2 => 8usize..64, 1 => 64usize..4096],
        1..12,
    )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1024,
        ..ProptestConfig::default()
    })]

    /// Streaming in short reads gives the slice's items; all valid.
    #[test]
    fn stream_equals_slice(
        opt in any::<u8>(),
        input in text(),
        sizes in sizes(),
        count_lines in any::<bool>(),
    ) {
        let (finder, g) = invariants::finder_from_byte(opt);
        invariants::check_stream(&finder, g, &input, sizes, count_lines);
        invariants::check_rejected_toggle(opt, &input);
        invariants::check_prefilter_toggle(opt, &input);
        invariants::check_iri_toggle(opt, &input);
    }

    /// Pure-ASCII input: the same items with and without IRIs, under
    /// every option.
    #[test]
    fn ascii_input_same_with_and_without_iri(
        opt in any::<u8>(),
        input in text().prop_map(|t| {
            t.into_iter().filter(u8::is_ascii).collect::<Vec<u8>>()
        }),
    ) {
        invariants::check_iri_toggle(opt, &input);
    }

    /// With IRIs, streaming in short reads (which split UTF-8 characters)
    /// gives the slice's items; every IRI is valid.
    #[test]
    fn iri_stream_equals_slice(
        opt in any::<u8>(),
        input in text(),
        sizes in sizes(),
    ) {
        let (finder, g) = invariants::finder_from_byte(opt | 64);
        invariants::check_stream(&finder, g, &input, sizes, false);
    }

    /// The validator never panics and accepted strings recompose.
    #[test]
    fn validator_recomposes(input in text()) {
        invariants::check_validate(&input);
    }
}

/// The generator kinds with URIs in every style, through one-byte and
/// odd-sized reads: the corpus-scale form of the property above.
#[test]
fn generated_corpora_stream_equals_slice() {
    for (i, kind) in gen::kinds().iter().enumerate() {
        let input = gen::generate(kind, 24 * 1024, 7 + i as u64).unwrap();
        for opt in [0u8, 4 | 16, 32 | 16 | 1] {
            let (finder, g) = invariants::finder_from_byte(opt);
            for sizes in [vec![1], vec![7, 1, 300, 2], vec![65536]] {
                invariants::check_stream(
                    &finder,
                    g,
                    &input,
                    sizes,
                    opt & 1 == 0,
                );
            }
        }
    }
}

/// The generator knows what it wrote: every URI it put into prose, RFC
/// text, mail and dense text, in every delimiting style (angle, `URL:`,
/// quotes, bare with punctuation, parentheses, broken lines, hyphen at a
/// break, dangling `http://`), must be found, in order, and nothing else.
#[test]
fn generated_corpora_expected_uris() {
    let finder = urifind::Finder::new();
    for kind in ["prose", "nouri", "rfc", "mail", "dense"] {
        for seed in 0..8u64 {
            let mut g = gen::Gen::new(kind, seed).unwrap();
            let mut text = Vec::new();
            while text.len() < 256 * 1024 {
                g.next_piece(&mut text);
            }
            let want = g.take_expected();
            let got: Vec<String> = finder
                .find_iter(&text)
                .map(|m| String::from_utf8_lossy(m.uri()).into_owned())
                .collect();
            if kind == "nouri" {
                assert!(want.is_empty());
            } else {
                assert!(want.len() > 30, "{kind}: only {} URIs", want.len());
            }
            let first_diff = want
                .iter()
                .zip(&got)
                .position(|(w, g)| w != g)
                .unwrap_or(want.len().min(got.len()));
            assert!(
                want == got,
                "{kind} seed {seed}: {} expected, {} found; first \
                 difference at {first_diff}: expected {:?}, found {:?}",
                want.len(),
                got.len(),
                want.get(first_diff),
                got.get(first_diff)
            );
        }
    }
}

/// Inputs the fuzzers found (`fuzz/regressions/TARGET/`), replayed on the
/// stable toolchain with the fuzz targets' own checks.
#[test]
fn fuzz_regressions_replay() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions");
    let mut n = 0;
    for (target, run) in [
        ("scan", invariants::fuzz_scan as fn(&[u8])),
        ("stream", invariants::fuzz_stream),
        ("validate", invariants::check_validate),
    ] {
        let Ok(dir) = std::fs::read_dir(root.join(target)) else {
            continue;
        };
        for entry in dir {
            let path = entry.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            run(&data);
            n += 1;
        }
    }
    assert!(n >= 3, "expected the committed regression inputs, found {n}");
}

/// IRIs read in two pieces split at every byte (inside every UTF-8
/// character), and one byte at a time: the slice's items each time.
#[test]
fn iri_text_split_at_every_byte() {
    let text = "詳細はhttp://www.example.jp/を参照。 http://北京大学.cn \
                <http://ja.example.org/wiki/\n  日本語> 「http://例え.テスト/索引」 \
                https://fa.example.org/کتاب\u{200c}خانه, \
                «http://www.bücher.example/ü» http://a.example/café\u{e9}";
    let input = text.as_bytes();
    for opt in [64u8, 64 | 16, 64 | 32 | 16] {
        let (finder, g) = invariants::finder_from_byte(opt);
        if opt == 64 {
            assert_eq!(finder.find_iter(input).count(), 7);
        }
        for k in 1..input.len() {
            invariants::check_stream(
                &finder,
                g,
                input,
                vec![k, input.len()],
                false,
            );
        }
        invariants::check_stream(&finder, g, input, vec![1], true);
    }
}
