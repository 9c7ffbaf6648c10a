//! The middleware: [`HarRecorder::layer`], which times an exchange, captures both bodies and
//! hands the recorder its entry.

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant, SystemTime};

use axum::extract::{Request, State};
use axum::middleware::{FromFnLayer, Next};
use axum::response::Response;
use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::json;

use super::bodies::capture;
use super::entry::{request_json, response_json};
use super::recorder::HarRecorder;

/// The middleware function behind [`HarLayer`].
pub type HarMiddleware =
    fn(State<HarRecorder>, Request, Next) -> Pin<Box<dyn Future<Output = Response> + Send>>;

/// What [`HarRecorder::layer`] returns: an axum `from_fn_with_state` middleware layer, to put
/// on a [`Router`](axum::Router) (or a [`MethodRouter`](axum::routing::MethodRouter)) with
/// `.layer(...)`.
pub type HarLayer = FromFnLayer<HarMiddleware, HarRecorder, (State<HarRecorder>, Request)>;

impl HarRecorder {
    /// The middleware that records every exchange through the router it is layered on.
    pub fn layer(&self) -> HarLayer {
        axum::middleware::from_fn_with_state(self.clone(), record_boxed as HarMiddleware)
    }
}

fn record_boxed(
    State(recorder): State<HarRecorder>,
    request: Request,
    next: Next,
) -> Pin<Box<dyn Future<Output = Response> + Send>> {
    Box::pin(record(recorder, request, next))
}

async fn record(recorder: HarRecorder, request: Request, next: Next) -> Response {
    let started = SystemTime::now();
    let clock = Instant::now();
    let ticket = recorder.begin();
    let limit = ticket.config.body_limit;

    let (parts, body) = request.into_parts();
    let (request_body, body) = capture(body, limit).await;
    let sent = Instant::now();
    let har_request = request_json(&parts, &request_body, &ticket.config);

    let response = next.run(Request::from_parts(parts, body)).await;
    let waited = Instant::now();
    let (parts, body) = response.into_parts();
    let (response_body, body) = capture(body, limit).await;
    let received = Instant::now();
    let har_response = response_json(&parts, &response_body, &ticket.config);

    let send = millis(sent - clock);
    let wait = millis(waited - sent);
    let receive = millis(received - waited);
    let comment = match &ticket.config.label {
        Some(label) => format!("{label} exchange {}", ticket.seq),
        None => format!("exchange {}", ticket.seq),
    };
    let entry = json!({
        "startedDateTime": rfc3339(started),
        "time": send + wait + receive,
        "request": har_request,
        "response": har_response,
        "cache": {},
        "timings": {"send": send, "wait": wait, "receive": receive},
        "comment": comment,
    });
    recorder.finish(&ticket, started, entry);
    Response::from_parts(parts, body)
}

fn millis(duration: Duration) -> f64 {
    // Microsecond precision is plenty, and keeps the numbers short.
    (duration.as_secs_f64() * 1_000_000.0).round() / 1000.0
}

fn rfc3339(time: SystemTime) -> String {
    DateTime::<Utc>::from(time).to_rfc3339_opts(SecondsFormat::Millis, true)
}
