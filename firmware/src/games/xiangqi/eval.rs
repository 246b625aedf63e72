//! Static evaluation (seed 004): material, piece-square tables, mobility,
//! coordination and king safety, from the side to move's point of view.
//!
//! - Material: rook 600, cannon 285, horse 270, elephant 120, advisor 125,
//!   pawn 20, king 6000 (seed 004's figures).
//! - Piece-square tables: built at compile time from a few rules per kind
//!   (pawns gain once across the river and more near the palace, horses and
//!   rooks like the centre and advanced ranks, the central cannon, the king at
//!   home), red's view, mirrored for black; 7 × 90 `i16` = 1,260 bytes of flash.
//! - Mobility: per pseudo-legal move pawn 15, advisor 1, elephant 1, rook 6,
//!   horse 12, cannon 6, king 0 (seed 004), summed per side and divided by 4 so
//!   a rook's whole mobility (17 × 6 / 4 ≈ 25) stays a fraction of a pawn's
//!   swing and never outweighs material.
//! - Coordination: linked crossed pawns, horses guarding each other, rooks
//!   seeing each other.
//! - King safety: an enemy cannon on the king's open file (空头炮), enemy
//!   attackers across the river, and missing defenders when the enemy still
//!   has attackers.

use super::board::{
    FILE_OF, HORSE_MOVES, Kind, Move, NO_SQUARE, Position, RANK_OF, RED, Square, slot_color,
    slot_kind,
};
use super::movegen::Sink;
use crate::game::Score;

/// Material values by [`Kind`].
pub const VALUE: [Score; 7] = [6000, 125, 120, 270, 600, 285, 20];

/// Mobility weight per pseudo-legal move, by [`Kind`].
const MOBILITY: [Score; 7] = [0, 1, 1, 12, 6, 6, 15];

const fn pst_value(kind: usize, sq: usize) -> i16 {
    let r = (sq / 9) as i16;
    let f = (sq % 9) as i16;
    let cf = if f > 4 { f - 4 } else { 4 - f };
    let palace_zone = r >= 7 && r <= 8 && cf <= 1;
    match kind {
        // King: at home on the centre of the back rank.
        0 => -(r * 10) - cf * 4,
        // Advisor: the palace centre.
        1 => {
            if r == 1 && f == 4 {
                4
            } else {
                0
            }
        }
        // Elephant: the centre, not the river bank or the edge.
        2 => {
            if r == 2 && f == 4 {
                6
            } else if cf == 4 || r == 4 {
                -4
            } else {
                0
            }
        }
        // Horse: centre and advance; not on the edge or the back rank.
        3 => {
            let mut v = (4 - cf) * 5 + if r < 7 { r * 4 } else { 28 - (r - 7) * 6 };
            if cf == 4 {
                v -= 16;
            }
            if r == 0 {
                v -= 10;
            }
            if (r == 7 && cf == 2) || (r == 8 && cf == 1) {
                v += 16;
            }
            v
        }
        // Rook: open centre files, across the river, the enemy's second rank.
        4 => {
            let mut v = (4 - cf) * 2 + if r >= 5 { 10 } else { 0 };
            if r == 8 {
                v += 10;
            }
            if r == 0 && cf == 4 {
                v -= 10;
            }
            v
        }
        // Cannon: the central file at home, in front of the enemy palace.
        5 => {
            let mut v = 0;
            if f == 4 && r <= 3 {
                v += 20;
            }
            if palace_zone || (r == 9 && cf <= 1) {
                v += 10;
            }
            if cf == 4 {
                v -= 5;
            }
            v
        }
        // Pawn: little before the river, a lot after it, most near the palace;
        // an "old pawn" on the last rank is worth little.
        _ => {
            if r < 3 {
                0
            } else if r < 5 {
                (r - 3) * 4 + if cf == 0 { 2 } else { 0 }
            } else if r == 9 {
                10
            } else {
                let mut v = 30 + (r - 5) * 8 + (4 - cf) * 4;
                if palace_zone {
                    v += 40;
                }
                v
            }
        }
    }
}

const fn build_pst() -> [[i16; 90]; 7] {
    let mut t = [[0i16; 90]; 7];
    let mut k = 0;
    while k < 7 {
        let mut s = 0;
        while s < 90 {
            t[k][s] = pst_value(k, s);
            s += 1;
        }
        k += 1;
    }
    t
}

/// Piece-square tables by `[kind][square]` from red's side (black reads `89 - square`).
pub static PST: [[i16; 90]; 7] = build_pst();

/// The table square for `color`.
#[inline]
fn relative(color: u8, sq: Square) -> usize {
    if color == RED {
        usize::from(sq)
    } else {
        89 - usize::from(sq)
    }
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

fn side_score(pos: &Position, color: u8) -> Score {
    let first = 16 + 16 * color;
    let mut score: Score = 0;
    let mut mobility: Score = 0;
    let mut attackers: Score = 0;
    let mut buf = [Move::default(); 20];
    for slot in first..first + 16 {
        let sq = pos.square_of(slot);
        if sq == NO_SQUARE {
            continue;
        }
        let kind = slot_kind(slot);
        score += VALUE[kind as usize] + Score::from(PST[kind as usize][relative(color, sq)]);
        if kind != Kind::King {
            let mut sink = Sink::new(&mut buf);
            pos.piece_moves(&mut sink, slot, sq, true);
            mobility += MOBILITY[kind as usize] * sink.len() as Score;
        }
        match kind {
            Kind::Rook | Kind::Horse | Kind::Cannon if crossed(color, sq) => attackers += 1,
            Kind::Pawn if crossed(color, sq) => {
                attackers += 1;
                // Linked crossed pawns (counted once, from the left one).
                let f = FILE_OF[usize::from(sq)];
                if f < 8 {
                    let p = pos.at(sq + 1);
                    if p != 0 && slot_color(p) == color && slot_kind(p) == Kind::Pawn {
                        score += 30;
                    }
                }
            }
            Kind::Horse => {
                // Horses guarding each other.
                for &[to, leg] in HORSE_MOVES[usize::from(sq)]
                    .iter()
                    .take_while(|e| e[0] != NO_SQUARE)
                {
                    let p = pos.at(to);
                    if p != 0
                        && p != slot
                        && slot_color(p) == color
                        && slot_kind(p) == Kind::Horse
                        && pos.at(leg) == 0
                    {
                        score += 5;
                    }
                }
            }
            _ => {}
        }
    }
    // Rooks that see each other.
    let (r1, r2) = (pos.square_of(first + 7), pos.square_of(first + 8));
    if r1 != NO_SQUARE && r2 != NO_SQUARE {
        let e = if RANK_OF[usize::from(r1)] == RANK_OF[usize::from(r2)] {
            pos.rank_blockers(r1)
        } else if FILE_OF[usize::from(r1)] == FILE_OF[usize::from(r2)] {
            pos.file_blockers(r1)
        } else {
            0xFFFF
        };
        let along = |c: u16| {
            if RANK_OF[usize::from(r1)] == RANK_OF[usize::from(r2)] {
                RANK_OF[usize::from(r1)] * 9 + c as u8
            } else {
                c as u8 * 9 + FILE_OF[usize::from(r1)]
            }
        };
        if e != 0xFFFF && (along(e & 0xF) == r2 || along((e >> 8) & 0xF) == r2) {
            score += 15;
        }
    }
    score + mobility / 4 + attackers * 8
}

/// Danger to `color`'s king: open-file cannon, missing defenders.
fn king_danger(pos: &Position, color: u8) -> Score {
    let ks = pos.king(color);
    if ks == NO_SQUARE {
        return 0;
    }
    let them = color ^ 1;
    let mut danger = 0;
    // An enemy cannon on the king's file with nothing in between (空头炮).
    let e = pos.file_blockers(ks);
    let f = FILE_OF[usize::from(ks)];
    for near in [e & 0xF, (e >> 8) & 0xF] {
        if near != 0xF {
            let p = pos.at(near as u8 * 9 + f);
            if p != 0 && slot_color(p) == them && slot_kind(p) == Kind::Cannon {
                danger += 50;
            }
        }
    }
    // Missing advisors and elephants matter while the enemy can still attack.
    let their_first = 16 + 16 * them;
    let attackers = (their_first + 5..their_first + 11)
        .filter(|&s| pos.square_of(s) != NO_SQUARE)
        .count() as Score;
    if attackers > 0 {
        let first = 16 + 16 * color;
        let missing = (first + 1..first + 5)
            .filter(|&s| pos.square_of(s) == NO_SQUARE)
            .count() as Score;
        danger += missing * attackers * 4;
    }
    danger
}

/// Evaluates `pos` for the side to move.
pub fn evaluate(pos: &Position) -> Score {
    #[cfg(test)]
    super::stack_probe::note();
    let me = pos.side();
    let them = me ^ 1;
    let mine = side_score(pos, me) - king_danger(pos, me);
    let theirs = side_score(pos, them) - king_danger(pos, them);
    mine - theirs
}
