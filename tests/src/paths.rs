//! Where things are (the workspace, the spec, `../shared`, the official schemas, the corpus)
//! and reading YAML into a [`serde_json::Value`].

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde_json::Value;

/// The workspace root: the parent of this package's directory (`tests/`).
#[must_use]
pub fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf()
}

/// `shared/`, which sits beside the workspace root (`<root>/../shared`).
#[must_use]
pub fn shared_dir() -> PathBuf {
    workspace_root().join("..").join("shared")
}

/// The directory holding the official OpenAPI 3.1 validation schemas
/// (`schema.yaml`, `schema-base.yaml`, `dialect.yaml`, `meta.yaml`).
#[must_use]
pub fn openapi_schema_dir() -> PathBuf {
    shared_dir().join("openapi-3.1")
}

/// The public example OpenAPI documents in `shared/corpus/`.
#[must_use]
pub fn corpus_dir() -> PathBuf {
    shared_dir().join("corpus")
}

/// The project's OpenAPI document, `spec/openapi.yaml`.
#[must_use]
pub fn spec_path() -> PathBuf {
    workspace_root().join("spec").join("openapi.yaml")
}

/// Reads a YAML (or JSON) file into a [`Value`].
///
/// # Errors
///
/// The file cannot be read or is not valid YAML; the error names the file.
pub fn load_yaml(path: &Path) -> anyhow::Result<Value> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    parse_yaml(&text).with_context(|| format!("parsing {} as YAML", path.display()))
}

/// Parses YAML (a superset of JSON) text into a [`Value`].
///
/// # Errors
///
/// The text is not valid YAML, or holds something JSON cannot (e.g. a non-string map key
/// that cannot be turned into one).
pub fn parse_yaml(text: &str) -> anyhow::Result<Value> {
    Ok(serde_norway::from_str(text)?)
}
