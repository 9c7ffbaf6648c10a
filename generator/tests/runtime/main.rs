//! The runtime files under `generator/runtime/`, compiled as a generated crate has them and
//! unit-tested as themselves (their `#[cfg(test)]` items, which specgen leaves out of the
//! output). This test crate stands in for a generated crate: the modules that are the same
//! for every API are the runtime files themselves; the generated ones (`contract`,
//! `credentials`) and the generated halves of `server`, `client` and `webhooks` are small
//! stand-ins for a one-operation, one-webhook API.
// The generated crate's features (`schemars`, `rustls`) are not specgen's.
#![allow(unexpected_cfgs)]
// What only the generated halves call (handlers, client methods) is not called here.
#![allow(dead_code)]

#[path = "../../runtime/support.rs"]
mod support;

#[path = "../../runtime/retry.rs"]
mod retry;

#[path = "../../runtime/validation.rs"]
mod validation;

mod client;
mod contract;
mod credentials;
mod server;
mod webhooks;

/// A loopback HTTP server for the tests of the client and the webhook sender.
mod loopback;

/// The models' `format: byte` test (union choice, `support::union::is_base64`) is a copy of
/// the contract's (`manifest::is_base64`): a model crate has no contract module to call. The
/// two must judge every text alike, or a union would choose by another reading than its check.
#[test]
fn the_models_base64_test_reads_as_the_contracts() {
    for text in [
        "aGVsbG8=",
        "aGVsbG8",
        "aGVsbA==",
        "aGVs bG8=",
        "a-_b",
        "",
        "a",
        "ab=c",
        "abc===",
        "a@b.co",
        "aGVsbG8=\n",
        "====",
    ] {
        assert_eq!(
            support::union::is_base64(text),
            validation::manifest::is_base64(text),
            "{text:?}"
        );
    }
}

/// `cargo fmt` formats the modules reached through `#[path]`, but not the files pulled in with
/// `include!` (the static halves of `server`, `client` and `webhooks`): every runtime file is
/// checked here, so none drifts from rustfmt's layout unnoticed.
#[test]
fn every_runtime_file_is_formatted_by_rustfmt() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("runtime");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("generator/runtime")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "{files:?}");
    let output = std::process::Command::new("rustfmt")
        .args(["--check", "--edition", "2024"])
        .args(&files)
        .output()
        .expect("rustfmt runs (rustup component add rustfmt)");
    assert!(
        output.status.success(),
        "rustfmt would change generator/runtime/ (run `rustfmt --edition 2024 generator/runtime/*.rs`):\n{}",
        String::from_utf8_lossy(&output.stdout)
    );
}
