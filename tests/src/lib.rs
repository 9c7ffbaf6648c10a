//! Cross-crate test helpers: where the workspace, the spec and `../shared` live, and
//! reusable checks on an OpenAPI 3.1 document held as a [`serde_json::Value`].
//!
//! Every check here takes the document as a `&Value` and returns the problems it found as
//! a list of [`Finding`]s (an empty list means the check passed), so a test can run it on
//! `spec/openapi.yaml`, on a corpus document, or on a deliberately broken in-memory
//! document, and [`render_findings`] turns the list into a message a person can read.
//!
//! | check | function |
//! |---|---|
//! | the document validates against the official OpenAPI 3.1 schema | [`official_schema_findings`] |
//! | every `$ref` is a local JSON pointer that resolves | [`dangling_refs`] |
//! | every example validates against its own schema | [`check_examples`] |
//! | every component schema has an example | [`component_schemas_without_examples`] |
//! | every operation shows an example | [`operations_without_examples`] |
//!
//! Locations are JSON pointers into the document (RFC 6901), e.g.
//! `/paths/~1banking~1accounts/get/responses/200/content/application~1json/example`.

pub mod har;
pub mod inmemory;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow, bail};
use jsonschema::error::ValidationErrorKind;
use jsonschema::{Draft, Registry, ValidationError, Validator};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Where things are
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Findings
// ---------------------------------------------------------------------------------------------

/// One problem found by a check: where it is and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Finding {
    /// JSON pointer of the offending place in the checked document (`""` is the root).
    pub location: String,
    /// What is wrong there, for a person to read.
    pub message: String,
}

impl Finding {
    /// A finding at `location` saying `message`.
    pub fn new(location: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            location: location.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let location = if self.location.is_empty() {
            "(document root)"
        } else {
            &self.location
        };
        write!(f, "{location}: {}", self.message)
    }
}

/// Renders findings as a numbered list under a heading, one finding per entry, for a
/// failing test's message.
#[must_use]
pub fn render_findings(heading: &str, findings: &[Finding]) -> String {
    let mut out = format!("{heading} ({} problem(s)):\n", findings.len());
    for (index, finding) in findings.iter().enumerate() {
        let text = finding.to_string().replace('\n', "\n      ");
        out.push_str(&format!("  {:>3}. {text}\n", index + 1));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// JSON pointers and references
// ---------------------------------------------------------------------------------------------

/// Escapes one JSON pointer reference token: `~` → `~0`, `/` → `~1`
/// (so `/banking/accounts` becomes `~1banking~1accounts`).
#[must_use]
pub fn escape_pointer_token(token: &str) -> String {
    specgen::load::escape_segment(token).into_owned()
}

/// Undoes [`escape_pointer_token`]: `~1` → `/`, then `~0` → `~`.
#[must_use]
pub fn unescape_pointer_token(token: &str) -> String {
    specgen::load::unescape_segment(token)
}

/// Appends one (unescaped) token to a JSON pointer.
#[must_use]
pub fn pointer_push(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", escape_pointer_token(token))
}

/// Builds a JSON pointer from unescaped tokens, e.g. `["paths", "/a"]` → `/paths/~1a`.
#[must_use]
pub fn pointer_from_tokens<S: AsRef<str>>(tokens: &[S]) -> String {
    tokens.iter().fold(String::new(), |pointer, token| {
        pointer_push(&pointer, token.as_ref())
    })
}

/// Percent-encodes a JSON pointer for use as a URI fragment: every byte that RFC 3986 does
/// not allow in a fragment (`{`, `}`, `%`, space, non-ASCII, …) becomes `%XX`.
#[must_use]
pub fn pointer_to_uri_fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for byte in pointer.bytes() {
        let allowed = byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&byte);
        if allowed {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Decodes `%XX` escapes in a URI fragment.
///
/// # Errors
///
/// A `%` not followed by two hex digits, or bytes that are not UTF-8 once decoded.
pub fn percent_decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = bytes
                .get(index + 1..index + 3)
                .and_then(|pair| std::str::from_utf8(pair).ok())
                .and_then(|pair| u8::from_str_radix(pair, 16).ok());
            match hex {
                Some(byte) => out.push(byte),
                None => {
                    return Err(format!(
                        "bad percent-encoding at byte {index} (`%` must be followed by two hex digits)"
                    ));
                }
            }
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "percent-decoded bytes are not UTF-8".to_string())
}

/// Resolves a local reference such as `#/components/schemas/Amount` in `document`,
/// decoding percent-escapes and then `~1`/`~0` as RFC 6901 §6 requires for JSON pointers
/// in URI fragments.
///
/// Returns the decoded JSON pointer of the target and the target itself.
///
/// # Errors
///
/// A message for a person: the reference is not of the form `#/…`, is badly encoded, or
/// names something the document does not have (saying which step of the pointer fails).
pub fn resolve_local_ref<'a>(
    document: &'a Value,
    reference: &str,
) -> Result<(String, &'a Value), String> {
    let Some(fragment) = reference.strip_prefix('#') else {
        return Err(format!(
            "`{reference}` is not a local reference: only `#/…` JSON pointers into this document are allowed"
        ));
    };
    if fragment.is_empty() {
        return Err(format!(
            "`{reference}` refers to the whole document, not to a component in it"
        ));
    }
    if !fragment.starts_with('/') {
        return Err(format!(
            "`{reference}` is a plain-name fragment (anchor), not a JSON pointer `#/…`"
        ));
    }
    let pointer = percent_decode(fragment).map_err(|error| format!("`{reference}`: {error}"))?;
    match document.pointer(&pointer) {
        Some(target) => Ok((pointer, target)),
        None => Err(format!(
            "`{reference}` does not resolve: {}",
            explain_missing(document, &pointer)
        )),
    }
}

/// Says which step of `pointer` fails in `document`, e.g. "`/components/schemas` has no
/// member `Amout`".
fn explain_missing(document: &Value, pointer: &str) -> String {
    let mut current = document;
    let mut walked = String::new();
    for raw in pointer.split('/').skip(1) {
        let token = unescape_pointer_token(raw);
        let shown = if walked.is_empty() {
            "the document root"
        } else {
            &walked
        };
        let next = match current {
            Value::Object(map) => match map.get(&token) {
                Some(next) => next,
                None => return format!("`{shown}` has no member `{token}`"),
            },
            Value::Array(items) => {
                let index = token
                    .parse::<usize>()
                    .ok()
                    .filter(|_| token == "0" || !token.starts_with('0'));
                match index.and_then(|index| items.get(index)) {
                    Some(next) => next,
                    None => {
                        return format!(
                            "`{shown}` is an array of {} item(s); `{token}` is not an index into it",
                            items.len()
                        );
                    }
                }
            }
            _ => return format!("`{shown}` is a {} and has no members", type_name(current)),
        };
        walked.push('/');
        walked.push_str(raw);
        current = next;
    }
    "the pointer is malformed".to_string()
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// One `$ref` in a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefSite {
    /// JSON pointer of the `$ref` member itself, e.g. `/paths/~1a/get/requestBody/$ref`.
    pub location: String,
    /// The reference as written.
    pub target: String,
}

/// Every `$ref` in `document`: each string value of an object member named `$ref`,
/// anywhere in the tree, in document order. (A `$ref` whose value is not a string, such as
/// a schema property named `$ref`, is not a reference and is not collected.)
#[must_use]
pub fn collect_refs(document: &Value) -> Vec<RefSite> {
    fn walk(value: &Value, pointer: &str, out: &mut Vec<RefSite>) {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    let child_pointer = pointer_push(pointer, key);
                    if let (true, Value::String(target)) = (key == "$ref", child) {
                        out.push(RefSite {
                            location: child_pointer,
                            target: target.clone(),
                        });
                    } else {
                        walk(child, &child_pointer, out);
                    }
                }
            }
            Value::Array(items) => {
                for (index, child) in items.iter().enumerate() {
                    walk(child, &format!("{pointer}/{index}"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(document, "", &mut out);
    out
}

/// Check: every `$ref` in `document` is a local JSON pointer (`#/…`) that resolves.
/// Returns one finding per dangling or non-local reference, located at the `$ref` itself.
#[must_use]
pub fn dangling_refs(document: &Value) -> Vec<Finding> {
    collect_refs(document)
        .into_iter()
        .filter_map(|site| {
            resolve_local_ref(document, &site.target)
                .err()
                .map(|message| Finding::new(site.location, message))
        })
        .collect()
}

/// Follows a chain of Reference Objects (`{"$ref": "#/…"}`) starting at `value` (found at
/// `pointer`) until a non-reference object is reached.
///
/// Returns the pointer of the final target, the target, and (when at least one reference was
/// followed) the location of the first `$ref`.
///
/// # Errors
///
/// A finding at the failing `$ref`: dangling, non-local, or circular.
pub fn follow_refs<'a>(
    document: &'a Value,
    pointer: &str,
    value: &'a Value,
) -> Result<(String, &'a Value, Option<String>), Finding> {
    const MAX_HOPS: usize = 32;
    let mut current_pointer = pointer.to_string();
    let mut current = value;
    let mut via = None;
    for _ in 0..MAX_HOPS {
        let Some(Value::String(reference)) = current.get("$ref") else {
            return Ok((current_pointer, current, via));
        };
        let ref_location = pointer_push(&current_pointer, "$ref");
        let (target_pointer, target) = resolve_local_ref(document, reference)
            .map_err(|message| Finding::new(ref_location.clone(), message))?;
        via.get_or_insert(ref_location);
        current_pointer = target_pointer;
        current = target;
    }
    Err(Finding::new(
        pointer_push(pointer, "$ref"),
        format!("more than {MAX_HOPS} chained references (circular?)"),
    ))
}

// ---------------------------------------------------------------------------------------------
// Validation-error rendering
// ---------------------------------------------------------------------------------------------

/// Longest validation message kept before it is cut short.
const MAX_MESSAGE: usize = 300;

fn shorten(text: String) -> String {
    if text.chars().count() <= MAX_MESSAGE {
        text
    } else {
        let mut cut: String = text.chars().take(MAX_MESSAGE).collect();
        cut.push('…');
        cut
    }
}

/// One line for a validation error: what is wrong and which schema keyword said so (the
/// instance path is left to the caller, see [`ValidationError::instance_path`]). Object and
/// array instances are not repeated in the message (they can be the whole document); for
/// `anyOf`/`oneOf` the reasons each alternative failed follow, indented, each with its
/// instance path where that differs.
#[must_use]
pub fn describe_validation_error(error: &ValidationError<'_>) -> String {
    let mut out = String::new();
    describe_into(error, 0, error.instance_path().as_str(), &mut out);
    out
}

fn describe_into(error: &ValidationError<'_>, depth: usize, parent_path: &str, out: &mut String) {
    const MAX_DEPTH: usize = 3;
    const MAX_BRANCH_ERRORS: usize = 5;
    let indent = "    ".repeat(depth);
    let path = error.instance_path().as_str();
    let at = if path == parent_path {
        String::new()
    } else {
        format!("at {path}: ")
    };
    let text = if error.instance().is_object() || error.instance().is_array() {
        error.masked_with("the value").to_string()
    } else {
        error.to_string()
    };
    out.push_str(&format!(
        "{indent}{at}{} [schema keyword {}]",
        shorten(text),
        error.schema_path()
    ));
    let branches = match error.kind() {
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            context
        }
        _ => return,
    };
    if depth >= MAX_DEPTH {
        return;
    }
    for (index, branch) in branches.iter().enumerate() {
        out.push_str(&format!("\n{indent}  alternative {index} fails:"));
        for sub in branch.iter().take(MAX_BRANCH_ERRORS) {
            out.push('\n');
            describe_into(sub, depth + 1, path, out);
        }
        if branch.len() > MAX_BRANCH_ERRORS {
            out.push_str(&format!(
                "\n{indent}    … and {} more",
                branch.len() - MAX_BRANCH_ERRORS
            ));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Check 1: the official OpenAPI 3.1 schema
// ---------------------------------------------------------------------------------------------

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
    /// Loads [`OFFICIAL_SCHEMA_FILES`] from `dir` (normally [`openapi_schema_dir`]).
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

// ---------------------------------------------------------------------------------------------
// Check 3: examples
// ---------------------------------------------------------------------------------------------

/// Base URI under which the checked document is registered when its schemas are compiled,
/// so that `urn:spec#/components/schemas/X` names a schema in it.
pub const DOCUMENT_BASE_URI: &str = "urn:spec";

/// HTTP methods that name operations in a Path Item Object.
pub const HTTP_METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// What kind of object an example belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExampleKind {
    /// `examples`/`example` keyword of a Schema Object.
    Schema,
    /// `example`/`examples` of a Media Type Object (request or response body).
    MediaType,
    /// `example`/`examples` of a Parameter Object.
    Parameter,
    /// `example`/`examples` of a Header Object.
    Header,
}

/// One example together with the schema it must satisfy.
#[derive(Debug, Clone)]
pub struct ExampleSite {
    /// JSON pointer of the example value itself (for an Example Object, its `value`).
    pub location: String,
    /// When the example (or the object holding it) was reached through `$ref`, the location
    /// of the first `$ref` followed.
    pub via: Option<String>,
    /// JSON pointer of the schema the example must validate against.
    pub schema: String,
    /// The example value.
    pub value: Value,
    /// What holds the example.
    pub kind: ExampleKind,
    /// The operation (see [`Operation::label`]) whose request or responses show this
    /// example, for examples reached from `paths`, `webhooks` or callbacks.
    pub operation: Option<String>,
}

/// An operation reached from `paths`, `webhooks`, or a callback in one of those.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    /// E.g. `GET /banking/accounts` or `POST webhook incomingTransfer`.
    pub label: String,
    /// JSON pointer of the Operation Object.
    pub location: String,
}

/// Everything [`collect_examples`] found.
#[derive(Debug, Clone, Default)]
pub struct ExampleInventory {
    /// Every example, with its schema; the same example may appear more than once when it
    /// is reached along several routes (e.g. a shared response used by two operations).
    pub sites: Vec<ExampleSite>,
    /// Every operation under `paths` and `webhooks` (and their callbacks).
    pub operations: Vec<Operation>,
    /// Problems met on the way: an unresolvable `$ref`, an example with no schema to check
    /// it against, an Example Object without an inline `value`.
    pub problems: Vec<Finding>,
}

/// Walks `document` and collects every example with the schema it must satisfy:
///
/// * `examples` (array) and legacy `example` of every Schema Object: component schemas and
///   inline schemas, and every subschema within them (`properties`, `items`, `allOf`, …);
///   schema `$ref`s are not followed (their targets are walked where they are defined);
/// * `example` and `examples.{name}.value` of every Media Type Object in request bodies and
///   responses under `paths`, `webhooks`, callbacks, and `components` (`requestBodies`,
///   `responses`, `pathItems`, `callbacks`), checked against the media type's `schema`;
/// * `example`/`examples` of every Parameter and Header Object, checked against its
///   `schema` (or, for one with `content`, against that media type's schema).
///
/// Reference Objects (path items, parameters, request bodies, responses, headers, examples,
/// media types, callbacks) are followed.
#[must_use]
pub fn collect_examples(document: &Value) -> ExampleInventory {
    let mut walker = ExampleWalker {
        document,
        inventory: ExampleInventory::default(),
        visited_path_items: HashSet::new(),
    };
    walker.walk_document();
    // Path-level parameters are walked once per operation, and path items both where they
    // are defined and where they are used: report each problem once.
    let mut seen = HashSet::new();
    walker
        .inventory
        .problems
        .retain(|finding| seen.insert(finding.clone()));
    walker.inventory
}

struct ExampleWalker<'a> {
    document: &'a Value,
    inventory: ExampleInventory,
    visited_path_items: HashSet<(String, Option<String>)>,
}

/// Context handed down the walk: the operation (if any) and the first `$ref` followed.
#[derive(Clone, Default)]
struct Route {
    operation: Option<String>,
    via: Option<String>,
}

impl Route {
    fn through(&self, via: Option<String>) -> Self {
        Self {
            operation: self.operation.clone(),
            via: self.via.clone().or(via),
        }
    }
}

fn members(value: &Value) -> impl Iterator<Item = (&String, &Value)> {
    value.as_object().into_iter().flatten()
}

impl<'a> ExampleWalker<'a> {
    fn resolve(
        &mut self,
        pointer: &str,
        value: &'a Value,
    ) -> Option<(String, &'a Value, Option<String>)> {
        match follow_refs(self.document, pointer, value) {
            Ok(resolved) => Some(resolved),
            Err(finding) => {
                self.inventory.problems.push(finding);
                None
            }
        }
    }

    fn walk_document(&mut self) {
        let document = self.document;
        for (section, prefix) in [("paths", ""), ("webhooks", "webhook ")] {
            let section_pointer = pointer_push("", section);
            for (name, item) in members(&document[section]) {
                let pointer = pointer_push(&section_pointer, name);
                self.walk_path_item(
                    &pointer,
                    item,
                    Some(format!("{prefix}{name}")),
                    &Route::default(),
                );
            }
        }
        let components = &document["components"];
        let component = |kind: &str| pointer_push("/components", kind);
        for (name, schema) in members(&components["schemas"]) {
            self.walk_schema(&pointer_push(&component("schemas"), name), schema);
        }
        for (name, parameter) in members(&components["parameters"]) {
            let pointer = pointer_push(&component("parameters"), name);
            self.walk_parameter_or_header(
                &pointer,
                parameter,
                ExampleKind::Parameter,
                &Route::default(),
            );
        }
        for (name, header) in members(&components["headers"]) {
            let pointer = pointer_push(&component("headers"), name);
            self.walk_parameter_or_header(&pointer, header, ExampleKind::Header, &Route::default());
        }
        for (name, body) in members(&components["requestBodies"]) {
            let pointer = pointer_push(&component("requestBodies"), name);
            self.walk_request_body(&pointer, body, &Route::default());
        }
        for (name, response) in members(&components["responses"]) {
            let pointer = pointer_push(&component("responses"), name);
            self.walk_response(&pointer, response, &Route::default());
        }
        for (name, item) in members(&components["pathItems"]) {
            let pointer = pointer_push(&component("pathItems"), name);
            self.walk_path_item(&pointer, item, None, &Route::default());
        }
        for (name, callback) in members(&components["callbacks"]) {
            let pointer = pointer_push(&component("callbacks"), name);
            self.walk_callback(&pointer, callback, None, &Route::default());
        }
    }

    /// `name` is the path template or `webhook X` for operations that count as the API's
    /// own; `None` for path items under `components`.
    fn walk_path_item(
        &mut self,
        pointer: &str,
        item: &'a Value,
        name: Option<String>,
        route: &Route,
    ) {
        let Some((pointer, item, via)) = self.resolve(pointer, item) else {
            return;
        };
        if !self
            .visited_path_items
            .insert((pointer.clone(), name.clone()))
        {
            return;
        }
        let route = route.through(via);
        let mut any_operation = false;
        for method in HTTP_METHODS {
            let Some(operation) = item.get(method) else {
                continue;
            };
            any_operation = true;
            let operation_pointer = pointer_push(&pointer, method);
            let label = name
                .as_ref()
                .map(|name| format!("{} {name}", method.to_uppercase()));
            if let Some(label) = &label {
                self.inventory.operations.push(Operation {
                    label: label.clone(),
                    location: operation_pointer.clone(),
                });
            }
            let operation_route = Route {
                operation: label.clone(),
                via: route.via.clone(),
            };
            // Path-level parameters belong to every operation of the path.
            self.walk_parameters(&pointer, item, &operation_route);
            self.walk_operation(
                &operation_pointer,
                operation,
                label.as_deref(),
                &operation_route,
            );
        }
        if !any_operation {
            self.walk_parameters(&pointer, item, &route);
        }
    }

    fn walk_parameters(&mut self, holder_pointer: &str, holder: &'a Value, route: &Route) {
        let list_pointer = pointer_push(holder_pointer, "parameters");
        for (index, parameter) in holder["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let pointer = format!("{list_pointer}/{index}");
            self.walk_parameter_or_header(&pointer, parameter, ExampleKind::Parameter, route);
        }
    }

    fn walk_operation(
        &mut self,
        pointer: &str,
        operation: &'a Value,
        label: Option<&str>,
        route: &Route,
    ) {
        self.walk_parameters(pointer, operation, route);
        if let Some(body) = operation.get("requestBody") {
            self.walk_request_body(&pointer_push(pointer, "requestBody"), body, route);
        }
        let responses_pointer = pointer_push(pointer, "responses");
        for (status, response) in members(&operation["responses"]) {
            self.walk_response(&pointer_push(&responses_pointer, status), response, route);
        }
        let callbacks_pointer = pointer_push(pointer, "callbacks");
        for (name, callback) in members(&operation["callbacks"]) {
            let callback_name = label.map(|label| format!("{label} callback {name}"));
            self.walk_callback(
                &pointer_push(&callbacks_pointer, name),
                callback,
                callback_name,
                route,
            );
        }
    }

    fn walk_callback(
        &mut self,
        pointer: &str,
        callback: &'a Value,
        name: Option<String>,
        route: &Route,
    ) {
        let Some((pointer, callback, via)) = self.resolve(pointer, callback) else {
            return;
        };
        let route = route.through(via);
        for (expression, item) in members(callback) {
            if expression.starts_with("x-") {
                continue;
            }
            let item_name = name.as_ref().map(|name| format!("{name} {expression}"));
            let route = Route {
                operation: None,
                via: route.via.clone(),
            };
            self.walk_path_item(&pointer_push(&pointer, expression), item, item_name, &route);
        }
    }

    fn walk_request_body(&mut self, pointer: &str, body: &'a Value, route: &Route) {
        let Some((pointer, body, via)) = self.resolve(pointer, body) else {
            return;
        };
        self.walk_content(&pointer, body, ExampleKind::MediaType, &route.through(via));
    }

    fn walk_response(&mut self, pointer: &str, response: &'a Value, route: &Route) {
        let Some((pointer, response, via)) = self.resolve(pointer, response) else {
            return;
        };
        let route = route.through(via);
        self.walk_content(&pointer, response, ExampleKind::MediaType, &route);
        self.walk_headers(&pointer, response, &route);
    }

    fn walk_headers(&mut self, holder_pointer: &str, holder: &'a Value, route: &Route) {
        let headers_pointer = pointer_push(holder_pointer, "headers");
        for (name, header) in members(&holder["headers"]) {
            let pointer = pointer_push(&headers_pointer, name);
            self.walk_parameter_or_header(&pointer, header, ExampleKind::Header, route);
        }
    }

    /// The `content` map of a request body, response, parameter or header.
    fn walk_content(
        &mut self,
        holder_pointer: &str,
        holder: &'a Value,
        kind: ExampleKind,
        route: &Route,
    ) {
        let content_pointer = pointer_push(holder_pointer, "content");
        for (media_type, object) in members(&holder["content"]) {
            let pointer = pointer_push(&content_pointer, media_type);
            let Some((pointer, object, via)) = self.resolve(&pointer, object) else {
                continue;
            };
            let route = route.through(via);
            self.walk_example_holder(&pointer, object, kind, &route);
            let encoding_pointer = pointer_push(&pointer, "encoding");
            for (property, encoding) in members(&object["encoding"]) {
                self.walk_headers(&pointer_push(&encoding_pointer, property), encoding, &route);
            }
        }
    }

    fn walk_parameter_or_header(
        &mut self,
        pointer: &str,
        object: &'a Value,
        kind: ExampleKind,
        route: &Route,
    ) {
        let Some((pointer, object, via)) = self.resolve(pointer, object) else {
            return;
        };
        let route = route.through(via);
        if object.get("content").is_some() {
            self.walk_content(&pointer, object, kind, &route);
        }
        self.walk_example_holder(&pointer, object, kind, &route);
    }

    /// A Media Type, Parameter or Header Object: its `schema` and its `example`/`examples`.
    fn walk_example_holder(
        &mut self,
        pointer: &str,
        holder: &'a Value,
        kind: ExampleKind,
        route: &Route,
    ) {
        let schema_pointer = holder.get("schema").map(|schema| {
            let schema_pointer = pointer_push(pointer, "schema");
            self.walk_schema(&schema_pointer, schema);
            schema_pointer
        });
        let mut found: Vec<(String, Value, Option<String>)> = Vec::new();
        if let Some(example) = holder.get("example") {
            found.push((pointer_push(pointer, "example"), example.clone(), None));
        }
        let examples_pointer = pointer_push(pointer, "examples");
        for (name, example) in members(&holder["examples"]) {
            let example_pointer = pointer_push(&examples_pointer, name);
            let Some((resolved, example, via)) = self.resolve(&example_pointer, example) else {
                continue;
            };
            if let Some(value) = example.get("value") {
                found.push((pointer_push(&resolved, "value"), value.clone(), via));
            } else if example.get("externalValue").is_some() {
                self.inventory.problems.push(Finding::new(
                    resolved,
                    "Example Object has only an `externalValue`, which cannot be checked here; give its `value` inline",
                ));
            } else {
                self.inventory.problems.push(Finding::new(
                    resolved,
                    "Example Object has neither `value` nor `externalValue`",
                ));
            }
        }
        for (location, value, via) in found {
            match &schema_pointer {
                Some(schema) => self.inventory.sites.push(ExampleSite {
                    location,
                    via: route.via.clone().or(via),
                    schema: schema.clone(),
                    value,
                    kind,
                    operation: route.operation.clone(),
                }),
                None => self.inventory.problems.push(Finding::new(
                    location,
                    format!(
                        "example has no `schema` beside it (at {pointer}) to be checked against"
                    ),
                )),
            }
        }
    }

    /// A Schema Object and all its subschemas; `$ref`s are not followed.
    fn walk_schema(&mut self, pointer: &str, schema: &'a Value) {
        const SINGLE: [&str; 12] = [
            "additionalProperties",
            "items",
            "contains",
            "propertyNames",
            "unevaluatedItems",
            "unevaluatedProperties",
            "not",
            "if",
            "then",
            "else",
            "contentSchema",
            "additionalItems",
        ];
        const LISTS: [&str; 4] = ["prefixItems", "allOf", "anyOf", "oneOf"];
        const MAPS: [&str; 5] = [
            "properties",
            "patternProperties",
            "$defs",
            "definitions",
            "dependentSchemas",
        ];
        let Value::Object(map) = schema else {
            return;
        };
        let mut push = |location: String, value: &Value| {
            self.inventory.sites.push(ExampleSite {
                location,
                via: None,
                schema: pointer.to_string(),
                value: value.clone(),
                kind: ExampleKind::Schema,
                operation: None,
            });
        };
        if let Some(Value::Array(examples)) = map.get("examples") {
            let examples_pointer = pointer_push(pointer, "examples");
            for (index, example) in examples.iter().enumerate() {
                push(format!("{examples_pointer}/{index}"), example);
            }
        }
        if let Some(example) = map.get("example") {
            push(pointer_push(pointer, "example"), example);
        }
        for keyword in SINGLE {
            if let Some(sub) = map.get(keyword) {
                self.walk_schema(&pointer_push(pointer, keyword), sub);
            }
        }
        for keyword in LISTS {
            if let Some(Value::Array(subs)) = map.get(keyword) {
                for (index, sub) in subs.iter().enumerate() {
                    self.walk_schema(&format!("{}/{index}", pointer_push(pointer, keyword)), sub);
                }
            }
        }
        for keyword in MAPS {
            let keyword_pointer = pointer_push(pointer, keyword);
            for (name, sub) in members(map.get(keyword).unwrap_or(&Value::Null)) {
                self.walk_schema(&pointer_push(&keyword_pointer, name), sub);
            }
        }
    }
}

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
