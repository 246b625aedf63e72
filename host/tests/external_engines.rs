//! `sente match` against external engines: Sente's own UCI/UCCI and Gomocup adapters,
//! started as programs, are external engines like any other.

use sente::matches::{MatchOptions, TimeControl, run_match};
use sente::player::{Player, PlayerSpec};
use std::time::Duration;

const SENTE: &str = env!("CARGO_BIN_EXE_sente");

fn play(options: &MatchOptions) -> sente::matches::MatchResult {
    let open = || -> anyhow::Result<[Box<dyn Player>; 2]> {
        Ok([
            PlayerSpec::parse(&options.white)?.open()?,
            PlayerSpec::parse(&options.black)?.open()?,
        ])
    };
    let r = run_match(options, &open, &mut |_, _| {});
    assert!(r.error.is_none(), "{:?}", r.error);
    r
}

#[test]
fn xiangqi_against_uci_and_ucci_programs() {
    for (kind, level) in [("uci", 2), ("ucci", 0)] {
        let options = MatchOptions {
            game: "xiangqi".into(),
            white: "host".into(),
            black: format!("{kind}:{SENTE} engine xiangqi"),
            games: 2,
            depth: 1,
            level_white: level,
            max_plies: 16,
            time: TimeControl::MoveTime(Duration::from_millis(300)),
            ..MatchOptions::default()
        };
        let r = play(&options);
        assert_eq!(r.records.len(), 2);
        for g in &r.records {
            assert!(g.forfeit.is_none(), "{kind}: {}", g.line());
            assert!(g.moves.len() >= 8, "{kind}: {}", g.line());
        }
        // The external engine reported its searches (depth and nodes from `info`).
        assert!(
            r.effort[1].moves > 0 && r.effort[1].nodes > 0,
            "{:?}",
            r.effort
        );
    }
}

#[test]
fn gomoku_against_a_gomocup_brain() {
    for game in ["gomoku", "renju"] {
        let options = MatchOptions {
            game: game.into(),
            white: "host".into(),
            black: format!("pbrain:{SENTE} engine gomoku"),
            games: 2,
            nodes: 300,
            time: TimeControl::Clock {
                base: Duration::from_secs(60),
                increment: Duration::ZERO,
            },
            ..MatchOptions::default()
        };
        let r = play(&options);
        for g in &r.records {
            assert!(g.forfeit.is_none(), "{game}: {}", g.line());
            assert!(g.moves.len() >= 9, "{game}: {}", g.line());
        }
        // The node limit reaches the brain (Yixin-Board's `INFO max_node`), so
        // the games do not depend on the clock: the same match again is the
        // same games.
        let again = play(&options);
        let moves = |r: &sente::matches::MatchResult| -> Vec<Vec<String>> {
            r.records.iter().map(|g| g.moves.clone()).collect()
        };
        assert_eq!(moves(&r), moves(&again), "{game}");
    }
}

#[test]
fn a_program_that_is_no_engine_is_refused() {
    assert!(PlayerSpec::parse("uci:/bin/true").unwrap().open().is_err());
    assert!(
        PlayerSpec::parse("pbrain:/no/such/brain")
            .unwrap()
            .open()
            .is_err()
    );
}

/// `sente` under an engine's conventional name, started with no arguments as GUIs start
/// engines (Piskvork and the Gomocup manager run `pbrain-…` programs): it is that engine.
#[test]
fn sente_under_an_engines_name_is_that_engine() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("engine-names");
    std::fs::create_dir_all(&dir).unwrap();
    let named = |name: &str| {
        let path = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
        let _ = std::fs::remove_file(&path);
        if std::fs::hard_link(SENTE, &path).is_err() {
            std::fs::copy(SENTE, &path).unwrap();
        }
        path.display().to_string()
    };
    let (brain, ucci) = (named("pbrain-sente"), named("sente-ucci"));
    let options = MatchOptions {
        game: "gomoku".into(),
        white: format!("pbrain:{brain}"),
        black: "host".into(),
        games: 2,
        nodes: 300,
        max_plies: 12,
        ..MatchOptions::default()
    };
    let r = play(&options);
    assert!(r.effort[0].moves > 0, "{:?}", r.effort);
    let options = MatchOptions {
        game: "xiangqi".into(),
        white: format!("ucci:{ucci}"),
        black: "host".into(),
        games: 2,
        depth: 1,
        max_plies: 8,
        ..MatchOptions::default()
    };
    let r = play(&options);
    assert!(
        r.effort[0].moves > 0 && r.effort[0].nodes > 0,
        "{:?}",
        r.effort
    );
}
