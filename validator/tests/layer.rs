// Over 600 lines on purpose: one test binary per feature keeps link time down.
//! The tower layer (`specval::layer`, feature `tower`) around small axum routers that answer
//! like the API: documented and undocumented bodies, report and enforce modes, the body
//! limit, and credentials kept out of findings and logs.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::io::Write;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use bytes::Bytes;
use http_body::Frame;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use specval::layer::ContractLayer;
use specval::{Contract, Finding};
use tower::{Layer, ServiceExt};

const ACCOUNT_PATH: &str = "/v1/banking/accounts/6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b";
const PUBLIC_KEY: &str = "pk_live_PUBLICVALUE_4b1d9e";
const SECRET_KEY: &str = "sk_live_SECRETVALUE_7c2a0f";

/// A conforming getAccount 200 body, as the recorded clean traffic has it.
const ACCOUNT: &str = r#"{"id": "acct_2f7c9a1e4b6d", "entity_id": "ent_8b3d5f7a9c1e", "onboarding_id": "onb_4e6a8c0b2d4f", "account_id": "6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b", "provider": {"account_id": "pa_5521903"}, "account_type": "CHECKING", "status": "ACTIVE", "account_number": "000123456789", "routing_number": "021000021", "iban": null, "currency": "USD", "balance": {"available": 1250.5, "current": 1500.5, "pending": 250}, "account_details": {"account_name": "Acme Marketplace LLC", "sort_code": null, "bsb": null, "swift": "CHASUS33"}, "payment_rails": {"incoming": ["ACH_STANDARD", "WIRE"], "outgoing": ["ACH_STANDARD"]}, "supports_book_transfers": true, "created_at": "2024-05-14T15:20:11Z", "updated_at": "2024-05-20T09:02:45Z"}"#;

/// A 404 error body without the required `http_code`, spaced oddly so that a body passed on
/// byte for byte can be told from one serialized again.
const NOT_FOUND_WITHOUT_HTTP_CODE: &str =
    "{ \"code\" :  \"ACCOUNT_NOT_FOUND\",\n  \"messages\" : [ \"Account does not exist\" ] }";

fn contract() -> Arc<Contract> {
    static CONTRACT: OnceLock<Arc<Contract>> = OnceLock::new();
    CONTRACT
        .get_or_init(|| Arc::new(Contract::embedded().expect("the embedded contract")))
        .clone()
}

/// Findings handed to the layer's sink.
#[derive(Clone, Default)]
struct Collected(Arc<Mutex<Vec<Finding>>>);

impl Collected {
    fn layer(&self) -> ContractLayer {
        let sink = self.0.clone();
        ContractLayer::new(contract())
            .on_finding(move |finding| sink.lock().unwrap().push(finding.clone()))
    }

    fn findings(&self) -> Vec<Finding> {
        self.0.lock().unwrap().clone()
    }
}

fn json_answer(status: StatusCode, body: &'static str) -> axum::response::Response {
    (status, [("content-type", "application/json")], body).into_response()
}

/// A small API: getAccount answers `get_body` with `get_status`, createAccount answers 201
/// with an account and keeps the body it received. `calls` counts the handlers' calls.
#[derive(Clone, Default)]
struct Api {
    calls: Arc<AtomicUsize>,
    received: Arc<Mutex<Option<Bytes>>>,
}

impl Api {
    fn router(&self, get_status: StatusCode, get_body: &'static str) -> Router {
        let calls = self.calls.clone();
        let get_account = move || {
            calls.fetch_add(1, Ordering::SeqCst);
            async move { json_answer(get_status, get_body) }
        };
        let calls = self.calls.clone();
        let received = self.received.clone();
        let create_account = move |body: Bytes| {
            calls.fetch_add(1, Ordering::SeqCst);
            *received.lock().unwrap() = Some(body);
            async move { json_answer(StatusCode::CREATED, ACCOUNT) }
        };
        Router::new()
            .route("/v1/banking/accounts/{account_id}", get(get_account))
            .route("/v1/banking/accounts", post(create_account))
    }

    fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }
}

fn get_account() -> http::Request<axum::body::Body> {
    http::Request::get(ACCOUNT_PATH)
        .header("public-api-key", PUBLIC_KEY)
        .header("private-secret-key", SECRET_KEY)
        .header("accept", "application/json")
        .body(axum::body::Body::empty())
        .unwrap()
}

fn create_account(body: axum::body::Body) -> http::Request<axum::body::Body> {
    http::Request::post("/v1/banking/accounts")
        .header("public-api-key", PUBLIC_KEY)
        .header("private-secret-key", SECRET_KEY)
        .header("content-type", "application/json")
        .header("x-idempotency-key", "2c4e6a8b-0d1f-4a3c-9e5b-7d9f1b3d5e01")
        .body(body)
        .unwrap()
}

const GOOD_CREATE: &str = r#"{"account_id": "6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b", "onboarding_id": "onb_4e6a8c0b2d4f", "account_type": "CHECKING", "currency": "USD"}"#;
/// Lacks the required `currency`, and `account_id` is not a UUID.
const BAD_CREATE: &str = r#"{"account_id": "not-a-uuid", "onboarding_id": "onb_4e6a8c0b2d4f", "account_type": "CHECKING"}"#;

async fn body_of<B>(response: http::Response<B>) -> Bytes
where
    B: http_body::Body,
    B::Error: std::fmt::Debug,
{
    response.into_body().collect().await.unwrap().to_bytes()
}

/// Bounds every test: none should take more than a few seconds.
async fn bounded<F: std::future::Future>(test: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(30), test)
        .await
        .expect("the test took more than 30 s")
}

#[tokio::test]
async fn conforming_exchanges_give_no_finding() {
    bounded(async {
        let collected = Collected::default();
        let layer = collected.layer();
        let stats = layer.stats();
        let api = Api::default();
        let service = layer.layer(api.router(StatusCode::OK, ACCOUNT));

        let response = service.clone().oneshot(get_account()).await.unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(body_of(response).await, ACCOUNT.as_bytes());

        let request = create_account(GOOD_CREATE.into());
        let response = service.oneshot(request).await.unwrap();
        assert_eq!(response.status(), 201);
        assert_eq!(
            api.received.lock().unwrap().as_deref(),
            Some(GOOD_CREATE.as_bytes()),
            "the request body reaches the service unchanged"
        );

        assert_eq!(collected.findings(), []);
        assert_eq!(stats.checked(), 2);
        assert_eq!(stats.findings(), 0);
        assert_eq!(stats.skipped_for_size(), 0);
        assert_eq!(api.calls(), 2);
    })
    .await;
}

#[tokio::test]
async fn missing_required_member_is_reported_and_the_body_passes_byte_for_byte() {
    bounded(async {
        let collected = Collected::default();
        let layer = collected.layer();
        let stats = layer.stats();
        let api = Api::default();
        let service = layer.layer(api.router(StatusCode::NOT_FOUND, NOT_FOUND_WITHOUT_HTTP_CODE));

        let response = service.oneshot(get_account()).await.unwrap();
        assert_eq!(response.status(), 404);
        assert_eq!(
            response.headers()["content-type"],
            "application/json",
            "headers pass unchanged"
        );
        assert_eq!(
            body_of(response).await,
            NOT_FOUND_WITHOUT_HTTP_CODE.as_bytes()
        );

        let findings = collected.findings();
        assert_eq!(findings.len(), 1, "{findings:#?}");
        let finding = &findings[0];
        assert_eq!(finding.rule, "required");
        assert_eq!(finding.part, specval::finding::Part::Response);
        assert_eq!(finding.operation.as_deref(), Some("getAccount"));
        assert_eq!(finding.source, "tower");
        assert!(
            finding.message.contains("http_code"),
            "the finding names the member: {finding:?}"
        );
        assert_eq!(stats.checked(), 1);
        assert_eq!(stats.findings(), 1);
    })
    .await;
}

#[tokio::test]
async fn in_background_the_answer_does_not_wait_for_its_check_and_every_finding_arrives() {
    bounded(async {
        // A sink that holds the checking thread until the test lets it go: if the answer
        // waited for its check, the calls below would never return.
        let gate = Arc::new((Mutex::new(false), std::sync::Condvar::new()));
        let collected = Collected::default();
        let (sink, held) = (collected.0.clone(), gate.clone());
        let layer = ContractLayer::new(contract())
            .on_finding(move |finding| {
                let (open, opened) = &*held;
                let mut open = open.lock().unwrap();
                while !*open {
                    open = opened.wait(open).unwrap();
                }
                sink.lock().unwrap().push(finding.clone());
            })
            .check_in_background(1)
            .expect("a checking thread");
        let stats = layer.stats();
        let api = Api::default();
        let service = layer.layer(api.router(StatusCode::NOT_FOUND, NOT_FOUND_WITHOUT_HTTP_CODE));

        for _ in 0..3 {
            let response = service.clone().oneshot(get_account()).await.unwrap();
            assert_eq!(response.status(), 404);
            assert_eq!(
                body_of(response).await,
                NOT_FOUND_WITHOUT_HTTP_CODE.as_bytes()
            );
        }
        assert_eq!(stats.pending(), 3, "all three wait for the held thread");
        assert!(collected.findings().is_empty());
        assert!(!stats.wait_idle(Duration::from_millis(20)), "still held");

        *gate.0.lock().unwrap() = true;
        gate.1.notify_all();
        assert!(stats.wait_idle(Duration::from_secs(10)));
        assert_eq!(stats.pending(), 0);
        assert_eq!(stats.checked(), 3);
        let rules: Vec<String> = collected
            .findings()
            .into_iter()
            .map(|f| f.rule.to_string())
            .collect();
        assert_eq!(rules, ["required", "required", "required"]);
    })
    .await;
}

#[tokio::test]
async fn findings_equal_those_of_specval_check_on_the_same_exchange() {
    bounded(async {
        let collected = Collected::default();
        let api = Api::default();
        let service = collected
            .layer()
            .layer(api.router(StatusCode::NOT_FOUND, NOT_FOUND_WITHOUT_HTTP_CODE));
        service.oneshot(get_account()).await.unwrap();

        // The same exchange as a JSON Lines record, through `specval check`'s path.
        let record = json!({
            "request": {"method": "GET", "path": ACCOUNT_PATH, "headers": {
                "public-api-key": PUBLIC_KEY, "private-secret-key": SECRET_KEY,
                "accept": "application/json"}},
            "response": {"status": 404, "headers": {"content-type": "application/json"},
                "bodyText": NOT_FOUND_WITHOUT_HTTP_CODE},
        });
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("one.jsonl");
        std::fs::write(&path, format!("{record}\n")).unwrap();
        let report = specval::run::run(
            &contract(),
            &[path.to_string_lossy().into_owned()],
            specval::run::RunOptions::default(),
        )
        .unwrap();
        let strip = |f: &Finding| (f.part, f.pointer.clone(), f.rule.clone(), f.message.clone());
        let from_layer: Vec<_> = collected.findings().iter().map(strip).collect();
        let from_check: Vec<_> = report.findings.iter().map(strip).collect();
        assert_eq!(from_layer, from_check);
    })
    .await;
}

/// Most servers compress an answer for a client that accepts it. The layer judges what the
/// compressed bytes encode (before, every compressed JSON body was "not JSON"), and passes the
/// bytes on as they were: the client still gets them compressed.
#[tokio::test]
async fn a_compressed_answer_is_judged_by_what_it_encodes_and_passed_on_compressed() {
    fn gzip(text: &str) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(text.as_bytes()).unwrap();
        encoder.finish().unwrap()
    }
    bounded(async {
        for (status, body, rules) in [
            (StatusCode::OK, ACCOUNT, vec![]),
            (
                StatusCode::NOT_FOUND,
                NOT_FOUND_WITHOUT_HTTP_CODE,
                vec!["required".to_string()],
            ),
        ] {
            let collected = Collected::default();
            let compressed = gzip(body);
            let sent = compressed.clone();
            let service = collected.layer().layer(Router::new().route(
                "/v1/banking/accounts/{account_id}",
                get(move || async move {
                    (
                        status,
                        [
                            ("content-type", "application/json"),
                            ("content-encoding", "gzip"),
                        ],
                        sent,
                    )
                        .into_response()
                }),
            ));
            let response = service.oneshot(get_account()).await.unwrap();
            assert_eq!(response.headers()["content-encoding"], "gzip");
            assert_eq!(body_of(response).await, compressed, "passed on as sent");
            let found: Vec<String> = collected
                .findings()
                .iter()
                .map(|f| f.rule.to_string())
                .collect();
            assert_eq!(found, rules, "{status}");
        }
    })
    .await;
}

#[tokio::test]
async fn enforce_answers_a_bad_request_400_without_calling_the_service() {
    bounded(async {
        let collected = Collected::default();
        let layer = collected.layer().enforce(true);
        let stats = layer.stats();
        let api = Api::default();
        let service = layer.layer(api.router(StatusCode::OK, ACCOUNT));

        let response = service
            .clone()
            .oneshot(create_account(BAD_CREATE.into()))
            .await
            .unwrap();
        assert_eq!(response.status(), 400);
        assert_eq!(response.headers()["content-type"], "application/json");
        let body: Value = serde_json::from_slice(&body_of(response).await).unwrap();
        assert_eq!(api.calls(), 0, "the service never saw the request");
        assert_eq!(body["code"], "VALIDATION_ERROR");
        assert_eq!(body["http_code"], 400);
        let messages = body["messages"].as_array().unwrap();
        assert!(
            messages
                .iter()
                .any(|m| m.as_str().unwrap().contains("currency")),
            "{messages:?}"
        );
        assert!(
            messages
                .iter()
                .any(|m| m.as_str().unwrap().starts_with("/account_id")),
            "{messages:?}"
        );
        // The answer is the API's documented error body.
        let violations = contract().validate("Error", &body, false).unwrap();
        assert!(violations.is_empty(), "{violations:?}");
        assert_eq!(stats.rejected(), 1);
        assert_eq!(stats.checked(), 1);
        let findings = collected.findings();
        assert!(
            findings.iter().any(|f| f.rule == "required"),
            "{findings:?}"
        );
        assert!(findings.iter().any(|f| f.rule == "format"), "{findings:?}");

        // A request that keeps the contract goes through.
        let response = service
            .oneshot(create_account(GOOD_CREATE.into()))
            .await
            .unwrap();
        assert_eq!(response.status(), 201);
        assert_eq!(api.calls(), 1);
        assert_eq!(stats.rejected(), 1);
    })
    .await;
}

#[tokio::test]
async fn enforce_lets_a_request_without_credentials_reach_the_service_for_its_401() {
    bounded(async {
        let collected = Collected::default();
        let layer = collected.layer().enforce(true);
        let api = Api::default();
        let unauthenticated = r#"{"code": "NOT_AUTHENTICATED", "messages": ["Authentication headers missing"], "http_code": 401}"#;
        let service = layer.layer(api.router(StatusCode::UNAUTHORIZED, unauthenticated));
        let request = http::Request::get(ACCOUNT_PATH)
            .body(axum::body::Body::empty())
            .unwrap();
        let response = service.oneshot(request).await.unwrap();
        assert_eq!(response.status(), 401);
        assert_eq!(api.calls(), 1);
        assert_eq!(collected.findings(), [], "a 401 is the documented answer");
    })
    .await;
}

#[tokio::test]
async fn enforce_replaces_a_bad_response_only_when_asked() {
    bounded(async {
        // Reported, not replaced.
        let collected = Collected::default();
        let api = Api::default();
        let service = collected
            .layer()
            .enforce(true)
            .layer(api.router(StatusCode::NOT_FOUND, NOT_FOUND_WITHOUT_HTTP_CODE));
        let response = service.oneshot(get_account()).await.unwrap();
        assert_eq!(response.status(), 404);
        assert_eq!(
            body_of(response).await,
            NOT_FOUND_WITHOUT_HTTP_CODE.as_bytes()
        );
        assert_eq!(collected.findings().len(), 1);

        // Replaced by a 500 with the error body.
        let collected = Collected::default();
        let layer = collected.layer().enforce(true).replace_bad_responses(true);
        let stats = layer.stats();
        let service = layer.layer(api.router(StatusCode::NOT_FOUND, NOT_FOUND_WITHOUT_HTTP_CODE));
        let response = service.clone().oneshot(get_account()).await.unwrap();
        assert_eq!(response.status(), 500);
        let body: Value = serde_json::from_slice(&body_of(response).await).unwrap();
        assert_eq!(body["http_code"], 500);
        assert!(
            contract()
                .validate("Error", &body, false)
                .unwrap()
                .is_empty(),
            "{body}"
        );
        assert_eq!(stats.replaced(), 1);
        assert_eq!(collected.findings().len(), 1);

        // In report mode the setting does nothing.
        let collected = Collected::default();
        let service = collected
            .layer()
            .replace_bad_responses(true)
            .layer(api.router(StatusCode::NOT_FOUND, NOT_FOUND_WITHOUT_HTTP_CODE));
        let response = service.oneshot(get_account()).await.unwrap();
        assert_eq!(response.status(), 404);
    })
    .await;
}

/// A body that comes in chunks and announces no size.
struct Chunks(VecDeque<Bytes>);

impl http_body::Body for Chunks {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Poll::Ready(self.0.pop_front().map(|chunk| Ok(Frame::data(chunk))))
    }
}

#[tokio::test]
async fn a_body_over_the_limit_is_passed_through_unchecked_and_counted() {
    bounded(async {
        // A response over the limit (announced by its length): it would break the contract,
        // but it is not read, so nothing is reported.
        let collected = Collected::default();
        let layer = collected.layer().enforce(true).body_limit(64);
        let stats = layer.stats();
        let api = Api::default();
        let service = layer.layer(api.router(StatusCode::NOT_FOUND, NOT_FOUND_WITHOUT_HTTP_CODE));
        let response = service.clone().oneshot(get_account()).await.unwrap();
        assert_eq!(response.status(), 404);
        assert_eq!(
            body_of(response).await,
            NOT_FOUND_WITHOUT_HTTP_CODE.as_bytes()
        );
        assert_eq!(stats.skipped_for_size(), 1);
        assert_eq!(stats.checked(), 0);
        assert_eq!(collected.findings(), []);

        // A request over the limit, in chunks of unknown total: read up to the limit, then
        // passed on whole, even in enforce mode and though it breaks the contract.
        let chunks: VecDeque<Bytes> = BAD_CREATE
            .as_bytes()
            .chunks(10)
            .map(Bytes::copy_from_slice)
            .collect();
        let request = create_account(axum::body::Body::new(Chunks(chunks)));
        let response = service.oneshot(request).await.unwrap();
        assert_eq!(response.status(), 201, "not rejected");
        assert_eq!(api.calls(), 2);
        assert_eq!(
            api.received.lock().unwrap().as_deref(),
            Some(BAD_CREATE.as_bytes()),
            "the service got the whole body"
        );
        assert_eq!(stats.skipped_for_size(), 2);
        assert_eq!(stats.checked(), 0);
        assert_eq!(stats.rejected(), 0);
        assert_eq!(collected.findings(), []);
    })
    .await;
}

#[tokio::test]
async fn a_body_within_the_limit_in_chunks_is_checked_and_passed_on_whole() {
    bounded(async {
        let collected = Collected::default();
        let layer = collected.layer().enforce(true);
        let api = Api::default();
        let service = layer.layer(api.router(StatusCode::OK, ACCOUNT));
        let chunks: VecDeque<Bytes> = GOOD_CREATE
            .as_bytes()
            .chunks(7)
            .map(Bytes::copy_from_slice)
            .collect();
        let response = service
            .oneshot(create_account(axum::body::Body::new(Chunks(chunks))))
            .await
            .unwrap();
        assert_eq!(response.status(), 201);
        assert_eq!(
            api.received.lock().unwrap().as_deref(),
            Some(GOOD_CREATE.as_bytes())
        );
        assert_eq!(collected.findings(), []);
    })
    .await;
}

/// `tracing` output written to memory.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

/// The buffer every log line of this test binary goes to, from the first call on.
fn captured_logs() -> &'static Captured {
    static LOGS: std::sync::OnceLock<Captured> = std::sync::OnceLock::new();
    LOGS.get_or_init(|| {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_max_level(tracing::Level::TRACE)
            .with_writer(move || writer.clone())
            .finish();
        tracing::subscriber::set_global_default(subscriber).expect("one global subscriber");
        captured
    })
}

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn credential_values_never_appear_in_findings_logs_or_answers() {
    // A global subscriber: the layer may log from another thread than the test's (a scoped
    // one then misses it, and its callsites' interest can be cached as never), and the logs of
    // the other tests of this binary are checked for credentials too.
    let captured = captured_logs();
    let mut answers = Vec::new();
    bounded(async {
        let collected = Collected::default();
        let api = Api::default();
        let report = collected
            .layer()
            .layer(api.router(StatusCode::NOT_FOUND, NOT_FOUND_WITHOUT_HTTP_CODE));
        let enforce = collected
            .layer()
            .enforce(true)
            .check_options(specval::check::CheckOptions {
                strict: true,
                show_values: true,
            })
            .layer(api.router(StatusCode::NOT_FOUND, NOT_FOUND_WITHOUT_HTTP_CODE));
        // A bad response, a bad request, and credentials in a query and a cookie too.
        let response = report.oneshot(get_account()).await.unwrap();
        answers.push(body_of(response).await);
        let response = enforce
            .clone()
            .oneshot(create_account(BAD_CREATE.into()))
            .await
            .unwrap();
        answers.push(body_of(response).await);
        let uri = format!("{ACCOUNT_PATH}?private-secret-key={SECRET_KEY}");
        let request = http::Request::get(uri)
            .header("public-api-key", PUBLIC_KEY)
            .header("private-secret-key", SECRET_KEY)
            .header("cookie", format!("private-secret-key={SECRET_KEY}"))
            .body(axum::body::Body::empty())
            .unwrap();
        let response = enforce.oneshot(request).await.unwrap();
        answers.push(body_of(response).await);

        let findings = collected.findings();
        assert!(findings.len() >= 4, "{findings:#?}");
        let text = serde_json::to_string(&findings).unwrap();
        for secret in [PUBLIC_KEY, SECRET_KEY] {
            assert!(
                !text.contains(secret),
                "a finding shows a credential: {text}"
            );
        }
    })
    .await;
    let logs = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    assert!(
        logs.contains("WARN") && logs.contains("specval::layer") && logs.contains("http_code"),
        "the findings are logged: {logs}"
    );
    for secret in [PUBLIC_KEY, SECRET_KEY] {
        assert!(!logs.contains(secret), "the log shows a credential: {logs}");
        for answer in &answers {
            let answer = String::from_utf8_lossy(answer);
            assert!(
                !answer.contains(secret),
                "an answer shows a credential: {answer}"
            );
        }
    }
}

#[tokio::test]
async fn serves_over_loopback_as_an_axum_router_layer() {
    bounded(async {
        let collected = Collected::default();
        let layer = collected.layer().enforce(true);
        let stats = layer.stats();
        let api = Api::default();
        let app = api
            .router(StatusCode::NOT_FOUND, NOT_FOUND_WITHOUT_HTTP_CODE)
            .layer(layer);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let server = tokio::spawn(async move { axum::serve(listener, app).await });

        // A plain HTTP/1.1 client on a blocking socket, off the runtime's thread.
        let exchange = |request: String| async move {
            tokio::task::spawn_blocking(move || {
                use std::io::Read;
                let mut stream = std::net::TcpStream::connect(address).unwrap();
                stream
                    .set_read_timeout(Some(Duration::from_secs(10)))
                    .unwrap();
                stream.write_all(request.as_bytes()).unwrap();
                let mut answer = Vec::new();
                stream.read_to_end(&mut answer).unwrap();
                String::from_utf8(answer).unwrap()
            })
            .await
            .unwrap()
        };
        let answer = exchange(format!(
            "GET {ACCOUNT_PATH} HTTP/1.1\r\nhost: 127.0.0.1\r\npublic-api-key: {PUBLIC_KEY}\r\n\
             private-secret-key: {SECRET_KEY}\r\nconnection: close\r\n\r\n"
        ))
        .await;
        assert!(answer.starts_with("HTTP/1.1 404"), "{answer}");
        assert!(answer.ends_with(NOT_FOUND_WITHOUT_HTTP_CODE), "{answer}");
        let answer = exchange(format!(
            "POST /v1/banking/accounts HTTP/1.1\r\nhost: 127.0.0.1\r\npublic-api-key: {PUBLIC_KEY}\r\n\
             private-secret-key: {SECRET_KEY}\r\ncontent-type: application/json\r\n\
             x-idempotency-key: 2c4e6a8b-0d1f-4a3c-9e5b-7d9f1b3d5e01\r\n\
             content-length: {}\r\nconnection: close\r\n\r\n{BAD_CREATE}",
            BAD_CREATE.len()
        ))
        .await;
        assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
        assert!(answer.contains("VALIDATION_ERROR"), "{answer}");
        assert_eq!(api.calls(), 1, "only the GET reached the handler");
        assert_eq!(stats.checked(), 2);
        assert_eq!(stats.rejected(), 1);
        assert!(
            collected
                .findings()
                .iter()
                .any(|f| f.message.contains("http_code"))
        );
        server.abort();
    })
    .await;
}

/// Another API's contract words its rejections its own way, as the generated server for it
/// does: its documented error body (`{"error": …, "detail": …}`), or RFC 9457 problem details
/// where it documents none the server can fill. The interface's shape is this API's only.
#[tokio::test]
async fn enforce_answers_in_the_error_body_of_the_contract_it_was_given() {
    fn contract_of(document: &str) -> Arc<Contract> {
        let dir = tempfile::tempdir().unwrap();
        let spec = dir.path().join("openapi.yaml");
        std::fs::write(&spec, document).unwrap();
        Arc::new(Contract::from_spec(&spec).expect("the spec makes a contract"))
    }
    const PATHS: &str = r#"
paths:
  /pets:
    post:
      requestBody:
        required: true
        content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string}}}}}
      responses:
        '201': {description: created}
        '400':
          description: refused
          content: {application/json: {schema: {$ref: '#/components/schemas/Problem'}}}
"#;
    let documented = contract_of(&format!(
        "openapi: 3.0.3\ninfo: {{title: Pets, version: '1'}}\n{PATHS}\
         components:\n  schemas:\n    Problem:\n      type: object\n      required: [error]\n      \
         properties:\n        error: {{type: string}}\n        detail: {{type: string}}\n"
    ));
    let undocumented = contract_of(&format!(
        "openapi: 3.0.3\ninfo: {{title: Pets, version: '1'}}\n{PATHS}\
         components:\n  schemas:\n    Problem:\n      type: object\n      required: [reason_id]\n      \
         properties:\n        reason_id: {{type: integer}}\n"
    ));
    bounded(async {
        for (contract, media_type, expected) in [
            (
                documented,
                "application/json",
                json!({"error": "VALIDATION_ERROR", "detail": "\"name\" is a required property"}),
            ),
            (
                undocumented,
                "application/problem+json",
                json!({
                    "type": "about:blank",
                    "title": "Bad Request",
                    "status": 400,
                    "detail": "\"name\" is a required property",
                    "code": "VALIDATION_ERROR",
                    "errors": ["\"name\" is a required property"],
                }),
            ),
        ] {
            let service = ContractLayer::new(contract)
                .enforce(true)
                .layer(Router::new().route("/pets", post(|| async { StatusCode::CREATED })));
            let request = http::Request::post("/pets")
                .header("content-type", "application/json")
                .body(axum::body::Body::from("{}"))
                .unwrap();
            let response = service.oneshot(request).await.unwrap();
            assert_eq!(response.status(), 400);
            assert_eq!(response.headers()["content-type"], media_type);
            let body: Value = serde_json::from_slice(&body_of(response).await).unwrap();
            assert_eq!(body, expected);
        }
    })
    .await;
}
