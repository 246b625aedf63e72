//! The game as the rest of Sente sees it: a position plus the move history that
//! repetition detection needs, the natural-move counter, and the [`Game`] /
//! [`Notation`] implementations.

use core::fmt;

use super::board::{Kind, Move, NO_SQUARE, Position, king_slot};
use super::movegen::MAX_MOVES;
use super::rules::{Entry, History, Verdict, repetition, repetition_in};
use crate::game::{Game, Notation, Outcome, Score};
use crate::text::ParseError;

/// Plies without a capture after which the game is drawn: the Chinese rules'
/// 60-round (60 moves per side) natural-move limit. Chosen over the AXF's
/// 50-move form because it is the limit Chinese club and computer play use and
/// it leaves long rook-and-pawn endings room to be won.
pub const NATURAL_LIMIT: u16 = 120;

/// A xiangqi game: position, history and natural-move counter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Xiangqi {
    pos: Position,
    history: History,
    quiet: u16,
}

impl Xiangqi {
    /// Neither side has a piece that can cross the river (a rook, horse, cannon or
    /// pawn): kings, advisors and elephants can never give check or stalemate (a king
    /// always has a free square in its palace), so the game is drawn, as the Chinese
    /// rules draw a position that neither side can win.
    pub fn dead_material(&self) -> bool {
        (0..2u8).all(|color| {
            let (first, _) = Kind::Horse.slots();
            (first..16).all(|i| self.pos.square_of(king_slot(color) + i) == NO_SQUARE)
        })
    }
}

impl Default for Xiangqi {
    fn default() -> Self {
        Self::from_position(Position::start(), 0)
    }
}

impl Xiangqi {
    /// An empty board without history: where a parsed game is put (cheaper
    /// than [`Xiangqi::default`], which parses the opening position).
    pub fn empty() -> Self {
        Self::from_position(Position::empty(), 0)
    }

    /// A game starting at `pos` with `quiet` plies already played without capture.
    pub fn from_position(pos: Position, quiet: u16) -> Self {
        Self {
            pos,
            history: History::default(),
            quiet,
        }
    }
    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }
    /// The move history (what repetition detection sees).
    pub fn history(&self) -> &History {
        &self.history
    }
    /// Plies since the last capture.
    pub fn quiet(&self) -> u16 {
        self.quiet
    }
    /// Plays a (legal) move or, with [`Move::NULL`], passes.
    pub fn push(&mut self, mv: Move) {
        self.history
            .push(Entry::new(self.pos.key(), mv, self.quiet));
        if mv.is_null() {
            self.pos.make_null();
        } else {
            self.pos.make_raw_inlined(mv);
        }
        self.quiet = if mv.captured != 0 {
            0
        } else {
            self.quiet.saturating_add(1)
        };
    }

    /// Plays `mv` on the position alone, for the search's quiescence: not
    /// recorded in the history, the natural-move counter left as it was, and
    /// of the Zobrist key only the low half updated (quiescence reads no
    /// more: no repetition test, no table, the evaluation cache's tag).
    /// Taken back with [`Xiangqi::take_back_unrecorded`].
    pub fn play_unrecorded(&mut self, mv: Move) {
        self.pos.make_unkeyed(mv);
    }

    /// Takes back `mv`, the last move of [`Xiangqi::play_unrecorded`].
    pub fn take_back_unrecorded(&mut self, mv: Move) {
        self.pos.unmake_unkeyed(mv);
    }

    /// [`Position::probe_possible_check`] on the current position (left as it was).
    pub fn probe_possible_check(&mut self, mv: Move) -> Option<bool> {
        self.pos.probe_possible_check(mv)
    }

    /// [`Position::probe_move`] on the current position (left as it was).
    pub fn probe_move(&mut self, mv: Move, in_check: bool) -> Option<bool> {
        self.pos.probe_move(mv, in_check)
    }

    /// [`Position::see_at_least`] on the current position (left as it was).
    pub fn see_at_least(&mut self, mv: Move, threshold: Score) -> bool {
        self.pos.see_at_least(mv, threshold)
    }

    /// Takes back the last [`Xiangqi::push`].
    pub fn pop(&mut self) {
        if let Some(e) = self.history.pop() {
            if e.mv.is_null() {
                self.pos.make_null();
            } else {
                self.pos.unmake_raw(e.mv);
            }
            self.quiet = e.quiet_before();
        }
    }

    /// Repetition verdict for the side to move, `ply` plies below the search root
    /// (0 = the game itself: threefold repetition). With `judge` false any
    /// repetition is a draw (cheaper; the search uses it deep in the tree).
    pub fn repetition(&self, ply: usize, judge: bool) -> Option<Verdict> {
        repetition(&self.pos, &self.history, self.quiet, ply, judge)
    }

    /// [`Xiangqi::repetition`] without a copy of the position (the judge
    /// takes moves back on the position itself and plays them again), for
    /// the search, whose deepest plies the judge runs on.
    #[inline]
    pub fn repetition_in_place(&mut self, ply: usize, judge: bool) -> Option<Verdict> {
        // Fewer than four reversible plies repeat nothing (the test's first
        // look, made here: most of the search's nodes follow a capture).
        if self.quiet < 4 {
            return None;
        }
        repetition_in(&mut self.pos, &self.history, self.quiet, ply, judge)
    }

    /// Legal moves into `buf`; returns how many.
    pub fn legal_moves(&mut self, buf: &mut [Move]) -> usize {
        self.pos.legal_moves(buf, true)
    }

    /// Parses an ICCS move (`h2e2`) and checks that it is legal here.
    pub fn parse_iccs(&mut self, text: &str) -> Result<Move, ParseError> {
        let (from, to) = super::notation::parse_iccs(text)?;
        self.pos
            .legal_move(from, to)
            .ok_or(ParseError("illegal move in this position"))
    }

    /// The game as it was before the recorded moves, and how many are recorded.
    fn root(&self) -> (Self, usize) {
        let mut g = self.clone();
        let mut n = 0;
        while g.history.available() > 0 {
            g.pop();
            n += 1;
        }
        (g, n)
    }
}

impl Game for Xiangqi {
    type Move = Move;
    type Undo = ();
    type Moves = heapless::Vec<Move, MAX_MOVES>;

    fn player_to_move(&self) -> u8 {
        self.pos.side()
    }

    fn generate(&self, moves: &mut Self::Moves) {
        moves.clear();
        if self.quiet >= NATURAL_LIMIT || self.dead_material() || self.repetition(0, true).is_some()
        {
            return;
        }
        let mut buf = [Move::default(); MAX_MOVES];
        let n = self.pos.clone().legal_moves(&mut buf, true);
        for &mv in &buf[..n] {
            let _ = moves.push(mv);
        }
    }

    fn make(&mut self, mv: Move) {
        self.push(mv);
    }

    fn unmake(&mut self, _mv: Move, _undo: ()) {
        self.pop();
    }

    fn outcome(&self) -> Option<Outcome> {
        let me = self.pos.side();
        if !self.pos.clone().has_legal_move() {
            return Some(Outcome::Win(me ^ 1));
        }
        match self.repetition(0, true) {
            Some(Verdict::Win) => return Some(Outcome::Win(me)),
            Some(Verdict::Loss) => return Some(Outcome::Win(me ^ 1)),
            Some(Verdict::Draw) => return Some(Outcome::Draw),
            None => {}
        }
        (self.quiet >= NATURAL_LIMIT || self.dead_material()).then_some(Outcome::Draw)
    }

    fn evaluate(&self) -> Score {
        super::eval::evaluate(&self.pos)
    }
}

impl Notation for Xiangqi {
    const NAME: &'static str = "xiangqi";

    /// `<fen> [moves <iccs>...]`; `startpos` may stand for the opening FEN.
    /// FEN fields after the side are optional; the fifth (plies since the last
    /// capture) feeds the natural-move counter.
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let text = text.trim();
        let (fen, moves) = match text.find("moves") {
            Some(i) => (&text[..i], Some(&text[i + 5..])),
            None => (text, None),
        };
        let fen = fen.trim();
        let (pos, quiet) = if fen == "startpos" {
            (Position::start(), 0)
        } else {
            let pos = Position::parse_fen(fen)?;
            let quiet = match fen.split_ascii_whitespace().nth(4) {
                // Any count from 120 on means the same (drawn); keep it in a byte.
                Some(q) => q
                    .parse::<u16>()
                    .map_err(|_| ParseError("FEN half-move clock must be a number"))?
                    .min(255),
                None => 0,
            };
            (pos, quiet)
        };
        let mut game = Self::from_position(pos, quiet);
        if let Some(moves) = moves {
            for m in moves.split_ascii_whitespace() {
                let mv = game.parse_iccs(m)?;
                game.push(mv);
            }
        }
        Ok(game)
    }

    /// The starting FEN (with the natural-move counter) and the moves played.
    fn write_position(&self, out: &mut dyn fmt::Write) -> fmt::Result {
        let (root, n) = self.root();
        root.pos.write_fen(out)?;
        write!(out, " - - {} 1", root.quiet)?;
        if n > 0 {
            out.write_str(" moves")?;
            for back in (1..=n).rev() {
                if let Some(e) = self.history.get(back) {
                    out.write_char(' ')?;
                    super::notation::write_iccs(e.mv, out)?;
                }
            }
        }
        Ok(())
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        self.clone().parse_iccs(text)
    }

    fn write_move(&self, mv: Move, out: &mut dyn fmt::Write) -> fmt::Result {
        super::notation::write_iccs(mv, out)
    }
}
