//! The intermediate representation: everything the emitters need, and nothing of the raw
//! document. Built by [`build`] from a loaded [`crate::load::Document`]; every Rust name in it
//! has already been chosen by the single naming pass in [`naming`], so emitters never invent
//! or sanitise names themselves.

pub mod build;
pub mod error_envelope;
pub(crate) mod inheritance;
pub mod naming;
mod operations;
mod schema;
pub mod tag_features;
mod types;

use serde_json::Value;

pub use operations::*;
pub use types::*;

/// A whole API, ready for the emitters. Types are sorted by Rust name and operations by
/// path then method, so every emitter's output is deterministic.
#[derive(Debug, Clone, PartialEq)]
pub struct Api {
    /// Package name of the generated crate: the caller's choice, else `info.x-crate-name`,
    /// else the kebab-case of `info.title`.
    pub crate_name: String,
    /// `info.title` of the document.
    pub title: String,
    /// `info.version` of the document.
    pub version: String,
    /// `info.description`, if any.
    pub description: Option<String>,
    /// Every named type: component schemas and inline schemas named from their context.
    pub types: Vec<TypeDef>,
    /// Every operation under `paths`.
    pub operations: Vec<Operation>,
    /// Every operation under `webhooks` (requests the API sends to its users).
    pub webhooks: Vec<Webhook>,
    /// `components/securitySchemes` that the generated code can enforce or send.
    pub security_schemes: Vec<SecurityScheme>,
    /// The credentials a client sends and a server checks: each scheme the generated code
    /// can carry that some operation asks for, in scheme order.
    pub credentials: Vec<Credential>,
    /// `servers`, with their variables.
    pub servers: Vec<Server>,
    /// Component schemas as JSON Schema (draft 2020-12), normalised to OpenAPI 3.1 form and
    /// keyed by component name; the contract emitter bundles them.
    pub schemas: Vec<(String, Value)>,
    /// Examples written on inline or nested schemas (a property's, a body's own schema),
    /// each with that schema (in contract form) and the Rust type at that place.
    pub schema_examples: Vec<SchemaExample>,
    /// What specgen chose where the document is ambiguous or contradicts itself (duplicate
    /// operation ids, an `allOf` nothing can satisfy, …), in document order.
    pub warnings: Vec<Warning>,
    /// The cargo feature of each operation and type, when operations are put behind per-tag
    /// features (see [`tag_features`]); `None` compiles everything.
    pub tag_features: Option<tag_features::TagFeatures>,
}

/// A choice specgen made about a place in the document that its author may want to revisit.
/// Generation goes on; the CLI prints these on stderr and the build step as cargo warnings.
#[derive(Debug, Clone, PartialEq)]
pub struct Warning {
    /// JSON pointer of the place.
    pub pointer: String,
    /// 1-based line and column of that place in the source, when known.
    pub location: Option<(usize, usize)>,
    /// What was found and what specgen did about it.
    pub message: String,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.pointer, self.message)?;
        if let Some((line, column)) = self.location {
            write!(f, " (line {line}, column {column})")?;
        }
        Ok(())
    }
}

impl Warning {
    /// The warnings as lines a person reads: each message once, at its first place, with the
    /// number of other places that say the same and the first few of them. Trello documents
    /// its key and token as parameters of each of its 300 operations: 600 lines that buried
    /// the one warning that mattered. Order is the first place of each message.
    pub fn summarized(warnings: &[Warning]) -> Vec<String> {
        /// How many of the other places a summary names.
        const NAMED: usize = 3;
        let mut groups: Vec<(&Warning, Vec<&str>)> = Vec::new();
        let mut by_message: std::collections::HashMap<&str, usize> =
            std::collections::HashMap::new();
        for warning in warnings {
            match by_message.get(warning.message.as_str()) {
                Some(&group) => groups[group].1.push(&warning.pointer),
                None => {
                    by_message.insert(&warning.message, groups.len());
                    groups.push((warning, Vec::new()));
                }
            }
        }
        groups
            .into_iter()
            .map(|(first, others)| match others.len() {
                0 => first.to_string(),
                count => {
                    let named = others[..count.min(NAMED)].join(", ");
                    let rest = if count > NAMED { ", …" } else { "" };
                    let places = if count == 1 { "place" } else { "places" };
                    format!("{first}; the same at {count} more {places}: {named}{rest}")
                }
            })
            .collect()
    }
}

/// An example on an inline or nested schema.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaExample {
    /// The example and its pointer.
    pub example: Example,
    /// The schema at that place, as JSON Schema with refs to components.
    pub schema: Value,
    /// The Rust type at that place (before the naming pass: refs by pointer; after: by name).
    pub ty: TypeRef,
}

/// A credential the generated code sends and checks (see [`Api::credentials`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Credential {
    /// The scheme.
    pub scheme: SecurityScheme,
    /// Where the value travels and under which name (`Authorization` for bearer tokens).
    pub location: ParamLocation,
    /// Header, query parameter or cookie name.
    pub name: String,
    /// Whether every secured operation asks for it, so the field is not an `Option`.
    pub required: bool,
}

/// A security scheme the generated code knows how to send and check.
#[derive(Debug, Clone, PartialEq)]
pub struct SecurityScheme {
    /// Key under `components/securitySchemes`.
    pub key: String,
    /// Rust identifier (snake_case) for the credential.
    pub rust_name: String,
    /// How the credential travels.
    pub kind: SecurityKind,
    /// Documentation.
    pub docs: Option<String>,
}

/// How a credential travels.
#[derive(Debug, Clone, PartialEq)]
pub enum SecurityKind {
    /// An API key in a header, query parameter or cookie, by name.
    ApiKey {
        /// Header, query parameter or cookie name.
        name: String,
        /// Where it travels.
        location: ParamLocation,
    },
    /// `Authorization: Bearer <token>`.
    Bearer,
    /// `Authorization: Basic …`.
    Basic,
    /// Another HTTP authentication scheme, by the word its `Authorization` value starts with,
    /// as written (Twitter's OAuth 1.0a `OAuth`, `Digest`, a vendor's `payone-hmac-sha256`):
    /// the caller computes the credentials that follow the word.
    Http(String),
    /// Another type: `oauth2` and `openIdConnect`, whose access tokens the generated code
    /// sends as bearer tokens (see [`SecurityKind::is_bearer_token`]), or one it does not send
    /// itself (`mutualTLS`).
    Other(String),
}

impl SecurityKind {
    /// Whether the credential is a token sent as `Authorization: Bearer <token>`: an HTTP
    /// bearer scheme, and OAuth 2 and OpenID Connect, whose access tokens travel so (RFC 6750).
    /// Obtaining the token (the flows) is the caller's part.
    pub fn is_bearer_token(&self) -> bool {
        match self {
            SecurityKind::Bearer => true,
            SecurityKind::Other(kind) => kind == "oauth2" || kind == "openIdConnect",
            SecurityKind::ApiKey { .. } | SecurityKind::Basic | SecurityKind::Http(_) => false,
        }
    }
}

/// A server of the API.
#[derive(Debug, Clone, PartialEq)]
pub struct Server {
    /// URL template, e.g. `{origin}/v1`.
    pub url: String,
    /// Description.
    pub description: Option<String>,
    /// Variables with their defaults and descriptions.
    pub variables: Vec<ServerVariable>,
}

/// A variable of a server URL template.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerVariable {
    /// Name in the template.
    pub name: String,
    /// Default value.
    pub default: String,
    /// Allowed values, when listed.
    pub allowed: Vec<String>,
    /// Description.
    pub docs: Option<String>,
}

impl Api {
    /// Adds to `seen` the names of the types `ty` refers to; with `deep`, also those they are
    /// built of (fields, alternatives, wrapped types), each once.
    pub fn collect_named(
        &self,
        ty: &TypeRef,
        deep: bool,
        seen: &mut std::collections::BTreeSet<String>,
    ) {
        match ty {
            TypeRef::Named(name) => {
                if !seen.insert(name.clone()) || !deep {
                    return;
                }
                let Some(def) = self.type_named(name) else {
                    return;
                };
                match &def.kind {
                    TypeKind::Struct(object) => {
                        for field in &object.fields {
                            self.collect_named(&field.ty, deep, seen);
                        }
                        if let Additional::Typed(value) = &object.additional {
                            self.collect_named(value, deep, seen);
                        }
                    }
                    TypeKind::Union(union) => {
                        for variant in &union.variants {
                            self.collect_named(&variant.ty, deep, seen);
                        }
                    }
                    TypeKind::Newtype(inner) | TypeKind::Alias(inner) => {
                        self.collect_named(inner, deep, seen)
                    }
                    TypeKind::Enum(_) => {}
                }
            }
            TypeRef::Array(inner) | TypeRef::Map(inner) | TypeRef::Nullable(inner) => {
                self.collect_named(inner, deep, seen)
            }
            TypeRef::Scalar(_)
            | TypeRef::Object
            | TypeRef::Any
            | TypeRef::Custom(_)
            | TypeRef::Pointer(_) => {}
        }
    }

    /// The type with this Rust name.
    pub fn type_named(&self, name: &str) -> Option<&TypeDef> {
        self.types.iter().find(|t| t.name == name)
    }

    /// The path prefix the servers share (e.g. `/v1`), taken from the first server URL's
    /// path, its variables replaced by their defaults (`/{basePath}` with default `api/v2` is
    /// `/api/v2`); empty when there is none.
    pub fn base_path(&self) -> String {
        self.servers.first().map(Server::path).unwrap_or_default()
    }
}

impl Server {
    /// Its URL with every variable replaced by its default, when that is an absolute
    /// `http(s)` URL.
    pub fn absolute_url(&self) -> Option<String> {
        let mut url = self.url.clone();
        for variable in &self.variables {
            url = url.replace(&format!("{{{}}}", variable.name), &variable.default);
        }
        let absolute = url.starts_with("https://") || url.starts_with("http://");
        (absolute && !url.contains('{')).then_some(url)
    }

    /// The path of its URL, the variables in it replaced by their defaults.
    pub fn path(&self) -> String {
        let begins_path = |name: &str| {
            self.variables
                .iter()
                .any(|variable| variable.name == name && variable.default.starts_with('/'))
        };
        let start = server_path_start(&self.url, begins_path);
        let mut path = self.url[start..].trim_end_matches('/').to_string();
        // A variable glued to the host begins a segment of its own.
        if path.starts_with('{') {
            path.insert(0, '/');
        }
        for variable in &self.variables {
            let placeholder = format!("{{{}}}", variable.name);
            path = path.replace(&placeholder, variable.default.trim_matches('/'));
        }
        path.trim_end_matches('/').to_string()
    }
}

/// Where the path of a server URL template begins (`{origin}/v1` → at `/v1`, `https://h/x/`
/// → at `/x/`, `//h/x` → at `/x`; the URL's length when it has none): at the first `/` after
/// the scheme and host, or at a variable glued to the host whose default is a path, for which
/// `begins_path` says yes (eBay's `https://api.ebay.com{basePath}`, default
/// `/sell/metadata/v1`). Variables before it name a deployment.
pub fn server_path_start(url: &str, begins_path: impl Fn(&str) -> bool) -> usize {
    // A protocol-relative URL (`//api.example.com/v1`: Swagger 2.0 documents converted
    // without their `schemes` have them) names its host as one with a scheme does.
    let relative = url.starts_with("//");
    if url.starts_with('/') && !relative {
        return 0;
    }
    let after_scheme = url
        .find("://")
        .map_or(if relative { 2 } else { 0 }, |at| at + 3);
    let host = &url[after_scheme..];
    let slash = host.find('/').unwrap_or(host.len());
    let glued = host.match_indices('{').find_map(|(at, _)| {
        let name = host[at + 1..].split_once('}')?.0;
        (at < slash && begins_path(name)).then_some(at)
    });
    after_scheme + glued.unwrap_or(slash)
}

/// The path part of a server URL template (see [`server_path_start`]), without its
/// variables' defaults.
#[cfg(test)]
fn url_path(url: &str) -> String {
    url[server_path_start(url, |_| false)..]
        .trim_end_matches('/')
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::{Server, ServerVariable, Warning, url_path};

    #[test]
    fn a_warning_repeated_at_many_places_is_one_line_that_counts_them() {
        let at = |pointer: &str, message: &str| Warning {
            pointer: pointer.into(),
            location: None,
            message: message.into(),
        };
        let key = "parameter key is the credential of the security scheme api_key";
        let mut warnings: Vec<Warning> = (0..5)
            .map(|n| at(&format!("/paths/~1p{n}/get/parameters/0"), key))
            .collect();
        warnings.insert(1, at("/paths/~1a/get", "two routes are one"));
        warnings.push(at("/paths/~1b/get", "alone"));
        warnings.push(at("/paths/~1c/get", "alone"));
        assert_eq!(
            Warning::summarized(&warnings),
            vec![
                format!(
                    "/paths/~1p0/get/parameters/0: {key}; the same at 4 more places: \
                     /paths/~1p1/get/parameters/0, /paths/~1p2/get/parameters/0, \
                     /paths/~1p3/get/parameters/0, …"
                ),
                "/paths/~1a/get: two routes are one".to_string(),
                "/paths/~1b/get: alone; the same at 1 more place: /paths/~1c/get".to_string(),
            ]
        );
    }

    #[test]
    fn a_server_variable_in_the_path_is_its_default() {
        let variable = |name: &str, default: &str| ServerVariable {
            name: name.into(),
            default: default.into(),
            allowed: Vec::new(),
            docs: None,
        };
        let server = Server {
            url: "https://{region}.example.com/{basePath}/".into(),
            description: None,
            variables: vec![variable("region", "eu"), variable("basePath", "api/v2")],
        };
        assert_eq!(server.path(), "/api/v2");
        let origin = Server {
            url: "{origin}/v1".into(),
            description: None,
            variables: vec![variable("origin", "https://sandbox.invalid")],
        };
        assert_eq!(origin.path(), "/v1");
        // eBay's: a variable glued to the host, whose default is the path.
        let glued = Server {
            url: "https://api.ebay.com{basePath}".into(),
            description: None,
            variables: vec![variable("basePath", "/sell/metadata/v1")],
        };
        assert_eq!(glued.path(), "/sell/metadata/v1");
        assert_eq!(
            glued.absolute_url().as_deref(),
            Some("https://api.ebay.com/sell/metadata/v1")
        );
        let port = Server {
            url: "https://api.example.com:{port}/v2".into(),
            description: None,
            variables: vec![variable("port", "443")],
        };
        assert_eq!(port.path(), "/v2");
    }

    #[test]
    fn server_base_path_is_the_path_of_the_url() {
        assert_eq!(url_path("{origin}/v1"), "/v1");
        assert_eq!(url_path("https://api.example.com/v1/"), "/v1");
        assert_eq!(url_path("https://api.example.com"), "");
        assert_eq!(url_path("/api"), "/api");
        assert_eq!(url_path("//api.example.com/v3/"), "/v3");
        assert_eq!(url_path("//api.example.com"), "");
        assert_eq!(url_path("http://{host}:{port}/a/b"), "/a/b");
    }
}
