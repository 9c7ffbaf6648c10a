//! Stand-in for `src/server.rs`: the static half (`generator/runtime/server.rs`) and the
//! `error_response` of an API without a documented error body
//! (`generator/runtime/problem_details.rs`). The generated half (the `Api` trait, the router
//! and the handlers) is not needed to test them.
// As the generated half has it.
#![allow(clippy::large_enum_variant, clippy::result_large_err)]

include!("../../runtime/server.rs");

include!("../../runtime/problem_details.rs");
