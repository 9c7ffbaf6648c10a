//! Stand-in for `src/webhooks.rs`: the static half (`generator/runtime/webhooks.rs`). The
//! generated half (the `Webhooks` trait, the receiver's handlers and a method per
//! notification that calls `Sender::deliver`) is not needed to test it.

include!("../../runtime/webhooks.rs");
