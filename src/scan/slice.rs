//! The slice driver: [`Items`] and [`FindIter`] run the engine over a
//! byte slice held whole, following the engine's protocol (next
//! trigger, decide, take the outcomes); with the whole input at hand,
//! every decision is final.

use crate::scan::decision::{Found, Out};
use crate::scan::engine::Engine;
use crate::scan::lines::Lines;
#[cfg(doc)]
use crate::scan::{Finder, Position};
use crate::scan::{Item, Match};

/// Iterator over the matches in a slice; see [`Finder::find_iter`].
///
/// # Example
///
/// ```
/// let f = urifind::Finder::new();
/// let mut it = f.find_iter(b"http://a.example/ and news:comp.lang.c");
/// assert_eq!(it.next().unwrap().uri(), b"http://a.example/");
/// assert_eq!(it.next().unwrap().uri(), b"news:comp.lang.c");
/// assert!(it.next().is_none());
/// ```
pub struct FindIter<'f, 'h> {
    items: Items<'f, 'h>,
}

impl std::fmt::Debug for FindIter<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FindIter").field("items", &self.items).finish()
    }
}

impl<'f, 'h> FindIter<'f, 'h> {
    pub(crate) fn new(items: Items<'f, 'h>) -> FindIter<'f, 'h> {
        FindIter { items }
    }

    /// The engine, to be used again on another input (see `Scanner`).
    pub(crate) fn into_engine(self) -> Engine<'f> {
        self.items.into_engine()
    }
}

impl<'f, 'h> Iterator for FindIter<'f, 'h> {
    type Item = Match<'h>;
    fn next(&mut self) -> Option<Match<'h>> {
        // The engine's outcomes straight to matches, rejections dropped
        // unseen (a `FindIter` counts no lines).
        let it = &mut self.items;
        loop {
            match it.eng.pop() {
                Some(Out::Match(f)) => return Some(f.into_match(it.hay, 0)),
                Some(Out::Rejected(_)) => continue,
                None => {}
            }
            match it.step() {
                Step::Found(f) => return Some(f.into_match(it.hay, 0)),
                Step::Queued => {}
                Step::Done => return None,
            }
        }
    }

    /// The matches in one loop (`count`, `for_each` and the adapters
    /// that iterate inside come here): a call of [`Iterator::next`] per
    /// match saves and restores the registers of the whole scan, which
    /// is inlined into it (some forty instructions, a fifteenth of a
    /// match of dense text).
    fn fold<B, F>(mut self, init: B, mut f: F) -> B
    where
        F: FnMut(B, Match<'h>) -> B,
    {
        let it = &mut self.items;
        let mut acc = init;
        loop {
            while let Some(o) = it.eng.pop() {
                if let Out::Match(m) = o {
                    acc = f(acc, m.into_match(it.hay, 0));
                }
            }
            match it.step() {
                Step::Found(m) => acc = f(acc, m.into_match(it.hay, 0)),
                Step::Queued => {}
                Step::Done => return acc,
            }
        }
    }
}

/// Iterator over the items in a slice; see [`Finder::items`].
///
/// # Example
///
/// ```
/// use urifind::scan::Item;
///
/// let f = urifind::Finder::builder().rejected(true).build().unwrap();
/// let kinds: Vec<&str> = f
///     .items(b"http://a.example/ http://")
///     .map(|it| match it {
///         Item::Match(_) => "match",
///         _ => "other",
///     })
///     .collect();
/// assert_eq!(kinds, ["match", "other"]);
/// ```
pub struct Items<'f, 'h> {
    hay: &'h [u8],
    eng: Engine<'f>,
    done: bool,
    lines: Option<Lines>,
}

impl std::fmt::Debug for Items<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Items")
            .field("len", &self.hay.len())
            .field("searched_to", &self.eng.searched_to())
            .field("done", &self.done)
            .field("count_lines", &self.lines.is_some())
            .finish_non_exhaustive()
    }
}

impl<'f, 'h> Items<'f, 'h> {
    pub(crate) fn new(eng: Engine<'f>, hay: &'h [u8]) -> Items<'f, 'h> {
        Items { hay, eng, done: false, lines: None }
    }

    /// The engine, to be used again on another input (see `Scanner`).
    pub(crate) fn into_engine(self) -> Engine<'f> {
        self.eng
    }

    /// Decides the next trigger: a match of the plain way comes back
    /// (taken through the queue, it would be read back wider than it
    /// was written, a stall at every match of dense text); anything else
    /// is queued.
    #[inline(always)]
    fn step(&mut self) -> Step {
        if self.done {
            return Step::Done;
        }
        match self.eng.next_trigger(self.hay, 0, true) {
            None => self.done = true,
            Some(t) => {
                if let Some(f) = self.eng.decide_whole(self.hay, t) {
                    return Step::Found(f);
                }
            }
        }
        Step::Queued
    }

    /// The item of the match `f`, as the queue's outcome would make it.
    #[inline(always)]
    fn item(&mut self, f: Found) -> Item<'h> {
        let o = Out::Match(f);
        let at = o.position(self.hay, self.lines.as_mut());
        o.into_item(self.hay, at)
    }

    /// Hands the items, in order, to `f` until it returns false; returns
    /// false when `f` stopped, true when the slice is done. The items
    /// the iterator gives, made where `f` takes them rather than moved
    /// out of a call (cheaper when items are many).
    ///
    /// # Example
    ///
    /// ```
    /// let f = urifind::Finder::new();
    /// let mut n = 0;
    /// let mut items = f.items(b"http://a.example/ http://b.example/ c:d");
    /// assert!(!items.for_each_while(|_| { n += 1; n < 2 }));
    /// assert_eq!(n, 2);
    /// assert!(items.for_each_while(|_| true));
    /// ```
    #[inline]
    pub fn for_each_while(
        &mut self,
        mut f: impl FnMut(Item<'h>) -> bool,
    ) -> bool {
        loop {
            while let Some(o) = self.eng.pop() {
                let at = o.position(self.hay, self.lines.as_mut());
                if !f(o.into_item(self.hay, at)) {
                    return false;
                }
            }
            match self.step() {
                Step::Found(m) => {
                    if !f(self.item(m)) {
                        return false;
                    }
                }
                Step::Queued => {}
                Step::Done => return true,
            }
        }
    }

    /// Count lines so that items carry a [`Position`].
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::scan::Item;
    ///
    /// let f = urifind::Finder::new();
    /// let it = f.items(b"a\nb http://a.example/\n").count_lines(true).next();
    /// let Some(Item::Match(m)) = it else { panic!() };
    /// let p = m.position().unwrap();
    /// assert_eq!((p.line, p.column), (2, 3));
    /// ```
    pub fn count_lines(mut self, yes: bool) -> Self {
        self.lines = yes.then(Lines::new);
        self
    }
}

impl<'f, 'h> Iterator for Items<'f, 'h> {
    type Item = Item<'h>;
    fn next(&mut self) -> Option<Item<'h>> {
        loop {
            if let Some(o) = self.eng.pop() {
                let at = o.position(self.hay, self.lines.as_mut());
                return Some(o.into_item(self.hay, at));
            }
            match self.step() {
                Step::Found(f) => return Some(self.item(f)),
                Step::Queued => {}
                Step::Done => return None,
            }
        }
    }
}

/// What deciding a trigger gave.
enum Step {
    /// A match, not queued.
    Found(Found),
    /// Outcomes (maybe none) in the engine's queue.
    Queued,
    /// No trigger is left.
    Done,
}
