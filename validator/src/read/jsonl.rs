//! JSON Lines reader: one exchange per line.
//!
//! Each line is one JSON object:
//!
//! ```json
//! {"id": "optional string", "kind": "operation" | "notification" (optional),
//!  "request": {"method": "POST", "url": "https://host/v1/banking/accounts?x=1" OR "path": "/v1/banking/accounts", "query": {"k": "v"} or [["k","v"]] (optional), "headers": {"Name": "value"} or [["Name","value"]] or [{"name":..,"value":..}], "body": <any JSON value> | "bodyText": "raw text" | "bodyBase64": "..."},
//!  "response": {"status": 201, "headers": {...}, "body": <JSON> | "bodyText": "..." | "bodyBase64": "..."} (optional)}
//! ```
//!
//! - A record must fit on one line. Blank lines are skipped (they still count for line
//!   numbers). Unknown fields are ignored. Other tools' names are read too: `req` and `res`
//!   for `request` and `response`, `uri` for `url`, `statusCode` and `status_code` for
//!   `status`, `body_text` and `body_base64` for `bodyText` and `bodyBase64`.
//! - A line longer than [`Limits::max_entry`] (64 MiB by default) ends reading with a
//!   `TooLarge`: what comes after a line of unknown end cannot be trusted to
//!   ever come (`/dev/zero`), and the line is never held whole.
//! - `id`: a string (a number is taken as its text).
//! - `kind`: says whether the exchange is a call of the API (`operation`; also `request`,
//!   `call`) or a notification it sent (`notification`; also `webhook`, `callback`, `event`);
//!   without it, a record whose method and path match a webhook path is a notification.
//! - `request.method` is required (it is uppercased). One of `url` (an absolute URL, or a
//!   path) and `path` is required; either may carry a `?query`. Both may be given when they
//!   name the same path.
//! - `query`: the query parameters, already decoded. Without it, the query string of
//!   `url`/`path` is percent-decoded (`+` is a space).
//! - Header and query values are strings; a number or boolean is taken as its text. In the
//!   object form, a list of values repeats the name, in order.
//! - At most one of `body`, `bodyText`, `bodyBase64`. `body` is the body as a JSON value
//!   (kept as parsed, not re-read; `null` and `""`, which loggers write for an empty body,
//!   are no body; `"bodyText": "\"\""` is the JSON text `""`), except that a string `body` of a
//!   message whose Content-Type is not JSON is its raw text (a form, plain text, XML), and an
//!   object `body` of a form (`application/x-www-form-urlencoded`, `multipart/form-data`)
//!   lists its fields (a list is the field repeated);
//!   `bodyText` is the body as raw text (the
//!   checker parses it when the content type is JSON); `bodyBase64` is decoded, and is text
//!   when the bytes are UTF-8. An empty `bodyText`/`bodyBase64` is no body.
//! - `response` is optional; when given, `status` is required. Status `0` means no response.
//! - A message without `headers` (or with `null`) did not record them: its `body` written as
//!   a JSON value is then taken as sent with `Content-Type: application/json` (the record's
//!   own statement, as a HAR's `mimeType` is). `"headers": {}` records that there were none.
//!
//! A line that cannot be read becomes a [`Malformed`](crate::exchange::Malformed) with its
//! 1-based line number, and reading goes on with the next line:
//! `line 7: request.method is missing`, `line 3, column 18: expected value`,
//! `line 5: not valid UTF-8 (byte 0xFF at column 12)`, `line 9, column 131: nesting too deep
//! (more than 128 levels)`, `line 4: the record is cut off: the line ends at column 120
//! before its JSON does (EOF while parsing a string)`. Indexes count records (not blank lines), malformed ones
//! included. An I/O error after the first line ends the file with one `Malformed`.
//!
//! Reading has two steps: `jsonl/chunks.rs` cuts the input into chunks of whole lines without
//! parsing them (`split`), and each line is then parsed into an entry here (`parse`), on
//! the reading thread or, in a run, on many.

mod chunks;

use std::io::{self, BufRead};

use serde::Deserialize;

use super::{
    Context, Field, Id, Limits, Pairs, Shape, Status, Target, bare_message, object_shape,
    parse_query, split_target, text_body,
};
use crate::exchange::{Body, Entry, Exchange, ExchangeKind, Request, Response, is_json};

pub(crate) use chunks::{Chunk, ChunkSizes, LineAt, Split, split};

/// Reads a JSON Lines file; see the [module documentation](self) and [`super::read`].
pub fn read(
    source_name: &str,
    reader: impl BufRead,
    webhook_paths: &[(String, String)],
    limits: Limits,
    sink: &mut dyn FnMut(Entry),
) -> io::Result<()> {
    let context = Context {
        source: source_name,
        webhook_paths,
    };
    let sizes = ChunkSizes {
        lines: 1024,
        bytes: 1 << 20,
    };
    split(source_name, reader, limits, sizes, &mut |item| match item {
        Split::Lines(chunk) => {
            for at in &chunk.lines {
                sink(record(chunk.line(at), at.index, at.line, &context));
            }
        }
        Split::Entry(entry) => sink(*entry),
    })
}

/// Parses a line of a [`Chunk`].
pub(crate) fn parse(
    source_name: &str,
    webhook_paths: &[(String, String)],
    chunk: &Chunk,
    at: &LineAt,
) -> Entry {
    let context = Context {
        source: source_name,
        webhook_paths,
    };
    record(chunk.line(at), at.index, at.line, &context)
}

/// One non-blank line (or one record of a [`records`](super::records) document, which may
/// span several).
pub(super) fn record(bytes: &[u8], index: usize, line: usize, context: &Context<'_>) -> Entry {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => {
            let at = err.valid_up_to();
            let message = format!(
                "line {line}: not valid UTF-8 (byte 0x{:02X} at column {})",
                bytes[at],
                at + 1
            );
            return context.malformed(index, Some(line), message);
        }
    };
    // Without its line break, a record cut off is told as one (serde_json would otherwise
    // find the break inside the unfinished string: "control character", column 0 of the
    // next line).
    let text = text.trim_end_matches(['\n', '\r']);
    let raw = match serde_json::from_str::<Field<RawRecord>>(text) {
        Ok(raw) => raw,
        Err(err) if err.is_eof() => {
            let message = format!(
                "line {line}: the record is cut off: the line ends at column {} before its \
                 JSON does ({})",
                err.column(),
                bare_message(&err)
            );
            return context.malformed(index, Some(line), message);
        }
        Err(err) => {
            let message = format!(
                "line {}, column {}: {}",
                line + err.line().saturating_sub(1),
                err.column(),
                bare_message(&err)
            );
            return context.malformed(index, Some(line), message);
        }
    };
    let mut problems = Vec::new();
    let exchange = raw
        .required("the record", &mut problems)
        .and_then(|raw| exchange(raw, index, context, &mut problems));
    match exchange {
        Some(exchange) if problems.is_empty() => Ok(Exchange {
            line: Some(line),
            ..exchange
        }),
        _ => context.malformed(
            index,
            Some(line),
            format!("line {line}: {}", problems.join("; ")),
        ),
    }
}

#[derive(Deserialize)]
struct RawRecord {
    #[serde(default)]
    id: Field<Id>,
    #[serde(default)]
    kind: Field<Kind>,
    #[serde(default, alias = "req")]
    request: Field<RawRequest>,
    #[serde(default, alias = "res")]
    response: Field<RawResponse>,
    /// Why there is no response (`specval proxy` writes it); anything but a string is
    /// another tool's and says nothing.
    #[serde(default)]
    error: Option<serde_json::Value>,
    /// A request's member written at the record's top level (`{"method": …, "url": …}`, as a
    /// flat log line is): no request, but worth naming in the finding.
    #[serde(default)]
    method: Option<serde::de::IgnoredAny>,
    #[serde(default, alias = "uri")]
    url: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    path: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
struct RawRequest {
    #[serde(default)]
    method: Field<String>,
    #[serde(default, alias = "uri")]
    url: Field<String>,
    #[serde(default)]
    path: Field<String>,
    #[serde(default)]
    query: Field<Pairs>,
    #[serde(default)]
    headers: Field<Pairs>,
    #[serde(default)]
    body: RecordedBody,
    #[serde(default, rename = "bodyText", alias = "body_text")]
    body_text: Field<String>,
    #[serde(default, rename = "bodyBase64", alias = "body_base64")]
    body_base64: Field<String>,
}

#[derive(Deserialize)]
struct RawResponse {
    #[serde(default, alias = "statusCode", alias = "status_code")]
    status: Field<Status>,
    #[serde(default)]
    headers: Field<Pairs>,
    #[serde(default)]
    body: RecordedBody,
    #[serde(default, rename = "bodyText", alias = "body_text")]
    body_text: Field<String>,
    #[serde(default, rename = "bodyBase64", alias = "body_base64")]
    body_base64: Field<String>,
}

object_shape!(RawRecord, RawRequest, RawResponse);

/// A record's `body`: a JSON value, or the JSON text of one that serde_json cannot hold as a
/// `Value` (a number beyond a double, `1e400`; a surrogate escape without its pair), which the
/// body check then reads as it reads a HAR's text: the record is judged whole, with the same
/// findings in either format, rather than lost as malformed for one value of its body.
#[derive(Default)]
enum RecordedBody {
    #[default]
    Missing,
    Value(Field<serde_json::Value>),
    Unreadable(String),
}

impl<'de> Deserialize<'de> for RecordedBody {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = <&serde_json::value::RawValue>::deserialize(deserializer)?;
        match serde_json::from_str::<Field<serde_json::Value>>(raw.get()) {
            Ok(value) => Ok(RecordedBody::Value(value)),
            Err(err) if super::unholdable(&err.to_string()).is_some() => {
                Ok(RecordedBody::Unreadable(raw.get().to_owned()))
            }
            // Nesting beyond the limit ends the record, as it would without the detour.
            Err(err) => Err(serde::de::Error::custom(super::bare_message(&err))),
        }
    }
}

impl RecordedBody {
    fn is_present(&self) -> bool {
        match self {
            RecordedBody::Missing => false,
            RecordedBody::Value(value) => value.is_present(),
            RecordedBody::Unreadable(_) => true,
        }
    }
}

/// `"operation"` or `"notification"`.
pub(super) struct Kind(pub(super) ExchangeKind);

impl Shape for Kind {
    const EXPECTED: &'static str = "\"operation\" or \"notification\"";

    fn from_str(value: &str) -> Result<Self, String> {
        let is = |names: &[&str]| names.iter().any(|name| value.eq_ignore_ascii_case(name));
        // Other tools' words for the same two kinds: an API call, and what the API sends.
        if is(&["operation", "request", "call"]) {
            Ok(Kind(ExchangeKind::Operation))
        } else if is(&["notification", "webhook", "callback", "event"]) {
            Ok(Kind(ExchangeKind::Notification))
        } else {
            Err(super::wrong(&super::describe_string(value), Self::EXPECTED))
        }
    }
}

fn exchange(
    raw: RawRecord,
    index: usize,
    context: &Context<'_>,
    problems: &mut Vec<String>,
) -> Option<Exchange> {
    let id = raw.id.optional("id", problems).map(|Id(id)| id);
    let kind = raw.kind.optional("kind", problems).map(|Kind(kind)| kind);
    let flat = raw.method.is_some() || raw.url.is_some() || raw.path.is_some();
    let request = match raw.request {
        // A flat record: say where its members belong rather than only that one is missing.
        Field::Missing if flat => {
            problems.push(
                "request is missing: this record holds `method`, `url` or `path` at its top \
                 level, where a record nests them as `{\"request\": {\"method\": …, \"url\": …}, \
                 \"response\": {\"status\": …}}`"
                    .to_string(),
            );
            None
        }
        field => field.required("request", problems),
    }
    .and_then(|request| self::request(request, problems));
    let response = raw
        .response
        .optional("response", problems)
        .and_then(|response| self::response(response, problems));
    let request = request?;
    let kind = kind.unwrap_or_else(|| context.kind(&request.method, &request.path));
    Some(Exchange {
        index,
        line: None,
        id,
        source: context.source.to_owned(),
        kind: Some(kind),
        request,
        failure: match raw.error {
            Some(serde_json::Value::String(reason)) if response.is_none() => Some(reason),
            _ => None,
        },
        response,
    })
}

fn request(raw: RawRequest, problems: &mut Vec<String>) -> Option<Request> {
    let method = raw
        .method
        .required("request.method", problems)
        .and_then(|method| super::method(method, "request.method", problems));
    let target = match (raw.url.is_present(), raw.path.is_present()) {
        // Both, as hand-written records sometimes give: one target when they agree.
        (true, true) => {
            let url = target(raw.url, "request.url", problems);
            let path = target(raw.path, "request.path", problems);
            match (url, path) {
                (Some(url), Some(path)) if url.path == path.path => {
                    let authority = url.authority.clone().or_else(|| path.authority.clone());
                    let userinfo = url.userinfo.clone().or_else(|| path.userinfo.clone());
                    let chosen = if path.query.is_some() { path } else { url };
                    Some(Target {
                        authority,
                        userinfo,
                        ..chosen
                    })
                }
                (Some(_), Some(_)) => {
                    problems.push(
                        "request has both url and path, and they name different paths".into(),
                    );
                    None
                }
                _ => None,
            }
        }
        (false, true) => target(raw.path, "request.path", problems),
        _ => target(raw.url, "request.url", problems),
    };
    let query = raw.query.optional("request.query", problems);
    let mime_type = unrecorded_headers_media(&raw.headers, &raw.body);
    let headers = raw.headers.optional("request.headers", problems);
    let body = body(
        raw.body,
        raw.body_text,
        raw.body_base64,
        &REQUEST_BODY,
        problems,
    );
    let Target {
        path,
        query: raw_query,
        authority,
        userinfo,
    } = target?;
    let query = match query {
        Some(Pairs(pairs)) => pairs,
        None => raw_query
            .map(|query| parse_query(&query))
            .unwrap_or_default(),
    };
    let mut headers = headers.map(|Pairs(pairs)| pairs).unwrap_or_default();
    let userinfo = super::http::authorize_userinfo(&mut headers, userinfo.as_deref());
    let mut request = Request {
        method: method?,
        path,
        query,
        headers,
        body,
        mime_type,
        authority,
        userinfo,
    };
    let declared = request.header("content-type").map(str::to_owned);
    let sent = crate::content_coding::decoded(request.body.take(), &request.headers);
    request.body = body_as_sent(sent, request.content_type(), declared.as_deref());
    Some(request)
}

/// The path, raw query, authority and user information of `url` or `path`.
fn target(field: Field<String>, name: &str, problems: &mut Vec<String>) -> Option<Target> {
    let target = match field {
        Field::Missing => {
            problems.push("request.url (or request.path) is missing".into());
            return None;
        }
        field => field.required(name, problems)?,
    };
    match split_target(&target) {
        Ok(target) => Some(target),
        Err(what) => {
            problems.push(format!("{name}{what}"));
            None
        }
    }
}

fn response(raw: RawResponse, problems: &mut Vec<String>) -> Option<Response> {
    let status = raw.status.required("response.status", problems);
    let mime_type = unrecorded_headers_media(&raw.headers, &raw.body);
    let headers = raw.headers.optional("response.headers", problems);
    let body = body(
        raw.body,
        raw.body_text,
        raw.body_base64,
        &RESPONSE_BODY,
        problems,
    );
    match status? {
        Status(0) => None,
        Status(status) => {
            let mut response = Response {
                status,
                headers: headers.map(|Pairs(pairs)| pairs).unwrap_or_default(),
                body,
                mime_type,
            };
            let declared = response.header("content-type").map(str::to_owned);
            let sent = crate::content_coding::decoded(response.body.take(), &response.headers);
            response.body = body_as_sent(sent, response.content_type(), declared.as_deref());
            Some(response)
        }
    }
}

/// The media type a record states without headers: a message that leaves `headers` out (or
/// gives `null`) did not record them, and a `body` written as a JSON value (an object, an
/// array, a number, a flag, or a string holding an object's or array's JSON text, as logs write
/// it) says what was sent: JSON. Hand-written records often leave a response's headers out;
/// without this, every one of their bodies would break the Content-Type rule on a header nobody
/// recorded. A record that lists headers, `{}` included, is taken at its word, so a missing
/// Content-Type there is still a finding; a plain string `body` states nothing (it may be text).
fn unrecorded_headers_media(headers: &Field<Pairs>, body: &RecordedBody) -> Option<String> {
    let value = match body {
        RecordedBody::Value(Field::Ok(value)) => value,
        // JSON text all the same, unless a string's.
        RecordedBody::Unreadable(text) => {
            let states_json = !text.starts_with('"');
            return (!headers.is_present() && states_json).then(|| "application/json".to_owned());
        }
        _ => return None,
    };
    let states_json = match value {
        serde_json::Value::String(text) => {
            let text = text.trim_start();
            text.starts_with('{') || text.starts_with('[')
        }
        serde_json::Value::Null => false,
        _ => true,
    };
    (!headers.is_present() && states_json).then(|| "application/json".to_owned())
}

/// A `body` string whose message says it is not JSON (a form, plain text, XML) is that text,
/// as a HAR's `text` would hold it: read as a JSON value it would be a JSON string, which no
/// such body can be, and a form's fields would go unchecked. A `body` object of a form
/// (`application/x-www-form-urlencoded` or `multipart/form-data`) lists its fields, which
/// hand-written records do rather than encode the form: it becomes the form they make, for
/// the same reason.
fn body_as_sent(
    body: Option<Body>,
    content_type: Option<String>,
    declared: Option<&str>,
) -> Option<Body> {
    match (body, content_type) {
        (Some(Body::Json(serde_json::Value::String(text))), Some(media)) if !is_json(&media) => {
            (!text.is_empty()).then_some(Body::Text(text))
        }
        (Some(Body::Json(serde_json::Value::Object(fields))), Some(media))
            if media == specgen::form::MEDIA_TYPE =>
        {
            let mut form = form_urlencoded::Serializer::new(String::new());
            for (name, value) in form_fields(&fields) {
                form.append_pair(name, &value);
            }
            Some(Body::Text(form.finish()))
        }
        (Some(Body::Json(serde_json::Value::Object(fields))), Some(media))
            if media == crate::multipart::FORM_DATA =>
        {
            let boundary = crate::multipart::declared_boundary([declared, None])
                .unwrap_or(crate::multipart::RECORDED_FIELDS_BOUNDARY);
            let fields: Vec<(&str, String)> = form_fields(&fields).collect();
            let parts = fields
                .iter()
                .map(|(name, value)| (*name, value.as_str(), None, None));
            Some(Body::Text(crate::multipart::body_of(parts, boundary)))
        }
        (body, _) => body,
    }
}

/// A form's fields as a JSON object lists them: a list is the field repeated (the form
/// style's default), a string its text, any other value its JSON text (a number, a flag, and
/// an object, which a form field holds as JSON), and `null` no field.
fn form_fields(
    fields: &serde_json::Map<String, serde_json::Value>,
) -> impl Iterator<Item = (&str, String)> {
    let text = |value: &serde_json::Value| match value {
        serde_json::Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    fields.iter().flat_map(move |(name, value)| {
        let values: Vec<String> = match value {
            serde_json::Value::Null => Vec::new(),
            serde_json::Value::Array(items) => items.iter().map(text).collect(),
            one => vec![text(one)],
        };
        values.into_iter().map(move |value| (name.as_str(), value))
    })
}

/// Field names of a message's body, for messages.
struct BodyNames {
    message: &'static str,
    json: &'static str,
    text: &'static str,
    base64: &'static str,
}

const REQUEST_BODY: BodyNames = BodyNames {
    message: "request",
    json: "request.body",
    text: "request.bodyText",
    base64: "request.bodyBase64",
};

const RESPONSE_BODY: BodyNames = BodyNames {
    message: "response",
    json: "response.body",
    text: "response.bodyText",
    base64: "response.bodyBase64",
};

fn body(
    json: RecordedBody,
    text: Field<String>,
    base64: Field<String>,
    names: &BodyNames,
    problems: &mut Vec<String>,
) -> Option<Body> {
    let given = [json.is_present(), text.is_present(), base64.is_present()];
    if given.iter().filter(|&&given| given).count() > 1 {
        problems.push(format!(
            "{} has more than one of body, bodyText and bodyBase64",
            names.message
        ));
        return None;
    }
    let json = match json {
        RecordedBody::Unreadable(text) => return Some(Body::Text(text)),
        RecordedBody::Value(json) => json,
        RecordedBody::Missing => Field::Missing,
    };
    if let Some(value) = json.optional(names.json, problems) {
        // `""` is how loggers write an empty body; a body of the JSON text `""` is rare
        // enough to leave to `bodyText`.
        if value.as_str() == Some("") {
            return None;
        }
        return Some(Body::Json(value));
    }
    if let Some(text) = text.optional(names.text, problems) {
        return text_body(text, false, names.text, problems);
    }
    let encoded = base64.optional(names.base64, problems)?;
    text_body(encoded, true, names.base64, problems)
}
