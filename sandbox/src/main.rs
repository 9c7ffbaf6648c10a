//! `sandbox`: binds, prints `sandbox listening on http://ADDRESS` as the first line of
//! standard output (so a script can start it with `--port 0` and read the port), logs to
//! standard error, and stops gracefully on SIGINT or SIGTERM with exit status 0.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use sandbox::Sandbox;
use sandbox::config::Args;
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    init_tracing();
    match run(args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!("{error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Logs to standard error, filtered by `RUST_LOG` (default `info`); standard output is
/// kept for the address line.
fn init_tracing() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
}

async fn run(args: Args) -> anyhow::Result<()> {
    // Signal handlers first: a script that reads the address line and sends SIGTERM at
    // once must meet the handler, not the default action (which would kill the process
    // with a non-zero status).
    let shutdown = shutdown_signal().context("installing the signal handlers")?;
    let sandbox = Sandbox::new(args.options()).context("--merchant-url")?;
    let address = args.address();
    let listener = TcpListener::bind(address)
        .await
        .with_context(|| format!("binding {address}"))?;
    let local = listener.local_addr().context("reading the bound address")?;
    {
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "sandbox listening on http://{local}")?;
        stdout.flush()?;
    }
    if !local.ip().is_loopback() {
        tracing::warn!(
            address = %local,
            "listening beyond loopback: the control API under /_sandbox takes no credentials"
        );
    }
    tracing::info!(
        address = %local,
        idempotency_ttl = ?args.idempotency_ttl,
        merchant_url = args.merchant_url.is_some(),
        "sandbox started"
    );
    sandbox
        .serve(listener, shutdown, args.shutdown_grace)
        .await
        .context("serving")?;
    tracing::info!("sandbox stopped");
    Ok(())
}

/// A future that completes on the first SIGINT or SIGTERM. The handlers are installed
/// when this is called, not when the future is first polled.
#[cfg(unix)]
fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()> + Send + 'static> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    Ok(async move {
        let name = tokio::select! {
            _ = interrupt.recv() => "SIGINT",
            _ = terminate.recv() => "SIGTERM",
        };
        tracing::info!(signal = name, "shutting down");
    })
}

/// A future that completes on Ctrl-C.
#[cfg(not(unix))]
fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()> + Send + 'static> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!(signal = "ctrl-c", "shutting down");
    })
}
