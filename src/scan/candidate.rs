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

use crate::grammar::{schemes, Error, IriValidator, Part, Validator};
use crate::scan::continuation;
use crate::scan::engine::{Found, Out, View};
use crate::scan::trim::{self, Marks};
use crate::scan::{Context, FinderBuilder, Rejected, Shape};

/// Why a candidate failed, and whether a prefix of it may still pass
/// (the validator's fault, in the scanner's terms).
pub(crate) struct Refusal {
    pub offset: usize,
    pub reason: RejectReason,
    /// The fault lies in the path, query or fragment: a prefix may
    /// still be valid.
    pub tail: bool,
}

impl Refusal {
    /// A fault at `offset` that no shorter prefix can mend.
    pub(crate) fn whole(offset: usize, reason: RejectReason) -> Refusal {
        Refusal { offset, reason, tail: false }
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
/// let f = urifind::Finder::builder().rejected(true).build().unwrap();
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
    /// A scheme found without `//` in prose only in one form, and this
    /// is not it (`sms:GetApp`, `matrix:get(y)`: see
    /// [`fits_prose_form`](crate::grammar::schemes::fits_prose_form)).
    NotProseForm,
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
            RejectReason::NotProseForm => f.write_str(
                "not a form this scheme is written in without '//' in prose",
            ),
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

impl From<Error> for Refusal {
    fn from(e: Error) -> Refusal {
        Refusal {
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
    /// With IRIs, for candidates that hold non-ASCII characters: RFC
    /// 3987, then `validator` on the mapped URI.
    iri: Option<IriValidator>,
    /// The candidate's pieces of the input (absolute offsets).
    segs: Vec<(usize, usize)>,
    /// Offsets in the text of hyphens at which a line break was joined.
    joins: Vec<usize>,
    /// The candidate's text when it is not one piece of the input as it
    /// stands (when `built`): the pieces, in order, or for an abbreviated
    /// URI the scheme put in front and the piece. A candidate on one line
    /// is read in place, never copied.
    text: Vec<u8>,
    built: bool,
    /// The first piece, as indices into the view it was taken from (the
    /// whole candidate unless `built`).
    one: (usize, usize),
    /// What stands before a bare candidate's scheme.
    marks: Marks,
    /// Matches and rejections not yet taken by a driver.
    queue: VecDeque<Out>,
    /// Absolute offset before which no new candidate may start.
    resume: usize,
}

/// The text of a candidate (see [`Candidates::text`]).
#[inline(always)]
fn text_of<'s>(
    one: (usize, usize),
    text: &'s [u8],
    built: bool,
    vw: &'s View<'_>,
) -> &'s [u8] {
    if built {
        text
    } else {
        &vw.v[one.0..one.1]
    }
}

impl<'f> Candidates<'f> {
    pub(crate) fn new(opts: &'f FinderBuilder) -> Candidates<'f> {
        let validator =
            Validator::new(opts.grammar).absolute(true).scheme_rules(true);
        Candidates {
            opts,
            validator,
            iri: opts
                .iri
                .then(|| IriValidator::new().absolute(true).mapped(validator)),
            segs: Vec::new(),
            joins: Vec::new(),
            text: Vec::new(),
            built: false,
            one: (0, 0),
            marks: Marks::default(),
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

    /// Moves the oldest outcome into `dst`, a match field by field (read
    /// whole right after it was queued field by field, it would wait on
    /// the store buffer: see [`Candidates::push_found`]); false when none
    /// waits.
    #[inline(always)]
    pub(crate) fn pop_into(&mut self, dst: &mut Out) -> bool {
        let Some(front) = self.queue.front_mut() else { return false };
        match (front, dst) {
            (Out::Match(f), Out::Match(d)) => {
                d.span = f.span.clone();
                d.uri_span = f.uri_span.clone();
                d.shape = f.shape;
                d.context = f.context;
                d.alt = f.alt.take();
            }
            (src, d) => *d = std::mem::replace(src, Out::Match(Found::EMPTY)),
        }
        self.queue.pop_front();
        true
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
        self.built = false;
        self.one = (0, 0);
        self.marks.quoted = false;
        self.marks.closing.clear();
    }

    /// Adds `v[a..b]` (the view starts at absolute `base`) to the
    /// candidate, noting a hyphen the previous piece ended in. The first
    /// piece stays in place; the text is copied out only when a second
    /// one comes.
    #[inline(always)]
    pub(crate) fn push_seg(
        &mut self,
        v: &[u8],
        base: usize,
        a: usize,
        b: usize,
    ) {
        if let Some(&(_, e)) = self.segs.last() {
            if !self.built {
                self.text.clear();
                self.text.extend_from_slice(&v[self.one.0..self.one.1]);
                self.built = true;
            }
            if v[e - base - 1] == b'-' {
                self.joins.push(self.text.len() - 1);
            }
            self.text.extend_from_slice(&v[a..b]);
        } else {
            self.one = (a, b);
        }
        self.segs.push((base + a, base + b));
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
        self.one = (a, b);
        self.text.clear();
        self.text.extend_from_slice(prefix);
        self.text.extend_from_slice(&v[a..b]);
        self.built = true;
    }

    /// Forgets the hyphens joined so far (a dangling authority's line
    /// break is no hyphen's).
    pub(crate) fn clear_joins(&mut self) {
        self.joins.clear();
    }

    /// The candidate's text (`vw` is the view it was assembled from).
    #[inline]
    pub(crate) fn text<'s>(&'s self, vw: &'s View<'_>) -> &'s [u8] {
        text_of(self.one, &self.text, self.built, vw)
    }

    /// Whether no piece was added.
    pub(crate) fn is_empty(&self) -> bool {
        self.segs.is_empty()
    }

    /// The absolute input offset of text offset `k` (`k` may equal the
    /// text length: the end of the last piece).
    #[inline]
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
    #[inline]
    fn input_end(&self, k: usize) -> usize {
        if !self.built {
            return self.segs[0].0 + k;
        }
        if k == 0 {
            return self.segs.first().map_or(0, |s| s.0);
        }
        self.input_offset(k - 1) + 1
    }

    /// What stands before the candidate's scheme, for
    /// [`Candidates::trimmed`] (none unless set after
    /// [`Candidates::start`]).
    pub(crate) fn set_marks(&mut self, m: Marks) {
        self.marks = m;
    }

    /// The length of the text's first `len` bytes with its end trimmed
    /// (never into the scheme): sentence punctuation, apostrophes and
    /// emphasis markup, as `trim` says. (A `)` or `]` at the end has its
    /// partner in the URI: one without ends a bare URI before it.)
    #[inline(always)]
    pub(crate) fn trimmed(
        &self,
        vw: &View<'_>,
        len: usize,
        scheme_len: usize,
    ) -> usize {
        let t = text_of(self.one, &self.text, self.built, vw);
        trim::trimmed(t, len, scheme_len + 1, &self.marks)
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
            Context::Bare
            | Context::Quoted
            | Context::Paired
            | Context::Abbreviated => {
                slashes || schemes::is_prose_opaque(scheme)
            }
        }
    }

    /// How far a URI of the common shape (`http://host/path`) goes from
    /// the start of `t`, which starts with a scheme of `scheme` bytes:
    /// `Some(k)` when `t[..k]` passes every check and `t[k]` cannot
    /// extend it.
    #[inline(always)]
    pub(crate) fn common_prefix(
        &self,
        t: &[u8],
        scheme: usize,
    ) -> Option<(usize, usize)> {
        self.validator.common_prefix(t, scheme)
    }

    /// [`Candidates::common_prefix`] for the plainest URIs: no escape,
    /// `&` or `)` after the authority (see `plain`); `t` starts with an
    /// IP-based scheme of `scheme` bytes, which the caller has checked.
    #[inline(always)]
    pub(crate) fn plain_prefix(
        &self,
        t: &[u8],
        scheme: usize,
    ) -> Option<(usize, usize)> {
        self.validator.plain_prefix(t, scheme)
    }

    /// Checks the text's first `len` bytes as a whole candidate.
    #[inline(always)]
    pub(crate) fn check_len(
        &self,
        vw: &View<'_>,
        len: usize,
        scheme_len: usize,
        ctx: Context,
    ) -> Result<(), Refusal> {
        let t = &self.text(vw)[..len];
        // The common shape (`http://host/path`, a non-empty authority)
        // passes every check.
        if t.len() <= self.opts.max_uri_len
            && self.validator.is_common_after(t, scheme_len)
        {
            return Ok(());
        }
        self.check(t, scheme_len, ctx)
    }

    /// The checks on a whole candidate text: grammar and scheme rules,
    /// then docs/CONTRACT.md's rules on what may be extracted.
    fn check(
        &self,
        t: &[u8],
        scheme_len: usize,
        ctx: Context,
    ) -> Result<(), Refusal> {
        let res = self.check_strict(t, scheme_len, ctx);
        match res {
            // With browser hosts, a host a browser reads may stand in for
            // a valid one (see `link::hosts`).
            Err(ref f)
                if self.opts.browser_hosts
                    && matches!(&f.reason, RejectReason::Invalid(e) if e.part() == Part::Authority) =>
            {
                match crate::link::hosts::stand_in(t, scheme_len) {
                    Some(s)
                        if self.check_strict(&s, scheme_len, ctx).is_ok() =>
                    {
                        Ok(())
                    }
                    _ => res,
                }
            }
            _ => res,
        }
    }

    /// [`Candidates::check`] without browser hosts.
    fn check_strict(
        &self,
        t: &[u8],
        scheme_len: usize,
        ctx: Context,
    ) -> Result<(), Refusal> {
        if t.len() > self.opts.max_uri_len {
            return Err(Refusal::whole(
                self.opts.max_uri_len,
                RejectReason::TooLong { limit: self.opts.max_uri_len },
            ));
        }
        // The common shape (`http://host/path`, a non-empty authority)
        // passes every check below.
        if self.validator.is_common(t) {
            return Ok(());
        }
        let c = match self.iri {
            Some(iri) if !t.is_ascii() => iri.validate(t)?,
            _ => self.validator.validate(t)?,
        };
        let scheme = &t[..scheme_len];
        let after = &t[scheme_len + 1..];
        let nothing = |r: RejectReason| Refusal::whole(t.len(), r);
        // (Dots alone do not count: `"file://..."`, `<news:...>`.)
        let dots = |x: &[u8]| x.iter().all(|&b| b == b'.');
        if after.is_empty() || after[0] == b'#' || dots(after) {
            return Err(nothing(RejectReason::NothingAfterScheme));
        }
        if let Some(auth) = c.authority {
            if (auth.is_empty() && c.path.is_empty()) || dots(&after[2..]) {
                return Err(nothing(RejectReason::NothingAfterSlashes));
            }
            let free = self.opts.any_scheme
                || self.opts.schemes.is_some()
                || ctx == Context::UrlPrefixed;
            if auth.is_empty() && !free && !schemes::is_registered(scheme) {
                return Err(Refusal::whole(
                    scheme_len + 3,
                    RejectReason::EmptyAuthority,
                ));
            }
        } else if scheme.eq_ignore_ascii_case(b"data")
            && matches!(ctx, Context::Bare | Context::Quoted | Context::Paired)
            && !data_head(after)
        {
            return Err(Refusal::whole(t.len(), RejectReason::DataSyntax));
        } else if matches!(
            ctx,
            Context::Bare | Context::Quoted | Context::Paired
        ) && !schemes::fits_prose_form(scheme, after)
        {
            // `geo::Point`, `news::Item`: a C++ or Perl name, not a URI;
            // `mailto:/news:` is prose about schemes. The schemes written
            // without `//` in prose are opaque: no `/` or `:` first (but
            // `file:/etc/motd`); `sms:` and `matrix:` have their forms.
            let reason = if matches!(after[0], b':' | b'/') {
                RejectReason::NotOpaque
            } else {
                RejectReason::NotProseForm
            };
            return Err(Refusal::whole(scheme_len + 1, reason));
        }
        Ok(())
    }

    // ----- reporting -----

    /// Reports the text's first `len` bytes as a match spanning `span`.
    /// The match holds offsets only: the driver reads the URI from its
    /// input (or rejoins it there, when asked, for a URI in pieces).
    #[inline(always)]
    pub(crate) fn report(
        &mut self,
        vw: &View<'_>,
        len: usize,
        span: Range<usize>,
        ctx: Context,
        scheme_len: usize,
    ) {
        let start = self.segs[0].0;
        let end = self.input_end(len);
        let contiguous = end - start == len;
        debug_assert!(
            contiguous
                || continuation::rejoin(&vw.v[start - vw.base..end - vw.base])
                    == self.text(vw)[..len],
            "a rejoined URI is its input without what joining removes"
        );
        let alt = if self.joins.iter().any(|&j| j < len) {
            self.without_hyphens(&self.text(vw)[..len], scheme_len, ctx)
        } else {
            None
        };
        let shape = if contiguous { Shape::Plain } else { Shape::Joined };
        self.push_found(span, start..end, shape, ctx, alt);
    }

    /// Queues a match, written field by field into the queue's own
    /// memory. (Built first and then moved in, it is stored a word at a
    /// time and at once read back in wider pieces, which the processor
    /// cannot forward from its store buffer: a stall of a dozen cycles at
    /// every match.)
    #[inline(always)]
    fn push_found(
        &mut self,
        span: Range<usize>,
        uri_span: Range<usize>,
        shape: Shape,
        context: Context,
        alt: Option<Box<[u8]>>,
    ) {
        self.queue.push_back(Out::Match(Found::EMPTY));
        if let Some(Out::Match(f)) = self.queue.back_mut() {
            f.span = span;
            f.uri_span = uri_span;
            f.shape = shape;
            f.context = context;
            f.alt = alt;
        }
    }

    /// The candidate `uri` without the hyphens at which line breaks
    /// were joined, when that is a URI too.
    #[cold]
    fn without_hyphens(
        &self,
        uri: &[u8],
        scheme_len: usize,
        ctx: Context,
    ) -> Option<Box<[u8]>> {
        let len = uri.len();
        let mut a = Vec::with_capacity(len);
        let mut last = 0;
        for &j in self.joins.iter().filter(|&&j| j < len) {
            a.extend_from_slice(&uri[last..j]);
            last = j + 1;
        }
        a.extend_from_slice(&uri[last..]);
        self.check(&a, scheme_len, ctx).is_ok().then(|| a.into_boxed_slice())
    }

    /// Reports a delimited match closed at absolute `close`.
    pub(crate) fn report_delimited(
        &mut self,
        vw: &View<'_>,
        len: usize,
        span: Range<usize>,
        ctx: Context,
        scheme_len: usize,
    ) {
        let end = span.end;
        self.report(vw, len, span, ctx, scheme_len);
        self.resume = end;
    }

    /// Reports a bare match of the text's first `len` bytes: its span is
    /// the URI's.
    #[inline(always)]
    pub(crate) fn report_bare(
        &mut self,
        vw: &View<'_>,
        len: usize,
        scheme_len: usize,
    ) {
        let start = self.segs[0].0;
        let end = self.input_end(len);
        self.report(vw, len, start..end, Context::Bare, scheme_len);
        self.resume = end;
    }

    /// Reports a match found by `plain` (which has no alternative
    /// without hyphens): no candidate starts before its end.
    #[inline(always)]
    pub(crate) fn report_found(&mut self, f: Found) {
        self.resume = f.span.end;
        self.push_found(f.span, f.uri_span, f.shape, f.context, None);
    }

    /// The outcome queued last (for the engine's check of `plain`).
    #[cfg(debug_assertions)]
    pub(crate) fn last_queued(&self) -> Option<&Out> {
        self.queue.back()
    }

    /// Reports an abbreviated match: `text[..len]`, whose first `shift`
    /// bytes (the scheme put in front) are not in the input.
    pub(crate) fn report_abbreviated(&mut self, len: usize, shift: usize) {
        let start = self.segs[0].0;
        let end = start + (len - shift);
        debug_assert_eq!(
            [
                super::abbrev::prefix(&self.text[shift..len]),
                &self.text[shift..len]
            ]
            .concat(),
            &self.text[..len],
        );
        self.push_found(
            start..end,
            start..end,
            Shape::Abbreviated,
            Context::Abbreviated,
            None,
        );
        self.resume = end;
    }

    /// Reports the candidate as rejected, when rejections are asked for.
    pub(crate) fn reject(
        &mut self,
        vw: &View<'_>,
        span: Range<usize>,
        ctx: Context,
        f: Refusal,
    ) {
        if !self.opts.rejected {
            return;
        }
        self.queue.push_back(Out::Rejected(Box::new(Rejected {
            span,
            candidate: self.text(vw).to_vec(),
            offset: f.offset,
            reason: Box::new(f.reason),
            context: ctx,
            position: None,
        })));
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
