//! Invariants of the validator's and the scanner's output, checked on
//! arbitrary input. Shared (through `#[path]`) by the cargo-fuzz targets in
//! `fuzz/fuzz_targets/` and the stable-toolchain property test
//! `tests/stream_prop.rs`; every check panics with a message on failure.
#![allow(dead_code)]

use std::io;

use urifind::grammar::{Grammar, IriValidator, Validator};
use urifind::iri::Iri;
use urifind::scan::{Context, Finder, FinderBuilder, Item, Match};
use urifind::uri::Components;

/// The three grammars.
pub const GRAMMARS: [Grammar; 3] =
    [Grammar::Rfc2396bis, Grammar::Rfc2396, Grammar::Rfc3986];

/// A finder whose options are chosen by the bits of `b`: grammar (bits 0-1,
/// `(b & 3) % 3`, so that flipping another bit keeps it), abbreviated URIs
/// (bit 2), any scheme (bit 3), rejected items (bit 4), small bracket and
/// URI bounds (bit 5: 24 and 40 bytes, so that short fuzz inputs reach the
/// bounds), IRIs (bit 6, except under RFC 2396).
pub fn finder_from_byte(b: u8) -> (Finder, Grammar) {
    let (fb, g) = builder_from_byte(b);
    (fb.build().unwrap(), g)
}

/// The builder behind [`finder_from_byte`].
pub fn builder_from_byte(b: u8) -> (FinderBuilder, Grammar) {
    let g = GRAMMARS[((b & 3) % 3) as usize];
    let mut fb = Finder::builder();
    fb.grammar(g)
        .abbreviated(b & 4 != 0)
        .any_scheme(b & 8 != 0)
        .rejected(b & 16 != 0)
        // RFC 2396 predates IRIs: the builder refuses the pair.
        .iri(b & 64 != 0 && g != Grammar::Rfc2396);
    if b & 32 != 0 {
        fb.bracket_bound(24).max_uri_len(40);
    }
    (fb, g)
}

/// Rebuilds a URI reference from its components.
pub fn recompose(c: &Components<'_>) -> Vec<u8> {
    let mut v = Vec::new();
    if let Some(s) = c.scheme {
        v.extend_from_slice(s);
        v.push(b':');
    }
    if let Some(a) = c.authority {
        v.extend_from_slice(b"//");
        v.extend_from_slice(a);
    }
    v.extend_from_slice(c.path);
    if let Some(q) = c.query {
        v.push(b'?');
        v.extend_from_slice(q);
    }
    if let Some(f) = c.fragment {
        v.push(b'#');
        v.extend_from_slice(f);
    }
    v
}

/// Rebuilds an authority from userinfo, host and port; `None` when there
/// is no authority or it parsed as a `reg-name` (no host: the validator
/// leaves userinfo, host and port `None` then).
pub fn recompose_authority(c: &Components<'_>) -> Option<Vec<u8>> {
    c.authority?;
    c.host?;
    let mut v = Vec::new();
    if let Some(u) = c.userinfo {
        v.extend_from_slice(u);
        v.push(b'@');
    }
    v.extend_from_slice(c.host.unwrap_or(b""));
    if let Some(p) = c.port {
        v.push(b':');
        v.extend_from_slice(p);
    }
    Some(v)
}

/// The validator on `data` under every grammar and option: no panic,
/// accepted strings recompose byte for byte, fault offsets in bounds,
/// stricter options accept a subset of what laxer ones accept.
pub fn check_validate(data: &[u8]) {
    for g in GRAMMARS {
        let lax = Validator::new(g).validate(data);
        for (abs, rules) in [(false, true), (true, false), (true, true)] {
            let v = Validator::new(g).absolute(abs).scheme_rules(rules);
            match v.validate(data) {
                Ok(c) => {
                    assert!(
                        lax.is_ok(),
                        "{g:?} abs={abs} rules={rules} accepts {} but \
                         the plain validator rejects it",
                        short(data)
                    );
                    if abs {
                        assert!(c.scheme.is_some(), "absolute without scheme");
                    }
                    // Under the scheme rules an IP-based URI has a server.
                    let ip_based = c.scheme.is_some_and(|s| {
                        [&b"http"[..], b"https", b"ftp"]
                            .iter()
                            .any(|k| s.eq_ignore_ascii_case(k))
                    });
                    if rules && ip_based {
                        assert!(
                            c.host.is_some_and(|h| !h.is_empty()),
                            "{g:?}: IP-based URI {} accepted under the \
                             scheme rules without a host: {c:?}",
                            short(data)
                        );
                    }
                }
                Err(e) => assert!(e.offset() <= data.len()),
            }
        }
        match lax {
            Ok(c) => {
                assert_eq!(
                    recompose(&c),
                    data,
                    "{g:?}: components do not recompose {}: {c:?}",
                    short(data)
                );
                match recompose_authority(&c) {
                    Some(a) => assert_eq!(
                        Some(&a[..]),
                        c.authority,
                        "{g:?}: authority parts do not recompose: {c:?}"
                    ),
                    None => assert!(
                        c.userinfo.is_none() && c.port.is_none(),
                        "{g:?}: userinfo or port without a host: {c:?}"
                    ),
                }
            }
            Err(e) => {
                assert!(
                    e.offset() <= data.len(),
                    "{g:?}: fault offset {} past the end ({})",
                    e.offset(),
                    data.len()
                );
                assert!(!e.message().is_empty(), "empty fault message");
            }
        }
    }
    check_validate_iri(data);
}

/// The IRI validator on `data`: no panic; what it accepts is UTF-8 and
/// recomposes from its components (the authority from userinfo, host and
/// port too); on ASCII it accepts what RFC 3986 accepts; the mapped URI of
/// every IRI is valid under RFC 3986, and is the IRI itself when that is
/// ASCII; with a mapped check, the mapping passes that check.
pub fn check_validate_iri(data: &[u8]) {
    let rfc3986 = Validator::new(Grammar::Rfc3986);
    let iri = IriValidator::new().validate(data);
    if data.is_ascii() {
        assert_eq!(
            iri.is_ok(),
            rfc3986.is_valid(data),
            "RFC 3987 and RFC 3986 disagree on ASCII {}",
            short(data)
        );
    }
    let c = match iri {
        Ok(c) => c,
        Err(e) => {
            assert!(e.offset() <= data.len(), "IRI fault past the end");
            assert!(
                std::str::from_utf8(&data[..e.offset()]).is_ok(),
                "IRI fault {} not after UTF-8 in {}",
                e.offset(),
                short(data)
            );
            return;
        }
    };
    assert!(std::str::from_utf8(data).is_ok(), "IRI not UTF-8");
    assert_eq!(recompose(&c), data, "IRI components do not recompose");
    if let Some(a) = recompose_authority(&c) {
        assert_eq!(Some(&a[..]), c.authority, "IRI authority: {c:?}");
    }
    let uri = Iri::from_bytes(data).expect("accepted above").to_uri();
    assert!(
        rfc3986.is_valid(uri.as_bytes()),
        "the IRI {} maps to {:?}, not an RFC 3986 URI reference",
        short(data),
        uri
    );
    if data.is_ascii() {
        assert_eq!(uri.as_bytes(), data, "an ASCII IRI maps to itself");
    }
    for g in [Grammar::Rfc2396bis, Grammar::Rfc3986] {
        let rules = Validator::new(g).absolute(true).scheme_rules(true);
        let mapped = IriValidator::new().absolute(true).mapped(rules);
        if mapped.is_valid(data) {
            assert!(
                rules.is_valid(uri.as_bytes()),
                "{g:?}: mapped check passed {} but its URI fails",
                short(data)
            );
        }
    }
}

/// At most 300 bytes of `b`, escaped, for messages.
pub fn short(b: &[u8]) -> String {
    if b.len() <= 300 {
        format!("{:?}", String::from_utf8_lossy(b))
    } else {
        format!(
            "{:?}...({} bytes)...{:?}",
            String::from_utf8_lossy(&b[..150]),
            b.len(),
            String::from_utf8_lossy(&b[b.len() - 150..])
        )
    }
}

/// Bytes a reported URI may skip over inside its `uri_span`: whitespace
/// (line-break rejoining) and `>` (mail quote prefixes).
fn skippable(b: u8) -> bool {
    // The scanner's whitespace: space, tab, CR, LF, VT and FF.
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c | b'>')
}

/// One match against the input it came from.
pub fn check_match(input: &[u8], m: &Match<'_>, g: Grammar) {
    // Written out before the URI is built, and after: the same bytes.
    let mut written = Vec::new();
    m.write_uri(&mut written);
    let (span, us, uri) = (m.span(), m.uri_span(), m.uri());
    assert_eq!(written, uri, "write_uri differs from uri");
    written.clear();
    m.write_uri(&mut written);
    assert_eq!(written, uri, "write_uri differs once built");
    let show = || {
        let lo = span.start.saturating_sub(60);
        let hi = span.end.saturating_add(60).min(input.len());
        format!(
            "match {} span {span:?} uri_span {us:?} ctx {:?} in input \
             [{lo}..{hi}] of {}: {}",
            short(uri),
            m.context(),
            input.len(),
            short(&input[lo..hi])
        )
    };
    assert!(span.start < span.end && span.end <= input.len(), "{}", show());
    assert!(
        span.start <= us.start && us.start < us.end && us.end <= span.end,
        "uri_span not inside span: {}",
        show()
    );
    let rules = Validator::new(g).absolute(true).scheme_rules(true);
    if m.is_iri() {
        // An IRI: valid under RFC 3987, its URI form valid under the
        // grammar and the scheme rules (and under RFC 3986), and no
        // whitespace or control character in it.
        let iri = IriValidator::new().absolute(true).mapped(rules);
        if let Err(e) = iri.validate(uri) {
            panic!("reported IRI does not validate ({e}): {}", show());
        }
        let mapped = m.to_uri();
        assert!(
            rules.is_valid(&mapped)
                && Validator::new(Grammar::Rfc3986).is_valid(&mapped)
                && mapped.is_ascii(),
            "the URI form {} of a reported IRI does not validate: {}",
            short(&mapped),
            show()
        );
        let text = std::str::from_utf8(uri).expect("validated as UTF-8");
        assert!(
            !text.chars().any(|c| c.is_control() || c.is_ascii_whitespace()),
            "IRI holds whitespace or control characters: {}",
            show()
        );
    } else {
        if let Err(e) = rules.validate(uri) {
            panic!("reported URI does not validate ({e}): {}", show());
        }
        assert!(
            uri.iter().all(|b| b.is_ascii_graphic()),
            "URI holds whitespace, control or non-ASCII bytes: {}",
            show()
        );
        assert_eq!(m.to_uri(), uri, "a URI's URI form is itself");
    }
    // The URI as reported is the input's uri_span with whitespace and
    // quote prefixes removed (after the scheme an abbreviated URI got).
    let body = if m.context() == Context::Abbreviated {
        let p = if uri.starts_with(b"http://") {
            7
        } else if uri.starts_with(b"ftp://") {
            6
        } else {
            panic!("abbreviated URI without http:// or ftp://: {}", show())
        };
        &uri[p..]
    } else {
        uri
    };
    let text = &input[us.clone()];
    assert_eq!(text.first(), body.first(), "first byte differs: {}", show());
    assert_eq!(text.last(), body.last(), "last byte differs: {}", show());
    let mut k = 0;
    for &b in text {
        if k < body.len() && body[k] == b {
            k += 1;
        } else {
            assert!(
                skippable(b),
                "byte {b:?} of the input is neither in the URI nor \
                 removable whitespace/quote prefix: {}",
                show()
            );
        }
    }
    assert_eq!(
        k,
        body.len(),
        "URI is not the input less whitespace: {}",
        show()
    );
    if let Some(w) = m.without_hyphen() {
        // the URI less one or more of its hyphens (one per line break)
        let mut k = 0;
        for &b in uri {
            if k < w.len() && w[k] == b {
                k += 1;
            } else {
                assert_eq!(
                    b,
                    b'-',
                    "without_hyphen {} drops more than hyphens: {}",
                    short(w),
                    show()
                );
            }
        }
        assert!(
            k == w.len() && w.len() < uri.len(),
            "without_hyphen {} is not the URI less hyphens: {}",
            short(w),
            show()
        );
    }
}

/// Every item of a whole-slice scan against its input: matches are
/// valid, in bounds, made of the input's bytes, in increasing order and
/// non-overlapping; rejected items are in bounds with a fault offset
/// inside the candidate; items come in order of their start.
pub fn check_items(input: &[u8], items: &[Item<'_>], g: Grammar) {
    let mut last_match_end = 0;
    let mut last_start = 0;
    for it in items {
        match it {
            Item::Match(m) => {
                check_match(input, m, g);
                assert!(
                    m.span().start >= last_match_end,
                    "match {:?} overlaps or precedes the previous one \
                     (ended at {last_match_end}) in {}",
                    m.span(),
                    short(input)
                );
                last_match_end = m.span().end;
                assert!(m.span().start >= last_start, "items out of order");
                last_start = m.span().start;
            }
            Item::Rejected(r) => {
                let s = r.span();
                assert!(
                    s.start <= s.end && s.end <= input.len(),
                    "rejected span {s:?} out of bounds ({})",
                    input.len()
                );
                assert!(
                    r.offset() <= r.candidate().len(),
                    "fault offset {} past the candidate {:?}",
                    r.offset(),
                    short(r.candidate())
                );
                assert!(
                    !r.reason().to_string().is_empty(),
                    "rejected without reason"
                );
                assert!(s.start >= last_start, "items out of order");
                last_start = s.start;
            }
            _ => panic!("an item of a kind these checks do not know"),
        }
    }
}

/// The colon filters only save work: the finder of options byte `opt`
/// gives the same items with them off (every colon through the engine's
/// full path).
pub fn check_prefilter_toggle(opt: u8, input: &[u8]) {
    let (mut fb, _) = builder_from_byte(opt);
    let on = fb.build().unwrap();
    let off = fb.prefilter(false).build().unwrap();
    let a: Vec<Item<'_>> = on.items(input).collect();
    let b: Vec<Item<'_>> = off.items(input).collect();
    assert!(
        a == b,
        "the colon filters change the items ({} vs {}) on {}",
        a.len(),
        b.len(),
        short(input)
    );
}

/// Asking for rejected candidates adds items and changes no match: the
/// finder of options byte `opt` with and without rejected items (bit 4)
/// gives the same matches on `input`.
pub fn check_rejected_toggle(opt: u8, input: &[u8]) {
    let (with, _) = finder_from_byte(opt | 16);
    let (without, _) = finder_from_byte(opt & !16);
    let a: Vec<Match<'_>> = with
        .items(input)
        .filter_map(|it| match it {
            Item::Match(m) => Some(m),
            _ => None,
        })
        .collect();
    let b: Vec<Match<'_>> = without.find_iter(input).collect();
    assert!(
        a == b,
        "matches change when rejected items are asked for ({} vs {}) on {}",
        a.len(),
        b.len(),
        short(input)
    );
}

/// IRIs only add: on ASCII input the finder of options byte `opt` gives
/// the same items with and without IRIs (bit 6); on any input, without
/// IRIs every match is ASCII.
pub fn check_iri_toggle(opt: u8, input: &[u8]) {
    let (with, _) = finder_from_byte(opt | 64);
    let (without, _) = finder_from_byte(opt & !64);
    let b: Vec<Item<'_>> = without.items(input).collect();
    if input.is_ascii() {
        let a: Vec<Item<'_>> = with.items(input).collect();
        assert!(
            a == b,
            "IRIs change the items on ASCII input ({} vs {}) on {}",
            a.len(),
            b.len(),
            short(input)
        );
    }
    for it in &b {
        if let Item::Match(m) = it {
            assert!(
                !m.is_iri(),
                "an IRI found without IRIs: {}",
                short(input)
            );
        }
    }
}

/// The `scan` fuzz target: byte 0 chooses the options, the rest is text.
pub fn fuzz_scan(data: &[u8]) {
    let Some((&opt, text)) = data.split_first() else {
        return;
    };
    let (finder, g) = finder_from_byte(opt);
    let items: Vec<Item<'_>> = finder.items(text).collect();
    check_items(text, &items, g);
    // find_iter is items() less the rejected ones.
    let matches: Vec<Match<'_>> = finder.find_iter(text).collect();
    let from_items: Vec<Match<'_>> = items
        .into_iter()
        .filter_map(|it| match it {
            Item::Match(m) => Some(m),
            _ => None,
        })
        .collect();
    assert!(matches == from_items, "find_iter differs from items()");
    check_rejected_toggle(opt, text);
    check_prefilter_toggle(opt, text);
    check_iri_toggle(opt, text);
}

/// The `stream` fuzz target: byte 0 chooses the options; byte 1 holds line
/// counting (bit 7) and how many read sizes follow (bits 0-2, plus one);
/// those bytes, plus one, are the sizes of successive reads (cycled); the
/// rest is the text.
pub fn fuzz_stream(data: &[u8]) {
    if data.len() < 2 {
        return;
    }
    let (finder, g) = finder_from_byte(data[0]);
    let count_lines = data[1] & 0x80 != 0;
    let n = (data[1] & 7) as usize + 1;
    let rest = &data[2..];
    let n = n.min(rest.len());
    let sizes: Vec<usize> =
        rest[..n].iter().map(|&b| b as usize + 1).collect();
    check_stream(&finder, g, &rest[n..], sizes, count_lines);
}

/// A reader that hands out `data` in reads of the given sizes (cycled;
/// a size of 0 is read as 1, so the reader never signals a false end).
pub struct ShortReader<'a> {
    data: &'a [u8],
    sizes: Vec<usize>,
    i: usize,
}

impl<'a> ShortReader<'a> {
    /// A reader over `data` with the given read sizes.
    pub fn new(data: &'a [u8], sizes: Vec<usize>) -> ShortReader<'a> {
        let sizes = if sizes.is_empty() { vec![1] } else { sizes };
        ShortReader { data, sizes, i: 0 }
    }
}

impl io::Read for ShortReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let want = self.sizes[self.i % self.sizes.len()].max(1);
        self.i += 1;
        let n = want.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Line and column (1-based, bytes) of offset `at`.
pub fn position_of(input: &[u8], at: usize) -> (u64, u64) {
    let before = &input[..at];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count() as u64;
    let start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    (line, (at - start + 1) as u64)
}

/// Positions of `items` (all present) agree with their offsets (a line
/// index built once, so that large inputs stay linear).
fn check_positions(input: &[u8], items: &[Item<'_>], what: &str) {
    let nl: Vec<usize> = memchr_lines(input);
    for it in items {
        let (span, pos) = match it {
            Item::Match(m) => (m.span(), m.position()),
            Item::Rejected(r) => (r.span(), r.position()),
            _ => panic!("an item of a kind these checks do not know"),
        };
        let p = pos.expect("line counting gives a position");
        let at = span.start;
        let k = nl.partition_point(|&i| i < at);
        let start = if k == 0 { 0 } else { nl[k - 1] + 1 };
        assert_eq!(
            (p.line, p.column),
            (k as u64 + 1, (at - start + 1) as u64),
            "{what}: wrong position for item at {span:?} in {}",
            short(input)
        );
    }
}

/// Offsets of every `\n` in `input`.
fn memchr_lines(input: &[u8]) -> Vec<usize> {
    input
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .map(|(i, _)| i)
        .collect()
}

/// Streaming `input` through short reads of `sizes` (a reader) and
/// feeding it in chunks of the same sizes (a [`urifind::scan::Feeder`])
/// give the same items, with the same absolute offsets, as the
/// whole-slice scan; with line counting on, positions (slice and stream)
/// match the offsets. Returns the slice items' count.
pub fn check_stream(
    finder: &Finder,
    g: Grammar,
    input: &[u8],
    sizes: Vec<usize>,
    count_lines: bool,
) -> usize {
    let whole: Vec<Item<'_>> = finder.items(input).collect();
    check_items(input, &whole, g);
    if count_lines {
        let counted: Vec<Item<'_>> =
            finder.items(input).count_lines(true).collect();
        check_positions(input, &counted, "slice");
        same_items(input, &whole, &counted, "slice counting lines");
    }
    let streamed: Vec<Item<'static>> = finder
        .stream(ShortReader::new(input, sizes.clone()))
        .count_lines(count_lines)
        .map(|r| r.expect("in-memory reads do not fail"))
        .collect();
    if count_lines {
        check_positions(input, &streamed, "stream");
    }
    same_items(input, &whole, &streamed, &format!("stream (reads {sizes:?})"));
    let mut fed: Vec<Item<'static>> = Vec::new();
    let mut feeder = finder.feeder().count_lines(count_lines);
    let mut rest = input;
    let mut i = 0;
    while !rest.is_empty() {
        let n = sizes[i % sizes.len()].clamp(1, rest.len());
        i += 1;
        feeder.feed(&rest[..n], &mut |it| fed.push(it));
        rest = &rest[n..];
    }
    feeder.finish(&mut |it| fed.push(it));
    same_items(input, &whole, &fed, &format!("feeder (chunks {sizes:?})"));
    whole.len()
}

/// `other` holds the same items as `whole` (positions aside).
fn same_items(
    input: &[u8],
    whole: &[Item<'_>],
    other: &[Item<'_>],
    what: &str,
) {
    // Positions are only in the stream's items; compare without them.
    let unpos = |it: &Item<'_>| -> String {
        match it {
            Item::Match(m) => format!(
                "M {:?} {:?} {} {:?} {:?}",
                m.span(),
                m.uri_span(),
                short(m.uri()),
                m.context(),
                m.without_hyphen().map(short)
            ),
            Item::Rejected(r) => format!(
                "R {:?} {} {} {:?} {:?}",
                r.span(),
                short(r.candidate()),
                r.offset(),
                r.reason(),
                r.context()
            ),
            _ => format!("{it:?}"),
        }
    };
    let same_item = |x: &Item<'_>, y: &Item<'_>| match (x, y) {
        (Item::Match(p), Item::Match(q)) => {
            p.span() == q.span()
                && p.uri_span() == q.uri_span()
                && p.uri() == q.uri()
                && p.context() == q.context()
                && p.without_hyphen() == q.without_hyphen()
        }
        (Item::Rejected(p), Item::Rejected(q)) => {
            p.span() == q.span()
                && p.candidate() == q.candidate()
                && p.offset() == q.offset()
                && p.reason() == q.reason()
                && p.context() == q.context()
        }
        _ => false,
    };
    let n = whole.len().max(other.len());
    for i in 0..n {
        let (x, y) = (whole.get(i), other.get(i));
        let same = match (x, y) {
            (Some(x), Some(y)) => same_item(x, y),
            _ => false,
        };
        assert!(
            same,
            "{what} differs from slice at item {i} of {}/{}: slice {:?} \
             other {:?}, input {}",
            whole.len(),
            other.len(),
            x.map(unpos),
            y.map(unpos),
            short(input)
        );
    }
}
