//! Judging a candidate: whether its scheme is taken in its context,
//! and whether its text passes the grammar, the scheme rules and
//! docs/CONTRACT.md's rules on what may be extracted.

use crate::grammar::{schemes, IriValidator, Part, Validator};
use crate::scan::refusal::{Refusal, RejectReason};
use crate::scan::{Context, FinderBuilder};

/// The checks a candidate must pass, set up once for the options the
/// finder was built with.
pub(crate) struct Judge<'f> {
    opts: &'f FinderBuilder,
    validator: Validator,
    /// With IRIs, for candidates that hold non-ASCII characters: RFC
    /// 3987, then `validator` on the mapped URI.
    iri: Option<IriValidator>,
}

impl<'f> Judge<'f> {
    pub(crate) fn new(opts: &'f FinderBuilder) -> Judge<'f> {
        let validator =
            Validator::new(opts.grammar).absolute(true).scheme_rules(true);
        Judge {
            opts,
            validator,
            iri: opts
                .iri
                .then(|| IriValidator::new().absolute(true).mapped(validator)),
        }
    }

    /// The options the finder was built with.
    #[inline]
    pub(crate) fn opts(&self) -> &'f FinderBuilder {
        self.opts
    }

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

    /// [`Judge::common_prefix`] for the plainest URIs: no escape,
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

    /// Checks `t`, a candidate's text (or a prefix of it), as a whole
    /// candidate.
    #[inline(always)]
    pub(crate) fn check(
        &self,
        t: &[u8],
        scheme_len: usize,
        ctx: Context,
    ) -> Result<(), Refusal> {
        // The common shape (`http://host/path`, a non-empty authority)
        // passes every check.
        if t.len() <= self.opts.max_uri_len
            && self.validator.is_common_after(t, scheme_len)
        {
            return Ok(());
        }
        self.check_every_rule(t, scheme_len, ctx)
    }

    /// The checks on a whole candidate text: grammar and scheme rules,
    /// then docs/CONTRACT.md's rules on what may be extracted (without
    /// [`Judge::check`]'s quick pass for the common shape).
    pub(crate) fn check_every_rule(
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

    /// [`Judge::check_every_rule`] without browser hosts.
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
