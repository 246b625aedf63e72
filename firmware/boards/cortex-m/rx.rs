//! The receive queue between a board's UART interrupt and the service loop, so nothing
//! is lost while a search runs between polls (UARTs hold only a few bytes themselves).
//!
//! The interrupt [`push`]es bytes while [`has_room`]; when the queue is full it masks
//! its receive interrupt and calls [`pause`], leaving the bytes in the UART (in QEMU,
//! in the pty: nothing is lost). [`pop`] says when to unmask it again. A hardware
//! overrun (a real UART overflowing while paused) is [`mark_overrun`]ed and delivered
//! in-band as [`LOST`], so the line it hit is answered `error bad-byte` instead of
//! being served garbled.

use core::cell::RefCell;
use core::sync::atomic::{AtomicBool, Ordering};

use cortex_m::interrupt::{Mutex, free};

/// Bytes queued. The 2 KB build keeps a short queue: its RAM goes to the stack (a
/// request is one line the host sends and then waits, so a few bytes suffice; a `stop`
/// during a search is 5).
const RX_QUEUE: usize = if cfg!(feature = "ram-2k") { 8 } else { 64 };

/// Delivered in place of bytes dropped by the hardware: not printable.
pub const LOST: u8 = 0x18;

static RX: Mutex<RefCell<heapless::Deque<u8, RX_QUEUE>>> =
    Mutex::new(RefCell::new(heapless::Deque::new()));
static OVERRUN: AtomicBool = AtomicBool::new(false);
/// The receive interrupt is masked because the queue was full.
static PAUSED: AtomicBool = AtomicBool::new(false);

/// Whether the queue takes another byte (and a [`LOST`] marker before it).
pub fn has_room() -> bool {
    free(|cs| {
        let rx = RX.borrow(cs).borrow();
        rx.capacity() - rx.len() >= 2
    })
}

/// Queues a received byte (after a [`LOST`] marker if the hardware overran).
pub fn push(byte: u8) {
    free(|cs| {
        let mut rx = RX.borrow(cs).borrow_mut();
        if OVERRUN.load(Ordering::Relaxed) {
            let _ = rx.push_back(LOST);
            OVERRUN.store(false, Ordering::Relaxed);
        }
        let _ = rx.push_back(byte);
    });
}

/// The hardware dropped bytes (an overrun while paused).
pub fn mark_overrun() {
    OVERRUN.store(true, Ordering::Relaxed);
}

/// The interrupt masked itself: the queue is full.
pub fn pause() {
    PAUSED.store(true, Ordering::Relaxed);
}

/// The next queued byte, and whether the receive interrupt must be unmasked now (it
/// was paused and there is room again).
pub fn pop() -> (Option<u8>, bool) {
    let byte = free(|cs| RX.borrow(cs).borrow_mut().pop_front());
    let resume = byte.is_some() && PAUSED.load(Ordering::Relaxed);
    if resume {
        PAUSED.store(false, Ordering::Relaxed);
    }
    (byte, resume)
}
