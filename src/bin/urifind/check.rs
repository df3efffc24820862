//! The line modes: `--check` (validate), `--parse` (components) and
//! `--resolve BASE` (section 5.2), where every input line is one URI
//! reference.
//!
//! A line is the bytes up to LF, without a trailing CR; the empty line is
//! a line too (and a valid URI reference). The last line needs no LF.
//! Non-UTF-8 bytes are just invalid URI characters; JSON keeps them
//! losslessly (`input_base64`). In JSON the input's file name, when file
//! names are shown, is under `"file"`, since `"path"` is the URI
//! component in `--parse`.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};

use urifind::grammar::{Error, Validator};
use urifind::uri::{self, Components, ResolveMode};

use crate::config::{Config, Mode};
use crate::json::{json_field, json_key, json_num, json_string};
use crate::printer::{io_reason, report_error};
use crate::walk::Entry;
use crate::Status;

/// Checks that `base` can be used with `--resolve`: an absolute URI.
///
/// # Errors
///
/// A message for the user.
pub fn check_base(cfg: &Config, base: &[u8]) -> Result<(), String> {
    let v = Validator::new(cfg.grammar).absolute(true);
    v.validate(base).map(|_| ()).map_err(|e| {
        format!(
            "--resolve: base '{}' is not an absolute URI: {} (at byte {})",
            String::from_utf8_lossy(base),
            e.message(),
            e.offset()
        )
    })
}

/// Runs the line mode of `cfg` over the inputs `entries`, writing to
/// `out`.
///
/// # Errors
///
/// Only errors writing the output.
pub fn run<W: Write>(
    cfg: &Config,
    entries: impl Iterator<Item = Entry>,
    out: &mut W,
) -> io::Result<Status> {
    let mut st = Status::default();
    let mut invalid = false;
    let mut lines = LineMode { cfg, out, buf: Vec::new() };
    let cap = cfg.max_uri_len.unwrap_or(DEFAULT_MAX_LINE);
    for entry in entries {
        let name = entry.name();
        let rdr: Box<dyn Read> = match &entry {
            Entry::Stdin => Box::new(io::stdin().lock()),
            Entry::File(p, _) => match File::open(p) {
                Ok(f) => Box::new(f),
                Err(e) => {
                    lines.out.flush()?;
                    input_error(cfg, &name, &io_reason(&e));
                    st.error = true;
                    continue;
                }
            },
            Entry::Error(_, m) => {
                lines.out.flush()?;
                input_error(cfg, &name, m);
                st.error = true;
                continue;
            }
        };
        let mut rdr = BufReader::with_capacity(64 * 1024, rdr);
        let mut line = Vec::new();
        let mut n = 0u64;
        loop {
            line.clear();
            match read_line_capped(&mut rdr, &mut line, cap + 2) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    lines.out.flush()?;
                    input_error(cfg, &name, &io_reason(&e));
                    st.error = true;
                    break;
                }
            }
            n += 1;
            if line.last() == Some(&b'\n') {
                line.pop();
            }
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if line.len() > cap {
                line.truncate(cap);
                lines.too_long(&name, n, &line)?;
                invalid = true;
                continue;
            }
            invalid |= !lines.line(&name, n, &line)?;
        }
    }
    lines.out.flush()?;
    st.found = !invalid;
    Ok(st)
}

/// The longest line taken as a URI reference unless `--max-uri-len`
/// says otherwise (the scanner's default bound on a URI): a longer line
/// is invalid, and only this much of it is kept in memory.
const DEFAULT_MAX_LINE: usize = 64 * 1024;

/// Reads one line (through its LF, if any) into `line`, keeping at most
/// `keep` bytes of it and consuming the rest; returns how many bytes
/// were consumed (0 at the end of input).
fn read_line_capped<R: BufRead>(
    rdr: &mut R,
    line: &mut Vec<u8>,
    keep: usize,
) -> io::Result<usize> {
    let mut total = 0;
    loop {
        let buf = match rdr.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(total);
        }
        let (k, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let room = keep.saturating_sub(line.len());
        line.extend_from_slice(&buf[..k.min(room)]);
        rdr.consume(k);
        total += k;
        if done {
            return Ok(total);
        }
    }
}

struct LineMode<'a, W> {
    cfg: &'a Config,
    out: &'a mut W,
    buf: Vec<u8>,
}

impl<W: Write> LineMode<'_, W> {
    /// Handles one line; returns whether it was valid (and resolved).
    fn line(&mut self, file: &[u8], n: u64, input: &[u8]) -> io::Result<bool> {
        let v = Validator::new(self.cfg.grammar)
            .absolute(self.cfg.absolute)
            .scheme_rules(self.cfg.scheme_rules);
        let res = v.validate(input);
        self.buf.clear();
        let ok = match &self.cfg.mode {
            Mode::Check => self.check(file, n, input, &res),
            Mode::Parse => self.parse(file, n, input, &res),
            Mode::Resolve(base) => {
                let base = base.clone();
                self.resolve(file, n, input, &res, &base)
            }
            Mode::Find | Mode::Generate(_) | Mode::TypeList => {
                unreachable!("not a line mode")
            }
        };
        self.out.write_all(&self.buf)?;
        if self.cfg.line_buffered {
            self.out.flush()?;
        }
        Ok(ok)
    }

    /// Reports a line longer than the bound; `kept` is its start.
    fn too_long(
        &mut self,
        file: &[u8],
        n: u64,
        kept: &[u8],
    ) -> io::Result<()> {
        let msg = format!(
            "line longer than {} bytes (the bound is set by --max-uri-len)",
            kept.len()
        );
        self.buf.clear();
        if self.cfg.json || self.cfg.mode == Mode::Parse {
            self.json_head(file, n, kept);
            self.buf.extend_from_slice(b",\"truncated\":true");
            self.json_error(kept.len(), &msg);
            self.buf.extend_from_slice(b"}\n");
        } else if self.cfg.mode == Mode::Check {
            self.plain_error(file, n, kept.len(), &msg);
        } else {
            let mut place = file.to_vec();
            write!(place, ":{n}:{}", kept.len() + 1).expect("write to Vec");
            report_error(&place, &msg);
        }
        self.out.write_all(&self.buf)?;
        if self.cfg.line_buffered {
            self.out.flush()?;
        }
        Ok(())
    }

    /// `{"file":..,"line":N,"input":".."` (file only when names are
    /// shown).
    fn json_head(&mut self, file: &[u8], n: u64, input: &[u8]) {
        let b = &mut self.buf;
        b.push(b'{');
        let mut first = true;
        if self.cfg.with_filename {
            json_field(b, true, "file", file);
            first = false;
        }
        json_num(b, first, "line", n);
        json_field(b, false, "input", input);
    }

    fn json_error(&mut self, offset: usize, message: &str) {
        let b = &mut self.buf;
        b.extend_from_slice(b",\"valid\":false,\"error\":{");
        json_num(b, true, "offset", offset as u64);
        json_field(b, false, "message", message.as_bytes());
        b.push(b'}');
    }

    /// `PATH:LINE:COL: MESSAGE\n` (COL is 1-based).
    fn plain_error(&mut self, file: &[u8], n: u64, offset: usize, msg: &str) {
        let b = &mut self.buf;
        b.extend_from_slice(file);
        writeln!(b, ":{n}:{}: {msg}", offset + 1).expect("write to Vec");
    }

    fn check(
        &mut self,
        file: &[u8],
        n: u64,
        input: &[u8],
        res: &Result<Components<'_>, Error>,
    ) -> bool {
        if self.cfg.json {
            self.json_head(file, n, input);
            match res {
                Ok(_) => self.buf.extend_from_slice(b",\"valid\":true"),
                Err(e) => self.json_error(e.offset(), e.message()),
            }
            self.buf.extend_from_slice(b"}\n");
        } else if let Err(e) = res {
            self.plain_error(file, n, e.offset(), e.message());
        }
        res.is_ok()
    }

    fn parse(
        &mut self,
        file: &[u8],
        n: u64,
        input: &[u8],
        res: &Result<Components<'_>, Error>,
    ) -> bool {
        self.json_head(file, n, input);
        match res {
            Ok(c) => {
                let b = &mut self.buf;
                b.extend_from_slice(b",\"valid\":true");
                let opt = |b: &mut Vec<u8>, k: &str, v: Option<&[u8]>| match v
                {
                    Some(v) => json_field(b, false, k, v),
                    None => {
                        json_key(b, false, k);
                        b.extend_from_slice(b"null");
                    }
                };
                opt(b, "scheme", c.scheme);
                opt(b, "authority", c.authority);
                opt(b, "userinfo", c.userinfo);
                opt(b, "host", c.host);
                opt(b, "port", c.port);
                json_key(b, false, "path");
                json_string(b, c.path);
                opt(b, "query", c.query);
                opt(b, "fragment", c.fragment);
            }
            Err(e) => self.json_error(e.offset(), e.message()),
        }
        self.buf.extend_from_slice(b"}\n");
        res.is_ok()
    }

    fn resolve(
        &mut self,
        file: &[u8],
        n: u64,
        input: &[u8],
        res: &Result<Components<'_>, Error>,
        base: &[u8],
    ) -> bool {
        let out =
            match res {
                Ok(_) => resolve(base, input, self.cfg.compat)
                    .map(|r| {
                        if self.cfg.normalize {
                            uri::normalize(&r)
                        } else {
                            r
                        }
                    })
                    .map_err(|m| (0, m)),
                Err(e) => Err((e.offset(), e.message().to_string())),
            };
        if self.cfg.json {
            self.json_head(file, n, input);
            match &out {
                Ok(r) => {
                    self.buf.extend_from_slice(b",\"valid\":true");
                    json_field(&mut self.buf, false, "resolved", r);
                }
                Err((off, m)) => self.json_error(*off, m),
            }
            self.buf.extend_from_slice(b"}\n");
        } else {
            match &out {
                Ok(r) => {
                    self.buf.extend_from_slice(r);
                    self.buf.push(b'\n');
                }
                Err((off, m)) => {
                    // The output stays one resolved URI per line; the
                    // fault goes to stderr in --check's format.
                    let mut place = file.to_vec();
                    write!(place, ":{n}:{}", off + 1).expect("write to Vec");
                    report_error(&place, m);
                }
            }
        }
        out.is_ok()
    }
}

/// Resolves `reference` against `base` (section 5.2); `compat` selects
/// the backwards-compatible reading of `http:g`.
fn resolve(
    base: &[u8],
    reference: &[u8],
    compat: bool,
) -> Result<Vec<u8>, String> {
    let mode =
        if compat { ResolveMode::Compatible } else { ResolveMode::Strict };
    uri::resolve(base, reference, mode).map_err(|e| e.to_string())
}

/// Reports that the input `name` could not be read, unless `-s`.
fn input_error(cfg: &Config, name: &[u8], reason: &str) {
    if !cfg.no_messages {
        report_error(name, reason);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], keep: usize) -> Vec<(Vec<u8>, usize)> {
        let mut rdr = BufReader::with_capacity(4, input);
        let mut out = Vec::new();
        loop {
            let mut line = Vec::new();
            let n = read_line_capped(&mut rdr, &mut line, keep).unwrap();
            if n == 0 {
                return out;
            }
            out.push((line, n));
        }
    }

    #[test]
    fn capped_lines_consume_everything_and_keep_a_prefix() {
        assert_eq!(
            lines(b"ab\n\ncdefgh\nij", 100),
            [
                (b"ab\n".to_vec(), 3),
                (b"\n".to_vec(), 1),
                (b"cdefgh\n".to_vec(), 7),
                (b"ij".to_vec(), 2)
            ]
        );
        assert_eq!(
            lines(b"abcdefghij\nk\n", 3),
            [(b"abc".to_vec(), 11), (b"k\n".to_vec(), 2)]
        );
        assert!(lines(b"", 3).is_empty());
    }
}
