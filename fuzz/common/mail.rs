//! Invariants of mail mode, checked on arbitrary input. Shared (through
//! `#[path]`) by the cargo-fuzz target `fuzz_targets/mail.rs` and the
//! stable-toolchain test `tests/mail_prop.rs`; every check panics with a
//! message on failure. Needs `invariants.rs` as the sibling module
//! `invariants`.
#![allow(dead_code)]

use std::io;

use urifind::grammar::{IriValidator, Validator};
use urifind::mail::{
    judged_len, message_ranges, next_message_start, MailFinder, MailItem,
    Messages, LOOKBEHIND,
};

use super::invariants::{builder_from_byte, ShortReader};

/// The `mail` fuzz target: byte 0 chooses the finder's options (see
/// `builder_from_byte`); byte 1 chooses HTML resources (bit 0), a small
/// message limit of 600 bytes (bit 1), and a read size for a second pass
/// (bits 2-7, plus one); the rest is the input. No panic; every reported
/// URI validates; every span lies inside the input, the URI's inside the
/// match's; messages come in order with limits kept; reading in small
/// pieces gives the same items.
pub fn fuzz_mail(data: &[u8]) {
    if data.len() < 2 {
        return;
    }
    let (fb, g) = builder_from_byte(data[0]);
    let mf =
        MailFinder::new(fb.build().unwrap()).html_resources(data[1] & 1 != 0);
    let limit = if data[1] & 2 != 0 { 600 } else { usize::MAX };
    let piece = (data[1] >> 2) as usize + 1;
    let input = &data[2..];
    let whole = read_all(&mf, io::Cursor::new(input), limit, input.len(), g);
    let pieces = read_all(
        &mf,
        ShortReader::new(input, vec![piece]),
        limit,
        input.len(),
        g,
    );
    assert!(whole == pieces, "reads of {piece} bytes give other items");
    check_ranges(input, piece);
}

/// The message ranges of the input held in memory are those `Messages`
/// reads (one splitter), and searching windows of `piece` bytes, as a
/// reader of byte ranges does, finds the same message starts.
pub fn check_ranges(input: &[u8], piece: usize) {
    let ranges: Vec<_> = message_ranges(input).collect();
    let streamed: Vec<_> = Messages::new(input)
        .map(|m| {
            let m = m.expect("reading a slice cannot fail");
            let env = m.envelope().map_or(0, <[u8]>::len);
            let s = m.raw_start() - env;
            s..s + env + m.raw_len()
        })
        .collect();
    assert_eq!(ranges, streamed, "message_ranges and Messages differ");
    if !input.starts_with(b"From ") {
        return;
    }
    let mut starts = Vec::new();
    let (mut w, mut search) = (0, 1);
    let mut end = piece.min(input.len());
    loop {
        let window = &input[w..end];
        let at_end = end == input.len();
        let judged = judged_len(window, at_end);
        let mut from = search - w;
        while let Some(p) = next_message_start(window, from) {
            if p >= judged {
                break;
            }
            starts.push(w + p);
            from = p + 1;
        }
        if at_end {
            break;
        }
        search = search.max(w + judged);
        w = search.saturating_sub(LOOKBEHIND).max(w);
        end = (end.max(w) + piece).min(input.len());
    }
    let want: Vec<_> = ranges.iter().skip(1).map(|r| r.start).collect();
    assert_eq!(starts, want, "windows of {piece} bytes find other starts");
}

/// Reads every message of `rdr` and checks what comes out.
fn read_all<R: io::Read>(
    mf: &MailFinder,
    rdr: R,
    limit: usize,
    len: usize,
    g: urifind::Grammar,
) -> Vec<MailItem> {
    let v = Validator::new(g).absolute(true).scheme_rules(true);
    // (With IRIs, bit 6 of the options: RFC 3987, the URI form under v.)
    let iri = IriValidator::new().absolute(true).mapped(v);
    let mut out = Vec::new();
    let mut prev_end = 0usize;
    for (i, msg) in Messages::new(rdr)
        .max_message_size(limit)
        .count_lines(true)
        .enumerate()
    {
        let msg = msg.expect("reading a slice cannot fail");
        assert_eq!(msg.index(), i + 1, "message numbers");
        assert!(msg.raw_start() >= prev_end, "messages overlap");
        let end = msg.raw_start() + msg.raw_len();
        assert!(end <= len, "message past the input");
        assert!(msg.data().len() <= limit, "message limit not kept");
        prev_end = end;
        for item in msg.items(mf) {
            match &item {
                MailItem::Match(m) => {
                    let valid = if m.uri().is_ascii() {
                        v.is_valid(m.uri())
                    } else {
                        iri.is_valid(m.uri())
                    };
                    assert!(
                        valid,
                        "invalid URI reported: {:?}",
                        String::from_utf8_lossy(m.uri())
                    );
                    let (s, u) = (m.span(), m.uri_span());
                    assert!(s.start < s.end && s.end <= end, "span {s:?}");
                    assert!(
                        s.start >= msg.raw_start(),
                        "span {s:?} before its message"
                    );
                    assert!(
                        s.start <= u.start
                            && u.end <= s.end
                            && u.start < u.end,
                        "uri span {u:?} outside {s:?}"
                    );
                    assert_eq!(m.origin().message(), msg.index());
                    let p = m.position().expect("lines counted");
                    assert!(p.line >= 1 && p.column >= 1);
                }
                MailItem::Rejected(r) => {
                    let s = r.as_rejected().span();
                    assert!(
                        s.start <= s.end && s.end <= end,
                        "rejected {s:?}"
                    );
                }
                MailItem::Note(n) => {
                    let s = n.span();
                    assert!(s.start <= s.end && s.end <= end, "note {s:?}");
                }
                other => panic!(
                    "a kind of item this check does not know: {other:?}"
                ),
            }
            out.push(item);
        }
    }
    out
}
