//! Tic-tac-toe (seed 000's "九格棋"): rules, notation and a perfect player.
//!
//! Cells are numbered 0–8 in reading order from the top-left. On the wire and in
//! the TUI a cell is `a1`–`c3` (column, then row counted from the bottom) or a
//! digit `1`–`9` in reading order. A position is nine characters `x`, `o`, `.`
//! in reading order, optionally split into rows by `/`: `x.o/.x./..o`.
//! X moves first, so the side to move follows from the counts.

use core::fmt;

use crate::game::{Game, Notation, Outcome, Score};
use crate::text::ParseError;

/// The eight winning lines as cell bitmasks.
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const FULL: u16 = 0b111_111_111;

/// Search order: centre, corners, edges.
const PREFERENCE: [u8; 9] = [4, 0, 2, 6, 8, 1, 3, 5, 7];

/// A tic-tac-toe position: one bitmask per player (bit `i` = cell `i`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    marks: [u16; 2],
}

/// A move: the cell index 0–8 in reading order.
pub type Cell = u8;

impl TicTacToe {
    /// The empty board, X to move.
    pub fn new() -> Self {
        Self::default()
    }

    /// What stands on `cell`: `Some(0)` for X, `Some(1)` for O.
    pub fn at(&self, cell: Cell) -> Option<u8> {
        let bit = 1u16 << cell;
        if self.marks[0] & bit != 0 {
            Some(0)
        } else if self.marks[1] & bit != 0 {
            Some(1)
        } else {
            None
        }
    }

    /// Number of marks on the board.
    pub fn ply(&self) -> u32 {
        (self.marks[0] | self.marks[1]).count_ones()
    }

    /// The completed line, if a player has three in a row.
    pub fn winning_line(&self) -> Option<u16> {
        LINES
            .iter()
            .copied()
            .find(|&l| self.marks[0] & l == l || self.marks[1] & l == l)
    }

    fn has_three(marks: u16) -> bool {
        LINES.iter().copied().filter(|&l| marks & l == l).count() > 0
    }

    /// Parses a cell name (`a1`–`c3`, or `1`–`9` in reading order).
    pub fn parse_cell(text: &str) -> Result<Cell, ParseError> {
        match text.as_bytes() {
            [d @ b'1'..=b'9'] => Ok(d - b'1'),
            [c @ (b'a'..=b'c' | b'A'..=b'C'), r @ b'1'..=b'3'] => {
                let col = c.to_ascii_lowercase() - b'a';
                let row_from_top = 2 - (r - b'1');
                Ok(row_from_top * 3 + col)
            }
            _ => Err(ParseError("cell must be a1..c3 or 1..9")),
        }
    }

    /// Writes a cell as `a1`–`c3`.
    pub fn write_cell(cell: Cell, out: &mut dyn fmt::Write) -> fmt::Result {
        let col = (b'a' + cell % 3) as char;
        let row = (b'1' + (2 - cell / 3)) as char;
        out.write_char(col)?;
        out.write_char(row)
    }
}

impl Game for TicTacToe {
    type Move = Cell;
    type Undo = ();
    type Moves = heapless::Vec<Cell, 9>;
    /// A node costs up to ~550 ticks on the micro:bit v1 (the HIL report's ttt rows).
    const POLL_EVERY: u64 = crate::search::poll_every(550);

    fn player_to_move(&self) -> u8 {
        (self.ply() % 2) as u8
    }

    fn generate(&self, moves: &mut Self::Moves) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        let occupied = self.marks[0] | self.marks[1];
        for &cell in &PREFERENCE {
            if occupied & (1 << cell) == 0 {
                let _ = moves.push(cell);
            }
        }
    }

    fn make(&mut self, mv: Cell) {
        let side = usize::from(self.player_to_move());
        self.marks[side] |= 1 << mv;
    }

    fn unmake(&mut self, mv: Cell, _undo: ()) {
        let side = 1 - usize::from(self.player_to_move());
        self.marks[side] &= !(1 << mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        if Self::has_three(self.marks[0]) {
            Some(Outcome::Win(0))
        } else if Self::has_three(self.marks[1]) {
            Some(Outcome::Win(1))
        } else if self.marks[0] | self.marks[1] == FULL {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// Lines still open to one side only, weighted by the marks already in them.
    fn evaluate(&self) -> Score {
        let me = usize::from(self.player_to_move());
        let (mine, theirs) = (self.marks[me], self.marks[1 - me]);
        LINES
            .iter()
            .map(|&l| {
                let (a, b) = ((mine & l).count_ones(), (theirs & l).count_ones());
                match (a, b) {
                    (n, 0) => (n * n) as Score,
                    (0, n) => -((n * n) as Score),
                    _ => 0,
                }
            })
            .sum()
    }
}

impl Notation for TicTacToe {
    const NAME: &'static str = "ttt";

    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let mut pos = Self::default();
        let mut cell = 0u8;
        for b in text.bytes() {
            let side = match b {
                b'/' => continue,
                b'.' | b'-' | b'_' => None,
                b'x' | b'X' => Some(0),
                b'o' | b'O' => Some(1),
                _ => return Err(ParseError("position may hold only x, o, . and /")),
            };
            if cell >= 9 {
                return Err(ParseError("position has more than 9 cells"));
            }
            if let Some(s) = side {
                pos.marks[s] |= 1 << cell;
            }
            cell += 1;
        }
        if cell != 9 {
            return Err(ParseError("position needs exactly 9 cells"));
        }
        let (x, o) = (pos.marks[0].count_ones(), pos.marks[1].count_ones());
        if x != o && x != o + 1 {
            return Err(ParseError(
                "X moves first: X must have as many marks as O or one more",
            ));
        }
        let (xw, ow) = (Self::has_three(pos.marks[0]), Self::has_three(pos.marks[1]));
        let impossible = if xw { ow || x == o } else { ow && x != o };
        if impossible {
            return Err(ParseError(
                "unreachable position: play would have stopped at the first win",
            ));
        }
        Ok(pos)
    }

    fn write_position(&self, out: &mut dyn fmt::Write) -> fmt::Result {
        for cell in 0..9u8 {
            if cell > 0 && cell % 3 == 0 {
                out.write_char('/')?;
            }
            out.write_char(match self.at(cell) {
                Some(0) => 'x',
                Some(_) => 'o',
                None => '.',
            })?;
        }
        Ok(())
    }

    fn parse_move(&self, text: &str) -> Result<Cell, ParseError> {
        let cell = Self::parse_cell(text)?;
        if self.outcome().is_some() {
            return Err(ParseError("the game is over"));
        }
        if self.at(cell).is_some() {
            return Err(ParseError("that cell is taken"));
        }
        Ok(cell)
    }

    fn write_move(&self, mv: Cell, out: &mut dyn fmt::Write) -> fmt::Result {
        Self::write_cell(mv, out)
    }
}

/// Tic-tac-toe as the board serves it: perfect play by the generic negamax search.
/// Levels: every level plays perfectly (the whole tree is 549,946 nodes without pruning).
pub struct TicTacToeEngine;

impl crate::engine::BoardGame for TicTacToeEngine {
    const NAME: &'static str = "ttt";
    fn search(
        request: &crate::engine::EngineRequest<'_>,
        poll: &mut dyn crate::engine::Poll,
        _work: &mut crate::engine::Workspace<'_>,
    ) -> Result<(), ParseError> {
        crate::engine::negamax_request::<TicTacToe>(request, poll)
    }
    fn perft(position: &str, depth: u8) -> Result<u64, ParseError> {
        let mut pos = Self::parse(position)?;
        Ok(crate::engine::perft(&mut pos, depth))
    }
}

impl TicTacToeEngine {
    fn parse(position: &str) -> Result<TicTacToe, ParseError> {
        TicTacToe::parse_position(position.trim())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{MATE_BOUND, MoveList};
    use crate::search::{Limits, NoControl, negamax::search};

    fn best(pos: &TicTacToe) -> (Cell, Score) {
        let r = search(&mut pos.clone(), Limits::default(), &mut NoControl);
        (r.best.expect("a move"), r.score)
    }

    #[test]
    fn start_position_is_a_draw_with_perfect_play() {
        let r = search(&mut TicTacToe::new(), Limits::default(), &mut NoControl);
        assert_eq!(r.score, 0);
        assert_eq!(r.depth, 9);
    }

    #[test]
    fn takes_an_immediate_win_and_blocks_a_threat() {
        let pos = TicTacToe::parse_position("xx./oo./...").unwrap();
        assert_eq!(best(&pos).0, 2);
        assert!(best(&pos).1 >= MATE_BOUND);
        let pos = TicTacToe::parse_position("xx./o../...").unwrap();
        assert_eq!(best(&pos).0, 2, "O must block");
    }

    /// Plays the engine as `engine_side` against every possible opponent line.
    fn never_loses(pos: &mut TicTacToe, engine_side: u8, games: &mut u32) {
        if let Some(o) = pos.outcome() {
            assert_ne!(o, Outcome::Win(1 - engine_side), "engine lost: {pos:?}");
            *games += 1;
            return;
        }
        if pos.player_to_move() == engine_side {
            let (mv, _) = best(pos);
            pos.make(mv);
            never_loses(pos, engine_side, games);
            pos.unmake(mv, ());
        } else {
            let mut moves = heapless::Vec::<Cell, 9>::new();
            pos.generate(&mut moves);
            for &mv in moves.iter() {
                pos.make(mv);
                never_loses(pos, engine_side, games);
                pos.unmake(mv, ());
            }
        }
    }

    #[test]
    fn engine_never_loses_against_any_opponent_line() {
        for side in 0..2 {
            let mut games = 0;
            never_loses(&mut TicTacToe::new(), side, &mut games);
            assert!(games > 50, "explored {games} games");
        }
    }

    #[test]
    fn notation_round_trips_and_rejects_bad_input() {
        let pos = TicTacToe::parse_position("x.o/.x./..o").unwrap();
        let mut s = heapless::String::<16>::new();
        pos.write_position(&mut s).unwrap();
        assert_eq!(s.as_str(), "x.o/.x./..o");
        assert!(TicTacToe::parse_position("xxx/.../...").is_err());
        assert!(TicTacToe::parse_position("x.o/.x.").is_err());
        assert!(TicTacToe::parse_position("x.o/.x./..q").is_err());
        assert_eq!(TicTacToe::parse_cell("a3"), Ok(0));
        assert_eq!(TicTacToe::parse_cell("c1"), Ok(8));
        assert_eq!(TicTacToe::parse_cell("5"), Ok(4));
        assert!(pos.parse_move("a3").is_err());
        assert!(pos.parse_move("d4").is_err());
        let mut m = heapless::String::<4>::new();
        pos.write_move(4, &mut m).unwrap();
        assert_eq!(m.as_str(), "b2");
    }

    proptest::proptest! {
        #[test]
        fn make_unmake_restores(moves in proptest::collection::vec(0usize..9, 0..9)) {
            let mut pos = TicTacToe::new();
            let mut played = heapless::Vec::<Cell, 9>::new();
            for pick in moves {
                let mut legal = heapless::Vec::<Cell, 9>::new();
                pos.generate(&mut legal);
                if legal.is_empty() { break; }
                let before = pos;
                let mv = legal[pick % legal.len()];
                pos.make(mv);
                pos.unmake(mv, ());
                proptest::prop_assert_eq!(pos, before);
                pos.make(mv);
                let _ = played.push_move(mv);
            }
        }
    }
}
