//! Scheme tables: the IANA URI scheme registry, and the two scheme
//! families the contract names, each one list from which every test of
//! it is derived: the IP-based schemes of RFC 1738 and kin
//! ([`IP_BASED`]) and the schemes people write without `//` in prose
//! ([`PROSE_OPAQUE`]).
//!
//! The registry table holds the names of every scheme in IANA's "Uniform
//! Resource Identifier (URI) Schemes" registry, permanent, provisional and
//! historical alike (396 names). No network was at hand when it was written,
//! so the names were taken from a copy of the registry mirrored in a public
//! repository (an enum generated from IANA's `uri-schemes.xhtml`), not from
//! IANA directly; see [`REGISTRY_DATE`]. The registry's odd entry
//! `shttp (OBSOLETE)` is listed as `shttp`, and
//! `machineProvisioningProgressReporter` in lower case.

/// The date of the IANA registry snapshot the table was taken from, as far
/// as it is known.
///
/// The mirror the names come from does not record IANA's "Last Updated"
/// date. It holds names (`ari`, `at`, `bl`, `bluetooth`, `brid`) that a
/// copy of the registry generated on 2022-11-30 lacks, so it is later
/// than that; its newest entries (`ms-recall`, `ms-widgetboard`,
/// `starknet`, `wasm-js`, `web+ap`) suggest 2024 or 2025, which could not
/// be checked here.
///
/// # Example
///
/// ```
/// assert!(urifind::grammar::schemes::REGISTRY_DATE.contains("2022"));
/// ```
pub const REGISTRY_DATE: &str = "after 2022-11-30 (exact date unknown)";

/// Every registered scheme name, lower case, sorted bytewise (a test keeps
/// it so: lookup is a binary search).
///
/// # Example
///
/// ```
/// use urifind::grammar::schemes::REGISTERED;
///
/// assert!(REGISTERED.contains(&"mailto"));
/// assert!(REGISTERED.windows(2).all(|w| w[0] < w[1]));
/// ```
pub const REGISTERED: &[&str] = &[
    "aaa",
    "aaas",
    "about",
    "acap",
    "acct",
    "acd",
    "acr",
    "adiumxtra",
    "adt",
    "afp",
    "afs",
    "aim",
    "amss",
    "android",
    "appdata",
    "apt",
    "ar",
    "ari",
    "ark",
    "at",
    "attachment",
    "aw",
    "barion",
    "bb",
    "beshare",
    "bitcoin",
    "bitcoincash",
    "bl",
    "blob",
    "bluetooth",
    "bolo",
    "brid",
    "browserext",
    "cabal",
    "calculator",
    "callto",
    "cap",
    "cast",
    "casts",
    "chrome",
    "chrome-extension",
    "cid",
    "coap",
    "coap+tcp",
    "coap+ws",
    "coaps",
    "coaps+tcp",
    "coaps+ws",
    "com-eventbrite-attendee",
    "content",
    "content-type",
    "crid",
    "cstr",
    "cvs",
    "dab",
    "dat",
    "data",
    "dav",
    "dhttp",
    "diaspora",
    "dict",
    "did",
    "dis",
    "dlna-playcontainer",
    "dlna-playsingle",
    "dns",
    "dntp",
    "doi",
    "dpp",
    "drm",
    "drop",
    "dtmi",
    "dtn",
    "dvb",
    "dvx",
    "dweb",
    "ed2k",
    "eid",
    "elsi",
    "embedded",
    "ens",
    "ethereum",
    "example",
    "facetime",
    "fax",
    "feed",
    "feedready",
    "fido",
    "file",
    "filesystem",
    "finger",
    "first-run-pen-experience",
    "fish",
    "fm",
    "ftp",
    "fuchsia-pkg",
    "geo",
    "gg",
    "git",
    "gitoid",
    "gizmoproject",
    "go",
    "gopher",
    "graph",
    "grd",
    "gtalk",
    "h323",
    "ham",
    "hcap",
    "hcp",
    "hs20",
    "http",
    "https",
    "hxxp",
    "hxxps",
    "hydrazone",
    "hyper",
    "iax",
    "icap",
    "icon",
    "ilstring",
    "im",
    "imap",
    "info",
    "iotdisco",
    "ipfs",
    "ipn",
    "ipns",
    "ipp",
    "ipps",
    "irc",
    "irc6",
    "ircs",
    "iris",
    "iris.beep",
    "iris.lwz",
    "iris.xpc",
    "iris.xpcs",
    "isostore",
    "itms",
    "jabber",
    "jar",
    "jms",
    "keyparc",
    "lastfm",
    "lbry",
    "ldap",
    "ldaps",
    "leaptofrogans",
    "lid",
    "lorawan",
    "lpa",
    "lvlt",
    "machineprovisioningprogressreporter",
    "magnet",
    "mailserver",
    "mailto",
    "maps",
    "market",
    "matrix",
    "message",
    "microsoft.windows.camera",
    "microsoft.windows.camera.multipicker",
    "microsoft.windows.camera.picker",
    "mid",
    "mms",
    "modem",
    "mongodb",
    "moz",
    "ms-access",
    "ms-appinstaller",
    "ms-browser-extension",
    "ms-calculator",
    "ms-drive-to",
    "ms-enrollment",
    "ms-excel",
    "ms-eyecontrolspeech",
    "ms-gamebarservices",
    "ms-gamingoverlay",
    "ms-getoffice",
    "ms-help",
    "ms-infopath",
    "ms-inputapp",
    "ms-launchremotedesktop",
    "ms-lockscreencomponent-config",
    "ms-media-stream-id",
    "ms-meetnow",
    "ms-mixedrealitycapture",
    "ms-mobileplans",
    "ms-newsandinterests",
    "ms-officeapp",
    "ms-people",
    "ms-personacard",
    "ms-powerpoint",
    "ms-project",
    "ms-publisher",
    "ms-recall",
    "ms-remotedesktop",
    "ms-remotedesktop-launch",
    "ms-restoretabcompanion",
    "ms-screenclip",
    "ms-screensketch",
    "ms-search",
    "ms-search-repair",
    "ms-secondary-screen-controller",
    "ms-secondary-screen-setup",
    "ms-settings",
    "ms-settings-airplanemode",
    "ms-settings-bluetooth",
    "ms-settings-camera",
    "ms-settings-cellular",
    "ms-settings-cloudstorage",
    "ms-settings-connectabledevices",
    "ms-settings-displays-topology",
    "ms-settings-emailandaccounts",
    "ms-settings-language",
    "ms-settings-location",
    "ms-settings-lock",
    "ms-settings-nfctransactions",
    "ms-settings-notifications",
    "ms-settings-power",
    "ms-settings-privacy",
    "ms-settings-proximity",
    "ms-settings-screenrotation",
    "ms-settings-wifi",
    "ms-settings-workplace",
    "ms-spd",
    "ms-stickers",
    "ms-sttoverlay",
    "ms-transit-to",
    "ms-useractivityset",
    "ms-uup",
    "ms-virtualtouchpad",
    "ms-visio",
    "ms-walk-to",
    "ms-whiteboard",
    "ms-whiteboard-cmd",
    "ms-widgetboard",
    "ms-widgets",
    "ms-word",
    "msnim",
    "msrp",
    "msrps",
    "mss",
    "mt",
    "mtqp",
    "mtrust",
    "mumble",
    "mupdate",
    "mvn",
    "mvrp",
    "mvrps",
    "news",
    "nfs",
    "ni",
    "nih",
    "nntp",
    "notes",
    "num",
    "ocf",
    "oid",
    "onenote",
    "onenote-cmd",
    "opaquelocktoken",
    "openid",
    "openpgp4fpr",
    "otpauth",
    "p1",
    "pack",
    "palm",
    "paparazzi",
    "payment",
    "payto",
    "pkcs11",
    "platform",
    "pop",
    "pres",
    "prospero",
    "proxy",
    "psyc",
    "pttp",
    "pwid",
    "qb",
    "query",
    "quic-transport",
    "redis",
    "rediss",
    "reload",
    "res",
    "resource",
    "rmi",
    "rsync",
    "rtmfp",
    "rtmp",
    "rtsp",
    "rtsps",
    "rtspu",
    "sarif",
    "secondlife",
    "secret-token",
    "service",
    "session",
    "sftp",
    "sgn",
    "shc",
    "shelter",
    "shttp",
    "sieve",
    "simpleledger",
    "simplex",
    "sip",
    "sips",
    "skype",
    "smb",
    "smp",
    "sms",
    "smtp",
    "snews",
    "snmp",
    "soap.beep",
    "soap.beeps",
    "soldat",
    "spiffe",
    "spotify",
    "ssb",
    "ssh",
    "starknet",
    "steam",
    "stun",
    "stuns",
    "submit",
    "svn",
    "swh",
    "swid",
    "swidpath",
    "tag",
    "taler",
    "teamspeak",
    "teapot",
    "teapots",
    "tel",
    "teliaeid",
    "telnet",
    "tftp",
    "things",
    "thismessage",
    "thzp",
    "tip",
    "tn3270",
    "tool",
    "turn",
    "turns",
    "tv",
    "udp",
    "unreal",
    "upt",
    "urn",
    "ut2004",
    "uuid-in-package",
    "v-event",
    "vemmi",
    "ventrilo",
    "ves",
    "videotex",
    "view-source",
    "vnc",
    "vscode",
    "vscode-insiders",
    "vsls",
    "w3",
    "wais",
    "wasm",
    "wasm-js",
    "wcr",
    "web+ap",
    "web3",
    "webcal",
    "wifi",
    "wpid",
    "ws",
    "wss",
    "wtai",
    "wyciwyg",
    "xcon",
    "xcon-userid",
    "xfire",
    "xftp",
    "xmlrpc.beep",
    "xmlrpc.beeps",
    "xmpp",
    "xrcp",
    "xri",
    "ymsgr",
    "z39.50",
    "z39.50r",
    "z39.50s",
];

/// The longest name in [`REGISTERED`]; longer input is never registered.
const MAX_LEN: usize = 36;

/// Whether `scheme` (any case) is in the IANA registry.
///
/// Runs in `O(log n)` with no allocation: the name is lower-cased into a
/// stack buffer and looked up by binary search.
///
/// ```
/// assert!(urifind::grammar::schemes::is_registered(b"HTTP"));
/// assert!(urifind::grammar::schemes::is_registered(b"z39.50r"));
/// assert!(!urifind::grammar::schemes::is_registered(b"note"));
/// ```
pub fn is_registered(scheme: &[u8]) -> bool {
    if scheme.is_empty() || scheme.len() > MAX_LEN {
        return false;
    }
    let mut buf = [0u8; MAX_LEN];
    let low = &mut buf[..scheme.len()];
    low.copy_from_slice(scheme);
    low.make_ascii_lowercase();
    let low: &[u8] = low;
    REGISTERED.binary_search_by(|s| s.as_bytes().cmp(low)).is_ok()
}

/// A name of at most eight bytes folded into one word, each byte `| 0x20`,
/// for matching against lists of names that are letters only: `b | 0x20`
/// maps a byte to a lower-case letter only when it is a letter.
const fn word(s: &[u8]) -> u64 {
    let mut w = 0u64;
    let mut i = 0;
    while i < s.len() {
        w |= ((s[i] | 0x20) as u64) << (8 * i);
        i += 1;
    }
    w
}

/// [`word`] at run time, for `s` of two to eight bytes: two overlapping
/// loads instead of a loop.
#[inline(always)]
fn fold(s: &[u8]) -> u64 {
    let n = s.len();
    debug_assert!((2..=8).contains(&n));
    let w = if n >= 4 {
        let lo = u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as u64;
        let hi = u32::from_le_bytes([s[n - 4], s[n - 3], s[n - 2], s[n - 1]]);
        lo | (hi as u64) << (8 * (n - 4))
    } else {
        let lo = u16::from_le_bytes([s[0], s[1]]) as u64;
        lo | (u16::from_le_bytes([s[n - 2], s[n - 1]]) as u64) << (8 * (n - 2))
    };
    w | (0x2020_2020_2020_2020 >> (64 - 8 * n))
}

/// The IP-based schemes (docs/CONTRACT.md section 2): their URIs must
/// have a server authority with a host that can be reached, checked by
/// [`crate::grammar::Validator::scheme_rules`]. Lower case, letters only,
/// two to eight of them (checked when the crate is built).
///
/// ```
/// use urifind::grammar::schemes::{is_ip_based, IP_BASED};
///
/// assert!(IP_BASED.iter().all(|s| is_ip_based(s.as_bytes())));
/// assert!(IP_BASED.contains(&"rsync"));
/// ```
pub const IP_BASED: &[&str] = &[
    "http", "https", "shttp", "ftp", "ftps", "sftp", "ssh", "telnet",
    "gopher", "wais", "nntp", "prospero", "ws", "wss", "imap", "imaps", "pop",
    "ldap", "ldaps", "rtsp", "rtsps", "irc", "ircs", "git", "svn", "rsync",
];

/// The schemes people write without `//` in prose (docs/CONTRACT.md
/// section 3): found bare and in quotes as `scheme:rest`, where any other
/// scheme needs `//`, when the rest has the form
/// [`fits_prose_form`] asks of it. Every filter of the scanner that turns
/// colons away is derived from this list, so adding a name here is all it
/// takes. Lower case, letters only, two to eight of them (checked when
/// the crate is built).
///
/// ```
/// use urifind::grammar::schemes::{is_prose_opaque, PROSE_OPAQUE};
///
/// assert!(PROSE_OPAQUE.iter().all(|s| is_prose_opaque(s.as_bytes())));
/// assert!(PROSE_OPAQUE.contains(&"mailto"));
/// ```
pub const PROSE_OPAQUE: &[&str] = &[
    "mailto", "news", "urn", "tel", "sip", "sips", "xmpp", "magnet", "geo",
    "cid", "mid", "data", "bitcoin", "sms", "matrix", "file",
];

/// Whether `rest`, what follows the colon of a URI without `//` in prose
/// (bare or quoted), has a form its scheme is written in there
/// (docs/CONTRACT.md section 3). Never a second `:` right after the
/// colon (`geo::Point`, `bitcoin::Txid` are names in code), never a `/`
/// there (`mailto:/news:` is talk about schemes) except for `file`,
/// whose rest must be a `/` and at least one more byte (`file:/etc/motd`;
/// not `file:/`). `sms` needs a `+`, a digit or a `?` first
/// (`sms:+15105550101`, not `sms:GetApp`) and `matrix` a `/` somewhere
/// (`matrix:r/room:example.org`, not `matrix:get(y)`). (A `data` URI's
/// media type and comma are checked by the scanner.)
///
/// # Example
///
/// ```
/// use urifind::grammar::schemes::fits_prose_form;
///
/// assert!(fits_prose_form(b"file", b"/etc/motd"));
/// assert!(!fits_prose_form(b"FILE", b"/"));
/// assert!(fits_prose_form(b"sms", b"+15105550101?body=hi"));
/// assert!(!fits_prose_form(b"sms", b"GetApp"));
/// assert!(fits_prose_form(b"matrix", b"u/alice:example.org"));
/// assert!(!fits_prose_form(b"matrix", b"get(y)"));
/// assert!(!fits_prose_form(b"geo", b":Point"));
/// assert!(fits_prose_form(b"geo", b"48.2,16.37"));
/// ```
pub fn fits_prose_form(scheme: &[u8], rest: &[u8]) -> bool {
    let Some(&first) = rest.first() else { return false };
    if scheme.eq_ignore_ascii_case(b"file") {
        return first == b'/' && rest.len() > 1;
    }
    match first {
        b':' | b'/' => false,
        _ if scheme.eq_ignore_ascii_case(b"sms") => {
            first == b'+' || first == b'?' || first.is_ascii_digit()
        }
        _ if scheme.eq_ignore_ascii_case(b"matrix") => rest.contains(&b'/'),
        _ => true,
    }
}

/// Checks that every name of a scheme family can be matched as one
/// folded [`word`]: lower-case letters only (`b | 0x20` maps a byte onto
/// a letter only when it is one), two to eight of them.
const fn check_family(names: &[&str]) {
    let mut i = 0;
    while i < names.len() {
        let n = names[i].as_bytes();
        if n.len() < 2 || n.len() > 8 {
            panic!("a scheme family name must have 2 to 8 letters");
        }
        let mut k = 0;
        while k < n.len() {
            if !n[k].is_ascii_lowercase() {
                panic!("a scheme family name must be lower-case letters");
            }
            k += 1;
        }
        i += 1;
    }
}

const _: () = check_family(IP_BASED);
const _: () = check_family(PROSE_OPAQUE);

/// The folded [`word`]s of a family, for matching.
const fn words<const N: usize>(names: &[&str]) -> [u64; N] {
    let mut w = [0u64; N];
    let mut i = 0;
    while i < N {
        w[i] = word(names[i].as_bytes());
        i += 1;
    }
    w
}

/// The shortest and the longest name of a family.
const fn len_bounds(names: &[&str]) -> (usize, usize) {
    let (mut lo, mut hi) = (usize::MAX, 0);
    let mut i = 0;
    while i < names.len() {
        let n = names[i].len();
        if n < lo {
            lo = n;
        }
        if n > hi {
            hi = n;
        }
        i += 1;
    }
    (lo, hi)
}

/// The shortest name in [`PROSE_OPAQUE`]: the scanner's bulk filter
/// needs a run of at least this many scheme characters before a colon.
pub(crate) const PROSE_OPAQUE_MIN_LEN: usize = len_bounds(PROSE_OPAQUE).0;

/// The longest name in [`PROSE_OPAQUE`].
pub(crate) const PROSE_OPAQUE_MAX_LEN: usize = len_bounds(PROSE_OPAQUE).1;

/// Whether `scheme` (any case) is in [`IP_BASED`].
///
/// # Example
///
/// ```
/// assert!(urifind::grammar::schemes::is_ip_based(b"http"));
/// assert!(!urifind::grammar::schemes::is_ip_based(b"file"));
/// ```
#[inline]
pub fn is_ip_based(scheme: &[u8]) -> bool {
    // The scheme rules ask this of every candidate, so the name is folded
    // into one word and matched.
    if scheme.len() < 2 || scheme.len() > 8 {
        return false;
    }
    is_ip_based_folded(fold(scheme))
}

/// [`is_ip_based`] of a name of two to eight letters, folded into one
/// word as `fold` does: its bytes in order from the lowest, each with
/// bit 5 set (lower case).
#[inline(always)]
pub(crate) fn is_ip_based_folded(w: u64) -> bool {
    const IP: [u64; IP_BASED.len()] = words(IP_BASED);
    // (`contains` on a slice of words is a call, not inlined; the scheme
    // rules ask this of every candidate.)
    #[allow(clippy::manual_contains)]
    IP.iter().any(|&x| x == w)
}

/// Whether `scheme` (any case) is in [`PROSE_OPAQUE`].
///
/// # Example
///
/// ```
/// assert!(urifind::grammar::schemes::is_prose_opaque(b"mailto"));
/// assert!(!urifind::grammar::schemes::is_prose_opaque(b"javascript"));
/// ```
pub fn is_prose_opaque(scheme: &[u8]) -> bool {
    const OPAQUE: [u64; PROSE_OPAQUE.len()] = words(PROSE_OPAQUE);
    // Called for many colons in text: the length test turns away most of
    // them at once, one folded word the rest.
    if !(PROSE_OPAQUE_MIN_LEN..=PROSE_OPAQUE_MAX_LEN).contains(&scheme.len()) {
        return false;
    }
    let w = fold(scheme);
    #[allow(clippy::manual_contains)]
    OPAQUE.iter().any(|&x| x == w)
}

/// For each letter `a`, the letters `b` (bit `b - 'a'`) such that some
/// name in [`PROSE_OPAQUE`] ends in `a` and `b`: the scanner's bulk
/// filter keeps a colon after a long run of scheme characters only when
/// the run ends so.
pub(crate) const PROSE_OPAQUE_TAILS: [u32; 26] = {
    let mut t = [0u32; 26];
    let mut i = 0;
    while i < PROSE_OPAQUE.len() {
        let n = PROSE_OPAQUE[i].as_bytes();
        let (a, b) = (n[n.len() - 2], n[n.len() - 1]);
        t[(a - b'a') as usize] |= 1 << (b - b'a');
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::{fold, word};

    #[test]
    fn fold_is_word() {
        let bytes: Vec<u8> =
            (0..=255u8).rev().chain(b"HtTp+-.9".iter().copied()).collect();
        for n in 2..=8 {
            for start in 0..bytes.len() - n {
                let s = &bytes[start..start + n];
                assert_eq!(fold(s), word(s), "{s:?}");
            }
        }
    }
}
