//! The URI model: components (Appendix B), relative resolution (section
//! 5.2, [`resolve`]) and normalization and equivalence (sections 6 and
//! 2.4.2, [`normalize`], [`equivalent`]), all of
//! draft-fielding-uri-rfc2396bis-00 and all on arbitrary bytes.
//!
//! Nothing here validates: [`crate::grammar::Validator`] does, and hands
//! out [`Components`] for the strings it accepts.

/// The five components of a URI reference, with the authority's parts,
/// borrowed from the input.
///
/// Undefined components are `None`; a defined but empty component is
/// `Some(b"")` (Appendix B keeps the two apart: `http://a/?` has an empty
/// query, `http://a/` has none). The path is always defined, possibly
/// empty.
///
/// # Example
///
/// ```
/// use urifind::uri::Components;
///
/// let c = Components::split(b"http://user@a.example:80/p?q#f");
/// assert_eq!(c.scheme, Some(&b"http"[..]));
/// assert_eq!(c.authority, Some(&b"user@a.example:80"[..]));
/// assert_eq!(c.host, Some(&b"a.example"[..]));
/// assert_eq!(c.port, Some(&b"80"[..]));
/// assert_eq!(c.path, b"/p");
/// assert_eq!(c.fragment, Some(&b"f"[..]));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Components<'a> {
    /// The scheme, without its `:`.
    pub scheme: Option<&'a [u8]>,
    /// The authority, without its leading `//`.
    pub authority: Option<&'a [u8]>,
    /// The userinfo of the authority, without its `@`.
    pub userinfo: Option<&'a [u8]>,
    /// The host of the authority (brackets kept for IPv6).
    pub host: Option<&'a [u8]>,
    /// The port of the authority, without its `:`.
    pub port: Option<&'a [u8]>,
    /// The path (always defined; may be empty).
    pub path: &'a [u8],
    /// The query, without its `?`.
    pub query: Option<&'a [u8]>,
    /// The fragment, without its `#`.
    pub fragment: Option<&'a [u8]>,
}

impl<'a> Components<'a> {
    /// Splits a URI reference into components by the regular expression
    /// of Appendix B, without validating it.
    ///
    /// Every byte string splits; the authority is further split into
    /// userinfo (before the last `@`), host and port (digits after the
    /// last `:` that is not inside an IPv6 literal).
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::uri::Components;
    ///
    /// let c = Components::split(b"../g?y");
    /// assert_eq!(c.scheme, None);
    /// assert_eq!(c.path, b"../g");
    /// assert_eq!(c.query, Some(&b"y"[..]));
    /// ```
    pub fn split(s: &'a [u8]) -> Components<'a> {
        let mut c = Components::default();
        let mut rest = s;
        // ^(([^:/?#]+):)?
        if let Some(i) =
            rest.iter().position(|&b| matches!(b, b':' | b'/' | b'?' | b'#'))
        {
            if i > 0 && rest[i] == b':' {
                c.scheme = Some(&rest[..i]);
                rest = &rest[i + 1..];
            }
        }
        // (//([^/?#]*))?
        if rest.starts_with(b"//") {
            let a = &rest[2..];
            let end = a
                .iter()
                .position(|&b| matches!(b, b'/' | b'?' | b'#'))
                .unwrap_or(a.len());
            let auth = &a[..end];
            c.authority = Some(auth);
            let (ui, hp) = match auth.iter().rposition(|&b| b == b'@') {
                Some(at) => (Some(&auth[..at]), &auth[at + 1..]),
                None => (None, auth),
            };
            c.userinfo = ui;
            let colon = hp.iter().rposition(|&b| b == b':');
            let bracket = hp.iter().rposition(|&b| b == b']');
            match colon {
                Some(ci) if bracket.is_none_or(|bi| bi < ci) => {
                    c.host = Some(&hp[..ci]);
                    c.port = Some(&hp[ci + 1..]);
                }
                _ => c.host = Some(hp),
            }
            rest = &a[end..];
        }
        // ([^?#]*)
        let end = rest
            .iter()
            .position(|&b| matches!(b, b'?' | b'#'))
            .unwrap_or(rest.len());
        c.path = &rest[..end];
        rest = &rest[end..];
        // (\?([^#]*))?
        if rest.first() == Some(&b'?') {
            let end =
                rest.iter().position(|&b| b == b'#').unwrap_or(rest.len());
            c.query = Some(&rest[1..end]);
            rest = &rest[end..];
        }
        // (#(.*))?
        if rest.first() == Some(&b'#') {
            c.fragment = Some(&rest[1..]);
        }
        c
    }
}

impl Components<'_> {
    /// Appends the reference these components describe to `out`, by the
    /// recomposition pseudocode at the end of section 5.2.
    ///
    /// The authority is written from [`Components::authority`] as a whole;
    /// `userinfo`, `host` and `port` are only views into it and are not
    /// consulted. For anything [`Components::split`] returns, recomposing
    /// gives back the input byte for byte.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::uri::Components;
    ///
    /// let input = b"http://a/b/c/d;p?q#f";
    /// let mut out = Vec::new();
    /// Components::split(input).recompose(&mut out);
    /// assert_eq!(out, input);
    ///
    /// // Undefined and empty stay apart: `?` and `#` survive.
    /// let mut out = Vec::new();
    /// Components::split(b"g?#").recompose(&mut out);
    /// assert_eq!(out, b"g?#");
    /// ```
    pub fn recompose(&self, out: &mut Vec<u8>) {
        if let Some(s) = self.scheme {
            out.extend_from_slice(s);
            out.push(b':');
        }
        if let Some(a) = self.authority {
            out.extend_from_slice(b"//");
            out.extend_from_slice(a);
        }
        out.extend_from_slice(self.path);
        if let Some(q) = self.query {
            out.push(b'?');
            out.extend_from_slice(q);
        }
        if let Some(f) = self.fragment {
            out.push(b'#');
            out.extend_from_slice(f);
        }
    }
}

/// How [`resolve`] reads a reference whose scheme equals the base's, such
/// as `http:g` against `http://a/b/c/d;p?q` (the last example of
/// Appendix C.2).
///
/// The draft's pseudocode lets a *non-validating* parser drop such a
/// scheme ("a loophole in prior specifications of partial URI"); a
/// validating parser keeps it, so the reference is already absolute.
///
/// # Example
///
/// ```
/// use urifind::uri::{resolve, ResolveMode};
///
/// let base = b"http://a/b/c/d;p?q";
/// assert_eq!(resolve(base, b"http:g", ResolveMode::Strict).unwrap(), b"http:g");
/// assert_eq!(
///     resolve(base, b"http:g", ResolveMode::Compatible).unwrap(),
///     b"http://a/b/c/g"
/// );
/// assert_eq!(ResolveMode::default(), ResolveMode::Strict);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ResolveMode {
    /// The validating reading (the default): a scheme in the reference
    /// makes it absolute, so `http:g` stays `http:g`.
    #[default]
    Strict,
    /// The backwards-compatible reading: a reference scheme equal to the
    /// base's (compared without regard to ASCII case, as section 3.1 says
    /// schemes are) is ignored, so `http:g` gives `http://a/b/c/g`.
    Compatible,
}

/// Why [`resolve`] could not use its base URI.
///
/// Resolution itself cannot fail: every byte string is read as a
/// reference by Appendix B. Only the base is checked, because section 5.2
/// needs it to have a scheme.
///
/// # Example
///
/// ```
/// use urifind::uri::{resolve, ResolveMode};
///
/// let err = resolve(b"/a/b", b"g", ResolveMode::Strict).unwrap_err();
/// assert_eq!(err.to_string(), "base URI is not absolute (it has no scheme)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolveError {
    kind: ResolveErrorKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ResolveErrorKind {
    /// Appendix B found no scheme in the base.
    NotAbsolute,
    /// The base's scheme is not `ALPHA *( ALPHA / DIGIT / "+" / "-" /
    /// "." )`.
    BadScheme,
}

impl std::fmt::Display for ResolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.kind {
            ResolveErrorKind::NotAbsolute => {
                "base URI is not absolute (it has no scheme)"
            }
            ResolveErrorKind::BadScheme => {
                "base URI is not absolute (its scheme must start with a \
                 letter followed by letters, digits, '+', '-' or '.')"
            }
        })
    }
}

impl std::error::Error for ResolveError {}

/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (section 3.1).
fn is_scheme(s: &[u8]) -> bool {
    match s.split_first() {
        Some((first, rest)) => {
            first.is_ascii_alphabetic()
                && rest.iter().all(|&b| {
                    b.is_ascii_alphanumeric()
                        || matches!(b, b'+' | b'-' | b'.')
                })
        }
        None => false,
    }
}

/// Resolves `reference` against `base` by the algorithm of section 5.2 of
/// draft-fielding-uri-rfc2396bis-00 and returns the target, recomposed.
///
/// Neither string is validated: both are split by Appendix B
/// ([`Components::split`]), so any bytes give an answer and nothing
/// panics. The base must have a syntactically valid scheme (section 5.2:
/// "only the scheme component is required to be present in the base
/// URI"); its other components may be empty or undefined.
///
/// How the draft's text is read, case by case:
///
/// * A reference with a scheme is taken as it is, path untouched
///   (`g:h` gives `g:h`). With [`ResolveMode::Compatible`], a scheme equal to
///   the base's is ignored first.
/// * A reference with an authority (`//g`) takes the base's scheme only.
/// * A reference with only a query (`?y`) takes the base's path:
///   `http://a/b/c/d;p?y`.
/// * A reference with an absolute path (`/./g`) takes that path as it
///   is: dot segments are removed only by the merge routine, which the
///   draft applies to relative paths only, so `/./g` gives
///   `http://a/./g` as the Appendix C table says.
/// * A relative path is merged with the base path by steps 1-8 of the
///   merge routine. Step 7 lets an implementation keep, drop or refuse
///   `..` segments that climb above the root; this one **keeps** them,
///   which is the reading the draft's own table prints
///   (`../../../g` gives `http://a/../g`).
/// * A same-document reference (empty path, no query) returns "the
///   current document" and the reference's fragment; the current document
///   is printed as the base without its fragment (a fragment is not part
///   of a URI, section 4), so `#s` gives `http://a/b/c/d;p?q#s`. The
///   empty reference has no fragment and refers to "the start of the
///   current document" (section 4.2, C.2), so it gives the base without
///   its fragment: the base itself in the usual case where it has none.
/// * A fragment on the base is never inherited.
/// * Nothing is normalized: case, escapes and ports are copied as written.
///
/// The draft's recomposition is followed literally, so a merged path that
/// starts with `//` under a base without authority (`b/..///x` against
/// `foo:a`) is written as `foo://x`, which Appendix B would read back with
/// an authority; the draft has no rule against this.
///
/// # Errors
///
/// [`ResolveError`] when the base has no scheme, or a scheme that is not
/// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
///
/// # Example
///
/// ```
/// use urifind::uri::{resolve, ResolveMode};
///
/// let base = b"http://a/b/c/d;p?q";
/// let r = |s: &[u8]| resolve(base, s, ResolveMode::Strict).unwrap();
/// assert_eq!(r(b"../g"), b"http://a/b/g");
/// assert_eq!(r(b"?y"), b"http://a/b/c/d;p?y");
/// assert_eq!(r(b"#s"), b"http://a/b/c/d;p?q#s");
/// assert_eq!(r(b""), b"http://a/b/c/d;p?q");
/// assert_eq!(r(b"/./g"), b"http://a/./g");
/// assert_eq!(r(b"../../../g"), b"http://a/../g");
/// ```
pub fn resolve(
    base: &[u8],
    reference: &[u8],
    mode: ResolveMode,
) -> Result<Vec<u8>, ResolveError> {
    let b = Components::split(base);
    let scheme = match b.scheme {
        None => {
            return Err(ResolveError { kind: ResolveErrorKind::NotAbsolute })
        }
        Some(s) if !is_scheme(s) => {
            return Err(ResolveError { kind: ResolveErrorKind::BadScheme })
        }
        Some(s) => s,
    };
    let mut r = Components::split(reference);
    if mode == ResolveMode::Compatible
        && r.scheme.is_some_and(|s| s.eq_ignore_ascii_case(scheme))
    {
        r.scheme = None;
    }
    let mut out = Vec::with_capacity(base.len() + reference.len());
    if r.scheme.is_some() {
        // T = R, component for component.
        r.recompose(&mut out);
        return Ok(out);
    }
    let mut t = Components {
        scheme: Some(scheme),
        authority: b.authority,
        path: b.path,
        query: None,
        fragment: r.fragment,
        ..Components::default()
    };
    let merged;
    if r.authority.is_some() {
        t.authority = r.authority;
        t.path = r.path;
        t.query = r.query;
    } else if r.path.is_empty() {
        // `?y` keeps the base path; an empty path without a query is the
        // current document (the base's four components, not its fragment).
        t.query = if r.query.is_some() { r.query } else { b.query };
    } else {
        if r.path.first() == Some(&b'/') {
            t.path = r.path;
        } else {
            merged = merge(b.path, r.path);
            t.path = &merged;
        }
        t.query = r.query;
    }
    t.recompose(&mut out);
    Ok(out)
}

/// The merge routine of section 5.2, steps 1-8, for a relative-path
/// reference `rel` against the base path `base`.
///
/// Steps 3-6 are string rewritings in the draft; here they run as one
/// pass over the complete path segments with a stack, which gives the
/// same string: `.` segments vanish (a final one leaves its `/`), and a
/// `..` cancels the nearest preceding segment that is not `..` (a final
/// one leaves the `/` before that segment). The empty string before the
/// leading `/` of an absolute buffer is not a segment, so `..` never
/// climbs over the root and is kept (step 7, "retaining").
///
/// Whether the buffer is rooted is decided once, before step 3: in the
/// relative buffer `a/..//..` (from the degenerate base path `a/..//`),
/// removing `a/../` leaves `/..`, whose first, empty, segment is still a
/// segment, so the result is the empty path. Rewriting the string anew at
/// each step would read that `/` as a root and keep `/..`.
fn merge(base: &[u8], rel: &[u8]) -> Vec<u8> {
    // Step 1: all but the last segment of the base path, or "/" for an
    // empty base path. Step 2: append the reference's path.
    let mut buf = Vec::with_capacity(base.len() + rel.len() + 1);
    match base.iter().rposition(|&c| c == b'/') {
        Some(i) => buf.extend_from_slice(&base[..=i]),
        None if base.is_empty() => buf.push(b'/'),
        None => {}
    }
    buf.extend_from_slice(rel);
    remove_dot_segments(&buf)
}

/// Steps 3-7 of the merge routine on the buffer `buf` (see [`merge`]).
fn remove_dot_segments(buf: &[u8]) -> Vec<u8> {
    let (rooted, body) = match buf.split_first() {
        Some((b'/', rest)) => (true, rest),
        _ => (false, buf),
    };
    let segs: Vec<&[u8]> = body.split(|&c| c == b'/').collect();
    let n = segs.len();
    let mut stack: Vec<&[u8]> = Vec::with_capacity(n);
    for (i, &seg) in segs.iter().enumerate() {
        let last = i + 1 == n;
        match seg {
            // Steps 3 and 4.
            b"." => {
                if last {
                    stack.push(b"");
                }
            }
            // Steps 5 and 6 (and 7: an unmatched `..` is retained).
            b".." => {
                if stack.last().is_some_and(|&top| top != b"..") {
                    stack.pop();
                    if last {
                        stack.push(b"");
                    }
                } else {
                    stack.push(seg);
                }
            }
            _ => stack.push(seg),
        }
    }
    let mut out = Vec::with_capacity(buf.len());
    if rooted {
        out.push(b'/');
    }
    for (i, seg) in stack.iter().enumerate() {
        if i > 0 {
            out.push(b'/');
        }
        out.extend_from_slice(seg);
    }
    out
}

/// The default port of a scheme, for the schemes urifind treats as
/// server-based (RFC 1738 and their kin); `None` for any other scheme.
///
/// The scheme is compared without regard to ASCII case (section 3.1).
/// [`normalize`] removes a port equal to this one (section 6).
///
/// # Example
///
/// ```
/// use urifind::uri::default_port;
///
/// assert_eq!(default_port(b"http"), Some("80"));
/// assert_eq!(default_port(b"HTTPS"), Some("443"));
/// assert_eq!(default_port(b"ftp"), Some("21"));
/// assert_eq!(default_port(b"mailto"), None);
/// ```
pub fn default_port(scheme: &[u8]) -> Option<&'static str> {
    const PORTS: &[(&str, &str)] = &[
        ("ftp", "21"),
        ("ftps", "990"),
        ("git", "9418"),
        ("gopher", "70"),
        ("http", "80"),
        ("https", "443"),
        ("imap", "143"),
        ("imaps", "993"),
        ("irc", "6667"),
        ("ircs", "6697"),
        ("ldap", "389"),
        ("ldaps", "636"),
        ("news", "119"),
        ("nntp", "119"),
        ("pop", "110"),
        ("prospero", "1525"),
        ("rsync", "873"),
        ("rtsp", "554"),
        ("rtsps", "322"),
        ("sftp", "22"),
        ("shttp", "80"),
        ("snews", "563"),
        ("ssh", "22"),
        ("svn", "3690"),
        ("telnet", "23"),
        ("wais", "210"),
        ("ws", "80"),
        ("wss", "443"),
    ];
    PORTS
        .iter()
        .find(|(s, _)| s.as_bytes().eq_ignore_ascii_case(scheme))
        .map(|&(_, p)| p)
}

/// `unreserved = ALPHA / DIGIT / mark`, `mark = "-" / "_" / "." / "!" /
/// "~" / "*" / "'" / "(" / ")"` (section 2.3 of the draft).
fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(b, b'-' | b'_' | b'.' | b'!' | b'~' | b'*' | b'\'')
        || matches!(b, b'(' | b')')
}

fn hex_val(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// Appends `s` to `out` with its escapes normalized: `%xx` hex upper-cased,
/// escaped unreserved characters decoded, every other byte kept. With
/// `lower`, ASCII letters outside escapes are lower-cased (hosts).
///
/// One guard keeps this idempotent on strings that are not URIs: a `%`
/// not followed by two hex digits is kept as a byte, so decoding an escape
/// into a hex digit right after it (`%%34%31`) would manufacture a new
/// escape (`%41`) for the next pass to decode. Such escapes stay escaped.
fn normalize_escapes(s: &[u8], lower: bool, out: &mut Vec<u8>) {
    let mut i = 0;
    while i < s.len() {
        let b = s[i];
        if b == b'%' {
            if let (Some(h), Some(l)) = (
                s.get(i + 1).copied().and_then(hex_val),
                s.get(i + 2).copied().and_then(hex_val),
            ) {
                let v = h << 4 | l;
                let n = out.len();
                let after_lone_percent = v.is_ascii_hexdigit()
                    && (out.last() == Some(&b'%')
                        || (n >= 2
                            && out[n - 2] == b'%'
                            && out[n - 1].is_ascii_hexdigit()));
                if is_unreserved(v) && !after_lone_percent {
                    out.push(if lower { v.to_ascii_lowercase() } else { v });
                } else {
                    out.push(b'%');
                    out.push(s[i + 1].to_ascii_uppercase());
                    out.push(s[i + 2].to_ascii_uppercase());
                }
                i += 3;
                continue;
            }
        }
        out.push(if lower { b.to_ascii_lowercase() } else { b });
        i += 1;
    }
}

/// Normalizes a URI reference by the rules of section 6 and 2.4.2 of the
/// draft, for comparison; the result is not validated and not meant to
/// replace what the user wrote.
///
/// * The scheme is lower-cased (section 3.1, 6).
/// * The host is lower-cased (section 6: "the scheme and hostname are
///   case insensitive"); percent-escapes in it are kept upper-cased.
/// * A port equal to the scheme's [`default_port`] (compared as a number,
///   so `:080` counts) is removed with its `:`, and so is an empty port
///   (`http://a:/`), which section 3.2.2 also reads as the default.
/// * In every component after the scheme, the hex digits of `%xx` escapes
///   are upper-cased and escaped unreserved characters (section 2.3:
///   letters, digits and `-_.!~*'()`) are decoded: `%7e` gives `~`, `%41`
///   gives `A`. Other escapes and all other bytes are kept.
///
/// Section 6 does not remove dot segments, nor turn an empty path into
/// `/`, so neither is done. Decoding escaped unreserved characters is a
/// scheme's choice by section 2.4.2; it is applied to every scheme here.
///
/// Any bytes are accepted (split by Appendix B); the function never
/// panics, and `normalize(&normalize(x)) == normalize(x)`.
///
/// # Example
///
/// ```
/// use urifind::uri::normalize;
///
/// assert_eq!(
///     normalize(b"HTTP://www.XEROX.com:80/%7ejoe/a%2fb?%41#f"),
///     b"http://www.xerox.com/~joe/a%2Fb?A#f"
/// );
/// assert_eq!(normalize(b"http://a:8080"), b"http://a:8080");
/// assert_eq!(normalize(b"http://a/./b"), b"http://a/./b");
/// ```
pub fn normalize(uri: &[u8]) -> Vec<u8> {
    let c = Components::split(uri);
    let mut out = Vec::with_capacity(uri.len());
    if let Some(s) = c.scheme {
        out.extend(s.iter().map(u8::to_ascii_lowercase));
        out.push(b':');
    }
    if c.authority.is_some() {
        out.extend_from_slice(b"//");
        if let Some(u) = c.userinfo {
            normalize_escapes(u, false, &mut out);
            out.push(b'@');
        }
        let host = c.host.unwrap_or_default();
        normalize_escapes(host, true, &mut out);
        if let Some(p) = c.port {
            let mut port = Vec::with_capacity(p.len());
            normalize_escapes(p, false, &mut port);
            let default = c.scheme.and_then(default_port);
            let elide = port.is_empty()
                || default.is_some_and(|d| same_port(&port, d));
            // Not a URI, but keep the result stable: if the host itself
            // holds a ':' (outside an IPv6 literal), dropping the port
            // would make that ':' the port separator on the next split.
            let after_bracket = match host.iter().rposition(|&b| b == b']') {
                Some(i) => &host[i..],
                None => host,
            };
            if !elide || after_bracket.contains(&b':') {
                out.push(b':');
                out.extend_from_slice(&port);
            }
        }
    }
    normalize_escapes(c.path, false, &mut out);
    if let Some(q) = c.query {
        out.push(b'?');
        normalize_escapes(q, false, &mut out);
    }
    if let Some(f) = c.fragment {
        out.push(b'#');
        normalize_escapes(f, false, &mut out);
    }
    out
}

/// Whether the port `p` (bytes) is the number `d`, leading zeros allowed.
fn same_port(p: &[u8], d: &str) -> bool {
    if !p.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let start = p.iter().position(|&b| b != b'0').unwrap_or(p.len());
    let digits = &p[start..];
    digits == d.as_bytes() || (digits.is_empty() && d == "0")
}

/// Whether two URI references are equivalent by section 6: equal after
/// [`normalize`].
///
/// # Example
///
/// ```
/// use urifind::uri::equivalent;
///
/// assert!(equivalent(b"http://www.XEROX.com", b"http://www.xerox.com"));
/// assert!(equivalent(b"HTTP://a:80/%7Ejoe", b"http://a/~joe"));
/// assert!(!equivalent(b"http://a/b", b"http://a/B"));
/// assert!(!equivalent(b"http://a/%2F", b"http://a//"));
/// ```
pub fn equivalent(a: &[u8], b: &[u8]) -> bool {
    a == b || normalize(a) == normalize(b)
}

/// Whether two URIs are the same link: equivalent after normalization,
/// an empty path after an authority counting as `/`.
///
/// Most pairs are told apart or matched without normalizing: when
/// neither side holds a `%` or a port, normalization only lower-cases
/// the scheme and the host, so the components are compared in place
/// (no allocation). Anything else goes through [`normalize`]. Before
/// either, two links whose hosts differ early ([`hosts_differ`]) are
/// told apart at their first differing byte.
pub(crate) fn same_link(a: &[u8], b: &[u8]) -> bool {
    if a == b {
        return true;
    }
    if hosts_differ(a, b) {
        return false;
    }
    match (Plain::of(a), Plain::of(b)) {
        (Some(x), Some(y)) => x.same(&y),
        _ => same_link_normalized(a, b),
    }
}

/// Whether `a` and `b` certainly normalize differently because they
/// differ in their host: their first byte that differs but for ASCII
/// case is a letter, digit, `.` or `-` on both sides, inside an
/// authority (after `scheme://`) whose bytes before it hold no `%`,
/// `:`, `@`, `/`, `?` or `#`. Normalization only lower-cases those
/// bytes and keeps every one at its place (escapes, ports and the empty
/// path, which move bytes, all come after), so that byte still differs.
///
/// `false` only means "compare them".
fn hosts_differ(a: &[u8], b: &[u8]) -> bool {
    let Some(k) =
        a.iter().zip(b).position(|(x, y)| !x.eq_ignore_ascii_case(y))
    else {
        return false;
    };
    let host_byte =
        |c: u8| c.is_ascii_alphanumeric() || c == b'.' || c == b'-';
    if !host_byte(a[k]) || !host_byte(b[k]) {
        return false;
    }
    let Some(i) = a[..k].iter().position(|&c| {
        !c.is_ascii_alphanumeric() && !matches!(c, b'+' | b'-' | b'.')
    }) else {
        return false;
    };
    i > 0
        && a[i..].starts_with(b"://")
        && i + 3 <= k
        && a[i + 3..k]
            .iter()
            .all(|&c| !matches!(c, b'%' | b':' | b'@' | b'/' | b'?' | b'#'))
}

/// What [`same_link`] compares of a URI whose normalization would only
/// lower-case its scheme and host (no percent-escape to decode or
/// upper-case, no port to elide): its components as
/// [`Components::split`] finds them, read in one pass over the
/// authority.
struct Plain<'a> {
    scheme: Option<&'a [u8]>,
    /// The userinfo and the host, when there is an authority.
    authority: Option<(Option<&'a [u8]>, &'a [u8])>,
    path: &'a [u8],
    /// The query and the fragment with their `?` and `#`.
    tail: &'a [u8],
}

impl<'a> Plain<'a> {
    fn of(u: &'a [u8]) -> Option<Plain<'a>> {
        if memchr::memchr(b'%', u).is_some() {
            return None;
        }
        let mut rest = u;
        let mut scheme = None;
        let first =
            u.iter().position(|&b| matches!(b, b':' | b'/' | b'?' | b'#'));
        if let Some(i) = first.filter(|&i| i > 0 && u[i] == b':') {
            scheme = Some(&u[..i]);
            rest = &u[i + 1..];
        }
        let mut authority = None;
        if let Some(a) = rest.strip_prefix(b"//") {
            // The last '@', ':' and ']' before the authority ends.
            let (mut at, mut colon, mut bracket) = (None, None, None);
            let mut end = a.len();
            for (i, &b) in a.iter().enumerate() {
                match b {
                    b'/' | b'?' | b'#' => {
                        end = i;
                        break;
                    }
                    b'@' => at = Some(i),
                    b':' => colon = Some(i),
                    b']' => bracket = Some(i),
                    _ => {}
                }
            }
            // A ':' after the userinfo and after any ']' starts a port.
            let in_host =
                |x: Option<usize>| x.filter(|&x| at.is_none_or(|a| x > a));
            if let Some(c) = in_host(colon) {
                if in_host(bracket).is_none_or(|b| b < c) {
                    return None;
                }
            }
            let auth = &a[..end];
            authority = Some(match at {
                Some(x) => (Some(&auth[..x]), &auth[x + 1..]),
                None => (None, auth),
            });
            rest = &a[end..];
        }
        let end = rest
            .iter()
            .position(|&b| matches!(b, b'?' | b'#'))
            .unwrap_or(rest.len());
        Some(Plain {
            scheme,
            authority,
            path: &rest[..end],
            tail: &rest[end..],
        })
    }

    /// The path normalization gives: `/` for an empty one after an
    /// authority.
    fn path(&self) -> &'a [u8] {
        if self.authority.is_some() && self.path.is_empty() {
            b"/"
        } else {
            self.path
        }
    }

    /// Whether the two normalize to the same link: scheme and host
    /// equal but for ASCII case, the rest byte for byte.
    fn same(&self, o: &Plain<'_>) -> bool {
        let scheme = match (self.scheme, o.scheme) {
            (Some(x), Some(y)) => x.eq_ignore_ascii_case(y),
            (x, y) => x.is_none() && y.is_none(),
        };
        let authority = match (self.authority, o.authority) {
            (Some((ux, hx)), Some((uy, hy))) => {
                ux == uy && hx.eq_ignore_ascii_case(hy)
            }
            (x, y) => x.is_none() && y.is_none(),
        };
        scheme && authority && self.path() == o.path() && self.tail == o.tail
    }
}

/// [`same_link`] by the letter: both sides normalized, an empty path
/// after an authority made `/`, the results compared.
fn same_link_normalized(a: &[u8], b: &[u8]) -> bool {
    fn norm(u: &[u8]) -> Vec<u8> {
        let mut n = normalize(u);
        let c = Components::split(&n);
        if c.authority.is_some() && c.path.is_empty() {
            let at = c.scheme.map_or(0, |s| s.len() + 1)
                + 2
                + c.authority.map_or(0, <[u8]>::len);
            n.insert(at, b'/');
        }
        n
    }
    a == b || norm(a) == norm(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn same_link_fast_path_agrees_on_crafted_pairs() {
        let pairs: &[(&[u8], &[u8], bool)] = &[
            (b"http://A.example", b"http://a.example/", true),
            (b"HTTP://a.example/x", b"http://a.EXAMPLE/x", true),
            (b"http://a.example/X", b"http://a.example/x", false),
            (b"http://U@a.example/", b"http://u@a.example/", false),
            (b"http://a.example?q", b"http://a.example/?q", true),
            (b"http://a.example#f", b"http://a.example/#f", true),
            (b"http://a.example/?Q", b"http://a.example/?q", false),
            (b"http://a.example", b"http:a.example", false),
            (b"//a.example", b"//A.example/", true),
            (b"mailto:X@a.example", b"mailto:x@a.example", false),
            (b"http://[::A]/", b"http://[::a]", true),
            (b"http://a.example:80/", b"http://a.example/", true),
            (b"http://a.example:/", b"http://a.example/", true),
            (b"http://a.example/%7e", b"http://a.example/~", true),
            (b"http://a%2Eexample/", b"http://a.example/", true),
            (b"http://a.example/%2F", b"http://a.example//", false),
            (b"http://d.example/z", b"http://e.example/w", false),
            (b"http://\xc3\xa9.example/", b"http://\xc3\x89.example/", false),
            (b"", b"", true),
            (b"", b"/", false),
            (b":", b":", true),
            (b"a:", b"A:", true),
        ];
        // Told apart at the host's first byte, or left to the
        // comparison.
        assert!(hosts_differ(b"http://d.example/z", b"http://e.example/w"));
        assert!(hosts_differ(b"HTTP://a.B.example", b"http://a.c.example"));
        assert!(!hosts_differ(b"http://a.example/x", b"http://a.example/y"));
        assert!(!hosts_differ(b"http://u@d.example/", b"http://u@e.example/"));
        assert!(!hosts_differ(b"http://a%2Eb/", b"http://a.b/"));
        assert!(!hosts_differ(b"mailto:d@a.example", b"mailto:e@a.example"));
        for &(a, b, want) in pairs {
            let (fast, full) = (same_link(a, b), same_link_normalized(a, b));
            let show = |x: &[u8]| String::from_utf8_lossy(x).into_owned();
            assert_eq!(fast, full, "{} vs {}", show(a), show(b));
            assert_eq!(fast, want, "{} vs {}", show(a), show(b));
            assert_eq!(same_link(b, a), fast, "{} vs {}", show(b), show(a));
        }
    }

    /// A URI-ish string from a small alphabet that makes every
    /// component, case, escape and port likely.
    fn uriish() -> impl Strategy<Value = Vec<u8>> {
        let alphabet: &[u8] = b"aAeE:/?#@%[]28f.-";
        prop::collection::vec(prop::sample::select(alphabet), 0..14)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn same_link_fast_path_is_the_normalization(a in uriish(), b in uriish()) {
            prop_assert_eq!(same_link(&a, &b), same_link_normalized(&a, &b));
        }

        #[test]
        fn plain_parts_are_the_split(u in uriish()) {
            // One pass over the authority finds what the split finds.
            let c = Components::split(&u);
            match Plain::of(&u) {
                None => prop_assert!(u.contains(&b'%') || c.port.is_some()),
                Some(p) => {
                    prop_assert!(!u.contains(&b'%') && c.port.is_none());
                    prop_assert_eq!(p.scheme, c.scheme);
                    prop_assert_eq!(p.authority.map(|(ui, _)| ui), c.authority.map(|_| c.userinfo));
                    prop_assert_eq!(p.authority.map(|(_, h)| h), c.host);
                    prop_assert_eq!(p.path, c.path);
                    let mut tail = Vec::new();
                    if let Some(q) = c.query {
                        tail.push(b'?');
                        tail.extend_from_slice(q);
                    }
                    if let Some(f) = c.fragment {
                        tail.push(b'#');
                        tail.extend_from_slice(f);
                    }
                    prop_assert_eq!(p.tail, &tail[..]);
                }
            }
        }

        #[test]
        fn hosts_that_differ_never_normalize_alike(
            scheme in prop::sample::select(vec!["http://", "HTTP://", "a+b.c-://", "x:", "//", ""]),
            common in uriish(),
            a in uriish(),
            b in uriish(),
        ) {
            // Two links that share a start (where a host would be), then
            // go their own ways: a difference found early is a
            // difference after normalization.
            let a = [scheme.as_bytes(), &common, &a].concat();
            let b = [scheme.as_bytes(), &common, &b].concat();
            if hosts_differ(&a, &b) {
                prop_assert!(!same_link_normalized(&a, &b));
                prop_assert!(!same_link(&a, &b));
            }
            prop_assert_eq!(same_link(&a, &b), same_link_normalized(&a, &b));
        }

        #[test]
        fn same_link_fast_path_on_case_variants(a in uriish(), flips in prop::collection::vec(any::<bool>(), 14)) {
            // The same string with some letters' case changed: the
            // pairs where only the scheme or the host differ in case.
            let b: Vec<u8> = a.iter().zip(flips.iter().cycle()).map(|(&c, &f)| {
                if f { c.to_ascii_uppercase() } else { c }
            }).collect();
            prop_assert_eq!(same_link(&a, &b), same_link_normalized(&a, &b));
        }
    }
}
