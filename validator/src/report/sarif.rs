//! SARIF 2.1.0 (the OASIS Static Analysis Results Interchange Format), for code-scanning
//! dashboards.
//!
//! Why SARIF rather than, say, GitHub workflow annotations (`::error file=…::`): GitHub code
//! scanning (`github/codeql-action/upload-sarif`), GitLab and Azure DevOps all ingest it, it
//! keeps its results across runs (alerts open, stay and close as the traffic changes), and it
//! carries what a contract break is: rule metadata (an id and a description per rule) and a
//! level per result. Workflow annotations only exist on GitHub Actions, are capped at a handful
//! per step, and carry a line of text, nothing more.
//!
//! The document: one run whose `tool.driver` is specval (its version, one `rules` entry per
//! distinct rule, sorted, with a short description:
//! [`Rule::description`](crate::rule::Rule::description)), and one result per finding, in the
//! report's order, with
//! - `ruleId` and `ruleIndex`, `level` `error` or `warning`, and `message.text`, the finding
//!   as the text format writes it (`#4 [pay-2] createPayment request /amount/value: …`);
//! - `locations[0].physicalLocation.artifactLocation.uri`, the input file as named on the
//!   command line (percent-encoded; absolute paths as `file://` URIs), and `region.startLine`,
//!   the line the exchange starts on in that file (the JSON Lines record, the `{` of the HAR
//!   entry). GitHub code scanning refuses a result without a region; a finding about the
//!   input as a whole (an empty or unreadable input) points at line 1;
//! - `locations[0].logicalLocations[0]`, the operation (`(unmatched)`, `(malformed)` when
//!   none) with `fullyQualifiedName` `operation/part/pointer`;
//! - `properties` `exchange` (its index in the input), `id`, `part`, `operation`,
//!   `pointer`, `schemaLocation` (absent ones left out);
//! - `partialFingerprints` `specval/v1`: rule, operation, part, pointer and the message with
//!   its numbers left out (a line, a column, an entry's index, a bound), so a dashboard sees
//!   the same break in the next recording as the same alert rather than a new one, and two
//!   breaks at one place (two missing members) as two.
//!
//! At most 25,000 results, GitHub code scanning's limit per run, above which it refuses the
//! whole file: the rest are counted in a warning notification of the run's invocation
//! (`invocations[0].toolExecutionNotifications`); the other formats hold every finding.
//!
//! Key order is insertion order (the workspace builds serde_json with `preserve_order`).

use std::collections::BTreeMap;
use std::io::{self, Write as _};

use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::RunReport;
use super::group::group;
use super::records::{Records, Stream};
use super::text::{clean, describe, part_name};
use crate::finding::{Finding, Severity};

/// The schema a SARIF 2.1.0 log names.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The most results one run holds: GitHub code scanning refuses a file whose run holds more.
pub const MAX_RESULTS: usize = 25_000;

/// Writes the report as SARIF 2.1.0, its results streamed from `records`.
pub fn write(
    _report: &RunReport,
    records: &dyn Records,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    let tally = records.tally();
    let rules: BTreeMap<&str, usize> = tally
        .rules
        .iter()
        .enumerate()
        .map(|(at, name)| (name.as_str(), at))
        .collect();
    // In the order of `rules`: a rule sorts as its id.
    let descriptors: Vec<Value> = tally
        .rules
        .iter()
        .map(|rule| {
            json!({
                "id": rule.as_str(),
                "shortDescription": {"text": rule.description()},
                "fullDescription": {"text": rule.description()},
                "help": {"text": format!(
                    "{}. Each result's message names the exchange, the operation, the place \
                     and the rule's verdict; the contract file it cites holds the rule.",
                    rule.description()
                )},
            })
        })
        .collect();
    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: json!({
                "driver": {
                    "name": "specval",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": descriptors,
                }
            }),
            results: Results {
                findings: std::cell::Cell::new(Some(records.findings()?)),
                rules: &rules,
                left_out: std::cell::Cell::new(0),
            },
        }],
    };
    let mut out = io::BufWriter::new(out);
    serde_json::to_writer_pretty(&mut out, &log)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// The log, its keys in SARIF's usual order.
#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

struct Run<'a> {
    tool: Value,
    results: Results<'a>,
}

impl Serialize for Run<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("tool", &self.tool)?;
        map.serialize_entry("results", &self.results)?;
        // Known once the results are written.
        let left_out = self.results.left_out.get();
        if left_out > 0 {
            let text = format!(
                "{left_out} more results are left out: a run holds at most {MAX_RESULTS} \
                 (GitHub code scanning refuses more); the text, JSON and JUnit reports hold \
                 every finding"
            );
            map.serialize_entry(
                "invocations",
                &json!([{
                    "executionSuccessful": true,
                    "toolExecutionNotifications": [{
                        "level": "warning",
                        "message": {"text": text},
                    }],
                }]),
            )?;
        }
        map.end()
    }
}

/// The results, made one at a time from the findings as they are read.
struct Results<'a> {
    findings: std::cell::Cell<Option<Stream<'a, crate::finding::Finding>>>,
    rules: &'a BTreeMap<&'a str, usize>,
    /// Findings beyond [`MAX_RESULTS`], counted as they are read.
    left_out: std::cell::Cell<u64>,
}

impl Serialize for Results<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeSeq as _};
        let findings = self
            .findings
            .take()
            .ok_or_else(|| S::Error::custom("the results are serialized once"))?;
        let mut seq = serializer.serialize_seq(None)?;
        let mut written = 0;
        for finding in findings {
            let finding = finding.map_err(S::Error::custom)?;
            if written == MAX_RESULTS {
                self.left_out.set(self.left_out.get() + 1);
                continue;
            }
            let index = self.rules.get(finding.rule.as_str()).copied().unwrap_or(0);
            seq.serialize_element(&result(&finding, index))?;
            written += 1;
        }
        seq.end()
    }
}

fn result(finding: &Finding, rule_index: usize) -> Value {
    let operation = group(finding);
    let part = part_name(finding.part);
    let mut properties = Map::new();
    properties.insert("exchange".into(), json!(finding.exchange));
    if let Some(id) = &finding.id {
        properties.insert("id".into(), json!(id));
    }
    properties.insert("part".into(), json!(part));
    if let Some(operation) = &finding.operation {
        properties.insert("operation".into(), json!(operation));
    }
    properties.insert("pointer".into(), json!(finding.pointer));
    properties.insert("schemaLocation".into(), json!(finding.schema_location));

    let mut text = format!("#{} ", finding.exchange);
    if let Some(id) = &finding.id {
        text.push_str(&format!("[{}] ", clean(id)));
    }
    text.push_str(&format!("{} {}", clean(operation), describe(finding)));

    let mut qualified = format!("{operation}/{part}");
    if !finding.pointer.is_empty() && !finding.pointer.starts_with('/') {
        qualified.push('/');
    }
    qualified.push_str(&finding.pointer);

    json!({
        "ruleId": finding.rule,
        "ruleIndex": rule_index,
        "level": match finding.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        },
        "message": {"text": text},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": {"uri": uri(&finding.source)},
                "region": {"startLine": finding.line.unwrap_or(1)},
            },
            "logicalLocations": [{
                "name": operation,
                "fullyQualifiedName": qualified,
                "kind": "function",
            }],
        }],
        "partialFingerprints": {"specval/v1": fingerprint(finding)},
        "properties": properties,
    })
}

/// What makes a result the same alert from one run to the next: the rule, operation, part,
/// pointer and message, the message's numbers left out (a line and column that move when the
/// file is edited, an entry's index, the bound a value broke), so that two breaks at one
/// place (two required members missing) are two alerts and one break in many exchanges one.
fn fingerprint(finding: &Finding) -> String {
    let mut message = String::with_capacity(finding.message.len());
    for c in finding.message.chars() {
        if !c.is_ascii_digit() {
            message.push(c);
        } else if !message.ends_with('#') {
            message.push('#');
        }
    }
    format!(
        "{}|{}|{}|{}|{message}",
        finding.rule,
        group(finding),
        part_name(finding.part),
        finding.pointer
    )
}

/// Characters escaped in a path made a URI reference: everything but unreserved characters
/// and `/`.
const PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b']')
    .add(b'\\')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}')
    .add(b':');

/// An input's name as a URI reference: relative paths stay relative (what code scanning
/// resolves against the repository), absolute ones become `file://` URIs, Windows
/// separators become `/`.
fn uri(source: &str) -> String {
    let path = source.replace('\\', "/");
    if let Some(rest) = path.strip_prefix('/') {
        format!("file:///{}", utf8_percent_encode(rest, PATH))
    } else if path.as_bytes().get(1) == Some(&b':') && path.as_bytes()[0].is_ascii_alphabetic() {
        // C:/traffic/a.har
        format!(
            "file:///{}:{}",
            &path[..1],
            utf8_percent_encode(&path[2..], PATH)
        )
    } else {
        utf8_percent_encode(&path, PATH).to_string()
    }
}
