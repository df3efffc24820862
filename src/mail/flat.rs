//! A multipart message whose parts are all plain leaves, split here part
//! by part instead of parsed whole.
//!
//! `mail-parser` keeps a record of every part of the message it parses,
//! some hundreds of bytes each: a message of a million small parts
//! costs far more than the message. When the top-level multipart is
//! plain, its parts are found here with a substring search and the
//! parser reads one part's header block at a time, so that memory is
//! bounded by the largest part and time is linear.
//!
//! Plain means that the parser, given the whole message, would find
//! exactly these parts: every delimiter starts a line and is followed by
//! nothing but blanks and the line break (or by `--` for the closing
//! one; without it, the last part runs to the end of the message, as
//! the parser reads it); every part's header block ends with a
//! blank line before the next delimiter; no part's header block says
//! `multipart` or `message` (no nesting); the multipart is no digest
//! (whose parts default to messages). Anything else is left to the full
//! parse, which reads broken and nested structure as it always has.
//! Both walks are compared on crafted and real messages in the tests.

use memchr::memmem;

/// One part: its header block starts at `header` and ends at or before
/// `head_end` (the end of the first blank line), and the delimiter
/// after it starts at `next` (none after the last part of a multipart
/// never closed: it runs to the end of the message).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) header: usize,
    pub(crate) head_end: usize,
    pub(crate) next: Option<usize>,
}

/// The parts of the multipart whose body starts at `body` with boundary
/// `boundary`, when it is plain; `None` otherwise. Linear in the
/// message: every byte is searched once for the delimiter and once for
/// a blank line. The parts are found once, all of them checked before
/// any is read, and kept packed (see [`Spans`]).
pub(crate) fn parts(
    data: &[u8],
    body: usize,
    boundary: &[u8],
) -> Option<Spans> {
    let mut parts = Parts::new(data, body, boundary)?;
    let mut spans = Spans::default();
    parts.by_ref().for_each(|s| spans.push(s));
    spans.flush();
    (!parts.failed).then_some(spans)
}

/// Spans, in order, packed: each as the distances from its header to
/// the end of the span before, from its header to the end of its
/// header block and from there to its delimiter (LEB128), and a run of
/// spans with the same three distances as those and their number. A
/// run of equal parts costs a few bytes, any part at most about four.
#[derive(Debug, Default)]
pub(crate) struct Spans {
    packed: Vec<u8>,
    /// Where the next run is read from in `packed`.
    at: usize,
    /// The run being pushed (not packed yet), or read: its distances
    /// and how many spans it has left.
    run: Option<([usize; 3], usize)>,
    /// The end of the last span pushed, and of the last read (its
    /// delimiter, or the end of its header block for the last).
    pushed: usize,
    read: usize,
}

impl Spans {
    /// Adds `s`, which starts after the last span's end.
    fn push(&mut self, s: Span) {
        let next = s.next.map_or(0, |n| n - s.head_end + 1);
        let d = [s.header - self.pushed, s.head_end - s.header, next];
        self.pushed = s.next.unwrap_or(s.head_end);
        match &mut self.run {
            Some((r, n)) if *r == d => *n += 1,
            _ => {
                self.flush();
                self.run = Some((d, 1));
            }
        }
    }

    /// Packs the run being pushed.
    fn flush(&mut self) {
        if let Some(([a, b, c], n)) = self.run.take() {
            for v in [a, b, c, n] {
                self.put(v);
            }
        }
    }

    fn put(&mut self, mut v: usize) {
        while v >= 0x80 {
            self.packed.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.packed.push(v as u8);
    }

    fn get(&mut self) -> usize {
        let (mut v, mut shift) = (0, 0);
        loop {
            let b = self.packed[self.at];
            self.at += 1;
            v |= usize::from(b & 0x7f) << shift;
            if b < 0x80 {
                return v;
            }
            shift += 7;
        }
    }
}

impl Iterator for Spans {
    type Item = Span;

    fn next(&mut self) -> Option<Span> {
        let ([a, b, c], left) = match self.run.take() {
            Some((d, n)) if n > 0 => (d, n),
            _ if self.at < self.packed.len() => {
                let d = [self.get(), self.get(), self.get()];
                (d, self.get())
            }
            _ => return None,
        };
        self.run = Some(([a, b, c], left - 1));
        let header = self.read + a;
        let head_end = header + b;
        let next = (c > 0).then(|| head_end + c - 1);
        self.read = next.unwrap_or(head_end);
        Some(Span { header, head_end, next })
    }
}

/// The parts of a plain multipart, in order, as they are checked (see
/// [`parts`]).
pub(crate) struct Parts<'d> {
    data: &'d [u8],
    find: memmem::Finder<'static>,
    /// Where the next part's header block starts; none after the last.
    header: Option<usize>,
    failed: bool,
}

impl<'d> Parts<'d> {
    fn new(data: &'d [u8], body: usize, boundary: &[u8]) -> Option<Self> {
        if boundary.is_empty() {
            return None;
        }
        let mut delim = Vec::with_capacity(boundary.len() + 2);
        delim.extend_from_slice(b"--");
        delim.extend_from_slice(boundary);
        let find = memmem::Finder::new(&delim).into_owned();
        let first = body + find.find(&data[body..])?;
        if !(first == body || data[first - 1] == b'\n') {
            return None;
        }
        let header = line_break_after(data, first + delim.len());
        Some(Parts { data, find, header: Some(header?), failed: false })
    }

    fn fail(&mut self) -> Option<Span> {
        self.failed = true;
        self.header = None;
        None
    }
}

impl Iterator for Parts<'_> {
    type Item = Span;

    fn next(&mut self) -> Option<Span> {
        let data = self.data;
        let header = self.header.take()?;
        // Both searches stop at the next delimiter: linear in all.
        let next = self.find.find(&data[header..]).map(|k| header + k);
        let end = next.unwrap_or(data.len());
        let Some(head_end) = blank_line_end(&data[..end], header) else {
            // A last part cut inside its header block: the parser reads
            // to the end of the message for its headers, and drops it.
            return if next.is_none() { None } else { self.fail() };
        };
        if next.is_some_and(|n| data[n - 1] != b'\n') {
            return self.fail();
        }
        let head = &data[header..head_end];
        if contains_ci(head, &[b"multipart", b"message"]) {
            return self.fail();
        }
        if let Some(n) = next {
            let after = n + self.find.needle().len();
            if !data[after..].starts_with(b"--") {
                self.header = line_break_after(data, after);
                if self.header.is_none() {
                    return self.fail();
                }
            }
        }
        Some(Span { header, head_end, next })
    }
}

/// Where the body of a part whose body starts at `body` ends, its
/// delimiter at `next` (a line start): before the line break that
/// precedes the delimiter, when that break is part of the body; with no
/// delimiter, at the end of the message.
pub(crate) fn body_end(
    data: &[u8],
    body: usize,
    next: Option<usize>,
) -> usize {
    let Some(next) = next else { return data.len() };
    if next <= body {
        return body;
    }
    let nl = next - 1;
    if nl > body && data[nl - 1] == b'\r' {
        nl - 1
    } else {
        nl
    }
}

/// After a delimiter at `at`: blanks (and CRs), then a line break; where
/// the next line starts.
fn line_break_after(data: &[u8], mut at: usize) -> Option<usize> {
    while at < data.len() && matches!(data[at], b' ' | b'\t' | b'\r') {
        at += 1;
    }
    (data.get(at) == Some(&b'\n')).then_some(at + 1)
}

/// The end of the first empty line of `data` from `from` on (a line
/// start), where a header block ends at the latest.
pub(crate) fn blank_line_end(data: &[u8], from: usize) -> Option<usize> {
    // Line by line: a header block is a few short lines, too short for a
    // substring search to pay for its setup.
    let mut at = from;
    loop {
        let rest = &data[at..];
        if rest.starts_with(b"\n") {
            return Some(at + 1);
        }
        if rest.starts_with(b"\r\n") {
            return Some(at + 2);
        }
        at += memchr::memchr(b'\n', rest)? + 1;
    }
}

/// Whether `hay` holds one of `needles` (lower case, starting with the
/// same letter) in any case: one search for that letter.
fn contains_ci(hay: &[u8], needles: &[&[u8]]) -> bool {
    let first = needles[0][0];
    memchr::memchr2_iter(first, first.to_ascii_uppercase(), hay).any(|k| {
        needles.iter().any(|n| {
            hay[k..].get(..n.len()).is_some_and(|w| w.eq_ignore_ascii_case(n))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::mime::read_as;

    /// What reading `data` finds, written out, with or without the
    /// split of plain multiparts.
    fn walk(data: &[u8], split: bool, mf: &crate::mail::MailFinder) -> String {
        let mut sink = crate::mail::found::Collect::default();
        read_as(data, mf, &mut sink, split);
        format!("{:?} {:?}", sink.id, sink.found)
    }

    #[test]
    fn plain_multiparts_split_as_the_parser_reads_them() {
        let mf = crate::mail::MailFinder::new(
            crate::Finder::builder().rejected(true).build().unwrap(),
        )
        .html_resources(true);
        let mut msgs: Vec<Vec<u8>> = Vec::new();
        let head = "From: a@example.org\nMessage-ID: <x@example.org>\n\
            Content-Type: multipart/alternative; boundary=\"=_b\"\n\n";
        let body = "preamble http://pre.example/\n--=_b\n\
            Content-Type: text/plain; charset=iso-8859-1\n\
            Content-Transfer-Encoding: quoted-printable\n\n\
            caf=E9 http://a.example/?x=3D1 http://same.example/\n--=_b  \n\
            Content-Type: text/html\n\n<a href=\"http://t.example/\">\
            http://s.example/</a> http://same.example/\n\n--=_b\n\
            \nno headers http://n.example/\n--=_b\n\
            Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n\
            aHR0cDovL2I2NC5leGFtcGxlLw==\n--=_b--\nepilogue http://epi.example/\n";
        let one = format!("{head}{body}");
        msgs.push(one.clone().into_bytes());
        msgs.push(one.replace('\n', "\r\n").into_bytes());
        msgs.push(one.replace("alternative", "mixed").into_bytes());
        msgs.push(one.replace("alternative", "digest").into_bytes());
        msgs.push(one.replace("text/html", "message/rfc822").into_bytes());
        msgs.push(one.replace("--=_b  \n", "--=_bx\n").into_bytes());
        // Cut anywhere, so that parts are lost, headers end early and
        // the closing delimiter is missing.
        let mixed = one.replace("alternative", "mixed");
        for cut in (head.len()..mixed.len()).step_by(3) {
            msgs.push(mixed.as_bytes()[..cut].to_vec());
        }
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/mail");
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_some_and(|x| x == "eml") {
                msgs.push(std::fs::read(path).unwrap());
            }
        }
        let mut split = 0;
        for m in &msgs {
            let (a, b) = (walk(m, true, &mf), walk(m, false, &mf));
            assert_eq!(a, b, "{}", String::from_utf8_lossy(m));
            let mut sink = crate::mail::found::Collect::default();
            split += usize::from(read_as(m, &mf, &mut sink, true));
        }
        // Most were split; the digest, the nested message and the
        // delimiter with text after it were not.
        assert!(split > msgs.len() / 2, "{split} of {}", msgs.len());
    }

    /// Parts to build multiparts of: header blocks that repeat with
    /// other bodies, silent and not, read quickly, by the parser or
    /// skipped.
    const PARTS: [(&str, &str); 16] = [
        ("Content-Type: text/plain\n\n", "http://a.example/x\n"),
        (
            "Content-Type: text/plain\n\n",
            "see http://b.example/y (www.c.example)",
        ),
        ("Content-Type: text/plain\n\n", ""),
        (
            "Content-Type: text/plain; charset=iso-8859-1\n\
             Content-Transfer-Encoding: quoted-printable\n\n",
            "caf=E9 http://q.example/?a=3D1 http://soft.exa=\nmple/\n",
        ),
        (
            "Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n",
            "aHR0cDovL2I2NC5leGFtcGxlLw==\n",
        ),
        (
            "Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n",
            "aHR0cDov!!! http://bad.example/\n",
        ),
        (
            "Content-Type: text/html\n\n",
            "<a href=\"http://t.example/\">http://s.example/</a>\n",
        ),
        (
            "X-Link: http://hdr.example/\nContent-Type: text/plain\n\n",
            "http://body.example/\n",
        ),
        ("\n", "http://n.example/\n"),
        ("Content-Type: image/png\n\n", "http://skip.example/\n"),
        (
            "Content-Type: text/plain; charset=x-nobody-knows\n\n",
            "http://u.example/\n",
        ),
        ("not a field\nContent-Type: text/plain\n\n", "http://nf.example/\n"),
        ("Content-Type: text/plain (a comment)\n\n", "http://cm.example/\n"),
        ("Content-Type: text/plain\r\n\r\n", "http://crlf.example/\r\n"),
        (
            "Subject: =?utf-8?q?http=3A//ew.example/?=\n\n",
            "http://ew2.example/\n",
        ),
        (
            "Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n",
            "\n",
        ),
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2_000))]

        /// Any plain multipart made of those parts, in any order and
        /// repeated: split part by part (repeated header blocks read
        /// once), it gives what the full parse gives.
        #[test]
        fn split_multiparts_of_repeated_parts_read_as_parsed(
            picks in proptest::collection::vec(0..PARTS.len(), 1..12),
            alt: bool,
            closed: bool,
        ) {
            let mf = crate::mail::MailFinder::new(
                crate::Finder::builder().rejected(true).build().unwrap(),
            )
            .html_resources(true);
            let kind = if alt { "alternative" } else { "mixed" };
            let mut m = format!(
                "From: a@example.org\nContent-Type: multipart/{kind}; boundary=b\n\n"
            );
            for &k in &picks {
                let (head, body) = PARTS[k];
                m.push_str(&format!("--b\n{head}{body}\n"));
            }
            if closed {
                m.push_str("--b--\n");
            }
            let m = m.into_bytes();
            let mut sink = crate::mail::found::Collect::default();
            proptest::prop_assert!(read_as(&m, &mf, &mut sink, true));
            proptest::prop_assert_eq!(walk(&m, true, &mf), walk(&m, false, &mf));
        }
    }

    /// Every sample message that is a multipart, each of its parts given
    /// twice (so that every header block follows itself): split part by
    /// part, it reads as the full parse reads it.
    #[test]
    fn sample_multiparts_with_their_parts_repeated_read_as_parsed() {
        let mf = crate::mail::MailFinder::new(
            crate::Finder::builder().rejected(true).build().unwrap(),
        )
        .html_resources(true);
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/mail");
        let (mut doubled, mut split) = (0, 0);
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_none_or(|x| x != "eml") {
                continue;
            }
            let data = std::fs::read(&path).unwrap();
            let Some(msg) = mf.parser.parse(&data[..]) else { continue };
            let boundary = msg.parts[0]
                .headers
                .iter()
                .find_map(|h| h.value.as_content_type())
                .and_then(|c| c.attribute("boundary"))
                .map(|b| format!("\n--{b}"));
            let Some(b) = boundary else { continue };
            let find = |n: &str| memmem::find(&data, n.as_bytes());
            let (Some(first), Some(close)) =
                (find(&b), find(&format!("{b}--")))
            else {
                continue;
            };
            // Each part twice in a row: its header block follows
            // itself.
            let mut m = data[..first + 1].to_vec();
            let at: Vec<usize> = memmem::find_iter(&data[first..=close], &b)
                .map(|k| first + k + 1)
                .collect();
            for w in at.windows(2) {
                m.extend_from_slice(&data[w[0]..w[1]]);
                m.extend_from_slice(&data[w[0]..w[1]]);
            }
            m.extend_from_slice(&data[close + 1..]);
            doubled += 1;
            let mut sink = crate::mail::found::Collect::default();
            split += usize::from(read_as(&m, &mf, &mut sink, true));
            assert_eq!(
                walk(&m, true, &mf),
                walk(&m, false, &mf),
                "{}",
                path.display()
            );
        }
        assert!(
            doubled >= 8 && split >= 4,
            "{doubled} doubled, {split} split"
        );
    }

    #[test]
    fn plain_parts_are_found() {
        let m = b"pre\n--b\nContent-Type: text/plain\n\none\n--b \r\n\ntwo\r\n--b--\nepi";
        let p: Vec<Span> = parts(m, 0, b"b").unwrap().collect();
        assert_eq!(p.len(), 2);
        assert_eq!(
            &m[p[0].header..p[0].head_end],
            b"Content-Type: text/plain\n\n"
        );
        assert_eq!(p[1].head_end, p[1].header + 1);
        let next = p[0].next.unwrap();
        assert_eq!(body_end(m, p[0].head_end, Some(next)), next - 1);
        assert_eq!(
            &m[p[1].head_end..body_end(m, p[1].head_end, p[1].next)],
            b"two"
        );
        // The body that is only the line break before the delimiter.
        assert_eq!(body_end(b"\n--b", 0, Some(1)), 0);
        // Never closed: the last part runs to the end.
        let m = b"--b\n\none\n--b\n\ntwo\n";
        let p: Vec<Span> = parts(m, 0, b"b").unwrap().collect();
        assert_eq!((p.len(), p[1].next), (2, None));
        assert_eq!(body_end(m, p[1].head_end, None), m.len());
    }

    #[test]
    fn spans_come_back_as_pushed() {
        let all = [
            Span { header: 4, head_end: 4 + 1, next: Some(5) },
            Span { header: 200, head_end: 300, next: Some(70_000) },
            Span { header: 70_005, head_end: 70_006, next: Some(1 << 40) },
            Span { header: (1 << 40) + 9, head_end: (1 << 41), next: None },
        ];
        let mut spans = Spans::default();
        all.iter().for_each(|&s| spans.push(s));
        spans.flush();
        // One byte each for the small distances and the run's length.
        assert_eq!(spans.packed[..4], [4, 1, 1, 1]);
        assert_eq!(spans.collect::<Vec<_>>(), all);
        // Equal parts, then others: two runs.
        let mut all = Vec::new();
        let mut spans = Spans::default();
        let mut at = 0;
        for k in 0..1000 {
            let len = if k < 900 { 40 } else { 40 + k % 3 };
            let s = Span {
                header: at + 4,
                head_end: at + 30,
                next: Some(at + len),
            };
            at += len;
            spans.push(s);
            all.push(s);
        }
        spans.flush();
        assert!(spans.packed.len() < 8 + 100 * 4, "{}", spans.packed.len());
        assert_eq!(spans.collect::<Vec<_>>(), all);
    }

    #[test]
    fn header_blocks_end_at_their_first_empty_line() {
        assert_eq!(blank_line_end(b"a\n\nb", 0), Some(3));
        assert_eq!(blank_line_end(b"a\r\n\r\nb", 0), Some(5));
        assert_eq!(blank_line_end(b"\nx", 0), Some(1));
        assert_eq!(blank_line_end(b"x\n\r\n", 2), Some(4));
        // A line of blanks is no empty line; neither is a lone CR.
        assert_eq!(blank_line_end(b"a\n \n\r\r\n\n", 0), Some(8));
        assert_eq!(blank_line_end(b"a\nb\n", 0), None);
        assert_eq!(blank_line_end(b"", 0), None);
    }

    #[test]
    fn anything_unusual_is_left_to_the_parser() {
        let nest: [&[u8]; 2] = [b"multipart", b"message"];
        assert!(contains_ci(b"Content-Type: MultiPart/x", &nest));
        assert!(contains_ci(b"Content-Type: x; MESSAGE", &nest));
        assert!(!contains_ci(b"Content-Type: text/plain; m", &nest));
        // A last part cut inside its header block is dropped.
        let p = parts(b"--b\n\none\n--b\nContent-Type: te", 0, b"b");
        assert_eq!(p.map(Iterator::count), Some(1));
        let cases: [&[u8]; 7] = [
            // A header block that runs into the next delimiter.
            b"--b\n\none\n--b\nContent-Type: text/plain\n--b\n\n",
            // A delimiter inside a line.
            b"--b\n\none --b\n\n--b--\n",
            // Text after a delimiter.
            b"--b\n\none\n--bx\n\n--b--\n",
            // A nested multipart, a nested message.
            b"--b\nContent-Type: multipart/mixed; boundary=c\n\n--b--\n",
            b"--b\nContent-Type: Message/rfc822\n\n--b--\n",
            // No blank line before the next delimiter.
            b"--b\nContent-Type: text/plain\n--b--\n",
            // No delimiter at all.
            b"just text\n",
        ];
        for c in cases {
            assert!(
                parts(c, 0, b"b").is_none(),
                "{}",
                String::from_utf8_lossy(c)
            );
        }
    }
}
