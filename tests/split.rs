//! A slice searched in parts and joined ([`Finder::split`]) gives exactly
//! the items of one scan of the whole slice, whatever the text, the
//! options and the number of parts, both where neighbouring parts meet
//! at a shared state and where a part is scanned again.

use proptest::prelude::*;
use urifind::scan::Item;
use urifind::Finder;

use crate::stream_prop::{gen, invariants};

/// What identifies an item: kind, span, the URI or candidate, context.
fn key(it: &Item<'_>) -> (bool, std::ops::Range<usize>, Vec<u8>, String) {
    match it {
        Item::Match(m) => {
            (true, m.span(), m.uri().to_vec(), m.context().name().into())
        }
        Item::Rejected(r) => {
            (false, r.span(), r.candidate().to_vec(), r.reason().to_string())
        }
        _ => unreachable!(),
    }
}

type Key = (bool, std::ops::Range<usize>, Vec<u8>, String);

/// The parts of `hay` searched one by one and joined as the command
/// does; with `rescan`, every part after the first is scanned again
/// from its predecessor's last state instead of joined. Also returns
/// how many joins found a shared state.
fn joined(
    f: &Finder,
    hay: &[u8],
    parts: usize,
    rescan: bool,
) -> (Vec<Key>, usize) {
    let split = f.split(hay, parts);
    let mut out = Vec::new();
    let mut joins = 0;
    let scan = |p: urifind::scan::SplitPart<'_, '_>| {
        let mut p = p;
        let items: Vec<Key> = p.by_ref().map(|it| key(&it)).collect();
        (items, p.journal())
    };
    let (mut items, mut journal) = scan(split.part(0));
    let mut from = 0;
    for i in 1..split.len() {
        let next = scan(split.part(i));
        let joint = if rescan { None } else { split.join(&journal, &next.1) };
        match joint {
            Some(j) => {
                joins += 1;
                assert!(from <= j.keep && j.keep <= items.len());
                out.extend_from_slice(&items[from..j.keep]);
                from = j.from;
                (items, journal) = next;
            }
            None => {
                let keep = split.rescan_keeps(&journal);
                out.extend_from_slice(&items[from..keep]);
                from = 0;
                (items, journal) = scan(split.rescan(&journal, i));
            }
        }
    }
    out.extend_from_slice(&items[from..]);
    (out, joins)
}

fn whole(f: &Finder, hay: &[u8]) -> Vec<Key> {
    f.items(hay).map(|it| key(&it)).collect()
}

fn check(f: &Finder, hay: &[u8], parts: usize) -> usize {
    let want = whole(f, hay);
    let (got, joins) = joined(f, hay, parts, false);
    assert_eq!(got.len(), want.len(), "{parts} parts joined");
    assert!(got == want, "{parts} parts joined: items differ");
    let (again, _) = joined(f, hay, parts, true);
    assert!(again == want, "{parts} parts rescanned: items differ");
    joins
}

/// Every generated kind, realistic and adversarial, under the default
/// options and with rejected candidates: the same items, and in
/// realistic text the parts meet without scanning again.
#[test]
fn generated_corpora_split_equals_whole() {
    let plain = Finder::new();
    let rej =
        Finder::builder().rejected(true).abbreviated(true).build().unwrap();
    for kind in gen::kinds() {
        let hay = gen::generate(kind, 700 * 1024, 7).unwrap();
        for f in [&plain, &rej] {
            for parts in [2, 5] {
                let n = f.split(&hay, parts).len();
                let joins = check(f, &hay, parts);
                if ["prose", "rfc", "mail", "dense"].contains(&kind) {
                    assert_eq!(joins, n - 1, "{kind}: every part joined");
                }
            }
        }
    }
}

/// A URI rejoined across the cut between two parts, and one running
/// through it on one line: the part after the cut starts in the middle
/// of them and still meets its predecessor.
#[test]
fn uri_across_the_cut() {
    let f = Finder::new();
    let mut hay = b"x http://a.example/y\n".repeat(7000);
    let cut = f.split(&hay, 2).range(1).start;
    let tail =
        b"<http://b.example/\n  z/\n  w> and \"http://c.example/\n  v\"\n";
    hay.splice(cut - 20..cut - 20, tail.iter().copied());
    hay.extend_from_slice(&b"more http://d.example/ text\n".repeat(7000));
    check(&f, &hay, 2);
    check(&f, &hay, 3);
}

/// Parts start at line starts where there are lines, after a blank on
/// one long line, and anywhere in a run with neither; every way gives
/// the whole scan's items.
#[test]
fn where_parts_are_cut() {
    let f = Finder::new();
    let hay = b"b http://x.example/\n".repeat(40_000);
    let s = f.split(&hay, 4);
    assert_eq!(s.len(), 4);
    for i in 1..s.len() {
        assert_eq!(hay[s.range(i).start - 1], b'\n');
        assert_eq!(s.range(i - 1).end, s.range(i).start);
    }
    assert_eq!(s.range(3).end, hay.len());
    let line = b"a http://x.example/y ".repeat(40_000);
    let s = f.split(&line, 4);
    assert_eq!(s.len(), 4);
    for i in 1..s.len() {
        assert_eq!(line[s.range(i).start - 1], b' ');
    }
    check(&f, &line, 4);
    let run = b"http://x.example/(y)".repeat(40_000);
    assert_eq!(f.split(&run, 3).len(), 3);
    check(&f, &run, 3);
    let mut long = b"c http://x.example/\n".repeat(10_000);
    long.extend(b"d http://x.example/e ".repeat(30_000));
    long.extend(b"f http://x.example/g\n".repeat(10_000));
    check(&f, &long, 5);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random URI-like text, repeated past the smallest part, under
    /// random options.
    #[test]
    fn split_equals_whole(
        opt in any::<u8>(),
        unit in proptest::collection::vec(0..gen::kinds().len(), 1..4),
        seed in any::<u64>(),
        parts in 2usize..6,
    ) {
        let (f, _) = invariants::finder_from_byte(opt);
        let mut hay = Vec::new();
        for k in unit {
            hay.extend(gen::generate(gen::kinds()[k], 120 * 1024, seed).unwrap());
        }
        check(&f, &hay, parts);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The stream property's random fragments (URIs, delimiters, line
    /// breaks and their traps), repeated past the smallest part with
    /// the cuts falling anywhere in them.
    #[test]
    fn split_equals_whole_fragments(
        opt in any::<u8>(),
        t in crate::stream_prop::text(),
        parts in 2usize..6,
        pad in 0usize..64,
    ) {
        let (f, _) = invariants::finder_from_byte(opt);
        let mut hay = vec![b' '; pad];
        let mut k = 0;
        while hay.len() < 300 * 1024 {
            hay.extend_from_slice(&t);
            hay.extend(std::iter::repeat_n(b' ', k % 5));
            hay.push(b'\n');
            k += 1;
        }
        check(&f, &hay, parts);
    }
}

/// With IRIs, a bare candidate's end is found from its authority, not
/// from the remembered run of URI bytes: an overlong one must still read
/// its own run before looking for brackets past it, whatever candidate
/// the run before it belonged to (a part that starts mid-input used to
/// read a reach behind its own start there).
#[test]
fn overlong_iri_candidates_split_like_whole() {
    let mut b = Finder::builder();
    b.iri(true).max_uri_len(40).bracket_bound(24);
    let f = b.build().unwrap();
    let unit = b"a.examplehttp://a.example%41a.example&http://http://http://";
    let mut hay = Vec::new();
    let mut k = 0;
    while hay.len() < 300 * 1024 {
        hay.extend_from_slice(unit);
        hay.extend(std::iter::repeat_n(b' ', k % 5));
        hay.push(b'\n');
        k += 1;
    }
    for parts in 2..6 {
        check(&f, &hay, parts);
    }
}

/// The three ways to take a part's items (the iterator, a closure, and
/// pending items made into items later) give the same items, positions
/// included, and leave the same journal.
#[test]
fn iterator_closure_and_pending_items_agree() {
    let f = Finder::builder().rejected(true).build().unwrap();
    let mut hay = Vec::new();
    for k in 0..4000 {
        hay.extend_from_slice(match k % 4 {
            0 => &b"see <http://a.example/\n  x> and \"http://b.example/\"\n"[..],
            1 => b"bad http://-x.example/ and mailto:a@b.example.\n",
            2 => b"(http://c.example/p) http:// end\n",
            _ => b"plain words, no address here\n",
        });
    }
    let split = f.split(&hay, 3);
    assert!(split.len() > 1);
    let with_pos = |it: &Item<'_>| {
        let p = match it {
            Item::Match(m) => m.position(),
            Item::Rejected(r) => r.position(),
            _ => unreachable!(),
        };
        (key(it), p.map(|p| (p.line, p.column)))
    };
    for i in 0..split.len() {
        let r = split.range(i);
        let line = 1 + hay[..r.start].iter().filter(|&&b| b == b'\n').count();
        let part = || split.part(i).count_lines(r.start, line as u64);
        let mut a = part();
        let by_iter: Vec<_> = a.by_ref().map(|it| with_pos(&it)).collect();
        let mut b = part();
        let mut by_closure = Vec::new();
        assert!(b.for_each_while(|it| {
            by_closure.push(with_pos(&it));
            true
        }));
        let mut c = part();
        let mut pending = Vec::new();
        assert!(c.for_each_pending(|p| {
            pending.push(p);
            true
        }));
        let by_pending: Vec<_> =
            pending.into_iter().map(|p| with_pos(&p.item(&hay))).collect();
        assert!(by_iter.len() > 1000, "{}", by_iter.len());
        assert!(by_iter.iter().any(|(k, _)| !k.0), "no rejection");
        assert!(by_iter.iter().all(|(_, p)| p.is_some()));
        assert_eq!(by_closure, by_iter, "part {i}: closure");
        assert_eq!(by_pending, by_iter, "part {i}: pending");
        let (ja, jb, jc) = (a.journal(), b.journal(), c.journal());
        assert_eq!((jb.items(), jc.items()), (ja.items(), ja.items()));
    }
    // A closure that says stop stops at once.
    let mut n = 0;
    assert!(!split.part(0).for_each_pending(|_| {
        n += 1;
        n < 5
    }));
    assert_eq!(n, 5);
}
