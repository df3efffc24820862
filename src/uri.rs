//! The URI model: components (Appendix B), relative resolution (section
//! 5.2) and normalization (section 6).
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
                Some(ci) if bracket.map_or(true, |bi| bi < ci) => {
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
