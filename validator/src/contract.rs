//! The contract: the JSON Schemas and manifest specgen writes under `schemas/`, every schema
//! compiled once (draft 2020-12, formats checked), and the manifest read into operations that
//! traffic can be matched against.
//!
//! Here the types and what the contract holds; `load.rs` reads and compiles it, `matching.rs`
//! matches methods and paths to operations and webhooks, `violations.rs` checks instances
//! against its schemas.

mod load;
mod matching;
mod violations;
pub(crate) use violations::{Judged, violation, without_echoes};

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::OnceLock;

use jsonschema::Validator;
use serde_json::Value;
use specgen::manifest::{self, Manifest, ValueKind};

pub use specgen::manifest::ObjectStyle;

use matching::{BasePath, Segment};

use crate::in_place::InPlace;
pub use matching::{Match, delivered_at};
pub use violations::Violation;

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
    #[error("no schema named '{name}' in the contract ({hint})")]
    UnknownSchema {
        /// The name asked for.
        name: String,
        /// Names this contract does have, the closest first ([`Contract::naming_hint`]).
        hint: String,
    },
}

/// Where a parameter or credential travels: the manifest's own type.
pub use specgen::manifest::Location;

/// One credential a security requirement asks for: where it travels, and for an HTTP
/// authentication scheme (`http` with `scheme: basic`), the scheme word its `Authorization`
/// value must start with (RFC 9110 §11.4: case-insensitive).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credential {
    /// Where it travels.
    pub location: Location,
    /// The header, query parameter or cookie name (a header's in lower case).
    pub name: String,
    /// The authentication scheme (`basic`, `bearer`, `digest`), for an `http` scheme.
    pub scheme: Option<String>,
    /// A bearer token (OAuth 2, OpenID Connect, `http` `bearer`), which RFC 6750 (2.3) lets a
    /// client send as the query parameter `access_token` instead (Google's documents declare
    /// it on every operation).
    pub bearer: bool,
}

impl Credential {
    /// Whether `text`, the value sent, presents this credential: not blank, and in its
    /// scheme, followed by something, when it has one (`Basic dXNlcjpwdw==`, not
    /// `Bearer eyJ…`).
    pub fn presented_by(&self, text: &str) -> bool {
        specgen::manifest::presents_credential(text, self.scheme.as_deref())
    }

    /// [`Credential::presented_by`], where `declared` are the document's `http` scheme words
    /// ([`Contract::http_scheme_words`]): a token in any scheme is none of them alone.
    pub fn presented_beside(&self, text: &str, declared: &[String]) -> bool {
        specgen::manifest::presents_credential_beside(text, self.scheme.as_deref(), declared)
    }

    /// Whether the request's query carries this bearer credential as RFC 6750 (2.3) allows:
    /// a non-blank `access_token` (or `oauth_token`, which Google's documents declare beside
    /// it).
    pub fn in_query(&self, query: &[(String, String)]) -> bool {
        self.bearer
            && query
                .iter()
                .any(|(key, value)| is_bearer_query_key(key) && !value.trim().is_empty())
    }
}

/// Whether a query key is one a bearer token travels in: `access_token` (RFC 6750, 2.3), or
/// `oauth_token`, which Google's documents declare beside it.
pub fn is_bearer_query_key(key: &str) -> bool {
    matches!(key, "access_token" | "oauth_token")
}

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
    /// For a parameter whose schema is an array: how each item's text becomes JSON.
    pub items: Option<ValueKind>,
    /// For a parameter one alternative of whose schema is an array (and the schema not):
    /// how each item's text becomes JSON when it carries a list.
    pub alternative_items: Option<ValueKind>,
    /// For a parameter whose schema is an array: how its items travel (the rule the
    /// generated server and client share).
    pub list_form: manifest::ListForm,
    /// For a query parameter whose schema is an object: how its members travel.
    pub object: Option<ObjectStyle>,
    /// Its value is a JSON text (`content: {application/json: …}` instead of a schema).
    pub json: bool,
    /// A query parameter that may be sent with an empty value (`allowEmptyValue: true`).
    pub allow_empty: bool,
    /// A path parameter's `label` or `matrix` style (`.3,4`, `;id=3`), which the path
    /// segment carries around its value; `None` for the `simple` default.
    pub path_style: Option<PathStyle>,
}

/// A path parameter's style other than `simple`, with its `explode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathStyle {
    /// `.value`; a list `.a,b`, or `.a.b` exploded.
    Label {
        /// `explode: true`.
        explode: bool,
    },
    /// `;name=value`; a list `;name=a,b`, or `;name=a;name=b` exploded.
    Matrix {
        /// `explode: true`.
        explode: bool,
    },
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
    /// The other media types documented for it (without parameters, lower case); the schema
    /// is the one of `content_type`.
    pub other_content_types: Vec<String>,
    /// Those of `other_content_types` documented with the very schema of `content_type` (a
    /// form and `multipart/form-data` beside JSON): a body made of fields sent as one of them
    /// is read by that schema.
    pub same_schema_content_types: Vec<String>,
    /// The other form and multipart media types (without parameters, lower case) documented
    /// with a schema of their own, and the contract file of that schema.
    pub field_schemas: Vec<(String, String)>,
    /// The other JSON media types (without parameters, lower case) documented with a schema
    /// of their own (JSON Merge Patch beside JSON, GeoJSON beside plain JSON), and the
    /// contract file of that schema: a body sent in one of them is judged by its schema.
    pub json_schemas: Vec<(String, String)>,
    /// Contract file of its schema.
    pub schema: Option<String>,
    /// Its schema is a file's bytes (`type: string, format: binary`): documented under a range
    /// (`*/*`), a body is never read as JSON because it is some (a JSON file downloaded).
    pub bytes: bool,
    /// How a form's `encoding` sends some of its fields (delimited lists, JSON values).
    pub form_encoding: specgen::form::Encoding,
}

impl BodySpec {
    /// The body's rule for one sent as `sent` (without parameters, lower case): where that is
    /// another JSON media type documented with a schema of its own, the same rule with that
    /// schema; else this one. A body is judged by the schema of the media type it came in,
    /// not by the first one the message documents.
    ///
    /// `sent` is asked only where another JSON type has a schema of its own: most messages
    /// document none, and a live check reads the media type of every exchange.
    pub(crate) fn in_media(
        &self,
        sent: impl FnOnce() -> Option<String>,
    ) -> std::borrow::Cow<'_, BodySpec> {
        use std::borrow::Cow;
        if self.json_schemas.is_empty() {
            return Cow::Borrowed(self);
        }
        let sent = sent();
        let own = sent.as_deref().and_then(|sent| {
            self.json_schemas
                .iter()
                .find(|(media, _)| media == sent)
                .map(|(_, schema)| schema)
        });
        match own {
            Some(schema) => Cow::Owned(BodySpec {
                schema: Some(schema.clone()),
                bytes: false,
                ..self.clone()
            }),
            None => Cow::Borrowed(self),
        }
    }

    /// Whether a body sent as `sent` (without parameters, lower case) is in a documented
    /// media type the contract has no schema for: another media type of the message (XML
    /// beside JSON), or a non-JSON one within a documented range (`text/plain` where `*/*`
    /// is documented). Such a body is checked for presence only.
    pub(crate) fn sent_in_another_media(&self, sent: impl FnOnce() -> Option<String>) -> bool {
        use crate::exchange::{is_json, media_fits};
        let Some(documented) = self.content_type.as_deref() else {
            return false;
        };
        // Most messages document one media type, exactly: nothing to look up then.
        if self.other_content_types.is_empty() && !documented.contains('*') {
            return false;
        }
        let Some(sent) = sent() else {
            return false;
        };
        let documented = crate::exchange::media_type(documented);
        if documented.ends_with("/*") {
            return !is_json(&sent) && media_fits(&documented, &sent);
        }
        // Another JSON type of the message is read with the JSON schema, as the contract has
        // one schema per body.
        if is_json(&documented) && is_json(&sent) {
            return false;
        }
        !media_fits(&documented, &sent)
            && self
                .other_content_types
                .iter()
                .any(|other| media_fits(other, &sent))
    }
}

/// A documented response.
pub struct ResponseSpec {
    /// `201`, `2XX` or `default`.
    pub key: String,
    /// Its body, if one is documented.
    pub body: BodySpec,
    /// Error codes the spec's examples show for it.
    pub example_codes: Vec<String>,
    /// The headers it documents.
    pub headers: Vec<ParameterSpec>,
}

impl fmt::Debug for ResponseSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<&str> = self.headers.iter().map(|h| h.name.as_str()).collect();
        f.debug_struct("ResponseSpec")
            .field("key", &self.key)
            .field("body", &self.body)
            .field("example_codes", &self.example_codes)
            .field("headers", &headers)
            .finish()
    }
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
    /// The template as if each parameter might hold `/`, for a path no template fits as
    /// written ([`specgen::path::slashed_template`]).
    slashed: Option<String>,
    /// What the template's `?query` or `#name=value` fragment asks of a request, for the specs
    /// that tell operations on one path apart so (see [`specgen::path::asks`]).
    asks: Vec<(String, Option<String>)>,
    /// Where this operation alone is served (its own or its path's `servers`); empty when at
    /// the API's base paths.
    base_paths: Vec<BasePath>,
    /// Parameters.
    pub parameters: Vec<ParameterSpec>,
    /// Security requirements: one satisfied is enough; empty means open.
    pub security: Vec<Vec<Credential>>,
    /// The request body, when the operation takes one.
    pub request_body: Option<BodySpec>,
    /// Documented responses.
    pub responses: Vec<ResponseSpec>,
    /// A webhook whose delivery path the spec does not give: known by its payload instead.
    pub delivered_anywhere: bool,
    /// A webhook's name under `webhooks` (or its callback's), which a payload may give as
    /// its event type (Adyen's `type`); `None` for an operation.
    pub name: Option<String>,
}

impl OperationSpec {
    /// Whether a JSON payload gives this webhook's name as one of its members' values
    /// (`{"type": "balancePlatform.transfer.updated", …}`): of several webhooks of one schema
    /// delivered to one URL, the one it is.
    pub fn named_by(&self, payload: &serde_json::Value) -> bool {
        let Some(name) = self.name.as_deref() else {
            return false;
        };
        payload
            .as_object()
            .is_some_and(|members| members.values().any(|member| member.as_str() == Some(name)))
    }

    /// Whether a query key is one the operation documents: a query parameter's name, a
    /// member of a `deepObject` or list parameter written with brackets (`filter[name]`,
    /// `expand[]`), a member of an exploded object parameter, or what the path template
    /// asks for. Any key is, where a free-form object parameter travels exploded (its
    /// members cannot be told from other keys).
    pub(crate) fn documents_query_key(&self, key: &str) -> bool {
        let asked = self.asks.iter().any(|(name, _)| name == key);
        asked
            || self
                .parameters
                .iter()
                .filter(|param| param.location == Location::Query)
                .any(|param| {
                    let bracketed = key
                        .strip_prefix(param.name.as_str())
                        .is_some_and(|rest| rest.starts_with('['));
                    param.name == key
                        || bracketed
                        || match &param.object {
                            Some(ObjectStyle::Exploded(names)) => {
                                names.is_empty() || names.iter().any(|name| name == key)
                            }
                            _ => false,
                        }
                })
    }

    /// The list query parameter a key names with brackets (`ids[]`, `ids[0]`), as Rails, PHP
    /// and `qs` send a list: see [`specgen::manifest::bracketed_list`].
    pub(crate) fn bracketed_list(&self, key: &str) -> Option<&str> {
        let query = self
            .parameters
            .iter()
            .filter(|param| param.location == Location::Query)
            .map(|param| {
                let list = param.object.is_none()
                    && (param.items.is_some() || param.alternative_items.is_some());
                (param.name.as_str(), list)
            });
        specgen::manifest::bracketed_list(key, query)
    }

    /// The documented response for a status: exact code, then class, then `default`.
    pub fn response(&self, status: u16) -> Option<&ResponseSpec> {
        let find = |fits: &dyn Fn(&str) -> bool| self.responses.iter().find(|r| fits(&r.key));
        // Compared without formatting the status: this runs for every exchange. A key is
        // three characters: `404`, `4XX`.
        let three_digits = status < 1000;
        let (hundreds, rest) = (b'0' + (status / 100 % 10) as u8, status % 100);
        let exact = |key: &str| {
            three_digits
                && key.len() == 3
                && key.as_bytes()[0] == hundreds
                && key[1..].parse::<u16>() == Ok(rest)
                && key[1..].bytes().all(|b| b.is_ascii_digit())
        };
        let class = |key: &str| {
            three_digits
                && key.len() == 3
                && key.as_bytes()[0] == hundreds
                && key[1..].eq_ignore_ascii_case("XX")
        };
        find(&exact)
            .or_else(|| find(&class))
            .or_else(|| find(&|key| key.eq_ignore_ascii_case("default")))
    }
}

/// Headers that carry this API's credentials, whatever a contract declares.
pub const CREDENTIAL_HEADERS: &[&str] = &["public-api-key", "private-secret-key"];

/// One schema file of the contract.
pub(crate) struct SchemaFile {
    /// As written: self-contained, or referring to a definitions document.
    written: Value,
    /// Read as one self-contained schema and compiled, on first use.
    compiled: OnceLock<Result<Compiled, String>>,
    /// The same schema compiled for bodies read in place ([`Contract::conforms`]), on first
    /// use: only live checks ask, and only of the schemas their traffic reaches.
    in_place: OnceLock<Option<Validator<InPlace>>>,
}

impl SchemaFile {
    fn new(written: Value) -> SchemaFile {
        SchemaFile {
            written,
            compiled: OnceLock::new(),
            in_place: OnceLock::new(),
        }
    }
}

/// A schema file read as one self-contained schema, compiled.
pub(crate) struct Compiled {
    schema: Value,
    validator: Validator,
    /// Prepared for the drift walk.
    plan: crate::drift::Plan,
}

/// Schema files, compiled on first use, and the operations of the manifest.
pub struct Contract {
    /// Looked up on every live check (twice per body): Fx rather than SipHash, since the keys
    /// are the contract's own paths, not input an attacker chooses.
    schemas: rustc_hash::FxHashMap<String, SchemaFile>,
    /// The shared layout's definitions documents, by path (none in a self-contained contract).
    definition_texts: HashMap<String, String>,
    /// The same, each parsed when a schema file first needs it.
    definitions: specgen::definitions::Definitions,
    manifest: Manifest,
    base_paths: Vec<BasePath>,
    /// The base paths of operations served elsewhere than the API, each once.
    operation_base_paths: Vec<BasePath>,
    /// Where credentials travel: the declared security schemes, and the API's two headers.
    credentials: Vec<(Location, String)>,
    operations: Vec<OperationSpec>,
    webhooks: Vec<OperationSpec>,
    /// What specgen warned about while making the contract from a document (a keyword it
    /// repaired away, a member it left out), each with its pointer, line and column.
    spec_warnings: Vec<String>,
    /// The API's hosts, lower case, when the user named them (`--host`).
    api_hosts: Vec<String>,
    /// The words of the document's `http` security schemes, each once.
    http_scheme_words: Vec<String>,
}

impl std::fmt::Debug for Contract {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Contract")
            .field("schemas", &self.schemas.len())
            .field("operations", &self.operations.len())
            .field("webhooks", &self.webhooks.len())
            .finish_non_exhaustive()
    }
}
impl Contract {
    /// The manifest: operations and webhooks with their rules.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// What specgen warned about while making this contract from a document
    /// ([`Contract::from_spec`]): the contract enforces less than the document says there
    /// (`type: strin`, repaired away), so a user must be told. Empty for a contract read
    /// from files.
    pub fn spec_warnings(&self) -> &[String] {
        &self.spec_warnings
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

    /// The words of the document's `http` security schemes (`basic`, `bearer`, a custom
    /// `HMAC-SHA256`), each once: alone, a value of one is no credential.
    pub fn http_scheme_words(&self) -> &[String] {
        &self.http_scheme_words
    }

    /// Whether `name` is a credential's name in any place a security scheme may put one (any
    /// case): a key sent in the query or a cookie although its scheme says header is still a
    /// key, and is kept out of reports and recordings all the same.
    pub fn names_credential(&self, name: &str) -> bool {
        self.credentials
            .iter()
            .any(|(_, credential)| credential.eq_ignore_ascii_case(name))
    }

    /// Whether a security scheme (or a credential parameter) of the contract sends a credential
    /// in the query under `key` (any case). One documented in a header or a cookie and sent in
    /// the query (ElevenLabs' `xi-api-key` in the URL) is still masked, as [`names_credential`]
    /// says, but is not where the contract puts it.
    ///
    /// [`names_credential`]: Contract::names_credential
    pub(crate) fn documents_query_credential(&self, key: &str) -> bool {
        self.credentials.iter().any(|(location, credential)| {
            *location == Location::Query && credential.eq_ignore_ascii_case(key)
        })
    }

    /// The `(METHOD, path template)` pairs at which notifications are delivered, as the traffic
    /// readers take them (see [`delivered_at`]).
    pub fn webhook_paths(&self) -> Vec<(String, String)> {
        self.webhooks
            .iter()
            .map(|hook| (hook.method.clone(), hook.path.clone()))
            .collect()
    }

    /// Paths of every schema, under `schemas/`, sorted (the definitions documents of the
    /// shared layout are not schemas a message is checked against, and are left out).
    pub fn schema_paths(&self) -> Vec<&str> {
        let mut paths: Vec<&str> = self.schemas.keys().map(String::as_str).collect();
        paths.sort_unstable();
        paths
    }

    /// A schema file prepared for [`crate::drift`]; `None` for an unknown one, or one that
    /// does not compile.
    pub fn drift_plan(&self, path: &str) -> Option<&crate::drift::Plan> {
        self.compiled(path).ok().map(|compiled| &compiled.plan)
    }

    /// A schema file as one self-contained schema: as written, or, in the shared layout,
    /// with the components it needs from the definitions under its own `$defs`.
    pub fn schema(&self, path: &str) -> Option<&Value> {
        self.compiled(path).ok().map(|compiled| &compiled.schema)
    }

    /// What to say when no schema is called `name`: the components whose names come
    /// closest, or a few of them when none does, and the form of an operation's file, all of
    /// this contract (a contract made with `--spec` has other names than the built-in one).
    pub fn naming_hint(&self, name: &str) -> String {
        let wanted = name.to_ascii_lowercase();
        let mut close: Vec<(f64, &str)> = self
            .manifest
            .components
            .keys()
            .map(|component| {
                let likeness = strsim::jaro_winkler(&wanted, &component.to_ascii_lowercase());
                (likeness, component.as_str())
            })
            .filter(|(likeness, _)| *likeness >= 0.85)
            .collect();
        close.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        let quoted = |names: Vec<&str>| {
            names
                .iter()
                .map(|name| format!("'{name}'"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut hint = if close.is_empty() {
            let some: Vec<&str> = self
                .manifest
                .components
                .keys()
                .take(3)
                .map(String::as_str)
                .collect();
            if some.is_empty() {
                "it has no component schemas".to_string()
            } else {
                format!("its components include {}", quoted(some))
            }
        } else {
            format!(
                "did you mean {}?",
                quoted(close.into_iter().take(3).map(|(_, n)| n).collect())
            )
        };
        let operation = self
            .schemas
            .keys()
            .filter(|path| path.starts_with("operations/"))
            .min();
        if let Some(path) = operation {
            hint.push_str(&format!(
                "; a schema file is named by its path, such as '{path}'"
            ));
        }
        hint
    }

    /// The path of a schema given by component name (`Account`, `Order Line`: the file the
    /// manifest names for it) or by path.
    pub fn resolve(&self, name: &str) -> Option<&str> {
        let listed = self.manifest.components.get(name).cloned();
        listed
            .into_iter()
            .chain([
                name.to_string(),
                format!("components/{name}.json"),
                format!("{name}.json"),
            ])
            .find_map(|c| {
                self.schemas
                    .get_key_value(c.as_str())
                    .map(|(k, _)| k.as_str())
            })
    }
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
    fn a_status_finds_its_code_then_its_class_then_default() {
        let contract = with_manifest(|m| {
            let responses = m["operations"][0]["responses"].as_object_mut().unwrap();
            let documented = responses["200"].clone();
            responses.clear();
            for key in ["200", "2xx", "4XX", "404", "default"] {
                responses.insert(key.to_string(), documented.clone());
            }
        })
        .unwrap();
        let op = &contract.operations()[0];
        let key = |status| op.response(status).map(|r| r.key.as_str());
        assert_eq!(key(200), Some("200"));
        assert_eq!(key(201), Some("2xx"));
        assert_eq!(key(299), Some("2xx"));
        assert_eq!(key(404), Some("404"));
        assert_eq!(key(400), Some("4XX"));
        assert_eq!(key(500), Some("default"));
        assert_eq!(key(20), Some("default"));
        assert_eq!(key(2000), Some("default"));
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
    fn a_notification_is_delivered_at_the_end_of_its_path_template() {
        let at =
            |template: &str, method: &str, path: &str| delivered_at("POST", template, method, path);
        let transfers = "/v1/banking/transfers";
        assert!(at(transfers, "post", "/v1/banking/transfers"));
        assert!(at(transfers, "POST", "/hooks/v1/banking/transfers"));
        // A trailing `/` is another path, as for an operation.
        assert!(!at(transfers, "POST", "/hooks/v1/banking/transfers/"));
        assert!(!at(transfers, "GET", "/v1/banking/transfers"));
        assert!(!at(transfers, "POST", "/xv1/banking/transfers"));
        assert!(!at(transfers, "POST", "v1/banking/transfers"));
        assert!(!at(transfers, "POST", "/v1/banking"));
        let templated = "/hooks/{tenant}/events";
        assert!(at(templated, "POST", "/base/hooks/t-1/events"));
        assert!(!at(templated, "POST", "/hooks//events"));
        assert!(!at(templated, "POST", "/hooks/t-1/other"));
    }

    #[test]
    fn an_unknown_schema_name_is_an_error() {
        assert!(matches!(
            contract().validate("Nope", &json!({}), false),
            Err(ContractError::UnknownSchema { .. })
        ));
    }

    #[test]
    fn an_unknown_schema_name_is_answered_with_names_of_this_contract() {
        let contract = contract();
        let message = |name: &str| {
            contract
                .validate(name, &json!({}), false)
                .unwrap_err()
                .to_string()
        };
        // A slip of the keyboard: the component meant, first.
        let hint = message("Acount");
        assert!(hint.contains("did you mean 'Account'"), "{hint}");
        // Nothing close: names the contract has, and the form of an operation's file.
        let hint = message("Zzzzzz");
        assert!(hint.contains("its components include '"), "{hint}");
        assert!(hint.contains("operations/"), "{hint}");
        let named: Vec<&str> = hint.split('\'').skip(3).step_by(2).collect();
        for name in named.iter().filter(|name| !name.starts_with("operations/")) {
            assert!(contract.resolve(name).is_some(), "{name} in {hint}");
        }
    }
}
