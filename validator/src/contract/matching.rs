//! Matching traffic to the contract: a method and path to an operation (under a base path of
//! the API) or to a webhook (at the receiver's delivery path).

use super::{Contract, Location, OperationSpec};
use crate::exchange::Request;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Segment {
    /// Text only: `accounts`.
    Literal(String),
    /// A parameter filling the segment: `{account_id}`.
    Param(String),
    /// Text and parameters sharing the segment: `{Sid}.json`, `{name}:cancel`, `v{major}`.
    Mixed(String),
    /// A parameter written as it is, `/` included, filling one segment or more, and the text
    /// that ends its last segment: Azure's `{scope}` (`x-ms-skip-url-encoding`),
    /// `subscriptions/1/resourceGroups/g`; a `{+name}:cancel`.
    Spanning { name: String, suffix: String },
}

impl Segment {
    /// Whether a path's segment fits this one.
    fn fits(&self, part: &str) -> bool {
        match self {
            Segment::Literal(text) => SegmentText::Literal(text),
            Segment::Param(name) => SegmentText::Param(name),
            Segment::Mixed(pattern) => SegmentText::Mixed(pattern),
            Segment::Spanning { suffix, .. } => {
                return !specgen::path::holds_dot_segment(part)
                    && (suffix.is_empty()
                        || specgen::path::raw_params(&format!("{{+s}}{suffix}"), part).is_some());
            }
        }
        .fits(part)
    }

    /// Whether `other` matches the same paths: the same text, parameters whatever their
    /// names (Xero's `{ContactID}` and `{ContactNumber}`, Azure's `{roleAssignmentId}` and
    /// `{roleDefinitionId}#…` are one route).
    fn same_shape(&self, other: &Segment) -> bool {
        match (self, other) {
            (Segment::Literal(a), Segment::Literal(b)) => a == b,
            (Segment::Param(_), Segment::Param(_)) => true,
            (Segment::Spanning { suffix: a, .. }, Segment::Spanning { suffix: b, .. }) => a == b,
            (Segment::Mixed(a), Segment::Mixed(b)) => {
                specgen::path::route_shape(a) == specgen::path::route_shape(b)
            }
            _ => false,
        }
    }

    /// How much of the segment is fixed text, for preferring the most specific template:
    /// `/files/new` over `/files/{id}.json` over `/files/{id}`.
    fn specificity(&self) -> usize {
        match self {
            Segment::Literal(_) => 2,
            Segment::Mixed(_) => 1,
            Segment::Spanning { suffix, .. } => usize::from(!suffix.is_empty()),
            Segment::Param(_) => 0,
        }
    }
}

/// A template's segment as written: what [`Segment`] holds, borrowed.
enum SegmentText<'t> {
    Literal(&'t str),
    Param(&'t str),
    Mixed(&'t str),
}

impl<'t> SegmentText<'t> {
    fn of(part: &'t str) -> SegmentText<'t> {
        let whole = part
            .strip_prefix('{')
            .and_then(|p| p.strip_suffix('}'))
            .filter(|name| !name.contains(['{', '}']));
        match whole {
            Some(name) => SegmentText::Param(name),
            None if part.contains('{') && part.contains('}') => SegmentText::Mixed(part),
            None => SegmentText::Literal(part),
        }
    }

    /// Whether a path's segment fits this one. A template's text fits itself percent-encoded
    /// as well (`/users/%40bob` for `/users/@{handle}`: `encodeURIComponent` encodes `@`
    /// and `:`), except a delimiter that ends a parameter's value (`%3Acancel` is a name's
    /// own text, not `{name}:cancel`'s verb), as the generated server reads it
    /// ([`specgen::path::raw_params`]).
    fn fits(&self, part: &str) -> bool {
        match self {
            SegmentText::Literal(text) => {
                *text == part || (part.contains('%') && *text == decoded(part))
            }
            SegmentText::Param(_) => !part.is_empty(),
            SegmentText::Mixed(pattern) => specgen::path::raw_params(pattern, part).is_some(),
        }
    }
}

/// A path segment percent-decoded.
fn decoded(part: &str) -> String {
    specgen::load::percent_decode_lossy(part)
}

/// Whether an exchange at `method` and `path` delivers the notification of the webhook at
/// `hook_method` and the path template `template`: the same method (in any case), and a path
/// that ends with the template (`{param}` fits any non-empty segment; a trailing `/` makes
/// another path, as for an operation, and the generated receiver routes none there), on any
/// host and after any path of the receiver's base URL (`https://merchant/hooks` +
/// `/v1/banking/transfers`).
///
/// The one rule of what a notification is: [`Contract::match_webhook`] (and through it the
/// checks) and the traffic readers (on the webhook paths they are given) both ask it.
pub fn delivered_at(hook_method: &str, template: &str, method: &str, path: &str) -> bool {
    hook_method.eq_ignore_ascii_case(method) && delivered_on(template, path)
}

/// Whether `path` ends with the delivery path `template`, whatever the method.
fn delivered_on(template: &str, path: &str) -> bool {
    let template = specgen::path::wire(template);
    // The template's first segment is the empty one before its leading `/`: the others are
    // matched against the path's last ones, and the path must have one more.
    let tail = template.matches('/').count();
    let mut parts = path.rsplit('/');
    let mut segments = template.rsplit('/');
    for _ in 0..tail {
        let (Some(part), Some(segment)) = (parts.next(), segments.next()) else {
            return false;
        };
        if !SegmentText::of(segment).fits(part) {
            return false;
        }
    }
    parts.next().is_some()
}

impl OperationSpec {
    /// Whether a path, split at `/`, fits the template.
    fn fits(&self, parts: &[&str]) -> bool {
        // Asked of every operation for every exchange: allocation-free unless a parameter of
        // the template spans segments and the lengths differ.
        if parts.len() == self.segments.len()
            && parts
                .iter()
                .zip(&self.segments)
                .all(|(part, segment)| segment.fits(part))
        {
            return true;
        }
        parts.len() > self.segments.len()
            && self.spans_segments()
            && self.spanning_params(parts).is_some()
    }

    /// Where the parameters of its [`slashed`](OperationSpec::slashed) reading begin: the
    /// segments that begin with a parameter right after a version's.
    fn spanning_starts(&self) -> impl Iterator<Item = usize> + '_ {
        self.segments
            .windows(2)
            .enumerate()
            .filter_map(|(at, pair)| {
                let version =
                    matches!(&pair[0], Segment::Literal(text) if specgen::path::is_version(text));
                let param = matches!(&pair[1], Segment::Param(_) | Segment::Mixed(_));
                (version && param).then_some(at + 1)
            })
    }

    /// Whether a parameter of its template fills any number of segments (`{+scope}`).
    fn spans_segments(&self) -> bool {
        self.segments
            .iter()
            .any(|segment| matches!(segment, Segment::Spanning { .. }))
    }

    /// The parameters of a path under a template with a spanning parameter, decoded, as the
    /// generated server reads them: [`specgen::path::raw_params`], the one rule of how many
    /// segments such a parameter takes.
    fn spanning_params(&self, parts: &[&str]) -> Option<Vec<(String, String)>> {
        let template: Vec<String> = self
            .segments
            .iter()
            .map(|segment| match segment {
                Segment::Literal(text) | Segment::Mixed(text) => text.clone(),
                Segment::Param(name) => format!("{{{name}}}"),
                Segment::Spanning { name, suffix } => format!("{{+{name}}}{suffix}"),
            })
            .collect();
        let (template, path) = (template.join("/"), parts.join("/"));
        let params = specgen::path::raw_params(&template, &path)?;
        Some(
            params
                .into_iter()
                .map(|(name, raw)| (name.to_string(), specgen::load::percent_decode_lossy(raw)))
                .collect(),
        )
    }

    /// Path parameters read by another template of the same shape (see
    /// [`Segment::same_shape`]) under this one's names, in the order both templates hold them.
    pub(crate) fn renamed_params(&self, params: Vec<(String, String)>) -> Vec<(String, String)> {
        let names = self.segments.iter().flat_map(|segment| match segment {
            Segment::Param(name) | Segment::Spanning { name, .. } => vec![name.clone()],
            Segment::Mixed(pattern) => pattern
                .split('{')
                .skip(1)
                .filter_map(|rest| rest.split_once('}').map(|(name, _)| name.to_string()))
                .collect(),
            Segment::Literal(_) => Vec::new(),
        });
        names
            .zip(params)
            .map(|(name, (_, value))| (name, value))
            .collect()
    }

    /// The path parameters of a path that fits.
    fn params(&self, parts: &[&str]) -> Vec<(String, String)> {
        let decoded =
            |name: &str, raw: &str| (name.to_string(), specgen::load::percent_decode_lossy(raw));
        if self.spans_segments() {
            return self.spanning_params(parts).unwrap_or_default();
        }
        let mut params = Vec::new();
        for (part, segment) in parts.iter().zip(&self.segments) {
            match segment {
                Segment::Spanning { .. } => {}
                Segment::Param(name) => params.push(decoded(name, part)),
                Segment::Mixed(pattern) => match self.split(pattern, part) {
                    Some(raw) => {
                        params.extend(raw.into_iter().map(|(name, raw)| decoded(name, raw)))
                    }
                    // Its text came encoded: the values are read from the decoded segment.
                    None => {
                        let whole = self::decoded(part);
                        params.extend(
                            specgen::path::raw_params(pattern, &whole)
                                .unwrap_or_default()
                                .into_iter()
                                .map(|(name, value)| (name.to_string(), value.to_string())),
                        );
                    }
                },
                Segment::Literal(_) => {}
            }
        }
        params
    }

    /// A segment's parameters as they stand in it: where it holds several (`{name}.{ext}` on
    /// `a.b.json`), the first split whose values their schemas take (`ext` an enum of `json`
    /// and `tar.gz`: `a.b` and `json`), as the generated server reads it; else the first.
    fn split<'t, 'p>(&self, pattern: &'t str, part: &'p str) -> Option<Vec<(&'t str, &'p str)>> {
        if !specgen::path::ambiguous(pattern) {
            return specgen::path::raw_params(pattern, part);
        }
        let mut ways = specgen::path::raw_params_all(pattern, part);
        let fitting = ways.iter().position(|way| {
            way.iter().all(|(name, raw)| {
                self.parameters
                    .iter()
                    .find(|param| param.location == Location::Path && param.name == *name)
                    .is_none_or(|param| {
                        let value = specgen::load::percent_decode_lossy(raw);
                        Contract::check_parameter(param, &value, false).is_empty()
                    })
            })
        });
        match fitting {
            Some(at) => Some(ways.swap_remove(at)),
            None => ways.into_iter().next(),
        }
    }

    fn specificity(&self) -> usize {
        self.segments.iter().map(Segment::specificity).sum()
    }
}

/// What a method and path are to the contract.
pub enum Match<'c> {
    /// This operation, with these path parameters.
    Operation(&'c OperationSpec, Vec<(String, String)>),
    /// This operation, with these path parameters, if the parameters named last may hold an
    /// unescaped `/`, which OpenAPI forbids them: no template fits the path as written
    /// (Google's `/v1/{name}` on `/v1/projects/p/locations/l`; see
    /// [`specgen::path::slashed_template`]).
    Slashed(&'c OperationSpec, Vec<(String, String)>, Vec<String>),
    /// The path exists, but not with this method.
    MethodNotAllowed(String),
    /// No operation has this path (after the base path).
    UnknownPath,
    /// The path is not under any base path of the API (its servers, `--base-url`).
    OutsideBasePath,
}

/// Where the API's paths begin: the path of a server URL, whose variables stand for anything
/// (`{origin}/v1` is any address ending in `/v1`: `https://host/gateway/v1` too), or of a
/// base URL given on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct BasePath {
    /// The URL begins with a variable (`{origin}`), which may hold a path of its own: the
    /// segments may come after any prefix.
    any_prefix: bool,
    /// The path's segments; `None` for one a variable fills.
    segments: Vec<Option<String>>,
}

impl BasePath {
    /// The base path of a server URL template (`{origin}/v1`, `https://{host}/api/{version}`,
    /// `/v1`) or a plain URL.
    pub(super) fn of(url: &str) -> BasePath {
        // A protocol-relative URL (`//api.example.com/v1`: Swagger 2.0 documents converted
        // without their `schemes` have them) names its host as one with a scheme does.
        if let Some(rest) = url.strip_prefix("//") {
            return BasePath::of(&format!("http://{rest}"));
        }
        let any_prefix = url.starts_with('{');
        let after_scheme = match url.find("://") {
            Some(at) => &url[at + 3..],
            None if any_prefix => url.find('/').map_or("", |at| &url[at..]),
            None => url,
        };
        let path = match after_scheme.find('/') {
            _ if after_scheme.starts_with('/') => after_scheme,
            Some(at) if url.contains("://") || any_prefix => &after_scheme[at..],
            _ => "",
        };
        let path = path.split(['?', '#']).next().unwrap_or_default();
        let segments = path
            .split('/')
            .filter(|segment| !segment.is_empty())
            .map(|segment| (!segment.contains('{')).then(|| segment.to_string()))
            .collect();
        BasePath {
            any_prefix,
            segments,
        }
    }

    /// The paths (from `/`) that remain of `path` after this base, most likely first: at the
    /// start, or after each prefix an `{origin}` may hold.
    fn strip<'p>(&self, path: &'p str) -> impl Iterator<Item = &'p str> {
        let starts = match (path.starts_with('/'), self.any_prefix) {
            (false, _) => 0,
            (true, true) => usize::MAX,
            (true, false) => 1,
        };
        path.match_indices('/')
            .take(starts)
            // A prefix of empty segments (`//v1/…`) is no gateway's path: the generated router
            // refuses it, as it refuses `/v1//banking`.
            .filter(move |(at, _)| !path[..*at].contains("//") && !path[..*at].ends_with('/'))
            // Nor is the base path itself (`/v1/v1/banking/…`): a client that added the
            // version prefix to a base URL that already ends with it, which no server routes.
            .filter(move |(at, _)| !self.ends(&path[..*at]))
            .filter_map(move |(at, _)| self.rest_after(&path[at..]))
    }

    /// Whether `prefix` (a path, or nothing) ends with this base path's segments, all of them
    /// literal (a base a variable fills may stand for anything, a gateway's path too).
    fn ends(&self, prefix: &str) -> bool {
        let literal: Option<Vec<&str>> = self.segments.iter().map(Option::as_deref).collect();
        let Some(literal) = literal.filter(|segments| !segments.is_empty()) else {
            return false;
        };
        let parts: Vec<&str> = prefix.split('/').filter(|part| !part.is_empty()).collect();
        parts.ends_with(&literal)
    }

    /// `path` with one of two copies of this base path in a row taken out (`/v1/v1/x` →
    /// `/v1/x`), if it holds them.
    fn undoubled(&self, path: &str) -> Option<String> {
        path.match_indices('/')
            .map(|(at, _)| at)
            .find(|&at| at > 0 && self.ends(&path[..at]) && self.rest_after(&path[at..]).is_some())
            .and_then(|at| {
                let rest = self.rest_after(&path[at..])?;
                Some(format!("{}{rest}", &path[..at]))
            })
    }

    /// What remains of `path` (from a `/`) after this base's segments, if they begin it.
    fn rest_after<'p>(&self, path: &'p str) -> Option<&'p str> {
        let mut rest = path;
        for segment in &self.segments {
            let after = rest.strip_prefix('/')?;
            let end = after.find('/').unwrap_or(after.len());
            let part = &after[..end];
            let fits = match segment {
                Some(literal) => literal == part,
                None => !part.is_empty(),
            };
            if !fits {
                return None;
            }
            rest = &after[end..];
        }
        Some(rest)
    }
}
impl Contract {
    /// Names the API's hosts (`--host`, repeatable; a URL's host and port count): an exchange
    /// sent to another host is not the API's (see [`Contract::is_foreign_host`]). Without any,
    /// every host counts, as recordings of staging or a local server carry hosts the spec
    /// does not name.
    pub fn add_api_hosts(&mut self, hosts: &[String]) {
        for host in hosts {
            let host = host.trim();
            let host = host.split_once("://").map_or(host, |(_, rest)| rest);
            let host = host.split(['/', '?', '#']).next().unwrap_or_default();
            let host = host.rsplit_once('@').map_or(host, |(_, after)| after);
            let host = host.to_ascii_lowercase();
            if !host.is_empty() && !self.api_hosts.contains(&host) {
                self.api_hosts.push(host);
            }
        }
    }

    /// Whether `host` (a recording's, port included or not) is named as the API's: by
    /// `--host`, or, without it, by a server URL of the spec (one whose host is a variable,
    /// `{origin}/v1`, names none).
    pub fn names_api_host(&self, host: &str) -> bool {
        let bare = |host: &str| -> String {
            let host = host.trim().to_ascii_lowercase();
            match host.rsplit_once(':') {
                Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name.to_string(),
                _ => host,
            }
        };
        let sent = bare(host);
        if !self.api_hosts.is_empty() {
            return self.api_hosts.iter().any(|named| bare(named) == sent);
        }
        self.manifest.servers.iter().any(|server| {
            let Some((_, rest)) = server.url.split_once("://") else {
                return false;
            };
            let named = rest.split(['/', '?', '#']).next().unwrap_or_default();
            bare(named) == sent
        })
    }

    /// Whether a request went to a host other than those [`Contract::add_api_hosts`] named, by
    /// its URL's host, else its `Host` header (HTTP/2's `:authority` in a browser's HAR): a
    /// web page's calls to analytics, a CDN or another company's API in a recording of the
    /// page. The URL comes first, as a server reads a request in absolute form (RFC 9112,
    /// 3.2.2). A request whose host the recording does not say is not foreign.
    pub fn is_foreign_host(&self, request: &Request) -> bool {
        if self.api_hosts.is_empty() {
            return false;
        }
        let Some(sent) = request
            .authority
            .as_deref()
            .or_else(|| request.header("host"))
            .or_else(|| request.header(":authority"))
        else {
            return false;
        };
        let sent = sent.trim().to_ascii_lowercase();
        let without_port = sent.rsplit_once(':').map_or(sent.as_str(), |(host, port)| {
            if port.bytes().all(|b| b.is_ascii_digit()) {
                host
            } else {
                sent.as_str()
            }
        });
        !self
            .api_hosts
            .iter()
            .any(|host| *host == sent || (!host.contains(':') && host == without_port))
    }

    /// Adds base addresses the API is reached at besides its servers (`--base-url`): a
    /// gateway's `https://gw.example.com/payments/v1`; only the path counts.
    pub fn add_base_urls(&mut self, urls: &[String]) {
        for url in urls {
            let base = BasePath {
                any_prefix: false,
                ..BasePath::of(url)
            };
            // A gateway's address fronts every operation, those served elsewhere too.
            for op in &mut self.operations {
                if !op.base_paths.is_empty() && !op.base_paths.contains(&base) {
                    op.base_paths.push(base.clone());
                }
            }
            if !self.base_paths.contains(&base) {
                self.base_paths.push(base);
            }
        }
    }

    /// The operation a method and path are for, after a base path is stripped: tried after
    /// every base path that fits, the first operation found wins.
    pub fn match_operation(&self, method: &str, path: &str) -> Match<'_> {
        self.match_with(method, path, None)
    }

    /// [`Contract::match_operation`] for a request, whose query and headers also choose among
    /// operations whose templates tell them apart (`/search?type=user`, AWS's
    /// `/#Action=AddTags`; see [`specgen::path::asks`]).
    pub fn match_request(&self, request: &Request) -> Match<'_> {
        self.match_with(&request.method, &request.path, Some(request))
    }

    /// The other operations `request` fits as well as it fits `chosen`: the same method and
    /// path on the wire, nothing in the request to tell them apart (Box's
    /// `/files/{file_id}` and `/files/{file_id}#add_shared_link`).
    pub fn equally_fitting<'c>(
        &'c self,
        request: &Request,
        chosen: &OperationSpec,
    ) -> Vec<&'c OperationSpec> {
        self.operations
            .iter()
            .filter(|op| {
                op.id != chosen.id
                    && op.method == chosen.method
                    && op.segments.len() == chosen.segments.len()
                    && op
                        .segments
                        .iter()
                        .zip(&chosen.segments)
                        .all(|(a, b)| a.same_shape(b))
                    && op.base_paths == chosen.base_paths
                    && op.asks.len() == chosen.asks.len()
                    && asks_met(op, request)
            })
            .collect()
    }

    fn match_with(&self, method: &str, path: &str, request: Option<&Request>) -> Match<'_> {
        let mut fallback = Match::OutsideBasePath;
        let api = self.base_paths.iter().map(|base| (base, true));
        let elsewhere = self.operation_base_paths.iter().map(|base| (base, false));
        for (base, of_api) in api.chain(elsewhere) {
            // Under the API's base, the operations served there; under any base, those
            // whose own servers name it.
            let served_here = |op: &OperationSpec| {
                if op.base_paths.is_empty() {
                    of_api
                } else {
                    op.base_paths.contains(base)
                }
            };
            for relative in base.strip(path) {
                match self.match_relative(method, relative, &served_here, request) {
                    found @ Match::Operation(..) => return found,
                    // A path some template fits as written, under another base, says more.
                    found @ Match::Slashed(..) => {
                        if !matches!(fallback, Match::Slashed(..) | Match::MethodNotAllowed(_)) {
                            fallback = found;
                        }
                    }
                    other @ Match::MethodNotAllowed(_) => fallback = other,
                    Match::UnknownPath if matches!(fallback, Match::OutsideBasePath) => {
                        fallback = Match::UnknownPath;
                    }
                    Match::UnknownPath | Match::OutsideBasePath => {}
                }
            }
        }
        fallback
    }

    /// The operation of a path relative to the base path (`/banking/accounts`).
    fn match_relative(
        &self,
        method: &str,
        relative: &str,
        served_here: &dyn Fn(&OperationSpec) -> bool,
        request: Option<&Request>,
    ) -> Match<'_> {
        let relative = if relative.is_empty() { "/" } else { relative };
        let parts: Vec<&str> = relative.split('/').collect();
        // An operation whose template asks something of the request that it meets comes
        // first, the one asking most first; then the most literal template (/accounts/new
        // before /accounts/{id}). One whose conditions the request does not meet is taken only
        // when no other fits, so its own rules can say what is missing.
        let rank = |op: &OperationSpec| {
            let met = request.is_none_or(|request| asks_met(op, request));
            let asked = match request {
                _ if met => op.asks.len(),
                Some(request) => asks_partly_met(op, request),
                None => 0,
            };
            (met, asked, op.specificity())
        };
        let mut best: Option<&OperationSpec> = None;
        let mut path_known: Option<&OperationSpec> = None;
        for op in &self.operations {
            if !op.fits(&parts) || !served_here(op) {
                continue;
            }
            if !op.method.eq_ignore_ascii_case(method) {
                path_known.get_or_insert(op);
                continue;
            }
            if best.is_none_or(|b| rank(op) > rank(b)) {
                best = Some(op);
            }
        }
        match (best, path_known) {
            (Some(op), _) => Match::Operation(op, op.params(&parts)),
            (None, Some(other)) => Match::MethodNotAllowed(other.path.clone()),
            (None, None) => self.match_slashed(method, relative, served_here, &rank),
        }
    }

    /// The operation of a path no template fits as written, if parameters may hold `/`
    /// ([`Match::Slashed`]): the most literal template first, as for any path.
    fn match_slashed(
        &self,
        method: &str,
        relative: &str,
        served_here: &dyn Fn(&OperationSpec) -> bool,
        rank: &dyn Fn(&OperationSpec) -> (bool, usize, usize),
    ) -> Match<'_> {
        // Each spanning parameter tries every length it may take: bounded for a path of
        // many segments, which no real resource name has.
        const MOST_SEGMENTS: usize = 32;
        if relative.matches('/').count() > MOST_SEGMENTS {
            return Match::UnknownPath;
        }
        let parts: Vec<&str> = relative.split('/').collect();
        // A segment that some template has as its own text (`/v1/files/{id}`) is that
        // collection: a longer path there is one of its sub-resources no operation has, not a
        // resource name of several segments.
        let collection = |at: usize| {
            parts.get(at).is_some_and(|part| {
                self.operations.iter().any(|op| {
                    matches!(op.segments.get(at), Some(Segment::Literal(text)) if text == part)
                })
            })
        };
        let mut best: Option<(&OperationSpec, Vec<(&str, &str)>)> = None;
        let mut path_known: Option<&OperationSpec> = None;
        for op in self.operations.iter().filter(|op| served_here(op)) {
            let Some(template) = &op.slashed else {
                continue;
            };
            if op.spanning_starts().any(collection) {
                continue;
            }
            let Some(raw) = specgen::path::raw_params(template, relative) else {
                continue;
            };
            // Only a value that holds a `/` is what the template did not say, and only between
            // segments of its own: a trailing `/` or an empty segment (`/accounts/1/`,
            // `/a//b`) makes another path, not a longer value.
            let slashed = |value: &str| value.contains('/');
            let whole = |value: &str| value.split('/').all(|segment| !segment.is_empty());
            if !raw.iter().any(|(_, value)| slashed(value))
                || !raw.iter().all(|(_, value)| whole(value))
            {
                continue;
            }
            if !op.method.eq_ignore_ascii_case(method) {
                path_known.get_or_insert(op);
                continue;
            }
            if best.as_ref().is_none_or(|(b, _)| rank(op) > rank(b)) {
                best = Some((op, raw));
            }
        }
        match (best, path_known) {
            (Some((op, raw)), _) => {
                let slashed = raw
                    .iter()
                    .filter(|(_, value)| value.contains('/'))
                    .map(|(name, _)| name.to_string())
                    .collect();
                let params = raw
                    .into_iter()
                    .map(|(name, value)| {
                        let value = specgen::load::percent_decode_lossy(value);
                        (name.to_string(), value)
                    })
                    .collect();
                Match::Slashed(op, params, slashed)
            }
            (None, Some(other)) => Match::MethodNotAllowed(other.path.clone()),
            (None, None) => Match::UnknownPath,
        }
    }

    /// The operation `method` and `path` would be if `path` were relative to the API's base
    /// path: for a finding about a path that is not under one, to say what the recording may
    /// have left out (`/files/12345` against Box's `https://api.box.com/2.0`).
    pub fn match_without_base(&self, method: &str, path: &str) -> Option<&OperationSpec> {
        match self.match_relative(method, path, &|_| true, None) {
            Match::Operation(op, _) => Some(op),
            _ => None,
        }
    }

    /// The operation `method` and `path` would be with the API's base path written once where
    /// the path writes it twice in a row (`/v1/v1/banking/accounts`: a base URL that already
    /// ends with the version prefix, and the prefix added again), and the base path's text.
    pub fn match_undoubled(&self, method: &str, path: &str) -> Option<(&OperationSpec, String)> {
        self.base_paths.iter().find_map(|base| {
            let undoubled = base.undoubled(path)?;
            match self.match_operation(method, &undoubled) {
                Match::Operation(op, _) => {
                    let written: Vec<&str> =
                        base.segments.iter().flatten().map(String::as_str).collect();
                    Some((op, format!("/{}", written.join("/"))))
                }
                _ => None,
            }
        })
    }

    /// The webhook delivered at `method` and `path`: its delivery path, on any host and after
    /// any base path of the receiver (see [`delivered_at`]).
    pub fn match_webhook(&self, method: &str, path: &str) -> Option<&OperationSpec> {
        self.webhooks
            .iter()
            .find(|hook| delivered_at(&hook.method, &hook.path, method, path))
    }

    /// Every webhook delivered at `method` and `path`, in document order (several when a
    /// receiver takes events of several kinds at one URL).
    pub fn webhooks_at<'c, 'q>(
        &'c self,
        method: &'q str,
        path: &'q str,
    ) -> impl Iterator<Item = &'c OperationSpec> + Clone {
        self.webhooks
            .iter()
            .filter(move |hook| delivered_at(&hook.method, &hook.path, method, path))
    }

    /// The webhook delivered at `path` with a method other than `method`: for a finding about
    /// a request no operation has, to say that the path is a notification's.
    pub fn webhook_at_path(&self, method: &str, path: &str) -> Option<&OperationSpec> {
        self.webhooks.iter().find(|hook| {
            !hook.delivered_anywhere
                && !hook.method.eq_ignore_ascii_case(method)
                && delivered_on(&hook.path, path)
        })
    }
}

pub(super) fn segments(template: &str) -> Vec<Segment> {
    // A trailing `/` is a segment of its own (an empty one), as in the generated server's
    // routes: `/accounts/` is not `/accounts`.
    specgen::path::wire(template)
        .split('/')
        .map(segment_of)
        .collect()
}

/// One segment of a template.
fn segment_of(part: &str) -> Segment {
    if let Some((name, suffix)) = part
        .strip_prefix("{+")
        .and_then(|rest| rest.split_once('}'))
        .filter(|(name, suffix)| {
            !name.is_empty() && !name.contains('{') && !suffix.contains(['{', '}'])
        })
    {
        return Segment::Spanning {
            name: name.to_string(),
            suffix: suffix.to_string(),
        };
    }
    match SegmentText::of(part) {
        SegmentText::Literal(text) => Segment::Literal(text.to_string()),
        SegmentText::Param(name) => Segment::Param(name.to_string()),
        SegmentText::Mixed(pattern) => Segment::Mixed(pattern.to_string()),
    }
}

/// Whether `request` has what `op`'s template asks for ([`specgen::path::asks`]): the generated
/// server's rule too.
fn asks_met(op: &OperationSpec, request: &Request) -> bool {
    meets(&op.asks, request)
}

/// Whether `request` has each of `asked` ([`specgen::path::asks_met`]).
fn meets(asked: &[(String, Option<String>)], request: &Request) -> bool {
    specgen::path::asks_met(asked, &request.query, &|name| {
        request.header(name).map(str::to_string)
    })
}

/// How many of the things `op`'s template asks for `request` has, each on its own: which of
/// the operations whose conditions it does not meet it came nearest (`?select&select-type=3`
/// is nearer S3's `#select&select-type=2` than `#restore`), so that the findings name what is
/// missing or wrong there.
fn asks_partly_met(op: &OperationSpec, request: &Request) -> usize {
    op.asks
        .iter()
        .filter(|ask| meets(std::slice::from_ref(*ask), request))
        .count()
}
