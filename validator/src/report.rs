//! The outcome of a run, and the formats it is written in: human text (`text`), JSON
//! (`json`), JUnit XML (`junit`, a testcase per exchange) and SARIF 2.1.0 (`sarif`).

pub mod group;
pub mod json;
pub mod junit;
pub mod records;
pub mod sarif;
pub mod text;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::finding::{Finding, Part};

/// Counts for one operation (or `(unmatched)`, `(malformed)`, `(input)`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct OperationStats {
    /// Exchanges matched to it.
    pub exchanges: u64,
    /// Of those, the ones with at least one finding: an error, or a warning, which fails
    /// the run too.
    pub failed: u64,
    /// Error findings.
    pub errors: u64,
    /// Warning findings (strict mode).
    pub warnings: u64,
}

/// Something seen in the traffic that the spec does not document.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct DriftKey {
    /// Operation or webhook name.
    pub operation: String,
    /// Which message.
    pub part: Part,
    /// Where, as a pointer pattern with `*` for array indexes (`/transactions/*/status`),
    /// or `status` for an undocumented status.
    pub location: String,
    /// The property name, enum value or status; `None` for an enum value masked (it is an
    /// instance value, shown only with `--show-values`): all masked values at one place
    /// count together.
    pub value: Option<String>,
}

/// What the traffic holds that the spec does not show, with counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Drift {
    /// Undocumented properties.
    pub properties: BTreeMap<DriftKey, u64>,
    /// Enum values outside the documented list (closed or extensible).
    pub enum_values: BTreeMap<DriftKey, u64>,
    /// Response statuses not documented for the operation.
    pub statuses: BTreeMap<DriftKey, u64>,
    /// Query parameters not documented for the operation (the key's name as the value).
    pub parameters: BTreeMap<DriftKey, u64>,
    /// Bodies of responses whose status documents none (the documented status key as the
    /// location, the media type sent as the value).
    pub bodies: BTreeMap<DriftKey, u64>,
}

impl Drift {
    /// Adds another summary's counts.
    pub fn merge(&mut self, other: Drift) {
        for (map, more) in [
            (&mut self.properties, other.properties),
            (&mut self.enum_values, other.enum_values),
            (&mut self.statuses, other.statuses),
            (&mut self.parameters, other.parameters),
            (&mut self.bodies, other.bodies),
        ] {
            for (key, count) in more {
                *map.entry(key).or_default() += count;
            }
        }
    }

    /// Whether nothing undocumented was seen.
    pub fn is_empty(&self) -> bool {
        self.properties.is_empty()
            && self.enum_values.is_empty()
            && self.statuses.is_empty()
            && self.parameters.is_empty()
            && self.bodies.is_empty()
    }
}

/// One exchange's verdict, for formats that list every exchange (JUnit).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExchangeOutcome {
    /// The file.
    pub source: String,
    /// Position in the file.
    pub index: usize,
    /// The input's id.
    pub id: Option<String>,
    /// `METHOD path` as recorded.
    pub label: String,
    /// Operation or webhook name, when matched.
    pub operation: Option<String>,
    /// Error findings of this exchange.
    pub errors: u64,
    /// Warning findings.
    pub warnings: u64,
}

/// Everything a run found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunReport {
    /// The inputs, as named on the command line (`-` for standard input).
    pub inputs: Vec<String>,
    /// Whether strict mode was on.
    pub strict: bool,
    /// Entries read, malformed ones included.
    pub exchanges: u64,
    /// Counts per operation, `(unmatched)` and `(malformed)` included.
    pub per_operation: BTreeMap<String, OperationStats>,
    /// Every finding, ordered by input, then exchange.
    pub findings: Vec<Finding>,
    /// Undocumented fields, enum values and statuses seen.
    pub drift: Drift,
    /// Every exchange's verdict, kept only when a format needs it.
    pub outcomes: Vec<ExchangeOutcome>,
    /// Inputs that could not be read (to the end), each with why; each also has a finding.
    /// A run with any is incomplete: `specval check` exits 2 after writing the report.
    pub unreadable: Vec<String>,
}

impl RunReport {
    /// Error findings.
    pub fn errors(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == crate::finding::Severity::Error)
            .count()
    }

    /// Warning findings.
    pub fn warnings(&self) -> usize {
        self.findings.len() - self.errors()
    }

    /// Exchanges passed over as no calls of the API (a browser's preflights, a web page's own
    /// resources): counted under `(not API traffic)`, not judged.
    pub fn passed_over(&self) -> u64 {
        self.per_operation
            .get(group::NOT_API)
            .map_or(0, |stats| stats.exchanges)
    }
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Human text, grouped by operation, with counts.
    Text,
    /// The whole report as one JSON document.
    Json,
    /// JUnit XML: a testsuite per input, a testcase per exchange.
    Junit,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
}

/// Writes the report in a format. Credential values never reach a report: findings name
/// headers, never their values.
pub fn write(
    report: &RunReport,
    format: Format,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    write_records(report, report, format, out)
}

/// The exit code of `specval check` for a report: 2 when an input could not be read (to the
/// end), else 1 when there is any finding, else 0.
pub fn exit_code(report: &RunReport, records: &dyn records::Records) -> u8 {
    let tally = records.tally();
    if !report.unreadable.is_empty() {
        2
    } else if tally.errors + tally.warnings > 0 {
        1
    } else {
        0
    }
}

/// Writes a report whose findings and verdicts are in `records` (a [`records::Spool`]), the
/// rest in `report`.
pub fn write_records(
    report: &RunReport,
    records: &dyn records::Records,
    format: Format,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    match format {
        Format::Text => text::write(report, records, out),
        Format::Json => json::write(report, records, out),
        Format::Junit => junit::write(report, records, out),
        Format::Sarif => sarif::write(report, records, out),
    }
}
