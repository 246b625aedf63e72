//! Gomoku and renju on 15×15 (seeds 002 and 003).
