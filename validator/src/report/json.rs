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
//!     "properties": [{"operation": "getAccount", "part": "response", "location": "/owner", "value": "nickname", "masked": false, "count": 3}],
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
use std::io::{self, Write as _};

use serde::Serialize;

use super::records::{Records, Stream};
use super::{DriftKey, OperationStats, RunReport};
use crate::finding::{Finding, Part};

/// The version of the layout.
pub const FORMAT: u32 = 1;

/// Writes the report as JSON, its findings streamed from `records`.
pub fn write(report: &RunReport, records: &dyn Records, out: &mut dyn io::Write) -> io::Result<()> {
    let tally = records.tally();
    let mut out = io::BufWriter::new(out);
    let document = Document {
        format: FORMAT,
        inputs: &report.inputs,
        strict: report.strict,
        exchanges: report.exchanges,
        errors: tally.errors,
        warnings: tally.warnings,
        operations: &report.per_operation,
        findings: Streamed(std::cell::Cell::new(Some(records.findings()?))),
        drift: DriftLists {
            properties: items(&report.drift.properties),
            enum_values: items(&report.drift.enum_values),
            statuses: items(&report.drift.statuses),
            parameters: items(&report.drift.parameters),
            bodies: items(&report.drift.bodies),
        },
    };
    serde_json::to_writer_pretty(&mut out, &document)?;
    out.write_all(b"\n")?;
    out.flush()
}

#[derive(Serialize)]
struct Document<'a> {
    format: u32,
    inputs: &'a [String],
    strict: bool,
    exchanges: u64,
    errors: u64,
    warnings: u64,
    operations: &'a BTreeMap<String, OperationStats>,
    findings: Streamed<'a, Finding>,
    drift: DriftLists<'a>,
}

/// A stream serialized as a JSON array, one item at a time (serialized once).
pub(crate) struct Streamed<'r, T: Clone + 'r>(pub(crate) std::cell::Cell<Option<Stream<'r, T>>>);

impl<T: Serialize + Clone> Serialize for Streamed<'_, T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeSeq as _};
        let items = self
            .0
            .take()
            .ok_or_else(|| S::Error::custom("a stream is serialized once"))?;
        let mut seq = serializer.serialize_seq(None)?;
        for item in items {
            let item = item.map_err(S::Error::custom)?;
            seq.serialize_element(&*item)?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
struct DriftLists<'a> {
    properties: Vec<DriftItem<'a>>,
    enum_values: Vec<DriftItem<'a>>,
    statuses: Vec<DriftItem<'a>>,
    parameters: Vec<DriftItem<'a>>,
    bodies: Vec<DriftItem<'a>>,
}

#[derive(Serialize)]
struct DriftItem<'a> {
    operation: &'a str,
    part: Part,
    location: &'a str,
    /// `null` when masked.
    value: Option<&'a str>,
    /// Whether `value` was withheld (`--show-values` shows it), so that a masked value is not
    /// read as a JSON `null` seen in the traffic.
    masked: bool,
    count: u64,
}

fn items(map: &BTreeMap<DriftKey, u64>) -> Vec<DriftItem<'_>> {
    map.iter()
        .map(|(key, count)| DriftItem {
            operation: &key.operation,
            part: key.part,
            location: &key.location,
            value: key.value.as_deref(),
            masked: key.value.is_none(),
            count: *count,
        })
        .collect()
}
