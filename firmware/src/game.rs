//! The small traits every game implements, so engines and the protocol can drive it.

use core::fmt;

/// A score in centi-units from the point of view of the side to move.
pub type Score = i32;

/// Score of a won position at the root; a win found `n` plies deep scores `MATE - n`.
pub const MATE: Score = 30_000;
/// Scores at or beyond this magnitude are forced wins or losses.
pub const MATE_BOUND: Score = MATE - 1_000;
/// Larger than every real score; the search window starts at `-INFINITY..INFINITY`.
pub const INFINITY: Score = 32_000;

/// How a finished game ended, as seen by the player numbers of [`Game::player_to_move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The given player (0-based) has won.
    Win(u8),
    /// Nobody won.
    Draw,
}

/// A bounded list of moves (no allocator): the buffer the move generator fills.
pub trait MoveList<M>: Default + core::ops::Deref<Target = [M]> + core::ops::DerefMut {
    /// Appends a move; returns `false` (and drops it) when the list is full.
    fn push_move(&mut self, mv: M) -> bool;
    /// Removes every move.
    fn clear_moves(&mut self);
    /// Keeps only the first `len` moves.
    fn truncate_moves(&mut self, len: usize);
}

impl<M, const N: usize> MoveList<M> for heapless::Vec<M, N> {
    fn push_move(&mut self, mv: M) -> bool {
        self.push(mv).is_ok()
    }
    fn clear_moves(&mut self) {
        self.clear();
    }
    fn truncate_moves(&mut self, len: usize) {
        self.truncate(len);
    }
}

/// A deterministic game of perfect information with make/unmake.
///
/// Two-player zero-sum games use player numbers 0 and 1. Games with more players
/// (Chinese checkers) report [`Game::player_count`] above 2 and are searched by
/// engines that understand n players; games with chance (EinStein) expose the
/// chance event as part of the position (the die roll) and their engines add
/// chance nodes on top of this trait.
pub trait Game: Clone {
    /// One move. Small and `Copy`: it is stored in move lists and principal variations.
    type Move: Copy + Eq + fmt::Debug;
    /// What [`Game::make`] returns so [`Game::unmake`] can restore the position
    /// (`()` when the move alone suffices, `Self` for copy-make).
    type Undo;
    /// The move buffer, e.g. `heapless::Vec<Self::Move, 9>`.
    type Moves: MoveList<Self::Move>;
    /// Nodes between two polls of the generic search (`stop`, move time):
    /// [`crate::search::poll_every`] of the game's measured cost per node.
    const POLL_EVERY: u64 = crate::search::POLL_INTERVAL;

    /// Number of players (2 unless the game says otherwise).
    fn player_count(&self) -> u8 {
        2
    }
    /// The player (0-based) whose turn it is.
    fn player_to_move(&self) -> u8;
    /// Fills `moves` with every legal move (cleared first). Empty when the game is over.
    fn generate(&self, moves: &mut Self::Moves);
    /// Plays `mv`, which must be legal here.
    fn make(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back `mv`, the last move made, with what `make` returned.
    fn unmake(&mut self, mv: Self::Move, undo: Self::Undo);
    /// `Some` when the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Static evaluation from the point of view of the side to move.
    fn evaluate(&self) -> Score;
    /// Move-ordering hook: reorder `moves` so the most promising come first.
    /// The default keeps generation order.
    fn order_moves(&self, moves: &mut [Self::Move]) {
        let _ = moves;
    }
}

/// Text forms shared by the wire protocol, the TUI and the tests.
pub trait Notation: Game {
    /// Short name used on the wire (`ttt`, `gomoku`, `xiangqi`, …).
    const NAME: &'static str;
    /// Parses a position in the game's text form.
    fn parse_position(text: &str) -> Result<Self, crate::text::ParseError>;
    /// Writes the position in the form [`Notation::parse_position`] reads.
    fn write_position(&self, out: &mut dyn fmt::Write) -> fmt::Result;
    /// Parses a move and checks that it is legal in this position.
    fn parse_move(&self, text: &str) -> Result<Self::Move, crate::text::ParseError>;
    /// Writes a move in the form [`Notation::parse_move`] reads.
    fn write_move(&self, mv: Self::Move, out: &mut dyn fmt::Write) -> fmt::Result;
}
