//! The report as JSON: everything, for machines.

use serde::Serialize;

use super::RenderOptions;
use crate::diff::checks::Level;
use crate::diff::finding::{Finding, Report, Semver, Version};

#[derive(Serialize)]
struct Document<'a> {
    old: &'a Version,
    new: &'a Version,
    semver: &'a Semver,
    summary: Summary,
    findings: Vec<&'a Finding>,
}

#[derive(Serialize)]
struct Summary {
    error: usize,
    warning: usize,
    info: usize,
    fail_on: Level,
    fails: bool,
}

pub(super) fn report(report: &Report, options: &RenderOptions) -> String {
    let (error, warning, info) = report.counts(&options.sides);
    let document = Document {
        old: &report.old,
        new: &report.new,
        semver: &report.semver,
        summary: Summary {
            error,
            warning,
            info,
            fail_on: options.fail_on,
            fails: report.fails(options.fail_on, &options.sides),
        },
        findings: report.findings_on(&options.sides).collect(),
    };
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}
