//! Writes the linker script for board builds (the linker does not find a `memory.x`
//! beside a workspace member, so it is written to `OUT_DIR`).
use std::{env, fs, path::PathBuf};

fn main() {
    let target = env::var("TARGET").unwrap_or_default();
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CARGO_FEATURE_RAM_2K");
    if !target.starts_with("thumb") {
        return;
    }
    let ram = if env::var_os("CARGO_FEATURE_RAM_2K").is_some() {
        "2K"
    } else {
        "16K"
    };
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let memory = format!(
        "/* BBC micro:bit v1: nRF51822, 256 KB flash, 16 KB RAM */\nMEMORY\n{{\n  FLASH : ORIGIN = 0x00000000, LENGTH = 256K\n  RAM : ORIGIN = 0x20000000, LENGTH = {ram}\n}}\n"
    );
    fs::write(out.join("memory.x"), memory).expect("write memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
}
