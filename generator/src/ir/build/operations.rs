//! Operations under `paths` and `webhooks`: parameters (path-item ones merged in), the JSON
//! request and response bodies, their examples, security, and operation ids made unique as
//! Rust names.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::state::{Builder, as_object, child, spec_error, string_at, wrap_nullable};
use crate::error::Result;
use crate::ir::naming::{self, NameHint};
use crate::ir::schema::operation_docs;
use crate::ir::{
    Example, FRAMING_HEADERS, MediaKind, MessageExample, MessagePart, Method, Operation,
    ParamLocation, Parameter, RequestBody, Response, ResponseBody, ResponseHeader, StatusSpec,
    TypeRef, Webhook,
};
use crate::load::OpenApiVersion;
use crate::manifest::ObjectStyle;

/// Header parameters OpenAPI 3 says "SHALL be ignored" (Parameter Object, `name`): the
/// request body's and responses' media types and the security schemes say what they carry.
const IGNORED_HEADERS: [&str; 3] = ["Accept", "Content-Type", "Authorization"];

impl Builder<'_> {
    /// The schemes the operation's security names (its own `security`, else the document's),
    /// each with its name, as written under `#/components/securitySchemes`.
    fn security_schemes_of<'s>(
        &'s self,
        op_map: &Map<String, Value>,
        default_security: &[Vec<String>],
    ) -> Vec<(String, &'s Value)> {
        let names: Vec<String> = match op_map.get("security").and_then(Value::as_array) {
            Some(requirements) => requirements
                .iter()
                .filter_map(Value::as_object)
                .flat_map(|requirement| requirement.keys().cloned())
                .collect(),
            None => default_security.iter().flatten().cloned().collect(),
        };
        names
            .into_iter()
            .filter_map(|name| {
                let at = child("#/components/securitySchemes", &name);
                let scheme = self.doc.pointer(&at)?;
                let scheme = self
                    .doc
                    .deref(scheme, &at)
                    .map_or(scheme, |(scheme, _)| scheme);
                Some((name, scheme))
            })
            .collect()
    }

    /// Whether a scheme the operation's security names travels in the `Authorization`
    /// header: an HTTP scheme, OAuth 2, OpenID Connect, or an API key of that name.
    fn security_carries_authorization(
        &self,
        op_map: &Map<String, Value>,
        default_security: &[Vec<String>],
    ) -> bool {
        self.security_schemes_of(op_map, default_security)
            .into_iter()
            .any(
                |(_, scheme)| match scheme.get("type").and_then(Value::as_str) {
                    Some("http" | "oauth2" | "openIdConnect") => true,
                    Some("apiKey") => api_key_at(scheme, ParamLocation::Header, "Authorization"),
                    _ => false,
                },
            )
    }

    /// A parameter's `style` as read: one of OpenAPI's, with a warning where its location
    /// does not take it (it is read as written, as the traffic would be); an unknown one
    /// (`style: bogus`) is warned about and left out, so that the location's default applies.
    fn known_style(&mut self, at: &str, location: ParamLocation, style: &str) -> Option<String> {
        const STYLES: [&str; 7] = [
            "matrix",
            "label",
            "simple",
            "form",
            "spaceDelimited",
            "pipeDelimited",
            "deepObject",
        ];
        let (place, allowed): (&str, &[&str]) = match location {
            ParamLocation::Path => ("a path", &["simple", "label", "matrix"]),
            ParamLocation::Query => (
                "a query",
                &["form", "spaceDelimited", "pipeDelimited", "deepObject"],
            ),
            ParamLocation::Header => ("a header", &["simple"]),
            ParamLocation::Cookie => ("a cookie", &["form"]),
        };
        let at = child(at, "style");
        if !STYLES.contains(&style) {
            self.warn(
                &at,
                format!(
                    "style `{style}` is not one of OpenAPI's; it is left out, and {place} \
                     parameter's default ({}) applies",
                    allowed[0]
                ),
            );
            return None;
        }
        if !allowed.contains(&style) {
            self.warn(
                &at,
                format!(
                    "style `{style}` is not one OpenAPI allows for {place} parameter ({}); it is \
                     read as written",
                    allowed.join(", ")
                ),
            );
        }
        Some(style.to_string())
    }

    /// The API key scheme of the operation's security that travels as the parameter `name`
    /// in `location` (NYT Books' query `api-key`, declared both ways), by the scheme's name.
    fn api_key_carrying(
        &self,
        op_map: &Map<String, Value>,
        default_security: &[Vec<String>],
        location: ParamLocation,
        name: &str,
    ) -> Option<String> {
        self.security_schemes_of(op_map, default_security)
            .into_iter()
            .find(|(_, scheme)| {
                scheme.get("type").and_then(Value::as_str) == Some("apiKey")
                    && api_key_at(scheme, location, name)
            })
            .map(|(scheme_name, _)| scheme_name)
    }

    /// Every operation under `paths`, with unique ids, sorted by path then method.
    pub(super) fn operations(
        &mut self,
        root: &Map<String, Value>,
        default_security: &[Vec<String>],
    ) -> Result<Vec<Operation>> {
        let mut operations = Vec::new();
        if let Some(paths) = root.get("paths").and_then(as_object) {
            for (written, item) in paths {
                if written.starts_with("x-") {
                    // An extension of the Paths Object (`x-codegen-contextRoot`), not a path.
                    continue;
                }
                let at = child("#/paths", written);
                // OpenAPI requires the `/`; a template without it (`users/{id}`) would make
                // the server's router panic and the client's URLs run into the base URL.
                let path = if written.starts_with('/') {
                    written.clone()
                } else {
                    self.warn(
                        &at,
                        format!(
                            "path `{written}` does not begin with `/`; it is read as `/{written}`"
                        ),
                    );
                    format!("/{written}")
                };
                let path = &path;
                let (item, item_at) = self.doc.deref(item, &at)?;
                let item = item.as_object().cloned().unwrap_or_default();
                self.warn_of_methods_left_out(&item, &item_at);
                for method in Method::ALL {
                    if let Some(op) = item.get(method.key()) {
                        let op_at = child(&item_at, method.key());
                        let mut operation = self.operation(
                            op,
                            &op_at,
                            method,
                            path,
                            &item,
                            &item_at,
                            default_security,
                        )?;
                        self.reconcile_path_parameters(&mut operation)?;
                        operations.push(operation);
                    }
                }
            }
        }
        for (pointer, message) in disambiguate_operation_ids(&mut operations) {
            self.warn(&pointer, message);
        }
        for (pointer, message) in unreachable_by_route(&operations) {
            self.warn(&pointer, message);
        }
        for (pointer, message) in unreachable_by_appendix(&operations) {
            self.warn(&pointer, message);
        }
        operations.sort_by(|a, b| (a.path.as_str(), a.method).cmp(&(b.path.as_str(), b.method)));
        Ok(operations)
    }

    /// OpenAPI 3.2's operations beyond the fixed methods (`query`, `additionalOperations`),
    /// which the generated code has no place for: a warning each, and they are left out.
    fn warn_of_methods_left_out(&mut self, item: &Map<String, Value>, item_at: &str) {
        if item.contains_key("query") {
            self.warn(
                &child(item_at, "query"),
                "the QUERY method (OpenAPI 3.2) is not generated; the operation is left out",
            );
        }
        let additional = item.get("additionalOperations").and_then(as_object);
        for method in additional.into_iter().flat_map(Map::keys) {
            self.warn(
                &child(&child(item_at, "additionalOperations"), method),
                format!("the {method} method is not generated; the operation is left out"),
            );
        }
    }

    /// Every operation under `webhooks`, in document order.
    pub(super) fn webhooks(&mut self, root: &Map<String, Value>) -> Result<Vec<Webhook>> {
        let mut webhooks = Vec::new();
        if let Some(hooks) = root.get("webhooks").and_then(as_object) {
            for (name, item) in hooks {
                let at = child("#/webhooks", name);
                let (item, item_at) = self.doc.deref(item, &at)?;
                let item = item.as_object().cloned().unwrap_or_default();
                for method in Method::ALL {
                    if let Some(op) = item.get(method.key()) {
                        let op_at = child(&item_at, method.key());
                        let documented = op
                            .get("x-delivery-path")
                            .or_else(|| item.get("x-delivery-path"))
                            .and_then(Value::as_str)
                            .map(str::to_string);
                        let path_documented = documented.is_some();
                        let path = documented.unwrap_or_else(|| default_delivery_path(name));
                        let mut operation =
                            self.operation(op, &op_at, method, &path, &item, &item_at, &[])?;
                        if op.get("operationId").is_none() {
                            operation.id = name.clone();
                        }
                        self.warn_unsent_parameters(&operation, &op_at);
                        self.warn_unchecked_security(&operation, &op_at);
                        webhooks.push(Webhook {
                            name: name.clone(),
                            operation,
                            path_documented,
                            callback: false,
                        });
                    }
                }
            }
        }
        Ok(webhooks)
    }

    /// A notification's own `security` (Adyen's webhooks: HTTP basic) is not carried by the
    /// generated sender nor checked by its receiver: a warning says so, so that a receiver is
    /// not taken to authenticate what it lets through. specval checks that notifications carry
    /// the credentials.
    fn warn_unchecked_security(&mut self, operation: &Operation, at: &str) {
        let mut schemes: Vec<&str> = Vec::new();
        for scheme in operation.security.iter().flatten() {
            if !schemes.contains(&scheme.as_str()) {
                schemes.push(scheme);
            }
        }
        if schemes.is_empty() {
            return;
        }
        self.warn(
            &child(at, "security"),
            format!(
                "the generated receiver does not check this notification's credentials ({}), \
                 nor does the sender send them: authenticate deliveries in front of the \
                 receiver (specval checks that recorded ones carry them)",
                schemes.join(", ")
            ),
        );
    }

    /// A webhook's query, path and cookie parameters have no place in the generated sender and
    /// receiver, which carry the payload and the header parameters (a signature): a warning
    /// names them, so that they are not dropped in silence.
    fn warn_unsent_parameters(&mut self, operation: &Operation, at: &str) {
        let names: Vec<String> = operation
            .parameters
            .iter()
            .filter(|param| param.location != ParamLocation::Header)
            .map(|param| format!("{} `{}`", param.location.as_str(), param.name))
            .collect();
        if names.is_empty() {
            return;
        }
        self.warn(
            at,
            format!(
                "the generated sender does not send this notification's parameters other than \
                 headers ({}), nor does its receiver read them: the payload and the headers \
                 travel",
                names.join(", ")
            ),
        );
    }

    /// Every callback of an operation under `paths` (OpenAPI 3.0's `callbacks`: requests the
    /// API sends to a URL the caller gave, `{$request.body#/callbackUrl}`), as webhooks whose
    /// receiver registers a URL of its own: the same generated types, receiver and checks.
    /// Each is named after its operation and callback (`createSubscription-onEvent`), made
    /// unique among the webhooks; the runtime expression names no fixed path.
    pub(super) fn callbacks(
        &mut self,
        root: &Map<String, Value>,
        taken: &[Webhook],
    ) -> Result<Vec<Webhook>> {
        let mut names: HashSet<String> = taken.iter().map(|hook| hook.name.clone()).collect();
        let mut hooks = Vec::new();
        let Some(paths) = root.get("paths").and_then(as_object) else {
            return Ok(hooks);
        };
        for (written, item) in paths {
            if written.starts_with("x-") {
                continue;
            }
            let (item, item_at) = self.doc.deref(item, &child("#/paths", written))?;
            let item = item.as_object().cloned().unwrap_or_default();
            for method in Method::ALL {
                let Some(op) = item.get(method.key()).and_then(as_object) else {
                    continue;
                };
                let Some(callbacks) = op.get("callbacks").and_then(as_object) else {
                    continue;
                };
                let op_at = child(&item_at, method.key());
                let parent = string_at(op, "operationId")
                    .map(str::to_string)
                    .unwrap_or_else(|| derived_operation_id(method, written));
                // Callbacks of one operation at one runtime expression go to the one URL its
                // caller gave (Zeit's seven event types at `{$request.body#/url}`): one path
                // for the generated receiver, which tells them apart by their payloads.
                let mut path_of_expression: HashMap<String, String> = HashMap::new();
                for (callback, expressions) in callbacks {
                    let at = child(&child(&op_at, "callbacks"), callback);
                    let (expressions, expressions_at) = self.doc.deref(expressions, &at)?;
                    let expressions = expressions.as_object().cloned().unwrap_or_default();
                    for (expression, hook_item) in &expressions {
                        if expression.starts_with("x-") {
                            continue;
                        }
                        let at = child(&expressions_at, expression);
                        let (hook_item, hook_item_at) = self.doc.deref(hook_item, &at)?;
                        let hook_item = hook_item.as_object().cloned().unwrap_or_default();
                        // One name and path per callback URL, as a webhook's methods share
                        // theirs.
                        let name = unique(&mut names, format!("{parent}-{callback}"));
                        // Its own path names its types; the shared one is where it goes.
                        let own_path = default_delivery_path(&name);
                        let path = path_of_expression
                            .entry(expression.clone())
                            .or_insert_with(|| own_path.clone())
                            .clone();
                        for hook_method in Method::ALL {
                            let Some(hook_op) = hook_item.get(hook_method.key()) else {
                                continue;
                            };
                            let mut operation = self.operation(
                                hook_op,
                                &child(&hook_item_at, hook_method.key()),
                                hook_method,
                                &own_path,
                                &hook_item,
                                &hook_item_at,
                                &[],
                            )?;
                            operation.path = path.clone();
                            if hook_op.get("operationId").is_none() {
                                operation.id = name.clone();
                            }
                            let hook_at = child(&hook_item_at, hook_method.key());
                            self.warn_unsent_parameters(&operation, &hook_at);
                            self.warn_unchecked_security(&operation, &hook_at);
                            hooks.push(Webhook {
                                name: name.clone(),
                                operation,
                                path_documented: false,
                                callback: true,
                            });
                        }
                    }
                }
            }
        }
        Ok(hooks)
    }

    #[allow(clippy::too_many_arguments)]
    fn operation(
        &mut self,
        op: &Value,
        at: &str,
        method: Method,
        path: &str,
        item: &Map<String, Value>,
        item_at: &str,
        default_security: &[Vec<String>],
    ) -> Result<Operation> {
        let op_map = op
            .as_object()
            .ok_or_else(|| spec_error(self.doc, at, "an operation must be an object"))?;
        let id = match string_at(op_map, "operationId") {
            Some(id) => id.to_string(),
            None => derived_operation_id(method, path),
        };
        let words = vec![id.clone()];

        // Path-item parameters first, replaced by operation parameters of the same name and
        // place. A header's name is compared without case, as HTTP compares it: `X-Request-Id`
        // of the path item and `x-request-id` of the operation are one header.
        let mut raw: IndexMap<(String, String), (String, Value, String)> = IndexMap::new();
        for (source, source_at) in [
            (item.get("parameters"), child(item_at, "parameters")),
            (op_map.get("parameters"), child(at, "parameters")),
        ] {
            if let Some(other) = source.filter(|value| !value.is_array() && !value.is_null()) {
                return Err(spec_error(
                    self.doc,
                    &source_at,
                    format!(
                        "`parameters` must be a list, not {}",
                        crate::load::kind_of(other)
                    ),
                ));
            }
            if let Some(list) = source.and_then(Value::as_array) {
                for (index, param) in list.iter().enumerate() {
                    let param_at = child(&source_at, &index.to_string());
                    let (param, param_at) = self.doc.deref(param, &param_at)?;
                    let name = param
                        .get("name")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string();
                    let location = param
                        .get("in")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string();
                    let key = if location == "header" {
                        name.to_ascii_lowercase()
                    } else {
                        name.clone()
                    };
                    raw.insert((key, location), (name, param.clone(), param_at));
                }
            }
        }
        let mut parameters = Vec::new();
        for ((_, location), (name, param, param_at)) in raw {
            let location = match location.as_str() {
                "path" => ParamLocation::Path,
                "query" => ParamLocation::Query,
                "header" => ParamLocation::Header,
                "cookie" => ParamLocation::Cookie,
                "querystring" => {
                    self.warn(
                        &param_at,
                        "a `querystring` parameter (OpenAPI 3.2: the whole query string as one \
                         value) is not generated; the parameter is left out",
                    );
                    continue;
                }
                other => {
                    self.warn(
                        &param_at,
                        format!(
                            "parameter location '{other}' is not one of path, query, header, \
                             cookie; the parameter is left out"
                        ),
                    );
                    continue;
                }
            };
            if name.is_empty() {
                self.warn(&param_at, "parameter without a name; it is left out");
                continue;
            }
            // `Authorization` documented as a parameter of an operation no security scheme
            // covers (the BBC's API declares none) is the only way its callers learn to send
            // one: kept, as Swagger 2.0's always is.
            let authorization_documented_alone = name.eq_ignore_ascii_case("Authorization")
                && !self.security_carries_authorization(op_map, default_security);
            if location == ParamLocation::Header
                && self.doc.version != OpenApiVersion::Swagger2
                && !authorization_documented_alone
                && IGNORED_HEADERS
                    .iter()
                    .any(|ignored| name.eq_ignore_ascii_case(ignored))
            {
                self.warn(
                    &param_at,
                    format!(
                        "a header parameter named {name} is ignored, as OpenAPI 3 says: the \
                         media types and the security schemes say what it carries"
                    ),
                );
                continue;
            }
            // A credential documented twice, as a parameter and as the API key scheme the
            // operation's security names: the client would send it twice (its credential and
            // the caller's value), and the server read it twice. The scheme carries it.
            if let Some(scheme) = self.api_key_carrying(op_map, default_security, location, &name) {
                self.warn(
                    &param_at,
                    format!(
                        "parameter {name} is the credential of the security scheme {scheme}, \
                         which carries it (the client sends it from its credentials, the \
                         server reads it as one); the parameter is left out"
                    ),
                );
                continue;
            }
            // A value the caller gave (Egnyte's Swagger 2.0 documents `Content-Length`) left a
            // request waiting for bytes that never came, so such a parameter is ignored.
            if location == ParamLocation::Header
                && FRAMING_HEADERS
                    .iter()
                    .any(|framing| name.eq_ignore_ascii_case(framing))
            {
                self.warn(
                    &param_at,
                    format!(
                        "a header parameter named {name} is ignored: the HTTP library writes it \
                         from the body and the connection"
                    ),
                );
                continue;
            }
            let (schema, schema_at, content_type) = value_schema(&param, &param_at);
            // A parameter component's inline schema is one type whichever operation uses it
            // first: named after the component, so that the name says what it is and stays
            // when operations come and go.
            let words = match param_at.strip_prefix("#/components/parameters/") {
                Some(component) if !component.contains('/') => {
                    vec![crate::load::unescape_segment(component)]
                }
                _ => vec![id.clone(), name.clone()],
            };
            let (ty, nullable) = self.convert(&schema, &schema_at, NameHint::Words(words))?;
            let param_examples = self.example_objects(&param, &param_at)?;
            let style = param
                .get("style")
                .and_then(Value::as_str)
                .and_then(|style| self.known_style(&param_at, location, style));
            let explode = param.get("explode").and_then(Value::as_bool);
            let object = ObjectStyle::within(
                location.into(),
                style.as_deref(),
                explode,
                &schema,
                &self.doc.root,
            );
            parameters.push(Parameter {
                examples: param_examples,
                idempotency_key: false,
                name,
                rust_name: String::new(),
                location,
                required: location == ParamLocation::Path
                    || param
                        .get("required")
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                ty: wrap_nullable(ty, nullable),
                schema: self.contract_schema(&schema, &schema_at)?,
                style,
                explode,
                content_type,
                allow_empty_value: location == ParamLocation::Query
                    && param.get("allowEmptyValue") == Some(&Value::Bool(true)),
                allow_reserved: location == ParamLocation::Path
                    && ["x-ms-skip-url-encoding", "allowReserved"]
                        .iter()
                        .any(|key| param.get(*key) == Some(&Value::Bool(true))),
                object,
                docs: param
                    .get("description")
                    .and_then(Value::as_str)
                    .map(|s| s.trim().to_string()),
            });
        }
        parameters.sort_by_key(|p| p.location);
        mark_idempotency_key(&mut parameters);

        let mut examples = Vec::new();
        let request_body = match op_map.get("requestBody") {
            Some(body) => {
                let (body, body_at) = self.doc.deref(body, &child(at, "requestBody"))?;
                let body_map = body.as_object().cloned().unwrap_or_default();
                match self.media(
                    &body_map,
                    &body_at,
                    NameHint::Words(vec![id.clone(), "Request".into()]),
                )? {
                    Some(media) => {
                        examples.extend(media.examples.into_iter().map(|example| MessageExample {
                            part: MessagePart::Request,
                            example,
                        }));
                        Some(RequestBody {
                            required: body_map
                                .get("required")
                                .and_then(Value::as_bool)
                                .unwrap_or(false),
                            content_type: media.content_type,
                            kind: media.kind,
                            other_content_types: media.other_content_types,
                            same_schema_content_types: media.same_schema_content_types,
                            field_schemas: media.field_schemas,
                            json_schemas: media.json_schemas,
                            ty: media.ty,
                            schema: media.schema,
                            docs: string_at(&body_map, "description").map(|s| s.trim().to_string()),
                            delimited_fields: media.delimited_fields,
                            json_fields: media.json_fields,
                        })
                    }
                    None => None,
                }
            }
            None => None,
        };

        let mut responses = Vec::new();
        if let Some(other) = op_map
            .get("responses")
            .filter(|value| !value.is_object() && !value.is_null())
        {
            return Err(spec_error(
                self.doc,
                &child(at, "responses"),
                format!(
                    "`responses` must be an object of statuses, not {}",
                    crate::load::kind_of(other)
                ),
            ));
        }
        if let Some(all) = op_map.get("responses").and_then(Value::as_object) {
            // A Responses Object may hold specification extensions (`x-…`) beside statuses.
            for (key, response) in all.iter().filter(|(key, _)| !key.starts_with("x-")) {
                let response_at = child(&child(at, "responses"), key);
                let status = parse_status(key).ok_or_else(|| {
                    spec_error(
                        self.doc,
                        &response_at,
                        format!(
                            "'{key}' is not a status code, a status class like 2XX, or default"
                        ),
                    )
                })?;
                let (response, response_at) = self.doc.deref(response, &response_at)?;
                let response_map = response.as_object().cloned().unwrap_or_default();
                // A response component's inline body is one type whichever operation uses it
                // first: named after the component (API Setu's seven `…Error` responses, each
                // shared by every operation), as a parameter component's schema is.
                let hint_words = match response_at.strip_prefix("#/components/responses/") {
                    Some(component) if !component.contains('/') => {
                        // A name led by its status (`400Error`) reads `Error400Body`: a Rust
                        // name cannot begin with the digits.
                        let name = crate::load::unescape_segment(component);
                        let digits = name.len()
                            - name.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                        let (number, rest) = name.split_at(digits);
                        vec![rest.to_string(), number.to_string(), "Body".into()]
                    }
                    _ => {
                        let mut hint_words = words.clone();
                        hint_words.push(naming::status_word(status));
                        hint_words.push("Body".into());
                        hint_words
                    }
                };
                // 204, 205, 304 and 1xx answers cannot have content (RFC 9110); a spec that
                // shows some for them would make clients decode a body that never comes.
                let bodiless = matches!(status, StatusSpec::Code(100..=199 | 204 | 205 | 304));
                if bodiless
                    && response_map
                        .get("content")
                        .and_then(Value::as_object)
                        .is_some_and(|content| !content.is_empty())
                {
                    self.warn(
                        &child(&response_at, "content"),
                        format!(
                            "status {key} cannot have content (RFC 9110); its `content` is left \
                             out"
                        ),
                    );
                }
                let media = if bodiless {
                    None
                } else {
                    self.media(&response_map, &response_at, NameHint::Words(hint_words))?
                };
                let body = match media {
                    Some(media) => {
                        examples.extend(media.examples.into_iter().map(|example| MessageExample {
                            part: MessagePart::Response(status),
                            example,
                        }));
                        // Text beside a file (a certificate as `application/xml` or
                        // `application/pdf`) is read as bytes: they hold either, where a text
                        // would refuse the file.
                        let kind = if media.kind == MediaKind::Text
                            && media
                                .other_content_types
                                .iter()
                                .any(|other| MediaKind::of(other) == MediaKind::Binary)
                        {
                            MediaKind::Binary
                        } else {
                            media.kind
                        };
                        Some(ResponseBody {
                            content_type: media.content_type,
                            kind,
                            other_content_types: media.other_content_types,
                            json_schemas: media.json_schemas,
                            ty: media.ty,
                            schema: media.schema,
                        })
                    }
                    None => None,
                };
                let headers = self.response_headers(&response_map, &response_at)?;
                responses.push(Response {
                    status,
                    variant: String::new(),
                    docs: string_at(&response_map, "description").map(|s| s.trim().to_string()),
                    body,
                    headers,
                    headers_type: String::new(),
                });
            }
        }

        let security = match op_map.get("security") {
            Some(value) => self.security_requirements(Some(value), &child(at, "security"))?,
            None => default_security.to_vec(),
        };
        let anonymous = op_map
            .get("security")
            .or_else(|| self.doc.pointer("#/security"))
            .is_some_and(super::security::names_no_scheme);
        let servers =
            super::servers::servers(op_map.get("servers").or_else(|| item.get("servers")));
        let declared_accept = self.declared_accept(op_map, item);
        Ok(Operation {
            declared_accept,
            servers,
            id,
            fn_name: String::new(),
            type_prefix: String::new(),
            method,
            path: path.to_string(),
            pointer: at.to_string(),
            tags: op_map
                .get("tags")
                .and_then(Value::as_array)
                .map(|tags| {
                    tags.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
            docs: operation_docs(op_map),
            parameters,
            request_body,
            responses,
            security,
            anonymous,
            deprecated: op_map
                .get("deprecated")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            examples,
        })
    }

    /// The `default` media type of a header parameter named `Accept` among the operation's
    /// and its path's parameters (see [`Operation::declared_accept`]).
    fn declared_accept(
        &self,
        op_map: &Map<String, Value>,
        item: &Map<String, Value>,
    ) -> Option<String> {
        let listed = [op_map, item]
            .into_iter()
            .filter_map(|owner| owner.get("parameters").and_then(Value::as_array))
            .flatten();
        for param in listed {
            let Ok((param, _)) = self.doc.deref(param, "") else {
                continue;
            };
            let is_accept = param.get("in").and_then(Value::as_str) == Some("header")
                && param
                    .get("name")
                    .and_then(Value::as_str)
                    .is_some_and(|name| name.eq_ignore_ascii_case("accept"));
            if !is_accept {
                continue;
            }
            let schema = param.get("schema").map(|schema| {
                self.doc
                    .deref(schema, "")
                    .map(|(schema, _)| schema.clone())
                    .unwrap_or_else(|_| schema.clone())
            });
            let default = schema
                .as_ref()
                .and_then(|schema| schema.get("default"))
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|media| media.contains('/') && !media.contains(['\r', '\n']));
            return default.map(str::to_string);
        }
        None
    }

    /// The `example` and `examples` (Example Objects, possibly `$ref`s) of a media type or
    /// parameter at `at`.
    fn example_objects(&self, owner: &Value, at: &str) -> Result<Vec<Example>> {
        let mut examples = Vec::new();
        if let Some(value) = owner.get("example") {
            examples.push(Example {
                pointer: child(at, "example"),
                value: value.clone(),
            });
        }
        if let Some(named) = owner.get("examples").and_then(Value::as_object) {
            for (name, example) in named {
                let example_at = child(&child(at, "examples"), name);
                let (example, example_at) = self.doc.deref(example, &example_at)?;
                // OpenAPI 3.2 names the value `dataValue` (beside its `serializedValue`).
                let value = ["value", "dataValue"]
                    .into_iter()
                    .find_map(|key| Some((key, example.get(key)?)));
                if let Some((key, value)) = value {
                    examples.push(Example {
                        pointer: child(&example_at, key),
                        value: value.clone(),
                    });
                }
            }
        }
        Ok(examples)
    }

    /// The headers a response documents, each through its `$ref`; `Content-Type` is left
    /// out, as OpenAPI says.
    fn response_headers(
        &mut self,
        response: &Map<String, Value>,
        response_at: &str,
    ) -> Result<Vec<ResponseHeader>> {
        let Some(all) = response.get("headers").and_then(Value::as_object) else {
            return Ok(Vec::new());
        };
        let mut headers: Vec<ResponseHeader> = Vec::new();
        for (name, header) in all {
            if name.eq_ignore_ascii_case("content-type") {
                continue;
            }
            let header_at = child(&child(response_at, "headers"), name);
            // Header names are not case-sensitive: `ETag` and `Etag` are one header, which two
            // fields would both set, the last one winning.
            if let Some(first) = headers
                .iter()
                .find(|seen| seen.name.eq_ignore_ascii_case(name))
            {
                self.warn(
                    &header_at,
                    format!(
                        "response header `{name}` is `{}` again (header names are not \
                         case-sensitive); the first is kept",
                        first.name
                    ),
                );
                continue;
            }
            let (header, header_at) = self.doc.deref(header, &header_at)?;
            let (schema, schema_at, _) = value_schema(header, &header_at);
            headers.push(ResponseHeader {
                name: name.clone(),
                required: header
                    .get("required")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                schema: self.contract_schema(&schema, &schema_at)?,
                docs: header
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                field: String::new(),
            });
        }
        Ok(headers)
    }

    /// The JSON media type of a request body or response, converted.
    fn media(
        &mut self,
        owner: &Map<String, Value>,
        owner_at: &str,
        hint: NameHint,
    ) -> Result<Option<Media>> {
        let Some(content) = owner.get("content").and_then(Value::as_object) else {
            return Ok(None);
        };
        // A JSON media type first, wherever the document lists it (Apicurio lists `*/*`, a
        // file, before `application/create.extended+json`); then any media type holding
        // JSON; then the first.
        let json_schema_of = |(media, body): &(&String, &Value)| {
            let schema = body.get("schema").cloned().unwrap_or(Value::Bool(true));
            MediaKind::of_body(media, &schema) == MediaKind::Json
        };
        let chosen = content
            .iter()
            .find(|(media, _)| crate::manifest::is_json(&crate::manifest::essence(media)))
            .or_else(|| content.iter().find(json_schema_of))
            .or_else(|| content.iter().next());
        let Some((content_type, media)) = chosen else {
            return Ok(None);
        };
        let media_at = child(&child(owner_at, "content"), content_type);
        if media.get("schema").is_none() && media.get("itemSchema").is_some() {
            self.warn(
                &child(&media_at, "itemSchema"),
                "a streamed body's `itemSchema` (OpenAPI 3.2) is not generated; the body is \
                 any value",
            );
        }
        let schema = media.get("schema").cloned().unwrap_or(Value::Bool(true));
        let schema_at = child(&media_at, "schema");
        let kind = MediaKind::of_body(content_type, &schema);
        let (ty, nullable) = if kind == MediaKind::Json {
            self.convert(&schema, &schema_at, hint)?
        } else {
            (TypeRef::Any, false)
        };
        let examples = self.example_objects(media, &media_at)?;
        let other_content_types = content
            .keys()
            .filter(|other| *other != content_type)
            .cloned()
            .collect();
        let same_schema_content_types = content
            .iter()
            .filter(|(other, _)| *other != content_type)
            .filter(|(_, other)| other.get("schema").is_some_and(|s| *s == schema))
            .map(|(other, _)| other.clone())
            .collect();
        let mut field_schemas = Vec::new();
        let mut json_schemas = Vec::new();
        for (other, other_media) in content {
            let essence = crate::manifest::essence(other);
            let fields =
                MediaKind::of(other) == MediaKind::Form || essence == crate::form::MULTIPART;
            // Another JSON type with a schema of its own is checked by it, where the chosen
            // one is JSON too (a file's JSON metadata beside the file is not that body).
            let json = kind == MediaKind::Json && crate::manifest::is_json(&essence);
            let Some(other_schema) = other_media.get("schema") else {
                continue;
            };
            if other == content_type || !(fields || json) || *other_schema == schema {
                continue;
            }
            let other_at = child(&child(&child(owner_at, "content"), other), "schema");
            let contract = self.contract_schema(other_schema, &other_at)?;
            if fields {
                field_schemas.push((other.clone(), contract));
            } else {
                json_schemas.push((other.clone(), contract));
            }
        }
        let (delimited_fields, json_fields) = if kind == MediaKind::Form {
            (delimited_fields(media), json_fields(media))
        } else {
            (Vec::new(), Vec::new())
        };
        Ok(Some(Media {
            kind,
            content_type: content_type.clone(),
            other_content_types,
            same_schema_content_types,
            field_schemas,
            json_schemas,
            delimited_fields,
            json_fields,
            ty: wrap_nullable(ty, nullable),
            schema: self.contract_schema(&schema, &schema_at)?,
            examples,
        }))
    }
}

struct Media {
    content_type: String,
    kind: MediaKind,
    other_content_types: Vec<String>,
    same_schema_content_types: Vec<String>,
    field_schemas: Vec<(String, Value)>,
    json_schemas: Vec<(String, Value)>,
    delimited_fields: Vec<(String, char)>,
    json_fields: Vec<String>,
    ty: TypeRef,
    schema: Value,
    examples: Vec<Example>,
}

/// The form fields whose Encoding Object sends a list as one delimited value (a form's
/// default, like a query's, is a pair per item).
fn delimited_fields(media: &Value) -> Vec<(String, char)> {
    let Some(Value::Object(encoding)) = media.get("encoding") else {
        return Vec::new();
    };
    encoding
        .iter()
        .filter_map(|(field, how)| {
            let style = how.get("style").and_then(Value::as_str).unwrap_or("form");
            let explode = how.get("explode").and_then(Value::as_bool);
            let delimiter = match (style, explode) {
                ("form", Some(false)) => ',',
                ("spaceDelimited", _) => ' ',
                ("pipeDelimited", _) => '|',
                _ => return None,
            };
            Some((field.clone(), delimiter))
        })
        .collect()
}

/// The form fields whose Encoding Object gives a JSON `contentType` (`application/json`,
/// `…+json`) and none of `style`, `explode` and `allowReserved`, which take precedence in a
/// form (OpenAPI 3.1.1, Encoding Object): their values go as JSON text.
fn json_fields(media: &Value) -> Vec<String> {
    let Some(Value::Object(encoding)) = media.get("encoding") else {
        return Vec::new();
    };
    encoding
        .iter()
        .filter(|(_, how)| {
            let styled = ["style", "explode", "allowReserved"]
                .iter()
                .any(|key| how.get(key).is_some());
            let json = how
                .get("contentType")
                .and_then(Value::as_str)
                .is_some_and(|media| {
                    let essence = crate::manifest::essence(media);
                    essence == "application/json" || essence.ends_with("+json")
                });
            json && !styled
        })
        .map(|(field, _)| field.clone())
        .collect()
}

/// Marks the header that carries the idempotency key: the first header named
/// `Idempotency-Key` or `X-Idempotency-Key` (in any case).
fn mark_idempotency_key(parameters: &mut [Parameter]) {
    if let Some(header) = parameters.iter_mut().find(|p| {
        p.location == ParamLocation::Header
            && matches!(
                p.name.to_ascii_lowercase().as_str(),
                "x-idempotency-key" | "idempotency-key"
            )
    }) {
        header.idempotency_key = true;
    }
}

/// The schema of a parameter or header (at `at`), with its pointer: its `schema`, or the
/// schema of the first media type of its `content`, which is then named.
fn value_schema(object: &Value, at: &str) -> (Value, String, Option<String>) {
    if let Some(schema) = object.get("schema") {
        return (schema.clone(), child(at, "schema"), None);
    }
    match object
        .get("content")
        .and_then(Value::as_object)
        .and_then(|content| content.iter().next())
    {
        Some((media, media_obj)) => (
            media_obj
                .get("schema")
                .cloned()
                .unwrap_or(Value::Bool(true)),
            child(&child(&child(at, "content"), media), "schema"),
            Some(media.clone()),
        ),
        None => (Value::Bool(true), at.to_string(), None),
    }
}

fn parse_status(key: &str) -> Option<StatusSpec> {
    if key == "default" {
        return Some(StatusSpec::Default);
    }
    let upper = key.to_ascii_uppercase();
    if let Some(class) = upper.strip_suffix("XX")
        && class.len() == 1
    {
        let class: u8 = class.parse().ok()?;
        return (1..=5).contains(&class).then_some(StatusSpec::Range(class));
    }
    let code: u16 = key.parse().ok()?;
    (100..=599)
        .contains(&code)
        .then_some(StatusSpec::Code(code))
}

/// Where the generated receiver takes a webhook the spec gives no path: `/{name}`, the name
/// percent-encoded as a request carries it (`Account categories updated` is
/// `/Account%20categories%20updated`; a route with the space itself is never reached). A `:`
/// or `*` that begins a segment is encoded too (`:petLost` is `/%3ApetLost`): axum would take
/// it for a capture, and the sender delivers to the same encoded path.
fn default_delivery_path(name: &str) -> String {
    const IN_PATH: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
        .add(b' ')
        .add(b'"')
        .add(b'#')
        .add(b'%')
        .add(b'<')
        .add(b'>')
        .add(b'?')
        .add(b'`')
        .add(b'{')
        .add(b'}');
    // Adyen names its MarketPay webhooks `/ACCOUNT_CLOSED`: one `/`, not an empty segment.
    let name = name.trim_start_matches('/');
    let encoded = percent_encoding::utf8_percent_encode(name, IN_PATH).to_string();
    let segments: Vec<String> = encoded
        .split('/')
        .map(|segment| match segment.as_bytes().first() {
            Some(b':') => format!("%3A{}", &segment[1..]),
            Some(b'*') => format!("%2A{}", &segment[1..]),
            _ => segment.to_string(),
        })
        .collect();
    format!("/{}", segments.join("/"))
}

/// `name`, or `name-2`, `name-3`… when it is taken; taken from then on.
fn unique(taken: &mut HashSet<String>, name: String) -> String {
    let mut candidate = name.clone();
    let mut n = 1;
    while taken.contains(&candidate) {
        n += 1;
        candidate = format!("{name}-{n}");
    }
    taken.insert(candidate.clone());
    candidate
}

fn derived_operation_id(method: Method, path: &str) -> String {
    format!("{}_{}", method.key(), path_words(path, false))
}

/// The segments of a path joined by `_`, parameters without braces (or, with `mark_params`,
/// as `by_<name>`, so that `/a/{id}` and `/a/id` differ), also within a segment
/// (`{name}.{ext}` is `name.ext`); the root path is `root`.
fn path_words(path: &str, mark_params: bool) -> String {
    let words: Vec<String> = path
        .split('/')
        .filter(|segment| !segment.is_empty())
        .map(|segment| {
            let mut word = String::new();
            let mut rest = segment;
            while let Some(open) = rest.find('{') {
                let Some(close) = rest[open..].find('}').map(|close| open + close) else {
                    break;
                };
                word.push_str(&rest[..open]);
                if mark_params {
                    word.push_str("by_");
                }
                word.push_str(&rest[open + 1..close]);
                rest = &rest[close + 1..];
            }
            word.push_str(rest);
            word
        })
        .collect();
    if words.is_empty() {
        "root".to_string()
    } else {
        words.join("_")
    }
}

/// Whether the API key scheme `scheme` travels as `name` in `location`: a header's name in
/// any case, as HTTP compares them; a query's or cookie's exactly.
fn api_key_at(scheme: &Value, location: ParamLocation, name: &str) -> bool {
    let wanted = match location {
        ParamLocation::Header => "header",
        ParamLocation::Query => "query",
        ParamLocation::Cookie => "cookie",
        ParamLocation::Path => return false,
    };
    let Some(key) = scheme.get("name").and_then(Value::as_str) else {
        return false;
    };
    scheme.get("in").and_then(Value::as_str) == Some(wanted)
        && match location {
            ParamLocation::Header => key.eq_ignore_ascii_case(name),
            _ => key == name,
        }
}

/// Operations of one method whose paths differ only in their parameters' names
/// (`/cards/{cardId}` and `/cards/{otherId}`), which OpenAPI forbids ("MUST NOT exist as they
/// are identical"): one route, on which the generated server picks the first, in path order,
/// whose path parameters keep their schemas, as specval does. A warning at each of the
/// others, since a value that fits both reaches the first alone.
fn unreachable_by_route(operations: &[Operation]) -> Vec<(String, String)> {
    let mut by_route: std::collections::BTreeMap<(String, Method), Vec<&Operation>> =
        std::collections::BTreeMap::new();
    for op in operations {
        by_route
            .entry((op.route_shape(), op.method))
            .or_default()
            .push(op);
    }
    let mut warnings = Vec::new();
    for ops in by_route.values_mut().filter(|ops| ops.len() > 1) {
        ops.sort_by(|a, b| a.path.cmp(&b.path));
        let first = ops[0];
        for op in &ops[1..] {
            let method = op.method.key().to_ascii_uppercase();
            warnings.push((
                op.pointer.clone(),
                format!(
                    "{method} {} is the same route as {method} {} (paths that differ only in \
                     their parameters' names are one, which OpenAPI forbids): the generated \
                     server gives a request to {} when its path parameters fit that \
                     operation's schemas, and to {} only when they do not",
                    op.path, first.path, first.id, op.id
                ),
            ));
        }
    }
    warnings
}

/// Operations of one method on one path of the wire that a template's appendix names apart
/// without asking anything more of the request (Box's `/files/{file_id}` and
/// `/files/{file_id}#add_shared_link`, a bare word no parameter stands for; S3's
/// `#lifecycle&deprecated!` beside `#lifecycle`): nothing in a request tells them apart, so
/// the generated server gives every such request to the first it tries (the one without an
/// appendix, else the most literal), and the others' handlers are never called. A warning at
/// each of the others.
fn unreachable_by_appendix(operations: &[Operation]) -> Vec<(String, String)> {
    /// One method on one path of the wire, asking the same of a request.
    type Key = (String, Method, Vec<(String, Option<String>)>);
    let mut groups: std::collections::BTreeMap<Key, Vec<&Operation>> =
        std::collections::BTreeMap::new();
    for op in operations {
        let template = op.matching_template();
        let wire = crate::path::route_shape(crate::path::wire(&template));
        groups
            .entry((wire, op.method, op.asks()))
            .or_default()
            .push(op);
    }
    let mut warnings = Vec::new();
    for ops in groups.values_mut() {
        let appended = |op: &Operation| crate::path::wire(&op.path).len() != op.path.len();
        if ops.len() < 2 || !ops.iter().any(|op| appended(op)) {
            continue;
        }
        // The generated dispatcher's order.
        ops.sort_by_key(|op| op.dispatch_order());
        let first = ops[0];
        for op in &ops[1..] {
            let method = op.method.key().to_ascii_uppercase();
            warnings.push((
                op.pointer.clone(),
                format!(
                    "{method} {} asks nothing of a request that {method} {} does not (its \
                     appendix names no parameter of the operation): nothing in a request tells \
                     them apart, so the generated server gives each to {} and {}'s handler is \
                     never called; specval judges such an exchange by whichever keeps the \
                     contract",
                    op.path, first.path, first.id, op.id
                ),
            ));
        }
    }
    warnings
}

/// Makes operation ids unique as Rust names: operations whose ids are equal (a duplicate
/// `operationId`) or become the same function name (`listRules`, `list_rules`) each get their
/// method, and where the method does not tell them apart their path, appended, so the generated
/// names say where they came from. Returns a warning for each renamed operation.
fn disambiguate_operation_ids(operations: &mut [Operation]) -> Vec<(String, String)> {
    let mut groups: IndexMap<String, Vec<usize>> = IndexMap::new();
    for (index, op) in operations.iter().enumerate() {
        groups
            .entry(naming::snake(&op.id, "operation"))
            .or_default()
            .push(index);
    }
    let mut warnings = Vec::new();
    for members in groups.values().filter(|members| members.len() > 1) {
        let methods: HashSet<Method> = members.iter().map(|&i| operations[i].method).collect();
        let by_method_alone = methods.len() == members.len();
        let same_id = members
            .iter()
            .all(|&i| operations[i].id == operations[members[0]].id);
        let others: Vec<String> = members
            .iter()
            .map(|&i| format!("{} {}", operations[i].method.as_http(), operations[i].path))
            .collect();
        for &i in members {
            let op = &mut operations[i];
            let written = op.id.clone();
            op.id = if by_method_alone {
                format!("{written}_{}", op.method.key())
            } else if written == derived_operation_id(op.method, &op.path) {
                // Derived from method and path already: tell `{id}` from a literal `id`.
                format!("{}_{}", op.method.key(), path_words(&op.path, true))
            } else {
                format!(
                    "{written}_{}_{}",
                    op.method.key(),
                    path_words(&op.path, false)
                )
            };
            let why = if written == derived_operation_id(op.method, &op.path) {
                format!(
                    "{} operations without an operationId derive the same name '{written}'",
                    members.len()
                )
            } else if same_id {
                format!(
                    "operationId '{written}' is used by {} operations",
                    members.len()
                )
            } else {
                format!("operationId '{written}' makes the same Rust name as another operation's")
            };
            // An id this pass could not change (both derived, and told apart only by text
            // that is no part of a Rust name: `/users` and `/users/~`) is the naming pass's to
            // resolve, and its warning names the name it gives.
            if op.id != written {
                warnings.push((
                    op.pointer.clone(),
                    format!(
                        "{why} ({}); this one is generated as '{}'",
                        others.join(", "),
                        op.id
                    ),
                ));
            }
        }
    }
    // Ids still equal (derived from paths told apart only by a trailing slash, `/things` and
    // `/things/`) would name two operations of the contract alike, in reports and coverage:
    // the later ones are numbered.
    let mut seen: HashSet<String> = HashSet::new();
    for index in 0..operations.len() {
        let written = operations[index].id.clone();
        if seen.insert(written.clone()) {
            continue;
        }
        let mut n = 2;
        while operations
            .iter()
            .any(|op| op.id == format!("{written}_{n}"))
            || seen.contains(&format!("{written}_{n}"))
        {
            n += 1;
        }
        let renamed = format!("{written}_{n}");
        seen.insert(renamed.clone());
        let others: Vec<String> = operations
            .iter()
            .filter(|op| op.id == written)
            .map(|op| format!("{} {}", op.method.as_http(), op.path))
            .collect();
        let op = &mut operations[index];
        warnings.push((
            op.pointer.clone(),
            format!(
                "operations derive or declare the same id '{written}' ({}); this one is \
                 generated as '{renamed}'",
                others.join(", ")
            ),
        ));
        op.id = renamed;
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 64 documents of the APIs.guru directory show content for a `204` or `304` (506
    /// responses); a generated client decoded the body that never comes and failed on the
    /// right answer.
    #[test]
    fn a_status_that_cannot_have_content_has_no_body() {
        let text = r#"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /pets/{id}:
    delete:
      operationId: deletePet
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: ok
          content: {application/json: {schema: {type: object}, example: {gone: true}}}
        '204':
          description: gone
          content: {application/json: {schema: {type: object}, example: {gone: true}}}
        '304':
          description: unchanged
          content: {application/json: {schema: {type: object}}}
"#;
        let api = api_of(text);
        let operation = &api.operations[0];
        let bodies: Vec<(String, bool)> = operation
            .responses
            .iter()
            .map(|r| (format!("{:?}", r.status), r.body.is_some()))
            .collect();
        assert_eq!(
            bodies,
            [
                ("Code(200)".to_string(), true),
                ("Code(204)".to_string(), false),
                ("Code(304)".to_string(), false)
            ]
        );
        assert_eq!(
            operation.examples.len(),
            1,
            "only the 200's example is kept"
        );
        let warned = warned_at(&api);
        assert_eq!(
            warned,
            [
                "#/paths/~1pets~1{id}/delete/responses/204/content",
                "#/paths/~1pets~1{id}/delete/responses/304/content"
            ]
        );
    }

    /// A path without its leading `/` is read with it, with a warning; an extension among
    /// the paths (apicurio's `x-codegen-contextRoot`) is not a path.
    #[test]
    fn paths_are_read_from_the_slash_and_extensions_are_not_paths() {
        let text = r#"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  x-codegen-contextRoot: /apis/registry
  notes/{id}:
    get:
      operationId: getNote
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {'204': {description: ok}}
"#;
        let api = api_of(text);
        let paths: Vec<&str> = api.operations.iter().map(|o| o.path.as_str()).collect();
        assert_eq!(paths, ["/notes/{id}"]);
        let warned = warned_at(&api);
        assert_eq!(warned, ["#/paths/notes~1{id}"]);
    }

    /// A Responses Object may hold specification extensions beside its statuses (as 3.0 and
    /// 3.1 both allow); they are not statuses, in a 3.x or a Swagger 2.0 document.
    #[test]
    fn extensions_among_responses_are_not_statuses() {
        for head in ["openapi: 3.1.0", "openapi: 3.0.3", "swagger: '2.0'"] {
            let text = format!(
                r#"
{head}
info: {{title: t, version: "1"}}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200': {{description: The pets.}}
        x-note: internal
        x-codes: {{'418': teapot}}
"#
            );
            let api = api_of(&text);
            let statuses: Vec<String> = api.operations[0]
                .responses
                .iter()
                .map(|response| response.status.key())
                .collect();
            assert_eq!(statuses, ["200"], "{head}");
            assert!(api.warnings.is_empty(), "{head}: {:?}", api.warnings);
        }
    }

    /// HTTP compares header names without case: a path item's `X-Request-Id` and its
    /// operation's `x-request-id` are one header, the operation's; a query's `Trace` and
    /// `trace` stay two parameters.
    #[test]
    fn an_operation_header_overrides_the_path_header_of_any_case() {
        let text = r#"
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /items:
    parameters:
      - {name: X-Request-Id, in: header, schema: {type: string}}
      - {name: Trace, in: query, schema: {type: string}}
    get:
      operationId: listItems
      parameters:
        - {name: x-request-id, in: header, required: true, schema: {type: string}}
        - {name: trace, in: query, schema: {type: string}}
      responses: {'200': {description: ok}}
"#;
        let api = api_of(text);
        let params: Vec<(&str, bool)> = api.operations[0]
            .parameters
            .iter()
            .map(|param| (param.name.as_str(), param.required))
            .collect();
        assert_eq!(
            params,
            [("Trace", false), ("trace", false), ("x-request-id", true)]
        );
    }

    /// `Authorization` as a header parameter is ignored where a security scheme carries it,
    /// as OpenAPI 3 says, and kept where none does: without it the client could not send
    /// what the API asks for.
    #[test]
    fn an_operation_says_it_takes_no_credential_in_so_many_words() {
        let document = |root: &str| {
            format!(
                r#"
openapi: 3.0.3
info: {{title: t, version: "1"}}
{root}
paths:
  /login:
    post:
      operationId: logIn
      security: []
      responses: {{'200': {{description: ok}}}}
  /ping:
    get:
      operationId: ping
      security: [{{}}]
      responses: {{'200': {{description: ok}}}}
  /items:
    get:
      operationId: listItems
      responses: {{'200': {{description: ok}}}}
  /mine:
    get:
      operationId: listMine
      security: [{{}}, {{key: []}}]
      responses: {{'200': {{description: ok}}}}
components:
  securitySchemes:
    key: {{type: apiKey, in: header, name: X-Key}}
"#
            )
        };
        let anonymous = |api: &crate::ir::Api| -> Vec<(String, bool)> {
            api.operations
                .iter()
                .map(|op| (op.id.clone(), op.anonymous))
                .collect()
        };
        let expect = |items: bool| {
            vec![
                ("logIn".to_string(), true),
                ("ping".to_string(), true),
                ("listItems".to_string(), items),
                // Anonymous access or a key: the key is sent when the client holds one.
                ("listMine".to_string(), false),
            ]
        };
        // A document that names no requirement anywhere may have forgotten to: not anonymous.
        let mut found = anonymous(&api_of(&document("")));
        found.sort();
        let mut expected = expect(false);
        expected.sort();
        assert_eq!(found, expected);
        // The document's own `security: []` is inherited.
        let mut found = anonymous(&api_of(&document("security: []")));
        found.sort();
        let mut expected = expect(true);
        expected.sort();
        assert_eq!(found, expected);
        // And a requirement it names is.
        let mut found = anonymous(&api_of(&document("security: [{key: []}]")));
        found.sort();
        let mut expected = expect(false);
        expected.sort();
        assert_eq!(found, expected);
    }

    #[test]
    fn an_authorization_parameter_is_kept_where_no_scheme_carries_one() {
        let document = |security: &str| {
            format!(
                r#"
openapi: 3.0.3
info: {{title: t, version: "1"}}
{security}
paths:
  /items:
    get:
      operationId: listItems
      parameters:
        - {{name: Authorization, in: header, required: true, schema: {{type: string}}}}
      responses: {{'200': {{description: ok}}}}
  /open:
    get:
      operationId: listOpen
      security: []
      parameters:
        - {{name: Authorization, in: header, schema: {{type: string}}}}
      responses: {{'200': {{description: ok}}}}
components:
  securitySchemes:
    bearer: {{type: http, scheme: bearer}}
    key: {{type: apiKey, in: header, name: X-Key}}
"#
            )
        };
        let authorization = |api: &crate::ir::Api| -> Vec<(String, bool)> {
            api.operations
                .iter()
                .filter(|op| op.parameters.iter().any(|p| p.name == "Authorization"))
                .map(|op| (op.id.clone(), op.parameters[0].required))
                .collect()
        };
        // No security at all (the BBC's API): kept, required as documented.
        let api = api_of(&document(""));
        assert_eq!(
            authorization(&api),
            [
                ("listItems".to_string(), true),
                ("listOpen".to_string(), false)
            ]
        );
        // A bearer scheme carries it: ignored, except where the operation opts out.
        let api = api_of(&document("security: [{bearer: []}]"));
        assert_eq!(authorization(&api), [("listOpen".to_string(), false)]);
        // An API key in another header does not.
        let api = api_of(&document("security: [{key: []}]"));
        assert_eq!(authorization(&api).len(), 2);
    }

    /// Callbacks of one operation at one runtime expression go to the one URL the caller
    /// gave: the generated receiver takes them at one path. Another operation's callback at
    /// the same expression is another subscription's, at a path of its own.
    #[test]
    fn callbacks_at_one_expression_share_a_path() {
        let api = api_of(
            r#"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /webhooks:
    post:
      operationId: createWebhook
      responses: {'201': {description: ok}}
      callbacks:
        deployed:
          '{$request.body#/url}':
            post:
              requestBody: {content: {application/json: {schema: {type: object, properties: {type: {const: deployed}}}}}}
              responses: {'200': {description: ok}}
        aliased:
          '{$request.body#/url}':
            post:
              requestBody: {content: {application/json: {schema: {type: object, properties: {type: {const: aliased}}}}}}
              responses: {'200': {description: ok}}
  /other:
    post:
      operationId: other
      responses: {'201': {description: ok}}
      callbacks:
        deployed:
          '{$request.body#/url}':
            post:
              responses: {'200': {description: ok}}
"#,
        );
        let path = |name: &str| {
            let hook = api.webhooks.iter().find(|hook| hook.name == name).unwrap();
            hook.operation.path.clone()
        };
        assert_eq!(
            path("createWebhook-deployed"),
            path("createWebhook-aliased")
        );
        assert_ne!(path("createWebhook-deployed"), path("other-deployed"));
    }

    /// A response component's inline body is named after the component, whichever operation
    /// uses it first (API Setu's `400Error`, shared by every operation); one written in the
    /// operation stays named after it. A parameter written as it is (Azure's
    /// `x-ms-skip-url-encoding` scope) fills several segments: its template reads `{+scope}`.
    #[test]
    fn shared_bodies_are_named_after_their_component_and_raw_parameters_span() {
        let api = api_of(
            r#"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /{scope}/certificates:
    get:
      operationId: listCertificates
      parameters:
        - {name: scope, in: path, required: true, x-ms-skip-url-encoding: true, schema: {type: string}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}}
        '400': {$ref: '#/components/responses/400Error'}
  /cards/{id}:
    get:
      operationId: getCard
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '400': {$ref: '#/components/responses/400Error'}
        '404': {$ref: '#/components/responses/NotFound'}
components:
  responses:
    400Error:
      description: bad
      content: {application/json: {schema: {type: object, properties: {error: {type: string}}}}}
    NotFound:
      description: none
      content: {application/json: {schema: {type: object, properties: {missing: {type: string}}}}}
"#,
        );
        let names: Vec<&str> = api.types.iter().map(|t| t.name.as_str()).collect();
        for name in ["Error400Body", "NotFoundBody", "ListCertificatesOkBody"] {
            assert!(names.contains(&name), "{name} in {names:?}");
        }
        let op = |id: &str| api.operations.iter().find(|op| op.id == id).unwrap();
        assert_eq!(
            op("listCertificates").matching_template(),
            "/{+scope}/certificates"
        );
        assert!(op("listCertificates").spans_segments());
        assert_eq!(op("getCard").matching_template(), "/cards/{id}");
        assert!(!op("getCard").spans_segments());
    }

    /// A parameter that is the credential of an API key scheme the operation's security
    /// names (NYT Books' query `api-key`) is left out with a warning: the client sent the key
    /// twice. Where the operation opts out of security, or the key travels elsewhere, it stays.
    #[test]
    fn a_parameter_an_api_key_scheme_carries_is_left_out() {
        let api = api_of(
            r#"
openapi: 3.0.3
info: {title: t, version: "1"}
security: [{query_key: []}, {header_key: []}]
paths:
  /names:
    get:
      operationId: listNames
      parameters:
        - {name: api-key, in: query, schema: {type: string}}
        - {name: x-key, in: header, schema: {type: string}}
        - {name: x-key, in: query, schema: {type: string}}
        - {name: Api-Key, in: query, schema: {type: string}}
      responses: {'200': {description: ok}}
  /open:
    get:
      operationId: listOpen
      security: []
      parameters:
        - {name: api-key, in: query, schema: {type: string}}
      responses: {'200': {description: ok}}
components:
  securitySchemes:
    query_key: {type: apiKey, in: query, name: api-key}
    header_key: {type: apiKey, in: header, name: X-Key}
"#,
        );
        let kept = |id: &str| -> Vec<(String, ParamLocation)> {
            let op = api.operations.iter().find(|op| op.id == id).unwrap();
            op.parameters
                .iter()
                .map(|p| (p.name.clone(), p.location))
                .collect()
        };
        // A header's name in any case; a query's exactly.
        assert_eq!(
            kept("listNames"),
            [
                ("x-key".to_string(), ParamLocation::Query),
                ("Api-Key".to_string(), ParamLocation::Query)
            ]
        );
        assert_eq!(
            kept("listOpen"),
            [("api-key".to_string(), ParamLocation::Query)]
        );
        assert_eq!(
            warned_at(&api),
            [
                "#/paths/~1names/get/parameters/0",
                "#/paths/~1names/get/parameters/1"
            ]
        );
        assert!(
            api.warnings[0]
                .message
                .contains("security scheme query_key"),
            "{}",
            api.warnings[0].message
        );
    }

    /// A client certificate is checked where TLS ends, not by the generated server: a
    /// `mutualTLS` scheme is warned about at its place, so that an operation requiring it
    /// alone is not open in silence; the other schemes are not.
    #[test]
    fn a_mutual_tls_scheme_is_warned_about_as_unchecked() {
        let api = api_of(
            r#"
openapi: 3.1.0
info: {title: t, version: "1"}
security: [{client_cert: []}]
paths:
  /things:
    get: {operationId: listThings, responses: {'204': {description: ok}}}
components:
  securitySchemes:
    client_cert: {type: mutualTLS}
    key: {type: apiKey, in: header, name: X-Key}
"#,
        );
        assert_eq!(
            warned_at(&api),
            ["#/components/securitySchemes/client_cert"]
        );
        assert!(
            api.warnings[0]
                .message
                .contains("does not check a client certificate"),
            "{}",
            api.warnings[0].message
        );
    }

    /// Two paths that differ only in their parameters' names are one route: the second
    /// operation of a method on it is warned about as unreachable; other methods on it are
    /// not (each is its own handler's).
    #[test]
    fn paths_differing_only_in_parameter_names_are_warned_about() {
        let api = api_of(
            r#"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /cards/{otherId}:
    get:
      operationId: otherCard
      parameters: [{name: otherId, in: path, required: true, schema: {type: integer}}]
      responses: {'200': {description: ok}}
  /cards/{cardId}:
    get:
      operationId: getCard
      parameters: [{name: cardId, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
    delete:
      operationId: deleteCard
      parameters: [{name: cardId, in: path, required: true, schema: {type: string}}]
      responses: {'204': {description: gone}}
  /cards/{id}/tags:
    get:
      operationId: listTags
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
"#,
        );
        assert_eq!(warned_at(&api), ["#/paths/~1cards~1{otherId}/get"]);
        let message = &api.warnings[0].message;
        assert!(
            message.starts_with("GET /cards/{otherId} is the same route as GET /cards/{cardId}")
                && message.contains("gives a request to getCard when"),
            "{message}"
        );
    }

    /// A template's appendix that asks nothing more of a request (Box's bare fragment, S3's
    /// `#lifecycle&deprecated!` beside `#lifecycle`) leaves its operation unreachable on the
    /// generated server: a warning there, and none where the appendix asks something.
    #[test]
    fn an_appendix_that_asks_nothing_more_is_warned_about() {
        let api = api_of(
            r#"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /files/{file_id}:
    put:
      operationId: updateFile
      parameters: [{name: file_id, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
  /files/{file_id}#add_shared_link:
    put:
      operationId: addSharedLink
      parameters: [{name: file_id, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
  /{Bucket}#lifecycle:
    get:
      operationId: GetBucketLifecycleConfiguration
      parameters:
        - {name: Bucket, in: path, required: true, schema: {type: string}}
        - {name: lifecycle, in: query, required: true, schema: {type: boolean}}
      responses: {'200': {description: ok}}
  /{Bucket}#lifecycle&deprecated!:
    get:
      operationId: GetBucketLifecycle
      parameters:
        - {name: Bucket, in: path, required: true, schema: {type: string}}
        - {name: lifecycle, in: query, required: true, schema: {type: boolean}}
      responses: {'200': {description: ok}}
  /{Bucket}#acl:
    get:
      operationId: GetBucketAcl
      parameters:
        - {name: Bucket, in: path, required: true, schema: {type: string}}
        - {name: acl, in: query, required: true, schema: {type: boolean}}
      responses: {'200': {description: ok}}
"#,
        );
        assert_eq!(
            warned_at(&api),
            [
                "#/paths/~1files~1{file_id}#add_shared_link/put",
                "#/paths/~1{Bucket}#lifecycle&deprecated!/get",
            ]
        );
        let message = &api.warnings[0].message;
        assert!(
            message
                .contains("gives each to updateFile and addSharedLink's handler is never called"),
            "{message}"
        );
    }

    /// A style OpenAPI does not know is left out with a warning (the location's default
    /// applies); one its location does not take is warned about and read as written.
    #[test]
    fn unknown_and_misplaced_styles_are_warned_about() {
        let api = api_of(
            r#"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /items/{id}:
    get:
      operationId: getItem
      parameters:
        - {name: id, in: path, required: true, style: form, schema: {type: string}}
        - {name: tags, in: query, style: bogus, schema: {type: array, items: {type: string}}}
        - {name: ids, in: query, style: pipeDelimited, schema: {type: array, items: {type: string}}}
      responses: {'200': {description: ok}}
"#,
        );
        assert_eq!(
            warned_at(&api),
            [
                "#/paths/~1items~1{id}/get/parameters/0/style",
                "#/paths/~1items~1{id}/get/parameters/1/style"
            ]
        );
        let styles: Vec<Option<&str>> = api.operations[0]
            .parameters
            .iter()
            .map(|p| p.style.as_deref())
            .collect();
        assert_eq!(styles, [Some("form"), None, Some("pipeDelimited")]);
        assert!(api.warnings[1].message.contains("default (form) applies"));
    }

    /// `ETag` and `Etag` on one response are one header (names are not case-sensitive): the
    /// first is kept, with a warning, where two fields had both set it. Connection headers
    /// (`Keep-Alive`) stay in the contract but are no handler's to set.
    #[test]
    fn response_headers_differing_in_case_are_one() {
        let text = r#"
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /items:
    get:
      operationId: listItems
      responses:
        '200':
          description: ok
          headers:
            ETag: {schema: {type: string}}
            Etag: {schema: {type: string}}
            Keep-Alive: {schema: {type: string}}
"#;
        let api = api_of(text);
        let response = &api.operations[0].responses[0];
        let names: Vec<&str> = response.headers.iter().map(|h| h.name.as_str()).collect();
        assert_eq!(names, ["ETag", "Keep-Alive"]);
        let settable: Vec<&str> = response
            .settable_headers()
            .map(|h| h.name.as_str())
            .collect();
        assert_eq!(settable, ["ETag"]);
        assert_eq!(
            warned_at(&api),
            ["#/paths/~1items/get/responses/200/headers/Etag"]
        );
    }

    /// A notification's parameters other than headers are not sent by the generated sender:
    /// a warning says so.
    #[test]
    fn a_webhook_parameter_is_named_in_a_warning() {
        let text = r#"
openapi: 3.1.0
info: {title: t, version: "1"}
webhooks:
  pet.new:
    post:
      parameters:
        - {name: X-Webhook-Id, in: header, required: true, schema: {type: string}}
        - {name: attempt, in: query, schema: {type: integer}}
      requestBody:
        content: {application/json: {schema: {type: object}}}
      responses: {'200': {description: ok}}
"#;
        let api = api_of(text);
        assert_eq!(warned_at(&api), ["#/webhooks/pet.new/post"]);
        let message = &api.warnings[0].message;
        assert!(message.contains("query `attempt`"), "{message}");
        // Headers travel (the sender writes them, the receiver checks them): not named.
        assert!(!message.contains("X-Webhook-Id"), "{message}");
        // With headers alone, nothing to warn about.
        let api = api_of(&text.replace(
            "        - {name: attempt, in: query, schema: {type: integer}}\n",
            "",
        ));
        assert!(api.warnings.is_empty(), "{:?}", api.warnings);
    }

    /// The pointers the IR's warnings name, in order.
    fn warned_at(api: &crate::ir::Api) -> Vec<&str> {
        api.warnings.iter().map(|w| w.pointer.as_str()).collect()
    }

    /// The IR of a document given as text.
    fn api_of(text: &str) -> crate::ir::Api {
        let doc = crate::load::load_str(text, "test.yaml").expect("the document loads");
        crate::build_ir(&doc, &crate::Options::default()).expect("the document builds")
    }

    /// A webhook without a delivery path is received at its name, encoded as a request
    /// path carries it.
    #[test]
    fn a_webhook_without_a_path_is_received_at_its_encoded_name() {
        assert_eq!(
            default_delivery_path("Account categories updated"),
            "/Account%20categories%20updated"
        );
        assert_eq!(default_delivery_path("event.created"), "/event.created");
        assert_eq!(default_delivery_path("{event}"), "/%7Bevent%7D");
        assert_eq!(default_delivery_path("größe"), "/gr%C3%B6%C3%9Fe");
        // What axum would read as a capture begins no segment; elsewhere it stays.
        assert_eq!(default_delivery_path(":petLost"), "/%3ApetLost");
        assert_eq!(default_delivery_path("pets/*/lost"), "/pets/%2A/lost");
        assert_eq!(default_delivery_path("pet:lost"), "/pet:lost");
        assert_eq!(default_delivery_path("/ACCOUNT_CLOSED"), "/ACCOUNT_CLOSED");
    }

    #[test]
    fn statuses_parse_codes_classes_and_default() {
        assert_eq!(parse_status("201"), Some(StatusSpec::Code(201)));
        assert_eq!(parse_status("2XX"), Some(StatusSpec::Range(2)));
        assert_eq!(parse_status("default"), Some(StatusSpec::Default));
        assert_eq!(parse_status("20"), None);
        assert_eq!(parse_status("9XX"), None);
    }

    /// OpenAPI 3.2 is read as the 3.1 it extends: its example `dataValue` is an example, and
    /// what the generated code has no place for (the QUERY method, `additionalOperations`, a
    /// `querystring` parameter) is left out with a warning that names it.
    #[test]
    fn an_openapi_3_2_document_keeps_what_3_1_has() {
        let text = r#"
openapi: 3.2.0
info: {title: t, version: "1"}
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - {name: q, in: querystring, content: {application/json: {schema: {type: object}}}}
        - {name: limit, in: query, schema: {type: integer}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: array}
              examples: {two: {dataValue: [1, 2]}}
    query:
      responses: {'200': {description: ok}}
    additionalOperations:
      COPY:
        responses: {'204': {description: copied}}
  /stream:
    get:
      operationId: streamPets
      responses:
        '200':
          description: one pet a line
          content: {application/jsonl: {itemSchema: {type: object}}}
"#;
        let api = api_of(text);
        let ids: Vec<&str> = api.operations.iter().map(|o| o.id.as_str()).collect();
        assert_eq!(ids, ["listPets", "streamPets"]);
        let operation = &api.operations[0];
        let names: Vec<&str> = operation
            .parameters
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        assert_eq!(names, ["limit"]);
        let examples: Vec<_> = operation
            .examples
            .iter()
            .map(|e| (&e.example.pointer, &e.example.value))
            .collect();
        assert_eq!(examples.len(), 1, "{examples:?}");
        assert!(examples[0].0.ends_with("/examples/two/dataValue"));
        assert_eq!(examples[0].1, &serde_json::json!([1, 2]));
        let warned = warned_at(&api);
        assert_eq!(
            warned,
            [
                "#/paths/~1pets/query",
                "#/paths/~1pets/additionalOperations/COPY",
                "#/paths/~1pets/get/parameters/0",
                "#/paths/~1stream/get/responses/200/content/application~1jsonl/itemSchema"
            ]
        );
    }

    /// DaniWeb's `GET /users` and `GET /users/~`: derived ids that differ only by a character
    /// no Rust name keeps. The naming pass tells them apart, and the one warning names the
    /// function generated, not an id with a `~` in it.
    #[test]
    fn derived_ids_told_apart_only_by_punctuation_get_one_true_warning() {
        let api = api_of(
            r#"
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /users:
    get: {responses: {'204': {description: ok}}}
  /users/~:
    get: {responses: {'204': {description: ok}}}
"#,
        );
        let names: Vec<&str> = api.operations.iter().map(|o| o.fn_name.as_str()).collect();
        assert_eq!(names, ["get_users", "get_users_2"]);
        let messages: Vec<&str> = api.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(messages[0].contains("`get_users_2`"), "{messages:?}");
        assert!(!messages[0].contains('~'), "{messages:?}");
    }

    #[test]
    fn operation_ids_are_derived_when_absent() {
        assert_eq!(
            derived_operation_id(Method::Get, "/pets/{petId}"),
            "get_pets_petId"
        );
        assert_eq!(
            derived_operation_id(Method::Put, "/files/{name}.{ext}"),
            "put_files_name.ext"
        );
        assert_eq!(
            derived_operation_id(Method::Get, "/users/@{handle}"),
            "get_users_@handle"
        );
        assert_eq!(derived_operation_id(Method::Get, "/"), "get_root");
    }

    /// `GET /things` and `GET /things/` derive one id: the contract, specval's reports and
    /// coverage would not tell them apart.
    #[test]
    fn operations_told_apart_only_by_a_trailing_slash_get_ids_of_their_own() {
        let api = api_of(
            r#"
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /things:
    get: {responses: {'204': {description: ok}}}
  /things/:
    get: {responses: {'204': {description: ok}}}
"#,
        );
        let ids: Vec<&str> = api.operations.iter().map(|o| o.id.as_str()).collect();
        assert_eq!(ids, ["get_things", "get_things_2"]);
        let names: Vec<&str> = api.operations.iter().map(|o| o.fn_name.as_str()).collect();
        assert_eq!(names, ["get_things", "get_things_2"]);
        let messages: Vec<&str> = api.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(messages[0].contains("'get_things_2'"), "{messages:?}");
    }

    /// A notification's own `security` is neither sent by the generated sender nor checked by
    /// its receiver: a warning at it says so, for webhooks and callbacks alike, and none where
    /// the notification names none (the document's `security` is its operations').
    #[test]
    fn a_notifications_security_is_warned_about_as_unchecked() {
        let api = api_of(
            r#"
openapi: 3.1.0
info: {title: t, version: "1"}
security: [{Key: []}]
components:
  securitySchemes:
    Basic: {type: http, scheme: basic}
    Key: {type: apiKey, in: header, name: X-Key}
paths:
  /subscriptions:
    post:
      responses: {'201': {description: ok}}
      callbacks:
        event:
          '{$request.body#/url}':
            post:
              security: [{Basic: []}]
              responses: {'200': {description: ok}}
webhooks:
  accountCreated:
    post:
      security: [{Basic: []}, {Key: []}]
      responses: {'200': {description: ok}}
  accountClosed:
    post:
      responses: {'200': {description: ok}}
"#,
        );
        let warned: Vec<(&str, &str)> = api
            .warnings
            .iter()
            .map(|w| (w.pointer.as_str(), w.message.as_str()))
            .collect();
        assert_eq!(warned.len(), 2, "{warned:?}");
        assert_eq!(warned[0].0, "#/webhooks/accountCreated/post/security");
        assert!(warned[0].1.contains("(Basic, Key)"), "{}", warned[0].1);
        assert!(
            warned[1]
                .0
                .starts_with("#/paths/~1subscriptions/post/callbacks/event/"),
            "{}",
            warned[1].0
        );
    }
}
