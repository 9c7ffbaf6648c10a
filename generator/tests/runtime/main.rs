//! The runtime files under `generator/runtime/`, compiled as a generated crate has them and
//! unit-tested as themselves (their `#[cfg(test)]` items, which specgen leaves out of the
//! output). This test crate stands in for a generated crate: the modules that are the same
//! for every API are the runtime files themselves; the generated ones (`contract`,
//! `credentials`) and the generated halves of `server`, `client` and `webhooks` are small
//! stand-ins for a one-operation, one-webhook API.
// The generated crate's features (`schemars`, `rustls`) are not specgen's.
#![allow(unexpected_cfgs)]
// What only the generated halves call (handlers, client methods) is not called here.
#![allow(dead_code)]

#[path = "../../runtime/support.rs"]
mod support;

#[path = "../../runtime/retry.rs"]
mod retry;

#[path = "../../runtime/validation.rs"]
mod validation;

mod client;
mod contract;
mod credentials;
mod server;
mod webhooks;

/// A loopback HTTP server for the tests of the client and the webhook sender.
mod loopback;
