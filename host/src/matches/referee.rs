//! The referee: one [`Referee`] adapter per game (start position, chance moves,
//! random openings, adjudication) and the game-independent loop that plays a
//! match with it.

use std::collections::HashSet;
use std::time::Instant;

use anyhow::{Context, anyhow};
use sente_firmware::game::{Notation, Outcome};

use super::seeds::{self, SplitMix64};
use super::stats::Effort;
use super::{GameRecord, MatchOptions, MatchResult, SideLimits};
use crate::engine::{EngineLink, GoRequest};

/// What the referee needs to know about a game beyond its rules and notation.
///
/// The engines only ever see positions in the game's text form; the referee keeps
/// the game with the library's rules, checks every answer and decides the result.
pub trait Referee: Notation {
    /// Names of players 0 and 1 in results (`X`/`O`, `red`/`blue`).
    const PLAYERS: [&'static str; 2];
    /// Highest engine level the game knows (`None`: every level is accepted).
    const MAX_LEVEL: Option<u8>;
    /// The levels in words, for the error about a bad level.
    const LEVELS: &'static str;
    /// Ply cap when `--max-plies` is 0 (0: none, the rules end every game).
    const DEFAULT_MAX_PLIES: usize = 0;
    /// How many seeded random plies open each pair of games (default 1 or 2).
    const OPENING_PLIES: (usize, usize) = (1, 2);

    /// The start position.
    fn new_game() -> Self;

    /// A move the referee plays itself rather than asking an engine (EinStein: the
    /// die roll of a side that has not rolled yet). `dice` is the pair's generator.
    fn chance(&self, dice: &mut sente_firmware::games::einstein::SplitMix64) -> Option<Self::Move> {
        let _ = dice;
        None
    }

    /// Whether `mv` counts toward the game's length (EinStein counts cube steps,
    /// not rolls or setups).
    fn counts(mv: &Self::Move) -> bool {
        let _ = mv;
        true
    }

    /// The position as a request carries it; `moves` are the moves from the start.
    fn request_position(&self, moves: &[String]) -> String {
        let _ = moves;
        let mut text = String::new();
        let _ = self.write_position(&mut text);
        text
    }

    /// The result of a game stopped by the ply cap, and the rule that gave it.
    fn adjudicate(&self) -> (Outcome, String) {
        (Outcome::Draw, "draw (adjudicated at the ply cap)".into())
    }
}

/// A random opening of `plies` moves from the start, using the game's move generator
/// (stops early if the game ends or the generator lists nothing).
pub fn random_opening<G: Referee>(rng: &mut SplitMix64, plies: usize) -> Vec<String> {
    let mut pos = G::new_game();
    let mut out = Vec::new();
    for _ in 0..plies {
        if pos.outcome().is_some() {
            break;
        }
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

/// Draws the opening of the next pair. Engines may be deterministic, so an opening
/// already played is replaced by a fresh draw (up to 100 tries; small games such as
/// tic-tac-toe run out of openings and then repeat).
fn next_opening<G: Referee>(rng: &mut SplitMix64, used: &mut HashSet<Vec<String>>) -> Vec<String> {
    let (lo, hi) = G::OPENING_PLIES;
    let mut opening = Vec::new();
    for _ in 0..100 {
        let plies = lo + rng.below(hi.saturating_sub(lo) + 1);
        opening = random_opening::<G>(rng, plies);
        if opening.is_empty() || used.insert(opening.clone()) {
            break;
        }
    }
    opening
}

/// How one game went, before it is scored.
struct Played {
    moves: Vec<String>,
    length: usize,
    outcome: Outcome,
    /// The adjudication rule that ended the game, if not the rules.
    adjudicated: Option<String>,
}

/// One game: `engines[0]` plays player 0 (moves first). `number` is the game's
/// number (seeds), `opening` its random plies, `cap` the ply cap (0 = none).
fn play_game<G: Referee>(
    engines: [(&mut EngineLink, SideLimits, &str, &mut Effort); 2],
    number: u32,
    options: &MatchOptions,
    opening: &[String],
    cap: usize,
) -> anyhow::Result<Played> {
    let mut pos = G::new_game();
    let mut played = Played {
        moves: Vec::new(),
        length: 0,
        outcome: Outcome::Draw,
        adjudicated: None,
    };
    let play = |pos: &mut G, text: String, played: &mut Played| -> anyhow::Result<()> {
        let mv = pos
            .parse_move(&text)
            .map_err(|e| anyhow!("move {text:?} is illegal here: {e}"))?;
        played.length += usize::from(G::counts(&mv));
        pos.make(mv);
        played.moves.push(text);
        Ok(())
    };
    for text in opening {
        play(&mut pos, text.clone(), &mut played).context("random opening")?;
    }
    let mut dice = seeds::dice(options.seed, seeds::pair_of(number));
    let mut engines = engines;
    loop {
        match pos.outcome() {
            Some(Outcome::Win(p)) => {
                played.outcome = Outcome::Win(p);
                return Ok(played);
            }
            _ if cap > 0 && played.length >= cap => {
                let (outcome, why) = pos.adjudicate();
                played.outcome = outcome;
                played.adjudicated = Some(why);
                return Ok(played);
            }
            Some(Outcome::Draw) => return Ok(played),
            None => {}
        }
        if let Some(mv) = pos.chance(&mut dice) {
            let mut text = String::new();
            let _ = pos.write_move(mv, &mut text);
            play(&mut pos, text, &mut played).context("referee's chance move")?;
            continue;
        }
        let side = usize::from(pos.player_to_move() % 2);
        let (link, limits, name, effort) = &mut engines[side];
        let request = GoRequest {
            game: G::NAME.to_string(),
            position: pos.request_position(&played.moves),
            depth: limits.depth,
            nodes: limits.nodes,
            level: limits.level,
            seed: seeds::engine_seed(options.seed, number, played.moves.len()),
            ..GoRequest::default()
        };
        if request.line().len() > sente_firmware::protocol::MAX_LINE {
            played.adjudicated =
                Some("draw (adjudicated: the position no longer fits a request line)".into());
            return Ok(played);
        }
        let asked = Instant::now();
        let best = link
            .go(&request, &mut |_| {})
            .with_context(|| format!("{name} engine failed on {:?}", request.line()))?;
        effort.add(best.nodes, asked.elapsed());
        play(&mut pos, best.best, &mut played)
            .with_context(|| format!("{name} engine's answer to {:?}", request.line()))?;
    }
}

/// White's score for `outcome` when white was player `white_player`.
fn white_score(outcome: Outcome, white_player: u8) -> f64 {
    match outcome {
        Outcome::Win(p) if p == white_player => 1.0,
        Outcome::Win(_) => 0.0,
        Outcome::Draw => 0.5,
    }
}

/// Plays the match for game `G`, calling `on_game` after each game.
pub fn run<G: Referee>(
    options: &MatchOptions,
    white: &mut EngineLink,
    black: &mut EngineLink,
    on_game: &mut dyn FnMut(&GameRecord),
) -> MatchResult {
    let mut result = MatchResult::default();
    let (white_limits, black_limits) = (options.white_limits(), options.black_limits());
    let cap = if options.max_plies > 0 {
        options.max_plies
    } else {
        G::DEFAULT_MAX_PLIES
    };
    let mut rng = seeds::openings(options.seed);
    let mut used = HashSet::new();
    let mut opening = Vec::new();
    let started = Instant::now();
    for number in 1..=options.games {
        let white_first = number % 2 == 1;
        if white_first {
            opening = next_opening::<G>(&mut rng, &mut used);
        }
        let [we, be] = &mut result.effort;
        let w = (&mut *white, white_limits, "white", we);
        let b = (&mut *black, black_limits, "black", be);
        let engines = if white_first { [w, b] } else { [b, w] };
        let played = match play_game::<G>(engines, number, options, &opening, cap) {
            Ok(p) => p,
            Err(e) => {
                result.error = Some(e.context(format!("game {number}")));
                break;
            }
        };
        let white_player = u8::from(!white_first);
        let score = white_score(played.outcome, white_player);
        let result_text = match (&played.adjudicated, played.outcome) {
            (Some(why), _) => why.clone(),
            (None, Outcome::Win(p)) => format!("{} wins", G::PLAYERS[usize::from(p & 1)]),
            (None, Outcome::Draw) => "draw".into(),
        };
        let record = GameRecord {
            number,
            white_first,
            random_plies: opening.len(),
            moves: played.moves,
            length: played.length,
            outcome: played.outcome,
            adjudicated: played.adjudicated.is_some(),
            result: result_text,
            white_score: score,
        };
        result.add(&record);
        on_game(&record);
        result.records.push(record);
    }
    result.elapsed = started.elapsed();
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente_firmware::games::tictactoe::TicTacToe;

    #[test]
    fn random_openings_are_legal_and_reproducible() {
        let a = random_opening::<TicTacToe>(&mut SplitMix64::new(5), 2);
        let b = random_opening::<TicTacToe>(&mut SplitMix64::new(5), 2);
        assert_eq!(a, b);
        assert_eq!(a.len(), 2);
        assert_ne!(a[0], a[1]);
    }

    #[test]
    fn openings_are_not_repeated_while_fresh_ones_exist() {
        let mut rng = SplitMix64::new(1);
        let mut used = HashSet::new();
        // Tic-tac-toe has 9 one-ply and 72 two-ply openings: 40 pairs never repeat.
        let all: Vec<_> = (0..40)
            .map(|_| next_opening::<TicTacToe>(&mut rng, &mut used))
            .collect();
        let distinct: HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), 40);
        // Past the 81 openings, draws repeat instead of looping forever.
        for _ in 0..60 {
            let o = next_opening::<TicTacToe>(&mut rng, &mut used);
            assert!((1..=2).contains(&o.len()));
        }
        assert_eq!(used.len(), 81);
    }

    #[test]
    fn white_scores() {
        assert_eq!(white_score(Outcome::Win(0), 0), 1.0);
        assert_eq!(white_score(Outcome::Win(1), 0), 0.0);
        assert_eq!(white_score(Outcome::Win(1), 1), 1.0);
        assert_eq!(white_score(Outcome::Draw, 1), 0.5);
    }
}
