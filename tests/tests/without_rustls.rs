//! The generated crate built without its `rustls` feature, as a user who turns on only
//! `client` and `webhooks` gets it: an `https://` URL is refused up front with a message
//! naming the feature, instead of reqwest speaking plain HTTP to a TLS port and failing,
//! retries and all, with an opaque "error sending request".
//!
//! The workspace's tests run with every feature (`cargo test --workspace --all-features`),
//! which turns `rustls` on for every user of the crate, so this test builds a small program
//! on the committed `generated/` in a Cargo workspace of its own (offline, with this
//! workspace's `Cargo.lock`) and runs it. Its build goes to `without-rustls` under the target
//! directory (`CARGO_TARGET_DIR` if set and absolute, else the one these tests were built
//! into), so later runs only rebuild the generated crate and the program.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")))
        .join("without-rustls")
}

/// The program: one line per observation, `what: outcome`.
const MAIN_RS: &str = r#"
use std::time::Duration;

use orchestration_api::client::{Client, ClientError};
use orchestration_api::credentials::Credentials;
use orchestration_api::webhooks::{Delivery, DeliveryPolicy, GaveUp, Sender};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    // Port 9 (discard) of loopback: nothing answers, so no attempt can succeed.
    for url in ["https://127.0.0.1:9/v1", "HTTPS://127.0.0.1:9/v1", "http://127.0.0.1:9/v1"] {
        match Client::new(url, Credentials::new("pk", "sk")) {
            Ok(_) => println!("client {url}: built"),
            Err(ClientError::InvalidRequest(reason)) => {
                println!("client {url}: invalid request: {reason}")
            }
            Err(other) => println!("client {url}: other error: {other}"),
        }
    }
    let sender = Sender::new(DeliveryPolicy {
        max_attempts: 3,
        base_delay: Duration::from_millis(1),
        max_delay: Duration::from_millis(1),
        timeout: Duration::from_secs(5),
    });
    let payload = Default::default();
    match sender.incoming_transfer("https://127.0.0.1:9", &payload).await {
        Delivery::GaveUp { attempts, reason: GaveUp::Invalid(reason) } => {
            println!("sender: invalid after {attempts} attempts: {reason}")
        }
        other => println!("sender: {other:?}"),
    }
}
"#;

#[test]
fn https_without_the_rustls_feature_is_refused_naming_the_feature() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let root = dir.path();
    let generated = workspace_dir().join("generated");
    let manifest = format!(
        "[package]\nname = \"without-rustls\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
         publish = false\n\n[dependencies]\n\
         orchestration-api = {{ path = {:?}, features = [\"client\", \"webhooks\"] }}\n\
         tokio = {{ version = \"1\", features = [\"macros\", \"rt\"] }}\n\n[workspace]\n",
        generated
            .canonicalize()
            .expect("generated/")
            .display()
            .to_string(),
    );
    std::fs::write(root.join("Cargo.toml"), manifest).expect("Cargo.toml");
    std::fs::create_dir(root.join("src")).expect("src/");
    std::fs::write(root.join("src").join("main.rs"), MAIN_RS).expect("main.rs");
    std::fs::copy(workspace_dir().join("Cargo.lock"), root.join("Cargo.lock")).expect("Cargo.lock");

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["run", "--quiet", "--offline"])
        .current_dir(root)
        .env("CARGO_TARGET_DIR", target_dir())
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .expect("running cargo");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the program did not build or run:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let line = |prefix: &str| -> &str {
        stdout
            .lines()
            .find(|line| line.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line `{prefix}…` in:\n{stdout}"))
    };

    for url in ["https://127.0.0.1:9/v1", "HTTPS://127.0.0.1:9/v1"] {
        let client = line(&format!("client {url}:"));
        assert!(
            client.contains("invalid request:")
                && client.contains("`rustls` feature of the orchestration-api crate"),
            "an https:// client must fail at construction, naming the feature: {client}"
        );
    }
    assert_eq!(
        line("client http://"),
        "client http://127.0.0.1:9/v1: built",
        "plain HTTP needs no feature"
    );
    let sender = line("sender:");
    assert!(
        sender.starts_with("sender: invalid after 0 attempts:")
            && sender.contains("`rustls` feature of the orchestration-api crate"),
        "a delivery to https:// must be given up at once, naming the feature: {sender}"
    );
}
