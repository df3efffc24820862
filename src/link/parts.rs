//! A URI taken apart once for the table of formats and for the
//! decoders: its host, path, query and fragment.

use crate::uri::Components;

/// A URI taken apart for the table and the decoders.
#[derive(Debug)]
pub(crate) struct Parts<'a> {
    /// The whole URI.
    pub(crate) uri: &'a [u8],
    /// The host, without a trailing dot.
    pub(crate) host: &'a [u8],
    /// The path.
    pub(crate) path: &'a [u8],
    /// Where the path starts in `uri`.
    pub(crate) path_at: usize,
    /// The query, without its `?`.
    pub(crate) query: Option<&'a [u8]>,
    /// The fragment, without its `#`.
    pub(crate) fragment: Option<&'a [u8]>,
}

impl<'a> Parts<'a> {
    /// The parts of `uri`, when it has an authority.
    pub(crate) fn of(uri: &'a [u8]) -> Option<Parts<'a>> {
        Parts::from_components(uri, &Components::split(uri))
    }

    /// The parts of `uri`, split into `c`, when it has an authority.
    pub(crate) fn from_components(
        uri: &'a [u8],
        c: &Components<'a>,
    ) -> Option<Parts<'a>> {
        let auth = c.authority?;
        let host = c.host.unwrap_or_default();
        let host = host.strip_suffix(b".").unwrap_or(host);
        let path_at = c.scheme.map_or(0, |s| s.len() + 1) + 2 + auth.len();
        Some(Parts {
            uri,
            host,
            path: c.path,
            path_at,
            query: c.query,
            fragment: c.fragment,
        })
    }
}
