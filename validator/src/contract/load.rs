//! Reading a contract: its files parsed and compiled (in parallel), the manifest's operations
//! and webhooks with their parameters, security and bodies.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use jsonschema::{Draft, ValidationError, Validator};
use serde_json::Value;
use specgen::manifest::{self, Manifest};

use super::matching::{BasePath, segments};
use super::{
    BodySpec, CREDENTIAL_HEADERS, Compiled, Contract, ContractError, Credential, Location,
    OperationSpec, ParameterSpec, ResponseSpec, SchemaFile,
};

/// One contract file, read: the manifest, a schema file (parsed, compiled when first asked
/// for), or a definitions document (the shared layout's, read through the schema files).
enum Read {
    Manifest(Box<Manifest>),
    Schema(Value),
    Definitions(String),
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
        let mut contract = Contract::from_files(made.files)?;
        contract.spec_warnings = specgen::ir::Warning::summarized(&made.api.warnings);
        Ok(contract)
    }

    /// A contract from `(path under schemas/, contents)` pairs.
    ///
    /// A self-contained contract is compiled whole, here: a schema that does not compile is
    /// an error before any traffic is read. A contract in the shared layout (specgen writes
    /// one for a spec whose self-contained files would be very large, such as Stripe's) has
    /// each schema file compiled the first time a message needs it, so a run compiles only
    /// what its traffic reaches; one that does not compile then is a `contract` finding.
    pub fn from_files(
        files: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Contract, ContractError> {
        use rayon::prelude::*;
        let mut schemas = rustc_hash::FxHashMap::default();
        let mut definitions = HashMap::new();
        let mut manifest = None;
        // Each file is parsed on its own, in parallel: `specval check` waits for the contract
        // before it reads any traffic. The first error in file order is reported, whatever
        // the thread count.
        let files: Vec<(String, String)> = files.into_iter().collect();
        let read: Vec<_> = files
            .into_par_iter()
            .map(|(path, text)| {
                let invalid = |message: String| ContractError::Invalid {
                    path: path.clone(),
                    message,
                };
                if path == "manifest.json" {
                    let manifest = Manifest::parse(&text).map_err(invalid)?;
                    return Ok((path, Read::Manifest(Box::new(manifest))));
                }
                if path.starts_with(specgen::definitions::FOLDER) {
                    return Ok((path, Read::Definitions(text)));
                }
                let value: Value =
                    serde_json::from_str(&text).map_err(|err| invalid(err.to_string()))?;
                Ok((path, Read::Schema(value)))
            })
            .collect();
        for file in read {
            match file? {
                (_, Read::Manifest(read)) => manifest = Some(*read),
                (path, Read::Schema(value)) => {
                    schemas.insert(path, SchemaFile::new(value));
                }
                (path, Read::Definitions(text)) => {
                    definitions.insert(path, text);
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
        let api_base_paths = base_paths(&manifest);
        let mut operation_base_paths: Vec<BasePath> = Vec::new();
        for base in operations.iter().flat_map(|op| &op.base_paths) {
            if !api_base_paths.contains(base) && !operation_base_paths.contains(base) {
                operation_base_paths.push(base.clone());
            }
        }
        let shared = !definitions.is_empty();
        let contract = Contract {
            http_scheme_words: manifest.http_scheme_words(),
            schemas,
            definition_texts: definitions,
            definitions: specgen::definitions::Definitions::new(),
            base_paths: api_base_paths,
            operation_base_paths,
            credentials: CREDENTIAL_HEADERS
                .iter()
                .map(|name| (Location::Header, (*name).to_string()))
                .chain(
                    schemes
                        .values()
                        .flatten()
                        .map(|credential| (credential.location, credential.name.clone())),
                )
                .chain(credential_parameters(&operations, &webhooks))
                .collect(),
            manifest,
            operations,
            webhooks,
            spec_warnings: Vec::new(),
            api_hosts: Vec::new(),
        };
        if !shared {
            let mut paths: Vec<&String> = contract.schemas.keys().collect();
            paths.sort_unstable();
            let failed = paths
                .into_par_iter()
                .map(|path| contract.compiled(path).map(|_| ()))
                .collect::<Vec<_>>()
                .into_iter()
                .find_map(Result::err);
            if let Some(err) = failed {
                return Err(err);
            }
        }
        Ok(contract)
    }

    /// The places a schema file documents ([`crate::drift::Plan::members`]), for the totals of
    /// [`crate::coverage`]. A file not yet compiled is not compiled for this: the totals
    /// read every body of the contract, and a validator for each of a large spec's bodies
    /// (Stripe's 1,100) took gigabytes that only the bodies the traffic reaches need.
    pub(crate) fn members(&self, path: &str) -> Option<crate::drift::Members> {
        let file = self.schemas.get(path)?;
        if let Some(compiled) = file.compiled.get() {
            return compiled
                .as_ref()
                .ok()
                .map(|compiled| compiled.plan.members());
        }
        let schema = self.self_contained(file).ok()?;
        Some(crate::drift::Plan::new(&schema).members())
    }

    /// A schema file as one self-contained schema (see [`Contract::schema`]).
    fn self_contained(&self, file: &SchemaFile) -> Result<Value, String> {
        self.definitions
            .self_contained(file.written.clone(), |path| {
                self.definition_texts.get(path).map(String::as_str)
            })
    }

    /// A schema file, compiled on first use (see [`Contract::from_files`]); `None` for a path
    /// that is no schema file.
    pub(crate) fn compiled(&self, path: &str) -> Result<&Compiled, ContractError> {
        let file = self
            .schemas
            .get(path)
            .ok_or_else(|| ContractError::UnknownSchema {
                name: path.to_string(),
                hint: self.naming_hint(path),
            })?;
        self.compiled_file(file, path)
    }

    /// [`Contract::compiled`] of a file already looked up by its `path`.
    pub(crate) fn compiled_file<'s>(
        &self,
        file: &'s SchemaFile,
        path: &str,
    ) -> Result<&'s Compiled, ContractError> {
        file.compiled
            .get_or_init(|| {
                let schema = self.self_contained(file)?;
                let validator = compile_for(&schema).map_err(|err| err.to_string())?;
                let plan = crate::drift::Plan::new(&schema);
                Ok(Compiled {
                    schema,
                    validator,
                    plan,
                })
            })
            .as_ref()
            .map_err(|message| ContractError::Invalid {
                path: path.to_string(),
                message: message.clone(),
            })
    }
}

fn compile(schema: &Value, path: &str) -> Result<Validator, ContractError> {
    compile_for(schema).map_err(|err| ContractError::Invalid {
        path: path.to_string(),
        message: err.to_string(),
    })
}

/// The contract's one set of validation options, for either instance representation.
pub(super) fn compile_for<F: jsonschema::json::Json>(
    schema: &Value,
) -> Result<Validator<F>, ValidationError<'static>> {
    let options = jsonschema::options_for::<F>()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(true);
    specgen::manifest::FORMATS
        .into_iter()
        .fold(options, |options, (name, check)| {
            options.with_format(name, check)
        })
        .build(schema)
}

/// The base paths of the manifest's servers, else its `basePath` (`/` when it has none).
fn base_paths(manifest: &Manifest) -> Vec<BasePath> {
    let mut bases: Vec<BasePath> = Vec::new();
    for server in &manifest.servers {
        for url in server_paths(server) {
            let base = BasePath::of(&url);
            if !bases.contains(&base) {
                bases.push(base);
            }
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

/// A parameter (or a response's header) of the manifest, compiled; `place` names it in errors.
fn parameter_spec(
    param: &manifest::Parameter,
    place: &str,
) -> Result<ParameterSpec, ContractError> {
    Ok(ParameterSpec {
        validator: compile(&param.schema, place)?,
        name: param.name.clone(),
        location: param.location,
        required: param.required,
        kind: param.kind(),
        items: param.items(),
        alternative_items: param.alternative_items(),
        list_form: param.list_form(),
        object: param.object_style(),
        json: param
            .content_type
            .as_deref()
            .is_some_and(|media| crate::exchange::is_json(&crate::exchange::media_type(media))),
        schema: param.schema.clone(),
        allow_empty: param.allow_empty_value,
        path_style: match (param.location, param.style.as_deref()) {
            (Location::Path, Some("label")) => Some(super::PathStyle::Label {
                explode: param.explode.unwrap_or(false),
            }),
            (Location::Path, Some("matrix")) => Some(super::PathStyle::Matrix {
                explode: param.explode.unwrap_or(false),
            }),
            _ => None,
        },
    })
}

/// Media types without their parameters, in lower case.
fn essences(media_types: &[String]) -> Vec<String> {
    media_types
        .iter()
        .map(|media| crate::exchange::media_type(media))
        .collect()
}

/// How many spellings of one server URL [`server_paths`] gives at most.
const SERVER_SPELLINGS: usize = 32;

/// A server URL template as written (each variable of its path one segment, any value), and
/// with the variables of its path replaced by their default and by each value they allow:
/// a variable may stand for several segments (`/{basePath}` with default `api/v2`).
fn server_paths(server: &manifest::Server) -> Vec<String> {
    let url = server.url.as_str();
    // The path begins at the first `/` after the scheme and host (`{origin}/v1`,
    // `https://{host}/{base}`, `/{base}`), or at a variable glued to the host whose default
    // is a path (eBay's `https://api.ebay.com{basePath}`); variables before it name a
    // deployment.
    let path_start = specgen::ir::server_path_start(url, |name| {
        server
            .variables
            .get(name)
            .is_some_and(|variable| variable.default.starts_with('/'))
    });
    let (head, path) = url.split_at(path_start);
    // A variable glued to the host begins a segment of its own.
    let path = match path.starts_with('{') {
        true => format!("/{path}"),
        false => path.to_string(),
    };
    let mut paths = vec![path.clone()];
    for (name, variable) in &server.variables {
        let placeholder = format!("{{{name}}}");
        if !path.contains(&placeholder) {
            continue;
        }
        let mut values: Vec<&str> = vec![variable.default.as_str()];
        for value in &variable.allowed {
            if !values.contains(&value.as_str()) {
                values.push(value);
            }
        }
        let mut spelled = Vec::new();
        let mut every_value = true;
        for path in &paths {
            for value in &values {
                if paths.len() + spelled.len() >= SERVER_SPELLINGS {
                    every_value = false;
                    break;
                }
                spelled.push(path.replace(&placeholder, value.trim_matches('/')));
            }
        }
        paths.extend(spelled);
        // A variable with an `enum` stands for those values alone (`/v2/…` is not under
        // `/{version}` with `enum: [v1, stage]`), once each is spelled out.
        if !variable.allowed.is_empty() && every_value {
            paths.retain(|path| !path.contains(&placeholder));
        }
    }
    paths
        .into_iter()
        .map(|path| format!("{head}{path}"))
        .collect()
}

/// Every declared scheme, with where its credential travels; `None` for one traffic cannot
/// show (mutual TLS, a type this version does not know), which a requirement then does not
/// ask for.
///
/// An `http` scheme asks for its scheme word too; OAuth 2 and OpenID Connect do not, since
/// APIs that declare them accept tokens in schemes of their own (`token …`) as well as
/// `Bearer`.
fn security_schemes(manifest: &Manifest) -> HashMap<String, Option<Credential>> {
    manifest
        .security_schemes
        .iter()
        .map(|(key, scheme)| {
            let authorization = |scheme: Option<String>| Credential {
                location: Location::Header,
                name: "authorization".to_string(),
                bearer: scheme.as_deref().is_none_or(|word| word == "bearer"),
                scheme,
            };
            let credential = match scheme.kind.as_str() {
                "apiKey" => scheme
                    .location
                    .zip(scheme.name.as_deref())
                    .map(|(location, name)| Credential {
                        location,
                        // A header's name in any case; a query parameter's and a cookie's as
                        // written, since they are matched as sent (`mercureAuthorization`).
                        name: match location {
                            Location::Header => name.to_ascii_lowercase(),
                            _ => name.to_string(),
                        },
                        scheme: None,
                        bearer: false,
                    }),
                "http" => Some(authorization(
                    scheme
                        .scheme
                        .as_deref()
                        .map(str::trim)
                        .filter(|word| !word.is_empty() && !word.contains(' '))
                        .map(str::to_ascii_lowercase),
                )),
                "oauth2" | "openIdConnect" => Some(authorization(None)),
                _ => None,
            };
            (key.clone(), credential)
        })
        .collect()
}

/// Whether a schema accepts every JSON value: `true`, or an object of nothing but
/// annotations (`description`, `examples`, `$defs`, `x-…`, …).
/// Whether a body's schema is a file's bytes: a string of `format: binary` (OpenAPI 3.0's way,
/// and 3.1's where documents keep it).
fn is_bytes(file: &Value) -> bool {
    // A component's (`$ref` to its copy under `$defs`).
    let schema = file
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|target| target.strip_prefix("#/$defs/"))
        .and_then(|name| file.get("$defs")?.get(name))
        .unwrap_or(file);
    schema.get("format").and_then(Value::as_str) == Some("binary")
        && schema.get("type").is_none_or(|ty| {
            ty == "string"
                || ty
                    .as_array()
                    .is_some_and(|types| types.iter().any(|t| t == "string"))
        })
}

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
    schemes: &HashMap<String, Option<Credential>>,
    schemas: &rustc_hash::FxHashMap<String, SchemaFile>,
) -> Result<OperationSpec, ContractError> {
    let invalid = |message: String| ContractError::Invalid {
        path: "manifest.json".into(),
        message,
    };
    let id = entry.key().to_string();
    let mut parameters = Vec::new();
    for param in &entry.parameters {
        let place = format!("manifest.json ({id} parameter {})", param.name);
        parameters.push(parameter_spec(param, &place)?);
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
        other_content_types: essences(&body.other_content_types),
        same_schema_content_types: essences(&body.same_schema_content_types),
        field_schemas: media_files(&body.field_schemas),
        json_schemas: media_files(&body.json_schemas),
        schema: Some(body.schema.clone()),
        bytes: schemas
            .get(&body.schema)
            .is_some_and(|file| is_bytes(&file.written)),
        form_encoding: specgen::form::Encoding::of(body),
    });
    let mut responses = Vec::new();
    for (key, response) in &entry.responses {
        let mut headers = Vec::new();
        for header in &response.headers {
            let place = format!("manifest.json ({id} response {key} header {})", header.name);
            headers.push(parameter_spec(header, &place)?);
        }
        responses.push(ResponseSpec {
            key: key.clone(),
            body: BodySpec {
                // A schema that accepts every JSON value (the spec's "not shown") says
                // nothing the absence of a body could break.
                required: response
                    .schema
                    .as_ref()
                    .and_then(|path| schemas.get(path))
                    .is_some_and(|file| !accepts_anything(&file.written)),
                content_type: response.content_type.clone(),
                other_content_types: essences(&response.other_content_types),
                same_schema_content_types: Vec::new(),
                field_schemas: Vec::new(),
                json_schemas: media_files(&response.json_schemas),
                schema: response.schema.clone(),
                bytes: response
                    .schema
                    .as_ref()
                    .and_then(|path| schemas.get(path))
                    .is_some_and(|file| is_bytes(&file.written)),
                form_encoding: Default::default(),
            },
            example_codes: response.example_codes.clone(),
            headers,
        });
    }
    let mut base_paths: Vec<BasePath> = Vec::new();
    for url in &entry.servers {
        let base = BasePath::of(url);
        if !base_paths.contains(&base) {
            base_paths.push(base);
        }
    }
    // A parameter written as it is (`x-ms-skip-url-encoding`) fills as many segments as it
    // has, as the generated server reads it.
    let template = specgen::path::spanning_template(&entry.path, |name| {
        entry.parameters.iter().any(|param| {
            param.location == Location::Path && param.allow_reserved && param.name == name
        })
    });
    Ok(OperationSpec {
        segments: segments(&template),
        slashed: specgen::path::slashed_template(&template),
        asks: specgen::path::asks(&entry.path, |name| {
            entry.parameters.iter().any(|param| match param.location {
                Location::Query => param.name == name,
                Location::Header => param.name.eq_ignore_ascii_case(name),
                Location::Path | Location::Cookie => false,
            })
        }),
        base_paths,
        id,
        method: entry.method.to_ascii_uppercase(),
        path: entry.path.clone(),
        parameters,
        security,
        request_body,
        responses,
        delivered_anywhere: entry.delivered_anywhere,
        name: entry.name.clone(),
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

/// Parameters that carry a credential although no security scheme says so: Discourse's
/// document declares its `Api-Key` header as an ordinary parameter of each operation. Named
/// as a key, a token, a secret or a password (`Api-Key`, `X-Auth-Token`, `client_secret`), or
/// `format: password`; their values are kept out of reports and recordings as a scheme's are.
fn credential_parameters(
    operations: &[OperationSpec],
    webhooks: &[OperationSpec],
) -> Vec<(Location, String)> {
    let mut found: Vec<(Location, String)> = Vec::new();
    for param in operations
        .iter()
        .chain(webhooks)
        .flat_map(|op| &op.parameters)
    {
        let credential = crate::secrets::names_a_credential(&param.name)
            || param.schema.get("format").and_then(Value::as_str) == Some("password");
        let placed = !matches!(param.location, Location::Path);
        let entry = (param.location, param.name.clone());
        if credential && placed && !found.contains(&entry) {
            found.push(entry);
        }
    }
    found
}

/// A manifest's contract files by media type as written, by media type without parameters
/// in lower case, as the checks compare them.
fn media_files(files: &BTreeMap<String, String>) -> Vec<(String, String)> {
    files
        .iter()
        .map(|(media, file)| (crate::exchange::media_type(media), file.clone()))
        .collect()
}
