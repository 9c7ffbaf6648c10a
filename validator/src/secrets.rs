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

use crate::contract::Contract;
use crate::exchange::Exchange;
use crate::finding::Finding;
use crate::report::{Drift, DriftKey};

/// What stands where a credential value was.
pub const REDACTED: &str = "REDACTED";

/// Values shorter than this are not searched for: replacing every `a` of a message would
/// garble it, and no real credential is that short.
const SHORTEST: usize = 4;

/// The credential values an exchange carries: the values of the headers, query parameters
/// and cookies named as a security scheme of the contract names a credential, wherever they
/// stand (a key sent in the query although its scheme says header is still a key; see
/// [`Contract::names_credential`]), `Authorization` (its token too, after the scheme word,
/// and for `Basic` the user name and password it encodes; see [`is_credential_name`]), and a
/// credential cookie the response sets; each also percent-decoded where it was sent encoded
/// (a cookie's `s%3AAbCd` repeated as `s:AbCd`); longest first so that a value holding
/// another is replaced whole.
pub fn credential_values<'e>(contract: &Contract, exchange: &'e Exchange) -> Vec<Cow<'e, str>> {
    let request = &exchange.request;
    let mut values: Vec<Cow<'e, str>> = Vec::new();
    for (name, value) in &request.headers {
        if is_credential_name(contract, name) {
            values.push(Cow::Borrowed(value));
            // `Authorization: Bearer <token>`: the token alone may stand elsewhere.
            if is_authorization(name)
                && let Some((scheme, token)) = value.trim().split_once(' ')
            {
                let token = token.trim();
                values.push(Cow::Borrowed(token));
                if scheme.eq_ignore_ascii_case("basic") {
                    values.extend(basic_credentials(token).map(Cow::Owned));
                }
            }
        } else if name.eq_ignore_ascii_case("cookie") {
            values
                .extend(credential_cookies(contract, value).map(|(_, value)| Cow::Borrowed(value)));
        }
    }
    for (name, value) in &request.query {
        if is_credential_name(contract, name) {
            values.push(Cow::Borrowed(value));
        }
    }
    for (name, value) in exchange.response.iter().flat_map(|r| &r.headers) {
        if name.eq_ignore_ascii_case("set-cookie") {
            values.extend(set_cookie_credential(contract, value).map(Cow::Borrowed));
        } else if is_credential_name(contract, name) {
            values.push(Cow::Borrowed(value));
        }
    }
    // Sent percent-encoded, a value may be repeated decoded (a session cookie in a body);
    // `scrub` already finds encoded spellings of a decoded value, not the reverse.
    let decoded: Vec<Cow<'e, str>> = values
        .iter()
        .filter(|value| value.contains('%'))
        .map(|value| specgen::load::percent_decode_lossy(value))
        .filter(|value| !value.contains('\u{FFFD}'))
        .map(Cow::Owned)
        .collect();
    values.extend(decoded);
    // A report quotes a member named after a credential in a JSON pointer (`/` as `~1`, `~`
    // as `~0`, RFC 6901) and a value inside a JSON string (`"` and `\\` escaped): those
    // spellings are the credential too.
    let spelled: Vec<Cow<'e, str>> = values
        .iter()
        .flat_map(|value| [pointer_token(value), json_string_text(value)])
        .flatten()
        .map(Cow::Owned)
        .collect();
    values.extend(spelled);
    values.retain(|value| value.len() >= SHORTEST);
    values.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    values.dedup();
    values
}

/// `value` as a JSON pointer token (RFC 6901), when that spelling differs from it.
fn pointer_token(value: &str) -> Option<String> {
    match specgen::load::escape_segment(value) {
        Cow::Owned(token) => Some(token),
        Cow::Borrowed(_) => None,
    }
}

/// `value` as the text between the quotes of a JSON string, when that spelling differs.
fn json_string_text(value: &str) -> Option<String> {
    let quoted = serde_json::to_string(value).ok()?;
    let text = &quoted[1..quoted.len() - 1];
    (text != value).then(|| text.to_owned())
}

/// What `Basic <token>` encodes (RFC 7617): `user:password`, and each of the two. The user
/// name is as secret as the password where an API sends its key as the user name (Stripe's
/// `sk_live_…:` with no password, Freshdesk's `key:X`).
fn basic_credentials(token: &str) -> impl Iterator<Item = String> {
    use base64::Engine as _;
    let engine = base64::engine::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
    );
    let pair = engine
        .decode(token)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok());
    pair.into_iter().flat_map(|pair| {
        let parts = pair
            .split_once(':')
            .map(|(user, password)| [user.to_owned(), password.to_owned()]);
        std::iter::once(pair.clone()).chain(parts.into_iter().flatten())
    })
}

/// Whether a header, query parameter or cookie of this name carries a credential, whatever
/// place its scheme gives it.
pub fn is_credential_name(contract: &Contract, name: &str) -> bool {
    contract.names_credential(name) || is_authorization(name)
}

fn is_authorization(name: &str) -> bool {
    name.eq_ignore_ascii_case("authorization") || name.eq_ignore_ascii_case("proxy-authorization")
}

/// The `(name, value)` pairs of a `Cookie` header whose name is a credential's.
pub fn credential_cookies<'h>(
    contract: &Contract,
    header: &'h str,
) -> impl Iterator<Item = (&'h str, &'h str)> {
    header.split(';').filter_map(|pair| {
        let (name, value) = pair.split_once('=')?;
        is_credential_name(contract, name.trim()).then(|| (name, value.trim()))
    })
}

/// The value a `Set-Cookie` header sets, when the cookie's name is a credential's.
pub fn set_cookie_credential<'h>(contract: &Contract, header: &'h str) -> Option<&'h str> {
    let pair = header.split(';').next()?;
    let (name, value) = pair.split_once('=')?;
    is_credential_name(contract, name.trim()).then(|| value.trim())
}

/// `text` with every one of `secrets` replaced by [`REDACTED`]: as it is, and spelled with
/// any of its bytes percent-encoded (`sk_live_a%2Fb` for `sk_live_a/b`, hex in either case),
/// as a path or a query a report quotes may hold it.
pub fn scrub<'t>(text: &'t str, secrets: &[impl AsRef<str>]) -> Cow<'t, str> {
    let mut text = Cow::Borrowed(text);
    for secret in secrets {
        let secret = secret.as_ref();
        if text.contains(secret) {
            text = Cow::Owned(text.replace(secret, REDACTED));
        }
        if text.contains(['%', '+'])
            && let Some(scrubbed) = replace_encoded(&text, secret)
        {
            text = Cow::Owned(scrubbed);
        }
    }
    text
}

/// Whether `text` holds `secret`, as it is or percent-encoded (see [`scrub`]).
pub fn quotes(text: &str, secret: &str) -> bool {
    text.contains(secret)
        || (text.contains(['%', '+']) && encoded_at(text.as_bytes(), secret).is_some())
}

/// `text` with each percent-encoded spelling of `secret` replaced, or `None` if it has none.
fn replace_encoded(text: &str, secret: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut scrubbed = String::new();
    let (mut kept, mut at) = (0, 0);
    while at < bytes.len() {
        match encoded_len(&bytes[at..], secret.as_bytes()) {
            Some(len) => {
                // A match starts at a byte of `secret`'s first character or at a `%`, and
                // ends after a whole character or an escape: both are character boundaries.
                scrubbed.push_str(&text[kept..at]);
                scrubbed.push_str(REDACTED);
                at += len;
                kept = at;
            }
            None => at += 1,
        }
    }
    (kept > 0).then(|| {
        scrubbed.push_str(&text[kept..]);
        scrubbed
    })
}

/// Where in `text` a percent-encoded spelling of `secret` starts.
fn encoded_at(text: &[u8], secret: &str) -> Option<usize> {
    (0..text.len()).find(|&at| encoded_len(&text[at..], secret.as_bytes()).is_some())
}

/// How many bytes at the start of `text` spell `secret`, each of its bytes as it is, as a
/// `%XX` escape, or (a space) as `+`.
fn encoded_len(text: &[u8], secret: &[u8]) -> Option<usize> {
    let mut at = 0;
    for &byte in secret {
        match *text.get(at)? {
            sent if sent == byte => at += 1,
            b'%' => {
                let hex = std::str::from_utf8(text.get(at + 1..at + 3)?).ok()?;
                if u8::from_str_radix(hex, 16).ok()? != byte {
                    return None;
                }
                at += 3;
            }
            b'+' if byte == b' ' => at += 1,
            _ => return None,
        }
    }
    Some(at)
}

/// [`scrub`] in place, for a `String` a finding or a verdict owns.
pub fn scrub_owned(text: &mut String, secrets: &[impl AsRef<str>]) {
    if let Cow::Owned(scrubbed) = scrub(text, secrets) {
        *text = scrubbed;
    }
}

/// Every text of `findings` that could quote the exchange scrubbed of `secrets`.
pub fn scrub_findings(findings: &mut [Finding], secrets: &[impl AsRef<str>]) {
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
pub fn scrub_drift(drift: &mut Drift, secrets: &[impl AsRef<str>]) {
    if secrets.is_empty() {
        return;
    }
    for map in [
        &mut drift.properties,
        &mut drift.enum_values,
        &mut drift.statuses,
        &mut drift.parameters,
    ] {
        let quoting = |key: &DriftKey| {
            secrets.iter().any(|secret| {
                let secret = secret.as_ref();
                quotes(&key.location, secret)
                    || key
                        .value
                        .as_deref()
                        .is_some_and(|value| quotes(value, secret))
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

    #[test]
    fn a_credential_spelled_as_a_pointer_token_or_inside_a_json_string_is_a_credential_too() {
        assert_eq!(
            pointer_token("sk_live_a/b~c").as_deref(),
            Some("sk_live_a~1b~0c")
        );
        assert_eq!(pointer_token("sk_live_abc"), None);
        assert_eq!(
            json_string_text(r#"sk"a\b"#).as_deref(),
            Some(r#"sk\"a\\b"#)
        );
        assert_eq!(json_string_text("sk_live_a/b"), None);
    }

    #[test]
    fn a_percent_encoded_spelling_is_replaced_too() {
        let secrets = ["sk_live_PROBE789/+=", "pk_live_PROBE123"];
        assert_eq!(
            scrub(
                "GET /v1/nope/sk_live_PROBE789%2F%2B%3D and /x/sk_live_PROBE789%2f%2b%3d/y",
                &secrets
            ),
            "GET /v1/nope/REDACTED and /x/REDACTED/y"
        );
        assert_eq!(
            scrub("/a/pk_live_PROBE%31%323?q=pk%5Flive%5FPROBE123", &secrets),
            "/a/REDACTED?q=REDACTED"
        );
        assert!(quotes("x%2Fpk_live_PROBE%3123", "pk_live_PROBE123"));
        assert!(!quotes("pk_live_PROBE%3124", "pk_live_PROBE123"));
        // A space as `+`, as a form or a query writes it; multibyte characters escaped.
        assert_eq!(
            scrub("k=open+s%C3%A9same!", &["open sésame"]),
            "k=REDACTED!"
        );
        // Text that only looks like an escape is left as it is.
        assert!(matches!(
            scrub("100% sure, 50%", &secrets),
            Cow::Borrowed(_)
        ));
    }
}
