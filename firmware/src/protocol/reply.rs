//! Reply lines: one typed [`Reply`] per line, printed by the board and parsed by the
//! host, so both ends read the same grammar (see `docs/protocol.md`).
//!
//! Every reply line is `<kind> [id=N] <rest>`: the request's id, when it carried one,
//! comes right after the kind, on every line of its reply.

use core::fmt;

use super::request::{ErrorCode, RequestId};
use crate::engine::Profile;
use crate::game::Score;
use crate::text::ParseError;

/// One line a board sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reply<'a> {
    /// The id of the request this line answers (echoed from `id=N`).
    pub id: Option<RequestId>,
    /// What the line says.
    pub kind: ReplyKind<'a>,
}

/// The kinds of reply line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplyKind<'a> {
    /// `hello sente …`: who the board is.
    Hello(Hello<'a>),
    /// `pong`: the answer to `ping`.
    Pong,
    /// `help <text>`.
    Help(&'a str),
    /// `info …`: one completed iteration of a running search (not final).
    Info(Search<'a>),
    /// `bestmove <move> …`: a search's answer.
    BestMove(Search<'a>),
    /// `perft nodes=…`: a move-generator count.
    Perft(Perft),
    /// `error <code> <message>`.
    Error(ErrorCode, &'a str),
}

/// The fields of `hello`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hello<'a> {
    /// Board name (`microbit-v1`, `host`…).
    pub board: &'a str,
    /// Firmware version.
    pub fw: &'a str,
    /// Protocol version.
    pub proto: u32,
    /// Clock ticks per second.
    pub hz: u32,
    /// RAM in bytes (0 where unknown).
    pub ram: u32,
    /// Static RAM in bytes (0 where unknown).
    pub statics: u32,
    /// The engines' profile.
    pub profile: Profile,
    /// Bytes of the engines' arena.
    pub arena: u64,
    /// Games served, comma-separated.
    pub games: &'a str,
}

/// A search report: an `info` line (no move, no memory figures) or a `bestmove` line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Search<'a> {
    /// The best move (`bestmove` only; may be two words, e.g. `setup 615243`).
    pub best: &'a str,
    /// Score from the side to move's view.
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: u8,
    /// Nodes visited.
    pub nodes: u64,
    /// Clock ticks spent.
    pub ticks: u64,
    /// Peak stack bytes (`bestmove` only).
    pub stack: Option<u32>,
    /// Arena bytes taken (`bestmove` only).
    pub arena: Option<u64>,
    /// When the search was told to stop, in ticks since it started (`bestmove`
    /// of a search ended by `stop` or by its move time): `ticks - stop` is how
    /// long the engine took to answer.
    pub stop: Option<u64>,
    /// The principal variation, moves separated by single spaces (may be empty).
    pub pv: &'a str,
}

impl Search<'_> {
    /// The moves of the principal variation.
    pub fn pv_moves(&self) -> impl Iterator<Item = &str> {
        self.pv.split(' ').filter(|m| !m.is_empty())
    }
}

/// The fields of `perft`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Perft {
    /// Leaf count.
    pub nodes: u64,
    /// Clock ticks spent.
    pub ticks: u64,
    /// Peak stack bytes.
    pub stack: u32,
}

impl ReplyKind<'_> {
    /// The first word of the line.
    pub fn word(&self) -> &'static str {
        match self {
            Self::Hello(_) => "hello",
            Self::Pong => "pong",
            Self::Help(_) => "help",
            Self::Info(_) => "info",
            Self::BestMove(_) => "bestmove",
            Self::Perft(_) => "perft",
            Self::Error(..) => "error",
        }
    }

    /// Whether this line ends a reply (everything but `info`).
    pub fn is_final(&self) -> bool {
        !matches!(self, Self::Info(_))
    }
}

/// Writes a whole number without `core::fmt`'s machinery (a board's stack is small).
fn write_u64<W: fmt::Write + ?Sized>(out: &mut W, mut n: u64) -> fmt::Result {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    out.write_str(core::str::from_utf8(&buf[i..]).unwrap_or("0"))
}

/// Writes a signed whole number.
fn write_i64<W: fmt::Write + ?Sized>(out: &mut W, n: i64) -> fmt::Result {
    if n < 0 {
        out.write_str("-")?;
    }
    write_u64(out, n.unsigned_abs())
}

/// Writes ` key=value`.
fn field<W: fmt::Write + ?Sized>(out: &mut W, key: &str, value: u64) -> fmt::Result {
    out.write_str(" ")?;
    out.write_str(key)?;
    out.write_str("=")?;
    write_u64(out, value)
}

/// What an `info` or `bestmove` line reports, however the writer keeps it: a parsed
/// [`Search`], or a board's own answer (which builds no [`Search`] on its small stack).
pub trait SearchReport {
    /// The best move (`bestmove` lines).
    fn best(&self) -> &str;
    /// Score from the side to move's view.
    fn score(&self) -> Score;
    /// Deepest completed iteration.
    fn depth(&self) -> u8;
    /// Nodes visited.
    fn nodes(&self) -> u64;
    /// Clock ticks spent.
    fn ticks(&self) -> u64;
    /// Peak stack bytes (`bestmove` lines).
    fn stack(&self) -> Option<u32>;
    /// Arena bytes taken (`bestmove` lines).
    fn arena(&self) -> Option<u64>;
    /// When the search was told to stop, in ticks since it started (`bestmove`
    /// lines of stopped searches).
    fn stop(&self) -> Option<u64>;
    /// The principal variation, moves separated by single spaces.
    fn pv(&self) -> &str;
}

impl SearchReport for Search<'_> {
    fn best(&self) -> &str {
        self.best
    }
    fn score(&self) -> Score {
        self.score
    }
    fn depth(&self) -> u8 {
        self.depth
    }
    fn nodes(&self) -> u64 {
        self.nodes
    }
    fn ticks(&self) -> u64 {
        self.ticks
    }
    fn stack(&self) -> Option<u32> {
        self.stack
    }
    fn arena(&self) -> Option<u64> {
        self.arena
    }
    fn stop(&self) -> Option<u64> {
        self.stop
    }
    fn pv(&self) -> &str {
        self.pv
    }
}

/// Writes a search report as an `info` line (`best` false) or a `bestmove` line,
/// without its terminator: what [`Reply::write_to`] writes for those kinds, and what a
/// board writes directly from its own answer.
pub fn write_search<W: fmt::Write + ?Sized, S: SearchReport + ?Sized>(
    out: &mut W,
    id: Option<RequestId>,
    s: &S,
    best: bool,
) -> fmt::Result {
    out.write_str(if best { "bestmove" } else { "info" })?;
    if let Some(id) = id {
        field(out, "id", u64::from(id.0))?;
    }
    if best {
        out.write_str(" ")?;
        out.write_str(s.best())?;
        out.write_str(" score=")?;
        write_i64(out, i64::from(s.score()))?;
        field(out, "depth", u64::from(s.depth()))?;
    } else {
        field(out, "depth", u64::from(s.depth()))?;
        out.write_str(" score=")?;
        write_i64(out, i64::from(s.score()))?;
    }
    field(out, "nodes", s.nodes())?;
    field(out, "ticks", s.ticks())?;
    if best {
        if let Some(stack) = s.stack() {
            field(out, "stack", u64::from(stack))?;
        }
        if let Some(arena) = s.arena() {
            field(out, "arena", arena)?;
        }
        if let Some(stop) = s.stop() {
            field(out, "stop", stop)?;
        }
    }
    write_pv(out, s.pv())
}

impl Reply<'_> {
    /// Writes the line (without its terminator) to `out`. Numbers are written without
    /// `core::fmt`'s formatter: the board writes replies while its stack is deep.
    pub fn write_to<W: fmt::Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        let head = |out: &mut W| -> fmt::Result {
            out.write_str(self.kind.word())?;
            match self.id {
                Some(id) => field(out, "id", u64::from(id.0)),
                None => Ok(()),
            }
        };
        match &self.kind {
            ReplyKind::Info(s) => write_search(out, self.id, s, false),
            ReplyKind::BestMove(s) => write_search(out, self.id, s, true),
            ReplyKind::Hello(h) => {
                head(out)?;
                out.write_str(" sente board=")?;
                out.write_str(h.board)?;
                out.write_str(" fw=")?;
                out.write_str(h.fw)?;
                field(out, "proto", u64::from(h.proto))?;
                field(out, "hz", u64::from(h.hz))?;
                field(out, "ram", u64::from(h.ram))?;
                field(out, "static", u64::from(h.statics))?;
                out.write_str(" profile=")?;
                out.write_str(h.profile.as_str())?;
                field(out, "arena", h.arena)?;
                out.write_str(" games=")?;
                out.write_str(h.games)
            }
            ReplyKind::Pong => head(out),
            ReplyKind::Help(text) => {
                head(out)?;
                out.write_str(" ")?;
                out.write_str(text)
            }
            ReplyKind::Perft(p) => {
                head(out)?;
                field(out, "nodes", p.nodes)?;
                field(out, "ticks", p.ticks)?;
                field(out, "stack", u64::from(p.stack))
            }
            ReplyKind::Error(code, message) => {
                head(out)?;
                out.write_str(" ")?;
                out.write_str(code.as_str())?;
                if message.is_empty() {
                    Ok(())
                } else {
                    out.write_str(" ")?;
                    out.write_str(message)
                }
            }
        }
    }
}

impl fmt::Display for Reply<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

fn write_pv<W: fmt::Write + ?Sized>(out: &mut W, pv: &str) -> fmt::Result {
    if pv.is_empty() {
        Ok(())
    } else {
        out.write_str(" pv ")?;
        out.write_str(pv)
    }
}

/// Splits `text` at the first space: (word, rest with leading spaces removed).
fn first_word(text: &str) -> (&str, &str) {
    match text.split_once(' ') {
        Some((w, rest)) => (w, rest.trim_start()),
        None => (text, ""),
    }
}

/// Takes a leading `id=N` off `rest`.
fn take_id(rest: &str) -> Result<(Option<RequestId>, &str), ParseError> {
    let (word, after) = first_word(rest);
    match word.strip_prefix("id=") {
        Some(n) => Ok((
            Some(RequestId(n.parse().map_err(|_| ParseError("bad id"))?)),
            after,
        )),
        None => Ok((None, rest)),
    }
}

/// `key=value` fields of a line, in order, each read by its own key.
struct Fields<'a> {
    rest: &'a str,
}

impl<'a> Fields<'a> {
    /// The value of the next field, which must be `key`.
    fn next(&mut self, key: &'static str) -> Result<&'a str, ParseError> {
        let (word, after) = first_word(self.rest);
        let value = word
            .strip_prefix(key)
            .and_then(|v| v.strip_prefix('='))
            .ok_or(ParseError("a field is missing or out of order"))?;
        self.rest = after;
        Ok(value)
    }
    /// The next field, which must be `key`, as a number.
    fn num<T: core::str::FromStr>(&mut self, key: &'static str) -> Result<T, ParseError> {
        self.next(key)?
            .parse()
            .map_err(|_| ParseError("a field is not a number"))
    }
    /// The next field if it is `key`.
    fn optional<T: core::str::FromStr>(
        &mut self,
        key: &'static str,
    ) -> Result<Option<T>, ParseError> {
        let (word, _) = first_word(self.rest);
        if word.split_once('=').is_some_and(|(k, _)| k == key) {
            self.num(key).map(Some)
        } else {
            Ok(None)
        }
    }
    /// What is left: empty, or `pv <moves>`.
    fn pv(self) -> Result<&'a str, ParseError> {
        match first_word(self.rest) {
            ("", _) => Ok(""),
            ("pv", moves) => Ok(moves.trim_end()),
            _ => Err(ParseError("unexpected text after the fields")),
        }
    }
}

impl<'a> Reply<'a> {
    /// Reads one reply line (surrounding blanks ignored).
    pub fn parse(line: &'a str) -> Result<Self, ParseError> {
        let (word, rest) = first_word(line.trim());
        let (id, rest) = take_id(rest)?;
        let kind = match word {
            "hello" => ReplyKind::Hello(parse_hello(rest)?),
            "pong" if rest.is_empty() => ReplyKind::Pong,
            "help" => ReplyKind::Help(rest),
            "info" => {
                let mut f = Fields { rest };
                let depth = f.num("depth")?;
                let score = f.num("score")?;
                let nodes = f.num("nodes")?;
                let ticks = f.num("ticks")?;
                ReplyKind::Info(Search {
                    best: "",
                    score,
                    depth,
                    nodes,
                    ticks,
                    stack: None,
                    arena: None,
                    stop: None,
                    pv: f.pv()?,
                })
            }
            "bestmove" => {
                // The move is every word before the first field.
                let end = rest
                    .find(" score=")
                    .ok_or(ParseError("bestmove has no score"))?;
                let best = rest[..end].trim();
                if best.is_empty() {
                    return Err(ParseError("bestmove has no move"));
                }
                let mut f = Fields {
                    rest: rest[end..].trim_start(),
                };
                let score = f.num("score")?;
                let depth = f.num("depth")?;
                let nodes = f.num("nodes")?;
                let ticks = f.num("ticks")?;
                let stack = f.optional("stack")?;
                let arena = f.optional("arena")?;
                let stop = f.optional("stop")?;
                ReplyKind::BestMove(Search {
                    best,
                    score,
                    depth,
                    nodes,
                    ticks,
                    stack,
                    arena,
                    stop,
                    pv: f.pv()?,
                })
            }
            "perft" => {
                let mut f = Fields { rest };
                let p = Perft {
                    nodes: f.num("nodes")?,
                    ticks: f.num("ticks")?,
                    stack: f.num("stack")?,
                };
                f.pv()?;
                ReplyKind::Perft(p)
            }
            "error" => {
                let (code, message) = first_word(rest);
                let code = ErrorCode::from_wire(code).ok_or(ParseError("unknown error code"))?;
                ReplyKind::Error(code, message.trim_end())
            }
            _ => return Err(ParseError("not a reply line")),
        };
        Ok(Self { id, kind })
    }
}

fn parse_hello(rest: &str) -> Result<Hello<'_>, ParseError> {
    let (sente, rest) = first_word(rest);
    if sente != "sente" {
        return Err(ParseError("hello from something that is not a Sente board"));
    }
    let mut f = Fields { rest };
    let hello = Hello {
        board: f.next("board")?,
        fw: f.next("fw")?,
        proto: f.num("proto")?,
        hz: f.num("hz")?,
        ram: f.num("ram")?,
        statics: f.num("static")?,
        profile: match f.next("profile")? {
            "board" => Profile::Board,
            "host" => Profile::Host,
            _ => return Err(ParseError("unknown profile")),
        },
        arena: f.num("arena")?,
        games: f.next("games")?,
    };
    f.pv()
        .ok()
        .filter(|pv| pv.is_empty())
        .ok_or(ParseError("unexpected text after hello's fields"))?;
    Ok(hello)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn round_trip(reply: Reply<'_>) {
        let text = std::format!("{reply}");
        assert_eq!(Reply::parse(&text), Ok(reply), "{text}");
    }

    #[test]
    fn reads_what_the_board_prints() {
        let line =
            "bestmove setup 615243 score=0 depth=0 nodes=0 ticks=1 stack=0 arena=0 pv setup 615243";
        let r = Reply::parse(line).unwrap();
        let ReplyKind::BestMove(s) = r.kind else {
            panic!("{r:?}")
        };
        assert_eq!(
            (s.best, s.pv, s.stack),
            ("setup 615243", "setup 615243", Some(0))
        );
        assert_eq!(std::format!("{r}"), line);
        let e = Reply::parse("error id=4 bad-position cell must be a1..c3").unwrap();
        assert_eq!(e.id, Some(RequestId(4)));
        assert_eq!(
            e.kind,
            ReplyKind::Error(ErrorCode::BadPosition, "cell must be a1..c3")
        );
        assert!(Reply::parse("bestmove score=1 depth=1 nodes=1 ticks=1").is_err());
        assert!(Reply::parse("pong extra").is_err());
        assert!(Reply::parse("info depth=1 score=x nodes=1 ticks=1").is_err());
        assert!(Reply::parse("error no-such-code x").is_err());
    }

    fn word() -> impl Strategy<Value = String> {
        "[a-z0-9:-]{1,6}"
    }

    fn words(max: usize) -> impl Strategy<Value = String> {
        proptest::collection::vec(word(), 0..max).prop_map(|w| w.join(" "))
    }

    fn code() -> impl Strategy<Value = ErrorCode> {
        proptest::sample::select(ErrorCode::ALL.to_vec())
    }

    proptest! {
        #[test]
        fn every_reply_round_trips(
            id in proptest::option::of(any::<u32>()),
            which in 0u8..7,
            best in words(2).prop_filter("a move", |w| !w.is_empty()),
            pv in words(5),
            score in any::<i32>(),
            depth in any::<u8>(),
            nodes in any::<u64>(),
            ticks in any::<u64>(),
            stack in proptest::option::of(any::<u32>()),
            arena in proptest::option::of(any::<u64>()),
            stop in proptest::option::of(any::<u64>()),
            text in words(6),
            code in code(),
            host in any::<bool>(),
        ) {
            let search = Search { best: "", score, depth, nodes, ticks, stack: None, arena: None, stop: None, pv: &pv };
            let kind = match which {
                0 => ReplyKind::Hello(Hello {
                    board: "microbit-v1", fw: "0.1.0", proto: 1, hz: depth.into(), ram: stack.unwrap_or(0),
                    statics: 104, profile: if host { Profile::Host } else { Profile::Board },
                    arena: arena.unwrap_or(0), games: "ttt,gomoku",
                }),
                1 => ReplyKind::Pong,
                2 => ReplyKind::Help(&text),
                3 => ReplyKind::Info(search),
                4 => ReplyKind::BestMove(Search { best: &best, stack, arena, stop, ..search }),
                5 => ReplyKind::Perft(Perft { nodes, ticks, stack: stack.unwrap_or(0) }),
                _ => ReplyKind::Error(code, &text),
            };
            round_trip(Reply { id: id.map(RequestId), kind });
        }

        #[test]
        fn any_text_is_read_or_refused_without_panic(line in "\\PC{0,80}") {
            let _ = Reply::parse(&line);
        }
    }
}
