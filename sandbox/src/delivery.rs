//! Notifications of simulated incoming transfers, delivered to the merchant through the
//! generated [`Sender`], with a log of every delivery.
//!
//! A delivery starts when the [control API](crate::control) simulates an incoming transfer
//! and runs in the background, so the control API can answer at once (202) while the
//! sender retries: the interface document says the service "retries on 5xx responses and
//! on time-outs, with exponential backoff" and leaves counts, intervals and the time-out
//! open, so they are the [`DeliveryPolicy`] the sandbox is started with.
//!
//! Each delivery is a [`DeliveryRecord`] in the log: `PENDING` while the sender works, then
//! `DELIVERED` (the merchant answered 200 `{"received": true}`) or `FAILED` with a
//! [`FailureReason`]. The sender reports the number of attempts only once it has finished,
//! so `attempts` is `null` while a delivery is pending.
//!
//! The notification goes to `{merchant_url}/v1/banking/transfers`, the fixed path of the
//! interface document, with only `Content-Type: application/json` (the document shows no
//! signature or credential on it).

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use orchestration_api::models::{
    EntityTransfer, Error, IncomingTransferNotification, IncomingTransferNotificationDirection,
    IncomingTransferNotificationStatus, Timestamp,
};
use orchestration_api::webhooks::{Delivery, DeliveryPolicy, GaveUp, Sender};
use reqwest::Url;
use serde::Serialize;
use tokio::sync::Notify;
use tokio::task::JoinSet;
use uuid::Uuid;

use crate::state::{new_id, now, validation_error};

/// Where a delivery stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum DeliveryStatus {
    /// The sender is still trying.
    Pending,
    /// The merchant acknowledged the notification.
    Delivered,
    /// The sender gave up; see the record's `reason`.
    Failed,
}

/// Why a delivery failed, one value per way the generated [`Sender`] gives up, and one for
/// a shutdown that did not wait for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum FailureReason {
    /// The merchant answered 4xx (but 429): retrying would not help.
    Rejected,
    /// The merchant answered, but not 200 with `received: true`.
    NotAcknowledged,
    /// Every attempt met a 5xx or 429, a time-out or a connection error; or the merchant
    /// asked (`Retry-After`) for a longer wait than the delivery policy's longest delay.
    Exhausted,
    /// The payload or the URL could not be used.
    Invalid,
    /// The sandbox shut down (or was reset) before the delivery finished.
    Abandoned,
}

/// One delivery of one notification, as the control API shows it
/// (`GET /_sandbox/deliveries/{id}`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeliveryRecord {
    /// `dlv_…`.
    pub id: String,
    /// Where the delivery stands.
    pub status: DeliveryStatus,
    /// Attempts made, the successful one included; `null` while pending.
    pub attempts: Option<u32>,
    /// Why it failed; `null` unless `FAILED`.
    pub reason: Option<FailureReason>,
    /// What happened, for a person: the last failure, or what was missing from the reply.
    pub detail: Option<String>,
    /// The status of the merchant's last answer, when it answered and it decided the
    /// outcome (a 4xx, or a reply that did not acknowledge).
    pub response_status: Option<u16>,
    /// The body of that answer, as received.
    pub response_body: Option<String>,
    /// The merchant's base URL (user and password, if the URL had any, are removed).
    pub merchant_url: String,
    /// The URL the notification is posted to: the base URL and `/v1/banking/transfers`.
    pub target: String,
    /// The merchant's `account_id` the transfer arrived at.
    pub account_id: Uuid,
    /// The UUID of the transfer in the banking paths
    /// (`/banking/accounts/{account_id}/transfers/{transfer_id}`).
    pub transfer_id: Uuid,
    /// The notification sent.
    pub notification: IncomingTransferNotification,
    /// When the delivery started.
    pub created_at: Timestamp,
    /// When it finished; `null` while pending.
    pub completed_at: Option<Timestamp>,
}

/// The delivering side of the sandbox: a [`Sender`], the default merchant URL, the log,
/// and the background tasks. Cheap to clone (clones share everything).
#[derive(Clone)]
pub struct Deliveries {
    inner: Arc<Inner>,
}

struct Inner {
    sender: Sender,
    policy: DeliveryPolicy,
    default_merchant_url: Option<Url>,
    log: Mutex<Log>,
    tasks: Mutex<JoinSet<()>>,
    /// Woken whenever a delivery finishes, for [`Deliveries::wait`].
    finished: Notify,
}

#[derive(Default)]
struct Log {
    /// Bumped by a reset, so that a delivery started before it cannot write into the
    /// emptied log.
    generation: u64,
    records: Vec<DeliveryRecord>,
}

impl fmt::Debug for Deliveries {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Deliveries")
            .field("policy", &self.inner.policy)
            .field(
                "default_merchant_url",
                &self.inner.default_merchant_url.as_ref().map(Url::as_str),
            )
            .field("records", &self.log().records.len())
            .finish()
    }
}

impl Deliveries {
    /// Deliveries with `policy`, to `default_merchant_url` unless a delivery names its own.
    ///
    /// # Errors
    ///
    /// `default_merchant_url` is not an absolute `http://` URL (see [`merchant_url`]).
    pub fn new(
        policy: DeliveryPolicy,
        default_merchant_url: Option<&str>,
    ) -> Result<Self, MerchantUrlError> {
        let default_merchant_url = default_merchant_url.map(merchant_url).transpose()?;
        // Direct connections: the merchant of a local sandbox is local, and a proxy taken
        // from the environment (HTTP_PROXY) would swallow deliveries to 127.0.0.1. As the
        // generated `Sender::new` does: no compressed reply asked for (a notification carries
        // its Content-Type alone), and a redirect is the merchant's answer, not followed.
        let http = reqwest::Client::builder()
            .no_proxy()
            .no_gzip()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        Ok(Self {
            inner: Arc::new(Inner {
                sender: Sender::with_client(http, policy.clone()),
                policy,
                default_merchant_url,
                log: Mutex::new(Log::default()),
                tasks: Mutex::new(JoinSet::new()),
                finished: Notify::new(),
            }),
        })
    }

    /// The policy every delivery follows.
    #[must_use]
    pub fn policy(&self) -> &DeliveryPolicy {
        &self.inner.policy
    }

    /// The merchant URL a delivery goes to: `requested` when given, else the default.
    ///
    /// # Errors
    ///
    /// 400 `VALIDATION_ERROR` when `requested` is not an absolute `http://` URL, or when
    /// neither it nor a default is there.
    pub fn resolve_merchant_url(&self, requested: Option<&str>) -> Result<Url, Box<Error>> {
        let url = match requested {
            Some(url) => merchant_url(url).map_err(|err| format!("/merchant_url: {err}")),
            None => self.inner.default_merchant_url.clone().ok_or_else(|| {
                "/merchant_url: no merchant URL: send merchant_url, or start the sandbox \
                 with --merchant-url (SANDBOX_MERCHANT_URL)"
                    .to_owned()
            }),
        };
        url.map_err(|message| Box::new(validation_error(message)))
    }

    /// Starts delivering the notification of `transfer` (transfer `transfer_id` of merchant
    /// account `account_id`) to `merchant_url` in the background, and returns its record,
    /// `PENDING`. Must be called within a Tokio runtime.
    pub fn start(
        &self,
        merchant_url: Url,
        account_id: Uuid,
        transfer_id: Uuid,
        transfer: &EntityTransfer,
    ) -> DeliveryRecord {
        let notification = notification_for(transfer);
        let base = merchant_url.as_str().trim_end_matches('/').to_owned();
        let record = DeliveryRecord {
            id: new_id("dlv"),
            status: DeliveryStatus::Pending,
            attempts: None,
            reason: None,
            detail: None,
            response_status: None,
            response_body: None,
            merchant_url: base.clone(),
            target: format!("{base}/v1/banking/transfers"),
            account_id,
            transfer_id,
            notification: notification.clone(),
            created_at: now(),
            completed_at: None,
        };
        let generation = {
            let mut log = self.log();
            log.records.push(record.clone());
            log.generation
        };
        let inner = Arc::clone(&self.inner);
        let id = record.id.clone();
        let mut tasks = self.tasks();
        // Finished tasks stay in the set until joined: reap them here so that a long-lived
        // sandbox does not accumulate them.
        while tasks.try_join_next().is_some() {}
        tasks.spawn(async move {
            let outcome = inner.sender.incoming_transfer(&base, &notification).await;
            match &outcome {
                Delivery::Delivered { attempts } => {
                    tracing::info!(delivery = %id, attempts, "notification delivered");
                }
                Delivery::GaveUp { attempts, reason } => {
                    tracing::warn!(
                        delivery = %id,
                        attempts,
                        reason = ?reason,
                        "notification not delivered"
                    );
                }
            }
            inner.finish(generation, &id, &outcome);
        });
        tracing::info!(
            delivery = %record.id,
            target = %record.target,
            transfer = %transfer_id,
            "notification delivery started"
        );
        record
    }

    /// Every delivery, oldest first.
    #[must_use]
    pub fn list(&self) -> Vec<DeliveryRecord> {
        self.log().records.clone()
    }

    /// Delivery `id`, if any.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<DeliveryRecord> {
        self.log()
            .records
            .iter()
            .find(|record| record.id == id)
            .cloned()
    }

    /// Delivery `id` once it is no longer pending, or as it stands after `timeout`
    /// (`None` when there is no such delivery).
    pub async fn wait(&self, id: &str, timeout: Duration) -> Option<DeliveryRecord> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            // Registered before the check, so a delivery finishing in between still wakes us.
            let finished = self.inner.finished.notified();
            let record = self.get(id)?;
            if record.status != DeliveryStatus::Pending {
                return Some(record);
            }
            if tokio::time::timeout_at(deadline, finished).await.is_err() {
                return self.get(id);
            }
        }
    }

    /// Forgets every delivery; those still running are stopped.
    pub fn reset(&self) {
        self.tasks().abort_all();
        let mut log = self.log();
        log.generation += 1;
        log.records.clear();
    }

    /// For shutdown: waits up to `grace` for the deliveries still running, then stops the
    /// rest and marks them `FAILED` with reason `ABANDONED`. Returns how many were abandoned.
    pub async fn drain(&self, grace: Duration) -> usize {
        let mut tasks = std::mem::take(&mut *self.tasks());
        let all_done =
            tokio::time::timeout(grace, async { while tasks.join_next().await.is_some() {} })
                .await
                .is_ok();
        if all_done {
            return 0;
        }
        tasks.shutdown().await;
        let completed_at = now();
        let mut log = self.log();
        let mut abandoned = 0;
        for record in log
            .records
            .iter_mut()
            .filter(|record| record.status == DeliveryStatus::Pending)
        {
            record.status = DeliveryStatus::Failed;
            record.reason = Some(FailureReason::Abandoned);
            record.detail = Some(format!(
                "the sandbox shut down before the delivery finished (waited {grace:?})"
            ));
            record.completed_at = Some(completed_at.clone());
            abandoned += 1;
        }
        abandoned
    }

    fn log(&self) -> MutexGuard<'_, Log> {
        self.inner.log()
    }

    fn tasks(&self) -> MutexGuard<'_, JoinSet<()>> {
        // The set is only pushed to and drained; a panic elsewhere leaves it usable.
        self.inner
            .tasks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl Inner {
    fn log(&self) -> MutexGuard<'_, Log> {
        // Records are written whole; a poisoned lock still holds a usable log.
        self.log.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes the outcome into record `id`, unless the log was reset since it started.
    fn finish(&self, generation: u64, id: &str, outcome: &Delivery) {
        {
            let mut log = self.log();
            if log.generation != generation {
                return;
            }
            if let Some(record) = log.records.iter_mut().find(|record| record.id == id) {
                apply(record, outcome);
            }
        }
        self.finished.notify_waiters();
    }
}

/// Records what the sender reported.
fn apply(record: &mut DeliveryRecord, outcome: &Delivery) {
    record.completed_at = Some(now());
    match outcome {
        Delivery::Delivered { attempts } => {
            record.status = DeliveryStatus::Delivered;
            record.attempts = Some(*attempts);
        }
        Delivery::GaveUp { attempts, reason } => {
            record.status = DeliveryStatus::Failed;
            record.attempts = Some(*attempts);
            let (kind, detail, status, body) = match reason {
                GaveUp::Rejected { status, body } => (
                    FailureReason::Rejected,
                    format!("the merchant answered {status}"),
                    Some(*status),
                    Some(body.clone()),
                ),
                GaveUp::NotAcknowledged {
                    status,
                    body,
                    reason,
                } => (
                    FailureReason::NotAcknowledged,
                    reason.clone(),
                    Some(*status),
                    Some(body.clone()),
                ),
                GaveUp::Exhausted { last } => (FailureReason::Exhausted, last.clone(), None, None),
                GaveUp::Invalid(why) => (FailureReason::Invalid, why.clone(), None, None),
            };
            record.reason = Some(kind);
            record.detail = Some(detail);
            record.response_status = status;
            record.response_body = body;
        }
    }
}

/// The notification of an incoming transfer, as the interface document's Events section
/// lists its fields (the transfer's other fields are not part of it).
#[must_use]
pub fn notification_for(transfer: &EntityTransfer) -> IncomingTransferNotification {
    IncomingTransferNotification {
        id: transfer.id.clone(),
        destination_account_id: transfer.destination_account_id.clone().flatten(),
        account_id: transfer.account_id.clone(),
        provider: transfer.provider.clone(),
        // The transfer's status is open; the notification's is PENDING or COMPLETED, and any
        // other value is sent as it is (the receiver's check then says so).
        status: transfer
            .status
            .as_ref()
            .map(|status| IncomingTransferNotificationStatus::from(status.as_str())),
        direction: Some(IncomingTransferNotificationDirection::Incoming),
        sender: transfer.sender.clone(),
        amount: transfer.amount.clone(),
        payment_rail: transfer.payment_rail.clone(),
        description: transfer.description.clone(),
        created_at: transfer.created_at.clone(),
        updated_at: transfer.updated_at.clone(),
        additional_properties: serde_json::Map::new(),
    }
}

/// Why a merchant URL cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MerchantUrlError(String);

impl fmt::Display for MerchantUrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MerchantUrlError {}

/// Checks a merchant base URL (`http://127.0.0.1:9000`, the part before
/// `/v1/banking/transfers`) and removes any user and password from it, so that they reach
/// neither the log nor the delivery records.
///
/// Only `http` is accepted: the sandbox is built without TLS, and its merchants are local.
///
/// # Errors
///
/// The URL does not parse, or its scheme is not `http`.
pub fn merchant_url(text: &str) -> Result<Url, MerchantUrlError> {
    let mut url = Url::parse(text.trim())
        .map_err(|err| MerchantUrlError(format!("`{text}` is not an absolute URL: {err}")))?;
    if url.scheme() != "http" {
        return Err(MerchantUrlError(format!(
            "`{}` is not an http:// URL (the sandbox delivers over plain HTTP only)",
            url.scheme()
        )));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(MerchantUrlError(
            "a merchant base URL takes no query or fragment: \
             /v1/banking/transfers is appended to it"
                .into(),
        ));
    }
    // Neither can fail on an http URL, which always has a host.
    let _ = url.set_username("");
    let _ = url.set_password(None);
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merchant_urls_are_checked_and_stripped_of_credentials() {
        let url = merchant_url("http://user:hunter2@127.0.0.1:9000/base").expect("valid");
        assert_eq!(url.as_str(), "http://127.0.0.1:9000/base");
        assert!(merchant_url("https://example.test").is_err());
        assert!(merchant_url("127.0.0.1:9000").is_err());
        assert!(merchant_url("http://127.0.0.1:9000/?a=1").is_err());
    }
}
