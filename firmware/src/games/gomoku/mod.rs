//! Gomoku and renju on 15×15 (seeds 002 and 003).
//!
//! # Rules
//! Three rule sets ([`Rule`]): `free` (five or more in a row wins), `standard`
//! (exactly five wins, an overline does not) and `renju` (black wins only with
//! exactly five and may not play a double-three, double-four or overline, the
//! recursive "fake three" cases included; white wins with five or more). A full
//! board is a draw. Black moves first.
//!
//! # Text forms
//! * Point / move: column `a`–`o` (left to right) and row `1`–`15` (bottom to
//!   top): `a1`, `h8`, `o15`; upper case is accepted (`H8`).
//! * Position: `<rule> <stones>`, e.g. `renju h8 h9 i9` or `free h8h9i9`: the rule
//!   (`free`, `standard`, `renju`), then the stones in the order played, black
//!   first, separated by spaces or commas or concatenated. Only the last entry's
//!   order matters to the position (it is the last move, the one that may have won);
//!   the others are just placed alternately, so any order of the same stones reads
//!   as the same position. A five anywhere but through the last move, or a black
//!   overline under renju, is rejected. [`Gomoku`]'s writer lists black and white
//!   stones alternately in point order, the last move last, concatenated
//!   (`renju h8h9i9`), up to [`position::PACK_FROM`] stones; larger positions go
//!   packed, 2 bits a point (`free *<75 characters> h8`, see
//!   [`Gomoku::write_packed`]): every position, a full board included, fits a
//!   255-byte request line.
//!
//! # Levels ([`GomokuEngine`])
//! * 0 (default): the strong engine with a fixed work budget per move
//!   ([`search::DEFAULT_WORK`] points analysed), so the answer is the same on the
//!   host and the board and fits the board's time budget.
//! * 1: `pattern`, seed 003's one-ply scorer (see [`pattern`]).
//! * 2: the strong engine without the default work budget (only the request's
//!   limits), to [`search::MAX_PLY`] plies: seconds a move on the board.

pub mod board;
pub mod engine;
pub mod eval;
pub mod host_eval;
pub mod host_net;
pub mod host_threats;
pub mod lines;
pub mod lines_gen;
pub mod pattern;
pub mod point_class;
pub mod position;
pub mod rules;
pub mod search;
pub mod shape;
#[cfg(test)]
mod tests_support;
pub mod vcf;
pub mod vct;

pub use board::{BLACK, Board, Point, PointSet, WHITE, parse_point, write_point};
pub use engine::GomokuEngine;
pub use position::Gomoku;
pub use rules::Rule;
