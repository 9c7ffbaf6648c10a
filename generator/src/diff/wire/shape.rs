//! A schema as the comparison sees it: `$ref`s followed, `allOf` members merged into one
//! object, and `null` taken out of the type, the enum and union alternatives into one flag
//! (so that `type: [string, null]`, 3.0's `nullable: true` and `anyOf: [X, {type: null}]` all
//! read the same).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::load::{Document, join};

/// Keywords read as they are (bounds, pattern, default), merged across `allOf`.
pub(super) const KEYWORDS: [&str; 16] = [
    "maxLength",
    "minLength",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxItems",
    "minItems",
    "maxProperties",
    "minProperties",
    "multipleOf",
    "uniqueItems",
    "pattern",
    "default",
    "readOnly",
    "writeOnly",
];

/// A value found in a document, with the pointer it was found at.
#[derive(Debug, Clone)]
pub(super) struct Located<'d> {
    pub value: &'d Value,
    pub at: String,
}

/// One `oneOf` / `anyOf` alternative.
#[derive(Debug, Clone)]
pub(super) struct Alternative<'d> {
    pub value: &'d Value,
    pub at: String,
}

/// The comparable view of a schema.
#[derive(Debug, Clone, Default)]
pub(super) struct Shape<'d> {
    /// Pointer of the schema itself (after `$ref`s).
    pub at: String,
    /// The schema itself.
    pub value: Option<&'d Value>,
    /// JSON types other than `null`; `None` when unconstrained.
    pub types: Option<BTreeSet<&'d str>>,
    /// `format`, with its pointer.
    pub format: Option<Located<'d>>,
    /// Whether `null` is allowed.
    pub nullable: bool,
    /// A closed `enum` (or `const`), without `null`, each value with its pointer.
    pub enumeration: Option<(String, Vec<Located<'d>>)>,
    /// `x-extensible-enum` values.
    pub extensible: Option<(String, Vec<Located<'d>>)>,
    /// Other keywords compared as they are.
    pub keywords: BTreeMap<&'static str, Located<'d>>,
    /// Properties, own first, then those of `allOf` members.
    pub properties: Vec<(String, Located<'d>)>,
    /// Required property names.
    pub required: BTreeSet<String>,
    /// `additionalProperties: false` (or `unevaluatedProperties: false`).
    pub closed: bool,
    /// `additionalProperties` as a schema.
    pub additional: Option<Located<'d>>,
    /// `items`.
    pub items: Option<Located<'d>>,
    /// `oneOf` / `anyOf` alternatives other than `{type: null}`.
    pub alternatives: Vec<Alternative<'d>>,
    /// `discriminator`, with its pointer.
    pub discriminator: Option<Located<'d>>,
}

impl<'d> Shape<'d> {
    /// The shape of the schema at `schema` (following `$ref`s).
    pub fn of(doc: &'d Document, value: &'d Value, at: &str) -> Shape<'d> {
        let mut seen = BTreeSet::new();
        build(doc, value, at, &mut seen, 0)
    }

    /// Whether it may be an object (so properties are worth comparing).
    pub fn may_be_object(&self) -> bool {
        self.types.as_ref().is_none_or(|t| t.contains("object"))
    }
}

/// Follows `$ref`s; an unresolvable one (impossible in a loaded document) reads as `{}`.
pub(super) fn deref<'d>(doc: &'d Document, value: &'d Value, at: &str) -> (&'d Value, String) {
    static EMPTY: Value = Value::Bool(true);
    doc.deref(value, at).unwrap_or((&EMPTY, at.to_string()))
}

fn build<'d>(
    doc: &'d Document,
    value: &'d Value,
    at: &str,
    seen: &mut BTreeSet<String>,
    depth: usize,
) -> Shape<'d> {
    let (value, at) = deref(doc, value, at);
    let mut shape = Shape {
        at: at.clone(),
        value: Some(value),
        ..Shape::default()
    };
    let Some(map) = value.as_object() else {
        // `true` admits anything; `false` nothing.
        if value == &Value::Bool(false) {
            shape.types = Some(BTreeSet::new());
        }
        return shape;
    };
    if depth > 32 || !seen.insert(at.clone()) {
        return shape;
    }
    // `anyOf: [X, {type: null}]`: X, nullable.
    for key in ["anyOf", "oneOf"] {
        let Some(list) = map.get(key).and_then(Value::as_array) else {
            continue;
        };
        let list_at = join(&at, key);
        let mut rest = Vec::new();
        for (index, item) in list.iter().enumerate() {
            let item_at = join(&list_at, &index.to_string());
            let (target, _) = deref(doc, item, &item_at);
            if is_null_schema(target) {
                shape.nullable = true;
            } else {
                rest.push(Alternative {
                    value: item,
                    at: item_at,
                });
            }
        }
        if shape.nullable && rest.len() == 1 && !has_own_shape(map) {
            let only = rest.remove(0);
            let mut inner = build(doc, only.value, &only.at, seen, depth + 1);
            inner.nullable = true;
            seen.remove(&at);
            return inner;
        }
        if shape.alternatives.is_empty() {
            shape.alternatives = rest;
        }
    }
    match map.get("type") {
        Some(Value::String(name)) => {
            if name == "null" {
                shape.nullable = true;
                shape.types = Some(BTreeSet::new());
            } else {
                shape.types = Some(BTreeSet::from([name.as_str()]));
            }
        }
        Some(Value::Array(names)) => {
            let mut types = BTreeSet::new();
            for name in names.iter().filter_map(Value::as_str) {
                if name == "null" {
                    shape.nullable = true;
                } else {
                    types.insert(name);
                }
            }
            shape.types = Some(types);
        }
        _ => {}
    }
    if let Some(format) = map.get("format") {
        shape.format = Some(Located {
            value: format,
            at: join(&at, "format"),
        });
    }
    if let Some(values) = map.get("enum").and_then(Value::as_array) {
        let enum_at = join(&at, "enum");
        let mut kept = Vec::new();
        for (index, item) in values.iter().enumerate() {
            if item.is_null() {
                shape.nullable = true;
            } else {
                kept.push(Located {
                    value: item,
                    at: join(&enum_at, &index.to_string()),
                });
            }
        }
        shape.enumeration = Some((enum_at, kept));
    } else if let Some(constant) = map.get("const") {
        let const_at = join(&at, "const");
        if constant.is_null() {
            shape.nullable = true;
        }
        let kept = (!constant.is_null())
            .then(|| Located {
                value: constant,
                at: const_at.clone(),
            })
            .into_iter()
            .collect();
        shape.enumeration = Some((const_at, kept));
    }
    if let Some(values) = map.get("x-extensible-enum").and_then(Value::as_array) {
        let enum_at = join(&at, "x-extensible-enum");
        let kept = values
            .iter()
            .enumerate()
            .map(|(index, item)| Located {
                value: item,
                at: join(&enum_at, &index.to_string()),
            })
            .collect();
        shape.extensible = Some((enum_at, kept));
    }
    for keyword in KEYWORDS {
        if let Some(found) = map.get(keyword) {
            shape.keywords.insert(
                keyword,
                Located {
                    value: found,
                    at: join(&at, keyword),
                },
            );
        }
    }
    if let Some(properties) = map.get("properties").and_then(Value::as_object) {
        let properties_at = join(&at, "properties");
        for (name, schema) in properties {
            shape.properties.push((
                name.clone(),
                Located {
                    value: schema,
                    at: join(&properties_at, name),
                },
            ));
        }
    }
    if let Some(required) = map.get("required").and_then(Value::as_array) {
        shape.required.extend(
            required
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string),
        );
    }
    for key in ["additionalProperties", "unevaluatedProperties"] {
        match map.get(key) {
            Some(Value::Bool(false)) => shape.closed = true,
            Some(schema @ Value::Object(_)) if key == "additionalProperties" => {
                shape.additional = Some(Located {
                    value: schema,
                    at: join(&at, key),
                })
            }
            _ => {}
        }
    }
    if let Some(items) = map.get("items").filter(|items| items.is_object()) {
        shape.items = Some(Located {
            value: items,
            at: join(&at, "items"),
        });
    }
    if let Some(discriminator) = map.get("discriminator") {
        shape.discriminator = Some(Located {
            value: discriminator,
            at: join(&at, "discriminator"),
        });
    }
    if let Some(members) = map.get("allOf").and_then(Value::as_array) {
        let all_at = join(&at, "allOf");
        for (index, member) in members.iter().enumerate() {
            let member = build(
                doc,
                member,
                &join(&all_at, &index.to_string()),
                seen,
                depth + 1,
            );
            merge(&mut shape, member);
        }
    }
    if shape.types.is_none() {
        shape.types = implied_types(&shape);
    }
    seen.remove(&at);
    shape
}

/// Whether a schema admits only `null`.
fn is_null_schema(value: &Value) -> bool {
    value.get("type").and_then(Value::as_str) == Some("null")
        || value.get("const").is_some_and(Value::is_null)
}

/// Whether a schema holding `anyOf` says more than the union (then it is not a mere wrapper).
fn has_own_shape(map: &serde_json::Map<String, Value>) -> bool {
    ["type", "properties", "items", "enum", "allOf"]
        .iter()
        .any(|key| map.contains_key(*key))
}

/// The types a schema without `type` implies by its other keywords.
fn implied_types<'d>(shape: &Shape<'d>) -> Option<BTreeSet<&'d str>> {
    if !shape.properties.is_empty() || shape.additional.is_some() || shape.closed {
        return Some(BTreeSet::from(["object"]));
    }
    if shape.items.is_some() {
        return Some(BTreeSet::from(["array"]));
    }
    let (_, values) = shape.enumeration.as_ref()?;
    let kinds: BTreeSet<&str> = values
        .iter()
        .map(|located| match located.value {
            Value::String(_) => "string",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
            Value::Number(_) => "number",
            Value::Array(_) => "array",
            _ => "object",
        })
        .collect();
    (!kinds.is_empty()).then_some(kinds)
}

/// Adds an `allOf` member to the shape: what the shape does not say itself, the member says.
fn merge<'d>(shape: &mut Shape<'d>, member: Shape<'d>) {
    shape.types = shape.types.take().or(member.types);
    shape.format = shape.format.take().or(member.format);
    shape.enumeration = shape.enumeration.take().or(member.enumeration);
    shape.extensible = shape.extensible.take().or(member.extensible);
    shape.additional = shape.additional.take().or(member.additional);
    shape.items = shape.items.take().or(member.items);
    shape.discriminator = shape.discriminator.take().or(member.discriminator);
    for (keyword, located) in member.keywords {
        shape.keywords.entry(keyword).or_insert(located);
    }
    for (name, located) in member.properties {
        if !shape.properties.iter().any(|(own, _)| *own == name) {
            shape.properties.push((name, located));
        }
    }
    shape.required.extend(member.required);
    if shape.alternatives.is_empty() {
        shape.alternatives = member.alternatives;
    }
}
