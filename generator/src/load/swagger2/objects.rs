//! The Swagger 2.0 objects that become one OpenAPI 3.0 object each: parameters and headers
//! (their type keywords move into a schema), schemas, and security schemes.

use serde_json::{Map, Value, json};

/// The keywords a 2.0 parameter, header or items object shares with a schema.
const SCHEMA_KEYWORDS: [&str; 17] = [
    "type",
    "format",
    "items",
    "default",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "enum",
    "multipleOf",
    "x-nullable",
];

/// A 3.0 Parameter or Header Object from a 2.0 one: the type keywords move into `schema`.
pub(super) fn parameter_of(parameter: &Value) -> Value {
    let Value::Object(source) = parameter else {
        return parameter.clone();
    };
    if source.contains_key("$ref") {
        return parameter.clone();
    }
    let location = source.get("in").and_then(Value::as_str).unwrap_or("header");
    let mut out = Map::new();
    for (key, value) in source {
        match key.as_str() {
            "collectionFormat" | "x-example" => {}
            key if SCHEMA_KEYWORDS.contains(&key) => {}
            _ => {
                out.insert(key.to_owned(), value.clone());
            }
        }
    }
    if let Some(example) = source.get("x-example") {
        out.insert("example".to_owned(), example.clone());
    }
    if source.contains_key("type") || source.contains_key("schema") {
        if !out.contains_key("schema") {
            out.insert("schema".to_owned(), schema_of(parameter));
        }
    } else {
        // 3.0 asks for a schema or content; a 2.0 parameter without a type allowed any value.
        out.insert("schema".to_owned(), json!({}));
    }
    if let Some((style, explode)) = array_style(parameter, location) {
        out.insert("style".to_owned(), style.into());
        out.insert("explode".to_owned(), explode.into());
    }
    Value::Object(out)
}

/// The schema a 2.0 parameter, header or items object describes.
pub(super) fn schema_of(parameter: &Value) -> Value {
    let mut schema = Map::new();
    for (key, value) in parameter.as_object().into_iter().flatten() {
        if !SCHEMA_KEYWORDS.contains(&key.as_str()) {
            continue;
        }
        let value = if key == "items" {
            schema_of(value)
        } else {
            value.clone()
        };
        schema.insert(key.clone(), value);
    }
    let mut schema = Value::Object(schema);
    upgrade_schema(&mut schema);
    schema
}

/// The `style` and `explode` of an array parameter's `collectionFormat` (`csv` when none is
/// written), where they differ from nothing at all.
pub(super) fn array_style(parameter: &Value, location: &str) -> Option<(&'static str, bool)> {
    if parameter.get("type").and_then(Value::as_str) != Some("array") {
        return None;
    }
    let format = parameter
        .get("collectionFormat")
        .and_then(Value::as_str)
        .unwrap_or("csv");
    let form_like = matches!(location, "query" | "formData" | "cookie");
    Some(match (format, form_like) {
        ("multi", _) => ("form", true),
        ("ssv", true) => ("spaceDelimited", false),
        ("pipes", true) => ("pipeDelimited", false),
        (_, true) => ("form", false),
        (_, false) => ("simple", false),
    })
}

/// Upgrades a 2.0 Schema Object and every schema below it.
pub(super) fn upgrade_schema(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    if object.get("type").and_then(Value::as_str) == Some("file") {
        object.insert("type".to_owned(), "string".into());
        object.insert("format".to_owned(), "binary".into());
    }
    // Removed whatever its value; only `true` says anything.
    if object.shift_remove("x-nullable") == Some(Value::Bool(true))
        && !object.contains_key("nullable")
    {
        object.insert("nullable".to_owned(), true.into());
    }
    if let Some(Value::String(property)) = object.get("discriminator") {
        let property = property.clone();
        object.insert(
            "discriminator".to_owned(),
            json!({ "propertyName": property }),
        );
    }
    for (key, value) in object.iter_mut() {
        match key.as_str() {
            "properties" => {
                if let Value::Object(properties) = value {
                    properties.values_mut().for_each(upgrade_schema);
                }
            }
            "allOf" | "anyOf" | "oneOf" => {
                if let Value::Array(parts) = value {
                    parts.iter_mut().for_each(upgrade_schema);
                }
            }
            "items" => match value {
                Value::Array(items) => items.iter_mut().for_each(upgrade_schema),
                other => upgrade_schema(other),
            },
            "additionalProperties" | "not" => upgrade_schema(value),
            _ => {}
        }
    }
}

/// A 3.0 Security Scheme Object from a 2.0 one.
pub(super) fn security_scheme(scheme: &Value) -> Value {
    let Value::Object(source) = scheme else {
        return scheme.clone();
    };
    let kept = |out: &mut Map<String, Value>| {
        for (key, value) in source {
            if key == "description" || key.starts_with("x-") {
                out.insert(key.clone(), value.clone());
            }
        }
    };
    let mut out = Map::new();
    match source.get("type").and_then(Value::as_str) {
        Some("basic") => {
            out.insert("type".to_owned(), "http".into());
            out.insert("scheme".to_owned(), "basic".into());
            kept(&mut out);
        }
        Some("oauth2") => {
            out.insert("type".to_owned(), "oauth2".into());
            kept(&mut out);
            let scopes = source.get("scopes").cloned().unwrap_or_else(|| json!({}));
            let url = |key: &str| source.get(key).cloned().unwrap_or_else(|| "".into());
            let (flow, flow_object) = match source.get("flow").and_then(Value::as_str) {
                Some("implicit") => (
                    "implicit",
                    json!({ "authorizationUrl": url("authorizationUrl"), "scopes": scopes }),
                ),
                Some("password") => (
                    "password",
                    json!({ "tokenUrl": url("tokenUrl"), "scopes": scopes }),
                ),
                Some("application") => (
                    "clientCredentials",
                    json!({ "tokenUrl": url("tokenUrl"), "scopes": scopes }),
                ),
                _ => (
                    "authorizationCode",
                    json!({
                        "authorizationUrl": url("authorizationUrl"),
                        "tokenUrl": url("tokenUrl"),
                        "scopes": scopes,
                    }),
                ),
            };
            out.insert("flows".to_owned(), json!({ flow: flow_object }));
        }
        _ => return scheme.clone(),
    }
    Value::Object(out)
}
