//! UARTE0 at 115200 8N1 to the interface chip's USB serial (TX P0.06, RX P1.08).
//!
//! The UARTE moves bytes by EasyDMA, which reads and writes RAM only: each byte is
//! received into a one-byte RAM buffer (the ENDRX interrupt moves it into the shared
//! receive queue, `../cortex-m/rx.rs`, and starts the next), and bytes to send are
//! copied into a RAM buffer first (string constants live in flash).

use core::cell::UnsafeCell;

use nrf52833_pac::{UARTE0, interrupt};
use sente_firmware::clock::SerialLink;

use crate::board::rx;

/// P0.06.
const TX_PIN: u32 = 6;
/// P1.08: port 1 (bit 5), pin 8.
const RX_PIN: u32 = (1 << 5) | 8;
/// Bytes sent per EasyDMA transfer.
const TX_CHUNK: usize = 16;

/// The one-byte receive buffer EasyDMA writes to.
struct RxBuffer(UnsafeCell<u8>);
// SAFETY: written by the UARTE's EasyDMA between STARTRX and ENDRX, read only by the
// UARTE0 handler after ENDRX and before the next STARTRX.
unsafe impl Sync for RxBuffer {}
static RX_BYTE: RxBuffer = RxBuffer(UnsafeCell::new(0));

/// The serial link to the host.
pub struct Uart {
    uarte: UARTE0,
}

impl Uart {
    /// Configures UARTE0, starts receiving and its receive interrupt.
    pub fn new(uarte: UARTE0) -> Self {
        // SAFETY: pin numbers and the baud-rate constant are valid values for these registers.
        uarte.psel.txd.write(|w| unsafe { w.bits(TX_PIN) });
        // SAFETY: as above.
        uarte.psel.rxd.write(|w| unsafe { w.bits(RX_PIN) });
        uarte.baudrate.write(|w| w.baudrate().baud115200());
        uarte
            .config
            .write(|w| w.hwfc().disabled().parity().excluded());
        uarte.enable.write(|w| w.enable().enabled());
        uarte
            .intenset
            .write(|w| w.endrx().set_bit().error().set_bit());
        start_rx(&uarte);
        // SAFETY: the UARTE0 handler below only touches the RX queue through a critical section.
        unsafe { cortex_m::peripheral::NVIC::unmask(nrf52833_pac::Interrupt::UARTE0_UART0) };
        Self { uarte }
    }
}

/// Receives the next byte into [`RX_BYTE`].
fn start_rx(uarte: &nrf52833_pac::uarte0::RegisterBlock) {
    // SAFETY: RX_BYTE is a static byte of RAM, as EasyDMA needs; MAXCNT 1 fits it.
    uarte
        .rxd
        .ptr
        .write(|w| unsafe { w.ptr().bits(RX_BYTE.0.get() as u32) });
    // SAFETY: as above.
    uarte.rxd.maxcnt.write(|w| unsafe { w.maxcnt().bits(1) });
    // SAFETY: writing 1 triggers the task.
    uarte.tasks_startrx.write(|w| unsafe { w.bits(1) });
}

impl SerialLink for Uart {
    fn read_byte(&mut self) -> Option<u8> {
        let (byte, resume) = rx::pop();
        if resume {
            // The receiver kept the bytes that came meanwhile in its FIFO.
            start_rx(&self.uarte);
        }
        byte
    }

    fn write_bytes(&mut self, bytes: &[u8]) {
        send(&self.uarte, bytes);
    }
}

/// Sends bytes straight through the UARTE registers, whatever state the link is in
/// (the panic and fault reports).
pub fn write_raw(bytes: &[u8]) {
    // SAFETY: memory-mapped UARTE0 registers, valid for the program's life; the fault
    // paths that call this restart the board right after, so nothing uses them concurrently.
    send(unsafe { &*UARTE0::ptr() }, bytes);
}

/// Sends `bytes` through EasyDMA from a RAM copy, a chunk at a time.
fn send(uarte: &nrf52833_pac::uarte0::RegisterBlock, bytes: &[u8]) {
    let mut buf = [0u8; TX_CHUNK];
    for chunk in bytes.chunks(TX_CHUNK) {
        buf[..chunk.len()].copy_from_slice(chunk);
        // SAFETY: `buf` is RAM on this stack, alive until ENDTX below; the count fits it.
        uarte
            .txd
            .ptr
            .write(|w| unsafe { w.ptr().bits(buf.as_ptr() as u32) });
        // SAFETY: as above.
        uarte
            .txd
            .maxcnt
            .write(|w| unsafe { w.maxcnt().bits(chunk.len() as u16) });
        // SAFETY: clearing an event and triggering a task are plain register writes.
        uarte.events_endtx.write(|w| unsafe { w.bits(0) });
        // SAFETY: as above.
        uarte.tasks_starttx.write(|w| unsafe { w.bits(1) });
        while uarte.events_endtx.read().bits() == 0 {}
        // The buffer is reused: EasyDMA must be done reading it.
        core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    }
}

#[interrupt]
fn UARTE0_UART0() {
    // SAFETY: the register block is memory-mapped I/O, valid for the program's life;
    // only this handler clears ENDRX and ERROR and reads RX_BYTE.
    let uarte = unsafe { &*UARTE0::ptr() };
    if uarte.events_error.read().bits() != 0 {
        // The receiver's FIFO overflowed while we were paused.
        // SAFETY: writing 0 clears the event; writing 1s clears the error flags.
        uarte.events_error.write(|w| unsafe { w.bits(0) });
        // SAFETY: as above.
        uarte.errorsrc.write(|w| unsafe { w.bits(0xF) });
        rx::mark_overrun();
    }
    if uarte.events_endrx.read().bits() != 0 {
        // SAFETY: writing 0 clears the event.
        uarte.events_endrx.write(|w| unsafe { w.bits(0) });
        if uarte.rxd.amount.read().bits() > 0 {
            core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
            // SAFETY: EasyDMA finished writing RX_BYTE (ENDRX) and starts again only below.
            rx::push(unsafe { core::ptr::read_volatile(RX_BYTE.0.get()) });
        }
        if rx::has_room() {
            start_rx(uarte);
        } else {
            // Bytes wait in the receiver's FIFO; `read_byte` starts it again.
            rx::pause();
        }
    }
}
