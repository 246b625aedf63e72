//! Flashing a real board through a debug probe with the probe-rs library.

use std::path::Path;

use anyhow::{Context, Result, bail};
use probe_rs::Permissions;
use probe_rs::flashing::{ElfLoader, ElfOptions, download_file};
use probe_rs::probe::list::Lister;
use sente::boards::BoardSpec;

/// Flashes `elf` to `board`, resets it and lets it run.
pub fn flash(board: &BoardSpec, elf: &Path) -> Result<()> {
    let probes = Lister::new().list_all();
    let Some(info) = probes.first() else {
        bail!(
            "no debug probe found: connect the {} by USB (or its debug probe); on Linux you \
             may need udev rules for USB access (see the README's section on the board)",
            board.title
        );
    };
    println!("flashing {} through {} …", elf.display(), info.identifier);
    let probe = info.open().context("opening the debug probe")?;
    // The firmware sleeps in WFI, which can stop a probe attaching: connect under reset.
    let mut session = probe
        .attach_under_reset(board.probe, Permissions::default())
        .with_context(|| {
            format!(
                "attaching to the {} (is the board a {}?)",
                board.chip, board.title
            )
        })?;
    download_file(&mut session, elf, ElfLoader(ElfOptions::default()))
        .context("programming flash")?;
    session.core(0)?.reset().context("resetting the board")?;
    println!("flashed and restarted");
    Ok(())
}
