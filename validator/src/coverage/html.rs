//! Coverage as one self-contained HTML page: inline CSS, no script, no external resource (it
//! can be opened from disk or attached to a CI run as one file). The totals come first (`<table id="totals">`, a row per category and `overall`),
//! then a table per operation and webhook with every item, its hits and whether it was
//! exercised (at most [`LISTED_GAPS`] gaps per operation, then a row counting the rest).
//! Every text is escaped.
//!
//! Each count cell carries its numbers as data attributes as well
//! (`<tr data-category="statuses" data-covered="3" data-total="5" data-percent="60.0">`), for
//! tools that read the page.

use std::fmt::Write as _;
use std::io;

use super::{Category, Count, Coverage, LISTED_GAPS};

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\
table{border-collapse:collapse;margin:0.5em 0 1.5em}\
th,td{border:1px solid #ccc;padding:0.2em 0.6em;text-align:left}\
td.n{text-align:right;font-variant-numeric:tabular-nums}\
tr.gap td{background:#fdecea}tr.hit td{background:#eaf6ea}\
h2{font-size:1.1em;margin-top:1.5em}code{font-size:0.95em}\
.bar{display:inline-block;height:0.7em;background:#4a8;vertical-align:middle}";

/// Writes the coverage as an HTML page.
pub fn write(coverage: &Coverage, out: &mut dyn io::Write) -> io::Result<()> {
    let mut html = String::new();
    html.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    html.push_str("<title>Contract coverage</title>\n");
    let _ = writeln!(html, "<style>{STYLE}</style>\n</head>\n<body>");
    html.push_str("<h1>Contract coverage</h1>\n");
    let _ = writeln!(
        html,
        "<p>Inputs: {} — {} exchanges ({} malformed, {} unmatched).</p>",
        escape(&coverage.inputs.join(", ")),
        coverage.exchanges,
        coverage.malformed,
        coverage.unmatched
    );
    html.push_str("<table id=\"totals\">\n<tr><th>category</th><th>covered</th><th>total</th><th>percent</th><th></th></tr>\n");
    for category in Category::ALL {
        total_row(&mut html, category.label(), coverage.totals.get(category));
    }
    total_row(&mut html, "overall", &coverage.totals.overall);
    html.push_str("</table>\n");
    for op in &coverage.operations {
        let overall = &op.totals.overall;
        let _ = writeln!(
            html,
            "<h2 id=\"{}\">{}{} <code>{} {}</code> — {} exchanges — {}/{} ({:.1}%)</h2>",
            escape(&op.id),
            escape(&op.id),
            if op.kind == Category::Notification {
                " (notification)"
            } else {
                ""
            },
            escape(&op.method),
            escape(&op.path),
            op.exchanges,
            overall.covered,
            overall.total,
            overall.percent
        );
        html.push_str("<table class=\"operation\">\n<tr><th>kind</th><th>message</th><th>place</th><th>value</th><th>hits</th><th>exercised</th></tr>\n");
        let mut gaps = 0;
        for item in &op.items {
            if !item.covered() {
                gaps += 1;
                if gaps > LISTED_GAPS {
                    continue;
                }
            }
            let _ = writeln!(
                html,
                "<tr class=\"{}\"><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
                if item.covered() { "hit" } else { "gap" },
                item.category.singular(),
                escape(&item.message),
                escape(item.place()),
                escape(&item.value),
                item.hits,
                if item.covered() { "yes" } else { "no" }
            );
        }
        if gaps > LISTED_GAPS {
            let _ = writeln!(
                html,
                "<tr class=\"more\"><td colspan=\"6\">… and {} more gaps (<code>--format json</code> lists every item)</td></tr>",
                gaps - LISTED_GAPS
            );
        }
        html.push_str("</table>\n");
    }
    html.push_str("</body>\n</html>\n");
    out.write_all(html.as_bytes())?;
    out.flush()
}

fn total_row(html: &mut String, label: &str, count: &Count) {
    let _ = writeln!(
        html,
        "<tr data-category=\"{label}\" data-covered=\"{c}\" data-total=\"{t}\" data-percent=\"{p:.1}\"><td>{label}</td><td class=\"n\">{c}</td><td class=\"n\">{t}</td><td class=\"n\">{p:.1}%</td><td><span class=\"bar\" style=\"width:{w}px\"></span></td></tr>",
        c = count.covered,
        t = count.total,
        p = count.percent,
        w = (count.percent * 2.0).round() as u64,
    );
}

/// Escapes text for HTML content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' => out.push('?'),
            c => out.push(c),
        }
    }
    out
}
