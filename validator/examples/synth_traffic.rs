//! Writes a large synthetic traffic file built from the spec's examples, for benchmarking
//! `specval check` (see `benches/common/synth.rs` for what it holds).
//!
//! ```sh
//! cargo run --release -p specval --example synth_traffic -- OUT_FILE TARGET_BYTES [jsonl|har]
//! ```
//!
//! The format defaults to the file's extension (`.har` is HAR), else JSON Lines. The spec is
//! `spec/openapi.yaml` of this repository, or `$SPECVAL_SYNTH_SPEC`. A summary goes to
//! standard error.

#[path = "../benches/common/synth.rs"]
mod synth;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

fn usage() -> ExitCode {
    eprintln!("usage: synth_traffic OUT_FILE TARGET_BYTES [jsonl|har]");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(out), Some(bytes)) = (args.first(), args.get(1)) else {
        return usage();
    };
    let Ok(target) = bytes.replace('_', "").parse::<u64>() else {
        eprintln!("synth_traffic: TARGET_BYTES must be a number of bytes, not {bytes:?}");
        return usage();
    };
    let format = match args.get(2) {
        Some(name) => match synth::Format::parse(name) {
            Some(format) => format,
            None => {
                eprintln!("synth_traffic: unknown format {name:?}");
                return usage();
            }
        },
        None if Path::new(out)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("har")) =>
        {
            synth::Format::Har
        }
        None => synth::Format::Jsonl,
    };
    let spec = std::env::var_os("SPECVAL_SYNTH_SPEC")
        .map(PathBuf::from)
        .unwrap_or_else(synth::default_spec_path);
    let traffic = match synth::Traffic::from_spec(&spec) {
        Ok(traffic) => traffic,
        Err(err) => {
            eprintln!("synth_traffic: {}: {err}", spec.display());
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    match traffic.write_file(Path::new(out), target, format) {
        Ok(summary) => {
            eprintln!(
                "synth_traffic: wrote {out}: {} bytes, {} exchanges ({} breaking a rule) from {} shapes, {:?}, in {:.1} s",
                summary.bytes,
                summary.exchanges,
                summary.broken,
                traffic.shapes(),
                format,
                start.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("synth_traffic: cannot write {out}: {err}");
            ExitCode::from(2)
        }
    }
}
