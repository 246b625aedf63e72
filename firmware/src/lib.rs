//! Sente's board-side library: games, engines, the wire protocol and the service loop.
//!
//! It is `#![no_std]` and uses no allocator, so the very same code runs on the
//! micro:bit and on the host, where it is the host engine. Board and host therefore
//! give identical answers (move, score, depth, nodes, principal variation) for the
//! same request.
#![cfg_attr(not(test), no_std)]
#![warn(missing_docs)]

pub mod clock;
pub mod engine;
pub mod game;
pub mod games;
pub mod protocol;
pub mod search;
pub mod service;
pub mod text;

/// Firmware version reported by `hello`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
