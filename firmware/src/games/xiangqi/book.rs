//! A small opening book in flash: common first moves and replies as ICCS lines
//! from the opening position, each with a weight. A position is looked up by
//! replaying the lines and comparing Zobrist keys, so it is found whatever
//! move order (or FEN) reached it.

use super::board::{Move, NO_SQUARE, Position};
use super::notation::parse_iccs;

/// `(weight, line)`: the moves of a line, played from the opening position.
const LINES: [(u8, &str); 36] = [
    // 中炮 Central cannon.
    (8, "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2"), // 中炮对屏风马
    (6, "h2e2 h9g7 h0g2 b9c7 i0h0 i9h9 b0c2"),
    (5, "h2e2 b9c7 h0g2 h9g7 i0h0 i9h9"),
    (4, "h2e2 h7e7 h0g2 h9g7 i0h0 i9h9"), // 顺炮
    (3, "h2e2 b7e7 h0g2 b9c7 i0h0 a9b9"), // 列炮
    (3, "h2e2 b9c7 b0c2 h9g7"),
    (3, "h2e2 h9g7 b0c2 b9c7 a0b0 a9b9"),
    (2, "h2e2 c6c5 h0g2 b9c7"), // 中炮对进卒
    (2, "h2e2 g6g5 h0g2 h9g7"),
    // 仙人指路 Pawn opening.
    (6, "c3c4 b7c7 b0c2 h9g7"), // 卒底炮
    (5, "c3c4 g6g5 b0c2 h9g7"),
    (3, "c3c4 h9g7 b0c2 g6g5"),
    (2, "c3c4 c6c5 h2e2 b9c7"),
    (3, "g3g4 c6c5 h0g2 b9c7"),
    (2, "g3g4 h7g7 h0g2 h9i7"),
    // 飞相 Elephant opening.
    (5, "c0e2 h9g7 h0g2 g6g5"),
    (4, "c0e2 c6c5 b0c2 b9c7"),
    (3, "c0e2 h7e7 h0g2 h9g7"),
    (2, "g0e2 b9c7 b0c2 c6c5"),
    // 起马 Horse opening.
    (5, "h0g2 g6g5 g3g4 h9g7"),
    (4, "h0g2 h9g7 g3g4 c6c5"),
    (3, "b0c2 b9c7 c3c4 g6g5"),
    (2, "b0c2 h9g7 g3g4 c6c5"),
    // 过宫炮, 士角炮 and others.
    (3, "h2f2 h9g7 h0g2 i9h9"), // 过宫炮
    (2, "b2d2 h9g7 b0c2 c6c5"), // 士角炮
    (2, "b2c2 h9g7 b0a2 i9h9"),
    (2, "h2e2 h7e7 h0g2 b9c7"),
    (2, "h2e2 b9c7 h0g2 h7i7"),
    // Black replies when red plays the mirror image.
    (6, "b2e2 b9c7 b0c2 a9b9 a0b0 h9g7 h0g2"),
    (4, "b2e2 h9g7 b0c2 b9c7"),
    (3, "b2e2 b7e7 b0c2 h9g7"),
    (4, "g3g4 h9g7 h0g2 g6g5"),
    (3, "c3c4 c6c5 b0c2 b9c7"),
    (3, "g0e2 h9g7 h0g2 g6g5"),
    (2, "b0c2 c6c5 c3c4 b9c7"),
    (2, "h0g2 b9c7 b0c2 h9g7"),
];

/// Book moves for `pos` with their summed weights; `out` receives distinct
/// moves (numbered as in the book's replay), returns how many.
pub fn candidates(pos: &Position, out: &mut [(Move, u16)]) -> usize {
    // No line captures anything ([`all_lines_legal`] checks it): a position
    // with a piece missing is in none of them, and is answered without
    // replaying the lines (most of a middle game's first 0.26 M ticks on
    // the micro:bit v1).
    if (16..48).any(|slot| pos.square_of(slot) == NO_SQUARE) {
        return 0;
    }
    let mut n = 0;
    let start = Position::start();
    for (weight, line) in LINES {
        let mut p = start.clone();
        for text in line.split(' ') {
            let Ok((from, to)) = parse_iccs(text) else {
                break;
            };
            let Some(mv) = p.legal_move(from, to) else {
                break;
            };
            if p.same_as(pos) {
                match out[..n].iter_mut().find(|c| c.0 == mv) {
                    Some(c) => c.1 += u16::from(weight),
                    None => {
                        if let Some(slot) = out.get_mut(n) {
                            *slot = (mv, u16::from(weight));
                            n += 1;
                        }
                    }
                }
                break;
            }
            p.make_raw(mv);
        }
    }
    n
}

/// A book move for `pos`, picked by weight with `seed` (deterministic).
pub fn pick(pos: &Position, seed: u64) -> Option<Move> {
    let mut cands = [(Move::default(), 0u16); 8];
    let n = candidates(pos, &mut cands);
    let total: u64 = cands[..n].iter().map(|c| u64::from(c.1)).sum();
    if total == 0 {
        return None;
    }
    let mut roll = super::search::mix(seed ^ pos.key()) % total;
    let chosen = cands[..n].iter().find(|&&(_, w)| {
        let hit = roll < u64::from(w);
        roll = roll.saturating_sub(u64::from(w));
        hit
    })?;
    // The book's replay may number pieces differently: answer with this
    // position's own legal move between the same squares.
    pos.clone().legal_move(chosen.0.from, chosen.0.to)
}

/// Every book line is legal from the opening position, and captures nothing.
#[cfg(test)]
pub fn all_lines_legal() -> bool {
    LINES.iter().all(|(_, line)| {
        let mut p = Position::start();
        line.split(' ').all(|text| {
            let Ok((from, to)) = parse_iccs(text) else {
                return false;
            };
            let mut buf = [Move::default(); super::movegen::MAX_MOVES];
            let count = p.legal_moves(&mut buf, true);
            match buf[..count].iter().find(|m| m.from == from && m.to == to) {
                Some(&mv) if mv.captured == 0 => {
                    p.make_raw(mv);
                    true
                }
                _ => false,
            }
        })
    })
}
