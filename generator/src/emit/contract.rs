//! The contract: one JSON Schema (draft 2020-12) per component schema and per message, and
//! `manifest.json`, which maps each operation (method and path template) and each webhook to
//! its parameter, header, security and body rules. The validator and the generated server both
//! check against these files, so there is one set of rules.
//!
//! Each schema file is self-contained (the components it reaches under its own `$defs`), or,
//! in the shared layout ([`ContractLayout`]), refers to one definitions document per direction
//! that holds every component once. Both layouts run the same transforms over the same
//! schemas, so a shared file read through [`crate::definitions`] is the self-contained one.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

mod discriminator;
mod file_names;
mod inheritance;
mod one_way;

pub use file_names::ContractFiles;

use one_way::Flow;

use super::GeneratedFile;
use crate::ContractLayout;
use crate::definitions;
use crate::error::{Error, Result};
use crate::ir::{Api, MessagePart, Operation, SecurityKind, StatusSpec};
use crate::manifest::{self, Manifest};

const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";
const COMPONENT_PREFIX: &str = "#/components/schemas/";

/// Above this many bytes of self-contained schema files (compact JSON, as
/// [`ContractLayout::Auto`] estimates them), the contract is written in the shared layout.
/// Stripe's spec (2.5 MB) would take about 800 MB self-contained; Box's (1.7 MB) takes 8 MB
/// and stays self-contained.
pub const SHARED_ABOVE: usize = 64 << 20;

/// A schema file to write: its path under `schemas/`, its schema as the IR has it, and its
/// direction (`None` for a component).
struct SchemaFile<'a> {
    path: String,
    root: std::borrow::Cow<'a, Value>,
    flow: Option<Flow>,
}

/// The contract files, under `schemas/`.
pub fn emit(api: &Api, crate_name: &str, layout: ContractLayout) -> Result<Vec<GeneratedFile>> {
    let components: BTreeMap<&str, &Value> = api
        .schemas
        .iter()
        .map(|(name, schema)| (name.as_str(), schema))
        .collect();
    let names = ContractFiles::of(api);
    let mut files = Vec::new();
    let mut schema_files = Vec::new();
    let mut component_files = BTreeMap::new();
    for (name, _) in &api.schemas {
        let path = names.component(name);
        let root = json!({ "$ref": format!("{COMPONENT_PREFIX}{}", escape(name)) });
        schema_files.push(SchemaFile {
            path: path.clone(),
            root: std::borrow::Cow::Owned(root),
            flow: None,
        });
        component_files.insert(name.clone(), path);
    }

    let mut operations = Vec::new();
    for op in &api.operations {
        operations.push(operation_entry(
            op,
            "operations",
            &op.id,
            &components,
            &names,
            &mut schema_files,
        )?);
    }
    let mut webhooks = Vec::new();
    for hook in &api.webhooks {
        let mut entry = operation_entry(
            &hook.operation,
            "webhooks",
            &file_names::webhook_key(api, hook),
            &components,
            &names,
            &mut schema_files,
        )?;
        entry.name = Some(hook.name.clone());
        entry.delivered_anywhere = !hook.path_documented;
        webhooks.push(entry);
    }
    let shared = match layout {
        ContractLayout::SelfContained => false,
        ContractLayout::Shared => true,
        ContractLayout::Auto => self_contained_size(&schema_files, &components) > SHARED_ABOVE,
    };
    if shared {
        files.extend(shared_files(crate_name, &schema_files, &components)?);
    } else {
        for file in &schema_files {
            files.push(schema_file(
                crate_name,
                &file.path,
                &file.root,
                &components,
                file.flow,
            )?);
        }
    }

    let security_schemes = api
        .security_schemes
        .iter()
        .map(|scheme| {
            let (kind, location, name, http) = match &scheme.kind {
                SecurityKind::ApiKey { name, location } => (
                    "apiKey",
                    Some(manifest::Location::from(*location)),
                    Some(name.clone()),
                    None,
                ),
                SecurityKind::Bearer => ("http", None, None, Some("bearer")),
                SecurityKind::Basic => ("http", None, None, Some("basic")),
                SecurityKind::Http(word) => ("http", None, None, Some(word.as_str())),
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
        error_envelope: Some(api.error_envelope()),
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

/// The files of a body's schemas in its other JSON media types, each beside `main`, the file
/// of its own schema, by media type as written; a second media type whose name makes the same
/// file is left out, as a second form type is.
fn json_schema_files<'a>(
    schemas: &'a [(String, Value)],
    main: &str,
    flow: Flow,
    names: &ContractFiles,
    files: &mut Vec<SchemaFile<'a>>,
) -> BTreeMap<String, String> {
    let mut written = BTreeMap::new();
    for (media, schema) in schemas {
        let path = names.in_media(main, media);
        if written.values().any(|known| *known == path) {
            continue;
        }
        files.push(SchemaFile {
            path: path.clone(),
            root: std::borrow::Cow::Borrowed(schema),
            flow: Some(flow),
        });
        written.insert(media.clone(), path);
    }
    written
}

fn operation_entry<'a>(
    op: &'a Operation,
    folder: &str,
    id: &str,
    components: &BTreeMap<&str, &Value>,
    names: &ContractFiles,
    files: &mut Vec<SchemaFile<'a>>,
) -> Result<manifest::Operation> {
    let parameters = op
        .parameters
        .iter()
        .map(|param| {
            Ok(manifest::Parameter {
                name: param.name.clone(),
                location: param.location.into(),
                required: param.required,
                schema: bundle(&param.schema, components)?,
                style: param.style.clone(),
                explode: param.explode,
                content_type: param.content_type.clone(),
                allow_empty_value: param.allow_empty_value,
                allow_reserved: param.allow_reserved,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let request_body = match &op.request_body {
        Some(body) => {
            let path = names.request(folder, id);
            files.push(SchemaFile {
                path: path.clone(),
                root: std::borrow::Cow::Borrowed(&body.schema),
                flow: Some(Flow::Request),
            });
            let mut field_schemas = BTreeMap::new();
            for (media, schema) in &body.field_schemas {
                let kind = if crate::manifest::essence(media) == crate::form::MULTIPART {
                    "multipart"
                } else {
                    "form"
                };
                let path = names.request_as(folder, id, kind);
                // One file per kind: a second form type with a schema of its own is left out.
                if field_schemas.values().any(|known| *known == path) {
                    continue;
                }
                files.push(SchemaFile {
                    path: path.clone(),
                    root: std::borrow::Cow::Borrowed(schema),
                    flow: Some(Flow::Request),
                });
                field_schemas.insert(media.clone(), path);
            }
            let json_schemas =
                json_schema_files(&body.json_schemas, &path, Flow::Request, names, files);
            Some(manifest::RequestBody {
                required: body.required,
                content_type: body.content_type.clone(),
                other_content_types: body.other_content_types.clone(),
                same_schema_content_types: body.same_schema_content_types.clone(),
                field_schemas,
                json_schemas,
                schema: path,
                delimited_fields: body
                    .delimited_fields
                    .iter()
                    .map(|(field, delimiter)| (field.clone(), delimiter.to_string()))
                    .collect(),
                json_fields: body.json_fields.clone(),
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
                    allow_empty_value: false,
                    allow_reserved: false,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let entry = match &response.body {
            Some(body) => {
                let path = names.response(folder, id, &key);
                files.push(SchemaFile {
                    path: path.clone(),
                    root: std::borrow::Cow::Borrowed(&body.schema),
                    flow: Some(Flow::Response),
                });
                let json_schemas =
                    json_schema_files(&body.json_schemas, &path, Flow::Response, names, files);
                manifest::Response {
                    content_type: Some(body.content_type.clone()),
                    other_content_types: body.other_content_types.clone(),
                    json_schemas,
                    schema: Some(path),
                    example_codes: codes,
                    headers,
                }
            }
            None => manifest::Response {
                content_type: None,
                other_content_types: Vec::new(),
                json_schemas: BTreeMap::new(),
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

/// `schema` bundled (every component it needs under `$defs`) and read as OpenAPI reads it: a
/// discriminator picks the alternative it names, a base schema's discriminator its subtypes.
/// What every contract file holds, and what the example tests check a union's inline
/// alternatives against.
pub(crate) fn bundle_as_contract(
    schema: &Value,
    components: &BTreeMap<&str, &Value>,
) -> Result<Value> {
    let mut bundled = bundle(schema, components)?;
    discriminator::select_by_discriminator(&mut bundled);
    inheritance::dispatch_to_subtypes(&mut bundled);
    Ok(bundled)
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
    let mut bundled = bundle_as_contract(schema, components)?;
    if let Some(flow) = flow {
        one_way::relax_required(&mut bundled, flow);
    }
    // The components last, where the shared layout's reader puts them, whatever the
    // transforms added after them.
    if let Value::Object(map) = &mut bundled
        && let Some(defs) = map.shift_remove("$defs")
    {
        map.insert("$defs".into(), defs);
    }
    json_file(
        &format!("schemas/{path}"),
        &with_header(crate_name, path, bundled),
    )
}

/// A schema file's contents: `$schema` and `$id` first, then the schema's own keywords
/// (`true` is an empty object, any other non-object schema the one part of an `allOf`).
fn with_header(crate_name: &str, path: &str, schema: Value) -> Value {
    let mut schema = match schema {
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
    schema.remove("$schema");
    schema.remove("$id");
    out.extend(schema);
    Value::Object(out)
}

/// The definitions document of each direction: every component once.
const DOCUMENTS: [(Option<Flow>, &str); 3] = [
    (None, "components.json"),
    (Some(Flow::Request), "requests.json"),
    (Some(Flow::Response), "responses.json"),
];

/// Where the schema files of one direction sit while the transforms run over them and the
/// components together (see [`shared_files`]).
const ROOTS: &str = "roots";

/// The schema files in the shared layout: for each direction, one document holding every
/// component and that direction's files, transformed together exactly as each self-contained
/// file is transformed with its own components; then each file is cut out with its refs
/// pointing into the definitions document, which keeps the components.
fn shared_files(
    crate_name: &str,
    files: &[SchemaFile<'_>],
    components: &BTreeMap<&str, &Value>,
) -> Result<Vec<GeneratedFile>> {
    let mut out = Vec::new();
    for (flow, document) in DOCUMENTS {
        let mine: Vec<&SchemaFile<'_>> = files.iter().filter(|file| file.flow == flow).collect();
        if mine.is_empty() {
            continue;
        }
        for file in &mine {
            // The self-contained layout's error for a ref to a missing component.
            let mut needed = BTreeSet::new();
            collect_refs(&file.root, &mut needed);
            for name in &needed {
                component(components, name)?;
            }
        }
        let defs: Map<String, Value> = components
            .iter()
            .map(|(name, schema)| ((*name).to_string(), rewrite(schema)))
            .collect();
        let roots: Vec<Value> = mine.iter().map(|file| rewrite(&file.root)).collect();
        let mut together = json!({ "$defs": defs, ROOTS: roots });
        discriminator::select_by_discriminator(&mut together);
        inheritance::dispatch_to_subtypes(&mut together);
        if let Some(flow) = flow {
            one_way::relax_required(&mut together, flow);
        }
        let lost = || Error::Emit {
            file: format!("schemas/{}{document}", definitions::FOLDER),
            message: "the transforms lost the schema files".into(),
        };
        let Value::Object(mut together) = together else {
            return Err(lost());
        };
        let Some(Value::Array(roots)) = together.remove(ROOTS) else {
            return Err(lost());
        };
        for (file, mut root) in mine.iter().zip(roots) {
            point_into(&mut root, crate_name, document);
            out.push(json_file(
                &format!("schemas/{}", file.path),
                &with_header(crate_name, &file.path, root),
            )?);
        }
        let path = format!("{}{document}", definitions::FOLDER);
        out.push(json_file(
            &format!("schemas/{path}"),
            &with_header(crate_name, &path, Value::Object(together)),
        )?);
    }
    Ok(out)
}

/// Rewrites the local refs to components under `value` (`#/$defs/…`) as refs into the
/// definitions document `document`.
fn point_into(value: &mut Value, crate_name: &str, document: &str) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map.iter_mut() {
                match inner {
                    Value::String(reference)
                        if key == "$ref" && reference.starts_with("#/$defs/") =>
                    {
                        *reference = definitions::shared_ref(crate_name, document, &reference[1..]);
                    }
                    _ => point_into(inner, crate_name, document),
                }
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| point_into(item, crate_name, document)),
        _ => {}
    }
}

/// The bytes the schema files would take self-contained (compact JSON), counted up to just past
/// [`SHARED_ABOVE`]: each file's own schema and the components it reaches, each component's
/// size measured once.
fn self_contained_size(files: &[SchemaFile<'_>], components: &BTreeMap<&str, &Value>) -> usize {
    let mut reaches: BTreeMap<&str, (usize, BTreeSet<String>)> = BTreeMap::new();
    for (name, schema) in components {
        let mut next = BTreeSet::new();
        collect_refs(schema, &mut next);
        next.extend(inheritance::subtypes(name, schema, components));
        let size = serde_json::to_string(schema).map_or(0, |text| text.len());
        reaches.insert(name, (size, next));
    }
    let mut total = 0;
    for file in files {
        total += serde_json::to_string(&*file.root).map_or(0, |text| text.len());
        let mut needed = BTreeSet::new();
        collect_refs(&file.root, &mut needed);
        let mut queue: Vec<String> = needed.iter().cloned().collect();
        while let Some(name) = queue.pop() {
            let Some((size, next)) = reaches.get(name.as_str()) else {
                continue;
            };
            total += size;
            for more in next {
                if needed.insert(more.clone()) {
                    queue.push(more.clone());
                }
            }
        }
        if total > SHARED_ABOVE {
            break;
        }
    }
    total
}

/// The component `name`, or the error for a `$ref` to a component the spec does not have.
fn component<'c>(components: &BTreeMap<&str, &'c Value>, name: &str) -> Result<&'c Value> {
    components.get(name).copied().ok_or_else(|| Error::Emit {
        file: "schemas".into(),
        message: format!("$ref to missing component schema '{name}'"),
    })
}

/// The schema with refs to components rewritten to `#/$defs/…` and those components (and
/// the ones they need, transitively) added under `$defs`.
pub(crate) fn bundle(schema: &Value, components: &BTreeMap<&str, &Value>) -> Result<Value> {
    let mut needed = BTreeSet::new();
    collect_refs(schema, &mut needed);
    let mut queue: Vec<String> = needed.iter().cloned().collect();
    while let Some(name) = queue.pop() {
        let component = component(components, &name)?;
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
