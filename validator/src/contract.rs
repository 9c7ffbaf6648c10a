//! The contract: the JSON Schemas and manifest specgen writes under `schemas/`, every schema
//! compiled once (draft 2020-12, formats checked), and the manifest read into operations that
//! traffic can be matched against.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use jsonschema::{Draft, ValidationError, Validator};
use serde_json::Value;
use specgen::manifest::{self, Manifest, ValueKind};

/// One contract file, read and compiled.
enum Compiled {
    Manifest(Box<Manifest>),
    Schema(Value, Validator, crate::drift::Plan),
}

/// A contract that cannot be read or compiled.
#[derive(Debug, thiserror::Error)]
pub enum ContractError {
    /// A file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file is not JSON, or not a valid JSON Schema, or the manifest is not as specgen
    /// writes it.
    #[error("contract file {path}: {message}")]
    Invalid {
        /// Path under `schemas/`.
        path: String,
        /// Why.
        message: String,
    },
    /// The spec given with `--spec` could not be turned into a contract.
    #[error("{0}")]
    Spec(String),
    /// No schema has this name.
    #[error(
        "no schema named '{0}' in the contract (try a component name such as 'Account', or a path such as 'operations/createAccount.request.json')"
    )]
    UnknownSchema(String),
}

/// Where a parameter or credential travels: the manifest's own type.
pub use specgen::manifest::Location;

/// A parameter's rule.
pub struct ParameterSpec {
    /// Name.
    pub name: String,
    /// Where it travels.
    pub location: Location,
    /// Must be present.
    pub required: bool,
    /// Its schema, compiled.
    pub validator: Validator,
    /// Its schema as written.
    pub schema: Value,
    /// How its text becomes the JSON value the schema checks.
    pub kind: ValueKind,
}

/// A body's rule.
#[derive(Debug, Clone)]
pub struct BodySpec {
    /// Must be there. A request body when the spec says `required`; a response body when its
    /// schema constrains it: a schema that accepts every JSON value (the spec's "not shown")
    /// says nothing the absence of a body could break.
    pub required: bool,
    /// Media type.
    pub content_type: Option<String>,
    /// Contract file of its schema.
    pub schema: Option<String>,
}

/// A documented response.
#[derive(Debug, Clone)]
pub struct ResponseSpec {
    /// `201`, `2XX` or `default`.
    pub key: String,
    /// Its body, if one is documented.
    pub body: BodySpec,
    /// Error codes the spec's examples show for it.
    pub example_codes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Literal(String),
    Param(String),
}

/// An operation or webhook of the manifest.
pub struct OperationSpec {
    /// operationId, or the webhook's name.
    pub id: String,
    /// Uppercase method.
    pub method: String,
    /// Path template (relative to the base path for operations, full for webhooks).
    pub path: String,
    segments: Vec<Segment>,
    /// Parameters.
    pub parameters: Vec<ParameterSpec>,
    /// Security requirements: one satisfied is enough; empty means open.
    pub security: Vec<Vec<(Location, String)>>,
    /// The request body, when the operation takes one.
    pub request_body: Option<BodySpec>,
    /// Documented responses.
    pub responses: Vec<ResponseSpec>,
}

impl OperationSpec {
    /// The documented response for a status: exact code, then class, then `default`.
    pub fn response(&self, status: u16) -> Option<&ResponseSpec> {
        let exact = status.to_string();
        let class = format!("{}XX", status / 100);
        [exact.as_str(), class.as_str(), "default"]
            .iter()
            .find_map(|key| {
                self.responses
                    .iter()
                    .find(|r| r.key.eq_ignore_ascii_case(key))
            })
    }

    /// Whether a delivery path ends with the template: a notification is delivered at the
    /// receiver's base URL, which may have a path of its own
    /// (`https://merchant/hooks` + `/v1/banking/transfers`).
    fn ends(&self, path: &str) -> bool {
        let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
        // The template's first segment is the empty one before its leading `/`.
        let tail = self.segments.len().saturating_sub(1);
        parts.len() > tail && self.fits_from(&parts[parts.len() - tail..], 1)
    }

    /// Whether a path, split at `/`, fits the template.
    fn fits(&self, parts: &[&str]) -> bool {
        self.fits_from(parts, 0)
    }

    /// Whether `parts` fit the template's segments from `skip` on.
    fn fits_from(&self, parts: &[&str], skip: usize) -> bool {
        parts.len() + skip == self.segments.len()
            && parts
                .iter()
                .zip(&self.segments[skip..])
                .all(|(part, segment)| match segment {
                    Segment::Literal(text) => text == part,
                    Segment::Param(_) => !part.is_empty(),
                })
    }

    /// The path parameters of a path that fits.
    fn params(&self, parts: &[&str]) -> Vec<(String, String)> {
        parts
            .iter()
            .zip(&self.segments)
            .filter_map(|(part, segment)| match segment {
                Segment::Param(name) => {
                    Some((name.clone(), specgen::load::percent_decode_lossy(part)))
                }
                Segment::Literal(_) => None,
            })
            .collect()
    }

    fn literal_count(&self) -> usize {
        self.segments
            .iter()
            .filter(|s| matches!(s, Segment::Literal(_)))
            .count()
    }
}

/// Headers that carry this API's credentials, whatever a contract declares.
pub const CREDENTIAL_HEADERS: &[&str] = &["public-api-key", "private-secret-key"];

/// What a method and path are to the contract.
pub enum Match<'c> {
    /// This operation, with these path parameters.
    Operation(&'c OperationSpec, Vec<(String, String)>),
    /// The path exists, but not with this method.
    MethodNotAllowed(String),
    /// No operation has this path (after the base path).
    UnknownPath,
    /// The path is not under any base path of the API (its servers, `--base-url`).
    OutsideBasePath,
}

/// Where the API's paths begin: the path of a server URL, whose variables stand for anything
/// (`{origin}/v1` is any address ending in `/v1`: `https://host/gateway/v1` too), or of a
/// base URL given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
struct BasePath {
    /// The URL begins with a variable (`{origin}`), which may hold a path of its own: the
    /// segments may come after any prefix.
    any_prefix: bool,
    /// The path's segments; `None` for one a variable fills.
    segments: Vec<Option<String>>,
}

impl BasePath {
    /// The base path of a server URL template (`{origin}/v1`, `https://{host}/api/{version}`,
    /// `/v1`) or a plain URL.
    fn of(url: &str) -> BasePath {
        let any_prefix = url.starts_with('{');
        let after_scheme = match url.find("://") {
            Some(at) => &url[at + 3..],
            None if any_prefix => url.find('/').map_or("", |at| &url[at..]),
            None => url,
        };
        let path = match after_scheme.find('/') {
            _ if after_scheme.starts_with('/') => after_scheme,
            Some(at) if url.contains("://") || any_prefix => &after_scheme[at..],
            _ => "",
        };
        let path = path.split(['?', '#']).next().unwrap_or_default();
        let segments = path
            .split('/')
            .filter(|segment| !segment.is_empty())
            .map(|segment| (!segment.contains('{')).then(|| segment.to_string()))
            .collect();
        BasePath {
            any_prefix,
            segments,
        }
    }

    /// The paths (from `/`) that remain of `path` after this base, most likely first: at the
    /// start, or after each prefix an `{origin}` may hold.
    fn strip<'p>(&self, path: &'p str) -> Vec<&'p str> {
        // Byte offsets of each `/` of the path: segment i runs from slash[i] + 1.
        let slashes: Vec<usize> = path.match_indices('/').map(|(at, _)| at).collect();
        if !path.starts_with('/') {
            return Vec::new();
        }
        let n = self.segments.len();
        let starts = if self.any_prefix { slashes.len() } else { 1 };
        let mut out = Vec::new();
        for first in 0..starts {
            if first + n > slashes.len() {
                break;
            }
            let fits = (0..n).all(|i| {
                let from = slashes[first + i] + 1;
                let to = slashes.get(first + i + 1).copied().unwrap_or(path.len());
                let segment = &path[from..to];
                match &self.segments[i] {
                    Some(literal) => literal == segment,
                    None => !segment.is_empty(),
                }
            });
            if fits {
                let rest = slashes.get(first + n).map_or("", |&at| &path[at..]);
                out.push(rest);
            }
        }
        out
    }
}

/// One violation of a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// JSON pointer into the instance.
    pub pointer: String,
    /// Contract file and the pointer of the failing keyword in it.
    pub schema_location: String,
    /// The keyword.
    pub rule: String,
    /// For a person.
    pub message: String,
}

/// Compiled schemas and the operations of the manifest.
pub struct Contract {
    validators: HashMap<String, Validator>,
    schemas: HashMap<String, Value>,
    /// Each schema prepared for the drift walk.
    drift_plans: HashMap<String, crate::drift::Plan>,
    manifest: Manifest,
    base_paths: Vec<BasePath>,
    /// Where credentials travel: the declared security schemes, and the API's two headers.
    credentials: Vec<(Location, String)>,
    operations: Vec<OperationSpec>,
    webhooks: Vec<OperationSpec>,
}

impl std::fmt::Debug for Contract {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Contract")
            .field("schemas", &self.validators.len())
            .field("operations", &self.operations.len())
            .field("webhooks", &self.webhooks.len())
            .finish_non_exhaustive()
    }
}

impl Contract {
    /// The contract of this project's API, embedded in `orchestration-api`.
    pub fn embedded() -> Result<Contract, ContractError> {
        Contract::from_files(
            orchestration_api::contract::FILES
                .iter()
                .map(|(path, text)| (path.to_string(), text.to_string())),
        )
    }

    /// A contract from a directory laid out as specgen writes `schemas/`.
    pub fn from_dir(dir: &Path) -> Result<Contract, ContractError> {
        let mut files = Vec::new();
        collect(dir, dir, &mut files)?;
        Contract::from_files(files)
    }

    /// The contract of any OpenAPI document, made by specgen's library in memory.
    pub fn from_spec(spec: &Path) -> Result<Contract, ContractError> {
        let doc = specgen::load::load_file(spec).map_err(|e| ContractError::Spec(e.to_string()))?;
        let made = specgen::contract(&doc, &specgen::Options::default())
            .map_err(|e| ContractError::Spec(e.to_string()))?;
        Contract::from_files(made.files)
    }

    /// A contract from `(path under schemas/, contents)` pairs.
    pub fn from_files(
        files: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Contract, ContractError> {
        use rayon::prelude::*;
        let mut validators = HashMap::new();
        let mut schemas = HashMap::new();
        let mut drift_plans = HashMap::new();
        let mut manifest = None;
        // Each file is parsed and compiled on its own, in parallel: `specval check` waits for
        // the contract before it reads any traffic. The first error in file order is reported,
        // whatever the thread count.
        let files: Vec<(String, String)> = files.into_iter().collect();
        let compiled: Vec<_> = files
            .into_par_iter()
            .map(|(path, text)| {
                let invalid = |message: String| ContractError::Invalid {
                    path: path.clone(),
                    message,
                };
                if path == "manifest.json" {
                    let manifest = Manifest::parse(&text).map_err(invalid)?;
                    return Ok((path, Compiled::Manifest(Box::new(manifest))));
                }
                let value: Value =
                    serde_json::from_str(&text).map_err(|err| invalid(err.to_string()))?;
                let validator = compile(&value, &path)?;
                let plan = crate::drift::Plan::new(&value);
                Ok((path, Compiled::Schema(value, validator, plan)))
            })
            .collect();
        for file in compiled {
            match file? {
                (_, Compiled::Manifest(read)) => manifest = Some(*read),
                (path, Compiled::Schema(value, validator, plan)) => {
                    validators.insert(path.clone(), validator);
                    drift_plans.insert(path.clone(), plan);
                    schemas.insert(path, value);
                }
            }
        }
        let Some(manifest) = manifest else {
            return Err(ContractError::Invalid {
                path: "manifest.json".into(),
                message: "missing".into(),
            });
        };
        let schemes = security_schemes(&manifest);
        let mut operations = Vec::new();
        for entry in &manifest.operations {
            operations.push(operation(entry, &schemes, &schemas)?);
        }
        let mut webhooks = Vec::new();
        for entry in &manifest.webhooks {
            webhooks.push(operation(entry, &schemes, &schemas)?);
        }
        Ok(Contract {
            validators,
            schemas,
            drift_plans,
            base_paths: base_paths(&manifest),
            credentials: CREDENTIAL_HEADERS
                .iter()
                .map(|name| (Location::Header, (*name).to_string()))
                .chain(schemes.values().flatten().cloned())
                .collect(),
            manifest,
            operations,
            webhooks,
        })
    }

    /// The manifest: operations and webhooks with their rules.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// Operations of the manifest.
    pub fn operations(&self) -> &[OperationSpec] {
        &self.operations
    }

    /// Webhooks of the manifest.
    pub fn webhooks(&self) -> &[OperationSpec] {
        &self.webhooks
    }

    /// Whether a parameter carries a credential: its value is never shown, not even with
    /// `--show-values` (a spec may declare a credential header as a parameter as well).
    pub fn is_credential(&self, location: Location, name: &str) -> bool {
        self.credentials.iter().any(|(at, credential)| {
            *at == location
                && match location {
                    Location::Header => credential.eq_ignore_ascii_case(name),
                    _ => credential == name,
                }
        })
    }

    /// The `(METHOD, path)` pairs at which notifications are delivered.
    pub fn webhook_paths(&self) -> Vec<(String, String)> {
        self.webhooks
            .iter()
            .map(|hook| (hook.method.clone(), hook.path.clone()))
            .collect()
    }

    /// Paths of every schema, under `schemas/`, sorted.
    pub fn schema_paths(&self) -> Vec<&str> {
        let mut paths: Vec<&str> = self.validators.keys().map(String::as_str).collect();
        paths.sort_unstable();
        paths
    }

    /// A schema file prepared for [`crate::drift`].
    pub fn drift_plan(&self, path: &str) -> Option<&crate::drift::Plan> {
        self.drift_plans.get(path)
    }

    /// A schema file as written.
    pub fn schema(&self, path: &str) -> Option<&Value> {
        self.schemas.get(path)
    }

    /// The path of a schema given by component name (`Account`) or by path.
    pub fn resolve(&self, name: &str) -> Option<&str> {
        [
            name.to_string(),
            format!("components/{name}.json"),
            format!("{name}.json"),
        ]
        .iter()
        .find_map(|c| {
            self.validators
                .get_key_value(c.as_str())
                .map(|(k, _)| k.as_str())
        })
    }

    /// Adds base addresses the API is reached at besides its servers (`--base-url`): a
    /// gateway's `https://gw.example.com/payments/v1`; only the path counts.
    pub fn add_base_urls(&mut self, urls: &[String]) {
        for url in urls {
            let base = BasePath {
                any_prefix: false,
                ..BasePath::of(url)
            };
            if !self.base_paths.contains(&base) {
                self.base_paths.push(base);
            }
        }
    }

    /// The operation a request is for, after a base path is stripped: tried after every base
    /// path that fits, the first operation found wins.
    pub fn match_operation(&self, method: &str, path: &str) -> Match<'_> {
        let mut fallback = Match::OutsideBasePath;
        for base in &self.base_paths {
            for relative in base.strip(path) {
                match self.match_relative(method, relative) {
                    found @ Match::Operation(..) => return found,
                    other @ Match::MethodNotAllowed(_) => fallback = other,
                    Match::UnknownPath if matches!(fallback, Match::OutsideBasePath) => {
                        fallback = Match::UnknownPath;
                    }
                    Match::UnknownPath | Match::OutsideBasePath => {}
                }
            }
        }
        fallback
    }

    /// The operation of a path relative to the base path (`/banking/accounts`).
    fn match_relative(&self, method: &str, relative: &str) -> Match<'_> {
        let relative = if relative.is_empty() { "/" } else { relative };
        let parts: Vec<&str> = relative.trim_end_matches('/').split('/').collect();
        let mut best: Option<&OperationSpec> = None;
        let mut path_known = None;
        for op in &self.operations {
            if !op.fits(&parts) {
                continue;
            }
            if !op.method.eq_ignore_ascii_case(method) {
                path_known.get_or_insert_with(|| op.path.clone());
                continue;
            }
            // The most literal template wins: /accounts/new before /accounts/{id}.
            if best.is_none_or(|b| op.literal_count() > b.literal_count()) {
                best = Some(op);
            }
        }
        match (best, path_known) {
            (Some(op), _) => Match::Operation(op, op.params(&parts)),
            (None, Some(template)) => Match::MethodNotAllowed(template),
            (None, None) => Match::UnknownPath,
        }
    }

    /// The webhook delivered at `method` and `path`: its delivery path, on any host and after
    /// any base path of the receiver.
    pub fn match_webhook(&self, method: &str, path: &str) -> Option<&OperationSpec> {
        self.webhooks
            .iter()
            .find(|hook| hook.method.eq_ignore_ascii_case(method) && hook.ends(path))
    }

    /// Every rule the instance breaks against a schema file; empty when it conforms.
    /// `show_values` lets instance values appear in messages (masked by default).
    pub fn check(
        &self,
        schema: &str,
        instance: &Value,
        show_values: bool,
    ) -> Result<Vec<Violation>, ContractError> {
        let validator = self
            .validators
            .get(schema)
            .ok_or_else(|| ContractError::UnknownSchema(schema.to_string()))?;
        // Most payloads conform: the yes-or-no walk stops early and builds no errors.
        if validator.is_valid(instance) {
            return Ok(Vec::new());
        }
        Ok(validator
            .iter_errors(instance)
            .map(|error| violation(schema, &error, show_values))
            .collect())
    }

    /// Like [`Contract::check`], with a schema named by component or path (`specval message`).
    pub fn validate(
        &self,
        schema: &str,
        instance: &Value,
        show_values: bool,
    ) -> Result<Vec<Violation>, ContractError> {
        let path = self
            .resolve(schema)
            .ok_or_else(|| ContractError::UnknownSchema(schema.to_string()))?;
        self.check(path, instance, show_values)
    }

    /// Checks a parameter's text against its schema (numbers and booleans parsed first).
    pub fn check_parameter(param: &ParameterSpec, text: &str, show_values: bool) -> Vec<Violation> {
        let Some(instance) = param.kind.value(text) else {
            return vec![Violation {
                pointer: String::new(),
                schema_location: "manifest.json".into(),
                rule: "type".into(),
                message: format!(
                    "{} is not of type {}",
                    if show_values {
                        format!("{text:?}")
                    } else {
                        "value".into()
                    },
                    param.schema["type"]
                ),
            }];
        };
        // Most values conform: the yes-or-no walk stops early and builds no errors.
        if param.validator.is_valid(&instance) {
            return Vec::new();
        }
        param
            .validator
            .iter_errors(&instance)
            .map(|error| violation("manifest.json", &error, show_values))
            .collect()
    }
}

fn compile(schema: &Value, path: &str) -> Result<Validator, ContractError> {
    jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(true)
        .build(schema)
        .map_err(|err| ContractError::Invalid {
            path: path.to_string(),
            message: err.to_string(),
        })
}

fn message(error: &ValidationError<'_>, show_values: bool) -> String {
    if show_values {
        error.to_string()
    } else {
        error.masked().to_string()
    }
}

/// A violation; for `oneOf` / `anyOf`, the message says which alternative came closest and why.
fn violation(file: &str, error: &ValidationError<'_>, show_values: bool) -> Violation {
    use jsonschema::error::ValidationErrorKind;
    let mut text = message(error, show_values);
    if let ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } =
        error.kind()
        && let Some((index, branch)) = context
            .iter()
            .enumerate()
            .filter(|(_, errors)| !errors.is_empty())
            .min_by_key(|(_, errors)| errors.len())
    {
        let reasons: Vec<String> = branch
            .iter()
            .take(3)
            .map(|e| {
                let at = e.instance_path().as_str();
                let at = if at.is_empty() { "(root)" } else { at };
                format!("{at}: {}", message(e, show_values))
            })
            .collect();
        let more = branch.len().saturating_sub(3);
        text = format!(
            "{text}; closest is alternative {index} ({}), which fails: {}{}",
            branch[0].schema_path().as_str(),
            reasons.join("; "),
            if more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            }
        );
    }
    Violation {
        pointer: error.instance_path().as_str().to_string(),
        schema_location: format!("{file}#{}", error.schema_path().as_str()),
        rule: error.kind().keyword().to_string(),
        message: text,
    }
}

/// The base paths of the manifest's servers, else its `basePath` (`/` when it has none).
fn base_paths(manifest: &Manifest) -> Vec<BasePath> {
    let mut bases: Vec<BasePath> = Vec::new();
    for server in &manifest.servers {
        let base = BasePath::of(&server.url);
        if !bases.contains(&base) {
            bases.push(base);
        }
    }
    if bases.is_empty() {
        let path = if manifest.base_path.is_empty() {
            "/"
        } else {
            &manifest.base_path
        };
        bases.push(BasePath::of(path));
    }
    bases
}

fn segments(template: &str) -> Vec<Segment> {
    template
        .trim_end_matches('/')
        .split('/')
        .map(
            |part| match part.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
                Some(name) => Segment::Param(name.to_string()),
                None => Segment::Literal(part.to_string()),
            },
        )
        .collect()
}

/// Every declared scheme, with where its credential travels; `None` for one traffic cannot
/// show (mutual TLS, a type this version does not know), which a requirement then does not
/// ask for.
fn security_schemes(manifest: &Manifest) -> HashMap<String, Option<(Location, String)>> {
    manifest
        .security_schemes
        .iter()
        .map(|(key, scheme)| {
            let place = match scheme.kind.as_str() {
                "apiKey" => scheme
                    .location
                    .zip(scheme.name.as_deref().map(str::to_ascii_lowercase)),
                "http" | "oauth2" | "openIdConnect" => {
                    Some((Location::Header, "authorization".to_string()))
                }
                _ => None,
            };
            (key.clone(), place)
        })
        .collect()
}

/// Whether a schema accepts every JSON value: `true`, or an object of nothing but
/// annotations (`description`, `examples`, `$defs`, `x-…`, …).
fn accepts_anything(schema: &Value) -> bool {
    const ANNOTATIONS: &[&str] = &[
        "$schema",
        "$id",
        "$comment",
        "$defs",
        "$anchor",
        "title",
        "description",
        "examples",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
    ];
    match schema {
        Value::Bool(accepts) => *accepts,
        Value::Object(map) => map
            .keys()
            .all(|key| ANNOTATIONS.contains(&key.as_str()) || key.starts_with("x-")),
        _ => false,
    }
}

fn operation(
    entry: &manifest::Operation,
    schemes: &HashMap<String, Option<(Location, String)>>,
    schemas: &HashMap<String, Value>,
) -> Result<OperationSpec, ContractError> {
    let invalid = |message: String| ContractError::Invalid {
        path: "manifest.json".into(),
        message,
    };
    let id = entry.key().to_string();
    let mut parameters = Vec::new();
    for param in &entry.parameters {
        let name = &param.name;
        parameters.push(ParameterSpec {
            validator: compile(
                &param.schema,
                &format!("manifest.json ({id} parameter {name})"),
            )?,
            name: name.clone(),
            location: param.location,
            required: param.required,
            kind: param.kind(),
            schema: param.schema.clone(),
        });
    }
    let mut security = Vec::new();
    for requirement in &entry.security {
        let mut needs = Vec::new();
        for key in requirement {
            // An undeclared scheme would drop out of the requirement and leave the
            // operation open: no 401 check at all.
            match schemes.get(key) {
                Some(Some(place)) => needs.push(place.clone()),
                Some(None) => {}
                None => {
                    return Err(invalid(format!(
                        "{id}: security names the scheme '{key}', which securitySchemes does not declare"
                    )));
                }
            }
        }
        security.push(needs);
    }
    let request_body = entry.request_body.as_ref().map(|body| BodySpec {
        required: body.required,
        content_type: Some(body.content_type.clone()),
        schema: Some(body.schema.clone()),
    });
    let responses = entry
        .responses
        .iter()
        .map(|(key, response)| ResponseSpec {
            key: key.clone(),
            body: BodySpec {
                // A schema that accepts every JSON value (the spec's "not shown") says
                // nothing the absence of a body could break.
                required: response
                    .schema
                    .as_ref()
                    .and_then(|path| schemas.get(path))
                    .is_some_and(|schema| !accepts_anything(schema)),
                content_type: response.content_type.clone(),
                schema: response.schema.clone(),
            },
            example_codes: response.example_codes.clone(),
        })
        .collect();
    Ok(OperationSpec {
        segments: segments(&entry.path),
        id,
        method: entry.method.to_ascii_uppercase(),
        path: entry.path.clone(),
        parameters,
        security,
        request_body,
        responses,
    })
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) -> Result<(), ContractError> {
    let io = |path: &Path, source| ContractError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| io(dir, e))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(root, &path, out)?;
        } else if path.extension().is_some_and(|ext| ext == "json") {
            let text = std::fs::read_to_string(&path).map_err(|e| io(&path, e))?;
            let relative = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            out.push((relative, text));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn contract() -> Contract {
        Contract::embedded().unwrap()
    }

    #[test]
    fn the_embedded_contract_compiles_every_schema() {
        let contract = contract();
        assert!(contract.schema_paths().len() > 50);
        assert_eq!(contract.operations().len(), 9);
        assert_eq!(
            contract.webhook_paths(),
            vec![("POST".to_string(), "/v1/banking/transfers".to_string())]
        );
    }

    /// The embedded contract's files, the manifest changed by `edit`.
    fn with_manifest(edit: impl Fn(&mut Value)) -> Result<Contract, ContractError> {
        Contract::from_files(
            orchestration_api::contract::FILES
                .iter()
                .map(|(path, text)| {
                    let mut text = text.to_string();
                    if *path == "manifest.json" {
                        let mut manifest: Value = serde_json::from_str(&text).unwrap();
                        edit(&mut manifest);
                        text = manifest.to_string();
                    }
                    (path.to_string(), text)
                }),
        )
    }

    #[test]
    fn a_manifest_of_another_layout_or_shape_is_refused_naming_why() {
        let err = with_manifest(|m| m["format"] = 2.into())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("manifest.json") && err.contains("manifest layout 2"),
            "{err}"
        );
        let err = with_manifest(|m| m["operations"][0]["parameters"][0]["in"] = "body".into())
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown variant `body`"), "{err}");
        let err = with_manifest(|m| {
            m.as_object_mut().unwrap().remove("operations");
        })
        .unwrap_err()
        .to_string();
        assert!(err.contains("missing field `operations`"), "{err}");
        assert!(with_manifest(|_| {}).is_ok());
    }

    #[test]
    fn a_conforming_payload_has_no_violations() {
        let reply = json!({ "received": true });
        assert_eq!(
            contract()
                .validate("IncomingTransferNotificationReply", &reply, false)
                .unwrap(),
            vec![]
        );
    }

    #[test]
    fn violations_name_the_field_and_the_rule_and_mask_values() {
        let request = json!({
            "account_id": "not-a-uuid",
            "onboarding_id": "onb_1",
            "account_type": "CHECKING",
            "currency": "USDX"
        });
        let found = contract()
            .validate("CreateAccountRequest", &request, false)
            .unwrap();
        let rules: Vec<(&str, &str)> = found
            .iter()
            .map(|f| (f.pointer.as_str(), f.rule.as_str()))
            .collect();
        assert!(rules.contains(&("/account_id", "format")), "{found:?}");
        assert!(rules.contains(&("/currency", "maxLength")), "{found:?}");
        assert!(
            found
                .iter()
                .all(|f| !f.message.contains("not-a-uuid") && !f.message.contains("USDX")),
            "{found:?}"
        );
        let shown = contract()
            .validate("CreateAccountRequest", &request, true)
            .unwrap();
        assert!(
            shown.iter().any(|f| f.message.contains("not-a-uuid")),
            "{shown:?}"
        );
    }

    #[test]
    fn every_component_example_conforms_to_its_contract_schema() {
        let contract = contract();
        let mut checked = 0;
        for (name, path) in &contract.manifest().components {
            let schema = contract.schema(path).unwrap();
            for example in schema["$defs"][name]["examples"]
                .as_array()
                .into_iter()
                .flatten()
            {
                assert_eq!(
                    contract.validate(name, example, true).unwrap(),
                    vec![],
                    "example of {name}"
                );
                checked += 1;
            }
        }
        assert!(checked > 50, "only {checked} examples checked");
    }

    #[test]
    fn operations_are_matched_by_method_and_template_under_the_base_path() {
        let contract = contract();
        let id = "6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b";
        match contract.match_operation("PATCH", &format!("/v1/banking/accounts/{id}")) {
            Match::Operation(op, params) => {
                assert_eq!(op.id, "updateAccount");
                assert_eq!(params, vec![("account_id".to_string(), id.to_string())]);
            }
            _ => panic!("not matched"),
        }
        assert!(
            matches!(contract.match_operation("PUT", "/v1/banking/accounts/x"), Match::MethodNotAllowed(t) if t == "/banking/accounts/{account_id}")
        );
        assert!(matches!(
            contract.match_operation("GET", "/v1/nope"),
            Match::UnknownPath
        ));
        assert!(matches!(
            contract.match_operation("GET", "/banking/accounts/x"),
            Match::OutsideBasePath
        ));
        // `{origin}/v1`: any address ending in /v1, a gateway's path included.
        match contract.match_operation("GET", &format!("/gateway/eu/v1/banking/accounts/{id}")) {
            Match::Operation(op, _) => assert_eq!(op.id, "getAccount"),
            _ => panic!("not matched behind a gateway path"),
        }
        assert!(matches!(
            contract.match_operation("GET", "/gateway/v2/banking/accounts/x"),
            Match::OutsideBasePath
        ));
        // A receiver's base URL may have a path.
        assert!(
            contract
                .match_webhook("POST", "/hooks/v1/banking/transfers")
                .is_some()
        );
        assert!(contract.match_webhook("POST", "/v1/banking").is_none());
        assert!(
            contract
                .match_webhook("POST", "/v1/banking/transfers")
                .is_some()
        );
    }

    #[test]
    fn an_unknown_schema_name_is_an_error() {
        assert!(matches!(
            contract().validate("Nope", &json!({}), false),
            Err(ContractError::UnknownSchema(_))
        ));
    }
}
