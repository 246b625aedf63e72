//! Gomoku / renju: the strong level on middle-game positions, the pattern level,
//! and renju forbidden-point detection.
use criterion::{Criterion, criterion_group, criterion_main};
use sente_firmware::engine::{EngineReply, EngineRequest, ask as ask_engine};
use sente_firmware::game::Notation;
use sente_firmware::games::gomoku::{Gomoku, GomokuEngine};
use sente_firmware::search::Limits;

/// Openings (free, standard, renju) continued by the pattern level to a middle game.
const OPENINGS: [&str; 3] = ["free h8i9g7", "standard h8h9j8", "renju h8i7j9"];

/// The opening after `plies` more moves of the pattern level on both sides.
fn middle_game(opening: &str, plies: usize) -> String {
    let mut pos = Gomoku::parse_position(opening).expect("valid opening");
    for _ in 0..plies {
        let mut text = String::new();
        pos.write_position(&mut text).expect("text");
        let r = ask(&text, 1);
        let mv = pos.parse_move(&r.best).expect("legal move");
        sente_firmware::game::Game::make(&mut pos, mv);
    }
    let mut text = String::new();
    pos.write_position(&mut text).expect("text");
    text
}

fn ask(position: &str, level: u8) -> EngineReply {
    let request = EngineRequest {
        position,
        limits: Limits::default(),
        level,
        seed: 0,
    };
    ask_engine::<GomokuEngine>(&request).expect("valid position")
}

fn bench(c: &mut Criterion) {
    let middle: Vec<String> = OPENINGS.iter().map(|o| middle_game(o, 9)).collect();
    for (i, pos) in middle.iter().enumerate() {
        let r = ask(pos, 0);
        println!(
            "{pos}: level 0 plays {} ({} nodes, depth {})",
            r.best, r.nodes, r.depth
        );
        c.bench_function(&format!("gomoku level 0 middle game {i}"), |b| {
            b.iter(|| ask(pos, 0))
        });
    }
    c.bench_function("gomoku level 1 (pattern)", |b| {
        b.iter(|| ask(&middle[0], 1))
    });
    let renju = Gomoku::parse_position(&middle[2]).expect("valid position");
    c.bench_function("gomoku renju forbidden points (whole board)", |b| {
        b.iter(|| renju.forbidden_points())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
