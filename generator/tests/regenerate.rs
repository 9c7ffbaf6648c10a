//! Regenerating as a build step: `specgen generate` on an unchanged spec does nothing, a file
//! whose bytes come out the same keeps its modification time, and so cargo rebuilds only what a
//! spec edit really changed.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

const SPEC: &str = r#"openapi: 3.1.0
info: {title: Regen, version: 1.0.0}
paths:
  /things/{id}:
    get:
      operationId: getThing
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: One thing.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
components:
  schemas:
    Thing:
      type: object
      properties:
        name: {type: string}
"#;

/// A spec and the crate generated from it, in a temporary directory.
struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    fn new() -> Project {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("openapi.yaml"), SPEC).unwrap();
        Project { dir }
    }

    fn spec(&self) -> PathBuf {
        self.dir.path().join("openapi.yaml")
    }

    fn out(&self) -> PathBuf {
        self.dir.path().join("regen")
    }

    /// Runs `specgen generate`; its stderr.
    fn generate(&self) -> String {
        let output = Command::new(env!("CARGO_BIN_EXE_specgen"))
            .arg("generate")
            .arg("--spec")
            .arg(self.spec())
            .arg("--out")
            .arg(self.out())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(output.status.success(), "{stderr}");
        stderr
    }

    /// Every file of the crate with its modification time.
    fn times(&self) -> BTreeMap<PathBuf, SystemTime> {
        common::read_tree(&self.out())
            .into_keys()
            .map(|path| {
                let time = std::fs::metadata(self.out().join(&path))
                    .unwrap()
                    .modified()
                    .unwrap();
                (path, time)
            })
            .collect()
    }

    /// Sets every file's modification time an hour back, so a rewrite cannot hide in the
    /// file system's clock grain.
    fn age(&self) {
        let past = SystemTime::now() - std::time::Duration::from_secs(3600);
        for path in common::read_tree(&self.out()).into_keys() {
            std::fs::File::options()
                .write(true)
                .open(self.out().join(path))
                .unwrap()
                .set_modified(past)
                .unwrap();
        }
    }

    fn edit_spec(&self, from: &str, to: &str) {
        let text = std::fs::read_to_string(self.spec()).unwrap();
        assert!(text.contains(from));
        std::fs::write(self.spec(), text.replacen(from, to, 1)).unwrap();
    }
}

/// The files whose modification time changed between two listings.
fn touched(
    before: &BTreeMap<PathBuf, SystemTime>,
    after: &BTreeMap<PathBuf, SystemTime>,
) -> Vec<String> {
    after
        .iter()
        .filter(|(path, time)| before.get(*path) != Some(time))
        .map(|(path, _)| path.to_string_lossy().replace('\\', "/"))
        .collect()
}

#[test]
fn an_unchanged_spec_is_not_generated_again() {
    let project = Project::new();
    project.generate();
    project.age();
    let before = project.times();
    let stderr = project.generate();
    assert!(stderr.contains("is up to date"), "{stderr}");
    assert_eq!(touched(&before, &project.times()), Vec::<String>::new());
}

#[test]
fn an_edit_that_changes_no_output_touches_no_file() {
    let project = Project::new();
    project.generate();
    project.age();
    let before = project.times();
    project.edit_spec("components:", "# reordered nothing\ncomponents:");
    let stderr = project.generate();
    // Only the local fingerprint records the new input.
    assert!(stderr.contains("1 written, 13 unchanged"), "{stderr}");
    assert_eq!(
        touched(&before, &project.times()),
        [specgen::fingerprint::FILE]
    );
}

#[test]
fn an_edit_rewrites_only_the_files_it_changes() {
    let project = Project::new();
    project.generate();
    project.age();
    let before = project.times();
    project.edit_spec(
        "name: {type: string}",
        "name: {type: string, description: The name.}",
    );
    project.generate();
    let changed = touched(&before, &project.times());
    assert!(
        changed.contains(&"src/models.rs".to_string()),
        "{changed:?}"
    );
    assert!(!changed.contains(&"Cargo.toml".to_string()), "{changed:?}");
    assert!(
        !changed.contains(&"src/client.rs".to_string()),
        "{changed:?}"
    );
    assert!(!changed.contains(&"src/lib.rs".to_string()), "{changed:?}");
}

#[test]
fn a_generated_file_edited_by_hand_is_put_back() {
    let project = Project::new();
    project.generate();
    let models = project.out().join("src/models.rs");
    let original = std::fs::read_to_string(&models).unwrap();
    std::fs::write(&models, "// edited\n").unwrap();
    let stderr = project.generate();
    assert!(stderr.contains("1 written"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&models).unwrap(), original);
}

/// `cargo build` of the generated crate; the packages it did not find fresh.
fn rebuilt(crate_dir: &Path, target: &Path) -> Vec<String> {
    let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--offline", "--message-format=json"])
        .current_dir(crate_dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["reason"] == "compiler-artifact" && message["fresh"] == false)
        .filter_map(|message| message["target"]["name"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn cargo_rebuilds_nothing_after_an_edit_that_changes_no_output() {
    let project = Project::new();
    project.generate();
    // Built on its own (the temporary directory is in no workspace), with this repository's
    // lock file, offline; regenerating leaves cargo's own files alone.
    std::fs::copy(
        common::workspace_dir().join("Cargo.lock"),
        project.out().join("Cargo.lock"),
    )
    .unwrap();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")))
        .join("specgen-regenerate");
    assert!(rebuilt(&project.out(), &target).contains(&"regen".to_string()));
    project.edit_spec("components:", "# a comment\ncomponents:");
    project.generate();
    assert!(project.out().join("Cargo.lock").exists());
    assert_eq!(rebuilt(&project.out(), &target), Vec::<String>::new());
    // A change to one schema rebuilds the crate, and only the crate.
    project.edit_spec(
        "name: {type: string}",
        "name: {type: string, description: The name.}",
    );
    project.generate();
    assert_eq!(rebuilt(&project.out(), &target), ["regen"]);
}
