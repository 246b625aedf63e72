//! Wire protocol v1: line-based ASCII over the serial link (see `docs/protocol.md`).
//!
//! Every request carries the whole position and its limits, so the board keeps no
//! game state between requests and a reset loses nothing.

pub mod line;
pub mod reply;
pub mod request;

pub use line::{LineEvent, LineReader};
pub use reply::{Hello, Perft, Reply, ReplyKind, Search, SearchReport, write_search};
pub use request::{BadRequest, Command, ErrorCode, Request, RequestId, parse_request};

/// Protocol version reported by `hello`.
pub const PROTOCOL_VERSION: u32 = 1;

/// Longest request line in bytes, line terminator excluded.
pub const MAX_LINE: usize = 255;
