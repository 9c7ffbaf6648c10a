//! Loads a document the way `specgen generate` does and stops: the baseline that
//! `scripts/bench-peers.sh` sets beside a regeneration with nothing to do, so that what the
//! regeneration costs beyond loading shows as the difference.
//!
//! `cargo run --release -p specgen --example load_only -- SPEC`

/// The allocator `specgen` itself uses, so the two load alike.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: load_only SPEC");
        return std::process::ExitCode::from(2);
    };
    match specgen::load::load_file(std::path::Path::new(&path)) {
        Ok(doc) => {
            std::hint::black_box(&doc);
            std::process::ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("error: {err}");
            std::process::ExitCode::from(2)
        }
    }
}
