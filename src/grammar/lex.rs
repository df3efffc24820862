//! The lexical layer under the parsers: runs of a byte class, escapes,
//! and the fault of a byte that stands where it may not. Both
//! `parse` (scheme, path, query, fragment) and `authority` (server,
//! host, port) read their input through it, so neither needs the other
//! for its tokens.

use super::chars::CLASS;
use super::{ErrorKind, Fault, Part};

pub(crate) type Result<T> = std::result::Result<T, Fault>;

/// The end of the run of bytes of class `mask` that starts at `i`.
///
/// Eight bytes at a time while they all qualify (one branch per eight
/// bytes: the AND of their classes keeps the bit only if every byte has
/// it), then byte by byte.
#[inline(always)]
pub(crate) fn run(s: &[u8], mut i: usize, mask: u16) -> usize {
    while let Some(w) = s.get(i..i + 8) {
        let all = CLASS[w[0] as usize]
            & CLASS[w[1] as usize]
            & CLASS[w[2] as usize]
            & CLASS[w[3] as usize]
            & CLASS[w[4] as usize]
            & CLASS[w[5] as usize]
            & CLASS[w[6] as usize]
            & CLASS[w[7] as usize];
        if all & mask == 0 {
            break;
        }
        i += 8;
    }
    while i < s.len() && CLASS[s[i] as usize] & mask != 0 {
        i += 1;
    }
    i
}

/// Scans the bytes of class `mask` and escapes from `i`, returning the
/// index of the first other byte (or the length), or the fault of a bad
/// escape (at its `%`).
#[inline(always)]
pub(crate) fn scan(
    s: &[u8],
    mut i: usize,
    mask: u16,
    part: Part,
) -> Result<usize> {
    let n = s.len();
    loop {
        i = run(s, i, mask);
        if i == n || s[i] != b'%' {
            return Ok(i);
        }
        i = escape(s, i, part)?;
    }
}

/// The end of the escape whose `%` is `s[i]`, or the fault of a bad
/// one (at its `%`).
#[inline(always)]
pub(crate) fn escape(s: &[u8], i: usize, part: Part) -> Result<usize> {
    // pct-encoded = "%" HEXDIG HEXDIG
    if i + 3 <= s.len()
        && s[i + 1].is_ascii_hexdigit()
        && s[i + 2].is_ascii_hexdigit()
    {
        Ok(i + 3)
    } else {
        Err(Fault::new(i, part, ErrorKind::Escape))
    }
}

/// The fault of byte `s[i]` standing in `place`.
#[cold]
pub(crate) fn char_err(
    s: &[u8],
    i: usize,
    part: Part,
    place: &'static str,
) -> Fault {
    Fault::new(i, part, ErrorKind::Char { byte: s[i], place })
}
