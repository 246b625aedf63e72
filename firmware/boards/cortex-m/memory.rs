//! RAM use: statics from the linker's symbols, peak stack from a painted stack.
//!
//! cortex-m-rt's `paint-stack` fills the stack with [`PAINT`] at reset; before each
//! request the free part is painted again, and afterwards the lowest overwritten word
//! gives the request's peak stack (measured from the top of the stack, so it includes
//! the service loop's own frames).

use cortex_m_rt::STACK_PAINT_VALUE as PAINT;
use sente_firmware::clock::MemoryProbe;

/// RAM the linker script gives the firmware (see build.rs).
const RAM_TOTAL: u32 = super::RAM_BYTES;
/// Words just below the stack pointer left alone when repainting (this function's frame).
const MARGIN: u32 = 64;

unsafe extern "C" {
    static _stack_start: u32;
    static _stack_end: u32;
}

fn stack_top() -> u32 {
    (&raw const _stack_start) as u32
}

fn stack_bottom() -> u32 {
    (&raw const _stack_end) as u32
}

/// The painted-stack probe.
pub struct PaintedStack;

impl MemoryProbe for PaintedStack {
    fn begin(&mut self) {
        let sp = cortex_m::register::msp::read();
        let mut addr = stack_bottom();
        while addr + MARGIN < sp {
            // SAFETY: [stack bottom, sp - MARGIN) is free stack, owned by nobody:
            // live frames are all above the stack pointer, and an interrupt that
            // pushes a frame there meanwhile only marks more words as used.
            unsafe { core::ptr::write_volatile(addr as *mut u32, PAINT) };
            addr += 4;
        }
    }

    fn peak_stack(&self) -> u32 {
        let mut addr = stack_bottom();
        let top = stack_top();
        // SAFETY: every address read is a word of RAM inside the stack region.
        while addr < top && unsafe { core::ptr::read_volatile(addr as *const u32) } == PAINT {
            addr += 4;
        }
        top - addr
    }

    fn ram_bytes(&self) -> u32 {
        RAM_TOTAL
    }

    /// Everything that is not stack. With flip-link the stack sits below the statics
    /// (an overflow faults instead of corrupting them), so this is computed from the
    /// stack's size rather than from where it starts.
    fn static_bytes(&self) -> u32 {
        RAM_TOTAL - (stack_top() - stack_bottom())
    }
}
