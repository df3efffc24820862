//! Mail and news: find URIs in messages the way a mail reader shows them.
//!
//! Raw mail is mostly MIME: quoted-printable and base64 bodies, HTML
//! parts, charsets, RFC 2047 encoded words. Scanning its bytes finds
//! fragments (`https://a.example/?id=3D2103`) and misses whatever is
//! base64. This module reads each message first:
//!
//! * [`Messages`] splits an mbox (or reads one message) from any reader,
//!   message by message in bounded memory; [`message_ranges`] and
//!   [`next_message_start`] find the same messages in bytes held in
//!   memory (or a window of a large file);
//! * [`Message::items`] parses it with `mail-parser` (headers, MIME
//!   structure, nested `message/rfc822` parts and digests), undoes
//!   transfer encodings and charsets, reads HTML parts with its own
//!   HTML tokenizer,
//!   and runs the ordinary [`Finder`] on the decoded text;
//! * every [`MailMatch`] says where it came from (message number,
//!   `Message-ID`, MIME part, content type, transfer encoding, context)
//!   and carries byte offsets into the raw input, mapped back through
//!   every decoding step.
//!
//! A message with no transfer encoding, no HTML, no encoded words and no
//! attachments gives exactly the matches the plain scanner gives on its
//! bytes, in the same order.
//!
//! Broken mail (a missing boundary, a truncated part, bad base64, an
//! unknown charset) is read as far as it goes and the rest is scanned as
//! raw text, with a [`MailNote`] saying so; nothing stops the other
//! messages of an mbox.
//!
//! # Example
//!
//! ```
//! use urifind::mail::{MailFinder, Messages};
//!
//! let mbox = b"From ana@example.org Tue Nov  3 10:00:00 2026\n\
//! From: Ana <ana@example.org>\n\
//! Subject: links\n\
//! Content-Type: text/plain; charset=utf-8\n\
//! Content-Transfer-Encoding: quoted-printable\n\
//! \n\
//! The bug is https://bugs.example.org/show_bug.cgi?id=3D2103 and =\n\
//! https://lists.example.org/a/very/long/pa=\n\
//! th.html\n";
//! let mf = MailFinder::new(urifind::Finder::new());
//! let mut uris = Vec::new();
//! for msg in Messages::new(&mbox[..]) {
//!     for m in msg.unwrap().matches(&mf) {
//!         uris.push(String::from_utf8_lossy(m.uri()).into_owned());
//!         // The raw bytes of the match are where the user can see them.
//!         assert!(m.span().end <= mbox.len());
//!     }
//! }
//! assert_eq!(
//!     uris,
//!     [
//!         "https://bugs.example.org/show_bug.cgi?id=2103",
//!         "https://lists.example.org/a/very/long/path.html",
//!     ]
//! );
//! ```

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use crate::scan::{Context, Finder, Match, Position, Rejected};

mod decode;
pub mod detect;
mod flat;
mod found;
mod headers;
mod html;
mod mbox;
mod mbox_ranges;
mod mime;
mod offsets;
mod quick_head;

#[doc(hidden)]
pub use html::link_count as html_link_count;
#[cfg(feature = "html-oracle")]
#[doc(hidden)]
pub use html::oracle::compare as html_oracle_compare;
pub use mbox::{Message, Messages, DEFAULT_MAX_MESSAGE};
pub use mbox_ranges::{
    is_message_start, judged_len, message_ranges, message_starts,
    next_message_start, MessageRanges, LOOKBEHIND,
};

/// Where in a message a URI was found.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MailContext {
    /// A header field, by the name written in the message
    /// (`header:List-Unsubscribe`).
    Header(String),
    /// A plain text part (or text read as such).
    Text,
    /// The target of an `<a href>` or `<area href>` of an HTML part.
    HtmlHref,
    /// The visible text of an HTML part.
    HtmlText,
    /// A markup resource of an HTML part (`<img src>`, `<link href>`,
    /// `xmlns`, the DOCTYPE, CSS `url(...)`): only with
    /// [`MailFinder::html_resources`].
    HtmlResource,
}

impl MailContext {
    /// The name used in output: `header:NAME`, `text`, `html-href`,
    /// `html-text`, `html-resource`.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::mail::MailContext;
    ///
    /// let c = MailContext::Header("List-Post".into());
    /// assert_eq!(c.name(), "header:List-Post");
    /// assert_eq!(MailContext::HtmlHref.name(), "html-href");
    /// ```
    pub fn name(&self) -> String {
        self.to_string()
    }
}

/// Writes [`MailContext::name`] without building a `String`.
impl fmt::Display for MailContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MailContext::Header(h) => write!(f, "header:{h}"),
            MailContext::Text => f.write_str("text"),
            MailContext::HtmlHref => f.write_str("html-href"),
            MailContext::HtmlText => f.write_str("html-text"),
            MailContext::HtmlResource => f.write_str("html-resource"),
        }
    }
}

/// The MIME part a match came from.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct PartInfo {
    /// IMAP-style part path (`1.2`); empty for the top-level headers.
    pub(crate) path: String,
    /// `type/subtype`, lower case.
    pub(crate) content_type: String,
    /// The transfer encoding as written (lower case), or empty.
    pub(crate) encoding: String,
}

/// Where a match or note came from, shared by the items of one part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    message: usize,
    message_id: Option<Arc<str>>,
    part: Arc<PartInfo>,
}

impl Origin {
    /// The message number in the input, from 1.
    pub fn message(&self) -> usize {
        self.message
    }
    /// The message's `Message-ID` without its angle brackets, if any.
    pub fn message_id(&self) -> Option<&str> {
        self.message_id.as_deref()
    }
    /// The MIME part path (`1`, `2.1`, ...), IMAP style; empty for the
    /// top-level header block. The headers of a nested message have the
    /// path of its `message/rfc822` part.
    pub fn part(&self) -> &str {
        &self.part.path
    }
    /// The part's content type, `type/subtype` in lower case (empty for
    /// headers).
    pub fn content_type(&self) -> &str {
        &self.part.content_type
    }
    /// The part's transfer encoding in lower case (`quoted-printable`,
    /// `base64`, `7bit`, ...), empty when none was given.
    pub fn encoding(&self) -> &str {
        &self.part.encoding
    }
}

/// A URI found in a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailMatch {
    pub(crate) origin: Origin,
    pub(crate) context: MailContext,
    pub(crate) inner: Match<'static>,
    pub(crate) shown: Option<Vec<u8>>,
    pub(crate) parts_seen: Vec<String>,
}

impl MailMatch {
    /// Where it was found: message, `Message-ID`, part, content type,
    /// transfer encoding.
    pub fn origin(&self) -> &Origin {
        &self.origin
    }
    /// The context: a header, text, an HTML link target or visible text.
    pub fn context(&self) -> &MailContext {
        &self.context
    }
    /// The URI, decoded (delimiters and embedded whitespace removed).
    pub fn uri(&self) -> &[u8] {
        self.inner.uri()
    }
    /// When the hyphen rule applied, the form without the hyphen.
    pub fn without_hyphen(&self) -> Option<&[u8]> {
        self.inner.without_hyphen()
    }
    /// How the URI was delimited in the decoded text (angle brackets,
    /// quotes, bare); an `href` counts as angle-bracketed.
    pub fn delimiter(&self) -> Context {
        self.inner.context()
    }
    /// The raw bytes of the whole match in the input, delimiters
    /// included: from the first raw byte of its first decoded byte to
    /// the last raw byte of its last (through quoted-printable escapes,
    /// soft line breaks and base64 quanta).
    pub fn span(&self) -> Range<usize> {
        self.inner.span()
    }
    /// The raw bytes of the URI itself in the input.
    pub fn uri_span(&self) -> Range<usize> {
        self.inner.uri_span()
    }
    /// Line and column (1-based, bytes) of the span's start in the raw
    /// input, when lines were counted ([`Messages::count_lines`]).
    pub fn position(&self) -> Option<Position> {
        self.inner.position()
    }
    /// For a link target whose visible text shows a different URI: that
    /// URI (the mismatch mail filters flag as phishing).
    pub fn shown(&self) -> Option<&[u8]> {
        self.shown.as_deref()
    }
    /// In a `multipart/alternative`, every part the URI was seen in (the
    /// match is reported once, from the first); empty elsewhere.
    pub fn parts_seen(&self) -> &[String] {
        &self.parts_seen
    }
    /// The match as the plain scanner reports one, its offsets and
    /// position in the raw input: what raw-mode code already handles.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::mail::{MailFinder, Message};
    ///
    /// let msg = Message::from_bytes(
    ///     b"Content-Transfer-Encoding: quoted-printable\n\nhttp://a.ex=\nample/\n".to_vec(),
    /// );
    /// let mf = MailFinder::new(urifind::Finder::new());
    /// let m = msg.matches(&mf).next().unwrap().into_match();
    /// assert_eq!(m.uri(), b"http://a.example/");
    /// assert_eq!(m.span(), 45..64);
    /// ```
    pub fn into_match(self) -> Match<'static> {
        self.inner
    }
    /// The match as the plain scanner reports one (see
    /// [`MailMatch::into_match`]).
    pub fn as_match(&self) -> &Match<'static> {
        &self.inner
    }
}

/// A candidate the validator rejected (only with
/// [`crate::FinderBuilder::rejected`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailRejected {
    pub(crate) origin: Origin,
    pub(crate) context: MailContext,
    pub(crate) inner: Rejected,
}

impl MailRejected {
    /// Where it was found.
    pub fn origin(&self) -> &Origin {
        &self.origin
    }
    /// The context it was found in.
    pub fn context(&self) -> &MailContext {
        &self.context
    }
    /// The candidate (decoded), its fault and reason, and its raw span
    /// and position in the input, as the plain scanner reports them.
    pub fn as_rejected(&self) -> &Rejected {
        &self.inner
    }
    /// See [`MailRejected::as_rejected`].
    pub fn into_rejected(self) -> Rejected {
        self.inner
    }
}

/// Something about a message that was not read as MIME says it should
/// be: a missing boundary, bad base64, an unknown charset, a message
/// over the size limit. The text concerned was scanned as raw text (or,
/// for a message over the limit, skipped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailNote {
    pub(crate) origin: Origin,
    pub(crate) reason: String,
    pub(crate) span: Range<usize>,
    pub(crate) position: Option<Position>,
}

impl MailNote {
    /// Where it happened.
    pub fn origin(&self) -> &Origin {
        &self.origin
    }
    /// What happened, in words.
    pub fn reason(&self) -> &str {
        &self.reason
    }
    /// The raw bytes concerned.
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }
    /// Line and column of the span's start, when lines were counted.
    pub fn position(&self) -> Option<Position> {
        self.position
    }
}

/// What reading a message reports.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MailItem {
    /// A URI.
    Match(MailMatch),
    /// A rejected candidate (when the finder reports them).
    Rejected(MailRejected),
    /// A note on broken mail.
    Note(MailNote),
}

/// Finds URIs in messages: a [`Finder`] for the decoded text and the
/// options of mail mode. Build once, use for every message.
///
/// # Example
///
/// ```
/// use urifind::mail::{MailContext, MailFinder, Messages};
///
/// let msg = b"From: a@example.org\nDate: Tue, 3 Nov 2026 10:00:00 +0100\n\
/// Content-Type: text/html\n\n\
/// <p><a href=\"https://evil.example/login\">https://bank.example/</a></p>\n";
/// let mf = MailFinder::new(urifind::Finder::new());
/// let msg = Messages::new(&msg[..]).next().unwrap().unwrap();
/// let m: Vec<_> = msg.matches(&mf).collect();
/// assert_eq!(m[0].uri(), b"https://evil.example/login");
/// assert_eq!(m[0].context(), &MailContext::HtmlHref);
/// assert_eq!(m[0].shown(), Some(&b"https://bank.example/"[..]));
/// assert_eq!(m[1].uri(), b"https://bank.example/");
/// ```
#[derive(Clone)]
pub struct MailFinder {
    pub(crate) finder: Finder,
    pub(crate) html_resources: bool,
    pub(crate) parser: Arc<mail_parser::MessageParser>,
}

impl fmt::Debug for MailFinder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MailFinder")
            .field("finder", &self.finder)
            .field("html_resources", &self.html_resources)
            .finish()
    }
}

impl MailFinder {
    /// Mail mode with `finder` for the decoded text.
    pub fn new(finder: Finder) -> MailFinder {
        // Only what the MIME walk needs is parsed; header values are
        // read from the raw bytes.
        use mail_parser::HeaderName as H;
        let parser = mail_parser::MessageParser::new()
            .header_content_type(H::ContentType)
            .header_text(H::ContentTransferEncoding)
            .header_id(H::MessageId)
            .default_header_ignore();
        MailFinder { finder, html_resources: false, parser: Arc::new(parser) }
    }

    /// Also report markup resources of HTML parts (`<img src>`, `<link
    /// href>`, `xmlns`, the DOCTYPE, CSS `url(...)`, `cid:` links), in
    /// context [`MailContext::HtmlResource`].
    pub fn html_resources(mut self, yes: bool) -> MailFinder {
        self.html_resources = yes;
        self
    }

    /// The finder used on decoded text.
    pub fn finder(&self) -> &Finder {
        &self.finder
    }
}
