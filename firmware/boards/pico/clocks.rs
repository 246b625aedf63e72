//! The RP2040's clock tree: the 12 MHz crystal, the system PLL at 125 MHz for clk_sys
//! (the cores, SysTick) and clk_peri (UART0).

use rp2040_pac as pac;

/// The Pico's crystal.
const XOSC_HZ: u32 = 12_000_000;
/// clk_sys and clk_peri: 12 MHz × 125 / 6 / 2.
pub const SYS_HZ: u32 = 125_000_000;

/// Waits for `ready` a bounded time (a real board's crystal and PLL are ready long
/// before the bound).
fn wait(ready: impl Fn() -> bool) {
    for _ in 0..1_000_000 {
        if ready() {
            return;
        }
    }
}

/// Starts the crystal and the system PLL and runs clk_sys and clk_peri from it.
pub fn start(xosc: &pac::XOSC, clocks: &pac::CLOCKS, resets: &pac::RESETS, pll: &pac::PLL_SYS) {
    // The crystal, with its start-up delay in units of 256 cycles (1 ms).
    xosc.ctrl().write(|w| w.freq_range()._1_15mhz());
    // SAFETY: any 14-bit delay is valid.
    xosc.startup()
        .write(|w| unsafe { w.delay().bits((((XOSC_HZ / 1000) + 128) / 256) as u16) });
    xosc.ctrl().modify(|_, w| w.enable().enable());
    wait(|| xosc.status().read().stable().bit_is_set());

    // clk_sys from clk_ref while the PLL changes; clk_ref from the crystal.
    clocks.clk_sys_ctrl().modify(|_, w| w.src().clk_ref());
    wait(|| clocks.clk_sys_selected().read().bits() == 1);
    clocks.clk_ref_ctrl().modify(|_, w| w.src().xosc_clksrc());
    wait(|| clocks.clk_ref_selected().read().bits() == 1 << 2);

    // The PLL: VCO 1500 MHz (12 MHz × 125), divided by 6 and 2.
    resets.reset().modify(|_, w| w.pll_sys().set_bit());
    resets.reset().modify(|_, w| w.pll_sys().clear_bit());
    wait(|| resets.reset_done().read().pll_sys().bit_is_set());
    // SAFETY: 1 and 125 are within the dividers' ranges.
    pll.cs().write(|w| unsafe { w.refdiv().bits(1) });
    // SAFETY: as above.
    pll.fbdiv_int()
        .write(|w| unsafe { w.fbdiv_int().bits(125) });
    pll.pwr()
        .modify(|_, w| w.pd().clear_bit().vcopd().clear_bit());
    wait(|| pll.cs().read().lock().bit_is_set());
    // SAFETY: 6 and 2 are within the post-dividers' ranges.
    pll.prim()
        .write(|w| unsafe { w.postdiv1().bits(6).postdiv2().bits(2) });
    pll.pwr().modify(|_, w| w.postdivpd().clear_bit());

    // clk_sys from the PLL (through the glitchless mux's aux input); clk_peri = clk_sys.
    clocks
        .clk_sys_ctrl()
        .modify(|_, w| w.auxsrc().clksrc_pll_sys());
    clocks
        .clk_sys_ctrl()
        .modify(|_, w| w.src().clksrc_clk_sys_aux());
    wait(|| clocks.clk_sys_selected().read().bits() == 1 << 1);
    clocks
        .clk_peri_ctrl()
        .write(|w| w.auxsrc().clk_sys().enable().set_bit());
}
