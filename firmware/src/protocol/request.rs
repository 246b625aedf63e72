//! Request lines: one typed [`Request`] per line, parsed by the board and printed
//! by the host, so both ends read the same grammar (see `docs/protocol.md`).
//!
//! Every request is `<command> [id=N] <rest>`; a request with an id gets it back on
//! every line of its reply, so a host can tell a late reply to an earlier request
//! from the answer it waits for.

use core::fmt;

use crate::engine::{EngineRequest, RootMoves};
use crate::search::Limits;

/// A request's id (`id=N`), echoed on every line of its reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RequestId(pub u32);

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
    /// The game has no such engine level.
    BadLevel,
    /// The firmware panicked (it restarts after the line).
    Panic,
    /// The processor faulted (it restarts after the line).
    HardFault,
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
            Self::BadLevel => "bad-level",
            Self::Panic => "panic",
            Self::HardFault => "hardfault",
        }
    }

    /// Every code, in the order of the protocol's table.
    pub const ALL: [ErrorCode; 12] = [
        Self::TooLong,
        Self::BadByte,
        Self::UnknownCommand,
        Self::Syntax,
        Self::UnknownGame,
        Self::BadPosition,
        Self::Busy,
        Self::Idle,
        Self::Internal,
        Self::BadLevel,
        Self::Panic,
        Self::HardFault,
    ];

    /// The code written `word` on the wire.
    pub fn from_wire(word: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == word)
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
    /// `overflow`: test hook for the stack-overflow path (the board recurses until its
    /// stack overflows, reports the fault and restarts).
    Overflow,
}

/// A parse failure: the code and a message for the `error` line.
pub type RequestError = (ErrorCode, &'static str);

/// One request line: its id, if it has one, and the command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request<'a> {
    /// `id=N`, echoed on every line of the reply.
    pub id: Option<RequestId>,
    /// What is asked.
    pub command: Command<'a>,
}

impl Command<'_> {
    /// The first word of the line.
    pub fn word(&self) -> &'static str {
        match self {
            Self::Hello => "hello",
            Self::Ping => "ping",
            Self::Help => "help",
            Self::Stop => "stop",
            Self::Go { .. } => "go",
            Self::Perft { .. } => "perft",
            Self::Panic => "panic",
            Self::Overflow => "overflow",
        }
    }
}

impl fmt::Display for Request<'_> {
    /// The canonical line: `<command> [id=N]`, then `go`'s options in a fixed order
    /// (those at their default left out), then `pos <position>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.command.word())?;
        if let Some(id) = self.id {
            write!(f, " id={}", id.0)?;
        }
        match &self.command {
            Command::Go {
                game,
                request,
                movetime_ms,
                info,
            } => {
                write!(f, " {game}")?;
                let l = &request.limits;
                for (key, value) in [
                    ("depth", u64::from(l.depth)),
                    ("nodes", l.nodes),
                    ("movetime", u64::from(*movetime_ms)),
                    ("level", u64::from(request.level)),
                    ("seed", request.seed),
                    ("info", u64::from(*info)),
                ] {
                    if value != 0 {
                        write!(f, " {key}={value}")?;
                    }
                }
                match request.roots {
                    RootMoves::All => {}
                    RootMoves::Except(list) => write!(f, " exclude={list}")?,
                    RootMoves::Only(list) => write!(f, " only={list}")?,
                }
                write!(f, " pos {}", request.position)
            }
            Command::Perft {
                game,
                depth,
                position,
            } => write!(f, " {game} depth={depth} pos {position}"),
            _ => Ok(()),
        }
    }
}

/// A request line that could not be read: its id, if that much was read, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadRequest {
    /// The id, echoed on the `error` line.
    pub id: Option<RequestId>,
    /// The error code.
    pub code: ErrorCode,
    /// The message.
    pub message: &'static str,
}

/// Parses one request line (already trimmed, printable ASCII).
#[inline(never)] // the parser's temporaries stay off the search's stack
pub fn parse_request(line: &str) -> Result<Request<'_>, BadRequest> {
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    let mut rest = rest.trim();
    let mut id = None;
    if let Some(tail) = rest.strip_prefix("id=") {
        let (n, after) = tail.split_once(' ').unwrap_or((tail, ""));
        id = Some(RequestId(n.parse().map_err(|_| BadRequest {
            id: None,
            code: ErrorCode::Syntax,
            message: "id must be a whole number 0..4294967295",
        })?));
        rest = after.trim();
    }
    parse_command(word, rest)
        .map(|command| Request { id, command })
        .map_err(|(code, message)| BadRequest { id, code, message })
}

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
        roots: RootMoves::All,
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
            "exclude" | "only" if !request.roots.is_all() => {
                return Err((ErrorCode::Syntax, "exclude= or only=, not both"));
            }
            "exclude" | "only" if value.is_empty() || value.split(',').any(str::is_empty) => {
                return Err((
                    ErrorCode::Syntax,
                    "exclude= and only= take moves: m1,m2,...",
                ));
            }
            "exclude" => request.roots = RootMoves::Except(value),
            "only" => request.roots = RootMoves::Only(value),
            _ => {
                return Err((
                    ErrorCode::Syntax,
                    "unknown option (depth nodes movetime level seed info exclude only)",
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

/// Parses a command from its first word and the rest of the line.
fn parse_command<'a>(word: &str, rest: &'a str) -> Result<Command<'a>, RequestError> {
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
        "overflow" => bare(Command::Overflow),
        "go" => parse_go(rest),
        "perft" => parse_perft(rest),
        _ => Err((ErrorCode::UnknownCommand, "try 'help'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parse(line: &str) -> Result<Command<'_>, RequestError> {
        parse_request(line)
            .map(|r| r.command)
            .map_err(|e| (e.code, e.message))
    }

    #[test]
    fn parses_go_with_options_and_position() {
        let cmd =
            parse("go ttt depth=4 nodes=100 movetime=50 level=2 seed=7 info=1 pos x.o/.../...")
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
            parse("go xiangqi pos rnbakabnr/9 w - - 0 1 moves h2e2")
        else {
            panic!()
        };
        assert_eq!(request.position, "rnbakabnr/9 w - - 0 1 moves h2e2");
        let Ok(Command::Perft {
            depth, position, ..
        }) = parse("perft ttt depth=3 pos .........")
        else {
            panic!()
        };
        assert_eq!((depth, position), (3, "........."));
    }

    #[test]
    fn rejects_malformed_requests_with_codes() {
        let code = |l| parse(l).unwrap_err().0;
        assert_eq!(code("fly"), ErrorCode::UnknownCommand);
        assert_eq!(code("go ttt depth=4"), ErrorCode::Syntax);
        assert_eq!(code("go ttt depth=x pos ........."), ErrorCode::Syntax);
        assert_eq!(code("go ttt depth=999 pos ........."), ErrorCode::Syntax);
        assert_eq!(code("go ttt colour=red pos ........."), ErrorCode::Syntax);
        assert_eq!(code("go pos ........."), ErrorCode::Syntax);
        assert_eq!(code("go ttt pos"), ErrorCode::Syntax);
        assert_eq!(code("perft ttt pos ........."), ErrorCode::Syntax);
        assert_eq!(code("hello there"), ErrorCode::Syntax);
        assert_eq!(code("go ttt exclude= pos ........."), ErrorCode::Syntax);
        assert_eq!(
            code("go ttt exclude=a1,,b2 pos ........."),
            ErrorCode::Syntax
        );
        assert_eq!(code("go ttt only=a1, pos ........."), ErrorCode::Syntax);
        assert_eq!(
            code("go ttt exclude=a1 only=b2 pos ........."),
            ErrorCode::Syntax
        );
        assert_eq!(
            code("go ttt only=a1 only=b2 pos ........."),
            ErrorCode::Syntax
        );
    }

    #[test]
    fn excluded_root_moves_are_read_and_written() {
        let r = parse_request("go xiangqi depth=3 exclude=h2e2,b0c2 pos startpos").unwrap();
        let Command::Go { request, .. } = r.command else {
            panic!("{r:?}")
        };
        assert_eq!(request.roots, RootMoves::Except("h2e2,b0c2"));
        assert!(request.excluded_moves().eq(["h2e2", "b0c2"]));
        assert_eq!(
            std::format!("{r}"),
            "go xiangqi depth=3 exclude=h2e2,b0c2 pos startpos"
        );
        let r = parse_request("go xiangqi only=h2e2,b0c2 pos startpos").unwrap();
        let Command::Go { request, .. } = r.command else {
            panic!("{r:?}")
        };
        assert_eq!(request.roots, RootMoves::Only("h2e2,b0c2"));
        assert!(request.roots.listed().eq(["h2e2", "b0c2"]));
        assert_eq!(request.excluded_moves().count(), 0);
        assert_eq!(
            std::format!("{r}"),
            "go xiangqi only=h2e2,b0c2 pos startpos"
        );
    }

    #[test]
    fn ids_are_read_and_kept_on_errors() {
        let r = parse_request("go id=7 ttt depth=2 pos .........").unwrap();
        assert_eq!(r.id, Some(RequestId(7)));
        assert_eq!(std::format!("{r}"), "go id=7 ttt depth=2 pos .........");
        let e = parse_request("go id=8 ttt depth=x pos .........").unwrap_err();
        assert_eq!((e.id, e.code), (Some(RequestId(8)), ErrorCode::Syntax));
        assert_eq!(
            parse_request("ping id=x").unwrap_err().code,
            ErrorCode::Syntax
        );
        assert_eq!(parse_request("ping id=3").unwrap().id, Some(RequestId(3)));
    }

    proptest! {
        #[test]
        fn every_request_round_trips(
            id in proptest::option::of(any::<u32>()),
            which in 0u8..8,
            game in "[a-z]{1,8}",
            position in "[a-z0-9./]{1,10}( [a-z0-9./]{1,10}){0,4}",
            depth in any::<u8>(),
            nodes in any::<u64>(),
            movetime_ms in any::<u32>(),
            level in any::<u8>(),
            seed in any::<u64>(),
            info in any::<bool>(),
            list in "[a-z0-9]{1,5}(,[a-z0-9]{1,5}){0,3}",
            roots in 0u8..3,
        ) {
            prop_assume!(game != "pos" && !position.split(' ').any(|w| w == "pos"));
            let command = match which {
                0 => Command::Hello,
                1 => Command::Ping,
                2 => Command::Help,
                3 => Command::Stop,
                4 => Command::Panic,
                5 => Command::Perft { game: &game, depth, position: &position },
                6 => Command::Overflow,
                _ => Command::Go {
                    game: &game,
                    request: EngineRequest {
                        position: &position,
                        limits: Limits { depth, nodes, ticks: 0 },
                        level,
                        seed,
                        roots: match roots {
                            0 => RootMoves::All,
                            1 => RootMoves::Except(list.as_str()),
                            _ => RootMoves::Only(list.as_str()),
                        },
                    },
                    movetime_ms,
                    info,
                },
            };
            let request = Request { id: id.map(RequestId), command };
            let text = std::format!("{request}");
            prop_assert_eq!(parse_request(&text), Ok(request), "{}", text);
        }

        #[test]
        fn any_line_is_read_or_refused_without_panic(line in "[ -~]{0,80}") {
            let _ = parse_request(&line);
        }
    }
}
