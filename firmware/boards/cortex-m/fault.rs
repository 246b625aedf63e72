//! The panic and hard-fault paths: report over the serial line, then restart the board.
//!
//! The host sees `error panic …` or `error hardfault …` and, a moment later, a board
//! that answers again (requests carry their whole state, so nothing is lost).
//!
//! # Stack overflows
//!
//! The firmware is linked with flip-link, which puts the stack *below* the statics: a
//! stack that overflows runs off the bottom of RAM and faults instead of silently
//! overwriting them. The core then stacks the exception frame below RAM too, so the
//! frame is lost and the stack pointer is useless: a handler that pushed anything would
//! fault again, inside the hard-fault handler, which locks the core up (QEMU stops with
//! `Lockup`). So the `HardFault` entry is a few instructions of assembly that push
//! nothing: they read the stacked PC if the frame lies inside the stack, then move the
//! main stack pointer back to the top of the stack and call [`sente_hard_fault`], which
//! reports on a fresh stack.

use core::fmt::{self, Write};
use core::panic::PanicInfo;

/// Writes straight to the serial hardware: the link value may be mid-use.
struct Raw;

impl Write for Raw {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        crate::uart::write_raw(s.as_bytes());
        Ok(())
    }
}

/// Restarts the board (system reset request).
pub fn restart() -> ! {
    cortex_m::peripheral::SCB::sys_reset()
}

#[panic_handler]
fn panic(info: &PanicInfo<'_>) -> ! {
    cortex_m::interrupt::disable();
    let _ = write!(Raw, "\nerror panic {}\n", info.message());
    restart()
}

// The vector table's HardFault entry (cortex-m-rt takes a `HardFault` symbol defined by
// the program in place of its own). r0 = stack pointer at the fault (where the frame
// was stacked), r1 = the stacked PC, or 0 when the frame lies below the stack (an
// overflow: the core could not write it). Valid on ARMv6-M and ARMv7-M alike.
core::arch::global_asm!(
    ".section .HardFault.user, \"ax\", %progbits",
    ".global HardFault",
    ".type HardFault, %function",
    ".thumb_func",
    "HardFault:",
    "    mrs   r0, msp",
    "    movs  r1, #0",
    "    ldr   r2, =_stack_end",
    "    cmp   r0, r2",
    "    blo   1f",
    "    ldr   r1, [r0, #24]",
    "1:",
    "    ldr   r2, =_stack_start",
    "    msr   msp, r2",
    "    bl    sente_hard_fault",
    "    .ltorg",
    ".size HardFault, . - HardFault",
);

/// Reports a hard fault (on the fresh stack the `HardFault` entry set up) and restarts:
/// `error hardfault pc=… sp=…`, or `error hardfault stack overflow sp=…` when the
/// stack pointer had left the stack.
#[unsafe(no_mangle)]
extern "C" fn sente_hard_fault(sp: u32, pc: u32) -> ! {
    cortex_m::interrupt::disable();
    let _ = if pc == 0 {
        write!(Raw, "\nerror hardfault stack overflow sp={sp:#010x}\n")
    } else {
        write!(Raw, "\nerror hardfault pc={pc:#010x} sp={sp:#010x}\n")
    };
    restart()
}
