//! Inputs: opening what the walk listed (a file or standard input),
//! looking at its first bytes to decide what it is (text, binary, gzip)
//! and handing the searcher a source of bytes: a large regular file
//! mapped into memory, or a reader (pipes, special files, small files,
//! decompressed gzip).
//!
//! The decision is made once per input, from its head, in [`kind`]:
//! this is where a new input format is recognized before searching.

use std::fs::File;
use std::io::{self, Cursor, Read};

use urifind::mail::detect;

use crate::args::MailWhen;
use crate::config::{Config, Mode};
use crate::walk::Entry;

/// How many bytes are looked at for a NUL to call a file binary.
const BINARY_PEEK: usize = 8 * 1024;

/// Regular files at least this large are mapped into memory (or, when
/// that cannot be done, read ahead on a second thread): below it,
/// setting up a map or a thread costs more than it saves.
const LARGE: u64 = 4 << 20;

/// The gzip magic bytes.
const GZIP: [u8; 2] = [0x1f, 0x8b];

/// The bytes of an input, ready to search.
pub enum Source {
    /// A large regular file, mapped into memory.
    #[cfg(unix)]
    Mapped(crate::mapped::Mapped),
    /// A reader, and whether to read it ahead on a second thread (large
    /// files, pipes and decompression).
    Reader(Box<dyn Read + Send>, bool),
}

/// What an input turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Text to search.
    Text,
    /// Binary data (a NUL in the first 8 KiB), skipped unless `-a`.
    Binary,
    /// Mail: one message or an mbox, read as a mail reader shows it
    /// (`--mail`, or `--mail=auto` and a head that looks like mail).
    Mail,
}

/// An opened input.
pub struct Opened {
    /// What it is.
    pub kind: Kind,
    /// Its bytes (after decompression), from the first.
    pub source: Source,
}

/// Decides what an input is from its first bytes (at most 64 KiB, after
/// decompression); `stdin` says whether it is standard input.
pub fn kind(head: &[u8], cfg: &Config, stdin: bool) -> Kind {
    let find = cfg.mode == Mode::Find;
    if find && cfg.mail != MailWhen::Never && detect::looks_like_mail(head) {
        return Kind::Mail;
    }
    let head = &head[..head.len().min(BINARY_PEEK)];
    // Standard input is a filter: it is always text (a NUL is a control
    // byte that ends a URI), as in `grep -a`. Under --mail a binary file
    // that does not start like mail (a mail store's index) is skipped
    // too.
    if !cfg.text && !stdin && memchr::memchr(0, head).is_some() {
        Kind::Binary
    } else if find && cfg.mail == MailWhen::Always {
        Kind::Mail
    } else {
        Kind::Text
    }
}

/// How many bytes [`kind`] looks at: the binary check's 8 KiB, or
/// enough for a long mail header block when mail is looked for.
fn head_size(cfg: &Config) -> usize {
    if cfg.mail != MailWhen::Never {
        detect::HEAD
    } else {
        BINARY_PEEK
    }
}

/// Reads up to `size` bytes: until full or end of input when `fill`,
/// else with one read (so an interactive stdin is not held up).
fn peek<R: Read>(rdr: &mut R, fill: bool, size: usize) -> io::Result<Vec<u8>> {
    let mut head = vec![0; size];
    let mut n = 0;
    while n < head.len() {
        match rdr.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => {
                n += k;
                if !fill {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    head.truncate(n);
    Ok(head)
}

/// Opens `entry`: decompresses gzip with `-z` and decides its [`Kind`].
///
/// # Errors
///
/// Errors opening or reading the start of the input.
pub fn open(entry: &Entry, cfg: &Config) -> io::Result<Opened> {
    // Large files that could not be mapped, pipes and gzip are read on a
    // second thread while the first scans; a read from a pipe returns
    // what has arrived, so the filter stays live.
    type Input = (Box<dyn Read + Send>, bool, bool);
    let (mut rdr, regular, mut ahead): Input = match entry {
        Entry::Stdin => (Box::new(io::stdin()), false, true),
        Entry::File(p) => {
            let f = File::open(p)?;
            let md = f.metadata()?;
            let large = md.is_file() && md.len() >= LARGE;
            #[cfg(unix)]
            if large {
                // A file system that cannot map the file is read instead.
                let map = crate::mapped::Mapped::new(&f, md.len());
                if let Ok(Some(m)) = map {
                    let n = head_size(cfg).min(m.bytes().len());
                    let head = &m.bytes()[..n];
                    if !(cfg.gzip && head.starts_with(&GZIP)) {
                        let kind = kind(head, cfg, false);
                        return Ok(Opened { kind, source: Source::Mapped(m) });
                    }
                    // Compressed: read through the decompressor below
                    // (mapping moved no file offset).
                }
            }
            (Box::new(f), md.is_file(), large)
        }
        Entry::Error(_, m) => return Err(io::Error::other(m.clone())),
    };
    let mut head = peek(&mut rdr, regular, head_size(cfg))?;
    if cfg.gzip && head.starts_with(&GZIP) {
        let raw = Cursor::new(head).chain(rdr);
        // Decompression runs on its own thread, ahead of the scanner.
        let mut gz: Box<dyn Read + Send> =
            Box::new(flate2::read::MultiGzDecoder::new(raw));
        ahead = true;
        head = peek(&mut gz, true, head_size(cfg))?;
        rdr = gz;
    }
    let kind = kind(&head, cfg, matches!(entry, Entry::Stdin));
    let rdr = Box::new(Cursor::new(head).chain(rdr));
    Ok(Opened { kind, source: Source::Reader(rdr, ahead) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peek_fills_or_reads_once() {
        struct Trickle(usize);
        impl Read for Trickle {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0 == 0 {
                    return Ok(0);
                }
                self.0 -= 1;
                buf[0] = b'x';
                Ok(1)
            }
        }
        assert_eq!(peek(&mut Trickle(5), true, 8).unwrap().len(), 5);
        assert_eq!(peek(&mut Trickle(5), false, 8).unwrap().len(), 1);
        let big = vec![b'a'; 20_000];
        let n = peek(&mut &big[..], true, BINARY_PEEK).unwrap().len();
        assert_eq!(n, BINARY_PEEK);
    }
}
