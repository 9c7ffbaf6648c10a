//! specval: checks API payloads (and, as it grows, whole recorded traffic) against the contract
//! specgen writes: one JSON Schema per component and message, compiled once.
//!
//! ```
//! let contract = specval::Contract::embedded().unwrap();
//! let findings = contract
//!     .validate("Error", &serde_json::json!({"code": "VALIDATION_ERROR", "messages": []}))
//!     .unwrap();
//! assert_eq!(findings[0].rule, "required");
//! ```

pub mod contract;
pub mod finding;

pub use contract::{Contract, ContractError};
pub use finding::Finding;
