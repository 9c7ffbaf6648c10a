//! The build-step path end to end, as a user outside this workspace takes it: a crate written
//! into a temporary directory, with the dependencies the README lists for the server and the
//! client and nothing else, builds both from its `build.rs` with `specgen::Builder` (a path
//! dependency on this repository's generator), and its own test serves the generated router
//! on 127.0.0.1 with a small `Api` implementation and calls it with the generated client.
//!
//! Built offline against this workspace's Cargo.lock, in `<target dir>/build-step-outside`,
//! so that the dependencies are compiled once and later runs only rebuild the crate.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SPEC: &str = r#"openapi: 3.1.0
info:
  title: Things
  version: 1.0.0
paths:
  /things:
    post:
      operationId: createThing
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/Thing'
      responses:
        '201':
          description: Created
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Thing'
        '400':
          description: Invalid
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Error'
  /things/{id}:
    get:
      operationId: getThing
      parameters:
        - name: id
          in: path
          required: true
          schema:
            type: string
      responses:
        '200':
          description: The thing
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Thing'
        '404':
          description: No such thing
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Error'
components:
  schemas:
    Thing:
      type: object
      required: [id]
      properties:
        id:
          type: string
        kind:
          type: string
          enum: [small, large]
        weight:
          type: number
      examples:
        - id: t1
          kind: small
          weight: 1.50
    Error:
      type: object
      required: [code]
      properties:
        code:
          type: string
        messages:
          type: array
          items:
            type: string
"#;

const BUILD_RS: &str = r#"fn main() -> Result<(), Box<dyn std::error::Error>> {
    specgen::Builder::new("openapi.yaml")
        .server(true)
        .client(true)
        .example_tests(true)
        .generate()?;
    Ok(())
}
"#;

const LIB_RS: &str = r#"include!(concat!(env!("OUT_DIR"), "/api.rs"));
"#;

const ROUND_TRIP_RS: &str = r##"use outside::client::{Client, ClientError};
use outside::credentials::Credentials;
use outside::server::{self, CreateThingParams, CreateThingResponse, GetThingParams, GetThingResponse};
use outside::{Error, Thing, ThingKind};

/// Knows one thing, `t1`, and echoes what it is given to create.
struct Things;

impl server::Api for Things {
    async fn create_thing(&self, _params: CreateThingParams, body: Thing) -> CreateThingResponse {
        CreateThingResponse::Created(body)
    }

    async fn get_thing(&self, params: GetThingParams) -> GetThingResponse {
        if params.id == "t1" {
            let thing: Thing = serde_json::from_value(serde_json::json!(
                {"id": "t1", "kind": "small", "weight": 1.50}
            ))
            .unwrap();
            GetThingResponse::Ok(thing)
        } else {
            let error: Error =
                serde_json::from_value(serde_json::json!({"code": "NOT_FOUND"})).unwrap();
            GetThingResponse::NotFound(error)
        }
    }
}

#[tokio::test]
async fn the_generated_client_calls_the_generated_server() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(async move {
        axum::serve(listener, server::router(Things)).await.unwrap();
    });
    let client = Client::new(base.clone(), Credentials::new()).unwrap();

    let thing = client.get_thing(&"t1".to_string()).await.unwrap();
    assert_eq!(thing.id, "t1");
    assert_eq!(thing.kind, Some(ThingKind::Small));
    assert_eq!(
        serde_json::to_value(&thing).unwrap(),
        serde_json::json!({"id": "t1", "kind": "small", "weight": 1.50})
    );

    match client.get_thing(&"t2".to_string()).await {
        Err(ClientError::Api { status, body }) => {
            assert_eq!(status, 404);
            assert_eq!(body.code, "NOT_FOUND");
        }
        other => panic!("expected the documented 404, got {other:?}"),
    }

    let created = client.create_thing(&thing).await.unwrap();
    assert_eq!(created, thing);

    // The router checks bodies against the embedded contract (api/schemas/ in OUT_DIR).
    let refused = reqwest::Client::new()
        .post(format!("{base}/things"))
        .header("content-type", "application/json")
        .body(r#"{"id": 5}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    let body: serde_json::Value = refused.json().await.unwrap();
    assert_eq!(body["code"], "VALIDATION_ERROR", "{body}");

    server.abort();
}
"##;

/// The crate's manifest: the README's lines for the models, the server and the client, and
/// for the example tests, with the test's own runtime under dev-dependencies.
fn manifest(generator: &Path) -> String {
    format!(
        r#"[package]
name = "outside"
version = "0.1.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
# Always: the models, support types and contract.
base64 = "0.22"
chrono = {{ version = "0.4", default-features = false, features = ["std", "serde"] }}
rust_decimal = "1"
serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"
# With .server(true):
axum = {{ version = "0.8", default-features = false, features = ["http1", "json", "tokio"] }}
http = "1"
jsonschema = {{ version = "0.60", default-features = false }}
serde_urlencoded = "0.7"
# With .client(true); uuid gains the `v4` feature:
fastrand = "2"
httpdate = "1"
percent-encoding = "2"
reqwest = {{ version = "0.13", default-features = false, features = ["json", "query", "form"] }}
tokio = {{ version = "1", features = ["time"] }}
uuid = {{ version = "1", features = ["serde", "v4"] }}

[dev-dependencies]
tokio = {{ version = "1", features = ["macros", "rt-multi-thread", "net"] }}

[build-dependencies]
specgen = {{ path = {generator:?}, default-features = false }}
"#
    )
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The target directory this test was built in (`<target>/debug/deps/<test>` is running).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    exe.ancestors()
        .nth(3)
        .expect("the test runs from <target>/<profile>/deps")
        .to_path_buf()
}

/// Runs cargo in `dir` as a user would: none of the variables cargo set for this test.
fn cargo(dir: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if (name.starts_with("CARGO_") && name != "CARGO_HOME") || name.starts_with("RUSTC_") {
            command.env_remove(name.as_ref());
        }
    }
    command
        .args(args)
        .args(["--offline", "--color", "never"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target_dir().join("build-step-outside"))
        // Each checkout's specgen is a new path dependency; incremental data for every one of
        // them would pile up in the shared target directory (gigabytes over a few runs).
        .env("CARGO_INCREMENTAL", "0")
        .output()
        .expect("running cargo")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_crate_outside_the_workspace_builds_and_runs_its_client_and_server_from_build_rs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let generator = workspace().join("generator").canonicalize().unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::create_dir_all(root.join("tests")).unwrap();
    std::fs::write(root.join("Cargo.toml"), manifest(&generator)).unwrap();
    std::fs::copy(workspace().join("Cargo.lock"), root.join("Cargo.lock")).unwrap();
    std::fs::write(root.join("openapi.yaml"), SPEC).unwrap();
    std::fs::write(root.join("build.rs"), BUILD_RS).unwrap();
    std::fs::write(root.join("src/lib.rs"), LIB_RS).unwrap();
    std::fs::write(root.join("tests/round_trip.rs"), ROUND_TRIP_RS).unwrap();

    // Without a dependency the code needs, the build script says which line to add.
    let without_base64 = manifest(&generator).replace("base64 = \"0.22\"\n", "");
    std::fs::write(root.join("Cargo.toml"), &without_base64).unwrap();
    let output = cargo(root, &["build"]);
    let stderr = text(&output.stderr);
    assert!(!output.status.success(), "built without base64:\n{stderr}");
    assert!(
        stderr.contains("uses crates it does not declare") && stderr.contains("base64 = \"0.22\""),
        "the failure does not name the missing line:\n{stderr}"
    );
    assert!(
        !stderr.contains("E0433"),
        "it got as far as rustc:\n{stderr}"
    );
    std::fs::write(root.join("Cargo.toml"), manifest(&generator)).unwrap();

    let output = cargo(root, &["test"]);
    let stdout = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert!(
        output.status.success(),
        "cargo test failed:\n{stdout}\n{stderr}"
    );
    // The example round trips and the client/server test ran and passed.
    assert!(
        stdout.contains("test example_tests::")
            && stdout.contains("test the_generated_client_calls_the_generated_server ... ok"),
        "{stdout}"
    );
    // The included code builds without a warning (unexpected_cfgs and others).
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|line| line.starts_with("warning"))
        .collect();
    assert!(warnings.is_empty(), "warnings:\n{stderr}");
}
