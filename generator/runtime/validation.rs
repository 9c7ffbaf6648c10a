//! The contract's rules, compiled once from the embedded `schemas/`: what the server
//! and the webhook receiver check before any handler runs. The same files are what
//! `specval` checks recorded traffic against.

// `src/validation.rs` of every generated crate with a server or webhooks, spliced in whole by
// specgen (`emit::runtime::validation`), `manifest` included. specgen keeps it as an ordinary
// Rust file so that it is compiled and unit-tested as itself (`generator/tests/runtime/`).

use ::std::collections::HashMap;
use ::std::sync::OnceLock;

use ::jsonschema::Validator;
use ::serde_json::Value;

pub use self::manifest::{ListForm, Location, ObjectStyle, ValueKind, essence};

#[path = "manifest.rs"]
pub mod manifest;

#[path = "form.rs"]
pub mod form;

/// A parameter's rule.
pub struct ParameterRule {
    /// Its name.
    pub name: String,
    /// Where it travels.
    pub location: Location,
    /// Whether it must be present.
    pub required: bool,
    schema: Validator,
    kind: ValueKind,
    /// For a parameter whose schema is an array: how each item's text becomes JSON.
    items: Option<ValueKind>,
    /// For a parameter whose schema is one value or a list (`oneOf: [integer, {type: array,
    /// items: integer}]`): how each item of the list alternative becomes JSON.
    alternative_items: Option<ValueKind>,
    /// How a list's items travel ([`manifest::Parameter::list_form`]).
    list_form: ListForm,
    /// For a query parameter whose schema is an object: how its members travel, and the
    /// schema that reads them.
    object: Option<(ObjectStyle, Value)>,
    /// A query parameter that may be sent with an empty value (`allowEmptyValue: true`).
    pub allow_empty: bool,
    /// What such a parameter's empty value stands for, where its schema says: the one value
    /// it allows, or a required parameter's `default`.
    pub empty_reads_as: Option<String>,
}

/// What the empty value of a parameter that allows one (`?acl`, `?verbose=`) stands for: the
/// one value its schema allows (a `const`, an `enum` of one: S3's `acl` is `{type: boolean,
/// enum: [true]}`, a flag whose presence is the value), else, for a required one, its
/// `default`; `None` when the schema says nothing, and the empty value is then no value.
fn empty_reading(schema: &Value, required: bool) -> Option<String> {
    let only = match (schema.get("const"), schema.get("enum")) {
        (Some(value), _) => Some(value),
        (None, Some(Value::Array(values))) if values.len() == 1 => values.first(),
        _ => None,
    };
    let value = only.or_else(|| schema.get("default").filter(|_| required))?;
    Some(match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    })
}

impl ParameterRule {
    /// A list's items given as `texts`, as its form reads them, by its schema where a lone
    /// text holding commas could be read two ways ([`ListForm::read`]).
    fn items_of<'a>(&self, kind: ValueKind, texts: &[&'a str]) -> Vec<&'a str> {
        self.list_form.read(texts, |items| {
            self.schema.is_valid(&list_value(kind, items))
        })
    }

    /// The items of a parameter that is one value or a list ([`Self::alternative_items`]):
    /// a key repeated is the list; a lone text is the one value when it keeps the schema as
    /// one, else the list it reads as. specval reads such a parameter the same way.
    fn one_or_list<'a>(&self, kind: ValueKind, texts: &[&'a str]) -> Vec<&'a str> {
        if let [text] = texts
            && self
                .kind
                .value(text)
                .is_some_and(|one| self.schema.is_valid(&one))
        {
            return vec![*text];
        }
        self.items_of(kind, texts)
    }
}

/// A list's items as the JSON array its schema checks, each kept as text when it does not
/// parse as `kind`, for the schema to name.
fn list_value(kind: ValueKind, items: &[&str]) -> Value {
    Value::Array(
        items
            .iter()
            .map(|item| {
                kind.value(item)
                    .unwrap_or_else(|| Value::String(item.to_string()))
            })
            .collect(),
    )
}

/// The rules of one operation or webhook.
pub struct OperationRules {
    /// Parameters, in the manifest's order.
    pub parameters: Vec<ParameterRule>,
    /// The request body's schema and whether the body is required.
    pub body: Option<(bool, Validator)>,
    /// The request body's media type, without parameters and in lower case.
    pub body_media: Option<String>,
    /// Whether the request body is bytes in any media type (`*/*` holding `format: binary`,
    /// an upload of whatever the file is), which the handler takes as they came.
    pub body_any_bytes: bool,
    /// The request body's schema as written, when the body is a form
    /// (`application/x-www-form-urlencoded`): its fields are read by it ([`form::decode`]).
    pub form: Option<Value>,
    /// How the form's `encoding` sends some of its fields (delimited lists, JSON values).
    pub form_encoding: form::Encoding,
    /// The request body's schema as written, when the body is `multipart/form-data` made of
    /// fields ([`form::holds_fields`]): its parts are read by it ([`form::decode_multipart`]).
    pub multipart: Option<Value>,
    /// The other media types documented for the request body (`application/x-www-form-urlencoded`
    /// or `text/plain` beside JSON), without parameters and in lower case.
    pub body_alternatives: Vec<String>,
    /// The request body's schema as written, when it is JSON and a form is documented beside
    /// it, or `multipart/form-data` with that very schema (as Django REST framework documents
    /// every body): a form's fields, or the parts, are read into the object it describes.
    pub alternative_form: Option<Value>,
    /// `multipart/form-data` is documented beside JSON with the JSON's schema.
    pub alternative_multipart: bool,
    /// Schemas of documented response bodies, by status key (`200`, `2XX`, `default`).
    pub responses: HashMap<String, Validator>,
    /// The other form and multipart media types documented with a schema of their own (an
    /// upload as bytes or as parts): the media type (lower case, no parameters), the schema
    /// as written (it reads the fields) and compiled (it checks them).
    pub field_schemas: Vec<(String, Value, Validator)>,
    /// Where the request body's schema stands in the contract, and the names of the members
    /// it declares at its top level, read the first time they are asked for.
    body_schema: Option<String>,
    declared: OnceLock<Vec<String>>,
}

/// Every operation's and webhook's rules, each compiled the first time it is asked for: a
/// server of a large API compiles the schemas of the operations it serves, not all of them
/// before its first answer.
pub struct Rules {
    operations: HashMap<String, Pending>,
    webhooks: HashMap<String, Pending>,
    /// The words of the document's `http` security schemes (`basic`, a custom
    /// `HMAC-SHA256`): a value that is one alone carries no credential.
    http_scheme_words: Vec<String>,
}

/// An operation's entry in the manifest, and its rules once compiled.
struct Pending {
    entry: manifest::Operation,
    rules: OnceLock<OperationRules>,
}

impl Pending {
    fn rules(&self) -> &OperationRules {
        self.rules
            .get_or_init(|| match OperationRules::compile(&self.entry) {
                Ok(rules) => rules,
                // The contract is generated and tested with the crate: failing here means
                // the crate was edited by hand.
                Err(message) => panic!("the embedded contract does not compile: {message}"),
            })
    }
}

/// The contract's rules, the manifest read on first use.
pub fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| match Rules::read() {
        Ok(rules) => rules,
        Err(message) => panic!("the embedded contract does not compile: {message}"),
    })
}

impl Rules {
    fn read() -> Result<Rules, String> {
        let manifest = manifest::Manifest::parse(crate::contract::manifest())
            .map_err(|err| format!("manifest.json: {err}"))?;
        let pending = |entries: Vec<manifest::Operation>| -> HashMap<String, Pending> {
            entries
                .into_iter()
                .map(|entry| {
                    let key = entry.key().to_string();
                    let rules = OnceLock::new();
                    (key, Pending { entry, rules })
                })
                .collect()
        };
        let http_scheme_words = manifest.http_scheme_words();
        Ok(Rules {
            operations: pending(manifest.operations),
            webhooks: pending(manifest.webhooks),
            http_scheme_words,
        })
    }

    /// The words of the document's `http` security schemes (see [`manifest::is_scheme_word`]).
    pub fn http_scheme_words(&self) -> &[String] {
        &self.http_scheme_words
    }

    /// The rules of an operation, by operationId.
    pub fn operation(&self, operation_id: &str) -> Option<&OperationRules> {
        self.operations.get(operation_id).map(Pending::rules)
    }

    /// The rules of a webhook, by its name under `webhooks`.
    pub fn webhook(&self, name: &str) -> Option<&OperationRules> {
        self.webhooks.get(name).map(Pending::rules)
    }
}

fn compile_schema(schema: &Value) -> Result<Validator, String> {
    let options = ::jsonschema::options()
        .with_draft(::jsonschema::Draft::Draft202012)
        .should_validate_formats(true);
    manifest::FORMATS
        .into_iter()
        .fold(options, |options, (name, check)| {
            options.with_format(name, check)
        })
        .build(schema)
        .map_err(|err| err.to_string())
}

fn schema_file(path: &str) -> Result<Validator, String> {
    let schema = crate::contract::schema(path)?;
    compile_schema(&schema).map_err(|err| format!("{path}: {err}"))
}

impl OperationRules {
    fn compile(entry: &manifest::Operation) -> Result<OperationRules, String> {
        let mut parameters = Vec::new();
        for param in &entry.parameters {
            parameters.push(ParameterRule {
                name: param.name.clone(),
                location: param.location,
                required: param.required,
                schema: compile_schema(&param.schema)?,
                kind: param.kind(),
                items: param.items(),
                alternative_items: param.alternative_items(),
                list_form: param.list_form(),
                object: param
                    .object_style()
                    .map(|style| (style, param.schema.clone())),
                allow_empty: param.allow_empty_value,
                empty_reads_as: param
                    .allow_empty_value
                    .then(|| empty_reading(&param.schema, param.required))
                    .flatten(),
            });
        }
        let body = match &entry.request_body {
            Some(body) => Some((body.required, schema_file(&body.schema)?)),
            None => None,
        };
        let body_media = entry
            .request_body
            .as_ref()
            .map(|body| essence(&body.content_type));
        let body_any_bytes = match &entry.request_body {
            Some(body) if essence(&body.content_type) == "*/*" => {
                let schema = crate::contract::schema(&body.schema)?;
                schema.get("format").and_then(Value::as_str) == Some("binary")
            }
            _ => false,
        };
        let form = match &entry.request_body {
            Some(body) if is_form(&body.content_type) => {
                Some(crate::contract::schema(&body.schema)?)
            }
            _ => None,
        };
        let form_encoding = entry
            .request_body
            .as_ref()
            .map(form::Encoding::of)
            .unwrap_or_default();
        let multipart = match &entry.request_body {
            Some(body) if essence(&body.content_type) == form::MULTIPART => {
                Some(crate::contract::schema(&body.schema)?).filter(form::holds_fields)
            }
            _ => None,
        };
        let body_alternatives: Vec<String> = entry
            .request_body
            .iter()
            .flat_map(|body| &body.other_content_types)
            .map(|media| essence(media))
            .collect();
        let alternative_multipart = entry.request_body.as_ref().is_some_and(|body| {
            is_json_media(&essence(&body.content_type))
                && body
                    .same_schema_content_types
                    .iter()
                    .any(|media| essence(media) == form::MULTIPART)
        });
        let alternative_form = match &entry.request_body {
            Some(body)
                if is_json_media(&essence(&body.content_type))
                    && (alternative_multipart
                        || body_alternatives.iter().any(|media| is_form(media))) =>
            {
                Some(crate::contract::schema(&body.schema)?)
            }
            _ => None,
        };
        let mut field_schemas = Vec::new();
        for (media, path) in entry
            .request_body
            .iter()
            .flat_map(|body| &body.field_schemas)
        {
            let written = crate::contract::schema(path)?;
            // Bytes in a form's media type (`{type: string, format: binary}`) are not fields.
            if form::holds_fields(&written) {
                field_schemas.push((essence(media), written, schema_file(path)?));
            }
        }
        let mut responses = HashMap::new();
        for (status, response) in &entry.responses {
            if let Some(path) = &response.schema {
                responses.insert(status.clone(), schema_file(path)?);
            }
        }
        Ok(OperationRules {
            parameters,
            body,
            body_media,
            body_any_bytes,
            form,
            form_encoding,
            multipart,
            body_alternatives,
            alternative_form,
            alternative_multipart,
            responses,
            field_schemas,
            body_schema: entry.request_body.as_ref().map(|body| body.schema.clone()),
            declared: OnceLock::new(),
        })
    }

    /// How many of a JSON object's members the request body's schema does not declare at
    /// its top level (through `$ref`, `allOf` and the alternatives of `anyOf` and `oneOf`):
    /// of several notifications at one URL, the one that documents a payload best.
    // Only the webhook receiver asks; a crate with a server alone leaves it unused.
    #[allow(dead_code)]
    pub fn undeclared_members(&self, value: &Value) -> usize {
        let declared = self.declared.get_or_init(|| {
            let mut names = Vec::new();
            if let Some(schema) = self
                .body_schema
                .as_deref()
                .and_then(|path| crate::contract::schema(path).ok())
            {
                declared_members(&schema, &schema, 0, &mut names);
            }
            names
        });
        value.as_object().map_or(0, |members| {
            members
                .keys()
                .filter(|name| !declared.iter().any(|known| known == *name))
                .count()
        })
    }

    /// The list query parameter a key names with brackets (`ids[]`, `ids[0]`), as Rails, PHP
    /// and `qs` send a list: see [`manifest::bracketed_list`].
    pub fn bracketed_list(&self, key: &str) -> Option<&str> {
        let query = self
            .parameters
            .iter()
            .filter(|rule| rule.location == Location::Query)
            .map(|rule| {
                let list = rule.object.is_none()
                    && (rule.items.is_some() || rule.alternative_items.is_some());
                (rule.name.as_str(), list)
            });
        manifest::bracketed_list(key, query)
    }

    /// The items of the list parameter `name` in `location`, given as `texts` (every query
    /// pair of that name, every line of a header), split as its style says, for a handler
    /// that takes them as a list; `None` when it is not a list parameter. One that may be a
    /// single value or a list (PeerTube's `tagsOneOf`: a string or strings) is a list to the
    /// handler, whose type holds no other: `en,fr` is two items, as the generated client sent
    /// them, though the contract's check also takes it as the one string.
    pub fn list_items<'a>(
        &self,
        location: Location,
        name: &str,
        texts: &[&'a str],
    ) -> Option<Vec<&'a str>> {
        let rule = self.parameters.iter().find(|rule| {
            rule.location == location
                && match location {
                    Location::Header => rule.name.eq_ignore_ascii_case(name),
                    _ => rule.name == name,
                }
        })?;
        match (rule.items, rule.alternative_items) {
            (Some(kind), _) | (None, Some(kind)) => Some(rule.items_of(kind, texts)),
            (None, None) => None,
        }
    }

    /// The JSON object of the object parameter `name` among a query's pairs, its members
    /// read as its style says (`filter[name]=rex`, `name=rex`, `filter=name,rex`); `None`
    /// when it is absent or not an object parameter.
    pub fn query_object(&self, name: &str, query: &[(String, String)]) -> Option<Value> {
        let (style, schema) = self.query_rule(name)?.object.as_ref()?;
        let members = style.members(name, query)?;
        Some(form::decode_members(&members, schema))
    }

    /// The JSON value of the query parameter `name`: its object when its members came
    /// ([`Self::query_object`]), else its first text under its name, read as its kind reads
    /// it (a number as a number); `None` when it is absent.
    pub fn query_value(&self, name: &str, query: &[(String, String)]) -> Option<Value> {
        if let Some(object) = self.query_object(name, query) {
            return Some(object);
        }
        let kind = self.query_rule(name)?.kind;
        let (_, text) = query.iter().find(|(key, _)| key == name)?;
        Some(
            kind.value(text)
                .unwrap_or_else(|| Value::String(text.clone())),
        )
    }

    /// The rule of the query parameter `name`.
    fn query_rule(&self, name: &str) -> Option<&ParameterRule> {
        self.parameters
            .iter()
            .find(|rule| rule.location == Location::Query && rule.name == name)
    }

    /// Every rule the header parameters break (a notification's: its receiver is no server
    /// of the API, so its path and query are the receiver's own); `texts` gives every line of
    /// a header, by name in any case.
    pub fn check_headers<'a>(&self, texts: impl Fn(&str) -> Vec<&'a str>) -> Vec<String> {
        self.check_parameters_where(
            |rule| rule.location == Location::Header,
            |_, name| texts(name),
            &[],
        )
    }

    /// Every rule the parameters break; `texts` gives every text a parameter came with, by
    /// location and name (header names case-insensitively), in order: each query pair of
    /// that name, each line of a header. A list is read from all of them, anything else
    /// from the first; an object in the query from the pairs of its members in `query`.
    pub fn check_parameters<'a>(
        &self,
        texts: impl Fn(Location, &str) -> Vec<&'a str>,
        query: &[(String, String)],
    ) -> Vec<String> {
        self.check_parameters_where(|_| true, texts, query)
    }

    /// [`Self::check_parameters`] of the path parameters alone.
    pub fn check_path_parameters<'a>(
        &self,
        texts: impl Fn(Location, &str) -> Vec<&'a str>,
    ) -> Vec<String> {
        self.check_parameters_where(|rule| rule.location == Location::Path, texts, &[])
    }

    /// [`Self::check_parameters`] of the parameters `keep` keeps.
    fn check_parameters_where<'a>(
        &self,
        keep: impl Fn(&ParameterRule) -> bool,
        texts: impl Fn(Location, &str) -> Vec<&'a str>,
        query: &[(String, String)],
    ) -> Vec<String> {
        let mut messages = Vec::new();
        for rule in self.parameters.iter().filter(|rule| keep(rule)) {
            let place = match rule.location {
                Location::Path => "path parameter",
                Location::Query => "query parameter",
                Location::Header => "header",
                Location::Cookie => "cookie",
            };
            if let Some((style, _)) = &rule.object {
                // A free-form object's members cannot be told from other keys: not checked.
                if !style.readable() {
                    continue;
                }
                // Without a member sent, it is read as any other below: absent, or whole (a
                // union's scalar: Stripe's `created=5`).
                if let Some(instance) = self.query_object(&rule.name, query) {
                    // Named by the member that breaks its rule (`filter/size`), as specval
                    // names it (`query:filter/size`).
                    for error in rule.schema.iter_errors(&instance) {
                        let member = error.instance_path().as_str();
                        messages.push(format!("{place} {}{member}: {error}", rule.name));
                    }
                    continue;
                }
            }
            let texts = texts(rule.location, &rule.name);
            match texts.first().copied() {
                None if rule.required => {
                    messages.push(format!("{place} {} is required", rule.name))
                }
                None => {}
                // `?merchant_order_id=` for a required parameter that does not allow an empty
                // value (OpenAPI's `allowEmptyValue`, false unless given): no value came, as
                // specval judges it.
                Some("") if rule.required && rule.location == Location::Query => {
                    messages.push(format!(
                        "{place} {} is required, and came with an empty value",
                        rule.name
                    ))
                }
                Some(text) => {
                    let instance = match (rule.items, rule.alternative_items) {
                        // A list: its items as its form gives them (`?ids=1&ids=2`,
                        // `?ids=1,2`, a header `a, b`), each kept as text when it does not
                        // parse, for the schema to name.
                        (Some(kind), _) => list_value(kind, &rule.items_of(kind, &texts)),
                        // One value or a list: the list unless a lone text keeps the schema as
                        // one value, or breaks it either way (then named as the value it is).
                        (None, Some(kind)) => {
                            let list = list_value(kind, &rule.one_or_list(kind, &texts));
                            match rule.kind.value(text) {
                                Some(one)
                                    if texts.len() == 1
                                        && (rule.schema.is_valid(&one)
                                            || !rule.schema.is_valid(&list)) =>
                                {
                                    one
                                }
                                _ => list,
                            }
                        }
                        (None, None) => {
                            // What one text breaks, worded as every message here is.
                            let breaks = |text: &str| -> Vec<String> {
                                match rule.kind.value(text) {
                                    // `is_valid` stops at the first failure and builds no
                                    // error: the common case, a valid value, costs the least.
                                    Some(instance) if rule.schema.is_valid(&instance) => Vec::new(),
                                    Some(instance) => rule
                                        .schema
                                        .iter_errors(&instance)
                                        .map(|error| format!("{place} {}: {error}", rule.name))
                                        .collect(),
                                    None => vec![format!(
                                        "{place} {}: `{text}` is not a valid {:?}",
                                        rule.name, rule.kind
                                    )],
                                }
                            };
                            let parsed = rule.kind.value(text).is_some();
                            messages.extend(breaks(text));
                            // A scalar query key sent more than once (`?limit=5&limit=50`):
                            // the handler reads the first, and every one is checked, as
                            // specval checks them, so that what the server takes is what the
                            // validator passes.
                            if parsed && rule.location == Location::Query {
                                for extra in texts.iter().skip(1) {
                                    for message in breaks(extra) {
                                        if !messages.contains(&message) {
                                            messages.push(message);
                                        }
                                    }
                                }
                            }
                            continue;
                        }
                    };
                    // `is_valid` stops at the first failure and builds no error:
                    // the common case, a valid value, costs the least.
                    if !rule.schema.is_valid(&instance) {
                        for error in rule.schema.iter_errors(&instance) {
                            messages.push(format!("{place} {}: {error}", rule.name));
                        }
                    }
                }
            }
        }
        messages
    }

    /// Every rule a JSON request body breaks, each as `pointer: message`.
    pub fn check_body(&self, body: &Value) -> Vec<String> {
        match &self.body {
            Some((_, validator)) => describe(validator, body),
            None => Vec::new(),
        }
    }

    /// Whether the request body's schema refuses `body` for its JSON type (a `type` at the
    /// top, or a union every alternative of which does): a text body is then read as the
    /// number or boolean its words make, as specval reads it.
    // Only a server with a text body asks.
    #[allow(dead_code)]
    pub fn body_refuses_type(&self, body: &Value) -> bool {
        match &self.body {
            Some((_, validator)) => validator
                .iter_errors(body)
                .any(|error| refuses_type_at_top(&error)),
            None => false,
        }
    }

    /// The rules a notification's payload breaks that its typed payload cannot take, each
    /// as `pointer: message`: every rule but a string that a list of strings does not name
    /// and a member that the schema does not declare, which the models read (`Unlisted`,
    /// ignored), as the client reads them in a response. A receiver is the consumer of
    /// someone else's contract: refusing a vendor's new event type with 400 would lose the
    /// event, since senders do not retry a 4xx. specval still reports both.
    // Only the webhook receiver asks; a crate with a server alone leaves it unused.
    #[allow(dead_code)]
    pub fn check_payload(&self, body: &Value) -> Vec<String> {
        match &self.body {
            Some((_, validator)) if !validator.is_valid(body) => {
                let mut messages = Vec::new();
                for error in validator.iter_errors(body).filter(|error| !is_drift(error)) {
                    push_once(&mut messages, describe_error(&error));
                }
                messages
            }
            _ => Vec::new(),
        }
    }

    /// A form body's fields as the JSON object its schema checks; `None` when the operation
    /// does not take a form.
    pub fn read_form(&self, body: &[u8]) -> Option<Value> {
        self.form
            .as_ref()
            .map(|schema| form::decode_encoded(body, schema, &self.form_encoding))
    }

    /// A `multipart/form-data` body's parts as the JSON object its schema checks, or why the
    /// body does not read as parts; `None` when the operation does not take one.
    pub fn read_multipart(&self, body: &[u8], content_type: &str) -> Option<Result<Value, String>> {
        self.multipart
            .as_ref()
            .map(|schema| form::decode_multipart(body, content_type, schema))
    }

    /// Every rule a form or multipart body sent as `sent` (lower case, no parameters; the
    /// whole `content_type` for a multipart boundary) breaks of the schema its media type has
    /// of its own; `None` when `sent` has none.
    pub fn check_other_fields(
        &self,
        body: &[u8],
        sent: &str,
        content_type: &str,
    ) -> Option<Vec<String>> {
        let (_, written, validator) = self
            .field_schemas
            .iter()
            .find(|(media, ..)| media == sent)?;
        let value = if sent == form::MULTIPART {
            match form::decode_multipart(body, content_type, written) {
                Ok(value) => value,
                Err(why) => return Some(vec![format!("request body is not {sent}: {why}")]),
            }
        } else {
            form::decode(body, written)
        };
        Some(describe(validator, &value))
    }

    /// A form sent where JSON is the body's first media type and a form another (`sent`,
    /// lower case without parameters; `content_type` whole, for a multipart boundary): its
    /// fields, or its parts where `multipart/form-data` has the JSON's schema, as the JSON
    /// object the body's schema checks and the handler reads; `None` for another media type.
    pub fn read_alternative_form(
        &self,
        body: &[u8],
        sent: &str,
        content_type: &str,
    ) -> Option<Result<Value, String>> {
        let schema = self.alternative_form.as_ref()?;
        if sent == form::MEDIA_TYPE {
            Some(Ok(form::decode(body, schema)))
        } else if sent == form::MULTIPART && self.alternative_multipart {
            Some(form::decode_multipart(body, content_type, schema))
        } else {
            None
        }
    }

    /// Whether `sent` (without parameters, lower case) is among the other media types
    /// documented for the request body.
    pub fn body_alternative(&self, sent: &str) -> bool {
        self.body_alternatives
            .iter()
            .any(|documented| media_fits(documented, sent))
    }

    /// Whether the operation requires a request body.
    pub fn body_required(&self) -> bool {
        self.body.as_ref().is_some_and(|(required, _)| *required)
    }

    /// Every rule a response body breaks against the schema documented for `status`
    /// (an exact code first, then its class such as `2XX`, then `default`); `None`
    /// when no body schema is documented for it.
    pub fn check_response(&self, status: u16, body: &Value) -> Option<Vec<String>> {
        Some(describe(self.response_validator(status)?, body))
    }

    /// Whether a body schema is documented for `status` (see [`Self::check_response`]).
    pub fn documents_response_body(&self, status: u16) -> bool {
        self.response_validator(status).is_some()
    }

    fn response_validator(&self, status: u16) -> Option<&Validator> {
        self.responses
            .get(&status.to_string())
            .or_else(|| self.responses.get(&format!("{}XX", status / 100)))
            .or_else(|| self.responses.get("default"))
    }
}

/// Whether a media type is a form's, whatever its parameters and case.
fn is_form(media: &str) -> bool {
    essence(media) == form::MEDIA_TYPE
}

/// Whether a body the spec documents as `documented` may be read as JSON: JSON, a `+json`
/// type, or any type at all (`*/*`).
pub fn is_json_media(documented: &str) -> bool {
    manifest::is_json(documented) || documented == "*/*"
}

/// Whether a body sent as `sent` is of the documented media type (`image/*` takes any image,
/// `*/*` anything).
pub fn media_fits(documented: &str, sent: &str) -> bool {
    if documented == "*/*" {
        return true;
    }
    match documented.strip_suffix('*') {
        Some(prefix) => sent.starts_with(prefix),
        None => documented == sent,
    }
}

/// Validation errors as `pointer: message`, the pointer `(root)` for the whole value.
pub fn describe(validator: &Validator, instance: &Value) -> Vec<String> {
    // Collecting errors costs about twice a yes-or-no check; most values are valid.
    if validator.is_valid(instance) {
        return Vec::new();
    }
    let mut messages = Vec::new();
    for error in validator.iter_errors(instance) {
        push_once(&mut messages, describe_error(&error));
    }
    messages
}

/// Adds `message` unless it is there already: a rule two schemas state (a base's `required`
/// and a part of an `allOf` that repeats it) is broken once.
fn push_once(messages: &mut Vec<String>, message: String) {
    if !messages.contains(&message) {
        messages.push(message);
    }
}

/// The names `schema` declares under `properties`, following local `$ref`s (`#/$defs/…` of
/// the self-contained `document`), `allOf` and the alternatives of `anyOf` and `oneOf`.
#[allow(dead_code)]
fn declared_members(document: &Value, schema: &Value, depth: usize, names: &mut Vec<String>) {
    if depth > 32 {
        return;
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for name in properties.keys() {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
    }
    if let Some(target) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|reference| reference.strip_prefix('#'))
        .and_then(|pointer| document.pointer(pointer))
    {
        declared_members(document, target, depth + 1, names);
    }
    for keyword in ["allOf", "anyOf", "oneOf"] {
        for part in schema
            .get(keyword)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            declared_members(document, part, depth + 1, names);
        }
    }
}

/// One validation error as `pointer: message`.
fn describe_error(error: &::jsonschema::ValidationError<'_>) -> String {
    let pointer = error.instance_path().to_string();
    let pointer = if pointer.is_empty() {
        "(root)".to_string()
    } else {
        pointer
    };
    use ::jsonschema::error::ValidationErrorKind as Kind;
    match error.kind() {
        // jsonschema's own words (`"x" is not a "email"`) read wrongly for most names.
        Kind::Format { format } => format!(
            "{pointer}: {} does not match format \"{format}\"",
            error.instance()
        ),
        // jsonschema's words quote the whole value and name no alternative: the one that
        // came closest and what it refuses, as specval says it.
        Kind::AnyOf { context } | Kind::OneOfNotValid { context } => {
            let keyword = if matches!(error.kind(), Kind::AnyOf { .. }) {
                "anyOf"
            } else {
                "oneOf"
            };
            let at = error.instance_path().as_str();
            // Nearest: the fewest refusals of the value's own type, then the fewest errors.
            let closest = context
                .iter()
                .enumerate()
                .filter(|(_, errors)| !errors.is_empty())
                .min_by_key(|(_, errors)| {
                    let other_type = errors
                        .iter()
                        .filter(|e| {
                            matches!(e.kind(), Kind::Type { .. })
                                && e.instance_path().as_str() == at
                        })
                        .count();
                    (other_type, errors.len())
                });
            match closest {
                Some((index, errors)) => format!(
                    "{pointer}: the value is none of the {keyword} alternatives; closest is \
                     {keyword}/{index}, which fails: {}",
                    describe_error(&errors[0])
                ),
                None => format!("{pointer}: the value is none of the {keyword} alternatives"),
            }
        }
        _ => format!("{pointer}: {error}"),
    }
}

/// Whether `error` refuses the whole instance for its JSON type (specval's
/// `refuses_type_at`, at the top alone).
fn refuses_type_at_top(error: &::jsonschema::ValidationError<'_>) -> bool {
    use ::jsonschema::error::ValidationErrorKind as Kind;
    if !error.instance_path().as_str().is_empty() {
        return false;
    }
    match error.kind() {
        Kind::Type { .. } => true,
        Kind::AnyOf { context } | Kind::OneOfNotValid { context } => {
            !context.is_empty()
                && context
                    .iter()
                    .all(|errors| errors.iter().any(refuses_type_at_top))
        }
        _ => false,
    }
}

/// Whether an error is only what a newer sender writes and the models read all the same: a
/// string that a list of strings does not name, a member the schema does not declare, or a
/// union one of whose alternatives breaks nothing else. A one-value list is a union's tag,
/// which tells alternatives apart, so a value it does not name stays an error.
fn is_drift(error: &::jsonschema::ValidationError<'_>) -> bool {
    use ::jsonschema::error::ValidationErrorKind as Kind;
    match error.kind() {
        Kind::Enum { options } => {
            error.instance().is_string()
                && options.as_array().is_some_and(|options| {
                    options.len() > 1 && options.iter().all(Value::is_string)
                })
        }
        Kind::AdditionalProperties { .. } | Kind::UnevaluatedProperties { .. } => true,
        Kind::AnyOf { context } | Kind::OneOfNotValid { context } => context
            .iter()
            .any(|alternative| alternative.iter().all(is_drift)),
        _ => false,
    }
}

// Against the stand-in contract of `generator/tests/runtime/contract.rs`.
#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn create_thing() -> &'static OperationRules {
        rules().operation("createThing").expect("createThing")
    }

    /// An empty value stands for the one value a schema allows (S3's `?acl`), or a required
    /// parameter's default; otherwise for nothing.
    #[test]
    fn an_empty_value_stands_for_what_the_schema_says() {
        let flag = json!({"type": "boolean", "enum": [true]});
        assert_eq!(empty_reading(&flag, true).as_deref(), Some("true"));
        assert_eq!(empty_reading(&flag, false).as_deref(), Some("true"));
        let kind = json!({"const": "full"});
        assert_eq!(empty_reading(&kind, false).as_deref(), Some("full"));
        let limit = json!({"type": "integer", "default": 10});
        assert_eq!(empty_reading(&limit, true).as_deref(), Some("10"));
        assert_eq!(empty_reading(&limit, false), None);
        let any = json!({"type": "boolean"});
        assert_eq!(empty_reading(&any, true), None);
        let two = json!({"type": "string", "enum": ["a", "b"]});
        assert_eq!(empty_reading(&two, true), None);
    }

    /// The messages for parameters given as `(location, name, text)`.
    fn parameters(given: &[(Location, &str, &'static str)]) -> Vec<String> {
        let query: Vec<(String, String)> = given
            .iter()
            .filter(|(location, _, _)| *location == Location::Query)
            .map(|(_, name, text)| (name.to_string(), text.to_string()))
            .collect();
        create_thing().check_parameters(
            |location, name| {
                given
                    .iter()
                    .filter(|(l, n, _)| *l == location && *n == name)
                    .map(|(_, _, text)| *text)
                    .collect()
            },
            &query,
        )
    }

    #[test]
    fn a_rule_two_schemas_state_is_said_once() {
        let schema = json!({"allOf": [{"required": ["type"]}, {"required": ["type", "id"]}]});
        let validator = compile_schema(&schema).unwrap();
        assert_eq!(
            describe(&validator, &json!({})),
            [
                "(root): \"type\" is a required property",
                "(root): \"id\" is a required property"
            ]
        );
    }

    /// A union the value breaks names the alternative that came closest and what it refuses,
    /// not the whole value.
    #[test]
    fn a_union_names_its_closest_alternative_not_the_value() {
        let schema = json!({"oneOf": [
            {"type": "object", "required": ["name", "type"], "properties": {"type": {"const": "text"}}},
            {"type": "object", "required": ["bbox"], "properties": {"bbox": {"type": "array"}}},
            {"type": "string"}
        ]});
        let validator = compile_schema(&schema).unwrap();
        let secretish = "a long value the message need not repeat";
        assert_eq!(
            describe(&validator, &json!({"bbox": 3, "note": secretish})),
            [
                "(root): the value is none of the oneOf alternatives; closest is oneOf/1, which \
              fails: /bbox: 3 is not of type \"array\""
            ]
        );
    }

    #[test]
    fn the_contract_compiles_by_operation_and_webhook() {
        let rules = rules();
        assert!(rules.operation("createThing").is_some());
        assert!(rules.webhook("thingCreated").is_some());
        // Operations and webhooks are apart.
        assert!(rules.operation("thingCreated").is_none());
        assert!(rules.webhook("createThing").is_none());
        let names: Vec<&str> = create_thing()
            .parameters
            .iter()
            .map(|rule| rule.name.as_str())
            .collect();
        assert_eq!(names, ["id", "limit", "x-trace", "tags", "sort"]);
        assert!(create_thing().body_required());
    }

    #[test]
    fn an_operation_is_compiled_when_first_asked_for() {
        let rules = Rules::read().expect("the manifest reads");
        assert!(rules.operations["createThing"].rules.get().is_none());
        assert!(rules.operation("createThing").is_some());
        assert!(rules.operations["createThing"].rules.get().is_some());
        assert!(rules.webhooks["thingCreated"].rules.get().is_none());
    }

    #[test]
    fn a_list_parameter_is_checked_item_by_item() {
        // `tags` is a list of at most two integers.
        for text in ["1", "1,2", "3, 4"] {
            assert_eq!(
                parameters(&[(Location::Path, "id", "7"), (Location::Query, "tags", text)]),
                Vec::<String>::new(),
                "{text}"
            );
        }
        let messages = parameters(&[
            (Location::Path, "id", "7"),
            (Location::Query, "tags", "1,x"),
        ]);
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(
            messages[0].starts_with("query parameter tags: "),
            "{messages:?}"
        );
        assert!(messages[0].contains("integer"), "{messages:?}");
        let messages = parameters(&[
            (Location::Path, "id", "7"),
            (Location::Query, "tags", "1,2,3"),
        ]);
        assert_eq!(messages.len(), 1, "{messages:?}");
    }

    #[test]
    fn an_exploded_list_is_read_from_every_pair_of_its_name() {
        let tags = |texts: &[&'static str]| {
            let mut given = vec![(Location::Path, "id", "7")];
            given.extend(texts.iter().map(|text| (Location::Query, "tags", *text)));
            parameters(&given)
        };
        // `?tags=1&tags=2`, the form the spec gives (`form`, exploded by default).
        assert_eq!(tags(&["1", "2"]), Vec::<String>::new());
        // Every pair is an item: the third breaks `maxItems`, the second `type`.
        assert_eq!(
            tags(&["1", "2", "3"]).len(),
            1,
            "{:?}",
            tags(&["1", "2", "3"])
        );
        let messages = tags(&["1", "x"]);
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(messages[0].contains("\"x\""), "{messages:?}");
    }

    #[test]
    fn a_pipe_delimited_list_is_split_at_its_pipes() {
        let sort =
            |text| parameters(&[(Location::Path, "id", "7"), (Location::Query, "sort", text)]);
        assert_eq!(sort("a|b"), Vec::<String>::new());
        // A comma does not part it: `a,b` is one item, and not an allowed one.
        assert_eq!(sort("a,b").len(), 1, "{:?}", sort("a,b"));
    }

    #[test]
    fn parameter_text_is_coerced_to_its_type_before_the_schema_checks_it() {
        assert_eq!(
            parameters(&[(Location::Path, "id", "7")]),
            Vec::<String>::new()
        );
        assert_eq!(
            parameters(&[
                (Location::Path, "id", "7"),
                (Location::Query, "limit", "10")
            ]),
            Vec::<String>::new()
        );
        // Text where an integer is wanted: refused before the schema, by its kind.
        assert_eq!(
            parameters(&[(Location::Path, "id", "seven")]),
            ["path parameter id: `seven` is not a valid Integer"]
        );
        assert_eq!(
            parameters(&[(Location::Path, "id", "1.5")]),
            ["path parameter id: `1.5` is not a valid Integer"]
        );
        // An integer the schema refuses.
        let messages = parameters(&[
            (Location::Path, "id", "0"),
            (Location::Query, "limit", "11"),
        ]);
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(
            messages[0].starts_with("path parameter id: 0 "),
            "{messages:?}"
        );
        assert!(
            messages[1].starts_with("query parameter limit: 11 "),
            "{messages:?}"
        );
        // A string stays a string: "123456" is six characters, not a number.
        let messages = parameters(&[
            (Location::Path, "id", "1"),
            (Location::Header, "x-trace", "123456"),
        ]);
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(
            messages[0].starts_with("header x-trace: \"123456\" "),
            "{messages:?}"
        );
    }

    #[test]
    fn a_missing_parameter_is_reported_only_when_required() {
        assert_eq!(parameters(&[]), ["path parameter id is required"]);
        // The optional ones may be absent; the lookup is by location too.
        assert_eq!(
            parameters(&[(Location::Query, "id", "7")]),
            ["path parameter id is required"]
        );
    }

    #[test]
    fn body_errors_are_pointed_at() {
        let rules = create_thing();
        assert!(rules.check_body(&json!({"name": "lamp"})).is_empty());
        let messages = rules.check_body(&json!({"name": ""}));
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(messages[0].starts_with("/name: "), "{messages:?}");
        let messages = rules.check_body(&json!({"name": 3, "id": "x"}));
        assert_eq!(messages.len(), 2, "{messages:?}");
        let messages = rules.check_body(&json!([]));
        assert!(messages[0].starts_with("(root): "), "{messages:?}");
    }

    #[test]
    fn a_response_is_checked_against_its_code_then_its_class_then_default() {
        let rules = create_thing();
        assert_eq!(
            rules.check_response(201, &json!({"name": "lamp"})),
            Some(Vec::new())
        );
        assert_eq!(
            rules.check_response(201, &json!({})).map(|m| m.len()),
            Some(1)
        );
        // 404 falls under 4XX, 500 under default: both the error body.
        assert_eq!(
            rules.check_response(404, &json!({"code": "NOT_FOUND"})),
            Some(Vec::new())
        );
        assert_eq!(
            rules
                .check_response(404, &json!({"name": "lamp"}))
                .map(|m| m.len()),
            Some(1)
        );
        assert_eq!(
            rules.check_response(500, &json!({})).map(|m| m.len()),
            Some(1)
        );
        // No body schema documented for the webhook's 5XX, and no default.
        let webhook = super::rules().webhook("thingCreated").unwrap();
        assert_eq!(webhook.check_response(503, &json!("busy")), None);
        assert_eq!(
            webhook.check_response(200, &json!({"ok": true})),
            Some(Vec::new())
        );
    }

    #[test]
    fn formats_are_asserted() {
        let schema = compile_schema(&json!({"type": "string", "format": "date-time"})).unwrap();
        assert!(describe(&schema, &json!("2024-05-01T08:00:00Z")).is_empty());
        assert_eq!(describe(&schema, &json!("yesterday")).len(), 1);
        assert!(compile_schema(&json!({"type": 5})).is_err());
    }
}
