//! UART0 at 115200 8N1 on the micro:bit's USB serial pins (TX P0.24, RX P0.25).
//!
//! Received bytes are moved by the UART0 interrupt into a small queue, so nothing is
//! lost while a search runs between polls (the nRF51 holds only 6 bytes itself).
//! When the queue is full the interrupt pauses and the bytes wait in the UART (in QEMU,
//! in the pty: nothing is lost); the service loop resumes it as it makes room. A
//! hardware overrun (a real UART overflowing while paused) is reported in-band.

use core::cell::RefCell;
use core::sync::atomic::{AtomicBool, Ordering};

use cortex_m::interrupt::{Mutex, free};
use nrf51_pac::{UART0, interrupt};
use sente_firmware::clock::SerialLink;

const TX_PIN: u32 = 24;
const RX_PIN: u32 = 25;
/// Bytes queued between the interrupt and the service loop.
const RX_QUEUE: usize = 64;
/// Delivered in place of bytes dropped on a full queue: not printable, so the line
/// they belonged to is answered `error bad-byte` instead of being served garbled.
const LOST: u8 = 0x18;

static RX: Mutex<RefCell<heapless::Deque<u8, RX_QUEUE>>> =
    Mutex::new(RefCell::new(heapless::Deque::new()));
static OVERRUN: AtomicBool = AtomicBool::new(false);
/// The receive interrupt is paused because the queue was full.
static PAUSED: AtomicBool = AtomicBool::new(false);

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
        let byte = free(|cs| RX.borrow(cs).borrow_mut().pop_front());
        if PAUSED.load(Ordering::Relaxed) && byte.is_some() {
            PAUSED.store(false, Ordering::Relaxed);
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

/// Sends one byte and waits until the UART has taken it.
pub fn send(uart: &nrf51_pac::uart0::RegisterBlock, byte: u8) {
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
        OVERRUN.store(true, Ordering::Relaxed);
    }
    while uart.events_rxdrdy.read().bits() != 0 {
        let full = free(|cs| {
            let rx = RX.borrow(cs).borrow();
            rx.capacity() - rx.len() < 2
        });
        if full {
            // Leave the byte in the UART; `read_byte` resumes us when there is room.
            uart.intenclr.write(|w| w.rxdrdy().set_bit());
            PAUSED.store(true, Ordering::Relaxed);
            return;
        }
        // Clear the event before reading RXD, or the next byte's event can be lost.
        // SAFETY: writing 0 clears the event.
        uart.events_rxdrdy.write(|w| unsafe { w.bits(0) });
        let byte = uart.rxd.read().bits() as u8;
        free(|cs| {
            let mut rx = RX.borrow(cs).borrow_mut();
            // Mark the gap left by bytes lost in the hardware where it is.
            if OVERRUN.load(Ordering::Relaxed) {
                let _ = rx.push_back(LOST);
                OVERRUN.store(false, Ordering::Relaxed);
            }
            let _ = rx.push_back(byte);
        });
    }
}
