//! The host evaluation's finer point classes: what the four line patterns a
//! stone on an empty point would make add up to, down to the potential below
//! a three (in the spirit of Rapfi's classical "Pattern4": a point whose stone
//! makes two open twos is the next move's double three, one whose stone makes
//! a closed three and an open two the next move's four-three…).
//!
//! They refine [`super::lines::combine`]'s class (which the board uses and
//! keeps): every fine class lies within one coarse class ([`coarse`]). The
//! host keeps each empty point's fine classes move by move beside its line
//! patterns; the board never computes them.

use super::lines::{FIVE, FOUR, FOUR_THREE, NONE, OPEN_FOUR, THREE, THREE_THREE};
use super::lines::{Pattern, PatternSum};

/// A fine point class (`NO_CLASS` … `A_FIVE`, weakest first).
pub type PointClass = u8;

/// Nothing below: no open two, closed three or more.
pub const NO_CLASS: PointClass = 0;
/// One open two (`F2`, `F2A`).
pub const L_FLEX2: PointClass = 1;
/// One closed three (`B3`).
pub const K_BLOCK3: PointClass = 2;
/// Two open twos or more: the next stone there is a double three.
pub const J_FLEX2_2X: PointClass = 3;
/// A closed three and an open two, or two closed threes.
pub const I_BLOCK3_PLUS: PointClass = 4;
/// One open three (`F3`, `F3S`).
pub const H_FLEX3: PointClass = 5;
/// An open three and a closed three or open two.
pub const G_FLEX3_PLUS: PointClass = 6;
/// Two open threes or more (a double three).
pub const F_FLEX3_2X: PointClass = 7;
/// One four (`B4`).
pub const E_BLOCK4: PointClass = 8;
/// A four and a closed three or open two.
pub const D_BLOCK4_PLUS: PointClass = 9;
/// A four and an open three (a four-three).
pub const C_BLOCK4_FLEX3: PointClass = 10;
/// A straight four or two fours.
pub const B_FLEX4: PointClass = 11;
/// A five.
pub const A_FIVE: PointClass = 12;
/// Number of fine classes.
pub const CLASSES: usize = A_FIVE as usize + 1;

/// The fine class of a point from the four line patterns (one per direction)
/// one colour's stone there would make.
#[inline]
pub fn classify(patterns: [Pattern; 4]) -> PointClass {
    of_sum(PatternSum::of(patterns))
}

/// The fine class of a point from its patterns' sum (the sum
/// [`super::lines::combine`] reads its class from).
#[inline]
pub const fn of_sum(sum: PatternSum) -> PointClass {
    let (fives, fours, open_fours, flex3) = (
        sum.fives(),
        sum.fours(),
        sum.open_fours(),
        sum.open_threes(),
    );
    let (block3, flex2) = (sum.closed_threes(), sum.open_twos());
    let plus = block3 > 0 || flex2 > 0;
    if fives > 0 {
        A_FIVE
    } else if open_fours > 0 || fours >= 2 {
        B_FLEX4
    } else if fours == 1 {
        // With no straight or double four, the one four is a `B4`.
        if flex3 > 0 {
            C_BLOCK4_FLEX3
        } else if plus {
            D_BLOCK4_PLUS
        } else {
            E_BLOCK4
        }
    } else if flex3 >= 2 {
        F_FLEX3_2X
    } else if flex3 == 1 {
        if plus { G_FLEX3_PLUS } else { H_FLEX3 }
    } else if block3 >= 2 || block3 == 1 && flex2 > 0 {
        I_BLOCK3_PLUS
    } else if flex2 >= 2 {
        J_FLEX2_2X
    } else if block3 == 1 {
        K_BLOCK3
    } else if flex2 == 1 {
        L_FLEX2
    } else {
        NO_CLASS
    }
}

/// Kinds of line pattern as the classes count them: none of the below
/// (`DEAD`, `B1`, `F1`, `B2`), `F5`, `F4`, `D4`, `B4`, an open three (`F3`,
/// `F3S`), `B3`, an open two (`F2`, `F2A`), `OL`.
const KINDS: usize = 9;

/// The kind of a pattern (see [`KINDS`]; a pattern read as `% PATTERNS`, as
/// [`PatternSum::of`] reads it).
const fn kind(p: usize) -> usize {
    use super::lines::{B3, B4, D4, F2, F2A, F3, F3S, F4, F5, OL, PATTERNS};
    match (p % PATTERNS) as Pattern {
        F5 => 1,
        F4 => 2,
        D4 => 3,
        B4 => 4,
        F3 | F3S => 5,
        B3 => 6,
        F2 | F2A => 7,
        OL => 8,
        _ => 0,
    }
}

/// A pattern of each kind (see [`KINDS`]).
const KIND_PATTERN: [Pattern; KINDS] = {
    use super::lines::{B3, B4, D4, DEAD, F2, F3, F4, F5, OL};
    [DEAD, F5, F4, D4, B4, F3, B3, F2, OL]
};

/// Unordered pairs of kinds.
const PAIRS: usize = KINDS * (KINDS + 1) / 2;

/// The unordered pair of kinds of two patterns by `p << 4 | q` (4-bit
/// patterns), numbered `0 .. PAIRS`.
static PAIR: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let (a, b) = (kind(i >> 4), kind(i & 15));
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        // Pairs (lo, hi) numbered row by row of `lo`.
        t[i] = (lo * KINDS - lo * lo.saturating_sub(1) / 2 + (hi - lo)) as u8;
        i += 1;
    }
    t
};

/// A pair of patterns of each pair number of [`PAIR`].
const PAIR_PATTERNS: [[Pattern; 2]; PAIRS] = {
    let mut t = [[0u8; 2]; PAIRS];
    let mut lo = 0;
    while lo < KINDS {
        let mut hi = lo;
        while hi < KINDS {
            let (p, q) = (KIND_PATTERN[lo], KIND_PATTERN[hi]);
            t[PAIR[(p as usize) << 4 | q as usize] as usize] = [p, q];
            hi += 1;
        }
        lo += 1;
    }
    t
};

/// The bit of a [`QUAD`] entry set where a renju black point may be forbidden.
const MAYBE_FORBIDDEN: u8 = 0x80;

/// The fine class of four patterns by their two pairs' numbers
/// (`PAIR[p0, p1] * PAIRS + PAIR[p2, p3]`), its coarse class (bits 4–6) and
/// [`MAYBE_FORBIDDEN`] set where [`super::lines::combine`] finds a renju
/// black point maybe forbidden.
static QUAD: [u8; PAIRS * PAIRS] = {
    let mut t = [0u8; PAIRS * PAIRS];
    let mut i = 0;
    while i < PAIRS * PAIRS {
        let (a, b) = (PAIR_PATTERNS[i / PAIRS], PAIR_PATTERNS[i % PAIRS]);
        let sum = PatternSum::of_const([a[0], a[1], b[0], b[1]]);
        let maybe =
            sum.fives() == 0 && (sum.overlines() > 0 || sum.fours() >= 2 || sum.open_threes() >= 2);
        let fine = of_sum(sum);
        t[i] = fine | coarse(fine) << 4 | if maybe { MAYBE_FORBIDDEN } else { 0 };
        i += 1;
    }
    t
};

/// The fine class ([`of_sum`] of their sum) of four patterns (one per
/// direction), its coarse class ([`coarse`]) and whether a renju black stone
/// there may be forbidden (as [`super::lines::combine`] says): three table
/// reads (the host's kept points).
#[inline(always)]
pub fn of_patterns(patterns: [Pattern; 4]) -> (PointClass, u8, bool) {
    let pair =
        |p: Pattern, q: Pattern| usize::from(PAIR[usize::from(p & 15) << 4 | usize::from(q & 15)]);
    let i = pair(patterns[0], patterns[1]) * PAIRS + pair(patterns[2], patterns[3]);
    let quad = QUAD.get(i).copied().unwrap_or(0);
    (quad & 15, quad >> 4 & 7, quad & MAYBE_FORBIDDEN != 0)
}

/// Number of point codes ([`code`]): the multisets of four line patterns
/// (C(17, 4), since there are 14 patterns).
pub const CODES: usize = 2_380;

/// `C(n, k)` at compile time.
const fn choose(n: usize, k: usize) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// The number (`0 .. CODES`) of the multiset of four patterns (each read
/// `% PATTERNS`): `C(p + i, i + 1)` summed over the `i`-th smallest pattern
/// `p` (the combinatorial number system of multisets).
const fn code_of(patterns: [usize; 4]) -> u16 {
    use super::lines::PATTERNS;
    let mut p = [
        patterns[0] % PATTERNS,
        patterns[1] % PATTERNS,
        patterns[2] % PATTERNS,
        patterns[3] % PATTERNS,
    ];
    // Insertion sort: p[0] ≤ p[1] ≤ p[2] ≤ p[3].
    let mut i = 1;
    while i < 4 {
        let mut j = i;
        while j > 0 && p[j - 1] > p[j] {
            let t = p[j];
            p[j] = p[j - 1];
            p[j - 1] = t;
            j -= 1;
        }
        i += 1;
    }
    let mut code = 0;
    let mut i = 0;
    while i < 4 {
        code += choose(p[i] + i, i + 1);
        i += 1;
    }
    code as u16
}

/// Unordered pairs of patterns (`PATTERNS · (PATTERNS + 1) / 2`).
const CODE_PAIRS: usize = 105;

/// The unordered pair of two patterns by `p << 4 | q` (4-bit patterns, read
/// `% PATTERNS`), numbered `0 .. CODE_PAIRS`.
static CODE_PAIR: [u8; 256] = {
    use super::lines::PATTERNS;
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let (a, b) = ((i >> 4) % PATTERNS, (i & 15) % PATTERNS);
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        t[i] = (lo * PATTERNS - lo * lo.saturating_sub(1) / 2 + (hi - lo)) as u8;
        i += 1;
    }
    t
};

/// The code of four patterns by their two pairs' numbers
/// (`CODE_PAIR[p0, p1] * CODE_PAIRS + CODE_PAIR[p2, p3]`).
static CODE_QUAD: [u16; CODE_PAIRS * CODE_PAIRS] = {
    use super::lines::PATTERNS;
    // A pair of patterns of each pair number.
    let mut pairs = [[0usize; 2]; CODE_PAIRS];
    let mut p = 0;
    while p < PATTERNS {
        let mut q = p;
        while q < PATTERNS {
            pairs[CODE_PAIR[p << 4 | q] as usize] = [p, q];
            q += 1;
        }
        p += 1;
    }
    let mut t = [0u16; CODE_PAIRS * CODE_PAIRS];
    let mut i = 0;
    while i < CODE_PAIRS * CODE_PAIRS {
        let (a, b) = (pairs[i / CODE_PAIRS], pairs[i % CODE_PAIRS]);
        t[i] = code_of([a[0], a[1], b[0], b[1]]);
        i += 1;
    }
    t
};

/// The point code of four line patterns (one per direction): the number
/// (`0 .. CODES`) of their multiset, whatever the directions' order (Rapfi's
/// "pcode"), from two pair tables (three table reads, as
/// [`of_patterns`]). Finer than the fine class: the host evaluation's
/// per-code values refine the class weights.
#[inline(always)]
pub fn code(patterns: [Pattern; 4]) -> u16 {
    let pair = |p: Pattern, q: Pattern| {
        usize::from(CODE_PAIR[usize::from(p & 15) << 4 | usize::from(q & 15)])
    };
    let i = pair(patterns[0], patterns[1]) * CODE_PAIRS + pair(patterns[2], patterns[3]);
    CODE_QUAD.get(i).copied().unwrap_or(0)
}

/// The coarse class ([`super::lines::combine`]'s) a fine class lies within.
pub const fn coarse(class: PointClass) -> u8 {
    match class {
        A_FIVE => FIVE,
        B_FLEX4 => OPEN_FOUR,
        C_BLOCK4_FLEX3 => FOUR_THREE,
        D_BLOCK4_PLUS | E_BLOCK4 => FOUR,
        F_FLEX3_2X => THREE_THREE,
        G_FLEX3_PLUS | H_FLEX3 => THREE,
        _ => NONE,
    }
}

/// Weights by coarse class spread over the fine classes (each fine class
/// takes its coarse class's weight): the same score as the coarse classes.
pub const fn from_coarse(w: [i16; 7]) -> [i16; CLASSES] {
    let mut out = [0i16; CLASSES];
    let mut c = 0;
    while c < CLASSES {
        out[c] = w[coarse(c as PointClass) as usize];
        c += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::games::gomoku::board::BLACK;
    use crate::games::gomoku::lines::{
        B1, B2, B3, B4, D4, DEAD, F1, F2, F2A, F3, F3S, F4, F5, OL, PATTERNS, Table, combine,
    };
    use crate::games::gomoku::{Gomoku, Rule};

    /// Every fine class refines `combine`'s class, over all pattern
    /// quadruples (so the coarse weights spread by [`from_coarse`] score as
    /// before).
    #[test]
    fn fine_classes_refine_the_coarse_ones() {
        for i in 0..PATTERNS.pow(4) {
            let p = [
                (i % PATTERNS) as u8,
                (i / PATTERNS % PATTERNS) as u8,
                (i / PATTERNS.pow(2) % PATTERNS) as u8,
                (i / PATTERNS.pow(3)) as u8,
            ];
            for renju in [false, true] {
                assert_eq!(coarse(classify(p)), combine(p, renju).0.class, "{p:?}");
            }
        }
    }

    /// The classes by their definitions, counting the patterns one by one:
    /// the packed sum must read the same over all pattern quadruples.
    #[test]
    fn packed_sum_classes_match_the_definitions() {
        for i in 0..PATTERNS.pow(4) {
            let p: [Pattern; 4] =
                core::array::from_fn(|d| (i / PATTERNS.pow(d as u32) % PATTERNS) as u8);
            let count = |kinds: &[Pattern]| p.iter().filter(|x| kinds.contains(x)).count();
            let (five, flex4, block4) = (count(&[F5]), count(&[F4, D4]), count(&[B4]));
            let (flex3, block3, flex2) = (count(&[F3, F3S]), count(&[B3]), count(&[F2, F2A]));
            let plus = block3 > 0 || flex2 > 0;
            let expected = if five > 0 {
                A_FIVE
            } else if flex4 > 0 || block4 >= 2 {
                B_FLEX4
            } else if block4 == 1 && flex3 > 0 {
                C_BLOCK4_FLEX3
            } else if block4 == 1 && plus {
                D_BLOCK4_PLUS
            } else if block4 == 1 {
                E_BLOCK4
            } else if flex3 >= 2 {
                F_FLEX3_2X
            } else if flex3 == 1 && plus {
                G_FLEX3_PLUS
            } else if flex3 == 1 {
                H_FLEX3
            } else if block3 >= 2 || block3 == 1 && flex2 > 0 {
                I_BLOCK3_PLUS
            } else if flex2 >= 2 {
                J_FLEX2_2X
            } else if block3 == 1 {
                K_BLOCK3
            } else if flex2 == 1 {
                L_FLEX2
            } else {
                NO_CLASS
            };
            assert_eq!(classify(p), expected, "{p:?}");
        }
    }

    /// The class tables read as the sums do, over all 4-bit pattern
    /// quadruples: the fine class, the coarse class and value, and renju
    /// black's maybe-forbidden flag.
    #[test]
    fn class_tables_match_the_sums() {
        for i in 0..16usize.pow(4) {
            let p: [Pattern; 4] = core::array::from_fn(|d| (i >> (4 * d) & 15) as u8);
            let sum = PatternSum::of(p);
            let (fine, class, maybe) = of_patterns(p);
            assert_eq!(fine, of_sum(sum), "{p:?}");
            assert_eq!(class, coarse(fine), "{p:?}");
            assert_eq!(maybe, sum.threat(true).1, "{p:?}");
            assert_eq!(sum.threat_of_class(class), sum.threat(false).0, "{p:?}");
        }
    }

    /// Point codes number the multisets of four patterns one to one: the
    /// same code for any order, a different one for any other multiset,
    /// all below [`CODES`] and every number used.
    #[test]
    fn codes_number_the_pattern_multisets() {
        let mut seen = std::collections::HashMap::new();
        for i in 0..PATTERNS.pow(4) {
            let p: [Pattern; 4] =
                core::array::from_fn(|d| (i / PATTERNS.pow(d as u32) % PATTERNS) as u8);
            let mut sorted = p;
            sorted.sort_unstable();
            let c = code(p);
            assert_eq!(c, code_of(p.map(usize::from)), "{p:?}");
            assert!(usize::from(c) < CODES, "{p:?}");
            assert_eq!(*seen.entry(c).or_insert(sorted), sorted, "{p:?}");
        }
        assert_eq!(seen.len(), CODES);
    }

    #[test]
    fn classes_of_pattern_sets() {
        let cases = [
            ([DEAD, OL, B1, F1], NO_CLASS),
            ([B2, B2, F1, DEAD], NO_CLASS),
            ([F2, B1, B2, DEAD], L_FLEX2),
            ([B3, B2, DEAD, DEAD], K_BLOCK3),
            ([F2, F2A, DEAD, B2], J_FLEX2_2X),
            ([B3, F2A, DEAD, DEAD], I_BLOCK3_PLUS),
            ([B3, B3, DEAD, DEAD], I_BLOCK3_PLUS),
            ([F3, B2, B2, F1], H_FLEX3),
            ([F3S, F2, DEAD, DEAD], G_FLEX3_PLUS),
            ([F3, F3S, DEAD, DEAD], F_FLEX3_2X),
            ([B4, B2, DEAD, DEAD], E_BLOCK4),
            ([B4, B3, DEAD, DEAD], D_BLOCK4_PLUS),
            ([B4, F3, B3, DEAD], C_BLOCK4_FLEX3),
            ([B4, B4, DEAD, DEAD], B_FLEX4),
            ([D4, DEAD, DEAD, DEAD], B_FLEX4),
            ([F4, F3, DEAD, DEAD], B_FLEX4),
            ([F5, B4, F4, DEAD], A_FIVE),
        ];
        for (p, class) in cases {
            assert_eq!(classify(p), class, "{p:?}");
        }
    }

    /// The classes of a few points of a known position, read from the board.
    #[test]
    fn classes_of_known_points() {
        // Black h8 and h10, white a1 and a3 far away; black to move.
        let pos = Gomoku::parse_position("free h8a1h10a3").unwrap();
        let class = |point: &str| {
            let p = crate::games::gomoku::parse_point(point).unwrap();
            let lines = pos.board().lines(p);
            let table = Table::for_side(Rule::Free, BLACK);
            classify(core::array::from_fn(|d| table.pattern(&lines[d], BLACK)))
        };
        // h9 and h11: an open three on column h (h8 h9 h10, h8 . h10 h11).
        assert_eq!(class("h9"), H_FLEX3);
        assert_eq!(class("h11"), H_FLEX3);
        // g9, i9: an open two with h10 and another with h8 (the diagonals).
        assert_eq!(class("g9"), J_FLEX2_2X);
        assert_eq!(class("i9"), J_FLEX2_2X);
        // h12, h6: x.x.x on column h, a closed three (no straight four).
        assert_eq!(class("h12"), K_BLOCK3);
        assert_eq!(class("h6"), K_BLOCK3);
        // o15: nothing near.
        assert_eq!(class("o15"), NO_CLASS);
    }
}
