//! The command line, with every flag also readable from a `SANDBOX_*` environment variable
//! (the flag wins when both are given).
//!
//! Durations are written `500ms`, `30s`, `5m`, `24h` or `1d` (a bare number is seconds).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use clap::Parser;
use orchestration_api::webhooks::DeliveryPolicy;

use crate::SandboxOptions;

/// `sandbox`: a local, stateful stand-in for the payment orchestration API.
///
/// Serves the API under /v1 (credentials required, any non-empty values accepted) and a
/// control API for tests under /_sandbox (no credentials). Prints
/// `sandbox listening on http://ADDRESS` as the first line of standard output; logs go to
/// standard error (filter with RUST_LOG, default `info`).
///
/// All state is kept in memory only: stopping or restarting the sandbox loses every
/// onboarding, account, entity, transfer, payment, idempotency key and delivery log entry,
/// and nothing is written to disk. Seed again after a restart.
#[derive(Debug, Clone, Parser)]
#[command(name = "sandbox", version)]
pub struct Args {
    /// Address to listen on. Keep the loopback default unless you know who can reach the
    /// machine: the control API takes no credentials.
    #[arg(long, env = "SANDBOX_HOST", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub host: IpAddr,

    /// Port to listen on; 0 picks a free one (read it from the first line of output).
    #[arg(long, short, env = "SANDBOX_PORT", default_value_t = 8080)]
    pub port: u16,

    /// The merchant's base URL for incoming-transfer notifications (they are POSTed to
    /// {merchant_url}/v1/banking/transfers), unless a simulated transfer names its own.
    #[arg(long, env = "SANDBOX_MERCHANT_URL")]
    pub merchant_url: Option<String>,

    /// How long an idempotency key is remembered after its first success.
    #[arg(
        long,
        env = "SANDBOX_IDEMPOTENCY_TTL",
        default_value = "24h",
        value_parser = parse_duration
    )]
    pub idempotency_ttl: Duration,

    /// Notification delivery: attempts in all, the first included.
    #[arg(
        long,
        env = "SANDBOX_DELIVERY_ATTEMPTS",
        default_value_t = 5,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub delivery_attempts: u32,

    /// Notification delivery: delay before the first retry, doubled for each further one
    /// (with jitter).
    #[arg(
        long,
        env = "SANDBOX_DELIVERY_BASE_DELAY",
        default_value = "500ms",
        value_parser = parse_duration
    )]
    pub delivery_base_delay: Duration,

    /// Notification delivery: the longest delay between two attempts.
    #[arg(
        long,
        env = "SANDBOX_DELIVERY_MAX_DELAY",
        default_value = "30s",
        value_parser = parse_duration
    )]
    pub delivery_max_delay: Duration,

    /// Notification delivery: time-out of each attempt.
    #[arg(
        long,
        env = "SANDBOX_DELIVERY_TIMEOUT",
        default_value = "10s",
        value_parser = parse_duration
    )]
    pub delivery_timeout: Duration,

    /// Largest request body accepted, in bytes (larger: 400 from the API, 413 from the
    /// control API).
    #[arg(long, env = "SANDBOX_BODY_LIMIT", default_value_t = 1024 * 1024)]
    pub body_limit: usize,

    /// Do not check the API's exchanges against the contract. By default each one is checked
    /// (specval's tower layer, report mode, on a thread of its own) and every finding logged
    /// at `warn` under the target `specval::layer`.
    #[arg(long, env = "SANDBOX_NO_CONTRACT_CHECK")]
    pub no_contract_check: bool,

    /// On SIGINT or SIGTERM: how long requests and notification deliveries in flight are
    /// given to finish.
    #[arg(
        long,
        env = "SANDBOX_SHUTDOWN_GRACE",
        default_value = "5s",
        value_parser = parse_duration
    )]
    pub shutdown_grace: Duration,
}

impl Args {
    /// The address to bind.
    #[must_use]
    pub fn address(&self) -> SocketAddr {
        SocketAddr::new(self.host, self.port)
    }

    /// The sandbox's options.
    #[must_use]
    pub fn options(&self) -> SandboxOptions {
        SandboxOptions {
            idempotency_ttl: self.idempotency_ttl,
            delivery_policy: DeliveryPolicy {
                max_attempts: self.delivery_attempts,
                base_delay: self.delivery_base_delay,
                max_delay: self.delivery_max_delay,
                timeout: self.delivery_timeout,
            },
            merchant_url: self.merchant_url.clone(),
            body_limit: self.body_limit,
            contract_check: !self.no_contract_check,
        }
    }
}

/// Parses `500ms`, `30s`, `5m`, `24h`, `1d`, or a bare number of seconds.
///
/// # Errors
///
/// Not a whole number followed by one of those units.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: u64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a duration: write e.g. 500ms, 30s, 5m, 24h or 1d"))?;
    let seconds = |factor: u64| {
        number
            .checked_mul(factor)
            .map(Duration::from_secs)
            .ok_or_else(|| format!("`{text}` is too long a duration"))
    };
    match unit.trim() {
        "ms" => Ok(Duration::from_millis(number)),
        "" | "s" => seconds(1),
        "m" => seconds(60),
        "h" => seconds(60 * 60),
        "d" => seconds(24 * 60 * 60),
        other => Err(format!(
            "`{other}` is not a unit of duration: use ms, s, m, h or d"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn durations_parse() {
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("45"), Ok(Duration::from_secs(45)));
        assert_eq!(parse_duration("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_duration("24h"), Ok(Duration::from_secs(86_400)));
        assert_eq!(parse_duration("1d"), Ok(Duration::from_secs(86_400)));
        assert_eq!(parse_duration("0s"), Ok(Duration::ZERO));
        assert!(parse_duration("").is_err());
        assert!(parse_duration("1.5s").is_err());
        assert!(parse_duration("10w").is_err());
        assert!(parse_duration("-1s").is_err());
    }

    #[test]
    fn the_command_line_is_consistent() {
        Args::command().debug_assert();
    }

    #[test]
    fn flags_become_options() {
        let args = Args::try_parse_from([
            "sandbox",
            "--port",
            "0",
            "--merchant-url",
            "http://127.0.0.1:9000",
            "--idempotency-ttl",
            "90s",
            "--delivery-attempts",
            "2",
            "--delivery-base-delay",
            "5ms",
        ])
        .expect("valid flags");
        assert_eq!(args.address().to_string(), "127.0.0.1:0");
        let options = args.options();
        assert_eq!(options.idempotency_ttl, Duration::from_secs(90));
        assert_eq!(options.delivery_policy.max_attempts, 2);
        assert_eq!(options.delivery_policy.base_delay, Duration::from_millis(5));
        assert_eq!(
            options.merchant_url.as_deref(),
            Some("http://127.0.0.1:9000")
        );
        assert!(Args::try_parse_from(["sandbox", "--delivery-attempts", "0"]).is_err());
    }
}
