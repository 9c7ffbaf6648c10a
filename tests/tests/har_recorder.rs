// Over 600 lines on purpose: the recorder's tests share one server fixture and one binary.
//! The HAR 1.2 recorder (`integration_tests::har`): a small axum server wrapped in the
//! recorder's layer, driven by reqwest over 127.0.0.1, and the HAR it records.

use std::io;
use std::net::SocketAddr;

use axum::Router;
use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Json};
use axum::routing::{delete, get, post};
use base64::Engine as _;
use integration_tests::har::{self, HarRecorder, REDACTED};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

// ---------------------------------------------------------------------------------------------
// A server to record
// ---------------------------------------------------------------------------------------------

/// An axum server on 127.0.0.1, stopped by [`Server::stop`].
struct Server {
    addr: SocketAddr,
    shutdown: oneshot::Sender<()>,
    task: JoinHandle<io::Result<()>>,
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

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    async fn stop(self) {
        let _ = self.shutdown.send(());
        self.task.await.expect("server task").expect("server");
    }
}

/// Echoes the body and its content type back, byte for byte.
async fn echo_raw(headers: HeaderMap, body: Bytes) -> impl IntoResponse {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .cloned()
        .unwrap_or_else(|| header::HeaderValue::from_static("application/octet-stream"));
    ([(header::CONTENT_TYPE, content_type)], body)
}

async fn echo_json(Json(body): Json<Value>) -> impl IntoResponse {
    (StatusCode::CREATED, Json(json!({"received": body})))
}

async fn unavailable() -> impl IntoResponse {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        Json(json!({"error": "service_unavailable", "retryAfterSeconds": 30})),
    )
}

async fn no_content() -> StatusCode {
    StatusCode::NO_CONTENT
}

async fn login() -> impl IntoResponse {
    (
        [(
            header::SET_COOKIE,
            "session=secret-3; Path=/; HttpOnly; Secure",
        )],
        "logged in",
    )
}

/// Replies with bytes that are not UTF-8.
async fn binary() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/octet-stream")],
        Bytes::from_static(&[0xff, 0xfe, 0x00, 0x80, b'a']),
    )
}

fn app(recorder: &HarRecorder) -> Router {
    Router::new()
        .route("/echo", post(echo_raw))
        .route("/payments", post(echo_json))
        .route("/unavailable", get(unavailable))
        .route("/payments/{id}", delete(no_content))
        .route("/login", post(login))
        .route("/binary", get(binary))
        .layer(recorder.layer())
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("reqwest client")
}

fn with_credentials(request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
    request
        .header("public-api-key", "secret-1")
        .header("private-secret-key", "secret-2")
}

// ---------------------------------------------------------------------------------------------
// Reading the HAR
// ---------------------------------------------------------------------------------------------

fn header_value<'a>(headers: &'a Value, name: &str) -> Option<&'a str> {
    headers.as_array()?.iter().find(|h| {
        h["name"]
            .as_str()
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
    })?["value"]
        .as_str()
}

/// The fields HAR 1.2 requires of an entry, its request and its response.
fn assert_har_entry_shape(entry: &Value) {
    for field in [
        "startedDateTime",
        "time",
        "request",
        "response",
        "cache",
        "timings",
    ] {
        assert!(entry.get(field).is_some(), "entry lacks {field}: {entry:#}");
    }
    let request = &entry["request"];
    for field in [
        "method",
        "url",
        "httpVersion",
        "cookies",
        "headers",
        "queryString",
        "headersSize",
        "bodySize",
    ] {
        assert!(request.get(field).is_some(), "request lacks {field}");
    }
    let response = &entry["response"];
    for field in [
        "status",
        "statusText",
        "httpVersion",
        "cookies",
        "headers",
        "content",
        "redirectURL",
        "headersSize",
        "bodySize",
    ] {
        assert!(response.get(field).is_some(), "response lacks {field}");
    }
    assert!(response["content"]["size"].is_u64());
    assert!(response["content"]["mimeType"].is_string());
    for field in ["send", "wait", "receive"] {
        assert!(entry["timings"][field].as_f64().is_some_and(|t| t >= 0.0));
    }
    let started = entry["startedDateTime"].as_str().expect("startedDateTime");
    chrono::DateTime::parse_from_rfc3339(started).expect("startedDateTime is RFC 3339");
    let timings = &entry["timings"];
    let sum = ["send", "wait", "receive"]
        .iter()
        .map(|f| timings[f].as_f64().unwrap_or_default())
        .sum::<f64>();
    assert!((entry["time"].as_f64().expect("time") - sum).abs() < 1e-6);
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn records_each_exchange_in_order_and_passes_it_through() {
    let recorder = HarRecorder::new();
    let server = Server::start(app(&recorder)).await;
    let addr = server.addr;
    let client = client();

    let echo_body = r#"{ "amount": { "value": "10.00", "currency": "EUR" }, "note": "café" }"#;
    let echoed = with_credentials(client.post(server.url("/echo")))
        .query(&[("mode", "fast lane"), ("page", "2")])
        .header(header::CONTENT_TYPE, "application/json")
        .body(echo_body)
        .send()
        .await
        .expect("POST /echo");
    assert_eq!(echoed.status(), 200);
    assert_eq!(echoed.text().await.expect("echo body"), echo_body);

    let created = with_credentials(client.post(server.url("/payments")))
        .json(&json!({"id": "pay_1", "amount": 5}))
        .send()
        .await
        .expect("POST /payments");
    assert_eq!(created.status(), 201);
    let created_body = created.text().await.expect("payments body");
    assert_eq!(
        serde_json::from_str::<Value>(&created_body).expect("JSON"),
        json!({"received": {"id": "pay_1", "amount": 5}})
    );

    let unavailable = with_credentials(client.get(server.url("/unavailable")))
        .send()
        .await
        .expect("GET /unavailable");
    assert_eq!(unavailable.status(), 503);
    let unavailable_body = unavailable.text().await.expect("503 body");

    let deleted = with_credentials(client.delete(server.url("/payments/pay_1")))
        .query(&[("reason", "duplicate")])
        .send()
        .await
        .expect("DELETE");
    assert_eq!(deleted.status(), 204);
    assert!(deleted.bytes().await.expect("204 body").is_empty());

    server.stop().await;

    assert_eq!(recorder.entries_len(), 4);
    let har = recorder.to_har();
    assert_eq!(har["log"]["version"], "1.2");
    assert_eq!(har["log"]["creator"]["name"], "integration-tests");
    let entries = har["log"]["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 4);
    for entry in entries {
        assert_har_entry_shape(entry);
    }
    let base = format!("http://{addr}");

    let methods: Vec<&str> = entries
        .iter()
        .map(|e| e["request"]["method"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(methods, ["POST", "POST", "GET", "DELETE"]);
    let urls: Vec<&str> = entries
        .iter()
        .map(|e| e["request"]["url"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        urls,
        [
            format!("{base}/echo?mode=fast+lane&page=2"),
            format!("{base}/payments"),
            format!("{base}/unavailable"),
            format!("{base}/payments/pay_1?reason=duplicate"),
        ]
    );
    let statuses: Vec<u64> = entries
        .iter()
        .map(|e| e["response"]["status"].as_u64().unwrap_or_default())
        .collect();
    assert_eq!(statuses, [200, 201, 503, 204]);
    let comments: Vec<&str> = entries
        .iter()
        .map(|e| e["comment"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        comments,
        ["exchange 1", "exchange 2", "exchange 3", "exchange 4"]
    );

    // 1: the raw JSON echo, query string decoded.
    let echo = &entries[0];
    assert_eq!(
        echo["request"]["queryString"],
        json!([{"name": "mode", "value": "fast lane"}, {"name": "page", "value": "2"}])
    );
    assert_eq!(echo["request"]["httpVersion"], "HTTP/1.1");
    assert_eq!(
        echo["request"]["postData"],
        json!({"mimeType": "application/json", "text": echo_body})
    );
    assert_eq!(echo["request"]["bodySize"], echo_body.len());
    assert_eq!(echo["response"]["statusText"], "OK");
    assert_eq!(echo["response"]["content"]["text"], echo_body);
    assert_eq!(echo["response"]["content"]["size"], echo_body.len());
    assert_eq!(echo["response"]["content"]["mimeType"], "application/json");
    assert_eq!(echo["response"]["bodySize"], echo_body.len());
    assert_eq!(echo["response"]["redirectURL"], "");
    assert_eq!(
        header_value(&echo["request"]["headers"], "host"),
        Some(addr.to_string().as_str())
    );

    // 2: reqwest's JSON body, and the handler's JSON reply, exactly as sent.
    let payments = &entries[1];
    assert_eq!(
        payments["request"]["postData"]["text"],
        r#"{"id":"pay_1","amount":5}"#
    );
    assert_eq!(payments["response"]["content"]["text"], created_body);
    assert_eq!(payments["response"]["statusText"], "Created");

    // 3: a GET has no postData; the 503's body is recorded.
    let failed = &entries[2];
    assert!(failed["request"].get("postData").is_none());
    assert_eq!(failed["request"]["bodySize"], 0);
    assert_eq!(failed["request"]["queryString"], json!([]));
    assert_eq!(failed["response"]["statusText"], "Service Unavailable");
    assert_eq!(failed["response"]["content"]["text"], unavailable_body);

    // 4: a 204 has no content text.
    let no_content = &entries[3];
    assert_eq!(no_content["response"]["content"]["size"], 0);
    assert!(no_content["response"]["content"].get("text").is_none());
    assert_eq!(no_content["response"]["bodySize"], 0);
}

#[tokio::test]
async fn never_writes_credentials() {
    let recorder = HarRecorder::new().redact_header("X-Trace-Token");
    let server = Server::start(app(&recorder)).await;
    let client = client();

    with_credentials(client.post(server.url("/login")))
        .header(header::AUTHORIZATION, "Bearer secret-4")
        .header(header::COOKIE, "session=secret-5; theme=dark")
        .header(header::PROXY_AUTHORIZATION, "Basic secret-6")
        .header("x-trace-token", "secret-7")
        .header("x-request-id", "visible-1")
        .send()
        .await
        .expect("POST /login")
        .error_for_status()
        .expect("200");
    let response = with_credentials(client.get(server.url("/unavailable")))
        .send()
        .await
        .expect("GET /unavailable");
    assert_eq!(response.status(), 503);
    server.stop().await;

    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("har-recorder-credentials");
    let path = dir.join("traffic.har");
    recorder.write(&path).expect("write HAR");
    let text = std::fs::read_to_string(&path).expect("read HAR");
    let in_memory = serde_json::to_string(&recorder.to_har()).expect("serialize");
    for serialized in [&text, &in_memory] {
        for secret in [
            "secret-1", "secret-2", "secret-3", "secret-4", "secret-5", "secret-6", "secret-7",
        ] {
            assert!(
                !serialized.contains(secret),
                "{secret} was written:\n{serialized}"
            );
        }
        assert!(serialized.contains("visible-1"));
    }

    let har: Value = serde_json::from_str(&text).expect("the file is JSON");
    let entries = har["log"]["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 2);
    let login = &entries[0]["request"];
    for name in [
        "public-api-key",
        "private-secret-key",
        "authorization",
        "cookie",
        "proxy-authorization",
        "x-trace-token",
    ] {
        assert_eq!(
            header_value(&login["headers"], name),
            Some(REDACTED),
            "{name}"
        );
    }
    assert_eq!(
        header_value(&login["headers"], "x-request-id"),
        Some("visible-1")
    );
    assert_eq!(
        login["cookies"],
        json!([
            {"name": "session", "value": REDACTED},
            {"name": "theme", "value": REDACTED},
        ])
    );
    let login_response = &entries[0]["response"];
    assert_eq!(
        header_value(&login_response["headers"], "set-cookie"),
        Some(REDACTED)
    );
    assert_eq!(
        login_response["cookies"],
        json!([{"name": "session", "value": REDACTED, "path": "/", "httpOnly": true, "secure": true}])
    );
    assert_eq!(login_response["content"]["text"], "logged in");
    assert_eq!(
        header_value(&entries[1]["request"]["headers"], "public-api-key"),
        Some(REDACTED)
    );

    let mut redacted = recorder.redacted_headers();
    redacted.sort();
    assert_eq!(
        redacted,
        [
            "authorization",
            "cookie",
            "private-secret-key",
            "proxy-authorization",
            "public-api-key",
            "set-cookie",
            "x-trace-token",
        ]
    );
}

#[tokio::test]
async fn writes_a_complete_har_file_atomically() {
    let recorder = HarRecorder::new();
    let server = Server::start(app(&recorder)).await;
    let response = with_credentials(client().get(server.url("/unavailable")))
        .send()
        .await
        .expect("GET /unavailable");
    assert_eq!(response.status(), 503);
    server.stop().await;

    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("har-recorder-write")
        .join("nested");
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("out.har");
    recorder.write(&path).expect("write HAR");
    // Writing again replaces the file whole.
    recorder.write(&path).expect("rewrite HAR");

    let har: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("JSON");
    assert_eq!(har["log"]["version"], "1.2");
    assert_eq!(har, recorder.to_har());
    assert_eq!(har["log"]["entries"].as_array().map(Vec::len), Some(1));
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name())
        .filter(|name| name != "out.har")
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");

    let no_file_name = recorder.write(dir.join("..")).expect_err("not a file name");
    assert_eq!(no_file_name.kind(), io::ErrorKind::InvalidInput);
}

#[tokio::test]
async fn records_text_and_binary_bodies() {
    let recorder = HarRecorder::new();
    let server = Server::start(app(&recorder)).await;
    let client = client();

    let text = "plain text, not JSON: ünïcödé";
    let echoed = client
        .post(server.url("/echo"))
        .header(header::CONTENT_TYPE, "text/plain; charset=utf-8")
        .body(text)
        .send()
        .await
        .expect("POST text");
    assert_eq!(echoed.text().await.expect("text"), text);

    let bytes: &[u8] = &[0x00, 0xc3, 0x28, 0xff, 0xfe, b'x', 0x80];
    let echoed = client
        .post(server.url("/echo"))
        .header(header::CONTENT_TYPE, "application/octet-stream")
        .body(bytes.to_vec())
        .send()
        .await
        .expect("POST bytes");
    assert_eq!(&echoed.bytes().await.expect("bytes")[..], bytes);

    let binary = client
        .get(server.url("/binary"))
        .send()
        .await
        .expect("GET /binary");
    assert_eq!(
        &binary.bytes().await.expect("bytes")[..],
        &[0xff, 0xfe, 0x00, 0x80, b'a']
    );

    // A body that is not JSON sent with a JSON content type: the handler rejects it, and the
    // recorder records both sides as they were.
    let rejected = client
        .post(server.url("/payments"))
        .header(header::CONTENT_TYPE, "application/json")
        .body("{not json")
        .send()
        .await
        .expect("POST bad JSON");
    assert_eq!(rejected.status(), 400);
    let rejection = rejected.text().await.expect("rejection");
    server.stop().await;

    let entries = recorder.entries();
    assert_eq!(entries.len(), 4);
    let decode = |text: &Value| {
        base64::engine::general_purpose::STANDARD
            .decode(text.as_str().expect("text"))
            .expect("base64")
    };

    let plain = &entries[0];
    assert_eq!(
        plain["request"]["postData"],
        json!({"mimeType": "text/plain; charset=utf-8", "text": text})
    );
    assert_eq!(plain["request"]["bodySize"], text.len());
    assert_eq!(plain["response"]["content"]["text"], text);
    assert!(plain["response"]["content"].get("encoding").is_none());

    let raw = &entries[1];
    assert_eq!(raw["request"]["postData"]["encoding"], "base64");
    assert_eq!(decode(&raw["request"]["postData"]["text"]), bytes);
    assert_eq!(raw["request"]["bodySize"], bytes.len());
    assert_eq!(raw["response"]["content"]["encoding"], "base64");
    assert_eq!(decode(&raw["response"]["content"]["text"]), bytes);
    assert_eq!(raw["response"]["content"]["size"], bytes.len());

    let generated = &entries[2];
    assert_eq!(generated["response"]["content"]["encoding"], "base64");
    assert_eq!(
        decode(&generated["response"]["content"]["text"]),
        [0xff, 0xfe, 0x00, 0x80, b'a']
    );
    assert_eq!(
        generated["response"]["content"]["mimeType"],
        "application/octet-stream"
    );

    let bad_json = &entries[3];
    assert_eq!(bad_json["request"]["postData"]["text"], "{not json");
    assert_eq!(bad_json["response"]["status"], 400);
    assert_eq!(bad_json["response"]["content"]["text"], rejection);
}

#[tokio::test]
async fn truncates_long_bodies_but_passes_them_through_whole() {
    let recorder = HarRecorder::new().body_limit(8);
    let server = Server::start(app(&recorder)).await;
    let body = "0123456789abcdefghij".repeat(1000);
    let echoed = client()
        .post(server.url("/echo"))
        .header(header::CONTENT_TYPE, "text/plain")
        .body(body.clone())
        .send()
        .await
        .expect("POST long body");
    assert_eq!(echoed.status(), 200);
    assert_eq!(
        echoed
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok()),
        Some(body.len().to_string().as_str()),
        "the response keeps its length"
    );
    assert_eq!(echoed.text().await.expect("echo"), body);
    server.stop().await;

    let entries = recorder.entries();
    assert_eq!(entries.len(), 1);
    let entry = &entries[0];
    assert_har_entry_shape(entry);
    let post_data = &entry["request"]["postData"];
    assert_eq!(post_data["text"], "01234567");
    assert_eq!(post_data["_truncated"], true);
    assert!(
        post_data["comment"]
            .as_str()
            .is_some_and(|c| c.contains("truncated"))
    );
    assert_eq!(entry["request"]["bodySize"], -1);
    let content = &entry["response"]["content"];
    assert_eq!(content["text"], "01234567");
    assert_eq!(content["_truncated"], true);
    assert_eq!(content["size"], 8);
    assert_eq!(entry["response"]["bodySize"], -1);
}

#[tokio::test]
async fn merges_servers_by_start_time_and_clears() {
    let api = HarRecorder::new().label("api");
    let merchant = HarRecorder::new().label("merchant");
    let api_server = Server::start(app(&api)).await;
    let merchant_server = Server::start(app(&merchant)).await;
    let client = client();

    for (server, path) in [
        (&api_server, "/unavailable"),
        (&merchant_server, "/login"),
        (&api_server, "/binary"),
        (&merchant_server, "/unavailable"),
    ] {
        let request = if path == "/login" {
            client.post(server.url(path))
        } else {
            client.get(server.url(path))
        };
        request.send().await.expect(path).bytes().await.expect(path);
    }
    api_server.stop().await;
    merchant_server.stop().await;

    let merged = har::merge(&[&merchant, &api]);
    assert_eq!(merged["log"]["version"], "1.2");
    let comments: Vec<&str> = merged["log"]["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["comment"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        comments,
        [
            "api exchange 1",
            "merchant exchange 1",
            "api exchange 2",
            "merchant exchange 2"
        ]
    );
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("har-recorder-merge");
    har::write_har(dir.join("merged.har"), &merged).expect("write merged");

    api.clear();
    assert_eq!(api.entries_len(), 0);
    assert_eq!(api.to_har()["log"]["entries"], json!([]));
    assert_eq!(
        har::merge(&[&api, &merchant])["log"]["entries"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );

    // Numbering starts again after a clear.
    let api_server = Server::start(app(&api)).await;
    client
        .get(api_server.url("/unavailable"))
        .send()
        .await
        .expect("GET")
        .bytes()
        .await
        .expect("body");
    api_server.stop().await;
    assert_eq!(api.entries()[0]["comment"], "api exchange 1");
}

#[tokio::test]
async fn records_requests_through_nested_routers_with_their_full_path() {
    let recorder = HarRecorder::new();
    // The layer sits on the nested router, which sees only `/status`.
    let inner = Router::new()
        .route("/status", get(|| async { "fine" }))
        .layer(recorder.layer());
    let router = Router::new().nest("/v1", inner);
    let server = Server::start(router).await;
    let addr = server.addr;
    let response = client()
        .get(server.url("/v1/status?verbose=true"))
        .send()
        .await
        .expect("GET nested");
    assert_eq!(response.text().await.expect("body"), "fine");
    server.stop().await;
    assert_eq!(
        recorder.entries()[0]["request"]["url"],
        format!("http://{addr}/v1/status?verbose=true")
    );
}
