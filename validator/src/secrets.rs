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
            // The checks read a header without the white space around it, and may quote it so.
            values.push(Cow::Borrowed(value.trim()));
            // `Authorization: Bearer <token>`: the token alone may stand elsewhere.
            if is_authorization(name)
                && let Some((scheme, token)) = value.trim().split_once(' ')
            {
                let token = token.trim();
                values.push(Cow::Borrowed(token));
                if scheme.eq_ignore_ascii_case("basic") {
                    values.extend(basic_credentials(token).map(Cow::Owned));
                }
                values.extend(auth_param_credentials(token).map(Cow::Borrowed));
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
    // The `user:password` of the recorded URL, its halves added below.
    values.extend(request.userinfo.as_deref().map(Cow::Borrowed));
    for (name, value) in exchange.response.iter().flat_map(|r| &r.headers) {
        if name.eq_ignore_ascii_case("set-cookie") {
            values.extend(set_cookie_credential(contract, value).map(Cow::Borrowed));
        } else if is_credential_name(contract, name) {
            values.push(Cow::Borrowed(value.trim()));
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
    // A pair in one value (GoDaddy's `sso-key KEY:SECRET`, a header's `user:password`) holds
    // two credentials: either may stand alone elsewhere, as `Basic`'s two do.
    let halves: Vec<Cow<'e, str>> = values
        .iter()
        .filter(|value| value.contains(':'))
        .flat_map(|value| pair_halves(value))
        .map(Cow::Owned)
        .collect();
    values.extend(halves);
    // A report quotes a member named after a credential in a JSON pointer (`/` as `~1`, `~`
    // as `~0`, RFC 6901): that spelling is the credential too (`scrub` finds the others).
    let spelled: Vec<Cow<'e, str>> = values
        .iter()
        .filter_map(|value| pointer_token(value))
        .map(Cow::Owned)
        .collect();
    values.extend(spelled);
    // A scheme's word alone (`Authorization: Bearer`, no token) carries nothing: masking
    // it would rewrite every `bearer` of the exchange (a path's `/optional-bearer`).
    let words = contract.http_scheme_words();
    values.retain(|value| {
        value.len() >= SHORTEST && !specgen::manifest::is_scheme_word(value, words)
    });
    longest_first(&mut values);
    values
}

/// Every secret an exchange carries, longest first: its [`credential_values`] and its
/// bodies' own ([`body_credentials`]), which a path, a member's name or a shown value may
/// repeat anywhere in a report.
pub fn exchange_secrets<'e>(contract: &Contract, exchange: &'e Exchange) -> Vec<Cow<'e, str>> {
    let mut secrets = credential_values(contract, exchange);
    secrets.extend(body_credentials(exchange).into_iter().map(Cow::Owned));
    longest_first(&mut secrets);
    secrets
}

/// Sorts `secrets` longest first, each once: [`scrub`] replaces a longer secret before one it
/// holds (`sk_live_abc` before `abc`), or the longer one would be left half shown.
pub fn longest_first<S: AsRef<str> + Ord>(secrets: &mut Vec<S>) {
    secrets.sort_by(|a, b| {
        b.as_ref()
            .len()
            .cmp(&a.as_ref().len())
            .then_with(|| a.cmp(b))
    });
    secrets.dedup();
}

/// Whether a name says it holds a credential: a key, a token, a secret, a password or a
/// session (`Api-Key`, `X-Auth-Token`, `client_secret`, `access_token`, Azure's
/// `storageAccountAccessKey` and `primaryKey`, a connection string that holds its key, the
/// cookies `JSESSIONID`, `PHPSESSID`, `connect.sid`), whatever its case and separators. A name
/// whose last word is `token` is one unless it pages (AWS's `X-Amz-Security-Token`, not
/// Google's `pageToken`); one whose last word is `key` is one where the word before says whose
/// (`sharingKey`, `Ocp-Apim-Subscription-Key`, not `Idempotency-Key` or `sortKey`); so are
/// a signature or credential that travels alone (AWS's presigned `X-Amz-Signature` and
/// `X-Amz-Credential`, Azure's SAS `sig`) and a passphrase (`psk`).
pub fn names_a_credential(name: &str) -> bool {
    let named: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if matches!(
        named.as_str(),
        "token" | "key" | "session" | "sid" | "connectsid" | "sig" | "psk"
    ) || [
        "apikey",
        "apitoken",
        "accesstoken",
        "refreshtoken",
        "authtoken",
        "secret",
        "password",
        "passwd",
        "passphrase",
        "privatekey",
        "sessiontoken",
        "sessionid",
        "sessid",
        "accesskey",
        "accountkey",
        "sharedkey",
        "signingkey",
        "masterkey",
        "primarykey",
        "secondarykey",
        "connectionstring",
    ]
    .iter()
    .any(|word| named.contains(word))
    {
        return true;
    }
    let words = words(name);
    // A signature named with its algorithm or version after it (GitHub's
    // `X-Hub-Signature-256`, Telnyx's `telnyx-signature-ed25519`), not a signature's method.
    if let Some(at) = words.iter().position(|word| word == "signature")
        && words[at + 1..]
            .iter()
            .all(|word| word.chars().any(|c| c.is_ascii_digit()))
    {
        return true;
    }
    let Some((last, before)) = words.split_last() else {
        return false;
    };
    const PAGING: [&str; 11] = [
        "page",
        "next",
        "prev",
        "previous",
        "continuation",
        "pagination",
        "cursor",
        "sync",
        "resume",
        "skip",
        "marker",
    ];
    const WHOSE_KEY: [&str; 20] = [
        "access",
        "app",
        "application",
        "auth",
        "client",
        "consumer",
        "developer",
        "encryption",
        "hmac",
        "integration",
        "license",
        "licence",
        "merchant",
        "partner",
        "security",
        "service",
        "sharing",
        "subscription",
        "user",
        "webhook",
    ];
    match last.as_str() {
        "token" | "tokens" => !before.iter().any(|word| PAGING.contains(&word.as_str())),
        "key" | "keys" => before
            .last()
            .is_some_and(|word| WHOSE_KEY.contains(&word.as_str())),
        "signature" | "credential" | "credentials" | "psk" | "pwd" => true,
        _ => false,
    }
}

/// A name's words, lowercase, as heck's snake case splits them (`X-Amz-Security-Token`,
/// `sharingKey`, `XMLHttpKey` gives `xml`, `http`, `key`).
fn words(name: &str) -> Vec<String> {
    use heck::ToSnakeCase;
    let separated: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { ' ' })
        .collect();
    separated
        .to_snake_case()
        .split('_')
        .filter(|word| !word.is_empty())
        .map(str::to_string)
        .collect()
}

/// The string values of the JSON body members named as credentials ([`names_a_credential`]:
/// Plaid's `access_token` and `secret`, a login's `password`), at any depth of either body,
/// which no security scheme declares: with `--show-values` a message may quote them. Every
/// string inside such a member counts, not only a member that is a string: GNAP (RFC 9635)
/// issues `access_token: {value: …}`, or a list of them. A form's and a multipart body's
/// fields count too ([`field_credentials`]).
pub fn body_credentials(exchange: &Exchange) -> Vec<String> {
    let mut out = Vec::new();
    let request_type = exchange.request.header("content-type");
    let response_type = exchange
        .response
        .as_ref()
        .and_then(|response| response.header("content-type"));
    let bodies = std::iter::once((&exchange.request.body, request_type))
        .chain(exchange.response.as_ref().map(|r| (&r.body, response_type)));
    for (body, media) in bodies {
        let bytes: &[u8] = match body {
            Some(crate::exchange::Body::Json(value)) => {
                out.extend(value_credentials(value));
                continue;
            }
            Some(crate::exchange::Body::Text(text)) => {
                if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
                    out.extend(value_credentials(&value));
                    continue;
                }
                text.as_bytes()
            }
            Some(crate::exchange::Body::Binary(bytes)) => bytes,
            _ => continue,
        };
        out.extend(field_credentials(bytes, media));
    }
    out
}

/// The credentials of a form or multipart body: a field named as one, in any of the
/// segments of its name (`token[v]`, `meta[owner][client_secret]`), and those inside a
/// field that holds JSON.
fn field_credentials(bytes: &[u8], media: Option<&str>) -> Vec<String> {
    let essence = media.map(crate::exchange::media_type).unwrap_or_default();
    let fields: Vec<(String, String)> = if essence == crate::multipart::FORM_DATA {
        let declared = crate::multipart::declared_boundary([media, None]);
        match crate::multipart::parts(bytes, declared) {
            Ok(parts) => parts
                .into_iter()
                .map(|part| (part.name, part.text))
                .collect(),
            Err(_) => return Vec::new(),
        }
    } else if essence == specgen::form::MEDIA_TYPE {
        form_urlencoded::parse(bytes)
            .map(|(name, value)| (name.into_owned(), value.into_owned()))
            .collect()
    } else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (name, text) in fields {
        let named = name
            .split(['[', ']', '.'])
            .any(|segment| !segment.is_empty() && names_a_credential(segment));
        match serde_json::from_str::<serde_json::Value>(&text) {
            Ok(value) if value.is_object() || value.is_array() => {
                if named {
                    out.extend(value_credentials(&serde_json::json!({ "token": value })));
                } else {
                    out.extend(value_credentials(&value));
                }
            }
            _ if named && text.len() >= SHORTEST => out.push(text),
            _ => {}
        }
    }
    out
}

/// Keeps the payload's own secrets (`value_credentials`) out of violations whose messages
/// show values (`specval message --show-values`), as `check` keeps an exchange's out.
pub fn hide_payload_secrets(
    violations: &mut [crate::contract::Violation],
    payload: &serde_json::Value,
) {
    let mut secrets = value_credentials(payload);
    longest_first(&mut secrets);
    for violation in violations {
        if let Cow::Owned(scrubbed) = scrub(&violation.message, &secrets) {
            violation.message = scrubbed;
        }
    }
}

/// The strings of a JSON value held by members named as credentials, at any depth (see
/// [`body_credentials`]): what `specval message --show-values` keeps out of its messages.
pub fn value_credentials(value: &serde_json::Value) -> Vec<String> {
    fn walk(value: &serde_json::Value, depth: usize, held: bool, out: &mut Vec<String>) {
        if depth > 64 {
            return;
        }
        match value {
            serde_json::Value::Object(members) => {
                for (name, member) in members {
                    walk(member, depth + 1, held || names_a_credential(name), out);
                }
            }
            serde_json::Value::Array(items) => {
                for item in items {
                    walk(item, depth + 1, held, out);
                }
            }
            serde_json::Value::String(text) if held && text.len() >= SHORTEST => {
                out.push(text.clone());
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(value, 0, false, &mut out);
    out
}

/// `value` as a JSON pointer token (RFC 6901), when that spelling differs from it.
fn pointer_token(value: &str) -> Option<String> {
    match specgen::load::escape_segment(value) {
        Cow::Owned(token) => Some(token),
        Cow::Borrowed(_) => None,
    }
}

/// The two sides of a `key:secret` pair, after a scheme word if there is one (`sso-key
/// KEY:SECRET`): a value with one colon only, whose sides hold no space.
fn pair_halves(value: &str) -> Vec<String> {
    let token = value.trim();
    let token = token.rsplit_once(' ').map_or(token, |(_, token)| token);
    match token.split_once(':') {
        Some((key, secret)) if !secret.contains(':') => [key, secret]
            .into_iter()
            .filter(|half| !half.is_empty())
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

/// The secret parts of credentials written as auth-params (RFC 9110 11.2: OAuth 1.0's
/// `oauth_consumer_key="…", oauth_token="…", oauth_signature="…"`, Digest's `username`,
/// `response`, `cnonce`): each may stand alone elsewhere (Trello's `/tokens/{token}`). Only
/// parameters named like a secret, so that `oauth_version="1.0"` masks nothing else.
fn auth_param_credentials(credentials: &str) -> impl Iterator<Item = &str> {
    // By the name's last word: `oauth_signature` is one, `oauth_signature_method` not.
    const SECRET_WORDS: [&str; 11] = [
        "key",
        "token",
        "signature",
        // AWS's SigV4 `Credential=AKIA…/20130524/us-east-1/s3/aws4_request`.
        "credential",
        "secret",
        "nonce",
        "cnonce",
        "response",
        "username",
        "user",
        "password",
    ];
    credentials.split(',').filter_map(|param| {
        let (name, value) = param.split_once('=')?;
        let name = name.trim().to_ascii_lowercase();
        let last_word = name.rsplit(['_', '-']).next().unwrap_or_default();
        let value = value.trim().trim_matches('"');
        let secret = SECRET_WORDS.contains(&last_word);
        (secret && !value.is_empty()).then_some(value)
    })
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
    contract.names_credential(name) || is_authorization(name) || names_a_credential(name)
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

/// `text` with every one of `secrets` replaced by [`REDACTED`], in any spelling a report, a
/// recording or the traffic itself may give it (see [`spelled_len`]): as it is, percent-encoded
/// (`sk_live_a%2Fb` for `sk_live_a/b`, hex in either case), escaped in a JSON string (`\/`,
/// `\u0041`), and in another case (a method or a media type a report prints upper- or
/// lower-cased; a hex key is the same key in either case).
pub fn scrub<'t>(text: &'t str, secrets: &[impl AsRef<str>]) -> Cow<'t, str> {
    let mut text = Cow::Borrowed(text);
    for secret in secrets {
        let secret = secret.as_ref();
        if text.contains(secret) {
            text = Cow::Owned(text.replace(secret, REDACTED));
        }
        if let Some(scrubbed) = replace_spelled(text.as_bytes(), secret.as_bytes()) {
            // A match starts at a character of the secret or at an escape, and ends after a
            // whole character or escape: both are character boundaries.
            text = Cow::Owned(String::from_utf8_lossy(&scrubbed).into_owned());
        }
    }
    text
}

/// [`scrub`] for bytes (a binary body a recording keeps).
#[cfg(any(feature = "proxy", test))]
pub fn scrub_bytes(bytes: &mut Vec<u8>, secrets: &[impl AsRef<str>]) {
    for secret in secrets {
        let secret = secret.as_ref().as_bytes();
        if let Some(scrubbed) = replace_exact(bytes, secret) {
            *bytes = scrubbed;
        }
        if let Some(scrubbed) = replace_spelled(bytes, secret) {
            *bytes = scrubbed;
        }
    }
}

/// Whether `text` holds `secret`, in any spelling (see [`scrub`]).
pub fn quotes(text: &str, secret: &str) -> bool {
    if text.contains(secret) {
        return true;
    }
    let (text, secret) = (text.as_bytes(), secret.as_bytes());
    (0..text.len()).any(|at| spelled_len(&text[at..], secret).is_some())
}

/// `bytes` with `secret` as it is replaced, or `None` if it has none.
#[cfg(any(feature = "proxy", test))]
fn replace_exact(bytes: &[u8], secret: &[u8]) -> Option<Vec<u8>> {
    if secret.is_empty() || !bytes.windows(secret.len()).any(|window| window == secret) {
        return None;
    }
    let mut scrubbed = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at..].starts_with(secret) {
            scrubbed.extend_from_slice(REDACTED.as_bytes());
            at += secret.len();
        } else {
            scrubbed.push(bytes[at]);
            at += 1;
        }
    }
    Some(scrubbed)
}

/// `text` with each spelling of `secret` replaced, or `None` if it has none.
fn replace_spelled(text: &[u8], secret: &[u8]) -> Option<Vec<u8>> {
    if secret.is_empty() {
        return None;
    }
    let mut scrubbed = Vec::new();
    let (mut kept, mut at) = (0, 0);
    while at < text.len() {
        match spelled_len(&text[at..], secret) {
            Some(len) => {
                scrubbed.extend_from_slice(&text[kept..at]);
                scrubbed.extend_from_slice(REDACTED.as_bytes());
                at += len;
                kept = at;
            }
            None => at += 1,
        }
    }
    (kept > 0).then(|| {
        scrubbed.extend_from_slice(&text[kept..]);
        scrubbed
    })
}

/// How many bytes at the start of `text` spell `secret`, each of its bytes in any spelling
/// [`escape_len`] knows or as it is (an ASCII letter in either case).
fn spelled_len(text: &[u8], secret: &[u8]) -> Option<usize> {
    let Some((&byte, rest)) = secret.split_first() else {
        return Some(0);
    };
    let then = |len: usize| Some(len + spelled_len(text.get(len..)?, rest)?);
    // Greedy, never backtracking (a secret of backslashes would take exponential time):
    // `scrub` replaces the spelling as it is first, so a secret's own `\\` is found there.
    match escape_len(text, byte) {
        Some(len) => then(len),
        None => same_byte(*text.first()?, byte).then_some(1).and_then(then),
    }
}

/// Whether `sent` is `byte`, an ASCII letter in either case.
fn same_byte(sent: u8, byte: u8) -> bool {
    sent == byte || sent.eq_ignore_ascii_case(&byte)
}

/// How many bytes at the start of `text` spell `byte` escaped: `%XX` (hex in either case),
/// `+` (a space), a JSON pointer's `~1` (`/`) and `~0` (`~`), and a JSON string's escapes
/// (`\/`, `\"`, `\\`, `\u00XX`, `\~1`), however many backslashes a report's own escaping
/// put before them (`\\u002d`, a `\u002d` written again as JSON).
fn escape_len(text: &[u8], byte: u8) -> Option<usize> {
    let hex = |digits: &[u8]| u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok();
    let unit = |digits: &[u8]| hex(digits).and_then(|code| u8::try_from(code).ok());
    match *text.first()? {
        b'%' => unit(text.get(1..3)?)
            .filter(|code| same_byte(*code, byte))
            .map(|_| 3),
        b'+' if byte == b' ' => Some(1),
        b'~' => match (*text.get(1)?, byte) {
            (b'1', b'/') | (b'0', b'~') => Some(2),
            _ => None,
        },
        b'\\' if byte == b'\\' && text.get(1) == Some(&b'\\') => Some(2),
        b'\\' => {
            let run = text.iter().take_while(|b| **b == b'\\').count();
            let after = &text[run..];
            let len = match *after.first()? {
                sent @ (b'/' | b'"') if sent == byte => 1,
                b'u' if byte.is_ascii() => unit(after.get(1..5)?)
                    .filter(|code| same_byte(*code, byte))
                    .map(|_| 5)?,
                b'~' if byte == b'/' && after.get(1) == Some(&b'1') => 2,
                _ => return None,
            };
            Some(run + len)
        }
        _ => None,
    }
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
        &mut drift.bodies,
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
    fn each_side_of_a_key_and_secret_pair_is_a_credential() {
        assert_eq!(
            pair_halves("sso-key k3yValue:s3cretValue"),
            ["k3yValue", "s3cretValue"]
        );
        assert_eq!(pair_halves("user:password"), ["user", "password"]);
        assert_eq!(pair_halves("key:"), ["key"]);
        // A URL or a time holds more than one colon: no pair.
        assert!(pair_halves("https://a.example:443/x").is_empty());
        assert!(pair_halves("plain").is_empty());
    }

    /// OAuth 1.0's and Digest's credentials are auth-params: each secret one alone is a
    /// credential (Trello's token stands in its path too); the others mask nothing.
    #[test]
    fn names_of_keys_connection_strings_and_sessions_are_credentials() {
        for name in [
            "storageAccountAccessKey",
            "accessKey",
            "AccountKey",
            "primaryKey",
            "primaryConnectionString",
            "JSESSIONID",
            "PHPSESSID",
            "connect.sid",
            "session",
            "sessionId",
            "api_key",
            "X-Amz-Security-Token",
            "x-amz-security-token",
            "securityToken",
            "X-Amz-Token",
            "id_token",
            "sharingKey",
            "sharing_key",
            "Ocp-Apim-Subscription-Key",
            "X-Amz-Signature",
            "X-Amz-Credential",
            "oauth_signature",
            "sig",
            "psk",
            "wifiPassphrase",
            "X-Hub-Signature-256",
            "telnyx-signature-ed25519",
            "X-Signature-Ed25519",
        ] {
            assert!(super::names_a_credential(name), "{name}");
        }
        for name in [
            "keyword",
            "monkey",
            "sessions_count",
            "owner",
            "sidebar",
            "tokenizer_kind",
            "pageToken",
            "nextPageToken",
            "continuation-token",
            "Idempotency-Key",
            "sortKey",
            "partition_key",
            "signature_method",
            "SignatureVersion",
            "signature_timestamp",
            "signatory",
            "keys_count",
        ] {
            assert!(!super::names_a_credential(name), "{name}");
        }
    }

    #[test]
    fn the_secret_auth_params_of_an_authorization_are_credentials() {
        let oauth = r#"oauth_consumer_key="c0ffee01", oauth_token="ATTAdead", oauth_signature_method="HMAC-SHA1", oauth_version="1.0", oauth_signature="sig%3D""#;
        assert_eq!(
            auth_param_credentials(oauth).collect::<Vec<_>>(),
            ["c0ffee01", "ATTAdead", "sig%3D"]
        );
        let digest = r#"username="Mufasa", realm="api", nonce="dcd98b", uri="/dir", response="6629fa", cnonce="0a4f11""#;
        assert_eq!(
            auth_param_credentials(digest).collect::<Vec<_>>(),
            ["Mufasa", "dcd98b", "6629fa", "0a4f11"]
        );
        assert_eq!(auth_param_credentials("abc.def.ghi").count(), 0);
        let sigv4 = "Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=host;x-amz-date, Signature=5d672d79";
        assert_eq!(
            auth_param_credentials(sigv4).collect::<Vec<_>>(),
            [
                "AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request",
                "5d672d79"
            ]
        );
    }

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
        // JSON's escapes, as a body or a report's JSON writes them.
        let secrets = [r#"sk"a\b/c"#];
        assert_eq!(
            scrub(r#"{"k": "sk\"a\\b\/c"}"#, &secrets),
            r#"{"k": "REDACTED"}"#
        );
        assert_eq!(
            scrub(r#"sk\u0022a\u005cb\u002Fc and sk\"a\\b/c"#, &secrets),
            "REDACTED and REDACTED"
        );
    }

    #[test]
    fn a_credential_escaped_twice_is_replaced_too() {
        // A member named after a key, percent-encoded, then written as a JSON pointer (`~` as
        // `~0`); written JSON-escaped, then as a pointer (`\~1`); a `\u002d` escaped again
        // by a JSON report.
        let secrets = ["pat-na1/7f3c9a2e~41b8", "AKx9/Qm3zz"];
        assert_eq!(
            scrub("/context/pat-na1%2F7f3c9a2e~041b8", &secrets),
            "/context/REDACTED"
        );
        assert_eq!(
            scrub(r"/context/AKx9\~1Qm3zz", &secrets),
            "/context/REDACTED"
        );
        assert_eq!(
            scrub(r#""pat\\u002dna1\/7f3c9a2e~41b8""#, &secrets),
            r#""REDACTED""#
        );
    }

    #[test]
    fn a_credential_in_another_case_is_replaced_too() {
        // A report upper-cases a method and lower-cases a media type; a hex key is the same key
        // in either case.
        let secrets = ["7d3a9b1c5e8f", "eyJhbGciOi.Zm9v"];
        assert_eq!(
            scrub("X7D3A9B1C5E8F is not an operation", &secrets),
            "XREDACTED is not an operation"
        );
        assert_eq!(
            scrub("not application/eyjhbgcioi.zm9v", &secrets),
            "not application/REDACTED"
        );
        assert!(quotes("%37D3A9B1C5E8F", "7d3a9b1c5e8f"));
        let mut body = b"\x00 key=7D3A9B1C5E8F \xff".to_vec();
        scrub_bytes(&mut body, &secrets);
        assert_eq!(body, b"\x00 key=REDACTED \xff");
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
