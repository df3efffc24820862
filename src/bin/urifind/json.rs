//! The small lossless JSON writer shared by JSON Lines output and the
//! line modes: strings, keys, numbers, and base64 for bytes that are not
//! UTF-8.
//!
//! In JSON a string that is not valid UTF-8 is written twice: `"key"`
//! holds a lossy rendering (U+FFFD for bad bytes) for readers that only
//! want text, and `"key_base64"` holds the exact bytes, so no byte is ever
//! lost.

/// Appends `s` to `out` as a JSON string literal (quotes included),
/// escaping `"`, `\` and control bytes; bytes that are not UTF-8 become
/// U+FFFD (see [`json_field`] for the lossless form).
pub fn json_string(out: &mut Vec<u8>, s: &[u8]) {
    out.push(b'"');
    let mut rest = s;
    while !rest.is_empty() {
        // The longest run written as it stands (a URI is one, whole).
        let n = rest
            .iter()
            .position(|&b| {
                !(0x20..0x7f).contains(&b) || b == b'"' || b == b'\\'
            })
            .unwrap_or(rest.len());
        out.extend_from_slice(&rest[..n]);
        rest = &rest[n..];
        let Some(&b) = rest.first() else { break };
        if b >= 0x80 {
            // A run of non-ASCII bytes holds whole UTF-8 characters (and
            // broken ones, each replaced by U+FFFD).
            let m = rest.iter().position(|&b| b < 0x80).unwrap_or(rest.len());
            for chunk in rest[..m].utf8_chunks() {
                out.extend_from_slice(chunk.valid().as_bytes());
                if !chunk.invalid().is_empty() {
                    out.extend_from_slice("\u{fffd}".as_bytes());
                }
            }
            rest = &rest[m..];
            continue;
        }
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 15)]);
            }
        }
        rest = &rest[1..];
    }
    out.push(b'"');
}

/// Appends `"key":"value"` (after a comma unless `first`); when `value` is
/// not UTF-8, also `"key_base64":"..."` with its exact bytes.
pub fn json_field(out: &mut Vec<u8>, first: bool, key: &str, value: &[u8]) {
    json_key(out, first, key);
    json_string(out, value);
    if std::str::from_utf8(value).is_err() {
        out.push(b',');
        out.push(b'"');
        out.extend_from_slice(key.as_bytes());
        out.extend_from_slice(b"_base64\":\"");
        base64(out, value);
        out.push(b'"');
    }
}

/// Appends `"key":` (after a comma unless `first`).
pub fn json_key(out: &mut Vec<u8>, first: bool, key: &str) {
    if !first {
        out.push(b',');
    }
    json_string(out, key.as_bytes());
    out.push(b':');
}

/// Appends `"key":N`.
pub fn json_num(out: &mut Vec<u8>, first: bool, key: &str, n: u64) {
    json_key(out, first, key);
    push_u64(out, n);
}

/// Appends the decimal digits of `n`.
pub fn push_u64(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// Appends standard base64 (RFC 4648, with padding) of `data`.
pub fn base64(out: &mut Vec<u8>, data: &[u8]) {
    const A: &[u8; 64] =
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for c in data.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        out.push(A[(n >> 18) as usize & 63]);
        out.push(A[(n >> 12) as usize & 63]);
        out.push(if c.len() > 1 { A[(n >> 6) as usize & 63] } else { b'=' });
        out.push(if c.len() > 2 { A[n as usize & 63] } else { b'=' });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn js(s: &[u8]) -> String {
        let mut v = Vec::new();
        json_string(&mut v, s);
        String::from_utf8(v).unwrap()
    }

    fn b64(s: &[u8]) -> String {
        let mut v = Vec::new();
        base64(&mut v, s);
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn json_escapes() {
        assert_eq!(js(b"http://a/"), r#""http://a/""#);
        assert_eq!(js(b"a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(js(b"\n\r\t\x00\x1f\x7f"), r#""\n\r\t\u0000\u001f\u007f""#);
        assert_eq!(js("straße".as_bytes()), "\"straße\"");
        assert_eq!(js(b"a\xffb"), "\"a\u{fffd}b\"");
    }

    proptest::proptest! {
        /// Any bytes make a JSON string that reads back as their lossy
        /// UTF-8 decoding.
        #[test]
        fn json_string_reads_back(s in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::num::u8::ANY,
                proptest::sample::select(b"\"\\\n\x7fa\xc3\xa9".to_vec()),
            ],
            0..40,
        )) {
            let back: String = serde_json::from_str(&js(&s)).unwrap();
            proptest::prop_assert_eq!(back, String::from_utf8_lossy(&s));
        }
    }

    #[test]
    fn json_field_keeps_bad_bytes_in_base64() {
        let mut v = Vec::new();
        json_field(&mut v, true, "uri", b"ok");
        assert_eq!(v, br#""uri":"ok""#);
        let mut v = Vec::new();
        json_field(&mut v, false, "path", b"\xff\xfe");
        let s = String::from_utf8(v).unwrap();
        assert_eq!(
            s,
            ",\"path\":\"\u{fffd}\u{fffd}\",\"path_base64\":\"//4=\""
        );
    }

    #[test]
    fn decimal_numbers() {
        for n in [0, 7, 10, 99, 100, 12345, u64::MAX] {
            let mut v = Vec::new();
            push_u64(&mut v, n);
            assert_eq!(v, n.to_string().as_bytes());
        }
    }

    #[test]
    fn base64_rfc4648_vectors() {
        assert_eq!(b64(b""), "");
        assert_eq!(b64(b"f"), "Zg==");
        assert_eq!(b64(b"fo"), "Zm8=");
        assert_eq!(b64(b"foo"), "Zm9v");
        assert_eq!(b64(b"foob"), "Zm9vYg==");
        assert_eq!(b64(b"fooba"), "Zm9vYmE=");
        assert_eq!(b64(b"foobar"), "Zm9vYmFy");
    }
}
