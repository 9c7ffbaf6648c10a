//! Stand-in for `src/credentials.rs`: the one credential of the stand-in API.

/// The credentials a caller presents.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Credentials {
    /// Sent in the `x-key` header.
    pub api_key: Option<String>,
}
