//! Credential values kept out of everything a check says about an exchange.
//!
//! Findings name credential headers, never their values, and values inside messages are
//! masked. A credential can still reach a report by another road: a request that carries its
//! secret key in the path as well (`GET /v1/accounts/sk_live_…`), a record whose `id` is the
//! key, a query parameter that repeats it. Every text a finding or a verdict carries about an
//! exchange (its id, its `METHOD path` label, a message, a pointer) has the exchange's own
//! credential values replaced by [`REDACTED`] before it leaves the checker.

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::contract::{Contract, Location};
use crate::exchange::Exchange;
use crate::finding::Finding;
use crate::report::{Drift, DriftKey};

/// What stands where a credential value was.
pub const REDACTED: &str = "REDACTED";

/// Values shorter than this are not searched for: replacing every `a` of a message would
/// garble it, and no real credential is that short.
const SHORTEST: usize = 4;

/// The credential values an exchange's request carries: the headers, query parameters and
/// cookies the contract's security schemes name, and `Authorization` (its token too, after
/// the scheme word; see [`is_credential_header`]), longest first so that a value holding another is replaced whole.
pub fn credential_values<'e>(contract: &Contract, exchange: &'e Exchange) -> Vec<&'e str> {
    let request = &exchange.request;
    let mut values = Vec::new();
    for (name, value) in &request.headers {
        if is_credential_header(contract, name) {
            values.push(value.as_str());
            // `Authorization: Bearer <token>`: the token alone may stand elsewhere.
            if is_authorization(name)
                && let Some((_, token)) = value.trim().split_once(' ')
            {
                values.push(token.trim());
            }
        } else if name.eq_ignore_ascii_case("cookie") {
            values.extend(value.split(';').filter_map(|pair| {
                let (name, value) = pair.split_once('=')?;
                contract
                    .is_credential(Location::Cookie, name.trim())
                    .then_some(value.trim())
            }));
        }
    }
    for (name, value) in &request.query {
        if contract.is_credential(Location::Query, name) {
            values.push(value.as_str());
        }
    }
    values.retain(|value| value.len() >= SHORTEST);
    values.sort_by_key(|value| std::cmp::Reverse(value.len()));
    values.dedup();
    values
}

/// Whether a request header carries a credential: one a security scheme of the contract
/// names, or `Authorization` / `Proxy-Authorization`, whatever the contract declares.
pub fn is_credential_header(contract: &Contract, name: &str) -> bool {
    contract.is_credential(Location::Header, name) || is_authorization(name)
}

fn is_authorization(name: &str) -> bool {
    name.eq_ignore_ascii_case("authorization") || name.eq_ignore_ascii_case("proxy-authorization")
}

/// `text` with every one of `secrets` replaced by [`REDACTED`].
pub fn scrub<'t>(text: &'t str, secrets: &[&str]) -> Cow<'t, str> {
    let mut text = Cow::Borrowed(text);
    for secret in secrets {
        if text.contains(secret) {
            text = Cow::Owned(text.replace(secret, REDACTED));
        }
    }
    text
}

/// [`scrub`] in place, for a `String` a finding or a verdict owns.
pub fn scrub_owned(text: &mut String, secrets: &[&str]) {
    if let Cow::Owned(scrubbed) = scrub(text, secrets) {
        *text = scrubbed;
    }
}

/// Every text of `findings` that could quote the exchange scrubbed of `secrets`.
pub fn scrub_findings(findings: &mut [Finding], secrets: &[&str]) {
    if secrets.is_empty() {
        return;
    }
    for finding in findings {
        if let Some(id) = &mut finding.id {
            scrub_owned(id, secrets);
        }
        scrub_owned(&mut finding.message, secrets);
        scrub_owned(&mut finding.pointer, secrets);
    }
}

/// `drift` with every value and place that quotes one of `secrets` scrubbed (an undocumented
/// enum value, shown with `--show-values`, may be a credential a body repeats).
pub fn scrub_drift(drift: &mut Drift, secrets: &[&str]) {
    if secrets.is_empty() {
        return;
    }
    for map in [
        &mut drift.properties,
        &mut drift.enum_values,
        &mut drift.statuses,
    ] {
        let quoting = |key: &DriftKey| {
            secrets.iter().any(|secret| {
                key.location.contains(secret)
                    || key
                        .value
                        .as_deref()
                        .is_some_and(|value| value.contains(secret))
            })
        };
        if !map.keys().any(quoting) {
            continue;
        }
        *map = std::mem::take(map).into_iter().fold(
            BTreeMap::new(),
            |mut scrubbed, (mut key, count)| {
                scrub_owned(&mut key.location, secrets);
                if let Some(value) = &mut key.value {
                    scrub_owned(value, secrets);
                }
                *scrubbed.entry(key).or_default() += count;
                scrubbed
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_occurrence_is_replaced_and_the_longest_value_first() {
        let secrets = ["sk_live_12345", "sk_live_1"];
        assert_eq!(
            scrub("GET /v1/sk_live_12345/x?k=sk_live_12345", &secrets),
            "GET /v1/REDACTED/x?k=REDACTED"
        );
        assert!(matches!(scrub("nothing here", &secrets), Cow::Borrowed(_)));
    }
}
