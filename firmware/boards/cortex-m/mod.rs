//! What every Cortex-M board shares, written once: the SysTick clock, the painted-stack
//! memory probe, the panic and hard-fault reports, the engines' arena and the service
//! loop with WFI.
//!
//! A board's `main.rs` includes this folder as a module (`#[path = "../cortex-m/mod.rs"]`)
//! and provides what differs: its name, clock rate, serial link and a `uart::write_raw`
//! function the fault paths write through (see `firmware/boards/README.md`).

pub mod clock;
pub mod fault;
pub mod memory;
pub mod rx;

use sente_firmware::clock::SerialLink;
use sente_firmware::engine::Profile;
use sente_firmware::service::Service;

/// Bytes of RAM the linker script gives the firmware (the board's `memory.x`, or 2 KB
/// with the `ram-2k` feature), written by build.rs.
pub const RAM_BYTES: u32 = include!(concat!(env!("OUT_DIR"), "/ram_bytes.rs"));

/// The engines' arena: the board's `ARENA_WORDS` 64-bit words in `.bss` (zeroed at
/// reset, never built on the stack), handed out once.
pub fn arena() -> &'static mut [u64] {
    use core::cell::UnsafeCell;
    use core::sync::atomic::{AtomicBool, Ordering};
    struct Arena(UnsafeCell<[u64; crate::ARENA_WORDS]>);
    // SAFETY: the only access is the one `&mut` handed out below, once.
    unsafe impl Sync for Arena {}
    static ARENA: Arena = Arena(UnsafeCell::new([0; crate::ARENA_WORDS]));
    static TAKEN: AtomicBool = AtomicBool::new(false);
    // Taking it twice would alias: the board support calls this once, at reset.
    // (load and store: thumbv6m has no atomic swap; this runs before any interrupt.)
    if TAKEN.load(Ordering::Relaxed) {
        fault::restart()
    }
    TAKEN.store(true, Ordering::Relaxed);
    // SAFETY: TAKEN guarantees this is the only reference ever made to ARENA.
    unsafe { &mut *ARENA.0.get() }
}

/// Serves requests forever on `link`: the board called `board` (`hello`'s `board=`),
/// SysTick at `HZ`, the painted-stack probe, the board profile with `arena`. Sleeps
/// in WFI until the next interrupt (a received byte or the 1 ms tick) whenever idle.
#[inline(always)] // its Service stays in main's frame: no extra frame under every request
pub fn serve<L: SerialLink, const HZ: u32>(
    board: &'static str,
    link: L,
    syst: cortex_m::peripheral::SYST,
    arena: &'static mut [u64],
) -> ! {
    let clock = clock::SysTickClock::<HZ>::new(syst);
    let mut service = Service::new(
        link,
        clock,
        memory::PaintedStack,
        board,
        Profile::Board,
        arena,
    );
    service.run(cortex_m::asm::wfi)
}
