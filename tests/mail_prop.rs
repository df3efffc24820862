//! Property test of mail mode on the stable toolchain: messages made of
//! mail-shaped pieces (envelope lines, header fields, boundaries,
//! encodings, HTML, broken bytes) go through the checks of the `mail`
//! fuzz target (`fuzz/common/mail.rs`): no panic, valid URIs, spans
//! inside the input, limits kept, the same items however the input is
//! read. Inputs the fuzzer found are replayed from
//! `fuzz/regressions/mail/`, and its seeds of hostile mail from
//! `fuzz/seeds/mail/`.

use proptest::prelude::*;

// Also loaded by stream_prop: each test module has its own copy of the
// shared checks, as each fuzz target does.
#[path = "../fuzz/common/invariants.rs"]
#[allow(unused, clippy::duplicate_mod)]
mod invariants;

#[path = "../fuzz/common/mail.rs"]
mod mail;

/// Pieces of messages.
const PIECES: &[&str] = &[
    "From a@example.org Tue Nov  3 10:00:00 2026\n",
    "\n",
    "\r\n",
    "From: a@example.org\n",
    "Date: Tue, 3 Nov 2026 10:00:00 +0100\n",
    "Message-ID: <x@example.org>\n",
    "Subject: =?UTF-8?Q?see_http://q.example/=C3=A9?=\n",
    "Subject: =?utf-8?B?aHR0cDovL2IuZXhhbXBsZS8=?= =?x?Q?a?=\n",
    "List-Post: <mailto:l@example.org\n",
    " , <https://l.example/u>\n",
    "MIME-Version: 1.0\n",
    "Content-Type: multipart/mixed; boundary=\"b\"\n",
    "Content-Type: multipart/alternative; boundary=b\n",
    "Content-Type: multipart/digest; boundary=\"b\"\n",
    "Content-Type: text/html; charset=windows-1252\n",
    "Content-Type: text/plain; charset=iso-2022-jp\n",
    "Content-Type: text/plain; charset=shift_jis\n",
    "Content-Type: message/rfc822\n",
    "Content-Type: application/pdf\n",
    "Content-Transfer-Encoding: quoted-printable\n",
    "Content-Transfer-Encoding: base64\n",
    "--b\n",
    "--b--\n",
    "   \t\n",
    ">From here\n",
    "http://a.example/x=3Dy=\n",
    "=\n",
    "=3D",
    "=E9",
    "aHR0cDovL2I2NC5leGFtcGxlLw==\n",
    "aHR0cDov\n",
    "!!!\n",
    "<a href=\"https://h.example/?a=1&amp;b\">https://t.example/</a>",
    "<area href='http://area.example/'>",
    "<img src=\"cid:x\"><br><p>",
    "&lt;https://e.example/&gt;&#x3C;&nbsp;",
    "<pre>\n</pre>",
    "<!DOCTYPE html PUBLIC \"x\" \"http://dtd.example/\">",
    "<style>a{background:url(http://css.example/)}</style>",
    "\x1b$BF|\x1b(B",
    "\u{0}",
    "\u{ff}\u{fe}",
    "see <https://w.example/\n  x> and https://p.example/a-\n  b",
];

fn message() -> impl Strategy<Value = Vec<u8>> {
    (any::<u8>(), any::<u8>(), prop::collection::vec(0..PIECES.len(), 0..40))
        .prop_map(|(a, b, idx)| {
            let mut v = vec![a, b];
            for i in idx {
                v.extend_from_slice(PIECES[i].as_bytes());
            }
            v
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn mail_invariants_hold(data in message()) {
        mail::fuzz_mail(&data);
    }

    #[test]
    fn mail_invariants_hold_on_noise(data in prop::collection::vec(any::<u8>(), 0..600)) {
        mail::fuzz_mail(&data);
    }
}

/// Inputs the fuzzer found, replayed with its checks.
#[test]
fn mail_fuzz_regressions_replay() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions/mail");
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for entry in rd {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        mail::fuzz_mail(&data);
    }
}

/// The hostile shapes the fuzzer starts from (`fuzz/seeds/mail/`, 4 KiB
/// of each `mail-*` kind of `corpora/gen`), through its checks.
#[test]
fn mail_fuzz_seeds_replay() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds/mail");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        mail::fuzz_mail(&data);
        n += 1;
    }
    assert_eq!(n, 9, "one seed per hostile shape");
}

/// Nesting far deeper than the walker follows: read, not overflowed.
#[test]
fn deep_nesting_is_bounded() {
    let mut m = b"\0\0From: a@example.org\nDate: x\n".to_vec();
    for _ in 0..5000 {
        m.extend_from_slice(b"Content-Type: message/rfc822\n\n");
    }
    m.extend_from_slice(b"Subject: deep\n\nhttp://deep.example/\n");
    mail::fuzz_mail(&m);
    let mut m = b"\0\0From: a@example.org\nDate: x\n".to_vec();
    for i in 0..3000 {
        m.extend_from_slice(
            format!(
                "Content-Type: multipart/mixed; boundary=\"b{i}\"\n\n--b{i}\n"
            )
            .as_bytes(),
        );
    }
    m.extend_from_slice(b"\nhttp://deep.example/\n");
    mail::fuzz_mail(&m);
}
