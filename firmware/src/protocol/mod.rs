//! Wire protocol v1: line-based ASCII over the serial link (see `docs/protocol.md`).
//!
//! Every request carries the whole position and its limits, so the board keeps no
//! game state between requests and a reset loses nothing.

pub mod line;
pub mod request;

pub use line::{LineEvent, LineReader};
pub use request::{Command, ErrorCode, parse_command};

/// Protocol version reported by `hello`.
pub const PROTOCOL_VERSION: u32 = 1;

/// Longest request line in bytes, line terminator excluded.
pub const MAX_LINE: usize = 255;
