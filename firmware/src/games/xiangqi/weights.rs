//! The evaluation's parameters ([`super::eval::param`] gives the layout):
//! middle-game / endgame pairs in centipawns of an uncrossed pawn.
//!
//! Texel-tuned: the hand-set values moved by 100 Adam steps of at most 0.5 a step
//! (a trust region against over-fitting), minimising the squared error between
//! the logistic of the evaluation (from [`super::eval::trace`]) and the game result
//! over 407,549 positions of the engine's own fixed-node self-play (90 % fitted,
//! 10 % held out: loss 0.0814 -> 0.0746 on both). Kept because it gained in a
//! paired fixed-node match (see docs/strength.md, Xiangqi).
//! The tuner is `firmware/examples/xiangqi_tune.rs`; a second round on new
//! self-play (268 k positions) showed no gain and was not kept.
//! The advisor-shape terms after the tempo are hand-set (ElephantEye's, scaled)
//! and kept because a paired fixed-node match showed them gaining (docs/strength.md);
//! so are the threat terms after them (hand-set, session 30).

use super::eval::{Pair, pair, param};

/// Every parameter of the evaluation, by [`param`] index.
#[rustfmt::skip]
pub const WEIGHTS: [Pair; param::COUNT] = [
    // Material: king, advisor, elephant, horse, rook, cannon, pawn.
    pair(0, 0), pair(172, 143), pair(169, 143), pair(443, 463), pair(948, 999),
    pair(499, 389), pair(73, 143),
    // Piece-square table, king: ranks 0 (own back rank) to 9, files a..e (mirrored).
    pair(-10, 0), pair(-10, 0), pair(-10, 0), pair(-53, 7), pair(47, -10),
    pair(-20, 0), pair(-20, 0), pair(-20, 0), pair(-66, -24), pair(-62, 22),
    pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-89, -11), pair(-89, -17),
    pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10),
    pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10),
    pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10),
    pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10),
    pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10),
    pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10),
    pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10), pair(-40, -10),
    // Piece-square table, advisor: ranks 0 (own back rank) to 9, files a..e (mirrored).
    pair(0, 0), pair(0, 0), pair(0, 0), pair(-25, -38), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(11, -32),
    pair(-5, 0), pair(-5, 0), pair(-5, 0), pair(-46, -40), pair(-5, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    // Piece-square table, elephant: ranks 0 (own back rank) to 9, files a..e (mirrored).
    pair(0, 0), pair(0, 0), pair(-33, -37), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(-40, -37), pair(0, 0), pair(0, 0), pair(0, 0), pair(31, -38),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(-5, 0), pair(-5, 0), pair(-43, -37), pair(-5, 0), pair(-5, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    // Piece-square table, horse: ranks 0 (own back rank) to 9, files a..e (mirrored).
    pair(-66, -57), pair(-48, -32), pair(-44, -38), pair(45, -53), pair(-20, -10),
    pair(-59, -53), pair(-48, -49), pair(-48, -46), pair(27, 28), pair(-43, -62),
    pair(23, -48), pair(-48, -49), pair(-19, -28), pair(48, 13), pair(27, 5),
    pair(34, 28), pair(-39, -47), pair(45, 39), pair(-36, -47), pair(30, 30),
    pair(46, -53), pair(-30, 0), pair(61, 37), pair(59, 33), pair(54, 31),
    pair(17, 41), pair(46, 13), pair(71, 59), pair(64, 36), pair(67, 44),
    pair(-7, 27), pair(65, 52), pair(50, 34), pair(80, 49), pair(70, -17),
    pair(46, 45), pair(64, 47), pair(84, 22), pair(76, 62), pair(70, 61),
    pair(28, 36), pair(51, 39), pair(69, 54), pair(72, 57), pair(-34, -42),
    pair(28, -3), pair(35, 35), pair(3, 28), pair(52, 51), pair(-15, -7),
    // Piece-square table, rook: ranks 0 (own back rank) to 9, files a..e (mirrored).
    pair(-42, -35), pair(31, -37), pair(-51, -48), pair(38, 28), pair(-59, -56),
    pair(-26, -2), pair(-36, 11), pair(-38, 10), pair(31, -32), pair(-46, 13),
    pair(-35, -34), pair(-6, 46), pair(37, -14), pair(48, -13), pair(40, 36),
    pair(33, 40), pair(42, 42), pair(30, 42), pair(49, 45), pair(48, 42),
    pair(-33, 31), pair(54, 44), pair(50, 38), pair(54, 37), pair(52, 30),
    pair(-34, 47), pair(5, 32), pair(-4, 13), pair(40, 47), pair(50, 51),
    pair(45, 40), pair(-33, 52), pair(49, 45), pair(56, 49), pair(59, 51),
    pair(55, 25), pair(-26, -11), pair(60, -1), pair(56, 49), pair(57, 57),
    pair(-13, 13), pair(57, -26), pair(67, -12), pair(65, 11), pair(70, 64),
    pair(-24, -28), pair(21, -27), pair(41, 26), pair(57, 38), pair(63, 59),
    // Piece-square table, cannon: ranks 0 (own back rank) to 9, files a..e (mirrored).
    pair(-49, -49), pair(-45, 8), pair(44, -49), pair(-28, -39), pair(-5, -23),
    pair(-35, -36), pair(-23, -44), pair(-45, -44), pair(15, -22), pair(59, -32),
    pair(28, 45), pair(-18, -23), pair(-35, 42), pair(39, 25), pair(63, 44),
    pair(48, 48), pair(-10, 17), pair(13, -22), pair(-41, 41), pair(56, 30),
    pair(-24, -18), pair(4, -2), pair(11, -30), pair(-31, -3), pair(54, 29),
    pair(46, -35), pair(-41, -30), pair(-37, -5), pair(-36, -39), pair(52, -43),
    pair(-1, -23), pair(-3, -10), pair(-18, -12), pair(-33, -35), pair(-25, -35),
    pair(-33, -37), pair(0, 35), pair(-15, -22), pair(-51, -40), pair(-31, -31),
    pair(50, 40), pair(-17, 41), pair(-4, 3), pair(-38, -28), pair(-59, -45),
    pair(49, 26), pair(51, 28), pair(41, 41), pair(-33, -38), pair(-47, -42),
    // Piece-square table, pawn: ranks 0 (own back rank) to 9, files a..e (mirrored).
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0), pair(0, 0),
    pair(-23, 40), pair(0, 0), pair(-33, -12), pair(0, 0), pair(46, 25),
    pair(-43, 39), pair(0, 10), pair(25, -8), pair(0, 15), pair(40, -12),
    pair(-35, 90), pair(-20, 24), pair(21, 57), pair(29, 36), pair(89, 112),
    pair(-30, 101), pair(-3, 119), pair(1, 125), pair(115, 54), pair(26, 54),
    pair(-30, 94), pair(82, 119), pair(92, 107), pair(127, 159), pair(142, 133),
    pair(58, 103), pair(85, 128), pair(103, 130), pair(140, 90), pair(158, 138),
    pair(0, 20), pair(-8, -3), pair(-12, 3), pair(-2, 8), pair(-23, 4),
    // Rook mobility, 0..17 empty squares.
    pair(15, -96), pair(-69, -83), pair(-47, -60), pair(-40, -36), pair(-8, 27),
    pair(6, 38), pair(34, 38), pair(43, 45), pair(42, 51), pair(45, 59),
    pair(36, 67), pair(59, 71), pair(41, 75), pair(68, 83), pair(72, 89),
    pair(72, 98), pair(87, 96), pair(77, 60),
    // Cannon mobility, 0..17 empty squares.
    pair(19, 14), pair(27, 33), pair(20, 30), pair(33, 35), pair(-2, -21),
    pair(-8, 38), pair(7, 10), pair(39, -11), pair(35, -33), pair(43, -9),
    pair(38, -2), pair(37, -7), pair(62, -1), pair(5, -19), pair(16, -15),
    pair(38, -24), pair(1, -19), pair(-7, -9),
    // Horse mobility, 0..8 moves.
    pair(-52, -78), pair(-64, -72), pair(-51, -48), pair(-16, 19), pair(30, 35),
    pair(46, 43), pair(61, 53), pair(76, 65), pair(91, 1),
    // Attack units in the enemy half, 0..15.
    pair(-50, 37), pair(-44, -44), pair(-29, -41), pair(-29, -37), pair(-22, 14),
    pair(15, -5), pair(68, 52), pair(76, 54), pair(91, 61), pair(103, 64),
    pair(108, 65), pair(132, 74), pair(108, 36), pair(126, 42), pair(147, 49),
    pair(168, 56),
    pair(39, -20), // no advisor (x units)
    pair(23, -20), // no elephant (x units)
    pair(136, -21), // hollow cannon
    pair(28, 37), // screened cannon
    pair(40, 8), // bottom cannon
    pair(46, 46), // blocked horse
    pair(-26, -16), // linked pawns
    pair(49, 4), // horse pair
    pair(22, 36), // rook pair
    pair(22, -11), // tempo
    pair(80, 40), // central shape, hollow cannon
    pair(30, 30), // side shape, central cannon
    pair(50, 50), // side shape, central cannon, door attacked
    pair(120, 60), // side shape, central cannon, rook on the back rank
    pair(60, 30), // king on the palace centre with both advisors
    pair(60, 100), // advisor missing against two rooks
    pair(30, 20), // threat: their horse, rook or cannon attacked by our pawn
    pair(40, 30), // threat: their rook attacked by our horse or cannon
];
