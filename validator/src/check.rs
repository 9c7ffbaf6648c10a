//! The checks of one exchange against the contract: which operation it is, its parameters,
//! credentials, idempotency key, content types, bodies, and whether its status is documented;
//! for a notification, the payload and the receiver's reply.
//!
//! Here the entry points and the walk of an exchange; `request.rs` checks credentials and
//! parameters, `body.rs` bodies (content type, schema, undocumented members), `response.rs`
//! statuses, response bodies and a receiver's rejections.

mod body;
mod request;
mod response;

use std::borrow::Cow;

use serde_json::Value;

use crate::contract::{Contract, Match, OperationSpec};
use crate::coverage::key::{self as coverage, Category};
use crate::exchange::{Body, Exchange, ExchangeKind, Request, Response};
use crate::finding::{Finding, Part, Severity, Site, shorten};
use crate::in_place::Doc;
use crate::report::Drift;
use crate::rule::Rule;
use crate::secrets;

/// How much of a method or path from the traffic a message shows.
const TEXT: usize = 256;

/// How strict a run is.
#[derive(Debug, Clone, Copy, Default)]
pub struct CheckOptions {
    /// Also report undocumented properties and enum values, as warnings.
    pub strict: bool,
    /// Let instance values appear in messages (masked by default).
    pub show_values: bool,
}

/// What checking one exchange found.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The operation or webhook it matched.
    pub operation: Option<String>,
    /// Findings, in the order the checks ran.
    pub findings: Vec<Finding>,
    /// Undocumented things seen.
    pub drift: Drift,
    /// What of the contract the exchange exercised, when [`check_covering`] was asked for it
    /// (for [`crate::coverage`]); empty otherwise.
    pub covered: Vec<coverage::Key>,
    /// The exchange is no call of the API, and was not judged: a browser's CORS preflight of
    /// a documented path, or a web page's own resource (a page, script, style, image, font)
    /// where the API has no operation, as a browser's HAR of a web client holds many. A run
    /// counts these apart, and an input of nothing else is an empty capture.
    pub not_api: bool,
}

/// Checks one exchange.
pub fn check(contract: &Contract, exchange: &Exchange, options: CheckOptions) -> Outcome {
    check_covering(contract, exchange, options, false)
}

/// Whether an exchange is a call or a notification: as its record says, else a notification
/// when its method and path are a webhook's.
pub fn kind_of(contract: &Contract, exchange: &Exchange) -> ExchangeKind {
    exchange.kind.unwrap_or_else(|| {
        if contract
            .match_webhook(&exchange.request.method, &exchange.request.path)
            .is_some()
        {
            ExchangeKind::Notification
        } else {
            ExchangeKind::Operation
        }
    })
}

/// [`check`], also noting in [`Outcome::covered`] what of the contract the exchange exercised
/// when `coverage` is set: the same pass matches the operation and parses the bodies once for
/// both.
pub fn check_covering(
    contract: &Contract,
    exchange: &Exchange,
    options: CheckOptions,
    coverage: bool,
) -> Outcome {
    check_with(contract, exchange, options, coverage, true)
}

/// [`check`] for live traffic, which wants the findings alone: undocumented members and enum
/// values are looked for only in strict mode, where they are findings, and
/// [`Outcome::drift`] stays empty (a run's report counts them; a live check has no report).
pub fn findings_of(
    contract: &Contract,
    exchange: &Exchange,
    options: CheckOptions,
) -> Vec<Finding> {
    check_with(contract, exchange, options, false, options.strict).findings
}

fn check_with(
    contract: &Contract,
    exchange: &Exchange,
    options: CheckOptions,
    coverage: bool,
    drift: bool,
) -> Outcome {
    let kind = kind_of(contract, exchange);
    let run = |instead: Option<&OperationSpec>| {
        let mut checker = Checker::new(contract, exchange, options, (coverage, drift), kind);
        checker.instead = instead;
        match kind {
            ExchangeKind::Operation => checker.operation(exchange),
            ExchangeKind::Notification => checker.notification(exchange),
        }
        checker.failed(exchange, kind);
        checker.outcome
    };
    let mut outcome = run(None);
    // Operations the request fits as well (one method and path on the wire, told apart by
    // their bodies only): the exchange keeps the contract when it keeps one of them. The
    // first it keeps without a warning or drift is taken (under `--strict` a warning fails
    // the run, and drift would be put down to an operation the exchange is not); else the
    // first it keeps without an error.
    if kind == ExchangeKind::Operation
        && !spotless(&outcome)
        && let Match::Operation(chosen, _) = contract.match_request(&exchange.request)
    {
        let mut without_errors = None;
        for other in contract.equally_fitting(&exchange.request, chosen) {
            let tried = run(Some(other));
            if spotless(&tried) {
                without_errors = Some(tried);
                break;
            }
            if without_errors.is_none() && !has_errors(&tried) && has_errors(&outcome) {
                without_errors = Some(tried);
            }
        }
        if let Some(tried) = without_errors {
            outcome = tried;
        }
    }
    outcome.covered.sort_unstable();
    outcome.covered.dedup();
    if !outcome.findings.is_empty() || !outcome.drift.is_empty() {
        // A body's own secrets (a member named `access_token`) too: shown values may quote
        // them, and in every mode a path or a member's name may repeat one.
        let secrets = secrets::exchange_secrets(contract, exchange);
        secrets::scrub_findings(&mut outcome.findings, &secrets);
        secrets::scrub_drift(&mut outcome.drift, &secrets);
    }
    outcome
}

/// Whether an exchange is a web page's own resource rather than a call of an API: a `GET` (or
/// `HEAD`) that a browser made for a page, frame, script, style, image, font or media
/// (`Sec-Fetch-Dest` other than `empty`, which `fetch` and XHR send), or that was answered
/// with such a resource (`text/html`, `text/css`, JavaScript, `image/*`, `font/*`, `audio/*`,
/// `video/*`). The answer counts only when it succeeded (2XX, 304): a client's call of a
/// mistyped path that a server answers with an HTML 404 page is still an unknown path. And
/// whatever the browser held itself (`data:`, `blob:`), whatever its method.
fn is_page_resource(exchange: &Exchange) -> bool {
    let request = &exchange.request;
    // A `data:` or `blob:` URL, kept whole by the readers: never a call over the network.
    if !request.path.starts_with('/') {
        return true;
    }
    if !request.method.eq_ignore_ascii_case("GET") && !request.method.eq_ignore_ascii_case("HEAD") {
        return false;
    }
    if let Some(destination) = request.header("sec-fetch-dest") {
        let destination = destination.trim();
        return !destination.is_empty() && !destination.eq_ignore_ascii_case("empty");
    }
    let Some(response) = &exchange.response else {
        return false;
    };
    if !(200..300).contains(&response.status) && response.status != 304 {
        return false;
    }
    let Some(media) = response.content_type() else {
        return false;
    };
    let (kind, subtype) = media.split_once('/').unwrap_or((media.as_str(), ""));
    match kind {
        "image" | "font" | "audio" | "video" => true,
        "text" => matches!(subtype, "html" | "css" | "javascript" | "ecmascript"),
        "application" => matches!(
            subtype,
            "javascript"
                | "x-javascript"
                | "ecmascript"
                | "xhtml+xml"
                | "wasm"
                | "manifest+json"
                | "font-woff"
                | "font-woff2"
                | "x-font-ttf"
                | "x-font-woff"
                | "vnd.ms-fontobject"
        ),
        _ => false,
    }
}

/// A `304 Not Modified` answering a conditional `GET` or `HEAD` (`If-None-Match`,
/// `If-Modified-Since`), where the operation documents no 304: HTTP's cache revalidation
/// (RFC 9110, 15.4.5), which any server may answer and a browser's recording is full of,
/// rather than an answer the contract left out. It has no body to check. A 304 to a request
/// that asked for none stays an undocumented status.
fn revalidated(op: &OperationSpec, request: &Request, response: &Response) -> bool {
    let conditional =
        request.header("if-none-match").is_some() || request.header("if-modified-since").is_some();
    let safe =
        request.method.eq_ignore_ascii_case("GET") || request.method.eq_ignore_ascii_case("HEAD");
    // `default` describes the answers the document does not list, errors in practice: a
    // revalidation is not one of them.
    let documented = op.response(304).is_some_and(|spec| spec.key != "default");
    response.status == 304 && !documented && safe && conditional
}

/// A `401` from an operation its security requirements guard, where the operation documents
/// no 401 (BigQuery's operations document 200 alone): RFC 9110's refusal of a request without
/// valid credentials, which the requirements imply and the generated server answers, rather
/// than an answer the contract left out. The credentials rule asks for this very status.
fn refused_for_credentials(op: &OperationSpec, response: &Response) -> bool {
    response.status == 401
        && op.response(401).is_none()
        && op
            .security
            .iter()
            .any(|requirement| !requirement.is_empty())
}

/// Whether an exchange kept its operation without a finding of any severity or drift.
fn spotless(outcome: &Outcome) -> bool {
    outcome.findings.is_empty() && outcome.drift.is_empty()
}

fn has_errors(outcome: &Outcome) -> bool {
    outcome
        .findings
        .iter()
        .any(|finding| finding.severity == Severity::Error)
}

impl<'c> Checker<'c> {
    fn new(
        contract: &'c Contract,
        exchange: &Exchange,
        options: CheckOptions,
        (coverage, drift): (bool, bool),
        kind: ExchangeKind,
    ) -> Checker<'c> {
        Checker {
            contract,
            options,
            coverage,
            drift,
            head: false,
            instead: None,
            site: Site {
                exchange: exchange.index,
                id: exchange.id.clone(),
                source: exchange.source.clone(),
                line: exchange.line,
                operation: None,
                kind,
            },
            outcome: Outcome::default(),
        }
    }
}

struct Checker<'c> {
    contract: &'c Contract,
    options: CheckOptions,
    /// Look for undocumented members and enum values.
    drift: bool,
    /// Note what the exchange exercises.
    coverage: bool,
    /// A `HEAD`, documented or checked as the `GET` it stands for: its response has no
    /// body.
    head: bool,
    /// The operation to check the exchange as, in place of the one it matched: another it
    /// fits as well ([`Contract::equally_fitting`]).
    instead: Option<&'c OperationSpec>,
    site: Site,
    outcome: Outcome,
}

impl Checker<'_> {
    /// A body read in place that conforms to `schema`, when nothing else needs it as a
    /// `Value`: a live check (no drift walk, no coverage) of a body that keeps the contract is
    /// then judged without building one. Anything else (not JSON, not conforming, drift or
    /// coverage wanted) is left to the full path, so findings do not depend on which answered.
    fn conforming<'b>(&self, schema: Option<&str>, body: Option<&'b Body>) -> Option<Doc<'b>> {
        if self.drift || self.coverage {
            return None;
        }
        let bytes = match body? {
            Body::Text(text) => text.as_bytes(),
            Body::Binary(bytes) => bytes.as_slice(),
            Body::Json(_) | Body::Unrecorded(_) => return None,
        };
        let doc = Doc::parse(bytes)?;
        self.contract.conforms(schema?, &doc).then_some(doc)
    }
}

/// The notification a payload is, for one delivered where no webhook's path says: an OpenAPI
/// 3.1 `webhooks` entry has no path (its receiver registers a URL of its own), so a recording
/// marked as a notification is matched by its payload (see [`webhook_of_payload`]). A webhook
/// whose delivery path the spec gives is delivered there.
fn webhook_by_payload<'c>(contract: &'c Contract, request: &Request) -> Option<&'c OperationSpec> {
    webhook_of_payload(contract, request, |hook| hook.delivered_anywhere)
}

/// The notification a payload delivered at the wrong path was meant to be: among the webhooks
/// whose delivery path the spec fixes, chosen as [`webhook_by_payload`] chooses. Its path is a
/// finding; its payload and reply are still checked, so what else is wrong is said too.
fn misdelivered_webhook<'c>(
    contract: &'c Contract,
    request: &Request,
) -> Option<&'c OperationSpec> {
    webhook_of_payload(contract, request, |hook| !hook.delivered_anywhere)
}

/// The webhook of the request's method, among those `eligible` takes, that a payload is: of
/// those documenting one of its members at least (if any does), the one documenting most of
/// them, then the one it breaks least, then the first, when it keeps that one's schema; else
/// the only one of its method, or the one it breaks least alone or as the others do, whose
/// checks then say what is wrong with it; else none. For a notification without a body, the
/// first that needs none; for a body that is no JSON, the first.
fn webhook_of_payload<'c>(
    contract: &'c Contract,
    request: &Request,
    eligible: impl Fn(&OperationSpec) -> bool,
) -> Option<&'c OperationSpec> {
    let mut candidates = contract
        .webhooks()
        .iter()
        .filter(|hook| eligible(hook) && hook.method.eq_ignore_ascii_case(&request.method));
    // A JSON Lines payload written as a string holding its JSON is chosen by that JSON, as
    // its checks then read it (`Checker::json_in_string`): every payload schema refuses a
    // string, and the same notification recorded in a HAR is chosen so.
    let parsed = match body::json_text_in_string(request.body.as_ref()) {
        Some(payload) => Parsed::Json(Cow::Owned(payload)),
        None => parse_body(request.body.as_ref()),
    };
    // PeerTube's search callbacks, one per operation that names them, POST nothing.
    if let Parsed::None = parsed
        && let Some(hook) = candidates
            .clone()
            .find(|hook| hook.request_body.as_ref().is_none_or(|body| !body.required))
    {
        return Some(hook);
    }
    // The notifications the payload is closest to: those documenting one of its members at
    // least, if any does, the fewest of its members undocumented first, then the fewest rules
    // broken, then document order. Telnyx's link-click event requires nothing and keeps any
    // `{data}` payload, a broken hang-up's included, but documents few of its members.
    let mut closest: Vec<(&OperationSpec, Distance)> = Vec::new();
    if let Parsed::Json(payload) = &parsed {
        closest = candidates
            .clone()
            .filter_map(|hook| Some((hook, distance(contract, hook, payload)?)))
            .collect();
        let knowing = closest.iter().any(|(_, distance)| distance.knows);
        closest.retain(|(_, distance)| distance.knows || !knowing);
        // Of equals, the one the payload names (Adyen's created and updated events share a
        // schema; `type` says which).
        closest.sort_by_key(|(hook, distance)| (distance.far, !hook.named_by(payload)));
        if let Some((hook, Distance { far: (_, 0), .. })) = closest.first() {
            return Some(hook);
        }
    }
    // Several that all take no payload are one shape: a body sent to them is still theirs,
    // and `body-unexpected` says what is wrong with it.
    if candidates.clone().all(|hook| hook.request_body.is_none()) {
        return candidates.next();
    }
    // The only one of its method is the one, whose checks say what is wrong; so is the first
    // of several for a body that is no JSON, which their checks say.
    if candidates.clone().nth(1).is_none() || matches!(parsed, Parsed::NotJson(_)) {
        return candidates.next();
    }
    // A payload that keeps none of several (Adyen delivers every event to the one URL the
    // merchant registered): the one it breaks least, alone (or breaking the same rules at the
    // same members, Adyen's created and updated events of one schema, or Vercel's events told
    // by a one-value `type` a new event type breaks in each), and that documents one of its
    // members at least, whose checks then name what is wrong; else not known to be any of
    // them, which the `webhook-path` finding says.
    if !matches!(parsed, Parsed::Json(_)) {
        return None;
    }
    match closest.as_slice() {
        [(hook, Distance { knows: true, .. })] => Some(*hook),
        [(hook, best @ Distance { knows: true, .. }), (_, next), ..] => {
            let alone = next.far > best.far;
            (alone || best.breaks_alike(next)).then_some(*hook)
        }
        _ => None,
    }
}

/// How far a payload is from a webhook's payload schema ([`distance`]).
struct Distance {
    /// The members the schema does not document, then the rules the payload breaks
    /// (compared in that order: a schema that keeps any payload, documenting none of its
    /// members, is further than the one the payload is and breaks).
    far: (usize, usize),
    /// Whether the schema documents one of the payload's own members at least.
    knows: bool,
    /// The rules broken; `None` when the schema could not be checked.
    violations: Option<Vec<crate::contract::Violation>>,
}

impl Distance {
    /// Whether two schemas are broken alike: the same rules at the same members. A value a
    /// list does not name breaks each list the same way, whatever the list; another rule is
    /// told by what its message names (a missing member).
    fn breaks_alike(&self, other: &Distance) -> bool {
        fn ways(distance: &Distance) -> Option<Vec<(&str, &Rule, Option<&str>)>> {
            let violations = distance.violations.as_ref()?;
            Some(
                violations
                    .iter()
                    .map(|violation| {
                        let named = !matches!(violation.rule, Rule::Enum | Rule::Const);
                        (
                            violation.pointer.as_str(),
                            &violation.rule,
                            named.then_some(violation.message.as_str()),
                        )
                    })
                    .collect(),
            )
        }
        ways(self) == ways(other)
    }
}

/// How far `payload` is from `hook`'s payload schema; `None` without a schema.
fn distance(contract: &Contract, hook: &OperationSpec, payload: &Value) -> Option<Distance> {
    let schema = hook
        .request_body
        .as_ref()
        .and_then(|body| body.schema.as_deref())?;
    let violations = contract.check(schema, payload, false).ok();
    let broken = violations.as_ref().map_or(usize::MAX, Vec::len);
    let undocumented = contract.drift_plan(schema).map_or(Vec::new(), |plan| {
        plan.undocumented_in(payload, crate::drift::Way::Request)
    });
    let members = payload.as_object().map_or(0, |object| object.len());
    let unknown_members = undocumented
        .iter()
        .filter(|item| item.pointer.matches('/').count() == 1)
        .count();
    Some(Distance {
        far: (undocumented.len(), broken),
        knows: unknown_members < members,
        violations,
    })
}

/// Of several webhooks delivered at one path, the one a notification is: the one documenting
/// most of its members, then the one it breaks least (whose checks then name the members that
/// are wrong, where "fits none" would name none), then the first (see [`distance`]).
fn closest_webhook<'c>(
    contract: &'c Contract,
    request: &Request,
    candidates: impl Iterator<Item = &'c OperationSpec> + Clone,
) -> &'c OperationSpec {
    let mut first = candidates.clone();
    let first = first.next().expect("a candidate");
    let Parsed::Json(payload) = parse_body(request.body.as_ref()) else {
        return first;
    };
    // The fewest members the notification does not document, then the fewest rules broken:
    // a dispute with one wrong member is the dispute, not the payment event that knows none
    // of its members (see `distance`).
    let distance = |hook: &OperationSpec| {
        distance(contract, hook, &payload).map_or((usize::MAX, usize::MAX), |distance| distance.far)
    };
    candidates
        .map(|hook| ((distance(hook), !hook.named_by(&payload)), hook))
        .min_by_key(|(distance, _)| *distance)
        .map_or(first, |(_, hook)| hook)
}

/// A body parsed, or why it could not be.
enum Parsed<'b> {
    None,
    Json(Cow<'b, Value>),
    NotJson(String),
    /// Sent, of this many bytes, and not recorded.
    Unrecorded(u64),
}

fn parse_body(body: Option<&Body>) -> Parsed<'_> {
    match body {
        None => Parsed::None,
        Some(Body::Json(value)) => Parsed::Json(Cow::Borrowed(value)),
        Some(Body::Text(text)) if text.trim().is_empty() => Parsed::None,
        Some(Body::Text(text)) => match serde_json::from_str(text) {
            Ok(value) => Parsed::Json(Cow::Owned(value)),
            Err(err) => Parsed::NotJson(not_json(text.as_bytes(), &err)),
        },
        Some(Body::Unrecorded(size)) => Parsed::Unrecorded(*size),
        Some(Body::Binary(bytes)) if bytes.is_empty() => Parsed::None,
        Some(Body::Binary(bytes)) => match serde_json::from_slice(bytes) {
            Ok(value) => Parsed::Json(Cow::Owned(value)),
            Err(err) => Parsed::NotJson(not_json(bytes, &err)),
        },
    }
}

/// Whether the path that fits, `other`, has the trailing `/` the request's lacks or lacks the
/// one it has.
fn with_or_without(other: &str) -> &'static str {
    if other.ends_with('/') {
        "with"
    } else {
        "without"
    }
}

/// `path` with a trailing `/` taken off, or put on where it has none; `None` for `/` alone.
fn slash_toggled(path: &str) -> Option<String> {
    match path.strip_suffix('/') {
        Some("") => None,
        Some(trimmed) => Some(trimmed.to_string()),
        None => Some(format!("{path}/")),
    }
}

/// Why `bytes` are not JSON. A byte order mark before JSON (.NET and IIS write one) is named
/// as such: serde_json's "expected value at line 1 column 1" would point at nothing a reader
/// sees.
fn not_json(bytes: &[u8], error: &serde_json::Error) -> String {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    match bytes.strip_prefix(BOM) {
        Some(rest) if serde_json::from_slice::<serde::de::IgnoredAny>(rest).is_ok() => {
            "it begins with a byte order mark (U+FEFF), which a JSON text sent over a network \
             must not (RFC 8259, 8.1); the JSON after it is not checked"
                .to_string()
        }
        _ => error.to_string(),
    }
}

impl<'c> Checker<'c> {
    /// Notes a thing the exchange exercised, when coverage is wanted.
    fn cover(&mut self, key: impl FnOnce() -> coverage::Key) {
        if self.coverage {
            self.outcome.covered.push(key());
        }
    }

    /// Notes the documented members and enum values a body holds.
    fn cover_body(&mut self, op: &OperationSpec, schema: &str, value: &Value, message: &str) {
        if !self.coverage {
            return;
        }
        let Some(plan) = self.contract.drift_plan(schema) else {
            return;
        };
        let category = if message.starts_with("response") || message.starts_with("reply") {
            Category::ResponseMember
        } else {
            Category::RequestMember
        };
        let covered = &mut self.outcome.covered;
        plan.seen(value, &mut |at, enum_value| {
            covered.push(match enum_value {
                None => coverage::Key::member(op, category, message, at),
                Some(text) => coverage::Key::enum_value(op, message, at, text),
            });
        });
    }

    /// A body with a schema to keep, sent and not recorded: it is not judged, and the run says
    /// so rather than pass it (a warning, which fails the run as any finding does).
    fn unrecorded(&mut self, size: u64, part: Part, location: String) {
        let mut finding = self.site.finding(
            part,
            "",
            location,
            Rule::UnrecordedBody,
            format!(
                "the recording does not hold the body ({}; a HAR saved without content?), so \
                 it was not checked",
                match size {
                    0 => "one was sent, of a size it does not record".to_string(),
                    size => format!("{size} bytes were sent"),
                }
            ),
        );
        finding.severity = Severity::Warning;
        self.outcome.findings.push(finding);
    }

    fn push(
        &mut self,
        part: Part,
        pointer: impl Into<String>,
        location: impl Into<String>,
        rule: Rule,
        message: impl Into<String>,
    ) {
        let finding = self.site.finding(part, pointer, location, rule, message);
        self.outcome.findings.push(finding);
    }

    /// An exchange the recording says failed, without a response (`specval proxy` could not
    /// reach the upstream): a finding, so that a recording re-checked fails as the live run did.
    fn failed(&mut self, exchange: &Exchange, kind: ExchangeKind) {
        let (None, Some(reason)) = (&exchange.response, &exchange.failure) else {
            return;
        };
        let part = match kind {
            ExchangeKind::Operation => Part::Response,
            ExchangeKind::Notification => Part::Reply,
        };
        let message = format!("no response: {reason}");
        self.push(part, "", "", Rule::UpstreamError, message);
    }

    /// A 401 to a request without credentials whose code is not the documented one is one
    /// mistake: the `credentials` finding at `/code` says it, so the response schema's
    /// exclusion of that code (findings from `from` on) is not said again.
    fn without_second_code_finding(&mut self, from: usize) {
        let findings = &mut self.outcome.findings;
        let said = findings[..from]
            .iter()
            .any(|f| f.rule == Rule::Credentials && f.pointer == "/code");
        if said {
            let mut index = 0;
            findings.retain(|f| {
                index += 1;
                index <= from || !(f.rule == Rule::Not && f.pointer == "/code")
            });
        }
    }

    fn operation(&mut self, exchange: &Exchange) {
        let request = &exchange.request;
        // Sent to another host than the API's the user named: a page's analytics or a third
        // party's API in a browser's recording, not a call of this API.
        if self.contract.is_foreign_host(request) {
            self.outcome.not_api = true;
            return;
        }
        // Path parameters that hold an unescaped `/` the template does not allow.
        let mut slashed = Vec::new();
        let (op, path_params) = match self.contract.match_request(request) {
            // Checked as another operation of the same route: its template names the values.
            Match::Operation(op, params) => match self.instead {
                Some(instead) => (instead, instead.renamed_params(params)),
                None => (op, params),
            },
            // No template fits the path as written, one does if a parameter holds `/`: the
            // request breaks that rule, and the rest of it is checked as that operation's.
            Match::Slashed(op, params, names) => {
                slashed = names;
                (op, params)
            }
            // A browser's CORS preflight asks whether a documented method may be called: it
            // is not a call of the API, and a recording of a web client holds many.
            Match::MethodNotAllowed(_)
                if request.method == "OPTIONS"
                    && request.header("access-control-request-method").is_some() =>
            {
                self.outcome.not_api = true;
                return;
            }
            // HEAD is GET without a body (RFC 9110), and servers answer it for every GET:
            // checked as that GET, its response without a body.
            Match::MethodNotAllowed(_)
                if request.method == "HEAD"
                    && let Match::Operation(op, params) =
                        self.contract.match_operation("GET", &request.path) =>
            {
                self.head = true;
                (op, params)
            }
            Match::MethodNotAllowed(template) => {
                self.push(
                    Part::Entry,
                    "",
                    format!("manifest.json#/operations ({template})"),
                    Rule::OperationMethod,
                    format!(
                        "{} is not an operation of {template}",
                        shorten(&request.method, TEXT)
                    ),
                );
                return;
            }
            Match::UnknownPath | Match::OutsideBasePath if is_page_resource(exchange) => {
                self.outcome.not_api = true;
                return;
            }
            Match::UnknownPath => {
                let hint = self.trailing_slash_hint(request)
                    + &self.doubled_base_hint(request)
                    + &self.base_path_hint(request)
                    + &self.webhook_hint(request);
                self.push(
                    Part::Entry,
                    "",
                    "manifest.json#/operations",
                    Rule::OperationPath,
                    format!(
                        "no operation has the path {} {}{hint}",
                        shorten(&request.method, TEXT),
                        shorten(&request.path, TEXT)
                    ),
                );
                return;
            }
            Match::OutsideBasePath => {
                let mut hint = self.base_path_hint(request);
                // A call to another host (an analytics beacon, a CDN) in a browser's
                // recording is no call of the API once `--host` names the API's hosts.
                if let Some(host) = &request.authority
                    && !self.contract.names_api_host(host)
                {
                    hint.push_str(&format!(
                        "; if {} is not the API's host, --host HOST naming the API's hosts \
                         passes over calls to others",
                        shorten(host, TEXT)
                    ));
                }
                self.push(
                    Part::Entry,
                    "",
                    "manifest.json#/servers",
                    Rule::OperationPath,
                    format!(
                        "{} is not under a base path of the API (its servers; --base-url adds \
                         others){hint}",
                        shorten(&request.path, TEXT)
                    ),
                );
                return;
            }
        };
        // A documented HEAD's answer has no body either, whatever its statuses document
        // (RFC 9110 9.3.2): a 404 that documents an error body is right without one.
        if request.method.eq_ignore_ascii_case("HEAD") {
            self.head = true;
        }
        self.site.operation = Some(op.id.clone());
        self.outcome.operation = Some(op.id.clone());
        for name in &slashed {
            self.push(
                Part::Request,
                format!("path:{name}"),
                format!("manifest.json#/operations ({} parameter {name})", op.id),
                Rule::UnescapedSlash,
                format!(
                    "path {name} of {} {} holds an unescaped /: its template gives it one \
                     segment, and OpenAPI allows / in a path parameter only where the \
                     parameter is written as it is (allowReserved); send it as %2F",
                    op.method, op.path
                ),
            );
        }
        self.cover(|| coverage::Key::operation(op, Category::Operation));
        let unauthenticated = !self.credentials_present(op, request);
        self.parameters(op, request, &path_params);
        self.undocumented_query_keys(op, request);
        self.request_body(op, request);
        match &exchange.response {
            Some(response) => {
                if unauthenticated {
                    self.unauthenticated_answer(op, request, response);
                }
                if !revalidated(op, request, response) && !refused_for_credentials(op, response) {
                    let before = self.outcome.findings.len();
                    self.response(op, response, Part::Response);
                    if unauthenticated {
                        self.without_second_code_finding(before);
                    }
                }
            }
            None if unauthenticated => self.push(
                Part::Request,
                "",
                "manifest.json#/securitySchemes",
                Rule::Credentials,
                "the request has no credentials, and no response was recorded",
            ),
            None => {}
        }
    }

    /// For a path no operation has: the operation it would be under the API's base path, the
    /// likeliest slip of a recording written by hand (the interface's `/banking/accounts` for
    /// `/v1/banking/accounts`).
    fn base_path_hint(&self, request: &Request) -> String {
        match self
            .contract
            .match_without_base(&request.method, &request.path)
        {
            Some(op) => format!(
                "; with the API's base path before it, it would be {} ({} {})",
                op.id, op.method, op.path
            ),
            None => String::new(),
        }
    }

    /// For a request whose path writes the API's base path twice in a row: the operation it
    /// would be with the base path once.
    fn doubled_base_hint(&self, request: &Request) -> String {
        match self
            .contract
            .match_undoubled(&request.method, &request.path)
        {
            Some((op, base)) => format!(
                "; it writes the base path {base} twice: with it once, it would be {} ({} {})",
                op.id, op.method, op.path
            ),
            None => String::new(),
        }
    }

    /// For a request no operation has, whose path an operation has with or without a
    /// trailing `/`: that operation's path (a server routes the two apart, as the generated
    /// one does).
    fn trailing_slash_hint(&self, request: &Request) -> String {
        let Some(other) = slash_toggled(&request.path) else {
            return String::new();
        };
        match self.contract.match_operation(&request.method, &other) {
            Match::Operation(op, _) => format!(
                "; {} ({} {}) has it {} the trailing /",
                op.id,
                op.method,
                op.path,
                with_or_without(&other)
            ),
            _ => String::new(),
        }
    }

    /// For a request no operation has, on the path a notification is delivered at with
    /// another method (a `GET` of the incoming-transfer path): which notification, and its
    /// method.
    fn webhook_hint(&self, request: &Request) -> String {
        match self
            .contract
            .webhook_at_path(&request.method, &request.path)
        {
            Some(hook) => format!(
                "; it is where the {} notification is delivered, with {}",
                hook.id, hook.method
            ),
            None => {
                // A notification posted with a trailing `/` too many or too few.
                let Some(other) = slash_toggled(&request.path) else {
                    return String::new();
                };
                match self.contract.match_webhook(&request.method, &other) {
                    Some(hook) => format!(
                        "; the {} notification is delivered at {} …{}, {} the trailing /",
                        hook.id,
                        hook.method,
                        hook.path,
                        with_or_without(&other)
                    ),
                    None => String::new(),
                }
            }
        }
    }

    /// A notification delivered where no webhook is: a `webhook-path` finding, listed under
    /// the webhook it was meant to be (see [`misdelivered_webhook`]), whose checks then run
    /// too.
    fn misdelivered(&mut self, request: &Request) -> Option<&'c OperationSpec> {
        let meant = misdelivered_webhook(self.contract, request);
        if let Some(hook) = meant {
            self.site.operation = Some(hook.id.clone());
        }
        let place = format!(
            "{} {}",
            shorten(&request.method, TEXT),
            shorten(&request.path, TEXT)
        );
        let message = match meant {
            Some(hook) => format!(
                "no notification is delivered at {place}; {} is delivered at {} …{}, after \
                 the receiver's base address",
                hook.id, hook.method, hook.path
            ),
            None => format!(
                "no notification is delivered at {place}, and its payload fits no \
                 notification's schema"
            ),
        };
        self.push(
            Part::Entry,
            "",
            "manifest.json#/webhooks",
            Rule::WebhookPath,
            message,
        );
        meant
    }

    fn notification(&mut self, exchange: &Exchange) {
        let request = &exchange.request;
        let at_path = self.contract.webhooks_at(&request.method, &request.path);
        let hook = match at_path.clone().nth(1) {
            // Several delivered at this path: the one the payload is.
            Some(_) => Some(closest_webhook(self.contract, request, at_path)),
            None => at_path.clone().next(),
        }
        .or_else(|| webhook_by_payload(self.contract, request));
        let Some(hook) = hook.or_else(|| self.misdelivered(request)) else {
            return;
        };
        self.site.operation = Some(hook.id.clone());
        self.outcome.operation = Some(hook.id.clone());
        self.cover(|| coverage::Key::operation(hook, Category::Notification));
        // The credentials its `security` says the API sends (Adyen's webhooks: HTTP basic),
        // as a receiver would ask for them.
        let unauthenticated = !self.credentials_present(hook, request);
        if unauthenticated {
            self.push(
                Part::Notification,
                "",
                "manifest.json#/securitySchemes",
                Rule::Credentials,
                format!(
                    "the notification lacks {}, which its security requires",
                    self.wanted_credentials(hook, request)
                ),
            );
        }
        // Its documented headers (GitHub's required `X-GitHub-Event`, `X-Hub-Signature-256`),
        // judged as an operation's are, and said of the notification.
        let before = self.outcome.findings.len();
        self.parameters(hook, request, &[]);
        for finding in &mut self.outcome.findings[before..] {
            if finding.part == Part::Request {
                finding.part = Part::Notification;
            }
        }
        match &hook.request_body {
            Some(spec) => self.body(hook, spec, request, Part::Notification),
            // A callback that documents no payload (PeerTube's search callbacks), as a
            // generated receiver refuses one.
            None if !matches!(parse_body(request.body.as_ref()), Parsed::None) => self.push(
                Part::Notification,
                "",
                format!("manifest.json#/webhooks ({})", hook.id),
                Rule::BodyUnexpected,
                format!("{} carries no payload, but one was sent", hook.id),
            ),
            None => {}
        }
        let kept = !self
            .outcome
            .findings
            .iter()
            .any(|f| f.severity == Severity::Error);
        // A notification without a recorded reply is not judged, as an operation without a
        // response is not: the recording holds no answer, and no answer (a time-out) is one
        // the interface allows, retried like a 5XX.
        if let Some(reply) = &exchange.response {
            // A receiver refusing a notification without its credentials answers as it must.
            if unauthenticated && matches!(reply.status, 401 | 403) {
                return;
            }
            // A receiver's 5XX asks the sender to retry, which every notification allows (the
            // generated receiver answers 500 when its handler fails): undocumented, it is not
            // a finding. One the webhook documents is checked as documented.
            if (500..600).contains(&reply.status) && hook.response(reply.status).is_none() {
                return;
            }
            // A 4XX the webhook does not document (most vendors document their 200 alone) is
            // the right answer to a payload that breaks the contract, the generated
            // receiver's 400; to one that keeps it, a rejection of a valid notification, which
            // says the status is undocumented too.
            let undocumented_4xx =
                (400..500).contains(&reply.status) && hook.response(reply.status).is_none();
            if kept {
                self.rejection(hook, reply);
                if undocumented_4xx {
                    self.status_drift(hook, reply.status, Part::Reply);
                }
            }
            if undocumented_4xx {
                return;
            }
            self.response(hook, reply, Part::Reply);
        }
    }
}
