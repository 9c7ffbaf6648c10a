//! Stand-in for `src/client.rs`: the static half (`generator/runtime/client.rs`) and what the
//! generated half gives it: `ErrorBody`, `FOLLOWS_REDIRECTS` and `with_credentials`.
// As the generated half has it.
#![allow(clippy::large_enum_variant, clippy::result_large_err)]

include!("../../runtime/client.rs");

/// As an API that documents no redirect has it.
const FOLLOWS_REDIRECTS: bool = true;

/// The error body of the stand-in API.
pub type ErrorBody = Problem;

/// An error body with a code.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
pub struct Problem {
    /// What went wrong.
    pub code: String,
}

impl Client {
    fn with_credentials(
        &self,
        mut request: ::reqwest::RequestBuilder,
        _requirements: &[&[&str]],
    ) -> ::reqwest::RequestBuilder {
        if let Some(key) = &self.credentials.api_key {
            request = request.header("x-key", key);
        }
        request
    }
}
