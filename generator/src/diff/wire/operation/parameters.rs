//! Parameters of an exchange, path-item ones merged in: added, removed, made required or
//! optional, and their schemas compared.

use serde_json::Value;

use super::exchange::{Flip, Op, Pair};
use crate::diff::checks::{Flow, Structural};
use crate::diff::collect::Collector;
use crate::diff::finding::Which;
use crate::diff::wire::schema::{Memo, Walk};
use crate::diff::wire::shape::deref;
use crate::load::{Document, join};

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

pub(super) fn parameters<'d>(out: &mut Collector<'d>, memo: &mut Memo, pair: &Pair<'_, 'd>) {
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
