//! Mail mode over the message corpus in `corpora/mail/`: every
//! `NAME.eml` or `NAME.mbox` must yield exactly the URIs of
//! `NAME.expected`, in order; every match's raw span must hold the URI
//! (after undoing what the part's encoding did to it); reading the input
//! in small pieces must change nothing. Also: a plain message gives what
//! the raw scanner gives (every case of `corpora/cases/` wrapped in a
//! header block), and a few facts about single messages (contexts, part
//! paths, `shown`, notes).

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use urifind::mail::{MailFinder, MailItem, MailMatch, Messages};
use urifind::Finder;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/mail")
}

/// A reader that hands out at most `n` bytes per call.
struct Pieces<'a>(&'a [u8], usize);

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.1.min(buf.len()).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

fn items(input: &[u8], piece: usize) -> Vec<MailItem> {
    let mf = MailFinder::new(Finder::new());
    let mut out = Vec::new();
    for msg in Messages::new(Pieces(input, piece)).count_lines(true) {
        out.extend(msg.unwrap().items(&mf));
    }
    out
}

fn matches(input: &[u8]) -> Vec<MailMatch> {
    items(input, usize::MAX)
        .into_iter()
        .filter_map(|it| match it {
            MailItem::Match(m) => Some(m),
            _ => None,
        })
        .collect()
}

/// Undoes quoted-printable (escapes and soft breaks).
fn unqp(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'=' {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(h), Some(l)) = (
                s.get(i + 1).and_then(|&b| hex(b)),
                s.get(i + 2).and_then(|&b| hex(b)),
            ) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
            if s.get(i + 1) == Some(&b'\n') {
                i += 2;
                continue;
            }
            if s.get(i + 1..i + 3) == Some(b"\r\n") {
                i += 3;
                continue;
            }
        }
        out.push(s[i]);
        i += 1;
    }
    out
}

/// Undoes the few HTML character references the corpus uses.
fn unhtml(s: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(s)
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .into_bytes()
}

/// Undoes an RFC 2047 `Q` word's escapes.
fn unq(s: &[u8]) -> Vec<u8> {
    unqp(s).into_iter().map(|b| if b == b'_' { b' ' } else { b }).collect()
}

/// Whether `uri` can be read off `raw`: its bytes in order, the first
/// and last bytes at the ends (what lies between may be whitespace,
/// quote prefixes and markup the rules removed).
fn readable(uri: &[u8], raw: &[u8]) -> bool {
    if uri.is_empty() || raw.first() != uri.first() || raw.last() != uri.last()
    {
        return false;
    }
    let mut it = raw.iter();
    uri.iter().all(|b| it.any(|r| r == b))
}

/// Checks every match's spans against the input.
fn check_spans(name: &str, input: &[u8], ms: &[MailMatch]) -> Vec<String> {
    let mut bad = Vec::new();
    for m in ms {
        let (s, u) = (m.span(), m.uri_span());
        let ok_bounds = s.start <= u.start
            && u.end <= s.end
            && s.end <= input.len()
            && u.start < u.end;
        if !ok_bounds {
            bad.push(format!("{name}: spans {s:?} {u:?} out of bounds"));
            continue;
        }
        let raw = &input[u.start..u.end];
        let o = m.origin();
        if !raw.contains(&b':') {
            // Base64 (of a part, an encoded word or an encoded message
            // around the part): the unit tests of the map check those.
            continue;
        }
        let decoded = match o.encoding() {
            "quoted-printable" => unqp(raw),
            _ if m.context().name().starts_with("header:") => unq(raw),
            _ => raw.to_vec(),
        };
        let decoded = if m.context().name().starts_with("html") {
            unhtml(&decoded)
        } else {
            decoded
        };
        if !readable(m.uri(), &decoded) {
            bad.push(format!(
                "{name}: {} not in its raw span {:?}",
                String::from_utf8_lossy(m.uri()),
                String::from_utf8_lossy(raw)
            ));
        }
    }
    bad
}

#[test]
fn corpus_messages_give_their_expected_uris() {
    let mut failures = Vec::new();
    let mut n = 0;
    let mut entries: Vec<_> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml" || e == "mbox"))
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let input = std::fs::read(&path).unwrap();
        let expected =
            std::fs::read_to_string(path.with_extension("expected"))
                .unwrap_or_else(|_| panic!("{name} has no .expected"));
        let want: Vec<&str> =
            expected.lines().filter(|l| !l.trim().is_empty()).collect();
        let ms = matches(&input);
        let got: Vec<String> = ms
            .iter()
            .map(|m| String::from_utf8_lossy(m.uri()).into_owned())
            .collect();
        if got != want {
            failures
                .push(format!("{name}:\n  want {want:#?}\n  got  {got:#?}"));
        }
        failures.extend(check_spans(&name, &input, &ms));
        // The same items whatever the read sizes.
        let whole = items(&input, usize::MAX);
        for piece in [1, 7, 4096] {
            if items(&input, piece) != whole {
                failures.push(format!(
                    "{name}: read in pieces of {piece} differs"
                ));
            }
        }
        n += 1;
    }
    assert!(n >= 16, "only {n} corpus messages");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A header block that makes any text a plain message.
const PLAIN_HEADERS: &[u8] = b"From: Ana <ana@example.org>\n\
Date: Tue, 3 Nov 2026 10:00:00 +0100\n\
Message-ID: <plain@example.org>\n\
Subject: plain\n\n";

#[test]
fn a_plain_message_gives_what_the_raw_scanner_gives() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/cases");
    let finder = Finder::new();
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    for path in paths {
        let body = std::fs::read(&path).unwrap();
        let mut input = PLAIN_HEADERS.to_vec();
        input.extend_from_slice(&body);
        let raw: Vec<_> = finder
            .find_iter(&input)
            .map(|m| (m.uri().to_vec(), m.span(), m.uri_span()))
            .collect();
        let mail: Vec<_> = matches(&input)
            .into_iter()
            .map(|m| {
                let s = m.span();
                let u = m.uri_span();
                (m.uri().to_vec(), s.start..s.end, u.start..u.end)
            })
            .collect();
        if raw != mail {
            failures.push(path.display().to_string());
        }
        checked += 1;
    }
    assert!(checked > 300);
    assert!(
        failures.is_empty(),
        "mail mode differs from raw on {failures:#?}"
    );
}

fn one(input: &[u8]) -> Vec<MailMatch> {
    matches(input)
}

#[test]
fn contexts_parts_and_origins() {
    let input =
        std::fs::read(corpus_dir().join("mailman-digest.eml")).unwrap();
    let ms = one(&input);
    let got: Vec<(String, String, Option<&str>)> = ms
        .iter()
        .map(|m| {
            (
                m.origin().part().to_string(),
                m.context().name(),
                m.origin().message_id(),
            )
        })
        .collect();
    let id = Some("mailman.3.1793790001.1234.dev@lists.example.org");
    assert_eq!(
        got,
        [
            (String::new(), "header:List-Archive".into(), id),
            ("1".into(), "text".into(), id),
            ("2.1.1".into(), "text".into(), id),
            ("2.2.1".into(), "text".into(), id),
            ("3".into(), "text".into(), id),
        ]
    );
    assert_eq!(ms[2].origin().encoding(), "quoted-printable");
    assert_eq!(ms[2].origin().content_type(), "text/plain");
}

#[test]
fn link_text_showing_another_uri_is_flagged() {
    let input =
        std::fs::read(corpus_dir().join("html-newsletter.eml")).unwrap();
    let ms = one(&input);
    let bad = ms
        .iter()
        .find(|m| m.uri().starts_with(b"http://login-example.com"))
        .unwrap();
    assert_eq!(bad.context().name(), "html-href");
    assert_eq!(bad.shown(), Some(&b"https://www.example.com/account"[..]));
    // A gateway's wrapper whose text is its own target shows no other
    // link (CONTRACT section 8.4); the text is still found.
    let input =
        std::fs::read(corpus_dir().join("outlook-safelinks.eml")).unwrap();
    let ms = one(&input);
    assert_eq!(ms[0].context().name(), "text");
    assert_eq!(ms[0].parts_seen(), ["1", "2"]);
    assert_eq!(ms[0].shown(), None);
    assert_eq!(ms[1].uri(), b"https://contracts.example.com/c/88");
    // In an alternative, the flag survives the plain part having the
    // wrapper first, when the text shows another host than the target.
    let input =
        std::fs::read(corpus_dir().join("../links/outlook-safelinks.eml"))
            .unwrap();
    let ms = one(&input);
    let login = ms
        .iter()
        .find(|m| m.uri().windows(17).any(|w| w == b"login.example.net"))
        .unwrap();
    assert_eq!(login.parts_seen(), ["1", "2"]);
    assert_eq!(login.shown(), Some(&b"https://share.example.org/"[..]));
}

#[test]
fn broken_parts_are_noted() {
    let input = std::fs::read(corpus_dir().join("broken-parts.eml")).unwrap();
    let notes: Vec<String> = items(&input, usize::MAX)
        .into_iter()
        .filter_map(|it| match it {
            MailItem::Note(n) => Some(n.reason().to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(notes.len(), 3, "{notes:?}");
    assert!(notes[0].contains("x-no-such-charset"));
    assert!(notes[1].contains("base64"));
    assert!(notes[2].contains("boundary"));
}

#[test]
fn positions_point_into_the_raw_input() {
    let input = std::fs::read(corpus_dir().join("archive.mbox")).unwrap();
    let text = String::from_utf8_lossy(&input).into_owned();
    for m in one(&input) {
        let p = m.position().unwrap();
        let line = text.lines().nth(p.line as usize - 1).unwrap();
        let col = p.column as usize - 1;
        let at = m.span().start;
        // The line and column name the same byte as the offset.
        assert_eq!(line.as_bytes()[col], input[at], "{p:?}");
    }
}

#[test]
fn every_message_of_an_mbox_is_read_past_a_broken_one() {
    let mut mbox = Vec::new();
    for i in 0..50 {
        mbox.extend_from_slice(
            format!("From a@example.org Tue Nov  3 10:00:{i:02} 2026\n")
                .as_bytes(),
        );
        if i % 7 == 3 {
            mbox.extend_from_slice(
                b"Content-Type: multipart/mixed; boundary=\"x\"\n\
Content-Transfer-Encoding: base64\n\n--x\nContent-Type: text/html\n\n<a href=\"",
            );
            mbox.extend_from_slice(&[0, 0xff, b'<', b'"']);
            mbox.extend_from_slice(b"\n\n");
        } else {
            mbox.extend_from_slice(
                format!("Subject: {i}\n\nhttp://m{i}.example.org/\n\n")
                    .as_bytes(),
            );
        }
    }
    let got: Vec<String> = one(&mbox)
        .iter()
        .map(|m| String::from_utf8_lossy(m.uri()).into_owned())
        .collect();
    let want: Vec<String> = (0..50)
        .filter(|i| i % 7 != 3)
        .map(|i| format!("http://m{i}.example.org/"))
        .collect();
    assert_eq!(got, want);
}

/// A part's charset is honoured however its parameter is written (any
/// case, blanks around `=`, quoted, RFC 2231's `charset*`), and the word
/// elsewhere (a body line, another parameter's value) changes nothing.
#[test]
fn charset_parameters_in_any_spelling() {
    // "see http://a.example/x" in UTF-16LE, base64: found only when the
    // part is converted from its charset.
    let utf16: Vec<u8> = "see http://a.example/x\n"
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    let b64 = base64(&utf16);
    for param in [
        "charset=utf-16le",
        "CHARSET=\"UTF-16LE\"",
        "Charset = utf-16le",
        "name=\"charset=latin1\"; charset=utf-16le",
        "charset*=utf-8''utf-16le",
    ] {
        let msg = format!(
            "From: a@b.example\nContent-Type: text/plain; {param}\n\
             Content-Transfer-Encoding: base64\n\n{b64}\n"
        );
        let uris: Vec<Vec<u8>> =
            matches(msg.as_bytes()).iter().map(|m| m.uri().to_vec()).collect();
        assert_eq!(uris, [b"http://a.example/x".to_vec()], "{param}");
    }
    // The word in a body is text like any other.
    let msg =
        "From: a@b.example\nContent-Type: text/plain; charset=us-ascii\n\n\
               charset=koi8-r http://b.example/y\n";
    let uris: Vec<Vec<u8>> =
        matches(msg.as_bytes()).iter().map(|m| m.uri().to_vec()).collect();
    assert_eq!(uris, [b"http://b.example/y".to_vec()]);
}

/// Standard base64 with padding, 76 characters a line.
fn base64(data: &[u8]) -> String {
    const A: &[u8; 64] =
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for (i, c) in data.chunks(3).enumerate() {
        if i > 0 && i % 19 == 0 {
            out.push('\n');
        }
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for k in 0..4 {
            if k <= c.len() {
                out.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
