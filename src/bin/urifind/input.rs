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
    /// Gzip data read without `-z`: skipped like binary data (`-a` would
    /// search the compressed bytes, which hold no URI).
    Gzip,
    /// Mail: one message or an mbox, read as a mail reader shows it
    /// (`--mail`, or `--mail=auto` and a head that looks like mail).
    Mail,
}

impl Kind {
    /// Why an input of this kind is skipped, in words for the user, or
    /// `None` when it is searched.
    pub fn skipped(self) -> Option<&'static str> {
        match self {
            Kind::Binary => Some(
                "binary file skipped (a NUL byte in its first 8 KiB; -a \
                 searches it)",
            ),
            Kind::Gzip => {
                Some("gzip file skipped (-z decompresses and searches it)")
            }
            Kind::Text | Kind::Mail => None,
        }
    }
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
    if !cfg.text && !stdin && !cfg.gzip && head.starts_with(&GZIP) {
        Kind::Gzip
    } else if !cfg.text && !stdin && memchr::memchr(0, head).is_some() {
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

/// A read that failed after giving some bytes: those bytes and the
/// error.
struct Partial(Vec<u8>, io::Error);

impl From<Partial> for io::Error {
    fn from(p: Partial) -> io::Error {
        p.1
    }
}

/// A reader whose only read fails with the error it holds (then it is
/// at its end): the rest of an input that broke off.
struct Failed(Option<io::Error>);

impl Read for Failed {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        self.0.take().map_or(Ok(0), Err)
    }
}

/// Reads up to `size` bytes: until full or end of input when `fill`,
/// else with one read (so an interactive stdin is not held up).
fn peek<R: Read>(
    rdr: &mut R,
    fill: bool,
    size: usize,
) -> Result<Vec<u8>, Partial> {
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
            Err(e) => {
                head.truncate(n);
                return Err(Partial(head, e));
            }
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
        Entry::File(p, _) => {
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
        match peek(&mut gz, true, head_size(cfg)) {
            Ok(h) => {
                head = h;
                rdr = gz;
            }
            // A short compressed file that breaks off: what was
            // decompressed before the fault is searched, then the fault
            // is reported, as for a longer one.
            Err(Partial(h, e)) if !h.is_empty() => {
                head = h;
                rdr = Box::new(Failed(Some(e)));
            }
            Err(Partial(_, e)) => return Err(e),
        }
    }
    let kind = kind(&head, cfg, matches!(entry, Entry::Stdin));
    let rdr = Box::new(Cursor::new(head).chain(rdr));
    Ok(Opened { kind, source: Source::Reader(rdr, ahead) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(args: &[&str]) -> Config {
        use clap::Parser;
        let mut v = vec!["urifind"];
        v.extend_from_slice(args);
        let low = crate::args::LowArgs::try_parse_from(v).unwrap();
        Config::from_args(low, &crate::config::Env::default()).unwrap()
    }

    #[test]
    fn a_read_failing_midway_keeps_what_came_before() {
        let mut r = Cursor::new(b"abc".to_vec())
            .chain(Failed(Some(io::Error::other("broken"))));
        let Err(Partial(head, e)) = peek(&mut r, true, 8) else {
            panic!("the error is lost")
        };
        assert_eq!(
            (head.as_slice(), e.to_string().as_str()),
            (&b"abc"[..], "broken")
        );
        let mut f = Failed(Some(io::Error::other("x")));
        assert!(f.read(&mut [0; 4]).is_err());
        assert_eq!(f.read(&mut [0; 4]).unwrap(), 0);
    }

    #[test]
    fn gzip_without_z_is_skipped_with_its_own_note() {
        let gz = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03http://a/";
        assert_eq!(kind(gz, &config(&[]), false), Kind::Gzip);
        assert!(Kind::Gzip.skipped().unwrap().contains("-z"));
        assert!(!Kind::Gzip.skipped().unwrap().contains("-a"));
        assert_eq!(kind(gz, &config(&["-a"]), false), Kind::Text);
        assert_eq!(kind(gz, &config(&[]), true), Kind::Text);
        assert_eq!(kind(b"a\0b", &config(&[]), false), Kind::Binary);
        assert!(Kind::Binary.skipped().unwrap().contains("-a"));
        assert_eq!(Kind::Text.skipped(), None);
    }

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
        assert_eq!(peek(&mut Trickle(5), true, 8).ok().unwrap().len(), 5);
        assert_eq!(peek(&mut Trickle(5), false, 8).ok().unwrap().len(), 1);
        let big = vec![b'a'; 20_000];
        let n = peek(&mut &big[..], true, BINARY_PEEK).ok().unwrap().len();
        assert_eq!(n, BINARY_PEEK);
    }
}
