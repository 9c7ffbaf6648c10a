//! One merchant of the service: [`Merchant`], its records read back and what is seeded for it
//! (the document has no operation that creates onboardings, balances, transfers, payments or
//! reverse-transfer results).

use orchestration_api::credentials::Credentials;
use orchestration_api::models::{
    Account, AccountBalance, Entity, EntityTransfer, Error, Onboarding, OnboardingStatus,
    OnboardingType, OnboardingWorkflow, Payment, PaymentRail, ReverseTransferResult,
    TransferDirection, TransferProvider, TransferStatus,
};
use orchestration_api::support::Decimal;
use uuid::Uuid;

use crate::state::{
    Books, MerchantKey, Sequence, account_not_found, new_id, now, validation_error,
};

use super::handle::InMemoryService;

impl InMemoryService {
    /// The merchant presenting `credentials`: its records, and seeding for it. See
    /// [Merchants](super#merchants).
    #[must_use]
    pub fn merchant(&self, credentials: &Credentials) -> Merchant {
        Merchant {
            service: self.clone(),
            key: MerchantKey::of(credentials),
        }
    }
}

/// One merchant of an [`InMemoryService`]: the records its credentials created through
/// the API, and what is seeded for it (the document has no operation that creates
/// onboardings, balances, transfers, payments or reverse-transfer results). Cheap to clone;
/// clones share the service. `Debug` never shows the credentials.
#[derive(Clone)]
pub struct Merchant {
    pub(super) service: InMemoryService,
    pub(super) key: MerchantKey,
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
    /// is filled in). The path value is a UUID ("transfer_id path values are UUIDs of 36
    /// characters").
    pub fn seed_reverse_transfer_result(&self, transfer_id: Uuid, result: ReverseTransferResult) {
        self.write(|books, _| books.reverse_transfers.insert(transfer_id, result));
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
