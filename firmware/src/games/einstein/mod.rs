//! EinStein würfelt nicht! (seed 001): rules, notation and three engines.
//!
//! # Board and rules
//!
//! A 5×5 board, columns `a`–`e` left to right, rows `1`–`5` bottom to top. Player 0,
//! **red** (`r`), starts in the top-left corner and runs for `e1`; player 1, **blue**
//! (`b`), starts in the bottom-right corner and runs for `a5`. Each side has six cubes
//! numbered 1–6, set up in any arrangement on its start triangle, listed in this
//! fixed *setup order*:
//!
//! - red:  `a5 b5 c5 a4 b4 a3`
//! - blue: `e1 d1 c1 e2 d2 e3` (the mirror image)
//!
//! The side to move rolls a die; the cube with that number moves, or, if it is gone,
//! the next higher or the next lower cube present (mover's choice). A cube steps one
//! square toward the far corner: red right, down or diagonally down-right, blue
//! left, up or diagonally up-left. Whatever stands on the target square is removed,
//! own cubes included. A side wins by reaching the far corner or by removing every
//! enemy cube. Red moves (and sets up) first unless the position says otherwise;
//! turns simply alternate, setups included.
//!
//! Dice are inputs, never hidden state: the roll of the side to move is part of the
//! position, and a roll is itself a move (the host rolls a seeded [`SplitMix64`], a
//! person may type a physical die's roll).
//!
//! # Position text
//!
//! Whitespace-separated tokens in any order (written in this order):
//!
//! - `r:` red cubes, `b:` blue cubes: comma-separated `square=cube` (`a5=1,b5=2`), `-` for
//!   a side that has set up but lost every cube, `?` for a side that has not set up yet;
//! - `turn=r` or `turn=b`;
//! - `roll=1`…`roll=6` for the side to move (omitted, or `roll=?`, when not rolled yet).
//!
//! Example (77 bytes at most): `r:a5=1,b5=2,c5=3,a4=4,b4=5,a3=6 b:e1=1,d1=2,c1=3,e2=4,d2=5,e3=6 turn=r roll=3`.
//! `start` is short for `r:? b:? turn=r` (nobody has set up; red sets up first).
//! During setup no roll is given and a side that has set up has all six cubes on its triangle.
//!
//! # Move text
//!
//! - a step: `3:d4` (cube number, target square); `c5d4` (from, to) is read too;
//! - a roll: `roll 3` (only when the side to move has not rolled);
//! - a setup: `setup 615243`, the cube numbers on the setup-order squares
//!   (here red: 6 on `a5`, 1 on `b5`, 5 on `c5`, 2 on `a4`, 4 on `b4`, 3 on `a3`).
//!
//! In the setup phase [`crate::game::Game::generate`] lists nothing (720 setups do not
//! fit a move buffer on the board): check [`Einstein::in_setup`].
//!
//! # Engines ([`EinsteinEngine`], wire name `einstein`)
//!
//! - level 0 (default), strong: expectiminimax over the die with Star1 pruning and
//!   iterative deepening ([`search`]), evaluation = probability-weighted race
//!   ([`eval`]); score = expected result × 1000 for the side to move. Without limits
//!   it spends [`search::DEFAULT_NODES`] nodes. Sets up with [`engine::STRONG_SETUP`].
//! - level 1, seed 001's Monte Carlo player ([`seed`]): M = 100 simulations of N = 7
//!   plies per candidate step, each ply chosen by a 3-ply minimax; a depth limit sets N.
//!   Sets up at random (seeded).
//! - level 2: a uniformly random legal step or setup (seeded), the baseline.
//!
//! A position whose side to move has not rolled is answered with a seeded `roll n`.
//! `request.seed` seeds every random choice; the same request gives the same answer.

pub mod board;
pub mod engine;
pub mod eval;
pub mod notation;
pub mod rng;
pub mod rules;
pub mod search;
pub mod seed;

pub use board::{Arrangement, BLUE, Einstein, Move, RED, Square, TRIANGLE};
pub use engine::EinsteinEngine;
pub use rng::SplitMix64;

#[cfg(test)]
mod matches;
