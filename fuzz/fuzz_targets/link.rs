//! Link analysis on arbitrary URIs (optionally behind a wrapper's start):
//! no panic, a target never longer than its wrapper, every target and
//! embedded link valid, browser-host matches explained (see
//! `common/link.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../common/link.rs"]
mod link;

fuzz_target!(|data: &[u8]| {
    link::check_link(data);
});
