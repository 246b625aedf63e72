//! Engine-vs-baseline matches (tests only): the default search against the
//! greedy one-ply player in two-player games.

use super::rules::{Checkers, Move};
use super::search::{Found, greedy, search};
use crate::game::{Game, Outcome};
use crate::search::Limits;

use crate::engine::QuietPoll as Free;

/// splitmix64: the seeded randomness for opening moves.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Result of one game.
struct Game2 {
    outcome: Option<Outcome>,
    plies: u16,
    engine_nodes: u64,
    engine_moves: u64,
    engine_depths: u64,
}

/// Plays one two-player game: the search (as player `engine_side`) against
/// greedy; the first `random_plies` plies are random legal moves from `seed`.
fn play(seed: u64, engine_side: u8, limits: Limits, random_plies: u16) -> Game2 {
    let mut pos = Checkers::start(2, 10).unwrap();
    let mut rng = seed;
    let (mut engine_nodes, mut engine_moves, mut engine_depths) = (0, 0, 0);
    while pos.outcome().is_none() {
        let mv: Move = if pos.ply() < random_plies {
            let mut moves = <Checkers as Game>::Moves::new();
            pos.generate(&mut moves);
            moves[(splitmix(&mut rng) % moves.len() as u64) as usize]
        } else if pos.turn() == engine_side {
            let found: Found = search(&mut pos.clone(), limits, &mut Free, &mut |_, _| {});
            engine_nodes += found.nodes;
            engine_moves += 1;
            engine_depths += u64::from(found.depth);
            found.best.unwrap()
        } else {
            greedy(&pos).unwrap()
        };
        pos.make(mv);
    }
    Game2 {
        outcome: pos.outcome(),
        plies: pos.ply(),
        engine_nodes,
        engine_moves,
        engine_depths,
    }
}

#[test]
fn search_beats_greedy() {
    let limits = Limits {
        depth: 2,
        ..Limits::default()
    };
    for (seed, side) in [(1, 0), (2, 1), (3, 0), (4, 1)] {
        let g = play(seed, side, limits, 2);
        assert_eq!(
            g.outcome,
            Some(Outcome::Win(side)),
            "seed {seed}: {} plies",
            g.plies
        );
    }
}

/// The measurement: 200 games, colours alternating, two random opening plies
/// per game. Run with
/// `cargo test --release -p sente-firmware --lib games::checkers::strength -- --ignored --nocapture`.
#[test]
#[ignore]
fn measure_search_against_greedy() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let limits = Limits {
        nodes: env("CHECKERS_NODES", 20_000),
        depth: env("CHECKERS_DEPTH", 0) as u8,
        ..Limits::default()
    };
    let games = env("CHECKERS_GAMES", 200);
    let (mut wins, mut draws, mut losses, mut win_plies, mut nodes) = (0, 0, 0, 0u64, 0u64);
    let mut shortest = u16::MAX;
    let (mut engine_moves, mut depths) = (0u64, 0u64);
    let start = std::time::Instant::now();
    for i in 0..games {
        let side = (i % 2) as u8;
        let g = play(i, side, limits, 2);
        nodes += g.engine_nodes;
        match g.outcome {
            Some(Outcome::Win(p)) if p == side => {
                wins += 1;
                win_plies += u64::from(g.plies);
                shortest = shortest.min(g.plies);
            }
            Some(Outcome::Win(_)) => losses += 1,
            _ => draws += 1,
        }
        engine_moves += g.engine_moves;
        depths += g.engine_depths;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {} nodes/move, depth {}: engine won {wins}, drew {draws}, lost {losses} ({:.1} %); \
         average winning game {:.1} plies (shortest {shortest}); {nodes} nodes in {secs:.1} s ({:.0} nodes/s incl. greedy), \
         {:.0} nodes and {:.2} plies deep per engine move",
        limits.nodes,
        limits.depth,
        100.0 * wins as f64 / games as f64,
        win_plies as f64 / wins.max(1) as f64,
        nodes as f64 / secs,
        nodes as f64 / engine_moves.max(1) as f64,
        depths as f64 / engine_moves.max(1) as f64
    );
    if env("CHECKERS_NO_ASSERT", 0) == 0 {
        assert!(wins * 100 >= games * 95);
    }
}
