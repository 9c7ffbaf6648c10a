//! A [`Report`] in the formats `specgen diff` writes: text, JSON, Markdown (for a
//! pull-request comment), JUnit and SARIF; and the changelog, every change grouped by
//! operation and component, as text or Markdown.

mod json;
mod junit;
mod markdown;
mod sarif;
mod text;

use std::collections::BTreeMap;

use super::checks::{Level, Side};
use super::finding::{Finding, Group, Place, Report, Which};

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// For a terminal.
    #[default]
    Text,
    /// Everything, for machines.
    Json,
    /// For a pull-request comment.
    Markdown,
    /// JUnit XML, one test case per finding (failing at `--fail-on` and above).
    Junit,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
}

impl Format {
    /// The format named `text`.
    pub fn parse(text: &str) -> Option<Format> {
        Some(match text {
            "text" => Format::Text,
            "json" => Format::Json,
            "markdown" | "md" => Format::Markdown,
            "junit" => Format::Junit,
            "sarif" => Format::Sarif,
            _ => return None,
        })
    }
}

/// How to render.
#[derive(Debug, Clone)]
pub struct RenderOptions {
    /// The format.
    pub format: Format,
    /// Every change grouped by operation and component (text and Markdown), rather than the
    /// breaking ones by side.
    pub changelog: bool,
    /// The sides to report (changes that break nothing are always kept).
    pub sides: Vec<Side>,
    /// The level from which a finding fails (JUnit failures; the exit code).
    pub fail_on: Level,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            format: Format::Text,
            changelog: false,
            sides: Side::ALL.to_vec(),
            fail_on: Level::Error,
        }
    }
}

/// The report in the chosen format.
pub fn render(report: &Report, options: &RenderOptions) -> String {
    match (options.format, options.changelog) {
        (Format::Text, false) => text::report(report, options),
        (Format::Text, true) => text::changelog(report, options),
        (Format::Markdown, false) => markdown::report(report, options),
        (Format::Markdown, true) => markdown::changelog(report, options),
        (Format::Json, _) => json::report(report, options),
        (Format::Junit, _) => junit::report(report, options),
        (Format::Sarif, _) => sarif::report(report, options),
    }
}

/// The file a place is in (`REV:PATH` as the path, for tools that map results to files).
fn file_of<'a>(report: &'a Report, place: &'a Place) -> &'a str {
    if let Some(file) = &place.file {
        return file;
    }
    let source = match place.document {
        Which::Old => &report.old.source,
        Which::New => &report.new.source,
    };
    match source.split_once(':') {
        Some((rev, path)) if !std::path::Path::new(source).exists() && !rev.is_empty() => path,
        _ => source,
    }
}

/// `file:line:column`, or the file and pointer when the line is unknown.
fn location(report: &Report, place: &Place) -> String {
    let source = match (&place.file, place.document) {
        (Some(file), _) => file,
        (None, Which::Old) => &report.old.source,
        (None, Which::New) => &report.new.source,
    };
    match (place.line, place.column) {
        (Some(line), Some(column)) => format!("{source}:{line}:{column}"),
        _ => source.to_string(),
    }
}

/// The findings at warning or error of each side to report, in order.
fn breaking_by_side<'a>(
    report: &'a Report,
    options: &RenderOptions,
) -> Vec<(Side, Vec<&'a Finding>)> {
    Side::ALL
        .into_iter()
        .filter(|side| options.sides.contains(side))
        .map(|side| {
            let breaking = report
                .findings
                .iter()
                .filter(|f| f.side == Some(side) && f.level > Level::Info)
                .collect();
            (side, breaking)
        })
        .collect()
}

/// A changelog section: its heading and its groups, each with its findings.
type Section<'a> = (&'static str, Vec<(Group, Vec<&'a Finding>)>);

/// The findings by changelog group: operations, webhooks, components, then the API.
fn grouped<'a>(findings: impl Iterator<Item = &'a Finding>) -> Vec<Section<'a>> {
    let mut by_group: BTreeMap<Group, Vec<&Finding>> = BTreeMap::new();
    for finding in findings {
        by_group
            .entry(finding.group.clone())
            .or_default()
            .push(finding);
    }
    let mut sections: Vec<Section> = vec![
        ("Operations", Vec::new()),
        ("Webhooks", Vec::new()),
        ("Components", Vec::new()),
        ("API", Vec::new()),
    ];
    for (group, mut list) in by_group {
        list.sort_by(|a, b| {
            (std::cmp::Reverse(a.level), a.side, &a.id, &a.message).cmp(&(
                std::cmp::Reverse(b.level),
                b.side,
                &b.id,
                &b.message,
            ))
        });
        let index = match group {
            Group::Operation(_) => 0,
            Group::Webhook(_) => 1,
            Group::Component(_) => 2,
            Group::Api => 3,
        };
        sections[index].1.push((group, list));
    }
    sections.retain(|(_, groups)| !groups.is_empty());
    sections
}

/// One line summing up the semver verdict.
fn semver_line(report: &Report) -> String {
    let semver = &report.semver;
    let made = match semver.made {
        Some(made) => format!("a {} bump", made.as_str()),
        None => "no increase".to_string(),
    };
    let verdict = if semver.sufficient {
        "enough"
    } else {
        "not enough"
    };
    format!(
        "the generated crate `{}` needs a {} bump; info.version {} → {} is {made} ({verdict})",
        report.new.crate_name,
        semver.needed.as_str(),
        report.old.version,
        report.new.version,
    )
}

/// Counts as `N errors, N warnings, N info`.
fn counts_line(report: &Report, sides: &[Side]) -> String {
    let (errors, warnings, infos) = report.counts(sides);
    format!(
        "{errors} error{}, {warnings} warning{}, {infos} info",
        if errors == 1 { "" } else { "s" },
        if warnings == 1 { "" } else { "s" },
    )
}

/// Escapes text for XML.
fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

/// The catalogue of checks: a table (text), a Markdown table grouped by area, or JSON.
pub fn catalogue(format: Format) -> String {
    use std::fmt::Write;
    let checks = super::checks::catalogue();
    match format {
        Format::Json => {
            let mut text = serde_json::to_string_pretty(checks).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Markdown => {
            let mut out = String::new();
            let mut areas: Vec<_> = checks.iter().map(|c| c.area).collect();
            areas.sort();
            areas.dedup();
            let _ = writeln!(out, "{} checks.\n", checks.len());
            for area in areas {
                let _ = writeln!(
                    out,
                    "### {}\n\n| id | level | side | finds |\n|---|---|---|---|",
                    area.title()
                );
                for check in checks.iter().filter(|c| c.area == area) {
                    let _ = writeln!(
                        out,
                        "| `{}` | {} | {} | {} |",
                        check.id,
                        check.level.as_str(),
                        check.side.map_or("-", Side::as_str),
                        check.summary.replace('|', "\\|")
                    );
                }
                out.push('\n');
            }
            out
        }
        _ => {
            let width = checks.iter().map(|c| c.id.len()).max().unwrap_or(0);
            let mut out = String::new();
            for check in checks {
                let _ = writeln!(
                    out,
                    "{:<width$}  {:<7}  {:<7}  {}",
                    check.id,
                    check.level.as_str(),
                    check.side.map_or("-", Side::as_str),
                    check.summary
                );
            }
            out
        }
    }
}
