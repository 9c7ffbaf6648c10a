//! Simulated incoming transfers: the notification reaches a merchant receiver built with the
//! generated `webhooks::receiver`, through the generated `Sender` and its retries, and the
//! delivery log shows what happened.

mod common;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Json;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use common::{ControlContract, Running, quick_options, seed_onboarding, serve};
use orchestration_api::models::{
    AccountType, CreateAccountRequest, IncomingTransferNotification,
    IncomingTransferNotificationReply,
};
use orchestration_api::webhooks::{self, HandlerError, Webhooks};
use sandbox::SandboxOptions;
use serde_json::{Value, json};
use uuid::Uuid;

/// What the merchant answers to the next notification that reaches it.
#[derive(Debug, Clone, Copy)]
enum Answer {
    /// 503 from a layer in front of the receiver.
    Unavailable,
    /// 422 from that layer: a rejection.
    Unprocessable,
    /// 200 `{"received": false}` from the handler.
    NotReceived,
}

/// A merchant that follows a script (then acknowledges) and keeps what it received.
#[derive(Clone, Default)]
struct Merchant {
    script: Arc<Mutex<VecDeque<Answer>>>,
    hits: Arc<Mutex<usize>>,
    received: Arc<Mutex<Vec<IncomingTransferNotification>>>,
    /// The names of the headers of each request, lower case.
    header_names: Arc<Mutex<Vec<Vec<String>>>>,
}

impl Merchant {
    fn scripted(answers: &[Answer]) -> Self {
        let merchant = Self::default();
        merchant
            .script
            .lock()
            .expect("script")
            .extend(answers.iter().copied());
        merchant
    }

    fn hits(&self) -> usize {
        *self.hits.lock().expect("hits")
    }

    fn received(&self) -> Vec<IncomingTransferNotification> {
        self.received.lock().expect("received").clone()
    }

    async fn start(&self) -> (String, tokio::sync::oneshot::Sender<()>) {
        let router = webhooks::receiver(self.clone()).layer(axum::middleware::from_fn_with_state(
            self.clone(),
            front_door,
        ));
        serve(router).await
    }
}

impl Webhooks for Merchant {
    async fn incoming_transfer(
        &self,
        payload: IncomingTransferNotification,
    ) -> Result<IncomingTransferNotificationReply, HandlerError> {
        self.received.lock().expect("received").push(payload);
        let next = self.script.lock().expect("script").pop_front();
        Ok(IncomingTransferNotificationReply {
            received: !matches!(next, Some(Answer::NotReceived)),
            additional_properties: serde_json::Map::new(),
        })
    }
}

/// Counts every request, and answers 503 or 422 when the script says so.
async fn front_door(State(merchant): State<Merchant>, request: Request, next: Next) -> Response {
    *merchant.hits.lock().expect("hits") += 1;
    let names = request
        .headers()
        .keys()
        .map(|name| name.to_string())
        .collect();
    merchant.header_names.lock().expect("names").push(names);
    let status = {
        let mut script = merchant.script.lock().expect("script");
        match script.front() {
            Some(Answer::Unavailable) => {
                script.pop_front();
                Some(StatusCode::SERVICE_UNAVAILABLE)
            }
            Some(Answer::Unprocessable) => {
                script.pop_front();
                Some(StatusCode::UNPROCESSABLE_ENTITY)
            }
            _ => None,
        }
    };
    match status {
        Some(status) => (status, Json(json!({"messages": ["not now"]}))).into_response(),
        None => next.run(request).await,
    }
}

/// An account of the sandbox, in `currency`, created through the API.
async fn account(running: &Running, currency: &str) -> Uuid {
    seed_onboarding(running, "onb_ready", "SUCCEEDED").await;
    let account_id = Uuid::new_v4();
    running
        .client()
        .create_account(
            None,
            &CreateAccountRequest {
                account_id,
                onboarding_id: "onb_ready".to_owned(),
                account_type: AccountType::Checking,
                currency: currency.to_owned(),
                additional_properties: serde_json::Map::new(),
            },
        )
        .await
        .expect("account");
    account_id
}

#[tokio::test]
async fn a_notification_is_delivered_after_a_503_and_logged() {
    let running = Running::start(quick_options()).await;
    let contract = ControlContract::load();
    let merchant = Merchant::scripted(&[Answer::Unavailable]);
    let (merchant_url, _stop) = merchant.start().await;
    let account_id = account(&running, "GBP").await;

    let (status, accepted, headers) = running
        .control(
            reqwest::Method::POST,
            "/incoming-transfers",
            Some(json!({
                "account_id": account_id,
                "amount": {"value": 125.5},
                "description": "Invoice 7",
                "merchant_url": merchant_url,
            })),
        )
        .await;
    contract.assert_response("post", "/incoming-transfers", status, &accepted);
    assert_eq!(status, 202, "{accepted}");
    let delivery_id = accepted["delivery_id"].as_str().expect("delivery id");
    assert_eq!(
        headers.get("location").and_then(|v| v.to_str().ok()),
        Some(format!("/_sandbox/deliveries/{delivery_id}").as_str())
    );
    assert_eq!(accepted["delivery"]["status"], "PENDING");
    let transfer = &accepted["transfer"];
    assert_eq!(transfer["direction"], "INCOMING");
    assert_eq!(transfer["status"], "COMPLETED");
    assert_eq!(
        transfer["amount"],
        json!({"value": 125.5, "currency": "GBP"})
    );
    assert_eq!(
        transfer["payment_rail"], "FPS",
        "the account's first incoming rail"
    );

    let delivery = running.settled_delivery(delivery_id).await;
    contract.assert_response("get", "/deliveries/{id}", 200, &delivery);
    assert_eq!(delivery["status"], "DELIVERED", "{delivery:#}");
    assert_eq!(delivery["attempts"], 2, "a 503, then the acknowledgement");
    assert_eq!(delivery["reason"], Value::Null);
    assert!(delivery["completed_at"].is_string());
    assert_eq!(
        delivery["target"],
        format!("{merchant_url}/v1/banking/transfers")
    );
    assert_eq!(merchant.hits(), 2);
    // A notification carries its Content-Type alone: no compressed reply is asked for.
    for names in merchant.header_names.lock().expect("names").iter() {
        assert!(names.contains(&"content-type".to_string()), "{names:?}");
        assert!(!names.contains(&"accept-encoding".to_string()), "{names:?}");
    }

    // What the merchant received is the notification the log shows, and the transfer
    // the API serves under the banking paths.
    let received = merchant.received();
    assert_eq!(received.len(), 1);
    let received = serde_json::to_value(&received[0]).expect("json");
    assert_eq!(received, delivery["notification"]);
    assert_eq!(received["id"], transfer["id"]);
    assert_eq!(
        received["destination_account_id"],
        transfer["destination_account_id"]
    );
    assert_eq!(received["direction"], "INCOMING");
    assert!(received["sender"].is_object());
    let transfer_id: Uuid = serde_json::from_value(accepted["transfer_id"].clone()).expect("uuid");
    let served = running
        .client()
        .get_account_transfer(&account_id, &transfer_id)
        .await
        .expect("transfer");
    assert_eq!(&serde_json::to_value(&served).expect("json"), transfer);

    // The log lists it.
    let (status, log) = running.get("/deliveries").await;
    contract.assert_response("get", "/deliveries", status, &log);
    assert_eq!(log.as_array().map(Vec::len), Some(1));
    assert_eq!(log[0]["id"], delivery_id);
    let (status, body) = running.get("/deliveries/dlv_missing").await;
    contract.assert_response("get", "/deliveries/{id}", status, &body);
    assert_eq!(status, 404);

    running.stop().await;
}

#[tokio::test]
async fn failed_deliveries_say_why() {
    let running = Running::start(quick_options()).await;
    let contract = ControlContract::load();
    let account_id = account(&running, "USD").await;

    let simulate = |merchant_url: String| {
        let running = &running;
        let contract = &contract;
        async move {
            let (status, accepted) = running
                .post(
                    "/incoming-transfers",
                    json!({
                        "account_id": account_id,
                        "amount": {"value": 1},
                        "merchant_url": merchant_url
                    }),
                )
                .await;
            assert_eq!(status, 202, "{accepted}");
            let id = accepted["delivery_id"].as_str().expect("id").to_owned();
            let delivery = running.settled_delivery(&id).await;
            contract.assert_response("get", "/deliveries/{id}", 200, &delivery);
            delivery
        }
    };

    // A 4xx is not retried.
    let rejecting = Merchant::scripted(&[Answer::Unprocessable]);
    let (url, _stop_rejecting) = rejecting.start().await;
    let delivery = simulate(url).await;
    assert_eq!(
        (
            &delivery["status"],
            &delivery["reason"],
            &delivery["attempts"]
        ),
        (&json!("FAILED"), &json!("REJECTED"), &json!(1))
    );
    assert_eq!(delivery["response_status"], 422);
    assert_eq!(rejecting.hits(), 1);

    // 200 without `received: true` is not an acknowledgement.
    let unconvinced = Merchant::scripted(&[Answer::NotReceived]);
    let (url, _stop_unconvinced) = unconvinced.start().await;
    let delivery = simulate(url).await;
    assert_eq!(delivery["reason"], "NOT_ACKNOWLEDGED", "{delivery:#}");
    assert_eq!(delivery["response_status"], 200);

    // 503 on every attempt: the policy's 3 attempts, then EXHAUSTED.
    let down = Merchant::scripted(&[Answer::Unavailable; 5]);
    let (url, _stop_down) = down.start().await;
    let delivery = simulate(url).await;
    assert_eq!(
        (&delivery["reason"], &delivery["attempts"]),
        (&json!("EXHAUSTED"), &json!(3)),
        "{delivery:#}"
    );
    assert_eq!(down.hits(), 3);

    running.stop().await;
}

#[tokio::test]
async fn the_default_merchant_url_is_used_and_a_missing_one_creates_nothing() {
    let merchant = Merchant::default();
    let (merchant_url, _stop) = merchant.start().await;
    let running = Running::start(SandboxOptions {
        merchant_url: Some(format!(
            "http://user:pass@{}",
            merchant_url.trim_start_matches("http://")
        )),
        ..quick_options()
    })
    .await;
    let contract = ControlContract::load();
    let account_id = account(&running, "EUR").await;
    let (status, accepted) = running
        .post(
            "/incoming-transfers",
            json!({
                "account_id": account_id,
                "amount": {"value": 3, "currency": "EUR"},
                "status": "PENDING"
            }),
        )
        .await;
    assert_eq!(status, 202, "{accepted}");
    let delivery = running
        .settled_delivery(accepted["delivery_id"].as_str().expect("id"))
        .await;
    assert_eq!(delivery["status"], "DELIVERED");
    assert_eq!(
        delivery["merchant_url"], merchant_url,
        "user and password removed"
    );
    assert_eq!(
        merchant.received()[0].status.as_ref().map(|s| s.as_str()),
        Some("PENDING")
    );

    // Refusals create nothing: no such account, a bad URL, a wrong direction, no amount.
    let before = running.sandbox.deliveries().list().len();
    for (body, status) in [
        (
            json!({"account_id": Uuid::new_v4(), "amount": {"value": 1}}),
            404,
        ),
        (
            json!({"account_id": account_id, "amount": {"value": 1}, "merchant_url": "ftp://x"}),
            400,
        ),
        (
            json!({"account_id": account_id, "amount": {"value": 1}, "direction": "OUTGOING"}),
            400,
        ),
        (json!({"account_id": account_id}), 400),
        (json!({"amount": {"value": 1}}), 400),
    ] {
        let (answered, error) = running.post("/incoming-transfers", body.clone()).await;
        contract.assert_response("post", "/incoming-transfers", answered, &error);
        assert_eq!(answered, status, "{body} → {error}");
    }
    assert_eq!(running.sandbox.deliveries().list().len(), before);
    running.stop().await;

    // Without any merchant URL: 400 and no transfer.
    let running = Running::start(quick_options()).await;
    let account_id = account(&running, "USD").await;
    let (status, error) = running
        .post(
            "/incoming-transfers",
            json!({"account_id": account_id, "amount": {"value": 1}}),
        )
        .await;
    assert_eq!(status, 400, "{error}");
    assert!(
        error["messages"][0]
            .as_str()
            .expect("message")
            .contains("merchant")
    );
    assert!(running.sandbox.deliveries().list().is_empty());
    running.stop().await;
}

#[tokio::test]
async fn shutdown_gives_running_deliveries_their_grace_then_abandons_them() {
    // A merchant that never answers in time: every attempt times out.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let silent = format!("http://{}", listener.local_addr().expect("address"));
    let _keep = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            open.push(socket); // Accepted, never answered.
        }
    });
    let sandbox = sandbox::Sandbox::new(SandboxOptions {
        delivery_policy: webhooks::DeliveryPolicy {
            max_attempts: 1,
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_millis(1),
            timeout: Duration::from_secs(30),
        },
        merchant_url: Some(silent),
        ..SandboxOptions::default()
    })
    .expect("sandbox");
    sandbox
        .service()
        .merchant(&orchestration_api::credentials::Credentials::new(
            "pk", "sk",
        ))
        .seed_onboarding("onb_ready", orchestration_api::OnboardingStatus::Succeeded);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let origin = format!("http://{}", listener.local_addr().expect("address"));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(sandbox.clone().serve(
        listener,
        async {
            let _ = stopped.await;
        },
        Duration::from_millis(200),
    ));
    let http = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client");
    let account_id = Uuid::new_v4();
    let created = http
        .post(format!("{origin}/v1/banking/accounts"))
        .header("public-api-key", "pk")
        .header("private-secret-key", "sk")
        .header("x-idempotency-key", Uuid::new_v4().to_string())
        .json(&json!({
            "account_id": account_id,
            "onboarding_id": "onb_ready",
            "account_type": "CHECKING",
            "currency": "USD"
        }))
        .send()
        .await
        .expect("create");
    assert_eq!(created.status(), 201);
    let accepted: Value = http
        .post(format!("{origin}/_sandbox/incoming-transfers"))
        .header("public-api-key", "pk")
        .header("private-secret-key", "sk")
        .json(&json!({"account_id": account_id, "amount": {"value": 1}}))
        .send()
        .await
        .expect("simulate")
        .json()
        .await
        .expect("json");
    let id = accepted["delivery_id"].as_str().expect("id").to_owned();

    let started = std::time::Instant::now();
    stop.send(()).expect("stop");
    server.await.expect("task").expect("served");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let record = sandbox.deliveries().get(&id).expect("record");
    assert_eq!(record.status, sandbox::DeliveryStatus::Failed);
    assert_eq!(record.reason, Some(sandbox::FailureReason::Abandoned));
}
