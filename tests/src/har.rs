//! A HAR 1.2 recorder for the axum servers of the end-to-end tests.
//!
//! [`HarRecorder::layer`] is an axum middleware that records every exchange passing through a
//! [`Router`](axum::Router) — the API under test, or a merchant's webhook receiver — while
//! handing the request and the response on unchanged. The recorded traffic is written as a
//! HAR 1.2 file ([`HarRecorder::write`]) that the traffic validator's tests read
//! (`specval check file.har`); [`merge`] puts the exchanges of several servers into one file.
//!
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! use axum::{Router, routing::get};
//! use integration_tests::har::HarRecorder;
//!
//! let recorder = HarRecorder::new().label("api");
//! let app: Router = Router::new()
//!     .route("/health", get(|| async { "ok" }))
//!     .layer(recorder.layer());
//! // ... serve `app`, send requests ...
//! recorder.write("target/traffic/api.har")?;
//! # Ok(())
//! # }
//! ```
//!
//! What an entry holds:
//!
//! - the request's method, absolute URL (`http://<Host header><path>?<query>`, from the
//!   original URI even inside nested routers), HTTP version, headers, decoded query string,
//!   cookies and, when it has a body, `postData`;
//! - the response's status, reason phrase, HTTP version, headers, cookies and `content`;
//! - `startedDateTime` (RFC 3339, UTC), `time` and `timings` (`send`: reading the request
//!   body, `wait`: the inner service up to the response head, `receive`: reading the response
//!   body; `time` is their sum), an empty `cache`, and `comment: "exchange N"` (`"<label>
//!   exchange N"` with a [label](HarRecorder::label)), N counting exchanges from 1 in the order
//!   they started.
//!
//! Bodies: UTF-8 bodies are recorded as `text`; any other body is recorded base64-encoded with
//! `"encoding": "base64"` (HAR 1.2 defines that field for `content`; this recorder uses the same
//! field in `postData`). Only the first [body limit](HarRecorder::body_limit) bytes of a body are
//! kept: a longer body still passes through whole, and the recorded part is marked with
//! `"_truncated": true`, a `comment`, and `bodySize: -1` (unknown).
//!
//! Credentials are never written: the values of the headers in [`DEFAULT_REDACTED_HEADERS`]
//! (and of any added with [`HarRecorder::redact_header`]), and of the cookies they carry, are
//! replaced by [`REDACTED`]; the header names stay, so a validator still sees that a credential
//! was sent.
//!
//! Limits: both bodies are buffered (up to the limit) before the exchange goes on, so this
//! layer does not suit long-lived streaming responses (server-sent events); response trailers
//! and bodies are recorded as the inner service produced them (put the recorder inside any
//! compression layer to record plain bodies). Response headers are those the application set:
//! hyper adds `content-length` (or `transfer-encoding`) and `date` on the wire after the
//! middleware has run, so they are not in the entry.

mod bodies;
mod entry;
mod middleware;
mod recorder;

pub use middleware::{HarLayer, HarMiddleware};
pub use recorder::{
    CREATOR_NAME, DEFAULT_BODY_LIMIT, DEFAULT_REDACTED_HEADERS, HarRecorder, REDACTED,
    har_document, merge, write_har,
};
