//! The mbox the mail benchmarks run on: list traffic made from the
//! generated mail text of `corpora/gen/gen.rs`, cut into messages with
//! the headers list servers add, and encoded the ways MUAs send it (most
//! plain, some quoted-printable, some `multipart/alternative` with an
//! HTML part whose links are `<a href>`, a few with a base64
//! attachment), plus every message of `corpora/mail/`. Or, when
//! `URIFIND_MAIL_BENCH` names files (separated by `:`), those files, one
//! after another (a file that is not an mbox is made one message).
//!
//! Also here: what the benchmarks time, [`mail_mode`] and the parse-only
//! floor [`parse_only`]. Shared through `#[path]` by `benches/mail.rs`
//! and the `mailbench` example; depends on `gen.rs` being the sibling
//! module `gen`.
#![allow(dead_code)]

use std::cell::Cell;

use mail_parser::{MessageParser, PartType};
use urifind::mail::{MailFinder, MailItem, Messages};

use super::gen;

/// Mail mode: every message read, every URI found; returns the count.
pub fn mail_mode(mf: &MailFinder, input: &[u8]) -> usize {
    let mut n = 0;
    for msg in Messages::new(input) {
        let msg = msg.expect("reading a slice cannot fail");
        msg.for_each_item(mf, |it| {
            n += usize::from(matches!(it, MailItem::Match(_)));
            true
        });
    }
    n
}

/// The floor: mail-parser's mbox reader and parser (which decodes every
/// part) and the links of HTML parts found by mail mode's HTML tokenizer;
/// no URI scanning. An input that is not an mbox is one message. Returns the
/// number of hrefs.
pub fn parse_only(input: &[u8]) -> usize {
    let parser = MessageParser::default();
    let hrefs = Cell::new(0usize);
    if !input.starts_with(b"From ") {
        floor_message(&parser, input, &hrefs);
        return hrefs.get();
    }
    for msg in mail_parser::mailbox::mbox::MessageIterator::new(input) {
        let msg = msg.expect("reading a slice cannot fail");
        floor_message(&parser, msg.contents(), &hrefs);
    }
    hrefs.get()
}

/// One message of the floor: parsed, the hrefs of its HTML parts counted.
fn floor_message(parser: &MessageParser, msg: &[u8], hrefs: &Cell<usize>) {
    let Some(m) = parser.parse(msg) else { return };
    for part in &m.parts {
        if let PartType::Html(h) = &part.body {
            let n = urifind::mail::html_link_count(h.as_bytes());
            hrefs.set(hrefs.get() + n);
        }
    }
}

/// Appends `s` as quoted-printable (soft breaks at 76 columns).
fn qp(s: &[u8], out: &mut Vec<u8>) {
    let mut col = 0;
    for &b in s {
        if b == b'\n' {
            out.push(b'\n');
            col = 0;
            continue;
        }
        let enc = !(33..=126).contains(&b) && b != b' ' || b == b'=';
        let w = if enc { 3 } else { 1 };
        if col + w > 75 {
            out.extend_from_slice(b"=\n");
            col = 0;
        }
        if enc {
            out.extend_from_slice(format!("={b:02X}").as_bytes());
        } else {
            out.push(b);
        }
        col += w;
    }
}

/// Appends `data` as base64 in lines of 76.
fn base64(data: &[u8], out: &mut Vec<u8>) {
    const A: &[u8; 64] =
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for line in data.chunks(57) {
        for c in line.chunks(3) {
            let n = u32::from(c[0]) << 16
                | u32::from(*c.get(1).unwrap_or(&0)) << 8
                | u32::from(*c.get(2).unwrap_or(&0));
            out.push(A[(n >> 18) as usize & 63]);
            out.push(A[(n >> 12) as usize & 63]);
            out.push(if c.len() > 1 {
                A[(n >> 6) as usize & 63]
            } else {
                b'='
            });
            out.push(if c.len() > 2 { A[n as usize & 63] } else { b'=' });
        }
        out.push(b'\n');
    }
}

/// A plain text as an HTML body: paragraphs, escapes, and every
/// `http(s)://` word as a link.
fn html(text: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(text);
    let mut out =
        String::from("<html><head><style>p{margin:0}</style></head><body>\n");
    for para in text.split("\n\n") {
        out.push_str("<p>");
        for (i, word) in para.split(' ').enumerate() {
            if i > 0 {
                out.push(' ');
            }
            let esc = word
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;");
            if word.starts_with("http://") || word.starts_with("https://") {
                let target = esc.trim_end_matches(['.', ',', ')']);
                out.push_str(&format!("<a href=\"{target}\">{esc}</a>"));
            } else {
                out.push_str(&esc);
            }
        }
        out.push_str("</p>\n");
    }
    out.push_str("</body></html>\n");
    out.into_bytes()
}

fn headers(i: usize, out: &mut Vec<u8>) {
    out.extend_from_slice(
        format!(
            "From list-{i}@lists.example.org Tue Nov  3 10:{:02}:{:02} 2026\n\
Return-Path: <dev-bounces+ana=example.org@lists.example.org>\n\
Received: from mail.lists.example.org (mail.lists.example.org [192.0.2.10])\n\
\tby mx.example.org (Postfix) with ESMTPS id 4F2A{i:06X}\n\
\tfor <ana@example.org>; Tue,  3 Nov 2026 10:00:00 +0100 (CET)\n\
Received: from [192.0.2.77] (host-77.example.net [192.0.2.77])\n\
\tby mail.lists.example.org (Postfix) with ESMTPSA id 9C{i:06X}\n\
\tfor <dev@lists.example.org>; Tue,  3 Nov 2026 09:59:58 +0100 (CET)\n\
DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=example.net; s=s1;\n\
\th=from:to:subject:date:message-id; bh=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=;\n\
\tb=Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4\n\
From: Writer {i} <writer{i}@example.net>\n\
To: dev@lists.example.org\n\
Subject: [dev] topic {i}\n\
Date: Tue, 3 Nov 2026 09:59:58 +0100\n\
Message-ID: <{i}.bench@example.net>\n\
List-Id: Developers <dev.lists.example.org>\n\
List-Unsubscribe: <https://lists.example.org/mailman/options/dev>,\n\
 <mailto:dev-request@lists.example.org?subject=unsubscribe>\n\
List-Archive: <https://lists.example.org/pipermail/dev/>\n\
List-Post: <mailto:dev@lists.example.org>\n",
            i / 60 % 60,
            i % 60
        )
        .as_bytes(),
    );
}

/// Escapes body lines that an mbox would take for separators (mboxrd).
fn escape_from(body: &[u8], out: &mut Vec<u8>) {
    for line in body.split_inclusive(|&b| b == b'\n') {
        let quoted = line.iter().take_while(|&&b| b == b'>').count();
        if line[quoted..].starts_with(b"From ") {
            out.push(b'>');
        }
        out.extend_from_slice(line);
    }
}

/// About `size` bytes of synthetic list traffic plus the corpus.
pub fn synthetic(size: usize, corpus: &[Vec<u8>]) -> Vec<u8> {
    let text =
        gen::generate("mail", size, 2026).expect("the mail kind exists");
    let mut out = Vec::with_capacity(size + size / 4);
    let mut rng = gen::Rng::new(12);
    let mut at = 0;
    let mut i = 0;
    while at < text.len() {
        let len = 1500 + rng.below(5000);
        let mut end = (at + len).min(text.len());
        while end < text.len() && text[end - 1] != b'\n' {
            end += 1;
        }
        let body = &text[at..end];
        at = end;
        i += 1;
        headers(i, &mut out);
        match rng.below(20) {
            0..=11 => {
                out.extend_from_slice(
                    b"Content-Type: text/plain; charset=utf-8\n\n",
                );
                escape_from(body, &mut out);
            }
            12..=15 => {
                out.extend_from_slice(
                    b"MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\
Content-Transfer-Encoding: quoted-printable\n\n",
                );
                let mut q = Vec::new();
                qp(body, &mut q);
                escape_from(&q, &mut out);
            }
            16..=18 => {
                out.extend_from_slice(
                    b"MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=\"=_alt\"\n\n\
--=_alt\nContent-Type: text/plain; charset=utf-8\n\
Content-Transfer-Encoding: quoted-printable\n\n",
                );
                let mut q = Vec::new();
                qp(body, &mut q);
                escape_from(&q, &mut out);
                out.extend_from_slice(
                    b"\n--=_alt\nContent-Type: text/html; charset=utf-8\n\
Content-Transfer-Encoding: quoted-printable\n\n",
                );
                let mut q = Vec::new();
                qp(&html(body), &mut q);
                escape_from(&q, &mut out);
                out.extend_from_slice(b"\n--=_alt--\n");
            }
            _ => {
                out.extend_from_slice(
                    b"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"=_mix\"\n\n\
--=_mix\nContent-Type: text/plain; charset=utf-8\n\n",
                );
                escape_from(body, &mut out);
                out.extend_from_slice(
                    b"\n--=_mix\nContent-Type: application/pdf; name=\"a.pdf\"\n\
Content-Transfer-Encoding: base64\n\n",
                );
                let blob: Vec<u8> =
                    (0..20_000).map(|_| rng.below(256) as u8).collect();
                base64(&blob, &mut out);
                out.extend_from_slice(b"--=_mix--\n");
            }
        }
        out.push(b'\n');
    }
    for (k, m) in corpus.iter().enumerate() {
        as_mbox_message(m, 100_000 + k, &mut out);
    }
    out
}

/// Appends `m` as an mbox message (as it is, when it is an mbox).
pub fn as_mbox_message(m: &[u8], i: usize, out: &mut Vec<u8>) {
    if m.starts_with(b"From ") {
        out.extend_from_slice(m);
    } else {
        out.extend_from_slice(
            format!("From bench-{i}@example.org Tue Nov  3 10:00:00 2026\n")
                .as_bytes(),
        );
        escape_from(m, out);
    }
    if !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    out.push(b'\n');
}

/// The benchmark's mbox: the files of `URIFIND_MAIL_BENCH`, or the
/// synthetic traffic of about `size` bytes with the corpus in
/// `corpus_dir`.
pub fn input(size: usize, corpus_dir: &std::path::Path) -> (String, Vec<u8>) {
    if let Ok(files) = std::env::var("URIFIND_MAIL_BENCH") {
        let mut out = Vec::new();
        for (i, f) in files.split(':').filter(|f| !f.is_empty()).enumerate() {
            let data = std::fs::read(f).unwrap_or_else(|e| panic!("{f}: {e}"));
            as_mbox_message(&data, i, &mut out);
        }
        return ("files".into(), out);
    }
    let mut corpus = Vec::new();
    if let Ok(rd) = std::fs::read_dir(corpus_dir) {
        let mut paths: Vec<_> = rd.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths {
            if p.extension().is_some_and(|e| e == "eml" || e == "mbox") {
                corpus.push(std::fs::read(&p).unwrap());
            }
        }
    }
    ("lists".into(), synthetic(size, &corpus))
}
