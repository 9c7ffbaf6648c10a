// Over 600 lines on purpose: one test binary per feature keeps link time down.
//! The `specval` binary as a user runs it: exit codes, standard input, every report format
//! parsed back with its counts, `--output`, `--strict`, `--show-values`, the three sources of
//! a contract, `specval message`, and credentials that never reach any output.
//!
//! Every run goes through [`specval`], which also asserts that nothing panicked and that
//! standard error stays empty unless the run failed (no progress bar: standard error is a
//! pipe here, not a terminal).

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// What a run of the binary left.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace")
        .to_path_buf()
}

fn corpus(name: &str) -> String {
    root()
        .join("tests/traffic/corpus")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Runs `specval args…`, feeding `stdin` when given.
fn specval_with(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_specval"))
        .args(args)
        .current_dir(root())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("specval starts");
    if let Some(bytes) = stdin {
        let mut pipe = child.stdin.take().expect("stdin");
        pipe.write_all(bytes).expect("write stdin");
    }
    let output = child.wait_with_output().expect("specval runs");
    let run = Run {
        code: output.status.code().expect("an exit code, not a signal"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    };
    for text in [&run.stdout, &run.stderr] {
        assert!(
            !text.contains("panicked"),
            "specval {args:?} panicked:\n{text}"
        );
    }
    if run.code != 2 {
        // No progress bar, no warning: standard error is not a terminal.
        assert_eq!(run.stderr, "", "specval {args:?}: unexpected stderr");
    }
    run
}

fn specval(args: &[&str]) -> Run {
    specval_with(args, None)
}

#[track_caller]
fn assert_code(run: &Run, code: i32, what: &str) {
    assert_eq!(
        run.code, code,
        "{what}: exit code\nstdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
}

fn json(run: &Run) -> Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|err| panic!("not JSON ({err}):\n{}", run.stdout))
}

/// A file in a fresh temporary directory, kept as long as the directory.
fn temp_file(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).expect("write");
    path.to_string_lossy().into_owned()
}

/// The lines of `rules.jsonl` whose id is one of `ids`.
fn rules_lines(ids: &[&str]) -> Vec<u8> {
    let bytes = std::fs::read(corpus("rules.jsonl")).expect("rules.jsonl");
    let mut out = Vec::new();
    for line in bytes.split(|&b| b == b'\n') {
        let Ok(text) = std::str::from_utf8(line) else {
            continue;
        };
        let Ok(record) = serde_json::from_str::<Value>(text) else {
            continue;
        };
        if ids.iter().any(|id| record["id"] == *id) {
            out.extend_from_slice(line);
            out.push(b'\n');
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Exit codes
// ---------------------------------------------------------------------------------------------

#[test]
fn exit_0_on_clean_traffic_and_1_with_findings() {
    for name in ["clean.jsonl", "clean.har"] {
        let run = specval(&["check", &corpus(name)]);
        assert_code(&run, 0, name);
        assert!(run.stdout.contains(", clean, in 1 file"), "{}", run.stdout);
    }
    let both = specval(&["check", &corpus("clean.jsonl"), &corpus("clean.har")]);
    assert_code(&both, 0, "both clean files");
    for name in ["rules.jsonl", "rules.har", "truncated.har"] {
        assert_code(&specval(&["check", &corpus(name)]), 1, name);
    }
    assert_code(
        &specval(&["check", &corpus("clean.jsonl"), &corpus("rules.har")]),
        1,
        "clean and rules",
    );
}

/// A text finding names its exchange by number (from 0, as JSON's `exchange`) and by the line
/// it starts on, which is what a person opens the file at.
#[test]
fn a_text_finding_says_the_line_its_exchange_starts_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let clean = std::fs::read_to_string(corpus("clean.jsonl")).expect("clean.jsonl");
    let first = clean.lines().next().expect("a clean record");
    let mut text = format!("{first}\n\n");
    text.push_str(std::str::from_utf8(&rules_lines(&["status-undocumented"])).expect("UTF-8"));
    let file = temp_file(&dir, "two.jsonl", text.as_bytes());
    let run = specval(&["check", &file]);
    assert_code(&run, 1, "one failing record");
    assert!(
        run.stdout
            .contains("  #1 (line 3) [status-undocumented] response: "),
        "{}",
        run.stdout
    );
}

#[test]
fn exit_2_when_an_input_or_the_contract_cannot_be_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("missing.har");
    let missing = missing.to_string_lossy();
    let clean = corpus("clean.jsonl");

    let mut cases: Vec<(&str, Vec<String>)> = vec![
        ("a missing input", vec!["check".into(), missing.to_string()]),
        (
            "a directory as input",
            vec!["check".into(), dir.path().to_string_lossy().into_owned()],
        ),
    ];

    // Contract directories: missing, empty, a schema that is not JSON, a manifest of the
    // wrong shape.
    let empty = tempfile::tempdir().expect("temp dir");
    let not_json = tempfile::tempdir().expect("temp dir");
    temp_file(&not_json, "manifest.json", b"{\"operations\": []}");
    temp_file(&not_json, "Account.json", b"{not json");
    let bad_manifest = tempfile::tempdir().expect("temp dir");
    temp_file(
        &bad_manifest,
        "manifest.json",
        br#"{"operations": [{"method": "GET", "path": "/x"}]}"#,
    );
    for (what, contract) in [
        ("a missing contract dir", missing.to_string()),
        (
            "an empty contract dir",
            empty.path().to_string_lossy().into_owned(),
        ),
        (
            "a contract file that is not JSON",
            not_json.path().to_string_lossy().into_owned(),
        ),
        (
            "a manifest without operationId",
            bad_manifest.path().to_string_lossy().into_owned(),
        ),
    ] {
        cases.push((
            what,
            vec!["--contract".into(), contract, "check".into(), clean.clone()],
        ));
    }

    // Specs: missing, not YAML, YAML that is not OpenAPI.
    let specs = tempfile::tempdir().expect("temp dir");
    let not_yaml = temp_file(&specs, "bad.yaml", b"openapi: [3.1\n  paths: {");
    let not_openapi = temp_file(&specs, "list.yaml", b"- just\n- a list\n");
    for (what, spec) in [
        ("a missing spec", missing.to_string()),
        ("a spec that is not YAML", not_yaml),
        ("a spec that is not OpenAPI", not_openapi),
    ] {
        cases.push((
            what,
            vec!["--spec".into(), spec, "check".into(), clean.clone()],
        ));
    }

    for (what, args) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = specval(&args);
        assert_code(&run, 2, what);
        assert!(
            run.stderr.starts_with("specval: error: ") && run.stderr.lines().count() == 1,
            "{what}: one error line on stderr, got:\n{}",
            run.stderr
        );
    }
}

/// Exit 1 with one `no-exchanges` finding: an empty capture must fail the job.
#[track_caller]
fn assert_empty_input_fails(run: &Run, what: &str) {
    assert_code(run, 1, what);
    let report = json(run);
    assert_eq!(report["exchanges"], 0, "{what}");
    let rules: Vec<&Value> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| &f["rule"])
        .collect();
    assert_eq!(rules, ["no-exchanges"], "{what}");
}

#[test]
fn an_input_without_exchanges_fails_unless_allowed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = [
        temp_file(&dir, "empty.jsonl", b""),
        temp_file(&dir, "blank.jsonl", b"\n  \n\t\n"),
        temp_file(&dir, "empty.har", b""),
        temp_file(
            &dir,
            "no-entries.har",
            br#"{"log": {"version": "1.2", "entries": []}}"#,
        ),
        "/dev/null".to_string(),
    ];
    for file in &files {
        let run = specval(&["check", "--format", "json", file]);
        assert_empty_input_fails(&run, file);
        let allowed = specval(&["check", "--allow-empty", file]);
        assert_code(&allowed, 0, &format!("{file} with --allow-empty"));
        assert!(
            allowed.stdout.contains("0 exchanges, clean"),
            "{}",
            allowed.stdout
        );
    }
    let piped = specval_with(&["check", "--format", "json", "-"], Some(b""));
    assert_empty_input_fails(&piped, "empty stdin");
    let allowed = specval_with(&["check", "--allow-empty", "-"], Some(b""));
    assert_code(&allowed, 0, "empty stdin with --allow-empty");

    // Each input counts on its own: an empty capture beside a good one still fails.
    let run = specval(&[
        "check",
        "--format",
        "json",
        &corpus("clean.jsonl"),
        &files[0],
    ]);
    assert_code(&run, 1, "a clean input and an empty one");
    let report = json(&run);
    assert_eq!(report["findings"][0]["source"], files[0].as_str());
    assert_eq!(report["findings"][0]["rule"], "no-exchanges");
    for format in ["text", "junit", "sarif"] {
        let run = specval(&["check", "--format", format, &files[0]]);
        assert_code(&run, 1, format);
        assert!(
            run.stdout.contains("no exchanges"),
            "{format}:\n{}",
            run.stdout
        );
    }
}

/// A browser's HAR of a web client: its page, script and the CORS preflight beside the API
/// call are counted apart and not judged; a HAR of nothing but those holds no exchange with
/// the API, and fails as an empty capture does (the wrong tab recorded).
#[test]
fn a_browser_capture_passes_over_page_resources_but_not_when_they_are_all_it_holds() {
    let entry = |method: &str, url: &str, request: &str, status: u16, media: &str, text: &str| {
        format!(
            r#"{{"request": {{"method": "{method}", "url": "{url}", "headers": [{request}]}},
                "response": {{"status": {status}, "headers": [{{"name": "content-type", "value": "{media}"}}],
                             "content": {{"mimeType": "{media}", "text": {text:?}}}}}}}"#
        )
    };
    let page = entry(
        "GET",
        "https://app.example.com/",
        r#"{"name": "sec-fetch-dest", "value": "document"}"#,
        200,
        "text/html",
        "<html></html>",
    );
    let script = entry(
        "GET",
        "https://app.example.com/static/app.js",
        "",
        200,
        "text/javascript",
        "run()",
    );
    let preflight = entry(
        "OPTIONS",
        "https://api.example.com/v1/payments?merchant_order_id=o1",
        r#"{"name": "Origin", "value": "https://app.example.com"}, {"name": "Access-Control-Request-Method", "value": "GET"}"#,
        204,
        "text/plain",
        "",
    );
    let call = entry(
        "GET",
        "https://api.example.com/v1/payments?merchant_order_id=o1",
        r#"{"name": "public-api-key", "value": "pk_test_fake"}, {"name": "private-secret-key", "value": "sk_test_fake"}, {"name": "sec-fetch-dest", "value": "empty"}"#,
        200,
        "application/json",
        "[]",
    );
    let har = |entries: &[&String]| {
        let entries: Vec<&str> = entries.iter().map(|e| e.as_str()).collect();
        format!(
            r#"{{"log": {{"version": "1.2", "entries": [{}]}}}}"#,
            entries.join(",")
        )
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let web = temp_file(
        &dir,
        "web.har",
        har(&[&page, &script, &preflight, &call]).as_bytes(),
    );
    let run = specval(&["check", "--format", "json", &web]);
    assert_code(&run, 0, "the web client's capture");
    let report = json(&run);
    assert_eq!(report["exchanges"], 4);
    assert_eq!(report["operations"]["(not API traffic)"]["exchanges"], 3);
    assert_eq!(
        report["operations"]["getPaymentsByMerchantOrderId"]["exchanges"],
        1
    );
    let text = specval(&["check", &web]);
    assert!(
        text.stdout.contains("(not API traffic) — 3 exchanges"),
        "{}",
        text.stdout
    );

    let assets = temp_file(
        &dir,
        "assets.har",
        har(&[&page, &script, &preflight]).as_bytes(),
    );
    let run = specval(&["check", "--format", "json", &assets]);
    assert_code(&run, 1, "a capture of a page's resources only");
    let report = json(&run);
    let findings = report["findings"].as_array().expect("findings");
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0]["rule"], "no-exchanges");
    assert!(
        findings[0]["message"]
            .as_str()
            .unwrap()
            .contains("3 entries are all passed over, as CORS preflights"),
        "{findings:?}"
    );
    assert_code(
        &specval(&["check", "--allow-empty", &assets]),
        0,
        "--allow-empty",
    );
}

#[test]
fn an_unreadable_input_among_several_is_reported_with_the_others() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir
        .path()
        .join("missing.har")
        .to_string_lossy()
        .into_owned();
    let clean = corpus("clean.jsonl");
    let alone = json(&specval(&["check", "--format", "json", &clean]));
    for format in ["text", "json", "junit", "sarif"] {
        let run = specval(&["check", "--format", format, &clean, &missing]);
        assert_code(&run, 2, format);
        assert!(
            run.stderr.starts_with("specval: error: cannot read ")
                && run.stderr.contains("missing.har")
                && run.stderr.lines().count() == 1,
            "{format}: {}",
            run.stderr
        );
        assert!(
            run.stdout.contains("missing.har"),
            "{format}:\n{}",
            run.stdout
        );
        if format == "json" {
            let report = json(&run);
            assert_eq!(report["exchanges"], alone["exchanges"]);
            let findings = report["findings"].as_array().expect("findings");
            assert_eq!(findings.len(), 1, "{findings:?}");
            assert_eq!(findings[0]["rule"], "unreadable");
            assert_eq!(findings[0]["source"], missing.as_str());
        }
    }
    // Written with -o as well.
    let out = dir.path().join("report.json");
    let run = specval(&[
        "check",
        "--format",
        "json",
        "-o",
        &out.to_string_lossy(),
        &missing,
        &clean,
    ]);
    assert_code(&run, 2, "-o");
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("report")).expect("JSON");
    assert_eq!(written["exchanges"], alone["exchanges"]);
}

#[test]
fn a_malformed_entry_is_a_finding_and_later_entries_are_still_checked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut bytes = b"{\"id\": \"broken\", \"request\": \n".to_vec();
    bytes.extend(rules_lines(&["status-undocumented"]));
    let file = temp_file(&dir, "traffic.jsonl", &bytes);
    let run = specval(&["check", "--format", "json", &file]);
    assert_code(&run, 1, "malformed then broken");
    let report = json(&run);
    let found: Vec<(Value, Value, Value)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["exchange"].clone(),
                f["rule"].clone(),
                f["pointer"].clone(),
            )
        })
        .collect();
    assert_eq!(
        found,
        vec![
            (0.into(), "malformed".into(), "line:1".into()),
            (1.into(), "status-documented".into(), "".into()),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Standard input
// ---------------------------------------------------------------------------------------------

#[test]
fn a_dash_reads_standard_input_in_either_format() {
    for (name, code) in [
        ("clean.jsonl", 0),
        ("clean.har", 0),
        ("rules.jsonl", 1),
        ("rules.har", 1),
    ] {
        let bytes = std::fs::read(corpus(name)).expect("corpus file");
        let piped = specval_with(&["check", "--format", "json", "-"], Some(&bytes));
        assert_code(&piped, code, name);
        let from_stdin = json(&piped);
        let from_file = json(&specval(&["check", "--format", "json", &corpus(name)]));
        assert_eq!(from_stdin["inputs"], serde_json::json!(["-"]));
        for key in ["exchanges", "errors", "operations", "drift"] {
            assert_eq!(from_stdin[key], from_file[key], "{name}: {key}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Formats
// ---------------------------------------------------------------------------------------------

/// (exchanges, error findings, failed exchanges) of a run, from its JSON report: an exchange
/// fails by any finding, an error or a warning (strict mode's, and an unrecorded body's
/// without it), as the exit code says.
fn counts(report: &Value) -> (u64, u64, u64) {
    let findings = report["findings"].as_array().expect("findings");
    let failed: BTreeSet<(String, u64)> = findings
        .iter()
        .map(|f| {
            (
                f["source"].as_str().expect("source").to_string(),
                f["exchange"].as_u64().expect("exchange"),
            )
        })
        .collect();
    (
        report["exchanges"].as_u64().expect("exchanges"),
        report["errors"].as_u64().expect("errors"),
        failed.len() as u64,
    )
}

fn check_formats(files: &[String], strict: bool) {
    let mut args = vec!["check"];
    if strict {
        args.push("--strict");
    }
    args.extend(files.iter().map(String::as_str));
    let with_format = |format: &str| {
        let mut all = args.clone();
        all.extend(["--format", format]);
        specval(&all)
    };
    let json_run = with_format("json");
    let report = json(&json_run);
    let (exchanges, errors, failed) = counts(&report);
    let warnings = report["warnings"].as_u64().expect("warnings");
    let findings = report["findings"].as_array().expect("findings").len() as u64;
    assert_eq!(findings, errors + warnings);
    let code = if findings == 0 { 0 } else { 1 };
    assert_code(&json_run, code, "json");
    let operations: u64 = report["operations"]
        .as_object()
        .expect("operations")
        .values()
        .map(|stats| stats["exchanges"].as_u64().expect("exchanges"))
        .sum();
    assert_eq!(operations, exchanges, "every exchange is counted once");
    // The groups' failed exchanges are the run's, as JUnit counts them below: a warning
    // fails its exchange as it fails the run.
    let failed_in_groups: u64 = report["operations"]
        .as_object()
        .expect("operations")
        .values()
        .map(|stats| stats["failed"].as_u64().expect("failed"))
        .sum();
    assert_eq!(failed_in_groups, failed, "failed exchanges");

    // Text: the summary line says the same.
    let text = with_format("text");
    assert_code(&text, code, "text");
    let files_word = if files.len() == 1 { "file" } else { "files" };
    let plural = |n: u64, noun: &str| {
        if n == 1 {
            format!("1 {noun}")
        } else {
            format!("{n} {noun}s")
        }
    };
    let summary = if findings == 0 {
        format!(
            "specval: {}, clean, in {} {files_word}",
            plural(exchanges, "exchange"),
            files.len()
        )
    } else {
        format!(
            "specval: {}, {}, {} in {} {files_word}",
            plural(exchanges, "exchange"),
            plural(errors, "error"),
            plural(warnings, "warning"),
            files.len()
        )
    };
    assert_eq!(text.stdout.lines().last(), Some(summary.as_str()));

    // JUnit: XML, a testcase per exchange, a failure per failed exchange.
    let junit = with_format("junit");
    assert_code(&junit, code, "junit");
    let document = roxmltree::Document::parse(&junit.stdout).expect("JUnit is XML");
    let suites = document.root_element();
    assert_eq!(suites.tag_name().name(), "testsuites");
    let attribute = |name: &str| -> u64 {
        suites
            .attribute(name)
            .and_then(|v| v.parse().ok())
            .expect("a count")
    };
    assert_eq!(attribute("tests"), exchanges);
    assert_eq!(attribute("failures"), failed);
    let cases = document
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .count() as u64;
    let failures = document
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .count() as u64;
    assert_eq!((cases, failures), (exchanges, failed));
    let suite_count = document
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
        .count();
    assert_eq!(suite_count, files.len());

    // SARIF: JSON, version 2.1.0, a result per finding with the right level.
    let sarif_run = with_format("sarif");
    assert_code(&sarif_run, code, "sarif");
    let sarif = json(&sarif_run);
    assert_eq!(sarif["version"], "2.1.0");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len() as u64, findings);
    let errors_in_sarif = results.iter().filter(|r| r["level"] == "error").count() as u64;
    assert_eq!(errors_in_sarif, errors);
    let rules: BTreeSet<&str> = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .map(|r| r["id"].as_str().expect("rule id"))
        .collect();
    for result in results {
        assert!(rules.contains(result["ruleId"].as_str().expect("ruleId")));
    }
}

#[test]
fn every_format_parses_and_counts_the_same() {
    let clean = vec![corpus("clean.jsonl"), corpus("clean.har")];
    let rules = vec![corpus("rules.jsonl"), corpus("rules.har")];
    check_formats(&clean, false);
    check_formats(&clean, true);
    check_formats(&rules, false);
    check_formats(&rules, true);
    check_formats(&[corpus("truncated.har")], false);

    // The counts themselves, against the corpus's expectations.
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(corpus("rules.expected.json")).expect("expected"),
    )
    .expect("JSON");
    let expected_errors = expected["rules.jsonl"].as_array().expect("list").len()
        + expected["rules.har"].as_array().expect("list").len();
    let report = json(&specval(&[
        "check", "--format", "json", &rules[0], &rules[1],
    ]));
    assert_eq!(report["errors"], expected_errors);
    assert_eq!(report["warnings"], 0);
}

// ---------------------------------------------------------------------------------------------
// --output
// ---------------------------------------------------------------------------------------------

#[test]
fn output_writes_the_whole_report_to_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let rules = corpus("rules.jsonl");
    for format in ["text", "json", "junit", "sarif"] {
        let target = dir.path().join(format!("report.{format}"));
        // A longer file is there already: it is replaced, not overwritten in place.
        std::fs::write(&target, "x".repeat(1 << 20)).expect("write");
        let target_text = target.to_string_lossy().into_owned();
        let written = specval(&["check", "--format", format, "-o", &target_text, &rules]);
        assert_code(&written, 1, format);
        assert_eq!(written.stdout, "", "{format}: nothing on stdout");
        let printed = specval(&["check", "--format", format, &rules]);
        let file = std::fs::read_to_string(&target).expect("report file");
        assert_eq!(file, printed.stdout, "{format}: the file is the report");
    }
    // Only the reports: no temporary file is left behind.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("dir")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["report.json", "report.junit", "report.sarif", "report.text"]
    );

    // A report that cannot be written: exit 2, nothing created.
    let nowhere = dir.path().join("no/such/dir/report.json");
    let run = specval(&[
        "check",
        "--format",
        "json",
        "--output",
        &nowhere.to_string_lossy(),
        &rules,
    ]);
    assert_code(&run, 2, "unwritable output");
    assert!(
        run.stderr.contains("cannot write the report"),
        "{}",
        run.stderr
    );
    assert!(!nowhere.exists());
    assert!(!dir.path().join("no").exists());
}

// ---------------------------------------------------------------------------------------------
// --strict, --show-values
// ---------------------------------------------------------------------------------------------

#[test]
fn strict_turns_drift_into_warnings_that_fail_the_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let drift = temp_file(
        &dir,
        "drift.jsonl",
        &rules_lines(&[
            "drift-property-1",
            "drift-property-2",
            "drift-enum-value-1",
            "drift-enum-value-2",
            "drift-request-property",
        ]),
    );
    let lenient = specval(&["check", "--format", "json", &drift]);
    assert_code(&lenient, 0, "drift without --strict");
    let report = json(&lenient);
    assert_eq!(report["findings"], serde_json::json!([]));
    let counts: Vec<(Value, Value, u64)> = report["drift"]["properties"]
        .as_array()
        .expect("properties")
        .iter()
        .chain(report["drift"]["enum_values"].as_array().expect("values"))
        .map(|item| {
            (
                item["value"].clone(),
                item["masked"].clone(),
                item["count"].as_u64().expect("count"),
            )
        })
        .collect();
    // The enum value is an instance value: masked (null, and `masked` says so, so that it is
    // not read as a null seen in the traffic) without --show-values.
    assert_eq!(
        counts,
        [
            ("nickname".into(), false.into(), 1),
            ("nickname".into(), false.into(), 2),
            (Value::Null, true.into(), 2)
        ]
    );

    let strict = specval(&["check", "--strict", "--format", "json", &drift]);
    assert_code(&strict, 1, "drift with --strict");
    let report = json(&strict);
    assert_eq!(
        (report["errors"].clone(), report["warnings"].clone()),
        (0.into(), 5.into())
    );
    assert!(
        report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .all(|f| f["severity"] == "warning")
    );
    let text = specval(&["check", "--strict", &drift]);
    assert_code(&text, 1, "text --strict");
    assert!(
        text.stdout
            .lines()
            .next()
            .expect("header")
            .ends_with("(strict)")
    );
    assert!(
        text.stdout.contains("warning: property `nickname`"),
        "{}",
        text.stdout
    );
}

#[test]
fn undocumented_enum_values_are_shown_only_with_show_values() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = temp_file(
        &dir,
        "enum.jsonl",
        &rules_lines(&["drift-enum-value-1", "drift-enum-value-2"]),
    );
    for format in ["text", "json", "junit", "sarif"] {
        for strict in [false, true] {
            let mut args = vec!["check", "--format", format, file.as_str()];
            if strict {
                args.push("--strict");
            }
            let masked = specval(&args);
            assert!(
                !masked.stdout.contains("CANCELLED"),
                "{format} (strict: {strict}): the value without --show-values:\n{}",
                masked.stdout
            );
        }
    }
    let shown = specval(&["check", "--show-values", &file]);
    assert!(
        shown.stdout.contains("\"CANCELLED\" (seen 2 times)"),
        "{}",
        shown.stdout
    );
    let masked = specval(&["check", &file]);
    assert!(
        masked
            .stdout
            .contains("(value masked; --show-values shows it) (seen 2 times)"),
        "{}",
        masked.stdout
    );
}

#[test]
fn values_are_shown_only_with_show_values() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = temp_file(
        &dir,
        "values.jsonl",
        &rules_lines(&["response-schema", "idempotency-key-not-a-uuid"]),
    );
    // Values of the traffic that the findings are about; nothing else in the output names them.
    let values = ["acc_2f7c9a1e4b6d", "yesterday", "retry-0001"];
    for format in ["text", "json", "junit", "sarif"] {
        let masked = specval(&["check", "--format", format, &file]);
        assert_code(&masked, 1, format);
        for value in values {
            assert!(
                !masked.stdout.contains(value),
                "{format}: {value} shown without --show-values:\n{}",
                masked.stdout
            );
        }
        let shown = specval(&["check", "--show-values", "--format", format, &file]);
        assert_code(&shown, 1, format);
        for value in values {
            assert!(
                shown.stdout.contains(value),
                "{format}: {value} not shown with --show-values:\n{}",
                shown.stdout
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The contract
// ---------------------------------------------------------------------------------------------

#[test]
fn the_contract_dir_and_the_spec_behave_like_the_embedded_contract() {
    for strict in [false, true] {
        let mut args = vec!["check", "--format", "json"];
        if strict {
            args.push("--strict");
        }
        let files = [
            corpus("rules.jsonl"),
            corpus("rules.har"),
            corpus("clean.har"),
        ];
        args.extend(files.iter().map(String::as_str));
        let embedded = specval(&args);
        assert_code(&embedded, 1, "embedded");
        for source in [
            ["--contract", "generated/schemas"],
            ["--spec", "spec/openapi.yaml"],
        ] {
            let mut with = source.to_vec();
            with.extend(&args);
            let run = specval(&with);
            assert_code(&run, 1, source[0]);
            assert_eq!(
                json(&run),
                json(&embedded),
                "{source:?} (strict: {strict}) reports differently"
            );
        }
    }
    // After the subcommand, too (the options are global).
    let after = specval(&[
        "check",
        "--contract",
        "generated/schemas",
        &corpus("clean.jsonl"),
    ]);
    assert_code(&after, 0, "--contract after check");
}

/// What specgen repairs away or leaves out of a contract made from `--spec` (`type: strin`)
/// is said on standard error, with its pointer and line: the contract enforces less there
/// than the document says, and the run had been silently clean.
#[test]
fn the_specs_repairs_are_said_on_standard_error() {
    let dir = tempfile::tempdir().unwrap();
    let spec = temp_file(
        &dir,
        "strin.yaml",
        b"openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      \
          responses:\n        '200':\n          description: ok\n          content: \
          {application/json: {schema: {type: strin}}}\n",
    );
    let traffic = temp_file(
        &dir,
        "a.jsonl",
        br#"{"request":{"method":"GET","url":"/a"},"response":{"status":200,"body":{"x":1}}}"#,
    );
    let output = Command::new(env!("CARGO_BIN_EXE_specval"))
        .args(["--spec", &spec, "check", &traffic])
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(
            "specval: warning: #/paths/~1a/get/responses/200/content/application~1json/schema/type: \
             type \"strin\" is not a JSON Schema type"
        ) && stderr.contains("(line 9, column "),
        "{stderr}"
    );
}

#[test]
fn message_checks_one_payload() {
    let dir = tempfile::tempdir().expect("temp dir");
    let account: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("generated/schemas/components/Account.json"))
            .expect("Account.json"),
    )
    .expect("JSON");
    let example = account["$defs"]["Account"]["examples"][0].clone();
    let good = temp_file(&dir, "good.json", example.to_string().as_bytes());
    let mut broken = example.clone();
    broken["id"] = "acc_wrong_prefix".into();
    broken["currency"] = "DOLLARS".into();
    let bad = temp_file(&dir, "bad.json", broken.to_string().as_bytes());
    let not_json = temp_file(&dir, "not.json", b"{id: 1}");

    let run = specval(&["message", "--schema", "Account", &good]);
    assert_code(&run, 0, "a conforming account");
    assert!(run.stdout.contains("conforms to Account"), "{}", run.stdout);

    let run = specval(&["message", "--schema", "Account", &bad]);
    assert_code(&run, 1, "a broken account");
    assert!(run.stdout.contains("/id: "), "{}", run.stdout);
    assert!(run.stdout.contains("/currency: "), "{}", run.stdout);
    assert!(
        run.stdout.contains("2 finding(s) against Account"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("acc_wrong_prefix"), "{}", run.stdout);
    let shown = specval(&["message", "--show-values", "--schema", "Account", &bad]);
    assert_code(&shown, 1, "--show-values");
    assert!(
        shown.stdout.contains("acc_wrong_prefix"),
        "{}",
        shown.stdout
    );

    // By path, from standard input, with another contract source.
    let piped = specval_with(
        &[
            "message",
            "--schema",
            "operations/getAccount.response.200.json",
            "-",
        ],
        Some(example.to_string().as_bytes()),
    );
    assert_code(&piped, 0, "stdin");
    let spec = specval(&[
        "--spec",
        "spec/openapi.yaml",
        "message",
        "--schema",
        "Account",
        &bad,
    ]);
    assert_code(&spec, 1, "--spec");

    for (what, args) in [
        (
            "an unknown schema",
            vec!["message", "--schema", "Nope", good.as_str()],
        ),
        (
            "a missing file",
            vec!["message", "--schema", "Account", "/no/such/file.json"],
        ),
        (
            "a file that is not JSON",
            vec!["message", "--schema", "Account", not_json.as_str()],
        ),
    ] {
        let run = specval(&args);
        assert_code(&run, 2, what);
        assert!(
            run.stderr.starts_with("specval: error: "),
            "{what}: {}",
            run.stderr
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Credentials
// ---------------------------------------------------------------------------------------------

const PUBLIC: &str = "pk_live_DO_NOT_PRINT";
const SECRET: &str = "sk_live_DO_NOT_PRINT";

/// The rules corpus with distinctive credential values in every credential header (also in
/// the malformed entries), written to `dir`.
fn traffic_with_secrets(dir: &tempfile::TempDir) -> Vec<String> {
    let jsonl = std::fs::read(corpus("rules.jsonl")).expect("rules.jsonl");
    let jsonl = replace(&jsonl, b"pk_test_fake", PUBLIC.as_bytes());
    let mut jsonl = replace(&jsonl, b"sk_test_fake", SECRET.as_bytes());
    // Records that repeat their own credential where a report quotes the exchange: in the
    // path (a testcase's name, an unknown-path message), as the record's id, in a query
    // parameter and in body fields (shown with --show-values).
    let headers = json!({"public-api-key": PUBLIC, "private-secret-key": SECRET});
    let echoes = [
        json!({"id": SECRET, "request": {"method": "GET", "path": format!("/v1/{SECRET}"),
               "headers": headers}}),
        json!({"id": "secret-in-path", "request": {"method": "GET",
               "url": format!("https://h.invalid/v1/banking/accounts/{SECRET}?key={PUBLIC}"),
               "headers": headers},
               "response": {"status": 404, "headers": {"content-type": "application/json"},
                            "body": {"code": SECRET, "messages": [PUBLIC], "http_code": 400}}}),
        json!({"id": "secret-in-body", "request": {"method": "POST", "path": "/v1/banking/accounts",
               "headers": {"public-api-key": PUBLIC, "private-secret-key": SECRET,
                           "x-idempotency-key": SECRET, "content-type": "application/json"},
               "body": {"account_id": SECRET, "onboarding_id": PUBLIC, "account_type": SECRET,
                        "currency": PUBLIC}}}),
    ];
    for record in echoes {
        jsonl.push(b'\n');
        jsonl.extend_from_slice(record.to_string().as_bytes());
    }
    let har = std::fs::read_to_string(corpus("rules.har")).expect("rules.har");
    let mut har: Value = serde_json::from_str(&har).expect("JSON");
    for entry in har["log"]["entries"].as_array_mut().expect("entries") {
        let Some(headers) = entry["request"]["headers"].as_array_mut() else {
            continue;
        };
        for header in headers {
            match header["name"].as_str() {
                Some("public-api-key") => header["value"] = PUBLIC.into(),
                Some("private-secret-key") => header["value"] = SECRET.into(),
                _ => {}
            }
        }
    }
    let har = har.to_string();
    assert!(har.contains(PUBLIC) && har.contains(SECRET));
    let count = |bytes: &[u8], what: &str| {
        bytes
            .windows(what.len())
            .filter(|w| *w == what.as_bytes())
            .count()
    };
    assert!(count(&jsonl, PUBLIC) > 20 && count(&jsonl, SECRET) > 20);
    vec![
        temp_file(dir, "secrets.jsonl", &jsonl),
        temp_file(dir, "secrets.har", har.as_bytes()),
    ]
}

fn replace(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

#[test]
fn credentials_never_reach_any_output() {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = traffic_with_secrets(&dir);
    let out = tempfile::tempdir().expect("temp dir");
    let assert_clean = |what: &str, text: &str| {
        for secret in [PUBLIC, SECRET] {
            assert!(!text.contains(secret), "{secret} in {what}");
        }
    };
    for format in ["text", "json", "junit", "sarif"] {
        for show_values in [false, true] {
            for strict in [false, true] {
                let what = format!("{format} (show values: {show_values}, strict: {strict})");
                let mut args = vec!["check", "--format", format];
                if show_values {
                    args.push("--show-values");
                }
                if strict {
                    args.push("--strict");
                }
                args.extend(files.iter().map(String::as_str));
                // Written to a file (the same report as on stdout: see
                // output_writes_the_whole_report_to_the_file) ...
                let report = out
                    .path()
                    .join(format!("report-{format}-{show_values}-{strict}"));
                let report_text = report.to_string_lossy().into_owned();
                let mut to_file = args.clone();
                to_file.extend(["--output", report_text.as_str()]);
                let written = specval(&to_file);
                assert_code(&written, 1, &what);
                let file = std::fs::read_to_string(&report).expect("report");
                assert!(file.len() > 1000, "{what}: a report was written");
                assert_clean(&format!("{what}: the written report"), &file);
                assert_clean(&format!("{what}: stdout"), &written.stdout);
                assert_clean(&format!("{what}: stderr"), &written.stderr);
                // ... and printed.
                if show_values && strict {
                    let printed = specval(&args);
                    assert_code(&printed, 1, &what);
                    assert_clean(&format!("{what}: stdout"), &printed.stdout);
                    assert_clean(&format!("{what}: stderr"), &printed.stderr);
                }
            }
        }
    }
    // Through standard input as well.
    let bytes = std::fs::read(&files[0]).expect("file");
    let piped = specval_with(&["check", "--show-values", "-"], Some(&bytes));
    assert_code(&piped, 1, "stdin");
    assert_clean("stdin: stdout", &piped.stdout);
}

/// A credential a body carries (Plaid's `access_token`), sent again in a path no operation
/// has, names neither the finding nor the JUnit testcase, in any mode.
#[test]
fn a_body_credential_in_a_path_names_no_testcase() {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = dir.path().join("plaid.yaml");
    std::fs::write(
        &spec,
        "openapi: 3.1.0\ninfo: {title: Items, version: '1'}\npaths:\n  /item/get:\n    post:\n      \
         requestBody:\n        content:\n          application/json:\n            schema: {type: object}\n      \
         responses: {'200': {description: ok}}\n",
    )
    .expect("spec");
    let token = "access-sandbox-de3ce8ef-33f8-452c";
    let record = json!({
        "request": {"method": "POST", "url": format!("https://sandbox.plaid.com/item/{token}"),
            "headers": {"content-type": "application/json"},
            "body": {"access_token": token}},
        "response": {"status": 200}
    });
    let traffic = dir.path().join("traffic.jsonl");
    std::fs::write(&traffic, format!("{record}\n")).expect("traffic");
    let (spec, traffic) = (spec.to_string_lossy(), traffic.to_string_lossy());
    for format in ["text", "json", "junit", "sarif"] {
        for show_values in [false, true] {
            let mut args = vec!["check", "--spec", &spec, "--format", format];
            if show_values {
                args.push("--show-values");
            }
            args.push(&traffic);
            let run = specval(&args);
            let what = format!("{format} (show values: {show_values})");
            assert_code(&run, 1, &what);
            assert!(!run.stdout.contains(token), "{what}: {}", run.stdout);
            assert!(
                run.stdout.contains("/item/REDACTED"),
                "{what}: {}",
                run.stdout
            );
        }
    }
}

#[test]
fn a_har_encoded_twice_is_never_echoed_into_a_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = traffic_with_secrets(&dir);
    let har: Value =
        serde_json::from_str(&std::fs::read_to_string(&files[1]).expect("HAR")).expect("JSON");
    // Megabytes of text beside the credentials: the report must not grow with them.
    let mut big = har.clone();
    big["log"]["comment"] = "x".repeat(4 << 20).into();
    let as_string = |value: &Value| Value::String(value.to_string());
    let mut log_string = har.clone();
    log_string["log"] = as_string(&har["log"]);
    let mut entries_string = har.clone();
    entries_string["log"]["entries"] = as_string(&har["log"]["entries"]);
    let cases = [
        ("top.har", as_string(&har)),
        ("big.har", as_string(&big)),
        ("log.har", log_string),
        ("entries.har", entries_string),
    ];
    for (name, document) in cases {
        let file = temp_file(&dir, name, document.to_string().as_bytes());
        for format in ["text", "json", "junit", "sarif"] {
            for show_values in [false, true] {
                let mut args = vec!["check", "--format", format, file.as_str()];
                if show_values {
                    args.push("--show-values");
                }
                let run = specval(&args);
                assert_code(&run, 1, &format!("{name} {format}"));
                assert!(
                    run.stdout.contains("not a HAR file"),
                    "{name} {format}:\n{}",
                    run.stdout
                );
                for secret in [PUBLIC, SECRET] {
                    assert!(
                        !run.stdout.contains(secret) && !run.stderr.contains(secret),
                        "{name} {format}: {secret} echoed:\n{}",
                        run.stdout
                    );
                }
                assert!(
                    run.stdout.len() < 16 << 10,
                    "{name} {format}: a report of {} bytes",
                    run.stdout.len()
                );
            }
        }
    }
}

#[test]
fn an_endless_or_huge_input_stops_with_exit_2_and_a_report() {
    // /dev/zero never ends, and is no text: one finding at its first bytes, nothing read on.
    let run = specval(&["check", "--format", "json", "/dev/zero"]);
    assert_code(&run, 1, "/dev/zero");
    let report = json(&run);
    assert_eq!(report["findings"][0]["rule"], "malformed");
    assert_eq!(report["findings"].as_array().map(Vec::len), Some(1));

    let dir = tempfile::tempdir().expect("temp dir");
    let good = rules_lines(&["status-undocumented"]);
    let mut bytes = good.clone();
    bytes.extend(format!("{{\"id\": \"{}\"}}\n", "x".repeat(2 << 20)).as_bytes());
    bytes.extend(&good);
    let file = temp_file(&dir, "huge-line.jsonl", &bytes);
    let run = specval(&["check", "--format", "json", "--max-entry-size", "1M", &file]);
    assert_code(&run, 2, "a line over the limit");
    let report = json(&run);
    let found: Vec<(Value, Value, Value)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| (f["exchange"].clone(), f["rule"].clone(), f["line"].clone()))
        .collect();
    assert_eq!(
        found,
        [
            (0.into(), "status-documented".into(), 1.into()),
            (1.into(), "too-large".into(), 2.into()),
        ]
    );
    assert!(
        run.stdout.len() < 16 << 10,
        "the report does not hold the line"
    );
    // Under the limit the same file is read to the end.
    let run = specval(&["check", "--format", "json", &file]);
    assert_code(&run, 1, "the default limit");
    assert_eq!(json(&run)["exchanges"], 3);
    // A size that is not one is refused.
    let run = specval(&["check", "--max-entry-size", "lots", &file]);
    assert_code(&run, 2, "a bad size");
}

#[test]
fn sarif_results_point_at_the_line_of_their_entry() {
    for name in ["rules.jsonl", "rules.har"] {
        let file = corpus(name);
        // rules.jsonl holds a line that is not UTF-8 on purpose.
        let bytes = std::fs::read(&file).expect("corpus");
        let lines: Vec<String> = String::from_utf8_lossy(&bytes)
            .lines()
            .map(str::to_string)
            .collect();
        let run = specval(&["check", "--format", "sarif", &file]);
        assert_code(&run, 1, name);
        let sarif = json(&run);
        let results = sarif["runs"][0]["results"].as_array().expect("results");
        let mut checked = 0;
        for result in results {
            let line = result["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .unwrap_or_else(|| panic!("{name}: a result without region.startLine: {result}"));
            assert!(
                line >= 1 && line as usize <= lines.len(),
                "{name}: line {line}"
            );
            let Some(id) = result["properties"]["id"].as_str() else {
                continue;
            };
            let at = line as usize - 1;
            if name.ends_with(".jsonl") {
                let record: Value = serde_json::from_str(&lines[at]).expect("a record");
                assert_eq!(record["id"], id, "{name}: line {line}");
            } else {
                // The `{` of the entry, whose comment (the id) follows within the entry.
                assert_eq!(lines[at].trim(), "{", "{name}: line {line}");
                let comment = format!("\"comment\": \"{id}\"");
                assert!(
                    lines[at..].iter().take(4).any(|l| l.contains(&comment)),
                    "{name}: line {line} does not start the entry {id}"
                );
            }
            checked += 1;
        }
        assert!(checked > 20, "{name}: only {checked} results checked");
    }
}

#[test]
fn a_security_requirement_naming_an_undeclared_scheme_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A spec whose top-level security misspells a scheme: every operation would be open.
    let spec = std::fs::read_to_string(root().join("spec/openapi.yaml")).expect("spec");
    let broken = spec.replacen(
        "security:\n  - public-api-key: []\n    private-secret-key: []",
        "security:\n  - public-api-key: []\n    private-secret-keys: []",
        1,
    );
    assert_ne!(broken, spec);
    let spec_file = temp_file(&dir, "openapi.yaml", broken.as_bytes());
    let clean = corpus("clean.jsonl");
    let run = specval(&["--spec", &spec_file, "check", &clean]);
    assert_code(&run, 2, "--spec");
    assert!(
        run.stderr.contains("#/security/0/private-secret-keys")
            && run.stderr.contains("does not declare"),
        "{}",
        run.stderr
    );

    // A contract directory whose manifest does the same.
    let contract = dir.path().join("schemas");
    copy_dir(&root().join("generated/schemas"), &contract);
    let manifest = contract.join("manifest.json");
    let text = std::fs::read_to_string(&manifest).expect("manifest");
    let mut value: Value = serde_json::from_str(&text).expect("JSON");
    value["operations"][0]["security"] = serde_json::json!([["public-api-key", "nope"]]);
    std::fs::write(&manifest, value.to_string()).expect("write");
    let run = specval(&["--contract", &contract.to_string_lossy(), "check", &clean]);
    assert_code(&run, 2, "--contract");
    assert!(run.stderr.contains("'nope'"), "{}", run.stderr);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let path = entry.expect("entry").path();
        let target = to.join(path.file_name().expect("name"));
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy");
        }
    }
}

#[test]
fn base_paths_behind_a_gateway_and_merchant_paths_are_matched() {
    let dir = tempfile::tempdir().expect("temp dir");
    let clean = std::fs::read_to_string(corpus("clean.jsonl")).expect("clean.jsonl");
    // {base_url} is any address ending in /v1; {merchant_base_url} any address.
    let moved = clean
        .replace(
            "https://sandbox.invalid/v1/",
            "https://host.example/gateway/eu/v1/",
        )
        .replace("\"path\": \"/v1/", "\"path\": \"/gateway/v1/")
        .replace(
            "https://merchant.example.com/v1/banking/transfers",
            "https://merchant.example.com/hooks/v1/banking/transfers",
        );
    assert!(moved.contains("/hooks/v1/") && moved.contains("/gateway/v1/"));
    let file = temp_file(&dir, "moved.jsonl", moved.as_bytes());
    let run = specval(&["check", "--format", "json", &file]);
    assert_code(&run, 0, "behind a gateway path");
    let report = json(&run);
    let alone = json(&specval(&[
        "check",
        "--format",
        "json",
        &corpus("clean.jsonl"),
    ]));
    assert_eq!(report["operations"], alone["operations"]);
    assert!(report["operations"]["incomingTransfer"]["exchanges"].as_u64() > Some(0));

    // A contract whose server is one fixed address: other bases need --base-url.
    let contract = dir.path().join("schemas");
    copy_dir(&root().join("generated/schemas"), &contract);
    let manifest = contract.join("manifest.json");
    let mut value: Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).expect("manifest")).expect("JSON");
    value["servers"] = serde_json::json!([{"url": "https://api.example.com/v1", "variables": {}}]);
    std::fs::write(&manifest, value.to_string()).expect("write");
    let contract = contract.to_string_lossy().into_owned();
    let run = specval(&["--contract", &contract, "check", "--format", "json", &file]);
    assert_code(&run, 1, "a fixed server");
    assert!(
        run.stdout.contains("is not under a base path of the API"),
        "{}",
        run.stdout
    );
    let run = specval(&[
        "--contract",
        &contract,
        "check",
        "--base-url",
        "https://host.example/gateway/eu/v1",
        "--base-url",
        "/gateway/v1",
        &file,
    ]);
    assert_code(&run, 0, "with --base-url");
}

#[test]
fn a_credential_declared_as_a_parameter_too_is_never_shown() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The spec declares private-secret-key as a header parameter of getAccount as well, with a
    // rule the recorded value breaks. (Where the operation's security names the scheme that
    // carries it, specgen leaves such a parameter out, with a warning: here getAccount asks
    // for no credential, so the parameter stands.)
    let spec = std::fs::read_to_string(root().join("spec/openapi.yaml")).expect("spec");
    let declared = spec.replacen(
        "      operationId: getAccount\n",
        "      operationId: getAccount\n      security: []\n      parameters:\n        - {name: private-secret-key, in: header, required: true, schema: {type: string, pattern: '^sk_test_'}}\n",
        1,
    );
    assert_ne!(declared, spec);
    let spec_file = temp_file(&dir, "openapi.yaml", declared.as_bytes());
    let files = traffic_with_secrets(&dir);
    for format in ["text", "json", "junit", "sarif"] {
        let run = specval(&[
            "--spec",
            &spec_file,
            "check",
            "--show-values",
            "--format",
            format,
            &files[0],
            &files[1],
        ]);
        assert_code(&run, 1, format);
        assert!(
            run.stdout.contains("header:private-secret-key"),
            "{format}: the parameter has findings:\n{}",
            run.stdout
        );
        for secret in [PUBLIC, SECRET] {
            assert!(!run.stdout.contains(secret), "{format}: {secret} shown");
        }
    }
}

/// What a credential header encodes is a credential too: the user name and password inside
/// `Authorization: Basic` (Twilio's auth token, Stripe's key sent as the user name), each
/// side of a `key:secret` pair, a cookie sent percent-encoded (`s%3A…`) that a body
/// repeats decoded (`s:…`), and the user and password of a URL (`https://key:@host/`), which
/// a client sends as Basic.
#[test]
fn what_basic_auth_and_encoded_cookies_hold_is_never_shown() {
    use base64::Engine as _;
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = temp_file(
        &dir,
        "vendor.yaml",
        br#"
openapi: 3.0.3
info: {title: Vendor, version: "1"}
servers: [{url: "https://api.example.com"}]
security: [{basic: []}, {session: []}]
paths:
  /accounts/{sid}/notes:
    post:
      operationId: createNote
      parameters: [{name: sid, in: path, required: true, schema: {type: string}}]
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {text: {type: integer}}}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema:
                type: object
                additionalProperties: false
                properties: {status: {type: string, enum: [kept]}}
components:
  securitySchemes:
    basic: {type: http, scheme: basic}
    session: {type: apiKey, in: cookie, name: vendor.sid}
"#,
    );
    const USER: &str = "ACuser0123456789";
    const PASSWORD: &str = "token9876543210";
    const SESSION: &str = "s:SessionAbc.Sig123";
    // A password a report would spell otherwise: in a JSON pointer (`~1`, `~0`) and inside a
    // JSON string (`\"`).
    const SPELLED: &str = r#"pw/Slash~Tilde"Quote"#;
    const PAIR_KEY: &str = "dKeyAbc123";
    const PAIR_SECRET: &str = "SecretXyz789";
    const URL_USER: &str = "sk_test_UrlKey4eC39";
    const URL_PASSWORD: &str = "url@Password55";
    const URL_PASSWORD_ENCODED: &str = "url%40Password55";
    const BESIDE_USER: &str = "sk_test_BesideHeader77";
    const RELATIVE_USER: &str = "sk_test_NoScheme222";
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("{USER}:{PASSWORD}"));
    let spelled = base64::engine::general_purpose::STANDARD.encode(format!("other:{SPELLED}"));
    let record = |sid: &str, headers: serde_json::Value, text: &str| {
        json!({"id": sid, "request": {"method": "POST",
               "url": format!("https://api.example.com/accounts/{sid}/notes"),
               "headers": headers, "body": {"text": text}},
               "response": {"status": 201, "headers": {"Content-Type": "application/json"},
                            "body": {"status": text, text: 1}}})
        .to_string()
    };
    let lines = [
        // Each secret stands where a report quotes it: in the path, as a value a rule
        // refuses, as an undocumented enum value and as a member's name.
        record(
            USER,
            json!({"Authorization": format!("Basic {basic}"), "Content-Type": "application/json"}),
            PASSWORD,
        ),
        record(
            "cookie-only",
            json!({"Cookie": "vendor.sid=s%3ASessionAbc.Sig123", "Content-Type": "application/json"}),
            SESSION,
        ),
        record(
            "spelled",
            json!({"Authorization": format!("Basic {spelled}"), "Content-Type": "application/json"}),
            SPELLED,
        ),
        // A key and secret pair in a scheme of the vendor's own (GoDaddy's `sso-key`): each
        // half repeated alone.
        record(
            PAIR_KEY,
            json!({"Authorization": format!("sso-key {PAIR_KEY}:{PAIR_SECRET}"),
                   "Content-Type": "application/json"}),
            PAIR_SECRET,
        ),
        // A key in the URL's user information, as curl and Stripe's examples send it: the
        // client makes it Basic, so it is the credential, and is not shown either.
        json!({"id": "userinfo", "request": {"method": "POST",
               "url": format!("https://{URL_USER}:{URL_PASSWORD_ENCODED}@api.example.com/accounts/{URL_USER}/notes"),
               "headers": {"Content-Type": "application/json"}, "body": {"text": URL_PASSWORD}},
               "response": {"status": 201, "headers": {"Content-Type": "application/json"},
                            "body": {"status": URL_USER}}})
        .to_string(),
        // The same beside an `Authorization` of its own, which is what was sent: the key in
        // the URL is hidden all the same; and in a scheme-relative URL.
        json!({"id": "userinfo-and-header", "request": {"method": "POST",
               "url": format!("https://{BESIDE_USER}:@api.example.com/accounts/x/notes"),
               "headers": {"Authorization": format!("Basic {basic}"), "Content-Type": "application/json"},
               "body": {"text": BESIDE_USER}}})
        .to_string(),
        json!({"id": "scheme-relative", "request": {"method": "GET",
               "url": format!("//{RELATIVE_USER}:@api.example.com/{RELATIVE_USER}")}})
        .to_string(),
    ]
    .join("\n");
    let traffic = temp_file(&dir, "traffic.jsonl", lines.as_bytes());
    for format in ["text", "json", "junit", "sarif"] {
        let run = specval(&[
            "--spec",
            &spec,
            "check",
            "--strict",
            "--show-values",
            "--format",
            format,
            &traffic,
        ]);
        assert_code(&run, 1, format);
        assert!(run.stdout.contains("REDACTED"), "{format}:\n{}", run.stdout);
        for secret in [
            USER,
            PASSWORD,
            SESSION,
            "SessionAbc",
            SPELLED,
            "Slash~1Tilde",
            "Tilde~0",
            r#"Tilde\"Quote"#,
            "Tilde",
            PAIR_KEY,
            PAIR_SECRET,
            URL_USER,
            URL_PASSWORD,
            URL_PASSWORD_ENCODED,
            BESIDE_USER,
            RELATIVE_USER,
        ] {
            assert!(
                !run.stdout.contains(secret) && !run.stderr.contains(secret),
                "{format}: {secret} shown:\n{}",
                run.stdout
            );
        }
        if format == "text" {
            assert!(
                !run.stdout
                    .lines()
                    .any(|line| line.contains("[userinfo]") && line.contains("rule credentials")),
                "the key in the URL is the request's credential:\n{}",
                run.stdout
            );
        }
    }
}

#[test]
fn a_reader_that_closes_stdout_ends_the_run_quietly() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Far more than a pipe holds (64 KiB), so that the write meets the closed pipe whenever
    // the reader closes it.
    let lines = rules_lines(&["status-undocumented", "response-schema"]);
    let file = temp_file(&dir, "many.jsonl", &lines.repeat(2000));
    for (args, code) in [
        (vec!["check", file.as_str()], 1),
        (vec!["check", "--format", "json", file.as_str()], 1),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_specval"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("specval starts");
        // `| head -0`: the reader goes away without reading.
        drop(child.stdout.take());
        let output = child.wait_with_output().expect("specval runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr, "", "{args:?}: nothing on stderr");
        assert_eq!(output.status.code(), Some(code), "{args:?}: the verdict");
    }
}

#[cfg(unix)]
#[test]
fn the_report_file_gets_the_usual_mode_and_a_link_is_written_through() {
    use std::os::unix::fs::{PermissionsExt as _, symlink};
    let dir = tempfile::tempdir().expect("temp dir");
    let rules = corpus("rules.jsonl");
    let mode = |path: &Path| {
        std::fs::metadata(path)
            .expect("metadata")
            .permissions()
            .mode()
            & 0o777
    };
    let report = |path: &Path| {
        let run = specval(&[
            "check",
            "--format",
            "json",
            "-o",
            &path.to_string_lossy(),
            &rules,
        ]);
        assert_code(&run, 1, &path.to_string_lossy());
    };
    // A new file: what any program's new file gets (0666 less the umask), not 0600.
    let usual = dir.path().join("usual");
    std::fs::write(&usual, "").expect("write");
    let new = dir.path().join("new.json");
    report(&new);
    assert_eq!(mode(&new), mode(&usual));
    assert_ne!(
        mode(&new),
        0o600,
        "the umask of this test run hides the difference"
    );
    // An existing file keeps its mode.
    let kept = dir.path().join("kept.json");
    std::fs::write(&kept, "old").expect("write");
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    report(&kept);
    assert_eq!(mode(&kept), 0o640);
    assert!(
        std::fs::read_to_string(&kept)
            .expect("report")
            .starts_with('{')
    );
    // A link is written through: the link stays, its target gets the report.
    let targets = dir.path().join("artifacts");
    std::fs::create_dir(&targets).expect("mkdir");
    let target = targets.join("report.json");
    std::fs::write(&target, "old").expect("write");
    let link = dir.path().join("link.json");
    symlink("artifacts/report.json", &link).expect("symlink");
    report(&link);
    assert!(
        std::fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink()
    );
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&target).expect("target")).expect("JSON");
    assert_eq!(written["format"], 1);
    // A dangling link: its target is created.
    let dangling = dir.path().join("dangling.json");
    symlink(targets.join("later.json"), &dangling).expect("symlink");
    report(&dangling);
    assert!(targets.join("later.json").is_file());
    assert!(
        std::fs::symlink_metadata(&dangling)
            .expect("link")
            .file_type()
            .is_symlink()
    );
}

/// The peak resident memory (KiB) of a run, from the kernel's own accounting of the child.
#[cfg(target_os = "linux")]
// The child is reaped by wait4, which std does not know of.
#[allow(clippy::zombie_processes)]
fn peak_rss_kib(args: &[&str]) -> (i32, i64) {
    let child = Command::new(env!("CARGO_BIN_EXE_specval"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("specval starts");
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, which nothing else waits for.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t, "wait4");
    (libc::WEXITSTATUS(status), usage.ru_maxrss)
}

#[cfg(target_os = "linux")]
#[test]
fn memory_does_not_grow_with_the_findings() {
    let dir = tempfile::tempdir().expect("temp dir");
    // 50,000 exchanges that match no operation: a finding each, of some 400 bytes, and
    // cheap to check. Held in memory they took some 45 MiB more than the run itself (and
    // SARIF, which built the whole log as one value, much more).
    let mut bytes = Vec::new();
    for i in 0..50_000 {
        let path = format!("/v1/nowhere/{i:06}/{}", "y".repeat(240));
        bytes.extend(
            serde_json::json!({"request": {"method": "GET", "path": path}})
                .to_string()
                .as_bytes(),
        );
        bytes.push(b'\n');
    }
    let file = temp_file(&dir, "unmatched.jsonl", &bytes);
    let (_, baseline) = peak_rss_kib(&["check", "--quiet", &corpus("clean.jsonl")]);
    for format in ["text", "sarif"] {
        let (code, peak) = peak_rss_kib(&["check", "--quiet", "--format", format, &file]);
        assert_eq!(code, 1, "{format}");
        assert!(
            peak < baseline + 20 * 1024,
            "{format}: {peak} KiB at the peak, {baseline} KiB for a clean run"
        );
    }
}

/// A spec split over several files is read the way specgen reads it: the rules of a schema in
/// another file (here `schemas/user.json`, whose `name` is required) apply to the traffic.
#[test]
fn a_spec_of_several_files_is_checked_with_the_rules_of_its_other_files() {
    let spec = root()
        .join("generator/tests/fixtures/multi-file/openapi.yaml")
        .to_string_lossy()
        .into_owned();
    let dir = tempfile::tempdir().expect("tempdir");
    let exchange = |body: &str| {
        format!(
            "{{\"request\": {{\"method\": \"GET\", \"path\": \"/users/7\"}}, \
             \"response\": {{\"status\": 200, \"headers\": {{\"Content-Type\": \"application/json\"}}, \
             \"body\": {body}}}}}\n"
        )
    };
    let good = temp_file(
        &dir,
        "good.jsonl",
        exchange(r#"{"id": 7, "name": "Ada"}"#).as_bytes(),
    );
    let run = specval(&["--spec", &spec, "check", &good]);
    assert_code(&run, 0, "a conforming exchange");

    let bad = temp_file(&dir, "bad.jsonl", exchange(r#"{"id": 7}"#).as_bytes());
    let run = specval(&["--spec", &spec, "check", &bad]);
    assert_code(&run, 1, "a response without the required name");
    assert!(run.stdout.contains("name"), "{}", run.stdout);
}

/// A Swagger 2.0 spec is checked as the OpenAPI 3 it describes: its base path, its `csv`
/// query list (2.0's default, `ids=1,2`), its body parameter, its API key and its form.
#[test]
fn a_swagger_2_spec_is_checked_with_its_own_rules() {
    let spec = root()
        .join("generator/tests/fixtures/swagger-2.yaml")
        .to_string_lossy()
        .into_owned();
    let dir = tempfile::tempdir().expect("tempdir");
    let pet = r#"{"id": 1, "name": "Rex", "kind": "Dog", "tag": null}"#;
    let good = [
        format!(
            r#"{{"request": {{"method": "GET", "url": "https://pets.example.com/v2/pets?ids=1,2&tags=a&tags=b", "headers": {{"X-Api-Key": "k"}}}}, "response": {{"status": 200, "headers": {{"Content-Type": "application/json"}}, "body": [{pet}]}}}}"#
        ),
        format!(
            r#"{{"request": {{"method": "POST", "url": "https://pets.example.com/v2/pets", "headers": {{"X-Api-Key": "k", "Content-Type": "application/json"}}, "body": {pet}}}, "response": {{"status": 201, "headers": {{"Content-Type": "application/json"}}, "body": {pet}}}}}"#
        ),
        r#"{"request": {"method": "POST", "url": "https://pets.example.com/v2/login", "headers": {"Authorization": "Basic Ym9iOnB3", "Content-Type": "application/x-www-form-urlencoded"}, "body": "user=bob&scopes=read,write"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": {"user": "bob", "scopes": ["read"]}}}"#.to_string(),
    ];
    let good = temp_file(&dir, "good.jsonl", (good.join("\n") + "\n").as_bytes());
    let run = specval(&["--spec", &spec, "check", &good]);
    assert_code(&run, 0, "conforming 2.0 traffic");
    assert!(run.stdout.contains("3 exchanges"), "{}", run.stdout);

    let bad = [
        // An id that is not an integer, in the comma-separated list.
        r#"{"request": {"method": "GET", "url": "https://pets.example.com/v2/pets?ids=1,x", "headers": {"X-Api-Key": "k"}}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": []}}"#,
        // The body parameter's schema: `name` and `kind` are required.
        r#"{"request": {"method": "POST", "url": "https://pets.example.com/v2/pets", "headers": {"X-Api-Key": "k", "Content-Type": "application/json"}, "body": {"id": 1}}, "response": {"status": 201, "headers": {"Content-Type": "application/json"}, "body": {"id": 1, "name": "Rex", "kind": "Dog"}}}"#,
        // Outside the base path /v2.
        r#"{"request": {"method": "GET", "url": "https://pets.example.com/pets", "headers": {"X-Api-Key": "k"}}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": []}}"#,
    ];
    let bad = temp_file(&dir, "bad.jsonl", (bad.join("\n") + "\n").as_bytes());
    let run = specval(&["--spec", &spec, "check", &bad, "--format", "json"]);
    assert_code(&run, 1, "2.0 traffic that breaks its rules");
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("a JSON report");
    let found: Vec<(u64, &str, &str, &str)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|finding| {
            (
                finding["line"].as_u64().unwrap_or_default(),
                finding["pointer"].as_str().unwrap_or_default(),
                finding["rule"].as_str().unwrap_or_default(),
                finding["message"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (1, "query:ids", "type", "value is not of type \"integer\""),
            (2, "", "required", "\"name\" is a required property"),
            (2, "", "required", "\"kind\" is a required property"),
            (
                3,
                "",
                "operation-path",
                "/pets is not under a base path of the API (its servers; --base-url adds others); \
                 with the API's base path before it, it would be listPets (GET /pets)"
            ),
        ]
    );
}

/// A recording kept gzip-compressed (`traffic.har.gz`, as CI artifacts often are), from a
/// file or standard input, is read as the recording it holds: the same exchanges, the same
/// findings and exit code, not a run of "not valid UTF-8" lines.
#[test]
fn a_gzip_compressed_recording_is_read_as_what_it_holds() {
    use flate2::{Compression, write::GzEncoder};
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["rules.har", "rules.jsonl", "clean.har"] {
        let plain = std::fs::read(corpus(name)).expect("corpus file");
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(&plain).expect("gzip");
        let packed = encoder.finish().expect("gzip");
        let path = temp_file(&dir, &format!("{name}.gz"), &packed);
        // The findings, without the file they name.
        let findings = |run: &Run| -> Vec<Value> {
            let mut report = json(run);
            let findings = report["findings"].as_array_mut().expect("findings");
            for finding in findings.iter_mut() {
                finding.as_object_mut().expect("a finding").remove("source");
            }
            findings.clone()
        };
        let expected = specval(&["check", "--format", "json", &corpus(name)]);
        for run in [
            specval(&["check", "--format", "json", &path]),
            specval_with(&["check", "--format", "json", "-"], Some(&packed)),
        ] {
            assert_eq!(run.code, expected.code, "{name}: {}", run.stderr);
            assert_eq!(findings(&run), findings(&expected), "{name}");
            assert_eq!(
                json(&run)["exchanges"],
                json(&expected)["exchanges"],
                "{name}"
            );
        }
    }
}

/// A binary file given by mistake (an image, an archive) was read line by line as JSON
/// Lines: 3 MB of random bytes made 11,719 `malformed` findings. A NUL byte among its first
/// bytes says it is no text at all: one finding, and the other inputs are still checked.
#[test]
fn a_binary_input_is_one_finding() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut bytes = Vec::new();
    let mut state: u32 = 0x2545_f491;
    for _ in 0..200_000 {
        // xorshift: noise with NUL bytes and line breaks in it, as a real binary has.
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        bytes.push((state & 0xff) as u8);
    }
    bytes[3] = 0;
    let binary = temp_file(&dir, "capture.bin", &bytes);
    let clean = corpus("clean.jsonl");
    let run = specval(&["check", "--format", "json", &binary, &clean]);
    assert_code(&run, 1, "a binary input is a finding");
    let report = json(&run);
    let findings = report["findings"].as_array().expect("findings");
    let about_binary: Vec<&Value> = findings
        .iter()
        .filter(|f| {
            f["source"]
                .as_str()
                .is_some_and(|s| s.ends_with("capture.bin"))
        })
        .collect();
    assert_eq!(about_binary.len(), 1, "{findings:?}");
    assert!(
        about_binary[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("not text")),
        "{:?}",
        about_binary[0]
    );
    assert_eq!(report["errors"], 1, "the clean input adds none");
}

/// A recording saved as UTF-16 with its byte order mark (Windows PowerShell's `>`, Notepad's
/// "Unicode") is read as the text it holds, in either byte order: the same verdicts as the
/// UTF-8 file, where it had been refused as no text at all.
#[test]
fn a_utf16_recording_is_read_as_its_text() {
    let dir = tempfile::tempdir().expect("temp dir");
    let clean = std::fs::read_to_string(corpus("clean.jsonl")).expect("clean");
    let utf8 = json(&specval(&[
        "check",
        "--format",
        "json",
        &corpus("clean.jsonl"),
    ]));
    for (name, mark, big_endian) in [
        ("le.jsonl", [0xFF, 0xFE], false),
        ("be.jsonl", [0xFE, 0xFF], true),
    ] {
        let mut bytes = mark.to_vec();
        for unit in clean.encode_utf16() {
            bytes.extend(if big_endian {
                unit.to_be_bytes()
            } else {
                unit.to_le_bytes()
            });
        }
        let file = temp_file(&dir, name, &bytes);
        let run = specval(&["check", "--format", "json", &file]);
        assert_code(&run, 0, name);
        let report = json(&run);
        assert_eq!(report["exchanges"], utf8["exchanges"], "{name}: {report}");
        assert!(report["exchanges"].as_u64().unwrap_or(0) > 0, "{report}");
    }
}

/// A recording that begins as JSON is no binary, though a NUL byte stands among its first
/// bytes: the entry it breaks is reported, and the others are checked.
#[test]
fn a_nul_byte_in_one_entry_of_a_recording_breaks_that_entry_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let clean = std::fs::read_to_string(corpus("clean.jsonl")).expect("clean");
    let lines: Vec<&str> = clean
        .lines()
        .filter(|line| !line.trim().is_empty())
        .collect();
    let mut bytes = format!("{}\n{}\n", lines[0], lines[1]).into_bytes();
    let broken = bytes.len() + 10;
    bytes.extend_from_slice(lines[2].as_bytes());
    bytes[broken] = 0;
    bytes.push(b'\n');
    let file = temp_file(&dir, "nul.jsonl", &bytes);
    let run = specval(&["check", "--format", "json", &file]);
    assert_code(&run, 1, "the broken entry is a finding");
    let report = json(&run);
    assert_eq!(report["exchanges"], 3, "{report}");
    let findings = report["findings"].as_array().expect("findings");
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0]["rule"], "malformed", "{findings:?}");
}
