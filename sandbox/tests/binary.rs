//! The `sandbox` binary: it prints its address as the first line of standard output,
//! answers, logs without credential values, and exits 0 promptly on SIGTERM and SIGINT.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use common::{PUBLIC_KEY, SECRET_KEY};
use serde_json::{Value, json};
use uuid::Uuid;

/// A running `sandbox` process.
struct Process {
    child: Child,
    origin: String,
    first_line: String,
    stderr: Option<JoinHandle<String>>,
}

impl Process {
    /// Starts the binary with `args` and `env` (every other `SANDBOX_*` variable removed),
    /// and waits for its address line.
    fn start(args: &[&str], env: &[(&str, &str)]) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_sandbox"));
        for (name, _) in std::env::vars() {
            if name.starts_with("SANDBOX_") {
                command.env_remove(name);
            }
        }
        // Every event of every crate, so that the credential check below sees all of them.
        command
            .env("RUST_LOG", "trace")
            .envs(env.iter().copied())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command.spawn().expect("spawn the sandbox binary");
        let stdout = child.stdout.take().expect("stdout");
        let (line_tx, line_rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = String::new();
            let _ = reader.read_line(&mut line);
            let _ = line_tx.send(line);
            // Keep draining, so the process never blocks on a full pipe.
            let _ = std::io::copy(&mut reader, &mut std::io::sink());
        });
        let mut stderr = child.stderr.take().expect("stderr");
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        let first_line = match line_rx.recv_timeout(Duration::from_secs(30)) {
            Ok(line) => line,
            Err(_) => {
                let _ = child.kill();
                panic!("the sandbox printed no address within 30 s");
            }
        };
        let origin = first_line
            .trim_end()
            .strip_prefix("sandbox listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {first_line:?}"))
            .to_owned();
        Self {
            child,
            origin,
            first_line,
            stderr: Some(stderr),
        }
    }

    /// Sends `signal` and waits (10 s at most) for the process to exit; returns its status,
    /// how long it took, and what it logged.
    fn stop_with(mut self, signal: libc::c_int) -> (ExitStatus, Duration, String) {
        let pid = libc::pid_t::try_from(self.child.id()).expect("pid");
        let started = Instant::now();
        // SAFETY: `kill` has no memory-safety preconditions; `pid` is our own child, which
        // has not been waited for, so the id cannot have been reused.
        let sent = unsafe { libc::kill(pid, signal) };
        assert_eq!(sent, 0, "kill({pid}, {signal})");
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                break status;
            }
            if started.elapsed() > Duration::from_secs(10) {
                let _ = self.child.kill();
                panic!("the sandbox did not exit within 10 s of signal {signal}");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let elapsed = started.elapsed();
        let logs = self
            .stderr
            .take()
            .expect("stderr")
            .join()
            .expect("stderr reader");
        (status, elapsed, logs)
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // A failed assertion must not leave the process behind.
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("client")
}

#[tokio::test]
async fn the_binary_prints_its_address_answers_and_exits_0_on_sigterm() {
    let process = Process::start(&["--port", "0", "--shutdown-grace", "2s"], &[]);
    assert!(
        process
            .first_line
            .starts_with("sandbox listening on http://127.0.0.1:"),
        "{:?}",
        process.first_line
    );
    let port: u16 = process
        .origin
        .rsplit(':')
        .next()
        .and_then(|port| port.parse().ok())
        .expect("a port");
    assert_ne!(port, 0);
    let origin = process.origin.clone();
    let http = http();

    // The control API seeds for the merchant of these credentials; the API serves.
    let seeded = http
        .post(format!("{origin}/_sandbox/onboardings"))
        .header("public-api-key", PUBLIC_KEY)
        .header("private-secret-key", SECRET_KEY)
        .json(&json!({"id": "onb_ready", "status": "SUCCEEDED"}))
        .send()
        .await
        .expect("seed");
    assert_eq!(seeded.status(), 201);
    let account_id = Uuid::new_v4();
    let created = http
        .post(format!("{origin}/v1/banking/accounts"))
        .header("public-api-key", PUBLIC_KEY)
        .header("private-secret-key", SECRET_KEY)
        .header("x-idempotency-key", Uuid::new_v4().to_string())
        .json(&json!({
            "account_id": account_id,
            "onboarding_id": "onb_ready",
            "account_type": "SAVINGS",
            "currency": "AUD"
        }))
        .send()
        .await
        .expect("create");
    assert_eq!(created.status(), 201);
    let fetched = http
        .get(format!("{origin}/v1/banking/accounts/{account_id}"))
        .header("public-api-key", PUBLIC_KEY)
        .header("private-secret-key", SECRET_KEY)
        .send()
        .await
        .expect("get");
    assert_eq!(fetched.status(), 200);
    let account: Value = fetched.json().await.expect("json");
    assert_eq!(account["status"], "ACTIVE");
    assert_eq!(account["account_details"]["bsb"], "062000");
    let anonymous = http
        .get(format!("{origin}/v1/banking/accounts/{account_id}"))
        .send()
        .await
        .expect("get");
    assert_eq!(anonymous.status(), 401);

    let (status, elapsed, logs) = process.stop_with(libc::SIGTERM);
    assert!(status.success(), "exit status {status:?}; logs:\n{logs}");
    assert!(elapsed < Duration::from_secs(3), "took {elapsed:?} to stop");
    assert!(logs.contains("shutting down signal=\"SIGTERM\""), "{logs}");
    assert!(logs.contains("sandbox stopped"), "{logs}");
    assert!(
        logs.lines().any(|line| line.contains("sandbox::request")
            && line.contains("method=POST")
            && line.contains("path=/v1/banking/accounts ")
            && line.contains("status=201")
            && line.contains("latency_ms=")),
        "{logs}"
    );
    for secret in [PUBLIC_KEY, SECRET_KEY] {
        assert!(
            !logs.contains(secret),
            "the logs contain a credential value:\n{logs}"
        );
    }
}

#[tokio::test]
async fn the_port_comes_from_the_environment_and_sigint_stops_it_too() {
    let process = Process::start(&[], &[("SANDBOX_PORT", "0")]);
    let response = http()
        .get(format!("{}/_sandbox/deliveries", process.origin))
        .send()
        .await
        .expect("get");
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<Value>().await.expect("json"), json!([]));
    let (status, elapsed, logs) = process.stop_with(libc::SIGINT);
    assert!(status.success(), "exit status {status:?}; logs:\n{logs}");
    assert!(elapsed < Duration::from_secs(3), "took {elapsed:?} to stop");
    assert!(logs.contains("signal=\"SIGINT\""), "{logs}");
}

#[test]
fn a_bad_configuration_fails_with_a_message() {
    let output = Command::new(env!("CARGO_BIN_EXE_sandbox"))
        .args(["--port", "0", "--merchant-url", "ftp://merchant.test"])
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .output()
        .expect("run");
    assert!(!output.status.success());
    assert!(output.stdout.is_empty(), "no address line before a failure");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("http://"), "{stderr}");

    let output = Command::new(env!("CARGO_BIN_EXE_sandbox"))
        .args(["--idempotency-ttl", "soon"])
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(2), "a usage error");
}

/// All state is in memory: `--help` says plainly that a restart loses it, and the README says
/// the same. The README's shell example gets its idempotency key from the Linux kernel, not
/// from `uuidgen`, which a fresh machine may not have.
#[test]
fn help_and_readme_say_that_a_restart_loses_all_state() {
    let output = Command::new(env!("CARGO_BIN_EXE_sandbox"))
        .arg("--help")
        .output()
        .expect("run");
    assert!(output.status.success());
    let help = String::from_utf8_lossy(&output.stdout).replace('\n', " ");
    assert!(
        help.contains("in memory only") && help.contains("restarting the sandbox loses every"),
        "--help does not say that a restart loses the state:\n{help}"
    );

    let readme = std::fs::read_to_string(common::package_dir().join("README.md")).expect("README");
    let flat = readme.replace('\n', " ");
    assert!(
        flat.contains("State lives in memory only.")
            && flat.contains("Stopping or restarting the sandbox loses everything"),
        "sandbox/README.md does not say that a restart loses the state"
    );
    assert!(
        !readme.contains("$(uuidgen)"),
        "the README's commands must not need uuidgen"
    );
}
