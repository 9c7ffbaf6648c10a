// Over 600 lines on purpose: one test binary per feature keeps link time down.
//! `specval coverage` as a user runs it: a small hand-written JSON Lines capture against
//! `spec/openapi.yaml`, with the numbers a person would check by hand; the HTML page against
//! the JSON; `--min-coverage` exit codes; HAR and JSON Lines giving the same tally; empty
//! inputs; credentials that never reach any output.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

const PUBLIC_KEY: &str = "pk_live_COVERAGE_PUBLIC_7f3a";
const SECRET_KEY: &str = "sk_live_COVERAGE_SECRET_9b1c";
const ACCOUNT: &str = "6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b";

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace")
        .to_path_buf()
}

/// Runs `specval coverage --spec spec/openapi.yaml args…` from the workspace root.
fn coverage(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_specval"))
        .args(["coverage", "--spec", "spec/openapi.yaml", "--quiet"])
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .expect("specval runs");
    let run = Run {
        code: output.status.code().expect("an exit code"),
        stdout: String::from_utf8(output.stdout).expect("UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8"),
    };
    for text in [&run.stdout, &run.stderr] {
        assert!(!text.contains("panicked"), "{args:?} panicked:\n{text}");
        assert!(
            !text.contains(PUBLIC_KEY) && !text.contains(SECRET_KEY),
            "{args:?}: a credential reached the output:\n{text}"
        );
    }
    run
}

#[track_caller]
fn assert_code(run: &Run, code: i32) {
    assert_eq!(
        run.code, code,
        "exit code\nstdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
}

fn credentials() -> Value {
    json!({ "public-api-key": PUBLIC_KEY, "private-secret-key": SECRET_KEY })
}

/// The capture: getAccount twice (200 only), one notification answered 200, one request to a
/// path the API does not have.
fn records() -> Vec<Value> {
    let get = |id: &str, account_type: &str| {
        let mut headers = credentials();
        headers["accept"] = json!("application/json");
        json!({
            "id": id,
            "request": {
                "method": "GET",
                "url": format!("https://api.example.com/v1/banking/accounts/{ACCOUNT}"),
                "headers": headers,
            },
            "response": {
                "status": 200,
                "headers": { "content-type": "application/json" },
                "body": { "id": "acct_1", "status": "ACTIVE", "account_type": account_type,
                          "balance": { "available": 10 } },
            }
        })
    };
    let first = get("get-1", "CHECKING");
    let second = get("get-2", "SAVINGS");
    vec![
        first,
        second,
        json!({
            "id": "hook",
            "request": {
                "method": "POST",
                "url": "https://merchant.example.org/hooks/v1/banking/transfers",
                "headers": { "content-type": "application/json" },
                "body": { "id": "xfer_1", "status": "COMPLETED", "direction": "INCOMING",
                          "amount": { "value": 250, "currency": "USD" } },
            },
            "response": {
                "status": 200,
                "headers": { "content-type": "application/json" },
                "body": { "received": true },
            }
        }),
        json!({
            "id": "nowhere",
            "request": { "method": "GET", "url": "https://api.example.com/v1/nowhere",
                         "headers": credentials() },
            "response": { "status": 404 }
        }),
    ]
}

fn jsonl(records: &[Value]) -> String {
    records.iter().map(|r| format!("{r}\n")).collect()
}

/// The same records as a HAR.
fn har(records: &[Value]) -> String {
    let headers = |value: &Value| -> Vec<Value> {
        value
            .as_object()
            .into_iter()
            .flatten()
            .map(|(name, value)| json!({ "name": name, "value": value }))
            .collect()
    };
    let entries: Vec<Value> = records
        .iter()
        .map(|record| {
            let request = &record["request"];
            let response = &record["response"];
            let mut har_request = json!({
                "method": request["method"],
                "url": request["url"],
                "httpVersion": "HTTP/1.1",
                "cookies": [],
                "headers": headers(&request["headers"]),
                "queryString": [],
                "headersSize": -1,
                "bodySize": -1,
            });
            if !request["body"].is_null() {
                har_request["postData"] =
                    json!({ "mimeType": "application/json", "text": request["body"].to_string() });
            }
            let text = if response["body"].is_null() {
                String::new()
            } else {
                response["body"].to_string()
            };
            json!({
                "comment": record["id"],
                "startedDateTime": "2026-01-02T03:04:05.000Z",
                "time": 1,
                "request": har_request,
                "response": {
                    "status": response["status"],
                    "statusText": "",
                    "httpVersion": "HTTP/1.1",
                    "cookies": [],
                    "headers": headers(&response["headers"]),
                    "content": { "size": text.len(), "mimeType": "application/json", "text": text },
                    "redirectURL": "",
                    "headersSize": -1,
                    "bodySize": -1,
                },
                "cache": {},
                "timings": { "send": 0, "wait": 1, "receive": 0 },
            })
        })
        .collect();
    serde_json::to_string_pretty(&json!({
        "log": { "version": "1.2", "creator": { "name": "test", "version": "1" }, "entries": entries }
    }))
    .expect("HAR")
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write");
    path.to_string_lossy().into_owned()
}

fn capture(dir: &tempfile::TempDir) -> String {
    write(dir, "traffic.jsonl", &jsonl(&records()))
}

fn report(args: &[&str]) -> Value {
    let run = coverage(args);
    assert_code(&run, 0);
    serde_json::from_str(&run.stdout).unwrap_or_else(|err| panic!("{err}:\n{}", run.stdout))
}

fn operation<'v>(report: &'v Value, id: &str) -> &'v Value {
    report["operations"]
        .as_array()
        .expect("operations")
        .iter()
        .find(|op| op["id"] == id)
        .unwrap_or_else(|| panic!("no operation {id}"))
}

/// The hits of the item of `op` with this category, message, place and value.
fn hits(op: &Value, category: &str, message: &str, at: &str, value: &str) -> u64 {
    op["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|item| {
            item["category"] == category
                && item["message"] == message
                && item["at"] == at
                && item["value"] == value
        })
        .unwrap_or_else(|| panic!("no item {category} {message} {at} {value} in {}", op["id"]))["hits"]
        .as_u64()
        .expect("hits")
}

fn count(totals: &Value, category: &str) -> (u64, u64, f64) {
    let count = &totals[category];
    (
        count["covered"].as_u64().expect("covered"),
        count["total"].as_u64().expect("total"),
        count["percent"].as_f64().expect("percent"),
    )
}

#[test]
fn a_small_capture_gives_the_numbers_a_person_counts_by_hand() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = capture(&dir);
    let report = report(&["--format", "json", &file]);
    assert_eq!(report["exchanges"], 4);
    assert_eq!(report["unmatched"], 1);
    assert_eq!(report["malformed"], 0);
    let totals = &report["totals"];
    // 9 operations, getAccount called.
    assert_eq!(count(totals, "operations"), (1, 9, 11.1));
    // The one webhook, delivered.
    assert_eq!(count(totals, "notifications"), (1, 1, 100.0));
    // 37 documented responses of the operations (the payment lookup's and the reverse
    // transfer's errors "not shown" are a `4XX` and a `5XX` each) and 3 of the webhook; 200 of
    // getAccount and the receiver's 200 answered.
    assert_eq!(count(totals, "statuses"), (2, 40, 5.0));
    // 13 parameters; the path's account_id of getAccount (x-idempotency-key never sent).
    assert_eq!(count(totals, "parameters"), (1, 13, 7.7));

    let get = operation(&report, "getAccount");
    assert_eq!(get["exchanges"], 2);
    assert_eq!(hits(get, "status", "", "200", ""), 2);
    // Hit with 200, never with 404: the 404 is a gap.
    assert_eq!(hits(get, "status", "", "404", ""), 0);
    assert_eq!(hits(get, "parameter", "", "path:account_id", ""), 2);
    assert_eq!(
        hits(get, "response-member", "response 200", "/status", ""),
        2
    );
    assert_eq!(
        hits(get, "response-member", "response 200", "/balance", ""),
        2
    );
    assert_eq!(hits(get, "response-member", "response 200", "/iban", ""), 0);
    // Enum values: each one seen is covered, the others listed.
    assert_eq!(
        hits(get, "enum-value", "response 200", "/status", "ACTIVE"),
        2
    );
    assert_eq!(
        hits(get, "enum-value", "response 200", "/status", "CLOSED"),
        0
    );
    assert_eq!(
        hits(
            get,
            "enum-value",
            "response 200",
            "/account_type",
            "CHECKING"
        ),
        1
    );
    assert_eq!(
        hits(
            get,
            "enum-value",
            "response 200",
            "/account_type",
            "SAVINGS"
        ),
        1
    );
    assert_eq!(
        hits(
            get,
            "enum-value",
            "response 200",
            "/account_type",
            "INVESTMENT"
        ),
        0
    );
    assert_eq!(count(&get["totals"], "statuses"), (1, 4, 25.0));
    // An error status may carry its own code only: the codes the error table gives other
    // conditions are forbidden there (`not: {enum}`), so they are no gap to fill; conforming
    // traffic can reach 100%.
    let values = |op: &Value, status: &str, at: &str| -> Vec<String> {
        op["items"]
            .as_array()
            .expect("items")
            .iter()
            .filter(|item| {
                item["category"] == "enum-value"
                    && item["message"] == format!("response {status}")
                    && item["at"] == at
            })
            .map(|item| item["value"].as_str().expect("value").to_owned())
            .collect()
    };
    assert_eq!(values(get, "404", "/code"), ["ACCOUNT_NOT_FOUND"]);
    assert_eq!(values(get, "401", "/code"), ["NOT_AUTHENTICATED"]);
    // So a status a response pins (`const` beside the account's `$ref`): a created account is
    // ACTIVE, a closed one CLOSED; the account's other statuses are no gap there.
    let create = operation(&report, "createAccount");
    assert_eq!(values(create, "201", "/status"), ["ACTIVE"]);
    let close = operation(&report, "closeAccount");
    assert_eq!(values(close, "200", "/status"), ["CLOSED"]);
    assert_eq!(
        values(get, "200", "/status").len(),
        4,
        "getAccount's are open"
    );

    let hook = operation(&report, "incomingTransfer");
    assert_eq!(hook["kind"], "notification");
    assert_eq!(hits(hook, "notification", "", "", ""), 1);
    assert_eq!(
        hits(
            hook,
            "request-member",
            "notification",
            "/amount/currency",
            ""
        ),
        1
    );
    assert_eq!(
        hits(hook, "request-member", "notification", "/sender", ""),
        0
    );
    assert_eq!(
        hits(hook, "enum-value", "notification", "/status", "COMPLETED"),
        1
    );
    assert_eq!(
        hits(hook, "enum-value", "notification", "/status", "PENDING"),
        0
    );
    assert_eq!(
        hits(hook, "response-member", "reply 200", "/received", ""),
        1
    );
    assert_eq!(hits(hook, "status", "", "400", ""), 0);

    let never = operation(&report, "createAccount");
    assert_eq!(never["exchanges"], 0);
    assert_eq!(count(&never["totals"], "overall").0, 0);

    // The overall figure is every item together.
    let (covered, total, percent) = count(totals, "overall");
    let sum = |field: &str| -> u64 {
        [
            "operations",
            "notifications",
            "statuses",
            "parameters",
            "request_members",
            "response_members",
            "enum_values",
        ]
        .iter()
        .map(|c| totals[c][field].as_u64().expect("count"))
        .sum()
    };
    assert_eq!((covered, total), (sum("covered"), sum("total")));
    assert_eq!(
        percent,
        (covered as f64 * 1000.0 / total as f64).round() / 10.0
    );

    // The text lists the gaps an operation shows.
    let text = coverage(&[&file]);
    assert_code(&text, 0);
    assert!(
        text.stdout
            .contains("  operations                1      9    11.1%"),
        "{}",
        text.stdout
    );
    let get_section = text
        .stdout
        .split("\ngetAccount — ")
        .nth(1)
        .expect("getAccount section");
    let get_section = get_section.split("\n\n").next().unwrap_or_default();
    assert!(get_section.starts_with("GET /banking/accounts/{account_id} — 2 exchanges"));
    assert!(get_section.contains("\n    status 404\n"), "{get_section}");
    assert!(!get_section.contains("\n    status 200\n"), "{get_section}");
    assert!(get_section.contains("\n    enum value response 200 /status = CLOSED\n"));
    assert!(!get_section.contains("= ACTIVE"), "{get_section}");
}

/// Numbers in the HTML's totals table: `data-…` attributes of each row.
fn html_totals(html: &str) -> Vec<(String, u64, u64, f64)> {
    let table = html
        .split("<table id=\"totals\">")
        .nth(1)
        .and_then(|rest| rest.split("</table>").next())
        .expect("totals table");
    let attribute = |row: &str, name: &str| -> String {
        row.split(&format!("{name}=\""))
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_else(|| panic!("no {name} in {row}"))
            .to_string()
    };
    table
        .split("<tr data-category")
        .skip(1)
        .map(|row| {
            let row = format!("data-category{row}");
            // The visible cells say the same as the attributes.
            let covered: u64 = attribute(&row, "data-covered").parse().expect("covered");
            let total: u64 = attribute(&row, "data-total").parse().expect("total");
            let percent: f64 = attribute(&row, "data-percent").parse().expect("percent");
            assert!(
                row.contains(&format!("<td class=\"n\">{covered}</td><td class=\"n\">{total}</td><td class=\"n\">{percent:.1}%</td>")),
                "{row}"
            );
            (attribute(&row, "data-category"), covered, total, percent)
        })
        .collect()
}

#[test]
fn the_html_page_is_self_contained_and_has_the_totals_of_the_json() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = capture(&dir);
    let json = report(&["--format", "json", &file]);
    let page = dir.path().join("coverage.html");
    let run = coverage(&[
        "--format",
        "html",
        "-o",
        page.to_str().expect("path"),
        &file,
    ]);
    assert_code(&run, 0);
    assert_eq!(run.stdout, "");
    let html = std::fs::read_to_string(&page).expect("page written");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<style>"));
    for external in [
        "<script", "<link", "src=", "http://", "https://", "@import", "url(",
    ] {
        assert!(!html.contains(external), "the page refers to {external}");
    }
    assert!(!html.contains(PUBLIC_KEY) && !html.contains(SECRET_KEY));
    let rows = html_totals(&html);
    let names = [
        ("operations", "operations"),
        ("notifications", "notifications"),
        ("statuses", "statuses"),
        ("parameters", "parameters"),
        ("request members", "request_members"),
        ("response members", "response_members"),
        ("enum values", "enum_values"),
        ("overall", "overall"),
    ];
    assert_eq!(rows.len(), names.len());
    for ((label, covered, total, percent), (html_name, json_name)) in rows.iter().zip(names) {
        assert_eq!(label, html_name);
        assert_eq!(
            (*covered, *total, *percent),
            count(&json["totals"], json_name),
            "{label}"
        );
    }
    // A table per operation and webhook.
    assert_eq!(html.matches("<table class=\"operation\">").count(), 10);
}

#[test]
fn min_coverage_fails_the_run_below_the_percentage() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = capture(&dir);
    let json = report(&["--format", "json", &file]);
    let overall = json["totals"]["overall"]["percent"]
        .as_f64()
        .expect("percent");
    assert!(overall > 1.0 && overall < 50.0, "{overall}");
    let below = coverage(&["--min-coverage", "50", &file]);
    assert_code(&below, 1);
    // The counts and what the threshold asks for, beside the rounded figure.
    let json_overall = &json["totals"]["overall"];
    let (covered, total) = (
        json_overall["covered"].as_u64().unwrap(),
        json_overall["total"].as_u64().unwrap(),
    );
    let needed = total.div_ceil(2);
    assert!(
        below.stderr.contains(&format!(
            "({covered} of {total} items) is below --min-coverage 50, which asks for {needed}"
        )),
        "{}",
        below.stderr
    );
    assert!(
        below.stdout.contains("specval: "),
        "the report is still written"
    );
    assert_code(&coverage(&["--min-coverage", "1", &file]), 0);
    assert_code(&coverage(&["--min-coverage", "0", &file]), 0);
    let exact = format!("{overall}");
    // The exact ratio is compared: the rounded figure may be a hair above it.
    let at = coverage(&["--min-coverage", &exact, &file]);
    assert!(at.code == 0 || at.code == 1);
    // Not a percentage: a usage error.
    assert_code(&coverage(&["--min-coverage", "101", &file]), 2);
    // An input that cannot be read wins: 2, whatever the coverage.
    let missing = dir.path().join("missing.jsonl");
    assert_code(
        &coverage(&[
            "--min-coverage",
            "0",
            &file,
            missing.to_str().expect("path"),
        ]),
        2,
    );
}

#[test]
fn a_har_gives_the_same_tally_as_the_same_exchanges_in_json_lines() {
    let dir = tempfile::tempdir().expect("temp dir");
    let lines = capture(&dir);
    let har = write(&dir, "traffic.har", &har(&records()));
    let mut from_lines = report(&["--format", "json", &lines]);
    let mut from_har = report(&["--format", "json", &har]);
    assert_eq!(from_har["exchanges"], 4);
    for report in [&mut from_lines, &mut from_har] {
        report["inputs"] = Value::Null;
    }
    assert_eq!(from_lines, from_har);
}

#[test]
fn an_empty_input_is_an_error_unless_allowed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let empty = write(&dir, "empty.jsonl", "");
    let run = coverage(&["--format", "json", &empty]);
    assert_code(&run, 1);
    assert!(run.stderr.contains("no exchanges"), "{}", run.stderr);
    let json: Value = serde_json::from_str(&run.stdout).expect("the report is still written");
    assert_eq!(json["exchanges"], 0);
    assert_eq!(count(&json["totals"], "overall").0, 0);
    let allowed = coverage(&["--allow-empty", &empty]);
    assert_code(&allowed, 0);
    assert_eq!(allowed.stderr, "");
    // With other traffic beside it, the empty one still fails the run.
    let file = capture(&dir);
    assert_code(&coverage(&[&file, &empty]), 1);
    let har = write(
        &dir,
        "empty.har",
        r#"{"log": {"version": "1.2", "entries": []}}"#,
    );
    assert_code(&coverage(&[&har]), 1);
    assert_code(&coverage(&["--allow-empty", &har]), 0);
}

/// A capture whose every entry is broken, or another API's, counts nothing: no green run for
/// a corrupt recording or the wrong one, unless allowed; one exchange with the API is enough.
#[test]
fn a_capture_with_no_exchange_of_the_api_fails_unless_allowed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let broken = write(&dir, "broken.jsonl", "{\"request\": \n[1, 2\nnot json\n");
    let other = write(
        &dir,
        "other.jsonl",
        &jsonl(&[
            json!({"request": {"method": "GET", "url": "https://petstore.example/pets/1"},
                        "response": {"status": 200}}),
        ]),
    );
    for file in [&broken, &other] {
        let run = coverage(&[file]);
        assert_code(&run, 1);
        assert!(
            run.stderr.contains("no entry is an exchange with the API"),
            "{}",
            run.stderr
        );
        assert_code(&coverage(&["--allow-empty", file]), 0);
    }
    let file = capture(&dir);
    assert_code(&coverage(&[&file, &other]), 0);
}

#[test]
fn an_unreadable_spec_exits_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = capture(&dir);
    let output = Command::new(env!("CARGO_BIN_EXE_specval"))
        .args(["coverage", "--spec", "no/such/spec.yaml", &file])
        .current_dir(root())
        .output()
        .expect("specval runs");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn the_report_is_deterministic() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = capture(&dir);
    let mut reversed = records();
    reversed.reverse();
    let other = write(&dir, "reversed.jsonl", &jsonl(&reversed));
    for format in ["text", "json", "html"] {
        let first = coverage(&["--format", format, &file]);
        let again = coverage(&["--format", format, &file]);
        assert_eq!(first.stdout, again.stdout, "{format}");
        // The order of the exchanges does not matter either (bar the input's name).
        let swapped = coverage(&["--format", format, &other]);
        assert_eq!(
            first.stdout.replace(&file, "X"),
            swapped.stdout.replace(&other, "X"),
            "{format}"
        );
    }
}

/// Debian's Chromium, for the browser test: `CHROMIUM`, else `/usr/bin/chromium`. `.ci/run`
/// installs it (`apt-get install chromium`); elsewhere the test says it is skipped, and under
/// CI (`CI` set) a missing browser fails it.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "no Chromium at {} under CI: .ci/run installs Debian's chromium package",
        path.display()
    );
    eprintln!(
        "SKIPPED: no Chromium at {} (apt-get install chromium, or set CHROMIUM)",
        path.display()
    );
    None
}

/// Runs headless Chromium on `page` with `args`, for at most 90 s; its standard output.
fn headless(browser: &Path, profile: &Path, args: &[String], page: &Path) -> String {
    let mut command = Command::new(browser);
    // As the machine notes say: no sandbox as root, no GPU, and none of the background
    // connections a closed network refuses.
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = command.spawn().expect("start chromium");
    let (done, wait) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait_with_output());
    });
    let output = wait
        .recv_timeout(std::time::Duration::from_secs(90))
        .expect("chromium finishes within 90 s")
        .expect("chromium output");
    assert!(
        output.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 DOM")
}

#[test]
fn the_html_page_renders_in_a_real_browser_with_the_numbers_of_the_json() {
    let Some(browser) = chromium() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let file = capture(&dir);
    let json = report(&["--format", "json", &file]);
    let page = dir.path().join("coverage.html");
    let run = coverage(&[
        "--format",
        "html",
        "-o",
        page.to_str().expect("path"),
        &file,
    ]);
    assert_code(&run, 0);
    let profile = dir.path().join("profile");

    // The DOM the browser built from the page: what it parsed is what a reader sees, so an
    // unescaped `<` or a broken row would show here as a different table.
    let dom = headless(&browser, &profile, &["--dump-dom".to_string()], &page);
    assert!(dom.contains("<h1>Contract coverage</h1>"), "{dom}");
    let rows = html_totals(&dom);
    let names = [
        "operations",
        "notifications",
        "statuses",
        "parameters",
        "request_members",
        "response_members",
        "enum_values",
        "overall",
    ];
    assert_eq!(rows.len(), names.len(), "{rows:?}");
    for ((label, covered, total, percent), json_name) in rows.iter().zip(names) {
        assert_eq!(
            (*covered, *total, *percent),
            count(&json["totals"], json_name),
            "{label}"
        );
    }
    assert_eq!(dom.matches("<table class=\"operation\">").count(), 10);

    // The pixels: the page's own colours are painted, so its inline style was applied (the
    // totals' bars, the gap rows' red, the text's grey; the first screenful, sorted by
    // operation, holds no covered row).
    let shot = dir.path().join("coverage.png");
    headless(
        &browser,
        &profile,
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1280,2400".to_string(),
        ],
        &page,
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&shot).expect("screenshot"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut pixels).expect("pixels");
    assert_eq!((info.width, info.height), (1280, 2400));
    let channels = info.color_type.samples();
    let painted = |rgb: [u8; 3]| {
        pixels[..info.buffer_size()]
            .chunks(channels)
            .filter(|pixel| pixel[..3] == rgb)
            .count()
    };
    let (gap, bar, text) = (
        painted([0xfd, 0xec, 0xea]),
        painted([0x44, 0xaa, 0x88]),
        painted([0x22, 0x22, 0x22]),
    );
    assert!(
        gap > 100_000 && bar > 1000 && text > 1000,
        "gap {gap}, bar {bar}, text {text} pixels"
    );
}

#[test]
fn text_and_html_list_at_most_200_gaps_per_operation_and_json_every_one() {
    // An answer of 250 members, one of them sent: 249 gaps, of which a person reads 200 and is
    // told how many more there are.
    let dir = tempfile::tempdir().expect("temp dir");
    let properties: Vec<String> = (0..250)
        .map(|n| format!("        m{n:03}: {{type: string}}"))
        .collect();
    let spec = write(
        &dir,
        "wide.yaml",
        &format!(
            "openapi: 3.1.0\ninfo: {{title: Wide, version: '1'}}\npaths:\n  /wide:\n    get:\n      \
             operationId: getWide\n      responses:\n        '200':\n          description: ok\n          \
             content: {{application/json: {{schema: {{$ref: '#/components/schemas/Wide'}}}}}}\n\
             components:\n  schemas:\n    Wide:\n      type: object\n      properties:\n{}\n",
            properties.join("\n")
        ),
    );
    let traffic = write(
        &dir,
        "wide.jsonl",
        &json!({"request": {"method": "GET", "url": "https://api.example.com/wide"},
                "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                             "body": {"m000": "x"}}})
        .to_string(),
    );
    let run = |format: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_specval"))
            .args([
                "--spec", &spec, "coverage", "--quiet", "--format", format, &traffic,
            ])
            .output()
            .expect("specval runs");
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        String::from_utf8(output.stdout).expect("UTF-8")
    };
    let text = run("text");
    assert_eq!(
        text.matches("\n    response member response 200 /m")
            .count(),
        200
    );
    assert!(
        text.contains("\n    … and 49 more (--format json lists every item)\n"),
        "{text}"
    );
    assert!(text.contains("response members 1/250"), "{text}");
    let html = run("html");
    assert_eq!(html.matches("<tr class=\"gap\">").count(), 200);
    assert_eq!(html.matches("<tr class=\"hit\">").count(), 3, "{html}");
    assert!(html.contains("… and 49 more gaps"));
    let json: Value = serde_json::from_str(&run("json")).expect("JSON");
    let items = json["operations"][0]["items"].as_array().expect("items");
    let members = items
        .iter()
        .filter(|item| item["category"] == "response-member")
        .count();
    assert_eq!(members, 250);
}
