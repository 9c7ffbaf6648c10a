//! Proof that `specgen diff`'s semver verdict is right: for each pair, a user crate written
//! against the crate generated from the old document (see `common/probe.rs`: it builds,
//! matches, implements and calls every public item) is compiled against the crate generated
//! from the new one. It must fail to compile exactly when the verdict is major (but for a
//! change the verdict calls silent: calls that still compile and mean something else), and it
//! must always compile against the old crate it was written for.
//!
//! Everything goes into one temporary workspace, checked by a single `cargo check
//! --keep-going` (offline, the workspace's Cargo.lock, the compile test's target directory),
//! and a crate compiled when cargo reports its library artifact.

mod common;
#[path = "common/probe.rs"]
mod probe;

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use specgen::diff::rust_api::Surface;
use specgen::diff::{self, Bump, Side};
use specgen::{GeneratedFile, Options};

/// Checks whose only major findings compile and change meaning.
const SILENT: &[&str] = &["rust-method-arguments-shifted"];

fn checks_dir() -> PathBuf {
    common::package_dir().join("tests/diff/checks")
}

/// The pairs compiled: every Rust API and structural check, and every schema check of one
/// flow of each kind (a response, a webhook payload): the crate's surface depends on the
/// schema, not on the message that carries it.
fn selected() -> Vec<String> {
    let mut names: Vec<String> = diff::checks::catalogue()
        .iter()
        .map(|check| check.id.clone())
        .filter(|id| {
            !["request-", "webhook-reply-"]
                .iter()
                .any(|prefix| id.starts_with(prefix))
                || id.starts_with("request-parameter-")
                || id.starts_with("request-body-")
                || id.starts_with("request-media-type-")
                || id == "webhook-reply-status-changed"
        })
        .collect();
    names.sort();
    names
}

struct Pair {
    name: String,
    /// The crate of the old document and the probe written against it (shared by pairs whose
    /// old documents are the same).
    old_crate: String,
    new_crate: String,
    needed: Bump,
    silent: bool,
}

fn generate(doc: &specgen::load::Document, name: &str) -> Vec<GeneratedFile> {
    let options = Options {
        crate_name: Some(name.to_string()),
        no_example_tests: true,
        ..Options::default()
    };
    specgen::generate_crate(doc, &options).unwrap_or_else(|e| panic!("generating {name}: {e}"))
}

fn write_probe(root: &Path, name: &str, package: &str, source: &str) {
    let dir = root.join(name);
    std::fs::create_dir_all(dir.join("src")).expect("probe directory");
    std::fs::write(dir.join("Cargo.toml"), probe::cargo_toml(name, package)).expect("Cargo.toml");
    std::fs::write(dir.join("src/lib.rs"), source).expect("lib.rs");
}

/// Runs `cargo check` over the workspace: the packages whose library compiled, and the errors
/// of each package that did not.
fn check(root: &Path, members: &[String]) -> (BTreeSet<String>, BTreeMap<String, Vec<String>>) {
    let quoted: Vec<String> = members.iter().map(|m| format!("{m:?}")).collect();
    std::fs::write(
        root.join("Cargo.toml"),
        format!(
            "[workspace]\nresolver = \"3\"\nmembers = [{}]\n",
            quoted.join(", ")
        ),
    )
    .expect("workspace Cargo.toml");
    std::fs::copy(
        common::workspace_dir().join("Cargo.lock"),
        root.join("Cargo.lock"),
    )
    .expect("Cargo.lock");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args([
            "check",
            "--offline",
            "--workspace",
            "--keep-going",
            "--message-format=json",
        ])
        .current_dir(root)
        .env("CARGO_TARGET_DIR", common::compile_target_dir())
        // Hundreds of small crates: incremental state would take gigabytes for nothing.
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .expect("running cargo check");
    let mut compiled = BTreeSet::new();
    let mut errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let package = |message: &Value| {
        let id = message["package_id"].as_str().unwrap_or_default();
        let path = id.split('#').next().unwrap_or_default();
        path.rsplit('/').next().unwrap_or_default().to_string()
    };
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        match message["reason"].as_str() {
            Some("compiler-artifact") if message["target"]["kind"][0] == "lib" => {
                compiled.insert(package(&message));
            }
            Some("compiler-message") if message["message"]["level"] == "error" => {
                let text = message["message"]["rendered"]
                    .as_str()
                    .unwrap_or_default()
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_string();
                errors.entry(package(&message)).or_default().push(text);
            }
            _ => {}
        }
    }
    assert!(
        !String::from_utf8_lossy(&output.stderr).contains("offline"),
        "cargo could not resolve the dependencies offline:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (compiled, errors)
}

fn digest(text: &str) -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

#[test]
fn the_semver_verdict_is_what_compiling_old_user_code_against_the_new_crate_says() {
    let workspace = tempfile::tempdir().expect("temporary directory");
    let root = workspace.path();
    let mut members = BTreeSet::new();
    let mut pairs = Vec::new();
    for name in selected() {
        let dir = checks_dir().join(&name);
        let load = |file: &str| diff::source::load(&dir.join(file).display().to_string()).unwrap();
        let (old, new) = (load("old.yaml"), load("new.yaml"));
        let report = diff::diff(&old, &new, &Options::default()).expect("diff");
        let old_text = std::fs::read_to_string(dir.join("old.yaml")).unwrap();
        let old_crate = format!("old-{}", digest(&old_text));
        if members.insert(old_crate.clone()) {
            specgen::output::write_crate(&root.join(&old_crate), &generate(&old, &old_crate))
                .expect("writing the old crate");
            let api = specgen::build_ir(&old, &Options::default()).expect("old IR");
            let surface = Surface::of(&api).expect("old surface");
            let source = probe::source(&surface);
            write_probe(root, &format!("probe-{old_crate}"), &old_crate, &source);
            members.insert(format!("probe-{old_crate}"));
            std::fs::write(root.join(format!("{old_crate}.probe.rs")), &source).unwrap();
        }
        let new_crate = format!("new-{name}");
        specgen::output::write_crate(&root.join(&new_crate), &generate(&new, &new_crate))
            .expect("writing the new crate");
        members.insert(new_crate.clone());
        let source = std::fs::read_to_string(root.join(format!("{old_crate}.probe.rs"))).unwrap();
        write_probe(root, &format!("probe-{new_crate}"), &new_crate, &source);
        members.insert(format!("probe-{new_crate}"));
        let rust: Vec<_> = report
            .findings
            .iter()
            .filter(|f| f.side == Some(Side::Rust) && f.semver == Some(Bump::Major))
            .collect();
        pairs.push(Pair {
            name,
            old_crate,
            new_crate,
            needed: report.semver.needed,
            silent: !rust.is_empty() && rust.iter().all(|f| SILENT.contains(&f.id.as_str())),
        });
    }
    let members: Vec<String> = members.into_iter().collect();
    let (compiled, errors) = check(root, &members);
    let describe = |package: &str| {
        errors
            .get(package)
            .map(|e| {
                e.iter()
                    .take(5)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("\n      ")
            })
            .unwrap_or_else(|| "(no error reported for it: a dependency failed?)".into())
    };
    let mut wrong = Vec::new();
    for member in &members {
        let is_probe_of_new = member.starts_with("probe-new-");
        if !is_probe_of_new && !compiled.contains(member) {
            wrong.push(format!(
                "{member} does not compile:\n      {}",
                describe(member)
            ));
        }
    }
    let mut majors = 0;
    for pair in &pairs {
        let probe = format!("probe-{}", pair.new_crate);
        let fails = !compiled.contains(&probe);
        let expected = pair.needed == Bump::Major && !pair.silent;
        majors += usize::from(pair.needed == Bump::Major);
        if fails != expected {
            wrong.push(format!(
                "{}: verdict {} (silent: {}), but user code written against {} {} against the new crate{}",
                pair.name,
                pair.needed.as_str(),
                pair.silent,
                pair.old_crate,
                if fails { "does not compile" } else { "compiles" },
                if fails {
                    format!(":\n      {}", describe(&probe))
                } else {
                    String::new()
                }
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} problems over {} pairs:\n{}",
        wrong.len(),
        pairs.len(),
        wrong.join("\n")
    );
    // The proof covers both verdicts.
    assert!(
        majors > 20 && majors < pairs.len() - 20,
        "{majors} of {} pairs major",
        pairs.len()
    );
}
