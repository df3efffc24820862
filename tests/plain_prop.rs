//! The plain way (`scan/plain.rs` with `grammar/fast.rs`) against the
//! general way, in whatever profile the tests are built: text made of
//! the shapes the plain way takes (a letters-only IP-based scheme, bare
//! or right after `<` or `"`, one rejoined line break) and of the bytes
//! that make it decline (trailing punctuation, brackets, escapes,
//! entities, quote prefixes), searched with the colon filters and the
//! plain way on and off, under every option byte. Debug builds also
//! check each colon the plain way takes; this holds release builds to
//! the same items.

use proptest::prelude::*;

use crate::stream_prop::invariants;

/// Pieces of the shapes the plain way takes and of the traps near them.
const PIECES: &[&str] = &[
    "http://",
    "https://",
    "ftp://",
    "HTTP://",
    "telnet://",
    "a.example",
    "b.example:8080",
    "[::1]",
    "1.2.3.4",
    "256.1.1.1",
    "/",
    "/path",
    "/a-",
    "?q=1",
    "&x=2",
    "#frag",
    "%41",
    "%g",
    "<",
    ">",
    "\"",
    "(",
    ")",
    "]",
    ".",
    ",",
    "'",
    "*",
    "_",
    " ",
    "\n",
    "\n  ",
    "\n> ",
    "\n\n",
    "&gt;",
    "&lt;",
    "word",
    "URL:",
    "mailto:",
    ":",
];

fn plain_text() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        12 => prop::sample::select(PIECES).prop_map(|s| s.as_bytes().to_vec()),
        1 => any::<u8>().prop_map(|b| vec![b]),
    ];
    prop::collection::vec(piece, 0..80).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2048,
        ..ProptestConfig::default()
    })]

    /// The plain way and the general way give the same items.
    #[test]
    fn plain_way_agrees_with_general_way(
        opt in any::<u8>(),
        input in plain_text(),
    ) {
        invariants::check_prefilter_toggle(opt, &input);
    }
}

/// The property above can fail: a finder whose filters are off on one
/// side only is compared on text where the plain way takes most colons,
/// and the comparison sees every item (not only a count).
#[test]
fn plain_way_is_exercised() {
    let text = b"see http://a.example/path, <http://b.example:8080/a-\n  b> \
                 and \"https://a.example/?q=1\".";
    let (f, _) = invariants::finder_from_byte(0);
    let found: Vec<_> = f.find_iter(text).map(|m| m.uri().to_vec()).collect();
    assert_eq!(
        found,
        [
            &b"http://a.example/path"[..],
            b"http://b.example:8080/a-b",
            b"https://a.example/?q=1"
        ]
    );
    invariants::check_prefilter_toggle(0, text);
}
