//! The scanner on arbitrary bytes. The first byte chooses the options
//! (grammar, abbrev, any-scheme, rejected, small bounds: see
//! `invariants::finder_from_byte`); the rest is the text. No panic; every
//! reported URI validates, lies inside the input and is the input's bytes
//! less removed whitespace and quote prefixes; matches come in order;
//! asking for rejected candidates changes no match.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../common/invariants.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| {
    let Some((&opt, text)) = data.split_first() else {
        return;
    };
    let (finder, g) = invariants::finder_from_byte(opt);
    let items: Vec<_> = finder.items(text).collect();
    invariants::check_items(text, &items, g);
    // find_iter is items() less the rejected ones.
    let matches: Vec<_> = finder.find_iter(text).collect();
    let from_items: Vec<_> = items
        .into_iter()
        .filter_map(|it| match it {
            urifind::scan::Item::Match(m) => Some(m),
            urifind::scan::Item::Rejected(_) => None,
        })
        .collect();
    assert_eq!(matches, from_items, "find_iter differs from items()");
    invariants::check_rejected_toggle(opt, text);
});
