//! Reads a Swagger 2.0 document as the OpenAPI 3.0 document it describes, before the 3.0 → 3.1
//! normalisation, so nothing after the loader knows which of the three it was written in.
//!
//! The upgrade follows what OpenAPI 3.0 says each 2.0 construct became (and what
//! `swagger2openapi`, the converter the APIs.guru directory uses, does):
//! - `host`, `basePath` and `schemes` become `servers` (`https` when no scheme is given);
//! - `definitions`, `parameters`, `responses` and `securityDefinitions` move under
//!   `components`; a global `in: body` parameter becomes a request body component;
//! - a `body` parameter becomes the operation's `requestBody`, and `formData` parameters
//!   one form schema, each under the media types `consumes` names;
//! - a parameter's or header's own type keywords move into its `schema`, and
//!   `collectionFormat` becomes `style` and `explode` (2.0's default, `csv`, is not 3.0's);
//! - a response's `schema` and `examples` go under `content`, one entry per `produces` type;
//! - `type: file` becomes a binary string, `x-nullable` becomes `nullable`, and a
//!   discriminator's property name becomes a Discriminator Object;
//! - `oauth2` flows and `basic` security take their 3.0 spelling.
//!
//! [`Renames`] maps each moved place back to where it was written, so an error or a warning
//! about the upgraded document still gives the line and column in the 2.0 text.

mod objects;
mod operations;

use serde_json::{Map, Value, json};

use objects::{security_scheme, upgrade_schema};
use operations::Upgrader;

/// Where the upgrade moved things: pairs of (prefix in the upgraded document, prefix in the
/// source), as pointer segments. The longest matching prefix wins.
#[derive(Debug, Clone, Default)]
pub(crate) struct Renames {
    pairs: Vec<(Vec<String>, Vec<String>)>,
}

impl Renames {
    fn add<A: AsRef<str>, B: AsRef<str>>(&mut self, upgraded: &[A], source: &[B]) {
        let upgraded: Vec<String> = upgraded.iter().map(|s| s.as_ref().to_owned()).collect();
        let source: Vec<String> = source.iter().map(|s| s.as_ref().to_owned()).collect();
        if upgraded != source {
            self.pairs.push((upgraded, source));
        }
    }

    /// The source pointer of a place in the upgraded document.
    pub(crate) fn backward(&self, segments: &[String]) -> Vec<String> {
        let best = self
            .pairs
            .iter()
            .filter(|(upgraded, _)| segments.starts_with(upgraded))
            .max_by_key(|(upgraded, _)| upgraded.len());
        match best {
            Some((upgraded, source)) => {
                let mut out = source.clone();
                out.extend_from_slice(&segments[upgraded.len()..]);
                out
            }
            None => segments.to_vec(),
        }
    }
}

const JSON: &str = "application/json";
const FORM: &str = "application/x-www-form-urlencoded";
const MULTIPART: &str = "multipart/form-data";

/// Rewrites a Swagger 2.0 document (a mapping with `swagger: "2.0"`) into OpenAPI 3.0.3 in
/// place and says where things moved.
pub(crate) fn upgrade(root: &mut Value) -> Renames {
    let Value::Object(source) = std::mem::take(root) else {
        return Renames::default();
    };
    let mut upgrader = Upgrader {
        consumes: media_list(source.get("consumes")),
        produces: media_list(source.get("produces")),
        global_parameters: match source.get("parameters") {
            Some(Value::Object(parameters)) => parameters.clone(),
            _ => Map::new(),
        },
        renames: Renames::default(),
    };
    let mut out = Map::new();
    out.insert("openapi".to_owned(), "3.0.3".into());
    // Schemas that bundling brought in from other files are already components.
    let mut components = match source.get("components") {
        Some(Value::Object(components)) => components.clone(),
        _ => Map::new(),
    };
    if let Some(Value::Object(schemas)) = components.get_mut("schemas") {
        schemas.values_mut().for_each(upgrade_schema);
    }
    let mut servers_written = false;
    for (key, value) in source.iter() {
        match key.as_str() {
            "swagger" | "consumes" | "produces" | "schemes" | "basePath" | "components" => {}
            "host" => {
                out.insert("servers".to_owned(), servers(&source));
                upgrader.renames.add(&["servers"], &["host"]);
                servers_written = true;
            }
            "definitions" => {
                let mut schemas = match components.shift_remove("schemas") {
                    Some(Value::Object(bundled)) => bundled,
                    _ => Map::new(),
                };
                if let Value::Object(definitions) = value {
                    for (name, schema) in definitions {
                        let mut schema = schema.clone();
                        upgrade_schema(&mut schema);
                        schemas.insert(name.clone(), schema);
                    }
                }
                components.insert("schemas".to_owned(), Value::Object(schemas));
                upgrader
                    .renames
                    .add(&["components", "schemas"], &["definitions"]);
            }
            "parameters" => upgrader.global_parameters_into(&mut components),
            "responses" => {
                let mut responses = Map::new();
                if let Value::Object(source_responses) = value {
                    for (name, response) in source_responses {
                        let at = segments(&["components", "responses", name]);
                        let from = segments(&["responses", name]);
                        let produces = upgrader.produces.clone();
                        responses.insert(
                            name.clone(),
                            upgrader.response(response, &produces, &at, &from),
                        );
                    }
                }
                components.insert("responses".to_owned(), Value::Object(responses));
                upgrader
                    .renames
                    .add(&["components", "responses"], &["responses"]);
            }
            "securityDefinitions" => {
                let mut schemes = Map::new();
                if let Value::Object(definitions) = value {
                    for (name, scheme) in definitions {
                        schemes.insert(name.clone(), security_scheme(scheme));
                    }
                }
                components.insert("securitySchemes".to_owned(), Value::Object(schemes));
                upgrader
                    .renames
                    .add(&["components", "securitySchemes"], &["securityDefinitions"]);
            }
            "paths" => {
                let mut paths = value.clone();
                if let Value::Object(paths) = &mut paths {
                    for (path, item) in paths.iter_mut() {
                        upgrader.path_item(item, path);
                    }
                }
                out.insert("paths".to_owned(), paths);
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    if !servers_written && let Some(Value::String(base)) = source.get("basePath") {
        // Without a host, the base path alone is the (relative) server.
        out.insert("servers".to_owned(), json!([{ "url": base }]));
        upgrader.renames.add(&["servers"], &["basePath"]);
    }
    if !out.contains_key("paths") {
        out.insert("paths".to_owned(), Value::Object(Map::new()));
    }
    if !components.is_empty() {
        out.insert("components".to_owned(), Value::Object(components));
    }
    let mut upgraded = Value::Object(out);
    rewrite_refs(&mut upgraded);
    *root = upgraded;
    upgrader.renames
}

/// `servers` from `schemes`, `host` and `basePath`.
fn servers(source: &Map<String, Value>) -> Value {
    let host = source
        .get("host")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let base = source
        .get("basePath")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let base = if base == "/" { "" } else { base };
    let mut schemes: Vec<&str> = match source.get("schemes") {
        Some(Value::Array(schemes)) => schemes
            .iter()
            .filter_map(Value::as_str)
            .filter(|s| matches!(s.to_ascii_lowercase().as_str(), "http" | "https"))
            .collect(),
        _ => Vec::new(),
    };
    if schemes.is_empty() {
        schemes.push("https");
    }
    Value::Array(
        schemes
            .into_iter()
            .map(|scheme| json!({ "url": format!("{}://{host}{base}", scheme.to_ascii_lowercase()) }))
            .collect(),
    )
}

/// The media types of a `consumes` or `produces` list.
fn media_list(list: Option<&Value>) -> Vec<String> {
    match list {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        Some(Value::String(one)) => vec![one.clone()],
        _ => Vec::new(),
    }
}

/// The media types a body is written in: those listed, or JSON when none is.
fn or_json(consumes: &[String]) -> Vec<String> {
    if consumes.is_empty() {
        vec![JSON.to_owned()]
    } else {
        consumes.to_vec()
    }
}

/// Owned pointer segments.
fn segments(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|part| (*part).to_owned()).collect()
}

fn non_empty_or(list: Vec<String>, fallback: &[String]) -> Vec<String> {
    if list.is_empty() {
        fallback.to_vec()
    } else {
        list
    }
}

/// Where the upgrade moves references' targets: 2.0 prefix, 3.0 prefix.
const MOVED_TARGETS: [(&str, &str); 3] = [
    ("#/definitions/", "#/components/schemas/"),
    ("#/parameters/", "#/components/parameters/"),
    ("#/responses/", "#/components/responses/"),
];

/// A reference's target as the 2.0 document wrote it.
pub(crate) fn written_ref(target: &str) -> String {
    MOVED_TARGETS
        .iter()
        .find_map(|(written, moved)| {
            target
                .strip_prefix(moved)
                .map(|rest| format!("{written}{rest}"))
        })
        .unwrap_or_else(|| target.to_owned())
}

/// Points every reference at where its target moved.
fn rewrite_refs(value: &mut Value) {
    match value {
        Value::Object(object) => {
            if let Some(Value::String(target)) = object.get_mut("$ref") {
                for (from, to) in MOVED_TARGETS {
                    if let Some(rest) = target.strip_prefix(from) {
                        *target = format!("{to}{rest}");
                        break;
                    }
                }
            }
            object.values_mut().for_each(rewrite_refs);
        }
        Value::Array(items) => items.iter_mut().for_each(rewrite_refs),
        _ => {}
    }
}

#[cfg(test)]
mod tests;
