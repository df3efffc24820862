//! Scheme tables: the IANA URI scheme registry, the IP-based schemes of
//! RFC 1738 and kin, and the schemes people write without `//` in prose.
//!
//! TEMPORARY SKELETON: the full registry replaces the short list below.

/// The date of the IANA registry snapshot the table was taken from.
pub const REGISTRY_DATE: &str = "unset";

const REGISTERED: &[&str] = &[
    "about", "cid", "data", "dav", "file", "ftp", "geo", "git", "gopher",
    "http", "https", "imap", "ldap", "magnet", "mailto", "mid", "news",
    "nntp", "pop", "prospero", "rsync", "rtsp", "sip", "sips", "ssh", "svn",
    "tel", "telnet", "urn", "wais", "ws", "wss", "xmpp",
];

/// Whether `scheme` (any case) is in the IANA registry.
///
/// ```
/// assert!(urifind::grammar::schemes::is_registered(b"HTTP"));
/// assert!(!urifind::grammar::schemes::is_registered(b"note"));
/// ```
pub fn is_registered(scheme: &[u8]) -> bool {
    REGISTERED.iter().any(|s| s.as_bytes().eq_ignore_ascii_case(scheme))
}

/// Whether `scheme` (any case) is IP-based (SPEC.md section 2).
///
/// ```
/// assert!(urifind::grammar::schemes::is_ip_based(b"http"));
/// assert!(!urifind::grammar::schemes::is_ip_based(b"file"));
/// ```
pub fn is_ip_based(scheme: &[u8]) -> bool {
    const IP: &[&str] = &[
        "http", "https", "shttp", "ftp", "ftps", "sftp", "ssh", "telnet",
        "gopher", "wais", "nntp", "prospero", "ws", "wss", "imap", "imaps",
        "pop", "ldap", "ldaps", "rtsp", "rtsps", "irc", "ircs", "git", "svn",
        "rsync",
    ];
    IP.iter().any(|s| s.as_bytes().eq_ignore_ascii_case(scheme))
}

/// Whether `scheme` (any case) is one that people write without `//` in
/// prose (SPEC.md section 3).
///
/// ```
/// assert!(urifind::grammar::schemes::is_prose_opaque(b"mailto"));
/// assert!(!urifind::grammar::schemes::is_prose_opaque(b"javascript"));
/// ```
pub fn is_prose_opaque(scheme: &[u8]) -> bool {
    const OPAQUE: &[&str] = &[
        "mailto", "news", "urn", "tel", "sip", "sips", "xmpp", "magnet",
        "geo", "cid", "mid", "data",
    ];
    OPAQUE.iter().any(|s| s.as_bytes().eq_ignore_ascii_case(scheme))
}
