//! All output of the search mode: plain lines (with file name, line,
//! column and byte offset prefixes, color, NUL separators), counts, file
//! lists and JSON Lines, and the messages about inputs on stderr (errors,
//! skipped binary files), written so that they interleave correctly with
//! the output.
//!
//! Every URI is written byte for byte as the scanner reported it. Output
//! is assembled by appending bytes to one buffer, written out when it
//! fills, when a message goes to stderr, at the end, or after every line
//! with `--line-buffered`: no formatting machinery runs per match.

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::{self, Write};

use urifind::link::Link;
use urifind::scan::{Item, Match, Position, Rejected};

use crate::args::{Hyphen, UnwrapWhat};
use crate::config::{Config, Report};
use crate::json::push_u64;
use crate::json::{base64, json_field, json_key, json_num, json_string};

const C_PATH: &[u8] = b"\x1b[35m";
const C_NUM: &[u8] = b"\x1b[32m";
const C_URI: &[u8] = b"\x1b[1;31m";
const C_REJ: &[u8] = b"\x1b[33m";
const C_RESET: &[u8] = b"\x1b[0m";

/// How much output is gathered before it is written.
const BUF_SIZE: usize = 64 * 1024;

/// A named value that says where inside an input an item was found,
/// beyond the file itself: JSON output writes each as a member after
/// `"path"`. Plain text has none; a format that nests texts (a message
/// and its parts, say) names them here.
pub type Field<'a> = (&'static str, &'a [u8]);

/// Formats the items of one input after another and writes them out.
pub struct Printer<W: Write> {
    wtr: W,
    cfg: Config,
    buf: Vec<u8>,
    seen: HashSet<Vec<u8>>,
    count: u64,
    /// Whether `--files-without-match` listed a file.
    listed: bool,
}

impl Printer<Vec<u8>> {
    /// How many bytes this printer into memory has produced.
    pub fn written(&self) -> usize {
        self.wtr.len() + self.buf.len()
    }

    /// Everything this printer into memory has produced.
    pub fn into_output(mut self) -> Vec<u8> {
        self.wtr.append(&mut self.buf);
        self.wtr
    }
}

impl<W: Write> Printer<W> {
    /// A printer for `cfg` writing to `wtr` (which needs no buffer of its
    /// own: the printer gathers its output).
    pub fn new(wtr: W, cfg: &Config) -> Printer<W> {
        Printer {
            wtr,
            cfg: cfg.clone(),
            buf: Vec::with_capacity(BUF_SIZE + 4096),
            seen: HashSet::new(),
            count: 0,
            listed: false,
        }
    }

    /// Starts a new input; uniqueness is per file when names are shown.
    pub fn begin(&mut self) {
        self.count = 0;
        if self.cfg.with_filename {
            self.seen.clear();
        }
    }

    /// Handles one item of the input named `path`, found at `place`
    /// inside it; returns whether it counted (was shown or counted) — a
    /// match outside `--rejected`, a rejected candidate in it, and not a
    /// repeat under `-u`.
    ///
    /// # Errors
    ///
    /// Errors of the underlying writer.
    pub fn item(
        &mut self,
        path: &[u8],
        place: &[Field<'_>],
        item: &Item<'_>,
    ) -> io::Result<bool> {
        if self.full() {
            return Ok(false);
        }
        match item {
            Item::Match(m) if !self.cfg.rejected => {
                self.on_match(path, place, m)
            }
            Item::Rejected(r) if self.cfg.rejected => {
                self.on_rejected(path, place, r)
            }
            _ => Ok(false),
        }
    }

    /// Whether the current input has given all `-m` allows: nothing more
    /// of it is printed or counted, and its search can stop.
    pub fn full(&self) -> bool {
        self.cfg.max_count.is_some_and(|m| self.count >= m)
    }

    /// Whether `--files-without-match` listed a file so far.
    pub fn listed(&self) -> bool {
        self.listed
    }

    /// Ends the current input: prints its count (`-c`; a count of 0 only
    /// with `--include-zero`) or name (`-l`, `--files-without-match`).
    ///
    /// # Errors
    ///
    /// Errors of the underlying writer.
    pub fn end(&mut self, path: &[u8]) -> io::Result<()> {
        match self.cfg.report {
            Report::Each | Report::Quiet => return Ok(()),
            Report::Count if self.count == 0 && !self.cfg.include_zero => {
                return Ok(())
            }
            Report::Count if self.cfg.json => {
                let b = &mut self.buf;
                b.push(b'{');
                json_field(b, true, "type", b"count");
                json_field(b, false, "path", path);
                json_num(b, false, "count", self.count);
                b.extend_from_slice(b"}\n");
            }
            Report::Count => {
                if self.cfg.with_filename {
                    self.path_prefix(path);
                }
                push_u64(&mut self.buf, self.count);
                self.buf.push(b'\n');
            }
            Report::FilesWithMatches if self.count == 0 => return Ok(()),
            Report::FilesWithoutMatch if self.count > 0 => return Ok(()),
            Report::FilesWithMatches | Report::FilesWithoutMatch => {
                self.listed |= self.count == 0;
                if self.cfg.json {
                    let b = &mut self.buf;
                    b.push(b'{');
                    json_field(b, true, "type", b"file");
                    json_field(b, false, "path", path);
                    b.extend_from_slice(b"}\n");
                } else {
                    self.colored(C_PATH, path);
                    self.buf.push(if self.cfg.null { 0 } else { b'\n' });
                }
            }
        }
        self.record_done()
    }

    /// Ends the current input after reading it failed: prints what was
    /// found before the failure as [`Printer::end`] does (a count, a
    /// name under `-l`; not under `--files-without-match`, as the rest
    /// of the input is unknown), then reports `reason`.
    ///
    /// # Errors
    ///
    /// Errors of the underlying writer.
    pub fn end_early(&mut self, path: &[u8], reason: &str) -> io::Result<()> {
        if self.cfg.report != Report::FilesWithoutMatch {
            self.end(path)?;
        }
        self.error(path, reason)
    }

    /// Reports a problem with the input named `name` on stderr, after
    /// writing out everything printed before it.
    ///
    /// # Errors
    ///
    /// Errors of the underlying writer.
    pub fn error(&mut self, name: &[u8], reason: &str) -> io::Result<()> {
        if self.cfg.no_messages {
            return Ok(());
        }
        self.flush()?;
        report_error(name, reason);
        Ok(())
    }

    /// Writes out everything gathered and flushes the writer.
    ///
    /// # Errors
    ///
    /// Errors of the underlying writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.write_out()?;
        self.wtr.flush()
    }

    /// Writes output formatted elsewhere (by a printer into memory for
    /// the same input) as if this printer had formatted it.
    ///
    /// # Errors
    ///
    /// Errors of the underlying writer.
    pub fn formatted(&mut self, out: &[u8]) -> io::Result<()> {
        if out.len() < BUF_SIZE {
            self.buf.extend_from_slice(out);
            return self.record_done();
        }
        self.write_out()?;
        self.wtr.write_all(out)
    }

    /// Writes what is gathered to the writer (without flushing it). The
    /// buffer is cleared even when writing fails: nothing is retried.
    fn write_out(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let r = self.wtr.write_all(&self.buf);
        self.buf.clear();
        r
    }

    /// One output record (a line, or a name under `-l -0`) is complete.
    fn record_done(&mut self) -> io::Result<()> {
        if self.cfg.line_buffered {
            self.flush()
        } else if self.buf.len() >= BUF_SIZE {
            self.write_out()
        } else {
            Ok(())
        }
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

    fn on_match(
        &mut self,
        path: &[u8],
        place: &[Field<'_>],
        m: &Match<'_>,
    ) -> io::Result<bool> {
        if self.cfg.report == Report::Each
            && !self.cfg.json
            && !self.cfg.unique
            && !self.cfg.to_uri
            && !self.cfg.normalize
            && self.cfg.hyphen == Hyphen::Keep
            && self.cfg.unwrap.is_none()
        {
            // The common case, the URI as it is found: written straight
            // into the output (a rejoined one is not built first).
            self.count += 1;
            self.plain_prefix(path, m.position(), m.uri_span().start);
            if self.cfg.color {
                self.buf.extend_from_slice(C_URI);
                m.write_uri(&mut self.buf);
                self.buf.extend_from_slice(C_RESET);
            } else {
                m.write_uri(&mut self.buf);
            }
            self.buf.push(b'\n');
            self.record_done()?;
            return Ok(true);
        }
        if self.cfg.report != Report::Each && !self.cfg.unique {
            // A count or a file name: every match counts, whatever its
            // printed form (which is not built).
            self.count += 1;
            return Ok(true);
        }
        let primary = match (self.cfg.hyphen, m.without_hyphen()) {
            (Hyphen::Drop, Some(alt)) => alt,
            _ => m.uri(),
        };
        if let (Some(what), false) = (self.cfg.unwrap, self.cfg.json) {
            return self.unwrapped(path, m, primary, what);
        }
        // Under -u the key is the printed form: the URI form with
        // --to-uri, normalized with --normalize, so equivalent URIs count
        // once.
        let key = self.printed(primary);
        if !self.first_time(&key) {
            return Ok(false);
        }
        self.count += 1;
        if self.cfg.report != Report::Each {
            return Ok(true);
        }
        if self.cfg.json {
            self.json_match(path, place, m);
        } else {
            self.plain_prefix(path, m.position(), m.uri_span().start);
            self.colored(C_URI, &key);
            self.buf.push(b'\n');
            if let (Hyphen::Both, Some(alt)) =
                (self.cfg.hyphen, m.without_hyphen())
            {
                let alt = self.printed(alt).into_owned();
                if self.first_time(&alt) {
                    self.plain_prefix(path, m.position(), m.uri_span().start);
                    self.colored(C_URI, &alt);
                    self.buf.push(b'\n');
                }
            }
        }
        self.record_done()?;
        Ok(true)
    }

    /// A match printed with `--unwrap`: a wrapper as its target (or as
    /// itself and then its target), then its embedded links, each line
    /// once under `-u`.
    fn unwrapped(
        &mut self,
        path: &[u8],
        m: &Match<'_>,
        primary: &[u8],
        what: UnwrapWhat,
    ) -> io::Result<bool> {
        let link = self.cfg.link.analyze(primary);
        let mut lines: Vec<Vec<u8>> = Vec::new();
        if link.target.is_none() || what == UnwrapWhat::Both {
            lines.push(self.printed(primary).into_owned());
        }
        lines.extend(
            link.target
                .iter()
                .chain(&link.embedded)
                .map(|t| self.printed(t.as_bytes()).into_owned()),
        );
        let mut any = false;
        for line in lines {
            if self.cfg.unique && !self.first_time(&line) {
                continue;
            }
            any = true;
            self.plain_prefix(path, m.position(), m.uri_span().start);
            self.colored(C_URI, &line);
            self.buf.push(b'\n');
        }
        if any {
            self.count += 1;
        }
        self.record_done()?;
        Ok(any)
    }

    fn on_rejected(
        &mut self,
        path: &[u8],
        place: &[Field<'_>],
        r: &Rejected,
    ) -> io::Result<bool> {
        if !self.first_time(r.candidate()) {
            return Ok(false);
        }
        self.count += 1;
        if self.cfg.report != Report::Each {
            return Ok(true);
        }
        if self.cfg.json {
            let b = &mut self.buf;
            b.push(b'{');
            json_field(b, true, "type", b"rejected");
            json_field(b, false, "path", path);
            place_json(b, place);
            position_json(b, r.position());
            json_num(b, false, "span_start", r.span().start as u64);
            json_num(b, false, "span_end", r.span().end as u64);
            json_field(b, false, "candidate", r.candidate());
            json_field(b, false, "delimiter", r.context().name().as_bytes());
            json_num(b, false, "offset", r.offset() as u64);
            json_field(b, false, "reason", r.reason().to_string().as_bytes());
            b.extend_from_slice(b"}\n");
        } else {
            self.plain_prefix(path, r.position(), r.span().start);
            self.colored(C_REJ, r.candidate());
            self.buf.extend_from_slice(b": offset ");
            push_u64(&mut self.buf, r.offset() as u64);
            self.buf.extend_from_slice(b": ");
            self.buf.extend_from_slice(r.reason().to_string().as_bytes());
            self.buf.push(b'\n');
        }
        self.record_done()?;
        Ok(true)
    }

    /// How `u` (the match or its alternative) is printed: in URI form
    /// with `--to-uri`, then normalized with `--normalize`.
    fn printed<'u>(&self, u: &'u [u8]) -> Cow<'u, [u8]> {
        if self.cfg.to_uri && !u.is_ascii() {
            let mapped = to_uri(u);
            Cow::Owned(norm(&mapped, self.cfg.normalize).into_owned())
        } else {
            norm(u, self.cfg.normalize)
        }
    }

    fn json_match(&mut self, path: &[u8], place: &[Field<'_>], m: &Match) {
        let b = &mut self.buf;
        b.push(b'{');
        json_field(b, true, "type", b"match");
        json_field(b, false, "path", path);
        place_json(b, place);
        position_json(b, m.position());
        json_num(b, false, "span_start", m.span().start as u64);
        json_num(b, false, "span_end", m.span().end as u64);
        json_num(b, false, "uri_start", m.uri_span().start as u64);
        json_num(b, false, "uri_end", m.uri_span().end as u64);
        if m.is_iri() {
            // An IRI: "uri" is its URI form (RFC 3987 section 3.1), and
            // the IRI as written goes beside it.
            json_field(b, false, "uri", &m.to_uri());
            json_key(b, false, "iri");
            b.extend_from_slice(b"true");
            json_field(b, false, "written", m.uri());
        } else {
            json_field(b, false, "uri", m.uri());
        }
        json_field(b, false, "delimiter", m.context().name().as_bytes());
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
            let n = urifind::uri::normalize(&m.to_uri());
            json_field(b, false, "normalized", &n);
        }
        link_json(b, &self.cfg.link.analyze(m.uri()));
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
        pos: Option<Position>,
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
        push_u64(&mut self.buf, n);
        if self.cfg.color {
            self.buf.extend_from_slice(C_RESET);
        }
        self.buf.push(b':');
    }
}

/// Writes `urifind: NAME: reason` to stderr.
pub fn report_error(name: &[u8], reason: &str) {
    let mut line = Vec::with_capacity(name.len() + reason.len() + 12);
    line.extend_from_slice(b"urifind: ");
    line.extend_from_slice(name);
    line.extend_from_slice(b": ");
    line.extend_from_slice(reason.as_bytes());
    line.push(b'\n');
    let _ = io::stderr().lock().write_all(&line);
}

/// An I/O error in words, without Rust's "(os error N)" suffix.
pub fn io_reason(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// The URI form of the IRI `u` (RFC 3987 section 3.1); `u` itself when
/// it is no IRI.
fn to_uri(u: &[u8]) -> Vec<u8> {
    match urifind::iri::Iri::from_bytes(u) {
        Ok(iri) => iri.to_uri().into_owned().into_bytes(),
        Err(_) => u.to_vec(),
    }
}

/// `u` in normal form when `on`, else as it is.
fn norm(u: &[u8], on: bool) -> Cow<'_, [u8]> {
    if on {
        Cow::Owned(urifind::uri::normalize(u))
    } else {
        Cow::Borrowed(u)
    }
}

/// The members of a match's link analysis that apply: `target`,
/// `wrappers`, `unwrap`, `target_host`, `embedded`, `host_as_read`,
/// `flags`.
fn link_json(b: &mut Vec<u8>, link: &Link) {
    let list =
        |b: &mut Vec<u8>, key: &str, items: &mut dyn Iterator<Item = &str>| {
            json_key(b, false, key);
            b.push(b'[');
            for (k, s) in items.enumerate() {
                if k > 0 {
                    b.push(b',');
                }
                json_string(b, s.as_bytes());
            }
            b.push(b']');
        };
    if let Some(t) = &link.target {
        json_field(b, false, "target", t.as_bytes());
    }
    if !link.wrappers.is_empty() {
        list(b, "wrappers", &mut link.wrappers.iter().map(|f| f.name()));
    }
    if let Some(u) = link.unwrap {
        json_field(b, false, "unwrap", u.name().as_bytes());
    }
    if let Some(h) = &link.target_host {
        json_field(b, false, "target_host", h.as_bytes());
    }
    if !link.embedded.is_empty() {
        list(b, "embedded", &mut link.embedded.iter().map(String::as_str));
    }
    if let Some(h) = &link.host_as_read {
        json_field(b, false, "host_as_read", h.as_bytes());
    }
    if !link.flags.is_empty() {
        list(b, "flags", &mut link.flags.iter().map(|f| f.name()));
    }
}

/// The members naming where inside the input an item was found (the
/// message number of mail is a number); outside mail, the only one is
/// `"context":"text"`, so that `context` always says where and
/// `delimiter` how (docs/json-schema.json).
fn place_json(b: &mut Vec<u8>, place: &[Field<'_>]) {
    if !place.iter().any(|(k, _)| *k == "context") {
        json_field(b, false, "context", b"text");
    }
    for (key, value) in place {
        let number = *key == "message"
            && !value.is_empty()
            && value.iter().all(u8::is_ascii_digit);
        if number {
            json_key(b, false, key);
            b.extend_from_slice(value);
        } else {
            json_field(b, false, key, value);
        }
    }
}

/// `"line":L,"column":C`, or nulls when lines were not counted.
fn position_json(b: &mut Vec<u8>, pos: Option<Position>) {
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

    #[test]
    fn io_reason_drops_os_error_suffix() {
        let e = io::Error::from_raw_os_error(2);
        assert_eq!(io_reason(&e), "No such file or directory");
    }
}
