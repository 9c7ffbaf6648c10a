//! What the integration tests share: where the documents are, the fixture and corpus tables,
//! and generating a crate in memory.
//!
//! Each test file includes this module and uses part of it.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use specgen::{GeneratedFile, Options};

/// `generator/`.
pub fn package_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The workspace root (`generator/..`).
pub fn workspace_dir() -> PathBuf {
    package_dir().join("..")
}

/// Where the tests that compile generated crates build them: `specgen-compile` under
/// `CARGO_TARGET_DIR` (when absolute) or under the target directory of these tests, so their
/// dependencies are compiled once and shared.
pub fn compile_target_dir() -> PathBuf {
    let base = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")));
    base.join("specgen-compile")
}

/// The interface document, `spec/openapi.yaml`.
pub fn spec_path() -> PathBuf {
    workspace_dir().join("spec").join("openapi.yaml")
}

/// `shared/corpus/`, beside the workspace.
pub fn corpus_dir() -> PathBuf {
    workspace_dir().join("..").join("shared").join("corpus")
}

/// `generator/tests/fixtures/`.
pub fn fixtures_dir() -> PathBuf {
    package_dir().join("tests").join("fixtures")
}

/// What generating a corpus document must do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// `generate_crate` succeeds (and the crate must compile).
    Generates,
    /// `generate_crate` (or loading) fails with exactly this `specgen::Error` text.
    Fails(&'static str),
}

/// Every document of `shared/corpus/` and what specgen does with it. The README states the
/// same, document by document; a new corpus document must be added here.
pub const CORPUS: &[(&str, Outcome)] = &[
    ("oas30-api-with-examples.yaml", Outcome::Generates),
    ("oas30-callback-example.yaml", Outcome::Generates),
    ("oas30-link-example.yaml", Outcome::Generates),
    ("oas30-petstore-expanded.yaml", Outcome::Generates),
    ("oas30-petstore.yaml", Outcome::Generates),
    ("oas30-uspto.yaml", Outcome::Generates),
    ("oas31-mega.yaml", Outcome::Generates),
    ("oas31-webhook-example.yaml", Outcome::Generates),
];

/// The real vendors' specs in `shared/corpus/real/`. CI generates each (the compile test
/// does not build them: a megabyte spec takes minutes); `scripts/sweep-corpus.sh` builds them
/// with every feature and runs their round trips.
pub const REAL_CORPUS: &[&str] = &[
    "box-openapi.json",
    "twilio_api_v2010.yaml",
    "twilio_messaging_v1.yaml",
    "twilio_verify_v2.yaml",
];

/// `shared/corpus/real/`.
pub fn real_corpus_dir() -> PathBuf {
    corpus_dir().join("real")
}

/// How a fixture's generated crate is known to fare when compiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builds {
    /// Compiles; part of the compile test's workspace.
    Yes,
    /// Does not compile because of the specgen bug described; compiled only by the ignored
    /// test that tracks it.
    /// Kept so that the next generator bug found by a fixture can be tracked here.
    #[allow(dead_code)]
    KnownBug(&'static str),
}

/// A document under `tests/fixtures/`, with the options it is generated with.
#[derive(Debug, Clone, Copy)]
pub struct Fixture {
    /// File name under `tests/fixtures/`.
    pub file: &'static str,
    /// `--type-override` entries, as `KEY=TYPE`.
    pub type_overrides: &'static [&'static str],
    /// Whether the generated crate compiles.
    pub builds: Builds,
}

const fn fixture(file: &'static str) -> Fixture {
    Fixture {
        file,
        type_overrides: &[],
        builds: Builds::Yes,
    }
}

/// Every fixture; `tests/fixtures/` holds exactly these.
pub const FIXTURES: &[Fixture] = &[
    fixture("all-of-shapes.yaml"),
    fixture("callback-without-payload.yaml"),
    fixture("callbacks.yaml"),
    fixture("default-only-errors.yaml"),
    fixture("duplicate-operation-ids.yaml"),
    fixture("enums.yaml"),
    fixture("error-items.yaml"),
    fixture("formats.yaml"),
    fixture("idempotency-header.yaml"),
    fixture("inheritance.yaml"),
    fixture("inline-naming.yaml"),
    fixture("json-media-types.yaml"),
    fixture("json-schema-2020-12.yaml"),
    fixture("large-enum.yaml"),
    fixture("maps-arrays.yaml"),
    fixture("multi-file/openapi.yaml"),
    fixture("name-collisions.yaml"),
    fixture("names.yaml"),
    fixture("nullable-30.yaml"),
    fixture("nullable-31.yaml"),
    Fixture {
        file: "overrides.yaml",
        type_overrides: &["Money=::std::boxed::Box<str>", "Account.port=u16"],
        builds: Builds::Yes,
    },
    Fixture {
        file: "prelude-shadowing.yaml",
        type_overrides: &[],
        builds: Builds::Yes,
    },
    fixture("problem-members.yaml"),
    fixture("query-objects.yaml"),
    fixture("recursion.yaml"),
    Fixture {
        file: "recursive-unions.yaml",
        type_overrides: &[],
        builds: Builds::Yes,
    },
    fixture("routes.yaml"),
    fixture("swagger-2.yaml"),
    fixture("unions-undiscriminated.yaml"),
    fixture("unions.yaml"),
];

impl Fixture {
    /// Path of the document.
    pub fn path(&self) -> PathBuf {
        fixtures_dir().join(self.file)
    }

    /// File name without `.yaml`; for a document of several files, its directory.
    pub fn stem(&self) -> &'static str {
        match self.file.split_once('/') {
            Some((dir, _)) => dir,
            None => self.file.trim_end_matches(".yaml"),
        }
    }

    /// The crate name, snapshot name and directory used for this fixture.
    pub fn crate_name(&self) -> String {
        format!("fixture-{}", self.stem())
    }

    /// The type overrides as a map.
    pub fn overrides(&self) -> BTreeMap<String, String> {
        self.type_overrides
            .iter()
            .map(|entry| {
                let (key, ty) = entry.split_once('=').expect("KEY=TYPE");
                (key.to_string(), ty.to_string())
            })
            .collect()
    }

    /// Generation options: the fixture's crate name and overrides.
    pub fn options(&self) -> Options {
        options(Some(self.crate_name()), self.overrides())
    }
}

/// The crate name, snapshot name and directory used for a corpus document.
pub fn corpus_crate_name(file: &str) -> String {
    let stem = file.trim_end_matches(".yaml").trim_end_matches(".json");
    format!("corpus-{}", stem.replace('_', "-"))
}

/// The crate name, snapshot name and directory used for the spec.
pub const SPEC_CRATE_NAME: &str = "spec-openapi";

/// Options with a crate name and type overrides, everything else as default.
pub fn options(crate_name: Option<String>, type_overrides: BTreeMap<String, String>) -> Options {
    Options {
        crate_name,
        type_overrides,
        ..Options::default()
    }
}

/// Loads and generates a document, panicking with the error text on failure.
pub fn generate(path: &Path, options: &Options) -> Vec<GeneratedFile> {
    try_generate(path, options)
        .unwrap_or_else(|error| panic!("generating {}: {error}", path.display()))
}

/// Loads and generates a document.
pub fn try_generate(path: &Path, options: &Options) -> specgen::Result<Vec<GeneratedFile>> {
    let doc = specgen::load::load_file(path)?;
    specgen::generate_crate(&doc, options)
}

/// The contents of one generated file.
pub fn file<'a>(files: &'a [GeneratedFile], path: &str) -> &'a str {
    files
        .iter()
        .find(|f| f.path == Path::new(path))
        .map(|f| f.contents.as_str())
        .unwrap_or_else(|| {
            let paths: Vec<_> = files.iter().map(|f| f.path.display().to_string()).collect();
            panic!("no generated file {path}; generated: {paths:?}")
        })
}

/// The fixture documents: `*.yaml` in `tests/fixtures/`, and `<dir>/openapi.yaml` for each
/// document of several files, sorted.
pub fn fixture_documents() -> Vec<String> {
    let dir = fixtures_dir();
    let mut names = yaml_files(&dir);
    for entry in std::fs::read_dir(&dir).expect("listing fixtures") {
        let path = entry.expect("directory entry").path();
        if path.join("openapi.yaml").is_file() {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            names.push(format!("{name}/openapi.yaml"));
        }
    }
    names.sort();
    names
}

/// The `*.yaml` file names in a directory, sorted.
pub fn yaml_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".yaml"))
        .collect();
    names.sort();
    names
}

/// Every file under `dir`, by path relative to it, with its bytes.
pub fn read_tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
            .map(|entry| entry.expect("directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let bytes = std::fs::read(&path)
                    .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
                out.insert(path.strip_prefix(root).unwrap().to_path_buf(), bytes);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The JSON Schemas of a generated contract, each as the readers compile it, labelled by path:
/// every file under `schemas/` but the manifest, and each parameter schema the manifest holds
/// (bundled on its own: its `$ref`s point into its own `$defs`).
pub fn contract_schemas(files: &[GeneratedFile]) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for file in files {
        let path = file.path.to_string_lossy().replace('\\', "/");
        if !path.starts_with("schemas/") || !path.ends_with(".json") {
            continue;
        }
        let value: Value = serde_json::from_str(&file.contents)
            .unwrap_or_else(|e| panic!("{path} is not JSON: {e}"));
        if path == "schemas/manifest.json" {
            for group in ["operations", "webhooks"] {
                for entry in value[group].as_array().into_iter().flatten() {
                    for parameter in entry["parameters"].as_array().into_iter().flatten() {
                        let label = format!(
                            "{path} {} parameter {}",
                            entry["operationId"].as_str().unwrap_or("?"),
                            parameter["name"].as_str().unwrap_or("?")
                        );
                        out.push((label, parameter["schema"].clone()));
                    }
                }
            }
        } else {
            out.push((path, value));
        }
    }
    out
}

/// Every `$ref` string in a JSON value.
pub fn collect_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                match (key.as_str(), inner) {
                    ("$ref", Value::String(reference)) => out.push(reference.clone()),
                    _ => collect_refs(inner, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_refs(item, out)),
        _ => {}
    }
}

/// Characters RFC 3986 allows in a fragment, besides percent-escapes.
fn is_fragment_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@/?".contains(c)
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Why `reference` does not resolve inside `document`, if it does not. Lenient about
/// characters a URI would need escaped (see [`uri_fragment_problem`]).
pub fn ref_problem(document: &Value, reference: &str) -> Option<String> {
    let Some(fragment) = reference.strip_prefix('#') else {
        return Some("is not a fragment of this file".into());
    };
    let Some(pointer) = percent_decode(fragment) else {
        return Some("has a bad percent-escape".into());
    };
    match document.pointer(&pointer) {
        Some(_) => None,
        None => Some("does not resolve in this file".into()),
    }
}

/// Why `reference` is not a valid URI fragment (RFC 3986), if it is not.
pub fn uri_fragment_problem(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    let bad = fragment
        .chars()
        .find(|c| *c != '%' && !is_fragment_char(*c))?;
    Some(format!(
        "is not a valid URI fragment ({bad:?} must be percent-encoded)"
    ))
}

/// Applies a unified diff of one file to `text`; every context and removed line must match.
pub fn apply_patch(text: &str, patch: &str) -> Result<String, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<String> = Vec::new();
    let mut at = 0;
    let mut patch_lines = patch.lines().peekable();
    while let Some(line) = patch_lines.next() {
        let Some(header) = line.strip_prefix("@@ -") else {
            continue;
        };
        let start: usize = header
            .split([',', ' '])
            .next()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("bad hunk header: {line}"))?;
        let start = start.saturating_sub(1);
        if start < at {
            return Err(format!("hunks out of order at {line}"));
        }
        out.extend(lines[at..start].iter().map(|l| l.to_string()));
        at = start;
        while let Some(next) = patch_lines.peek() {
            if next.starts_with("@@") {
                break;
            }
            let next = patch_lines.next().unwrap_or_default();
            match next.split_at(next.len().min(1)) {
                (" ", rest) | ("-", rest) => {
                    if lines.get(at) != Some(&rest) {
                        return Err(format!("line {} is not `{rest}`", at + 1));
                    }
                    if next.starts_with(' ') {
                        out.push(rest.to_string());
                    }
                    at += 1;
                }
                ("+", rest) => out.push(rest.to_string()),
                ("\\", _) | ("", _) => {}
                _ => return Err(format!("bad patch line: {next}")),
            }
        }
    }
    out.extend(lines[at..].iter().map(|l| l.to_string()));
    let mut result = out.join("\n");
    if text.ends_with('\n') {
        result.push('\n');
    }
    Ok(result)
}
