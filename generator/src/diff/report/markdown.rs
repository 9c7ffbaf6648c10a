//! The report as Markdown, for a pull-request comment.

use std::fmt::Write;

use super::{RenderOptions, breaking_by_side, counts_line, grouped, location, semver_line};
use crate::diff::checks::Level;
use crate::diff::finding::{Finding, Report};

fn badge(level: Level) -> &'static str {
    match level {
        Level::Error => "🔴 error",
        Level::Warning => "🟠 warning",
        Level::Info => "🔵 info",
    }
}

/// Text safe in a table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn header(report: &Report, options: &RenderOptions, title: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## {title}: {} {} → {}\n",
        report.new.title, report.old.version, report.new.version
    );
    let _ = writeln!(
        out,
        "**{}**; {}.\n",
        counts_line(report, &options.sides),
        semver_line(report)
    );
    out
}

fn row(out: &mut String, report: &Report, finding: &Finding) {
    let mut what = cell(&finding.message);
    if let Some(absorbed) = &finding.absorbed {
        what.push_str(&format!(" *(absorbed: {})*", cell(absorbed)));
    }
    let _ = writeln!(
        out,
        "| {} | `{}` | {} | `{}` |",
        badge(finding.level),
        finding.id,
        what,
        cell(&location(report, &finding.place))
    );
}

/// The breaking findings by side; changes that break nothing folded away.
pub(super) fn report(report: &Report, options: &RenderOptions) -> String {
    let mut out = header(report, options, "API changes");
    for (side, breaking) in breaking_by_side(report, options) {
        let _ = writeln!(out, "### {}\n", side.title());
        if breaking.is_empty() {
            let _ = writeln!(out, "Nothing breaks.\n");
            continue;
        }
        let _ = writeln!(out, "| level | check | change | where |\n|---|---|---|---|");
        for finding in breaking {
            row(&mut out, report, finding);
        }
        out.push('\n');
    }
    let infos: Vec<&Finding> = report
        .findings_on(&options.sides)
        .filter(|f| f.level == Level::Info)
        .collect();
    if !infos.is_empty() {
        let _ = writeln!(
            out,
            "<details><summary>{} change{} that break{} nothing</summary>\n",
            infos.len(),
            if infos.len() == 1 { "" } else { "s" },
            if infos.len() == 1 { "s" } else { "" }
        );
        let _ = writeln!(out, "| level | check | change | where |\n|---|---|---|---|");
        for finding in infos {
            row(&mut out, report, finding);
        }
        let _ = writeln!(out, "\n</details>");
    }
    out
}

/// Every change, grouped by operation and component.
pub(super) fn changelog(report: &Report, options: &RenderOptions) -> String {
    let mut out = header(report, options, "Changelog");
    for (section, groups) in grouped(report.findings_on(&options.sides)) {
        let _ = writeln!(out, "### {section}\n");
        for (group, findings) in groups {
            let _ = writeln!(out, "#### {}\n", group.title());
            for finding in findings {
                let side = finding
                    .side
                    .map(|s| format!(" ({})", s.as_str()))
                    .unwrap_or_default();
                let absorbed = finding
                    .absorbed
                    .as_ref()
                    .map(|a| format!(" *(absorbed: {a})*"))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "- {}{side} `{}`: {}{absorbed}",
                    badge(finding.level),
                    finding.id,
                    finding.message
                );
            }
            out.push('\n');
        }
    }
    out
}
