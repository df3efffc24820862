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
//! On ASCII the productions are RFC 3986's, so they are not written here
//! again: the RFC 3986 parse (`parse`, `authority`) runs over the
//! [`Ucs`] alphabet (`alphabet`), where a non-ASCII byte starts a UTF-8
//! character that is decoded and checked against `ucschar` (or
//! `iprivate`). Input that is not UTF-8 is no IRI.
//!
//! [`IriValidator`] checks this grammar and, when asked, that the URI the
//! IRI maps to ([`crate::iri::Iri::to_uri`], RFC 3987 section 3.1) passes
//! a URI [`Validator`] as well: the way a finder applies the scheme
//! rules of SPEC.md section 2 to an internationalized host after its IDNA
//! mapping.

use super::alphabet::Ucs;
use super::{parse, Error, Grammar, Validator};
use crate::uri::Components;

/// Validates an `IRI-reference` (or, with `absolute`, an `IRI`) into
/// `c`: RFC 3986's productions over the [`Ucs`] alphabet.
fn iri_reference<'a>(
    s: &'a [u8],
    absolute: bool,
    c: &mut Components<'a>,
) -> Result<(), Error> {
    parse::uri_reference::<Ucs>(s, Grammar::Rfc3986, absolute, false, c)?;
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
    pub fn validate<'a>(&self, s: &'a [u8]) -> Result<Components<'a>, Error> {
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
    use crate::grammar::{ErrorKind, Part};

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
