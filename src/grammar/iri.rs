//! RFC 3987's grammar for IRIs (section 2.2), beside the URI grammars:
//! the same productions as RFC 3986 with `ucschar` (and, in a query,
//! `iprivate`) admitted where RFC 3986 admits `unreserved`.
//!
//! The rules, as RFC 3987 section 2.2 writes them (`scheme`, `port`,
//! `IP-literal`, `IPv4address`, `pct-encoded` and `sub-delims` are RFC
//! 3986's, named there "as in RFC 3986"):
//!
//! ```text
//! IRI            = scheme ":" ihier-part [ "?" iquery ]
//!                  [ "#" ifragment ]
//! ihier-part     = "//" iauthority ipath-abempty
//!                / ipath-absolute
//!                / ipath-rootless
//!                / ipath-empty
//! IRI-reference  = IRI / irelative-ref
//! absolute-IRI   = scheme ":" ihier-part [ "?" iquery ]
//! irelative-ref  = irelative-part [ "?" iquery ] [ "#" ifragment ]
//! irelative-part = "//" iauthority ipath-abempty
//!                / ipath-absolute
//!                / ipath-noscheme
//!                / ipath-empty
//! iauthority     = [ iuserinfo "@" ] ihost [ ":" port ]
//! iuserinfo      = *( iunreserved / pct-encoded / sub-delims / ":" )
//! ihost          = IP-literal / IPv4address / ireg-name
//! ireg-name      = *( iunreserved / pct-encoded / sub-delims )
//! ipath-abempty  = *( "/" isegment )
//! ipath-absolute = "/" [ isegment-nz *( "/" isegment ) ]
//! ipath-noscheme = isegment-nz-nc *( "/" isegment )
//! ipath-rootless = isegment-nz *( "/" isegment )
//! ipath-empty    = 0<ipchar>
//! isegment       = *ipchar
//! isegment-nz    = 1*ipchar
//! isegment-nz-nc = 1*( iunreserved / pct-encoded / sub-delims / "@" )
//! ipchar         = iunreserved / pct-encoded / sub-delims / ":" / "@"
//! iquery         = *( ipchar / iprivate / "/" / "?" )
//! ifragment      = *( ipchar / "/" / "?" )
//! iunreserved    = ALPHA / DIGIT / "-" / "." / "_" / "~" / ucschar
//! ucschar        = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF
//!                / %x10000-1FFFD / %x20000-2FFFD / %x30000-3FFFD
//!                / %x40000-4FFFD / %x50000-5FFFD / %x60000-6FFFD
//!                / %x70000-7FFFD / %x80000-8FFFD / %x90000-9FFFD
//!                / %xA0000-AFFFD / %xB0000-BFFFD / %xC0000-CFFFD
//!                / %xD0000-DFFFD / %xE1000-EFFFD
//! iprivate       = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD
//! ```
//!
//! On ASCII the productions are RFC 3986's, so the ASCII half of every
//! set is the byte class the RFC 3986 validator uses (`chars`); a
//! non-ASCII byte starts a UTF-8 character, which is decoded and checked
//! against `ucschar` (or `iprivate`). Input that is not UTF-8 is no IRI.
//!
//! [`IriValidator`] checks this grammar and, when asked, that the URI the
//! IRI maps to ([`crate::iri::Iri::to_uri`], RFC 3987 section 3.1) passes
//! a URI [`Validator`] as well: the way a finder applies the scheme
//! rules of SPEC.md section 2 to an internationalized host after its IDNA
//! mapping.

use super::authority::{ipv6, port};
use super::chars::{
    AUTH_END, FUTURE, PATH, QUERY, REG_3986, SCHEME, SEG_NC, USERINFO,
};
use super::lex::{char_err, run, Result};
use super::{Error, ErrorKind, Fault, Part, Validator};
use crate::uri::Components;

const A: Part = Part::Authority;

/// Whether `c` is a `ucschar` (RFC 3987 section 2.2):
///
/// ```text
/// ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF
///         / %x10000-1FFFD / %x20000-2FFFD / %x30000-3FFFD
///         / %x40000-4FFFD / %x50000-5FFFD / %x60000-6FFFD
///         / %x70000-7FFFD / %x80000-8FFFD / %x90000-9FFFD
///         / %xA0000-AFFFD / %xB0000-BFFFD / %xC0000-CFFFD
///         / %xD0000-DFFFD / %xE1000-EFFFD
/// ```
///
/// That is every character from U+00A0 on except surrogates, the private
/// use areas, the non-characters (U+FDD0-FDEF and the last two of every
/// plane) and the tags and variation selectors of plane 14 below
/// U+E1000.
///
/// # Example
///
/// ```
/// use urifind::grammar::is_ucschar;
///
/// assert!(is_ucschar('é') && is_ucschar('日') && is_ucschar('\u{200c}'));
/// assert!(!is_ucschar('a') && !is_ucschar('\u{fffe}'));
/// assert!(!is_ucschar('\u{e000}')); // private use: iprivate
/// ```
pub fn is_ucschar(c: char) -> bool {
    let c = u32::from(c);
    match c {
        0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF => true,
        // %x10000-1FFFD / ... / %xD0000-DFFFD / %xE1000-EFFFD: planes 1
        // to 14 less each plane's last two code points, and less
        // U+E0000-E0FFF.
        0x10000..=0xEFFFD => {
            c & 0xFFFF <= 0xFFFD && !(0xE0000..0xE1000).contains(&c)
        }
        _ => false,
    }
}

/// Whether `c` is an `iprivate` (RFC 3987 section 2.2), which only a
/// query may hold:
///
/// ```text
/// iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD
/// ```
///
/// # Example
///
/// ```
/// use urifind::grammar::is_iprivate;
///
/// assert!(is_iprivate('\u{e000}') && is_iprivate('\u{10fffd}'));
/// assert!(!is_iprivate('é') && !is_iprivate('\u{10ffff}'));
/// ```
pub fn is_iprivate(c: char) -> bool {
    matches!(
        u32::from(c),
        0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD
    )
}

/// The UTF-8 character that starts at `s[i]`, and its length; `None`
/// when the bytes there are not UTF-8.
#[inline]
pub(crate) fn decode(s: &[u8], i: usize) -> Option<(char, usize)> {
    match bstr::decode_utf8(&s[i..]) {
        (Some(c), n) => Some((c, n)),
        (None, _) => None,
    }
}

/// Scans from `i` the ASCII bytes of class `mask` (the RFC 3986 half of
/// a set), `pct-encoded` escapes and the characters that are `ucschar`
/// (or `iprivate`, with `private`): returns the index of the first other
/// byte (or the length), or the fault of a bad escape (at its `%`).
#[inline]
fn iscan(
    s: &[u8],
    mut i: usize,
    mask: u16,
    private: bool,
    part: Part,
) -> Result<usize> {
    let n = s.len();
    loop {
        i = run(s, i, mask);
        if i == n {
            return Ok(i);
        }
        match s[i] {
            // pct-encoded = "%" HEXDIG HEXDIG
            b'%' => {
                if i + 3 <= n
                    && s[i + 1].is_ascii_hexdigit()
                    && s[i + 2].is_ascii_hexdigit()
                {
                    i += 3;
                } else {
                    return Err(Fault::new(i, part, ErrorKind::Escape));
                }
            }
            0x80.. => match decode(s, i) {
                Some((c, k))
                    if is_ucschar(c) || (private && is_iprivate(c)) =>
                {
                    i += k
                }
                _ => return Ok(i),
            },
            _ => return Ok(i),
        }
    }
}

/// The fault of the character at `s[i]` standing in `part` (`place`
/// names it in words for an ASCII byte).
#[cold]
fn ichar_err(s: &[u8], i: usize, part: Part, place: &'static str) -> Fault {
    if s[i] < 0x80 {
        return char_err(s, i, part, place);
    }
    let m = match (decode(s, i), part) {
        (None, _) => return utf8_fault(i, part),
        (Some(_), Part::Scheme) => {
            "a scheme is ASCII letters, digits, '+', '-' and '.'"
        }
        (Some(_), Part::Authority) => {
            "a character that is not a ucschar is not allowed in an \
             IRI's authority"
        }
        (Some(_), Part::Path) => {
            "a character that is not a ucschar is not allowed in an \
             IRI's path"
        }
        (Some(_), Part::Query) => {
            "a character that is neither a ucschar nor an iprivate is not \
             allowed in an IRI's query"
        }
        (Some(_), Part::Fragment) => {
            "a character that is not a ucschar is not allowed in an \
             IRI's fragment"
        }
    };
    Fault::new(i, part, ErrorKind::Other(m))
}

/// The fault of bytes that are not UTF-8 at offset `i`, in `part`.
#[cold]
fn utf8_fault(i: usize, part: Part) -> Fault {
    let m = "bytes that are not UTF-8 are not allowed in an IRI";
    Fault::new(i, part, ErrorKind::Other(m))
}

/// The error of bytes that are not UTF-8 at offset `i`.
#[cold]
pub(crate) fn not_utf8(i: usize) -> Error {
    utf8_fault(i, Part::Path).into()
}

#[cold]
fn other(i: usize, part: Part, m: &'static str) -> Fault {
    Fault::new(i, part, ErrorKind::Other(m))
}

/// Whether an authority may end at `j` (RFC 3986 Appendix B: the
/// authority is `[^/?#]*`, which reads UTF-8 the same).
#[inline]
fn at_end(s: &[u8], j: usize) -> bool {
    j == s.len() || super::chars::is(s[j], AUTH_END)
}

/// Where the authority that starts at `a` ends.
fn auth_end(s: &[u8], a: usize) -> usize {
    let k = s[a..].iter().position(|&b| super::chars::is(b, AUTH_END));
    a + k.unwrap_or(s.len() - a)
}

/// Validates an `IRI-reference` (or, with `absolute`, an `IRI`) into
/// `c`.
pub(crate) fn iri_reference<'a>(
    s: &'a [u8],
    absolute: bool,
    c: &mut Components<'a>,
) -> Result<()> {
    let n = s.len();
    // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
    let mut i = 0;
    if n > 0 && s[0].is_ascii_alphabetic() {
        i = run(s, 1, SCHEME);
    }
    let mut p = if i > 0 && i < n && s[i] == b':' {
        c.scheme = Some(&s[..i]);
        ihier_part(s, i + 1, c)?
    } else if absolute {
        return Err(scheme_err(s, i));
    } else {
        irelative_part(s, c)?
    };
    // [ "?" iquery ], iquery = *( ipchar / iprivate / "/" / "?" )
    if p < n && s[p] == b'?' {
        let q = iscan(s, p + 1, QUERY, true, Part::Query)?;
        c.query = Some(&s[p + 1..q]);
        if q < n && s[q] != b'#' {
            return Err(ichar_err(s, q, Part::Query, "a query"));
        }
        p = q;
    }
    // [ "#" ifragment ], ifragment = *( ipchar / "/" / "?" )
    if p < n {
        debug_assert_eq!(s[p], b'#');
        let f = iscan(s, p + 1, QUERY, false, Part::Fragment)?;
        c.fragment = Some(&s[p + 1..f]);
        if f < n {
            return Err(ichar_err(s, f, Part::Fragment, "a fragment"));
        }
    }
    Ok(())
}

/// Why an IRI has no scheme; `i` ends the run of scheme bytes.
#[cold]
fn scheme_err(s: &[u8], i: usize) -> Fault {
    let sch = Part::Scheme;
    if s.is_empty() {
        other(0, sch, "an IRI must start with a scheme")
    } else if !s[0].is_ascii_alphabetic() {
        other(0, sch, "a scheme must start with a letter")
    } else if i == s.len() || super::chars::is(s[i], AUTH_END) {
        other(i, sch, "the scheme must be followed by ':'")
    } else {
        ichar_err(s, i, sch, "a scheme")
    }
}

/// A path of `isegment`s from `i` (`ipath-abempty`, `ipath-absolute`,
/// `ipath-rootless`, `ipath-empty`: `*( ipchar / "/" )` once `//` is
/// taken by the authority): returns its end, the length, a `?` or a `#`.
fn ipath(s: &[u8], i: usize) -> Result<usize> {
    let j = iscan(s, i, PATH, false, Part::Path)?;
    if j < s.len() && s[j] != b'?' && s[j] != b'#' {
        return Err(ichar_err(s, j, Part::Path, "a path"));
    }
    Ok(j)
}

/// `"//" iauthority ipath-abempty` with `p` at the `//`.
fn inet_path<'a>(
    s: &'a [u8],
    p: usize,
    c: &mut Components<'a>,
) -> Result<usize> {
    let e = iauthority(s, p + 2, c)?;
    let j = ipath(s, e)?;
    c.path = &s[e..j];
    Ok(j)
}

/// `ihier-part`, from `p` (after `scheme ":"`).
fn ihier_part<'a>(
    s: &'a [u8],
    p: usize,
    c: &mut Components<'a>,
) -> Result<usize> {
    if s[p..].starts_with(b"//") {
        return inet_path(s, p, c);
    }
    // ipath-absolute / ipath-rootless / ipath-empty
    let j = ipath(s, p)?;
    c.path = &s[p..j];
    Ok(j)
}

/// `irelative-part`: `"//" iauthority ipath-abempty / ipath-absolute /
/// ipath-noscheme / ipath-empty`.
fn irelative_part<'a>(s: &'a [u8], c: &mut Components<'a>) -> Result<usize> {
    let n = s.len();
    if s.starts_with(b"//") {
        return inet_path(s, 0, c);
    }
    if n == 0 || matches!(s[0], b'#' | b'/' | b'?') {
        // ipath-absolute / ipath-empty
        let j = ipath(s, 0)?;
        c.path = &s[..j];
        return Ok(j);
    }
    // ipath-noscheme = isegment-nz-nc *( "/" isegment ),
    // isegment-nz-nc = 1*( iunreserved / pct-encoded / sub-delims / "@" )
    let j = iscan(s, 0, SEG_NC, false, Part::Path)?;
    let end = match s.get(j) {
        None | Some(b'?') | Some(b'#') => j,
        Some(b'/') => ipath(s, j)?,
        Some(b':') => {
            return Err(other(
                j,
                Part::Path,
                "':' is not allowed in the first segment of a relative \
                 path (it would read as a scheme)",
            ))
        }
        Some(_) => return Err(ichar_err(s, j, Part::Path, "a path")),
    };
    c.path = &s[..end];
    Ok(end)
}

/// `iauthority = [ iuserinfo "@" ] ihost [ ":" port ]` from `a` (after
/// `//`): fills the authority's components and returns where it ends.
fn iauthority<'a>(
    s: &'a [u8],
    a: usize,
    c: &mut Components<'a>,
) -> Result<usize> {
    let n = s.len();
    // iuserinfo = *( iunreserved / pct-encoded / sub-delims / ":" )
    let j = iscan(s, a, USERINFO, false, A)?;
    let (ui, h) = if j < n && s[j] == b'@' {
        (Some(&s[a..j]), j + 1)
    } else {
        (None, a)
    };
    c.userinfo = ui;
    if h < n && s[h] == b'[' {
        // IP-literal = "[" ( IPv6address / IPvFuture ) "]"
        let e = auth_end(s, h);
        let Some(close) = s[h..e].iter().position(|&b| b == b']') else {
            // No parse gets past the first byte no IP literal holds
            // (IPvFuture's are a superset of IPv6address's).
            let k = (h + 1..e).find(|&k| !super::chars::is(s[k], FUTURE));
            return Err(match k {
                Some(k) => ichar_err(s, k, A, "an IPv6 address"),
                None => other(e, A, "missing ']' after IPv6 address"),
            });
        };
        let close = h + close;
        if h + 1 < close && (s[h + 1] | 0x20) == b'v' {
            ipvfuture(s, h + 1, close)?;
        } else {
            ipv6(s, h + 1, close, false)?;
        }
        c.host = Some(&s[h..close + 1]);
        c.port = port(s, close + 1, e)?;
        c.authority = Some(&s[a..e]);
        return Ok(e);
    }
    if ui.is_none() {
        // s[a..j] are iuserinfo characters, which are the ireg-name ones
        // and ':': the host runs to the first ':', the port after it.
        let hend =
            s[a..j].iter().position(|&b| b == b':').map_or(j, |k| a + k);
        if !at_end(s, j) {
            let e = auth_end(s, j);
            return Err(if s[j..e].contains(&b'@') {
                ichar_err(s, j, A, "userinfo")
            } else if hend < j {
                other(j, A, "a port must be digits")
            } else {
                ichar_err(s, j, A, "a host")
            });
        }
        c.host = Some(&s[a..hend]);
        c.port = port(s, hend, j)?;
        c.authority = Some(&s[a..j]);
        return Ok(j);
    }
    // ireg-name = *( iunreserved / pct-encoded / sub-delims )
    let k = iscan(s, h, REG_3986, false, A)?;
    c.host = Some(&s[h..k]);
    let mut e = k;
    if k < n && s[k] == b':' {
        // port = *DIGIT
        e = k + 1;
        while e < n && s[e].is_ascii_digit() {
            e += 1;
        }
        if !at_end(s, e) {
            return Err(other(e, A, "a port must be digits"));
        }
        c.port = Some(&s[k + 1..e]);
    } else if !at_end(s, k) {
        return Err(ichar_err(s, k, A, "a host"));
    }
    c.authority = Some(&s[a..e]);
    Ok(e)
}

/// `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`
/// (RFC 3986) at `s[v..close]`.
fn ipvfuture(s: &[u8], v: usize, close: usize) -> Result<()> {
    let mut i = v + 1;
    while i < close && s[i].is_ascii_hexdigit() {
        i += 1;
    }
    if i == v + 1 {
        let m = "expected a hex version after 'v' in IPvFuture";
        return Err(other(i, A, m));
    }
    if i == close || s[i] != b'.' {
        let m = "expected '.' after the version in IPvFuture";
        return Err(other(i, A, m));
    }
    i += 1;
    let st = i;
    i = run(s, i, FUTURE).min(close);
    if i < close {
        return Err(ichar_err(s, i, A, "an IPvFuture address"));
    }
    if i == st {
        let m = "expected an address after '.' in IPvFuture";
        return Err(other(i, A, m));
    }
    Ok(())
}

/// A strict validator for RFC 3987 IRI references.
///
/// Input is bytes, read as UTF-8: bytes that are not UTF-8 are a fault.
/// An error's offset is the first byte of the character at which no
/// parse can continue, and, as for URIs, when the fault lies in the path,
/// query or fragment, the bytes before it are a valid IRI reference
/// whenever the scheme and authority are.
///
/// # Example
///
/// ```
/// use urifind::grammar::{Grammar, IriValidator, Part, Validator};
///
/// let v = IriValidator::new().absolute(true);
/// let c = v.validate("http://www.bücher.example/Müller?q=ü".as_bytes()).unwrap();
/// assert_eq!(c.host, Some("www.bücher.example".as_bytes()));
/// assert_eq!(c.query, Some("q=ü".as_bytes()));
///
/// // A private-use character may stand in a query only.
/// let e = v.validate("http://a.example/\u{e000}".as_bytes()).unwrap_err();
/// assert_eq!((e.offset(), e.part()), (17, Part::Path));
///
/// // With the scheme rules on the mapped URI, the host must map to a
/// // host name.
/// let rules = Validator::new(Grammar::Rfc3986).absolute(true).scheme_rules(true);
/// let v = v.mapped(rules);
/// assert!(v.is_valid("http://北京大学.cn/".as_bytes()));
/// assert!(v.validate("http://-bad-.exämple/".as_bytes()).is_err());
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct IriValidator {
    absolute: bool,
    mapped: Option<Validator>,
}

impl IriValidator {
    /// A validator for `IRI-reference`.
    pub fn new() -> IriValidator {
        IriValidator::default()
    }

    /// Accept only `IRI` (a scheme, and an optional `#ifragment`): no
    /// relative references. (RFC 3987's `absolute-IRI` is that without
    /// the fragment.)
    pub fn absolute(mut self, yes: bool) -> IriValidator {
        self.absolute = yes;
        self
    }

    /// Also require that the URI the IRI maps to (RFC 3987 section 3.1,
    /// as [`crate::iri::Iri::to_uri`] does it) passes `v`: the chosen URI
    /// grammar and, with [`Validator::scheme_rules`], the host rules of
    /// the IP-based schemes, applied to the host's IDNA form. A fault
    /// found there is reported at the matching offset of the IRI (the
    /// start of the host for a fault in a mapped host).
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::grammar::{IriValidator, Validator};
    ///
    /// let rules = Validator::default().absolute(true).scheme_rules(true);
    /// let v = IriValidator::new().mapped(rules);
    /// // '-' may not start a label: at IRI offset 10, URI offset 14
    /// let e = v.validate("http://ü@-bad-.example/".as_bytes()).unwrap_err();
    /// assert_eq!(e.offset(), 10);
    /// let e = v.validate("http://ä..b/".as_bytes()).unwrap_err();
    /// assert_eq!(e.offset(), 7);
    /// ```
    pub fn mapped(mut self, v: Validator) -> IriValidator {
        self.mapped = Some(v);
        self
    }

    /// Validates `s`, returning its components (of the IRI as written)
    /// or the first fault.
    ///
    /// Every authority is split into userinfo, host and port, as RFC
    /// 3987 writes `iauthority`.
    ///
    /// # Errors
    ///
    /// The first fault: where no parse can go on, in which part, and why.
    pub fn validate<'a>(
        &self,
        s: &'a [u8],
    ) -> std::result::Result<Components<'a>, Error> {
        let mut c = Components::default();
        iri_reference(s, self.absolute, &mut c)?;
        if let Some(v) = self.mapped {
            let m = crate::iri::map(s, &c);
            if let Err(e) = v.validate(&m.uri) {
                return Err(m.fault_in_iri(s, &e).into());
            }
        }
        Ok(c)
    }

    /// Whether `s` is valid (the same as `validate(s).is_ok()`).
    ///
    /// ```
    /// use urifind::grammar::IriValidator;
    ///
    /// assert!(IriValidator::new().is_valid("../wiki/Straße".as_bytes()));
    /// assert!(!IriValidator::new().is_valid(b"http://a.example/caf\xe9"));
    /// ```
    pub fn is_valid(&self, s: &[u8]) -> bool {
        self.validate(s).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Grammar;

    fn ok(s: &str) -> Components<'_> {
        match IriValidator::new().validate(s.as_bytes()) {
            Ok(c) => c,
            Err(e) => panic!("{s}: {} at {}", e.message(), e.offset()),
        }
    }

    fn err(s: &str) -> Error {
        IriValidator::new().validate(s.as_bytes()).unwrap_err()
    }

    #[test]
    fn ucschar_bounds() {
        let yes = [
            0xA0, 0xD7FF, 0xF900, 0xFDCF, 0xFDF0, 0xFFEF, 0x10000, 0x1FFFD,
            0x20000, 0xDFFFD, 0xE1000, 0xEFFFD, 0x200C, 0x200D,
        ];
        let no = [
            0x7F, 0x9F, 0xE000, 0xF8FF, 0xFDD0, 0xFDEF, 0xFFF0, 0xFFFE,
            0xFFFF, 0x1FFFE, 0x1FFFF, 0xE0000, 0xE0001, 0xE0FFF, 0xEFFFE,
            0xF0000, 0x10FFFD,
        ];
        for c in yes {
            assert!(is_ucschar(char::from_u32(c).unwrap()), "{c:x}");
        }
        for c in no {
            assert!(!is_ucschar(char::from_u32(c).unwrap()), "{c:x}");
        }
        for c in [0xE000, 0xF8FF, 0xF0000, 0xFFFFD, 0x100000, 0x10FFFD] {
            assert!(is_iprivate(char::from_u32(c).unwrap()), "{c:x}");
        }
        for c in [0xD7FF, 0xF900, 0xFFFFE, 0x10FFFE, 0xA0] {
            assert!(!is_iprivate(char::from_u32(c).unwrap()), "{c:x}");
        }
    }

    #[test]
    fn every_part_takes_ucschar() {
        let c = ok("http://ü:p@bücher.example:8080/ä/ö?ß=∂#Ω");
        assert_eq!(c.scheme, Some(&b"http"[..]));
        assert_eq!(c.userinfo, Some("ü:p".as_bytes()));
        assert_eq!(c.host, Some("bücher.example".as_bytes()));
        assert_eq!(c.port, Some(&b"8080"[..]));
        assert_eq!(c.path, "/ä/ö".as_bytes());
        assert_eq!(c.query, Some("ß=∂".as_bytes()));
        assert_eq!(c.fragment, Some("Ω".as_bytes()));
        let c = ok("urn:例:テスト");
        assert_eq!(c.path, "例:テスト".as_bytes());
        let c = ok("//例え.テスト/x");
        assert_eq!(c.host, Some("例え.テスト".as_bytes()));
        let c = ok("Straße/a:b");
        assert_eq!(c.scheme, None);
        // iprivate in a query, nowhere else
        ok("http://a.example/?\u{e000}\u{f0000}");
        for s in [
            "http://a.example/\u{e000}",
            "http://a.example/#\u{e000}",
            "http://\u{e000}.example/",
        ] {
            assert!(
                IriValidator::new().validate(s.as_bytes()).is_err(),
                "{s}"
            );
        }
    }

    #[test]
    fn faults_point_at_the_character() {
        let e = err("http://a.example/ab\u{fffe}c");
        assert_eq!((e.offset(), e.part()), (19, Part::Path));
        assert!(e.message().contains("ucschar"), "{}", e.message());
        let e = err("http://a.example/?\u{fdd0}");
        assert_eq!((e.offset(), e.part()), (18, Part::Query));
        assert!(e.message().contains("iprivate"), "{}", e.message());
        let e =
            IriValidator::new().validate(b"http://a/\xe9t\xe9").unwrap_err();
        assert_eq!(e.offset(), 9);
        assert!(e.message().contains("not UTF-8"), "{}", e.message());
        // a lone continuation byte, a truncated sequence
        assert_eq!(
            IriValidator::new().validate(b"a:\x80").unwrap_err().offset(),
            2
        );
        assert_eq!(
            IriValidator::new().validate(b"a:b\xe6\x97").unwrap_err().offset(),
            3
        );
        let e = err("ht\u{e9}tp://a/");
        assert_eq!((e.offset(), e.part()), (6, Part::Path));
        let e =
            IriValidator::new().absolute(true).validate("héllo:x".as_bytes());
        assert_eq!(e.unwrap_err().part(), Part::Scheme);
        let e = err("http://a.example/a b");
        assert_eq!(e.message(), "a space is not allowed in a path");
        let e = err("http://a.ex\u{fff9}ample/");
        assert_eq!((e.offset(), e.part()), (11, Part::Authority));
        let e = err("http://a%zz/");
        assert_eq!(e.kind(), ErrorKind::Escape);
        assert_eq!(err("http://ä:8ü/").message(), "a port must be digits");
    }

    #[test]
    fn ip_literals_are_rfc3986s() {
        ok("http://[::1]/ä");
        ok("http://ü@[v7.x]/ä");
        let e = err("http://[v7.ä]/");
        assert_eq!(e.offset(), 11);
        assert!(err("http://[::ä]/").offset() >= 10);
        assert!(err("http://[::1/").message().contains("']'"));
        assert_eq!(err("http://[::1]x/").offset(), 12);
    }

    #[test]
    fn relative_references() {
        assert_eq!(ok("").path, b"");
        assert_eq!(ok("?ä").query, Some("ä".as_bytes()));
        assert_eq!(ok("#ä").fragment, Some("ä".as_bytes()));
        assert_eq!(ok("/ä//b").path, "/ä//b".as_bytes());
        let e = err("ä:b");
        assert_eq!(e.offset(), 2);
        assert!(e.message().contains("first segment"));
        let v = IriValidator::new().absolute(true);
        assert!(v.validate("/ä".as_bytes()).is_err());
        assert!(v.validate("a:/ä#x".as_bytes()).is_ok());
    }

    #[test]
    fn mapped_faults_land_in_the_iri() {
        let rules =
            Validator::new(Grammar::Rfc3986).absolute(true).scheme_rules(true);
        let v = IriValidator::new().absolute(true).mapped(rules);
        // a fault after percent-encoded userinfo: offsets in IRI bytes
        let e = v.validate("http://ü@-bad-.example/".as_bytes());
        assert_eq!(e.unwrap_err().offset(), 10);
        // a host that IDNA refuses
        let e = v.validate("http://a\u{2488}b.example/".as_bytes());
        let e = e.unwrap_err();
        assert_eq!((e.offset(), e.part()), (7, Part::Authority));
        assert!(e.message().contains("IDNA"), "{}", e.message());
        // a label the IDNA form makes too long
        let long = format!("http://{}.example/", "ü".repeat(60));
        assert!(v.validate(long.as_bytes()).is_err());
        // a mapped host that is fine
        assert!(v.is_valid("https://de.wikipedia.org/wiki/Müller".as_bytes()));
        assert!(v.is_valid("http://例え.テスト".as_bytes()));
        // the last label of an IDNA host starts with "xn--": a letter
        assert!(v.is_valid("http://例子.测试/".as_bytes()));
        // the port rule after a mapped host
        let e = v.validate("http://ä.example:x/".as_bytes()).unwrap_err();
        assert_eq!(e.offset(), 18);
    }
}
