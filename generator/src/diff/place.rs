//! Pointers read back as prose: where a finding is (`Pet.owner.name`, `POST /pets request
//! body`) and what it belongs to (an operation, a webhook, a component).

use serde_json::Value;

use super::finding::Group;
use crate::load::{Document, decode_pointer};

/// `METHOD /path` of an operation.
pub(crate) fn operation_label(method: &str, path: &str) -> String {
    format!("{} {path}", method.to_ascii_uppercase())
}

/// `webhook NAME`.
pub(crate) fn webhook_label(name: &str) -> String {
    format!("webhook {name}")
}

/// The group a pointer belongs to.
pub(crate) fn group(pointer: &str) -> Group {
    let segments = decode_pointer(pointer).unwrap_or_default();
    match segments.as_slice() {
        [first, name, ..] if first == "webhooks" => Group::Webhook(name.clone()),
        [first, path, method, ..] if first == "paths" => {
            Group::Operation(operation_label(method, path))
        }
        [first, kind, name, ..] if first == "components" && kind == "schemas" => {
            Group::Component(name.clone())
        }
        _ => Group::Api,
    }
}

/// Where a pointer is, in prose: the message it belongs to and the property path within it.
/// Keywords at the end (`maxLength`, `enum/2`) are left out: the finding says what changed.
pub(crate) fn describe(doc: &Document, pointer: &str) -> String {
    let segments = decode_pointer(pointer).unwrap_or_default();
    let mut rest: &[String] = &segments;
    let mut owner = String::new();
    match rest {
        [first, kind, name, tail @ ..] if first == "components" => {
            owner = match kind.as_str() {
                "schemas" => name.clone(),
                "parameters" => format!("parameter {}", named(doc, &segments[..3], name)),
                "requestBodies" => format!("request body {name}"),
                "responses" => format!("response {name}"),
                "headers" => format!("header {name}"),
                "securitySchemes" => format!("security scheme {name}"),
                other => format!("{other} {name}"),
            };
            rest = tail;
        }
        [first, path, method, tail @ ..] if first == "paths" => {
            owner = operation_label(method, path);
            rest = tail;
        }
        [first, name, _method, tail @ ..] if first == "webhooks" => {
            owner = webhook_label(name);
            rest = tail;
        }
        _ => {}
    }
    let webhook = segments.first().is_some_and(|s| s == "webhooks");
    let mut parts: Vec<String> = Vec::new();
    let mut schema_path = String::new();
    let mut index = segments.len() - rest.len();
    let mut iter = rest.iter().peekable();
    while let Some(segment) = iter.next() {
        index += 1;
        let next = iter.peek().map(|s| s.as_str());
        match (segment.as_str(), next) {
            ("parameters", Some(i)) => {
                let name = named(doc, &segments[..index + 1], i);
                parts.push(format!("parameter {name}"));
                iter.next();
                index += 1;
            }
            ("requestBody", _) => {
                parts.push(if webhook { "payload" } else { "request body" }.into())
            }
            ("responses", Some(status)) => {
                parts.push(format!(
                    "{} {status}",
                    if webhook { "reply" } else { "response" }
                ));
                iter.next();
                index += 1;
            }
            ("headers", Some(name)) => {
                parts.push(format!("header {name}"));
                iter.next();
                index += 1;
            }
            ("content", Some(_media)) => {
                iter.next();
                index += 1;
            }
            ("schema", _) => {}
            ("properties", Some(name)) => {
                schema_path.push('.');
                schema_path.push_str(name);
                iter.next();
                index += 1;
            }
            ("items", _) => schema_path.push_str("[]"),
            ("additionalProperties", _) => schema_path.push_str(".*"),
            // Members of an `allOf` are compared merged: the member is no part of the place.
            ("allOf", Some(_)) => {
                iter.next();
                index += 1;
            }
            ("anyOf" | "oneOf", Some(i)) => {
                schema_path.push_str(&format!("/{segment}[{i}]"));
                iter.next();
                index += 1;
            }
            // A keyword: the end of the place.
            _ => break,
        }
    }
    let mut text = owner;
    for part in parts {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(&part);
    }
    if !schema_path.is_empty() {
        let path = schema_path.trim_start_matches('.');
        if text.is_empty() {
            text = path.to_string();
        } else if segments.first().is_some_and(|s| s == "components")
            && segments.get(1).is_some_and(|s| s == "schemas")
        {
            text.push_str(&schema_path);
        } else {
            text.push_str(&format!(" `{path}`"));
        }
    }
    if text.is_empty() {
        "the document".to_string()
    } else {
        text
    }
}

/// The `name` (and `in`) of the parameter object at `segments` (following a `$ref`), or the
/// fallback.
fn named(doc: &Document, segments: &[String], fallback: &str) -> String {
    let Some(value) = doc.pointer(&crate::load::encode_pointer(segments)) else {
        return fallback.to_string();
    };
    let value = match value.get("$ref").and_then(Value::as_str) {
        Some(target) => doc.pointer(target).unwrap_or(value),
        None => value,
    };
    match (
        value.get("name").and_then(Value::as_str),
        value.get("in").and_then(Value::as_str),
    ) {
        (Some(name), Some(location)) => format!("{name} ({location})"),
        (Some(name), None) => name.to_string(),
        _ => fallback.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> Document {
        crate::load::load_str(
            r#"
openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /pets/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: string, maxLength: 3}}
      responses:
        '200':
          description: ok
          headers:
            X-Rate: {schema: {type: integer}}
          content:
            application/json:
              schema:
                type: object
                properties:
                  tags: {type: array, items: {type: string}}
components:
  schemas:
    Pet:
      type: object
      properties:
        owner: {type: object, properties: {name: {type: string}}}
"#,
            "t.yaml",
        )
        .unwrap()
    }

    #[test]
    fn pointers_read_as_places() {
        let doc = doc();
        let cases = [
            (
                "#/paths/~1pets~1{id}/get/parameters/0/schema/maxLength",
                "GET /pets/{id} parameter id (path)",
            ),
            (
                "#/paths/~1pets~1{id}/get/responses/200/content/application~1json/schema/properties/tags/items",
                "GET /pets/{id} response 200 `tags[]`",
            ),
            (
                "#/paths/~1pets~1{id}/get/responses/200/headers/X-Rate/schema/type",
                "GET /pets/{id} response 200 header X-Rate",
            ),
            (
                "#/components/schemas/Pet/properties/owner/properties/name/type",
                "Pet.owner.name",
            ),
            ("#/components/schemas/Pet", "Pet"),
        ];
        for (pointer, expected) in cases {
            assert_eq!(describe(&doc, pointer), expected, "{pointer}");
        }
    }

    #[test]
    fn pointers_belong_to_groups() {
        assert_eq!(
            group("#/paths/~1pets/get/responses/200"),
            Group::Operation("GET /pets".into())
        );
        assert_eq!(
            group("#/components/schemas/Pet/properties/a"),
            Group::Component("Pet".into())
        );
        assert_eq!(
            group("#/webhooks/newPet/post"),
            Group::Webhook("newPet".into())
        );
        assert_eq!(group("#/servers/0/url"), Group::Api);
    }
}
