//! Finding every `$ref` in a document, in document order.
//!
//! The walk is generic (it does not need to know OpenAPI's structure, so a
//! `$ref` anywhere is checked), except that it skips literal data: example
//! payloads, defaults, enums, consts and `x-` extensions may contain a
//! `"$ref"` key that is just data. A key is only treated as such a keyword
//! where it is a keyword — not when it names a property, a header, a path…
//! (the entries of a map-of-names).

use serde_json::Value;

use super::pointer::{push_index, push_segment};

/// One `$ref`: the bare pointer of the object holding it, and its value.
pub(crate) struct RefSite<'a> {
    pub(crate) holder: String,
    pub(crate) target: &'a Value,
}

/// Keys whose value maps user-chosen names to OpenAPI or schema objects.
const NAME_MAPS: &[&str] = &[
    "paths",
    "webhooks",
    "schemas",
    "parameters",
    "headers",
    "responses",
    "requestBodies",
    "securitySchemes",
    "links",
    "callbacks",
    "pathItems",
    "content",
    "encoding",
    "variables",
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    /// An object whose keys are keywords.
    Keywords,
    /// An object whose keys are names.
    Names,
    /// A map-of-names of Example Objects (`examples` outside a schema).
    Examples,
    /// An Example Object, whose `value` is literal data.
    Example,
}

pub(crate) fn collect(root: &Value) -> Vec<RefSite<'_>> {
    let mut sites = Vec::new();
    let mut path = String::new();
    walk(root, &mut path, Context::Keywords, &mut sites);
    sites
}

fn walk<'a>(value: &'a Value, path: &mut String, context: Context, sites: &mut Vec<RefSite<'a>>) {
    match value {
        Value::Object(map) => {
            if matches!(context, Context::Keywords | Context::Example)
                && let Some(target) = map.get("$ref")
            {
                sites.push(RefSite {
                    holder: path.clone(),
                    target,
                });
            }
            for (key, child) in map {
                let child_context = match context {
                    Context::Names => Context::Keywords,
                    Context::Examples => Context::Example,
                    Context::Keywords | Context::Example => {
                        if is_literal(key) || (context == Context::Example && key == "value") {
                            continue;
                        }
                        if key == "examples" {
                            // A schema's `examples` is a list of payloads;
                            // elsewhere it maps names to Example Objects.
                            if !child.is_object() {
                                continue;
                            }
                            Context::Examples
                        } else if NAME_MAPS.contains(&key.as_str()) {
                            Context::Names
                        } else {
                            Context::Keywords
                        }
                    }
                };
                let len = path.len();
                push_segment(path, key);
                walk(child, path, child_context, sites);
                path.truncate(len);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                let len = path.len();
                push_index(path, index);
                walk(item, path, Context::Keywords, sites);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

fn is_literal(key: &str) -> bool {
    matches!(key, "example" | "default" | "const" | "enum") || key.starts_with("x-")
}

/// Deepest nesting of arrays and objects, counted without recursion so that
/// absurdly deep input cannot overflow the stack here; the recursive passes
/// run only after this says the depth is sane.
pub(crate) fn depth_exceeds(root: &Value, limit: usize) -> bool {
    let mut stack: Vec<(&Value, usize)> = vec![(root, 0)];
    while let Some((value, depth)) = stack.pop() {
        if depth > limit {
            return true;
        }
        match value {
            Value::Object(map) => stack.extend(map.values().map(|v| (v, depth + 1))),
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, depth + 1))),
            _ => {}
        }
    }
    false
}
