//! Check 1: the document against the official OpenAPI 3.1 schema.

use std::path::Path;

use anyhow::{Context, anyhow, bail};
use jsonschema::{Draft, Registry};
use serde_json::{Value, json};

use crate::findings::Finding;
use crate::paths::load_yaml;
use crate::validation_errors::describe_validation_error;

/// The files of the official OpenAPI 3.1 schema set, by file name.
pub const OFFICIAL_SCHEMA_FILES: [&str; 4] = [
    "schema.yaml",
    "schema-base.yaml",
    "dialect.yaml",
    "meta.yaml",
];

/// `$id` of `schema-base.yaml`: OpenAPI 3.1 documents including Schema Object validation
/// with the OpenAPI dialect.
pub const SCHEMA_BASE_ID: &str = "https://spec.openapis.org/oas/3.1/schema-base/WORK-IN-PROGRESS";

/// The official OpenAPI 3.1 schemas, each with its `$id`.
#[derive(Debug, Clone)]
pub struct OfficialSchemas {
    /// `($id, schema)` for each file of [`OFFICIAL_SCHEMA_FILES`].
    pub resources: Vec<(String, Value)>,
}

impl OfficialSchemas {
    /// Loads [`OFFICIAL_SCHEMA_FILES`] from `dir` (normally
    /// [`openapi_schema_dir`](crate::openapi_schema_dir)).
    ///
    /// # Errors
    ///
    /// A file is missing, is not YAML, or has no string `$id`.
    pub fn load(dir: &Path) -> anyhow::Result<Self> {
        let mut resources = Vec::new();
        for name in OFFICIAL_SCHEMA_FILES {
            let path = dir.join(name);
            let schema = load_yaml(&path)?;
            let id = schema
                .get("$id")
                .and_then(Value::as_str)
                .with_context(|| format!("{} has no string `$id`", path.display()))?
                .to_string();
            resources.push((id, schema));
        }
        if !resources.iter().any(|(id, _)| id == SCHEMA_BASE_ID) {
            bail!(
                "none of {OFFICIAL_SCHEMA_FILES:?} in {} has the $id {SCHEMA_BASE_ID}",
                dir.display()
            );
        }
        Ok(Self { resources })
    }
}

/// Check: `document` validates against the official OpenAPI 3.1 schema `schema-base`
/// (document structure and every Schema Object against the OpenAPI dialect).
///
/// All four schemas are registered by their `$id`s, so nothing is fetched. Formats
/// (`uri-reference`, `email`, …) are asserted, which is stricter than the schema's
/// format-annotation default. Returns every validation error, located at its instance path.
///
/// # Errors
///
/// The schemas cannot be compiled (this is a broken setup, not a finding about `document`).
pub fn official_schema_findings(
    document: &Value,
    schemas: &OfficialSchemas,
) -> anyhow::Result<Vec<Finding>> {
    let registry = Registry::new()
        .draft(Draft::Draft202012)
        .extend(
            schemas
                .resources
                .iter()
                .map(|(id, schema)| (id.as_str(), schema)),
        )?
        .prepare()
        .context("registering the official OpenAPI 3.1 schemas")?;
    let validator = jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(true)
        .with_registry(&registry)
        .offline()
        .build(&json!({ "$ref": SCHEMA_BASE_ID }))
        .map_err(|error| anyhow!("compiling {SCHEMA_BASE_ID}: {error}"))?;
    let findings = validator
        .iter_errors(document)
        .map(|error| {
            Finding::new(
                error.instance_path().as_str(),
                describe_validation_error(&error),
            )
        })
        .collect();
    Ok(findings)
}
