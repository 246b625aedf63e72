//! Building a board's firmware and reporting its flash and RAM use from the ELF.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use object::{Object, ObjectSection, SectionKind};
use sente::boards::BoardSpec;

/// Flash and RAM use of a firmware image.
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    /// Bytes in flash: code, read-only data and the initial values of `.data`.
    pub flash: u64,
    /// Bytes of RAM taken by statics (`.data`, `.bss`, `.uninit`), the arena included.
    pub ram_static: u64,
}

/// Reads section sizes from the ELF.
pub fn sizes(elf: &Path) -> Result<Sizes> {
    let data = std::fs::read(elf).with_context(|| format!("reading {}", elf.display()))?;
    let file = object::File::parse(&*data).context("parsing the firmware ELF")?;
    let (mut flash, mut ram) = (0, 0);
    for section in file.sections() {
        let in_ram = (0x2000_0000..0x3000_0000).contains(&section.address());
        match section.kind() {
            SectionKind::Text | SectionKind::ReadOnlyData | SectionKind::ReadOnlyString => {
                flash += section.size()
            }
            SectionKind::Data if in_ram => {
                flash += section.size();
                ram += section.size();
            }
            SectionKind::UninitializedData | SectionKind::Data if in_ram => ram += section.size(),
            _ => {}
        }
    }
    Ok(Sizes {
        flash,
        ram_static: ram,
    })
}

/// Builds the board's firmware and prints its size; returns the ELF path.
pub fn build_and_report(board: &BoardSpec, ram_2k: bool) -> Result<PathBuf> {
    crate::setup::require_target(board.target)?;
    crate::setup::require_flip_link()?;
    println!(
        "building the {} firmware{} …",
        board.title,
        if ram_2k { " (RAM capped at 2 KB)" } else { "" }
    );
    let root = crate::root();
    let elf = sente::firmware::build(&root, board, ram_2k, true)?;
    let s = sizes(&elf)?;
    let ram_total = if ram_2k { 2048 } else { board.ram };
    println!(
        "firmware {}\n  flash  {:>7} bytes of {:>7} ({:.1} %)\n  RAM    {:>7} bytes of statics of {:>7} ({} of them the engines' arena); the rest, {} bytes, is stack",
        elf.strip_prefix(&root).unwrap_or(&elf).display(),
        s.flash,
        board.flash,
        100.0 * s.flash as f64 / f64::from(board.flash),
        s.ram_static,
        ram_total,
        if ram_2k { 0 } else { board.arena },
        u64::from(ram_total).saturating_sub(s.ram_static),
    );
    Ok(elf)
}

/// Builds every board's firmware (and the 2 KB builds) and prints their sizes; returns
/// each board with its ELF.
pub fn build_all() -> Result<Vec<(&'static BoardSpec, bool, PathBuf)>> {
    let mut built = Vec::new();
    for board in sente::boards::BOARDS {
        for ram_2k in [false, true] {
            if ram_2k && !board.ram_2k {
                continue;
            }
            built.push((board, ram_2k, build_and_report(board, ram_2k)?));
        }
    }
    Ok(built)
}
