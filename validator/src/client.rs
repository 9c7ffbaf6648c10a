//! Client-side checks (cargo feature `client`): the service's answers, as a client of it
//! receives them, judged against the contract, so a merchant's integration tests catch a
//! service that drifts from it.
//!
//! [`ClientCheck`] takes each exchange as `http` messages: the request as sent and the
//! response as received. It plugs into a client specgen generated through that client's
//! `ClientBuilder::observe` hook, which calls it for every attempt, and takes exchanges from
//! anything else that speaks `http` (a reqwest middleware, a test harness) through
//! [`ClientCheck::observe`]. The checks, the findings and their masking are `specval check`'s:
//! the request is judged too (a client that sends what the contract forbids is a finding as
//! well), credentials never appear in a finding, and each finding is logged with `tracing`
//! at `warn` level (target `specval::client`).
//!
//! # Example
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//!
//! use orchestration_api::client::Client;
//! use orchestration_api::credentials::Credentials;
//! use specval::client::ClientCheck;
//!
//! let checks = ClientCheck::new(Arc::new(specval::Contract::embedded()?));
//! let client = Client::builder("http://127.0.0.1:8080/v1", Credentials::new("pk", "sk"))
//!     .observe(checks.observer())
//!     .build()?;
//! let _ = client.get_account(&uuid::Uuid::nil()).await;
//! checks.assert_clean(); // panics, naming each rule the service's answers broke
//! # Ok(())
//! # }
//! ```

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::check::{self, CheckOptions};
use crate::contract::Contract;
use crate::exchange::Exchange;
use crate::finding::Finding;
use crate::http_exchange::{request_of, response_of};

/// Judges the exchanges of a client against the contract and keeps the findings. Clones share
/// the findings and the counts. See the [module documentation](self).
#[derive(Clone)]
pub struct ClientCheck {
    contract: Arc<Contract>,
    options: CheckOptions,
    source: Arc<str>,
    seen: Arc<AtomicU64>,
    findings: Arc<Mutex<Vec<Finding>>>,
}

impl ClientCheck {
    /// Checks against `contract`, in the default mode of `specval check` (errors only,
    /// values masked). Requests are matched on their path after a base path of the spec's
    /// servers or one added with [`Contract::add_base_urls`].
    pub fn new(contract: Arc<Contract>) -> Self {
        ClientCheck {
            contract,
            options: CheckOptions::default(),
            source: Arc::from("client"),
            seen: Arc::default(),
            findings: Arc::default(),
        }
    }

    /// Strictness and masking, as `specval check --strict --show-values`.
    pub fn check_options(mut self, options: CheckOptions) -> Self {
        self.options = options;
        self
    }

    /// The name findings give as their source (default `client`).
    pub fn source(mut self, source: impl Into<String>) -> Self {
        self.source = Arc::from(source.into());
        self
    }

    /// Judges one exchange, keeps and logs its findings, and returns them. Exchanges are
    /// numbered from 0 in the order they are observed.
    pub fn observe<B, C>(
        &self,
        request: &http::Request<B>,
        response: &http::Response<C>,
    ) -> Vec<Finding>
    where
        B: AsRef<[u8]>,
        C: AsRef<[u8]>,
    {
        let index = self.seen.fetch_add(1, Ordering::Relaxed) as usize;
        let exchange = Exchange {
            index,
            line: None,
            id: None,
            source: self.source.to_string(),
            kind: None,
            request: request_of(
                request.method(),
                request.uri(),
                request.headers(),
                request.body().as_ref(),
            ),
            response: Some(response_of(
                response.status(),
                response.headers(),
                response.body().as_ref(),
            )),
            failure: None,
        };
        let findings = check::findings_of(&self.contract, &exchange, self.options);
        for finding in &findings {
            crate::finding::warn_finding!("specval::client", finding);
        }
        self.lock().extend(findings.iter().cloned());
        findings
    }

    /// A closure for a generated client's `ClientBuilder::observe` that feeds this check.
    pub fn observer(
        &self,
    ) -> impl Fn(&http::Request<Vec<u8>>, &http::Response<Vec<u8>>) + Send + Sync + 'static {
        let check = self.clone();
        move |request, response| {
            check.observe(request, response);
        }
    }

    /// How many exchanges were judged.
    pub fn checked(&self) -> u64 {
        self.seen.load(Ordering::Relaxed)
    }

    /// The findings so far, in the order they were found.
    pub fn findings(&self) -> Vec<Finding> {
        self.lock().clone()
    }

    /// The findings so far, leaving none.
    pub fn take_findings(&self) -> Vec<Finding> {
        std::mem::take(&mut *self.lock())
    }

    /// Panics when any exchange broke the contract, with one line per finding (rule,
    /// operation, part, place and message: never a credential, and values masked unless
    /// asked for), or when no exchange was observed at all: a check that saw nothing proves
    /// nothing.
    #[track_caller]
    pub fn assert_clean(&self) {
        let findings = self.findings();
        if self.checked() == 0 {
            panic!("specval: no exchange was observed: is the observer installed on the client?");
        }
        if findings.is_empty() {
            return;
        }
        let mut text = format!(
            "specval: {} finding(s) in {} exchange(s) observed:\n",
            findings.len(),
            self.checked()
        );
        for finding in &findings {
            let _ = writeln!(text, "  {}", describe(finding));
        }
        panic!("{text}");
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Finding>> {
        // A panic while holding the lock leaves the list whole: each push is one call.
        self.findings.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl std::fmt::Debug for ClientCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientCheck")
            .field("checked", &self.checked())
            .field("findings", &self.lock().len())
            .finish_non_exhaustive()
    }
}

/// One finding on one line, as `specval check`'s text report words it, after the exchange
/// and the operation.
pub fn describe(finding: &Finding) -> String {
    let operation = finding.operation.as_deref().unwrap_or("(no operation)");
    format!(
        "exchange {} {}: {}",
        finding.exchange,
        crate::report::text::clean(operation),
        crate::report::text::describe(finding)
    )
}
