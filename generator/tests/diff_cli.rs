//! `specgen diff` as CI runs it: exit codes (0 nothing at or above `--fail-on`, 1 something,
//! 2 a document that cannot be read), `--side`, `--list-checks`, and `REV:PATH` read from git.

mod common;

use std::path::Path;
use std::process::{Command, Output};

fn specgen(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_specgen"))
        .arg("diff")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("running specgen")
}

fn pair(check: &str) -> (String, String) {
    let dir = common::package_dir().join("tests/diff/checks").join(check);
    (
        dir.join("old.yaml").display().to_string(),
        dir.join("new.yaml").display().to_string(),
    )
}

#[test]
fn exit_codes_follow_fail_on() {
    let here = common::package_dir();
    // An error on the clients side.
    let (old, new) = pair("request-max-length-tightened");
    assert_eq!(specgen(&here, &[&old, &new]).status.code(), Some(1));
    // Only a warning: fails at --fail-on warning, not at the default (error).
    let (old, new) = pair("response-enum-value-added");
    assert_eq!(
        specgen(&here, &[&old, &new, "--side", "clients"])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        specgen(
            &here,
            &[&old, &new, "--side", "clients", "--fail-on", "warning"]
        )
        .status
        .code(),
        Some(1)
    );
    // The Rust side of the same change: a new variant breaks exhaustive matches (warning).
    assert_eq!(
        specgen(
            &here,
            &[&old, &new, "--side", "rust", "--fail-on", "warning"]
        )
        .status
        .code(),
        Some(1)
    );
    // Nothing that breaks anything: exit 0 even at --fail-on warning.
    let (old, new) = pair("response-optional-property-added");
    let output = specgen(
        &here,
        &[
            &old,
            &new,
            "--side",
            "clients",
            "--side",
            "servers",
            "--fail-on",
            "warning",
        ],
    );
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

#[test]
fn a_bad_document_exits_2_with_its_pointer() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("bad.yaml"),
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: '#/components/responses/Nope'}\n",
    )
    .unwrap();
    let (old, _) = pair("endpoint-added");
    let output = specgen(dir.path(), &[&old, "bad.yaml"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("#/paths/~1a/get/responses/200") && stderr.contains("line 7"),
        "{stderr}"
    );
    let output = specgen(dir.path(), &[&old, "missing.yaml"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn list_checks_prints_the_catalogue() {
    let output = specgen(
        &common::package_dir(),
        &["--list-checks", "--format", "json"],
    );
    assert!(output.status.success());
    let checks: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        checks.as_array().map(Vec::len),
        Some(specgen::diff::checks::catalogue().len())
    );
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .status()
        .expect("git");
    assert!(status.success(), "git {args:?}");
}

/// CI diffs a pull request's spec against its base branch without checking the base out.
#[test]
fn a_document_is_read_from_a_git_revision() {
    let repo = tempfile::tempdir().expect("tempdir");
    let root = repo.path();
    let (old, new) = pair("request-parameter-added-required");
    std::fs::create_dir(root.join("spec")).unwrap();
    std::fs::copy(&old, root.join("spec/openapi.yaml")).unwrap();
    git(root, &["init", "-q", "-b", "main"]);
    git(root, &["add", "spec/openapi.yaml"]);
    git(root, &["commit", "-q", "-m", "base"]);
    std::fs::copy(&new, root.join("spec/openapi.yaml")).unwrap();
    let output = specgen(
        root,
        &[
            "main:spec/openapi.yaml",
            "spec/openapi.yaml",
            "--format",
            "json",
        ],
    );
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(report["old"]["source"], "main:spec/openapi.yaml");
    let ids: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["id"].as_str())
        .collect();
    assert!(ids.contains(&"request-parameter-added-required"), "{ids:?}");
    // From a subdirectory, `REV:./PATH` is relative to it, as with `git show`.
    let output = specgen(&root.join("spec"), &["main:./openapi.yaml", "openapi.yaml"]);
    assert_eq!(output.status.code(), Some(1));
    // A revision or path git does not know is a document that cannot be read.
    let output = specgen(root, &["nope:spec/openapi.yaml", "spec/openapi.yaml"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("git show"));
}
