//! Xiangqi, Chinese chess (seed 004): rules, AXF repetition rules, notation,
//! evaluation, opening book and a PVS engine, all `no_std` and allocation-free.
//!
//! # Position text form (`xiangqi` on the wire)
//!
//! `<fen> [moves <iccs> ...]`, or `startpos [moves ...]` for the opening
//! position. The FEN's board and side fields are required (`w` or `r` = red to
//! move, `b` = black; red upper case; `N`/`H` horse, `B`/`E` elephant, `K A R C P`);
//! the later fields are optional and the fifth (plies since the last capture)
//! feeds the natural-move counter. The moves after the FEN are the history that
//! repetition detection sees, e.g.
//! `startpos moves h2e2 h9g7 h0g2 i9h9`. Written positions use the same form
//! (starting FEN with `- - <counter> 1`, then the moves).
//!
//! # Move text form
//!
//! ICCS coordinates as UCCI engines use: `h2e2` = from file `h` rank 2 to file
//! `e` rank 2; files `a`–`i` from red's left, ranks `0`–`9` from red's back
//! rank. [`notation::write_chinese`] gives the traditional display form
//! (`炮二平五`, `马８进７`, `前车平六`).
//!
//! # Rules
//!
//! Palace, river, horse-leg and elephant-eye blocking, cannon screens, the
//! flying general; only legal moves are generated and a side without a legal
//! move (checkmate or stalemate) loses. Repetitions follow the AXF rules as
//! Fairy-Stockfish implements them ([`rules`]): perpetual check loses,
//! perpetual chase loses, mutual cases and other repetitions draw. The game is
//! also drawn after 60 moves per side without a capture ([`state::NATURAL_LIMIT`]).
//!
//! # Levels
//!
//! - 0 (default): opening book, then the full search within the limits.
//! - 1: opening book, search capped at depth 3 ([`engine::WEAK_DEPTH`]).
//! - 2: no book, full search. Other values act as 0.
//!
//! The seed only picks among book moves (by weight). Give a depth, node or
//! time limit: without one the search runs to depth 16.
//!
//! # Memory
//!
//! Flash tables: rook/cannon line tables 14,848 B (per position on a rank or
//! file and occupancy without that position, the nearest and second-nearest
//! blockers on both sides in one `u16`), Zobrist keys 10,080 B, leaper and
//! coordinate tables 3,060 B, piece-square tables 1,260 B, book ~1 KB
//! (about 30 KB in all; the code is about 26 KB at `opt-level = "s"`). The search keeps
//! everything in one fixed-size [`search::Searcher`] on the request's stack
//! (transposition table of 256 entries, killers, history, and a move stack of
//! 384 moves in the board profile, 2,400 in the host profile: see
//! [`search::BOARD_MOVE_STACK`]).

/// Calls `$recv.$f::<RED>(args)` or `$recv.$f::<BLACK>(args)` as `$colour`
/// is red or black: the dispatch in front of the functions that have one copy
/// per colour (their colour's slots and marks constants, not registers, on the
/// board's Cortex-M0).
macro_rules! per_colour {
    ($colour:expr, $recv:expr, $f:ident($($arg:expr),*)) => {
        if $colour == super::board::RED {
            $recv.$f::<{ super::board::RED }>($($arg),*)
        } else {
            $recv.$f::<{ super::board::BLACK }>($($arg),*)
        }
    };
}

pub mod board;
pub mod book;
pub mod engine;
pub mod eval;
pub mod movegen;
pub mod notation;
pub mod rules;
pub mod search;
pub mod see;
pub mod state;
pub mod tt;
pub mod weights;

pub use engine::XiangqiEngine;
pub use state::Xiangqi;

#[cfg(test)]
mod tests;

/// Stack-depth probe for the tests: the lowest stack address seen per thread.
#[cfg(test)]
pub(crate) mod stack_probe {
    use std::cell::Cell;
    std::thread_local!(static LOW: Cell<usize> = const { Cell::new(usize::MAX) });

    /// Records the current stack depth.
    #[inline(never)]
    pub fn note() {
        let marker = 0u8;
        let at = core::ptr::addr_of!(marker) as usize;
        LOW.with(|l| l.set(l.get().min(at)));
    }
    /// Resets and returns the lowest address seen.
    pub fn take() -> usize {
        LOW.with(|l| l.replace(usize::MAX))
    }
}
