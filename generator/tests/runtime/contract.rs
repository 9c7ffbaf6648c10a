//! Stand-in for `src/contract.rs`: the contract of an API with one operation and one webhook.
//!
//! `createThing` is `POST /things/{id}` with `id` (path, an integer from 1), `limit` (query,
//! an optional integer up to 10), `x-trace` (an optional header of up to 5 characters), `tags`
//! (query, an optional list of at most two integers), `sort` (query, a `pipeDelimited` list of
//! `a` and `b`) and a required `Thing` body (`name`, a non-empty string), secured by `api-key`; it answers
//! 201 with a `Thing`, 4XX with an `Error` (`code`), and documents a `default` with an
//! `Error`. `thingCreated` posts a `Thing` and expects 200 with `{"ok": true}`. `Thing` also has
//! an optional `colour` (`red` or `green`), `size` (`w`, and no other member) and `shape` (a
//! `circle` with `r` or a `square` with `side` and a `fill`, `solid` or `none`). `Thing` is
//! written in the shared layout (its definition in `definitions/components.json`), the other
//! files self-contained. A second operation, `setAttempts` (`PUT /attempts`, open), takes a
//! `text/plain` body whose words are an integer from 1.

/// Every contract file as `(path under schemas/, contents)`.
pub static FILES: &[(&str, &str)] = &[
    ("manifest.json", MANIFEST),
    ("components/Thing.json", THING),
    ("components/Error.json", ERROR),
    ("components/Attempts.json", ATTEMPTS),
    ("definitions/components.json", DEFINITIONS),
    ("webhooks/thingCreated.response.200.json", ACKNOWLEDGEMENT),
];

/// The contents of one contract file.
pub fn file(path: &str) -> Option<&'static str> {
    FILES
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, contents)| *contents)
}

/// The manifest.
pub fn manifest() -> &'static str {
    file("manifest.json").unwrap_or("{}")
}

/// A contract file as one self-contained schema.
pub fn schema(path: &str) -> Result<::serde_json::Value, String> {
    static DEFINITIONS: crate::support::definitions::Definitions =
        crate::support::definitions::Definitions::new();
    let text = file(path).ok_or_else(|| format!("no contract file {path}"))?;
    DEFINITIONS
        .read(text, file)
        .map_err(|err| format!("{path}: {err}"))
}

const MANIFEST: &str = r#"{
  "format": 1,
  "title": "Things",
  "version": "1.0.0",
  "basePath": "",
  "servers": [],
  "securitySchemes": {"api-key": {"type": "apiKey", "in": "header", "name": "x-key"}},
  "operations": [{
    "operationId": "createThing",
    "method": "POST",
    "path": "/things/{id}",
    "security": [["api-key"]],
    "parameters": [
      {"name": "id", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 1}},
      {"name": "limit", "in": "query", "required": false, "schema": {"type": "integer", "maximum": 10}},
      {"name": "x-trace", "in": "header", "required": false, "schema": {"type": "string", "maxLength": 5}},
      {"name": "tags", "in": "query", "required": false, "schema": {"type": "array", "items": {"type": "integer"}, "maxItems": 2}},
      {"name": "sort", "in": "query", "required": false, "style": "pipeDelimited", "schema": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}}
    ],
    "requestBody": {"required": true, "contentType": "application/json", "schema": "components/Thing.json"},
    "responses": {
      "201": {"contentType": "application/json", "schema": "components/Thing.json", "exampleCodes": []},
      "4XX": {"contentType": "application/json", "schema": "components/Error.json", "exampleCodes": []},
      "default": {"contentType": "application/json", "schema": "components/Error.json", "exampleCodes": []}
    },
    "hasDefaultResponse": true
  }, {
    "operationId": "setAttempts",
    "method": "PUT",
    "path": "/attempts",
    "security": [],
    "parameters": [],
    "requestBody": {"required": true, "contentType": "text/plain", "schema": "components/Attempts.json"},
    "responses": {"204": {"contentType": null, "schema": null, "exampleCodes": []}},
    "hasDefaultResponse": false
  }],
  "webhooks": [{
    "operationId": "thingCreated",
    "name": "thingCreated",
    "method": "POST",
    "path": "/hooks/thing",
    "security": [],
    "parameters": [],
    "requestBody": {"required": true, "contentType": "application/json", "schema": "components/Thing.json"},
    "responses": {
      "200": {"contentType": "application/json", "schema": "webhooks/thingCreated.response.200.json", "exampleCodes": []},
      "5XX": {"contentType": null, "schema": null, "exampleCodes": []}
    },
    "hasDefaultResponse": false
  }],
  "components": {"Thing": "components/Thing.json", "Error": "components/Error.json"}
}"#;

const THING: &str = r#"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$ref": "urn:specgen:things:definitions/components.json#/$defs/Thing"
}"#;

const DEFINITIONS: &str = r#"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$defs": {
    "Thing": {
      "type": "object",
      "required": ["name"],
      "properties": {
        "name": {"type": "string", "minLength": 1},
        "id": {"type": "integer"},
        "colour": {"enum": ["red", "green"]},
        "size": {"type": "object", "additionalProperties": false, "properties": {"w": {"type": "integer"}}},
        "shape": {"oneOf": [
          {"type": "object", "required": ["kind", "r"], "properties": {"kind": {"enum": ["circle"]}, "r": {"type": "integer"}}},
          {"type": "object", "required": ["kind", "side"], "properties": {"kind": {"enum": ["square"]}, "side": {"type": "integer"}, "fill": {"enum": ["solid", "none"]}}}
        ]}
      }
    }
  }
}"#;

const ERROR: &str = r#"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "required": ["code"],
  "properties": {"code": {"type": "string"}}
}"#;

const ATTEMPTS: &str = r#"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "integer",
  "minimum": 1
}"#;

const ACKNOWLEDGEMENT: &str = r#"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "required": ["ok"],
  "properties": {"ok": {"const": true}}
}"#;
