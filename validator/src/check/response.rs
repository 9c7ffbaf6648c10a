//! The checks of a response or reply: its status documented, its body, its `http_code`, and a
//! receiver's rejection of a notification that keeps the contract.

use serde_json::Value;

use super::{Checker, Parsed, parse_body};
use crate::contract::{Contract, OperationSpec, ResponseSpec};
use crate::coverage::key as coverage;
use crate::exchange::Response;
use crate::exchange::{header_lines, is_json, media_fits, media_type, status_has_no_body};
use crate::finding::{Part, Severity};
use crate::report::DriftKey;
use crate::rule::Rule;

impl Checker<'_> {
    /// A notification that keeps the contract must be accepted: a 4XX (the receiver's "your
    /// request is wrong"), documented or not, is for a payload that breaks it. 5XX answers
    /// stay allowed: they ask for a retry, which the webhook's rules provide for.
    pub(super) fn rejection(&mut self, hook: &OperationSpec, reply: &Response) {
        if !(400..500).contains(&reply.status) {
            return;
        }
        let documented = hook.response(reply.status);
        let success: Vec<&str> = hook
            .responses
            .iter()
            .map(|r| r.key.as_str())
            .filter(|key| key.starts_with('2'))
            .collect();
        self.push(
            Part::Reply,
            "",
            match documented {
                Some(spec) => format!(
                    "manifest.json#/webhooks ({} responses {})",
                    hook.id, spec.key
                ),
                None => format!("manifest.json#/webhooks ({} responses)", hook.id),
            },
            Rule::ReplyRejectsValid,
            format!(
                "the notification keeps the contract, but the receiver answered {} (a rejection{}); it must answer {}",
                reply.status,
                if documented.is_some() {
                    ""
                } else {
                    ", and not a status the webhook documents"
                },
                if success.is_empty() {
                    "with a success status".to_string()
                } else {
                    success.join(" or ")
                }
            ),
        );
    }

    /// Counts a status `op` does not document, for the drift summary.
    pub(super) fn status_drift(&mut self, op: &OperationSpec, status: u16, part: Part) {
        *self
            .outcome
            .drift
            .statuses
            .entry(DriftKey {
                operation: op.id.clone(),
                part,
                location: "status".into(),
                value: Some(status.to_string()),
            })
            .or_default() += 1;
    }

    pub(super) fn response(&mut self, op: &OperationSpec, response: &Response, part: Part) {
        let section = part.manifest_section();
        let Some(spec) = op.response(response.status) else {
            let documented: Vec<&str> = op.responses.iter().map(|r| r.key.as_str()).collect();
            self.push(
                part,
                "",
                format!("manifest.json#/{section} ({} responses)", op.id),
                Rule::StatusDocumented,
                format!(
                    "status {} is not documented for {} (documented: {})",
                    response.status,
                    op.id,
                    documented.join(", ")
                ),
            );
            self.status_drift(op, response.status, part);
            return;
        };
        let location = || {
            format!(
                "manifest.json#/{section} ({} responses {})",
                op.id, spec.key
            )
        };
        self.cover(|| coverage::Key::status(op, &spec.key));
        self.response_headers(op, spec, response, part);
        if self.head {
            return;
        }
        let body_spec = spec.body.in_media(|| response.content_type());
        if body_spec.content_type.is_none()
            && !status_has_no_body(response.status)
            && matches!(
                parse_body(response.body.as_ref()),
                Parsed::Json(_) | Parsed::NotJson(_)
            )
        {
            self.undocumented_body(op, &spec.key, response, part);
        }
        // A body in a media type the contract has no schema for: only its absence is judged,
        // below.
        if body_spec.sent_in_another_media(|| response.content_type())
            && !matches!(parse_body(response.body.as_ref()), Parsed::None)
        {
            return;
        }
        // A body documented in a media type that is not JSON (text, XML, binary), or sent as
        // one within a documented range (`text/plain` under `*/*`), is not read as JSON, even
        // when it parses as JSON: its media type is checked, and a text's words.
        let read_as_json = match body_spec.content_type.as_deref() {
            None => true,
            // Read as JSON when sent as JSON within the range (`*/*`, `application/*`); JSON
            // outside it (where `image/*` is documented) is the wrong media type, not a wrong
            // image.
            // A file's bytes (`format: binary`) are not, even where the file is JSON.
            Some(range) if range.contains('*') => {
                !body_spec.bytes
                    && response
                        .content_type()
                        .is_none_or(|sent| is_json(&sent) && media_fits(&media_type(range), &sent))
            }
            // The essence: `application/json; charset=utf-8` and `application/json;
            // version=2.4.13` are JSON (a key with parameters had left every body unread).
            Some(media) => is_json(&media_type(media)),
        };
        if !read_as_json
            && body_spec.schema.is_some()
            && matches!(
                parse_body(response.body.as_ref()),
                Parsed::Json(_) | Parsed::NotJson(_)
            )
        {
            self.content_type(&body_spec, response.content_type(), part, &location);
            let sent_as = response.header("content-type");
            self.text_content(&body_spec, response.body.as_ref(), sent_as, part);
            return;
        }
        if let Some(doc) = self.conforming(body_spec.schema.as_deref(), response.body.as_ref()) {
            self.content_type(&body_spec, response.content_type(), part, &location);
            let code = doc.get("http_code").map(|code| code.value());
            self.http_code(code.as_ref(), response.status, part, &location);
            return;
        }
        match parse_body(response.body.as_ref()) {
            // Zero bytes with a Content-Type, where a binary or text body is documented: an
            // empty file or text, a body, as on the request side (an empty upload); not an
            // XML document, which has one root element.
            Parsed::None
                if !read_as_json
                    && response
                        .content_type()
                        .is_some_and(|sent| !specgen::manifest::is_xml(&media_type(&sent))) =>
            {
                self.content_type(&body_spec, response.content_type(), part, &location);
            }
            Parsed::None => {
                // A status that cannot carry content (204, 304; RFC 9110) is not asked for
                // the body of the response it falls to, `default` say.
                if body_spec.required && !status_has_no_body(response.status) {
                    self.push(
                        part,
                        "",
                        location(),
                        Rule::Required,
                        format!(
                            "status {} documents a body, but the response has none (no body, or an empty one)",
                            response.status
                        ),
                    );
                }
            }
            Parsed::Unrecorded(size) => {
                if body_spec.schema.is_some() {
                    self.content_type(&body_spec, response.content_type(), part, &location);
                    self.unrecorded(size, part, location());
                }
            }
            Parsed::NotJson(mut error) => {
                let body = response.body.as_ref();
                if let Some(why) = crate::content_coding::undecoded(body, &response.headers) {
                    error = format!("{error} ({why})");
                }
                // Only a documented JSON body has to be JSON; a status whose body the spec
                // does not show (a 503 page, say) may carry anything, and so may one within a
                // documented range (`*/*`) sent without its media type.
                let documented_json = body_spec
                    .content_type
                    .as_deref()
                    .is_none_or(|media| is_json(&media_type(media)));
                if body_spec.schema.is_some() && documented_json {
                    // An HTML error page or plain text where JSON is documented: its media
                    // type says what came, as a request body's does.
                    self.not_json(&body_spec, response.content_type(), part, &location, &error);
                }
            }
            Parsed::Json(value) => {
                if body_spec.schema.is_some() {
                    self.content_type(&body_spec, response.content_type(), part, &location);
                }
                let value = match &body_spec.schema {
                    Some(schema) => self.json_in_string(schema, response.body.as_ref(), value),
                    None => value,
                };
                if let Some(schema) = &body_spec.schema {
                    self.schema(schema, &value, part);
                    self.drift(op, schema, &value, part);
                    if self.coverage {
                        let message = coverage::message(part, Some(&spec.key));
                        self.cover_body(op, schema, &value, &message);
                    }
                }
                self.http_code(value.get("http_code"), response.status, part, &location);
            }
        }
    }

    /// Error bodies carry their own status: it must be the HTTP status. As a number: `401.0`
    /// is the integer 401 to JSON Schema, so it equals a 401 here too.
    fn http_code(
        &mut self,
        code: Option<&Value>,
        status: u16,
        part: Part,
        location: &dyn Fn() -> String,
    ) {
        // A code that is no number is the schema's `type` finding; "is "401", but the status
        // is 401" would contradict itself on its face.
        if let Some(code) = code
            && code.is_number()
            && code.as_f64() != Some(f64::from(status))
        {
            self.push(
                part,
                "/http_code",
                location(),
                Rule::HttpCode,
                format!("http_code is {code}, but the HTTP status is {status}"),
            );
        }
    }
}

impl Checker<'_> {
    /// A body under a status that documents none (Swagger 2.0's `422` without a `schema`,
    /// a response without `content`): drift, and a warning in strict mode. Not an error:
    /// documents mostly leave such bodies undescribed rather than absent (an error page, a
    /// vendor's error JSON), and other validators pass them.
    fn undocumented_body(
        &mut self,
        op: &OperationSpec,
        key: &str,
        response: &Response,
        part: Part,
    ) {
        let media = response
            .content_type()
            .unwrap_or_else(|| "no Content-Type".to_string());
        *self
            .outcome
            .drift
            .bodies
            .entry(DriftKey {
                operation: op.id.clone(),
                part,
                location: key.to_string(),
                value: Some(media.clone()),
            })
            .or_default() += 1;
        if self.options.strict {
            let mut finding = self.site.finding(
                part,
                "",
                format!(
                    "manifest.json#/{} ({} responses {key})",
                    part.manifest_section(),
                    op.id
                ),
                Rule::UndocumentedBody,
                format!(
                    "status {} documents no body, but one came ({media})",
                    response.status
                ),
            );
            finding.severity = Severity::Warning;
            self.outcome.findings.push(finding);
        }
    }

    /// The headers a response documents: present when required, and each value by its schema.
    fn response_headers(
        &mut self,
        op: &OperationSpec,
        spec: &ResponseSpec,
        response: &Response,
        part: Part,
    ) {
        for header in &spec.headers {
            let location = || {
                format!(
                    "manifest.json#/{} ({} responses {} header {})",
                    part.manifest_section(),
                    op.id,
                    spec.key,
                    header.name
                )
            };
            let pointer = || format!("header:{}", header.name.to_ascii_lowercase());
            let Some(text) = response.header(&header.name) else {
                if header.required {
                    let message = format!("the response has no {} header", header.name);
                    self.push(part, pointer(), location(), Rule::Required, message);
                }
                continue;
            };
            let violations = match header.items {
                Some(_) => {
                    // A list may come on several lines, each a part of it.
                    let lines: Vec<&str> = header_lines(&response.headers, &header.name).collect();
                    let items = header.list_form.items(&lines);
                    Contract::check_parameter_items(header, &items, self.options.show_values)
                }
                None => Contract::check_parameter(header, text, self.options.show_values),
            };
            for violation in violations {
                self.push(
                    part,
                    pointer(),
                    location(),
                    violation.rule,
                    violation.message,
                );
            }
        }
    }
}
