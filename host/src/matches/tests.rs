//! Matches on the host engine: every game, colours, pairing, reproducibility.

use super::*;
use std::time::Duration;

fn options(game: &str, games: u32, seed: u64) -> MatchOptions {
    MatchOptions {
        game: game.into(),
        games,
        seed,
        ..MatchOptions::default()
    }
}

/// Two host engines with small tables (a worker's players).
fn hosts() -> anyhow::Result<[Box<dyn Player>; 2]> {
    let open = || -> anyhow::Result<Box<dyn Player>> {
        Ok(Box::new(crate::engine::EngineLink::open_spec(
            crate::engine::Spec::Host(4),
        )?))
    };
    Ok([open()?, open()?])
}

fn play(options: &MatchOptions) -> MatchResult {
    let mut lines = Vec::new();
    let r = run_match(options, &hosts, &mut |g, _| lines.push(g.line()));
    assert!(r.error.is_none(), "{:?}", r.error);
    assert_eq!(lines.len(), r.records.len());
    assert_eq!(r.summary.games() as usize, r.records.len());
    r
}

#[test]
fn host_against_host_alternates_colours_and_never_loses_at_ttt() {
    let r = play(&options("ttt", 4, 42));
    let firsts: Vec<bool> = r.records.iter().map(|g| g.white_first).collect();
    assert_eq!(firsts, [true, false, true, false]);
    // Paired games share their opening; the next pair has another.
    let opening = |g: &GameRecord| g.moves[..g.opening_plies].to_vec();
    assert_eq!(opening(&r.records[0]), opening(&r.records[1]));
    assert_ne!(opening(&r.records[0]), opening(&r.records[2]));
    for g in &r.records {
        assert!((1..=2).contains(&g.opening_plies));
        assert!(g.moves.len() >= 5, "{g:?}");
        assert_eq!(g.length, g.moves.len());
    }
    // Same seed, same games.
    assert_eq!(play(&options("ttt", 4, 42)).records, r.records);
}

#[test]
fn unknown_games_and_bad_levels_are_errors() {
    let r = run_match(&options("chess", 1, 0), &hosts, &mut |_, _| {});
    let e = format!("{:#}", r.error.unwrap());
    assert!(
        e.contains("chess") && e.contains("einstein, checkers"),
        "{e}"
    );
    let bad = MatchOptions {
        level_black: 2,
        ..options("checkers", 2, 0)
    };
    let e = format!("{:#}", validate(&bad).unwrap_err());
    assert!(
        e.contains("--level-black 2") && e.contains("levels 0 to 1"),
        "{e}"
    );
    let r = run_match(&bad, &hosts, &mut |_, _| {});
    assert!(r.error.is_some() && r.records.is_empty());
    let e = validate(&MatchOptions {
        level_white: 3,
        ..options("einstein", 2, 0)
    })
    .unwrap_err();
    assert!(format!("{e}").contains("--level-white 3"), "{e}");
    assert!(validate(&options("einstein", 0, 0)).is_err());
    assert!(validate(&options("tic-tac-toe", 1, 0)).is_ok());
}

/// The rolls of an EinStein game, in order.
fn rolls(g: &GameRecord) -> Vec<&str> {
    g.moves
        .iter()
        .filter_map(|m| m.strip_prefix("roll "))
        .collect()
}

#[test]
fn einstein_referee_rolls_shares_dice_in_pairs_and_reproduces() {
    let strong_vs_random = MatchOptions {
        level_black: 2,
        nodes: 300,
        ..options("einstein", 6, 7)
    };
    let r = play(&strong_vs_random);
    for g in &r.records {
        // Both engines set up first (red, then blue), then every step follows a roll.
        assert!(g.moves[0].starts_with("setup ") && g.moves[1].starts_with("setup "));
        assert_eq!(g.opening_plies, 0);
        let steps = &g.moves[2..];
        for (i, m) in steps.iter().enumerate() {
            assert_eq!(m.starts_with("roll "), i % 2 == 0, "{g:?}");
        }
        assert_eq!(g.length, steps.len() / 2);
        assert!(g.length >= 4, "{g:?}");
        assert!(!g.adjudicated);
        assert!(
            g.result == "red wins" || g.result == "blue wins",
            "{}",
            g.result
        );
    }
    // The strong engine (level 0) always sets up 615243, the random one varies per game.
    for g in &r.records {
        let white_setup = if g.white_first {
            &g.moves[0]
        } else {
            &g.moves[1]
        };
        assert_eq!(white_setup, "setup 615243");
    }
    let random_setups: std::collections::HashSet<&String> = r
        .records
        .iter()
        .map(|g| {
            if g.white_first {
                &g.moves[1]
            } else {
                &g.moves[0]
            }
        })
        .collect();
    assert!(random_setups.len() >= 5, "{random_setups:?}");
    // Games of a pair share the dice: the k-th roll is the same in both.
    for pair in r.records.chunks(2) {
        let (a, b) = (rolls(&pair[0]), rolls(&pair[1]));
        let n = a.len().min(b.len());
        assert_eq!(a[..n], b[..n]);
    }
    assert_ne!(rolls(&r.records[0])[..3], rolls(&r.records[2])[..3]);
    // Same seed, same records; another seed, other games.
    assert_eq!(play(&strong_vs_random).records, r.records);
    let other = play(&MatchOptions {
        seed: 8,
        ..strong_vs_random
    });
    assert_ne!(other.records, r.records);
}

#[test]
fn einstein_monte_carlo_level_is_reproducible() {
    let strong_vs_seed = MatchOptions {
        level_black: 1,
        nodes: 400,
        ..options("einstein", 2, 3)
    };
    let a = play(&strong_vs_seed);
    let b = play(&strong_vs_seed);
    assert_eq!(a.records, b.records);
    assert_eq!(a.summary, b.summary);
    assert_eq!(a.lengths, b.lengths);
    // The Monte Carlo player sets up at random, from its own per-game seed.
    let seed_setups: Vec<&String> = a
        .records
        .iter()
        .map(|g| {
            if g.white_first {
                &g.moves[1]
            } else {
                &g.moves[0]
            }
        })
        .collect();
    assert_ne!(seed_setups[0], seed_setups[1]);
}

#[test]
fn checkers_search_beats_greedy_on_varied_openings() {
    let search_vs_greedy = MatchOptions {
        level_black: 1,
        depth: 1,
        ..options("checkers", 4, 5)
    };
    let r = play(&search_vs_greedy);
    let opening = |g: &GameRecord| g.moves[..g.opening_plies].to_vec();
    assert_eq!(opening(&r.records[0]), opening(&r.records[1]));
    assert_ne!(opening(&r.records[0]), opening(&r.records[2]));
    for g in &r.records {
        assert!((2..=4).contains(&g.opening_plies), "{g:?}");
        assert_eq!(g.length, g.moves.len());
        // Ten pieces cross 16 rows: no side can win in fewer than 30 of its moves.
        assert!(g.length >= 59 || g.adjudicated, "{}", g.line());
    }
    assert!(r.summary.wins >= 3, "{}", r.report("host", "plies"));
    assert_eq!(play(&search_vs_greedy).records, r.records);
}

#[test]
fn checkers_games_are_adjudicated_at_the_ply_cap() {
    let capped = MatchOptions {
        level_black: 1,
        depth: 1,
        max_plies: 20,
        ..options("checkers", 2, 5)
    };
    let r = play(&capped);
    for g in &r.records {
        assert!(g.adjudicated);
        assert_eq!(g.length, 20);
        assert!(
            g.result
                .contains("adjudicated at the ply cap: distance to goal"),
            "{}",
            g.result
        );
    }
    assert_eq!(r.adjudicated, 2);
    assert!(r.report("host", "plies").contains("adjudicated: 2 games"));
}

#[test]
fn gomoku_and_xiangqi_still_play() {
    let gomoku = MatchOptions {
        nodes: 200,
        ..options("gomoku", 2, 1)
    };
    let r = play(&gomoku);
    assert!(r.records.iter().all(|g| g.moves.len() >= 9));
    let xiangqi = MatchOptions {
        depth: 1,
        max_plies: 30,
        ..options("xiangqi", 2, 1)
    };
    let r = play(&xiangqi);
    for g in &r.records {
        assert!(g.length <= 30, "{}", g.line());
        assert!(g.result.contains("wins") || g.result.contains("draw"));
    }
}

#[test]
fn each_side_may_have_its_own_limits() {
    let both = MatchOptions {
        depth: 3,
        nodes: 500,
        ..options("xiangqi", 2, 1)
    };
    assert_eq!(
        (both.white_limits(), both.black_limits()),
        (
            SideLimits {
                level: 0,
                depth: 3,
                nodes: 500
            },
            SideLimits {
                level: 0,
                depth: 3,
                nodes: 500
            }
        )
    );
    // Xiangqi at depth 1 against depth 3: the deeper side searches more nodes a move.
    let uneven = MatchOptions {
        depth: 3,
        depth_white: Some(1),
        max_plies: 20,
        ..options("xiangqi", 2, 1)
    };
    assert_eq!(uneven.white_limits().depth, 1);
    assert_eq!(uneven.black_limits().depth, 3);
    let r = play(&uneven);
    let [white, black] = &r.effort;
    assert!(
        white.nodes * black.moves < black.nodes * white.moves,
        "white {white:?} black {black:?}"
    );
    let capped = MatchOptions {
        nodes_black: Some(40),
        ..uneven
    };
    assert_eq!(capped.black_limits().nodes, 40);
    let r = play(&capped);
    assert!(r.effort[1].nodes <= 40 * r.effort[1].moves + 40);
}

#[test]
fn concurrency_plays_the_same_games() {
    let one = play(&options("ttt", 8, 11));
    let three = play(&MatchOptions {
        concurrency: 3,
        ..options("ttt", 8, 11)
    });
    assert_eq!(one.records, three.records);
    assert_eq!(one.pairs.penta, three.pairs.penta);
}

#[test]
fn an_sprt_stops_a_clear_match_early() {
    let search_vs_greedy = MatchOptions {
        level_black: 1,
        depth: 1,
        sprt: Some(stats::Sprt::parse("elo0=0,elo1=50").unwrap()),
        ..options("checkers", 200, 5)
    };
    let r = play(&search_vs_greedy);
    assert!(r.records.len() < 200, "{}", r.records.len());
    assert_eq!(
        search_vs_greedy.sprt.unwrap().verdict(&r.pairs),
        stats::Verdict::H1
    );
}

/// A player that answers `answer` after `delay`.
struct Scripted {
    answer: &'static str,
    delay: Duration,
}

impl Player for Scripted {
    fn describe(&self) -> String {
        "scripted".into()
    }
    fn go(
        &mut self,
        turn: &crate::player::Turn<'_>,
        _watch: &mut dyn crate::engine::Watch,
    ) -> Result<crate::reply::BestMove, crate::engine::EngineError> {
        std::thread::sleep(self.delay);
        // A legal move when asked for one ("legal"): the first empty cell.
        let best = if self.answer == "legal" {
            let cell = turn
                .position
                .chars()
                .filter(|&c| c != '/')
                .position(|c| c == '.');
            let cell = cell.unwrap_or(0);
            let (col, row) = (cell % 3, 2 - cell / 3);
            format!("{}{}", (b'a' + col as u8) as char, row + 1)
        } else {
            self.answer.to_string()
        };
        Ok(crate::reply::BestMove {
            best,
            ..Default::default()
        })
    }
}

fn against(white: Scripted, options: &MatchOptions) -> MatchResult {
    let white = std::sync::Mutex::new(Some(white));
    let open = || -> anyhow::Result<[Box<dyn Player>; 2]> {
        let w = white.lock().unwrap().take().unwrap_or(Scripted {
            answer: "legal",
            delay: Duration::ZERO,
        });
        let [_, black] = hosts()?;
        Ok([Box::new(w), black])
    };
    run_match(options, &open, &mut |_, _| {})
}

#[test]
fn an_illegal_move_loses_the_game_and_the_match_goes_on() {
    let r = against(
        Scripted {
            answer: "z9",
            delay: Duration::ZERO,
        },
        &options("ttt", 2, 3),
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    assert_eq!(r.records.len(), 2);
    let first = &r.records[0];
    assert_eq!(first.white_score, 0.0);
    assert!(
        first.forfeit.as_deref().unwrap().contains("illegal move"),
        "{first:?}"
    );
    assert_eq!(r.forfeits, 1 + u32::from(r.records[1].forfeit.is_some()));
}

#[test]
fn a_slow_engine_loses_on_time() {
    // The host engine on the other side answers tic-tac-toe in well under a
    // millisecond; its clock is wide enough that a loaded machine cannot make
    // it the one that loses on time (a 30 ms clock once did, at load 4).
    let clocked = MatchOptions {
        time: TimeControl::Clock {
            base: Duration::from_millis(300),
            increment: Duration::ZERO,
        },
        time_margin: Duration::from_millis(10),
        ..options("ttt", 1, 3)
    };
    let r = against(
        Scripted {
            answer: "legal",
            delay: Duration::from_millis(700),
        },
        &clocked,
    );
    let g = &r.records[0];
    assert_eq!(g.white_score, 0.0, "{g:?}");
    assert!(g.result.contains("loses on time"), "{}", g.result);
}

#[test]
fn time_controls_are_read() {
    assert_eq!(
        TimeControl::parse_tc("10+0.1").unwrap(),
        TimeControl::Clock {
            base: Duration::from_secs(10),
            increment: Duration::from_millis(100)
        }
    );
    assert_eq!(
        TimeControl::parse_tc("1:30").unwrap(),
        TimeControl::Clock {
            base: Duration::from_secs(90),
            increment: Duration::ZERO
        }
    );
    assert!(TimeControl::parse_tc("0+1").is_err());
    assert!(TimeControl::parse_tc("fast").is_err());
    let mut clock = TimeControl::parse_tc("1+0.5").unwrap().start();
    assert!(!clock.spend(Duration::from_millis(400), Duration::ZERO));
    assert_eq!(clock.left, Duration::from_millis(1100));
    assert!(clock.spend(Duration::from_millis(1200), Duration::from_millis(50)));
    // Late answers: only against a fixed move time, past it and the margin.
    let margin = Duration::from_millis(100);
    assert!(!clock.late(Duration::from_secs(5), margin));
    let fixed = TimeControl::MoveTime(Duration::from_millis(200)).start();
    assert!(!fixed.late(Duration::from_millis(300), margin));
    assert!(fixed.late(Duration::from_millis(301), margin));
    assert!(
        !TimeControl::None
            .start()
            .late(Duration::from_secs(60), margin)
    );
}

#[test]
fn external_engines_must_speak_the_games_protocol() {
    let e = validate(&MatchOptions {
        black: "pbrain:/bin/true".into(),
        ..options("xiangqi", 2, 1)
    })
    .unwrap_err();
    assert!(format!("{e}").contains("cannot play xiangqi"), "{e}");
    let e = validate(&MatchOptions {
        white: "/dev/ttyACM0".into(),
        concurrency: 2,
        ..options("ttt", 2, 1)
    })
    .unwrap_err();
    assert!(format!("{e}").contains("one game at a time"), "{e}");
}

#[test]
fn every_game_of_the_list_is_refereed_under_each_of_its_names() {
    for info in &registry::GAMES {
        for name in std::iter::once(&info.name).chain(info.aliases) {
            assert_eq!(find(name).unwrap().name, info.name, "{name}");
        }
    }
    let e = validate(&MatchOptions {
        level_white: 1,
        ..options("ttt", 2, 1)
    })
    .unwrap_err();
    assert!(format!("{e}").contains("ttt has levels 0 to 0"), "{e}");
}

#[test]
fn openings_files_are_read_with_comments_and_move_numbers() {
    let text =
        "# xiangqi openings\n1. h2e2 h9g7 2. h0g2  # central cannon\n\n  c3c4,g6g5\n1... b9c7\n";
    assert_eq!(
        read_openings(text),
        [
            vec!["h2e2", "h9g7", "h0g2"],
            vec!["c3c4", "g6g5"],
            vec!["b9c7"]
        ]
    );
    assert!(read_openings("# nothing\n\n").is_empty());
}

#[test]
fn openings_from_a_file_are_played_in_order_one_per_pair() {
    let openings = read_openings("b2\na1 b1\n");
    let r = play(&MatchOptions {
        openings: openings.clone(),
        ..options("ttt", 6, 1)
    });
    let played: Vec<Vec<String>> = r
        .records
        .iter()
        .map(|g| g.moves[..g.opening_plies].to_vec())
        .collect();
    // Pairs take the openings in order and start again from the first.
    let want = [
        &openings[0],
        &openings[0],
        &openings[1],
        &openings[1],
        &openings[0],
        &openings[0],
    ];
    assert_eq!(played.len(), want.len());
    for (got, want) in played.iter().zip(want) {
        assert_eq!(got, want);
    }
    // Colours still alternate on each opening.
    assert!(r.records[0].white_first && !r.records[1].white_first);
}

#[test]
fn an_illegal_opening_is_refused_before_any_game() {
    for (game, text, words) in [
        (
            "xiangqi",
            "h2e2 h9g7\nh2e2 h2e3\n",
            ["opening 2", "move 2", "\"h2e3\""],
        ),
        ("ttt", "a1 a1\n", ["opening 1", "move 2", "\"a1\""]),
        (
            "ttt",
            "a1 b1 a2 b2 a3 c3\n",
            ["opening 1", "move 6", "already over"],
        ),
    ] {
        let bad = MatchOptions {
            openings: read_openings(text),
            ..options(game, 2, 0)
        };
        let e = format!("{:#}", validate(&bad).unwrap_err());
        for w in words {
            assert!(e.contains("--openings") && e.contains(w), "{e}");
        }
        let r = run_match(&bad, &hosts, &mut |_, _| {});
        assert!(r.error.is_some() && r.records.is_empty());
    }
}

/// The openings of the repository's file `openings/<name>.txt`: `count` lines, no
/// line twice.
fn openings_file(name: &str, count: usize) -> Vec<Vec<String>> {
    let path = format!("{}/../openings/{name}.txt", env!("CARGO_MANIFEST_DIR"));
    let openings = read_openings(&std::fs::read_to_string(path).unwrap());
    assert_eq!(openings.len(), count);
    let distinct: std::collections::HashSet<_> = openings.iter().collect();
    assert_eq!(distinct.len(), openings.len());
    openings
}

/// The repository's xiangqi openings file: every line legal, no line twice.
#[test]
fn the_xiangqi_openings_file_is_legal() {
    let openings = openings_file("xiangqi", 30);
    validate(&MatchOptions {
        openings,
        ..options("xiangqi", 2, 0)
    })
    .unwrap();
}

/// The repository's gomoku openings files (RIF's 26 openings, and 100 made from
/// them with 1-2 stones more): every line legal under each rule, no two the same.
#[test]
fn the_gomoku_openings_files_are_legal_under_every_rule() {
    for (name, count) in [("gomoku", 26), ("gomoku-100", 100)] {
        let openings = openings_file(name, count);
        for game in ["gomoku", "standard", "renju", "caro"] {
            validate(&MatchOptions {
                openings: openings.clone(),
                ..options(game, 2, 0)
            })
            .unwrap();
        }
    }
}

#[test]
fn no_move_where_no_draw_claim_stands_forfeits() {
    for game in ["ttt", "xiangqi"] {
        let r = against(
            Scripted {
                answer: "none",
                delay: Duration::ZERO,
            },
            &MatchOptions {
                nodes: 500,
                ..options(game, 2, 3)
            },
        );
        let first = &r.records[0];
        assert_eq!(first.white_score, 0.0, "{game}: {first:?}");
        assert!(first.forfeit.is_some(), "{game}: {first:?}");
    }
}

/// A renju game (Sente against Rapfi, session 58) that filled all but one point,
/// h4, which is forbidden to black: black, to move, has no legal move. The
/// referee scores it a draw without asking an engine, in both games of the pair.
#[test]
fn a_side_without_a_legal_move_draws() {
    use sente_firmware::game::{Game, Notation};
    const FULL: &str = include_str!("testdata/renju-one-forbidden-point.txt");
    let moves: Vec<String> = FULL.split_whitespace().map(String::from).collect();
    let mut pos = <Gomoku as Referee>::new_game("renju");
    for m in &moves {
        let mv = pos.parse_move(m).unwrap();
        pos.make(mv);
    }
    assert!(pos.out_of_moves() && pos.outcome().is_none());
    let r = against(
        Scripted {
            answer: "none",
            delay: Duration::ZERO,
        },
        &MatchOptions {
            openings: vec![moves],
            ..options("renju", 2, 3)
        },
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    for g in &r.records {
        assert_eq!(g.white_score, 0.5, "{g:?}");
        assert!(g.forfeit.is_none(), "{g:?}");
        assert!(g.result.contains("black has no legal move"), "{}", g.result);
    }
}
