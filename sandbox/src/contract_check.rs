//! The served API's own exchanges checked against the contract: specval's tower layer in
//! report mode around the generated router, so every run of the sandbox (its tests, a
//! merchant's integration tests, Schemathesis) also proves that it stays inside the contract
//! it stands in for.
//!
//! The checks run on a thread of their own ([`ContractLayer::check_in_background`]), so
//! answers do not wait for them. Each finding is logged at `warn` under the target
//! `specval::layer` and kept ([`ContractCheck::findings`], the first
//! [`KEPT_FINDINGS`]). Findings about requests are the client's doing (the sandbox answers
//! those with the documented 400 or 401); findings about responses are the sandbox's
//! ([`ContractCheck::service_findings`]). The control API is not part of the contract and is
//! not checked.

use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use axum::Router;
use specval::Finding;
use specval::finding::Part;
use specval::layer::{ContractLayer, LayerStats};

/// How many findings are kept (all are logged and counted).
pub const KEPT_FINDINGS: usize = 10_000;

/// The layer and what it found. Cheap to clone (clones share everything).
#[derive(Clone)]
pub struct ContractCheck {
    layer: ContractLayer,
    stats: Arc<LayerStats>,
    findings: Arc<Mutex<Vec<Finding>>>,
}

impl std::fmt::Debug for ContractCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ContractCheck")
            .field("checked", &self.stats.checked())
            .field("findings", &self.stats.findings())
            .finish_non_exhaustive()
    }
}

impl ContractCheck {
    /// A check over the embedded contract; `None` (with an error logged) if it cannot be
    /// set up, which would be a build defect: the contract is compiled in and tested.
    #[must_use]
    pub fn new() -> Option<Self> {
        let contract = match contract() {
            Ok(contract) => contract,
            Err(err) => {
                tracing::error!("the contract check is off: the embedded contract: {err}");
                return None;
            }
        };
        let findings: Arc<Mutex<Vec<Finding>>> = Arc::default();
        let kept = findings.clone();
        let layer = ContractLayer::new(contract)
            .source("sandbox")
            .on_finding(move |finding| {
                let mut kept = kept.lock().unwrap_or_else(PoisonError::into_inner);
                if kept.len() < KEPT_FINDINGS {
                    kept.push(finding.clone());
                }
            })
            .check_in_background(1);
        let layer = match layer {
            Ok(layer) => layer,
            Err(err) => {
                tracing::error!("the contract check is off: no checking thread: {err}");
                return None;
            }
        };
        Some(ContractCheck {
            stats: layer.stats(),
            layer,
            findings,
        })
    }

    /// `api` behind the layer.
    pub fn wrap(&self, api: Router) -> Router {
        api.layer(self.layer.clone())
    }

    /// The layer's counters (exchanges checked, findings, pending).
    #[must_use]
    pub fn stats(&self) -> &LayerStats {
        &self.stats
    }

    /// Every finding kept so far, in the order found.
    #[must_use]
    pub fn findings(&self) -> Vec<Finding> {
        self.findings
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The findings about the sandbox's own answers: each one is a defect of the sandbox.
    #[must_use]
    pub fn service_findings(&self) -> Vec<Finding> {
        let mut findings = self.findings();
        findings.retain(|finding| matches!(finding.part, Part::Response | Part::Reply));
        findings
    }

    /// Waits, up to `grace`, until every exchange served so far has been checked; whether
    /// it has. ([`LayerStats::wait_idle`] off the runtime's threads: it sleeps between looks.)
    pub async fn settle(&self, grace: Duration) -> bool {
        let stats = self.stats.clone();
        tokio::task::spawn_blocking(move || stats.wait_idle(grace))
            .await
            .unwrap_or(false)
    }
}

/// The embedded contract, compiled once per process (every sandbox shares it).
fn contract() -> Result<Arc<specval::Contract>, String> {
    static CONTRACT: OnceLock<Result<Arc<specval::Contract>, String>> = OnceLock::new();
    CONTRACT
        .get_or_init(|| {
            specval::Contract::embedded()
                .map(Arc::new)
                .map_err(|err| err.to_string())
        })
        .clone()
}
