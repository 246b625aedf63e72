//! The line-pattern tables' generator, shared by the firmware's build script
//! (which writes the tables into flash) and the tests (which check them).
//!
//! A *window* is the 11 points `p-5 ..= p+5` along one line through a point `p`,
//! seen by one colour with its own stone on `p` (the centre): each of the other
//! ten points is empty, own, the opponent's or off the board. Only the fives that
//! contain the centre count, so the points beyond the first blocked point (an
//! opponent stone or the edge) on each side never matter: a half window is one
//! of [`HALF_STATES`] canonical states, and a window one of [`WINDOWS`]. What the
//! line is, [`classify`] reads by brute force: how many single stones make a five,
//! how many make a four, and so on down to a lone stone.
//!
//! Written without `std` or an allocator (the build script gives it a `Vec`
//! through the `memo` slice).

/// No five can ever run through the centre.
pub const DEAD: u8 = 0;
/// An overline: six or more in a row where only exactly five wins.
pub const OL: u8 = 1;
/// One stone that can only grow into a closed shape.
pub const B1: u8 = 2;
/// One stone that can grow into an open two.
pub const F1: u8 = 3;
/// A closed two (one more stone makes at most a closed three).
pub const B2: u8 = 4;
/// An open two: one more stone makes an open three.
pub const F2: u8 = 5;
/// An open two that two or more points turn into an open three.
pub const F2A: u8 = 6;
/// A closed three: one more stone makes a four (not a straight one).
pub const B3: u8 = 7;
/// An open three: one point makes a straight four.
pub const F3: u8 = 8;
/// An open three that two points turn into a straight four.
pub const F3S: u8 = 9;
/// A four: one point makes five.
pub const B4: u8 = 10;
/// A straight four: two points, five apart, make five.
pub const F4: u8 = 11;
/// Two fours in one line (two five points not five apart, `X.XXX.X`).
pub const D4: u8 = 12;
/// A five (or a longer row where that wins).
pub const F5: u8 = 13;
/// Number of pattern codes.
pub const PATTERNS: usize = 14;

/// What makes a five.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FiveRule {
    /// Five or more in a row (freestyle, white under renju).
    Free,
    /// Exactly five (standard gomoku, black under renju).
    Exact,
    /// Exactly five, and not with an opponent stone at both ends (caro; the edge
    /// of the board does not block).
    Caro,
}

/// One point of a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// No stone.
    Empty,
    /// A stone of the colour the window is seen by.
    Own,
    /// An opponent stone.
    Opp,
    /// Off the board.
    Edge,
}

/// Canonical states of a half window: 32 with no blocked point within five,
/// and for a blocked point at distance `d` (1–5) of either kind, `2^(d-1)`
/// fillings of the points before it.
pub const HALF_STATES: usize = 94;
/// Canonical windows: a left and a right half.
pub const WINDOWS: usize = HALF_STATES * HALF_STATES;

/// The canonical state of a half window given nearest point first: `own` and
/// `blocked` bit masks (bit 0 = distance 1, five bits) and whether the first
/// blocked point is the edge.
pub const fn half_state(own: u32, blocked: u32, edge_first: bool) -> usize {
    let blocked = blocked & 31;
    if blocked == 0 {
        return (own & 31) as usize;
    }
    let tz = blocked.trailing_zeros();
    let size = 1u32 << tz;
    let bits = own & (size - 1);
    (32 + 2 * (size - 1) + if edge_first { size } else { 0 } + bits) as usize
}

/// The half window of a canonical state, nearest point first (points beyond a
/// blocked one are given as `Edge`).
pub fn half_cells(state: usize) -> [Cell; 5] {
    let mut cells = [Cell::Empty; 5];
    if state < 32 {
        for (i, c) in cells.iter_mut().enumerate() {
            if state >> i & 1 != 0 {
                *c = Cell::Own;
            }
        }
        return cells;
    }
    let mut rest = state - 32;
    let mut tz = 0;
    while rest >= 2 << tz {
        rest -= 2 << tz;
        tz += 1;
    }
    let size = 1 << tz;
    let (kind, bits) = if rest >= size {
        (Cell::Edge, rest - size)
    } else {
        (Cell::Opp, rest)
    };
    for (i, c) in cells.iter_mut().enumerate() {
        *c = if i < tz {
            if bits >> i & 1 != 0 {
                Cell::Own
            } else {
                Cell::Empty
            }
        } else if i == tz {
            kind
        } else {
            Cell::Edge
        };
    }
    cells
}

/// The window of canonical index `index` (left half × [`HALF_STATES`] + right
/// half), centre included (own).
pub fn window(index: usize) -> [Cell; 11] {
    let (left, right) = (
        half_cells(index / HALF_STATES),
        half_cells(index % HALF_STATES),
    );
    let mut w = [Cell::Own; 11];
    for i in 0..5 {
        w[4 - i] = left[i];
        w[6 + i] = right[i];
    }
    w
}

/// The canonical index of a window (its centre is taken as own).
pub fn index(w: &[Cell; 11]) -> usize {
    let half = |cell: &dyn Fn(usize) -> Cell| {
        let (mut own, mut blocked, mut edge_first) = (0, 0, false);
        for i in 0..5 {
            match cell(i) {
                Cell::Own => own |= 1 << i,
                Cell::Empty => {}
                kind => {
                    if blocked == 0 {
                        edge_first = kind == Cell::Edge;
                    }
                    blocked |= 1 << i;
                }
            }
        }
        half_state(own, blocked, edge_first)
    };
    half(&|i| w[4 - i]) * HALF_STATES + half(&|i| w[6 + i])
}

/// The unbroken row of own stones through the centre: its first and last index.
fn run(w: &[Cell; 11]) -> (usize, usize) {
    let (mut lo, mut hi) = (5, 5);
    while lo > 0 && w[lo - 1] == Cell::Own {
        lo -= 1;
    }
    while hi < 10 && w[hi + 1] == Cell::Own {
        hi += 1;
    }
    (lo, hi)
}

/// `true` when the row through the centre wins under `rule`.
pub fn is_five(w: &[Cell; 11], rule: FiveRule) -> bool {
    let (lo, hi) = run(w);
    let len = hi - lo + 1;
    match rule {
        FiveRule::Free => len >= 5,
        FiveRule::Exact => len == 5,
        // A row of five containing the centre lies within 1..=9: both ends exist.
        FiveRule::Caro => len == 5 && !(w[lo - 1] == Cell::Opp && w[hi + 1] == Cell::Opp),
    }
}

/// `true` when the row through the centre is longer than five and that does not win.
fn is_overline(w: &[Cell; 11], rule: FiveRule) -> bool {
    let (lo, hi) = run(w);
    rule != FiveRule::Free && hi - lo + 1 > 5
}

/// The line pattern of window `w` (see the constants): `memo` holds the patterns
/// found so far by canonical index (`u8::MAX` = not yet).
pub fn classify(w: &[Cell; 11], rule: FiveRule, memo: &mut [u8]) -> u8 {
    let key = index(w);
    if memo[key] != u8::MAX {
        return memo[key];
    }
    let pattern = classify_new(w, rule, memo);
    memo[key] = pattern;
    pattern
}

fn classify_new(w: &[Cell; 11], rule: FiveRule, memo: &mut [u8]) -> u8 {
    if is_five(w, rule) {
        return F5;
    }
    if is_overline(w, rule) {
        return OL;
    }
    // Single stones that make five, and the patterns the others make.
    let (mut fives, mut first, mut last) = (0, 0, 0);
    let mut best = [0u8; PATTERNS];
    // Only the points before the first blocked one on each side (the others
    // cannot share a five with the centre).
    let (mut from, mut to) = (5, 5);
    while from > 0 && matches!(w[from - 1], Cell::Own | Cell::Empty) {
        from -= 1;
    }
    while to < 10 && matches!(w[to + 1], Cell::Own | Cell::Empty) {
        to += 1;
    }
    for x in from..=to {
        if w[x] != Cell::Empty {
            continue;
        }
        let mut next = *w;
        next[x] = Cell::Own;
        if is_five(&next, rule) {
            if fives == 0 {
                first = x;
            }
            last = x;
            fives += 1;
        } else {
            let p = classify(&next, rule, memo);
            best[usize::from(p)] += 1;
        }
    }
    match fives {
        0 => {}
        1 => return B4,
        2 if last - first == 5 => return F4,
        _ => return D4,
    }
    let count = |codes: &[u8]| {
        codes
            .iter()
            .map(|&c| u32::from(best[usize::from(c)]))
            .sum::<u32>()
    };
    let f4 = count(&[F4]);
    if f4 >= 2 {
        F3S
    } else if f4 == 1 {
        F3
    } else if count(&[B4, D4]) > 0 {
        B3
    } else if count(&[F3, F3S]) >= 2 {
        F2A
    } else if count(&[F3, F3S]) == 1 {
        F2
    } else if count(&[B3]) > 0 {
        B2
    } else if count(&[F2, F2A]) > 0 {
        F1
    } else if count(&[B2]) > 0 {
        B1
    } else {
        DEAD
    }
}

/// Fills `out` (length [`WINDOWS`]) with the pattern of every canonical window
/// under `rule`; `memo` (same length) is scratch.
pub fn table(rule: FiveRule, out: &mut [u8], memo: &mut [u8]) {
    memo.fill(u8::MAX);
    for (i, slot) in out.iter_mut().enumerate().take(WINDOWS) {
        *slot = classify(&window(i), rule, memo);
    }
}
