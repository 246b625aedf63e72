//! The UCI/UCCI adapter, driven as GUIs drive it.

use super::*;
use crate::board::HostBoard;
use std::sync::mpsc;

fn session(commands: &[&str]) -> String {
    let (tx, rx) = mpsc::channel();
    for c in commands {
        tx.send(c.to_string()).unwrap();
    }
    drop(tx);
    let mut out = Vec::new();
    UciEngine::new(EngineLink::new(Box::new(HostBoard::host(4))), &mut out)
        .run(rx)
        .unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn scripted_uci_session_with_perft_and_search() {
    let out = session(&[
        "uci",
        "isready",
        "position startpos",
        "go perft 3",
        "position startpos moves h2e2 h9g7",
        "go depth 2",
        "setoption name Level value 2",
        "position fen 4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1",
        "go depth 2",
        // No `quit`: it would end the last search at its next poll, as it should.
    ]);
    assert!(out.starts_with("id name Sente xiangqi (host)\n"), "{out}");
    assert!(
        out.contains("option name Hash type spin default 64"),
        "{out}"
    );
    assert!(out.contains("uciok\nreadyok\n"), "{out}");
    assert!(out.contains("h2e2: "), "{out}");
    assert!(out.contains("\nNodes searched: 79666\n"), "{out}");
    assert_eq!(
        out.lines()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .count(),
        44
    );
    assert!(out.contains("score mate 1"), "{out}");
    assert!(out.contains("bestmove f0f8\n"), "{out}");
    assert_eq!(out.matches("bestmove ").count(), 2, "{out}");
}

#[test]
fn ucci_handshake_and_bad_input_keep_the_engine_alive() {
    let out = session(&[
        "ucci",
        "position fen nonsense",
        "flip",
        "go depth 1",
        "quit",
    ]);
    assert!(out.contains("ucciok"), "{out}");
    assert!(out.contains("option hashsize type spin"), "{out}");
    assert!(out.contains("info string position:"), "{out}");
    assert!(out.contains("keeping the previous position"), "{out}");
    assert!(out.contains("info string unknown command: flip"), "{out}");
    assert!(out.contains("bestmove "), "{out}");
    assert!(out.trim_end().ends_with("bye"), "{out}");
}

/// The moves of `bestmove` lines, in order.
fn best_moves(out: &str) -> Vec<&str> {
    out.lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|m| m.split_whitespace().next().unwrap_or(""))
        .collect()
}

fn legal_in(position: &GamePosition, mv: &str) -> bool {
    let game = position.game(position.moves.len()).unwrap();
    game.parse_move(mv).is_ok()
}

#[test]
fn an_illegal_move_keeps_the_legal_moves_before_it() {
    let out = session(&[
        "setoption name Level value 2",
        "position startpos moves b2e2 zzzz h9g7",
        "go depth 1",
    ]);
    assert!(
        out.contains("info string move zzzz is not legal here"),
        "{out}"
    );
    assert!(
        out.contains("kept the position after the 1 legal moves"),
        "{out}"
    );
    let after = GamePosition::parse("startpos moves b2e2").unwrap().0;
    let best = best_moves(&out);
    assert_eq!(best.len(), 1, "{out}");
    assert!(legal_in(&after, best[0]), "black's move expected: {out}");
}

#[test]
fn stop_right_after_go_never_answers_a_later_go() {
    // The race the protocol's request ids settle: `go` then `stop` at once, then the
    // next position and `go`. Each `go` gets one answer, for its own position.
    let mut commands = vec!["setoption name Level value 2"];
    for _ in 0..15 {
        commands.extend([
            "position startpos moves h2e2",
            "go depth 1",
            "stop",
            "position startpos moves h2e2 h9g7",
            "go depth 1",
        ]);
    }
    let out = session(&commands);
    let best = best_moves(&out);
    assert_eq!(best.len(), 30, "{out}");
    let black = GamePosition::parse("startpos moves h2e2").unwrap().0;
    let red = GamePosition::parse("startpos moves h2e2 h9g7").unwrap().0;
    for pair in best.chunks(2) {
        assert!(legal_in(&black, pair[0]), "{pair:?}: {out}");
        assert!(legal_in(&red, pair[1]), "{pair:?}: {out}");
    }
}

#[test]
fn huge_times_saturate_and_stop_still_answers() {
    let out = session(&[
        "setoption name Level value 2",
        "position startpos",
        "go movetime 5000000000",
        "stop",
        "position startpos moves h2e2",
        "go wtime 18446744073709551615 btime 99999999999999999999 depth 2",
    ]);
    let best = best_moves(&out);
    assert_eq!(best.len(), 2, "{out}");
    assert!(!best.contains(&"(none)"), "{out}");
}

#[test]
fn usebook_false_searches_from_the_start_position() {
    let book = session(&["position startpos", "go depth 2"]);
    assert!(
        book.contains("info depth 0 "),
        "the book answers at depth 0: {book}"
    );
    let searched = session(&[
        "ucci",
        "setoption usebook false",
        "position startpos",
        "go depth 2",
    ]);
    assert!(searched.contains("info depth 2 "), "{searched}");
    assert!(!searched.contains("info depth 0 "), "{searched}");
}

#[test]
fn hash_resizes_the_host_engine_and_it_goes_on() {
    let out = session(&[
        "setoption name Hash value 2",
        "setoption name Hash value 99999999999999999999",
        "setoption name Hash value lots",
        "setoption name Level value 2",
        "position startpos",
        "go depth 2",
    ]);
    assert!(out.contains("info string Hash must be a number"), "{out}");
    assert_eq!(best_moves(&out).len(), 1, "{out}");
}

#[test]
fn gui_options_are_offered_and_read() {
    let out = session(&[
        "uci",
        "setoption name Move Overhead value 100",
        "setoption name Move Overhead value 99999",
        "setoption name Ponder value true",
        "setoption name Ponder value maybe",
        "setoption name Clear Hash",
        "position startpos moves h2e2",
        "go depth 2",
    ]);
    for offered in [
        "option name Clear Hash type button",
        "option name Ponder type check default false",
        "option name Move Overhead type spin default 30 min 0 max 5000",
    ] {
        assert!(out.contains(offered), "{offered}: {out}");
    }
    assert!(
        out.contains("info string Move Overhead must be 0..5000 milliseconds"),
        "{out}"
    );
    assert!(
        out.contains("info string Ponder must be true or false"),
        "{out}"
    );
    assert!(!out.contains("unknown option"), "{out}");
    assert_eq!(best_moves(&out).len(), 1, "{out}");
}

/// Positions our rules call over (dead material, the natural-move limit, a
/// repetition) still get a legal move, and moves after them are played: a GUI
/// judges the game by its own rules and may play on.
#[test]
fn positions_our_rules_call_over_still_get_a_move() {
    let dead = "position fen 4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1";
    let natural = "position fen 3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 130 1";
    let repeated = "position fen 4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1 moves \
                    e0d0 e9f9 d0e0 f9e9 e0d0 e9f9 d0e0 f9e9 e0f0";
    for (position, legal) in [
        (dead, &["e0d0", "e0f0"][..]),
        (natural, &["e0f0", "e1d0", "e1f0", "e1d2", "e1f2"][..]),
        (repeated, &["e9e8", "e9d9"][..]),
    ] {
        let out = session(&[position, "go depth 3"]);
        assert!(!out.contains("info string"), "{out}");
        let best = best_moves(&out);
        assert_eq!(best.len(), 1, "{out}");
        assert!(legal.contains(&best[0]), "{position}: {out}");
    }
    let perft = session(&[natural, "go perft 1"]);
    assert!(perft.contains("Nodes searched: 5"), "{perft}");
}

#[test]
fn no_legal_move_is_answered_without_a_search() {
    // Black is checkmated (two rooks).
    let mated = "position fen 3k5/R8/1R7/9/9/9/9/9/9/4K4 b - - 0 1";
    assert!(session(&[mated, "go depth 3"]).contains("bestmove (none)"));
    assert!(session(&["ucci", mated, "go depth 3"]).contains("nobestmove"));
}

#[test]
fn long_games_send_a_fen_and_recent_moves() {
    let mut pos = GamePosition::start();
    // Horses out and back, repeatedly: a long legal game.
    for _ in 0..12 {
        pos.moves
            .extend(["h0g2", "h9g7", "g2h0", "g7h9"].map(String::from));
    }
    let wire = pos.wire().unwrap();
    assert!(longest_head() + wire.len() <= MAX_LINE);
    assert!(wire.contains(" moves "), "{wire}");
    let sent = Xiangqi::parse_position(&wire).unwrap();
    let whole = pos.game(pos.moves.len()).unwrap();
    assert_eq!(sent.position().key(), whole.position().key());
}

#[test]
fn scores_and_clocks() {
    assert_eq!(score_text(35, false), "cp 35");
    assert_eq!(score_text(35, true), "35");
    assert_eq!(score_text(MATE - 1, false), "mate 1");
    assert_eq!(score_text(-(MATE - 2), false), "mate -1");
    let ms = Duration::from_millis;
    let overhead = ms(30);
    // The overhead comes off a fixed move time too: the answer must reach the GUI
    // within the time it gave, latency included.
    let fixed = GoArgs::parse("movetime 500");
    assert_eq!(fixed.move_time(0, overhead), Some(ms(470)));
    assert_eq!(fixed.move_time(0, ms(0)), Some(ms(500)));
    assert_eq!(
        GoArgs::parse("movetime 20").move_time(0, overhead),
        Some(ms(1))
    );
    let clock = GoArgs::parse("wtime 60000 btime 1000 winc 0 binc 0");
    assert!(clock.move_time(0, overhead).unwrap() > ms(1500));
    assert!(clock.move_time(1, overhead).unwrap() < ms(400));
    let ucci = GoArgs::parse("time 60000 increment 1000 opptime 3000");
    assert!(ucci.move_time(1, overhead).unwrap() > ms(2000));
    assert_eq!(GoArgs::parse("depth 3").move_time(0, overhead), None);
    assert_eq!(
        GoArgs::parse("infinite movetime 30").move_time(0, overhead),
        None
    );
    assert_eq!(
        GoArgs::parse("depth 99999999999999999999").depth,
        Some(u64::MAX)
    );
}

/// A UCI/UCCI command, valid or not: positions from the start or from a FEN with
/// random edits, legal and illegal moves, bounded searches, `stop` at any time,
/// options, and lines of random printable text (none a search without a bound:
/// `go` alone would think until `stop`).
fn command_line() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let moves = proptest::collection::vec(
        prop_oneof![
            Just("h2e2"),
            Just("h9g7"),
            Just("b0c2"),
            Just("c3c4"),
            Just("h7h0"),
            Just("e0e1"),
            Just("a0a1"),
            Just("i9i8"),
            Just("zz99"),
            Just("e9e8"),
        ],
        0..8,
    )
    .prop_map(|m| m.join(" "));
    let fen = proptest::collection::vec((0usize..80, proptest::char::range('0', 'z')), 0..4)
        .prop_map(|edits| {
            let mut fen: Vec<char> = START.chars().collect();
            for (at, c) in edits {
                let at = at % fen.len();
                fen[at] = c;
            }
            fen.into_iter().collect::<String>()
        });
    prop_oneof![
        Just("uci".to_string()),
        Just("ucci".to_string()),
        Just("isready".to_string()),
        Just("ucinewgame".to_string()),
        (0u8..5).prop_map(|n| format!("setoption name Level value {n}")),
        Just("setoption usebook false".to_string()),
        (1u32..8).prop_map(|n| format!("setoption name Hash value {n}")),
        moves
            .clone()
            .prop_map(|m| format!("position startpos moves {m}")),
        (fen, moves.clone()).prop_map(|(f, m)| format!("position fen {f} moves {m}")),
        (1u8..3).prop_map(|d| format!("go depth {d}")),
        (1u32..400).prop_map(|n| format!("go nodes {n}")),
        (1u32..20).prop_map(|t| format!("go movetime {t}")),
        (1u8..3).prop_map(|d| format!("go perft {d}")),
        (moves.clone(), 1u8..3).prop_map(|(m, d)| format!("go searchmoves {m} depth {d}")),
        moves.prop_map(|m| format!("banmoves {m}")),
        (1u8..4).prop_map(|n| format!("setoption name MultiPV value {n}")),
        (0u32..3000, 0u32..3000).prop_map(|(w, b)| format!("go wtime {w} btime {b} winc 0 binc 0")),
        // A search only `stop` ends: the next line always stops it, or the one after
        // a line that waits for the search.
        Just("go movetime 18446744073709551615\nstop".to_string()),
        prop_oneof![
            Just("setoption name Level value 1"),
            Just("position startpos moves h2e2"),
            Just("ucinewgame"),
            Just("banmoves h2e2"),
            Just("isready"),
            Just("nonsense"),
        ]
        .prop_map(|l| format!("go movetime 18446744073709551615\n{l}\nstop")),
        Just("stop".to_string()),
        "[ -~]{0,24}".prop_filter("no unbounded search, no quit", |l| {
            let l = l.trim_start();
            !l.starts_with("go") && !l.starts_with("quit")
        }),
    ]
}

/// What the adapter should hold after each command, and which `go`s search (those
/// that are not perft): for each searching `go`, the position it was asked about.
fn expected_searches(commands: &[&str]) -> Vec<GamePosition> {
    let mut position = GamePosition::start();
    let mut asked = Vec::new();
    for c in commands {
        let (word, rest) = c.trim().split_once(' ').unwrap_or((c.trim(), ""));
        match word {
            "ucinewgame" => position = GamePosition::start(),
            "position" => {
                if let Ok((p, _)) = GamePosition::parse(rest) {
                    position = p;
                }
            }
            "go" if !rest.contains("perft") => asked.push(position.clone()),
            _ => {}
        }
    }
    asked
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]
    /// Whatever the GUI sends, the adapter never panics or hangs; it answers every
    /// `isready` (at once, during a search too), and every `go` gets exactly one
    /// `bestmove`, legal in the position that `go` was asked about (or `(none)` when
    /// that position has no legal move). Searches that `stop` cuts short as well.
    #[test]
    fn any_command_sequence_is_survived(
        lines in proptest::collection::vec(command_line(), 0..20),
    ) {
        let mut commands: Vec<&str> = lines.iter().flat_map(|l| l.split('\n')).collect();
        commands.push("isready");
        let out = session(&commands);
        let asked = commands.iter().filter(|c| c.trim() == "isready").count();
        let answered = out.lines().filter(|l| *l == "readyok").count();
        proptest::prop_assert_eq!(asked, answered, "{}", out);
        let searches = expected_searches(&commands);
        let answers: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("bestmove") || *l == "nobestmove")
            .collect();
        proptest::prop_assert_eq!(searches.len(), answers.len(), "{}", out);
        for (position, answer) in searches.iter().zip(&answers) {
            let game = position.game(position.moves.len()).unwrap();
            match answer.strip_prefix("bestmove ") {
                Some("(none)") | None => {
                    let mut moves = <Xiangqi as Game>::Moves::default();
                    game.generate(&mut moves);
                    proptest::prop_assert!(
                        moves.is_empty() || game.outcome().is_some(),
                        "no move answered in a live position: {}", out
                    );
                }
                Some(mv) => proptest::prop_assert!(
                    game.parse_move(mv).is_ok(),
                    "{} is not legal after {:?}: {}", mv, position, out
                ),
            }
        }
    }
}

/// Output shared with the test while the engine runs on its own thread.
#[derive(Clone, Default)]
struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

/// `go infinite` and `go ponder` answer only after `stop` / `ponderhit`, and
/// `isready` is answered while the answer waits. They search (the book answers
/// only a game's move: the start position's book move would be found at once).
#[test]
fn unbounded_searches_answer_only_when_told() {
    for (go, end) in [("go infinite", "stop"), ("go ponder", "ponderhit")] {
        let (tx, rx) = mpsc::channel();
        let out = Shared::default();
        let mut engine = UciEngine::new(EngineLink::new(Box::new(HostBoard::host(4))), out.clone());
        let thread = std::thread::spawn(move || engine.run(rx).unwrap());
        for c in ["uci", "position startpos", go] {
            tx.send(c.to_string()).unwrap();
        }
        std::thread::sleep(Duration::from_millis(300));
        assert!(!out.text().contains("bestmove"), "{go}: {}", out.text());
        tx.send("isready".into()).unwrap();
        let waited = Instant::now();
        while !out.text().contains("readyok") {
            assert!(waited.elapsed() < Duration::from_secs(10), "{}", out.text());
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(!out.text().contains("bestmove"), "{go}: {}", out.text());
        tx.send(end.into()).unwrap();
        tx.send("position startpos moves h2e2".into()).unwrap();
        tx.send("go depth 1".into()).unwrap();
        drop(tx);
        thread.join().unwrap();
        let text = out.text();
        assert_eq!(text.matches("bestmove ").count(), 2, "{go}: {text}");
        assert!(
            text.find("readyok").unwrap() < text.find("bestmove").unwrap(),
            "{text}"
        );
        let first = &text[..text.find("bestmove").unwrap()];
        assert!(first.contains("info depth 2 "), "{go}: no search: {text}");
    }
}

/// UCCI's `banmoves`: the GUI's repetition rulings hold until the next `position`.
#[test]
fn banned_moves_are_not_played_until_the_next_position() {
    let free = session(&[
        "ucci",
        "setoption usebook false",
        "position startpos",
        "go depth 3",
    ]);
    let best = best_moves(&free)[0].to_string();
    let out = session(&[
        "ucci",
        "setoption usebook false",
        "position startpos",
        &format!("banmoves {best} z9z9 h2e2"),
        "go depth 3",
        "go depth 3",
        "position startpos",
        "go depth 3",
    ]);
    let answers = best_moves(&out);
    assert_eq!(answers.len(), 3, "{out}");
    assert!(answers[0] != best && answers[0] != "h2e2", "{out}");
    assert!(answers[1] != best && answers[1] != "h2e2", "{out}");
    assert_eq!(answers[2], best, "{out}");
    assert!(
        out.contains("info string banmoves: z9z9 is not legal here"),
        "{out}"
    );
    // Every legal move banned: no move.
    let king = "position fen 3k5/9/9/9/9/9/9/9/9/4K3p w - - 0 1";
    let none = session(&["ucci", king, "banmoves e0e1 e0f0", "go depth 3"]);
    assert!(none.contains("nobestmove"), "{none}");
    assert!(best_moves(&none).is_empty(), "{none}");
}

/// `go searchmoves`: only the listed moves are played (less the banned ones), the
/// words after the list still count, and bad lists are reported, never fatal.
#[test]
fn searchmoves_restrict_the_root() {
    let free = session(&["uci", "position startpos moves h2e2 h9g7", "go depth 3"]);
    let best = best_moves(&free)[0].to_string();
    let others = ["a3a4", "i3i4", "b0c2"];
    let out = session(&[
        "uci",
        "position startpos moves h2e2 h9g7",
        &format!("go searchmoves {} depth 3", others.join(" ")),
        "go searchmoves a3a4 z9z9 h7h8 depth 2",
        "go searchmoves h7h8 depth 2",
        &format!("go depth 3 searchmoves {best}"),
    ]);
    let answers = best_moves(&out);
    assert_eq!(answers.len(), 4, "{out}");
    assert!(others.contains(&answers[0]), "{out}");
    assert_eq!(answers[1], "a3a4", "{out}");
    assert!(
        out.contains("info string searchmoves: h7h8 is not legal here"),
        "{out}"
    );
    assert!(out.contains("info string go: ignored z9z9 h7h8"), "{out}");
    // No legal move listed: every move is searched.
    assert!(out.contains("searching every move"), "{out}");
    assert_eq!(answers[3], best, "{out}");
    // The depth after the list is kept: the last search reached depth 3.
    assert!(out.contains("info depth 3 "), "{out}");
    // With UCCI's banned moves the two lists meet: the banned one is not played.
    let out = session(&[
        "ucci",
        "setoption usebook false",
        "position startpos",
        "banmoves a3a4",
        "go depth 2 searchmoves a3a4 i3i4",
    ]);
    assert_eq!(best_moves(&out), ["i3i4"], "{out}");
    // With MultiPV the lines come from the listed moves only.
    let out = session(&[
        "uci",
        "setoption name MultiPV value 3",
        "position startpos",
        "go depth 2 searchmoves a3a4 i3i4",
    ]);
    let pvs: std::collections::HashSet<&str> = out
        .lines()
        .filter(|l| l.starts_with("info depth 2 multipv "))
        .map(|l| l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap())
        .collect();
    assert_eq!(pvs, ["a3a4", "i3i4"].into_iter().collect(), "{out}");
}

/// `MultiPV 3`: three distinct lines a depth, best first, and the answer is the
/// first line of the deepest depth.
#[test]
fn multipv_shows_distinct_lines_best_first() {
    let out = session(&[
        "uci",
        "setoption name MultiPV value 3",
        "position startpos moves h2e2 h9g7",
        "go depth 3",
    ]);
    for depth in 1..=3 {
        let lines: Vec<(i32, &str)> = out
            .lines()
            .filter(|l| l.starts_with(&format!("info depth {depth} multipv ")))
            .map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                let at = |key: &str| words.iter().position(|w| *w == key).unwrap() + 1;
                (words[at("cp")].parse().unwrap(), words[at("pv")])
            })
            .collect();
        assert_eq!(lines.len(), 3, "depth {depth}: {out}");
        assert!(lines.windows(2).all(|w| w[0].0 >= w[1].0), "{out}");
        let moves: std::collections::HashSet<_> = lines.iter().map(|l| l.1).collect();
        assert_eq!(moves.len(), 3, "{out}");
        if depth == 3 {
            assert_eq!(best_moves(&out), vec![lines[0].1], "{out}");
        }
    }
    let bad = session(&["uci", "setoption name MultiPV value 0"]);
    assert!(bad.contains("info string MultiPV must be 1..16"), "{bad}");
}

/// `go ponder` searches until `ponderhit`, then goes on as the clock says (here a
/// depth limit ends it) and answers once; without a clock, `ponderhit` answers at once.
#[test]
fn ponderhit_turns_the_ponder_search_into_a_normal_one() {
    let out = session(&[
        "uci",
        "setoption name UseBook value false",
        "position startpos moves h2e2",
        "go ponder wtime 600000 btime 600000 depth 3",
        "ponderhit",
    ]);
    assert_eq!(best_moves(&out).len(), 1, "{out}");
    assert!(out.contains("info depth 3 "), "{out}");
    let args = GoArgs::parse("ponder wtime 1000 btime 1000");
    assert!(args.ponder && args.infinite);
    let bare = session(&[
        "uci",
        "position startpos moves h2e2",
        "go ponder",
        "ponderhit",
    ]);
    assert_eq!(best_moves(&bare).len(), 1, "{bare}");
}

/// The last `info` line before `bestmove` counts every node the search used, the
/// unfinished last iteration's too (`go nodes` spends exactly its budget).
#[test]
fn the_last_info_line_gives_the_nodes_of_the_whole_search() {
    let out = session(&[
        "uci",
        "setoption name UseBook value false",
        "position startpos moves h2e2",
        "go nodes 3000",
    ]);
    let last = out
        .lines()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last.contains(" nodes 3000 "), "{out}");
    assert_eq!(best_moves(&out).len(), 1, "{out}");
}

/// A line sent during a search that only `stop` ends (`go infinite`) does not hide
/// the `stop` behind it: the search stops, then the line runs (found by fuzzing the
/// adapter as a process: a `setoption` there hung it, `quit` included).
#[test]
fn lines_before_stop_wait_for_the_search_and_do_not_hide_it() {
    for during in [
        "setoption name Move Overhead value 1",
        "position fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "ucinewgame",
        "nonsense",
    ] {
        let (tx, rx) = mpsc::channel();
        let out = Shared::default();
        let mut engine = UciEngine::new(EngineLink::new(Box::new(HostBoard::host(4))), out.clone());
        let thread = std::thread::spawn(move || engine.run(rx).unwrap());
        for c in [
            "uci",
            "position startpos moves b2e2",
            "go infinite",
            during,
            "stop",
            "isready",
        ] {
            tx.send(c.to_string()).unwrap();
        }
        let waited = Instant::now();
        while !out.text().contains("readyok") {
            assert!(
                waited.elapsed() < Duration::from_secs(20),
                "{during}: {}",
                out.text()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        // The line ran after the answer: a new position is searched from.
        tx.send("go depth 1".into()).unwrap();
        tx.send("quit".into()).unwrap();
        thread.join().unwrap();
        let text = out.text();
        let answers: Vec<&str> = best_moves(&text);
        assert_eq!(answers.len(), 2, "{during}: {text}");
        if during.starts_with("position") {
            let p = GamePosition::parse(during.strip_prefix("position ").unwrap())
                .unwrap()
                .0;
            assert!(legal_in(&p, answers[1]), "{during}: {text}");
        }
    }
}
