//! The strong level: expectiminimax over the die with Star1 pruning and iterative deepening.
//!
//! A *chance node* is a position whose side to move has not rolled: its value is the
//! average over the six faces of the best step for that face. Faces that let the same
//! cubes move are searched once with their weight (e.g. with cubes 2 and 5 left, faces
//! 1–2, 3–4 and 5–6 give three groups of weight 2). Values lie in `−WIN..=WIN`, so
//! Star1 (Ballard 1983) narrows each face's window from the faces already searched and
//! the bounds of the ones still to come, and cuts the chance node off when its average
//! can no longer land inside `(alpha, beta)`. Max nodes are alpha-beta (negamax) with
//! immediate wins first and the rest ordered by the static evaluation of the result.
//!
//! Depth counts steps (moves), not dice. A request without any limit gets a budget
//! of [`DEFAULT_NODES`] nodes (a few seconds on the micro:bit), so the answer is the
//! same on the board and on the host.

use super::board::{Einstein, Move};
use super::eval::{WIN, evaluate};
use super::rules::Moves;
use crate::engine::Poll;
use crate::game::{Game, Score};
use crate::search::{Limits, poll_every};

/// Nodes between two polls: a node costs up to ~4,700 ticks on the micro:bit v1
/// (the HIL report's einstein rows).
const POLL_EVERY: u64 = poll_every(4_700);

/// Node budget when the request sets neither depth nor nodes nor time.
pub const DEFAULT_NODES: u64 = 40_000;
/// Deepest iteration ever started.
pub const MAX_DEPTH: u8 = 24;

/// Counts nodes, enforces an exact node limit and polls the service.
pub struct Budget<'p> {
    poll: &'p mut dyn Poll,
    limit: u64,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Set once the limit is reached or the service said stop.
    pub aborted: bool,
}

impl<'p> Budget<'p> {
    /// A budget of `limit` nodes (0 = none) polling `poll`.
    pub fn new(poll: &'p mut dyn Poll, limit: u64) -> Self {
        Self {
            poll,
            limit,
            nodes: 0,
            aborted: false,
        }
    }

    /// Counts one node; `true` means stop now.
    pub fn visit(&mut self) -> bool {
        self.nodes += 1;
        if (self.limit != 0 && self.nodes >= self.limit)
            || (self.nodes.is_multiple_of(POLL_EVERY) && self.poll.poll(self.nodes))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The service's poll (to stream `info` lines).
    pub fn poll(&mut self) -> &mut dyn Poll {
        &mut *self.poll
    }
}

/// One completed iteration of the root search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Best step.
    pub best: Move,
    /// Its expected value for the side to move, −1000 (sure loss) to 1000 (sure win).
    pub score: Score,
    /// Steps searched.
    pub depth: u8,
}

struct Expecti<'b, 'p> {
    budget: &'b mut Budget<'p>,
    horizon_hit: bool,
}

/// Sorts `moves` (of the side to move in `pos`) best first: immediate wins, then by
/// the static evaluation after the step.
fn order(pos: &mut Einstein, moves: &mut Moves) {
    let mut keys = [0i32; 6];
    for (key, &mv) in keys.iter_mut().zip(moves.iter()) {
        if let Move::Step { cube, to } = mv {
            *key = if pos.step_wins(to) {
                i32::MAX
            } else {
                let undo = pos.make_step(cube, to);
                let k = -evaluate(pos);
                pos.unmake_step(cube, to, undo);
                k
            };
        }
    }
    // insertion sort, stable, at most six moves
    for i in 1..moves.len() {
        let mut j = i;
        while j > 0 && keys[j - 1] < keys[j] {
            keys.swap(j - 1, j);
            moves.swap(j - 1, j);
            j -= 1;
        }
    }
}

impl Expecti<'_, '_> {
    /// Value of `pos` (side to move about to roll) for the side to move.
    fn chance(&mut self, pos: &mut Einstein, depth: u8, alpha: Score, beta: Score) -> Score {
        if self.budget.visit() {
            return 0;
        }
        if let Some(w) = pos.winner() {
            return if w == pos.side { WIN } else { -WIN };
        }
        if depth == 0 {
            self.horizon_hit = true;
            return evaluate(pos);
        }
        let mut groups = pos.chance_groups();
        groups.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut sum = 0i32; // Σ faces × value of the groups searched
        let mut rest = 6i32; // faces not searched yet
        for &(mask, faces) in groups.iter() {
            let w = i32::from(faces);
            rest -= w;
            // the average stays <= alpha if this group scores <= a (rest at best WIN),
            // and >= beta if it scores >= b (rest at worst -WIN)
            let a = (6 * alpha - sum - WIN * rest).div_euclid(w);
            let b = -(-(6 * beta - sum + WIN * rest)).div_euclid(w);
            if a >= WIN {
                return (sum + WIN * (rest + w)).div_euclid(6);
            }
            if b <= -WIN {
                return (sum - WIN * (rest + w)).div_euclid(6);
            }
            let (a, b) = (a.max(-WIN - 1), b.min(WIN + 1));
            let v = self.max_node(pos, mask, depth, a, b);
            if self.budget.aborted {
                return 0;
            }
            sum += w * v;
            if v >= b {
                return (sum - WIN * rest).div_euclid(6);
            }
            if v <= a {
                return (sum + WIN * rest).div_euclid(6);
            }
        }
        sum.div_euclid(6)
    }

    /// Best step of the cubes in `mask` for the side to move (negamax, fail-soft).
    fn max_node(
        &mut self,
        pos: &mut Einstein,
        mask: u8,
        depth: u8,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        let mut moves = Moves::new();
        pos.push_steps(mask, &mut moves);
        if depth >= 2 {
            order(pos, &mut moves);
        }
        let mut best = -WIN - 1;
        for &mv in moves.iter() {
            let Move::Step { cube, to } = mv else {
                continue;
            };
            let undo = pos.make_step(cube, to);
            let v = -self.chance(pos, depth - 1, -beta, -alpha);
            pos.unmake_step(cube, to, undo);
            if self.budget.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                }
                if v >= beta || v >= WIN {
                    break;
                }
            }
        }
        best
    }
}

/// Iterative deepening from `root` (the side to move has rolled) up to `max_depth`
/// steps or until the budget runs out; calls `on_iteration` after each completed
/// iteration and returns the last one, or, when the budget cuts an iteration short,
/// the best of the moves it finished (which begin with the previous best move; the
/// depth reported stays that of the last completed iteration). `None` if there is
/// no legal step or not one root move was searched.
pub fn search(
    root: &Einstein,
    max_depth: u8,
    budget: &mut Budget<'_>,
    mut on_iteration: impl FnMut(&mut Budget<'_>, &Iteration),
) -> Option<Iteration> {
    let mut pos = *root;
    let mut moves = Moves::new();
    pos.generate(&mut moves);
    if moves.iter().any(|m| !matches!(m, Move::Step { .. })) {
        return None;
    }
    order(&mut pos, &mut moves);
    let mut scores = [0i32; 6];
    let mut last = None;
    for depth in 1..=max_depth.clamp(1, MAX_DEPTH) {
        let mut s = Expecti {
            budget: &mut *budget,
            horizon_hit: false,
        };
        let mut alpha = -WIN - 1;
        let mut partial = None;
        for (i, &mv) in moves.iter().enumerate() {
            let Move::Step { cube, to } = mv else {
                continue;
            };
            let undo = pos.make_step(cube, to);
            let v = -s.chance(&mut pos, depth - 1, -(WIN + 1), -alpha);
            pos.unmake_step(cube, to, undo);
            if s.budget.aborted {
                // Cut short: the moves finished at this depth started with the last
                // best one, so the best of them is at least as well founded.
                return partial.or(last);
            }
            scores[i] = v;
            if v > alpha {
                alpha = v;
                partial = Some(Iteration {
                    best: mv,
                    score: v,
                    depth: depth - 1,
                });
            }
        }
        let horizon_hit = s.horizon_hit;
        // best first for the next iteration (stable: earlier order breaks ties)
        for i in 1..moves.len() {
            let mut j = i;
            while j > 0 && scores[j - 1] < scores[j] {
                scores.swap(j - 1, j);
                moves.swap(j - 1, j);
                j -= 1;
            }
        }
        let it = Iteration {
            best: moves[0],
            score: scores[0],
            depth,
        };
        last = Some(it);
        on_iteration(budget, &it);
        if !horizon_hit || it.score >= WIN || it.score <= -WIN || moves.len() == 1 {
            break;
        }
    }
    last
}

/// The deepest iteration and the node budget for `limits`: the depth limit if set
/// (else [`MAX_DEPTH`]); the node limit if set, else [`DEFAULT_NODES`] when the
/// request has no limit at all.
pub fn plan(limits: Limits) -> (u8, u64) {
    let depth = if limits.depth != 0 {
        limits.depth.min(MAX_DEPTH)
    } else {
        MAX_DEPTH
    };
    let unlimited = limits.depth == 0 && limits.nodes == 0 && limits.ticks == 0;
    (
        depth,
        if unlimited {
            DEFAULT_NODES
        } else {
            limits.nodes
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    pub(crate) use crate::engine::QuietPoll as Quiet;

    fn best(text: &str, depth: u8) -> Iteration {
        let pos = Einstein::parse_position(text).unwrap();
        let mut q = Quiet;
        let mut b = Budget::new(&mut q, 0);
        search(&pos, depth, &mut b, |_, _| {}).unwrap()
    }

    /// Plain expectimax without pruning, for checking Star1 against.
    fn expectimax(pos: &mut Einstein, depth: u8) -> Score {
        if let Some(w) = pos.winner() {
            return if w == pos.side { WIN } else { -WIN };
        }
        if depth == 0 {
            return evaluate(pos);
        }
        let mut sum = 0;
        for (mask, faces) in pos.chance_groups() {
            let mut moves = Moves::new();
            pos.push_steps(mask, &mut moves);
            let mut best = -WIN - 1;
            for &mv in moves.iter() {
                let Move::Step { cube, to } = mv else {
                    continue;
                };
                let u = pos.make_step(cube, to);
                best = best.max(-expectimax(pos, depth - 1));
                pos.unmake_step(cube, to, u);
            }
            sum += i32::from(faces) * best;
        }
        sum.div_euclid(6)
    }

    #[test]
    fn takes_a_win_in_one() {
        // cube 3 can reach e1 (or take blue's last cube); either wins outright
        let it = best("r:d2=3,a5=1 b:b4=1,a4=2 turn=r roll=3", 4);
        assert_eq!(it.best, Move::Step { cube: 3, to: 24 });
        assert_eq!(it.score, WIN);
        let it = best("r:c3=4,a5=1 b:d2=6 turn=r roll=4", 4);
        assert_eq!(it.best, Move::Step { cube: 4, to: 18 });
        // blue, next-higher/next-lower choice: cube 2 (for missing 3) reaches a5
        let it = best("r:c3=3,d3=1 b:b4=2,e1=6 turn=b roll=3", 3);
        assert_eq!(it.best, Move::Step { cube: 2, to: 0 });
    }

    #[test]
    fn star1_matches_plain_expectimax() {
        let roots = [
            "r:a5=1,b5=2,c5=3,a4=4,b4=5,a3=6 b:e1=1,d1=2,c1=3,e2=4,d2=5,e3=6 turn=r roll=5",
            "r:b4=1,c3=2,d5=5 b:d2=1,c4=3,b2=6 turn=r roll=3",
            "r:c4=2,b2=4,a5=6 b:c3=1,d2=5 turn=b roll=4",
        ];
        for text in roots {
            let root = Einstein::parse_position(text).unwrap();
            for depth in 1..=3 {
                let it = best(text, depth);
                let mut moves = Moves::new();
                root.generate(&mut moves);
                let mut exact = -WIN - 1;
                for &mv in moves.iter() {
                    let mut p = root;
                    p.make(mv);
                    exact = exact.max(-expectimax(&mut p, depth - 1));
                }
                assert_eq!(it.score, exact, "{text} depth {depth}");
            }
        }
    }

    #[test]
    fn node_limit_is_exact_and_keeps_the_last_iteration() {
        let pos = Einstein::parse_position(
            "r:a5=1,b5=2,c5=3,a4=4,b4=5,a3=6 b:e1=1,d1=2,c1=3,e2=4,d2=5,e3=6 turn=r roll=2",
        )
        .unwrap();
        let mut q = Quiet;
        let mut b = Budget::new(&mut q, 3000);
        let mut iterations = 0;
        let it = search(&pos, MAX_DEPTH, &mut b, |_, _| iterations += 1).unwrap();
        assert_eq!(b.nodes, 3000);
        assert!(b.aborted);
        assert_eq!(u32::from(it.depth), iterations);
        assert!(it.depth >= 2);
    }
}
