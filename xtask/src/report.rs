//! Collecting the HIL rows the test target wrote into `target/hil/<run>.{md,json}`, and
//! the cross-board report `target/hil/report.md` from every run's rows.

use std::path::Path;

use anyhow::Result;
use sente::boards::BoardSpec;
use sente::hil::{BoardRun, Row, cross_board, markdown};

/// Gathers one run's rows, writes its report and the cross-board report, prints where;
/// returns the number of rows. `tests_passed`: whether the HIL test run succeeded (a
/// transcript that differs from its snapshot fails the run, not a row).
pub fn write(
    rows_dir: &Path,
    out: &Path,
    board: &BoardSpec,
    run_name: &str,
    title: &str,
    tests_passed: bool,
) -> Result<usize> {
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
    let run = BoardRun {
        run: run_name.to_string(),
        board: board.name.to_string(),
        title: title.to_string(),
        hz: board.hz,
        rows,
        tests_passed: Some(tests_passed),
    };
    std::fs::write(
        out.join(format!("{run_name}.json")),
        serde_json::to_string_pretty(&run)?,
    )?;
    std::fs::write(out.join(format!("{run_name}.md")), markdown(&run))?;
    let failed = run.failed_rows();
    let files = format!("target/hil/{run_name}.md, target/hil/{run_name}.json");
    if tests_passed {
        println!(
            "HIL: {} rows passed, {failed} failed  ({files})",
            run.rows.len() - failed
        );
    } else {
        // The rows' own checks may all pass while a transcript differs from its
        // snapshot: the run failed, and the count must not say otherwise.
        println!(
            "HIL: FAILED: {failed} of {} rows failed their checks, and the test run failed \
             (a transcript that differs from its snapshot: `cargo insta review`)  ({files})",
            run.rows.len()
        );
    }
    write_cross_board(out)?;
    Ok(run.rows.len())
}

/// Writes `target/hil/report.md` from every run's JSON in `out`.
pub fn write_cross_board(out: &Path) -> Result<()> {
    let mut runs: Vec<BoardRun> = Vec::new();
    for entry in std::fs::read_dir(out)?.filter_map(|e| e.ok()) {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "json")
            && let Ok(run) = serde_json::from_str::<BoardRun>(&std::fs::read_to_string(&path)?)
        {
            runs.push(run);
        }
    }
    // The boards' order in the table, the full build before the 2 KB one.
    let order = |r: &BoardRun| {
        let i = sente::boards::BOARDS
            .iter()
            .position(|b| b.name == r.board)
            .unwrap_or(usize::MAX);
        (i, r.run.clone())
    };
    runs.sort_by_key(order);
    std::fs::write(out.join("report.md"), cross_board(&runs))?;
    println!("HIL: cross-board report in target/hil/report.md");
    Ok(())
}
