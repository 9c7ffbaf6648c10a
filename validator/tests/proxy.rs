// Over 600 lines on purpose: one test binary per feature keeps link time down.
//! `specval proxy` (feature `proxy`): the binary in front of a small axum upstream on
//! 127.0.0.1 that answers like the API, some answers conforming and some not. Every wait is
//! bounded: a child that does not say where it listens, or does not exit, fails the test.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use serde_json::Value;

const ACCOUNT_ID: &str = "6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b";
const UNKNOWN_ID: &str = "00000000-0000-4000-8000-000000000000";
/// Planted credentials: none may appear in anything the proxy writes.
const PUBLIC_KEY: &str = "pk_live_PLANTEDPUBLIC_31f9a7";
const SECRET_KEY: &str = "sk_live_PLANTEDSECRET_8d02c4";

/// A conforming getAccount 200 body.
const ACCOUNT: &str = r#"{"id": "acct_2f7c9a1e4b6d", "entity_id": "ent_8b3d5f7a9c1e", "onboarding_id": "onb_4e6a8c0b2d4f", "account_id": "6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b", "provider": {"account_id": "pa_5521903"}, "account_type": "CHECKING", "status": "ACTIVE", "account_number": "000123456789", "routing_number": "021000021", "iban": null, "currency": "USD", "balance": {"available": 1250.5, "current": 1500.5, "pending": 250}, "account_details": {"account_name": "Acme Marketplace LLC", "sort_code": null, "bsb": null, "swift": "CHASUS33"}, "payment_rails": {"incoming": ["ACH_STANDARD", "WIRE"], "outgoing": ["ACH_STANDARD"]}, "supports_book_transfers": true, "created_at": "2024-05-14T15:20:11Z", "updated_at": "2024-05-20T09:02:45Z"}"#;
/// A 404 without the required `http_code`, oddly spaced so that a re-serialized body shows.
const NOT_FOUND_WITHOUT_HTTP_CODE: &str =
    "{ \"code\" :  \"ACCOUNT_NOT_FOUND\",\n  \"messages\" : [ \"Account does not exist\" ] }";
/// Lacks the required `currency`, and `account_id` is not a UUID.
const BAD_CREATE: &str = r#"{"account_id": "not-a-uuid", "onboarding_id": "onb_4e6a8c0b2d4f", "account_type": "CHECKING"}"#;
/// An incoming-transfer notification going the wrong way.
const OUTGOING_NOTIFICATION: &str = r#"{"id": "xfer_1", "destination_account_id": "acct_1", "status": "COMPLETED", "direction": "OUTGOING", "amount": {"value": 10, "currency": "USD"}}"#;

/// How long any one wait may take.
const PATIENCE: Duration = Duration::from_secs(30);

fn json_answer(status: StatusCode, body: &'static str) -> axum::response::Response {
    (status, [("content-type", "application/json")], body).into_response()
}

/// The upstream: getAccount (200 for ACCOUNT_ID, a 404 without `http_code` otherwise),
/// createAccount (201 whatever the body), and a merchant endpoint under `/merchant`
/// answering `{"received": true}`. Served on its own runtime thread for the whole test.
fn upstream() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let app = Router::new()
                .route(
                    "/v1/banking/accounts/{account_id}",
                    get(
                        |axum::extract::Path(id): axum::extract::Path<String>| async move {
                            if id == ACCOUNT_ID {
                                json_answer(StatusCode::OK, ACCOUNT)
                            } else {
                                json_answer(StatusCode::NOT_FOUND, NOT_FOUND_WITHOUT_HTTP_CODE)
                            }
                        },
                    ),
                )
                .route(
                    "/v1/banking/accounts",
                    post(|| async { json_answer(StatusCode::CREATED, ACCOUNT) }),
                )
                .route(
                    "/merchant/v1/banking/transfers",
                    post(|| async { json_answer(StatusCode::OK, r#"{"received": true}"#) }),
                );
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            axum::serve(listener, app).await.unwrap();
        });
    });
    addr
}

/// A running `specval proxy`, its stderr lines collected as they come.
struct Proxy {
    child: Child,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    addr: SocketAddr,
    notifications: Option<SocketAddr>,
}

impl Proxy {
    /// Starts the proxy with `args` (after `proxy --listen 127.0.0.1:0`) and waits for the
    /// lines that say where it listens.
    fn start(args: &[&str]) -> Proxy {
        let mut child = Command::new(env!("CARGO_BIN_EXE_specval"))
            .args(["proxy", "--listen", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("specval runs");
        let stderr = child.stderr.take().unwrap();
        let (sender, lines) = channel();
        let all = Arc::new(Mutex::new(String::new()));
        let kept = all.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                kept.lock().unwrap().push_str(&line);
                kept.lock().unwrap().push('\n');
                let _ = sender.send(line);
            }
        });
        let mut proxy = Proxy {
            child,
            lines,
            stderr: all,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            notifications: None,
        };
        let wants_notifications = args.contains(&"--notifications-listen");
        let deadline = Instant::now() + PATIENCE;
        while proxy.addr.port() == 0 || (wants_notifications && proxy.notifications.is_none()) {
            let left = deadline.saturating_duration_since(Instant::now());
            match proxy.lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(rest) = line.strip_prefix("specval proxy: listening on http://") {
                        proxy.addr = rest.split(' ').next().unwrap().parse().unwrap();
                    }
                    if let Some(rest) =
                        line.strip_prefix("specval proxy: notifications listening on http://")
                    {
                        proxy.notifications =
                            Some(rest.split(' ').next().unwrap().parse().unwrap());
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("the proxy did not say where it listens"),
                Err(RecvTimeoutError::Disconnected) => {
                    let status = proxy.child.wait().unwrap();
                    panic!("the proxy exited early ({status}): {}", proxy.stderr());
                }
            }
        }
        proxy
    }

    /// Waits (bounded) for the proxy to exit; its status and standard output.
    fn wait(mut self) -> (ExitStatus, String, String) {
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the proxy did not exit: {}", self.stderr());
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut stdout = String::new();
        self.child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut stdout)
            .unwrap();
        // Let the reader thread take the last lines.
        let until = Instant::now() + Duration::from_secs(5);
        while self
            .lines
            .recv_timeout(until.saturating_duration_since(Instant::now()))
            .is_ok()
        {}
        (status, stdout, self.stderr())
    }

    fn interrupt(&self) {
        // SAFETY: kill(2) on our own child's pid, with a valid signal.
        let done = unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGINT) };
        assert_eq!(done, 0, "SIGINT sent");
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }
}

/// A raw HTTP/1.1 exchange (one request per connection): status, headers, body bytes.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Answer {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    stream.write_all(request.as_bytes()).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a complete response head");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
    }
}

const CREDENTIALS: [(&str, &str); 2] = [
    ("public-api-key", PUBLIC_KEY),
    ("private-secret-key", SECRET_KEY),
];

/// A request to send: method, path, headers, body.
type Sent<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)], &'a str);

/// The traffic of the main tests: a conforming getAccount, a 404 that lacks `http_code`,
/// and a createAccount whose body breaks the contract. Each answer is compared with the
/// upstream's own for the same request.
fn drive(proxy: SocketAddr, upstream: SocketAddr) {
    let good = format!("/v1/banking/accounts/{ACCOUNT_ID}");
    let unknown = format!("/v1/banking/accounts/{UNKNOWN_ID}?expand=balance");
    let create_headers = [
        CREDENTIALS[0],
        CREDENTIALS[1],
        ("content-type", "application/json"),
        ("x-idempotency-key", "2c4e6a8b-0d1f-4a3c-9e5b-7d9f1b3d5e01"),
    ];
    let requests: [Sent<'_>; 3] = [
        ("GET", &good, &CREDENTIALS, ""),
        ("GET", &unknown, &CREDENTIALS, ""),
        ("POST", "/v1/banking/accounts", &create_headers, BAD_CREATE),
    ];
    for (method, path, headers, body) in requests {
        let through = http(proxy, method, path, headers, body);
        let direct = http(upstream, method, path, headers, body);
        assert_eq!(through.status, direct.status, "{method} {path}");
        assert_eq!(
            through.body, direct.body,
            "{method} {path}: the bytes passed on"
        );
        let content_type = |a: &Answer| {
            a.headers
                .iter()
                .find(|(n, _)| n == "content-type")
                .map(|(_, v)| v.clone())
        };
        assert_eq!(content_type(&through), content_type(&direct));
    }
}

/// `(exchange, part, rule, pointer)` of each finding of a JSON report, sorted.
fn findings(report: &str) -> Vec<(u64, String, String, String)> {
    let report: Value = serde_json::from_str(report).unwrap_or_else(|e| panic!("{e}: {report}"));
    let mut found: Vec<_> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["exchange"].as_u64().unwrap(),
                f["part"].as_str().unwrap().to_string(),
                f["rule"].as_str().unwrap().to_string(),
                f["pointer"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    found.sort();
    found
}

fn rules(found: &[(u64, String, String, String)]) -> Vec<&str> {
    let mut rules: Vec<&str> = found.iter().map(|f| f.2.as_str()).collect();
    rules.sort_unstable();
    rules.dedup();
    rules
}

fn specval_check(recording: &Path) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_specval"))
        .args(["check", "--quiet", "--format", "json"])
        .arg(recording)
        .output()
        .unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

fn assert_no_credentials(what: &str, text: &str) {
    for planted in [PUBLIC_KEY, SECRET_KEY] {
        assert!(
            !text.contains(planted),
            "a credential in the {what}:\n{text}"
        );
    }
}

/// Record, stop by --max-exchanges, and compare the proxy's findings with `specval check`'s
/// of the recording; for one recording format.
fn record_and_recheck(extension: &str) {
    let upstream = upstream();
    let dir = tempfile::tempdir().unwrap();
    let recording = dir.path().join(format!("traffic.{extension}"));
    let report_file = dir.path().join("report.json");
    let proxy = Proxy::start(&[
        "--upstream",
        &format!("http://{upstream}"),
        "--record",
        recording.to_str().unwrap(),
        "--max-exchanges",
        "3",
        "--format",
        "json",
        "--output",
        report_file.to_str().unwrap(),
    ]);
    drive(proxy.addr, upstream);
    let (status, stdout, stderr) = proxy.wait();
    assert_eq!(status.code(), Some(1), "findings: exit 1\n{stderr}");
    assert!(stdout.is_empty(), "the report went to --output");
    let report = std::fs::read_to_string(&report_file).unwrap();
    let live = findings(&report);
    // The 404 without http_code (exchange 1) and the bad createAccount body (exchange 2);
    // nothing about the conforming getAccount (exchange 0).
    let expected: [(u64, &str, &str, &str); 4] = [
        (1, "response", "required", ""),
        (2, "request", "format", "/account_id"),
        (2, "request", "minLength", "/account_id"),
        (2, "request", "required", ""),
    ];
    let expected: Vec<_> = expected
        .iter()
        .map(|(e, p, r, at)| (*e, p.to_string(), r.to_string(), at.to_string()))
        .collect();
    assert_eq!(live, expected);
    // Each finding was printed as it happened.
    let printed = stderr
        .lines()
        .filter(|l| l.starts_with("specval proxy: #"))
        .count();
    assert_eq!(printed, live.len(), "{stderr}");

    let recorded = std::fs::read_to_string(&recording).unwrap();
    assert!(recorded.contains(specval::proxy::REDACTED), "{recorded}");
    let (code, rechecked) = specval_check(&recording);
    assert_eq!(code, 1, "{rechecked}");
    assert_eq!(
        findings(&rechecked),
        live,
        "the recording gives the same findings"
    );
    for (what, text) in [
        ("stderr", &stderr),
        ("report", &report),
        ("recording", &recorded),
    ] {
        assert_no_credentials(what, text);
    }
}

#[test]
fn records_jsonl_that_specval_check_reads_with_the_same_findings() {
    record_and_recheck("jsonl");
}

#[test]
fn records_har_that_specval_check_reads_with_the_same_findings() {
    record_and_recheck("har");
}

#[test]
fn sigint_ends_the_run_with_its_report_and_exit_code() {
    let upstream = upstream();
    let dir = tempfile::tempdir().unwrap();
    let recording = dir.path().join("traffic.har");
    let proxy = Proxy::start(&[
        "--upstream",
        &format!("http://{upstream}"),
        "--record",
        recording.to_str().unwrap(),
        "--format",
        "junit",
    ]);
    drive(proxy.addr, upstream);
    proxy.interrupt();
    let (status, stdout, stderr) = proxy.wait();
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stdout.starts_with("<?xml"),
        "a JUnit report on stdout: {stdout}"
    );
    assert_eq!(stdout.matches("<testcase").count(), 3, "{stdout}");
    assert!(
        stderr.contains("3 exchange(s) checked, 3 recorded"),
        "{stderr}"
    );
    let (code, rechecked) = specval_check(&recording);
    assert_eq!(code, 1);
    assert_eq!(findings(&rechecked).len(), 4, "{rechecked}");
    assert_no_credentials("report", &stdout);
    assert_no_credentials("stderr", &stderr);
}

#[test]
fn a_clean_run_exits_0_and_an_empty_one_1_unless_allowed() {
    let upstream = upstream();
    let proxy = Proxy::start(&[
        "--upstream",
        &format!("http://{upstream}"),
        "--max-exchanges",
        "1",
    ]);
    let answer = http(
        proxy.addr,
        "GET",
        &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
        &CREDENTIALS,
        "",
    );
    assert_eq!(answer.status, 200);
    let (status, stdout, stderr) = proxy.wait();
    assert_eq!(status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("clean"), "{stdout}");

    let proxy = Proxy::start(&[
        "--upstream",
        &format!("http://{upstream}"),
        "--format",
        "json",
    ]);
    proxy.interrupt();
    let (status, stdout, _) = proxy.wait();
    assert_eq!(status.code(), Some(1));
    assert_eq!(rules(&findings(&stdout)), ["no-exchanges"]);

    let proxy = Proxy::start(&["--upstream", &format!("http://{upstream}"), "--allow-empty"]);
    proxy.interrupt();
    let (status, _, _) = proxy.wait();
    assert_eq!(status.code(), Some(0));

    // A browser that only loaded a page's own files through the proxy: not checked, and no
    // exchange with the API, as `specval check` judges such a capture.
    let proxy = Proxy::start(&[
        "--upstream",
        &format!("http://{upstream}"),
        "--max-exchanges",
        "1",
        "--format",
        "json",
    ]);
    let answer = http(
        proxy.addr,
        "GET",
        "/static/app.js",
        &[("sec-fetch-dest", "script")],
        "",
    );
    assert_eq!(answer.status, 404);
    let (status, stdout, stderr) = proxy.wait();
    assert_eq!(status.code(), Some(1), "{stdout}{stderr}");
    assert_eq!(rules(&findings(&stdout)), ["no-exchanges"], "{stdout}");
}

/// A dead upstream: the client gets a 502, the run an `upstream-error` finding per exchange,
/// and the recording (either format) says so, so that `specval check` on it fails as the live
/// run did rather than pass a session that failed.
#[test]
fn a_dead_upstream_gets_the_client_a_502_and_the_run_a_finding() {
    let dead = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    for extension in ["jsonl", "har"] {
        let dir = tempfile::tempdir().unwrap();
        let recording = dir.path().join(format!("traffic.{extension}"));
        let proxy = Proxy::start(&[
            "--upstream",
            &format!("http://{dead}"),
            "--max-exchanges",
            "2",
            "--record",
            recording.to_str().unwrap(),
            "--format",
            "json",
        ]);
        for _ in 0..2 {
            let answer = http(
                proxy.addr,
                "GET",
                &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
                &CREDENTIALS,
                "",
            );
            assert_eq!(answer.status, 502, "still running after the first failure");
        }
        let (status, stdout, stderr) = proxy.wait();
        assert_eq!(status.code(), Some(1), "{stderr}");
        let found = findings(&stdout);
        assert_eq!(
            found,
            [
                (0, "response".into(), "upstream-error".into(), "".into()),
                (1, "response".into(), "upstream-error".into(), "".into()),
            ]
        );
        assert!(stderr.contains("upstream-error"), "{stderr}");
        let (code, rechecked) = specval_check(&recording);
        assert_eq!(code, 1, "{extension}: {rechecked}");
        assert_eq!(
            findings(&rechecked),
            found,
            "{extension}: the recording fails too"
        );
    }
}

#[test]
fn the_notifications_listener_checks_notifications_and_replies() {
    let upstream = upstream();
    let proxy = Proxy::start(&[
        "--upstream",
        &format!("http://{upstream}"),
        "--notifications-listen",
        "127.0.0.1:0",
        "--notifications-upstream",
        &format!("http://{upstream}/merchant"),
        "--max-exchanges",
        "1",
        "--format",
        "json",
    ]);
    let notifications = proxy.notifications.unwrap();
    let answer = http(
        notifications,
        "POST",
        "/v1/banking/transfers",
        &[("content-type", "application/json")],
        OUTGOING_NOTIFICATION,
    );
    assert_eq!(answer.status, 200);
    assert_eq!(answer.body, br#"{"received": true}"#);
    let (status, stdout, stderr) = proxy.wait();
    assert_eq!(status.code(), Some(1), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let finding = &report["findings"][0];
    assert_eq!(finding["part"], "notification", "{stdout}");
    assert_eq!(finding["rule"], "enum");
    assert_eq!(finding["pointer"], "/direction");
    assert_eq!(finding["operation"], "incomingTransfer");
}

#[test]
fn bad_arguments_and_a_taken_address_exit_2() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_specval"))
            .arg("proxy")
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let https = run(&[
        "--listen",
        "127.0.0.1:0",
        "--upstream",
        "https://api.example.com",
    ]);
    assert_eq!(https.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&https.stderr).contains("https upstreams are not supported"));
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let busy = run(&["--listen", &addr, "--upstream", "http://127.0.0.1:9"]);
    assert_eq!(busy.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&busy.stderr).contains("cannot listen on"));
    let unnamed = run(&[
        "--listen",
        "127.0.0.1:0",
        "--upstream",
        "http://127.0.0.1:9",
        "--record",
        "traffic.txt",
    ]);
    assert_eq!(unnamed.status.code(), Some(2));
    // A report or coverage page that could not be written at the session's end is refused
    // before it begins, naming the path given (not a temporary file) and the system's reason.
    for flag in ["-o", "--coverage"] {
        let unwritable = run(&[
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            "http://127.0.0.1:9",
            flag,
            "/nonexistent-dir-of-specval/report.json",
        ]);
        assert_eq!(unwritable.status.code(), Some(2), "{flag}");
        let stderr = String::from_utf8_lossy(&unwritable.stderr);
        assert!(
            stderr.contains("to /nonexistent-dir-of-specval/report.json: cannot create a file in /nonexistent-dir-of-specval: No such file or directory")
                && !stderr.contains("listening on")
                && !stderr.contains(".tmp"),
            "{stderr}"
        );
    }
}

#[test]
fn coverage_of_the_run_is_written_and_can_fail_it() {
    let upstream = upstream();
    let dir = tempfile::tempdir().unwrap();
    let coverage = dir.path().join("coverage.json");
    let proxy = Proxy::start(&[
        "--upstream",
        &format!("http://{upstream}"),
        "--max-exchanges",
        "1",
        "--coverage",
        coverage.to_str().unwrap(),
        "--min-coverage",
        "100",
    ]);
    let answer = http(
        proxy.addr,
        "GET",
        &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
        &CREDENTIALS,
        "",
    );
    assert_eq!(answer.status, 200);
    let (status, stdout, stderr) = proxy.wait();
    assert!(stdout.contains("clean"), "no finding: {stdout}");
    assert_eq!(status.code(), Some(1), "one GET is far from 100%: {stderr}");
    assert!(
        stderr.contains("specval proxy: contract coverage"),
        "{stderr}"
    );
    assert!(stderr.contains("below --min-coverage 100"), "{stderr}");
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&coverage).unwrap()).unwrap();
    let text = written.to_string();
    assert!(text.contains("getAccount"), "{text}");
}

#[test]
fn a_body_over_the_limit_is_streamed_through_unchecked_and_unrecorded() {
    let upstream = upstream();
    let dir = tempfile::tempdir().unwrap();
    let recording = dir.path().join("traffic.jsonl");
    let proxy = Proxy::start(&[
        "--upstream",
        &format!("http://{upstream}"),
        "--body-limit",
        "1K",
        "--max-exchanges",
        "2",
        "--record",
        recording.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let large = format!(r#"{{"padding": "{}"}}"#, "x".repeat(4096));
    let create_headers = [
        CREDENTIALS[0],
        CREDENTIALS[1],
        ("content-type", "application/json"),
        ("x-idempotency-key", "2c4e6a8b-0d1f-4a3c-9e5b-7d9f1b3d5e01"),
    ];
    let answer = http(
        proxy.addr,
        "POST",
        "/v1/banking/accounts",
        &create_headers,
        &large,
    );
    assert_eq!(answer.status, 201, "forwarded all the same");
    let answer = http(
        proxy.addr,
        "GET",
        &format!("/v1/banking/accounts/{UNKNOWN_ID}"),
        &CREDENTIALS,
        "",
    );
    assert_eq!(answer.status, 404);
    let (status, stdout, stderr) = proxy.wait();
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("1 exchange(s) checked, 1 recorded, 1 over the body limit"),
        "{stderr}"
    );
    // The checked exchange is number 0 in the report and the first line of the recording.
    assert_eq!(
        findings(&stdout),
        [(0, "response".into(), "required".into(), "".into())]
    );
    let (_, rechecked) = specval_check(&recording);
    assert_eq!(findings(&rechecked), findings(&stdout));
}

/// Every spelling in which `secret` can stand in text, lower-cased (compare with a
/// lower-cased text): as it is, percent-encoded (hex in either case), and escaped in a JSON
/// string (`\/`, `\u00XX`).
fn spellings(secret: &str) -> Vec<String> {
    let percent = |upper: bool| {
        secret
            .bytes()
            .map(|b| match b {
                b'/' | b'+' | b'=' if upper => format!("%{b:02X}"),
                b'/' | b'+' | b'=' => format!("%{b:02x}"),
                _ => (b as char).to_string(),
            })
            .collect::<String>()
    };
    let unicode: String = secret
        .chars()
        .map(|c| match c {
            '/' | 's' => format!("\\u{:04x}", c as u32),
            _ => c.to_string(),
        })
        .collect();
    [
        secret.to_string(),
        percent(true),
        percent(false),
        secret.replace('/', "\\/"),
        unicode,
    ]
    .iter()
    .map(|spelling| spelling.to_lowercase())
    .collect()
}

/// A credential the traffic repeats, in the path, a form body or a JSON body, percent-encoded
/// or JSON-escaped, stays out of the recording (both formats) and the live JUnit report,
/// whose testcase names quote the path.
#[test]
fn a_credential_repeated_in_any_spelling_stays_out_of_the_recording_and_the_report() {
    const KEY: &str = "sk_live_PLANTED/Secret+8d=";
    let encoded = KEY
        .replace('/', "%2F")
        .replace('+', "%2B")
        .replace('=', "%3D");
    let credentials = [CREDENTIALS[0], ("private-secret-key", KEY)];
    let form = [
        credentials[0],
        credentials[1],
        ("content-type", "application/x-www-form-urlencoded"),
    ];
    let json = [
        credentials[0],
        credentials[1],
        ("content-type", "application/json"),
    ];
    let path = format!("/v1/banking/accounts/{encoded}");
    // Lower-case hex, as some clients write it.
    let form_body = format!(
        "account_id={}",
        KEY.replace('/', "%2f")
            .replace('+', "%2b")
            .replace('=', "%3d")
    );
    let escaped = format!(r#"{{"account_id": "{}"}}"#, KEY.replace('/', "\\/"));
    let unicode = r#"{"account_id": "\u0073k_live_PLANTED\u002FSecret+8d="}"#;
    let requests: [Sent<'_>; 4] = [
        ("GET", &path, &credentials, ""),
        ("POST", "/v1/banking/accounts", &form, &form_body),
        ("POST", "/v1/banking/accounts", &json, &escaped),
        ("POST", "/v1/banking/accounts", &json, unicode),
    ];
    let upstream = upstream();
    for extension in ["jsonl", "har"] {
        let dir = tempfile::tempdir().unwrap();
        let recording = dir.path().join(format!("traffic.{extension}"));
        let report_file = dir.path().join("report.xml");
        let proxy = Proxy::start(&[
            "--upstream",
            &format!("http://{upstream}"),
            "--record",
            recording.to_str().unwrap(),
            "--max-exchanges",
            "4",
            "--format",
            "junit",
            "--output",
            report_file.to_str().unwrap(),
        ]);
        for (method, path, headers, body) in requests {
            http(proxy.addr, method, path, headers, body);
        }
        let (_, _, stderr) = proxy.wait();
        let recorded = std::fs::read_to_string(&recording).unwrap();
        let report = std::fs::read_to_string(&report_file).unwrap();
        assert!(report.contains("REDACTED"), "the path is named: {report}");
        // Each exchange is recorded, its key header redacted.
        assert_eq!(
            recorded.lines().filter(|l| l.contains("REDACTED")).count(),
            4,
            "{recorded}"
        );
        for (what, text) in [
            ("stderr", &stderr),
            ("report", &report),
            ("recording", &recorded),
        ] {
            let text = text.to_lowercase();
            for spelling in spellings(KEY) {
                assert!(
                    !text.contains(&spelling),
                    "{spelling} in the {what} ({extension}):\n{text}"
                );
            }
        }
    }
}
