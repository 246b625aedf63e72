//! Time on every Cortex-M board: SysTick counting core cycles at the board's `HZ`.
//!
//! SysTick reloads every millisecond (so WFI wakes at least every 1 ms); the interrupt
//! counts milliseconds and a read combines that count with the current SysTick value.

use core::cell::Cell;
use core::sync::atomic::{AtomicU32, Ordering};

use cortex_m::interrupt::{self, Mutex};
use cortex_m::peripheral::{SCB, SYST, syst::SystClkSource};
use cortex_m_rt::exception;
use sente_firmware::clock::Clock;

static MILLIS: AtomicU32 = AtomicU32::new(0);
/// Ticks moved out of the SysTick counter by [`SysTickClock::align`].
static BASE: Mutex<Cell<u64>> = Mutex::new(Cell::new(0));

/// SysTick as a monotonic tick counter at the core clock rate `HZ`.
pub struct SysTickClock<const HZ: u32> {
    _syst: SYST,
}

impl<const HZ: u32> SysTickClock<HZ> {
    const PER_MS: u32 = HZ / 1000;

    /// Starts SysTick with a 1 ms period and its interrupt.
    pub fn new(mut syst: SYST) -> Self {
        syst.set_clock_source(SystClkSource::Core);
        syst.set_reload(Self::PER_MS - 1);
        syst.clear_current();
        syst.enable_interrupt();
        syst.enable_counter();
        Self { _syst: syst }
    }

    fn elapsed_in_ms(current: u32) -> u64 {
        u64::from(Self::PER_MS - 1 - current)
    }
}

impl<const HZ: u32> Clock for SysTickClock<HZ> {
    fn ticks(&self) -> u64 {
        interrupt::free(|cs| {
            let mut current = SYST::get_current();
            let mut ms = MILLIS.load(Ordering::Relaxed);
            if SCB::is_pendst_pending() {
                // The counter wrapped but the interrupt has not run yet.
                ms = ms.wrapping_add(1);
                current = SYST::get_current();
            }
            BASE.borrow(cs).get()
                + u64::from(ms) * u64::from(Self::PER_MS)
                + Self::elapsed_in_ms(current)
        })
    }

    fn hz(&self) -> u32 {
        HZ
    }

    fn align(&self) {
        interrupt::free(|cs| {
            let base = BASE.borrow(cs);
            base.set(base.get() + Self::elapsed_in_ms(SYST::get_current()));
            // SAFETY: writing CVR only restarts the current period (the reload value
            // stays); the ticks it held were just moved into BASE.
            unsafe { (*SYST::PTR).cvr.write(0) };
        });
    }
}

#[exception]
fn SysTick() {
    // Only this handler writes MILLIS (thumbv6m has no atomic read-modify-write).
    MILLIS.store(
        MILLIS.load(Ordering::Relaxed).wrapping_add(1),
        Ordering::Relaxed,
    );
}
