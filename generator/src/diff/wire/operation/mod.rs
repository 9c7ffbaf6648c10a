//! One operation (or webhook) against its other version: parameters, request body, responses
//! and their headers. Schemas go to [`super::schema`].
//!
//! This file runs the comparison and compares the operation's own flags; [`exchange`] holds
//! the two versions being compared, [`parameters`], [`body`] and [`responses`] compare the
//! parts of the exchange.

mod body;
mod exchange;
mod parameters;
mod responses;

use serde_json::Value;

use super::schema::Memo;
use crate::diff::checks::Structural;
use crate::diff::collect::Collector;
use crate::diff::finding::Which;
use body::request_body;
use exchange::Flip;
use parameters::parameters;
use responses::responses;

pub(crate) use exchange::{Op, Pair};

/// Compares everything of an exchange but its security.
pub(crate) fn compare<'d>(out: &mut Collector<'d>, memo: &mut Memo, pair: &Pair<'_, 'd>) {
    lifecycle(out, pair);
    if !pair.webhook {
        parameters(out, memo, pair);
    }
    request_body(out, memo, pair);
    responses(out, memo, pair);
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
