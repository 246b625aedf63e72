//! `cargo xtask test` (the README's test command, also run by CI) and `cargo xtask bench`.

use std::process::Command;
use std::time::Instant;

use anyhow::{Result, bail};
use sente::boards;

fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

fn step(name: &str, cmd: &mut Command, results: &mut Vec<(String, bool, f64)>) -> bool {
    println!("\n=== {name}");
    let start = Instant::now();
    let ok = cmd
        .current_dir(crate::root())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    results.push((name.to_string(), ok, start.elapsed().as_secs_f64()));
    ok
}

/// Installs what is missing, then runs every check; fails if any fails.
pub fn test_everything() -> Result<()> {
    let mut targets: Vec<&str> = boards::BOARDS.iter().map(|b| b.target).collect();
    targets.sort();
    targets.dedup();
    for target in &targets {
        crate::setup::require_target(target)?;
    }
    for board in boards::simulated() {
        crate::setup::require_simulator(board)?;
    }
    crate::setup::require_flip_link()?;
    let mut results = Vec::new();
    step(
        "cargo fmt --check",
        cargo().args(["fmt", "--all", "--", "--check"]),
        &mut results,
    );
    step(
        "cargo clippy (host, all targets)",
        cargo().args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]),
        &mut results,
    );
    for board in boards::BOARDS {
        step(
            &format!("cargo clippy (firmware for the {})", board.name),
            cargo().args([
                "clippy",
                "-p",
                "sente-firmware",
                "--features",
                board.feature(),
                "--target",
                board.target,
                "--bins",
                "--",
                "-D",
                "warnings",
            ]),
            &mut results,
        );
    }
    step(
        "cargo test --workspace",
        cargo().args(["test", "--workspace"]),
        &mut results,
    );
    // Every board's firmware builds, with its size (the simulated ones again below).
    for board in boards::BOARDS.iter().filter(|b| b.sim.is_none()) {
        let name = format!(
            "firmware for the {} (built and sized; no simulator)",
            board.name
        );
        println!("\n=== {name}");
        let start = Instant::now();
        let built = crate::fw::build_and_report(board, false);
        if let Err(e) = &built {
            println!("{e:#}");
        }
        results.push((name, built.is_ok(), start.elapsed().as_secs_f64()));
    }
    let _ = std::fs::remove_dir_all(crate::root().join("target/hil"));
    for board in boards::simulated() {
        for ram_2k in [false, true] {
            if ram_2k && !board.ram_2k {
                continue;
            }
            let name = if ram_2k {
                format!(
                    "HIL on the simulated {} with RAM capped at 2 KB (suites with ram=2048 budgets, faults)",
                    board.name
                )
            } else {
                format!("HIL on the simulated {}", board.name)
            };
            let start = Instant::now();
            println!("\n=== {name}");
            let hil = crate::hil::run(&crate::hil::HilArgs::simulated(board, ram_2k));
            if let Err(e) = &hil {
                println!("{e:#}");
            }
            results.push((name, hil.is_ok(), start.elapsed().as_secs_f64()));
        }
    }
    println!("\n=== summary");
    let failed = results.iter().filter(|r| !r.1).count();
    for (name, ok, secs) in &results {
        println!(
            "  {} {name} ({secs:.0} s)",
            if *ok { "ok  " } else { "FAIL" }
        );
    }
    println!(
        "steps: {} passed, {} failed",
        results.len() - failed,
        failed
    );
    if failed > 0 {
        bail!("{failed} step(s) failed");
    }
    Ok(())
}

/// Runs the criterion benchmarks of the engines.
pub fn bench(filter: Option<&str>) -> Result<()> {
    let mut cmd = cargo();
    cmd.args(["bench", "-p", "sente-firmware"]);
    if let Some(f) = filter {
        cmd.args(["--", f]);
    }
    let status = cmd.current_dir(crate::root()).status()?;
    if !status.success() {
        bail!("benchmarks failed");
    }
    Ok(())
}
