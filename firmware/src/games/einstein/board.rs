//! Squares, cubes, moves and the position itself.

use core::fmt;

use crate::text::ParseError;

/// A square 0–24 in reading order from the top-left: `a5` = 0, `e5` = 4, `a1` = 20, `e1` = 24.
pub type Square = u8;

/// Number of squares.
pub const SQUARES: u8 = 25;

/// Marks a cube that is not on the board.
pub const OFF: Square = 0xff;

/// Player 0, "red": sets up around `a5` and runs for `e1`.
pub const RED: u8 = 0;
/// Player 1, "blue": sets up around `e1` and runs for `a5`.
pub const BLUE: u8 = 1;

/// The corner each side must reach (the opponent's home corner).
pub const GOAL: [Square; 2] = [24, 0];

/// The six start squares of each side in setup order (see [`Arrangement`]):
/// red `a5 b5 c5 a4 b4 a3`, blue the mirror image `e1 d1 c1 e2 d2 e3`.
pub const TRIANGLE: [[Square; 6]; 2] = [[0, 1, 2, 5, 6, 10], [24, 23, 22, 19, 18, 14]];

/// Column 0–4 (`a`–`e`) of a square.
pub const fn col(sq: Square) -> u8 {
    sq % 5
}

/// Row from the top 0–4 (row `5` is 0, row `1` is 4).
pub const fn row(sq: Square) -> u8 {
    sq / 5
}

/// Steps a cube of `side` still needs to reach its goal corner (diagonal steps count one).
pub const fn distance(side: u8, sq: Square) -> u8 {
    let (r, c) = (row(sq), col(sq));
    let (dr, dc) = if side == RED { (4 - r, 4 - c) } else { (r, c) };
    if dr > dc { dr } else { dc }
}

/// The squares a cube of `side` on `sq` may step to, and how many there are (1–3):
/// red moves right, down or down-right; blue left, up or up-left.
pub fn steps(side: u8, sq: Square) -> ([Square; 3], usize) {
    let (r, c) = (row(sq), col(sq));
    let mut out = [0; 3];
    let mut n = 0;
    if side == RED {
        if r < 4 && c < 4 {
            out[n] = sq + 6;
            n += 1;
        }
        if c < 4 {
            out[n] = sq + 1;
            n += 1;
        }
        if r < 4 {
            out[n] = sq + 5;
            n += 1;
        }
    } else {
        if r > 0 && c > 0 {
            out[n] = sq - 6;
            n += 1;
        }
        if c > 0 {
            out[n] = sq - 1;
            n += 1;
        }
        if r > 0 {
            out[n] = sq - 5;
            n += 1;
        }
    }
    (out, n)
}

/// Parses a square name `a1`–`e5` (column letter, row digit counted from the bottom).
pub fn parse_square(text: &str) -> Result<Square, ParseError> {
    match text.as_bytes() {
        [c @ (b'a'..=b'e' | b'A'..=b'E'), r @ b'1'..=b'5'] => {
            Ok((b'5' - r) * 5 + (c.to_ascii_lowercase() - b'a'))
        }
        _ => Err(ParseError("square must be a1..e5")),
    }
}

/// Writes a square as `a1`–`e5`.
pub fn write_square(sq: Square, out: &mut dyn fmt::Write) -> fmt::Result {
    if sq >= SQUARES {
        return out.write_str("??");
    }
    out.write_char((b'a' + col(sq)) as char)?;
    out.write_char((b'5' - row(sq)) as char)
}

/// A setup: the cube numbers (1–6) placed on the side's [`TRIANGLE`] squares in order.
/// Text `setup 615243` puts cube 6 on `a5` (blue: `e1`), 1 on `b5` (`d1`) and so on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arrangement(pub [u8; 6]);

impl Arrangement {
    /// `true` when the six numbers are 1–6, each once.
    pub fn is_valid(&self) -> bool {
        let mut seen = 0u8;
        for &c in &self.0 {
            if !(1..=6).contains(&c) || seen & (1 << c) != 0 {
                return false;
            }
            seen |= 1 << c;
        }
        true
    }

    /// The `index`-th arrangement (0–719) in lexicographic order of the six numbers.
    pub fn nth(index: u16) -> Self {
        let mut left = [1u8, 2, 3, 4, 5, 6];
        let mut out = [0u8; 6];
        let mut rest = index % 720;
        let mut fact = 120u16;
        for (i, slot) in out.iter_mut().enumerate() {
            let k = usize::from(rest / fact);
            rest %= fact;
            *slot = left[k];
            left.copy_within(k + 1.., k);
            if i < 5 {
                fact /= 5 - i as u16;
            }
        }
        Self(out)
    }
}

/// A move. Chance is explicit: when the side to move has not rolled yet its only
/// "moves" are the six [`Move::Roll`]s (the TUI types a physical die's roll, the
/// host rolls a seeded die).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place all six cubes on the side's start triangle (`setup 615243`).
    Setup(Arrangement),
    /// Cube number 1–6 steps to a square (`3:d4`).
    Step {
        /// Cube number 1–6.
        cube: u8,
        /// Target square.
        to: Square,
    },
    /// The die shows 1–6 for the side to move (`roll 4`).
    Roll(u8),
}

/// What [`crate::game::Game::make`] returns so the move can be taken back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    /// Square the cube left (steps only).
    pub from: Square,
    /// Board code of the removed cube (0 if none).
    pub captured: u8,
    /// The roll before the move.
    pub roll: u8,
}

/// An EinStein position: cubes on squares, side to move, its die roll, and which
/// sides have set up.
///
/// Board codes: 0 empty, 1–6 red cube 1–6, 7–12 blue cube 1–6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Einstein {
    pub(super) board: [u8; 25],
    pub(super) at: [[Square; 6]; 2],
    pub(super) side: u8,
    pub(super) roll: u8,
    pub(super) placed: [bool; 2],
}

impl Default for Einstein {
    fn default() -> Self {
        Self::start()
    }
}

impl Einstein {
    /// The start: nobody has set up, red to set up first.
    pub const fn start() -> Self {
        Self {
            board: [0; 25],
            at: [[OFF; 6]; 2],
            side: RED,
            roll: 0,
            placed: [false; 2],
        }
    }

    /// A position after both sides set up with `red` and `blue`, red to move with `roll`
    /// (0 = not rolled yet).
    pub fn from_setups(red: Arrangement, blue: Arrangement, roll: u8) -> Self {
        let mut pos = Self::start();
        pos.place(RED, red);
        pos.place(BLUE, blue);
        pos.roll = if (1..=6).contains(&roll) { roll } else { 0 };
        pos
    }

    pub(super) fn place(&mut self, side: u8, arr: Arrangement) {
        let s = usize::from(side & 1);
        for (i, &cube) in arr.0.iter().enumerate() {
            let sq = TRIANGLE[s][i];
            let c = usize::from(cube.clamp(1, 6) - 1);
            self.board[usize::from(sq)] = code(side, cube);
            self.at[s][c] = sq;
        }
        self.placed[s] = true;
    }

    pub(super) fn unplace(&mut self, side: u8) {
        let s = usize::from(side & 1);
        for sq in TRIANGLE[s] {
            self.board[usize::from(sq)] = 0;
        }
        self.at[s] = [OFF; 6];
        self.placed[s] = false;
    }

    /// What stands on `sq`: `(side, cube number 1–6)`.
    pub fn cube_at(&self, sq: Square) -> Option<(u8, u8)> {
        decode(*self.board.get(usize::from(sq))?)
    }

    /// Where cube `cube` (1–6) of `side` stands, if still on the board.
    pub fn square_of(&self, side: u8, cube: u8) -> Option<Square> {
        let sq = *self
            .at
            .get(usize::from(side))?
            .get(usize::from(cube.wrapping_sub(1)))?;
        (sq != OFF).then_some(sq)
    }

    /// Number of cubes `side` has on the board.
    pub fn cube_count(&self, side: u8) -> u8 {
        self.at[usize::from(side & 1)]
            .iter()
            .filter(|&&s| s != OFF)
            .count() as u8
    }

    /// The side to move (0 red, 1 blue).
    pub fn side_to_move(&self) -> u8 {
        self.side
    }

    /// The die roll of the side to move, if it has rolled.
    pub fn roll(&self) -> Option<u8> {
        (self.roll != 0).then_some(self.roll)
    }

    /// Sets (1–6) or clears (anything else) the roll of the side to move.
    pub fn set_roll(&mut self, roll: u8) {
        self.roll = if (1..=6).contains(&roll) { roll } else { 0 };
    }

    /// `true` when `side` has placed its cubes.
    pub fn has_set_up(&self, side: u8) -> bool {
        self.placed[usize::from(side & 1)]
    }

    /// `true` while the side to move still has to set up (its move is a [`Move::Setup`]).
    pub fn in_setup(&self) -> bool {
        !self.placed[usize::from(self.side)]
    }
}

/// Board code of `side`'s cube `cube` (1–6).
pub(super) const fn code(side: u8, cube: u8) -> u8 {
    side * 6 + cube
}

/// Side and cube number of a board code.
pub(super) const fn decode(code: u8) -> Option<(u8, u8)> {
    match code {
        1..=6 => Some((RED, code)),
        7..=12 => Some((BLUE, code - 6)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_and_print() {
        assert_eq!(parse_square("a5"), Ok(0));
        assert_eq!(parse_square("E1"), Ok(24));
        assert_eq!(parse_square("c3"), Ok(12));
        for bad in ["", "a", "f1", "a6", "a0", "a55", "1a"] {
            assert!(parse_square(bad).is_err(), "{bad}");
        }
        for sq in 0..SQUARES {
            let mut s = heapless::String::<2>::new();
            write_square(sq, &mut s).unwrap();
            assert_eq!(parse_square(&s), Ok(sq));
        }
    }

    #[test]
    fn steps_and_distances() {
        assert_eq!(steps(RED, 0), ([6, 1, 5], 3));
        assert_eq!(steps(RED, 4).1, 1); // e5: only down
        assert_eq!(steps(RED, 20).1, 1); // a1: only right
        assert_eq!(steps(BLUE, 24), ([18, 23, 19], 3));
        assert_eq!(steps(BLUE, 20).1, 1); // a1: only up
        assert_eq!(distance(RED, 0), 4);
        assert_eq!(distance(RED, 6), 3);
        assert_eq!(distance(BLUE, 6), 1);
        assert_eq!(distance(BLUE, 0), 0);
    }

    #[test]
    fn arrangements_enumerate_all_permutations() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..720 {
            let a = Arrangement::nth(i);
            assert!(a.is_valid());
            seen.insert(a.0);
        }
        assert_eq!(seen.len(), 720);
        assert_eq!(Arrangement::nth(0).0, [1, 2, 3, 4, 5, 6]);
        assert_eq!(Arrangement::nth(719).0, [6, 5, 4, 3, 2, 1]);
        assert!(!Arrangement([1, 1, 2, 3, 4, 5]).is_valid());
        assert!(!Arrangement([0, 1, 2, 3, 4, 5]).is_valid());
    }
}
