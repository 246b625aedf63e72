//! The panic and hard-fault paths: report over the UART, then restart the board.
//!
//! The host sees `error panic …` or `error hardfault …` and, a moment later, a board
//! that answers again (requests carry their whole state, so nothing is lost).

use core::fmt::{self, Write};
use core::panic::PanicInfo;

use cortex_m_rt::{ExceptionFrame, exception};

/// Writes straight to the UART registers: the `Uart` value may be mid-use.
struct RawUart;

impl Write for RawUart {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // SAFETY: memory-mapped UART0 registers, valid for the program's life; the
        // program is about to restart, so nothing else uses them concurrently.
        let uart = unsafe { &*nrf51_pac::UART0::ptr() };
        for b in s.bytes() {
            crate::uart::send(uart, b);
        }
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
    let _ = write!(RawUart, "\nerror panic {}\n", info.message());
    restart()
}

#[exception]
unsafe fn HardFault(frame: &ExceptionFrame) -> ! {
    let _ = write!(RawUart, "\nerror hardfault pc={:#010x}\n", frame.pc());
    restart()
}
