//! `sente`: play in the terminal (`sente`), or let two engines play (`sente match`).

use std::process::ExitCode;

use anyhow::bail;
use clap::{Args, Parser, Subcommand, ValueEnum};
use sente::matches::{self, MatchOptions};
use sente::tui::{self, app::Opponent, app::Settings, view::GameKind};

/// Board games against a micro:bit engine: the TUI, or engine matches.
#[derive(Parser, Debug)]
#[command(name = "sente", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
}

/// Options of the TUI; those given skip the start screen's questions.
#[derive(Args, Debug)]
struct PlayArgs {
    /// Game to play: ttt (tic-tac-toe), gomoku (free rule), standard, renju or xiangqi.
    #[arg(long)]
    game: Option<String>,
    /// Opponent: host (engine in this process), sim (simulated board in QEMU), human
    /// (a second person) or a serial port path. Given: the start screen is skipped.
    #[arg(long, value_name = "PATH|sim|host|human")]
    board: Option<String>,
    /// Engine level (0 = the engine's default).
    #[arg(long, default_value_t = 0)]
    level: u8,
    /// Who moves first.
    #[arg(long, value_enum, default_value_t = First::You)]
    first: First,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum First {
    You,
    Engine,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Two engines play a series of games; prints each game and the white engine's score.
    Match(MatchArgs),
    /// Run an engine for other programs on stdin/stdout: `xiangqi` speaks UCI (and UCCI),
    /// `gomoku` the Gomocup (Piskvork) protocol with Yixin-Board's extensions.
    Engine(EngineArgs),
    /// Talk protocol v1 to a board: send each LINE (or stdin's lines) and print the replies.
    Raw(RawArgs),
}

/// `sente engine` options.
#[derive(Args, Debug)]
struct EngineArgs {
    /// The game (xiangqi, gomoku).
    game: String,
    /// The engine: host (default), a board's serial port, or the simulated board.
    #[arg(long, default_value = "host", conflicts_with = "sim")]
    board: String,
    /// Use the simulated board (same as --board sim).
    #[arg(long)]
    sim: bool,
    /// Engine level for gomoku (0 default, 1 pattern, 2 strong without its own
    /// budget, bounded by `INFO timeout_turn`); `INFO level N` changes it too.
    #[arg(long, default_value_t = 0)]
    level: u8,
}

/// `sente raw` options.
#[derive(Args, Debug)]
struct RawArgs {
    /// host, sim or a serial port path.
    #[arg(long, default_value = "host")]
    board: String,
    /// Request lines (e.g. "go ttt pos x../.../..."); none: read lines from stdin.
    lines: Vec<String>,
}

/// `sente match` options.
#[derive(Args, Debug)]
struct MatchArgs {
    /// Game: ttt, gomoku (free rule) or xiangqi.
    #[arg(long, default_value = "ttt")]
    game: String,
    /// The engine scored: host, sim or a serial port path. Moves first in odd games.
    #[arg(long, default_value = "host")]
    white: String,
    /// Its opponent: host, sim or a serial port path. Moves first in even games.
    #[arg(long, default_value = "host")]
    black: String,
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    games: u32,
    /// Seed for the random opening plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Level of the white engine.
    #[arg(long, default_value_t = 0)]
    level_white: u8,
    /// Level of the black engine.
    #[arg(long, default_value_t = 0)]
    level_black: u8,
    /// Depth limit per move (0 = none).
    #[arg(long, default_value_t = 0)]
    depth: u8,
    /// Node limit per move (0 = none).
    #[arg(long, default_value_t = 0)]
    nodes: u64,
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sente: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Some(Command::Match(m)) => matches::main(&MatchOptions {
            game: m.game,
            white: m.white,
            black: m.black,
            games: m.games,
            seed: m.seed,
            level_white: m.level_white,
            level_black: m.level_black,
            depth: m.depth,
            nodes: m.nodes,
        }),
        Some(Command::Raw(r)) => raw(&r),
        Some(Command::Engine(e)) => {
            let board = if e.sim { "sim" } else { e.board.as_str() };
            match e.game.as_str() {
                "xiangqi" => sente::uci::main(board),
                "gomoku" => sente::gomocup::main(board, e.level),
                other => bail!(
                    "no engine protocol for {other:?} yet; `sente engine xiangqi` speaks \
                     UCI/UCCI, `sente engine gomoku` the Gomocup (Piskvork) protocol"
                ),
            }
        }
        None => {
            let p = cli.play;
            let game = match p.game.as_deref() {
                None => GameKind::TicTacToe,
                Some(name) => match GameKind::from_name(name) {
                    Some(g) => g,
                    None => bail!("unknown game {name:?}; the TUI plays: {}", GameKind::NAMES),
                },
            };
            let opponent = match p.board.as_deref() {
                None => Opponent::Host,
                Some("human") => Opponent::Human,
                Some(spec) => Opponent::from_spec(spec),
            };
            let settings = Settings {
                game,
                opponent,
                engine_first: p.first == First::Engine,
                level: p.level,
            };
            tui::run(settings, p.board.is_some())
        }
    }
}

/// `sente raw`: a serial-terminal-like console for any board, for people and scripts.
fn raw(args: &RawArgs) -> anyhow::Result<()> {
    use std::io::BufRead;
    let mut link = sente::engine::EngineLink::open(&args.board)?;
    let mut send = |line: &str| -> anyhow::Result<()> {
        for reply in link.exchange(line, sente::engine::DEFAULT_TIMEOUT, &mut |info| {
            println!("{}", info.raw)
        })? {
            if reply.kind != "info" {
                println!("{}", reply.raw);
            }
        }
        Ok(())
    };
    if args.lines.is_empty() {
        for line in std::io::stdin().lock().lines() {
            let line = line?;
            if !line.trim().is_empty() {
                send(line.trim())?;
            }
        }
    } else {
        for line in &args.lines {
            send(line)?;
        }
    }
    Ok(())
}
