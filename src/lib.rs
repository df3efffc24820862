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

* [`Finder`] scans byte slices ([`Finder::find_iter`]) and streams
  ([`Finder::stream`]) and yields [`Match`]es.
* [`grammar::Validator`] says whether a string is a URI reference under a
  grammar, and where and why it is not.
* [`uri`] holds the URI model: [`uri::Components`], relative resolution
  and normalization.

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
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod grammar;
pub mod scan;
pub mod uri;

pub use crate::grammar::Grammar;
pub use crate::scan::{Context, Finder, FinderBuilder, Match, Rejected};
