//! The replay store behind `x-idempotency-key`.
//!
//! The interface document says only that the key "makes a request be processed once even
//! when it is retried after a network problem or time-out"; the retention period and the
//! replay response are "not shown". The sandbox's answers:
//!
//! | question | answer |
//! |---|---|
//! | scope of a key | the operation and the merchant: each merchant (credential pair) has one [`IdempotencyStore`] per operation, so two merchants, or two operations, never see each other's keys |
//! | same key, same body | the first response again — same status, same body — with no second effect |
//! | same key, different body | 400 `VALIDATION_ERROR`, message [`KEY_REUSED`]; nothing happens |
//! | what is remembered | successes only: a request that failed had no effect, so retrying it under the same key processes it afresh (for example once its onboarding has been seeded) |
//! | retention | [`DEFAULT_TTL`] (24 h) from the first success, configurable (`--idempotency-ttl`); afterwards the key is forgotten and a request with it is processed as new |
//! | "same body" | equal as JSON once parsed into the operation's request type: member order and whitespace do not matter, values do |
//!
//! 400 is chosen for a reused key because it is a documented status of both operations
//! that take a key, with the documented code `VALIDATION_ERROR`; 409 and 422, which other
//! APIs use, are not documented for them, and a client built from the spec would not know
//! what to make of them.
//!
//! Every entry lives the same [`ttl`](IdempotencyStore::ttl), so entries expire in the
//! order they were stored: a queue in that order lets each call drop the expired ones from
//! its front in amortised constant time, instead of scanning the whole store.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::time::{Duration, Instant};

use serde_json::Value;
use uuid::Uuid;

/// How long a key is remembered unless configured otherwise: 24 hours.
pub const DEFAULT_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// The message of the 400 `VALIDATION_ERROR` answering a key reused with a different body.
pub const KEY_REUSED: &str = "idempotency key reused with a different body";

/// What the store says about a request.
#[derive(Debug, PartialEq)]
pub enum Lookup<'a, T> {
    /// The key is not (or no longer) known: process the request.
    Fresh,
    /// The key was used with the same body: answer this again.
    Replay(&'a T),
    /// The key was used with a different body: refuse.
    Mismatch,
}

struct Entry<T> {
    /// The request as [`canonical`] text.
    request: Box<str>,
    response: T,
    stored_at: Instant,
}

/// Remembered successes of one operation for one merchant, by idempotency key, for
/// [`ttl`](Self::ttl).
///
/// `T` is what a replay answers (the operation's success). Times are passed in, so that the
/// store is deterministic to test; the service passes [`Instant::now`].
pub struct IdempotencyStore<T> {
    ttl: Duration,
    entries: HashMap<Uuid, Entry<T>>,
    /// Insertion order with each entry's time, to drop expired entries from the front.
    order: VecDeque<(Instant, Uuid)>,
}

impl<T> fmt::Debug for IdempotencyStore<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IdempotencyStore")
            .field("ttl", &self.ttl)
            .field("keys", &self.entries.len())
            .finish()
    }
}

impl<T> IdempotencyStore<T> {
    /// An empty store that remembers each success for `ttl`.
    #[must_use]
    pub fn new(ttl: Duration) -> Self {
        Self {
            ttl,
            entries: HashMap::new(),
            order: VecDeque::new(),
        }
    }

    /// How long a success is remembered.
    #[must_use]
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// How many keys are remembered (expired ones may still be counted until the next
    /// [`lookup`](Self::lookup) or [`remember`](Self::remember)).
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no key is remembered.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets every key.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.order.clear();
    }

    /// What to do with `request` sent under `key` at `now`.
    pub fn lookup(&mut self, key: Uuid, request: &Value, now: Instant) -> Lookup<'_, T> {
        self.expire(now);
        match self.entries.get(&key) {
            None => Lookup::Fresh,
            Some(entry) if *entry.request == *canonical(request.clone()) => {
                Lookup::Replay(&entry.response)
            }
            Some(_) => Lookup::Mismatch,
        }
    }

    /// Remembers that `request` under `key` was answered `response` at `now`.
    pub fn remember(&mut self, key: Uuid, request: Value, response: T, now: Instant) {
        self.expire(now);
        self.order.push_back((now, key));
        self.entries.insert(
            key,
            Entry {
                request: canonical(request),
                response,
                stored_at: now,
            },
        );
    }

    /// Drops every entry older than the time-to-live.
    fn expire(&mut self, now: Instant) {
        while let Some((stored_at, _)) = self.order.front() {
            if now.saturating_duration_since(*stored_at) < self.ttl {
                break;
            }
            let Some((stored_at, key)) = self.order.pop_front() else {
                break;
            };
            // A key is remembered again only after it expired, so the entry may be newer
            // than this queue item; only the entry this item stands for is dropped.
            if self
                .entries
                .get(&key)
                .is_some_and(|entry| entry.stored_at == stored_at)
            {
                self.entries.remove(&key);
            }
        }
    }
}

/// A request as compact JSON text with every object's members sorted, so that two requests
/// equal as JSON have equal text. Kept instead of the `Value`, whose maps take several times
/// the memory of the text for the same body.
fn canonical(mut request: Value) -> Box<str> {
    fn sort_members(value: &mut Value) {
        match value {
            Value::Object(members) => {
                // A no-op unless serde_json keeps insertion order (`preserve_order`).
                members.sort_keys();
                members.values_mut().for_each(sort_members);
            }
            Value::Array(items) => items.iter_mut().for_each(sort_members),
            _ => {}
        }
    }
    sort_members(&mut request);
    request.to_string().into_boxed_str()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn key(n: u128) -> Uuid {
        Uuid::from_u128(n)
    }

    #[test]
    fn same_body_replays_and_a_different_body_is_a_mismatch() {
        let mut store = IdempotencyStore::new(DEFAULT_TTL);
        let now = Instant::now();
        let body = json!({"a": 1, "b": [1, 2]});
        assert_eq!(store.lookup(key(1), &body, now), Lookup::Fresh);
        store.remember(key(1), body, "first", now);
        // Member order does not matter; values do.
        let reordered = json!({"b": [1, 2], "a": 1});
        assert_eq!(
            store.lookup(key(1), &reordered, now),
            Lookup::Replay(&"first")
        );
        // Nor inside nested objects and arrays.
        let nested = json!({"x": {"p": 1, "q": [{"m": 1, "n": 2}]}});
        store.remember(key(2), nested, "nested", now);
        let nested_reordered = json!({"x": {"q": [{"n": 2, "m": 1}], "p": 1}});
        assert_eq!(
            store.lookup(key(2), &nested_reordered, now),
            Lookup::Replay(&"nested")
        );
        assert_eq!(
            store.lookup(
                key(2),
                &json!({"x": {"q": [{"n": 1, "m": 2}], "p": 1}}),
                now
            ),
            Lookup::Mismatch
        );
        // Array order does.
        assert_eq!(
            store.lookup(key(1), &json!({"a": 1, "b": [2, 1]}), now),
            Lookup::Mismatch
        );
        assert_eq!(
            store.lookup(key(1), &json!({"a": 2, "b": [1, 2]}), now),
            Lookup::Mismatch
        );
    }

    #[test]
    fn keys_expire_after_the_ttl() {
        let ttl = Duration::from_secs(60);
        let mut store = IdempotencyStore::new(ttl);
        let start = Instant::now();
        store.remember(key(1), json!({}), 1, start);
        store.remember(key(2), json!({}), 2, start + Duration::from_secs(30));
        let just_before = start + ttl - Duration::from_millis(1);
        assert_eq!(
            store.lookup(key(1), &json!({}), just_before),
            Lookup::Replay(&1)
        );
        let at_ttl = start + ttl;
        assert_eq!(store.lookup(key(1), &json!({}), at_ttl), Lookup::Fresh);
        assert_eq!(store.len(), 1, "only the expired key is dropped");
        // Remembered again after expiry: the new entry survives the old queue item.
        store.remember(key(1), json!({"x": 1}), 3, at_ttl);
        let later = start + Duration::from_secs(95);
        assert_eq!(
            store.lookup(key(1), &json!({"x": 1}), later),
            Lookup::Replay(&3)
        );
        assert_eq!(store.lookup(key(2), &json!({}), later), Lookup::Fresh);
    }

    #[test]
    fn a_zero_ttl_remembers_nothing() {
        let mut store = IdempotencyStore::new(Duration::ZERO);
        let now = Instant::now();
        store.remember(key(1), json!({}), 1, now);
        assert_eq!(store.lookup(key(1), &json!({}), now), Lookup::Fresh);
        assert!(store.is_empty());
    }
}
