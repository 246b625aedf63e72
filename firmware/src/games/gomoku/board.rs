//! The 15×15 board as two bitboards (one `u16` per row and colour, 60 bytes),
//! point names and the line windows every pattern test reads.

use core::fmt;

use crate::text::ParseError;

/// Points per side of the board.
pub const SIZE: u8 = 15;
/// Number of points.
pub const POINTS: usize = 225;

/// A point: `row * 15 + col`, row 0 at the bottom (`a1` = 0, `o15` = 224).
pub type Point = u8;

/// Black, who moves first.
pub const BLACK: u8 = 0;
/// White.
pub const WHITE: u8 = 1;

/// The four line directions as (row step, column step): horizontal, vertical,
/// diagonal (up-right) and anti-diagonal (down-right).
pub const DIRS: [(i8, i8); 4] = [(0, 1), (1, 0), (1, 1), (-1, 1)];

/// Half-width of a [`Line`] window: it holds the 5 points on each side of the centre.
pub const REACH: i8 = 5;
/// The centre bit of a [`Line`] window.
pub const CENTER: u16 = 1 << REACH;

/// The point `steps` steps from `p` along direction `dir`, if it is on the board.
pub fn step(p: Point, dir: usize, steps: i8) -> Option<Point> {
    let (dr, dc) = DIRS[dir & 3];
    let r = (p / SIZE) as i8 + dr * steps;
    let c = (p % SIZE) as i8 + dc * steps;
    if (0..SIZE as i8).contains(&r) && (0..SIZE as i8).contains(&c) {
        Some(r as u8 * SIZE + c as u8)
    } else {
        None
    }
}

/// How far apart two points are: the larger of their row and column
/// differences (king steps).
pub fn distance(a: Point, b: Point) -> u8 {
    (a / SIZE)
        .abs_diff(b / SIZE)
        .max((a % SIZE).abs_diff(b % SIZE))
}

/// The 11 points `p-5 ..= p+5` along one direction, as bit masks (bit 5 = `p`,
/// bit 0 = five steps backwards).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// Black stones.
    pub black: u16,
    /// White stones.
    pub white: u16,
    /// Points off the board.
    pub off: u16,
}

impl Line {
    /// `side`'s stones in the window.
    pub fn own(&self, side: u8) -> u16 {
        if side == BLACK {
            self.black
        } else {
            self.white
        }
    }
    /// Points `side` cannot use: the other colour's stones and the board's edge.
    pub fn blocked(&self, side: u8) -> u16 {
        self.off
            | if side == BLACK {
                self.white
            } else {
                self.black
            }
    }
}

/// Stones of both colours: bit `col` of `stones[colour][row]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    stones: [[u16; SIZE as usize]; 2],
}

impl Board {
    /// The empty board.
    pub fn new() -> Self {
        Self::default()
    }

    /// The colour on `p` (`BLACK` or `WHITE`), or `None` when empty or off the board.
    pub fn get(&self, p: Point) -> Option<u8> {
        let (r, bit) = Self::split(p)?;
        if self.stones[0][r] & bit != 0 {
            Some(BLACK)
        } else if self.stones[1][r] & bit != 0 {
            Some(WHITE)
        } else {
            None
        }
    }

    /// `true` when `p` is on the board and empty.
    pub fn is_empty(&self, p: Point) -> bool {
        Self::split(p).is_some() && self.get(p).is_none()
    }

    /// Puts a stone of `side` on `p` (ignored off the board).
    pub fn set(&mut self, p: Point, side: u8) {
        if let Some((r, bit)) = Self::split(p) {
            self.stones[usize::from(side & 1)][r] |= bit;
        }
    }

    /// Removes whatever stone stands on `p`.
    pub fn clear(&mut self, p: Point) {
        if let Some((r, bit)) = Self::split(p) {
            self.stones[0][r] &= !bit;
            self.stones[1][r] &= !bit;
        }
    }

    /// Number of stones of `side`.
    pub fn count(&self, side: u8) -> u32 {
        self.stones[usize::from(side & 1)]
            .iter()
            .map(|r| r.count_ones())
            .sum()
    }

    /// A 64-bit hash of the stones (for transposition tables such as the VCF
    /// solver's memo): the 30 row words folded with a multiply-rotate mix and a
    /// final avalanche. Equal boards hash equally on every target.
    pub fn key(&self) -> u64 {
        let mut h: u64 = 0x243F_6A88_85A3_08D3;
        for (colour, rows) in self.stones.iter().enumerate() {
            for (r, &w) in rows.iter().enumerate() {
                let word = u64::from(w) | ((colour * 16 + r) as u64) << 16;
                h = (h ^ word)
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    .rotate_left(29);
            }
        }
        h ^= h >> 31;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^ (h >> 29)
    }

    /// `side`'s stones on row `row` (bit `col`), 0 outside the board.
    pub fn row_stones(&self, side: u8, row: i8) -> u16 {
        if (0..SIZE as i8).contains(&row) {
            self.stones[usize::from(side & 1)][row as usize]
        } else {
            0
        }
    }

    /// Occupied points of row `row` (bit `col`), 0 outside the board.
    pub fn row_occupied(&self, row: i8) -> u16 {
        if (0..SIZE as i8).contains(&row) {
            let r = row as usize;
            self.stones[0][r] | self.stones[1][r]
        } else {
            0
        }
    }

    /// The horizontal window of 11 points centred on `p` (on the board): a
    /// shift of the row words.
    #[inline(always)]
    fn row_line(&self, p: Point) -> Line {
        let (r, c) = (
            usize::from(p / SIZE).min(SIZE as usize - 1),
            u32::from(p % SIZE),
        );
        let window = |x: u16| ((u32::from(x) << REACH) >> c) as u16 & 0x7FF;
        Line {
            black: window(self.stones[0][r]),
            white: window(self.stones[1][r]),
            off: !window(0x7FFF) & 0x7FF,
        }
    }

    /// The window of 11 points centred on `p` along direction `dir`.
    pub fn line(&self, p: Point, dir: usize) -> Line {
        if dir == 0 && usize::from(p) < POINTS {
            return self.row_line(p);
        }
        let (dr, dc) = DIRS[dir & 3];
        let r0 = (p / SIZE) as i8 - dr * REACH;
        let c0 = (p % SIZE) as i8 - dc * REACH;
        let mut line = Line::default();
        for i in 0..(2 * REACH + 1) {
            let (r, c) = (r0 + dr * i, c0 + dc * i);
            let bit = 1u16 << i;
            if (0..SIZE as i8).contains(&r) && (0..SIZE as i8).contains(&c) {
                let col = 1u16 << c;
                if self.stones[0][r as usize] & col != 0 {
                    line.black |= bit;
                } else if self.stones[1][r as usize] & col != 0 {
                    line.white |= bit;
                }
            } else {
                line.off |= bit;
            }
        }
        line
    }

    /// The four windows of 11 points centred on `p` (indexed like [`DIRS`]). The
    /// vertical and both diagonal windows are gathered in one pass over the
    /// eleven rows, one shift and a few masks per row and colour (no per-bit
    /// placement: see the comment inside), several times cheaper on the
    /// Cortex-M0 than four [`Board::line`] calls.
    pub fn lines(&self, p: Point) -> [Line; 4] {
        let mut out = [Line {
            black: 0,
            white: 0,
            off: 0x7FF,
        }; 4];
        if usize::from(p) >= POINTS {
            return out;
        }
        out[0] = self.row_line(p);
        let (r, c) = (i32::from(p / SIZE), u32::from(p % SIZE));
        let reach = i32::from(REACH);
        // Rows r - 5 ..= r + 5 on the board, read once each: row r - 5 + i holds
        // window point i of the vertical and the diagonal, and point 10 - i of
        // the anti-diagonal. Shifted so that column c lands on bit 5, the row
        // has the diagonal's point on bit i and the anti-diagonal's on bit 10 - i.
        let first = (reach - r).max(0);
        let last = (i32::from(SIZE) - 1 + reach - r).min(2 * reach);
        let on_row = ((0x7FFFu32 << REACH) >> c) & 0x7FF;
        let (mut vb, mut vw, mut von) = (0u32, 0u32, 0u32);
        let (mut db, mut dw, mut don) = (0u32, 0u32, 0u32);
        let (mut ab, mut aw, mut aon) = (0u32, 0u32, 0u32);
        for i in first..=last {
            let k = ((r - reach + i) as usize).min(SIZE as usize - 1);
            let yb = (u32::from(self.stones[0][k]) << REACH) >> c;
            let yw = (u32::from(self.stones[1][k]) << REACH) >> c;
            let (bit, anti) = (1u32 << i, 1u32 << (2 * reach - i));
            vb |= ((yb >> REACH) & 1) << i;
            vw |= ((yw >> REACH) & 1) << i;
            von |= bit;
            db |= yb & bit;
            dw |= yw & bit;
            don |= on_row & bit;
            ab |= yb & anti;
            aw |= yw & anti;
            aon |= on_row & anti;
        }
        let line = |black: u32, white: u32, on: u32| Line {
            black: black as u16,
            white: white as u16,
            off: !on as u16 & 0x7FF,
        };
        out[1] = line(vb, vw, von);
        out[2] = line(db, dw, don);
        out[3] = line(ab, aw, aon);
        out
    }

    /// The four whole lines through `p` (on the board), as [`Rotated::full_lines`]
    /// gives them: one pass over the fifteen rows instead of four line walks.
    pub fn full_lines(&self, p: Point) -> [FullLine; 4] {
        let (r, c) = (usize::from(p / SIZE) % 15, usize::from(p % SIZE));
        let (d, a) = ((c + 14 - r) % 29, (r + c) % 29);
        let (mut vb, mut vw) = (0u16, 0u16);
        let (mut db, mut dw) = (0u16, 0u16);
        let (mut ab, mut aw) = (0u16, 0u16);
        for k in 0..SIZE as usize {
            let (xb, xw) = (self.stones[0][k], self.stones[1][k]);
            let bit = 1u16 << k;
            if xb >> c & 1 != 0 {
                vb |= bit;
            }
            if xw >> c & 1 != 0 {
                vw |= bit;
            }
            // The diagonal's point on row k: column c + k - r (bit k).
            let cd = (c + k).wrapping_sub(r);
            if cd < SIZE as usize {
                if xb >> cd & 1 != 0 {
                    db |= bit;
                }
                if xw >> cd & 1 != 0 {
                    dw |= bit;
                }
            }
            // The anti-diagonal's point on row k: column c + r - k (bit = column).
            let ca = (c + r).wrapping_sub(k);
            if ca < SIZE as usize {
                let col = 1u16 << ca;
                ab |= xb & col;
                aw |= xw & col;
            }
        }
        [
            FullLine {
                black: self.stones[0][r],
                white: self.stones[1][r],
                on: 0x7FFF,
                at: c as u8,
            },
            FullLine {
                black: vb,
                white: vw,
                on: 0x7FFF,
                at: r as u8,
            },
            FullLine {
                black: db,
                white: dw,
                on: DIAG_ON[d],
                at: r as u8,
            },
            FullLine {
                black: ab,
                white: aw,
                on: ANTI_ON[a],
                at: c as u8,
            },
        ]
    }

    /// The whole line through `p` along direction `dir` (at most 15 points, bit
    /// `i` = its `i`-th point from the end nearest `a1`'s side of the board).
    pub fn line_through(&self, p: Point, dir: usize) -> FullLine {
        let (r, c) = (i32::from(p / SIZE), i32::from(p % SIZE));
        if usize::from(p) >= POINTS {
            return FullLine::default();
        }
        let (dr, dc) = (i32::from(DIRS[dir & 3].0), i32::from(DIRS[dir & 3].1));
        // Steps back to the line's first point.
        let back = match dir & 3 {
            0 => c,
            1 => r,
            2 => r.min(c),
            _ => (i32::from(SIZE) - 1 - r).min(c),
        };
        if dir & 3 == 0 {
            let row = r as usize;
            return FullLine {
                black: self.stones[0][row],
                white: self.stones[1][row],
                on: 0x7FFF,
                at: c as u8,
            };
        }
        let (r0, c0) = (r - dr * back, c - dc * back);
        let mut line = FullLine {
            at: back as u8,
            ..FullLine::default()
        };
        let mut i = 0;
        loop {
            let (rr, cc) = (r0 + dr * i, c0 + dc * i);
            if !(0..i32::from(SIZE)).contains(&rr) || !(0..i32::from(SIZE)).contains(&cc) {
                break;
            }
            let bit = 1u16 << i;
            let col = 1u16 << cc;
            line.on |= bit;
            if self.stones[0][rr as usize] & col != 0 {
                line.black |= bit;
            } else if self.stones[1][rr as usize] & col != 0 {
                line.white |= bit;
            }
            i += 1;
        }
        line
    }

    fn split(p: Point) -> Option<(usize, u16)> {
        (usize::from(p) < POINTS).then(|| (usize::from(p / SIZE), 1u16 << (p % SIZE)))
    }
}

/// A whole line of the board (see [`Board::line_through`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FullLine {
    /// Black stones.
    pub black: u16,
    /// White stones.
    pub white: u16,
    /// Points of the line (the others are off the board).
    pub on: u16,
    /// Index of the point the line was taken through.
    pub at: u8,
}

impl FullLine {
    /// The 11-point window centred on the line's point `i` (see [`Line`]).
    #[inline(always)]
    pub fn window(&self, i: u8) -> Line {
        let w = |x: u16| ((u32::from(x) << REACH) >> i) as u16 & 0x7FF;
        Line {
            black: w(self.black),
            white: w(self.white),
            off: !w(self.on) & 0x7FF,
        }
    }

    /// The line with a stone of `side` (0 black, 1 white) on its point `at`.
    #[inline(always)]
    pub fn with_stone(&self, side: u8) -> FullLine {
        let bit = 1u16 << self.at;
        let mut with = *self;
        if side == 0 {
            with.black |= bit;
        } else {
            with.white |= bit;
        }
        with
    }

    /// The stones within a window's reach ([`REACH`] points) of the point
    /// `at`, as bits by index along the line.
    #[inline(always)]
    pub fn stones_near(&self) -> u32 {
        u32::from(self.black | self.white) & self.near()
    }

    /// The empty points of the line within a window's reach of the point
    /// `at`, that point left out, as bits by index along the line.
    #[inline(always)]
    pub fn empty_near(&self) -> u32 {
        u32::from(self.on & !(self.black | self.white)) & self.near() & !(1u32 << self.at)
    }

    /// The indices within [`REACH`] points of `at`, as bits.
    #[inline(always)]
    fn near(&self) -> u32 {
        let lo = u32::from(self.at.saturating_sub(REACH as u8));
        let hi = u32::from(self.at) + REACH as u32;
        ((1u32 << (hi + 1)) - 1) & !((1u32 << lo) - 1)
    }
}

/// The board's columns and diagonals as bit words, kept beside a [`Board`] by
/// searches that read many line windows (the host's): a window is then a shift
/// of one word in each direction, not a gather over eleven rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rotated {
    /// Per colour and column: bit `row`.
    cols: [[u16; SIZE as usize]; 2],
    /// Per colour and diagonal `col - row + 14`: bit `row`.
    diag: [[u16; 29]; 2],
    /// Per colour and anti-diagonal `row + col`: bit `col`.
    anti: [[u16; 29]; 2],
}

/// Points of each diagonal `col - row + 14` (bit `row`).
static DIAG_ON: [u16; 29] = {
    let mut t = [0u16; 29];
    let mut k = 0;
    while k < 29 {
        let mut r: i32 = 0;
        while r < 15 {
            let c = k as i32 - 14 + r;
            if c >= 0 && c < 15 {
                t[k] |= 1 << r;
            }
            r += 1;
        }
        k += 1;
    }
    t
};

/// Points of each anti-diagonal `row + col` (bit `col`).
static ANTI_ON: [u16; 29] = {
    let mut t = [0u16; 29];
    let mut s = 0;
    while s < 29 {
        let mut c: i32 = 0;
        while c < 15 {
            let r = s as i32 - c;
            if r >= 0 && r < 15 {
                t[s] |= 1 << c;
            }
            c += 1;
        }
        s += 1;
    }
    t
};

impl Rotated {
    /// The words of `board`.
    pub fn from_board(board: &Board) -> Self {
        let mut rot = Rotated::default();
        for p in 0..POINTS as u8 {
            if let Some(side) = board.get(p) {
                rot.toggle(p, side);
            }
        }
        rot
    }

    /// Puts a stone of `side` on `p` or takes it away (`p` on the board).
    #[inline]
    pub fn toggle(&mut self, p: Point, side: u8) {
        let (r, c) = (usize::from(p / SIZE), usize::from(p % SIZE));
        let s = usize::from(side & 1);
        self.cols[s][c % 15] ^= 1 << r;
        self.diag[s][(c + 14 - r) % 29] ^= 1 << r;
        self.anti[s][(r + c) % 29] ^= 1 << c;
    }

    /// The four whole lines through `p` (on the board) of `board` (whose words
    /// these are), indexed like [`DIRS`].
    #[inline]
    pub fn full_lines(&self, board: &Board, p: Point) -> [FullLine; 4] {
        let (r, c) = (usize::from(p / SIZE) % 15, usize::from(p % SIZE));
        let (d, a) = ((c + 14 - r) % 29, (r + c) % 29);
        [
            FullLine {
                black: board.stones[0][r],
                white: board.stones[1][r],
                on: 0x7FFF,
                at: c as u8,
            },
            FullLine {
                black: self.cols[0][c % 15],
                white: self.cols[1][c % 15],
                on: 0x7FFF,
                at: r as u8,
            },
            FullLine {
                black: self.diag[0][d],
                white: self.diag[1][d],
                on: DIAG_ON[d],
                at: r as u8,
            },
            FullLine {
                black: self.anti[0][a],
                white: self.anti[1][a],
                on: ANTI_ON[a],
                at: c as u8,
            },
        ]
    }

    /// The window centred on `p` (on the board) along direction `dir` of
    /// [`DIRS`] (as [`Board::lines`]'s `dir`-th): one word of one direction
    /// read, not the four of [`Rotated::full_lines`].
    #[inline(always)]
    pub fn window(&self, board: &Board, p: Point, dir: usize) -> Line {
        let (r, c) = (usize::from(p / SIZE) % 15, usize::from(p % SIZE));
        let (black, white, on, at) = match dir {
            0 => (board.stones[0][r], board.stones[1][r], 0x7FFF, c),
            1 => (self.cols[0][c % 15], self.cols[1][c % 15], 0x7FFF, r),
            2 => {
                let d = (c + 14 - r) % 29;
                (self.diag[0][d], self.diag[1][d], DIAG_ON[d], r)
            }
            _ => {
                let a = (r + c) % 29;
                (self.anti[0][a], self.anti[1][a], ANTI_ON[a], c)
            }
        };
        let line = FullLine {
            black,
            white,
            on,
            at: at as u8,
        };
        line.window(line.at)
    }

    /// The four windows centred on `p` (as [`Board::lines`]).
    #[inline]
    pub fn lines(&self, board: &Board, p: Point) -> [Line; 4] {
        let full = self.full_lines(board, p);
        [
            full[0].window(full[0].at),
            full[1].window(full[1].at),
            full[2].window(full[2].at),
            full[3].window(full[3].at),
        ]
    }
}

/// A set of points (one bit per point), e.g. black's forbidden points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PointSet {
    rows: [u16; SIZE as usize],
}

impl PointSet {
    /// The empty set.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds `p` (ignored off the board).
    pub fn insert(&mut self, p: Point) {
        if usize::from(p) < POINTS {
            self.rows[usize::from(p / SIZE)] |= 1 << (p % SIZE);
        }
    }
    /// `true` when `p` is in the set.
    pub fn contains(&self, p: Point) -> bool {
        usize::from(p) < POINTS && self.rows[usize::from(p / SIZE)] & (1 << (p % SIZE)) != 0
    }
    /// Number of points in the set.
    pub fn len(&self) -> u32 {
        self.rows.iter().map(|r| r.count_ones()).sum()
    }
    /// `true` when the set holds no point.
    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&r| r == 0)
    }
    /// The points in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        (0..POINTS as u8).filter(|&p| self.contains(p))
    }
}

/// Parses a point name: column `a`–`o` (either case) then row `1`–`15`.
pub fn parse_point(text: &str) -> Result<Point, ParseError> {
    match text.as_bytes() {
        [c, digits @ ..] if c.is_ascii_alphabetic() && !digits.is_empty() && digits.len() <= 2 => {
            let col = c.to_ascii_lowercase().wrapping_sub(b'a');
            if col >= SIZE {
                return Err(ParseError("column must be a..o"));
            }
            let mut row = 0u8;
            for &d in digits {
                if !d.is_ascii_digit() {
                    return Err(ParseError("row must be 1..15"));
                }
                row = row * 10 + (d - b'0');
            }
            if !(1..=SIZE).contains(&row) || digits[0] == b'0' {
                return Err(ParseError("row must be 1..15"));
            }
            Ok((row - 1) * SIZE + col)
        }
        _ => Err(ParseError(
            "a point is a column a..o and a row 1..15, e.g. h8",
        )),
    }
}

/// Writes a point as `a1`–`o15` (lower case).
pub fn write_point(p: Point, out: &mut dyn fmt::Write) -> fmt::Result {
    if usize::from(p) >= POINTS {
        return Err(fmt::Error);
    }
    out.write_char((b'a' + p % SIZE) as char)?;
    write!(out, "{}", p / SIZE + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_names_round_trip() {
        for p in 0..POINTS as u8 {
            let mut s = heapless::String::<4>::new();
            write_point(p, &mut s).unwrap();
            assert_eq!(parse_point(&s), Ok(p));
            let upper: heapless::String<4> = s.chars().map(|c| c.to_ascii_uppercase()).collect();
            assert_eq!(parse_point(&upper), Ok(p));
        }
        assert_eq!(parse_point("a1"), Ok(0));
        assert_eq!(parse_point("H8"), Ok(7 * 15 + 7));
        assert_eq!(parse_point("o15"), Ok(224));
        for bad in ["", "a", "p1", "a0", "a16", "a01", "h8x", "88", "a1 ", "é1"] {
            assert!(parse_point(bad).is_err(), "{bad:?} accepted");
        }
        assert!(write_point(225, &mut heapless::String::<4>::new()).is_err());
    }

    #[test]
    fn line_windows_see_stones_and_edges() {
        let mut b = Board::new();
        let h8 = parse_point("h8").unwrap();
        b.set(parse_point("i8").unwrap(), BLACK);
        b.set(parse_point("f8").unwrap(), WHITE);
        b.set(parse_point("i9").unwrap(), BLACK);
        let l = b.line(h8, 0);
        assert_eq!((l.black, l.white, l.off), (1 << 6, 1 << 3, 0));
        assert_eq!(b.line(h8, 2).black, 1 << 6);
        let a1 = b.line(0, 2);
        assert_eq!(
            a1.off, 0b11111,
            "five points below-left of a1 are off the board"
        );
        assert_eq!(step(0, 3, 1), None);
        assert_eq!(step(0, 3, -1), None);
        assert_eq!(step(h8, 3, 1), parse_point("i7").ok());
        assert_eq!(b.count(BLACK), 2);
        b.clear(h8 + 1);
        assert_eq!(b.get(h8 + 1), None);
        assert!(!b.is_empty(225));
    }

    #[test]
    fn keys_tell_boards_apart() {
        // Every board of one or two stones (each colour on each point, every
        // pair of points in both colourings) hashes to a key of its own.
        let mut keys = std::collections::HashSet::new();
        assert!(keys.insert(Board::new().key()));
        for a in 0..POINTS as u8 {
            for side in [BLACK, WHITE] {
                let mut b = Board::new();
                b.set(a, side);
                assert!(keys.insert(b.key()));
                for c in a + 1..POINTS as u8 {
                    let mut b2 = b;
                    b2.set(c, side ^ 1);
                    assert!(keys.insert(b2.key()), "collision at {a}/{c}");
                }
            }
        }
        let mut b = Board::new();
        b.set(112, BLACK);
        let mut same = Board::new();
        same.set(112, BLACK);
        assert_eq!(b.key(), same.key());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Windows cut from [`Board::line_through`] equal [`Board::line`].
        #[test]
        fn full_lines_give_the_windows(stones in proptest::collection::vec((0u8..225, 0u8..2), 0..120)) {
            let mut b = Board::new();
            for (p, side) in stones {
                if b.is_empty(p) {
                    b.set(p, side);
                }
            }
            for p in 0..POINTS as u8 {
                for d in 0..4 {
                    let full = b.line_through(p, d);
                    proptest::prop_assert_eq!(full.window(full.at), b.line(p, d));
                }
            }
        }

        /// [`Rotated`] words give the same windows and whole lines as the board.
        #[test]
        fn rotated_words_give_the_same_lines(stones in proptest::collection::vec((0u8..225, 0u8..2), 0..120)) {
            let mut b = Board::new();
            let mut rot = Rotated::default();
            for (p, side) in stones {
                if b.is_empty(p) {
                    b.set(p, side);
                    rot.toggle(p, side);
                }
            }
            proptest::prop_assert_eq!(rot, Rotated::from_board(&b));
            for p in 0..POINTS as u8 {
                proptest::prop_assert_eq!(rot.lines(&b, p), b.lines(p));
                proptest::prop_assert_eq!(rot.full_lines(&b, p), b.full_lines(p));
                for (d, full) in rot.full_lines(&b, p).iter().enumerate() {
                    let mine = b.line_through(p, d);
                    for k in -5i8..=5 {
                        let i = full.at as i8 + k;
                        let j = mine.at as i8 + k;
                        if (0..15).contains(&i) && (0..15).contains(&j) {
                            proptest::prop_assert_eq!(full.window(i as u8), mine.window(j as u8));
                        }
                    }
                }
            }
        }

        /// [`Board::lines`] reads the same windows as four [`Board::line`] calls.
        #[test]
        fn lines_equal_line(stones in proptest::collection::vec((0u8..225, 0u8..2), 0..120)) {
            let mut b = Board::new();
            for (p, side) in stones {
                if b.is_empty(p) {
                    b.set(p, side);
                }
            }
            for p in 0..POINTS as u8 {
                let all = b.lines(p);
                for (d, l) in all.iter().enumerate() {
                    proptest::prop_assert_eq!(*l, b.line(p, d));
                }
            }
        }
    }
}
