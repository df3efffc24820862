/*!
Find URIs in plain text the way a careful reader of mail and news would, and
validate every one of them strictly against the URI grammar.

urifind implements the "Recommendations for Delimiting URI in Context"
(Appendix E of draft-fielding-uri-rfc2396bis-00): URIs in angle brackets
(with or without `URL:`), in double quotes, and bare in prose; line breaks
inside delimiters are rejoined, mail quote prefixes on continuation lines
are dropped, a hyphen at a line break is handled, and trailing sentence
punctuation is trimmed. Every candidate then passes a strict validator of
the chosen grammar (rfc2396bis-00 by default, RFC 2396 or RFC 3986).

# Overview

* [`Finder`] scans byte slices ([`Finder::find_iter`], [`Finder::items`]),
  readers ([`Finder::stream`], or [`Finder::stream_read_ahead`] with a
  second thread reading) and pushed chunks ([`Finder::feeder`]) and
  yields [`Match`]es (and, when asked, [`Rejected`] candidates with the
  reason). Slices, streams and feeders report the same items at the same
  absolute offsets, however the input is split.
* [`grammar::Validator`] says whether a string is a URI reference under a
  [`Grammar`] (rfc2396bis-00 by default, RFC 2396, RFC 3986), and where and
  why it is not; [`grammar::schemes`] holds the IANA scheme registry.
* [`iri::Iri`] is an IRI (RFC 3987) and its mapping to a URI
  ([`iri::Iri::to_uri`]); [`grammar::IriValidator`] checks RFC 3987's
  grammar.
* [`link`] says where a link leads: the target of a wrapped link (Safe
  Links, URL Defense, redirectors), links embedded in a query, the host
  as a browser reads it ([`Match::link`], [`link::analyze`]).
* [`uri`] holds the URI model: [`uri::Components`] (Appendix B), relative
  resolution ([`uri::resolve`], section 5.2) and normalization
  ([`uri::normalize`], [`uri::equivalent`], section 6).

# Guarantees

* Linear time whatever the input: every decision looks at a bounded
  window around a trigger, overlapping candidates share their scans, and an
  unclosed `<` costs at most the bracket bound (2048 bytes by default).
* Bounded memory when streaming: the window (twice the longest URI plus
  the bracket bound, about 140 KiB by default) and one 256 KiB read buffer
  (with read-ahead: at most four 1.25 MiB blocks).
* Every reported URI is valid under the chosen grammar and the IP-based
  scheme rules; non-UTF-8 input is fine (URIs are ASCII).
* No `unsafe` code.

# Example: find URIs in text

```
let text = b"see <http://www.ics.uci.edu/pub/\n  ietf/uri/> and http://a.example/x.";
let finder = urifind::Finder::new();
let uris: Vec<String> = finder
    .find_iter(text)
    .map(|m| String::from_utf8_lossy(m.uri()).into_owned())
    .collect();
assert_eq!(uris, ["http://www.ics.uci.edu/pub/ietf/uri/", "http://a.example/x"]);
```

# Example: validate a URI

```
use urifind::grammar::{Grammar, Validator};

let v = Validator::new(Grammar::Rfc2396bis);
assert!(v.validate(b"http://a/b/c/d;p?q").is_ok());
let err = v.validate(b"http://a/b%zz").unwrap_err();
assert_eq!(err.offset(), 10);
```
*/
#![forbid(unsafe_code)]
#![warn(
    missing_docs,
    missing_debug_implementations,
    rust_2018_idioms,
    unreachable_pub,
    unused_qualifications,
    clippy::doc_markdown,
    clippy::missing_errors_doc,
    clippy::missing_panics_doc,
    rustdoc::broken_intra_doc_links,
    rustdoc::private_intra_doc_links,
    rustdoc::bare_urls
)]

mod charref;
pub mod grammar;
pub mod iri;
pub mod link;
pub mod mail;
pub mod scan;
pub mod uri;

pub use crate::grammar::Grammar;
pub use crate::scan::{
    BuildError, Context, Finder, FinderBuilder, Hyphen, Match, RejectReason,
    Rejected,
};

/// The README's examples, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
