//! The board service loop.
