// Over 600 lines on purpose: one benchmark binary, its documentation table and its report in one place.
//! Load benchmark: what the generated router's checks cost, as a ratio to a bare handler.
//!
//! ```sh
//! cargo bench -p sandbox --bench load          # or scripts/bench-load.sh
//! LOAD_PIN=1 cargo bench -p sandbox --bench load
//! ```
//!
//! Two routes, `GET /v1/banking/accounts/{account_id}` (200, a seeded account) and
//! `POST /v1/banking/entities` (201, a fresh `merchant_entity_id` and idempotency key per
//! request), each served in-process on `127.0.0.1:0` by seven servers:
//!
//! | server | what answers |
//! |---|---|
//! | `bare` | a plain axum route answering fixed bytes: the same status, `Content-Type` and body bytes as the sandbox, no checks, no parsing (the POST body is read, not parsed) |
//! | `bare-json` | `bare`, except that the POST body is parsed with axum's `Json<serde_json::Value>` extractor: the least a handler that reads its JSON body does (the GET route is `bare`'s) |
//! | `typed` | a plain axum route with typed extractors (`Path<Uuid>`, `Json<CreateEntityRequest>`) answering `Json(model)`: what a hand-written server does, without contract checks |
//! | `generated` | the generated router (`orchestration_api::server::router`) over a stub `Api` that answers a clone of the same prebuilt model: the router's checks and (de)serialisation, no state machine |
//! | `sandbox` | [`sandbox::Sandbox::router`]: the generated router, the in-memory state machine, the control API routes and the request-log middleware (no tracing subscriber is installed, so the log lines are disabled) |
//! | `sandbox+layer` | `sandbox` behind `specval::layer::ContractLayer` in report mode: every exchange also checked against the contract as `specval check` would, on the thread that served it |
//! | `sandbox+layer-bg` | the same with `check_in_background(1)`: each exchange is checked on the layer's own thread after its answer is sent (the server CPU column counts that thread too) |
//!
//! Every server is driven the same way: `LOAD_CONNECTIONS` keep-alive HTTP/1.1 connections
//! (hyper's client connections, `TCP_NODELAY`), `LOAD_WARMUP` requests first, then
//! `LOAD_REQUESTS` measured ones; each request's latency is taken from just before it is
//! sent until its whole body is read, into an HDR histogram. Request bodies and idempotency
//! keys are generated before the clock starts. Every answer's status is checked, and before
//! each measurement one answer's body is compared with the expected bytes (equal, or for the
//! sandbox's POST, whose ids and timestamps are fresh, of equal length).
//!
//! The whole set is repeated `LOAD_REPEATS` times, the order of the servers rotated each time;
//! the figures printed are medians, and each ratio is the median of the ratios measured in
//! the same repeat (a noisy machine drifts between repeats more than within one).
//!
//! # The two cores
//!
//! The server runs on its own thread, a 1-thread tokio runtime by default
//! (`LOAD_SERVER_THREADS`), and the load generator on the main thread, a 1-thread runtime:
//! each can use at most one core, so neither takes the other's core. On a shared machine
//! both still compete with other load. Besides throughput and latency, the table shows the
//! server's CPU time per request (process CPU time less the load generator's thread) and the
//! load generator's CPU use. When the two threads together use about one core (server CPU
//! per request × req/s + load generator CPU ≈ 100 %), they are taking turns rather than
//! running side by side: the load generator's own cost per request is then in every
//! server's wall time, which pulls the throughput ratio towards 1. The CPU ratio (bare's
//! server CPU per request over this server's) is not affected: it is the throughput ratio
//! of a server that has a core to itself. `LOAD_PIN=1` pins the server's threads to core 0
//! and the load generator to core 1 (`sched_setaffinity`); on a busy machine this can be
//! worse than not pinning, since a pinned thread cannot move away from a neighbour.
//!
//! serde_json is built without `preserve_order`, as a server on the generated crate gets it
//! (see `sandbox/Cargo.toml`); in a build that enables it, every server that parses a body
//! pays about 45 % more for the parse.
//!
//! Each measurement stops after `LOAD_TIME_LIMIT_SECS` (default 60) even if requests remain;
//! only loopback addresses are used. Run without `--bench` (as `cargo test --all-targets`
//! does), it makes a smoke run of 200 requests instead.
//!
//! | variable | default | what |
//! |---|---|---|
//! | `LOAD_REQUESTS` | 20000 | measured requests per server and route |
//! | `LOAD_WARMUP` | 2000 | requests before the measured ones |
//! | `LOAD_CONNECTIONS` | 32 | concurrent keep-alive connections |
//! | `LOAD_REPEATS` | 3 | repeats of the whole set (medians reported) |
//! | `LOAD_SERVER_THREADS` | 1 | tokio worker threads of the server (1: a current-thread runtime) |
//! | `LOAD_PIN` | 0 | 1: server on core 0, load generator on core 1 |
//! | `LOAD_TIME_LIMIT_SECS` | 60 | longest measurement |
//! | `LOAD_ROUTES` | `get,post` | which routes |
//! | `LOAD_SERVERS` | `bare,bare-json,typed,generated,sandbox,sandbox+layer,sandbox+layer-bg` | which servers (`bare` is needed for ratios) |
//! | `LOAD_SERVE_SECS` | unset | set: no measurement; serve `bare`, `bare-json`, `generated` and the sandbox for an external load generator (see [`serve_for_external`]) |

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, Method, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::serve::ListenerExt as _;
use hdrhistogram::Histogram;
use http_body_util::{BodyExt as _, Full};
use hyper::client::conn::http1::{self, SendRequest};
use hyper_util::rt::TokioIo;
use orchestration_api::credentials::Credentials;
use orchestration_api::models::{
    Account, AccountType, CreateAccountRequest, CreateEntityRequest, Entity, Error, ErrorCode,
    OnboardingStatus,
};
use orchestration_api::server::{
    self, Api, CancelAccountTransferParams, CancelAccountTransferResponse, CloseAccountParams,
    CloseAccountResponse, CreateAccountParams, CreateAccountResponse, CreateEntityParams,
    CreateEntityResponse, GetAccountParams, GetAccountResponse, GetAccountTransferParams,
    GetAccountTransferResponse, GetPaymentsByMerchantOrderIdParams,
    GetPaymentsByMerchantOrderIdResponse, ReverseTransferOnboardingParams,
    ReverseTransferOnboardingResponse, UpdateAccountParams, UpdateAccountResponse,
};
use sandbox::{Sandbox, SandboxOptions};
use serde_json::json;
use tokio::net::{TcpListener, TcpStream};
use uuid::Uuid;

const PUBLIC_KEY: &str = "pk_bench";
const SECRET_KEY: &str = "sk_bench";
const GET_PATH: &str = "/v1/banking/accounts/{account_id}";
const POST_PATH: &str = "/v1/banking/entities";
/// The issue's target: at least this share of the bare handler's throughput.
const TARGET: f64 = 0.75;

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
struct Settings {
    requests: usize,
    warmup: usize,
    connections: usize,
    repeats: usize,
    server_threads: usize,
    pin: bool,
    time_limit: Duration,
    routes: Vec<Route>,
    servers: Vec<Kind>,
}

fn env_number(name: &str, default: usize, min: usize) -> usize {
    match std::env::var(name) {
        Ok(text) => match text.trim().parse::<usize>() {
            Ok(value) if value >= min => value,
            _ => panic!("{name}={text}: expected a whole number ≥ {min}"),
        },
        Err(_) => default,
    }
}

fn env_list<T>(name: &str, all: &[T], parse: impl Fn(&str) -> Option<T>) -> Vec<T>
where
    T: Copy,
{
    match std::env::var(name) {
        Ok(text) => text
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(|item| parse(item).unwrap_or_else(|| panic!("{name}: unknown `{item}`")))
            .collect(),
        Err(_) => all.to_vec(),
    }
}

impl Settings {
    fn from_env() -> Self {
        Self {
            requests: env_number("LOAD_REQUESTS", 20_000, 1),
            warmup: env_number("LOAD_WARMUP", 2_000, 0),
            connections: env_number("LOAD_CONNECTIONS", 32, 1),
            repeats: env_number("LOAD_REPEATS", 3, 1),
            server_threads: env_number("LOAD_SERVER_THREADS", 1, 1),
            pin: env_number("LOAD_PIN", 0, 0) != 0,
            time_limit: Duration::from_secs(env_number("LOAD_TIME_LIMIT_SECS", 60, 1) as u64),
            routes: env_list("LOAD_ROUTES", &Route::ALL, Route::parse),
            servers: env_list("LOAD_SERVERS", &Kind::ALL, Kind::parse),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    Get,
    Post,
}

impl Route {
    const ALL: [Route; 2] = [Route::Get, Route::Post];

    fn parse(text: &str) -> Option<Self> {
        match text.to_ascii_lowercase().as_str() {
            "get" => Some(Self::Get),
            "post" => Some(Self::Post),
            _ => None,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::Get => "GET /v1/banking/accounts/{account_id}",
            Self::Post => "POST /v1/banking/entities",
        }
    }

    fn expected(self) -> StatusCode {
        match self {
            Self::Get => StatusCode::OK,
            Self::Post => StatusCode::CREATED,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bare,
    BareJson,
    Typed,
    Generated,
    Sandbox,
    SandboxLayer,
    SandboxLayerBackground,
}

impl Kind {
    const ALL: [Kind; 7] = [
        Kind::Bare,
        Kind::BareJson,
        Kind::Typed,
        Kind::Generated,
        Kind::Sandbox,
        Kind::SandboxLayer,
        Kind::SandboxLayerBackground,
    ];

    fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.name() == text)
    }

    fn name(self) -> &'static str {
        match self {
            Self::Bare => "bare",
            Self::BareJson => "bare-json",
            Self::Typed => "typed",
            Self::Generated => "generated",
            Self::Sandbox => "sandbox",
            Self::SandboxLayer => "sandbox+layer",
            Self::SandboxLayerBackground => "sandbox+layer-bg",
        }
    }
}

// ---------------------------------------------------------------------------------------------
// What is sent and answered
// ---------------------------------------------------------------------------------------------

/// One POST, prepared before the clock starts.
struct PostItem {
    key: HeaderValue,
    body: Bytes,
}

/// The requests and the answers every server gives.
struct Fixtures {
    /// The seeded account, as the sandbox serves it, and its JSON bytes.
    account: Account,
    account_bytes: Bytes,
    /// The sandbox that holds that account (GET only reads it, so every GET measurement of
    /// the sandbox shares it).
    get_sandbox: Sandbox,
    get_uri: String,
    /// An entity as the sandbox creates it, and its JSON bytes.
    entity: Entity,
    entity_bytes: Bytes,
    /// Warm-up and measured POSTs, then one for the check before each measurement: each
    /// a fresh `merchant_entity_id` and idempotency key. Each measurement of the sandbox
    /// gets a fresh sandbox, so the list is reused.
    posts: Vec<PostItem>,
}

fn entity_body(account_id: Uuid, merchant_entity_id: &str) -> serde_json::Value {
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

fn merchant_entity_id(n: usize) -> String {
    format!("bench-{n:09}")
}

impl Fixtures {
    async fn build(settings: &Settings) -> Self {
        let account_id = Uuid::from_u128(0x2d3e_4f50_6172_4839_9a4b_5c6d_7e8f_9012);
        let credentials = Credentials::new(PUBLIC_KEY, SECRET_KEY);

        let get_sandbox = Sandbox::new(SandboxOptions::default()).expect("sandbox");
        get_sandbox
            .service()
            .merchant(&credentials)
            .seed_onboarding("onb_bench", OnboardingStatus::Succeeded);
        let created = get_sandbox
            .service()
            .create_account(
                CreateAccountParams {
                    credentials: credentials.clone(),
                    x_idempotency_key: Uuid::new_v4(),
                },
                CreateAccountRequest {
                    account_id,
                    onboarding_id: "onb_bench".to_owned(),
                    account_type: AccountType::Checking,
                    currency: "USD".to_owned(),
                    additional_properties: serde_json::Map::new(),
                },
            )
            .await;
        let CreateAccountResponse::Created(account) = created else {
            panic!("seeding the account failed: {created:?}");
        };
        let account_bytes = Bytes::from(serde_json::to_vec(&account).expect("account JSON"));

        // The entity as the sandbox answers it, from a sandbox of its own.
        let scratch = Sandbox::new(SandboxOptions::default()).expect("sandbox");
        let request: CreateEntityRequest =
            serde_json::from_value(entity_body(account_id, &merchant_entity_id(0)))
                .expect("entity request");
        let created = scratch
            .service()
            .create_entity(
                CreateEntityParams {
                    credentials,
                    x_idempotency_key: Uuid::new_v4(),
                },
                request,
            )
            .await;
        let CreateEntityResponse::Created(entity) = created else {
            panic!("creating the sample entity failed: {created:?}");
        };
        let entity_bytes = Bytes::from(serde_json::to_vec(&entity).expect("entity JSON"));

        let posts = (0..=settings.warmup + settings.requests)
            .map(|n| PostItem {
                key: HeaderValue::from_str(&Uuid::new_v4().to_string()).expect("uuid header"),
                body: Bytes::from(
                    serde_json::to_vec(&entity_body(account_id, &merchant_entity_id(n)))
                        .expect("entity body"),
                ),
            })
            .collect();

        Self {
            account,
            account_bytes,
            get_sandbox,
            get_uri: GET_PATH.replace("{account_id}", &account_id.to_string()),
            entity,
            entity_bytes,
            posts,
        }
    }

    fn request(&self, route: Route, index: usize) -> Request<Full<Bytes>> {
        let builder = Request::builder()
            .header(header::HOST, "127.0.0.1")
            .header("public-api-key", PUBLIC_KEY)
            .header("private-secret-key", SECRET_KEY);
        let request = match route {
            Route::Get => builder
                .method(Method::GET)
                .uri(self.get_uri.as_str())
                .body(Full::new(Bytes::new())),
            Route::Post => {
                let item = &self.posts[index];
                builder
                    .method(Method::POST)
                    .uri(POST_PATH)
                    .header(header::CONTENT_TYPE, "application/json")
                    .header("x-idempotency-key", item.key.clone())
                    .body(Full::new(item.body.clone()))
            }
        };
        request.expect("request")
    }
}

// ---------------------------------------------------------------------------------------------
// The servers
// ---------------------------------------------------------------------------------------------

fn json_bytes(status: StatusCode, body: Bytes) -> Response {
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

/// Fixed bytes, no checks: the baseline.
fn bare_router(fixtures: &Fixtures) -> Router {
    let entity = fixtures.entity_bytes.clone();
    bare_get(fixtures).route(
        POST_PATH,
        post(move |_body: Bytes| {
            let entity = entity.clone();
            async move { json_bytes(StatusCode::CREATED, entity) }
        }),
    )
}

/// The bare GET route.
fn bare_get(fixtures: &Fixtures) -> Router {
    let account = fixtures.account_bytes.clone();
    Router::new().route(
        GET_PATH,
        get(move || {
            let account = account.clone();
            async move { json_bytes(StatusCode::OK, account) }
        }),
    )
}

/// `bare`, but the POST body goes through axum's JSON extractor into a `Value` (which
/// also checks `Content-Type`): a handler that reads its body, and nothing else.
fn bare_json_router(fixtures: &Fixtures) -> Router {
    let entity = fixtures.entity_bytes.clone();
    bare_get(fixtures).route(
        POST_PATH,
        post(move |axum::Json(body): axum::Json<serde_json::Value>| {
            let entity = entity.clone();
            async move {
                std::hint::black_box(body);
                json_bytes(StatusCode::CREATED, entity)
            }
        }),
    )
}

#[derive(Clone)]
struct Models {
    account: Account,
    entity: Entity,
}

async fn typed_get(State(models): State<Arc<Models>>, Path(_id): Path<Uuid>) -> Response {
    axum::Json(models.account.clone()).into_response()
}

async fn typed_post(
    State(models): State<Arc<Models>>,
    axum::Json(_body): axum::Json<CreateEntityRequest>,
) -> Response {
    (StatusCode::CREATED, axum::Json(models.entity.clone())).into_response()
}

/// Typed extractors and `Json` answers, no contract checks.
fn typed_router(fixtures: &Fixtures) -> Router {
    Router::new()
        .route(GET_PATH, get(typed_get))
        .route(POST_PATH, post(typed_post))
        .with_state(Arc::new(Models {
            account: fixtures.account.clone(),
            entity: fixtures.entity.clone(),
        }))
}

/// An `Api` that answers prebuilt models: the generated router's own cost, without the
/// state machine.
#[derive(Clone)]
struct Stub(Arc<Models>);

fn not_here() -> Error {
    Error {
        code: ErrorCode::ValidationError,
        messages: vec!["not part of the benchmark".to_owned()],
        http_code: 400,
        additional_properties: serde_json::Map::new(),
    }
}

impl Api for Stub {
    async fn create_account(
        &self,
        _params: CreateAccountParams,
        _body: CreateAccountRequest,
    ) -> CreateAccountResponse {
        CreateAccountResponse::BadRequest(not_here())
    }

    async fn get_account(&self, _params: GetAccountParams) -> GetAccountResponse {
        GetAccountResponse::Ok(self.0.account.clone())
    }

    async fn close_account(&self, _params: CloseAccountParams) -> CloseAccountResponse {
        CloseAccountResponse::BadRequest(not_here())
    }

    async fn update_account(
        &self,
        _params: UpdateAccountParams,
        _body: orchestration_api::models::UpdateAccountRequest,
    ) -> UpdateAccountResponse {
        UpdateAccountResponse::BadRequest(not_here())
    }

    async fn get_account_transfer(
        &self,
        _params: GetAccountTransferParams,
    ) -> GetAccountTransferResponse {
        GetAccountTransferResponse::BadRequest(not_here())
    }

    async fn cancel_account_transfer(
        &self,
        _params: CancelAccountTransferParams,
    ) -> CancelAccountTransferResponse {
        CancelAccountTransferResponse::BadRequest(not_here())
    }

    async fn create_entity(
        &self,
        _params: CreateEntityParams,
        _body: CreateEntityRequest,
    ) -> CreateEntityResponse {
        CreateEntityResponse::Created(self.0.entity.clone())
    }

    async fn get_payments_by_merchant_order_id(
        &self,
        _params: GetPaymentsByMerchantOrderIdParams,
    ) -> GetPaymentsByMerchantOrderIdResponse {
        GetPaymentsByMerchantOrderIdResponse::ClientError(
            StatusCode::BAD_REQUEST,
            serde_json::to_value(not_here()).unwrap_or_default(),
        )
    }

    async fn reverse_transfer_onboarding(
        &self,
        _params: ReverseTransferOnboardingParams,
        _body: Option<serde_json::Value>,
    ) -> ReverseTransferOnboardingResponse {
        ReverseTransferOnboardingResponse::ClientError(
            StatusCode::BAD_REQUEST,
            serde_json::to_value(not_here()).unwrap_or_default(),
        )
    }
}

fn router_for(kind: Kind, route: Route, fixtures: &Fixtures) -> Router {
    match kind {
        Kind::Bare => bare_router(fixtures),
        Kind::BareJson => bare_json_router(fixtures),
        Kind::Typed => typed_router(fixtures),
        Kind::Generated => server::router(Stub(Arc::new(Models {
            account: fixtures.account.clone(),
            entity: fixtures.entity.clone(),
        }))),
        Kind::Sandbox => sandbox_router(route, fixtures),
        // The sandbox behind specval's tower layer in report mode: what checking every live
        // exchange against the contract costs.
        Kind::SandboxLayer => {
            let contract = specval::Contract::embedded().expect("specval's embedded contract");
            sandbox_router(route, fixtures)
                .layer(specval::layer::ContractLayer::new(Arc::new(contract)))
        }
        Kind::SandboxLayerBackground => {
            let contract = specval::Contract::embedded().expect("specval's embedded contract");
            let layer = specval::layer::ContractLayer::new(Arc::new(contract))
                .check_in_background(1)
                .expect("a checking thread");
            sandbox_router(route, fixtures).layer(layer)
        }
    }
}

fn sandbox_router(route: Route, fixtures: &Fixtures) -> Router {
    match route {
        Route::Get => fixtures.get_sandbox.router(),
        // A fresh sandbox for every POST measurement: its entities and idempotency keys
        // start empty, so every measurement sees the same state.
        Route::Post => Sandbox::new(SandboxOptions::default())
            .expect("sandbox")
            .router(),
    }
}

/// Pins the calling thread to one core; a no-op (with a note) when there is no such core.
fn pin_to(core: usize) {
    // SAFETY: `cpu_set_t` is plain data, zero is an empty set, and `CPU_SET` and
    // `sched_setaffinity` (pid 0: the calling thread) only read and write that set.
    let result = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(core, &mut set);
        libc::sched_setaffinity(0, size_of::<libc::cpu_set_t>(), &set)
    };
    if result != 0 {
        eprintln!(
            "note: could not pin a thread to core {core}: {}",
            std::io::Error::last_os_error()
        );
    }
}

/// A server on its own thread and runtime, until dropped.
struct RunningServer {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl RunningServer {
    fn start(router: Router, settings: &Settings) -> Self {
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let threads = settings.server_threads;
        let pin = settings.pin;
        let thread = std::thread::Builder::new()
            .name("bench-server".to_owned())
            .spawn(move || {
                let runtime = if threads == 1 {
                    if pin {
                        pin_to(0);
                    }
                    tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                } else {
                    tokio::runtime::Builder::new_multi_thread()
                        .worker_threads(threads)
                        .on_thread_start(move || {
                            if pin {
                                pin_to(0);
                            }
                        })
                        .enable_all()
                        .build()
                }
                .expect("server runtime");
                runtime.block_on(async move {
                    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
                    addr_tx
                        .send(listener.local_addr().expect("address"))
                        .expect("address sent");
                    let listener = listener.tap_io(|tcp| {
                        let _ = tcp.set_nodelay(true);
                    });
                    // The load generator has closed its connections before the stop; the
                    // server is then dropped at once, with its runtime.
                    tokio::select! {
                        served = axum::serve(listener, router).into_future() => {
                            served.expect("serve");
                        }
                        _ = stopped => {}
                    }
                });
                runtime.shutdown_timeout(Duration::from_secs(2));
            })
            .expect("server thread");
        let addr = addr_rx.recv().expect("server address");
        Self {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The load generator
// ---------------------------------------------------------------------------------------------

/// CPU time of the whole process (every thread).
fn process_cpu() -> Duration {
    cpu_clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}

/// CPU time of the calling thread.
fn thread_cpu() -> Duration {
    cpu_clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

fn cpu_clock(clock: libc::clockid_t) -> Duration {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `time` is a valid, writable `timespec`.
    let result = unsafe { libc::clock_gettime(clock, &mut time) };
    assert_eq!(result, 0, "clock_gettime");
    Duration::new(
        u64::try_from(time.tv_sec).unwrap_or(0),
        u32::try_from(time.tv_nsec).unwrap_or(0),
    )
}

fn new_histogram() -> Histogram<u64> {
    // Nanoseconds, 1 ns to 60 s, three significant digits.
    Histogram::new_with_bounds(1, 60_000_000_000, 3).expect("histogram")
}

/// What one measurement found.
#[derive(Debug, Clone)]
struct Measured {
    completed: u64,
    failed: u64,
    elapsed: Duration,
    p50: Duration,
    p99: Duration,
    /// Server CPU time per completed request.
    server_cpu: Duration,
    /// Load generator CPU time over wall time.
    loadgen_busy: f64,
}

impl Measured {
    fn rps(&self) -> f64 {
        self.completed as f64 / self.elapsed.as_secs_f64()
    }
}

struct Phase {
    histogram: Histogram<u64>,
    completed: u64,
    failed: u64,
    elapsed: Duration,
}

/// Sends requests `offset..offset + count` over the connections, each connection taking the
/// next index when it is free.
async fn run_phase(
    connections: &mut Vec<SendRequest<Full<Bytes>>>,
    fixtures: &Arc<Fixtures>,
    route: Route,
    offset: usize,
    count: usize,
    time_limit: Duration,
) -> Phase {
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let tasks: Vec<_> = connections
        .drain(..)
        .map(|mut sender| {
            let next = Arc::clone(&next);
            let fixtures = Arc::clone(fixtures);
            tokio::spawn(async move {
                let mut histogram = new_histogram();
                let mut failed = 0_u64;
                let mut alive = true;
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= count || started.elapsed() > time_limit {
                        break;
                    }
                    let request = fixtures.request(route, offset + index);
                    if sender.ready().await.is_err() {
                        failed += 1;
                        alive = false;
                        break;
                    }
                    let sent = Instant::now();
                    let ok = match sender.send_request(request).await {
                        Ok(response) => {
                            let status = response.status();
                            let body = response.into_body().collect().await;
                            status == route.expected() && body.is_ok()
                        }
                        Err(_) => {
                            alive = false;
                            false
                        }
                    };
                    let latency = sent.elapsed();
                    if ok {
                        let nanos = u64::try_from(latency.as_nanos()).unwrap_or(u64::MAX);
                        histogram.saturating_record(nanos.max(1));
                    } else {
                        failed += 1;
                    }
                    if !alive {
                        break;
                    }
                }
                (alive.then_some(sender), histogram, failed)
            })
        })
        .collect();
    let mut histogram = new_histogram();
    let mut failed = 0;
    for task in tasks {
        let (sender, part, part_failed) = task.await.expect("load task");
        histogram.add(&part).expect("histogram merge");
        failed += part_failed;
        connections.extend(sender);
    }
    Phase {
        completed: histogram.len(),
        histogram,
        failed,
        elapsed: started.elapsed(),
    }
}

async fn connect(addr: SocketAddr) -> SendRequest<Full<Bytes>> {
    let stream = TcpStream::connect(addr).await.expect("connect");
    stream.set_nodelay(true).expect("nodelay");
    let (sender, connection) = http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(async move {
        let _ = connection.await;
    });
    sender
}

/// One request, its answer compared with what every server must give.
async fn check(
    sender: &mut SendRequest<Full<Bytes>>,
    fixtures: &Fixtures,
    kind: Kind,
    route: Route,
) {
    let request = fixtures.request(route, fixtures.posts.len() - 1);
    sender.ready().await.expect("ready");
    let response = sender.send_request(request).await.expect("check request");
    let status = response.status();
    let content_type = response.headers().get(header::CONTENT_TYPE).cloned();
    let body = response
        .into_body()
        .collect()
        .await
        .expect("check body")
        .to_bytes();
    let expected = match route {
        Route::Get => &fixtures.account_bytes,
        Route::Post => &fixtures.entity_bytes,
    };
    assert_eq!(
        status,
        route.expected(),
        "{} {}: {}",
        kind.name(),
        route.label(),
        String::from_utf8_lossy(&body)
    );
    assert_eq!(
        content_type.as_ref().and_then(|v| v.to_str().ok()),
        Some("application/json"),
        "{} {}",
        kind.name(),
        route.label()
    );
    if matches!(
        kind,
        Kind::Sandbox | Kind::SandboxLayer | Kind::SandboxLayerBackground
    ) && route == Route::Post
    {
        // Fresh ids and timestamps, of the same length.
        assert_eq!(body.len(), expected.len(), "sandbox POST body: {body:?}");
    } else {
        assert_eq!(&body, expected, "{} {}", kind.name(), route.label());
    }
}

async fn measure(
    kind: Kind,
    route: Route,
    fixtures: &Arc<Fixtures>,
    settings: &Settings,
) -> Measured {
    let server = RunningServer::start(router_for(kind, route, fixtures), settings);
    let mut connections = Vec::with_capacity(settings.connections);
    for _ in 0..settings.connections {
        connections.push(connect(server.addr).await);
    }
    check(&mut connections[0], fixtures, kind, route).await;
    let warm = run_phase(
        &mut connections,
        fixtures,
        route,
        0,
        settings.warmup,
        settings.time_limit,
    )
    .await;
    assert_eq!(
        warm.failed,
        0,
        "{} {}: warm-up failed",
        kind.name(),
        route.label()
    );

    let process_before = process_cpu();
    let loadgen_before = thread_cpu();
    let phase = run_phase(
        &mut connections,
        fixtures,
        route,
        settings.warmup,
        settings.requests,
        settings.time_limit,
    )
    .await;
    let loadgen = thread_cpu().saturating_sub(loadgen_before);
    let process = process_cpu().saturating_sub(process_before);
    drop(connections);
    drop(server);

    let quantile = |q: f64| Duration::from_nanos(phase.histogram.value_at_quantile(q));
    let server_cpu = process.saturating_sub(loadgen);
    Measured {
        completed: phase.completed,
        failed: phase.failed,
        elapsed: phase.elapsed,
        p50: quantile(0.50),
        p99: quantile(0.99),
        server_cpu: server_cpu / u32::try_from(phase.completed.max(1)).unwrap_or(u32::MAX),
        loadgen_busy: loadgen.as_secs_f64() / phase.elapsed.as_secs_f64(),
    }
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

fn micros(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e6
}

/// `results[repeat][(route, kind)]`.
type Results = Vec<Vec<(Route, Kind, Measured)>>;

fn find(repeat: &[(Route, Kind, Measured)], route: Route, kind: Kind) -> Option<&Measured> {
    repeat
        .iter()
        .find(|(r, k, _)| *r == route && *k == kind)
        .map(|(_, _, m)| m)
}

fn report(settings: &Settings, results: &Results) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "load: {} requests after {} warm-up, {} connections, server {} thread(s){}, \
         medians of {} repeats",
        settings.requests,
        settings.warmup,
        settings.connections,
        settings.server_threads,
        if settings.pin {
            ", pinned (server core 0, load generator core 1)"
        } else {
            ", not pinned"
        },
        settings.repeats,
    );
    let _ = writeln!(
        out,
        "ratio: req/s over bare's req/s in the same repeat; CPU ratio: bare's server CPU per \
         request over this one's (the throughput ratio of a CPU-bound server); p99 ratio: p99 \
         over bare's p99; each the median over the repeats. Target: ratio ≥ 0.75"
    );
    let mut verdicts = Vec::new();
    for &route in &settings.routes {
        let _ = writeln!(out);
        let _ = writeln!(out, "{}", route.label());
        let _ = writeln!(
            out,
            "| server    |    req/s | p50 µs | p99 µs | server CPU µs/req | loadgen CPU | ratio | p99 ratio | CPU ratio |"
        );
        let _ = writeln!(
            out,
            "|-----------|---------:|-------:|-------:|------------------:|------------:|------:|----------:|----------:|"
        );
        for &kind in &settings.servers {
            let runs: Vec<&Measured> = results
                .iter()
                .filter_map(|repeat| find(repeat, route, kind))
                .collect();
            if runs.is_empty() {
                continue;
            }
            let med = |f: &dyn Fn(&Measured) -> f64| median(runs.iter().map(|m| f(m)).collect());
            let ratio_to = |baseline: Kind, f: &dyn Fn(&Measured, &Measured) -> f64| {
                median(
                    results
                        .iter()
                        .filter_map(|repeat| {
                            Some(f(
                                find(repeat, route, kind)?,
                                find(repeat, route, baseline)?,
                            ))
                        })
                        .collect(),
                )
            };
            let ratio = |f: &dyn Fn(&Measured, &Measured) -> f64| ratio_to(Kind::Bare, f);
            let throughput_ratio = ratio(&|m, bare| m.rps() / bare.rps());
            let p99_ratio = ratio(&|m, bare| micros(m.p99) / micros(bare.p99));
            let cpu_ratio = ratio(&|m, bare| micros(bare.server_cpu) / micros(m.server_cpu));
            let _ = writeln!(
                out,
                "| {:<9} | {:>8.0} | {:>6.0} | {:>6.0} | {:>17.1} | {:>9.0} % | {:>5} | {:>9} | {:>9} |",
                kind.name(),
                med(&|m| m.rps()),
                med(&|m| micros(m.p50)),
                med(&|m| micros(m.p99)),
                med(&|m| micros(m.server_cpu)),
                med(&|m| m.loadgen_busy * 100.0),
                format_ratio(throughput_ratio),
                format_ratio(p99_ratio),
                format_ratio(cpu_ratio),
            );
            if matches!(
                kind,
                Kind::Generated | Kind::Sandbox | Kind::SandboxLayer | Kind::SandboxLayerBackground
            ) && throughput_ratio.is_finite()
            {
                let mut verdict = format!(
                    "{} {}: {:.2} of bare's req/s ({}), CPU ratio {:.2}",
                    route.label(),
                    kind.name(),
                    throughput_ratio,
                    meets(throughput_ratio),
                    cpu_ratio,
                );
                // On GET `bare-json` is `bare`; on POST it is the baseline that reads the
                // body, as every handler of the operation must.
                let json_ratio = ratio_to(Kind::BareJson, &|m, b| m.rps() / b.rps());
                if route == Route::Post && json_ratio.is_finite() {
                    let json_cpu = ratio_to(Kind::BareJson, &|m, b| {
                        micros(b.server_cpu) / micros(m.server_cpu)
                    });
                    let _ = write!(
                        verdict,
                        "; {json_ratio:.2} of bare-json's req/s ({}), CPU ratio {json_cpu:.2}",
                        meets(json_ratio),
                    );
                }
                verdicts.push(verdict);
            }
        }
    }
    if !verdicts.is_empty() {
        let _ = writeln!(out);
        for verdict in verdicts {
            let _ = writeln!(out, "{verdict}");
        }
    }
    out
}

fn meets(ratio: f64) -> &'static str {
    if ratio >= TARGET {
        "meets the 0.75 target"
    } else {
        "below the 0.75 target"
    }
}

fn format_ratio(value: f64) -> String {
    if value.is_finite() {
        format!("{value:.2}")
    } else {
        "-".to_owned()
    }
}

/// `LOAD_SERVE_SECS` set: serves `bare`, `bare-json`, `generated` and the seeded sandbox
/// for an external load generator (`wrk`, from `scripts/bench-load.sh`) instead of
/// measuring, until standard input closes or that many seconds have passed. Prints
/// `NAME URL` for each, then `get_path PATH`, one a line, then `ready`.
fn serve_for_external(settings: &Settings, runtime: &tokio::runtime::Runtime, seconds: u64) {
    let fixtures = runtime.block_on(Fixtures::build(settings));
    // `router_for`'s POST sandbox would be fresh per measurement; here one sandbox serves both
    // routes, its entities accumulating over the POST run.
    let servers: Vec<(Kind, RunningServer)> = [Kind::Bare, Kind::BareJson, Kind::Generated]
        .into_iter()
        .map(|kind| (kind, router_for(kind, Route::Get, &fixtures)))
        .chain([(Kind::Sandbox, fixtures.get_sandbox.router())])
        .map(|(kind, router)| (kind, RunningServer::start(router, settings)))
        .collect();
    for (kind, server) in &servers {
        println!("{} http://{}", kind.name(), server.addr);
    }
    println!("get_path {}", fixtures.get_uri);
    println!("ready");
    let _ = std::io::Write::flush(&mut std::io::stdout());
    let (closed, on_close) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut std::io::stdin().lock(), &mut std::io::sink());
        let _ = closed.send(());
    });
    let _ = on_close.recv_timeout(Duration::from_secs(seconds));
    drop(servers);
}

fn main() {
    // `cargo bench` passes `--bench`; no other argument is taken (settings are variables).
    // Without it — `cargo test --benches` or `--all-targets` — a short smoke run only.
    let mut settings = Settings::from_env();
    if !std::env::args().any(|arg| arg == "--bench") {
        eprintln!("no --bench argument (cargo test?): a smoke run of 200 requests");
        settings.requests = settings.requests.min(200);
        settings.warmup = settings.warmup.min(20);
        settings.repeats = 1;
    }
    if settings.pin {
        pin_to(1);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("load generator runtime");
    if std::env::var_os("LOAD_SERVE_SECS").is_some() {
        let seconds = env_number("LOAD_SERVE_SECS", 300, 1) as u64;
        serve_for_external(&settings, &runtime, seconds);
        return;
    }
    runtime.block_on(async {
        let fixtures = Arc::new(Fixtures::build(&settings).await);
        let mut results: Results = Vec::new();
        let started = Instant::now();
        for repeat in 0..settings.repeats {
            let mut this = Vec::new();
            for &route in &settings.routes {
                // The servers' order turns each repeat, so none is always first or last.
                let mut kinds = settings.servers.clone();
                let turn = repeat % kinds.len().max(1);
                kinds.rotate_left(turn);
                for kind in kinds {
                    if kind == Kind::BareJson && route == Route::Get {
                        continue; // the same route as `bare`'s
                    }
                    let measured = measure(kind, route, &fixtures, &settings).await;
                    eprintln!(
                        "repeat {} {:<38} {:<9} {:>8.0} req/s  p50 {:>6.0} µs  p99 {:>6.0} µs  \
                         server {:>5.1} µs/req  loadgen {:>3.0} %{}",
                        repeat + 1,
                        route.label(),
                        kind.name(),
                        measured.rps(),
                        micros(measured.p50),
                        micros(measured.p99),
                        micros(measured.server_cpu),
                        measured.loadgen_busy * 100.0,
                        if measured.failed > 0 || measured.completed < settings.requests as u64 {
                            format!(
                                "  ({} completed, {} failed: time limit or errors)",
                                measured.completed, measured.failed
                            )
                        } else {
                            String::new()
                        }
                    );
                    this.push((route, kind, measured));
                }
            }
            results.push(this);
        }
        print!("{}", report(&settings, &results));
        println!("(ran {:.1} s)", started.elapsed().as_secs_f64());
    });
}
