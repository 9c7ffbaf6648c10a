//! The report as SARIF 2.1.0: one rule per check that fired, one result per finding, located
//! in the document by line and column and by JSON pointer.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{RenderOptions, file_of};
use crate::diff::checks::{self, Level};
use crate::diff::finding::Report;

fn sarif_level(level: Level) -> &'static str {
    match level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Info => "note",
    }
}

pub(super) fn report(report: &Report, options: &RenderOptions) -> String {
    let mut rules: BTreeMap<&str, Value> = BTreeMap::new();
    let mut results = Vec::new();
    for finding in report.findings_on(&options.sides) {
        rules.entry(finding.id.as_str()).or_insert_with(|| {
            let summary = checks::find(&finding.id).map_or("", |c| c.summary.as_str());
            json!({
                "id": finding.id,
                "shortDescription": {"text": summary},
                "defaultConfiguration": {"level": sarif_level(finding.level)},
            })
        });
        let mut region = serde_json::Map::new();
        if let Some(line) = finding.place.line {
            region.insert("startLine".into(), json!(line));
        }
        if let Some(column) = finding.place.column {
            region.insert("startColumn".into(), json!(column));
        }
        let mut physical = json!({
            "artifactLocation": {"uri": file_of(report, &finding.place)},
        });
        if !region.is_empty() {
            physical["region"] = Value::Object(region);
        }
        let mut properties = json!({
            "side": finding.side.map(|s| s.as_str()),
            "document": finding.place.document,
        });
        if !finding.uses.is_empty() {
            properties["uses"] = json!(finding.uses);
        }
        if let Some(absorbed) = &finding.absorbed {
            properties["absorbed"] = json!(absorbed);
        }
        if let Some(item) = &finding.item {
            properties["item"] = json!(item);
        }
        results.push(json!({
            "ruleId": finding.id,
            "level": sarif_level(finding.level),
            "message": {"text": finding.message},
            "locations": [{
                "physicalLocation": physical,
                "logicalLocations": [{"fullyQualifiedName": finding.place.pointer, "kind": "member"}],
            }],
            "properties": properties,
        }));
    }
    let document = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "specgen diff",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules.into_values().collect::<Vec<_>>(),
            }},
            "results": results,
        }],
    });
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}
