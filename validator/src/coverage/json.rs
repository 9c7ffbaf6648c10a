//! Coverage as JSON: the whole [`Coverage`], every item with its `hits`
//! (0 for a gap), pretty-printed.
//!
//! ```json
//! {"inputs": ["traffic.jsonl"], "exchanges": 3, "malformed": 0, "unmatched": 0,
//!  "totals": {"operations": {"covered": 1, "total": 9, "percent": 11.1}, …, "overall": {…}},
//!  "operations": [{"id": "getAccount", "kind": "operation", "method": "GET",
//!                  "path": "/banking/accounts/{account_id}", "exchanges": 2, "totals": {…},
//!                  "items": [{"category": "status", "message": "", "at": "404",
//!                             "value": "", "hits": 0}, …]}, …]}
//! ```

use std::io;

use super::Coverage;

/// Writes the coverage as JSON.
pub fn write(coverage: &Coverage, out: &mut dyn io::Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, coverage).map_err(io::Error::other)?;
    writeln!(out)?;
    out.flush()
}
