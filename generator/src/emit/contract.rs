//! The contract: one self-contained JSON Schema (draft 2020-12) per component schema and per
//! message, and `manifest.json`, which maps each operation (method and path template) and each
//! webhook to its parameter, header, security and body rules. The validator and the generated
//! server both check against these files, so there is one set of rules.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

mod discriminator;
mod file_names;
mod inheritance;
mod one_way;

pub use file_names::ContractFiles;

use one_way::Flow;

use super::GeneratedFile;
use crate::error::{Error, Result};
use crate::ir::{Api, MessagePart, Operation, ParamLocation, SecurityKind, StatusSpec};
use crate::manifest::{self, Manifest};

const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";
const COMPONENT_PREFIX: &str = "#/components/schemas/";

/// The contract files, under `schemas/`.
pub fn emit(api: &Api, crate_name: &str) -> Result<Vec<GeneratedFile>> {
    let components: BTreeMap<&str, &Value> = api
        .schemas
        .iter()
        .map(|(name, schema)| (name.as_str(), schema))
        .collect();
    let names = ContractFiles::of(api);
    let mut files = Vec::new();
    let mut component_files = BTreeMap::new();
    for (name, _) in &api.schemas {
        let path = names.component(name);
        let root = json!({ "$ref": format!("{COMPONENT_PREFIX}{}", escape(name)) });
        files.push(schema_file(crate_name, &path, &root, &components, None)?);
        component_files.insert(name.clone(), path);
    }

    let mut operations = Vec::new();
    for op in &api.operations {
        operations.push(operation_entry(
            op,
            "operations",
            &op.id,
            crate_name,
            &components,
            &names,
            &mut files,
        )?);
    }
    let mut webhooks = Vec::new();
    for hook in &api.webhooks {
        let mut entry = operation_entry(
            &hook.operation,
            "webhooks",
            &hook.name,
            crate_name,
            &components,
            &names,
            &mut files,
        )?;
        entry.name = Some(hook.name.clone());
        entry.delivered_anywhere = !hook.path_documented;
        webhooks.push(entry);
    }

    let security_schemes = api
        .security_schemes
        .iter()
        .map(|scheme| {
            let (kind, location, name, http) = match &scheme.kind {
                SecurityKind::ApiKey { name, location } => (
                    "apiKey",
                    Some(self::location(*location)),
                    Some(name.clone()),
                    None,
                ),
                SecurityKind::Bearer => ("http", None, None, Some("bearer")),
                SecurityKind::Basic => ("http", None, None, Some("basic")),
                SecurityKind::Other(kind) => (kind.as_str(), None, None, None),
            };
            let rule = manifest::SecurityScheme {
                kind: kind.to_string(),
                location,
                name,
                scheme: http.map(str::to_string),
            };
            (scheme.key.clone(), rule)
        })
        .collect();

    let manifest = Manifest {
        format: manifest::FORMAT,
        title: api.title.clone(),
        version: api.version.clone(),
        base_path: api.base_path(),
        servers: api
            .servers
            .iter()
            .map(|server| manifest::Server {
                url: server.url.clone(),
                description: server.description.clone(),
                variables: server
                    .variables
                    .iter()
                    .map(|v| {
                        let variable = manifest::ServerVariable {
                            default: v.default.clone(),
                            allowed: v.allowed.clone(),
                        };
                        (v.name.clone(), variable)
                    })
                    .collect(),
            })
            .collect(),
        security_schemes,
        operations,
        webhooks,
        components: component_files,
    };
    let value = serde_json::to_value(&manifest).map_err(|err| Error::Emit {
        file: "schemas/manifest.json".into(),
        message: err.to_string(),
    })?;
    files.push(json_file("schemas/manifest.json", &value)?);
    Ok(files)
}

fn location(location: ParamLocation) -> manifest::Location {
    match location {
        ParamLocation::Path => manifest::Location::Path,
        ParamLocation::Query => manifest::Location::Query,
        ParamLocation::Header => manifest::Location::Header,
        ParamLocation::Cookie => manifest::Location::Cookie,
    }
}

fn operation_entry(
    op: &Operation,
    folder: &str,
    id: &str,
    crate_name: &str,
    components: &BTreeMap<&str, &Value>,
    names: &ContractFiles,
    files: &mut Vec<GeneratedFile>,
) -> Result<manifest::Operation> {
    let parameters = op
        .parameters
        .iter()
        .map(|param| {
            Ok(manifest::Parameter {
                name: param.name.clone(),
                location: location(param.location),
                required: param.required,
                schema: bundle(&param.schema, components)?,
                style: param.style.clone(),
                explode: param.explode,
                content_type: param.content_type.clone(),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let request_body = match &op.request_body {
        Some(body) => {
            let path = names.request(folder, id);
            let flow = Some(Flow::Request);
            files.push(schema_file(
                crate_name,
                &path,
                &body.schema,
                components,
                flow,
            )?);
            Some(manifest::RequestBody {
                required: body.required,
                content_type: body.content_type.clone(),
                other_content_types: body.other_content_types.clone(),
                schema: path,
            })
        }
        None => None,
    };
    let mut responses = BTreeMap::new();
    for response in &op.responses {
        let key = response.status.key();
        // The error codes the spec's examples show for this status (`code` of an error body):
        // what a checker can expect, e.g. NOT_AUTHENTICATED for a 401.
        let mut codes: Vec<String> = op
            .examples
            .iter()
            .filter(|example| example.part == MessagePart::Response(response.status))
            .filter_map(|example| example.example.value.get("code").and_then(Value::as_str))
            .map(str::to_string)
            .collect();
        codes.sort_unstable();
        codes.dedup();
        let headers = response
            .headers
            .iter()
            .map(|header| {
                Ok(manifest::Parameter {
                    name: header.name.clone(),
                    location: manifest::Location::Header,
                    required: header.required,
                    schema: bundle(&header.schema, components)?,
                    style: None,
                    explode: None,
                    content_type: None,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let entry = match &response.body {
            Some(body) => {
                let path = names.response(folder, id, &key);
                let flow = Some(Flow::Response);
                files.push(schema_file(
                    crate_name,
                    &path,
                    &body.schema,
                    components,
                    flow,
                )?);
                manifest::Response {
                    content_type: Some(body.content_type.clone()),
                    other_content_types: body.other_content_types.clone(),
                    schema: Some(path),
                    example_codes: codes,
                    headers,
                }
            }
            None => manifest::Response {
                content_type: None,
                other_content_types: Vec::new(),
                schema: None,
                example_codes: codes,
                headers,
            },
        };
        responses.insert(key, entry);
    }
    Ok(manifest::Operation {
        operation_id: op.id.clone(),
        method: op.method.as_http().to_string(),
        path: op.path.clone(),
        security: op.security.clone(),
        parameters,
        request_body,
        responses,
        has_default_response: op.responses.iter().any(|r| r.status == StatusSpec::Default),
        name: None,
        servers: op.servers.iter().map(|server| server.url.clone()).collect(),
        delivered_anywhere: false,
    })
}

/// A schema file: the schema with every component it needs under `$defs`; a message's
/// (`flow` given) without the `required` properties its direction does not send.
fn schema_file(
    crate_name: &str,
    path: &str,
    schema: &Value,
    components: &BTreeMap<&str, &Value>,
    flow: Option<Flow>,
) -> Result<GeneratedFile> {
    let mut bundled = bundle(schema, components)?;
    discriminator::select_by_discriminator(&mut bundled);
    inheritance::dispatch_to_subtypes(&mut bundled);
    if let Some(flow) = flow {
        one_way::relax_required(&mut bundled, flow);
    }
    let mut bundled = match bundled {
        Value::Object(map) => map,
        Value::Bool(true) => Map::new(),
        other => {
            let mut wrapper = Map::new();
            wrapper.insert("allOf".into(), Value::Array(vec![other]));
            wrapper
        }
    };
    let mut out = Map::new();
    out.insert("$schema".into(), Value::String(DIALECT.into()));
    out.insert(
        "$id".into(),
        Value::String(format!("urn:specgen:{crate_name}:{path}")),
    );
    bundled.remove("$schema");
    bundled.remove("$id");
    out.extend(bundled);
    json_file(&format!("schemas/{path}"), &Value::Object(out))
}

/// The schema with refs to components rewritten to `#/$defs/…` and those components (and
/// the ones they need, transitively) added under `$defs`.
pub(crate) fn bundle(schema: &Value, components: &BTreeMap<&str, &Value>) -> Result<Value> {
    let mut needed = BTreeSet::new();
    collect_refs(schema, &mut needed);
    let mut queue: Vec<String> = needed.iter().cloned().collect();
    while let Some(name) = queue.pop() {
        let component = components.get(name.as_str()).ok_or_else(|| Error::Emit {
            file: "schemas".into(),
            message: format!("$ref to missing component schema '{name}'"),
        })?;
        let mut more = BTreeSet::new();
        collect_refs(component, &mut more);
        more.extend(inheritance::subtypes(&name, component, components));
        for next in more {
            if needed.insert(next.clone()) {
                queue.push(next);
            }
        }
    }
    let mut root = rewrite(schema);
    if needed.is_empty() {
        return Ok(root);
    }
    let defs: Map<String, Value> = needed
        .iter()
        .map(|name| (name.clone(), rewrite(components[name.as_str()])))
        .collect();
    match &mut root {
        Value::Object(map) => {
            map.insert("$defs".into(), Value::Object(defs));
        }
        other => {
            let mut map = Map::new();
            map.insert("allOf".into(), Value::Array(vec![other.clone()]));
            map.insert("$defs".into(), Value::Object(defs));
            root = Value::Object(map);
        }
    }
    Ok(root)
}

fn collect_refs(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                if key == "$ref"
                    && let Some(name) = inner.as_str().and_then(component_of)
                {
                    out.insert(name);
                } else {
                    collect_refs(inner, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_refs(item, out)),
        _ => {}
    }
}

/// The component a `$ref` names or points into, decoded (`#/components/schemas/Order%20Line`
/// → `Order Line`).
fn component_of(reference: &str) -> Option<String> {
    crate::ir::build::component_target(reference).map(|(name, _)| name)
}

/// A `$ref` at or into a component, as a pointer into the bundle's `$defs`.
fn bundled_ref(reference: &str) -> Option<String> {
    let (name, rest) = crate::ir::build::component_target(reference)?;
    let mut out = def_ref(&name);
    for segment in rest {
        out.push('/');
        out.push_str(&escape(&segment));
    }
    Some(out)
}

/// The `$ref` of the component `name` in a bundle: `#/$defs/…`, escaped.
fn def_ref(name: &str) -> String {
    format!("#/$defs/{}", escape(name))
}

fn rewrite(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, inner)| {
                    let inner = match (key.as_str(), inner.as_str().and_then(bundled_ref)) {
                        ("$ref", Some(bundled)) => Value::String(bundled),
                        _ => rewrite(inner),
                    };
                    (key.clone(), inner)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(rewrite).collect()),
        other => other.clone(),
    }
}

/// The target of a `#/…` ref inside a bundled schema, whose pointer segments are
/// percent-encoded as a URI fragment (see [`bundled_ref`]).
fn resolve<'r>(root: &'r Value, reference: &str) -> Option<&'r Value> {
    let fragment = reference.strip_prefix('#')?;
    let pointer = percent_encoding::percent_decode_str(fragment)
        .decode_utf8()
        .ok()?;
    root.pointer(&pointer)
}

/// Characters a URI fragment holds as they are (RFC 3986 `pchar`, `/` and `?` aside):
/// everything else in a pointer segment is percent-encoded.
const FRAGMENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'!')
    .remove(b'$')
    .remove(b'&')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=')
    .remove(b':')
    .remove(b'@');

/// A pointer segment as it must appear in a URI fragment: `~` and `/` escaped, and anything
/// outside the fragment character set percent-encoded.
fn escape(segment: &str) -> String {
    percent_encoding::utf8_percent_encode(&crate::load::escape_segment(segment), FRAGMENT)
        .to_string()
}

fn json_file(path: &str, value: &Value) -> Result<GeneratedFile> {
    let mut text = serde_json::to_string_pretty(value).map_err(|err| Error::Emit {
        file: path.into(),
        message: err.to_string(),
    })?;
    text.push('\n');
    Ok(GeneratedFile::new(path, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundling_pulls_in_components_transitively() {
        let a = json!({ "type": "object", "properties": { "b": { "$ref": "#/components/schemas/B" } } });
        let b = json!({ "type": "object", "properties": { "c": { "$ref": "#/components/schemas/C" } } });
        let c = json!({ "type": "string" });
        let components: BTreeMap<&str, &Value> =
            [("A", &a), ("B", &b), ("C", &c)].into_iter().collect();
        let bundled = bundle(&json!({ "$ref": "#/components/schemas/A" }), &components).unwrap();
        assert_eq!(bundled["$ref"], "#/$defs/A");
        let defs = bundled["$defs"].as_object().unwrap();
        assert_eq!(defs.keys().collect::<Vec<_>>(), ["A", "B", "C"]);
        assert_eq!(defs["B"]["properties"]["c"]["$ref"], "#/$defs/C");
    }

    #[test]
    fn a_missing_component_is_an_error_not_a_panic() {
        let components = BTreeMap::new();
        let err = bundle(&json!({ "$ref": "#/components/schemas/Nope" }), &components).unwrap_err();
        assert!(err.to_string().contains("Nope"), "{err}");
    }
}
