//! The checks of a request's credentials and parameters.

use serde_json::Value;

use super::{Checker, Parsed, parse_body};
use crate::contract::{Contract, Credential, Location, ObjectStyle, OperationSpec, ParameterSpec};
use crate::coverage::key as coverage;
use crate::exchange::{Body, ExchangeKind, Request, Response, header_lines};
use crate::finding::{Part, Severity};
use crate::report::DriftKey;
use crate::rule::Rule;

impl Checker<'_> {
    /// Whether one security requirement is met; an open operation always is.
    pub(super) fn credentials_present(&self, op: &OperationSpec, request: &Request) -> bool {
        if op.security.is_empty() {
            return true;
        }
        // The document's scheme words: alone, a value of one carries no token.
        let declared = self.contract.http_scheme_words();
        op.security.iter().any(|requirement| {
            requirement.iter().all(|credential| {
                value(request, credential.location, &credential.name)
                    .is_some_and(|text| credential.presented_beside(text, declared))
                    || credential.in_query(&request.query)
            })
        })
    }

    /// What a request lacks of each of `op`'s security requirements, each said once:
    /// `Authorization (basic), or X-Key`.
    pub(super) fn wanted_credentials(&self, op: &OperationSpec, request: &Request) -> String {
        // Requirements that differ only by their scopes (HubSpot lists each scheme twice) lack
        // the same credentials: each said once.
        let mut wanted: Vec<String> = Vec::new();
        for requirement in &op.security {
            let lacks = lacking(requirement, request);
            if !wanted.contains(&lacks) {
                wanted.push(lacks);
            }
        }
        wanted.join(", or ")
    }

    /// A request without credentials must have been answered 401 with the documented code.
    pub(super) fn unauthenticated_answer(
        &mut self,
        op: &OperationSpec,
        request: &Request,
        response: &Response,
    ) {
        // A 403 is the refusal where the operation documents it and no 401 (AWS answers a
        // request without credentials 403): RFC 9110's 401 everywhere else.
        let documents = |key: &str| op.responses.iter().any(|r| r.key == key);
        let documented_403 = response.status == 403 && documents("403") && !documents("401");
        if documented_403 {
            return;
        }
        if response.status != 401 {
            self.push(
                Part::Response,
                "",
                "manifest.json#/securitySchemes",
                Rule::Credentials,
                format!(
                    "the request lacks {} but was answered {}, not 401",
                    self.wanted_credentials(op, request),
                    response.status
                ),
            );
            return;
        }
        let Some(documented) = op.response(401) else {
            return;
        };
        let codes = &documented.example_codes;
        if codes.is_empty() {
            return;
        }
        // No body to read the code from: a body the recording left out is the
        // `unrecorded-body` warning's, and one that is missing the body check's; the status
        // is the 401 asked for, so neither is this rule's to report again.
        if matches!(response.body, None | Some(Body::Unrecorded(_))) {
            return;
        }
        let code = match parse_body(response.body.as_ref()) {
            // Read as the body check reads it: a JSON Lines string holding the error object
            // is that object.
            Parsed::Json(body) => {
                let body = match &documented.body.schema {
                    Some(schema) => self.json_in_string(schema, response.body.as_ref(), body),
                    None => body,
                };
                body.get("code").and_then(Value::as_str).map(str::to_string)
            }
            _ => None,
        };
        if !code.as_ref().is_some_and(|code| codes.contains(code)) {
            self.push(
                Part::Response,
                "/code",
                format!("manifest.json#/operations ({} 401)", op.id),
                Rule::Credentials,
                format!(
                    "a request without credentials must be answered 401 {}",
                    codes.join(" or ")
                ),
            );
        }
    }

    pub(super) fn parameters(
        &mut self,
        op: &OperationSpec,
        request: &Request,
        path_params: &[(String, String)],
    ) {
        // A list sent with brackets (`ids[]=1&ids[]=2`) is that list parameter's, read and
        // checked as if sent under its name.
        let renamed;
        let request = if request
            .query
            .iter()
            .any(|(key, _)| op.bracketed_list(key).is_some())
        {
            renamed = Request {
                query: request
                    .query
                    .iter()
                    .map(|(key, text)| {
                        let key = op.bracketed_list(key).unwrap_or(key);
                        (key.to_string(), text.clone())
                    })
                    .collect(),
                headers: request.headers.clone(),
                body: None,
                method: request.method.clone(),
                path: request.path.clone(),
                mime_type: None,
                authority: request.authority.clone(),
                userinfo: request.userinfo.clone(),
            };
            &renamed
        } else {
            request
        };
        for param in &op.parameters {
            // A notification arrives at the receiver's URL, a callback's at the whole URL its
            // subscriber gave (Up's `{webhookURL}`, declared a required path parameter): its
            // path values are that URL's, none the contract can find.
            if param.location == Location::Path && self.site.kind == ExchangeKind::Notification {
                continue;
            }
            if let Some(style) = &param.object
                && self.object_parameter(op, param, style, request)
            {
                continue;
            }
            let cookie;
            let unstyled_path;
            let first = match param.location {
                Location::Path => {
                    let sent = path_params
                        .iter()
                        .find(|(k, _)| k == &param.name)
                        .map(|(_, v)| v.as_str());
                    unstyled_path = sent.map(|sent| match param.path_style {
                        Some(style) => unstyled(sent, &param.name, style, param.items.is_some()),
                        None => std::borrow::Cow::Borrowed(sent),
                    });
                    unstyled_path.as_deref()
                }
                // Percent-decoded, as OpenAPI's `form` style writes a cookie (`%3B` for `;`),
                // and as the generated server reads it.
                Location::Cookie => {
                    cookie = value(request, Location::Cookie, &param.name)
                        .map(specgen::load::percent_decode_lossy);
                    cookie.as_deref()
                }
                other => value(request, other, &param.name),
            };
            // Spelled out only for a finding: most parameters keep the contract.
            let pointer = || format!("{}:{}", param.location.as_str(), param.name);
            let location = || parameter_location(op, param);
            let Some(first) = first else {
                self.absent(op, param);
                continue;
            };
            self.cover(|| coverage::Key::parameter(op, param));
            // A path value whose percent-encoding is no UTF-8 (`%C3%28`) reads as U+FFFD, a
            // text it never held: the generated server refuses it, and so does this.
            if param.location == Location::Path
                && first.contains('\u{FFFD}')
                && !request.path.to_ascii_uppercase().contains("%EF%BF%BD")
            {
                self.push(
                    Part::Request,
                    pointer(),
                    location(),
                    Rule::Type,
                    format!("path {}: its percent-encoding is not UTF-8", param.name),
                );
                continue;
            }
            // `?verbose=` where the spec allows an empty value: its schema judges values only.
            if param.allow_empty && first.is_empty() {
                continue;
            }
            // A required query parameter whose value came empty, where the spec allows none
            // (OpenAPI's `allowEmptyValue` is false unless given): no value came, as the
            // generated server judges it.
            if param.required && param.location == Location::Query && first.is_empty() {
                let place = param.location.as_str();
                self.push(
                    Part::Request,
                    pointer(),
                    location(),
                    Rule::Required,
                    format!(
                        "{place} {} is required, and came with an empty value",
                        param.name
                    ),
                );
                continue;
            }
            let show = self.options.show_values
                && !self.contract.is_credential(param.location, &param.name);
            let violations = match param.items {
                // A JSON text: what it holds is checked (text that is not JSON, as text).
                _ if param.json => {
                    let value = serde_json::from_str(first)
                        .unwrap_or_else(|_| Value::String(first.to_string()));
                    Contract::check_parameter_value(param, &value, show)
                }
                None => match param.alternative_items {
                    // A scalar query key sent more than once (`?state=OPEN&state=BOGUS`, as
                    // some APIs invite), or a header on several lines (two idempotency keys):
                    // every value must keep the schema, not the first only.
                    None if matches!(param.location, Location::Query | Location::Header) => {
                        let mut violations = Vec::new();
                        for text in list_texts(request, param, first) {
                            for violation in Contract::check_parameter(param, text, show) {
                                if !violations.contains(&violation) {
                                    violations.push(violation);
                                }
                            }
                        }
                        violations
                    }
                    None => Contract::check_parameter(param, first, show),
                    // One value or a list: a key repeated is the list; a lone text is the
                    // one value, unless only the list it reads as conforms.
                    Some(kind) => {
                        let texts = list_texts(request, param, first);
                        let one = Contract::check_parameter(param, first, show);
                        if texts.len() == 1 && one.is_empty() {
                            one
                        } else {
                            let items = param.list_form.read(&texts, |items| {
                                Contract::check_parameter_list(param, kind, items, show).is_empty()
                            });
                            let list = Contract::check_parameter_list(param, kind, &items, show);
                            if list.is_empty() || texts.len() > 1 {
                                list
                            } else {
                                one
                            }
                        }
                    }
                },
                Some(_) => {
                    let texts = list_texts(request, param, first);
                    // A lone text holding commas is one item, as the spec reads it, unless
                    // only reading it as a comma-separated list makes it conform: the
                    // generated server's rule too.
                    let items = param.list_form.read(&texts, |items| {
                        Contract::check_parameter_items(param, items, show).is_empty()
                    });
                    Contract::check_parameter_items(param, &items, show)
                }
            };
            if violations.is_empty() && !param.json {
                self.parameter_enum_drift(op, param, request, first);
            }
            for violation in violations {
                self.push(
                    Part::Request,
                    pointer(),
                    location(),
                    violation.rule,
                    violation.message,
                );
            }
        }
    }

    /// A value an open list (`x-extensible-enum`, Azure's `x-ms-enum` with `modelAsString`)
    /// does not name, in a parameter that keeps its schema: drift, as the same value in a
    /// body is (the bindings take it as `Unknown`), and in strict mode a warning.
    fn parameter_enum_drift(
        &mut self,
        op: &OperationSpec,
        param: &ParameterSpec,
        request: &Request,
        first: &str,
    ) {
        if !self.drift {
            return;
        }
        let root = &param.schema;
        let schema = specgen::manifest::dereferenced(root, root);
        let (known, texts) = match schema.get("x-extensible-enum") {
            Some(Value::Array(known)) => (known, list_texts(request, param, first)),
            _ => {
                let Some(Value::Array(known)) = schema
                    .get("items")
                    .map(|items| specgen::manifest::dereferenced(items, root))
                    .and_then(|items| items.get("x-extensible-enum"))
                else {
                    return;
                };
                let texts = list_texts(request, param, first);
                (known, param.list_form.items(&texts))
            }
        };
        let show =
            self.options.show_values && !self.contract.is_credential(param.location, &param.name);
        let place = format!("{}:{}", param.location.as_str(), param.name);
        let mut seen: Vec<&str> = Vec::new();
        for text in texts {
            if seen.contains(&text) || known.iter().any(|value| value.as_str() == Some(text)) {
                continue;
            }
            seen.push(text);
            *self
                .outcome
                .drift
                .enum_values
                .entry(DriftKey {
                    operation: op.id.clone(),
                    part: Part::Request,
                    location: place.clone(),
                    value: show.then(|| text.to_owned()),
                })
                .or_default() += 1;
            if self.options.strict {
                let shown = if show {
                    format!(" `{text}`")
                } else {
                    String::new()
                };
                let mut finding = self.site.finding(
                    Part::Request,
                    place.clone(),
                    parameter_location(op, param),
                    Rule::UndocumentedEnumValue,
                    format!("value{shown} is not documented in the spec"),
                );
                finding.severity = Severity::Warning;
                self.outcome.findings.push(finding);
            }
        }
    }
}

impl Checker<'_> {
    /// Query keys the operation does not document: drift, and in strict mode a warning each
    /// (once per name). A credential's key (an API key in the query) is documented by its
    /// security scheme.
    pub(super) fn undocumented_query_keys(&mut self, op: &OperationSpec, request: &Request) {
        if !self.drift || request.query.is_empty() {
            return;
        }
        let mut seen: Vec<&str> = Vec::new();
        for (key, _) in &request.query {
            // A bearer token in the query (`access_token`, RFC 6750 2.3) is documented by
            // the OAuth or bearer scheme that takes it, as the credentials check reads it.
            let bearer_in_query = crate::contract::is_bearer_query_key(key)
                && op
                    .security
                    .iter()
                    .flatten()
                    .any(|credential| credential.in_query(&request.query));
            if seen.contains(&key.as_str())
                || op.documents_query_key(key)
                || self.contract.documents_query_credential(key)
                || bearer_in_query
            {
                continue;
            }
            seen.push(key);
            *self
                .outcome
                .drift
                .parameters
                .entry(DriftKey {
                    operation: op.id.clone(),
                    part: Part::Request,
                    location: "query".into(),
                    value: Some(key.clone()),
                })
                .or_default() += 1;
            if self.options.strict {
                let mut finding = self.site.finding(
                    Part::Request,
                    format!("query:{key}"),
                    format!("manifest.json#/operations ({} parameters)", op.id),
                    Rule::UndocumentedParameter,
                    format!("query parameter `{key}` is not documented for {}", op.id),
                );
                finding.severity = Severity::Warning;
                self.outcome.findings.push(finding);
            }
        }
    }

    /// A query parameter whose schema is an object: its members gathered from the keys they
    /// travel in, each parsed by its property's type (as a form's fields are), then checked.
    /// False when no member was sent: the parameter is then read as any other (absent, or
    /// whole, as a union's scalar: Stripe's `created=5`).
    fn object_parameter(
        &mut self,
        op: &OperationSpec,
        param: &ParameterSpec,
        style: &ObjectStyle,
        request: &Request,
    ) -> bool {
        let name = param.name.as_str();
        // A free-form object's members cannot be told from other keys.
        if !style.readable() {
            return true;
        }
        let Some(members) = style.members(name, &request.query) else {
            return false;
        };
        self.cover(|| coverage::Key::parameter(op, param));
        let instance = specgen::form::decode_members(&members, &param.schema);
        let show = self.options.show_values;
        for violation in Contract::check_parameter_value(param, &instance, show) {
            self.push(
                Part::Request,
                format!("query:{name}{}", violation.pointer),
                parameter_location(op, param),
                violation.rule,
                violation.message,
            );
        }
        true
    }
}

impl Checker<'_> {
    /// A parameter the request does not send: a finding when it is required.
    fn absent(&mut self, op: &OperationSpec, param: &ParameterSpec) {
        if param.required {
            let place = param.location.as_str();
            self.push(
                Part::Request,
                format!("{place}:{}", param.name),
                parameter_location(op, param),
                Rule::Required,
                format!("{place} {} is required", param.name),
            );
        }
    }
}

/// The texts a list parameter came in: a query key repeated (form style exploded, the
/// default), or a list in one value (`?ids=1,2`: `explode: false`, and path and header
/// parameters always; `?ids=1|2` and `?ids=1%202` in the delimited styles), as `ListForm`
/// reads them. A header's list may come on several lines, each a part of it.
fn list_texts<'r>(request: &'r Request, param: &'r ParameterSpec, first: &'r str) -> Vec<&'r str> {
    match param.location {
        Location::Query => request
            .query
            .iter()
            .filter(|(k, _)| k == &param.name)
            .map(|(_, v)| v.as_str())
            .collect(),
        Location::Header => header_lines(&request.headers, &param.name).collect(),
        _ => vec![first],
    }
}

/// Where a parameter's rule stands in the contract, for a finding.
fn parameter_location(op: &OperationSpec, param: &ParameterSpec) -> String {
    format!(
        "manifest.json#/operations ({} parameter {})",
        op.id, param.name
    )
}

/// A parameter's or credential's text in a request.
/// What a request lacks of one security requirement, for a message that says which
/// credential is missing: `private-secret-key (public-api-key was sent)`, `the credentials
/// public-api-key and private-secret-key`, `private-secret-key (private-secret-key was empty;
/// …)`, `authorization in the Basic scheme (authorization was sent in another)`. Values are
/// never quoted, not even the word before a space, which may be a token.
fn lacking(requirement: &[Credential], request: &Request) -> String {
    let mut missing = Vec::new();
    let mut notes = Vec::new();
    let mut sent = Vec::new();
    for credential in requirement {
        let name = credential.name.as_str();
        let wanted = match &credential.scheme {
            Some(scheme) => format!("{name} in the {} scheme", capitalized(scheme)),
            None => name.to_string(),
        };
        match value(request, credential.location, name) {
            Some(text) if credential.presented_by(text) => sent.push(name),
            _ if credential.in_query(&request.query) => sent.push("a token in the query"),
            // A scheme word alone (`Authorization: Bearer `) carries no credential.
            Some(text) if scheme_word_alone(text, credential.scheme.as_deref()) => {
                missing.push(wanted);
                notes.push(format!("{name} held a scheme word and no credential"));
            }
            // The scheme's own word with a value it cannot carry (`Basic !!!`: no base64).
            Some(text)
                if let Some(scheme) = credential.scheme.as_deref()
                    && text
                        .split_whitespace()
                        .next()
                        .is_some_and(|word| word.eq_ignore_ascii_case(scheme)) =>
            {
                missing.push(wanted);
                let carried = if scheme.eq_ignore_ascii_case("basic") {
                    " (the base64 of a name, a colon and a password)"
                } else {
                    ""
                };
                notes.push(format!(
                    "{name} named the {} scheme, with a value it cannot carry{carried}",
                    capitalized(scheme)
                ));
            }
            Some(text) if !text.trim().is_empty() => {
                missing.push(wanted);
                notes.push(format!("{name} was sent in another scheme"));
            }
            Some(_) => {
                missing.push(wanted);
                notes.push(format!("{name} was empty"));
            }
            None => missing.push(wanted),
        }
    }
    // Two schemes of one header (Google's `Oauth2` and `Oauth2c`) lack one credential.
    missing.dedup();
    notes.dedup();
    sent.dedup();
    match sent.as_slice() {
        [] => {}
        [one] => notes.push(format!("{one} was sent")),
        many => notes.push(format!("{} were sent", many.join(" and "))),
    }
    let noun = if missing.len() == 1 {
        "the credential"
    } else {
        "the credentials"
    };
    if notes.is_empty() {
        format!("{noun} {}", missing.join(" and "))
    } else {
        format!("{} ({})", missing.join(" and "), notes.join("; "))
    }
}

/// Whether `text` is a scheme word and nothing else: the credential's own scheme, or one of
/// the usual ones (`Bearer`, `Basic`, `Digest`, `Token`).
fn scheme_word_alone(text: &str, scheme: Option<&str>) -> bool {
    let word = text.trim();
    !word.is_empty()
        && !word.contains(char::is_whitespace)
        && (scheme.is_some_and(|scheme| word.eq_ignore_ascii_case(scheme))
            || ["bearer", "basic", "digest", "token"]
                .iter()
                .any(|usual| word.eq_ignore_ascii_case(usual)))
}

fn value<'r>(request: &'r Request, location: Location, name: &str) -> Option<&'r str> {
    match location {
        Location::Query => request
            .query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str()),
        Location::Header => request.header(name),
        Location::Cookie => request
            .headers
            .iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case("cookie"))
            .flat_map(|(_, v)| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v),
        Location::Path => None,
    }
}

/// `basic` as RFC 7617 writes it, `Basic`.
fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A path value in OpenAPI's `label` or `matrix` style, as the `simple` style would carry it,
/// which the parameter's rules read: `.3,4,5` and `.3.4.5` (a list, exploded) are `3,4,5`;
/// `;period=2024-01` is `2024-01`, `;id=3;id=4` (exploded) `3,4`. A value without its style's
/// mark stays as sent, for the schema to judge.
fn unstyled<'v>(
    value: &'v str,
    name: &str,
    style: crate::contract::PathStyle,
    list: bool,
) -> std::borrow::Cow<'v, str> {
    use std::borrow::Cow;

    use crate::contract::PathStyle;
    match style {
        PathStyle::Label { explode } => match value.strip_prefix('.') {
            Some(rest) if list && explode => Cow::Owned(rest.replace('.', ",")),
            Some(rest) => Cow::Borrowed(rest),
            None => Cow::Borrowed(value),
        },
        PathStyle::Matrix { explode } => {
            let mark = format!(";{name}");
            let Some(rest) = value.strip_prefix(mark.as_str()) else {
                return Cow::Borrowed(value);
            };
            // `;id` alone is the empty value.
            let Some(rest) = rest.strip_prefix('=') else {
                return Cow::Borrowed(if rest.is_empty() { "" } else { value });
            };
            if list && explode {
                Cow::Owned(
                    rest.split(&format!("{mark}="))
                        .collect::<Vec<_>>()
                        .join(","),
                )
            } else {
                Cow::Borrowed(rest)
            }
        }
    }
}
