//! USART3 at 115200 8N1 on PB10 (TX) / PB11 (RX): the pyboard's Y9/Y10 pins, the
//! Feather STM32F405's TX/RX pins; QEMU's third serial port.
//!
//! Received bytes are moved by the USART3 interrupt into the shared receive queue
//! (`../cortex-m/rx.rs`); the USART holds one byte itself.

use sente_firmware::clock::SerialLink;

use crate::board::rx;
use crate::pac::{self, USART3, interrupt};

/// BRR for 115200 baud from APB1's 42 MHz: 42 MHz / 16 / 115200 = 22.79 → mantissa 22,
/// fraction 13/16 (115,068 baud, -0.1 %).
const BRR: u16 = (22 << 4) | 13;

/// The serial link to the host.
pub struct Uart {
    usart: USART3,
}

impl Uart {
    /// Clocks GPIOB and USART3, routes PB10/PB11 to it and starts it with its receive
    /// interrupt.
    pub fn new(usart: USART3, rcc: &pac::RCC, gpiob: &pac::GPIOB) -> Self {
        rcc.ahb1enr().modify(|_, w| w.gpioben().set_bit());
        rcc.apb1enr().modify(|_, w| w.usart3en().set_bit());
        gpiob.afrh().modify(|_, w| {
            w.afrh10().af7();
            w.afrh11().af7()
        });
        gpiob.pupdr().modify(|_, w| w.pupdr11().pull_up());
        gpiob.moder().modify(|_, w| {
            w.moder10().alternate();
            w.moder11().alternate()
        });
        // SAFETY: BRR takes any 16-bit divider; this one is computed above.
        usart.brr().write(|w| unsafe { w.bits(BRR) });
        usart.cr1().write(|w| {
            w.ue().set_bit();
            w.te().set_bit();
            w.re().set_bit();
            w.rxneie().set_bit()
        });
        // SAFETY: the USART3 handler below only touches the RX queue through a critical section.
        unsafe { cortex_m::peripheral::NVIC::unmask(pac::Interrupt::USART3) };
        Self { usart }
    }
}

impl SerialLink for Uart {
    fn read_byte(&mut self) -> Option<u8> {
        let (byte, resume) = rx::pop();
        if resume {
            // A byte still waits in DR (RXNE), so the handler runs again at once.
            // SAFETY: as in `new`.
            unsafe { cortex_m::peripheral::NVIC::unmask(pac::Interrupt::USART3) };
        }
        byte
    }

    fn write_bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            send(&self.usart, b);
        }
    }
}

/// Sends bytes straight through the USART registers, whatever state the link is in
/// (the panic and fault reports).
pub fn write_raw(bytes: &[u8]) {
    // SAFETY: memory-mapped USART3 registers, valid for the program's life; the fault
    // paths that call this restart the board right after, so nothing uses them concurrently.
    let usart = unsafe { &*USART3::ptr() };
    for &b in bytes {
        send(usart, b);
    }
}

/// Waits until the transmit register is empty and hands it one byte.
fn send(usart: &pac::usart1::RegisterBlock, byte: u8) {
    while usart.sr().read().txe().bit_is_clear() {}
    usart.dr().write(|w| w.dr().set(u16::from(byte)));
}

#[interrupt]
fn USART3() {
    // SAFETY: the register block is memory-mapped I/O, valid for the program's life;
    // only this handler reads DR.
    let usart = unsafe { &*USART3::ptr() };
    loop {
        let sr = usart.sr().read();
        if sr.ore().bit_is_set() {
            // Bytes were lost while we were paused; reading DR below clears the flag.
            rx::mark_overrun();
        }
        if sr.rxne().bit_is_clear() {
            if sr.ore().bit_is_set() {
                let _ = usart.dr().read();
            }
            return;
        }
        if !rx::has_room() {
            // Leave the byte in DR; `read_byte` resumes us when there is room. The
            // interrupt is masked in the NVIC rather than with RXNEIE: QEMU's USART keeps
            // its interrupt line raised after RXNEIE is cleared.
            cortex_m::peripheral::NVIC::mask(pac::Interrupt::USART3);
            rx::pause();
            return;
        }
        rx::push(usart.dr().read().dr().bits() as u8);
    }
}
