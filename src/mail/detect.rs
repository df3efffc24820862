//! Is this input mail? The test `--mail=auto` makes on the start of a
//! file or of standard input.
//!
//! An input is mail when it starts with an mbox envelope line (`From `,
//! a sender, a time), or with a header block (`Name: value` lines,
//! folded lines allowed, up to a blank line or a line of only blanks)
//! that has a `From:` field and at least one of `Date:`, `Message-ID:`,
//! `MIME-Version:`, `Received:` or `Newsgroups:`. Only the head of the
//! input is looked at ([`HEAD`] bytes are enough for any real header
//! block); a block still going on there is judged on the fields seen.

/// How many bytes of the input [`looks_like_mail`] wants to see.
pub const HEAD: usize = 64 << 10;

/// What the start of an input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    /// An mbox: starts with an envelope `From ` line.
    Mbox,
    /// One message: a header block with `From:` and a second mail field.
    Message,
    /// Anything else.
    Text,
}

/// Classifies the start of an input.
///
/// # Example
///
/// ```
/// use urifind::mail::detect::{kind, Kind};
///
/// assert_eq!(kind(b"From a@b.example Tue Nov  3 10:00:00 2026\nSubject: x\n"), Kind::Mbox);
/// assert_eq!(
///     kind(b"From: a@b.example\nMessage-ID: <1@b.example>\n\nhi\n"),
///     Kind::Message
/// );
/// // A header-like first line is not enough.
/// assert_eq!(kind(b"Subject: x\nX-Spam-Score: 0.1\n"), Kind::Text);
/// assert_eq!(kind(b"From the desk of the editor\n"), Kind::Text);
/// ```
pub fn kind(head: &[u8]) -> Kind {
    if super::mbox::envelope(head) {
        let next =
            memchr::memchr(b'\n', head).map_or(&b""[..], |k| &head[k + 1..]);
        // The envelope line is followed by a header field (or the head
        // ends there).
        if next.is_empty() || field_name(next).is_some() {
            return Kind::Mbox;
        }
        return Kind::Text;
    }
    if header_block(head) {
        Kind::Message
    } else {
        Kind::Text
    }
}

/// Whether `head` (the start of an input) looks like mail.
///
/// # Example
///
/// ```
/// use urifind::mail::detect::looks_like_mail;
///
/// assert!(looks_like_mail(b"Received: from x\n\tby y\nFrom: a@b\nDate: today\n\nbody"));
/// assert!(!looks_like_mail(b"From: a@b\nTo: c@d\n\nno second mail field\n"));
/// ```
pub fn looks_like_mail(head: &[u8]) -> bool {
    kind(head) != Kind::Text
}

/// The name of the header field at the start of `line`, if the line is
/// `Name:` (printable ASCII other than `:`, then `:`).
fn field_name(line: &[u8]) -> Option<&[u8]> {
    let colon = line.iter().take(80).position(|&b| b == b':')?;
    let name = &line[..colon];
    (!name.is_empty() && name.iter().all(|&b| (33..=126).contains(&b)))
        .then_some(name)
}

fn header_block(head: &[u8]) -> bool {
    let (mut from, mut other) = (false, false);
    let mut first = true;
    let mut rest = head;
    while !rest.is_empty() {
        let (line, next, complete) = match memchr::memchr(b'\n', rest) {
            Some(k) => (&rest[..k], &rest[k + 1..], true),
            None => (rest, &b""[..], false),
        };
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(|&b| b == b' ' || b == b'\t') && complete {
            // The end of the block (a blank line or one of only blanks).
            break;
        }
        if matches!(line.first(), Some(b' ' | b'\t')) {
            if first {
                return false;
            }
        } else {
            match field_name(line) {
                Some(name) => {
                    if name.eq_ignore_ascii_case(b"from") {
                        from = true;
                    } else if [
                        &b"date"[..],
                        b"message-id",
                        b"mime-version",
                        b"received",
                        b"newsgroups",
                    ]
                    .iter()
                    .any(|f| name.eq_ignore_ascii_case(f))
                    {
                        other = true;
                    }
                }
                // A line cut at the end of the head is not judged.
                None if !complete => break,
                None => return false,
            }
        }
        first = false;
        rest = next;
    }
    from && other
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_blocks() {
        let yes: &[&[u8]] = &[
            b"From: a@b\r\nDate: x\r\n\r\nbody",
            b"Return-Path: <a@b>\nFrom: a@b\nReceived: from x\n by y\n\nbody",
            b"Newsgroups: comp.lang.c\nFrom: a@b\n\n",
            b"MIME-version: 1.0\nFROM: a@b\n \t \nbody",
            b"From: a@b\nMessage-ID: <1@b>\nX-Cut-Here: partial",
        ];
        for y in yes {
            assert_eq!(
                kind(y),
                Kind::Message,
                "{}",
                String::from_utf8_lossy(y)
            );
        }
        let no: &[&[u8]] = &[
            b"",
            b"From: a@b\n\nDate: after the block\n",
            b" From: a@b\nDate: x\n\n",
            b"From: a@b\nnot a header line\nDate: x\n\n",
            b"Note: see below.\nDate: today\n",
            b"Subject: x\nX-Spam-Score: 0.1\nOrganization: Example Corp.\n",
            b"Reporting-MTA: dns; mail.example.net\nStatus: 5.1.1\n",
        ];
        for n in no {
            assert_eq!(kind(n), Kind::Text, "{}", String::from_utf8_lossy(n));
        }
    }

    #[test]
    fn mbox_needs_an_envelope_then_a_header() {
        assert_eq!(
            kind(b"From a@b Tue Nov  3 10:00:00 2026\nFrom: a@b\n"),
            Kind::Mbox
        );
        assert_eq!(
            kind(b"From a@b Tue Nov  3 10:00:00 2026\nhello there\n"),
            Kind::Text
        );
        assert_eq!(
            kind(b"From a@b at 10:00 we met.\nIt was fine.\n"),
            Kind::Text
        );
    }
}
