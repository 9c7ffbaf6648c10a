//! What the sandbox's tests share: a sandbox served from the library on 127.0.0.1:0, a
//! typed client of its API, JSON calls to its control API, and the control API's OpenAPI
//! document to check answers against.

#![allow(dead_code)] // Each test file uses its own part of this module.

use std::path::{Path, PathBuf};
use std::time::Duration;

use jsonschema::{Draft, Registry, Validator};
use orchestration_api::client::Client;
use orchestration_api::credentials::Credentials;
use orchestration_api::retry::RetryPolicy;
use orchestration_api::webhooks::DeliveryPolicy;
use sandbox::{Sandbox, SandboxOptions};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// Credential values that must never appear in a log.
pub const PUBLIC_KEY: &str = "pk_live_SECRET_9f2c7d1e";
pub const SECRET_KEY: &str = "sk_live_SECRET_4b8a6e3c";

/// Options for tests: quick delivery retries.
pub fn quick_options() -> SandboxOptions {
    SandboxOptions {
        delivery_policy: DeliveryPolicy {
            max_attempts: 3,
            base_delay: Duration::from_millis(10),
            max_delay: Duration::from_millis(40),
            timeout: Duration::from_secs(5),
        },
        ..SandboxOptions::default()
    }
}

/// A sandbox served from the library on 127.0.0.1:0.
pub struct Running {
    pub sandbox: Sandbox,
    pub origin: String,
    pub http: reqwest::Client,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
}

impl Running {
    pub async fn start(options: SandboxOptions) -> Self {
        let sandbox = Sandbox::new(options).expect("sandbox options");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let origin = format!("http://{}", listener.local_addr().expect("address"));
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(sandbox.clone().serve(
            listener,
            async {
                let _ = stopped.await;
            },
            Duration::from_secs(2),
        ));
        Self {
            sandbox,
            origin,
            http: reqwest::Client::builder()
                .no_proxy()
                .build()
                .expect("http client"),
            stop: Some(stop),
            task: Some(task),
        }
    }

    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.expect("server task").expect("server");
        }
        // `serve` waited for the checks of everything it answered: the sandbox's own answers
        // kept the contract it stands in for, whatever the test sent it.
        let check = self
            .sandbox
            .contract_check()
            .expect("the contract check is on");
        assert_eq!(check.stats().pending(), 0, "exchanges left unchecked");
        let findings = check.service_findings();
        assert!(
            findings.is_empty(),
            "the sandbox answered outside its contract:\n{}",
            findings
                .iter()
                .map(|f| format!(
                    "{} {:?} {} [{}] {}",
                    f.operation.as_deref().unwrap_or("-"),
                    f.part,
                    f.pointer,
                    f.rule,
                    f.message
                ))
                .collect::<Vec<_>>()
                .join("\n")
        );
    }

    /// The records of the merchant of the test credentials.
    pub fn merchant(&self) -> sandbox::service::Merchant {
        self.sandbox
            .service()
            .merchant(&Credentials::new(PUBLIC_KEY, SECRET_KEY))
    }

    /// The typed client of the API, with the test credentials and no retries.
    pub fn client(&self) -> Client {
        self.client_with(Credentials::new(PUBLIC_KEY, SECRET_KEY))
    }

    pub fn client_with(&self, credentials: Credentials) -> Client {
        Client::builder(format!("{}/v1", self.origin), credentials)
            .retry(RetryPolicy::none())
            .timeout(Duration::from_secs(10))
            .build()
            .expect("client")
    }

    /// `method /_sandbox{path}` with an optional JSON body, for the merchant of the test
    /// credentials ([`PUBLIC_KEY`], [`SECRET_KEY`]): (status, body, headers).
    pub async fn control(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value, reqwest::header::HeaderMap) {
        self.control_as(Some((PUBLIC_KEY, SECRET_KEY)), method, path, body)
            .await
    }

    /// [`control`](Self::control) for the merchant of `credentials` (public key, secret
    /// key), or without credential headers.
    pub async fn control_as(
        &self,
        credentials: Option<(&str, &str)>,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value, reqwest::header::HeaderMap) {
        let mut request = self
            .http
            .request(method, format!("{}/_sandbox{path}", self.origin));
        if let Some((public, secret)) = credentials {
            request = request
                .header("public-api-key", public)
                .header("private-secret-key", secret);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("control request");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let bytes = response.bytes().await.expect("control body");
        let body = serde_json::from_slice(&bytes).unwrap_or_else(|_| {
            panic!(
                "control answer is not JSON: {}",
                String::from_utf8_lossy(&bytes)
            )
        });
        (status, body, headers)
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let (status, body, _) = self.control(reqwest::Method::POST, path, Some(body)).await;
        (status, body)
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        let (status, body, _) = self.control(reqwest::Method::GET, path, None).await;
        (status, body)
    }

    /// Polls delivery `id` until it is no longer pending (10 s at most).
    pub async fn settled_delivery(&self, id: &str) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let (status, delivery) = self.get(&format!("/deliveries/{id}")).await;
            assert_eq!(status, 200, "{delivery}");
            if delivery["status"] != "PENDING" || tokio::time::Instant::now() > deadline {
                return delivery;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// Seeds onboarding `id` with `status` through the control API.
pub async fn seed_onboarding(running: &Running, id: &str, status: &str) {
    let (code, body) = running
        .post("/onboardings", json!({"id": id, "status": status}))
        .await;
    assert_eq!(code, 201, "{body}");
}

/// A server on 127.0.0.1:0 for `router`, stopped when the returned sender is dropped or
/// sent to.
pub async fn serve(router: axum::Router) -> (String, oneshot::Sender<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let origin = format!("http://{}", listener.local_addr().expect("address"));
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(async move {
        axum::serve(listener, router)
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
    });
    (origin, stop)
}

// ---------------------------------------------------------------------------------------------
// The control API's OpenAPI document
// ---------------------------------------------------------------------------------------------

/// `sandbox/`.
pub fn package_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `sandbox/control-api.yaml`.
pub fn control_api_path() -> PathBuf {
    package_dir().join("control-api.yaml")
}

/// `spec/openapi.yaml`, which the control API's document refers to.
pub fn spec_path() -> PathBuf {
    package_dir().join("..").join("spec").join("openapi.yaml")
}

pub fn load_yaml(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|err| panic!("reading {}: {err}", path.display()));
    serde_norway::from_str(&text).unwrap_or_else(|err| panic!("parsing {}: {err}", path.display()))
}

/// The `file://` URI of a file, so that relative `$ref`s between documents resolve as
/// they would for a tool reading the files.
pub fn file_uri(path: &Path) -> String {
    let path = path
        .canonicalize()
        .unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    format!("file://{}", path.display())
}

/// Escapes a JSON pointer token (`/` → `~1`, `~` → `~0`).
pub fn pointer_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// A JSON pointer as a URI fragment: what a fragment cannot hold is percent-encoded.
pub fn uri_fragment(pointer: &str) -> String {
    pointer
        .replace('%', "%25")
        .replace('{', "%7B")
        .replace('}', "%7D")
        .replace(' ', "%20")
}

/// Schemas of the control API's document, compiled with the API's spec beside it (JSON
/// Schema 2020-12, formats asserted).
pub struct ControlContract {
    control_uri: String,
    registry: Registry<'static>,
    pub document: &'static Value,
}

impl ControlContract {
    pub fn load() -> Self {
        let control_path = control_api_path();
        let spec_path = spec_path();
        let control_uri = file_uri(&control_path);
        // Leaked: the registry borrows the documents for as long as the test runs.
        let document: &'static Value = Box::leak(Box::new(load_yaml(&control_path)));
        let spec: &'static Value = Box::leak(Box::new(load_yaml(&spec_path)));
        let registry = Registry::new()
            .draft(Draft::Draft202012)
            .add(control_uri.as_str(), document)
            .expect("control document as a resource")
            .add(file_uri(&spec_path).as_str(), spec)
            .expect("spec as a resource")
            .prepare()
            .expect("registry");
        Self {
            control_uri,
            registry,
            document,
        }
    }

    /// The validator of the schema at JSON pointer `pointer` in the control document.
    pub fn validator(&self, pointer: &str) -> Validator {
        jsonschema::options()
            .with_draft(Draft::Draft202012)
            .should_validate_formats(true)
            .with_registry(&self.registry)
            .offline()
            .build(&json!({"$ref": format!("{}#{}", self.control_uri, uri_fragment(pointer))}))
            .unwrap_or_else(|err| panic!("compiling {pointer}: {err}"))
    }

    /// Problems of `body` as the `status` answer of `method path` (path as written in the
    /// document, e.g. `/deliveries/{id}`); empty when it matches.
    pub fn response_problems(
        &self,
        method: &str,
        path: &str,
        status: u16,
        body: &Value,
    ) -> Vec<String> {
        let operation = format!("/paths/{}/{method}", pointer_token(path));
        let response = format!("{operation}/responses/{status}");
        let Some(mut declared) = self.document.pointer(&response) else {
            return vec![format!("{method} {path} documents no {status} response")];
        };
        let mut pointer = response.clone();
        if let Some(reference) = declared.get("$ref").and_then(Value::as_str) {
            pointer = reference.trim_start_matches('#').to_owned();
            declared = self
                .document
                .pointer(&pointer)
                .unwrap_or_else(|| panic!("dangling {reference}"));
        }
        if declared
            .pointer("/content/application~1json/schema")
            .is_none()
        {
            return vec![format!("{method} {path} {status} documents no JSON body")];
        }
        let validator = self.validator(&format!("{pointer}/content/application~1json/schema"));
        validator
            .iter_errors(body)
            .map(|error| format!("{} at {}", error, error.instance_path().as_str()))
            .collect()
    }

    /// Panics unless `body` matches the documented `status` answer of `method path`.
    pub fn assert_response(&self, method: &str, path: &str, status: u16, body: &Value) {
        let problems = self.response_problems(method, path, status, body);
        assert!(
            problems.is_empty(),
            "{method} {path} answered {status} with a body that control-api.yaml does not \
             allow:\n{}\n{body:#}",
            problems.join("\n")
        );
    }
}
