//! The checks of a body: presence, content type, schema, and what it holds that the spec does
//! not document.

use std::borrow::Cow;

use serde_json::Value;

use super::{Checker, Parsed, parse_body};
use crate::contract::{BodySpec, OperationSpec};
use crate::coverage::key as coverage;
use crate::drift;
use crate::exchange::{Body, Request, media_type as essence};
use crate::exchange::{is_json, media_fits};
use crate::finding::{Part, Severity};
use crate::multipart;
use crate::read::Unholdable;
use crate::report::DriftKey;
use crate::rule::Rule;

/// How a body made of named fields is written.
#[derive(Debug, Clone, Copy)]
enum Fields {
    /// `application/x-www-form-urlencoded`.
    Form,
    /// `multipart/form-data`.
    Multipart,
}

impl Fields {
    fn media_type(self) -> &'static str {
        match self {
            Fields::Form => specgen::form::MEDIA_TYPE,
            Fields::Multipart => multipart::FORM_DATA,
        }
    }
}

impl Checker<'_> {
    pub(super) fn request_body(&mut self, op: &OperationSpec, request: &Request) {
        match &op.request_body {
            Some(spec) => self.body(op, spec, request, Part::Request),
            None => {
                // A body of unknown size the recording does not hold (Charles writes an empty
                // `postData` for every POST) says nothing of whether one was sent.
                if !matches!(
                    parse_body(request.body.as_ref()),
                    Parsed::None | Parsed::Unrecorded(0)
                ) {
                    self.push(
                        Part::Request,
                        "",
                        format!("manifest.json#/operations ({})", op.id),
                        Rule::BodyUnexpected,
                        format!("{} takes no request body, but one was sent", op.id),
                    );
                }
            }
        }
    }

    /// Content type, presence and schema of a request body or notification payload.
    pub(super) fn body(
        &mut self,
        op: &OperationSpec,
        spec: &BodySpec,
        request: &Request,
        part: Part,
    ) {
        let content_type = request.content_type();
        let spec = &*spec.in_media(|| content_type.clone());
        let body = request.body.as_ref();
        let location = || {
            format!(
                "manifest.json#/{} ({} requestBody)",
                part.manifest_section(),
                op.id
            )
        };
        // A body in a media type the contract has no schema for: only its absence is judged,
        // below. A form or multipart body documented with the schema of the body's main media
        // type (beside JSON, as Django REST framework writes every body) is read by it.
        if spec.sent_in_another_media(|| content_type.clone())
            && !matches!(parse_body(body), Parsed::None)
        {
            // Or one documented with a schema of its own (an upload as metadata in JSON, or as
            // parts with the file), by that schema.
            let sent = content_type.as_deref();
            let fields = match sent {
                Some(specgen::form::MEDIA_TYPE) => Some(Fields::Form),
                Some(multipart::FORM_DATA) => Some(Fields::Multipart),
                _ => None,
            };
            if let (Some(fields), Some(sent)) = (fields, sent) {
                if spec.same_schema_content_types.iter().any(|m| m == sent) {
                    self.fields_body(op, spec, request, part, fields, spec.schema.as_deref());
                } else if let Some((_, own)) = spec.field_schemas.iter().find(|(m, _)| m == sent) {
                    self.fields_body(op, spec, request, part, fields, Some(own));
                }
            }
            return;
        }
        let media = spec.content_type.as_deref().map(essence);
        match media.as_deref() {
            None => {}
            Some(media) if is_json(media) => {}
            // Sent as JSON within a documented range (`*/*`, `application/*`: Kubernetes' every
            // create and replace, Swagger 2.0 documents without `consumes`), or with no media
            // type: JSON, judged by the schema, as a response is. A file's bytes are not.
            Some(range)
                if range.contains('*')
                    && !spec.bytes
                    && content_type
                        .as_deref()
                        .is_none_or(|sent| is_json(sent) && media_fits(range, sent)) => {}
            Some(specgen::form::MEDIA_TYPE) => {
                let schema = spec.schema.as_deref();
                return self.fields_body(op, spec, request, part, Fields::Form, schema);
            }
            Some(multipart::FORM_DATA) => {
                let schema = spec.schema.as_deref();
                return self.fields_body(op, spec, request, part, Fields::Multipart, schema);
            }
            // Binary, text and XML bodies: their presence and media type are checked, and a
            // text body's words by its schema (see `text_content`); their contents are not
            // JSON.
            Some(_) => {
                // Zero bytes sent with a Content-Type are an empty upload (an empty file), a
                // body the generated server takes; without one, no body.
                // An empty XML document is none at all: XML has one root element.
                let xml = media.as_deref().is_some_and(specgen::manifest::is_xml);
                if matches!(parse_body(body), Parsed::None) && content_type.is_some() && !xml {
                    self.content_type(spec, content_type, part, &location);
                    // An empty text is a text all the same, which its schema judges
                    // (`minLength: 1`), as the generated server does.
                    let empty = Body::Text(String::new());
                    self.text_content(spec, Some(&empty), None, part);
                } else if matches!(parse_body(body), Parsed::None) {
                    if spec.required {
                        self.push(part, "", location(), Rule::Required, "the body is required");
                    }
                } else {
                    self.content_type(spec, content_type, part, &location);
                    let sent_as = request.header("content-type");
                    self.text_content(spec, body, sent_as, part);
                }
                return;
            }
        }
        if self.conforming(spec.schema.as_deref(), body).is_some() {
            self.content_type(spec, content_type, part, &location);
            return;
        }
        match parse_body(body) {
            Parsed::None => {
                if spec.required {
                    self.push(part, "", location(), Rule::Required, "the body is required");
                }
            }
            Parsed::Unrecorded(size) => {
                self.content_type(spec, content_type, part, &location);
                if spec.schema.is_some() {
                    self.unrecorded(size, part, location());
                }
            }
            Parsed::NotJson(mut error) => {
                if let Some(why) = crate::content_coding::undecoded(body, &request.headers) {
                    error = format!("{error} ({why})");
                }
                self.not_json(spec, content_type, part, &location, &error);
            }
            Parsed::Json(value) => {
                self.content_type(spec, content_type, part, &location);
                if let Some(schema) = &spec.schema {
                    let value = self.json_in_string(schema, body, value);
                    self.schema(schema, &value, part);
                    self.drift(op, schema, &value, part);
                    if self.coverage {
                        self.cover_body(op, schema, &value, &coverage::message(part, None));
                    }
                }
            }
        }
    }

    /// A body made of named fields, a form or a `multipart/form-data` body: its fields as the
    /// JSON object `schema` (a contract file) checks (see [`specgen::form`]).
    fn fields_body(
        &mut self,
        op: &OperationSpec,
        spec: &BodySpec,
        request: &Request,
        part: Part,
        written_as: Fields,
        schema: Option<&str>,
    ) {
        let location = || {
            format!(
                "manifest.json#/{} ({} requestBody)",
                part.manifest_section(),
                op.id
            )
        };
        let content_type = request.content_type();
        let bytes: &[u8] = match &request.body {
            None => &[],
            Some(Body::Text(text)) => text.as_bytes(),
            Some(Body::Binary(bytes)) => bytes,
            // A reader that found JSON where fields were documented: the JSON is what was sent.
            Some(Body::Json(_)) => {
                self.content_type(spec, content_type, part, &location);
                return;
            }
            Some(Body::Unrecorded(size)) => {
                self.content_type(spec, content_type, part, &location);
                if schema.is_some() {
                    self.unrecorded(*size, part, location());
                }
                return;
            }
        };
        // Zero bytes sent as a form are a form of no fields (`{}`, as the generated client
        // sends an empty object), which the schema judges; without the form's Content-Type,
        // no body.
        let empty_form = matches!(written_as, Fields::Form)
            && content_type.as_deref() == Some(written_as.media_type());
        if bytes.iter().all(u8::is_ascii_whitespace) && !empty_form {
            if spec.required {
                self.push(part, "", location(), Rule::Required, "the body is required");
            }
            return;
        }
        let bytes = match bytes.iter().all(u8::is_ascii_whitespace) {
            true => &[][..],
            false => bytes,
        };
        // A body sent as another media type does not hold the fields to check.
        let sent_as_documented = content_type
            .as_deref()
            .is_none_or(|media| media == written_as.media_type());
        self.content_type(spec, content_type, part, &location);
        let Some(schema) = schema.filter(|_| sent_as_documented) else {
            return;
        };
        let Some(written) = self.contract.schema(schema) else {
            return;
        };
        // Bytes documented in a form's media type (an upload of `{type: string, format:
        // binary}`) are no fields: only their media type is judged, as the server does.
        if !specgen::form::holds_fields(written) {
            return;
        }
        let value = match written_as {
            Fields::Form => specgen::form::decode_encoded(bytes, written, &spec.form_encoding),
            Fields::Multipart => {
                let declared = multipart::declared_boundary([
                    request.header("content-type"),
                    request.mime_type.as_deref(),
                ]);
                let parts = match multipart::parts(bytes, declared) {
                    Ok(parts) => parts,
                    Err(why) => {
                        let message =
                            format!("the multipart body does not read as its parts: {why}");
                        return self.push(part, "", location(), Rule::Multipart, message);
                    }
                };
                let fields = parts.iter().map(|field| specgen::form::Part {
                    name: &field.name,
                    text: &field.text,
                    json: field.json,
                });
                specgen::form::decode_parts(fields, written)
            }
        };
        self.fields(op, schema, &value, part);
    }

    /// The schema, drift and coverage checks of a body's fields, read as a JSON object.
    fn fields(&mut self, op: &OperationSpec, schema: &str, value: &Value, part: Part) {
        self.schema(schema, value, part);
        self.drift(op, schema, value, part);
        if self.coverage {
            self.cover_body(op, schema, value, &coverage::message(part, None));
        }
    }

    /// A body documented as JSON that does not parse: its media type is judged, and it is
    /// `json` finding only when it was sent as JSON or with no media type. Text sent as
    /// `text/plain` or an HTML page is that one finding (`content-type`), not also a second
    /// that it does not parse as what it never claimed to be.
    pub(super) fn not_json(
        &mut self,
        spec: &BodySpec,
        sent: Option<String>,
        part: Part,
        location: &dyn Fn() -> String,
        error: &str,
    ) {
        let claims_json = sent.as_deref().is_none_or(|sent| is_json(&essence(sent)));
        self.content_type(spec, sent, part, location);
        if claims_json {
            // `1e400` is JSON whose number no double holds (RFC 8259 lets a reader refuse
            // it): said as such, not as text that is not JSON.
            let message = match crate::read::unholdable(error) {
                Some(Unholdable::NumberOutOfRange) => {
                    format!("the body holds a number beyond what a double can hold: {error}")
                }
                Some(Unholdable::LoneSurrogate) => {
                    format!(
                        "the body holds a lone UTF-16 surrogate escape (one half of a \\uD800-\\uDFFF \
                     pair without the other), which encodes no character (RFC 8259, 8.2){}",
                        error.find(" at line").map_or("", |at| &error[at..])
                    )
                }
                None => format!("the body is not JSON: {error}"),
            };
            self.push(part, "", location(), Rule::Json, message);
        }
    }

    pub(super) fn content_type(
        &mut self,
        spec: &BodySpec,
        actual: Option<String>,
        part: Part,
        location: &dyn Fn() -> String,
    ) {
        let Some(expected) = spec.content_type.as_deref() else {
            return;
        };
        let expected = essence(expected);
        let documented = || std::iter::once(&expected).chain(&spec.other_content_types);
        let fits = match actual.as_deref() {
            Some(actual) => documented().any(|media| media_fits(media, actual)),
            None => false,
        };
        if !fits {
            // Each type once: a document may list `application/json` with and without a
            // charset, the same essence.
            let mut listed: Vec<&String> = Vec::new();
            for media in documented() {
                if !listed.contains(&media) {
                    listed.push(media);
                }
            }
            let expected = listed
                .iter()
                .map(|media| media.as_str())
                .collect::<Vec<_>>()
                .join(" or ");
            self.push(
                part,
                "header:content-type",
                location(),
                Rule::ContentType,
                match actual.as_deref() {
                    // Two lines, or one listing two types: a message has one (RFC 9110, 8.3).
                    Some(several) if several.contains(',') => format!(
                        "Content-Type should be {expected}, not several media types \
                         ({several}): a message has one (RFC 9110, 8.3)"
                    ),
                    actual => format!(
                        "Content-Type should be {expected}, not {}",
                        actual.unwrap_or("absent")
                    ),
                },
            );
        }
    }

    /// A JSON Lines `body` written as a string that holds JSON text (`"body": "{\"id\": 1}"`,
    /// as hand-written records and logs often write it) is that JSON, when its schema refuses
    /// a string: read as a string it could only fail with `type`; and when its schema puts no
    /// type on the value at all (`properties` without `type: object`, which real documents
    /// often write): read as a string it would pass every rule unread. A schema that takes a
    /// string and not any value keeps it as one. Text as sent on the wire (a HAR's `text`,
    /// live traffic) is never unwrapped: a server that sends its JSON as a JSON string breaks
    /// the contract.
    pub(super) fn json_in_string<'v>(
        &self,
        schema: &str,
        recorded: Option<&Body>,
        value: Cow<'v, Value>,
    ) -> Cow<'v, Value> {
        let Some(parsed) = json_text_in_string(recorded) else {
            return value;
        };
        // A schema that takes `true` as well as the string types neither: only a type-less
        // schema takes both.
        if self.refuses_strings(schema, &value) || self.accepts(schema, &Value::Bool(true)) {
            Cow::Owned(parsed)
        } else {
            value
        }
    }

    /// Whether `schema` takes `value` whole.
    fn accepts(&self, schema: &str, value: &Value) -> bool {
        self.contract
            .check(schema, value, false)
            .is_ok_and(|violations| violations.is_empty())
    }

    /// A body documented as text (`text/plain`, `text/csv`: any `text/*`) is one string:
    /// checked as the JSON string it is against its schema (`maxLength`, `pattern`, `enum`),
    /// never read as JSON because it happens to look like JSON (`true`, `42`, `{}`). A text
    /// that the schema wants as a number or boolean (`type: integer` under `text/plain`) is
    /// taken as one when it reads as one. Bodies of other media types that are not JSON
    /// (XML, binary) are left to their media type.
    ///
    /// Bytes that are not UTF-8 are no text of it (the generated server refuses them), unless
    /// the message's `Content-Type` (`sent_as`, as written) names another charset.
    pub(super) fn text_content(
        &mut self,
        spec: &BodySpec,
        body: Option<&Body>,
        sent_as: Option<&str>,
        part: Part,
    ) {
        let (Some(media), Some(schema)) = (spec.content_type.as_deref(), &spec.schema) else {
            return;
        };
        if !specgen::manifest::is_judged_text(&essence(media)) {
            return;
        }
        let text = match body {
            Some(Body::Text(text)) => text.as_str(),
            Some(Body::Binary(bytes)) => match std::str::from_utf8(bytes) {
                Ok(text) => text,
                Err(_) if names_another_charset(sent_as) => return,
                Err(_) => {
                    let message = "the body is text that is not UTF-8, and its Content-Type \
                                   names no other charset";
                    self.push(part, "", schema.clone(), Rule::Type, message);
                    return;
                }
            },
            _ => return,
        };
        let as_text = Value::String(text.to_string());
        // The text is judged as a string unless its schema's type refuses strings; then as
        // the number or boolean it reads as, if it reads as one.
        let refuses_strings = self.refuses_strings(schema, &as_text);
        let scalar = serde_json::from_str::<Value>(text.trim())
            .ok()
            .filter(|value| value.is_number() || value.is_boolean());
        let instance = match scalar {
            Some(scalar) if refuses_strings => scalar,
            _ => as_text,
        };
        self.schema(schema, &instance, part);
    }

    /// Whether `schema`'s type refuses the string `text` at its root (a `type` there, or a
    /// union of alternatives that each do, as an `anyOf` of error objects): text recorded as
    /// a string is then read as what it holds.
    fn refuses_strings(&self, schema: &str, text: &Value) -> bool {
        self.contract.refuses_type(schema, text)
    }

    pub(super) fn schema(&mut self, schema: &str, value: &Value, part: Part) {
        match self.contract.check(schema, value, self.options.show_values) {
            Ok(violations) => {
                for violation in violations {
                    self.push(
                        part,
                        violation.pointer,
                        violation.schema_location,
                        violation.rule,
                        violation.message,
                    );
                }
            }
            Err(err) => self.push(
                part,
                "",
                schema.to_string(),
                Rule::Contract,
                err.to_string(),
            ),
        }
    }

    pub(super) fn drift(&mut self, op: &OperationSpec, schema: &str, value: &Value, part: Part) {
        if !self.drift {
            return;
        }
        let Some(plan) = self.contract.drift_plan(schema) else {
            return;
        };
        let way = match part {
            Part::Request | Part::Notification => drift::Way::Request,
            _ => drift::Way::Response,
        };
        for item in plan.undocumented_in(value, way) {
            // A member sent the wrong way is documented: no drift, a warning in strict mode.
            let one_way = match item.kind {
                drift::Kind::ReadOnly => {
                    Some((Rule::ReadOnly, "read-only: a request does not send it"))
                }
                drift::Kind::WriteOnly => {
                    Some((Rule::WriteOnly, "write-only: a response does not return it"))
                }
                _ => None,
            };
            if let Some((rule, why)) = one_way {
                if self.options.strict {
                    let mut finding = self.site.finding(
                        part,
                        item.pointer,
                        format!("{schema}#{}", item.schema_pointer),
                        rule,
                        format!("property `{}` is {why}", item.value),
                    );
                    finding.severity = Severity::Warning;
                    self.outcome.findings.push(finding);
                }
                continue;
            }
            let (map, rule, what) = match item.kind {
                drift::Kind::Property => (
                    &mut self.outcome.drift.properties,
                    Rule::UndocumentedProperty,
                    "property",
                ),
                drift::Kind::EnumValue => (
                    &mut self.outcome.drift.enum_values,
                    Rule::UndocumentedEnumValue,
                    "value",
                ),
                drift::Kind::ReadOnly | drift::Kind::WriteOnly => continue,
            };
            // A value a closed list refuses is already an `enum` error at that place (a
            // `const` one where the answer fixes the value: `ACTIVE` after creation), a
            // member a closed object refuses an `additionalProperties` error at its object,
            // and either inside a union that failed part of the union's error: the warning
            // would report the one thing twice.
            let refused = self.outcome.findings.iter().any(|finding| {
                let at = finding.pointer.as_str();
                let within = item.pointer == at
                    || item
                        .pointer
                        .strip_prefix(at)
                        .is_some_and(|rest| rest.starts_with('/'));
                let parent = item
                    .pointer
                    .rsplit_once('/')
                    .is_some_and(|(parent, _)| parent == at);
                finding.part == part
                    && finding.severity == Severity::Error
                    && match (&finding.rule, item.kind) {
                        (Rule::Enum | Rule::Const, drift::Kind::EnumValue) => item.pointer == at,
                        (
                            Rule::AdditionalProperties | Rule::UnevaluatedProperties,
                            drift::Kind::Property,
                        ) => parent,
                        (Rule::OneOf | Rule::AnyOf, _) => within,
                        _ => false,
                    }
            });
            // Nor is it drift: the summary lists what the spec leaves open and the traffic
            // used, not what the spec refuses and the error already says (two readers of its
            // reports took a refused value listed there for one the spec merely omits).
            if refused {
                continue;
            }
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
                    _ => String::new(),
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

/// Whether a `Content-Type` as written names a charset other than UTF-8
/// (`text/plain; charset=iso-8859-1`).
fn names_another_charset(content_type: Option<&str>) -> bool {
    content_type
        .into_iter()
        .flat_map(|value| value.split(';').skip(1))
        .filter_map(|parameter| parameter.split_once('='))
        .any(|(name, value)| {
            name.trim().eq_ignore_ascii_case("charset")
                && !matches!(
                    value.trim().trim_matches('"').to_ascii_lowercase().as_str(),
                    "utf-8" | "utf8"
                )
        })
}

/// The JSON a JSON Lines `body` written as a string holds (`"body": "{\"id\": 1}"`): the
/// object or array its text is, if it is one. Whether the body is read as that is its
/// schema's to say ([`Checker::json_in_string`]).
pub(super) fn json_text_in_string(recorded: Option<&Body>) -> Option<Value> {
    let Some(Body::Json(Value::String(text))) = recorded else {
        return None;
    };
    let trimmed = text.trim_start();
    if !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
        return None;
    }
    serde_json::from_str(text).ok()
}
