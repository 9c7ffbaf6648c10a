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
//!   generated [`TransferStatus`](orchestration_api::models::TransferStatus) keeps as
//!   `TransferStatus::Unknown("CANCELLED")`. The 200 body of cancel (not shown by the
//!   document) is the cancelled transfer.
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
//! - **Entity creation** copies the request into the
//!   [`Entity`](orchestration_api::models::Entity); an `address` or `entity_detail` whose
//!   fields do not fit the response shape is 400 `VALIDATION_ERROR`, and so is an
//!   `entity_detail` that does not fill the member of the entity's `national_entity`
//!   (`individual` for INDIVIDUAL, `entity` for ENTITY) or fills the other one too: "one is
//!   filled according to national_entity", a rule of the `Entity` the sandbox answers.
//! - **Reverse transfer** succeeds with 200 (the document only says "2XX").
//! - **Transfers do not move balances**: balances change only when set
//!   ([`Merchant::set_balance`]), since the document says nothing about how a
//!   transfer affects them.
//! - Credentials are not checked beyond being present (any non-empty pair is accepted);
//!   they only say whose records a request sees (see [Merchants](#merchants)).
//! - **A record belongs to the credentials that created it**, not to the sandbox as a
//!   whole: the document does not say how merchants are kept apart, and a service that let
//!   one merchant read or close another's account would be no stand-in for one.

mod handle;
mod merchant;
mod operations;

pub use handle::InMemoryService;
pub use merchant::Merchant;
pub use operations::{CANCELLED_STATUS, TRANSFER_NOT_FOUND};
