//! Sente firmware for the BBC micro:bit v2 (nRF52833, Cortex-M4F, 64 MHz, 128 KB RAM).
//!
//! Board support only: the 64 MHz crystal and the UARTE link to the interface chip.
//! The SysTick clock, the painted-stack probe, the fault reports and the service loop
//! are the Cortex-M pieces every board shares (`../cortex-m`).
#![no_std]
#![no_main]

#[path = "../cortex-m/mod.rs"]
mod board;
mod uart;

use cortex_m_rt::entry;

/// Board name reported by `hello`.
const BOARD: &str = if cfg!(feature = "ram-2k") {
    "microbit-v2-2k"
} else {
    "microbit-v2"
};

/// Core clock: 64 MHz.
const HZ: u32 = 64_000_000;

/// Words of the engines' arena: 96 KB of the 128 KB RAM (the stack keeps the rest,
/// about 31 KB).
const ARENA_WORDS: usize = if cfg!(feature = "ram-2k") {
    0
} else {
    96 * 1024 / 8
};

#[entry]
fn main() -> ! {
    // `take` succeeds: this is the only call, made once at reset.
    let (Some(core), Some(p)) = (
        cortex_m::Peripherals::take(),
        nrf52833_pac::Peripherals::take(),
    ) else {
        board::fault::restart()
    };
    start_crystal(&p.CLOCK);
    let link = uart::Uart::new(p.UARTE0);
    board::serve::<_, HZ>(BOARD, link, core.SYST, board::arena())
}

/// Starts the 64 MHz crystal oscillator (the UARTE's baud rate needs it), waiting a
/// bounded time.
fn start_crystal(clock: &nrf52833_pac::CLOCK) {
    // SAFETY: writing 1 triggers the HFCLKSTART task.
    clock.tasks_hfclkstart.write(|w| unsafe { w.bits(1) });
    for _ in 0..1_000_000 {
        if clock.events_hfclkstarted.read().bits() != 0 {
            break;
        }
    }
}
