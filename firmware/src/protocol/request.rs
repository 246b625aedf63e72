//! Parsing request lines into commands.

use crate::engine::EngineRequest;
use crate::search::Limits;

/// The error codes of `error <code> <message>` replies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// The line exceeded [`super::MAX_LINE`] bytes.
    TooLong,
    /// The line held a byte that is not printable ASCII.
    BadByte,
    /// The first word is not a command.
    UnknownCommand,
    /// The command's arguments are malformed or missing.
    Syntax,
    /// The game name is not served by this board.
    UnknownGame,
    /// The position (or a move in it) could not be read.
    BadPosition,
    /// A line other than `stop` arrived while a search was running.
    Busy,
    /// `stop` arrived while no search was running.
    Idle,
    /// An engine finished without an answer (a firmware bug).
    Internal,
}

impl ErrorCode {
    /// The code as it appears on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::TooLong => "too-long",
            Self::BadByte => "bad-byte",
            Self::UnknownCommand => "unknown-command",
            Self::Syntax => "syntax",
            Self::UnknownGame => "unknown-game",
            Self::BadPosition => "bad-position",
            Self::Busy => "busy",
            Self::Idle => "idle",
            Self::Internal => "internal",
        }
    }
}

/// One parsed request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command<'a> {
    /// `hello`: identify the board.
    Hello,
    /// `ping`: liveness check.
    Ping,
    /// `help`: list the commands.
    Help,
    /// `stop`: end the running search.
    Stop,
    /// `go <game> [key=value…] pos <position>`: search.
    Go {
        /// Game name.
        game: &'a str,
        /// Position, limits (`ticks` is filled in by the service from `movetime_ms`),
        /// level and seed, as the engine receives them.
        request: EngineRequest<'a>,
        /// Time limit in milliseconds of board time (0 = none).
        movetime_ms: u32,
        /// Stream an `info` line per completed iteration.
        info: bool,
    },
    /// `perft <game> depth=N pos <position>`: count move-tree leaves.
    Perft {
        /// Game name.
        game: &'a str,
        /// Depth in plies.
        depth: u8,
        /// Position text.
        position: &'a str,
    },
    /// `panic`: test hook for the panic path (the board reports and restarts).
    Panic,
}

/// A parse failure: the code and a message for the `error` line.
pub type RequestError = (ErrorCode, &'static str);

fn number<T: core::str::FromStr>(value: &str, what: &'static str) -> Result<T, RequestError> {
    value.parse().map_err(|_| (ErrorCode::Syntax, what))
}

/// Splits `… pos <position>` into the options part and the position.
fn split_position(rest: &str) -> Result<(&str, &str), RequestError> {
    let mut offset = 0;
    for word in rest.split(' ') {
        if word == "pos" {
            let position = rest[offset + 3..].trim();
            if position.is_empty() {
                return Err((ErrorCode::Syntax, "empty position after 'pos'"));
            }
            return Ok((&rest[..offset], position));
        }
        offset += word.len() + 1;
    }
    Err((ErrorCode::Syntax, "missing 'pos <position>'"))
}

fn parse_go(rest: &str) -> Result<Command<'_>, RequestError> {
    let (head, position) = split_position(rest)?;
    let mut words = head.split(' ').filter(|w| !w.is_empty());
    let game = words
        .next()
        .ok_or((ErrorCode::Syntax, "missing game name"))?;
    let mut request = EngineRequest {
        position,
        limits: Limits::default(),
        level: 0,
        seed: 0,
    };
    let (mut movetime_ms, mut info) = (0, false);
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or((ErrorCode::Syntax, "options are key=value before 'pos'"))?;
        match key {
            "depth" => request.limits.depth = number(value, "depth must be 0..255")?,
            "nodes" => request.limits.nodes = number(value, "nodes must be a whole number")?,
            "movetime" => movetime_ms = number(value, "movetime must be milliseconds")?,
            "level" => request.level = number(value, "level must be 0..255")?,
            "seed" => request.seed = number(value, "seed must be a 64-bit whole number")?,
            "info" => info = number::<u8>(value, "info must be 0 or 1")? != 0,
            _ => {
                return Err((
                    ErrorCode::Syntax,
                    "unknown option (depth nodes movetime level seed info)",
                ));
            }
        }
    }
    Ok(Command::Go {
        game,
        request,
        movetime_ms,
        info,
    })
}

fn parse_perft(rest: &str) -> Result<Command<'_>, RequestError> {
    let (head, position) = split_position(rest)?;
    let mut words = head.split(' ').filter(|w| !w.is_empty());
    let game = words
        .next()
        .ok_or((ErrorCode::Syntax, "missing game name"))?;
    let mut depth = None;
    for word in words {
        match word.split_once('=') {
            Some(("depth", v)) => depth = Some(number(v, "depth must be 0..255")?),
            _ => return Err((ErrorCode::Syntax, "perft takes depth=N before 'pos'")),
        }
    }
    let depth = depth.ok_or((ErrorCode::Syntax, "perft needs depth=N"))?;
    Ok(Command::Perft {
        game,
        depth,
        position,
    })
}

/// Parses one request line (already trimmed, printable ASCII).
#[inline(never)] // the parser's temporaries stay off the search's stack
pub fn parse_command(line: &str) -> Result<Command<'_>, RequestError> {
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    let rest = rest.trim();
    let bare = |cmd| {
        if rest.is_empty() {
            Ok(cmd)
        } else {
            Err((ErrorCode::Syntax, "this command takes no arguments"))
        }
    };
    match word {
        "hello" => bare(Command::Hello),
        "ping" => bare(Command::Ping),
        "help" => bare(Command::Help),
        "stop" => bare(Command::Stop),
        "panic" => bare(Command::Panic),
        "go" => parse_go(rest),
        "perft" => parse_perft(rest),
        _ => Err((ErrorCode::UnknownCommand, "try 'help'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_go_with_options_and_position() {
        let cmd = parse_command(
            "go ttt depth=4 nodes=100 movetime=50 level=2 seed=7 info=1 pos x.o/.../...",
        )
        .unwrap();
        let Command::Go {
            game,
            request,
            movetime_ms,
            info,
        } = cmd
        else {
            panic!("{cmd:?}")
        };
        assert_eq!(game, "ttt");
        assert_eq!(request.position, "x.o/.../...");
        assert_eq!(request.limits.depth, 4);
        assert_eq!(request.limits.nodes, 100);
        assert_eq!(movetime_ms, 50);
        assert_eq!((request.level, request.seed, info), (2, 7, true));
    }

    #[test]
    fn position_may_contain_spaces_and_the_word_pos_only_counts_once() {
        let Ok(Command::Go { request, .. }) =
            parse_command("go xiangqi pos rnbakabnr/9 w - - 0 1 moves h2e2")
        else {
            panic!()
        };
        assert_eq!(request.position, "rnbakabnr/9 w - - 0 1 moves h2e2");
        let Ok(Command::Perft {
            depth, position, ..
        }) = parse_command("perft ttt depth=3 pos .........")
        else {
            panic!()
        };
        assert_eq!((depth, position), (3, "........."));
    }

    #[test]
    fn rejects_malformed_requests_with_codes() {
        let code = |l| parse_command(l).unwrap_err().0;
        assert_eq!(code("fly"), ErrorCode::UnknownCommand);
        assert_eq!(code("go ttt depth=4"), ErrorCode::Syntax);
        assert_eq!(code("go ttt depth=x pos ........."), ErrorCode::Syntax);
        assert_eq!(code("go ttt depth=999 pos ........."), ErrorCode::Syntax);
        assert_eq!(code("go ttt colour=red pos ........."), ErrorCode::Syntax);
        assert_eq!(code("go pos ........."), ErrorCode::Syntax);
        assert_eq!(code("go ttt pos"), ErrorCode::Syntax);
        assert_eq!(code("perft ttt pos ........."), ErrorCode::Syntax);
        assert_eq!(code("hello there"), ErrorCode::Syntax);
    }
}
