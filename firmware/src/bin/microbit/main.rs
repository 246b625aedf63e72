//! Sente firmware for the BBC micro:bit v1 (nRF51822, Cortex-M0, 16 MHz, 16 KB RAM).
//!
//! Board support only: the UART link, the SysTick clock and the painted-stack memory
//! probe, plus the panic and fault paths. Everything else is the `sente_firmware`
//! library's service loop, the very code the host runs as its engine.
#![no_std]
#![no_main]

mod clock;
mod fault;
mod memory;
mod uart;

use cortex_m_rt::entry;
use sente_firmware::engine::{Profile, REFERENCE_ARENA_WORDS};
use sente_firmware::service::Service;

/// Board name reported by `hello`.
const BOARD: &str = if cfg!(feature = "ram-2k") {
    "microbit-v1-2k"
} else {
    "microbit-v1"
};

/// Words of the engines' arena (the board profile's tables, `hello`'s `arena=`):
/// none in 2 KB, the reference size otherwise.
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
        fault::restart()
    };
    // Taken once, at reset: the arena lives in .bss for the firmware's whole life.
    let Some(arena) = cortex_m::singleton!(: [u64; ARENA_WORDS] = [0; ARENA_WORDS]) else {
        fault::restart()
    };
    clock::start_crystal(&p.CLOCK);
    let link = uart::Uart::new(p.UART0);
    let clock = clock::SysTickClock::new(core.SYST);
    let mut service = Service::new(
        link,
        clock,
        memory::PaintedStack,
        BOARD,
        Profile::Board,
        arena,
    );
    // Sleep until the next interrupt (UART byte or 1 ms tick) whenever idle.
    service.run(cortex_m::asm::wfi)
}
