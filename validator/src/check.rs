//! The checks of one exchange against the contract: which operation it is, its parameters,
//! credentials, idempotency key, content types, bodies, and whether its status is documented;
//! for a notification, the payload and the receiver's reply.

use std::borrow::Cow;

use serde_json::Value;

use crate::contract::{BodySpec, Contract, Location, Match, OperationSpec};
use crate::coverage::{self, Category};
use crate::drift;
use crate::exchange::{Body, Exchange, ExchangeKind, Request, Response};
use crate::finding::{Finding, Part, Severity, Site, shorten};
use crate::report::{Drift, DriftKey};

/// The rule of a valid notification answered with a rejection.
pub const REJECTED_RULE: &str = "reply-rejects-valid";

/// How much of a method or path from the traffic a message shows.
const TEXT: usize = 256;

/// How strict a run is.
#[derive(Debug, Clone, Copy, Default)]
pub struct CheckOptions {
    /// Also report undocumented properties and enum values, as warnings.
    pub strict: bool,
    /// Let instance values appear in messages (masked by default).
    pub show_values: bool,
}

/// What checking one exchange found.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The operation or webhook it matched.
    pub operation: Option<String>,
    /// Findings, in the order the checks ran.
    pub findings: Vec<Finding>,
    /// Undocumented things seen.
    pub drift: Drift,
    /// What of the contract the exchange exercised, when [`check_covering`] was asked for it
    /// (for [`crate::coverage`]); empty otherwise.
    pub covered: Vec<coverage::Key>,
}

/// Checks one exchange.
pub fn check(contract: &Contract, exchange: &Exchange, options: CheckOptions) -> Outcome {
    check_covering(contract, exchange, options, false)
}

/// Whether an exchange is a call or a notification: as its record says, else a notification
/// when its method and path are a webhook's.
pub fn kind_of(contract: &Contract, exchange: &Exchange) -> ExchangeKind {
    exchange.kind.unwrap_or_else(|| {
        if contract
            .match_webhook(&exchange.request.method, &exchange.request.path)
            .is_some()
        {
            ExchangeKind::Notification
        } else {
            ExchangeKind::Operation
        }
    })
}

/// [`check`], also noting in [`Outcome::covered`] what of the contract the exchange exercised
/// when `coverage` is set: the same pass matches the operation and parses the bodies once for
/// both.
pub fn check_covering(
    contract: &Contract,
    exchange: &Exchange,
    options: CheckOptions,
    coverage: bool,
) -> Outcome {
    check_with(contract, exchange, options, coverage, true)
}

/// [`check`] for live traffic, which wants the findings alone: undocumented members and enum
/// values are looked for only in strict mode, where they are findings, and
/// [`Outcome::drift`] stays empty (a run's report counts them; a live check has no report).
pub fn findings_of(
    contract: &Contract,
    exchange: &Exchange,
    options: CheckOptions,
) -> Vec<Finding> {
    check_with(contract, exchange, options, false, options.strict).findings
}

fn check_with(
    contract: &Contract,
    exchange: &Exchange,
    options: CheckOptions,
    coverage: bool,
    drift: bool,
) -> Outcome {
    let kind = kind_of(contract, exchange);
    let mut checker = Checker {
        contract,
        options,
        coverage,
        drift,
        site: Site {
            exchange: exchange.index,
            id: exchange.id.clone(),
            source: exchange.source.clone(),
            line: exchange.line,
            operation: None,
            kind,
        },
        outcome: Outcome::default(),
    };
    match kind {
        ExchangeKind::Operation => checker.operation(exchange),
        ExchangeKind::Notification => checker.notification(exchange),
    }
    let mut outcome = checker.outcome;
    outcome.covered.sort_unstable();
    outcome.covered.dedup();
    outcome
}

struct Checker<'c> {
    contract: &'c Contract,
    options: CheckOptions,
    /// Look for undocumented members and enum values.
    drift: bool,
    /// Note what the exchange exercises.
    coverage: bool,
    site: Site,
    outcome: Outcome,
}

/// A body parsed, or why it could not be.
enum Parsed<'b> {
    None,
    Json(Cow<'b, Value>),
    NotJson(String),
}

fn parse_body(body: Option<&Body>) -> Parsed<'_> {
    match body {
        None => Parsed::None,
        Some(Body::Json(value)) => Parsed::Json(Cow::Borrowed(value)),
        Some(Body::Text(text)) if text.trim().is_empty() => Parsed::None,
        Some(Body::Text(text)) => match serde_json::from_str(text) {
            Ok(value) => Parsed::Json(Cow::Owned(value)),
            Err(err) => Parsed::NotJson(err.to_string()),
        },
        Some(Body::Binary(bytes)) if bytes.is_empty() => Parsed::None,
        Some(Body::Binary(bytes)) => match serde_json::from_slice(bytes) {
            Ok(value) => Parsed::Json(Cow::Owned(value)),
            Err(err) => Parsed::NotJson(err.to_string()),
        },
    }
}

fn is_json(media: &str) -> bool {
    media == "application/json" || media.ends_with("+json")
}

impl Checker<'_> {
    /// Notes a thing the exchange exercised, when coverage is wanted.
    fn cover(&mut self, key: impl FnOnce() -> coverage::Key) {
        if self.coverage {
            self.outcome.covered.push(key());
        }
    }

    /// Notes the documented members and enum values a body holds.
    fn cover_body(&mut self, op: &OperationSpec, schema: &str, value: &Value, message: &str) {
        if !self.coverage {
            return;
        }
        let Some(plan) = self.contract.drift_plan(schema) else {
            return;
        };
        let category = if message.starts_with("response") || message.starts_with("reply") {
            Category::ResponseMember
        } else {
            Category::RequestMember
        };
        let covered = &mut self.outcome.covered;
        plan.seen(value, &mut |at, enum_value| {
            covered.push(match enum_value {
                None => coverage::Key::member(op, category, message, at),
                Some(text) => coverage::Key::enum_value(op, message, at, text),
            });
        });
    }

    fn push(
        &mut self,
        part: Part,
        pointer: impl Into<String>,
        location: impl Into<String>,
        rule: &str,
        message: impl Into<String>,
    ) {
        let finding = self.site.finding(part, pointer, location, rule, message);
        self.outcome.findings.push(finding);
    }

    fn operation(&mut self, exchange: &Exchange) {
        let request = &exchange.request;
        let (op, path_params) = match self
            .contract
            .match_operation(&request.method, &request.path)
        {
            Match::Operation(op, params) => (op, params),
            Match::MethodNotAllowed(template) => {
                self.push(
                    Part::Entry,
                    "",
                    format!("manifest.json#/operations ({template})"),
                    "operation-method",
                    format!(
                        "{} is not an operation of {template}",
                        shorten(&request.method, TEXT)
                    ),
                );
                return;
            }
            Match::UnknownPath => {
                self.push(
                    Part::Entry,
                    "",
                    "manifest.json#/operations",
                    "operation-path",
                    format!(
                        "no operation has the path {} {}",
                        shorten(&request.method, TEXT),
                        shorten(&request.path, TEXT)
                    ),
                );
                return;
            }
            Match::OutsideBasePath => {
                self.push(
                    Part::Entry,
                    "",
                    "manifest.json#/servers",
                    "operation-path",
                    format!(
                        "{} is not under a base path of the API (its servers; --base-url adds others)",
                        shorten(&request.path, TEXT)
                    ),
                );
                return;
            }
        };
        self.site.operation = Some(op.id.clone());
        self.outcome.operation = Some(op.id.clone());
        self.cover(|| coverage::Key::operation(op, Category::Operation));
        let unauthenticated = !self.credentials_present(op, request);
        self.parameters(op, request, &path_params);
        self.request_body(op, request);
        match &exchange.response {
            Some(response) => {
                if unauthenticated {
                    self.unauthenticated_answer(op, response);
                }
                self.response(op, response, Part::Response);
            }
            None if unauthenticated => self.push(
                Part::Request,
                "",
                "manifest.json#/securitySchemes",
                "credentials",
                "the request has no credentials, and no response was recorded",
            ),
            None => {}
        }
    }

    fn notification(&mut self, exchange: &Exchange) {
        let request = &exchange.request;
        let Some(hook) = self.contract.match_webhook(&request.method, &request.path) else {
            self.push(
                Part::Entry,
                "",
                "manifest.json#/webhooks",
                "webhook-path",
                format!(
                    "no notification is delivered at {} {}",
                    shorten(&request.method, TEXT),
                    shorten(&request.path, TEXT)
                ),
            );
            return;
        };
        self.site.operation = Some(hook.id.clone());
        self.outcome.operation = Some(hook.id.clone());
        self.cover(|| coverage::Key::operation(hook, Category::Notification));
        if let Some(spec) = &hook.request_body {
            self.body(
                hook,
                spec,
                request.content_type(),
                request.body.as_ref(),
                Part::Notification,
            );
        }
        let kept = !self
            .outcome
            .findings
            .iter()
            .any(|f| f.severity == Severity::Error);
        match &exchange.response {
            Some(reply) => {
                if kept {
                    self.rejection(hook, reply);
                }
                self.response(hook, reply, Part::Reply);
            }
            None => self.push(
                Part::Reply,
                "",
                "manifest.json#/webhooks",
                "reply",
                "no reply was recorded",
            ),
        }
    }

    /// A notification that keeps the contract must be accepted: a documented 4XX (the
    /// receiver's "your request is wrong") is for a payload that breaks it. 5XX answers stay
    /// allowed: they ask for a retry, which the webhook's rules provide for.
    fn rejection(&mut self, hook: &OperationSpec, reply: &Response) {
        if !(400..500).contains(&reply.status) {
            return;
        }
        let Some(spec) = hook.response(reply.status) else {
            // Undocumented: `status-documented` says so already.
            return;
        };
        let success: Vec<&str> = hook
            .responses
            .iter()
            .map(|r| r.key.as_str())
            .filter(|key| key.starts_with('2'))
            .collect();
        self.push(
            Part::Reply,
            "",
            format!(
                "manifest.json#/webhooks ({} responses {})",
                hook.id, spec.key
            ),
            REJECTED_RULE,
            format!(
                "the notification keeps the contract, but the receiver answered {} (a rejection); it must answer {}",
                reply.status,
                if success.is_empty() {
                    "with a success status".to_string()
                } else {
                    success.join(" or ")
                }
            ),
        );
    }

    /// Whether one security requirement is met; an open operation always is.
    fn credentials_present(&self, op: &OperationSpec, request: &Request) -> bool {
        op.security.is_empty()
            || op.security.iter().any(|requirement| {
                requirement.iter().all(|(location, name)| {
                    value(request, *location, name).is_some_and(|v| !v.trim().is_empty())
                })
            })
    }

    /// A request without credentials must have been answered 401 with the documented code.
    fn unauthenticated_answer(&mut self, op: &OperationSpec, response: &Response) {
        let wanted: Vec<String> = op
            .security
            .iter()
            .map(|r| {
                r.iter()
                    .map(|(_, name)| name.as_str())
                    .collect::<Vec<_>>()
                    .join(" and ")
            })
            .collect();
        if response.status != 401 {
            self.push(
                Part::Response,
                "",
                "manifest.json#/securitySchemes",
                "credentials",
                format!(
                    "the request lacks credentials ({}) but was answered {}, not 401",
                    wanted.join(", or "),
                    response.status
                ),
            );
            return;
        }
        let codes = op
            .response(401)
            .map(|r| r.example_codes.clone())
            .unwrap_or_default();
        if codes.is_empty() {
            return;
        }
        let code = match parse_body(response.body.as_ref()) {
            Parsed::Json(body) => body.get("code").and_then(Value::as_str).map(str::to_string),
            _ => None,
        };
        if !code.as_ref().is_some_and(|code| codes.contains(code)) {
            self.push(
                Part::Response,
                "/code",
                format!("manifest.json#/operations ({} 401)", op.id),
                "credentials",
                format!(
                    "a request without credentials must be answered 401 {}",
                    codes.join(" or ")
                ),
            );
        }
    }

    fn parameters(
        &mut self,
        op: &OperationSpec,
        request: &Request,
        path_params: &[(String, String)],
    ) {
        for param in &op.parameters {
            let text = match param.location {
                Location::Path => path_params
                    .iter()
                    .find(|(k, _)| k == &param.name)
                    .map(|(_, v)| v.as_str()),
                other => value(request, other, &param.name),
            };
            // Spelled out only for a finding: most parameters keep the contract.
            let pointer = || format!("{}:{}", param.location.as_str(), param.name);
            let location = || {
                format!(
                    "manifest.json#/operations ({} parameter {})",
                    op.id, param.name
                )
            };
            match text {
                None if param.required => {
                    self.push(
                        Part::Request,
                        pointer(),
                        location(),
                        "required",
                        format!("{} {} is required", param.location.as_str(), param.name),
                    );
                }
                None => {}
                Some(text) => {
                    self.cover(|| coverage::Key::parameter(op, param));
                    let show = self.options.show_values
                        && !self.contract.is_credential(param.location, &param.name);
                    for violation in Contract::check_parameter(param, text, show) {
                        self.push(
                            Part::Request,
                            pointer(),
                            location(),
                            &violation.rule,
                            violation.message,
                        );
                    }
                }
            }
        }
    }

    fn request_body(&mut self, op: &OperationSpec, request: &Request) {
        match &op.request_body {
            Some(spec) => self.body(
                op,
                spec,
                request.content_type(),
                request.body.as_ref(),
                Part::Request,
            ),
            None => {
                if !matches!(parse_body(request.body.as_ref()), Parsed::None) {
                    self.push(
                        Part::Request,
                        "",
                        format!("manifest.json#/operations ({})", op.id),
                        "body-unexpected",
                        format!("{} takes no request body, but one was sent", op.id),
                    );
                }
            }
        }
    }

    /// Content type, presence and schema of a request body or notification payload.
    fn body(
        &mut self,
        op: &OperationSpec,
        spec: &BodySpec,
        content_type: Option<String>,
        body: Option<&Body>,
        part: Part,
    ) {
        let location = || format!("manifest.json#/operations ({} requestBody)", op.id);
        match parse_body(body) {
            Parsed::None => {
                if spec.required {
                    self.push(part, "", location(), "required", "the body is required");
                }
            }
            Parsed::NotJson(error) => {
                self.push(
                    part,
                    "",
                    location(),
                    "json",
                    format!("the body is not JSON: {error}"),
                );
            }
            Parsed::Json(value) => {
                self.content_type(spec, content_type, part, &location);
                if let Some(schema) = &spec.schema {
                    self.schema(schema, &value, part);
                    self.drift(op, schema, &value, part);
                    if self.coverage {
                        self.cover_body(op, schema, &value, &coverage::message(part, None));
                    }
                }
            }
        }
    }

    fn content_type(
        &mut self,
        spec: &BodySpec,
        actual: Option<String>,
        part: Part,
        location: &dyn Fn() -> String,
    ) {
        let Some(expected) = spec.content_type.as_deref() else {
            return;
        };
        let expected = expected
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        let fits = match actual.as_deref() {
            Some(actual) => actual == expected || (is_json(&expected) && is_json(actual)),
            None => false,
        };
        if !fits {
            self.push(
                part,
                "header:content-type",
                location(),
                "content-type",
                format!(
                    "Content-Type should be {expected}, not {}",
                    actual.as_deref().unwrap_or("absent")
                ),
            );
        }
    }

    fn schema(&mut self, schema: &str, value: &Value, part: Part) {
        match self.contract.check(schema, value, self.options.show_values) {
            Ok(violations) => {
                for violation in violations {
                    self.push(
                        part,
                        violation.pointer,
                        violation.schema_location,
                        &violation.rule,
                        violation.message,
                    );
                }
            }
            Err(err) => self.push(part, "", schema.to_string(), "contract", err.to_string()),
        }
    }

    fn response(&mut self, op: &OperationSpec, response: &Response, part: Part) {
        let Some(spec) = op.response(response.status) else {
            let documented: Vec<&str> = op.responses.iter().map(|r| r.key.as_str()).collect();
            self.push(
                part,
                "",
                format!("manifest.json#/operations ({} responses)", op.id),
                "status-documented",
                format!(
                    "status {} is not documented for {} (documented: {})",
                    response.status,
                    op.id,
                    documented.join(", ")
                ),
            );
            *self
                .outcome
                .drift
                .statuses
                .entry(DriftKey {
                    operation: op.id.clone(),
                    part,
                    location: "status".into(),
                    value: Some(response.status.to_string()),
                })
                .or_default() += 1;
            return;
        };
        let location = || {
            format!(
                "manifest.json#/operations ({} responses {})",
                op.id, spec.key
            )
        };
        self.cover(|| coverage::Key::status(op, &spec.key));
        match parse_body(response.body.as_ref()) {
            Parsed::None => {
                if spec.body.required {
                    self.push(
                        part,
                        "",
                        location(),
                        "required",
                        format!(
                            "status {} documents a body, but none was recorded",
                            response.status
                        ),
                    );
                }
            }
            Parsed::NotJson(error) => {
                // Only a documented JSON body has to be JSON; a status whose body the spec
                // does not show (a 503 page, say) may carry anything.
                if spec.body.schema.is_some()
                    && spec.body.content_type.as_deref().is_none_or(is_json)
                {
                    self.push(
                        part,
                        "",
                        location(),
                        "json",
                        format!("the body is not JSON: {error}"),
                    );
                }
            }
            Parsed::Json(value) => {
                if spec.body.schema.is_some() {
                    self.content_type(&spec.body, response.content_type(), part, &location);
                }
                if let Some(schema) = &spec.body.schema {
                    self.schema(schema, &value, part);
                    self.drift(op, schema, &value, part);
                    if self.coverage {
                        let message = coverage::message(part, Some(&spec.key));
                        self.cover_body(op, schema, &value, &message);
                    }
                }
                // Error bodies carry their own status: it must be the HTTP status.
                if let Some(code) = value.get("http_code")
                    && code.as_u64() != Some(u64::from(response.status))
                {
                    self.push(
                        part,
                        "/http_code",
                        location(),
                        "http-code",
                        format!(
                            "http_code is {code}, but the HTTP status is {}",
                            response.status
                        ),
                    );
                }
            }
        }
    }

    fn drift(&mut self, op: &OperationSpec, schema: &str, value: &Value, part: Part) {
        if !self.drift {
            return;
        }
        let Some(plan) = self.contract.drift_plan(schema) else {
            return;
        };
        for item in plan.undocumented(value) {
            let (map, rule, what) = match item.kind {
                drift::Kind::Property => (
                    &mut self.outcome.drift.properties,
                    "undocumented-property",
                    "property",
                ),
                drift::Kind::EnumValue => (
                    &mut self.outcome.drift.enum_values,
                    "undocumented-enum-value",
                    "value",
                ),
            };
            *map.entry(DriftKey {
                operation: op.id.clone(),
                part,
                location: item.pattern.clone(),
                value: match item.kind {
                    drift::Kind::EnumValue if !self.options.show_values => None,
                    _ => Some(item.value.clone()),
                },
            })
            .or_default() += 1;
            if self.options.strict {
                let shown = match item.kind {
                    drift::Kind::Property => format!(" `{}`", item.value),
                    drift::Kind::EnumValue if self.options.show_values => {
                        format!(" `{}`", item.value)
                    }
                    // Masked: the place is in the pointer, the value stays out.
                    drift::Kind::EnumValue => String::new(),
                };
                let mut finding = self.site.finding(
                    part,
                    item.pointer,
                    format!("{schema}#{}", item.schema_pointer),
                    rule,
                    format!("{what}{shown} is not documented in the spec"),
                );
                finding.severity = Severity::Warning;
                self.outcome.findings.push(finding);
            }
        }
    }
}

/// A parameter's or credential's text in a request.
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
