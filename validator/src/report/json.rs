//! The whole report as one JSON document, for scripts and dashboards.
//!
//! ```json
//! {
//!   "format": 1,
//!   "inputs": ["traffic/a.har"],
//!   "strict": false,
//!   "exchanges": 9,
//!   "errors": 2,
//!   "warnings": 0,
//!   "operations": {"createPayment": {"exchanges": 3, "failed": 1, "errors": 2, "warnings": 0}},
//!   "findings": [{"exchange": 4, "id": "pay-2", "source": "traffic/a.har", "part": "request", "…": "…"}],
//!   "drift": {
//!     "properties": [{"operation": "getAccount", "part": "response", "location": "/owner", "value": "nickname", "count": 3}],
//!     "enum_values": [],
//!     "statuses": []
//!   }
//! }
//! ```
//!
//! `format` is the version of this layout: it changes only when a key is renamed or removed,
//! or its meaning changes. Keys come in the order above (structs, not maps, so the order does
//! not depend on serde_json's features); `operations` and the drift lists are sorted; findings
//! keep the report's order (by input, then exchange). Pretty-printed, with a final newline.

use std::collections::BTreeMap;
use std::io;

use serde::Serialize;

use super::{DriftKey, OperationStats, RunReport};
use crate::finding::{Finding, Part};

/// The version of the layout.
pub const FORMAT: u32 = 1;

/// Writes the report as JSON.
pub fn write(report: &RunReport, out: &mut dyn io::Write) -> io::Result<()> {
    let document = Document {
        format: FORMAT,
        inputs: &report.inputs,
        strict: report.strict,
        exchanges: report.exchanges,
        errors: report.errors(),
        warnings: report.warnings(),
        operations: &report.per_operation,
        findings: &report.findings,
        drift: DriftLists {
            properties: items(&report.drift.properties),
            enum_values: items(&report.drift.enum_values),
            statuses: items(&report.drift.statuses),
        },
    };
    serde_json::to_writer_pretty(&mut *out, &document)?;
    out.write_all(b"\n")?;
    out.flush()
}

#[derive(Serialize)]
struct Document<'a> {
    format: u32,
    inputs: &'a [String],
    strict: bool,
    exchanges: u64,
    errors: usize,
    warnings: usize,
    operations: &'a BTreeMap<String, OperationStats>,
    findings: &'a [Finding],
    drift: DriftLists<'a>,
}

#[derive(Serialize)]
struct DriftLists<'a> {
    properties: Vec<DriftItem<'a>>,
    enum_values: Vec<DriftItem<'a>>,
    statuses: Vec<DriftItem<'a>>,
}

#[derive(Serialize)]
struct DriftItem<'a> {
    operation: &'a str,
    part: Part,
    location: &'a str,
    /// `null` when masked.
    value: Option<&'a str>,
    count: u64,
}

fn items(map: &BTreeMap<DriftKey, u64>) -> Vec<DriftItem<'_>> {
    map.iter()
        .map(|(key, count)| DriftItem {
            operation: &key.operation,
            part: key.part,
            location: &key.location,
            value: key.value.as_deref(),
            count: *count,
        })
        .collect()
}
