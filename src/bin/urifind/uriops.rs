//! The one place the command calls the URI model (resolution and
//! normalization), so the library's API is used from a single spot.

use urifind::uri::{self, ResolveMode};

/// The section 6 normal form of a valid URI.
pub fn normalize(u: &[u8]) -> Vec<u8> {
    uri::normalize(u)
}

/// Resolves `reference` against `base` (section 5.2); `compat` selects
/// the backwards-compatible reading of `http:g`.
///
/// # Errors
///
/// A message when the base cannot be used.
pub fn resolve(
    base: &[u8],
    reference: &[u8],
    compat: bool,
) -> Result<Vec<u8>, String> {
    let mode =
        if compat { ResolveMode::Compatible } else { ResolveMode::Strict };
    uri::resolve(base, reference, mode).map_err(|e| e.to_string())
}
