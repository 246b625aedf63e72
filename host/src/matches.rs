//! `sente match`: two engines play a series of games and the first one's score is
//! reported with error bars.
//!
//! Games come in pairs that share an opening: the first one or two plies (the count
//! and the moves drawn from a splitmix64 generator seeded with `--seed`) are played
//! at random, then the engines alternate `go` requests. In odd-numbered games the
//! `--white` engine moves first (plays X in tic-tac-toe); in even-numbered games the
//! `--black` engine moves first, on the same opening, so colours and openings are
//! balanced. Scores are always reported for the `--white` engine.

use std::fmt::Write as _;

use anyhow::{Context, anyhow, bail};
use sente_firmware::game::{Notation, Outcome};
use sente_firmware::games::gomoku::Gomoku;
use sente_firmware::games::tictactoe::TicTacToe;
use sente_firmware::games::xiangqi::Xiangqi;

use crate::engine::{EngineLink, GoRequest};

/// Games `sente match` can referee (wire names).
pub const GAMES: [&str; 3] = ["ttt", "gomoku", "xiangqi"];

/// splitmix64: a tiny, well-mixed 64-bit generator (Steele, Lea & Flood 2014).
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0; the tiny modulo bias does not matter here).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// What `sente match` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchOptions {
    /// Game name on the wire (`ttt`).
    pub game: String,
    /// Spec of the engine scored: `host`, `sim` or a serial port.
    pub white: String,
    /// Spec of its opponent.
    pub black: String,
    /// Number of games.
    pub games: u32,
    /// Seed of the random openings (and of the engines' `seed=`).
    pub seed: u64,
    /// Level of the white engine (0 = default).
    pub level_white: u8,
    /// Level of the black engine (0 = default).
    pub level_black: u8,
    /// Depth limit for both (0 = none).
    pub depth: u8,
    /// Node limit for both (0 = none).
    pub nodes: u64,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// 1-based number.
    pub number: u32,
    /// The white engine moved first.
    pub white_first: bool,
    /// How many of the first plies were random.
    pub random_plies: usize,
    /// All moves in notation.
    pub moves: Vec<String>,
    /// The result by player number (0 moved first).
    pub outcome: Outcome,
    /// The result in words (`X wins`, `draw`).
    pub result: String,
    /// White's score: 1, ½ or 0.
    pub white_score: f64,
}

impl GameRecord {
    /// The line printed for this game.
    pub fn line(&self) -> String {
        let (x, o) = if self.white_first {
            ("white", "black")
        } else {
            ("black", "white")
        };
        let score = match self.white_score {
            s if s >= 1.0 => "1",
            s if s <= 0.0 => "0",
            _ => "½",
        };
        format!(
            "game {:>3}: first={x} second={o} | {} ({} random) | {} | white {score}",
            self.number,
            self.moves.join(" "),
            self.random_plies,
            self.result,
        )
    }
}

/// The white engine's results.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Games white won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games white lost.
    pub losses: u32,
}

impl Summary {
    /// Adds a game with white's score 1, ½ or 0.
    pub fn add(&mut self, white_score: f64) {
        if white_score >= 1.0 {
            self.wins += 1;
        } else if white_score <= 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Number of games.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game (0..1) and the half-width of its 95 % interval (normal
    /// approximation over the per-game scores, sample variance). `None` with no games.
    pub fn score(&self) -> Option<(f64, f64)> {
        let n = f64::from(self.games());
        if n == 0.0 {
            return None;
        }
        let (w, d, l) = (
            f64::from(self.wins),
            f64::from(self.draws),
            f64::from(self.losses),
        );
        let mean = (w + 0.5 * d) / n;
        let var = if n > 1.0 {
            (w * (1.0 - mean).powi(2) + d * (0.5 - mean).powi(2) + l * mean.powi(2)) / (n - 1.0)
        } else {
            0.0
        };
        Some((mean, 1.96 * (var / n).sqrt()))
    }

    /// Elo difference (white minus black) and its 95 % error (delta method), defined
    /// when the score is strictly between 0 and 1.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let (m, err) = self.score()?;
        if m <= 0.0 || m >= 1.0 {
            return None;
        }
        let elo = -400.0 * (1.0 / m - 1.0).log10();
        let slope = 400.0 / (std::f64::consts::LN_10 * m * (1.0 - m));
        Some((elo, err * slope))
    }

    /// The closing report.
    pub fn report(&self, white: &str) -> String {
        let mut s = format!(
            "white ({white}): {} games, +{} ={} -{}",
            self.games(),
            self.wins,
            self.draws,
            self.losses
        );
        if let Some((m, err)) = self.score() {
            let _ = write!(
                s,
                ", score {:.1} % ± {:.1} % (95 %)",
                100.0 * m,
                100.0 * err
            );
        }
        match self.elo() {
            Some((elo, err)) => {
                let elo = if elo.abs() < 0.5 { 0.0 } else { elo };
                let _ = write!(s, ", Elo {elo:+.0} ± {err:.0}");
            }
            None if self.games() > 0 => s.push_str(", Elo undefined (score 0 % or 100 %)"),
            None => {}
        }
        s
    }
}

/// Limits and levels for one side's requests.
#[derive(Clone, Copy, Debug, Default)]
struct SideLimits {
    level: u8,
    depth: u8,
    nodes: u64,
}

/// A random opening of `plies` moves from the start, using the game's move generator
/// (stops early if the game ends).
pub fn random_opening<G: Notation + Default>(rng: &mut SplitMix64, plies: usize) -> Vec<String> {
    let mut pos = G::default();
    let mut out = Vec::new();
    for _ in 0..plies {
        let mut moves = G::Moves::default();
        pos.generate(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        let mut name = String::new();
        let _ = pos.write_move(mv, &mut name);
        out.push(name);
        pos.make(mv);
    }
    out
}

/// The position as the request carries it. Xiangqi games outgrow a request line with
/// every move from the start, so long ones go as the FEN reached plus the recent moves.
fn request_position<G: Notation>(pos: &G, moves: &[String]) -> String {
    if G::NAME == "xiangqi" {
        let game = crate::uci::GamePosition {
            root: "startpos".into(),
            moves: moves.to_vec(),
        };
        if let Ok(text) =
            game.wire("go xiangqi depth=255 nodes=4294967295 level=2 seed=18446744073709551615")
        {
            return text;
        }
    }
    let mut text = String::new();
    let _ = pos.write_position(&mut text);
    text
}

/// Plays one game: the opening, then `first` and `second` alternate `go`. `names`
/// name the engines in errors. Returns the moves and the outcome; a game whose position
/// no longer fits a request line (a nearly full gomoku board) is adjudicated a draw,
/// marked by `None` in place of the outcome.
fn play_game<G: Notation + Default>(
    links: [&mut EngineLink; 2],
    limits: [SideLimits; 2],
    names: [&str; 2],
    opening: &[String],
    seed: u64,
) -> anyhow::Result<(Vec<String>, Option<Outcome>)> {
    let mut pos = G::default();
    let mut moves = Vec::new();
    for text in opening {
        let mv = pos
            .parse_move(text)
            .map_err(|e| anyhow!("opening move {text}: {e}"))?;
        pos.make(mv);
        moves.push(text.clone());
    }
    let [a, b] = links;
    let links = [a, b];
    while pos.outcome().is_none() {
        let side = usize::from(pos.player_to_move() % 2);
        let position = request_position(&pos, &moves);
        let request = GoRequest {
            game: G::NAME.to_string(),
            position,
            depth: limits[side].depth,
            nodes: limits[side].nodes,
            level: limits[side].level,
            seed,
            ..GoRequest::default()
        };
        if request.line().len() > sente_firmware::protocol::MAX_LINE {
            return Ok((moves, None));
        }
        let best = links[side]
            .go(&request, &mut |_| {})
            .with_context(|| format!("{} engine failed", names[side]))?;
        let mv = pos.parse_move(&best.best).map_err(|e| {
            anyhow!(
                "{} engine played {:?}, which is illegal here: {e}",
                names[side],
                best.best
            )
        })?;
        pos.make(mv);
        moves.push(best.best);
    }
    Ok((moves, Some(pos.outcome().unwrap_or(Outcome::Draw))))
}

/// How a match ended: the score so far, and the error that stopped it, if any.
#[derive(Debug)]
pub struct MatchResult {
    /// The finished games.
    pub records: Vec<GameRecord>,
    /// White's results.
    pub summary: Summary,
    /// Why the match stopped early (a board failed).
    pub error: Option<anyhow::Error>,
}

/// Plays the match between two open links, calling `on_game` after each game.
pub fn run_match(
    options: &MatchOptions,
    white: &mut EngineLink,
    black: &mut EngineLink,
    on_game: &mut dyn FnMut(&GameRecord),
) -> MatchResult {
    match options.game.as_str() {
        "ttt" | "tictactoe" | "tic-tac-toe" => {
            run_typed::<TicTacToe>(options, white, black, on_game)
        }
        "gomoku" | "free" => run_typed::<Gomoku>(options, white, black, on_game),
        "xiangqi" => run_typed::<Xiangqi>(options, white, black, on_game),
        other => MatchResult {
            records: Vec::new(),
            summary: Summary::default(),
            error: Some(anyhow!(
                "sente match does not know the game {other:?} yet (known: ttt, gomoku, xiangqi)"
            )),
        },
    }
}

fn run_typed<G: Notation + Default>(
    options: &MatchOptions,
    white: &mut EngineLink,
    black: &mut EngineLink,
    on_game: &mut dyn FnMut(&GameRecord),
) -> MatchResult {
    let mut rng = SplitMix64::new(options.seed);
    let mut result = MatchResult {
        records: Vec::new(),
        summary: Summary::default(),
        error: None,
    };
    let white_limits = SideLimits {
        level: options.level_white,
        depth: options.depth,
        nodes: options.nodes,
    };
    let black_limits = SideLimits {
        level: options.level_black,
        depth: options.depth,
        nodes: options.nodes,
    };
    let mut opening = Vec::new();
    let mut seed = 0;
    for number in 1..=options.games {
        let white_first = number % 2 == 1;
        if white_first {
            let plies = 1 + rng.below(2);
            opening = random_opening::<G>(&mut rng, plies);
            seed = rng.next_u64();
        }
        let played = if white_first {
            play_game::<G>(
                [&mut *white, &mut *black],
                [white_limits, black_limits],
                ["white", "black"],
                &opening,
                seed,
            )
        } else {
            play_game::<G>(
                [&mut *black, &mut *white],
                [black_limits, white_limits],
                ["black", "white"],
                &opening,
                seed,
            )
        };
        let (moves, finished) = match played {
            Ok(x) => x,
            Err(e) => {
                result.error = Some(e.context(format!("game {number}")));
                return result;
            }
        };
        let white_player = if white_first { 0 } else { 1 };
        let outcome = finished.unwrap_or(Outcome::Draw);
        let white_score = match outcome {
            Outcome::Win(p) if p == white_player => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        };
        let result_text = match finished {
            Some(Outcome::Win(p)) => format!("player {} wins", p + 1),
            Some(Outcome::Draw) => "draw".to_string(),
            None => "draw (adjudicated: the position no longer fits a request line)".to_string(),
        };
        let result_text = if G::NAME == "ttt" {
            result_text
                .replace("player 1", "X")
                .replace("player 2", "O")
        } else {
            result_text
        };
        let record = GameRecord {
            number,
            white_first,
            random_plies: opening.len(),
            moves,
            outcome,
            result: result_text,
            white_score,
        };
        result.summary.add(white_score);
        on_game(&record);
        result.records.push(record);
    }
    result
}

/// `sente match`: opens both engines, plays, prints; `Err` if a board failed.
pub fn main(options: &MatchOptions) -> anyhow::Result<()> {
    if options.games == 0 {
        bail!("--games must be at least 1");
    }
    if !GAMES.contains(&options.game.as_str()) {
        bail!(
            "sente match does not know the game {:?} (known: {})",
            options.game,
            GAMES.join(", ")
        );
    }
    println!(
        "match: {} games of {}, white = {} (level {}), black = {} (level {}), seed {}",
        options.games,
        options.game,
        options.white,
        options.level_white,
        options.black,
        options.level_black,
        options.seed
    );
    println!(
        "odd games: white moves first; even games: black moves first on the same random opening"
    );
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
    println!("{}", result.summary.report(&options.white));
    match result.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(games: u32, seed: u64) -> MatchOptions {
        MatchOptions {
            game: "ttt".into(),
            white: "host".into(),
            black: "host".into(),
            games,
            seed,
            level_white: 0,
            level_black: 0,
            depth: 0,
            nodes: 0,
        }
    }

    #[test]
    fn splitmix64_matches_the_reference() {
        // First outputs of the reference implementation for seed 0.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn random_openings_are_legal_and_reproducible() {
        let a = random_opening::<TicTacToe>(&mut SplitMix64::new(5), 2);
        let b = random_opening::<TicTacToe>(&mut SplitMix64::new(5), 2);
        assert_eq!(a, b);
        assert_eq!(a.len(), 2);
        assert_ne!(a[0], a[1]);
    }

    #[test]
    fn host_against_host_alternates_colours_and_never_loses() {
        let mut white = EngineLink::open("host").unwrap();
        let mut black = EngineLink::open("host").unwrap();
        let mut seen = Vec::new();
        let r = run_match(&options(4, 42), &mut white, &mut black, &mut |g| {
            seen.push(g.line())
        });
        assert!(r.error.is_none(), "{:?}", r.error);
        assert_eq!(seen.len(), 4);
        assert_eq!(r.summary.games(), 4);
        let firsts: Vec<bool> = r.records.iter().map(|g| g.white_first).collect();
        assert_eq!(firsts, [true, false, true, false]);
        // Paired games share their opening.
        let opening = |g: &GameRecord| g.moves[..g.random_plies].to_vec();
        assert_eq!(opening(&r.records[0]), opening(&r.records[1]));
        for g in &r.records {
            assert!((1..=2).contains(&g.random_plies));
            assert!(g.moves.len() >= 5, "{g:?}");
        }
        // Same seed, same games.
        let again = run_match(&options(4, 42), &mut white, &mut black, &mut |_| {});
        assert_eq!(again.records, r.records);
    }

    #[test]
    fn unknown_game_is_an_error() {
        let mut a = EngineLink::open("host").unwrap();
        let mut b = EngineLink::open("host").unwrap();
        let r = run_match(
            &MatchOptions {
                game: "chess".into(),
                ..options(1, 0)
            },
            &mut a,
            &mut b,
            &mut |_| {},
        );
        assert!(r.error.is_some());
    }

    #[test]
    fn score_and_elo_error_bars() {
        let s = Summary {
            wins: 6,
            draws: 2,
            losses: 2,
        };
        let (m, err) = s.score().unwrap();
        assert!((m - 0.7).abs() < 1e-9);
        // Sample variance of six 1s, two ½s, two 0s around 0.7.
        let var: f64 = (6.0 * 0.09 + 2.0 * 0.04 + 2.0 * 0.49) / 9.0;
        assert!((err - 1.96 * (var / 10.0).sqrt()).abs() < 1e-9);
        let (elo, elo_err) = s.elo().unwrap();
        assert!((elo - 147.2).abs() < 0.1, "{elo}");
        assert!(elo_err > 100.0 && elo_err < 400.0, "{elo_err}");
        assert!(
            Summary {
                wins: 3,
                draws: 0,
                losses: 0
            }
            .elo()
            .is_none()
        );
        assert_eq!(Summary::default().score(), None);
        let all_draws = Summary {
            wins: 0,
            draws: 4,
            losses: 0,
        };
        assert_eq!(all_draws.elo(), Some((0.0, 0.0)));
        assert!(s.report("host").contains("score 70.0 %"));
    }
}
