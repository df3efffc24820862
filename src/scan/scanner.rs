//! A scan kept from one text to the next: [`Scanner`] holds the engine
//! a scan runs (its validators, its trigger search set up for the
//! options, its queue and candidate buffers) and lends it to one text
//! at a time, instead of building and dropping one per text as
//! [`Finder::find_iter`] and [`Finder::items`] do. For many short texts
//! (rows of a table, parts of messages) that setup is a noticeable
//! share of the time; the items are the same.

use crate::scan::engine::Engine;
use crate::scan::slice::{FindIter, Items};
use crate::scan::{Finder, Item, Match};

/// A reusable scan of one [`Finder`]: the same matches and items as
/// [`Finder::find_iter`] and [`Finder::items`], with the scan's setup and
/// memory kept from text to text. One text at a time: the iterator
/// borrows the scanner, and hands the engine back when dropped.
///
/// # Example
///
/// ```
/// let f = urifind::Finder::new();
/// let mut scanner = f.scanner();
/// let rows: [&[u8]; 3] = [b"see http://a.example/.", b"nothing here", b"<ftp://b.example/x>"];
/// let mut uris = Vec::new();
/// for row in rows {
///     uris.extend(scanner.find_iter(row).map(|m| m.uri().to_vec()));
/// }
/// assert_eq!(uris, [b"http://a.example/".to_vec(), b"ftp://b.example/x".to_vec()]);
/// ```
pub struct Scanner<'f> {
    finder: &'f Finder,
    /// The engine, between texts (`None` while an iterator holds it, or
    /// if one was leaked: a new one is built then).
    eng: Option<Engine<'f>>,
}

impl std::fmt::Debug for Scanner<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scanner").field("ready", &self.eng.is_some()).finish()
    }
}

impl<'f> Scanner<'f> {
    pub(crate) fn new(finder: &'f Finder) -> Scanner<'f> {
        Scanner { finder, eng: Some(finder.engine()) }
    }

    /// The engine, ready for a new text.
    fn lend(&mut self) -> Engine<'f> {
        match self.eng.take() {
            Some(mut eng) => {
                eng.reset();
                eng
            }
            None => self.finder.engine(),
        }
    }

    /// The URIs in `hay`, in order: what [`Finder::find_iter`] gives.
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let mut s = f.scanner();
    /// assert_eq!(s.find_iter(b"(see http://a.example/x_(y)).").count(), 1);
    /// assert_eq!(s.find_iter(b"news:comp.lang.c and mailto:a@b.example").count(), 2);
    /// ```
    pub fn find_iter<'s, 'h>(
        &'s mut self,
        hay: &'h [u8],
    ) -> ScanMatches<'s, 'f, 'h> {
        let eng = self.lend();
        ScanMatches {
            it: Some(FindIter::new(Items::new(eng, hay))),
            home: &mut self.eng,
        }
    }

    /// Matches and (when asked with
    /// [`FinderBuilder::rejected`](crate::FinderBuilder::rejected))
    /// rejected candidates in `hay`, in order: what [`Finder::items`]
    /// gives.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::scan::Item;
    ///
    /// let f = urifind::Finder::builder().rejected(true).build().unwrap();
    /// let mut s = f.scanner();
    /// for text in [&b"http://256.1.1.1/ x"[..], b"http://a.example/"] {
    ///     let kinds: Vec<bool> =
    ///         s.items(text).map(|it| matches!(it, Item::Match(_))).collect();
    ///     assert_eq!(kinds.len(), 1);
    ///     assert_eq!(kinds[0], text.starts_with(b"http://a"));
    /// }
    /// ```
    pub fn items<'s, 'h>(
        &'s mut self,
        hay: &'h [u8],
    ) -> ScanItems<'s, 'f, 'h> {
        let eng = self.lend();
        ScanItems { it: Some(Items::new(eng, hay)), home: &mut self.eng }
    }
}

/// The matches of one text, from a [`Scanner`]; see
/// [`Scanner::find_iter`].
///
/// # Example
///
/// ```
/// let f = urifind::Finder::new();
/// let mut s = f.scanner();
/// let mut it = s.find_iter(b"http://a.example/ and news:comp.lang.c");
/// assert_eq!(it.next().unwrap().uri(), b"http://a.example/");
/// assert_eq!(it.next().unwrap().uri(), b"news:comp.lang.c");
/// assert!(it.next().is_none());
/// ```
pub struct ScanMatches<'s, 'f, 'h> {
    /// Always `Some` until dropped.
    it: Option<FindIter<'f, 'h>>,
    home: &'s mut Option<Engine<'f>>,
}

impl std::fmt::Debug for ScanMatches<'_, '_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScanMatches").field("it", &self.it).finish()
    }
}

impl<'h> Iterator for ScanMatches<'_, '_, 'h> {
    type Item = Match<'h>;
    #[inline]
    fn next(&mut self) -> Option<Match<'h>> {
        self.it.as_mut()?.next()
    }
}

impl Drop for ScanMatches<'_, '_, '_> {
    fn drop(&mut self) {
        if let Some(it) = self.it.take() {
            *self.home = Some(it.into_engine());
        }
    }
}

/// The items of one text, from a [`Scanner`]; see [`Scanner::items`].
///
/// # Example
///
/// ```
/// use urifind::scan::Item;
///
/// let f = urifind::Finder::new();
/// let mut s = f.scanner();
/// let it = s.items(b"a\nb http://a.example/\n").count_lines(true).next();
/// let Some(Item::Match(m)) = it else { panic!() };
/// assert_eq!(m.position().unwrap().line, 2);
/// ```
pub struct ScanItems<'s, 'f, 'h> {
    /// Always `Some` until dropped.
    it: Option<Items<'f, 'h>>,
    home: &'s mut Option<Engine<'f>>,
}

impl std::fmt::Debug for ScanItems<'_, '_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScanItems").field("it", &self.it).finish()
    }
}

impl ScanItems<'_, '_, '_> {
    /// Count lines so that items carry a
    /// [`Position`](crate::scan::Position), as [`Items::count_lines`].
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let mut s = f.scanner();
    /// let n = s.items(b"x\nhttp://a.example/").count_lines(true).count();
    /// assert_eq!(n, 1);
    /// ```
    pub fn count_lines(mut self, yes: bool) -> Self {
        self.it = self.it.take().map(|it| it.count_lines(yes));
        self
    }
}

impl<'h> Iterator for ScanItems<'_, '_, 'h> {
    type Item = Item<'h>;
    #[inline]
    fn next(&mut self) -> Option<Item<'h>> {
        self.it.as_mut()?.next()
    }
}

impl Drop for ScanItems<'_, '_, '_> {
    fn drop(&mut self) {
        if let Some(it) = self.it.take() {
            *self.home = Some(it.into_engine());
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use crate::scan::{Finder, Item};

    /// Every item as comparable text: kind, span, URI.
    fn seen<'h>(items: impl Iterator<Item = Item<'h>>) -> Vec<String> {
        items.map(|it| format!("{it:?}")).collect()
    }

    fn finders() -> Vec<Finder> {
        let b = || {
            let mut b = Finder::builder();
            b.rejected(true);
            b
        };
        vec![
            Finder::new(),
            b().build().unwrap(),
            b().iri(true).abbreviated(true).build().unwrap(),
            b().any_scheme(true).build().unwrap(),
        ]
    }

    /// Texts that leave facts behind in a scan: open quotes and angle
    /// brackets, parentheses, rejoined lines, abbreviated URIs, long
    /// runs, then a text where those facts would be wrong.
    const TRICKY: &[&[u8]] = &[
        b"<http://a.example/\n  x (y \"z",
        b"\"http://b.example/ q> ) www.c.example",
        b"http://[::1: http://d.example/a_(b)c) <URL:e:f>",
        b"",
        b"x>\" http://e.example/y\n",
        b"www.a.example ftp.b.example http://",
    ];

    #[test]
    fn texts_in_a_row_give_what_each_gives_alone() {
        for f in finders() {
            let mut s = f.scanner();
            for _ in 0..2 {
                for &t in TRICKY {
                    assert_eq!(seen(s.items(t)), seen(f.items(t)));
                    let one: Vec<_> = s.find_iter(t).collect();
                    let alone: Vec<_> = f.find_iter(t).collect();
                    assert_eq!(format!("{one:?}"), format!("{alone:?}"));
                }
            }
        }
    }

    #[test]
    fn an_iterator_left_half_way_or_leaked_spoils_nothing() {
        let f = Finder::new();
        let mut s = f.scanner();
        let t = b"http://a.example/ <http://b.example/\n x> http://c.example/";
        assert!(s.find_iter(t).next().is_some());
        std::mem::forget(s.find_iter(b"\"http://d.example/ (x"));
        assert_eq!(seen(s.items(t)), seen(f.items(t)));
        let n = s.items(t).count_lines(true).count();
        assert_eq!(n, 3);
    }

    fn texts() -> impl Strategy<Value = Vec<Vec<u8>>> {
        let piece = prop::sample::select(vec![
            &b"http://a.example/"[..],
            b"<",
            b">",
            b"\"",
            b"(",
            b")",
            b"[",
            b"]",
            b"\n  ",
            b"\n",
            b" ",
            b":",
            b"//",
            b"www.",
            b"ftp.",
            b"x",
            b"-",
            b".",
            b"mailto:a@b.example",
            b"URL:",
            b"[::1:",
            b"\xc3\xa9",
        ]);
        let text =
            prop::collection::vec(piece, 0..40).prop_map(|p| p.concat());
        prop::collection::vec(text, 1..6)
    }

    proptest! {
        #[test]
        fn a_reused_scanner_agrees_with_fresh_scans(ts in texts()) {
            for f in finders() {
                let mut s = f.scanner();
                for t in &ts {
                    prop_assert_eq!(seen(s.items(t)), seen(f.items(t)));
                    let a: Vec<_> = s.find_iter(t).collect();
                    let b: Vec<_> = f.find_iter(t).collect();
                    prop_assert_eq!(format!("{a:?}"), format!("{b:?}"));
                }
            }
        }
    }
}
