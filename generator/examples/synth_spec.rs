//! Writes the synthetic large spec that `benches/generate.rs` measures, for timing whole
//! `specgen` processes on it (`scripts/bench-generate.sh`):
//!
//! `cargo run --release -p specgen --example synth_spec -- OUT_FILE [TARGET_BYTES] [BASE_SPEC]`
//!
//! TARGET_BYTES defaults to 1000000, BASE_SPEC to spec/openapi.yaml of this repository.

#[path = "../benches/common/synth.rs"]
mod synth;

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(out) = args.first() else {
        eprintln!("usage: synth_spec OUT_FILE [TARGET_BYTES] [BASE_SPEC]");
        return ExitCode::from(2);
    };
    let target = match args.get(1).map(|t| t.parse::<usize>()) {
        None => 1_000_000,
        Some(Ok(target)) => target,
        Some(Err(err)) => {
            eprintln!("error: TARGET_BYTES: {err}");
            return ExitCode::from(2);
        }
    };
    let base = args
        .get(2)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec/openapi.yaml"));
    let result = std::fs::read_to_string(&base)
        .map_err(|e| format!("read {}: {e}", base.display()))
        .and_then(|text| synth::synthesize(&text, target))
        .and_then(|text| {
            std::fs::write(out, &text).map_err(|e| format!("write {out}: {e}"))?;
            Ok(text.len())
        });
    match result {
        Ok(len) => {
            eprintln!("synth_spec: wrote {len} bytes to {out}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
