//! Logs: one line per request with method, matched path, status and latency, and never a
//! credential value — captured at `trace` level (every crate's events, hyper's and axum's
//! included) into a buffer while requests carry credentials in every place a careless
//! logger could pick them up.

mod common;

use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

use common::{PUBLIC_KEY, Running, SECRET_KEY, quick_options, seed_onboarding};
use serde_json::json;
use uuid::Uuid;

/// Shared log output.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buffer {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(PoisonError::into_inner)).into_owned()
    }
}

/// A password in a merchant URL, which deliveries must not log either.
const URL_PASSWORD: &str = "url_SECRET_pw_51d0";

#[tokio::test]
async fn request_lines_are_logged_and_credentials_never_are() {
    let buffer = Buffer::default();
    let writer = buffer.clone();
    // The only test of this file, so the global subscriber is this one; the runtime's
    // worker threads log into it too.
    tracing_subscriber::fmt()
        .with_env_filter("trace")
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .init();

    let running = Running::start(quick_options()).await;
    let client = running.client();
    seed_onboarding(&running, "onb_ready", "SUCCEEDED").await;
    let account_id = Uuid::new_v4();
    let key = Uuid::new_v4();
    let create = json!({
        "account_id": account_id,
        "onboarding_id": "onb_ready",
        "account_type": "CHECKING",
        "currency": "USD"
    });
    let send = |body: serde_json::Value, public: Option<&str>, secret: Option<&str>| {
        let mut request = running
            .http
            .post(format!(
                "{}/v1/banking/accounts?private-secret-key={SECRET_KEY}",
                running.origin
            ))
            .header("x-idempotency-key", key.to_string())
            .json(&body);
        if let Some(public) = public {
            request = request.header("public-api-key", public);
        }
        if let Some(secret) = secret {
            request = request.header("private-secret-key", secret);
        }
        request.send()
    };
    // Created, replayed, refused (key reused), unauthenticated (one header only), invalid.
    assert_eq!(
        send(create.clone(), Some(PUBLIC_KEY), Some(SECRET_KEY))
            .await
            .expect("send")
            .status(),
        201
    );
    assert_eq!(
        send(create.clone(), Some(PUBLIC_KEY), Some(SECRET_KEY))
            .await
            .expect("send")
            .status(),
        201
    );
    let mut other = create.clone();
    other["currency"] = json!("EUR");
    assert_eq!(
        send(other, Some(PUBLIC_KEY), Some(SECRET_KEY))
            .await
            .expect("send")
            .status(),
        400
    );
    assert_eq!(
        send(create.clone(), Some(PUBLIC_KEY), None)
            .await
            .expect("send")
            .status(),
        401
    );
    assert_eq!(
        send(json!({"account_id": 7}), Some(PUBLIC_KEY), Some(SECRET_KEY))
            .await
            .expect("send")
            .status(),
        400
    );
    client.get_account(&account_id).await.expect("get account");
    assert!(client.get_account(&Uuid::new_v4()).await.is_err());

    // A delivery to a merchant URL with a password, which cannot connect.
    let (status, accepted) = running
        .post(
            "/incoming-transfers",
            json!({
                "account_id": account_id,
                "amount": {"value": 1},
                "merchant_url": format!("http://merchant:{URL_PASSWORD}@127.0.0.1:1"),
            }),
        )
        .await;
    assert_eq!(status, 202, "{accepted}");
    running
        .settled_delivery(accepted["delivery_id"].as_str().expect("id"))
        .await;

    // Debug output of the whole sandbox, as someone might log it.
    tracing::info!(sandbox = ?running.sandbox, "state");
    running.stop().await;

    let logs = buffer.text();
    for secret in [PUBLIC_KEY, SECRET_KEY, URL_PASSWORD] {
        assert!(
            !logs.contains(secret),
            "the logs contain the credential {secret}:\n{logs}"
        );
    }
    // One line per request, with what an operator needs.
    let request_lines: Vec<&str> = logs
        .lines()
        .filter(|line| line.contains("sandbox::request"))
        .collect();
    assert!(
        request_lines.iter().any(|line| line.contains("method=POST")
            && line.contains("path=/v1/banking/accounts ")
            && line.contains("status=201")
            && line.contains("latency_ms=")
            && line.contains("credentials=public-api-key,private-secret-key")),
        "{logs}"
    );
    assert!(
        request_lines.iter().any(|line| line.contains("status=401")
            && line.ends_with("credentials=public-api-key")),
        "{logs}"
    );
    assert!(
        request_lines.iter().any(|line| line.contains("method=GET")
            && line.contains("path=/v1/banking/accounts/{account_id} ")
            && line.contains("status=404")),
        "{logs}"
    );
    assert!(
        request_lines
            .iter()
            .any(|line| line.contains("path=/_sandbox/incoming-transfers ")
                && line.contains("status=202")
                && line.contains("credentials=public-api-key,private-secret-key")),
        "{logs}"
    );
    assert!(logs.contains("notification not delivered"), "{logs}");
    assert!(
        logs.contains("http://127.0.0.1:1/v1/banking/transfers"),
        "{logs}"
    );
    // Count: onboarding, 5 creates, 2 gets, the simulated transfer, and the polls.
    assert!(request_lines.len() >= 9, "{}", request_lines.join("\n"));
}
