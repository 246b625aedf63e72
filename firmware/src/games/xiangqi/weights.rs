//! The evaluation's parameters ([`super::eval::param`] gives the layout):
//! middle-game / endgame pairs in centipawns of an uncrossed pawn.
//!
//! Hand-set starting values (before tuning).

use super::eval::{Pair, pair, param};

/// Every parameter of the evaluation, by [`param`] index.
#[rustfmt::skip]
pub const WEIGHTS: [Pair; param::COUNT] = [
    // Material: king, advisor, elephant, horse, rook, cannon, pawn.
    pair(0, 0), pair(200, 180), pair(200, 180), pair(400, 440), pair(900, 950),
    pair(450, 420), pair(100, 120),
    // Piece-square table, king: ranks 0 (own back rank) to 9, files a..e (mirrored).
    pair(-10, 0), pair(-10, 0), pair(-10, 0), pair(-10, 0), pair(0, 0),
    pair(-20, 0), pair(-20, 0), pair(-20, 0), pair(-20, 0), pair(-15, 0),
    pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10),
    pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10),
    pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10),
    pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10),
    pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10),
    pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10),
    pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10),
    pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10),
    // Piece-square table, advisor: ranks 0 (own back rank) to 9, files a..e (mirrored).
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(10, 0),
    pair(-5, 0), pair(-5, 0), pair(-5, 0), pair(-5, 0), pair(-5, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    // Piece-square table, elephant: ranks 0 (own back rank) to 9, files a..e (mirrored).
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(-5, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(10, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(-5, 0), pair(-5, 0), pair(-5, 0), pair(-5, 0), pair(-5, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    // Piece-square table, horse: ranks 0 (own back rank) to 9, files a..e (mirrored).
    pair(-20, -10), pair(-15, -7), pair(-5, -2), pair(-5, -2), pair(-20, -10),
    pair(-15, -7), pair(-5, -2), pair(0, 0), pair(0, 0), pair(-30, -15),
    pair(-10, -5), pair(0, 0), pair(10, 5), pair(5, 2), pair(10, 5),
    pair(-10, -5), pair(5, 2), pair(10, 5), pair(10, 5), pair(15, 7),
    pair(-5, -2), pair(10, 5), pair(15, 7), pair(20, 10), pair(15, 7),
    pair(0, 0), pair(15, 7), pair(25, 12), pair(25, 12), pair(25, 12),
    pair(0, 0), pair(20, 10), pair(25, 12), pair(35, 17), pair(30, 15),
    pair(0, 0), pair(20, 10), pair(40, 20), pair(30, 15), pair(25, 12),
    pair(-10, -5), pair(10, 5), pair(25, 12), pair(30, 15), pair(10, 5),
    pair(-20, -10), pair(-10, -5), pair(0, 0), pair(5, 2), pair(-15, -7),
    // Piece-square table, rook: ranks 0 (own back rank) to 9, files a..e (mirrored).
    pair(-15, -7), pair(0, 0), pair(-5, -2), pair(0, 0), pair(-10, -5),
    pair(-5, -2), pair(0, 0), pair(0, 0), pair(5, 2), pair(0, 0),
    pair(-5, -2), pair(5, 2), pair(0, 0), pair(5, 2), pair(0, 0),
    pair(-5, -2), pair(5, 2), pair(0, 0), pair(5, 2), pair(5, 2),
    pair(0, 0), pair(10, 5), pair(5, 2), pair(10, 5), pair(10, 5),
    pair(5, 2), pair(15, 7), pair(10, 5), pair(15, 7), pair(15, 7),
    pair(5, 2), pair(15, 7), pair(10, 5), pair(15, 7), pair(15, 7),
    pair(5, 2), pair(10, 5), pair(10, 5), pair(20, 10), pair(15, 7),
    pair(10, 5), pair(15, 7), pair(15, 7), pair(25, 12), pair(20, 10),
    pair(5, 2), pair(10, 5), pair(5, 2), pair(15, 7), pair(15, 7),
    // Piece-square table, cannon: ranks 0 (own back rank) to 9, files a..e (mirrored).
    pair(0, 0), pair(0, 0), pair(-5, 0), pair(5, 0), pair(5, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(5, 0), pair(10, 0),
    pair(0, 0), pair(5, 0), pair(5, 0), pair(5, 0), pair(20, 0),
    pair(0, 0), pair(5, 0), pair(0, 0), pair(0, 0), pair(10, 0),
    pair(0, 0), pair(5, 0), pair(0, 0), pair(5, 0), pair(10, 0),
    pair(0, 0), pair(5, 0), pair(0, 0), pair(5, 0), pair(10, 0),
    pair(0, 0), pair(5, 0), pair(0, 0), pair(0, 0), pair(10, 0),
    pair(5, 0), pair(5, 0), pair(0, 0), pair(-5, 0), pair(5, 0),
    pair(5, 0), pair(5, 0), pair(0, 0), pair(-5, 0), pair(-10, 0),
    pair(10, 0), pair(10, 0), pair(0, 0), pair(-10, 0), pair(-10, 0),
    // Piece-square table, pawn: ranks 0 (own back rank) to 9, files a..e (mirrored).
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(5, 0),
    pair(-5, 10), pair(0, 10), pair(5, 15), pair(0, 15), pair(15, 20),
    pair(10, 50), pair(25, 60), pair(35, 70), pair(45, 80), pair(50, 80),
    pair(20, 60), pair(40, 75), pair(50, 90), pair(65, 100), pair(70, 100),
    pair(20, 60), pair(40, 80), pair(60, 100), pair(80, 110), pair(90, 120),
    pair(20, 60), pair(40, 80), pair(60, 100), pair(90, 120), pair(100, 130),
    pair(0, 20), pair(0, 30), pair(5, 40), pair(15, 50), pair(20, 50),
    // Rook mobility, 0..17 empty squares.
    pair(-35, -49), pair(-30, -42), pair(-25, -35), pair(-20, -28), pair(-15, -21),
    pair(-10, -14), pair(-5, -7), pair(0, 0), pair(5, 7), pair(10, 14),
    pair(15, 21), pair(20, 28), pair(25, 35), pair(30, 42), pair(35, 49),
    pair(40, 56), pair(45, 63), pair(50, 70),
    // Cannon mobility, 0..17 empty squares.
    pair(-18, -12), pair(-15, -10), pair(-12, -8), pair(-9, -6), pair(-6, -4),
    pair(-3, -2), pair(0, 0), pair(3, 2), pair(6, 4), pair(9, 6),
    pair(12, 8), pair(15, 10), pair(18, 12), pair(21, 14), pair(24, 16),
    pair(27, 18), pair(30, 20), pair(33, 22),
    // Horse mobility, 0..8 moves.
    pair(-73, -73), pair(-36, -36), pair(-24, -24), pair(-12, -12), pair(0, 0),
    pair(12, 12), pair(24, 24), pair(36, 36), pair(48, 48),
    // Attack units in the enemy half, 0..15.
    pair(0, 0), pair(0, 0), pair(3, 1), pair(6, 2), pair(12, 4),
    pair(18, 6), pair(27, 9), pair(36, 12), pair(48, 16), pair(60, 20),
    pair(75, 25), pair(90, 30), pair(108, 36), pair(126, 42), pair(147, 49),
    pair(168, 56),
    pair(6, 2), // no advisor (x units)
    pair(6, 2), // no elephant (x units)
    pair(90, 20), // hollow cannon
    pair(20, 0), // screened cannon
    pair(20, 0), // bottom cannon
    pair(30, 0), // blocked horse
    pair(20, 30), // linked pawns
    pair(10, 5), // horse pair
    pair(15, 5), // rook pair
    pair(10, 10), // tempo
];
