//! [`parse_only`](parse_only.rs) with the allocator `specval` uses (mimalloc), so that
//! `scripts/bench-validate.sh` can also compare specval with a baseline that allocates the same
//! way: the share of specval's speed that is only the allocator's shows.
//!
//! ```sh
//! cargo run --release -p specval --example parse_only_mimalloc -- FILE
//! ```

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "parse_only.rs"]
mod parse_only;

fn main() -> std::process::ExitCode {
    parse_only::main()
}
