//! The intermediate representation: everything the emitters need, and nothing of the raw
//! document. Built by [`build`] from a loaded [`crate::load::Document`]; every Rust name in it
//! has already been chosen by the single naming pass in [`naming`], so emitters never invent
//! or sanitise names themselves.

pub mod build;
pub mod error_envelope;
pub mod naming;
mod schema;
pub mod tag_features;

use serde_json::Value;

/// A whole API, ready for the emitters. Types are sorted by Rust name and operations by
/// path then method, so every emitter's output is deterministic.
#[derive(Debug, Clone, PartialEq)]
pub struct Api {
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

/// A type the generated crate declares.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeDef {
    /// Rust identifier of the type (PascalCase, unique in the crate).
    pub name: String,
    /// JSON pointer of the schema this type was made from.
    pub origin: String,
    /// Component name when the type is a component schema.
    pub component: Option<String>,
    /// Documentation from `title` / `description`.
    pub docs: Option<String>,
    /// What kind of type it is.
    pub kind: TypeKind,
    /// Examples given for the schema, with their JSON pointers in the document.
    pub examples: Vec<Example>,
}

/// The shape of a named type.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeKind {
    /// An object with known properties.
    Struct(StructDef),
    /// A string enumeration; unknown values are kept in a catch-all variant.
    Enum(EnumDef),
    /// `oneOf` / `anyOf`: one of several shapes.
    Union(UnionDef),
    /// A distinct type wrapping another (a scalar component schema).
    Newtype(TypeRef),
    /// Another name for a type (a container component schema).
    Alias(TypeRef),
}

/// An object type.
#[derive(Debug, Clone, PartialEq)]
pub struct StructDef {
    /// Declared properties, in document order.
    pub fields: Vec<Field>,
    /// What happens to properties that are not declared.
    pub additional: Additional,
    /// Rust name of the field that keeps undeclared properties (unique in the struct).
    pub additional_name: String,
}

/// Treatment of undeclared properties of an object.
#[derive(Debug, Clone, PartialEq)]
pub enum Additional {
    /// `additionalProperties: false`: nothing to keep.
    Forbidden,
    /// Unknown properties are kept as JSON so that a round trip loses nothing.
    Any,
    /// `additionalProperties: <schema>`: kept as a typed map.
    Typed(TypeRef),
}

/// One property of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Rust identifier (snake_case, keyword-safe, unique in the struct).
    pub rust_name: String,
    /// Property name on the wire.
    pub wire_name: String,
    /// Type of a present, non-null value.
    pub ty: TypeRef,
    /// Listed in `required`.
    pub required: bool,
    /// The schema admits `null`.
    pub nullable: bool,
    /// Documentation from the property schema.
    pub docs: Option<String>,
    /// `default` of the property schema.
    pub default: Option<Value>,
}

/// A string enumeration.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumDef {
    /// Known values, in document order.
    pub variants: Vec<EnumVariant>,
    /// The spec says the list is incomplete (`x-extensible-enum`), rather than closed (`enum`).
    /// Both kinds of Rust enum accept unknown values; the flag feeds documentation and the
    /// validator's strict mode.
    pub extensible: bool,
    /// Rust name of the variant that keeps a value the spec does not list.
    pub catch_all: String,
}

/// One known value of a string enumeration.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumVariant {
    /// Rust identifier (PascalCase, unique in the enum).
    pub rust_name: String,
    /// The value on the wire.
    pub wire: String,
}

/// `oneOf` / `anyOf`.
#[derive(Debug, Clone, PartialEq)]
pub struct UnionDef {
    /// The alternatives, in document order.
    pub variants: Vec<UnionVariant>,
    /// Set when the spec names a discriminator property.
    pub discriminator: Option<Discriminator>,
    /// Rust name of the variant that keeps, as JSON, a value no alternative accepts.
    pub catch_all: String,
    /// `oneOf` (a valid value matches exactly one alternative) rather than `anyOf`.
    pub exclusive: bool,
}

/// One alternative of a union.
#[derive(Debug, Clone, PartialEq)]
pub struct UnionVariant {
    /// Rust identifier of the variant.
    pub rust_name: String,
    /// Its payload type.
    pub ty: TypeRef,
    /// What a value must look like to be this alternative, read from its schema once; the
    /// generated deserializer chooses by these facts, not by serde's first success.
    pub facts: VariantFacts,
    /// The alternative's schema as JSON Schema with refs to components (the generated
    /// round-trip tests check that a value landing here satisfies it).
    pub schema: Value,
}

/// The facts that tell the alternatives of a union apart.
///
/// A lenient alternative (an open object, an enum with a catch-all) accepts nearly any value,
/// so "the first alternative that deserializes" is usually the wrong one. These facts rule
/// alternatives out (wrong JSON type, a required member missing, a tag with another value, a
/// member a closed object does not declare) and rank the rest (tags matched, members declared).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VariantFacts {
    /// JSON types the alternative accepts; empty when it accepts any.
    pub kinds: Vec<JsonKind>,
    /// Members an object must have.
    pub required: Vec<String>,
    /// Members whose value is fixed by a `const` or a closed `enum` (implicit tags), with the
    /// values allowed, in document order.
    pub tags: Vec<(String, Vec<Value>)>,
    /// Members the object declares.
    pub declared: Vec<String>,
    /// `additionalProperties: false`: a member not in `declared` rules the alternative out.
    pub closed: bool,
    /// For a scalar alternative with a closed `enum` or `const`: the values allowed.
    pub values: Option<Vec<Value>>,
}

/// A JSON value's type, as JSON Schema's `type` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JsonKind {
    /// `null`
    Null,
    /// `boolean`
    Boolean,
    /// `integer`: a number without a fractional part.
    Integer,
    /// `number` (integers included).
    Number,
    /// `string`
    String,
    /// `array`
    Array,
    /// `object`
    Object,
}

impl JsonKind {
    /// The kind for a JSON Schema `type` name.
    pub fn from_name(name: &str) -> Option<JsonKind> {
        Some(match name {
            "null" => JsonKind::Null,
            "boolean" => JsonKind::Boolean,
            "integer" => JsonKind::Integer,
            "number" => JsonKind::Number,
            "string" => JsonKind::String,
            "array" => JsonKind::Array,
            "object" => JsonKind::Object,
            _ => return None,
        })
    }
}

/// A discriminator: which property selects the alternative, and the values for each.
#[derive(Debug, Clone, PartialEq)]
pub struct Discriminator {
    /// Wire name of the property.
    pub property: String,
    /// Discriminator value to index into [`UnionDef::variants`], in document order.
    pub mapping: Vec<(String, usize)>,
}

/// A use of a type.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TypeRef {
    /// A type declared in [`Api::types`], by Rust name.
    Named(String),
    /// A scalar.
    Scalar(Scalar),
    /// `type: array`.
    Array(Box<TypeRef>),
    /// An object used as a dictionary (`additionalProperties` only).
    Map(Box<TypeRef>),
    /// A JSON object whose properties are not described.
    Object,
    /// Anything: the schema does not constrain the value.
    Any,
    /// A nullable value inside a container or alias (fields track nullability themselves).
    Nullable(Box<TypeRef>),
    /// A Rust type chosen by the user (`x-rust-type` or [`crate::Builder::type_override`]).
    Custom(String),
}

/// Scalar types, each a deliberate mapping of a JSON Schema type and format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
    /// `type: string`.
    String,
    /// `type: boolean`.
    Bool,
    /// `integer`, `format: int32`.
    I32,
    /// `integer` (default `int64`).
    I64,
    /// `number`, `format: double` or `float` (f64 holds every float32 exactly).
    F64,
    /// `number` without a format: a decimal that keeps every digit it was given.
    Decimal,
    /// `string`, `format: uuid`.
    Uuid,
    /// `string`, `format: date-time`: kept as written, offset included.
    DateTime,
    /// `string`, `format: date`.
    Date,
    /// `string`, `format: byte`: base64 kept as written, decoded on demand.
    Base64,
}

/// An example value and where it stands in the document.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    /// JSON pointer of the example value in the document.
    pub pointer: String,
    /// The example.
    pub value: Value,
}

/// HTTP methods that OpenAPI path items know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// GET
    Get,
    /// PUT
    Put,
    /// POST
    Post,
    /// DELETE
    Delete,
    /// OPTIONS
    Options,
    /// HEAD
    Head,
    /// PATCH
    Patch,
    /// TRACE
    Trace,
}

impl Method {
    /// All methods, in the order OpenAPI lists them.
    pub const ALL: [Method; 8] = [
        Method::Get,
        Method::Put,
        Method::Post,
        Method::Delete,
        Method::Options,
        Method::Head,
        Method::Patch,
        Method::Trace,
    ];

    /// Lowercase key in a path item.
    pub fn key(self) -> &'static str {
        match self {
            Method::Get => "get",
            Method::Put => "put",
            Method::Post => "post",
            Method::Delete => "delete",
            Method::Options => "options",
            Method::Head => "head",
            Method::Patch => "patch",
            Method::Trace => "trace",
        }
    }

    /// Uppercase HTTP token.
    pub fn as_http(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Put => "PUT",
            Method::Post => "POST",
            Method::Delete => "DELETE",
            Method::Options => "OPTIONS",
            Method::Head => "HEAD",
            Method::Patch => "PATCH",
            Method::Trace => "TRACE",
        }
    }
}

/// An operation under `paths`.
#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    /// `operationId` as written (or derived from method and path when absent).
    pub id: String,
    /// Rust function name (snake_case).
    pub fn_name: String,
    /// Prefix for the operation's own types (PascalCase), e.g. `CreateAccount`.
    pub type_prefix: String,
    /// HTTP method.
    pub method: Method,
    /// Path template relative to the server URL, e.g. `/banking/accounts/{account_id}`.
    pub path: String,
    /// JSON pointer of the operation object.
    pub pointer: String,
    /// First tag, if any.
    pub tags: Vec<String>,
    /// `summary` and `description`.
    pub docs: Option<String>,
    /// Parameters (path-item ones merged in), path first, then query, header, cookie.
    pub parameters: Vec<Parameter>,
    /// Request body, if the operation declares one.
    pub request_body: Option<RequestBody>,
    /// Responses by status.
    pub responses: Vec<Response>,
    /// Security requirements: any one inner list satisfied is enough; an empty outer list
    /// means no authentication.
    pub security: Vec<Vec<String>>,
    /// `deprecated: true`.
    pub deprecated: bool,
    /// Examples of the operation's parameters, request and responses.
    pub examples: Vec<MessageExample>,
}

/// A webhook: a request the API sends to a receiver its user runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Webhook {
    /// Name under `webhooks`.
    pub name: String,
    /// The operation describing the delivery. Its `path` is the `x-delivery-path` extension
    /// when the spec gives one, otherwise `/` + name.
    pub operation: Operation,
}

/// Where a parameter travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ParamLocation {
    /// In the path template.
    Path,
    /// In the query string.
    Query,
    /// A request header.
    Header,
    /// A cookie.
    Cookie,
}

impl ParamLocation {
    /// The `in` value of the parameter object.
    pub fn as_str(self) -> &'static str {
        match self {
            ParamLocation::Path => "path",
            ParamLocation::Query => "query",
            ParamLocation::Header => "header",
            ParamLocation::Cookie => "cookie",
        }
    }
}

/// A parameter of an operation.
#[derive(Debug, Clone, PartialEq)]
pub struct Parameter {
    /// Name on the wire.
    pub name: String,
    /// Rust identifier (snake_case).
    pub rust_name: String,
    /// Where it travels.
    pub location: ParamLocation,
    /// Whether it must be present.
    pub required: bool,
    /// Its Rust type.
    pub ty: TypeRef,
    /// Its schema as JSON Schema, for the contract.
    pub schema: Value,
    /// Documentation.
    pub docs: Option<String>,
    /// Examples of the parameter's value, with their pointers.
    pub examples: Vec<Example>,
}

/// A request body.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestBody {
    /// Whether a body must be sent.
    pub required: bool,
    /// Media type, e.g. `application/json`.
    pub content_type: String,
    /// Rust type of the body.
    pub ty: TypeRef,
    /// JSON Schema of the body, for the contract.
    pub schema: Value,
    /// Documentation.
    pub docs: Option<String>,
}

/// Which statuses a response covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StatusSpec {
    /// One status code, e.g. 201.
    Code(u16),
    /// A class, e.g. `2XX` is `Range(2)`.
    Range(u8),
    /// `default`: every status not listed.
    Default,
}

impl StatusSpec {
    /// Whether it covers only error statuses (4xx and 5xx; `default` may cover anything).
    pub fn is_error(self) -> bool {
        match self {
            StatusSpec::Code(code) => code >= 400,
            StatusSpec::Range(class) => class >= 4,
            StatusSpec::Default => false,
        }
    }

    /// The key as written in a responses object.
    pub fn key(self) -> String {
        match self {
            StatusSpec::Code(code) => code.to_string(),
            StatusSpec::Range(class) => format!("{class}XX"),
            StatusSpec::Default => "default".to_string(),
        }
    }
}

/// One documented response of an operation.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// The status or statuses it covers.
    pub status: StatusSpec,
    /// Rust variant name in the operation's response enum, e.g. `Created`.
    pub variant: String,
    /// The response description.
    pub docs: Option<String>,
    /// The JSON body, if the response has one.
    pub body: Option<ResponseBody>,
}

/// A response body.
#[derive(Debug, Clone, PartialEq)]
pub struct ResponseBody {
    /// Media type.
    pub content_type: String,
    /// Rust type.
    pub ty: TypeRef,
    /// JSON Schema, for the contract.
    pub schema: Value,
}

/// Which message of an operation an example belongs to.
#[derive(Debug, Clone, PartialEq)]
pub enum MessagePart {
    /// The request body.
    Request,
    /// The body of a response with this status.
    Response(StatusSpec),
}

/// An example of an operation's request or response body.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageExample {
    /// Which body it illustrates.
    pub part: MessagePart,
    /// The example and its pointer.
    pub example: Example,
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
    /// Something the generated code does not send itself (OAuth2, OpenID Connect, mutual TLS).
    Other(String),
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
            TypeRef::Scalar(_) | TypeRef::Object | TypeRef::Any | TypeRef::Custom(_) => {}
        }
    }

    /// The type with this Rust name.
    pub fn type_named(&self, name: &str) -> Option<&TypeDef> {
        self.types.iter().find(|t| t.name == name)
    }

    /// The path prefix the servers share (e.g. `/v1`), taken from the first server URL's
    /// path; empty when there is none.
    pub fn base_path(&self) -> String {
        self.servers
            .first()
            .map(|server| url_path(&server.url))
            .unwrap_or_default()
    }
}

/// The path part of a server URL template (`{origin}/v1` → `/v1`, `https://h/x/` → `/x`).
fn url_path(url: &str) -> String {
    let after_scheme = match url.find("://") {
        Some(at) => &url[at + 3..],
        None => url,
    };
    let path = match after_scheme.find('/') {
        Some(at) if !url.starts_with('/') => &after_scheme[at..],
        _ if url.starts_with('/') => url,
        _ => "",
    };
    path.trim_end_matches('/').to_string()
}

#[cfg(test)]
mod tests {
    use super::url_path;

    #[test]
    fn server_base_path_is_the_path_of_the_url() {
        assert_eq!(url_path("{origin}/v1"), "/v1");
        assert_eq!(url_path("https://api.example.com/v1/"), "/v1");
        assert_eq!(url_path("https://api.example.com"), "");
        assert_eq!(url_path("/api"), "/api");
        assert_eq!(url_path("http://{host}:{port}/a/b"), "/a/b");
    }
}
