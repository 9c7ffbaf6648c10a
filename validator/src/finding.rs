//! What a check reports.

use serde::Serialize;

/// One rule a payload breaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// JSON pointer into the payload (`""` for the whole payload).
    pub pointer: String,
    /// Where the broken rule is: the contract file and the pointer inside it.
    pub schema_location: String,
    /// The rule: the JSON Schema keyword that failed (`required`, `pattern`, `format`, ...).
    pub rule: String,
    /// What is wrong, for a person.
    pub message: String,
}
