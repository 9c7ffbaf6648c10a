//! The tower layer's cost: N oneshot calls of getAccount (a 200 with a conforming account of
//! about 700 bytes) on a small axum router, bare and wrapped in `ContractLayer` (report mode,
//! then enforce mode), in the same run, on one thread. Each variant runs a few rounds after a
//! warm-up; the best round counts.
//!
//! ```sh
//! cargo run --release -p specval --features tower --example layer_overhead [N [MODE]]
//! ```
//!
//! With a MODE (`bare`, `report` or `enforce`) only that variant runs: for counting
//! instructions under callgrind, which a shared machine's noise does not move
//! (`scripts/bench-layer-instructions.sh`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::routing::get;
use http_body_util::BodyExt;
use specval::layer::ContractLayer;
use tower::{Layer, Service, ServiceExt};

const ACCOUNT: &str = r#"{"id": "acct_2f7c9a1e4b6d", "entity_id": "ent_8b3d5f7a9c1e", "onboarding_id": "onb_4e6a8c0b2d4f", "account_id": "6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b", "provider": {"account_id": "pa_5521903"}, "account_type": "CHECKING", "status": "ACTIVE", "account_number": "000123456789", "routing_number": "021000021", "iban": null, "currency": "USD", "balance": {"available": 1250.5, "current": 1500.5, "pending": 250}, "account_details": {"account_name": "Acme Marketplace LLC", "sort_code": null, "bsb": null, "swift": "CHASUS33"}, "payment_rails": {"incoming": ["ACH_STANDARD", "WIRE"], "outgoing": ["ACH_STANDARD"]}, "supports_book_transfers": true, "created_at": "2024-05-14T15:20:11Z", "updated_at": "2024-05-20T09:02:45Z"}"#;

const ROUNDS: usize = 5;

fn request() -> http::Request<axum::body::Body> {
    http::Request::get("/v1/banking/accounts/6f1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b")
        .header("public-api-key", "pk_test_fake")
        .header("private-secret-key", "sk_test_fake")
        .header("accept", "application/json")
        .body(axum::body::Body::empty())
        .unwrap()
}

/// The best of `ROUNDS` rounds of `n` calls, after a warm-up of `n / 10`.
async fn time<S, B>(service: S, n: usize) -> Duration
where
    S: Service<http::Request<axum::body::Body>, Response = http::Response<B>> + Clone,
    S::Error: std::fmt::Debug,
    B: http_body::Body,
    B::Error: std::fmt::Debug,
{
    let call = |service: S| async move {
        let response = service.oneshot(request()).await.unwrap();
        assert_eq!(response.status(), 200);
        let body = response.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(body.len(), ACCOUNT.len());
    };
    for _ in 0..n / 10 {
        call(service.clone()).await;
    }
    let mut best = Duration::MAX;
    for _ in 0..ROUNDS {
        let start = Instant::now();
        for _ in 0..n {
            call(service.clone()).await;
        }
        best = best.min(start.elapsed());
    }
    best
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map(|n| n.parse().expect("N is a number of calls"))
        .unwrap_or(2000);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let router = Router::new().route(
            "/v1/banking/accounts/{account_id}",
            get(|| async { ([("content-type", "application/json")], ACCOUNT) }),
        );
        let contract = Arc::new(specval::Contract::embedded().unwrap());
        let report = ContractLayer::new(contract.clone());
        let report_stats = report.stats();
        let enforce = ContractLayer::new(contract).enforce(true);
        let enforce_stats = enforce.stats();

        if let Some(mode) = std::env::args().nth(2) {
            let took = match mode.as_str() {
                "bare" => time(router.clone(), n).await,
                "report" => time(report.layer(router.clone()), n).await,
                "enforce" => time(enforce.layer(router.clone()), n).await,
                other => panic!("MODE is bare, report or enforce, not {other}"),
            };
            assert_eq!(report_stats.findings() + enforce_stats.findings(), 0);
            println!(
                "{mode}: {:.2} µs per call",
                took.as_secs_f64() * 1e6 / n as f64
            );
            return;
        }
        let bare = time(router.clone(), n).await;
        let reported = time(report.layer(router.clone()), n).await;
        let enforced = time(enforce.layer(router.clone()), n).await;
        assert_eq!(report_stats.findings() + enforce_stats.findings(), 0);

        let per_second = |d: Duration| n as f64 / d.as_secs_f64();
        let micros = |d: Duration| d.as_secs_f64() * 1e6 / n as f64;
        println!("{n} oneshot calls of getAccount, best of {ROUNDS} rounds, one thread");
        for (name, took) in [
            ("bare router", bare),
            ("report mode", reported),
            ("enforce mode", enforced),
        ] {
            println!(
                "{name:>13}: {:>9.0} calls/s, {:>6.1} µs per call, throughput {:.3} of bare",
                per_second(took),
                micros(took),
                per_second(took) / per_second(bare),
            );
        }
    });
}
