//! The API's operations on the in-memory state: `impl Api for InMemoryService`, the
//! transitions it runs, and the error codes it adds to the document's.

use std::time::Instant;

use axum::http;
use orchestration_api::credentials::Credentials;
use orchestration_api::models::{
    Account, AccountBalance, AccountDetails, AccountProvider, AccountStatus, CreateAccountRequest,
    CreateEntityRequest, Entity, EntityDetail, EntityTransfer, Error, ErrorCode, NationalEntity,
    OnboardingStatus, PaymentRails, Phone, TransferStatus, UpdateAccountRequest,
};
use orchestration_api::server::{
    Api, CancelAccountTransferParams, CancelAccountTransferResponse, CloseAccountParams,
    CloseAccountResponse, CreateAccountParams, CreateAccountResponse, CreateEntityParams,
    CreateEntityResponse, GetAccountParams, GetAccountResponse, GetAccountTransferParams,
    GetAccountTransferResponse, GetPaymentsByMerchantOrderIdParams,
    GetPaymentsByMerchantOrderIdResponse, ReverseTransferOnboardingParams,
    ReverseTransferOnboardingResponse, UpdateAccountParams, UpdateAccountResponse,
};
use orchestration_api::support::{Decimal, from_json_value};
use serde_json::Value;
use uuid::Uuid;

use crate::idempotency::{KEY_REUSED, Lookup};
use crate::state::{
    BankDetails, Books, MerchantKey, Sequence, State, account_not_found, balance_is_zero, error,
    later_than, new_id, now, strings, validation_error,
};

use super::handle::InMemoryService;

/// The status a cancelled transfer gets (the document does not show it).
pub const CANCELLED_STATUS: &str = "CANCELLED";

/// The error code of a 404 for a transfer that does not exist on a known account, and for a
/// reverse transfer of an unknown `transfer_id` (the document does not show either).
pub const TRANSFER_NOT_FOUND: &str = "TRANSFER_NOT_FOUND";

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
                ReverseTransferOnboardingResponse::ClientError(
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
    // Read as the contract counts numbers: `60.0` is the integer 60 to JSON Schema, which the
    // router's check passed, and serde alone would refuse it.
    let address =
        from_json_value(Value::Object(body.address)).map_err(|err| invalid("address", err))?;
    let entity_detail: EntityDetail = from_json_value(Value::Object(body.entity_detail))
        .map_err(|err| invalid("entity_detail", err))?;
    if let Err(message) = detail_fits(&body.national_entity, &entity_detail) {
        return Err(Box::new(CreateEntityResponse::BadRequest(
            validation_error(message),
        )));
    }
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

/// The interface's "one is filled according to national_entity": an INDIVIDUAL's detail
/// fills `individual` and not `entity`, an ENTITY's the other way round (the rule the spec's
/// `Entity` holds, which the entity this creates must keep). A kind the interface does not
/// list is left alone.
fn detail_fits(kind: &NationalEntity, detail: &EntityDetail) -> Result<(), String> {
    let individual = matches!(detail.individual, Some(Some(_)));
    let company = matches!(detail.entity, Some(Some(_)));
    let (kind, (own, own_filled), (other, other_filled)) = match kind {
        NationalEntity::Individual => (
            "INDIVIDUAL",
            ("individual", individual),
            ("entity", company),
        ),
        NationalEntity::Entity => ("ENTITY", ("entity", company), ("individual", individual)),
        NationalEntity::Unknown(_) => return Ok(()),
    };
    if !own_filled {
        return Err(format!(
            "/entity_detail/{own}: is required when national_entity is {kind}"
        ));
    }
    if other_filled {
        return Err(format!(
            "/entity_detail/{other}: must be null when national_entity is {kind}"
        ));
    }
    Ok(())
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
