//! Benchmarks for xiangqi (filled in with the engine).
fn main() {}
