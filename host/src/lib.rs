//! Sente on the host: board links (serial, simulated, in-process), the engine
//! adapter that speaks protocol v1 to any of them, the TUI and the match runner.
#![warn(missing_docs)]

pub mod board;
pub mod boards;
pub mod engine;
pub mod firmware;
pub mod gomocup;
pub mod hil;
pub mod matches;
pub mod multipv;
pub mod player;
pub mod record;
pub mod reply;
pub mod sim;
pub mod timeman;
pub mod tui;
pub mod uci;
