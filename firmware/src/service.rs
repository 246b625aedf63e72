//! The board's service loop: read request lines, run them, write replies.
//!
//! Written against [`SerialLink`], [`Clock`] and [`MemoryProbe`], so the same code
//! serves on the micro:bit, in QEMU and on the host (where it is the host engine).

use core::cell::Cell;
use core::fmt::{self, Write};

use crate::clock::{Clock, MemoryProbe, SerialLink};
use crate::engine::{BoardGame, EngineReply, EngineRequest, Poll, Profile, RootMoves, Workspace};
use crate::games;
use crate::protocol::{
    Command, ErrorCode, Hello, LineEvent, LineReader, MAX_LINE, PROTOCOL_VERSION, Perft, Reply,
    ReplyKind, RequestId, SearchReport, parse_request, write_search,
};
use crate::text::{BufWriter, ParseError};

/// Lines read during a search only need to be told apart from `stop`.
const BUSY_LINE: usize = 16;

/// Names of the games this firmware serves, comma-separated (as `hello` reports them):
/// the game list's ([`games::registry`]). A test checks that every name dispatches to
/// its engine.
pub const GAMES: &str = games::registry::NAMES;

macro_rules! served_games {
    ($($engine:ty),+ $(,)?) => {
        fn dispatch_search<'a, P: CountingPoll<'a>>(
            game: &str,
            request: &EngineRequest<'_>,
            poll: &mut P,
            profile: Profile,
            arena: &mut &mut [u64],
        ) -> Option<Result<(), ParseError>> {
            $(if game == <$engine as BoardGame>::NAME {
                return Some(run_search::<$engine, P>(request, poll, profile, arena));
            })+
            None
        }

        fn dispatch_perft(game: &str, position: &str, depth: u8) -> Option<Result<u64, ParseError>> {
            $(if game == <$engine as BoardGame>::NAME {
                return Some(run_perft::<$engine>(position, depth));
            })+
            None
        }
    };
}

served_games!(
    games::tictactoe::TicTacToeEngine,
    games::gomoku::GomokuEngine,
    games::xiangqi::XiangqiEngine,
    games::einstein::EinsteinEngine,
    games::checkers::CheckersEngine,
);

/// Each game's search in a frame of its own: inlined into the dispatcher, every game's
/// locals would share one frame, and each game would pay for the largest. The
/// [`Workspace`] is built here, from arguments that fit in registers: a game that takes
/// no arena then costs the dispatcher's frame nothing for it.
#[inline(never)]
fn run_search<'a, E: BoardGame, P: CountingPoll<'a>>(
    request: &EngineRequest<'_>,
    poll: &mut P,
    profile: Profile,
    arena: &mut &mut [u64],
) -> Result<(), ParseError> {
    let mut work = match poll.arena_used() {
        Some(used) => Workspace::counted(profile, arena, used),
        None => Workspace::new(profile, arena),
    };
    E::search(request, poll, &mut work)
}

/// A [`Poll`] that may count the arena its search takes (the service's does).
trait CountingPoll<'a>: Poll {
    /// Where the arena bytes taken are counted, if anywhere.
    fn arena_used(&self) -> Option<&'a Cell<usize>>;
}

impl<'a, L: SerialLink, C: Clock, M: MemoryProbe> CountingPoll<'a> for SearchPoll<'a, L, C, M> {
    fn arena_used(&self) -> Option<&'a Cell<usize>> {
        Some(self.arena_used)
    }
}

/// As [`run_search`], for perft.
#[inline(never)]
fn run_perft<E: BoardGame>(position: &str, depth: u8) -> Result<u64, ParseError> {
    E::perft(position, depth)
}

/// Text sink over the serial link.
struct Out<'a, L: SerialLink>(&'a mut L);

impl<L: SerialLink> Write for Out<'_, L> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.write_bytes(s.as_bytes());
        Ok(())
    }
}

/// Writes one reply line. Takes the reply by reference, built in its caller's frame:
/// every copy of it would cost the board's stack.
#[inline(never)] // its formatting frames stay off its callers' stacks
fn send<L: SerialLink>(link: &mut L, reply: &Reply<'_>) {
    let mut out = Out(link);
    let _ = reply.write_to(&mut out);
    let _ = out.write_str("\n");
}

/// Writes an `info` line or the `bestmove` line of a search.
#[inline(never)] // its frames stay off the search's stack
fn send_search<L: SerialLink>(
    link: &mut L,
    id: Option<RequestId>,
    report: &Report<'_>,
    best: bool,
) {
    let mut out = Out(link);
    let _ = write_search(&mut out, id, report, best);
    let _ = out.write_str("\n");
}

/// The `panic` command's panic, out of line: its formatting arguments stay off the
/// frame of `serve`, which the search runs on top of.
#[inline(never)]
fn panic_requested() -> ! {
    panic!("requested by the 'panic' command")
}

/// The `overflow` command: recurses until the stack overflows, so the board's fault
/// path takes over (it reports `error hardfault …` and restarts). Where no stack is
/// measured (the host engine, whose thread would abort) it is refused.
#[inline(never)]
fn overflow<L: SerialLink, M: MemoryProbe>(link: &mut L, memory: &M, id: Option<RequestId>) {
    let ram = memory.ram_bytes();
    if ram == 0 {
        return error(
            link,
            id,
            ErrorCode::UnknownCommand,
            "'overflow' is a board's test hook",
        );
    }
    // Each level takes more than a byte of stack: `ram` levels overflow any stack.
    core::hint::black_box(dive(ram));
    error(link, id, ErrorCode::Internal, "the stack did not overflow");
}

/// One level of [`overflow`]'s recursion: a frame of at least 64 bytes.
#[inline(never)]
fn dive(left: u32) -> u32 {
    let mut frame = [0u8; 64];
    core::hint::black_box(&mut frame);
    if left == 0 {
        return 0;
    }
    dive(left - 1).wrapping_add(u32::from(frame[0]))
}

/// Writes `error unknown-game` with the games served.
#[inline(never)]
fn unknown_game<L: SerialLink>(link: &mut L, id: Option<RequestId>) {
    let mut buf = [0u8; 64];
    let mut text = BufWriter::new(&mut buf);
    let _ = write!(text, "games: {GAMES}");
    error(link, id, ErrorCode::UnknownGame, text.as_str());
}

/// Writes `error bad-level` with the game's levels.
#[inline(never)]
fn bad_level<L: SerialLink>(link: &mut L, id: Option<RequestId>, game: &str) {
    let mut buf = [0u8; 48];
    let mut text = BufWriter::new(&mut buf);
    if let Some(info) = games::registry::by_wire_name(game) {
        let _ = match info.max_level() {
            0 => write!(text, "{} has only level 0", info.name),
            max => write!(text, "{} has levels 0 to {max}", info.name),
        };
    }
    error(link, id, ErrorCode::BadLevel, text.as_str());
}

/// Writes `pong`. Out of line, like every reply: the reply's frame is not kept on
/// the stack of `serve`, which stays on it during a search.
#[inline(never)]
fn pong<L: SerialLink>(link: &mut L, id: Option<RequestId>) {
    send(
        link,
        &Reply {
            id,
            kind: ReplyKind::Pong,
        },
    );
}

/// Writes the `help` line.
#[inline(never)]
fn help<L: SerialLink>(link: &mut L, id: Option<RequestId>) {
    send(
        link,
        &Reply {
            id,
            kind: ReplyKind::Help(
                "hello | ping | go <game> [depth=N nodes=N movetime=MS level=N seed=N info=0|1] pos <position> | perft <game> depth=N pos <position> | stop | panic | overflow (any request may carry id=N after its first word)",
            ),
        },
    );
}

/// Writes `error <code> <message>`.
#[inline(never)] // its formatting frames stay off its callers' stacks
fn error<L: SerialLink>(link: &mut L, id: Option<RequestId>, code: ErrorCode, message: &str) {
    send(
        link,
        &Reply {
            id,
            kind: ReplyKind::Error(code, message),
        },
    );
}

/// The state of one board: its link, clock and memory probe, the engines' workspace
/// (profile and arena) and the line reader.
pub struct Service<'w, L: SerialLink, C: Clock, M: MemoryProbe> {
    io: Io<L, C, M>,
    board: &'static str,
    profile: Profile,
    arena: &'w mut [u64],
    /// Arena bytes the running request's engine took (see [`Workspace::counted`]).
    arena_used: Cell<usize>,
    reader: LineReader<MAX_LINE>,
}

/// What a running search uses of the service: the link, the clock, the memory probe
/// and the reader of lines that arrive meanwhile. One struct, so the frames on the
/// request path (which stay under every search) hold one pointer to it, not five.
struct Io<L: SerialLink, C: Clock, M: MemoryProbe> {
    link: L,
    clock: C,
    memory: M,
    /// Reads lines that started during a search (all answered `error busy`).
    busy: LineReader<BUSY_LINE>,
    /// A line began during the last search and has not ended yet.
    busy_pending: bool,
}

/// The service's side of a running search: polls the link for `stop` and the clock
/// for the deadline, streams `info` lines and writes the final `bestmove` line.
struct SearchPoll<'a, L: SerialLink, C: Clock, M: MemoryProbe> {
    io: &'a mut Io<L, C, M>,
    start: u64,
    /// When the search must stop (`u64::MAX`: no time limit).
    deadline: u64,
    info: bool,
    /// The request's id, echoed on every line of the reply.
    id: Option<RequestId>,
    stopped: bool,
    /// The engine has given its answer (and the `bestmove` line is written).
    answered: bool,
    /// Arena bytes the engine took (engines take their tables before they search,
    /// so this is final when the answer comes).
    arena_used: &'a Cell<usize>,
}

impl<L: SerialLink, C: Clock, M: MemoryProbe> SearchPoll<'_, L, C, M> {
    /// One byte read during the search: `stop` ends it, any other line is busy.
    #[inline(never)] // polled at the deepest point of every search: keep poll's frame small
    fn take(&mut self, byte: u8) {
        let io = &mut *self.io;
        io.busy_pending = !matches!(byte, b'\n' | b'\r');
        match io.busy.push(byte) {
            Some(LineEvent::Line(line)) => match parse_request(line) {
                Ok(r) if r.command == Command::Stop => {
                    // The moment of the stop, for `bestmove … stop=` (a deadline
                    // passed is no longer needed once stopped).
                    self.deadline = io.clock.ticks();
                    self.stopped = true;
                }
                other => error(
                    &mut io.link,
                    other.map_or_else(|e| e.id, |r| r.id),
                    ErrorCode::Busy,
                    "search in progress; send 'stop'",
                ),
            },
            Some(_) => error(
                &mut io.link,
                None,
                ErrorCode::Busy,
                "search in progress; send 'stop'",
            ),
            None => {}
        }
    }
}

impl<L: SerialLink, C: Clock, M: MemoryProbe> Poll for SearchPoll<'_, L, C, M> {
    fn poll(&mut self, _nodes: u64) -> bool {
        while !self.stopped {
            let Some(byte) = self.io.link.read_byte() else {
                break;
            };
            self.take(byte);
        }
        if self.deadline != u64::MAX && self.io.clock.ticks() >= self.deadline {
            self.stopped = true;
        }
        self.stopped
    }

    fn elapsed_ticks(&mut self) -> u64 {
        self.io.clock.ticks().wrapping_sub(self.start)
    }

    #[inline(never)]
    fn info(&mut self, reply: &EngineReply) {
        if self.info {
            let report = Report {
                reply,
                ticks: self.io.clock.ticks().wrapping_sub(self.start),
                memory: None,
                stop: None,
            };
            send_search(&mut self.io.link, self.id, &report, false);
        }
    }

    #[inline(never)]
    fn answer(&mut self, reply: &EngineReply) {
        if !self.answered {
            self.answered = true;
            let report = Report {
                reply,
                ticks: self.io.clock.ticks().wrapping_sub(self.start),
                memory: Some((self.io.memory.peak_stack(), self.arena_used.get() as u64)),
                // Stopped by `stop` (deadline = when it was read) or by the move
                // time (the deadline itself).
                stop: self.stopped.then(|| self.deadline.wrapping_sub(self.start)),
            };
            send_search(&mut self.io.link, self.id, &report, true);
        }
    }
}

/// An engine's answer with the service's figures: what `info` and `bestmove` report.
struct Report<'a> {
    reply: &'a EngineReply,
    ticks: u64,
    /// Peak stack and arena bytes (`bestmove` only).
    memory: Option<(u32, u64)>,
    /// When the search was told to stop (`bestmove` of a stopped search).
    stop: Option<u64>,
}

impl SearchReport for Report<'_> {
    fn best(&self) -> &str {
        &self.reply.best
    }
    fn score(&self) -> crate::game::Score {
        self.reply.score
    }
    fn depth(&self) -> u8 {
        self.reply.depth
    }
    fn nodes(&self) -> u64 {
        self.reply.nodes
    }
    fn ticks(&self) -> u64 {
        self.ticks
    }
    fn stack(&self) -> Option<u32> {
        self.memory.map(|m| m.0)
    }
    fn arena(&self) -> Option<u64> {
        self.memory.map(|m| m.1)
    }
    fn stop(&self) -> Option<u64> {
        self.stop
    }
    fn pv(&self) -> &str {
        &self.reply.pv
    }
}

impl<'w, L: SerialLink, C: Clock, M: MemoryProbe> Service<'w, L, C, M> {
    /// A service for the board called `board` (reported by `hello`) whose engines
    /// run in `profile` with `arena` for their tables (the board's, or the host's).
    pub fn new(
        link: L,
        clock: C,
        memory: M,
        board: &'static str,
        profile: Profile,
        arena: &'w mut [u64],
    ) -> Self {
        Self {
            io: Io {
                link,
                clock,
                memory,
                busy: LineReader::new(),
                busy_pending: false,
            },
            board,
            profile,
            arena,
            arena_used: Cell::new(0),
            reader: LineReader::new(),
        }
    }

    /// The serial link (for the host, which inspects what was written).
    pub fn link_mut(&mut self) -> &mut L {
        &mut self.io.link
    }

    /// Reads every waiting byte and serves each completed line.
    /// Returns `true` if at least one byte was read.
    pub fn poll(&mut self) -> bool {
        let mut any = false;
        while let Some(byte) = self.io.link.read_byte() {
            any = true;
            self.feed(byte);
        }
        any
    }

    /// Serves forever (board main loop); `idle` runs when no byte is waiting (e.g. WFI).
    pub fn run(&mut self, mut idle: impl FnMut()) -> ! {
        loop {
            if !self.poll() {
                idle();
            }
        }
    }

    fn feed(&mut self, byte: u8) {
        if self.io.busy_pending {
            return self.feed_busy(byte);
        }
        let Self {
            io,
            board,
            profile,
            arena,
            arena_used,
            reader,
        } = self;
        match reader.push(byte) {
            None => {}
            Some(LineEvent::Line(line)) => {
                let mut ctx = Context {
                    io,
                    board,
                    profile: *profile,
                    arena,
                    arena_used,
                };
                ctx.serve(line);
            }
            Some(event) => line_error(&mut io.link, &event),
        }
    }

    /// The rest of a line that began while a search ran.
    #[inline(never)]
    fn feed_busy(&mut self, byte: u8) {
        let io = &mut self.io;
        io.busy_pending = !matches!(byte, b'\n' | b'\r');
        match io.busy.push(byte) {
            Some(LineEvent::Line(line)) => match parse_request(line) {
                Ok(r) if r.command == Command::Stop => {
                    error(&mut io.link, r.id, ErrorCode::Idle, "no search is running")
                }
                other => error(
                    &mut io.link,
                    other.map_or_else(|e| e.id, |r| r.id),
                    ErrorCode::Busy,
                    "line began during a search",
                ),
            },
            Some(_) => error(
                &mut io.link,
                None,
                ErrorCode::Busy,
                "line began during a search",
            ),
            None => {}
        }
    }
}

/// Answers a line that was too long or held a bad byte.
#[inline(never)]
fn line_error<L: SerialLink>(link: &mut L, event: &LineEvent<'_>) {
    match event {
        LineEvent::TooLong => error(
            link,
            None,
            ErrorCode::TooLong,
            concat!("lines are at most ", 255, " bytes"),
        ),
        LineEvent::BadByte(b) => {
            let mut buf = [0u8; 40];
            let mut text = BufWriter::new(&mut buf);
            let _ = write!(text, "byte {b:#04x} is not printable ASCII");
            error(link, None, ErrorCode::BadByte, text.as_str());
        }
        LineEvent::Line(_) => {}
    }
}

/// Borrowed pieces of the service while one line is served.
struct Context<'a, 'w, L: SerialLink, C: Clock, M: MemoryProbe> {
    io: &'a mut Io<L, C, M>,
    board: &'a str,
    profile: Profile,
    arena: &'a mut &'w mut [u64],
    arena_used: &'a Cell<usize>,
}

impl<L: SerialLink, C: Clock, M: MemoryProbe> Context<'_, '_, L, C, M> {
    #[inline(never)] // keeps each command's locals off the others' stack
    fn serve(&mut self, line: &str) {
        // Matched in place: moving the request out of the `Result` would copy it.
        let mut parsed = parse_request(line);
        let request = match &mut parsed {
            Ok(r) => r,
            Err(e) => return error(&mut self.io.link, e.id, e.code, e.message),
        };
        let id = request.id;
        // The request is passed on by reference: arguments on the stack would stay
        // in this frame, under the whole search.
        match &mut request.command {
            Command::Hello => self.hello(id),
            Command::Ping => pong(&mut self.io.link, id),
            Command::Help => help(&mut self.io.link, id),
            Command::Stop => error(
                &mut self.io.link,
                id,
                ErrorCode::Idle,
                "no search is running",
            ),
            Command::Panic => panic_requested(),
            Command::Overflow => overflow(&mut self.io.link, &self.io.memory, id),
            command @ Command::Go { .. } => self.go(id, command),
            command @ Command::Perft { .. } => self.perft(id, command),
        }
    }

    #[inline(never)] // its formatting frames stay off the search's stack
    fn hello(&mut self, id: Option<RequestId>) {
        let hello = Hello {
            board: self.board,
            fw: crate::VERSION,
            proto: PROTOCOL_VERSION,
            hz: self.io.clock.hz(),
            ram: self.io.memory.ram_bytes(),
            statics: self.io.memory.static_bytes(),
            profile: self.profile,
            arena: self.arena.len() as u64 * 8,
            games: GAMES,
        };
        send(
            &mut self.io.link,
            &Reply {
                id,
                kind: ReplyKind::Hello(hello),
            },
        );
    }

    #[inline(always)] // one frame with `serve` under the search, not two
    fn go(&mut self, id: Option<RequestId>, command: &mut Command<'_>) {
        let Command::Go {
            game,
            request,
            movetime_ms,
            info,
        } = command
        else {
            return;
        };
        let (movetime_ms, info) = (*movetime_ms, *info);
        let hz = u64::from(self.io.clock.hz());
        let ticks = u64::from(movetime_ms) * hz / 1000;
        request.limits.ticks = ticks;
        self.io.memory.begin();
        self.io.clock.align();
        let start = self.io.clock.ticks();
        self.arena_used.set(0);
        let mut poll = SearchPoll {
            io: self.io,
            start,
            deadline: if ticks > 0 {
                start.saturating_add(ticks).min(u64::MAX - 1)
            } else {
                u64::MAX
            },
            info,
            id,
            stopped: false,
            answered: false,
            arena_used: self.arena_used,
        };
        let listed = games::registry::by_wire_name(game);
        if listed.is_some_and(|g| g.level(request.level).is_none()) {
            return bad_level(&mut self.io.link, id, game);
        }
        let refused = match request.roots {
            RootMoves::All => None,
            RootMoves::Except(_) if listed.is_some_and(|g| !g.excludes) => {
                Some("this game's engine takes no exclude=")
            }
            RootMoves::Only(_) if listed.is_some_and(|g| !g.restricts) => {
                Some("this game's engine takes no only=")
            }
            _ => None,
        };
        if let Some(why) = refused {
            return error(&mut self.io.link, id, ErrorCode::Syntax, why);
        }
        match dispatch_search(game, request, &mut poll, self.profile, self.arena) {
            None => unknown_game(&mut self.io.link, id),
            Some(Err(e)) => error(&mut self.io.link, id, ErrorCode::BadPosition, e.0),
            Some(Ok(())) if !poll.answered => error(
                &mut self.io.link,
                id,
                ErrorCode::Internal,
                "the engine finished without an answer",
            ),
            Some(Ok(())) => {}
        }
    }

    #[inline(never)] // keeps each command's locals off the others' stack
    fn perft(&mut self, id: Option<RequestId>, command: &Command<'_>) {
        let &Command::Perft {
            game,
            depth,
            position,
        } = command
        else {
            return;
        };
        self.io.memory.begin();
        self.io.clock.align();
        let start = self.io.clock.ticks();
        let result = dispatch_perft(game, position, depth);
        let elapsed = self.io.clock.ticks().wrapping_sub(start);
        let stack = self.io.memory.peak_stack();
        match result {
            None => unknown_game(&mut self.io.link, id),
            Some(Err(e)) => error(&mut self.io.link, id, ErrorCode::BadPosition, e.0),
            Some(Ok(nodes)) => {
                let perft = Perft {
                    nodes,
                    ticks: elapsed,
                    stack,
                };
                send(
                    &mut self.io.link,
                    &Reply {
                        id,
                        kind: ReplyKind::Perft(perft),
                    },
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Poll;

    struct Quiet;
    impl Poll for Quiet {
        fn poll(&mut self, _nodes: u64) -> bool {
            false
        }
        fn info(&mut self, _reply: &EngineReply) {}
    }
    impl CountingPoll<'static> for Quiet {
        fn arena_used(&self) -> Option<&'static Cell<usize>> {
            None
        }
    }

    #[test]
    fn the_too_long_message_names_the_limit() {
        struct Sink(std::vec::Vec<u8>);
        impl SerialLink for Sink {
            fn read_byte(&mut self) -> Option<u8> {
                None
            }
            fn write_bytes(&mut self, bytes: &[u8]) {
                self.0.extend_from_slice(bytes);
            }
        }
        let mut link = Sink(std::vec::Vec::new());
        line_error(&mut link, &LineEvent::TooLong);
        let text = std::string::String::from_utf8(link.0).unwrap();
        assert!(
            text.contains(&std::format!("at most {MAX_LINE} bytes")),
            "{text}"
        );
    }

    #[test]
    fn every_listed_game_is_served_and_no_other() {
        let request = EngineRequest {
            position: "not a position",
            limits: crate::search::Limits::default(),
            level: 0,
            seed: 0,
            roots: RootMoves::All,
        };
        for name in GAMES.split(',') {
            let served =
                dispatch_search(name, &request, &mut Quiet, Profile::Board, &mut &mut [][..]);
            assert!(
                matches!(served, Some(Err(_))),
                "{name} must be served and reject a bad position"
            );
        }
        assert!(
            dispatch_search(
                "chess",
                &request,
                &mut Quiet,
                Profile::Board,
                &mut &mut [][..]
            )
            .is_none()
        );
    }
}
