//! UART0 at 115200 8N1 on the micro:bit's USB serial pins (TX P0.24, RX P0.25).
//!
//! Received bytes are moved by the UART0 interrupt into the shared receive queue
//! (`../cortex-m/rx.rs`); the nRF51 holds only 6 bytes itself.

use nrf51_pac::{UART0, interrupt};
use sente_firmware::clock::SerialLink;

use crate::board::rx;

const TX_PIN: u32 = 24;
const RX_PIN: u32 = 25;

/// The serial link to the host.
pub struct Uart {
    uart: UART0,
}

impl Uart {
    /// Configures and starts UART0 and its receive interrupt.
    pub fn new(uart: UART0) -> Self {
        // SAFETY: pin numbers and the baud-rate constant are valid values for these registers.
        uart.pseltxd.write(|w| unsafe { w.bits(TX_PIN) });
        // SAFETY: as above.
        uart.pselrxd.write(|w| unsafe { w.bits(RX_PIN) });
        uart.baudrate.write(|w| w.baudrate().baud115200());
        uart.enable.write(|w| w.enable().enabled());
        // SAFETY: writing 1 triggers the task, as the reference manual specifies.
        uart.tasks_starttx.write(|w| unsafe { w.bits(1) });
        // SAFETY: as above.
        uart.tasks_startrx.write(|w| unsafe { w.bits(1) });
        uart.intenset.write(|w| w.rxdrdy().set_bit());
        // SAFETY: the UART0 handler below only touches the RX queue through a critical section.
        unsafe { cortex_m::peripheral::NVIC::unmask(nrf51_pac::Interrupt::UART0) };
        Self { uart }
    }
}

impl SerialLink for Uart {
    fn read_byte(&mut self) -> Option<u8> {
        let (byte, resume) = rx::pop();
        if resume {
            // The RXDRDY event is still pending, so the handler runs again at once.
            self.uart.intenset.write(|w| w.rxdrdy().set_bit());
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

/// Sends one byte and waits until the UART has taken it.
fn send(uart: &nrf51_pac::uart0::RegisterBlock, byte: u8) {
    // SAFETY: clearing an event register and writing a data byte are plain register writes.
    uart.events_txdrdy.write(|w| unsafe { w.bits(0) });
    // SAFETY: as above.
    uart.txd.write(|w| unsafe { w.bits(u32::from(byte)) });
    while uart.events_txdrdy.read().bits() == 0 {}
}

#[interrupt]
fn UART0() {
    // SAFETY: the register block is memory-mapped I/O, valid for the program's life;
    // only this handler reads RXD and clears RXDRDY and ERROR.
    let uart = unsafe { &*UART0::ptr() };
    if uart.events_error.read().bits() != 0 {
        // A real UART overflowed its 6-byte FIFO while we were paused.
        // SAFETY: writing 0 clears the event; writing 1s clears the error flags.
        uart.events_error.write(|w| unsafe { w.bits(0) });
        // SAFETY: as above.
        uart.errorsrc.write(|w| unsafe { w.bits(0xF) });
        rx::mark_overrun();
    }
    while uart.events_rxdrdy.read().bits() != 0 {
        if !rx::has_room() {
            // Leave the byte in the UART; `read_byte` resumes us when there is room.
            uart.intenclr.write(|w| w.rxdrdy().set_bit());
            rx::pause();
            return;
        }
        // Clear the event before reading RXD, or the next byte's event can be lost.
        // SAFETY: writing 0 clears the event.
        uart.events_rxdrdy.write(|w| unsafe { w.bits(0) });
        rx::push(uart.rxd.read().bits() as u8);
    }
}
