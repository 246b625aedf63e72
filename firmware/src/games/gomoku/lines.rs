//! Line patterns precomputed per rule: what a stone makes along one line.
//!
//! The build script runs [`super::lines_gen`] over every canonical window (the
//! 11 points of a line around a point, seen by one colour, cut at the first
//! blocked point on each side: 94 × 94 windows) for each way of winning (five or
//! more, exactly five, caro's exactly five not blocked at both ends) and puts the
//! three tables in flash, two 4-bit patterns a byte (13 KB in all). Looking a
//! pattern up costs two half-window states and one table read; the host reads
//! byte-a-window copies without the edge's half states ([`HostTable`]).
//!
//! On top of the line patterns:
//! * [`PointPatterns`]: the four line patterns a stone on an empty point would
//!   make for each colour, and what they add up to ([`Threat`]): a five, an open
//!   four, a four-three, …, with a value for move ordering;
//! * [`stone_value`]: the evaluation's value of a stone's line pattern.

use super::board::{BLACK, Board, CENTER, Line, Point, WHITE};
use super::lines_gen::WINDOWS;
pub use super::lines_gen::{
    B1, B2, B3, B4, D4, DEAD, F1, F2, F2A, F3, F3S, F4, F5, FiveRule, HALF_STATES, OL, PATTERNS,
};
use super::rules::Rule;

/// A line pattern (one of the constants re-exported from [`super::lines_gen`]).
pub type Pattern = u8;

/// The three tables: free, exact, caro, each `WINDOWS / 2` bytes.
static TABLES: &[u8; 3 * TABLE_BYTES] =
    include_bytes!(concat!(env!("OUT_DIR"), "/gomoku_lines.bin"));

/// Bytes of one table.
const TABLE_BYTES: usize = super::lines_gen::WINDOWS.div_ceil(2);

/// One rule's table of line patterns.
#[derive(Clone, Copy, Debug)]
pub struct Table(&'static [u8]);

impl Table {
    /// The table of a way of winning.
    pub fn of(five: FiveRule) -> Self {
        let i = match five {
            FiveRule::Free => 0,
            FiveRule::Exact => 1,
            FiveRule::Caro => 2,
        };
        Table(&TABLES[i * TABLE_BYTES..(i + 1) * TABLE_BYTES])
    }

    /// The table `side` plays by under `rule`.
    pub fn for_side(rule: Rule, side: u8) -> Self {
        Self::of(rule.five_rule(side))
    }

    /// The tables black and white play by under `rule`, by side.
    #[inline(always)]
    pub fn both(rule: Rule) -> [Self; 2] {
        [Self::for_side(rule, 0), Self::for_side(rule, 1)]
    }

    /// The pattern of the canonical window `index`.
    #[inline(always)]
    fn get(self, index: usize) -> Pattern {
        let byte = self.0.get(index / 2).copied().unwrap_or(0);
        (byte >> ((index & 1) * 4)) & 15
    }

    /// The pattern `side` has along `line` with its stone on the centre (placed
    /// there if the centre is empty).
    #[inline]
    pub fn pattern(self, line: &Line, side: u8) -> Pattern {
        let own = usize::from(line.own(side));
        let blocked = usize::from(line.blocked(side));
        let off = usize::from(line.off);
        let (blk_l, blk_r) = (blocked & 31, (blocked >> 6) & 31);
        let mut left = usize::from(LEFT[(own & 31) | blk_l << 5]);
        let mut right = usize::from(RIGHT[((own >> 6) & 31) | blk_r << 5]);
        // When the nearest blocked point is the edge: the other half of the states.
        let (bit_l, size_l) = NEAREST_LEFT[blk_l];
        if off & usize::from(bit_l) != 0 {
            left += usize::from(size_l);
        }
        let bit_r = blk_r & blk_r.wrapping_neg();
        if (off >> 6) & bit_r != 0 {
            right += bit_r;
        }
        self.get(left * HALF_STATES + right)
    }
}

/// The three tables' bytes (as [`TABLES`]), for the host's byte-a-window
/// copies ([`WIDE`]) built from them at compile time.
const TABLE_DATA: &[u8; 3 * TABLE_BYTES] =
    include_bytes!(concat!(env!("OUT_DIR"), "/gomoku_lines.bin"));

/// The three tables unpacked, one pattern a byte (the host's [`HostTable`]:
/// 26 KB, not in the board's flash).
static WIDE: [[u8; WINDOWS]; 3] = {
    let mut t = [[0u8; WINDOWS]; 3];
    let mut k = 0;
    while k < 3 {
        let mut i = 0;
        while i < WINDOWS {
            t[k][i] = (TABLE_DATA[k * TABLE_BYTES + i / 2] >> ((i & 1) * 4)) & 15;
            i += 1;
        }
        k += 1;
    }
    t
};

/// [`LEFT`]'s states times [`HALF_STATES`]: the first index of their row of
/// windows (the host's [`HostTable`]).
static LEFT_ROWS: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut i = 0;
    while i < 1024 {
        t[i] = LEFT[i] as u16 * HALF_STATES as u16;
        i += 1;
    }
    t
};

/// The host's view of one rule's line patterns: [`Table::pattern`] in fewer
/// steps where the edge of the board blocks a line as an opponent stone does
/// (every way of winning but caro's: a test checks every window), a byte a
/// window and the half states' row read pre-multiplied.
#[derive(Clone, Copy, Debug)]
pub struct HostTable {
    /// The rule's patterns, a byte a window.
    wide: &'static [u8; WINDOWS],
    /// The packed table (read for caro, whose edge is not an opponent stone).
    table: Table,
    /// The edge blocks as an opponent stone does (not caro).
    edge_blocks: bool,
}

impl HostTable {
    /// The table of a way of winning.
    pub fn of(five: FiveRule) -> Self {
        let i = match five {
            FiveRule::Free => 0,
            FiveRule::Exact => 1,
            FiveRule::Caro => 2,
        };
        HostTable {
            wide: &WIDE[i],
            table: Table::of(five),
            edge_blocks: five != FiveRule::Caro,
        }
    }

    /// The tables black and white play by under `rule`, by side.
    pub fn both(rule: Rule) -> [Self; 2] {
        [Self::of(rule.five_rule(0)), Self::of(rule.five_rule(1))]
    }

    /// [`Table::pattern`]: the same pattern.
    #[inline(always)]
    pub fn pattern(self, line: &Line, side: u8) -> Pattern {
        if !self.edge_blocks {
            return self.table.pattern(line, side);
        }
        let own = usize::from(line.own(side));
        let blocked = usize::from(line.blocked(side));
        let left = usize::from(LEFT_ROWS[(own & 31) | (blocked & 31) << 5]);
        let right = usize::from(RIGHT[((own >> 6) & 31) | ((blocked >> 6) & 31) << 5]);
        self.wide.get(left + right).copied().unwrap_or(0)
    }
}

/// Canonical states of right half windows (nearest point = bit 0) by their own
/// and blocked bits (`own | blocked << 5`), the nearest blocked point taken as
/// an opponent stone.
static RIGHT: [u8; 1024] = half_table(false);
/// The same for left half windows (nearest point = bit 4).
static LEFT: [u8; 1024] = half_table(true);
/// A left half's nearest blocked point (its highest bit; 0 for none) and the
/// state offset when that point is the edge (`2^(distance - 1)`).
static NEAREST_LEFT: [(u8, u8); 32] = {
    let mut t = [(0u8, 0u8); 32];
    let mut i = 1;
    while i < 32 {
        let top = 31 - (i as u32).leading_zeros();
        t[i] = ((1u32 << top) as u8, (16u32 >> top) as u8);
        i += 1;
    }
    t
};

/// Five bits reversed.
const fn rev5(x: u32) -> u32 {
    let mut r = 0;
    let mut b = 0;
    while b < 5 {
        if x >> b & 1 != 0 {
            r |= 1 << (4 - b);
        }
        b += 1;
    }
    r
}

/// The half-window states by `own | blocked << 5` (see [`RIGHT`], [`LEFT`]).
const fn half_table(left: bool) -> [u8; 1024] {
    let mut t = [0u8; 1024];
    let mut i = 0;
    while i < 1024 {
        let (mut own, mut blocked) = ((i & 31) as u32, (i >> 5) as u32);
        if left {
            own = rev5(own);
            blocked = rev5(blocked);
        }
        t[i] = super::lines_gen::half_state(own & !blocked, blocked, false) as u8;
        i += 1;
    }
    t
}

/// The empty points of `line` (window bits) where `side`, with its stone on the
/// centre, completes a five containing the centre under `five`.
pub fn five_points(line: &Line, side: u8, five: FiveRule) -> u16 {
    const LOW5: u16 = 0b1_1111;
    let own = line.own(side) | CENTER;
    let blocked = line.blocked(side);
    let opp = line.own(side ^ 1);
    let mut found = 0;
    for s in 1..=5u32 {
        let w = LOW5 << s;
        if blocked & w != 0 || super::shape::pop5(own, s) != 4 {
            continue;
        }
        let (left, right) = (1u16 << (s - 1), 1u16 << (s + 5));
        let ok = match five {
            FiveRule::Free => true,
            FiveRule::Exact => own & (left | right) == 0,
            FiveRule::Caro => own & (left | right) == 0 && !(opp & left != 0 && opp & right != 0),
        };
        if ok {
            found |= w & !own;
        }
    }
    found
}

/// What a stone on an empty point would make for one colour, all four lines together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threat {
    /// The strongest combination (`NONE` … `FIVE`, see the constants below).
    pub class: u8,
    /// Black may not play there (renju; only set once the full test has run).
    pub forbidden: bool,
    /// Move-ordering value of the point for this colour (attack).
    pub value: u16,
}

/// No four or open three.
pub const NONE: u8 = 0;
/// An open three (the next stone makes a straight four).
pub const THREE: u8 = 1;
/// A four (one point makes five).
pub const FOUR: u8 = 2;
/// Two open threes.
pub const THREE_THREE: u8 = 3;
/// A four and an open three.
pub const FOUR_THREE: u8 = 4;
/// A straight four or two fours: two five points.
pub const OPEN_FOUR: u8 = 5;
/// A five.
pub const FIVE: u8 = 6;

/// Ordering value of a point by the line pattern it makes (summed over the lines).
const POINT_VALUE: [u16; PATTERNS] = [
    0,      // DEAD
    0,      // OL
    2,      // B1
    6,      // F1
    8,      // B2
    40,     // F2
    50,     // F2A
    45,     // B3
    240,    // F3
    260,    // F3S
    250,    // B4
    2_000,  // F4
    2_000,  // D4
    20_000, // F5
];

/// Value of a combination class (added to the lines' values).
const CLASS_VALUE: [u16; 7] = [0, 0, 0, 1_200, 1_600, 6_000, 30_000];

/// Adds up a colour's four line patterns on one point: class and value, and
/// whether the point may be forbidden (renju black: a five none, and two fours,
/// two threes or an overline; [`PointPatterns::resolve`] runs the full test).
pub fn combine(patterns: [Pattern; 4], renju_black: bool) -> (Threat, bool) {
    PatternSum::of(patterns).threat(renju_black)
}

/// Four line patterns of one colour on one point added up in one sum (one
/// `PACKED` entry each): their value and how many of each kind of line they
/// hold, read by [`PatternSum::threat`] and, on the host, by the finer point
/// classes ([`super::point_class::of_sum`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PatternSum(u64);

impl PatternSum {
    /// The sum of the four patterns (one per direction).
    #[inline(always)]
    pub fn of(patterns: [Pattern; 4]) -> Self {
        PatternSum(
            PACKED[usize::from(patterns[0]) % PATTERNS]
                + PACKED[usize::from(patterns[1]) % PATTERNS]
                + PACKED[usize::from(patterns[2]) % PATTERNS]
                + PACKED[usize::from(patterns[3]) % PATTERNS],
        )
    }

    /// [`PatternSum::of`] at compile time (the host's class tables).
    pub const fn of_const(patterns: [Pattern; 4]) -> Self {
        let mut sum = 0;
        let mut d = 0;
        while d < 4 {
            sum += PACKED[patterns[d] as usize % PATTERNS];
            d += 1;
        }
        PatternSum(sum)
    }

    /// The threat of a point whose patterns add up to this sum and make the
    /// coarse class `class` (as [`PatternSum::threat`] values it, its class
    /// read elsewhere: the host's tables).
    #[inline(always)]
    pub fn threat_of_class(self, class: u8) -> Threat {
        let value = (self.0 & 0xFFFF_FFFF) as u32
            + u32::from(CLASS_VALUE.get(usize::from(class)).copied().unwrap_or(0));
        Threat {
            class,
            forbidden: false,
            value: value.min(u32::from(u16::MAX)) as u16,
        }
    }

    /// The sum with one of its patterns, `old`, replaced by `new` (the host's
    /// points kept move by move: two table reads, not four).
    #[inline(always)]
    pub fn replaced(self, old: Pattern, new: Pattern) -> Self {
        PatternSum(
            self.0
                .wrapping_sub(PACKED16[usize::from(old & 15)])
                .wrapping_add(PACKED16[usize::from(new & 15)]),
        )
    }

    #[inline(always)]
    const fn field(self, shift: u32) -> u32 {
        (self.0 >> shift) as u32 & 15
    }

    /// Fives (`F5`).
    #[inline(always)]
    pub const fn fives(self) -> u32 {
        self.field(32)
    }

    /// Fours: one for `F4` and `B4`, two for `D4`.
    #[inline(always)]
    pub const fn fours(self) -> u32 {
        self.field(36)
    }

    /// Open threes (`F3`, `F3S`).
    #[inline(always)]
    pub const fn open_threes(self) -> u32 {
        self.field(40)
    }

    /// Straight or double fours (`F4`, `D4`).
    #[inline(always)]
    pub const fn open_fours(self) -> u32 {
        self.field(44)
    }

    /// Overlines (`OL`).
    #[inline(always)]
    pub const fn overlines(self) -> u32 {
        self.field(48)
    }

    /// Closed threes (`B3`).
    #[inline(always)]
    pub const fn closed_threes(self) -> u32 {
        self.field(52)
    }

    /// Open twos (`F2`, `F2A`).
    #[inline(always)]
    pub const fn open_twos(self) -> u32 {
        self.field(56)
    }

    /// The class and value of the point, and whether it may be forbidden
    /// (see [`combine`]; inlined there, so that the board's frames are as
    /// before).
    #[inline(always)]
    pub fn threat(self, renju_black: bool) -> (Threat, bool) {
        let (fives, fours, threes, open, overline) = (
            self.fives(),
            self.fours(),
            self.open_threes(),
            self.open_fours(),
            self.overlines(),
        );
        let class = if fives > 0 {
            FIVE
        } else if open > 0 || fours >= 2 {
            OPEN_FOUR
        } else if fours == 1 && threes > 0 {
            FOUR_THREE
        } else if threes >= 2 {
            THREE_THREE
        } else if fours == 1 {
            FOUR
        } else if threes == 1 {
            THREE
        } else {
            NONE
        };
        let maybe_forbidden =
            renju_black && fives == 0 && (overline > 0 || fours >= 2 || threes >= 2);
        let value = (self.0 & 0xFFFF_FFFF) as u32 + u32::from(CLASS_VALUE[usize::from(class)]);
        (
            Threat {
                class,
                forbidden: false,
                value: value.min(u32::from(u16::MAX)) as u16,
            },
            maybe_forbidden,
        )
    }
}

/// Each pattern's value and counts, packed so that four patterns add up in one
/// sum: value (bits 0–31), fives (32–35), fours (36–39; two for `D4`), open
/// threes (40–43), straight or double fours (44–47), overlines (48–51), closed
/// threes (52–55), open twos (56–59). At most four patterns (eight fours) are
/// added: no field overflows into the next.
static PACKED: [u64; PATTERNS] = {
    let mut t = [0u64; PATTERNS];
    let mut p = 0;
    while p < PATTERNS {
        let (fives, fours, threes, open, overline, closed3, open2) = match p as u8 {
            F5 => (1, 0, 0, 0, 0, 0, 0),
            F4 => (0, 1, 0, 1, 0, 0, 0),
            D4 => (0, 2, 0, 1, 0, 0, 0),
            B4 => (0, 1, 0, 0, 0, 0, 0),
            F3 | F3S => (0, 0, 1, 0, 0, 0, 0),
            OL => (0, 0, 0, 0, 1, 0, 0),
            B3 => (0, 0, 0, 0, 0, 1, 0),
            F2 | F2A => (0, 0, 0, 0, 0, 0, 1),
            _ => (0, 0, 0, 0, 0, 0, 0),
        };
        t[p] = POINT_VALUE[p] as u64
            | fives << 32
            | fours << 36
            | threes << 40
            | open << 44
            | overline << 48
            | closed3 << 52
            | open2 << 56;
        p += 1;
    }
    t
};

/// [`PACKED`] by any 4-bit pattern (`PACKED[p % PATTERNS]`, read with a mask
/// instead of a division: [`PatternSum::replaced`]).
static PACKED16: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut p = 0;
    while p < 16 {
        t[p] = PACKED[p % PATTERNS];
        p += 1;
    }
    t
};

/// What `side`'s stone on the centre of `lines` makes (out of line: one
/// colour's lookups at a time on the stack).
#[inline(never)]
fn side_threat(lines: &[Line; 4], rule: Rule, side: u8) -> (Threat, bool) {
    let table = Table::for_side(rule, side);
    let pats = [
        table.pattern(&lines[0], side),
        table.pattern(&lines[1], side),
        table.pattern(&lines[2], side),
        table.pattern(&lines[3], side),
    ];
    combine(pats, side == BLACK && rule.has_forbidden())
}

/// The line patterns of a stone on one empty point for both colours, and their sums.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PointPatterns {
    /// Per colour (`[black, white]`) what the stone would make.
    pub threat: [Threat; 2],
    /// Black's point needs the full renju test ([`PointPatterns::resolve`]).
    pub maybe_forbidden: bool,
}

impl PointPatterns {
    /// Reads the empty point `p` of `board` under `rule` (the renju test not yet run).
    pub fn read(board: &Board, p: Point, rule: Rule) -> Self {
        Self::from_lines(&board.lines(p), rule)
    }

    /// Reads an empty point from its four windows (see [`Board::lines`]).
    #[inline(never)]
    pub fn from_lines(lines: &[Line; 4], rule: Rule) -> Self {
        let (black, maybe) = side_threat(lines, rule, BLACK);
        let (white, _) = side_threat(lines, rule, WHITE);
        PointPatterns {
            threat: [black, white],
            maybe_forbidden: maybe,
        }
    }

    /// What the four line patterns of each colour (`[black, white]`, in the
    /// order of [`super::board::DIRS`]) of one empty point add up to, from
    /// their sums (the renju test not yet run; `renju`: black plays with
    /// forbidden points).
    #[inline]
    pub fn from_sums(sums: [PatternSum; 2], renju: bool) -> Self {
        let (black, maybe) = sums[0].threat(renju);
        let (white, _) = sums[1].threat(false);
        PointPatterns {
            threat: [black, white],
            maybe_forbidden: maybe,
        }
    }

    /// Runs the full renju test on black's point `p` if it may be forbidden:
    /// a forbidden point is no threat for black (`class` `NONE`, value 0,
    /// `forbidden` set). The board is restored before returning.
    pub fn resolve(&mut self, board: &mut Board, p: Point) {
        if self.maybe_forbidden {
            self.maybe_forbidden = false;
            if super::rules::is_forbidden_in_place(board, p) {
                let black = &mut self.threat[usize::from(BLACK)];
                *black = Threat {
                    class: NONE,
                    forbidden: true,
                    value: 0,
                };
            }
        }
    }
}

/// The evaluation's value of one stone's line pattern in one direction (a row
/// of `k` stones is counted by each of its `k` stones).
pub const STONE_VALUE: [i32; PATTERNS] = [
    0,   // DEAD
    0,   // OL
    1,   // B1
    3,   // F1
    4,   // B2
    12,  // F2
    16,  // F2A
    14,  // B3
    40,  // F3
    48,  // F3S
    45,  // B4
    400, // F4
    400, // D4
    0,   // F5
];

/// [`STONE_VALUE`] of a pattern.
#[inline(always)]
pub fn stone_value(p: Pattern) -> i32 {
    STONE_VALUE[usize::from(p) % PATTERNS]
}

#[cfg(test)]
mod tests {
    use super::super::lines_gen::{self, Cell};
    use super::*;
    use crate::games::gomoku::board::{REACH, SIZE};
    use crate::games::gomoku::shape::{completions, four_count, three_points};

    /// The flash tables equal a fresh run of the generator.
    #[test]
    fn tables_are_the_generators() {
        let mut memo = std::vec![0u8; WINDOWS];
        let mut fresh = std::vec![0u8; WINDOWS];
        for five in [FiveRule::Free, FiveRule::Exact, FiveRule::Caro] {
            lines_gen::table(five, &mut fresh, &mut memo);
            let table = Table::of(five);
            for (i, &p) in fresh.iter().enumerate() {
                assert_eq!(table.get(i), p, "{five:?} window {i}");
            }
        }
    }

    /// The host's tables give the table's pattern of every window (each of
    /// the ten points empty, black, white or off the board), for both colours
    /// under each way of winning.
    #[test]
    fn host_tables_equal_the_tables() {
        for five in [FiveRule::Free, FiveRule::Exact, FiveRule::Caro] {
            let (table, host) = (Table::of(five), HostTable::of(five));
            for cells in 0..1u32 << 20 {
                let mut l = Line::default();
                for i in 0..10 {
                    let bit = 1u16 << if i < 5 { i } else { i + 1 };
                    match cells >> (2 * i) & 3 {
                        1 => l.black |= bit,
                        2 => l.white |= bit,
                        3 => l.off |= bit,
                        _ => {}
                    }
                }
                for side in [BLACK, WHITE] {
                    assert_eq!(
                        host.pattern(&l, side),
                        table.pattern(&l, side),
                        "{five:?} {cells:#x}"
                    );
                }
            }
        }
    }

    /// Canonical states round-trip and every half window maps into range.
    #[test]
    fn canonical_states_round_trip() {
        for i in 0..WINDOWS {
            assert_eq!(lines_gen::index(&lines_gen::window(i)), i);
        }
        for i in 0..1024 {
            assert!(usize::from(LEFT[i]) < HALF_STATES && usize::from(RIGHT[i]) < HALF_STATES);
        }
    }

    /// Reads a window written left to right as 11 characters: `x` own, `o`
    /// opponent, `#` edge, `.` empty (the centre is own whatever it shows).
    fn line(s: &str) -> Line {
        let mut l = Line::default();
        for (i, c) in s.bytes().enumerate() {
            match c {
                b'x' => l.black |= 1 << i,
                b'o' => l.white |= 1 << i,
                b'#' => l.off |= 1 << i,
                _ => {}
            }
        }
        l
    }

    #[test]
    fn patterns_of_familiar_shapes() {
        let free = Table::of(FiveRule::Free);
        let exact = Table::of(FiveRule::Exact);
        let caro = Table::of(FiveRule::Caro);
        let cases = [
            ("...xxxxx...", F5, F5, F5),
            ("..xxxxxx...", F5, OL, OL),
            ("....xxxx...", F4, F4, F4),
            ("...oxxxx...", B4, B4, B4),
            ("...x.xxx.x.", D4, D4, D4),
            ("...x.xx.x..", F3S, B3, B3),
            ("....xxx....", F3S, F3S, F3S),
            ("...oxxx....", B3, B3, B3),
            ("...x.xx....", F3, F3, F3),
            ("..x.xxx....", B4, B4, B4),
            (".x..xxx....", F3S, F3, F3),
            ("....xx.....", F2A, F2A, F2A),
            ("....ox.....", B1, B1, B1),
            ("####ox.....", B1, B1, B1),
            ("....oxo....", DEAD, DEAD, DEAD),
            ("...oxx...o.", B2, B2, DEAD),
            // Caro: a five with an opponent stone at both ends does not win.
            ("..oxxxxxo..", F5, F5, DEAD),
            ("##xxxxxo...", F5, F5, F5),
            ("..oxxxx.o..", B4, B4, DEAD),
        ];
        for (s, f, e, c) in cases {
            let l = line(s);
            assert_eq!(free.pattern(&l, BLACK), f, "free {s}");
            assert_eq!(exact.pattern(&l, BLACK), e, "exact {s}");
            assert_eq!(caro.pattern(&l, BLACK), c, "caro {s}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// [`five_points`] finds exactly the points whose stone makes a five in the table.
        #[test]
        fn five_points_agree_with_the_tables(cells in proptest::collection::vec(0u8..4, 11), rule in 0usize..3) {
            let five = [FiveRule::Free, FiveRule::Exact, FiveRule::Caro][rule];
            let mut l = Line::default();
            for (i, &c) in cells.iter().enumerate() {
                if i == 5 { continue; }
                match c {
                    1 => l.black |= 1 << i,
                    2 => l.white |= 1 << i,
                    _ => {}
                }
            }
            let table = Table::of(five);
            proptest::prop_assume!(table.pattern(&l, BLACK) != F5);
            let found = five_points(&l, BLACK, five);
            for i in 0..11 {
                let empty = i != 5 && (l.black | l.white | l.off) >> i & 1 == 0;
                let mut with = l;
                with.black |= (1 << i) | CENTER;
                let makes = empty && table.pattern(&with, BLACK) == F5;
                proptest::prop_assert_eq!(found >> i & 1 != 0, makes, "point {}", i);
            }
        }

        /// The table agrees with the bit-mask shape tests the renju rules use:
        /// five points (one or two fours), threes (a point makes a straight four).
        #[test]
        fn tables_agree_with_the_shape_tests(cells in proptest::collection::vec(0u8..4, 11), exact in proptest::bool::ANY) {
            let mut l = Line::default();
            let mut w = [Cell::Empty; 11];
            for (i, &c) in cells.iter().enumerate() {
                if i == usize::from(REACH as u8) { w[i] = Cell::Own; continue; }
                match c {
                    1 => { l.black |= 1 << i; w[i] = Cell::Own; }
                    2 => { l.white |= 1 << i; w[i] = Cell::Opp; }
                    _ => {}
                }
            }
            let _ = SIZE;
            let five = if exact { FiveRule::Exact } else { FiveRule::Free };
            let p = Table::of(five).pattern(&l, BLACK);
            let own = l.black | CENTER;
            let blocked = l.blocked(BLACK);
            let c = completions(own, blocked, exact);
            if lines_gen::is_five(&w, five) {
                proptest::prop_assert_eq!(p, F5);
            } else if p != OL {
                let fours = match p { B4 | F4 => 1, D4 => 2, _ => 0 };
                proptest::prop_assert_eq!(four_count(c), fours);
                if c == 0 {
                    let three = three_points(own, blocked, exact) != 0;
                    proptest::prop_assert_eq!(three, p == F3 || p == F3S, "{:?}", w);
                }
            }
        }
    }
}
