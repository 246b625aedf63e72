//! The 121-hole star: hole numbering, coordinates, neighbours, triangles and
//! distance tables, all `const` (flash on the board).
//!
//! Layout: 17 rows (0 = top tip, 16 = bottom tip) on a doubled-width grid whose
//! columns `x` run 0..=24; neighbours in a row are 2 columns apart and a hole's
//! neighbours in the rows above and below are 1 column to either side (this is
//! the seed's 17 x 25 picture). Holes are numbered 0..=120 in reading order
//! (row by row, left to right): row `r` holds [`ROW_LEN`]`[r]` holes starting at
//! hole [`ROW_START`]`[r]` and column [`ROW_X0`]`[r]`. Row lengths are
//! 1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1.
//!
//! Instead of the seed's 9 x 14 index table the position of a hole is kept as
//! two flash tables ([`HOLE_ROW`], [`HOLE_X`], 242 bytes) plus the neighbour
//! table [`NEIGHBOURS`] (`[[u8; 6]; 121]`, 726 bytes, [`NONE`] = off the board).
//!
//! Triangles (points of the star) are numbered clockwise as drawn, starting at
//! the bottom: 0 bottom, 1 lower left, 2 upper left, 3 top, 4 upper right,
//! 5 lower right. Triangle `t`'s opposite is `(t + 3) % 6`.

/// Number of holes.
pub const HOLES: usize = 121;
/// Number of rows.
pub const ROWS: usize = 17;
/// Marks "no hole" in [`NEIGHBOURS`] and hole look-ups.
pub const NONE: u8 = 0xFF;

/// Direction offsets `(row, x)` on the doubled grid, indexed by direction:
/// 0 east, 1 south-east, 2 south-west, 3 west, 4 north-west, 5 north-east.
/// Direction `d` and `(d + 3) % 6` are opposite.
pub const DIRECTIONS: [(i8, i8); 6] = [(0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1)];

const fn row_len(r: usize) -> u8 {
    if r <= 3 || (r >= 9 && r <= 12) {
        r as u8 + 1
    } else {
        17 - r as u8
    }
}

const fn row_x0(r: usize) -> u8 {
    if r <= 3 || (r >= 9 && r <= 12) {
        12 - r as u8
    } else {
        r as u8 - 4
    }
}

/// Holes in each row.
pub const ROW_LEN: [u8; ROWS] = {
    let mut t = [0u8; ROWS];
    let mut r = 0;
    while r < ROWS {
        t[r] = row_len(r);
        r += 1;
    }
    t
};

/// Column of the first (leftmost) hole of each row.
pub const ROW_X0: [u8; ROWS] = {
    let mut t = [0u8; ROWS];
    let mut r = 0;
    while r < ROWS {
        t[r] = row_x0(r);
        r += 1;
    }
    t
};

/// Number of the first hole of each row; entry 17 is 121.
pub const ROW_START: [u8; ROWS + 1] = {
    let mut t = [0u8; ROWS + 1];
    let mut r = 0;
    while r < ROWS {
        t[r + 1] = t[r] + ROW_LEN[r];
        r += 1;
    }
    t
};

/// Row (0..=16, top to bottom) of each hole.
pub const HOLE_ROW: [u8; HOLES] = {
    let mut t = [0u8; HOLES];
    let mut r = 0;
    while r < ROWS {
        let mut i = ROW_START[r] as usize;
        while i < ROW_START[r + 1] as usize {
            t[i] = r as u8;
            i += 1;
        }
        r += 1;
    }
    t
};

/// Column (0..=24 on the doubled grid, left to right) of each hole.
pub const HOLE_X: [u8; HOLES] = {
    let mut t = [0u8; HOLES];
    let mut r = 0;
    while r < ROWS {
        let mut i = ROW_START[r] as usize;
        while i < ROW_START[r + 1] as usize {
            t[i] = ROW_X0[r] + 2 * (i as u8 - ROW_START[r]);
            i += 1;
        }
        r += 1;
    }
    t
};

/// The hole at row `row`, column `x` of the doubled grid, or [`NONE`].
pub const fn hole_at(row: i32, x: i32) -> u8 {
    if row < 0 || row >= ROWS as i32 || x < 0 {
        return NONE;
    }
    let r = row as usize;
    let dx = x - ROW_X0[r] as i32;
    if dx < 0 || dx % 2 != 0 || dx / 2 >= ROW_LEN[r] as i32 {
        return NONE;
    }
    ROW_START[r] + (dx / 2) as u8
}

/// The six neighbours of each hole, indexed by direction ([`DIRECTIONS`]); [`NONE`] off the board.
pub const NEIGHBOURS: [[u8; 6]; HOLES] = {
    let mut t = [[NONE; 6]; HOLES];
    let mut h = 0;
    while h < HOLES {
        let mut d = 0;
        while d < 6 {
            t[h][d] = hole_at(
                HOLE_ROW[h] as i32 + DIRECTIONS[d].0 as i32,
                HOLE_X[h] as i32 + DIRECTIONS[d].1 as i32,
            );
            d += 1;
        }
        h += 1;
    }
    t
};

/// Rows from hole `h` to the tip of triangle `t` (0 at the tip, 16 at the opposite tip).
const fn tip_distance(t: usize, h: usize) -> u8 {
    let (r, x) = (HOLE_ROW[h] as i32, HOLE_X[h] as i32);
    let d = match t {
        0 => 16 - r,
        1 => (12 + x - r) / 2,
        2 => (x + r - 4) / 2,
        3 => r,
        4 => (20 - x + r) / 2,
        _ => (36 - x - r) / 2,
    };
    d as u8
}

/// `DIST[t][h]`: rows from hole `h` to the tip of triangle `t`, 0..=16. A hole is
/// in triangle `t` exactly when this is at most 3.
pub const DIST: [[u8; HOLES]; 6] = {
    let mut t = [[0u8; HOLES]; 6];
    let mut tri = 0;
    while tri < 6 {
        let mut h = 0;
        while h < HOLES {
            t[tri][h] = tip_distance(tri, h);
            h += 1;
        }
        tri += 1;
    }
    t
};

/// The triangle a hole lies in, or `None` for the 61 holes of the central hexagon.
pub const fn triangle_of(h: usize) -> Option<u8> {
    let mut t = 0;
    while t < 6 {
        if h < HOLES && DIST[t][h] <= 3 {
            return Some(t as u8);
        }
        t += 1;
    }
    None
}

/// A set of holes: 121 bits in four words (bit `h % 32` of word `h / 32`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Holes(pub [u32; 4]);

impl Holes {
    /// The empty set.
    pub const EMPTY: Self = Self([0; 4]);

    /// Whether hole `h` is in the set (false for `h` off the board).
    #[inline]
    pub const fn has(&self, h: u8) -> bool {
        let w = (h / 32) as usize;
        w < 4 && self.0[w] & (1 << (h % 32)) != 0
    }

    /// Adds hole `h` (ignored if `h` is off the board).
    #[inline]
    pub const fn set(&mut self, h: u8) {
        let w = (h / 32) as usize;
        if w < 4 {
            self.0[w] |= 1 << (h % 32);
        }
    }

    /// Removes hole `h`.
    #[inline]
    pub const fn clear(&mut self, h: u8) {
        let w = (h / 32) as usize;
        if w < 4 {
            self.0[w] &= !(1 << (h % 32));
        }
    }

    /// Number of holes in the set.
    pub const fn count(&self) -> u32 {
        self.0[0].count_ones()
            + self.0[1].count_ones()
            + self.0[2].count_ones()
            + self.0[3].count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(&self) -> bool {
        self.0[0] | self.0[1] | self.0[2] | self.0[3] == 0
    }

    /// Whether every hole of `other` is in this set.
    pub const fn contains_all(&self, other: &Holes) -> bool {
        let mut w = 0;
        while w < 4 {
            if self.0[w] & other.0[w] != other.0[w] {
                return false;
            }
            w += 1;
        }
        true
    }

    /// Removes and returns the lowest-numbered hole.
    #[inline]
    pub fn pop_lowest(&mut self) -> Option<u8> {
        for (w, word) in self.0.iter_mut().enumerate() {
            if *word != 0 {
                let b = word.trailing_zeros();
                *word &= *word - 1;
                return Some(w as u8 * 32 + b as u8);
            }
        }
        None
    }

    /// The holes in increasing order.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        let mut rest = self;
        core::iter::from_fn(move || rest.pop_lowest())
    }
}

const fn area(t: usize, fifteen: bool) -> Holes {
    let mut s = Holes::EMPTY;
    let mut h = 0;
    while h < HOLES {
        let d = DIST[t][h];
        if d <= 3 || (fifteen && d == 4 && triangle_of(h).is_none()) {
            s.set(h as u8);
        }
        h += 1;
    }
    s
}

/// `AREAS[0][t]`: the 10 holes of triangle `t`; `AREAS[1][t]`: its 15-hole area
/// (the triangle plus the 5 hexagon holes along its base, the next row toward
/// the centre).
pub const AREAS: [[Holes; 6]; 2] = {
    let mut a = [[Holes::EMPTY; 6]; 2];
    let mut t = 0;
    while t < 6 {
        a[0][t] = area(t, false);
        a[1][t] = area(t, true);
        t += 1;
    }
    a
};

/// Triangle each player starts in, for 2, 3, 4 and 6 players (index by `players`;
/// unused player counts are empty). Two players sit opposite (bottom, top), three
/// in alternating triangles, four in two opposite pairs (top and bottom empty),
/// six everywhere. Turn order follows the player numbers.
pub const SEATS: [&[u8]; 7] = [
    &[],
    &[],
    &[0, 3],
    &[0, 2, 4],
    &[1, 2, 4, 5],
    &[],
    &[0, 1, 2, 3, 4, 5],
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn star_has_121_holes_in_17_rows() {
        assert_eq!(ROW_START[ROWS], 121);
        assert_eq!(
            ROW_LEN,
            [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1]
        );
        for h in 0..HOLES {
            assert_eq!(hole_at(HOLE_ROW[h].into(), HOLE_X[h].into()), h as u8);
            assert_eq!((HOLE_ROW[h] + HOLE_X[h]) % 2, 0, "one parity class");
        }
        assert_eq!((HOLE_ROW[0], HOLE_X[0]), (0, 12));
        assert_eq!((HOLE_ROW[120], HOLE_X[120]), (16, 12));
        assert_eq!(hole_at(8, 12), 60, "centre");
        assert_eq!(hole_at(8, 13), NONE);
        assert_eq!(hole_at(-1, 12), NONE);
        assert_eq!(hole_at(3, 7), NONE);
    }

    #[test]
    fn neighbours_are_symmetric() {
        let mut links = 0;
        for (h, nbrs) in NEIGHBOURS.iter().enumerate() {
            for (d, &n) in nbrs.iter().enumerate() {
                if n != NONE {
                    links += 1;
                    assert_eq!(NEIGHBOURS[n as usize][(d + 3) % 6], h as u8);
                }
            }
        }
        // Every hole has at least 2 neighbours; the centre has 6.
        assert!(
            NEIGHBOURS
                .iter()
                .all(|n| n.iter().filter(|&&x| x != NONE).count() >= 2)
        );
        assert!(NEIGHBOURS[60].iter().all(|&n| n != NONE));
        assert_eq!(NEIGHBOURS[0], [NONE, 2, 1, NONE, NONE, NONE]);
        // Each edge is seen from both ends: the star has 312 edges (counted
        // independently from the two-triangle definition of the star).
        assert_eq!(links, 2 * 312);
    }

    #[test]
    fn six_triangles_of_ten_and_a_hexagon_of_61() {
        let mut counts = [0; 7];
        for h in 0..HOLES {
            counts[triangle_of(h).map_or(6, usize::from)] += 1;
        }
        assert_eq!(counts, [10, 10, 10, 10, 10, 10, 61]);
        for t in 0..6 {
            assert_eq!(AREAS[0][t].count(), 10);
            assert_eq!(AREAS[1][t].count(), 15);
            assert!(AREAS[1][t].contains_all(&AREAS[0][t]));
            // Opposite tips are 16 rows apart, and distances to opposite tips sum to 16.
            for (a, b) in DIST[t].iter().zip(DIST[(t + 3) % 6].iter()) {
                assert_eq!(a + b, 16);
            }
        }
        assert!(AREAS[0][3].has(0) && AREAS[0][0].has(120));
        // Rows 4 of the 15-hole top area: the five central holes of row 4.
        let row4: Vec<u8> = AREAS[1][3]
            .iter()
            .filter(|&h| HOLE_ROW[usize::from(h)] == 4)
            .collect();
        assert_eq!(row4, [14, 15, 16, 17, 18]);
        // Triangle tips: one hole at distance 0.
        for dist in &DIST {
            assert_eq!(dist.iter().filter(|&&d| d == 0).count(), 1);
        }
    }

    #[test]
    fn holes_set_operations() {
        let mut s = Holes::EMPTY;
        s.set(120);
        s.set(3);
        s.set(200);
        assert!(s.has(120) && s.has(3) && !s.has(4) && !s.has(200));
        assert_eq!(s.count(), 2);
        assert_eq!(s.iter().collect::<Vec<_>>(), [3, 120]);
        s.clear(3);
        assert_eq!(s.pop_lowest(), Some(120));
        assert!(s.is_empty());
    }
}
