// Over 600 lines on purpose: the loader's unit tests, one per construct, kept apart from its code.
use std::path::PathBuf;

use serde_json::json;

use super::*;

fn load(yaml: &str) -> Result<Document> {
    load_str(yaml, "<input>")
}

fn loaded(yaml: &str) -> Document {
    match load(yaml) {
        Ok(doc) => doc,
        Err(err) => panic!("expected the document to load, got: {err}"),
    }
}

fn failed(yaml: &str) -> Error {
    match load(yaml) {
        Ok(doc) => panic!("expected an error, got {doc:?}"),
        Err(err) => err,
    }
}

const MINIMAL_31: &str = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n";

#[test]
fn loads_yaml() {
    let doc = loaded(MINIMAL_31);
    assert_eq!(doc.version, OpenApiVersion::V3_1);
    assert_eq!(doc.source, "<input>");
    assert_eq!(doc.pointer("#/info/title"), Some(&json!("t")));
}

#[test]
fn loads_json_and_keeps_key_order() {
    let text = r#"{"openapi": "3.0.3", "info": {"version": "1", "title": "t"}, "paths": {}}"#;
    let doc = load_str(text, "spec.json").expect("valid JSON");
    assert_eq!(doc.version, OpenApiVersion::V3_0);
    let keys: Vec<&String> = doc.root["info"]
        .as_object()
        .expect("object")
        .keys()
        .collect();
    assert_eq!(keys, ["version", "title"]);
    assert_eq!(doc.location("#/info/title"), Some((1, 56)));
}

#[test]
fn yaml_flow_mapping_starting_with_brace_still_loads() {
    let doc = loaded("{openapi: 3.1.0, info: {title: t, version: '1'}}");
    assert_eq!(doc.pointer("/info/version"), Some(&json!("1")));
}

#[test]
fn malformed_yaml_reports_line_and_column() {
    let err = failed("openapi: 3.1.0\ninfo:\n  title: t\n   version: 1\n");
    match &err {
        Error::Parse {
            source_name,
            line,
            column,
            message,
        } => {
            assert_eq!(source_name, "<input>");
            assert_eq!(*line, Some(4));
            assert!(column.is_some(), "{err}");
            assert!(
                !message.contains("at line 4"),
                "position printed twice: {message}"
            );
        }
        other => panic!("expected a parse error, got {other:?}"),
    }
}

#[test]
fn malformed_json_reports_line_and_column() {
    let err = load_str("{\n  \"openapi\": \"3.1.0\",\n  \"info\": }\n", "x.json")
        .expect_err("invalid JSON");
    match err {
        Error::Parse {
            line,
            column,
            message,
            ..
        } => {
            assert_eq!((line, column), (Some(3), Some(11)));
            assert_eq!(message, "expected value");
        }
        other => panic!("expected a parse error, got {other:?}"),
    }
}

#[test]
fn duplicate_yaml_keys_are_a_parse_error() {
    let err = failed("openapi: 3.1.0\ninfo: {}\ninfo: {}\n");
    assert!(
        matches!(
            err,
            Error::Parse {
                line: Some(3),
                column: Some(1),
                ..
            }
        ),
        "{err}"
    );
}

/// JSON allows a member name twice (RFC 8259: SHOULD be unique): the last is read, as JSON
/// parsers read it, and the first such name is noted with its path and place, for a warning.
#[test]
fn a_json_member_name_given_twice_is_read_last_and_noted() {
    let text = "{\"openapi\": \"3.1.0\",\n \"info\": {\"title\": \"t\", \"version\": \"1\"},\n                 \"x-list\": [{\"a\": 1}, {\"b\": 1,\n \"b\": 2}],\n \"paths\": {}}";
    let doc = crate::load::load_str(text, "api.json").expect("loads");
    assert_eq!(doc.root["x-list"][1]["b"], 2);
    let duplicate = doc.duplicate_key.as_ref().expect("noted");
    assert_eq!(duplicate.name, "b");
    assert_eq!(duplicate.pointer, "#/x-list/1/b");
    assert_eq!(duplicate.location.0, 4);
    // Said as a warning of the build, first, at that place.
    let api = crate::build_ir(&doc, &crate::Options::default()).expect("builds");
    let warning = &api.warnings[0];
    assert_eq!(warning.pointer, "#/x-list/1/b");
    assert_eq!(warning.location.map(|(line, _)| line), Some(4));
    assert!(warning.message.contains("`b` is given twice"), "{warning}");
    let unique = crate::load::load_str("{\"openapi\": \"3.1.0\", \"info\": {}}", "api.json");
    assert_eq!(unique.expect("loads").duplicate_key, None);
}

#[test]
fn scalar_keys_become_strings_and_numbers_keep_integerness() {
    let doc = loaded(
        "openapi: 3.1.0\n\
         info: {title: t, version: '1'}\n\
         paths:\n  /a:\n    get:\n      responses:\n        200: {description: ok}\n        \
         404: {description: missing}\n        default: {description: other}\n\
         x-keys: {true: a, on: b, yes: c, 1.5: d, ~: e}\n\
         x-numbers: [1, -2, 1.5, 1.0]\n",
    );
    let responses = doc.pointer("#/paths/~1a/get/responses").expect("responses");
    let keys: Vec<&String> = responses.as_object().expect("object").keys().collect();
    assert_eq!(keys, ["200", "404", "default"]);
    let ext: Vec<&String> = doc.root["x-keys"]
        .as_object()
        .expect("object")
        .keys()
        .collect();
    assert_eq!(ext, ["true", "on", "yes", "1.5", "null"]);
    let numbers = doc.root["x-numbers"].as_array().expect("array");
    assert!(numbers[0].is_u64() && numbers[1].is_i64());
    assert!(numbers[2].is_f64() && numbers[3].is_f64());
}

#[test]
fn colliding_keys_after_stringification_are_rejected() {
    let err = failed("openapi: 3.1.0\nresponses:\n  200: {}\n  '200': {}\n");
    assert!(
        err.to_string().contains("duplicate mapping key `200`"),
        "{err}"
    );
}

#[test]
fn merge_keys_and_anchors() {
    let doc = loaded(
        "openapi: 3.1.0\n\
         components:\n  schemas:\n    Base: &base {type: object, description: base}\n    \
         Derived:\n      <<: *base\n      description: derived\n",
    );
    assert_eq!(
        doc.pointer("#/components/schemas/Derived"),
        Some(&json!({"description": "derived", "type": "object"}))
    );
}

const NULLABLE_30: &str = "\
openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /pets:
    get:
      parameters:
        - name: q
          in: query
          schema: {type: integer, nullable: true, minimum: 1, exclusiveMinimum: true}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Pet'
components:
  schemas:
    Pet:
      type: object
      example: {name: rex}
      properties:
        name: {type: string, nullable: true}
        kind: {type: string, enum: [cat, dog], nullable: true}
        owner:
          $ref: '#/components/schemas/Owner'
          nullable: true
        tags:
          type: array
          items: {type: string, nullable: false, maximum: 3, exclusiveMaximum: false}
    Owner:
      nullable: true
      allOf:
        - type: object
          properties:
            id: {type: integer, nullable: true}
    Wrapped:
      $ref: '#/components/schemas/Owner/allOf/0/properties/id'
";

#[test]
fn openapi_30_nullable_is_normalised() {
    let doc = loaded(NULLABLE_30);
    assert_eq!(doc.version, OpenApiVersion::V3_0);
    let pet = |p: &str| {
        doc.pointer(&format!("#/components/schemas/Pet{p}"))
            .cloned()
    };
    assert_eq!(
        pet("/properties/name"),
        Some(json!({"type": ["string", "null"]}))
    );
    assert_eq!(
        pet("/properties/kind"),
        Some(json!({"type": ["string", "null"], "enum": ["cat", "dog", null]}))
    );
    assert_eq!(
        pet("/properties/owner"),
        Some(json!({"anyOf": [{"$ref": "#/components/schemas/Owner"}, {"type": "null"}]}))
    );
    assert_eq!(
        pet("/properties/tags/items"),
        Some(json!({"type": "string", "maximum": 3}))
    );
    assert_eq!(pet("/examples"), Some(json!([{"name": "rex"}])));
    assert_eq!(pet("/example"), None);
    assert_eq!(
        doc.pointer("#/paths/~1pets/get/parameters/0/schema"),
        Some(&json!({"type": ["integer", "null"], "exclusiveMinimum": 1}))
    );
    // A nullable allOf is wrapped, and its own nullable children normalised
    // at their new place.
    assert_eq!(
        doc.pointer("#/components/schemas/Owner/anyOf/0/allOf/0/properties/id"),
        Some(&json!({"type": ["integer", "null"]}))
    );
    assert_eq!(
        doc.pointer("#/components/schemas/Owner/anyOf/1"),
        Some(&json!({"type": "null"}))
    );
}

#[test]
fn what_a_nullable_wrapper_says_of_the_whole_value_stays_on_it() {
    // `nullable` beside `allOf` or `oneOf` becomes `anyOf: [<schema>, {type: null}]`; an
    // example or default of null, and the direction of a property, belong to the wrapper:
    // the non-null branch would refuse the null, and readers of `readOnly` look at the
    // property's own schema.
    let doc = loaded(
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    \
         Pet:\n      properties:\n        owner:\n          nullable: true\n          \
         readOnly: true\n          description: Set by the server.\n          default: null\n          \
         example: null\n          allOf: [{type: object}]\n",
    );
    assert_eq!(
        doc.pointer("#/components/schemas/Pet/properties/owner"),
        Some(&json!({
            "examples": [null],
            "default": null,
            "readOnly": true,
            "description": "Set by the server.",
            "anyOf": [
                {"description": "Set by the server.", "allOf": [{"type": "object"}]},
                {"type": "null"}
            ]
        }))
    );
}

#[test]
fn refs_into_wrapped_schemas_are_redirected() {
    let doc = loaded(NULLABLE_30);
    assert_eq!(
        doc.pointer("#/components/schemas/Wrapped/$ref"),
        Some(&json!(
            "#/components/schemas/Owner/anyOf/0/allOf/0/properties/id"
        ))
    );
}

#[test]
fn locations_follow_normalised_schemas_back_to_the_source() {
    let doc = loaded(NULLABLE_30);
    // `id: {...}` is on line 36, its value at column 17.
    assert_eq!(
        doc.location("#/components/schemas/Owner/anyOf/0/allOf/0/properties/id"),
        Some((36, 17))
    );
    // The synthesised null branch maps to the schema that was nullable.
    assert_eq!(
        doc.location("#/components/schemas/Owner/anyOf/1"),
        Some((32, 7))
    );
    // New nodes map to their nearest ancestor that the source has.
    assert_eq!(
        doc.location("#/components/schemas/Pet/properties/name/type/1"),
        Some((23, 22))
    );
    assert_eq!(doc.location("#/components/schemas/Nope"), None);
}

#[test]
fn openapi_31_is_left_alone() {
    let doc = loaded(
        "openapi: 3.1.0\ncomponents:\n  schemas:\n    A: {type: string, example: x, minLength: 1}\n",
    );
    assert_eq!(
        doc.pointer("#/components/schemas/A"),
        Some(&json!({"type": "string", "example": "x", "minLength": 1}))
    );
}

/// 3.0's `nullable: true` kept in a 3.1 document (ReadMe's API, 498 times): read as 3.0 reads
/// it beside a `type`, `null` joining the type and an `enum`, and a warning names the first
/// place and counts the others; beside no `type` (a `$ref`), it stays unread.
#[test]
fn a_typed_nullable_in_3_1_is_read_as_3_0_reads_it_with_a_warning() {
    let text = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    \
                A: {type: string, nullable: true}\n    \
                B: {type: string, enum: [x, y], nullable: true}\n    \
                C: {type: [integer, 'null'], nullable: true}\n    \
                D: {$ref: '#/components/schemas/A', nullable: true}\n    \
                E: {type: string, nullable: false}\n";
    let doc = loaded(text);
    let schema = |name: &str| {
        doc.pointer(&format!("#/components/schemas/{name}"))
            .cloned()
    };
    assert_eq!(schema("A"), Some(json!({"type": ["string", "null"]})));
    assert_eq!(
        schema("B"),
        Some(json!({"type": ["string", "null"], "enum": ["x", "y", null]}))
    );
    assert_eq!(schema("C"), Some(json!({"type": ["integer", "null"]})));
    assert_eq!(
        schema("D"),
        Some(json!({"$ref": "#/components/schemas/A", "nullable": true}))
    );
    assert_eq!(
        schema("E"),
        Some(json!({"type": "string", "nullable": false}))
    );
    let api = crate::build_ir(&doc, &crate::Options::default()).expect("the document builds");
    let warning = &api.warnings[0];
    assert_eq!(warning.pointer, "#/components/schemas/A/nullable");
    assert_eq!(warning.location, Some((6, 33)));
    assert!(
        warning.message.contains("OpenAPI 3.0's keyword, not 3.1's")
            && warning.message.contains("and in 2 other schemas"),
        "{}",
        warning.message
    );
}

/// OpenAPI 3.0 ignores what stands beside a `$ref` (SoundCloud's `required: [title]` beside its
/// `Track`), but for `nullable`, `readOnly`/`writeOnly` and annotations; 3.1 applies it.
#[test]
fn assertions_beside_a_ref_are_dropped_in_3_0_only() {
    let text = |version: &str| {
        format!(
            "openapi: {version}\ncomponents:\n  schemas:\n    T: {{type: object}}\n    \
             A: {{$ref: '#/components/schemas/T', required: [title], maxProperties: 3, \
             description: d, readOnly: true, x-note: n}}\n"
        )
    };
    assert_eq!(
        loaded(&text("3.0.3")).pointer("#/components/schemas/A"),
        Some(
            &json!({"$ref": "#/components/schemas/T", "description": "d", "readOnly": true,
            "x-note": "n"})
        )
    );
    assert_eq!(
        loaded(&text("3.1.0")).pointer("#/components/schemas/A"),
        Some(
            &json!({"$ref": "#/components/schemas/T", "required": ["title"],
            "maxProperties": 3, "description": "d", "readOnly": true, "x-note": "n"})
        )
    );
}

#[test]
fn example_payloads_are_not_normalised_or_ref_checked() {
    let doc = loaded(
        "openapi: 3.0.0\n\
         paths:\n  /a:\n    post:\n      requestBody:\n        content:\n          \
         application/json:\n            schema: {type: object, nullable: true, default: {$ref: nope}}\n            \
         example: {nullable: true, $ref: 'other.yaml'}\n            \
         examples:\n              one: {value: {$ref: '#/x'}}\n",
    );
    assert_eq!(
        doc.pointer("#/paths/~1a/post/requestBody/content/application~1json/example"),
        Some(&json!({"nullable": true, "$ref": "other.yaml"}))
    );
}

const DANGLING: &str = "\
openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /banking/accounts:
    post:
      requestBody:
        $ref: '#/components/schemas/Nope'
      responses:
        '201':
          $ref: '#/components/responses/AlsoMissing'
";

#[test]
fn dangling_ref_is_reported_with_pointer_and_location() {
    let err = failed(DANGLING);
    match &err {
        Error::Spec {
            pointer,
            location,
            message,
        } => {
            assert_eq!(pointer, "#/paths/~1banking~1accounts/post/requestBody");
            assert_eq!(message, "$ref '#/components/schemas/Nope' does not exist");
            assert_eq!(*location, Some((7, 9)));
        }
        other => panic!("expected a spec error, got {other:?}"),
    }
    assert_eq!(
        err.to_string(),
        "#/paths/~1banking~1accounts/post/requestBody: $ref '#/components/schemas/Nope' \
         does not exist (line 7, column 9)"
    );
}

#[test]
fn external_refs_are_unsupported() {
    for target in [
        "other.yaml#/components/schemas/A",
        "https://example.com/s.json",
        "#anchor",
    ] {
        let text = format!(
            "openapi: 3.1.0\ncomponents:\n  schemas:\n    A:\n      properties:\n        \
             b: {{$ref: '{target}'}}\n"
        );
        match failed(&text) {
            Error::Unsupported {
                pointer,
                construct,
                message,
                location,
            } => {
                assert_eq!(pointer, "#/components/schemas/A/properties/b");
                assert!(construct.contains("$ref"), "{construct}");
                assert!(message.contains(target), "{message}");
                assert_eq!(location, Some((6, 12)));
            }
            other => panic!("expected unsupported, got {other:?}"),
        }
    }
}

#[test]
fn non_string_refs_are_rejected() {
    match failed("openapi: 3.1.0\ncomponents:\n  schemas:\n    A: {$ref: 7}\n") {
        Error::Spec {
            pointer, message, ..
        } => {
            assert_eq!(pointer, "#/components/schemas/A");
            assert!(message.contains("must be a string"), "{message}");
        }
        other => panic!("expected a spec error, got {other:?}"),
    }
    // A property that happens to be called `$ref` is not a reference.
    loaded(
        "openapi: 3.1.0\ncomponents:\n  schemas:\n    A:\n      properties:\n        $ref: {type: string}\n",
    );
}

#[test]
fn swagger_1_and_other_versions_are_rejected() {
    match failed("swagger: '1.2'\ninfo: {title: t, version: '1'}\n") {
        Error::Unsupported {
            pointer,
            construct,
            location,
            ..
        } => {
            assert_eq!(pointer, "#/swagger");
            assert_eq!(construct, "Swagger 1.2");
            assert_eq!(location, Some((1, 10)));
        }
        other => panic!("expected unsupported, got {other:?}"),
    }
    for text in ["openapi: 4.0.0\n", "info: {}\n"] {
        match failed(text) {
            Error::Unsupported { pointer, .. } => assert_eq!(pointer, "#/openapi"),
            other => panic!("expected unsupported, got {other:?}"),
        }
    }
    // Unquoted versions are numbers in YAML; still understood.
    assert_eq!(loaded("openapi: 3.0\n").version, OpenApiVersion::V3_0);
    assert_eq!(loaded("openapi: 3.1\n").version, OpenApiVersion::V3_1);
    // 3.2 extends 3.1: read as it, its additions left out where the IR meets them.
    assert_eq!(loaded("openapi: 3.2.0\n").version, OpenApiVersion::V3_2);
}

#[test]
fn non_mapping_documents_are_rejected() {
    for text in ["", "- a\n- b\n", "just text"] {
        assert!(matches!(failed(text), Error::Spec { .. }), "{text:?}");
    }
}

const CYCLES: &str = "\
openapi: 3.1.0
components:
  schemas:
    A:
      type: object
      properties:
        b: {$ref: '#/components/schemas/B'}
    B:
      type: object
      properties:
        a: {$ref: '#/components/schemas/A'}
    Loop1: {$ref: '#/components/schemas/Loop2'}
    Loop2: {$ref: '#/components/schemas/Loop1'}
    Alias: {$ref: '#/components/schemas/Alias2'}
    Alias2: {$ref: '#/components/schemas/A'}
";

#[test]
fn cycles_through_schemas_are_allowed_and_deref_follows_chains() {
    let doc = loaded(CYCLES);
    let alias = doc.pointer("#/components/schemas/Alias").expect("Alias");
    let (target, at) = doc
        .deref(alias, "#/components/schemas/Alias")
        .expect("deref");
    assert_eq!(at, "#/components/schemas/A");
    assert_eq!(target["type"], "object");

    let a = doc.pointer("#/components/schemas/A").expect("A");
    let (same, at) = doc.deref(a, "#/components/schemas/A").expect("not a ref");
    assert!(std::ptr::eq(same, a));
    assert_eq!(at, "#/components/schemas/A");
}

#[test]
fn pure_ref_loops_fail_in_deref_only() {
    let doc = loaded(CYCLES);
    let loop1 = doc.pointer("#/components/schemas/Loop1").expect("Loop1");
    match doc.deref(loop1, "#/components/schemas/Loop1") {
        Err(Error::Spec {
            pointer,
            message,
            location,
        }) => {
            assert_eq!(pointer, "#/components/schemas/Loop1");
            assert!(message.contains("cycle"), "{message}");
            assert_eq!(location, Some((12, 12)));
        }
        other => panic!("expected a cycle error, got {other:?}"),
    }
}

#[test]
fn deref_reports_dangling_refs_in_foreign_values() {
    let doc = loaded(CYCLES);
    let value = json!({"$ref": "#/components/schemas/Zzz"});
    assert!(matches!(doc.deref(&value, "#/x"), Err(Error::Spec { .. })));
    let value = json!({"$ref": "a.yaml"});
    assert!(matches!(
        doc.deref(&value, "#/x"),
        Err(Error::Unsupported { .. })
    ));
}

#[test]
fn first_ref_error_in_document_order_wins() {
    let err = failed(
        "openapi: 3.1.0\npaths:\n  /b:\n    $ref: '#/missing/one'\n  /a:\n    $ref: 'x.yaml'\n",
    );
    assert!(
        matches!(&err, Error::Spec { pointer, .. } if pointer == "#/paths/~1b"),
        "{err}"
    );
}

#[test]
fn location_of_nested_nodes() {
    let doc = loaded(DANGLING.replace("Nope", "X").as_str().replace(
        "paths:",
        "components:\n  schemas:\n    X: {type: object}\n  responses:\n    AlsoMissing:\n      description: d\npaths:",
    ).as_str());
    // Line 7 of DANGLING, moved down by the six inserted lines.
    assert_eq!(
        doc.location("#/paths/~1banking~1accounts/post/requestBody"),
        Some((13, 9))
    );
    assert_eq!(
        doc.location("/paths/~1banking~1accounts/post/requestBody/$ref"),
        Some((13, 15))
    );
    assert_eq!(doc.location("#/components/schemas/X/type"), Some((5, 15)));
    assert_eq!(doc.location("#"), Some((1, 1)));
    assert_eq!(doc.location("#/paths/~1nope"), None);
    let from_value = Document::from_value(doc.root.clone(), "mem").expect("same document");
    assert_eq!(from_value.location("#/paths"), None);
}

#[test]
fn from_value_runs_the_same_checks() {
    let value = json!({
        "openapi": "3.0.1",
        "components": {"schemas": {"A": {"type": "string", "nullable": true}, "B": {"$ref": "#/nope"}}}
    });
    match Document::from_value(value, "<mem>") {
        Err(Error::Spec {
            pointer, location, ..
        }) => {
            assert_eq!(pointer, "#/components/schemas/B");
            assert_eq!(location, None);
        }
        other => panic!("expected a spec error, got {other:?}"),
    }
    let value = json!({"openapi": "3.0.1", "components": {"schemas": {"A": {"type": "string", "nullable": true}}}});
    let doc = Document::from_value(value, "<mem>").expect("valid");
    assert_eq!(
        doc.pointer("#/components/schemas/A/type"),
        Some(&json!(["string", "null"]))
    );
}

#[test]
fn excessive_depth_is_rejected_not_overflowed() {
    let mut value = json!({});
    for _ in 0..(MAX_DEPTH + 10) {
        value = json!({ "a": value });
    }
    value["openapi"] = json!("3.1.0");
    assert!(matches!(
        Document::from_value(value, "<mem>"),
        Err(Error::Unsupported { .. })
    ));
}

#[test]
fn pointer_escaping_round_trips() {
    for key in [
        "plain", "a/b", "m~n", "~1", "/~0/", "100%", "%25", "{id}", "", "ünï",
    ] {
        let pointer = join(&join("#", "paths"), key);
        assert_eq!(
            decode_pointer(&pointer),
            Some(vec!["paths".to_owned(), key.to_owned()]),
            "{key}"
        );
        let bare = join("/paths", key);
        assert_eq!(
            decode_pointer(&bare),
            Some(vec!["paths".to_owned(), key.to_owned()]),
            "{key}"
        );
        assert_eq!(unescape_segment(&escape_segment(key)), key);
        assert_eq!(encode_pointer(&["paths", key]), pointer);
    }
    assert_eq!(join("#/paths", "/pets/{id}"), "#/paths/~1pets~1{id}");
    assert_eq!(escape_segment("a~/b"), "a~0~1b");
    assert_eq!(
        decode_pointer("#/a%20b/c~1d"),
        Some(vec!["a b".to_owned(), "c/d".to_owned()])
    );
    assert_eq!(decode_pointer("#"), Some(vec![]));
    assert_eq!(decode_pointer(""), Some(vec![]));
    assert_eq!(decode_pointer("#/"), Some(vec![String::new()]));
    assert_eq!(decode_pointer("#/a~2"), None);
    assert_eq!(unescape_segment("a~2~1"), "a~2/");
    assert_eq!(decode_pointer("a/b"), None);
    assert_eq!(
        canonical_pointer("/components/schemas/A").as_deref(),
        Some("#/components/schemas/A")
    );
}

#[test]
fn pointer_lookup_handles_arrays_strictly() {
    let doc = loaded("openapi: 3.1.0\nx-list: [a, b]\n");
    assert_eq!(doc.pointer("#/x-list/1"), Some(&json!("b")));
    assert_eq!(doc.pointer("#/x-list/01"), None);
    assert_eq!(doc.pointer("#/x-list/2"), None);
    assert_eq!(doc.pointer("#/x-list/-"), None);
    assert_eq!(doc.pointer("#/openapi/x"), None);
}

#[test]
fn io_errors_name_the_file() {
    let path = PathBuf::from("/nonexistent/specgen/spec.yaml");
    match load_file(&path) {
        Err(Error::Io { path: p, .. }) => assert_eq!(p, path),
        other => panic!("expected an I/O error, got {other:?}"),
    }
}

#[test]
fn hostile_inputs_do_not_panic() {
    let inputs = [
        "openapi: 3.1.0\nx: .nan\n",
        "openapi: 3.1.0\nx: !custom {a: 1}\n",
        "openapi: 3.1.0\n? [a, b]\n: c\n",
        "openapi: 3.1.0\nx: &a [*a]\n",
        "openapi: 3.1.0\nx: *nope\n",
        "a: 1\n---\nb: 2\n",
        "openapi: 3.0.0\ncomponents: {schemas: {A: {nullable: true, type: 5, enum: 3}}}\n",
        "openapi: 3.0.0\ncomponents: {schemas: [1, 2]}\n",
        "openapi: 3.1.0\nx: {$ref: 7}\npaths: {/a: {$ref: '#/paths/~1a'}}\n",
        "openapi: 3.1.0\nx: {$ref: '#/a%ZZ/%C3'}\n",
        "\u{feff}openapi: 3.1.0\n",
        "{\"openapi\": \"3.1.0\", \"x\": [1, 2",
        &"[".repeat(10_000),
        &format!(
            "openapi: 3.1.0\nx: {}1{}\n",
            "[".repeat(200),
            "]".repeat(200)
        ),
    ];
    for input in inputs {
        let _ = load(input);
    }
    let doc = loaded("openapi: 3.1.0\nx: !custom {a: 1}\n");
    assert_eq!(doc.pointer("#/x/a"), Some(&json!(1)));
}

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

#[test]
fn every_corpus_document_loads() {
    let Ok(entries) = std::fs::read_dir(corpus_dir()) else {
        eprintln!("no corpus at {}; skipping", corpus_dir().display());
        return;
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty());
    let failures: Vec<String> = paths
        .iter()
        .filter_map(|path| {
            load_file(path)
                .err()
                .map(|err| format!("{}: {err}", path.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for path in &paths {
        let doc = load_file(path).expect("loaded above");
        assert!(doc.location("#/openapi").is_some(), "{}", path.display());
    }
}

#[test]
fn deref_follows_foreign_refs_into_wrapped_schemas() {
    let doc = loaded(NULLABLE_30);
    let value = json!({"$ref": "#/components/schemas/Owner/allOf/0"});
    let (target, at) = doc.deref(&value, "/x").expect("resolves after redirection");
    assert_eq!(at, "#/components/schemas/Owner/anyOf/0/allOf/0");
    assert_eq!(target["type"], "object");
    let plain = json!({"type": "string"});
    let (_, at) = doc
        .deref(&plain, "/components/schemas/~1x")
        .expect("not a ref");
    assert_eq!(at, "#/components/schemas/~1x");
}

/// 100,000 nested flow sequences (200 KB): libyaml's scanner took about two minutes over them
/// before serde_norway refused the depth; the depth pass refuses them at the first collection
/// past the limit, with its line and column.
#[test]
fn absurd_flow_nesting_is_refused_with_line_and_column() {
    let text = format!("{}{}\n", "[".repeat(100_000), "]".repeat(100_000));
    match failed(&text) {
        Error::Parse {
            line,
            column,
            message,
            ..
        } => {
            assert!(message.contains("more than 128 levels deep"), "{message}");
            assert_eq!(line, Some(1));
            assert!(column.is_some_and(|c| c > 128), "{column:?}");
        }
        other => panic!("expected a parse error, got {other}"),
    }
    // So is nesting too few collections to be slow, which the depth pass judges only once
    // serde_norway has refused it.
    let text = format!("{}{}\n", "[".repeat(200), "]".repeat(200));
    match failed(&text) {
        Error::Parse {
            line,
            column,
            message,
            ..
        } => {
            assert!(message.contains("more than 128 levels deep"), "{message}");
            assert_eq!((line, column), (Some(1), Some(129)));
        }
        other => panic!("expected a parse error, got {other}"),
    }
    // Block nesting is refused the same way, on the line of the first mapping too deep.
    let text: String = (0..200)
        .map(|i| format!("{}a:\n", "  ".repeat(i)))
        .collect();
    match failed(&text) {
        Error::Parse { line, message, .. } => {
            assert!(message.contains("more than 128 levels deep"), "{message}");
            assert_eq!(line, Some(129));
        }
        other => panic!("expected a parse error, got {other}"),
    }
}

#[test]
fn nesting_up_to_the_limit_still_loads() {
    let deep = format!(
        "{}{}",
        "[".repeat(parse::MAX_YAML_DEPTH - 4),
        "]".repeat(parse::MAX_YAML_DEPTH - 4)
    );
    let doc = loaded(&format!(
        "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths: {{}}\nx-deep: {deep}\n"
    ));
    assert!(doc.root["x-deep"].is_array());
}

/// Found by the fuzz test: serde_norway refuses a text of several YAML documents without a
/// position.
#[test]
fn a_second_yaml_document_is_refused_where_it_begins() {
    match failed("openapi: 3.1.0\ninfo: {title: t, version: '1'}\n---\npaths: {}\n") {
        Error::Parse {
            line,
            column,
            message,
            ..
        } => {
            assert!(message.contains("a second YAML document"), "{message}");
            assert_eq!((line, column), (Some(3), Some(1)));
        }
        other => panic!("expected a parse error, got {other}"),
    }
    // A text libyaml reads as two documents and saphyr cannot read at all: the position is
    // where saphyr stopped.
    match failed("  title: t\nopenapi: 3.1.0\n") {
        Error::Parse { line, column, .. } => assert!(line.is_some() && column.is_some()),
        other => panic!("expected a parse error, got {other}"),
    }
}

/// Found by the fuzz test: a missing `openapi` was reported at `#/openapi`, which is not in
/// the text, so with no line; it is missing from the top-level mapping.
#[test]
fn a_missing_openapi_version_is_placed_at_the_top_level_mapping() {
    match failed("info: {title: t, version: '1'}\npaths: {}\n") {
        Error::Unsupported {
            pointer, location, ..
        } => {
            assert_eq!(pointer, "#/openapi");
            assert_eq!(location, Some((1, 1)));
        }
        other => panic!("expected an unsupported error, got {other}"),
    }
}

/// Found by the fuzz test: where saphyr (positions) and libyaml (values) read a text
/// differently, saphyr's failure cost every position; the nodes before it keep theirs.
#[test]
fn positions_survive_a_text_saphyr_cannot_read_to_the_end() {
    let text = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  \
                schemas:\n    A:\n      $ref: ' schema:\n      $ref: '#/components/schemas/B'\n";
    match failed(text) {
        Error::Unsupported {
            pointer, location, ..
        } => {
            assert_eq!(pointer, "#/components/schemas/A");
            assert_eq!(location, Some((7, 7)));
        }
        other => panic!("expected an unsupported error, got {other}"),
    }
}

/// Found by the fuzz test: a byte order mark inside the text (here in a comment) stopped
/// saphyr at once, so no error had a position; libyaml reads past it.
#[test]
fn a_byte_order_mark_inside_the_text_keeps_the_positions() {
    let text = "#\u{feff} comment\nopenapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n\
                components:\n  schemas:\n    A:\n      $ref: '#/components/schemas/B'\n";
    match failed(text) {
        Error::Spec {
            pointer, location, ..
        } => {
            assert_eq!(pointer, "#/components/schemas/A");
            assert_eq!(location, Some((8, 7)));
        }
        other => panic!("expected a spec error, got {other}"),
    }
}

/// JSON written by Python's `json.dump` escapes an emoji as a surrogate pair
/// (`\ud83d\udc9a`), which stopped saphyr at once: no error or warning of the document had a
/// line and column.
#[test]
fn a_surrogate_pair_escape_keeps_the_positions() {
    let text = "{\"openapi\": \"3.1.0\",\n \"info\": {\"title\": \"t \\ud83d\\udc9a\", \"version\": \"1\"},\n \
                \"paths\": {},\n \"components\": {\"schemas\": {\"A\": {\"$ref\": \"#/components/schemas/B\"}}}}\n";
    match failed(text) {
        Error::Spec {
            pointer, location, ..
        } => {
            assert_eq!(pointer, "#/components/schemas/A");
            assert!(location.is_some_and(|(line, _)| line == 4), "{location:?}");
        }
        other => panic!("expected a spec error, got {other}"),
    }
}

/// A Schema Object's `$id` would re-base the document's own `#/…` references inside it, so
/// the loader drops it, in 3.1 and 3.0 documents alike. A property named `$id` and example
/// data holding one are not keywords, and stay.
#[test]
fn schema_ids_are_dropped_but_members_and_examples_named_id_stay() {
    for version in ["3.1.0", "3.0.3"] {
        let doc = loaded(&format!(
            "openapi: {version}
info: {{title: t, version: '1'}}
paths:
  /x:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {{$id: 'https://example.com/inline', type: object}}
components:
  schemas:
    Tagged:
      $id: https://example.com/tagged
      type: object
      example: {{$id: abc}}
      properties:
        $id: {{type: string, default: x}}
        name: {{$ref: '#/components/schemas/Tagged/$defs/name'}}
      $defs:
        name: {{$id: 'https://example.com/name', type: string}}
"
        ));
        let at = |p: &str| doc.pointer(p).cloned();
        assert_eq!(at("#/components/schemas/Tagged/$id"), None, "{version}");
        assert_eq!(
            at("#/components/schemas/Tagged/$defs/name"),
            Some(json!({"type": "string"})),
            "{version}"
        );
        assert_eq!(
            at("#/components/schemas/Tagged/properties/$id"),
            Some(json!({"type": "string", "default": "x"})),
            "{version}"
        );
        let example = if version == "3.1.0" {
            "example"
        } else {
            "examples/0"
        };
        assert_eq!(
            at(&format!("#/components/schemas/Tagged/{example}")),
            Some(json!({"$id": "abc"})),
            "{version}"
        );
        assert_eq!(
            at("#/paths/~1x/get/responses/200/content/application~1json/schema"),
            Some(json!({"type": "object"})),
            "{version}"
        );
    }
}

#[test]
fn kubernetes_int_or_string_is_an_integer_or_a_string() {
    let doc = loaded(
        "openapi: 3.0.3\ncomponents:\n  schemas:\n    IntOrString: {type: string, format: int-or-string}\n    Port:\n      properties:\n        target: {x-kubernetes-int-or-string: true, nullable: true}\n        name: {type: string, format: int-or-string, enum: [http]}\n        both: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}\n",
    );
    assert_eq!(
        doc.pointer("#/components/schemas/IntOrString"),
        Some(&json!({"type": ["integer", "string"], "format": "int-or-string"}))
    );
    let port = &doc.root["components"]["schemas"]["Port"]["properties"];
    assert_eq!(port["target"]["type"], json!(["integer", "string", "null"]));
    // Already a union (a CRD's structural schema): left as written.
    assert_eq!(
        port["both"]["anyOf"],
        json!([{"type": "integer"}, {"type": "string"}])
    );
    assert!(port["both"].get("type").is_none());
    // A 3.1 document too.
    let doc = loaded(
        "openapi: 3.1.0\ncomponents:\n  schemas:\n    P: {type: string, format: int-or-string}\n",
    );
    assert_eq!(
        doc.root["components"]["schemas"]["P"]["type"],
        json!(["integer", "string"])
    );
}

/// Swagger 2.0 as Azure writes it: `x-ms-enum` on the parameter, beside `type` and `enum`
/// (and on a header), which the upgrade moves into the schema; the open list follows them.
#[test]
fn an_azure_enum_written_on_a_parameter_opens_its_schema() {
    let doc = loaded(
        r#"{"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {"/v": {"get": {
            "parameters": [
              {"name": "kind", "in": "query", "type": "string", "enum": ["a", "b"],
               "x-ms-enum": {"name": "Kind", "modelAsString": true}},
              {"name": "fixed", "in": "query", "type": "string", "enum": ["on", "off"],
               "x-ms-enum": {"name": "Fixed", "modelAsString": false}},
              {"name": "kinds", "in": "query", "type": "array", "items": {"type": "string", "enum": ["a"]},
               "x-ms-enum": {"name": "Kinds", "modelAsString": true}}
            ],
            "responses": {"200": {"description": "ok", "headers": {"X-State": {"type": "string",
              "enum": ["s"], "x-ms-enum": {"name": "State", "modelAsString": true}}}}}}}}}"#,
    );
    let operation = &doc.root["paths"]["/v"]["get"];
    let parameters = &operation["parameters"];
    assert_eq!(
        parameters[0]["schema"]["x-extensible-enum"],
        json!(["a", "b"])
    );
    assert!(parameters[0]["schema"].get("enum").is_none());
    assert_eq!(parameters[1]["schema"]["enum"], json!(["on", "off"]));
    assert_eq!(
        parameters[2]["schema"]["items"]["x-extensible-enum"],
        json!(["a"])
    );
    assert_eq!(
        operation["responses"]["200"]["headers"]["X-State"]["schema"]["x-extensible-enum"],
        json!(["s"])
    );
}

#[test]
fn azure_enums_modelled_as_strings_are_open_lists() {
    let doc = loaded(
        "openapi: 3.0.3\ncomponents:\n  schemas:\n    Severity: {type: string, enum: [Low, High], x-ms-enum: {name: Severity, modelAsString: true}}\n    Closed: {type: string, enum: [On, Off], x-ms-enum: {name: Closed, modelAsString: false}}\n    Numbers: {type: integer, enum: [1, 2], x-ms-enum: {name: Numbers, modelAsString: true}}\n    Nullable: {type: string, nullable: true, enum: [A], x-ms-enum: {name: N, modelAsString: true}}\n",
    );
    let schemas = &doc.root["components"]["schemas"];
    assert_eq!(
        schemas["Severity"]["x-extensible-enum"],
        json!(["Low", "High"])
    );
    assert!(schemas["Severity"].get("enum").is_none());
    assert_eq!(schemas["Closed"]["enum"], json!(["On", "Off"]));
    assert_eq!(schemas["Numbers"]["enum"], json!([1, 2]));
    assert_eq!(schemas["Nullable"]["x-extensible-enum"], json!(["A"]));
    assert_eq!(schemas["Nullable"]["type"], json!(["string", "null"]));
}
