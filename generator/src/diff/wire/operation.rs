//! One operation (or webhook) against its other version: parameters, request body, responses
//! and their headers. Schemas go to [`super::schema`].

use serde_json::{Map, Value};

use super::schema::{Memo, Walk};
use super::shape::deref;
use crate::diff::checks::{Flow, Structural};
use crate::diff::collect::Collector;
use crate::diff::finding::Which;
use crate::load::{Document, join};

/// An operation object in one document.
#[derive(Debug, Clone)]
pub(crate) struct Op<'d> {
    /// The operation object.
    pub value: &'d Value,
    /// Its pointer.
    pub at: String,
    /// The path item holding it (for path-level parameters).
    pub item: &'d Value,
    /// The path item's pointer.
    pub item_at: String,
    /// The path template (operations) or delivery path (webhooks).
    pub path: String,
}

/// The two versions of one exchange.
pub(crate) struct Pair<'a, 'd> {
    pub old: &'a Op<'d>,
    pub new: &'a Op<'d>,
    /// `GET /pets` or `webhook newPet`.
    pub use_: &'a str,
    /// A webhook: the API sends the request.
    pub webhook: bool,
}

impl Pair<'_, '_> {
    fn request_flow(&self) -> Flow {
        if self.webhook {
            Flow::WebhookPayload
        } else {
            Flow::Request
        }
    }

    fn response_flow(&self) -> Flow {
        if self.webhook {
            Flow::WebhookReply
        } else {
            Flow::Response
        }
    }
}

/// Compares everything of an exchange but its security.
pub(crate) fn compare<'d>(out: &mut Collector<'d>, memo: &mut Memo, pair: &Pair<'_, 'd>) {
    lifecycle(out, pair);
    if !pair.webhook {
        parameters(out, memo, pair);
    }
    request_body(out, memo, pair);
    responses(out, memo, pair);
}

/// A flag of the exchange that flipped: `on` reports it becoming true, `off` false.
struct Flip<'a> {
    on: Structural,
    off: Structural,
    /// What the flag is about, e.g. `GET /pets: parameter id (query)`.
    label: &'a str,
    /// How to say it became true, and false.
    words: (&'a str, &'a str),
}

impl Flip<'_> {
    fn report(&self, out: &mut Collector, flags: (bool, bool), at: &str, use_: &str) {
        let (check, word) = match flags {
            (false, true) => (self.on, self.words.0),
            (true, false) => (self.off, self.words.1),
            _ => return,
        };
        out.structural(
            check,
            Which::New,
            at,
            format!("{} {word}", self.label),
            use_,
        );
    }
}

fn lifecycle(out: &mut Collector, pair: &Pair) {
    if pair.webhook {
        return;
    }
    let deprecated = |op: &Op| op.value.get("deprecated").and_then(Value::as_bool) == Some(true);
    let at = pair.new.at.clone();
    Flip {
        on: Structural::OperationDeprecated,
        off: Structural::OperationReactivated,
        label: pair.use_,
        words: ("deprecated", "no longer deprecated"),
    }
    .report(
        out,
        (deprecated(pair.old), deprecated(pair.new)),
        &at,
        pair.use_,
    );
    let id = |op: &Op| {
        op.value
            .get("operationId")
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let (old_id, new_id) = (id(pair.old), id(pair.new));
    if old_id != new_id {
        out.structural(
            Structural::OperationIdChanged,
            Which::New,
            &at,
            format!(
                "{}: operationId {} → {}",
                pair.use_,
                old_id.as_deref().unwrap_or("(none)"),
                new_id.as_deref().unwrap_or("(none)")
            ),
            pair.use_,
        );
    }
}

/// A parameter of an operation, path-item ones merged in.
struct Param<'d> {
    /// `in` and name (lowercase for headers); path parameters by position in the template.
    key: (String, String),
    name: String,
    value: &'d Value,
    at: String,
}

impl<'d> Param<'d> {
    fn required(&self) -> bool {
        self.key.0 == "path" || self.value.get("required").and_then(Value::as_bool) == Some(true)
    }

    /// The schema and its pointer (`schema`, or the first `content` entry's).
    fn schema(&self) -> Option<(&'d Value, String)> {
        if let Some(schema) = self.value.get("schema") {
            return Some((schema, join(&self.at, "schema")));
        }
        let (media, object) = self.value.get("content")?.as_object()?.iter().next()?;
        let schema = object.get("schema")?;
        Some((
            schema,
            join(&join(&join(&self.at, "content"), media), "schema"),
        ))
    }
}

fn params<'d>(doc: &'d Document, op: &Op<'d>) -> Vec<Param<'d>> {
    let template: Vec<&str> = op
        .path
        .split('{')
        .skip(1)
        .filter_map(|rest| rest.split('}').next())
        .collect();
    let mut out: Vec<Param> = Vec::new();
    for (source, source_at) in [(op.item, &op.item_at), (op.value, &op.at)] {
        let Some(list) = source.get("parameters").and_then(Value::as_array) else {
            continue;
        };
        let list_at = join(source_at, "parameters");
        for (index, param) in list.iter().enumerate() {
            let (value, at) = deref(doc, param, &join(&list_at, &index.to_string()));
            let name = value
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let location = value.get("in").and_then(Value::as_str).unwrap_or_default();
            let key_name = match location {
                "header" => name.to_ascii_lowercase(),
                "path" => template
                    .iter()
                    .position(|p| *p == name)
                    .map_or_else(|| name.to_string(), |i| format!("#{i}")),
                _ => name.to_string(),
            };
            let key = (location.to_string(), key_name);
            out.retain(|p| p.key != key);
            out.push(Param {
                key,
                name: name.to_string(),
                value,
                at,
            });
        }
    }
    out
}

fn parameters<'d>(out: &mut Collector<'d>, memo: &mut Memo, pair: &Pair<'_, 'd>) {
    let old = params(out.old, pair.old);
    let new = params(out.new, pair.new);
    for param in &new {
        let label = format!("{}: parameter {} ({})", pair.use_, param.name, param.key.0);
        match old.iter().find(|o| o.key == param.key) {
            None => {
                let check = if param.required() {
                    Structural::ParameterAddedRequired
                } else {
                    Structural::ParameterAddedOptional
                };
                out.structural(
                    check,
                    Which::New,
                    &param.at,
                    format!("{label} added"),
                    pair.use_,
                );
            }
            Some(before) => {
                Flip {
                    on: Structural::ParameterBecameRequired,
                    off: Structural::ParameterBecameOptional,
                    label: &label,
                    words: ("became required", "became optional"),
                }
                .report(
                    out,
                    (before.required(), param.required()),
                    &param.at,
                    pair.use_,
                );
                if let (Some((a, a_at)), Some((b, b_at))) = (before.schema(), param.schema()) {
                    Walk {
                        out: &mut *out,
                        memo: &mut *memo,
                        flow: Flow::Request,
                        use_: pair.use_,
                    }
                    .compare((a, &a_at), (b, &b_at));
                }
            }
        }
    }
    for param in &old {
        if !new.iter().any(|n| n.key == param.key) {
            let label = format!("{}: parameter {} ({})", pair.use_, param.name, param.key.0);
            out.structural(
                Structural::ParameterRemoved,
                Which::Old,
                &param.at,
                format!("{label} removed"),
                pair.use_,
            );
        }
    }
}

/// The `content` map of a request body or response, and its pointer.
fn content<'d>(value: &'d Value, at: &str) -> Option<(&'d Map<String, Value>, String)> {
    Some((value.get("content")?.as_object()?, join(at, "content")))
}

fn request_body<'d>(out: &mut Collector<'d>, memo: &mut Memo, pair: &Pair<'_, 'd>) {
    let body = |doc: &'d Document, op: &Op<'d>| {
        op.value
            .get("requestBody")
            .map(|body| deref(doc, body, &join(&op.at, "requestBody")))
    };
    let old = body(out.old, pair.old);
    let new = body(out.new, pair.new);
    let required = |body: &Value| body.get("required").and_then(Value::as_bool) == Some(true);
    let what = if pair.webhook {
        "payload"
    } else {
        "request body"
    };
    match (old, new) {
        (None, None) => {}
        (None, Some((body, at))) => {
            let check = if required(body) {
                Structural::RequestBodyAddedRequired
            } else {
                Structural::RequestBodyAddedOptional
            };
            if !pair.webhook {
                out.structural(
                    check,
                    Which::New,
                    &at,
                    format!("{}: {what} added", pair.use_),
                    pair.use_,
                );
            }
        }
        (Some((_, at)), None) => {
            if !pair.webhook {
                out.structural(
                    Structural::RequestBodyRemoved,
                    Which::Old,
                    &at,
                    format!("{}: {what} removed", pair.use_),
                    pair.use_,
                );
            }
        }
        (Some((old_body, old_at)), Some((new_body, new_at))) => {
            if !pair.webhook {
                let label = format!("{}: {what}", pair.use_);
                Flip {
                    on: Structural::RequestBodyBecameRequired,
                    off: Structural::RequestBodyBecameOptional,
                    label: &label,
                    words: ("became required", "became optional"),
                }
                .report(
                    out,
                    (required(old_body), required(new_body)),
                    &new_at,
                    pair.use_,
                );
            }
            let media = MediaChecks {
                removed: (!pair.webhook).then_some(Structural::RequestMediaTypeRemoved),
                added: (!pair.webhook).then_some(Structural::RequestMediaTypeAdded),
                flow: pair.request_flow(),
                what,
            };
            media.compare(out, memo, pair, (old_body, &old_at), (new_body, &new_at));
        }
    }
}

/// The checks on the media types of a body.
struct MediaChecks {
    removed: Option<Structural>,
    added: Option<Structural>,
    flow: Flow,
    what: &'static str,
}

impl MediaChecks {
    fn compare<'d>(
        &self,
        out: &mut Collector<'d>,
        memo: &mut Memo,
        pair: &Pair<'_, 'd>,
        old: (&'d Value, &str),
        new: (&'d Value, &str),
    ) {
        let (Some((old_content, old_at)), Some((new_content, new_at))) =
            (content(old.0, old.1), content(new.0, new.1))
        else {
            return;
        };
        for (media, new_media) in new_content {
            let new_media_at = join(&new_at, media);
            match old_content.get(media) {
                None => {
                    if let Some(check) = self.added {
                        let message =
                            format!("{}: {} media type {media} added", pair.use_, self.what);
                        out.structural(check, Which::New, &new_media_at, message, pair.use_);
                    }
                }
                Some(old_media) => {
                    let old_media_at = join(&old_at, media);
                    if let (Some(a), Some(b)) = (old_media.get("schema"), new_media.get("schema")) {
                        Walk {
                            out: &mut *out,
                            memo: &mut *memo,
                            flow: self.flow,
                            use_: pair.use_,
                        }
                        .compare(
                            (a, &join(&old_media_at, "schema")),
                            (b, &join(&new_media_at, "schema")),
                        );
                    }
                }
            }
        }
        for media in old_content.keys() {
            if !new_content.contains_key(media)
                && let Some(check) = self.removed
            {
                let message = format!("{}: {} media type {media} removed", pair.use_, self.what);
                out.structural(check, Which::Old, &join(&old_at, media), message, pair.use_);
            }
        }
    }
}

/// Whether a response key is a success (`2XX` or a 2xx code).
fn is_success(status: &str) -> bool {
    status.starts_with('2')
}

fn responses<'d>(out: &mut Collector<'d>, memo: &mut Memo, pair: &Pair<'_, 'd>) {
    let all = |op: &Op<'d>| {
        op.value
            .get("responses")
            .and_then(Value::as_object)
            .map(|map| (map, join(&op.at, "responses")))
    };
    let (Some((old_all, old_at)), Some((new_all, new_at))) = (all(pair.old), all(pair.new)) else {
        return;
    };
    if pair.webhook {
        reply_status(out, pair, (old_all, &old_at), (new_all, &new_at));
    }
    for (status, new_response) in new_all {
        let (new_response, response_at) = deref(out.new, new_response, &join(&new_at, status));
        let Some(old_response) = old_all.get(status) else {
            if !pair.webhook {
                let check = if is_success(status) {
                    Structural::ResponseSuccessStatusAdded
                } else {
                    Structural::ResponseErrorStatusAdded
                };
                let message = format!("{}: response {status} added", pair.use_);
                out.structural(check, Which::New, &response_at, message, pair.use_);
            }
            continue;
        };
        let (old_response, old_response_at) = deref(out.old, old_response, &join(&old_at, status));
        response(
            out,
            memo,
            pair,
            status,
            (old_response, &old_response_at),
            (new_response, &response_at),
        );
    }
    if pair.webhook {
        return;
    }
    for status in old_all.keys() {
        if !new_all.contains_key(status) {
            let check = if is_success(status) {
                Structural::ResponseSuccessStatusRemoved
            } else {
                Structural::ResponseErrorStatusRemoved
            };
            let message = format!("{}: response {status} removed", pair.use_);
            out.structural(
                check,
                Which::Old,
                &join(&old_at, status),
                message,
                pair.use_,
            );
        }
    }
}

fn response<'d>(
    out: &mut Collector<'d>,
    memo: &mut Memo,
    pair: &Pair<'_, 'd>,
    status: &str,
    old: (&'d Value, &str),
    new: (&'d Value, &str),
) {
    let has_body = |value: &Value| {
        value
            .get("content")
            .and_then(Value::as_object)
            .is_some_and(|c| !c.is_empty())
    };
    let what = if pair.webhook { "reply" } else { "response" };
    match (has_body(old.0), has_body(new.0)) {
        (true, false) if !pair.webhook => out.structural(
            Structural::ResponseBodyRemoved,
            Which::Old,
            &join(old.1, "content"),
            format!("{}: {what} {status} no longer has a body", pair.use_),
            pair.use_,
        ),
        (false, true) if !pair.webhook => out.structural(
            Structural::ResponseBodyAdded,
            Which::New,
            &join(new.1, "content"),
            format!("{}: {what} {status} now has a body", pair.use_),
            pair.use_,
        ),
        _ => {}
    }
    let media = MediaChecks {
        removed: (!pair.webhook).then_some(Structural::ResponseMediaTypeRemoved),
        added: (!pair.webhook).then_some(Structural::ResponseMediaTypeAdded),
        flow: pair.response_flow(),
        what,
    };
    media.compare(out, memo, pair, old, new);
    if !pair.webhook {
        headers(out, memo, pair, status, old, new);
    }
}

fn headers<'d>(
    out: &mut Collector<'d>,
    memo: &mut Memo,
    pair: &Pair<'_, 'd>,
    status: &str,
    old: (&'d Value, &str),
    new: (&'d Value, &str),
) {
    let all = |value: &'d Value, at: &str| {
        value
            .get("headers")
            .and_then(Value::as_object)
            .map(|map| {
                let headers_at = join(at, "headers");
                map.iter()
                    .map(|(name, header)| {
                        (
                            name.to_ascii_lowercase(),
                            name,
                            header,
                            join(&headers_at, name),
                        )
                    })
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    };
    let old_headers = all(old.0, old.1);
    let new_headers = all(new.0, new.1);
    let required = |header: &Value| header.get("required").and_then(Value::as_bool) == Some(true);
    for (key, name, header, at) in &new_headers {
        let (header, at) = deref(out.new, header, at);
        let label = format!("{}: response {status} header {name}", pair.use_);
        let Some((_, _, old_header, old_at)) = old_headers.iter().find(|(k, ..)| k == key) else {
            out.structural(
                Structural::ResponseHeaderAdded,
                Which::New,
                &at,
                format!("{label} added"),
                pair.use_,
            );
            continue;
        };
        let (old_header, old_at) = deref(out.old, old_header, old_at);
        if required(old_header) && !required(header) {
            out.structural(
                Structural::ResponseHeaderBecameOptional,
                Which::New,
                &at,
                format!("{label} became optional"),
                pair.use_,
            );
        }
        if let (Some(a), Some(b)) = (old_header.get("schema"), header.get("schema")) {
            Walk {
                out: &mut *out,
                memo: &mut *memo,
                flow: Flow::Response,
                use_: pair.use_,
            }
            .compare((a, &join(&old_at, "schema")), (b, &join(&at, "schema")));
        }
    }
    for (key, name, header, at) in &old_headers {
        if new_headers.iter().any(|(k, ..)| k == key) {
            continue;
        }
        let (header, at) = deref(out.old, header, at);
        let check = if required(header) {
            Structural::ResponseRequiredHeaderRemoved
        } else {
            Structural::ResponseOptionalHeaderRemoved
        };
        let message = format!("{}: response {status} header {name} removed", pair.use_);
        out.structural(check, Which::Old, &at, message, pair.use_);
    }
}

/// The status a webhook sender expects from receivers: its lowest documented success code,
/// else 200 (what the generated sender does).
fn reply_status(
    out: &mut Collector,
    pair: &Pair,
    old: (&Map<String, Value>, &str),
    new: (&Map<String, Value>, &str),
) {
    let expected = |all: &Map<String, Value>| {
        all.keys()
            .filter(|status| is_success(status))
            .filter_map(|status| status.parse::<u16>().ok())
            .min()
            .unwrap_or(200)
    };
    let (a, b) = (expected(old.0), expected(new.0));
    if a != b {
        out.structural(
            Structural::WebhookReplyStatusChanged,
            Which::New,
            new.1,
            format!(
                "{}: the sender expects status {b} from receivers, was {a}",
                pair.use_
            ),
            pair.use_,
        );
    }
}
