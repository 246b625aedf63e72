//! Writes the linker script for board builds: the memory map of the board whose feature
//! is enabled, from `boards/<board>/memory.x` (the linker does not find a `memory.x`
//! beside a workspace member, so it is written to `OUT_DIR`). With `ram-2k` the RAM
//! region is capped at 2 KB. Also writes `ram_bytes.rs`, the RAM the firmware has.
use std::{env, fs, path::PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=boards");
    let target = env::var("TARGET").unwrap_or_default();
    if !target.starts_with("thumb") {
        return;
    }
    let dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    // The board is the one folder of boards/ whose name is an enabled feature.
    let mut boards: Vec<String> = fs::read_dir(dir.join("boards"))
        .expect("firmware/boards")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("memory.x").exists())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| {
            let feature = format!("CARGO_FEATURE_{}", name.to_uppercase().replace('-', "_"));
            env::var_os(feature).is_some()
        })
        .collect();
    boards.sort();
    let board = match boards.as_slice() {
        [] => return, // the library alone, for the board's target: no linker script needed
        [one] => one.clone(),
        many => panic!("one board at a time, not {many:?}"),
    };
    let memory =
        fs::read_to_string(dir.join("boards").join(&board).join("memory.x")).expect("memory.x");
    let ram_2k = env::var_os("CARGO_FEATURE_RAM_2K").is_some();
    let mut ram_bytes = None;
    let memory: String = memory
        .lines()
        .map(|line| {
            let region = line.trim_start();
            if !region.starts_with("RAM ") && !region.starts_with("RAM:") {
                return format!("{line}\n");
            }
            let (head, length) = region
                .split_once("LENGTH")
                .expect("RAM line with LENGTH = …");
            let length = length.trim_start_matches([' ', '=']).trim();
            ram_bytes = Some(if ram_2k { 2048 } else { size(length) });
            if ram_2k {
                format!("  {head}LENGTH = 2K\n")
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    let ram_bytes = ram_bytes.expect("memory.x has a RAM region");
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    fs::write(out.join("memory.x"), memory).expect("write memory.x");
    fs::write(out.join("ram_bytes.rs"), format!("{ram_bytes}")).expect("write ram_bytes.rs");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
}

/// `16K`, `264K`, `0x800`, `2048` in bytes.
fn size(text: &str) -> u32 {
    let text = text.trim();
    let (digits, scale) = match text.strip_suffix('K') {
        Some(d) => (d, 1024),
        None => match text.strip_suffix('M') {
            Some(d) => (d, 1024 * 1024),
            None => (text, 1),
        },
    };
    let value = match digits.strip_prefix("0x") {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => digits.parse(),
    };
    value.unwrap_or_else(|_| panic!("cannot read the RAM length {text:?}")) * scale
}
