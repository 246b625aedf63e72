//! The table of boards Sente runs on: one row per board, read by `cargo xtask` (build,
//! size, flash, HIL) and by the `sente` binary (`--board sim:NAME`).
//!
//! A board's support lives in its own folder, `firmware/boards/<name>/` (memory map,
//! clock set-up, serial link; the Cortex-M pieces every board shares are in
//! `firmware/boards/cortex-m/`). Its firmware binary and its Cargo feature are both
//! called `<name>`. Adding a board = that folder, its feature line in
//! `firmware/Cargo.toml` (which pulls in its chip's crate) and one row here.

use std::fmt;

/// How a board is simulated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simulator {
    /// `qemu-system-arm -M <machine>`, its `serial` port (0 = QEMU's first `-serial`)
    /// on a pty, with `-icount shift=<icount_shift>` so SysTick counts instructions
    /// and every run measures the same ticks.
    Qemu {
        /// QEMU's machine name.
        machine: &'static str,
        /// Which of the machine's serial ports is the board's serial line.
        serial: u8,
        /// `-icount shift=N`: 2^N ns of virtual time per instruction.
        icount_shift: u32,
    },
}

impl fmt::Display for Simulator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Qemu {
                machine,
                icount_shift,
                ..
            } => write!(f, "QEMU -M {machine} -icount shift={icount_shift}"),
        }
    }
}

/// One board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSpec {
    /// Name: the folder `firmware/boards/<name>`, the firmware binary, the Cargo feature,
    /// `--board <name>`, `hello`'s `board=`.
    pub name: &'static str,
    /// Other names `--board` accepts.
    pub aliases: &'static [&'static str],
    /// What people call it.
    pub title: &'static str,
    /// Microcontroller.
    pub chip: &'static str,
    /// Processor core.
    pub core: &'static str,
    /// Rust target.
    pub target: &'static str,
    /// Core clock (SysTick ticks per second; `hello`'s `hz=`).
    pub hz: u32,
    /// Flash bytes.
    pub flash: u32,
    /// RAM bytes the firmware uses (its linker script's RAM region).
    pub ram: u32,
    /// Bytes of the engines' arena (`hello`'s `arena=`): what the RAM allows beside
    /// the stack and the statics.
    pub arena: u32,
    /// probe-rs's name for the chip (`cargo xtask flash`).
    pub probe: &'static str,
    /// How the serial line reaches the host.
    pub serial: &'static str,
    /// Where the serial port usually appears on Linux.
    pub port_hint: &'static str,
    /// The simulator that runs this very firmware image, if any.
    pub sim: Option<Simulator>,
    /// The board also has the build whose RAM is capped at 2 KB (`--ram-2k`).
    pub ram_2k: bool,
}

/// Every board, the default (the micro:bit v1) first.
pub const BOARDS: &[BoardSpec] = &[
    BoardSpec {
        name: "microbit-v1",
        aliases: &["microbit", "microbit1"],
        title: "BBC micro:bit v1",
        chip: "nRF51822",
        core: "Cortex-M0",
        target: "thumbv6m-none-eabi",
        hz: 16_000_000,
        flash: 256 * 1024,
        ram: 16 * 1024,
        arena: 6 * 1024,
        probe: "nRF51822_xxAA",
        serial: "UART TX P0.24 / RX P0.25 to the interface chip's USB serial",
        port_hint: "/dev/ttyACM0",
        sim: Some(Simulator::Qemu {
            machine: "microbit",
            serial: 0,
            // 64 ns per instruction: about 15.6 M instructions per virtual second,
            // close to the real 16 MHz Cortex-M0.
            icount_shift: 6,
        }),
        ram_2k: true,
    },
    BoardSpec {
        name: "microbit-v2",
        aliases: &["microbit2"],
        title: "BBC micro:bit v2",
        chip: "nRF52833",
        core: "Cortex-M4F",
        target: "thumbv7em-none-eabihf",
        hz: 64_000_000,
        flash: 512 * 1024,
        ram: 128 * 1024,
        arena: 96 * 1024,
        probe: "nRF52833_xxAA",
        serial: "UARTE TX P0.06 / RX P1.08 to the interface chip's USB serial",
        port_hint: "/dev/ttyACM0",
        sim: None,
        ram_2k: false,
    },
    BoardSpec {
        name: "pico",
        aliases: &["rp2040", "rpi-pico"],
        title: "Raspberry Pi Pico",
        chip: "RP2040",
        core: "Cortex-M0+",
        target: "thumbv6m-none-eabi",
        hz: 125_000_000,
        flash: 2048 * 1024,
        ram: 264 * 1024,
        arena: 192 * 1024,
        probe: "RP2040",
        serial: "UART0 TX GP0 / RX GP1 to the Raspberry Pi Debug Probe's serial bridge",
        port_hint: "/dev/ttyACM1",
        sim: None,
        ram_2k: false,
    },
    BoardSpec {
        name: "stm32f405",
        aliases: &["pyboard", "feather-f405", "netduinoplus2"],
        title: "STM32F405 (pyboard v1.1, Feather STM32F405)",
        chip: "STM32F405RG",
        core: "Cortex-M4F",
        target: "thumbv7em-none-eabihf",
        hz: 168_000_000,
        flash: 1024 * 1024,
        ram: 128 * 1024,
        arena: 96 * 1024,
        probe: "STM32F405RGTx",
        serial: "USART3 TX PB10 / RX PB11 to a 3.3 V USB serial adapter",
        port_hint: "/dev/ttyUSB0",
        sim: Some(Simulator::Qemu {
            // QEMU's Netduino Plus 2 is the same chip; its third serial port is USART3.
            machine: "netduinoplus2",
            serial: 2,
            // 8 ns per instruction: 1.34 ticks of the 168 MHz clock per instruction,
            // about what a Cortex-M4 with flash wait states takes.
            icount_shift: 3,
        }),
        ram_2k: false,
    },
];

/// The board used when none is named.
pub const DEFAULT: &BoardSpec = &BOARDS[0];

/// The board called `name` (or one of its aliases).
pub fn find(name: &str) -> Option<&'static BoardSpec> {
    BOARDS
        .iter()
        .find(|b| b.name == name || b.aliases.contains(&name))
}

/// The board called `name`, or an error that lists the boards.
pub fn lookup(name: &str) -> std::io::Result<&'static BoardSpec> {
    find(name).ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("unknown board {name:?}; boards: {}", names()),
        )
    })
}

/// The board names, comma-separated.
pub fn names() -> String {
    BOARDS.iter().map(|b| b.name).collect::<Vec<_>>().join(", ")
}

/// The simulated boards.
pub fn simulated() -> impl Iterator<Item = &'static BoardSpec> {
    BOARDS.iter().filter(|b| b.sim.is_some())
}

impl BoardSpec {
    /// `hello`'s `board=` for this board's build (`-2k` for the 2 KB build).
    pub fn hello_name(&self, ram_2k: bool) -> String {
        if ram_2k {
            format!("{}-2k", self.name)
        } else {
            self.name.to_string()
        }
    }

    /// The Cargo feature that selects this board (also its binary's name).
    pub fn feature(&self) -> &'static str {
        self.name
    }

    /// Milliseconds `ticks` of this board's clock take.
    pub fn millis(&self, ticks: u64) -> f64 {
        ticks as f64 * 1000.0 / f64::from(self.hz)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_are_unique() {
        let mut all: Vec<&str> = BOARDS
            .iter()
            .flat_map(|b| std::iter::once(b.name).chain(b.aliases.iter().copied()))
            .collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n, "a name or alias is used twice");
        assert_eq!(find("microbit").map(|b| b.name), Some("microbit-v1"));
        assert!(lookup("nonsense").is_err());
    }

    #[test]
    fn every_board_has_its_folder_and_feature() {
        let firmware = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../firmware");
        let manifest = std::fs::read_to_string(firmware.join("Cargo.toml")).unwrap();
        for b in BOARDS {
            let dir = firmware.join("boards").join(b.name);
            assert!(dir.join("main.rs").exists(), "{} has no main.rs", b.name);
            assert!(dir.join("memory.x").exists(), "{} has no memory.x", b.name);
            assert!(
                manifest.contains(&format!("\n{} = [", b.name)),
                "{} has no feature in firmware/Cargo.toml",
                b.name
            );
            assert!(
                manifest.contains(&format!("name = \"{}\"", b.name)),
                "{} has no [[bin]] in firmware/Cargo.toml",
                b.name
            );
            assert!(b.arena < b.ram, "{}: the arena must leave room", b.name);
        }
    }
}
