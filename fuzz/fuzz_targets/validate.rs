//! The validator on arbitrary bytes, under each grammar and option: no
//! panic, accepted strings recompose from their components byte for byte,
//! fault offsets lie inside the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../common/invariants.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| {
    invariants::check_validate(data);
});
