//! Bad input never panics the board: random request lines for every game go through the
//! very service loop the firmware runs, and each gets one final reply (an `error …` or an
//! answer). A panic here would be a board reset on the micro:bit.

use proptest::prelude::*;
use sente_firmware::clock::{FrozenClock, MemoryProbe, SerialLink};
use sente_firmware::engine::{Profile, REFERENCE_ARENA_WORDS};
use sente_firmware::service::{GAMES, Service};

/// An in-memory serial link.
#[derive(Default)]
struct Wire {
    input: std::collections::VecDeque<u8>,
    output: Vec<u8>,
}

impl SerialLink for Wire {
    fn read_byte(&mut self) -> Option<u8> {
        self.input.pop_front()
    }
    fn write_bytes(&mut self, bytes: &[u8]) {
        self.output.extend_from_slice(bytes);
    }
}

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

/// Serves `line` and returns the replies, each checked to parse as a typed reply;
/// then, as a host does once the reply is in, sends `ping` and checks that the
/// service still answers it.
fn serve(line: &[u8]) -> String {
    let mut arena = [0u64; REFERENCE_ARENA_WORDS];
    let mut service = Service::new(
        Wire::default(),
        FrozenClock,
        NoProbe,
        "test",
        Profile::Board,
        &mut arena,
    );
    service.link_mut().input.extend(line);
    service.link_mut().input.push_back(b'\n');
    service.poll();
    let out = String::from_utf8_lossy(&service.link_mut().output).into_owned();
    // Every line the board prints is one the host reads: the same typed replies.
    for reply in out.lines() {
        assert!(
            sente_firmware::protocol::Reply::parse(reply).is_ok(),
            "the host cannot read the board's line {reply:?}"
        );
    }
    service.link_mut().output.clear();
    service.link_mut().input.extend(b"ping\n");
    service.poll();
    assert_eq!(service.link_mut().output, b"pong\n", "after {out:?}");
    out
}

/// Characters positions and moves of all games are made of, so the parsers get deep.
const ALPHABET: &str = "abcdefghijklmnopqrstuvwxyzRNBAKCPHEX0123456789/=:,.-? ";

fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        proptest::sample::select(ALPHABET.chars().collect::<Vec<_>>()),
        0..120,
    )
    .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_positions_get_one_final_reply(game in proptest::sample::select(GAMES.split(',').collect::<Vec<_>>()), pos in text()) {
        let out = serve(format!("go {game} depth=1 nodes=200 pos {pos}").as_bytes());
        let finals: Vec<&str> = out.lines().filter(|l| !l.starts_with("info")).collect();
        prop_assert_eq!(finals.len(), 1, "{}", out);
        prop_assert!(finals[0].starts_with("bestmove ") || finals[0].starts_with("error "), "{}", out);
    }

    #[test]
    fn random_perft_requests_get_one_final_reply(game in proptest::sample::select(GAMES.split(',').collect::<Vec<_>>()), pos in text()) {
        let out = serve(format!("perft {game} depth=1 pos {pos}").as_bytes());
        prop_assert_eq!(out.lines().count(), 1, "{}", out);
    }

    #[test]
    fn random_lines_get_one_reply(line in proptest::collection::vec(any::<u8>(), 0..300)) {
        let line: Vec<u8> = line.into_iter().filter(|&b| b != b'\n' && b != b'\r').collect();
        let out = serve(&line);
        prop_assert!(out.lines().count() <= 1, "{}", out);
    }
}

/// Valid positions of every game, to be damaged by the test below.
const VALID: &[(&str, &str)] = &[
    ("ttt", "x.o/.x./..o"),
    ("gomoku", "renju h8 h9 i9 g7 i7 i8"),
    (
        "xiangqi",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7",
    ),
    (
        "einstein",
        "r:a5=6,b5=1,c5=5,a4=2,b4=4,a3=3 b:e1=6,d1=1,c1=5,e2=2,d2=4,e3=3 turn=r roll=3",
    ),
    ("checkers", "start 3 pieces=15"),
];

#[test]
fn every_kind_of_reply_parses_on_the_host() {
    for line in [
        "hello",
        "hello id=4",
        "ping id=5",
        "help",
        "stop id=6",
        "go id=7 ttt depth=2 info=1 pos x.o/.x./..o",
        "perft id=8 ttt depth=2 pos .........",
        "go ttt depth=x pos .........",
        "go chess pos startpos",
        "flap",
    ] {
        let out = serve(line.as_bytes());
        assert!(!out.is_empty(), "{line}: no reply");
        if line.contains("id=") {
            let id = line.split("id=").nth(1).unwrap().split(' ').next().unwrap();
            for reply in out.lines() {
                assert!(reply.contains(&format!(" id={id}")), "{line}: {reply}");
            }
        }
    }
}

#[test]
fn the_valid_positions_are_answered() {
    for (game, valid) in VALID {
        let out = serve(format!("go {game} depth=1 nodes=200 pos {valid}").as_bytes());
        assert!(out.starts_with("bestmove "), "{game}: {out}");
        let out = serve(format!("perft {game} depth=1 pos {valid}").as_bytes());
        assert!(out.starts_with("perft nodes="), "{game}: {out}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn damaged_positions_get_one_final_reply(
        which in 0..VALID.len(),
        edits in proptest::collection::vec((any::<u16>(), proptest::sample::select(ALPHABET.chars().collect::<Vec<_>>()), 0u8..3), 1..6),
    ) {
        let (game, valid) = VALID[which];
        let mut pos: Vec<char> = valid.chars().collect();
        for (at, c, kind) in edits {
            let i = usize::from(at) % (pos.len() + 1);
            match kind {
                0 => pos.insert(i, c),
                1 if i < pos.len() => { pos.remove(i); }
                _ if i < pos.len() => pos[i] = c,
                _ => pos.push(c),
            }
        }
        let pos: String = pos.into_iter().collect();
        let out = serve(format!("go {game} depth=1 nodes=200 pos {pos}").as_bytes());
        let finals: Vec<&str> = out.lines().filter(|l| !l.starts_with("info")).collect();
        prop_assert_eq!(finals.len(), 1, "{}", out);
        prop_assert!(finals[0].starts_with("bestmove ") || finals[0].starts_with("error "), "{}", out);
        let out = serve(format!("perft {game} depth=1 pos {pos}").as_bytes());
        prop_assert_eq!(out.lines().count(), 1, "{}", out);
        prop_assert!(out.starts_with("perft nodes=") || out.starts_with("error "), "{}", out);
    }
}
