//! The referee: one [`Referee`] adapter per game (start position, chance moves,
//! random openings, adjudication) and the game-independent loop that plays a
//! match with it.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Instant;

use anyhow::{Context, anyhow};
use sente_firmware::game::{Notation, Outcome};

use super::seeds::{self, SplitMix64};
use super::stats::{Effort, Verdict};
use super::{GameRecord, MatchOptions, MatchResult, SideLimits};
use crate::player::{Player, Turn};

/// What the referee needs to know about a game beyond its rules and notation.
///
/// The engines only ever see positions in the game's text form; the referee keeps
/// the game with the library's rules, checks every answer and decides the result.
pub trait Referee: Notation {
    /// Names of players 0 and 1 in results (`X`/`O`, `red`/`blue`).
    const PLAYERS: [&'static str; 2];
    /// Ply cap when `--max-plies` is 0 (0: none, the rules end every game).
    const DEFAULT_MAX_PLIES: usize = 0;
    /// How many seeded random plies open each pair of games (default 1 or 2).
    const OPENING_PLIES: (usize, usize) = (1, 2);

    /// The start position; `variant` is the name the match was asked for (`renju`
    /// picks gomoku's rule).
    fn new_game(variant: &str) -> Self;

    /// The rule, for games that have several (gomoku: sent to external brains).
    fn rule(&self) -> Option<String> {
        None
    }

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

    /// Whether the side to move has no legal move though the rules' outcome says
    /// nothing (renju's black with only forbidden points left on a nearly full
    /// board); the referee then scores a draw. `false` (the default) for the games
    /// whose rules end a game before its moves run out.
    fn out_of_moves(&self) -> bool {
        false
    }

    /// An engine answered no move (UCCI's `nobestmove`, UCI's `bestmove (none)`)
    /// though the game goes on: the rule under which that stands as a draw claim,
    /// or `None` (the default) when it does not and the engine forfeits. `moves` are
    /// the game's moves from the start.
    fn draw_claim(&self, moves: &[String]) -> Option<String> {
        let _ = moves;
        None
    }
}

/// A random opening of `plies` moves from the start, using the game's move generator
/// (stops early if the game ends or the generator lists nothing).
pub fn random_opening<G: Referee>(
    rng: &mut SplitMix64,
    plies: usize,
    variant: &str,
) -> Vec<String> {
    let mut pos = G::new_game(variant);
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
fn next_opening<G: Referee>(
    rng: &mut SplitMix64,
    used: &mut HashSet<Vec<String>>,
    variant: &str,
) -> Vec<String> {
    let (lo, hi) = G::OPENING_PLIES;
    let mut opening = Vec::new();
    for _ in 0..100 {
        let plies = lo + rng.below(hi.saturating_sub(lo) + 1);
        opening = random_opening::<G>(rng, plies, variant);
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
    /// The side (player number) that forfeited, and why (time, illegal move, failure).
    forfeit: Option<(u8, String)>,
    /// Each player's effort in this game, by player number.
    effort: [Effort; 2],
}

/// One player's seat in a game: the player, its limits, its name in messages.
pub struct Seat<'a> {
    /// The player.
    pub player: &'a mut dyn Player,
    /// Level and limits of its requests.
    pub limits: SideLimits,
    /// `white` or `black` (the match's sides).
    pub name: &'static str,
}

/// One game: `seats[0]` plays player 0 (moves first). `number` is the game's number
/// (seeds), `opening` its opening moves, `cap` the ply cap (0 = none).
fn play_game<G: Referee>(
    seats: [Seat<'_>; 2],
    number: u32,
    options: &MatchOptions,
    opening: &[String],
    cap: usize,
) -> anyhow::Result<Played> {
    let mut pos = G::new_game(&options.game);
    let mut played = Played {
        moves: Vec::new(),
        length: 0,
        outcome: Outcome::Draw,
        adjudicated: None,
        forfeit: None,
        effort: [Effort::default(); 2],
    };
    let play = |pos: &mut G, text: String, played: &mut Played| -> Result<(), String> {
        let mv = pos
            .parse_move(&text)
            .map_err(|e| format!("move {text:?} is illegal here: {e}"))?;
        played.length += usize::from(G::counts(&mv));
        pos.make(mv);
        played.moves.push(text);
        Ok(())
    };
    for text in opening {
        play(&mut pos, text.clone(), &mut played)
            .map_err(|e| anyhow!(e))
            .context("opening")?;
    }
    let mut dice = seeds::dice(options.seed, seeds::pair_of(number));
    let mut seats = seats;
    for seat in &mut seats {
        seat.player
            .new_game()
            .with_context(|| format!("{} engine: new game", seat.name))?;
    }
    let mut clocks = [options.time.start(); 2];
    let margin = options.time_margin;
    let forfeit = |played: &mut Played, side: usize, why: String| {
        played.outcome = Outcome::Win(1 - side as u8);
        played.forfeit = Some((side as u8, why));
    };
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
            play(&mut pos, text, &mut played)
                .map_err(|e| anyhow!(e))
                .context("referee's chance move")?;
            continue;
        }
        let side = usize::from(pos.player_to_move() % 2);
        if pos.out_of_moves() {
            // The RIF rules let a player pass; the referee plays no passes and scores
            // the game a draw rather than ask an engine for a move that is not there.
            played.adjudicated = Some(format!(
                "draw (adjudicated: {} has no legal move)",
                G::PLAYERS[side]
            ));
            return Ok(played);
        }
        let position = pos.request_position(&played.moves);
        if crate::engine::longest_head(G::NAME) + position.len()
            > sente_firmware::protocol::MAX_LINE
        {
            played.adjudicated =
                Some("draw (adjudicated: the position no longer fits a request line)".into());
            return Ok(played);
        }
        let rule = pos.rule();
        let seat = &mut seats[side];
        let turn = Turn {
            game: G::NAME,
            position: &position,
            history: &played.moves,
            rule: rule.as_deref(),
            level: seat.limits.level,
            depth: seat.limits.depth,
            nodes: seat.limits.nodes,
            time: clocks[side].turn(&clocks[1 - side]),
            seed: seeds::engine_seed(options.seed, number, played.moves.len()),
        };
        let asked = Instant::now();
        let answer = seat.player.go(&turn, &mut crate::engine::Quiet);
        let took = asked.elapsed();
        let best = match answer {
            Ok(best) => best,
            Err(e) => {
                forfeit(
                    &mut played,
                    side,
                    format!("{} engine failed: {e}", seat.name),
                );
                return Ok(played);
            }
        };
        played.effort[side].add(best.nodes, best.depth, took);
        if clocks[side].late(took, margin) {
            played.effort[side].late += 1;
        }
        if clocks[side].spend(took, margin) {
            forfeit(&mut played, side, format!("{} loses on time", seat.name));
            return Ok(played);
        }
        if (best.best == "none" || best.best.is_empty())
            && let Some(rule) = pos.draw_claim(&played.moves)
        {
            played.outcome = Outcome::Draw;
            played.adjudicated = Some(format!("draw claimed by {} (no move): {rule}", seat.name));
            return Ok(played);
        }
        if let Err(e) = play(&mut pos, best.best.clone(), &mut played) {
            forfeit(
                &mut played,
                side,
                format!("{} engine played an illegal move: {e}", seat.name),
            );
            return Ok(played);
        }
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

/// What a worker sends the referee's main thread.
enum Report {
    /// A finished game.
    Game(Box<GameRecord>),
    /// A worker could not go on.
    Failed(anyhow::Error),
}

/// Plays the match for game `G`: `options.concurrency` workers, each with its own two
/// players from `open` (white, black), take pairs of games in turn; `on_game` sees
/// each game as it ends. An SPRT, if set, may end the match early.
pub fn run<G: Referee>(
    options: &MatchOptions,
    open: &(dyn Fn() -> anyhow::Result<[Box<dyn Player>; 2]> + Sync),
    on_game: &mut dyn FnMut(&GameRecord, &MatchResult),
) -> MatchResult {
    let mut result = MatchResult::default();
    let (white_limits, black_limits) = (options.white_limits(), options.black_limits());
    let cap = if options.max_plies > 0 {
        options.max_plies
    } else {
        G::DEFAULT_MAX_PLIES
    };
    // Every pair's opening, drawn up front: the same games whatever the concurrency.
    let pairs = options.games.div_ceil(2);
    let mut rng = seeds::openings(options.seed);
    let mut used = HashSet::new();
    let openings: Vec<Vec<String>> = (0..pairs as usize)
        .map(|pair| match options.openings.len() {
            0 => next_opening::<G>(&mut rng, &mut used, &options.game),
            n => options.openings[pair % n].clone(),
        })
        .collect();
    let next_pair = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let (tx, rx) = mpsc::channel::<Report>();
    thread::scope(|scope| {
        for _ in 0..options.concurrency.max(1) {
            let tx = tx.clone();
            let (openings, next_pair, stop) = (&openings, &next_pair, &stop);
            scope.spawn(move || {
                let mut players = match open() {
                    Ok(p) => p,
                    Err(e) => {
                        let _ = tx.send(Report::Failed(e));
                        return;
                    }
                };
                while !stop.load(Ordering::Relaxed) {
                    let pair = next_pair.fetch_add(1, Ordering::Relaxed);
                    if pair >= pairs {
                        return;
                    }
                    for number in [2 * pair + 1, 2 * pair + 2] {
                        if number > options.games || stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let white_first = number % 2 == 1;
                        let opening = &openings[pair as usize];
                        let [white, black] = &mut players;
                        let w = Seat {
                            player: white.as_mut(),
                            limits: white_limits,
                            name: "white",
                        };
                        let b = Seat {
                            player: black.as_mut(),
                            limits: black_limits,
                            name: "black",
                        };
                        let seats = if white_first { [w, b] } else { [b, w] };
                        let played = match play_game::<G>(seats, number, options, opening, cap) {
                            Ok(p) => p,
                            Err(e) => {
                                let _ =
                                    tx.send(Report::Failed(e.context(format!("game {number}"))));
                                return;
                            }
                        };
                        let record = record::<G>(number, white_first, opening.len(), played);
                        let failed = record
                            .forfeit
                            .as_deref()
                            .is_some_and(|f| f.contains("failed"));
                        if tx.send(Report::Game(Box::new(record))).is_err() {
                            return;
                        }
                        // An engine that failed is started again for the next game.
                        if failed {
                            match open() {
                                Ok(p) => players = p,
                                Err(e) => {
                                    let _ = tx.send(Report::Failed(e));
                                    return;
                                }
                            }
                        }
                    }
                }
            });
        }
        drop(tx);
        for report in rx {
            match report {
                Report::Game(record) => {
                    result.add(&record);
                    on_game(&record, &result);
                    result.records.push(*record);
                    if let Some(sprt) = &options.sprt
                        && sprt.verdict(&result.pairs) != Verdict::Continue
                    {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                Report::Failed(e) => {
                    stop.store(true, Ordering::Relaxed);
                    result.error.get_or_insert(e);
                }
            }
        }
    });
    result.records.sort_by_key(|r| r.number);
    result.elapsed = started.elapsed();
    result
}

/// The record of a played game.
fn record<G: Referee>(
    number: u32,
    white_first: bool,
    opening_plies: usize,
    played: Played,
) -> GameRecord {
    let white_player = u8::from(!white_first);
    let score = white_score(played.outcome, white_player);
    let result_text = match (&played.forfeit, &played.adjudicated, played.outcome) {
        (Some((_, why)), _, _) => why.clone(),
        (None, Some(why), _) => why.clone(),
        (None, None, Outcome::Win(p)) => format!("{} wins", G::PLAYERS[usize::from(p & 1)]),
        (None, None, Outcome::Draw) => "draw".into(),
    };
    // Efforts by match side: white is player 0 when it moved first.
    let [first, second] = played.effort;
    let effort = if white_first {
        [first, second]
    } else {
        [second, first]
    };
    GameRecord {
        number,
        white_first,
        opening_plies,
        moves: played.moves,
        length: played.length,
        outcome: played.outcome,
        adjudicated: played.adjudicated.is_some(),
        forfeit: played.forfeit.map(|(_, why)| why),
        result: result_text,
        white_score: score,
        effort,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente_firmware::games::tictactoe::TicTacToe;

    #[test]
    fn random_openings_are_legal_and_reproducible() {
        let a = random_opening::<TicTacToe>(&mut SplitMix64::new(5), 2, "ttt");
        let b = random_opening::<TicTacToe>(&mut SplitMix64::new(5), 2, "ttt");
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
            .map(|_| next_opening::<TicTacToe>(&mut rng, &mut used, "ttt"))
            .collect();
        let distinct: HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), 40);
        // Past the 81 openings, draws repeat instead of looping forever.
        for _ in 0..60 {
            let o = next_opening::<TicTacToe>(&mut rng, &mut used, "ttt");
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
