//! The report as JUnit XML: one test suite per side, one test case per finding, failing at
//! `--fail-on` and above; a side without findings has one passing case.

use std::fmt::Write;

use super::{RenderOptions, location, xml_escape};
use crate::diff::checks::Side;
use crate::diff::finding::{Finding, Report};

pub(super) fn report(report: &Report, options: &RenderOptions) -> String {
    let mut suites = String::new();
    let mut total = 0;
    let mut total_failures = 0;
    let mut sides: Vec<(String, Vec<&Finding>)> = Vec::new();
    for side in Side::ALL {
        if options.sides.contains(&side) {
            let findings = report
                .findings
                .iter()
                .filter(|f| f.side == Some(side))
                .collect();
            sides.push((side.as_str().to_string(), findings));
        }
    }
    sides.push((
        "none".to_string(),
        report
            .findings
            .iter()
            .filter(|f| f.side.is_none())
            .collect(),
    ));
    for (name, findings) in sides {
        let failures = findings
            .iter()
            .filter(|f| f.level >= options.fail_on)
            .count();
        let tests = findings.len().max(1);
        total += tests;
        total_failures += failures;
        let _ = writeln!(
            suites,
            "  <testsuite name=\"{name}\" tests=\"{tests}\" failures=\"{failures}\">"
        );
        if findings.is_empty() {
            let _ = writeln!(
                suites,
                "    <testcase classname=\"specgen.diff.{name}\" name=\"no change\"/>"
            );
        }
        for finding in findings {
            let case = xml_escape(&format!("{} {}", finding.id, finding.place.pointer));
            let _ = write!(
                suites,
                "    <testcase classname=\"specgen.diff.{name}\" name=\"{case}\""
            );
            if finding.level >= options.fail_on {
                let _ = writeln!(
                    suites,
                    ">\n      <failure type=\"{}\" message=\"{}\">{}: {}\nat {}</failure>\n    </testcase>",
                    xml_escape(&finding.id),
                    xml_escape(&finding.message),
                    finding.level.as_str(),
                    xml_escape(&finding.message),
                    xml_escape(&location(report, &finding.place)),
                );
            } else {
                let _ = writeln!(
                    suites,
                    ">\n      <system-out>{}: {}</system-out>\n    </testcase>",
                    finding.level.as_str(),
                    xml_escape(&finding.message)
                );
            }
        }
        let _ = writeln!(suites, "  </testsuite>");
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"specgen diff\" tests=\"{total}\" failures=\"{total_failures}\">\n{suites}</testsuites>\n"
    )
}
