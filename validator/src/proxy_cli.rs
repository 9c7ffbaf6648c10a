//! `specval proxy`: the flags, the runtime, the live output and the report at exit. The
//! proxy itself is `specval::proxy`.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use specval::Contract;
use specval::proxy::{self, Options, Proxy, RecordFormat, Upstream};
use specval::report::{self, Format};

/// `specval proxy` flags.
#[derive(Args)]
pub(crate) struct ProxyArgs {
    /// Address to listen on for the service's clients (port 0: a free one; the address is
    /// printed on standard error as `specval proxy: listening on http://ADDRESS`).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:4010")]
    listen: SocketAddr,
    /// The service's base URL (http://, possibly with a base path the requests' paths are put
    /// after).
    #[arg(long, value_name = "URL")]
    upstream: Upstream,
    /// Address to listen on for the service's notifications (the merchant URL to give the
    /// service); printed as `specval proxy: notifications listening on http://ADDRESS`.
    #[arg(long, value_name = "ADDR", requires = "notifications_upstream")]
    notifications_listen: Option<SocketAddr>,
    /// The merchant's notification endpoint's base URL, where notifications are forwarded.
    #[arg(long, value_name = "URL", requires = "notifications_listen")]
    notifications_upstream: Option<Upstream>,
    /// Record every exchange here, credentials redacted: HAR 1.2 (.har) or JSON Lines (.jsonl),
    /// both readable by `specval check`.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// The recording's format when the file name does not say it.
    #[arg(long, value_enum, value_name = "FORMAT", requires = "record")]
    record_format: Option<RecordFormat>,
    /// Stop after this many exchanges (requests in flight then are still answered).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_exchanges: Option<u64>,
    /// The report, written at exit.
    #[command(flatten)]
    judging: crate::Judging,
    /// Write the contract coverage of the traffic here at exit: json, html, or text for any
    /// other extension.
    #[arg(long, value_name = "FILE")]
    coverage: Option<PathBuf>,
    /// Exit 1 when the overall coverage is below this percentage (0 to 100).
    #[arg(long, value_name = "PCT", value_parser = crate::percentage)]
    min_coverage: Option<f64>,
    /// Let a run without any exchange pass (by default it fails, as an empty capture does).
    #[arg(long)]
    allow_empty: bool,
    /// Another base address the API is reached at, besides the spec's servers (repeatable).
    #[arg(long, value_name = "URL")]
    base_url: Vec<String>,
    /// The largest body read whole and checked (K, M, G suffixes); a larger one is forwarded
    /// as a stream, and its exchange neither checked nor recorded.
    #[arg(long, value_name = "SIZE", default_value = "16M", value_parser = crate::size)]
    body_limit: usize,
    /// No line per finding on standard error while serving.
    #[arg(long)]
    quiet: bool,
}

/// Runs the proxy to its end and writes the report.
pub(crate) fn run(mut contract: Contract, args: ProxyArgs) -> ExitCode {
    // Logs (upstream failures, accept errors) on stderr, `warn` unless RUST_LOG says more.
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    // Colours only on a terminal: a log redirected to a file keeps plain text.
    let colour = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(colour)
        .with_target(false)
        .try_init();
    contract.add_base_urls(&args.base_url);
    let record = match &args.record {
        Some(path) => match args.record_format.or_else(|| RecordFormat::from_path(path)) {
            Some(format) => Some((path.clone(), format)),
            None => {
                eprintln!(
                    "specval: error: cannot tell the recording's format from {}: name it .har or .jsonl, or give --record-format",
                    path.display()
                );
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    // The report and the coverage page are written at the end of a session, perhaps a long
    // one: a path they cannot be written to is refused now, as the recording's is.
    for (what, path) in [
        ("report", args.judging.output.as_ref()),
        ("coverage report", args.coverage.as_ref()),
    ] {
        if let Some(path) = path
            && let Err(err) = specval::output::check_writable(path)
        {
            eprintln!(
                "specval: error: cannot write the {what} to {}: {err}",
                path.display()
            );
            return ExitCode::from(2);
        }
    }
    let mut options = Options::new(args.listen, args.upstream.clone());
    options.notifications = args
        .notifications_listen
        .zip(args.notifications_upstream.clone());
    options.record = record;
    options.max_exchanges = args.max_exchanges;
    options.check = args.judging.check_options();
    options.body_limit = args.body_limit;
    options.coverage = args.coverage.is_some() || args.min_coverage.is_some();
    options.keep_outcomes = args.judging.format == Format::Junit;
    if !args.quiet {
        // Findings never hold a credential (the checks leave them out, and mask instance
        // values without --show-values), so a line of one is safe on a shared terminal.
        options.on_finding = Some(Box::new(|finding| {
            eprintln!("specval proxy: {}", proxy::live_line(finding));
        }));
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("specval: error: cannot start the runtime: {err}");
            return ExitCode::from(2);
        }
    };
    let contract = Arc::new(contract);
    let finished = runtime.block_on(async {
        let stop = stop_signal();
        let proxy = match Proxy::bind(contract.clone(), options).await {
            Ok(proxy) => proxy,
            Err(err) => {
                eprintln!("specval: error: {err}");
                return None;
            }
        };
        if let Ok(addr) = proxy.local_addr() {
            eprintln!(
                "specval proxy: listening on http://{addr} (upstream {})",
                args.upstream
            );
        }
        if let (Some(Ok(addr)), Some(upstream)) =
            (proxy.notifications_addr(), &args.notifications_upstream)
        {
            eprintln!(
                "specval proxy: notifications listening on http://{addr} (upstream {upstream})"
            );
        }
        Some(proxy.serve(stop).await)
    });
    // Connections the grace period gave up on must not hold the exit.
    runtime.shutdown_timeout(Duration::from_millis(200));
    let Some(mut finished) = finished else {
        return ExitCode::from(2);
    };
    if proxy::saw_no_api_exchange(&finished.report) && !args.allow_empty {
        proxy::no_exchanges(&mut finished.report);
    }
    finish(&contract, &args, finished)
}

/// Ctrl-C (SIGINT) or, on Unix, SIGTERM. The handlers are installed when this is called, not
/// when the future is first polled: a signal sent as soon as the listening line is printed
/// must end the run with its report, not kill the process.
fn stop_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let interrupt = signal(SignalKind::interrupt());
        let terminate = signal(SignalKind::terminate());
        async move {
            match (interrupt, terminate) {
                (Ok(mut interrupt), Ok(mut terminate)) => {
                    tokio::select! {
                        _ = interrupt.recv() => {}
                        _ = terminate.recv() => {}
                    }
                }
                _ => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// Writes the report (and coverage) and says how the run went.
fn finish(contract: &Contract, args: &ProxyArgs, finished: proxy::Finished) -> ExitCode {
    let report = &finished.report;
    let format = args.judging.format;
    if !crate::write_report(args.judging.output.as_deref(), |out| {
        report::write(report, format, out)
    }) {
        return ExitCode::from(2);
    }
    let mut failed = report::exit_code(report, report) != 0;
    if args.coverage.is_some() || args.min_coverage.is_some() {
        let tally = specval::coverage::Coverage::tally(contract, report, &finished.covered);
        eprintln!(
            "specval proxy: contract coverage {:.1}% ({} of {} documented items exercised)",
            tally.totals.overall.percent, tally.totals.overall.covered, tally.totals.overall.total
        );
        if let Some(path) = &args.coverage {
            let format = coverage_format(path);
            let written = specval::output::write_file(path, |out| {
                specval::coverage::write(&tally, format, out)
            });
            if let Err(err) = written {
                eprintln!("specval: error: cannot write the coverage report: {err}");
                return ExitCode::from(2);
            }
        }
        if let Some(shortfall) = args.min_coverage.and_then(|pct| tally.shortfall(pct)) {
            eprintln!("specval: {shortfall}");
            failed = true;
        }
    }
    eprintln!(
        "specval proxy: {} exchange(s) checked, {} recorded, {} over the body limit (not checked)",
        report.exchanges, finished.recorded, finished.skipped
    );
    if finished.abandoned {
        eprintln!("specval proxy: requests still in flight after the grace period were dropped");
    }
    if let Some(err) = &finished.record_error {
        eprintln!(
            "specval: error: the recording stopped after {} exchange(s): {err}",
            finished.recorded
        );
        return ExitCode::from(2);
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn coverage_format(path: &Path) -> specval::coverage::Format {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("json") => specval::coverage::Format::Json,
        Some("html" | "htm") => specval::coverage::Format::Html,
        _ => specval::coverage::Format::Text,
    }
}
