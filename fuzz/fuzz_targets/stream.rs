//! Chunked streaming against whole-slice scanning on the same bytes. Input
//! layout: byte 0 chooses the finder's options; byte 1 holds line counting
//! (bit 7) and how many read sizes follow (bits 0-2, plus one); those bytes
//! are the sizes of successive short reads (cycled); the rest is the text.
//! The stream (and the chunk-fed feeder) must give the same items with the
//! same absolute offsets.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../common/invariants.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| invariants::fuzz_stream(data));
