//! The scheme rules of SPEC.md section 2, applied on top of a grammar for
//! the IP-based schemes ([`super::schemes::is_ip_based`]).
//!
//! Such a URI needs an authority (`//`) that is a server,
//! `[userinfo "@"] host [":" port]`, with a non-empty host that is one of:
//!
//! * an IPv4 address with four decimal octets of 0-255, required of every
//!   host made only of digits and dots;
//! * a bracketed IPv6 literal (already checked by the grammar; RFC 3986's
//!   `IPvFuture` is refused, being no address these schemes can reach);
//! * a host name after RFC 2396's `hostname = *( domainlabel "." )
//!   toplabel [ "." ]`: labels of 1 to 63 letters, digits and hyphens that
//!   start and end with a letter or digit, the rightmost one starting with
//!   a letter, one trailing dot allowed.

use super::authority::{ipv4, port, Octets};
use super::chars::{is, LABEL};
use super::parse::{char_err, Result};
use super::schemes;
use super::{Error, ErrorKind, Grammar, Part};
use crate::uri::Components;

const A: Part = Part::Authority;

#[cold]
fn other(i: usize, part: Part, m: &'static str) -> Error {
    Error::new(i, part, ErrorKind::Other(m))
}

/// Checks a URI the grammar accepted; `auth_start` is where its
/// authority starts. Fills userinfo, host and port for an IP-based
/// scheme (they may be `None` after a `reg-name` parse).
pub(crate) fn check<'a>(
    s: &'a [u8],
    g: Grammar,
    auth_start: usize,
    c: &mut Components<'a>,
) -> Result<()> {
    let Some(scheme) = c.scheme else { return Ok(()) };
    if !schemes::is_ip_based(scheme) {
        return Ok(());
    }
    let Some(auth) = c.authority else {
        return Err(other(
            scheme.len() + 1,
            Part::Scheme,
            "this scheme needs '//' and a host after its ':'",
        ));
    };
    let (a, e) = (auth_start, auth_start + auth.len());
    let (userinfo, h) = match auth.iter().position(|&b| b == b'@') {
        Some(k) => (Some(&auth[..k]), a + k + 1),
        None => (None, a),
    };
    let hend = if h < e && s[h] == b'[' {
        // The grammar has checked the literal (rfc2396bis IPv6reference,
        // RFC 3986 IP-literal; RFC 2396 has none).
        if g == Grammar::Rfc3986 && (s[h + 1] | 0x20) == b'v' {
            return Err(other(
                h,
                A,
                "an IPvFuture literal is not an address this scheme can use",
            ));
        }
        match s[h..e].iter().position(|&b| b == b']') {
            Some(k) => h + k + 1,
            None => return Err(other(e, A, "missing ']' after IPv6 address")),
        }
    } else {
        let hend =
            s[h..e].iter().position(|&b| b == b':').map_or(e, |k| h + k);
        host(s, h, hend)?;
        hend
    };
    let port = port(s, hend, e)?;
    c.userinfo = userinfo;
    c.host = Some(&s[h..hend]);
    c.port = port;
    Ok(())
}

/// The host `s[h..hend]`, not bracketed: a valid IPv4 address when it is
/// all digits and dots, else a host name.
fn host(s: &[u8], h: usize, hend: usize) -> Result<()> {
    let host = &s[h..hend];
    if host.is_empty() {
        return Err(other(h, A, "the host is empty"));
    }
    if host.iter().all(|&b| b.is_ascii_digit() || b == b'.') {
        return ipv4(host, Octets::Value)
            .map_err(|(k, kind)| Error::new(h + k, A, kind));
    }
    // hostname = *( domainlabel "." ) toplabel [ "." ]
    let body = host.strip_suffix(b".").unwrap_or(host);
    let mut st = 0;
    let last = loop {
        let end = body[st..]
            .iter()
            .position(|&b| b == b'.')
            .map_or(body.len(), |k| st + k);
        let label = &body[st..end];
        if label.is_empty() {
            return Err(other(
                h + st,
                A,
                "a host name cannot have an empty label",
            ));
        }
        if label[0] == b'-' {
            return Err(other(
                h + st,
                A,
                "a label of a host name cannot start with '-'",
            ));
        }
        let bad = label.iter().position(|&b| !is(b, LABEL));
        if label.len() > 63 && bad.is_none_or(|k| k >= 63) {
            return Err(other(
                h + st + 63,
                A,
                "label longer than 63 characters",
            ));
        }
        if let Some(k) = bad {
            return Err(char_err(s, h + st + k, A, "a host name"));
        }
        if label[label.len() - 1] == b'-' {
            return Err(other(
                h + end - 1,
                A,
                "a label of a host name cannot end with '-'",
            ));
        }
        if end == body.len() {
            break st;
        }
        st = end + 1;
    };
    if !body[last].is_ascii_alphabetic() {
        return Err(other(
            h + last,
            A,
            "the last label of a host name must start with a letter",
        ));
    }
    Ok(())
}
