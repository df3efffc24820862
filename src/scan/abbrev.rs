//! Abbreviated URIs (Appendix F of the draft, only with
//! [`FinderBuilder::abbrev`](crate::FinderBuilder::abbrev)): `www.` and
//! `ftp.` not glued to a word start a host name, reported with `http://`
//! or `ftp://` put in front when the host looks like one (a name with a
//! dot) and the whole is a URI.

use crate::scan::brackets::{self, Depths};
use crate::scan::candidate::Candidate;
use crate::scan::decision::{Verdict, View};
use crate::scan::item;
use crate::scan::judge::Judge;
use crate::scan::text::{host_only, rejects_non_ascii};
use crate::scan::Context;

/// The first `www.` or `ftp.` (any case) at or after `buf[from]` that
/// is not glued to the byte before it (nor is it when `buf` holds none).
/// Found by its dot: the leftmost dot with either name right before it
/// starts the leftmost trigger, since neither pattern can overlap
/// another. Dots are frequent in text, but each costs a look at a few
/// bytes, where a general multi-pattern search pays its setup at every
/// hit (text made of glued triggers ran at a fifth of the speed).
#[inline]
pub(crate) fn next(buf: &[u8], from: usize) -> Option<usize> {
    let after = buf.get(from + 3..)?;
    memchr::memchr_iter(b'.', after).map(|i| from + i).find(|&i| {
        // (`| 0x20` folds only ASCII capitals onto these letters.)
        let name = [buf[i] | 0x20, buf[i + 1] | 0x20, buf[i + 2] | 0x20];
        (&name == b"www" || &name == b"ftp") && (i == 0 || !glued(buf[i - 1]))
    })
}

/// Whether a `www.`/`ftp.` after the byte `p` is glued to a word, and so
/// no abbreviated URI (`x.www.a`, `a@ftp.b`, `http://www.`).
#[inline]
pub(crate) fn glued(p: u8) -> bool {
    p.is_ascii_alphanumeric()
        || matches!(p, b'.' | b'-' | b'@' | b'/' | b':' | b'%' | b'_' | b'+')
}

/// `www.` or `ftp.` at `v[w]`.
pub(crate) fn scan(
    cand: &mut Candidate,
    judge: &Judge<'_>,
    vw: &View<'_>,
    w: usize,
) -> Verdict {
    let v = vw.v;
    if w < vw.lo {
        return Verdict::Pass;
    }
    if w > 0 && glued(v[w - 1]) {
        return Verdict::Pass;
    }
    let prefix = item::prefix(&v[w..]);
    vw.touch(w + 4);
    let cap = (w + judge.opts().max_uri_len + 1).min(v.len());
    let e = vw.run(w, cap);
    let e = brackets::cut(v, w, e, &mut Depths::default());
    if rejects_non_ascii(v, e) {
        return Verdict::Pass;
    }
    cand.start_abbreviated(prefix, v, vw.base, w, e);
    let scheme_len = prefix.len() - 3;
    // Text offsets are shifted by the prefix.
    let shift = prefix.len();
    let ctx = Context::Abbreviated;
    let mut len = cand.trimmed(vw, cand.text(vw).len(), scheme_len);
    let mut res = judge.check(&cand.text(vw)[..len], scheme_len, ctx);
    if let Err(f) = &res {
        if f.tail {
            len = cand.trimmed(vw, f.offset, scheme_len);
            res = judge.check(&cand.text(vw)[..len], scheme_len, ctx);
        }
    }
    // The host must look like one: a name with a dot (Appendix F's
    // `www.w3.org`), not `www.` alone.
    let rest = &cand.text(vw)[shift..len];
    let auth_end = rest
        .iter()
        .position(|&x| matches!(x, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    if res.is_ok() && len > shift + 4 && host_only(&rest[..auth_end]) {
        debug_assert_eq!(
            [item::prefix(rest), rest].concat(),
            &cand.text(vw)[..len],
        );
        return Verdict::Match(cand.found_abbreviated(len, shift));
    }
    Verdict::Pass
}

#[cfg(test)]
mod tests {
    use super::{glued, next};

    /// The first trigger the plain way: every offset in turn.
    fn naive(buf: &[u8], from: usize) -> Option<usize> {
        (from..buf.len().saturating_sub(3)).find(|&i| {
            let w = &buf[i..i + 4];
            (w.eq_ignore_ascii_case(b"www.")
                || w.eq_ignore_ascii_case(b"ftp."))
                && (i == 0 || !glued(buf[i - 1]))
        })
    }

    #[test]
    fn next_finds_what_every_offset_would() {
        let mut rnd = crate::scan::tests::support::splitmix(0xabb1);
        for round in 0..20_000 {
            let n = (rnd() % 40) as usize;
            let buf: Vec<u8> = (0..n)
                .map(|_| b"wWfFtTpP. :x/"[(rnd() % 13) as usize])
                .collect();
            let from = (rnd() % (n as u64 + 1)) as usize;
            assert_eq!(
                next(&buf, from),
                naive(&buf, from),
                "{round} {buf:?} {from}"
            );
        }
        assert_eq!(next(b"see WWW.a.b", 0), Some(4));
        assert_eq!(next(b":www.a x.ftp. ftp.b", 0), Some(14));
    }
}
