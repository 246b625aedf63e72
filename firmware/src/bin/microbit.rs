//! micro:bit v1 board binary (filled in below).
fn main() {}
