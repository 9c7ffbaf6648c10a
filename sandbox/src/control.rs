//! The control API under `/_sandbox`: a **test tool**, not part of the payment
//! orchestration API. It seeds what the API has no operation for (onboardings, balances,
//! transfers, payments, reverse-transfer results), simulates incoming transfers and shows
//! the log of their notifications.
//!
//! It **checks no credentials**: anyone who can reach the sandbox can change its state,
//! which is why the sandbox listens on 127.0.0.1 by default. The seeding routes (every
//! route but the delivery log and reset) take the merchant's `public-api-key` and
//! `private-secret-key` headers only to say whose data it is: the records they seed belong
//! to that merchant, as what it creates through the API does (see
//! [Merchants](crate::service#merchants)); without both, 400 `VALIDATION_ERROR`
//! ([`MERCHANT_REQUIRED`]). The delivery log and reset are sandbox-wide. Bodies are JSON
//! both ways (the
//! request's `Content-Type` is not checked, so `curl -d` works as is); errors have the
//! API's error body (`code`, `messages`, `http_code`), a body over the sandbox's body limit
//! included (413 [`PAYLOAD_TOO_LARGE`]).
//!
//! | method and path | does | answers |
//! |---|---|---|
//! | `POST /_sandbox/onboardings` | adds or replaces an onboarding (`status` required; `id` → `onb_…` when absent) | 201 the onboarding |
//! | `PUT /_sandbox/accounts/{account_id}/balance` | sets `available`, `current`, `pending` | 200 the account; 404 `ACCOUNT_NOT_FOUND` |
//! | `POST /_sandbox/accounts/{account_id}/transfers` | adds a transfer (`status` `PENDING` or `COMPLETED` and `amount.value` required) | 201 `{transfer_id, transfer}`; 404 `ACCOUNT_NOT_FOUND` |
//! | `POST /_sandbox/payments` | adds a payment for lookup (`merchant_order_id` required) | 201 the payment |
//! | `POST /_sandbox/reverse-transfers` | sets the reverse-transfer result of a `transfer_id` (invented when not given) | 201 `{transfer_id, result}` |
//! | `POST /_sandbox/incoming-transfers` | adds an incoming transfer and delivers its notification in the background | 202 `{delivery_id, transfer_id, transfer, delivery}`; 404 `ACCOUNT_NOT_FOUND` |
//! | `GET /_sandbox/deliveries` | the delivery log, oldest first | 200 array of deliveries |
//! | `GET /_sandbox/deliveries/{id}` | one delivery | 200; 404 `NOT_FOUND` |
//! | `POST /_sandbox/reset` | forgets everything, stops running deliveries | 200 `{"reset": true}` |
//!
//! `sandbox/control-api.yaml` describes the same in OpenAPI 3.1.

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest, FromRequestParts, Path, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use orchestration_api::credentials::Credentials;
use orchestration_api::models::{
    EntityTransfer, Error, ErrorCode, Onboarding, OnboardingStatus, OnboardingType,
    OnboardingWorkflow, Payment, ReverseTransferResult, TransferDirection, TransferSender,
    TransferStatus,
};
use orchestration_api::support::Decimal;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use uuid::Uuid;

use crate::delivery::Deliveries;
use crate::service::{InMemoryService, Merchant};
use crate::state::{account_not_found, error, new_id, now, validation_error};

/// The path every control route lives under.
pub const PREFIX: &str = "/_sandbox";

/// What the control API works on.
#[derive(Debug, Clone)]
pub struct Control {
    /// The state the API serves.
    pub service: InMemoryService,
    /// Notification deliveries and their log.
    pub deliveries: Deliveries,
    /// Largest request body, in bytes (the sandbox's `--body-limit`); a larger one is
    /// answered 413 `PAYLOAD_TOO_LARGE`.
    pub body_limit: usize,
}

/// The control routes, relative to [`PREFIX`] (nest them there).
pub fn router(control: Control) -> Router {
    let body_limit = control.body_limit;
    Router::new()
        .route("/onboardings", post(create_onboarding))
        .route("/accounts/{account_id}/balance", put(set_balance))
        .route("/accounts/{account_id}/transfers", post(create_transfer))
        .route("/payments", post(create_payment))
        .route("/reverse-transfers", post(set_reverse_transfer))
        .route("/incoming-transfers", post(simulate_incoming_transfer))
        .route("/deliveries", get(list_deliveries))
        .route("/deliveries/{id}", get(get_delivery))
        .route("/reset", post(reset))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(control)
}

// ---------------------------------------------------------------------------------------------
// Errors and bodies
// ---------------------------------------------------------------------------------------------

/// An error of the control API: the API's error body, answered with its `http_code`
/// (boxed, so that every `Result` of the handlers stays small).
#[derive(Debug)]
struct ControlError(Box<Error>);

impl From<Error> for ControlError {
    fn from(error: Error) -> Self {
        Self(Box::new(error))
    }
}

impl From<Box<Error>> for ControlError {
    fn from(error: Box<Error>) -> Self {
        Self(error)
    }
}

impl IntoResponse for ControlError {
    fn into_response(self) -> Response {
        let status = u16::try_from(self.0.http_code)
            .ok()
            .and_then(|code| StatusCode::from_u16(code).ok())
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, axum::Json(self.0)).into_response()
    }
}

type Answer = Result<Response, ControlError>;

/// The error code of a request body over [`Control::body_limit`].
pub const PAYLOAD_TOO_LARGE: &str = "PAYLOAD_TOO_LARGE";

/// The message of the 400 answering a seeding request without the merchant's credentials.
pub const MERCHANT_REQUIRED: &str = "say whose data this is: send the merchant's \
    public-api-key and private-secret-key headers (the credentials of its API calls); \
    each credential pair is a merchant with records of its own";

/// The merchant a seeding request is for: the one presenting the `public-api-key` and
/// `private-secret-key` headers, as its API calls do (any non-empty values; they are not
/// checked, only used to find the merchant's records). Without both: 400
/// `VALIDATION_ERROR` ([`MERCHANT_REQUIRED`]).
struct ForMerchant(Merchant);

impl FromRequestParts<Control> for ForMerchant {
    type Rejection = ControlError;

    async fn from_request_parts(
        parts: &mut Parts,
        control: &Control,
    ) -> Result<Self, Self::Rejection> {
        let header = |name: &str| {
            parts
                .headers
                .get(name)
                .and_then(|value| value.to_str().ok())
                .filter(|value| !value.is_empty())
        };
        match (header("public-api-key"), header("private-secret-key")) {
            (Some(public), Some(secret)) => Ok(Self(
                control.service.merchant(&Credentials::new(public, secret)),
            )),
            _ => Err(validation_error(MERCHANT_REQUIRED).into()),
        }
    }
}

/// A request body read in full. One over the body limit is answered 413
/// [`PAYLOAD_TOO_LARGE`] with the error body, like every other error of the control API
/// (axum's own rejection is plain text); a body that cannot be read, 400
/// `VALIDATION_ERROR`.
struct Body(Bytes);

impl FromRequest<Control> for Body {
    type Rejection = ControlError;

    async fn from_request(request: Request, control: &Control) -> Result<Self, Self::Rejection> {
        Bytes::from_request(request, control)
            .await
            .map(Self)
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    error(
                        413,
                        ErrorCode::from(PAYLOAD_TOO_LARGE),
                        format!(
                            "request body larger than {} bytes (--body-limit)",
                            control.body_limit
                        ),
                    )
                    .into()
                } else {
                    validation_error(format!("request body: {}", rejection.body_text())).into()
                }
            })
    }
}

/// Parses a JSON body; an empty body is `{}`, so optional bodies can be left out.
fn body<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, ControlError> {
    let parsed = if bytes.iter().all(u8::is_ascii_whitespace) {
        serde_json::from_value(Value::Object(Map::new()))
    } else {
        serde_json::from_slice(bytes)
    };
    parsed.map_err(|err| validation_error(format!("request body: {err}")).into())
}

/// A JSON object body, for the routes that take a resource plus a few fields of their own.
fn object(bytes: &Bytes) -> Result<Map<String, Value>, ControlError> {
    match body::<Value>(bytes)? {
        Value::Object(map) => Ok(map),
        _ => Err(validation_error("request body: expected a JSON object").into()),
    }
}

/// Turns what is left of an object into the API type `T`.
fn resource<T: DeserializeOwned>(map: Map<String, Value>) -> Result<T, ControlError> {
    serde_json::from_value(Value::Object(map))
        .map_err(|err| validation_error(format!("request body: {err}")).into())
}

/// Takes an optional UUID member out of `map`.
fn take_uuid(map: &mut Map<String, Value>, name: &str) -> Result<Option<Uuid>, ControlError> {
    match map.remove(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Uuid::parse_str(&text).map(Some).map_err(|err| {
            validation_error(format!("/{name}: `{text}` is not a UUID: {err}")).into()
        }),
        Some(other) => {
            Err(validation_error(format!("/{name}: expected a UUID string, got {other}")).into())
        }
    }
}

/// Takes an optional string member out of `map`.
fn take_string(map: &mut Map<String, Value>, name: &str) -> Result<Option<String>, ControlError> {
    match map.remove(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(other) => {
            Err(validation_error(format!("/{name}: expected a string, got {other}")).into())
        }
    }
}

/// A merchant `account_id` path value.
fn account_path(text: &str) -> Result<Uuid, ControlError> {
    Uuid::parse_str(text).map_err(|err| {
        validation_error(format!("path account_id: `{text}` is not a UUID: {err}")).into()
    })
}

fn json_response(status: StatusCode, value: impl serde::Serialize) -> Response {
    (status, axum::Json(value)).into_response()
}

fn with_location(mut response: Response, location: &str) -> Response {
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
}

async fn not_found(uri: Uri) -> ControlError {
    error(
        404,
        ErrorCode::from("NOT_FOUND"),
        format!("no control route at {}", uri.path()),
    )
    .into()
}

async fn method_not_allowed(method: Method, uri: Uri) -> ControlError {
    error(
        405,
        ErrorCode::from("METHOD_NOT_ALLOWED"),
        format!("{method} is not a control route of {}", uri.path()),
    )
    .into()
}

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------

/// `POST /onboardings`: any onboarding field may be given; `status` is required. Missing:
/// `id` → `onb_…`, `type` → `ONE_STEP_ONBOARDING`, `workflow` → `DIRECT`, timestamps → now.
async fn create_onboarding(ForMerchant(merchant): ForMerchant, Body(bytes): Body) -> Answer {
    let mut onboarding: Onboarding = resource(object(&bytes)?)?;
    match &onboarding.status {
        Some(status) if !status.as_str().is_empty() => {}
        _ => {
            return Err(validation_error(
                "/status is required (SUCCEEDED lets accounts be created from the onboarding)",
            )
            .into());
        }
    }
    fill_onboarding(&mut onboarding, "onb");
    merchant.insert_onboarding(onboarding.clone());
    Ok(json_response(StatusCode::CREATED, onboarding))
}

/// Fills what a seeded onboarding lacks.
fn fill_onboarding(onboarding: &mut Onboarding, prefix: &str) {
    let now = now();
    onboarding.id.get_or_insert_with(|| new_id(prefix));
    onboarding
        .type_
        .get_or_insert(OnboardingType::OneStepOnboarding);
    onboarding
        .workflow
        .get_or_insert(OnboardingWorkflow::Direct);
    onboarding.created_at.get_or_insert_with(|| now.clone());
    onboarding.updated_at.get_or_insert(now);
}

/// The body of `PUT /accounts/{account_id}/balance`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Balance {
    available: Decimal,
    current: Decimal,
    pending: Decimal,
}

/// `PUT /accounts/{account_id}/balance`.
async fn set_balance(
    ForMerchant(merchant): ForMerchant,
    Path(account_id): Path<String>,
    Body(bytes): Body,
) -> Answer {
    let account_id = account_path(&account_id)?;
    let balance: Balance = body(&bytes)?;
    let account = merchant
        .set_balance(
            account_id,
            balance.available,
            balance.current,
            balance.pending,
        )
        .ok_or_else(|| account_not_found(account_id))?;
    Ok(json_response(StatusCode::OK, account))
}

/// `POST /accounts/{account_id}/transfers`: an entity transfer plus an optional
/// `transfer_id` (the UUID of the banking paths; a fresh one when absent).
async fn create_transfer(
    ForMerchant(merchant): ForMerchant,
    Path(account_id): Path<String>,
    Body(bytes): Body,
) -> Answer {
    let account_id = account_path(&account_id)?;
    let mut map = object(&bytes)?;
    let transfer_id = take_uuid(&mut map, "transfer_id")?;
    let transfer: EntityTransfer = resource(map)?;
    let (transfer_id, transfer) =
        merchant.add_transfer(account_id, transfer_id, with_sender(transfer))?;
    let response = json_response(
        StatusCode::CREATED,
        json!({"transfer_id": transfer_id, "transfer": transfer}),
    );
    Ok(with_location(
        response,
        &format!("/v1/banking/accounts/{account_id}/transfers/{transfer_id}"),
    ))
}

/// An incoming transfer without a `sender` gets an invented one ("sender: incoming
/// transfers only"), so that its notification shows the field.
fn with_sender(mut transfer: EntityTransfer) -> EntityTransfer {
    if transfer.direction == Some(TransferDirection::Incoming) && transfer.sender.is_none() {
        transfer.sender = Some(TransferSender {
            account_number_last_4: Some(json!("6789")),
            routing_number: Some(json!("026009593")),
            account_name: Some(json!("Sandbox Sender")),
            bank_name: Some(json!("Sandbox Bank")),
            ..TransferSender::default()
        });
    }
    transfer
}

/// `POST /payments`: a payment; `merchant_order_id` is required (lookup is by it). Missing:
/// `id` → a UUID v4, timestamps → now.
async fn create_payment(ForMerchant(merchant): ForMerchant, Body(bytes): Body) -> Answer {
    let mut payment: Payment = resource(object(&bytes)?)?;
    if payment
        .merchant_order_id
        .as_deref()
        .is_none_or(str::is_empty)
    {
        return Err(validation_error(
            "/merchant_order_id is required (payments are looked up by it)",
        )
        .into());
    }
    let now = now();
    payment.id.get_or_insert_with(Uuid::new_v4);
    payment.created_at.get_or_insert_with(|| now.clone());
    payment.updated_at.get_or_insert(now);
    merchant.seed_payment(payment.clone());
    Ok(json_response(StatusCode::CREATED, payment))
}

/// The body of `POST /reverse-transfers`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReverseTransferSeed {
    transfer_id: Uuid,
    #[serde(default)]
    result: Option<ReverseTransferResult>,
}

/// `POST /reverse-transfers`: what the reverse-transfer operation answers for
/// `transfer_id`. Without `result`, one is invented: an `INACTIVE` origin onboarding and a
/// `SUCCEEDED` destination onboarding. The result's onboardings that have an id become
/// onboardings of the merchant, so the destination can open accounts.
async fn set_reverse_transfer(ForMerchant(merchant): ForMerchant, Body(bytes): Body) -> Answer {
    let seed: ReverseTransferSeed = body(&bytes)?;
    let result = seed.result.unwrap_or_else(invented_reverse_transfer);
    for onboarding in [&result.origin_onboarding, &result.destination_onboarding]
        .into_iter()
        .flatten()
        .filter(|onboarding| onboarding.id.is_some())
    {
        merchant.insert_onboarding(onboarding.clone());
    }
    merchant.seed_reverse_transfer_result(seed.transfer_id, result.clone());
    Ok(json_response(
        StatusCode::CREATED,
        json!({"transfer_id": seed.transfer_id, "result": result}),
    ))
}

fn invented_reverse_transfer() -> ReverseTransferResult {
    let onboarding = |status: OnboardingStatus, description: &str| {
        let mut onboarding = Onboarding {
            status: Some(status),
            description: Some(description.to_owned()),
            ..Onboarding::default()
        };
        fill_onboarding(&mut onboarding, "onb");
        onboarding
    };
    let now = now();
    ReverseTransferResult {
        id: Some(Value::String(new_id("rto"))),
        origin_onboarding: Some(onboarding(
            OnboardingStatus::Inactive,
            "Origin of the reverse transfer",
        )),
        destination_onboarding: Some(onboarding(
            OnboardingStatus::Succeeded,
            "Destination of the reverse transfer",
        )),
        created_at: Some(now.clone()),
        updated_at: Some(now),
        ..ReverseTransferResult::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Incoming transfers and their notifications
// ---------------------------------------------------------------------------------------------

/// `POST /incoming-transfers`: `account_id` (the merchant's UUID) and `amount` required;
/// `status` defaults to `COMPLETED` (the money has arrived); optional `transfer_id`,
/// `merchant_url` (else the sandbox's default) and any field of an entity transfer.
/// Nothing is created when the merchant URL is missing or unusable.
async fn simulate_incoming_transfer(
    State(control): State<Control>,
    ForMerchant(merchant): ForMerchant,
    Body(bytes): Body,
) -> Answer {
    let mut map = object(&bytes)?;
    let Some(account_id) = take_uuid(&mut map, "account_id")? else {
        return Err(validation_error("/account_id is required").into());
    };
    let transfer_id = take_uuid(&mut map, "transfer_id")?;
    let requested_url = take_string(&mut map, "merchant_url")?;
    let mut transfer: EntityTransfer = resource(map)?;
    match &transfer.direction {
        None | Some(TransferDirection::Incoming) => {}
        Some(other) => {
            return Err(validation_error(format!(
                "/direction: an incoming transfer is INCOMING, not {}",
                other.as_str()
            ))
            .into());
        }
    }
    transfer.direction = Some(TransferDirection::Incoming);
    transfer.status.get_or_insert(TransferStatus::Completed);
    if transfer.amount.is_none() {
        return Err(validation_error("/amount is required, e.g. {\"value\": 125.5}").into());
    }
    let url = control
        .deliveries
        .resolve_merchant_url(requested_url.as_deref())?;
    let (transfer_id, transfer) =
        merchant.add_transfer(account_id, transfer_id, with_sender(transfer))?;
    let delivery = control
        .deliveries
        .start(url, account_id, transfer_id, &transfer);
    let location = format!("{PREFIX}/deliveries/{}", delivery.id);
    let response = json_response(
        StatusCode::ACCEPTED,
        json!({
            "delivery_id": delivery.id,
            "transfer_id": transfer_id,
            "transfer": transfer,
            "delivery": delivery,
        }),
    );
    Ok(with_location(response, &location))
}

/// `GET /deliveries`.
async fn list_deliveries(State(control): State<Control>) -> Response {
    json_response(StatusCode::OK, control.deliveries.list())
}

/// `GET /deliveries/{id}`.
async fn get_delivery(State(control): State<Control>, Path(id): Path<String>) -> Answer {
    let delivery = control.deliveries.get(&id).ok_or_else(|| {
        error(
            404,
            ErrorCode::from("NOT_FOUND"),
            format!("no delivery {id}"),
        )
    })?;
    Ok(json_response(StatusCode::OK, delivery))
}

/// `POST /reset`.
async fn reset(State(control): State<Control>) -> Response {
    control.deliveries.reset();
    control.service.reset();
    tracing::info!("sandbox reset");
    json_response(StatusCode::OK, json!({"reset": true}))
}
