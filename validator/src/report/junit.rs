//! JUnit XML, which the test reporters of GitLab (`artifacts:reports:junit`), Jenkins (the
//! JUnit plugin) and GitHub Actions (test-report actions) read: each exchange is a test that
//! passes when it keeps the contract.
//!
//! ```xml
//! <?xml version="1.0" encoding="UTF-8"?>
//! <testsuites name="specval" tests="9" failures="1" errors="0">
//!   <testsuite name="traffic/a.har" tests="9" failures="1" errors="0">
//!     <testcase classname="createPayment" name="#4 POST /v1/payments [pay-2]">
//!       <failure message="1 finding" type="contract">request /amount/value: … (rule format; …)</failure>
//!     </testcase>
//!     <testcase classname="getAccount" name="#5 GET /v1/accounts/7"/>
//!   </testsuite>
//! </testsuites>
//! ```
//!
//! A testsuite per input (in the order of `inputs`), a testcase per exchange from
//! `outcomes`, classed by operation, `(unmatched)` or `(malformed)`. An exchange with error
//! findings has a `<failure>` whose text is one line per error finding; its warnings go to
//! `<system-out>`. A finding whose exchange has no outcome still gets a testcase, so that no
//! error can leave the suite green.
//!
//! Escaping is quick-xml's (`<`, `>`, `&`, quotes, and in attributes line breaks and tabs).
//! Characters XML 1.0 forbids even escaped (control characters other than tab and line
//! breaks, U+FFFE, U+FFFF) are written as `\u{1b}` text before that; names and failure lines
//! go through the text format's one-line cleaning as well.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesText, Event};

use super::RunReport;
use super::text::{MALFORMED, UNMATCHED, clean, describe, group};
use crate::finding::{Finding, Severity};

/// Writes the report as JUnit XML.
pub fn write(report: &RunReport, out: &mut dyn io::Write) -> io::Result<()> {
    let suites = suites(report);
    let tests: usize = suites.iter().map(|(_, cases)| cases.len()).sum();
    let failures: usize = suites
        .iter()
        .map(|(_, cases)| cases.iter().filter(|case| case.failed()).count())
        .sum();

    let mut writer = Writer::new_with_indent(out, b' ', 2);
    writer.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    writer
        .create_element("testsuites")
        .with_attributes([
            ("name", "specval"),
            ("tests", &*tests.to_string()),
            ("failures", &*failures.to_string()),
            ("errors", "0"),
        ])
        .write_inner_content(|writer| {
            for (source, cases) in &suites {
                let failures = cases.iter().filter(|case| case.failed()).count();
                let suite = writer.create_element("testsuite").with_attributes([
                    ("name", &*xml_safe(&clean(source))),
                    ("tests", &*cases.len().to_string()),
                    ("failures", &*failures.to_string()),
                    ("errors", "0"),
                ]);
                if cases.is_empty() {
                    suite.write_empty()?;
                } else {
                    suite.write_inner_content(|writer| {
                        cases.iter().try_for_each(|case| case.write(writer))
                    })?;
                }
            }
            Ok(())
        })?;
    let out = writer.into_inner();
    out.write_all(b"\n")?;
    out.flush()
}

/// One exchange.
struct Case<'a> {
    classname: &'a str,
    name: String,
    /// Error findings the outcome counts (at least the ones listed).
    error_count: u64,
    errors: Vec<&'a Finding>,
    warnings: Vec<&'a Finding>,
}

impl Case<'_> {
    fn failed(&self) -> bool {
        self.error_count > 0
    }

    fn write<W: io::Write>(&self, writer: &mut Writer<W>) -> io::Result<()> {
        let case = writer.create_element("testcase").with_attributes([
            ("classname", &*xml_safe(&clean(self.classname))),
            ("name", &*xml_safe(&self.name)),
        ]);
        if !self.failed() && self.warnings.is_empty() {
            case.write_empty()?;
            return Ok(());
        }
        case.write_inner_content(|writer| {
            if self.failed() {
                let message = match self.error_count {
                    1 => "1 finding".to_string(),
                    n => format!("{n} findings"),
                };
                writer
                    .create_element("failure")
                    .with_attributes([("message", message.as_str()), ("type", "contract")])
                    .write_text_content(BytesText::new(&lines(&self.errors)))?;
            }
            if !self.warnings.is_empty() {
                writer
                    .create_element("system-out")
                    .write_text_content(BytesText::new(&lines(&self.warnings)))?;
            }
            Ok(())
        })?;
        Ok(())
    }
}

/// The testsuites: one per input, then one per other source findings or outcomes name.
fn suites(report: &RunReport) -> Vec<(&str, Vec<Case<'_>>)> {
    let mut findings: BTreeMap<(&str, usize), Vec<&Finding>> = BTreeMap::new();
    for finding in &report.findings {
        findings
            .entry((finding.source.as_str(), finding.exchange))
            .or_default()
            .push(finding);
    }

    let mut suites: Vec<(&str, Vec<Case>)> = report
        .inputs
        .iter()
        .map(|input| (input.as_str(), Vec::new()))
        .collect();
    for outcome in &report.outcomes {
        let found = findings
            .remove(&(outcome.source.as_str(), outcome.index))
            .unwrap_or_default();
        let classname = match &outcome.operation {
            Some(operation) => operation.as_str(),
            None if found.iter().any(|f| group(f) == MALFORMED) => MALFORMED,
            None => UNMATCHED,
        };
        let mut name = format!("#{} {}", outcome.index, clean(&outcome.label));
        if let Some(id) = &outcome.id {
            let _ = write!(name, " [{}]", clean(id));
        }
        let case = case(classname, name, found, outcome.errors);
        let at = suite(&mut suites, outcome.source.as_str());
        suites[at].1.push(case);
    }

    // Findings of exchanges without an outcome, in the report's order.
    for finding in &report.findings {
        let Some(found) = findings.remove(&(finding.source.as_str(), finding.exchange)) else {
            continue;
        };
        let mut name = format!("#{}", finding.exchange);
        if let Some(id) = &finding.id {
            let _ = write!(name, " [{}]", clean(id));
        }
        let at = suite(&mut suites, finding.source.as_str());
        suites[at].1.push(case(group(finding), name, found, 0));
    }
    suites
}

/// The place of a source's suite, added at the end when new.
fn suite<'a>(suites: &mut Vec<(&'a str, Vec<Case<'a>>)>, source: &'a str) -> usize {
    match suites.iter().position(|(name, _)| *name == source) {
        Some(at) => at,
        None => {
            suites.push((source, Vec::new()));
            suites.len() - 1
        }
    }
}

fn case<'a>(classname: &'a str, name: String, found: Vec<&'a Finding>, errors: u64) -> Case<'a> {
    let (errors_found, warnings): (Vec<_>, Vec<_>) = found
        .into_iter()
        .partition(|f| f.severity == Severity::Error);
    Case {
        classname,
        name,
        error_count: errors.max(errors_found.len() as u64),
        errors: errors_found,
        warnings,
    }
}

/// One line per finding.
fn lines(findings: &[&Finding]) -> String {
    let text = findings
        .iter()
        .map(|finding| describe(finding))
        .collect::<Vec<_>>()
        .join("\n");
    xml_safe(&text).into_owned()
}

/// The text with the characters XML 1.0 does not allow (not even as references) written as
/// `\u{1b}`.
fn xml_safe(text: &str) -> Cow<'_, str> {
    fn allowed(c: char) -> bool {
        matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
    }
    if text.chars().all(allowed) {
        return Cow::Borrowed(text);
    }
    let mut safe = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if allowed(c) {
            safe.push(c);
        } else {
            let _ = write!(safe, "\\u{{{:x}}}", c as u32);
        }
    }
    Cow::Owned(safe)
}
