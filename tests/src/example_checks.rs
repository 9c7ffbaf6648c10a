//! Check 3: every example validates against its own schema, every component schema has an
//! example, every operation shows one.

use std::collections::{HashMap, HashSet};

use anyhow::Context;
use jsonschema::{Draft, Registry, Validator};
use serde_json::{Value, json};

use crate::examples::{
    DOCUMENT_BASE_URI, ExampleInventory, ExampleKind, collect_examples, members,
};
use crate::findings::Finding;
use crate::pointers::{pointer_from_tokens, pointer_to_uri_fragment};
use crate::validation_errors::describe_validation_error;

/// Result of [`check_examples`].
#[derive(Debug, Clone)]
pub struct ExampleCheck {
    /// How many distinct (example, schema) pairs were validated.
    pub checked: usize,
    /// Every example that failed, and every problem met while collecting them.
    pub failures: Vec<Finding>,
    /// What [`collect_examples`] found.
    pub inventory: ExampleInventory,
}

/// Compiles validators for schemas inside one document, each in the context of the whole
/// document (so internal `$ref`s like `#/components/schemas/Amount` resolve), with JSON
/// Schema draft 2020-12 and format assertion on.
pub struct DocumentSchemas<'a> {
    registry: Registry<'a>,
    cache: HashMap<String, Result<Validator, String>>,
}

impl<'a> DocumentSchemas<'a> {
    /// Registers `document` under [`DOCUMENT_BASE_URI`].
    ///
    /// # Errors
    ///
    /// The document cannot be registered as a JSON Schema resource.
    pub fn new(document: &'a Value) -> anyhow::Result<Self> {
        let registry = Registry::new()
            .draft(Draft::Draft202012)
            .add(DOCUMENT_BASE_URI, document)?
            .prepare()
            .context("registering the document as a JSON Schema resource")?;
        Ok(Self {
            registry,
            cache: HashMap::new(),
        })
    }

    /// The validator for the schema at JSON pointer `schema_pointer` in the document.
    ///
    /// # Errors
    ///
    /// Why the schema could not be compiled (e.g. an unresolvable `$ref` or an invalid
    /// regular expression).
    pub fn validator(&mut self, schema_pointer: &str) -> Result<&Validator, String> {
        if !self.cache.contains_key(schema_pointer) {
            let reference = format!(
                "{DOCUMENT_BASE_URI}#{}",
                pointer_to_uri_fragment(schema_pointer)
            );
            let built = jsonschema::options()
                .with_draft(Draft::Draft202012)
                .should_validate_formats(true)
                .with_registry(&self.registry)
                .offline()
                .build(&json!({ "$ref": reference }))
                .map_err(|error| error.to_string());
            self.cache.insert(schema_pointer.to_string(), built);
        }
        match &self.cache[schema_pointer] {
            Ok(validator) => Ok(validator),
            Err(message) => Err(message.clone()),
        }
    }
}

/// Check: every example in `document` (see [`collect_examples`]) validates against its own
/// schema, with JSON Schema draft 2020-12 and format assertion on. Each distinct
/// (example location, schema) pair is validated once.
///
/// # Errors
///
/// The document cannot be registered as a JSON Schema resource at all.
pub fn check_examples(document: &Value) -> anyhow::Result<ExampleCheck> {
    let inventory = collect_examples(document);
    let mut failures = inventory.problems.clone();
    let mut schemas = DocumentSchemas::new(document)?;
    let mut seen = HashSet::new();
    let mut broken_schemas = HashSet::new();
    let mut checked = 0;
    for site in &inventory.sites {
        if !seen.insert((site.location.clone(), site.schema.clone())) {
            continue;
        }
        checked += 1;
        let via = site
            .via
            .as_ref()
            .map(|via| format!(" (reached through {via})"))
            .unwrap_or_default();
        let validator = match schemas.validator(&site.schema) {
            Ok(validator) => validator,
            Err(message) => {
                if broken_schemas.insert(site.schema.clone()) {
                    failures.push(Finding::new(
                        site.schema.clone(),
                        format!("schema cannot be compiled, so its examples cannot be checked: {message}"),
                    ));
                }
                continue;
            }
        };
        let errors: Vec<String> = validator
            .iter_errors(&site.value)
            .map(|error| {
                let path = error.instance_path().as_str();
                let at = if path.is_empty() { "(root)" } else { path };
                format!("- at {at}: {}", describe_validation_error(&error))
            })
            .collect();
        if !errors.is_empty() {
            failures.push(Finding::new(
                site.location.clone(),
                format!(
                    "example does not match its schema at {}{via}:\n{}",
                    site.schema,
                    errors.join("\n")
                ),
            ));
        }
    }
    Ok(ExampleCheck {
        checked,
        failures,
        inventory,
    })
}

/// Component schemas (`/components/schemas/X`) that have neither a non-empty `examples`
/// array nor an `example`, as findings at each schema.
#[must_use]
pub fn component_schemas_without_examples(document: &Value) -> Vec<Finding> {
    members(&document["components"]["schemas"])
        .filter(|(_, schema)| {
            let has_examples = schema
                .get("examples")
                .and_then(Value::as_array)
                .is_some_and(|examples| !examples.is_empty());
            !has_examples && schema.get("example").is_none()
        })
        .map(|(name, _)| {
            Finding::new(
                pointer_from_tokens(&["components", "schemas", name]),
                "component schema has no `examples` (nor `example`)",
            )
        })
        .collect()
}

/// Operations (under `paths`, `webhooks` and their callbacks) that show no example in their
/// request or responses: none on a parameter, request body media type, response media type
/// or response header reached from the operation (following `$ref`s). Examples inside
/// schemas do not count. One finding per operation, at the Operation Object.
#[must_use]
pub fn operations_without_examples(inventory: &ExampleInventory) -> Vec<Finding> {
    let shown: HashSet<&str> = inventory
        .sites
        .iter()
        .filter(|site| site.kind != ExampleKind::Schema)
        .filter_map(|site| site.operation.as_deref())
        .collect();
    inventory
        .operations
        .iter()
        .filter(|operation| !shown.contains(operation.label.as_str()))
        .map(|operation| {
            Finding::new(
                operation.location.clone(),
                format!(
                    "operation `{}` has no example in its parameters, request body or responses",
                    operation.label
                ),
            )
        })
        .collect()
}
