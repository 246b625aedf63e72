//! A gomoku / renju position: the board, the rule, the side to move and the last
//! move, with the [`Game`] and [`Notation`] implementations.

use core::fmt;

use super::board::{BLACK, Board, POINTS, Point, PointSet, SIZE, parse_point, step, write_point};
use super::eval::Eval;
use super::rules::{self, Rule};
use crate::game::{Game, Notation, Outcome, Score};
use crate::text::ParseError;

/// "No point" (e.g. no last move yet).
pub const NO_POINT: Point = 255;

/// A position (64 bytes): 60 bytes of stones plus rule, side to move, stone count
/// and last move. The move history is not kept: the text form lists the stones as
/// an alternating sequence whose last entry is the last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Gomoku {
    board: Board,
    rule: Rule,
    to_move: u8,
    stones: u8,
    last: Point,
}

impl Default for Gomoku {
    fn default() -> Self {
        Self::new(Rule::Free)
    }
}

impl Gomoku {
    /// The empty board under `rule`, black to move.
    pub fn new(rule: Rule) -> Self {
        Self {
            board: Board::new(),
            rule,
            to_move: BLACK,
            stones: 0,
            last: NO_POINT,
        }
    }

    /// The rule set.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The stones.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The stones, to change in place and restore (the renju test without a copy).
    pub(super) fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    /// What stands on `p`: `Some(BLACK)` (0), `Some(WHITE)` (1) or `None`.
    pub fn at(&self, p: Point) -> Option<u8> {
        self.board.get(p)
    }

    /// Number of stones on the board.
    pub fn stones(&self) -> u8 {
        self.stones
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Point> {
        (self.last != NO_POINT).then_some(self.last)
    }

    /// `true` when `p` is forbidden for black (renju only; whoever is to move).
    pub fn is_forbidden(&self, p: Point) -> bool {
        self.rule.has_forbidden() && rules::is_forbidden(&self.board, p)
    }

    /// Black's forbidden points (empty unless the rule is renju): for the TUI and
    /// Yixin's `YXSHOWFORBID`.
    pub fn forbidden_points(&self) -> PointSet {
        let mut set = PointSet::new();
        if self.rule.has_forbidden() {
            for p in 0..POINTS as u8 {
                if rules::is_forbidden(&self.board, p) {
                    set.insert(p);
                }
            }
        }
        set
    }

    /// The five (or longer row, where it wins) made by the last move, as its two end points.
    pub fn winning_line(&self) -> Option<(Point, Point)> {
        rules::five_through(&self.board, self.last_move()?, self.rule)
    }

    /// `true` when the side to move may play `p`: the game is not over, `p` is
    /// empty, and it is not a forbidden point for black under renju.
    pub fn is_legal(&self, p: Point) -> bool {
        self.board.is_empty(p)
            && self.outcome().is_none()
            && !(self.to_move == BLACK && self.is_forbidden(p))
    }

    /// `true` when the side to move has a legal point ([`Gomoku::is_legal`]): `false`
    /// once the game is over, and also while it goes on when renju's black has only
    /// forbidden points left. The RIF rules let a player pass (two passes in a row
    /// draw); this library plays no passes, so the host's referee, TUI and Gomocup
    /// adapter score that position a draw. Stops at the first legal point.
    pub fn has_legal_move(&self) -> bool {
        (0..POINTS as u8).any(|p| self.is_legal(p))
    }

    /// A position set up from stones (test diagrams), `to_move` to play, no last move.
    #[cfg(test)]
    pub(crate) fn from_board(board: Board, rule: Rule, to_move: u8) -> Self {
        let stones = (board.count(BLACK) + board.count(super::board::WHITE)) as u8;
        Self {
            board,
            rule,
            to_move,
            stones,
            last: NO_POINT,
        }
    }

    /// Puts the next stone on `p` without any check (the colour alternates).
    fn place(&mut self, p: Point) -> Point {
        self.board.set(p, self.to_move);
        self.to_move ^= 1;
        self.stones += 1;
        core::mem::replace(&mut self.last, p)
    }

    /// Fails when a finished row stands anywhere except through the last move
    /// (play would have stopped earlier), or black has an overline under renju
    /// other than one its last stone made together with a five.
    fn check_reachable(&self) -> Result<(), ParseError> {
        let (mut overline_last, mut five_last) = (false, false);
        for p in 0..POINTS as u8 {
            let Some(side) = self.board.get(p) else {
                continue;
            };
            for d in 0..4 {
                if step(p, d, -1).and_then(|q| self.board.get(q)) == Some(side) {
                    continue; // not the start of its row
                }
                let mut len = 1;
                let mut q = p;
                while let Some(n) = step(q, d, 1).filter(|&n| self.board.get(n) == Some(side)) {
                    len += 1;
                    q = n;
                }
                // The last move may make two fives at once: each must run through it.
                let mut through_last = p == self.last;
                let mut r = p;
                while let Some(n) = step(r, d, 1).filter(|_| r != q) {
                    r = n;
                    through_last |= r == self.last;
                }
                let opponent =
                    |q: Option<Point>| q.and_then(|q| self.board.get(q)) == Some(side ^ 1);
                let blocked = opponent(step(p, d, -1)) && opponent(step(q, d, 1));
                let wins = self.rule.row_wins(side, len, blocked);
                // Black may not play an overline under renju, unless the same
                // stone makes a five (which wins first): only the last one.
                if self.rule == Rule::Renju && side == BLACK && len > 5 {
                    if !through_last {
                        return Err(ParseError("black may not make an overline under renju"));
                    }
                    overline_last = true;
                }
                five_last |= wins && through_last && side == BLACK;
                if wins && !through_last {
                    return Err(ParseError("the game ended before the last move"));
                }
            }
        }
        if overline_last && !five_last {
            return Err(ParseError("black may not make an overline under renju"));
        }
        Ok(())
    }
}

impl Game for Gomoku {
    type Move = Point;
    type Undo = Point;
    type Moves = heapless::Vec<Point, POINTS>;

    fn player_to_move(&self) -> u8 {
        self.to_move
    }

    /// Every empty point, minus black's forbidden points under renju.
    fn generate(&self, moves: &mut Self::Moves) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        let check = self.to_move == BLACK && self.rule.has_forbidden();
        for p in 0..POINTS as u8 {
            if self.board.is_empty(p) && !(check && rules::is_forbidden(&self.board, p)) {
                let _ = moves.push(p);
            }
        }
    }

    fn make(&mut self, mv: Point) -> Point {
        self.place(mv)
    }

    fn unmake(&mut self, mv: Point, undo: Point) {
        self.board.clear(mv);
        self.to_move ^= 1;
        self.stones -= 1;
        self.last = undo;
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(p) = self.last_move()
            && rules::five_through(&self.board, p, self.rule).is_some()
        {
            return Some(Outcome::Win(self.to_move ^ 1));
        }
        (usize::from(self.stones) == POINTS).then_some(Outcome::Draw)
    }

    /// The line-pattern evaluation (see [`super::eval`]), computed from scratch.
    fn evaluate(&self) -> Score {
        Eval::from_board(&self.board, self.rule).score(self.to_move)
    }
}

/// Marks the packed form of a position's stones (see [`Gomoku::write_packed`]).
pub const PACKED: char = '*';
/// Positions with more stones than this are written packed: the stone list
/// (two or three characters a stone) would not leave room in a request line.
pub const PACK_FROM: usize = 30;
/// The packed form's digits, six bits each (three points of two bits).
const PACK_DIGITS: &[u8; 64] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
/// Characters of the packed board (three points a character).
pub const PACKED_LEN: usize = POINTS.div_ceil(3);

impl Gomoku {
    /// Writes the stones packed: [`PACKED`], the board in [`PACKED_LEN`]
    /// characters (point `p` in bits `2 * (p % 3)` of character `p / 3`: 0 empty,
    /// 1 black, 2 white), a space and the last move. Any position, all 225
    /// points taken included, fits in about 85 characters.
    pub fn write_packed(&self, out: &mut dyn fmt::Write) -> fmt::Result {
        out.write_char(PACKED)?;
        for c in 0..PACKED_LEN {
            let mut digit = 0u8;
            for k in 0..3 {
                let p = c * 3 + k;
                let code = match self.board.get(p.min(POINTS - 1) as Point) {
                    Some(side) if p < POINTS => side + 1,
                    _ => 0,
                };
                digit |= code << (2 * k);
            }
            out.write_char(char::from(PACK_DIGITS[usize::from(digit)]))?;
        }
        if self.last != NO_POINT {
            out.write_char(' ')?;
            write_point(self.last, out)?;
        }
        Ok(())
    }

    /// Reads the packed form after [`PACKED`] (see [`Gomoku::write_packed`]) into
    /// this empty position: the stones are placed in the order
    /// [`Notation::write_position`] lists them, the last move last.
    fn parse_packed(&mut self, text: &str) -> Result<(), ParseError> {
        let (board, last) = text.split_once([' ', '\t']).unwrap_or((text, ""));
        let board = board.as_bytes();
        if board.len() != PACKED_LEN {
            return Err(ParseError("a packed board has 75 characters"));
        }
        let code = |p: usize| -> Result<u8, ParseError> {
            let digit = PACK_DIGITS
                .iter()
                .position(|&d| d == board[p / 3])
                .ok_or(ParseError("bad character in a packed board"))?;
            Ok((digit >> (2 * (p % 3))) as u8 & 3)
        };
        let mut count = [0usize; 2];
        for p in 0..PACKED_LEN * 3 {
            match code(p)? {
                0 => {}
                c @ (1 | 2) if p < POINTS => count[usize::from(c - 1)] += 1,
                _ => return Err(ParseError("bad point code in a packed board")),
            }
        }
        if count[0] != count[1] && count[0] != count[1] + 1 {
            return Err(ParseError("black has as many stones as white or one more"));
        }
        let stones = count[0] + count[1];
        let last = last.trim();
        let last = if stones == 0 {
            if !last.is_empty() {
                return Err(ParseError("an empty board has no last move"));
            }
            NO_POINT
        } else {
            let p = parse_point(last)?;
            let mover = if count[0] > count[1] {
                BLACK
            } else {
                BLACK ^ 1
            };
            if code(usize::from(p))? != mover + 1 {
                return Err(ParseError(
                    "the last move is a stone of the side that moved last",
                ));
            }
            p
        };
        // Both colours' stones in point order, alternating, the last move last.
        let mut next = [0usize; 2];
        for _ in 0..stones.saturating_sub(1) {
            let side = self.to_move;
            let mut p = next[usize::from(side)];
            while p < POINTS && (p == usize::from(last) || code(p)? != side + 1) {
                p += 1;
            }
            if p >= POINTS {
                return Err(ParseError("bad packed board"));
            }
            next[usize::from(side)] = p + 1;
            self.place(p as Point);
        }
        if last != NO_POINT {
            self.place(last);
        }
        Ok(())
    }
}

impl Notation for Gomoku {
    const NAME: &'static str = "gomoku";

    /// Reads `<rule> <stones>`: see the module documentation.
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let text = text.trim();
        let (rule, moves) = text.split_once([' ', '\t']).unwrap_or((text, ""));
        let mut pos = Gomoku::new(Rule::parse(rule)?);
        if let Some(packed) = moves.trim_start().strip_prefix(PACKED) {
            pos.parse_packed(packed)?;
            pos.check_reachable()?;
            return Ok(pos);
        }
        let bytes = moves.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if matches!(bytes[i], b' ' | b'\t' | b',') {
                i += 1;
                continue;
            }
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let p = parse_point(moves.get(start..i).unwrap_or(""))?;
            if usize::from(pos.stones) >= POINTS || !pos.board.is_empty(p) {
                return Err(ParseError("a point is played twice"));
            }
            pos.place(p);
        }
        pos.check_reachable()?;
        Ok(pos)
    }

    /// Writes `<rule> <stones>`: black and white stones alternate in point order,
    /// the last move last, concatenated (`renju h8i9h9`).
    fn write_position(&self, out: &mut dyn fmt::Write) -> fmt::Result {
        out.write_str(self.rule.name())?;
        if self.stones == 0 {
            return Ok(());
        }
        out.write_char(' ')?;
        if usize::from(self.stones) > PACK_FROM {
            return self.write_packed(out);
        }
        let mut next = [0u8; 2];
        let others = usize::from(self.stones) - 1;
        for i in 0..others {
            let side = (i % 2) as u8;
            let found = (next[usize::from(side)]..POINTS as u8)
                .find(|&p| p != self.last && self.board.get(p) == Some(side))
                .ok_or(fmt::Error)?;
            next[usize::from(side)] = found + 1;
            write_point(found, out)?;
        }
        write_point(self.last, out)
    }

    fn parse_move(&self, text: &str) -> Result<Point, ParseError> {
        let p = parse_point(text.trim())?;
        if self.outcome().is_some() {
            Err(ParseError("the game is over"))
        } else if !self.board.is_empty(p) {
            Err(ParseError("that point is taken"))
        } else if self.to_move == BLACK && self.is_forbidden(p) {
            Err(ParseError("forbidden point for black (renju)"))
        } else {
            Ok(p)
        }
    }

    fn write_move(&self, mv: Point, out: &mut dyn fmt::Write) -> fmt::Result {
        write_point(mv, out)
    }
}

/// The centre point `h8`.
pub const CENTER_POINT: Point = (SIZE / 2) * SIZE + SIZE / 2;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::perft;
    use crate::games::gomoku::board::WHITE;

    fn pos(text: &str) -> Gomoku {
        Gomoku::parse_position(text).unwrap()
    }

    fn text(p: &Gomoku) -> heapless::String<700> {
        let mut s = heapless::String::new();
        p.write_position(&mut s).unwrap();
        s
    }

    #[test]
    fn a_legal_move_while_the_game_goes_on() {
        let empty = Gomoku::new(Rule::Renju);
        assert!(empty.has_legal_move());
        let won = Gomoku::parse_position("free h8 a1 i8 a2 j8 a3 k8 a4 l8").unwrap();
        assert!(won.outcome().is_some() && !won.has_legal_move());
    }

    #[test]
    fn positions_round_trip_and_bad_input_is_rejected() {
        let p = pos("renju h8 h9 i9");
        assert_eq!(text(&p).as_str(), "renju h8h9i9");
        assert_eq!(pos(&text(&p)), p);
        assert_eq!(pos("RENJU H8h9,I9"), p);
        assert_eq!(p.player_to_move(), WHITE);
        assert_eq!(p.last_move(), Some(parse_point("i9").unwrap()));
        assert_eq!(text(&pos("free")).as_str(), "free");
        assert_eq!(
            pos("standard a15o1").at(parse_point("o1").unwrap()),
            Some(WHITE)
        );
        for bad in [
            "",
            "gomoku h8",
            "free h8 h8",
            "free h8 z9",
            "free h8 h",
            "free 8h",
            "free h8 h16",
        ] {
            assert!(Gomoku::parse_position(bad).is_err(), "{bad:?} accepted");
        }
        // Five made before the last move: the game was already over.
        assert!(Gomoku::parse_position("free a1a2b1b2c1c2d1d2e1a3").is_err());
        assert!(Gomoku::parse_position("free a1a2b1b2c1c2d1d2e1").is_ok());
        // Black overline under renju.
        assert!(Gomoku::parse_position("renju a1a2b1b2c1c2e1e2f1f2d1").is_err());
        // ... unless the same stone makes a five (d1: six along row 1, five up
        // column d), which wins: the proptest found such a game.
        let both = "renju a1a2b1b2c1c2e1e2f1f2d2o15d3o14d4o13d5o12d1";
        let p = Gomoku::parse_position(both).unwrap();
        assert_eq!(p.outcome(), Some(Outcome::Win(BLACK)));
        assert!(Gomoku::parse_position("standard a1a2b1b2c1c2e1e2f1f2d1").is_ok());
    }

    #[test]
    fn five_rules_differ_on_overlines() {
        // Black's d1 joins a1-c1 and e1-f1 into six.
        let six = "a1a2b1b2c1c2e1e2f1f2d1";
        let free = pos(&["free ", six].concat());
        assert_eq!(free.outcome(), Some(Outcome::Win(BLACK)));
        assert_eq!(free.winning_line(), Some((0, 5)));
        let standard = pos(&["standard ", six].concat());
        assert_eq!(standard.outcome(), None);
        assert_eq!(standard.winning_line(), None);
        // White's overline wins under renju.
        let renju = pos("renju h8a1h10b1h12c1j8e1j10f1l8d1");
        assert_eq!(renju.outcome(), Some(Outcome::Win(WHITE)));
        let five = pos("standard a1a2b1b2c1c2d1d2e1");
        assert_eq!(five.outcome(), Some(Outcome::Win(BLACK)));
        let mut moves = heapless::Vec::<Point, POINTS>::new();
        five.generate(&mut moves);
        assert!(moves.is_empty());
        assert!(five.parse_move("h8").is_err());
    }

    #[test]
    fn renju_forbids_black_double_three_only() {
        // Black h8 h9 / i8 j8 threes meet at... g8 makes 3-3? use a clean one:
        // black stones f8 g8 and h9 h10: h8 makes two open threes.
        let p = pos("renju f8a1g8a3h9a5h10a7");
        let h8 = parse_point("h8").unwrap();
        assert!(p.is_forbidden(h8));
        assert!(!p.is_legal(h8));
        assert!(p.parse_move("h8").is_err());
        assert!(p.forbidden_points().contains(h8));
        let mut moves = heapless::Vec::<Point, POINTS>::new();
        p.generate(&mut moves);
        assert!(!moves.contains(&h8));
        assert_eq!(
            moves.len(),
            POINTS - 8 - p.forbidden_points().len() as usize
        );
        // White may play there, and the same shape is fine for black under free rules.
        let q = pos("free f8a1g8a3h9a5h10a7");
        assert!(q.is_legal(h8) && !q.is_forbidden(h8));
        assert!(q.forbidden_points().is_empty());
    }

    #[test]
    fn perft_counts_empty_points() {
        let mut p = Gomoku::new(Rule::Free);
        assert_eq!(perft(&mut p, 1), 225);
        assert_eq!(perft(&mut p, 2), 225 * 224);
        assert_eq!(p, Gomoku::new(Rule::Free));
    }

    #[test]
    fn full_board_is_a_draw() {
        // Colour by (col + 2 row) mod 4: rows of at most two in every direction;
        // 113 black and 112 white points, played alternately.
        let colour = |q: Point| u8::from((q % 15 + 2 * (q / 15)) % 4 >= 2);
        let blacks = (0..225u8).filter(|&q| colour(q) == BLACK);
        let mut whites = (0..225u8).filter(|&q| colour(q) == WHITE);
        let mut p = Gomoku::new(Rule::Free);
        for b in blacks {
            assert_eq!(p.outcome(), None);
            p.make(b);
            if let Some(w) = whites.next() {
                assert_eq!(p.outcome(), None);
                p.make(w);
            }
        }
        assert_eq!(p.stones(), 225);
        assert_eq!(p.outcome(), Some(Outcome::Draw));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        #[test]
        fn make_unmake_restores(picks in proptest::collection::vec(0usize..225, 0..60), rule in 0u8..3) {
            let rule = [Rule::Free, Rule::Standard, Rule::Renju][usize::from(rule)];
            let mut p = Gomoku::new(rule);
            for pick in picks {
                let mut legal = heapless::Vec::<Point, POINTS>::new();
                p.generate(&mut legal);
                if legal.is_empty() { break; }
                let mv = legal[pick % legal.len()];
                let before = p;
                let undo = p.make(mv);
                let after = p;
                p.unmake(mv, undo);
                proptest::prop_assert_eq!(p, before);
                p = after;
                // The text form reproduces the position.
                proptest::prop_assert_eq!(Gomoku::parse_position(&text(&p)).unwrap(), p);
            }
        }

        /// The packed form reproduces any position, a full board included, and fits
        /// a request line.
        #[test]
        fn packed_form_round_trips(picks in proptest::collection::vec(0usize..225, 0..230), rule in 0u8..4) {
            let rule = [Rule::Free, Rule::Standard, Rule::Renju, Rule::Caro][usize::from(rule)];
            let mut p = Gomoku::new(rule);
            for pick in picks {
                let mut legal = heapless::Vec::<Point, POINTS>::new();
                p.generate(&mut legal);
                if legal.is_empty() || p.outcome().is_some() { break; }
                p.make(legal[pick % legal.len()]);
            }
            let mut packed = heapless::String::<120>::new();
            packed.push_str(p.rule().name()).unwrap();
            packed.push(' ').unwrap();
            p.write_packed(&mut packed).unwrap();
            proptest::prop_assert!(packed.len() <= 90, "{}", packed);
            let parsed = Gomoku::parse_position(&packed);
            proptest::prop_assert!(parsed.is_ok(), "{} {:?} list {:?}", packed, parsed, Gomoku::parse_position(&text(&p)));
            proptest::prop_assert_eq!(parsed.unwrap(), p);
            let t = text(&p);
            proptest::prop_assert!(t.len() <= 90 || usize::from(p.stones()) <= PACK_FROM);
            proptest::prop_assert_eq!(Gomoku::parse_position(&t).unwrap(), p);
        }
    }

    #[test]
    fn packed_form_rejects_bad_boards() {
        let empty = "0".repeat(PACKED_LEN);
        assert_eq!(pos(&std::format!("free *{empty}")), Gomoku::new(Rule::Free));
        // h8 is point 112 = character 37, bits 2..3: black is 1 << 2 = 4.
        let mut one = empty.clone().into_bytes();
        one[37] = b'4';
        let one = std::string::String::from_utf8(one).unwrap();
        let p = pos(&std::format!("renju *{one} h8"));
        assert_eq!((p.stones(), p.last_move()), (1, Some(112)));
        for bad in [
            std::format!("free *{empty} h8"),       // no stone on the last move
            std::format!("free *{one}"),            // stones without a last move
            std::format!("free *{one} h9"),         // last move not a stone
            std::format!("free *{}", &empty[1..]),  // too short
            std::format!("free *{empty}0 h8"),      // too long
            std::format!("free *{}!", &empty[1..]), // bad character
            std::format!("free *{}", "_".repeat(PACKED_LEN)), // code 3
        ] {
            assert!(Gomoku::parse_position(&bad).is_err(), "{bad}");
        }
        // Two white stones, no black one.
        let mut two = empty.into_bytes();
        two[0] = b'A'; // 10 = white (2) at point 0 and at point 1 (2 << 2 = 8): 10
        let two = std::string::String::from_utf8(two).unwrap();
        assert!(Gomoku::parse_position(&std::format!("free *{two} a1")).is_err());
    }
}
