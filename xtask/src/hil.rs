//! `cargo xtask hil`: firmware on a board (real or simulated) against the host engine.
//!
//! Builds the firmware, starts QEMU or flashes the board, then runs the HIL test target
//! (`tests/tests/hil.rs`, insta snapshots of every transcript) against it, and writes
//! `target/hil/report.md` and `target/hil/report.json`.

use std::process::Command;

use anyhow::{Context, Result, bail};
use clap::Args;

/// Options of `cargo xtask hil`.
#[derive(Args, Clone, Debug, Default)]
pub struct HilArgs {
    /// Use the simulated board (QEMU), started and stopped here.
    #[arg(long, conflicts_with = "port")]
    pub sim: bool,
    /// Serial port of a real board (flashed first unless --no-flash).
    #[arg(long)]
    pub port: Option<String>,
    /// Do not flash the real board first.
    #[arg(long)]
    pub no_flash: bool,
    /// Only this suite (a game name, or `protocol` for the robustness tests).
    #[arg(long)]
    pub game: Option<String>,
    /// Only scenarios whose name contains this.
    #[arg(long)]
    pub tests: Option<String>,
    /// Use the firmware whose RAM is capped at 2 KB (runs the suites whose RAM budget is
    /// at most 2 KB, or the --game suite whatever its budget).
    #[arg(long)]
    pub ram_2k: bool,
}

impl HilArgs {
    /// The simulated-board run `cargo xtask test` performs.
    pub fn simulated(ram_2k: bool) -> Self {
        Self {
            sim: true,
            ram_2k,
            ..Self::default()
        }
    }
}

/// Runs the HIL suite.
pub fn run(args: &HilArgs) -> Result<()> {
    if !args.sim && args.port.is_none() {
        bail!("say which board: --sim for the simulated micro:bit, or --port PATH for a real one");
    }
    let elf = crate::fw::build_and_report(args.ram_2k)?;
    let sizes = crate::fw::sizes(&elf)?;
    let root = sente::sim::workspace_root();
    let out = root.join("target/hil");
    let rows_dir = out.join(if args.ram_2k { "rows-2k" } else { "rows" });
    let _ = std::fs::remove_dir_all(&rows_dir);
    std::fs::create_dir_all(&rows_dir)?;

    let mut _sim = None;
    let (port, kind) = if args.sim {
        crate::setup::require_qemu()?;
        let sim = sente::sim::Simulator::start(&elf)?;
        let pty = sim.pty().to_string();
        println!("simulated board on {pty}");
        _sim = Some(sim);
        (pty, "sim")
    } else {
        let port = args.port.clone().unwrap_or_default();
        if !std::path::Path::new(&port).exists() {
            bail!(
                "no serial port at {port}: is the micro:bit plugged in? (on Linux it is usually /dev/ttyACM0)"
            );
        }
        if !args.no_flash {
            crate::flash::flash(&elf)?;
        }
        // One clear line if nothing answers there, rather than every suite failing.
        let mut board = sente::board::SerialBoard::open(&port)
            .with_context(|| format!("{port} is not a serial port Sente can use"))?;
        board
            .handshake(std::time::Duration::from_secs(5))
            .with_context(|| format!("no Sente board answers on {port}"))?;
        drop(board);
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
        .env("SENTE_HIL_STATICS", sizes.ram_static.to_string())
        .env("SENTE_HIL_ROWS", &rows_dir);
    if args.ram_2k {
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

    let title = if args.ram_2k {
        "RAM capped at 2 KB"
    } else {
        "full firmware"
    };
    let rows = crate::report::write(&rows_dir, &out, args.ram_2k, &format!("{kind}, {title}"))?;
    if !status.success() {
        bail!(
            "HIL failed ({rows} scenario rows written); see target/hil/{}.md",
            if args.ram_2k { "report-2k" } else { "report" }
        );
    }
    Ok(())
}
