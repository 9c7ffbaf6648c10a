//! `sandbox/control-api.yaml`, the control API's OpenAPI 3.1 document: it validates against
//! the official OpenAPI 3.1 schema (`../shared/openapi-3.1/`, as `tests/tests/spec_document.rs`
//! checks the API's spec), its examples match their schemas, and it describes exactly the
//! routes the sandbox serves.
//!
//! The checks are written here rather than taken from `integration_tests`, which depends on
//! this crate (it re-exports the in-memory service): a dev-dependency back on it would be a
//! cycle.

mod common;

use std::collections::BTreeSet;

use common::{ControlContract, Running, load_yaml, package_dir, pointer_token, quick_options};
use jsonschema::{Draft, Registry};
use serde_json::{Value, json};

const SCHEMA_BASE_ID: &str = "https://spec.openapis.org/oas/3.1/schema-base/WORK-IN-PROGRESS";
const OFFICIAL_SCHEMA_FILES: [&str; 4] = [
    "schema.yaml",
    "schema-base.yaml",
    "dialect.yaml",
    "meta.yaml",
];
const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

#[test]
fn the_document_validates_against_the_official_openapi_31_schema() {
    let dir = package_dir().join("../../shared/openapi-3.1");
    let resources: Vec<(String, Value)> = OFFICIAL_SCHEMA_FILES
        .iter()
        .map(|name| {
            let schema = load_yaml(&dir.join(name));
            let id = schema["$id"]
                .as_str()
                .unwrap_or_else(|| panic!("{name} has no $id"))
                .to_owned();
            (id, schema)
        })
        .collect();
    let registry = Registry::new()
        .draft(Draft::Draft202012)
        .extend(resources.iter().map(|(id, schema)| (id.as_str(), schema)))
        .expect("official schemas")
        .prepare()
        .expect("registry");
    let validator = jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(true)
        .with_registry(&registry)
        .offline()
        .build(&json!({"$ref": SCHEMA_BASE_ID}))
        .expect("schema-base compiles");
    let document = load_yaml(&common::control_api_path());
    let problems: Vec<String> = validator
        .iter_errors(&document)
        .map(|error| format!("{}: {error}", error.instance_path().as_str()))
        .collect();
    assert!(
        problems.is_empty(),
        "control-api.yaml does not validate against the official OpenAPI 3.1 schema:\n{}",
        problems.join("\n")
    );

    // Not vacuous: a document without `info`, or with a response that is not an object,
    // is refused.
    let mut broken = document.clone();
    broken.as_object_mut().expect("object").remove("info");
    assert!(!validator.is_valid(&broken));
    let mut broken = document;
    broken["paths"]["/reset"]["post"]["responses"]["200"] = json!("ok");
    assert!(!validator.is_valid(&broken));
}

/// Every `example` of a request body, response body or parameter, with the JSON pointer of
/// the schema beside it.
fn examples(document: &Value) -> Vec<(String, String, Value)> {
    let mut found = Vec::new();
    let mut holder = |pointer: String, value: &Value| {
        if let (Some(example), Some(_)) = (value.get("example"), value.get("schema")) {
            found.push((
                format!("{pointer}/example"),
                format!("{pointer}/schema"),
                example.clone(),
            ));
        }
    };
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("path item") {
            if !METHODS.contains(&method.as_str()) {
                continue;
            }
            let base = format!("/paths/{}/{method}", pointer_token(path));
            if let Some(content) = operation.pointer("/requestBody/content/application~1json") {
                holder(
                    format!("{base}/requestBody/content/application~1json"),
                    content,
                );
            }
            for (status, response) in operation["responses"].as_object().expect("responses") {
                if let Some(content) = response.pointer("/content/application~1json") {
                    holder(
                        format!("{base}/responses/{status}/content/application~1json"),
                        content,
                    );
                }
            }
            for (index, parameter) in operation["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
            {
                holder(format!("{base}/parameters/{index}"), parameter);
            }
        }
    }
    let components = &document["components"];
    for name in components["responses"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, _)| name)
    {
        let pointer = format!(
            "/components/responses/{}/content/application~1json",
            pointer_token(name)
        );
        if let Some(content) = document.pointer(&pointer) {
            holder(pointer, content);
        }
    }
    for (name, parameter) in components["parameters"].as_object().into_iter().flatten() {
        holder(
            format!("/components/parameters/{}", pointer_token(name)),
            parameter,
        );
    }
    found
}

#[test]
fn every_example_matches_its_schema() {
    let contract = ControlContract::load();
    let examples = examples(contract.document);
    assert!(
        examples.len() >= 20,
        "only {} examples found",
        examples.len()
    );
    let mut problems = Vec::new();
    for (example_at, schema_at, example) in &examples {
        let validator = contract.validator(schema_at);
        for error in validator.iter_errors(example) {
            problems.push(format!(
                "{example_at}: {error} at {}",
                error.instance_path().as_str()
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "examples that contradict their schema:\n{}",
        problems.join("\n")
    );
}

#[test]
fn a_broken_example_is_caught() {
    // The check above would pass vacuously if the validators accepted anything.
    let contract = ControlContract::load();
    let validator = contract.validator("/components/schemas/Delivery");
    assert!(!validator.is_valid(&json!({"id": "dlv_1", "status": "LOST"})));
    let validator = contract.validator("/components/schemas/TransferSeed");
    assert!(
        !validator.is_valid(&json!({"status": "PENDING", "amount": {"value": "ten"}})),
        "the API's EntityTransfer schema is reached through the external $ref"
    );
}

/// The operations of the document, as `METHOD /_sandbox/path` with `{…}` templates.
fn documented_operations(document: &Value) -> BTreeSet<String> {
    let mut operations = BTreeSet::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for method in item.as_object().expect("path item").keys() {
            if METHODS.contains(&method.as_str()) {
                operations.insert(format!("{} /_sandbox{path}", method.to_uppercase()));
            }
        }
    }
    operations
}

/// The operations the sandbox serves under `/_sandbox`. Kept by hand beside the router
/// (`control::router`); the test below proves each one is served, and that the document
/// has the same set.
const SERVED: [&str; 9] = [
    "POST /_sandbox/onboardings",
    "PUT /_sandbox/accounts/{account_id}/balance",
    "POST /_sandbox/accounts/{account_id}/transfers",
    "POST /_sandbox/payments",
    "POST /_sandbox/reverse-transfers",
    "POST /_sandbox/incoming-transfers",
    "GET /_sandbox/deliveries",
    "GET /_sandbox/deliveries/{id}",
    "POST /_sandbox/reset",
];

#[tokio::test]
async fn the_document_describes_exactly_the_served_routes() {
    let document = load_yaml(&common::control_api_path());
    let served: BTreeSet<String> = SERVED.iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(documented_operations(&document), served);

    // Each one is routed: whatever it answers, it is not the fallback's "no control route"
    // nor a 405.
    let running = Running::start(quick_options()).await;
    for operation in SERVED {
        let (method, path) = operation.split_once(' ').expect("METHOD path");
        let path = path
            .trim_start_matches("/_sandbox")
            .replace("{account_id}", "00000000-0000-4000-8000-000000000001")
            .replace("{id}", "dlv_unknown");
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let (status, body, _) = running.control(method, &path, Some(json!({}))).await;
        assert!(
            status != 405 && body["code"] != "METHOD_NOT_ALLOWED",
            "{operation}: {status} {body}"
        );
        let fallback = body["messages"][0]
            .as_str()
            .is_some_and(|message| message.starts_with("no control route"));
        assert!(!fallback, "{operation} is not routed: {body}");
    }
    let (status, body) = running.get("/no-such-route").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("NOT_FOUND")));
    let (status, body, _) = running
        .control(reqwest::Method::DELETE, "/reset", None)
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (405, Some("METHOD_NOT_ALLOWED"))
    );
    running.stop().await;
}
