//! Human text, the default format: for people at a terminal and for CI logs.
//!
//! ```text
//! Inputs: traffic/a.har — 9 exchanges read, 2 errors, 1 warning (strict)
//!
//! createPayment — 3 exchanges, 1 failed, 2 errors, 0 warnings
//!   #4 [pay-2] request /amount/value: "12.5x" does not match format "decimal" (rule format; components/Amount.json#/…)
//! getAccount — 5 exchanges, 1 failed, 0 errors, 1 warning
//!   #1 response /owner/nickname: warning: property `nickname` is not documented in the spec (rule undocumented-property; …)
//! (unmatched) — 1 exchange, 1 failed, 1 error, 0 warnings
//!   #8 entry: no operation has the path GET /v1/nowhere (rule operation-path; manifest.json#/operations)
//!
//! Drift: seen in traffic, not in the spec
//!   undocumented properties:
//!     getAccount response /owner: "nickname" (seen 3 times)
//!
//! specval: 9 exchanges, 2 errors, 1 warning in 1 file
//! ```
//!
//! Every operation of `per_operation` gets its header line, findings or not, so the log shows
//! what the traffic covered; operations are sorted by name with `(unmatched)` and
//! `(malformed)` last. The output is deterministic and has no colours. It prints only what
//! the report holds, and every string from the traffic goes through `clean` first, so a
//! recorded value cannot break a line or send escape sequences to a terminal.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::{self, Write};

use super::group::{INPUT, MALFORMED, NOT_API, UNMATCHED};
use super::records::{Records, Tally};
use super::{DriftKey, OperationStats, RunReport};
use crate::finding::{Finding, Part, Severity};

/// Writes the report as text, its findings read from `records` a group at a time.
pub fn write(report: &RunReport, records: &dyn Records, out: &mut dyn io::Write) -> io::Result<()> {
    let tally = records.tally();
    let mut out = io::BufWriter::new(out);
    let mut text = String::new();
    header(report, &tally, &mut text);
    out.write_all(text.as_bytes())?;
    groups(report, records, &tally, &mut out)?;
    text.clear();
    drift(report, &mut text);
    summary(report, &tally, &mut text);
    out.write_all(text.as_bytes())?;
    out.flush()
}

fn header(report: &RunReport, tally: &Tally, text: &mut String) {
    let inputs = if report.inputs.is_empty() {
        "(none)".to_string()
    } else {
        report
            .inputs
            .iter()
            .map(|input| clean(input))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = write!(
        text,
        "Inputs: {inputs} — {} read, {}, {}",
        count(report.exchanges, "exchange"),
        count(tally.errors, "error"),
        count(tally.warnings, "warning"),
    );
    if report.strict {
        text.push_str(" (strict)");
    }
    text.push('\n');
}

fn groups(
    report: &RunReport,
    records: &dyn Records,
    tally: &Tally,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    let names: BTreeSet<&str> = report
        .per_operation
        .keys()
        .chain(&tally.groups)
        .map(String::as_str)
        .collect();
    let mut names: Vec<&str> = names.into_iter().collect();
    names.sort_by_key(|name| (group_rank(name), *name));
    if names.is_empty() {
        return Ok(());
    }
    out.write_all(b"\n")?;
    let several_inputs = report.inputs.len() > 1;
    for name in names {
        let stats = match report.per_operation.get(name) {
            Some(stats) => stats.clone(),
            None => stats_of(records.group(name)?)?,
        };
        writeln!(
            out,
            "{} — {}, {} failed, {}, {}",
            clean(name),
            count(stats.exchanges, "exchange"),
            stats.failed,
            count(stats.errors, "error"),
            count(stats.warnings, "warning"),
        )?;
        for finding in records.group(name)? {
            writeln!(out, "  {}", line(&*finding?, several_inputs))?;
        }
    }
    Ok(())
}

fn drift(report: &RunReport, text: &mut String) {
    if report.drift.is_empty() {
        return;
    }
    text.push_str("\nDrift: seen in traffic, not in the spec\n");
    let sections = [
        ("undocumented properties", &report.drift.properties, true),
        ("undocumented enum values", &report.drift.enum_values, true),
        ("undocumented statuses", &report.drift.statuses, false),
        (
            "undocumented query parameters",
            &report.drift.parameters,
            true,
        ),
        ("undocumented response bodies", &report.drift.bodies, false),
    ];
    for (title, items, quote) in sections {
        if items.is_empty() {
            continue;
        }
        let _ = writeln!(text, "  {title}:");
        for (key, seen) in items {
            let _ = writeln!(text, "    {} ({})", drift_item(key, quote), times(*seen));
        }
    }
}

fn summary(report: &RunReport, tally: &Tally, text: &mut String) {
    let files = count(report.inputs.len() as u64, "file");
    let exchanges = count(report.exchanges, "exchange");
    text.push('\n');
    if tally.errors + tally.warnings == 0 {
        let _ = writeln!(text, "specval: {exchanges}, clean, in {files}");
    } else {
        let _ = writeln!(
            text,
            "specval: {exchanges}, {}, {} in {files}",
            count(tally.errors, "error"),
            count(tally.warnings, "warning"),
        );
    }
}

/// Operations first, then `(unmatched)`, `(not API traffic)`, `(malformed)` and `(input)`.
fn group_rank(name: &str) -> u8 {
    match name {
        UNMATCHED => 1,
        NOT_API => 2,
        MALFORMED => 3,
        INPUT => 4,
        _ => 0,
    }
}

/// Counts for a group that `per_operation` lacks (a report built by hand), from its findings.
fn stats_of(findings: super::records::Stream<'_, Finding>) -> io::Result<OperationStats> {
    let mut exchanges = BTreeSet::new();
    let mut failed = BTreeSet::new();
    let (mut errors, mut warnings) = (0, 0);
    for finding in findings {
        let finding = finding?;
        let at = (finding.source.clone(), finding.exchange);
        if finding.severity == Severity::Error {
            errors += 1;
        } else {
            warnings += 1;
        }
        failed.insert(at.clone());
        exchanges.insert(at);
    }
    Ok(OperationStats {
        exchanges: exchanges.len() as u64,
        failed: failed.len() as u64,
        errors,
        warnings,
    })
}

/// One finding on one line: `#12 (line 13) [id] response /amount/value: message (rule format;
/// where)`, with the input's name before `#` when the run read several. `#12` counts exchanges
/// from 0, as the JSON report's `exchange` does; the line is where the exchange starts in its
/// file (the JSON Lines record, the `{` of the HAR entry), which is what a reader looks for.
fn line(finding: &Finding, with_source: bool) -> String {
    let mut line = String::new();
    if with_source {
        line.push_str(&clean(&finding.source));
    }
    let _ = write!(line, "#{} ", finding.exchange);
    if let Some(at) = finding.line {
        let _ = write!(line, "(line {at}) ");
    }
    if let Some(id) = &finding.id {
        let _ = write!(line, "[{}] ", clean(id));
    }
    line.push_str(&describe(finding));
    line
}

/// A finding without its exchange: `response /amount/value: message (rule format; where)`;
/// warnings say so before the message.
pub(crate) fn describe(finding: &Finding) -> String {
    let mut text = part_name(finding.part).to_string();
    if !finding.pointer.is_empty() {
        text.push(' ');
        text.push_str(&clean(&finding.pointer));
    }
    text.push_str(": ");
    if finding.severity == Severity::Warning {
        text.push_str("warning: ");
    }
    let _ = write!(
        text,
        "{} (rule {}",
        clean(&finding.message),
        clean(finding.rule.as_str())
    );
    if !finding.schema_location.is_empty() {
        let _ = write!(text, "; {}", clean(&finding.schema_location));
    }
    text.push(')');
    text
}

/// `getAccount response /owner: "nickname"`, or `createPayment response status: 418`.
fn drift_item(key: &DriftKey, quote: bool) -> String {
    let mut text = format!("{} {}", clean(&key.operation), part_name(key.part));
    if !key.location.is_empty() {
        text.push(' ');
        text.push_str(&clean(&key.location));
    }
    text.push_str(": ");
    match &key.value {
        // JSON quoting shows surrounding spaces and escapes control characters.
        Some(value) if quote => text.push_str(&serde_json::to_string(value).unwrap_or_default()),
        Some(value) => text.push_str(&clean(value)),
        None => text.push_str("(value masked; --show-values shows it)"),
    }
    text
}

/// The name of a part, as in the JSON report.
pub(crate) fn part_name(part: Part) -> &'static str {
    match part {
        Part::Request => "request",
        Part::Response => "response",
        Part::Notification => "notification",
        Part::Reply => "reply",
        Part::Entry => "entry",
    }
}

/// `1 error`, `2 errors`.
fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn times(n: u64) -> String {
    match n {
        1 => "seen once".to_string(),
        n => format!("seen {n} times"),
    }
}

/// A string from the traffic, safe for one line of a terminal or log: control characters
/// (line breaks, escape sequences) and the bidirectional-text controls that can make a line
/// read differently from what it holds are written as `\u{1b}`.
pub(crate) fn clean(text: &str) -> Cow<'_, str> {
    fn unsafe_char(c: char) -> bool {
        c.is_control()
            || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    }
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut cleaned = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            let _ = write!(cleaned, "\\u{{{:x}}}", c as u32);
        } else {
            cleaned.push(c);
        }
    }
    Cow::Owned(cleaned)
}
