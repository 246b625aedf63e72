//! Benchmarks for checkers (filled in with the engine).
fn main() {}
