//! What a link shows against where it leads: in mail, a gateway puts the
//! original link in the text of its wrapper, so the text is compared
//! with the wrapper's target, not with the wrapper.

use super::analyze;

/// Whether `shown` (the URI a link's text shows) is where the link
/// `href` leads when `href` is a wrapper: its target, equivalent after
/// normalization. `false` when `href` is no wrapper or has no target.
///
/// # Example
///
/// ```
/// use urifind::link::shows_target;
///
/// let href = b"https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fa.example%2Fx&data=0";
/// assert!(shows_target(href, b"https://A.example/x"));
/// assert!(!shows_target(href, b"https://b.example/x"));
/// assert!(!shows_target(b"https://a.example/x", b"https://a.example/x"));
/// ```
pub fn shows_target(href: &[u8], shown: &[u8]) -> bool {
    analyze(href)
        .target
        .is_some_and(|t| crate::uri::same_link(t.as_bytes(), shown))
}
