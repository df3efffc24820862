//! The prose sieve: the trigger search's way through text whose colons
//! are far apart. It reads 64 bytes at a time, finds the block's colons
//! with one vector comparison per 16 bytes, and turns away, without a
//! branch per colon, those that the per-colon pre-check
//! ([`super::trigger::Triggers::colon_ok`]) surely turns away: most
//! colons of prose (`Subject: x`, `Note: x`, `(see above):`, `10:30`) are
//! decided by the three bytes before them and the two after. What is
//! left of a block is a superset of what the pre-check accepts there,
//! and goes on to it colon by colon.

use crate::scan::text;

/// Bytes a block covers.
pub(crate) const BLOCK: usize = 64;

/// Bytes a block needs before its first byte (what the test of a colon
/// looks back at).
const BEFORE: usize = 3;

/// Bytes a block needs after its last byte (what the test looks ahead
/// at, and the pre-check's own look at `ci + 4`).
const AFTER: usize = 4;

/// Colons in one block above this many: the text is colon-dense, which
/// the trigger search's bulk filter handles better.
const DENSE: u32 = 8;

/// What the sieve found from where it began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sieved {
    /// The block at this index holds colons that may pass the pre-check:
    /// bit `i` of the mask for the colon at `index + i`. No colon that
    /// may pass it lies between where the sieve began and this block.
    Block(usize, u64),
    /// The block at this index holds more than [`DENSE`] colons, and
    /// nothing before it may pass: search it colon by colon.
    Dense(usize),
    /// No colon before this index may pass, and the sieve cannot read
    /// further (the end of the search, or too near the buffer's end).
    Stop(usize),
}

/// The first block at or after `buf[from]` holding a colon that may pass
/// the pre-check before `end` (`end <= buf.len()`). With `numbers`, a
/// colon right after a number of one or two digits that follows no
/// scheme byte (`10:30`) is turned away too (the pre-check does so
/// when no scheme list of the caller's widens what may start a URI).
#[inline]
pub(crate) fn next(
    buf: &[u8],
    from: usize,
    end: usize,
    numbers: bool,
) -> Sieved {
    if from < BEFORE {
        return Sieved::Stop(from);
    }
    // Blocks start before `stop`: before the end of the search, and far
    // enough from the buffer's end for the look after the last colon.
    let stop = end.min((buf.len() + 1).saturating_sub(BLOCK + AFTER));
    let mut p = from;
    loop {
        let (at, mut m) = skip(buf, p, stop);
        p = at;
        if m == 0 {
            break;
        }
        if end - p < BLOCK {
            m &= (1u64 << (end - p)) - 1;
        }
        // The block with the bytes its colons' test looks at around it:
        // one bounds check for the block, none per colon.
        let win: &[u8; WINDOW] =
            buf[p - BEFORE..p + BLOCK + 3].try_into().expect("a window");
        let mut keep = 0u64;
        let mut seen = 0;
        while m != 0 {
            seen += 1;
            if seen > DENSE {
                return Sieved::Dense(p);
            }
            let i = m.trailing_zeros() as usize;
            keep |= (may_pass(win, i, numbers) as u64) << i;
            m &= m - 1;
        }
        if keep != 0 {
            return Sieved::Block(p, keep);
        }
        p += BLOCK;
    }
    Sieved::Stop(p.min(end))
}

/// The first block at or after `buf[p]` that starts before `stop` and
/// holds a colon, with its colons; or where the blocks stop, and no
/// colon. Its own loop, out of line, so that what the colons' test
/// keeps at hand does not weigh on the loop over colon-free blocks.
#[inline(never)]
fn skip(buf: &[u8], mut p: usize, stop: usize) -> (usize, u64) {
    while p < stop {
        let block: &[u8; BLOCK] =
            buf[p..p + BLOCK].try_into().expect("a block");
        let m = colons(block);
        if m != 0 {
            return (p, m);
        }
        p += BLOCK;
    }
    (p, 0)
}

/// A block and the bytes around it that [`may_pass`] reads.
const WINDOW: usize = BEFORE + BLOCK + 3;

/// Whether the colon at `win[i + 3]` may pass the pre-check, from the
/// three bytes before it and the two after (`i <= BLOCK`).
/// False only when it surely fails: no scheme byte right before it; one
/// blank and then text after it; or (with `numbers`) a number of one or
/// two digits before it, with no scheme byte before the number and no
/// `//` after the colon.
#[inline(always)]
fn may_pass(win: &[u8; WINDOW], i: usize, numbers: bool) -> bool {
    let w: &[u8; 6] = win[i..i + 6].try_into().expect("six bytes");
    let [p3, p2, p1, _, n1, n2] = w.map(|b| CLASS[b as usize]);
    // Bit 0 of each: one blank and then text after the colon; a number
    // of one or two digits before it, with no `//` after it.
    let blank_text = n1 >> 3 & !(n2 >> 2);
    let short = p1 >> 1 & (!p2 | p2 >> 1 & !p3);
    let slashes = n1 & n2 & SLASH;
    let number = short & u8::from(numbers) & u8::from(slashes == 0);
    p1 & !blank_text & !number & 1 != 0
}

/// [`CLASS`]: a scheme byte.
const SCHEME: u8 = 1;
/// [`CLASS`]: an ASCII digit.
const DIGIT: u8 = 2;
/// [`CLASS`]: ASCII whitespace.
const WS: u8 = 4;
/// [`CLASS`]: a blank (space or tab).
const BLANK: u8 = 8;
/// [`CLASS`]: `/`.
const SLASH: u8 = 16;

/// What [`may_pass`] asks of a byte, one bit each; [`SCHEME`], [`DIGIT`],
/// [`WS`] and [`BLANK`] stand at bits 0 to 3, so that a shift brings each
/// to bit 0.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let mut v = 0;
        if text::is_scheme_byte_const(c) {
            v |= SCHEME;
        }
        if c.is_ascii_digit() {
            v |= DIGIT;
        }
        if matches!(c, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c) {
            v |= WS;
        }
        if matches!(c, b' ' | b'\t') {
            v |= BLANK;
        }
        if c == b'/' {
            v |= SLASH;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// Bit `i` set where `block[i]` is a colon: SSE2 compares, sixteen
/// bytes at a time.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn colons(block: &[u8; BLOCK]) -> u64 {
    use safe_arch::{
        bitor_m128i, cmp_eq_mask_i8_m128i, load_unaligned_m128i,
        move_mask_i8_m128i, set_splat_i8_m128i,
    };
    let colon = set_splat_i8_m128i(b':' as i8);
    let eq = |k: usize| {
        let v: &[u8; 16] =
            block[16 * k..16 * k + 16].try_into().expect("sixteen bytes");
        cmp_eq_mask_i8_m128i(load_unaligned_m128i(v), colon)
    };
    let (a, b, c, d) = (eq(0), eq(1), eq(2), eq(3));
    // Most blocks of prose hold no colon: one test for the four.
    if move_mask_i8_m128i(bitor_m128i(bitor_m128i(a, b), bitor_m128i(c, d)))
        == 0
    {
        return 0;
    }
    let bits = |v| u64::from(move_mask_i8_m128i(v) as u16);
    bits(a) | bits(b) << 16 | bits(c) << 32 | bits(d) << 48
}

/// Bit `i` set where `block[i]` is a colon, a word at a time.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
fn colons(block: &[u8; BLOCK]) -> u64 {
    let mut m = 0u64;
    for (k, c) in block.chunks_exact(8).enumerate() {
        let w = u64::from_le_bytes(c.try_into().expect("eight bytes"));
        let hi = text::colons(w);
        // One bit per byte: the high bit of each byte that matched.
        let mut bits = 0u64;
        for j in 0..8 {
            bits |= (hi >> (8 * j + 7) & 1) << j;
        }
        m |= bits << (8 * k);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::{colons, next, Sieved, BLOCK};
    use crate::scan::trigger::Triggers;
    use crate::scan::FinderBuilder;

    #[test]
    fn colon_bits_match_bytes() {
        let mut b = [b'a'; BLOCK];
        assert_eq!(colons(&b), 0);
        for i in [0, 7, 15, 16, 31, 40, 63] {
            b[i] = b':';
        }
        let want =
            [0, 7, 15, 16, 31, 40, 63].iter().fold(0u64, |m, &i| m | 1 << i);
        assert_eq!(colons(&b), want);
        // Bytes with the high bit set are no colons.
        let b = [b':' | 0x80; BLOCK];
        assert_eq!(colons(&b), 0);
    }

    /// Every colon the pre-check accepts is in what the sieve keeps, over
    /// generated text of the pieces that decide it, in every setting of
    /// the scheme options; and most colons are turned away.
    #[test]
    fn sieve_keeps_every_candidate() {
        let pieces: &[&[u8]] = &[
            b":",
            b": ",
            b":\t",
            b" ",
            b"\t",
            b"\n",
            b"\r\n",
            b"a",
            b"Z",
            b"1",
            b"12",
            b"123",
            b"x1",
            b"-",
            b".",
            b"+",
            b"(",
            b")",
            b"\"",
            b"<",
            b">",
            b"//",
            b"/",
            b"http",
            b"mailto",
            b"urn",
            b"news",
            b"\xc3\xa9",
            b"10:30",
            b"Re",
            b"Subject",
            b"x: y",
            b"a:b",
        ];
        let settings = [
            FinderBuilder::default(),
            FinderBuilder { any_scheme: true, ..FinderBuilder::default() },
            FinderBuilder {
                rejected: true,
                iri: true,
                ..FinderBuilder::default()
            },
        ];
        let mut rnd = crate::scan::tests::support::splitmix(0x51e7e);
        let (mut accepted, mut kept, mut all) = (0usize, 0usize, 0usize);
        for round in 0..6000 {
            let opts = &settings[round % settings.len()];
            let numbers = !opts.any_scheme && opts.schemes.is_none();
            let triggers = Triggers::new(opts);
            let mut buf: Vec<u8> = Vec::new();
            while buf.len() < 3 * BLOCK {
                let r = rnd();
                buf.extend_from_slice(
                    pieces[(r >> 7) as usize % pieces.len()],
                );
            }
            let from = (rnd() % 40) as usize;
            let end = buf.len() - (rnd() % 40) as usize;
            let resume = (rnd() % 60) as usize;
            // Walk the sieve as the trigger search does.
            let mut at = from;
            let mut kept_at = vec![false; buf.len()];
            let stop = loop {
                match next(&buf, at, end, numbers) {
                    Sieved::Block(p, m) => {
                        assert!(p >= at && p < end);
                        for i in 0..BLOCK {
                            if m >> i & 1 == 1 {
                                assert_eq!(buf[p + i], b':');
                                assert!(p + i < end);
                                kept_at[p + i] = true;
                            }
                        }
                        at = p + BLOCK;
                    }
                    Sieved::Dense(p) | Sieved::Stop(p) => break p,
                }
            };
            for ci in from..stop.min(end) {
                if buf[ci] != b':' {
                    continue;
                }
                all += 1;
                kept += kept_at[ci] as usize;
                if triggers.colon_ok(&buf, 0, ci, resume) {
                    accepted += 1;
                    assert!(
                        kept_at[ci],
                        "colon {ci} dropped in {:?}",
                        String::from_utf8_lossy(&buf)
                    );
                }
            }
        }
        assert!(accepted > 1000 && kept < all / 2, "{accepted} {kept} {all}");
    }

    /// Crafted blocks: a colon that starts a URI in the last byte a
    /// block may hold, right after a block boundary, and with the
    /// search's end cutting the block.
    #[test]
    fn sieve_at_the_edges() {
        let mut buf = vec![b' '; 3 * BLOCK + 8];
        let at = 3 + BLOCK - 1;
        buf[at - 4..at + 3].copy_from_slice(b"http://");
        assert_eq!(
            next(&buf, 3, buf.len(), true),
            Sieved::Block(3, 1 << (BLOCK - 1))
        );
        // The end of the search before that colon: nothing to find.
        assert_eq!(next(&buf, 3, at, true), Sieved::Stop(at));
        // Prose colons only: the sieve goes to where it must stop.
        let prose = b"Subject: hello, at 10:30 (see below): ".repeat(8);
        match next(&prose, 3, prose.len(), true) {
            Sieved::Stop(p) => assert!(p + BLOCK + 4 > prose.len()),
            other => panic!("{other:?}"),
        }
        // Without the number rule, `10:30` stays.
        assert!(matches!(
            next(&prose, 3, prose.len(), false),
            Sieved::Block(_, _)
        ));
        // Colon-dense text is left to the bulk filter.
        let dense = b"a:b:c:d:e:f:g:h:i:j:".repeat(8);
        assert_eq!(next(&dense, 3, dense.len(), true), Sieved::Dense(3));
    }

    /// A colon whose deciding bytes lie in the blocks on either side: the
    /// first byte of a block after a scheme that ends the block before,
    /// and the last byte of a block before `//` or a blank and text in
    /// the next.
    #[test]
    fn sieve_reads_across_blocks() {
        let blank = |n: usize| vec![b' '; n];
        // `10:30` with the `10` before the block: turned away; with a
        // scheme byte before the number, or `//` after it, kept.
        for (before, after, kept) in [
            (&b" 10"[..], &b"30"[..], false),
            (b"x10", b"30", true),
            (b" 10", b"//", true),
            (b"ttp", b"//", true),
            (b"see", b" x", false),
            (b"see", b" \n", true),
        ] {
            let mut buf = blank(3 + BLOCK - 3);
            buf.extend_from_slice(before);
            buf.push(b':');
            buf.extend_from_slice(after);
            buf.extend(blank(BLOCK + 8));
            // The colon first in its block.
            let at = 3 + BLOCK;
            let got = next(&buf, 3, buf.len(), true);
            let want =
                if kept { Sieved::Block(at, 1) } else { Sieved::Stop(at) };
            match got {
                Sieved::Stop(_) => assert!(!kept, "{before:?} {after:?}"),
                got => assert_eq!(got, want, "{before:?} {after:?}"),
            }
            // The colon last in its block.
            let from = at - BLOCK + 1;
            let got = next(&buf, from, buf.len(), true);
            match got {
                Sieved::Stop(_) => assert!(!kept, "{before:?} {after:?}"),
                got => assert_eq!(
                    got,
                    Sieved::Block(from, 1 << (BLOCK - 1)),
                    "{before:?} {after:?}"
                ),
            }
        }
    }
}
