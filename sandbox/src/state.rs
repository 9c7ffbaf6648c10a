//! What the sandbox holds — one set of books per merchant — and the small pure helpers its
//! state machine ([`crate::service`]) builds records with: ids, timestamps, error bodies,
//! invented bank details.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::time::Duration;

use chrono::{SecondsFormat, TimeDelta, Utc};
use orchestration_api::credentials::Credentials;
use orchestration_api::models::Timestamp;
use orchestration_api::models::{
    Account, AccountBalance, Entity, EntityTransfer, Error, ErrorCode, Onboarding, Payment,
    ReverseTransferResult,
};
use uuid::Uuid;

use crate::idempotency::IdempotencyStore;

/// A merchant: the credential pair (`public-api-key`, `private-secret-key`) its requests
/// carry. The interface document issues both to the merchant and asks for both on every
/// operation; the pair, not the public key alone (which is no secret), is the identity, so
/// knowing another merchant's public key gives no access to its records. The values are
/// credentials: `Debug` never shows them.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct MerchantKey {
    public_api_key: String,
    private_secret_key: String,
}

impl MerchantKey {
    /// The merchant presenting `credentials`.
    pub(crate) fn of(credentials: &Credentials) -> Self {
        Self {
            public_api_key: credentials.public_api_key.expose().to_owned(),
            private_secret_key: credentials.private_secret_key.expose().to_owned(),
        }
    }
}

impl fmt::Debug for MerchantKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MerchantKey([redacted])")
    }
}

/// One merchant's tables: everything its credentials created through the API or had seeded
/// through the control API. No operation reaches another merchant's books.
#[derive(Debug)]
pub(crate) struct Books {
    /// Onboardings by id.
    pub(crate) onboardings: HashMap<String, Onboarding>,
    /// Accounts by the merchant's `account_id`, with their creation order.
    pub(crate) accounts: HashMap<Uuid, (u64, Account)>,
    /// Transfers by (merchant `account_id`, `transfer_id`), with their creation order.
    pub(crate) transfers: HashMap<(Uuid, Uuid), (u64, EntityTransfer)>,
    /// Entities, in creation order.
    pub(crate) entities: Vec<Entity>,
    /// The `merchant_entity_id`s of `entities`: the duplicate check of create entity looks
    /// here rather than scanning every entity.
    pub(crate) merchant_entity_ids: HashSet<String>,
    /// Payments, in seeding order.
    pub(crate) payments: Vec<Payment>,
    /// Reverse-transfer results by `transfer_id`.
    pub(crate) reverse_transfers: HashMap<Uuid, ReverseTransferResult>,
    /// Replays of create account.
    pub(crate) account_keys: IdempotencyStore<Account>,
    /// Replays of create entity: where in `entities` each key's entity is. Entities are
    /// never changed or removed, so that entity is the first answer; keeping its index
    /// rather than a copy saves about a third of what each created entity costs in memory.
    pub(crate) entity_keys: IdempotencyStore<usize>,
}

impl Books {
    /// Empty tables; idempotency keys kept for `idempotency_ttl`.
    fn new(idempotency_ttl: Duration) -> Self {
        Self {
            onboardings: HashMap::new(),
            accounts: HashMap::new(),
            transfers: HashMap::new(),
            entities: Vec::new(),
            merchant_entity_ids: HashSet::new(),
            payments: Vec::new(),
            reverse_transfers: HashMap::new(),
            account_keys: IdempotencyStore::new(idempotency_ttl),
            entity_keys: IdempotencyStore::new(idempotency_ttl),
        }
    }
}

/// A counter, for ordering records and for invented numbers (1, 2, …), shared by every
/// merchant so that invented account numbers stay unique in the sandbox.
#[derive(Debug, Default)]
pub(crate) struct Sequence(u64);

impl Sequence {
    /// The next number.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 += 1;
        self.0
    }
}

/// Every merchant's books. One mutex guards all of it (see
/// [`InMemoryService`](crate::service::InMemoryService)), so an operation sees and leaves
/// a consistent whole.
#[derive(Debug)]
pub(crate) struct State {
    merchants: HashMap<MerchantKey, Books>,
    /// How long each merchant's idempotency keys are kept.
    idempotency_ttl: Duration,
    pub(crate) sequence: Sequence,
}

impl State {
    /// No merchant yet; idempotency keys kept for `idempotency_ttl`.
    pub(crate) fn new(idempotency_ttl: Duration) -> Self {
        Self {
            merchants: HashMap::new(),
            idempotency_ttl,
            sequence: Sequence::default(),
        }
    }

    /// Back to no merchant, keeping the configuration (the time-to-live of keys).
    pub(crate) fn reset(&mut self) {
        *self = Self::new(self.idempotency_ttl);
    }

    /// How long idempotency keys are kept.
    pub(crate) fn idempotency_ttl(&self) -> Duration {
        self.idempotency_ttl
    }

    /// The books of `merchant`, if it has any (reading never opens them).
    pub(crate) fn books(&self, merchant: &MerchantKey) -> Option<&Books> {
        self.merchants.get(merchant)
    }

    /// The books of `merchant`, to change existing records, with the counter, if it has any.
    pub(crate) fn books_mut(
        &mut self,
        merchant: &MerchantKey,
    ) -> Option<(&mut Books, &mut Sequence)> {
        let books = self.merchants.get_mut(merchant)?;
        Some((books, &mut self.sequence))
    }

    /// The books of `merchant`, opened empty on its first write, with the counter.
    pub(crate) fn open(&mut self, merchant: &MerchantKey) -> (&mut Books, &mut Sequence) {
        let ttl = self.idempotency_ttl;
        let books = self
            .merchants
            .entry(merchant.clone())
            .or_insert_with(|| Books::new(ttl));
        (books, &mut self.sequence)
    }

    /// Every merchant's books, in no particular order.
    pub(crate) fn all_books(&self) -> impl Iterator<Item = &Books> {
        self.merchants.values()
    }
}

// ---------------------------------------------------------------------------------------------
// Error bodies
// ---------------------------------------------------------------------------------------------

/// An error body whose `http_code` is `status`, as every documented error has.
pub(crate) fn error(status: u16, code: ErrorCode, message: impl Into<String>) -> Error {
    Error {
        code,
        messages: vec![message.into()],
        http_code: i64::from(status),
        additional_properties: serde_json::Map::new(),
    }
}

/// 400 `VALIDATION_ERROR`.
pub(crate) fn validation_error(message: impl Into<String>) -> Error {
    error(400, ErrorCode::ValidationError, message)
}

/// 404 `ACCOUNT_NOT_FOUND` for merchant `account_id`.
pub(crate) fn account_not_found(account_id: Uuid) -> Error {
    error(
        404,
        ErrorCode::AccountNotFound,
        format!("account {account_id} does not exist"),
    )
}

// ---------------------------------------------------------------------------------------------
// Ids and time
// ---------------------------------------------------------------------------------------------

/// `prefix_` and 16 random hex digits (`acct_3f9c0a7e5b1d2468`).
pub(crate) fn new_id(prefix: &str) -> String {
    let hex = Uuid::new_v4().simple().to_string();
    format!("{prefix}_{}", &hex[..16])
}

/// Now, as RFC 3339 in UTC with microseconds (`2024-05-14T15:20:11.123456Z`), which is one of
/// the ISO 8601 forms a `Timestamp` takes.
pub(crate) fn now() -> Timestamp {
    stamp(chrono::DateTime::<Utc>::from(std::time::SystemTime::now()))
}

/// `time` as RFC 3339 in UTC with microseconds.
fn stamp(time: chrono::DateTime<Utc>) -> Timestamp {
    Timestamp(time.to_rfc3339_opts(SecondsFormat::Micros, true))
}

/// Now, or a microsecond after `previous` when the clock has not moved past it, so that a
/// refreshed `updated_at` ("with updated_at refreshed") always differs from the one it
/// replaces, even within one clock tick. A `previous` this clock cannot read (an ISO 8601 form
/// without an offset, seeded through the control API) is simply replaced by now.
pub(crate) fn later_than(previous: Option<&Timestamp>) -> Timestamp {
    let now = chrono::DateTime::<Utc>::from(std::time::SystemTime::now());
    let previous =
        previous.and_then(|previous| chrono::DateTime::parse_from_rfc3339(previous).ok());
    match previous {
        Some(previous) if now <= previous => {
            stamp(previous.with_timezone(&Utc) + TimeDelta::microseconds(1))
        }
        _ => stamp(now),
    }
}

// ---------------------------------------------------------------------------------------------
// Balances and bank details
// ---------------------------------------------------------------------------------------------

/// "Balance is zero": available, current and pending are all zero; an absent amount counts
/// as zero, as does an absent balance.
pub(crate) fn balance_is_zero(balance: Option<&AccountBalance>) -> bool {
    balance.is_none_or(|balance| {
        [balance.available, balance.current, balance.pending]
            .iter()
            .all(|amount| amount.is_none_or(|amount| amount.value().is_zero()))
    })
}

/// Invented bank details of a new account, by currency (the region follows from it: the
/// document pairs USD with the US, GBP with the UK, AUD with Australia, EUR with the EU).
pub(crate) struct BankDetails {
    pub(crate) account_number: String,
    pub(crate) routing_number: Option<String>,
    pub(crate) iban: Option<String>,
    pub(crate) sort_code: Option<String>,
    pub(crate) bsb: Option<String>,
    pub(crate) swift: Option<String>,
    pub(crate) incoming: &'static [&'static str],
    pub(crate) outgoing: &'static [&'static str],
    pub(crate) book_transfers: bool,
}

impl BankDetails {
    /// The details of the `number`-th account, in `currency`.
    pub(crate) fn for_currency(currency: &str, number: u64) -> Self {
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

/// The items as owned strings.
pub(crate) fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| (*item).to_owned()).collect()
}
