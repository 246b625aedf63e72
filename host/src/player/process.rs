//! An engine program started by path, talked to line by line over its standard input
//! and output (UCI, UCCI and Gomocup engines all work this way).

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// A running engine program.
pub struct Process {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    /// Starts `command`: a program path, optionally followed by arguments separated
    /// by spaces. Its standard error is discarded.
    pub fn start(command: &str) -> io::Result<Self> {
        let mut words = command.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no program given"))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| io::Error::new(e.kind(), format!("cannot start {program:?}: {e}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(io::Error::other("the engine's pipes were not opened"));
        };
        let (tx, lines) = mpsc::channel();
        thread::Builder::new()
            .name(format!("engine output {program}"))
            .spawn(move || {
                let mut out = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match out.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf).trim().to_string();
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })?;
        Ok(Self {
            command: command.to_string(),
            child,
            stdin,
            lines,
        })
    }

    /// The command it was started with.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| gone(&self.command, &e.to_string()))
    }

    /// The next line, or `None` after `timeout` without one; an error once the
    /// program has ended.
    pub fn recv(&mut self, timeout: Duration) -> io::Result<Option<String>> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Ok(Some(line)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(gone(&self.command, "it ended")),
        }
    }

    /// Reads lines until one satisfies `done` (which sees every line), within `timeout`.
    pub fn until(
        &mut self,
        timeout: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> io::Result<String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left)? {
                Some(line) if done(&line) => return Ok(line),
                Some(_) => {}
                None => {
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        format!("{}: no answer within {timeout:?}", self.command),
                    ));
                }
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn gone(command: &str, why: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::BrokenPipe,
        format!("engine {command:?} gone: {why}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn talks_to_a_program_and_notices_its_end() {
        let mut p = Process::start("cat").unwrap();
        p.send("hello").unwrap();
        assert_eq!(
            p.until(Duration::from_secs(5), |l| l == "hello").unwrap(),
            "hello"
        );
        assert!(Process::start("/no/such/engine").is_err());
        let mut quick = Process::start("true").unwrap();
        assert!(quick.until(Duration::from_secs(5), |_| false).is_err());
    }
}
