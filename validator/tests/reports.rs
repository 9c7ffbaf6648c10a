// Over 600 lines on purpose: one test binary per feature keeps link time down.
//! The four report formats, on a report built by hand: two inputs, findings across two
//! operations, an unmatched and a malformed entry, drift, and a message and an id that try to
//! break out of their markup.

use std::collections::BTreeMap;

use serde_json::Value;
use specval::finding::{Finding, Part, Severity};
use specval::report::{self, Drift, DriftKey, ExchangeOutcome, Format, OperationStats, RunReport};

const A: &str = "traffic/a.har";
const B: &str = "traffic/b.jsonl";
/// An id that would open markup, an entity and attributes if it were not escaped.
const HOSTILE_ID: &str = "<script>&\"'";
/// A message with markup, quotes, an ANSI escape sequence and a bell.
const HOSTILE_MESSAGE: &str = "note <script>alert(\"x&y\")</script> isn't \u{1b}[31mshort\u{7}";

/// A finding at `(source, exchange, id)`.
fn finding(
    (source, exchange, id): (&str, usize, Option<&str>),
    operation: Option<&str>,
    part: Part,
    pointer: &str,
    rule: &str,
    message: &str,
) -> Finding {
    Finding {
        exchange,
        id: id.map(str::to_string),
        source: source.to_string(),
        line: None,
        part,
        operation: operation.map(str::to_string),
        pointer: pointer.to_string(),
        schema_location: match rule {
            "format" => "components/Amount.json#/$defs/Amount/properties/value/format".into(),
            "maxLength" => {
                "operations/createPayment.request.json#/properties/note/maxLength".into()
            }
            "undocumented-property" => "components/Account.json#".into(),
            "required" => "manifest.json#/operations/createPayment/responses/201/headers".into(),
            "operation-path" => "manifest.json#/operations".into(),
            _ => String::new(),
        },
        rule: rule.into(),
        message: message.to_string(),
        severity: Severity::Error,
    }
}

fn outcome(
    source: &str,
    index: usize,
    id: Option<&str>,
    label: &str,
    operation: Option<&str>,
    errors: u64,
    warnings: u64,
) -> ExchangeOutcome {
    ExchangeOutcome {
        source: source.to_string(),
        index,
        id: id.map(str::to_string),
        label: label.to_string(),
        operation: operation.map(str::to_string),
        errors,
        warnings,
    }
}

fn stats(exchanges: u64, failed: u64, errors: u64, warnings: u64) -> OperationStats {
    OperationStats {
        exchanges,
        failed,
        errors,
        warnings,
    }
}

fn key(operation: &str, part: Part, location: &str, value: &str) -> DriftKey {
    DriftKey {
        operation: operation.to_string(),
        part,
        location: location.to_string(),
        value: Some(value.to_string()),
    }
}

/// Seven exchanges in two files: createPayment (three, two failing), getAccount (two, one
/// warning), one unmatched, one malformed.
fn sample() -> RunReport {
    let pay = Some("createPayment");
    let account = Some("getAccount");
    let mut nickname = finding(
        (A, 2, None),
        account,
        Part::Response,
        "/nickname",
        "undocumented-property",
        "property `nickname` is not documented in the spec",
    );
    nickname.severity = Severity::Warning;
    let findings = vec![
        finding(
            (A, 1, Some("pay-2")),
            pay,
            Part::Request,
            "/amount/value",
            "format",
            "\"12.5x\" does not match format \"decimal\"",
        ),
        finding(
            (A, 1, Some("pay-2")),
            pay,
            Part::Response,
            "header:x-request-id",
            "required",
            "header x-request-id is required",
        ),
        nickname,
        finding(
            (A, 3, None),
            None,
            Part::Entry,
            "",
            "operation-path",
            "no operation has the path DELETE /v1/nowhere",
        ),
        finding(
            (B, 0, Some(HOSTILE_ID)),
            pay,
            Part::Request,
            "/note",
            "maxLength",
            HOSTILE_MESSAGE,
        ),
        finding(
            (B, 2, None),
            None,
            Part::Entry,
            "line:3",
            "malformed",
            "expected value at line 1 column 1",
        ),
    ];
    let per_operation = BTreeMap::from([
        ("createPayment".to_string(), stats(3, 2, 3, 0)),
        ("getAccount".to_string(), stats(2, 0, 0, 1)),
        ("(unmatched)".to_string(), stats(1, 1, 1, 0)),
        ("(malformed)".to_string(), stats(1, 1, 1, 0)),
    ]);
    let drift = Drift {
        properties: BTreeMap::from([(key("getAccount", Part::Response, "", "nickname"), 3)]),
        enum_values: BTreeMap::from([
            (
                key("createPayment", Part::Response, "/status", "REVERSED"),
                2,
            ),
            (
                key("createPayment", Part::Response, "/status", "on hold"),
                1,
            ),
        ]),
        statuses: BTreeMap::from([(key("createPayment", Part::Response, "status", "418"), 1)]),
        parameters: BTreeMap::from([(key("getAccount", Part::Request, "query", "debug"), 2)]),
        bodies: BTreeMap::from([(key("getAccount", Part::Response, "404", "text/html"), 1)]),
    };
    let outcomes = vec![
        outcome(A, 0, Some("pay-1"), "POST /v1/payments", pay, 0, 0),
        outcome(A, 1, Some("pay-2"), "POST /v1/payments", pay, 2, 0),
        outcome(A, 2, None, "GET /v1/accounts/7", account, 0, 1),
        outcome(A, 3, None, "DELETE /v1/nowhere", None, 1, 0),
        outcome(B, 0, Some(HOSTILE_ID), "POST /v1/payments", pay, 1, 0),
        outcome(B, 1, None, "GET /v1/accounts/8", account, 0, 0),
        outcome(B, 2, None, "(malformed entry)", None, 1, 0),
    ];
    RunReport {
        inputs: vec![A.to_string(), B.to_string()],
        strict: true,
        exchanges: 7,
        per_operation,
        findings,
        drift,
        outcomes,
        unreadable: Vec::new(),
    }
}

fn render(report: &RunReport, format: Format) -> String {
    let mut out = Vec::new();
    report::write(report, format, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// SARIF names the crate's version; the snapshot should not change with it.
fn sarif_for_snapshot(report: &RunReport) -> String {
    let version = format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION"));
    render(report, Format::Sarif).replace(&version, "\"version\": \"[crate version]\"")
}

#[test]
fn text_snapshot() {
    insta::assert_snapshot!("text", render(&sample(), Format::Text));
}

#[test]
fn json_snapshot() {
    insta::assert_snapshot!("json", render(&sample(), Format::Json));
}

#[test]
fn junit_snapshot() {
    insta::assert_snapshot!("junit", render(&sample(), Format::Junit));
}

#[test]
fn sarif_snapshot() {
    insta::assert_snapshot!("sarif", sarif_for_snapshot(&sample()));
}

#[test]
fn the_dispatcher_and_the_modules_write_the_same() {
    let report = sample();
    type Writer = fn(
        &RunReport,
        &dyn report::records::Records,
        &mut dyn std::io::Write,
    ) -> std::io::Result<()>;
    let modules: [(Format, Writer); 4] = [
        (Format::Text, report::text::write),
        (Format::Json, report::json::write),
        (Format::Junit, report::junit::write),
        (Format::Sarif, report::sarif::write),
    ];
    for (format, write) in modules {
        let mut out = Vec::new();
        write(&report, &report, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            render(&report, format),
            "{format:?}"
        );
        assert_eq!(
            render(&report, format),
            render(&report, format),
            "{format:?} is deterministic"
        );
    }
}

#[test]
fn text_groups_by_operation_with_unmatched_and_malformed_last() {
    let text = render(&sample(), Format::Text);
    let headers: Vec<&str> = text
        .lines()
        .filter(|line| line.contains(" — ") && !line.starts_with("Inputs"))
        .map(|line| line.split(" — ").next().unwrap())
        .collect();
    assert_eq!(
        headers,
        ["createPayment", "getAccount", "(unmatched)", "(malformed)"]
    );
    assert!(text.starts_with(
        "Inputs: traffic/a.har, traffic/b.jsonl — 7 exchanges read, 5 errors, 1 warning (strict)\n"
    ));
    assert!(text.ends_with("\nspecval: 7 exchanges, 5 errors, 1 warning in 2 files\n"));
    // The hostile message is on one line, its escape sequence and bell written out.
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text}"
    );
    assert!(
        text.contains(r"isn't \u{1b}[31mshort\u{7} (rule maxLength;"),
        "{text}"
    );
}

#[test]
fn text_of_a_clean_run_says_so_and_has_no_drift_section() {
    let report = RunReport {
        inputs: vec![A.to_string()],
        exchanges: 1,
        per_operation: BTreeMap::from([("getAccount".to_string(), stats(1, 0, 0, 0))]),
        ..RunReport::default()
    };
    let text = render(&report, Format::Text);
    assert_eq!(
        text,
        "Inputs: traffic/a.har — 1 exchange read, 0 errors, 0 warnings\n\
         \n\
         getAccount — 1 exchange, 0 failed, 0 errors, 0 warnings\n\
         \n\
         specval: 1 exchange, clean, in 1 file\n"
    );
}

#[test]
fn json_parses_and_its_counts_match_the_report() {
    let report = sample();
    let text = render(&report, Format::Json);
    assert!(text.ends_with("}\n"));
    let json: Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "format",
            "inputs",
            "strict",
            "exchanges",
            "errors",
            "warnings",
            "operations",
            "findings",
            "drift"
        ]
    );
    assert_eq!(json["format"], 1);
    assert_eq!(json["inputs"], serde_json::json!([A, B]));
    assert_eq!(json["strict"], true);
    assert_eq!(json["exchanges"], report.exchanges);
    assert_eq!(json["errors"], report.errors());
    assert_eq!(json["warnings"], report.warnings());
    assert_eq!((report.errors(), report.warnings()), (5, 1));
    let findings = json["findings"].as_array().unwrap();
    assert_eq!(findings.len(), report.findings.len());
    let errors = findings.iter().filter(|f| f["severity"] == "error").count();
    assert_eq!(errors, report.errors());
    let operations = json["operations"].as_object().unwrap();
    assert_eq!(operations.len(), report.per_operation.len());
    for (name, stats) in &report.per_operation {
        assert_eq!(
            operations[name],
            serde_json::to_value(stats).unwrap(),
            "{name}"
        );
    }
    let total: u64 = operations
        .values()
        .map(|stats| stats["exchanges"].as_u64().unwrap())
        .sum();
    assert_eq!(total, report.exchanges);
    assert_eq!(json["drift"]["properties"].as_array().unwrap().len(), 1);
    assert_eq!(json["drift"]["enum_values"].as_array().unwrap().len(), 2);
    assert_eq!(
        json["drift"]["statuses"][0],
        serde_json::json!({
            "operation": "createPayment",
            "part": "response",
            "location": "status",
            "value": "418",
            "masked": false,
            "count": 1
        })
    );
    // Hostile strings come back as they were.
    assert_eq!(findings[4]["id"], HOSTILE_ID);
    assert_eq!(findings[4]["message"], HOSTILE_MESSAGE);
}

/// The testcases of a JUnit document: (suite, classname, name, failure, system-out).
type TestCase = (
    String,
    String,
    String,
    Option<(String, String)>,
    Option<String>,
);

fn testcases(xml: &str) -> Vec<TestCase> {
    let document = roxmltree::Document::parse(xml).unwrap_or_else(|err| panic!("{err}\n{xml}"));
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let mut cases = Vec::new();
    for suite in root.children().filter(|n| n.has_tag_name("testsuite")) {
        for case in suite.children().filter(|n| n.has_tag_name("testcase")) {
            let child_text = |tag: &str| {
                case.children()
                    .find(|n| n.has_tag_name(tag))
                    .map(|n| n.text().unwrap_or_default().to_string())
            };
            let failure = case
                .children()
                .find(|n| n.has_tag_name("failure"))
                .map(|n| {
                    assert_eq!(n.attribute("type"), Some("contract"));
                    (
                        n.attribute("message").unwrap().to_string(),
                        n.text().unwrap_or_default().to_string(),
                    )
                });
            cases.push((
                suite.attribute("name").unwrap().to_string(),
                case.attribute("classname").unwrap().to_string(),
                case.attribute("name").unwrap().to_string(),
                failure,
                child_text("system-out"),
            ));
        }
    }
    cases
}

#[test]
fn junit_parses_with_a_testcase_per_outcome() {
    // Outside strict mode too, a warning fails its testcase (the next test).
    let report = RunReport {
        strict: false,
        ..sample()
    };
    let xml = render(&report, Format::Junit);
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
    let document = roxmltree::Document::parse(&xml).unwrap();
    let root = document.root_element();
    assert_eq!(root.attribute("name"), Some("specval"));
    assert_eq!(root.attribute("tests"), Some("7"));
    assert_eq!(root.attribute("failures"), Some("5"));
    let suites: Vec<_> = root
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .map(|n| (n.attribute("name").unwrap(), n.attribute("tests").unwrap()))
        .collect();
    assert_eq!(suites, [(A, "4"), (B, "3")]);

    let cases = testcases(&xml);
    assert_eq!(cases.len(), report.outcomes.len());
    for (case, outcome) in cases.iter().zip(&report.outcomes) {
        assert_eq!(case.0, outcome.source);
        assert!(
            case.2
                .starts_with(&format!("#{} {}", outcome.index, outcome.label))
        );
        assert_eq!(
            case.3.is_some(),
            outcome.errors + outcome.warnings > 0,
            "{case:?}"
        );
        assert_eq!(case.4, None, "{case:?}");
    }
    let classes: Vec<&str> = cases.iter().map(|case| case.1.as_str()).collect();
    assert_eq!(
        classes,
        [
            "createPayment",
            "createPayment",
            "getAccount",
            "(unmatched)",
            "createPayment",
            "getAccount",
            "(malformed)"
        ]
    );
    let (message, text) = cases[1].3.clone().unwrap();
    assert_eq!(message, "2 findings");
    assert_eq!(
        text,
        "request /amount/value: \"12.5x\" does not match format \"decimal\" (rule format; components/Amount.json#/$defs/Amount/properties/value/format)\n\
         response header:x-request-id: header x-request-id is required (rule required; manifest.json#/operations/createPayment/responses/201/headers)"
    );
    assert_eq!(
        cases[2].3,
        Some((
            "1 finding".to_string(),
            "response /nickname: warning: property `nickname` is not documented in the spec (rule undocumented-property; components/Account.json#)".to_string()
        ))
    );
}

/// A warning fails the run (exit code 1), in strict mode (an undocumented member) and outside
/// it (a body the recording left out), so it fails its testcase too: a run that exits 1 must
/// not read green in a CI's test report. Outside strict mode the JUnit of a run with warnings
/// only had read `failures="0"`.
#[test]
fn junit_fails_a_testcase_for_its_warnings() {
    let report = sample();
    assert!(report.strict);
    let xml = render(&report, Format::Junit);
    let document = roxmltree::Document::parse(&xml).unwrap();
    let failures = |strict_report: &RunReport| {
        let xml = render(strict_report, Format::Junit);
        roxmltree::Document::parse(&xml)
            .unwrap()
            .root_element()
            .attribute("failures")
            .unwrap()
            .to_string()
    };
    let cases = testcases(&xml);
    for (case, outcome) in cases.iter().zip(&report.outcomes) {
        assert_eq!(
            case.3.is_some(),
            outcome.errors + outcome.warnings > 0,
            "{case:?}"
        );
        assert_eq!(case.4, None, "{case:?}");
    }
    let warned_only = report
        .outcomes
        .iter()
        .filter(|outcome| outcome.errors == 0 && outcome.warnings > 0)
        .count();
    assert!(
        warned_only > 0,
        "the sample has an exchange with warnings only"
    );
    assert_eq!(
        document.root_element().attribute("failures").unwrap(),
        (4 + warned_only).to_string()
    );
    let relaxed = RunReport {
        strict: false,
        ..sample()
    };
    assert_eq!(failures(&relaxed), (4 + warned_only).to_string());
    let (message, text) = cases[2].3.clone().unwrap();
    assert_eq!(message, "1 finding");
    assert_eq!(
        text,
        "response /nickname: warning: property `nickname` is not documented in the spec (rule undocumented-property; components/Account.json#)"
    );
}

#[test]
fn junit_escapes_markup_and_control_characters() {
    let report = sample();
    let xml = render(&report, Format::Junit);
    // Nothing of the hostile strings is markup in the document...
    assert!(!xml.contains("<script>"), "{xml}");
    assert!(!xml.contains("&\""), "{xml}");
    // ...and no character XML 1.0 forbids is in it.
    let forbidden = |c: char| matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}');
    assert!(!xml.chars().any(forbidden), "{xml:?}");
    // The parsed values are the originals, control characters written out.
    let cases = testcases(&xml);
    assert_eq!(cases[4].2, format!("#0 POST /v1/payments [{HOSTILE_ID}]"));
    let (_, text) = cases[4].3.clone().unwrap();
    assert_eq!(
        text,
        "request /note: note <script>alert(\"x&y\")</script> isn't \\u{1b}[31mshort\\u{7} (rule maxLength; operations/createPayment.request.json#/properties/note/maxLength)"
    );

    // Characters no XML 1.0 document may hold, in every attribute and text the format writes.
    let nasty = "a\u{0}b\u{b}c\u{fffe}d\u{ffff}e\r\n\t]]>";
    let mut report = RunReport {
        inputs: vec![format!("in{nasty}.har")],
        exchanges: 1,
        ..RunReport::default()
    };
    let mut bad = finding(
        (&report.inputs[0], 0, Some(nasty)),
        Some(nasty),
        Part::Request,
        nasty,
        nasty,
        nasty,
    );
    bad.schema_location = nasty.to_string();
    let mut warning = bad.clone();
    warning.severity = Severity::Warning;
    report.findings = vec![bad, warning];
    report.outcomes = vec![outcome(
        &report.inputs[0],
        0,
        Some(nasty),
        nasty,
        Some(nasty),
        1,
        1,
    )];
    let xml = render(&report, Format::Junit);
    assert!(!xml.chars().any(forbidden), "{xml:?}");
    assert!(!xml.contains("]]>"), "{xml}");
    let cases = testcases(&xml);
    assert_eq!(cases.len(), 1);
    let written = r"a\u{0}b\u{b}c\u{fffe}d\u{ffff}e\u{d}\u{a}\u{9}]]>";
    assert_eq!(cases[0].0, format!("in{written}.har"));
    assert_eq!(cases[0].1, written);
    assert_eq!(cases[0].2, format!("#0 {written} [{written}]"));
    // The error and the warning, each a line of the failure.
    let failure = &cases[0].3.as_ref().unwrap().1;
    assert_eq!(failure.matches(written).count(), 2 * 4, "{failure}");
}

#[test]
fn junit_keeps_findings_of_exchanges_without_an_outcome() {
    let mut report = sample();
    report.outcomes.clear();
    let cases = testcases(&render(&report, Format::Junit));
    let names: Vec<(&str, &str, &str, bool)> = cases
        .iter()
        .map(|c| (c.0.as_str(), c.1.as_str(), c.2.as_str(), c.3.is_some()))
        .collect();
    assert_eq!(
        names,
        [
            (A, "createPayment", "#1 [pay-2]", true),
            // Its warning fails it.
            (A, "getAccount", "#2", true),
            (A, "(unmatched)", "#3", true),
            (B, "createPayment", &*format!("#0 [{HOSTILE_ID}]"), true),
            (B, "(malformed)", "#2", true),
        ]
    );
}

#[test]
fn sarif_has_the_required_fields_and_a_result_per_finding() {
    let report = sample();
    let sarif: Value = serde_json::from_str(&render(&report, Format::Sarif)).unwrap();
    assert_eq!(
        sarif["$schema"],
        "https://json.schemastore.org/sarif-2.1.0.json"
    );
    assert_eq!(sarif["version"], "2.1.0");
    let runs = sarif["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "specval");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    let rules: Vec<&str> = driver["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| {
            assert!(
                rule["shortDescription"]["text"]
                    .as_str()
                    .is_some_and(|t| !t.is_empty())
            );
            rule["id"].as_str().unwrap()
        })
        .collect();
    assert_eq!(
        rules,
        [
            "format",
            "malformed",
            "maxLength",
            "operation-path",
            "required",
            "undocumented-property"
        ]
    );

    let results = runs[0]["results"].as_array().unwrap();
    assert_eq!(results.len(), report.findings.len());
    for (result, finding) in results.iter().zip(&report.findings) {
        assert_eq!(result["ruleId"], finding.rule.as_str());
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index], finding.rule.as_str());
        let level = match finding.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        assert_eq!(result["level"], level);
        assert!(
            result["message"]["text"].as_str().unwrap().contains(
                &*finding
                    .message
                    .replace('\u{1b}', r"\u{1b}")
                    .replace('\u{7}', r"\u{7}")
            )
        );
        let location = &result["locations"][0];
        let uri = location["physicalLocation"]["artifactLocation"]["uri"].as_str();
        assert_eq!(uri, Some(finding.source.as_str()));
        let properties = &result["properties"];
        assert_eq!(properties["exchange"], finding.exchange);
        assert_eq!(properties["id"].as_str(), finding.id.as_deref());
        assert_eq!(
            properties["operation"].as_str(),
            finding.operation.as_deref()
        );
        assert_eq!(properties["pointer"], finding.pointer);
        assert_eq!(properties["schemaLocation"], finding.schema_location);
        let part = serde_json::to_value(finding.part).unwrap();
        assert_eq!(properties["part"], part);
        let logical = location["logicalLocations"][0]["name"].as_str().unwrap();
        let expected = finding
            .operation
            .as_deref()
            .unwrap_or(if finding.rule == "malformed" {
                "(malformed)"
            } else {
                "(unmatched)"
            });
        assert_eq!(logical, expected);
    }
}

/// A fingerprint tells two breaks at one place apart (two required members missing) and
/// keeps one break the same alert wherever it recurs: in another exchange, or at another line
/// once the file is edited.
#[test]
fn sarif_fingerprints_tell_breaks_apart_and_keep_one_across_exchanges_and_lines() {
    let mut report = sample();
    let missing = |exchange: usize, member: &str| {
        finding(
            ("t.jsonl", exchange, None),
            Some("createAccount"),
            Part::Request,
            "",
            "required",
            &format!("\"{member}\" is a required property"),
        )
    };
    let cut = |exchange: usize, line: usize| {
        let mut malformed = finding(
            ("t.har", exchange, None),
            None,
            Part::Entry,
            "",
            "malformed",
            &format!("entry {exchange}: expected `,` or `}}` at line {line} column 7"),
        );
        malformed.line = Some(line);
        malformed
    };
    report.findings = vec![
        missing(0, "currency"),
        missing(0, "onboarding_id"),
        missing(5, "currency"),
        cut(1, 40),
        cut(3, 90),
    ];
    let sarif: Value = serde_json::from_str(&render(&report, Format::Sarif)).unwrap();
    let prints: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| {
            result["partialFingerprints"]["specval/v1"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert_ne!(prints[0], prints[1], "two members, two alerts");
    assert_eq!(prints[0], prints[2], "one member missing again, one alert");
    assert_eq!(prints[3], prints[4], "one break, moved in the file");
    assert!(sarif["runs"][0].get("invocations").is_none());
}

/// GitHub code scanning refuses a run of more than 25,000 results, the whole file with it:
/// the run stops there and says how many it left out.
#[test]
fn sarif_holds_at_most_25000_results_and_says_how_many_it_left_out() {
    let mut report = sample();
    let one = report.findings[0].clone();
    report.findings = (0..25_003)
        .map(|exchange| {
            let mut finding = one.clone();
            finding.exchange = exchange;
            finding
        })
        .collect();
    let sarif: Value = serde_json::from_str(&render(&report, Format::Sarif)).unwrap();
    let run = &sarif["runs"][0];
    assert_eq!(run["results"].as_array().unwrap().len(), 25_000);
    let notification = &run["invocations"][0]["toolExecutionNotifications"][0];
    assert_eq!(notification["level"], "warning");
    assert!(
        notification["message"]["text"]
            .as_str()
            .unwrap()
            .starts_with("3 more results are left out"),
        "{notification}"
    );
}

#[test]
fn sarif_uris_are_uri_references() {
    let mut report = sample();
    report.findings.truncate(1);
    for (source, uri) in [
        ("traffic/a b#1.har", "traffic/a%20b%231.har"),
        ("/tmp/run/a.har", "file:///tmp/run/a.har"),
        (r"C:\runs\a.har", "file:///C:/runs/a.har"),
        ("-", "-"),
    ] {
        report.findings[0].source = source.to_string();
        let sarif: Value = serde_json::from_str(&render(&report, Format::Sarif)).unwrap();
        let location = &sarif["runs"][0]["results"][0]["locations"][0];
        assert_eq!(
            location["physicalLocation"]["artifactLocation"]["uri"], uri,
            "{source}"
        );
    }
}

#[test]
fn an_empty_report_is_valid_in_every_format() {
    let report = RunReport::default();
    let json: Value = serde_json::from_str(&render(&report, Format::Json)).unwrap();
    assert_eq!(json["findings"], serde_json::json!([]));
    let sarif: Value = serde_json::from_str(&render(&report, Format::Sarif)).unwrap();
    assert_eq!(sarif["runs"][0]["results"], serde_json::json!([]));
    assert!(testcases(&render(&report, Format::Junit)).is_empty());
    assert_eq!(
        render(&report, Format::Text),
        "Inputs: (none) — 0 exchanges read, 0 errors, 0 warnings\n\nspecval: 0 exchanges, clean, in 0 files\n"
    );
}
