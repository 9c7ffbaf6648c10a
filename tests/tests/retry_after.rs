//! `Retry-After` on 429 and 503, for the generated client and the webhook `Sender`, over
//! loopback against small scripted servers.
//!
//! The rule (`orchestration_api::retry`): a 429 or 503 whose `Retry-After` asks for a wait
//! (delay-seconds or an HTTP-date) is retried no sooner than asked, nor sooner than the
//! backoff; when it asks for more than the policy's `max_delay`, it is not retried and the
//! answer stands. 429 is retried like a 5xx (the client only where a retry is safe).
//!
//! Waits are checked from below only (the server notes when each attempt arrives): a retry
//! that honours `Retry-After: 1` cannot arrive less than a second after the answer that asked
//! for it, whereas the backoff of these policies is a few milliseconds.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use chrono::Utc;
use orchestration_api::client::{Client, ClientError};
use orchestration_api::credentials::Credentials;
use orchestration_api::retry::{RetryPolicy, parse_retry_after};
use orchestration_api::webhooks::{Delivery, DeliveryPolicy, GaveUp, Sender};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use uuid::Uuid;

const ACCOUNT: Uuid = Uuid::from_u128(0x2d3e_4f50_6172_4839_9a4b_5c6d_7e8f_9012);
const TRANSFER: Uuid = Uuid::from_u128(0x7a1b_2c3d_4e5f_4061_8293_a4b5_c6d7_e8f9);

/// The `Retry-After` of a scripted answer.
#[derive(Clone, Copy)]
enum Wait {
    /// None.
    No,
    /// delay-seconds.
    Seconds(u64),
    /// An HTTP-date (IMF-fixdate) this many seconds after the answer, truncated to the
    /// second.
    DateIn(i64),
}

/// One scripted answer: a status and its `Retry-After`.
type Step = (u16, Wait);

/// A server that answers each request with the next scripted step (the success body once
/// the script is used up) and notes when each request arrived.
#[derive(Clone)]
struct Scripted {
    steps: Arc<Mutex<VecDeque<Step>>>,
    arrivals: Arc<Mutex<Vec<Instant>>>,
    success: Value,
}

impl Scripted {
    fn new(steps: Vec<Step>, success: Value) -> Self {
        Self {
            steps: Arc::new(Mutex::new(steps.into())),
            arrivals: Arc::new(Mutex::new(Vec::new())),
            success,
        }
    }

    fn arrivals(&self) -> Vec<Instant> {
        self.arrivals.lock().expect("arrivals").clone()
    }

    /// The time between each attempt and the next.
    fn gaps(&self) -> Vec<Duration> {
        self.arrivals()
            .windows(2)
            .map(|pair| pair[1] - pair[0])
            .collect()
    }
}

async fn answer(State(app): State<Scripted>) -> Response {
    app.arrivals.lock().expect("arrivals").push(Instant::now());
    let step = app.steps.lock().expect("steps").pop_front();
    let Some((status, wait)) = step else {
        return axum::Json(app.success.clone()).into_response();
    };
    let status = StatusCode::from_u16(status).expect("status");
    let body =
        json!({"code": "UNAVAILABLE", "messages": ["not now"], "http_code": status.as_u16()});
    let mut response = (status, axum::Json(body)).into_response();
    let value = match wait {
        Wait::No => return response,
        Wait::Seconds(seconds) => seconds.to_string(),
        Wait::DateIn(seconds) => (chrono::DateTime::<Utc>::from(SystemTime::now())
            + chrono::TimeDelta::seconds(seconds))
        .format("%a, %d %b %Y %H:%M:%S GMT")
        .to_string(),
    };
    response.headers_mut().insert(
        header::RETRY_AFTER,
        HeaderValue::from_str(&value).expect("header value"),
    );
    response
}

/// Serves `router` on 127.0.0.1:0 for the rest of the test; returns `http://127.0.0.1:PORT`.
async fn serve(router: Router) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let origin = format!("http://{}", listener.local_addr().expect("address"));
    tokio::spawn(async move { axum::serve(listener, router).await });
    origin
}

fn account_json() -> Value {
    json!({"id": "acct_2f7c9a1e4b6d", "account_id": ACCOUNT, "status": "ACTIVE"})
}

/// A client whose own backoff is a few milliseconds, waiting up to 5 s for `Retry-After`.
fn client(origin: &str, max_attempts: u32) -> Client {
    Client::builder(format!("{origin}/v1"), Credentials::new("pk", "sk"))
        .retry(RetryPolicy {
            max_attempts,
            base_delay: Duration::from_millis(2),
            max_delay: Duration::from_secs(5),
        })
        .build()
        .expect("client")
}

fn sender(max_attempts: u32) -> Sender {
    Sender::new(DeliveryPolicy {
        max_attempts,
        base_delay: Duration::from_millis(2),
        max_delay: Duration::from_secs(5),
        timeout: Duration::from_secs(10),
    })
}

fn status_of<T: std::fmt::Debug>(result: Result<T, ClientError>) -> u16 {
    match result {
        Err(ClientError::Api { status, .. }) => status.as_u16(),
        other => panic!("expected an error status, got {other:?}"),
    }
}

#[tokio::test]
async fn the_client_waits_as_long_as_retry_after_asks_on_503_and_429() {
    let app = Scripted::new(
        vec![(503, Wait::Seconds(1)), (429, Wait::DateIn(2))],
        account_json(),
    );
    let origin = serve(
        Router::new()
            .route("/v1/banking/accounts/{account_id}", get(answer))
            .with_state(app.clone()),
    )
    .await;

    let account = client(&origin, 3)
        .get_account(&ACCOUNT)
        .await
        .expect("the third attempt succeeds");
    assert_eq!(account.account_id, Some(ACCOUNT));
    let gaps = app.gaps();
    assert_eq!(gaps.len(), 2, "a 503 and a 429, each retried: {gaps:?}");
    // delay-seconds: `1`.
    assert!(gaps[0] >= Duration::from_secs(1), "{gaps:?}");
    // An HTTP-date two seconds ahead, truncated to the second: at least one second away.
    assert!(gaps[1] >= Duration::from_secs(1), "{gaps:?}");
}

#[tokio::test]
async fn the_client_returns_at_once_when_retry_after_asks_more_than_the_policy_allows() {
    let app = Scripted::new(
        vec![(503, Wait::Seconds(3600)), (429, Wait::DateIn(3600))],
        account_json(),
    );
    let origin = serve(
        Router::new()
            .route("/v1/banking/accounts/{account_id}", get(answer))
            .with_state(app.clone()),
    )
    .await;
    let client = client(&origin, 3);

    assert_eq!(status_of(client.get_account(&ACCOUNT).await), 503);
    assert_eq!(
        app.arrivals().len(),
        1,
        "an hour is beyond max_delay: no retry"
    );
    assert_eq!(status_of(client.get_account(&ACCOUNT).await), 429);
    assert_eq!(
        app.arrivals().len(),
        2,
        "a date an hour ahead: no retry either"
    );
}

#[tokio::test]
async fn a_429_is_retried_only_where_a_retry_is_safe() {
    let app = Scripted::new(vec![(429, Wait::No), (429, Wait::No)], account_json());
    let origin = serve(
        Router::new()
            .route("/v1/banking/accounts/{account_id}", get(answer))
            .route(
                "/v1/banking/accounts/{account_id}/transfers/{transfer_id}/cancel",
                post(answer),
            )
            .with_state(app.clone()),
    )
    .await;
    let client = client(&origin, 3);

    // A GET: retried through both 429s (no Retry-After: the backoff alone).
    client
        .get_account(&ACCOUNT)
        .await
        .expect("the third attempt succeeds");
    assert_eq!(app.arrivals().len(), 3);

    // Cancel is a POST without an idempotency key: a 429 is returned, not retried.
    app.steps
        .lock()
        .expect("steps")
        .push_back((429, Wait::Seconds(1)));
    assert_eq!(
        status_of(client.cancel_account_transfer(&ACCOUNT, &TRANSFER).await),
        429
    );
    assert_eq!(app.arrivals().len(), 4);
}

#[tokio::test]
async fn the_sender_waits_as_long_as_retry_after_asks_on_503_and_429() {
    let app = Scripted::new(
        vec![(503, Wait::Seconds(1)), (429, Wait::DateIn(2))],
        json!({"received": true}),
    );
    let origin = serve(
        Router::new()
            .route("/v1/banking/transfers", post(answer))
            .with_state(app.clone()),
    )
    .await;

    let delivery = sender(4)
        .incoming_transfer(&origin, &Default::default())
        .await;
    assert_eq!(delivery, Delivery::Delivered { attempts: 3 });
    let gaps = app.gaps();
    assert!(gaps[0] >= Duration::from_secs(1), "{gaps:?}");
    assert!(gaps[1] >= Duration::from_secs(1), "{gaps:?}");
}

#[tokio::test]
async fn the_sender_gives_up_when_retry_after_asks_more_than_the_policy_allows() {
    let app = Scripted::new(vec![(503, Wait::Seconds(3600))], json!({"received": true}));
    let origin = serve(
        Router::new()
            .route("/v1/banking/transfers", post(answer))
            .with_state(app.clone()),
    )
    .await;

    match sender(4)
        .incoming_transfer(&origin, &Default::default())
        .await
    {
        Delivery::GaveUp {
            attempts: 1,
            reason: GaveUp::Exhausted { last },
        } => assert!(
            last.contains("answered 503") && last.contains("Retry-After"),
            "{last}"
        ),
        other => panic!("expected to give up after the one attempt, got {other:?}"),
    }
    assert_eq!(app.arrivals().len(), 1);
}

#[test]
fn retry_after_values_are_read_in_both_forms() {
    // Sun, 06 Nov 1994 08:49:37 GMT, RFC 9110's example date.
    let date = SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_777);
    let before = date - Duration::from_secs(90);
    let read = |value: &str| parse_retry_after(value, before);

    assert_eq!(read("120"), Some(Duration::from_secs(120)));
    assert_eq!(read(" 0 "), Some(Duration::ZERO));
    // IMF-fixdate and the two obsolete forms a recipient must still read.
    for value in [
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
    ] {
        assert_eq!(read(value), Some(Duration::from_secs(90)), "{value}");
    }
    // A date already past asks for no wait.
    assert_eq!(
        parse_retry_after(
            "Sun, 06 Nov 1994 08:49:37 GMT",
            date + Duration::from_secs(5)
        ),
        Some(Duration::ZERO)
    );
    // More digits than fit: longer than any policy waits, not unreadable.
    assert_eq!(read("99999999999999999999999"), Some(Duration::MAX));
    for value in ["", "soon", "-5", "1.5", "06 Nov 1994"] {
        assert_eq!(read(value), None, "{value:?}");
    }
}

#[test]
fn a_retry_after_within_the_policy_is_waited_in_full_and_one_beyond_it_ends_the_retries() {
    let policy = RetryPolicy {
        max_attempts: 3,
        base_delay: Duration::from_millis(100),
        max_delay: Duration::from_secs(5),
    };
    assert_eq!(
        policy.delay_after(1, Some(Duration::from_secs(2))),
        Some(Duration::from_secs(2))
    );
    assert_eq!(
        policy.delay_after(1, Some(Duration::from_secs(5))),
        Some(Duration::from_secs(5))
    );
    assert_eq!(policy.delay_after(1, Some(Duration::from_secs(6))), None);
    // Never sooner than the backoff (between half and all of 100 ms for the first retry).
    let wait = policy.delay_after(1, Some(Duration::ZERO)).expect("a wait");
    assert!(wait >= Duration::from_millis(50), "{wait:?}");
}
