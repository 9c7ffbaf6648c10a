//! Bodies: the request body (added, removed, made required or optional), and the media
//! types of any body with their schemas ([`MediaChecks`], which responses use too).

use serde_json::{Map, Value};

use super::exchange::{Flip, Op, Pair};
use crate::diff::checks::{Flow, Structural};
use crate::diff::collect::Collector;
use crate::diff::finding::Which;
use crate::diff::wire::schema::{Memo, Walk};
use crate::diff::wire::shape::deref;
use crate::load::{Document, join};

/// The `content` map of a request body or response, and its pointer.
fn content<'d>(value: &'d Value, at: &str) -> Option<(&'d Map<String, Value>, String)> {
    Some((value.get("content")?.as_object()?, join(at, "content")))
}

pub(super) fn request_body<'d>(out: &mut Collector<'d>, memo: &mut Memo, pair: &Pair<'_, 'd>) {
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
pub(super) struct MediaChecks {
    pub(super) removed: Option<Structural>,
    pub(super) added: Option<Structural>,
    pub(super) flow: Flow,
    pub(super) what: &'static str,
}

impl MediaChecks {
    pub(super) fn compare<'d>(
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
