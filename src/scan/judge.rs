//! Judging a candidate: whether its scheme is taken in its context,
//! and whether its text passes the grammar, the scheme rules and
//! docs/CONTRACT.md's rules on what may be extracted. Also the test of
//! text that can only be a host, asked of a dangling authority and of
//! an abbreviated URI.

/// Whether the opaque part of a `data` URI starts as RFC 2397 says:
/// `[ type "/" subtype ] *( ";" attribute [ "=" value ] ) ","`
/// (`Data::Dumper($a,$b)` does not). Asked in bare and quoted text only:
/// inside angle brackets docs/CONTRACT.md takes any registered scheme in
/// any form.
pub(crate) fn data_head(after: &[u8]) -> bool {
    let Some(comma) = after.iter().position(|&b| b == b',') else {
        return false;
    };
    let token = |t: &[u8]| {
        !t.is_empty()
            && t.iter().all(|&b| {
                b.is_ascii_alphanumeric() || b"!#$&^_.+-%*'~".contains(&b)
            })
    };
    let mut parts = after[..comma].split(|&b| b == b';');
    let media = parts.next().unwrap_or_default();
    if !media.is_empty() {
        let mut ts = media.splitn(2, |&b| b == b'/');
        let (ty, sub) = (ts.next().unwrap_or_default(), ts.next());
        if !token(ty) || !sub.is_some_and(token) {
            return false;
        }
    }
    parts.all(|p| {
        let mut kv = p.splitn(2, |&b| b == b'=');
        token(kv.next().unwrap_or_default()) && kv.next().is_none_or(token)
    })
}

/// Whether `hp` is `host[:port]` where the host can only be a host: a
/// name with a dot, an IPv4 address or a bracketed IPv6 literal.
pub(crate) fn host_only(hp: &[u8]) -> bool {
    let (host, port) = if hp.first() == Some(&b'[') {
        match hp.iter().position(|&x| x == b']') {
            Some(r) => {
                let inner = &hp[1..r];
                if inner.is_empty()
                    || !inner.iter().all(|&x| {
                        x.is_ascii_hexdigit() || x == b':' || x == b'.'
                    })
                    || !inner.contains(&b':')
                {
                    return false;
                }
                (&hp[..=r], &hp[r + 1..])
            }
            None => return false,
        }
    } else {
        match hp.iter().position(|&x| x == b':') {
            Some(p) => (&hp[..p], &hp[p..]),
            None => (hp, &hp[hp.len()..]),
        }
    };
    let port_ok = port.is_empty()
        || (port[0] == b':' && port[1..].iter().all(u8::is_ascii_digit));
    if !port_ok {
        return false;
    }
    if host.first() == Some(&b'[') {
        return true;
    }
    let name = host.strip_suffix(b".").unwrap_or(host);
    if !name.contains(&b'.') {
        return false;
    }
    // The rightmost label is a top-level domain (two letters or more, as
    // `e.g.` has not) or the last octet of an IPv4 address.
    let labels = name.split(|&x| x == b'.');
    let last = labels.clone().next_back().unwrap_or_default();
    let ipv4 = labels.clone().count() == 4
        && labels
            .clone()
            .all(|l| !l.is_empty() && l.iter().all(u8::is_ascii_digit));
    if !ipv4 && (last.len() < 2 || !last[0].is_ascii_alphabetic()) {
        return false;
    }
    name.split(|&x| x == b'.').all(|l| {
        !l.is_empty()
            && l.len() <= 63
            && l.iter().all(|&x| x.is_ascii_alphanumeric() || x == b'-')
            && l[0] != b'-'
            && l[l.len() - 1] != b'-'
    })
}

#[cfg(test)]
mod tests {
    use super::host_only;

    #[test]
    fn hosts() {
        for h in
            ["www.ietf.org", "192.168.1.1", "[::1]", "a.example:8080", "a.bc."]
        {
            assert!(host_only(h.as_bytes()), "{h}");
        }
        for h in [
            "Makes", "and", "format", "", "a..b", "-a.b", "[]", "a.b:x", "e.g",
        ] {
            assert!(!host_only(h.as_bytes()), "{h}");
        }
    }
}
