//! Stand-in for `src/server.rs`: the static half (`generator/runtime/server.rs`) and the
//! `error_response` of an API without a documented error body, as specgen writes it. The
//! generated half (the `Api` trait, the router and the handlers) is not needed to test them.
// As the generated half has it.
#![allow(clippy::large_enum_variant, clippy::result_large_err)]

/// As specgen writes it for an API that documents no error body the server can fill.
pub fn error_response(status: ::http::StatusCode, code: &str, messages: Vec<String>) -> Response {
    envelope_response(
        &crate::validation::manifest::ErrorEnvelope::ProblemDetails,
        status,
        code,
        &messages,
    )
}

include!("../../runtime/server.rs");
