//! Undoing transfer encodings and charsets, keeping an [`OffsetMap`] from
//! every decoded byte to the bytes it came from.
//!
//! * Quoted-printable (RFC 2045 6.7): `=XX` escapes (either case of hex),
//!   soft line breaks (`=` then optional blanks then a line break); any
//!   other `=` is kept as written, as mail readers do.
//! * Base64 (RFC 2045 6.8): whitespace is skipped, `=` padding ends a
//!   quantum (a second base64 text may follow, as broken mailers write);
//!   a byte outside the alphabet stops decoding, and the caller scans the
//!   rest of the part, from the start of that line, as raw text.
//! * Charsets: converted to UTF-8 with `encoding_rs`; `us-ascii`, `utf-8`,
//!   no charset and unknown charsets are left as they are (the scanner is
//!   byte-based and URIs are ASCII), and so is text that is all ASCII in
//!   an ASCII-compatible charset.

use encoding_rs::{CoderResult, Encoding, UTF_8};

use super::offsets::OffsetMap;

/// A decoded text and the map back to its source.
#[derive(Debug, Default)]
pub(crate) struct Decoded {
    pub(crate) text: Vec<u8>,
    pub(crate) map: OffsetMap,
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'A'..=b'F' => Some(b - b'A' + 10),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    }
}

/// Decodes quoted-printable `src`, whose first byte is at `base` in the
/// source the map points into.
pub(crate) fn quoted_printable(src: &[u8], base: usize) -> Decoded {
    let mut out = Vec::with_capacity(src.len());
    let mut map = OffsetMap::new();
    map.qp(0, base, false);
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'=', &src[i..]) {
        let e = i + k;
        out.extend_from_slice(&src[i..e]);
        let (h, l) = (src.get(e + 1).copied(), src.get(e + 2).copied());
        if let (Some(h), Some(l)) = (h.and_then(hex), l.and_then(hex)) {
            map.qp(out.len(), base + e, true);
            out.push(h << 4 | l);
            i = e + 3;
            continue;
        }
        let mut j = e + 1;
        while j < src.len() && matches!(src[j], b' ' | b'\t') {
            j += 1;
        }
        let brk = match src.get(j..) {
            Some([b'\n', ..]) => Some(j + 1),
            Some([b'\r', b'\n', ..]) => Some(j + 2),
            Some([]) => Some(j),
            _ => None,
        };
        match brk {
            Some(next) => {
                // A soft line break: nothing decoded.
                i = next;
                map.qp(out.len(), base + i, false);
            }
            None => {
                // Not an escape: the '=' stands for itself.
                out.push(b'=');
                i = e + 1;
            }
        }
    }
    out.extend_from_slice(&src[i..]);
    Decoded { text: out, map }
}

const B64_BAD: u8 = 0xff;
const B64_PAD: u8 = 0xfe;
const B64_SPACE: u8 = 0xfd;

static B64: [u8; 256] = {
    let mut t = [B64_BAD; 256];
    let mut i = 0u8;
    while i < 26 {
        t[(b'A' + i) as usize] = i;
        t[(b'a' + i) as usize] = 26 + i;
        i += 1;
    }
    let mut d = 0u8;
    while d < 10 {
        t[(b'0' + d) as usize] = 52 + d;
        d += 1;
    }
    t[b'+' as usize] = 62;
    t[b'/' as usize] = 63;
    t[b'=' as usize] = B64_PAD;
    t[b' ' as usize] = B64_SPACE;
    t[b'\t' as usize] = B64_SPACE;
    t[b'\r' as usize] = B64_SPACE;
    t[b'\n' as usize] = B64_SPACE;
    t
};

/// Base64 decoding state for characters that do not come in whole
/// quanta of one line.
struct Partial {
    bits: u32,
    n: usize,
    at: [usize; 4],
}

impl Partial {
    fn add(
        &mut self,
        v: u8,
        pos: usize,
        out: &mut Vec<u8>,
        map: &mut OffsetMap,
    ) {
        self.bits = self.bits << 6 | u32::from(v);
        self.at[self.n] = pos;
        self.n += 1;
        if self.n == 4 {
            self.flush(out, map);
        }
    }

    /// Writes the bytes the characters so far hold (3 for a quantum, 2
    /// for three characters, 1 for two) and starts a new quantum.
    fn flush(&mut self, out: &mut Vec<u8>, map: &mut OffsetMap) {
        let bytes = match self.n {
            4 => 3,
            3 => 2,
            2 => 1,
            _ => 0,
        };
        let bits = self.bits << (6 * (4 - self.n as u32));
        for k in 0..bytes {
            let (s, e) = (self.at[k], self.at[k + 1] + 1);
            map.group(out.len(), s, e - s);
            out.push((bits >> (16 - 8 * k)) as u8);
        }
        self.bits = 0;
        self.n = 0;
    }
}

/// What base64 decoding found.
pub(crate) struct Base64 {
    pub(crate) decoded: Decoded,
    /// Where a byte outside the alphabet stopped decoding: the offset in
    /// `src` of the start of its line.
    pub(crate) stopped: Option<usize>,
}

/// Decodes base64 `src`, whose first byte is at `base` in the source.
pub(crate) fn base64(src: &[u8], base: usize) -> Base64 {
    let mut out = Vec::with_capacity(src.len() / 4 * 3 + 3);
    let mut map = OffsetMap::new();
    let mut p = Partial { bits: 0, n: 0, at: [0; 4] };
    let mut line = 0;
    while line < src.len() {
        let end = memchr::memchr(b'\n', &src[line..])
            .map_or(src.len(), |k| line + k + 1);
        let mut body = &src[line..end];
        while let [rest @ .., b' ' | b'\t' | b'\r' | b'\n'] = body {
            body = rest;
        }
        // Fast path: a line of whole quanta, no padding, nothing pending.
        let whole = body.len() / 4 * 4;
        let mut i = 0;
        if p.n == 0 && whole > 0 {
            let mut q = 0;
            while q < whole {
                let c = &body[q..q + 4];
                let (a, b, cc, d) = (
                    B64[c[0] as usize],
                    B64[c[1] as usize],
                    B64[c[2] as usize],
                    B64[c[3] as usize],
                );
                if (a | b | cc | d) >= 64 {
                    break;
                }
                if q == 0 {
                    map.base64(out.len(), base + line);
                }
                let n = u32::from(a) << 18
                    | u32::from(b) << 12
                    | u32::from(cc) << 6
                    | u32::from(d);
                out.extend_from_slice(&n.to_be_bytes()[1..]);
                q += 4;
            }
            i = q;
        }
        // Slow path: the rest of the line, character by character.
        for (k, &c) in body.iter().enumerate().skip(i) {
            match B64[c as usize] {
                B64_SPACE => {}
                B64_PAD => p.flush(&mut out, &mut map),
                B64_BAD => {
                    p.flush(&mut out, &mut map);
                    return Base64 {
                        decoded: Decoded { text: out, map },
                        stopped: Some(line),
                    };
                }
                v => p.add(v, base + line + k, &mut out, &mut map),
            }
        }
        line = end;
    }
    p.flush(&mut out, &mut map);
    Base64 { decoded: Decoded { text: out, map }, stopped: None }
}

/// What to do with a part's charset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Charset {
    /// Leave the bytes as they are.
    AsIs,
    /// Convert from this encoding to UTF-8.
    Convert(&'static Encoding),
    /// A charset name `encoding_rs` does not know: left as it is.
    Unknown,
}

/// Looks up a charset label (`charset=` of a Content-Type or of an
/// encoded word).
pub(crate) fn charset(label: Option<&[u8]>) -> Charset {
    let Some(label) = label else { return Charset::AsIs };
    let label = label.trim_ascii();
    let plain = |l: &[u8]| {
        l.is_empty()
            || l.eq_ignore_ascii_case(b"us-ascii")
            || l.eq_ignore_ascii_case(b"ascii")
            || l.eq_ignore_ascii_case(b"unknown-8bit")
            || l.eq_ignore_ascii_case(b"x-unknown")
    };
    if plain(label) {
        return Charset::AsIs;
    }
    match Encoding::for_label_no_replacement(label) {
        Some(e) if e == UTF_8 => Charset::AsIs,
        Some(e) => Charset::Convert(e),
        None => Charset::Unknown,
    }
}

/// Converts `src` from `enc` to UTF-8, with a map to offsets in `src`;
/// `None` when the text needs no conversion (all ASCII in an
/// ASCII-compatible encoding).
pub(crate) fn to_utf8(src: &[u8], enc: &'static Encoding) -> Option<Decoded> {
    if enc.is_ascii_compatible()
        && Encoding::ascii_valid_up_to(src) == src.len()
    {
        return None;
    }
    let mut out = Vec::with_capacity(src.len() + src.len() / 2 + 16);
    let mut map = OffsetMap::new();
    let mut dec = enc.new_decoder_without_bom_handling();
    let single = enc.is_single_byte();
    let ascii_ok = enc.is_ascii_compatible();
    let mut i = 0;
    // Whether the decoder holds no partial character, so that ASCII
    // bytes decode to themselves one for one.
    let mut clean = true;
    let mut tmp = [0u8; 64];
    let mut finished = false;
    while i < src.len() {
        if ascii_ok && (clean || single) {
            let n = Encoding::ascii_valid_up_to(&src[i..]);
            if n > 0 {
                map.linear(out.len(), i);
                out.extend_from_slice(&src[i..i + n]);
                i += n;
                continue;
            }
        }
        if single {
            // Each byte is one character.
            let (_, _, written, _) =
                dec.decode_to_utf8(&src[i..i + 1], &mut tmp, false);
            map.group(out.len(), i, 1);
            out.extend_from_slice(&tmp[..written]);
            i += 1;
            continue;
        }
        // One byte at a time; the characters it completes map to the
        // bytes since the last character.
        let start = i;
        let mut written = 0;
        while i < src.len() && written == 0 {
            let (r, _, w, _) =
                dec.decode_to_utf8(&src[i..i + 1], &mut tmp, false);
            debug_assert_eq!(r, CoderResult::InputEmpty);
            written = w;
            i += 1;
        }
        if written == 0 {
            let (_, _, w, _) = dec.decode_to_utf8(&[], &mut tmp, true);
            written = w;
            finished = true;
        }
        if written > 0 {
            let last = src[i - 1];
            if written == 1 && last < 0x80 && tmp[0] == last {
                // An ASCII byte that decoded to itself (after escape
                // sequences that decode to nothing).
                map.linear(out.len(), i - 1);
            } else {
                map.group(out.len(), start, i - start);
            }
            out.extend_from_slice(&tmp[..written]);
        }
        let last = src[i - 1];
        clean = last < 0x80 && written > 0 && tmp[written - 1] == last;
    }
    let w =
        if finished { 0 } else { dec.decode_to_utf8(&[], &mut tmp, true).2 };
    if w > 0 {
        map.group(out.len(), src.len().saturating_sub(1), 1);
        out.extend_from_slice(&tmp[..w]);
    }
    Some(Decoded { text: out, map })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each decoded byte of a quoted-printable text maps to itself or
    /// to the escape that wrote it.
    fn check_qp(d: &Decoded, src: &[u8], base: usize) {
        for (k, &b) in d.text.iter().enumerate() {
            let (s, e) = d.map.byte(k);
            let piece = &src[s - base..e - base];
            assert!(
                piece == [b] || quoted_printable(piece, 0).text == [b],
                "byte {k} ({}) maps to {:?}",
                b as char,
                String::from_utf8_lossy(piece)
            );
        }
    }

    #[test]
    fn qp_escapes_and_soft_breaks() {
        let src = b"a=3Db https://gro=\nups.example/x=20y =\r\nz = q=zz=";
        let d = quoted_printable(src, 100);
        assert_eq!(d.text, b"a=b https://groups.example/x y z = q=zz");
        // 'b' after the escape is source byte 4.
        assert_eq!(d.map.byte(2), (104, 105));
        // the escape itself covers three bytes.
        assert_eq!(d.map.byte(1), (101, 104));
        // "https://groups.example/x": from 'h' (6) to 'x' after the break.
        let h = d.text.windows(5).position(|w| w == b"https").unwrap();
        let x = d.text.iter().rposition(|&b| b == b'x').unwrap();
        assert_eq!(d.map.range(h, x + 1), (106, 100 + 32));
        assert_eq!(src[31], b'x');
        check_qp(&d, src, 100);
    }

    /// The compact map of a quoted-printable text gives, byte for byte,
    /// what one segment per escape and per soft break gives.
    fn same_as_segments(src: &[u8], base: usize) {
        let mut m = OffsetMap::new();
        m.linear(0, base);
        let (mut i, mut n) = (0, 0);
        while i < src.len() {
            let hex2 = src
                .get(i + 1..i + 3)
                .filter(|h| h.iter().all(u8::is_ascii_hexdigit));
            if src[i] == b'=' && hex2.is_some() {
                m.group(n, base + i, 3);
                n += 1;
                i += 3;
                m.linear(n, base + i);
                continue;
            }
            if src[i] == b'=' {
                let mut j = i + 1;
                while j < src.len() && matches!(src[j], b' ' | b'\t') {
                    j += 1;
                }
                let next = match &src[j..] {
                    [b'\n', ..] => Some(j + 1),
                    [b'\r', b'\n', ..] => Some(j + 2),
                    [] => Some(j),
                    _ => None,
                };
                if let Some(next) = next {
                    i = next;
                    m.linear(n, base + i);
                    continue;
                }
            }
            n += 1;
            i += 1;
        }
        let d = quoted_printable(src, base);
        assert_eq!(d.text.len(), n);
        for k in 0..n {
            assert_eq!(d.map.byte(k), m.byte(k), "byte {k}");
        }
    }

    #[test]
    fn qp_map_is_compact_and_exact() {
        // Escapes next to each other, soft breaks after escapes, a break
        // at the very end: every byte maps as a byte-by-byte walk says.
        let src = b"=41=42x=\n=43y=\r\nz=3D=\n=\nw=";
        let d = quoted_printable(src, 7);
        assert_eq!(d.text, b"ABxCyz=w");
        check_qp(&d, src, 7);
        assert_eq!(d.map.byte(0), (7, 10));
        assert_eq!(d.map.byte(2), (13, 14));
        assert_eq!(d.map.byte(3), (16, 19));
        assert_eq!(d.map.byte(7), (31, 32));
        same_as_segments(src, 7);
        // Dense escapes cost a few bytes each, not segments.
        let line = b"http://a.example/?id=3D1 <http://b.ex=\nample/x> =41 \n";
        let big = line.repeat(20_000);
        let d = quoted_printable(&big, 0);
        check_qp(&d, &big, 0);
        same_as_segments(&big, 0);
        assert!(d.map.heap() <= 3 * 8 * 20_000 * 2, "{}", d.map.heap());
    }

    #[test]
    fn qp_soft_break_with_trailing_blanks() {
        let d = quoted_printable(b"ab= \t\ncd", 0);
        assert_eq!(d.text, b"abcd");
        assert_eq!(d.map.byte(2), (6, 7));
    }

    #[test]
    fn qp_lower_case_hex() {
        assert_eq!(quoted_printable(b"=3d=c3=a9", 0).text, "=é".as_bytes());
    }

    #[test]
    fn base64_lines_and_quanta() {
        // "hello world, http://a.example/" in lines of 10 characters:
        // quanta split across line breaks.
        let enc = b"aGVsbG8gd2\n9ybGQsIGh0\ndHA6Ly9hLm\nV4YW1wbGUv\n";
        let b = base64(enc, 0);
        assert!(b.stopped.is_none());
        assert_eq!(b.decoded.text, b"hello world, http://a.example/");
        // 'h' of http is byte 13: quantum 4 (characters 16 to 19, at 17
        // to 20 with the line break), its second byte made of the
        // characters at 18 and 19.
        assert_eq!(b.decoded.map.byte(13), (18, 20));
        // Every decoded byte maps to two base64 characters.
        for k in 0..b.decoded.text.len() {
            let (s, e) = b.decoded.map.byte(k);
            let chars = enc[s..e].iter().filter(|c| c.is_ascii_alphanumeric());
            assert_eq!(chars.count(), 2, "byte {k}");
        }
    }

    #[test]
    fn base64_odd_line_lengths() {
        // "http://b.example/" split at odd places.
        let enc = b"aHR0cDovL2\nIuZXhh\r\nbXBsZS8=";
        let b = base64(enc, 7);
        assert_eq!(b.decoded.text, b"http://b.example/");
        // From the first character to the '8' before the padding.
        let (s, e) = b.decoded.map.range(0, b.decoded.text.len());
        assert_eq!((s, e), (7, 7 + enc.len() - 1));
    }

    #[test]
    fn base64_stops_at_a_bad_byte() {
        let enc = b"aGk=\n!!!not base64!!!\n";
        let b = base64(enc, 0);
        assert_eq!(b.decoded.text, b"hi");
        assert_eq!(b.stopped, Some(5));
    }

    #[test]
    fn base64_padding_then_more() {
        let b = base64(b"aGk=aGk=", 0);
        assert_eq!(b.decoded.text, b"hihi");
        let b = base64(b"aGk", 0);
        assert_eq!(b.decoded.text, b"hi");
    }

    #[test]
    fn charset_labels() {
        assert_eq!(charset(None), Charset::AsIs);
        assert_eq!(charset(Some(b"US-ASCII")), Charset::AsIs);
        assert_eq!(charset(Some(b"utf-8")), Charset::AsIs);
        assert_eq!(charset(Some(b"x-no-such")), Charset::Unknown);
        assert!(matches!(charset(Some(b"iso-8859-1")), Charset::Convert(_)));
    }

    #[test]
    fn latin1_conversion_maps_each_character() {
        let enc = Encoding::for_label(b"iso-8859-1").unwrap();
        let src = b"Deuxi\xe8me: http://two.example/";
        let d = to_utf8(src, enc).unwrap();
        assert_eq!(d.text, "Deuxième: http://two.example/".as_bytes());
        // 'è' is two UTF-8 bytes from one source byte.
        assert_eq!(d.map.byte(5), (5, 6));
        assert_eq!(d.map.byte(6), (5, 6));
        let h = d.text.iter().position(|&b| b == b'h').unwrap();
        assert_eq!(d.map.byte(h), (10, 11));
        assert!(to_utf8(b"all ascii", enc).is_none());
    }

    #[test]
    fn iso_2022_jp_conversion() {
        let enc = Encoding::for_label(b"iso-2022-jp").unwrap();
        // ESC $ B (JIS X 0208) "ni-ho-n" then ESC ( B and a URI.
        let src = b"\x1b$BF|K\\\x1b(B http://jp.example/";
        let d = to_utf8(src, enc).unwrap();
        let s = String::from_utf8(d.text.clone()).unwrap();
        assert_eq!(s, "日本 http://jp.example/");
        let h = d.text.iter().position(|&b| b == b'h').unwrap();
        let (a, b) = d.map.range(h, d.text.len());
        assert_eq!(&src[a..b], b"http://jp.example/");
        // The Han characters map to their two-byte codes (the first
        // with the escape sequence before it).
        assert_eq!(d.map.byte(0), (0, 5));
        assert_eq!(d.map.byte(3), (5, 7));
    }

    #[test]
    fn shift_jis_trail_bytes_in_ascii_range() {
        let enc = Encoding::for_label(b"shift_jis").unwrap();
        // U+8868 is 0x95 0x5C in Shift_JIS: a trail byte that is '\'.
        let src = b"\x95\x5c http://sj.example/";
        let d = to_utf8(src, enc).unwrap();
        assert_eq!(
            String::from_utf8(d.text.clone()).unwrap(),
            "表 http://sj.example/"
        );
        let h = d.text.iter().position(|&b| b == b'h').unwrap();
        let (a, b) = d.map.range(h, d.text.len());
        assert_eq!(&src[a..b], b"http://sj.example/");
    }
}
