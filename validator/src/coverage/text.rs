//! Coverage as text: the totals per category, then each operation and webhook with its counts
//! and the list of what the traffic never exercised.
//!
//! ```text
//! Contract coverage: traffic.jsonl — 3 exchanges (0 malformed, 0 unmatched)
//!
//!   category           covered  total  percent
//!   operations               1      9    11.1%
//!   …
//!   overall                 12    480     2.5%
//!
//! getAccount — GET /banking/accounts/{account_id} — 2 exchanges — 10/60 (16.7%)
//!   statuses 1/4, parameters 1/1, response members 8/40, enum values 0/14
//!   not exercised:
//!     status 404
//!     …
//! ```

use std::fmt::Write as _;
use std::io;

use super::{Category, Count, Coverage, LISTED_GAPS, Totals};

/// Writes the coverage as text.
pub fn write(coverage: &Coverage, out: &mut dyn io::Write) -> io::Result<()> {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "Contract coverage: {} — {} exchange{} ({} malformed, {} unmatched)",
        if coverage.inputs.is_empty() {
            "(none)".to_string()
        } else {
            coverage
                .inputs
                .iter()
                .map(|input| clean(input))
                .collect::<Vec<_>>()
                .join(", ")
        },
        coverage.exchanges,
        if coverage.exchanges == 1 { "" } else { "s" },
        coverage.malformed,
        coverage.unmatched,
    );
    text.push('\n');
    let _ = writeln!(
        text,
        "  {:<18} {:>8} {:>6} {:>8}",
        "category", "covered", "total", "percent"
    );
    for category in Category::ALL {
        row(&mut text, category.label(), coverage.totals.get(category));
    }
    row(&mut text, "overall", &coverage.totals.overall);
    for op in &coverage.operations {
        let overall = &op.totals.overall;
        let _ = writeln!(
            text,
            "\n{}{} — {} {} — {} exchange{} — {}/{} ({:.1}%)",
            op.id,
            if op.kind == Category::Notification {
                " (notification)"
            } else {
                ""
            },
            op.method,
            op.path,
            op.exchanges,
            if op.exchanges == 1 { "" } else { "s" },
            overall.covered,
            overall.total,
            overall.percent,
        );
        let _ = writeln!(text, "  {}", counts(&op.totals));
        let gaps: Vec<_> = op.items.iter().filter(|item| !item.covered()).collect();
        if gaps.is_empty() {
            text.push_str("  everything exercised\n");
        } else {
            text.push_str("  not exercised:\n");
            for gap in gaps.iter().take(LISTED_GAPS) {
                let _ = writeln!(text, "    {}", gap.describe());
            }
            if gaps.len() > LISTED_GAPS {
                let _ = writeln!(
                    text,
                    "    … and {} more (--format json lists every item)",
                    gaps.len() - LISTED_GAPS
                );
            }
        }
    }
    let overall = &coverage.totals.overall;
    let _ = writeln!(
        text,
        "\nspecval: {:.1}% of the contract exercised ({} of {} items)",
        overall.percent, overall.covered, overall.total
    );
    out.write_all(text.as_bytes())?;
    out.flush()
}

fn row(text: &mut String, label: &str, count: &Count) {
    let _ = writeln!(
        text,
        "  {label:<18} {:>8} {:>6} {:>7.1}%",
        count.covered, count.total, count.percent
    );
}

/// The categories an operation has items in, `statuses 1/4, parameters 1/1, …`.
fn counts(totals: &Totals) -> String {
    Category::ALL
        .iter()
        .filter(|&&c| !matches!(c, Category::Operation | Category::Notification))
        .map(|&c| (c, totals.get(c)))
        .filter(|(_, count)| count.total > 0)
        .map(|(c, count)| format!("{} {}/{}", c.label(), count.covered, count.total))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An input's name without control characters (a file name may hold any).
fn clean(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}
