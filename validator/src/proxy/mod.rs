//! `specval proxy`: a reverse proxy that forwards everything, checks every exchange against
//! the contract, records the traffic with credentials redacted, and makes the run's report
//! (cargo feature `proxy`).
//!
//! One listener stands in front of the service (`--listen`, `--upstream`); an optional second
//! one stands in front of the merchant's notification endpoint (`--notifications-listen`,
//! `--notifications-upstream`), where the service's calls are checked as notifications and
//! the merchant's answers as their replies.
//!
//! Each request is read whole (up to [`Options::body_limit`]), forwarded with the same method,
//! path, query, headers (less the hop-by-hop ones) and bytes to the upstream, and its response
//! read whole and passed back unchanged; then the pair is an
//! [`Exchange`](crate::exchange::Exchange) built by the same code as the tower layer's ([`crate::layer`]) and checked by
//! [`check_covering`](crate::check::check_covering), exactly as `specval check` checks a recorded one. Findings are
//! handed to [`Options::on_finding`] as they happen and folded into a
//! [`RunReport`] with [`crate::run::fold_exchange`], so the report at the end is the one
//! `specval check` writes for the recording, but for the proxy's own [`Rule::UpstreamError`]
//! findings. The per-request work is in `forward.rs`, the recording in [`record`], the
//! upstream's address and headers in [`upstream`].
//!
//! An upstream that does not answer (connection refused, reset, …) gets the client a `502`
//! with the API's error body; the exchange is recorded without a response and gets an
//! [`Rule::UpstreamError`] finding. A body over the limit is forwarded as a stream and the exchange
//! is neither checked nor recorded (counted in [`Finished::skipped`]).
//!
//! Serving ends when the `shutdown` future given to [`Proxy::serve`] completes (Ctrl-C in the
//! command line) or after [`Options::max_exchanges`]: the listeners close, requests in flight
//! are answered and checked (given [`Options::shutdown_grace`]), and the report is returned.

mod forward;
pub mod record;
pub mod upstream;

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpListener;

use crate::check::CheckOptions;
use crate::contract::Contract;
use crate::exchange::ExchangeKind;
use crate::finding::{Finding, Part, Severity, Site};
use crate::live::ContractBody;
use crate::report::RunReport;
use crate::rule::Rule;
use crate::run::Covered;

pub use record::{REDACTED, RecordFormat, Recorder};
pub use upstream::{Upstream, UpstreamError};

/// What the proxy's [`RunReport`] names as its input, and its findings as
/// their source.
pub const SOURCE: &str = "proxy";

/// The default [`Options::body_limit`]: 16 MiB.
pub const DEFAULT_BODY_LIMIT: usize = 16 << 20;

/// A sink of live findings.
pub type OnFinding = dyn Fn(&Finding) + Send + Sync;

/// How the proxy runs.
pub struct Options {
    /// Where the proxy in front of the service listens.
    pub listen: SocketAddr,
    /// The service.
    pub upstream: Upstream,
    /// Where the proxy in front of the merchant's notification endpoint listens, and that
    /// endpoint.
    pub notifications: Option<(SocketAddr, Upstream)>,
    /// Record the traffic here.
    pub record: Option<(PathBuf, RecordFormat)>,
    /// Stop after this many exchanges.
    pub max_exchanges: Option<u64>,
    /// The checks' options.
    pub check: CheckOptions,
    /// The largest body read whole and checked.
    pub body_limit: usize,
    /// Tally contract coverage ([`Finished::covered`]).
    pub coverage: bool,
    /// Keep one verdict per exchange in the report (JUnit needs them).
    pub keep_outcomes: bool,
    /// How long requests in flight are given to finish once serving ends.
    pub shutdown_grace: Duration,
    /// Called with each finding as it is made (the command line prints it).
    pub on_finding: Option<Box<OnFinding>>,
}

impl Options {
    /// Options with the defaults: no notifications listener, no recording, no limit.
    pub fn new(listen: SocketAddr, upstream: Upstream) -> Options {
        Options {
            listen,
            upstream,
            notifications: None,
            record: None,
            max_exchanges: None,
            check: CheckOptions::default(),
            body_limit: DEFAULT_BODY_LIMIT,
            coverage: false,
            keep_outcomes: false,
            shutdown_grace: Duration::from_secs(10),
            on_finding: None,
        }
    }
}

/// Why the proxy could not start.
#[derive(Debug, thiserror::Error)]
pub enum ProxyError {
    /// A listen address is taken or not this machine's.
    #[error("cannot listen on {0}: {1}")]
    Listen(SocketAddr, std::io::Error),
    /// The recording file cannot be created.
    #[error("cannot create the recording {0}: {1}")]
    Record(PathBuf, std::io::Error),
}

/// What serving gave.
#[derive(Debug, Default)]
pub struct Finished {
    /// The report: counts, findings, drift, verdicts.
    pub report: RunReport,
    /// What of the contract the traffic exercised (empty unless [`Options::coverage`]).
    pub covered: Covered,
    /// Exchanges with a body over the limit: forwarded, not checked, not recorded.
    pub skipped: u64,
    /// Exchanges recorded.
    pub recorded: u64,
    /// Why the recording stopped, when it did (the file holds the exchanges before).
    pub record_error: Option<String>,
    /// Requests still in flight when the grace period ended (not in the report).
    pub abandoned: bool,
}

/// A bound proxy: its listeners are open (their addresses known) but not serving yet.
pub struct Proxy {
    api: TcpListener,
    notifications: Option<TcpListener>,
    api_lane: Arc<Lane>,
    notification_lane: Option<Arc<Lane>>,
    shared: Arc<Shared>,
    grace: Duration,
    stop: tokio::sync::watch::Receiver<bool>,
}

/// One listener's side: what it forwards to and how its exchanges are taken.
struct Lane {
    upstream: Upstream,
    kind: ExchangeKind,
}

struct Shared {
    contract: Arc<Contract>,
    client: Client<HttpConnector, ContractBody<Incoming>>,
    check: CheckOptions,
    body_limit: usize,
    coverage: bool,
    keep_outcomes: bool,
    max_exchanges: Option<u64>,
    on_finding: Option<Box<OnFinding>>,
    stop: tokio::sync::watch::Sender<bool>,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    finished: Finished,
    recorder: Option<Recorder>,
    /// Exchanges checked so far: the next one's index, in the report and the recording alike
    /// (a skipped exchange takes none, so that the two stay aligned).
    next: usize,
    /// Exchanges taken so far, checked or skipped: what --max-exchanges counts.
    taken: u64,
}

impl Proxy {
    /// Opens the listeners and the recording. Must run inside a tokio runtime.
    pub async fn bind(contract: Arc<Contract>, options: Options) -> Result<Proxy, ProxyError> {
        let api = TcpListener::bind(options.listen)
            .await
            .map_err(|err| ProxyError::Listen(options.listen, err))?;
        let (notifications, notification_lane) = match options.notifications {
            Some((addr, upstream)) => {
                let listener = TcpListener::bind(addr)
                    .await
                    .map_err(|err| ProxyError::Listen(addr, err))?;
                (Some(listener), Some(upstream))
            }
            None => (None, None),
        };
        let recorder = match &options.record {
            Some((path, format)) => Some(
                Recorder::create(path, *format)
                    .map_err(|err| ProxyError::Record(path.clone(), err))?,
            ),
            None => None,
        };
        let (stop_sender, stop) = tokio::sync::watch::channel(false);
        let shared = Arc::new(Shared {
            contract,
            client: Client::builder(TokioExecutor::new()).build_http(),
            check: options.check,
            body_limit: options.body_limit,
            coverage: options.coverage,
            keep_outcomes: options.keep_outcomes,
            max_exchanges: options.max_exchanges,
            on_finding: options.on_finding,
            stop: stop_sender,
            state: Mutex::new(State {
                recorder,
                finished: Finished {
                    report: RunReport {
                        inputs: vec![SOURCE.to_string()],
                        strict: options.check.strict,
                        ..RunReport::default()
                    },
                    ..Finished::default()
                },
                next: 0,
                taken: 0,
            }),
        });
        Ok(Proxy {
            api,
            notifications,
            api_lane: Arc::new(Lane {
                upstream: options.upstream,
                kind: ExchangeKind::Operation,
            }),
            notification_lane: notification_lane.map(|upstream| {
                Arc::new(Lane {
                    upstream,
                    kind: ExchangeKind::Notification,
                })
            }),
            shared,
            grace: options.shutdown_grace,
            stop,
        })
    }

    /// The address the proxy in front of the service listens on (its port, when `0` was asked).
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.api.local_addr()
    }

    /// The address of the notifications listener, when there is one.
    pub fn notifications_addr(&self) -> Option<std::io::Result<SocketAddr>> {
        self.notifications.as_ref().map(TcpListener::local_addr)
    }

    /// Serves until `shutdown` completes or [`Options::max_exchanges`] exchanges were taken,
    /// then lets requests in flight finish and returns what the run found.
    pub async fn serve(self, shutdown: impl Future<Output = ()>) -> Finished {
        let Proxy {
            api,
            notifications,
            api_lane,
            notification_lane,
            shared,
            grace,
            mut stop,
        } = self;
        let graceful = hyper_util::server::graceful::GracefulShutdown::new();
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            let accepted = tokio::select! {
                () = &mut shutdown => break,
                _ = stop.wait_for(|stopped| *stopped) => break,
                accepted = api.accept() => accepted.map(|(stream, _)| (stream, &api_lane)),
                accepted = accept(notifications.as_ref()) => {
                    // Only polled to completion when there is a notifications listener.
                    accepted.map(|(stream, _)| (stream, notification_lane.as_ref().unwrap_or(&api_lane)))
                }
            };
            let (stream, lane) = match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // Out of file descriptors, a connection reset before it was taken: the
                    // listener itself is fine. A pause keeps a persistent error from spinning.
                    tracing::warn!(target: "specval::proxy", "accept failed: {err}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let _ = stream.set_nodelay(true);
            let shared = shared.clone();
            let lane = lane.clone();
            let service = service_fn(move |request| {
                let shared = shared.clone();
                let lane = lane.clone();
                async move { Ok::<_, Infallible>(shared.handle(&lane, request).await) }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service);
            let connection = graceful.watch(connection);
            tokio::spawn(async move {
                if let Err(err) = connection.await {
                    tracing::debug!(target: "specval::proxy", "connection: {err}");
                }
            });
        }
        // Stop accepting first, then let what is in flight finish.
        drop(api);
        drop(notifications);
        let abandoned = tokio::time::timeout(grace, graceful.shutdown())
            .await
            .is_err();
        let mut state = shared.lock();
        let mut finished = std::mem::take(&mut state.finished);
        finished.recorded = state.recorder.as_ref().map_or(0, Recorder::entries);
        finished.abandoned = abandoned;
        finished
    }
}

/// Accepts on a listener, or waits forever without one.
async fn accept(
    listener: Option<&TcpListener>,
) -> std::io::Result<(tokio::net::TcpStream, SocketAddr)> {
    match listener {
        Some(listener) => listener.accept().await,
        None => std::future::pending().await,
    }
}

/// Whether a run saw no exchange with the API: none at all, or only a browser's preflights
/// and a web page's own resources, which are not checked (as `specval check` counts a
/// capture).
pub fn saw_no_api_exchange(report: &RunReport) -> bool {
    report.exchanges == report.passed_over()
}

/// Findings of a run without exchanges: the `no-exchanges` finding `specval check` makes for
/// an empty capture.
pub fn no_exchanges(report: &mut RunReport) {
    let site = Site {
        exchange: 0,
        id: None,
        source: SOURCE.to_string(),
        line: None,
        operation: None,
        kind: ExchangeKind::Operation,
    };
    let finding = site.finding(
        Part::Entry,
        "",
        "",
        Rule::NoExchanges,
        "no exchanges with the API: nothing, or only CORS preflights and a web page's own \
         resources, went through the proxy; --allow-empty accepts it",
    );
    debug_assert_eq!(finding.severity, Severity::Error);
    let stats = report
        .per_operation
        .entry(crate::report::group::INPUT.to_string())
        .or_default();
    stats.errors += 1;
    report.findings.push(finding);
}

/// A finding as one line of the live output: `#3 createAccount response /status: … (rule …)`.
pub fn live_line(finding: &Finding) -> String {
    let operation = finding.operation.as_deref().unwrap_or("(unmatched)");
    format!(
        "#{} {} {}",
        finding.exchange,
        crate::report::text::clean(operation),
        crate::report::text::describe(finding)
    )
}
