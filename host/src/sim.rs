//! Simulated boards: a board's very firmware image in its simulator (QEMU), its serial
//! line on a pty.
//!
//! QEMU runs with a fixed `-icount` shift (the board table's), so the board's SysTick
//! counts executed instructions and the same request always reports the same ticks.
//! A small shell watchdog ends the simulator when this process ends, however it ends.

use std::io::{self, BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::board::{Board, SerialBoard};
use crate::boards::{self, BoardSpec};

/// A running simulator with the firmware; killed on drop.
pub struct Simulator {
    child: Child,
    pty: String,
}

/// The shell command that runs `board`'s simulator on `elf`, its serial line on a pty.
pub fn command(board: &BoardSpec, elf: &Path) -> io::Result<String> {
    match board.sim {
        Some(boards::Simulator::Qemu {
            machine,
            serial,
            icount_shift,
        }) => {
            // The ports before the board's serial line go nowhere.
            let before = "-serial null ".repeat(usize::from(serial));
            Ok(format!(
                "qemu-system-arm -M {machine} -kernel '{}' -display none -monitor none \
                 {before}-serial pty -icount shift={icount_shift},sleep=on",
                elf.display()
            ))
        }
        None => Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!(
                "no simulator runs the {} firmware; simulated boards: {}",
                board.name,
                boards::simulated()
                    .map(|b| b.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

impl Simulator {
    /// Starts `board`'s simulator on `elf` and waits for its serial pty to appear.
    pub fn start(board: &BoardSpec, elf: &Path) -> io::Result<Self> {
        if !elf.exists() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!(
                    "firmware not found at {} (build it with: cargo xtask fw --board {})",
                    elf.display(),
                    board.name
                ),
            ));
        }
        let qemu = command(board, elf)?;
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

/// A simulated board ready to talk to: the simulator plus a handshaken serial link.
pub struct SimBoard {
    serial: SerialBoard,
    board: &'static BoardSpec,
    // Dropped after `serial`: the link closes before the simulator is killed.
    _sim: Simulator,
}

impl SimBoard {
    /// Starts `board`'s simulator with its firmware (built if missing) and shakes hands.
    pub fn start(board: &'static BoardSpec) -> io::Result<Self> {
        Self::start_with(board, &crate::firmware::find(board)?)
    }

    /// Starts `board`'s simulator with the given firmware and shakes hands.
    pub fn start_with(board: &'static BoardSpec, elf: &Path) -> io::Result<Self> {
        let sim = Simulator::start(board, elf)?;
        let mut serial = SerialBoard::open(sim.pty())?;
        serial.handshake(Duration::from_secs(10))?;
        Ok(Self {
            serial,
            board,
            _sim: sim,
        })
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
        format!("sim:{} ({})", self.board.name, self.serial.describe())
    }
}
