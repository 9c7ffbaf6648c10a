//! A form body (`application/x-www-form-urlencoded`) as the JSON object its schema checks.
//!
//! Form fields are text; the schema says what each one is. A field is parsed by the kind its
//! property's schema names (`Attempt=2` is the integer 2, `ProvideFeedback=true` the boolean),
//! a key repeated or a property that is an array makes a list (`MediaUrl=a&MediaUrl=b`), and
//! brackets nest (`metadata[order]=7`, `items[0][price]=p`, `expand[]=x`, as Stripe writes
//! them). A field whose schema is an object is read as JSON, OpenAPI's default encoding of an
//! object in a form. Text that does not parse as its kind stays text, so that the schema names
//! the field and the rule it breaks instead of the body being refused whole. The parts of a
//! `multipart/form-data` body are fields too ([`decode_parts`]); a part may say it is JSON.
//!
//! The one reading of a form: every generated server that takes one decodes it here before
//! checking and typing it, and specval does the same with recorded traffic.

// This file is spliced into each generated crate's `validation` module, beside `manifest.rs`,
// and is `specgen::form` beside `specgen::manifest`.

use ::std::collections::BTreeMap;

use ::serde_json::{Map, Value};

use super::manifest::{RequestBody, ValueKind, admits_object, dereferenced};

/// How deep brackets and nested schemas are followed: far beyond any real form.
const DEPTH: usize = 32;

/// The media type of a form body.
pub const MEDIA_TYPE: &str = "application/x-www-form-urlencoded";

/// The body's fields as a JSON object, each parsed by what `schema` (a contract file, with its
/// components under `$defs`) says of it.
pub fn decode(body: &[u8], schema: &Value) -> Value {
    decode_encoded(body, schema, &Encoding::default())
}

/// Whether a form or multipart body documented with `schema` (a contract file) is made of
/// fields the schema judges as an object's members. One whose schema's type says it is no
/// object (Jira's attachment upload, `multipart/form-data` of `{type: string, format:
/// binary}`) is taken as the bytes it is: its parts name no property, and read as an object
/// the whole body would break a `type` it never meant to keep.
pub fn holds_fields(schema: &Value) -> bool {
    match dereferenced(schema, schema).get("type") {
        Some(Value::String(name)) => name == "object",
        Some(Value::Array(names)) => names.iter().any(|name| name == "object"),
        _ => true,
    }
}

/// How a form's `encoding` sends some of its fields, other than OpenAPI's default of a pair
/// per list item and brackets for an object's members.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Encoding {
    /// Fields whose list goes as one value, by name, with the delimiter between its items
    /// (`codes=1,2,3`).
    pub delimited: BTreeMap<String, String>,
    /// Fields whose value is JSON text (`meta={"k":"v"}`), by name.
    pub json: Vec<String>,
}

impl Encoding {
    /// The encoding a request body's manifest entry documents for its form.
    pub fn of(body: &RequestBody) -> Encoding {
        Encoding {
            delimited: body.delimited_fields.clone(),
            json: body.json_fields.clone(),
        }
    }
}

/// [`decode`] of a form whose fields are sent as `encoding` says: a delimited field's value is
/// split into its items (an empty value is an empty list), a JSON field's read as JSON.
pub fn decode_encoded(body: &[u8], schema: &Value, encoding: &Encoding) -> Value {
    // Decoding is lossy (bytes that are not UTF-8 become U+FFFD): it cannot fail.
    let pairs: Vec<(String, String)> = ::serde_urlencoded::from_bytes(body).unwrap_or_default();
    let mut empty_lists = Vec::new();
    let mut parts = Vec::with_capacity(pairs.len());
    for (name, text) in &pairs {
        let json = encoding.json.iter().any(|field| field == name);
        match encoding.delimited.get(name).filter(|d| !d.is_empty()) {
            Some(_) if text.is_empty() => empty_lists.push(name.as_str()),
            Some(delimiter) => parts.extend(text.split(delimiter.as_str()).map(|item| Part {
                name,
                text: item,
                json,
            })),
            None => parts.push(Part { name, text, json }),
        }
    }
    let mut object = decode_parts(parts, schema);
    if let Value::Object(fields) = &mut object {
        for name in empty_lists {
            fields
                .entry(name.to_owned())
                .or_insert_with(|| Value::Array(Vec::new()));
        }
    }
    object
}

/// An object parameter's members (`manifest::ObjectStyle::members`) as the JSON object its
/// schema checks, each parsed as a form's field is.
pub fn decode_members(members: &[(String, &str)], schema: &Value) -> Value {
    let parts = members.iter().map(|(name, text)| Part {
        name,
        text,
        json: false,
    });
    decode_parts(parts, schema)
}

/// One named field of a body: a form's `name=text`, or a `multipart/form-data` part.
#[derive(Debug, Clone, Copy)]
pub struct Part<'a> {
    /// The field's name, brackets included (`items[0][price]`).
    pub name: &'a str,
    /// Its text.
    pub text: &'a str,
    /// Whether the part's own Content-Type says JSON (a multipart part of `application/json`).
    pub json: bool,
}

/// The fields as a JSON object, each parsed by what `schema` says of it, as [`decode`] reads a
/// form. A field whose schema is an object, or whose own Content-Type is JSON, is read as JSON
/// (OpenAPI's default encoding of an object in a form or a multipart body); text that does not
/// parse stays text, for the schema to name.
pub fn decode_parts<'a>(parts: impl IntoIterator<Item = Part<'a>>, schema: &Value) -> Value {
    let mut object = Value::Object(Map::new());
    for part in parts {
        // A name the schema declares as written (`template[name]`, as Rails-style APIs
        // document their fields) is that property, not a nested one.
        let path = if part.name.contains('[') && declares(schema, part.name, schema, 0) {
            vec![part.name]
        } else {
            key_path(part.name)
        };
        let leaf = Leaf {
            text: part.text,
            json: part.json,
        };
        insert(&mut object, &path, leaf, Some(schema), schema);
    }
    object
}

/// A field's text, on its way to the place its name says.
#[derive(Clone, Copy)]
struct Leaf<'a> {
    text: &'a str,
    json: bool,
}

/// `a[b][0]` as `["a", "b", "0"]`; `a[]` as `["a", ""]`; a key without brackets, or whose
/// brackets do not close, as itself.
fn key_path(key: &str) -> Vec<&str> {
    let Some(open) = key.find('[').filter(|&at| at > 0 && key.ends_with(']')) else {
        return vec![key];
    };
    let mut path = vec![&key[..open]];
    let inner = &key[open + 1..key.len() - 1];
    path.extend(inner.split("]["));
    if path.len() > DEPTH {
        return vec![key];
    }
    path
}

/// Puts the leaf's value at `path` under `node`, whose schema is `schema`.
fn insert(node: &mut Value, path: &[&str], leaf: Leaf<'_>, schema: Option<&Value>, root: &Value) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    let schema = schema.map(|schema| dereferenced(schema, root));
    match node {
        Value::Array(items) => {
            let item_schema = schema.and_then(|s| s.get("items"));
            if rest.is_empty() {
                items.push(scalar(leaf, item_schema, root));
                return;
            }
            // `items[0][price]`: the index names the item; `items[][price]` a new one.
            let index = first.parse::<usize>().ok().filter(|&i| i < items.len());
            let at = match index {
                Some(at) => at,
                None => {
                    items.push(Value::Object(Map::new()));
                    items.len() - 1
                }
            };
            insert(&mut items[at], rest, leaf, item_schema, root);
        }
        Value::Object(fields) => {
            let field_schema = schema.and_then(|s| property(s, first, root, 0));
            let is_list = field_schema.is_some_and(|s| is_array(dereferenced(s, root)))
                || rest
                    .first()
                    .is_some_and(|next| next.is_empty() || next.parse::<usize>().is_ok());
            if rest.is_empty() && !is_list {
                let value = scalar(leaf, field_schema, root);
                match fields.get_mut(*first) {
                    // A field given twice is a list, which the schema then judges.
                    Some(Value::Array(items)) => items.push(value),
                    Some(previous) => *previous = Value::Array(vec![previous.take(), value]),
                    None => {
                        fields.insert(first.to_string(), value);
                    }
                }
                return;
            }
            let child = fields.entry(first.to_string()).or_insert_with(|| {
                if is_list {
                    Value::Array(Vec::new())
                } else {
                    Value::Object(Map::new())
                }
            });
            // `MediaUrl=a` for an array property: the one item; `expand[]=x` likewise.
            let rest = match rest {
                [""] => &[][..],
                _ if is_list && !rest.is_empty() && rest[0].parse::<usize>().is_err() => &rest[1..],
                _ => rest,
            };
            if rest.is_empty() {
                match child {
                    Value::Array(items) => {
                        let item_schema = field_schema
                            .map(|s| dereferenced(s, root))
                            .and_then(|s| s.get("items"));
                        // A list given whole, as a JSON part, is the list; so is a JSON array
                        // in a part of a list of objects, whose items OpenAPI sends as JSON
                        // (Stream's `upload_sizes: [{"width": 100}]`, without a part type).
                        let items_are_json =
                            item_schema.is_some_and(|schema| admits_object(schema, root));
                        match json_of(leaf, items_are_json) {
                            Some(Value::Array(given)) => items.extend(given),
                            _ => items.push(scalar(leaf, item_schema, root)),
                        }
                    }
                    other => *other = scalar(leaf, field_schema, root),
                }
            } else {
                insert(child, rest, leaf, field_schema, root);
            }
        }
        // A field that is text already, given again with brackets: the text stands.
        _ => {}
    }
}

/// The schema of `name` in the object schema `schema`: its `properties`, those of its `allOf`,
/// `oneOf` and `anyOf` members, else its `additionalProperties`.
fn property<'s>(schema: &'s Value, name: &str, root: &'s Value, depth: usize) -> Option<&'s Value> {
    if depth > DEPTH {
        return None;
    }
    let schema = dereferenced(schema, root);
    if let Some(found) = schema.get("properties").and_then(|p| p.get(name)) {
        return Some(found);
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        let members = schema
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        for member in members {
            if let Some(found) = property(member, name, root, depth + 1) {
                return Some(found);
            }
        }
    }
    schema.get("additionalProperties").filter(|s| s.is_object())
}

/// Whether the object schema `schema` declares `name` among its `properties` (or those of its
/// `allOf`, `oneOf` and `anyOf` members).
fn declares(schema: &Value, name: &str, root: &Value, depth: usize) -> bool {
    if depth > DEPTH {
        return false;
    }
    let schema = dereferenced(schema, root);
    schema
        .get("properties")
        .is_some_and(|properties| properties.get(name).is_some())
        || ["allOf", "oneOf", "anyOf"].into_iter().any(|key| {
            schema
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .any(|member| declares(member, name, root, depth + 1))
        })
}

fn is_array(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(name)) => name == "array",
        Some(Value::Array(names)) => names.iter().any(|name| name == "array"),
        _ => false,
    }
}

/// One field's text as the JSON its schema names, or as text when it names none or the text
/// does not parse.
fn scalar(leaf: Leaf<'_>, schema: Option<&Value>, root: &Value) -> Value {
    let structured = schema.is_some_and(|schema| admits_object(schema, root));
    if let Some(value) = json_of(leaf, structured) {
        return value;
    }
    let kind = schema.map_or(ValueKind::Text, |schema| {
        // The kind is read within the contract file, where the schema's `$ref`s point.
        ValueKind::of(&with_defs(dereferenced(schema, root), root))
    });
    kind.value(leaf.text)
        .unwrap_or_else(|| Value::String(leaf.text.to_string()))
}

/// The field's JSON, when it is declared JSON (any value), or when its schema is an object's
/// (an object or a list: a scalar's text is read by its kind instead).
fn json_of(leaf: Leaf<'_>, structured: bool) -> Option<Value> {
    if !leaf.json && !structured {
        return None;
    }
    let value: Value = ::serde_json::from_str(leaf.text).ok()?;
    (leaf.json || value.is_object() || value.is_array()).then_some(value)
}

/// `schema` with the contract file's `$defs` beside it, so that the refs inside it resolve.
fn with_defs(schema: &Value, root: &Value) -> Value {
    let mut schema = schema.clone();
    if let (Value::Object(fields), Some(defs)) = (&mut schema, root.get("$defs")) {
        fields.entry("$defs").or_insert_with(|| defs.clone());
    }
    schema
}

/// The media type of a body of named parts.
pub const MULTIPART: &str = "multipart/form-data";

/// One part of a `multipart/form-data` body, read by [`split_multipart`].
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedPart {
    /// Its name, from its `Content-Disposition`.
    pub name: String,
    /// Its content as text (bytes that are not UTF-8 become U+FFFD: a file is checked only as
    /// the string its schema says it is).
    pub text: String,
    /// Whether its own Content-Type is JSON.
    pub json: bool,
}

/// The named parts of a `multipart/form-data` body (RFC 7578) whose Content-Type is
/// `content_type`, or why it does not read as parts. Written here rather than taken from a
/// multipart crate: a generated server only checks the parts, and a parser of its own keeps
/// the crate's dependencies as they are. Parts without a name are left out.
pub fn split_multipart(body: &[u8], content_type: &str) -> Result<Vec<OwnedPart>, String> {
    let boundary = content_type
        .split(';')
        .skip(1)
        .find_map(|parameter| {
            let (name, value) = parameter.split_once('=')?;
            name.trim()
                .eq_ignore_ascii_case("boundary")
                .then(|| value.trim().trim_matches('"'))
        })
        .filter(|boundary| !boundary.is_empty())
        .ok_or("its Content-Type names no boundary")?;
    let delimiter = format!("--{boundary}");
    let delimiter = delimiter.as_bytes();
    let find = |from: usize, needle: &[u8]| {
        body.get(from..)?
            .windows(needle.len())
            .position(|window| window == needle)
            .map(|at| from + at)
    };
    // The first delimiter opens the body or a line after a preamble.
    let mut at = match find(0, delimiter) {
        Some(0) => delimiter.len(),
        _ => {
            let mut opening = b"\r\n".to_vec();
            opening.extend_from_slice(delimiter);
            find(0, &opening).ok_or("its parts are not separated by its boundary")? + opening.len()
        }
    };
    let mut closing = b"\r\n".to_vec();
    closing.extend_from_slice(delimiter);
    let mut parts = Vec::new();
    loop {
        match body.get(at..at + 2) {
            Some(b"--") => return Ok(parts),
            Some(b"\r\n") => at += 2,
            _ => return Err("a boundary is not followed by a line end".to_string()),
        }
        let headers_end = find(at, b"\r\n\r\n").ok_or("a part's headers do not end")?;
        let headers = String::from_utf8_lossy(&body[at..headers_end]);
        let content_start = headers_end + 4;
        let content_end =
            find(headers_end + 2, &closing).ok_or("the body ends before its closing boundary")?;
        let content = body.get(content_start..content_end).unwrap_or_default();
        let mut name = None;
        let mut json = false;
        for line in headers.split("\r\n") {
            let Some((header, value)) = line.split_once(':') else {
                continue;
            };
            let header = header.trim();
            if header.eq_ignore_ascii_case("content-disposition") {
                name = value.split(';').skip(1).find_map(|parameter| {
                    let (key, value) = parameter.split_once('=')?;
                    (key.trim() == "name").then(|| value.trim().trim_matches('"').to_string())
                });
            } else if header.eq_ignore_ascii_case("content-type") {
                json = super::manifest::is_json(&super::manifest::essence(value.trim()));
            }
        }
        if let Some(name) = name {
            parts.push(OwnedPart {
                name,
                text: String::from_utf8_lossy(content).into_owned(),
                json,
            });
        }
        at = content_end + closing.len();
    }
}

/// A `multipart/form-data` body's parts as the JSON object `schema` checks, each read as
/// [`decode_parts`] reads a field.
pub fn decode_multipart(body: &[u8], content_type: &str, schema: &Value) -> Result<Value, String> {
    let parts = split_multipart(body, content_type)?;
    Ok(decode_parts(
        parts.iter().map(|part| Part {
            name: &part.name,
            text: &part.text,
            json: part.json,
        }),
        schema,
    ))
}

#[cfg(test)]
mod tests {
    use super::{
        Encoding, OwnedPart, Part, decode, decode_encoded, decode_multipart, decode_parts,
        holds_fields, split_multipart,
    };
    use serde_json::{Value, json};

    /// A body's schema that says it is no object (Jira's upload: one binary string; a list)
    /// holds bytes, not fields; one that may be an object, through `$ref`, `allOf` or no
    /// `type` at all, holds fields.
    #[test]
    fn only_a_schema_that_may_be_an_object_holds_fields() {
        for schema in [
            json!({"type": "object", "properties": {"file": {"type": "string"}}}),
            json!({"$ref": "#/$defs/Upload", "$defs": {"Upload": {"type": "object"}}}),
            json!({"allOf": [{"$ref": "#/$defs/Base"}, {"properties": {"n": {}}}], "$defs": {"Base": {}}}),
            json!({"type": ["object", "null"]}),
            json!({}),
        ] {
            assert!(holds_fields(&schema), "{schema}");
        }
        for schema in [
            json!({"type": "string", "format": "binary"}),
            json!({"$ref": "#/$defs/File", "$defs": {"File": {"type": "string"}}}),
            json!({"type": "array", "items": {"type": "string", "format": "binary"}}),
        ] {
            assert!(!holds_fields(&schema), "{schema}");
        }
    }

    #[test]
    fn fields_are_read_as_the_forms_encoding_sends_them() {
        let schema = json!({
            "type": "object",
            "properties": {
                "codes": {"type": "array", "items": {"type": "integer"}},
                "tags": {"type": "array", "items": {"type": "string"}},
                "meta": {"type": "object", "properties": {"n": {"type": "integer"}}},
                "note": {"type": "string"}
            }
        });
        let encoding = Encoding {
            delimited: [("codes".into(), ",".into()), ("tags".into(), "|".into())].into(),
            json: vec!["meta".into(), "note".into()],
        };
        let read = |body: &str| decode_encoded(body.as_bytes(), &schema, &encoding);
        assert_eq!(
            read("codes=1,2,x&tags=a%7Cb+c&meta=%7B%22n%22%3A2%7D&note=%22hi%22"),
            json!({"codes": [1, 2, "x"], "tags": ["a", "b c"], "meta": {"n": 2}, "note": "hi"})
        );
        // One item is a list of one; an empty value an empty list.
        assert_eq!(read("codes=7&tags="), json!({"codes": [7], "tags": []}));
        // Without the encoding, the same text is one item.
        assert_eq!(decode(b"codes=1,2", &schema), json!({"codes": ["1,2"]}));
    }

    fn form(body: &str, schema: Value) -> Value {
        decode(body.as_bytes(), &schema)
    }

    #[test]
    fn fields_are_parsed_by_their_property_schema() {
        let schema = json!({
            "type": "object",
            "properties": {
                "To": {"type": "string"},
                "Attempt": {"type": "integer"},
                "MaxPrice": {"type": "number"},
                "ProvideFeedback": {"type": "boolean"},
                "Status": {"$ref": "#/$defs/status"}
            },
            "$defs": {"status": {"type": "string", "enum": ["active"]}}
        });
        assert_eq!(
            form(
                "To=%2B15558675310&Attempt=2&MaxPrice=0.5&ProvideFeedback=true&Status=active&Extra=x+y",
                schema.clone()
            ),
            json!({"To": "+15558675310", "Attempt": 2, "MaxPrice": 0.5,
                   "ProvideFeedback": true, "Status": "active", "Extra": "x y"})
        );
        // Text that is not the field's kind stays text, for the schema to name.
        assert_eq!(form("Attempt=abc", schema), json!({"Attempt": "abc"}));
    }

    #[test]
    fn lists_come_from_repeated_keys_and_array_properties() {
        let schema = json!({
            "type": "object",
            "properties": {
                "MediaUrl": {"type": "array", "items": {"type": "string"}},
                "Ids": {"type": "array", "items": {"type": "integer"}},
                "Name": {"type": "string"}
            }
        });
        assert_eq!(
            form("MediaUrl=a&MediaUrl=b&Ids=1&Name=x", schema.clone()),
            json!({"MediaUrl": ["a", "b"], "Ids": [1], "Name": "x"})
        );
        // A single field given twice is a list, which its schema refuses.
        assert_eq!(form("Name=x&Name=y", schema), json!({"Name": ["x", "y"]}));
    }

    #[test]
    fn brackets_nest_objects_and_lists() {
        let schema = json!({
            "type": "object",
            "properties": {
                "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
                "items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
                "expand": {"type": "array", "items": {"type": "string"}}
            },
            "$defs": {"item": {"type": "object", "properties": {"quantity": {"type": "integer"}}}}
        });
        assert_eq!(
            form(
                "metadata[order]=7&items[0][price]=p1&items[0][quantity]=2&items[1][quantity]=3&expand[]=a&expand[]=b",
                schema
            ),
            json!({
                "metadata": {"order": "7"},
                "items": [{"price": "p1", "quantity": 2}, {"quantity": 3}],
                "expand": ["a", "b"]
            })
        );
    }

    #[test]
    fn a_bracketed_name_the_schema_declares_is_that_property() {
        let schema = json!({
            "type": "object",
            "properties": {
                "template[name]": {"type": "string"},
                "template[pages]": {"type": "integer"},
                "meta": {"type": "object", "properties": {"a": {"type": "string"}}}
            }
        });
        assert_eq!(
            form(
                "template%5Bname%5D=Invoice&template%5Bpages%5D=3&meta[a]=x",
                schema
            ),
            json!({"template[name]": "Invoice", "template[pages]": 3, "meta": {"a": "x"}})
        );
        // Declared in an `allOf` part too; undeclared brackets still nest.
        let schema = json!({"allOf": [{"properties": {"user[email]": {"type": "string"}}}]});
        assert_eq!(
            form("user[email]=a@b.c&user[age]=4", schema),
            json!({"user[email]": "a@b.c", "user": {"age": "4"}})
        );
    }

    #[test]
    fn an_empty_body_is_an_empty_object() {
        assert_eq!(form("", json!({"type": "object"})), json!({}));
    }

    #[test]
    fn an_object_field_is_read_as_json() {
        let schema = json!({
            "type": "object",
            "properties": {
                "attributes": {"$ref": "#/$defs/attributes"},
                "note": {"type": "string"}
            },
            "$defs": {"attributes": {"type": "object", "properties": {"size": {"type": "integer"}}}}
        });
        // A string property keeps JSON-looking text as text; an object's text that is no JSON
        // stays text, for the schema to refuse.
        assert_eq!(
            form(
                "attributes=%7B%22size%22%3A3%7D&note=%7B%22a%22%3A1%7D",
                schema.clone()
            ),
            json!({"attributes": {"size": 3}, "note": "{\"a\":1}"})
        );
        assert_eq!(form("attributes=big", schema), json!({"attributes": "big"}));
        // An object or `""` (Stripe's `metadata`, which `""` clears): the object's JSON, or
        // the empty text.
        let emptyable = json!({
            "type": "object",
            "properties": {"metadata": {"anyOf": [
                {"type": "object", "additionalProperties": {"type": "string"}},
                {"type": "string", "enum": [""]}
            ]}}
        });
        assert_eq!(
            form("metadata=%7B%22k%22%3A%22v%22%7D", emptyable.clone()),
            json!({"metadata": {"k": "v"}})
        );
        assert_eq!(form("metadata=", emptyable), json!({"metadata": ""}));
    }

    #[test]
    fn a_part_declared_json_is_its_json_whatever_its_schema() {
        let schema = json!({
            "type": "object",
            "properties": {
                "tags": {"type": "array", "items": {"type": "string"}},
                "count": {"type": "integer"},
                "file": {"type": "string", "format": "binary"}
            }
        });
        let parts = [
            Part {
                name: "tags",
                text: r#"["a","b"]"#,
                json: true,
            },
            Part {
                name: "count",
                text: "7",
                json: false,
            },
            Part {
                name: "file",
                text: "[1, 2]",
                json: false,
            },
        ];
        assert_eq!(
            decode_parts(parts, &schema),
            json!({"tags": ["a", "b"], "count": 7, "file": "[1, 2]"})
        );
        // Without the declaration, the same text is one item of the list.
        let plain = [Part {
            name: "tags",
            text: r#"["a","b"]"#,
            json: false,
        }];
        assert_eq!(
            decode_parts(plain, &schema),
            json!({"tags": ["[\"a\",\"b\"]"]})
        );
        // A list of objects, whose items travel as JSON: a JSON array in one part without a
        // type is the list (Stream's `upload_sizes`), as one object per part is.
        let sizes = json!({
            "type": "object",
            "properties": {"sizes": {"type": "array", "items": {"type": "object"}}}
        });
        let whole = [Part {
            name: "sizes",
            text: r#"[{"width":100},{"width":200}]"#,
            json: false,
        }];
        assert_eq!(
            decode_parts(whole, &sizes),
            json!({"sizes": [{"width": 100}, {"width": 200}]})
        );
        let each = [
            Part {
                name: "sizes",
                text: r#"{"width":100}"#,
                json: false,
            },
            Part {
                name: "sizes",
                text: r#"{"width":200}"#,
                json: false,
            },
        ];
        assert_eq!(
            decode_parts(each, &sizes),
            json!({"sizes": [{"width": 100}, {"width": 200}]})
        );
    }

    #[test]
    fn a_multipart_body_is_read_as_its_named_parts() {
        let body = "preamble\r\n--xyz\r\n\
                    Content-Disposition: form-data; name=\"meta\"\r\n\
                    Content-Type: application/json\r\n\r\n{\"n\": 1}\r\n\
                    --xyz\r\nContent-Disposition: form-data\r\n\r\nnameless\r\n\
                    --xyz\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\n\
                    line one\r\nline two\r\n--xyz--\r\nepilogue";
        let parts = split_multipart(body.as_bytes(), "multipart/form-data; boundary=\"xyz\"");
        assert_eq!(
            parts.unwrap(),
            [
                OwnedPart {
                    name: "meta".into(),
                    text: "{\"n\": 1}".into(),
                    json: true,
                },
                OwnedPart {
                    name: "file".into(),
                    text: "line one\r\nline two".into(),
                    json: false,
                },
            ]
        );
        let schema = json!({"type": "object", "properties": {"count": {"type": "integer"}}});
        let counted = "--b\r\nContent-Disposition: form-data; name=\"count\"\r\n\r\n7\r\n--b--";
        assert_eq!(
            decode_multipart(
                counted.as_bytes(),
                "multipart/form-data; boundary=b",
                &schema
            ),
            Ok(json!({"count": 7}))
        );
        for (body, content_type, why) in [
            ("--b\r\n", "multipart/form-data", "names no boundary"),
            (
                "garbage",
                "multipart/form-data; boundary=b",
                "not separated",
            ),
            (
                "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx",
                "multipart/form-data; boundary=b",
                "closing boundary",
            ),
        ] {
            let err = split_multipart(body.as_bytes(), content_type).unwrap_err();
            assert!(err.contains(why), "{body:?}: {err}");
        }
    }
}
