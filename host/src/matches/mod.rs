//! `sente match`: two engines play a series of games and the first one's score is
//! reported with error bars.
//!
//! The referee (this module) keeps every game with the library's rules, asks the
//! engines for their moves with `go` requests, checks each answer and decides the
//! result. Games come in **pairs** with colours swapped: in odd-numbered games the
//! `--white` engine is player 0 (moves first: X, red, player 1), in even-numbered
//! games the `--black` engine is, on the same opening (and, in EinStein, the same
//! dice). Scores are always reported for the `--white` engine.
//!
//! Each game has a [`referee::Referee`] adapter (start position, chance moves,
//! random openings, ply cap and adjudication): [`classic`] (tic-tac-toe, gomoku,
//! xiangqi), [`einstein`], [`checkers`]. Every random choice is derived from `--seed`
//! ([`seeds`]), so the same command gives the same games, move for move, on every
//! engine kind. The numbers are in [`stats`].

pub mod checkers;
pub mod classic;
pub mod einstein;
pub mod referee;
pub mod seeds;
pub mod stats;
#[cfg(test)]
mod tests;

use std::fmt::Write as _;
use std::time::Duration;

use anyhow::{Context, bail};
use sente_firmware::game::Outcome;
use sente_firmware::games::checkers::Checkers;
use sente_firmware::games::einstein::Einstein;
use sente_firmware::games::gomoku::Gomoku;
use sente_firmware::games::tictactoe::TicTacToe;
use sente_firmware::games::xiangqi::Xiangqi;

use crate::engine::EngineLink;
use referee::Referee;
use stats::{Effort, Lengths, Pairs, Summary};

/// What `sente match` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchOptions {
    /// Game name (`ttt`, `gomoku`, `xiangqi`, `einstein`, `checkers`).
    pub game: String,
    /// Spec of the engine scored: `host`, `sim` or a serial port.
    pub white: String,
    /// Spec of its opponent.
    pub black: String,
    /// Number of games.
    pub games: u32,
    /// Seed of everything random: openings, dice and the engines' `seed=`.
    pub seed: u64,
    /// Level of the white engine (0 = default).
    pub level_white: u8,
    /// Level of the black engine (0 = default).
    pub level_black: u8,
    /// Depth limit for both (0 = none).
    pub depth: u8,
    /// Node limit for both (0 = none).
    pub nodes: u64,
    /// The white engine's own depth limit, instead of `depth`.
    pub depth_white: Option<u8>,
    /// The black engine's own depth limit, instead of `depth`.
    pub depth_black: Option<u8>,
    /// The white engine's own node limit, instead of `nodes`.
    pub nodes_white: Option<u64>,
    /// The black engine's own node limit, instead of `nodes`.
    pub nodes_black: Option<u64>,
    /// Ply cap after which a game is adjudicated (0 = the game's default).
    pub max_plies: usize,
}

impl Default for MatchOptions {
    fn default() -> Self {
        Self {
            game: "ttt".into(),
            white: "host".into(),
            black: "host".into(),
            games: 10,
            seed: 1,
            level_white: 0,
            level_black: 0,
            depth: 0,
            nodes: 0,
            depth_white: None,
            depth_black: None,
            nodes_white: None,
            nodes_black: None,
            max_plies: 0,
        }
    }
}

/// Level and limits of one side's requests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideLimits {
    /// Engine level (0 = default).
    pub level: u8,
    /// Depth limit (0 = none).
    pub depth: u8,
    /// Node limit (0 = none).
    pub nodes: u64,
}

impl MatchOptions {
    /// The white engine's level and limits (its own where given, else both sides').
    pub fn white_limits(&self) -> SideLimits {
        SideLimits {
            level: self.level_white,
            depth: self.depth_white.unwrap_or(self.depth),
            nodes: self.nodes_white.unwrap_or(self.nodes),
        }
    }

    /// The black engine's level and limits.
    pub fn black_limits(&self) -> SideLimits {
        SideLimits {
            level: self.level_black,
            depth: self.depth_black.unwrap_or(self.depth),
            nodes: self.nodes_black.unwrap_or(self.nodes),
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// 1-based number.
    pub number: u32,
    /// The white engine was player 0 (moved first).
    pub white_first: bool,
    /// How many of the first plies were random.
    pub random_plies: usize,
    /// Every move in notation, the random opening and the referee's (dice) included.
    pub moves: Vec<String>,
    /// Length in the game's unit (plies; EinStein: cube steps).
    pub length: usize,
    /// The result by player number (0 moved first).
    pub outcome: Outcome,
    /// The result was adjudicated (ply cap, or a position too long for a request).
    pub adjudicated: bool,
    /// The result in words (`X wins`, `draw`, the adjudication rule).
    pub result: String,
    /// White's score: 1, ½ or 0.
    pub white_score: f64,
}

impl GameRecord {
    /// The line printed for this game.
    pub fn line(&self) -> String {
        let (first, second) = if self.white_first {
            ("white", "black")
        } else {
            ("black", "white")
        };
        let score = match self.white_score {
            s if s >= 1.0 => "1",
            s if s <= 0.0 => "0",
            _ => "½",
        };
        // Moves of more than one word (`roll 4`, `setup 615243`) are separated by commas.
        let separator = if self.moves.iter().any(|m| m.contains(' ')) {
            ", "
        } else {
            " "
        };
        format!(
            "game {:>3}: first={first} second={second} | {} ({} random) | length {} | {} | white {score}",
            self.number,
            self.moves.join(separator),
            self.random_plies,
            self.length,
            self.result,
        )
    }
}

/// How a match went: the games, the numbers, and the error that stopped it, if any.
#[derive(Debug, Default)]
pub struct MatchResult {
    /// The finished games.
    pub records: Vec<GameRecord>,
    /// White's results.
    pub summary: Summary,
    /// White's results per pair of games.
    pub pairs: Pairs,
    /// The first mover's results (how much moving first is worth).
    pub first_mover: Summary,
    /// Game lengths.
    pub lengths: Lengths,
    /// Games adjudicated.
    pub adjudicated: u32,
    /// The white and black engines' effort.
    pub effort: [Effort; 2],
    /// Wall time of the games.
    pub elapsed: Duration,
    /// Why the match stopped early (a board failed, an illegal move).
    pub error: Option<anyhow::Error>,
}

impl MatchResult {
    /// Counts a finished game.
    fn add(&mut self, record: &GameRecord) {
        self.summary.add(record.white_score);
        self.pairs.add(record.white_score);
        self.first_mover.add(if record.white_first {
            record.white_score
        } else {
            1.0 - record.white_score
        });
        self.lengths.add(record.length);
        self.adjudicated += u32::from(record.adjudicated);
    }

    /// The closing report: score with error bars, pairs, lengths, effort, time.
    pub fn report(&self, white: &str, unit: &str) -> String {
        let mut s = self.summary.report(white);
        if let (Some((m, err)), None) = (self.pairs.score(), self.summary.unanimous_bound()) {
            let _ = write!(
                s,
                "\npairs: {} (colours swapped), score {:.1} % ± {:.1} % (95 %, over pair scores)",
                self.pairs.count(),
                100.0 * m,
                100.0 * err
            );
        }
        if let Some(mean) = self.lengths.mean() {
            let _ = write!(
                s,
                "\nlength: average {mean:.1} {unit} ({:.1} per player), shortest {}, longest {}",
                mean / 2.0,
                self.lengths.min,
                self.lengths.max
            );
        }
        if let Some((m, _)) = self.first_mover.score() {
            let f = &self.first_mover;
            let _ = write!(
                s,
                "\nfirst mover: +{} ={} -{} ({:.1} %)",
                f.wins,
                f.draws,
                f.losses,
                100.0 * m
            );
        }
        let _ = write!(s, "\nadjudicated: {} games", self.adjudicated);
        let _ = write!(
            s,
            "\nwhite: {} | black: {}",
            self.effort[0].line(),
            self.effort[1].line()
        );
        let _ = write!(
            s,
            "\nwall time: {:.1} s for {} games",
            self.elapsed.as_secs_f64(),
            self.summary.games()
        );
        s
    }
}

/// Plays a whole match of one game between two open links.
type Runner =
    fn(&MatchOptions, &mut EngineLink, &mut EngineLink, &mut dyn FnMut(&GameRecord)) -> MatchResult;

/// One game `sente match` referees.
struct Entry {
    /// Names accepted by `--game` (the first is the wire name).
    names: &'static [&'static str],
    /// What its length counts.
    unit: &'static str,
    /// Checks the options against the game (levels).
    check: fn(&MatchOptions) -> anyhow::Result<()>,
    /// Plays the match.
    run: Runner,
}

/// `Err` when a level is not one the game knows.
fn check<G: Referee>(options: &MatchOptions) -> anyhow::Result<()> {
    if let Some(max) = G::MAX_LEVEL {
        for (side, level) in [
            ("white", options.level_white),
            ("black", options.level_black),
        ] {
            if level > max {
                bail!(
                    "--level-{side} {level}: {} has levels 0 to {max} ({})",
                    G::NAME,
                    G::LEVELS
                );
            }
        }
    }
    Ok(())
}

const fn entry<G: Referee>(names: &'static [&'static str], unit: &'static str) -> Entry {
    Entry {
        names,
        unit,
        check: check::<G>,
        run: referee::run::<G>,
    }
}

/// The games, in the order the help lists them.
const ENTRIES: [Entry; 5] = [
    entry::<TicTacToe>(&["ttt", "tictactoe", "tic-tac-toe"], "plies"),
    entry::<Gomoku>(&["gomoku", "free"], "plies"),
    entry::<Xiangqi>(&["xiangqi"], "plies"),
    entry::<Einstein>(&["einstein"], "cube steps"),
    entry::<Checkers>(&["checkers"], "plies"),
];

/// Games `sente match` can referee (wire names).
pub const GAMES: [&str; 5] = ["ttt", "gomoku", "xiangqi", "einstein", "checkers"];

fn find(game: &str) -> anyhow::Result<&'static Entry> {
    ENTRIES
        .iter()
        .find(|e| e.names.contains(&game))
        .with_context(|| {
            format!(
                "sente match does not know the game {game:?} (known: {})",
                GAMES.join(", ")
            )
        })
}

/// Checks the options before any engine is opened: known game, levels, games ≥ 1.
pub fn validate(options: &MatchOptions) -> anyhow::Result<()> {
    if options.games == 0 {
        bail!("--games must be at least 1");
    }
    (find(&options.game)?.check)(options)
}

/// Plays the match between two open links, calling `on_game` after each game.
pub fn run_match(
    options: &MatchOptions,
    white: &mut EngineLink,
    black: &mut EngineLink,
    on_game: &mut dyn FnMut(&GameRecord),
) -> MatchResult {
    match find(&options.game).and_then(|e| (e.check)(options).map(|()| e)) {
        Ok(e) => (e.run)(options, white, black, on_game),
        Err(error) => MatchResult {
            error: Some(error),
            ..MatchResult::default()
        },
    }
}

/// `sente match`: opens both engines, plays, prints; `Err` if a board failed.
pub fn main(options: &MatchOptions) -> anyhow::Result<()> {
    validate(options)?;
    let unit = find(&options.game)?.unit;
    let (white, black) = (options.white_limits(), options.black_limits());
    let limits =
        |l: &SideLimits| format!("level {}, depth {}, nodes {}", l.level, l.depth, l.nodes);
    println!(
        "match: {} games of {}, white = {} ({}), black = {} ({}), seed {}",
        options.games,
        options.game,
        options.white,
        limits(&white),
        options.black,
        limits(&black),
        options.seed,
    );
    println!("odd games: white moves first; even games: black moves first on the same opening");
    if options.game == "einstein" {
        println!("the referee rolls the dice (the same rolls in both games of a pair)");
    }
    let open = |spec: &str, side: &str| {
        if spec == "sim" {
            println!("starting simulated board for {side}…");
        }
        EngineLink::open(spec).with_context(|| format!("cannot open the {side} engine {spec:?}"))
    };
    let mut white = open(&options.white, "white")?;
    let mut black = open(&options.black, "black")?;
    println!("white: {} | black: {}", white.describe(), black.describe());
    let result = run_match(options, &mut white, &mut black, &mut |g| {
        println!("{}", g.line())
    });
    println!("{}", result.report(&options.white, unit));
    match result.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
