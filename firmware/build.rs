//! Writes the gomoku line-pattern tables (flash data, see
//! `src/games/gomoku/lines_gen.rs`) and, for board builds, the linker script (the
//! linker does not find a `memory.x` beside a workspace member, so it is written
//! to `OUT_DIR`).
use std::{env, fs, path::PathBuf};

#[path = "src/games/gomoku/lines_gen.rs"]
#[allow(dead_code)]
mod lines_gen;

/// The three gomoku line-pattern tables (free, exact, caro), two patterns a byte.
fn gomoku_tables(out: &std::path::Path) {
    use lines_gen::{FiveRule, WINDOWS, table};
    let mut bytes = Vec::new();
    let mut memo = vec![0u8; WINDOWS];
    let mut patterns = vec![0u8; WINDOWS];
    for rule in [FiveRule::Free, FiveRule::Exact, FiveRule::Caro] {
        table(rule, &mut patterns, &mut memo);
        for pair in patterns.chunks(2) {
            bytes.push(pair[0] | pair.get(1).copied().unwrap_or(0) << 4);
        }
    }
    fs::write(out.join("gomoku_lines.bin"), bytes).expect("write gomoku_lines.bin");
}

fn main() {
    let target = env::var("TARGET").unwrap_or_default();
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/games/gomoku/lines_gen.rs");
    println!("cargo:rerun-if-env-changed=CARGO_FEATURE_RAM_2K");
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    gomoku_tables(&out);
    if !target.starts_with("thumb") {
        return;
    }
    let ram = if env::var_os("CARGO_FEATURE_RAM_2K").is_some() {
        "2K"
    } else {
        "16K"
    };
    let memory = format!(
        "/* BBC micro:bit v1: nRF51822, 256 KB flash, 16 KB RAM */\nMEMORY\n{{\n  FLASH : ORIGIN = 0x00000000, LENGTH = 256K\n  RAM : ORIGIN = 0x20000000, LENGTH = {ram}\n}}\n"
    );
    fs::write(out.join("memory.x"), memory).expect("write memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
}
