//! The baseline of `scripts/bench-validate.sh`: reads a traffic file and only parses it with
//! serde_json, as specval must at least do, then prints how many records it parsed.
//!
//! JSON Lines is streamed line by line, each line parsed into a `serde_json::Value`; a HAR
//! (`.har`) is read whole and parsed into one `Value` (what a non-streaming reader would do).
//!
//! ```sh
//! cargo run --release -p specval --example parse_only -- FILE
//! ```

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::process::ExitCode;

pub fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: parse_only FILE");
        return ExitCode::from(2);
    };
    match parse(&path) {
        Ok((records, bad)) => {
            println!("{records} records parsed ({bad} not JSON)");
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("parse_only: {path}: {err}");
            ExitCode::from(2)
        }
    }
}

fn parse(path: &str) -> std::io::Result<(u64, u64)> {
    if path.to_ascii_lowercase().ends_with(".har") {
        let bytes = std::fs::read(path)?;
        let value: serde_json::Value =
            serde_json::from_slice(&bytes).map_err(std::io::Error::other)?;
        let entries = value["log"]["entries"].as_array().map_or(0, Vec::len);
        return Ok((entries as u64, 0));
    }
    let mut reader = BufReader::with_capacity(1 << 16, File::open(path)?);
    let mut line = Vec::with_capacity(1 << 12);
    let (mut records, mut bad) = (0, 0);
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            return Ok((records, bad));
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<serde_json::Value>(&line) {
            Ok(value) => {
                std::hint::black_box(value);
                records += 1;
            }
            Err(_) => bad += 1,
        }
    }
}
