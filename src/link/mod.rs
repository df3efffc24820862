//! Where a link leads: wrapped links (mail gateways' and redirectors'
//! wrappers, unwrapped offline), links embedded in a query, and the host
//! as a browser reads it, with a few flags an analyst looks at first.
//!
//! This module owns the public face of link analysis ([`Analyzer`],
//! [`Link`], [`Format`], [`Unwrap`], [`Flag`]); the table of formats is
//! `formats`, its decoders `decoders`, the query rules `query` and
//! `embedded`, browser hosts `hosts`, the flags `flags`, and the mail
//! comparison `shown`. Nothing here contacts the network.
//!
//! A URI that is no wrapper, has no query and earns no flag is told
//! apart from its bytes alone (`plain`, asking the table which hosts
//! may be wrappers); the analysis is made only when asked ([`crate::Match::link`], [`analyze`]).
//!
//! # Example
//!
//! ```
//! use urifind::link::{analyze, Format, Unwrap};
//!
//! let l = analyze(b"https://urldefense.com/v3/__https://a.example/p*x=1__;Pw!!tok!sig$");
//! assert_eq!(l.target.as_deref(), Some("https://a.example/p?x=1"));
//! assert_eq!(l.wrappers, [Format::UrlDefenseV3]);
//! assert_eq!(l.unwrap, Some(Unwrap::Decoded));
//! assert_eq!(l.target_host.as_deref(), Some("a.example"));
//! ```

use crate::grammar::{Grammar, IriValidator, Validator};
use crate::uri::Components;

mod decoders;
mod embedded;
mod flags;
mod formats;

pub(crate) mod hosts;
mod parts;
mod plain;
mod query;
mod shown;

use decoders::Decoded;
use parts::Parts;
pub use shown::shows_target;

/// How many layers of wrappers are unwrapped, and how many levels of
/// embedded links are looked for.
pub const MAX_DEPTH: usize = 5;

/// A wrapping format.
///
/// # Example
///
/// ```
/// assert_eq!(urifind::link::Format::UrlDefenseV2.name(), "urldefense-v2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// Microsoft Defender for Office 365 Safe Links.
    SafeLinks,
    /// Proofpoint URL Defense, version 1.
    UrlDefenseV1,
    /// Proofpoint URL Defense, version 2.
    UrlDefenseV2,
    /// Proofpoint URL Defense, version 3.
    UrlDefenseV3,
    /// Google's redirect (`/url?q=`).
    Google,
    /// Facebook's link shim.
    Facebook,
    /// Barracuda Link Protection.
    Barracuda,
    /// Trend Micro Click Time Protection.
    TrendMicro,
    /// Trellix (formerly `FireEye`) URL protection.
    FireEye,
    /// Slack's link redirector.
    Slack,
    /// The redirect of `YouTube`.
    YouTube,
    /// Cisco Secure Email URL rewriting.
    Cisco,
    /// Sophos Time-of-Click protection.
    Sophos,
    /// Amazon SES click tracking.
    AwsTrack,
    /// The AMP cache.
    Amp,
    /// Mimecast URL Protect (opaque: the target is on Mimecast's
    /// servers).
    Mimecast,
}

impl Format {
    /// The format's short name, as JSON's `wrappers` lists it.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(urifind::link::Format::SafeLinks.name(), "safelinks");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Format::SafeLinks => "safelinks",
            Format::UrlDefenseV1 => "urldefense-v1",
            Format::UrlDefenseV2 => "urldefense-v2",
            Format::UrlDefenseV3 => "urldefense-v3",
            Format::Google => "google",
            Format::Facebook => "facebook",
            Format::Barracuda => "barracuda",
            Format::TrendMicro => "trendmicro",
            Format::FireEye => "fireeye",
            Format::Slack => "slack",
            Format::YouTube => "youtube",
            Format::Cisco => "cisco",
            Format::Sophos => "sophos",
            Format::AwsTrack => "awstrack",
            Format::Amp => "amp",
            Format::Mimecast => "mimecast",
        }
    }
}

/// What unwrapping a wrapper gave.
///
/// # Example
///
/// ```
/// use urifind::link::{analyze, Unwrap};
///
/// let l = analyze(b"https://eur01.safelinks.protection.outlook.com/?url=not%20a%20link");
/// assert_eq!(l.unwrap, Some(Unwrap::Malformed));
/// assert_eq!(l.unwrap.unwrap().name(), "malformed");
/// assert_eq!(l.target, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Unwrap {
    /// The target was recovered.
    Decoded,
    /// The target is not in the URI (Mimecast): only its host may be
    /// known ([`Link::target_host`]).
    Opaque,
    /// The wrapper does not hold a valid target as its format says.
    Malformed,
    /// More than [`MAX_DEPTH`] layers: the target is the last one
    /// reached.
    TooDeep,
}

impl Unwrap {
    /// `decoded`, `opaque`, `malformed` or `too_deep`.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(urifind::link::Unwrap::TooDeep.name(), "too_deep");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Unwrap::Decoded => "decoded",
            Unwrap::Opaque => "opaque",
            Unwrap::Malformed => "malformed",
            Unwrap::TooDeep => "too_deep",
        }
    }
}

/// A fact about a link worth a look.
///
/// # Example
///
/// ```
/// use urifind::link::{analyze, Flag};
///
/// let l = analyze(b"http://user@192.0.2.7/");
/// assert_eq!(l.flags, [Flag::HasUser, Flag::Numeric]);
/// assert_eq!(Flag::HasUser.name(), "has_user");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Flag {
    /// The URI is a wrapper of a known format.
    Wrapped,
    /// The URI has embedded links.
    Embedded,
    /// The URI has a userinfo (`user@`).
    HasUser,
    /// The host is an IP address, however written.
    Numeric,
    /// The host is written in a form a browser rewrites (see
    /// [`Link::host_as_read`]).
    Obscured,
    /// A label of the host is non-ASCII or starts with `xn--`.
    Idn,
    /// A label of the host mixes scripts (Unicode Technical Standard 39,
    /// section 5.1).
    MixedScript,
}

impl Flag {
    /// The flag's name, as JSON's `flags` lists it: `wrapped`,
    /// `embedded`, `has_user`, `numeric`, `obscured`, `idn`,
    /// `mixed_script`.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(urifind::link::Flag::MixedScript.name(), "mixed_script");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Flag::Wrapped => "wrapped",
            Flag::Embedded => "embedded",
            Flag::HasUser => "has_user",
            Flag::Numeric => "numeric",
            Flag::Obscured => "obscured",
            Flag::Idn => "idn",
            Flag::MixedScript => "mixed_script",
        }
    }
}

/// Where a link leads: what [`Analyzer::analyze`] finds in a URI. Every
/// field is empty (`None`, no element) where it does not apply.
///
/// # Example
///
/// ```
/// use urifind::link::{analyze, Flag, Format};
///
/// let l = analyze(b"https://www.google.com/url?q=https%3A%2F%2Fa.example%2F%3Fnext%3Dhttps%253A%252F%252Fb.example%252F");
/// assert_eq!(l.wrappers, [Format::Google]);
/// assert_eq!(l.target.as_deref(), Some("https://a.example/?next=https%3A%2F%2Fb.example%2F"));
/// assert_eq!(l.embedded, ["https://b.example/"]);
/// assert_eq!(l.flags, [Flag::Wrapped, Flag::Embedded]);
///
/// assert!(analyze(b"https://a.example/plain").is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Link {
    /// The innermost target reached (in URI form, or as decoded for an
    /// analyzer with [`Analyzer::iri`]).
    pub target: Option<String>,
    /// The format of each layer unwrapped, outermost first.
    pub wrappers: Vec<Format>,
    /// What unwrapping gave (for a wrapper).
    pub unwrap: Option<Unwrap>,
    /// The target's host; for an opaque wrapper, the host it discloses.
    pub target_host: Option<String>,
    /// The links embedded in the query (of the URI, or of its target),
    /// in order, each followed by those embedded in it.
    pub embedded: Vec<String>,
    /// The host as a browser reads it, when that differs from how it is
    /// written (`127.0.0.1` for `0x7f.1`).
    pub host_as_read: Option<String>,
    /// The flags, in the order of [`Flag`]'s variants.
    pub flags: Vec<Flag>,
}

impl Link {
    /// Whether nothing applies (no field is set).
    ///
    /// # Example
    ///
    /// ```
    /// assert!(urifind::link::analyze(b"mailto:a@b.example").is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        *self == Link::default()
    }

    /// What `--unwrap` prints for the URI: the target when one was
    /// reached, else `None` (the URI itself).
    ///
    /// # Example
    ///
    /// ```
    /// let l = urifind::link::analyze(b"https://l.facebook.com/l.php?u=https%3A%2F%2Fa.example%2F&h=x");
    /// assert_eq!(l.printed(), Some("https://a.example/"));
    /// ```
    pub fn printed(&self) -> Option<&str> {
        self.target.as_deref()
    }
}

/// Analyses URIs under a grammar: which targets are valid, and how they
/// are reported.
///
/// # Example
///
/// ```
/// use urifind::link::Analyzer;
///
/// let an = Analyzer::new().iri(true);
/// let l = an.analyze(b"https://urldefense.com/v3/__https://a.example/caf**A__;w6k!!t$");
/// assert_eq!(l.target.as_deref(), Some("https://a.example/café"));
/// let l = Analyzer::new().analyze(b"https://urldefense.com/v3/__https://a.example/caf**A__;w6k!!t$");
/// assert_eq!(l.target.as_deref(), Some("https://a.example/caf%C3%A9"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Analyzer {
    validator: Validator,
    iri: bool,
    browser_hosts: bool,
}

impl Default for Analyzer {
    fn default() -> Self {
        Analyzer::new()
    }
}

/// [`Analyzer::analyze`] with the default analyzer.
///
/// # Example
///
/// ```
/// let l = urifind::link::analyze(b"https://slack-redir.net/link?url=https%3A%2F%2Fa.example%2F");
/// assert_eq!(l.target.as_deref(), Some("https://a.example/"));
/// ```
pub fn analyze(uri: &[u8]) -> Link {
    Analyzer::new().analyze(uri)
}

impl Analyzer {
    /// Targets validated under the default grammar, reported in URI form.
    ///
    /// # Example
    ///
    /// ```
    /// let an = urifind::link::Analyzer::new();
    /// assert!(an.analyze(b"https://a.example/").is_empty());
    /// ```
    pub fn new() -> Analyzer {
        Analyzer {
            validator: Validator::new(Grammar::default())
                .absolute(true)
                .scheme_rules(true),
            iri: false,
            browser_hosts: false,
        }
    }

    /// The grammar targets and embedded links are validated under.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::{link::Analyzer, Grammar};
    ///
    /// let uri = b"https://slack-redir.net/link?url=http%3A%2F%2F%5B%3A%3A1%5D%2F";
    /// assert!(Analyzer::new().analyze(uri).target.is_some());
    /// // RFC 2396 has no IPv6 literals.
    /// assert!(Analyzer::new().grammar(Grammar::Rfc2396).analyze(uri).target.is_none());
    /// ```
    pub fn grammar(mut self, g: Grammar) -> Analyzer {
        self.validator = Validator::new(g).absolute(true).scheme_rules(true);
        self
    }

    /// Report targets with non-ASCII characters as decoded (IRIs), not in
    /// their URI form.
    ///
    /// # Example
    ///
    /// ```
    /// let an = urifind::link::Analyzer::new().iri(true);
    /// let l = an.analyze(b"https://slack-redir.net/link?url=https%3A%2F%2Fa.example%2F%C3%BC");
    /// assert_eq!(l.target.as_deref(), Some("https://a.example/ü"));
    /// ```
    pub fn iri(mut self, yes: bool) -> Analyzer {
        self.iri = yes;
        self
    }

    /// Accept targets whose only fault is a host a browser reads (see
    /// [`crate::FinderBuilder::browser_hosts`]).
    ///
    /// # Example
    ///
    /// ```
    /// let uri = b"https://slack-redir.net/link?url=http%3A%2F%2F0x7f.1%2F";
    /// let an = urifind::link::Analyzer::new();
    /// assert!(an.analyze(uri).target.is_none());
    /// let l = an.browser_hosts(true).analyze(uri);
    /// assert_eq!(l.target.as_deref(), Some("http://0x7f.1/"));
    /// ```
    pub fn browser_hosts(mut self, yes: bool) -> Analyzer {
        self.browser_hosts = yes;
        self
    }

    /// Where `uri` (a URI as found) leads.
    ///
    /// # Example
    ///
    /// ```
    /// use urifind::link::{Analyzer, Flag, Format, Unwrap};
    ///
    /// let an = Analyzer::new().browser_hosts(true);
    /// let l = an.analyze(b"https://protect-eu.mimecast.com/s/AbCd?domain=a.example");
    /// assert_eq!(l.wrappers, [Format::Mimecast]);
    /// assert_eq!(l.unwrap, Some(Unwrap::Opaque));
    /// assert_eq!(l.target_host.as_deref(), Some("a.example"));
    ///
    /// let l = an.analyze(b"http://2130706433/login");
    /// assert_eq!(l.host_as_read.as_deref(), Some("127.0.0.1"));
    /// assert_eq!(l.flags, [Flag::Numeric, Flag::Obscured]);
    /// ```
    pub fn analyze(&self, uri: &[u8]) -> Link {
        if plain::nothing_to_find(uri) {
            return Link::default();
        }
        self.analyze_fully(uri)
    }

    /// [`Analyzer::analyze`] without the fast answer of `plain`.
    fn analyze_fully(&self, uri: &[u8]) -> Link {
        let mut link = Link::default();
        let c = Components::split(uri);
        let Some(parts) = Parts::from_components(uri, &c) else {
            return link;
        };
        let host = c.host.unwrap_or_default();
        link.host_as_read = read_differently(host);
        let mut flags = Vec::new();
        flags::host_flags(
            host,
            c.userinfo.is_some(),
            link.host_as_read.as_deref(),
            &mut flags,
        );
        self.unwrap(parts, &mut link);
        // Links in the query of the URI, or of its target; never a
        // wrapper's own (its target is no embedded link).
        match (link.unwrap, &link.target) {
            (None, _) => {
                embedded::collect_query(self, c.query, 1, &mut link.embedded)
            }
            (Some(Unwrap::Decoded), Some(t)) => {
                embedded::collect(self, t.as_bytes(), 1, &mut link.embedded)
            }
            _ => {}
        }
        if !link.wrappers.is_empty() {
            link.flags.push(Flag::Wrapped);
        }
        if !link.embedded.is_empty() {
            link.flags.push(Flag::Embedded);
        }
        link.flags.extend(flags);
        link
    }

    /// Unwraps `parts` layer by layer into `link`.
    fn unwrap(&self, parts: Parts<'_>, link: &mut Link) {
        let Some(mut row) = formats::find(&parts) else { return };
        let mut decoded = (row.decode)(&parts);
        loop {
            link.wrappers.push(row.format);
            let raw = match decoded {
                Decoded::Target(t) => t,
                Decoded::Opaque(h) => {
                    link.unwrap = Some(Unwrap::Opaque);
                    link.target_host =
                        h.map(|h| String::from_utf8_lossy(&h).into_owned());
                    return;
                }
                Decoded::Malformed => {
                    link.unwrap = Some(Unwrap::Malformed);
                    return;
                }
            };
            let Some(t) = self.target(raw) else {
                link.unwrap = Some(Unwrap::Malformed);
                return;
            };
            link.target_host = Components::split(t.as_bytes())
                .host
                .map(|h| String::from_utf8_lossy(h).into_owned());
            link.unwrap = Some(Unwrap::Decoded);
            let next = Parts::of(t.as_bytes())
                .and_then(|p| formats::find(&p).map(|r| (r, (r.decode)(&p))));
            link.target = Some(t);
            let Some((r, d)) = next else { return };
            if link.wrappers.len() == MAX_DEPTH {
                link.unwrap = Some(Unwrap::TooDeep);
                return;
            }
            row = r;
            decoded = d;
        }
    }

    /// A decoded target as reported, if it is one: `www.` read as
    /// `http://www.`, then [`Analyzer::valid`].
    fn target(&self, mut raw: Vec<u8>) -> Option<String> {
        if raw.len() > 4 && raw[..4].eq_ignore_ascii_case(b"www.") {
            raw.splice(0..0, *b"http://");
        }
        self.valid(raw)
    }

    /// `t` as reported, when it is an absolute URI under the grammar and
    /// the scheme rules (its host read as a browser does, with
    /// [`Analyzer::browser_hosts`]), or an IRI whose URI form is one.
    pub(crate) fn valid(&self, t: Vec<u8>) -> Option<String> {
        if t.is_ascii() {
            let ok = self.validator.is_valid(&t)
                || (self.browser_hosts && self.browser_valid(&t));
            return ok.then(|| String::from_utf8(t).ok()).flatten();
        }
        let s = String::from_utf8(t).ok()?;
        IriValidator::new()
            .absolute(true)
            .mapped(self.validator)
            .validate(s.as_bytes())
            .ok()?;
        if self.iri {
            return Some(s);
        }
        let uri = crate::iri::Iri::from_bytes(s.as_bytes())
            .ok()?
            .to_uri()
            .into_owned();
        Some(uri)
    }

    /// Whether `t`'s only fault is a host a browser reads.
    fn browser_valid(&self, t: &[u8]) -> bool {
        let Some(c) = t.iter().position(|&b| b == b':') else {
            return false;
        };
        hosts::stand_in(t, c).is_some_and(|s| self.validator.is_valid(&s))
    }
}

/// How a browser reads `host`, when strict validation rejects the host
/// or the browser reads it otherwise than it is written (case aside).
/// Only a host that strict validation could reject is asked.
fn read_differently(host: &[u8]) -> Option<String> {
    let name = host.strip_suffix(b".").unwrap_or(host);
    let last =
        &name[name.iter().rposition(|&b| b == b'.').map_or(0, |k| k + 1)..];
    let plain = host
        .iter()
        .all(|&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
        && last.first().is_some_and(u8::is_ascii_alphabetic);
    if plain || host.first() == Some(&b'[') {
        return None;
    }
    let read = hosts::as_read(host)?;
    let same = if host.is_ascii() {
        read.as_bytes().eq_ignore_ascii_case(host) && strict_host(host)
    } else {
        // An IDN is its ASCII form: only a mapping beyond that (full-width
        // letters, ideographic full stops) rewrites it.
        let (unicode, _) = idna::domain_to_unicode(&read);
        let written = String::from_utf8_lossy(host).to_lowercase();
        unicode == written
    };
    (!same).then_some(read)
}

/// Whether `host` (ASCII) passes the scheme rules' host check.
fn strict_host(host: &[u8]) -> bool {
    let uri = [&b"http://"[..], host, b"/"].concat();
    Validator::default().absolute(true).scheme_rules(true).is_valid(&uri)
}

#[cfg(test)]
mod tests;
