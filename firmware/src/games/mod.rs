//! The games Sente plays. Each module holds one game's rules, notation and engines.

pub mod checkers;
pub mod einstein;
pub mod gomoku;
pub mod registry;
pub mod tictactoe;
pub mod xiangqi;
