//! The upgrade as a reader of the loaded document sees it (after the 3.0 → 3.1 normalisation
//! too), and where errors about moved places point.

use serde_json::{Value, json};

use crate::error::Error;
use crate::load::{Document, OpenApiVersion, load_str};

const PETSTORE: &str = r##"swagger: "2.0"
info: {title: Pets, version: "1"}
host: pets.example.com
basePath: /v2
schemes: [http, https]
consumes: [application/json, application/xml]
produces: [application/json]
securityDefinitions:
  basic: {type: basic, description: user and password}
  key: {type: apiKey, in: query, name: api_key}
  implicit: {type: oauth2, flow: implicit, authorizationUrl: "https://a.example/auth", scopes: {read: Read}}
  app: {type: oauth2, flow: application, tokenUrl: "https://a.example/token", scopes: {}}
parameters:
  limit: {name: limit, in: query, type: integer, maximum: 50}
  petBody: {name: pet, in: body, required: true, schema: {$ref: "#/definitions/Pet"}}
  note: {name: note, in: formData, type: string}
responses:
  NotFound: {description: gone, schema: {$ref: "#/definitions/Error"}}
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - $ref: "#/parameters/limit"
        - {name: ids, in: query, type: array, items: {type: integer}}
        - {name: tags, in: query, type: array, items: {type: string}, collectionFormat: multi}
        - {name: words, in: query, type: array, items: {type: string}, collectionFormat: pipes}
        - {name: X-Trace, in: header, type: array, items: {type: string}, x-example: [a, b]}
      responses:
        "200":
          description: pets
          headers:
            X-Rate: {type: integer, description: calls left}
          schema: {type: array, items: {$ref: "#/definitions/Pet"}}
          examples:
            application/json: [{id: 1, name: Rex}]
    post:
      operationId: addPet
      parameters: [{$ref: "#/parameters/petBody"}]
      responses:
        "201": {description: made}
  /pets/{id}:
    parameters:
      - {name: id, in: path, required: true, type: string}
      - {name: body, in: body, schema: {$ref: "#/definitions/Pet"}}
    put:
      operationId: putPet
      produces: [text/plain]
      responses:
        "200": {description: ok, schema: {type: string}}
        "404": {$ref: "#/responses/NotFound"}
  /pets/{id}/photo:
    post:
      operationId: upload
      consumes: [multipart/form-data]
      parameters:
        - {name: id, in: path, required: true, type: integer}
        - {name: file, in: formData, type: file, required: true}
        - {name: sizes, in: formData, type: array, items: {type: integer}}
        - $ref: "#/parameters/note"
      responses:
        "200": {description: the photo, schema: {type: file}}
definitions:
  Pet:
    type: object
    discriminator: kind
    required: [id, name]
    properties:
      id: {type: integer, format: int64}
      name: {type: string}
      kind: {type: string}
      tag: {type: string, x-nullable: true}
      photo: {type: file}
  Error:
    properties:
      code: {type: integer, minimum: 0, exclusiveMinimum: true}
"##;

fn upgraded() -> Document {
    load_str(PETSTORE, "pets.yaml").expect("the 2.0 petstore loads")
}

fn at<'a>(doc: &'a Document, pointer: &str) -> &'a Value {
    doc.pointer(pointer)
        .unwrap_or_else(|| panic!("{pointer} is missing from {:#}", doc.root))
}

#[test]
fn the_document_becomes_openapi_with_servers_and_components() {
    let doc = upgraded();
    assert_eq!(doc.version, OpenApiVersion::Swagger2);
    assert_eq!(doc.root["openapi"], "3.0.3");
    assert_eq!(
        doc.root["servers"],
        json!([{"url": "http://pets.example.com/v2"}, {"url": "https://pets.example.com/v2"}])
    );
    for gone in [
        "swagger",
        "definitions",
        "parameters",
        "responses",
        "securityDefinitions",
    ] {
        assert!(doc.root.get(gone).is_none(), "{gone} is still at the top");
    }
    let names = |kind: &str| -> Vec<String> {
        at(&doc, &format!("#/components/{kind}"))
            .as_object()
            .map(|map| map.keys().cloned().collect())
            .unwrap_or_default()
    };
    assert_eq!(names("schemas"), ["Pet", "Error"]);
    // The body parameter is a request body now, and the form one lives in its operation.
    assert_eq!(names("parameters"), ["limit"]);
    assert_eq!(names("requestBodies"), ["petBody"]);
    assert_eq!(names("responses"), ["NotFound"]);
}

#[test]
fn servers_without_a_host_or_a_scheme() {
    let only_base = "swagger: '2.0'\ninfo: {title: t, version: '1'}\nbasePath: /api\npaths: {}\n";
    let doc = load_str(only_base, "a.yaml").expect("loads");
    assert_eq!(doc.root["servers"], json!([{"url": "/api"}]));
    let host = "swagger: '2.0'\ninfo: {title: t, version: '1'}\nhost: h.example\npaths: {}\n";
    let doc = load_str(host, "a.yaml").expect("loads");
    assert_eq!(doc.root["servers"], json!([{"url": "https://h.example"}]));
    let none = "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\n";
    let doc = load_str(none, "a.yaml").expect("loads");
    assert!(doc.root.get("servers").is_none());
}

#[test]
fn security_schemes_take_their_3_0_spelling() {
    let doc = upgraded();
    let schemes = at(&doc, "#/components/securitySchemes");
    assert_eq!(
        schemes["basic"],
        json!({"type": "http", "scheme": "basic", "description": "user and password"})
    );
    assert_eq!(
        schemes["key"],
        json!({"type": "apiKey", "in": "query", "name": "api_key"})
    );
    assert_eq!(
        schemes["implicit"]["flows"],
        json!({"implicit": {"authorizationUrl": "https://a.example/auth", "scopes": {"read": "Read"}}})
    );
    assert_eq!(
        schemes["app"]["flows"],
        json!({"clientCredentials": {"tokenUrl": "https://a.example/token", "scopes": {}}})
    );
}

#[test]
fn parameters_keep_the_serialisation_2_0_gave_them() {
    let doc = upgraded();
    let parameters = at(&doc, "#/paths/~1pets/get/parameters");
    assert_eq!(
        parameters[0],
        json!({"$ref": "#/components/parameters/limit"})
    );
    assert_eq!(
        at(&doc, "#/components/parameters/limit/schema"),
        &json!({"type": "integer", "maximum": 50})
    );
    let style = |index: usize| {
        (
            parameters[index]["style"].clone(),
            parameters[index]["explode"].clone(),
        )
    };
    // 2.0's default is comma-separated (csv); 3.0's default for a query is one pair per item.
    assert_eq!(style(1), (json!("form"), json!(false)));
    assert_eq!(style(2), (json!("form"), json!(true)));
    assert_eq!(style(3), (json!("pipeDelimited"), json!(false)));
    assert_eq!(style(4), (json!("simple"), json!(false)));
    assert_eq!(
        parameters[1]["schema"],
        json!({"type": "array", "items": {"type": "integer"}})
    );
    assert!(parameters[1].get("type").is_none() && parameters[1].get("items").is_none());
    assert_eq!(parameters[4]["example"], json!(["a", "b"]));
}

#[test]
fn body_parameters_become_request_bodies() {
    let doc = upgraded();
    assert_eq!(
        at(&doc, "#/paths/~1pets/post/requestBody"),
        &json!({"$ref": "#/components/requestBodies/petBody"})
    );
    assert!(doc.pointer("#/paths/~1pets/post/parameters").is_none());
    let component = at(&doc, "#/components/requestBodies/petBody");
    assert_eq!(component["required"], true);
    let pet = json!({"schema": {"$ref": "#/components/schemas/Pet"}});
    assert_eq!(
        component["content"],
        json!({"application/json": pet, "application/xml": pet})
    );
    // A body written for the whole path joins its operation; the path keeps only `id`.
    assert_eq!(
        at(
            &doc,
            "#/paths/~1pets~1{id}/put/requestBody/content/application~1json/schema"
        ),
        &json!({"$ref": "#/components/schemas/Pet"})
    );
    let path_parameters = at(&doc, "#/paths/~1pets~1{id}/parameters");
    assert_eq!(path_parameters.as_array().map(Vec::len), Some(1));
    assert_eq!(path_parameters[0]["name"], "id");
}

#[test]
fn form_parameters_become_one_form_schema() {
    let doc = upgraded();
    let body = at(&doc, "#/paths/~1pets~1{id}~1photo/post/requestBody");
    assert_eq!(body["required"], true);
    let content = body["content"].as_object().expect("content");
    assert_eq!(content.keys().collect::<Vec<_>>(), ["multipart/form-data"]);
    assert_eq!(
        content["multipart/form-data"]["schema"],
        json!({
            "type": "object",
            "properties": {
                "file": {"type": "string", "format": "binary"},
                "sizes": {"type": "array", "items": {"type": "integer"}},
                "note": {"type": "string"},
            },
            "required": ["file"],
        })
    );
    let parameters = at(&doc, "#/paths/~1pets~1{id}~1photo/post/parameters");
    assert_eq!(parameters.as_array().map(Vec::len), Some(1));
    // Form parameters without a `consumes` that names a form type are sent urlencoded.
    let text = r#"swagger: '2.0'
info: {title: t, version: '1'}
paths:
  /login:
    post:
      parameters:
        - {name: user, in: formData, type: string}
        - {name: roles, in: formData, type: array, items: {type: string}}
      responses: {"204": {description: done}}
"#;
    let doc = load_str(text, "a.yaml").expect("loads");
    let form = at(&doc, "#/paths/~1login/post/requestBody/content");
    assert_eq!(
        form["application/x-www-form-urlencoded"]["encoding"],
        json!({"roles": {"style": "form", "explode": false}})
    );
    assert!(
        doc.pointer("#/paths/~1login/post/requestBody/required")
            .is_none()
    );
}

#[test]
fn responses_put_schemas_and_examples_under_their_media_types() {
    let doc = upgraded();
    let ok = at(&doc, "#/paths/~1pets/get/responses/200");
    assert_eq!(
        ok["content"]["application/json"],
        json!({
            "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}},
            "example": [{"id": 1, "name": "Rex"}],
        })
    );
    assert_eq!(
        ok["headers"]["X-Rate"],
        json!({"description": "calls left", "schema": {"type": "integer"}})
    );
    // An operation's `produces` replaces the document's.
    let put = at(&doc, "#/paths/~1pets~1{id}/put/responses");
    assert_eq!(
        put["200"]["content"],
        json!({"text/plain": {"schema": {"type": "string"}}})
    );
    assert_eq!(
        put["404"],
        json!({"$ref": "#/components/responses/NotFound"})
    );
    assert_eq!(
        at(
            &doc,
            "#/paths/~1pets~1{id}~1photo/post/responses/200/content/application~1json/schema"
        ),
        &json!({"type": "string", "format": "binary"})
    );
    assert_eq!(
        at(&doc, "#/paths/~1pets~1{id}/put/responses/200/description"),
        "ok"
    );
}

#[test]
fn schemas_take_their_3_1_spelling() {
    let doc = upgraded();
    let pet = at(&doc, "#/components/schemas/Pet");
    assert_eq!(pet["discriminator"], json!({"propertyName": "kind"}));
    assert_eq!(
        pet["properties"]["tag"],
        json!({"type": ["string", "null"]})
    );
    assert_eq!(
        pet["properties"]["photo"],
        json!({"type": "string", "format": "binary"})
    );
    // 2.0's boolean exclusive bound, as 3.0 has it, then in 3.1's spelling.
    assert_eq!(
        at(&doc, "#/components/schemas/Error/properties/code"),
        &json!({"type": "integer", "exclusiveMinimum": 0})
    );
}

#[test]
fn errors_point_at_the_place_the_2_0_document_wrote() {
    let text = PETSTORE.replace(
        "schema: {type: array, items: {$ref: \"#/definitions/Pet\"}}",
        "schema: {type: array, items: {$ref: \"#/definitions/Pets\"}}",
    );
    let line = text
        .lines()
        .position(|line| line.contains("#/definitions/Pets"))
        .expect("edited")
        + 1;
    match load_str(&text, "pets.yaml") {
        Err(Error::Spec {
            pointer,
            location,
            message,
        }) => {
            assert_eq!(pointer, "#/paths/~1pets/get/responses/200/schema/items");
            assert_eq!(message, "$ref '#/definitions/Pets' does not exist");
            assert_eq!(location.map(|(line, _)| line), Some(line));
        }
        other => panic!("expected a dangling reference, got {other:?}"),
    }
    // A moved place maps back to its 2.0 source for positions too.
    let doc = upgraded();
    let form_line = PETSTORE
        .lines()
        .position(|line| line.contains("name: sizes"))
        .expect("sizes")
        + 1;
    let pointer = "#/paths/~1pets~1{id}~1photo/post/requestBody/content/multipart~1form-data/schema/properties/sizes";
    assert_eq!(doc.location(pointer).map(|(line, _)| line), Some(form_line));
    assert_eq!(
        doc.written_pointer(pointer),
        "#/paths/~1pets~1{id}~1photo/post/parameters/2"
    );
    assert_eq!(
        doc.written_pointer("#/components/schemas/Pet/properties/tag"),
        "#/definitions/Pet/properties/tag"
    );
}

#[test]
fn other_swagger_versions_are_refused() {
    for text in [
        "swagger: '1.2'\ninfo: {title: t, version: '1'}\n",
        "swagger: '2.0'\nopenapi: 3.0.0\ninfo: {title: t, version: '1'}\n",
    ] {
        match load_str(text, "a.yaml") {
            Err(Error::Unsupported { pointer, .. }) => assert_eq!(pointer, "#/swagger"),
            other => panic!("expected the version refused, got {other:?}"),
        }
    }
}

#[test]
fn an_operations_own_body_replaces_the_paths_and_examples_match_by_media_type() {
    let text = r##"swagger: '2.0'
info: {title: t, version: '1'}
produces: [application/json]
parameters:
  "my body": {name: b, in: body, schema: {type: integer}}
paths:
  /a:
    parameters:
      - {name: shared, in: body, schema: {type: string}}
    put:
      parameters:
        - {name: own, in: body, schema: {type: boolean}}
      responses:
        "200":
          description: ok
          schema: {type: object}
          examples:
            "application/json; charset=utf-8": {done: true}
    post:
      parameters: [{$ref: "#/parameters/my%20body"}]
      responses: {"204": {description: done}}
"##;
    let doc = load_str(text, "a.yaml").expect("loads");
    assert_eq!(
        at(
            &doc,
            "#/paths/~1a/put/requestBody/content/application~1json/schema"
        ),
        &json!({"type": "boolean"})
    );
    assert_eq!(
        at(
            &doc,
            "#/paths/~1a/put/responses/200/content/application~1json/example"
        ),
        &json!({"done": true})
    );
    // A percent-encoded reference to a global body parameter is still a request body.
    assert_eq!(
        at(&doc, "#/paths/~1a/post/requestBody"),
        &json!({"$ref": "#/components/requestBodies/my%20body"})
    );
    assert!(doc.pointer("#/paths/~1a/post/parameters").is_none());
}
