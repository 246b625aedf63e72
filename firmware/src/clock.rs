//! The board's view of time, memory and the serial link: small traits so the
//! service loop runs unchanged on the micro:bit, in QEMU and on the host.

/// A monotonic tick counter (SysTick on the board, `Instant` on the host).
pub trait Clock {
    /// Ticks since some fixed point; never goes backwards.
    fn ticks(&self) -> u64;
    /// Ticks per second (16,000,000 on the micro:bit).
    fn hz(&self) -> u32;
    /// Called just before a measurement starts. A clock with a periodic interrupt
    /// restarts its period here, so the same work always measures the same ticks
    /// (in QEMU with a fixed `-icount`, exactly).
    fn align(&self) {}
}

/// Measures memory: the stack high-water mark of a request and the RAM size.
pub trait MemoryProbe {
    /// Starts a new measurement (re-paints the free stack on the board).
    fn begin(&mut self);
    /// Peak stack bytes used since [`MemoryProbe::begin`] (0 where it cannot be measured).
    fn peak_stack(&self) -> u32;
    /// Bytes of RAM the firmware has in total (statics + stack).
    fn ram_bytes(&self) -> u32;
    /// Bytes of RAM taken by statics (`.data` + `.bss`).
    fn static_bytes(&self) -> u32;
}

/// A byte-oriented serial link.
pub trait SerialLink {
    /// One received byte, if any is waiting (never blocks).
    fn read_byte(&mut self) -> Option<u8>;
    /// Sends bytes (blocks until they are handed to the hardware).
    fn write_bytes(&mut self, bytes: &[u8]);
}

/// A clock that never advances: deterministic hosts and tests that use no time limits.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrozenClock;

impl Clock for FrozenClock {
    fn ticks(&self) -> u64 {
        0
    }
    fn hz(&self) -> u32 {
        1_000
    }
}
