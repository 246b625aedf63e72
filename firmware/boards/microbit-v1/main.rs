//! Sente firmware for the BBC micro:bit v1 (nRF51822, Cortex-M0, 16 MHz, 16 KB RAM).
//!
//! Board support only: the UART link and the 16 MHz crystal. The SysTick clock, the
//! painted-stack probe, the fault reports and the service loop are the Cortex-M pieces
//! every board shares (`../cortex-m`); everything else is the `sente_firmware` library,
//! the very code the host runs as its engine.
#![no_std]
#![no_main]

#[path = "../cortex-m/mod.rs"]
mod board;
mod uart;

use cortex_m_rt::entry;
use sente_firmware::engine::REFERENCE_ARENA_WORDS;

/// Board name reported by `hello`.
const BOARD: &str = if cfg!(feature = "ram-2k") {
    "microbit-v1-2k"
} else {
    "microbit-v1"
};

/// Core clock: the 16 MHz crystal.
const HZ: u32 = 16_000_000;

/// Words of the engines' arena (the board profile's tables, `hello`'s `arena=`): the
/// reference size (6 KB of the 16 KB RAM), none in the 2 KB build.
const ARENA_WORDS: usize = if cfg!(feature = "ram-2k") {
    0
} else {
    REFERENCE_ARENA_WORDS
};

#[entry]
fn main() -> ! {
    // `take` succeeds: this is the only call, made once at reset.
    let (Some(core), Some(p)) = (
        cortex_m::Peripherals::take(),
        nrf51_pac::Peripherals::take(),
    ) else {
        board::fault::restart()
    };
    start_crystal(&p.CLOCK);
    let link = uart::Uart::new(p.UART0);
    board::serve::<_, HZ>(BOARD, link, core.SYST, board::arena())
}

/// Starts the 16 MHz crystal oscillator (the UART needs an accurate clock on real
/// hardware), waiting a bounded time: QEMU does not model the oscillator.
fn start_crystal(clock: &nrf51_pac::CLOCK) {
    // SAFETY: writing 1 triggers the HFCLKSTART task.
    clock.tasks_hfclkstart.write(|w| unsafe { w.bits(1) });
    for _ in 0..100_000 {
        if clock.events_hfclkstarted.read().bits() != 0 {
            break;
        }
    }
}
