//! Flashing a real micro:bit through its on-board DAPLink probe with the probe-rs library.

use std::path::Path;

use anyhow::{Context, Result, bail};
use probe_rs::Permissions;
use probe_rs::flashing::{ElfLoader, ElfOptions, download_file};
use probe_rs::probe::list::Lister;

/// The micro:bit v1's chip as probe-rs names it.
const CHIP: &str = "nRF51822_xxAA";

/// Flashes `elf`, resets the board and lets it run.
pub fn flash(elf: &Path) -> Result<()> {
    let probes = Lister::new().list_all();
    let Some(info) = probes.first() else {
        bail!(
            "no debug probe found: connect the micro:bit by USB (its on-board probe appears as \
             'DAPLink'/'MBED'); on Linux you may need udev rules for USB access"
        );
    };
    println!("flashing {} through {} …", elf.display(), info.identifier);
    let probe = info.open().context("opening the debug probe")?;
    // The firmware sleeps in WFI, which can stop a probe attaching: connect under reset.
    let mut session = probe
        .attach_under_reset(CHIP, Permissions::default())
        .context("attaching to the nRF51822 (is the board a micro:bit v1?)")?;
    download_file(&mut session, elf, ElfLoader(ElfOptions::default()))
        .context("programming flash")?;
    session.core(0)?.reset().context("resetting the board")?;
    println!("flashed and restarted");
    Ok(())
}
