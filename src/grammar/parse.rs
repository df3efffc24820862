//! The top-level productions: scheme, hierarchical or opaque part, path,
//! query and fragment, for each grammar, in one left-to-right pass.
//!
//! The rules, as each grammar's collected BNF writes them:
//!
//! rfc2396bis (Appendix A of the draft):
//!
//! ```text
//! URI-reference = [ absolute-URI / relative-URI ] [ "#" fragment ]
//! absolute-URI  = scheme ":" ( hier-part / opaque-part )
//! relative-URI  = [ net-path / abs-path / rel-path ] [ "?" query ]
//! hier-part     = [ net-path / abs-path ] [ "?" query ]
//! opaque-part   = uric-no-slash *uric
//! net-path      = "//" authority [ abs-path ]
//! abs-path      = "/"  path-segments
//! rel-path      = rel-segment [ abs-path ]
//! ```
//!
//! RFC 2396 (Appendix A): the same shape, but `hier_part = ( net_path |
//! abs_path ) [ "?" query ]` and `relativeURI = ( net_path | abs_path |
//! rel_path ) [ "?" query ]` are not optional, so `about:` and `?y` are
//! not references.
//!
//! RFC 3986 (Appendix A):
//!
//! ```text
//! URI-reference = URI / relative-ref
//! URI           = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
//! hier-part     = "//" authority path-abempty / path-absolute
//!               / path-rootless / path-empty
//! relative-ref  = relative-part [ "?" query ] [ "#" fragment ]
//! relative-part = "//" authority path-abempty / path-absolute
//!               / path-noscheme / path-empty
//! ```
//!
//! RFC 3987's IRI grammar is RFC 3986's with `ucschar` (and, in a
//! query, `iprivate`) added wherever `unreserved` stands, so the parse
//! is generic over the [`Alphabet`] and `grammar::iri` runs it as RFC
//! 3986 over [`Ucs`](super::alphabet::Ucs).
//!
//! Where a string could be read two ways, Appendix B's greedy reading
//! decides (`//` always starts an authority, a leading `name:` is always a
//! scheme); the grammars agree with it.

use super::alphabet::Alphabet;
use super::authority;
use super::chars::{
    is, AUTH_END, PATH, QUERY, SCHEME, SEG_NC, URIC_2396, URIC_BIS,
};
use super::lex::{char_err, run, scan, Result};
use super::{schemes, ErrorKind, Fault, Grammar, Part};
use crate::uri::Components;

#[cold]
fn other(i: usize, part: Part, m: &'static str) -> Fault {
    Fault::new(i, part, ErrorKind::Other(m))
}

/// Validates a `URI-reference` (or, with `absolute`, an `absolute-URI
/// [ "#" fragment ]`) into `c`, returning the offset where its authority
/// starts (`usize::MAX` when it has none).
///
/// With `rules` (the scheme rules will check the authority of an
/// IP-based scheme and fill its parts), an rfc2396bis or RFC 2396
/// authority that matches `reg-name` is not also parsed as a server.
#[inline]
pub(crate) fn uri_reference<'a, L: Alphabet>(
    s: &'a [u8],
    g: Grammar,
    absolute: bool,
    rules: bool,
    c: &mut Components<'a>,
) -> Result<(usize, bool)> {
    let n = s.len();
    let mut auth_start = usize::MAX;
    let mut ip_based = false;
    // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
    let mut i = 0;
    if n > 0 && s[0].is_ascii_alphabetic() {
        i = run(s, 1, SCHEME);
    }
    let mut p = if i > 0 && i < n && s[i] == b':' {
        c.scheme = Some(&s[..i]);
        ip_based = rules && schemes::is_ip_based(&s[..i]);
        let parts = !ip_based;
        after_scheme::<L>(s, i + 1, g, parts, c, &mut auth_start)?
    } else if absolute {
        return Err(scheme_err::<L>(s, i));
    } else {
        relative::<L>(s, g, c, &mut auth_start)?
    };
    // [ "?" query ], query = *( pchar / "/" / "?" )
    if p < n && s[p] == b'?' {
        let q = L::scan(s, p + 1, QUERY, Part::Query)?;
        c.query = Some(&s[p + 1..q]);
        if q < n && s[q] != b'#' {
            return Err(L::char_err(s, q, Part::Query, "a query"));
        }
        p = q;
    }
    // [ "#" fragment ], fragment = *( pchar / "/" / "?" )
    if p < n {
        debug_assert_eq!(s[p], b'#');
        let f = L::scan(s, p + 1, QUERY, Part::Fragment)?;
        c.fragment = Some(&s[p + 1..f]);
        if f < n {
            return Err(L::char_err(s, f, Part::Fragment, "a fragment"));
        }
    }
    Ok((auth_start, ip_based))
}

/// Why an absolute URI has no scheme; `i` ends the run of scheme bytes.
#[cold]
fn scheme_err<L: Alphabet>(s: &[u8], i: usize) -> Fault {
    if s.is_empty() {
        other(0, Part::Scheme, L::NO_SCHEME)
    } else if !s[0].is_ascii_alphabetic() {
        other(0, Part::Scheme, "a scheme must start with a letter")
    } else if i == s.len() || is(s[i], AUTH_END) {
        other(i, Part::Scheme, "the scheme must be followed by ':'")
    } else {
        L::char_err(s, i, Part::Scheme, "a scheme")
    }
}

/// `path-segments` (or `path-abempty`, `path-absolute`,
/// `path-rootless`) from `i`: returns its end, which is the length, a `?`
/// or a `#`.
#[inline(always)]
fn path<L: Alphabet>(s: &[u8], i: usize) -> Result<usize> {
    let j = L::scan(s, i, PATH, Part::Path)?;
    if j < s.len() && s[j] != b'?' && s[j] != b'#' {
        return Err(L::char_err(s, j, Part::Path, "a path"));
    }
    Ok(j)
}

/// `"//" authority [ abs-path ]` with `p` at the `//`.
#[inline(always)]
fn net_path<'a, L: Alphabet>(
    s: &'a [u8],
    p: usize,
    g: Grammar,
    parts: bool,
    c: &mut Components<'a>,
    auth_start: &mut usize,
) -> Result<usize> {
    let a = p + 2;
    *auth_start = a;
    let e = authority::parse::<L>(s, a, g, parts, c)?;
    let j = path::<L>(s, e)?;
    c.path = &s[e..j];
    Ok(j)
}

/// What follows `scheme ":"`, from `p`.
fn after_scheme<'a, L: Alphabet>(
    s: &'a [u8],
    p: usize,
    g: Grammar,
    parts: bool,
    c: &mut Components<'a>,
    auth_start: &mut usize,
) -> Result<usize> {
    let n = s.len();
    if s[p..].starts_with(b"//") {
        return net_path::<L>(s, p, g, parts, c, auth_start);
    }
    if g == Grammar::Rfc3986 || (p < n && s[p] == b'/') {
        // path-absolute / path-rootless / path-empty (RFC 3986);
        // abs-path (rfc2396bis, RFC 2396)
        let j = path::<L>(s, p)?;
        c.path = &s[p..j];
        return Ok(j);
    }
    if p == n || s[p] == b'#' {
        // hier-part = [ net-path / abs-path ] [ "?" query ] may be empty
        // in rfc2396bis; RFC 2396's hier_part may not.
        if g == Grammar::Rfc2396 {
            return Err(other(
                p,
                Part::Path,
                "RFC 2396 needs a path after the scheme's ':'",
            ));
        }
        c.path = &s[p..p];
        return Ok(p);
    }
    // opaque-part = uric-no-slash *uric (the first byte is not "/" here,
    // and "?" is in uric-no-slash, so "scheme:?q" is opaque too).
    let mask = if g == Grammar::Rfc2396bis { URIC_BIS } else { URIC_2396 };
    let question = |k: usize| s[p..k].contains(&b'?');
    let j = scan(s, p, mask, Part::Path).map_err(|mut e| {
        if question(e.offset) {
            e.part = Part::Query;
        }
        e
    })?;
    // Appendix B: the path runs to the first "?", the query after it.
    match s[p..j].iter().position(|&b| b == b'?') {
        Some(k) => {
            c.path = &s[p..p + k];
            c.query = Some(&s[p + k + 1..j]);
        }
        None => c.path = &s[p..j],
    }
    if j < n && s[j] != b'#' {
        return Err(if c.query.is_some() {
            char_err(s, j, Part::Query, "a query")
        } else {
            char_err(s, j, Part::Path, "a path")
        });
    }
    Ok(j)
}

/// A relative reference: `net-path / abs-path / rel-path` or nothing.
fn relative<'a, L: Alphabet>(
    s: &'a [u8],
    g: Grammar,
    c: &mut Components<'a>,
    auth_start: &mut usize,
) -> Result<usize> {
    let n = s.len();
    if s.starts_with(b"//") {
        return net_path::<L>(s, 0, g, true, c, auth_start);
    }
    if n == 0 || s[0] == b'#' || s[0] == b'/' {
        let j = path::<L>(s, 0)?;
        c.path = &s[..j];
        return Ok(j);
    }
    if s[0] == b'?' {
        if g == Grammar::Rfc2396 {
            return Err(other(
                0,
                Part::Query,
                "RFC 2396 needs a path before '?' in a relative reference",
            ));
        }
        c.path = &s[..0];
        return Ok(0);
    }
    // rel-segment (rfc2396bis, RFC 2396), segment-nz-nc (RFC 3986): the
    // first segment has no ":"
    let j = L::scan(s, 0, SEG_NC, Part::Path)?;
    let end = match s.get(j) {
        None | Some(b'?') | Some(b'#') => j,
        Some(b'/') => path::<L>(s, j)?,
        Some(b':') => {
            return Err(other(
                j,
                Part::Path,
                "':' is not allowed in the first segment of a relative \
                 path (it would read as a scheme)",
            ))
        }
        Some(_) => return Err(L::char_err(s, j, Part::Path, "a path")),
    };
    c.path = &s[..end];
    Ok(end)
}
