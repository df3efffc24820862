//! Header fields: which are searched, and RFC 2047 encoded words.
//!
//! Every field is searched except the structural MIME ones, whose values
//! are tokens, parameters and identifiers, never links someone wrote
//! (`Content-Type`, `Content-Transfer-Encoding`, `Content-ID`,
//! `Content-Disposition`, `Content-Class` with its
//! `urn:content-classes:message`, `MIME-Version`, Exchange's
//! `Thread-Index` and `X-MS-TNEF-Correlator`).
//!
//! A value is scanned as it stands in the message, folds included: the
//! scanner already rejoins what a fold splits inside `<...>` (the
//! `List-*` fields) and ends bare URIs at it, which is what unfolding
//! would give. Encoded words (`=?charset?Q?...?=`, `=?charset?B?...?=`)
//! are decoded first, charset converted, with the blanks and folds
//! between two adjacent encoded words removed, and a map back to the raw
//! characters of each word.

use super::decode::{self, Charset, Decoded};
use super::offsets::OffsetMap;

/// Whether the field `name` is left out of the search.
pub(crate) fn structural(name: &[u8]) -> bool {
    const SKIP: [&[u8]; 8] = [
        b"content-type",
        b"content-transfer-encoding",
        b"content-id",
        b"content-disposition",
        b"content-class",
        b"mime-version",
        b"thread-index",
        b"x-ms-tnef-correlator",
    ];
    SKIP.iter().any(|s| name.eq_ignore_ascii_case(s))
}

/// Whether `name` is a field name: printable ASCII other than `:`.
pub(crate) fn field_name(name: &[u8]) -> bool {
    !name.is_empty()
        && name.iter().all(|&b| (33..=126).contains(&b) && b != b':')
}

/// One encoded word found in a value.
struct Word {
    /// Offsets in the value: the whole word, `=?` to `?=`.
    start: usize,
    end: usize,
    charset: Charset,
    /// The decoded bytes (before charset conversion) and their map to
    /// offsets in the source.
    bytes: Vec<u8>,
    map: OffsetMap,
}

/// Parses the encoded word starting at `v[at..]` (`=?`), if it is one.
fn word(v: &[u8], at: usize, origin: usize) -> Option<Word> {
    let s = &v[at..];
    let q1 = 2 + s[2..].iter().take(80).position(|&b| b == b'?')?;
    let label = &s[2..q1];
    if label.is_empty() || label.iter().any(|b| b.is_ascii_whitespace()) {
        return None;
    }
    // RFC 2231 language suffix: charset*lang.
    let label = label.split(|&b| b == b'*').next().unwrap_or(label);
    let enc = *s.get(q1 + 1)?;
    if s.get(q1 + 2) != Some(&b'?') {
        return None;
    }
    let text_start = q1 + 3;
    let mut k = text_start;
    while k + 1 < s.len() && !(s[k] == b'?' && s[k + 1] == b'=') {
        if s[k].is_ascii_whitespace() {
            return None;
        }
        k += 1;
    }
    if k + 1 >= s.len() {
        return None;
    }
    let text = &s[text_start..k];
    let base = origin + at + text_start;
    let (bytes, map) = match enc {
        b'Q' | b'q' => q_decode(text, base),
        b'B' | b'b' => {
            let b = decode::base64(text, base);
            (b.decoded.text, b.decoded.map)
        }
        _ => return None,
    };
    Some(Word {
        start: at,
        end: at + k + 2,
        charset: decode::charset(Some(label)),
        bytes,
        map,
    })
}

/// The `Q` encoding: `_` is a space, `=XX` a byte.
fn q_decode(text: &[u8], base: usize) -> (Vec<u8>, OffsetMap) {
    let d = decode::quoted_printable(text, base);
    let mut bytes = d.text;
    // '_' stands for a space; '=5F' decodes to '_' and must stay: only
    // underscores that map to a one-byte source are spaces.
    for (k, b) in bytes.iter_mut().enumerate() {
        if *b == b'_' && d.map.byte(k).1 - d.map.byte(k).0 == 1 {
            *b = b' ';
        }
    }
    (bytes, d.map)
}

/// Decodes the encoded words of header value `v` (whose first byte is
/// at `base`); `None` when it holds none.
pub(crate) fn decode_words(v: &[u8], base: usize) -> Option<Decoded> {
    let finder = memchr::memmem::Finder::new(b"=?");
    let mut words = Vec::new();
    let mut at = 0;
    while let Some(k) = finder.find(&v[at..]) {
        match word(v, at + k, base) {
            Some(w) => {
                at = w.end;
                words.push(w);
            }
            None => at += k + 2,
        }
    }
    if words.is_empty() {
        return None;
    }
    let mut out = Vec::with_capacity(v.len());
    let mut map = OffsetMap::new();
    let mut copied = 0;
    let mut prev_end = None;
    for w in &words {
        let gap = &v[copied..w.start];
        let between_words = prev_end == Some(copied)
            && gap.iter().all(u8::is_ascii_whitespace);
        if !between_words && !gap.is_empty() {
            map.linear(out.len(), base + copied);
            out.extend_from_slice(gap);
        }
        append_word(w, &mut out, &mut map);
        copied = w.end;
        prev_end = Some(w.end);
    }
    if copied < v.len() {
        map.linear(out.len(), base + copied);
        out.extend_from_slice(&v[copied..]);
    }
    Some(Decoded { text: out, map })
}

/// Appends a word's text, converted to UTF-8, mapping each byte to the
/// raw characters it came from.
fn append_word(w: &Word, out: &mut Vec<u8>, map: &mut OffsetMap) {
    let converted = match w.charset {
        Charset::Convert(enc) => decode::to_utf8(&w.bytes, enc),
        _ => None,
    };
    let (text, inner) = match &converted {
        Some(c) => (&c.text[..], Some(&c.map)),
        None => (&w.bytes[..], None),
    };
    for (k, &b) in text.iter().enumerate() {
        let (s, e) = match inner {
            Some(m) => {
                let (a, z) = m.byte(k);
                w.map.range(a, z)
            }
            None => w.map.byte(k),
        };
        map.group(out.len(), s, e - s);
        out.push(b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn q_words_with_uris() {
        let v =
            b" =?UTF-8?Q?Neu:_https://news.example.de/artikel/42_lesen?=\n";
        let d = decode_words(v, 100).unwrap();
        assert_eq!(
            d.text,
            b" Neu: https://news.example.de/artikel/42 lesen\n"
        );
        let h = d.text.windows(5).position(|w| w == b"https").unwrap();
        let e = h + "https://news.example.de/artikel/42".len();
        let (s, z) = d.map.range(h, e);
        assert_eq!(
            &v[s - 100..z - 100],
            b"https://news.example.de/artikel/42"
        );
    }

    #[test]
    fn adjacent_words_join_and_charsets_convert() {
        let v = b"=?iso-8859-1?Q?Caf=E9?=\n =?UTF-8?B?IGh0dHA6Ly9hLmV4YW1wbGUv?= x";
        let d = decode_words(v, 0).unwrap();
        assert_eq!(
            String::from_utf8(d.text.clone()).unwrap(),
            "Café http://a.example/ x"
        );
        // 'é' (two bytes) maps to "=E9".
        assert_eq!(d.map.byte(3), (18, 21));
        assert_eq!(d.map.byte(4), (18, 21));
    }

    #[test]
    fn not_encoded_words() {
        assert!(decode_words(b"a =?x y?Q?z?= b", 0).is_none());
        assert!(decode_words(b"=?utf-8?X?abc?=", 0).is_none());
        assert!(decode_words(b"=?utf-8?Q?no end", 0).is_none());
        // An underscore written as =5F stays one.
        let d = decode_words(b"=?us-ascii?Q?a=5Fb_c?=", 0).unwrap();
        assert_eq!(d.text, b"a_b c");
    }

    #[test]
    fn structural_fields() {
        assert!(structural(b"Content-Class"));
        assert!(structural(b"MIME-Version"));
        assert!(!structural(b"List-Unsubscribe"));
        assert!(!structural(b"Content-Location"));
    }
}
