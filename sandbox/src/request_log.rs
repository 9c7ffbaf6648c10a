//! One log line per request: method, matched path, status, latency, and which credential
//! headers were present — their **names** only.
//!
//! Credential values never reach the log: the line is built from the method, the route
//! template (`/v1/banking/accounts/{account_id}`, never the query string) and header
//! names, and nothing here formats a header value. The generated server keeps credentials
//! in [`Secret`](orchestration_api::credentials::Secret)s whose `Debug` and `Display` show
//! `[redacted]`, so a stray `?params` elsewhere cannot print them either.

use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;

/// The log target of the request lines, for filtering (`RUST_LOG=sandbox::request=info`).
pub const TARGET: &str = "sandbox::request";

/// The headers that carry credentials (the API's two `apiKey` schemes), in the order they
/// are reported.
pub const CREDENTIAL_HEADERS: [&str; 2] = ["public-api-key", "private-secret-key"];

/// Middleware (for [`axum::middleware::from_fn`]) that logs each request once it has been
/// answered, at `info`.
pub async fn log_request(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    // The route template, so ids do not turn every request into a distinct path; a request
    // that matched no route is logged with its path, which names no credential.
    let path = request.extensions().get::<MatchedPath>().map_or_else(
        || format!("{} (no route)", request.uri().path()),
        |matched| matched.as_str().to_owned(),
    );
    let credentials = credential_names(request.headers());
    let response = next.run(request).await;
    let latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    tracing::info!(
        target: TARGET,
        method = %method,
        path = %path,
        status = response.status().as_u16(),
        latency_ms = %format_args!("{latency_ms:.3}"),
        credentials = %credentials,
        "request"
    );
    response
}

/// The names of the credential headers present (`public-api-key,private-secret-key`), or
/// `none`.
fn credential_names(headers: &HeaderMap) -> String {
    let present: Vec<&str> = CREDENTIAL_HEADERS
        .into_iter()
        .filter(|name| headers.contains_key(*name))
        .collect();
    if present.is_empty() {
        "none".to_owned()
    } else {
        present.join(",")
    }
}
