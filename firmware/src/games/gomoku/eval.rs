//! The evaluation: every stone's line patterns ([`super::lines`]), kept up to
//! date move by move.
//!
//! For each stone and each of the four directions, the line pattern of its row
//! (its 11-point window under the rule's table: a four, an open three, a closed
//! two…) is worth [`super::lines::STONE_VALUE`]; a row of `k` stones is counted
//! by each of its stones. A stone changes the patterns of the stones within five
//! points of it along its four lines only, so [`Eval::update`] reads those four
//! lines once and looks up each stone's window before and after. The counts of
//! fours and open threes per colour tell the search at once whether a side can
//! make five or an open four.

use super::board::{Board, FullLine, POINTS, Point};
use super::lines::{B3, B4, D4, F3, F3S, F4, Pattern, Table, stone_value};
use super::rules::Rule;
use crate::game::{MATE_BOUND, Score};

/// Pattern sums per colour, kept up to date move by move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Eval {
    /// Sum of the stones' pattern values per colour.
    sum: [i32; 2],
    /// Stone-directions per colour with a four (`B4`, `F4`, `D4`), an open
    /// three (`F3`, `F3S`) and a closed three (`B3`).
    count: [[u16; 3]; 2],
}

/// Which of [`Eval`]'s counters a pattern adds to.
fn counter(pattern: Pattern) -> Option<usize> {
    match pattern {
        B4 | F4 | D4 => Some(0),
        F3 | F3S => Some(1),
        B3 => Some(2),
        _ => None,
    }
}

/// Score when the side to move has a four: it makes five next move.
pub const FOUR_TO_MOVE: Score = 10_000;
/// Bonus of the side to move for an open three (it can make a straight four)
/// when the opponent has no four to answer with.
const THREE_TO_MOVE: Score = 250;
/// Bonus of the side to move (the move it is about to make).
const TEMPO: Score = 20;

impl Eval {
    /// Counts every stone of `board` under `rule` from scratch.
    pub fn from_board(board: &Board, rule: Rule) -> Self {
        let mut e = Eval::default();
        count_into(&mut e, board, rule);
        e
    }

    #[inline(always)]
    fn add(&mut self, side: u8, pattern: Pattern, sign: i32) {
        let s = usize::from(side & 1);
        self.sum[s] += sign * stone_value(pattern);
        if let Some(k) = counter(pattern) {
            let c = &mut self.count[s][k];
            *c = if sign > 0 {
                c.wrapping_add(1)
            } else {
                c.wrapping_sub(1)
            };
        }
    }

    /// Updates the sums for a stone of `side` put on (`add`) or taken from an
    /// empty point, given the four whole lines through that point without its
    /// stone ([`Board::line_through`], or the host's rotated words).
    #[inline(never)]
    pub fn update(&mut self, lines: &[FullLine; 4], side: u8, add: bool, rule: Rule) {
        update_into(self, lines, side, add, rule);
    }

    /// [`Eval::update`] reading the four lines through `p` from `board`.
    pub fn update_at(&mut self, board: &Board, p: Point, side: u8, add: bool, rule: Rule) {
        self.update(&board.full_lines(p), side, add, rule);
    }

    /// `true` when `side` has a four: a point where it makes five.
    pub fn has_four(&self, side: u8) -> bool {
        self.count[usize::from(side & 1)][0] > 0
    }

    /// `true` when `side` has an open three: a point where it makes a straight four.
    pub fn has_open_three(&self, side: u8) -> bool {
        self.count[usize::from(side & 1)][1] > 0
    }

    /// `true` when `side` has a three of any kind (a point where it makes a four).
    pub fn has_three(&self, side: u8) -> bool {
        let c = &self.count[usize::from(side & 1)];
        c[1] + c[2] > 0
    }

    /// About how many open threes `side` has: its stone-directions with an open
    /// three pattern, three a row.
    pub fn open_threes(&self, side: u8) -> u16 {
        self.count[usize::from(side & 1)][1] / 3
    }

    /// About how many threes (open or closed) `side` has: its stone-directions
    /// with a three pattern, three a row.
    pub fn threes(&self, side: u8) -> u16 {
        let c = &self.count[usize::from(side & 1)];
        (c[1] + c[2]) / 3
    }

    /// Score for `to_move`: a four of its own wins next move; otherwise the
    /// pattern sums, the side to move's open three counting as a straight four
    /// to come when the opponent has no four to answer it with.
    pub fn score(&self, to_move: u8) -> Score {
        let (me, them) = (to_move & 1, (to_move ^ 1) & 1);
        if self.has_four(me) {
            return FOUR_TO_MOVE;
        }
        let mut score = self.sum[usize::from(me)] - self.sum[usize::from(them)] + TEMPO;
        if self.has_open_three(me) && !self.has_four(them) {
            score += THREE_TO_MOVE;
        }
        // Below the mate scores whatever the board holds (the search keeps
        // scores in 16 bits).
        score.clamp(-(MATE_BOUND - 1), MATE_BOUND - 1)
    }
}

/// What a stone's line-pattern changes are added to (see [`update_into`]).
pub trait PatternSink {
    /// A stone of `side` has (`sign` 1) or no longer has (`sign` -1) `pattern`
    /// in one direction.
    fn add_pattern(&mut self, side: u8, pattern: Pattern, sign: i32);
}

impl PatternSink for Eval {
    #[inline(always)]
    fn add_pattern(&mut self, side: u8, pattern: Pattern, sign: i32) {
        self.add(side, pattern, sign);
    }
}

/// Gives `sink` every stone's line pattern in each direction of `board` under
/// `rule` (a count from scratch).
pub fn count_into<S: PatternSink>(sink: &mut S, board: &Board, rule: Rule) {
    let tables = Table::both(rule);
    for p in 0..POINTS as u8 {
        if let Some(side) = board.get(p) {
            for line in board.lines(p) {
                sink.add_pattern(side, tables[usize::from(side)].pattern(&line, side), 1);
            }
        }
    }
}

/// Gives `sink` the line-pattern changes of a stone of `side` put on (`add`) or
/// taken from an empty point, given the four whole lines through that point
/// without its stone ([`Board::line_through`], or the host's rotated words):
/// the patterns of the stones within five points of it along its four lines.
#[inline(always)]
pub fn update_into<S: PatternSink>(
    sink: &mut S,
    lines: &[FullLine; 4],
    side: u8,
    add: bool,
    rule: Rule,
) {
    let tables = Table::both(rule);
    let sign = if add { 1 } else { -1 };
    for without in lines {
        let at = without.at;
        let with = without.with_stone(side);
        let mut near = without.stones_near();
        while near != 0 {
            let i = near.trailing_zeros() as u8;
            near &= near - 1;
            let colour = u8::from(without.white >> i & 1 != 0);
            let table = tables[usize::from(colour)];
            let before = table.pattern(&without.window(i), colour);
            let after = table.pattern(&with.window(i), colour);
            if before != after {
                sink.add_pattern(colour, before, -sign);
                sink.add_pattern(colour, after, sign);
            }
        }
        let own = tables[usize::from(side)].pattern(&with.window(at), side);
        sink.add_pattern(side, own, sign);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Notation};
    use crate::games::gomoku::position::Gomoku;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        #[test]
        fn incremental_sums_equal_scratch(
            picks in proptest::collection::vec(0usize..225, 1..90),
            rule in 0usize..4,
        ) {
            let rule = [Rule::Free, Rule::Standard, Rule::Renju, Rule::Caro][rule];
            let mut pos = Gomoku::new(rule);
            let mut eval = Eval::from_board(pos.board(), rule);
            for pick in picks {
                let mut legal = heapless::Vec::<Point, POINTS>::new();
                pos.generate(&mut legal);
                if legal.is_empty() { break; }
                let mv = legal[pick % legal.len()];
                let side = pos.player_to_move();
                let before = eval;
                eval.update_at(pos.board(), mv, side, true, rule);
                let undo = pos.make(mv);
                proptest::prop_assert_eq!(eval, Eval::from_board(pos.board(), rule));
                pos.unmake(mv, undo);
                eval.update_at(pos.board(), mv, side, false, rule);
                proptest::prop_assert_eq!(eval, before);
                eval.update_at(pos.board(), mv, side, true, rule);
                pos.make(mv);
            }
        }
    }

    #[test]
    fn fours_and_threes_are_seen() {
        let pos = Gomoku::parse_position("free h8a1i8c5j8e1").unwrap();
        let e = Eval::from_board(pos.board(), Rule::Free);
        assert!(e.has_open_three(0) && !e.has_four(0));
        assert!(!e.has_three(1));
        let pos = Gomoku::parse_position("free h8a1i8a3j8a5k8a7").unwrap();
        let e = Eval::from_board(pos.board(), Rule::Free);
        assert!(e.has_four(0));
        assert_eq!(e.score(0), FOUR_TO_MOVE);
        assert!(e.score(1) < 0);
    }
}
