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
//! `outcomes`, classed by operation, `(unmatched)` or `(malformed)`. An exchange with findings
//! has a `<failure>` whose text is one line per finding, its warnings too: any finding makes
//! the exit code 1 (strict mode's warnings, and without it a body the recording left out), so
//! a suite must not read green beside it. A finding whose exchange has no outcome still gets a
//! testcase, so that no error can leave the suite green.
//!
//! Escaping is quick-xml's (`<`, `>`, `&`, quotes, and in attributes line breaks and tabs).
//! Characters XML 1.0 forbids even escaped (control characters other than tab and line
//! breaks, U+FFFE, U+FFFF) are written as `\u{1b}` text before that; names and failure lines
//! go through the text format's one-line cleaning as well.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io;
use std::iter::Peekable;

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesText, Event};

use super::RunReport;
use super::group::{MALFORMED, UNMATCHED, group};
use super::records::{self, Records, Stream};
use super::text::{clean, describe};
use crate::finding::Finding;

/// Writes the report as JUnit XML, its testcases streamed from `records` (twice: the counts
/// of a suite come before its testcases).
pub fn write(report: &RunReport, records: &dyn Records, out: &mut dyn io::Write) -> io::Result<()> {
    let mut counts = Vec::new();
    suites(report, records, &mut |_, cases| {
        let (mut tests, mut failures) = (0, 0);
        for case in cases {
            tests += 1;
            failures += usize::from(Case::of(&*case?).failed());
        }
        counts.push((tests, failures));
        Ok(())
    })?;
    let tests: usize = counts.iter().map(|(tests, _)| tests).sum();
    let failures: usize = counts.iter().map(|(_, failures)| failures).sum();

    let mut writer = Writer::new_with_indent(io::BufWriter::new(out), b' ', 2);
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
            let mut counts = counts.iter();
            suites(report, records, &mut |source, cases| {
                let (tests, failures) = counts.next().copied().unwrap_or_default();
                let suite = writer.create_element("testsuite").with_attributes([
                    ("name", &*xml_safe(&clean(source))),
                    ("tests", &*tests.to_string()),
                    ("failures", &*failures.to_string()),
                    ("errors", "0"),
                ]);
                if tests == 0 {
                    suite.write_empty()?;
                } else {
                    suite.write_inner_content(|writer| {
                        for case in cases {
                            Case::of(&*case?).write(writer)?;
                        }
                        Ok::<(), io::Error>(())
                    })?;
                }
                Ok(())
            })
        })?;
    let mut out = writer.into_inner();
    io::Write::write_all(&mut out, b"\n")?;
    io::Write::flush(&mut out)
}

/// The testcases of one suite.
type Cases<'a, 'r> = dyn Iterator<Item = io::Result<Cow<'r, records::Case>>> + 'a;

/// Hands each suite with its testcases to `each`: the inputs in order (a suite even when it
/// has no testcase), then every other source the testcases name, in their order.
fn suites(
    report: &RunReport,
    records: &dyn Records,
    each: &mut dyn FnMut(&str, &mut Cases<'_, '_>) -> io::Result<()>,
) -> io::Result<()> {
    let mut cases = records.cases()?.peekable();
    for input in &report.inputs {
        each(input, &mut of_source(&mut cases, input))?;
    }
    loop {
        let source = match cases.peek() {
            None => return Ok(()),
            Some(Err(_)) => return cases.next().map_or(Ok(()), |case| case.map(|_| ())),
            Some(Ok(case)) => case.source.clone(),
        };
        each(&source, &mut of_source(&mut cases, &source))?;
    }
}

/// The testcases at the head of `cases` that belong to `source`.
fn of_source<'c, 'r>(
    cases: &'c mut Peekable<Stream<'r, records::Case>>,
    source: &'c str,
) -> impl Iterator<Item = io::Result<Cow<'r, records::Case>>> + 'c {
    std::iter::from_fn(move || {
        cases.next_if(|case| match case {
            Ok(case) => case.source == source,
            Err(_) => true,
        })
    })
}

/// One exchange.
struct Case<'a> {
    classname: &'a str,
    name: String,
    /// Findings the outcome counts (at least the ones listed).
    count: u64,
    findings: Vec<&'a Finding>,
}

impl<'a> Case<'a> {
    /// The testcase of an exchange's verdict and findings, or of findings without a verdict.
    /// A warning fails the run as an error does, so it fails its testcase too: a suite that
    /// reads green must not come from a run that exited 1.
    fn of(case: &'a records::Case) -> Case<'a> {
        let (classname, mut name, counted) = match (&case.outcome, case.findings.first()) {
            (Some(outcome), _) => {
                let classname = match &outcome.operation {
                    Some(operation) => operation.as_str(),
                    None if case.findings.iter().any(|f| group(f) == MALFORMED) => MALFORMED,
                    None => UNMATCHED,
                };
                let name = format!("#{} {}", outcome.index, clean(&outcome.label));
                let counted = outcome.errors + outcome.warnings;
                (classname, name, counted)
            }
            (None, Some(first)) => (group(first), format!("#{}", first.exchange), 0),
            (None, None) => (UNMATCHED, String::new(), 0),
        };
        let id = match (&case.outcome, case.findings.first()) {
            (Some(outcome), _) => outcome.id.as_deref(),
            (None, Some(first)) => first.id.as_deref(),
            (None, None) => None,
        };
        if let Some(id) = id {
            let _ = write!(name, " [{}]", clean(id));
        }
        Case {
            classname,
            name,
            count: counted.max(case.findings.len() as u64),
            findings: case.findings.iter().collect(),
        }
    }

    fn failed(&self) -> bool {
        self.count > 0
    }

    fn write<W: io::Write>(&self, writer: &mut Writer<W>) -> io::Result<()> {
        let case = writer.create_element("testcase").with_attributes([
            ("classname", &*xml_safe(&clean(self.classname))),
            ("name", &*xml_safe(&self.name)),
        ]);
        if !self.failed() {
            case.write_empty()?;
            return Ok(());
        }
        case.write_inner_content(|writer| {
            let message = match self.count {
                1 => "1 finding".to_string(),
                n => format!("{n} findings"),
            };
            writer
                .create_element("failure")
                .with_attributes([("message", message.as_str()), ("type", "contract")])
                .write_text_content(BytesText::new(&lines(&self.findings)))?;
            Ok(())
        })?;
        Ok(())
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
