//! The service handle: [`InMemoryService`], one state behind a mutex that its clones share,
//! how it is made, and the lock every operation and seed runs under.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use crate::idempotency;
use crate::state::{Books, State};

/// An in-memory implementation of [`Api`](orchestration_api::server::Api); see the [module
/// documentation](super) for what each operation does.
#[derive(Clone)]
pub struct InMemoryService {
    state: Arc<Mutex<State>>,
}

impl Default for InMemoryService {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for InMemoryService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.lock();
        let count = |table: fn(&Books) -> usize| state.all_books().map(table).sum::<usize>();
        f.debug_struct("InMemoryService")
            .field("merchants", &state.all_books().count())
            .field("onboardings", &count(|books| books.onboardings.len()))
            .field("accounts", &count(|books| books.accounts.len()))
            .field("transfers", &count(|books| books.transfers.len()))
            .field("entities", &count(|books| books.entities.len()))
            .field("payments", &count(|books| books.payments.len()))
            .field(
                "reverse_transfers",
                &count(|books| books.reverse_transfers.len()),
            )
            .field("account_keys", &count(|books| books.account_keys.len()))
            .field("entity_keys", &count(|books| books.entity_keys.len()))
            .finish()
    }
}

impl InMemoryService {
    /// An empty service that keeps idempotency keys for
    /// [`DEFAULT_TTL`](idempotency::DEFAULT_TTL) (24 h).
    #[must_use]
    pub fn new() -> Self {
        Self::with_idempotency_ttl(idempotency::DEFAULT_TTL)
    }

    /// An empty service that keeps idempotency keys for `ttl` (`Duration::ZERO` keeps none:
    /// every request is processed afresh).
    #[must_use]
    pub fn with_idempotency_ttl(ttl: Duration) -> Self {
        Self {
            state: Arc::new(Mutex::new(State::new(ttl))),
        }
    }

    /// How long idempotency keys are kept.
    #[must_use]
    pub fn idempotency_ttl(&self) -> Duration {
        self.lock().idempotency_ttl()
    }

    /// Forgets everything — every merchant's onboardings, accounts, transfers, entities,
    /// payments, reverse-transfer results and idempotency keys — keeping the configuration.
    pub fn reset(&self) {
        self.lock().reset();
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, State> {
        // A panic under the lock leaves tables that are still each valid (every operation
        // writes a record whole), so a poisoned lock is used as is rather than taking the
        // whole sandbox down.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
