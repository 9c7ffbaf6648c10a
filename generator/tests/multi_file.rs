//! Documents split over several files: `$ref`s to other files are followed relative to the
//! file they are written in, schemas become components of the root (one Rust type each, also
//! when reached from several places or through a cycle across files), other objects are
//! copied in place, and a file or pointer that is not there is an error naming both.

mod common;

use std::path::Path;

use serde_json::Value;
use specgen::load::{Document, load_file};

fn fixture() -> Document {
    let path = common::fixtures_dir().join("multi-file/openapi.yaml");
    load_file(&path).unwrap_or_else(|err| panic!("loading the multi-file fixture: {err}"))
}

/// Every `$ref` in `value`.
fn refs(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    common::collect_refs(value, &mut out);
    out
}

#[test]
fn references_to_other_files_become_local_and_resolve() {
    let doc = fixture();
    let all = refs(&doc.root);
    assert!(!all.is_empty());
    for reference in &all {
        assert!(reference.starts_with("#/"), "{reference} is not local");
        assert!(
            doc.pointer(reference).is_some(),
            "{reference} does not resolve"
        );
    }
}

#[test]
fn schemas_of_other_files_become_components_named_after_their_pointer_or_file() {
    let doc = fixture();
    let schemas = doc.root["components"]["schemas"].as_object().unwrap();
    let names: Vec<&str> = schemas.keys().map(String::as_str).collect();
    for expected in [
        "Team",          // the root's own
        "user",          // schemas/user.json, a whole file
        "address",       // schemas/address.yaml, reached from user.json
        "TreeNode",      // `schemas/tree%20node.yaml#/TreeNode`
        "Forest_item",   // `forest.yaml#/Forest/items`, an array's items
        "Problem",       // a local ref inside common/responses.yaml
        "Problem_title", // a ref into a property of another file's schema
        "LimitValue",    // a local ref inside a parameter's file
    ] {
        assert!(
            names.contains(&expected),
            "no component {expected} in {names:?}"
        );
    }
    // Reached three times (a response, Team.lead, Team.members): one component.
    assert_eq!(names.iter().filter(|n| n.starts_with("user")).count(), 1);
    assert_eq!(
        doc.root["components"]["schemas"]["Team"]["properties"]["lead"]["$ref"],
        "#/components/schemas/user"
    );
}

#[test]
fn a_schema_cycle_across_two_files_is_a_recursive_type() {
    let doc = fixture();
    assert_eq!(
        doc.root["components"]["schemas"]["TreeNode"]["properties"]["children"]["items"]["$ref"],
        "#/components/schemas/Forest_item"
    );
    assert_eq!(
        doc.root["components"]["schemas"]["Forest_item"]["$ref"],
        "#/components/schemas/TreeNode"
    );
    let files = specgen::generate_crate(&doc, &Default::default()).unwrap();
    let models = common::file(&files, "src/models.rs");
    assert!(models.contains("pub struct TreeNode"), "{models}");
    assert!(
        models.contains("pub children: Option<Vec<ForestItem>>"),
        "{models}"
    );
    assert!(
        models.contains("pub type ForestItem = TreeNode;"),
        "{models}"
    );
}

#[test]
fn path_items_parameters_and_responses_are_copied_in_place() {
    let doc = fixture();
    let users = &doc.root["paths"]["/users"];
    assert_eq!(users["get"]["operationId"], "listUsers");
    assert_eq!(users["get"]["parameters"][0]["name"], "limit");
    assert_eq!(
        users["get"]["parameters"][0]["schema"]["$ref"],
        "#/components/schemas/LimitValue"
    );
    let not_found = &doc.root["paths"]["/users/{id}"]["get"]["responses"]["404"];
    assert_eq!(not_found["description"], "No such user.");
    assert_eq!(
        not_found["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/Problem"
    );
}

#[test]
fn the_contract_of_a_multi_file_document_stands_alone() {
    let doc = fixture();
    let files = specgen::generate_crate(&doc, &Default::default()).unwrap();
    let schemas = common::contract_schemas(&files);
    assert!(
        schemas
            .iter()
            .any(|(path, _)| path.contains("parameter limit"))
    );
    for (path, schema) in schemas {
        for reference in refs(&schema) {
            assert!(
                common::ref_problem(&schema, &reference).is_none(),
                "{path}: {reference} does not resolve"
            );
        }
    }
}

/// Writes `files` (name → text) into a temporary directory and loads `openapi.yaml`.
fn load_tree(files: &[(&str, &str)]) -> (tempfile::TempDir, specgen::Result<Document>) {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let loaded = load_file(&dir.path().join("openapi.yaml"));
    (dir, loaded)
}

const HEAD: &str = "openapi: 3.1.0\ninfo: {title: T, version: '1'}\n";

fn error_of(files: &[(&str, &str)]) -> String {
    let (_dir, loaded) = load_tree(files);
    match loaded {
        Ok(_) => panic!("loaded although it should not"),
        Err(err) => err.to_string(),
    }
}

#[test]
fn a_missing_file_names_the_file_and_the_pointer_of_the_ref() {
    let text = format!(
        "{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A:\n      $ref: 'missing/b.yaml#/B'\n"
    );
    let message = error_of(&[("openapi.yaml", &text)]);
    assert!(message.starts_with("#/components/schemas/A: "), "{message}");
    assert!(message.contains("$ref 'missing/b.yaml#/B'"), "{message}");
    assert!(
        message.contains(&format!("missing{}b.yaml", std::path::MAIN_SEPARATOR)),
        "{message}"
    );
}

#[test]
fn a_pointer_missing_in_another_file_names_that_file() {
    let text =
        format!("{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A:\n      $ref: 'b.yaml#/Nope'\n");
    let message = error_of(&[("openapi.yaml", &text), ("b.yaml", "B: {type: string}\n")]);
    assert!(message.contains("'#/Nope' does not exist in"), "{message}");
    assert!(message.contains("b.yaml"), "{message}");
}

#[test]
fn a_ref_inside_another_file_is_reported_with_that_file() {
    let text =
        format!("{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A:\n      $ref: 'b.yaml'\n");
    let message = error_of(&[
        ("openapi.yaml", &text),
        (
            "b.yaml",
            "type: object\nproperties:\n  c: {$ref: 'c.yaml'}\n",
        ),
    ]);
    assert!(message.contains("b.yaml#/properties/c"), "{message}");
    assert!(message.contains("$ref 'c.yaml'"), "{message}");
}

/// An error inside another file has that file's line and column.
#[test]
fn an_error_inside_another_file_has_its_line_and_column_there() {
    let text =
        format!("{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A:\n      $ref: 'b.yaml'\n");
    let message = error_of(&[
        ("openapi.yaml", &text),
        (
            "b.yaml",
            "type: object\nproperties:\n  c:\n    $ref: 'c.yaml#/C'\n",
        ),
        ("c.yaml", "D: {type: string}\n"),
    ]);
    assert!(message.contains("b.yaml#/properties/c: "), "{message}");
    assert!(message.contains("'#/C' does not exist in"), "{message}");
    assert!(message.ends_with("(line 4, column 5)"), "{message}");
}

#[test]
fn a_file_that_does_not_parse_is_named() {
    let text =
        format!("{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A:\n      $ref: 'b.yaml'\n");
    let message = error_of(&[("openapi.yaml", &text), ("b.yaml", "a: [unclosed\n")]);
    assert!(message.contains("$ref 'b.yaml'"), "{message}");
    assert!(message.contains("b.yaml"), "{message}");
}

#[test]
fn a_cycle_of_path_items_across_files_is_an_error_not_a_hang() {
    let text = format!("{HEAD}paths:\n  /a:\n    $ref: 'a.yaml'\n");
    let message = error_of(&[
        ("openapi.yaml", &text),
        ("a.yaml", "$ref: 'b.yaml'\n"),
        ("b.yaml", "$ref: 'a.yaml'\n"),
    ]);
    assert!(message.contains("comes back to itself"), "{message}");
}

#[test]
fn a_remote_reference_is_refused_with_a_way_out() {
    let text = format!(
        "{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A:\n      $ref: 'https://example.com/a.yaml'\n"
    );
    let message = error_of(&[("openapi.yaml", &text)]);
    assert!(message.contains("unsupported remote $ref"), "{message}");
    assert!(message.contains("relative path"), "{message}");
}

#[test]
fn a_reference_back_into_the_root_stays_local() {
    let text = format!(
        "{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    Root: {{type: string}}\n    A:\n      $ref: 'b.yaml#/B'\n"
    );
    let (_dir, loaded) = load_tree(&[
        ("openapi.yaml", &text),
        (
            "b.yaml",
            "B:\n  type: object\n  properties:\n    r: {$ref: 'openapi.yaml#/components/schemas/Root'}\n",
        ),
    ]);
    let doc = loaded.unwrap();
    // `A` only points at `B`: `B` is the component `A`.
    assert_eq!(
        doc.root["components"]["schemas"]["A"]["properties"]["r"]["$ref"],
        "#/components/schemas/Root"
    );
}

/// `Pet: {$ref: ./schemas/Pet.yaml}`, the usual layout of a document in several files: the
/// component is that file's schema under the name the user gave it, so its type is `Pet`,
/// not a `Pet2` aliased as `Pet`, and every other reference to the file is to `Pet`; a
/// description beside the `$ref` stays.
#[test]
fn a_component_that_only_points_at_another_file_is_that_schema_under_its_name() {
    let text = format!(
        "{HEAD}paths: {{}}
components:
  schemas:
    Pet:
      $ref: './schemas/Pet.yaml'
      description: A pet.
    Owner:
      type: object
      properties:
        pet: {{$ref: './schemas/Pet.yaml'}}
        pets: {{$ref: './schemas/Pets.yaml'}}
    Pets:
      $ref: './schemas/Pets.yaml'
"
    );
    let (_dir, loaded) = load_tree(&[
        ("openapi.yaml", &text),
        (
            "schemas/Pet.yaml",
            "type: object
properties:
  name: {type: string}
  friends: {$ref: './Pets.yaml'}
",
        ),
        (
            "schemas/Pets.yaml",
            "type: array
items: {$ref: './Pet.yaml'}
",
        ),
    ]);
    let doc = loaded.unwrap();
    let schemas = doc.root["components"]["schemas"].as_object().unwrap();
    let mut names: Vec<&str> = schemas.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(names, ["Owner", "Pet", "Pets"]);
    assert_eq!(schemas["Pet"]["description"], "A pet.");
    assert_eq!(schemas["Pet"]["properties"]["name"]["type"], "string");
    assert_eq!(
        schemas["Pet"]["properties"]["friends"]["$ref"],
        "#/components/schemas/Pets"
    );
    assert_eq!(schemas["Pets"]["items"]["$ref"], "#/components/schemas/Pet");
    assert_eq!(
        schemas["Owner"]["properties"]["pet"]["$ref"],
        "#/components/schemas/Pet"
    );
}

#[test]
fn text_without_a_file_cannot_follow_references_to_files() {
    let text = format!("{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A: {{$ref: 'b.yaml'}}\n");
    let message = specgen::load::load_str(&text, "inline.yaml")
        .unwrap_err()
        .to_string();
    assert!(message.contains("loaded from its file"), "{message}");
    assert!(!Path::new("b.yaml").exists());
}

/// A Swagger 2.0 document split over files: its schemas stand where 2.0 puts them (a
/// definition, a response's `schema`, a body parameter's), and each file's schema is still one
/// component, upgraded like the root's own.
#[test]
fn a_swagger_2_document_bundles_its_schemas_into_components() {
    let main = r##"swagger: "2.0"
info: {title: M, version: "1"}
paths:
  /pets:
    get:
      parameters: [{$ref: "params.yaml#/limit"}]
      responses:
        "200": {description: ok, schema: {type: array, items: {$ref: "pet.yaml"}}}
    post:
      parameters: [{name: body, in: body, schema: {$ref: "pet.yaml"}}]
      responses: {"204": {description: ok}}
definitions:
  Owner: {properties: {pet: {$ref: "pet.yaml"}}}
"##;
    let pet = "type: object\nproperties:\n  tag: {type: string, x-nullable: true}\n  photo: {type: file}\n";
    let params = "limit: {name: limit, in: query, type: array, items: {type: integer}}\n";
    let (_dir, doc) = load_tree(&[
        ("openapi.yaml", main),
        ("pet.yaml", pet),
        ("params.yaml", params),
    ]);
    let doc = doc.unwrap_or_else(|err| panic!("{err}"));
    let schemas = doc.root["components"]["schemas"].as_object().unwrap();
    let names: Vec<&str> = schemas.keys().map(String::as_str).collect();
    assert_eq!(names, ["pet", "Owner"]);
    let pet_ref = serde_json::json!({"$ref": "#/components/schemas/pet"});
    assert_eq!(
        doc.root["components"]["schemas"]["Owner"]["properties"]["pet"],
        pet_ref
    );
    let get = &doc.root["paths"]["/pets"]["get"];
    assert_eq!(
        get["responses"]["200"]["content"]["application/json"]["schema"]["items"],
        pet_ref
    );
    assert_eq!(
        doc.root["paths"]["/pets"]["post"]["requestBody"]["content"]["application/json"]["schema"],
        pet_ref
    );
    // The other file's schema is upgraded too, and its parameter keeps 2.0's `csv`.
    assert_eq!(
        schemas["pet"]["properties"]["photo"],
        serde_json::json!({"type": "string", "format": "binary"})
    );
    assert_eq!(
        schemas["pet"]["properties"]["tag"]["type"],
        serde_json::json!(["string", "null"])
    );
    assert_eq!(get["parameters"][0]["explode"], false);
    assert_eq!(get["parameters"][0]["schema"]["items"]["type"], "integer");
}

/// The validator of a component's contract file, for a document loaded from `files`.
fn component_validator(files: &[(&str, &str)], component: &str) -> jsonschema::Validator {
    let (_dir, loaded) = load_tree(files);
    let doc = loaded.expect("the document loads");
    let contract = specgen::contract(&doc, &specgen::Options::default()).expect("a contract");
    let path = format!("components/{component}.json");
    let (_, text) = contract
        .files
        .iter()
        .find(|(file, _)| *file == path)
        .unwrap_or_else(|| panic!("no {path}"));
    jsonschema::validator_for(&serde_json::from_str(text).unwrap()).expect("compiles")
}

/// Another file's `Cat` and `Dog`, beside the root's own `Cat`: the bundled one is `Cat2`.
const OTHER_PETS: &str = "components:
  schemas:
    Cat: {type: object, required: [kind], properties: {kind: {type: string}, meow: {type: boolean}}}
    Dog: {type: object, required: [kind], properties: {kind: {type: string}, bark: {type: boolean}}}
    Holder:
      type: object
      properties:
        pet:
          oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]
          discriminator: {propertyName: kind, MAPPING}
";

fn same_names(mapping: &str) -> [(&'static str, String); 2] {
    let root = format!(
        "{HEAD}paths: {{}}
components:
  schemas:
    Cat: {{type: object, properties: {{kind: {{type: string}}}}}}
    Wrapper: {{type: object, properties: {{theirs: {{$ref: 'other.yaml#/components/schemas/Holder'}}}}}}
"
    );
    [
        ("openapi.yaml", root),
        ("other.yaml", OTHER_PETS.replace("MAPPING", mapping)),
    ]
}

/// A discriminator is read as the file it is written in reads it: its implicit tags are its
/// schemas' names there (`Cat`, though bundled as `Cat2`), and its mapping's references and
/// bare names point into that file. Before, the tags were the bundled names (`Cat2`, a word
/// no payload carries) and the mapping was resolved against the root (the root's `Cat`).
#[test]
fn a_discriminator_in_another_file_keeps_its_tags() {
    let meow = serde_json::json!({"pet": {"kind": "Cat", "meow": true}});
    for mapping in ["mapping: {}", ""] {
        let files = same_names(mapping);
        let files: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
        let holder = component_validator(&files, "Holder");
        assert!(holder.is_valid(&meow), "implicit tag `Cat` ({mapping})");
        assert!(!holder.is_valid(&serde_json::json!({"pet": {"kind": "Cat2"}})));
    }
    for mapping in [
        "mapping: {kitty: '#/components/schemas/Cat', puppy: '#/components/schemas/Dog'}",
        "mapping: {kitty: Cat, puppy: Dog}",
    ] {
        let files = same_names(mapping);
        let files: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
        let holder = component_validator(&files, "Holder");
        let kitty = serde_json::json!({"pet": {"kind": "kitty", "meow": true}});
        assert!(holder.is_valid(&kitty), "{mapping}");
        // `meow` must be a boolean in the other file's `Cat`, the one the tag names.
        let wrong = serde_json::json!({"pet": {"kind": "kitty", "meow": "yes"}});
        assert!(!holder.is_valid(&wrong), "{mapping}");
    }
}

/// A mapping may name other files (`./dog.yaml`, with `..` through a directory that need
/// not exist): each becomes a component, and the base dispatches to it. Before, they were
/// never loaded, silently.
#[test]
fn a_discriminator_mapping_to_other_files_loads_them() {
    let base = "components:
  schemas:
    Pet:
      type: object
      required: [pet_type]
      properties: {pet_type: {type: string}}
      discriminator:
        propertyName: pet_type
        mapping: {c: './sub/../cat.yaml', d: './dog.yaml'}
";
    let cat = "allOf: [{$ref: 'base.yaml#/components/schemas/Pet'}, {type: object, required: [lives], properties: {lives: {type: integer}}}]\n";
    let dog = "allOf: [{$ref: 'base.yaml#/components/schemas/Pet'}, {type: object, properties: {bark: {type: boolean}}}]\n";
    let root = format!(
        "{HEAD}paths: {{}}
components:
  schemas:
    Owner: {{type: object, properties: {{pet: {{$ref: 'pets/base.yaml#/components/schemas/Pet'}}}}}}
"
    );
    let files = [
        ("openapi.yaml", root.as_str()),
        ("pets/base.yaml", base),
        ("pets/cat.yaml", cat),
        ("pets/dog.yaml", dog),
    ];
    let (_dir, loaded) = load_tree(&files);
    let doc = loaded.expect("the document loads");
    let schemas = doc.root["components"]["schemas"].as_object().unwrap();
    for name in ["cat", "dog"] {
        assert!(schemas.contains_key(name), "no component {name}");
    }
    let owner = component_validator(&files, "Owner");
    let pet = |value: Value| serde_json::json!({ "pet": value });
    assert!(owner.is_valid(&pet(serde_json::json!({"pet_type": "c", "lives": 9}))));
    assert!(
        !owner.is_valid(&pet(serde_json::json!({"pet_type": "c"}))),
        "a `c` is a cat, which requires lives"
    );
    assert!(owner.is_valid(&pet(serde_json::json!({"pet_type": "d", "bark": true}))));
}

/// A key that is literal data where it is a keyword (`default`, `value`, `example`, `enum`,
/// `const`, `x-…`) is a name in a map of names: a reference to another file under the
/// `default` response, a property or a component so named is followed like any other, also
/// when it is the document's only one.
#[test]
fn a_reference_under_a_name_that_is_also_a_keyword_is_followed() {
    let plain = "type: object\nproperties:\n  id: {type: string}\n";
    let documents = [
        format!(
            "{HEAD}paths:\n  /a:\n    get:\n      responses:\n        default:\n          description: d\n          content:\n            application/json:\n              schema: {{$ref: 'plain.yaml'}}\n"
        ),
        format!(
            "{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    T:\n      type: object\n      properties:\n        value: {{$ref: 'plain.yaml'}}\n        default: {{$ref: 'plain.yaml'}}\n        x-extra: {{$ref: 'plain.yaml'}}\n"
        ),
        format!("{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    value: {{$ref: 'plain.yaml'}}\n"),
    ];
    for document in documents {
        let (_dir, loaded) = load_tree(&[("openapi.yaml", &document), ("plain.yaml", plain)]);
        let doc = loaded.unwrap_or_else(|err| panic!("{err}\n{document}"));
        let all = refs(&doc.root);
        assert!(all.iter().all(|r| r.starts_with('#')), "{all:?}");
        // Followed: the schema is in the document, under the component's name where a
        // component only points at it.
        let schemas = &doc.root["components"]["schemas"];
        let followed = schemas
            .as_object()
            .unwrap()
            .values()
            .any(|schema| schema["properties"]["id"]["type"] == "string");
        assert!(followed, "{document}");
    }
    // An example's `$ref` member is data: it neither makes the document bundle nor is followed.
    let example = format!(
        "{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    T:\n      type: object\n      example: {{$ref: 'not-a-file.yaml'}}\n"
    );
    let (_dir, loaded) = load_tree(&[("openapi.yaml", &example)]);
    loaded.unwrap_or_else(|err| panic!("{err}"));
}

/// What specgen says about a place another file holds names that file, and the line and
/// column there: not the bundle's `#/components/schemas/…` at the root's first line.
#[test]
fn a_warning_about_a_schema_of_another_file_names_that_file_and_its_line() {
    let text = format!(
        "{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A:\n      $ref: 'models/thing.yaml#/Thing'\n"
    );
    let (dir, loaded) = load_tree(&[
        ("openapi.yaml", &text),
        (
            "models/thing.yaml",
            "# models\nThing:\n  type: object\n  properties:\n    name:\n      type: strin\n",
        ),
    ]);
    let doc = loaded.unwrap();
    let api = specgen::build_ir(&doc, &specgen::Options::default()).unwrap();
    let warning = api
        .warnings
        .iter()
        .find(|warning| warning.message.contains("\"strin\""))
        .expect("the misspelt type is warned about");
    let file = std::fs::canonicalize(dir.path().join("models/thing.yaml")).unwrap();
    assert_eq!(
        warning.pointer,
        format!("{}#/Thing/properties/name/type", file.display())
    );
    assert_eq!(warning.location, Some((6, 13)), "{warning}");
}

/// A refusal inside an object copied through two files (a path item in one, its request
/// body in another) is placed in the last of them.
#[test]
fn a_refusal_inside_copies_of_copies_names_the_file_it_was_written_in() {
    let text = format!("{HEAD}paths:\n  /things:\n    $ref: 'paths.yaml#/things'\n");
    let (dir, loaded) = load_tree(&[
        ("openapi.yaml", &text),
        (
            "paths.yaml",
            "things:\n  post:\n    operationId: addThing\n    requestBody:\n      $ref: 'bodies.yaml#/Thing'\n    responses:\n      '204': {description: done}\n",
        ),
        (
            "bodies.yaml",
            "Thing:\n  description: a thing\n  content:\n    - application/json\n",
        ),
    ]);
    let doc = loaded.unwrap();
    let message = specgen::build_ir(&doc, &specgen::Options::default())
        .expect_err("a list where `content` must be a mapping is refused")
        .to_string();
    let file = std::fs::canonicalize(dir.path().join("bodies.yaml")).unwrap();
    assert!(
        message.starts_with(&format!("{}#/Thing/content: ", file.display())),
        "{message}"
    );
    assert!(message.ends_with("(line 4, column 5)"), "{message}");
}

/// `specgen diff` places a change to a schema of another file in that file, so a SARIF or
/// text report annotates the line the user edited.
#[test]
fn a_diff_finding_in_another_file_carries_that_file_and_its_line() {
    let text = format!(
        "{HEAD}paths:\n  /things:\n    get:\n      operationId: listThings\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {{$ref: 'models.yaml#/Thing'}}\n"
    );
    let model = |kind: &str| {
        format!("Thing:\n  type: object\n  properties:\n    size:\n      type: {kind}\n")
    };
    let (old_dir, old) = load_tree(&[("openapi.yaml", &text), ("models.yaml", &model("integer"))]);
    let (new_dir, new) = load_tree(&[("openapi.yaml", &text), ("models.yaml", &model("string"))]);
    let report =
        specgen::diff::diff(&old.unwrap(), &new.unwrap(), &specgen::Options::default()).unwrap();
    let new_file = std::fs::canonicalize(new_dir.path().join("models.yaml")).unwrap();
    let old_file = std::fs::canonicalize(old_dir.path().join("models.yaml")).unwrap();
    let in_models: Vec<_> = report
        .findings
        .iter()
        .filter(|finding| finding.place.pointer.contains("/size"))
        .collect();
    assert!(!in_models.is_empty(), "{:#?}", report.findings);
    for finding in in_models {
        let file = match finding.place.document {
            specgen::diff::Which::Old => &old_file,
            specgen::diff::Which::New => &new_file,
        };
        assert_eq!(
            finding.place.file.as_deref(),
            Some(&*file.display().to_string()),
            "{finding:?}"
        );
        assert!(matches!(finding.place.line, Some(4 | 5)), "{finding:?}");
    }
}

/// The digest (and so the committed fingerprint) of a document of several files is the same
/// in another checkout of the same files: paths count as written from the root document's
/// directory, `..` included, not as the machine's absolute ones.
#[test]
fn two_checkouts_of_one_multi_file_document_have_one_digest() {
    let text = format!(
        "{HEAD}paths: {{}}\ncomponents:\n  schemas:\n    A:\n      $ref: '../common/a.yaml#/A'\n"
    );
    let digest = |edit: &str| {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("spec")).unwrap();
        std::fs::create_dir_all(dir.path().join("common")).unwrap();
        std::fs::write(dir.path().join("spec/openapi.yaml"), &text).unwrap();
        std::fs::write(
            dir.path().join("common/a.yaml"),
            format!("A: {{type: string{edit}}}\n"),
        )
        .unwrap();
        load_file(&dir.path().join("spec/openapi.yaml"))
            .unwrap()
            .digest()
    };
    assert_eq!(digest(""), digest(""));
    assert_ne!(digest(""), digest(", maxLength: 3"));
}
