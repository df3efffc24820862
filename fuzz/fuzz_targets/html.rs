//! The HTML tokenizer of mail mode against the reference parser it
//! replaced (lol_html, through the `html-oracle` feature): byte 0 bit 0
//! turns resources on, the rest is an HTML part; on UTF-8 the events
//! must be the same, on anything else the tokenizer must not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&opts, html)) = data.split_first() else { return };
    if let Err(e) = urifind::mail::html_oracle_compare(html, opts & 1 == 1) {
        panic!("{e}");
    }
});
