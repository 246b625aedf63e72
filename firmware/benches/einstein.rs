//! Benchmarks for einstein (filled in with the engine).
fn main() {}
