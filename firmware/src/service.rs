//! The board's service loop: read request lines, run them, write replies.
//!
//! Written against [`SerialLink`], [`Clock`] and [`MemoryProbe`], so the same code
//! serves on the micro:bit, in QEMU and on the host (where it is the host engine).

use core::cell::Cell;
use core::fmt::{self, Write};

use crate::clock::{Clock, MemoryProbe, SerialLink};
use crate::engine::{BoardGame, EngineReply, EngineRequest, Poll, Profile, Workspace};
use crate::games;
use crate::protocol::{
    Command, ErrorCode, LineEvent, LineReader, MAX_LINE, PROTOCOL_VERSION, parse_command,
};
use crate::text::ParseError;

/// Lines read during a search only need to be told apart from `stop`.
const BUSY_LINE: usize = 16;

/// Names of the games this firmware serves, comma-separated (as `hello` reports them).
/// A test checks that every name dispatches to its engine.
pub const GAMES: &str = "ttt,gomoku,xiangqi,einstein,checkers";

macro_rules! served_games {
    ($($engine:ty),+ $(,)?) => {
        fn dispatch_search(
            game: &str,
            request: &EngineRequest<'_>,
            poll: &mut dyn Poll,
            work: &mut Workspace<'_>,
        ) -> Option<Result<(), ParseError>> {
            $(if game == <$engine as BoardGame>::NAME {
                return Some(run_search::<$engine>(request, poll, work));
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
/// locals would share one frame, and each game would pay for the largest.
#[inline(never)]
fn run_search<E: BoardGame>(
    request: &EngineRequest<'_>,
    poll: &mut dyn Poll,
    work: &mut Workspace<'_>,
) -> Result<(), ParseError> {
    E::search(request, poll, work)
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

/// Writes `error <code> <message>`.
#[inline(never)] // its formatting frames stay off its callers' stacks
fn error<L: SerialLink>(link: &mut L, code: ErrorCode, message: &dyn fmt::Display) {
    let _ = writeln!(Out(link), "error {} {}", code.as_str(), message);
}

/// The state of one board: its link, clock and memory probe, the engines' workspace
/// (profile and arena) and the line reader.
pub struct Service<'w, L: SerialLink, C: Clock, M: MemoryProbe> {
    link: L,
    clock: C,
    memory: M,
    board: &'static str,
    profile: Profile,
    arena: &'w mut [u64],
    /// Arena bytes the running request's engine took (see [`Workspace::counted`]).
    arena_used: Cell<usize>,
    reader: LineReader<MAX_LINE>,
    /// Reads lines that started during a search (all answered `error busy`).
    busy: LineReader<BUSY_LINE>,
    /// A line began during the last search and has not ended yet.
    busy_pending: bool,
}

/// The service's side of a running search: polls the link for `stop` and the clock
/// for the deadline, streams `info` lines and writes the final `bestmove` line.
struct SearchPoll<'a, L: SerialLink, C: Clock, M: MemoryProbe> {
    link: &'a mut L,
    clock: &'a C,
    memory: &'a mut M,
    busy: &'a mut LineReader<BUSY_LINE>,
    busy_pending: &'a mut bool,
    start: u64,
    deadline: Option<u64>,
    info: bool,
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
        *self.busy_pending = !matches!(byte, b'\n' | b'\r');
        match self.busy.push(byte) {
            Some(LineEvent::Line("stop")) => self.stopped = true,
            Some(_) => error(
                self.link,
                ErrorCode::Busy,
                &"search in progress; send 'stop'",
            ),
            None => {}
        }
    }
}

impl<L: SerialLink, C: Clock, M: MemoryProbe> Poll for SearchPoll<'_, L, C, M> {
    fn poll(&mut self, _nodes: u64) -> bool {
        while !self.stopped {
            let Some(byte) = self.link.read_byte() else {
                break;
            };
            self.take(byte);
        }
        if let Some(deadline) = self.deadline
            && self.clock.ticks() >= deadline
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn elapsed_ticks(&mut self) -> u64 {
        self.clock.ticks().wrapping_sub(self.start)
    }

    #[inline(never)]
    fn info(&mut self, reply: &EngineReply) {
        if self.info {
            let ticks = self.clock.ticks().wrapping_sub(self.start);
            let mut out = Out(self.link);
            let _ = write!(
                out,
                "info depth={} score={} nodes={} ticks={}",
                reply.depth, reply.score, reply.nodes, ticks
            );
            if !reply.pv.is_empty() {
                let _ = write!(out, " pv {}", reply.pv);
            }
            let _ = out.write_str("\n");
        }
    }

    #[inline(never)]
    fn answer(&mut self, reply: &EngineReply) {
        if !self.answered {
            self.answered = true;
            let elapsed = self.clock.ticks().wrapping_sub(self.start);
            let stack = self.memory.peak_stack();
            write_bestmove(self.link, reply, elapsed, stack, self.arena_used.get());
        }
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
            link,
            clock,
            memory,
            board,
            profile,
            arena,
            arena_used: Cell::new(0),
            reader: LineReader::new(),
            busy: LineReader::new(),
            busy_pending: false,
        }
    }

    /// The serial link (for the host, which inspects what was written).
    pub fn link_mut(&mut self) -> &mut L {
        &mut self.link
    }

    /// Reads every waiting byte and serves each completed line.
    /// Returns `true` if at least one byte was read.
    pub fn poll(&mut self) -> bool {
        let mut any = false;
        while let Some(byte) = self.link.read_byte() {
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
        if self.busy_pending {
            return self.feed_busy(byte);
        }
        let Self {
            link,
            clock,
            memory,
            board,
            profile,
            arena,
            arena_used,
            reader,
            busy,
            busy_pending,
        } = self;
        match reader.push(byte) {
            None => {}
            Some(LineEvent::Line(line)) => {
                let mut ctx = Context {
                    link,
                    clock,
                    memory,
                    board,
                    profile: *profile,
                    arena,
                    arena_used,
                    busy,
                    busy_pending,
                };
                ctx.serve(line);
            }
            Some(event) => line_error(link, &event),
        }
    }

    /// The rest of a line that began while a search ran.
    #[inline(never)]
    fn feed_busy(&mut self, byte: u8) {
        self.busy_pending = !matches!(byte, b'\n' | b'\r');
        match self.busy.push(byte) {
            Some(LineEvent::Line("stop")) => {
                error(&mut self.link, ErrorCode::Idle, &"no search is running")
            }
            Some(_) => error(
                &mut self.link,
                ErrorCode::Busy,
                &"line began during a search",
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
            ErrorCode::TooLong,
            &format_args!("lines are at most {MAX_LINE} bytes"),
        ),
        LineEvent::BadByte(b) => error(
            link,
            ErrorCode::BadByte,
            &format_args!("byte {b:#04x} is not printable ASCII"),
        ),
        LineEvent::Line(_) => {}
    }
}

/// Writes the final `bestmove` line.
#[inline(never)] // its formatting frames stay off the search's stack
fn write_bestmove<L: SerialLink>(
    link: &mut L,
    reply: &EngineReply,
    ticks: u64,
    stack: u32,
    arena: usize,
) {
    let mut out = Out(link);
    let _ = write!(
        out,
        "bestmove {} score={} depth={} nodes={} ticks={} stack={} arena={}",
        reply.best, reply.score, reply.depth, reply.nodes, ticks, stack, arena
    );
    if !reply.pv.is_empty() {
        let _ = write!(out, " pv {}", reply.pv);
    }
    let _ = out.write_str("\n");
}

/// Borrowed pieces of the service while one line is served.
struct Context<'a, 'w, L: SerialLink, C: Clock, M: MemoryProbe> {
    link: &'a mut L,
    clock: &'a C,
    memory: &'a mut M,
    board: &'a str,
    profile: Profile,
    arena: &'a mut &'w mut [u64],
    arena_used: &'a Cell<usize>,
    busy: &'a mut LineReader<BUSY_LINE>,
    busy_pending: &'a mut bool,
}

impl<L: SerialLink, C: Clock, M: MemoryProbe> Context<'_, '_, L, C, M> {
    #[inline(never)] // keeps each command's locals off the others' stack
    fn serve(&mut self, line: &str) {
        // Matched in place: moving the command out of the `Result` would copy it.
        let mut parsed = parse_command(line);
        let command = match &mut parsed {
            Ok(c) => c,
            Err((code, message)) => return error(self.link, *code, message),
        };
        match command {
            Command::Hello => self.hello(),
            Command::Ping => self.link.write_bytes(b"pong\n"),
            Command::Help => self.link.write_bytes(
                b"help hello | ping | go <game> [depth=N nodes=N movetime=MS level=N seed=N info=0|1] pos <position> | perft <game> depth=N pos <position> | stop | panic\n",
            ),
            Command::Stop => error(self.link, ErrorCode::Idle, &"no search is running"),
            Command::Panic => panic!("requested by the 'panic' command"),
            Command::Go {
                game,
                request,
                movetime_ms,
                info,
            } => self.go(game, request, *movetime_ms, *info),
            Command::Perft {
                game,
                depth,
                position,
            } => self.perft(game, *depth, position),
        }
    }

    #[inline(never)] // its formatting frames stay off the search's stack
    fn hello(&mut self) {
        let _ = writeln!(
            Out(self.link),
            "hello sente board={} fw={} proto={} hz={} ram={} static={} profile={} arena={} games={}",
            self.board,
            crate::VERSION,
            PROTOCOL_VERSION,
            self.clock.hz(),
            self.memory.ram_bytes(),
            self.memory.static_bytes(),
            self.profile.as_str(),
            self.arena.len() * 8,
            GAMES
        );
    }

    #[inline(never)] // keeps each command's locals off the others' stack
    fn go(&mut self, game: &str, request: &mut EngineRequest<'_>, movetime_ms: u32, info: bool) {
        let hz = u64::from(self.clock.hz());
        let ticks = u64::from(movetime_ms) * hz / 1000;
        request.limits.ticks = ticks;
        self.memory.begin();
        self.clock.align();
        let start = self.clock.ticks();
        self.arena_used.set(0);
        let mut work = Workspace::counted(self.profile, self.arena, self.arena_used);
        let mut poll = SearchPoll {
            link: self.link,
            clock: self.clock,
            memory: self.memory,
            busy: self.busy,
            busy_pending: self.busy_pending,
            start,
            deadline: (ticks > 0).then_some(start.saturating_add(ticks)),
            info,
            stopped: false,
            answered: false,
            arena_used: self.arena_used,
        };
        match dispatch_search(game, request, &mut poll, &mut work) {
            None => error(
                self.link,
                ErrorCode::UnknownGame,
                &format_args!("games: {GAMES}"),
            ),
            Some(Err(e)) => error(self.link, ErrorCode::BadPosition, &e),
            Some(Ok(())) if !poll.answered => error(
                self.link,
                ErrorCode::Internal,
                &"the engine finished without an answer",
            ),
            Some(Ok(())) => {}
        }
    }

    #[inline(never)] // keeps each command's locals off the others' stack
    fn perft(&mut self, game: &str, depth: u8, position: &str) {
        self.memory.begin();
        self.clock.align();
        let start = self.clock.ticks();
        let result = dispatch_perft(game, position, depth);
        let elapsed = self.clock.ticks().wrapping_sub(start);
        let stack = self.memory.peak_stack();
        match result {
            None => error(
                self.link,
                ErrorCode::UnknownGame,
                &format_args!("games: {GAMES}"),
            ),
            Some(Err(e)) => error(self.link, ErrorCode::BadPosition, &e),
            Some(Ok(nodes)) => {
                let _ = writeln!(
                    Out(self.link),
                    "perft nodes={nodes} ticks={elapsed} stack={stack}"
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

    #[test]
    fn every_listed_game_is_served_and_no_other() {
        let request = EngineRequest {
            position: "not a position",
            limits: crate::search::Limits::default(),
            level: 0,
            seed: 0,
        };
        for name in GAMES.split(',') {
            let served = dispatch_search(name, &request, &mut Quiet, &mut Workspace::bare());
            assert!(
                matches!(served, Some(Err(_))),
                "{name} must be served and reject a bad position"
            );
        }
        assert!(dispatch_search("chess", &request, &mut Quiet, &mut Workspace::bare()).is_none());
    }
}
