//! The same input always gives the same bytes: twice in one process, in two runs of the binary,
//! from YAML and from the same document rendered as JSON, and from the library and the binary
//! with the same options.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{CORPUS, FIXTURES, Outcome};
use serde_json::Value;
use specgen::{GeneratedFile, Options};

fn as_tree(files: &[GeneratedFile]) -> BTreeMap<PathBuf, Vec<u8>> {
    files
        .iter()
        .map(|f| (f.path.clone(), f.contents.clone().into_bytes()))
        .collect()
}

/// Panics naming the first file that differs, rather than dumping two whole crates.
fn assert_same(left: &BTreeMap<PathBuf, Vec<u8>>, right: &BTreeMap<PathBuf, Vec<u8>>, what: &str) {
    let left_paths: Vec<_> = left.keys().collect();
    let right_paths: Vec<_> = right.keys().collect();
    assert_eq!(left_paths, right_paths, "{what}: different files");
    for (path, bytes) in left {
        assert!(
            *bytes == right[path],
            "{what}: {} differs:\n{}",
            path.display(),
            first_difference(bytes, &right[path])
        );
    }
}

fn first_difference(left: &[u8], right: &[u8]) -> String {
    let left = String::from_utf8_lossy(left);
    let right = String::from_utf8_lossy(right);
    for (index, (a, b)) in left.lines().zip(right.lines()).enumerate() {
        if a != b {
            return format!("line {}:\n  {a}\n  {b}", index + 1);
        }
    }
    format!(
        "one is a prefix of the other ({} and {} lines)",
        left.lines().count(),
        right.lines().count()
    )
}

#[test]
fn the_spec_generates_the_same_bytes_twice() {
    let options = Options::default();
    let first = common::generate(&common::spec_path(), &options);
    let second = common::generate(&common::spec_path(), &options);
    assert_same(&as_tree(&first), &as_tree(&second), "spec/openapi.yaml");
}

#[test]
fn two_runs_of_the_binary_write_what_the_library_generates() {
    let dir = tempfile::tempdir().unwrap();
    let library = as_tree(&common::generate(&common::spec_path(), &Options::default()));
    for run in ["first", "second"] {
        let out = dir.path().join(run);
        let output = Command::new(env!("CARGO_BIN_EXE_specgen"))
            .arg("generate")
            .arg("--spec")
            .arg(common::spec_path())
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert_same(
            &library,
            &common::read_tree(&out),
            &format!("{run} run of the binary"),
        );
    }
}

#[test]
fn type_overrides_on_the_command_line_match_the_library() {
    let fixture = FIXTURES
        .iter()
        .find(|f| !f.type_overrides.is_empty())
        .expect("a fixture with type overrides");
    let library = as_tree(&common::generate(&fixture.path(), &fixture.options()));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut command = Command::new(env!("CARGO_BIN_EXE_specgen"));
    command
        .arg("generate")
        .arg("--spec")
        .arg(fixture.path())
        .arg("--out")
        .arg(&out)
        .arg("--crate-name")
        .arg(fixture.crate_name());
    for entry in fixture.type_overrides {
        command.arg("--type-override").arg(entry);
    }
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_same(&library, &common::read_tree(&out), fixture.file);
}

/// A YAML value as JSON: mapping keys become strings, tags are dropped.
fn yaml_to_json(value: serde_norway::Value) -> Value {
    use serde_norway::Value as Yaml;
    match value {
        Yaml::Null => Value::Null,
        Yaml::Bool(b) => Value::Bool(b),
        Yaml::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::from(i)
            } else if let Some(u) = n.as_u64() {
                Value::from(u)
            } else {
                Value::from(n.as_f64().expect("a YAML number"))
            }
        }
        Yaml::String(s) => Value::String(s),
        Yaml::Sequence(items) => Value::Array(items.into_iter().map(yaml_to_json).collect()),
        Yaml::Mapping(map) => Value::Object(
            map.into_iter()
                .map(|(key, value)| {
                    let key = match key {
                        Yaml::String(s) => s,
                        Yaml::Number(n) => n.to_string(),
                        Yaml::Bool(b) => b.to_string(),
                        other => panic!("unexpected mapping key {other:?}"),
                    };
                    (key, yaml_to_json(value))
                })
                .collect(),
        ),
        Yaml::Tagged(tagged) => yaml_to_json(tagged.value),
    }
}

/// Generates `path` and its JSON rendering (written beside in a temporary directory, same
/// file stem) and compares.
fn assert_json_rendering_generates_the_same(path: &Path, options: &Options) {
    let text = std::fs::read_to_string(path).unwrap();
    let yaml: serde_norway::Value = serde_norway::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not YAML: {e}", path.display()));
    let json = serde_json::to_string_pretty(&yaml_to_json(yaml)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let fixtures = common::fixtures_dir();
    if path.starts_with(&fixtures) && path.parent() != Some(fixtures.as_path()) {
        // A fixture of several files (its own directory): the rendering needs the files the
        // document refers to beside it.
        for (relative, bytes) in common::read_tree(path.parent().unwrap()) {
            let copy = dir.path().join(relative);
            std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
            std::fs::write(copy, bytes).unwrap();
        }
    }
    let stem = path.file_stem().unwrap().to_string_lossy();
    let json_path = dir.path().join(format!("{stem}.json"));
    std::fs::write(&json_path, json).unwrap();
    let from_yaml = common::generate(path, options);
    let from_json = common::generate(&json_path, options);
    assert_same(
        &as_tree(&from_yaml),
        &as_tree(&from_json),
        &format!("{} as YAML and as JSON", path.display()),
    );
}

#[test]
fn yaml_and_json_renderings_generate_the_same_crate() {
    assert_json_rendering_generates_the_same(&common::spec_path(), &Options::default());
    for (file, outcome) in CORPUS {
        if *outcome == Outcome::Generates {
            assert_json_rendering_generates_the_same(
                &common::corpus_dir().join(file),
                &Options::default(),
            );
        }
    }
    for fixture in FIXTURES {
        assert_json_rendering_generates_the_same(&fixture.path(), &fixture.options());
    }
}
