//! HTML-escaped delimiters (docs/CONTRACT.md section 1.3): in text copied
//! out of HTML source, `&lt;`, `&gt;`, `&quot;` and their numeric
//! character references (`&#60;`, `&#x3E;`, `&#034;`: any case, leading
//! zeros allowed, always with the `;`) end a bare URI as the `<`, `>` or
//! `"` they stand for would. Nothing else changes: they open no context,
//! and other references (`&amp;`) are part of the URI.

/// What an `&` in a bare URI is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Amp {
    /// It starts one of the references above: the URI ends before it.
    Delimiter,
    /// Anything else: the URI goes on.
    Other,
    /// The input ends before that can be told (`&l` at the end): at the
    /// end of the input it is no reference; a stream waits for more.
    Unsure,
}

/// The references, after `&`, with digits after any leading zeros.
const NAMED: [&[u8]; 3] = [b"lt;", b"gt;", b"quot;"];
const DECIMAL: [&[u8]; 3] = [b"60;", b"62;", b"34;"];
const HEX: [&[u8]; 3] = [b"3c;", b"3e;", b"22;"];

/// How `t` compares with the references `refs` (ASCII case ignored).
fn against(t: &[u8], refs: &[&[u8]]) -> Amp {
    let mut unsure = false;
    for r in refs {
        let n = r.len().min(t.len());
        if t[..n].eq_ignore_ascii_case(&r[..n]) {
            if n == r.len() {
                return Amp::Delimiter;
            }
            unsure = true;
        }
    }
    if unsure {
        Amp::Unsure
    } else {
        Amp::Other
    }
}

/// What the `&` at `v[i]` is. Reads up to the end of the reference it
/// may start (leading zeros may make that far; each byte read is one the
/// bare run would read next anyway).
pub(crate) fn amp_at(v: &[u8], i: usize) -> Amp {
    debug_assert_eq!(v[i], b'&');
    let t = &v[i + 1..];
    match t.first() {
        None => Amp::Unsure,
        Some(b'#') => {
            let (digits, refs) = match t.get(1) {
                None => return Amp::Unsure,
                Some(b'x' | b'X') => (&t[2..], &HEX),
                Some(_) => (&t[1..], &DECIMAL),
            };
            // (Eight at a time: zeros may be many.)
            let mut zeros = 0;
            while digits.get(zeros..zeros + 8) == Some(b"00000000") {
                zeros += 8;
            }
            zeros +=
                digits[zeros..].iter().take_while(|&&b| b == b'0').count();
            against(&digits[zeros..], refs)
        }
        Some(_) => against(t, &NAMED),
    }
}

/// Whether every `&` in `v[a..e]` is [`Amp::Other`]: a bare URI goes
/// on past each of them, sure of it without more input.
pub(crate) fn all_other(v: &[u8], a: usize, e: usize) -> bool {
    v[a..e]
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'&')
        .all(|(k, _)| amp_at(v, a + k) == Amp::Other)
}

#[cfg(test)]
mod tests {
    use super::{amp_at, Amp};

    fn amp(t: &str) -> Amp {
        amp_at(t.as_bytes(), 0)
    }

    #[test]
    fn references_that_end_a_uri() {
        for t in [
            "&lt;",
            "&gt;",
            "&quot;",
            "&LT;",
            "&Quot;x",
            "&#60;",
            "&#62;",
            "&#34;",
            "&#060;",
            "&#0000034;",
            "&#x3C;",
            "&#x3e;",
            "&#X22;",
            "&#x0003E;",
            "&#x22;y",
        ] {
            assert_eq!(amp(t), Amp::Delimiter, "{t}");
        }
    }

    #[test]
    fn other_ampersands() {
        for t in [
            "&amp;", "&ltx;", "&gt ", "&#61;", "&#6;", "&#600;", "&#x3D;",
            "&#x;", "&#;", "&b=2", "&&", "&#0;", "&quo;",
        ] {
            assert_eq!(amp(t), Amp::Other, "{t}");
        }
    }

    #[test]
    fn the_end_of_input_leaves_it_open() {
        for t in ["&", "&l", "&lt", "&qu", "&#", "&#0", "&#000", "&#6", "&#x"]
        {
            assert_eq!(amp(t), Amp::Unsure, "{t}");
        }
        assert_eq!(amp("&#7"), Amp::Other);
        assert_eq!(amp("&a"), Amp::Other);
    }
}
