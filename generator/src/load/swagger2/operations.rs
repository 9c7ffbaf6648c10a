//! The paths of a Swagger 2.0 document: path items, operations, their parameters, request
//! bodies and responses, as OpenAPI 3.0 writes them.

use serde_json::{Map, Value, json};

use crate::manifest::essence;

use super::objects::{array_style, parameter_of, schema_of, upgrade_schema};
use super::{FORM, JSON, MULTIPART, Renames, media_list, non_empty_or, or_json, segments};

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// What the upgrade of the paths needs from the rest of the document, and where it records
/// the places it moved.
pub(super) struct Upgrader {
    /// The document's `consumes`: the media types of a body whose operation names none.
    pub(super) consumes: Vec<String>,
    /// The document's `produces`, likewise for responses.
    pub(super) produces: Vec<String>,
    /// The document's own `parameters`, which operations refer to by `$ref`.
    pub(super) global_parameters: Map<String, Value>,
    pub(super) renames: Renames,
}

impl Upgrader {
    /// Global parameters: `body` ones become request body components, `formData` ones are
    /// written into each operation's form schema where used, the others stay parameters.
    pub(super) fn global_parameters_into(&mut self, components: &mut Map<String, Value>) {
        let mut parameters = Map::new();
        let mut bodies = Map::new();
        let globals = std::mem::take(&mut self.global_parameters);
        for (name, parameter) in &globals {
            match parameter.get("in").and_then(Value::as_str) {
                Some("body") => {
                    let consumes = self.consumes.clone();
                    bodies.insert(name.clone(), self.request_body(parameter, &consumes));
                    self.renames.add(
                        &["components", "requestBodies", name.as_str()],
                        &["parameters", name.as_str()],
                    );
                    for media in or_json(&consumes) {
                        self.renames.add(
                            &[
                                "components",
                                "requestBodies",
                                name.as_str(),
                                "content",
                                media.as_str(),
                                "schema",
                            ],
                            &["parameters", name.as_str(), "schema"],
                        );
                    }
                }
                Some("formData") => {}
                _ => {
                    parameters.insert(name.clone(), parameter_of(parameter));
                    self.renames.add(
                        &["components", "parameters", name.as_str(), "schema"],
                        &["parameters", name.as_str()],
                    );
                }
            }
        }
        self.global_parameters = globals;
        if !parameters.is_empty() {
            components.insert("parameters".to_owned(), Value::Object(parameters));
            self.renames
                .add(&["components", "parameters"], &["parameters"]);
        }
        if !bodies.is_empty() {
            components.insert("requestBodies".to_owned(), Value::Object(bodies));
        }
    }

    pub(super) fn path_item(&mut self, item: &mut Value, path: &str) {
        let Value::Object(item) = item else { return };
        // 3.0 has no request body for a whole path: body and form parameters written for the
        // path join each of its operations.
        let mut shared_payload = Vec::new();
        if let Some(Value::Array(parameters)) = item.get_mut("parameters") {
            let mut kept = Vec::new();
            for (index, parameter) in std::mem::take(parameters).into_iter().enumerate() {
                if self.is_payload(&parameter) {
                    shared_payload.push(parameter);
                } else {
                    let from = segments(&["paths", path, "parameters", &index.to_string()]);
                    let at = segments(&["paths", path, "parameters", &kept.len().to_string()]);
                    self.renames.add(&at, &from);
                    let mut schema_at = at;
                    schema_at.push("schema".to_owned());
                    self.renames.add(&schema_at, &from);
                    kept.push(parameter_of(&parameter));
                }
            }
            *parameters = kept;
        }
        if item
            .get("parameters")
            .is_some_and(|p| p.as_array().is_some_and(Vec::is_empty))
        {
            item.shift_remove("parameters");
        }
        for method in METHODS {
            if let Some(operation) = item.get_mut(method) {
                self.operation(operation, path, method, &shared_payload);
            }
        }
    }

    /// Whether a parameter (or a reference to a global one) carries the payload.
    fn is_payload(&self, parameter: &Value) -> bool {
        matches!(
            self.resolved(parameter).get("in").and_then(Value::as_str),
            Some("body" | "formData")
        )
    }

    /// A parameter itself, following a reference to a global one.
    fn resolved<'a>(&'a self, parameter: &'a Value) -> &'a Value {
        let target = parameter.get("$ref").and_then(Value::as_str);
        match target.and_then(crate::load::decode_pointer).as_deref() {
            Some([section, name]) if section == "parameters" => {
                self.global_parameters.get(name).unwrap_or(parameter)
            }
            _ => parameter,
        }
    }

    fn operation(&mut self, operation: &mut Value, path: &str, method: &str, shared: &[Value]) {
        let Value::Object(operation) = operation else {
            return;
        };
        let consumes = match operation.shift_remove("consumes") {
            Some(list) => non_empty_or(media_list(Some(&list)), &self.consumes),
            None => self.consumes.clone(),
        };
        let produces = match operation.shift_remove("produces") {
            Some(list) => non_empty_or(media_list(Some(&list)), &self.produces),
            None => self.produces.clone(),
        };
        operation.shift_remove("schemes");
        let own_at = |rest: &[&str]| {
            let mut at = vec!["paths", path, method];
            at.extend_from_slice(rest);
            at.into_iter().map(str::to_owned).collect::<Vec<_>>()
        };

        let mut parameters = Vec::new();
        let mut body: Option<(Value, Vec<String>)> = None;
        let mut form: Vec<(Value, Vec<String>)> = Vec::new();
        let listed = match operation.shift_remove("parameters") {
            Some(Value::Array(list)) => list,
            _ => Vec::new(),
        };
        // Operation-level payload parameters override the path's of the same name.
        let own_names: Vec<(String, String)> = listed
            .iter()
            .map(|p| self.resolved(p))
            .filter_map(|p| {
                Some((
                    p.get("name")?.as_str()?.to_owned(),
                    p.get("in")?.as_str()?.to_owned(),
                ))
            })
            .collect();
        let from_path = shared.iter().filter(|p| {
            let p = self.resolved(p);
            let key = (
                p.get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                p.get("in")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
            );
            // An operation's own body replaces the path's, whatever either is called.
            let replaced_body = key.1 == "body" && own_names.iter().any(|(_, at)| at == "body");
            !own_names.contains(&key) && !replaced_body
        });
        let listed_with_source: Vec<(&Value, Vec<String>)> = listed
            .iter()
            .enumerate()
            .map(|(index, p)| (p, own_at(&["parameters", &index.to_string()])))
            .chain(from_path.map(|p| (p, segments(&["paths", path]))))
            .collect();
        for (parameter, from) in listed_with_source {
            let resolved = self.resolved(parameter).clone();
            match resolved.get("in").and_then(Value::as_str) {
                Some("body") => {
                    let reference = parameter.get("$ref").is_some();
                    body = Some((
                        if reference {
                            parameter.clone()
                        } else {
                            resolved
                        },
                        from,
                    ));
                }
                Some("formData") => form.push((resolved, from)),
                _ => {
                    let at = own_at(&["parameters", &parameters.len().to_string()]);
                    self.renames.add(&at, &from);
                    let mut schema_at = at.clone();
                    schema_at.push("schema".to_owned());
                    self.renames.add(&schema_at, &from);
                    parameters.push(if parameter.get("$ref").is_some() {
                        parameter.clone()
                    } else {
                        parameter_of(parameter)
                    });
                }
            }
        }

        // The other members as written, then the inputs, then the responses.
        let mut out = std::mem::take(operation);
        let responses = match out.shift_remove("responses") {
            Some(Value::Object(source)) => Some(
                source
                    .into_iter()
                    .map(|(code, response)| {
                        // Extensions (`x-…`) beside the statuses stay as they are.
                        if code.starts_with("x-") {
                            return (code, response);
                        }
                        let at = own_at(&["responses", &code]);
                        let response = self.response(&response, &produces, &at, &at);
                        (code, response)
                    })
                    .collect::<Map<String, Value>>(),
            ),
            Some(_) => Some(Map::new()),
            None => None,
        };
        if !parameters.is_empty() {
            out.insert("parameters".to_owned(), Value::Array(parameters));
        }
        self.payload_into(&mut out, body, form, &consumes, &own_at);
        if let Some(responses) = responses {
            out.insert("responses".to_owned(), Value::Object(responses));
        }
        *operation = out;
    }

    /// Writes the operation's `requestBody` from its body parameter or its form parameters.
    fn payload_into(
        &mut self,
        out: &mut Map<String, Value>,
        body: Option<(Value, Vec<String>)>,
        form: Vec<(Value, Vec<String>)>,
        consumes: &[String],
        own_at: &dyn Fn(&[&str]) -> Vec<String>,
    ) {
        if let Some((parameter, from)) = body {
            let request_body = match parameter.get("$ref").and_then(Value::as_str) {
                Some(target) => {
                    let name = target.trim_start_matches("#/parameters/");
                    json!({ "$ref": format!("#/components/requestBodies/{name}") })
                }
                None => self.request_body(&parameter, consumes),
            };
            self.renames.add(&own_at(&["requestBody"]), &from);
            for media in or_json(consumes) {
                let mut schema_from = from.clone();
                schema_from.push("schema".to_owned());
                self.renames.add(
                    &own_at(&["requestBody", "content", &media, "schema"]),
                    &schema_from,
                );
            }
            out.insert("requestBody".to_owned(), request_body);
        } else if !form.is_empty() {
            let has_file = form
                .iter()
                .any(|(p, _)| p.get("type").and_then(Value::as_str) == Some("file"));
            let mut media_types: Vec<&str> = consumes
                .iter()
                .map(String::as_str)
                .filter(|m| essence(m) == FORM || essence(m) == MULTIPART)
                .collect();
            if media_types.is_empty() {
                media_types.push(if has_file { MULTIPART } else { FORM });
            }
            let mut properties = Map::new();
            let mut required = Vec::new();
            let mut encoding = Map::new();
            for (parameter, from) in &form {
                let Some(name) = parameter.get("name").and_then(Value::as_str) else {
                    continue;
                };
                let mut schema = schema_of(parameter);
                if let (Some(description), Value::Object(object)) =
                    (parameter.get("description"), &mut schema)
                {
                    object.insert("description".to_owned(), description.clone());
                }
                properties.insert(name.to_owned(), schema);
                if parameter.get("required") == Some(&Value::Bool(true)) {
                    required.push(Value::String(name.to_owned()));
                }
                if let Some((style, explode)) = array_style(parameter, "formData") {
                    encoding.insert(
                        name.to_owned(),
                        json!({ "style": style, "explode": explode }),
                    );
                }
                for media in &media_types {
                    self.renames.add(
                        &own_at(&[
                            "requestBody",
                            "content",
                            media,
                            "schema",
                            "properties",
                            name,
                        ]),
                        from,
                    );
                }
            }
            let mut schema = Map::new();
            schema.insert("type".to_owned(), "object".into());
            schema.insert("properties".to_owned(), Value::Object(properties));
            if !required.is_empty() {
                schema.insert("required".to_owned(), Value::Array(required.clone()));
            }
            let mut content = Map::new();
            for media in &media_types {
                let mut entry = Map::new();
                entry.insert("schema".to_owned(), Value::Object(schema.clone()));
                if essence(media) == FORM && !encoding.is_empty() {
                    entry.insert("encoding".to_owned(), Value::Object(encoding.clone()));
                }
                content.insert((*media).to_owned(), Value::Object(entry));
            }
            if let Some((_, from)) = form.first() {
                self.renames.add(&own_at(&["requestBody"]), from);
            }
            let mut request_body = Map::new();
            request_body.insert("content".to_owned(), Value::Object(content));
            if !required.is_empty() {
                request_body.insert("required".to_owned(), true.into());
            }
            out.insert("requestBody".to_owned(), Value::Object(request_body));
        }
    }

    /// A Request Body Object from a `body` parameter.
    fn request_body(&self, parameter: &Value, consumes: &[String]) -> Value {
        let mut schema = parameter
            .get("schema")
            .cloned()
            .unwrap_or_else(|| json!({}));
        upgrade_schema(&mut schema);
        let mut content = Map::new();
        for media in or_json(consumes) {
            content.insert(media.clone(), json!({ "schema": schema }));
        }
        let mut body = Map::new();
        for (key, value) in parameter.as_object().into_iter().flatten() {
            match key.as_str() {
                "description" | "required" => {
                    body.insert(key.clone(), value.clone());
                }
                _ if key.starts_with("x-") => {
                    body.insert(key.clone(), value.clone());
                }
                _ => {}
            }
        }
        body.insert("content".to_owned(), Value::Object(content));
        Value::Object(body)
    }

    /// A Response Object; its schema and examples under `content`, its headers with schemas.
    pub(super) fn response(
        &mut self,
        response: &Value,
        produces: &[String],
        at: &[String],
        from: &[String],
    ) -> Value {
        let Value::Object(source) = response else {
            return response.clone();
        };
        if source.contains_key("$ref") {
            return response.clone();
        }
        let mut out = Map::new();
        let mut content = Map::new();
        if let Some(schema) = source.get("schema") {
            let mut schema = schema.clone();
            let is_file = schema.get("type").and_then(Value::as_str) == Some("file");
            upgrade_schema(&mut schema);
            let media_types: Vec<String> = if produces.is_empty() {
                vec![
                    if is_file {
                        "application/octet-stream"
                    } else {
                        JSON
                    }
                    .to_owned(),
                ]
            } else {
                produces.to_vec()
            };
            for media in &media_types {
                let mut entry = Map::new();
                entry.insert("schema".to_owned(), schema.clone());
                if let Some(example) = example_for(source.get("examples"), media) {
                    entry.insert("example".to_owned(), example.clone());
                }
                content.insert(media.clone(), Value::Object(entry));
                let mut schema_at = at.to_vec();
                schema_at.extend(segments(&["content", media, "schema"]));
                let mut schema_from = from.to_vec();
                schema_from.push("schema".to_owned());
                self.renames.add(&schema_at, &schema_from);
            }
        }
        for (key, value) in source {
            match key.as_str() {
                "schema" | "examples" => {}
                "headers" => {
                    let mut headers = Map::new();
                    if let Value::Object(source_headers) = value {
                        for (name, header) in source_headers {
                            headers.insert(name.clone(), parameter_of(header));
                            let mut header_at = at.to_vec();
                            header_at.extend(segments(&["headers", name, "schema"]));
                            let mut header_from = from.to_vec();
                            header_from.extend(segments(&["headers", name]));
                            self.renames.add(&header_at, &header_from);
                        }
                    }
                    out.insert("headers".to_owned(), Value::Object(headers));
                }
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        if !out.contains_key("description") {
            out.insert("description".to_owned(), "".into());
        }
        if !content.is_empty() {
            out.insert("content".to_owned(), Value::Object(content));
        }
        Value::Object(out)
    }
}

/// A response's example for a media type: written under that type, or under the same type
/// with other parameters (`application/json; charset=utf-8`).
fn example_for<'a>(examples: Option<&'a Value>, media: &str) -> Option<&'a Value> {
    let examples = examples?.as_object()?;
    examples.get(media).or_else(|| {
        let wanted = essence(media);
        examples
            .iter()
            .find(|(written, _)| essence(written) == wanted)
            .map(|(_, example)| example)
    })
}
