//! A bounded line reader: bytes in, complete lines (or line errors) out.

/// What a byte completed.
#[derive(Debug, PartialEq, Eq)]
pub enum LineEvent<'a> {
    /// A complete, non-empty line of printable ASCII (terminator removed, trailing blanks trimmed).
    Line(&'a str),
    /// The line was longer than the buffer; all of it was discarded.
    TooLong,
    /// The line held a byte that is not printable ASCII; all of it was discarded.
    BadByte(u8),
}

/// Collects bytes into lines of at most `N` bytes. Accepts `\n`, `\r` or `\r\n`
/// as terminators and honours backspace/DEL, so a person can type at a serial terminal.
pub struct LineReader<const N: usize> {
    buf: [u8; N],
    len: usize,
    overflow: bool,
    bad: Option<u8>,
}

impl<const N: usize> Default for LineReader<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> LineReader<N> {
    /// An empty reader.
    pub const fn new() -> Self {
        Self {
            buf: [0; N],
            len: 0,
            overflow: false,
            bad: None,
        }
    }

    /// Feeds one byte; returns an event when it ends a line.
    pub fn push(&mut self, byte: u8) -> Option<LineEvent<'_>> {
        match byte {
            b'\n' | b'\r' => {
                let len = core::mem::take(&mut self.len);
                let overflow = core::mem::take(&mut self.overflow);
                let bad = self.bad.take();
                if overflow {
                    Some(LineEvent::TooLong)
                } else if let Some(b) = bad {
                    Some(LineEvent::BadByte(b))
                } else {
                    let text = core::str::from_utf8(&self.buf[..len]).unwrap_or("").trim();
                    (!text.is_empty()).then_some(LineEvent::Line(text))
                }
            }
            0x08 | 0x7f => {
                self.len = self.len.saturating_sub(1);
                None
            }
            b' '..=b'~' | b'\t' => {
                if self.len < N {
                    self.buf[self.len] = if byte == b'\t' { b' ' } else { byte };
                    self.len += 1;
                } else {
                    self.overflow = true;
                }
                None
            }
            other => {
                self.bad.get_or_insert(other);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed<const N: usize>(r: &mut LineReader<N>, bytes: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        for &b in bytes {
            if let Some(ev) = r.push(b) {
                out.push(match ev {
                    LineEvent::Line(s) => format!("line {s}"),
                    LineEvent::TooLong => "too-long".into(),
                    LineEvent::BadByte(b) => format!("bad {b:#04x}"),
                });
            }
        }
        out
    }

    #[test]
    fn splits_lines_on_any_terminator() {
        let mut r = LineReader::<16>::new();
        assert_eq!(
            feed(&mut r, b"ping\r\nhello\n\n  x  \rab\x08c\n"),
            ["line ping", "line hello", "line x", "line ac"]
        );
    }

    #[test]
    fn overlong_and_binary_lines_are_reported_once_and_dropped() {
        let mut r = LineReader::<8>::new();
        let mut long = vec![b'a'; 10_000];
        long.push(b'\n');
        assert_eq!(feed(&mut r, &long), ["too-long"]);
        assert_eq!(
            feed(&mut r, b"p\xffq\x01\nping\n"),
            ["bad 0xff", "line ping"]
        );
    }
}
