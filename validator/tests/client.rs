//! Client-side checks (`specval::client`): a generated client with `ClientCheck`'s observer
//! against a service on 127.0.0.1 that keeps or breaks the contract in known ways.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use orchestration_api::client::Client;
use orchestration_api::credentials::Credentials;
use orchestration_api::retry::RetryPolicy;
use specval::client::ClientCheck;
use uuid::Uuid;

const PUBLIC_KEY: &str = "pk_client_check_4Qz81";
const SECRET_KEY: &str = "sk_client_check_Vb7m2";

/// The service: what `GET /v1/banking/accounts/{id}` answers depends on the id's last digit.
async fn serve() -> String {
    let flaky = Arc::new(AtomicU32::new(0));
    let app = Router::new().route(
        "/v1/banking/accounts/{id}",
        get(move |Path(id): Path<String>| {
            let flaky = flaky.clone();
            async move {
                let json = |status: StatusCode, body: &'static str| {
                    (status, [("content-type", "application/json")], body).into_response()
                };
                match id.chars().last() {
                    // Keeps the contract.
                    Some('1') => json(StatusCode::OK, r#"{"id": "acct_1", "currency": "USD"}"#),
                    // A currency of two letters: the typed client takes it, the contract does not.
                    Some('2') => json(StatusCode::OK, r#"{"id": "acct_1", "currency": "US"}"#),
                    // The error body without its `http_code`.
                    Some('3') => json(
                        StatusCode::NOT_FOUND,
                        r#"{"code": "ACCOUNT_NOT_FOUND", "messages": ["no such account"]}"#,
                    ),
                    // A status the operation does not document.
                    Some('4') => json(StatusCode::IM_A_TEAPOT, r#"{}"#),
                    // A 503 first (retried), then the account.
                    Some('5') if flaky.fetch_add(1, Ordering::SeqCst) == 0 => json(
                        StatusCode::SERVICE_UNAVAILABLE,
                        r#"{"code": "UNAVAILABLE", "messages": [], "http_code": 503}"#,
                    ),
                    _ => json(StatusCode::OK, r#"{"id": "acct_1", "currency": "USD"}"#),
                }
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{address}/v1")
}

fn checks() -> ClientCheck {
    ClientCheck::new(Arc::new(
        specval::Contract::embedded().expect("embedded contract"),
    ))
}

fn client(base: &str, checks: &ClientCheck, retry: RetryPolicy) -> Client {
    Client::builder(base, Credentials::new(PUBLIC_KEY, SECRET_KEY))
        .timeout(Duration::from_secs(5))
        .retry(RetryPolicy {
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_millis(5),
            ..retry
        })
        .observe(checks.observer())
        .build()
        .unwrap()
}

fn id(last: char) -> Uuid {
    format!("6f1a5c1e-0000-4000-8000-00000000000{last}")
        .parse()
        .unwrap()
}

/// (rule, pointer) of each finding.
fn rules(checks: &ClientCheck) -> Vec<(String, String)> {
    checks
        .findings()
        .into_iter()
        .map(|finding| (finding.rule.to_string(), finding.pointer))
        .collect()
}

#[tokio::test]
async fn answers_that_keep_the_contract_leave_no_finding() {
    let base = serve().await;
    let checks = checks();
    let client = client(&base, &checks, RetryPolicy::none());
    client.get_account(&id('1')).await.expect("the account");
    client.get_account(&id('1')).await.expect("the account");
    assert_eq!(checks.checked(), 2);
    assert_eq!(rules(&checks), []);
    checks.assert_clean();
}

#[tokio::test]
async fn each_way_the_service_drifts_is_a_finding_with_its_rule_and_place() {
    let base = serve().await;
    let checks = checks();
    let client = client(&base, &checks, RetryPolicy::none());

    // The typed client accepts this answer (its bindings are lenient); the check does not.
    let account = client
        .get_account(&id('2'))
        .await
        .expect("lenient bindings take it");
    assert_eq!(account.currency.as_deref(), Some("US"));
    assert_eq!(
        rules(&checks),
        [("minLength".to_string(), "/currency".to_string())]
    );
    let finding = &checks.findings()[0];
    assert_eq!(finding.operation.as_deref(), Some("getAccount"));
    assert_eq!(finding.part, specval::finding::Part::Response);

    checks.take_findings();
    assert!(client.get_account(&id('3')).await.is_err());
    assert_eq!(rules(&checks), [("required".to_string(), String::new())]);
    assert!(
        checks.findings()[0].message.contains("http_code"),
        "{:?}",
        checks.findings()
    );

    checks.take_findings();
    assert!(client.get_account(&id('4')).await.is_err());
    assert_eq!(
        rules(&checks),
        [("status-documented".to_string(), String::new())]
    );
    assert_eq!(checks.checked(), 3);
}

#[tokio::test]
async fn every_attempt_of_a_retried_call_is_judged() {
    let base = serve().await;
    let checks = checks();
    let client = client(
        &base,
        &checks,
        RetryPolicy {
            max_attempts: 2,
            ..RetryPolicy::default()
        },
    );
    client
        .get_account(&id('5'))
        .await
        .expect("the second attempt");
    assert_eq!(
        checks.checked(),
        2,
        "the 503 and the 200 were both observed"
    );
    let findings = checks.findings();
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0].rule, "status-documented");
    assert_eq!(findings[0].exchange, 0, "the first attempt's");
}

#[tokio::test]
async fn assert_clean_names_each_finding_and_never_a_credential() {
    let base = serve().await;
    let checks = checks();
    let client = client(&base, &checks, RetryPolicy::none());
    let _ = client.get_account(&id('2')).await;
    let _ = client.get_account(&id('3')).await;
    let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| checks.assert_clean()))
        .expect_err("findings");
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(
        message.contains("2 finding(s) in 2 exchange(s)"),
        "{message}"
    );
    assert!(
        message.contains("exchange 0 getAccount: response /currency: ")
            && message.contains("(rule minLength"),
        "{message}"
    );
    assert!(message.contains("(rule required"), "{message}");
    let everything = format!("{message}{:?}", checks.findings());
    assert!(!everything.contains(PUBLIC_KEY) && !everything.contains(SECRET_KEY));
}

/// The text of a caught panic.
fn panic_text(panic: Box<dyn std::any::Any + Send>) -> String {
    match panic.downcast::<String>() {
        Ok(text) => *text,
        Err(panic) => panic
            .downcast_ref::<&str>()
            .map(|text| text.to_string())
            .unwrap_or_default(),
    }
}

#[test]
fn a_check_that_observed_nothing_is_not_clean() {
    let panic = std::panic::catch_unwind(|| checks().assert_clean()).expect_err("nothing seen");
    let message = panic_text(panic);
    assert!(message.contains("no exchange was observed"), "{message}");
}

#[test]
fn any_http_exchange_is_judged_its_request_too() {
    // Not only a generated client's: a test harness or a reqwest middleware hands `http`
    // messages over the same way.
    let checks = checks();
    let answer = || {
        http::Response::builder()
            .status(200)
            .header("content-type", "application/json")
            .body(br#"{"id": "acct_1"}"#.to_vec())
            .unwrap()
    };
    let without_credentials = http::Request::get(
        "http://127.0.0.1:1/v1/banking/accounts/6f1a5c1e-0000-4000-8000-000000000001",
    )
    .body(Vec::new())
    .unwrap();
    let findings = checks.observe(&without_credentials, &answer());
    let found: Vec<_> = findings.iter().map(|f| (f.rule.as_str(), f.part)).collect();
    assert_eq!(
        found,
        [("credentials", specval::finding::Part::Response)],
        "answered 200, not 401"
    );

    let bad_id = http::Request::get("http://127.0.0.1:1/v1/banking/accounts/not-a-uuid")
        .header("public-api-key", PUBLIC_KEY)
        .header("private-secret-key", SECRET_KEY)
        .body(Vec::new())
        .unwrap();
    let findings = checks.observe(&bad_id, &answer());
    assert!(
        findings
            .iter()
            .any(|f| f.part == specval::finding::Part::Request && f.pointer.contains("account_id")),
        "{findings:?}"
    );
    assert_eq!(checks.checked(), 2);
}
