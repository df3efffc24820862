//! Byte classes: one 256-entry table of bit flags, built at compile time,
//! that says for every byte which grammar rules admit it.
//!
//! The validator's loops are `while CLASS[b] & MASK != 0`, so each rule
//! below is one bit. Where the three grammars agree on a set (they agree
//! on `pchar`, `query`, `fragment`, `userinfo` and the first segment of a
//! relative path, even though they spell them differently), the set has
//! one bit; where they differ it has one bit per grammar. `%` is in no
//! set: the loops stop on it and check the escape by hand.

/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (all three),
/// the characters after the first.
pub(crate) const SCHEME: u16 = 1 << 0;

/// `pchar` without `escaped`, the same set in all three grammars:
///
/// * rfc2396bis: `pchar = unreserved / escaped / ";" / ":" / "@" / "&" /
///   "=" / "+" / "$" / ","` with `unreserved = ALPHA / DIGIT / mark` and
///   `mark = "-" / "_" / "." / "!" / "~" / "*" / "'" / "(" / ")"`;
/// * RFC 2396: `pchar = unreserved | escaped | ":" | "@" | "&" | "=" |
///   "+" | "$" | ","`, with `;` reaching segments through
///   `segment = *pchar *( ";" param )`, `param = *pchar`;
/// * RFC 3986: `pchar = unreserved / pct-encoded / sub-delims / ":" /
///   "@"`, `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`,
///   `sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," /
///   ";" / "="`.
pub(crate) const PCHAR: u16 = 1 << 1;

/// A path: `path-segments = segment *( "/" segment )`,
/// `segment = *pchar` (rfc2396bis; RFC 2396 and RFC 3986 alike): `pchar`
/// and `/`.
pub(crate) const PATH: u16 = 1 << 2;

/// `query = *( pchar / "/" / "?" )` and `fragment = *( pchar / "/" /
/// "?" )` (rfc2396bis, RFC 3986); RFC 2396's `query = *uric`,
/// `fragment = *uric` is the same set, as its `uric` has no brackets.
pub(crate) const QUERY: u16 = 1 << 3;

/// rfc2396bis `uric = reserved / unreserved / escaped` with
/// `reserved = "[" / "]" / ";" / "/" / "?" / ":" / "@" / "&" / "=" /
/// "+" / "$" / ","` (the opaque part after its first character).
pub(crate) const URIC_BIS: u16 = 1 << 4;

/// RFC 2396 `uric = reserved | unreserved | escaped` with
/// `reserved = ";" | "/" | "?" | ":" | "@" | "&" | "=" | "+" | "$" |
/// ","` (no brackets).
pub(crate) const URIC_2396: u16 = 1 << 5;

/// The first segment of a relative path, where `:` would read as a
/// scheme: rfc2396bis `rel-segment = 1*( unreserved / escaped / ";" /
/// "@" / "&" / "=" / "+" / "$" / "," )`, RFC 2396 `rel_segment` (the
/// same), RFC 3986 `segment-nz-nc = 1*( unreserved / pct-encoded /
/// sub-delims / "@" )`: `pchar` without `:`.
pub(crate) const SEG_NC: u16 = 1 << 6;

/// rfc2396bis `userinfo = *( unreserved / escaped / ";" / ":" / "&" /
/// "=" / "+" / "$" / "," )`, RFC 2396 `userinfo` (the same), RFC 3986
/// `userinfo = *( unreserved / pct-encoded / sub-delims / ":" )`:
/// `pchar` without `@`.
pub(crate) const USERINFO: u16 = 1 << 7;

/// rfc2396bis `reg-name = 1*( unreserved / escaped / ";" / ":" / "@" /
/// "&" / "=" / "+" / "$" / "," )` and RFC 2396 `reg_name` (the same
/// set): exactly `pchar`.
pub(crate) const REG_2396: u16 = 1 << 8;

/// RFC 3986 `reg-name = *( unreserved / pct-encoded / sub-delims )`:
/// `pchar` without `:` and `@`.
pub(crate) const REG_3986: u16 = 1 << 9;

/// `/`, `?` and `#`: the bytes that end an authority (Appendix B's
/// `//([^/?#]*)`).
pub(crate) const AUTH_END: u16 = 1 << 10;

/// `alphanum = ALPHA / DIGIT` and `-`: what a host name label is made of
/// (`domainlabel`, `toplabel`).
pub(crate) const LABEL: u16 = 1 << 11;

/// RFC 3986 `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims /
/// ":" )`, the part after the dot.
pub(crate) const FUTURE: u16 = 1 << 12;

/// Every byte but `@`, `:`, `/`, `?` and `#`: a run of it crosses the
/// parts of an authority up to the next delimiter.
pub(crate) const NO_DELIM: u16 = 1 << 13;

const ALNUM: &[u8] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

const fn set(t: &mut [u16; 256], bytes: &[u8], bit: u16) {
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] |= bit;
        i += 1;
    }
}

const fn clear(t: &mut [u16; 256], byte: u8, bit: u16) {
    t[byte as usize] &= !bit;
}

const fn build() -> [u16; 256] {
    let mut t = [0u16; 256];
    // scheme: ALPHA / DIGIT / "+" / "-" / "."
    set(&mut t, ALNUM, SCHEME);
    set(&mut t, b"+-.", SCHEME);
    // pchar (see PCHAR's doc for the three spellings of this one set)
    let pchar_extra: &[u8] = b"-_.!~*'();:@&=+$,";
    let every = PCHAR | PATH | QUERY | URIC_BIS | URIC_2396;
    let every = every | SEG_NC | USERINFO | REG_2396 | REG_3986;
    set(&mut t, ALNUM, every);
    set(&mut t, pchar_extra, every);
    // segment-nz-nc / rel-segment: no ":"
    clear(&mut t, b':', SEG_NC);
    // userinfo: no "@"
    clear(&mut t, b'@', USERINFO);
    // RFC 3986 reg-name: no ":" and no "@"
    clear(&mut t, b':', REG_3986);
    clear(&mut t, b'@', REG_3986);
    // path: "/"; query and fragment: "/" and "?"
    set(&mut t, b"/", PATH | QUERY | URIC_BIS | URIC_2396);
    set(&mut t, b"?", QUERY | URIC_BIS | URIC_2396);
    // rfc2396bis reserved has "[" and "]"
    set(&mut t, b"[]", URIC_BIS);
    set(&mut t, b"/?#", AUTH_END);
    set(&mut t, ALNUM, LABEL);
    set(&mut t, b"-", LABEL);
    // IPvFuture tail: unreserved / sub-delims / ":"
    set(&mut t, ALNUM, FUTURE);
    set(&mut t, b"-._~!$&'()*+,;=:", FUTURE);
    let mut b = 0;
    while b < 256 {
        if !matches!(b as u8, b'@' | b':' | b'/' | b'?' | b'#') {
            t[b] |= NO_DELIM;
        }
        b += 1;
    }
    t
}

/// The byte-class table.
pub(crate) static CLASS: [u16; 256] = build();

/// Whether `b` is in class `mask`.
#[inline(always)]
pub(crate) fn is(b: u8, mask: u16) -> bool {
    CLASS[b as usize] & mask != 0
}
