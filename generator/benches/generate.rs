//! Generation speed and memory, each against a parse-only baseline measured in the same run.
//!
//! For each input (spec/openapi.yaml, the largest document of ../shared/corpus when it is
//! there, and a synthetic ~1 MB document built from spec/openapi.yaml) this measures:
//! - `parse-only`: the text parsed by serde_norway into a `serde_json::Value` (the baseline);
//! - `load+generate`: `specgen::load::load_str` then `specgen::generate_crate`, in memory.
//!
//! Absolute times depend on the machine, so after criterion's own report the bench prints
//! ratios (generate ÷ parse-only, and how time and peak heap grow with the text's size) from
//! the same samples. Nothing here asserts a figure; `scripts/bench-generate.sh` times whole
//! `specgen` processes instead.
//!
//! `cargo bench -p specgen --bench generate` (add `-- NAME` to run one input).

#[path = "common/synth.rs"]
mod synth;

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, Throughput};

const SYNTHETIC_BYTES: usize = 1_000_000;
const PARSE: &str = "parse-only";
const GENERATE: &str = "load+generate";

/// One document to measure.
struct Input {
    name: String,
    text: String,
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn inputs() -> Vec<Input> {
    let spec_path = repo_root().join("spec/openapi.yaml");
    let spec = std::fs::read_to_string(&spec_path)
        .unwrap_or_else(|e| panic!("read {}: {e}", spec_path.display()));
    let mut inputs = vec![];
    match largest_corpus_document(&repo_root().join("../shared/corpus")) {
        Some(path) => {
            let name = path.file_name().unwrap().to_string_lossy();
            inputs.push(Input {
                name: format!("corpus/{name}"),
                text: std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("read {}: {e}", path.display())),
            });
        }
        None => eprintln!("bench: no ../shared/corpus beside the repository; skipping it"),
    }
    let synthetic = synth::synthesize(&spec, SYNTHETIC_BYTES).expect("synthesize");
    inputs.insert(
        0,
        Input {
            name: "spec/openapi.yaml".into(),
            text: spec,
        },
    );
    inputs.push(Input {
        name: "synthetic-1MB".into(),
        text: synthetic,
    });
    inputs
}

fn largest_corpus_document(dir: &Path) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.path())
        .filter(|path| {
            path.extension()
                .is_some_and(|ext| ext == "yaml" || ext == "yml" || ext == "json")
        })
        .filter_map(|path| Some((std::fs::metadata(&path).ok()?.len(), path)))
        .max()
        .map(|(_, path)| path)
}

/// The loader picks its parser from the name's suffix; keep the input's own.
fn source_name(input: &Input) -> &str {
    if input.name.ends_with(".json") {
        "bench.json"
    } else {
        "bench.yaml"
    }
}

fn parse_only(text: &str) -> serde_json::Value {
    serde_norway::from_str(text).expect("parse")
}

fn load_and_generate(text: &str, source_name: &str) -> Vec<specgen::GeneratedFile> {
    let doc = specgen::load::load_str(text, source_name).expect("load");
    specgen::generate_crate(&doc, &specgen::Options::default()).expect("generate")
}

/// Mean time of one iteration for each sample criterion took, by (input, benchmark).
static SAMPLES: Mutex<BTreeMap<(String, &'static str), Vec<Duration>>> =
    Mutex::new(BTreeMap::new());

/// Runs `routine` `iters` times, records the mean, and returns the total for criterion.
fn timed(input: &str, bench: &'static str, iters: u64, mut routine: impl FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..iters {
        routine();
    }
    let elapsed = start.elapsed();
    SAMPLES
        .lock()
        .unwrap()
        .entry((input.to_string(), bench))
        .or_default()
        .push(elapsed / iters.max(1) as u32);
    elapsed
}

fn bench(c: &mut Criterion, inputs: &[Input]) {
    for input in inputs {
        let source_name = source_name(input);
        // Ten samples of one iteration each fit in 6 s even at ~0.5 s per generate.
        let seconds = if input.text.len() > SYNTHETIC_BYTES / 2 {
            6
        } else {
            3
        };
        let mut group = c.benchmark_group(&input.name);
        group
            .sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(seconds))
            .throughput(Throughput::Bytes(input.text.len() as u64));
        group.bench_function(PARSE, |b| {
            b.iter_custom(|iters| {
                timed(&input.name, PARSE, iters, || {
                    black_box(parse_only(black_box(&input.text)));
                })
            })
        });
        group.bench_function(GENERATE, |b| {
            b.iter_custom(|iters| {
                timed(&input.name, GENERATE, iters, || {
                    black_box(load_and_generate(black_box(&input.text), source_name));
                })
            })
        });
        group.finish();
    }
}

fn median(samples: &[Duration]) -> Option<Duration> {
    let mut sorted = samples.to_vec();
    sorted.sort();
    sorted.get(sorted.len() / 2).copied()
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}

/// Peak heap above what was live before, while running `routine` once.
fn peak_heap(routine: impl FnOnce()) -> usize {
    let before = HEAP.current.load(Ordering::SeqCst);
    HEAP.peak.store(before, Ordering::SeqCst);
    routine();
    HEAP.peak.load(Ordering::SeqCst).saturating_sub(before)
}

fn report(inputs: &[Input]) {
    let samples = SAMPLES.lock().unwrap();
    let first = &inputs[0];
    println!(
        "\nspecgen generation against the parse-only baseline (medians of criterion's samples):"
    );
    println!(
        "{:<28} {:>10} {:>11} {:>13} {:>9} {:>13} {:>12}",
        "input", "bytes", "parse ms", "generate ms", "gen/parse", "peak heap MB", "heap/bytes"
    );
    let mut generate_ms = BTreeMap::new();
    for input in inputs {
        let parse = samples
            .get(&(input.name.clone(), PARSE))
            .and_then(|s| median(s));
        let generate = samples
            .get(&(input.name.clone(), GENERATE))
            .and_then(|s| median(s));
        let (Some(parse), Some(generate)) = (parse, generate) else {
            continue; // filtered out on the command line
        };
        generate_ms.insert(
            input.name.clone(),
            (input.text.len(), ms(generate), ms(parse)),
        );
        let heap = peak_heap(|| {
            black_box(load_and_generate(&input.text, source_name(input)));
        });
        println!(
            "{:<28} {:>10} {:>11.2} {:>13.2} {:>9.1} {:>13.1} {:>12.1}",
            input.name,
            input.text.len(),
            ms(parse),
            ms(generate),
            ms(generate) / ms(parse),
            heap as f64 / 1e6,
            heap as f64 / input.text.len() as f64,
        );
    }
    if let (Some(&(base_len, base_gen, base_parse)), Some(&(big_len, big_gen, big_parse))) = (
        generate_ms.get(&first.name),
        generate_ms.get("synthetic-1MB"),
    ) {
        println!(
            "synthetic-1MB vs {}: {:.1}x the bytes, {:.1}x the generate time, {:.1}x the parse time",
            first.name,
            big_len as f64 / base_len as f64,
            big_gen / base_gen,
            big_parse / base_parse,
        );
    }
}

fn main() {
    let inputs = inputs();
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion, &inputs);
    criterion.final_summary();
    report(&inputs);
}

/// Counts live and peak heap bytes, for the memory column of the report.
struct CountingAllocator {
    current: AtomicUsize,
    peak: AtomicUsize,
}

#[global_allocator]
static HEAP: CountingAllocator = CountingAllocator {
    current: AtomicUsize::new(0),
    peak: AtomicUsize::new(0),
};

impl CountingAllocator {
    fn grew(&self, bytes: usize) {
        let now = self.current.fetch_add(bytes, Ordering::Relaxed) + bytes;
        self.peak.fetch_max(now, Ordering::Relaxed);
    }
}

// SAFETY: every call is passed to `System` unchanged; the counters only observe sizes.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which `System` shares.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            self.grew(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout` (through `alloc`/`realloc`).
        unsafe { System.dealloc(ptr, layout) };
        self.current.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::realloc`'s contract, which `System` shares.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            if new_size >= layout.size() {
                self.grew(new_size - layout.size());
            } else {
                self.current
                    .fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        new
    }
}
