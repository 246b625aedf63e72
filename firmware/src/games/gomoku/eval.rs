//! Line-pattern evaluation.
//!
//! * [`Counts`]: for each colour, how many five-point windows on the board hold
//!   1–5 of its stones and none of the other colour. A window with one stone per
//!   side is dead; the counts tell open shapes from closed ones (`..XXX..` lies in
//!   three live windows, `OXXX..` in one). They are updated incrementally: a stone
//!   touches at most 20 windows. [`Counts::score`] turns them into a score.
//! * [`analyze`]: what a stone on an empty point would make for each colour
//!   (five, fours, open four, threes, smaller shapes): move ordering and threat tests.

use super::board::{BLACK, Board, CENTER, POINTS, Point};
use super::rules::{Rule, is_forbidden, is_forbidden_in_place};
use super::shape::{best_window, completions, four_count, is_five, neighbours, pop5, three_points};
use crate::game::Score;

const LOW5: u16 = 0b1_1111;

/// A counter to change: (colour, stone count).
type Slot = Option<(usize, usize)>;

/// Live-window counts per colour and stone count (index 0 unused).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    n: [[u16; 6]; 2],
}

/// Value of a live window holding 1–4 stones of the side to move.
const MINE: [Score; 5] = [0, 1, 8, 60, 0];
/// Value of a live window holding 1–4 stones of the opponent.
const THEIRS: [Score; 5] = [0, 1, 7, 45, 400];
/// Score when the side to move has a four: it makes five next move.
pub const FOUR_TO_MOVE: Score = 10_000;

impl Counts {
    /// Counts every window of `board` from scratch: the stones are put on an empty
    /// board one by one with [`Counts::update`] (a stone touches at most 20
    /// windows, so this costs far less than reading every window of the board).
    pub fn from_board(board: &Board) -> Self {
        let mut counts = Counts::default();
        let mut built = Board::new();
        for p in 0..POINTS as u8 {
            if let Some(side) = board.get(p) {
                counts.update(&built, p, side, true);
                built.set(p, side);
            }
        }
        counts
    }

    /// Counts every window by reading it (the reference for the tests).
    #[cfg(test)]
    pub(crate) fn from_windows(board: &Board) -> Self {
        let mut counts = Counts::default();
        for p in 0..POINTS as u8 {
            for d in 0..4 {
                let line = board.line(p, d);
                // The window p ..= p+4 is bits 5..=9.
                let w = LOW5 << 5;
                if line.off & w != 0 {
                    continue;
                }
                let (b, wh) = ((line.black & w).count_ones(), (line.white & w).count_ones());
                match (b, wh) {
                    (0, 0) => {}
                    (n, 0) => counts.n[0][n as usize] += 1,
                    (0, n) => counts.n[1][n as usize] += 1,
                    _ => {}
                }
            }
        }
        counts
    }

    /// Updates the counts for a stone of `side` put on (`add`) or taken from the
    /// empty point `p`; `board` must not hold that stone.
    pub fn update(&mut self, board: &Board, p: Point, side: u8, add: bool) {
        let s = usize::from(side & 1);
        let o = s ^ 1;
        for line in board.lines(p) {
            let (own, other) = (line.own(side), line.own(side ^ 1));
            for start in 1..=5u32 {
                let w = LOW5 << start;
                if line.off & w != 0 {
                    continue;
                }
                let (a, b) = (pop5(own, start) as usize, pop5(other, start) as usize);
                // (a, b) without the stone, (a + 1, b) with it.
                let (mut from, mut to): (Slot, Slot) = (None, None);
                if b == 0 {
                    if a > 0 {
                        from = Some((s, a));
                    }
                    to = Some((s, a + 1));
                } else if a == 0 {
                    from = Some((o, b));
                }
                if !add {
                    core::mem::swap(&mut from, &mut to);
                }
                if let Some((c, k)) = from {
                    self.n[c][k] = self.n[c][k].wrapping_sub(1);
                }
                if let Some((c, k)) = to {
                    self.n[c][k] = self.n[c][k].wrapping_add(1);
                }
            }
        }
    }

    /// Number of live windows of `side` holding `stones` of its stones.
    pub fn get(&self, side: u8, stones: usize) -> u16 {
        self.n[usize::from(side & 1)]
            .get(stones)
            .copied()
            .unwrap_or(0)
    }

    /// Score for `to_move`: a four of its own wins next move; otherwise live
    /// windows weighted by stone count, the opponent's fours counting heavily.
    pub fn score(&self, to_move: u8) -> Score {
        let (me, them) = (usize::from(to_move & 1), usize::from((to_move ^ 1) & 1));
        if self.n[me][4] > 0 || self.n[me][5] > 0 {
            return FOUR_TO_MOVE;
        }
        let mut score = 0;
        for k in 1..5 {
            score +=
                MINE[k] * Score::from(self.n[me][k]) - THEIRS[k] * Score::from(self.n[them][k]);
        }
        score
    }
}

/// What one stone on an empty point makes for one colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threat {
    /// It makes a five (a win).
    pub five: bool,
    /// Number of fours it makes (a straight four counts once).
    pub fours: u8,
    /// It makes a straight four or two fours: two points the opponent cannot both block.
    pub open_four: bool,
    /// Number of lines where it makes a three (one move from a straight four).
    pub threes: u8,
    /// Black may not play it (renju).
    pub forbidden: bool,
    /// Ordering value: wins and double threats first, then fours, threes, smaller shapes.
    pub score: u32,
}

/// Ordering value of a five.
pub const FIVE_SCORE: u32 = 1 << 20;
const OPEN_FOUR_SCORE: u32 = 100_000;
const FOUR_THREE_SCORE: u32 = 40_000;
const THREE_THREE_SCORE: u32 = 20_000;
const FOUR_SCORE: u32 = 3_000;
const THREE_SCORE: u32 = 2_000;
/// Value of the best live window through the point by its stone count (centre included).
const SHAPE: [u32; 6] = [0, 2, 20, 150, 0, 0];

/// Analyses a stone on the empty point `p` for both colours (`[black, white]`).
///
/// The shapes are read by `shapes` and the renju forbidden-point test (when the
/// shapes make one possible) runs after it has returned: the recursive test's
/// frames then stand on the caller's frame only, not on the shapes' windows too.
#[inline(always)]
pub fn analyze(board: &Board, p: Point, rule: Rule) -> [Threat; 2] {
    let mut t = shapes(board, p, rule);
    let black = &mut t[usize::from(BLACK)];
    if black.forbidden {
        black.forbidden = is_forbidden(board, p);
        if black.forbidden {
            black.score = 0;
        }
    }
    t
}

/// [`analyze`] with the forbidden-point test made on `board` itself (restored
/// before returning) instead of a copy: for the search, whose deepest frames
/// should not hold a second board.
#[inline(always)]
pub fn analyze_in_place(board: &mut Board, p: Point, rule: Rule) -> [Threat; 2] {
    let mut t = shapes(board, p, rule);
    let black = &mut t[usize::from(BLACK)];
    if black.forbidden {
        black.forbidden = is_forbidden_in_place(board, p);
        if black.forbidden {
            black.score = 0;
        }
    }
    t
}

/// [`analyze`] without the forbidden-point test: black's `forbidden` is set when
/// the point may be forbidden (renju, no five, and two fours, two threes or an
/// overline) and its score is the one it has if it is not.
#[inline(never)]
fn shapes(board: &Board, p: Point, rule: Rule) -> [Threat; 2] {
    let mut t = [Threat::default(); 2];
    let mut small = [0u32; 2];
    let mut overline = [false; 2];
    for line in board.lines(p) {
        for (side, th) in t.iter_mut().enumerate() {
            let side = side as u8;
            let (own, blocked) = (line.own(side) | CENTER, line.blocked(side));
            let near = neighbours(own);
            if near < 2 {
                // Nothing but a one or a two here: skip the threat tests.
                small[usize::from(side)] += SHAPE[near as usize + 1];
                continue;
            }
            let exact = rule.exact(side);
            if is_five(own, exact) {
                th.five = true;
            } else if super::shape::run(own) > 5 {
                overline[usize::from(side)] = true;
            }
            let c = completions(own, blocked, exact);
            if c != 0 {
                th.fours += four_count(c) as u8;
                th.open_four |= c.count_ones() >= 2;
            } else if three_points(own, blocked, exact) != 0 {
                th.threes += 1;
            } else {
                small[usize::from(side)] += SHAPE[best_window(own, blocked) as usize];
            }
        }
    }
    for (side, th) in t.iter_mut().enumerate() {
        th.open_four |= th.fours >= 2;
        th.forbidden = rule.has_forbidden()
            && side == usize::from(BLACK)
            && !th.five
            && (th.fours >= 2 || th.threes >= 2 || overline[side]);
        th.score = if th.five {
            FIVE_SCORE
        } else if th.open_four {
            OPEN_FOUR_SCORE
        } else if th.fours > 0 && th.threes > 0 {
            FOUR_THREE_SCORE
        } else if th.threes >= 2 {
            THREE_THREE_SCORE
        } else {
            u32::from(th.fours) * FOUR_SCORE + u32::from(th.threes) * THREE_SCORE + small[side]
        };
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Notation};
    use crate::games::gomoku::board::parse_point;
    use crate::games::gomoku::position::Gomoku;

    #[test]
    fn analyze_finds_fours_threes_and_fives() {
        let p = Gomoku::parse_position("free h8a1i8a3j8a5").unwrap();
        let g8 = parse_point("g8").unwrap();
        let [b, w] = analyze(p.board(), g8, Rule::Free);
        assert_eq!((b.fours, b.open_four, b.five), (1, true, false));
        assert!(!w.five && w.fours == 0);
        let f8 = parse_point("f8").unwrap();
        let [b, _] = analyze(p.board(), f8, Rule::Free);
        assert_eq!((b.fours, b.open_four, b.threes), (1, false, 0));
        let p = Gomoku::parse_position("free h8a1i8a3j8a5k8a7").unwrap();
        let [b, w] = analyze(p.board(), g8, Rule::Free);
        assert!(b.five && b.score == FIVE_SCORE && !w.five);
        let [_, w] = analyze(p.board(), parse_point("a2").unwrap(), Rule::Free);
        assert_eq!(w.fours, 1, "a1 a2 a3 . a5 is a four");
    }

    #[test]
    fn forbidden_points_score_nothing_for_black() {
        let p = Gomoku::parse_position("renju f8a1g8a3h9a5h10a7").unwrap();
        let [b, w] = analyze(p.board(), parse_point("h8").unwrap(), Rule::Renju);
        assert!(b.forbidden && b.score == 0 && b.threes == 2);
        assert!(!w.forbidden);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        #[test]
        fn incremental_counts_equal_scratch(picks in proptest::collection::vec(0usize..225, 1..80)) {
            let mut pos = Gomoku::new(Rule::Free);
            let mut counts = Counts::from_board(pos.board());
            for pick in picks {
                let mut legal = heapless::Vec::<Point, POINTS>::new();
                pos.generate(&mut legal);
                if legal.is_empty() { break; }
                let mv = legal[pick % legal.len()];
                let side = pos.player_to_move();
                let before = counts;
                counts.update(pos.board(), mv, side, true);
                let undo = pos.make(mv);
                proptest::prop_assert_eq!(counts, Counts::from_board(pos.board()));
                proptest::prop_assert_eq!(counts, Counts::from_windows(pos.board()));
                pos.unmake(mv, undo);
                counts.update(pos.board(), mv, side, false);
                proptest::prop_assert_eq!(counts, before);
                counts.update(pos.board(), mv, side, true);
                pos.make(mv);
                proptest::prop_assert_eq!(pos.evaluate(), counts.score(pos.player_to_move()));
            }
        }
    }
}
