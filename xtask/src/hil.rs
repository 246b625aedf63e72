//! `cargo xtask hil`: firmware on a board (real or simulated) against the host engine.
//!
//! Builds the board's firmware, starts its simulator or flashes the board, then runs
//! the HIL test target (`tests/tests/hil.rs`, insta snapshots of every transcript)
//! against it, and writes `target/hil/<board>.{md,json}` and the cross-board report
//! `target/hil/report.md`.

use std::process::Command;

use anyhow::{Context, Result, bail};
use clap::Args;
use sente::boards::BoardSpec;

use crate::BoardArgs;

/// Options of `cargo xtask hil`.
#[derive(Args, Clone, Debug, Default)]
pub struct HilArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Use the simulated board, started and stopped here.
    #[arg(long, conflicts_with = "port")]
    pub sim: bool,
    /// Serial port of a real board (flashed first unless --no-flash).
    #[arg(long)]
    pub port: Option<String>,
    /// Do not flash the real board first.
    #[arg(long)]
    pub no_flash: bool,
    /// Only this suite (a game name, `protocol` for the robustness tests, `fault` for
    /// the stack-overflow report and recovery).
    #[arg(long)]
    pub game: Option<String>,
    /// Only scenarios whose name contains this.
    #[arg(long)]
    pub tests: Option<String>,
}

impl HilArgs {
    /// The simulated-board run `cargo xtask test` performs.
    pub fn simulated(board: &BoardSpec, ram_2k: bool) -> Self {
        Self {
            board: BoardArgs {
                board: Some(board.name.to_string()),
                ram_2k,
            },
            sim: true,
            ..Self::default()
        }
    }
}

/// Runs the HIL suite.
pub fn run(args: &HilArgs) -> Result<()> {
    let board = args.board.spec()?;
    let ram_2k = args.board.ram_2k;
    if !args.sim && args.port.is_none() {
        bail!(
            "say which board: --sim for the simulated {}, or --port PATH for a real one",
            board.name
        );
    }
    if args.sim {
        crate::setup::require_simulator(board)?;
    }
    let elf = crate::fw::build_and_report(board, ram_2k)?;
    let sizes = crate::fw::sizes(&elf)?;
    let root = crate::root();
    let out = root.join("target/hil");
    let run_name = board.hello_name(ram_2k);
    let rows_dir = out.join("rows").join(&run_name);
    let _ = std::fs::remove_dir_all(&rows_dir);
    std::fs::create_dir_all(&rows_dir)?;

    let mut _sim = None;
    let (port, kind) = if args.sim {
        let sim = sente::sim::Simulator::start(board, &elf)?;
        let pty = sim.pty().to_string();
        println!("simulated {} on {pty}", board.title);
        _sim = Some(sim);
        (pty, "sim")
    } else {
        let port = args.port.clone().unwrap_or_default();
        if !std::path::Path::new(&port).exists() {
            bail!(
                "no serial port at {port}: is the {} plugged in? (on Linux it is usually {})",
                board.title,
                board.port_hint
            );
        }
        if !args.no_flash {
            crate::flash::flash(board, &elf)?;
        }
        // One clear line if nothing answers there, rather than every suite failing.
        let mut serial = sente::board::SerialBoard::open(&port)
            .with_context(|| format!("{port} is not a serial port Sente can use"))?;
        serial
            .handshake(std::time::Duration::from_secs(5))
            .with_context(|| format!("no Sente board answers on {port}"))?;
        drop(serial);
        (port, "board")
    };

    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(&root)
        .args([
            "test",
            "--quiet",
            "-p",
            "sente-tests",
            "--features",
            "hil",
            "--test",
            "hil",
            "--",
        ])
        .arg("--test-threads=1")
        .env("SENTE_HIL_PORT", &port)
        .env("SENTE_HIL_KIND", kind)
        .env("SENTE_HIL_BOARD", board.name)
        .env("SENTE_HIL_STATICS", sizes.ram_static.to_string())
        .env("SENTE_HIL_ROWS", &rows_dir);
    if ram_2k {
        // Without --game, only the suites whose RAM budget fits 2 KB run.
        cmd.env(
            "SENTE_HIL_RAM_2K",
            if args.game.is_some() { "all" } else { "fit" },
        );
    }
    if let Some(game) = &args.game {
        cmd.arg(game);
    }
    if let Some(tests) = &args.tests {
        cmd.env("SENTE_HIL_TESTS", tests);
    }
    let status = cmd.status().context("running the HIL tests")?;
    drop(_sim);

    let title = format!(
        "{} ({kind}{})",
        board.title,
        if ram_2k { ", RAM capped at 2 KB" } else { "" }
    );
    let rows = crate::report::write(&rows_dir, &out, board, &run_name, &title, status.success())?;
    if !status.success() {
        bail!("HIL failed ({rows} scenario rows written); see target/hil/{run_name}.md");
    }
    Ok(())
}
