//! Links to a board: a serial port (a real micro:bit or QEMU's pty) or the firmware
//! library's service loop running in a thread of this process (the host engine).

use std::io::{self, Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use sente_firmware::clock::{Clock, MemoryProbe, SerialLink};
use sente_firmware::engine::{Profile, REFERENCE_ARENA_WORDS};
use sente_firmware::service::Service;

/// A line-oriented link to something that speaks protocol v1.
pub trait Board: Send {
    /// Sends one request line (the newline is added).
    fn send_line(&mut self, line: &str) -> io::Result<()>;
    /// The next reply line, or `None` after `timeout` without one.
    /// An error means the board is gone (unplugged, QEMU killed, thread ended).
    fn recv_line(&mut self, timeout: Duration) -> io::Result<Option<String>>;
    /// Sends raw bytes (robustness tests send garbage).
    fn send_raw(&mut self, bytes: &[u8]) -> io::Result<()>;
    /// What this board is, for status lines (`host`, `/dev/ttyACM0`…).
    fn describe(&self) -> String;
}

/// Takes the first complete, non-blank line out of `pending` (bytes received so far).
fn take_line(pending: &mut Vec<u8>) -> Option<String> {
    while let Some(i) = pending.iter().position(|&b| b == b'\n') {
        let line: Vec<u8> = pending.drain(..=i).collect();
        let text = String::from_utf8_lossy(&line).trim().to_string();
        if !text.is_empty() {
            return Some(text);
        }
    }
    None
}

fn gone(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, format!("board gone: {what}"))
}

/// A board on a serial port, 115200 8N1.
pub struct SerialBoard {
    port: Box<dyn serialport::SerialPort>,
    path: String,
    pending: Vec<u8>,
}

impl SerialBoard {
    /// Opens the port (does not talk to the board yet; see [`SerialBoard::handshake`]).
    pub fn open(path: &str) -> io::Result<Self> {
        let port = serialport::new(path, 115_200)
            .timeout(Duration::from_millis(20))
            .open()
            .map_err(|e| io::Error::other(format!("cannot open serial port {path}: {e}")))?;
        Ok(Self {
            port,
            path: path.to_string(),
            pending: Vec::new(),
        })
    }

    /// Sends `ping` until the board answers `pong` (bytes sent before the board or QEMU
    /// listens are dropped, so waiting for a banner would not work). Stale output is discarded.
    pub fn handshake(&mut self, timeout: Duration) -> io::Result<()> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            self.send_line("ping")?;
            let wait = Instant::now() + Duration::from_millis(400);
            while Instant::now() < wait {
                if let Some(line) = self.recv_line(Duration::from_millis(100))?
                    && line == "pong"
                {
                    // Drain anything else the board still had to say.
                    while self.recv_line(Duration::from_millis(50))?.is_some() {}
                    return Ok(());
                }
            }
        }
        Err(io::Error::new(
            io::ErrorKind::TimedOut,
            format!(
                "no answer to 'ping' on {} within {:?}: is a Sente board connected?",
                self.path, timeout
            ),
        ))
    }
}

impl Board for SerialBoard {
    fn send_line(&mut self, line: &str) -> io::Result<()> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.send_raw(&bytes)
    }

    fn send_raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.port
            .write_all(bytes)
            .map_err(|e| gone(&format!("{}: {e}", self.path)))?;
        self.port
            .flush()
            .map_err(|e| gone(&format!("{}: {e}", self.path)))
    }

    fn recv_line(&mut self, timeout: Duration) -> io::Result<Option<String>> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(text) = take_line(&mut self.pending) {
                return Ok(Some(text));
            }
            if Instant::now() >= deadline {
                return Ok(None);
            }
            let mut buf = [0u8; 512];
            match self.port.read(&mut buf) {
                Ok(0) => return Err(gone(&self.path)),
                Ok(n) => self.pending.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::TimedOut => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(gone(&format!("{}: {e}", self.path))),
            }
        }
    }

    fn describe(&self) -> String {
        self.path.clone()
    }
}

/// The host's clock: microseconds since the service started.
struct HostClock(Instant);

impl Clock for HostClock {
    fn ticks(&self) -> u64 {
        self.0.elapsed().as_micros() as u64
    }
    fn hz(&self) -> u32 {
        1_000_000
    }
}

/// The host does not measure stack use.
struct NoProbe;

impl MemoryProbe for NoProbe {
    fn begin(&mut self) {}
    fn peak_stack(&self) -> u32 {
        0
    }
    fn ram_bytes(&self) -> u32 {
        0
    }
    fn static_bytes(&self) -> u32 {
        0
    }
}

/// The in-process link: bytes from a channel, replies out through a channel.
struct ChannelLink {
    input: Receiver<u8>,
    peeked: Option<u8>,
    output: Sender<Vec<u8>>,
    closed: bool,
}

impl ChannelLink {
    /// Blocks until a byte arrives; `false` once the other side has hung up.
    fn wait(&mut self) -> bool {
        match self.input.recv() {
            Ok(b) => {
                self.peeked = Some(b);
                true
            }
            Err(_) => false,
        }
    }
}

impl SerialLink for ChannelLink {
    fn read_byte(&mut self) -> Option<u8> {
        if let Some(b) = self.peeked.take() {
            return Some(b);
        }
        match self.input.try_recv() {
            Ok(b) => Some(b),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                self.closed = true;
                None
            }
        }
    }

    fn write_bytes(&mut self, bytes: &[u8]) {
        let _ = self.output.send(bytes.to_vec());
    }
}

/// Megabytes of the host profile's arena (its transposition tables) unless the GUI
/// sets `Hash` (UCI), `hashsize` (UCCI) or `max_memory` (Gomocup).
pub const DEFAULT_HASH_MB: usize = 64;

/// Largest arena the host profile takes, in megabytes.
pub const MAX_HASH_MB: usize = 65_536;

/// An arena of `words` zero words, or the allocator's refusal (instead of
/// the abort of `vec!`).
fn zeroed_arena(words: usize) -> Result<Vec<u64>, std::collections::TryReserveError> {
    let mut arena = Vec::new();
    arena.try_reserve_exact(words)?;
    arena.resize(words, 0);
    Ok(arena)
}

/// The host engine: the firmware's own service loop in a thread of this process,
/// in the host profile (its own memory and time) or mirroring a board's profile.
pub struct HostBoard {
    input: Sender<u8>,
    output: Receiver<Vec<u8>>,
    pending: Vec<u8>,
    profile: Profile,
    arena_bytes: usize,
}

impl Default for HostBoard {
    fn default() -> Self {
        Self::new()
    }
}

impl HostBoard {
    /// The host profile with a [`DEFAULT_HASH_MB`] arena.
    pub fn new() -> Self {
        Self::host(DEFAULT_HASH_MB)
    }

    /// The host profile with an arena of `hash_mb` megabytes (at least 1, at most
    /// [`MAX_HASH_MB`]).
    pub fn host(hash_mb: usize) -> Self {
        let mb = hash_mb.clamp(1, MAX_HASH_MB);
        Self::start(Profile::Host, vec![0; mb * (1 << 20) / 8])
    }

    /// [`HostBoard::host`] for a size a user chose (a GUI's `Hash` or
    /// `max_memory`): an arena the machine cannot give is an error, not an
    /// abort of the process.
    pub fn try_host(hash_mb: usize) -> io::Result<Self> {
        let mb = hash_mb.clamp(1, MAX_HASH_MB);
        let arena = zeroed_arena(mb * (1 << 20) / 8).map_err(|_| {
            io::Error::new(
                io::ErrorKind::OutOfMemory,
                format!("cannot take {mb} MB of memory for the hash table"),
            )
        })?;
        Ok(Self::start(Profile::Host, arena))
    }

    /// The board profile with an arena of `arena_bytes` (rounded down to whole
    /// words): the mirror of a board whose `hello` says `arena=arena_bytes`.
    pub fn mirror(arena_bytes: usize) -> Self {
        Self::start(Profile::Board, vec![0; arena_bytes / 8])
    }

    /// The board profile with the reference board's arena (the micro:bit v1's).
    pub fn reference_board() -> Self {
        Self::mirror(REFERENCE_ARENA_WORDS * 8)
    }

    /// Ends the engine thread (a lost board, for tests of reconnection).
    pub fn close(&mut self) {
        let (dead, _) = mpsc::channel();
        self.input = dead;
    }

    /// The profile the engines run in.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The arena's size in bytes.
    pub fn arena_bytes(&self) -> usize {
        self.arena_bytes
    }

    /// Runs the service in a thread of its own over `arena`.
    fn start(profile: Profile, mut arena: Vec<u64>) -> Self {
        let words = arena.len();
        let (input, rx) = mpsc::channel();
        let (tx, output) = mpsc::channel();
        thread::Builder::new()
            .name("sente-host-engine".into())
            .spawn(move || {
                let link = ChannelLink {
                    input: rx,
                    peeked: None,
                    output: tx,
                    closed: false,
                };
                let name = match profile {
                    Profile::Host => "host",
                    Profile::Board => "host-mirror",
                };
                let mut service = Service::new(
                    link,
                    HostClock(Instant::now()),
                    NoProbe,
                    name,
                    profile,
                    &mut arena,
                );
                loop {
                    if !service.poll() && (service.link_mut().closed || !service.link_mut().wait())
                    {
                        break;
                    }
                }
            })
            .expect("spawn the host engine thread");
        Self {
            input,
            output,
            pending: Vec::new(),
            profile,
            arena_bytes: words * 8,
        }
    }
}

impl Board for HostBoard {
    fn send_line(&mut self, line: &str) -> io::Result<()> {
        self.send_raw(line.as_bytes())?;
        self.send_raw(b"\n")
    }

    fn send_raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        for &b in bytes {
            self.input
                .send(b)
                .map_err(|_| gone("host engine thread ended"))?;
        }
        Ok(())
    }

    fn recv_line(&mut self, timeout: Duration) -> io::Result<Option<String>> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(text) = take_line(&mut self.pending) {
                return Ok(Some(text));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(bytes) => self.pending.extend_from_slice(&bytes),
                Err(RecvTimeoutError::Timeout) => return Ok(None),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(gone("host engine thread ended"));
                }
            }
        }
    }

    fn describe(&self) -> String {
        match self.profile {
            Profile::Host => "host".to_string(),
            Profile::Board => format!("host mirroring a board ({} B arena)", self.arena_bytes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arena_the_allocator_refuses_is_an_error() {
        assert!(zeroed_arena(usize::MAX / 8).is_err());
        let arena = zeroed_arena(1024).expect("8 KB");
        assert_eq!(arena.len(), 1024);
        assert!(arena.iter().all(|&w| w == 0));
    }
}
