//! The contract's manifest (`schemas/manifest.json`) as types: which operations and webhooks
//! there are, their parameters, security, and the contract file of each body's schema.
//!
//! Defined once: specgen serializes it (`emit::contract`), specval deserializes it
//! (`specval::contract`), and every generated crate that validates (`validation::manifest`)
//! has a copy of this file, spliced in by specgen. A key renamed here is renamed for all of
//! them, and a field one of them uses and another no longer writes is a compile error.
//! Readers check `FORMAT`: a manifest of another layout is refused with both numbers, not
//! half read.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Version of the manifest layout; bumped when a reader would need to change.
pub const FORMAT: u64 = 1;

/// The manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    /// The layout version, [`FORMAT`] when written by this code.
    pub format: u64,
    /// `info.title`.
    pub title: String,
    /// `info.version`.
    pub version: String,
    /// The path of the first server URL (`/v1`), `""` without servers.
    pub base_path: String,
    /// `servers`.
    pub servers: Vec<Server>,
    /// The security schemes, by key.
    pub security_schemes: BTreeMap<String, SecurityScheme>,
    /// The operations, in the document's order.
    pub operations: Vec<Operation>,
    /// The webhooks (notifications the API sends), in the document's order.
    pub webhooks: Vec<Operation>,
    /// The contract file of each component schema, by component name.
    pub components: BTreeMap<String, String>,
    /// How the API's rejections are worded; absent from a manifest written before it was
    /// recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_envelope: Option<ErrorEnvelope>,
}

/// How the API's rejections are worded (a request that breaks the contract, missing
/// credentials): decided once by specgen's IR (`ir::error_envelope`), so that the generated
/// server and specval's tower layer in enforce mode answer alike.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ErrorEnvelope {
    /// The spec's own error body, with the wire names of the members the server fills.
    Documented {
        /// The member that takes the rejection's code (`VALIDATION_ERROR`, …).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
        /// The member that takes the messages.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        messages: Option<Messages>,
        /// The member that takes the HTTP status.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status: Option<String>,
    },
    /// The spec's own error body holding the envelope in one member (`{"error": {"code": …,
    /// "message": …}}`: Azure's `CloudError`, Microsoft Graph, Google).
    Nested {
        /// The member that holds the envelope.
        member: String,
        /// The envelope it holds.
        inner: Box<ErrorEnvelope>,
    },
    /// The spec's own error body that also takes RFC 9457's `type` (`about:blank`) and
    /// `title` (the reason phrase) beside the members `inner` fills: Adyen's
    /// `RestServiceError`, problem details extended with its `errorCode`.
    WithProblemMembers {
        /// Which of `type` and `title` the body has.
        members: Vec<String>,
        /// The envelope of the body's other members.
        inner: Box<ErrorEnvelope>,
    },
    /// RFC 9457 problem details (`application/problem+json`): `type`, `title`, `status`,
    /// `detail`, with the code and the messages as extension members `code` and `errors`.
    ProblemDetails,
}

/// Where the messages go.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Messages {
    /// An array of strings.
    List(String),
    /// An array of objects, one per message (JSON:API's `errors: [{code, detail}]`): the
    /// message in `text`, and the code in `code` when the item has a member for it.
    Items {
        /// The array member.
        list: String,
        /// The item's member that takes the message.
        text: String,
        /// The item's member that takes the code.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
    },
    /// One string: the messages joined by `; `.
    Text(String),
    /// After the code, in the code's own member, when it is free text and the envelope has
    /// no other place for them (`{"error": "VALIDATION_ERROR: query parameter `limit`: …"}`):
    /// a rejection that said only its code told the caller nothing it could mend.
    AfterCode,
    /// Both a text member, the messages joined, and a list, one by one, where the body
    /// requires both (Open Banking's `OBErrorResponse1`: `Message` beside `Errors`).
    Both {
        /// The member that takes the messages joined by `; `.
        text: String,
        /// The list that takes them one by one: [`Messages::List`] or [`Messages::Items`].
        list: Box<Messages>,
    },
}

impl Messages {
    /// Puts `messages` into `body` where this says; `code` for the items that take one.
    fn place(&self, body: &mut serde_json::Map<String, Value>, code: &str, messages: &[String]) {
        match self {
            Messages::List(member) => {
                body.insert(member.clone(), messages.to_vec().into());
            }
            Messages::Text(member) => {
                body.insert(member.clone(), messages.join("; ").into());
            }
            Messages::Items {
                list,
                text,
                code: item_code,
            } => {
                let items: Vec<Value> = messages
                    .iter()
                    .map(|message| {
                        let mut item = serde_json::Map::new();
                        if let Some(member) = item_code {
                            item.insert(member.clone(), code.into());
                        }
                        item.insert(text.clone(), message.as_str().into());
                        Value::Object(item)
                    })
                    .collect();
                body.insert(list.clone(), items.into());
            }
            Messages::Both { text, list } => {
                body.insert(text.clone(), messages.join("; ").into());
                list.place(body, code, messages);
            }
            Messages::AfterCode => {}
        }
    }

    /// The members of a body it fills (the text's and the list's; none for
    /// [`Messages::AfterCode`], which fills the code's).
    pub fn members(&self) -> Vec<&str> {
        match self {
            Messages::List(member) | Messages::Text(member) => vec![member],
            Messages::Items { list, .. } => vec![list],
            Messages::Both { text, list } => {
                let mut members = vec![text.as_str()];
                members.extend(list.members());
                members
            }
            Messages::AfterCode => Vec::new(),
        }
    }
}

impl ErrorEnvelope {
    /// The body of a rejection with `status` (`title` its reason phrase, `Bad Request`),
    /// `code` and `messages`, and its media type: what the generated server's `error_response`
    /// writes (`emit::server` renders the same rule as code).
    pub fn body(
        &self,
        status: u16,
        title: &str,
        code: &str,
        messages: &[String],
    ) -> (Value, &'static str) {
        match self {
            ErrorEnvelope::ProblemDetails => {
                let body = serde_json::json!({
                    "type": "about:blank",
                    "title": title,
                    "status": status,
                    "detail": messages.join("; "),
                    "code": code,
                    "errors": messages,
                });
                (body, "application/problem+json")
            }
            ErrorEnvelope::Documented {
                code: code_member,
                messages: place,
                status: status_member,
            } => {
                let mut body = serde_json::Map::new();
                match (code_member, place) {
                    (Some(member), Some(Messages::AfterCode)) => {
                        let text = format!("{code}: {}", messages.join("; "));
                        body.insert(member.clone(), text.into());
                    }
                    (Some(member), _) => {
                        body.insert(member.clone(), code.into());
                    }
                    (None, _) => {}
                }
                if let Some(place) = place {
                    place.place(&mut body, code, messages);
                }
                if let Some(member) = status_member {
                    body.insert(member.clone(), status.into());
                }
                (Value::Object(body), "application/json")
            }
            ErrorEnvelope::Nested { member, inner } => {
                let (inner, media) = inner.body(status, title, code, messages);
                (serde_json::json!({ member.as_str(): inner }), media)
            }
            ErrorEnvelope::WithProblemMembers { members, inner } => {
                let (inner, media) = inner.body(status, title, code, messages);
                let mut body = serde_json::Map::new();
                for member in members {
                    let value = match member.as_str() {
                        "type" => "about:blank",
                        _ => title,
                    };
                    body.insert(member.clone(), value.into());
                }
                if let Value::Object(inner) = inner {
                    body.extend(inner);
                }
                (Value::Object(body), media)
            }
        }
    }
}

/// A server of the API.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Server {
    /// Its URL template (`https://{host}/v1`).
    pub url: String,
    /// Its description.
    pub description: Option<String>,
    /// Its variables, by name.
    pub variables: BTreeMap<String, ServerVariable>,
}

/// A variable of a server URL template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerVariable {
    /// Its default.
    pub default: String,
    /// The values allowed, when listed.
    #[serde(rename = "enum")]
    pub allowed: Vec<String>,
}

/// A security scheme: where its credential travels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SecurityScheme {
    /// `apiKey`, `http`, or another OpenAPI scheme type.
    #[serde(rename = "type")]
    pub kind: String,
    /// An `apiKey`'s location.
    #[serde(rename = "in", default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// An `apiKey`'s parameter name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// An `http` scheme's scheme (`bearer`, `basic`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheme: Option<String>,
}

/// Whether `text`, a credential's value, presents it: not blank, and in `scheme`, followed by
/// something, when one is asked (an HTTP `basic` or `bearer` scheme's `Authorization` value:
/// `Basic dXNlcjpwdw==`, not `Bearer eyJ…`; scheme words are case-insensitive, RFC 9110
/// §11.1). The generated server's check and specval's.
pub fn presents_credential(text: &str, scheme: Option<&str>) -> bool {
    presents_credential_beside::<&str>(text, scheme, &[])
}

/// The authentication schemes of IANA's registry, and NTLM, AWS's and GitHub's `token`: a
/// value that is one of these words alone carries no credential (`Authorization: DPoP`).
const SCHEME_WORDS: &[&str] = &[
    "aws4-hmac-sha256",
    "basic",
    "bearer",
    "concealed",
    "digest",
    "dpop",
    "gnap",
    "hoba",
    "mutual",
    "negotiate",
    "ntlm",
    "oauth",
    "privatetoken",
    "scram-sha-1",
    "scram-sha-256",
    "token",
    "vapid",
];

/// Whether `text` is an authentication scheme's word alone: one of IANA's registry, or of
/// `declared` (the `http` schemes a document declares: a custom `HMAC-SHA256`).
pub fn is_scheme_word<S: AsRef<str>>(text: &str, declared: &[S]) -> bool {
    let text = text.trim();
    SCHEME_WORDS
        .iter()
        .any(|word| text.eq_ignore_ascii_case(word))
        || declared
            .iter()
            .any(|word| text.eq_ignore_ascii_case(word.as_ref()))
}

/// [`presents_credential`], where `declared` are the `http` scheme words of the requirements
/// beside it: a token in any scheme is no scheme's word alone, theirs included.
pub fn presents_credential_beside<S: AsRef<str>>(
    text: &str,
    scheme: Option<&str>,
    declared: &[S],
) -> bool {
    let text = text.trim();
    match scheme {
        _ if text.is_empty() => false,
        // A token in any scheme (OAuth 2, OpenID Connect, a key in `Authorization`), but not a
        // scheme's word with nothing after it: `Bearer ` carries no token (RFC 6750), nor
        // does `DPoP` or a scheme the document declares.
        None => !is_scheme_word(text, declared),
        Some(scheme) => text.split_once(' ').is_some_and(|(word, rest)| {
            let rest = rest.trim();
            word.eq_ignore_ascii_case(scheme)
                && !rest.is_empty()
                && (!scheme.eq_ignore_ascii_case("basic") || is_basic_pair(rest))
        }),
    }
}

/// The list query parameter a key names with brackets, as Rails, PHP and the `qs` library
/// send a list (`ids[]=1&ids[]=2`, `ids[0]=1`): its name. `query` gives each query
/// parameter's name and whether it is a list (not an object, whose members have brackets of
/// their own). `None` for any other key, and for one that some parameter has as its very
/// name. The generated server and specval read such keys alike.
pub fn bracketed_list<'p, Q>(key: &str, query: Q) -> Option<&'p str>
where
    Q: Iterator<Item = (&'p str, bool)> + Clone,
{
    let (base, inside) = key.strip_suffix(']')?.split_once('[')?;
    if !inside.bytes().all(|byte| byte.is_ascii_digit())
        || query.clone().any(|(name, _)| name == key)
    {
        return None;
    }
    query
        .filter(|&(name, list)| list && name == base)
        .map(|(name, _)| name)
        .next()
}

/// Whether a `Basic` token is what RFC 7617 makes one: the base64 of UTF-8 text holding the
/// `:` between user and password. `Basic !!!` or the base64 of `user` alone presents no
/// credential, and a server that let it through would run its handler with none.
fn is_basic_pair(token: &str) -> bool {
    use base64::Engine as _;
    let engine = base64::engine::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
    );
    engine
        .decode(token)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .is_some_and(|pair| pair.contains(':'))
}

/// Where a parameter or credential travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Location {
    /// In the path.
    Path,
    /// In the query string.
    Query,
    /// A header.
    Header,
    /// A cookie.
    Cookie,
}

impl Location {
    /// The name OpenAPI gives it (`in: header`).
    pub fn as_str(self) -> &'static str {
        match self {
            Location::Path => "path",
            Location::Query => "query",
            Location::Header => "header",
            Location::Cookie => "cookie",
        }
    }
}

/// An operation, or a webhook (which also has a `name`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Operation {
    /// The operationId.
    pub operation_id: String,
    /// The HTTP method, in capitals.
    pub method: String,
    /// The path template (`/banking/accounts/{account_id}`), without the base path.
    pub path: String,
    /// The security requirements: any one of them, each a list of scheme keys all needed.
    pub security: Vec<Vec<String>>,
    /// The parameters.
    pub parameters: Vec<Parameter>,
    /// The request body, when one is documented.
    pub request_body: Option<RequestBody>,
    /// The documented responses, by status key (`201`, `2XX`, `default`).
    pub responses: BTreeMap<String, Response>,
    /// Whether a `default` response is documented.
    pub has_default_response: bool,
    /// A webhook's key under `webhooks`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The URLs of the servers of this operation alone (its own or its path's `servers`);
    /// empty when it is served at the API's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub servers: Vec<String>,
    /// A webhook whose delivery path the spec does not give (no `x-delivery-path`): its
    /// `path` is only its name, and its receivers register URLs of their own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub delivered_anywhere: bool,
}

impl Operation {
    /// What the operation is known by: a webhook's name, else its operationId.
    pub fn key(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.operation_id)
    }
}

/// A parameter's rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Parameter {
    /// Its name.
    pub name: String,
    /// Where it travels.
    #[serde(rename = "in")]
    pub location: Location,
    /// Whether it must be present.
    pub required: bool,
    /// Its schema, self-contained (components it needs under `$defs`).
    pub schema: Value,
    /// Its `style` (`form`, `deepObject`, ...), when the spec gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<String>,
    /// Its `explode`, when the spec gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explode: Option<bool>,
    /// The media type its value is written in, when the spec gives `content` instead of a
    /// schema (`application/json`: `?filter={"a":1}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// A query parameter that may be sent with an empty value (`?verbose=`), whatever its
    /// schema says (`allowEmptyValue: true`).
    #[serde(
        default,
        rename = "allowEmptyValue",
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub allow_empty_value: bool,
    /// A path parameter whose value is written as it is, `/` included, so that one filling a
    /// whole segment may fill several (`x-ms-skip-url-encoding: true` or `allowReserved:
    /// true`: Azure's `/{scope}/providers/…`).
    #[serde(
        default,
        rename = "allowReserved",
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub allow_reserved: bool,
}

impl Parameter {
    /// How its text (a path segment, a query value, a header) becomes the JSON value its
    /// schema checks.
    pub fn kind(&self) -> ValueKind {
        match &self.content_type {
            Some(media) if is_json(&essence(media)) => ValueKind::Json,
            _ => ValueKind::of(&self.schema),
        }
    }

    /// The kind of each item, when it carries a list (see [`ValueKind::of_items`]); `None`
    /// for a JSON text, whose list is JSON's own.
    pub fn items(&self) -> Option<ValueKind> {
        match self.kind() {
            ValueKind::Json => None,
            _ => ValueKind::of_items(&self.schema),
        }
    }

    /// The kind of each item when one alternative of its schema is a list and the schema
    /// itself is not (see [`ValueKind::of_alternative_items`]).
    pub fn alternative_items(&self) -> Option<ValueKind> {
        match self.kind() {
            ValueKind::Json => None,
            _ => ValueKind::of_alternative_items(&self.schema),
        }
    }

    /// How the items of this parameter travel, were it a list.
    pub fn list_form(&self) -> ListForm {
        ListForm::of(self.location, self.style.as_deref(), self.explode)
    }

    /// How this parameter travels when it is a query parameter whose schema is an object
    /// (and not a JSON text, `content: {application/json: …}`); `None` for any other.
    pub fn object_style(&self) -> Option<ObjectStyle> {
        if self.content_type.is_some() {
            return None;
        }
        ObjectStyle::of(
            self.location,
            self.style.as_deref(),
            self.explode,
            &self.schema,
        )
    }
}

/// How an object travels in a query (OpenAPI's `style` and `explode`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ObjectStyle {
    /// `deepObject`: `filter[name]=rex&filter[age]=3`.
    Deep,
    /// `form`, exploded (the default): each member its own key, `name=rex&age=3`; the names
    /// the schema declares.
    Exploded(Vec<String>),
    /// `form` with `explode: false`: `filter=name,rex,age,3`.
    Joined,
}

impl ObjectStyle {
    /// The style of a parameter in `location` with this `style`, `explode` and `schema`
    /// (self-contained: a `$ref` points into its own `$defs`); `None` unless it is a query
    /// parameter whose schema is an object, or a union with an object among its alternatives.
    pub fn of(
        location: Location,
        style: Option<&str>,
        explode: Option<bool>,
        schema: &Value,
    ) -> Option<ObjectStyle> {
        ObjectStyle::within(location, style, explode, schema, schema)
    }

    /// [`ObjectStyle::of`] a schema whose `$ref`s point into `root` (an OpenAPI document's
    /// `#/components/schemas/…`).
    pub fn within(
        location: Location,
        style: Option<&str>,
        explode: Option<bool>,
        schema: &Value,
        root: &Value,
    ) -> Option<ObjectStyle> {
        if location != Location::Query {
            return None;
        }
        // The objects the schema admits: itself, or the alternatives of a union that are
        // objects (Stripe's `created` is an object of bounds or an integer; OpenAPI 3.0's
        // nullable object is `anyOf: [object, null]`), through `$ref`s and lone `allOf`s.
        let mut others = false;
        let objects = objects_of(schema, root, 0, &mut others);
        if objects.is_empty() {
            return None;
        }
        let mut names: Vec<String> = Vec::new();
        for object in objects {
            let declared = object.get("properties").and_then(Value::as_object);
            for name in declared.into_iter().flat_map(|p| p.keys()) {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
        Some(match (style, explode) {
            (Some("deepObject"), _) => ObjectStyle::Deep,
            // `created=5` would read as a list of members: a union with another kind of
            // value has its object sent by keys of its own, or not at all.
            (None | Some("form"), Some(false)) if others => return None,
            (None | Some("form"), Some(false)) => ObjectStyle::Joined,
            _ => ObjectStyle::Exploded(names),
        })
    }

    /// Whether its members can be told from a query's other keys: not those of a free-form
    /// object sent exploded, which declares no member names.
    pub fn readable(&self) -> bool {
        !matches!(self, ObjectStyle::Exploded(names) if names.is_empty())
    }

    /// The members of the object parameter `name` among a query's pairs, each as its name
    /// (brackets kept: `address[city]`) and text; `None` when none is there. A free-form
    /// object sent exploded has no members to tell from other keys, so it is never there.
    pub fn members<'a>(
        &self,
        name: &str,
        query: &'a [(String, String)],
    ) -> Option<Vec<(String, &'a str)>> {
        let bracketed = || -> Vec<(String, &'a str)> {
            query
                .iter()
                .filter_map(|(key, text)| {
                    let inner = key.strip_prefix(name)?.strip_prefix('[')?;
                    let (member, deeper) = inner.split_once(']')?;
                    Some((format!("{member}{deeper}"), text.as_str()))
                })
                .collect()
        };
        let members: Vec<(String, &str)> = match self {
            ObjectStyle::Deep => bracketed(),
            // Sent with brackets all the same (`page[size]=10`, as PandaScore's own examples
            // write a `form` object): read as the members they name, and so checked, rather
            // than passed over unread.
            ObjectStyle::Exploded(names) => {
                let bare: Vec<(String, &str)> = query
                    .iter()
                    .filter(|(key, _)| names.contains(key))
                    .map(|(key, text)| (key.clone(), text.as_str()))
                    .collect();
                if bare.is_empty() { bracketed() } else { bare }
            }
            ObjectStyle::Joined => {
                let (_, text) = query.iter().find(|(key, _)| key == name)?;
                let parts: Vec<&str> = text.split(',').collect();
                parts
                    .chunks(2)
                    .map(|pair| (pair[0].to_string(), pair.get(1).copied().unwrap_or("")))
                    .collect()
            }
        };
        (!members.is_empty()).then_some(members)
    }
}

/// How the items of a list parameter travel (OpenAPI's `style` and `explode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListForm {
    /// One item per occurrence of the name, `?id=1&id=2`: a query's or a cookie's default
    /// (`form`, exploded), and any delimited style with `explode: true`.
    Repeated,
    /// Every item in one value, parted by this character: `?id=1,2` (`explode: false`),
    /// `?id=1|2` (`pipeDelimited`), `?id=1%202` (`spaceDelimited`); path and header lists
    /// always (`simple`), a header's list possibly spread over several lines.
    Delimited(char),
}

impl ListForm {
    /// The form OpenAPI gives a list parameter in `location` with this `style` and
    /// `explode` (each when the spec gives one): `explode` defaults to true for `form`, the
    /// default style of queries and cookies, and to false for every other style.
    pub fn of(location: Location, style: Option<&str>, explode: Option<bool>) -> ListForm {
        match location {
            Location::Path | Location::Header => ListForm::Delimited(','),
            Location::Query | Location::Cookie => {
                let (delimiter, exploded_by_default) = match style {
                    Some("pipeDelimited") => ('|', false),
                    Some("spaceDelimited") => (' ', false),
                    _ => (',', true),
                };
                if explode.unwrap_or(exploded_by_default) {
                    ListForm::Repeated
                } else {
                    ListForm::Delimited(delimiter)
                }
            }
        }
    }

    /// The items of a list given as the texts its name came with, in order (every query
    /// pair of that name, every line of a header), as the spec reads them. Repeated: each
    /// text is an item. Delimited: each text is split, and a text that is empty holds no item
    /// (`?ids=` is the empty list); items lose the spaces around them (`a, b`), except in
    /// `spaceDelimited`.
    pub fn items<'a>(self, texts: &[&'a str]) -> Vec<&'a str> {
        match self {
            ListForm::Repeated => texts.to_vec(),
            ListForm::Delimited(delimiter) => texts
                .iter()
                .filter(|text| !text.is_empty())
                .flat_map(|text| text.split(delimiter))
                .map(|item| if delimiter == ' ' { item } else { item.trim() })
                .collect(),
        }
    }

    /// The items a client may have meant instead: a lone text of a repeated list that holds
    /// commas, split at them (many clients send `?ids=1,2` where the spec says
    /// `?ids=1&ids=2`); `None` when there is no other reading.
    pub fn comma_reading<'a>(self, texts: &[&'a str]) -> Option<Vec<&'a str>> {
        match (self, texts) {
            (ListForm::Repeated, [lone]) if lone.contains(',') => {
                Some(lone.split(',').map(str::trim).collect())
            }
            _ => None,
        }
    }

    /// The items of a list given as `texts`: as the spec reads them ([`ListForm::items`]),
    /// unless only the [`ListForm::comma_reading`] makes them conform, as `conforms` judges
    /// (`?state=open,closed` of an enum), while a name (`?to=Smith, Jo`) stays whole.
    pub fn read<'a>(self, texts: &[&'a str], conforms: impl Fn(&[&str]) -> bool) -> Vec<&'a str> {
        let literal = self.items(texts);
        match self.comma_reading(texts) {
            Some(split) if !conforms(&literal) && conforms(&split) => split,
            _ => literal,
        }
    }
}

/// The schema the `$ref` of `schema` points to within `root`, a self-contained schema whose
/// references lead into its own `$defs` (`#/$defs/Status`); `None` without a `$ref`, or when
/// nothing is there.
pub fn referenced<'s>(schema: &Value, root: &'s Value) -> Option<&'s Value> {
    let target = schema.get("$ref")?.as_str()?;
    let pointer = target
        .split_once('#')
        .map_or(target, |(_, fragment)| fragment);
    root.pointer(pointer)
}

/// `schema`, or the schema its chain of `$ref`s within `root` ends at. The chain is cut after
/// 32 steps, so a reference to itself ends.
pub fn dereferenced<'s>(mut schema: &'s Value, root: &'s Value) -> &'s Value {
    for _ in 0..32 {
        match referenced(schema, root) {
            Some(next) => schema = next,
            None => break,
        }
    }
    schema
}

/// The object schemas `schema` admits (within `root`, whose `$defs` its `$ref`s name): itself
/// when it is an object's (its `type` names `object`, or it has `properties` and no type), or
/// else those of its `oneOf`/`anyOf` alternatives; `$ref`s and a lone `allOf` are followed.
/// `others` is set when an alternative admits a value that is neither an object nor `null`.
fn objects_of<'s>(
    schema: &'s Value,
    root: &'s Value,
    depth: usize,
    others: &mut bool,
) -> Vec<&'s Value> {
    if depth > 8 {
        return Vec::new();
    }
    let mut at = dereferenced(schema, root);
    // Bounded: `A: {allOf: [{$ref: A}]}` names itself.
    for _ in 0..8 {
        match at.get("allOf") {
            Some(Value::Array(parts)) if parts.len() == 1 => at = dereferenced(&parts[0], root),
            _ => break,
        }
    }
    if is_object(at) {
        return vec![at];
    }
    let alternatives: Vec<&Value> = ["oneOf", "anyOf"]
        .into_iter()
        .filter_map(|key| at.get(key)?.as_array())
        .flatten()
        .collect();
    if alternatives.is_empty() {
        *others |= at.get("type") != Some(&Value::String("null".into()));
        return Vec::new();
    }
    alternatives
        .into_iter()
        .flat_map(|alternative| objects_of(alternative, root, depth + 1, others))
        .collect()
}

/// Whether `schema` (within `root`) admits an object: it is an object's, or one of its
/// `oneOf`/`anyOf` alternatives is (Stripe's `metadata`: an object, or `""` to clear it).
pub fn admits_object(schema: &Value, root: &Value) -> bool {
    !objects_of(schema, root, 0, &mut false).is_empty()
}

/// Whether a schema is an object's: its `type` names `object`, or it has `properties` and no
/// type.
pub fn is_object(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(name)) => name == "object",
        Some(Value::Array(names)) => names.iter().any(|name| name == "object"),
        None => schema.get("properties").is_some(),
        Some(_) => false,
    }
}

/// A media type without its parameters, in lower case: `multipart/form-data`.
pub fn essence(media: &str) -> String {
    media
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// Whether a media type's [`essence`] is XML's: `application/xml`, `text/xml` or a `+xml`
/// type (`application/atom+xml`).
pub fn is_xml(essence: &str) -> bool {
    essence == "application/xml" || essence == "text/xml" || essence.ends_with("+xml")
}

/// Whether a body of media type `essence` is text its schema judges as one string
/// (`text/plain`, `text/csv`: any `text/*`), rather than a document its schema describes the
/// contents of: XML (`text/xml`, as AWS's query APIs answer, is read as little as
/// `application/xml`), whose schema describes the elements, not a string.
pub fn is_judged_text(essence: &str) -> bool {
    essence.starts_with("text/") && !is_xml(essence)
}

/// Whether a media type's [`essence`] is JSON's: `application/json`, a `+json` type
/// (`application/problem+json`) or `text/json`.
pub fn is_json(essence: &str) -> bool {
    // `text/json`: .NET's Swashbuckle lists it beside `application/json` on every body.
    essence == "application/json" || essence.ends_with("+json") || essence == "text/json"
}

/// How a parameter's text becomes JSON: by its schema's `type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// A string, as written.
    Text,
    /// `type: integer`.
    Integer,
    /// `type: number`.
    Number,
    /// `type: boolean`.
    Boolean,
    /// Text or another type (`anyOf: [integer, {enum: [all]}]`, `type: [string, integer]`):
    /// a number or boolean when the text reads as one, else the text.
    Mixed,
    /// A JSON text (a parameter written with `content: {application/json: …}`): the value it
    /// holds; text that is not JSON, as the string it is, for the schema to judge.
    Json,
}

impl ValueKind {
    /// The kind of a parameter with `schema`: its `type`, through a `$ref` into the schema's
    /// own `$defs` (a parameter whose schema is a component), a type list (`[integer, "null"]`)
    /// and `allOf`/`oneOf`/`anyOf`. Text when a string is among the types allowed, or when no
    /// type is said.
    pub fn of(schema: &Value) -> ValueKind {
        Self::within(schema, schema, 0).unwrap_or(ValueKind::Text)
    }

    /// The kind of each item, when `schema` is an array's: the items of a parameter that
    /// carries a list (`?id=1&id=2`, `?ids=1,2`, a header `a, b`).
    pub fn of_items(schema: &Value) -> Option<ValueKind> {
        Self::items_within(schema, schema)
    }

    /// The kind of each item of a union's list alternative, when `schema` is not itself an
    /// array's: a parameter that carries one value or a list (`oneOf: [{type: integer},
    /// {type: array, items: {type: integer}}]`, sent `?id=3` or `?id=1,2`).
    pub fn of_alternative_items(schema: &Value) -> Option<ValueKind> {
        if Self::of_items(schema).is_some() {
            return None;
        }
        let mut at = schema;
        for _ in 0..32 {
            let alternatives = ["oneOf", "anyOf"]
                .into_iter()
                .filter_map(|key| at.get(key).and_then(Value::as_array))
                .flatten();
            if let Some(kind) = alternatives
                .filter_map(|alternative| Self::items_within(alternative, schema))
                .next()
            {
                return Some(kind);
            }
            at = referenced(at, schema)?;
        }
        None
    }

    /// [`ValueKind::of_items`] of `schema`, found in `root`.
    fn items_within<'s>(schema: &'s Value, root: &'s Value) -> Option<ValueKind> {
        let mut at = schema;
        for _ in 0..32 {
            let is_array = match at.get("type") {
                Some(Value::String(name)) => name == "array",
                Some(Value::Array(names)) => names.iter().any(|name| name == "array"),
                _ => false,
            };
            if is_array {
                let items = at.get("items").unwrap_or(&Value::Bool(true));
                // An item that is an object (SQS's batch `Entries`) has no text form: one sent
                // as its JSON text is read as that JSON and judged by its schema, where its
                // text alone could never be an object and no request could keep the contract.
                let object = dereferenced(items, root);
                let is_object = object.get("type").and_then(Value::as_str) == Some("object")
                    || (object.get("type").is_none() && object.get("properties").is_some());
                if is_object {
                    return Some(ValueKind::Json);
                }
                return Some(Self::within(items, root, 0).unwrap_or(ValueKind::Text));
            }
            at = referenced(at, root)?;
        }
        None
    }

    /// The kind `schema` (found in `root`) says, if it says one.
    fn within(schema: &Value, root: &Value, depth: usize) -> Option<ValueKind> {
        // Deep enough for any real chain of refs, and an end to a ref to itself.
        if depth > 32 {
            return None;
        }
        if let Some(target) = referenced(schema, root) {
            let kind = Self::within(target, root, depth + 1);
            if kind.is_some() {
                return kind;
            }
        }
        match schema.get("type") {
            Some(Value::String(name)) => return Some(Self::named(name)),
            Some(Value::Array(names)) => {
                let kinds = names.iter().filter(|name| *name != "null");
                let kind = Self::either(kinds.filter_map(Value::as_str).map(Self::named));
                if kind.is_some() {
                    return kind;
                }
            }
            _ => {}
        }
        let members = |key: &str| {
            schema
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|member| Self::within(member, root, depth + 1))
                .collect::<Vec<_>>()
        };
        // Every member of an `allOf` applies: the first that names a kind says it.
        if let Some(kind) = members("allOf").into_iter().find(|k| *k != ValueKind::Text) {
            return Some(kind);
        }
        Self::either([members("oneOf"), members("anyOf")].concat())
    }

    /// The kind of a value that may be any of `kinds`.
    fn either(kinds: impl IntoIterator<Item = ValueKind>) -> Option<ValueKind> {
        kinds.into_iter().reduce(|a, b| match (a, b) {
            _ if a == b => a,
            (ValueKind::Integer, ValueKind::Number) | (ValueKind::Number, ValueKind::Integer) => {
                ValueKind::Number
            }
            _ => ValueKind::Mixed,
        })
    }

    fn named(name: &str) -> ValueKind {
        match name {
            "integer" => ValueKind::Integer,
            "number" => ValueKind::Number,
            "boolean" => ValueKind::Boolean,
            _ => ValueKind::Text,
        }
    }

    /// `text` as the JSON value its schema checks; `None` when it is not a number or boolean
    /// its kind needs. A number is read as a JSON parser reads it: a whole number as an
    /// integer, so `-2` reaches a decimal as `-2` (not `-2.0`) and an id beyond 2^53 keeps
    /// every digit; a float only when the text has a fraction or an exponent.
    pub fn value(self, text: &str) -> Option<Value> {
        let integer = || {
            text.parse::<i64>()
                .map(Value::from)
                .or_else(|_| text.parse::<u64>().map(Value::from))
                .ok()
        };
        match self {
            ValueKind::Integer => integer(),
            ValueKind::Number => integer().or_else(|| {
                text.parse::<f64>()
                    .ok()
                    .and_then(serde_json::Number::from_f64)
                    .map(Value::Number)
            }),
            ValueKind::Boolean => text.parse::<bool>().map(Value::Bool).ok(),
            ValueKind::Text => Some(Value::String(text.to_string())),
            ValueKind::Mixed => [ValueKind::Integer, ValueKind::Number, ValueKind::Boolean]
                .into_iter()
                .find_map(|kind| kind.value(text))
                .or_else(|| ValueKind::Text.value(text)),
            ValueKind::Json => {
                Some(serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string())))
            }
        }
    }
}

/// A documented request body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestBody {
    /// Whether the body is required.
    pub required: bool,
    /// Its media type.
    pub content_type: String,
    /// The other media types the spec documents for it (`application/xml` beside JSON), as
    /// written; the schema is the one of `content_type`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_content_types: Vec<String>,
    /// Those of `other_content_types` documented with the very schema of `content_type` (a
    /// form beside JSON): a form or `multipart/form-data` body sent as one is read by it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub same_schema_content_types: Vec<String>,
    /// The contract file of the schema of each other form or `multipart/form-data` media type
    /// documented with a schema of its own, by media type as written.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub field_schemas: BTreeMap<String, String>,
    /// The contract file of the schema of each other JSON media type documented with a
    /// schema of its own (JSON Merge Patch beside JSON), by media type as written: a body
    /// sent as one is checked by it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub json_schemas: BTreeMap<String, String>,
    /// The contract file of its schema.
    pub schema: String,
    /// A form's fields whose `encoding` sends a list as one value, with the delimiter between
    /// its items (`codes=1,2,3` for `style: form, explode: false`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub delimited_fields: BTreeMap<String, String>,
    /// A form's fields whose `encoding` gives them a JSON `contentType`: each field's value is
    /// JSON text (`meta={"k":"v"}`), not brackets.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub json_fields: Vec<String>,
}

/// A documented response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Response {
    /// Its body's media type, when a body is documented.
    pub content_type: Option<String>,
    /// The other media types the spec documents for its body, as written; the schema is the
    /// one of `content_type`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_content_types: Vec<String>,
    /// The contract file of the schema of each other JSON media type documented with a
    /// schema of its own (`application/geo+json` beside `application/json`), by media type
    /// as written: a body received as one is checked by it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub json_schemas: BTreeMap<String, String>,
    /// The contract file of its body's schema, when a body is documented.
    pub schema: Option<String>,
    /// The error codes (`code` of an error body) the spec's examples show for it.
    pub example_codes: Vec<String>,
    /// The headers it documents, as header parameters (`Content-Type` aside).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<Parameter>,
}

/// The layout version alone, read first so that a manifest of another layout is refused
/// by its number rather than by the first field that moved.
#[derive(Deserialize)]
struct Version {
    format: Option<u64>,
}

impl Manifest {
    /// The words of the document's `http` security schemes (`basic`, a custom
    /// `HMAC-SHA256`), sorted, each once: alone, a value of one carries no credential (see
    /// [`is_scheme_word`]).
    pub fn http_scheme_words(&self) -> Vec<String> {
        let mut words: Vec<String> = self
            .security_schemes
            .values()
            .filter_map(|scheme| scheme.scheme.clone())
            .collect();
        words.sort_unstable();
        words.dedup();
        words
    }

    /// Reads a manifest; an error (for a person) when the text is not JSON, not a manifest of
    /// layout [`FORMAT`], or not one as specgen writes it.
    pub fn parse(text: &str) -> Result<Manifest, String> {
        let version: Version = serde_json::from_str(text).map_err(|err| err.to_string())?;
        match version.format {
            Some(FORMAT) => {}
            Some(other) => {
                return Err(format!(
                    "manifest layout {other}, but this reader knows layout {FORMAT}: regenerate the contract with the specgen that matches this reader"
                ));
            }
            None => return Err("no `format`: not a manifest specgen wrote".to_string()),
        }
        serde_json::from_str(text).map_err(|err| err.to_string())
    }
}

/// Whether a string has a format.
pub type FormatCheck = fn(&str) -> bool;

/// The formats the contract reads its own way, with their checks: every reader of the contract
/// (specval, specgen's example checks, the generated servers) compiles its schemas with them.
pub const FORMATS: [(&str, FormatCheck); 6] = [
    ("uri", is_uri),
    ("byte", is_base64),
    ("duration", is_duration),
    ("int32", is_int32),
    ("int64", is_int64),
    ("uint64", is_uint64),
];

/// The `format: int64` check of a string (Google's APIs send 64-bit integers as text,
/// `"size": "1234"`, as JSON numbers cannot hold them all): the text is such an integer. A
/// format rules on strings alone: a number's range is its type's and bounds' to judge.
pub fn is_int64(text: &str) -> bool {
    text.parse::<i64>().is_ok()
}

/// [`is_int64`] for `format: int32`.
pub fn is_int32(text: &str) -> bool {
    text.parse::<i32>().is_ok()
}

/// [`is_int64`] for `format: uint64`.
pub fn is_uint64(text: &str) -> bool {
    text.parse::<u64>().is_ok()
}

/// The `format: byte` check every reader of the contract compiles its schemas with
/// (`with_format("byte", is_base64)`): base64 text (RFC 4648), as OpenAPI defines the format.
/// Lenient where real services differ and a decoder still reads the text: the URL-safe
/// alphabet (Google's APIs), padding left out, and white space (MIME's line breaks).
pub fn is_base64(text: &str) -> bool {
    let mut digits = 0usize;
    let mut padding = 0usize;
    for byte in text.bytes() {
        match byte {
            b' ' | b'\t' | b'\r' | b'\n' => {}
            b'=' => padding += 1,
            // A digit after padding: the padding was not at the end.
            _ if padding > 0 => return false,
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'+' | b'/' | b'-' | b'_' => digits += 1,
            _ => return false,
        }
    }
    let complete = (digits + padding).is_multiple_of(4);
    padding <= 2 && digits % 4 != 1 && (padding == 0 || complete)
}

/// The `format: uri` check every reader of the contract compiles its schemas with
/// (`with_format("uri", is_uri)`): any URI reference, relative ones included. JSON Schema's
/// `uri` wants an absolute URI, but real specs mark relative links `uri` (Twilio's
/// `first_page_uri` is `/2010-04-01/Accounts/…`, in every list it answers), so the strict
/// reading refused the vendor's own traffic. Text that is no URI reference at all (a space, a
/// stray `%`) is still refused.
pub fn is_uri(text: &str) -> bool {
    static REFERENCE: std::sync::OnceLock<Option<jsonschema::Validator>> =
        std::sync::OnceLock::new();
    has_format(&REFERENCE, "uri-reference", text)
}

/// The `format: duration` check every reader of the contract compiles its schemas with
/// (`with_format("duration", is_duration)`): RFC 3339's durations, and a fraction on the
/// seconds as ISO 8601 allows (`PT9.87S`). RFC 3339's grammar has none, but .NET writes a
/// `TimeSpan` so, and Azure's specs and their own examples are full of them.
pub fn is_duration(text: &str) -> bool {
    static DURATION: std::sync::OnceLock<Option<jsonschema::Validator>> =
        std::sync::OnceLock::new();
    let whole_seconds = text
        .strip_suffix('S')
        .and_then(|rest| rest.rsplit_once(['.', ',']))
        .filter(|(whole, fraction)| {
            whole.ends_with(|c: char| c.is_ascii_digit())
                && !fraction.is_empty()
                && fraction.bytes().all(|b| b.is_ascii_digit())
        })
        .map(|(whole, _)| format!("{whole}S"));
    has_format(
        &DURATION,
        "duration",
        whole_seconds.as_deref().unwrap_or(text),
    )
}

/// Whether `text` has JSON Schema's `format` (the jsonschema crate's check, compiled once).
fn has_format(
    check: &std::sync::OnceLock<Option<jsonschema::Validator>>,
    format: &str,
    text: &str,
) -> bool {
    let check = check.get_or_init(|| {
        jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(true)
            .build(&serde_json::json!({ "format": format }))
            .ok()
    });
    check
        .as_ref()
        .is_none_or(|check| check.is_valid(&Value::String(text.to_owned())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text/*` is one string its schema judges, except XML, whose schema describes elements.
    #[test]
    fn xml_in_any_media_type_is_no_judged_text() {
        for text in ["text/plain", "text/csv", "text/html"] {
            assert!(is_judged_text(text), "{text}");
        }
        for other in [
            "text/xml",
            "application/xml",
            "application/atom+xml",
            "application/json",
        ] {
            assert!(!is_judged_text(other), "{other}");
        }
        assert!(is_xml("text/xml") && is_xml("application/rss+xml") && !is_xml("text/plain"));
    }

    fn manifest() -> Manifest {
        Manifest {
            format: FORMAT,
            title: "T".into(),
            version: "1".into(),
            base_path: "/v1".into(),
            servers: Vec::new(),
            security_schemes: BTreeMap::new(),
            operations: Vec::new(),
            webhooks: Vec::new(),
            components: BTreeMap::new(),
            error_envelope: None,
        }
    }

    #[test]
    fn an_error_envelope_words_a_rejection_as_the_generated_server_does() {
        let messages = ["a".to_string(), "b".to_string()];
        let documented = |messages_at: Messages| ErrorEnvelope::Documented {
            code: Some("error".into()),
            messages: Some(messages_at),
            status: Some("status".into()),
        };
        let body = |envelope: ErrorEnvelope| {
            envelope.body(400, "Bad Request", "VALIDATION_ERROR", &messages)
        };
        assert_eq!(
            body(documented(Messages::List("errors".into()))),
            (
                serde_json::json!({"error": "VALIDATION_ERROR", "errors": ["a", "b"], "status": 400}),
                "application/json"
            )
        );
        assert_eq!(
            body(documented(Messages::Items {
                list: "errors".into(),
                text: "detail".into(),
                code: Some("code".into()),
            }))
            .0,
            serde_json::json!({
                "error": "VALIDATION_ERROR",
                "errors": [
                    {"code": "VALIDATION_ERROR", "detail": "a"},
                    {"code": "VALIDATION_ERROR", "detail": "b"}
                ],
                "status": 400
            })
        );
        assert_eq!(
            body(documented(Messages::AfterCode)).0,
            serde_json::json!({"error": "VALIDATION_ERROR: a; b", "status": 400})
        );
        assert_eq!(
            body(ErrorEnvelope::ProblemDetails),
            (
                serde_json::json!({
                    "type": "about:blank",
                    "title": "Bad Request",
                    "status": 400,
                    "detail": "a; b",
                    "code": "VALIDATION_ERROR",
                    "errors": ["a", "b"],
                }),
                "application/problem+json"
            )
        );
        // As the manifest writes it.
        let written = serde_json::to_value(documented(Messages::Text("message".into()))).unwrap();
        assert_eq!(
            written,
            serde_json::json!({"kind": "documented", "code": "error", "messages": {"text": "message"}, "status": "status"})
        );
    }

    #[test]
    fn a_list_sent_with_brackets_is_its_list_parameter() {
        let query = [
            ("ids", true),
            ("filter", false),
            ("tags[]", true),
            ("tags", true),
        ];
        let find = |key: &str| bracketed_list(key, query.iter().copied());
        assert_eq!(find("ids[]"), Some("ids"));
        assert_eq!(find("ids[0]"), Some("ids"));
        assert_eq!(find("ids[12]"), Some("ids"));
        // Not a list, not a list index, or a parameter's very name.
        assert_eq!(find("filter[]"), None);
        assert_eq!(find("ids[name]"), None);
        assert_eq!(find("tags[]"), None);
        assert_eq!(find("ids"), None);
        assert_eq!(find("other[]"), None);
    }

    /// A token in any scheme (OAuth 2, OpenID Connect) is not a scheme's word alone: not
    /// IANA's (`DPoP`, `Negotiate`) nor one the document declares (`HMAC-SHA256`).
    #[test]
    fn a_scheme_word_alone_presents_no_token() {
        for word in ["Bearer", "DPoP", "negotiate", " NTLM "] {
            assert!(!presents_credential(word, None), "{word}");
        }
        assert!(presents_credential("HMAC-SHA256", None));
        assert!(!presents_credential_beside(
            "HMAC-SHA256",
            None,
            &["HMAC-SHA256"]
        ));
        assert!(presents_credential_beside("tok3n", None, &["HMAC-SHA256"]));
        assert!(presents_credential("DPoP eyJ.x.y", None));
        assert!(presents_credential("Basic dXNlcjpwdw", Some("basic")));
    }

    #[test]
    fn a_lists_form_follows_its_style_and_explode_with_openapis_defaults() {
        use ListForm::{Delimited, Repeated};
        for (location, style, explode, form) in [
            (Location::Query, None, None, Repeated),
            (Location::Query, Some("form"), Some(false), Delimited(',')),
            (Location::Query, Some("pipeDelimited"), None, Delimited('|')),
            (
                Location::Query,
                Some("spaceDelimited"),
                Some(false),
                Delimited(' '),
            ),
            (Location::Query, Some("pipeDelimited"), Some(true), Repeated),
            (Location::Cookie, None, None, Repeated),
            (Location::Header, None, Some(true), Delimited(',')),
            (Location::Path, Some("simple"), None, Delimited(',')),
        ] {
            assert_eq!(
                ListForm::of(location, style, explode),
                form,
                "{location:?} {style:?} {explode:?}"
            );
        }
    }

    #[test]
    fn a_lists_items_are_read_from_every_text_it_came_with() {
        let integers = |items: &[&str]| items.iter().all(|item| item.parse::<i64>().is_ok());
        let anything = |_: &[&str]| true;
        let repeated = ListForm::Repeated;
        assert_eq!(repeated.read(&["1", "2"], integers), ["1", "2"]);
        // A lone text that is not one item but holds commas: a list written the other way.
        assert_eq!(repeated.read(&["1, 2"], integers), ["1", "2"]);
        // One that reads as one item keeps its commas.
        assert_eq!(repeated.read(&["a,b"], anything), ["a,b"]);
        // Two texts are two items, whatever they hold.
        assert_eq!(repeated.read(&["1,2", "3"], integers), ["1,2", "3"]);
        let comma = ListForm::Delimited(',');
        assert_eq!(comma.read(&["1, 2", "3"], integers), ["1", "2", "3"]);
        assert_eq!(comma.read(&[""], integers), Vec::<&str>::new());
        assert_eq!(
            ListForm::Delimited('|').read(&["a|b,c"], anything),
            ["a", "b,c"]
        );
        assert_eq!(
            ListForm::Delimited(' ').read(&["a b"], anything),
            ["a", "b"]
        );
    }

    /// Stripe's `created` is an object of bounds or an integer, and OpenAPI 3.0's nullable
    /// object an `anyOf` with `null`: `created[gte]=1` is the object's member all the same.
    /// Before, such a parameter was never read from its members, so a member of the wrong
    /// type passed unchecked.
    #[test]
    fn a_union_with_an_object_alternative_is_read_from_its_members() {
        let bounds = serde_json::json!({
            "anyOf": [
                {"$ref": "#/$defs/Range"},
                {"type": "integer"}
            ],
            "$defs": {"Range": {"type": "object", "properties": {"gt": {}, "gte": {}}}}
        });
        let style = |schema: &Value, style, explode| {
            ObjectStyle::of(Location::Query, style, explode, schema)
        };
        assert_eq!(
            style(&bounds, Some("deepObject"), None),
            Some(ObjectStyle::Deep)
        );
        let exploded = ObjectStyle::Exploded(vec!["gt".into(), "gte".into()]);
        assert_eq!(style(&bounds, None, None), Some(exploded));
        // `created=5` is the integer: not a list of members.
        assert_eq!(style(&bounds, None, Some(false)), None);
        let nullable = serde_json::json!({
            "anyOf": [{"type": "object", "properties": {"size": {}}}, {"type": "null"}]
        });
        assert_eq!(
            style(&nullable, None, Some(false)),
            Some(ObjectStyle::Joined)
        );
        let listed = serde_json::json!({"type": ["object", "null"], "properties": {"size": {}}});
        let exploded = ObjectStyle::Exploded(vec!["size".into()]);
        assert_eq!(style(&listed, None, None), Some(exploded));
        let scalars = serde_json::json!({"anyOf": [{"type": "integer"}, {"type": "string"}]});
        assert_eq!(style(&scalars, Some("deepObject"), None), None);
        // A lone `allOf` that names itself ends.
        let looping = serde_json::json!({
            "$ref": "#/$defs/A",
            "$defs": {"A": {"allOf": [{"$ref": "#/$defs/A"}]}}
        });
        assert_eq!(style(&looping, Some("deepObject"), None), None);
    }

    #[test]
    fn an_objects_members_are_read_from_the_query_as_its_style_says() {
        let schema = serde_json::json!({
            "$ref": "#/$defs/Filter",
            "$defs": {"Filter": {"type": "object", "properties": {"name": {}, "age": {}}}}
        });
        let style = |location, style, explode| ObjectStyle::of(location, style, explode, &schema);
        assert_eq!(
            style(Location::Query, Some("deepObject"), Some(true)),
            Some(ObjectStyle::Deep)
        );
        assert_eq!(
            style(Location::Query, None, Some(false)),
            Some(ObjectStyle::Joined)
        );
        let exploded = ObjectStyle::Exploded(vec!["name".into(), "age".into()]);
        assert_eq!(style(Location::Query, None, None), Some(exploded.clone()));
        assert_eq!(style(Location::Header, None, None), None);
        let text = serde_json::json!({"type": "string"});
        assert_eq!(ObjectStyle::of(Location::Query, None, None, &text), None);

        let query: Vec<(String, String)> = [
            ("filter[name]", "rex"),
            ("filter[tags][0]", "a"),
            ("name", "max"),
            ("other", "x"),
            ("filter", "name,rex,age,3"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let owned = |members: Vec<(String, &str)>| -> Vec<(String, String)> {
            members
                .into_iter()
                .map(|(k, v)| (k, v.to_string()))
                .collect()
        };
        let pairs = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        assert_eq!(
            owned(ObjectStyle::Deep.members("filter", &query).unwrap()),
            pairs(&[("name", "rex"), ("tags[0]", "a")])
        );
        assert_eq!(
            owned(exploded.members("filter", &query).unwrap()),
            pairs(&[("name", "max")])
        );
        assert_eq!(
            owned(ObjectStyle::Joined.members("filter", &query).unwrap()),
            pairs(&[("name", "rex"), ("age", "3")])
        );
        assert_eq!(ObjectStyle::Deep.members("page", &query), None);
        // An exploded object sent with brackets instead is read by them; bare members win.
        let bracketed = pairs(&[("page[size]", "500"), ("page[number]", "2")]);
        let page = ObjectStyle::Exploded(vec!["size".into(), "number".into()]);
        assert_eq!(
            owned(page.members("page", &bracketed).unwrap()),
            pairs(&[("size", "500"), ("number", "2")])
        );
        let both = pairs(&[("page[size]", "500"), ("size", "5")]);
        assert_eq!(
            owned(page.members("page", &both).unwrap()),
            pairs(&[("size", "5")])
        );
    }

    #[test]
    fn a_manifest_reads_back_as_written() {
        let text = serde_json::to_string(&manifest()).unwrap();
        assert_eq!(Manifest::parse(&text).unwrap(), manifest());
    }

    #[test]
    fn another_layout_is_refused_by_its_number() {
        let mut value = serde_json::to_value(manifest()).unwrap();
        value["format"] = 2.into();
        let err = Manifest::parse(&value.to_string()).unwrap_err();
        assert!(
            err.contains("manifest layout 2") && err.contains("layout 1"),
            "{err}"
        );
        value.as_object_mut().unwrap().remove("format");
        let err = Manifest::parse(&value.to_string()).unwrap_err();
        assert!(err.contains("no `format`"), "{err}");
    }

    #[test]
    fn an_unknown_parameter_location_is_an_error_not_a_cookie() {
        let parameter = r#"{"name": "x", "in": "body", "required": true, "schema": {}}"#;
        let err = serde_json::from_str::<Parameter>(parameter).unwrap_err();
        assert!(err.to_string().contains("unknown variant `body`"), "{err}");
    }

    #[test]
    fn parameter_text_becomes_the_json_its_schema_checks() {
        let kind = |schema: Value| ValueKind::of(&schema);
        assert_eq!(
            kind(serde_json::json!({"type": "integer"})).value("42"),
            Some(42.into())
        );
        assert_eq!(
            kind(serde_json::json!({"type": "integer"})).value("4.2"),
            None
        );
        assert_eq!(
            kind(serde_json::json!({"type": "number"})).value("4.5"),
            Some(4.5.into())
        );
        // Whole numbers stay integers, as in a JSON body: no `.0`, no digit lost past 2^53.
        let number = kind(serde_json::json!({"type": "number"}));
        assert_eq!(number.value("-2"), Some((-2).into()));
        assert!(number.value("-2").unwrap().is_i64());
        assert_eq!(
            number.value("9007199254740993"),
            Some(9_007_199_254_740_993_i64.into())
        );
        assert_eq!(
            kind(serde_json::json!({"type": "integer"})).value("18446744073709551615"),
            Some(u64::MAX.into())
        );
        assert_eq!(number.value("1e3"), Some(1000.0.into()));
        assert_eq!(
            kind(serde_json::json!({"type": "boolean"})).value("true"),
            Some(true.into())
        );
        assert_eq!(
            kind(serde_json::json!({"type": "string"})).value("007"),
            Some("007".into())
        );
        assert_eq!(kind(serde_json::json!({})).value("x"), Some("x".into()));
    }

    #[test]
    fn the_kind_is_found_through_refs_type_lists_and_alternatives() {
        use serde_json::json;
        let kind = |schema: Value| ValueKind::of(&schema);
        // A parameter whose schema is a component: the contract bundles it under `$defs`.
        let limit = json!({"$ref": "#/$defs/Limit", "$defs": {"Limit": {"type": "integer"}}});
        assert_eq!(kind(limit).value("5"), Some(5.into()));
        let chained = json!({
            "$ref": "#/$defs/A",
            "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"type": "boolean"}}
        });
        assert_eq!(kind(chained), ValueKind::Boolean);
        assert_eq!(
            kind(json!({"type": ["integer", "null"]})),
            ValueKind::Integer
        );
        assert_eq!(kind(json!({"type": ["null", "number"]})), ValueKind::Number);
        assert_eq!(kind(json!({"type": ["string", "null"]})), ValueKind::Text);
        assert_eq!(
            kind(json!({"type": ["integer", "number"]})),
            ValueKind::Number
        );
        assert_eq!(
            kind(json!({"type": ["string", "integer"]})).value("7"),
            Some(7.into())
        );
        assert_eq!(
            kind(json!({"allOf": [{"description": "d"}, {"type": "number"}]})),
            ValueKind::Number
        );
        assert_eq!(
            kind(json!({"oneOf": [{"type": "boolean"}]})),
            ValueKind::Boolean
        );
        // `7` or `all`: what reads as a number is one, the rest stays text.
        let count =
            kind(json!({"anyOf": [{"type": "integer"}, {"type": "string", "enum": ["all"]}]}));
        assert_eq!(count.value("7"), Some(7.into()));
        assert_eq!(count.value("all"), Some("all".into()));
        assert_eq!(count.value("true"), Some(true.into()));
        // A ref to itself or to nowhere ends, as text.
        assert_eq!(
            kind(json!({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/A"}}})),
            ValueKind::Text
        );
        assert_eq!(kind(json!({"$ref": "#/$defs/Missing"})), ValueKind::Text);
    }

    #[test]
    fn a_list_parameter_names_the_kind_of_its_items() {
        use serde_json::json;
        let items = |schema: Value| ValueKind::of_items(&schema);
        assert_eq!(
            items(json!({"type": "array", "items": {"type": "integer"}})),
            Some(ValueKind::Integer)
        );
        assert_eq!(
            items(json!({"$ref": "#/$defs/Ids", "$defs": {
                "Ids": {"type": ["array", "null"], "items": {"$ref": "#/$defs/Id"}},
                "Id": {"type": "number"}
            }})),
            Some(ValueKind::Number)
        );
        assert_eq!(items(json!({"type": "array"})), Some(ValueKind::Text));
        assert_eq!(items(json!({"type": "integer"})), None);
        // An object item (SQS's batch `Entries`) is read from its JSON text: as text alone
        // it could never be an object.
        assert_eq!(
            items(
                json!({"type": "array", "items": {"$ref": "#/$defs/Entry"}, "$defs": {
                    "Entry": {"type": "object", "properties": {"Id": {"type": "string"}}}
                }})
            ),
            Some(ValueKind::Json)
        );
        assert_eq!(
            items(json!({"type": "array", "items": {"properties": {"Id": {}}}})),
            Some(ValueKind::Json)
        );
        assert_eq!(
            items(json!({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/A"}}})),
            None
        );
    }

    #[test]
    fn a_uri_may_be_relative_but_must_be_a_uri_reference() {
        for text in [
            "https://api.example.com/v1/pets?page=2",
            "/2010-04-01/Accounts/AC1/Messages.json?PageSize=50&Page=0",
            "pets/7",
            "urn:isbn:0451450523",
        ] {
            assert!(is_uri(text), "{text}");
        }
        for text in ["not a uri", "https://exa mple.com", "/a%zz"] {
            assert!(!is_uri(text), "{text}");
        }
    }

    #[test]
    fn a_duration_may_have_a_fraction_of_a_second() {
        for text in ["P1DT2H", "PT9.87S", "PT0,5S", "P1DT1H1M1.123S", "P3W"] {
            assert!(is_duration(text), "{text}");
        }
        for text in ["PT9.S", "PT.5S", "P1.5D", "9.87S", "PT9.87", "soon"] {
            assert!(!is_duration(text), "{text}");
        }
    }

    #[test]
    fn base64_is_either_alphabet_padded_or_not() {
        for text in [
            "",
            "aGk=",
            "aGk",
            "aGVsbG8=",
            "a-_b",
            "aGVs\r\nbG8=",
            "aGVs bG8=",
            "YQ==",
        ] {
            assert!(is_base64(text), "{text}");
        }
        for text in [
            "***",
            "a",
            "aGk=x",
            "aGk===",
            "YQ=",
            "hello, world",
            "[file data]",
        ] {
            assert!(!is_base64(text), "{text}");
        }
    }
}
