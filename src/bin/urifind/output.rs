//! Printing: plain lines (with file name, line, column and byte offset
//! prefixes, color, NUL separators), counts, file lists and JSON Lines,
//! plus the small lossless JSON writer they share.
//!
//! Every URI is written byte for byte as the scanner reported it. In JSON
//! a string that is not valid UTF-8 is written twice: `"key"` holds a lossy
//! rendering (U+FFFD for bad bytes) for readers that only want text, and
//! `"key_base64"` holds the exact bytes, so no byte is ever lost.

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::{self, Write};

use urifind::scan::{Item, Match, Rejected};

use crate::args::{Config, Hyphen, Report};
use crate::uriops;

const C_PATH: &[u8] = b"\x1b[35m";
const C_NUM: &[u8] = b"\x1b[32m";
const C_URI: &[u8] = b"\x1b[1;31m";
const C_REJ: &[u8] = b"\x1b[33m";
const C_RESET: &[u8] = b"\x1b[0m";

/// Appends `s` to `out` as a JSON string literal (quotes included),
/// escaping `"`, `\` and control bytes; bytes that are not UTF-8 become
/// U+FFFD (see [`json_field`] for the lossless form).
pub fn json_string(out: &mut Vec<u8>, s: &[u8]) {
    out.push(b'"');
    for chunk in s.utf8_chunks() {
        for &b in chunk.valid().as_bytes() {
            match b {
                b'"' => out.extend_from_slice(b"\\\""),
                b'\\' => out.extend_from_slice(b"\\\\"),
                b'\n' => out.extend_from_slice(b"\\n"),
                b'\r' => out.extend_from_slice(b"\\r"),
                b'\t' => out.extend_from_slice(b"\\t"),
                0..=0x1f | 0x7f => {
                    write!(out, "\\u{b:04x}").expect("write to Vec");
                }
                _ => out.push(b),
            }
        }
        if !chunk.invalid().is_empty() {
            out.extend_from_slice("\u{fffd}".as_bytes());
        }
    }
    out.push(b'"');
}

/// Appends `"key":"value"` (after a comma unless `first`); when `value` is
/// not UTF-8, also `"key_base64":"..."` with its exact bytes.
pub fn json_field(out: &mut Vec<u8>, first: bool, key: &str, value: &[u8]) {
    json_key(out, first, key);
    json_string(out, value);
    if std::str::from_utf8(value).is_err() {
        json_key(out, false, &format!("{key}_base64"));
        out.push(b'"');
        base64(out, value);
        out.push(b'"');
    }
}

/// Appends `"key":` (after a comma unless `first`).
pub fn json_key(out: &mut Vec<u8>, first: bool, key: &str) {
    if !first {
        out.push(b',');
    }
    json_string(out, key.as_bytes());
    out.push(b':');
}

/// Appends `"key":N`.
pub fn json_num(out: &mut Vec<u8>, first: bool, key: &str, n: u64) {
    json_key(out, first, key);
    write!(out, "{n}").expect("write to Vec");
}

/// Appends standard base64 (RFC 4648, with padding) of `data`.
pub fn base64(out: &mut Vec<u8>, data: &[u8]) {
    const A: &[u8; 64] =
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for c in data.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        out.push(A[(n >> 18) as usize & 63]);
        out.push(A[(n >> 12) as usize & 63]);
        out.push(if c.len() > 1 { A[(n >> 6) as usize & 63] } else { b'=' });
        out.push(if c.len() > 2 { A[n as usize & 63] } else { b'=' });
    }
}

/// Formats items of one file after another and writes them out.
pub struct Printer<W: Write> {
    wtr: W,
    cfg: Config,
    buf: Vec<u8>,
    seen: HashSet<Vec<u8>>,
    count: u64,
}

impl<W: Write> Printer<W> {
    /// A printer for `cfg` writing to `wtr`.
    pub fn new(wtr: W, cfg: &Config) -> Printer<W> {
        Printer {
            wtr,
            cfg: cfg.clone(),
            buf: Vec::with_capacity(256),
            seen: HashSet::new(),
            count: 0,
        }
    }

    /// Starts a new input; uniqueness is per file when names are shown.
    pub fn begin(&mut self) {
        self.count = 0;
        if self.cfg.with_filename {
            self.seen.clear();
        }
    }

    /// Handles one item of the input named `path`; returns whether it
    /// counted (was shown or counted) — a match outside `--rejected`, a
    /// rejected candidate in it, and not a repeat under `-u`.
    ///
    /// # Errors
    ///
    /// Errors of the underlying writer.
    pub fn item(&mut self, path: &[u8], item: &Item<'_>) -> io::Result<bool> {
        match item {
            Item::Match(m) if !self.cfg.rejected => self.on_match(path, m),
            Item::Rejected(r) if self.cfg.rejected => {
                self.on_rejected(path, r)
            }
            _ => Ok(false),
        }
    }

    /// Ends the current input: prints its count (`-c`) or name (`-l`).
    ///
    /// # Errors
    ///
    /// Errors of the underlying writer.
    pub fn end(&mut self, path: &[u8]) -> io::Result<()> {
        self.buf.clear();
        match self.cfg.report {
            Report::Each => return Ok(()),
            Report::Count if self.cfg.json => {
                self.buf.push(b'{');
                json_field(&mut self.buf, true, "type", b"count");
                json_field(&mut self.buf, false, "path", path);
                json_num(&mut self.buf, false, "count", self.count);
                self.buf.extend_from_slice(b"}\n");
            }
            Report::Count => {
                if self.cfg.with_filename {
                    self.path_prefix(path);
                }
                writeln!(self.buf, "{}", self.count).expect("write to Vec");
            }
            Report::FilesWithMatches if self.count == 0 => return Ok(()),
            Report::FilesWithMatches if self.cfg.json => {
                self.buf.push(b'{');
                json_field(&mut self.buf, true, "type", b"file");
                json_field(&mut self.buf, false, "path", path);
                self.buf.extend_from_slice(b"}\n");
            }
            Report::FilesWithMatches => {
                self.colored(C_PATH, path);
                self.buf.push(if self.cfg.null { 0 } else { b'\n' });
            }
        }
        self.flush_buf()
    }

    /// Flushes the writer.
    ///
    /// # Errors
    ///
    /// Errors of the underlying writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.wtr.flush()
    }

    fn flush_buf(&mut self) -> io::Result<()> {
        self.wtr.write_all(&self.buf)?;
        if self.cfg.line_buffered {
            self.wtr.flush()?;
        }
        Ok(())
    }

    /// Returns true (and remembers `key`) when `key` was not seen yet or
    /// uniqueness is off.
    fn first_time(&mut self, key: &[u8]) -> bool {
        if !self.cfg.unique {
            return true;
        }
        if self.seen.contains(key) {
            return false;
        }
        self.seen.insert(key.to_vec());
        true
    }

    fn on_match(&mut self, path: &[u8], m: &Match<'_>) -> io::Result<bool> {
        let primary = match (self.cfg.hyphen, m.without_hyphen()) {
            (Hyphen::Drop, Some(alt)) => alt,
            _ => m.uri(),
        };
        // Under -u the key is the printed form: normalized with
        // --normalize, so equivalent URIs count once.
        let key = norm(primary, self.cfg.normalize);
        if !self.first_time(&key) {
            return Ok(false);
        }
        self.count += 1;
        if self.cfg.report != Report::Each {
            return Ok(true);
        }
        self.buf.clear();
        if self.cfg.json {
            self.json_match(path, m);
        } else {
            self.plain_prefix(path, m.position(), m.uri_span().start);
            self.colored(C_URI, &key);
            self.buf.push(b'\n');
            if let (Hyphen::Both, Some(alt)) =
                (self.cfg.hyphen, m.without_hyphen())
            {
                let alt = norm(alt, self.cfg.normalize);
                if self.first_time(&alt) {
                    self.plain_prefix(path, m.position(), m.uri_span().start);
                    self.colored(C_URI, &alt);
                    self.buf.push(b'\n');
                }
            }
        }
        self.flush_buf()?;
        Ok(true)
    }

    fn on_rejected(&mut self, path: &[u8], r: &Rejected) -> io::Result<bool> {
        if !self.first_time(r.candidate()) {
            return Ok(false);
        }
        self.count += 1;
        if self.cfg.report != Report::Each {
            return Ok(true);
        }
        self.buf.clear();
        if self.cfg.json {
            let b = &mut self.buf;
            b.push(b'{');
            json_field(b, true, "type", b"rejected");
            json_field(b, false, "path", path);
            position_json(b, r.position());
            json_num(b, false, "span_start", r.span().start as u64);
            json_num(b, false, "span_end", r.span().end as u64);
            json_field(b, false, "candidate", r.candidate());
            json_field(b, false, "context", r.context().name().as_bytes());
            json_num(b, false, "offset", r.offset() as u64);
            json_field(b, false, "reason", r.reason().to_string().as_bytes());
            b.extend_from_slice(b"}\n");
        } else {
            self.plain_prefix(path, r.position(), r.span().start);
            self.colored(C_REJ, r.candidate());
            write!(self.buf, ": offset {}: {}", r.offset(), r.reason())
                .expect("write to Vec");
            self.buf.push(b'\n');
        }
        self.flush_buf()?;
        Ok(true)
    }

    fn json_match(&mut self, path: &[u8], m: &Match<'_>) {
        let b = &mut self.buf;
        b.push(b'{');
        json_field(b, true, "type", b"match");
        json_field(b, false, "path", path);
        position_json(b, m.position());
        json_num(b, false, "span_start", m.span().start as u64);
        json_num(b, false, "span_end", m.span().end as u64);
        json_num(b, false, "uri_start", m.uri_span().start as u64);
        json_num(b, false, "uri_end", m.uri_span().end as u64);
        json_field(b, false, "uri", m.uri());
        json_field(b, false, "context", m.context().name().as_bytes());
        json_key(b, false, "alternatives");
        b.push(b'[');
        if let Some(alt) = m.without_hyphen() {
            json_string(b, alt);
        }
        b.push(b']');
        if let Some(alt) = m.without_hyphen() {
            if std::str::from_utf8(alt).is_err() {
                json_key(b, false, "alternatives_base64");
                b.extend_from_slice(b"[\"");
                base64(b, alt);
                b.extend_from_slice(b"\"]");
            }
        }
        if self.cfg.normalize {
            json_field(b, false, "normalized", &uriops::normalize(m.uri()));
        }
        b.extend_from_slice(b"}\n");
    }

    fn colored(&mut self, color: &[u8], s: &[u8]) {
        if self.cfg.color {
            self.buf.extend_from_slice(color);
            self.buf.extend_from_slice(s);
            self.buf.extend_from_slice(C_RESET);
        } else {
            self.buf.extend_from_slice(s);
        }
    }

    fn path_prefix(&mut self, path: &[u8]) {
        self.colored(C_PATH, path);
        self.buf.push(if self.cfg.null { 0 } else { b':' });
    }

    fn plain_prefix(
        &mut self,
        path: &[u8],
        pos: Option<urifind::scan::Position>,
        offset: usize,
    ) {
        if self.cfg.with_filename {
            self.path_prefix(path);
        }
        if let Some(p) = pos {
            if self.cfg.line_number {
                self.number(p.line);
            }
            if self.cfg.column {
                self.number(p.column);
            }
        }
        if self.cfg.byte_offset {
            self.number(offset as u64);
        }
    }

    fn number(&mut self, n: u64) {
        if self.cfg.color {
            self.buf.extend_from_slice(C_NUM);
        }
        write!(self.buf, "{n}").expect("write to Vec");
        if self.cfg.color {
            self.buf.extend_from_slice(C_RESET);
        }
        self.buf.push(b':');
    }
}

/// `u` in normal form when `on`, else as it is.
fn norm(u: &[u8], on: bool) -> Cow<'_, [u8]> {
    if on {
        Cow::Owned(uriops::normalize(u))
    } else {
        Cow::Borrowed(u)
    }
}

/// `"line":L,"column":C`, or nulls when lines were not counted.
fn position_json(b: &mut Vec<u8>, pos: Option<urifind::scan::Position>) {
    match pos {
        Some(p) => {
            json_num(b, false, "line", p.line);
            json_num(b, false, "column", p.column);
        }
        None => b.extend_from_slice(b",\"line\":null,\"column\":null"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn js(s: &[u8]) -> String {
        let mut v = Vec::new();
        json_string(&mut v, s);
        String::from_utf8(v).unwrap()
    }

    fn b64(s: &[u8]) -> String {
        let mut v = Vec::new();
        base64(&mut v, s);
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn json_escapes() {
        assert_eq!(js(b"http://a/"), r#""http://a/""#);
        assert_eq!(js(b"a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(js(b"\n\r\t\x00\x1f\x7f"), r#""\n\r\t\u0000\u001f\u007f""#);
        assert_eq!(js("straße".as_bytes()), "\"straße\"");
        assert_eq!(js(b"a\xffb"), "\"a\u{fffd}b\"");
    }

    #[test]
    fn json_field_keeps_bad_bytes_in_base64() {
        let mut v = Vec::new();
        json_field(&mut v, true, "uri", b"ok");
        assert_eq!(v, br#""uri":"ok""#);
        let mut v = Vec::new();
        json_field(&mut v, false, "path", b"\xff\xfe");
        let s = String::from_utf8(v).unwrap();
        assert_eq!(
            s,
            ",\"path\":\"\u{fffd}\u{fffd}\",\"path_base64\":\"//4=\""
        );
    }

    #[test]
    fn base64_rfc4648_vectors() {
        assert_eq!(b64(b""), "");
        assert_eq!(b64(b"f"), "Zg==");
        assert_eq!(b64(b"fo"), "Zm8=");
        assert_eq!(b64(b"foo"), "Zm9v");
        assert_eq!(b64(b"foob"), "Zm9vYg==");
        assert_eq!(b64(b"fooba"), "Zm9vYmE=");
        assert_eq!(b64(b"foobar"), "Zm9vYmFy");
    }
}
