//! Chunked streaming against whole-slice scanning on the same bytes. Input
//! layout: byte 0 chooses the finder's options; byte 1 holds line counting
//! (bit 7) and how many read sizes follow (bits 0-2, plus one); those bytes
//! are the sizes of successive short reads (cycled); the rest is the text.
//! The stream must give the same items with the same absolute offsets.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../common/invariants.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let (finder, g) = invariants::finder_from_byte(data[0]);
    let count_lines = data[1] & 0x80 != 0;
    let n = (data[1] & 7) as usize + 1;
    let rest = &data[2..];
    let n = n.min(rest.len());
    let sizes: Vec<usize> =
        rest[..n].iter().map(|&b| b as usize + 1).collect();
    invariants::check_stream(&finder, g, &rest[n..], sizes, count_lines);
});
