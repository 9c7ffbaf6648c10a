// Over 600 lines on purpose: one test binary per feature keeps link time down.
//! Whole traffic files through [`specval::run::run`] with the embedded contract: the corpus in
//! `tests/traffic/corpus/` (clean traffic with no finding, one exchange per rule with the exact
//! findings of `rules.expected.json`, a cut-off HAR), nesting bombs written at test time, drift
//! counts, and the traffic the end-to-end tests record (`tests/traffic/e2e.har` keeps the
//! contract; `tests/traffic/e2e-invalid.har` breaks it only on the request side).
//!
//! | file | what |
//! |---|---|
//! | `corpus/clean.har`, `corpus/clean.jsonl` | the same realistic traffic in both formats: every operation with its success and documented error statuses, requests without credentials answered 401 NOT_AUTHENTICATED, the incoming-transfer notification on a merchant host (a 5XX, then `{"received": true}`); credentials `[redacted]` or fake |
//! | `corpus/rules.jsonl`, `corpus/rules.har` | one exchange (at least) per rule of the checker, each named by its id, and malformed entries between them |
//! | `corpus/rules.expected.json` | the findings of both, and the warnings `--strict` adds |
//! | `corpus/truncated.har` | three entries, then the file stops inside the fourth |
//! | `e2e.har`, `e2e-invalid.har` | written by `tests/tests/e2e.rs` (`UPDATE_TRAFFIC=1`) |
//!
//! A finding is compared as `(id, part, rule, pointer)`: the input's id of the exchange (a
//! JSON Lines `id`, a HAR entry `comment`; none for a malformed entry), which message, the
//! rule and where. Expected lists are multisets: nothing missing, nothing extra.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;
use specval::Contract;
use specval::check::CheckOptions;
use specval::contract::Match;
use specval::exchange::ExchangeKind;
use specval::finding::{Finding, Part, Severity};
use specval::report::{DriftKey, RunReport};
use specval::run::{RunOptions, run};

fn contract() -> &'static Contract {
    static CONTRACT: OnceLock<Contract> = OnceLock::new();
    CONTRACT.get_or_init(|| Contract::embedded().expect("embedded contract"))
}

/// `tests/traffic/<name>` of the workspace.
fn traffic(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/traffic")
        .join(name)
}

/// `tests/traffic/corpus/<name>`.
fn corpus(name: &str) -> PathBuf {
    traffic("corpus").join(name)
}

fn run_paths(paths: &[PathBuf], strict: bool) -> RunReport {
    run_showing(paths, strict, false)
}

/// A run with `--show-values` or without: only then does the drift hold enum values.
fn run_showing(paths: &[PathBuf], strict: bool, show_values: bool) -> RunReport {
    let inputs: Vec<String> = paths
        .iter()
        .map(|path| path.to_string_lossy().into_owned())
        .collect();
    let options = RunOptions {
        check: CheckOptions {
            strict,
            show_values,
        },
        keep_outcomes: true,
        progress: false,
        ..RunOptions::default()
    };
    run(contract(), &inputs, options).expect("the inputs can be read")
}

fn run_one(path: &Path, strict: bool) -> RunReport {
    run_paths(&[path.to_path_buf()], strict)
}

fn part_name(part: Part) -> &'static str {
    match part {
        Part::Request => "request",
        Part::Response => "response",
        Part::Notification => "notification",
        Part::Reply => "reply",
        Part::Entry => "entry",
    }
}

/// A finding as compared: (id, part, rule, pointer).
type Key = (Option<String>, String, String, String);

fn key(finding: &Finding) -> Key {
    (
        finding.id.clone(),
        part_name(finding.part).to_string(),
        finding.rule.to_string(),
        finding.pointer.clone(),
    )
}

fn keys<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Vec<Key> {
    findings.into_iter().map(key).collect()
}

/// The expected findings of `rules.expected.json` at `path` (`["rules.jsonl"]`,
/// `["strict warnings", "rules.har"]`).
fn expected(path: &[&str]) -> Vec<Key> {
    let text = std::fs::read_to_string(corpus("rules.expected.json")).expect("expected findings");
    let document: Value = serde_json::from_str(&text).expect("rules.expected.json is JSON");
    let list = path
        .iter()
        .fold(&document, |value, step| &value[*step])
        .as_array()
        .unwrap_or_else(|| panic!("rules.expected.json has no list at {path:?}"));
    list.iter()
        .map(|item| {
            let text = |name: &str| {
                item[name]
                    .as_str()
                    .unwrap_or_else(|| panic!("{name} of {item}"))
                    .to_string()
            };
            (
                item["id"].as_str().map(str::to_string),
                text("part"),
                text("rule"),
                text("pointer"),
            )
        })
        .collect()
}

/// Asserts two multisets of findings are equal, listing what is missing and what is extra.
#[track_caller]
fn assert_same_findings(what: &str, actual: Vec<Key>, expected: Vec<Key>) {
    let mut counts: BTreeMap<Key, i64> = BTreeMap::new();
    for key in expected {
        *counts.entry(key).or_default() += 1;
    }
    for key in actual {
        *counts.entry(key).or_default() -= 1;
    }
    let show = |(key, n): (&Key, &i64)| format!("  {n} x {key:?}");
    let missing: Vec<String> = counts.iter().filter(|(_, n)| **n > 0).map(show).collect();
    let extra: Vec<String> = counts
        .iter()
        .filter(|(_, n)| **n < 0)
        .map(|(key, n)| show((key, &-n)))
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{what}: findings differ from the expected ones\nmissing:\n{}\nextra:\n{}",
        missing.join("\n"),
        extra.join("\n")
    );
}

fn describe(findings: &[Finding]) -> String {
    findings
        .iter()
        .map(|f| {
            format!(
                "  {}#{} [{}] {} {} {}: {}",
                f.source,
                f.exchange,
                f.id.as_deref().unwrap_or("-"),
                part_name(f.part),
                f.rule,
                f.pointer,
                f.message
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every operation and webhook of the contract.
fn every_operation() -> BTreeSet<String> {
    contract()
        .operations()
        .iter()
        .chain(contract().webhooks())
        .map(|op| op.id.clone())
        .collect()
}

/// One exchange of a file as the coverage checks see it.
struct Seen {
    id: Option<String>,
    operation: String,
    /// The documented response it got (`201`, `2XX`, `default`).
    response: String,
    credentials: Vec<String>,
    kind: ExchangeKind,
    host_path: (String, String),
}

/// The exchanges of a file, matched to their operation and documented response (by the
/// reader and the contract, not by the checks under test).
fn seen(path: &Path) -> Vec<Seen> {
    let webhooks = contract().webhook_paths();
    let mut out = Vec::new();
    specval::read::read_path(&path.to_string_lossy(), None, &webhooks, &mut |entry| {
        let exchange = entry.expect("a clean file has no malformed entry");
        let request = &exchange.request;
        let op = match exchange.kind {
            Some(ExchangeKind::Notification) => contract()
                .match_webhook(&request.method, &request.path)
                .expect("a webhook"),
            _ => match contract().match_operation(&request.method, &request.path) {
                Match::Operation(op, _) => op,
                _ => panic!("{} {} is no operation", request.method, request.path),
            },
        };
        let status = exchange.response.as_ref().expect("a response").status;
        let response = op
            .response(status)
            .unwrap_or_else(|| panic!("{} {status} is not documented", op.id))
            .key
            .clone();
        let credentials = request
            .headers
            .iter()
            .filter(|(name, _)| {
                name.eq_ignore_ascii_case("public-api-key")
                    || name.eq_ignore_ascii_case("private-secret-key")
            })
            .map(|(_, value)| value.clone())
            .collect();
        out.push(Seen {
            id: exchange.id.clone(),
            operation: op.id.clone(),
            response,
            credentials,
            kind: exchange.kind.unwrap_or(ExchangeKind::Operation),
            host_path: (request.method.clone(), request.path.clone()),
        });
    })
    .expect("readable");
    out
}

// ---------------------------------------------------------------------------------------------
// Clean traffic
// ---------------------------------------------------------------------------------------------

/// Documented responses no valid request can get: a 400 of a read, whose only cause is a
/// path parameter that is not a UUID (an invalid request).
/// Answers only an invalid request (or payload) can get.
const UNREACHABLE_BY_VALID_REQUESTS: [(&str, &str); 3] = [
    ("getAccount", "400"),
    ("getAccountTransfer", "400"),
    ("incomingTransfer", "400"),
];

#[test]
fn clean_traffic_has_no_findings_and_no_drift() {
    for name in ["clean.har", "clean.jsonl"] {
        for strict in [false, true] {
            let report = run_one(&corpus(name), strict);
            assert!(
                report.findings.is_empty(),
                "{name} (strict: {strict}):\n{}",
                describe(&report.findings)
            );
            assert!(report.drift.is_empty(), "{name}: {:?}", report.drift);
            assert!(report.exchanges >= 40, "{name}: {}", report.exchanges);
            let operations: BTreeSet<String> = report.per_operation.keys().cloned().collect();
            assert_eq!(operations, every_operation(), "{name}: operations covered");
        }
    }
}

#[test]
fn clean_har_and_json_lines_hold_the_same_traffic() {
    let har = run_one(&corpus("clean.har"), false);
    let jsonl = run_one(&corpus("clean.jsonl"), false);
    assert_eq!(har.exchanges, jsonl.exchanges);
    assert_eq!(har.per_operation, jsonl.per_operation);
    let labels = |report: &RunReport| -> Vec<(Option<String>, String)> {
        report
            .outcomes
            .iter()
            .map(|o| (o.id.clone(), o.label.clone()))
            .collect()
    };
    assert_eq!(labels(&har), labels(&jsonl));
}

#[test]
fn clean_traffic_covers_every_documented_answer() {
    for name in ["clean.har", "clean.jsonl"] {
        let exchanges = seen(&corpus(name));
        let covered: BTreeSet<(String, String)> = exchanges
            .iter()
            .map(|e| (e.operation.clone(), e.response.clone()))
            .collect();
        let mut missing = Vec::new();
        for op in contract().operations().iter().chain(contract().webhooks()) {
            for response in &op.responses {
                let pair = (op.id.clone(), response.key.clone());
                let unreachable = UNREACHABLE_BY_VALID_REQUESTS
                    .contains(&(op.id.as_str(), response.key.as_str()));
                if !covered.contains(&pair) && !unreachable {
                    missing.push(pair);
                }
            }
        }
        assert!(missing.is_empty(), "{name}: not covered: {missing:?}");

        // A request without credentials, answered 401 NOT_AUTHENTICATED (and no finding).
        let anonymous: Vec<&Seen> = exchanges
            .iter()
            .filter(|e| e.kind == ExchangeKind::Operation && e.credentials.is_empty())
            .collect();
        assert!(
            !anonymous.is_empty(),
            "{name}: no request without credentials"
        );
        assert!(anonymous.iter().all(|e| e.response == "401"), "{name}");

        // The notification, delivered at its path on a merchant host.
        assert!(
            exchanges
                .iter()
                .any(|e| e.kind == ExchangeKind::Notification
                    && e.response == "200"
                    && e.host_path == ("POST".into(), "/v1/banking/transfers".into())),
            "{name}: no acknowledged notification"
        );

        // Credentials are redacted or fake.
        for e in &exchanges {
            for value in &e.credentials {
                assert!(
                    value == "[redacted]" || value.contains("fake"),
                    "{name} {:?}: credential {value:?}",
                    e.id
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// One exchange per rule
// ---------------------------------------------------------------------------------------------

#[test]
fn rules_traffic_has_exactly_the_expected_findings() {
    for name in ["rules.jsonl", "rules.har"] {
        let report = run_one(&corpus(name), false);
        assert!(
            report
                .findings
                .iter()
                .all(|f| f.severity == Severity::Error),
            "{name}: only errors without --strict"
        );
        assert_same_findings(name, keys(&report.findings), expected(&[name]));
        // Every exchange of the file is there, the malformed ones included.
        assert_eq!(report.exchanges as usize, report.outcomes.len(), "{name}");

        // A value of a union of a schema and null (`oneOf: [Individual, {type: null}]`) that
        // is not null is judged by the schema: the member that breaks it, and its rule.
        let member = report
            .findings
            .iter()
            .find(|f| f.id.as_deref() == Some("nullable-union-member"))
            .expect("the nullable union's case");
        assert_eq!(member.pointer, "/entity_detail/individual/tax_information");
        assert!(
            member.message.contains("\"array\"")
                && member
                    .message
                    .ends_with("(/entity_detail/individual may also be null)"),
            "{name}: {}",
            member.message
        );
    }
}

#[test]
fn strict_mode_adds_exactly_the_expected_warnings() {
    for name in ["rules.jsonl", "rules.har"] {
        let report = run_one(&corpus(name), true);
        let (warnings, errors): (Vec<&Finding>, Vec<&Finding>) = report
            .findings
            .iter()
            .partition(|f| f.severity == Severity::Warning);
        assert_same_findings(name, keys(errors), expected(&[name]));
        assert_same_findings(
            &format!("{name} --strict"),
            keys(warnings),
            expected(&["strict warnings", name]),
        );
    }
}

/// Every rule the checker reports, and the part it reports it on: the corpus has them all.
#[test]
fn the_corpus_covers_every_rule_of_the_checker() {
    let rules = [
        ("entry", "operation-path"),
        ("entry", "operation-method"),
        ("entry", "webhook-path"),
        ("entry", "malformed"),
        ("request", "required"),
        ("request", "format"),
        ("request", "minLength"),
        ("request", "maxLength"),
        ("request", "enum"),
        ("request", "type"),
        ("request", "credentials"),
        ("request", "content-type"),
        ("request", "json"),
        ("request", "body-unexpected"),
        ("response", "credentials"),
        ("response", "status-documented"),
        ("response", "required"),
        ("response", "pattern"),
        ("response", "format"),
        ("response", "type"),
        ("response", "json"),
        ("response", "content-type"),
        ("response", "http-code"),
        ("response", "const"),
        ("response", "falseSchema"),
        ("notification", "pattern"),
        ("notification", "enum"),
        ("notification", "content-type"),
        ("notification", "json"),
        ("notification", "required"),
        ("reply", "const"),
        ("reply", "required"),
        ("reply", "status-documented"),
        ("reply", "reply-rejects-valid"),
    ];
    // The interface's only unions are a schema or null (`entity_detail`'s members), whose
    // failures are the schema's own rules: no case of `oneOf` (checks.rs has its message).
    // No request body of the interface holds an open list, and a value a closed one refuses
    // is an `enum` error, not also a warning: there is no request case of
    // `undocumented-enum-value` (checks.rs has the rule's behaviour).
    let strict_rules = [
        ("request", "undocumented-property"),
        ("response", "undocumented-property"),
        ("response", "undocumented-enum-value"),
    ];
    let present = |list: &[Key]| -> BTreeSet<(String, String)> {
        list.iter()
            .map(|(_, part, rule, _)| (part.clone(), rule.clone()))
            .collect()
    };
    let mut all = expected(&["rules.jsonl"]);
    all.extend(expected(&["rules.har"]));
    let found = present(&all);
    for (part, rule) in rules {
        assert!(
            found.contains(&(part.to_string(), rule.to_string())),
            "no case for {part} {rule}"
        );
    }
    let mut strict = expected(&["strict warnings", "rules.jsonl"]);
    strict.extend(expected(&["strict warnings", "rules.har"]));
    let found = present(&strict);
    for (part, rule) in strict_rules {
        assert!(
            found.contains(&(part.to_string(), rule.to_string())),
            "no strict case for {part} {rule}"
        );
    }
    // Every exchange with an id has a case name, and every case of one file is in the other
    // unless only one format can express it.
    let ids = |list: &[Key]| -> BTreeSet<String> {
        list.iter().filter_map(|(id, ..)| id.clone()).collect()
    };
    let jsonl = ids(&expected(&["rules.jsonl"]));
    let har = ids(&expected(&["rules.har"]));
    let only_jsonl: Vec<&String> = jsonl.difference(&har).collect();
    assert_eq!(
        only_jsonl,
        ["webhook-path-unknown"],
        "cases only in rules.jsonl"
    );
    assert!(har.is_subset(&jsonl), "cases only in rules.har");
}

#[test]
fn malformed_entries_do_not_stop_the_run() {
    let report = run_one(&corpus("rules.jsonl"), false);
    let malformed: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|f| f.rule == "malformed")
        .collect();
    let messages: Vec<&str> = malformed.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(malformed.len(), 4, "{messages:?}");
    assert!(messages[0].contains("trailing comma"), "{messages:?}");
    assert!(messages[1].contains("not valid UTF-8"), "{messages:?}");
    assert!(
        messages[2].contains("request.method is missing"),
        "{messages:?}"
    );
    assert!(messages[3].contains("EOF while parsing"), "{messages:?}");
    // Entries after each malformed one are checked: the findings go on to the end.
    let last_malformed = malformed[2].exchange;
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.exchange > last_malformed && f.rule != "malformed"),
        "nothing after the malformed line"
    );
    // The cut-off last line is the last exchange.
    assert_eq!(malformed[3].exchange as u64, report.exchanges - 1);
}

#[test]
fn a_cut_off_har_keeps_the_entries_before_the_cut() {
    let report = run_one(&corpus("truncated.har"), false);
    assert_eq!(report.exchanges, 4);
    assert_eq!(report.findings.len(), 1, "{}", describe(&report.findings));
    let finding = &report.findings[0];
    assert_eq!(
        (finding.exchange, finding.part, finding.rule.as_str()),
        (3, Part::Entry, "malformed")
    );
    assert!(finding.pointer.starts_with("line:"), "{finding:?}");
    assert!(
        finding
            .message
            .starts_with("stopped after 3 entries: EOF while parsing"),
        "{}",
        finding.message
    );
    assert_eq!(report.per_operation["createAccount"].exchanges, 3);
}

// ---------------------------------------------------------------------------------------------
// Nesting bombs (written at test time: 200 KB lines are not worth committing)
// ---------------------------------------------------------------------------------------------

const DEPTH: usize = 100_000;

fn bomb() -> String {
    let mut text = "[".repeat(DEPTH);
    text.push_str(&"]".repeat(DEPTH));
    text
}

fn write_temp(suffix: &str, bytes: &[u8]) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new()
        .suffix(suffix)
        .tempfile()
        .expect("temp file");
    file.write_all(bytes).expect("write");
    file.flush().expect("flush");
    file
}

fn run_temp(file: &tempfile::NamedTempFile) -> RunReport {
    run_one(file.path(), false)
}

#[test]
fn a_json_lines_nesting_bomb_is_a_finding_and_the_run_goes_on() {
    let clean = std::fs::read_to_string(corpus("clean.jsonl")).expect("clean.jsonl");
    let first = clean.lines().next().expect("a record");
    let value = format!(
        r#"{{"id": "bomb-value", "request": {{"method": "POST", "path": "/v1/banking/accounts", "body": {}}}}}"#,
        bomb()
    );
    let text = serde_json::json!({
        "id": "bomb-text",
        "request": {
            "method": "POST",
            "path": "/v1/banking/accounts",
            "headers": {
                "public-api-key": "pk_test_fake",
                "private-secret-key": "sk_test_fake",
                "content-type": "application/json",
                "x-idempotency-key": "2c4e6a8b-0d1f-4a3c-9e5b-7d9f1b3d5e01"
            },
            "bodyText": bomb()
        },
        "response": {"status": 400, "headers": {"content-type": "application/json"},
                     "body": {"code": "VALIDATION_ERROR", "messages": ["not JSON"], "http_code": 400}}
    })
    .to_string();
    let file = write_temp(
        ".jsonl",
        format!("{first}\n{value}\n{text}\n{first}\n").as_bytes(),
    );
    let report = run_temp(&file);
    assert_eq!(report.exchanges, 4);
    assert_same_findings(
        "bombs",
        keys(&report.findings),
        vec![
            (None, "entry".into(), "malformed".into(), "line:2".into()),
            (
                Some("bomb-text".into()),
                "request".into(),
                "json".into(),
                String::new(),
            ),
        ],
    );
    assert!(
        report.findings[0].message.contains("nesting too deep"),
        "{}",
        report.findings[0].message
    );
    assert_eq!(report.per_operation["createAccount"].exchanges, 3);
}

#[test]
fn a_har_nesting_bomb_is_a_finding_and_the_run_goes_on() {
    let clean: Value =
        serde_json::from_str(&std::fs::read_to_string(corpus("clean.har")).expect("clean.har"))
            .expect("JSON");
    let good = clean["log"]["entries"][0].clone();
    let mut text_bomb = good.clone();
    text_bomb["comment"] = "bomb-text".into();
    text_bomb["request"]["postData"]["text"] = bomb().into();
    // The structural bomb replaces the value of postData in the entry's text.
    let structural = serde_json::to_string(&good).expect("JSON").replacen(
        r#""postData":{"#,
        &format!(r#""postData":{},"_postData":{{"#, bomb()),
        1,
    );
    assert!(structural.len() > 2 * DEPTH);
    let har = format!(
        r#"{{"log": {{"version": "1.2", "creator": {{"name": "t", "version": "1"}}, "entries": [{}, {}, {}, {}]}}}}"#,
        good, text_bomb, structural, good
    );
    let file = write_temp(".har", har.as_bytes());
    let report = run_temp(&file);
    assert_eq!(report.exchanges, 4);
    assert_same_findings(
        "bombs",
        keys(&report.findings),
        vec![
            (
                Some("bomb-text".into()),
                "request".into(),
                "json".into(),
                String::new(),
            ),
            (None, "entry".into(), "malformed".into(), "line:1".into()),
        ],
    );
    assert_eq!(report.per_operation["createAccount"].exchanges, 3);
}

// ---------------------------------------------------------------------------------------------
// Drift
// ---------------------------------------------------------------------------------------------

fn drift_key(operation: &str, part: Part, location: &str, value: &str) -> DriftKey {
    DriftKey {
        operation: operation.into(),
        part,
        location: location.into(),
        value: Some(value.into()),
    }
}

#[test]
fn drift_counts_what_repeats() {
    let report = run_showing(&[corpus("rules.jsonl")], false, true);
    let properties = BTreeMap::from([
        (drift_key("createAccount", Part::Request, "", "nickname"), 1),
        (drift_key("getAccount", Part::Response, "", "nickname"), 2),
        (drift_key("incomingTransfer", Part::Reply, "", "ok"), 1),
    ]);
    // A value a closed list refuses (`account_type` BROKERAGE, the notification's `direction`
    // OUTGOING) is an `enum` error, not drift: only the open lists' values are here.
    let enum_values = BTreeMap::from([
        (
            drift_key("getAccountTransfer", Part::Response, "/status", "CANCELLED"),
            2,
        ),
        // An error code the interface's list lacks is drift, not a finding
        // (`error-code-not-in-the-list`); a known code at another status is a finding.
        (
            drift_key(
                "getAccountTransfer",
                Part::Response,
                "/code",
                "TRANSFER_NOT_FOUND",
            ),
            1,
        ),
    ]);
    // The reply-status-undocumented case answers 202, which the webhook does not document.
    let statuses = BTreeMap::from([
        (drift_key("getAccount", Part::Response, "status", "500"), 1),
        (
            drift_key("incomingTransfer", Part::Reply, "status", "202"),
            1,
        ),
    ]);
    assert_eq!(report.drift.properties, properties);
    assert_eq!(report.drift.enum_values, enum_values);
    assert_eq!(report.drift.statuses, statuses);

    // Over both files the counts add up.
    let both = run_showing(&[corpus("rules.jsonl"), corpus("rules.har")], false, true);
    let double = |map: &BTreeMap<DriftKey, u64>| -> BTreeMap<DriftKey, u64> {
        map.iter().map(|(k, n)| (k.clone(), n * 2)).collect()
    };
    assert_eq!(both.drift.properties, double(&properties));
    assert_eq!(both.drift.enum_values, double(&enum_values));
    assert_eq!(both.drift.statuses, double(&statuses));

    // Strict mode counts the same drift.
    let strict = run_showing(&[corpus("rules.jsonl")], true, true);
    assert_eq!(strict.drift, report.drift);
    // Without --show-values the enum values are masked; the counts per place stay.
    let masked = run_one(&corpus("rules.jsonl"), false);
    assert_eq!(masked.drift.properties, report.drift.properties);
    let unvalued: BTreeMap<DriftKey, u64> = report
        .drift
        .enum_values
        .iter()
        .map(|(key, n)| {
            (
                DriftKey {
                    value: None,
                    ..key.clone()
                },
                *n,
            )
        })
        .collect();
    assert_eq!(masked.drift.enum_values, unvalued);
}

/// In strict mode a masked enum value reads `value a value is not documented`.
#[test]
fn a_masked_undocumented_enum_value_reads_well() {
    let report = run_one(&corpus("rules.jsonl"), true);
    let odd: Vec<Finding> = report
        .findings
        .iter()
        .filter(|f| f.message.contains("value a value"))
        .cloned()
        .collect();
    assert!(odd.is_empty(), "{}", describe(&odd));
}

/// A status whose body the spec does not show (`5XX` of the notification: no content) takes
/// any body: a text page from the merchant's proxy is not a finding.
#[test]
fn a_body_the_spec_does_not_show_may_be_text() {
    let record = serde_json::json!({
        "id": "merchant-proxy-503",
        "request": {
            "method": "POST",
            "url": "https://merchant.example.com/v1/banking/transfers",
            "headers": {"content-type": "application/json"},
            "body": {"id": "xfer_9d1f3b5a7c9e", "direction": "INCOMING"}
        },
        "response": {
            "status": 503,
            "headers": {"content-type": "text/html"},
            "bodyText": "<html><body>503 Service Unavailable</body></html>"
        }
    });
    let file = write_temp(".jsonl", format!("{record}\n").as_bytes());
    let report = run_temp(&file);
    assert!(report.findings.is_empty(), "{}", describe(&report.findings));
}

/// A HAR exporter that leaves out the Content-Type header still states the body's media type
/// in `postData.mimeType` / `content.mimeType`: that is the content type then.
#[test]
fn a_har_mime_type_stands_for_a_missing_content_type_header() {
    let mut har: Value =
        serde_json::from_str(&std::fs::read_to_string(corpus("clean.har")).expect("clean.har"))
            .expect("JSON");
    let mut stripped = 0;
    for entry in har["log"]["entries"].as_array_mut().expect("entries") {
        for message in ["request", "response"] {
            let has_body = !entry[message]["postData"]["mimeType"].is_null()
                || !entry[message]["content"]["mimeType"].is_null();
            if let Some(headers) = entry[message]["headers"].as_array_mut() {
                let before = headers.len();
                headers.retain(|h| {
                    !h["name"]
                        .as_str()
                        .is_some_and(|name| name.eq_ignore_ascii_case("content-type"))
                });
                if has_body && headers.len() < before {
                    stripped += 1;
                }
            }
        }
    }
    assert!(
        stripped > 10,
        "only {stripped} Content-Type headers removed"
    );
    let file = write_temp(".har", har.to_string().as_bytes());
    let report = run_temp(&file);
    assert!(report.findings.is_empty(), "{}", describe(&report.findings));
}

// ---------------------------------------------------------------------------------------------
// The traffic of the end-to-end tests
// ---------------------------------------------------------------------------------------------

#[test]
fn the_e2e_traffic_keeps_the_contract() {
    let report = run_showing(&[traffic("e2e.har")], false, true);
    assert!(
        report.findings.is_empty(),
        "tests/traffic/e2e.har:\n{}",
        describe(&report.findings)
    );
    assert!(report.exchanges > 30, "{} exchanges", report.exchanges);
    let operations: BTreeSet<String> = report.per_operation.keys().cloned().collect();
    assert_eq!(operations, every_operation());
    assert!(report.drift.properties.is_empty(), "{:?}", report.drift);
    assert!(report.drift.statuses.is_empty(), "{:?}", report.drift);

    // What the spec leaves open, the in-memory service fills in: a cancelled transfer's status
    // and the code of an unknown transfer (both `x-extensible-enum`s). Strict mode shows them
    // as warnings and nothing else.
    let values: BTreeSet<&str> = report
        .drift
        .enum_values
        .keys()
        .filter_map(|key| key.value.as_deref())
        .collect();
    assert_eq!(values, BTreeSet::from(["CANCELLED", "TRANSFER_NOT_FOUND"]));
    let strict = run_one(&traffic("e2e.har"), true);
    assert!(
        strict
            .findings
            .iter()
            .all(|f| f.severity == Severity::Warning && f.rule == "undocumented-enum-value"),
        "{}",
        describe(&strict.findings)
    );
}

/// The entries of a HAR file, for what the report does not say (statuses, bodies).
fn har_entries(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).expect("HAR");
    let har: Value = serde_json::from_str(&text).expect("HAR is JSON");
    har["log"]["entries"].as_array().expect("entries").clone()
}

/// A finding on the receiver's reply to a notification it rejected (400): the contract
/// documents 200 and 5XX only.
fn is_rejection_reply(finding: &Finding, entries: &[Value]) -> bool {
    finding.part == Part::Reply
        && finding.rule == "status-documented"
        && entries[finding.exchange]["response"]["status"] == 400
}

#[test]
fn the_e2e_probes_break_the_contract_only_on_the_request_side() {
    let path = traffic("e2e-invalid.har");
    let report = run_one(&path, false);
    let entries = har_entries(&path);
    assert_eq!(entries.len() as u64, report.exchanges);
    let mut unexpected = Vec::new();
    let mut not_acknowledged = 0;
    for finding in &report.findings {
        let request_side = matches!(
            finding.part,
            Part::Request | Part::Entry | Part::Notification
        );
        // The probe whose reply is deliberately `{"received": false}`.
        let deliberate_reply = finding.part == Part::Reply
            && finding.rule == "const"
            && finding.pointer == "/received"
            && entries[finding.exchange]["response"]["content"]["text"]
                .as_str()
                .is_some_and(|text| text.contains("false"));
        if deliberate_reply {
            not_acknowledged += 1;
        }
        // Known: see the_receiver_rejects_invalid_notifications_with_a_documented_status.
        let known = is_rejection_reply(finding, &entries);
        if !(request_side || finding.rule == "credentials" || deliberate_reply || known) {
            unexpected.push(finding.clone());
        }
    }
    assert!(
        unexpected.is_empty(),
        "the answers to invalid requests break the contract:\n{}",
        describe(&unexpected)
    );
    assert_eq!(not_acknowledged, 1);

    // Every probe is caught: it has a finding, or it went without credentials and was
    // rightly answered 401 NOT_AUTHENTICATED.
    let flagged: BTreeSet<usize> = report.findings.iter().map(|f| f.exchange).collect();
    for (index, entry) in entries.iter().enumerate() {
        if flagged.contains(&index) {
            continue;
        }
        let body: Value = entry["response"]["content"]["text"]
            .as_str()
            .and_then(|text| serde_json::from_str(text).ok())
            .unwrap_or_default();
        assert!(
            entry["response"]["status"] == 401 && body["code"] == "NOT_AUTHENTICATED",
            "{}: a probe without a finding that is not a 401",
            entry["comment"]
        );
    }
}

#[test]
fn the_receiver_rejects_invalid_notifications_with_a_documented_status() {
    let path = traffic("e2e-invalid.har");
    let report = run_one(&path, false);
    let entries = har_entries(&path);
    let rejected: Vec<Finding> = report
        .findings
        .iter()
        .filter(|f| is_rejection_reply(f, &entries))
        .cloned()
        .collect();
    assert!(rejected.is_empty(), "{}", describe(&rejected));
}

/// Live checks judge a conforming body read in place (`findings_of`, no `Value` built) and
/// recorded runs parse it into a `Value` (`check`): over every recorded exchange of the
/// corpus and the end-to-end traffic, in both modes, the two must find exactly the same
/// things, and the traffic must hold both conforming and broken bodies for that to mean
/// anything.
#[test]
fn live_and_recorded_checks_find_the_same_on_every_recorded_exchange() {
    use specval::check::{check, findings_of};
    let files = [
        "corpus/clean.har",
        "corpus/clean.jsonl",
        "corpus/rules.har",
        "corpus/rules.jsonl",
        "e2e.har",
        "e2e-invalid.har",
    ];
    let webhooks = contract().webhook_paths();
    let (mut exchanges, mut with_body_findings) = (0, 0);
    for file in files {
        let path = traffic(file);
        let mut read = Vec::new();
        specval::read::read_path(path.to_str().unwrap(), None, &webhooks, &mut |entry| {
            read.extend(entry.ok());
        })
        .unwrap();
        assert!(!read.is_empty(), "{file}: no exchange read");
        for exchange in &read {
            for show_values in [false, true] {
                let options = CheckOptions {
                    strict: false,
                    show_values,
                };
                let live = findings_of(contract(), exchange, options);
                let recorded = check(contract(), exchange, options).findings;
                assert_eq!(live, recorded, "{file}: exchange {}", exchange.index);
                if recorded.iter().any(|f| f.pointer.starts_with('/')) {
                    with_body_findings += 1;
                }
            }
            exchanges += 1;
        }
    }
    assert!(exchanges > 100, "{exchanges}");
    assert!(with_body_findings >= 10, "{with_body_findings}");
}

/// Hand-written JSON Lines often leave a response's headers out. A record without `headers`
/// did not record them, and its `body` written as JSON says what was sent: the exchange is
/// judged on its body, not failed on a header nobody wrote down. A record that lists headers
/// (`{}` included) is taken at its word, and a body that breaks its schema still breaks it.
#[test]
fn a_json_lines_body_without_recorded_headers_is_judged_as_json() {
    let path = "/v1/banking/accounts/6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b";
    let account = serde_json::json!({
        "id": "acct_2f7c9a1e4b6d", "account_id": "6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b",
        "status": "ACTIVE", "currency": "USD"
    });
    let record = |id: &str, response: Value| {
        serde_json::json!({
            "id": id,
            "request": {"method": "GET", "path": path,
                        "headers": {"public-api-key": "pk_test_fake", "private-secret-key": "sk_test_fake"}},
            "response": response
        })
        .to_string()
    };
    let mut frozen = account.clone();
    frozen["status"] = "FROZEN".into();
    let lines = [
        record(
            "unrecorded",
            serde_json::json!({"status": 200, "body": account}),
        ),
        record(
            "unrecorded-null",
            serde_json::json!({"status": 200, "headers": null, "body": account}),
        ),
        record(
            "unrecorded-json-text",
            serde_json::json!({"status": 200, "body": account.to_string()}),
        ),
        record(
            "recorded-empty",
            serde_json::json!({"status": 200, "headers": {}, "body": account}),
        ),
        record(
            "unrecorded-text",
            serde_json::json!({"status": 200, "bodyText": account.to_string()}),
        ),
        record(
            "unrecorded-frozen",
            serde_json::json!({"status": 200, "body": frozen}),
        ),
    ];
    let file = write_temp(".jsonl", format!("{}\n", lines.join("\n")).as_bytes());
    let report = run_temp(&file);
    assert_eq!(report.exchanges, 6);
    let finding = |id: &str, rule: &str, pointer: &str| {
        (
            Some(id.to_string()),
            "response".to_string(),
            rule.to_string(),
            pointer.to_string(),
        )
    };
    assert_same_findings(
        "headers not recorded",
        keys(&report.findings),
        vec![
            finding("recorded-empty", "content-type", "header:content-type"),
            finding("unrecorded-text", "content-type", "header:content-type"),
            finding("unrecorded-frozen", "enum", "/status"),
        ],
    );
}
