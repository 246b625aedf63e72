//! UART0 at 115200 8N1 on GP0 (TX) / GP1 (RX), wired to the Raspberry Pi Debug Probe's
//! serial bridge (its UART RX to GP0, TX to GP1).
//!
//! Received bytes are moved by the UART0 interrupt into the shared receive queue
//! (`../cortex-m/rx.rs`); the UART's own FIFO holds 32 more.

use rp2040_pac as pac;
use rp2040_pac::{UART0, interrupt};
use sente_firmware::clock::SerialLink;

use crate::board::rx;
use crate::clocks::SYS_HZ;

/// Baud-rate divisor 125 MHz / (16 × 115200) = 67.817: integer 67, fraction 52/64.
const IBRD: u32 = SYS_HZ / (16 * 115_200);
const FBRD: u32 = ((SYS_HZ % (16 * 115_200)) * 64 + 8 * 115_200) / (16 * 115_200);

/// The serial link to the host.
pub struct Uart {
    uart: UART0,
}

impl Uart {
    /// Takes UART0 and the GPIO banks out of reset, routes GP0/GP1 to UART0 and starts
    /// it with its receive interrupts.
    pub fn new(
        uart: UART0,
        resets: &pac::RESETS,
        io: &pac::IO_BANK0,
        pads: &pac::PADS_BANK0,
    ) -> Self {
        resets.reset().modify(|_, w| {
            w.uart0().clear_bit();
            w.io_bank0().clear_bit();
            w.pads_bank0().clear_bit()
        });
        while {
            let done = resets.reset_done().read();
            done.uart0().bit_is_clear()
                || done.io_bank0().bit_is_clear()
                || done.pads_bank0().bit_is_clear()
        } {}
        pads.gpio(1).modify(|_, w| w.ie().set_bit().pue().set_bit());
        io.gpio(0).gpio_ctrl().write(|w| w.funcsel().uart());
        io.gpio(1).gpio_ctrl().write(|w| w.funcsel().uart());
        // SAFETY: the divisors are computed above and fit their fields.
        uart.uartibrd().write(|w| unsafe { w.bits(IBRD) });
        // SAFETY: as above.
        uart.uartfbrd().write(|w| unsafe { w.bits(FBRD) });
        // 8 bits, FIFOs on (writing LCR_H latches the divisors).
        // SAFETY: 3 is the 8-bit word length.
        uart.uartlcr_h()
            .write(|w| unsafe { w.wlen().bits(3) }.fen().set_bit());
        uart.uartcr()
            .write(|w| w.uarten().set_bit().txe().set_bit().rxe().set_bit());
        // A byte in the receive FIFO (or one left there a while) raises the interrupt.
        uart.uartimsc()
            .write(|w| w.rxim().set_bit().rtim().set_bit());
        // SAFETY: the UART0 handler below only touches the RX queue through a critical section.
        unsafe { cortex_m::peripheral::NVIC::unmask(pac::Interrupt::UART0_IRQ) };
        Self { uart }
    }
}

impl SerialLink for Uart {
    fn read_byte(&mut self) -> Option<u8> {
        let (byte, resume) = rx::pop();
        if resume {
            // Bytes still wait in the FIFO, so the handler runs again at once.
            self.uart
                .uartimsc()
                .write(|w| w.rxim().set_bit().rtim().set_bit());
        }
        byte
    }

    fn write_bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            send(&self.uart, b);
        }
    }
}

/// Sends bytes straight through the UART registers, whatever state the link is in
/// (the panic and fault reports).
pub fn write_raw(bytes: &[u8]) {
    // SAFETY: memory-mapped UART0 registers, valid for the program's life; the fault
    // paths that call this restart the board right after, so nothing uses them concurrently.
    let uart = unsafe { &*UART0::ptr() };
    for &b in bytes {
        send(uart, b);
    }
}

/// Waits for room in the transmit FIFO and queues one byte.
fn send(uart: &pac::uart0::RegisterBlock, byte: u8) {
    while uart.uartfr().read().txff().bit_is_set() {}
    // SAFETY: any byte is valid data.
    uart.uartdr().write(|w| unsafe { w.data().bits(byte) });
}

#[interrupt]
fn UART0_IRQ() {
    // SAFETY: the register block is memory-mapped I/O, valid for the program's life;
    // only this handler reads the data register.
    let uart = unsafe { &*UART0::ptr() };
    while uart.uartfr().read().rxfe().bit_is_clear() {
        if !rx::has_room() {
            // Leave the bytes in the FIFO; `read_byte` resumes us when there is room.
            uart.uartimsc()
                .write(|w| w.rxim().clear_bit().rtim().clear_bit());
            rx::pause();
            return;
        }
        let data = uart.uartdr().read();
        if data.oe().bit_is_set() {
            // The FIFO overflowed while we were paused.
            rx::mark_overrun();
        }
        rx::push(data.data().bits());
    }
}
