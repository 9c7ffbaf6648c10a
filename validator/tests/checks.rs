// Over 600 lines on purpose: one test binary per feature keeps link time down.
//! Each rule of the exchange checks, against the embedded contract: one clean exchange per
//! kind, then one broken exchange per rule, asserting the exact finding (rule and pointer).

use serde_json::{Value, json};
use specval::Contract;
use specval::check::{CheckOptions, Outcome, check};
use specval::exchange::{Body, Exchange, ExchangeKind, Request, Response};
use specval::finding::{Part, Severity};

const ACCOUNT_ID: &str = "6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b";
const KEY: &str = "2c4e6a8b-0d1f-4a3c-9e5b-7d9f1b3d5e7a";

fn contract() -> &'static Contract {
    static CONTRACT: std::sync::OnceLock<Contract> = std::sync::OnceLock::new();
    CONTRACT.get_or_init(|| Contract::embedded().expect("embedded contract"))
}

fn credentials() -> Vec<(String, String)> {
    vec![
        ("public-api-key".into(), "pk_live_secret".into()),
        ("private-secret-key".into(), "sk_live_secret".into()),
        ("content-type".into(), "application/json".into()),
    ]
}

fn exchange(
    method: &str,
    path: &str,
    body: Option<Value>,
    status: u16,
    response: Option<Value>,
) -> Exchange {
    let mut headers = credentials();
    if method == "POST" && path == "/v1/banking/accounts" || path == "/v1/banking/entities" {
        headers.push(("x-idempotency-key".into(), KEY.into()));
    }
    Exchange {
        index: 0,
        line: Some(1),
        id: Some("x1".into()),
        source: "test.jsonl".into(),
        kind: None,
        request: Request {
            method: method.into(),
            path: path.into(),
            query: Vec::new(),
            headers,
            body: body.map(Body::Json),
            mime_type: None,
            authority: None,
            userinfo: None,
        },
        response: Some(Response {
            status,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: response.map(Body::Json),
            mime_type: None,
        }),
        failure: None,
    }
}

fn account() -> Value {
    json!({
        "id": "acct_2f7c9a1e4b6d",
        "account_id": ACCOUNT_ID,
        "status": "ACTIVE",
        "account_type": "CHECKING",
        "currency": "USD",
        "created_at": "2024-05-10T08:12:40Z",
        "updated_at": "2024-05-10T08:12:40Z"
    })
}

fn create_request() -> Value {
    json!({ "account_id": ACCOUNT_ID, "onboarding_id": "onb_1", "account_type": "CHECKING", "currency": "USD" })
}

fn error(code: &str, status: u16) -> Value {
    json!({ "code": code, "messages": ["m"], "http_code": status })
}

fn run(exchange: &Exchange) -> Outcome {
    check(contract(), exchange, CheckOptions::default())
}

/// The findings as (part, rule, pointer).
/// The contract of an OpenAPI document written inline in a test.
fn contract_of(document: &str) -> Contract {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("openapi.yaml");
    std::fs::write(&spec, document).unwrap();
    Contract::from_spec(&spec).expect("the spec makes a contract")
}

/// The contract of a document with one operation, `POST path`, whose JSON request body has
/// `schema` (YAML lines indented under `schema:`) and which answers 204.
fn one_body_contract(path: &str, schema: &str) -> Contract {
    contract_of(&format!(
        "openapi: 3.1.0\ninfo: {{title: One body, version: '1'}}\npaths:\n  {path}:\n    post:\n      \
         requestBody:\n        required: true\n        content:\n          application/json:\n            \
         schema:{schema}\n      responses: {{'204': {{description: done}}}}\n"
    ))
}

fn found(outcome: &Outcome) -> Vec<(Part, String, String)> {
    outcome
        .findings
        .iter()
        .map(|f| (f.part, f.rule.to_string(), f.pointer.clone()))
        .collect()
}

fn one(part: Part, rule: &str, pointer: &str) -> Vec<(Part, String, String)> {
    vec![(part, rule.to_string(), pointer.to_string())]
}

#[test]
fn clean_exchanges_have_no_findings() {
    let created = exchange(
        "POST",
        "/v1/banking/accounts",
        Some(create_request()),
        201,
        Some(account()),
    );
    let outcome = run(&created);
    assert_eq!(found(&outcome), vec![]);
    assert_eq!(outcome.operation.as_deref(), Some("createAccount"));
    let read = exchange(
        "GET",
        &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
        None,
        200,
        Some(account()),
    );
    assert_eq!(found(&run(&read)), vec![]);
    let missing = exchange(
        "GET",
        &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
        None,
        404,
        Some(error("ACCOUNT_NOT_FOUND", 404)),
    );
    assert_eq!(found(&run(&missing)), vec![]);
}

#[test]
fn an_unknown_path_or_method_is_a_finding() {
    let unknown = exchange("GET", "/v1/banking/nope", None, 404, None);
    assert_eq!(
        found(&run(&unknown)),
        one(Part::Entry, "operation-path", "")
    );
    let method = exchange(
        "PUT",
        &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
        None,
        405,
        None,
    );
    assert_eq!(
        found(&run(&method)),
        one(Part::Entry, "operation-method", "")
    );
    let outside = exchange("GET", "/banking/accounts", None, 404, None);
    assert_eq!(
        found(&run(&outside)),
        one(Part::Entry, "operation-path", "")
    );
    assert!(!run(&outside).findings[0].message.contains("--host"));
    // Sent to a host of its own (a browser's analytics beacon), the message says how to pass
    // over calls to other hosts.
    let mut beacon = exchange("POST", "/collect", None, 204, None);
    beacon.request.authority = Some("stats.example.net".into());
    let message = run(&beacon).findings[0].message.clone();
    assert!(
        message.ends_with(
            "; if stats.example.net is not the API's host, --host HOST naming the API's hosts \
             passes over calls to others"
        ),
        "{message}"
    );
    // A path written as the interface writes it, without the base path, is still a finding,
    // and the message says which operation it would be with the base path; a path that no
    // operation has either way gets no such guess.
    let interface_path = format!("/banking/accounts/{ACCOUNT_ID}");
    let slip = run(&exchange(
        "GET",
        &interface_path,
        None,
        200,
        Some(account()),
    ));
    assert_eq!(found(&slip), one(Part::Entry, "operation-path", ""));
    assert!(
        slip.findings[0].message.ends_with(
            "with the API's base path before it, it would be getAccount \
             (GET /banking/accounts/{account_id})"
        ),
        "{}",
        slip.findings[0].message
    );
    assert!(!run(&unknown).findings[0].message.contains("base path"));
    // A GET of the path the incoming-transfer notification is POSTed to: no operation has it,
    // and the message says whose path it is; an unknown path gets no such hint.
    let on_hook_path = run(&exchange("GET", "/v1/banking/transfers", None, 405, None));
    assert_eq!(found(&on_hook_path), one(Part::Entry, "operation-path", ""));
    assert!(
        on_hook_path.findings[0]
            .message
            .ends_with("it is where the incomingTransfer notification is delivered, with POST"),
        "{}",
        on_hook_path.findings[0].message
    );
    assert!(!run(&unknown).findings[0].message.contains("notification"));

    // A trailing `/` makes another path, as the generated server routes it (404): the message
    // names the operation that has the path without it.
    let slash = run(&exchange(
        "GET",
        &format!("/v1/banking/accounts/{ACCOUNT_ID}/"),
        None,
        200,
        Some(account()),
    ));
    assert_eq!(found(&slash), one(Part::Entry, "operation-path", ""));
    assert!(
        slash.findings[0].message.ends_with(
            "; getAccount (GET /banking/accounts/{account_id}) has it without the trailing /"
        ),
        "{}",
        slash.findings[0].message
    );
    assert!(!run(&unknown).findings[0].message.contains("trailing"));

    // "{base_url} already includes the version prefix /v1": a client that adds it again sends
    // `/v1/v1/…`, which no server routes (any other prefix is a gateway's and stays allowed).
    let doubled = run(&exchange(
        "GET",
        &format!("/v1/v1/banking/accounts/{ACCOUNT_ID}"),
        None,
        200,
        Some(account()),
    ));
    assert_eq!(found(&doubled), one(Part::Entry, "operation-path", ""));
    assert!(
        doubled.findings[0].message.ends_with(
            "; it writes the base path /v1 twice: with it once, it would be getAccount \
             (GET /banking/accounts/{account_id})"
        ),
        "{}",
        doubled.findings[0].message
    );
    let gateway = exchange(
        "GET",
        &format!("/gateway/v1/banking/accounts/{ACCOUNT_ID}"),
        None,
        200,
        Some(account()),
    );
    assert_eq!(found(&run(&gateway)), vec![]);
    assert!(!run(&unknown).findings[0].message.contains("twice"));
}

/// A message documented in two JSON media types with a schema each (JSON Merge Patch beside
/// JSON, GeoJSON beside plain JSON: va.gov's facilities, ConfigCat's HAL) is judged by the
/// schema of the media type it came in: the first one's schema had failed every valid body
/// of the other and passed ones shaped for the wrong type.
#[test]
fn each_json_media_type_is_judged_by_its_own_schema() {
    let contract = contract_of(
        r#"
openapi: 3.1.0
info: {title: Media, version: '1'}
paths:
  /items/{id}:
    patch:
      operationId: patchItem
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [name], properties: {name: {type: string}}}
          application/merge-patch+json:
            schema: {type: object, properties: {name: {type: [string, 'null']}}, minProperties: 1}
      responses:
        '200':
          description: the item
          content:
            application/geo+json:
              schema: {type: object, required: [type, features], properties: {type: {const: FeatureCollection}, features: {type: array}}}
            application/json:
              schema: {type: object, required: [data], properties: {data: {type: array}}}
"#,
    );
    let judged = |request: (&str, &str), response: (&str, &str)| {
        let exchange = media_exchange("PATCH", "/items/1", Some(request), 200, Some(response));
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    let plain = ("application/json", r#"{"data": []}"#);
    let geo = (
        "application/geo+json",
        r#"{"type": "FeatureCollection", "features": []}"#,
    );
    // Each body in its own type keeps the contract.
    assert_eq!(
        judged(("application/json", r#"{"name": "a"}"#), plain),
        vec![]
    );
    assert_eq!(
        judged(("application/merge-patch+json", r#"{"name": null}"#), geo),
        vec![]
    );
    // A media type's parameters do not hide its schema.
    assert_eq!(
        judged(
            (
                "application/merge-patch+json; charset=utf-8",
                r#"{"name": null}"#
            ),
            ("application/json; charset=utf-8", r#"{"data": []}"#)
        ),
        vec![]
    );
    // A body shaped for the other type is judged by the type it came in.
    assert_eq!(
        judged(("application/merge-patch+json", "{}"), plain),
        one(Part::Request, "minProperties", "")
    );
    assert_eq!(
        judged(("application/json", r#"{"name": null}"#), plain),
        one(Part::Request, "type", "/name")
    );
    assert_eq!(
        judged(
            ("application/json", r#"{"name": "a"}"#),
            ("application/json", geo.1)
        ),
        one(Part::Response, "required", "")
    );
}

/// A base that closes its members without a discriminator (Graph RBAC's `UserBase`, whose
/// `additionalProperties: {type: object}` AutoRest writes for "more members may come"),
/// extended with `allOf` by a subtype with members of its own: each of the subtype's members
/// is judged by its own schema, not refused as one the base does not declare; the base's
/// closing still judges the members nobody declares, and the base used as itself is closed.
#[test]
fn a_subtype_of_a_closed_base_without_a_discriminator_holds_its_own_members() {
    let contract = contract_of(
        r#"
openapi: 3.0.1
info: {title: Graph RBAC, version: '1.6'}
paths:
  /users/{id}:
    patch:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      requestBody:
        required: true
        content:
          application/json: {schema: {$ref: '#/components/schemas/UserUpdateParameters'}}
      responses:
        '200':
          description: the user as stored
          content:
            application/json: {schema: {$ref: '#/components/schemas/UserBase'}}
components:
  schemas:
    UserBase:
      type: object
      properties: {mail: {type: string}}
      additionalProperties: {type: object}
    UserUpdateParameters:
      allOf: [{$ref: '#/components/schemas/UserBase'}]
      properties:
        displayName: {type: string}
        accountEnabled: {type: boolean}
"#,
    );
    let judged = |request: &str, response: &str| {
        let exchange = media_exchange(
            "PATCH",
            "/users/1",
            Some(("application/json", request)),
            200,
            Some(("application/json", response)),
        );
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    let user = r#"{"mail": "a@b.c"}"#;
    assert_eq!(
        judged(
            r#"{"displayName": "Ann", "accountEnabled": false, "mail": "x"}"#,
            user
        ),
        vec![]
    );
    assert_eq!(
        judged(r#"{"displayName": 5}"#, user),
        one(Part::Request, "type", "/displayName")
    );
    // A member nobody declares is judged by the base's closing.
    assert_eq!(
        judged(r#"{"nickname": "an"}"#, user),
        one(Part::Request, "unevaluatedProperties", "")
    );
    assert_eq!(judged(r#"{"extension": {"k": 1}}"#, user), vec![]);
    // The base used as itself is as written: closed to a member that is no object.
    assert_eq!(
        judged("{}", r#"{"mail": "a@b.c", "displayName": "Ann"}"#),
        one(Part::Response, "type", "/displayName")
    );
}

/// A path template that itself begins with the base path's segment is reached through the
/// base path written twice, as its server routes it: that is no doubled base path.
#[test]
fn a_template_that_begins_with_the_base_path_is_matched_after_it() {
    let contract = contract_of(
        r#"
openapi: 3.1.0
info: {title: Versions, version: '1'}
servers: [{url: 'https://api.example.com/v1'}, {url: '{origin}/api', variables: {origin: {default: 'https://x'}}}]
paths:
  /v1/status:
    get: {operationId: status, responses: {'204': {description: ok}}}
  /api/things:
    get: {operationId: things, responses: {'204': {description: ok}}}
"#,
    );
    for (path, operation) in [
        ("/v1/v1/status", "status"),
        ("/api/api/things", "things"),
        ("/gw/api/api/things", "things"),
    ] {
        let exchange = media_exchange("GET", path, None, 204, None);
        let outcome = check(&contract, &exchange, CheckOptions::default());
        assert_eq!(found(&outcome), vec![], "{path}");
        assert_eq!(outcome.operation.as_deref(), Some(operation), "{path}");
    }
}

/// A protocol-relative server URL (`//api.example.com/v3`, as Swagger 2.0 documents converted
/// without their `schemes` have it) names a host and the base path `/v3`, not a path prefix
/// `/api.example.com/v3`.
#[test]
fn a_protocol_relative_server_url_gives_the_base_path_after_its_host() {
    for (url, path) in [
        ("//api.example.com/v3", "/v3/emails"),
        ("//api.example.com", "/emails"),
    ] {
        let contract = contract_of(&format!(
            "openapi: 3.0.3\ninfo: {{title: Relative, version: '1'}}\nservers: [{{url: '{url}'}}]\n\
             paths:\n  /emails:\n    get:\n      responses: {{'204': {{description: none}}}}\n"
        ));
        let mut sent = exchange("GET", path, None, 204, None);
        sent.request.headers.clear();
        sent.response.as_mut().unwrap().headers.clear();
        let outcome = check(&contract, &sent, CheckOptions::default());
        assert_eq!(found(&outcome), vec![], "{url}: {:?}", outcome.findings);
        let mut hosted = sent.clone();
        hosted.request.path = format!("/api.example.com{path}");
        let outcome = check(&contract, &hosted, CheckOptions::default());
        assert_eq!(
            found(&outcome),
            one(Part::Entry, "operation-path", ""),
            "{url}"
        );
    }
}

#[test]
fn a_path_documented_with_a_trailing_slash_is_matched_with_it_only() {
    let contract = contract_of(
        r#"
openapi: 3.1.0
info: {title: Slashes, version: "1"}
paths:
  /users/:
    get:
      operationId: listUsers
      responses: {'200': {description: ok}}
"#,
    );
    let outcome = |path: &str| {
        check(
            &contract,
            &exchange("GET", path, None, 200, None),
            CheckOptions::default(),
        )
    };
    assert_eq!(found(&outcome("/users/")), vec![]);
    let without = outcome("/users");
    assert_eq!(found(&without), one(Part::Entry, "operation-path", ""));
    assert!(
        without.findings[0]
            .message
            .ends_with("; listUsers (GET /users/) has it with the trailing /"),
        "{}",
        without.findings[0].message
    );
}

#[test]
fn path_parameters_follow_their_rules() {
    let bad = exchange(
        "GET",
        "/v1/banking/accounts/acct_not_a_uuid",
        None,
        404,
        Some(error("ACCOUNT_NOT_FOUND", 404)),
    );
    let rules = found(&run(&bad));
    assert!(
        rules.contains(&(Part::Request, "format".into(), "path:account_id".into())),
        "{rules:?}"
    );
    assert!(
        rules.contains(&(Part::Request, "minLength".into(), "path:account_id".into())),
        "{rules:?}"
    );
}

#[test]
fn a_required_query_parameter_must_be_present() {
    let lookup = exchange("GET", "/v1/payments", None, 200, Some(json!([])));
    assert_eq!(
        found(&run(&lookup)),
        one(Part::Request, "required", "query:merchant_order_id")
    );
    let mut given = lookup.clone();
    given
        .request
        .query
        .push(("merchant_order_id".into(), "order-1".into()));
    assert_eq!(found(&run(&given)), vec![]);
    // `?merchant_order_id=`: the spec allows no empty value (`allowEmptyValue` is false
    // unless given), so the required identifier is missing all the same, as the generated
    // server answers it.
    let mut empty = lookup.clone();
    empty
        .request
        .query
        .push(("merchant_order_id".into(), String::new()));
    let outcome = run(&empty);
    assert_eq!(
        found(&outcome),
        one(Part::Request, "required", "query:merchant_order_id")
    );
    assert!(
        outcome.findings[0]
            .message
            .ends_with("is required, and came with an empty value"),
        "{}",
        outcome.findings[0].message
    );
}

#[test]
fn the_idempotency_key_is_required_and_a_uuid() {
    let mut created = exchange(
        "POST",
        "/v1/banking/accounts",
        Some(create_request()),
        201,
        Some(account()),
    );
    created
        .request
        .headers
        .retain(|(k, _)| k != "x-idempotency-key");
    assert_eq!(
        found(&run(&created)),
        one(Part::Request, "required", "header:x-idempotency-key")
    );
    created
        .request
        .headers
        .push(("X-Idempotency-Key".into(), "not-a-uuid".into()));
    assert_eq!(
        found(&run(&created)),
        one(Part::Request, "format", "header:x-idempotency-key")
    );
}

/// The spaces and tabs around a header's value are no part of it (RFC 9110, 5.5): a server
/// never sees them. A recording that keeps them (written by hand, or a HAR tool's) is judged
/// by the value, and a credential quoted without them is still hidden.
#[test]
fn the_white_space_around_a_header_value_is_no_part_of_it() {
    let mut created = exchange(
        "POST",
        "/v1/banking/accounts",
        Some(create_request()),
        201,
        Some(account()),
    );
    for (name, value) in &mut created.request.headers {
        *value = match name.as_str() {
            "x-idempotency-key" => format!(" {value}\t"),
            "public-api-key" => format!("  {value} "),
            _ => value.clone(),
        };
    }
    assert_eq!(found(&run(&created)), vec![]);
    // The value itself is still judged, and the key quoted in the message is hidden.
    created
        .request
        .headers
        .push(("x-idempotency-key".into(), " pk_live_secret ".into()));
    created
        .request
        .headers
        .retain(|(name, value)| name != "x-idempotency-key" || value.contains("pk_live"));
    let shown = CheckOptions {
        show_values: true,
        ..CheckOptions::default()
    };
    let outcome = check(contract(), &created, shown);
    assert_eq!(
        found(&outcome),
        one(Part::Request, "format", "header:x-idempotency-key")
    );
    let said = serde_json::to_string(&outcome.findings).unwrap();
    assert!(said.contains("REDACTED"), "{said}");
    assert!(!said.contains("pk_live_secret"), "{said}");
}

#[test]
fn a_request_without_credentials_must_be_answered_401_not_authenticated() {
    let mut anonymous = exchange(
        "GET",
        &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
        None,
        200,
        Some(account()),
    );
    anonymous
        .request
        .headers
        .retain(|(k, _)| !k.ends_with("-key"));
    assert_eq!(
        found(&run(&anonymous)),
        one(Part::Response, "credentials", "")
    );

    let mut refused = anonymous.clone();
    refused.response = Some(Response {
        status: 401,
        headers: vec![("content-type".into(), "application/json".into())],
        body: Some(Body::Json(error("NOT_AUTHENTICATED", 401))),
        mime_type: None,
    });
    assert_eq!(found(&run(&refused)), vec![]);

    let mut wrong_code = refused.clone();
    wrong_code.response.as_mut().unwrap().body = Some(Body::Json(error("VALIDATION_ERROR", 401)));
    assert_eq!(
        found(&run(&wrong_code)),
        one(Part::Response, "credentials", "/code")
    );

    // A 401 whose body the recording left out (Playwright's `content: "omit"`) or that has
    // none: the status is the one asked for, and the code cannot be read, so this rule says
    // nothing; the unrecorded-body warning, or the body check's error, says what is missing.
    let mut unrecorded = refused.clone();
    unrecorded.response.as_mut().unwrap().body = Some(Body::Unrecorded(95));
    assert_eq!(
        found(&run(&unrecorded)),
        one(Part::Response, "unrecorded-body", "")
    );
    let mut bodiless = refused.clone();
    bodiless.response.as_mut().unwrap().body = None;
    assert!(
        !found(&run(&bodiless))
            .iter()
            .any(|(_, rule, _)| rule == "credentials"),
        "{:?}",
        found(&run(&bodiless))
    );

    // A JSON Lines record that gives the error object as a JSON string, as logs write it, is
    // read as that object by every check, this one included.
    let in_string = |code: &str| {
        let mut exchange = refused.clone();
        exchange.response.as_mut().unwrap().body =
            Some(Body::Json(Value::String(error(code, 401).to_string())));
        exchange
    };
    assert_eq!(found(&run(&in_string("NOT_AUTHENTICATED"))), vec![]);
    assert_eq!(
        found(&run(&in_string("VALIDATION_ERROR"))),
        one(Part::Response, "credentials", "/code")
    );

    // Only one of the two keys is not enough.
    let mut half = anonymous.clone();
    half.request
        .headers
        .push(("public-api-key".into(), "pk".into()));
    assert_eq!(found(&run(&half)), one(Part::Response, "credentials", ""));

    // The message says which key is missing, and never quotes the one that was sent.
    let message = |exchange: &Exchange| run(exchange).findings[0].message.clone();
    assert_eq!(
        message(&anonymous),
        "the request lacks the credentials public-api-key and private-secret-key but was \
         answered 200, not 401"
    );
    assert_eq!(
        message(&half),
        "the request lacks private-secret-key (public-api-key was sent) but was answered 200, \
         not 401"
    );
    let mut blank = half.clone();
    blank
        .request
        .headers
        .push(("private-secret-key".into(), "  ".into()));
    assert_eq!(
        message(&blank),
        "the request lacks private-secret-key (private-secret-key was empty; public-api-key was \
         sent) but was answered 200, not 401"
    );
}

/// A getAccount answered with an account whose status the closed list refuses.
fn frozen_account_read() -> Exchange {
    let mut frozen = account();
    frozen["status"] = json!("FROZEN");
    exchange(
        "GET",
        &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
        None,
        200,
        Some(frozen),
    )
}

#[test]
fn a_value_outside_a_closed_list_is_told_every_value_of_the_list() {
    let exchange = frozen_account_read();
    let outcome = run(&exchange);
    assert_eq!(found(&outcome), one(Part::Response, "enum", "/status"));
    // jsonschema alone would name two and count the rest ("or 2 other candidates").
    assert_eq!(
        outcome.findings[0].message,
        r#"value is not one of "ACTIVE", "PENDING", "INACTIVE" or "CLOSED""#
    );
    let shown = check(
        contract(),
        &exchange,
        CheckOptions {
            show_values: true,
            ..CheckOptions::default()
        },
    );
    assert_eq!(
        shown.findings[0].message,
        r#""FROZEN" is not one of "ACTIVE", "PENDING", "INACTIVE" or "CLOSED""#
    );
}

#[test]
fn an_error_answer_carries_a_code_of_its_own_status_or_an_unknown_one() {
    let not_found = |code: &str| {
        exchange(
            "GET",
            &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
            None,
            404,
            Some(error(code, 404)),
        )
    };
    assert_eq!(found(&run(&not_found("ACCOUNT_NOT_FOUND"))), vec![]);
    // The error table gives DUPLICATE_ENTITY to 409, and ONBOARDING_NOT_FOUND to account
    // creation: neither is this 404's code, although http_code agrees with the status.
    for code in [
        "DUPLICATE_ENTITY",
        "ONBOARDING_NOT_FOUND",
        "VALIDATION_ERROR",
    ] {
        let outcome = run(&not_found(code));
        assert_eq!(
            found(&outcome),
            one(Part::Response, "not", "/code"),
            "{code}"
        );
        let message = &outcome.findings[0].message;
        assert!(
            message.starts_with("value is one of the values excluded here (")
                && message.contains("\"DUPLICATE_ENTITY\"")
                && !message.contains("\"ACCOUNT_NOT_FOUND\""),
            "{message}"
        );
    }
    // The complete list of codes is not shown: a code nobody listed is not a finding.
    assert_eq!(found(&run(&not_found("TRANSFER_NOT_FOUND"))), vec![]);
    // Account creation's 404 is ONBOARDING_NOT_FOUND, not ACCOUNT_NOT_FOUND.
    let mut create = exchange(
        "POST",
        "/v1/banking/accounts",
        Some(create_request()),
        404,
        Some(error("ACCOUNT_NOT_FOUND", 404)),
    );
    assert_eq!(found(&run(&create)), one(Part::Response, "not", "/code"));
    create.response.as_mut().unwrap().body = Some(Body::Json(error("ONBOARDING_NOT_FOUND", 404)));
    assert_eq!(found(&run(&create)), vec![]);
}

#[test]
fn the_request_body_has_the_documented_content_type_and_shape() {
    let mut wrong_type = exchange(
        "POST",
        "/v1/banking/accounts",
        Some(create_request()),
        201,
        Some(account()),
    );
    wrong_type
        .request
        .headers
        .retain(|(k, _)| k != "content-type");
    wrong_type
        .request
        .headers
        .push(("Content-Type".into(), "text/plain".into()));
    assert_eq!(
        found(&run(&wrong_type)),
        one(Part::Request, "content-type", "header:content-type")
    );

    let mut not_json = exchange(
        "POST",
        "/v1/banking/accounts",
        None,
        400,
        Some(error("VALIDATION_ERROR", 400)),
    );
    not_json.request.body = Some(Body::Text("{not json".into()));
    assert_eq!(found(&run(&not_json)), one(Part::Request, "json", ""));

    let missing = exchange(
        "POST",
        "/v1/banking/accounts",
        None,
        400,
        Some(error("VALIDATION_ERROR", 400)),
    );
    assert_eq!(found(&run(&missing)), one(Part::Request, "required", ""));

    let mut body = create_request();
    body.as_object_mut().unwrap().remove("currency");
    body["account_type"] = json!("BROKERAGE");
    let invalid = exchange(
        "POST",
        "/v1/banking/accounts",
        Some(body),
        400,
        Some(error("VALIDATION_ERROR", 400)),
    );
    let rules = found(&run(&invalid));
    assert!(
        rules.contains(&(Part::Request, "required".into(), "".into())),
        "{rules:?}"
    );
    assert!(
        rules.contains(&(Part::Request, "enum".into(), "/account_type".into())),
        "{rules:?}"
    );

    let unexpected = exchange(
        "GET",
        &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
        Some(json!({"x": 1})),
        200,
        Some(account()),
    );
    assert_eq!(
        found(&run(&unexpected)),
        one(Part::Request, "body-unexpected", "")
    );
    // A body the recording says it did not keep: of unknown size (Charles's empty `postData`
    // on every POST), it is no evidence of a body; of a known size, it was sent.
    let transfer = "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f";
    let cancel = format!("/v1/banking/accounts/{ACCOUNT_ID}/transfers/{transfer}/cancel");
    let mut cancelled = exchange("POST", &cancel, None, 200, None);
    cancelled.request.body = Some(Body::Unrecorded(0));
    assert_eq!(found(&run(&cancelled)), vec![]);
    cancelled.request.body = Some(Body::Unrecorded(15));
    assert_eq!(
        found(&run(&cancelled)),
        one(Part::Request, "body-unexpected", "")
    );
}

#[test]
fn the_status_must_be_documented_and_counts_as_drift() {
    let teapot = exchange(
        "GET",
        &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
        None,
        418,
        Some(json!({})),
    );
    let outcome = run(&teapot);
    assert_eq!(
        found(&outcome),
        one(Part::Response, "status-documented", "")
    );
    assert_eq!(outcome.drift.statuses.values().sum::<u64>(), 1);
    // The payment lookup's "Error responses: not shown" are the spec's `4XX` and `5XX`: any
    // error status keeps the contract, a success or redirect other than its 200 does not.
    let lookup = |status: u16| {
        let mut lookup = exchange(
            "GET",
            "/v1/payments",
            None,
            status,
            Some(json!({"anything": true})),
        );
        lookup
            .request
            .query
            .push(("merchant_order_id".into(), "o".into()));
        lookup
    };
    for error in [400, 404, 422, 500, 503] {
        assert_eq!(found(&run(&lookup(error))), vec![], "{error}");
    }
    for other in [201, 204, 302] {
        assert_eq!(
            found(&run(&lookup(other))),
            one(Part::Response, "status-documented", ""),
            "{other}"
        );
    }
    // A `default` covers every status the operation does not name.
    let contract = contract_of(
        r#"
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /things:
    get:
      responses:
        '200': {description: ok}
        default: {description: anything else}
"#,
    );
    let mut things = exchange("GET", "/things", None, 302, None);
    things.request.headers.clear();
    things.response.as_mut().unwrap().headers.clear();
    assert_eq!(
        found(&check(&contract, &things, CheckOptions::default())),
        vec![]
    );
}

/// A 304 is HTTP's answer to a conditional GET (a cache revalidating what it holds), which a
/// server may give whatever the spec documents: with `If-None-Match` or `If-Modified-Since` it
/// keeps the contract, bodiless. Without one, or to a POST, it is an undocumented status.
#[test]
fn a_304_to_a_conditional_get_is_cache_revalidation() {
    let path = format!("/v1/banking/accounts/{ACCOUNT_ID}");
    let not_modified = |method: &str, condition: Option<(&str, &str)>| {
        let mut exchange = exchange(method, &path, None, 304, None);
        exchange.response.as_mut().unwrap().headers.clear();
        if let Some((name, value)) = condition {
            exchange.request.headers.push((name.into(), value.into()));
        }
        exchange
    };
    for condition in [
        ("If-None-Match", "\"v7\""),
        ("if-modified-since", "Tue, 14 May 2024 15:20:11 GMT"),
    ] {
        let outcome = run(&not_modified("GET", Some(condition)));
        assert_eq!(found(&outcome), vec![], "{condition:?}");
        assert_eq!(outcome.drift.statuses.values().sum::<u64>(), 0);
        assert_eq!(found(&run(&not_modified("HEAD", Some(condition)))), vec![]);
    }
    assert_eq!(
        found(&run(&not_modified("GET", None))),
        one(Part::Response, "status-documented", "")
    );
    let post = format!("{path}/transfers/{ACCOUNT_ID}/cancel");
    let mut cancel = exchange("POST", &post, None, 304, None);
    cancel
        .request
        .headers
        .push(("If-None-Match".into(), "\"v7\"".into()));
    assert_eq!(
        found(&run(&cancel)),
        one(Part::Response, "status-documented", "")
    );

    // Where a `default` answer documents an error body (DigitalOcean, Stripe, Slack), a 304
    // falls to it by status, and is still a revalidation; a 204 that falls to it is not
    // asked for the body it cannot carry.
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Defaults, version: "1"}
paths:
  /account:
    get:
      responses:
        '200':
          description: ok
          content: {application/json: {schema: {type: object}}}
        default:
          description: error
          content:
            application/json:
              schema: {type: object, required: [id], properties: {id: {type: string}}}
"#,
    );
    let answered = |status: u16, conditional: bool| {
        let mut exchange = exchange("GET", "/account", None, status, None);
        exchange.response.as_mut().unwrap().headers.clear();
        if conditional {
            exchange
                .request
                .headers
                .push(("If-None-Match".into(), "\"v7\"".into()));
        }
        check(&contract, &exchange, CheckOptions::default())
    };
    assert_eq!(found(&answered(304, true)), vec![]);
    assert_eq!(found(&answered(204, false)), vec![]);
    // A 400 under `default` still must carry its body.
    assert_eq!(
        found(&answered(400, false)),
        one(Part::Response, "required", "")
    );
}

#[test]
fn the_response_body_matches_its_status_schema() {
    let mut body = account();
    body["created_at"] = json!("yesterday");
    body["id"] = json!("acc_wrong_prefix");
    let read = exchange(
        "GET",
        &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
        None,
        200,
        Some(body),
    );
    let rules = found(&run(&read));
    assert!(
        rules.contains(&(Part::Response, "pattern".into(), "/created_at".into())),
        "{rules:?}"
    );
    assert!(
        rules.contains(&(Part::Response, "pattern".into(), "/id".into())),
        "{rules:?}"
    );
    let outcome = run(&read);
    let finding = outcome
        .findings
        .iter()
        .find(|f| f.rule == "pattern")
        .unwrap();
    assert!(
        finding
            .schema_location
            .starts_with("operations/getAccount.response.200.json#"),
        "{finding:?}"
    );
    assert!(
        !finding.message.contains("acc_wrong_prefix"),
        "values are masked: {}",
        finding.message
    );
}

/// A byte order mark before a JSON body (.NET and IIS write one) breaks RFC 8259's rule for
/// JSON on a network, and the finding says so, whether the recording holds the body as text
/// or as bytes; serde_json's "expected value at line 1 column 1" pointed at nothing visible.
#[test]
fn a_byte_order_mark_before_json_is_named() {
    let text = format!("\u{feff}{}", account());
    for body in [
        Body::Text(text.clone()),
        Body::Binary(text.clone().into_bytes()),
    ] {
        let mut read = exchange(
            "GET",
            &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
            None,
            200,
            None,
        );
        read.response.as_mut().unwrap().body = Some(body);
        let outcome = run(&read);
        assert_eq!(found(&outcome), one(Part::Response, "json", ""));
        assert!(
            outcome.findings[0]
                .message
                .contains("byte order mark (U+FEFF)"),
            "{}",
            outcome.findings[0].message
        );
    }
    // Text that is not JSON after the mark either is told as serde_json tells it.
    let mut broken = exchange(
        "GET",
        &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
        None,
        200,
        None,
    );
    broken.response.as_mut().unwrap().body = Some(Body::Text("\u{feff}{oops".into()));
    assert!(!run(&broken).findings[0].message.contains("byte order mark"));
}

#[test]
fn a_response_body_the_spec_does_not_show_may_be_absent() {
    let transfer = "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f";
    let cancel = format!("/v1/banking/accounts/{ACCOUNT_ID}/transfers/{transfer}/cancel");
    let cancelled = exchange("POST", &cancel, None, 200, None);
    assert_eq!(found(&run(&cancelled)), vec![]);
    let created = exchange(
        "POST",
        "/v1/banking/accounts",
        Some(create_request()),
        200,
        None,
    );
    assert_eq!(found(&run(&created)), vec![]);
    // A body the spec shows is still required.
    let read = exchange(
        "GET",
        &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
        None,
        200,
        None,
    );
    let outcome = run(&read);
    assert_eq!(found(&outcome), one(Part::Response, "required", ""));
    // Recorded as zero bytes or as no body at all, the message fits both: it must not tell a
    // user whose recording holds an empty body that the body was not recorded.
    assert_eq!(
        outcome.findings[0].message,
        "status 200 documents a body, but the response has none (no body, or an empty one)"
    );
}

#[test]
fn values_appear_only_when_asked() {
    let mut body = account();
    body["id"] = json!("acc_wrong_prefix");
    let read = exchange(
        "GET",
        &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
        None,
        200,
        Some(body),
    );
    let shown = check(
        contract(),
        &read,
        CheckOptions {
            strict: false,
            show_values: true,
        },
    );
    assert!(
        shown
            .findings
            .iter()
            .any(|f| f.message.contains("acc_wrong_prefix")),
        "{:?}",
        shown.findings
    );
}

/// A value quoted with `--show-values` is cut to a thousand characters, saying how many more
/// there were: a 5 MiB string quoted whole made a report of megabytes per finding.
#[test]
fn a_value_shown_is_cut_to_a_thousand_characters() {
    let mut body = account();
    body["id"] = json!(format!("acc_{}", "é".repeat(200_000)));
    let read = exchange(
        "GET",
        &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
        None,
        200,
        Some(body),
    );
    let options = CheckOptions {
        strict: false,
        show_values: true,
    };
    let shown = check(contract(), &read, options);
    assert!(!shown.findings.is_empty());
    for finding in &shown.findings {
        assert!(
            finding.message.chars().count() < 1_100,
            "{}",
            finding.message.len()
        );
    }
    assert!(
        shown
            .findings
            .iter()
            .any(|f| f.message.contains("more characters)")),
        "{:?}",
        shown.findings
    );
}

#[test]
fn an_error_body_carries_the_http_status() {
    let wrong = exchange(
        "GET",
        &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
        None,
        404,
        Some(error("ACCOUNT_NOT_FOUND", 400)),
    );
    assert_eq!(
        found(&run(&wrong)),
        one(Part::Response, "http-code", "/http_code")
    );
    // 404.0 and 4.04e2 are the integer 404 to JSON Schema: they agree with the status; a
    // text that reads as the status is not the number.
    let with_code = |code: serde_json::Value| {
        let mut body = error("ACCOUNT_NOT_FOUND", 404);
        body["http_code"] = code;
        let path = format!("/v1/banking/accounts/{ACCOUNT_ID}");
        run(&exchange("GET", &path, None, 404, Some(body))).findings
    };
    for code in [json!(404.0), serde_json::from_str("4.04e2").unwrap()] {
        assert!(with_code(code.clone()).is_empty(), "{code}");
    }
    // A text that reads as the status is not the number: the schema's `type` says so, once,
    // not also "http_code is "404", but the HTTP status is 404".
    let text = with_code(json!("404"));
    let rules: Vec<&str> = text.iter().map(|f| f.rule.as_str()).collect();
    assert_eq!(rules, ["type"], "{text:?}");
}

/// A value of a union of a schema and null that is not null is judged by the schema: the
/// finding names the member that breaks it and its rule, not the union.
#[test]
fn a_nullable_union_is_judged_by_its_schema() {
    let mut entity = json!({
        "id": "ent_1",
        "entity_detail": { "individual": { "tax_information": "not an array" }, "entity": null }
    });
    entity["national_entity"] = json!("INDIVIDUAL");
    let mut created = exchange(
        "POST",
        "/v1/banking/entities",
        Some(json!({
            "account_id": ACCOUNT_ID, "merchant_entity_id": "m1", "national_entity": "INDIVIDUAL",
            "phone": {"country_code": "1", "number": "555"}, "address": {}, "entity_detail": {}
        })),
        201,
        Some(entity),
    );
    created.index = 7;
    let outcome = run(&created);
    let finding = outcome
        .findings
        .iter()
        .find(|f| f.pointer == "/entity_detail/individual/tax_information")
        .expect("a finding at the member");
    assert_eq!(finding.rule, "type");
    assert!(
        finding
            .message
            .ends_with("(/entity_detail/individual may also be null)"),
        "{}",
        finding.message
    );
    assert!(outcome.findings.iter().all(|f| f.rule != "oneOf"));
    assert_eq!(finding.exchange, 7);
    assert_eq!(finding.id.as_deref(), Some("x1"));
}

/// A failed union of alternatives that are not merely null names the alternative that came
/// closest, and what fails in it.
#[test]
fn a_one_of_failure_names_the_closest_alternative() {
    let contract = one_body_contract(
        "/payments",
        r#"
              oneOf:
                - {type: object, required: [card], properties: {card: {type: object, required: [number], properties: {number: {type: string}}}}}
                - {type: object, required: [iban, bic, owner], properties: {iban: {type: string}}}"#,
    );
    let exchange = media_exchange(
        "POST",
        "/payments",
        Some(("application/json", r#"{"card": {"number": 4111}}"#)),
        204,
        None,
    );
    let outcome = check(&contract, &exchange, CheckOptions::default());
    assert_eq!(found(&outcome), one(Part::Request, "oneOf", ""));
    let message = &outcome.findings[0].message;
    assert!(
        message.contains("closest is oneOf/0") && message.contains("/card/number: "),
        "{message}"
    );

    // An alternative of the value's own JSON type is closer than one of another type, however
    // few errors that one has (OpenAI's `stop`: five strings are an array too long), and one
    // whose tag matches closer than one whose tag does not.
    let stop = one_body_contract(
        "/completions",
        r#"
              type: object
              properties:
                stop:
                  oneOf:
                    - {type: string}
                    - {type: array, items: {type: string}, minItems: 1, maxItems: 4}
                pet:
                  oneOf:
                    - {type: object, properties: {kind: {const: cat}}}
                    - {type: object, required: [kind, lives], properties: {kind: {const: dog}, lives: {type: integer}, name: {type: string}}}
                method:
                  oneOf:
                    - {type: object, required: [type], properties: {type: {enum: [afterpay, clearpay]}}}
                    - {type: object, required: [type], properties: {type: {enum: [klarna, paynow]}}}
                    - {type: object, required: [type, issuer], properties: {type: {enum: [ideal, sepa]}, issuer: {type: string}}}"#,
    );
    let closest = |body: &str| {
        let exchange = media_exchange(
            "POST",
            "/completions",
            Some(("application/json", body)),
            204,
            None,
        );
        let outcome = check(&stop, &exchange, CheckOptions::default());
        outcome.findings[0].message.clone()
    };
    let message = closest(r#"{"stop": ["a", "b", "c", "d", "e"]}"#);
    assert!(
        message.contains("closest is oneOf/1") && message.contains("more than 4 items"),
        "{message}"
    );
    let message = closest(r#"{"pet": {"kind": "dog", "lives": "nine", "name": 7}}"#);
    assert!(message.contains("closest is oneOf/1"), "{message}");
    // A tag written as an `enum` the alternatives share (Adyen's payment methods): one
    // error each, and the alternative whose `type` lists the value is the closer. (A member
    // only one alternative lists is no tag: Stripe's, in
    // `a_union_failure_words_its_closest_alternative_as_a_finding_of_its_own`.)
    let message = closest(r#"{"method": {"type": "ideal"}}"#);
    assert!(
        message.contains("closest is oneOf/2") && message.contains("\"issuer\""),
        "{message}"
    );
    // A tag value no alternative takes (Vercel's new configuration `type`): no alternative
    // is closer, so the message names the tag and its values, not one alternative's members
    // to add (the dog's `lives`, here).
    let message = closest(r#"{"pet": {"kind": "fox", "name": "Rex"}}"#);
    assert!(
        message.contains("its member `kind` (a tag, each alternative taking one value) is none of \"cat\" or \"dog\"")
            && !message.contains("closest is ")
            && !message.contains("fox"),
        "{message}"
    );

    // A value more than one alternative accepts: the message names them, by component where
    // an alternative refers to one (Rumble's credentials, a VMware and an SNMPv3 one alike).
    let overlapping = contract_of(
        r#"
openapi: 3.1.0
info: {title: Overlap, version: '1'}
paths:
  /credentials:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema:
              oneOf:
                - {$ref: '#/components/schemas/Vmware'}
                - {type: object, required: [port]}
                - {$ref: '#/components/schemas/Snmp3'}
      responses: {'204': {description: done}}
components:
  schemas:
    Vmware: {type: object, required: [host], properties: {host: {type: string}, user: {type: string}}}
    Snmp3: {type: object, required: [host], properties: {host: {type: string}, auth: {type: string}}}
"#,
    );
    let exchange = media_exchange(
        "POST",
        "/credentials",
        Some(("application/json", r#"{"host": "h"}"#)),
        204,
        None,
    );
    let outcome = check(&overlapping, &exchange, CheckOptions::default());
    assert_eq!(found(&outcome), one(Part::Request, "oneOf", ""));
    let message = &outcome.findings[0].message;
    assert!(
        message.ends_with(
            "oneOf/0 (Vmware) and oneOf/2 (Snmp3) each accept it, where oneOf takes exactly one"
        ),
        "{message}"
    );
}

/// A JSON Lines body written as a string holding its JSON is that JSON when the body's schema
/// refuses strings: a union of objects (Increase's `anyOf` of thirteen error objects), a
/// `oneOf` of `$ref`s or an object `nullable` refuse them as `type: object` does. A union
/// that takes a string keeps it one.
#[test]
fn a_string_holding_json_is_read_as_it_where_a_union_refuses_strings() {
    for schema in [
        r#"
              anyOf:
                - {type: object, required: [kind], properties: {kind: {const: a}, n: {type: integer}}}
                - {type: object, required: [kind], properties: {kind: {const: b}}}"#,
        r#"
              oneOf:
                - {$ref: '#/components/schemas/A'}
                - {type: array}"#,
        r#"
              type: [object, 'null']
              properties: {kind: {type: string}, n: {type: integer}}"#,
    ] {
        let contract = contract_of(&format!(
            "openapi: 3.1.0\ninfo: {{title: One body, version: '1'}}\npaths:\n  /things:\n    post:\n      \
             requestBody:\n        required: true\n        content:\n          application/json:\n            \
             schema:{schema}\n      responses: {{'204': {{description: done}}}}\ncomponents:\n  schemas:\n    \
             A: {{type: object, required: [kind], properties: {{kind: {{const: a}}, n: {{type: integer}}}}}}\n"
        ));
        let sent = |text: &str| {
            let mut exchange = media_exchange("POST", "/things", None, 204, None);
            exchange.request.headers = vec![("Content-Type".into(), "application/json".into())];
            exchange.request.body = Some(Body::Json(Value::String(text.into())));
            check(&contract, &exchange, CheckOptions::default())
        };
        assert_eq!(found(&sent(r#"{"kind": "a", "n": 1}"#)), vec![], "{schema}");
        // Read as the object, its member is judged: not "a string is no object".
        let broken = sent(r#"{"kind": "a", "n": "one"}"#);
        assert!(
            !broken.findings.is_empty()
                && broken
                    .findings
                    .iter()
                    .all(|f| f.pointer == "/n" || f.message.contains("/n: ")),
            "{schema}: {:?}",
            broken.findings
        );
    }
    // A union that takes a string judges the string as one.
    let contract = one_body_contract(
        "/things",
        r#"
              oneOf:
                - {type: string, maxLength: 5}
                - {type: object}"#,
    );
    let mut exchange = media_exchange("POST", "/things", None, 204, None);
    exchange.request.headers = vec![("Content-Type".into(), "application/json".into())];
    exchange.request.body = Some(Body::Json(Value::String(r#"{"kind": "a"}"#.into())));
    let outcome = check(&contract, &exchange, CheckOptions::default());
    assert_eq!(found(&outcome), one(Part::Request, "oneOf", ""));
}

#[test]
fn notifications_are_checked_by_path_on_any_host_with_their_reply() {
    let payload = json!({
        "id": "xfer_1", "destination_account_id": "acct_1", "status": "COMPLETED",
        "direction": "INCOMING", "amount": { "value": 10, "currency": "USD" }
    });
    let mut delivered = exchange(
        "POST",
        "/v1/banking/transfers",
        Some(payload.clone()),
        200,
        Some(json!({"received": true})),
    );
    delivered.request.headers = vec![("Content-Type".into(), "application/json".into())];
    let outcome = run(&delivered);
    assert_eq!(found(&outcome), vec![]);
    assert_eq!(outcome.operation.as_deref(), Some("incomingTransfer"));

    let mut refused = delivered.clone();
    refused.response.as_mut().unwrap().body = Some(Body::Json(json!({"received": false})));
    assert_eq!(
        found(&run(&refused)),
        one(Part::Reply, "const", "/received")
    );
    // The text `"true"` is not the boolean: the message says its type, where jsonschema's
    // words (`true was expected`) read as if `true` had been sent.
    let mut text = delivered.clone();
    text.response.as_mut().unwrap().body = Some(Body::Json(json!({"received": "true"})));
    let outcome = run(&text);
    assert_eq!(found(&outcome), one(Part::Reply, "const", "/received"));
    assert_eq!(
        outcome.findings[0].message,
        "true was expected, not a string"
    );

    // "status | string | PENDING, COMPLETED": the notification's list is closed, although a
    // transfer read through the API may hold a status the document does not show.
    for (status, expected) in [
        ("PENDING", vec![]),
        ("FAILED", one(Part::Notification, "enum", "/status")),
        ("completed", one(Part::Notification, "enum", "/status")),
    ] {
        let mut sent = delivered.clone();
        let mut body = payload.clone();
        body["status"] = json!(status);
        sent.request.body = Some(Body::Json(body));
        assert_eq!(found(&run(&sent)), expected, "{status}");
    }

    // A payload in another media type is located in the webhook's entry of the manifest.
    let mut as_text = delivered.clone();
    as_text.request.headers = vec![("Content-Type".into(), "text/plain".into())];
    let outcome = run(&as_text);
    assert_eq!(
        found(&outcome),
        one(Part::Notification, "content-type", "header:content-type")
    );
    assert_eq!(
        outcome.findings[0].schema_location,
        "manifest.json#/webhooks (incomingTransfer requestBody)"
    );

    let mut wrong = delivered.clone();
    wrong.request.body = Some(Body::Json(json!({ "direction": "OUTGOING", "id": "nope" })));
    let outcome = run(&wrong);
    let rules = found(&outcome);
    assert!(
        rules.contains(&(Part::Notification, "enum".into(), "/direction".into())),
        "{rules:?}"
    );
    // A list of one value is said as that value.
    let direction = outcome
        .findings
        .iter()
        .find(|f| f.pointer == "/direction")
        .unwrap();
    assert_eq!(
        direction.message,
        r#"value is not "INCOMING", the only value allowed here"#
    );
    assert!(
        rules.contains(&(Part::Notification, "pattern".into(), "/id".into())),
        "{rules:?}"
    );

    // Marked as a notification but delivered elsewhere: the path is the finding, and says
    // where the notification goes; the payload is still checked as that notification's.
    let mut elsewhere = delivered.clone();
    elsewhere.kind = Some(ExchangeKind::Notification);
    elsewhere.request.path = "/hooks/transfers".into();
    let outcome = run(&elsewhere);
    assert_eq!(found(&outcome), one(Part::Entry, "webhook-path", ""));
    assert_eq!(outcome.operation.as_deref(), Some("incomingTransfer"));
    // A trailing `/` is another path, as for an operation: the generated receiver routes no
    // notification there.
    let mut slashed = elsewhere.clone();
    slashed.request.path = "/v1/banking/transfers/".into();
    assert_eq!(found(&run(&slashed)), one(Part::Entry, "webhook-path", ""));
    // Not marked as a notification, it is an unknown path, and the message says where the
    // notification it looks like is delivered.
    slashed.kind = None;
    let unmarked = run(&slashed);
    assert_eq!(found(&unmarked), one(Part::Entry, "operation-path", ""));
    assert!(
        unmarked.findings[0].message.ends_with(
            "; the incomingTransfer notification is delivered at POST …/v1/banking/transfers, \
             without the trailing /"
        ),
        "{}",
        unmarked.findings[0].message
    );
    // Its finding is listed under that notification, as the exchange is counted: not under
    // `(unmatched)` as well.
    assert_eq!(
        outcome.findings[0].operation.as_deref(),
        Some("incomingTransfer")
    );
    let message = &outcome.findings[0].message;
    assert!(
        message.contains("POST /hooks/transfers")
            && message.contains("incomingTransfer is delivered at POST …/v1/banking/transfers"),
        "{message}"
    );
    let mut wrong_elsewhere = wrong.clone();
    wrong_elsewhere.kind = Some(ExchangeKind::Notification);
    wrong_elsewhere.request.path = "/hooks/transfers".into();
    let rules = found(&run(&wrong_elsewhere));
    assert!(
        rules.contains(&(Part::Entry, "webhook-path".into(), String::new()))
            && rules.contains(&(Part::Notification, "enum".into(), "/direction".into())),
        "{rules:?}"
    );
}

/// A notification's documented headers are judged as an operation's: GitHub's webhooks
/// require `X-GitHub-Event` and a signature of a given shape on every delivery.
#[test]
fn a_notifications_required_headers_are_checked() {
    let contract = contract_of(
        r#"
openapi: 3.1.0
info: {title: Hooks, version: '1'}
webhooks:
  push:
    post:
      parameters:
        - {name: X-GitHub-Event, in: header, required: true, schema: {type: string}}
        - {name: X-Hub-Signature-256, in: header, required: true, schema: {type: string, pattern: '^sha256=[0-9a-f]{64}$'}}
      requestBody:
        required: true
        content: {application/json: {schema: {type: object, properties: {ref: {type: string}}}}}
      responses: {'200': {description: ok}}
"#,
    );
    let delivery = |headers: &[(&str, &str)]| {
        let mut exchange = exchange("POST", "/push", Some(json!({"ref": "main"})), 200, None);
        exchange.kind = Some(ExchangeKind::Notification);
        exchange.request.headers = headers
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .chain([("Content-Type".to_string(), "application/json".to_string())])
            .collect();
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    let signature = format!("sha256={}", "a".repeat(64));
    assert_eq!(
        delivery(&[
            ("X-GitHub-Event", "push"),
            ("X-Hub-Signature-256", &signature)
        ]),
        vec![]
    );
    let mut missing = delivery(&[]);
    missing.sort();
    assert_eq!(
        missing,
        [
            (
                Part::Notification,
                "required".to_string(),
                "header:X-GitHub-Event".to_string()
            ),
            (
                Part::Notification,
                "required".to_string(),
                "header:X-Hub-Signature-256".to_string()
            ),
        ]
    );
    assert_eq!(
        delivery(&[("X-GitHub-Event", "push"), ("X-Hub-Signature-256", "md5=1")]),
        one(Part::Notification, "pattern", "header:X-Hub-Signature-256")
    );
}

/// A credential a document declares only as a parameter (Discourse's `Api-Key` header, no
/// security scheme) is a credential still: a body that repeats it shows `REDACTED`, even with
/// `--show-values`; an ordinary parameter's value is shown.
#[test]
fn a_credential_declared_only_as_a_parameter_is_never_shown() {
    let contract = contract_of(
        r#"
openapi: 3.1.0
info: {title: Forum, version: '1'}
paths:
  /topics:
    put:
      parameters:
        - {name: Api-Key, in: header, required: true, schema: {type: string}}
        - {name: Api-Username, in: header, required: true, schema: {type: string}}
      requestBody:
        required: true
        content: {application/json: {schema: {type: object, properties: {category_id: {type: integer}, owner: {type: integer}}}}}
      responses: {'200': {description: ok}}
"#,
    );
    const KEY: &str = "d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6";
    let body = json!({"category_id": KEY, "owner": "system"});
    let mut exchange = exchange("PUT", "/topics", Some(body), 200, None);
    exchange.request.headers = vec![
        ("Api-Key".into(), KEY.into()),
        ("Api-Username".into(), "system".into()),
        ("Content-Type".into(), "application/json".into()),
    ];
    let options = CheckOptions {
        strict: false,
        show_values: true,
    };
    let outcome = check(&contract, &exchange, options);
    let messages: Vec<&str> = outcome
        .findings
        .iter()
        .map(|f| f.message.as_str())
        .collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages.iter().all(|m| !m.contains(KEY)), "{messages:?}");
    assert!(
        messages.iter().any(|m| m.contains("REDACTED")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("\"system\"")),
        "{messages:?}"
    );
}

/// A scalar query parameter sent more than once (Bitbucket invites `?state=OPEN&state=MERGED`):
/// each value keeps the schema, not the first alone.
#[test]
fn every_value_of_a_repeated_scalar_query_parameter_is_checked() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Pulls, version: '1'}
paths:
  /pulls:
    get:
      parameters:
        - {name: state, in: query, schema: {type: string, enum: [OPEN, MERGED, DECLINED]}}
        - {name: context, in: query, schema: {type: integer}}
      responses: {'200': {description: ok}}
"#,
    );
    let get = |query: &[(&str, &str)]| {
        let mut exchange = exchange("GET", "/pulls", None, 200, None);
        exchange.request.query = query
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    assert_eq!(
        get(&[("state", "OPEN"), ("state", "MERGED"), ("context", "3")]),
        vec![]
    );
    assert_eq!(
        get(&[("state", "OPEN"), ("state", "BOGUS")]),
        one(Part::Request, "enum", "query:state")
    );
    assert_eq!(
        get(&[("context", "3"), ("context", "x")]),
        one(Part::Request, "type", "query:context")
    );
    // Two bad values breaking one rule: one finding.
    assert_eq!(
        get(&[("state", "A"), ("state", "B")]),
        one(Part::Request, "enum", "query:state")
    );
}

/// A header sent on two lines is two values, each judged: a second idempotency key too long
/// is found, as the first would be.
#[test]
fn every_line_of_a_repeated_scalar_header_is_checked() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Payments, version: '1'}
paths:
  /payments:
    post:
      parameters:
        - {name: x-idempotency-key, in: header, required: true, schema: {type: string, maxLength: 10}}
      responses: {'201': {description: created}}
"#,
    );
    let post = |keys: &[&str]| {
        let mut exchange = exchange("POST", "/payments", None, 201, None);
        exchange.request.headers = keys
            .iter()
            .map(|key| ("X-Idempotency-Key".to_string(), key.to_string()))
            .collect();
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    assert_eq!(post(&["first-key"]), vec![]);
    for keys in [
        ["first-key", "a-key-far-too-long"],
        ["a-key-far-too-long", "first-key"],
    ] {
        assert_eq!(
            post(&keys),
            one(Part::Request, "maxLength", "header:x-idempotency-key"),
            "{keys:?}"
        );
    }
}

/// Requirements that differ only by their scopes (HubSpot lists each of its schemes twice)
/// lack the same credentials: the finding names each once.
#[test]
fn a_credential_missing_is_named_once_however_often_its_scheme_is_listed() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Files, version: '1'}
paths:
  /files:
    get:
      security: [{legacy: []}, {oauth: [files.read]}, {legacy: []}, {oauth: [files]}]
      responses: {'200': {description: ok}, '401': {description: no}}
components:
  securitySchemes:
    legacy: {type: apiKey, in: header, name: private-app-legacy}
    oauth: {type: oauth2, flows: {clientCredentials: {tokenUrl: 'https://x/token', scopes: {files: f, files.read: r}}}}
"#,
    );
    let mut exchange = exchange("GET", "/files", None, 200, None);
    exchange.request.headers.clear();
    let outcome = check(&contract, &exchange, CheckOptions::default());
    assert_eq!(found(&outcome), one(Part::Response, "credentials", ""));
    let message = &outcome.findings[0].message;
    assert_eq!(
        message.matches("private-app-legacy").count(),
        1,
        "{message}"
    );
    assert_eq!(message.matches("authorization").count(), 1, "{message}");
}

#[test]
fn a_valid_notification_must_not_be_rejected() {
    let payload = json!({
        "id": "xfer_1", "destination_account_id": "acct_1", "status": "COMPLETED",
        "direction": "INCOMING", "amount": { "value": 10, "currency": "USD" }
    });
    let rejection = json!({ "messages": ["/direction: not INCOMING"] });
    let mut rejected = exchange(
        "POST",
        "/v1/banking/transfers",
        Some(payload),
        400,
        Some(rejection.clone()),
    );
    rejected.request.headers = vec![("Content-Type".into(), "application/json".into())];
    assert_eq!(
        found(&run(&rejected)),
        one(Part::Reply, "reply-rejects-valid", "")
    );
    // An invalid notification may be rejected.
    let mut invalid = rejected.clone();
    invalid.request.body = Some(Body::Json(json!({ "direction": "OUTGOING" })));
    let rules = found(&run(&invalid));
    assert!(
        rules.iter().all(|(part, ..)| *part == Part::Notification),
        "{rules:?}"
    );
    // A 5XX asks for a retry: allowed.
    let mut busy = rejected.clone();
    busy.response = Some(Response {
        status: 503,
        headers: Vec::new(),
        body: None,
        mime_type: None,
    });
    assert_eq!(found(&run(&busy)), vec![]);
}

#[test]
fn drift_is_counted_always_and_reported_in_strict_mode() {
    let mut body = account();
    body["risk_score"] = json!(3);
    body["status"] = json!("ACTIVE");
    let transfer = json!({ "id": "xfer_1", "status": "CANCELLED", "extra": true });
    let read = exchange(
        "GET",
        &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
        None,
        200,
        Some(body),
    );
    let lenient = run(&read);
    assert_eq!(found(&lenient), vec![]);
    assert_eq!(
        lenient
            .drift
            .properties
            .keys()
            .map(|k| k.value.as_deref())
            .collect::<Vec<_>>(),
        [Some("risk_score")]
    );

    let strict = check(
        contract(),
        &read,
        CheckOptions {
            strict: true,
            show_values: false,
        },
    );
    assert_eq!(
        found(&strict),
        one(Part::Response, "undocumented-property", "/risk_score")
    );
    assert_eq!(strict.findings[0].severity, Severity::Warning);

    let path = format!("/v1/banking/accounts/{ACCOUNT_ID}/transfers/{KEY}");
    let cancelled = exchange("GET", &path, None, 200, Some(transfer));
    let outcome = check(
        contract(),
        &cancelled,
        CheckOptions {
            strict: true,
            show_values: false,
        },
    );
    let rules = found(&outcome);
    assert!(
        rules.contains(&(
            Part::Response,
            "undocumented-enum-value".into(),
            "/status".into()
        )),
        "{rules:?}"
    );
    assert!(
        rules.contains(&(
            Part::Response,
            "undocumented-property".into(),
            "/extra".into()
        )),
        "{rules:?}"
    );
    // The value itself is an instance value: masked unless asked for.
    let values = |outcome: &Outcome| -> Vec<Option<String>> {
        outcome
            .drift
            .enum_values
            .keys()
            .map(|k| k.value.clone())
            .collect()
    };
    assert_eq!(values(&outcome), [None]);
    let shown = check(
        contract(),
        &cancelled,
        CheckOptions {
            strict: true,
            show_values: true,
        },
    );
    assert_eq!(values(&shown), [Some("CANCELLED".to_string())]);

    // A value a closed list refuses is an `enum` error, reported once: no strict warning
    // beside it, and no drift (the summary lists what the spec leaves open, not what it
    // refuses).
    let strict = check(
        contract(),
        &frozen_account_read(),
        CheckOptions {
            strict: true,
            show_values: false,
        },
    );
    assert_eq!(found(&strict), one(Part::Response, "enum", "/status"));
    assert_eq!(values(&strict), Vec::<Option<String>>::new());
    // So is one the answer fixes (`ACTIVE` after creation): a `const` error, once.
    let mut frozen = account();
    frozen["status"] = json!("FROZEN");
    let created = exchange(
        "POST",
        "/v1/banking/accounts",
        Some(create_request()),
        201,
        Some(frozen),
    );
    let strict = check(
        contract(),
        &created,
        CheckOptions {
            strict: true,
            show_values: false,
        },
    );
    assert_eq!(found(&strict), one(Part::Response, "const", "/status"));
    assert!(strict.drift.enum_values.is_empty(), "{:?}", strict.drift);
}

// Constructs of other vendors' specs, against a contract made from a document of their
// shape: mixed path segments (Twilio's `{Sid}.json`, Google's `{name}:cancel`), parameters
// whose schema is a component or a type list, list parameters, and form bodies.

const VENDOR_SPEC: &str = r##"
openapi: 3.1.0
info: {title: Vendor, version: "1"}
servers: [{url: "https://api.example.com/2010-04-01"}]
paths:
  /Messages/{Sid}.json:
    get:
      operationId: fetchMessage
      parameters:
        - {name: Sid, in: path, required: true, schema: {type: string, pattern: "^SM[0-9a-f]{4}$"}}
      responses: {'200': {description: ok}}
  /Messages/{Sid}:
    get:
      operationId: fetchMessageBare
      parameters:
        - {name: Sid, in: path, required: true, schema: {type: string}}
      responses: {'200': {description: ok}}
  /operations/{name}:cancel:
    post:
      operationId: cancelOperation
      parameters:
        - {name: name, in: path, required: true, schema: {type: integer}}
      responses: {'204': {description: cancelled}}
  /Messages.json:
    get:
      operationId: listMessages
      parameters:
        - {name: PageSize, in: query, schema: {$ref: '#/components/schemas/PageSize'}}
        - {name: Page, in: query, schema: {type: [integer, "null"]}}
        - {name: Ids, in: query, schema: {type: array, items: {type: integer}}}
        - {name: Count, in: query, schema: {anyOf: [{type: integer}, {type: string, enum: [all]}]}}
        - {name: Sort, in: query, style: pipeDelimited, schema: {type: array, items: {type: string, enum: [date, to]}}}
        - {name: Category, in: query, explode: false, schema: {oneOf: [{type: integer}, {type: array, items: {type: integer}}]}}
        - {name: Label, in: query, schema: {$ref: '#/components/schemas/OneOrMore'}}
        - {name: Verbose, in: query, allowEmptyValue: true, schema: {type: boolean}}
        - {name: Near, in: query, style: spaceDelimited, explode: false, schema: {type: array, items: {type: number}}}
        - {name: To, in: query, schema: {type: array, items: {type: string, minLength: 3}, maxItems: 2}}
        - {name: Codes, in: query, explode: false, schema: {type: array, items: {type: string, minLength: 2}}}
        - {name: Status, in: query, schema: {type: array, items: {type: string, enum: [queued, sent]}}}
      responses: {'200': {description: ok}}
    post:
      operationId: createMessage
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [To]
              properties:
                To: {type: string}
                Attempt: {type: integer, minimum: 1}
                ProvideFeedback: {type: boolean}
                MediaUrl: {type: array, items: {type: string}}
                Status: {$ref: '#/components/schemas/Status'}
      responses: {'201': {description: created}}
  /Pages.json:
    get:
      operationId: listPages
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {first_page_uri: {type: string, format: uri}}}
  /Media.json:
    post:
      operationId: uploadMedia
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema: {type: object, properties: {file: {type: string, format: binary}}}
      responses: {'201': {description: created}}
  /uploads:
    post:
      operationId: createUpload
      servers: [{url: "https://upload.example.com/files/v1"}]
      responses: {'201': {description: created}}
  /pets:
    post:
      operationId: createPet
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}
      responses:
        '201':
          description: created
          content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}
components:
  schemas:
    PageSize: {type: integer, minimum: 1, maximum: 1000}
    Status: {type: string, enum: [queued, sent]}
    OneOrMore:
      anyOf:
        - {type: string, maxLength: 3}
        - {type: array, items: {type: string, maxLength: 3}}
    Pet:
      type: object
      required: [id, name, secret, owner]
      properties:
        id: {type: string, readOnly: true}
        name: {type: string}
        secret: {type: string, writeOnly: true}
        owner: {$ref: '#/components/schemas/OwnerId'}
    OwnerId: {type: string, readOnly: true}
"##;

fn vendor_contract() -> &'static Contract {
    static CONTRACT: std::sync::OnceLock<Contract> = std::sync::OnceLock::new();
    CONTRACT.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let spec = dir.path().join("vendor.yaml");
        std::fs::write(&spec, VENDOR_SPEC).unwrap();
        Contract::from_spec(&spec).expect("the vendor-shaped spec makes a contract")
    })
}

/// An exchange with the vendor's API: `target` is the path and query after its base path.
fn vendor(method: &str, target: &str, body: Option<(&str, &str)>, status: u16) -> Exchange {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut headers = Vec::new();
    if let Some((content_type, _)) = body {
        headers.push(("Content-Type".to_string(), content_type.to_string()));
    }
    Exchange {
        index: 0,
        line: Some(1),
        id: None,
        source: "vendor.jsonl".into(),
        kind: None,
        request: Request {
            method: method.into(),
            path: format!("/2010-04-01{path}"),
            query: form_urlencoded::parse(query.as_bytes())
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
            headers,
            body: body.map(|(_, text)| Body::Text(text.into())),
            mime_type: None,
            authority: None,
            userinfo: None,
        },
        response: Some(Response {
            status,
            headers: Vec::new(),
            body: None,
            mime_type: None,
        }),
        failure: None,
    }
}

fn vendor_run(exchange: &Exchange) -> Outcome {
    check(vendor_contract(), exchange, CheckOptions::default())
}

#[test]
fn a_parameter_may_share_its_segment_with_text() {
    let fetch = vendor_run(&vendor("GET", "/Messages/SM12ab.json", None, 200));
    assert_eq!(fetch.operation.as_deref(), Some("fetchMessage"));
    assert_eq!(found(&fetch), vec![]);
    // The parameter is the text before `.json`, and its rules apply to it alone.
    let bad = vendor_run(&vendor("GET", "/Messages/XX12.json", None, 200));
    assert_eq!(bad.operation.as_deref(), Some("fetchMessage"));
    assert_eq!(found(&bad), one(Part::Request, "pattern", "path:Sid"));
    // Without the suffix the other template matches.
    let bare = vendor_run(&vendor("GET", "/Messages/SM12ab", None, 200));
    assert_eq!(bare.operation.as_deref(), Some("fetchMessageBare"));
    let cancel = vendor_run(&vendor("POST", "/operations/42:cancel", None, 204));
    assert_eq!(cancel.operation.as_deref(), Some("cancelOperation"));
    assert_eq!(found(&cancel), vec![]);
    let not_a_number = vendor_run(&vendor("POST", "/operations/x:cancel", None, 204));
    assert_eq!(
        found(&not_a_number),
        one(Part::Request, "type", "path:name")
    );
    let other_verb = vendor_run(&vendor("POST", "/operations/42:undo", None, 204));
    assert_eq!(found(&other_verb), one(Part::Entry, "operation-path", ""));
    // The verb's `:` percent-encoded is data (RFC 3986, 2.2; grpc-gateway keeps reserved
    // characters escaped too): `42%3Acancel` is a name, no verb, as the generated server
    // routes it and as its client writes a `:` of a value. Text that is no delimiter
    // (`.json`) fits however it is encoded.
    let encoded = vendor_run(&vendor("POST", "/operations/42%3Acancel", None, 204));
    assert_eq!(encoded.operation, None);
    assert_eq!(found(&encoded), one(Part::Entry, "operation-path", ""));
    let encoded_literal = vendor_run(&vendor("GET", "/Messages/SM12ab%2Ejson", None, 200));
    assert_eq!(encoded_literal.operation.as_deref(), Some("fetchMessage"));
    let literal = vendor_run(&vendor("GET", "/Messages.json", None, 200));
    let literal_encoded = vendor_run(&vendor("GET", "/Messages%2Ejson", None, 200));
    assert!(literal.operation.is_some());
    assert_eq!(literal_encoded.operation, literal.operation);
}

#[test]
fn parameters_are_parsed_by_the_schema_they_refer_to() {
    let clean = vendor_run(&vendor(
        "GET",
        "/Messages.json?PageSize=50&Page=2&Count=7",
        None,
        200,
    ));
    assert_eq!(found(&clean), vec![]);
    let all = vendor_run(&vendor("GET", "/Messages.json?Count=all", None, 200));
    assert_eq!(found(&all), vec![]);
    let too_big = vendor_run(&vendor("GET", "/Messages.json?PageSize=5000", None, 200));
    assert_eq!(
        found(&too_big),
        one(Part::Request, "maximum", "query:PageSize")
    );
    let not_a_page = vendor_run(&vendor("GET", "/Messages.json?Page=first", None, 200));
    assert_eq!(found(&not_a_page), one(Part::Request, "type", "query:Page"));
    // Worded as a list item's is (jsonschema's words), the type quoted.
    assert_eq!(
        not_a_page.findings[0].message,
        "value is not of type \"integer\""
    );
    // An integer beyond 64 bits is an integer, as it is in a body: only the schema's bound
    // refuses it.
    let beyond = vendor_run(&vendor(
        "GET",
        "/Messages.json?PageSize=99999999999999999999",
        None,
        200,
    ));
    assert_eq!(
        found(&beyond),
        one(Part::Request, "maximum", "query:PageSize")
    );
    let fraction = vendor_run(&vendor("GET", "/Messages.json?PageSize=1.5", None, 200));
    assert_eq!(
        found(&fraction),
        one(Part::Request, "type", "query:PageSize")
    );
}

#[test]
fn a_list_parameter_takes_repeated_keys_or_commas() {
    for target in [
        "/Messages.json?Ids=1&Ids=2",
        "/Messages.json?Ids=1,2",
        "/Messages.json?Ids=3",
    ] {
        assert_eq!(
            found(&vendor_run(&vendor("GET", target, None, 200))),
            vec![],
            "{target}"
        );
    }
    let bad = vendor_run(&vendor("GET", "/Messages.json?Ids=1&Ids=two", None, 200));
    assert_eq!(found(&bad), one(Part::Request, "type", "query:Ids"));
    // A string list travels as OpenAPI's default says, one key per item: a lone value
    // holding a comma is one item (`Smith, Jo` is a name, not two), so it breaks neither
    // `maxItems` nor the items' `minLength`, while three keys break `maxItems`.
    for target in [
        "/Messages.json?To=Smith%2C%20Jo",
        "/Messages.json?To=a%2Cb%2Cc",
        "/Messages.json?To=Ann&To=Bob",
    ] {
        assert_eq!(
            found(&vendor_run(&vendor("GET", target, None, 200))),
            vec![],
            "{target}"
        );
    }
    let many = vendor_run(&vendor(
        "GET",
        "/Messages.json?To=Ann&To=Bob&To=Cy1",
        None,
        200,
    ));
    assert_eq!(found(&many), one(Part::Request, "maxItems", "query:To"));
    // A lone value that conforms only as a comma-separated list is read as one: clients
    // send `?Status=queued,sent` where the spec says `?Status=queued&Status=sent`. One that
    // conforms neither way is judged as the spec reads it.
    for target in [
        "/Messages.json?Status=queued,sent",
        "/Messages.json?Status=queued&Status=sent",
    ] {
        assert_eq!(
            found(&vendor_run(&vendor("GET", target, None, 200))),
            vec![],
            "{target}"
        );
    }
    let bad = vendor_run(&vendor(
        "GET",
        "/Messages.json?Status=queued,lost",
        None,
        200,
    ));
    assert_eq!(found(&bad), one(Part::Request, "enum", "query:Status"));
    // With `explode: false` the commas part it: `ab,c` is two items, the second too short.
    let joined = vendor_run(&vendor("GET", "/Messages.json?Codes=ab,c", None, 200));
    assert_eq!(
        found(&joined),
        one(Part::Request, "minLength", "query:Codes")
    );
    assert_eq!(
        found(&vendor_run(&vendor(
            "GET",
            "/Messages.json?Codes=ab,cd",
            None,
            200
        ))),
        vec![]
    );
}

/// A parameter whose schema is a union with a list alternative carries one value or a list
/// (PeerTube's `categoryOneOf`): a repeated key, or a lone value that conforms only as the
/// list it reads as, is the list; anything else is judged as the one value.
#[test]
fn a_parameter_with_a_list_alternative_takes_one_value_or_a_list() {
    for target in [
        "/Messages.json?Category=1",
        "/Messages.json?Category=1,2",
        "/Messages.json?Label=ab",
        "/Messages.json?Label=ab&Label=cd",
        "/Messages.json?Label=ab,cd",
    ] {
        assert_eq!(
            found(&vendor_run(&vendor("GET", target, None, 200))),
            vec![],
            "{target}"
        );
    }
    for (target, rule, pointer) in [
        ("/Messages.json?Category=1,x", "oneOf", "query:Category"),
        ("/Messages.json?Category=x", "oneOf", "query:Category"),
        ("/Messages.json?Label=abcd", "anyOf", "query:Label"),
        ("/Messages.json?Label=ab&Label=abcd", "anyOf", "query:Label"),
    ] {
        assert_eq!(
            found(&vendor_run(&vendor("GET", target, None, 200))),
            one(Part::Request, rule, pointer),
            "{target}"
        );
    }
}

/// `?Verbose=` keeps the contract where the spec allows an empty value (`allowEmptyValue`),
/// and is judged by the schema elsewhere.
#[test]
fn an_empty_value_passes_only_where_the_spec_allows_one() {
    for target in ["/Messages.json?Verbose=", "/Messages.json?Verbose=true"] {
        assert_eq!(
            found(&vendor_run(&vendor("GET", target, None, 200))),
            vec![],
            "{target}"
        );
    }
    for target in ["/Messages.json?Verbose=maybe", "/Messages.json?Page="] {
        let pointer = if target.contains("Verbose") {
            "query:Verbose"
        } else {
            "query:Page"
        };
        assert_eq!(
            found(&vendor_run(&vendor("GET", target, None, 200))),
            one(Part::Request, "type", pointer),
            "{target}"
        );
    }
}

/// `pipeDelimited` and `spaceDelimited` lists part their items with `|` and a space; a
/// repeated key still gives one item per value.
#[test]
fn a_delimited_list_parameter_is_split_by_its_style() {
    for target in [
        "/Messages.json?Sort=date|to",
        "/Messages.json?Sort=to&Sort=date",
        "/Messages.json?Near=1.5%202.5",
        "/Messages.json?Near=1.5+2.5",
    ] {
        assert_eq!(
            found(&vendor_run(&vendor("GET", target, None, 200))),
            vec![],
            "{target}"
        );
    }
    let bad = vendor_run(&vendor("GET", "/Messages.json?Sort=date|from", None, 200));
    assert_eq!(found(&bad), one(Part::Request, "enum", "query:Sort"));
    // A comma does not part a pipe-delimited list: `date,to` is one value, and not an allowed one.
    let comma = vendor_run(&vendor("GET", "/Messages.json?Sort=date,to", None, 200));
    assert_eq!(found(&comma), one(Part::Request, "enum", "query:Sort"));
    let bad = vendor_run(&vendor("GET", "/Messages.json?Near=1.5%20north", None, 200));
    assert_eq!(found(&bad), one(Part::Request, "type", "query:Near"));
}

/// A list sent with brackets, as Rails, PHP and `qs` write one (`Status[]=a&Status[]=b`,
/// `Status[0]=a`), is the list parameter: each item is checked, and it is present.
#[test]
fn a_list_sent_with_brackets_is_checked_as_that_list() {
    let clean = vendor_run(&vendor(
        "GET",
        "/Messages.json?Status[]=queued&Status[]=sent&To[0]=%2B1555&To[1]=%2B1666",
        None,
        200,
    ));
    assert_eq!(clean.operation.as_deref(), Some("listMessages"));
    assert_eq!(found(&clean), vec![]);
    let bad = vendor_run(&vendor(
        "GET",
        "/Messages.json?Status[]=queued&Status[]=lost",
        None,
        200,
    ));
    assert_eq!(found(&bad), one(Part::Request, "enum", "query:Status"));
    let short = vendor_run(&vendor("GET", "/Messages.json?To[]=ab", None, 200));
    assert_eq!(found(&short), one(Part::Request, "minLength", "query:To"));
}

#[test]
fn a_form_body_is_checked_field_by_field() {
    const FORM: &str = "application/x-www-form-urlencoded";
    let clean = vendor_run(&vendor(
        "POST",
        "/Messages.json",
        Some((
            FORM,
            "To=%2B15558675310&Attempt=2&ProvideFeedback=true&MediaUrl=a&MediaUrl=b&Status=queued",
        )),
        201,
    ));
    assert_eq!(clean.operation.as_deref(), Some("createMessage"));
    assert_eq!(found(&clean), vec![]);
    let broken = vendor_run(&vendor(
        "POST",
        "/Messages.json",
        Some((FORM, "To=x&Attempt=zero&ProvideFeedback=maybe&Status=lost")),
        201,
    ));
    let mut rules = found(&broken);
    rules.sort();
    assert_eq!(
        rules,
        vec![
            (Part::Request, "enum".into(), "/Status".into()),
            (Part::Request, "type".into(), "/Attempt".into()),
            (Part::Request, "type".into(), "/ProvideFeedback".into()),
        ]
    );
    let below = vendor_run(&vendor(
        "POST",
        "/Messages.json",
        Some((FORM, "To=x&Attempt=0")),
        201,
    ));
    assert_eq!(found(&below), one(Part::Request, "minimum", "/Attempt"));
    let missing = vendor_run(&vendor(
        "POST",
        "/Messages.json",
        Some((FORM, "Attempt=1")),
        201,
    ));
    assert_eq!(found(&missing), one(Part::Request, "required", ""));
    let empty = vendor_run(&vendor("POST", "/Messages.json", None, 201));
    assert_eq!(found(&empty), one(Part::Request, "required", ""));
    // JSON where the spec documents a form: the media type is the finding.
    let json = vendor_run(&vendor(
        "POST",
        "/Messages.json",
        Some(("application/json", r#"{"To": "x"}"#)),
        201,
    ));
    assert_eq!(
        found(&json),
        one(Part::Request, "content-type", "header:content-type")
    );
}

/// A form's `encoding` says how its fields travel: a list as one comma-joined value, an
/// object as one field of JSON text. Each item and member is then checked by its schema, and
/// the way the document describes is not a finding.
#[test]
fn a_form_is_read_as_its_encoding_sends_its_fields() {
    let contract = contract_of(
        "openapi: 3.1.0\ninfo: {title: Forms, version: '1'}\npaths:\n  /form:\n    post:\n      \
         operationId: postForm\n      requestBody:\n        required: true\n        content:\n          \
         application/x-www-form-urlencoded:\n            schema:\n              type: object\n              \
         properties:\n                codes: {type: array, items: {type: integer}}\n                \
         meta: {type: object, properties: {n: {type: integer}}}\n            encoding:\n              \
         codes: {style: form, explode: false}\n              meta: {contentType: application/json}\n      \
         responses: {'200': {description: ok}}\n",
    );
    let run = |form: &str| {
        let line = json!({"request": {"method": "POST", "url": "http://localhost/form",
            "headers": {"Content-Type": "application/x-www-form-urlencoded"}, "body": form},
            "response": {"status": 200}});
        check(&contract, &read_lines(&[line])[0], CheckOptions::default())
    };
    for form in ["codes=1,2,3", "codes=", "codes=7", "meta=%7B%22n%22%3A2%7D"] {
        let outcome = run(form);
        assert_eq!(outcome.operation.as_deref(), Some("postForm"), "{form}");
        assert_eq!(found(&outcome), vec![], "{form}");
    }
    assert_eq!(
        found(&run("codes=1,x")),
        one(Part::Request, "type", "/codes/1")
    );
    assert_eq!(
        found(&run("meta=%7B%22n%22%3A%22two%22%7D")),
        one(Part::Request, "type", "/meta/n")
    );
}

/// The same form written by hand in JSON Lines as a `body` string: its fields are checked,
/// not only its media type.
#[test]
fn a_form_written_as_a_body_string_is_checked_field_by_field() {
    let line = json!({"request": {"method": "POST",
        "url": "https://api.example.com/2010-04-01/Messages.json",
        "headers": {"Content-Type": "application/x-www-form-urlencoded"},
        "body": "To=x&Attempt=zero"}, "response": {"status": 201}});
    let outcome = vendor_run(&read_lines(&[line])[0]);
    assert_eq!(outcome.operation.as_deref(), Some("createMessage"));
    assert_eq!(found(&outcome), one(Part::Request, "type", "/Attempt"));
}

/// Reads JSON Lines records written by hand.
fn read_lines(lines: &[Value]) -> Vec<Exchange> {
    let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let mut exchanges = Vec::new();
    specval::read::read(
        "hand.jsonl",
        text.as_bytes(),
        specval::read::Format::JsonLines,
        &[],
        &mut |entry| exchanges.push(entry.expect("a well-formed line")),
    )
    .expect("reading from memory cannot fail");
    exchanges
}

/// A capture of the bytes on the wire holds a compressed body as sent
/// (`Content-Encoding: gzip`, base64 in `bodyBase64`): it is judged by the JSON it encodes.
#[test]
fn a_compressed_body_is_judged_by_what_it_encodes() {
    use base64::Engine as _;
    use std::io::Write as _;
    let gzip = |value: &Value| {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(value.to_string().as_bytes()).unwrap();
        base64::engine::general_purpose::STANDARD.encode(encoder.finish().unwrap())
    };
    let mut broken = account();
    broken["balance"]["available"] = json!("lots");
    let line = |body: &Value| {
        json!({
            "request": {"method": "GET", "path": "/v1/banking/accounts/6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b",
                        "headers": credentials()},
            "response": {"status": 200,
                         "headers": {"Content-Type": "application/json", "Content-Encoding": "gzip"},
                         "bodyBase64": gzip(body)}
        })
    };
    let exchanges = read_lines(&[line(&account()), line(&broken)]);
    let verdicts: Vec<_> = exchanges
        .iter()
        .map(|exchange| found(&check(contract(), exchange, CheckOptions::default())))
        .collect();
    assert_eq!(
        verdicts,
        [vec![], one(Part::Response, "type", "/balance/available")]
    );
}

/// Hand-written JSON Lines often give a form's fields as a `body` object rather than encode
/// the form. Kept as JSON, the fields went unchecked (a form with a missing field and a word
/// for a number passed); they are now the form the object lists, for a urlencoded form and
/// for a multipart one alike, a list being a repeated field.
#[test]
fn a_form_written_as_a_body_object_is_checked_field_by_field() {
    let form = |body: Value| {
        json!({"request": {"method": "POST",
            "url": "https://api.example.com/2010-04-01/Messages.json",
            "headers": {"Content-Type": "application/x-www-form-urlencoded"},
            "body": body}, "response": {"status": 201}})
    };
    let upload = |content_type: &str, body: Value| {
        json!({"request": {"method": "POST", "url": "https://api.example.com/api/v2/uploads",
            "headers": {"Content-Type": content_type}, "body": body},
            "response": {"status": 201}})
    };
    let clean = json!({"attributes": {"name": "Rex"}, "file": "line 1", "retries": 2,
                       "tags": ["a", "b"]});
    let mut missing = clean.clone();
    missing.as_object_mut().unwrap().remove("file");
    let mut too_many = clean.clone();
    too_many["retries"] = json!(9);
    let mut unknown_tag = clean.clone();
    unknown_tag["tags"] = json!(["a", "c"]);
    let exchanges = read_lines(&[
        form(json!({"To": "x", "Attempt": 2})),
        form(json!({"To": "x", "Attempt": "zero"})),
        form(json!({"Attempt": 2})),
        upload("multipart/form-data", clean.clone()),
        upload("multipart/form-data; boundary=XyZ", clean),
        upload("multipart/form-data", missing),
        upload("multipart/form-data", too_many),
        upload("multipart/form-data", unknown_tag),
    ]);
    let outcomes: Vec<_> = exchanges[..3].iter().map(vendor_run).collect();
    assert_eq!(outcomes[0].operation.as_deref(), Some("createMessage"));
    assert_eq!(found(&outcomes[0]), vec![]);
    assert_eq!(found(&outcomes[1]), one(Part::Request, "type", "/Attempt"));
    assert_eq!(found(&outcomes[2]), one(Part::Request, "required", ""));
    let uploads: Vec<_> = exchanges[3..].iter().map(media_run).collect();
    assert_eq!(found(&uploads[0]), vec![]);
    assert_eq!(found(&uploads[1]), vec![]);
    assert_eq!(found(&uploads[2]), one(Part::Request, "required", ""));
    assert_eq!(
        found(&uploads[3]),
        one(Part::Request, "maximum", "/retries")
    );
    assert_eq!(found(&uploads[4]), one(Part::Request, "enum", "/tags/1"));
}

/// A `multipart/form-data` part, as a client builds one.
fn part(name: &str, headers: &str, content: &str) -> String {
    format!(
        "--XyZ\r\nContent-Disposition: form-data; name=\"{name}\"{headers}\r\n\r\n{content}\r\n"
    )
}

fn upload(parts: &[String], content_type: &str) -> Outcome {
    let body = format!("{}--XyZ--\r\n", parts.concat());
    media_run(&media_exchange(
        "POST",
        "/api/v2/uploads",
        Some((content_type, &body)),
        201,
        None,
    ))
}

/// Each part of a multipart body is a field its schema checks: an object part as its JSON, a
/// number as its number, a repeated part as a list.
#[test]
fn a_multipart_body_is_checked_part_by_part() {
    let json = "\r\nContent-Type: application/json";
    let file = "; filename=\"a.txt\"\r\nContent-Type: text/plain";
    let attributes = part("attributes", json, r#"{"name": "Rex"}"#);
    let content = part("file", file, "line 1\r\nline 2");
    let retries = part("retries", "", "2");
    let tags = [part("tags", "", "a"), part("tags", "", "b")];
    let form_data = "multipart/form-data; boundary=XyZ";
    let clean = [
        attributes.clone(),
        content.clone(),
        retries,
        tags[0].clone(),
        tags[1].clone(),
    ];
    assert_eq!(found(&upload(&clean, form_data)), vec![]);
    // Without the boundary parameter, the body's first line gives it.
    assert_eq!(found(&upload(&clean, "multipart/form-data")), vec![]);
    let broken = [
        (vec![attributes.clone()], one(Part::Request, "required", "")),
        (
            vec![part("attributes", json, r#"{"name": 5}"#), content.clone()],
            one(Part::Request, "type", "/attributes/name"),
        ),
        (
            vec![
                attributes.clone(),
                content.clone(),
                part("retries", "", "9"),
            ],
            one(Part::Request, "maximum", "/retries"),
        ),
        (
            vec![attributes.clone(), content.clone(), part("tags", "", "c")],
            one(Part::Request, "enum", "/tags/0"),
        ),
    ];
    for (parts, expected) in broken {
        assert_eq!(found(&upload(&parts, form_data)), expected, "{parts:?}");
    }
    // A body whose parts are not split by the declared boundary is named, not passed.
    let outcome = upload(&clean, "multipart/form-data; boundary=other");
    assert_eq!(found(&outcome), one(Part::Request, "multipart", ""));
    assert!(outcome.findings[0].message.contains("\"other\""));
}

/// Jira's attachment upload documents its `multipart/form-data` body as one binary string:
/// its parts are the bytes of files, no object's members, so only the media type is judged
/// (it had been a `type` finding on every upload). A multipart body beside JSON documented
/// with a binary schema of its own is taken the same way; one whose schema is an object is
/// still read part by part.
#[test]
fn a_multipart_body_documented_as_bytes_is_not_read_as_fields() {
    let contract = contract_of(
        r#"
openapi: 3.0.1
info: {title: Jira, version: '3'}
paths:
  /rest/api/3/issue/{issueIdOrKey}/attachments:
    post:
      operationId: addAttachment
      parameters:
        - {name: issueIdOrKey, in: path, required: true, schema: {type: string}}
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema: {type: string, format: binary}
      responses: {'200': {description: ok}}
  /avatars:
    post:
      operationId: addAvatar
      requestBody:
        content:
          application/json:
            schema: {type: object, required: [url], properties: {url: {type: string}}}
          multipart/form-data:
            schema: {type: string, format: binary}
      responses: {'201': {description: ok}}
  /notes:
    post:
      operationId: addNote
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema: {type: object, required: [text], properties: {text: {type: string, maxLength: 4}}}
      responses: {'201': {description: ok}}
"#,
    );
    let form_data = "multipart/form-data; boundary=XyZ";
    let file = "; filename=\"a.txt\"\r\nContent-Type: text/plain";
    let judged = |path: &str, media: &str, parts: &[String], status: u16| {
        let body = format!("{}--XyZ--\r\n", parts.concat());
        let exchange = media_exchange("POST", path, Some((media, &body)), status, None);
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    let upload = [part("file", file, "line 1")];
    let attachments = "/rest/api/3/issue/KEY-1/attachments";
    assert_eq!(judged(attachments, form_data, &upload, 200), vec![]);
    assert_eq!(judged("/avatars", form_data, &upload, 201), vec![]);
    // The media type is judged still.
    assert_eq!(
        judged(attachments, "text/plain", &upload, 200),
        one(Part::Request, "content-type", "header:content-type")
    );
    // An object's parts are fields.
    assert_eq!(
        judged("/notes", form_data, &[part("text", "", "too long")], 201),
        one(Part::Request, "maxLength", "/text")
    );
}

/// OpenAPI's formats are rules the contract checks: `int32` and `int64` are signed 32 and 64
/// bits (a client's `i32` cannot hold more), `byte` is base64 text. A `duration` may have a
/// fraction of a second, as .NET writes one (Azure's `PT9.87S`).
#[test]
fn integer_byte_and_duration_formats_are_checked() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Formats, version: "1"}
paths:
  /things:
    get:
      operationId: listThings
      parameters:
        - {name: limit, in: query, schema: {type: integer, format: int32}}
        - {name: size, in: query, schema: {type: number, format: int32}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  pages: {type: number, format: int32}
                  steps: {type: [number, "null"], format: int64}
                  small: {type: integer, format: int32}
                  big: {type: integer, format: int64}
                  capped: {type: integer, format: int32, maximum: 10}
                  data: {type: string, format: byte}
                  wait: {type: string, format: duration}
                  size: {type: integer, format: uint64}
                  level: {type: integer, format: uint8}
                  count: {type: string, format: int64}
                  shard: {type: string, format: int32}
"#,
    );
    let run = |query: &str, body: serde_json::Value| {
        let mut exchange = media_exchange("GET", "/things", None, 200, None);
        exchange.request.query = vec![("limit".into(), query.into())];
        answer_json(&mut exchange, body);
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    let clean = json!({"small": -2147483648, "big": 9007199254740993u64, "capped": 10,
                       "data": "aGVsbG8=", "wait": "P10675199DT2H48M5.4775807S",
                       "size": u64::MAX, "level": 255,
                       "count": "-9223372036854775808", "shard": "7"});
    assert_eq!(run("2147483647", clean), vec![]);
    assert_eq!(
        run("2147483648", json!({})),
        one(Part::Request, "maximum", "query:limit")
    );
    assert_eq!(
        run("1", json!({"small": 2147483648u64})),
        one(Part::Response, "maximum", "/small")
    );
    assert_eq!(
        run("1", json!({"big": -1e19})),
        one(Part::Response, "minimum", "/big")
    );
    // The registry's unsigned formats: no sign, and their width.
    assert_eq!(
        run("1", json!({"size": -1})),
        one(Part::Response, "minimum", "/size")
    );
    assert_eq!(
        run("1", json!({"level": 256})),
        one(Part::Response, "maximum", "/level")
    );
    // A bound the spec gives itself is the one checked.
    assert_eq!(
        run("1", json!({"capped": 11})),
        one(Part::Response, "maximum", "/capped")
    );
    assert_eq!(
        run("1", json!({"data": "[file data]"})),
        one(Part::Response, "format", "/data")
    );
    assert_eq!(
        run("1", json!({"wait": "PT7D"})),
        one(Part::Response, "format", "/wait")
    );
    // `type: number` with an integer format is an integer (impala.travel's `size`, which the
    // bindings hold in an `i32`): the format registry's integers are of the JSON type number.
    assert_eq!(run("1", json!({"pages": 2.0, "steps": null})), vec![]);
    assert_eq!(
        run("1", json!({"pages": 2.5})),
        one(Part::Response, "type", "/pages")
    );
    assert_eq!(
        run("1", json!({"steps": 3.5})),
        one(Part::Response, "type", "/steps")
    );
    let mut sized = media_exchange("GET", "/things", None, 200, None);
    sized.request.query = vec![("size".into(), "2.5".into())];
    answer_json(&mut sized, json!({}));
    assert_eq!(
        found(&check(&contract, &sized, CheckOptions::default())),
        one(Part::Request, "type", "query:size")
    );
    // A 64-bit integer as Google's APIs send it, as text: the text must be one.
    for (count, shard) in [("two", "1"), ("1", "2147483648")] {
        let member = if count == "two" { "/count" } else { "/shard" };
        assert_eq!(
            run("1", json!({"count": count, "shard": shard})),
            one(Part::Response, "format", member)
        );
    }
}

/// Components whose names differ only where a file name cannot (a space, a case, a length
/// beyond what a file system allows) each keep their own contract file, so each body is
/// judged by its own schema: `Order Line` and `Order_Line` once shared one file, and the
/// second's rules judged the first's values.
#[test]
fn components_whose_file_names_would_clash_keep_their_own_rules() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("names.yaml");
    let long = "Line".repeat(80);
    let op = |path: &str, component: &str| {
        format!(
            "  {path}:\n    get:\n      responses:\n        '200':\n          description: ok\n\
             \x20         content:\n            application/json:\n              schema: \
             {{$ref: '#/components/schemas/{component}'}}\n"
        )
    };
    std::fs::write(
        &spec,
        format!(
            "openapi: 3.1.0\ninfo: {{title: Names, version: '1'}}\npaths:\n{}{}{}{}\
             components:\n  schemas:\n\
             \x20   Order Line: {{type: object, properties: {{a: {{type: string}}}}}}\n\
             \x20   Order_Line: {{type: object, properties: {{b: {{type: integer}}}}}}\n\
             \x20   order_line: {{type: object, properties: {{c: {{type: boolean}}}}}}\n\
             \x20   {long}: {{type: object, properties: {{d: {{type: number}}}}}}\n",
            op("/spaced", "Order Line"),
            op("/underscored", "Order_Line"),
            op("/lower", "order_line"),
            op("/long", &long),
        ),
    )
    .unwrap();
    let contract = Contract::from_spec(&spec).expect("the spec makes a contract");
    let checks = [
        ("Order Line", json!({"a": 5}), "/a"),
        ("Order_Line", json!({"b": "x"}), "/b"),
        ("order_line", json!({"c": "x"}), "/c"),
        (long.as_str(), json!({"d": "x"}), "/d"),
    ];
    let mut files = Vec::new();
    for (component, broken, pointer) in checks {
        let file = contract
            .resolve(component)
            .expect("every component has a file");
        assert!(file.len() < 200, "{file}");
        files.push(file.to_lowercase());
        // Judged by its own schema: the member only it declares breaks its own type.
        let found = contract.validate(component, &broken, false).unwrap();
        assert_eq!(found.len(), 1, "{component}: {found:?}");
        assert_eq!(found[0].pointer, pointer, "{component}");
        assert_eq!(found[0].rule.to_string(), "type", "{component}");
    }
    files.sort();
    files.dedup();
    assert_eq!(files.len(), 4, "four files, whatever the case: {files:?}");
    // The messages of the operations were right before too; they stay so.
    let run = |path: &str, body: serde_json::Value| {
        let mut exchange = media_exchange("GET", path, None, 200, None);
        answer_json(&mut exchange, body);
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    assert_eq!(run("/spaced", json!({"a": "x", "b": "y"})), vec![]);
    assert_eq!(
        run("/underscored", json!({"b": "x"})),
        one(Part::Response, "type", "/b")
    );
}

/// A spec that shows content for a `204` (64 documents of the APIs.guru directory do) makes
/// a contract whose `204` has no body, as HTTP says: the answer a server gives is clean, and a
/// `200` without its body is still a finding.
#[test]
fn a_status_that_cannot_have_content_is_judged_without_a_body() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Bodiless, version: "1"}
paths:
  /pets:
    delete:
      operationId: deletePets
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object}}}}
        '204': {description: gone, content: {application/json: {schema: {type: object}}}}
"#,
    );
    let run = |status| {
        found(&check(
            &contract,
            &media_exchange("DELETE", "/pets", None, status, None),
            CheckOptions::default(),
        ))
    };
    assert_eq!(run(204), vec![]);
    assert_eq!(run(200), one(Part::Response, "required", ""));
}

/// A JSON Lines `body` written as a string of JSON text (`"body": "{\"id\": 1}"`) is the JSON
/// it holds when its schema refuses strings, or puts no type on the value (`properties`
/// without `type: object`): its members are judged, not its type. A schema that takes strings
/// keeps the string, and JSON sent on the wire as a JSON string (a HAR's text
/// `"\"{...}\""`) is still the string it is, which breaks an object's schema.
#[test]
fn a_recorded_string_of_json_text_is_the_json_it_holds() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Strings, version: "1"}
paths:
  /things:
    post:
      operationId: addThing
      requestBody:
        content: {application/json: {schema: {type: object, required: [id], properties: {id: {type: integer}}}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {type: array, items: {type: integer}}}}}
  /labels:
    get:
      operationId: getLabel
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: string}}}}
  /emails:
    post:
      operationId: sendEmail
      requestBody:
        content: {application/json: {schema: {properties: {TrackLinks: {type: string, enum: [None, HtmlOnly]}}}}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {anyOf: [{type: string}, {type: object}]}}}}
"#,
    );
    let run = |method: &str, path: &str, sent: Option<Body>, status, answered: Option<Body>| {
        let json = vec![("Content-Type".to_string(), "application/json".to_string())];
        let exchange = Exchange {
            index: 0,
            line: None,
            id: None,
            source: "strings.jsonl".into(),
            kind: None,
            request: Request {
                method: method.into(),
                path: path.into(),
                headers: if sent.is_some() { json.clone() } else { vec![] },
                body: sent,
                ..Request::default()
            },
            response: Some(Response {
                status,
                headers: json,
                body: answered,
                mime_type: None,
            }),
            failure: None,
        };
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    let recorded = |text: &str| Some(Body::Json(Value::String(text.to_string())));
    assert_eq!(
        run(
            "POST",
            "/things",
            recorded(r#"{"id": 1}"#),
            201,
            recorded("[1, 2]")
        ),
        vec![]
    );
    assert_eq!(
        run(
            "POST",
            "/things",
            recorded(r#"{"id": "x"}"#),
            201,
            recorded("[1]")
        ),
        one(Part::Request, "type", "/id")
    );
    assert_eq!(
        run(
            "POST",
            "/things",
            recorded(r#"{"id": 1}"#),
            201,
            recorded(r#"[1, "b"]"#)
        ),
        one(Part::Response, "type", "/1")
    );
    // A string schema keeps the string, JSON-looking or not.
    assert_eq!(
        run("GET", "/labels", None, 200, recorded("{not json}")),
        vec![]
    );
    assert_eq!(
        run("GET", "/labels", None, 200, recorded(r#"{"a": 1}"#)),
        vec![]
    );
    // A schema without a type (Postmark's `SendEmailRequest`) would take any string unread;
    // one that takes strings among other types keeps it.
    assert_eq!(
        run(
            "POST",
            "/emails",
            recorded(r#"{"TrackLinks": "Always"}"#),
            200,
            recorded(r#"{"a": 1}"#)
        ),
        one(Part::Request, "enum", "/TrackLinks")
    );
    assert_eq!(
        run(
            "POST",
            "/emails",
            recorded(r#"{"TrackLinks": "HtmlOnly"}"#),
            200,
            recorded("[1]")
        ),
        vec![]
    );
    // On the wire, JSON sent as a JSON string is a string.
    let wire = |text: &str| Some(Body::Text(text.to_string()));
    assert_eq!(
        run(
            "POST",
            "/things",
            wire(r#""{\"id\": 1}""#),
            201,
            wire("[1]")
        ),
        one(Part::Request, "type", "")
    );
}

/// OpenAPI 3.0's callbacks are the notifications of a spec without `webhooks`: a delivery to
/// the URL the caller gave is judged by its callback's payload schema, found by its payload
/// (the URL is the caller's own), a referenced callback included.
#[test]
fn a_callback_delivery_is_judged_as_its_callback() {
    let spec = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../generator/tests/fixtures/callbacks.yaml");
    let contract = Contract::from_spec(&spec).expect("the fixture makes a contract");
    let deliver = |method: &str, payload: &str| {
        let mut exchange = media_exchange(
            method,
            "/hooks/whatever",
            Some(("application/json", payload)),
            200,
            None,
        );
        exchange.kind = Some(ExchangeKind::Notification);
        let outcome = check(&contract, &exchange, CheckOptions::default());
        (outcome.operation.clone(), found(&outcome))
    };
    let hook = |id: &str| Some(id.to_string());
    assert_eq!(
        deliver("POST", r#"{"kind": "created"}"#),
        (hook("createSubscription-onEvent"), vec![])
    );
    assert_eq!(
        deliver("POST", r#"{"job": "j1", "state": "done"}"#),
        (hook("startJob-onEvent"), vec![])
    );
    assert_eq!(
        deliver("PUT", r#"{"percent": 50}"#),
        (hook("startJob-onEvent"), vec![])
    );
    assert_eq!(
        deliver("PUT", r#"{"percent": 150}"#),
        (
            hook("startJob-onEvent"),
            one(Part::Notification, "maximum", "/percent")
        )
    );
    // Two callbacks take POST: a payload neither keeps is not pinned on one of them.
    let (_, findings) = deliver("POST", r#"{"kind": "updated"}"#);
    assert_eq!(findings.len(), 1, "{findings:?}");
}

/// A header's list may come on several lines (RFC 9110, 5.3), as recordings and `http`'s
/// header maps keep them: every line is part of the list, so an item on the second line is
/// judged too, in a request's header parameter and in a documented response header.
#[test]
fn a_header_list_on_several_lines_is_judged_whole() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Lines, version: "1"}
paths:
  /things:
    get:
      operationId: listThings
      parameters:
        - {name: X-Ids, in: header, schema: {type: array, items: {type: integer}}}
      responses:
        '204':
          description: ok
          headers:
            X-Codes: {schema: {type: array, items: {type: string, enum: [a, b]}}}
"#,
    );
    let run = |sent: &[&str], answered: &[&str]| {
        let lines = |name: &str, values: &[&str]| -> Vec<(String, String)> {
            values
                .iter()
                .map(|value| (name.to_string(), value.to_string()))
                .collect()
        };
        let exchange = Exchange {
            index: 0,
            line: None,
            id: None,
            source: "lines.jsonl".into(),
            kind: None,
            request: Request {
                method: "GET".into(),
                path: "/things".into(),
                headers: lines("X-Ids", sent),
                ..Request::default()
            },
            response: Some(Response {
                status: 204,
                headers: lines("x-codes", answered),
                body: None,
                mime_type: None,
            }),
            failure: None,
        };
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    assert_eq!(run(&["1, 2", "3"], &["a", "b, a"]), vec![]);
    assert_eq!(
        run(&["1, 2", "x"], &["a"]),
        one(Part::Request, "type", "header:X-Ids")
    );
    assert_eq!(
        run(&["1"], &["a", "c"]),
        one(Part::Response, "enum", "header:x-codes")
    );
}

/// A body documented as `text/plain` is a string, whatever it looks like: `true`, `42` or
/// `{"a": 1}` sent as text are words, not JSON, and its schema's `maxLength`, `pattern` and
/// `enum` judge the words, in a request and in a response alike. A text schema whose type is
/// not a string (an integer) takes the words as the number they read as. XML and binary
/// bodies are judged by their media type only.
#[test]
fn a_text_body_is_judged_as_the_string_it_is() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Text, version: "1"}
paths:
  /notes:
    put:
      operationId: putNote
      requestBody:
        required: true
        content: {text/plain: {schema: {type: string, maxLength: 10}}}
      responses:
        '200': {description: ok, content: {text/plain: {schema: {type: string, enum: [saved, "true", "{}"]}}}}
  /count:
    get:
      operationId: getCount
      responses:
        '200': {description: ok, content: {text/plain: {schema: {type: integer, minimum: 0}}}}
  /feed:
    get:
      operationId: getFeed
      responses:
        '200': {description: ok, content: {application/xml: {schema: {type: object, required: [item]}}}}
"#,
    );
    let note = |sent: &str, answer: &str| {
        found(&check(
            &contract,
            &media_exchange(
                "PUT",
                "/notes",
                Some(("text/plain; charset=utf-8", sent)),
                200,
                Some(("text/plain", answer)),
            ),
            CheckOptions::default(),
        ))
    };
    // Words that look like JSON are words.
    for (sent, answer) in [
        ("hello", "saved"),
        ("42", "true"),
        ("true", "{}"),
        ("{}", "saved"),
    ] {
        assert_eq!(note(sent, answer), vec![], "{sent} / {answer}");
    }
    assert_eq!(
        note("this note is far too long", "saved"),
        one(Part::Request, "maxLength", "")
    );
    assert_eq!(note("hi", "lost"), one(Part::Response, "enum", ""));
    assert_eq!(note("hi", "false"), one(Part::Response, "enum", ""));
    let get = |path: &str, media: &str, answer: &str| {
        found(&check(
            &contract,
            &media_exchange("GET", path, None, 200, Some((media, answer))),
            CheckOptions::default(),
        ))
    };
    assert_eq!(get("/count", "text/plain", "42"), vec![]);
    assert_eq!(
        get("/count", "text/plain", "-1"),
        one(Part::Response, "minimum", "")
    );
    assert_eq!(
        get("/count", "text/plain", "many"),
        one(Part::Response, "type", "")
    );
    // Not read as JSON, and no schema reads XML: only its media type is judged.
    assert_eq!(get("/feed", "application/xml", "<feed/>"), vec![]);
    assert_eq!(get("/feed", "application/xml", "{}"), vec![]);
    assert_eq!(
        get("/feed", "text/html", "<feed/>"),
        one(Part::Response, "content-type", "header:content-type")
    );
}

/// Vendors' specs break OpenAPI's rule that each `{name}` of a template has a path parameter
/// and each path parameter its `{name}`. Requests are judged where they can carry each value:
/// a variable without a parameter is any string, a parameter the template names in its query
/// (weatherbit's `/alerts?lat={lat}`, declared `in: path`) is that query parameter, and one
/// the template has no place for is not asked of any request.
#[test]
fn path_parameters_that_disagree_with_their_template_are_judged_where_requests_carry_them() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Slips, version: "1"}
paths:
  /users/{userId}/items/{itemId}:
    parameters: [{name: userId, in: path, required: true, schema: {type: integer}}]
    get:
      operationId: getItem
      parameters: [{name: team, in: path, required: true, schema: {type: integer}}]
      responses:
        '204': {description: ok}
  /alerts?lat={lat}&lon={lon}:
    get:
      operationId: getAlerts
      parameters:
        - {name: lat, in: path, required: true, schema: {type: number}}
        - {name: lon, in: path, required: true, schema: {type: number}}
      responses:
        '204': {description: ok}
"#,
    );
    let run = |path: &str, query: &[(&str, &str)]| {
        let mut exchange = media_exchange("GET", path, None, 204, None);
        exchange.request.query = query
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let outcome = check(&contract, &exchange, CheckOptions::default());
        (outcome.operation.clone(), found(&outcome))
    };
    assert_eq!(
        run("/users/7/items/abc", &[]),
        (Some("getItem".into()), vec![])
    );
    assert_eq!(
        run("/users/x/items/abc", &[]).1,
        one(Part::Request, "type", "path:userId")
    );
    assert_eq!(
        run("/alerts", &[("lat", "1.5"), ("lon", "-2")]),
        (Some("getAlerts".into()), vec![])
    );
    assert_eq!(
        run("/alerts", &[("lat", "north"), ("lon", "2")]).1,
        one(Part::Request, "type", "query:lat")
    );
}

/// Operations that share a method and path on the wire, told apart in their templates as
/// real specs do: by a query (`/search?type=user`), by a fragment naming a query parameter or
/// header (AWS's `/#Action=AddTags`, `/#X-Amz-Target=Glue.GetJob`), or by a bare fragment
/// and their bodies alone (Box's `/files/{file_id}#add_shared_link`). Each exchange is judged
/// by the operation it is for; before, none of the first two kinds matched any operation.
#[test]
fn operations_told_apart_in_their_templates_are_matched_by_the_request() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Appended, version: "1"}
paths:
  /search?type=user:
    get:
      operationId: searchUsers
      responses:
        '200': {description: ok, content: {application/json: {schema: {properties: {users: {type: array, items: {type: string}}}}}}}
  /search?type=repo:
    get:
      operationId: searchRepos
      responses:
        '200': {description: ok, content: {application/json: {schema: {properties: {repos: {type: array, items: {type: integer}}}}}}}
  /#Action=AddTags:
    post:
      operationId: AddTags
      responses:
        '200': {description: ok, content: {application/json: {schema: {required: [tagged], properties: {tagged: {type: boolean}}}}}}
  /#X-Amz-Target=Glue.GetJob:
    post:
      operationId: GetJob
      responses:
        '200': {description: ok, content: {application/json: {schema: {required: [job], properties: {job: {type: string}}}}}}
  /files/{file_id}:
    put:
      operationId: updateFile
      parameters: [{name: file_id, in: path, required: true, schema: {type: integer}}]
      requestBody:
        content: {application/json: {schema: {type: object, additionalProperties: false, properties: {name: {type: string}}}}}
      responses:
        '200': {description: ok}
  /files/{file_id}#add_shared_link:
    put:
      operationId: addSharedLink
      parameters: [{name: file_id, in: path, required: true, schema: {type: integer}}]
      requestBody:
        content: {application/json: {schema: {type: object, required: [shared_link], properties: {shared_link: {type: object}}}}}
      responses:
        '200': {description: ok}
  /{Bucket}/{Key}#restore:
    post:
      operationId: RestoreObject
      parameters:
        - {name: Bucket, in: path, required: true, schema: {type: string}}
        - {name: Key, in: path, required: true, schema: {type: string}}
        - {name: restore, in: query, required: true, allowEmptyValue: true, schema: {type: boolean, enum: [true]}}
      responses:
        '200': {description: ok}
  /{Bucket}/{Key}:
    put:
      operationId: PutObject
      parameters:
        - {name: Bucket, in: path, required: true, schema: {type: string}}
        - {name: Key, in: path, required: true, schema: {type: string}}
      responses:
        '200': {description: ok}
  /{Bucket}/{Key}#select&select-type=2:
    post:
      operationId: SelectObjectContent
      parameters:
        - {name: Bucket, in: path, required: true, schema: {type: string}}
        - {name: Key, in: path, required: true, schema: {type: string}}
        - {name: select, in: query, required: true, allowEmptyValue: true, schema: {type: boolean, enum: [true]}}
        - {name: select-type, in: query, required: true, schema: {type: string, enum: ['2']}}
      responses:
        '200': {description: ok}
  /{Bucket}/{Key}#x-amz-copy-source:
    put:
      operationId: CopyObject
      parameters:
        - {name: Bucket, in: path, required: true, schema: {type: string}}
        - {name: Key, in: path, required: true, schema: {type: string}}
        - {name: x-amz-copy-source, in: header, required: true, schema: {type: string, pattern: '\/.+\/.+'}}
      responses:
        '200': {description: ok}
  /{Bucket}/{Key}#partNumber&uploadId:
    put:
      operationId: UploadPart
      parameters:
        - {name: Bucket, in: path, required: true, schema: {type: string}}
        - {name: Key, in: path, required: true, schema: {type: string}}
        - {name: partNumber, in: query, required: true, schema: {type: integer}}
        - {name: uploadId, in: query, required: true, schema: {type: string}}
      responses:
        '200': {description: ok}
  /v1/{name}:
    get:
      operationId: getSecret
      parameters: [{name: name, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: ok}
  /v1/{name}:access:
    get:
      operationId: accessSecret
      parameters: [{name: name, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: ok}
"#,
    );
    let run = |method: &str,
               path: &str,
               query: &[(&str, &str)],
               header: Option<(&str, &str)>,
               request: Option<serde_json::Value>,
               response: serde_json::Value| {
        let mut exchange = media_exchange(method, path, None, 200, None);
        exchange.request.query = query
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        exchange
            .request
            .headers
            .extend(header.map(|(k, v)| (k.into(), v.into())));
        if let Some(body) = request {
            exchange
                .request
                .headers
                .push(("Content-Type".into(), "application/json".into()));
            exchange.request.body = Some(Body::Json(body));
        }
        let reply = exchange.response.as_mut().unwrap();
        if !response.is_null() {
            reply.headers = vec![("Content-Type".into(), "application/json".into())];
            reply.body = Some(Body::Json(response));
        }
        let outcome = check(&contract, &exchange, CheckOptions::default());
        (outcome.operation.clone(), found(&outcome))
    };
    let users = [("type", "user"), ("q", "x")];
    let repos = [("type", "repo")];
    let none = serde_json::Value::Null;
    // The query the template names picks the operation, whose own rules judge the body.
    assert_eq!(
        run(
            "GET",
            "/search",
            &users,
            None,
            None,
            json!({"users": ["a"]})
        ),
        (Some("searchUsers".into()), vec![])
    );
    assert_eq!(
        run("GET", "/search", &repos, None, None, json!({"repos": [1]})),
        (Some("searchRepos".into()), vec![])
    );
    assert_eq!(
        run(
            "GET",
            "/search",
            &repos,
            None,
            None,
            json!({"repos": ["x"]})
        )
        .1,
        one(Part::Response, "type", "/repos/0")
    );
    assert_eq!(
        run("GET", "/search", &users, None, None, json!({"users": [1]})).1,
        one(Part::Response, "type", "/users/0")
    );
    // A fragment naming a query parameter or a header, as AWS writes its actions.
    let action = [("Action", "AddTags")];
    assert_eq!(
        run("POST", "/", &action, None, None, json!({"tagged": true})),
        (Some("AddTags".into()), vec![])
    );
    let target = Some(("x-amz-target", "Glue.GetJob"));
    assert_eq!(
        run("POST", "/", &[], target, None, json!({"job": "j"})),
        (Some("GetJob".into()), vec![])
    );
    assert_eq!(
        run("POST", "/", &[], target, None, json!({"tagged": true})),
        (Some("GetJob".into()), one(Part::Response, "required", ""))
    );
    // Nothing but the body tells these apart: the exchange keeps the contract when it keeps
    // one of them, and is judged by the first when it keeps none.
    assert_eq!(
        run(
            "PUT",
            "/files/7",
            &[],
            None,
            Some(json!({"name": "a.txt"})),
            none.clone()
        ),
        (Some("updateFile".into()), vec![])
    );
    assert_eq!(
        run(
            "PUT",
            "/files/7",
            &[],
            None,
            Some(json!({"shared_link": {}})),
            none.clone()
        ),
        (Some("addSharedLink".into()), vec![])
    );
    let (operation, findings) = run("PUT", "/files/7", &[], None, Some(json!({"name": 5})), none);
    assert_eq!(operation, Some("updateFile".into()));
    assert_eq!(findings, one(Part::Request, "type", "/name"));
    // S3: a fragment's bare words name query parameters and headers of the operation, which
    // the request carries (`?select&select-type=2`, `x-amz-copy-source`, `?partNumber=…`),
    // so each request is judged by its own operation's rules; before, the first operation
    // on the path judged them all (`restore is required`), and broken copies and parts
    // passed as PutObject.
    let none = serde_json::Value::Null;
    let object = "/bkt/a.txt";
    let select = [("select", ""), ("select-type", "2")];
    assert_eq!(
        run("POST", object, &select, None, None, none.clone()),
        (Some("SelectObjectContent".into()), vec![])
    );
    assert_eq!(
        run("POST", object, &[("restore", "")], None, None, none.clone()),
        (Some("RestoreObject".into()), vec![])
    );
    let copy = Some(("x-amz-copy-source", "nosla"));
    assert_eq!(
        run("PUT", object, &[], copy, None, none.clone()),
        (
            Some("CopyObject".into()),
            one(Part::Request, "pattern", "header:x-amz-copy-source")
        )
    );
    let part = [("partNumber", "abc"), ("uploadId", "u1")];
    assert_eq!(
        run("PUT", object, &part, None, None, none.clone()),
        (
            Some("UploadPart".into()),
            one(Part::Request, "type", "query:partNumber")
        )
    );
    assert_eq!(
        run("PUT", object, &[], None, None, none.clone()),
        (Some("PutObject".into()), vec![])
    );
    // Meeting no operation's conditions, the request is judged by the one it came nearest,
    // whose rules say what is wrong (`select-type` is `2`), not by the first on the path.
    let wrong_type = [("select", ""), ("select-type", "3")];
    assert_eq!(
        run("POST", object, &wrong_type, None, None, none.clone()),
        (
            Some("SelectObjectContent".into()),
            one(Part::Request, "enum", "query:select-type")
        )
    );
    // An encoded `:` is data (RFC 3986, 2.2): `%3Aaccess` is part of the name, not the verb.
    assert_eq!(
        run("GET", "/v1/s%3Aaccess", &[], None, None, none.clone()).0,
        Some("getSecret".into())
    );
    assert_eq!(
        run("GET", "/v1/s:access", &[], None, None, none).0,
        Some("accessSecret".into())
    );
}

/// A query list whose items are objects (SQS's batch `Entries`) is read from the JSON its
/// texts hold, each item judged by the item schema; before, the text itself was judged as the
/// object, so no request kept the contract and the generated client's calls were refused.
#[test]
fn a_query_lists_object_items_are_read_from_their_json() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Batch, version: "1"}
paths:
  /batch:
    get:
      operationId: sendBatch
      parameters:
        - name: Entries
          in: query
          required: true
          schema:
            type: array
            items: {$ref: '#/components/schemas/Entry'}
      responses:
        "200": {description: ok}
components:
  schemas:
    Entry: {type: object, required: [Id], properties: {Id: {type: string}}}
"#,
    );
    let run = |query: &[(&str, &str)]| {
        let mut exchange = media_exchange("GET", "/batch", None, 200, None);
        exchange.request.query = query
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    assert_eq!(run(&[("Entries", r#"{"Id": "1"}"#)]), vec![]);
    assert_eq!(
        run(&[("Entries", r#"{"Id": "1"}"#), ("Entries", r#"{"Id": "2"}"#)]),
        vec![]
    );
    // An item that misses a required member, or is no object at all, is still refused.
    assert_eq!(
        run(&[
            ("Entries", r#"{"Id": "1"}"#),
            ("Entries", r#"{"Name": "x"}"#)
        ]),
        one(Part::Request, "required", "query:Entries")
    );
    assert_eq!(
        run(&[("Entries", "Id,1")]),
        one(Part::Request, "type", "query:Entries")
    );
}

/// `format: uri` takes a relative reference, as the vendor's own lists carry one; text that is
/// no URI reference is still a finding.
#[test]
fn a_uri_may_be_a_relative_reference() {
    let page = |uri: &str| {
        let mut exchange = vendor("GET", "/Pages.json", None, 200);
        answer_json(&mut exchange, json!({ "first_page_uri": uri }));
        found(&vendor_run(&exchange))
    };
    for uri in [
        "/2010-04-01/Accounts/AC1/Messages.json?PageSize=50&Page=0",
        "https://api.example.com/2010-04-01/Pages.json",
    ] {
        assert_eq!(page(uri), vec![], "{uri}");
    }
    assert_eq!(
        page("not a uri"),
        one(Part::Response, "format", "/first_page_uri")
    );
}

#[test]
fn a_multipart_body_is_not_read_as_json() {
    let upload = vendor_run(&vendor(
        "POST",
        "/Media.json",
        Some((
            "multipart/form-data; boundary=x",
            "--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n\r\nPNG\r\n--x--\r\n",
        )),
        201,
    ));
    assert_eq!(found(&upload), vec![]);
    let wrong_type = vendor_run(&vendor(
        "POST",
        "/Media.json",
        Some(("text/plain", "PNG")),
        201,
    ));
    assert_eq!(
        found(&wrong_type),
        one(Part::Request, "content-type", "header:content-type")
    );
    let missing = vendor_run(&vendor("POST", "/Media.json", None, 201));
    assert_eq!(found(&missing), one(Part::Request, "required", ""));
}

#[test]
fn an_operation_with_its_own_servers_is_matched_under_them_only() {
    let at = |path: &str, method: &str| {
        let mut exchange = vendor(method, "/", None, 201);
        exchange.request.path = path.to_string();
        vendor_run(&exchange)
    };
    let upload = at("/files/v1/uploads", "POST");
    assert_eq!(upload.operation.as_deref(), Some("createUpload"));
    assert_eq!(found(&upload), vec![]);
    // Not at the API's base path, and the API's operations are not at the upload server's.
    assert_eq!(
        found(&at("/2010-04-01/uploads", "POST")),
        one(Part::Entry, "operation-path", "")
    );
    assert_eq!(
        found(&at("/files/v1/Messages.json", "GET")),
        one(Part::Entry, "operation-path", "")
    );
}

#[test]
fn read_only_and_write_only_properties_are_required_one_way() {
    let exchange = |request: &str, response: &str| {
        let mut exchange = vendor("POST", "/pets", Some(("application/json", request)), 201);
        let answer = exchange.response.as_mut().unwrap();
        answer.headers = vec![("Content-Type".into(), "application/json".into())];
        answer.body = Some(Body::Text(response.into()));
        exchange
    };
    // A request leaves out what the server assigns (`id`, and `owner` through its `$ref`),
    // and a response leaves out what only a client sends (`secret`): OpenAPI's reading of
    // `required` beside `readOnly` and `writeOnly`.
    let clean = exchange(
        r#"{"name": "Rex", "secret": "s3"}"#,
        r#"{"id": "p1", "name": "Rex", "owner": "o1"}"#,
    );
    let outcome = vendor_run(&clean);
    assert_eq!(outcome.operation.as_deref(), Some("createPet"));
    assert_eq!(found(&outcome), vec![]);
    // The same live check agrees.
    assert_eq!(
        specval::check::findings_of(vendor_contract(), &clean, CheckOptions::default()),
        vec![]
    );
    // Each side still requires the rest.
    let missing = exchange(r#"{"name": "Rex"}"#, r#"{"name": "Rex", "owner": "o1"}"#);
    assert_eq!(
        found(&vendor_run(&missing)),
        vec![
            (Part::Request, "required".to_string(), String::new()),
            (Part::Response, "required".to_string(), String::new()),
        ]
    );
}

/// OpenAPI 3.0's way to say "a server-assigned reference that may be null": `nullable` and
/// `readOnly` beside a one-part `allOf`. Becoming `anyOf: [<it>, {type: null}]` must not hide
/// the direction from `required`, nor move an `example: null` where null is refused.
#[test]
fn a_nullable_read_only_reference_in_3_0_is_left_out_of_requests() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Pets, version: "1"}
paths:
  /pets:
    post:
      responses:
        '201':
          content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}
          description: the pet as kept, with its owner if it has one
      requestBody:
        content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}
        required: true
components:
  schemas:
    Owner: {type: object, properties: {name: {type: string}}}
    Pet:
      type: object
      required: [name, owner]
      properties:
        name: {type: string}
        owner:
          nullable: true
          readOnly: true
          example: null
          allOf: [{$ref: '#/components/schemas/Owner'}]
"#,
    );
    let run = |request: serde_json::Value, response: serde_json::Value| {
        let mut exchange = media_exchange(
            "POST",
            "/pets",
            Some(("application/json", &request.to_string())),
            201,
            None,
        );
        answer_json(&mut exchange, response);
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    assert_eq!(
        run(
            json!({"name": "Rex"}),
            json!({"name": "Rex", "owner": null})
        ),
        vec![]
    );
    assert_eq!(
        run(
            json!({"name": "Rex"}),
            json!({"name": "Rex", "owner": {"name": "Ann"}})
        ),
        vec![]
    );
    // A response still has to carry it, and a request may not name it wrongly.
    assert_eq!(
        run(json!({"name": "Rex"}), json!({"name": "Rex"})),
        one(Part::Response, "required", "")
    );
    assert_eq!(
        run(
            json!({"name": "Rex", "owner": 3}),
            json!({"name": "Rex", "owner": null})
        ),
        one(Part::Request, "type", "/owner")
    );
}

/// An `http` security scheme names the scheme its `Authorization` value is in: a `Bearer`
/// token where the operation takes `Basic` presents no credential, so a 200 answer to it is
/// the server letting in a request without one. OAuth 2 asks for a token in any scheme.
#[test]
fn an_http_credential_is_presented_in_its_own_scheme() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Schemes, version: "1"}
paths:
  /basic:
    get:
      security: [{basic: []}]
      responses: {'200': {description: ok}, '401': {description: who?}}
  /either:
    get:
      security: [{basic: []}, {token: []}]
      responses: {'200': {description: ok}, '401': {description: who?}}
  /oauth:
    get:
      security: [{oauth: [read]}]
      responses: {'200': {description: ok}, '401': {description: who?}}
components:
  securitySchemes:
    basic: {type: http, scheme: Basic}
    token: {type: http, scheme: bearer, bearerFormat: JWT}
    oauth:
      type: oauth2
      flows: {clientCredentials: {tokenUrl: 'https://example.com/token', scopes: {read: read}}}
"#,
    );
    let run = |path: &str, authorization: Option<&str>, status: u16| {
        let mut exchange = media_exchange("GET", path, None, status, None);
        if let Some(value) = authorization {
            exchange.request.headers = vec![("Authorization".into(), value.into())];
        }
        check(&contract, &exchange, CheckOptions::default())
    };
    for (path, authorization) in [
        ("/basic", "Basic dXNlcjpwdw=="),
        ("/basic", "basic dXNlcjpwdw=="),
        ("/either", "Bearer eyJhbGciOi.e30.sig"),
        ("/either", "Basic dXNlcjpwdw=="),
        ("/oauth", "Bearer t0k3n-value"),
        ("/oauth", "token t0k3n-value"),
    ] {
        assert_eq!(
            found(&run(path, Some(authorization), 200)),
            vec![],
            "{path} {authorization}"
        );
    }
    // Another scheme, or the scheme word alone, is no credential: answered 401 it keeps
    // the contract, answered 200 it does not, and the message names the scheme without
    // quoting what was sent.
    // A Basic token that is not the base64 of `user:password` (RFC 7617) is none either.
    for (path, authorization) in [
        ("/basic", "Bearer eyJhbGciOi.e30.sig"),
        ("/basic", "Basic "),
        ("/basic", "Basic !!!notbase64"),
        ("/basic", "Basic dXNlcg=="),
    ] {
        assert_eq!(
            found(&run(path, Some(authorization), 401)),
            vec![],
            "{authorization}"
        );
        let outcome = run(path, Some(authorization), 200);
        assert_eq!(
            found(&outcome),
            one(Part::Response, "credentials", ""),
            "{authorization}"
        );
        let message = &outcome.findings[0].message;
        assert!(!message.contains("eyJ"), "{message}");
        // What was sent is a credential value, redacted wherever it stands: "Basic " too.
        if authorization.starts_with("Bearer") {
            assert!(
                message.contains("authorization in the Basic scheme"),
                "{message}"
            );
        }
        // The Basic word with a value that is no base64 of user:password is said to be that,
        // not "another scheme".
        if authorization.len() > "Basic ".len() && authorization.starts_with("Basic") {
            assert!(
                message.contains(
                    "named the Basic scheme, with a value it cannot carry (the base64 of a \
                     name, a colon and a password)"
                ) && !message.contains("another scheme"),
                "{message}"
            );
        }
    }
    // OAuth takes a token in any scheme, but a scheme's word alone is no token (RFC 6750),
    // IANA's (`DPoP`, `Negotiate`) or another.
    for word in ["Bearer ", "DPoP", "negotiate"] {
        assert_eq!(found(&run("/oauth", Some(word), 401)), vec![], "{word}");
        assert_eq!(
            found(&run("/oauth", Some(word), 200)),
            one(Part::Response, "credentials", ""),
            "{word}"
        );
    }
    assert_eq!(found(&run("/oauth", Some("DPoP eyJ.x.y"), 200)), vec![]);
}

/// Messages a reader can act on: `additionalProperties: false` beside no `properties` (the
/// members declared only in a `oneOf` beside it, as PeerTube writes) names the members it
/// refuses, and text sent as `text/plain` where JSON is documented is one finding, its media
/// type, not also a second that it does not parse as JSON.
#[test]
fn a_closed_object_without_properties_and_a_text_body_say_what_is_wrong_once() {
    let contract = one_body_contract(
        "/imports",
        r#"
              type: object
              additionalProperties: false
              oneOf:
                - {properties: {targetUrl: {type: string}}, required: [targetUrl]}
                - {properties: {magnetUri: {type: string}}, required: [magnetUri]}"#,
    );
    let run = |media: &str, body: &str| {
        let exchange = media_exchange("POST", "/imports", Some((media, body)), 204, None);
        check(&contract, &exchange, CheckOptions::default())
    };
    let closed = run(
        "application/json",
        r#"{"targetUrl": "https://x", "name": "n"}"#,
    );
    assert_eq!(
        found(&closed),
        one(Part::Request, "additionalProperties", "")
    );
    let message = &closed.findings[0].message;
    assert!(
        message.contains("'targetUrl', 'name' were unexpected"),
        "{message}"
    );
    assert_eq!(
        found(&run("text/plain", "https://x")),
        one(Part::Request, "content-type", "header:content-type")
    );
    // Sent as JSON, text that is not JSON is that finding.
    assert_eq!(
        found(&run("application/json", "https://x")),
        one(Part::Request, "json", "")
    );
    assert!(
        run("application/json", "https://x").findings[0]
            .message
            .starts_with("the body is not JSON: "),
    );
    // JSON holding a number no double holds is told as such.
    let huge = run("application/json", r#"{"targetUrl": 1e400}"#);
    assert_eq!(found(&huge), one(Part::Request, "json", ""));
    let message = &huge.findings[0].message;
    assert!(
        message.starts_with(
            "the body holds a number beyond what a double can hold: number out of range"
        ),
        "{message}"
    );
}

/// A surrogate escape without its other half (`"\ud800"`) is named for what it is, not in
/// serde_json's words, which say a hex escape ended or call a trailing half leading.
#[test]
fn a_lone_surrogate_escape_is_named() {
    let contract = one_body_contract("/imports", " {type: object}");
    for body in [r#"{"a": "x\ud800 y"}"#, r#"{"a": "x\udc00"}"#] {
        let exchange = media_exchange(
            "POST",
            "/imports",
            Some(("application/json", body)),
            204,
            None,
        );
        let outcome = check(&contract, &exchange, CheckOptions::default());
        assert_eq!(found(&outcome), one(Part::Request, "json", ""), "{body}");
        let message = &outcome.findings[0].message;
        assert!(
            message.starts_with("the body holds a lone UTF-16 surrogate escape")
                && message.contains("at line 1 column"),
            "{message}"
        );
    }
}

/// Content-Type is one value: two different ones on two lines break the contract whichever
/// comes first, as the same two on one line do; the same type twice is one.
#[test]
fn two_content_types_are_refused_in_either_order() {
    let with_types = |types: &[&str]| {
        let mut exchange = exchange(
            "GET",
            &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
            None,
            200,
            Some(account()),
        );
        let response = exchange.response.as_mut().unwrap();
        response.headers = types
            .iter()
            .map(|media| ("Content-Type".to_string(), media.to_string()))
            .collect();
        run(&exchange)
    };
    let refused = one(Part::Response, "content-type", "header:content-type");
    assert_eq!(
        found(&with_types(&["application/json", "text/html"])),
        refused
    );
    assert_eq!(
        found(&with_types(&["text/html", "application/json"])),
        refused
    );
    assert_eq!(
        found(&with_types(&["application/json, text/html"])),
        refused
    );
    let message = &with_types(&["application/json", "text/html"]).findings[0].message;
    assert!(
        message.contains("not several media types (application/json, text/html)"),
        "{message}"
    );
    assert!(
        with_types(&["application/json", "application/json; charset=utf-8"])
            .findings
            .is_empty()
    );
    assert!(with_types(&["application/json"]).findings.is_empty());
}

// Media types and server URLs as real specs write them: several media types for one body
// (XML beside JSON, a file as bytes or text), springdoc's `*/*`, parameters in the media
// type key, and a server variable that stands for several path segments.

const MEDIA_SPEC: &str = r##"
openapi: 3.0.3
info: {title: Media, version: "1"}
servers:
  - url: "https://{region}.example.com/{basePath}"
    variables:
      region: {default: eu, enum: [eu, us]}
      basePath: {default: api/v2, enum: [api/v2, api/v2-beta]}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200':
          description: ok
          content: {"*/*": {schema: {type: array, items: {$ref: '#/components/schemas/Pet'}}}}
    post:
      operationId: createPet
      requestBody:
        required: true
        content:
          "application/json;charset=UTF-8": {schema: {$ref: '#/components/schemas/Pet'}}
          application/xml: {schema: {$ref: '#/components/schemas/Pet'}}
      responses:
        '201':
          description: created
          content: {"application/json;charset=UTF-8": {schema: {$ref: '#/components/schemas/Pet'}}}
  /search:
    get:
      operationId: search
      parameters:
        - {name: filter, in: query, required: true, style: deepObject, schema: {$ref: '#/components/schemas/Filter'}}
        - {name: page, in: query, required: true, schema: {type: object, properties: {size: {type: integer}, number: {type: integer}}}}
        - {name: at, in: query, explode: false, schema: {type: object, properties: {lat: {type: number}, long: {type: number}}}}
        - {name: where, in: query, content: {application/json: {schema: {type: object, properties: {n: {type: integer}}}}}}
      responses: {'200': {description: ok}}
  /limits:
    get:
      operationId: getLimits
      responses:
        '200':
          description: ok
          headers:
            X-Rate-Limit: {required: true, schema: {type: integer, minimum: 0}}
            X-Tags: {schema: {type: array, items: {type: string, enum: [a, b]}}}
            Content-Type: {required: true, schema: {type: string, enum: [never]}}
  /animals:
    get:
      operationId: listAnimals
      responses:
        '200':
          description: ok
          content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Animal'}}}}
  /zoo:
    get:
      operationId: listZoo
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: array
                items:
                  anyOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]
                  discriminator: {propertyName: kind, mapping: {cat: '#/components/schemas/Cat'}}
  /rules:
    get:
      operationId: listRules
      responses:
        '200':
          description: ok
          content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Rule'}}}}
  /files/{name}:
    get:
      operationId: getFile
      parameters: [{name: name, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: the file
          content:
            application/octet-stream: {schema: {type: string, format: binary}}
            text/plain: {schema: {type: string}}
  /problems:
    get:
      operationId: getProblem
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
        '400': {description: bad, content: {application/problem+json: {schema: {$ref: '#/components/schemas/Pet'}}}}
        '409':
          description: either
          content:
            application/json: {schema: {$ref: '#/components/schemas/Pet'}}
            application/problem+json: {schema: {$ref: '#/components/schemas/Pet'}}
  /uploads:
    post:
      operationId: upload
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [attributes, file]
              properties:
                attributes: {$ref: '#/components/schemas/Pet'}
                file: {type: string, format: binary}
                retries: {type: integer, maximum: 5}
                tags: {type: array, items: {type: string, enum: [a, b]}}
      responses: {'201': {description: uploaded}}
components:
  schemas:
    Pet: {type: object, required: [name], properties: {name: {type: string}}}
    Filter: {type: object, properties: {name: {type: string}, age: {type: integer}}}
    Animal:
      oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]
      discriminator: {propertyName: kind, mapping: {cat: '#/components/schemas/Cat'}}
    Cat: {type: object, required: [kind], properties: {kind: {type: string}, name: {type: string}}}
    Dog: {type: object, required: [kind], properties: {kind: {type: string}, barks: {type: boolean}}}
    Rule:
      type: object
      required: [kind]
      properties: {kind: {type: string}}
      additionalProperties: {type: object}
      discriminator: {propertyName: kind}
    NatRule:
      x-ms-discriminator-value: nat
      allOf:
        - $ref: '#/components/schemas/Rule'
        - {properties: {port: {type: string}}, additionalProperties: false}
    FilterRule:
      allOf:
        - $ref: '#/components/schemas/Rule'
        - {required: [action], properties: {kind: {const: filter}, action: {type: string}}}
"##;

fn media_contract() -> &'static Contract {
    static CONTRACT: std::sync::OnceLock<Contract> = std::sync::OnceLock::new();
    CONTRACT.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let spec = dir.path().join("media.yaml");
        std::fs::write(&spec, MEDIA_SPEC).unwrap();
        Contract::from_spec(&spec).expect("the media spec makes a contract")
    })
}

/// An exchange with `path` (from `/`), bodies as `(content type, text)`.
fn media_exchange(
    method: &str,
    path: &str,
    request: Option<(&str, &str)>,
    status: u16,
    response: Option<(&str, &str)>,
) -> Exchange {
    let headers = |body: Option<(&str, &str)>| -> Vec<(String, String)> {
        body.map(|(media, _)| vec![("Content-Type".to_string(), media.to_string())])
            .unwrap_or_default()
    };
    Exchange {
        index: 0,
        line: None,
        id: None,
        source: "media.jsonl".into(),
        kind: None,
        request: Request {
            method: method.into(),
            path: path.into(),
            headers: headers(request),
            body: request.map(|(_, text)| Body::Text(text.into())),
            ..Request::default()
        },
        response: Some(Response {
            status,
            headers: headers(response),
            body: response.map(|(_, text)| Body::Text(text.into())),
            mime_type: None,
        }),
        failure: None,
    }
}

/// Makes the exchange's response a JSON body.
fn answer_json(exchange: &mut Exchange, body: serde_json::Value) {
    let response = exchange
        .response
        .as_mut()
        .expect("the exchange has a response");
    response.headers = vec![("Content-Type".into(), "application/json".into())];
    response.body = Some(Body::Json(body));
}

fn media_run(exchange: &Exchange) -> Outcome {
    check(media_contract(), exchange, CheckOptions::default())
}

#[test]
fn a_server_variable_may_stand_for_several_segments() {
    for path in ["/api/v2/pets", "/api/v2-beta/pets"] {
        let outcome = media_run(&media_exchange(
            "GET",
            path,
            None,
            200,
            Some(("application/json", "[]")),
        ));
        assert_eq!(outcome.operation.as_deref(), Some("listPets"), "{path}");
        assert_eq!(found(&outcome), vec![], "{path}");
    }
    // A variable with an `enum` stands for those values alone: another version, or another
    // word in its place, is not under the API's base path.
    for path in ["/api/v3/pets", "/gateway/pets", "/v2/pets"] {
        let elsewhere = media_run(&media_exchange("GET", path, None, 200, None));
        assert_eq!(
            found(&elsewhere),
            one(Part::Entry, "operation-path", ""),
            "{path}"
        );
    }
}

/// A path variable without an `enum` stands for any one segment (and for its default, which
/// may span several).
#[test]
fn a_server_variable_without_an_enum_stands_for_any_segment() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Free, version: "1"}
servers:
  - url: "https://api.example.com/{tenant}"
    variables:
      tenant: {default: acme/eu}
paths:
  /pets:
    get:
      operationId: listPets
      responses: {'200': {description: ok}}
"#,
    );
    for path in ["/acme/eu/pets", "/globex/pets"] {
        let outcome = check(
            &contract,
            &media_exchange("GET", path, None, 200, None),
            CheckOptions::default(),
        );
        assert_eq!(outcome.operation.as_deref(), Some("listPets"), "{path}");
        assert_eq!(found(&outcome), vec![], "{path}");
    }
}

/// Form fields documented with brackets in their names (`template[name]`, as Rails-style APIs
/// write them) are those properties, sent as a form or as parts, and not nested objects
/// whose members would be reported missing.
#[test]
fn bracketed_field_names_the_schema_declares_are_read_as_written() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Brackets, version: "1"}
paths:
  /templates:
    post:
      operationId: createTemplate
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: ["template[document]", "template[name]"]
              properties:
                "template[document]": {type: string, format: binary}
                "template[name]": {type: string, maxLength: 10}
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: ["template[name]"]
              properties:
                "template[name]": {type: string, maxLength: 10}
      responses: {'201': {description: made}}
"#,
    );
    let multipart = |name: &str| {
        format!(
            "--XyZ\r\nContent-Disposition: form-data; name=\"template[name]\"\r\n\r\n{name}\r\n\
             --XyZ\r\nContent-Disposition: form-data; name=\"template[document]\"; \
             filename=\"inv.pdf\"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\r\n--XyZ--\r\n"
        )
    };
    let run = |media: &str, body: &str| {
        let exchange = media_exchange("POST", "/templates", Some((media, body)), 201, None);
        check(&contract, &exchange, CheckOptions::default())
    };
    let parts = "multipart/form-data; boundary=XyZ";
    let form = "application/x-www-form-urlencoded";
    assert_eq!(found(&run(parts, &multipart("Invoice"))), vec![]);
    assert_eq!(found(&run(form, "template%5Bname%5D=Invoice")), vec![]);
    // Read as the property, the value is judged by its schema.
    assert_eq!(
        found(&run(parts, &multipart("A name far too long"))),
        one(Part::Request, "maxLength", "/template[name]")
    );
    assert_eq!(
        found(&run(form, "template[name]=A+name+far+too+long")),
        one(Part::Request, "maxLength", "/template[name]")
    );
}

/// Two JSON media types are two media types: `application/problem+json` where only
/// `application/json` is documented (Mailchimp's errors) is a `content-type` finding, and the
/// other way round; the body is still read as JSON against its schema. A message that
/// documents both takes either.
#[test]
fn another_json_media_type_than_the_documented_one_is_a_finding() {
    let get = |status: u16, media: &str, body: &str| {
        found(&media_run(&media_exchange(
            "GET",
            "/api/v2/problems",
            None,
            status,
            Some((media, body)),
        )))
    };
    let pet = r#"{"name": "Rex"}"#;
    let wrong_type = one(Part::Response, "content-type", "header:content-type");
    assert_eq!(get(200, "application/problem+json", pet), wrong_type);
    assert_eq!(get(400, "application/json", pet), wrong_type);
    assert_eq!(get(200, "application/json", pet), vec![]);
    assert_eq!(
        get(400, "application/problem+json; charset=utf-8", pet),
        vec![]
    );
    let mut both = get(200, "application/vnd.pets+json", "{}");
    both.sort();
    let mut expected = [
        one(Part::Response, "content-type", "header:content-type"),
        one(Part::Response, "required", ""),
    ]
    .concat();
    expected.sort();
    assert_eq!(both, expected, "the body is still checked as JSON");
    assert_eq!(get(409, "application/problem+json", pet), vec![]);
    assert_eq!(
        get(409, "application/problem+json", "{}"),
        one(Part::Response, "required", ""),
        "another documented JSON type is read with the schema"
    );
}

#[test]
fn every_documented_media_type_is_accepted_and_json_still_checked() {
    let pet = r#"{"name": "Rex"}"#;
    let clean = [
        // `*/*` admits JSON, checked by its schema, and anything else, unread.
        media_exchange(
            "GET",
            "/api/v2/pets",
            None,
            200,
            Some(("application/json", "[]")),
        ),
        media_exchange(
            "GET",
            "/api/v2/pets",
            None,
            200,
            Some(("text/csv", "name\nRex")),
        ),
        // A key with parameters, and a body sent with others.
        media_exchange(
            "POST",
            "/api/v2/pets",
            Some(("application/json; charset=utf-8", pet)),
            201,
            Some(("application/json;charset=UTF-8", pet)),
        ),
        // The XML the spec documents beside JSON: no schema reads it.
        media_exchange(
            "POST",
            "/api/v2/pets",
            Some(("application/xml", "<pet><name>Rex</name></pet>")),
            201,
            Some(("application/json", pet)),
        ),
        // Either documented media type of a file.
        media_exchange(
            "GET",
            "/api/v2/files/a",
            None,
            200,
            Some(("text/plain", "hi")),
        ),
        media_exchange(
            "GET",
            "/api/v2/files/a",
            None,
            200,
            Some(("application/octet-stream", "hi")),
        ),
    ];
    for exchange in &clean {
        assert_eq!(found(&media_run(exchange)), vec![], "{exchange:?}");
    }
    // What breaks the contract still does.
    let unnamed = media_run(&media_exchange(
        "GET",
        "/api/v2/pets",
        None,
        200,
        Some(("application/json", r#"[{"tag": "x"}]"#)),
    ));
    assert_eq!(found(&unnamed), one(Part::Response, "required", "/0"));
    let image = media_run(&media_exchange(
        "GET",
        "/api/v2/files/a",
        None,
        200,
        Some(("image/png", "PNG")),
    ));
    assert_eq!(
        found(&image),
        one(Part::Response, "content-type", "header:content-type")
    );
    assert!(
        image.findings[0]
            .message
            .contains("application/octet-stream or text/plain"),
        "{}",
        image.findings[0].message
    );
    let yaml = media_run(&media_exchange(
        "POST",
        "/api/v2/pets",
        Some(("application/yaml", "name: Rex")),
        201,
        Some(("application/json", pet)),
    ));
    assert!(
        found(&yaml).contains(&(
            Part::Request,
            "content-type".to_string(),
            "header:content-type".to_string()
        )),
        "{:?}",
        found(&yaml)
    );
    let xml_without_body = media_run(&media_exchange(
        "POST",
        "/api/v2/pets",
        Some(("application/xml", "")),
        201,
        Some(("application/json", pet)),
    ));
    assert_eq!(found(&xml_without_body), one(Part::Request, "required", ""));
}

/// Query parameters whose schema is an object travel as their members: `filter[age]=3`
/// (`deepObject`), `size=10&number=2` (form, exploded: the default), `at=lat,1.5,long,2.5`
/// (form, `explode: false`). Each member is parsed by its property's type and checked.
#[test]
fn an_object_parameter_is_read_from_its_members() {
    let search = |query: &str| {
        let mut exchange = media_exchange("GET", "/api/v2/search", None, 200, None);
        exchange.request.query = form_urlencoded::parse(query.as_bytes())
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        media_run(&exchange)
    };
    let clean = search("filter[name]=rex&filter[age]=3&size=10&number=2&at=lat,1.5,long,2.5");
    assert_eq!(clean.operation.as_deref(), Some("search"));
    assert_eq!(found(&clean), vec![]);
    let wrong = search("filter[age]=old&size=ten&at=lat,north");
    assert_eq!(
        found(&wrong),
        vec![
            (
                Part::Request,
                "type".to_string(),
                "query:filter/age".to_string()
            ),
            (
                Part::Request,
                "type".to_string(),
                "query:page/size".to_string()
            ),
            (
                Part::Request,
                "type".to_string(),
                "query:at/lat".to_string()
            ),
        ]
    );
    // A parameter written as JSON (`content` instead of a schema) is read as JSON.
    assert_eq!(
        found(&search(r#"filter[age]=1&size=1&where={"n": 2}"#)),
        vec![]
    );
    assert_eq!(
        found(&search(r#"filter[age]=1&size=1&where={"n": "two"}"#)),
        one(Part::Request, "type", "query:where")
    );
    let absent = search("q=1");
    assert_eq!(
        found(&absent),
        vec![
            (
                Part::Request,
                "required".to_string(),
                "query:filter".to_string()
            ),
            (
                Part::Request,
                "required".to_string(),
                "query:page".to_string()
            ),
        ]
    );
}

/// A discriminated `oneOf` whose alternatives overlap (a cat is also a valid dog: neither
/// forbids the other's members): the discriminator's value picks the alternative, as OpenAPI
/// says, where JSON Schema alone would find the value valid under both and refuse it.
#[test]
fn the_discriminator_picks_the_alternative() {
    let animals = |body: &str| {
        media_run(&media_exchange(
            "GET",
            "/api/v2/animals",
            None,
            200,
            Some(("application/json", body)),
        ))
    };
    let clean = animals(r#"[{"kind": "cat", "name": "Tom"}, {"kind": "Dog", "barks": true}]"#);
    assert_eq!(clean.operation.as_deref(), Some("listAnimals"));
    assert_eq!(found(&clean), vec![]);
    // The tag picks the dog, whose rules then apply; an unknown tag fits no alternative.
    assert_eq!(
        found(&animals(r#"[{"kind": "Dog", "barks": "loud"}]"#)),
        one(Part::Response, "oneOf", "/0")
    );
    assert_eq!(
        found(&animals(r#"[{"kind": "bird"}]"#)),
        one(Part::Response, "oneOf", "/0")
    );
}

/// An `anyOf` with a discriminator: a tag that names an alternative picks it, so a cat is
/// judged as a cat even where it would pass as a dog (which says nothing of `name`).
#[test]
fn the_discriminator_picks_among_any_of_alternatives() {
    let zoo = |body: &str| {
        found(&media_run(&media_exchange(
            "GET",
            "/api/v2/zoo",
            None,
            200,
            Some(("application/json", body)),
        )))
    };
    assert_eq!(
        zoo(r#"[{"kind": "cat", "name": "Tom"}, {"kind": "Dog", "barks": true}]"#),
        vec![]
    );
    assert_eq!(
        zoo(r#"[{"kind": "cat", "name": 5}]"#),
        one(Part::Response, "type", "/0/name")
    );
    // A tag that names no alternative (ExaVault tags with status codes) is left to the
    // `anyOf` as written: a dog, here.
    assert_eq!(zoo(r#"[{"kind": "bird", "name": 5}]"#), vec![]);
}

/// A discriminator on a base schema that subtypes extend with `allOf` (OpenAPI's
/// inheritance): the tag names the subtype whose rules apply, each subtype holds the members of
/// all its parts even where a part closes its own (`additionalProperties`), and a subtype's
/// members are documented, not drift.
#[test]
fn the_discriminator_of_a_base_picks_the_subtype() {
    let rules = |body: &str, options: CheckOptions| {
        check(
            media_contract(),
            &media_exchange(
                "GET",
                "/api/v2/rules",
                None,
                200,
                Some(("application/json", body)),
            ),
            options,
        )
    };
    let strict = CheckOptions {
        strict: true,
        ..CheckOptions::default()
    };
    let clean = rules(
        r#"[{"kind": "nat", "port": "80"}, {"kind": "filter", "action": "allow"},
            {"kind": "later", "extra": {}}]"#,
        strict,
    );
    assert_eq!(clean.operation.as_deref(), Some("listRules"));
    assert_eq!(found(&clean), vec![], "{:?}", clean.findings);
    let broken = |body: &str| found(&rules(body, CheckOptions::default()));
    // The filter's own rules: before, checked as a Rule only, both passed.
    assert_eq!(
        broken(r#"[{"kind": "filter"}]"#),
        one(Part::Response, "required", "/0")
    );
    assert_eq!(
        broken(r#"[{"kind": "filter", "action": 7}]"#),
        one(Part::Response, "type", "/0/action")
    );
    assert_eq!(
        broken(r#"[{"kind": "nat", "port": 80}]"#),
        one(Part::Response, "type", "/0/port")
    );
    // The nat rule is closed as a whole: `kind` and `port` are its members, `extra` is not.
    assert_eq!(
        broken(r#"[{"kind": "nat", "port": "80", "extra": {}}]"#),
        one(Part::Response, "unevaluatedProperties", "/0")
    );
    // An untagged value is a Rule as written, closed as it was.
    assert_eq!(
        broken(r#"[{"kind": "later", "extra": 1}]"#),
        one(Part::Response, "type", "/0/extra")
    );
}

/// A recording of a web client holds CORS preflights and HEAD requests: neither is a call the
/// spec documents, and neither breaks it. A HEAD is checked as the GET it stands for.
#[test]
fn preflights_pass_and_head_is_checked_as_get() {
    let mut preflight = media_exchange("OPTIONS", "/api/v2/pets", None, 204, None);
    preflight.request.headers = vec![
        ("Origin".into(), "https://app.example.com".into()),
        ("Access-Control-Request-Method".into(), "POST".into()),
    ];
    let outcome = media_run(&preflight);
    assert_eq!(found(&outcome), vec![]);
    // Without the preflight's header, OPTIONS is a method the path does not document.
    let mut options = preflight.clone();
    options.request.headers.clear();
    assert_eq!(
        found(&media_run(&options)),
        one(Part::Entry, "operation-method", "")
    );
    let head = media_run(&media_exchange("HEAD", "/api/v2/files/a", None, 200, None));
    assert_eq!(head.operation.as_deref(), Some("getFile"));
    assert_eq!(found(&head), vec![]);
    let undocumented = media_run(&media_exchange("HEAD", "/api/v2/files/a", None, 418, None));
    assert_eq!(
        found(&undocumented),
        one(Part::Response, "status-documented", "")
    );
}

/// A browser's HAR of a web client holds the page, its scripts, styles, images and fonts
/// beside the API calls. Where the API has no operation they are no calls of it: passed over
/// (counted apart), not findings. A call the client made itself (`Sec-Fetch-Dest: empty`, or
/// no browser header and an answer that is no page resource) to a path the API lacks is
/// still a finding, even when the server answered it with an HTML error page.
#[test]
fn a_web_pages_own_resources_are_not_calls_of_the_api() {
    let resource = |method: &str, path: &str, dest: Option<&str>, status: u16, media: &str| {
        let mut exchange = exchange(method, path, None, status, None);
        if let Some(dest) = dest {
            exchange
                .request
                .headers
                .push(("Sec-Fetch-Dest".into(), dest.into()));
        }
        exchange.response.as_mut().unwrap().headers = vec![("content-type".into(), media.into())];
        exchange.response.as_mut().unwrap().body = Some(Body::Text("x".into()));
        run(&exchange)
    };
    for (method, path, dest, status, media) in [
        (
            "GET",
            "/",
            Some("document"),
            200,
            "text/html; charset=utf-8",
        ),
        (
            "GET",
            "/static/app.js",
            Some("script"),
            200,
            "text/javascript",
        ),
        ("GET", "/static/app.css", None, 200, "text/css"),
        ("GET", "/fonts/a.woff2", None, 304, "font/woff2"),
        ("GET", "/v1/logo.svg", None, 200, "image/svg+xml"),
        ("HEAD", "/favicon.ico", Some("image"), 404, "text/html"),
    ] {
        let outcome = resource(method, path, dest, status, media);
        assert!(outcome.not_api, "{method} {path} is a page resource");
        assert_eq!(found(&outcome), vec![], "{method} {path}");
    }
    for (method, path, dest, status, media, rule) in [
        // The client's own calls.
        (
            "GET",
            "/v1/banking/acounts",
            Some("empty"),
            200,
            "text/html",
            "operation-path",
        ),
        (
            "GET",
            "/static/data",
            Some("empty"),
            200,
            "text/css",
            "operation-path",
        ),
        // A mistyped path answered with an HTML 404 page.
        (
            "GET",
            "/v1/banking/acounts",
            None,
            404,
            "text/html",
            "operation-path",
        ),
        // Not a fetch of a resource.
        (
            "POST",
            "/static/app.js",
            Some("script"),
            200,
            "text/javascript",
            "operation-path",
        ),
        // The API's own paths are judged whatever the answer.
        (
            "GET",
            &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
            Some("document"),
            200,
            "text/html",
            "content-type",
        ),
    ] {
        let outcome = resource(method, path, dest, status, media);
        assert!(!outcome.not_api, "{method} {path} is a call");
        assert!(
            found(&outcome).iter().any(|(_, r, _)| r == rule),
            "{method} {path}: {:?}",
            found(&outcome)
        );
    }
}

/// The headers a response documents: a required one must be there, and each value keeps its
/// schema (a list header item by item). `Content-Type` is left to the media type check, as
/// OpenAPI says.
#[test]
fn documented_response_headers_are_checked() {
    let limits = |headers: &[(&str, &str)]| {
        let mut exchange = media_exchange("GET", "/api/v2/limits", None, 200, None);
        exchange.response.as_mut().unwrap().headers = headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        media_run(&exchange)
    };
    let clean = limits(&[("x-rate-limit", "10"), ("X-Tags", "a, b")]);
    assert_eq!(clean.operation.as_deref(), Some("getLimits"));
    assert_eq!(found(&clean), vec![]);
    assert_eq!(
        found(&limits(&[("X-Tags", "a")])),
        one(Part::Response, "required", "header:x-rate-limit")
    );
    assert_eq!(
        found(&limits(&[("X-Rate-Limit", "-1"), ("X-Tags", "a,c")])),
        vec![
            (
                Part::Response,
                "minimum".to_string(),
                "header:x-rate-limit".to_string()
            ),
            (
                Part::Response,
                "enum".to_string(),
                "header:x-tags".to_string()
            ),
        ]
    );
}

// OpenAPI 3.1 `webhooks` of a vendor: no delivery path (each receiver registers its own URL).

const HOOKS_SPEC: &str = r##"
openapi: 3.1.0
info: {title: Hooks, version: "1"}
paths: {}
webhooks:
  petCreated:
    post:
      requestBody:
        required: true
        content: {application/json: {schema: {type: object, required: [event, pet], properties: {event: {const: pet.created}, pet: {type: object}}}}}
      responses: {'200': {description: ok}}
  petDeleted:
    post:
      requestBody:
        required: true
        content: {application/json: {schema: {type: object, required: [event, id], properties: {event: {const: pet.deleted}, id: {type: string}}}}}
      responses: {'204': {description: ok}}
"##;

/// Adyen's created and updated events share one schema, delivered to one URL: the payload's
/// `type` names the webhook it is, in the verdict and in coverage alike.
#[test]
fn a_notification_of_a_shared_schema_is_the_one_its_payload_names() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("adyen.yaml");
    std::fs::write(
        &spec,
        r##"
openapi: 3.1.0
info: {title: Transfers, version: "1"}
paths: {}
webhooks:
  balancePlatform.transfer.created:
    post:
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/Event'}}}
      responses: {'200': {description: ok}}
  balancePlatform.transfer.updated:
    post:
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/Event'}}}
      responses: {'200': {description: ok}}
components:
  schemas:
    Event:
      type: object
      required: [type, data]
      properties:
        type: {enum: [balancePlatform.transfer.created, balancePlatform.transfer.updated]}
        data: {type: object, properties: {amount: {type: integer}}}
"##,
    )
    .unwrap();
    let contract = Contract::from_spec(&spec).expect("a contract");
    let delivery = |payload: &str| {
        let mut exchange = media_exchange(
            "POST",
            "/webhooks/adyen",
            Some(("application/json", payload)),
            200,
            None,
        );
        exchange.kind = Some(ExchangeKind::Notification);
        check(&contract, &exchange, CheckOptions::default())
    };
    for event in ["created", "updated"] {
        let name = format!("balancePlatform.transfer.{event}");
        let kept = delivery(&format!(r#"{{"type": "{name}", "data": {{"amount": 1}}}}"#));
        assert_eq!(kept.operation.as_deref(), Some(name.as_str()));
        assert_eq!(found(&kept), vec![]);
        let broken = delivery(&format!(
            r#"{{"type": "{name}", "data": {{"amount": "1"}}}}"#
        ));
        assert_eq!(broken.operation.as_deref(), Some(name.as_str()));
        assert_eq!(
            found(&broken),
            one(Part::Notification, "type", "/data/amount")
        );
    }
}

/// A recording marked as a notification, delivered to a receiver's own URL, is the webhook
/// whose payload it keeps; the rest of the checks (the reply's status) then follow that one.
#[test]
fn a_notification_without_a_delivery_path_is_known_by_its_payload() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("hooks.yaml");
    std::fs::write(&spec, HOOKS_SPEC).unwrap();
    let contract = Contract::from_spec(&spec).expect("the hooks spec makes a contract");
    let delivery = |payload: &str, status: u16| {
        let mut exchange = media_exchange(
            "POST",
            "/hooks/pets",
            Some(("application/json", payload)),
            status,
            None,
        );
        exchange.kind = Some(ExchangeKind::Notification);
        check(&contract, &exchange, CheckOptions::default())
    };
    let created = delivery(r#"{"event": "pet.created", "pet": {}}"#, 200);
    assert_eq!(created.operation.as_deref(), Some("petCreated"));
    assert_eq!(found(&created), vec![]);
    // A JSON Lines payload written as a string holding its JSON is chosen by that JSON, as
    // the same notification in a HAR is, and then checked as it.
    for (payload, operation, findings) in [
        (
            r#"{"event": "pet.deleted", "id": "p1"}"#,
            "petDeleted",
            vec![],
        ),
        (
            r#"{"event": "pet.deleted", "id": 7}"#,
            "petDeleted",
            one(Part::Notification, "type", "/id"),
        ),
    ] {
        let mut exchange = media_exchange("POST", "/hooks/pets", None, 204, None);
        exchange.request.headers = vec![("Content-Type".into(), "application/json".into())];
        exchange.request.body = Some(Body::Json(Value::String(payload.into())));
        exchange.kind = Some(ExchangeKind::Notification);
        let outcome = check(&contract, &exchange, CheckOptions::default());
        assert_eq!(outcome.operation.as_deref(), Some(operation), "{payload}");
        assert_eq!(found(&outcome), findings, "{payload}");
    }
    let deleted = delivery(r#"{"event": "pet.deleted", "id": "p1"}"#, 204);
    assert_eq!(deleted.operation.as_deref(), Some("petDeleted"));
    assert_eq!(found(&deleted), vec![]);
    // The reply is judged by the webhook the payload named: petDeleted answers 204.
    let wrong_reply = delivery(r#"{"event": "pet.deleted", "id": "p1"}"#, 200);
    assert_eq!(
        found(&wrong_reply),
        one(Part::Reply, "status-documented", "")
    );
    let unknown = delivery(r#"{"event": "pet.renamed"}"#, 200);
    assert_eq!(unknown.operation, None);
    assert_eq!(found(&unknown), one(Part::Entry, "webhook-path", ""));
    // A new event type that breaks only the tag, each tag alike (Vercel's `domain-renewed`):
    // the first, at the member that is wrong, rather than "fits none".
    let renamed = delivery(r#"{"event": "pet.renamed", "pet": {}, "id": "p1"}"#, 200);
    assert_eq!(renamed.operation.as_deref(), Some("petCreated"));
    assert_eq!(found(&renamed), one(Part::Notification, "const", "/event"));
    // A receiver's 4XX that the webhook does not document (vendors document their 200 alone)
    // is the right answer to a broken payload; to one that keeps it, the rejection of a valid
    // notification, which says the status is undocumented too (one finding, not two).
    let refused = delivery(r#"{"event": "pet.created", "pet": 3}"#, 400);
    assert_eq!(found(&refused), one(Part::Notification, "type", "/pet"));
    for status in [400, 404, 409, 422] {
        let rejected = delivery(r#"{"event": "pet.created", "pet": {}}"#, status);
        assert_eq!(
            found(&rejected),
            one(Part::Reply, "reply-rejects-valid", ""),
            "{status}"
        );
        let finding = &rejected.findings[0];
        assert!(
            finding.message.contains(&format!(
                "answered {status} (a rejection, and not a status the webhook documents)"
            )),
            "{}",
            finding.message
        );
        assert_eq!(
            finding.schema_location,
            "manifest.json#/webhooks (petCreated responses)"
        );
    }
    // A status the webhook does not document that rejects nothing is that, under webhooks.
    let accepted = delivery(r#"{"event": "pet.created", "pet": {}}"#, 202);
    assert_eq!(found(&accepted), one(Part::Reply, "status-documented", ""));
    assert_eq!(
        accepted.findings[0].schema_location,
        "manifest.json#/webhooks (petCreated responses)"
    );
    // One that breaks one of them least (Adyen delivers every event to one URL): that one,
    // whose checks name the member that is wrong.
    let broken = delivery(r#"{"event": "pet.deleted", "id": 7}"#, 204);
    assert_eq!(broken.operation.as_deref(), Some("petDeleted"));
    assert_eq!(found(&broken), one(Part::Notification, "type", "/id"));
    // A payload none of them documents a member of is none of them.
    let foreign = delivery(r#"{"colour": "red", "size": 3}"#, 200);
    assert_eq!(foreign.operation, None);
    assert_eq!(found(&foreign), one(Part::Entry, "webhook-path", ""));
    // With one such webhook only, a payload that keeps no schema is still that webhook's,
    // and its own checks say what is wrong with it rather than that nothing is delivered.
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("one-hook.yaml");
    let one_hook = HOOKS_SPEC
        .split("  petDeleted:")
        .next()
        .expect("the spec's first webhook");
    std::fs::write(&spec, one_hook).unwrap();
    let contract = Contract::from_spec(&spec).expect("the one-hook spec makes a contract");
    let mut exchange = media_exchange(
        "POST",
        "/hooks/pets",
        Some(("application/json", r#"{"event": "pet.renamed"}"#)),
        200,
        None,
    );
    exchange.kind = Some(ExchangeKind::Notification);
    let broken = check(&contract, &exchange, CheckOptions::default());
    assert_eq!(broken.operation.as_deref(), Some("petCreated"));
    assert_eq!(
        found(&broken),
        vec![
            (Part::Notification, "required".to_string(), String::new()),
            (
                Part::Notification,
                "const".to_string(),
                "/event".to_string()
            ),
        ]
    );
}

/// A contract in the shared layout (one definitions document per direction, as specgen writes
/// Stripe's) judges traffic exactly as the self-contained one: every finding of the rules
/// corpus, with its schema location and message, and the media spec's discriminated
/// inheritance. specval reads each file through `specgen::definitions` when it first needs it.
#[test]
fn a_contract_in_the_shared_layout_judges_as_the_self_contained_one() {
    use specgen::ContractLayout;
    let layouts = |spec: &std::path::Path| {
        let doc = specgen::load::load_file(spec).expect("the spec loads");
        [ContractLayout::SelfContained, ContractLayout::Shared].map(|layout| {
            let options = specgen::Options {
                contract_layout: layout,
                ..specgen::Options::default()
            };
            let files = specgen::contract(&doc, &options).expect("a contract").files;
            Contract::from_files(files).expect("the contract reads")
        })
    };
    let report = |contract: &Contract, exchanges: &[Exchange]| -> Vec<String> {
        exchanges
            .iter()
            .flat_map(|exchange| check(contract, exchange, CheckOptions::default()).findings)
            .map(|f| {
                format!(
                    "{} {:?} {} {} {} {}",
                    f.exchange, f.part, f.rule, f.pointer, f.schema_location, f.message
                )
            })
            .collect()
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let [alone, shared] = layouts(&root.join("spec/openapi.yaml"));
    assert!(
        shared.schema_paths().len() == alone.schema_paths().len(),
        "the same schema files"
    );
    let mut exchanges = Vec::new();
    let rules = std::fs::File::open(root.join("tests/traffic/corpus/rules.jsonl")).unwrap();
    specval::read::read(
        "rules.jsonl",
        std::io::BufReader::new(rules),
        specval::read::Format::JsonLines,
        &alone.webhook_paths(),
        &mut |entry| exchanges.extend(entry.ok()),
    )
    .unwrap();
    let expected = report(&alone, &exchanges);
    assert!(
        expected.iter().any(|f| f.contains("#/$defs/")),
        "some finding points into a component: {expected:#?}"
    );
    assert_eq!(report(&shared, &exchanges), expected);

    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("media.yaml");
    std::fs::write(&spec, MEDIA_SPEC).unwrap();
    let [alone, shared] = layouts(&spec);
    let rules = |body: &str| {
        media_exchange(
            "GET",
            "/api/v2/rules",
            None,
            200,
            Some(("application/json", body)),
        )
    };
    let exchanges = [
        rules(r#"[{"kind": "nat", "port": "80"}, {"kind": "filter", "action": "allow"}]"#),
        rules(r#"[{"kind": "filter"}]"#),
        rules(r#"[{"kind": "nat", "port": 80, "extra": {}}]"#),
    ];
    let expected = report(&alone, &exchanges);
    assert_eq!(expected.len(), 2, "{expected:#?}");
    assert_eq!(report(&shared, &exchanges), expected);
}

/// A body the recording says was sent but does not hold (`Body::Unrecorded`, a HAR saved
/// without content) is neither missing nor valid: it is reported as not checked, a warning
/// that still fails the run, where the run would otherwise report a `required` body falsely
/// or pass a body it never saw. What can be judged without it (its media type, whether the
/// operation takes a body) still is.
#[test]
fn a_body_sent_but_not_recorded_is_reported_as_unchecked() {
    let account_path = format!("/v1/banking/accounts/{ACCOUNT_ID}");
    let mut read = exchange("GET", &account_path, None, 200, None);
    read.response.as_mut().unwrap().body = Some(Body::Unrecorded(700));
    let outcome = run(&read);
    assert_eq!(found(&outcome), one(Part::Response, "unrecorded-body", ""));
    assert_eq!(outcome.findings[0].severity, Severity::Warning);
    assert!(
        outcome.findings[0].message.contains("700 bytes"),
        "{:?}",
        outcome.findings[0]
    );
    // Its media type is still checked.
    read.response.as_mut().unwrap().headers = vec![("Content-Type".into(), "text/html".into())];
    let rules = found(&run(&read));
    assert!(
        rules.contains(&(
            Part::Response,
            "content-type".into(),
            "header:content-type".into()
        )),
        "{rules:?}"
    );
    // A request body: the same, and one sent where none is taken is still a finding.
    let mut created = exchange(
        "POST",
        "/v1/banking/accounts",
        Some(create_request()),
        201,
        Some(account()),
    );
    created.request.body = Some(Body::Unrecorded(90));
    assert_eq!(
        found(&run(&created)),
        one(Part::Request, "unrecorded-body", "")
    );
    let mut lookup = exchange("GET", &account_path, None, 200, Some(account()));
    lookup.request.body = Some(Body::Unrecorded(5));
    assert_eq!(
        found(&run(&lookup)),
        one(Part::Request, "body-unexpected", "")
    );
}

/// An `enum` written beside `type: array` (Zoom's `data_center_regions`, and 13 more documents
/// of the APIs.guru directory) lists the items: as written no array could equal a value of
/// it, and every answer carrying the field would be a finding. The contract applies it to
/// the items, so a listed code passes and another is named at its index.
#[test]
fn an_enum_beside_type_array_judges_the_items() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Regions, version: "1"}
paths:
  /settings:
    get:
      operationId: getSettings
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  regions: {type: array, items: {type: string}, enum: [HK, AU, US]}
"#,
    );
    let run = |body: serde_json::Value| {
        let mut exchange = media_exchange("GET", "/settings", None, 200, None);
        answer_json(&mut exchange, body);
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    assert_eq!(run(json!({"regions": ["AU", "US"]})), vec![]);
    assert_eq!(run(json!({"regions": []})), vec![]);
    assert_eq!(
        run(json!({"regions": ["AU", "XX"]})),
        one(Part::Response, "enum", "/regions/1")
    );
    assert_eq!(
        run(json!({"regions": "AU"})),
        one(Part::Response, "type", "/regions")
    );
}

/// A `false` schema under `properties` (a member a condition forbids) names the member, not
/// the schema: "member `sender` is not allowed here", at the member's pointer.
#[test]
fn a_member_a_false_schema_forbids_is_named() {
    let contract = contract_of(
        r#"
openapi: 3.1.0
info: {title: Transfers, version: "1"}
paths:
  /transfer:
    get:
      operationId: getTransfer
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  direction: {type: string}
                  sender: {type: object}
                if: {required: [direction], properties: {direction: {const: OUTGOING}}}
                then: {properties: {sender: false}}
"#,
    );
    let run = |body: serde_json::Value| {
        let mut exchange = media_exchange("GET", "/transfer", None, 200, None);
        answer_json(&mut exchange, body);
        check(&contract, &exchange, CheckOptions::default()).findings
    };
    assert!(run(json!({"direction": "INCOMING", "sender": {}})).is_empty());
    assert!(run(json!({"direction": "OUTGOING"})).is_empty());
    let findings = run(json!({"direction": "OUTGOING", "sender": {"name": "Jane"}}));
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0].pointer, "/sender");
    assert_eq!(findings[0].rule.to_string(), "falseSchema");
    assert!(
        findings[0]
            .message
            .starts_with("member `sender` is not allowed here"),
        "{}",
        findings[0].message
    );
    assert!(!findings[0].message.contains("Jane"), "values stay masked");
}

/// "Timestamps are ISO 8601 strings": every ISO 8601 date and time of day a hand-written
/// record plausibly holds is one, and text that is no timestamp is a `pattern` finding. RFC
/// 3339 (`format: date-time`) would have refused the local time, the basic format, `+0000`
/// and the comma. A date the calendar does not have (30 February, 29 February of a common
/// year) is no timestamp either.
#[test]
fn a_timestamp_is_any_iso_8601_date_and_time_and_nothing_else() {
    let outcome_of = |created_at: &str| {
        let mut body = account();
        body["created_at"] = json!(created_at);
        run(&exchange(
            "GET",
            &format!("/v1/banking/accounts/{ACCOUNT_ID}"),
            None,
            200,
            Some(body),
        ))
    };
    let read = |created_at: &str| found(&outcome_of(created_at));
    for timestamp in [
        "2024-05-14T15:20:11Z",
        "2024-05-14T15:20:11.123456Z",
        "2024-05-14T15:20:11+02:00",
        "2024-05-14T15:20:11-0500",
        "2024-05-14T15:20:11+02",
        "2024-05-14T15:20:11",
        "2024-05-14T15:20",
        "2024-05-14T15:20:11,5Z",
        "20240514T152011Z",
        "20240514T1520+0200",
        "2016-12-31T23:59:60Z",
        // 29 February of leap years: every fourth year, and every fourth century.
        "2024-02-29T00:00:00Z",
        "2000-02-29T00:00:00Z",
        "20240229T0000Z",
        "2024-04-30T00:00:00Z",
        "2024-12-31T00:00:00Z",
    ] {
        assert_eq!(read(timestamp), vec![], "{timestamp} is ISO 8601");
    }
    for not_one in [
        "yesterday",
        "2024-05-14",
        "2024-05-14 15:20:11Z",
        "2024-13-01T00:00:00Z",
        "2024-05-32T00:00:00Z",
        "2024-05-14T25:00:00Z",
        "2024-05-14T15:61:00Z",
        "14/05/2024 15:20",
        "1715700011",
        "2024-05-14T15:20:11Z trailing",
        // Dates the calendar does not have.
        "2026-02-30T00:00:00Z",
        "2025-02-29T00:00:00Z",
        "1900-02-29T00:00:00Z",
        "2024-04-31T00:00:00Z",
        "20250229T0000Z",
        "20241131T0000Z",
    ] {
        assert_eq!(
            read(not_one),
            one(Part::Response, "pattern", "/created_at"),
            "{not_one} is no ISO 8601 timestamp"
        );
    }
    // The message names the rule the pattern encodes, rather than quoting its 330 characters.
    let outcome = outcome_of("yesterday");
    assert_eq!(
        outcome.findings[0].message,
        "value does not match the pattern of Timestamp"
    );
}

/// "currency (string, ISO 4217, 3 characters)" on an account: three capital letters.
#[test]
fn an_account_currency_is_an_iso_4217_code() {
    for (currency, expected) in [
        ("EUR", vec![]),
        ("eur", one(Part::Request, "pattern", "/currency")),
        ("E1R", one(Part::Request, "pattern", "/currency")),
        ("EU", one(Part::Request, "minLength", "/currency")),
    ] {
        let mut request = create_request();
        request["currency"] = json!(currency);
        let created = exchange(
            "POST",
            "/v1/banking/accounts",
            Some(request),
            201,
            Some(account()),
        );
        assert_eq!(found(&run(&created)), expected, "{currency}");
    }
}

#[test]
fn accept_content_type_and_authorization_header_parameters_are_ignored_in_openapi_3() {
    // SendGrid declares `Accept` as a required header parameter; OpenAPI 3 says such a
    // parameter "SHALL be ignored", so a client that sends no Accept keeps the contract.
    let parameters = r#"
      parameters:
        - {name: Accept, in: header, required: true, schema: {type: string, enum: [application/json]}}
        - {name: content-type, in: header, required: true, schema: {type: string}}
        - {name: Authorization, in: header, required: true, schema: {type: string}}
        - {name: X-Trace, in: header, required: true, schema: {type: string}}
      responses: {'200': {description: ok}}
"#;
    let document = |header: &str| format!("{header}\npaths:\n  /bounces:\n    get:{parameters}");
    let openapi = contract_of(&document("openapi: 3.0.3\ninfo: {title: T, version: '1'}"));
    let mut bare = exchange("GET", "/bounces", None, 200, None);
    bare.request.headers.clear();
    let pointers = |contract: &Contract| -> Vec<String> {
        check(contract, &bare, CheckOptions::default())
            .findings
            .into_iter()
            .map(|finding| finding.pointer)
            .collect()
    };
    // `Authorization` counts where no security scheme carries that header: nothing else
    // would say the request needs one (the BBC's API declares no scheme).
    assert_eq!(
        pointers(&openapi),
        ["header:Authorization", "header:X-Trace"]
    );
    let secured = contract_of(
        &document(
            "openapi: 3.0.3
info: {title: T, version: '1'}
security: [{bearer: []}]",
        )
        .replace(
            "responses: {'200': {description: ok}}",
            "responses: {'200': {description: ok}}
components:
  securitySchemes:
                     bearer: {type: http, scheme: bearer}",
        ),
    );
    // Where one does, the parameter is ignored and the scheme's own finding (the missing
    // credential, about the whole request) stands.
    assert_eq!(pointers(&secured), ["header:X-Trace", ""]);
    // Swagger 2.0 has no such rule: its header parameters are all the request's.
    let swagger = contract_of(
        &document("swagger: '2.0'\ninfo: {title: T, version: '1'}")
            .replace(
                "schema: {type: string, enum: [application/json]}",
                "type: string, enum: [application/json]",
            )
            .replace("schema: {type: string}", "type: string"),
    );
    assert_eq!(
        pointers(&swagger),
        [
            "header:Accept",
            "header:content-type",
            "header:Authorization",
            "header:X-Trace"
        ]
    );
}

#[test]
fn a_union_failure_words_its_closest_alternative_as_a_finding_of_its_own() {
    // Stripe's retrieve answers are `anyOf: [customer, deleted_customer]`: an unknown
    // `tax_exempt` must be told the whole list there too, not two values and a count.
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /customer:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                anyOf:
                  - type: object
                    properties:
                      tax_exempt: {type: string, nullable: true, enum: [exempt, none, reverse]}
                  - type: object
                    required: [deleted]
                    properties: {deleted: {type: boolean, enum: [true]}}
"#,
    );
    let outcome = check(
        &contract,
        &exchange(
            "GET",
            "/customer",
            None,
            200,
            Some(json!({"tax_exempt": "partial"})),
        ),
        CheckOptions::default(),
    );
    assert_eq!(outcome.findings.len(), 1, "{:?}", outcome.findings);
    let message = &outcome.findings[0].message;
    assert!(
        message.ends_with(
            r#"which fails: /tax_exempt: value is not one of "exempt", "none", "reverse" or null"#
        ),
        "{message}"
    );
}

#[test]
fn an_undocumented_query_parameter_is_drift_and_a_strict_warning() {
    let contract = contract_of(
        r#"
openapi: 3.1.0
info: {title: Query, version: "1"}
paths:
  /search:
    get:
      parameters:
        - {name: q, in: query, schema: {type: string}}
        - {name: filter, in: query, style: deepObject, schema: {type: object, properties: {kind: {type: string}}}}
        - {name: expand, in: query, schema: {type: array, items: {type: string}}}
        - name: page
          in: query
          schema: {type: object, properties: {size: {type: integer}, after: {type: string}}}
      responses: {'200': {description: ok}}
      security: [{key: []}]
components:
  securitySchemes:
    key: {type: apiKey, in: query, name: api_key}
    headerKey: {type: apiKey, in: header, name: X-Key}
"#,
    );
    let mut searched = exchange("GET", "/search", None, 200, None);
    searched.request.query = [
        ("q", "rex"),
        ("filter[kind]", "dog"),
        ("expand[]", "owner"),
        ("size", "10"),
        ("api_key", "k_123456"),
        ("debug", "1"),
        ("debug", "2"),
        ("utm_source", "mail"),
        // A key the contract sends in a header, sent in the URL: not where it belongs.
        ("x-key", "k_654321"),
    ]
    .iter()
    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
    .collect();
    let lenient = check(&contract, &searched, CheckOptions::default());
    assert_eq!(found(&lenient), vec![]);
    let drift: Vec<Option<&str>> = lenient
        .drift
        .parameters
        .keys()
        .map(|key| key.value.as_deref())
        .collect();
    assert_eq!(drift, [Some("debug"), Some("utm_source"), Some("x-key")]);
    let strict = check(
        &contract,
        &searched,
        CheckOptions {
            strict: true,
            ..CheckOptions::default()
        },
    );
    let warnings: Vec<(String, Severity)> = strict
        .findings
        .iter()
        .map(|finding| (finding.pointer.clone(), finding.severity))
        .collect();
    assert_eq!(
        warnings,
        [
            ("query:debug".to_owned(), Severity::Warning),
            ("query:utm_source".to_owned(), Severity::Warning),
            ("query:x-key".to_owned(), Severity::Warning)
        ]
    );
    assert!(
        strict
            .findings
            .iter()
            .all(|f| f.rule.as_str() == "undocumented-parameter")
    );
    // Named, never shown.
    let text = format!("{:?}", strict.findings);
    assert!(
        !text.contains("k_654321") && !text.contains("k_123456"),
        "{text}"
    );
}

#[test]
fn an_empty_enum_says_it_allows_nothing() {
    let contract = one_body_contract(
        "/things",
        " {type: object, properties: {e: {type: string, enum: []}}}",
    );
    let outcome = check(
        &contract,
        &exchange("POST", "/things", Some(json!({"e": "x"})), 204, None),
        CheckOptions::default(),
    );
    let messages: Vec<&str> = outcome
        .findings
        .iter()
        .map(|f| f.message.as_str())
        .collect();
    assert_eq!(
        messages,
        ["no value is allowed here: the schema's enum lists none"]
    );
}

#[test]
fn a_discriminator_value_naming_a_grandchild_is_checked_against_it() {
    // `Lion` extends `Cat`, which extends `Pet`: inheritance is transitive, so a `Pet` tagged
    // `Lion` must be a valid `Lion` (and so a valid `Cat`), as one tagged `Cat` is a `Cat`.
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Grandchild, version: '1'}
paths:
  /pets:
    post:
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}
      responses: {'204': {description: ok}}
  /cats:
    post:
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/Cat'}}}
      responses: {'204': {description: ok}}
components:
  schemas:
    Pet:
      type: object
      required: [petType]
      properties: {petType: {type: string}}
      discriminator: {propertyName: petType}
    Cat:
      allOf:
        - $ref: '#/components/schemas/Pet'
        - {type: object, properties: {lives: {type: integer}}}
    Lion:
      allOf:
        - $ref: '#/components/schemas/Cat'
        - {type: object, required: [mane], properties: {mane: {type: boolean}}}
"#,
    );
    let posted = |body: Value| {
        found(&check(
            &contract,
            &exchange("POST", "/pets", Some(body), 204, None),
            CheckOptions::default(),
        ))
    };
    assert_eq!(
        posted(json!({"petType": "Lion", "lives": 9, "mane": true})),
        vec![]
    );
    assert_eq!(
        posted(json!({"petType": "Lion", "lives": "nine", "mane": true})),
        one(Part::Request, "type", "/lives")
    );
    assert_eq!(
        posted(json!({"petType": "Lion", "lives": 9})),
        one(Part::Request, "required", "")
    );
    assert_eq!(
        posted(json!({"petType": "Cat", "lives": "nine"})),
        one(Part::Request, "type", "/lives")
    );
    // An unknown tag stays lenient: the base alone.
    assert_eq!(posted(json!({"petType": "Tiger", "lives": "nine"})), vec![]);
    // A value declared as the intermediate `Cat` (Bitbucket's `account`, extended by `user`)
    // whose tag names `Lion` is a `Lion` too, by the discriminator `Cat` inherits.
    let cat = |body: Value| {
        let exchange = exchange("POST", "/cats", Some(body), 204, None);
        let outcome = check(
            &contract,
            &exchange,
            CheckOptions {
                strict: true,
                show_values: false,
            },
        );
        found(&outcome)
    };
    assert_eq!(
        cat(json!({"petType": "Lion", "lives": 9, "mane": true})),
        vec![]
    );
    assert_eq!(
        cat(json!({"petType": "Lion", "lives": 9})),
        one(Part::Request, "required", "")
    );
    assert_eq!(cat(json!({"petType": "Cat", "lives": 9})), vec![]);
}

#[test]
fn a_cookie_value_is_read_percent_decoded_as_the_form_style_writes_it() {
    // `;` cannot travel inside a cookie value: the generated client sends `%3B`, and the
    // value checked is the decoded one.
    let contract = contract_of(
        r#"
openapi: 3.1.0
info: {title: Cookies, version: '1'}
paths:
  /me:
    get:
      parameters:
        - {name: session, in: cookie, required: true, schema: {type: string, pattern: '^abc; theme=light$'}}
      responses: {'204': {description: ok}}
"#,
    );
    let sent = |cookie: &str| {
        let mut exchange = exchange("GET", "/me", None, 204, None);
        exchange
            .request
            .headers
            .push(("Cookie".into(), cookie.into()));
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    assert_eq!(sent("session=abc%3B%20theme%3Dlight"), vec![]);
    assert_eq!(
        sent("session=abc%3B%20theme%3Ddark"),
        one(Part::Request, "pattern", "cookie:session")
    );
}

/// OpenAPI says a client does not send a `readOnly` property and a server does not return a
/// `writeOnly` one. In strict mode each is a warning where it was sent the wrong way (a
/// `readOnly` member that one alternative marks and another does not is not), and outside
/// strict mode nothing; the body is judged as ever.
#[test]
fn a_property_sent_the_wrong_way_is_a_strict_warning() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: One way, version: "1"}
paths:
  /users:
    post:
      operationId: createUser
      requestBody:
        content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}
components:
  schemas:
    Stamp: {type: string, format: date-time, readOnly: true}
    User:
      type: object
      required: [id, name]
      properties:
        id: {type: string, readOnly: true}
        name: {type: string}
        password: {type: string, writeOnly: true}
        created: {$ref: '#/components/schemas/Stamp'}
        links:
          type: array
          items: {type: object, properties: {self: {type: string, readOnly: true}}}
        owner:
          oneOf:
            - {type: object, properties: {ref: {type: string, readOnly: true}}, additionalProperties: false}
            - {type: object, properties: {ref: {type: string}, kind: {type: string}}, required: [kind]}
"#,
    );
    let exchange = |sent: Value, answered: Value| Exchange {
        index: 0,
        line: None,
        id: None,
        source: "users.jsonl".into(),
        kind: None,
        request: Request {
            method: "POST".into(),
            path: "/users".into(),
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: Some(Body::Json(sent)),
            ..Request::default()
        },
        response: Some(Response {
            status: 201,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: Some(Body::Json(answered)),
            mime_type: None,
        }),
        failure: None,
    };
    let strict = CheckOptions {
        strict: true,
        show_values: false,
    };
    let sent = json!({
        "id": "u1", "name": "Ann", "password": "hunter22", "created": "2026-01-01T00:00:00Z",
        "links": [{"self": "/users/u1"}], "owner": {"ref": "o1"}
    });
    let answered = json!({"id": "u1", "name": "Ann", "password": "hunter22"});
    let outcome = check(&contract, &exchange(sent.clone(), answered.clone()), strict);
    assert_eq!(
        found(&outcome),
        vec![
            (Part::Request, "read-only".into(), "/id".into()),
            (Part::Request, "read-only".into(), "/created".into()),
            (Part::Request, "read-only".into(), "/links/0/self".into()),
            (Part::Response, "write-only".into(), "/password".into()),
        ]
    );
    assert!(
        outcome
            .findings
            .iter()
            .all(|f| f.severity == Severity::Warning)
    );
    assert_eq!(
        outcome.findings[0].message,
        "property `id` is read-only: a request does not send it"
    );
    // Outside strict mode, and for a request that sends only what it may, nothing.
    let relaxed = check(
        &contract,
        &exchange(sent, answered),
        CheckOptions::default(),
    );
    assert_eq!(found(&relaxed), vec![]);
    let proper = check(
        &contract,
        &exchange(
            json!({"name": "Ann", "password": "hunter22", "owner": {"ref": "o1", "kind": "team"}}),
            json!({"id": "u1", "name": "Ann"}),
        ),
        strict,
    );
    assert_eq!(found(&proper), vec![]);
}

/// One mistake is one finding: a `null` where `allOf` parts each say `type: object` (Asana's
/// `UserCompact` extending `AsanaResource`) breaks both parts alike, and is reported once.
#[test]
fn a_mistake_two_all_of_parts_refuse_alike_is_one_finding() {
    let contract = one_body_contract(
        "/tasks",
        r#"
              type: object
              properties:
                owner:
                  allOf:
                    - {type: object, properties: {gid: {type: string}}}
                    - {type: object, properties: {name: {type: string}}}"#,
    );
    let exchange = media_exchange(
        "POST",
        "/tasks",
        Some(("application/json", r#"{"owner": null}"#)),
        204,
        None,
    );
    let outcome = check(&contract, &exchange, CheckOptions::default());
    assert_eq!(found(&outcome), one(Part::Request, "type", "/owner"));
    // Inside a union's closest alternative, too, the reason is told once.
    let union = one_body_contract(
        "/tasks",
        r#"
              oneOf:
                - allOf:
                    - {type: object, required: [kind], properties: {kind: {const: text}}}
                    - {type: object, required: [kind], properties: {kind: {const: text}}}
                - {type: string, minLength: 3}"#,
    );
    let exchange = media_exchange(
        "POST",
        "/tasks",
        Some(("application/json", r#"{"kind": "image"}"#)),
        204,
        None,
    );
    let outcome = check(&union, &exchange, CheckOptions::default());
    let message = &outcome.findings[0].message;
    assert_eq!(message.matches("/kind: ").count(), 1, "{message}");
}

/// `--show-values` shows instance values, never credentials: a body member named as one
/// (Plaid's `access_token`, a `client_secret`, a `password`), which no security scheme
/// declares, stays out of the messages too.
#[test]
fn a_body_member_named_as_a_credential_is_not_shown_with_the_values() {
    let contract = one_body_contract("/item/get", "\n              type: object");
    let token = "access-sandbox-de3ce8ef-33f8";
    // GNAP (RFC 9635) issues tokens as objects, one or a list: `access_token: {value: …}`.
    let gnap = "OZB8CDFONP219RP1LT0OS9M2PMHKUR64TB8N6BW7";
    let continuation = "33OMUKMKSKU80UPRY5NM";
    let body = format!(
        r#"[{{"access_token": "{token}", "client_secret": "cs_9f8e7d6c", "name": "Ann"}},
            {{"access_token": {{"value": "{gnap}", "flags": ["bearer"]}},
              "continue": {{"access_token": [{{"value": "{continuation}"}}]}}}}]"#
    );
    let exchange = media_exchange(
        "POST",
        "/item/get",
        Some(("application/json", &body)),
        204,
        None,
    );
    let shown = CheckOptions {
        strict: false,
        show_values: true,
    };
    let outcome = check(&contract, &exchange, shown);
    assert_eq!(found(&outcome), one(Part::Request, "type", ""));
    let message = &outcome.findings[0].message;
    assert!(message.contains("\"Ann\""), "values are shown: {message}");
    for secret in [token, "cs_9f8e7d6c", gnap, continuation] {
        assert!(!message.contains(secret), "{secret}: {message}");
    }
}

/// A body's own credential is kept out of every report, not only out of the values
/// `--show-values` shows: sent again in a path or as a member's name, it is hidden in the
/// default mode as well.
#[test]
fn a_body_credential_repeated_in_a_path_or_a_member_name_is_hidden_in_every_mode() {
    let contract = one_body_contract(
        "/item/get",
        "\n              type: object\n              properties: {access_token: {type: string}}",
    );
    let token = "access-sandbox-de3ce8ef-33f8";
    let body = format!(r#"{{"access_token": "{token}"}}"#);
    let strict = CheckOptions {
        strict: true,
        show_values: false,
    };
    let astray = media_exchange(
        "POST",
        &format!("/item/{token}"),
        Some(("application/json", &body)),
        204,
        None,
    );
    let again = format!(r#"{{"access_token": "{token}", "{token}": 1}}"#);
    let named = media_exchange(
        "POST",
        "/item/get",
        Some(("application/json", &again)),
        204,
        None,
    );
    for (exchange, options) in [(&astray, CheckOptions::default()), (&named, strict)] {
        let outcome = check(&contract, exchange, options);
        assert!(!outcome.findings.is_empty());
        let report = format!("{:?} {:?}", outcome.findings, outcome.drift);
        assert!(!report.contains(token), "{report}");
        assert!(report.contains("REDACTED"), "{report}");
    }
}

/// A cookie's and a query parameter's names are matched as written (`mercureAuthorization`,
/// `apiKey`), not lower-cased: a key sent under its own name is present.
#[test]
fn a_cookie_or_query_key_named_in_capitals_is_found() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Keys, version: "1"}
paths:
  /hub:
    get:
      security: [{cookieKey: []}, {queryKey: []}]
      responses:
        '200': {description: ok}
        '401': {description: no key}
components:
  securitySchemes:
    cookieKey: {type: apiKey, in: cookie, name: mercureAuthorization}
    queryKey: {type: apiKey, in: query, name: apiKey}
"#,
    );
    let sent = |headers: Vec<(String, String)>, query: Vec<(String, String)>| {
        let exchange = Exchange {
            index: 0,
            line: None,
            id: None,
            source: "keys.jsonl".into(),
            kind: None,
            request: Request {
                method: "GET".into(),
                path: "/hub".into(),
                headers,
                query,
                ..Request::default()
            },
            response: Some(Response {
                status: 200,
                headers: vec![],
                body: None,
                mime_type: None,
            }),
            failure: None,
        };
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    let cookie = vec![(
        "Cookie".into(),
        "theme=dark; mercureAuthorization=tok123".into(),
    )];
    assert_eq!(sent(cookie, vec![]), vec![]);
    assert_eq!(
        sent(vec![], vec![("apiKey".into(), "key123".into())]),
        vec![]
    );
    // Another name is no key: the 200 should have been a 401.
    let other = vec![("Cookie".into(), "mercureauthorization=tok123".into())];
    assert_eq!(sent(other, vec![]), one(Part::Response, "credentials", ""));
}

/// In strict mode a thing an error already reports is not warned about again: a member a
/// closed object refuses (`additionalProperties: false`), a value inside a union that failed.
#[test]
fn a_strict_warning_does_not_repeat_an_error() {
    let contract = one_body_contract(
        "/rules",
        r#"
              type: object
              additionalProperties: false
              properties:
                kind:
                  oneOf:
                    - {type: string, enum: [x]}
                    - {type: integer}
                mode: {type: string, enum: ["on", "off"]}"#,
    );
    let exchange = media_exchange(
        "POST",
        "/rules",
        Some((
            "application/json",
            r#"{"kind": "webhook", "mode": "auto", "extra": 1}"#,
        )),
        204,
        None,
    );
    let strict = CheckOptions {
        strict: true,
        show_values: false,
    };
    let outcome = check(&contract, &exchange, strict);
    assert_eq!(
        found(&outcome),
        vec![
            (Part::Request, "oneOf".into(), "/kind".into()),
            (Part::Request, "enum".into(), "/mode".into()),
            (Part::Request, "additionalProperties".into(), "".into()),
        ]
    );
    // Nor does the drift summary list them: the errors say them.
    assert!(outcome.drift.properties.is_empty(), "{:?}", outcome.drift);
    assert!(outcome.drift.enum_values.is_empty(), "{:?}", outcome.drift);
}

/// Django REST framework documents every body as JSON, a form and `multipart/form-data` with
/// one schema, and Swagger 2.0's `consumes` lists become the same. A form or a multipart body
/// sent to such an operation was checked for its presence only, so a missing field or a word
/// for a number passed; it is now read by that schema. A form documented with a schema of its
/// own (not in the contract) is still judged by its presence alone, never by JSON's schema.
#[test]
fn a_form_documented_beside_json_with_the_same_schema_is_checked_field_by_field() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Forms beside JSON, version: '1'}
paths:
  /requisitions:
    post:
      operationId: createRequisition
      requestBody:
        required: true
        content:
          application/json: {schema: {$ref: '#/components/schemas/Requisition'}}
          application/x-www-form-urlencoded: {schema: {$ref: '#/components/schemas/Requisition'}}
          multipart/form-data: {schema: {$ref: '#/components/schemas/Requisition'}}
      responses: {'201': {description: created}}
  /notes:
    post:
      operationId: createNote
      requestBody:
        content:
          application/json: {schema: {type: object, required: [text], properties: {text: {type: string}}}}
          application/x-www-form-urlencoded: {schema: {type: object, properties: {body: {type: string}}}}
      responses: {'201': {description: created}}
components:
  schemas:
    Requisition:
      type: object
      required: [redirect, institution_id]
      properties:
        redirect: {type: string}
        institution_id: {type: string}
        account_selection: {type: boolean}
        user_language: {type: string, maxLength: 5}
        max_historical_days: {type: integer, minimum: 1}
"#,
    );
    let post = |path: &str, content_type: &str, body: &str| {
        media_exchange("POST", path, Some((content_type, body)), 201, None)
    };
    let judge = |exchange: &Exchange| {
        let outcome = check(&contract, exchange, CheckOptions::default());
        let mut rules = found(&outcome);
        rules.sort();
        rules
    };
    const FORM: &str = "application/x-www-form-urlencoded";
    let multipart = |fields: &[(&str, &str)]| {
        let parts: Vec<String> = fields
            .iter()
            .map(|(name, text)| part(name, "", text))
            .collect();
        format!("{}--XyZ--\r\n", parts.concat())
    };
    const MULTIPART: &str = "multipart/form-data; boundary=XyZ";
    let request =
        |rule: &str, pointer: &str| (Part::Request, rule.to_string(), pointer.to_string());
    let verdicts = [
        judge(&post(
            "/requisitions",
            FORM,
            "redirect=https%3A%2F%2Fx.test&institution_id=SANDBOX",
        )),
        judge(&post(
            "/requisitions",
            FORM,
            "institution_id=SANDBOX&account_selection=maybe",
        )),
        judge(&post(
            "/requisitions",
            FORM,
            "redirect=r&institution_id=i&max_historical_days=abc",
        )),
        judge(&post(
            "/requisitions",
            MULTIPART,
            &multipart(&[
                ("redirect", "r"),
                ("institution_id", "i"),
                ("user_language", "EN"),
            ]),
        )),
        judge(&post(
            "/requisitions",
            MULTIPART,
            &multipart(&[
                ("redirect", "r"),
                ("institution_id", "i"),
                ("user_language", "ENGLISH"),
            ]),
        )),
        // The form of `/notes` has a schema of its own: not JSON's `text`, never required.
        judge(&post("/notes", FORM, "body=hello")),
    ];
    assert_eq!(
        verdicts,
        [
            vec![],
            vec![
                request("required", ""),
                request("type", "/account_selection")
            ],
            vec![request("type", "/max_historical_days")],
            vec![],
            vec![request("maxLength", "/user_language")],
            vec![],
        ]
    );
}

/// The closest alternative of a failed union is the one the value is written for: Open
/// Payments' incoming payment, every member there and two wrong, was said to be closest to the
/// public incoming payment, which it fails once for the one member it lacks (`authServer`),
/// hiding the two mistakes that matter. Members an alternative does not declare now weigh
/// before the count of errors.
#[test]
fn the_closest_alternative_is_the_one_that_declares_the_members_sent() {
    let contract = one_body_contract(
        "/incoming-payments",
        r#"
              anyOf:
                - type: object
                  required: [id, receivedAmount, createdAt]
                  properties:
                    id: {type: string}
                    receivedAmount: {type: integer}
                    createdAt: {type: string, format: date-time}
                    methods: {type: array}
                - type: object
                  required: [authServer]
                  properties:
                    authServer: {type: string}
                    receivedAmount: {type: integer}"#,
    );
    let body = r#"{"id": "ip-1", "createdAt": "yesterday", "methods": []}"#;
    let exchange = media_exchange(
        "POST",
        "/incoming-payments",
        Some(("application/json", body)),
        204,
        None,
    );
    let outcome = check(&contract, &exchange, CheckOptions::default());
    assert_eq!(found(&outcome), one(Part::Request, "anyOf", ""));
    let message = &outcome.findings[0].message;
    assert!(message.contains("closest is anyOf/0"), "{message}");
    assert!(message.contains("receivedAmount"), "{message}");
    assert!(message.contains("/createdAt"), "{message}");
}

/// Chrome's HAR export lists what the page held itself, `data:` images and `blob:` objects,
/// beside the network's calls. They were `malformed` entries (their URL "neither an absolute
/// URL nor a path") that failed the run; they are the page's own, passed over whatever their
/// method or answer, and a call of the API beside them is still judged.
#[test]
fn a_browsers_data_and_blob_entries_are_passed_over() {
    let entry = |method: &str, url: &str, media: &str| {
        json!({"startedDateTime": "2026-11-01T10:00:00.000Z", "time": 1,
            "request": {"method": method, "url": url, "httpVersion": "HTTP/1.1", "cookies": [],
                "headers": credentials().into_iter().map(|(name, value)| json!({"name": name, "value": value})).collect::<Vec<_>>(),
                "queryString": [], "headersSize": -1, "bodySize": 0},
            "response": {"status": 200, "statusText": "", "httpVersion": "HTTP/1.1", "cookies": [],
                "headers": [{"name": "Content-Type", "value": media}],
                "content": {"size": 2, "mimeType": media, "text": "{}"},
                "redirectURL": "", "headersSize": -1, "bodySize": -1},
            "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}})
    };
    let har = json!({"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"},
    "entries": [
        entry("GET", "data:image/svg+xml;base64,PHN2Zy8+", "image/svg+xml"),
        entry("GET", "blob:https://dashboard.example.com/4f1c-aa", "application/json"),
        entry("POST", "chrome-extension://abcdef/background.html", "text/html"),
        entry("GET", &format!("https://api.example.com/v1/banking/accounts/{ACCOUNT_ID}"), "text/html"),
    ]}});
    let mut outcomes = Vec::new();
    specval::read::read(
        "browser.har",
        har.to_string().as_bytes(),
        specval::read::Format::Har,
        &[],
        &mut |entry| outcomes.push(run(&entry.expect("a well-formed entry"))),
    )
    .expect("reading from memory cannot fail");
    let verdicts: Vec<_> = outcomes
        .iter()
        .map(|outcome| (outcome.not_api, found(outcome)))
        .collect();
    assert_eq!(verdicts.len(), 4);
    for verdict in &verdicts[..3] {
        assert_eq!(*verdict, (true, vec![]));
    }
    assert!(!verdicts[3].0);
    assert!(
        verdicts[3]
            .1
            .iter()
            .any(|(_, rule, _)| rule == "content-type"),
        "{:?}",
        verdicts[3].1
    );
}

/// One wrong value is one finding: a status a response fixes (`const`) over the component's
/// `enum`, or a `null` where an enum of strings stands, was a finding per keyword that refused
/// it. The narrowest stays: the `const`, else the `enum`, which names every value.
#[test]
fn a_value_refused_by_const_enum_and_type_at_once_is_one_finding() {
    let contract = one_body_contract(
        "/accounts",
        r#"
              type: object
              properties:
                status:
                  allOf:
                    - {type: string, enum: [ACTIVE, FROZEN, CLOSED]}
                    - {const: ACTIVE}
                account_type: {type: string, enum: [CHECKING, SAVINGS]}
                received: {type: boolean, const: true}"#,
    );
    let judge = |body: &str| {
        let exchange = media_exchange(
            "POST",
            "/accounts",
            Some(("application/json", body)),
            204,
            None,
        );
        let mut rules = found(&check(&contract, &exchange, CheckOptions::default()));
        rules.sort();
        rules
    };
    assert_eq!(
        judge(r#"{"status": "OPEN", "account_type": null, "received": "true"}"#),
        vec![
            (Part::Request, "const".into(), "/received".into()),
            (Part::Request, "const".into(), "/status".into()),
            (Part::Request, "enum".into(), "/account_type".into()),
        ]
    );
    // A mistake of its own at another place stays.
    assert_eq!(
        judge(r#"{"status": "FROZEN", "account_type": 7}"#),
        vec![
            (Part::Request, "const".into(), "/status".into()),
            (Part::Request, "enum".into(), "/account_type".into()),
        ]
    );
}

/// With `--show-values`, a value named as a credential stays out of messages wherever it is
/// repeated: a declared query parameter called `key` (YouTube's API key), an undeclared
/// `oauth_token` (Foursquare's), as a cookie or a header no scheme declares.
#[test]
fn values_named_as_credentials_are_not_shown_even_undeclared() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Keys by name, version: "1"}
paths:
  /venues:
    get:
      parameters:
        - {name: key, in: query, schema: {type: string}}
        - {name: fbid, in: query, schema: {type: integer}}
        - {name: near, in: query, schema: {type: integer}}
        - {name: v, in: query, schema: {type: integer}}
      responses: {'200': {description: ok}}
"#,
    );
    let key = "AIzaSyD3kFq9XvT2mWpL8rBnC4sYhJ0eGzQ1uVo";
    let token = "FSQ3OAUTHTOKEN0000000001";
    let cookie = "Q2xvdWRTZXNzaW9uLTk4NzY1NDMyMQ";
    let mut exchange = media_exchange("GET", "/venues", None, 200, None);
    exchange.request.query = vec![
        ("key".into(), key.into()),
        ("oauth_token".into(), token.into()),
        ("fbid".into(), token.into()),
        ("near".into(), key.into()),
        ("v".into(), cookie.into()),
    ];
    exchange.request.headers = vec![("Cookie".into(), format!("session_token={cookie}"))];
    let shown = CheckOptions {
        strict: false,
        show_values: true,
    };
    let outcome = check(&contract, &exchange, shown);
    assert_eq!(outcome.findings.len(), 3, "{:?}", found(&outcome));
    for finding in &outcome.findings {
        for secret in [key, token, cookie] {
            assert!(!finding.message.contains(secret), "{}", finding.message);
        }
        assert!(finding.message.contains("REDACTED"), "{}", finding.message);
    }
}

/// A callback arrives at the URL its subscriber gave. Up Bank declares that URL as a required
/// path parameter of the callback (`{webhookURL}`), and every delivery was reported as
/// lacking it; a notification's path values are the receiver's URL's, not checked.
#[test]
fn a_callbacks_url_declared_as_a_path_parameter_is_not_required_of_a_delivery() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Callbacks, version: "1"}
paths:
  /webhooks:
    post:
      operationId: createWebhook
      requestBody:
        content: {application/json: {schema: {type: object, properties: {url: {type: string}}}}}
      responses: {'201': {description: created}}
      callbacks:
        Event:
          '{webhookURL}':
            post:
              parameters:
                - {name: webhookURL, in: path, required: true, schema: {type: string}}
              requestBody:
                content:
                  application/json:
                    schema:
                      type: object
                      required: [eventType]
                      properties: {eventType: {type: string, enum: [PING, TRANSACTION_CREATED]}}
              responses: {'200': {description: received}}
"#,
    );
    let delivery = |body: &str| {
        let mut exchange = media_exchange(
            "POST",
            "/hooks/up",
            Some(("application/json", body)),
            200,
            None,
        );
        exchange.kind = Some(ExchangeKind::Notification);
        exchange
    };
    let clean = check(
        &contract,
        &delivery(r#"{"eventType": "PING"}"#),
        CheckOptions::default(),
    );
    assert!(clean.operation.is_some(), "matched to the callback");
    assert_eq!(found(&clean), vec![]);
    let broken = check(
        &contract,
        &delivery(r#"{"eventType": "PONG"}"#),
        CheckOptions::default(),
    );
    assert_eq!(
        found(&broken),
        one(Part::Notification, "enum", "/eventType")
    );
}

/// Callbacks that POST nothing (PeerTube's `searchIndex`, named by two operations, so two
/// notifications of one shape): a delivery without a body, at whatever URL the subscriber
/// gave, is one of them, where it "fitted no notification's schema" because it had no payload
/// to fit one; a body sent to them is `body-unexpected`, as the generated receiver refuses it.
/// And a receiver's 5XX, undocumented, asks for a retry, which every notification allows.
#[test]
fn callbacks_without_a_payload_are_told_by_its_absence_and_a_5xx_reply_is_a_retry() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Search, version: "1"}
paths:
  /search/videos:
    get:
      operationId: searchVideos
      responses: {'200': {description: ok}}
      callbacks:
        searchIndex: {$ref: '#/components/callbacks/searchIndex'}
  /search/channels:
    get:
      operationId: searchChannels
      responses: {'200': {description: ok}}
      callbacks:
        searchIndex: {$ref: '#/components/callbacks/searchIndex'}
components:
  callbacks:
    searchIndex:
      'https://search.example.org/api/v1/search/videos':
        post:
          responses:
            '200':
              description: ok
              content:
                application/json:
                  schema: {type: object, properties: {total: {type: integer}}}
"#,
    );
    let delivery = |body: Option<&str>, status: u16| {
        let mut exchange = media_exchange(
            "POST",
            "/api/v1/search/videos",
            body.map(|body| ("application/json", body)),
            status,
            Some(("application/json", r#"{"total": 1}"#)),
        );
        exchange.kind = Some(ExchangeKind::Notification);
        exchange
    };
    let judged = |body, status| check(&contract, &delivery(body, status), CheckOptions::default());
    let clean = judged(None, 200);
    assert_eq!(clean.operation.as_deref(), Some("searchVideos-searchIndex"));
    assert_eq!(found(&clean), vec![]);
    let carried = judged(Some(r#"{"q": "cats"}"#), 200);
    assert_eq!(
        found(&carried),
        one(Part::Notification, "body-unexpected", "")
    );
    for status in [500, 503] {
        assert_eq!(found(&judged(None, status)), vec![], "{status}");
    }
    // A 4XX to one that keeps the contract rejects a valid notification.
    assert_eq!(
        found(&judged(None, 404)),
        one(Part::Reply, "reply-rejects-valid", "")
    );
    assert_eq!(
        found(&judged(None, 202)),
        one(Part::Reply, "status-documented", "")
    );
}

/// A webhook's `security` (Adyen's: HTTP basic on each) says what the API sends with every
/// notification: one without those credentials is a finding, and a receiver that answers it
/// 401 answers as it must. Before, a notification was never asked for credentials.
#[test]
fn a_notification_carries_the_credentials_its_security_names() {
    let contract = contract_of(
        r#"
openapi: 3.1.0
info: {title: Notifications, version: "1"}
components:
  securitySchemes:
    BasicAuth: {type: http, scheme: basic}
webhooks:
  accountCreated:
    post:
      security: [{BasicAuth: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [id], properties: {id: {type: string}}}
      responses:
        '200': {description: ok}
"#,
    );
    let delivery = |authorization: Option<&str>, status: u16| {
        let mut exchange = media_exchange(
            "POST",
            "/hooks/accountCreated",
            Some(("application/json", r#"{"id": "a1"}"#)),
            status,
            None,
        );
        exchange.kind = Some(ExchangeKind::Notification);
        if let Some(value) = authorization {
            exchange
                .request
                .headers
                .push(("Authorization".into(), value.into()));
        }
        check(&contract, &exchange, CheckOptions::default())
    };
    assert_eq!(found(&delivery(Some("Basic dTpw"), 200)), vec![]);
    for sent in [None, Some("Bearer abc")] {
        let lacking = delivery(sent, 200);
        assert_eq!(
            found(&lacking),
            one(Part::Notification, "credentials", ""),
            "{sent:?}"
        );
        assert!(!lacking.findings[0].message.contains("abc"));
        assert_eq!(
            found(&delivery(sent, 401)),
            one(Part::Notification, "credentials", ""),
            "{sent:?}: a 401 is the right answer"
        );
    }
}

/// `{origin}/v1` lets a gateway's prefix stand before `/v1`, but an empty segment is no
/// prefix: `//v1/banking/…` matched `getAccount` while the generated router answers it 404,
/// as it does `/v1//banking/…`.
#[test]
fn an_empty_segment_before_the_base_path_is_no_prefix() {
    let account_path = format!("/banking/accounts/{ACCOUNT_ID}");
    for (path, operation) in [
        (format!("/v1{account_path}"), Some("getAccount")),
        (format!("/gateway/v1{account_path}"), Some("getAccount")),
        (format!("//v1{account_path}"), None),
        (format!("/gateway//v1{account_path}"), None),
        (format!("/v1/{account_path}"), None),
    ] {
        let outcome = run(&exchange("GET", &path, None, 200, Some(account())));
        assert_eq!(outcome.operation.as_deref(), operation, "{path}");
        if operation.is_none() {
            assert_eq!(
                found(&outcome),
                one(Part::Entry, "operation-path", ""),
                "{path}"
            );
        }
    }
}

/// A part of a closed `allOf` that fails (a member it requires is missing) takes the members
/// it declares with it: JSON Schema counts them not evaluated, so `unevaluatedProperties:
/// false` refused two documented members beside the one real mistake (Just Eat's checkout
/// issue without its `currency`). The missing member is the finding; a member no part
/// declares is still one.
#[test]
fn a_failed_part_of_a_closed_object_does_not_make_its_members_unexpected() {
    let contract = one_body_contract(
        "/issues",
        r#"
              allOf:
                - {type: object, required: [code], properties: {code: {type: string}}}
                - type: object
                  required: [currency]
                  properties:
                    currency: {type: string}
                    minimumOrderValue: {type: integer}
              unevaluatedProperties: false"#,
    );
    let judge = |body: &str| {
        let exchange = media_exchange(
            "POST",
            "/issues",
            Some(("application/json", body)),
            204,
            None,
        );
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    assert_eq!(
        judge(r#"{"code": "MINIMUM_ORDER_VALUE_NOT_MET", "minimumOrderValue": 1500}"#),
        one(Part::Request, "required", "")
    );
    assert_eq!(
        judge(r#"{"code": "X", "currency": "EUR", "minimumOrderValue": 1, "extra": 1}"#),
        one(Part::Request, "unevaluatedProperties", "")
    );
    assert_eq!(
        judge(r#"{"code": "X", "currency": "EUR", "minimumOrderValue": 1}"#),
        vec![]
    );
}

/// `text/json` is JSON: Swashbuckle (.NET) documents it beside `application/json` on every
/// body, and such a body was taken for text and never read (BigOven's recipes: a word for an
/// integer `ID`, `garbage{`, all passed).
#[test]
fn a_text_json_body_is_read_as_json() {
    let contract = contract_of(
        r#"
openapi: 3.0.1
info: {title: Recipes, version: "1"}
paths:
  /recipe:
    post:
      requestBody:
        content:
          application/json: {schema: {$ref: '#/components/schemas/Recipe'}}
          text/json: {schema: {$ref: '#/components/schemas/Recipe'}}
          application/xml: {schema: {$ref: '#/components/schemas/Recipe'}}
      responses: {'200': {description: ok}}
components:
  schemas:
    Recipe: {type: object, properties: {ID: {type: integer}, Title: {type: string}}}
"#,
    );
    let judge = |media: &str, body: &str| {
        let exchange = media_exchange("POST", "/recipe", Some((media, body)), 200, None);
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    assert_eq!(judge("text/json", r#"{"ID": 7, "Title": "Soup"}"#), vec![]);
    assert_eq!(
        judge("text/json; charset=utf-8", r#"{"ID": "x"}"#),
        one(Part::Request, "type", "/ID")
    );
    assert_eq!(
        judge("text/json", "garbage{"),
        one(Part::Request, "json", "")
    );
    // XML stays a body of its own media type: its presence is what is judged.
    assert_eq!(
        judge("application/xml", "<Recipe><ID>x</ID></Recipe>"),
        vec![]
    );
}

/// An upload documented as bytes and as parts with a schema of its own (Sakari's
/// `sharefile`): the contract holds the parts' schema too, and a multipart body is checked
/// by it, where it passed unread (`garbage`, a word for an integer, no parts).
#[test]
fn parts_documented_beside_bytes_are_checked_by_their_own_schema() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Shares, version: "1"}
paths:
  /up:
    post:
      requestBody:
        required: true
        content:
          application/octet-stream: {schema: {type: string, format: binary}}
          multipart/form-data:
            schema:
              type: object
              required: [n]
              properties: {n: {type: integer}, media: {type: string, format: binary}}
      responses: {'200': {description: ok}}
"#,
    );
    let judge = |media: &str, body: &str| {
        let exchange = media_exchange("POST", "/up", Some((media, body)), 200, None);
        let mut rules = found(&check(&contract, &exchange, CheckOptions::default()));
        rules.sort();
        rules
    };
    let multipart = "multipart/form-data; boundary=XyZ";
    let with = |n: &str| format!("{}--XyZ--\r\n", part("n", "", n));
    assert_eq!(judge("application/octet-stream", "\u{1}bytes"), vec![]);
    assert_eq!(judge(multipart, &with("2")), vec![]);
    assert_eq!(
        judge(multipart, &with("two")),
        one(Part::Request, "type", "/n")
    );
    assert_eq!(
        judge(multipart, "--XyZ--\r\n"),
        one(Part::Request, "required", "")
    );
    assert_eq!(
        judge(multipart, "garbage"),
        one(Part::Request, "multipart", "")
    );
}

/// With `--show-values`, a form's or a multipart body's fields named as credentials stay out
/// of messages as a JSON body's members do: a field named so in any segment of its name
/// (GitLab's `token[v]`, `meta[owner][client_secret]`), and the members of a field that
/// holds JSON.
#[test]
fn credential_fields_of_forms_and_parts_are_not_shown_with_the_values() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Fields, version: "1"}
paths:
  /hooks:
    post:
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: {type: object, properties: {meta: {type: integer}, note: {type: integer}}}
          multipart/form-data:
            schema: {type: object, properties: {meta: {type: integer}, note: {type: integer}}}
      responses: {'201': {description: created}}
"#,
    );
    let shown = CheckOptions {
        strict: false,
        show_values: true,
    };
    let secrets = ["CSsecret0001", "HOOKsecret0101", "MPtok0004"];
    let form = "meta=%7B%22client_secret%22%3A%22CSsecret0001%22%7D&note=HOOKsecret0101&token%5Bv%5D=HOOKsecret0101";
    let parts = format!(
        "{}{}{}--XyZ--\r\n",
        part(
            "meta",
            "\r\nContent-Type: application/json",
            r#"{"access_token": "MPtok0004"}"#
        ),
        part("note", "", "MPtok0004"),
        part("password", "", "MPtok0004")
    );
    for (media, body) in [
        ("application/x-www-form-urlencoded", form.to_string()),
        ("multipart/form-data; boundary=XyZ", parts),
    ] {
        let exchange = media_exchange("POST", "/hooks", Some((media, &body)), 201, None);
        let outcome = check(&contract, &exchange, shown);
        assert_eq!(outcome.findings.len(), 2, "{media}: {:?}", found(&outcome));
        for finding in &outcome.findings {
            for secret in secrets {
                assert!(
                    !finding.message.contains(secret),
                    "{media}: {}",
                    finding.message
                );
            }
            assert!(
                finding.message.contains("REDACTED"),
                "{media}: {}",
                finding.message
            );
        }
    }
}

/// A response documented under a media type with parameters (`application/json;
/// charset=utf-8`, GSMtasks' `application/json; version=2.4.13`) is JSON: its body is checked
/// against its schema, whether it is sent with those parameters or without. Such a key had
/// left every response body of the document unread.
#[test]
fn a_response_media_type_with_parameters_is_still_json() {
    for key in [
        "application/json; charset=utf-8",
        "application/json; version=2.4.13",
    ] {
        let contract = contract_of(&format!(
            r#"
openapi: 3.0.3
info: {{title: Versioned, version: "1"}}
paths:
  /clients/{{id}}:
    get:
      parameters: [{{name: id, in: path, required: true, schema: {{type: string}}}}]
      responses:
        '200':
          description: ok
          content:
            "{key}":
              schema: {{type: object, required: [slug], properties: {{slug: {{type: string}}, name: {{type: string, maxLength: 5}}}}}}
"#
        ));
        for sent in [key, "application/json"] {
            let mut wrong = exchange("GET", "/clients/1", None, 200, None);
            let response = wrong.response.as_mut().unwrap();
            response.headers = vec![("Content-Type".into(), sent.into())];
            response.body = Some(Body::Json(json!({"slug": "a", "name": "far too long"})));
            let outcome = check(&contract, &wrong, CheckOptions::default());
            assert_eq!(
                found(&outcome),
                one(Part::Response, "maxLength", "/name"),
                "{key} sent as {sent}"
            );
            let response = wrong.response.as_mut().unwrap();
            response.body = Some(Body::Text("{not json".into()));
            let outcome = check(&contract, &wrong, CheckOptions::default());
            assert_eq!(
                found(&outcome),
                one(Part::Response, "json", ""),
                "{key} sent as {sent}"
            );
        }
    }
}

/// Path parameters in the `label` and `matrix` styles carry their value inside a mark
/// (`.3,4,5`, `;period=2024-01`): the value is what the schema judges, not the mark with it.
#[test]
fn label_and_matrix_path_values_are_read_inside_their_marks() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Styles, version: "1"}
paths:
  /reports/{period}:
    get:
      parameters:
        - {name: period, in: path, required: true, style: matrix, schema: {type: string, pattern: '^\d{4}-\d{2}$'}}
      responses: {'204': {description: ok}}
  /ids/{ids}:
    get:
      parameters:
        - {name: ids, in: path, required: true, style: label, schema: {type: array, items: {type: integer}}}
      responses: {'204': {description: ok}}
  /tags/{tags}:
    get:
      parameters:
        - {name: tags, in: path, required: true, style: matrix, explode: true, schema: {type: array, items: {type: integer}}}
      responses: {'204': {description: ok}}
  /dots/{dots}:
    get:
      parameters:
        - {name: dots, in: path, required: true, style: label, explode: true, schema: {type: array, items: {type: integer}}}
      responses: {'204': {description: ok}}
"#,
    );
    let run = |path: &str| {
        check(
            &contract,
            &exchange("GET", path, None, 204, None),
            CheckOptions::default(),
        )
    };
    for good in [
        "/reports/;period=2024-01",
        "/ids/.3,4,5",
        "/ids/.7",
        "/tags/;tags=3;tags=4",
        "/dots/.3.4.5",
    ] {
        assert_eq!(found(&run(good)), vec![], "{good}");
    }
    // Inside the mark, the value is still judged.
    assert_eq!(
        found(&run("/reports/;period=2024")),
        one(Part::Request, "pattern", "path:period")
    );
    assert_eq!(
        found(&run("/ids/.3,x")),
        one(Part::Request, "type", "path:ids")
    );
}

/// A segment of two parameters (`{name}.{ext}`) is split where their schemas take the values
/// (`a.b.tar.gz`: `a.b` and `tar.gz`), as the generated server reads it; one no split fits is
/// judged as the first split reads it.
#[test]
fn a_segment_of_two_parameters_is_split_where_their_schemas_say() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Archives, version: "1"}
paths:
  /archives/{name}.{ext}:
    get:
      parameters:
        - {name: name, in: path, required: true, schema: {type: string}}
        - {name: ext, in: path, required: true, schema: {type: string, enum: [zip, tar.gz]}}
      responses: {'204': {description: ok}}
"#,
    );
    for path in [
        "/archives/report.zip",
        "/archives/a.b.tar.gz",
        "/archives/v1.2.3.zip",
    ] {
        let outcome = check(
            &contract,
            &exchange("GET", path, None, 204, None),
            CheckOptions::default(),
        );
        assert_eq!(found(&outcome), vec![], "{path}");
    }
    let outcome = check(
        &contract,
        &exchange("GET", "/archives/a.rar", None, 204, None),
        CheckOptions::default(),
    );
    assert_eq!(found(&outcome), one(Part::Request, "enum", "path:ext"));
}

/// A body under a status that documents none (Swagger 2.0's `422` without a `schema`, a
/// response without `content`) is drift, and a warning in strict mode; not an error, as such
/// documents mostly leave those bodies undescribed rather than absent.
#[test]
fn a_body_where_the_status_documents_none_is_drift() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Bare, version: "1"}
paths:
  /zones:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: array}}}}
        '422': {description: Unprocessable}
        '204': {description: Nothing}
"#,
    );
    let answered = |status: u16, body: Option<Body>, content_type: &str| {
        let mut exchange = exchange("GET", "/zones", None, status, None);
        let response = exchange.response.as_mut().unwrap();
        response.headers = vec![("Content-Type".into(), content_type.into())];
        response.body = body;
        exchange
    };
    let json = answered(
        422,
        Some(Body::Json(json!({"error": "bad"}))),
        "application/json",
    );
    let html = answered(422, Some(Body::Text("<h1>oops</h1>".into())), "text/html");
    for exchange in [&json, &html] {
        let lenient = check(&contract, exchange, CheckOptions::default());
        assert_eq!(found(&lenient), vec![]);
        assert_eq!(lenient.drift.bodies.len(), 1);
        let strict = check(
            &contract,
            exchange,
            CheckOptions {
                strict: true,
                show_values: false,
            },
        );
        assert_eq!(found(&strict), one(Part::Response, "undocumented-body", ""));
        assert_eq!(strict.findings[0].severity, Severity::Warning);
    }
    let key = check(&contract, &html, CheckOptions::default())
        .drift
        .bodies
        .into_keys()
        .next()
        .unwrap();
    assert_eq!(
        (key.location.as_str(), key.value.as_deref()),
        ("422", Some("text/html"))
    );
    // No body, or a status that cannot carry one: nothing.
    for exchange in [
        answered(422, None, "application/json"),
        answered(204, None, ""),
    ] {
        let strict = check(
            &contract,
            &exchange,
            CheckOptions {
                strict: true,
                show_values: false,
            },
        );
        assert_eq!(found(&strict), vec![]);
        assert!(strict.drift.bodies.is_empty());
    }
}

/// `dependentRequired` is named as itself, not as `required` (which the schema's `required`
/// does not list), and an item beyond a tuple's `prefixItems` under `items: false` is told
/// as one, not as a bare `false` schema.
#[test]
fn dependent_required_and_closed_tuples_are_named_as_their_rules() {
    let contract = one_body_contract(
        "/pay",
        " {type: object, properties: {card: {type: string}, cvv: {type: string}, \
         coords: {type: array, prefixItems: [{type: number}, {type: number}], items: false}}, \
         dependentRequired: {card: [cvv]}}",
    );
    let sent = |body: Value| {
        let outcome = check(
            &contract,
            &exchange("POST", "/pay", Some(body), 204, None),
            CheckOptions::default(),
        );
        let messages: Vec<String> = outcome.findings.iter().map(|f| f.message.clone()).collect();
        (found(&outcome), messages)
    };
    let (rules, messages) = sent(json!({"card": "4111"}));
    assert_eq!(rules, one(Part::Request, "dependentRequired", ""));
    assert!(
        messages[0].contains("\"cvv\" is required by dependentRequired"),
        "{messages:?}"
    );
    assert_eq!(sent(json!({"card": "4111", "cvv": "123"})).0, vec![]);
    let (rules, messages) = sent(json!({"coords": [1, 2, 3]}));
    assert_eq!(rules, one(Part::Request, "falseSchema", "/coords/2"));
    assert!(
        messages[0].starts_with("item 2 is not allowed"),
        "{messages:?}"
    );
    assert_eq!(sent(json!({"coords": [1, 2]})).0, vec![]);
}

/// Several notifications delivered at one path (events of several kinds at one URL): a
/// payload is checked as the one it is, and one that fits none as the one it breaks least,
/// whose checks name the member that is wrong.
#[test]
fn a_payload_at_a_path_of_several_notifications_is_checked_as_the_closest() {
    let contract = contract_of(
        r#"
openapi: 3.1.0
info: {title: Events, version: "1"}
paths: {}
webhooks:
  payment:
    post:
      x-delivery-path: /events
      requestBody:
        required: true
        content:
          application/json:
            schema:
              oneOf:
                - {type: object, required: [kind, paymentId], properties: {kind: {const: succeeded}, paymentId: {type: string}}}
                - {type: object, required: [kind, paymentId], properties: {kind: {const: failed}, paymentId: {type: string}}}
      responses: {'200': {description: ok}}
  paid:
    post:
      x-delivery-path: /events
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [type, amount], properties: {type: {const: paid}, amount: {type: integer}}}
      responses: {'200': {description: ok}}
  refunded:
    post:
      x-delivery-path: /events
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [type, reason], properties: {type: {const: refunded}, reason: {type: string}}}
      responses: {'200': {description: ok}}
"#,
    );
    let delivered = |payload: Value| {
        let mut exchange = exchange("POST", "/events", Some(payload), 200, None);
        exchange.request.headers = vec![("Content-Type".into(), "application/json".into())];
        exchange.response = None;
        check(&contract, &exchange, CheckOptions::default())
    };
    let refund = delivered(json!({"type": "refunded", "reason": "late"}));
    assert_eq!(found(&refund), vec![]);
    assert_eq!(refund.operation.as_deref(), Some("refunded"));
    let broken = delivered(json!({"type": "refunded", "reason": 5}));
    assert_eq!(broken.operation.as_deref(), Some("refunded"));
    assert_eq!(found(&broken), one(Part::Notification, "type", "/reason"));
    // The payment's `oneOf`, listed first, fails the broken refund as one rule too, as the
    // refund's schema does: the members it does not know tell them apart.
    let payment = delivered(json!({"kind": "failed", "paymentId": "p1"}));
    assert_eq!(payment.operation.as_deref(), Some("payment"));
    assert_eq!(found(&payment), vec![]);
}

/// Zero bytes sent as the documented binary media type are an empty upload (an empty file),
/// as the generated client sends and server take one, and an empty download likewise;
/// without a Content-Type, no body.
#[test]
fn an_empty_upload_with_its_media_type_is_a_body() {
    let contract = contract_of(
        r#"
openapi: 3.1.0
info: {title: Uploads, version: "1"}
paths:
  /files:
    post:
      requestBody:
        required: true
        content:
          application/octet-stream: {schema: {type: string, format: binary}}
      responses: {'204': {description: stored}}
    get:
      responses:
        '200':
          description: the file
          content:
            application/octet-stream: {schema: {type: string, format: binary}}
"#,
    );
    // The same goes for a download: an empty file is a body of its media type.
    let answered = |content_type: Option<&str>| {
        let mut exchange = exchange("GET", "/files", None, 200, None);
        let response = exchange.response.as_mut().unwrap();
        response.body = Some(Body::Binary(Vec::new()));
        response.headers = content_type
            .map(|media| vec![("Content-Type".to_string(), media.to_string())])
            .unwrap_or_default();
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    assert_eq!(answered(Some("application/octet-stream")), vec![]);
    assert_eq!(answered(None), one(Part::Response, "required", ""));
    assert_eq!(
        answered(Some("text/plain")),
        one(Part::Response, "content-type", "header:content-type")
    );
    let sent = |content_type: Option<&str>| {
        let mut exchange = exchange("POST", "/files", None, 204, None);
        exchange.request.body = Some(Body::Binary(Vec::new()));
        exchange.request.headers = content_type
            .map(|media| vec![("Content-Type".to_string(), media.to_string())])
            .unwrap_or_default();
        found(&check(&contract, &exchange, CheckOptions::default()))
    };
    assert_eq!(sent(Some("application/octet-stream")), vec![]);
    assert_eq!(sent(None), one(Part::Request, "required", ""));
    assert_eq!(
        sent(Some("text/plain")),
        one(Part::Request, "content-type", "header:content-type")
    );
}

/// `--host` names the API's hosts: a browser recording's call to another one (an analytics
/// beacon under `/v1`, a third party's API) is not the API's and is passed over, where by its
/// path alone it was an unknown operation; without `--host`, or when the recording names no
/// host, every host counts. The host of an absolute URL counts before a `Host` header, as a
/// server reads a request in absolute form: a hand-written record often has the URL alone.
#[test]
fn requests_to_other_hosts_than_the_apis_are_not_its_calls() {
    let beacon = |host: Option<&str>| {
        let mut exchange = exchange("POST", "/v1/t", Some(json!({"event": "view"})), 200, None);
        exchange.request.headers = vec![("Content-Type".into(), "application/json".into())];
        if let Some(host) = host {
            exchange
                .request
                .headers
                .push((":authority".into(), host.into()));
        }
        exchange
    };
    let lenient = run(&beacon(Some("api.segment.io")));
    assert_eq!(found(&lenient), one(Part::Entry, "operation-path", ""));
    let mut hosted = Contract::embedded().unwrap();
    hosted.add_api_hosts(&["https://api.example.com".to_string()]);
    let passed = check(
        &hosted,
        &beacon(Some("api.segment.io")),
        CheckOptions::default(),
    );
    assert!(passed.not_api && passed.findings.is_empty(), "{passed:?}");
    for host in [Some("API.example.com:443"), None] {
        let judged = check(&hosted, &beacon(host), CheckOptions::default());
        assert!(!judged.not_api, "{host:?}");
        assert_eq!(
            found(&judged),
            one(Part::Entry, "operation-path", ""),
            "{host:?}"
        );
    }
    let addressed = |authority: &str, host: Option<&str>| {
        let mut exchange = beacon(None);
        exchange.request.authority = Some(authority.into());
        if let Some(host) = host {
            exchange.request.headers.push(("Host".into(), host.into()));
        }
        check(&hosted, &exchange, CheckOptions::default())
    };
    let elsewhere = addressed("api.segment.io", None);
    assert!(
        elsewhere.not_api && elsewhere.findings.is_empty(),
        "{elsewhere:?}"
    );
    let ours = addressed("api.example.com", Some("api.segment.io"));
    assert!(!ours.not_api, "{ours:?}");
    assert_eq!(found(&ours), one(Part::Entry, "operation-path", ""));
}

/// A query parameter whose schema is a union with an object alternative (Stripe's `created`:
/// an object of bounds or an integer; OpenAPI 3.0's nullable object, `anyOf` with `null`) is
/// read from its members as a plain object parameter is. Before, its members were never read:
/// `created[gte]=yesterday` passed, and a nullable object's exploded members were undocumented
/// parameters.
#[test]
fn a_union_parameter_with_an_object_alternative_is_read_from_its_members() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Ranges, version: "1"}
paths:
  /charges:
    get:
      parameters:
        - name: created
          in: query
          style: deepObject
          explode: true
          schema:
            anyOf:
              - {$ref: '#/components/schemas/Range'}
              - {type: integer}
        - name: page
          in: query
          schema:
            type: object
            nullable: true
            properties: {size: {type: integer}, after: {type: string}}
      responses: {'200': {description: ok}}
components:
  schemas:
    Range:
      type: object
      properties: {gt: {type: integer}, gte: {type: integer}}
"#,
    );
    let run = |query: &[(&str, &str)]| {
        let mut listed = exchange("GET", "/charges", None, 200, None);
        listed.request.query = query
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let strict = CheckOptions {
            strict: true,
            ..CheckOptions::default()
        };
        check(&contract, &listed, strict)
    };
    // Members of the right types, and the integer alternative whole.
    assert_eq!(
        found(&run(&[("created[gte]", "5"), ("size", "10")])),
        vec![]
    );
    assert_eq!(found(&run(&[("created", "1700000000")])), vec![]);
    // A member of the wrong type fits no alternative.
    let wrong = run(&[("created[gte]", "yesterday")]);
    assert_eq!(found(&wrong), one(Part::Request, "anyOf", "query:created"));
    // A number that is not whole is nearest the integer alternative, which the message names.
    let fraction = run(&[("created", "1.5")]);
    assert_eq!(
        found(&fraction),
        one(Part::Request, "anyOf", "query:created")
    );
    let message = &fraction.findings[0].message;
    assert!(message.contains("closest is anyOf/1"), "{message}");
    // The nullable object's exploded member is read and judged, not called undocumented.
    let wrong = run(&[("size", "ten")]);
    assert_eq!(found(&wrong), one(Part::Request, "type", "query:page/size"));
    // Sent with brackets instead (PandaScore's own examples write `page[size]=1` for a
    // `form` object), its members are read by them and judged; they had passed unread.
    assert_eq!(found(&run(&[("page[size]", "10")])), vec![]);
    assert_eq!(
        found(&run(&[("page[size]", "ten")])),
        one(Part::Request, "type", "query:page/size")
    );
}

/// Zero bytes sent with the documented Content-Type are a body, as the generated server takes
/// one: an empty text is judged by its schema (`minLength: 1` refuses it; it passed), and an
/// empty form is a form of no fields (what the generated client sends for `{}`; it was told
/// missing), which its schema judges too. Without a Content-Type, zero bytes are no body.
#[test]
fn an_empty_text_or_form_sent_as_documented_is_a_body_its_schema_judges() {
    let contract = contract_of(
        r#"
openapi: 3.1.0
info: {title: Empty, version: "1"}
paths:
  /password:
    put:
      requestBody:
        required: true
        content: {text/plain: {schema: {type: string, minLength: 1}}}
      responses: {'204': {description: ok}}
  /tokens:
    post:
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema: {type: object, properties: {scope: {type: string}}}
      responses: {'204': {description: ok}}
  /grants:
    post:
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema: {type: object, required: [code], properties: {code: {type: string}}}
      responses: {'204': {description: ok}}
"#,
    );
    let run = |method: &str, path: &str, content_type: Option<&str>| {
        let mut sent = exchange(method, path, None, 204, None);
        sent.request.body = Some(Body::Text(String::new()));
        sent.request
            .headers
            .retain(|(name, _)| !name.eq_ignore_ascii_case("content-type"));
        if let Some(content_type) = content_type {
            sent.request
                .headers
                .push(("content-type".into(), content_type.into()));
        }
        found(&check(&contract, &sent, CheckOptions::default()))
    };
    assert_eq!(
        run("PUT", "/password", Some("text/plain")),
        one(Part::Request, "minLength", "")
    );
    assert_eq!(
        run("POST", "/tokens", Some("application/x-www-form-urlencoded")),
        vec![]
    );
    assert_eq!(
        run("POST", "/grants", Some("application/x-www-form-urlencoded")),
        one(Part::Request, "required", "")
    );
    assert_eq!(
        run("POST", "/tokens", None),
        one(Part::Request, "required", "")
    );
    // Bytes that are not UTF-8 are no text (the generated server refuses them), unless the
    // Content-Type names another charset.
    let latin = |content_type: &str| {
        let mut sent = exchange("PUT", "/password", None, 204, None);
        sent.request.body = Some(Body::Binary(vec![0xff; 20]));
        sent.request
            .headers
            .retain(|(name, _)| !name.eq_ignore_ascii_case("content-type"));
        sent.request
            .headers
            .push(("content-type".into(), content_type.into()));
        found(&check(&contract, &sent, CheckOptions::default()))
    };
    assert_eq!(latin("text/plain"), one(Part::Request, "type", ""));
    assert_eq!(latin("text/plain; charset=ISO-8859-1"), vec![]);
}

/// A path value whose percent-encoding is no UTF-8 (`%C3%28`) is refused, as the generated
/// server refuses it; it read as U+FFFD and passed. A real U+FFFD, sent encoded, is a value.
#[test]
fn a_path_value_that_is_no_utf_8_is_a_finding() {
    let contract = contract_of(
        r#"
openapi: 3.1.0
info: {title: Things, version: "1"}
paths:
  /things/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {'204': {description: ok}}
"#,
    );
    let run = |path: &str| {
        let sent = exchange("GET", path, None, 204, None);
        found(&check(&contract, &sent, CheckOptions::default()))
    };
    assert_eq!(run("/things/%C3%28"), one(Part::Request, "type", "path:id"));
    assert_eq!(run("/things/%EF%BF%BD"), vec![]);
    assert_eq!(run("/things/caf%C3%A9"), vec![]);
}

/// Three constructs of real documents (probe 65: Docker's HEAD, intellifi's `Blob`, an image
/// download): a documented HEAD's answer has no body, though its 404 documents one (RFC 9110
/// 9.3.2); a member that `required` names and no `properties` describes is documented, so
/// `--strict` does not call it drift; and JSON sent where `image/*` is documented is the
/// wrong media type alone, not also a wrong image.
#[test]
fn heads_required_only_members_and_json_outside_a_range() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Files, version: "1"}
paths:
  /files/{id}:
    head:
      operationId: fileInfo
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: there}
        '404':
          description: gone
          content: {application/json: {schema: {type: object, properties: {message: {type: string}}}}}
    get:
      operationId: getBlob
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: the blob
          content:
            application/json:
              schema: {type: object, required: [key], properties: {size: {type: integer}}}
  /images/{id}:
    get:
      operationId: getImage
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: the image
          content: {'image/*': {schema: {type: string, format: binary}}}
"#,
    );
    let strict = CheckOptions {
        strict: true,
        show_values: false,
    };
    let judged = |method: &str, path: &str, status: u16, body: Option<(&str, &str)>| {
        check(
            &contract,
            &media_exchange(method, path, None, status, body),
            strict,
        )
    };
    let head = judged("HEAD", "/files/a", 404, None);
    assert_eq!(head.operation.as_deref(), Some("fileInfo"));
    assert_eq!(found(&head), vec![]);
    // The GET of the same path still wants its documented body.
    let blob = r#"{"key": "k1", "size": 3}"#;
    assert_eq!(
        found(&judged(
            "GET",
            "/files/a",
            200,
            Some(("application/json", blob))
        )),
        vec![]
    );
    let drifted = r#"{"key": "k1", "size": 3, "owner": "x"}"#;
    assert_eq!(
        found(&judged(
            "GET",
            "/files/a",
            200,
            Some(("application/json", drifted))
        )),
        one(Part::Response, "undocumented-property", "/owner")
    );
    assert_eq!(
        found(&judged(
            "GET",
            "/files/a",
            200,
            Some(("application/json", r#"{"size": 3}"#))
        )),
        one(Part::Response, "required", "")
    );
    for sent in ["application/json", "text/plain"] {
        assert_eq!(
            found(&judged(
                "GET",
                "/images/a",
                200,
                Some((sent, r#"{"error": "x"}"#))
            )),
            one(Part::Response, "content-type", "header:content-type"),
            "{sent}"
        );
    }
    assert_eq!(
        found(&judged("GET", "/images/a", 200, Some(("image/png", "PNG")))),
        vec![]
    );
}

/// Operations of one method whose paths differ only in their parameters' names are one
/// route (Xero's `/Contacts/{ContactID}` and `/Contacts/{ContactNumber}`; Azure's
/// `/{roleAssignmentId}` and `/{roleDefinitionId}#disambiguation_dummy`): an exchange keeps
/// the contract when it keeps one of them, read by that one's names, and under `--strict` the
/// one it keeps without drift is the one it is checked as (probe 71).
#[test]
fn paths_differing_only_in_parameter_names_are_one_route() {
    let contract = contract_of(
        r#"
openapi: 3.0.3
info: {title: Contacts, version: "1"}
paths:
  /contacts/{contactId}:
    get:
      operationId: getContact
      parameters: [{name: contactId, in: path, required: true, schema: {type: string, format: uuid}}]
      responses:
        '200':
          description: the contact
          content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}
  /contacts/{contactNumber}:
    get:
      operationId: getContactByNumber
      parameters: [{name: contactNumber, in: path, required: true, schema: {type: string, maxLength: 6}}]
      responses:
        '200':
          description: the contact
          content: {application/json: {schema: {type: object, properties: {number: {type: string}}}}}
"#,
    );
    let strict = CheckOptions {
        strict: true,
        show_values: false,
    };
    let judged = |path: &str, body: &str| {
        check(
            &contract,
            &media_exchange("GET", path, None, 200, Some(("application/json", body))),
            strict,
        )
    };
    let by_id = judged(
        "/contacts/6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b",
        r#"{"id": "c1"}"#,
    );
    assert_eq!(found(&by_id), vec![]);
    assert_eq!(by_id.operation.as_deref(), Some("getContact"));
    let by_number = judged("/contacts/CN-12", r#"{"number": "CN-12"}"#);
    assert_eq!(found(&by_number), vec![]);
    assert_eq!(by_number.operation.as_deref(), Some("getContactByNumber"));
    // A number too long for the one and no UUID for the other breaks both: reported as the
    // first, by its own parameter's name.
    let neither = judged("/contacts/CN-1234567", r#"{"number": "x"}"#);
    assert!(
        found(&neither)
            .iter()
            .any(|(part, rule, pointer)| *part == Part::Request
                && rule == "format"
                && pointer == "path:contactId"),
        "{:?}",
        found(&neither)
    );
}

/// Azure's scope, written as it is (`x-ms-skip-url-encoding`): one parameter filling as many
/// segments as its value has, checked by its own schema as the whole value, the operation's
/// other rules as usual, and a template naming its segments preferred where both fit.
#[test]
fn a_parameter_written_as_it_is_fills_several_segments() {
    let contract = contract_of(
        r#"
openapi: 3.0.1
info: {title: Authorization, version: "1"}
servers: [{url: "https://management.azure.com"}]
paths:
  /{scope}/providers/Microsoft.Authorization/roleAssignments/{roleAssignmentName}:
    get:
      operationId: getRoleAssignment
      parameters:
        - {name: scope, in: path, required: true, x-ms-skip-url-encoding: true, schema: {type: string, pattern: "^subscriptions/"}}
        - {name: roleAssignmentName, in: path, required: true, schema: {type: string, maxLength: 8}}
        - {name: api-version, in: query, required: true, schema: {type: string, enum: ["2022-04-01"]}}
      responses:
        '200':
          description: the assignment
          content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}
  /subscriptions/{subscriptionId}/providers/Microsoft.Authorization/roleAssignments/{name}:
    get:
      operationId: getSubscriptionRoleAssignment
      parameters:
        - {name: subscriptionId, in: path, required: true, schema: {type: string}}
        - {name: name, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: the assignment
          content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}
"#,
    );
    let judged = |target: &str| {
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        let mut exchange = media_exchange(
            "GET",
            path,
            None,
            200,
            Some(("application/json", r#"{"id": "x"}"#)),
        );
        exchange.request.query = form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect();
        check(&contract, &exchange, CheckOptions::default())
    };
    let assignments = "providers/Microsoft.Authorization/roleAssignments";
    let deep = judged(&format!(
        "/subscriptions/1/resourceGroups/g%20h/{assignments}/r1?api-version=2022-04-01"
    ));
    assert_eq!(found(&deep), vec![]);
    assert_eq!(deep.operation.as_deref(), Some("getRoleAssignment"));
    // The scope is judged whole: its pattern sees `tenants/…`.
    let tenant = judged(&format!(
        "/tenants/1/{assignments}/r1?api-version=2022-04-01"
    ));
    assert_eq!(
        found(&tenant),
        one(Part::Request, "pattern", "path:scope"),
        "{:?}",
        tenant.findings
    );
    let long = judged(&format!(
        "/subscriptions/1/{assignments}/r1/{assignments}/far-too-long?api-version=2022-04-01"
    ));
    assert_eq!(
        long.operation.as_deref(),
        Some("getRoleAssignment"),
        "the scope takes `subscriptions/1/providers/…/r1`"
    );
    assert_eq!(
        found(&long),
        one(Part::Request, "maxLength", "path:roleAssignmentName")
    );
    // Where a template naming its segments fits, it is the operation.
    let named = judged(&format!("/subscriptions/1/{assignments}/r1"));
    assert_eq!(
        named.operation.as_deref(),
        Some("getSubscriptionRoleAssignment")
    );
    assert_eq!(found(&named), vec![]);
    // The scope fills one segment at least, and names no other path by a dot segment.
    for path in [
        format!("/{assignments}/r1?api-version=2022-04-01"),
        format!("/subscriptions/1/../2/{assignments}/r1?api-version=2022-04-01"),
        format!("/subscriptions%2F..%2F2/{assignments}/r1?api-version=2022-04-01"),
        format!("/%2E%2E/{assignments}/r1?api-version=2022-04-01"),
    ] {
        let none = judged(&path);
        assert_eq!(none.operation, None, "{path}");
        assert!(!found(&none).is_empty(), "{path}");
    }
}

/// A file documented in any media type (`*/*` holding `format: binary`, Apicurio's artifacts)
/// is bytes: a JSON file downloaded is not judged as a JSON string. And where `*/*` is listed
/// before a JSON media type, the JSON type's schema is the one a JSON body is judged by.
#[test]
fn a_file_in_any_media_type_is_bytes_and_json_is_judged_by_its_own_schema() {
    let contract = contract_of(
        r##"
openapi: 3.0.2
info: {title: Artifacts, version: "1"}
components:
  schemas:
    File: {type: string, format: binary}
paths:
  /files/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: the file, in the media type it was stored in
          content: {"*/*": {schema: {type: string, format: binary}}}
  /blobs/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: a file, by a component
          content: {"*/*": {schema: {$ref: "#/components/schemas/File"}}}
  /things/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: a thing, as Swagger 2.0 documents produce any media type
          content: {"*/*": {schema: {type: object, required: [id], properties: {id: {type: string}}}}}
    put:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      requestBody:
        required: true
        content: {"*/*": {schema: {type: object, required: [id], properties: {id: {type: string}}}}}
      responses:
        '204': {description: replaced}
  /artifacts:
    post:
      requestBody:
        required: true
        content:
          "*/*": {schema: {type: string, format: binary}}
          application/create.extended+json:
            schema:
              type: object
              required: [content, references]
              properties:
                content: {type: string}
                references: {type: array, items: {type: string}}
      responses:
        '204': {description: created}
"##,
    );
    let run = |exchange: Exchange| found(&check(&contract, &exchange, CheckOptions::default()));
    let json_file = r#"{"openapi": "3.0.0", "paths": {}}"#;
    for path in ["/files/a1", "/blobs/a1"] {
        assert_eq!(
            run(media_exchange(
                "GET",
                path,
                None,
                200,
                Some(("application/json", json_file))
            )),
            vec![],
            "{path}"
        );
    }
    // An object documented under `*/*` is still JSON, judged by its schema.
    assert_eq!(
        run(media_exchange(
            "GET",
            "/things/t1",
            None,
            200,
            Some(("application/json", r#"{"name": "x"}"#))
        )),
        one(Part::Response, "required", "")
    );
    // So is a request's, as Kubernetes documents every create and replace: sent as JSON, or
    // with no media type, it is judged; text under the range is text.
    let replace = |media: &str, body: &str| {
        let mut exchange = media_exchange("PUT", "/things/t1", Some((media, body)), 204, None);
        exchange.response.as_mut().unwrap().body = None;
        if media.is_empty() {
            exchange.request.headers.clear();
        }
        run(exchange)
    };
    assert_eq!(replace("application/json", r#"{"id": "t1"}"#), vec![]);
    for media in ["application/json", "application/merge-patch+json"] {
        assert_eq!(
            replace(media, r#"{"name": "x"}"#),
            one(Part::Request, "required", ""),
            "{media}"
        );
    }
    // Without a Content-Type, which a body should carry (RFC 9110, 8.3), it is read as JSON.
    assert_eq!(
        replace("", r#"{"name": "x"}"#),
        vec![
            (
                Part::Request,
                "content-type".into(),
                "header:content-type".into()
            ),
            (Part::Request, "required".into(), "".into())
        ]
    );
    assert_eq!(replace("text/plain", r#"{"name": "x"}"#), vec![]);
    let create = |body: &str| {
        let mut exchange = media_exchange(
            "POST",
            "/artifacts",
            Some(("application/create.extended+json", body)),
            204,
            None,
        );
        exchange.response.as_mut().unwrap().body = None;
        run(exchange)
    };
    assert_eq!(create(r#"{"content": "x", "references": ["a"]}"#), vec![]);
    assert_eq!(
        create(r#"{"content": "x"}"#),
        one(Part::Request, "required", "")
    );
}

/// Azure's twin lookups by id, `GET /{roleAssignmentId}` and
/// `GET /{roleDefinitionId}#disambiguation_dummy`, both written as they are: a role
/// definition is checked as the operation it keeps without a finding, under `--strict` too.
#[test]
fn twin_paths_of_parameters_written_as_they_are_are_one_route() {
    let contract = contract_of(
        r##"
openapi: 3.0.0
info: {title: twin, version: "1"}
paths:
  /{roleAssignmentId}:
    get:
      operationId: getAssignmentById
      parameters: [{name: roleAssignmentId, in: path, required: true, x-ms-skip-url-encoding: true, schema: {type: string}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, properties: {kind: {type: string, enum: [assignment]}}}}}}
  /{roleDefinitionId}#disambiguation_dummy:
    get:
      operationId: getDefinitionById
      parameters: [{name: roleDefinitionId, in: path, required: true, x-ms-skip-url-encoding: true, schema: {type: string}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, properties: {kind: {type: string, enum: [definition]}}}}}}
"##,
    );
    let strict = CheckOptions {
        strict: true,
        show_values: false,
    };
    let path = "/providers/Microsoft.Authorization/roleDefinitions/rd1";
    let judged = |kind: &str| {
        check(
            &contract,
            &media_exchange(
                "GET",
                path,
                None,
                200,
                Some(("application/json", &format!(r#"{{"kind": "{kind}"}}"#))),
            ),
            strict,
        )
    };
    let definition = judged("definition");
    assert_eq!(found(&definition), vec![]);
    assert_eq!(definition.operation.as_deref(), Some("getDefinitionById"));
    let assignment = judged("assignment");
    assert_eq!(found(&assignment), vec![]);
    assert_eq!(assignment.operation.as_deref(), Some("getAssignmentById"));
}

/// Google's documents, converted from discovery documents that wrote `{+name}`, give `name` one
/// segment; real traffic sends `/v1/projects/p/locations/l`. Such a request breaks OpenAPI's
/// rule (no unescaped `/` in a path parameter), and is judged as the operation it meant, not
/// as a path of none.
#[test]
fn a_parameter_holding_a_slash_its_template_forbids_is_named_with_its_operation() {
    let contract = contract_of(
        r#"
openapi: 3.0.0
info: {title: File, version: v1}
servers: [{url: "https://file.googleapis.com/"}]
paths:
  /v1/{name}:
    get:
      operationId: getInstance
      parameters:
        - {name: name, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: the instance
          content: {application/json: {schema: {type: object, properties: {name: {type: string}, tier: {type: string, enum: [BASIC, ENTERPRISE]}}}}}
  /v1/{name}:cancel:
    post:
      operationId: cancelOperation
      parameters:
        - {name: name, in: path, required: true, schema: {type: string}}
      responses:
        '200': {description: cancelled, content: {application/json: {schema: {type: object}}}}
  /v1/{parent}/instances:
    get:
      operationId: listInstances
      parameters:
        - {name: parent, in: path, required: true, schema: {type: string}}
        - {name: pageSize, in: query, schema: {type: integer}}
      responses:
        '200': {description: the list, content: {application/json: {schema: {type: object}}}}
  /v1/files/{fileId}:
    get:
      operationId: getFile
      parameters:
        - {name: fileId, in: path, required: true, schema: {type: integer}}
      responses:
        '200': {description: the file, content: {application/json: {schema: {type: object}}}}
"#,
    );
    let judged = |method: &str, path: &str, body: &str| {
        let exchange = media_exchange(method, path, None, 200, Some(("application/json", body)));
        check(&contract, &exchange, CheckOptions::default())
    };
    let slash = |name: &str| one(Part::Request, "unescaped-slash", &format!("path:{name}"));
    // The resource's name, its slashes as Google's clients send them.
    let get = judged(
        "GET",
        "/v1/projects/p/locations/us-central1/instances/i",
        r#"{"name": "x", "tier": "BASIC"}"#,
    );
    assert_eq!(get.operation.as_deref(), Some("getInstance"));
    assert_eq!(found(&get), slash("name"), "{:?}", get.findings);
    assert!(
        get.findings[0].message.contains("GET /v1/{name}"),
        "{}",
        get.findings[0].message
    );
    // The rest of the exchange is judged as that operation's.
    let wrong = judged(
        "GET",
        "/v1/projects/p/locations/l/instances/i",
        r#"{"tier": "PREMIUM"}"#,
    );
    let mut rules: Vec<String> = wrong.findings.iter().map(|f| f.rule.to_string()).collect();
    rules.sort();
    assert_eq!(rules, ["enum", "unescaped-slash"]);
    // The most literal template wins: the collection, then the custom method after `:`.
    let list = judged("GET", "/v1/projects/p/locations/l/instances", "{}");
    assert_eq!(list.operation.as_deref(), Some("listInstances"));
    assert_eq!(found(&list), slash("parent"));
    let cancel = judged("POST", "/v1/projects/p/operations/o:cancel", "{}");
    assert_eq!(cancel.operation.as_deref(), Some("cancelOperation"));
    assert_eq!(found(&cancel), slash("name"));
    // Sent as OpenAPI says, `%2F`, it keeps the contract.
    let encoded = judged("GET", "/v1/projects%2Fp%2Flocations%2Fl", "{}");
    assert_eq!(encoded.operation.as_deref(), Some("getInstance"));
    assert_eq!(found(&encoded), vec![]);
    // A method the operation does not have is still that, and a path that fits no template
    // even so is still unknown.
    let delete = judged("DELETE", "/v1/projects/p", "{}");
    assert_eq!(found(&delete), one(Part::Entry, "operation-method", ""));
    let unknown = judged("GET", "/v2/projects/p", "{}");
    assert_eq!(found(&unknown), one(Part::Entry, "operation-path", ""));
    // A dot segment names no resource; a trailing `/` or an empty segment makes another
    // path, not a longer name.
    for path in [
        "/v1/projects/../secrets",
        "/v1/projects/p/",
        "/v1/projects//p",
        "/v1/projects/p/instances/",
    ] {
        let other = judged("GET", path, "{}");
        assert_eq!(
            found(&other),
            one(Part::Entry, "operation-path", ""),
            "{path}"
        );
    }
    // Only a name right after the version spans: deeper, a longer path is another resource
    // (Azure's `…/capacities/x/diagnosticSettings`), which no operation has.
    let deeper = judged("GET", "/v1/files/abc/versions", "{}");
    assert_eq!(found(&deeper), one(Part::Entry, "operation-path", ""));
    // The finding is filed under the operation, as every finding of its exchange.
    assert_eq!(get.findings[0].operation.as_deref(), Some("getInstance"));
    // A literal template that fits as written comes first; its own rules judge it.
    let file = judged("GET", "/v1/files/abc", "{}");
    assert_eq!(file.operation.as_deref(), Some("getFile"));
    assert_eq!(found(&file), one(Part::Request, "type", "path:fileId"));
}

/// A bearer token may travel as the query parameter `access_token` (RFC 6750, 2.3; Google's
/// documents declare it on every operation); two OAuth 2 schemes required together lack one
/// `Authorization`, said once; where an operation documents 403 and no 401 (AWS), a 403 is
/// the documented refusal of a request without credentials.
#[test]
fn bearer_tokens_in_the_query_and_documented_refusals_of_other_apis() {
    let contract = contract_of(
        r#"
openapi: 3.0.0
info: {title: Games, version: v1}
servers: [{url: "https://games.googleapis.com/"}]
components:
  securitySchemes:
    Oauth2: {type: oauth2, flows: {implicit: {authorizationUrl: "https://a.example/auth", scopes: {}}}}
    Oauth2c: {type: oauth2, flows: {authorizationCode: {authorizationUrl: "https://a.example/auth", tokenUrl: "https://a.example/token", scopes: {}}}}
    sigv4: {type: apiKey, in: header, name: Authorization}
paths:
  /games/v1/players/me:
    get:
      operationId: getPlayer
      security: [{Oauth2: [], Oauth2c: []}]
      responses:
        '200': {description: the player, content: {application/json: {schema: {type: object}}}}
  /clusters:
    get:
      operationId: listClusters
      security: [{sigv4: []}]
      responses:
        '200': {description: the clusters, content: {application/json: {schema: {type: object}}}}
        '403': {description: refused, content: {application/json: {schema: {type: object}}}}
"#,
    );
    let judged = |path: &str, query: &[(&str, &str)], status: u16| {
        let mut exchange =
            media_exchange("GET", path, None, status, Some(("application/json", "{}")));
        exchange.request.headers.clear();
        exchange.request.query = query
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        check(&contract, &exchange, CheckOptions::default())
    };
    let player = "/games/v1/players/me";
    assert_eq!(
        found(&judged(player, &[("access_token", "ya29.a0")], 200)),
        vec![]
    );
    assert_eq!(
        found(&judged(player, &[("oauth_token", "ya29.a0")], 200)),
        vec![]
    );
    // A token in the query is documented by the scheme that takes it: no strict warning.
    let mut in_query = media_exchange("GET", player, None, 200, Some(("application/json", "{}")));
    in_query.request.headers.clear();
    in_query.request.query = vec![("access_token".into(), "ya29.a0".into())];
    let strict = CheckOptions {
        strict: true,
        show_values: false,
    };
    let outcome = check(&contract, &in_query, strict);
    assert_eq!(found(&outcome), vec![]);
    assert!(outcome.drift.is_empty());
    let blank = judged(player, &[("access_token", " ")], 200);
    assert_eq!(found(&blank), one(Part::Response, "credentials", ""));
    assert_eq!(
        blank.findings[0].message,
        "the request lacks the credential authorization but was answered 200, not 401"
    );
    // A scheme word alone is said to be that, not a credential in another scheme.
    let mut word_alone = media_exchange("GET", player, None, 200, Some(("application/json", "{}")));
    word_alone.request.headers = vec![("Authorization".into(), "Bearer ".into())];
    let outcome = check(&contract, &word_alone, CheckOptions::default());
    assert_eq!(
        outcome.findings[0].message,
        "the request lacks authorization (authorization held a scheme word and no credential) \
         but was answered 200, not 401"
    );
    // An API key named Authorization is no bearer token.
    let clusters = judged("/clusters", &[("access_token", "t")], 200);
    assert_eq!(found(&clusters), one(Part::Response, "credentials", ""));
    // Documented 403, no 401: the refusal it documents. Undocumented, still not 401.
    assert_eq!(found(&judged("/clusters", &[], 403)), vec![]);
    let undocumented = found(&judged(player, &[], 403));
    assert!(
        undocumented.contains(&(Part::Response, "credentials".to_string(), String::new())),
        "{undocumented:?}"
    );
    // No 401 documented (Google's operations document 200 alone): the 401 its security
    // implies keeps the contract, with or without a token (an expired one), while a 404 to
    // a request without one is still no refusal, and the 403 above still not the 401.
    assert_eq!(found(&judged(player, &[], 401)), vec![]);
    assert_eq!(
        found(&judged(player, &[("access_token", "ya29.expired")], 401)),
        vec![]
    );
    let not_found = found(&judged(player, &[], 404));
    assert!(
        not_found.contains(&(Part::Response, "credentials".to_string(), String::new()))
            && not_found.contains(&(
                Part::Response,
                "status-documented".to_string(),
                String::new()
            )),
        "{not_found:?}"
    );
}

/// An operation without security documents its answers alone: a 401 there is undocumented.
#[test]
fn a_401_from_an_operation_without_security_is_an_undocumented_status() {
    let contract = one_body_contract("/ping", "\n              type: object");
    let exchange = media_exchange("POST", "/ping", Some(("application/json", "{}")), 401, None);
    assert_eq!(
        found(&check(&contract, &exchange, CheckOptions::default())),
        one(Part::Response, "status-documented", "")
    );
}

/// eBay writes every server as `https://api.ebay.com{basePath}`, the variable glued to the
/// host and its default the path: the operations are under that path, not at `/`.
#[test]
fn a_server_variable_glued_to_the_host_is_the_base_path_its_default_gives() {
    let contract = contract_of(
        r#"
openapi: 3.0.0
info: {title: Metadata, version: v1}
servers:
  - url: "https://api.ebay.com{basePath}"
    variables:
      basePath: {default: /sell/metadata/v1}
paths:
  /marketplace/{marketplace_id}/get_item_condition_policies:
    get:
      operationId: getItemConditionPolicies
      parameters:
        - {name: marketplace_id, in: path, required: true, schema: {type: string}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object}}}}
"#,
    );
    let judged = |path: &str| {
        let exchange = media_exchange("GET", path, None, 200, Some(("application/json", "{}")));
        check(&contract, &exchange, CheckOptions::default())
    };
    let under = judged("/sell/metadata/v1/marketplace/EBAY_US/get_item_condition_policies");
    assert_eq!(found(&under), vec![]);
    assert_eq!(under.operation.as_deref(), Some("getItemConditionPolicies"));
    let at_root = judged("/marketplace/EBAY_US/get_item_condition_policies");
    assert_eq!(found(&at_root), one(Part::Entry, "operation-path", ""));
}

/// Azure's `x-ms-enum: {modelAsString: true}` says the list is open: a value the service added
/// since is drift (a warning under `--strict`), not a broken `enum`; `modelAsString: false`
/// stays closed.
#[test]
fn azure_enums_modelled_as_strings_take_new_values_as_drift() {
    let contract = contract_of(
        r#"
openapi: 3.0.0
info: {title: Security, version: "2019-08-01"}
paths:
  /alerts:
    get:
      operationId: listAlerts
      responses:
        '200':
          description: the alert
          content:
            application/json:
              schema:
                type: object
                properties:
                  severity: {type: string, enum: [Low, High], x-ms-enum: {name: Severity, modelAsString: true}}
                  state: {type: string, enum: [On, Off], x-ms-enum: {name: State, modelAsString: false}}
"#,
    );
    let judged = |body: &str, strict: bool| {
        let exchange = media_exchange(
            "GET",
            "/alerts",
            None,
            200,
            Some(("application/json", body)),
        );
        check(
            &contract,
            &exchange,
            CheckOptions {
                strict,
                show_values: false,
            },
        )
    };
    let added = judged(r#"{"severity": "Critical", "state": "On"}"#, false);
    assert_eq!(found(&added), vec![]);
    assert_eq!(
        added.drift.enum_values.len(),
        1,
        "{:?}",
        added.drift.enum_values
    );
    assert_eq!(
        found(&judged(r#"{"severity": "Critical"}"#, true)),
        one(Part::Response, "undocumented-enum-value", "/severity")
    );
    assert_eq!(
        found(&judged(r#"{"state": "Standby"}"#, false)),
        one(Part::Response, "enum", "/state")
    );
}

/// Azure writes a parameter's `x-ms-enum` on the Parameter Object, beside its schema (here
/// as APIs.guru's 3.0 copies have it, on a path, a query list and a header): the list is open
/// there as in a body. A new value is drift, shown only with `--show-values`, a warning under
/// `--strict`; `modelAsString: false` stays closed.
#[test]
fn azure_enums_on_parameters_take_new_values_as_drift() {
    let contract = contract_of(
        r#"
openapi: 3.0.0
info: {title: Automation, version: "2020-01-13"}
paths:
  /nodecounts/{countType}:
    get:
      operationId: getNodeCounts
      parameters:
        - name: countType
          in: path
          required: true
          x-ms-enum: {name: CountType, modelAsString: true}
          schema: {type: string, enum: [status, nodeconfiguration]}
        - name: fields
          in: query
          style: form
          explode: false
          x-ms-enum: {name: Field, modelAsString: true}
          schema: {type: array, items: {type: string, enum: [name, count]}}
        - name: x-ms-mode
          in: header
          x-ms-enum: {name: Mode, modelAsString: false}
          schema: {type: string, enum: [fast, slow]}
      responses: {'200': {description: counts}}
"#,
    );
    let judged = |path: &str, query: &[(&str, &str)], mode: Option<&str>, options| {
        let mut exchange = exchange("GET", path, None, 200, None);
        exchange.request.query = query
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        if let Some(mode) = mode {
            exchange
                .request
                .headers
                .push(("x-ms-mode".into(), mode.into()));
        }
        check(&contract, &exchange, options)
    };
    let plain = CheckOptions::default();
    let known = judged(
        "/nodecounts/status",
        &[("fields", "name,count")],
        Some("fast"),
        plain,
    );
    assert_eq!(found(&known), vec![]);
    assert!(known.drift.enum_values.is_empty(), "{:?}", known.drift);
    let added = judged(
        "/nodecounts/brandnew",
        &[("fields", "name,size")],
        None,
        plain,
    );
    assert_eq!(found(&added), vec![]);
    let places: Vec<(&str, Option<&str>)> = added
        .drift
        .enum_values
        .keys()
        .map(|key| (key.location.as_str(), key.value.as_deref()))
        .collect();
    assert_eq!(places, [("path:countType", None), ("query:fields", None)]);
    let strict = CheckOptions {
        strict: true,
        show_values: true,
    };
    let warned = judged("/nodecounts/brandnew", &[], None, strict);
    assert_eq!(
        found(&warned),
        one(Part::Request, "undocumented-enum-value", "path:countType")
    );
    assert_eq!(
        warned.findings[0].message,
        "value `brandnew` is not documented in the spec"
    );
    assert_eq!(
        warned
            .drift
            .enum_values
            .keys()
            .next()
            .unwrap()
            .value
            .as_deref(),
        Some("brandnew")
    );
    assert_eq!(
        found(&judged("/nodecounts/status", &[], Some("medium"), plain)),
        one(Part::Request, "enum", "header:x-ms-mode")
    );
}

/// AWS's query APIs (CloudFormation) answer `text/xml`, documented with the object schema of
/// the elements: XML, whose contents specval does not read, as `application/xml`; `text/plain`
/// is still one string its schema judges.
#[test]
fn text_xml_is_xml_and_not_a_string_its_schema_judges() {
    let contract = contract_of(
        r#"
openapi: 3.0.0
info: {title: CloudFormation, version: "2010-05-15"}
paths:
  /stacks:
    get:
      operationId: describeStacks
      responses:
        '200':
          description: the stacks
          content:
            text/xml: {schema: {type: object, properties: {Stacks: {type: array}}}}
  /note:
    get:
      operationId: getNote
      responses:
        '200':
          description: a note
          content:
            text/plain: {schema: {type: string, maxLength: 5}}
"#,
    );
    let judged = |path: &str, media: &str, body: &str| {
        let exchange = media_exchange("GET", path, None, 200, Some((media, body)));
        check(&contract, &exchange, CheckOptions::default())
    };
    let xml = "<DescribeStacksResponse><Stacks/></DescribeStacksResponse>";
    assert_eq!(found(&judged("/stacks", "text/xml", xml)), vec![]);
    assert_eq!(
        found(&judged("/stacks", "text/xml; charset=utf-8", xml)),
        vec![]
    );
    assert_eq!(found(&judged("/note", "text/plain", "hello")), vec![]);
    assert_eq!(
        found(&judged("/note", "text/plain", "hello world")),
        one(Part::Response, "maxLength", "")
    );
}

/// Telnyx's callbacks of one operation: a floor-change event that declares its members at the
/// top and requires none keeps any payload, so a broken hang-up had been taken for it and
/// passed. A payload is the notification documenting its members; of Adyen's created and
/// updated events of one schema, a broken one is the first, whose checks name the member; a
/// body that is no JSON is said to be so.
#[test]
fn a_notification_is_the_one_documenting_its_members_not_the_first_that_keeps_it() {
    let contract = contract_of(
        r#"
openapi: 3.1.0
info: {title: Hooks, version: "1"}
paths: {}
webhooks:
  floorChanged:
    post:
      requestBody:
        content: {application/json: {schema: {type: object, properties: {conference_id: {type: string}, occurred_at: {type: string}}}}}
      responses: {'200': {description: ok}}
  hangup:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                data:
                  type: object
                  properties:
                    event_type: {type: string, enum: [call.hangup]}
                    hangup_cause: {type: string, enum: [normal_clearing, timeout]}
      responses: {'200': {description: ok}}
  sweepCreated:
    put:
      requestBody:
        content: {application/json: {schema: {$ref: '#/components/schemas/Sweep'}}}
      responses: {'200': {description: ok}}
  sweepUpdated:
    put:
      requestBody:
        content: {application/json: {schema: {$ref: '#/components/schemas/Sweep'}}}
      responses: {'200': {description: ok}}
components:
  schemas:
    Sweep:
      type: object
      required: [type, schedule]
      properties:
        type: {type: string, enum: [sweep.created, sweep.updated]}
        schedule: {type: string, enum: [daily, weekly]}
"#,
    );
    let delivery = |method: &str, payload: &str| {
        let mut exchange = media_exchange(
            method,
            "/hooks/telnyx",
            Some(("application/json", payload)),
            200,
            None,
        );
        exchange.kind = Some(ExchangeKind::Notification);
        check(&contract, &exchange, CheckOptions::default())
    };
    let hangup = delivery(
        "POST",
        r#"{"data": {"event_type": "call.hangup", "hangup_cause": "timeout"}}"#,
    );
    assert_eq!(hangup.operation.as_deref(), Some("hangup"));
    assert_eq!(found(&hangup), vec![]);
    let new_cause = delivery(
        "POST",
        r#"{"data": {"event_type": "call.hangup", "hangup_cause": "NOT-A-CAUSE"}}"#,
    );
    assert_eq!(new_cause.operation.as_deref(), Some("hangup"));
    assert_eq!(
        found(&new_cause),
        one(Part::Notification, "enum", "/data/hangup_cause")
    );
    let floor = delivery("POST", r#"{"conference_id": "c1"}"#);
    assert_eq!(floor.operation.as_deref(), Some("floorChanged"));
    assert_eq!(found(&floor), vec![]);
    let hourly = delivery("PUT", r#"{"type": "sweep.updated", "schedule": "hourly"}"#);
    assert_eq!(hourly.operation.as_deref(), Some("sweepCreated"));
    assert_eq!(found(&hourly), one(Part::Notification, "enum", "/schedule"));
    let mut not_json = media_exchange(
        "PUT",
        "/hooks/adyen",
        Some(("application/json", "{not json")),
        200,
        None,
    );
    not_json.kind = Some(ExchangeKind::Notification);
    let outcome = check(&contract, &not_json, CheckOptions::default());
    assert_eq!(found(&outcome), one(Part::Notification, "json", ""));
}

/// An XML body of no bytes is no XML document (which has one root element): missing, as an
/// empty JSON body is.
#[test]
fn an_empty_xml_body_is_missing() {
    let contract = contract_of(
        r#"
openapi: 3.0.0
info: {title: SMS, version: "1"}
paths:
  /sms:
    post:
      operationId: send
      parameters:
        - {name: api-version, in: query, required: true, schema: {type: string}}
        - {name: note, in: query, schema: {type: string}}
      requestBody:
        required: true
        content: {application/xml: {schema: {type: object}}}
      responses:
        '200':
          description: sent
          content: {application/xml: {schema: {type: object}}}
"#,
    );
    let judged = |query: &[(&str, &str)], request: &str, response: &str| {
        let mut exchange = media_exchange(
            "POST",
            "/sms",
            Some(("application/xml", request)),
            200,
            Some(("application/xml", response)),
        );
        exchange.request.query = query
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        check(&contract, &exchange, CheckOptions::default())
    };
    let xml = "<message><to>1</to></message>";
    assert_eq!(
        found(&judged(&[("api-version", "1"), ("note", "")], xml, xml)),
        vec![]
    );
    assert_eq!(
        found(&judged(&[("api-version", "1")], "", xml)),
        one(Part::Request, "required", "")
    );
    assert_eq!(
        found(&judged(&[("api-version", "1")], xml, "")),
        one(Part::Response, "required", "")
    );
}
