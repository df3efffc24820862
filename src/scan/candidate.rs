//! Candidates and their acceptance: assembling a candidate's text from
//! pieces of the input (a URI broken over lines is several pieces),
//! trimming trailing punctuation, deciding whether its scheme is taken
//! in its context, validating it (grammar, scheme rules, the contract's
//! rules on what may be extracted), and queueing the outcome: a match,
//! or a rejection with its reason. Also where the last match ended
//! (`resume`), before which no new candidate may start.
//!
//! Every context (delimited, bare, abbreviated) builds its candidates
//! here and nowhere else.

use std::collections::VecDeque;
use std::ops::Range;

use crate::grammar::{schemes, Error, Part, Validator};
use crate::scan::engine::{Found, Out};
use crate::scan::{text, Context, FinderBuilder, Rejected};

/// Why a candidate failed.
pub(crate) struct Fault {
    pub offset: usize,
    pub reason: RejectReason,
    /// The fault lies in the path, query or fragment: a prefix may
    /// still be valid.
    pub tail: bool,
}

impl Fault {
    /// A fault at `offset` that no shorter prefix can mend.
    pub(crate) fn whole(offset: usize, reason: RejectReason) -> Fault {
        Fault { offset, reason, tail: false }
    }
}

/// Why a candidate was rejected ([`Rejected::reason`]).
///
/// Most candidates fail silently, at the rate of colons in text: the
/// reason is put in words only when asked ([`Display`](std::fmt::Display)).
///
/// # Example
///
/// ```
/// use urifind::scan::{Item, RejectReason};
///
/// let f = urifind::Finder::builder().rejected(true).build();
/// let Some(Item::Rejected(r)) = f.items(b"see http://").next() else {
///     panic!()
/// };
/// assert_eq!(r.reason(), &RejectReason::NothingAfterSlashes);
/// assert_eq!(r.reason().to_string(), "nothing after '//'");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RejectReason {
    /// Not a URI under the grammar or the scheme rules.
    Invalid(Error),
    /// Longer than the longest URI reported
    /// ([`FinderBuilder::max_uri_len`]).
    TooLong {
        /// The bound, in bytes.
        limit: usize,
    },
    /// Nothing after `scheme:` (or only a fragment).
    NothingAfterScheme,
    /// Nothing after `scheme://`.
    NothingAfterSlashes,
    /// A letter of a script written with spaces follows: an IRI, which
    /// is not a URI.
    Iri,
    /// `scheme://` with an empty authority and nothing more, for a
    /// scheme that is not registered.
    EmptyAuthority,
    /// A `data` URI in prose without its media type and comma.
    DataSyntax,
    /// `:` or `/` right after a prose-opaque scheme's colon in prose
    /// (`geo::Point`, `mailto:/news:`): code or talk about schemes.
    NotOpaque,
}

impl std::fmt::Display for RejectReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RejectReason::Invalid(e) => e.fmt(f),
            RejectReason::TooLong { limit } => {
                write!(f, "longer than {limit} bytes")
            }
            RejectReason::NothingAfterScheme => {
                f.write_str("nothing after ':'")
            }
            RejectReason::NothingAfterSlashes => {
                f.write_str("nothing after '//'")
            }
            RejectReason::Iri => {
                f.write_str("a non-ASCII letter follows: an IRI, not a URI")
            }
            RejectReason::EmptyAuthority => f.write_str(
                "an unregistered scheme needs a non-empty authority",
            ),
            RejectReason::DataSyntax => f.write_str(
                "a data URI is [type/subtype][;param]...[;base64],data",
            ),
            RejectReason::NotOpaque => {
                f.write_str("':' or '/' after this scheme's ':' is not a URI")
            }
        }
    }
}

impl std::error::Error for RejectReason {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RejectReason::Invalid(e) => Some(e),
            _ => None,
        }
    }
}

impl From<Error> for Fault {
    fn from(e: Error) -> Fault {
        Fault {
            offset: e.offset(),
            tail: matches!(
                e.part(),
                Part::Path | Part::Query | Part::Fragment
            ),
            reason: RejectReason::Invalid(e),
        }
    }
}

/// The candidate being assembled and judged, and the outcomes so far.
pub(crate) struct Candidates<'f> {
    opts: &'f FinderBuilder,
    validator: Validator,
    /// The candidate's pieces of the input (absolute offsets).
    segs: Vec<(usize, usize)>,
    /// Offsets in `text` of hyphens at which a line break was joined.
    joins: Vec<usize>,
    /// The candidate's text: the pieces, in order (for an abbreviated
    /// URI, after the scheme put in front).
    text: Vec<u8>,
    /// Scratch for [`Candidates::open_depths`].
    depth: Vec<u32>,
    /// Matches and rejections not yet taken by a driver.
    queue: VecDeque<Out>,
    /// Absolute offset before which no new candidate may start.
    resume: usize,
}

impl<'f> Candidates<'f> {
    pub(crate) fn new(opts: &'f FinderBuilder) -> Candidates<'f> {
        Candidates {
            opts,
            validator: Validator::new(opts.grammar)
                .absolute(true)
                .scheme_rules(true),
            segs: Vec::new(),
            joins: Vec::new(),
            text: Vec::new(),
            depth: Vec::new(),
            queue: VecDeque::new(),
            resume: 0,
        }
    }

    /// The options the finder was built with.
    #[inline]
    pub(crate) fn opts(&self) -> &'f FinderBuilder {
        self.opts
    }

    /// Where the last match ended: no candidate starts before it.
    #[inline]
    pub(crate) fn resume(&self) -> usize {
        self.resume
    }

    /// The next outcome, oldest first.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<Out> {
        self.queue.pop_front()
    }

    /// How many outcomes wait (for a checkpoint).
    pub(crate) fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Goes back to a checkpoint: `queued` outcomes, `resume`.
    pub(crate) fn restore(&mut self, queued: usize, resume: usize) {
        self.queue.truncate(queued);
        self.resume = resume;
    }

    // ----- assembling -----

    /// Starts a new candidate.
    #[inline]
    pub(crate) fn start(&mut self) {
        self.segs.clear();
        self.joins.clear();
        self.text.clear();
    }

    /// Adds `v[a..b]` (the view starts at absolute `base`) to the
    /// candidate, noting a hyphen the previous piece ended in.
    #[inline]
    pub(crate) fn push_seg(
        &mut self,
        v: &[u8],
        base: usize,
        a: usize,
        b: usize,
    ) {
        if let Some(&(_, e)) = self.segs.last() {
            if v[e - base - 1] == b'-' {
                self.joins.push(self.text.len() - 1);
            }
        }
        self.segs.push((base + a, base + b));
        self.text.extend_from_slice(&v[a..b]);
    }

    /// Starts an abbreviated candidate: `prefix` (a scheme and `://`)
    /// and then `v[a..b]`.
    pub(crate) fn start_abbreviated(
        &mut self,
        prefix: &[u8],
        v: &[u8],
        base: usize,
        a: usize,
        b: usize,
    ) {
        self.start();
        self.segs.push((base + a, base + b));
        self.text.extend_from_slice(prefix);
        self.text.extend_from_slice(&v[a..b]);
    }

    /// Forgets the hyphens joined so far (a dangling authority's line
    /// break is no hyphen's).
    pub(crate) fn clear_joins(&mut self) {
        self.joins.clear();
    }

    /// The candidate's text.
    #[inline]
    pub(crate) fn text(&self) -> &[u8] {
        &self.text
    }

    /// Whether no piece was added.
    pub(crate) fn is_empty(&self) -> bool {
        self.segs.is_empty()
    }

    /// The absolute input offset of text offset `k` (`k` may equal the
    /// text length: the end of the last piece).
    fn input_offset(&self, k: usize) -> usize {
        let mut left = k;
        for &(a, b) in &self.segs {
            if left < b - a {
                return a + left;
            }
            left -= b - a;
        }
        self.segs.last().map_or(0, |&(_, b)| b)
    }

    /// The input offset just past text byte `k - 1`.
    fn input_end(&self, k: usize) -> usize {
        if k == 0 {
            return self.segs.first().map_or(0, |s| s.0);
        }
        self.input_offset(k - 1) + 1
    }

    /// The length of `text[..len]` with trailing punctuation trimmed
    /// (never into the scheme): `.,;:!?'` always, `)` and `]` when they
    /// have no opening partner inside the URI.
    pub(crate) fn trimmed(
        &mut self,
        mut len: usize,
        scheme_len: usize,
    ) -> usize {
        let mut depths_known = false;
        while len > scheme_len + 1 {
            let b = self.text[len - 1];
            if text::is_trim(b) {
                len -= 1;
                continue;
            }
            if b == b')' || b == b']' {
                if !depths_known {
                    self.open_depths(len);
                    depths_known = true;
                }
                if self.depth[len - 1] == 0 {
                    len -= 1;
                    continue;
                }
            }
            break;
        }
        len
    }

    /// For each `)` or `]` in `text[..len]`, how many openers of its kind
    /// before it are still unclosed (pairs matched left to right; a stray
    /// closer matches nothing). Trimming only shortens the text, so one
    /// pass serves every step of it.
    fn open_depths(&mut self, len: usize) {
        self.depth.clear();
        let (mut paren, mut square) = (0u32, 0u32);
        for &x in &self.text[..len] {
            let d = match x {
                b'(' => {
                    paren += 1;
                    0
                }
                b'[' => {
                    square += 1;
                    0
                }
                b')' => {
                    let d = paren;
                    paren = paren.saturating_sub(1);
                    d
                }
                b']' => {
                    let d = square;
                    square = square.saturating_sub(1);
                    d
                }
                _ => 0,
            };
            self.depth.push(d);
        }
    }

    // ----- accepting -----

    /// Whether a scheme is accepted in a context, before validation.
    #[inline]
    pub(crate) fn accepts(
        &self,
        scheme: &[u8],
        slashes: bool,
        ctx: Context,
    ) -> bool {
        if let Some(list) = &self.opts.schemes {
            return list.iter().any(|x| x.eq_ignore_ascii_case(scheme));
        }
        if self.opts.any_scheme {
            return true;
        }
        match ctx {
            Context::UrlPrefixed => true,
            Context::Angle => slashes || schemes::is_registered(scheme),
            Context::Bare | Context::Quoted | Context::Abbreviated => {
                slashes || schemes::is_prose_opaque(scheme)
            }
        }
    }

    /// Checks `text[..len]` as a whole candidate.
    #[inline]
    pub(crate) fn check_len(
        &self,
        len: usize,
        scheme_len: usize,
        ctx: Context,
    ) -> Result<(), Fault> {
        self.check(&self.text[..len], scheme_len, ctx)
    }

    /// The checks on a whole candidate text: grammar and scheme rules,
    /// then docs/CONTRACT.md's rules on what may be extracted.
    fn check(
        &self,
        t: &[u8],
        scheme_len: usize,
        ctx: Context,
    ) -> Result<(), Fault> {
        if t.len() > self.opts.max_uri_len {
            return Err(Fault::whole(
                self.opts.max_uri_len,
                RejectReason::TooLong { limit: self.opts.max_uri_len },
            ));
        }
        let c = self.validator.validate(t)?;
        let scheme = &t[..scheme_len];
        let after = &t[scheme_len + 1..];
        let nothing = |r: RejectReason| Fault::whole(t.len(), r);
        if after.is_empty() || after[0] == b'#' {
            return Err(nothing(RejectReason::NothingAfterScheme));
        }
        if let Some(auth) = c.authority {
            if auth.is_empty() && c.path.is_empty() {
                return Err(nothing(RejectReason::NothingAfterSlashes));
            }
            let free = self.opts.any_scheme
                || self.opts.schemes.is_some()
                || ctx == Context::UrlPrefixed;
            if auth.is_empty() && !free && !schemes::is_registered(scheme) {
                return Err(Fault::whole(
                    scheme_len + 3,
                    RejectReason::EmptyAuthority,
                ));
            }
        } else if scheme.eq_ignore_ascii_case(b"data")
            && matches!(ctx, Context::Bare | Context::Quoted)
            && !data_head(after)
        {
            return Err(Fault::whole(t.len(), RejectReason::DataSyntax));
        } else if matches!(after[0], b':' | b'/')
            && matches!(ctx, Context::Bare | Context::Quoted)
        {
            // `geo::Point`, `news::Item`: a C++ or Perl name, not a URI;
            // `mailto:/news:` is prose about schemes. The schemes written
            // without `//` in prose are opaque: no `/` or `:` first.
            return Err(Fault::whole(scheme_len + 1, RejectReason::NotOpaque));
        }
        Ok(())
    }

    // ----- reporting -----

    /// Reports `text[..len]` as a match spanning `span`.
    pub(crate) fn report(
        &mut self,
        len: usize,
        span: Range<usize>,
        ctx: Context,
        scheme_len: usize,
    ) {
        let start = self.segs[0].0;
        let end = self.input_end(len);
        let contiguous = end - start == len;
        let uri = &self.text[..len];
        let mut alt = None;
        if self.joins.iter().any(|&j| j < len) {
            let mut a = Vec::with_capacity(len);
            let mut last = 0;
            for &j in self.joins.iter().filter(|&&j| j < len) {
                a.extend_from_slice(&uri[last..j]);
                last = j + 1;
            }
            a.extend_from_slice(&uri[last..]);
            if self.check(&a, scheme_len, ctx).is_ok() {
                alt = Some(a);
            }
        }
        let found = Found {
            span,
            uri_span: start..end,
            owned: (!contiguous).then(|| uri.to_vec()),
            context: ctx,
            alt,
        };
        self.queue.push_back(Out::Match(found));
    }

    /// Reports a delimited match closed at absolute `close`.
    pub(crate) fn report_delimited(
        &mut self,
        len: usize,
        span: Range<usize>,
        ctx: Context,
        scheme_len: usize,
    ) {
        let end = span.end;
        self.report(len, span, ctx, scheme_len);
        self.resume = end;
    }

    /// Reports a bare match of `text[..len]`: its span is the URI's.
    pub(crate) fn report_bare(&mut self, len: usize, scheme_len: usize) {
        let start = self.segs[0].0;
        let end = self.input_end(len);
        self.report(len, start..end, Context::Bare, scheme_len);
        self.resume = end;
    }

    /// Reports an abbreviated match: `text[..len]`, whose first `shift`
    /// bytes (the scheme put in front) are not in the input.
    pub(crate) fn report_abbreviated(&mut self, len: usize, shift: usize) {
        let start = self.segs[0].0;
        let end = start + (len - shift);
        let found = Found {
            span: start..end,
            uri_span: start..end,
            owned: Some(self.text[..len].to_vec()),
            context: Context::Abbreviated,
            alt: None,
        };
        self.queue.push_back(Out::Match(found));
        self.resume = end;
    }

    /// Reports the candidate as rejected, when rejections are asked for.
    pub(crate) fn reject(
        &mut self,
        span: Range<usize>,
        ctx: Context,
        f: Fault,
    ) {
        if !self.opts.rejected {
            return;
        }
        self.queue.push_back(Out::Rejected(Rejected {
            span,
            candidate: self.text.clone(),
            offset: f.offset,
            reason: Box::new(f.reason),
            context: ctx,
            position: None,
        }));
    }
}

/// Whether the opaque part of a `data` URI starts as RFC 2397 says:
/// `[ type "/" subtype ] *( ";" attribute [ "=" value ] ) ","`
/// (`Data::Dumper($a,$b)` does not). Asked in bare and quoted text only:
/// inside angle brackets docs/CONTRACT.md takes any registered scheme in
/// any form.
fn data_head(after: &[u8]) -> bool {
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
