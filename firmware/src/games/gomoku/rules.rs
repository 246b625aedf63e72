//! The four rule sets, fives, and renju's forbidden points for black.
//!
//! Renju (RIF rules): black wins only with exactly five; black may not play a
//! double-three, a double-four or an overline (six or more), unless the same move
//! makes a five. A *three* is a row that one more stone turns into a straight four
//! (`.XXXX.` whose both ends make exactly five) "without at the same time a five in
//! a row is made" (RIF rules, section 3, "Three"); it only counts if that stone may
//! itself be played, which makes the test recursive.

use super::board::{Board, CENTER, Point, REACH, WHITE, step};
use super::lines::{F5, Table};
use super::lines_gen::FiveRule;
use super::shape::{completions, four_count, run, three_points};
use crate::text::ParseError;

/// Which rule set is played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Freestyle gomoku: five or more in a row wins.
    #[default]
    Free,
    /// Standard gomoku: exactly five wins; an overline does not.
    Standard,
    /// Renju: exact five for black, five or more for white, forbidden points for black.
    Renju,
    /// Caro: exactly five wins, unless an opponent stone stands at both of its
    /// ends (the edge of the board does not block).
    Caro,
}

impl Rule {
    /// The rule's name in the position text form.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Free => "free",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
        }
    }

    /// Parses `free`, `standard`, `renju` or `caro` (any case; `freestyle` is also
    /// accepted).
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        [
            ("free", Rule::Free),
            ("freestyle", Rule::Free),
            ("standard", Rule::Standard),
            ("renju", Rule::Renju),
            ("caro", Rule::Caro),
        ]
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(text))
        .map(|&(_, r)| r)
        .ok_or(ParseError("rule must be free, standard, renju or caro"))
    }

    /// `true` when `side` needs exactly five (an overline does not win).
    pub fn exact(self, side: u8) -> bool {
        match self {
            Rule::Free => false,
            Rule::Standard | Rule::Caro => true,
            Rule::Renju => side != WHITE,
        }
    }

    /// How `side` wins under this rule (which line-pattern table it plays by).
    pub fn five_rule(self, side: u8) -> FiveRule {
        match self {
            Rule::Caro => FiveRule::Caro,
            _ if self.exact(side) => FiveRule::Exact,
            _ => FiveRule::Free,
        }
    }

    /// `true` when a row of `len` stones of `side` wins; `both_ends_blocked`:
    /// an opponent stone stands at both of its ends.
    pub fn row_wins(self, side: u8, len: u32, both_ends_blocked: bool) -> bool {
        match self.five_rule(side) {
            FiveRule::Free => len >= 5,
            FiveRule::Exact => len == 5,
            FiveRule::Caro => len == 5 && !both_ends_blocked,
        }
    }

    /// `true` when black has forbidden points under this rule.
    pub fn has_forbidden(self) -> bool {
        self == Rule::Renju
    }
}

/// `true` when a stone of `side` on the empty point `p` makes a five.
pub fn makes_five(board: &Board, p: Point, side: u8, rule: Rule) -> bool {
    let table = Table::for_side(rule, side);
    board.lines(p).iter().any(|l| table.pattern(l, side) == F5)
}

/// The winning row through the stone on `p` as its two end points, if that stone
/// is part of a five (or more, where the rule allows it) of its colour.
pub fn five_through(board: &Board, p: Point, rule: Rule) -> Option<(Point, Point)> {
    let side = board.get(p)?;
    for d in 0..4 {
        let own = board.line(p, d).own(side);
        if run(own) < 5 {
            continue;
        }
        // Walk to both ends of the row (it may reach beyond the window).
        let mut lo = p;
        while let Some(q) = step(lo, d, -1).filter(|&q| board.get(q) == Some(side)) {
            lo = q;
        }
        let mut hi = p;
        while let Some(q) = step(hi, d, 1).filter(|&q| board.get(q) == Some(side)) {
            hi = q;
        }
        let len = run(own);
        let opponent = |q: Option<Point>| q.and_then(|q| board.get(q)) == Some(side ^ 1);
        let blocked = opponent(step(lo, d, -1)) && opponent(step(hi, d, 1));
        if rule.row_wins(side, len, blocked) {
            return Some((lo, hi));
        }
    }
    None
}

/// How deep the "is the three's completing point itself forbidden?" recursion goes.
/// Deeper nestings are treated as real threes (the point counts as playable).
pub const MAX_NESTING: u8 = 6;

/// `true` when the empty point `p` is forbidden for black under renju rules
/// (double-three, double-four or overline, and no five). Ignores whose turn it is.
pub fn is_forbidden(board: &Board, p: Point) -> bool {
    is_forbidden_after(board, NO_STONE, p)
}

/// [`is_forbidden`] on the board itself instead of a copy (it is restored
/// before returning): the search's deepest frames need not hold a second board.
pub fn is_forbidden_in_place(board: &mut Board, p: Point) -> bool {
    board.is_empty(p) && forbidden_at(board, p)
}

/// [`is_forbidden_after`] in place: `white` must be empty; it is empty again
/// on return.
pub fn is_forbidden_after_in_place(board: &mut Board, white: Point, p: Point) -> bool {
    if !board.is_empty(p) || !board.is_empty(white) || p == white {
        return false;
    }
    board.set(white, WHITE);
    let forbidden = forbidden_at(board, p);
    board.clear(white);
    forbidden
}

/// Marks "no extra stone" for [`is_forbidden_after`].
const NO_STONE: Point = 255;

/// [`is_forbidden`] with a white stone added on `white` first (ignored when
/// `white` is off the board): e.g. is the block of a four white has not played
/// yet forbidden for black. The board itself is not changed.
pub fn is_forbidden_after(board: &Board, white: Point, p: Point) -> bool {
    if !board.is_empty(p) || p == white {
        return false;
    }
    let mut work = *board;
    work.set(white, WHITE);
    forbidden_at(&mut work, p)
}

/// What a black stone on an empty point makes, before the recursive three test.
enum Shape {
    /// A five (allowed, whatever else the stone makes).
    Five,
    /// At most one three and one four: allowed.
    Allowed,
    /// An overline or a double four: forbidden.
    Forbidden,
    /// Two or more candidate threes (real only if one of the points completing
    /// each to a straight four is playable).
    Threes,
}

/// Classifies black's stone on `p`; for [`Shape::Threes`], `threes` receives the
/// points completing each candidate three to a straight four, per direction
/// (window bits). Out of line so that its windows stay off the recursive
/// [`forbidden_at`] frames.
#[inline(never)]
fn shape_at(board: &Board, p: Point, threes: &mut [u16; 4]) -> Shape {
    // One window at a time (read twice): the test runs at the deepest point of
    // the board's search, where four windows on the stack would not fit.
    let mut overline = false;
    for d in 0..4 {
        match run(board.line(p, d).black | CENTER) {
            5 => return Shape::Five,
            r if r > 5 => overline = true,
            _ => {}
        }
    }
    if overline {
        return Shape::Forbidden;
    }
    let mut fours = 0;
    let mut three_lines = 0;
    for (d, three) in threes.iter_mut().enumerate() {
        let line = board.line(p, d);
        let (own, blocked) = (line.black | CENTER, line.blocked(super::board::BLACK));
        let c = completions(own, blocked, true);
        if c != 0 {
            fours += four_count(c);
        } else {
            *three = three_points(own, blocked, true);
            three_lines += u32::from(*three != 0);
        }
    }
    if fours >= 2 {
        Shape::Forbidden
    } else if three_lines < 2 {
        Shape::Allowed
    } else {
        Shape::Threes
    }
}

/// The candidate threes of one nesting level of [`forbidden_at`] and where the
/// walk over their completing points stands.
#[derive(Clone, Copy)]
struct Threes {
    /// Completing points per direction (window bits), the ones still to try.
    points: [u16; 4],
    /// The stone whose threes they are.
    p: Point,
    /// Direction being walked.
    d: u8,
    /// How many of its threes proved real so far.
    real: u8,
}

impl Threes {
    const EMPTY: Threes = Threes {
        points: [0; 4],
        p: 0,
        d: 0,
        real: 0,
    };

    /// The next completing point of the current direction's three, or the first
    /// of the next direction's when `skip` (the current three is known to be real).
    #[inline(never)]
    fn next(&mut self, skip: bool) -> Option<Point> {
        if skip && let Some(points) = self.points.get_mut(usize::from(self.d)) {
            *points = 0;
        }
        while let Some(points) = self.points.get_mut(usize::from(self.d)) {
            if *points == 0 {
                self.d += 1;
                continue;
            }
            let bit = points.trailing_zeros() as i8;
            *points &= *points - 1;
            if let Some(q) = step(self.p, usize::from(self.d), bit - REACH) {
                return Some(q);
            }
        }
        None
    }
}

/// Levels of the forbidden test: the point itself and [`MAX_NESTING`] nestings.
const LEVELS: usize = MAX_NESTING as usize + 1;

/// `true` when black playing `p` would make a double-three, double-four or
/// overline without a five. The board is restored before returning.
///
/// A candidate three is real only if some point completing it to a straight
/// four is itself playable (with `p` on the board), which is the same test one
/// level deeper. The nesting is walked with an explicit stack of [`LEVELS`]
/// small [`Threes`] in this one frame instead of recursion, so the test takes
/// the same, bounded stack however deep the position's fake threes nest (the
/// search's deepest frames call it; gomoku runs in 2 KB of RAM).
fn forbidden_at(board: &mut Board, p: Point) -> bool {
    let mut levels = [Threes::EMPTY; LEVELS];
    match shape_at(board, p, &mut levels[0].points) {
        Shape::Five | Shape::Allowed => return false,
        Shape::Forbidden => return true,
        Shape::Threes => {}
    }
    levels[0].p = p;
    board.set(p, super::board::BLACK);
    let mut depth = 0;
    // Whether the last completing point tried at `depth` was playable.
    let mut playable = false;
    loop {
        let level = &mut levels[depth];
        level.real += u8::from(playable);
        let next = if level.real < 2 {
            level.next(playable)
        } else {
            None
        };
        let Some(q) = next else {
            // This level is done: its stone is forbidden with two real threes.
            let forbidden = levels[depth].real >= 2;
            board.clear(levels[depth].p);
            if depth == 0 {
                return forbidden;
            }
            depth -= 1;
            playable = !forbidden;
            continue;
        };
        if depth + 1 >= LEVELS {
            // Deeper nestings are treated as real threes.
            playable = true;
            continue;
        }
        let child = &mut levels[depth + 1];
        *child = Threes::EMPTY;
        match shape_at(board, q, &mut child.points) {
            Shape::Allowed => playable = true,
            // A stone that makes a five at the same time does not make the row a
            // three (RIF: "without at the same time a five in a row is made").
            Shape::Five | Shape::Forbidden => playable = false,
            Shape::Threes => {
                child.p = q;
                board.set(q, super::board::BLACK);
                depth += 1;
                playable = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gomoku::board::{BLACK, POINTS, parse_point};
    use crate::games::gomoku::tests_support::diagram;

    /// Every case of `renju_forbidden.txt`: exactly the marked points are forbidden.
    /// Source: mintaka (Rust renju engine) tests, cross-checked with Rapfi
    /// (see testdata/README.md).
    #[test]
    fn forbidden_points_match_the_reference_cases() {
        let text = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/renju_forbidden.txt"
        ));
        let mut cases = 0;
        for case in text.split("# ").filter(|c| !c.trim().is_empty()) {
            let name = case.lines().next().unwrap_or("");
            let (board, marks) = diagram(case);
            for p in 0..POINTS as u8 {
                if board.is_empty(p) {
                    assert_eq!(
                        is_forbidden(&board, p),
                        marks.contains(&p),
                        "case {name}: point {p} (row {}, col {})",
                        p / 15 + 1,
                        (b'A' + p % 15) as char
                    );
                }
            }
            cases += 1;
        }
        assert_eq!(cases, 12);
    }

    /// The recursive form of [`forbidden_at`] (one frame per nesting level), the
    /// reference for the explicit-stack walk.
    fn forbidden_recursive(board: &mut Board, p: Point, depth: u8) -> bool {
        let mut threes = Threes::EMPTY;
        threes.p = p;
        match shape_at(board, p, &mut threes.points) {
            Shape::Five | Shape::Allowed => return false,
            Shape::Forbidden => return true,
            Shape::Threes => {}
        }
        board.set(p, BLACK);
        let (mut real, mut skip) = (0, false);
        while real < 2
            && let Some(q) = threes.next(skip)
        {
            let five = (0..4).any(|d| run(board.line(q, d).black | CENTER) == 5);
            skip = depth >= MAX_NESTING || (!five && !forbidden_recursive(board, q, depth + 1));
            real += u8::from(skip);
        }
        board.clear(p);
        real >= 2
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// Random boards of varied density (fake threes nest up to four levels in
        /// these): the explicit-stack walk agrees with the recursion on every
        /// empty point and restores the board.
        #[test]
        fn stack_walk_equals_recursion(
            cells in proptest::collection::vec(0u8..100, POINTS),
            black in 10u8..45,
            white in 0u8..15,
        ) {
            let mut board = Board::new();
            for (p, &c) in cells.iter().enumerate() {
                if c < black {
                    board.set(p as Point, BLACK);
                } else if c < black + white {
                    board.set(p as Point, WHITE);
                }
            }
            for p in 0..POINTS as u8 {
                if board.is_empty(p) {
                    let before = board;
                    let mut reference = board;
                    let expected = forbidden_recursive(&mut reference, p, 0);
                    proptest::prop_assert_eq!(is_forbidden_in_place(&mut board, p), expected);
                    proptest::prop_assert_eq!(board, before);
                }
            }
        }
    }

    /// RIF rules, section 3: a three is "a row with three stones to which you,
    /// without at the same time a five in a row is made, can add one more stone to
    /// attain a straight four". Black g8 makes the open three g7-g8-g9 and the split
    /// three f8-g8-_-i8, whose only straight-four point h8 also completes black's
    /// h9-h12 to five: so the split row is no three and g8 is no double-three
    /// (Rapfi agrees). Without the h-file four, h8 is an ordinary point and g8 is
    /// forbidden.
    #[test]
    fn a_row_whose_straight_four_point_makes_five_is_no_three() {
        let mut b = Board::new();
        for p in ["f8", "i8", "g7", "g9", "h9", "h10", "h11", "h12"] {
            b.set(parse_point(p).unwrap(), BLACK);
        }
        let g8 = parse_point("g8").unwrap();
        let h8 = parse_point("h8").unwrap();
        assert!(!is_forbidden(&b, g8), "one real three only");
        assert!(!forbidden_recursive(&mut b.clone(), g8, 0));
        b.set(g8, BLACK);
        assert!(
            makes_five(&b, h8, BLACK, Rule::Renju),
            "h8 is h9-h12's five point"
        );
        b.clear(g8);
        for p in ["h9", "h10", "h11", "h12"] {
            b.clear(parse_point(p).unwrap());
        }
        assert!(is_forbidden(&b, g8), "h8 makes no five now: two threes");
        assert!(forbidden_recursive(&mut b.clone(), g8, 0));
    }

    #[test]
    fn five_beats_forbidden_and_overline_is_forbidden() {
        let mut b = Board::new();
        for p in ["a1", "b1", "c1", "d1", "f1", "g1"] {
            b.set(parse_point(p).unwrap(), BLACK);
        }
        let e1 = parse_point("e1").unwrap();
        assert!(is_forbidden(&b, e1), "e1 makes seven");
        assert!(!makes_five(&b, e1, BLACK, Rule::Renju));
        assert!(makes_five(&b, e1, BLACK, Rule::Free));
        assert!(!makes_five(&b, e1, WHITE, Rule::Renju));
        b.clear(parse_point("a1").unwrap());
        b.clear(parse_point("g1").unwrap());
        assert!(!is_forbidden(&b, e1), "e1 makes exactly five");
        b.set(e1, BLACK);
        assert_eq!(
            five_through(&b, e1, Rule::Renju),
            Some((parse_point("b1").unwrap(), parse_point("f1").unwrap()))
        );
        assert_eq!(Rule::parse("RENJU"), Ok(Rule::Renju));
        assert!(Rule::parse("go").is_err());
    }
}
