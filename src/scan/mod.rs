//! The Appendix E scanner: finds URIs in prose, over byte slices and
//! streams.
//!
//! This module owns the public face of scanning ([`Finder`], [`Match`],
//! [`Rejected`]); the drivers over a slice ([`Items`]), over any reader
//! ([`Stream`]) and over a slice in parts ([`Split`]), and one engine kept over many slices ([`Scanner`]) live in files of
//! their own. Every driver feeds the same `engine` the same windows,
//! which is why they agree byte for byte; the engine hands each trigger
//! to the contexts (`delimited`, `bare`, `abbrev`, `plain`), which
//! assemble a candidate (`candidate`), judge it (`judge`) and return a
//! verdict (`verdict`), all in the vocabulary of `decision` and the byte
//! classes of `text`.

use std::io;

mod abbrev;
mod bare;
mod brackets;
mod builder;
mod candidate;
mod continuation;
mod decision;
mod delimited;
mod engine;
mod entity;
mod hyphen;
mod iri;
mod item;
mod judge;
mod jump;
mod lines;
mod plain;
mod refusal;
mod scanner;
mod scheme;
mod sieve;
mod slice;
mod split;
mod stream;
mod text;
mod trigger;
mod trim;
mod xml;

pub use builder::{BuildError, FinderBuilder};
use engine::Engine;
pub use hyphen::{Hyphen, ParseHyphenError};
pub(crate) use item::Shape;
pub use item::{Context, Item, Match, Position, Rejected};
pub use refusal::RejectReason;
pub use scanner::{ScanItems, ScanMatches, Scanner};
pub use slice::{FindIter, Items};
pub use split::{Joint, Journal, Pending, Split, SplitPart};
pub use stream::{Feeder, Stream};

/// Finds URIs in text; build once, use many times.
///
/// # Example
///
/// ```
/// use urifind::{Context, Finder};
///
/// let text = b"Yes, Jim, I found it under \"http://www.w3.org/Addressing/\",\n\
///              but you can probably pick it up from <ftp://ds.internic.\n\
///              net/rfc/>.";
/// let f = Finder::new();
/// let m: Vec<_> = f.find_iter(text).collect();
/// assert_eq!(m[0].uri(), b"http://www.w3.org/Addressing/");
/// assert_eq!(m[0].context(), Context::Quoted);
/// assert_eq!(m[1].uri(), b"ftp://ds.internic.net/rfc/");
/// assert_eq!(m[1].context(), Context::Angle);
/// ```
#[derive(Clone, Debug)]
pub struct Finder {
    opts: FinderBuilder,
}

impl Default for Finder {
    fn default() -> Self {
        Finder::new()
    }
}

impl Finder {
    /// A finder with default options.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// assert_eq!(f.find_iter(b"mailto:a@b.example").count(), 1);
    /// ```
    pub fn new() -> Finder {
        // The default options are valid: nothing to check.
        Finder { opts: FinderBuilder::new() }
    }

    /// A builder for options.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::builder().any_scheme(true).build().unwrap();
    /// assert_eq!(f.find_iter(b"x-y:z").count(), 1);
    /// ```
    pub fn builder() -> FinderBuilder {
        FinderBuilder::new()
    }

    /// The link analyzer that matches this finder's options (grammar,
    /// IRIs, browser hosts).
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::builder().iri(true).build().unwrap();
    /// let text = b"https://slack-redir.net/link?url=https%3A%2F%2Fa.example%2F%C3%A9";
    /// let m = f.find_iter(text).next().unwrap();
    /// let link = f.link_analyzer().analyze(m.uri());
    /// assert_eq!(link.target.as_deref(), Some("https://a.example/é"));
    /// ```
    pub fn link_analyzer(&self) -> crate::link::Analyzer {
        crate::link::Analyzer::new()
            .grammar(self.opts.grammar)
            .iri(self.opts.iri)
            .browser_hosts(self.opts.browser_hosts)
    }

    pub(crate) fn engine(&self) -> Engine<'_> {
        Engine::new(&self.opts)
    }

    /// The URIs in `hay`, in order.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let n = f.find_iter(b"(see http://a.example/x_(y)).").count();
    /// assert_eq!(n, 1);
    /// ```
    pub fn find_iter<'f, 'h>(&'f self, hay: &'h [u8]) -> FindIter<'f, 'h> {
        FindIter::new(self.items(hay))
    }

    /// Matches and (when asked with [`FinderBuilder::rejected`]) rejected
    /// candidates in `hay`, in order.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::scan::Item;
    ///
    /// let f = urifind::Finder::builder().rejected(true).build().unwrap();
    /// let items: Vec<_> = f.items(b"http://256.1.1.1/ http://a.example/").collect();
    /// assert!(matches!(&items[0], Item::Rejected(r) if r.reason().to_string().contains("256")));
    /// assert!(matches!(&items[1], Item::Match(m) if m.uri() == b"http://a.example/"));
    /// ```
    pub fn items<'f, 'h>(&'f self, hay: &'h [u8]) -> Items<'f, 'h> {
        Items::new(self.engine(), hay)
    }

    /// A scan to run over many texts one after another, keeping its
    /// setup and memory from one to the next: for many short texts it is
    /// faster than [`Finder::find_iter`] per text, with the same matches
    /// (see [`Scanner`]).
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let mut s = f.scanner();
    /// let n: usize = [&b"http://a.example/"[..], b"x", b"news:a.b"]
    ///     .iter()
    ///     .map(|t| s.find_iter(t).count())
    ///     .sum();
    /// assert_eq!(n, 2);
    /// ```
    pub fn scanner(&self) -> Scanner<'_> {
        Scanner::new(self)
    }

    /// Cuts `hay` into about `parts` parts (at line starts where it has
    /// them), to be searched
    /// on several threads and joined into exactly the items of
    /// [`Finder::items`] on the whole of it (see [`Split`]). Parts are
    /// never shorter than 128 KiB (but the last).
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let text = b"http://a.example/ and more\n".repeat(100_000);
    /// assert_eq!(f.split(&text, 4).len(), 4);
    /// assert_eq!(f.split(b"short", 4).len(), 1);
    /// let one_line = b"http://a.example/ and more ".repeat(100_000);
    /// assert_eq!(f.split(&one_line, 4).len(), 4);
    /// ```
    pub fn split<'f, 'h>(
        &'f self,
        hay: &'h [u8],
        parts: usize,
    ) -> Split<'f, 'h> {
        Split::new(self, hay, parts)
    }

    /// Scans a reader in bounded memory: the same items, at the same
    /// absolute offsets, as [`Finder::items`] on the whole input.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::scan::Item;
    ///
    /// let f = urifind::Finder::new();
    /// let input = &b"line one\n<http://a.example/\n  b/c> done\n"[..];
    /// let uris: Vec<Vec<u8>> = f
    ///     .stream(input)
    ///     .map(|it| match it.unwrap() {
    ///         Item::Match(m) => m.uri().to_vec(),
    ///         _ => unreachable!(),
    ///     })
    ///     .collect();
    /// assert_eq!(uris, [b"http://a.example/b/c".to_vec()]);
    /// ```
    pub fn stream<R: io::Read>(&self, rdr: R) -> Stream<'_, R> {
        Stream::new(self.engine(), rdr)
    }

    /// Like [`Finder::stream`], but a second thread reads ahead while
    /// this one scans, into blocks the scanner then uses in place: for
    /// large inputs on a machine with a core to spare, reading costs
    /// (almost) no time. Same items, same offsets.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let data = b"see <http://a.example/\n  x> and http://b.example/.".to_vec();
    /// let n = f.stream_read_ahead(std::io::Cursor::new(data)).count();
    /// assert_eq!(n, 2);
    /// ```
    pub fn stream_read_ahead<R: io::Read + Send + 'static>(
        &self,
        rdr: R,
    ) -> Stream<'_, io::Empty> {
        Stream::read_ahead(self.engine(), rdr)
    }

    /// A scanner you feed chunk by chunk, for callers that do their own
    /// reading; it reports the same items as [`Finder::stream`].
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::scan::Item;
    ///
    /// let f = urifind::Finder::new();
    /// let mut uris = Vec::new();
    /// let mut keep = |it: Item<'static>| {
    ///     if let Item::Match(m) = it {
    ///         uris.push(m.uri().to_vec());
    ///     }
    /// };
    /// let mut feeder = f.feeder();
    /// feeder.feed(b"see <http://a.exa", &mut keep);
    /// feeder.feed(b"mple/\n  x> ok", &mut keep);
    /// feeder.finish(&mut keep);
    /// assert_eq!(uris, [b"http://a.example/x".to_vec()]);
    /// ```
    pub fn feeder(&self) -> Feeder<'_> {
        Feeder::new(self.engine())
    }
}

#[cfg(test)]
mod tests;
