//! Sente firmware for the Raspberry Pi Pico (RP2040, Cortex-M0+, 125 MHz, 264 KB RAM).
//!
//! Board support only: the second-stage bootloader, the clock tree (12 MHz crystal →
//! PLL → 125 MHz) and UART0 on GP0 (TX) / GP1 (RX). The SysTick clock, the
//! painted-stack probe, the fault reports and the service loop are the Cortex-M pieces
//! every board shares (`../cortex-m`). Core 1 is not used.
#![no_std]
#![no_main]

#[path = "../cortex-m/mod.rs"]
mod board;
mod clocks;
mod uart;

use cortex_m_rt::entry;
use rp2040_pac as pac;

/// The second-stage bootloader for the Pico's W25Q080 flash, placed by memory.x.
#[unsafe(link_section = ".boot2")]
#[used]
pub static BOOT2_FIRMWARE: [u8; 256] = rp2040_boot2::BOOT_LOADER_W25Q080;

/// Board name reported by `hello`.
const BOARD: &str = if cfg!(feature = "ram-2k") {
    "pico-2k"
} else {
    "pico"
};

/// Core clock: 125 MHz from the system PLL.
const HZ: u32 = clocks::SYS_HZ;

/// Words of the engines' arena: 192 KB of the 264 KB RAM (the stack keeps the rest,
/// about 71 KB).
const ARENA_WORDS: usize = if cfg!(feature = "ram-2k") {
    0
} else {
    192 * 1024 / 8
};

#[entry]
fn main() -> ! {
    // `take` succeeds: this is the only call, made once at reset.
    let (Some(core), Some(p)) = (cortex_m::Peripherals::take(), pac::Peripherals::take()) else {
        board::fault::restart()
    };
    clocks::start(&p.XOSC, &p.CLOCKS, &p.RESETS, &p.PLL_SYS);
    let link = uart::Uart::new(p.UART0, &p.RESETS, &p.IO_BANK0, &p.PADS_BANK0);
    board::serve::<_, HZ>(BOARD, link, core.SYST, board::arena())
}
