//! What the client and the webhook sender share: bounded retries with exponential
//! backoff and jitter, the waits a server asks for with `Retry-After`, and the
//! check that an `https://` URL can be reached at all.

// `src/retry.rs` of every generated crate with a client or webhooks, spliced in whole by
// specgen (`emit::runtime::retry`). specgen keeps it as an ordinary Rust file so that it is
// compiled and unit-tested as itself (`generator/tests/runtime/`).

use ::std::time::{Duration, SystemTime};

/// How often and how patiently to retry.
///
/// An answer 429 (Too Many Requests) or 503 (Service Unavailable) with a
/// `Retry-After` header is retried no sooner than the server asked, nor sooner
/// than the backoff; when the server asks for more than `max_delay`, it is not
/// retried at all and its answer is returned at once (see
/// [`delay_after`](RetryPolicy::delay_after)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included; 1 means no retry.
    pub max_attempts: u32,
    /// Delay before the first retry, doubled for each further one.
    pub base_delay: Duration,
    /// The longest delay between two attempts, also the longest `Retry-After`
    /// waited for.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 3,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(5),
        }
    }
}

impl RetryPolicy {
    /// A single attempt, no retry.
    pub fn none() -> Self {
        RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        }
    }

    /// The delay before retry number `retry` (1 for the first retry): exponential,
    /// capped, with jitter so that many clients do not retry in step.
    pub fn delay(&self, retry: u32) -> Duration {
        let exponent = retry.saturating_sub(1).min(20);
        let ceiling = self
            .base_delay
            .saturating_mul(1u32 << exponent)
            .min(self.max_delay);
        let millis = u64::try_from(ceiling.as_millis()).unwrap_or(u64::MAX);
        // Between half the ceiling and the ceiling: spread out, never zero.
        let half = millis / 2;
        Duration::from_millis(half + ::fastrand::u64(0..=millis - half))
    }

    /// The delay before retry number `retry` after an answer whose `Retry-After`
    /// asked for `asked` ([`retry_after`]): the longer of `asked` and
    /// [`delay`](Self::delay). `None` when `asked` is longer than `max_delay`:
    /// the server will not take the request within the wait the policy allows,
    /// so retrying sooner would only be refused again, and its answer stands.
    pub fn delay_after(&self, retry: u32, asked: Option<Duration>) -> Option<Duration> {
        match asked {
            Some(asked) if asked > self.max_delay => None,
            Some(asked) => Some(asked.max(self.delay(retry))),
            None => Some(self.delay(retry)),
        }
    }
}

/// The wait an answer's `Retry-After` header asks for, on a 429 or a 503 (the
/// statuses RFC 6585 and RFC 9110 give it to); `None` on any other status,
/// without the header, or when its value is neither form
/// ([`parse_retry_after`]).
pub fn retry_after(status: u16, headers: &::http::HeaderMap) -> Option<Duration> {
    if status != 429 && status != 503 {
        return None;
    }
    let value = headers.get(::http::header::RETRY_AFTER)?.to_str().ok()?;
    parse_retry_after(value, SystemTime::now())
}

/// A `Retry-After` value read at `now`: delay-seconds (`120`) or an HTTP-date
/// (`Sun, 06 Nov 1994 08:49:37 GMT`, or one of the two obsolete forms RFC 9110
/// still asks recipients to read); a date already past is a wait of zero.
/// `None` when the value is neither.
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|byte| byte.is_ascii_digit()) {
        // More digits than a u64 holds is still longer than any policy waits.
        return Some(
            value
                .parse()
                .map(Duration::from_secs)
                .unwrap_or(Duration::MAX),
        );
    }
    let date = ::httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
}

/// Why an HTTP client built by this crate cannot reach `url`: HTTPS needs the
/// crate's `rustls` feature. Without it, reqwest would speak plain HTTP to the
/// TLS port and fail with an opaque "error sending request".
// Unused by a crate built with `webhooks` alone whose document has no notification to send
// (Adyen's Checkout: the receiver side only).
#[allow(dead_code)]
pub(crate) fn unsupported_scheme(url: &str) -> Option<String> {
    let https = url
        .trim_start()
        .get(..8)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://"));
    (https && !cfg!(feature = "rustls")).then(|| {
        format!(
            "an https:// URL needs the `rustls` feature of the {name} crate, which \
             this build does not enable: add it to the features of {name} in \
             Cargo.toml",
            name = env!("CARGO_PKG_NAME"),
        )
    })
}

#[cfg(test)]
mod tests {
    use std::time::UNIX_EPOCH;

    use super::*;

    fn policy() -> RetryPolicy {
        RetryPolicy {
            max_attempts: 4,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(1),
        }
    }

    /// Every delay `delay(retry)` gave in many tries lies within `low..=high` milliseconds.
    fn delays_within(policy: &RetryPolicy, retry: u32, low: u64, high: u64) {
        for _ in 0..200 {
            let delay = policy.delay(retry).as_millis() as u64;
            assert!(
                (low..=high).contains(&delay),
                "retry {retry}: {delay} ms, not within {low}..={high}"
            );
        }
    }

    #[test]
    fn the_backoff_doubles_with_jitter_up_to_max_delay() {
        let policy = policy();
        delays_within(&policy, 1, 50, 100);
        delays_within(&policy, 2, 100, 200);
        delays_within(&policy, 3, 200, 400);
        // 800 ms, then capped at max_delay.
        delays_within(&policy, 4, 400, 800);
        delays_within(&policy, 5, 500, 1000);
        // The exponent stops growing before it overflows.
        delays_within(&policy, u32::MAX, 500, 1000);
        // Retry 0 is read as the first.
        delays_within(&policy, 0, 50, 100);
    }

    #[test]
    fn a_policy_of_none_makes_one_attempt() {
        assert_eq!(RetryPolicy::none().max_attempts, 1);
        assert_eq!(RetryPolicy::default().max_attempts, 3);
    }

    #[test]
    fn retry_after_is_waited_for_unless_longer_than_max_delay() {
        let policy = policy();
        // Longer than the backoff: the server's wait.
        assert_eq!(
            policy.delay_after(1, Some(Duration::from_millis(900))),
            Some(Duration::from_millis(900))
        );
        assert_eq!(
            policy.delay_after(1, Some(policy.max_delay)),
            Some(policy.max_delay)
        );
        // Shorter: the backoff.
        let delay = policy
            .delay_after(1, Some(Duration::from_millis(1)))
            .unwrap();
        assert!(delay >= Duration::from_millis(50), "{delay:?}");
        let delay = policy.delay_after(2, None).unwrap();
        assert!(delay >= Duration::from_millis(100), "{delay:?}");
        // Longer than the policy allows: not retried.
        assert_eq!(
            policy.delay_after(1, Some(Duration::from_millis(1001))),
            None
        );
    }

    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        // 1994-11-06T08:49:37Z, RFC 9110's example.
        let date = UNIX_EPOCH + Duration::from_secs(784_111_777);
        let before = date - Duration::from_secs(30);
        let seconds = |value| parse_retry_after(value, before);
        assert_eq!(seconds("120"), Some(Duration::from_secs(120)));
        assert_eq!(seconds(" 7 "), Some(Duration::from_secs(7)));
        assert_eq!(seconds("0"), Some(Duration::ZERO));
        // More than a u64 holds: longer than any policy waits.
        assert_eq!(seconds("99999999999999999999999"), Some(Duration::MAX));
        for http_date in [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            // The two obsolete forms.
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
        ] {
            assert_eq!(
                seconds(http_date),
                Some(Duration::from_secs(30)),
                "{http_date}"
            );
        }
        // A date already past is no wait.
        let after = date + Duration::from_secs(30);
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", after),
            Some(Duration::ZERO)
        );
        for neither in ["", "soon", "-1", "1.5", "+3", "2024-01-01T00:00:00Z"] {
            assert_eq!(seconds(neither), None, "{neither:?}");
        }
    }

    #[test]
    fn retry_after_counts_on_429_and_503_only() {
        let mut headers = ::http::HeaderMap::new();
        assert_eq!(retry_after(429, &headers), None);
        headers.insert(::http::header::RETRY_AFTER, "3".parse().unwrap());
        assert_eq!(retry_after(429, &headers), Some(Duration::from_secs(3)));
        assert_eq!(retry_after(503, &headers), Some(Duration::from_secs(3)));
        for other in [200, 301, 500, 502] {
            assert_eq!(retry_after(other, &headers), None, "{other}");
        }
        headers.insert(::http::header::RETRY_AFTER, "later".parse().unwrap());
        assert_eq!(retry_after(503, &headers), None);
    }

    #[test]
    fn https_needs_the_rustls_feature() {
        // Built here without the feature, as a generated crate is by default.
        for https in [
            "https://api.example.com",
            "HTTPS://api.example.com",
            " https://x",
        ] {
            let reason = unsupported_scheme(https).expect(https);
            assert!(
                reason.contains("`rustls` feature") && reason.contains(env!("CARGO_PKG_NAME")),
                "{reason}"
            );
        }
        for other in [
            "http://api.example.com",
            "http://127.0.0.1:8080/v1",
            "",
            "https:",
        ] {
            assert_eq!(unsupported_scheme(other), None, "{other}");
        }
    }
}
