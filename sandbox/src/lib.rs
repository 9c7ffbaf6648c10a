//! A local, stateful stand-in for the payment orchestration API (`../shared/interface.md`).
//!
//! The API itself is served by the generated router (`orchestration_api::server`, base
//! path `/v1`), which checks credentials, parameters and bodies against the contract
//! before the in-memory state machine ([`service`]) answers. Beside it, under `/_sandbox`,
//! a control API ([`control`]) for tests seeds state and simulates incoming transfers, whose
//! notifications [`delivery`] sends to the merchant through the generated `Sender`.
//!
//! | module | role |
//! |---|---|
//! | [`service`] | the API: [`InMemoryService`], an implementation of `orchestration_api::server::Api` following the document's state tables and errors, each merchant (credential pair) seeing only its own records ([`Merchant`]) |
//! | `state` | the tables behind it, one set per merchant, and helpers for ids, timestamps and error bodies |
//! | [`idempotency`] | the replay store behind `x-idempotency-key` |
//! | [`control`] | the control API under `/_sandbox` (a test tool: it seeds for the merchant whose credential headers it is sent, and checks nothing) |
//! | [`delivery`] | notification delivery in the background, and its log |
//! | [`request_log`] | one log line per request, credential values never included |
//! | [`config`] | command line and environment (`SANDBOX_*`) |
//! | [`contract_check`] | the served API's own exchanges checked against the contract (specval's tower layer, report mode) |
//!
//! ```no_run
//! # async fn demo() -> anyhow::Result<()> {
//! use sandbox::{Sandbox, SandboxOptions};
//!
//! let sandbox = Sandbox::new(SandboxOptions::default())?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! println!("sandbox on http://{}", listener.local_addr()?);
//! sandbox
//!     .serve(listener, std::future::pending(), std::time::Duration::from_secs(5))
//!     .await?;
//! # Ok(())
//! # }
//! ```

pub mod config;
pub mod contract_check;
pub mod control;
pub mod delivery;
pub mod idempotency;
pub mod request_log;
pub mod service;
mod state;

use std::future::Future;
use std::time::Duration;

use axum::Router;
use orchestration_api::server::{self, ServerConfig};
use orchestration_api::webhooks::DeliveryPolicy;
use tokio::net::TcpListener;
use tokio::sync::watch;

pub use delivery::{Deliveries, DeliveryRecord, DeliveryStatus, FailureReason, MerchantUrlError};
pub use service::{CANCELLED_STATUS, InMemoryService, Merchant, TRANSFER_NOT_FOUND};

/// How a [`Sandbox`] behaves; [`config::Args`] builds one from the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxOptions {
    /// How long idempotency keys are kept (see [`idempotency`]).
    pub idempotency_ttl: Duration,
    /// Attempts, backoff and time-out of notification deliveries.
    pub delivery_policy: DeliveryPolicy,
    /// Where notifications go when a simulated transfer names no `merchant_url`: the
    /// merchant's base URL, before `/v1/banking/transfers`.
    pub merchant_url: Option<String>,
    /// Largest request body accepted, in bytes: a larger one is answered 400 by the API (the
    /// generated router's answer) and 413 `PAYLOAD_TOO_LARGE` by the control API.
    pub body_limit: usize,
    /// Check every exchange [`Sandbox::serve`] serves against the contract
    /// ([`contract_check`]); on by default.
    pub contract_check: bool,
}

impl Default for SandboxOptions {
    fn default() -> Self {
        Self {
            idempotency_ttl: idempotency::DEFAULT_TTL,
            delivery_policy: DeliveryPolicy::default(),
            merchant_url: None,
            body_limit: ServerConfig::default().body_limit,
            contract_check: true,
        }
    }
}

/// The whole sandbox: the API's state, the deliveries, and the router serving both.
/// Cheap to clone (clones share everything).
#[derive(Debug, Clone)]
pub struct Sandbox {
    service: InMemoryService,
    deliveries: Deliveries,
    body_limit: usize,
    contract_check: Option<contract_check::ContractCheck>,
}

impl Sandbox {
    /// An empty sandbox.
    ///
    /// # Errors
    ///
    /// `options.merchant_url` is not an absolute `http://` URL.
    pub fn new(options: SandboxOptions) -> Result<Self, MerchantUrlError> {
        Ok(Self {
            service: InMemoryService::with_idempotency_ttl(options.idempotency_ttl),
            deliveries: Deliveries::new(options.delivery_policy, options.merchant_url.as_deref())?,
            body_limit: options.body_limit,
            contract_check: if options.contract_check {
                contract_check::ContractCheck::new()
            } else {
                None
            },
        })
    }

    /// What the contract check found so far, when it is on ([`SandboxOptions::contract_check`]).
    #[must_use]
    pub fn contract_check(&self) -> Option<&contract_check::ContractCheck> {
        self.contract_check.as_ref()
    }

    /// The API's state, to seed or inspect it from Rust.
    #[must_use]
    pub fn service(&self) -> &InMemoryService {
        &self.service
    }

    /// The deliveries and their log.
    #[must_use]
    pub fn deliveries(&self) -> &Deliveries {
        &self.deliveries
    }

    /// Every route: the API under `/v1` (through the generated router) and the control API
    /// under [`control::PREFIX`], each request logged by [`request_log`]. Without the
    /// contract check, which [`Sandbox::serve`] adds.
    pub fn router(&self) -> Router {
        self.routes(None)
    }

    /// [`Sandbox::router`], the API behind `check` when there is one (the control API is not
    /// part of the contract).
    // Field by field rather than a struct literal: the generated `ServerConfig` may gain
    // fields, whose defaults should then apply.
    #[allow(clippy::field_reassign_with_default)]
    fn routes(&self, check: Option<&contract_check::ContractCheck>) -> Router {
        let mut config = ServerConfig::default();
        config.body_limit = self.body_limit;
        let control = control::router(control::Control {
            service: self.service.clone(),
            deliveries: self.deliveries.clone(),
            body_limit: self.body_limit,
        });
        let api = server::router_with(self.service.clone(), config);
        let api = match check {
            Some(check) => check.wrap(api),
            None => api,
        };
        api.nest(control::PREFIX, control)
            .layer(axum::middleware::from_fn(request_log::log_request))
    }

    /// Serves on `listener` until `shutdown` completes, then stops gracefully: no new
    /// connections, requests in flight answered — for at most `grace` — and the
    /// notification deliveries still running given the same `grace` to finish.
    ///
    /// # Errors
    ///
    /// The server fails (accepting connections is retried by axum, so this is rare).
    pub async fn serve<F>(
        self,
        listener: TcpListener,
        shutdown: F,
        grace: Duration,
    ) -> std::io::Result<()>
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let (signalled, mut on_signal) = watch::channel(false);
        let server = axum::serve(listener, self.routes(self.contract_check.as_ref()))
            .with_graceful_shutdown(async move {
                shutdown.await;
                let _ = signalled.send(true);
            });
        // A client that holds a request open must not keep the sandbox from stopping: once
        // the signal has come, the server gets `grace` to finish, no more.
        let deadline = async {
            if on_signal.wait_for(|signalled| *signalled).await.is_ok() {
                tokio::time::sleep(grace).await;
            } else {
                std::future::pending::<()>().await;
            }
        };
        tokio::select! {
            served = server => served?,
            () = deadline => {
                tracing::warn!(
                    ?grace,
                    "requests still open after the grace period; stopping anyway"
                );
            }
        }
        if let Some(check) = &self.contract_check
            && !check.settle(grace).await
        {
            tracing::warn!(?grace, "exchanges left unchecked at shutdown");
        }
        let abandoned = self.deliveries.drain(grace).await;
        if abandoned > 0 {
            tracing::warn!(
                abandoned,
                ?grace,
                "notification deliveries abandoned at shutdown"
            );
        }
        Ok(())
    }
}
