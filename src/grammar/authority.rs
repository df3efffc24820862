//! The authority: server or `reg-name`, userinfo, host names, IPv4 and
//! IPv6 addresses, ports, for each grammar.
//!
//! rfc2396bis (Appendix A of the draft):
//!
//! ```text
//! authority     = server / reg-name
//! reg-name      = 1*( unreserved / escaped / ";" /
//!                     ":" / "@" / "&" / "=" / "+" / "$" / "," )
//! server        = [ [ userinfo "@" ] hostport ]
//! hostport      = host [ ":" port ]
//! host          = IPv6reference / IPv4address / hostname
//! port          = *DIGIT
//! hostname      = domainlabel [ qualified ]
//! qualified     = *( "." domainlabel ) [ "." toplabel [ "." ] ]
//! domainlabel   = alphanum [ 0*61( alphanum | "-" ) alphanum ]
//! toplabel      = alpha    [ 0*61( alphanum | "-" ) alphanum ]
//! IPv4address   = dec-octet "." dec-octet "." dec-octet "." dec-octet
//! dec-octet     = DIGIT / ( %x31-39 DIGIT ) / ( "1" 2*DIGIT ) /
//!                 ( "2" %x30-34 DIGIT ) / ( "25" %x30-35 )
//! IPv6reference = "[" IPv6address "]"
//! ```
//!
//! RFC 2396: the same, without `IPv6reference`, with `hostname = *(
//! domainlabel "." ) toplabel [ "." ]` (no length limit, the last label
//! starts with a letter) and `IPv4address = 1*digit "." 1*digit "."
//! 1*digit "." 1*digit`.
//!
//! RFC 3986: `authority = [ userinfo "@" ] host [ ":" port ]`, `host =
//! IP-literal / IPv4address / reg-name`, `reg-name = *( unreserved /
//! pct-encoded / sub-delims )`, `IP-literal = "[" ( IPv6address /
//! IPvFuture ) "]"`.
//!
//! RFC 3987 writes `iauthority` as RFC 3986's authority with `ucschar`
//! added to `iuserinfo` and `ireg-name`: the RFC 3986 parse here is
//! generic over the [`Alphabet`] and serves both.
//!
//! ABNF alternation means an rfc2396bis or RFC 2396 authority is valid
//! when either `server` or `reg-name` matches. As `reg-name` takes every
//! byte `server` takes except the brackets, the server parse matters for
//! the components (filled only for a server) and for IPv6 literals.

use super::alphabet::Alphabet;
use super::chars::{
    is, AUTH_END, FUTURE, LABEL, REG_2396, REG_3986, USERINFO,
};
use super::lex::{char_err, run, scan, Result};
use super::{ErrorKind, Fault, Grammar, Part};
use crate::uri::Components;

const A: Part = Part::Authority;

#[cold]
fn other(i: usize, m: &'static str) -> Fault {
    Fault::new(i, A, ErrorKind::Other(m))
}

/// Validates the authority that starts at `s[a]` (after `//`), fills its
/// components and returns where it ends (at `/`, `?`, `#` or the end).
///
/// Without `parts`, an rfc2396bis or RFC 2396 authority that matches
/// `reg-name` is not also parsed as a server (the caller fills the parts).
#[inline]
pub(crate) fn parse<'a, L: Alphabet>(
    s: &'a [u8],
    a: usize,
    g: Grammar,
    parts: bool,
    c: &mut Components<'a>,
) -> Result<usize> {
    let e = match g {
        Grammar::Rfc3986 => rfc3986::<L>(s, a, c)?,
        Grammar::Rfc2396bis => generic(s, a, true, parts, c)?,
        Grammar::Rfc2396 => generic(s, a, false, parts, c)?,
    };
    c.authority = Some(&s[a..e]);
    Ok(e)
}

/// Whether an authority may end at `j` (Appendix B: `[^/?#]*`).
#[inline(always)]
fn at_end(s: &[u8], j: usize) -> bool {
    j == s.len() || is(s[j], AUTH_END)
}

/// Where the authority that starts at `a` ends.
fn auth_end(s: &[u8], a: usize) -> usize {
    a + s[a..].iter().position(|&b| is(b, AUTH_END)).unwrap_or(s.len() - a)
}

/// `authority = server / reg-name` (rfc2396bis when `bis`, else RFC 2396).
fn generic<'a>(
    s: &'a [u8],
    a: usize,
    bis: bool,
    parts: bool,
    c: &mut Components<'a>,
) -> Result<usize> {
    // reg-name = 1*( unreserved / escaped / ";" / ":" / "@" / "&" / "=" /
    //                "+" / "$" / "," )
    let reg = scan(s, a, REG_2396, A);
    if let Ok(j) = reg {
        if at_end(s, j) {
            if a == j {
                // server = [ ... ]: the empty server, as in file:///etc
                c.host = Some(&s[a..a]);
            } else if !parts {
                // the scheme rules will split it
            } else if let Ok((userinfo, h, hend, port)) = server(s, a, j, bis)
            {
                c.userinfo = userinfo;
                c.host = Some(&s[h..hend]);
                c.port = port;
            }
            return Ok(j);
        }
    }
    // Not a reg-name: a server (an IPv6 literal) or nothing.
    let e = auth_end(s, a);
    match server(s, a, e, bis) {
        Ok((userinfo, h, hend, port)) => {
            c.userinfo = userinfo;
            c.host = Some(&s[h..hend]);
            c.port = port;
            Ok(e)
        }
        Err(se) => {
            let re = match reg {
                Ok(j) => char_err(s, j, A, "an authority"),
                Err(re) => re,
            };
            // No parse gets past the farther of the two faults.
            Err(if se.offset > re.offset { se } else { re })
        }
    }
}

type Server<'a> = (Option<&'a [u8]>, usize, usize, Option<&'a [u8]>);

/// `server = [ [ userinfo "@" ] hostport ]`, not empty: returns the
/// userinfo, the host's bounds and the port.
fn server(s: &[u8], a: usize, e: usize, bis: bool) -> Result<Server<'_>> {
    let (userinfo, h) = userinfo(s, a, e)?;
    let hend = if h < e && s[h] == b'[' {
        if !bis {
            return Err(char_err(s, h, A, "an authority"));
        }
        // IPv6reference = "[" IPv6address "]"
        let close = close_bracket(s, h, e)?;
        ipv6(s, h + 1, close, true)?;
        close + 1
    } else {
        let hend =
            s[h..e].iter().position(|&b| b == b':').map_or(e, |k| h + k);
        host_generic(s, h, hend, bis)?;
        hend
    };
    let port = port(s, hend, e)?;
    Ok((userinfo, h, hend, port))
}

/// `[ userinfo "@" ]` at the start of `s[a..e]`: returns it and where the
/// host starts. `userinfo` has no `@` in any grammar, so the first `@`
/// ends it.
#[inline]
fn userinfo(s: &[u8], a: usize, e: usize) -> Result<(Option<&[u8]>, usize)> {
    match s[a..e].iter().position(|&b| b == b'@') {
        None => Ok((None, a)),
        Some(k) => {
            let j = scan(s, a, USERINFO, A)?;
            if j != a + k {
                return Err(char_err(s, j, A, "userinfo"));
            }
            Ok((Some(&s[a..a + k]), a + k + 1))
        }
    }
}

/// The `]` closing the literal opened at `s[h]`.
fn close_bracket(s: &[u8], h: usize, e: usize) -> Result<usize> {
    s[h..e]
        .iter()
        .position(|&b| b == b']')
        .map(|k| h + k)
        .ok_or_else(|| other(e, "missing ']' after IPv6 address"))
}

/// `[ ":" port ]` with `port = *DIGIT`, from `hend` (the end of the host)
/// to `e`.
pub(crate) fn port(s: &[u8], hend: usize, e: usize) -> Result<Option<&[u8]>> {
    if hend == e {
        return Ok(None);
    }
    if s[hend] != b':' {
        return Err(other(hend, "expected ':' and a port after the host"));
    }
    let p = hend + 1;
    match s[p..e].iter().position(|b| !b.is_ascii_digit()) {
        Some(k) => Err(other(p + k, "a port must be digits")),
        None => Ok(Some(&s[p..e])),
    }
}

/// `host = IPv4address / hostname` (the IPv6 form is handled by the
/// caller).
fn host_generic(s: &[u8], h: usize, hend: usize, bis: bool) -> Result<()> {
    let host = &s[h..hend];
    let rule = if bis { Octets::Bis } else { Octets::Any };
    let v4 = match ipv4(host, rule) {
        Ok(()) => return Ok(()),
        Err(f) => f,
    };
    let name = if bis { hostname_bis(host) } else { hostname_2396(host) };
    match name {
        None => Ok(()),
        Some(k) if k >= v4.0 => {
            Err(if k < host.len() && !is(host[k], LABEL) {
                char_err(s, h + k, A, "a host name")
            } else {
                other(h + k, "invalid host name")
            })
        }
        Some(_) => Err(Fault::new(h + v4.0, A, v4.1)),
    }
}

/// rfc2396bis `hostname`: `None` if `host` matches, else where it stops
/// matching.
///
/// ```text
/// hostname      = domainlabel [ qualified ]
/// qualified     = *( "." domainlabel ) [ "." toplabel [ "." ] ]
/// domainlabel   = alphanum [ 0*61( alphanum | "-" ) alphanum ]
/// toplabel      = alpha    [ 0*61( alphanum | "-" ) alphanum ]
/// ```
///
/// Read literally, a dot may end the name only after a `toplabel` that
/// follows a `domainlabel`: `a.b.` is a hostname, `a.` is not.
pub(crate) fn hostname_bis(host: &[u8]) -> Option<usize> {
    let n = host.len();
    let (mut i, mut labels, mut last) = (0, 0, 0);
    loop {
        let st = i;
        while i < n && is(host[i], LABEL) {
            i += 1;
        }
        if i == st {
            let trailing_dot = i == n && labels >= 2;
            if trailing_dot && host[last].is_ascii_alphabetic() {
                return None;
            }
            return Some(st);
        }
        if host[st] == b'-' {
            return Some(st);
        }
        if i - st > 63 {
            return Some(st + 63);
        }
        if host[i - 1] == b'-' {
            return Some(i);
        }
        labels += 1;
        last = st;
        if i == n {
            return None;
        }
        if host[i] != b'.' {
            return Some(i);
        }
        i += 1;
    }
}

/// RFC 2396 `hostname = *( domainlabel "." ) toplabel [ "." ]`, with
/// `domainlabel = alphanum | alphanum *( alphanum | "-" ) alphanum` and
/// `toplabel = alpha | alpha *( alphanum | "-" ) alphanum` (no length
/// limit): `None` if `host` matches, else where it stops matching.
pub(crate) fn hostname_2396(host: &[u8]) -> Option<usize> {
    let n = host.len();
    let (mut i, mut labels, mut last) = (0, 0, 0);
    loop {
        let st = i;
        while i < n && is(host[i], LABEL) {
            i += 1;
        }
        if i == st {
            if i == n && labels >= 1 && host[last].is_ascii_alphabetic() {
                return None;
            }
            return Some(st);
        }
        if host[st] == b'-' {
            return Some(st);
        }
        if host[i - 1] == b'-' {
            return Some(i);
        }
        labels += 1;
        last = st;
        if i == n {
            return if host[st].is_ascii_alphabetic() {
                None
            } else {
                Some(n)
            };
        }
        if host[i] != b'.' {
            return Some(i);
        }
        i += 1;
    }
}

/// Which octets an IPv4 address admits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Octets {
    /// rfc2396bis `dec-octet`, read literally: `"1" 2*DIGIT` takes any
    /// run of three or more digits that starts with `1`.
    Bis,
    /// RFC 2396 `1*digit`.
    Any,
    /// RFC 3986 `dec-octet`: 0-255 without leading zeros.
    Rfc3986,
    /// The scheme rules: a decimal value 0-255 written as every
    /// grammar's `dec-octet` writes it, without leading zeros (some
    /// resolvers read `010` as octal 8).
    Value,
}

/// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet`
/// under `rule`; on failure, where and why (offsets into `host`).
pub(crate) fn ipv4(
    host: &[u8],
    rule: Octets,
) -> std::result::Result<(), (usize, ErrorKind)> {
    let n = host.len();
    let mut i = 0;
    for k in 0..4 {
        let st = i;
        let mut v: u64 = 0;
        while i < n && host[i].is_ascii_digit() {
            v = v.saturating_mul(10).saturating_add(u64::from(host[i] - b'0'));
            i += 1;
        }
        let d = &host[st..i];
        if d.is_empty() {
            let m = "expected a digit in IPv4 address";
            return Err((st, ErrorKind::Other(m)));
        }
        let ok = match rule {
            Octets::Any => true,
            Octets::Value => d.len() == 1 || (d[0] != b'0' && v <= 255),
            // DIGIT / %x31-39 DIGIT / "1" 2*DIGIT / "2" %x30-34 DIGIT /
            // "25" %x30-35
            Octets::Bis => {
                d.len() == 1
                    || (d.len() == 2 && d[0] != b'0')
                    || (d[0] == b'1' && d.len() >= 3)
                    || (d.len() == 3 && d[0] == b'2' && v <= 255)
            }
            // dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT /
            //             "2" %x30-34 DIGIT / "25" %x30-35
            Octets::Rfc3986 => d.len() == 1 || (d[0] != b'0' && v <= 255),
        };
        if !ok {
            let kind = if v > 255 {
                ErrorKind::Octet { value: v }
            } else {
                ErrorKind::OctetForm
            };
            return Err((st, kind));
        }
        if k < 3 {
            if i < n && host[i] == b'.' {
                i += 1;
            } else {
                let m = "an IPv4 address needs four octets";
                return Err((i, ErrorKind::Other(m)));
            }
        }
    }
    if i < n {
        let m = if host[i] == b'.' {
            "an IPv4 address has only four octets"
        } else {
            "unexpected character after IPv4 address"
        };
        return Err((i, ErrorKind::Other(m)));
    }
    Ok(())
}

/// `IPv6address` between the brackets, `s[a..b]`: rfc2396bis read
/// literally when `bis`, RFC 3986 otherwise.
///
/// rfc2396bis:
///
/// ```text
/// IPv6address   = (                       7( h4 ":" )   h4   ) /
///                 (                "::" 0*6( h4 ":" ) [ h4 ] ) /
///                 ( h4             "::" 0*5( h4 ":" ) [ h4 ] ) /
///                 ( h4    ":" h4   "::" 0*4( h4 ":" ) [ h4 ] ) /
///                 ( h4 2( ":" h4 ) "::" 0*3( h4 ":" ) [ h4 ] ) /
///                 ( h4 3( ":" h4 ) "::" 0*2( h4 ":" ) [ h4 ] ) /
///                 ( h4 4( ":" h4 ) "::" 0*1( h4 ":" ) [ h4 ] ) /
///                 (                       6( h4 ":" ) IPv4address ) /
///                 (                "::" 0*5( h4 ":" ) IPv4address ) /
///                 ( h4             "::" 0*4( h4 ":" ) IPv4address ) /
///                 ( h4    ":" h4   "::" 0*3( h4 ":" ) IPv4address ) /
///                 ( h4 2( ":" h4 ) "::" 0*2( h4 ":" ) IPv4address ) /
///                 ( h4 3( ":" h4 ) "::" 0*1( h4 ":" ) IPv4address )
/// h4            = 1*4HEXDIG
/// ```
///
/// So with `k` groups before `::` and `t` after: `k <= 5`; `t <= 7 - k`,
/// or `t <= 6 - k` when the address ends in `h4 ":"` (the trailing colon
/// the text allows); with an embedded IPv4 address `k <= 4` and
/// `t <= 5 - k` groups before it; the IPv4 octets are the draft's
/// `dec-octet`.
///
/// RFC 3986 (`[ *n( h16 ":" ) h16 ] "::" ...` with `ls32`): eight groups
/// without `::`; with it `k + t <= 7`, an IPv4 address counting as two
/// groups; no trailing colon; strict `dec-octet`.
fn ipv6(s: &[u8], a: usize, b: usize, bis: bool) -> Result<()> {
    let mut i = a;
    let (mut k, mut t) = (0usize, 0usize);
    let mut dc = false;
    if s[a..b].starts_with(b"::") {
        dc = true;
        i += 2;
    } else if i < b && s[i] == b':' {
        return Err(other(
            i,
            "an IPv6 address cannot start with a single ':'",
        ));
    }
    loop {
        if i == b {
            break;
        }
        let st = i;
        while i < b && s[i].is_ascii_hexdigit() {
            i += 1;
        }
        if i < b && s[i] == b'.' {
            return ipv6_v4(s, st, b, k, t, dc, bis);
        }
        if i == st {
            return Err(if s[i] == b':' {
                other(i, "':::' is not allowed in an IPv6 address")
            } else {
                char_err(s, i, A, "an IPv6 address")
            });
        }
        if i - st > 4 {
            return Err(other(
                st + 4,
                "a group of an IPv6 address has at most four hex digits",
            ));
        }
        let too_many = if !dc {
            k += 1;
            k > 8
        } else {
            t += 1;
            k + t > 7
        };
        if too_many {
            return Err(other(st, "too many groups in IPv6 address"));
        }
        if i == b {
            break;
        }
        if s[i] != b':' {
            return Err(char_err(s, i, A, "an IPv6 address"));
        }
        i += 1;
        if i < b && s[i] == b':' {
            if dc {
                return Err(other(
                    i - 1,
                    "'::' may appear only once in an IPv6 address",
                ));
            }
            if bis && k > 5 {
                return Err(other(
                    i - 1,
                    "at most five groups may precede '::' in an IPv6 \
                     address (rfc2396bis)",
                ));
            }
            if k > 7 {
                return Err(other(i - 1, "too many groups in IPv6 address"));
            }
            dc = true;
            i += 1;
            continue;
        }
        if i == b {
            // ends in h4 ":": the draft's 0*n( h4 ":" ) [ h4 ] allows it
            // after "::" when the group count leaves room.
            if bis && dc && t + k <= 6 {
                return Ok(());
            }
            return Err(other(b, "an IPv6 address cannot end with ':'"));
        }
    }
    if !dc && k != 8 {
        return Err(other(b, "an IPv6 address needs eight groups or '::'"));
    }
    Ok(())
}

/// The embedded IPv4 address that ends an IPv6 address, at `s[st..b]`,
/// after `k` groups (before `::`) and `t` groups (after it).
fn ipv6_v4(
    s: &[u8],
    st: usize,
    b: usize,
    k: usize,
    t: usize,
    dc: bool,
    bis: bool,
) -> Result<()> {
    let room = if !dc {
        // 6( h4 ":" ) IPv4address (both grammars)
        k == 6
    } else if bis {
        // h4 n( ":" h4 ) "::" 0*(5-n)( h4 ":" ) IPv4address, n <= 4
        k <= 4 && t + k <= 5
    } else {
        k + t + 2 <= 7
    };
    if !room {
        return Err(other(
            st,
            if !dc && k < 6 {
                "an embedded IPv4 address needs six groups or '::' before it"
            } else {
                "too many groups before the embedded IPv4 address"
            },
        ));
    }
    let rule = if bis { Octets::Bis } else { Octets::Rfc3986 };
    ipv4(&s[st..b], rule).map_err(|(o, kind)| Fault::new(st + o, A, kind))
}

/// RFC 3986 `authority = [ userinfo "@" ] host [ ":" port ]` (and RFC
/// 3987 `iauthority = [ iuserinfo "@" ] ihost [ ":" port ]` over the
/// [`Ucs`](super::alphabet::Ucs) alphabet), in one pass over the common
/// forms.
fn rfc3986<'a, L: Alphabet>(
    s: &'a [u8],
    a: usize,
    c: &mut Components<'a>,
) -> Result<usize> {
    let n = s.len();
    // userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
    let j = L::scan(s, a, USERINFO, A)?;
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
            return Err(L::unclosed_literal(s, h, e));
        };
        let close = h + close;
        if h + 1 < close && (s[h + 1] | 0x20) == b'v' {
            ipvfuture::<L>(s, h + 1, close)?;
        } else {
            ipv6(s, h + 1, close, false)?;
        }
        c.host = Some(&s[h..close + 1]);
        c.port = port(s, close + 1, e)?;
        return Ok(e);
    }
    if ui.is_none() {
        // s[a..j] are userinfo bytes, which are reg-name bytes and ':':
        // the host runs to the first ':', the port after it.
        let hend =
            s[a..j].iter().position(|&b| b == b':').map_or(j, |k| a + k);
        if !at_end(s, j) {
            let e = auth_end(s, j);
            return Err(if s[j..e].contains(&b'@') {
                L::char_err(s, j, A, "userinfo")
            } else if hend < j {
                other(j, "a port must be digits")
            } else {
                L::char_err(s, j, A, "a host")
            });
        }
        c.host = Some(&s[a..hend]);
        c.port = port(s, hend, j)?;
        return Ok(j);
    }
    // reg-name = *( unreserved / pct-encoded / sub-delims )
    let k = L::scan(s, h, REG_3986, A)?;
    c.host = Some(&s[h..k]);
    if k < n && s[k] == b':' {
        let mut q = k + 1;
        while q < n && s[q].is_ascii_digit() {
            q += 1;
        }
        if !at_end(s, q) {
            return Err(other(q, "a port must be digits"));
        }
        c.port = Some(&s[k + 1..q]);
        return Ok(q);
    }
    if !at_end(s, k) {
        return Err(L::char_err(s, k, A, "a host"));
    }
    Ok(k)
}

/// `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )` at
/// `s[v..close]`.
fn ipvfuture<L: Alphabet>(s: &[u8], v: usize, close: usize) -> Result<()> {
    let mut i = v + 1;
    while i < close && s[i].is_ascii_hexdigit() {
        i += 1;
    }
    if i == v + 1 {
        return Err(other(i, "expected a hex version after 'v' in IPvFuture"));
    }
    if i == close || s[i] != b'.' {
        return Err(other(i, "expected '.' after the version in IPvFuture"));
    }
    i += 1;
    let st = i;
    i = run(s, i, FUTURE).min(close);
    if i < close {
        return Err(L::char_err(s, i, A, "an IPvFuture address"));
    }
    if i == st {
        return Err(other(i, "expected an address after '.' in IPvFuture"));
    }
    Ok(())
}
