//! One exchange through the proxy: the request read whole and forwarded, the response read
//! whole and passed back, then the pair checked, numbered, recorded and folded into the
//! report.

use std::time::Instant;

use bytes::Bytes;
use http::{HeaderValue, Request, Response, StatusCode};
use hyper::body::Incoming;

use super::{Finished, Lane, SOURCE, Shared, State, record, upstream};
use crate::check;
use crate::exchange::Exchange;
use crate::finding::Finding;
use crate::http_exchange::{request_of, response_of};
use crate::live::{Buffered, ContractBody, buffer};
use crate::report::ExchangeOutcome;
use crate::run::{Sink, fold_exchange};

/// The report's findings and verdicts, kept in it.
struct Kept<'r>(&'r mut Vec<Finding>, &'r mut Vec<ExchangeOutcome>);

impl Sink for Kept<'_> {
    fn finding(&mut self, finding: Finding) -> std::io::Result<()> {
        self.0.push(finding);
        Ok(())
    }

    fn outcome(&mut self, outcome: ExchangeOutcome) -> std::io::Result<()> {
        self.1.push(outcome);
        Ok(())
    }
}

impl Shared {
    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while the lock was held cannot leave the report half-folded in a way that
        // matters more than losing the whole run: go on with it.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Forwards one request and takes its exchange.
    pub(super) async fn handle(
        &self,
        lane: &Lane,
        request: Request<Incoming>,
    ) -> Response<ContractBody<Incoming>> {
        let started = chrono::Utc::now();
        let clock = Instant::now();
        let (mut parts, body) = request.into_parts();
        let (buffered, body) = buffer(body, self.body_limit).await;
        let recorded = match buffered {
            Buffered::Whole(bytes) => Some(request_of(
                &parts.method,
                &parts.uri,
                &parts.headers,
                &bytes,
            )),
            Buffered::TooLarge | Buffered::Failed => None,
        };
        let target = match lane.upstream.target(parts.uri.path_and_query()) {
            Ok(target) => target,
            Err(err) => {
                return error_response(
                    StatusCode::BAD_REQUEST,
                    "VALIDATION_ERROR",
                    format!("specval proxy: cannot forward this target: {err}"),
                );
            }
        };
        parts.uri = target;
        upstream::strip_hop_by_hop(&mut parts.headers);
        // The client sets Host from the upstream's address, as the upstream expects.
        parts.headers.remove(http::header::HOST);
        let answer = self.client.request(Request::from_parts(parts, body)).await;
        let response = match answer {
            Ok(response) => response,
            Err(err) => {
                let reason = format!("no response from {}: {}", lane.upstream, chain(&err));
                match recorded {
                    // Its finding (rule `upstream-error`) says so, live unless `--quiet` and
                    // in the report: a log line too would say it twice.
                    Some(request) => {
                        tracing::debug!(target: "specval::proxy", "{reason}");
                        self.take(lane, request, None, Some(reason.clone()), started, clock)
                    }
                    None => {
                        tracing::warn!(target: "specval::proxy", "{reason}");
                        self.skip()
                    }
                }
                return error_response(
                    StatusCode::BAD_GATEWAY,
                    "BAD_GATEWAY",
                    format!("specval proxy: {reason}"),
                );
            }
        };
        let (mut parts, body) = response.into_parts();
        upstream::strip_hop_by_hop(&mut parts.headers);
        let (buffered, body) = buffer(body, self.body_limit).await;
        match (recorded, buffered) {
            (Some(request), Buffered::Whole(bytes)) => {
                let response = response_of(parts.status, &parts.headers, &bytes);
                self.take(lane, request, Some(response), None, started, clock);
            }
            _ => self.skip(),
        }
        Response::from_parts(parts, body)
    }

    /// An exchange that is not checked (a body over the limit, or that failed mid-way).
    fn skip(&self) {
        tracing::warn!(
            target: "specval::proxy",
            "an exchange with a body over --body-limit (or one that failed mid-way) was forwarded but not checked nor recorded"
        );
        let mut state = self.lock();
        state.finished.skipped += 1;
        state.taken += 1;
        self.stop_when_done(&state);
    }

    fn stop_when_done(&self, state: &State) {
        if self.max_exchanges.is_some_and(|max| state.taken >= max) {
            self.stop.send_replace(true);
        }
    }

    /// Checks, records and reports one exchange.
    fn take(
        &self,
        lane: &Lane,
        request: crate::exchange::Request,
        response: Option<crate::exchange::Response>,
        upstream_error: Option<String>,
        started: chrono::DateTime<chrono::Utc>,
        clock: Instant,
    ) {
        let mut exchange = Exchange {
            index: 0,
            line: None,
            id: None,
            source: SOURCE.to_string(),
            kind: Some(lane.kind),
            request,
            response,
            failure: upstream_error
                .as_ref()
                .map(|reason| format!("{reason}; the client was answered 502")),
        };
        // Checked before the lock is taken, so that exchanges are checked in parallel; the
        // index (its place in the report and the recording) is given under the lock.
        let mut outcome =
            check::check_covering(&self.contract, &exchange, self.check, self.coverage);
        let timing = record::Timing {
            started,
            millis: clock.elapsed().as_secs_f64() * 1000.0,
        };
        let mut state = self.lock();
        let index = state.next;
        state.next += 1;
        state.taken += 1;
        exchange.index = index;
        for finding in &mut outcome.findings {
            finding.exchange = index;
        }
        if let Some(recorder) = &mut state.recorder {
            let redacted = record::redact(&self.contract, &exchange);
            if let Err(err) = recorder.write(&redacted, timing, upstream_error.as_deref()) {
                // The file keeps what was written before; the run goes on without it.
                state.finished.record_error = Some(err.to_string());
                state.recorder = None;
            }
        }
        if let Some(on_finding) = &self.on_finding {
            for finding in &outcome.findings {
                on_finding(finding);
            }
        }
        let State { finished, .. } = &mut *state;
        let Finished {
            report, covered, ..
        } = finished;
        let mut findings = std::mem::take(&mut report.findings);
        let mut outcomes = std::mem::take(&mut report.outcomes);
        // Folding into memory cannot fail.
        let _ = fold_exchange(
            report,
            &mut Kept(&mut findings, &mut outcomes),
            &self.contract,
            &exchange,
            outcome,
            self.keep_outcomes,
            self.coverage.then_some(covered),
        );
        report.findings = findings;
        report.outcomes = outcomes;
        self.stop_when_done(&state);
    }
}

/// An error and its causes, on one line: the client's own message is only "client error
/// (Connect)".
fn chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// The proxy's own answer, in the API's error shape.
fn error_response(
    status: StatusCode,
    code: &str,
    message: String,
) -> Response<ContractBody<Incoming>> {
    let body = serde_json::json!({
        "code": code,
        "messages": [message],
        "http_code": status.as_u16(),
    });
    let bytes = serde_json::to_vec(&body).unwrap_or_default();
    let mut response = Response::new(ContractBody::full(Bytes::from(bytes), None));
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}
