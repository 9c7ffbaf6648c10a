//! `specval examples`: every example of an OpenAPI document checked against the schema of the
//! place it stands (component schema, request body, response body per status, webhook payload
//! and reply, parameter). Real documents contradict themselves; this finds where.

use std::path::Path;

use serde::Serialize;

use crate::contract::ContractError;
use crate::contract::{Judged, violation, without_echoes};
use crate::rule::Rule;

/// One example that contradicts its schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InvalidExample {
    /// JSON pointer of the example in the document.
    pub example: String,
    /// What the place is (`component Account`, `createAccount response 201`).
    pub place: String,
    /// JSON pointer into the example.
    pub pointer: String,
    /// The failing keyword.
    pub rule: Rule,
    /// Contract file and pointer of the rule, or the parameter.
    pub schema_location: String,
    /// For a person.
    pub message: String,
    /// The line of the example in the document, when known.
    #[serde(skip)]
    pub line: Option<usize>,
}

/// One example checked, valid or not (for formats that list every example).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedExample {
    /// JSON pointer of the example in the document.
    pub example: String,
    /// What the place is.
    pub place: String,
    /// The line of the example in the document, when known.
    pub line: Option<usize>,
    /// Its violations.
    pub violations: usize,
}

/// The examples of a document, checked.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ExamplesReport {
    /// Examples found.
    pub found: usize,
    /// Of those, valid against their schema.
    pub valid: usize,
    /// One entry per violation of an invalid example.
    pub invalid: Vec<InvalidExample>,
    /// Every example, in the order checked (not part of the JSON layout).
    #[serde(skip)]
    pub checked: Vec<CheckedExample>,
}

impl ExamplesReport {
    /// The report as a run over one input, the document: each example an exchange, each
    /// violation a finding at the example's line. The JUnit and SARIF writers of traffic
    /// reports then write it (a testcase per example; a result per violation, pointing into
    /// the document).
    pub fn as_run(&self, spec: &str) -> crate::report::RunReport {
        use crate::finding::{Finding, Part, Severity};
        use crate::report::{ExchangeOutcome, RunReport};
        let mut report = RunReport {
            inputs: vec![spec.to_string()],
            exchanges: self.checked.len() as u64,
            ..RunReport::default()
        };
        let mut invalid = self.invalid.iter().peekable();
        for (index, example) in self.checked.iter().enumerate() {
            let stats = report
                .per_operation
                .entry(example.place.clone())
                .or_default();
            stats.exchanges += 1;
            stats.errors += example.violations as u64;
            stats.failed += u64::from(example.violations > 0);
            report.outcomes.push(ExchangeOutcome {
                source: spec.to_string(),
                index,
                id: None,
                label: example.example.clone(),
                operation: Some(example.place.clone()),
                errors: example.violations as u64,
                warnings: 0,
            });
            while let Some(item) = invalid.next_if(|item| item.example == example.example) {
                report.findings.push(Finding {
                    exchange: index,
                    id: None,
                    source: spec.to_string(),
                    line: item.line,
                    part: Part::Entry,
                    operation: Some(example.place.clone()),
                    pointer: item.pointer.clone(),
                    schema_location: item.schema_location.clone(),
                    rule: item.rule.clone(),
                    message: format!("example {}: {}", item.example, item.message),
                    severity: Severity::Error,
                });
            }
        }
        report
    }
}

/// Checks every example of the document at `spec`, with specgen's one example loop
/// ([`specgen::examples::check_with`]) and `specval check`'s wording of a violation.
pub fn check_document(spec: &Path) -> Result<ExamplesReport, ContractError> {
    let fail = |e: specgen::Error| ContractError::Spec(e.to_string());
    let doc = specgen::load::load_file(spec).map_err(fail)?;
    let specgen::ContractOnly { api, files } =
        specgen::contract(&doc, &specgen::Options::default()).map_err(fail)?;
    let sites = specgen::examples::sites(&api);
    let checked = specgen::examples::check_with(
        &api,
        &sites,
        files
            .iter()
            .map(|(path, text)| (path.clone(), text.as_str())),
        |error, schema| {
            let judged = Judged {
                file: schema,
                instance: None,
                schema: None,
            };
            violation(&judged, error, true)
        },
    )
    .map_err(fail)?;
    let mut report = ExamplesReport {
        found: sites.len(),
        ..ExamplesReport::default()
    };
    for (site, violations) in checked {
        // One mistake, one violation, as `specval message` and `check` say it: a `type` and
        // an `enum` refusing the same value at one place are the `enum`'s.
        let violations = without_echoes(violations);
        if violations.is_empty() {
            report.valid += 1;
        }
        let line = doc.location(&site.example.pointer).map(|(line, _)| line);
        // Named as the document writes it: `#/definitions/…` in Swagger 2.0, `example`
        // where a lone one was read as `examples/0`.
        let written = doc.written_pointer(&site.example.pointer);
        report.checked.push(CheckedExample {
            example: written.clone(),
            place: site.place.clone(),
            line,
            violations: violations.len(),
        });
        report
            .invalid
            .extend(violations.into_iter().map(|v| InvalidExample {
                example: written.clone(),
                place: site.place.clone(),
                pointer: v.pointer,
                rule: v.rule,
                schema_location: v.schema_location,
                message: v.message,
                line,
            }));
    }
    Ok(report)
}
