//! Why a candidate fails: the judge's refusal ([`Refusal`]: where, why,
//! and whether a shorter prefix may still pass), and the reason a
//! rejection reported to the user carries ([`RejectReason`]).

use crate::grammar::{Error, Part};
#[cfg(doc)]
use crate::scan::FinderBuilder;

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

/// Why a candidate was rejected
/// ([`Rejected::reason`](crate::scan::Rejected::reason)).
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
