//! IRIs (RFC 3987): the [`Iri`] type, a validated IRI reference as
//! written, and its mapping to a URI (RFC 3987 section 3.1,
//! [`Iri::to_uri`]).
//!
//! The grammar itself is [`crate::grammar::IriValidator`]'s. The mapping
//! leaves ASCII as it is, converts a host that holds non-ASCII characters
//! to its ASCII form with IDNA (UTS 46 `ToASCII`, label by label, with the
//! STD3 rules; labels already ASCII are kept as written), and
//! percent-encodes every other non-ASCII character as the bytes of its
//! UTF-8 form. A host that IDNA refuses is percent-encoded like the rest,
//! which RFC 3987 section 3.1 allows and RFC 3986's `reg-name` accepts,
//! so the mapped form of every IRI is a URI reference under RFC 3986.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};

use crate::grammar::iri_not_utf8 as not_utf8;
use crate::grammar::{Error, ErrorKind, Fault, IriValidator, Part};
use crate::uri::Components;

/// A valid IRI reference (RFC 3987), borrowed as written.
///
/// # Example
///
/// ```
/// use urifind::iri::Iri;
///
/// let iri = Iri::parse("http://www.bücher.example/Müller?q=€#Ω").unwrap();
/// assert_eq!(iri.components().host, Some("www.bücher.example".as_bytes()));
/// assert_eq!(
///     iri.to_uri(),
///     "http://www.xn--bcher-kva.example/M%C3%BCller?q=%E2%82%AC#%CE%A9"
/// );
///
/// // An ASCII IRI is a URI already: its mapping is itself.
/// let iri = Iri::parse("http://a.example/x").unwrap();
/// assert!(iri.is_ascii());
/// assert_eq!(iri.to_uri(), "http://a.example/x");
///
/// assert!(Iri::parse("http://a.example/a b").is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Iri<'a> {
    s: &'a str,
    c: Components<'a>,
}

impl<'a> Iri<'a> {
    /// Validates `s` as an `IRI-reference` of RFC 3987.
    ///
    /// Use [`IriValidator::absolute`] to require a scheme, or
    /// [`IriValidator::mapped`] to check the mapped URI too.
    ///
    /// # Errors
    ///
    /// The first fault, with its offset in `s`.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::iri::Iri;
    ///
    /// assert!(Iri::parse("../wiki/Ωmega").is_ok());
    /// let e = Iri::parse("http://a.example/\u{fffe}").unwrap_err();
    /// assert_eq!(e.offset(), 17);
    /// ```
    pub fn parse(s: &'a str) -> Result<Iri<'a>, Error> {
        let c = IriValidator::new().validate(s.as_bytes())?;
        Ok(Iri { s, c })
    }

    /// Validates bytes as an `IRI-reference`; bytes that are not UTF-8
    /// are a fault.
    ///
    /// # Errors
    ///
    /// The first fault, with its offset in `s`.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::iri::Iri;
    ///
    /// assert!(Iri::from_bytes("mailto:ö@example.org".as_bytes()).is_ok());
    /// assert_eq!(Iri::from_bytes(b"a:caf\xe9").unwrap_err().offset(), 5);
    /// ```
    pub fn from_bytes(s: &'a [u8]) -> Result<Iri<'a>, Error> {
        let c = IriValidator::new().validate(s)?;
        match std::str::from_utf8(s) {
            Ok(s) => Ok(Iri { s, c }),
            // (The validator has read every byte as UTF-8.)
            Err(e) => Err(not_utf8(e.valid_up_to())),
        }
    }

    /// The IRI as written.
    pub fn as_str(&self) -> &'a str {
        self.s
    }

    /// Its components as RFC 3987 splits them (every authority into
    /// userinfo, host and port).
    ///
    /// ```
    /// use urifind::iri::Iri;
    ///
    /// let c = Iri::parse("//ü@例え.テスト:8080/x").unwrap().components();
    /// assert_eq!(c.scheme, None);
    /// assert_eq!(c.userinfo, Some("ü".as_bytes()));
    /// assert_eq!(c.host, Some("例え.テスト".as_bytes()));
    /// assert_eq!(c.port, Some(&b"8080"[..]));
    /// ```
    pub fn components(&self) -> Components<'a> {
        self.c
    }

    /// Whether the IRI is all ASCII, and so a URI reference as it stands.
    pub fn is_ascii(&self) -> bool {
        self.s.is_ascii()
    }

    /// The URI this IRI maps to (RFC 3987 section 3.1): a non-ASCII host
    /// through IDNA, every other non-ASCII character percent-encoded as
    /// UTF-8 (upper-case hex digits). Borrowed when the IRI is ASCII.
    ///
    /// The result is always a URI reference under RFC 3986.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::iri::Iri;
    ///
    /// let iri = Iri::parse("http://例え.テスト/索引").unwrap();
    /// assert_eq!(
    ///     iri.to_uri(),
    ///     "http://xn--r8jz45g.xn--zckzah/%E7%B4%A2%E5%BC%95"
    /// );
    /// // ASCII labels stay as written; `%` escapes are left alone.
    /// let iri = Iri::parse("http://WWW.Bücher.example/%41").unwrap();
    /// assert_eq!(iri.to_uri(), "http://WWW.xn--bcher-kva.example/%41");
    /// ```
    pub fn to_uri(&self) -> Cow<'a, str> {
        match map(self.s.as_bytes(), &self.c).uri {
            Cow::Borrowed(_) => Cow::Borrowed(self.s),
            // The mapping is ASCII: each byte is its character.
            Cow::Owned(v) => {
                Cow::Owned(v.into_iter().map(char::from).collect())
            }
        }
    }
}

impl fmt::Display for Iri<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.s)
    }
}

/// An IRI mapped to a URI, with what is needed to carry a fault found in
/// the URI back to the IRI.
pub(crate) struct Mapped<'a> {
    /// The URI.
    pub(crate) uri: Cow<'a, [u8]>,
    /// Where a host with non-ASCII characters lies, in the IRI and in the
    /// URI.
    host: Option<(Range<usize>, Range<usize>)>,
    /// IDNA refused that host, which was percent-encoded instead.
    refused: bool,
}

/// Maps the IRI `s`, whose components (from
/// [`crate::grammar::IriValidator`]) are `c`, to a URI.
pub(crate) fn map<'a>(s: &'a [u8], c: &Components<'a>) -> Mapped<'a> {
    let mut m = Mapped { uri: Cow::Borrowed(s), host: None, refused: false };
    if s.is_ascii() {
        return m;
    }
    let mut out = Vec::with_capacity(s.len() * 2);
    let mut done = 0;
    if let (Some(a), Some(h)) = (c.authority, c.host) {
        let auth_start = c.scheme.map_or(0, |x| x.len() + 1) + 2;
        let hs = auth_start + c.userinfo.map_or(0, |u| u.len() + 1);
        let he = hs + h.len();
        debug_assert!(he <= auth_start + a.len());
        if !h.is_ascii() {
            percent_encode(&s[..hs], &mut out);
            let us = out.len();
            match idna_host(h) {
                Some(ascii) => out.extend_from_slice(ascii.as_bytes()),
                None => {
                    m.refused = true;
                    percent_encode(h, &mut out);
                }
            }
            m.host = Some((hs..he, us..out.len()));
            done = he;
        }
    }
    percent_encode(&s[done..], &mut out);
    m.uri = Cow::Owned(out);
    m
}

/// The host `h` (UTF-8, with a non-ASCII character) in ASCII: each label
/// that is not ASCII through UTS 46 `ToASCII` with the STD3 rules, hyphens
/// and lengths left to the scheme rules; `None` when IDNA refuses one.
fn idna_host(h: &[u8]) -> Option<String> {
    let uts46 = Uts46::new();
    let mut out = String::with_capacity(h.len() + 16);
    for (k, label) in h.split(|&b| b == b'.').enumerate() {
        if k > 0 {
            out.push('.');
        }
        if label.is_ascii() {
            out.push_str(std::str::from_utf8(label).ok()?);
            continue;
        }
        let a = uts46
            .to_ascii(
                label,
                AsciiDenyList::STD3,
                Hyphens::Allow,
                DnsLength::Ignore,
            )
            .ok()?;
        out.push_str(&a);
    }
    Some(out)
}

/// Appends `b` to `out` with every non-ASCII byte percent-encoded.
fn percent_encode(b: &[u8], out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &x in b {
        if x < 0x80 {
            out.push(x);
        } else {
            out.extend_from_slice(&[
                b'%',
                HEX[usize::from(x >> 4)],
                HEX[usize::from(x & 15)],
            ]);
        }
    }
}

impl Mapped<'_> {
    /// The fault `e`, found in the mapped URI, as a fault of the IRI `s`:
    /// at the IRI byte the faulty URI byte came from (the start of its
    /// character), or at the start of a host that IDNA converted.
    pub(crate) fn fault_in_iri(&self, s: &[u8], e: &Error) -> Fault {
        let off = e.offset();
        if let Some((ih, uh)) = &self.host {
            if off >= uh.start && off < uh.end {
                if self.refused {
                    return Fault::new(
                        ih.start,
                        Part::Authority,
                        ErrorKind::Other(
                            "the host is not a name IDNA (UTS 46) can map \
                             to ASCII",
                        ),
                    );
                }
                return Fault::new(ih.start, e.part(), e.kind());
            }
        }
        Fault::new(self.iri_offset(s, off), e.part(), e.kind())
    }

    /// The offset in the IRI `s` of URI offset `off`.
    fn iri_offset(&self, s: &[u8], off: usize) -> usize {
        let (mut i, mut u) = (0, 0);
        while i < s.len() {
            if let Some((ih, uh)) = &self.host {
                if i == ih.start {
                    u += uh.len();
                    i = ih.end;
                    if off < u {
                        return ih.start;
                    }
                    continue;
                }
            }
            let w = if s[i] < 0x80 { 1 } else { 3 };
            if off < u + w {
                break;
            }
            u += w;
            i += 1;
        }
        // back to the first byte of the character
        while i > 0 && i < s.len() && s[i] & 0xC0 == 0x80 {
            i -= 1;
        }
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::{Grammar, Validator};

    fn uri(s: &str) -> String {
        Iri::parse(s).unwrap().to_uri().into_owned()
    }

    #[test]
    fn spec_examples_map() {
        assert_eq!(
            uri("https://de.wikipedia.org/wiki/Müller"),
            "https://de.wikipedia.org/wiki/M%C3%BCller"
        );
        assert_eq!(
            uri("http://www.bücher.example/"),
            "http://www.xn--bcher-kva.example/"
        );
        assert_eq!(uri("http://北京大学.cn"), "http://xn--1lq90ic7fzpc.cn");
        assert_eq!(
            uri("http://例子.测试/"),
            "http://xn--fsqu00a.xn--0zwm56d/"
        );
        assert_eq!(
            uri("https://fa.example.org/کتاب\u{200c}خانه"),
            "https://fa.example.org/\
             %DA%A9%D8%AA%D8%A7%D8%A8%E2%80%8C%D8%AE%D8%A7%D9%86%D9%87"
        );
        // userinfo and query percent-encoded, an IPv6 host untouched
        assert_eq!(uri("ftp://ü@[::1]/?é"), "ftp://%C3%BC@[::1]/?%C3%A9");
        // a host IDNA refuses is percent-encoded
        assert_eq!(uri("foo://a\u{2488}b/"), "foo://a%E2%92%88b/");
        // upper case is mapped by UTS 46 in the label it converts
        assert_eq!(uri("http://BÜCHER.de/"), "http://xn--bcher-kva.de/");
        // relative references map too
        assert_eq!(uri("../é"), "../%C3%A9");
        assert_eq!(uri("//ä.example:80"), "//xn--4ca.example:80");
    }

    #[test]
    fn ascii_maps_to_itself_borrowed() {
        let iri = Iri::parse("http://a.example/%C3%A9?x#y").unwrap();
        assert!(matches!(iri.to_uri(), Cow::Borrowed(_)));
        assert_eq!(iri.to_string(), "http://a.example/%C3%A9?x#y");
    }

    #[test]
    fn offsets_map_back() {
        let s = "http://ü@ä.example/ö-x";
        let c = IriValidator::new().validate(s.as_bytes()).unwrap();
        let m = map(s.as_bytes(), &c);
        let u = std::str::from_utf8(&m.uri).unwrap();
        assert_eq!(u, "http://%C3%BC@xn--4ca.example/%C3%B6-x");
        // every ASCII byte outside the host maps to itself
        for (k, b) in
            [(0, 'h'), (6, '/'), (13, '@'), (29, '/'), (36, '-'), (37, 'x')]
        {
            let i = m.iri_offset(s.as_bytes(), k);
            assert_eq!(s[i..].chars().next(), Some(b), "{k}");
        }
        // inside an escape: the character's first byte
        assert_eq!(m.iri_offset(s.as_bytes(), 9), 7);
        // inside the converted host: the host's start
        assert_eq!(m.iri_offset(s.as_bytes(), 17), 10);
        assert_eq!(m.iri_offset(s.as_bytes(), u.len()), s.len());
    }

    #[test]
    fn mapped_is_rfc3986() {
        let v = Validator::new(Grammar::Rfc3986);
        for s in [
            "http://ü:ä@例え.テスト:1/ö/ü?\u{e000}#ß",
            "foo://a\u{2488}b/",
            "urn:ä:ö",
            "ä/b",
            "//\u{10000}",
        ] {
            let u = uri(s);
            assert!(v.is_valid(u.as_bytes()), "{s} -> {u}");
            assert!(u.is_ascii());
        }
    }
}
