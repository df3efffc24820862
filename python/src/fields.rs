//! The fields of a match, listed once: [`FIELDS`] names each field, its
//! kind and how it is read off a found match. `Match` (its attributes,
//! `to_dict`, its constructor and pickling), the struct of
//! `find_arrow`'s result, `urifind.MATCH_FIELDS` and the Spark type are
//! all built from that list, so a new field is one more entry there.
//!
//! The fields are those of the command's JSON, under one schema in every
//! mode: `context` says where the URI was found (`text` outside mail;
//! `header:NAME`, `text`, `html-href`, `html-text` in a message) and
//! `delimiter` how it was delimited (`bare`, `angle`, `quoted`, ...).
//! The mail fields (`message`, `message_id`, `part`, ...) are null
//! outside mail mode. The link fields (`target`, `wrappers`, `unwrap`,
//! `target_host`, `embedded`, `host_as_read`, `flags`) are those of
//! the finder's link analyzer, made once per match when the first of
//! them is read, null where they do not apply.

use std::borrow::Cow;
use std::cell::OnceCell;

use urifind::link::{Analyzer, Link};
use urifind::mail::MailMatch;

use crate::options::Hyphen;

/// One match as the fields read it: the scanner's match, and the mail
/// reader's when the input was read as mail.
pub struct Hit<'a> {
    /// The match, offsets in the raw input.
    pub m: &'a urifind::Match<'a>,
    /// The same match with where in a message it was found (mail mode).
    pub mail: Option<&'a MailMatch>,
    /// Which form of a hyphenated URI is `uri`.
    pub hyphen: Hyphen,
    /// The finder's link analyzer (its grammar, IRIs, browser hosts).
    pub analyzer: &'a Analyzer,
    /// The match's link analysis, made when first asked.
    pub link: &'a OnceCell<Link>,
}

impl<'a> Hit<'a> {
    /// The match's link analysis: of the URI as found, as the command's
    /// JSON makes it; made once, whichever link field asks first.
    pub fn link(&self) -> &'a Link {
        self.link.get_or_init(|| self.analyzer.analyze(self.m.uri()))
    }
}

/// The type of a field's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A byte offset into the input, turned into a character offset for
    /// text (`str`, Arrow strings); never null.
    Offset,
    /// An integer, never null.
    Int,
    /// An integer or null.
    OptInt,
    /// A string, never null.
    Str,
    /// A string or null.
    OptStr,
    /// A list of strings, or null.
    StrList,
}

/// A field's value for one match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    /// `Offset`, `Int` and `OptInt`.
    Int(i64),
    /// `Str` and `OptStr`.
    Str(Cow<'a, str>),
    /// `Str`: the URI of a match, in the form the hyphen choice reports,
    /// left to be written where it goes ([`write_uri`]), so that a
    /// rejoined URI is not put together in memory of its own first.
    Uri(&'a urifind::Match<'a>, Hyphen),
    /// `StrList`.
    List(Vec<Cow<'a, str>>),
    /// Null, for the optional kinds.
    Null,
}

impl Value<'_> {
    /// The value with nothing borrowed.
    pub fn into_owned(self) -> Value<'static> {
        match self {
            Value::Int(i) => Value::Int(i),
            Value::Str(s) => Value::Str(Cow::Owned(s.into_owned())),
            Value::Uri(m, hyphen) => {
                Value::Str(Cow::Owned(uri_text(m, hyphen).into_owned()))
            }
            Value::List(l) => Value::List(
                l.into_iter().map(|s| Cow::Owned(s.into_owned())).collect(),
            ),
            Value::Null => Value::Null,
        }
    }
}

/// What a field is read from, so that a scan that builds many matches
/// can tell a null value without reading the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The match itself: read for every match.
    Match,
    /// The mail reader's match: null outside mail mode.
    Mail,
    /// The link analysis: null when the analysis is empty
    /// ([`Link::is_empty`]).
    Link,
}

/// One field: its name, its kind, what it comes from and how it is read.
pub struct Field {
    /// The name (attribute, dict key, struct field).
    pub name: &'static str,
    /// The type of its values.
    pub kind: Kind,
    /// What its value comes from.
    pub from: Source,
    /// Its value for a match.
    pub read: for<'a> fn(&Hit<'a>) -> Value<'a>,
}

/// Bytes as text: URIs are ASCII, so the fast check almost always
/// passes; anything else is kept readable.
pub fn text(b: &[u8]) -> Cow<'_, str> {
    // `from_utf8` reads ASCII a word at a time, `from_utf8_lossy` a
    // chunk of UTF-8 at a time.
    match std::str::from_utf8(b) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(b),
    }
}

/// The URI of `m` as reported: the form `hyphen` chooses.
pub fn uri_text<'a>(
    m: &'a urifind::Match<'a>,
    hyphen: Hyphen,
) -> Cow<'a, str> {
    text(hyphen.primary(m.uri(), m.without_hyphen()))
}

/// Appends the bytes of [`uri_text`] (before any repair of bytes that
/// are not UTF-8) to `out`.
pub fn write_uri(m: &urifind::Match<'_>, hyphen: Hyphen, out: &mut Vec<u8>) {
    match m.without_hyphen() {
        None => m.write_uri(out),
        alt => out.extend_from_slice(hyphen.primary(m.uri(), alt)),
    }
}

fn int(n: usize) -> Value<'static> {
    Value::Int(n as i64)
}

fn opt_str(s: Option<&str>) -> Value<'_> {
    s.map_or(Value::Null, |s| Value::Str(s.into()))
}

/// The mail match's `f`, null outside mail.
fn mail<'a>(
    h: &Hit<'a>,
    f: impl FnOnce(&'a MailMatch) -> Value<'a>,
) -> Value<'a> {
    h.mail.map_or(Value::Null, f)
}

/// A list of names, null when empty (as JSON leaves it out).
fn names<'a, T: 'a>(
    items: &'a [T],
    name: impl Fn(&'a T) -> &'a str,
) -> Value<'a> {
    if items.is_empty() {
        Value::Null
    } else {
        Value::List(items.iter().map(|t| Cow::Borrowed(name(t))).collect())
    }
}

/// Every field of a match, in order.
pub static FIELDS: &[Field] = &[
    Field {
        name: "uri",
        kind: Kind::Str,
        from: Source::Match,
        read: |h| Value::Uri(h.m, h.hyphen),
    },
    Field {
        name: "start",
        kind: Kind::Offset,
        from: Source::Match,
        read: |h| int(h.m.uri_span().start),
    },
    Field {
        name: "end",
        kind: Kind::Offset,
        from: Source::Match,
        read: |h| int(h.m.uri_span().end),
    },
    Field {
        name: "span_start",
        kind: Kind::Offset,
        from: Source::Match,
        read: |h| int(h.m.span().start),
    },
    Field {
        name: "span_end",
        kind: Kind::Offset,
        from: Source::Match,
        read: |h| int(h.m.span().end),
    },
    Field {
        name: "byte_start",
        kind: Kind::Int,
        from: Source::Match,
        read: |h| int(h.m.uri_span().start),
    },
    Field {
        name: "byte_end",
        kind: Kind::Int,
        from: Source::Match,
        read: |h| int(h.m.uri_span().end),
    },
    Field {
        name: "byte_span_start",
        kind: Kind::Int,
        from: Source::Match,
        read: |h| int(h.m.span().start),
    },
    Field {
        name: "byte_span_end",
        kind: Kind::Int,
        from: Source::Match,
        read: |h| int(h.m.span().end),
    },
    Field {
        name: "context",
        kind: Kind::Str,
        from: Source::Match,
        read: |h| match h.mail {
            Some(mm) => Value::Str(mm.context().name().into()),
            None => Value::Str("text".into()),
        },
    },
    Field {
        name: "delimiter",
        kind: Kind::Str,
        from: Source::Match,
        read: |h| Value::Str(h.m.context().name().into()),
    },
    Field {
        name: "without_hyphen",
        kind: Kind::OptStr,
        from: Source::Match,
        read: |h| {
            h.m.without_hyphen().map_or(Value::Null, |a| Value::Str(text(a)))
        },
    },
    Field {
        name: "message",
        kind: Kind::OptInt,
        from: Source::Mail,
        read: |h| mail(h, |mm| int(mm.origin().message())),
    },
    Field {
        name: "message_id",
        kind: Kind::OptStr,
        from: Source::Mail,
        read: |h| mail(h, |mm| opt_str(mm.origin().message_id())),
    },
    Field {
        name: "part",
        kind: Kind::OptStr,
        from: Source::Mail,
        read: |h| mail(h, |mm| Value::Str(mm.origin().part().into())),
    },
    Field {
        name: "content_type",
        kind: Kind::OptStr,
        from: Source::Mail,
        read: |h| mail(h, |mm| Value::Str(mm.origin().content_type().into())),
    },
    Field {
        name: "encoding",
        kind: Kind::OptStr,
        from: Source::Mail,
        read: |h| mail(h, |mm| Value::Str(mm.origin().encoding().into())),
    },
    Field {
        name: "shown",
        kind: Kind::OptStr,
        from: Source::Mail,
        read: |h| {
            mail(h, |mm| {
                mm.shown().map_or(Value::Null, |s| Value::Str(text(s)))
            })
        },
    },
    Field {
        name: "parts_seen",
        kind: Kind::StrList,
        from: Source::Mail,
        read: |h| {
            mail(h, |mm| {
                Value::List(
                    mm.parts_seen()
                        .iter()
                        .map(|p| p.as_str().into())
                        .collect(),
                )
            })
        },
    },
    Field {
        name: "target",
        kind: Kind::OptStr,
        from: Source::Link,
        read: |h| opt_str(h.link().target.as_deref()),
    },
    Field {
        name: "wrappers",
        kind: Kind::StrList,
        from: Source::Link,
        read: |h| names(&h.link().wrappers, |f| f.name()),
    },
    Field {
        name: "unwrap",
        kind: Kind::OptStr,
        from: Source::Link,
        read: |h| opt_str(h.link().unwrap.map(|u| u.name())),
    },
    Field {
        name: "target_host",
        kind: Kind::OptStr,
        from: Source::Link,
        read: |h| opt_str(h.link().target_host.as_deref()),
    },
    Field {
        name: "embedded",
        kind: Kind::StrList,
        from: Source::Link,
        read: |h| names(&h.link().embedded, String::as_str),
    },
    Field {
        name: "host_as_read",
        kind: Kind::OptStr,
        from: Source::Link,
        read: |h| opt_str(h.link().host_as_read.as_deref()),
    },
    Field {
        name: "flags",
        kind: Kind::StrList,
        from: Source::Link,
        read: |h| names(&h.link().flags, |f| f.name()),
    },
];

/// The index of the field named `name`.
pub fn index(name: &str) -> Option<usize> {
    FIELDS.iter().position(|f| f.name == name)
}

/// The indexes of the fields named in `names`, in that order: every
/// name must be a field's, and none may come twice.
///
/// # Errors
///
/// A message naming the first unknown or repeated name.
pub fn select<S: AsRef<str>>(names: &[S]) -> Result<Vec<usize>, String> {
    let mut out = Vec::with_capacity(names.len());
    for name in names {
        let name = name.as_ref();
        let Some(i) = index(name) else {
            return Err(format!(
                "no match field is named {name:?} (the fields are those \
                 of urifind.MATCH_FIELDS: {})",
                FIELDS.iter().map(|f| f.name).collect::<Vec<_>>().join(", ")
            ));
        };
        if out.contains(&i) {
            return Err(format!("the field {name:?} is asked for twice"));
        }
        out.push(i);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The match of `text` as `Hit` and link analysis read it.
    fn hits(text: &[u8], mut f: impl FnMut(&Hit<'_>)) {
        let finder = urifind::Finder::new();
        let analyzer = finder.link_analyzer();
        let mut n = 0;
        for m in finder.find_iter(text) {
            let link = OnceCell::new();
            f(&Hit {
                m: &m,
                mail: None,
                hyphen: Hyphen::Keep,
                analyzer: &analyzer,
                link: &link,
            });
            n += 1;
        }
        assert!(n > 0, "no match in {text:?}");
    }

    #[test]
    fn outside_mail_the_mail_fields_are_null() {
        hits(b"see <http://a.example/x> and mailto:b@c.example", |h| {
            for f in FIELDS.iter().filter(|f| f.from == Source::Mail) {
                assert_eq!((f.read)(h), Value::Null, "{}", f.name);
            }
        });
    }

    #[test]
    fn an_empty_analysis_leaves_every_link_field_null() {
        let text = b"http://a.example/ https://b.example/p#f urn:x:y \
                     http://a.example/?q=1 http://user@b.example/";
        let mut empty = 0;
        hits(text, |h| {
            if h.link().is_empty() {
                empty += 1;
                for f in FIELDS.iter().filter(|f| f.from == Source::Link) {
                    assert_eq!((f.read)(h), Value::Null, "{}", f.name);
                }
            }
        });
        assert!(empty >= 3, "{empty} empty analyses");
        // And a link that is not empty sets some link field.
        hits(
            b"https://l.facebook.com/l.php?u=https%3A%2F%2Fa.example%2F&h=x",
            |h| {
                assert!(!h.link().is_empty());
                assert!(FIELDS
                    .iter()
                    .filter(|f| f.from == Source::Link)
                    .any(|f| (f.read)(h) != Value::Null));
            },
        );
    }

    #[test]
    fn a_selection_keeps_its_order_and_refuses_bad_names() {
        assert_eq!(select(&["end", "uri"]), Ok(vec![2, 0]));
        assert_eq!(select::<&str>(&[]), Ok(vec![]));
        let e = select(&["uri", "URI"]).unwrap_err();
        assert!(e.contains("\"URI\"") && e.contains("uri, start"), "{e}");
        let e = select(&["start", "start"]).unwrap_err();
        assert!(e.contains("twice"), "{e}");
    }
}
