//! The bindings in this crate come from `build.rs` through `specgen::Builder` and
//! `include!`; these tests show that they are real, working bindings for spec/openapi.yaml.

use std::path::{Path, PathBuf};
use std::process::Command;

use build_step_demo::{Account, AccountStatus, EntityTransfer, TransferStatus};
use serde_json::{Value, json};

fn spec_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec/openapi.yaml")
}

/// The first `examples` entry of a component schema in spec/openapi.yaml, as JSON.
fn spec_example(component: &str) -> Value {
    let text = std::fs::read_to_string(spec_path()).expect("read spec/openapi.yaml");
    let spec: Value = serde_norway::from_str(&text).expect("spec/openapi.yaml is YAML");
    spec["components"]["schemas"][component]["examples"][0].clone()
}

/// Only compiles if `Amount.value` is a `rust_decimal::Decimal`, as `build.rs` overrides it.
fn overridden_decimal(value: rust_decimal::Decimal) -> rust_decimal::Decimal {
    value
}

#[test]
fn account_example_from_the_spec_deserializes_and_round_trips() {
    let example = spec_example("Account");
    assert!(example.is_object(), "spec has no Account example");
    let account: Account = serde_json::from_value(example.clone()).expect("Account example");

    assert_eq!(account.id.as_deref(), Some("acct_2f7c9a1e4b6d"));
    assert_eq!(account.status, Some(AccountStatus::Active));
    assert_eq!(
        account.account_id.map(|id| id.to_string()).as_deref(),
        Some("6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b")
    );
    let balance = account.balance.as_ref().expect("balance");
    assert_eq!(
        balance.available.map(|d| d.value()),
        Some("1250.5".parse().unwrap())
    );
    assert_eq!(serde_json::to_value(&account).unwrap(), example);
}

#[test]
fn entity_transfer_example_has_the_overridden_decimal_amount() {
    let example = spec_example("EntityTransfer");
    assert!(example.is_object(), "spec has no EntityTransfer example");
    let transfer: EntityTransfer =
        serde_json::from_value(example.clone()).expect("EntityTransfer example");

    assert_eq!(transfer.id.as_deref(), Some("xfer_5c7e9a1b3d5f"));
    assert_eq!(transfer.status, Some(TransferStatus::Pending));
    assert_eq!(transfer.destination_account_id, Some(None));
    assert_eq!(
        transfer.created_at.as_ref().map(|t| t.as_str()),
        Some("2024-05-18T10:00:00Z")
    );
    let amount = transfer.amount.as_ref().expect("amount");
    let value = overridden_decimal(amount.value.expect("amount.value"));
    assert_eq!(value, rust_decimal::Decimal::from(250));
    assert_eq!(amount.currency.as_deref(), Some("USD"));

    // Everything but the overridden field serializes back as it was written.
    let mut back = serde_json::to_value(&transfer).unwrap();
    let mut expected = example;
    let value_back = back["amount"]
        .as_object_mut()
        .unwrap()
        .remove("value")
        .unwrap();
    expected["amount"].as_object_mut().unwrap().remove("value");
    assert_eq!(back, expected);
    // rust_decimal's own Serialize (not specgen's support::Decimal) decides how it is written:
    // with its default features that is a string, "250" where the spec example has 250.
    assert_eq!(
        serde_json::from_value::<rust_decimal::Decimal>(value_back).unwrap(),
        value
    );
}

#[test]
fn unknown_enum_values_are_kept_and_written_back_unchanged() {
    let status: AccountStatus = serde_json::from_value(json!("FROZEN")).unwrap();
    assert_eq!(status, AccountStatus::Unknown("FROZEN".into()));
    assert!(!status.is_known());
    assert_eq!(serde_json::to_value(&status).unwrap(), json!("FROZEN"));

    let mut example = spec_example("Account");
    example["status"] = json!("FROZEN");
    let account: Account = serde_json::from_value(example.clone()).unwrap();
    assert_eq!(
        account.status,
        Some(AccountStatus::Unknown("FROZEN".into()))
    );
    assert_eq!(serde_json::to_value(&account).unwrap(), example);
}

#[test]
fn build_step_wrote_the_contract_beside_the_include_file() {
    let manifest: Value = serde_json::from_str(include_str!(concat!(
        env!("OUT_DIR"),
        "/api/schemas/manifest.json"
    )))
    .expect("manifest.json is JSON");
    assert!(manifest.is_object());
}

/// The Builder as build.rs configures it.
fn builder() -> specgen::Builder {
    specgen::Builder::new(spec_path())
        .server(true)
        .client(true)
        .webhooks(true)
        .type_override("Amount.value", "rust_decimal::Decimal")
        .cargo_directives(false)
}

#[test]
fn builder_generate_to_writes_the_include_file_and_contract() {
    let dir = tempfile::tempdir().unwrap();
    let path = builder().generate_to(dir.path()).expect("generate_to");
    assert_eq!(path, dir.path().join("api.rs"));
    let api = std::fs::read_to_string(&path).unwrap();
    // Same spec, same options: byte for byte what build.rs wrote and this crate includes.
    assert_eq!(api, include_str!(concat!(env!("OUT_DIR"), "/api.rs")));
    let server = std::fs::read_to_string(dir.path().join("api/src/server.rs")).unwrap();
    assert_eq!(
        server,
        include_str!(concat!(env!("OUT_DIR"), "/api/src/server.rs"))
    );
    let manifest = std::fs::read_to_string(dir.path().join("api/schemas/manifest.json")).unwrap();
    serde_json::from_str::<Value>(&manifest).expect("manifest.json is JSON");
}

/// The include file declares the modules of the sides asked for, and only those; the models,
/// support types, credentials and contract are always there.
#[test]
fn builder_generates_the_sides_asked_for_and_no_other() {
    let modules = |builder: specgen::Builder| {
        let dir = tempfile::tempdir().unwrap();
        let path = builder
            .cargo_directives(false)
            .generate_to(dir.path())
            .unwrap();
        let api = std::fs::read_to_string(path).unwrap();
        let mut declared: Vec<String> = api
            .lines()
            .filter_map(|line| line.trim().strip_suffix(';'))
            .filter_map(|line| line.rsplit_once("mod ").map(|(_, name)| name.to_string()))
            .collect();
        declared.sort();
        let mut files: Vec<String> = std::fs::read_dir(dir.path().join("api/src"))
            .unwrap()
            .map(|entry| {
                entry
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .replace(".rs", "")
            })
            .collect();
        files.sort();
        assert_eq!(declared, files, "{api}");
        declared
    };
    fn with(extra: &[&'static str]) -> Vec<&'static str> {
        let mut names = vec!["contract", "credentials", "models", "support"];
        names.extend(extra);
        names.sort();
        names
    }
    let spec = || specgen::Builder::new(spec_path());
    assert_eq!(modules(spec()), with(&[]));
    assert_eq!(
        modules(spec().server(true)),
        with(&["server", "validation"])
    );
    assert_eq!(modules(spec().client(true)), with(&["client", "retry"]));
    assert_eq!(
        modules(spec().webhooks(true)),
        with(&["retry", "validation", "webhooks"])
    );
    assert_eq!(
        modules(spec().example_tests(true)),
        with(&["example_tests"])
    );
}

/// What this crate includes is the API: the server's trait and router, the client, the
/// webhook sender, typed as the spec says.
#[test]
fn the_included_sides_are_the_apis() {
    use build_step_demo::{client, credentials::Credentials, server, webhooks};
    // Compiles only if the router serves any implementation of the API's trait.
    fn _router<A: server::Api>(api: A) -> axum::Router {
        server::router(api)
    }
    let client = client::Client::new(
        "http://127.0.0.1:9",
        Credentials::new("public-key", "private-key"),
    );
    assert!(client.is_ok(), "a client for a plain HTTP URL");
    let _sender = webhooks::Sender::new(webhooks::DeliveryPolicy::default());
}

#[test]
fn builder_file_name_is_honoured() {
    let dir = tempfile::tempdir().unwrap();
    let path = specgen::Builder::new(spec_path())
        .file_name("bindings.rs")
        .cargo_directives(false)
        .generate_to(dir.path())
        .unwrap();
    assert_eq!(path, dir.path().join("bindings.rs"));
    assert!(path.is_file());
    assert!(dir.path().join("bindings/src/models.rs").is_file());
    assert!(!dir.path().join("api.rs").exists());
    assert!(!dir.path().join("api").exists());
}

/// A second generation replaces the modules as a whole: a side no longer asked for leaves no
/// file behind.
#[test]
fn builder_replaces_the_modules_of_an_earlier_generation() {
    let dir = tempfile::tempdir().unwrap();
    specgen::Builder::new(spec_path())
        .server(true)
        .cargo_directives(false)
        .generate_to(dir.path())
        .unwrap();
    assert!(dir.path().join("api/src/server.rs").is_file());
    specgen::Builder::new(spec_path())
        .cargo_directives(false)
        .generate_to(dir.path())
        .unwrap();
    assert!(!dir.path().join("api/src/server.rs").exists());
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".specgen"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// Env var telling the re-run of this test binary to act as the build script.
const CHILD: &str = "BUILD_STEP_DEMO_DIRECTIVES_CHILD";

/// With `cargo_directives` on (the default, as in build.rs) the Builder prints
/// `cargo:rerun-if-changed` for the spec; with it off it prints nothing. The Builder prints to
/// the process's stdout, so this re-runs this test binary with `--nocapture` and reads it.
#[test]
fn builder_emits_rerun_if_changed_only_when_asked() {
    if let Some(dir) = std::env::var_os(CHILD) {
        let dir = PathBuf::from(dir);
        specgen::Builder::new(spec_path())
            .generate_to(dir.join("on"))
            .unwrap();
        specgen::Builder::new(spec_path())
            .cargo_directives(false)
            .generate_to(dir.join("off"))
            .unwrap();
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "builder_emits_rerun_if_changed_only_when_asked",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "child failed: {stdout}");
    // libtest prints `test NAME ... ` before the test runs, so a directive may follow it on
    // the same line.
    let directives: Vec<&str> = stdout
        .lines()
        .filter_map(|line| line.find("cargo:").map(|at| &line[at..]))
        .collect();
    assert_eq!(
        directives,
        [
            format!("cargo::rerun-if-changed={}", spec_path().display()),
            "cargo::rustc-check-cfg=cfg(feature, values(\"schemars\", \"rustls\"))".to_string(),
        ],
        "exactly the directives of the run with cargo_directives on"
    );
    assert!(dir.path().join("on/api.rs").is_file());
    assert!(dir.path().join("off/api.rs").is_file());
}
