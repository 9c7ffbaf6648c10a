//! A tower layer that checks live traffic against the contract (cargo feature `tower`).
//!
//! [`ContractLayer`] wraps any `tower::Service<http::Request<B>>` (an axum `Router`
//! included) and judges every exchange with the same checks and findings as `specval check`:
//! each request and its response become an [`Exchange`] as the traffic readers build it, and
//! [`check::check`] does the rest. Nothing is re-implemented here.
//!
//! # Modes
//!
//! - **Report** (the default): the exchange goes through untouched. Each finding is logged with
//!   `tracing` at `warn` level (target `specval::layer`) and handed to the sink given with
//!   [`ContractLayer::on_finding`], if any.
//! - **Enforce** ([`ContractLayer::enforce`]): a request that breaks the contract is answered
//!   `400` in the contract's own words, as the generated server of that API answers: its
//!   documented error body (this API's `{"code": "VALIDATION_ERROR", "messages": [...],
//!   "http_code": 400}`), else RFC 9457 problem details (`application/problem+json`), as the
//!   manifest records (`errorEnvelope`); and it never reaches the inner service. What counts as breaking: an error
//!   finding about the request (parameters, idempotency key, content type, body) or a
//!   notification's payload. A request without credentials still goes through: the contract
//!   asks the service to answer it `401`, and the response is judged for that. A request that
//!   matches no operation goes through too (the service's 404 or 405 is the right answer), and
//!   its finding is reported. A response that breaks the contract is reported and, with
//!   [`ContractLayer::replace_bad_responses`], replaced by a `500` with the error body (code
//!   `INTERNAL_ERROR`).
//!
//! # Bodies
//!
//! Request and response bodies are buffered up to [`ContractLayer::body_limit`] (1 MiB by
//! default) and passed on with the same bytes (frames may be merged into one; trailers are
//! kept). A body announced or found larger than the limit is not validated: what was read of
//! it and the rest are passed on as a stream, and the exchange is counted in
//! [`LayerStats::skipped_for_size`]. A body that fails while it is read is passed on up to
//! the failure, then the failure; its exchange is not checked.
//!
//! # Secrets
//!
//! Findings are built by the checks, which never put a credential value in a finding (the
//! `public-api-key` and `private-secret-key` headers, and wherever a declared security scheme
//! puts one) and mask instance values unless [`CheckOptions::show_values`] is set. The log
//! lines and the 400 bodies are made of the findings' fields only.
//!
//! Apply the layer to the outermost router: the checks match the path as the client sent
//! it (under a base path of the API, such as `/v1`), and a nested router sees it cut.
//!
//! # Example
//!
//! ```
//! use std::sync::{Arc, Mutex};
//!
//! use specval::layer::ContractLayer;
//! use tower::{Layer, ServiceExt};
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let contract = Arc::new(specval::Contract::embedded().unwrap());
//! let seen = Arc::new(Mutex::new(Vec::new()));
//! let sink = seen.clone();
//! let layer = ContractLayer::new(contract)
//!     .on_finding(move |finding| sink.lock().unwrap().push(finding.rule.clone()));
//! let stats = layer.stats();
//!
//! // Any service of `http::Request`s: an axum Router in practice. This one answers an
//! // error body without its `http_code`, which the contract requires.
//! let api = tower::service_fn(|_request: http::Request<_>| async {
//!     let body = r#"{"code": "ACCOUNT_NOT_FOUND", "messages": []}"#;
//!     let response = http::Response::builder()
//!         .status(404)
//!         .header("content-type", "application/json")
//!         .body(http_body_util::Full::new(bytes::Bytes::from_static(body.as_bytes())))
//!         .unwrap();
//!     Ok::<_, std::convert::Infallible>(response)
//! });
//! let service = layer.layer(api);
//!
//! let request = http::Request::get("/v1/banking/accounts/6f1a5c1e-0000-4000-8000-000000000001")
//!     .header("public-api-key", "pk")
//!     .header("private-secret-key", "sk")
//!     .body(http_body_util::Empty::<bytes::Bytes>::new())
//!     .unwrap();
//! let response = service.oneshot(request).await.unwrap();
//! assert_eq!(response.status(), 404); // report mode: the answer goes through
//! assert_eq!(stats.checked(), 1);
//! assert_eq!(*seen.lock().unwrap(), ["required"]);
//! # });
//! ```
//!
//! A `tokio::sync::mpsc::UnboundedSender<Finding>` works as a sink the same way:
//! `.on_finding(move |finding| { let _ = sender.send(finding.clone()); })`.

use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{HeaderValue, StatusCode};
use http_body::Body;
use tower::{Layer, Service};

mod background;

use background::Background;

use crate::check::{self, CheckOptions};
use crate::contract::Contract;
use crate::exchange::Exchange;
use crate::finding::{Finding, Part, Severity};
use crate::http_exchange::{request_of, response_of};
pub use crate::live::ContractBody;
use crate::live::{Buffered, buffer};
use crate::rule::Rule;
use specgen::manifest::{ErrorEnvelope, Messages};

/// The default [`ContractLayer::body_limit`]: 1 MiB.
pub const DEFAULT_BODY_LIMIT: usize = 1 << 20;

/// What a sink of findings is: called once per finding, from the task that served the
/// exchange.
pub type FindingSink = dyn Fn(&Finding) + Send + Sync;

/// Checks each exchange of the service it wraps against the contract. See the
/// [module documentation](self).
#[derive(Clone)]
pub struct ContractLayer {
    shared: Arc<Shared>,
}

struct Shared {
    contract: Arc<Contract>,
    options: CheckOptions,
    enforce: bool,
    replace_bad_responses: bool,
    body_limit: usize,
    source: String,
    sink: Option<Arc<FindingSink>>,
    stats: Arc<LayerStats>,
    /// Report mode's checking threads, when asked for.
    background: Option<Background>,
}

impl Clone for Shared {
    fn clone(&self) -> Self {
        Shared {
            contract: self.contract.clone(),
            options: self.options,
            enforce: self.enforce,
            replace_bad_responses: self.replace_bad_responses,
            body_limit: self.body_limit,
            source: self.source.clone(),
            sink: self.sink.clone(),
            stats: self.stats.clone(),
            background: self.background.clone(),
        }
    }
}

impl fmt::Debug for ContractLayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shared = &self.shared;
        f.debug_struct("ContractLayer")
            .field("options", &shared.options)
            .field("enforce", &shared.enforce)
            .field("replace_bad_responses", &shared.replace_bad_responses)
            .field("body_limit", &shared.body_limit)
            .field("source", &shared.source)
            .field("sink", &shared.sink.is_some())
            .field("stats", &shared.stats)
            .field("background", &shared.background.is_some())
            .finish_non_exhaustive()
    }
}

/// Counters of a layer, shared by every service it made ([`ContractLayer::stats`]).
#[derive(Debug, Default)]
pub struct LayerStats {
    seen: AtomicU64,
    checked: AtomicU64,
    skipped_for_size: AtomicU64,
    findings: AtomicU64,
    rejected: AtomicU64,
    replaced: AtomicU64,
    /// Exchanges handed to the checking threads and not yet judged.
    pending: AtomicUsize,
}

impl LayerStats {
    /// Exchanges checked against the contract (a request rejected in enforce mode counts).
    pub fn checked(&self) -> u64 {
        self.checked.load(Ordering::Relaxed)
    }

    /// Exchanges not checked because a body was larger than the limit.
    pub fn skipped_for_size(&self) -> u64 {
        self.skipped_for_size.load(Ordering::Relaxed)
    }

    /// Findings reported.
    pub fn findings(&self) -> u64 {
        self.findings.load(Ordering::Relaxed)
    }

    /// Requests answered 400 in enforce mode.
    pub fn rejected(&self) -> u64 {
        self.rejected.load(Ordering::Relaxed)
    }

    /// Responses replaced by a 500 in enforce mode.
    pub fn replaced(&self) -> u64 {
        self.replaced.load(Ordering::Relaxed)
    }

    /// Exchanges waiting for, or being judged by, the checking threads
    /// ([`ContractLayer::check_in_background`]); always 0 without them.
    pub fn pending(&self) -> usize {
        self.pending.load(Ordering::Acquire)
    }

    /// Waits, up to `timeout`, until the checking threads have judged every exchange handed
    /// to them; whether they have. For a test's end or a graceful shutdown: the counters and
    /// the sink then hold every exchange served so far.
    pub fn wait_idle(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while self.pending() > 0 {
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        true
    }
}

impl ContractLayer {
    /// A layer in report mode over `contract`, with the default options and body limit.
    pub fn new(contract: Arc<Contract>) -> Self {
        ContractLayer {
            shared: Arc::new(Shared {
                contract,
                options: CheckOptions::default(),
                enforce: false,
                replace_bad_responses: false,
                body_limit: DEFAULT_BODY_LIMIT,
                source: "tower".to_string(),
                sink: None,
                stats: Arc::default(),
                background: None,
            }),
        }
    }

    fn with(mut self, change: impl FnOnce(&mut Shared)) -> Self {
        change(Arc::make_mut(&mut self.shared));
        self
    }

    /// Enforce the contract on requests (see the module documentation); report mode when
    /// `false`, the default.
    pub fn enforce(self, enforce: bool) -> Self {
        self.with(|s| s.enforce = enforce)
    }

    /// In enforce mode, replace a response that breaks the contract by a `500` with the
    /// error body (`false` by default: the response is only reported). No effect in report
    /// mode.
    pub fn replace_bad_responses(self, replace: bool) -> Self {
        self.with(|s| s.replace_bad_responses = replace)
    }

    /// The largest body, in bytes, that is buffered and checked (1 MiB by default).
    pub fn body_limit(self, bytes: usize) -> Self {
        self.with(|s| s.body_limit = bytes)
    }

    /// The checks' options: `strict` adds warnings for undocumented members (warnings never
    /// reject a request); `show_values` lets instance values (never credentials) into
    /// messages, logs and 400 bodies.
    pub fn check_options(self, options: CheckOptions) -> Self {
        self.with(|s| s.options = options)
    }

    /// What findings name as their source (`"tower"` by default).
    pub fn source(self, source: impl Into<String>) -> Self {
        let source = source.into();
        self.with(|s| s.source = source)
    }

    /// Hands each finding to `sink` as well as to `tracing`.
    pub fn on_finding(self, sink: impl Fn(&Finding) + Send + Sync + 'static) -> Self {
        let sink: Arc<FindingSink> = Arc::new(sink);
        self.with(|s| s.sink = Some(sink))
    }

    /// Report mode: judge each exchange on `threads` checking threads of the layer's own
    /// instead of on the thread that served it, so the response goes back at once and the
    /// server's threads do not pay for the checks. Findings then reach `tracing` and the sink
    /// from a checking thread, a moment after the response; [`LayerStats::wait_idle`] waits
    /// for them. When `threads` fall behind by more than a bounded queue, the serving thread
    /// checks the next exchange itself, so nothing goes unchecked and memory stays bounded.
    /// No effect in enforce mode, whose verdicts are needed before the answer.
    ///
    /// # Errors
    ///
    /// When the operating system refuses a thread.
    pub fn check_in_background(self, threads: usize) -> std::io::Result<Self> {
        let background = Background::start(threads)?;
        Ok(self.with(|s| s.background = Some(background)))
    }

    /// The counters, shared by every service this layer makes.
    pub fn stats(&self) -> Arc<LayerStats> {
        self.shared.stats.clone()
    }
}

impl<S> Layer<S> for ContractLayer {
    type Service = ContractService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        ContractService {
            inner,
            shared: self.shared.clone(),
        }
    }
}

/// The service [`ContractLayer`] makes.
#[derive(Clone)]
pub struct ContractService<S> {
    inner: S,
    shared: Arc<Shared>,
}

impl<S: fmt::Debug> fmt::Debug for ContractService<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ContractService")
            .field("inner", &self.inner)
            .finish_non_exhaustive()
    }
}

impl<S, ReqBody, ResBody> Service<http::Request<ReqBody>> for ContractService<S>
where
    S: Service<http::Request<ContractBody<ReqBody>>, Response = http::Response<ResBody>>
        + Clone
        + Send
        + 'static,
    S::Future: Send,
    ReqBody: Body<Data = Bytes> + Send + 'static,
    ReqBody::Error: Send,
    ResBody: Body<Data = Bytes> + Send + 'static,
    ResBody::Error: Send,
{
    type Response = http::Response<ContractBody<ResBody>>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<ReqBody>) -> Self::Future {
        // The clone that was not polled ready stays here; the ready one serves this call.
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        let shared = self.shared.clone();
        Box::pin(async move {
            let stats = &shared.stats;
            let index = stats.seen.fetch_add(1, Ordering::Relaxed) as usize;
            let (parts, body) = request.into_parts();
            let (bytes, body) = buffer(body, shared.body_limit).await;
            let recorded = match bytes {
                Buffered::Whole(bytes) => Some(request_of(
                    &parts.method,
                    &parts.uri,
                    &parts.headers,
                    &bytes,
                )),
                Buffered::TooLarge | Buffered::Failed => {
                    if matches!(bytes, Buffered::TooLarge) {
                        stats.skipped_for_size.fetch_add(1, Ordering::Relaxed);
                    }
                    None
                }
            };
            let Some(recorded) = recorded else {
                let response = inner.call(http::Request::from_parts(parts, body)).await?;
                return Ok(response.map(|body| ContractBody::stream(VecDeque::new(), body)));
            };
            let mut exchange = Exchange {
                index,
                line: None,
                id: None,
                source: shared.source.clone(),
                kind: None,
                request: recorded,
                response: None,
                failure: None,
            };
            if shared.enforce {
                let findings = check::findings_of(&shared.contract, &exchange, shared.options);
                if findings.iter().any(rejects) {
                    stats.checked.fetch_add(1, Ordering::Relaxed);
                    stats.rejected.fetch_add(1, Ordering::Relaxed);
                    // The request as it stands is what was judged: its findings, without the
                    // one about a response that was never asked for.
                    let findings: Vec<Finding> = findings
                        .into_iter()
                        .filter(|f| !awaits_response(f))
                        .collect();
                    shared.report(&findings);
                    let messages = findings.iter().filter(|f| rejects(f)).map(message);
                    return Ok(error_response(
                        &shared.contract,
                        StatusCode::BAD_REQUEST,
                        "VALIDATION_ERROR",
                        messages.collect(),
                    ));
                }
            }
            let response = inner.call(http::Request::from_parts(parts, body)).await?;
            let (parts, body) = response.into_parts();
            let (bytes, body) = buffer(body, shared.body_limit).await;
            let bytes = match bytes {
                Buffered::Whole(bytes) => bytes,
                Buffered::TooLarge => {
                    stats.skipped_for_size.fetch_add(1, Ordering::Relaxed);
                    return Ok(http::Response::from_parts(parts, body));
                }
                Buffered::Failed => return Ok(http::Response::from_parts(parts, body)),
            };
            exchange.response = Some(response_of(parts.status, &parts.headers, &bytes));
            if let (false, Some(background)) = (shared.enforce, &shared.background) {
                let judge = shared.clone();
                background.run(
                    &shared.stats,
                    Box::new(move || {
                        let findings =
                            check::findings_of(&judge.contract, &exchange, judge.options);
                        judge.stats.checked.fetch_add(1, Ordering::Relaxed);
                        judge.report(&findings);
                    }),
                );
                return Ok(http::Response::from_parts(parts, body));
            }
            let findings = check::findings_of(&shared.contract, &exchange, shared.options);
            stats.checked.fetch_add(1, Ordering::Relaxed);
            shared.report(&findings);
            if shared.enforce
                && shared.replace_bad_responses
                && findings.iter().any(|f| {
                    f.severity == Severity::Error && matches!(f.part, Part::Response | Part::Reply)
                })
            {
                stats.replaced.fetch_add(1, Ordering::Relaxed);
                return Ok(error_response(
                    &shared.contract,
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "INTERNAL_ERROR",
                    vec!["the response broke the API contract".to_string()],
                ));
            }
            Ok(http::Response::from_parts(parts, body))
        })
    }
}

impl Shared {
    /// Logs each finding and hands it to the sink.
    fn report(&self, findings: &[Finding]) {
        self.stats
            .findings
            .fetch_add(findings.len() as u64, Ordering::Relaxed);
        for finding in findings {
            crate::finding::warn_finding!("specval::layer", finding);
            if let Some(sink) = &self.sink {
                sink(finding);
            }
        }
    }
}

/// Whether a finding of a request checked alone rejects it in enforce mode.
fn rejects(finding: &Finding) -> bool {
    finding.severity == Severity::Error
        && matches!(finding.part, Part::Request | Part::Notification)
        && !awaits_response(finding)
}

/// The finding a request without credentials gets when it is checked alone: whether it was
/// answered 401 is for the response to show.
fn awaits_response(finding: &Finding) -> bool {
    finding.part == Part::Request && finding.rule == Rule::Credentials
}

/// A finding as a line of the error body, the way the generated server words its own.
fn message(finding: &Finding) -> String {
    if finding.pointer.is_empty() {
        finding.message.clone()
    } else {
        format!("{}: {}", finding.pointer, finding.message)
    }
}

/// The API's error body, as its contract words rejections (the generated server's own
/// `error_response`); a contract that does not say (written before the manifest recorded it)
/// gets the shape of this project's interface, `{"code", "messages", "http_code"}`.
fn error_response<B: Body>(
    contract: &Contract,
    status: StatusCode,
    code: &str,
    messages: Vec<String>,
) -> http::Response<ContractBody<B>> {
    let interface = ErrorEnvelope::Documented {
        code: Some("code".into()),
        messages: Some(Messages::List("messages".into())),
        status: Some("http_code".into()),
    };
    let envelope = contract
        .manifest()
        .error_envelope
        .as_ref()
        .unwrap_or(&interface);
    let title = status.canonical_reason().unwrap_or("Error");
    let (body, media_type) = envelope.body(status.as_u16(), title, code, &messages);
    let bytes = serde_json::to_vec(&body).unwrap_or_default();
    let mut response = http::Response::new(ContractBody::full(Bytes::from(bytes), None));
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        HeaderValue::from_static(media_type),
    );
    response
}
