//! The interface between the service loop and each game's engines.
//!
//! A request carries the whole position as text plus the limits, so the board keeps
//! no game state between requests. Each game implements [`BoardGame`] once; the
//! service looks games up by [`BoardGame::NAME`].
//!
//! # One engine, two profiles
//!
//! Every engine is one piece of code that runs in one of two [`Profile`]s, given with
//! its [`Workspace`]:
//!
//! - [`Profile::Board`]: what a board runs. Its sizes (search depth caps, stack-bound
//!   tables) fit the smallest board, and its tables live in the board's arena, whose
//!   size the board reports in `hello` (`arena=BYTES`). The host runs the same
//!   profile with an arena of the same size to mirror a board bit for bit (HIL).
//! - [`Profile::Host`]: what players and GUIs get from the host: the same code with
//!   the host's memory (an arena of `Hash` megabytes for the transposition table) and
//!   the time its clock allows.
//!
//! An engine clears what it uses of the arena at the start of every request, so the
//! same request gives the same answer whatever came before it.

use core::cell::Cell;
use core::fmt::Write;

use crate::game::{Game, Notation, Score};
use crate::search::{Control, Limits, SearchResult};
use crate::text::ParseError;

/// Longest move text (`h10h9`, `a1`, `3:d4`, `setup 123456`…).
pub const MOVE_TEXT: usize = 16;
/// Most root moves one request may list (`exclude=` or `only=`).
pub const MAX_EXCLUDE: usize = 16;
/// Longest principal-variation text on the wire (moves that do not fit are left off).
/// Small on purpose: the reply lives on the board's stack during the whole search.
pub const PV_TEXT: usize = 64;

/// One search request as the protocol delivers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineRequest<'a> {
    /// The position in the game's own text form (everything after `pos`).
    pub position: &'a str,
    /// Depth, node and tick limits (zero = none).
    pub limits: Limits,
    /// Engine level: 0 is the game's default (strongest that fits the budget);
    /// each game documents its levels.
    pub level: u8,
    /// Seed for anything random (dice, Monte Carlo). Same seed, same answer.
    pub seed: u64,
    /// The root moves the engine may choose from (`exclude=` / `only=`). Only games
    /// whose [`crate::games::registry::GameInfo`] says so honour a list; the service
    /// refuses it for the others.
    pub roots: RootMoves<&'a str>,
}

impl EngineRequest<'_> {
    /// The root moves of an `exclude=` list, as written (none for the other kinds).
    pub fn excluded_moves(&self) -> impl Iterator<Item = &str> {
        match self.roots {
            RootMoves::Except(list) => list,
            _ => "",
        }
        .split(',')
        .filter(|m| !m.is_empty())
    }
}

/// Which root moves a request lets the engine play: every legal move, all but a
/// list, or only a list. A list holds at most [`MAX_EXCLUDE`] moves in the game's
/// notation, separated by commas (`T` is `&str` on the wire, `String` on the host).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RootMoves<T> {
    /// Every legal move.
    #[default]
    All,
    /// Every legal move but these (`exclude=`): UCCI's `banmoves`, a multi-line
    /// search's lines after the first, Yixin's blocked points.
    Except(T),
    /// Only these (`only=`): UCI's `go searchmoves`. A listed move that is not legal
    /// is no choice; with none legal the answer is `none`.
    Only(T),
}

impl<T: AsRef<str>> RootMoves<T> {
    /// The same choice borrowing its list.
    pub fn as_deref(&self) -> RootMoves<&str> {
        match self {
            Self::All => RootMoves::All,
            Self::Except(list) => RootMoves::Except(list.as_ref()),
            Self::Only(list) => RootMoves::Only(list.as_ref()),
        }
    }

    /// The listed moves, as written (none for [`RootMoves::All`]).
    pub fn listed(&self) -> impl Iterator<Item = &str> {
        match self {
            Self::All => "",
            Self::Except(list) | Self::Only(list) => list.as_ref(),
        }
        .split(',')
        .filter(|m| !m.is_empty())
    }

    /// Whether `mv` (as written) may be played.
    pub fn allows(&self, mv: &str) -> bool {
        let listed = self.listed().any(|m| m == mv);
        match self {
            Self::All => true,
            Self::Except(_) => !listed,
            Self::Only(_) => listed,
        }
    }

    /// Whether the list names the only moves to choose from.
    pub fn is_only(&self) -> bool {
        matches!(self, Self::Only(_))
    }

    /// Whether every legal move may be played.
    pub fn is_all(&self) -> bool {
        matches!(self, Self::All)
    }
}

/// What a search found, in text form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineReply {
    /// Best move (`none` when there is no legal move).
    pub best: heapless::String<MOVE_TEXT>,
    /// Score from the side to move's point of view.
    pub score: Score,
    /// Depth of the deepest completed iteration.
    pub depth: u8,
    /// Nodes visited.
    pub nodes: u64,
    /// Principal variation, moves separated by single spaces.
    pub pv: heapless::String<PV_TEXT>,
}

/// Which sizes an engine runs with: see the module documentation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Profile {
    /// The board's sizes (what boards run, and what the host runs to mirror one).
    #[default]
    Board,
    /// The host's sizes: deep searches, big tables, the clock's time.
    Host,
}

impl Profile {
    /// The profile's name on the wire (`hello … profile=board`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Board => "board",
            Self::Host => "host",
        }
    }
}

/// The memory an engine may use for one request beyond its own stack frame: the
/// profile and an arena of 64-bit words (a board's static buffer, the host's `Hash`).
///
/// Engines carve their tables (transposition tables above all) out of the arena with
/// [`Workspace::take`] and must work with any size, an empty arena included. The
/// workspace counts the most words taken: that is the arena's share of a request's
/// RAM, which the service reports as `arena=` beside `stack=`.
#[derive(Debug)]
pub struct Workspace<'a> {
    profile: Profile,
    arena: &'a mut [u64],
    used: Option<&'a Cell<usize>>,
}

impl<'a> Workspace<'a> {
    /// A workspace of `profile` over `arena`.
    pub fn new(profile: Profile, arena: &'a mut [u64]) -> Self {
        Self {
            profile,
            arena,
            used: None,
        }
    }
    /// As [`Workspace::new`], counting the most bytes taken into `used` (which the
    /// caller reads while the engine still holds the workspace).
    pub fn counted(profile: Profile, arena: &'a mut [u64], used: &'a Cell<usize>) -> Self {
        Self {
            profile,
            arena,
            used: Some(used),
        }
    }
    /// The board profile with no arena (tests and tools that need no tables).
    pub fn bare() -> Workspace<'static> {
        Workspace::new(Profile::Board, &mut [])
    }
    /// The profile the engine runs with.
    pub fn profile(&self) -> Profile {
        // A board runs the board profile only: said as a constant there, the
        // host profile's code is left out of its image (14 KB of flash on the
        // micro:bit v1).
        if cfg!(target_os = "none") {
            Profile::Board
        } else {
            self.profile
        }
    }
    /// The first `words` words of the arena (all of it if it is smaller). Their
    /// contents are whatever the last request left: clear what you read.
    pub fn take(&mut self, words: usize) -> &mut [u64] {
        let n = words.min(self.arena.len());
        if let Some(used) = self.used {
            used.set(used.get().max(n * 8));
        }
        &mut self.arena[..n]
    }
    /// The arena's size in bytes.
    pub fn arena_bytes(&self) -> usize {
        self.arena.len() * 8
    }
}

/// What an engine asks of the service while it searches (object-safe, so one
/// implementation serves every game without code bloat on the board).
pub trait Poll {
    /// Called every few hundred nodes: `true` means stop now (`stop`, or time is up).
    fn poll(&mut self, nodes: u64) -> bool;
    /// Clock ticks since the search started, for engines that plan their time
    /// (0 where there is no clock: such searches are bounded by depth or nodes).
    fn elapsed_ticks(&mut self) -> u64 {
        0
    }
    /// A completed iteration, to stream as an `info` line.
    fn info(&mut self, reply: &EngineReply);
    /// The search's answer, given once when it has finished. The default drops it.
    fn answer(&mut self, reply: &EngineReply) {
        let _ = reply;
    }
}

/// A [`Poll`] that never stops a search and drops its `info` lines: for searches run
/// outside the service loop (tests, benchmarks, match harnesses).
#[derive(Clone, Copy, Debug, Default)]
pub struct QuietPoll;

impl Poll for QuietPoll {
    fn poll(&mut self, _nodes: u64) -> bool {
        false
    }
    fn info(&mut self, _reply: &EngineReply) {}
}

/// Streams one `info` line: the reply is built by `fill` in this call's own frame,
/// so it never sits on the stack while the search runs.
#[inline(never)]
pub fn send_info(poll: &mut dyn Poll, fill: &dyn Fn(&mut EngineReply)) {
    let mut reply = EngineReply::default();
    fill(&mut reply);
    poll.info(&reply);
}

/// Gives the search's answer, built by `fill` in this call's own frame (as
/// [`send_info`]): how every [`BoardGame::search`] ends when it succeeds.
#[inline(never)]
pub fn send_answer(poll: &mut dyn Poll, fill: &dyn Fn(&mut EngineReply)) {
    let mut reply = EngineReply::default();
    fill(&mut reply);
    poll.answer(&reply);
}

/// Forwards to another [`Poll`] and keeps the answer (see [`ask_with`]).
struct Keep<'p> {
    inner: &'p mut dyn Poll,
    answer: Option<EngineReply>,
}

impl Poll for Keep<'_> {
    fn poll(&mut self, nodes: u64) -> bool {
        self.inner.poll(nodes)
    }
    fn elapsed_ticks(&mut self) -> u64 {
        self.inner.elapsed_ticks()
    }
    fn info(&mut self, reply: &EngineReply) {
        self.inner.info(reply);
    }
    fn answer(&mut self, reply: &EngineReply) {
        self.answer = Some(reply.clone());
        self.inner.answer(reply);
    }
}

/// Runs one request outside the service loop (tests, benchmarks, match harnesses)
/// in `work` and returns the engine's answer; `poll` sees the polls and `info` lines.
pub fn ask_in<E: BoardGame>(
    request: &EngineRequest<'_>,
    poll: &mut dyn Poll,
    work: &mut Workspace<'_>,
) -> Result<EngineReply, ParseError> {
    let mut keep = Keep {
        inner: poll,
        answer: None,
    };
    E::search(request, &mut keep, work)?;
    keep.answer
        .ok_or(ParseError("the engine finished without an answer"))
}

/// Words of the arena [`ask`] and [`ask_with`] give the board profile: the
/// micro:bit v1's (see `hello`'s `arena=`), so they answer as that board does.
pub const REFERENCE_ARENA_WORDS: usize = 768;

/// [`ask_in`] in the board profile with a [`REFERENCE_ARENA_WORDS`] arena of its own.
pub fn ask_with<E: BoardGame>(
    request: &EngineRequest<'_>,
    poll: &mut dyn Poll,
) -> Result<EngineReply, ParseError> {
    let mut arena = [0u64; REFERENCE_ARENA_WORDS];
    ask_in::<E>(
        request,
        poll,
        &mut Workspace::new(Profile::Board, &mut arena),
    )
}

/// [`ask_with`] with a [`QuietPoll`].
pub fn ask<E: BoardGame>(request: &EngineRequest<'_>) -> Result<EngineReply, ParseError> {
    ask_with::<E>(request, &mut QuietPoll)
}

/// A game as the board serves it.
pub trait BoardGame {
    /// Name on the wire.
    const NAME: &'static str;
    /// Runs one search request in `work` (its profile and arena). On success the
    /// engine has given its answer once through [`Poll::answer`] (with
    /// [`send_answer`], so the text reply exists only after the search); on error it
    /// has given none.
    fn search(
        request: &EngineRequest<'_>,
        poll: &mut dyn Poll,
        work: &mut Workspace<'_>,
    ) -> Result<(), ParseError>;
    /// Counts leaf nodes of the legal move tree to `depth` (move-generator check).
    fn perft(position: &str, depth: u8) -> Result<u64, ParseError> {
        let _ = (position, depth);
        Err(ParseError("perft is not available for this game"))
    }
}

/// Writes a [`SearchResult`] as text with the game's notation.
#[inline(never)] // only live after the search, never during it
pub fn fill_reply<G: Notation>(root: &G, result: &SearchResult<G::Move>, reply: &mut EngineReply) {
    write_reply(
        root,
        result.best,
        result.score,
        result.depth,
        result.nodes,
        &result.pv,
        reply,
    );
}

/// Writes one answer (or one iteration) as text: the best move in `root`'s notation
/// (`none` without one), score, depth, nodes and the principal variation `pv`.
pub fn write_reply<G: Notation>(
    root: &G,
    best: Option<G::Move>,
    score: Score,
    depth: u8,
    nodes: u64,
    pv: &[G::Move],
    reply: &mut EngineReply,
) {
    reply.score = score;
    reply.depth = depth;
    reply.nodes = nodes;
    reply.best.clear();
    reply.pv.clear();
    match best {
        Some(mv) => {
            let _ = root.write_move(mv, &mut reply.best);
        }
        None => {
            let _ = reply.best.push_str("none");
        }
    }
    write_pv(root, pv, &mut reply.pv);
}

/// Writes a principal variation, playing it out on a copy of `root` so each move
/// is written in its own position. Stops quietly when the buffer is full.
pub fn write_pv<G: Notation>(root: &G, pv: &[G::Move], out: &mut heapless::String<PV_TEXT>) {
    let mut pos = root.clone();
    for (i, &mv) in pv.iter().enumerate() {
        let mut one = heapless::String::<MOVE_TEXT>::new();
        if pos.write_move(mv, &mut one).is_err()
            || out.len() + one.len() + usize::from(i > 0) > PV_TEXT
        {
            break;
        }
        if i > 0 {
            let _ = out.push(' ');
        }
        let _ = out.write_str(&one);
        let _ = pos.make(mv);
    }
}

/// Adapts a [`Poll`] to the generic search's [`Control`] for game `G`.
pub struct PollControl<'p, 'r, G: Notation> {
    /// The service's poll.
    pub poll: &'p mut dyn Poll,
    /// The root position (for writing `info` lines).
    pub root: &'r G,
}

impl<G: Notation> Control<G::Move> for PollControl<'_, '_, G> {
    fn poll(&mut self, nodes: u64) -> bool {
        self.poll.poll(nodes)
    }
    fn iteration(&mut self, result: &SearchResult<G::Move>) {
        send_info(self.poll, &|reply| fill_reply(self.root, result, reply));
    }
}

/// Parses the position, runs the generic negamax search and replies in text:
/// the whole [`BoardGame::search`] for games that need nothing more.
pub fn negamax_request<G: Notation>(
    request: &EngineRequest<'_>,
    poll: &mut dyn Poll,
) -> Result<(), ParseError>
where
    G::Undo: Sized,
{
    let root = G::parse_position(request.position.trim())?;
    let mut game = root.clone();
    let mut control = PollControl { poll, root: &root };
    let result = crate::search::negamax::search(&mut game, request.limits, &mut control);
    send_answer(control.poll, &|reply| fill_reply(&root, &result, reply));
    Ok(())
}

/// Perft for any [`Game`]: leaf count of the legal move tree.
pub fn perft<G: Game>(game: &mut G, depth: u8) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = G::Moves::default();
    game.generate(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let undo = game.make(mv);
        total += perft(game, depth - 1);
        game.unmake(mv, undo);
    }
    total
}
