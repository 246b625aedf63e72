//! Collecting the HIL rows the test target wrote into `target/hil/report.{md,json}`.

use std::path::Path;

use anyhow::Result;
use sente::hil::{Row, markdown};

/// Gathers the rows, writes the reports, prints where; returns the number of rows.
pub fn write(rows_dir: &Path, out: &Path, ram_2k: bool, title: &str) -> Result<usize> {
    let mut rows: Vec<Row> = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(rows_dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file)?;
        rows.extend(serde_json::from_str::<Vec<Row>>(&text)?);
    }
    let stem = if ram_2k { "report-2k" } else { "report" };
    std::fs::write(
        out.join(format!("{stem}.json")),
        serde_json::to_string_pretty(&rows)?,
    )?;
    std::fs::write(out.join(format!("{stem}.md")), markdown(&rows, title))?;
    let failed = rows.iter().filter(|r| r.problem.is_some()).count();
    println!(
        "HIL: {} passed, {} failed  (target/hil/{stem}.md, target/hil/{stem}.json)",
        rows.len() - failed,
        failed
    );
    Ok(rows.len())
}
