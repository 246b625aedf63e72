//! What one stone makes along one line: fives, fours, threes, window counts.
//!
//! Every function reads an 11-point window (bit 5 = the centre, see
//! [`super::board::Line`]) as `own` stones (the centre included, as if played)
//! and `blocked` points (the other colour and the edge). `exact` selects the
//! "exactly five" rule (standard gomoku, and black under renju): a row of six or
//! more is then no five.

use super::board::{CENTER, REACH};

const LOW5: u16 = 0b1_1111;

/// Bit counts of 0..32 (a table: the Cortex-M0 has no population-count instruction).
const POP32: [u8; 32] = [
    0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5,
];

/// Number of set bits among the five bits `s ..= s+4` of `x`.
pub fn pop5(x: u16, s: u32) -> u32 {
    u32::from(POP32[usize::from((x >> s) & LOW5)])
}

/// The window bits within four points of the centre, the centre excluded.
pub const NEAR4: u16 = 0b011_1101_1110;

/// Number of `own` stones within four points of the centre (the centre excluded):
/// below 2 no three, below 3 no four, below 4 no five can pass through the centre.
pub fn neighbours(own: u16) -> u32 {
    pop5(own & NEAR4, 1) + pop5(own & NEAR4, 6)
}

/// Length of the unbroken row of `own` stones through the centre (0 if the centre is empty).
pub fn run(own: u16) -> u32 {
    if own & CENTER == 0 {
        return 0;
    }
    let right = (!(own >> (REACH + 1))).trailing_zeros();
    let left = (own << (16 - REACH as u32)).leading_ones();
    1 + left + right
}

/// `true` when the row through the centre is a five under the rule.
pub fn is_five(own: u16, exact: bool) -> bool {
    let r = run(own);
    if exact { r == 5 } else { r >= 5 }
}

/// The empty points that would complete a five containing the centre (bit mask).
pub fn completions(own: u16, blocked: u16, exact: bool) -> u16 {
    let mut found = 0;
    for s in 1..=REACH as u32 {
        let w = LOW5 << s;
        if blocked & w != 0 || pop5(own, s) != 4 {
            continue;
        }
        if exact && own & ((1 << (s - 1)) | (1 << (s + 5))) != 0 {
            continue;
        }
        found |= w & !own;
    }
    found
}

/// How many fours a completion mask holds: a straight four (two completions
/// five apart around four stones) is one four, any other pair is two.
pub fn four_count(completions: u16) -> u32 {
    match completions.count_ones() {
        0 => 0,
        1 => 1,
        2 if completions.trailing_zeros() + 5 == 15 - completions.leading_zeros() => 1,
        _ => 2,
    }
}

/// `true` when the completion mask is a straight four (or two fours in one line):
/// two points the opponent cannot both block.
pub fn is_open_four(completions: u16) -> bool {
    completions.count_ones() >= 2
}

/// The empty points that would turn the row through the centre into a straight
/// four (`.XXXX.` whose both ends make a five): the centre then makes a three.
pub fn three_points(own: u16, blocked: u16, exact: bool) -> u16 {
    let mut found = 0;
    for s in 1..=(REACH as u32 - 1) {
        let ends = (1 << s) | (1 << (s + 5));
        let mid = 0b1111 << (s + 1);
        if (own | blocked) & ends != 0 || blocked & mid != 0 || pop5(own & mid, s + 1) != 3 {
            continue;
        }
        if exact && own & ((1 << (s - 1)) | (1 << (s + 6))) != 0 {
            continue;
        }
        found |= mid & !own;
    }
    found
}

/// The largest number of `own` stones in a five-point window through the centre
/// that holds no blocked point (0 when every window is blocked).
pub fn best_window(own: u16, blocked: u16) -> u32 {
    let mut best = 0;
    for s in 1..=REACH as u32 {
        let w = LOW5 << s;
        if blocked & w == 0 {
            best = best.max(pop5(own, s));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads a window written left to right as 11 characters: `x` own, `o` blocked.
    fn window(s: &str) -> (u16, u16) {
        let (mut own, mut blk) = (0, 0);
        for (i, c) in s.bytes().enumerate() {
            match c {
                b'x' => own |= 1 << i,
                b'o' => blk |= 1 << i,
                _ => {}
            }
        }
        (own, blk)
    }

    #[test]
    fn table_counts_match() {
        for x in 0..2048u16 {
            assert_eq!(pop5(x, 0) + pop5(x, 5) + pop5(x, 10), x.count_ones());
        }
        assert_eq!(neighbours(window("xxxxxxxxxxx").0), 8);
    }

    #[test]
    fn runs_fives_and_overlines() {
        let (own, _) = window("...xxxxx...");
        assert_eq!(run(own), 5);
        assert!(is_five(own, true));
        let (own, _) = window("..xxxxxx...");
        assert!(!is_five(own, true));
        assert!(is_five(own, false));
        assert_eq!(run(window("xxxxxxxxxxx").0), 11);
    }

    #[test]
    fn fours_are_counted_per_line() {
        let (own, blk) = window("..oxxxx....");
        let c = completions(own, blk, true);
        assert_eq!(c, 1 << 7);
        assert_eq!(four_count(c), 1);
        let (own, blk) = window("..xxxx.....");
        let c = completions(own, blk, true);
        assert_eq!(four_count(c), 1);
        assert!(is_open_four(c));
        let (own, blk) = window("..x.xxx.x..");
        assert_eq!(four_count(completions(own, blk, true)), 2);
        // x.xxxx. : the left gap makes six, not a five, under the exact rule.
        let (own, blk) = window(".x.xxxx....");
        assert_eq!(completions(own, blk, true), 1 << 7);
        assert_eq!(completions(own, blk, false).count_ones(), 2);
    }

    #[test]
    fn threes_need_a_straight_four() {
        let (own, blk) = window("...xxx.....");
        assert_eq!(three_points(own, blk, true), (1 << 2) | (1 << 6));
        let (own, blk) = window(".o.xxx.....");
        assert_eq!(three_points(own, blk, true), 1 << 6);
        let (own, blk) = window("..oxxx.....");
        assert_eq!(three_points(own, blk, true), 0, "closed three");
        let (own, blk) = window(".o.xxx.o...");
        assert_eq!(three_points(own, blk, true), 0);
        // x.xxx. : the straight four would be an overline on one side.
        let (own, blk) = window(".x.xxx.....");
        assert_eq!(three_points(own, blk, true), 0);
        assert_eq!(three_points(own, blk, false), 1 << 6);
        assert_eq!(best_window(own, blk), 4);
    }
}
