//! The in-memory state machine: an implementation of [`orchestration_api::server::Api`]
//! that follows the state tables and errors of the interface document
//! (`../shared/interface.md`).
//!
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! use orchestration_api::OnboardingStatus;
//! use sandbox::service::InMemoryService;
//!
//! let service = InMemoryService::new();
//! service.seed_onboarding("onb_ready", OnboardingStatus::Succeeded);
//! let app = orchestration_api::server::router(service.clone());
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! axum::serve(listener, app).await
//! # }
//! ```
//!
//! [`InMemoryService`] is cheap to clone: clones share one state behind a mutex, so a test
//! (or the [control API](crate::control)) keeps a clone to seed data and inspect the
//! outcome while the router serves another. Every operation runs under the lock, start to
//! end, so concurrent requests see each other's effects atomically (two replays of one
//! idempotency key create one record). No lock is held across an `.await`.
//!
//! # What it does, operation by operation
//!
//! The generated router has already checked credentials (401 `NOT_AUTHENTICATED`),
//! parameters, headers and bodies (400 `VALIDATION_ERROR`) before a method here runs.
//! Every error body built here has `http_code` equal to the status.
//!
//! | operation | outcome |
//! |---|---|
//! | create account | key replayed or reused → see [Idempotency](#idempotency); onboarding unknown → 404 `ONBOARDING_NOT_FOUND`; onboarding not `SUCCEEDED` → 400 `VALIDATION_ERROR`; `account_id` already has an account → 400 `VALIDATION_ERROR`\*; else 201, status `ACTIVE`, zero balance |
//! | get account | 200, or 404 `ACCOUNT_NOT_FOUND` |
//! | update account | 404 `ACCOUNT_NOT_FOUND`; body `account_id` ≠ path `account_id` → 400 `VALIDATION_ERROR`\*; `account_type` not CHECKING, SAVINGS or INVESTMENT → 400 `VALIDATION_ERROR`; else 200 with `account_type` (when sent) and `updated_at` refreshed |
//! | close account | 404 `ACCOUNT_NOT_FOUND`; balance not zero → 400 `VALIDATION_ERROR`, status unchanged; else 200, status `CLOSED`, `updated_at` refreshed (from any status: the table's state is "any") |
//! | get transfer | unknown account → 404 `ACCOUNT_NOT_FOUND`; unknown transfer of a known account → 404 [`TRANSFER_NOT_FOUND`]\* |
//! | cancel transfer | as get transfer for the 404s; not `PENDING` → 400 `VALIDATION_ERROR`, unchanged; `PENDING` → 200 with the transfer, now status [`CANCELLED_STATUS`]\* and `updated_at` refreshed |
//! | create entity | key replayed or reused → see [Idempotency](#idempotency); `merchant_entity_id` already used → 409 `DUPLICATE_ENTITY`; else 201 |
//! | reverse transfer | the result [seeded](InMemoryService::seed_reverse_transfer_result) for `transfer_id` → 200\*; none → 404 [`TRANSFER_NOT_FOUND`]\* |
//! | payment lookup | 200 with every [seeded](InMemoryService::seed_payment) payment whose `merchant_order_id` matches, in seeding order (possibly `[]`) |
//!
//! \* The document is silent here; this is the choice made, listed again below.
//!
//! # Idempotency
//!
//! `x-idempotency-key` (required on create account and create entity) is handled by
//! [`crate::idempotency`]: keys are scoped per operation and per `public-api-key`; the same
//! key with the same body returns the first response (201 and the record as first
//! created) without a second effect; the same key with a different body is 400
//! `VALIDATION_ERROR` ([`KEY_REUSED`](crate::idempotency::KEY_REUSED)); only successes are
//! remembered; keys are kept for the configured time-to-live (24 h by default). The
//! reverse-transfer operation accepts a key but has no effect to de-duplicate.
//!
//! # Choices where the document is silent
//!
//! - **The status after cancellation** is [`CANCELLED_STATUS`] (`"CANCELLED"`), which the
//!   generated [`TransferStatus`] keeps as `TransferStatus::Unknown("CANCELLED")`. The 200
//!   body of cancel (not shown by the document) is the cancelled transfer.
//! - **An unknown transfer of a known account** is 404 with code `TRANSFER_NOT_FOUND`, not
//!   `ACCOUNT_NOT_FOUND`: the account exists, and a client that reads `ACCOUNT_NOT_FOUND` as
//!   "the account is gone" would be misled. The code list is documented as incomplete, and
//!   404 is a documented status of both transfer operations.
//! - **One account per merchant `account_id`.** Accounts are addressed by the merchant's
//!   `account_id` (the path parameter), so a second creation for the same `account_id` under
//!   a new idempotency key is 400 `VALIDATION_ERROR`.
//! - **An update whose body `account_id` differs from the path's** is 400
//!   `VALIDATION_ERROR`: the document requires both and does not say they must agree, and
//!   the sandbox refuses the mismatch rather than guess which one is meant. JSON Schema cannot
//!   compare the two, so the spec does not say it either (see `scripts/schemathesis.toml`).
//! - **The `entity_id` of a new account** is the id of the latest entity created for the
//!   same `account_id`, or a fresh `ent_…` id when there is none.
//! - **Bank details** (account number, routing number or IBAN, sort code, BSB, SWIFT, rails)
//!   are invented from the currency: USD → US (routing number, ACH/wire/RTP), GBP → UK (IBAN,
//!   sort code, FPS/CHAPS/BACS), AUD → Australia (BSB, NPP/PayTo/BPAY), EUR → EU (IBAN,
//!   wire), anything else → wire only.
//! - **"Balance is zero"** means available, current and pending are all zero (an absent one
//!   counts as zero).
//! - **Update of a closed account** is allowed (the document has no rule against it); a
//!   closed account can be closed again (the table's state is "any").
//! - **Entity creation** copies the request into the [`Entity`]; an `address` or
//!   `entity_detail` whose fields do not fit the response shape is 400 `VALIDATION_ERROR`.
//! - **Reverse transfer** succeeds with 200 (the document only says "2XX").
//! - **Transfers do not move balances**: balances change only when set
//!   ([`InMemoryService::set_balance`]), since the document says nothing about how a
//!   transfer affects them.
//! - Credentials are not checked beyond being present (any non-empty pair is accepted).

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use axum::http;
use orchestration_api::models::{
    Account, AccountBalance, AccountDetails, AccountProvider, AccountStatus, CreateAccountRequest,
    CreateEntityRequest, Entity, EntityTransfer, Error, ErrorCode, Onboarding, OnboardingStatus,
    OnboardingType, OnboardingWorkflow, Payment, PaymentRail, PaymentRails, Phone,
    ReverseTransferResult, TransferDirection, TransferProvider, TransferStatus,
    UpdateAccountRequest,
};
use orchestration_api::server::{
    Api, CancelAccountTransferParams, CancelAccountTransferResponse, CloseAccountParams,
    CloseAccountResponse, CreateAccountParams, CreateAccountResponse, CreateEntityParams,
    CreateEntityResponse, GetAccountParams, GetAccountResponse, GetAccountTransferParams,
    GetAccountTransferResponse, GetPaymentsByMerchantOrderIdParams,
    GetPaymentsByMerchantOrderIdResponse, ReverseTransferOnboardingParams,
    ReverseTransferOnboardingResponse, UpdateAccountParams, UpdateAccountResponse,
};
use orchestration_api::support::Decimal;
use serde_json::Value;
use uuid::Uuid;

use crate::idempotency::{self, KEY_REUSED, Lookup, Scope};
use crate::state::{
    BankDetails, State, account_not_found, balance_is_zero, error, later_than, new_id, now,
    strings, validation_error,
};

/// The status a cancelled transfer gets (the document does not show it).
pub const CANCELLED_STATUS: &str = "CANCELLED";

/// The error code of a 404 for a transfer that does not exist on a known account, and for a
/// reverse transfer of an unknown `transfer_id` (the document does not show either).
pub const TRANSFER_NOT_FOUND: &str = "TRANSFER_NOT_FOUND";

/// An in-memory implementation of [`Api`]; see the [module documentation](self) for what
/// each operation does.
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
        f.debug_struct("InMemoryService")
            .field("onboardings", &state.onboardings.len())
            .field("accounts", &state.accounts.len())
            .field("transfers", &state.transfers.len())
            .field("entities", &state.entities.len())
            .field("payments", &state.payments.len())
            .field("reverse_transfers", &state.reverse_transfers.len())
            .field("account_keys", &state.account_keys)
            .field("entity_keys", &state.entity_keys)
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
        self.lock().account_keys.ttl()
    }

    /// Forgets everything — onboardings, accounts, transfers, entities, payments,
    /// reverse-transfer results and idempotency keys — keeping the configuration.
    pub fn reset(&self) {
        self.lock().reset();
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic under the lock leaves tables that are still each valid (every operation
        // writes a record whole), so a poisoned lock is used as is rather than taking the
        // whole sandbox down.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    // -----------------------------------------------------------------------------------------
    // Seeding: the document has no operation that creates these
    // -----------------------------------------------------------------------------------------

    /// Adds (or replaces) onboarding `id` with `status`, type `ONE_STEP_ONBOARDING` and
    /// workflow `DIRECT`, and returns it. Account creation refers to it by `id`; give ids the
    /// `onb_` prefix, since an account's `onboarding_id` is documented as prefixed `onb_`.
    pub fn seed_onboarding(&self, id: impl Into<String>, status: OnboardingStatus) -> Onboarding {
        let now = now();
        let onboarding = Onboarding {
            id: Some(id.into()),
            type_: Some(OnboardingType::OneStepOnboarding),
            workflow: Some(OnboardingWorkflow::Direct),
            status: Some(status),
            created_at: Some(now.clone()),
            updated_at: Some(now),
            ..Onboarding::default()
        };
        self.insert_onboarding(onboarding.clone());
        onboarding
    }

    /// Adds (or replaces) a complete onboarding record, keyed by its `id` (an onboarding
    /// without an id is keyed by the empty string).
    pub fn insert_onboarding(&self, onboarding: Onboarding) {
        let id = onboarding.id.clone().unwrap_or_default();
        self.lock().onboardings.insert(id, onboarding);
    }

    /// Sets the balance of the account of merchant `account_id` and returns the account, or
    /// `None` when there is no such account. `updated_at` is left as it is: the balance
    /// moves without the account record being updated.
    pub fn set_balance(
        &self,
        account_id: Uuid,
        available: impl Into<Decimal>,
        current: impl Into<Decimal>,
        pending: impl Into<Decimal>,
    ) -> Option<Account> {
        let mut state = self.lock();
        let (_, account) = state.accounts.get_mut(&account_id)?;
        account.balance = Some(AccountBalance {
            available: Some(available.into()),
            current: Some(current.into()),
            pending: Some(pending.into()),
            ..AccountBalance::default()
        });
        Some(account.clone())
    }

    /// Adds (or replaces) transfer `transfer_id` of merchant `account_id` and returns it as
    /// stored. A missing `id` becomes a fresh `xfer_…` id, a missing `account_id` the
    /// merchant's `account_id`, a missing `status` `PENDING`, missing timestamps now. The
    /// account itself need not exist yet: the transfer operations check it when called.
    /// [`add_transfer`](Self::add_transfer) is the checked variant.
    pub fn seed_transfer(
        &self,
        account_id: Uuid,
        transfer_id: Uuid,
        mut transfer: EntityTransfer,
    ) -> EntityTransfer {
        let now = now();
        transfer.id.get_or_insert_with(|| new_id("xfer"));
        transfer
            .account_id
            .get_or_insert_with(|| account_id.to_string());
        transfer.status.get_or_insert(TransferStatus::Pending);
        transfer.created_at.get_or_insert_with(|| now.clone());
        transfer.updated_at.get_or_insert(now);
        let mut state = self.lock();
        let order = state.next();
        state
            .transfers
            .insert((account_id, transfer_id), (order, transfer.clone()));
        transfer
    }

    /// Adds a new transfer to the existing account of merchant `account_id`, under
    /// `transfer_id` (a fresh UUID v4 when `None`), and returns the transfer id with the
    /// transfer as stored.
    ///
    /// The transfer must have a `status` of `PENDING` or `COMPLETED` (the documented
    /// values) and an `amount` with a `value`. What is missing is filled in from the account:
    /// `id` (`xfer_…`), `account_id`, `direction` (`OUTGOING`), `source_account_id` (the
    /// account's `acct_` id, on an outgoing transfer), `destination_account_id` (the
    /// account's id on an incoming transfer, `null` on an outgoing one: "null for an
    /// outgoing transfer to an external account"), the amount's `currency`, `provider`,
    /// `payment_rail` (the account's first rail in that direction), `description` and the
    /// timestamps.
    ///
    /// # Errors
    ///
    /// 404 `ACCOUNT_NOT_FOUND` when there is no such account; 400 `VALIDATION_ERROR` when
    /// the status or the amount is missing or invalid, or the account already has a
    /// transfer `transfer_id`.
    pub fn add_transfer(
        &self,
        account_id: Uuid,
        transfer_id: Option<Uuid>,
        mut transfer: EntityTransfer,
    ) -> Result<(Uuid, EntityTransfer), Box<Error>> {
        match transfer.status.as_ref() {
            Some(TransferStatus::Pending | TransferStatus::Completed) => {}
            Some(other) => {
                return Err(Box::new(validation_error(format!(
                    "/status: {} is not PENDING or COMPLETED",
                    other.as_str()
                ))));
            }
            None => return Err(Box::new(validation_error("/status is required"))),
        }
        if transfer
            .amount
            .as_ref()
            .is_none_or(|amount| amount.value.is_none())
        {
            return Err(Box::new(validation_error("/amount/value is required")));
        }
        let transfer_id = transfer_id.unwrap_or_else(Uuid::new_v4);
        let mut state = self.lock();
        let Some((_, account)) = state.accounts.get(&account_id) else {
            return Err(Box::new(account_not_found(account_id)));
        };
        if state.transfers.contains_key(&(account_id, transfer_id)) {
            return Err(Box::new(validation_error(format!(
                "/transfer_id: account {account_id} already has a transfer {transfer_id}"
            ))));
        }
        let direction = transfer
            .direction
            .get_or_insert(TransferDirection::Outgoing)
            .clone();
        let incoming = direction == TransferDirection::Incoming;
        let rails = account.payment_rails.as_ref().and_then(|rails| {
            if incoming {
                rails.incoming.as_ref()
            } else {
                rails.outgoing.as_ref()
            }
        });
        if transfer.payment_rail.is_none() {
            transfer.payment_rail = rails
                .and_then(|rails| rails.first())
                .map(|rail| PaymentRail::from(rail.as_str()));
        }
        if let Some(amount) = transfer.amount.as_mut()
            && amount.currency.is_none()
        {
            amount.currency.clone_from(&account.currency);
        }
        if incoming {
            if transfer.destination_account_id.is_none() {
                transfer.destination_account_id = Some(account.id.clone());
            }
        } else {
            if transfer.source_account_id.is_none() {
                transfer.source_account_id.clone_from(&account.id);
            }
            transfer.destination_account_id.get_or_insert(None);
        }
        let provider_account = account
            .provider
            .as_ref()
            .and_then(|provider| provider.account_id.clone());
        let order = state.next();
        transfer.provider.get_or_insert_with(|| TransferProvider {
            account_id: provider_account,
            transfer_id: Some(format!("pt_{:08}", 88_000_000 + order)),
            ..TransferProvider::default()
        });
        transfer.id.get_or_insert_with(|| new_id("xfer"));
        transfer
            .account_id
            .get_or_insert_with(|| account_id.to_string());
        transfer.description.get_or_insert_with(String::new);
        let now = now();
        transfer.created_at.get_or_insert_with(|| now.clone());
        transfer.updated_at.get_or_insert(now);
        state
            .transfers
            .insert((account_id, transfer_id), (order, transfer.clone()));
        Ok((transfer_id, transfer))
    }

    /// Adds a payment; payment lookup returns it when its `merchant_order_id` matches.
    pub fn seed_payment(&self, payment: Payment) {
        self.lock().payments.push(payment);
    }

    /// Sets what the reverse-transfer operation returns for `transfer_id` (as given: nothing
    /// is filled in).
    pub fn seed_reverse_transfer_result(
        &self,
        transfer_id: impl Into<String>,
        result: ReverseTransferResult,
    ) {
        self.lock()
            .reverse_transfers
            .insert(transfer_id.into(), result);
    }

    // -----------------------------------------------------------------------------------------
    // Inspection
    // -----------------------------------------------------------------------------------------

    /// The account of merchant `account_id`, if any.
    #[must_use]
    pub fn account(&self, account_id: Uuid) -> Option<Account> {
        self.lock()
            .accounts
            .get(&account_id)
            .map(|(_, account)| account.clone())
    }

    /// Every account, in the order they were created.
    #[must_use]
    pub fn accounts(&self) -> Vec<Account> {
        let state = self.lock();
        let mut accounts: Vec<_> = state.accounts.values().collect();
        accounts.sort_by_key(|(order, _)| *order);
        accounts
            .into_iter()
            .map(|(_, account)| account.clone())
            .collect()
    }

    /// Transfer `transfer_id` of merchant `account_id`, if any.
    #[must_use]
    pub fn transfer(&self, account_id: Uuid, transfer_id: Uuid) -> Option<EntityTransfer> {
        self.lock()
            .transfers
            .get(&(account_id, transfer_id))
            .map(|(_, transfer)| transfer.clone())
    }

    /// Every entity, in the order they were created.
    #[must_use]
    pub fn entities(&self) -> Vec<Entity> {
        self.lock().entities.clone()
    }

    /// Every payment, in the order they were seeded.
    #[must_use]
    pub fn payments(&self) -> Vec<Payment> {
        self.lock().payments.clone()
    }

    /// Onboarding `id`, if any.
    #[must_use]
    pub fn onboarding(&self, id: &str) -> Option<Onboarding> {
        self.lock().onboardings.get(id).cloned()
    }
}

// ---------------------------------------------------------------------------------------------
// The operations
// ---------------------------------------------------------------------------------------------

impl Api for InMemoryService {
    async fn create_account(
        &self,
        params: CreateAccountParams,
        body: CreateAccountRequest,
    ) -> CreateAccountResponse {
        let mut state = self.lock();
        let scope = Scope::new(
            params.credentials.public_api_key.expose(),
            params.x_idempotency_key,
        );
        let request = serde_json::to_value(&body).unwrap_or(Value::Null);
        match state.account_keys.lookup(&scope, &request, Instant::now()) {
            Lookup::Replay(account) => return CreateAccountResponse::Created(account.clone()),
            Lookup::Mismatch => return CreateAccountResponse::BadRequest(key_reused(&scope)),
            Lookup::Fresh => {}
        }
        match create_account(&mut state, body) {
            Ok(account) => {
                state
                    .account_keys
                    .remember(scope, request, account.clone(), Instant::now());
                CreateAccountResponse::Created(account)
            }
            Err(refused) => *refused,
        }
    }

    async fn get_account(&self, params: GetAccountParams) -> GetAccountResponse {
        match self.lock().accounts.get(&params.account_id) {
            Some((_, account)) => GetAccountResponse::Ok(account.clone()),
            None => GetAccountResponse::NotFound(account_not_found(params.account_id)),
        }
    }

    async fn close_account(&self, params: CloseAccountParams) -> CloseAccountResponse {
        let mut state = self.lock();
        let Some((_, account)) = state.accounts.get_mut(&params.account_id) else {
            return CloseAccountResponse::NotFound(account_not_found(params.account_id));
        };
        if !balance_is_zero(account.balance.as_ref()) {
            return CloseAccountResponse::BadRequest(validation_error(format!(
                "account {} cannot be closed: its balance is not zero",
                params.account_id
            )));
        }
        account.status = Some(AccountStatus::Closed);
        account.updated_at = Some(later_than(account.updated_at.as_ref()));
        CloseAccountResponse::Ok(account.clone())
    }

    async fn update_account(
        &self,
        params: UpdateAccountParams,
        body: UpdateAccountRequest,
    ) -> UpdateAccountResponse {
        let mut state = self.lock();
        let Some((_, account)) = state.accounts.get_mut(&params.account_id) else {
            return UpdateAccountResponse::NotFound(account_not_found(params.account_id));
        };
        if body.account_id != params.account_id {
            return UpdateAccountResponse::BadRequest(validation_error(format!(
                "/account_id: {} in the body does not match {} in the path",
                body.account_id, params.account_id
            )));
        }
        if let Some(account_type) = body.account_type {
            // The generated type keeps unknown values; the document's list is closed.
            if !account_type.is_known() {
                return UpdateAccountResponse::BadRequest(validation_error(format!(
                    "/account_type: {account_type} is not one of CHECKING, SAVINGS, INVESTMENT"
                )));
            }
            account.account_type = Some(account_type);
        }
        account.updated_at = Some(later_than(account.updated_at.as_ref()));
        UpdateAccountResponse::Ok(account.clone())
    }

    async fn get_account_transfer(
        &self,
        params: GetAccountTransferParams,
    ) -> GetAccountTransferResponse {
        let mut state = self.lock();
        match transfer_mut(&mut state, params.account_id, params.transfer_id) {
            Ok(transfer) => GetAccountTransferResponse::Ok(transfer.clone()),
            Err(not_found) => GetAccountTransferResponse::NotFound(*not_found),
        }
    }

    async fn cancel_account_transfer(
        &self,
        params: CancelAccountTransferParams,
    ) -> CancelAccountTransferResponse {
        let mut state = self.lock();
        let transfer = match transfer_mut(&mut state, params.account_id, params.transfer_id) {
            Ok(transfer) => transfer,
            Err(not_found) => return CancelAccountTransferResponse::NotFound(*not_found),
        };
        if transfer.status != Some(TransferStatus::Pending) {
            let status = transfer
                .status
                .as_ref()
                .map_or("without a status", TransferStatus::as_str);
            return CancelAccountTransferResponse::BadRequest(validation_error(format!(
                "transfer {} is {status}: only a PENDING transfer can be cancelled",
                params.transfer_id
            )));
        }
        transfer.status = Some(TransferStatus::from(CANCELLED_STATUS));
        transfer.updated_at = Some(later_than(transfer.updated_at.as_ref()));
        CancelAccountTransferResponse::Ok(serde_json::to_value(&*transfer).unwrap_or(Value::Null))
    }

    async fn create_entity(
        &self,
        params: CreateEntityParams,
        body: CreateEntityRequest,
    ) -> CreateEntityResponse {
        let mut state = self.lock();
        let scope = Scope::new(
            params.credentials.public_api_key.expose(),
            params.x_idempotency_key,
        );
        let request = serde_json::to_value(&body).unwrap_or(Value::Null);
        match state.entity_keys.lookup(&scope, &request, Instant::now()) {
            Lookup::Replay(&index) => {
                return CreateEntityResponse::Created(state.entities[index].clone());
            }
            Lookup::Mismatch => return CreateEntityResponse::BadRequest(key_reused(&scope)),
            Lookup::Fresh => {}
        }
        match create_entity(&mut state, body) {
            Ok(entity) => {
                let index = state.entities.len() - 1;
                state
                    .entity_keys
                    .remember(scope, request, index, Instant::now());
                CreateEntityResponse::Created(entity)
            }
            Err(refused) => *refused,
        }
    }

    async fn get_payments_by_merchant_order_id(
        &self,
        params: GetPaymentsByMerchantOrderIdParams,
    ) -> GetPaymentsByMerchantOrderIdResponse {
        let payments = self
            .lock()
            .payments
            .iter()
            .filter(|payment| {
                payment.merchant_order_id.as_deref() == Some(params.merchant_order_id.as_str())
            })
            .cloned()
            .collect();
        GetPaymentsByMerchantOrderIdResponse::Ok(payments)
    }

    async fn reverse_transfer_onboarding(
        &self,
        params: ReverseTransferOnboardingParams,
        _body: Option<Value>,
    ) -> ReverseTransferOnboardingResponse {
        match self.lock().reverse_transfers.get(&params.transfer_id) {
            Some(result) => {
                ReverseTransferOnboardingResponse::Success(http::StatusCode::OK, result.clone())
            }
            None => {
                let body = error(
                    404,
                    ErrorCode::from(TRANSFER_NOT_FOUND),
                    format!("transfer {} does not exist", params.transfer_id),
                );
                ReverseTransferOnboardingResponse::Default(
                    http::StatusCode::NOT_FOUND,
                    serde_json::to_value(body).unwrap_or(Value::Null),
                )
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Transitions
// ---------------------------------------------------------------------------------------------

/// Create account, after the idempotency check: the new account, or the refusal to answer
/// (boxed: the response enum is large, and the happy path should not carry its size).
fn create_account(
    state: &mut State,
    body: CreateAccountRequest,
) -> Result<Account, Box<CreateAccountResponse>> {
    let Some(onboarding) = state.onboardings.get(&body.onboarding_id) else {
        return Err(Box::new(CreateAccountResponse::NotFound(error(
            404,
            ErrorCode::OnboardingNotFound,
            format!("onboarding {} does not exist", body.onboarding_id),
        ))));
    };
    if onboarding.status != Some(OnboardingStatus::Succeeded) {
        let status = onboarding
            .status
            .as_ref()
            .map_or("without a status", OnboardingStatus::as_str);
        return Err(Box::new(CreateAccountResponse::BadRequest(
            validation_error(format!(
                "/onboarding_id: onboarding {} is {status}, not SUCCEEDED",
                body.onboarding_id
            )),
        )));
    }
    if state.accounts.contains_key(&body.account_id) {
        return Err(Box::new(CreateAccountResponse::BadRequest(
            validation_error(format!(
                "/account_id: an account for {} already exists",
                body.account_id
            )),
        )));
    }
    let order = state.next();
    let merchant_account = body.account_id.to_string();
    let entity_id = state
        .entities
        .iter()
        .rev()
        .find(|entity| entity.account_id.as_deref() == Some(merchant_account.as_str()))
        .and_then(|entity| entity.id.clone())
        .unwrap_or_else(|| new_id("ent"));
    let bank = BankDetails::for_currency(&body.currency, order);
    let now = now();
    let account = Account {
        id: Some(new_id("acct")),
        entity_id: Some(entity_id),
        onboarding_id: Some(body.onboarding_id),
        account_id: Some(body.account_id),
        provider: Some(AccountProvider {
            account_id: Some(format!("pa_{:07}", 5_500_000 + order)),
            ..AccountProvider::default()
        }),
        account_type: Some(body.account_type),
        status: Some(AccountStatus::Active),
        account_number: Some(bank.account_number),
        routing_number: Some(bank.routing_number),
        iban: Some(bank.iban),
        currency: Some(body.currency),
        balance: Some(AccountBalance {
            available: Some(Decimal::from(0)),
            current: Some(Decimal::from(0)),
            pending: Some(Decimal::from(0)),
            ..AccountBalance::default()
        }),
        account_details: Some(AccountDetails {
            account_name: Some(format!("Account {merchant_account}")),
            sort_code: Some(bank.sort_code),
            bsb: Some(bank.bsb),
            swift: Some(bank.swift),
            ..AccountDetails::default()
        }),
        payment_rails: Some(PaymentRails {
            incoming: Some(strings(bank.incoming)),
            outgoing: Some(strings(bank.outgoing)),
            ..PaymentRails::default()
        }),
        supports_book_transfers: Some(bank.book_transfers),
        created_at: Some(now.clone()),
        updated_at: Some(now),
        ..Account::default()
    };
    state
        .accounts
        .insert(body.account_id, (order, account.clone()));
    Ok(account)
}

/// Create entity, after the idempotency check: the new entity, or the refusal to answer
/// (boxed, as for [`create_account`]).
fn create_entity(
    state: &mut State,
    body: CreateEntityRequest,
) -> Result<Entity, Box<CreateEntityResponse>> {
    if state.merchant_entity_ids.contains(&body.merchant_entity_id) {
        return Err(Box::new(CreateEntityResponse::Conflict(error(
            409,
            ErrorCode::DuplicateEntity,
            format!(
                "an entity with merchant_entity_id {} already exists",
                body.merchant_entity_id
            ),
        ))));
    }
    let invalid = |field: &str, err: serde_json::Error| {
        Box::new(CreateEntityResponse::BadRequest(validation_error(format!(
            "/{field}: {err}"
        ))))
    };
    let address = serde_json::from_value(Value::Object(body.address))
        .map_err(|err| invalid("address", err))?;
    let entity_detail = serde_json::from_value(Value::Object(body.entity_detail))
        .map_err(|err| invalid("entity_detail", err))?;
    let body_merchant_entity_id = body.merchant_entity_id;
    let now = now();
    let entity = Entity {
        id: Some(new_id("ent")),
        account_id: Some(body.account_id.to_string()),
        merchant_entity_id: Some(body_merchant_entity_id.clone()),
        national_entity: Some(body.national_entity),
        phone: Some(Phone {
            country_code: Some(body.phone.country_code),
            number: Some(body.phone.number),
            ..Phone::default()
        }),
        address: Some(address),
        entity_detail: Some(entity_detail),
        created_at: Some(now.clone()),
        updated_at: Some(now),
        additional_properties: body.additional_properties,
    };
    state.merchant_entity_ids.insert(body_merchant_entity_id);
    state.entities.push(entity.clone());
    Ok(entity)
}

/// The transfer, or the 404 to answer: `ACCOUNT_NOT_FOUND` when the account does not
/// exist, [`TRANSFER_NOT_FOUND`] when the transfer does not.
fn transfer_mut(
    state: &mut State,
    account_id: Uuid,
    transfer_id: Uuid,
) -> Result<&mut EntityTransfer, Box<Error>> {
    if !state.accounts.contains_key(&account_id) {
        return Err(Box::new(account_not_found(account_id)));
    }
    match state.transfers.get_mut(&(account_id, transfer_id)) {
        Some((_, transfer)) => Ok(transfer),
        None => Err(Box::new(error(
            404,
            ErrorCode::from(TRANSFER_NOT_FOUND),
            format!("account {account_id} has no transfer {transfer_id}"),
        ))),
    }
}

/// 400 `VALIDATION_ERROR` for a key reused with a different body. The message names the
/// header, so that a person reading it knows which input to change.
fn key_reused(scope: &Scope) -> Error {
    validation_error(format!("x-idempotency-key {}: {KEY_REUSED}", scope.key()))
}
