//! Benchmarks for gomoku (filled in with the engine).
fn main() {}
