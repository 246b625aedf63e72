//! `cargo xtask …`: the developer and CI entry point for everything beyond `cargo build`.

mod flash;
mod fw;
mod hil;
mod report;
mod setup;
mod suite;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "cargo xtask", about = "Sente build, board and test tasks")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Build the micro:bit firmware and print its flash and RAM use.
    Fw {
        /// Build the variant whose RAM region is capped at 2 KB by the linker.
        #[arg(long)]
        ram_2k: bool,
    },
    /// Flash the firmware to a micro:bit through its on-board probe (probe-rs).
    Flash {
        /// Flash the 2 KB-RAM variant.
        #[arg(long)]
        ram_2k: bool,
    },
    /// Start the simulated board (QEMU -M microbit) and print its serial path; Ctrl-C stops it.
    Sim {
        /// Run the 2 KB-RAM variant.
        #[arg(long)]
        ram_2k: bool,
    },
    /// Hardware-in-the-loop: every scenario on the board must equal the host engine.
    Hil(hil::HilArgs),
    /// Criterion benchmarks of the engines on the host.
    Bench {
        /// Only benchmarks whose name contains this.
        filter: Option<String>,
    },
    /// Everything: install what is missing, fmt, clippy, unit/integration tests, HIL on the simulated board.
    Test,
}

fn main() {
    if let Err(e) = run(Cli::parse().task) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

fn run(task: Task) -> Result<()> {
    match task {
        Task::Fw { ram_2k } => fw::build_and_report(ram_2k).map(|_| ()),
        Task::Flash { ram_2k } => {
            let elf = fw::build_and_report(ram_2k)?;
            flash::flash(&elf)
        }
        Task::Sim { ram_2k } => {
            setup::require_qemu()?;
            let elf = fw::build_and_report(ram_2k)?;
            let mut sim = sente::sim::Simulator::start(&elf)?;
            println!("simulated micro:bit running; serial port: {}", sim.pty());
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
