// Over 600 lines on purpose: one test binary for the sandbox's whole API keeps link time down.
//! The control API seeds state that the API then serves, following the interface
//! document's state tables; idempotent replay; reset. Every control answer is checked
//! against `control-api.yaml`.

mod common;

use std::time::Duration;

use common::{ControlContract, PUBLIC_KEY, Running, SECRET_KEY, quick_options, seed_onboarding};
use orchestration_api::client::{ClientError, CreateAccountSuccess};
use orchestration_api::credentials::Credentials;
use orchestration_api::models::{
    Account, AccountStatus, AccountType, CreateAccountRequest, CreateEntityRequest, ErrorCode,
    TransferStatus, UpdateAccountRequest,
};
use reqwest::Method;
use sandbox::SandboxOptions;
use sandbox::idempotency::KEY_REUSED;
use serde_json::{Value, json};
use uuid::Uuid;

fn create_request(account_id: Uuid, onboarding_id: &str) -> CreateAccountRequest {
    CreateAccountRequest {
        account_id,
        onboarding_id: onboarding_id.to_owned(),
        account_type: AccountType::Checking,
        currency: "USD".to_owned(),
        additional_properties: serde_json::Map::new(),
    }
}

fn entity_request(account_id: Uuid, merchant_entity_id: &str) -> CreateEntityRequest {
    serde_json::from_value(json!({
        "account_id": account_id,
        "merchant_entity_id": merchant_entity_id,
        "national_entity": "INDIVIDUAL",
        "phone": {"country_code": "+1", "number": "4155550134"},
        "address": {"address_line_1": "Market Street", "city": "San Francisco", "country": "US"},
        "entity_detail": {"individual": {"first_name": "Jane", "last_name": "Doe"}}
    }))
    .expect("entity request")
}

fn created(result: Result<CreateAccountSuccess, ClientError>) -> Account {
    match result {
        Ok(CreateAccountSuccess::Created(account)) => account,
        other => panic!("expected 201 with the account, got {other:?}"),
    }
}

/// The status and error code of a failed call.
fn failure<T: std::fmt::Debug>(result: Result<T, ClientError>) -> (u16, ErrorCode, Vec<String>) {
    match result {
        Err(ClientError::Api { status, body }) => (status.as_u16(), body.code, body.messages),
        other => panic!("expected an error answer, got {other:?}"),
    }
}

#[tokio::test]
async fn seeded_state_is_served_as_the_state_tables_say() {
    let running = Running::start(quick_options()).await;
    let contract = ControlContract::load();
    let client = running.client();

    // Onboardings: only SUCCEEDED lets an account be created.
    let (status, onboarding) = running
        .post("/onboardings", json!({"status": "SUCCEEDED"}))
        .await;
    contract.assert_response("post", "/onboardings", status, &onboarding);
    assert_eq!(status, 201);
    let ready = onboarding["id"].as_str().expect("id").to_owned();
    assert!(ready.starts_with("onb_"), "{ready}");
    seed_onboarding(&running, "onb_inactive", "INACTIVE").await;
    let (status, body) = running.post("/onboardings", json!({"id": "onb_x"})).await;
    contract.assert_response("post", "/onboardings", status, &body);
    assert_eq!(status, 400, "status is required: {body}");

    let account_id = Uuid::new_v4();
    let (status, code, _) = failure(
        client
            .create_account(
                Some(Uuid::new_v4()),
                &create_request(account_id, "onb_inactive"),
            )
            .await,
    );
    assert_eq!((status, code), (400, ErrorCode::ValidationError));
    let (status, code, _) = failure(
        client
            .create_account(
                Some(Uuid::new_v4()),
                &create_request(account_id, "onb_missing"),
            )
            .await,
    );
    assert_eq!((status, code), (404, ErrorCode::OnboardingNotFound));
    let account = created(
        client
            .create_account(Some(Uuid::new_v4()), &create_request(account_id, &ready))
            .await,
    );
    assert_eq!(account.status, Some(AccountStatus::Active));
    assert_eq!(account.onboarding_id.as_deref(), Some(ready.as_str()));

    // Transfers: a seeded PENDING transfer can be cancelled once; a COMPLETED one cannot.
    let pending_id = Uuid::new_v4();
    let (status, seeded) = running
        .post(
            &format!("/accounts/{account_id}/transfers"),
            json!({"transfer_id": pending_id, "status": "PENDING", "amount": {"value": 250}}),
        )
        .await;
    contract.assert_response("post", "/accounts/{account_id}/transfers", status, &seeded);
    assert_eq!(status, 201, "{seeded}");
    assert_eq!(seeded["transfer_id"], json!(pending_id));
    assert_eq!(
        seeded["transfer"]["amount"]["currency"], "USD",
        "the account's currency"
    );
    assert_eq!(seeded["transfer"]["source_account_id"], json!(account.id));
    let served = client
        .get_account_transfer(&account_id, &pending_id)
        .await
        .expect("get transfer");
    assert_eq!(
        serde_json::to_value(&served).expect("json"),
        seeded["transfer"]
    );
    let cancelled = client
        .cancel_account_transfer(&account_id, &pending_id)
        .await
        .expect("cancel a PENDING transfer");
    assert_eq!(cancelled["status"], sandbox::CANCELLED_STATUS);
    let (status, code, _) = failure(
        client
            .cancel_account_transfer(&account_id, &pending_id)
            .await,
    );
    assert_eq!(
        (status, code),
        (400, ErrorCode::ValidationError),
        "no longer PENDING"
    );

    let (status, completed) = running
        .post(
            &format!("/accounts/{account_id}/transfers"),
            json!({"status": "COMPLETED", "amount": {"value": 10, "currency": "USD"}}),
        )
        .await;
    assert_eq!(status, 201, "{completed}");
    let completed_id: Uuid =
        serde_json::from_value(completed["transfer_id"].clone()).expect("uuid");
    let (status, code, _) = failure(
        client
            .cancel_account_transfer(&account_id, &completed_id)
            .await,
    );
    assert_eq!((status, code), (400, ErrorCode::ValidationError));
    assert_eq!(
        client
            .get_account_transfer(&account_id, &completed_id)
            .await
            .expect("get")
            .status,
        Some(TransferStatus::Completed),
        "unchanged"
    );

    // Control-side refusals: an unknown account, a status outside the documented two,
    // a duplicate transfer id.
    let unknown = Uuid::new_v4();
    let (status, body) = running
        .post(
            &format!("/accounts/{unknown}/transfers"),
            json!({"status": "PENDING", "amount": {"value": 1}}),
        )
        .await;
    contract.assert_response("post", "/accounts/{account_id}/transfers", status, &body);
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("ACCOUNT_NOT_FOUND"))
    );
    for bad in [
        json!({"status": "CANCELLED", "amount": {"value": 1}}),
        json!({"status": "PENDING"}),
        json!({"transfer_id": pending_id, "status": "PENDING", "amount": {"value": 1}}),
        json!({"transfer_id": "not-a-uuid", "status": "PENDING", "amount": {"value": 1}}),
    ] {
        let (status, body) = running
            .post(&format!("/accounts/{account_id}/transfers"), bad.clone())
            .await;
        contract.assert_response("post", "/accounts/{account_id}/transfers", status, &body);
        assert_eq!(status, 400, "{bad} → {body}");
    }

    // Close: a balance that is not zero → 400, unchanged; zero → 200 CLOSED.
    let balance_path = format!("/accounts/{account_id}/balance");
    let (status, with_balance, _) = running
        .control(
            Method::PUT,
            &balance_path,
            Some(json!({"available": 100, "current": 120.5, "pending": 20.5})),
        )
        .await;
    contract.assert_response(
        "put",
        "/accounts/{account_id}/balance",
        status,
        &with_balance,
    );
    assert_eq!(status, 200, "{with_balance}");
    assert_eq!(with_balance["balance"]["current"], json!(120.5));
    let (status, code, _) = failure(client.close_account(&account_id).await);
    assert_eq!((status, code), (400, ErrorCode::ValidationError));
    assert_eq!(
        client.get_account(&account_id).await.expect("get").status,
        Some(AccountStatus::Active)
    );
    let (status, _, _) = running
        .control(
            Method::PUT,
            &balance_path,
            Some(json!({"available": 0, "current": 0, "pending": 0})),
        )
        .await;
    assert_eq!(status, 200);
    let closed = client.close_account(&account_id).await.expect("close");
    assert_eq!(closed.status, Some(AccountStatus::Closed));
    assert_ne!(
        closed.updated_at, account.updated_at,
        "updated_at refreshed"
    );
    let (status, body, _) = running
        .control(
            Method::PUT,
            &format!("/accounts/{unknown}/balance"),
            Some(json!({"available": 0, "current": 0, "pending": 0})),
        )
        .await;
    contract.assert_response("put", "/accounts/{account_id}/balance", status, &body);
    assert_eq!(status, 404);
    let (status, body, _) = running
        .control(Method::PUT, &balance_path, Some(json!({"available": 0})))
        .await;
    contract.assert_response("put", "/accounts/{account_id}/balance", status, &body);
    assert_eq!(status, 400, "all three amounts are required: {body}");

    running.stop().await;
}

#[tokio::test]
async fn payments_and_reverse_transfers_are_seeded() {
    let running = Running::start(quick_options()).await;
    let contract = ControlContract::load();
    let client = running.client();

    for order in ["order-1", "order-2", "order-1"] {
        let (status, payment) = running
            .post(
                "/payments",
                json!({"merchant_order_id": order, "status": "READY_TO_PAY"}),
            )
            .await;
        contract.assert_response("post", "/payments", status, &payment);
        assert_eq!(status, 201, "{payment}");
    }
    let (status, body) = running
        .post("/payments", json!({"status": "READY_TO_PAY"}))
        .await;
    contract.assert_response("post", "/payments", status, &body);
    assert_eq!(status, 400, "merchant_order_id is required");
    let found = client
        .get_payments_by_merchant_order_id("order-1")
        .await
        .expect("lookup");
    assert_eq!(found.len(), 2);
    assert!(found.iter().all(|payment| payment.id.is_some()));
    assert!(
        client
            .get_payments_by_merchant_order_id("order-3")
            .await
            .expect("lookup")
            .is_empty()
    );

    // Without a seeded result the operation answers 404; with an invented one, 200, and its
    // SUCCEEDED destination onboarding can open an account.
    let transfer_id = Uuid::new_v4();
    let missing = client
        .reverse_transfer_onboarding(&transfer_id, None, None, None)
        .await;
    assert!(missing.is_err(), "{missing:?}");
    let (status, seeded) = running
        .post("/reverse-transfers", json!({"transfer_id": transfer_id}))
        .await;
    contract.assert_response("post", "/reverse-transfers", status, &seeded);
    assert_eq!(status, 201);
    let result = client
        .reverse_transfer_onboarding(&transfer_id, None, None, None)
        .await
        .expect("seeded result");
    assert_eq!(
        serde_json::to_value(&result).expect("json"),
        seeded["result"]
    );
    let destination = seeded["result"]["destination_onboarding"]["id"]
        .as_str()
        .expect("destination id");
    created(
        client
            .create_account(
                Some(Uuid::new_v4()),
                &create_request(Uuid::new_v4(), destination),
            )
            .await,
    );
    let (status, body) = running
        .post("/reverse-transfers", json!({"transfer_id": ""}))
        .await;
    contract.assert_response("post", "/reverse-transfers", status, &body);
    assert_eq!(status, 400);
    // "transfer_id path values are UUIDs of 36 characters": so is the seed's.
    let (status, body) = running
        .post("/reverse-transfers", json!({"transfer_id": "xfer_abc"}))
        .await;
    contract.assert_response("post", "/reverse-transfers", status, &body);
    assert_eq!(status, 400);

    running.stop().await;
}

/// "entity_detail: individual (object|null) and entity (object|null); one is filled according
/// to national_entity": an entity the sandbox could not answer that way is 400 VALIDATION_ERROR,
/// and one it creates keeps the rule (the layer checks every answer against the contract).
#[tokio::test]
async fn an_entity_detail_of_the_other_kind_is_refused() {
    let running = Running::start(quick_options()).await;
    let client = running.client();
    let account_id = Uuid::new_v4();
    let with_detail = |id: &str, kind: &str, detail: Value| {
        let mut request = entity_request(account_id, id);
        request.national_entity = serde_json::from_value(json!(kind)).expect("kind");
        request.entity_detail = serde_json::from_value(detail).expect("detail");
        request
    };
    let company = json!({"name": "Acme LLC", "country": "US"});
    let person = json!({"first_name": "Jane", "last_name": "Doe"});
    let refused = [
        (
            "INDIVIDUAL",
            json!({"entity": company}),
            "/entity_detail/individual",
        ),
        ("INDIVIDUAL", json!({}), "/entity_detail/individual"),
        (
            "INDIVIDUAL",
            json!({"individual": person, "entity": company}),
            "/entity_detail/entity",
        ),
        (
            "ENTITY",
            json!({"individual": person}),
            "/entity_detail/entity",
        ),
        (
            "ENTITY",
            json!({"entity": company, "individual": person}),
            "/entity_detail/individual",
        ),
    ];
    for (n, (kind, detail, pointer)) in refused.into_iter().enumerate() {
        let request = with_detail(&format!("refused-{n}"), kind, detail.clone());
        let (status, code, messages) =
            failure(client.create_entity(Some(Uuid::new_v4()), &request).await);
        assert_eq!(
            (status, code),
            (400, ErrorCode::ValidationError),
            "{kind} {detail}"
        );
        assert!(
            messages.iter().any(|m| m.starts_with(pointer)),
            "{kind} {detail}: {messages:?}"
        );
    }
    assert!(running.merchant().entities().is_empty());
    for (id, kind, detail) in [
        (
            "person",
            "INDIVIDUAL",
            json!({"individual": person, "entity": null}),
        ),
        ("company", "ENTITY", json!({"entity": company})),
        // `60.0` is the integer 60 to JSON Schema, which the router's check passed: the
        // handler reads it so too (serde alone had refused it, a 400 after a passed check).
        (
            "company-owned",
            "ENTITY",
            json!({"entity": {"name": "Acme LLC", "country": "US",
                "beneficial_owners": [{"first_name": "Ann", "ownership_percentage": 60.0}]}}),
        ),
    ] {
        let entity = client
            .create_entity(Some(Uuid::new_v4()), &with_detail(id, kind, detail))
            .await
            .expect("entity of the detail's kind");
        assert!(entity.entity_detail.is_some(), "{entity:?}");
    }
    assert_eq!(running.merchant().entities().len(), 3);
    running.stop().await;
}

#[tokio::test]
async fn an_idempotency_key_replays_the_first_response() {
    let running = Running::start(quick_options()).await;
    let client = running.client();
    seed_onboarding(&running, "onb_ready", "SUCCEEDED").await;
    let key = Uuid::new_v4();
    let account_id = Uuid::new_v4();
    let request = create_request(account_id, "onb_ready");

    // Same key, same body: the first response again, one record.
    let first = created(client.create_account(Some(key), &request).await);
    let second = created(client.create_account(Some(key), &request).await);
    assert_eq!(second, first);
    let records = running
        .merchant()
        .accounts()
        .into_iter()
        .filter(|account| account.account_id == Some(account_id))
        .count();
    assert_eq!(records, 1);

    // The replay is the first response even after the account changed.
    running
        .merchant()
        .set_balance(account_id, 5, 5, 0)
        .expect("account");
    let third = created(client.create_account(Some(key), &request).await);
    assert_eq!(third, first);

    // Same key, different body: 400 VALIDATION_ERROR, nothing created.
    let other = CreateAccountRequest {
        account_type: AccountType::Savings,
        ..request.clone()
    };
    let (status, code, messages) = failure(client.create_account(Some(key), &other).await);
    assert_eq!((status, code), (400, ErrorCode::ValidationError));
    assert!(messages[0].contains(KEY_REUSED), "{messages:?}");
    assert!(messages[0].contains("x-idempotency-key"), "{messages:?}");
    assert_eq!(running.merchant().accounts().len(), 1);

    // Keys are per merchant: another merchant's identical key is a new request (here
    // refused, as that merchant has no such onboarding, which proves it was processed).
    let stranger = running.client_with(Credentials::new("pk_other", SECRET_KEY));
    let (status, code, _) = failure(stranger.create_account(Some(key), &request).await);
    assert_eq!((status, code), (404, ErrorCode::OnboardingNotFound));

    // And per operation: the same key on create entity is fresh.
    let entity = client
        .create_entity(Some(key), &entity_request(account_id, "merchant-entity-1"))
        .await
        .expect("entity");
    let again = client
        .create_entity(Some(key), &entity_request(account_id, "merchant-entity-1"))
        .await
        .expect("replayed entity");
    assert_eq!(again, entity);
    assert_eq!(running.merchant().entities().len(), 1);

    // A failure is not remembered: the same key succeeds once the cause is gone.
    let later = Uuid::new_v4();
    let key = Uuid::new_v4();
    let (status, code, _) = failure(
        client
            .create_account(Some(key), &create_request(later, "onb_later"))
            .await,
    );
    assert_eq!((status, code), (404, ErrorCode::OnboardingNotFound));
    seed_onboarding(&running, "onb_later", "SUCCEEDED").await;
    created(
        client
            .create_account(Some(key), &create_request(later, "onb_later"))
            .await,
    );

    // Raw HTTP: same key, body with members in another order and other spacing → replay.
    let key = Uuid::new_v4();
    let raw = |body: String| {
        running
            .http
            .post(format!("{}/v1/banking/accounts", running.origin))
            .header("public-api-key", PUBLIC_KEY)
            .header("private-secret-key", SECRET_KEY)
            .header("x-idempotency-key", key.to_string())
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    let id = Uuid::new_v4();
    let a = raw(format!(
        r#"{{"account_id":"{id}","onboarding_id":"onb_ready","account_type":"CHECKING","currency":"EUR"}}"#
    ))
    .await
    .expect("send");
    assert_eq!(a.status(), 201);
    let a: Value = a.json().await.expect("json");
    let b = raw(format!(
        r#"{{ "currency": "EUR", "account_type": "CHECKING", "onboarding_id": "onb_ready", "account_id": "{id}" }}"#
    ))
    .await
    .expect("send");
    assert_eq!(b.status(), 201);
    assert_eq!(b.json::<Value>().await.expect("json"), a);

    running.stop().await;
}

#[tokio::test]
async fn idempotency_keys_expire_after_the_configured_ttl() {
    let running = Running::start(SandboxOptions {
        // Long enough for the replay below to come in time on a busy machine.
        idempotency_ttl: Duration::from_millis(1500),
        ..quick_options()
    })
    .await;
    let client = running.client();
    let key = Uuid::new_v4();
    let request = entity_request(Uuid::new_v4(), "merchant-entity-ttl");
    let entity = client
        .create_entity(Some(key), &request)
        .await
        .expect("entity");
    assert_eq!(
        client
            .create_entity(Some(key), &request)
            .await
            .expect("replay"),
        entity
    );
    tokio::time::sleep(Duration::from_millis(1700)).await;
    // Forgotten: processed afresh, and the merchant_entity_id is taken.
    let (status, code, _) = failure(client.create_entity(Some(key), &request).await);
    assert_eq!((status, code), (409, ErrorCode::DuplicateEntity));
    running.stop().await;
}

#[tokio::test]
async fn reset_empties_the_sandbox() {
    let running = Running::start(quick_options()).await;
    let contract = ControlContract::load();
    let client = running.client();
    seed_onboarding(&running, "onb_ready", "SUCCEEDED").await;
    let account_id = Uuid::new_v4();
    let key = Uuid::new_v4();
    created(
        client
            .create_account(Some(key), &create_request(account_id, "onb_ready"))
            .await,
    );
    let (status, body) = running.post("/reset", json!({})).await;
    contract.assert_response("post", "/reset", status, &body);
    assert_eq!(body, json!({"reset": true}));
    let (status, code, _) = failure(client.get_account(&account_id).await);
    assert_eq!((status, code), (404, ErrorCode::AccountNotFound));
    // The onboarding and the key are gone too.
    let (status, code, _) = failure(
        client
            .create_account(Some(key), &create_request(account_id, "onb_ready"))
            .await,
    );
    assert_eq!((status, code), (404, ErrorCode::OnboardingNotFound));
    // A reset without a body works as well.
    let (status, _, _) = running.control(Method::POST, "/reset", None).await;
    assert_eq!(status, 200);
    running.stop().await;
}

#[tokio::test]
async fn the_api_still_requires_credentials_and_the_control_api_does_not() {
    let running = Running::start(quick_options()).await;
    let account = Uuid::new_v4();
    let response = running
        .http
        .get(format!("{}/v1/banking/accounts/{account}", running.origin))
        .header("public-api-key", PUBLIC_KEY)
        .send()
        .await
        .expect("send");
    assert_eq!(response.status(), 401);
    let body: Value = response.json().await.expect("json");
    assert_eq!(body["code"], "NOT_AUTHENTICATED");
    let (status, _) = running.get("/deliveries").await;
    assert_eq!(status, 200);
    running.stop().await;
}

/// A control request body over the body limit is answered 413 with the documented error
/// body (JSON, `PAYLOAD_TOO_LARGE`), not axum's plain-text rejection.
#[tokio::test]
async fn an_over_size_control_body_gets_the_documented_413_error_body() {
    let running = Running::start(quick_options()).await;
    let contract = ControlContract::load();
    // Over the default limit (1 MiB) and over axum's own default (2 MiB) alike.
    let big = json!({"merchant_order_id": "order-1", "description": "x".repeat(3 * 1024 * 1024)});
    let response = running
        .http
        .post(format!("{}/_sandbox/payments", running.origin))
        .header("public-api-key", PUBLIC_KEY)
        .header("private-secret-key", SECRET_KEY)
        .json(&big)
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let text = response.text().await.expect("body");
    assert_eq!(status, 413, "{text}");
    assert!(
        content_type.starts_with("application/json"),
        "{content_type}: {text}"
    );
    let body: Value = serde_json::from_str(&text).expect("a JSON error body");
    contract.assert_response("post", "/payments", 413, &body);
    assert_eq!(body["code"], "PAYLOAD_TOO_LARGE");
    assert_eq!(body["http_code"], 413);
    running.stop().await;
}

/// Each credential pair is a merchant of its own: what one merchant created (or had seeded
/// with its credentials) another can neither read nor change, and ids, keys and
/// `merchant_entity_id`s do not collide across merchants. A public key alone is not an
/// identity: the same public key with another secret is another merchant.
#[tokio::test]
async fn merchants_see_only_their_own_data() {
    let running = Running::start(quick_options()).await;
    let alice = running.client();
    let bob_keys = ("pk_bob", "sk_bob");
    let bob = running.client_with(Credentials::new(bob_keys.0, bob_keys.1));
    let mallory = running.client_with(Credentials::new(PUBLIC_KEY, "sk_guessed"));

    // Alice: an onboarding, an account with a pending transfer, an entity, a payment.
    seed_onboarding(&running, "onb_alice", "SUCCEEDED").await;
    let account_id = Uuid::new_v4();
    let key = Uuid::new_v4();
    let request = create_request(account_id, "onb_alice");
    let account = created(alice.create_account(Some(key), &request).await);
    let transfer_id = Uuid::new_v4();
    let (status, body) = running
        .post(
            &format!("/accounts/{account_id}/transfers"),
            json!({"transfer_id": transfer_id, "status": "PENDING", "amount": {"value": 5}}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    alice
        .create_entity(
            Some(Uuid::new_v4()),
            &entity_request(account_id, "entity-1"),
        )
        .await
        .expect("entity");
    let (status, body) = running
        .post("/payments", json!({"merchant_order_id": "order-alice"}))
        .await;
    assert_eq!(status, 201, "{body}");

    for (who, other) in [
        ("bob", &bob),
        ("the same public key with another secret", &mallory),
    ] {
        // Alice's account does not exist for them: no read, no update, no close.
        let (status, code, _) = failure(other.get_account(&account_id).await);
        assert_eq!((status, code), (404, ErrorCode::AccountNotFound), "{who}");
        let update = UpdateAccountRequest {
            account_id,
            account_type: Some(AccountType::Savings),
            additional_properties: serde_json::Map::new(),
        };
        let (status, code, _) = failure(other.update_account(&account_id, &update).await);
        assert_eq!((status, code), (404, ErrorCode::AccountNotFound), "{who}");
        let (status, code, _) = failure(other.close_account(&account_id).await);
        assert_eq!((status, code), (404, ErrorCode::AccountNotFound), "{who}");
        let (status, code, _) =
            failure(other.get_account_transfer(&account_id, &transfer_id).await);
        assert_eq!((status, code), (404, ErrorCode::AccountNotFound), "{who}");
        let (status, code, _) = failure(
            other
                .cancel_account_transfer(&account_id, &transfer_id)
                .await,
        );
        assert_eq!((status, code), (404, ErrorCode::AccountNotFound), "{who}");
        // Nor her payments, nor her onboarding.
        let payments = other
            .get_payments_by_merchant_order_id("order-alice")
            .await
            .expect("payments");
        assert!(payments.is_empty(), "{who}: {payments:?}");
        let (status, code, _) = failure(
            other
                .create_account(
                    Some(Uuid::new_v4()),
                    &create_request(Uuid::new_v4(), "onb_alice"),
                )
                .await,
        );
        assert_eq!(
            (status, code),
            (404, ErrorCode::OnboardingNotFound),
            "{who}"
        );
        // Her idempotency key is not theirs to replay.
        let (status, code, _) = failure(other.create_account(Some(key), &request).await);
        assert_eq!(
            (status, code),
            (404, ErrorCode::OnboardingNotFound),
            "{who}"
        );
    }

    // Alice's records are untouched.
    let mine = alice
        .get_account(&account_id)
        .await
        .expect("alice's account");
    assert_eq!(mine, account);
    assert_eq!(mine.status, Some(AccountStatus::Active));

    // Bob's own namespace: the same account_id, merchant_entity_id and transfer id are his.
    let (status, body, _) = running
        .control_as(
            Some(bob_keys),
            Method::POST,
            "/onboardings",
            Some(json!({"id": "onb_bob", "status": "SUCCEEDED"})),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let bobs = created(
        bob.create_account(Some(key), &create_request(account_id, "onb_bob"))
            .await,
    );
    assert_ne!(bobs.id, account.id);
    bob.create_entity(
        Some(Uuid::new_v4()),
        &entity_request(account_id, "entity-1"),
    )
    .await
    .expect("bob's entity with alice's merchant_entity_id");
    let (status, body, _) = running
        .control_as(
            Some(bob_keys),
            Method::PUT,
            &format!("/accounts/{account_id}/balance"),
            Some(json!({"available": 7, "current": 7, "pending": 0})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, code, _) = failure(bob.close_account(&account_id).await);
    assert_eq!((status, code), (400, ErrorCode::ValidationError));
    // Alice's balance is still zero: she closes her account.
    let closed = alice.close_account(&account_id).await.expect("closed");
    assert_eq!(closed.status, Some(AccountStatus::Closed));
    assert_eq!(
        bob.get_account(&account_id).await.expect("bob's").status,
        Some(AccountStatus::Active)
    );

    // Seeding needs to know whose data it is.
    let (status, body, _) = running
        .control_as(
            None,
            Method::POST,
            "/onboardings",
            Some(json!({"id": "onb_nobody", "status": "SUCCEEDED"})),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let message = body["messages"][0].as_str().unwrap_or_default();
    assert!(
        message.contains("public-api-key") && message.contains("private-secret-key"),
        "{body}"
    );
    running.stop().await;
}

#[tokio::test]
async fn the_served_api_is_checked_against_the_contract_and_the_control_api_is_not() {
    let running = Running::start(quick_options()).await;
    let check = running
        .sandbox
        .contract_check()
        .expect("on by default")
        .clone();
    let origin = running.origin.clone();
    let http = running.http.clone();
    // A valid read (404: no such account), a body the contract refuses (answered 400 by the
    // generated router), and a control call.
    let missing = http
        .get(format!("{origin}/v1/banking/accounts/{}", Uuid::nil()))
        .header("public-api-key", PUBLIC_KEY)
        .header("private-secret-key", SECRET_KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
    let refused = http
        .post(format!("{origin}/v1/banking/entities"))
        .header("public-api-key", PUBLIC_KEY)
        .header("private-secret-key", SECRET_KEY)
        .json(&json!({"entity_type": 42}))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    let (status, _) = running.get("/deliveries").await;
    assert_eq!(status, 200);
    running.stop().await;

    assert_eq!(
        check.stats().checked(),
        2,
        "the two API calls, not the control call"
    );
    let findings = check.findings();
    assert!(
        !findings.is_empty(),
        "the refused body is a finding about the request"
    );
    assert!(
        findings
            .iter()
            .all(|f| f.part == specval::finding::Part::Request
                && f.operation.as_deref() == Some("createEntity")),
        "{findings:?}"
    );
    assert_eq!(check.service_findings(), []);
}

#[tokio::test]
async fn the_contract_check_can_be_turned_off() {
    let sandbox = sandbox::Sandbox::new(SandboxOptions {
        contract_check: false,
        ..quick_options()
    })
    .unwrap();
    assert!(sandbox.contract_check().is_none());
    let args =
        <sandbox::config::Args as clap::Parser>::parse_from(["sandbox", "--no-contract-check"]);
    assert!(!args.options().contract_check);
    let args = <sandbox::config::Args as clap::Parser>::parse_from(["sandbox"]);
    assert!(args.options().contract_check);
}
