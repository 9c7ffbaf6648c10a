//! The in-memory state machine: an implementation of [`orchestration_api::server::Api`]
//! that follows the state tables and errors of the interface document
//! (`../shared/interface.md`).
//!
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! use orchestration_api::OnboardingStatus;
//! use orchestration_api::credentials::Credentials;
//! use sandbox::service::InMemoryService;
//!
//! let service = InMemoryService::new();
//! service
//!     .merchant(&Credentials::new("pk_test", "sk_test"))
//!     .seed_onboarding("onb_ready", OnboardingStatus::Succeeded);
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
//! # Merchants
//!
//! Every record belongs to one merchant: the credential pair (`public-api-key`,
//! `private-secret-key`) of the request that created it, or the pair a seed was made for
//! ([`InMemoryService::merchant`], or the same two headers on the control API). Each
//! operation sees only the records of the merchant presenting its credentials: another
//! merchant's account, transfer, onboarding, payment or reverse-transfer result does not
//! exist for it (404, as for an id never created), and ids, `merchant_entity_id`s and
//! idempotency keys never collide across merchants. The pair, not the public key alone, is
//! the merchant: the interface document issues both to the merchant, and a public key is
//! no secret. A pair never seen before is a merchant with no records.
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
//! | reverse transfer | the result [seeded](Merchant::seed_reverse_transfer_result) for `transfer_id` → 200\*; none → 404 [`TRANSFER_NOT_FOUND`]\* |
//! | payment lookup | 200 with every [seeded](Merchant::seed_payment) payment whose `merchant_order_id` matches, in seeding order (possibly `[]`) |
//!
//! \* The document is silent here; this is the choice made, listed again below.
//!
//! # Idempotency
//!
//! `x-idempotency-key` (required on create account and create entity) is handled by
//! [`crate::idempotency`]: keys are scoped per operation and per merchant; the same
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
//!   ([`Merchant::set_balance`]), since the document says nothing about how a
//!   transfer affects them.
//! - Credentials are not checked beyond being present (any non-empty pair is accepted);
//!   they only say whose records a request sees (see [Merchants](#merchants)).
//! - **A record belongs to the credentials that created it**, not to the sandbox as a
//!   whole: the document does not say how merchants are kept apart, and a service that let
//!   one merchant read or close another's account would be no stand-in for one.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use axum::http;
use orchestration_api::credentials::Credentials;
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

use crate::idempotency::{self, KEY_REUSED, Lookup};
use crate::state::{
    BankDetails, Books, MerchantKey, Sequence, State, account_not_found, balance_is_zero, error,
    later_than, new_id, now, strings, validation_error,
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

    /// The merchant presenting `credentials`: its records, and seeding for it. See
    /// [Merchants](self#merchants).
    #[must_use]
    pub fn merchant(&self, credentials: &Credentials) -> Merchant {
        Merchant {
            service: self.clone(),
            key: MerchantKey::of(credentials),
        }
    }

    /// Forgets everything — every merchant's onboardings, accounts, transfers, entities,
    /// payments, reverse-transfer results and idempotency keys — keeping the configuration.
    pub fn reset(&self) {
        self.lock().reset();
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic under the lock leaves tables that are still each valid (every operation
        // writes a record whole), so a poisoned lock is used as is rather than taking the
        // whole sandbox down.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// One merchant of an [`InMemoryService`]: the records its credentials created through
/// the API, and what is seeded for it (the document has no operation that creates
/// onboardings, balances, transfers, payments or reverse-transfer results). Cheap to clone;
/// clones share the service. `Debug` never shows the credentials.
#[derive(Clone)]
pub struct Merchant {
    service: InMemoryService,
    key: MerchantKey,
}

impl std::fmt::Debug for Merchant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Merchant")
            .field("credentials", &"[redacted]")
            .finish_non_exhaustive()
    }
}

impl Merchant {
    /// Runs `write` on the merchant's books (opened on first use) and the counter.
    fn write<T>(&self, write: impl FnOnce(&mut Books, &mut Sequence) -> T) -> T {
        let mut state = self.service.lock();
        let (books, sequence) = state.open(&self.key);
        write(books, sequence)
    }

    /// Runs `read` on the merchant's books, if it has any.
    fn read<T>(&self, read: impl FnOnce(&Books) -> T) -> Option<T> {
        self.service.lock().books(&self.key).map(read)
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
        self.write(|books, _| books.onboardings.insert(id, onboarding));
    }

    /// Sets the balance of the merchant's account `account_id` and returns the account, or
    /// `None` when there is no such account. `updated_at` is left as it is: the balance
    /// moves without the account record being updated.
    pub fn set_balance(
        &self,
        account_id: Uuid,
        available: impl Into<Decimal>,
        current: impl Into<Decimal>,
        pending: impl Into<Decimal>,
    ) -> Option<Account> {
        let mut state = self.service.lock();
        let (books, _) = state.books_mut(&self.key)?;
        let (_, account) = books.accounts.get_mut(&account_id)?;
        account.balance = Some(AccountBalance {
            available: Some(available.into()),
            current: Some(current.into()),
            pending: Some(pending.into()),
            ..AccountBalance::default()
        });
        Some(account.clone())
    }

    /// Adds (or replaces) transfer `transfer_id` of the merchant's account `account_id` and
    /// returns it as stored. A missing `id` becomes a fresh `xfer_…` id, a missing
    /// `account_id` the merchant's `account_id`, a missing `status` `PENDING`, missing
    /// timestamps now. The account itself need not exist yet: the transfer operations check
    /// it when called. [`add_transfer`](Self::add_transfer) is the checked variant.
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
        self.write(|books, sequence| {
            books.transfers.insert(
                (account_id, transfer_id),
                (sequence.next(), transfer.clone()),
            );
        });
        transfer
    }

    /// Adds a new transfer to the merchant's existing account `account_id`, under
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
        let mut state = self.service.lock();
        let Some((books, sequence)) = state.books_mut(&self.key) else {
            return Err(Box::new(account_not_found(account_id)));
        };
        let Some((_, account)) = books.accounts.get(&account_id) else {
            return Err(Box::new(account_not_found(account_id)));
        };
        if books.transfers.contains_key(&(account_id, transfer_id)) {
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
        let order = sequence.next();
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
        books
            .transfers
            .insert((account_id, transfer_id), (order, transfer.clone()));
        Ok((transfer_id, transfer))
    }

    /// Adds a payment; payment lookup returns it when its `merchant_order_id` matches.
    pub fn seed_payment(&self, payment: Payment) {
        self.write(|books, _| books.payments.push(payment));
    }

    /// Sets what the reverse-transfer operation returns for `transfer_id` (as given: nothing
    /// is filled in).
    pub fn seed_reverse_transfer_result(
        &self,
        transfer_id: impl Into<String>,
        result: ReverseTransferResult,
    ) {
        self.write(|books, _| books.reverse_transfers.insert(transfer_id.into(), result));
    }

    // -----------------------------------------------------------------------------------------
    // Inspection
    // -----------------------------------------------------------------------------------------

    /// The merchant's account `account_id`, if any.
    #[must_use]
    pub fn account(&self, account_id: Uuid) -> Option<Account> {
        self.read(|books| {
            books
                .accounts
                .get(&account_id)
                .map(|(_, account)| account.clone())
        })
        .flatten()
    }

    /// Every account of the merchant, in the order they were created.
    #[must_use]
    pub fn accounts(&self) -> Vec<Account> {
        self.read(|books| {
            let mut accounts: Vec<_> = books.accounts.values().collect();
            accounts.sort_by_key(|(order, _)| *order);
            accounts
                .into_iter()
                .map(|(_, account)| account.clone())
                .collect()
        })
        .unwrap_or_default()
    }

    /// Transfer `transfer_id` of the merchant's account `account_id`, if any.
    #[must_use]
    pub fn transfer(&self, account_id: Uuid, transfer_id: Uuid) -> Option<EntityTransfer> {
        self.read(|books| {
            books
                .transfers
                .get(&(account_id, transfer_id))
                .map(|(_, transfer)| transfer.clone())
        })
        .flatten()
    }

    /// Every entity of the merchant, in the order they were created.
    #[must_use]
    pub fn entities(&self) -> Vec<Entity> {
        self.read(|books| books.entities.clone())
            .unwrap_or_default()
    }

    /// Every payment seeded for the merchant, in the order they were seeded.
    #[must_use]
    pub fn payments(&self) -> Vec<Payment> {
        self.read(|books| books.payments.clone())
            .unwrap_or_default()
    }

    /// The merchant's onboarding `id`, if any.
    #[must_use]
    pub fn onboarding(&self, id: &str) -> Option<Onboarding> {
        self.read(|books| books.onboardings.get(id).cloned())
            .flatten()
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
        let (books, sequence) = state.open(&MerchantKey::of(&params.credentials));
        let key = params.x_idempotency_key;
        let request = serde_json::to_value(&body).unwrap_or(Value::Null);
        match books.account_keys.lookup(key, &request, Instant::now()) {
            Lookup::Replay(account) => return CreateAccountResponse::Created(account.clone()),
            Lookup::Mismatch => return CreateAccountResponse::BadRequest(key_reused(key)),
            Lookup::Fresh => {}
        }
        match create_account(books, sequence, body) {
            Ok(account) => {
                books
                    .account_keys
                    .remember(key, request, account.clone(), Instant::now());
                CreateAccountResponse::Created(account)
            }
            Err(refused) => *refused,
        }
    }

    async fn get_account(&self, params: GetAccountParams) -> GetAccountResponse {
        let state = self.lock();
        let merchant = MerchantKey::of(&params.credentials);
        match state
            .books(&merchant)
            .and_then(|books| books.accounts.get(&params.account_id))
        {
            Some((_, account)) => GetAccountResponse::Ok(account.clone()),
            None => GetAccountResponse::NotFound(account_not_found(params.account_id)),
        }
    }

    async fn close_account(&self, params: CloseAccountParams) -> CloseAccountResponse {
        let mut state = self.lock();
        let Some(account) = account_mut(&mut state, &params.credentials, params.account_id) else {
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
        let Some(account) = account_mut(&mut state, &params.credentials, params.account_id) else {
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
        match transfer_mut(
            &mut state,
            &params.credentials,
            params.account_id,
            params.transfer_id,
        ) {
            Ok(transfer) => GetAccountTransferResponse::Ok(transfer.clone()),
            Err(not_found) => GetAccountTransferResponse::NotFound(*not_found),
        }
    }

    async fn cancel_account_transfer(
        &self,
        params: CancelAccountTransferParams,
    ) -> CancelAccountTransferResponse {
        let mut state = self.lock();
        let transfer = match transfer_mut(
            &mut state,
            &params.credentials,
            params.account_id,
            params.transfer_id,
        ) {
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
        let (books, _) = state.open(&MerchantKey::of(&params.credentials));
        let key = params.x_idempotency_key;
        let request = serde_json::to_value(&body).unwrap_or(Value::Null);
        match books.entity_keys.lookup(key, &request, Instant::now()) {
            Lookup::Replay(&index) => {
                return CreateEntityResponse::Created(books.entities[index].clone());
            }
            Lookup::Mismatch => return CreateEntityResponse::BadRequest(key_reused(key)),
            Lookup::Fresh => {}
        }
        match create_entity(books, body) {
            Ok(entity) => {
                let index = books.entities.len() - 1;
                books
                    .entity_keys
                    .remember(key, request, index, Instant::now());
                CreateEntityResponse::Created(entity)
            }
            Err(refused) => *refused,
        }
    }

    async fn get_payments_by_merchant_order_id(
        &self,
        params: GetPaymentsByMerchantOrderIdParams,
    ) -> GetPaymentsByMerchantOrderIdResponse {
        let state = self.lock();
        let payments = state
            .books(&MerchantKey::of(&params.credentials))
            .into_iter()
            .flat_map(|books| &books.payments)
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
        let state = self.lock();
        match state
            .books(&MerchantKey::of(&params.credentials))
            .and_then(|books| books.reverse_transfers.get(&params.transfer_id))
        {
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
    books: &mut Books,
    sequence: &mut Sequence,
    body: CreateAccountRequest,
) -> Result<Account, Box<CreateAccountResponse>> {
    let Some(onboarding) = books.onboardings.get(&body.onboarding_id) else {
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
    if books.accounts.contains_key(&body.account_id) {
        return Err(Box::new(CreateAccountResponse::BadRequest(
            validation_error(format!(
                "/account_id: an account for {} already exists",
                body.account_id
            )),
        )));
    }
    let order = sequence.next();
    let merchant_account = body.account_id.to_string();
    let entity_id = books
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
    books
        .accounts
        .insert(body.account_id, (order, account.clone()));
    Ok(account)
}

/// Create entity, after the idempotency check: the new entity, or the refusal to answer
/// (boxed, as for [`create_account`]).
fn create_entity(
    books: &mut Books,
    body: CreateEntityRequest,
) -> Result<Entity, Box<CreateEntityResponse>> {
    if books.merchant_entity_ids.contains(&body.merchant_entity_id) {
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
    books.merchant_entity_ids.insert(body_merchant_entity_id);
    books.entities.push(entity.clone());
    Ok(entity)
}

/// Account `account_id` of the merchant presenting `credentials`, if it has one.
fn account_mut<'a>(
    state: &'a mut State,
    credentials: &Credentials,
    account_id: Uuid,
) -> Option<&'a mut Account> {
    let (books, _) = state.books_mut(&MerchantKey::of(credentials))?;
    books
        .accounts
        .get_mut(&account_id)
        .map(|(_, account)| account)
}

/// Transfer `transfer_id` of account `account_id` of the merchant presenting
/// `credentials`, or the 404 to answer: `ACCOUNT_NOT_FOUND` when the merchant has no such
/// account, [`TRANSFER_NOT_FOUND`] when the account has no such transfer.
fn transfer_mut<'a>(
    state: &'a mut State,
    credentials: &Credentials,
    account_id: Uuid,
    transfer_id: Uuid,
) -> Result<&'a mut EntityTransfer, Box<Error>> {
    let Some((books, _)) = state
        .books_mut(&MerchantKey::of(credentials))
        .filter(|(books, _)| books.accounts.contains_key(&account_id))
    else {
        return Err(Box::new(account_not_found(account_id)));
    };
    match books.transfers.get_mut(&(account_id, transfer_id)) {
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
fn key_reused(key: Uuid) -> Error {
    validation_error(format!("x-idempotency-key {key}: {KEY_REUSED}"))
}
