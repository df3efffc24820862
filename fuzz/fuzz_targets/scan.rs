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

fuzz_target!(|data: &[u8]| invariants::fuzz_scan(data));
