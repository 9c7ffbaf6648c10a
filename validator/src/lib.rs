//! specval: checks recorded API traffic (HAR 1.2, JSON Lines) and single payloads against the
//! contract specgen writes — one JSON Schema per component and message, compiled once, and a
//! manifest of operations and webhooks.
//!
//! ```
//! let contract = specval::Contract::embedded().unwrap();
//! let violations = contract
//!     .validate("Error", &serde_json::json!({"code": "VALIDATION_ERROR", "messages": []}), false)
//!     .unwrap();
//! assert_eq!(violations[0].rule, "required");
//! ```
//!
//! The pipeline: [`read`] turns files into [`exchange::Exchange`]s as a stream, [`check`]
//! judges each against the [`Contract`] (with [`drift`] noting what the spec does not show),
//! [`run`] does this in parallel batches, and [`report`] writes the outcome. [`coverage`]
//! tallies, from the same pass, which documented things the traffic exercised.
//!
//! Live traffic goes through the same [`check`]: [`http_exchange`] turns `http` messages into
//! exchanges for the tower layer (`layer`, feature `tower`), the client-side checks (`client`,
//! feature `client`) and the recording proxy (`proxy`, feature `proxy`, on by default).

pub mod check;
#[cfg(feature = "client")]
pub mod client;
pub mod content_coding;
pub mod contract;
pub mod coverage;
pub mod drift;
pub mod examples;
pub mod exchange;
pub mod finding;
#[cfg(feature = "http")]
pub mod http_exchange;
mod in_place;
#[cfg(feature = "tower")]
pub mod layer;
#[cfg(feature = "tower")]
mod live;
pub mod multipart;
pub mod output;
#[cfg(feature = "proxy")]
pub mod proxy;
pub mod read;
pub mod report;
pub mod rule;
pub mod run;
mod secrets;

pub use contract::{Contract, ContractError};
pub use finding::Finding;
pub use rule::Rule;
pub use secrets::hide_payload_secrets;
