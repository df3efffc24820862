//! The one place the command calls the URI model (resolution and
//! normalization), so that the library's API is used from a single spot.
//!
//! TEMPORARY: until `urifind::uri::{resolve, normalize}` land on main,
//! resolution reports that it is unavailable and normalization returns
//! its input unchanged.

/// The section 6 normal form of a valid URI.
pub fn normalize(uri: &[u8]) -> Vec<u8> {
    uri.to_vec()
}

/// Resolves `reference` against `base` (section 5.2); `compat` selects
/// the backwards-compatible reading of `http:g`.
///
/// # Errors
///
/// A message when the reference cannot be resolved.
pub fn resolve(
    base: &[u8],
    reference: &[u8],
    compat: bool,
) -> Result<Vec<u8>, String> {
    let _ = (base, reference, compat);
    Err("resolution is not available in this build".into())
}
