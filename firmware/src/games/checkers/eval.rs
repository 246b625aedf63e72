//! Evaluation: distance to the goal, with penalties for stragglers and for
//! pieces that wander off the home–goal axis.
//!
//! A player's *remaining cost* is, in points ([`ROW`] per row):
//! - the sum over its pieces of the rows to its goal tip ([`DIST`]), minus the
//!   minimum a filled goal still has (20 for 10 pieces, 40 for 15);
//! - [`STRAGGLER`] points per row of its rearmost piece (a piece left behind costs
//!   more than its rows alone say: it ends up jumping alone, one step at a time);
//! - [`LATERAL`] points per hole of sideways offset beyond 2 from the line
//!   joining home and goal tips (pieces stranded in a side triangle);
//! - in the endgame (at most [`ENDGAME_PIECES`] pieces outside the goal),
//!   [`ENDGAME`] points per sideways step (hex distance minus rows) the
//!   outside pieces still need under the best assignment of pieces to the
//!   free goal holes, so the last pieces walk along a row toward the holes
//!   that are left, which rows alone cannot see (and filling a hole never
//!   makes the others' assignment worse).
//!
//! The score of player `p` is the smallest remaining cost among its opponents
//! minus its own (for two players: the opponent's minus its own).

use super::board::{DIST, HOLE_ROW, HOLE_X, HOLES};
use super::rules::{Checkers, Move};
use crate::game::Score;

/// Points per row of distance.
pub const ROW: Score = 10;
/// Extra points per row of a player's rearmost piece.
pub const STRAGGLER: Score = 6;
/// Points per hole of sideways offset beyond 2.
pub const LATERAL: Score = 4;
/// Endgame points per sideways step to the nearest free goal hole.
pub const ENDGAME: Score = 2;

/// Steps between holes `a` and `b` on the hexagonal grid.
fn hex_distance(a: usize, b: usize) -> Score {
    let dr = (Score::from(HOLE_ROW[a]) - Score::from(HOLE_ROW[b])).abs();
    let dx = (Score::from(HOLE_X[a]) - Score::from(HOLE_X[b])).abs();
    dr + ((dx - dr) / 2).max(0)
}

/// Sideways steps a piece on `h` needs to reach hole `f`, beyond the rows it
/// has to cover toward `goal` anyway.
fn detour(goal: usize, h: u8, f: u8) -> Score {
    let (h, f) = (usize::from(h) % HOLES, usize::from(f) % HOLES);
    let rows = (Score::from(DIST[goal][h]) - Score::from(DIST[goal][f])).abs();
    hex_distance(h, f) - rows
}

/// Most pieces outside the goal for which the endgame assignment is computed.
pub const ENDGAME_PIECES: usize = 3;

/// Least total detour when each free goal hole in `holes` gets its own piece
/// from `pieces` (`holes.len() <= pieces.len() <= 3`; at most 6 assignments).
fn assignment(goal: usize, pieces: &[u8], holes: &[u8]) -> Score {
    let (k, m) = (pieces.len(), holes.len());
    if m == 0 || m > k {
        return 0;
    }
    let mut best = Score::MAX;
    for (i, &a) in pieces.iter().enumerate() {
        let c0 = detour(goal, a, holes[0]);
        if m == 1 {
            best = best.min(c0);
            continue;
        }
        for (j, &b) in pieces.iter().enumerate() {
            if j == i {
                continue;
            }
            let c1 = c0 + detour(goal, b, holes[1]);
            if m == 2 {
                best = best.min(c1);
                continue;
            }
            for (l, &c) in pieces.iter().enumerate() {
                if l != i && l != j {
                    best = best.min(c1 + detour(goal, c, holes[2]));
                }
            }
        }
    }
    best
}

/// Rows gained toward goal triangle `goal` by `mv` (negative for a retreat, 0 for a pass).
#[inline]
pub fn gain(goal: usize, mv: Move) -> i8 {
    let (Some(from), Some(to)) = (
        DIST[goal % 6].get(usize::from(mv.from)),
        DIST[goal % 6].get(usize::from(mv.to)),
    ) else {
        return 0;
    };
    *from as i8 - *to as i8
}

/// Sideways offset (in holes) of hole `h` from the axis through the tip of
/// `goal` and the opposite tip.
fn lateral(goal: usize, h: usize) -> Score {
    let a = Score::from(DIST[(goal + 1) % 6][h]);
    let b = Score::from(DIST[(goal + 5) % 6][h]);
    (a - b).abs() / 2
}

/// Remaining cost of player `p` (0 once its goal is filled with its own pieces).
pub fn remaining(pos: &Checkers, p: u8) -> Score {
    let goal = usize::from(pos.goal(p));
    let area = pos.goal_area(p);
    let mut back = 0;
    let mut side = 0;
    let mut outside = [0u8; ENDGAME_PIECES];
    let mut k = 0;
    for &h in pos.pieces_of(p) {
        if !area.has(h) {
            if let Some(slot) = outside.get_mut(k) {
                *slot = h;
            }
            k += 1;
        }
        let h = usize::from(h) % HOLES;
        back = back.max(Score::from(DIST[goal][h]));
        side += (lateral(goal, h) - 2).max(0);
    }
    let mut detours = 0;
    if k <= ENDGAME_PIECES {
        let mut holes = [0u8; ENDGAME_PIECES];
        let mut m = 0;
        let occupied = pos.occupied();
        for f in area.iter().filter(|&f| !occupied.has(f)) {
            if let Some(slot) = holes.get_mut(m) {
                *slot = f;
                m += 1;
            }
        }
        detours = assignment(goal, &outside[..k], &holes[..m]);
    }
    let floor = if pos.pieces_per_player() == 15 {
        40
    } else {
        20
    };
    ROW * (Score::from(pos.distance(p)) - floor)
        + STRAGGLER * back
        + LATERAL * side
        + ENDGAME * detours
}

/// Static score of `pos` for player `p`: the best opponent's remaining cost minus `p`'s.
pub fn evaluate(pos: &Checkers, p: u8) -> Score {
    let mine = remaining(pos, p);
    let best_opponent = (0..pos.players())
        .filter(|&q| q != p)
        .map(|q| remaining(pos, q))
        .min()
        .unwrap_or(0);
    best_opponent - mine
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn start_is_balanced_and_advancing_helps() {
        for n in [2, 3, 4, 6] {
            let pos = Checkers::start(n, 10).unwrap();
            for p in 0..n {
                assert_eq!(evaluate(&pos, p), 0, "{n} players");
            }
        }
        let mut pos = Checkers::start(2, 10).unwrap();
        let mv = Move { from: 111, to: 103 };
        assert_eq!(gain(usize::from(pos.goal(0)), mv), 1);
        pos.make(mv);
        assert!(evaluate(&pos, 0) > 0);
        assert_eq!(evaluate(&pos, 0), -evaluate(&pos, 1));
        assert_eq!(gain(0, Move::PASS), 0);
    }

    #[test]
    fn detours_and_assignment() {
        // Goal top; hole c2 = (2, 12) is hole 4.
        assert_eq!(hex_distance(4, 16), 2, "(2,12) to (4,12)");
        assert_eq!(detour(3, 16, 4), 0, "straight below");
        assert_eq!(detour(3, 20, 4), 3, "(4,20): five steps, two of them rows");
        // Two pieces, two holes: the crossing assignment is avoided.
        // Holes d1 (3,9) = 6 and d4 (3,15) = 9; pieces e4 (4,6) = 13, e10 (4,18) = 19.
        assert_eq!(assignment(3, &[13, 19], &[6, 9]), 2);
        assert_eq!(assignment(3, &[19, 13], &[6, 9]), 2);
        assert_eq!(assignment(3, &[13, 19], &[]), 0);
        assert_eq!(assignment(3, &[13, 19, 16], &[6]), 1, "d1 takes e4 or e7");
    }

    #[test]
    fn lateral_offset_is_zero_on_the_axis() {
        // Goal top (3): the vertical axis x = 12.
        assert_eq!(lateral(3, 0), 0);
        assert_eq!(lateral(3, 60), 0);
        assert_eq!(lateral(3, 10), 6, "left end of row 4");
    }
}
