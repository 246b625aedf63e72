//! Static evaluation (seed 004): material, piece-square tables, mobility,
//! coordination and king safety, each with a middle-game and an endgame value,
//! blended by the game phase; from the side to move's point of view.
//!
//! Scores are centipawns of an uncrossed pawn. Every term is a packed pair
//! ([`pair`]: middle game in the low 16 bits, endgame in the high 16 bits), so
//! one addition updates both halves; [`evaluate`] blends them with the phase.
//!
//! - **Material and piece-square tables** ([`PSQ`]): material plus a table per
//!   kind, red's view, mirrored for black, kept up to date by
//!   [`Position`]'s make and unmake (so a node pays nothing for them).
//!   Material (middle game / endgame): rook 900/950, cannon 450/420, horse
//!   400/440, advisor and elephant 200/180, pawn 100/120 before the river and
//!   about twice that after it (the tables add 50–100 across the river, most
//!   near the palace), the ratios rook 9 : cannon 4.5 : horse 4 : advisor 2 :
//!   pawn 1 that xiangqi players use (seed 004's figures put a pawn at a
//!   thirtieth of a rook, which made pawns worthless to the engine).
//! - **Mobility**, counted without generating moves: empty squares a rook or
//!   a cannon can slide to (from the line tables), horse moves with a free leg
//!   to a square not held by its own side.
//! - **Coordination**: crossed pawns side by side, horses guarding each other,
//!   rooks seeing each other.
//! - **King safety**: an enemy cannon on the king's file with nothing between
//!   (空头炮, the "empty-head cannon"), enemy attackers massed in the king's
//!   half (rook 3, horse and cannon 2, a crossed pawn 1: the sum squared, and
//!   times the advisors and elephants missing).
//! - **Phase**: rook 4, horse and cannon 2 each, both sides (32 at the start):
//!   the middle-game value weighs `phase / 32`.

use super::board::{
    FILE_OF, HORSE_MOVES, Kind, NO_SQUARE, Position, RANK_OF, RED, Square, slot_color, slot_kind,
};
use crate::game::Score;

/// A middle-game and an endgame value packed in one `i32`.
pub type Pair = i32;

/// Packs a middle-game and an endgame value.
pub const fn pair(mg: i32, eg: i32) -> Pair {
    (eg << 16) + mg
}

/// The middle-game half of a [`Pair`].
#[inline]
pub const fn mg(p: Pair) -> i32 {
    p as i16 as i32
}

/// The endgame half of a [`Pair`].
#[inline]
pub const fn eg(p: Pair) -> i32 {
    ((p + 0x8000) >> 16) as i16 as i32
}

/// Material by [`Kind`] (the king's is only for exchange arithmetic).
pub const MATERIAL: [Pair; 7] = [
    pair(0, 0),
    pair(200, 180),
    pair(200, 180),
    pair(400, 440),
    pair(900, 950),
    pair(450, 420),
    pair(100, 120),
];

/// Piece values for capture ordering and exchange tests, by [`Kind`].
pub const VALUE: [Score; 7] = [5000, 200, 200, 420, 920, 440, 110];

/// Red's tables, rank 9 (black's back rank) first, as a diagram reads.
#[rustfmt::skip]
const PAWN_MG: [i16; 90] = [
     0,  0,  5, 15, 20, 15,  5,  0,  0,
    20, 40, 60, 90,100, 90, 60, 40, 20,
    20, 40, 60, 80, 90, 80, 60, 40, 20,
    20, 40, 50, 65, 70, 65, 50, 40, 20,
    10, 25, 35, 45, 50, 45, 35, 25, 10,
    -5,  0,  5,  0, 15,  0,  5,  0, -5,
     0,  0,  0,  0,  5,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];
#[rustfmt::skip]
const PAWN_EG: [i16; 90] = [
    20, 30, 40, 50, 50, 50, 40, 30, 20,
    60, 80,100,120,130,120,100, 80, 60,
    60, 80,100,110,120,110,100, 80, 60,
    60, 75, 90,100,100,100, 90, 75, 60,
    50, 60, 70, 80, 80, 80, 70, 60, 50,
    10, 10, 15, 15, 20, 15, 15, 10, 10,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];
#[rustfmt::skip]
const HORSE_MG: [i16; 90] = [
   -20,-10,  0,  5,-15,  5,  0,-10,-20,
   -10, 10, 25, 30, 10, 30, 25, 10,-10,
     0, 20, 40, 30, 25, 30, 40, 20,  0,
     0, 20, 25, 35, 30, 35, 25, 20,  0,
     0, 15, 25, 25, 25, 25, 25, 15,  0,
    -5, 10, 15, 20, 15, 20, 15, 10, -5,
   -10,  5, 10, 10, 15, 10, 10,  5,-10,
   -10,  0, 10,  5, 10,  5, 10,  0,-10,
   -15, -5,  0,  0,-30,  0,  0, -5,-15,
   -20,-15, -5, -5,-20, -5, -5,-15,-20,
];
#[rustfmt::skip]
const ROOK_MG: [i16; 90] = [
     5, 10,  5, 15, 15, 15,  5, 10,  5,
    10, 15, 15, 25, 20, 25, 15, 15, 10,
     5, 10, 10, 20, 15, 20, 10, 10,  5,
     5, 15, 10, 15, 15, 15, 10, 15,  5,
     5, 15, 10, 15, 15, 15, 10, 15,  5,
     0, 10,  5, 10, 10, 10,  5, 10,  0,
    -5,  5,  0,  5,  5,  5,  0,  5, -5,
    -5,  5,  0,  5,  0,  5,  0,  5, -5,
    -5,  0,  0,  5,  0,  5,  0,  0, -5,
   -15,  0, -5,  0,-10,  0, -5,  0,-15,
];
#[rustfmt::skip]
const CANNON_MG: [i16; 90] = [
    10, 10,  0,-10,-10,-10,  0, 10, 10,
     5,  5,  0, -5,-10, -5,  0,  5,  5,
     5,  5,  0, -5,  5, -5,  0,  5,  5,
     0,  5,  0,  0, 10,  0,  0,  5,  0,
     0,  5,  0,  5, 10,  5,  0,  5,  0,
     0,  5,  0,  5, 10,  5,  0,  5,  0,
     0,  5,  0,  0, 10,  0,  0,  5,  0,
     0,  5,  5,  5, 20,  5,  5,  5,  0,
     0,  0,  0,  5, 10,  5,  0,  0,  0,
     0,  0, -5,  5,  5,  5, -5,  0,  0,
];

/// The positional part of a red piece of `kind` on `sq` (rank 0 = red's back rank).
const fn table(kind: usize, sq: usize) -> Pair {
    let r = sq / 9;
    let f = sq % 9;
    let i = (9 - r) * 9 + f;
    match kind {
        // King: at home; stepping up costs in the middle game.
        0 => {
            let m = match (r, f) {
                (0, 4) => 0,
                (0, _) => -10,
                (1, 4) => -15,
                (1, _) => -20,
                _ => -40,
            };
            pair(m, if r >= 2 { -10 } else { 0 })
        }
        // Advisor: the palace centre.
        1 => pair(
            match (r, f) {
                (1, 4) => 10,
                (2, _) => -5,
                _ => 0,
            },
            0,
        ),
        // Elephant: the centre of its field, not the edge or the river bank.
        2 => pair(
            match (r, f) {
                (2, 4) => 10,
                (2, 0) | (2, 8) | (4, _) => -5,
                _ => 0,
            },
            0,
        ),
        3 => pair(HORSE_MG[i] as i32, HORSE_MG[i] as i32 / 2),
        4 => pair(ROOK_MG[i] as i32, ROOK_MG[i] as i32 / 2),
        5 => pair(CANNON_MG[i] as i32, 0),
        _ => pair(PAWN_MG[i] as i32, PAWN_EG[i] as i32),
    }
}

const fn build_psq() -> [[Pair; 90]; 14] {
    let mut t = [[0; 90]; 14];
    let mut k = 0;
    while k < 7 {
        let mut s = 0;
        while s < 90 {
            let v = MATERIAL[k] + table(k, s);
            t[k][s] = v;
            // Black's piece on the mirrored square, from red's side.
            t[7 + k][89 - s] = -v;
            s += 1;
        }
        k += 1;
    }
    t
}

/// Material plus piece-square value by `[colour * 7 + kind][square]`, from
/// red's side (black's entries are negative): what [`Position::psq`] sums.
pub static PSQ: [[Pair; 90]; 14] = build_psq();

/// [`PSQ`] of the piece in `slot` standing on `sq`.
#[inline]
pub fn psq(slot: u8, sq: Square) -> Pair {
    PSQ[usize::from(slot_color(slot)) * 7 + slot_kind(slot) as usize][usize::from(sq)]
}

/// Rook mobility per empty square reachable, around seven.
const ROOK_MOB: Pair = pair(5, 7);
/// Cannon mobility per empty square reachable, around six.
const CANNON_MOB: Pair = pair(3, 2);
/// Horse mobility per move, around four.
const HORSE_MOB: Pair = pair(12, 12);
/// A horse with no move at all.
const HORSE_TRAPPED: Pair = pair(-25, -25);
/// Two crossed pawns side by side.
const LINKED_PAWNS: Pair = pair(20, 30);
/// Horses guarding each other.
const HORSE_PAIR: Pair = pair(10, 5);
/// Rooks seeing each other along a rank or file.
const ROOK_PAIR: Pair = pair(15, 5);
/// An enemy cannon on the king's file with nothing between (空头炮).
const HOLLOW_CANNON: Pair = pair(90, 20);
/// Attack units squared (rook 3, horse and cannon 2, crossed pawn 1).
const ATTACK_SQUARED: Pair = pair(3, 1);
/// Attack units times missing advisors and elephants.
const ATTACK_UNGUARDED: Pair = pair(6, 2);
/// The side to move's bonus.
const TEMPO: Score = 10;

/// Full phase: all rooks, horses and cannons on the board.
pub const MAX_PHASE: i32 = 32;

/// Empty squares on both sides of coordinate `c` along a line of `len`
/// points, from a blocker entry of [`super::board::RANK_LINE`] / `FILE_LINE`.
#[inline]
fn empties(entry: u16, c: u8, len: u8) -> i32 {
    let up = (entry & 0xF) as u8;
    let down = ((entry >> 8) & 0xF) as u8;
    let top = if up == 0xF { len } else { up };
    let bottom = if down == 0xF { 0 } else { down + 1 };
    i32::from(top - c - 1) + i32::from(c - bottom)
}

/// Empty squares a rook or cannon on `sq` slides to.
#[inline]
fn slide_mobility(pos: &Position, sq: Square) -> i32 {
    let s = usize::from(sq);
    empties(pos.rank_blockers(sq), FILE_OF[s], 9) + empties(pos.file_blockers(sq), RANK_OF[s], 10)
}

/// Horse moves from `sq` (leg free, target not `color`'s own piece).
#[inline]
fn horse_mobility(pos: &Position, sq: Square, color: u8, mate: Square) -> (i32, bool) {
    let mut n = 0;
    let mut guards = false;
    for &[to, leg] in HORSE_MOVES[usize::from(sq)]
        .iter()
        .take_while(|e| e[0] != NO_SQUARE)
    {
        if pos.at(leg) != 0 {
            continue;
        }
        let p = pos.at(to);
        if p == 0 || slot_color(p) != color {
            n += 1;
        } else if to == mate {
            guards = true;
        }
    }
    (n, guards)
}

fn crossed(color: u8, sq: Square) -> bool {
    let r = RANK_OF[usize::from(sq)];
    if color == RED { r >= 5 } else { r <= 4 }
}

/// Whether `color` has a rook, horse or cannon (null move is unsafe without one).
pub fn has_pieces(pos: &Position, color: u8) -> bool {
    let first = 16 + 16 * color;
    (first + 5..first + 11).any(|s| pos.square_of(s) != NO_SQUARE)
}

/// The game phase, [`MAX_PHASE`] with every rook, horse and cannon on the board.
pub fn phase(pos: &Position) -> i32 {
    let mut p = 0;
    for color in 0..2u8 {
        let first = 16 + 16 * color;
        for s in first + 5..first + 11 {
            if pos.square_of(s) != NO_SQUARE {
                p += if slot_kind(s) == Kind::Rook { 4 } else { 2 };
            }
        }
    }
    p.min(MAX_PHASE)
}

/// Everything but material and tables for `us`: mobility, coordination and
/// the attack on the other king.
fn side_terms(pos: &Position, us: u8) -> Pair {
    let them = us ^ 1;
    let first = 16 + 16 * us;
    let mut t: Pair = 0;
    let mut units = 0;
    // Horses.
    let (h1, h2) = (pos.square_of(first + 5), pos.square_of(first + 6));
    for (sq, mate) in [(h1, h2), (h2, h1)] {
        if sq == NO_SQUARE {
            continue;
        }
        let (n, guards) = horse_mobility(pos, sq, us, mate);
        t += HORSE_MOB * (n - 4);
        if n == 0 {
            t += HORSE_TRAPPED;
        }
        if guards {
            t += HORSE_PAIR;
        }
        if crossed(us, sq) {
            units += 2;
        }
    }
    // Rooks.
    let (r1, r2) = (pos.square_of(first + 7), pos.square_of(first + 8));
    for sq in [r1, r2] {
        if sq != NO_SQUARE {
            t += ROOK_MOB * (slide_mobility(pos, sq) - 7);
            if crossed(us, sq) {
                units += 3;
            }
        }
    }
    if r1 != NO_SQUARE && r2 != NO_SQUARE && sees(pos, r1, r2) {
        t += ROOK_PAIR;
    }
    // Cannons, and the empty-head cannon.
    let ks = pos.king(them);
    for slot in [first + 9, first + 10] {
        let sq = pos.square_of(slot);
        if sq == NO_SQUARE {
            continue;
        }
        t += CANNON_MOB * (slide_mobility(pos, sq) - 6);
        if crossed(us, sq) {
            units += 2;
        }
        if ks != NO_SQUARE
            && FILE_OF[usize::from(sq)] == FILE_OF[usize::from(ks)]
            && sees(pos, sq, ks)
        {
            t += HOLLOW_CANNON;
        }
    }
    // Crossed pawns: attackers, and linked pairs (counted from the left one).
    for slot in first + 11..first + 16 {
        let sq = pos.square_of(slot);
        if sq == NO_SQUARE || !crossed(us, sq) {
            continue;
        }
        units += 1;
        if FILE_OF[usize::from(sq)] < 8 {
            let p = pos.at(sq + 1);
            if p != 0 && slot_color(p) == us && slot_kind(p) == Kind::Pawn {
                t += LINKED_PAWNS;
            }
        }
    }
    // Their king's guard: advisors and elephants still on the board.
    let their_first = 16 + 16 * them;
    let guards = (their_first + 1..their_first + 5)
        .filter(|&s| pos.square_of(s) != NO_SQUARE)
        .count() as i32;
    t + ATTACK_SQUARED * (units * units / 4) + ATTACK_UNGUARDED * (units * (4 - guards))
}

/// Whether `a` and `b` share a rank or file with nothing between them.
fn sees(pos: &Position, a: Square, b: Square) -> bool {
    let (ia, ib) = (usize::from(a), usize::from(b));
    let (e, along) = if RANK_OF[ia] == RANK_OF[ib] {
        (pos.rank_blockers(a), FILE_OF[ib])
    } else if FILE_OF[ia] == FILE_OF[ib] {
        (pos.file_blockers(a), RANK_OF[ib])
    } else {
        return false;
    };
    (e & 0xF) as u8 == along || ((e >> 8) & 0xF) as u8 == along
}

/// Evaluates `pos` for the side to move.
pub fn evaluate(pos: &Position) -> Score {
    #[cfg(test)]
    super::stack_probe::note();
    let total = pos.psq() + side_terms(pos, RED) - side_terms(pos, RED ^ 1);
    let p = phase(pos);
    let v = (mg(total) * p + eg(total) * (MAX_PHASE - p)) / MAX_PHASE;
    (if pos.side() == RED { v } else { -v }) + TEMPO
}
