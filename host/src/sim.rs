//! The simulated board: the micro:bit firmware running in QEMU (`-M microbit`).
//!
//! QEMU runs with a fixed `-icount` shift, so the board's SysTick counts executed
//! instructions and the same request always reports the same ticks. Its UART appears
//! as a pty. A small shell watchdog ends QEMU when this process ends, however it ends.

use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::board::{Board, SerialBoard};

/// `-icount shift=6`: 2^6 ns of virtual time per instruction, about 15.6 M
/// instructions per virtual second, close to the real 16 MHz Cortex-M0.
pub const ICOUNT_SHIFT: u32 = 6;

/// Rust target of the micro:bit v1.
pub const TARGET: &str = "thumbv6m-none-eabi";

/// The workspace root (this crate's parent directory).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new("."))
        .to_path_buf()
}

/// Where the board firmware ELF is built (`ram_2k`: the build whose RAM is capped at 2 KB).
pub fn firmware_elf(ram_2k: bool) -> PathBuf {
    let dir = if ram_2k { "firmware-2k" } else { "firmware" };
    workspace_root()
        .join("target")
        .join(TARGET)
        .join(dir)
        .join("microbit")
}

/// Builds the firmware with cargo (the `firmware` profile) and returns the ELF path.
pub fn build_firmware(ram_2k: bool) -> io::Result<PathBuf> {
    build_firmware_reporting(ram_2k, &mut |_| {})
}

/// One firmware build at a time in this process: a second caller waits for the
/// first (and then finds its ELF).
static BUILDING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// [`build_firmware`], passing each line cargo prints (`Compiling heapless v0.9.1`)
/// to `progress`; cargo's output is kept for the error when the build fails.
pub fn build_firmware_reporting(
    ram_2k: bool,
    progress: &mut dyn FnMut(&str),
) -> io::Result<PathBuf> {
    let _one = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
    build_now(ram_2k, progress)
}

/// The build itself (the caller holds [`BUILDING`]).
fn build_now(ram_2k: bool, progress: &mut dyn FnMut(&str)) -> io::Result<PathBuf> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(workspace_root()).args([
        "build",
        "-p",
        "sente-firmware",
        "--bin",
        "microbit",
        "--target",
        TARGET,
        "--color",
        "never",
    ]);
    if ram_2k {
        // A separate target directory keeps the two builds from overwriting each other.
        cmd.args(["--features", "microbit ram-2k", "--profile", "firmware"]);
        cmd.env(
            "CARGO_TARGET_DIR",
            workspace_root().join("target").join("ram-2k"),
        );
    } else {
        cmd.args(["--features", "microbit", "--profile", "firmware"]);
    }
    if have_flip_link() {
        // flip-link puts the stack below the statics: an overflow faults (and the board
        // reports `error hardfault`) instead of silently corrupting memory.
        cmd.env("CARGO_TARGET_THUMBV6M_NONE_EABI_LINKER", "flip-link");
    }
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut tail: std::collections::VecDeque<String> = std::collections::VecDeque::new();
    if let Some(stderr) = child.stderr.take() {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            progress(line.trim());
            tail.push_back(line);
            if tail.len() > 20 {
                tail.pop_front();
            }
        }
    }
    let status = child.wait()?;
    if !status.success() {
        let said: Vec<String> = tail.into_iter().collect();
        return Err(io::Error::other(format!(
            "building the firmware failed ({status}); is the target installed? rustup target \
             add {TARGET}\n{}",
            said.join("\n")
        )));
    }
    let built = if ram_2k {
        workspace_root()
            .join("target/ram-2k")
            .join(TARGET)
            .join("firmware/microbit")
    } else {
        firmware_elf(false)
    };
    if ram_2k {
        let dest = firmware_elf(true);
        std::fs::create_dir_all(dest.parent().unwrap_or(Path::new(".")))?;
        std::fs::copy(&built, &dest)?;
        return Ok(dest);
    }
    Ok(built)
}

/// Whether the flip-link linker wrapper is installed (`cargo install flip-link`).
pub fn have_flip_link() -> bool {
    Command::new("flip-link").arg("--version").output().is_ok()
}

/// The firmware ELF to run: `SENTE_FIRMWARE` if set, else the workspace build
/// (built now if it is missing).
pub fn find_firmware() -> io::Result<PathBuf> {
    find_firmware_reporting(&mut |_| {})
}

/// Whether [`find_firmware`] has to build the firmware first.
pub fn firmware_missing() -> bool {
    std::env::var_os("SENTE_FIRMWARE").is_none() && !firmware_elf(false).exists()
}

/// [`find_firmware`], passing a build's progress lines to `progress`. Whoever comes
/// while a build runs waits for it and takes its ELF: one build at most.
pub fn find_firmware_reporting(progress: &mut dyn FnMut(&str)) -> io::Result<PathBuf> {
    if let Some(path) = std::env::var_os("SENTE_FIRMWARE") {
        return Ok(PathBuf::from(path));
    }
    let elf = firmware_elf(false);
    if elf.exists() {
        return Ok(elf);
    }
    let _one = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
    if elf.exists() {
        return Ok(elf);
    }
    build_now(false, progress)
}

/// A running QEMU with the firmware; killed on drop.
pub struct Simulator {
    child: Child,
    pty: String,
}

impl Simulator {
    /// Starts QEMU on `elf` and waits for its serial pty to appear.
    pub fn start(elf: &Path) -> io::Result<Self> {
        if !elf.exists() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!(
                    "firmware not found at {} (build it with: cargo xtask fw)",
                    elf.display()
                ),
            ));
        }
        let qemu = format!(
            "qemu-system-arm -M microbit -kernel '{}' -display none -monitor none -serial pty \
             -icount shift={ICOUNT_SHIFT},sleep=on",
            elf.display()
        );
        // The watchdog loop ends QEMU when this process (the parent) is gone.
        let script = format!(
            "{qemu} & q=$!; trap 'kill $q 2>/dev/null' EXIT INT TERM HUP; \
             while kill -0 {parent} 2>/dev/null && kill -0 $q 2>/dev/null; do sleep 0.5; done",
            parent = std::process::id()
        );
        let mut child = Command::new("sh")
            .args(["-c", &script])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| io::Error::other(format!("cannot start QEMU: {e}")))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("no QEMU stdout"))?;
        let stderr = child
            .stderr
            .take()
            .ok_or_else(|| io::Error::other("no QEMU stderr"))?;
        let (tx, rx) = mpsc::channel();
        for stream in [
            Box::new(stdout) as Box<dyn io::Read + Send>,
            Box::new(stderr),
        ] {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    let _ = tx.send(line);
                }
            });
        }
        let mut said = Vec::new();
        while let Ok(line) = rx.recv_timeout(Duration::from_secs(10)) {
            if let Some(at) = line.find("/dev/pts/") {
                let pty = line[at..]
                    .split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .to_string();
                return Ok(Self { child, pty });
            }
            said.push(line);
        }
        let _ = child.kill();
        let _ = child.wait();
        let hint = if said.iter().any(|l| l.contains("not found")) {
            " (install it: apt-get install qemu-system-arm)"
        } else {
            ""
        };
        Err(io::Error::other(format!(
            "QEMU did not open a serial pty{hint}: {}",
            said.join(" | ")
        )))
    }

    /// The pty the board's UART is connected to.
    pub fn pty(&self) -> &str {
        &self.pty
    }

    /// Waits until QEMU ends (Ctrl-C in `cargo xtask sim`).
    pub fn wait(&mut self) -> io::Result<()> {
        self.child.wait().map(|_| ())
    }
}

impl Drop for Simulator {
    fn drop(&mut self) {
        // Ending the watchdog shell makes its EXIT trap kill QEMU.
        let _ = Command::new("kill")
            .arg(self.child.id().to_string())
            .status();
        let _ = self.child.wait();
    }
}

/// A simulated board ready to talk to: QEMU plus a handshaken serial link.
pub struct SimBoard {
    serial: SerialBoard,
    // Dropped after `serial`: the link closes before QEMU is killed.
    _sim: Simulator,
}

impl SimBoard {
    /// Starts QEMU with the workspace firmware (built if missing) and shakes hands.
    pub fn start() -> io::Result<Self> {
        Self::start_with(&find_firmware()?)
    }

    /// Starts QEMU with the given firmware and shakes hands.
    pub fn start_with(elf: &Path) -> io::Result<Self> {
        let sim = Simulator::start(elf)?;
        let mut serial = SerialBoard::open(sim.pty())?;
        serial.handshake(Duration::from_secs(10))?;
        Ok(Self { serial, _sim: sim })
    }
}

impl Board for SimBoard {
    fn send_line(&mut self, line: &str) -> io::Result<()> {
        self.serial.send_line(line)
    }
    fn recv_line(&mut self, timeout: Duration) -> io::Result<Option<String>> {
        self.serial.recv_line(timeout)
    }
    fn send_raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.serial.send_raw(bytes)
    }
    fn describe(&self) -> String {
        format!("sim ({})", self.serial.describe())
    }
}
