// Over 600 lines on purpose: every check of the spec document in one test binary (one link).
//! Checks on the OpenAPI document itself, `spec/openapi.yaml`:
//!
//! 1. it validates against the official OpenAPI 3.1 schema (`../shared/openapi-3.1/`);
//! 2. every `$ref` in it is a local JSON pointer that resolves;
//! 3. every example in it validates against its own schema, every component schema has an
//!    example, and every operation shows one.
//!
//! The same checks run on the OpenAPI 3.1 documents of `../shared/corpus/` (which must
//! pass, so the checks do not cry wolf) and on small, deliberately broken documents (which
//! must fail with exactly the planted problems, so the checks can fail).

use integration_tests::{
    DocumentSchemas, ExampleKind, Finding, OfficialSchemas, check_examples, collect_examples,
    collect_refs, component_schemas_without_examples, corpus_dir, dangling_refs, load_yaml,
    official_schema_findings, openapi_schema_dir, operations_without_examples, parse_yaml,
    percent_decode, pointer_from_tokens, pointer_to_uri_fragment, render_findings,
    resolve_local_ref, spec_path,
};
use serde_json::Value;

/// The OpenAPI 3.1 documents of the corpus (the `oas30-*` ones are 3.0 and out of scope).
const CORPUS_31: [&str; 2] = ["oas31-webhook-example.yaml", "oas31-mega.yaml"];

fn spec() -> Value {
    let path = spec_path();
    load_yaml(&path).unwrap_or_else(|error| {
        panic!(
            "cannot load the OpenAPI document {}: {error:#}",
            path.display()
        )
    })
}

fn corpus(name: &str) -> Value {
    let path = corpus_dir().join(name);
    load_yaml(&path).unwrap_or_else(|error| panic!("cannot load {}: {error:#}", path.display()))
}

fn official_schemas() -> OfficialSchemas {
    let dir = openapi_schema_dir();
    OfficialSchemas::load(&dir).unwrap_or_else(|error| {
        panic!(
            "cannot load the official OpenAPI 3.1 schemas from {}: {error:#}",
            dir.display()
        )
    })
}

fn yaml(text: &str) -> Value {
    parse_yaml(text).unwrap_or_else(|error| panic!("test document is not YAML: {error:#}"))
}

fn official_findings(document: &Value) -> Vec<Finding> {
    official_schema_findings(document, &official_schemas())
        .unwrap_or_else(|error| panic!("cannot run the official-schema check: {error:#}"))
}

fn example_failures(document: &Value) -> (usize, Vec<Finding>) {
    let check = check_examples(document)
        .unwrap_or_else(|error| panic!("cannot run the example check: {error:#}"));
    (check.checked, check.failures)
}

fn locations(findings: &[Finding]) -> Vec<&str> {
    findings
        .iter()
        .map(|finding| finding.location.as_str())
        .collect()
}

fn assert_no_findings(heading: &str, findings: &[Finding]) {
    assert!(
        findings.is_empty(),
        "{}",
        render_findings(heading, findings)
    );
}

// ---------------------------------------------------------------------------------------------
// spec/openapi.yaml
// ---------------------------------------------------------------------------------------------

#[test]
fn spec_validates_against_the_official_openapi_31_schema() {
    let findings = official_findings(&spec());
    assert_no_findings(
        "spec/openapi.yaml does not validate against the official OpenAPI 3.1 schema (schema-base)",
        &findings,
    );
}

#[test]
fn spec_every_ref_resolves() {
    let document = spec();
    assert!(
        !collect_refs(&document).is_empty(),
        "spec/openapi.yaml has no $ref at all; expected its operations to reference components"
    );
    assert_no_findings(
        "spec/openapi.yaml has $refs that are not local or do not resolve",
        &dangling_refs(&document),
    );
}

#[test]
fn spec_every_example_validates_against_its_schema() {
    let (checked, failures) = example_failures(&spec());
    assert_no_findings(
        "spec/openapi.yaml has examples that do not validate against their own schema",
        &failures,
    );
    assert!(
        checked > 0,
        "spec/openapi.yaml: no example was found to check (the walk found nothing)"
    );
    eprintln!("spec/openapi.yaml: {checked} examples validated against their schemas");
}

/// Proves the checks bite on the real document, not just on toy ones: a copy of the spec
/// with one `$ref` pointed nowhere, and a copy with one example replaced by a value its
/// schema rejects, must each add exactly that finding to whatever the original already has
/// (the original's own problems are the other tests' business).
#[test]
fn spec_checks_catch_a_planted_dangling_ref_and_a_planted_bad_example() {
    let original = spec();
    let new_findings = |before: &[Finding], after: Vec<Finding>| -> Vec<Finding> {
        after
            .into_iter()
            .filter(|finding| !before.contains(finding))
            .collect()
    };

    let site = collect_refs(&original)
        .into_iter()
        .next()
        .expect("spec/openapi.yaml has no $ref to break");
    let mut broken = original.clone();
    *broken
        .pointer_mut(&site.location)
        .expect("the $ref site exists") = Value::from("#/components/schemas/PlantedMissing");
    let planted = new_findings(&dangling_refs(&original), dangling_refs(&broken));
    assert_eq!(
        locations(&planted),
        [site.location.as_str()],
        "{}",
        render_findings(
            &format!("new $ref findings after breaking {}", site.location),
            &planted
        )
    );

    // Find an example and a replacement value its schema rejects.
    let check = check_examples(&original).expect("example check runs");
    let mut schemas = DocumentSchemas::new(&original).expect("spec registers");
    let candidates = [
        Value::Null,
        Value::from(true),
        Value::from(-1.5),
        Value::from("\u{1}planted"),
        Value::Array(vec![]),
        Value::Object(serde_json::Map::new()),
    ];
    let (site, bad) = check
        .inventory
        .sites
        .iter()
        .find_map(|site| {
            let validator = schemas.validator(&site.schema).ok()?;
            let bad = candidates
                .iter()
                .find(|candidate| !validator.is_valid(candidate))?;
            Some((site.clone(), bad.clone()))
        })
        .expect("no example in spec/openapi.yaml has a schema that rejects anything");
    let mut broken = original.clone();
    *broken
        .pointer_mut(&site.location)
        .expect("the example site exists") = bad.clone();
    let (_, failures) = example_failures(&broken);
    let planted = new_findings(&check.failures, failures);
    let text = render_findings(
        &format!(
            "new example findings after replacing {} with {bad}",
            site.location
        ),
        &planted,
    );
    assert!(!planted.is_empty(), "{text}");
    assert!(
        planted
            .iter()
            .all(|finding| finding.location == site.location),
        "{text}"
    );
}

#[test]
fn spec_every_component_schema_has_an_example() {
    assert_no_findings(
        "spec/openapi.yaml has component schemas without examples",
        &component_schemas_without_examples(&spec()),
    );
}

#[test]
fn spec_every_operation_shows_an_example() {
    let inventory = collect_examples(&spec());
    assert!(
        !inventory.operations.is_empty(),
        "spec/openapi.yaml has no operations under paths or webhooks"
    );
    assert_no_findings(
        "spec/openapi.yaml has operations whose request and responses show no example",
        &operations_without_examples(&inventory),
    );
}

// ---------------------------------------------------------------------------------------------
// The public OpenAPI 3.1 corpus: valid documents must pass every check.
// ---------------------------------------------------------------------------------------------

#[test]
fn corpus_31_documents_pass_every_check() {
    let mut problems = Vec::new();
    for name in CORPUS_31 {
        let document = corpus(name);
        let (_, example_problems) = example_failures(&document);
        for (check, findings) in [
            ("official schema", official_findings(&document)),
            ("$ref", dangling_refs(&document)),
            ("examples", example_problems),
        ] {
            problems.extend(findings.into_iter().map(|finding| {
                Finding::new(
                    format!("{name}#{}", finding.location),
                    format!("[{check}] {}", finding.message),
                )
            }));
        }
    }
    assert_no_findings("valid corpus documents were rejected", &problems);
}

// ---------------------------------------------------------------------------------------------
// The checks can fail: broken in-memory documents.
// ---------------------------------------------------------------------------------------------

const VALID_MINIMAL: &str = r##"
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /accounts/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}, example: acct_1}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Account"}
              example: {id: acct_1}
components:
  schemas:
    Account:
      type: object
      required: [id]
      properties: {id: {type: string}}
      examples: [{id: acct_2}]
"##;

#[test]
fn a_valid_document_passes_every_check() {
    let document = yaml(VALID_MINIMAL);
    assert_no_findings("official schema", &official_findings(&document));
    assert_no_findings("$ref", &dangling_refs(&document));
    let (checked, failures) = example_failures(&document);
    assert_no_findings("examples", &failures);
    assert_eq!(checked, 3, "path parameter, response and schema examples");
    assert_no_findings(
        "schema coverage",
        &component_schemas_without_examples(&document),
    );
    let inventory = collect_examples(&document);
    assert_no_findings(
        "operation coverage",
        &operations_without_examples(&inventory),
    );
}

#[test]
fn official_schema_check_reports_document_structure_errors() {
    let document = yaml(
        r#"
openapi: 3.1.0
paths:
  /a:
    get:
      responses:
        "200": {}
"#,
    );
    let findings = official_findings(&document);
    let text = render_findings("", &findings);
    assert!(
        findings
            .iter()
            .any(|finding| finding.location.is_empty() && finding.message.contains("\"info\"")),
        "missing `info` not reported at the root:\n{text}"
    );
    assert!(
        findings.iter().any(|finding| {
            finding.location == "/paths/~1a/get/responses/200"
                && finding.message.contains("\"description\"")
        }),
        "response without `description` not reported at its location:\n{text}"
    );
}

#[test]
fn official_schema_check_validates_schema_objects_against_the_oas_dialect() {
    // `type: 5` is fine for the document schema alone; only Schema Object validation with
    // the OpenAPI dialect (schema-base → dialect → 2020-12 meta-schema) catches it, and the
    // discriminator without `propertyName` is caught by the OAS base vocabulary (meta.yaml).
    let document = yaml(
        r##"
openapi: 3.1.0
info: {title: t, version: "1"}
components:
  schemas:
    Bad:
      type: 5
    Poly:
      oneOf: [{type: string}]
      discriminator: {mapping: {a: "#/components/schemas/Bad"}}
"##,
    );
    let findings = official_findings(&document);
    let text = render_findings("", &findings);
    assert!(
        findings
            .iter()
            .any(|finding| finding.location == "/components/schemas/Bad/type"),
        "`type: 5` not reported at /components/schemas/Bad/type:\n{text}"
    );
    assert!(
        findings.iter().any(|finding| {
            finding.location == "/components/schemas/Poly/discriminator"
                && finding.message.contains("propertyName")
        }),
        "discriminator without propertyName not reported:\n{text}"
    );
    assert!(
        findings
            .iter()
            .all(|finding| finding.location.starts_with("/components/schemas/")),
        "unexpected findings outside the two broken schemas:\n{text}"
    );
}

#[test]
fn ref_check_reports_exactly_the_dangling_and_non_local_refs() {
    let document = yaml(
        r##"
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /a/{id}:
    get:
      parameters:
        - $ref: "#/components/parameters/Id"
      responses:
        "200": {$ref: "#/components/responses/Missing"}
        "201": {$ref: "#/paths/~1a~1%7Bid%7D/get/responses/202"}
        "202": {description: fine}
        "404": {$ref: "other.yaml#/components/responses/NotFound"}
components:
  parameters:
    Id: {name: id, in: path, required: true, schema: {$ref: "#/components/schemas/Id"}}
  schemas:
    Id: {type: string}
    List:
      type: array
      items: {$ref: "#/components/schemas/Id/properties/nope"}
    Named:
      type: object
      properties:
        $ref: {type: string}
"##,
    );
    assert_eq!(collect_refs(&document).len(), 6);
    let findings = dangling_refs(&document);
    let text = render_findings("", &findings);
    assert_eq!(
        locations(&findings),
        [
            "/paths/~1a~1{id}/get/responses/200/$ref",
            "/paths/~1a~1{id}/get/responses/404/$ref",
            "/components/schemas/List/items/$ref",
        ],
        "{text}"
    );
    assert!(
        findings[0]
            .message
            .contains("`/components` has no member `responses`"),
        "{text}"
    );
    assert!(
        findings[1].message.contains("not a local reference"),
        "{text}"
    );
    assert!(
        findings[2]
            .message
            .contains("`/components/schemas/Id` has no member `properties`"),
        "{text}"
    );
}

#[test]
fn example_check_reports_exactly_the_failing_examples() {
    let document = yaml(
        r##"
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /banking/accounts:
    post:
      parameters:
        - {name: limit, in: query, schema: {type: integer, maximum: 10}, example: 50}
        - $ref: "#/components/parameters/Cursor"
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Transfer"}
            examples:
              good: {value: {amount: {value: 1, currency: USD}, at: "2024-01-01T00:00:00Z"}}
              badCurrency: {value: {amount: {value: 1, currency: usd}, at: "2024-01-01T00:00:00Z"}}
              shared: {$ref: "#/components/examples/BadDate"}
      responses:
        "200":
          description: ok
          headers:
            X-Rate: {schema: {type: integer}, example: "many"}
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Transfer"}
              example: {amount: {value: 1, currency: USD}, at: "2024-01-01T00:00:00Z"}
        "400": {$ref: "#/components/responses/Error"}
components:
  parameters:
    Cursor: {name: cursor, in: query, schema: {type: string, minLength: 3}, example: ab}
  examples:
    BadDate: {value: {amount: {value: 1, currency: USD}, at: "yesterday"}}
  responses:
    Error:
      description: error
      content:
        application/json:
          schema: {type: object, required: [code]}
          example: {message: no code}
  schemas:
    Amount:
      type: object
      required: [value, currency]
      properties:
        value: {type: number}
        currency: {type: string, pattern: "^[A-Z]{3}$", examples: [EUR, eur]}
      examples: [{value: 1, currency: EUR}, {value: "1", currency: EUR}]
    Transfer:
      type: object
      required: [amount, at]
      properties:
        amount: {$ref: "#/components/schemas/Amount"}
        at: {type: string, format: date-time}
      example: {amount: {value: 1, currency: EUR}}
"##,
    );
    let (checked, failures) = example_failures(&document);
    let text = render_findings("", &failures);
    let transfer_body = "/paths/~1banking~1accounts/post/requestBody/content/application~1json";
    assert_eq!(
        locations(&failures),
        [
            "/paths/~1banking~1accounts/post/parameters/0/example".to_string(),
            "/components/parameters/Cursor/example".to_string(),
            format!("{transfer_body}/examples/badCurrency/value"),
            "/components/examples/BadDate/value".to_string(),
            "/paths/~1banking~1accounts/post/responses/200/headers/X-Rate/example".to_string(),
            "/components/responses/Error/content/application~1json/example".to_string(),
            "/components/schemas/Amount/examples/1".to_string(),
            "/components/schemas/Amount/properties/currency/examples/1".to_string(),
            "/components/schemas/Transfer/example".to_string(),
        ],
        "{text}"
    );
    // 2 parameters, 3 request body examples, 1 header, 1 response body, 1 error response,
    // 2 + 2 + 1 schema examples.
    assert_eq!(checked, 13, "{text}");
    let message = |location: &str| {
        &failures
            .iter()
            .find(|finding| finding.location == location)
            .unwrap_or_else(|| panic!("no finding at {location}:\n{text}"))
            .message
    };
    assert!(
        message("/components/examples/BadDate/value").contains("date-time")
            && message("/components/examples/BadDate/value").contains(&format!(
                "reached through {transfer_body}/examples/shared/$ref"
            )),
        "format checking or via-location missing:\n{text}"
    );
    assert!(
        message(&format!("{transfer_body}/examples/badCurrency/value"))
            .contains("at /amount/currency"),
        "instance path missing:\n{text}"
    );
    assert!(
        message("/components/schemas/Transfer/example").contains("\"at\""),
        "missing required property not named:\n{text}"
    );
}

#[test]
fn example_check_reports_examples_it_cannot_check() {
    let document = yaml(
        r##"
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /a:
    parameters:
      - $ref: "#/components/parameters/Gone"
    post:
      responses:
        "204": {description: ok}
    get:
      responses:
        "200":
          description: ok
          content:
            text/plain:
              example: hello
            application/json:
              schema: {type: object}
              examples:
                external: {externalValue: "https://example.com/a.json"}
                dangling: {$ref: "#/components/examples/Nope"}
"##,
    );
    let (checked, failures) = example_failures(&document);
    let text = render_findings("", &failures);
    let content = "/paths/~1a/get/responses/200/content";
    assert_eq!(
        locations(&failures),
        [
            // Reported once, though the path-level parameter belongs to both operations.
            "/paths/~1a/parameters/0/$ref".to_string(),
            format!("{content}/text~1plain/example"),
            format!("{content}/application~1json/examples/external"),
            format!("{content}/application~1json/examples/dangling/$ref"),
        ],
        "{text}"
    );
    assert_eq!(checked, 0, "{text}");
}

#[test]
fn coverage_checks_report_what_has_no_example() {
    let document = yaml(
        r##"
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /a:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/WithExample"}
    delete:
      responses:
        "204": {$ref: "#/components/responses/Gone"}
webhooks:
  ping:
    post:
      requestBody:
        content:
          application/json:
            schema: {type: object}
      responses:
        "200": {description: ok}
components:
  responses:
    Gone:
      description: gone
      headers:
        X-Id: {schema: {type: string}, example: abc}
  schemas:
    WithExample: {type: object, examples: [{}]}
    Legacy: {type: string, example: x}
    NoExample: {type: object, properties: {a: {type: string, examples: [a]}}}
    EmptyExamples: {type: string, examples: []}
"##,
    );
    let schema_findings = component_schemas_without_examples(&document);
    assert_eq!(
        locations(&schema_findings),
        [
            "/components/schemas/NoExample",
            "/components/schemas/EmptyExamples"
        ],
        "{}",
        render_findings("", &schema_findings)
    );
    let inventory = collect_examples(&document);
    let operation_findings = operations_without_examples(&inventory);
    assert_eq!(
        locations(&operation_findings),
        ["/paths/~1a/get", "/webhooks/ping/post"],
        "{}",
        render_findings("", &operation_findings)
    );
    assert!(
        operation_findings[1]
            .message
            .contains("`POST webhook ping`")
    );
    assert!(
        inventory
            .sites
            .iter()
            .any(|site| site.kind == ExampleKind::Header
                && site.operation.as_deref() == Some("DELETE /a")),
        "header example of a $ref'd response not attributed to its operation"
    );
}

#[test]
fn json_pointer_helpers_round_trip() {
    let pointer = pointer_from_tokens(&["paths", "/banking/accounts/{id}", "get"]);
    assert_eq!(pointer, "/paths/~1banking~1accounts~1{id}/get");
    assert_eq!(
        pointer_to_uri_fragment(&pointer),
        "/paths/~1banking~1accounts~1%7Bid%7D/get"
    );
    assert_eq!(
        percent_decode(&pointer_to_uri_fragment("/a b/ü%/~0")).as_deref(),
        Ok("/a b/ü%/~0")
    );
    assert!(percent_decode("/a%zz").is_err());
    let document = yaml("{a/b: {c~d: [1, 2]}}");
    let (resolved, value) = resolve_local_ref(&document, "#/a~1b/c~0d/1").expect("resolves");
    assert_eq!(
        (resolved.as_str(), value),
        ("/a~1b/c~0d/1", &Value::from(2))
    );
    assert!(resolve_local_ref(&document, "#/a~1b/c~0d/2").is_err());
    assert!(resolve_local_ref(&document, "#").is_err());
    assert!(resolve_local_ref(&document, "#anchor").is_err());
}
