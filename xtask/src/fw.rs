//! Building the firmware and reporting its flash and RAM use from the ELF.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use object::{Object, ObjectSection, SectionKind};

/// micro:bit v1 flash and RAM sizes.
const FLASH: u64 = 256 * 1024;

/// Flash and RAM use of a firmware image.
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    /// Bytes in flash: code, read-only data and the initial values of `.data`.
    pub flash: u64,
    /// Bytes of RAM taken by statics (`.data`, `.bss`, `.uninit`).
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

/// Builds the firmware and prints its size; returns the ELF path.
pub fn build_and_report(ram_2k: bool) -> Result<PathBuf> {
    crate::setup::require_target()?;
    crate::setup::require_flip_link()?;
    println!(
        "building firmware{} …",
        if ram_2k { " (RAM capped at 2 KB)" } else { "" }
    );
    let elf = sente::sim::build_firmware(ram_2k)?;
    let s = sizes(&elf)?;
    let ram_total = if ram_2k { 2048 } else { 16 * 1024 };
    println!(
        "firmware {}\n  flash  {:>7} bytes of {:>6} ({:.1} %)\n  RAM    {:>7} bytes of statics of {:>6}; the rest is stack",
        elf.display(),
        s.flash,
        FLASH,
        100.0 * s.flash as f64 / FLASH as f64,
        s.ram_static,
        ram_total
    );
    Ok(elf)
}
