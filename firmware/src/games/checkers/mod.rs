//! Chinese checkers (seed 000): the 121-hole star for 2, 3, 4 or 6 players.
//!
//! # Board
//! Holes are numbered 0..=120 in reading order on a 17-row star (see [`board`]):
//! flash tables give each hole's row (0..=16) and column (0..=24 on a doubled
//! grid) and its six neighbours. RAM holds one byte per piece (piece → hole, the
//! seed's representation) plus the side to move and a ply counter; an occupancy
//! bitset and per-player distance sums are derived caches. Triangles: 0 bottom,
//! 1 lower left, 2 upper left, 3 top, 4 upper right, 5 lower right.
//!
//! # Rules
//! - Seats ([`board::SEATS`]): 2 players in triangles 0 and 3; 3 players in 0, 2,
//!   4; 4 players in 1, 2, 4, 5 (two opposite pairs); 6 players everywhere. Player
//!   0 moves first, then 1, 2, … cyclically. Each player must fill the triangle
//!   opposite its home.
//! - 10 pieces each, or 15 for up to three players: the 10-hole triangle plus
//!   the 5 hexagon holes along its base (the next row toward the centre); the
//!   goal is then the opposite 15-hole area. (With three players the corner hole
//!   of a start area also belongs to a neighbouring player's goal area.)
//! - A move is a step to an adjacent empty hole, or a chain of one or more
//!   jumps, each over one adjacent piece of any colour into the empty hole right
//!   behind it, never visiting a hole twice; the chain may stop anywhere, and the
//!   piece must end on a new hole. No captures. One move per distinct (from, to).
//!   A player with no legal move passes (the only move then).
//! - Winning ("spoiling" rule): a player wins when every hole of its goal is
//!   occupied and at least one of them by its own piece. So pieces of others
//!   that stay in (or park in) the goal cannot stop it from winning, while it
//!   still has to bring its pieces over. The game ends at the first winner.
//! - Draw: after [`rules::MOVE_LIMIT`] (150) moves per player without a winner.
//!
//! # Text forms (see [`notation`])
//! - Hole: row letter `a`–`q` (top to bottom) + 1-based place from the left
//!   (`a1` top tip, `i5` centre, `q1` bottom tip); a number `0`–`120` is accepted too.
//! - Move: `from-to` (`n1-m6`), or `pass` when no piece can move.
//! - Position: `players=<n> pieces=<10|15> turn=<k> ply=<p> <holes>` with each
//!   player's holes as two hex digits per hole number, players separated by `/`
//!   (6 players x 10 pieces: 155 bytes), e.g.
//!   `players=2 pieces=10 turn=0 ply=0 6f707172737475767778/00010203040506070809`;
//!   or `start <n>` / `start <n> pieces=15`.
//!
//! # Levels
//! - 0 (default): best-reply search with iterative deepening (plain alpha-beta
//!   for two players), distance evaluation, long jumps first, the best 12 moves
//!   per node, up to 7 plies, on an explicit stack (no recursion; see [`search`]).
//! - 1: greedy one ply: the move gaining the most rows (an immediate win first).
//!
//! Other levels are rejected. The engines are deterministic and ignore the seed.

pub mod board;
pub mod engine;
pub mod eval;
pub mod notation;
pub mod rules;
pub mod search;
#[cfg(test)]
mod strength;

pub use engine::CheckersEngine;
pub use rules::{Checkers, Move};
