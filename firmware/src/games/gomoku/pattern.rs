//! Level 1, `pattern`: seed 003's one-ply scorer (the XMOVE handheld's engine).
//!
//! For every empty point and each of the four directions, count the side's stones
//! contiguous with the point on both sides (capped at 4) and add
//! `{0, 100, 400, 2000, 10000}[count]` over the directions. Do this for both
//! sides; attack at the own best point if its score is at least the opponent's
//! best, else defend at the opponent's best point.
//!
//! Tie-break (deterministic): among equal scores the point nearest the centre
//! `h8` (Chebyshev distance) wins, then the lower point index (`a1` = 0, row by
//! row). On an empty board the engine plays `h8`. Under renju, black only
//! considers points that are not forbidden for it.

use super::board::{BLACK, CENTER, POINTS, Point, PointSet, SIZE, distance};
use super::position::{CENTER_POINT, Gomoku};
use super::shape::run;
use crate::game::Game;

/// Seed 003's `MarkTransform`: value of a direction by its contiguous stone count.
pub const MARK: [u32; 5] = [0, 100, 400, 2000, 10000];

/// Seed 003's score of the empty point `p` for `side`.
pub fn point_score(pos: &Gomoku, p: Point, side: u8) -> u32 {
    (0..4)
        .map(|d| {
            let count = run(pos.board().line(p, d).own(side) | CENTER) - 1;
            MARK[count.min(4) as usize]
        })
        .sum()
}

fn distance_to_centre(p: Point) -> u8 {
    distance(p, (SIZE / 2) * SIZE + SIZE / 2)
}

/// `true` when `(score, p)` beats `(best_score, best)` under the documented tie-break.
fn better(score: u32, p: Point, best_score: u32, best: Option<Point>) -> bool {
    match best {
        None => true,
        Some(b) => {
            score > best_score
                || (score == best_score && distance_to_centre(p) < distance_to_centre(b))
        }
    }
}

/// The move seed 003's engine plays, never one of `excluded`: `(point, own
/// best score, opponent best score, points scored)`, or `None` when no point
/// is playable.
pub fn choose(pos: &Gomoku, mut excluded: PointSet) -> Option<(Point, u32, u32, u64)> {
    if pos.stones() == 0 && !excluded.contains(CENTER_POINT) {
        return Some((CENTER_POINT, 0, 0, 1));
    }
    let me = pos.player_to_move();
    let check = me == BLACK && pos.rule().has_forbidden();
    let mut scored = 0u64;
    loop {
        let (mut own, mut own_p) = (0, None);
        let (mut opp, mut opp_p) = (0, None);
        for p in 0..POINTS as u8 {
            if !pos.board().is_empty(p) || excluded.contains(p) {
                continue;
            }
            scored += 1;
            let (a, d) = (point_score(pos, p, me), point_score(pos, p, me ^ 1));
            if better(a, p, own, own_p) {
                (own, own_p) = (a, Some(p));
            }
            if better(d, p, opp, opp_p) {
                (opp, opp_p) = (d, Some(p));
            }
        }
        let choice = if own >= opp { own_p } else { opp_p }?;
        if check && pos.is_forbidden(choice) {
            excluded.insert(choice);
            continue;
        }
        return Some((choice, own, opp, scored));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::games::gomoku::board::parse_point;

    fn play(text: &str) -> Point {
        choose(&Gomoku::parse_position(text).unwrap(), PointSet::new())
            .unwrap()
            .0
    }

    #[test]
    fn scores_follow_seed_003() {
        let pos = Gomoku::parse_position("free h8a1i8a3").unwrap();
        // g8 for black: two contiguous stones (h8 i8) horizontally: 400; 0 elsewhere.
        assert_eq!(point_score(&pos, parse_point("g8").unwrap(), BLACK), 400);
        // a2 for white: a1 and a3 are contiguous on both sides vertically: 400.
        assert_eq!(point_score(&pos, parse_point("a2").unwrap(), 1), 400);
        assert_eq!(
            point_score(&pos, parse_point("h9").unwrap(), BLACK),
            100 + 100
        );
    }

    #[test]
    fn attacks_defends_and_opens_in_the_centre() {
        assert_eq!(play("free"), CENTER_POINT);
        // Black four h8-k8: black completes five.
        let mv = play("free h8a1i8a3j8a5k8a7");
        assert!(mv == parse_point("g8").unwrap() || mv == parse_point("l8").unwrap());
        // White to move facing an open three while having nothing: defends at its end.
        let mv = play("free h8a1i8a15j8");
        assert!([parse_point("g8").unwrap(), parse_point("k8").unwrap()].contains(&mv));
    }

    #[test]
    fn never_plays_a_forbidden_point() {
        // Black's best point h8 is a double-three; under renju it goes elsewhere.
        let free = play("free f8a1g8a3h9a5h10o15");
        let renju = Gomoku::parse_position("renju f8a1g8a3h9a5h10o15").unwrap();
        let (mv, ..) = choose(&renju, PointSet::new()).unwrap();
        assert_eq!(free, parse_point("h8").unwrap());
        assert!(renju.is_forbidden(free));
        assert_ne!(mv, free);
        assert!(renju.is_legal(mv));
    }
}
