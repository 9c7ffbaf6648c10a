//! The in-memory implementation of the API used by the end-to-end tests. It lives in the
//! `sandbox` crate (`sandbox::service`), which also serves it as a standalone program;
//! this module re-exports it so the tests keep their imports. See `sandbox::service` for
//! what each operation does and every choice made where the interface document is silent.

pub use sandbox::service::{CANCELLED_STATUS, InMemoryService, Merchant, TRANSFER_NOT_FOUND};
