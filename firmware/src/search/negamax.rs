//! Negamax alpha-beta with iterative deepening over any [`Game`].
//!
//! Used by the games whose trees are small enough for a plain search (tic-tac-toe)
//! and as the reference other engines are tested against. Ordering: the previous
//! iteration's principal variation first, then the game's [`Game::order_moves`].

use super::{Control, Limits, MAX_PV, Pv, SearchResult};
use crate::game::{Game, INFINITY, MATE, MATE_BOUND, Outcome, Score};

/// Score of a finished game for the side to move, `ply` plies from the root.
pub fn terminal_score(outcome: Outcome, side_to_move: u8, ply: u8) -> Score {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Win(p) if p == side_to_move => MATE - Score::from(ply),
        Outcome::Win(_) => -(MATE - Score::from(ply)),
    }
}

struct Negamax<'c, G: Game, C: Control<G::Move>> {
    control: &'c mut C,
    limits: Limits,
    nodes: u64,
    aborted: bool,
    /// Set when some node was cut off by the depth limit (not by a game end):
    /// if an iteration never hits the horizon, deeper ones cannot change anything.
    horizon_hit: bool,
    prev_pv: Pv<G::Move>,
}

impl<G: Game, C: Control<G::Move>> Negamax<'_, G, C> {
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        let out_of_nodes = self.limits.nodes != 0 && self.nodes >= self.limits.nodes;
        if out_of_nodes
            || (self.nodes.is_multiple_of(G::POLL_EVERY) && self.control.poll(self.nodes))
        {
            self.aborted = true;
        }
        self.aborted
    }

    #[allow(clippy::too_many_arguments)] // the classic negamax signature, kept readable
    fn search(
        &mut self,
        game: &mut G,
        depth: u8,
        ply: u8,
        mut alpha: Score,
        beta: Score,
        pv: &mut Pv<G::Move>,
        on_pv: bool,
    ) -> Score {
        pv.clear();
        if self.visit() {
            return 0;
        }
        if let Some(outcome) = game.outcome() {
            return terminal_score(outcome, game.player_to_move(), ply);
        }
        if depth == 0 || usize::from(ply) >= MAX_PV {
            self.horizon_hit = true;
            return game.evaluate();
        }
        let mut moves = G::Moves::default();
        game.generate(&mut moves);
        if moves.is_empty() {
            // No legal move and no outcome reported: treat as a draw.
            return 0;
        }
        game.order_moves(&mut moves);
        if on_pv
            && let Some(&first) = self.prev_pv.get(usize::from(ply))
            && let Some(i) = moves.iter().position(|&m| m == first)
        {
            moves[..=i].rotate_right(1);
        }
        let mut best = -INFINITY;
        let mut child_pv = Pv::<G::Move>::new();
        for (i, &mv) in moves.iter().enumerate() {
            let undo = game.make(mv);
            let score = -self.search(
                game,
                depth - 1,
                ply + 1,
                -beta,
                -alpha,
                &mut child_pv,
                on_pv && i == 0,
            );
            game.unmake(mv, undo);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    pv.clear();
                    let _ = pv.push(mv);
                    for &m in child_pv.iter() {
                        if pv.push(m).is_err() {
                            break;
                        }
                    }
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Searches `game` with iterative deepening within `limits`.
///
/// Returns the last completed iteration (or the first legal move with the nodes
/// spent, if not even depth 1 completed). Same position and limits, same result:
/// node counts do not depend on the clock unless a time limit or `stop` ends the search.
pub fn search<G: Game, C: Control<G::Move>>(
    game: &mut G,
    limits: Limits,
    control: &mut C,
) -> SearchResult<G::Move> {
    let mut root_moves = G::Moves::default();
    game.generate(&mut root_moves);
    let mut result = SearchResult {
        best: root_moves.first().copied(),
        score: match game.outcome() {
            Some(o) => terminal_score(o, game.player_to_move(), 0),
            None => 0,
        },
        depth: 0,
        nodes: 0,
        pv: Pv::new(),
    };
    if root_moves.is_empty() {
        return result;
    }
    let max_depth = if limits.depth == 0 {
        MAX_PV as u8
    } else {
        limits.depth.min(MAX_PV as u8)
    };
    let mut s = Negamax {
        control,
        limits,
        nodes: 0,
        aborted: false,
        horizon_hit: false,
        prev_pv: Pv::new(),
    };
    let mut pv = Pv::new();
    for depth in 1..=max_depth {
        s.horizon_hit = false;
        let score = s.search(game, depth, 0, -INFINITY, INFINITY, &mut pv, true);
        if s.aborted {
            break;
        }
        result.best = pv.first().copied().or(result.best);
        result.score = score;
        result.depth = depth;
        result.pv = pv.clone();
        result.nodes = s.nodes;
        s.prev_pv = pv.clone();
        s.control.iteration(&result);
        let proven = score.abs() >= MATE_BOUND && Score::from(depth) >= MATE - score.abs();
        if !s.horizon_hit || proven {
            break;
        }
    }
    result.nodes = s.nodes;
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tictactoe::TicTacToe;
    use crate::search::NoControl;

    #[test]
    fn node_limit_is_exact_and_deterministic() {
        let limits = Limits {
            nodes: 1000,
            ..Limits::default()
        };
        let a = search(&mut TicTacToe::default(), limits, &mut NoControl);
        let b = search(&mut TicTacToe::default(), limits, &mut NoControl);
        assert_eq!(a, b);
        assert_eq!(a.nodes, 1000);
        assert!(a.best.is_some());
    }

    #[test]
    fn stop_from_control_ends_search() {
        struct StopAt(u64);
        impl<M> Control<M> for StopAt {
            fn poll(&mut self, nodes: u64) -> bool {
                nodes >= self.0
            }
        }
        let r = search(
            &mut TicTacToe::default(),
            Limits::default(),
            &mut StopAt(512),
        );
        assert_eq!(r.nodes, 512);
        assert!(r.best.is_some());
    }
}
