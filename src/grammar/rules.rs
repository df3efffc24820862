//! The scheme rules of docs/CONTRACT.md section 2, applied on top of a grammar for
//! the IP-based schemes ([`super::schemes::is_ip_based`]).
//!
//! Such a URI needs an authority (`//`) that is a server,
//! `[userinfo "@"] host [":" port]`, with a non-empty host that is one of:
//!
//! * an IPv4 address with four decimal octets of 0-255 without leading
//!   zeros (as every grammar's `dec-octet` writes them), required of every
//!   host made only of digits and dots;
//! * a bracketed IPv6 literal (already checked by the grammar; RFC 3986's
//!   `IPvFuture` is refused, being no address these schemes can reach);
//! * a host name after RFC 2396's `hostname = *( domainlabel "." )
//!   toplabel [ "." ]`: labels of 1 to 63 letters, digits and hyphens that
//!   start and end with a letter or digit, the rightmost one starting with
//!   a letter, one trailing dot allowed.

use super::authority::{ipv4, port, Octets};
use super::chars::{LABEL, NO_DELIM};
use super::lex::{char_err, run, Result};
use super::{ErrorKind, Fault, Grammar, Part};
use crate::uri::Components;

const A: Part = Part::Authority;

#[cold]
fn other(i: usize, part: Part, m: &'static str) -> Fault {
    Fault::new(i, part, ErrorKind::Other(m))
}

/// Checks a URI of an IP-based scheme
/// ([`super::schemes::is_ip_based`]) the grammar accepted; `auth_start`
/// is where its authority starts. Fills userinfo, host and port (they may
/// be `None` after a `reg-name` parse).
pub(crate) fn check<'a>(
    s: &'a [u8],
    g: Grammar,
    auth_start: usize,
    c: &mut Components<'a>,
) -> Result<()> {
    let Some(scheme) = c.scheme else { return Ok(()) };
    let Some(auth) = c.authority else {
        return Err(other(
            scheme.len() + 1,
            Part::Scheme,
            "this scheme needs '//' and a host after its ':'",
        ));
    };
    let (a, e) = (auth_start, auth_start + auth.len());
    // userinfo ends at the first '@' (no grammar lets userinfo hold one)
    let mut j = run(s, a, NO_DELIM);
    let mut colon = e;
    while j < e && s[j] == b':' {
        colon = colon.min(j);
        j = run(s, j + 1, NO_DELIM);
    }
    let (userinfo, h) = if j < e && s[j] == b'@' {
        (Some(&s[a..j]), j + 1)
    } else {
        (None, a)
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
        // the host runs to the first ':'
        let hend = if userinfo.is_none() {
            colon
        } else {
            let k = run(s, h, NO_DELIM).min(e);
            if k < e && s[k] == b'@' {
                // a second '@', which host() refuses
                s[h..e].iter().position(|&b| b == b':').map_or(e, |x| h + x)
            } else {
                k
            }
        };
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
/// all digits and dots, else a host name, checked label by label in one
/// pass.
fn host(s: &[u8], h: usize, hend: usize) -> Result<()> {
    let host = &s[h..hend];
    if host.is_empty() {
        return Err(other(h, A, "the host is empty"));
    }
    if host.iter().all(|&b| b.is_ascii_digit() || b == b'.') {
        return ipv4(host, Octets::Value)
            .map_err(|(k, kind)| Fault::new(h + k, A, kind));
    }
    // hostname = *( domainlabel "." ) toplabel [ "." ]
    let body = if s[hend - 1] == b'.' { hend - 1 } else { hend };
    let mut st = h;
    let last = loop {
        // The label runs to the first byte that is not alphanumeric or
        // '-'; that byte must be the '.' before the next label, or the
        // end. (s[body] is never a label byte: it is the trailing dot, a
        // ':', a '/', '?', '#', or past the end.)
        let end = run(s, st, LABEL).min(body);
        let stray = end < body && s[end] != b'.';
        if end == st {
            return Err(if stray {
                char_err(s, end, A, "a host name")
            } else {
                other(st, A, "a host name cannot have an empty label")
            });
        }
        if s[st] == b'-' {
            return Err(other(
                st,
                A,
                "a label of a host name cannot start with '-'",
            ));
        }
        if end - st > 63 {
            return Err(other(st + 63, A, "label longer than 63 characters"));
        }
        if stray {
            return Err(char_err(s, end, A, "a host name"));
        }
        if s[end - 1] == b'-' {
            return Err(other(
                end - 1,
                A,
                "a label of a host name cannot end with '-'",
            ));
        }
        if end == body {
            break st;
        }
        st = end + 1;
    };
    if !s[last].is_ascii_alphabetic() {
        return Err(other(
            last,
            A,
            "the last label of a host name must start with a letter",
        ));
    }
    Ok(())
}
