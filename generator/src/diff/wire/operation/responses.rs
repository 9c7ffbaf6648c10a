//! Responses of an exchange: statuses added and removed, bodies and their media types,
//! headers, and the reply status a webhook sender expects.

use serde_json::{Map, Value};

use super::body::MediaChecks;
use super::exchange::{Op, Pair};
use crate::diff::checks::{Flow, Structural};
use crate::diff::collect::Collector;
use crate::diff::finding::Which;
use crate::diff::wire::schema::{Memo, Walk};
use crate::diff::wire::shape::deref;
use crate::load::join;

/// Whether a key of a Responses Object is a specification extension (`x-…`), not a status.
fn is_extension(key: &str) -> bool {
    key.starts_with("x-")
}

/// Whether a response key is a success (`2XX` or a 2xx code).
fn is_success(status: &str) -> bool {
    status.starts_with('2')
}

/// The range key of `all` (`2XX`, in either case) that holds the status code `status`
/// (`201`): what a client of that document answers it by.
fn range_holding<'m>(all: &'m Map<String, Value>, status: &str) -> Option<&'m String> {
    if status.len() != 3 || !status.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    all.keys().find(|key| {
        key.len() == 3
            && key.as_bytes()[0] == status.as_bytes()[0]
            && key[1..].eq_ignore_ascii_case("XX")
    })
}

/// Whether a response key is a range (`4XX`).
fn is_range(status: &str) -> bool {
    status.len() == 3 && status[1..].eq_ignore_ascii_case("XX")
}

pub(super) fn responses<'d>(out: &mut Collector<'d>, memo: &mut Memo, pair: &Pair<'_, 'd>) {
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
    // `x-` members of a Responses Object are extensions, not statuses.
    for (status, new_response) in new_all.iter().filter(|(status, _)| !is_extension(status)) {
        let (new_response, response_at) = deref(out.new, new_response, &join(&new_at, status));
        // A status an old range held (`200` where `2XX` was): old clients know it, by the
        // range's response.
        let old_key = match old_all.get_key_value(status.as_str()) {
            Some((key, _)) => Some(key),
            None => range_holding(old_all, status),
        };
        let Some(old_response) = old_key.and_then(|key| old_all.get(key)) else {
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
        let old_key = old_key.expect("a response was found by its key");
        let (old_response, old_response_at) = deref(out.old, old_response, &join(&old_at, old_key));
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
    for status in old_all.keys().filter(|status| !is_extension(status)) {
        // A status a new range holds (`2XX` where `200` was) is still answered: the range
        // itself is new, so reported as added.
        if new_all.contains_key(status) || range_holding(new_all, status).is_some() {
            continue;
        }
        // A range that became statuses within it (`2XX` to `200`): old clients know each;
        // old servers may answer another.
        let narrowed = is_range(status)
            && new_all
                .keys()
                .any(|key| range_holding(old_all, key).is_some_and(|range| range == status));
        if narrowed {
            let message = format!(
                "{}: response {status} became statuses within it: an old server may answer \
                 one the new clients do not expect",
                pair.use_
            );
            out.structural(
                Structural::ResponseStatusRangeNarrowed,
                Which::Old,
                &join(&old_at, status),
                message,
                pair.use_,
            );
            continue;
        }
        {
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
