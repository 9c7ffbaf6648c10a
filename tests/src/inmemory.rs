//! An in-memory implementation of the API ([`orchestration_api::server::Api`]) that follows
//! the state tables of the interface document (`../shared/interface.md`), for end-to-end tests
//! and as the core of a sandbox service.
//!
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! use integration_tests::inmemory::InMemoryService;
//! use orchestration_api::OnboardingStatus;
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
//! keeps a clone to seed data and inspect the outcome while the router serves another. Every
//! operation runs under the lock, start to end, so concurrent requests see each other's
//! effects atomically (two replays of one idempotency key create one record).
//!
//! # What it does, operation by operation
//!
//! The router of the generated crate has already checked credentials (401
//! `NOT_AUTHENTICATED`), parameters, headers and bodies (400 `VALIDATION_ERROR`) before a
//! method here runs. Every error body built here has `http_code` equal to the status.
//!
//! | operation | outcome |
//! |---|---|
//! | create account | onboarding unknown → 404 `ONBOARDING_NOT_FOUND`; onboarding not `SUCCEEDED` → 400 `VALIDATION_ERROR`; `account_id` already has an account → 400 `VALIDATION_ERROR`\*; else 201, status `ACTIVE`, zero balance |
//! | get account | 200, or 404 `ACCOUNT_NOT_FOUND` |
//! | update account | 404 `ACCOUNT_NOT_FOUND`; body `account_id` ≠ path `account_id` → 400 `VALIDATION_ERROR`\*; else 200 with `account_type` (when sent) and `updated_at` refreshed |
//! | close account | 404 `ACCOUNT_NOT_FOUND`; balance not zero → 400 `VALIDATION_ERROR`, status unchanged; else 200, status `CLOSED`, `updated_at` refreshed (from any status, as the table says "any") |
//! | get transfer | unknown account → 404 `ACCOUNT_NOT_FOUND`; unknown transfer of a known account → 404 `TRANSFER_NOT_FOUND`\* |
//! | cancel transfer | as get transfer for the 404s; not `PENDING` → 400 `VALIDATION_ERROR`, unchanged; `PENDING` → 200 with the transfer, now status [`CANCELLED_STATUS`]\* and `updated_at` refreshed |
//! | create entity | `merchant_entity_id` already used → 409 `DUPLICATE_ENTITY`; else 201 |
//! | reverse transfer | the result [seeded](InMemoryService::seed_reverse_transfer_result) for `transfer_id` → 200\*; none → 404 `TRANSFER_NOT_FOUND`\* |
//! | payment lookup | 200 with every [seeded](InMemoryService::seed_payment) payment whose `merchant_order_id` matches, in seeding order (possibly `[]`) |
//!
//! \* The document is silent here; this is the choice made, listed again below.
//!
//! # Idempotency
//!
//! `x-idempotency-key` (required on create account and create entity) is remembered per
//! operation and per `public-api-key`. A replay with the same key and the same body returns
//! the first response again, without creating a second record. The same key with a different
//! body is answered 400 `VALIDATION_ERROR`. Only successes are remembered: a request that
//! failed had no effect, so retrying it under the same key processes it afresh (for example
//! once the onboarding has been seeded). Keys are kept for the life of the service. The
//! reverse-transfer operation accepts a key but has no effect to de-duplicate here.
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
//! - Credentials are not checked beyond being present (any non-empty pair is accepted).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use axum::http;
use chrono::{SecondsFormat, TimeDelta, Utc};
use orchestration_api::models::{
    Account, AccountBalance, AccountDetails, AccountProvider, AccountStatus, CreateAccountRequest,
    CreateEntityRequest, Entity, EntityTransfer, Error, ErrorCode, Onboarding, OnboardingStatus,
    OnboardingType, OnboardingWorkflow, Payment, PaymentRails, Phone, ReverseTransferResult,
    TransferStatus, UpdateAccountRequest,
};
use orchestration_api::server::{
    Api, CancelAccountTransferParams, CancelAccountTransferResponse, CloseAccountParams,
    CloseAccountResponse, CreateAccountParams, CreateAccountResponse, CreateEntityParams,
    CreateEntityResponse, GetAccountParams, GetAccountResponse, GetAccountTransferParams,
    GetAccountTransferResponse, GetPaymentsByMerchantOrderIdParams,
    GetPaymentsByMerchantOrderIdResponse, ReverseTransferOnboardingParams,
    ReverseTransferOnboardingResponse, UpdateAccountParams, UpdateAccountResponse,
};
use orchestration_api::support::{DateTime, Decimal};
use serde_json::Value;
use uuid::Uuid;

/// The status a cancelled transfer gets (the document does not show it).
pub const CANCELLED_STATUS: &str = "CANCELLED";

/// The error code of a 404 for a transfer that does not exist on a known account, and for a
/// reverse transfer of an unknown `transfer_id` (the document does not show either).
pub const TRANSFER_NOT_FOUND: &str = "TRANSFER_NOT_FOUND";

/// An in-memory implementation of [`Api`]; see the [module documentation](self) for what
/// each operation does.
#[derive(Clone, Default)]
pub struct InMemoryService {
    state: Arc<Mutex<State>>,
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
            .field("idempotency_keys", &state.idempotency.len())
            .finish()
    }
}

/// Everything the service holds.
#[derive(Default)]
struct State {
    /// Onboardings by id.
    onboardings: HashMap<String, Onboarding>,
    /// Accounts by the merchant's `account_id`, with the order they were created in.
    accounts: HashMap<Uuid, (u64, Account)>,
    /// Transfers by (merchant `account_id`, `transfer_id`), with the order they were seeded in.
    transfers: HashMap<(Uuid, Uuid), (u64, EntityTransfer)>,
    /// Entities, in the order they were created.
    entities: Vec<Entity>,
    /// Payments, in the order they were seeded.
    payments: Vec<Payment>,
    /// Reverse-transfer results by `transfer_id`.
    reverse_transfers: HashMap<String, ReverseTransferResult>,
    /// Remembered successes by idempotency scope.
    idempotency: HashMap<IdempotencyScope, Remembered>,
    /// A counter for ordering and for invented numbers.
    sequence: u64,
}

/// Where an idempotency key is unique: per operation and per caller.
#[derive(Clone, PartialEq, Eq, Hash)]
struct IdempotencyScope {
    operation: &'static str,
    public_api_key: String,
    key: Uuid,
}

/// A remembered success: the request it answered and the response.
struct Remembered {
    request: Value,
    response: RememberedResponse,
}

enum RememberedResponse {
    CreateAccount(Box<CreateAccountResponse>),
    CreateEntity(Box<CreateEntityResponse>),
}

/// What an idempotency key says about a request.
enum Replay<'a> {
    /// Never seen: process the request.
    Fresh,
    /// Seen with the same body: answer this again.
    Same(&'a RememberedResponse),
    /// Seen with a different body.
    Mismatch,
}

impl InMemoryService {
    /// An empty service: no onboardings, accounts, transfers, entities or payments.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
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
    /// `None` when there is no such account. `updated_at` is left as it is.
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
        let scope = IdempotencyScope::new("createAccount", &params);
        let request = serde_json::to_value(&body).unwrap_or(Value::Null);
        match state.replay(&scope, &request) {
            Replay::Same(RememberedResponse::CreateAccount(response)) => {
                return (**response).clone();
            }
            Replay::Same(_) | Replay::Mismatch => {
                return CreateAccountResponse::BadRequest(key_reused(&scope));
            }
            Replay::Fresh => {}
        }
        let response = state.create_account(body);
        if let CreateAccountResponse::Created(_) = &response {
            state.remember(
                scope,
                request,
                RememberedResponse::CreateAccount(Box::new(response.clone())),
            );
        }
        response
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
            return CloseAccountResponse::BadRequest(error(
                400,
                ErrorCode::ValidationError,
                format!(
                    "account {} cannot be closed: its balance is not zero",
                    params.account_id
                ),
            ));
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
            return UpdateAccountResponse::BadRequest(error(
                400,
                ErrorCode::ValidationError,
                format!(
                    "/account_id: {} in the body does not match {} in the path",
                    body.account_id, params.account_id
                ),
            ));
        }
        if let Some(account_type) = body.account_type {
            if !account_type.is_known() {
                return UpdateAccountResponse::BadRequest(error(
                    400,
                    ErrorCode::ValidationError,
                    format!(
                        "/account_type: {account_type} is not one of CHECKING, SAVINGS, INVESTMENT"
                    ),
                ));
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
        match state.transfer_mut(params.account_id, params.transfer_id) {
            Ok(transfer) => GetAccountTransferResponse::Ok(transfer.clone()),
            Err(not_found) => GetAccountTransferResponse::NotFound(*not_found),
        }
    }

    async fn cancel_account_transfer(
        &self,
        params: CancelAccountTransferParams,
    ) -> CancelAccountTransferResponse {
        let mut state = self.lock();
        let transfer = match state.transfer_mut(params.account_id, params.transfer_id) {
            Ok(transfer) => transfer,
            Err(not_found) => return CancelAccountTransferResponse::NotFound(*not_found),
        };
        if transfer.status != Some(TransferStatus::Pending) {
            let status = transfer
                .status
                .as_ref()
                .map_or("without a status", TransferStatus::as_str);
            return CancelAccountTransferResponse::BadRequest(error(
                400,
                ErrorCode::ValidationError,
                format!(
                    "transfer {} is {status}: only a PENDING transfer can be cancelled",
                    params.transfer_id
                ),
            ));
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
        let scope = IdempotencyScope::new("createEntity", &params);
        let request = serde_json::to_value(&body).unwrap_or(Value::Null);
        match state.replay(&scope, &request) {
            Replay::Same(RememberedResponse::CreateEntity(response)) => {
                return (**response).clone();
            }
            Replay::Same(_) | Replay::Mismatch => {
                return CreateEntityResponse::BadRequest(key_reused(&scope));
            }
            Replay::Fresh => {}
        }
        let response = state.create_entity(body);
        if let CreateEntityResponse::Created(_) = &response {
            state.remember(
                scope,
                request,
                RememberedResponse::CreateEntity(Box::new(response.clone())),
            );
        }
        response
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

impl State {
    fn next(&mut self) -> u64 {
        self.sequence += 1;
        self.sequence
    }

    fn replay(&self, scope: &IdempotencyScope, request: &Value) -> Replay<'_> {
        match self.idempotency.get(scope) {
            None => Replay::Fresh,
            Some(remembered) if remembered.request == *request => {
                Replay::Same(&remembered.response)
            }
            Some(_) => Replay::Mismatch,
        }
    }

    fn remember(&mut self, scope: IdempotencyScope, request: Value, response: RememberedResponse) {
        self.idempotency
            .insert(scope, Remembered { request, response });
    }

    fn create_account(&mut self, body: CreateAccountRequest) -> CreateAccountResponse {
        let Some(onboarding) = self.onboardings.get(&body.onboarding_id) else {
            return CreateAccountResponse::NotFound(error(
                404,
                ErrorCode::OnboardingNotFound,
                format!("onboarding {} does not exist", body.onboarding_id),
            ));
        };
        if onboarding.status != Some(OnboardingStatus::Succeeded) {
            let status = onboarding
                .status
                .as_ref()
                .map_or("without a status", OnboardingStatus::as_str);
            return CreateAccountResponse::BadRequest(error(
                400,
                ErrorCode::ValidationError,
                format!(
                    "/onboarding_id: onboarding {} is {status}, not SUCCEEDED",
                    body.onboarding_id
                ),
            ));
        }
        if self.accounts.contains_key(&body.account_id) {
            return CreateAccountResponse::BadRequest(error(
                400,
                ErrorCode::ValidationError,
                format!(
                    "/account_id: an account for {} already exists",
                    body.account_id
                ),
            ));
        }
        let order = self.next();
        let merchant_account = body.account_id.to_string();
        let entity_id = self
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
        self.accounts
            .insert(body.account_id, (order, account.clone()));
        CreateAccountResponse::Created(account)
    }

    fn create_entity(&mut self, body: CreateEntityRequest) -> CreateEntityResponse {
        if self
            .entities
            .iter()
            .any(|entity| entity.merchant_entity_id.as_deref() == Some(&body.merchant_entity_id))
        {
            return CreateEntityResponse::Conflict(error(
                409,
                ErrorCode::DuplicateEntity,
                format!(
                    "an entity with merchant_entity_id {} already exists",
                    body.merchant_entity_id
                ),
            ));
        }
        let address = match serde_json::from_value(Value::Object(body.address)) {
            Ok(address) => address,
            Err(err) => return invalid_entity_field("address", &err),
        };
        let entity_detail = match serde_json::from_value(Value::Object(body.entity_detail)) {
            Ok(detail) => detail,
            Err(err) => return invalid_entity_field("entity_detail", &err),
        };
        let now = now();
        let entity = Entity {
            id: Some(new_id("ent")),
            account_id: Some(body.account_id.to_string()),
            merchant_entity_id: Some(body.merchant_entity_id),
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
        self.entities.push(entity.clone());
        CreateEntityResponse::Created(entity)
    }

    /// The transfer, or the 404 to answer: `ACCOUNT_NOT_FOUND` when the account does not
    /// exist, [`TRANSFER_NOT_FOUND`] when the transfer does not.
    fn transfer_mut(
        &mut self,
        account_id: Uuid,
        transfer_id: Uuid,
    ) -> Result<&mut EntityTransfer, Box<Error>> {
        if !self.accounts.contains_key(&account_id) {
            return Err(Box::new(account_not_found(account_id)));
        }
        match self.transfers.get_mut(&(account_id, transfer_id)) {
            Some((_, transfer)) => Ok(transfer),
            None => Err(Box::new(error(
                404,
                ErrorCode::from(TRANSFER_NOT_FOUND),
                format!("account {account_id} has no transfer {transfer_id}"),
            ))),
        }
    }
}

impl IdempotencyScope {
    fn new<P: HasKey>(operation: &'static str, params: &P) -> Self {
        let (public_api_key, key) = params.identity();
        Self {
            operation,
            public_api_key,
            key,
        }
    }
}

/// The caller and the idempotency key of an operation's parameters.
trait HasKey {
    fn identity(&self) -> (String, Uuid);
}

impl HasKey for CreateAccountParams {
    fn identity(&self) -> (String, Uuid) {
        (
            self.credentials.public_api_key.expose().to_owned(),
            self.x_idempotency_key,
        )
    }
}

impl HasKey for CreateEntityParams {
    fn identity(&self) -> (String, Uuid) {
        (
            self.credentials.public_api_key.expose().to_owned(),
            self.x_idempotency_key,
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// An error body whose `http_code` is `status`.
fn error(status: u16, code: ErrorCode, message: impl Into<String>) -> Error {
    Error {
        code,
        messages: vec![message.into()],
        http_code: i64::from(status),
        additional_properties: serde_json::Map::new(),
    }
}

fn account_not_found(account_id: Uuid) -> Error {
    error(
        404,
        ErrorCode::AccountNotFound,
        format!("account {account_id} does not exist"),
    )
}

fn key_reused(scope: &IdempotencyScope) -> Error {
    error(
        400,
        ErrorCode::ValidationError,
        format!(
            "x-idempotency-key {} was already used with a different request",
            scope.key
        ),
    )
}

fn invalid_entity_field(field: &str, err: &serde_json::Error) -> CreateEntityResponse {
    CreateEntityResponse::BadRequest(error(
        400,
        ErrorCode::ValidationError,
        format!("/{field}: {err}"),
    ))
}

fn balance_is_zero(balance: Option<&AccountBalance>) -> bool {
    balance.is_none_or(|balance| {
        [balance.available, balance.current, balance.pending]
            .iter()
            .all(|amount| amount.is_none_or(|amount| amount.value().is_zero()))
    })
}

/// `prefix_` and 16 random hex digits.
fn new_id(prefix: &str) -> String {
    let hex = Uuid::new_v4().simple().to_string();
    format!("{prefix}_{}", &hex[..16])
}

/// Now, as RFC 3339 in UTC with microseconds (`2024-05-14T15:20:11.123456Z`).
fn now() -> DateTime {
    stamp(chrono::DateTime::<Utc>::from(std::time::SystemTime::now()))
}

/// `time` as RFC 3339 in UTC with microseconds.
fn stamp(time: chrono::DateTime<Utc>) -> DateTime {
    let text = time.to_rfc3339_opts(SecondsFormat::Micros, true);
    text.parse().unwrap_or_else(|_| DateTime::from(time))
}

/// Now, or a microsecond after `previous` when the clock has not moved past it, so that a
/// refreshed `updated_at` always differs from the one it replaces.
fn later_than(previous: Option<&DateTime>) -> DateTime {
    let now = now();
    match previous {
        Some(previous) if now.value() <= previous.value() => {
            stamp(previous.value().with_timezone(&Utc) + TimeDelta::microseconds(1))
        }
        _ => now,
    }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| (*item).to_owned()).collect()
}

/// Invented bank details of a new account, by currency.
struct BankDetails {
    account_number: String,
    routing_number: Option<String>,
    iban: Option<String>,
    sort_code: Option<String>,
    bsb: Option<String>,
    swift: Option<String>,
    incoming: &'static [&'static str],
    outgoing: &'static [&'static str],
    book_transfers: bool,
}

impl BankDetails {
    fn for_currency(currency: &str, number: u64) -> Self {
        let account_number = format!("{:012}", 100_000_000 + number);
        let base = Self {
            account_number: account_number.clone(),
            routing_number: None,
            iban: None,
            sort_code: None,
            bsb: None,
            swift: None,
            incoming: &["WIRE"],
            outgoing: &["WIRE"],
            book_transfers: false,
        };
        match currency.to_ascii_uppercase().as_str() {
            "USD" => Self {
                routing_number: Some("021000021".into()),
                swift: Some("CHASUS33".into()),
                incoming: &["ACH_STANDARD", "ACH_SAME_DAY", "WIRE", "RTP"],
                outgoing: &["ACH_STANDARD", "ACH_SAME_DAY", "WIRE"],
                book_transfers: true,
                ..base
            },
            "GBP" => Self {
                account_number: account_number[4..].to_owned(),
                iban: Some(format!("GB33BUKB202015{}", &account_number[4..])),
                sort_code: Some("202015".into()),
                swift: Some("BUKBGB22".into()),
                incoming: &["FPS", "CHAPS", "BACS"],
                outgoing: &["FPS", "CHAPS", "BACS"],
                ..base
            },
            "AUD" => Self {
                bsb: Some("062000".into()),
                swift: Some("CTBAAU2S".into()),
                incoming: &["NPP", "PAYTO", "BPAY"],
                outgoing: &["NPP"],
                ..base
            },
            "EUR" => Self {
                iban: Some(format!("DE89370400440{}", &account_number[3..])),
                swift: Some("COBADEFFXXX".into()),
                ..base
            },
            _ => base,
        }
    }
}
