//! The generated code compiles: a crate for the spec, every corpus document that generates and
//! every fixture goes into one temporary Cargo workspace, which is checked by a single
//! `cargo clippy` run (falling back to `cargo check` where clippy is not installed) with the
//! workspace's own `Cargo.lock`, offline. Fixtures and the spec are built with the `schemars`
//! feature, corpus crates without it, so both configurations are covered.
//!
//! The build goes to `specgen-compile` under the target directory (`CARGO_TARGET_DIR` if set
//! and absolute, else the one these tests were built into), so dependencies are compiled once
//! and later runs only check the generated crates.
//!
//! The corpus table (`CORPUS` in `tests/common/mod.rs`) says which corpus documents generate
//! and which must fail, with the exact error; the first test holds specgen to it.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

use common::{Builds, CORPUS, FIXTURES, Outcome};
use serde_json::Value;
use specgen::GeneratedFile;

#[test]
fn corpus_documents_generate_or_fail_as_tabled() {
    let listed: Vec<&str> = CORPUS.iter().map(|(file, _)| *file).collect();
    assert_eq!(
        common::yaml_files(&common::corpus_dir()),
        listed,
        "shared/corpus/ and the corpus table in tests/common/mod.rs differ"
    );
    let mut wrong = Vec::new();
    for (file, expected) in CORPUS {
        let path = common::corpus_dir().join(file);
        let options = common::options(Some(common::corpus_crate_name(file)), Default::default());
        let actual = common::try_generate(&path, &options);
        match (expected, &actual) {
            (Outcome::Generates, Ok(_)) => {}
            (Outcome::Fails(message), Err(error)) if error.to_string() == *message => {}
            (Outcome::Generates, Err(error)) => {
                wrong.push(format!("{file}: expected to generate, failed: {error}"))
            }
            (Outcome::Fails(message), Err(error)) => wrong.push(format!(
                "{file}: expected the error\n    {message}\n  got\n    {error}"
            )),
            (Outcome::Fails(message), Ok(_)) => wrong.push(format!(
                "{file}: expected to fail with {message}, generated"
            )),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every real vendor spec of the corpus generates, and the table names exactly the files there.
#[test]
fn real_corpus_documents_generate() {
    let mut present: Vec<String> = std::fs::read_dir(common::real_corpus_dir())
        .expect("shared/corpus/real")
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".yaml") || name.ends_with(".json"))
        .collect();
    present.sort();
    assert_eq!(
        present,
        common::REAL_CORPUS,
        "shared/corpus/real/ and REAL_CORPUS differ"
    );
    let failures: Vec<String> = common::REAL_CORPUS
        .iter()
        .filter_map(|file| {
            let path = common::real_corpus_dir().join(file);
            let options =
                common::options(Some(common::corpus_crate_name(file)), Default::default());
            common::try_generate(&path, &options)
                .err()
                .map(|error| format!("{file}: {error}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The generated crates of everything that should build, with the features to enable.
fn buildable_crates() -> Vec<(String, Vec<GeneratedFile>, bool)> {
    let mut crates = Vec::new();
    let name = common::SPEC_CRATE_NAME.to_string();
    let options = common::options(Some(name.clone()), Default::default());
    crates.push((name, common::generate(&common::spec_path(), &options), true));
    for (file, outcome) in CORPUS {
        if *outcome == Outcome::Generates {
            let name = common::corpus_crate_name(file);
            let options = common::options(Some(name.clone()), Default::default());
            let files = common::generate(&common::corpus_dir().join(file), &options);
            crates.push((name, files, false));
        }
    }
    for fixture in FIXTURES {
        if fixture.builds == Builds::Yes {
            let files = common::generate(&fixture.path(), &fixture.options());
            crates.push((fixture.crate_name(), files, true));
        }
    }
    crates
}

/// What one cargo run over a workspace of generated crates reported.
#[derive(Debug)]
struct Report {
    /// The command, for messages.
    command: String,
    /// Whether cargo exited successfully.
    success: bool,
    /// Error diagnostics as `file:line: message [code]`, deduplicated.
    errors: Vec<String>,
    /// Warning diagnostics (rustc's and clippy's), likewise.
    warnings: Vec<String>,
    /// cargo's own stderr, for failures that are not diagnostics (resolution, offline).
    stderr: String,
}

impl Report {
    fn describe(&self, what: &[String]) -> String {
        let mut text = format!("{}\n", self.command);
        for item in what.iter().take(30) {
            text.push_str(item);
            text.push('\n');
        }
        if what.len() > 30 {
            text.push_str(&format!("… and {} more\n", what.len() - 30));
        }
        text
    }
}

fn has_clippy(cargo: &str) -> bool {
    Command::new(cargo)
        .args(["clippy", "--version"])
        .output()
        .is_ok_and(|out| out.status.success())
}

/// Writes the crates into a fresh workspace (with the features to enable on them).
fn prepare(crates: &[(String, Vec<GeneratedFile>, bool)]) -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let root = dir.path();
    let mut members = Vec::new();
    let mut features = Vec::new();
    for (name, files, schemars) in crates {
        specgen::output::write_crate(&root.join(name), files)
            .unwrap_or_else(|e| panic!("writing {name}: {e}"));
        members.push(format!("{name:?}"));
        // Every crate is built with its server, client and webhook sides; those flagged also
        // with schemars, so both configurations of the models are covered.
        for side in ["server", "client", "webhooks"] {
            features.push(format!("{name}/{side}"));
        }
        if *schemars {
            features.push(format!("{name}/schemars"));
        }
    }
    // The routes fixture's router is exercised by a hand-written crate beside it.
    if crates.iter().any(|(name, _, _)| name == "fixture-routes") {
        let check = common::package_dir().join("tests/router-check");
        let dir = root.join("router-check");
        std::fs::create_dir_all(dir.join("src")).expect("router-check directory");
        std::fs::copy(check.join("Cargo.toml.in"), dir.join("Cargo.toml")).expect("Cargo.toml");
        std::fs::copy(check.join("src/lib.rs"), dir.join("src/lib.rs")).expect("lib.rs");
        members.push("\"router-check\"".to_string());
    }
    let manifest = format!(
        "[workspace]\nresolver = \"3\"\nmembers = [{}]\n",
        members.join(", ")
    );
    std::fs::write(root.join("Cargo.toml"), manifest).expect("workspace Cargo.toml");
    std::fs::copy(
        common::workspace_dir().join("Cargo.lock"),
        root.join("Cargo.lock"),
    )
    .expect("copying Cargo.lock");
    (dir, features)
}

/// Writes the crates into a fresh workspace and runs cargo over it once.
fn build(crates: &[(String, Vec<GeneratedFile>, bool)]) -> Report {
    let (dir, features) = prepare(crates);
    let root = dir.path();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let subcommand = if has_clippy(&cargo) {
        "clippy"
    } else {
        "check"
    };
    let mut args = vec![
        subcommand.to_string(),
        "--offline".into(),
        "--workspace".into(),
        "--all-targets".into(),
        "--message-format=json".into(),
    ];
    if !features.is_empty() {
        args.push("--features".into());
        args.push(features.join(","));
    }
    let output = Command::new(&cargo)
        .args(&args)
        .current_dir(root)
        .env("CARGO_TARGET_DIR", common::compile_target_dir())
        // Warnings are reported by their own test; a global `-D warnings` must not turn them
        // into compile failures here.
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .expect("running cargo");

    let mut errors = BTreeSet::new();
    let mut warnings = BTreeSet::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if message["reason"] != "compiler-message" {
            continue;
        }
        let diagnostic = &message["message"];
        // Summaries ("aborting due to …", "N warnings emitted") have no spans.
        let Some(span) = diagnostic["spans"]
            .as_array()
            .and_then(|spans| spans.first())
        else {
            continue;
        };
        let rendered = format!(
            "{}:{}: {}{}",
            span["file_name"].as_str().unwrap_or("?"),
            span["line_start"],
            diagnostic["message"].as_str().unwrap_or_default(),
            diagnostic["code"]["code"]
                .as_str()
                .map(|code| format!(" [{code}]"))
                .unwrap_or_default(),
        );
        match diagnostic["level"].as_str() {
            Some("error") | Some("error: internal compiler error") => {
                errors.insert(rendered);
            }
            Some("warning") => {
                warnings.insert(rendered);
            }
            _ => {}
        }
    }
    Report {
        command: format!(
            "cargo {} (in a workspace of {} generated crates)",
            args.join(" "),
            crates.len()
        ),
        success: output.status.success(),
        errors: errors.into_iter().collect(),
        warnings: warnings.into_iter().collect(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Every example that is valid against its schema round-trips through its generated type:
/// the generated crates' own `example_tests` all pass, for the spec, every corpus document
/// and every fixture.
#[test]
fn schema_valid_examples_round_trip() {
    // After the lint build, so the shared target directory is warm.
    assert_compiles(main_build());
    let crates = buildable_crates();
    let tested: usize = crates
        .iter()
        .flat_map(|(_, files, _)| files)
        .filter(|file| file.path.ends_with("src/example_tests.rs"))
        .map(|file| file.contents.matches("round_trip::<").count())
        .sum();
    assert!(
        tested > 100,
        "only {tested} examples were generated as round trips"
    );
    // The round trips need only the models: no server, client or webhook side is built, which
    // keeps this second build small.
    let output = cargo_test(&crates);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "example round trips failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let passed: usize = stdout
        .lines()
        .filter_map(|line| line.strip_prefix("specgen examples: "))
        .filter_map(|rest| rest.split(' ').next()?.parse::<usize>().ok())
        .sum();
    assert_eq!(passed, tested, "every generated example ran and passed");
}

/// Proof that the variant check can fail: the crate of the undiscriminated-unions fixture,
/// with its unions choosing the first alternative that deserializes and keeps the value (what
/// serde's `untagged` does, and what specgen did before), fails its example test on the
/// examples that round-trip *equal* through the wrong alternative.
#[test]
fn first_success_unions_fail_the_variant_check() {
    assert_compiles(main_build());
    let fixture = FIXTURES
        .iter()
        .find(|fixture| fixture.file == "unions-undiscriminated.yaml")
        .expect("the fixture is in the table");
    let name = "mutant-first-success".to_string();
    let options = common::options(Some(name.clone()), fixture.overrides());
    let mut files = common::generate(&fixture.path(), &options);
    let models = files
        .iter_mut()
        .find(|file| file.path.ends_with("src/models.rs"))
        .expect("models.rs");
    let ranked = "union::rank(&value, ALTERNATIVES)";
    assert!(models.contents.contains(ranked));
    models.contents = models
        .contents
        .replace(ranked, "(0..ALTERNATIVES.len()).collect::<Vec<_>>()");
    let output = cargo_test(&[(name, files, false)]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!output.status.success(), "the mutant passed:\n{stdout}");
    for expected in [
        "#/components/schemas/BankAccount/examples/0: a `BankAccount` value landed in \
         `HuLocalAccountIdentification`, whose schema it does not satisfy",
        "examples/card/value: a `PaymentRequestPaymentMethod` value landed in `IdealDetails`, \
         whose schema it does not satisfy",
        "#/components/schemas/Closed/examples/0: a `Closed` value landed in `Variant0`",
    ] {
        assert!(stdout.contains(expected), "no `{expected}` in:\n{stdout}");
    }
}

/// `cargo test --lib` over a workspace of the crates, with what passing tests print.
fn cargo_test(crates: &[(String, Vec<GeneratedFile>, bool)]) -> std::process::Output {
    let (dir, _features) = prepare(crates);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    Command::new(&cargo)
        .args([
            "test",
            "--offline",
            "--workspace",
            "--lib",
            "--",
            "--show-output",
        ])
        .current_dir(dir.path())
        .env("CARGO_TARGET_DIR", common::compile_target_dir())
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .expect("running cargo test")
}

/// The one cargo run over everything that should build, shared by the tests below.
fn main_build() -> &'static Report {
    static REPORT: OnceLock<Report> = OnceLock::new();
    REPORT.get_or_init(|| build(&buildable_crates()))
}

fn assert_compiles(report: &Report) {
    assert!(
        report.errors.is_empty(),
        "generated code does not compile:\n{}",
        report.describe(&report.errors)
    );
    let hint = if report.stderr.contains("offline") {
        "\nThe generated crates' dependencies are not all downloaded: run `cargo fetch` in the \
         workspace (or build it once with `--all-features`) and try again."
    } else {
        ""
    };
    assert!(
        report.success,
        "{} failed:\n{}{hint}",
        report.command, report.stderr
    );
}

#[test]
fn generated_crates_compile() {
    assert_compiles(main_build());
}

#[test]
fn generated_crates_have_no_warnings() {
    let report = main_build();
    assert_compiles(report);
    assert!(
        report.warnings.is_empty(),
        "generated code has warnings:\n{}",
        report.describe(&report.warnings)
    );
}

/// The fixtures that show a known bug (none at the moment), built on their own so that they
/// do not hide other failures.
#[test]
fn known_bug_fixtures_compile() {
    let crates: Vec<_> = FIXTURES
        .iter()
        .filter(|fixture| matches!(fixture.builds, Builds::KnownBug(_)))
        .map(|fixture| {
            let files = common::generate(&fixture.path(), &fixture.options());
            (fixture.crate_name(), files, true)
        })
        .collect();
    if crates.is_empty() {
        return;
    }
    let report = build(&crates);
    assert_compiles(&report);
    assert!(
        report.warnings.is_empty(),
        "{}",
        report.describe(&report.warnings)
    );
}

/// Guard for the helpers above: the workspace really contains every crate it should.
#[test]
fn every_buildable_document_is_in_the_workspace() {
    let names: BTreeSet<String> = buildable_crates()
        .into_iter()
        .map(|(name, _, _)| name)
        .collect();
    assert!(names.contains(common::SPEC_CRATE_NAME));
    for (file, outcome) in CORPUS {
        assert_eq!(
            names.contains(&common::corpus_crate_name(file)),
            *outcome == Outcome::Generates,
            "{file}"
        );
    }
    for fixture in FIXTURES {
        assert_eq!(
            names.contains(&fixture.crate_name()),
            fixture.builds == Builds::Yes,
            "{}",
            fixture.file
        );
    }
    assert!(Path::new(&common::workspace_dir().join("Cargo.lock")).exists());
}

/// `--features-per-tag` on the interface's spec: every tag alone, none, and all of them build
/// clippy-clean with every side, and the example tests of each configuration pass (an example
/// of a type behind a tag is tested only with it). What a tag leaves out is really left out:
/// with only `tag-payments`, code calling a Banking Connectivity operation does not compile.
#[test]
fn per_tag_features_build_alone_and_together() {
    let name = "per-tag".to_string();
    let mut options = common::options(Some(name.clone()), Default::default());
    options.features_per_tag = true;
    let spec = common::workspace_dir().join("spec/openapi.yaml");
    let mut files = common::generate(&spec, &options);
    let cargo_toml = files
        .iter()
        .find(|file| file.path == std::path::Path::new("Cargo.toml"))
        .expect("Cargo.toml");
    assert!(
        cargo_toml.contents.contains("default = [\"all-tags\"]")
            && cargo_toml.contents.contains(
                "all-tags = [\"tag-banking-connectivity\", \"tag-payments\", \"tag-recipient-onboarding\"]"
            ),
        "{}",
        cargo_toml.contents
    );
    // A user's test that calls a Banking Connectivity operation.
    files.push(GeneratedFile::new(
        "tests/user.rs",
        "#[cfg(feature = \"client\")]\n#[allow(dead_code)]\nasync fn call(client: &per_tag::client::Client) {\n    let _ = client.get_account(&uuid::Uuid::nil()).await;\n}\n",
    ));
    // A tag whose operations use no model: its build alone re-exports an empty module.
    let bare_name = "per-tag-bare".to_string();
    let mut bare_options = common::options(Some(bare_name.clone()), Default::default());
    bare_options.features_per_tag = true;
    let bare_doc = specgen::load::load_str(
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /ping:\n    get:\n      \
         tags: [ping]\n      responses: {'204': {description: up}}\n  /things:\n    get:\n      \
         tags: [things]\n      responses:\n        '200':\n          description: ok\n          \
         content: {application/json: {schema: {type: object, properties: {a: {type: string}}}}}\n",
        "bare.yaml",
    )
    .expect("the bare document loads");
    let bare = specgen::generate_crate(&bare_doc, &bare_options).expect("generates");
    let (dir, _) = prepare(&[
        (name.clone(), files, false),
        (bare_name.clone(), bare, false),
    ]);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let lint = if has_clippy(&cargo) {
        "clippy"
    } else {
        "check"
    };
    let run_package = |package: &str, args: &[&str], features: &str, after: &[&str]| {
        Command::new(&cargo)
            .args(args)
            .args([
                "--offline",
                "-p",
                package,
                "--no-default-features",
                "--features",
                features,
            ])
            .args(after)
            .current_dir(dir.path())
            .env("CARGO_TARGET_DIR", common::compile_target_dir())
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .output()
            .expect("running cargo")
    };
    let run =
        |args: &[&str], features: &str, after: &[&str]| run_package(&name, args, features, after);
    let output = run_package(
        &bare_name,
        &[lint, "--lib"],
        "server,client,tag-ping",
        &["--", "-D", "warnings"],
    );
    assert!(
        output.status.success(),
        "{lint} of a tag without models:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Each side alone, of a document without notifications: `webhooks` alone has no sender
    // (Adyen's Checkout), and what only the sender and the client share is then unused.
    for side in ["server", "client", "webhooks"] {
        let output = run_package(
            &bare_name,
            &[lint, "--lib"],
            &format!("{side},all-tags"),
            &["--", "-D", "warnings"],
        );
        assert!(
            output.status.success(),
            "{lint} with {side} alone:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let sides = "server,client,webhooks";
    for tags in [
        "",
        ",tag-banking-connectivity",
        ",tag-payments",
        ",tag-recipient-onboarding",
        ",all-tags",
    ] {
        let features = format!("{sides}{tags}");
        let output = run(&[lint, "--lib"], &features, &["--", "-D", "warnings"][..]);
        assert!(
            output.status.success(),
            "{lint} with {features}:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let output = run(&["test", "--lib"], &features, &[]);
        assert!(
            output.status.success(),
            "the example tests with {features}:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let output = run(&["check", "--test", "user"], &features, &[]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let has_banking = tags.contains("banking") || tags.contains("all-tags");
        assert_eq!(
            output.status.success(),
            has_banking,
            "the user's test with {features}:\n{stderr}"
        );
        if !has_banking {
            assert!(
                stderr.contains("get_account"),
                "the user's call should be what fails with {features}:\n{stderr}"
            );
        }
    }
}

/// The generated crate's docs build with rustdoc's warnings denied (as CI builds docs),
/// whatever prose the document's descriptions hold: a bracket (`filter[name_eq]=…`,
/// ContentGroove), an angle-bracketed word (`Bearer <authentication-token>`, WhatsApp), a bare
/// URL, a `~~~` fence of code (rev.ai) and a Rust-looking one.
#[test]
fn generated_docs_build_with_rustdoc_warnings_denied() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let spec = dir.path().join("prose.yaml");
    std::fs::write(
        &spec,
        r#"
openapi: 3.1.0
info:
  title: Prose
  version: "1"
  description: |
    Send `Authorization: Bearer <authentication-token>`; see https://example.com/docs.
    ~~~
    curl -H "Authorization: Bearer $TOKEN" https://example.com/v1/items
    ~~~
paths:
  /items:
    get:
      operationId: listItems
      description: |
        Filter with filter[name_eq]=x or filter[attributeName_*matcher*]=y, [see here].
        ```
        let items = client.list_items().await?;
        ```
      parameters:
        - {name: filter, in: query, description: "a <b>bold</b> word and a <lonely> tag", schema: {type: string}}
      responses:
        '200':
          description: the items
          content:
            application/json:
              schema:
                type: object
                description: "Items as [name] => value, e.g. <item id=1>"
                properties:
                  name: {type: string, description: "see [Item] or [[wiki]] and <https://x.io>"}
"#,
    )
    .expect("writing the document");
    let name = "prose-docs".to_string();
    let files = common::generate(
        &spec,
        &common::options(Some(name.clone()), Default::default()),
    );
    let (workspace, _) = prepare(&[(name.clone(), files, false)]);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(&cargo)
        .args([
            "doc",
            "--offline",
            "--no-deps",
            "-p",
            &name,
            "--all-features",
        ])
        .current_dir(workspace.path())
        .env("CARGO_TARGET_DIR", common::compile_target_dir())
        .env("RUSTDOCFLAGS", "-D warnings")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .expect("running cargo doc");
    assert!(
        output.status.success(),
        "cargo doc failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
