//! `sente`: play in the terminal (`sente`), or let two engines play (`sente match`).

use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use sente::matches::stats::Sprt;
use sente::matches::{self, MatchOptions, TimeControl};
use sente::tui::{
    self, Launch,
    app::{Opponent, Seat, Settings},
    clock::TimeControl as Clock,
    config::Theme,
    view::{Dice, GameKind},
};

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
    /// Game to play (names and aliases from the game list; gomoku's rules standard and
    /// renju too).
    #[arg(long, help = game_help())]
    game: Option<String>,
    /// Opponent: host (engine in this process), sim or sim:BOARD (a simulated board:
    /// sim:microbit-v1, the default, or sim:stm32f405), human (a second person) or a
    /// serial port path. Given: the start screen is skipped.
    #[arg(long, value_name = "PATH|sim[:BOARD]|host|human")]
    board: Option<String>,
    /// Engine level (0 = the engine's default).
    #[arg(long, default_value_t = 0)]
    level: u8,
    /// Who moves first; `engines`: the engine plays both sides (p pauses, . steps,
    /// + and - change the speed).
    #[arg(long, value_enum, default_value_t = First::You)]
    first: First,
    /// Clocks: MINUTES+SECONDS a move (5+3, 1:30+2, 45s+1), or one per side in turn
    /// order (5+3/1+0). The engine's time comes from its clock.
    #[arg(long, value_name = "MIN+SEC")]
    tc: Option<String>,
    /// Colours: dark, light or mono (none at all); kept in the config file otherwise.
    #[arg(long, value_name = "dark|light|mono")]
    theme: Option<String>,
    /// Open a saved game: xiangqi PGN, Piskvork .psq, or Sente's record form
    /// (docs/records.md); play goes on from its last move.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "position"])]
    load: Option<std::path::PathBuf>,
    /// Start xiangqi from this FEN (optionally followed by `moves` and ICCS moves).
    #[arg(long, conflicts_with = "position")]
    fen: Option<String>,
    /// Start from this position, in the game's own text form (the `pos` of a
    /// request, e.g. `x../.o./...` for tic-tac-toe); --game names the game.
    #[arg(long)]
    position: Option<String>,
    /// EinStein: the TUI rolls seeded dice, or you type each roll of a real die.
    #[arg(long, value_enum, default_value_t = DiceArg::Seeded)]
    dice: DiceArg,
    /// Seed of the TUI's dice and the engine's requests (default: from the clock;
    /// shown on screen, so a game can be replayed).
    #[arg(long)]
    seed: Option<u64>,
    /// Chinese checkers: who plays each seat in turn order, `p` a person and `e` the
    /// engine (`peeeee`: you and five engines); the length is the player count
    /// (2, 3, 4 or 6).
    #[arg(long, value_name = "p|e…")]
    seats: Option<String>,
    /// Chinese checkers: pieces per player (10, or 15 for up to three players).
    #[arg(long, default_value_t = 10)]
    pieces: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum DiceArg {
    Seeded,
    Typed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum First {
    You,
    Engine,
    Engines,
}

/// `--game`'s help: the names the one game list knows.
fn game_help() -> String {
    format!(
        "Game to play: {}; gomoku's rules as standard, renju (default: tic-tac-toe)",
        GameKind::names()
    )
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Two engines play a series of games; prints each game and the white engine's score.
    Match(Box<MatchArgs>),
    /// Run an engine for other programs on stdin/stdout: `xiangqi` speaks UCI (and UCCI),
    /// `gomoku` the Gomocup (Piskvork) protocol with Yixin-Board's extensions.
    Engine(EngineArgs),
    /// Talk protocol v1 to a board: send each LINE (or stdin's lines) and print the replies.
    Raw(RawArgs),
}

/// `sente engine` options.
#[derive(Args, Debug)]
#[command(
    after_help = "GUIs that run an engine by its path alone: a copy or link of `sente` named \
                  pbrain-… (Piskvork, the Gomocup manager) is `sente engine gomoku`, one whose \
                  name ends in -uci or -ucci is `sente engine xiangqi`; its arguments are the \
                  engine's."
)]
struct EngineArgs {
    /// The game (xiangqi, gomoku).
    game: String,
    /// The engine: host (default), a board's serial port, or sim[:BOARD] (a simulated board).
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
    /// host, sim[:BOARD] or a serial port path.
    #[arg(long, default_value = "host")]
    board: String,
    /// Request lines (e.g. "go ttt pos x../.../..."); none: read lines from stdin.
    lines: Vec<String>,
}

/// `sente match` options.
#[derive(Args, Debug)]
struct MatchArgs {
    /// Game: ttt, gomoku (free rule; also standard, renju, caro), xiangqi, einstein or
    /// checkers (two players).
    #[arg(long, default_value = "ttt")]
    game: String,
    /// The engine scored: host (host profile), host-board (board profile), sim[:BOARD], a serial
    /// port path, uci:CMD or ucci:CMD (xiangqi engines), pbrain:CMD (gomoku brains).
    /// Moves first in odd games.
    #[arg(long, default_value = "host")]
    white: String,
    /// Its opponent (same kinds as --white). Moves first in even games.
    #[arg(long, default_value = "host")]
    black: String,
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    games: u32,
    /// Seed of everything random: the opening plies, EinStein's dice and the engines'
    /// per-move seed=. The same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Level of the white engine (per game; see docs/protocol.md).
    #[arg(long, default_value_t = 0)]
    level_white: u8,
    /// Level of the black engine.
    #[arg(long, default_value_t = 0)]
    level_black: u8,
    /// Depth limit per move for both engines (0 = none: the engine's default).
    #[arg(long, default_value_t = 0)]
    depth: u8,
    /// Node limit per move for both engines (0 = none: the engine's default).
    #[arg(long, default_value_t = 0)]
    nodes: u64,
    /// The white engine's depth limit, instead of --depth.
    #[arg(long)]
    depth_white: Option<u8>,
    /// The black engine's depth limit, instead of --depth.
    #[arg(long)]
    depth_black: Option<u8>,
    /// The white engine's node limit, instead of --nodes.
    #[arg(long)]
    nodes_white: Option<u64>,
    /// The black engine's node limit, instead of --nodes.
    #[arg(long)]
    nodes_black: Option<u64>,
    /// Ply cap: a game still running after this many plies (EinStein: cube steps) is
    /// adjudicated. 0 = the game's default: 300 for checkers (won by the side with
    /// the smaller distance to its goal), none for the others (a draw if set).
    #[arg(long, default_value_t = 0)]
    max_plies: usize,
    /// Time per move in milliseconds (the same for both engines).
    #[arg(long, conflicts_with = "tc")]
    movetime: Option<u64>,
    /// Time control per game and side: SECONDS[+INCREMENT], e.g. 10+0.1 or 1:00+1.
    /// A side whose clock runs out (plus --time-margin) loses the game.
    #[arg(long)]
    tc: Option<String>,
    /// How far past its clock (ms) an answer may come before the flag falls.
    #[arg(long, default_value_t = 100)]
    time_margin: u64,
    /// Games played at once (each with its own pair of engines).
    #[arg(long, default_value_t = 1)]
    concurrency: u32,
    /// Stop as soon as a sequential test decides: elo0=0,elo1=10[,alpha=0.05,beta=0.05]
    /// (logistic Elo, pentanomial pairs). --games is the most it plays.
    #[arg(long)]
    sprt: Option<String>,
    /// Write the games: a PGN file for xiangqi, a folder of Piskvork .psq files for
    /// gomoku, a text file of game lines for the other games.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Openings file: one opening a line, its moves from the start in the game's
    /// notation (xiangqi ICCS `h2e2 h9g7`, gomoku `h8 i9 j10`); `#` starts a comment.
    /// One opening per pair of games, in order (again from the first when the games
    /// outnumber them). Without it, each pair gets random opening plies.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
}

fn main() -> ExitCode {
    match run(Cli::parse_from(with_engine_named(
        std::env::args_os().collect(),
    ))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sente: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// The engine a program named `path` runs without a subcommand: `gomoku` for a Gomocup
/// brain's name (`pbrain-…`, as Piskvork and the Gomocup manager require), `xiangqi` for a
/// name ending in `-uci` or `-ucci` (`sente-ucci`, for GUIs that take an engine's path
/// alone); `None` for any other name (`sente`: the TUI and the subcommands).
fn engine_named_by(path: &std::path::Path) -> Option<&'static str> {
    let stem = path.file_stem()?.to_str()?.to_ascii_lowercase();
    if stem.starts_with("pbrain-") {
        Some("gomoku")
    } else if stem.ends_with("-uci") || stem.ends_with("-ucci") {
        Some("xiangqi")
    } else {
        None
    }
}

/// The command line `args` (the program's name first), with `engine GAME` put after the
/// name when it is an engine's conventional name ([`engine_named_by`]: a copy or link of
/// `sente` that a GUI runs with no arguments, or with the engine's own).
fn with_engine_named(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    if let Some(game) = args
        .first()
        .and_then(|name| engine_named_by(std::path::Path::new(name)))
    {
        args.splice(1..1, ["engine", game].map(std::ffi::OsString::from));
    }
    args
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
            depth_white: m.depth_white,
            depth_black: m.depth_black,
            nodes_white: m.nodes_white,
            nodes_black: m.nodes_black,
            max_plies: m.max_plies,
            time: match (m.movetime, &m.tc) {
                (Some(ms), _) => TimeControl::MoveTime(std::time::Duration::from_millis(ms)),
                (None, Some(tc)) => TimeControl::parse_tc(tc).map_err(anyhow::Error::msg)?,
                (None, None) => TimeControl::None,
            },
            time_margin: std::time::Duration::from_millis(m.time_margin),
            concurrency: m.concurrency,
            sprt: m
                .sprt
                .as_deref()
                .map(Sprt::parse)
                .transpose()
                .map_err(anyhow::Error::msg)?,
            out: m.out,
            openings: match &m.openings {
                Some(path) => matches::read_openings(
                    &std::fs::read_to_string(path)
                        .with_context(|| format!("--openings {}", path.display()))?,
                ),
                None => Vec::new(),
            },
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
            let fen_game = p.fen.is_some().then_some(GameKind::Xiangqi);
            let mut game = match p.game.as_deref() {
                None => fen_game.unwrap_or(GameKind::TicTacToe),
                Some(name) => match GameKind::from_name(name) {
                    Some(g) => g,
                    None => bail!(
                        "unknown game {name:?}; the TUI plays: {}",
                        GameKind::names()
                    ),
                },
            };
            let seats = match p.seats.as_deref() {
                None => Settings::DEFAULT_SEATS.to_vec(),
                Some(text) => parse_seats(text)?,
            };
            match &mut game {
                GameKind::Einstein(dice) => {
                    *dice = match p.dice {
                        DiceArg::Seeded => Dice::Seeded,
                        DiceArg::Typed => Dice::Typed,
                    }
                }
                GameKind::Checkers { players, pieces } => {
                    if p.seats.is_some() {
                        *players = seats.len() as u8;
                    }
                    *pieces = p.pieces;
                    if !sente_firmware::games::checkers::rules::valid_setup(*players, *pieces) {
                        bail!(
                            "Chinese checkers takes 2, 3, 4 or 6 players (--seats) with 10 \
                             pieces, or 15 for up to three players"
                        );
                    }
                }
                _ => {}
            }
            let opponent = match p.board.as_deref() {
                None => Opponent::Host,
                Some("human") => Opponent::Human,
                Some(spec) => Opponent::from_spec(spec),
            };
            let seed = p.seed.unwrap_or_else(clock_seed);
            let clocks = match p.tc.as_deref() {
                Some(tc) => Clock::parse_sides(tc).map_err(anyhow::Error::msg)?,
                None => Vec::new(),
            };
            let theme = p
                .theme
                .as_deref()
                .map(Theme::parse)
                .transpose()
                .map_err(anyhow::Error::msg)?;
            let open = match (&p.load, &p.fen, &p.position) {
                (Some(path), _, _) => Some(
                    std::fs::read_to_string(path)
                        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?,
                ),
                (None, Some(fen), _) => Some(format!("fen {fen}")),
                (None, None, Some(pos)) => Some(pos.clone()),
                _ => None,
            };
            let chose = p.game.is_some()
                || p.board.is_some()
                || p.level != 0
                || p.first != First::You
                || p.tc.is_some()
                || open.is_some();
            let settings = Settings {
                game,
                opponent,
                engine_first: p.first == First::Engine,
                engines_only: p.first == First::Engines,
                level: p.level.min(game.max_level()),
                seats,
                seed,
                clocks,
            };
            tui::run(Launch {
                settings,
                skip_menu: p.board.is_some() || open.is_some(),
                recall: !chose,
                theme,
                open,
                game_named: p.game.is_some(),
            })
        }
    }
}

/// Reads `--seats`: one `p` (person) or `e` (engine) per seat.
fn parse_seats(text: &str) -> anyhow::Result<Vec<Seat>> {
    let seats = text
        .chars()
        .map(|c| match c.to_ascii_lowercase() {
            'p' | 'h' => Ok(Seat::Person),
            'e' => Ok(Seat::Engine),
            other => bail!("--seats takes p (person) or e (engine) per seat, not {other:?}"),
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    if !matches!(seats.len(), 2 | 3 | 4 | 6) {
        bail!(
            "--seats lists 2, 3, 4 or 6 seats (e.g. peeeee), not {}",
            seats.len()
        );
    }
    Ok(seats)
}

/// A seed from the clock, short enough to read off the screen and type back.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_secs() % 100_000)
}

/// `sente raw`: a serial-terminal-like console for any board, for people and scripts.
fn raw(args: &RawArgs) -> anyhow::Result<()> {
    use std::io::BufRead;
    let mut link = sente::engine::EngineLink::open(&args.board)?;
    let mut send = |line: &str| -> anyhow::Result<()> {
        link.exchange(line, sente::engine::DEFAULT_TIMEOUT, &mut |reply| {
            println!("{reply}")
        })?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn an_engines_conventional_name_runs_that_engine() {
        for (name, game) in [
            ("pbrain-sente", Some("gomoku")),
            ("/opt/gomocup/PBRAIN-Sente.exe", Some("gomoku")),
            ("./engines/sente-ucci", Some("xiangqi")),
            ("sente-uci.exe", Some("xiangqi")),
            ("sente", None),
            ("target/release/sente", None),
            ("pbrain", None),
            ("uci", None),
            ("sente-ucci-old", None),
        ] {
            assert_eq!(engine_named_by(Path::new(name)), game, "{name}");
        }
    }

    #[test]
    fn a_conventional_name_reads_its_arguments_as_the_engines() {
        let parse = |args: &[&str]| {
            let args = args.iter().map(std::ffi::OsString::from).collect();
            Cli::try_parse_from(with_engine_named(args)).map(|cli| cli.command)
        };
        let Ok(Some(Command::Engine(e))) = parse(&["/x/pbrain-sente", "--level", "2"]) else {
            panic!("not an engine");
        };
        assert_eq!((e.game.as_str(), e.level), ("gomoku", 2));
        let Ok(Some(Command::Engine(e))) = parse(&["sente-ucci"]) else {
            panic!("not an engine");
        };
        assert_eq!(e.game, "xiangqi");
        // Under its own name, the TUI.
        assert!(matches!(parse(&["sente", "--game", "renju"]), Ok(None)));
    }
}
