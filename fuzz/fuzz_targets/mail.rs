//! Mail mode on arbitrary bytes. Byte 0 chooses the finder's options,
//! byte 1 HTML resources, a small message limit and a read size (see
//! `mail::fuzz_mail`); the rest is read as an mbox or a message. No
//! panic, bounded memory (the message limit holds), every reported URI
//! valid, every span inside the input, and the same items whatever the
//! read sizes.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../common/invariants.rs"]
mod invariants;
#[path = "../common/mail.rs"]
mod mail;

fuzz_target!(|data: &[u8]| mail::fuzz_mail(data));
