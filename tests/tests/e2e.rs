// Over 600 lines on purpose: one end-to-end binary (one server, one client, one link) for every flow.
//! End to end over real HTTP on 127.0.0.1: the generated server (`server::router`) serving the
//! in-memory implementation of the API (`integration_tests::inmemory`), driven by the
//! generated `Client` and by raw reqwest requests for what the typed client cannot express;
//! the generated webhook `receiver` and `Sender`; the client's retry rules against small
//! purpose-built servers.
//!
//! | test | what |
//! |---|---|
//! | [`api_and_notifications_flow`] | every operation, success and documented error; 401s, 400s, 404/405 bodies; idempotency; notification delivery, rejection and non-acknowledgement; every documented answer checked against the contract; the committed traffic, valid and invalid apart |
//! | [`a_notification_is_retried_after_a_503_and_a_time_out`] | the `Sender` through a 503, a time-out and connection errors |
//! | [`the_client_retries_a_create_on_503_with_the_same_idempotency_key`] | one key on every attempt |
//! | [`the_client_retries_reads_and_idempotent_writes_only`] | GET after a time-out and after 503s; no retry of 4xx, of cancel, of PATCH |
//! | [`a_405_names_the_allowed_methods`] | `Allow` on the router's 405 |
//! | ignored, `generated bug: …` | defects of the generated code, failing until it is fixed |
//!
//! Traffic: every server here is wrapped in a HAR recorder. Each test adds its recorders to
//! one list and rewrites the merged HAR 1.2 file (`$E2E_HAR_OUT`, else
//! `<CARGO_TARGET_TMPDIR>/e2e.har`) when it ends, so the file holds every exchange once all
//! tests are done. (An exchange the client abandoned at its time-out is not in it: the server
//! drops the request when the client hangs up, before the recorder completes the entry.) The
//! ordered flow of [`api_and_notifications_flow`] is deterministic and is also kept in the
//! repository, in two files: `tests/traffic/e2e.har`, the traffic that keeps the contract
//! (every request valid; errors only the documented answers to valid requests), and
//! `tests/traffic/e2e-invalid.har`, the deliberately invalid probes (no credentials, bad
//! UUIDs, bad bodies, unknown paths and methods, a notification payload the contract forbids,
//! a reply that does not acknowledge), sent to a second server of the same service (and a
//! second receiver of the same merchant) whose recorder is labelled `invalid`. specval's
//! tests check that the first has no finding and that the second has findings only on the
//! request side. `UPDATE_TRAFFIC=1` rewrites both; otherwise the test fails when a committed
//! file's sequence of (method, path, status) differs from the one just recorded. The
//! timing-dependent scenarios (client retries, notification time-outs) run in their own
//! tests and only go to the merged file. Credentials appear in no HAR but as `[redacted]`.

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Json, Response};
use axum::routing::{get, post};
use integration_tests::har::{self, HarRecorder, REDACTED};
use integration_tests::inmemory::{self, CANCELLED_STATUS, InMemoryService, TRANSFER_NOT_FOUND};
use orchestration_api::client::{Client, ClientError, CreateAccountSuccess, ErrorBody};
use orchestration_api::credentials::Credentials;
use orchestration_api::models::{
    Account, AccountStatus, AccountType, CreateAccountRequest, CreateEntityRequest, EntityTransfer,
    ErrorCode, IncomingTransferNotification, IncomingTransferNotificationReply, NationalEntity,
    OnboardingStatus, Payment, PaymentRail, ReverseTransferResult, TransferStatus,
    UpdateAccountRequest,
};
use orchestration_api::retry::RetryPolicy;
use orchestration_api::server;
use orchestration_api::support::Decimal;
use orchestration_api::webhooks::{
    self, Delivery, DeliveryPolicy, GaveUp, HandlerError, Sender, Webhooks,
};
use reqwest::Method;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use uuid::Uuid;

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

const PUBLIC_KEY: &str = "pk_test";
const SECRET_KEY: &str = "sk_test";

/// A readable fixed UUID, `00000000-0000-4000-8000-000000000NNN`, so that recorded paths
/// are the same on every run.
const fn fixed(n: u128) -> Uuid {
    Uuid::from_u128(0x0000_0000_0000_4000_8000_0000_0000_0000 | n)
}

/// Created, updated and closed.
const ACCOUNT_LIFECYCLE: Uuid = fixed(0xa1);
/// Its creation fails (onboarding not SUCCEEDED, or unknown).
const ACCOUNT_REFUSED: Uuid = fixed(0xa2);
/// Never created.
const ACCOUNT_UNKNOWN: Uuid = fixed(0xaf);
/// Holds the seeded transfers.
const ACCOUNT_TRANSFERS: Uuid = fixed(0xb1);
/// Created after an entity with the same `account_id`.
const ACCOUNT_ENTITY: Uuid = fixed(0xc1);
/// Created twice with one idempotency key.
const ACCOUNT_IDEMPOTENT: Uuid = fixed(0xd1);
/// Created without an idempotency key (the client makes one).
const ACCOUNT_KEYLESS_1: Uuid = fixed(0xd2);
const ACCOUNT_KEYLESS_2: Uuid = fixed(0xd3);

const TRANSFER_PENDING: Uuid = fixed(0x1001);
const TRANSFER_COMPLETED: Uuid = fixed(0x1002);
const TRANSFER_UNKNOWN: Uuid = fixed(0x10ff);

const IDEMPOTENCY_KEY: Uuid = fixed(0x7001);
const ENTITY_KEY: Uuid = fixed(0x7002);

const ONBOARDING_READY: &str = "onb_ready";
const ONBOARDING_INACTIVE: &str = "onb_inactive";
const ONBOARDING_UNKNOWN: &str = "onb_missing";

fn credentials() -> Credentials {
    Credentials::new(PUBLIC_KEY, SECRET_KEY)
}

fn create_request(
    account_id: Uuid,
    onboarding_id: &str,
    account_type: AccountType,
    currency: &str,
) -> CreateAccountRequest {
    CreateAccountRequest {
        account_id,
        onboarding_id: onboarding_id.to_owned(),
        account_type,
        currency: currency.to_owned(),
        additional_properties: serde_json::Map::new(),
    }
}

fn update_request(account_id: Uuid, account_type: Option<AccountType>) -> UpdateAccountRequest {
    UpdateAccountRequest {
        account_id,
        account_type,
        additional_properties: serde_json::Map::new(),
    }
}

fn entity_json(account_id: Uuid, merchant_entity_id: &str) -> Value {
    json!({
        "account_id": account_id,
        "merchant_entity_id": merchant_entity_id,
        "national_entity": "INDIVIDUAL",
        "phone": {"country_code": "+1", "number": "4155550134"},
        "address": {
            "address_line_1": "Market Street",
            "address_line_2": null,
            "building_number_1": "1455",
            "building_number_2": null,
            "city": "San Francisco",
            "state": "CA",
            "zip_code": "94103",
            "country": "US"
        },
        "entity_detail": {
            "individual": {
                "first_name": "Jane",
                "last_name": "Doe",
                "email": "jane.doe@example.com",
                "date_of_birth": "1990-04-12"
            },
            "entity": null
        }
    })
}

fn entity_request(account_id: Uuid, merchant_entity_id: &str) -> CreateEntityRequest {
    serde_json::from_value(entity_json(account_id, merchant_entity_id)).expect("entity request")
}

fn transfer(status: &str, description: &str) -> EntityTransfer {
    serde_json::from_value(json!({
        "source_account_id": "acct_2f7c9a1e4b6d",
        "destination_account_id": null,
        "merchant_transfer_id": format!("payout-{description}"),
        "provider": {"account_id": "pa_5521903", "transfer_id": "pt_88120457"},
        "status": status,
        "direction": "OUTGOING",
        "destination_account": {
            "account_number_last_4": "4321",
            "routing_number": "011000015",
            "iban": null,
            "bsb": null,
            "swift": null,
            "sort_code": null,
            "account_name": "Jane Doe",
            "bank_name": "Example Community Bank"
        },
        "amount": {"value": 250, "currency": "GBP"},
        "payment_rail": "FPS",
        "description": description,
        "created_at": "2024-05-18T10:00:00Z",
        "updated_at": "2024-05-18T10:00:00Z"
    }))
    .expect("transfer")
}

fn payment(id: u128, merchant_order_id: &str) -> Payment {
    serde_json::from_value(json!({
        "id": fixed(id),
        "account_id": "2d3e4f50-6172-4839-9a4b-5c6d7e8f9012",
        "description": format!("Order {merchant_order_id}"),
        "country": "CO",
        "status": "READY_TO_PAY",
        "sub_status": "CREATED",
        "merchant_order_id": merchant_order_id,
        "created_at": "2024-05-14T15:20:11.482Z",
        "updated_at": "2024-05-14T15:20:13.907Z",
        "amount": {"captured": 0, "refunded": 0, "value": 150000, "currency": "COP"},
        "payment_method": {"type": "BANK_TRANSFER", "vault_on_success": false},
        "transactions": [{
            "id": "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
            "type": "PURCHASE",
            "status": "SUCCEEDED",
            "category": "BANK_TRANSFER",
            "amount": 150000
        }],
        "split": [],
        "workflow": "SDK_CHECKOUT",
        "metadata": []
    }))
    .expect("payment")
}

fn reverse_transfer_result() -> ReverseTransferResult {
    serde_json::from_value(json!({
        "id": "b7e9c1d2-3f4a-4b5c-8d6e-7f8091a2b3c4",
        "origin_onboarding": {
            "id": "onb_4e6a8c0b2d4f",
            "type": "ONE_STEP_ONBOARDING",
            "workflow": "DIRECT",
            "status": "SUCCEEDED",
            "created_at": "2024-05-09T12:00:05Z",
            "updated_at": "2024-05-09T12:00:05Z"
        },
        "destination_onboarding": {
            "id": "onb_6c8e0a2b4d6f",
            "type": "ONE_STEP_ONBOARDING",
            "workflow": "DIRECT",
            "status": "INACTIVE",
            "created_at": "2024-05-21T16:40:10Z",
            "updated_at": "2024-05-21T16:40:10Z"
        },
        "created_at": "2024-05-21T16:40:10Z",
        "updated_at": "2024-05-21T16:40:10Z"
    }))
    .expect("reverse-transfer result")
}

fn notification(id: &str) -> IncomingTransferNotification {
    serde_json::from_value(json!({
        "id": id,
        "destination_account_id": "acct_2f7c9a1e4b6d",
        "account_id": fixed(0xb1),
        "provider": {"account_id": "pa_5521903", "transfer_id": "pt_88120911"},
        "status": "COMPLETED",
        "direction": "INCOMING",
        "sender": {
            "account_number_last_4": "9876",
            "routing_number": "026009593",
            "account_name": "Globex Corporation",
            "bank_name": "Example National Bank"
        },
        "amount": {"value": 1500, "currency": "USD"},
        "payment_rail": "WIRE",
        "description": "Invoice 2024-117",
        "created_at": "2024-05-19T14:03:27Z",
        "updated_at": "2024-05-19T14:05:02Z"
    }))
    .expect("notification")
}

// ---------------------------------------------------------------------------------------------
// Servers and recorded traffic
// ---------------------------------------------------------------------------------------------

/// An axum server on 127.0.0.1:0, stopped gracefully by [`Server::stop`].
struct Server {
    addr: SocketAddr,
    shutdown: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Server {
    async fn start(router: Router) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("local address");
        let (shutdown, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            axum::serve(listener, router)
                .with_graceful_shutdown(async {
                    let _ = stopped.await;
                })
                .await
        });
        Self {
            addr,
            shutdown,
            task,
        }
    }

    /// `http://127.0.0.1:PORT`
    fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    async fn stop(self) {
        let _ = self.shutdown.send(());
        let stopped = tokio::time::timeout(Duration::from_secs(5), self.task).await;
        stopped
            .expect("the server stops within 5 s")
            .expect("server task")
            .expect("server");
    }
}

/// Every recorder of this test binary, for the merged HAR file.
static RECORDERS: Mutex<Vec<HarRecorder>> = Mutex::new(Vec::new());

/// Adds `recorders` to the merged HAR file and rewrites it with every exchange recorded so
/// far by the tests of this binary (the last test to finish writes them all).
fn publish(recorders: &[&HarRecorder]) -> PathBuf {
    let mut all = RECORDERS.lock().unwrap_or_else(PoisonError::into_inner);
    all.extend(recorders.iter().map(|recorder| (*recorder).clone()));
    let merged = har::merge(&all.iter().collect::<Vec<_>>());
    assert_credentials_redacted(&merged);
    let path = std::env::var_os("E2E_HAR_OUT").map_or_else(
        || PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e.har"),
        PathBuf::from,
    );
    har::write_har(&path, &merged).expect("write the merged HAR");
    path
}

/// The instant a timestamp the sandbox wrote stands for (it writes RFC 3339 in UTC, one of
/// the ISO 8601 forms a `Timestamp` takes).
fn instant(timestamp: &orchestration_api::Timestamp) -> chrono::DateTime<chrono::FixedOffset> {
    chrono::DateTime::parse_from_rfc3339(timestamp).expect("an RFC 3339 timestamp")
}

/// A committed traffic file of [`api_and_notifications_flow`] (`e2e.har`, `e2e-invalid.har`).
fn committed_traffic_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("traffic")
        .join(name)
}

/// With `UPDATE_TRAFFIC=1`, writes `fresh` to `tests/traffic/<name>`; otherwise asserts that
/// the committed file has the same sequence of (method, path, status) as `fresh`. Returns the
/// sequence of `fresh`.
fn check_committed_traffic(name: &str, fresh: &Value) -> Vec<String> {
    assert_credentials_redacted(fresh);
    let sequence = exchange_sequence(fresh);
    let committed = committed_traffic_path(name);
    if std::env::var("UPDATE_TRAFFIC").is_ok_and(|value| value == "1") {
        har::write_har(&committed, fresh)
            .unwrap_or_else(|err| panic!("write tests/traffic/{name}: {err}"));
        return sequence;
    }
    let text = std::fs::read_to_string(&committed).unwrap_or_else(|err| {
        panic!(
            "{}: {err}; record it with `UPDATE_TRAFFIC=1 cargo test -p integration-tests --test e2e`",
            committed.display()
        )
    });
    let stored: Value = serde_json::from_str(&text).expect("committed HAR is JSON");
    assert_eq!(stored["log"]["version"], "1.2");
    assert_credentials_redacted(&stored);
    let stored_sequence = exchange_sequence(&stored);
    if stored_sequence != sequence {
        let first = stored_sequence
            .iter()
            .zip(&sequence)
            .position(|(a, b)| a != b)
            .unwrap_or(stored_sequence.len().min(sequence.len()));
        panic!(
            "tests/traffic/{name} is stale (re-record with UPDATE_TRAFFIC=1): {} stored vs {} \
             recorded exchanges, first difference at #{}: stored {:?}, recorded {:?}",
            stored_sequence.len(),
            sequence.len(),
            first + 1,
            stored_sequence.get(first),
            sequence.get(first)
        );
    }
    sequence
}

/// `METHOD /path?query STATUS` of every entry, in order.
fn exchange_sequence(har: &Value) -> Vec<String> {
    har["log"]["entries"]
        .as_array()
        .expect("log.entries")
        .iter()
        .map(|entry| {
            let url = entry["request"]["url"].as_str().expect("request.url");
            let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
            let path = after_scheme
                .find('/')
                .map_or("/", |index| &after_scheme[index..]);
            format!(
                "{} {path} {}",
                entry["request"]["method"].as_str().expect("request.method"),
                entry["response"]["status"]
            )
        })
        .collect()
}

/// No credential value anywhere in `har`, and every credential header shown as redacted.
fn assert_credentials_redacted(har: &Value) {
    let text = har.to_string();
    for secret in [PUBLIC_KEY, SECRET_KEY] {
        assert!(
            !text.contains(secret),
            "the HAR contains the credential {secret}"
        );
    }
    for entry in har["log"]["entries"].as_array().expect("entries") {
        for header in entry["request"]["headers"].as_array().expect("headers") {
            let name = header["name"].as_str().unwrap_or_default();
            if name == "public-api-key" || name == "private-secret-key" {
                assert_eq!(header["value"], REDACTED, "{name} in {}", entry["comment"]);
            }
        }
    }
}

/// The operation a request of the API goes to, by method and path (`None` for the requests
/// that go to no operation).
fn operation_of(method: &str, path: &str) -> Option<&'static str> {
    let path = path.split('?').next().unwrap_or_default();
    let segments: Vec<&str> = path.strip_prefix("/v1/")?.split('/').collect();
    let operation = match (method, segments.as_slice()) {
        ("POST", ["banking", "accounts"]) => "createAccount",
        ("GET", ["banking", "accounts", _]) => "getAccount",
        ("PATCH", ["banking", "accounts", _]) => "updateAccount",
        ("DELETE", ["banking", "accounts", _]) => "closeAccount",
        ("GET", ["banking", "accounts", _, "transfers", _]) => "getAccountTransfer",
        ("POST", ["banking", "accounts", _, "transfers", _, "cancel"]) => "cancelAccountTransfer",
        ("POST", ["banking", "entities"]) => "createEntity",
        ("GET", ["payments"]) => "getPaymentsByMerchantOrderId",
        ("POST", ["recipients", "onboardings", "reverse-transfer", _]) => {
            "reverseTransferOnboarding"
        }
        _ => return None,
    };
    Some(operation)
}

/// Every response of the API in `entries` whose status the contract documents has a body
/// that matches the documented schema; returns how many were checked.
fn assert_responses_match_contract(entries: &[Value]) -> usize {
    let mut checked = 0;
    let mut problems = Vec::new();
    for entry in entries {
        let method = entry["request"]["method"].as_str().expect("method");
        let url = entry["request"]["url"].as_str().expect("url");
        let path = url.splitn(4, '/').nth(3).map(|rest| format!("/{rest}"));
        let Some(operation) = path.as_deref().and_then(|path| operation_of(method, path)) else {
            continue;
        };
        let status = entry["response"]["status"].as_u64().expect("status");
        let text = entry["response"]["content"]["text"]
            .as_str()
            .unwrap_or("null");
        let body: Value = serde_json::from_str(text).expect("JSON response");
        let rules = orchestration_api::validation::rules()
            .operation(operation)
            .expect("an operation of the contract");
        let status = u16::try_from(status).expect("a status");
        if let Some(messages) = rules.check_response(status, &body) {
            checked += 1;
            if !messages.is_empty() {
                problems.push(format!(
                    "{} {method} {url} {status}: {messages:?}",
                    entry["comment"]
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "responses off the contract:\n{}",
        problems.join("\n")
    );
    checked
}

/// The value of request header `name` in a HAR entry.
fn request_header<'a>(entry: &'a Value, name: &str) -> Option<&'a str> {
    entry["request"]["headers"]
        .as_array()?
        .iter()
        .find(|header| header["name"] == name)
        .and_then(|header| header["value"].as_str())
}

// ---------------------------------------------------------------------------------------------
// Assertions on answers
// ---------------------------------------------------------------------------------------------

/// The error body of a `ClientError::Api` with `status` and `code`, whose `http_code` equals
/// the status.
#[track_caller]
fn api_error<T: std::fmt::Debug>(
    result: Result<T, ClientError>,
    status: u16,
    code: &ErrorCode,
) -> ErrorBody {
    match result {
        Err(ClientError::Api {
            status: actual,
            body,
        }) => {
            assert_eq!(actual.as_u16(), status, "status; body {body:?}");
            assert_eq!(&body.code, code, "code; body {body:?}");
            assert_eq!(
                body.http_code,
                i64::from(status),
                "http_code equals the status"
            );
            assert!(!body.messages.is_empty(), "messages say why: {body:?}");
            body
        }
        other => panic!("expected the API error {status} {code}, got {other:?}"),
    }
}

/// The account of a 201 creation.
#[track_caller]
fn created(result: Result<CreateAccountSuccess, ClientError>) -> Account {
    match result {
        Ok(CreateAccountSuccess::Created(account)) => account,
        other => panic!("expected 201 Created, got {other:?}"),
    }
}

/// A raw answer: status, content type and body (JSON when it parses, else a string).
struct RawAnswer {
    status: u16,
    content_type: String,
    body: Value,
}

impl RawAnswer {
    /// Asserts the API's error body with `status` and `code`; returns the messages joined.
    #[track_caller]
    fn assert_error(&self, status: u16, code: &str) -> String {
        assert_eq!(self.status, status, "status; body {}", self.body);
        assert!(
            self.content_type.starts_with("application/json"),
            "an error body is JSON, got `{}`: {}",
            self.content_type,
            self.body
        );
        assert_eq!(self.body["code"], code, "code; body {}", self.body);
        assert_eq!(
            self.body["http_code"], status,
            "http_code equals the status"
        );
        let messages = self.body["messages"].as_array().expect("messages array");
        assert!(!messages.is_empty(), "messages say why: {}", self.body);
        messages
            .iter()
            .map(|message| message.as_str().expect("messages are strings"))
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

// ---------------------------------------------------------------------------------------------
// The API under test
// ---------------------------------------------------------------------------------------------

/// The API: one in-memory service behind two servers. `server` takes the valid traffic
/// (recorded by `recorder` as "api"); `probes` takes the deliberately invalid requests —
/// no or empty credentials, malformed parameters and bodies, unknown paths and methods —
/// recorded by `probe_recorder` ("invalid"), so that `tests/traffic/e2e.har` holds only
/// traffic that keeps the contract and `tests/traffic/e2e-invalid.har` the probes.
struct Api {
    /// The records of the merchant of [`credentials`], which the typed clients create and
    /// read (the in-memory service keeps each merchant's records apart).
    store: inmemory::Merchant,
    server: Server,
    recorder: HarRecorder,
    client: Client,
    probes: Server,
    probe_recorder: HarRecorder,
    /// The typed client, sending to the probe server (for the invalid values it can express).
    probe_client: Client,
    /// For requests the typed client cannot express.
    http: reqwest::Client,
    /// specval watching the valid traffic live.
    watch: ContractWatch,
}

/// What specval found on the valid traffic, live: the service must stay inside its own
/// contract on every valid request the tests send it.
struct ContractWatch {
    /// Findings of specval's tower layer (report mode) around the server.
    live_findings: Arc<Mutex<Vec<String>>>,
    /// specval's client-side checks on the typed client: every answer it receives must keep
    /// the contract as the client sees it too.
    client_checks: specval::client::ClientCheck,
}

impl Api {
    /// The API, its invalid probes recorded by `probe_recorder` (shared with the merchant's
    /// probe receiver, so that one file holds every probe in order).
    async fn start_with(probe_recorder: HarRecorder) -> Self {
        let service = InMemoryService::new();
        let recorder = HarRecorder::new().label("api");
        let live_findings = Arc::new(Mutex::new(Vec::new()));
        let sink = live_findings.clone();
        let contract =
            Arc::new(specval::Contract::embedded().expect("specval's embedded contract"));
        let client_checks =
            specval::client::ClientCheck::new(contract.clone()).source("e2e client");
        let checked = specval::layer::ContractLayer::new(contract).on_finding(move |finding| {
            sink.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(format!(
                    "{} {}: {}",
                    finding.rule, finding.pointer, finding.message
                ));
        });
        let server = Server::start(
            server::router(service.clone())
                .layer(recorder.layer())
                .layer(checked),
        )
        .await;
        let probes =
            Server::start(server::router(service.clone()).layer(probe_recorder.layer())).await;
        let client = Client::builder(format!("{}/v1", server.origin()), credentials())
            .timeout(Duration::from_secs(5))
            .retry(RetryPolicy::none())
            .observe(client_checks.observer())
            .build()
            .expect("client");
        let probe_client = Client::builder(format!("{}/v1", probes.origin()), credentials())
            .timeout(Duration::from_secs(5))
            .retry(RetryPolicy::none())
            .build()
            .expect("client");
        Self {
            store: service.merchant(&credentials()),
            server,
            recorder,
            client,
            probes,
            probe_recorder,
            probe_client,
            http: reqwest::Client::new(),
            watch: ContractWatch {
                live_findings,
                client_checks,
            },
        }
    }

    async fn start() -> Self {
        Self::start_with(HarRecorder::new().label("invalid")).await
    }

    async fn stop(self) {
        self.probes.stop().await;
        self.server.stop().await;
        self.watch.assert_kept();
    }
}

impl ContractWatch {
    /// The service stayed inside its contract on every valid request, as specval's layer saw
    /// it on the server and its client checks saw it on the typed client.
    fn assert_kept(&self) {
        let findings = self
            .live_findings
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        assert!(
            findings.is_empty(),
            "the service left its contract on valid traffic (specval's layer, live):\n{}",
            findings.join("\n")
        );
        let seen_by_client = self.client_checks.findings();
        assert!(
            seen_by_client.is_empty(),
            "the typed client received answers outside the contract (specval's client checks):\n{}",
            seen_by_client
                .iter()
                .map(specval::client::describe)
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

impl Api {
    /// The base URL of the probe server.
    fn probe_base(&self) -> String {
        format!("{}/v1", self.probes.origin())
    }

    /// A client of the probe server with other credentials.
    fn probe_client_with(&self, credentials: Credentials) -> Client {
        Client::builder(self.probe_base(), credentials)
            .retry(RetryPolicy::none())
            .build()
            .expect("client")
    }

    /// Sends a deliberately invalid request to the probe server: `method path` (under `/v1`)
    /// with the given headers, the credentials when `authenticated`, and a JSON body when
    /// one is given.
    async fn probe(
        &self,
        method: Method,
        path: &str,
        authenticated: bool,
        headers: &[(&str, &str)],
        body: Option<&Value>,
    ) -> RawAnswer {
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.probe_base()));
        if authenticated {
            request = request
                .header("public-api-key", PUBLIC_KEY)
                .header("private-secret-key", SECRET_KEY);
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = request.send().await.expect("raw request");
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let bytes = response.bytes().await.expect("raw body");
        let body = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
        RawAnswer {
            status,
            content_type,
            body,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The merchant's notification receiver
// ---------------------------------------------------------------------------------------------

/// What the merchant does with the next notification that reaches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// A layer in front of the receiver answers 503; the handler is not called.
    Unavailable,
    /// The handler fails: the receiver answers 500.
    Fail,
    /// The handler waits this long, then acknowledges.
    Slow(Duration),
    /// The handler answers 200 `{"received": false}`.
    NotReceived,
}

/// A merchant's [`Webhooks`] handler that follows a script (an empty script acknowledges)
/// and counts the calls that reach it.
#[derive(Clone, Default)]
struct Merchant {
    script: Arc<Mutex<VecDeque<Step>>>,
    calls: Arc<AtomicUsize>,
    received: Arc<Mutex<Vec<IncomingTransferNotification>>>,
}

impl Merchant {
    fn script(&self, steps: &[Step]) {
        let mut script = self.script.lock().expect("script");
        script.clear();
        script.extend(steps.iter().copied());
    }

    fn take_calls(&self) -> usize {
        self.calls.swap(0, Ordering::SeqCst)
    }

    fn next_step(&self) -> Option<Step> {
        self.script.lock().expect("script").pop_front()
    }

    /// The receiver with the 503 layer in front and `recorder` outermost.
    fn router(&self, recorder: &HarRecorder) -> Router {
        webhooks::receiver(self.clone())
            .layer(axum::middleware::from_fn_with_state(
                self.clone(),
                unavailable_when_scripted,
            ))
            .layer(recorder.layer())
    }
}

impl Webhooks for Merchant {
    async fn incoming_transfer(
        &self,
        payload: IncomingTransferNotification,
    ) -> Result<IncomingTransferNotificationReply, HandlerError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.received.lock().expect("received").push(payload);
        let received = match self.next_step() {
            None | Some(Step::Unavailable) => true,
            Some(Step::Fail) => return Err(HandlerError("the ledger is down".into())),
            Some(Step::Slow(delay)) => {
                tokio::time::sleep(delay).await;
                true
            }
            Some(Step::NotReceived) => false,
        };
        Ok(IncomingTransferNotificationReply {
            received,
            additional_properties: serde_json::Map::new(),
        })
    }
}

/// Answers 503 when the script's next step is [`Step::Unavailable`].
async fn unavailable_when_scripted(
    State(merchant): State<Merchant>,
    request: Request,
    next: Next,
) -> Response {
    let unavailable = {
        let mut script = merchant.script.lock().expect("script");
        let unavailable = script.front() == Some(&Step::Unavailable);
        if unavailable {
            script.pop_front();
        }
        unavailable
    };
    if unavailable {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"messages": ["temporarily unavailable"]})),
        )
            .into_response();
    }
    next.run(request).await
}

/// Short delays and a time-out long enough never to fire in the deterministic flow.
fn patient_policy() -> DeliveryPolicy {
    DeliveryPolicy {
        max_attempts: 3,
        base_delay: Duration::from_millis(2),
        max_delay: Duration::from_millis(10),
        timeout: Duration::from_secs(5),
    }
}

// =============================================================================================
// The deterministic flow: every operation, success and documented error, in one order
// =============================================================================================

#[tokio::test]
async fn api_and_notifications_flow() {
    let started = Instant::now();
    // The deliberately invalid probes, to the API and to the merchant, in one recorder.
    let probe_recorder = HarRecorder::new().label("invalid");
    let api = Api::start_with(probe_recorder.clone()).await;
    let merchant = Merchant::default();
    let merchant_recorder = HarRecorder::new().label("merchant");
    let receiver = Server::start(merchant.router(&merchant_recorder)).await;
    let probe_receiver = Server::start(merchant.router(&probe_recorder)).await;

    account_lifecycle(&api).await;
    transfers(&api).await;
    entities(&api).await;
    reverse_transfer(&api).await;
    payments(&api).await;
    idempotency(&api).await;
    authentication(&api).await;
    request_validation(&api).await;
    notifications(&merchant, &receiver, &probe_receiver).await;

    probe_receiver.stop().await;
    receiver.stop().await;
    api.probes.stop().await;
    api.server.stop().await;
    api.watch.assert_kept();
    let observed = api.watch.client_checks.checked();
    assert!(
        observed > 30,
        "the typed client's answers were checked: {observed} of them"
    );

    // The notifications carry no credential (the document shows none).
    for entry in merchant_recorder.entries() {
        for name in ["public-api-key", "private-secret-key", "authorization"] {
            assert_eq!(
                request_header(&entry, name),
                None,
                "{name} on a notification"
            );
        }
        assert_eq!(
            request_header(&entry, "content-type"),
            Some("application/json")
        );
    }
    // Every answer of the in-memory service with a documented status matches its schema,
    // the answers to the probes included.
    let mut answers = api.recorder.entries();
    answers.extend(probe_recorder.entries());
    let checked = assert_responses_match_contract(&answers);
    assert!(
        checked > 50,
        "{checked} responses checked against the contract"
    );
    // Debug output of the client never shows the credentials.
    let debug = format!("{:?}", api.client);
    assert!(
        !debug.contains(SECRET_KEY) && !debug.contains(PUBLIC_KEY),
        "{debug}"
    );

    let fresh = har::merge(&[&api.recorder, &merchant_recorder]);
    let probes = probe_recorder.to_har();
    let sequence = check_committed_traffic("e2e.har", &fresh);
    let probe_sequence = check_committed_traffic("e2e-invalid.har", &probes);
    assert!(
        sequence.len() + probe_sequence.len() > 50,
        "{} + {} exchanges recorded",
        sequence.len(),
        probe_sequence.len()
    );
    assert!(
        sequence.len() > 30 && probe_sequence.len() > 20,
        "{} valid and {} invalid exchanges recorded",
        sequence.len(),
        probe_sequence.len()
    );
    publish(&[&api.recorder, &merchant_recorder, &probe_recorder]);
    eprintln!(
        "api_and_notifications_flow: {} valid and {} invalid exchanges in {:?}",
        sequence.len(),
        probe_sequence.len(),
        started.elapsed()
    );
}

async fn account_lifecycle(api: &Api) {
    let store = &api.store;
    let client = &api.client;
    store.seed_onboarding(ONBOARDING_READY, OnboardingStatus::Succeeded);
    store.seed_onboarding(ONBOARDING_INACTIVE, OnboardingStatus::Inactive);

    // Create: 201, ACTIVE, zero balance.
    let account = created(
        client
            .create_account(
                None,
                &create_request(
                    ACCOUNT_LIFECYCLE,
                    ONBOARDING_READY,
                    AccountType::Checking,
                    "USD",
                ),
            )
            .await,
    );
    assert!(
        account
            .id
            .as_deref()
            .is_some_and(|id| id.starts_with("acct_"))
    );
    assert!(
        account
            .entity_id
            .as_deref()
            .is_some_and(|id| id.starts_with("ent_"))
    );
    assert_eq!(account.onboarding_id.as_deref(), Some(ONBOARDING_READY));
    assert_eq!(account.account_id, Some(ACCOUNT_LIFECYCLE));
    assert_eq!(account.status, Some(AccountStatus::Active));
    assert_eq!(account.account_type, Some(AccountType::Checking));
    assert_eq!(account.currency.as_deref(), Some("USD"));
    let balance = account.balance.clone().expect("balance");
    for amount in [balance.available, balance.current, balance.pending] {
        assert_eq!(amount, Some(Decimal::from(0)));
    }
    assert!(
        matches!(&account.routing_number, Some(Some(_))),
        "US: routing number"
    );
    assert_eq!(account.iban, Some(None), "US: no IBAN");
    let created_at = account.created_at.clone().expect("created_at");
    assert_eq!(account.updated_at.as_ref(), Some(&created_at));

    // Create: 400 when the onboarding is not SUCCEEDED, 404 when it does not exist.
    let refused = create_request(
        ACCOUNT_REFUSED,
        ONBOARDING_INACTIVE,
        AccountType::Savings,
        "GBP",
    );
    let body = api_error(
        client.create_account(None, &refused).await,
        400,
        &ErrorCode::ValidationError,
    );
    assert!(body.messages[0].contains("INACTIVE"), "{body:?}");
    let missing = create_request(
        ACCOUNT_REFUSED,
        ONBOARDING_UNKNOWN,
        AccountType::Savings,
        "GBP",
    );
    api_error(
        client.create_account(None, &missing).await,
        404,
        &ErrorCode::OnboardingNotFound,
    );
    assert!(
        store.account(ACCOUNT_REFUSED).is_none(),
        "no record for refused creations"
    );

    // Get: 200, 404.
    let read = client
        .get_account(&ACCOUNT_LIFECYCLE)
        .await
        .expect("get account");
    assert_eq!(read, account);
    api_error(
        client.get_account(&ACCOUNT_UNKNOWN).await,
        404,
        &ErrorCode::AccountNotFound,
    );

    // Update: 200 with the new type and updated_at refreshed; 404; 400 for a type the
    // contract rejects (sent by the typed client as an unknown enum value) and for a body
    // without account_id (raw); 400 for a body naming another account.
    let updated = client
        .update_account(
            &ACCOUNT_LIFECYCLE,
            &update_request(ACCOUNT_LIFECYCLE, Some(AccountType::Savings)),
        )
        .await
        .expect("update account");
    assert_eq!(updated.account_type, Some(AccountType::Savings));
    assert_eq!(updated.created_at.as_ref(), Some(&created_at));
    let updated_at = updated.updated_at.clone().expect("updated_at");
    assert!(
        instant(&updated_at) > instant(&created_at),
        "updated_at refreshed"
    );
    api_error(
        client
            .update_account(
                &ACCOUNT_UNKNOWN,
                &update_request(ACCOUNT_UNKNOWN, Some(AccountType::Savings)),
            )
            .await,
        404,
        &ErrorCode::AccountNotFound,
    );
    let body = api_error(
        api.probe_client
            .update_account(
                &ACCOUNT_LIFECYCLE,
                &update_request(ACCOUNT_LIFECYCLE, Some(AccountType::from("CHEQUING"))),
            )
            .await,
        400,
        &ErrorCode::ValidationError,
    );
    assert!(
        body.messages.iter().any(|m| m.contains("account_type")),
        "{body:?}"
    );
    let path = format!("/banking/accounts/{ACCOUNT_LIFECYCLE}");
    let messages = api
        .probe(
            Method::PATCH,
            &path,
            true,
            &[],
            Some(&json!({"account_type": "INVESTMENT"})),
        )
        .await
        .assert_error(400, "VALIDATION_ERROR");
    assert!(messages.contains("account_id"), "{messages}");
    let messages = api
        .probe(
            Method::PATCH,
            &path,
            true,
            &[],
            Some(&json!({"account_id": ACCOUNT_LIFECYCLE, "account_type": 7})),
        )
        .await
        .assert_error(400, "VALIDATION_ERROR");
    assert!(messages.contains("account_type"), "{messages}");
    api_error(
        client
            .update_account(
                &ACCOUNT_LIFECYCLE,
                &update_request(ACCOUNT_UNKNOWN, Some(AccountType::Investment)),
            )
            .await,
        400,
        &ErrorCode::ValidationError,
    );
    let unchanged = client
        .get_account(&ACCOUNT_LIFECYCLE)
        .await
        .expect("get account");
    assert_eq!(unchanged.account_type, Some(AccountType::Savings));
    assert_eq!(unchanged.updated_at.as_ref(), Some(&updated_at));

    // Close: 400 while the balance is not zero (status unchanged), then 200 CLOSED with
    // updated_at refreshed; 404.
    store
        .set_balance(ACCOUNT_LIFECYCLE, 10, 10, 0)
        .expect("balance set");
    let body = api_error(
        client.close_account(&ACCOUNT_LIFECYCLE).await,
        400,
        &ErrorCode::ValidationError,
    );
    assert!(body.messages[0].contains("balance"), "{body:?}");
    let still = client
        .get_account(&ACCOUNT_LIFECYCLE)
        .await
        .expect("get account");
    assert_eq!(still.status, Some(AccountStatus::Active));
    store
        .set_balance(ACCOUNT_LIFECYCLE, 0, 0, 0)
        .expect("balance set");
    let closed = client
        .close_account(&ACCOUNT_LIFECYCLE)
        .await
        .expect("close account");
    assert_eq!(closed.status, Some(AccountStatus::Closed));
    assert_eq!(closed.id, account.id);
    let closed_at = closed.updated_at.clone().expect("updated_at");
    assert!(
        instant(&closed_at) > instant(&updated_at),
        "updated_at refreshed"
    );
    assert_eq!(
        client
            .get_account(&ACCOUNT_LIFECYCLE)
            .await
            .expect("get account")
            .status,
        Some(AccountStatus::Closed)
    );
    api_error(
        client.close_account(&ACCOUNT_UNKNOWN).await,
        404,
        &ErrorCode::AccountNotFound,
    );
}

async fn transfers(api: &Api) {
    let store = &api.store;
    let client = &api.client;
    created(
        client
            .create_account(
                None,
                &create_request(
                    ACCOUNT_TRANSFERS,
                    ONBOARDING_READY,
                    AccountType::Checking,
                    "GBP",
                ),
            )
            .await,
    );
    let pending = store.seed_transfer(
        ACCOUNT_TRANSFERS,
        TRANSFER_PENDING,
        transfer("PENDING", "pending"),
    );
    store.seed_transfer(
        ACCOUNT_TRANSFERS,
        TRANSFER_COMPLETED,
        transfer("COMPLETED", "completed"),
    );
    assert!(
        pending
            .id
            .as_deref()
            .is_some_and(|id| id.starts_with("xfer_"))
    );

    // Get: 200; 404 ACCOUNT_NOT_FOUND for an unknown account; 404 TRANSFER_NOT_FOUND (the
    // in-memory service's choice) for an unknown transfer of a known account.
    let read = client
        .get_account_transfer(&ACCOUNT_TRANSFERS, &TRANSFER_PENDING)
        .await
        .expect("get transfer");
    assert_eq!(read, pending);
    assert_eq!(read.status, Some(TransferStatus::Pending));
    assert_eq!(
        read.account_id.as_deref(),
        Some(ACCOUNT_TRANSFERS.to_string().as_str())
    );
    api_error(
        client
            .get_account_transfer(&ACCOUNT_UNKNOWN, &TRANSFER_PENDING)
            .await,
        404,
        &ErrorCode::AccountNotFound,
    );
    api_error(
        client
            .get_account_transfer(&ACCOUNT_TRANSFERS, &TRANSFER_UNKNOWN)
            .await,
        404,
        &ErrorCode::from(TRANSFER_NOT_FOUND),
    );

    // Cancel: 200 with the cancelled transfer; afterwards it is no longer PENDING, so a
    // second cancel is 400; a COMPLETED transfer is 400 and unchanged; 404s as for get.
    let cancelled = client
        .cancel_account_transfer(&ACCOUNT_TRANSFERS, &TRANSFER_PENDING)
        .await
        .expect("cancel transfer");
    assert_eq!(cancelled["status"], CANCELLED_STATUS);
    assert_eq!(cancelled["id"], json!(pending.id));
    let cancelled: EntityTransfer = serde_json::from_value(cancelled).expect("a transfer");
    assert_eq!(
        cancelled.status,
        Some(TransferStatus::Unknown(CANCELLED_STATUS.into()))
    );
    assert!(
        instant(cancelled.updated_at.as_ref().expect("updated_at"))
            > instant(pending.updated_at.as_ref().expect("updated_at"))
    );
    assert_eq!(
        client
            .get_account_transfer(&ACCOUNT_TRANSFERS, &TRANSFER_PENDING)
            .await
            .expect("get transfer")
            .status,
        cancelled.status
    );
    api_error(
        client
            .cancel_account_transfer(&ACCOUNT_TRANSFERS, &TRANSFER_PENDING)
            .await,
        400,
        &ErrorCode::ValidationError,
    );
    let body = api_error(
        client
            .cancel_account_transfer(&ACCOUNT_TRANSFERS, &TRANSFER_COMPLETED)
            .await,
        400,
        &ErrorCode::ValidationError,
    );
    assert!(body.messages[0].contains("COMPLETED"), "{body:?}");
    assert_eq!(
        store
            .transfer(ACCOUNT_TRANSFERS, TRANSFER_COMPLETED)
            .expect("transfer")
            .status,
        Some(TransferStatus::Completed)
    );
    api_error(
        client
            .cancel_account_transfer(&ACCOUNT_UNKNOWN, &TRANSFER_PENDING)
            .await,
        404,
        &ErrorCode::AccountNotFound,
    );
    api_error(
        client
            .cancel_account_transfer(&ACCOUNT_TRANSFERS, &TRANSFER_UNKNOWN)
            .await,
        404,
        &ErrorCode::from(TRANSFER_NOT_FOUND),
    );
}

async fn entities(api: &Api) {
    let store = &api.store;
    let client = &api.client;

    // 201, with the request's fields.
    let request = entity_request(ACCOUNT_ENTITY, "seller-10293");
    let entity = client
        .create_entity(Some(ENTITY_KEY), &request)
        .await
        .expect("create entity");
    assert!(
        entity
            .id
            .as_deref()
            .is_some_and(|id| id.starts_with("ent_"))
    );
    assert_eq!(
        entity.account_id.as_deref(),
        Some(ACCOUNT_ENTITY.to_string().as_str())
    );
    assert_eq!(entity.merchant_entity_id.as_deref(), Some("seller-10293"));
    assert_eq!(entity.national_entity, Some(NationalEntity::Individual));
    let phone = entity.phone.clone().expect("phone");
    assert_eq!(phone.country_code.as_deref(), Some("+1"));
    assert_eq!(
        entity.address.as_ref().and_then(|a| a.city.clone()),
        Some(json!("San Francisco"))
    );
    let individual = entity
        .entity_detail
        .as_ref()
        .and_then(|detail| detail.individual.clone())
        .flatten()
        .expect("individual");
    assert_eq!(individual.first_name, Some(json!("Jane")));

    // A replay of the same key and body returns the first 201 (not a 409) ...
    let replayed = client
        .create_entity(Some(ENTITY_KEY), &request)
        .await
        .expect("replayed create entity");
    assert_eq!(replayed, entity);
    assert_eq!(store.entities().len(), 1);
    // ... while a new request with the same merchant_entity_id is 409.
    let body = api_error(
        client.create_entity(None, &request).await,
        409,
        &ErrorCode::DuplicateEntity,
    );
    assert!(body.messages[0].contains("seller-10293"), "{body:?}");
    assert_eq!(store.entities().len(), 1);

    // 400 without national_entity (which the typed request cannot leave out).
    let mut without = entity_json(ACCOUNT_ENTITY, "seller-20417");
    without
        .as_object_mut()
        .expect("object")
        .remove("national_entity");
    let key = fixed(0x7003).to_string();
    let messages = api
        .probe(
            Method::POST,
            "/banking/entities",
            true,
            &[("x-idempotency-key", &key)],
            Some(&without),
        )
        .await
        .assert_error(400, "VALIDATION_ERROR");
    assert!(messages.contains("national_entity"), "{messages}");
    // 400 for a phone without its required number.
    let mut no_number = entity_json(ACCOUNT_ENTITY, "seller-20418");
    no_number["phone"] = json!({"country_code": "+1"});
    let messages = api
        .probe(
            Method::POST,
            "/banking/entities",
            true,
            &[("x-idempotency-key", &key)],
            Some(&no_number),
        )
        .await
        .assert_error(400, "VALIDATION_ERROR");
    assert!(messages.contains("number"), "{messages}");
    assert_eq!(store.entities().len(), 1);

    // An account created for the entity's account_id belongs to the entity.
    let account = created(
        client
            .create_account(
                None,
                &create_request(
                    ACCOUNT_ENTITY,
                    ONBOARDING_READY,
                    AccountType::Investment,
                    "AUD",
                ),
            )
            .await,
    );
    assert_eq!(account.entity_id, entity.id);
    let details = account.account_details.expect("account details");
    assert!(matches!(details.bsb, Some(Some(_))), "AUD: a BSB");
}

async fn reverse_transfer(api: &Api) {
    let store = &api.store;
    let client = &api.client;
    let transfer_id = fixed(0x7005);
    store.seed_reverse_transfer_result(transfer_id, reverse_transfer_result());

    let result = client
        .reverse_transfer_onboarding(&transfer_id, Some(fixed(0x7004)), Some("ORG-001"), None)
        .await
        .expect("reverse transfer");
    assert_eq!(result, reverse_transfer_result());
    let origin = result.origin_onboarding.expect("origin");
    let destination = result.destination_onboarding.expect("destination");
    assert_eq!(origin.status, Some(OnboardingStatus::Succeeded));
    assert_eq!(destination.status, Some(OnboardingStatus::Inactive));

    let with_body = client
        .reverse_transfer_onboarding(&transfer_id, None, None, Some(&json!({})))
        .await
        .expect("reverse transfer with a body");
    assert_eq!(with_body, reverse_transfer_result());

    api_error(
        client
            .reverse_transfer_onboarding(&fixed(0x7006), None, None, None)
            .await,
        404,
        &ErrorCode::from(TRANSFER_NOT_FOUND),
    );
    // "transfer_id path values are UUIDs of 36 characters".
    let messages = api
        .probe(
            Method::POST,
            "/recipients/onboardings/reverse-transfer/xfer_5c7e9a1b3d5f",
            true,
            &[],
            None,
        )
        .await
        .assert_error(400, "VALIDATION_ERROR");
    assert!(messages.contains("transfer_id"), "{messages}");
    // The idempotency key, when sent, must be a UUID.
    let messages = api
        .probe(
            Method::POST,
            &format!("/recipients/onboardings/reverse-transfer/{transfer_id}"),
            true,
            &[("x-idempotency-key", "not-a-uuid")],
            None,
        )
        .await
        .assert_error(400, "VALIDATION_ERROR");
    assert!(messages.contains("x-idempotency-key"), "{messages}");
}

async fn payments(api: &Api) {
    let store = &api.store;
    let client = &api.client;
    store.seed_payment(payment(0x5001, "order-10042"));
    store.seed_payment(payment(0x5002, "order-10043"));
    store.seed_payment(payment(0x5003, "order-10042"));
    store.seed_payment(payment(0x5004, "order #7 & co+1"));

    let found = client
        .get_payments_by_merchant_order_id("order-10042")
        .await
        .expect("payments");
    let ids: Vec<_> = found.iter().map(|payment| payment.id).collect();
    assert_eq!(ids, [Some(fixed(0x5001)), Some(fixed(0x5003))]);
    assert_eq!(found[0], payment(0x5001, "order-10042"));

    let none = client
        .get_payments_by_merchant_order_id("order-00000")
        .await
        .expect("payments");
    assert!(none.is_empty());

    let odd = client
        .get_payments_by_merchant_order_id("order #7 & co+1")
        .await
        .expect("payments of an id that needs encoding");
    assert_eq!(odd.len(), 1);

    let messages = api
        .probe(Method::GET, "/payments", true, &[], None)
        .await
        .assert_error(400, "VALIDATION_ERROR");
    assert!(messages.contains("merchant_order_id"), "{messages}");
    // Sent with an empty value, the required identifier is missing all the same: the spec
    // allows no empty value (`allowEmptyValue` is false unless given).
    let messages = api
        .probe(Method::GET, "/payments?merchant_order_id=", true, &[], None)
        .await
        .assert_error(400, "VALIDATION_ERROR");
    assert!(
        messages.contains("merchant_order_id is required, and came with an empty value"),
        "{messages}"
    );
}

async fn idempotency(api: &Api) {
    let store = &api.store;
    let client = &api.client;
    let request = create_request(
        ACCOUNT_IDEMPOTENT,
        ONBOARDING_READY,
        AccountType::Checking,
        "EUR",
    );

    // The same key and body twice: one account, the same answer.
    let first = created(client.create_account(Some(IDEMPOTENCY_KEY), &request).await);
    let second = created(client.create_account(Some(IDEMPOTENCY_KEY), &request).await);
    assert_eq!(second, first, "the replay returns the first response");
    let matching = store
        .accounts()
        .into_iter()
        .filter(|account| account.account_id == Some(ACCOUNT_IDEMPOTENT))
        .count();
    assert_eq!(matching, 1, "one account record");
    assert_eq!(
        client
            .get_account(&ACCOUNT_IDEMPOTENT)
            .await
            .expect("get account")
            .id,
        first.id
    );

    // The same key with another body: 400, nothing created or changed.
    let other = create_request(
        ACCOUNT_IDEMPOTENT,
        ONBOARDING_READY,
        AccountType::Savings,
        "EUR",
    );
    let body = api_error(
        client.create_account(Some(IDEMPOTENCY_KEY), &other).await,
        400,
        &ErrorCode::ValidationError,
    );
    assert!(body.messages[0].contains("x-idempotency-key"), "{body:?}");
    // A new key for an account_id that already has an account: 400 (the service's choice).
    api_error(
        client.create_account(Some(fixed(0x7005)), &request).await,
        400,
        &ErrorCode::ValidationError,
    );
    assert_eq!(store.account(ACCOUNT_IDEMPOTENT), Some(first), "unchanged");

    // Without a key, the client sends a fresh UUID v4 of its own on each call.
    let before = api.recorder.entries_len();
    for account_id in [ACCOUNT_KEYLESS_1, ACCOUNT_KEYLESS_2] {
        created(
            client
                .create_account(
                    None,
                    &create_request(account_id, ONBOARDING_READY, AccountType::Checking, "USD"),
                )
                .await,
        );
    }
    let entries = api.recorder.entries();
    let keys: Vec<Uuid> = entries[before..]
        .iter()
        .map(|entry| {
            let key = request_header(entry, "x-idempotency-key").expect("x-idempotency-key sent");
            Uuid::parse_str(key).expect("a UUID")
        })
        .collect();
    assert_eq!(keys.len(), 2);
    assert!(
        keys.iter().all(|key| key.get_version_num() == 4),
        "{keys:?}"
    );
    assert_ne!(keys[0], keys[1], "a fresh key per call");
}

/// A raw request: method, path under `/v1`, headers, JSON body.
type RawCall<'a> = (Method, String, &'a [(&'a str, &'a str)], Option<&'a Value>);

async fn authentication(api: &Api) {
    let account = ACCOUNT_TRANSFERS;
    let transfer = TRANSFER_COMPLETED;
    let key = fixed(0x7006).to_string();
    let create = serde_json::to_value(create_request(
        fixed(0xe1),
        ONBOARDING_READY,
        AccountType::Checking,
        "USD",
    ))
    .expect("json");
    let update = json!({"account_id": account, "account_type": "SAVINGS"});
    let entity = entity_json(fixed(0xe1), "seller-unauthenticated");
    let key_header: &[(&str, &str)] = &[("x-idempotency-key", key.as_str())];
    let none: &[(&str, &str)] = &[];
    let calls: Vec<RawCall<'_>> = vec![
        (
            Method::POST,
            "/banking/accounts".into(),
            key_header,
            Some(&create),
        ),
        (
            Method::GET,
            format!("/banking/accounts/{account}"),
            none,
            None,
        ),
        (
            Method::PATCH,
            format!("/banking/accounts/{account}"),
            none,
            Some(&update),
        ),
        (
            Method::DELETE,
            format!("/banking/accounts/{account}"),
            none,
            None,
        ),
        (
            Method::GET,
            format!("/banking/accounts/{account}/transfers/{transfer}"),
            none,
            None,
        ),
        (
            Method::POST,
            format!("/banking/accounts/{account}/transfers/{transfer}/cancel"),
            none,
            None,
        ),
        (
            Method::POST,
            "/banking/entities".into(),
            key_header,
            Some(&entity),
        ),
        (
            Method::GET,
            "/payments?merchant_order_id=order-10042".into(),
            none,
            None,
        ),
        (
            Method::POST,
            format!("/recipients/onboardings/reverse-transfer/{}", fixed(0x7005)),
            none,
            None,
        ),
    ];
    for (method, path, headers, body) in &calls {
        let answer = api.probe(method.clone(), path, false, headers, *body).await;
        let messages = answer.assert_error(401, "NOT_AUTHENTICATED");
        assert!(
            messages.contains("public-api-key"),
            "{method} {path}: {messages}"
        );
    }
    // Nothing happened: the account is still there and unchanged.
    let still = api.store.account(account).expect("account");
    assert_eq!(still.status, Some(AccountStatus::Active));
    assert_eq!(still.account_type, Some(AccountType::Checking));
    assert!(api.store.account(fixed(0xe1)).is_none());

    // One header alone, or an empty one, is not enough.
    let path = format!("/banking/accounts/{account}");
    for headers in [
        vec![("public-api-key", PUBLIC_KEY)],
        vec![("private-secret-key", SECRET_KEY)],
        vec![("public-api-key", PUBLIC_KEY), ("private-secret-key", "")],
        vec![("public-api-key", "  "), ("private-secret-key", SECRET_KEY)],
    ] {
        api.probe(Method::GET, &path, false, &headers, None)
            .await
            .assert_error(401, "NOT_AUTHENTICATED");
    }
    // The typed client with empty credentials gets the typed 401.
    let anonymous = api.probe_client_with(Credentials::new("", ""));
    api_error(
        anonymous.get_account(&account).await,
        401,
        &ErrorCode::NotAuthenticated,
    );
    api_error(
        anonymous
            .get_payments_by_merchant_order_id("order-10042")
            .await,
        401,
        &ErrorCode::NotAuthenticated,
    );
}

async fn request_validation(api: &Api) {
    // A path UUID that is not one.
    let messages = api
        .probe(Method::GET, "/banking/accounts/12345", true, &[], None)
        .await
        .assert_error(400, "VALIDATION_ERROR");
    assert!(messages.contains("account_id"), "{messages}");
    let messages = api
        .probe(
            Method::POST,
            &format!("/banking/accounts/{ACCOUNT_TRANSFERS}/transfers/xfer_1/cancel"),
            true,
            &[],
            None,
        )
        .await
        .assert_error(400, "VALIDATION_ERROR");
    assert!(messages.contains("transfer_id"), "{messages}");

    // x-idempotency-key missing, or not a UUID.
    let body = serde_json::to_value(create_request(
        fixed(0xe2),
        ONBOARDING_READY,
        AccountType::Checking,
        "USD",
    ))
    .expect("json");
    let messages = api
        .probe(Method::POST, "/banking/accounts", true, &[], Some(&body))
        .await
        .assert_error(400, "VALIDATION_ERROR");
    assert!(messages.contains("x-idempotency-key"), "{messages}");
    let messages = api
        .probe(
            Method::POST,
            "/banking/accounts",
            true,
            &[("x-idempotency-key", "twelve")],
            Some(&body),
        )
        .await
        .assert_error(400, "VALIDATION_ERROR");
    assert!(messages.contains("x-idempotency-key"), "{messages}");

    // Every violation of the body is listed.
    let key = fixed(0x7007).to_string();
    let messages = api
        .probe(
            Method::POST,
            "/banking/accounts",
            true,
            &[("x-idempotency-key", &key)],
            Some(
                &json!({"account_id": "short", "account_type": "CHECKING", "currency": "DOLLARS"}),
            ),
        )
        .await
        .assert_error(400, "VALIDATION_ERROR");
    for field in ["account_id", "onboarding_id", "currency"] {
        assert!(messages.contains(field), "{field} in {messages}");
    }
    // A body that is not JSON, and one without its content type.
    let url = format!("{}/banking/accounts", api.probe_base());
    for (content_type, text) in [("application/json", "{not json"), ("text/plain", "{}")] {
        let response = api
            .http
            .post(&url)
            .header("public-api-key", PUBLIC_KEY)
            .header("private-secret-key", SECRET_KEY)
            .header("x-idempotency-key", &key)
            .header("content-type", content_type)
            .body(text)
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 400);
        let body: Value = response.json().await.expect("error body");
        assert_eq!(body["code"], "VALIDATION_ERROR");
        assert_eq!(body["http_code"], 400);
    }
    assert!(api.store.account(fixed(0xe2)).is_none());

    // Path values that are not UTF-8 once percent-decoded.
    for path in [
        "/banking/accounts/%FF%FE".to_owned(),
        format!("/banking/accounts/{ACCOUNT_TRANSFERS}/transfers/%C3%28"),
    ] {
        let messages = api
            .probe(Method::GET, &path, true, &[], None)
            .await
            .assert_error(400, "VALIDATION_ERROR");
        assert!(messages.contains("UTF-8"), "{messages}");
    }

    // Unknown paths and methods get the error body, never axum's plain text.
    for path in ["/banking/unknown", "/banking/accounts/", ""] {
        api.probe(Method::GET, path, true, &[], None)
            .await
            .assert_error(404, "NOT_FOUND");
    }
    let response = api
        .http
        .get(format!("{}/elsewhere", api.probes.origin()))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 404);
    let body: Value = response.json().await.expect("a JSON error body");
    assert_eq!(body["http_code"], 404);
    api.probe(
        Method::PUT,
        &format!("/banking/accounts/{ACCOUNT_TRANSFERS}"),
        true,
        &[],
        None,
    )
    .await
    .assert_error(405, "METHOD_NOT_ALLOWED");
    api.probe(Method::OPTIONS, "/banking/accounts", true, &[], None)
        .await
        .assert_error(405, "METHOD_NOT_ALLOWED");
}

/// Notifications the merchant acknowledges or answers 5xx go to `receiver`; the deliberately
/// invalid ones (a payload the contract forbids, a reply that does not acknowledge) to
/// `probes`, another receiver of the same merchant whose traffic is recorded apart.
async fn notifications(merchant: &Merchant, receiver: &Server, probes: &Server) {
    let sender = Sender::new(patient_policy());
    let origin = receiver.origin();
    let probe_origin = probes.origin();

    // Acknowledged at once.
    let delivery = sender
        .incoming_transfer(&origin, &notification("xfer_9d1f3b5a7c9e"))
        .await;
    assert_eq!(delivery, Delivery::Delivered { attempts: 1 });
    assert_eq!(merchant.take_calls(), 1);
    let received = merchant.received.lock().expect("received").pop();
    assert_eq!(received, Some(notification("xfer_9d1f3b5a7c9e")));

    // A handler failure (500) and a 503 are retried; the third attempt is acknowledged.
    merchant.script(&[Step::Fail, Step::Unavailable]);
    let delivery = sender
        .incoming_transfer(&origin, &notification("xfer_9d1f3b5a7c9f"))
        .await;
    assert_eq!(delivery, Delivery::Delivered { attempts: 3 });
    assert_eq!(
        merchant.take_calls(),
        2,
        "the 503 never reached the handler"
    );

    // 5xx on every attempt: given up after max_attempts.
    merchant.script(&[Step::Unavailable, Step::Fail, Step::Unavailable]);
    let delivery = sender
        .incoming_transfer(&origin, &notification("xfer_9d1f3b5a7ca0"))
        .await;
    match delivery {
        Delivery::GaveUp {
            attempts: 3,
            reason: GaveUp::Exhausted { last },
        } => assert!(last.contains("503"), "{last}"),
        other => panic!("expected exhaustion after 3 attempts, got {other:?}"),
    }
    assert_eq!(merchant.take_calls(), 1);

    // A 400 (the receiver rejects a payload its contract forbids) stops the retries.
    let delivery = sender
        .incoming_transfer(&probe_origin, &notification("transfer-without-prefix"))
        .await;
    match delivery {
        Delivery::GaveUp {
            attempts: 1,
            reason: GaveUp::Rejected { status: 400, body },
        } => assert!(body.contains("id"), "{body}"),
        other => panic!("expected a rejection after 1 attempt, got {other:?}"),
    }
    assert_eq!(merchant.take_calls(), 0, "the handler never saw it");

    // 200 with {"received": false} is not an acknowledgement (and not retried).
    merchant.script(&[Step::NotReceived]);
    let delivery = sender
        .incoming_transfer(&probe_origin, &notification("xfer_9d1f3b5a7ca1"))
        .await;
    match delivery {
        Delivery::GaveUp {
            attempts: 1,
            reason: GaveUp::NotAcknowledged { status: 200, .. },
        } => {}
        other => panic!("expected no acknowledgement, got {other:?}"),
    }
    assert_eq!(merchant.take_calls(), 1);

    // Invalid payloads sent raw: 400 with messages, the handler not called.
    let http = reqwest::Client::new();
    let url = format!("{probe_origin}/v1/banking/transfers");
    let invalid = [
        ("application/json", "{not json".to_owned()),
        (
            "application/json",
            json!({"id": "xfer_1", "direction": "OUTGOING", "amount": {"value": "ten"}})
                .to_string(),
        ),
    ];
    for (content_type, text) in invalid {
        let response = http
            .post(&url)
            .header("content-type", content_type)
            .body(text)
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 400);
        let body: Value = response.json().await.expect("JSON");
        let messages = body["messages"].as_array().expect("messages");
        assert!(!messages.is_empty(), "{body}");
    }
    assert_eq!(merchant.take_calls(), 0);

    // A rail the service has added since is the contract's error (specval reports it), but
    // the merchant's handler gets the event, as the client reads such a value in a response:
    // a 400 would end the deliveries and lose the transfer.
    let mut newer = serde_json::to_value(notification("xfer_9d1f3b5a7ca2")).expect("JSON");
    newer["payment_rail"] = json!("SEPA_INSTANT");
    let response = http
        .post(&url)
        .header("content-type", "application/json")
        .body(newer.to_string())
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.json::<Value>().await.expect("JSON"),
        json!({"received": true})
    );
    assert_eq!(merchant.take_calls(), 1);
    let received = merchant.received.lock().expect("received").pop();
    assert_eq!(
        received.map(|payload| payload.payment_rail),
        Some(Some(PaymentRail::Unknown("SEPA_INSTANT".into())))
    );
}

// =============================================================================================
// Timing-dependent scenarios (not in the committed traffic)
// =============================================================================================

/// How much longer than a time-out a slow answer takes.
const SLOWER: Duration = Duration::from_millis(150);

/// A notification answered 503, then timed out, then acknowledged: delivered on attempt 3.
#[tokio::test]
async fn a_notification_is_retried_after_a_503_and_a_time_out() {
    let merchant = Merchant::default();
    let recorder = HarRecorder::new().label("merchant-timeouts");
    let receiver = Server::start(merchant.router(&recorder)).await;
    let timeout = Duration::from_millis(200);
    let sender = Sender::new(DeliveryPolicy {
        max_attempts: 4,
        base_delay: Duration::from_millis(2),
        max_delay: Duration::from_millis(10),
        timeout,
    });

    merchant.script(&[Step::Unavailable, Step::Slow(timeout + SLOWER)]);
    let started = Instant::now();
    let delivery = sender
        .incoming_transfer(&receiver.origin(), &notification("xfer_9d1f3b5a7cb0"))
        .await;
    assert_eq!(delivery, Delivery::Delivered { attempts: 3 });
    assert!(
        started.elapsed() >= timeout,
        "the second attempt waited for its time-out"
    );
    assert_eq!(
        merchant.take_calls(),
        2,
        "the slow call and the acknowledged one"
    );

    // Only a time-out, on every attempt: given up, each attempt cut at the time-out.
    merchant.script(&[Step::Slow(timeout + SLOWER), Step::Slow(timeout + SLOWER)]);
    let short = Sender::new(DeliveryPolicy {
        max_attempts: 2,
        base_delay: Duration::from_millis(2),
        max_delay: Duration::from_millis(10),
        timeout,
    });
    match short
        .incoming_transfer(&receiver.origin(), &notification("xfer_9d1f3b5a7cb1"))
        .await
    {
        Delivery::GaveUp {
            attempts: 2,
            reason: GaveUp::Exhausted { last },
        } => assert!(last.contains("timed out"), "{last}"),
        other => panic!("expected exhaustion by time-outs, got {other:?}"),
    }

    // Nothing listens: connection errors are retried too, then given up.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        format!("http://{}", listener.local_addr().expect("address"))
    };
    match short
        .incoming_transfer(&closed, &notification("xfer_9d1f3b5a7cb2"))
        .await
    {
        Delivery::GaveUp {
            attempts: 2,
            reason: GaveUp::Exhausted { last },
        } => assert!(last.contains("could not connect"), "{last}"),
        other => panic!("expected exhaustion by connection errors, got {other:?}"),
    }

    // An exchange the sender abandoned at its time-out is not in the HAR: the server drops
    // the request when the client hangs up, before the recorder completes the entry. The 503
    // and the acknowledgement are.
    receiver.stop().await;
    publish(&[&recorder]);
}

/// A retry app: POST /v1/banking/accounts answers 503 to the first two attempts of each
/// idempotency key, then 201; it records the key of every attempt.
#[derive(Clone, Default)]
struct FlakyCreate {
    keys: Arc<Mutex<Vec<Option<String>>>>,
}

async fn flaky_create(State(app): State<FlakyCreate>, headers: HeaderMap) -> Response {
    let key = headers
        .get("x-idempotency-key")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let attempts = {
        let mut keys = app.keys.lock().expect("keys");
        keys.push(key.clone());
        keys.iter().filter(|seen| **seen == key).count()
    };
    if attempts <= 2 {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"code": "UNAVAILABLE", "messages": ["try again"], "http_code": 503})),
        )
            .into_response();
    }
    let account = json!({
        "id": "acct_2f7c9a1e4b6d",
        "account_id": ACCOUNT_IDEMPOTENT,
        "status": "ACTIVE",
        "account_type": "CHECKING",
        "currency": "USD"
    });
    (StatusCode::CREATED, Json(account)).into_response()
}

fn quick_retries() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 3,
        base_delay: Duration::from_millis(2),
        max_delay: Duration::from_millis(10),
    }
}

#[tokio::test]
async fn the_client_retries_a_create_on_503_with_the_same_idempotency_key() {
    let app = FlakyCreate::default();
    let recorder = HarRecorder::new().label("retry-create");
    let router = Router::new()
        .route("/v1/banking/accounts", post(flaky_create))
        .with_state(app.clone())
        .layer(recorder.layer());
    let server = Server::start(router).await;
    let client = Client::builder(format!("{}/v1", server.origin()), credentials())
        .retry(quick_retries())
        .build()
        .expect("client");
    let request = create_request(
        ACCOUNT_IDEMPOTENT,
        ONBOARDING_READY,
        AccountType::Checking,
        "USD",
    );

    // An explicit key, then one the client makes: three attempts each, one key each.
    let account = created(client.create_account(Some(IDEMPOTENCY_KEY), &request).await);
    assert_eq!(account.account_id, Some(ACCOUNT_IDEMPOTENT));
    created(client.create_account(None, &request).await);

    let keys = app.keys.lock().expect("keys").clone();
    assert_eq!(keys.len(), 6, "{keys:?}");
    let explicit = IDEMPOTENCY_KEY.to_string();
    assert!(
        keys[..3]
            .iter()
            .all(|key| key.as_deref() == Some(&explicit)),
        "{keys:?}"
    );
    let generated = keys[3].clone().expect("a generated key");
    assert!(Uuid::parse_str(&generated).is_ok(), "{generated}");
    assert_ne!(generated, explicit);
    assert!(
        keys[3..]
            .iter()
            .all(|key| key.as_deref() == Some(&generated)),
        "{keys:?}"
    );

    // Without enough attempts the last 503 comes back.
    let impatient = Client::builder(format!("{}/v1", server.origin()), credentials())
        .retry(RetryPolicy {
            max_attempts: 2,
            ..quick_retries()
        })
        .build()
        .expect("client");
    match impatient.create_account(None, &request).await {
        Err(ClientError::Api { status, .. }) => assert_eq!(status.as_u16(), 503),
        other => panic!("expected the last 503, got {other:?}"),
    }
    assert_eq!(app.keys.lock().expect("keys").len(), 8);

    server.stop().await;
    publish(&[&recorder]);
}

/// A retry app for reads and non-idempotent writes: counts the attempts per route.
#[derive(Clone, Default)]
struct Counting {
    hits: Arc<Mutex<HashMap<&'static str, usize>>>,
}

impl Counting {
    fn hit(&self, route: &'static str) -> usize {
        let mut hits = self.hits.lock().expect("hits");
        let count = hits.entry(route).or_default();
        *count += 1;
        *count
    }

    fn hits(&self, route: &'static str) -> usize {
        self.hits
            .lock()
            .expect("hits")
            .get(route)
            .copied()
            .unwrap_or(0)
    }
}

fn unavailable() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        Json(json!({"code": "UNAVAILABLE", "messages": ["try again"], "http_code": 503})),
    )
        .into_response()
}

/// The time-out of each attempt of the client in the retry-rules test.
const CLIENT_TIMEOUT: Duration = Duration::from_millis(200);

/// GET: the first attempt is slower than the client's time-out, the next one answers.
async fn slow_then_account(State(app): State<Counting>) -> Response {
    if app.hit("get") == 1 {
        tokio::time::sleep(CLIENT_TIMEOUT + SLOWER).await;
    }
    Json(json!({"id": "acct_2f7c9a1e4b6d", "account_id": ACCOUNT_LIFECYCLE, "status": "ACTIVE"}))
        .into_response()
}

#[tokio::test]
async fn the_client_retries_reads_and_idempotent_writes_only() {
    let app = Counting::default();
    let recorder = HarRecorder::new().label("retry-rules");
    let router = Router::new()
        .route(
            "/v1/banking/accounts/{account_id}",
            get(slow_then_account).patch({
                let app = app.clone();
                move || async move {
                    app.hit("patch");
                    unavailable()
                }
            }),
        )
        .route(
            "/v1/banking/accounts/{account_id}/transfers/{transfer_id}/cancel",
            post({
                let app = app.clone();
                move || async move {
                    app.hit("cancel");
                    unavailable()
                }
            }),
        )
        .route(
            "/v1/banking/accounts/{account_id}/transfers/{transfer_id}",
            get({
                let app = app.clone();
                move || async move {
                    app.hit("transfer");
                    unavailable()
                }
            }),
        )
        .route(
            "/v1/payments",
            get({
                let app = app.clone();
                move || async move {
                    app.hit("payments");
                    (
                        StatusCode::NOT_FOUND,
                        Json(json!({"code": "NOT_FOUND", "messages": ["no"], "http_code": 404})),
                    )
                }
            }),
        )
        .with_state(app.clone())
        .layer(recorder.layer());
    let server = Server::start(router).await;
    let client = Client::builder(format!("{}/v1", server.origin()), credentials())
        .timeout(CLIENT_TIMEOUT)
        .retry(quick_retries())
        .build()
        .expect("client");

    // A GET that times out is retried, and the retry's answer is returned.
    let started = Instant::now();
    let account = client
        .get_account(&ACCOUNT_LIFECYCLE)
        .await
        .expect("the retried GET succeeds");
    assert_eq!(account.account_id, Some(ACCOUNT_LIFECYCLE));
    assert_eq!(app.hits("get"), 2);
    assert!(started.elapsed() >= CLIENT_TIMEOUT);

    // A GET answered 503 every time: max_attempts attempts, then the 503.
    match client
        .get_account_transfer(&ACCOUNT_TRANSFERS, &TRANSFER_PENDING)
        .await
    {
        Err(ClientError::Api { status, .. }) => assert_eq!(status.as_u16(), 503),
        other => panic!("expected the last 503, got {other:?}"),
    }
    assert_eq!(app.hits("transfer"), 3);

    // A 4xx is not retried.
    api_error(
        client.get_payments_by_merchant_order_id("order-1").await,
        404,
        &ErrorCode::from("NOT_FOUND"),
    );
    assert_eq!(app.hits("payments"), 1);

    // POST cancel and PATCH carry no idempotency key: a 503 is not retried.
    match client
        .cancel_account_transfer(&ACCOUNT_TRANSFERS, &TRANSFER_PENDING)
        .await
    {
        Err(ClientError::Api { status, .. }) => assert_eq!(status.as_u16(), 503),
        other => panic!("expected the 503, got {other:?}"),
    }
    assert_eq!(app.hits("cancel"), 1, "cancel is not retried");
    match client
        .update_account(
            &ACCOUNT_LIFECYCLE,
            &update_request(ACCOUNT_LIFECYCLE, Some(AccountType::Savings)),
        )
        .await
    {
        Err(ClientError::Api { status, .. }) => assert_eq!(status.as_u16(), 503),
        other => panic!("expected the 503, got {other:?}"),
    }
    assert_eq!(app.hits("patch"), 1, "PATCH is not retried");

    // A client that cannot connect retries, then reports the transport error.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        format!("http://{}/v1", listener.local_addr().expect("address"))
    };
    let nowhere = Client::builder(closed, credentials())
        .retry(quick_retries())
        .build()
        .expect("client");
    match nowhere.get_account(&ACCOUNT_LIFECYCLE).await {
        Err(ClientError::Transport(err)) => assert!(err.is_connect(), "{err}"),
        other => panic!("expected a connection error, got {other:?}"),
    }

    // (The first GET, abandoned at the client's time-out, is not in the HAR.)
    server.stop().await;
    publish(&[&recorder]);
}

// =============================================================================================
// Bugs found in the generated code
// =============================================================================================

/// `ClientError::InvalidRequest` is documented as "the request could not be built (for
/// example an invalid base URL)", but the generated client never constructs it: reqwest's
/// builder error comes back as `ClientError::Transport`, whose `Display` then says
/// "transport error: builder error" although nothing was sent.
#[tokio::test]
async fn a_request_that_cannot_be_built_is_an_invalid_request() {
    // An invalid base URL is refused when the client is built, naming the URL, rather than
    // at every call.
    let bad_url = Client::builder("not a url", credentials())
        .retry(RetryPolicy::none())
        .build();
    match bad_url.err() {
        Some(ClientError::InvalidRequest(reason)) => {
            assert!(reason.contains("not a url"), "{reason}")
        }
        other => panic!("an invalid base URL: expected InvalidRequest, got {other:?}"),
    }
    let bad_header = Client::builder(
        "http://127.0.0.1:9/v1",
        Credentials::new("pk_test\n", SECRET_KEY),
    )
    .retry(RetryPolicy::none())
    .build()
    .expect("client");
    match bad_header.get_account(&ACCOUNT_LIFECYCLE).await {
        Err(ClientError::InvalidRequest(_)) => {}
        other => panic!("a credential with a line break: expected InvalidRequest, got {other:?}"),
    }
}

/// RFC 9110 §15.5.6: a 405 response MUST carry an `Allow` header listing the methods the
/// resource supports (axum adds it around the router's `method_not_allowed` fallback, so it
/// is on the wire but not in the HAR entries).
#[tokio::test]
async fn a_405_names_the_allowed_methods() {
    let api = Api::start().await;
    for (method, path, allowed) in [
        (
            Method::PUT,
            format!("/banking/accounts/{ACCOUNT_LIFECYCLE}"),
            &["GET", "PATCH", "DELETE"][..],
        ),
        (Method::GET, "/banking/accounts".to_owned(), &["POST"][..]),
    ] {
        let response = api
            .http
            // A method the path does not have is off the contract: the probe server takes it.
            .request(method.clone(), format!("{}{path}", api.probe_base()))
            .header("public-api-key", PUBLIC_KEY)
            .header("private-secret-key", SECRET_KEY)
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 405, "{method} {path}");
        let allow = response
            .headers()
            .get("allow")
            .and_then(|value| value.to_str().ok())
            .unwrap_or_else(|| panic!("{method} {path}: 405 without an Allow header"))
            .to_owned();
        for expected in allowed {
            assert!(allow.contains(expected), "{method} {path}: Allow: {allow}");
        }
        let body: Value = response.json().await.expect("the error body");
        assert_eq!(body["code"], "METHOD_NOT_ALLOWED");
        assert_eq!(body["http_code"], 405);
    }
    let recorders = [api.recorder.clone(), api.probe_recorder.clone()];
    api.stop().await;
    publish(&[&recorders[0], &recorders[1]]);
}

/// A request without credentials is 401 whatever else is wrong with it; the generated router
/// checks the credentials only after reading the path parameters, the query string and the
/// body, so a request that fails there gets that 400 instead.
#[tokio::test]
async fn missing_credentials_are_401_before_anything_else() {
    let recorder = HarRecorder::new().label("api-small-limit");
    let config = server::ServerConfig { body_limit: 64 };
    let server =
        Server::start(server::router_with(InMemoryService::new(), config).layer(recorder.layer()))
            .await;
    let http = reqwest::Client::new();
    let big = entity_json(ACCOUNT_ENTITY, "seller-with-a-long-body");
    let requests = [
        http.post(format!("{}/v1/banking/entities", server.origin()))
            .header("x-idempotency-key", ENTITY_KEY.to_string())
            .json(&big),
        http.get(format!("{}/v1/banking/accounts/%FF", server.origin())),
    ];
    let mut failures = Vec::new();
    for request in requests {
        let response = request.send().await.expect("request");
        let url = response.url().path().to_owned();
        let status = response.status().as_u16();
        let body: Value = response.json().await.expect("an error body");
        if status != 401 || body["code"] != "NOT_AUTHENTICATED" {
            failures.push(format!("{url}: {status} {body}"));
        }
    }
    server.stop().await;
    publish(&[&recorder]);
    assert!(
        failures.is_empty(),
        "expected 401 NOT_AUTHENTICATED:\n{}",
        failures.join("\n")
    );
}
