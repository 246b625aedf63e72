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
use sente_firmware::games::registry;
use sente_firmware::games::tictactoe::TicTacToe;
use sente_firmware::games::xiangqi::Xiangqi;

use crate::player::{Player, PlayerSpec, TurnTime};
use crate::timeman::Clock;
use referee::Referee;
use stats::{Effort, Lengths, Pairs, Sprt, Summary, Verdict};

/// How much time each move gets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeControl {
    /// No clock: depth and node limits bound the engines.
    #[default]
    None,
    /// A fixed time per move (`--movetime MS`).
    MoveTime(Duration),
    /// A clock per side and game: `base` to start with, `increment` added after each
    /// move (`--tc 10+0.1`, seconds).
    Clock {
        /// Time at the start of the game.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
}

impl TimeControl {
    /// Reads `--tc`: `SECONDS[+INCREMENT]` (`10+0.1`, `60`, `0:30+1` minutes:seconds).
    pub fn parse_tc(text: &str) -> Result<Self, String> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let secs = |t: &str| -> Result<f64, String> {
            let t = t.trim();
            let value = match t.split_once(':') {
                Some((m, s)) => m
                    .parse::<f64>()
                    .ok()
                    .zip(s.parse::<f64>().ok())
                    .map(|(m, s)| m * 60.0 + s),
                None => t.parse::<f64>().ok(),
            };
            value
                .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e7)
                .ok_or_else(|| format!("--tc: {t:?} is not a time in seconds"))
        };
        let (base, inc) = (secs(base)?, secs(inc)?);
        if base == 0.0 {
            return Err("--tc: the base time must be more than 0".into());
        }
        Ok(Self::Clock {
            base: Duration::from_secs_f64(base),
            increment: Duration::from_secs_f64(inc),
        })
    }

    /// A side's clock at the start of a game.
    pub fn start(&self) -> SideClock {
        SideClock {
            control: *self,
            left: match self {
                Self::Clock { base, .. } => *base,
                _ => Duration::ZERO,
            },
        }
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideClock {
    control: TimeControl,
    /// Time left (clock controls only).
    pub left: Duration,
}

impl SideClock {
    /// The time of this side's next turn (`other` is the opponent's clock).
    pub fn turn(&self, other: &SideClock) -> TurnTime {
        match self.control {
            TimeControl::None => TurnTime::Unlimited,
            TimeControl::MoveTime(t) => TurnTime::MoveTime(t),
            TimeControl::Clock { increment, .. } => TurnTime::Clocks {
                own: Clock {
                    left: self.left,
                    increment,
                    moves_to_go: None,
                    per_move_cap: None,
                },
                opponent: other.left,
            },
        }
    }

    /// Whether an answer that took `took` came later than a fixed move time
    /// (`--movetime`) and `margin` allow (never with a clock or no limit).
    pub fn late(&self, took: Duration, margin: Duration) -> bool {
        matches!(self.control, TimeControl::MoveTime(t) if took > t + margin)
    }

    /// Charges a move that took `took`; `true` when the flag fell (more than the time
    /// left plus `margin`). With a fixed move time nothing falls.
    pub fn spend(&mut self, took: Duration, margin: Duration) -> bool {
        match self.control {
            TimeControl::Clock { increment, .. } => {
                if took > self.left + margin {
                    return true;
                }
                self.left = self.left.saturating_sub(took) + increment;
                false
            }
            _ => false,
        }
    }
}

/// What `sente match` was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchOptions {
    /// Game name (`ttt`, `gomoku`, `xiangqi`, `einstein`, `checkers`).
    pub game: String,
    /// Spec of the engine scored (see [`crate::player`]): `host`, `host-board`, `sim`,
    /// a serial port, `uci:CMD`, `ucci:CMD`, `pbrain:CMD`.
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
    /// Time per move or clocks.
    pub time: TimeControl,
    /// How far past its clock an answer may come before the flag falls.
    pub time_margin: Duration,
    /// Games played at once.
    pub concurrency: u32,
    /// Stop early when this test decides.
    pub sprt: Option<Sprt>,
    /// Where to write the games (xiangqi: a PGN file; gomoku: a folder of `.psq`
    /// files; other games: a text file of game lines).
    pub out: Option<std::path::PathBuf>,
    /// The openings to play, each the moves from the start in the game's notation,
    /// taken in order, one per pair of games, and again from the first when the
    /// games outnumber them (see [`read_openings`]). Empty: random openings.
    pub openings: Vec<Vec<String>>,
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
            time: TimeControl::None,
            time_margin: Duration::from_millis(100),
            concurrency: 1,
            sprt: None,
            out: None,
            openings: Vec::new(),
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

/// One finished game. Two records are equal when the games are: the same number,
/// colours, moves and result; the effort (wall time above all) is a measurement,
/// not part of the game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1-based number.
    pub number: u32,
    /// The white engine was player 0 (moved first).
    pub white_first: bool,
    /// How many of the first plies were the opening (random or from `--openings`).
    pub opening_plies: usize,
    /// Every move in notation, the opening and the referee's (dice) included.
    pub moves: Vec<String>,
    /// Length in the game's unit (plies; EinStein: cube steps).
    pub length: usize,
    /// The result by player number (0 moved first).
    pub outcome: Outcome,
    /// The result was adjudicated (ply cap, or a position too long for a request).
    pub adjudicated: bool,
    /// Why a side lost without the rules saying so (time, an illegal move, a failure).
    pub forfeit: Option<String>,
    /// The result in words (`X wins`, `draw`, the adjudication rule).
    pub result: String,
    /// White's score: 1, ½ or 0.
    pub white_score: f64,
    /// The white and black engines' effort in this game.
    pub effort: [Effort; 2],
}

impl PartialEq for GameRecord {
    fn eq(&self, other: &Self) -> bool {
        self.number == other.number
            && self.white_first == other.white_first
            && self.opening_plies == other.opening_plies
            && self.moves == other.moves
            && self.length == other.length
            && self.outcome == other.outcome
            && self.adjudicated == other.adjudicated
            && self.forfeit == other.forfeit
            && self.result == other.result
            && self.white_score == other.white_score
    }
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
            "game {:>3}: first={first} second={second} | {} ({} opening) | length {} | {} | white {score}",
            self.number,
            self.moves.join(separator),
            self.opening_plies,
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
    /// Games lost on time, by an illegal move or an engine failure.
    pub forfeits: u32,
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
        self.pairs
            .add(seeds::pair_of(record.number), record.white_score);
        self.first_mover.add(if record.white_first {
            record.white_score
        } else {
            1.0 - record.white_score
        });
        self.lengths.add(record.length);
        self.adjudicated += u32::from(record.adjudicated);
        self.forfeits += u32::from(record.forfeit.is_some());
        self.effort[0].merge(&record.effort[0]);
        self.effort[1].merge(&record.effort[1]);
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
            if let Some((elo, e)) = self.pairs.elo() {
                let _ = write!(s, ", Elo {elo:+.0} ± {e:.0}");
            }
        }
        if self.pairs.count() > 0 {
            let p = self.pairs.penta;
            let _ = write!(
                s,
                "\npentanomial (pairs scoring 0, ½, 1, 1½, 2 for white): [{}, {}, {}, {}, {}]",
                p[0], p[1], p[2], p[3], p[4]
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
        if self.forfeits > 0 {
            let _ = write!(
                s,
                "\nforfeited: {} games (time, illegal move or engine failure)",
                self.forfeits
            );
        }
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

/// Opens the two players of one worker: white's, then black's.
pub type Opener<'a> = dyn Fn() -> anyhow::Result<[Box<dyn Player>; 2]> + Sync + 'a;

/// Plays a whole match of one game.
type Runner =
    fn(&MatchOptions, &Opener<'_>, &mut dyn FnMut(&GameRecord, &MatchResult)) -> MatchResult;

/// One game `sente match` referees.
struct Entry {
    /// The game's wire name (its other names come from the game list).
    name: &'static str,
    /// What its length counts.
    unit: &'static str,
    /// Checks the options against the game (levels).
    check: fn(&MatchOptions) -> anyhow::Result<()>,
    /// Plays the match.
    run: Runner,
}

/// The openings of an openings file (`--openings`): one a line, its moves from the
/// start in the game's notation, separated by spaces or commas; PGN-style move
/// numbers (`1.`) are skipped, and so are blank lines and everything after `#`.
pub fn read_openings(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .map(|line| {
            line.split([' ', '\t', ','])
                .filter(|w| !w.is_empty() && !is_move_number(w))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|moves| !moves.is_empty())
        .collect()
}

/// `1.`, `12...`: a PGN move number.
fn is_move_number(word: &str) -> bool {
    let digits = word.trim_end_matches('.');
    digits.len() < word.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `Err` when an opening has a move that is not legal where it is played, or goes
/// past the end of the game.
fn check_openings<G: Referee>(options: &MatchOptions) -> anyhow::Result<()> {
    for (number, opening) in options.openings.iter().enumerate() {
        let mut pos = G::new_game(&options.game);
        for (ply, text) in opening.iter().enumerate() {
            let problem = if pos.outcome().is_some() {
                Some("the game is already over".to_string())
            } else {
                match pos.parse_move(text) {
                    Ok(mv) => {
                        pos.make(mv);
                        None
                    }
                    Err(e) => Some(e.to_string()),
                }
            };
            if let Some(problem) = problem {
                bail!(
                    "--openings: opening {} ({}), move {} {text:?}: {problem}",
                    number + 1,
                    opening.join(" "),
                    ply + 1
                );
            }
        }
    }
    Ok(())
}

/// `Err` when a level is not one the game knows (the game list says which it has),
/// or an opening is not legal.
fn check<G: Referee>(options: &MatchOptions) -> anyhow::Result<()> {
    check_openings::<G>(options)?;
    let info = registry::by_wire_name(G::NAME).context("a referee for a game not in the list")?;
    for (side, level) in [
        ("white", options.level_white),
        ("black", options.level_black),
    ] {
        if info.level(level).is_none() {
            let levels: Vec<String> = info
                .levels
                .iter()
                .map(|l| format!("{} {}", l.level, l.summary))
                .collect();
            bail!(
                "--level-{side} {level}: {} has levels 0 to {} ({})",
                G::NAME,
                info.max_level(),
                levels.join("; ")
            );
        }
    }
    Ok(())
}

const fn entry<G: Referee>(unit: &'static str) -> Entry {
    Entry {
        name: G::NAME,
        unit,
        check: check::<G>,
        run: referee::run::<G>,
    }
}

/// The games `sente match` referees (a test checks it is every game of the list).
const ENTRIES: [Entry; 5] = [
    entry::<TicTacToe>("plies"),
    entry::<Gomoku>("plies"),
    entry::<Xiangqi>("plies"),
    entry::<Einstein>("cube steps"),
    entry::<Checkers>("plies"),
];

/// The referee of the game named `game` (its wire name or an alias of the game list).
fn find(game: &str) -> anyhow::Result<&'static Entry> {
    registry::find(game)
        .and_then(|info| ENTRIES.iter().find(|e| e.name == info.name))
        .with_context(|| {
            let known: Vec<&str> = registry::GAMES.iter().map(|g| g.name).collect();
            format!(
                "sente match does not know the game {game:?} (known: {})",
                known.join(", ")
            )
        })
}

/// Checks the options before any engine is opened: known game, levels, games ≥ 1,
/// players that can play the game and run side by side.
pub fn validate(options: &MatchOptions) -> anyhow::Result<()> {
    if options.games == 0 {
        bail!("--games must be at least 1");
    }
    let entry = find(&options.game)?;
    (entry.check)(options)?;
    let wire = entry.name;
    for (side, spec) in [("white", &options.white), ("black", &options.black)] {
        let spec = PlayerSpec::parse(spec).with_context(|| format!("--{side}"))?;
        if !spec.plays(wire) {
            bail!(
                "--{side} {:?} cannot play {wire}: uci:/ucci: engines play xiangqi, pbrain: brains gomoku",
                options_spec(options, side)
            );
        }
        if options.concurrency > 1 && !spec.shareable() {
            bail!(
                "--concurrency {}: the {side} engine is a board on a serial port, which plays one game at a time",
                options.concurrency
            );
        }
    }
    if options.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    Ok(())
}

fn options_spec<'a>(options: &'a MatchOptions, side: &str) -> &'a str {
    if side == "white" {
        &options.white
    } else {
        &options.black
    }
}

/// Plays the match, each worker opening its players with `open`; `on_game` sees each
/// game as it ends (with the results so far).
pub fn run_match(
    options: &MatchOptions,
    open: &Opener<'_>,
    on_game: &mut dyn FnMut(&GameRecord, &MatchResult),
) -> MatchResult {
    match validate(options).and_then(|()| find(&options.game)) {
        Ok(e) => (e.run)(options, open, on_game),
        Err(error) => MatchResult {
            error: Some(error),
            ..MatchResult::default()
        },
    }
}

/// Opens the players `options` names.
fn open_players(options: &MatchOptions) -> anyhow::Result<[Box<dyn Player>; 2]> {
    let white = PlayerSpec::parse(&options.white)?
        .open()
        .context("cannot open the white engine")?;
    let black = PlayerSpec::parse(&options.black)?
        .open()
        .context("cannot open the black engine")?;
    Ok([white, black])
}

/// `sente match`: opens the engines, plays, prints; `Err` if an engine failed for good.
pub fn main(options: &MatchOptions) -> anyhow::Result<()> {
    validate(options)?;
    let entry = find(&options.game)?;
    let (white, black) = (options.white_limits(), options.black_limits());
    let limits =
        |l: &SideLimits| format!("level {}, depth {}, nodes {}", l.level, l.depth, l.nodes);
    let time = match options.time {
        TimeControl::None => "no clock".to_string(),
        TimeControl::MoveTime(t) => format!("{} ms a move", t.as_millis()),
        TimeControl::Clock { base, increment } => {
            format!(
                "{}+{} s a game",
                base.as_secs_f64(),
                increment.as_secs_f64()
            )
        }
    };
    println!(
        "match: {} games of {}, white = {} ({}), black = {} ({}), {time}, seed {}, {} at once",
        options.games,
        options.game,
        options.white,
        limits(&white),
        options.black,
        limits(&black),
        options.seed,
        options.concurrency,
    );
    println!("odd games: white moves first; even games: black moves first on the same opening");
    if options.game == "einstein" {
        println!("the referee rolls the dice (the same rolls in both games of a pair)");
    }
    if [&options.white, &options.black]
        .iter()
        .any(|s| *s == "sim" || s.starts_with("sim:"))
    {
        println!("starting simulated boards…");
    }
    let probe = open_players(options)?;
    println!(
        "white: {} | black: {}",
        probe[0].describe(),
        probe[1].describe()
    );
    drop(probe);
    let progress = progress_bar(options.games);
    let result = run_match(options, &|| open_players(options), &mut |g, so_far| {
        progress.suspend(|| println!("{}", g.line()));
        progress.inc(1);
        let mut msg = so_far.summary.report("white");
        if let Some(sprt) = &options.sprt {
            msg = format!("{msg} | {}", sprt.line(&so_far.pairs));
        }
        progress.set_message(msg);
    });
    progress.finish_and_clear();
    println!("{}", result.report(&options.white, entry.unit));
    if let Some(sprt) = &options.sprt {
        let verdict = match sprt.verdict(&result.pairs) {
            Verdict::H1 => {
                "H1 accepted: white is stronger by at least elo1 (at the test's error rates)"
            }
            Verdict::H0 => "H0 accepted: white is not elo1 stronger",
            Verdict::Continue => "no decision yet (more games needed)",
        };
        println!("{} — {verdict}", sprt.line(&result.pairs));
    }
    if let Some(path) = &options.out {
        crate::record::write_games(path, &options.game, options, &result.records)
            .with_context(|| format!("writing the games to {}", path.display()))?;
        println!("games written to {}", path.display());
    }
    match result.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// A progress bar on standard error (hidden when it is not a terminal).
fn progress_bar(games: u32) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(u64::from(games));
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games, {elapsed} elapsed, ETA {eta} | {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}
