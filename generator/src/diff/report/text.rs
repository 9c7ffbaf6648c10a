//! The report for a terminal.

use std::fmt::Write;

use super::{RenderOptions, breaking_by_side, counts_line, grouped, location, semver_line};
use crate::diff::checks::{Level, Side};
use crate::diff::finding::{Finding, Report};

fn header(report: &Report) -> String {
    format!(
        "specgen diff: {} ({} {}) → {} ({} {})\n",
        report.old.source,
        report.old.title,
        report.old.version,
        report.new.source,
        report.new.title,
        report.new.version
    )
}

fn finding_lines(out: &mut String, report: &Report, finding: &Finding, indent: &str) {
    let _ = writeln!(
        out,
        "{indent}{:<7} {}: {}",
        finding.level.as_str(),
        finding.id,
        finding.message
    );
    let _ = writeln!(
        out,
        "{indent}        at {} {}",
        location(report, &finding.place),
        finding.place.pointer
    );
    if !finding.uses.is_empty() && finding.uses.len() <= 5 {
        let _ = writeln!(out, "{indent}        in {}", finding.uses.join(", "));
    } else if !finding.uses.is_empty() {
        let _ = writeln!(
            out,
            "{indent}        in {} and {} more",
            finding.uses[..4].join(", "),
            finding.uses.len() - 4
        );
    }
    if let Some(absorbed) = &finding.absorbed {
        let _ = writeln!(out, "{indent}        absorbed: {absorbed}");
    }
}

/// The breaking findings by side, then how many changes break nothing.
pub(super) fn report(report: &Report, options: &RenderOptions) -> String {
    let mut out = header(report);
    let _ = writeln!(out, "{}", counts_line(report, &options.sides));
    let _ = writeln!(out, "{}", semver_line(report));
    for (side, breaking) in breaking_by_side(report, options) {
        if breaking.is_empty() {
            let _ = writeln!(out, "\n{}: nothing breaks", side.title());
        } else {
            let _ = writeln!(out, "\n{}:", side.title());
        }
        for finding in breaking {
            finding_lines(&mut out, report, finding, "  ");
        }
    }
    let infos = report
        .findings_on(&options.sides)
        .filter(|f| f.level == Level::Info)
        .count();
    if infos > 0 {
        let _ = writeln!(
            out,
            "\n{infos} more change{} that break{} nothing: see --changelog",
            if infos == 1 { "" } else { "s" },
            if infos == 1 { "s" } else { "" }
        );
    }
    out
}

/// Every change, grouped by operation and component.
pub(super) fn changelog(report: &Report, options: &RenderOptions) -> String {
    let mut out = header(report);
    let _ = writeln!(out, "{}", counts_line(report, &options.sides));
    let _ = writeln!(out, "{}", semver_line(report));
    for (section, groups) in grouped(report.findings_on(&options.sides)) {
        let _ = writeln!(out, "\n{section}");
        for (group, findings) in groups {
            let _ = writeln!(out, "  {}", group.title().replace('`', ""));
            for finding in findings {
                let side = finding.side.map_or("", Side::as_str);
                let _ = writeln!(
                    out,
                    "    {:<7} {:<8} {}: {}",
                    finding.level.as_str(),
                    side,
                    finding.id,
                    finding.message
                );
            }
        }
    }
    out
}
