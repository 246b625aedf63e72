//! Sente firmware for STM32F405 boards (Cortex-M4F, 168 MHz, 128 KB RAM): the
//! MicroPython pyboard v1.1 and the Adafruit Feather STM32F405, both with a 12 MHz
//! crystal; QEMU emulates the chip as its `netduinoplus2` machine.
//!
//! Board support only: the clock tree (12 MHz crystal → PLL → 168 MHz) and USART3 on
//! PB10 (TX) / PB11 (RX). The SysTick clock, the painted-stack probe, the fault
//! reports and the service loop are the Cortex-M pieces every board shares.
#![no_std]
#![no_main]

#[path = "../cortex-m/mod.rs"]
mod board;
mod uart;

use cortex_m_rt::entry;
use stm32f4::stm32f405 as pac;

/// Board name reported by `hello`.
const BOARD: &str = if cfg!(feature = "ram-2k") {
    "stm32f405-2k"
} else {
    "stm32f405"
};

/// Core clock: 168 MHz from the PLL.
const HZ: u32 = 168_000_000;

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
    let (Some(core), Some(p)) = (cortex_m::Peripherals::take(), pac::Peripherals::take()) else {
        board::fault::restart()
    };
    start_clocks(&p.RCC, &p.FLASH);
    let link = uart::Uart::new(p.USART3, &p.RCC, &p.GPIOB);
    board::serve::<_, HZ>(BOARD, link, core.SYST, board::arena())
}

/// Waits for `ready` a bounded time: QEMU does not model the clock tree (its RCC reads
/// as zeros), and a real board's crystal and PLL are ready long before the bound.
fn wait(ready: impl Fn() -> bool) {
    for _ in 0..200_000 {
        if ready() {
            return;
        }
    }
}

/// 12 MHz crystal (HSE) → PLL (/12 ×336 /2) → 168 MHz SYSCLK; AHB 168 MHz, APB1 42 MHz
/// (USART3's clock), APB2 84 MHz; flash at 5 wait states with caches and prefetch.
fn start_clocks(rcc: &pac::RCC, flash: &pac::FLASH) {
    rcc.cr().modify(|_, w| w.hseon().set_bit());
    wait(|| rcc.cr().read().hserdy().bit_is_set());
    flash.acr().write(|w| {
        w.latency().ws5();
        w.prften().set_bit();
        w.icen().set_bit();
        w.dcen().set_bit()
    });
    // SAFETY: /12, ×336 and /7 are within the dividers' ranges (/2..63, ×50..432, /2..15).
    rcc.pllcfgr().write(|w| unsafe {
        w.pllsrc().hse();
        w.pllm().bits(12);
        w.plln().bits(336);
        w.pllp().div2();
        w.pllq().bits(7)
    });
    rcc.cr().modify(|_, w| w.pllon().set_bit());
    wait(|| rcc.cr().read().pllrdy().bit_is_set());
    rcc.cfgr().modify(|_, w| {
        w.hpre().div1();
        w.ppre1().div4();
        w.ppre2().div2()
    });
    rcc.cfgr().modify(|_, w| w.sw().pll());
    wait(|| rcc.cfgr().read().sws().is_pll());
}
