//! `cargo xtask …`: the developer and CI entry point for everything beyond `cargo build`.

mod flash;
mod fw;
mod hil;
mod report;
mod setup;
mod suite;

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::{Args, Parser, Subcommand};
use sente::boards::{self, BoardSpec};

#[derive(Parser)]
#[command(name = "cargo xtask", about = "Sente build, board and test tasks")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

/// Which board, and which of its builds.
#[derive(Args, Clone, Debug, Default)]
pub struct BoardArgs {
    /// The board (see `cargo xtask boards`); default: the micro:bit v1.
    #[arg(long, value_name = "NAME")]
    pub board: Option<String>,
    /// The build whose RAM region is capped at 2 KB by the linker (micro:bit v1).
    #[arg(long)]
    pub ram_2k: bool,
}

impl BoardArgs {
    /// The board named, or the default one; checks that it has the build asked for.
    pub fn spec(&self) -> Result<&'static BoardSpec> {
        let board = match &self.board {
            Some(name) => boards::lookup(name)?,
            None => boards::DEFAULT,
        };
        if self.ram_2k && !board.ram_2k {
            bail!("the {} has no 2 KB build (--ram-2k)", board.name);
        }
        Ok(board)
    }
}

#[derive(Subcommand)]
enum Task {
    /// List the boards: chip, core, clock, memory, probe, simulator.
    Boards,
    /// Build a board's firmware and print its flash and RAM use.
    Fw {
        #[command(flatten)]
        board: BoardArgs,
        /// Build every board's firmware (and the 2 KB build).
        #[arg(long, conflicts_with = "board")]
        all: bool,
    },
    /// Flash the firmware to a real board through a debug probe (probe-rs).
    Flash {
        #[command(flatten)]
        board: BoardArgs,
    },
    /// Start a simulated board and print its serial path; Ctrl-C stops it.
    Sim {
        #[command(flatten)]
        board: BoardArgs,
    },
    /// Hardware-in-the-loop: every scenario on the board must equal the host engine.
    Hil(hil::HilArgs),
    /// Criterion benchmarks of the engines on the host.
    Bench {
        /// Only benchmarks whose name contains this.
        filter: Option<String>,
    },
    /// Everything: install what is missing, fmt, clippy, unit/integration tests, every
    /// board's firmware, HIL on the simulated boards.
    Test,
}

/// The workspace root (xtask runs from the source tree, so its own location is fine).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."))
}

fn main() {
    if let Err(e) = run(Cli::parse().task) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

fn run(task: Task) -> Result<()> {
    match task {
        Task::Boards => {
            list_boards();
            Ok(())
        }
        Task::Fw { board, all: false } => {
            fw::build_and_report(board.spec()?, board.ram_2k).map(|_| ())
        }
        Task::Fw { all: true, .. } => fw::build_all().map(|_| ()),
        Task::Flash { board } => {
            let spec = board.spec()?;
            let elf = fw::build_and_report(spec, board.ram_2k)?;
            flash::flash(spec, &elf)
        }
        Task::Sim { board } => {
            let spec = board.spec()?;
            setup::require_simulator(spec)?;
            let elf = fw::build_and_report(spec, board.ram_2k)?;
            let mut sim = sente::sim::Simulator::start(spec, &elf)?;
            println!(
                "simulated {} running; serial port: {}",
                spec.title,
                sim.pty()
            );
            println!(
                "try: sente --board {}   (Ctrl-C stops the board)",
                sim.pty()
            );
            sim.wait()?;
            Ok(())
        }
        Task::Hil(args) => hil::run(&args),
        Task::Bench { filter } => suite::bench(filter.as_deref()),
        Task::Test => suite::test_everything(),
    }
}

/// `cargo xtask boards`.
fn list_boards() {
    let tw = boards::BOARDS
        .iter()
        .map(|b| b.title.len())
        .max()
        .unwrap_or(0);
    let cw = boards::BOARDS
        .iter()
        .map(|b| b.chip.len())
        .max()
        .unwrap_or(0);
    println!(
        "{:<12} {:<tw$} {:<cw$} {:<10} {:>8} {:>6} {:>6} {:>6}  {:<14} simulator",
        "board", "", "chip", "core", "clock", "flash", "RAM", "arena", "probe-rs chip"
    );
    for b in boards::BOARDS {
        let kb = |bytes: u32| format!("{}K", bytes / 1024);
        println!(
            "{:<12} {:<tw$} {:<cw$} {:<10} {:>5} MHz {:>6} {:>6} {:>6}  {:<14} {}",
            b.name,
            b.title,
            b.chip,
            b.core,
            b.hz / 1_000_000,
            kb(b.flash),
            kb(b.ram),
            kb(b.arena),
            b.probe,
            b.sim
                .map_or("none (real board only)".to_string(), |s| s.to_string())
        );
    }
    println!("\nrust targets: {}", {
        let mut t: Vec<&str> = boards::BOARDS.iter().map(|b| b.target).collect();
        t.sort();
        t.dedup();
        t.join(", ")
    });
    println!("cargo xtask fw|flash|sim|hil --board NAME; sente --board sim:NAME");
}
