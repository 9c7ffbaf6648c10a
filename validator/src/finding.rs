//! What a check reports.

use serde::{Deserialize, Serialize};

use crate::exchange::ExchangeKind;
use crate::rule::Rule;

/// Which message of an exchange a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Part {
    /// The request to the API.
    Request,
    /// The API's response.
    Response,
    /// A notification the API sent.
    Notification,
    /// The receiver's reply to a notification.
    Reply,
    /// The entry as a whole (it could not be read, or matched no operation).
    Entry,
}

impl Part {
    /// The manifest's list that documents this part: a notification and its reply are a
    /// webhook's (`webhooks`), the rest an operation's (`operations`).
    pub fn manifest_section(self) -> &'static str {
        match self {
            Part::Notification | Part::Reply => "webhooks",
            Part::Request | Part::Response | Part::Entry => "operations",
        }
    }
}

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Breaks the contract.
    Error,
    /// Undocumented but allowed by the contract (reported in `--strict` mode).
    Warning,
}

/// One rule an exchange breaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// Position of the exchange in its input, from 0.
    pub exchange: usize,
    /// The input's own id for the exchange, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The file the exchange came from.
    pub source: String,
    /// The line of the file the exchange starts on, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Which message.
    pub part: Part,
    /// The operation (operationId) or webhook name, when the exchange matched one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    /// JSON pointer into the message's body, or the parameter/header the rule is about
    /// (`header:x-idempotency-key`), `""` for the message as a whole.
    pub pointer: String,
    /// Where the rule is: a contract file and the pointer inside it, or a manifest entry.
    pub schema_location: String,
    /// The rule that is broken, e.g. `required`, `format`, `status-documented`.
    pub rule: Rule,
    /// What is wrong, for a person.
    pub message: String,
    /// Error, or warning for strict-mode drift.
    pub severity: Severity,
}

/// An exchange's place, for building findings.
#[derive(Debug, Clone)]
pub struct Site {
    /// Position in the input.
    pub exchange: usize,
    /// The input's id.
    pub id: Option<String>,
    /// The file.
    pub source: String,
    /// The line the exchange starts on.
    pub line: Option<usize>,
    /// Operation or webhook name.
    pub operation: Option<String>,
    /// Operation or notification.
    pub kind: ExchangeKind,
}

impl Site {
    /// A finding at this exchange.
    pub fn finding(
        &self,
        part: Part,
        pointer: impl Into<String>,
        schema_location: impl Into<String>,
        rule: Rule,
        message: impl Into<String>,
    ) -> Finding {
        Finding {
            exchange: self.exchange,
            id: self.id.clone(),
            source: self.source.clone(),
            line: self.line,
            part,
            operation: self.operation.clone(),
            pointer: pointer.into(),
            schema_location: schema_location.into(),
            rule,
            message: message.into(),
            severity: Severity::Error,
        }
    }
}

/// Text from the input (a path, a method, a header name) as a message shows it: whole up to
/// `max` characters, cut with `…` beyond, so that a runaway value cannot fill a report.
pub(crate) fn shorten(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]).into(),
        None => text.into(),
    }
}

/// Logs a finding with `tracing` at `warn` level under `target` (a literal, as `tracing` needs
/// one), with its fields as the live checks (the tower layer, the client checks) document them.
#[cfg(any(feature = "tower", feature = "client"))]
macro_rules! warn_finding {
    ($target:literal, $finding:expr) => {{
        let finding: &$crate::finding::Finding = $finding;
        tracing::warn!(
            target: $target,
            exchange = finding.exchange,
            operation = finding.operation.as_deref().unwrap_or("-"),
            part = ?finding.part,
            pointer = %finding.pointer,
            rule = %finding.rule,
            schema_location = %finding.schema_location,
            severity = ?finding.severity,
            "{}",
            finding.message
        );
    }};
}
#[cfg(any(feature = "tower", feature = "client"))]
pub(crate) use warn_finding;
