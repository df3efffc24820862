//! Abbreviated URIs (Appendix F of the draft, only with
//! [`FinderBuilder::abbrev`](crate::FinderBuilder::abbrev)): `www.` and
//! `ftp.` not glued to a word start a host name, reported with `http://`
//! or `ftp://` put in front when the host looks like one (a name with a
//! dot) and the whole is a URI.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

use crate::scan::bare::rejects_non_ascii;
use crate::scan::brackets::{self, Depths};
use crate::scan::candidate::{host_only, Candidates};
use crate::scan::engine::View;
use crate::scan::Context;

/// The searcher for the triggers of abbreviated URIs.
pub(crate) fn searcher() -> AhoCorasick {
    AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::LeftmostFirst)
        .build(["www.", "ftp."])
        .expect("two literal patterns always build")
}

/// Whether a `www.`/`ftp.` after the byte `p` is glued to a word, and so
/// no abbreviated URI (`x.www.a`, `a@ftp.b`, `http://www.`).
#[inline]
pub(crate) fn glued(p: u8) -> bool {
    p.is_ascii_alphanumeric()
        || matches!(p, b'.' | b'-' | b'@' | b'/' | b':' | b'%' | b'_' | b'+')
}

/// The scheme and `//` put in front of the abbreviated URI `uri` (which
/// starts with `www.` or `ftp.`).
#[inline]
pub(crate) fn prefix(uri: &[u8]) -> &'static [u8] {
    if uri.len() >= 3 && uri[..3].eq_ignore_ascii_case(b"ftp") {
        b"ftp://"
    } else {
        b"http://"
    }
}

/// `www.` or `ftp.` at `v[w]`.
pub(crate) fn scan(cands: &mut Candidates<'_>, vw: &View<'_>, w: usize) {
    let v = vw.v;
    if w < vw.lo {
        return;
    }
    if w > 0 && glued(v[w - 1]) {
        return;
    }
    let prefix = prefix(&v[w..]);
    vw.touch(w + 4);
    let cap = (w + cands.opts().max_uri_len + 1).min(v.len());
    let e = vw.run(w, cap);
    let e = brackets::cut(v, w, e, &mut Depths::default());
    if rejects_non_ascii(v, e) {
        return;
    }
    cands.start_abbreviated(prefix, v, vw.base, w, e);
    let scheme_len = prefix.len() - 3;
    // Text offsets are shifted by the prefix.
    let shift = prefix.len();
    let ctx = Context::Abbreviated;
    let mut len = cands.trimmed(vw, cands.text(vw).len(), scheme_len);
    let mut res = cands.check_len(vw, len, scheme_len, ctx);
    if let Err(f) = &res {
        if f.tail {
            len = cands.trimmed(vw, f.offset, scheme_len);
            res = cands.check_len(vw, len, scheme_len, ctx);
        }
    }
    // The host must look like one: a name with a dot (Appendix F's
    // `www.w3.org`), not `www.` alone.
    let rest = &cands.text(vw)[shift..len];
    let auth_end = rest
        .iter()
        .position(|&x| matches!(x, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    if res.is_ok() && len > shift + 4 && host_only(&rest[..auth_end]) {
        cands.report_abbreviated(len, shift);
    }
}
