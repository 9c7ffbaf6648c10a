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

use std::collections::VecDeque;
use std::fs;
use std::future::Future;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant, SystemTime};

use axum::body::{Body, Bytes};
use axum::extract::{OriginalUri, Request, State};
use axum::http::{HeaderMap, HeaderName, Version, header, request, response};
use axum::middleware::{FromFnLayer, Next};
use axum::response::Response;
use base64::Engine as _;
use chrono::{DateTime, SecondsFormat, Utc};
use http_body::{Frame, SizeHint};
use http_body_util::BodyExt as _;
use serde_json::{Map, Value, json};

/// How many bytes of each body are recorded unless [`HarRecorder::body_limit`] says otherwise.
pub const DEFAULT_BODY_LIMIT: usize = 16 * 1024 * 1024;

/// What a redacted header or cookie value is replaced by.
pub const REDACTED: &str = "[redacted]";

/// The headers whose values are redacted by default (matched case-insensitively).
pub const DEFAULT_REDACTED_HEADERS: [&str; 6] = [
    "public-api-key",
    "private-secret-key",
    "authorization",
    "cookie",
    "set-cookie",
    "proxy-authorization",
];

/// The `log.creator.name` of the HAR files written here.
pub const CREATOR_NAME: &str = "integration-tests";

/// The middleware function behind [`HarLayer`].
pub type HarMiddleware =
    fn(State<HarRecorder>, Request, Next) -> Pin<Box<dyn Future<Output = Response> + Send>>;

/// What [`HarRecorder::layer`] returns: an axum `from_fn_with_state` middleware layer, to put
/// on a [`Router`](axum::Router) (or a [`MethodRouter`](axum::routing::MethodRouter)) with
/// `.layer(...)`.
pub type HarLayer = FromFnLayer<HarMiddleware, HarRecorder, (State<HarRecorder>, Request)>;

/// Records the exchanges of an axum server as HAR 1.2 entries.
///
/// Cheap to clone: clones share the recorded entries and the configuration. Configure it
/// (the builder methods) before serving traffic; a change applies to exchanges that start
/// afterwards.
#[derive(Clone, Default)]
pub struct HarRecorder {
    shared: Arc<Mutex<Shared>>,
}

#[derive(Default)]
struct Shared {
    config: Arc<Config>,
    entries: Vec<Recorded>,
    /// Bumped by [`HarRecorder::clear`]: exchanges that started before it are not recorded.
    generation: u64,
    /// The sequence number of the last exchange that started (in this generation).
    last_seq: u64,
}

struct Config {
    /// Lower-case header names.
    redacted: Vec<String>,
    body_limit: usize,
    label: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            redacted: DEFAULT_REDACTED_HEADERS
                .iter()
                .map(|name| (*name).to_owned())
                .collect(),
            body_limit: DEFAULT_BODY_LIMIT,
            label: None,
        }
    }
}

impl Config {
    fn is_redacted(&self, name: &HeaderName) -> bool {
        // `HeaderName`s are lower-case already.
        self.redacted.iter().any(|r| r == name.as_str())
    }
}

struct Recorded {
    seq: u64,
    started: SystemTime,
    entry: Value,
}

/// What [`HarRecorder::begin`] hands an exchange.
struct Ticket {
    seq: u64,
    generation: u64,
    config: Arc<Config>,
}

impl std::fmt::Debug for HarRecorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shared = self.lock();
        f.debug_struct("HarRecorder")
            .field("label", &shared.config.label)
            .field("redacted", &shared.config.redacted)
            .field("body_limit", &shared.config.body_limit)
            .field("entries", &shared.entries.len())
            .finish()
    }
}

impl HarRecorder {
    /// A recorder with no entries, the [default redacted headers](DEFAULT_REDACTED_HEADERS)
    /// and the [default body limit](DEFAULT_BODY_LIMIT).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Also redacts the values of header `name` (case-insensitive).
    #[must_use]
    pub fn redact_header(self, name: impl AsRef<str>) -> Self {
        let name = name.as_ref().trim().to_ascii_lowercase();
        self.configure(|config| {
            if !config.redacted.contains(&name) {
                config.redacted.push(name);
            }
        })
    }

    /// Records the values of header `name` after all (case-insensitive): the opposite of
    /// [`redact_header`](Self::redact_header), for a header redacted by default.
    #[must_use]
    pub fn unredact_header(self, name: impl AsRef<str>) -> Self {
        let name = name.as_ref().trim().to_ascii_lowercase();
        self.configure(|config| config.redacted.retain(|r| *r != name))
    }

    /// Records at most `limit` bytes of each body (the rest still passes through).
    #[must_use]
    pub fn body_limit(self, limit: usize) -> Self {
        self.configure(|config| config.body_limit = limit)
    }

    /// Names this recorder in each entry's comment (`"<label> exchange N"`), which tells the
    /// servers apart in a [merged](merge) file.
    #[must_use]
    pub fn label(self, label: impl Into<String>) -> Self {
        let label = label.into();
        self.configure(|config| config.label = Some(label))
    }

    /// The lower-case names of the headers whose values are redacted.
    #[must_use]
    pub fn redacted_headers(&self) -> Vec<String> {
        self.lock().config.redacted.clone()
    }

    /// The middleware that records every exchange through the router it is layered on.
    pub fn layer(&self) -> HarLayer {
        axum::middleware::from_fn_with_state(self.clone(), record_boxed as HarMiddleware)
    }

    /// How many exchanges have been recorded (finished exchanges only).
    #[must_use]
    pub fn entries_len(&self) -> usize {
        self.lock().entries.len()
    }

    /// The recorded HAR entries, in the order their exchanges started.
    #[must_use]
    pub fn entries(&self) -> Vec<Value> {
        let mut recorded: Vec<(u64, Value)> = self
            .lock()
            .entries
            .iter()
            .map(|r| (r.seq, r.entry.clone()))
            .collect();
        recorded.sort_by_key(|(seq, _)| *seq);
        recorded.into_iter().map(|(_, entry)| entry).collect()
    }

    /// Forgets every entry and starts numbering exchanges from 1 again. Exchanges still in
    /// flight (started before the call) are not recorded.
    pub fn clear(&self) {
        let mut shared = self.lock();
        shared.entries.clear();
        shared.generation += 1;
        shared.last_seq = 0;
    }

    /// The recorded exchanges as a HAR 1.2 document.
    #[must_use]
    pub fn to_har(&self) -> Value {
        har_document(self.entries())
    }

    /// Writes [`to_har`](Self::to_har) to `path`, atomically (see [`write_har`]).
    ///
    /// # Errors
    /// When the file cannot be written or renamed into place.
    pub fn write(&self, path: impl AsRef<Path>) -> io::Result<()> {
        write_har(path, &self.to_har())
    }

    fn lock(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn configure(self, change: impl FnOnce(&mut Config)) -> Self {
        {
            let mut shared = self.lock();
            let mut config = Config {
                redacted: shared.config.redacted.clone(),
                body_limit: shared.config.body_limit,
                label: shared.config.label.clone(),
            };
            change(&mut config);
            shared.config = Arc::new(config);
        }
        self
    }

    fn begin(&self) -> Ticket {
        let mut shared = self.lock();
        shared.last_seq += 1;
        Ticket {
            seq: shared.last_seq,
            generation: shared.generation,
            config: Arc::clone(&shared.config),
        }
    }

    fn finish(&self, ticket: &Ticket, started: SystemTime, entry: Value) {
        let mut shared = self.lock();
        if shared.generation == ticket.generation {
            shared.entries.push(Recorded {
                seq: ticket.seq,
                started,
                entry,
            });
        }
    }
}

/// The exchanges of several recorders as one HAR 1.2 document, ordered by the time they
/// started (ties: in the order of `recorders`, then of each recorder's own numbering).
#[must_use]
pub fn merge(recorders: &[&HarRecorder]) -> Value {
    let mut all: Vec<(SystemTime, usize, u64, Value)> = Vec::new();
    for (index, recorder) in recorders.iter().enumerate() {
        let shared = recorder.lock();
        all.extend(
            shared
                .entries
                .iter()
                .map(|r| (r.started, index, r.seq, r.entry.clone())),
        );
    }
    all.sort_by_key(|a| (a.0, a.1, a.2));
    har_document(all.into_iter().map(|(_, _, _, entry)| entry).collect())
}

/// A HAR 1.2 document (`{"log": {"version": "1.2", "creator": …, "entries": …}}`) holding
/// `entries`.
#[must_use]
pub fn har_document(entries: Vec<Value>) -> Value {
    json!({
        "log": {
            "version": "1.2",
            "creator": {"name": CREATOR_NAME, "version": env!("CARGO_PKG_VERSION")},
            "entries": entries,
        }
    })
}

/// Writes `har` as pretty-printed JSON to `path`, creating missing parent directories. The
/// text goes to a temporary file in the same directory first, which is then renamed onto
/// `path`, so `path` never holds a half-written file.
///
/// # Errors
/// When a directory or the file cannot be created, written or renamed.
pub fn write_har(path: impl AsRef<Path>, har: &Value) -> io::Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let path = path.as_ref();
    let file_name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} does not name a file", path.display()),
        )
    })?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir)?;
    let mut text = serde_json::to_vec_pretty(har).map_err(io::Error::other)?;
    text.push(b'\n');
    let tmp = dir.join(format!(
        ".{}.{}.{}.tmp",
        file_name.to_string_lossy(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let written = (|| {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(&text)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

// ---------------------------------------------------------------------------------------------
// The middleware
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------------------------

/// What was seen of a body.
struct Captured {
    /// The first `limit` bytes of its data.
    bytes: Vec<u8>,
    /// Its full length, when it was read to the end.
    total: Option<usize>,
    /// Why it could not be read to the end, when it could not.
    error: Option<String>,
}

/// Reads `body` up to `limit` bytes (plus at most one frame), and returns what was seen and a
/// body that yields exactly what `body` would have: the frames read, then an error met, then
/// the rest of `body`.
async fn capture(mut body: Body, limit: usize) -> (Captured, Body) {
    let mut frames = VecDeque::new();
    let mut bytes = Vec::new();
    let mut seen = 0usize;
    let mut error = None;
    let mut done = false;
    while seen <= limit {
        match body.frame().await {
            None => {
                done = true;
                break;
            }
            Some(Ok(frame)) => {
                if let Some(data) = frame.data_ref() {
                    let room = limit.saturating_sub(bytes.len());
                    bytes.extend_from_slice(&data[..data.len().min(room)]);
                    seen += data.len();
                }
                frames.push_back(frame);
            }
            Some(Err(err)) => {
                error = Some(err);
                break;
            }
        }
    }
    let captured = Captured {
        bytes,
        total: done.then_some(seen),
        error: error.as_ref().map(ToString::to_string),
    };
    let replay = Replay {
        frames,
        error,
        rest: (!done).then_some(body),
    };
    (captured, Body::new(replay))
}

/// Yields buffered frames, then a buffered error, then the rest of the original body.
struct Replay {
    frames: VecDeque<Frame<Bytes>>,
    error: Option<axum::Error>,
    rest: Option<Body>,
}

impl http_body::Body for Replay {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        if let Some(frame) = this.frames.pop_front() {
            return Poll::Ready(Some(Ok(frame)));
        }
        if let Some(error) = this.error.take() {
            return Poll::Ready(Some(Err(error)));
        }
        match this.rest.as_mut() {
            Some(rest) => Pin::new(rest).poll_frame(cx),
            None => Poll::Ready(None),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.frames.is_empty()
            && self.error.is_none()
            && self
                .rest
                .as_ref()
                .is_none_or(http_body::Body::is_end_stream)
    }

    fn size_hint(&self) -> SizeHint {
        let buffered: u64 = self
            .frames
            .iter()
            .filter_map(Frame::data_ref)
            .map(|data| data.len() as u64)
            .sum();
        match (&self.error, &self.rest) {
            (None, None) => SizeHint::with_exact(buffered),
            (None, Some(rest)) => {
                let hint = rest.size_hint();
                let mut sum = SizeHint::new();
                sum.set_lower(hint.lower().saturating_add(buffered));
                if let Some(upper) = hint.upper() {
                    sum.set_upper(upper.saturating_add(buffered));
                }
                sum
            }
            (Some(_), _) => SizeHint::new(),
        }
    }
}

/// The HAR fields for a body's text: `text`, and `encoding: "base64"` when it is not UTF-8.
fn body_text(captured: &Captured, fields: &mut Map<String, Value>) {
    match std::str::from_utf8(&captured.bytes) {
        Ok(text) => {
            fields.insert("text".into(), text.into());
        }
        Err(_) => {
            let encoded = base64::engine::general_purpose::STANDARD.encode(&captured.bytes);
            fields.insert("text".into(), encoded.into());
            fields.insert("encoding".into(), "base64".into());
        }
    }
    let note = match (&captured.error, captured.total) {
        (Some(error), _) => Some(format!(
            "incomplete: reading the body failed after {} bytes: {error}",
            captured.bytes.len()
        )),
        (None, None) => Some(format!(
            "truncated: only the first {} bytes were recorded",
            captured.bytes.len()
        )),
        (None, Some(_)) => None,
    };
    if let Some(note) = note {
        fields.insert("_truncated".into(), true.into());
        fields.insert("comment".into(), note.into());
    }
}

/// A HAR `bodySize`: the full length, or -1 when it is unknown.
fn body_size(captured: &Captured) -> Value {
    match captured.total {
        Some(total) if captured.error.is_none() => total.into(),
        _ => (-1).into(),
    }
}

// ---------------------------------------------------------------------------------------------
// Requests and responses
// ---------------------------------------------------------------------------------------------

fn request_json(parts: &request::Parts, body: &Captured, config: &Config) -> Value {
    let uri = parts
        .extensions
        .get::<OriginalUri>()
        .map_or(&parts.uri, |original| &original.0);
    let host = header_text(&parts.headers, header::HOST)
        .or_else(|| uri.authority().map(ToString::to_string))
        .unwrap_or_else(|| "localhost".to_owned());
    let scheme = uri.scheme_str().unwrap_or("http");
    let path_and_query = uri.path_and_query().map_or("/", |pq| pq.as_str());
    let url = format!("{scheme}://{host}{path_and_query}");

    let mut har = Map::new();
    har.insert("method".into(), parts.method.as_str().into());
    har.insert("url".into(), url.into());
    har.insert("httpVersion".into(), http_version(parts.version).into());
    har.insert(
        "cookies".into(),
        request_cookies(&parts.headers, config).into(),
    );
    har.insert("headers".into(), headers_json(&parts.headers, config));
    har.insert(
        "queryString".into(),
        query_json(uri.query().unwrap_or_default()),
    );
    if body.total != Some(0) {
        let mut post_data = Map::new();
        post_data.insert(
            "mimeType".into(),
            header_text(&parts.headers, header::CONTENT_TYPE)
                .unwrap_or_default()
                .into(),
        );
        body_text(body, &mut post_data);
        har.insert("postData".into(), post_data.into());
    }
    har.insert("headersSize".into(), (-1).into());
    har.insert("bodySize".into(), body_size(body));
    har.into()
}

fn response_json(parts: &response::Parts, body: &Captured, config: &Config) -> Value {
    let mut content = Map::new();
    content.insert("size".into(), body.total.unwrap_or(body.bytes.len()).into());
    content.insert(
        "mimeType".into(),
        header_text(&parts.headers, header::CONTENT_TYPE)
            .unwrap_or_default()
            .into(),
    );
    if body.total != Some(0) {
        body_text(body, &mut content);
    }
    let redirect = header_text(&parts.headers, header::LOCATION).unwrap_or_default();

    let mut har = Map::new();
    har.insert("status".into(), parts.status.as_u16().into());
    har.insert(
        "statusText".into(),
        parts.status.canonical_reason().unwrap_or_default().into(),
    );
    har.insert("httpVersion".into(), http_version(parts.version).into());
    har.insert(
        "cookies".into(),
        response_cookies(&parts.headers, config).into(),
    );
    har.insert("headers".into(), headers_json(&parts.headers, config));
    har.insert("content".into(), content.into());
    har.insert("redirectURL".into(), redirect.into());
    har.insert("headersSize".into(), (-1).into());
    har.insert("bodySize".into(), body_size(body));
    har.into()
}

fn http_version(version: Version) -> &'static str {
    match version {
        Version::HTTP_09 => "HTTP/0.9",
        Version::HTTP_10 => "HTTP/1.0",
        Version::HTTP_2 => "HTTP/2",
        Version::HTTP_3 => "HTTP/3",
        _ => "HTTP/1.1",
    }
}

fn header_text(headers: &HeaderMap, name: HeaderName) -> Option<String> {
    headers
        .get(name)
        .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
}

fn headers_json(headers: &HeaderMap, config: &Config) -> Value {
    headers
        .iter()
        .map(|(name, value)| {
            let value = if config.is_redacted(name) {
                REDACTED.to_owned()
            } else {
                String::from_utf8_lossy(value.as_bytes()).into_owned()
            };
            json!({"name": name.as_str(), "value": value})
        })
        .collect()
}

fn request_cookies(headers: &HeaderMap, config: &Config) -> Vec<Value> {
    let redacted = config.is_redacted(&header::COOKIE);
    headers
        .get_all(header::COOKIE)
        .iter()
        .flat_map(|value| {
            String::from_utf8_lossy(value.as_bytes())
                .split(';')
                .filter_map(|pair| cookie_json(pair, redacted))
                .collect::<Vec<_>>()
        })
        .collect()
}

fn response_cookies(headers: &HeaderMap, config: &Config) -> Vec<Value> {
    let redacted = config.is_redacted(&header::SET_COOKIE);
    headers
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|value| {
            let text = String::from_utf8_lossy(value.as_bytes()).into_owned();
            let mut attributes = text.split(';');
            let mut cookie = cookie_json(attributes.next()?, redacted)?;
            for attribute in attributes {
                let (key, value) = attribute.split_once('=').unwrap_or((attribute, ""));
                let (key, value) = (key.trim().to_ascii_lowercase(), value.trim());
                let field = match key.as_str() {
                    "path" => ("path", Value::from(value)),
                    "domain" => ("domain", Value::from(value)),
                    "expires" => ("expires", Value::from(value)),
                    "httponly" => ("httpOnly", Value::from(true)),
                    "secure" => ("secure", Value::from(true)),
                    _ => continue,
                };
                cookie[field.0] = field.1;
            }
            Some(cookie)
        })
        .collect()
}

fn cookie_json(pair: &str, redacted: bool) -> Option<Value> {
    let pair = pair.trim();
    if pair.is_empty() {
        return None;
    }
    let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
    let value = if redacted { REDACTED } else { value.trim() };
    Some(json!({"name": name.trim(), "value": value}))
}

fn query_json(query: &str) -> Value {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            json!({"name": percent_decode(name), "value": percent_decode(value)})
        })
        .collect()
}

/// Decodes `application/x-www-form-urlencoded` text: `+` is a space, `%XX` a byte; invalid
/// escapes stay as they are and invalid UTF-8 becomes U+FFFD.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(high), Some(low)) => {
                    out.push(high << 4 | low);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(digit: u8) -> Option<u8> {
    char::from(digit)
        .to_digit(16)
        .and_then(|d| u8::try_from(d).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("a%20b+c"), "a b c");
        assert_eq!(percent_decode("%E2%82%AC"), "€");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%4"), "%4");
        assert_eq!(percent_decode("%zz"), "%zz");
        assert_eq!(percent_decode("%41"), "A");
    }

    #[test]
    fn query_pairs() {
        assert_eq!(
            query_json("a=1&b&c=x%3Dy&&d="),
            json!([
                {"name": "a", "value": "1"},
                {"name": "b", "value": ""},
                {"name": "c", "value": "x=y"},
                {"name": "d", "value": ""},
            ])
        );
    }
}
