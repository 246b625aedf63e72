//! Level 1: seed 001's Monte Carlo player ("Awakening", 2013), as the paper describes it.
//!
//! For each step the rolled cube may take, run [`SIMULATIONS`] simulations of
//! [`PLIES`] plies: roll a die (seeded) for the side to move, let the 3-ply minimax
//! routine pick its step, play it, stop if the game is over; then score the final
//! position with [`seed_evaluate`] for the root side and add it to that step's total.
//! Play the step with the highest total.
//!
//! The minimax routine, read literally: ply 1 = the steps the roll allows, ply 2 =
//! **all** opponent steps (every cube: the opponent's roll is not known, and the
//! paper expands all its moves rather than averaging over dice), ply 3 = all own
//! steps; the leaves are scored with [`seed_evaluate`] and backed up by minimax.
//! Alpha-beta pruning gives the same choice as plain minimax (first best wins ties).
//!
//! Simulations run round-robin over the candidate steps, so a node limit compares
//! equal numbers of simulations (the answer comes from the last completed round).

use super::board::{Einstein, Move};
use super::eval::{SEED_WIN, seed_evaluate};
use super::rng::SplitMix64;
use super::rules::Moves;
use super::search::Budget;
use crate::game::Score;

/// Simulations per candidate step (M in the paper).
pub const SIMULATIONS: u32 = 100;
/// Plies per simulation (N in the paper).
pub const PLIES: u8 = 7;
/// Completed rounds between two `info` lines.
pub const INFO_EVERY: u32 = 10;

/// Every step of every cube of the side to move: at most 6 cubes × 3 steps.
type AllMoves = heapless::Vec<Move, 18>;

/// What the Monte Carlo player chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The step with the highest total.
    pub best: Move,
    /// Its average final score for the side to move (seed scale, ±[`SEED_WIN`]).
    pub score: Score,
    /// Completed simulation rounds (one simulation per candidate each).
    pub rounds: u32,
}

/// The 3-ply minimax routine's choice of step for the side to move on `roll`, or
/// `None` if the budget ran out.
pub fn minimax_pick(pos: &mut Einstein, roll: u8, budget: &mut Budget<'_>) -> Option<Move> {
    let mut moves = Moves::new();
    pos.push_steps(pos.movable_mask(pos.side, roll), &mut moves);
    let mut best = *moves.first()?;
    let mut alpha = -SEED_WIN - 1;
    for &mv in moves.iter() {
        let Move::Step { cube, to } = mv else {
            continue;
        };
        let undo = pos.make_step(cube, to);
        let v = -alphabeta(pos, 2, -SEED_WIN - 1, -alpha, budget);
        pos.unmake_step(cube, to, undo);
        if budget.aborted {
            return None;
        }
        if v > alpha {
            alpha = v;
            best = mv;
        }
    }
    Some(best)
}

/// Negamax over all steps of all cubes, `depth` plies, for the side to move.
fn alphabeta(
    pos: &mut Einstein,
    depth: u8,
    mut alpha: Score,
    beta: Score,
    budget: &mut Budget<'_>,
) -> Score {
    if budget.visit() {
        return 0;
    }
    if depth == 0 || pos.winner().is_some() {
        return seed_evaluate(pos, pos.side);
    }
    let mut moves = AllMoves::new();
    pos.push_steps(pos.present_mask(pos.side), &mut moves);
    let mut best = -SEED_WIN - 1;
    for &mv in moves.iter() {
        let Move::Step { cube, to } = mv else {
            continue;
        };
        let undo = pos.make_step(cube, to);
        let v = -alphabeta(pos, depth - 1, -beta, -alpha, budget);
        pos.unmake_step(cube, to, undo);
        if budget.aborted {
            return 0;
        }
        if v > best {
            best = v;
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

/// Runs the Monte Carlo choice from `root` (the side to move has rolled): `sims`
/// rounds of `plies`-ply simulations. `on_rounds` is called every [`INFO_EVERY`]
/// completed rounds. `None` when there is no legal step or no round completed.
pub fn choose(
    root: &Einstein,
    sims: u32,
    plies: u8,
    rng: &mut SplitMix64,
    budget: &mut Budget<'_>,
    mut on_rounds: impl FnMut(&mut Budget<'_>, &Choice),
) -> Option<Choice> {
    let mut moves = Moves::new();
    root.push_steps(root.movable_mask(root.side, root.roll), &mut moves);
    let first = *moves.first()?;
    if moves.len() == 1 {
        return Some(Choice {
            best: first,
            score: 0,
            rounds: 0,
        });
    }
    let mut totals = [0i32; 6];
    let mut rounds = 0;
    let mut last = None;
    'rounds: for _ in 0..sims {
        for (i, &mv) in moves.iter().enumerate() {
            let mut pos = *root;
            if let Move::Step { cube, to } = mv {
                pos.make_step(cube, to);
            }
            for _ in 0..plies {
                if pos.winner().is_some() {
                    break;
                }
                let roll = rng.die();
                let picked = minimax_pick(&mut pos, roll, budget);
                let Some(Move::Step { cube, to }) = picked else {
                    break 'rounds;
                };
                pos.make_step(cube, to);
                if budget.visit() {
                    break 'rounds;
                }
            }
            totals[i] += seed_evaluate(&pos, root.side);
        }
        rounds += 1;
        let (best, total) = best_of(&moves, &totals);
        let choice = Choice {
            best,
            score: total / rounds as i32,
            rounds,
        };
        last = Some(choice);
        if rounds % INFO_EVERY == 0 {
            on_rounds(budget, &choice);
        }
    }
    last
}

/// The first step with the highest total.
fn best_of(moves: &Moves, totals: &[i32; 6]) -> (Move, i32) {
    let mut best = (moves[0], totals[0]);
    for (&mv, &t) in moves.iter().zip(totals.iter()).skip(1) {
        if t > best.1 {
            best = (mv, t);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    use crate::engine::QuietPoll as Quiet;

    #[test]
    fn minimax_takes_a_win_and_sees_threats() {
        let mut q = Quiet;
        let mut b = Budget::new(&mut q, 0);
        let mut p = Einstein::parse_position("r:d2=3,a5=1 b:b4=1,a4=2 turn=r roll=3").unwrap();
        assert_eq!(
            minimax_pick(&mut p, 3, &mut b),
            Some(Move::Step { cube: 3, to: 24 })
        );
        // blue's cube on b4 threatens a5: red's cube 1 must take it
        let mut p = Einstein::parse_position("r:a5=1,e5=2 b:b4=3,c1=4 turn=r roll=1").unwrap();
        assert_eq!(
            minimax_pick(&mut p, 1, &mut b),
            Some(Move::Step { cube: 1, to: 6 })
        );
    }

    #[test]
    fn monte_carlo_is_reproducible_and_respects_node_limits() {
        let root = Einstein::parse_position(
            "r:a5=1,b5=2,c5=3,a4=4,b4=5,a3=6 b:e1=1,d1=2,c1=3,e2=4,d2=5,e3=6 turn=r roll=5",
        )
        .unwrap();
        let run = |limit: u64| {
            let mut q = Quiet;
            let mut b = Budget::new(&mut q, limit);
            let mut infos = 0;
            let c = choose(&root, 20, 7, &mut SplitMix64::new(9), &mut b, |_, _| {
                infos += 1
            });
            (c, b.nodes, infos)
        };
        let a = run(0);
        assert_eq!(a, run(0));
        let (choice, nodes, infos) = a;
        let choice = choice.unwrap();
        assert_eq!(choice.rounds, 20);
        assert_eq!(infos, 2);
        assert!(nodes > 1000);
        let (partial, n, _) = run(nodes / 2);
        assert_eq!(n, nodes / 2);
        let partial = partial.unwrap();
        assert!(partial.rounds < 20 && partial.rounds > 0);
    }
}
