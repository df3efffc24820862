//! HTML character references (`&amp;`, `&#x2F;`, `&copy`): what the one
//! at the start of a byte string stands for and how long it is, as the
//! HTML standard's tokenizer reads it (numeric references with the
//! Windows-1252 meanings of 0x80-0x9F, named ones from the standard's
//! table as shipped by `htmlize`, the legacy names that need no `;`).
//! Mail mode's HTML reader and the link decoders share it.

/// What a character reference stands for.
pub(crate) enum Ref {
    Char(char),
    Named(&'static [u8]),
}

/// Where a run of text comes from, which decides one rule of the
/// standard's character reference state: in an attribute value, a named
/// reference without its `;` that is followed by `=` or a letter or
/// digit is left as written (so that `?a=1&copy=2` in an `href` keeps
/// its `&copy`); in text it is decoded.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Where {
    Text,
    Attribute,
}

/// Windows-1252 meanings of the numeric references 0x80 to 0x9F, as
/// HTML reads them.
const C1: [u32; 32] = [
    0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6,
    0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019,
    0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
    0x0153, 0x9D, 0x017E, 0x0178,
];

/// The character reference at the start of `s` (which starts with `&`):
/// its length and what it stands for.
pub(crate) fn char_ref(s: &[u8], at: Where) -> Option<(usize, Ref)> {
    if s.get(1) == Some(&b'#') {
        let hex = matches!(s.get(2), Some(b'x' | b'X'));
        let digits_at = if hex { 3 } else { 2 };
        let mut v: u32 = 0;
        let mut k = digits_at;
        while let Some(&c) = s.get(k) {
            let d = if hex {
                (c as char).to_digit(16)
            } else {
                (c as char).to_digit(10)
            };
            let Some(d) = d else { break };
            v = v.saturating_mul(if hex { 16 } else { 10 }).saturating_add(d);
            k += 1;
        }
        if k == digits_at {
            return None;
        }
        if s.get(k) == Some(&b';') {
            k += 1;
        }
        let v = match v {
            0x80..=0x9F => C1[(v - 0x80) as usize],
            v => v,
        };
        let c = if v == 0 {
            '\u{fffd}'
        } else {
            char::from_u32(v).unwrap_or('\u{fffd}')
        };
        return Some((k, Ref::Char(c)));
    }
    named_ref(s, at)
}

/// The named reference at the start of `s` (which starts with `&`), as
/// the standard's named character reference state reads it: the longest
/// name in the table that the input starts with. The table
/// (`htmlize::ENTITIES`, keys written with their `&` and, for all but
/// the legacy names, their `;`) holds every name with its `;`, and the
/// legacy names (`amp`, `lt`, `copy`, `eacute`, ...) without it too.
fn named_ref(s: &[u8], at: Where) -> Option<(usize, Ref)> {
    use htmlize::{BARE_ENTITY_MAX_LENGTH, ENTITIES, ENTITY_MAX_LENGTH};
    // The name: a run of letters and digits, as long as the longest in
    // the table at most.
    let name_len = s[1..]
        .iter()
        .take(ENTITY_MAX_LENGTH)
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    if name_len == 0 {
        return None;
    }
    // A name with its ';': the whole run, since no name holds another
    // byte.
    if s.get(1 + name_len) == Some(&b';') {
        if let Some(v) = ENTITIES.get(&s[..name_len + 2]) {
            return Some((name_len + 2, Ref::Named(v)));
        }
    }
    // A legacy name without its ';': the longest that starts the run.
    let longest = name_len.min(BARE_ENTITY_MAX_LENGTH - 1);
    let (len, v) = (1..=longest)
        .rev()
        .find_map(|k| ENTITIES.get(&s[..k + 1]).map(|v| (k + 1, *v)))?;
    let next = s.get(len).copied();
    if at == Where::Attribute
        && next.is_some_and(|b| b == b'=' || b.is_ascii_alphanumeric())
    {
        return None;
    }
    Some((len, Ref::Named(v)))
}
