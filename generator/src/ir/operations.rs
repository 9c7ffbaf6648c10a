//! The operations of the API (under `paths` and `webhooks`): methods, parameters, request and
//! response bodies, and the examples of their messages.

use serde_json::Value;

use super::types::{Example, TypeRef};
use crate::manifest::{ListForm, Location, ObjectStyle};

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
    /// The document says the operation takes no credential (its `security`, or the
    /// document's it inherits, is `[]` or only `{}`: a login, a health check). An empty
    /// [`Operation::security`] without it is a document that names none, often one that
    /// forgot to, whose client sends what it is given.
    pub anonymous: bool,
    /// `deprecated: true`.
    pub deprecated: bool,
    /// Examples of the operation's parameters, request and responses.
    pub examples: Vec<MessageExample>,
    /// The servers of this operation alone (its own `servers`, else its path's); empty when
    /// it is served where the API is (Box's uploads go to `https://upload.box.com/api/2.0`).
    pub servers: Vec<super::Server>,
    /// The media type a header parameter named `Accept` gives as its `default` (GitHub's
    /// preview operations ask for `application/vnd.github.squirrel-girl-preview+json`): the
    /// parameter itself is ignored, as OpenAPI 3 says, but the value is what the API asks to
    /// be sent, so the client sends it as its `Accept`.
    pub declared_accept: Option<String>,
}

impl Operation {
    /// The header that carries the operation's idempotency key, when it has one.
    pub fn idempotency_header(&self) -> Option<&Parameter> {
        self.parameters.iter().find(|p| p.idempotency_key)
    }

    /// Its path with every parameter's name left out (`/cards/{}`): operations of one method
    /// whose paths read the same so are one route, told apart by their parameters' values
    /// alone (Xero's `/Contacts/{ContactID}`, a UUID, and `/Contacts/{ContactNumber}`).
    pub fn route_shape(&self) -> String {
        crate::path::route_shape(&self.matching_template())
    }

    /// Its path as the server and client match and fill it: a whole segment that is a
    /// parameter whose value is written as it is, `/` included, reads `{+name}`
    /// ([`Parameter::allow_reserved`]; see [`crate::path::spans_segments`]).
    pub fn matching_template(&self) -> String {
        crate::path::spanning_template(&self.path, |name| {
            self.parameters.iter().any(|param| {
                param.location == ParamLocation::Path && param.allow_reserved && param.name == name
            })
        })
    }

    /// What its path's appendix asks of a request (`?type=user`, `#Action=AddTags`, S3's
    /// `#acl` where `acl` is one of its query parameters): see [`crate::path::asks`].
    pub fn asks(&self) -> Vec<(String, Option<String>)> {
        crate::path::asks(&self.path, |name| {
            self.parameters.iter().any(|param| match param.location {
                ParamLocation::Query => param.name == name,
                ParamLocation::Header => param.name.eq_ignore_ascii_case(name),
                ParamLocation::Path | ParamLocation::Cookie => false,
            })
        })
    }

    /// Where a dispatcher of operations sharing its route and method tries it, the lowest
    /// first: those whose template asks more of the request, then one without an appendix
    /// before one with (Box's `/files/{file_id}` before `#add_shared_link`, which only the
    /// body tells apart), then the one with the most literal text, then by path. The
    /// generated router's order, and the one specgen's warnings about unreachable operations
    /// name.
    pub fn dispatch_order(
        &self,
    ) -> (
        std::cmp::Reverse<usize>,
        bool,
        std::cmp::Reverse<usize>,
        String,
    ) {
        let wire = crate::path::wire(&self.path);
        let literal: usize = wire
            .split('{')
            .map(|part| part.split_once('}').map_or(part, |(_, text)| text).len())
            .sum();
        (
            std::cmp::Reverse(self.asks().len()),
            wire.len() != self.path.len(),
            std::cmp::Reverse(literal),
            self.path.clone(),
        )
    }

    /// Whether a path parameter of it may fill several segments (see
    /// [`Operation::matching_template`]).
    pub fn spans_segments(&self) -> bool {
        crate::path::spans_segments(&self.matching_template())
    }
}

/// A webhook: a request the API sends to a receiver its user runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Webhook {
    /// Name under `webhooks`.
    pub name: String,
    /// The operation describing the delivery. Its `path` is the `x-delivery-path` extension
    /// when the spec gives one, otherwise `/` + name.
    pub operation: Operation,
    /// The spec gives its delivery path (`x-delivery-path`); otherwise each receiver
    /// registers a URL of its own, and the path is only a name.
    pub path_documented: bool,
    /// An OpenAPI 3.0 callback: delivered to the very URL its runtime expression names
    /// (`{$request.body#/callbackUrl}`), which the subscriber gave; its path is where the
    /// generated receiver takes it.
    pub callback: bool,
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

impl From<ParamLocation> for Location {
    fn from(location: ParamLocation) -> Location {
        match location {
            ParamLocation::Path => Location::Path,
            ParamLocation::Query => Location::Query,
            ParamLocation::Header => Location::Header,
            ParamLocation::Cookie => Location::Cookie,
        }
    }
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
    /// Its `style` (`form`, `deepObject`, ...), when the spec gives one.
    pub style: Option<String>,
    /// Its `explode`, when the spec gives one.
    pub explode: Option<bool>,
    /// A path parameter whose value is written into the path as it is, reserved characters
    /// and `/` included (`x-ms-skip-url-encoding: true`, or `allowReserved: true`): Azure's
    /// `{scope}` is `subscriptions/1/resourceGroups/g`. Where it is a whole segment, it fills
    /// as many as its value has.
    pub allow_reserved: bool,
    /// The media type its value is written in, when the spec gives `content` instead of a
    /// schema (`application/json`: `?filter={"a":1}`).
    pub content_type: Option<String>,
    /// A query parameter that may be sent with an empty value (`?verbose=`), whatever its
    /// schema says (`allowEmptyValue: true`).
    pub allow_empty_value: bool,
    /// How its members travel, for a query parameter whose schema is an object: decided where
    /// the document's references can be followed (a `$ref` to a component, a lone `allOf`),
    /// which `schema`, in contract form, leaves to the contract's `$defs`. See
    /// [`Parameter::object_style`].
    pub object: Option<ObjectStyle>,
    /// Documentation.
    pub docs: Option<String>,
    /// Examples of the parameter's value, with their pointers.
    pub examples: Vec<Example>,
    /// This header carries the operation's idempotency key (`Idempotency-Key` or
    /// `X-Idempotency-Key`, the first of them); at most one parameter of an operation has it.
    pub idempotency_key: bool,
}

impl Parameter {
    /// How its items travel, were it a list: the rule the generated server, the client and
    /// every reader of the contract share ([`ListForm::of`]).
    pub fn list_form(&self) -> ListForm {
        ListForm::of(self.location.into(), self.style.as_deref(), self.explode)
    }

    /// How its members travel when it is a query parameter whose schema is an object (the
    /// same rule as [`ListForm`]'s: [`ObjectStyle::of`]); `None` for any other, and for one
    /// written as a JSON text (`content`).
    pub fn object_style(&self) -> Option<ObjectStyle> {
        if self.content_type.is_some() {
            return None;
        }
        self.object.clone()
    }

    /// Whether its value is written as a JSON text (`content: {application/json: …}`), the
    /// rule the contract's [`crate::manifest::Parameter::kind`] applies too.
    pub fn is_json_text(&self) -> bool {
        self.content_type
            .as_deref()
            .is_some_and(|media| crate::manifest::is_json(&crate::manifest::essence(media)))
    }
}

/// A request body.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestBody {
    /// Whether a body must be sent.
    pub required: bool,
    /// Media type, e.g. `application/json`.
    pub content_type: String,
    /// How its bytes travel.
    pub kind: MediaKind,
    /// The other media types documented for it, as written (`application/xml` beside JSON).
    pub other_content_types: Vec<String>,
    /// Those of [`Self::other_content_types`] documented with the very schema of
    /// `content_type` (a form and `multipart/form-data` beside JSON, as Django REST framework
    /// and documents converted from Swagger 2.0 write them): a body sent as one is read by it.
    pub same_schema_content_types: Vec<String>,
    /// The other form and `multipart/form-data` media types documented with a schema of their
    /// own (an upload as JSON metadata or as parts with the file), with that schema for the
    /// contract: a body sent as one is checked by it.
    pub field_schemas: Vec<(String, Value)>,
    /// The other JSON media types documented with a schema of their own (JSON Merge Patch
    /// beside JSON, GeoJSON beside plain JSON), with that schema for the contract: a body sent
    /// as one is checked by it. The typed body is `content_type`'s.
    pub json_schemas: Vec<(String, Value)>,
    /// Rust type of the body.
    pub ty: TypeRef,
    /// JSON Schema of the body, for the contract.
    pub schema: Value,
    /// Documentation.
    pub docs: Option<String>,
    /// Fields of a form whose `encoding` sends a list as one delimited value rather than a
    /// pair per item (`style: form` with `explode: false`, as Swagger 2.0's default `csv`
    /// becomes; `spaceDelimited`; `pipeDelimited`), with their delimiter, in field order.
    pub delimited_fields: Vec<(String, char)>,
    /// Fields of a form whose `encoding` gives them a JSON `contentType` (and no `style`,
    /// which would win): each is sent as one field holding its value's JSON text.
    pub json_fields: Vec<String>,
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
    /// The headers it documents (`Content-Type` aside, which OpenAPI says to ignore there).
    pub headers: Vec<ResponseHeader>,
    /// Rust name of the struct that holds its settable headers (`GetAccountOkHeaders`);
    /// assigned by the naming pass, empty when it has none.
    pub headers_type: String,
}

impl Response {
    /// The documented headers a handler sets and a client reads: those HTTP lets a program
    /// write (not the framing ones the HTTP library writes from the body and connection).
    pub fn settable_headers(&self) -> impl Iterator<Item = &ResponseHeader> {
        self.headers.iter().filter(|header| header.settable())
    }
}

/// A header a response documents.
#[derive(Debug, Clone, PartialEq)]
pub struct ResponseHeader {
    /// Its name.
    pub name: String,
    /// Whether the response must carry it.
    pub required: bool,
    /// Its schema as JSON Schema, for the contract.
    pub schema: Value,
    /// Its description.
    pub docs: Option<String>,
    /// Rust field name in the response's headers struct; assigned by the naming pass.
    pub field: String,
}

/// Headers that frame a message or its connection (RFC 9110 §8.6, RFC 9112 §6–7 and §9.6): the
/// HTTP library writes them from the body and the connection it has, so neither a caller's
/// value nor a handler's may replace them.
pub const FRAMING_HEADERS: [&str; 5] = [
    "Content-Length",
    "Transfer-Encoding",
    "Connection",
    "Host",
    "TE",
];

/// Headers of one connection rather than of the message (RFC 9110 §7.6.1), which the HTTP
/// library manages and a handler has no business setting, besides [`FRAMING_HEADERS`].
const CONNECTION_HEADERS: [&str; 4] = ["Keep-Alive", "Proxy-Connection", "Trailer", "Upgrade"];

impl ResponseHeader {
    /// Whether a handler may set it: a valid header name (an HTTP token), not one that frames
    /// the message or belongs to the connection.
    pub fn settable(&self) -> bool {
        const TOKEN_MARKS: &[u8] = b"!#$%&'*+-.^_`|~";
        !self.name.is_empty()
            && self
                .name
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || TOKEN_MARKS.contains(&byte))
            && !FRAMING_HEADERS
                .iter()
                .chain(&CONNECTION_HEADERS)
                .any(|framing| framing.eq_ignore_ascii_case(&self.name))
    }
}

/// A response body.
#[derive(Debug, Clone, PartialEq)]
pub struct ResponseBody {
    /// Media type.
    pub content_type: String,
    /// How its bytes travel.
    pub kind: MediaKind,
    /// The other media types documented for it, as written.
    pub other_content_types: Vec<String>,
    /// The other JSON media types documented with a schema of their own
    /// (`application/geo+json` beside `application/json`), with that schema for the contract:
    /// a body received as one is checked by it. The typed body is `content_type`'s.
    pub json_schemas: Vec<(String, Value)>,
    /// Rust type.
    pub ty: TypeRef,
    /// JSON Schema, for the contract.
    pub schema: Value,
}

/// How a body's bytes become the value the generated code hands over, by its media type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaKind {
    /// JSON (`application/json`, `…+json`, and `*/*`, which the spec's schema describes as
    /// JSON): a typed value.
    Json,
    /// A form (`application/x-www-form-urlencoded`): its fields, as an object.
    Form,
    /// Text (`text/*`, XML): a `String`.
    Text,
    /// Anything else (a file, an image, a PDF, a multipart body): the bytes as they are.
    Binary,
}

impl MediaKind {
    /// The kind of a body of media type `media` (parameters and case ignored), whatever its
    /// schema.
    pub fn of(media: &str) -> MediaKind {
        let essence = crate::manifest::essence(media);
        if crate::manifest::is_json(&essence) || essence == "*/*" {
            MediaKind::Json
        } else if essence == crate::form::MEDIA_TYPE {
            MediaKind::Form
        } else if essence.starts_with("text/")
            || essence == "application/xml"
            || essence.ends_with("+xml")
        {
            MediaKind::Text
        } else {
            MediaKind::Binary
        }
    }

    /// The kind of a body of media type `media` whose schema is `schema`: as [`MediaKind::of`]
    /// says, except that any media type (`*/*`) holding a binary string (`type: string,
    /// format: binary`, a download of whatever the file is) is bytes, not JSON.
    pub fn of_body(media: &str, schema: &Value) -> MediaKind {
        let kind = MediaKind::of(media);
        let any_media = media.split(';').next().unwrap_or_default().trim() == "*/*";
        let binary = schema.get("format").and_then(Value::as_str) == Some("binary");
        if kind == MediaKind::Json && any_media && binary {
            MediaKind::Binary
        } else {
            kind
        }
    }
}

impl RequestBody {
    /// The media type the generated client sends it as (`concrete_media`).
    pub fn sent_as(&self) -> &str {
        concrete_media(&self.content_type)
    }
}

impl ResponseBody {
    /// The media type a generated server answers it with (`concrete_media`).
    pub fn answered_as(&self) -> &str {
        concrete_media(&self.content_type)
    }
}

/// The media type a body of the documented type `media` goes as: that one, or
/// `application/octet-stream` for a range (`image/*`, `*/*`), which no body can be sent as.
fn concrete_media(media: &str) -> &str {
    if media.contains('*') {
        "application/octet-stream"
    } else {
        media
    }
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::MediaKind;

    #[test]
    fn a_body_is_json_a_form_text_or_bytes_by_its_media_type() {
        for (media, kind) in [
            ("application/json", MediaKind::Json),
            ("application/problem+json; charset=utf-8", MediaKind::Json),
            ("Application/JSON", MediaKind::Json),
            ("application/x-www-form-urlencoded", MediaKind::Form),
            ("text/plain", MediaKind::Text),
            ("text/csv; charset=utf-8", MediaKind::Text),
            ("application/xml", MediaKind::Text),
            ("application/atom+xml", MediaKind::Text),
            ("application/octet-stream", MediaKind::Binary),
            ("image/*", MediaKind::Binary),
            ("application/pdf", MediaKind::Binary),
            ("multipart/form-data", MediaKind::Binary),
        ] {
            assert_eq!(MediaKind::of(media), kind, "{media}");
        }
        // `*/*` is JSON when its schema describes JSON, and bytes when it is a binary file.
        let file = json!({"type": "string", "format": "binary"});
        assert_eq!(MediaKind::of_body("*/*", &file), MediaKind::Binary);
        assert_eq!(
            MediaKind::of_body("*/*", &json!({"type": "object"})),
            MediaKind::Json
        );
        assert_eq!(
            MediaKind::of_body("application/json", &file),
            MediaKind::Json
        );
    }
}
