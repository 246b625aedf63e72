//! `cargo xtask test` (the README's test command, also run by CI) and `cargo xtask bench`.

use std::process::Command;
use std::time::Instant;

use anyhow::{Result, bail};

fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

fn step(name: &str, cmd: &mut Command, results: &mut Vec<(String, bool, f64)>) -> bool {
    println!("\n=== {name}");
    let start = Instant::now();
    let ok = cmd
        .current_dir(sente::sim::workspace_root())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    results.push((name.to_string(), ok, start.elapsed().as_secs_f64()));
    ok
}

/// Installs what is missing, then runs every check; fails if any fails.
pub fn test_everything() -> Result<()> {
    crate::setup::require_target()?;
    crate::setup::require_qemu()?;
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
    step(
        "cargo clippy (firmware for the board)",
        cargo().args([
            "clippy",
            "-p",
            "sente-firmware",
            "--features",
            "microbit",
            "--target",
            sente::sim::TARGET,
            "--bins",
            "--",
            "-D",
            "warnings",
        ]),
        &mut results,
    );
    step(
        "cargo test --workspace",
        cargo().args(["test", "--workspace"]),
        &mut results,
    );
    step(
        "firmware tests in release (xiangqi perft to depth 4)",
        cargo().args(["test", "--release", "-p", "sente-firmware", "--lib"]),
        &mut results,
    );
    for (ram_2k, name) in [
        (false, "HIL on the simulated board"),
        (
            true,
            "HIL on the simulated board with RAM capped at 2 KB (suites with ram=2048 budgets)",
        ),
    ] {
        let start = Instant::now();
        println!("\n=== {name}");
        let hil = crate::hil::run(&crate::hil::HilArgs::simulated(ram_2k));
        if let Err(e) = &hil {
            println!("{e:#}");
        }
        results.push((name.into(), hil.is_ok(), start.elapsed().as_secs_f64()));
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
    let status = cmd.current_dir(sente::sim::workspace_root()).status()?;
    if !status.success() {
        bail!("benchmarks failed");
    }
    Ok(())
}
