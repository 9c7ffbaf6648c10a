//! Throughput of `specval` on recorded traffic, against a parse-only baseline measured in the
//! same run (the machine is shared and noisy: read the ratios, not the absolute figures).
//!
//! Inputs: a ~20 MB JSON Lines file and a ~20 MB HAR, written into a temporary directory by
//! `common/synth.rs` (the generator of `examples/synth_traffic.rs`) from the examples of
//! `spec/openapi.yaml`; about 1% of their exchanges break a rule. For each:
//!
//! - `parse-only` (a): the file read and parsed with serde_json into `serde_json::Value`s,
//!   line by line (JSON Lines) or whole (HAR), and nothing else: the floor any validator pays;
//! - `sequential` (b): `specval::read::read_path` with `specval::check::check` of each
//!   exchange in the sink, all on the calling thread: specval's work on exactly one core
//!   (without the folding of outcomes into a report, which `run` adds);
//! - `run-1-thread` (b'): `specval::run::run`, what `specval check` does, inside a one-thread
//!   rayon pool (its reader thread still runs beside it: up to two cores);
//! - `run-2-threads` (c): the same in a two-thread pool.
//!
//! After criterion's report the bench prints, from the same samples: MB/s, exchanges/s, the
//! throughput ratios to `parse-only` (the targets: (b)/(a) ≥ 0.5 on one core, close
//! to twice that on two), the same ratios in CPU time (steadier when other processes share
//! the machine) and the CPU time per wall time (cores actually used). Nothing is asserted. `scripts/bench-validate.sh` times whole `specval check` processes pinned with
//! `taskset`, and their peak RSS on 100 MB and 1 GB files.
//!
//! `cargo bench -p specval --bench validate` (add `-- jsonl` or `-- har` to run one input;
//! `SPECVAL_BENCH_MB=N` changes the size of the inputs).

#[path = "common/synth.rs"]
mod synth;

use std::collections::BTreeMap;
use std::fs::File;
use std::hint::black_box;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, Throughput};
use specval::Contract;
use specval::check::{CheckOptions, check};
use specval::run::{RunOptions, run};

const PARSE: &str = "parse-only";
const SEQUENTIAL: &str = "sequential";
const RUN1: &str = "run-1-thread";
const RUN2: &str = "run-2-threads";
const BENCHES: [&str; 4] = [PARSE, SEQUENTIAL, RUN1, RUN2];

/// One traffic file.
struct Input {
    name: String,
    path: PathBuf,
    format: synth::Format,
    summary: synth::Summary,
}

fn inputs(dir: &Path) -> Vec<Input> {
    let megabytes: u64 = std::env::var("SPECVAL_BENCH_MB")
        .ok()
        .and_then(|mb| mb.parse().ok())
        .unwrap_or(20);
    let spec = synth::default_spec_path();
    let traffic =
        synth::Traffic::from_spec(&spec).unwrap_or_else(|e| panic!("{}: {e}", spec.display()));
    [("jsonl", synth::Format::Jsonl), ("har", synth::Format::Har)]
        .into_iter()
        .map(|(extension, format)| {
            let path = dir.join(format!("traffic.{extension}"));
            let summary = traffic
                .write_file(&path, megabytes * 1_000_000, format)
                .unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
            Input {
                name: format!("{extension}-{megabytes}MB"),
                path,
                format,
                summary,
            }
        })
        .collect()
}

/// (a): parse every record into a `serde_json::Value`; returns how many.
fn parse_only(input: &Input) -> u64 {
    match input.format {
        synth::Format::Jsonl => {
            let file = File::open(&input.path).expect("open");
            let mut reader = BufReader::with_capacity(1 << 16, file);
            let mut line = Vec::with_capacity(1 << 12);
            let mut records = 0;
            loop {
                line.clear();
                if reader.read_until(b'\n', &mut line).expect("read") == 0 {
                    return records;
                }
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let value: serde_json::Value = serde_json::from_slice(&line).expect("JSON");
                black_box(value);
                records += 1;
            }
        }
        synth::Format::Har => {
            let bytes = std::fs::read(&input.path).expect("read");
            let value: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
            value["log"]["entries"].as_array().map_or(0, Vec::len) as u64
        }
    }
}

/// (b): read and check on this thread; returns (exchanges, findings).
fn sequential(
    contract: &Contract,
    webhook_paths: &[(String, String)],
    input: &Input,
) -> (u64, u64) {
    let path = input.path.to_str().expect("a UTF-8 temporary path");
    let (mut exchanges, mut findings) = (0, 0);
    specval::read::read_path(path, None, webhook_paths, &mut |entry| {
        exchanges += 1;
        findings += match entry {
            Ok(exchange) => check(contract, &exchange, CheckOptions::default())
                .findings
                .len() as u64,
            Err(_) => 1,
        };
    })
    .expect("read");
    (exchanges, findings)
}

/// (b') and (c): the whole run, as `specval check` does it; returns (exchanges, findings).
fn whole_run(contract: &Contract, input: &Input) -> (u64, u64) {
    let inputs = [input.path.to_string_lossy().into_owned()];
    let options = RunOptions {
        check: CheckOptions::default(),
        keep_outcomes: false,
        progress: false,
        ..RunOptions::default()
    };
    let report = run(contract, &inputs, options).expect("run");
    (report.exchanges, report.findings.len() as u64)
}

/// Wall time and process CPU time of one sample.
#[derive(Debug, Clone, Copy)]
struct Sample {
    wall: Duration,
    cpu: Option<Duration>,
}

/// Per-iteration samples criterion took, by (input, benchmark).
static SAMPLES: Mutex<BTreeMap<(String, &'static str), Vec<Sample>>> = Mutex::new(BTreeMap::new());

/// User + system time of this process so far (Linux; `None` elsewhere).
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command: state is field 3, utime 14, stime 15, in
    // clock ticks (USER_HZ, 100 on Linux).
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// Runs `routine` `iters` times, records the per-iteration figures, returns the total.
fn timed(input: &str, bench: &'static str, iters: u64, mut routine: impl FnMut()) -> Duration {
    let cpu_start = cpu_time();
    let start = Instant::now();
    for _ in 0..iters {
        routine();
    }
    let wall = start.elapsed();
    let cpu = cpu_start.zip(cpu_time()).map(|(a, b)| b.saturating_sub(a));
    let per = |d: Duration| d / iters.max(1) as u32;
    SAMPLES
        .lock()
        .unwrap()
        .entry((input.to_string(), bench))
        .or_default()
        .push(Sample {
            wall: per(wall),
            cpu: cpu.map(per),
        });
    wall
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a rayon pool")
}

fn bench(c: &mut Criterion, inputs: &[Input], contract: &Contract) {
    let webhook_paths = contract.webhook_paths();
    let pools = [(RUN1, pool(1)), (RUN2, pool(2))];
    for input in inputs {
        let mut group = c.benchmark_group(&input.name);
        group
            .sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(8))
            .throughput(Throughput::Bytes(input.summary.bytes));
        group.bench_function(PARSE, |b| {
            b.iter_custom(|iters| {
                timed(&input.name, PARSE, iters, || {
                    black_box(parse_only(input));
                })
            })
        });
        group.bench_function(SEQUENTIAL, |b| {
            b.iter_custom(|iters| {
                timed(&input.name, SEQUENTIAL, iters, || {
                    black_box(sequential(contract, &webhook_paths, input));
                })
            })
        });
        for (name, pool) in &pools {
            group.bench_function(*name, |b| {
                b.iter_custom(|iters| {
                    timed(&input.name, name, iters, || {
                        black_box(pool.install(|| whole_run(contract, input)));
                    })
                })
            });
        }
        group.finish();
    }
}

/// Checks once, outside the timings, that the figures are about the traffic meant: every
/// exchange read, and one finding per exchange that breaks a rule.
fn sanity(inputs: &[Input], contract: &Contract) {
    for input in inputs {
        let (exchanges, findings) = whole_run(contract, input);
        let parsed = parse_only(input);
        let summary = input.summary;
        println!(
            "{}: {} bytes, {} exchanges ({} breaking a rule); parse-only read {parsed}, specval read {exchanges} and found {findings}",
            input.name, summary.bytes, summary.exchanges, summary.broken
        );
        if exchanges != summary.exchanges || findings != summary.broken {
            println!("  warning: the run does not see the traffic as written");
        }
    }
}

fn median(values: &mut [Duration]) -> Option<Duration> {
    values.sort();
    values.get(values.len() / 2).copied()
}

/// Median wall time, and median CPU time and CPU÷wall when the platform tells them.
struct Figures {
    wall: Duration,
    cpu: Option<f64>,
    cores: Option<f64>,
}

fn median_f64(mut values: Vec<f64>) -> Option<f64> {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied()
}

fn figures(list: &[Sample]) -> Option<Figures> {
    let wall = median(&mut list.iter().map(|s| s.wall).collect::<Vec<_>>())?;
    let cpu: Option<Vec<Duration>> = list.iter().map(|s| s.cpu).collect();
    Some(Figures {
        wall,
        cpu: cpu
            .as_ref()
            .and_then(|cpu| median_f64(cpu.iter().map(Duration::as_secs_f64).collect())),
        cores: cpu.and_then(|cpu| {
            median_f64(
                cpu.iter()
                    .zip(list)
                    .map(|(cpu, s)| cpu.as_secs_f64() / s.wall.as_secs_f64())
                    .collect(),
            )
        }),
    })
}

fn report(inputs: &[Input]) {
    let samples = SAMPLES.lock().unwrap();
    println!("\nspecval against the parse-only baseline (medians of criterion's samples):");
    println!(
        "{:<12} {:<14} {:>10} {:>7} {:>12} {:>9} {:>12} {:>9}",
        "input", "bench", "median ms", "MB/s", "exchanges/s", "÷ parse", "÷ parse CPU", "CPU÷wall"
    );
    let show = |value: Option<f64>| value.map_or("n/a".to_string(), |v| format!("{v:.2}"));
    for input in inputs {
        let all: BTreeMap<&str, Figures> = BENCHES
            .iter()
            .filter_map(|&bench| {
                let list = samples.get(&(input.name.clone(), bench))?;
                Some((bench, figures(list)?))
            })
            .collect();
        let parse = all.get(PARSE);
        for bench in BENCHES {
            let Some(figures) = all.get(bench) else {
                continue; // filtered out on the command line
            };
            let seconds = figures.wall.as_secs_f64();
            println!(
                "{:<12} {:<14} {:>10.1} {:>7.1} {:>12.0} {:>9} {:>12} {:>9}",
                input.name,
                bench,
                seconds * 1e3,
                input.summary.bytes as f64 / 1e6 / seconds,
                input.summary.exchanges as f64 / seconds,
                show(parse.map(|p| p.wall.as_secs_f64() / seconds)),
                show(parse.and_then(|p| Some(p.cpu? / figures.cpu?))),
                show(figures.cores),
            );
        }
    }
    println!(
        "÷ parse: throughput against parse-only (wall time); ÷ parse CPU: the same in CPU time, \
         which other load on the machine disturbs less; CPU÷wall: cores actually used"
    );
    println!(
        "targets (issue, not checked): sequential ÷ parse ≥ 0.50 (one core); \
         run-2-threads ÷ parse close to twice the one-core ratio"
    );
}

fn main() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let inputs = inputs(dir.path());
    let contract = Contract::embedded().expect("the embedded contract");
    sanity(&inputs, &contract);
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion, &inputs, &contract);
    criterion.final_summary();
    report(&inputs);
}
