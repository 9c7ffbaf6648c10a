//! Wire compatibility: the two documents compared operation by operation and webhook by
//! webhook, schemas resolved through their `$ref`s.

mod operation;
mod schema;
mod security;
mod shape;

use std::collections::BTreeMap;

use serde_json::Value;

use super::checks::Structural;
use super::collect::Collector;
use super::finding::Which;
use super::place::{operation_label, webhook_label};
use crate::ir::Method;
use crate::load::{Document, join};
use operation::{Op, Pair};
use schema::Memo;

/// Every wire finding between the two documents of `out`.
pub(crate) fn compare(out: &mut Collector) {
    let mut memo = Memo::new();
    base_path_check(out);
    operations(out, &mut memo);
    webhooks(out, &mut memo);
}

/// The path of the first server's URL (`https://host/v1/` → `/v1`).
fn server_base_path(doc: &Document) -> Option<String> {
    let url = doc.pointer("#/servers/0/url")?.as_str()?;
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = if url.starts_with('/') {
        url
    } else {
        after_scheme.find('/').map_or("", |at| &after_scheme[at..])
    };
    Some(path.trim_end_matches('/').to_string())
}

fn base_path_check(out: &mut Collector) {
    let (Some(old), Some(new)) = (server_base_path(out.old), server_base_path(out.new)) else {
        return;
    };
    if old != new {
        out.structural(
            Structural::BasePathChanged,
            Which::New,
            "#/servers/0/url",
            format!("base path `{old}` → `{new}`: every operation moves"),
            "",
        );
    }
}

/// Every operation of a document, by method and normalized path, in document order.
fn collect_operations(doc: &Document) -> BTreeMap<(String, Method), Op<'_>> {
    let mut ops = BTreeMap::new();
    let Some(paths) = doc.root.get("paths").and_then(Value::as_object) else {
        return ops;
    };
    for (path, item) in paths {
        let (item, item_at) = shape_deref(doc, item, &join("#/paths", path));
        for method in Method::ALL {
            if let Some(op) = item.get(method.key()) {
                ops.insert(
                    // `/pets/{id}` and `/pets/{petId}` are the same path.
                    (crate::path::route_shape(path), method),
                    Op {
                        value: op,
                        at: join(&item_at, method.key()),
                        item,
                        item_at: item_at.clone(),
                        path: path.clone(),
                    },
                );
            }
        }
    }
    ops
}

fn shape_deref<'d>(doc: &'d Document, value: &'d Value, at: &str) -> (&'d Value, String) {
    shape::deref(doc, value, at)
}

fn deprecated(op: &Op) -> bool {
    op.value.get("deprecated").and_then(Value::as_bool) == Some(true)
}

fn operations(out: &mut Collector, memo: &mut Memo) {
    let old = collect_operations(out.old);
    let new = collect_operations(out.new);
    for (key, new_op) in &new {
        let use_ = operation_label(key.1.key(), &new_op.path);
        match old.get(key) {
            None => out.structural(
                Structural::OperationAdded,
                Which::New,
                &new_op.at,
                format!("{use_} added"),
                &use_,
            ),
            Some(old_op) => {
                let pair = Pair {
                    old: old_op,
                    new: new_op,
                    use_: &use_,
                    webhook: false,
                };
                operation::compare(out, memo, &pair);
                security::compare(out, old_op, new_op, &use_);
            }
        }
    }
    for (key, old_op) in &old {
        if new.contains_key(key) {
            continue;
        }
        let use_ = operation_label(key.1.key(), &old_op.path);
        let path_gone = !new.keys().any(|(path, _)| *path == key.0);
        let (check, how) = match (path_gone, deprecated(old_op)) {
            (true, false) => (
                Structural::PathRemovedWithoutDeprecation,
                "removed with its path",
            ),
            (true, true) => (
                Structural::PathRemovedWithDeprecation,
                "removed with its path, after deprecation",
            ),
            (false, false) => (Structural::OperationRemovedWithoutDeprecation, "removed"),
            (false, true) => (
                Structural::OperationRemovedWithDeprecation,
                "removed after deprecation",
            ),
        };
        out.structural(
            check,
            Which::Old,
            &old_op.at,
            format!("{use_} {how}"),
            &use_,
        );
    }
}

/// Every webhook operation of a document, by name, with its method.
fn collect_webhooks(doc: &Document) -> BTreeMap<String, (Method, Op<'_>)> {
    let mut hooks = BTreeMap::new();
    let Some(all) = doc.root.get("webhooks").and_then(Value::as_object) else {
        return hooks;
    };
    for (name, item) in all {
        let (item, item_at) = shape_deref(doc, item, &join("#/webhooks", name));
        for method in Method::ALL {
            let Some(op) = item.get(method.key()) else {
                continue;
            };
            let path = op
                .get("x-delivery-path")
                .or_else(|| item.get("x-delivery-path"))
                .and_then(Value::as_str)
                .map_or_else(|| format!("/{name}"), str::to_string);
            hooks.insert(
                name.clone(),
                (
                    method,
                    Op {
                        value: op,
                        at: join(&item_at, method.key()),
                        item,
                        item_at: item_at.clone(),
                        path,
                    },
                ),
            );
            break;
        }
    }
    hooks
}

fn webhooks(out: &mut Collector, memo: &mut Memo) {
    let old = collect_webhooks(out.old);
    let new = collect_webhooks(out.new);
    for (name, (method, new_op)) in &new {
        let use_ = webhook_label(name);
        let Some((old_method, old_op)) = old.get(name) else {
            out.structural(
                Structural::WebhookAdded,
                Which::New,
                &new_op.at,
                format!("{use_} added"),
                &use_,
            );
            continue;
        };
        if (old_method, &old_op.path) != (method, &new_op.path) {
            out.structural(
                Structural::WebhookDeliveryChanged,
                Which::New,
                &new_op.at,
                format!(
                    "{use_}: delivered as {} {}, was {} {}",
                    method.as_http(),
                    new_op.path,
                    old_method.as_http(),
                    old_op.path
                ),
                &use_,
            );
        }
        let pair = Pair {
            old: old_op,
            new: new_op,
            use_: &use_,
            webhook: true,
        };
        operation::compare(out, memo, &pair);
    }
    for (name, (_, old_op)) in &old {
        if !new.contains_key(name) {
            let use_ = webhook_label(name);
            out.structural(
                Structural::WebhookRemoved,
                Which::Old,
                &old_op.at,
                format!("{use_} removed"),
                &use_,
            );
        }
    }
}
