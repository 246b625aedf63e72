//! Chinese checkers: perft from the two-player start, a fixed-depth search and
//! a node-limited search (nodes/s), and the greedy baseline.
use criterion::{Criterion, criterion_group, criterion_main};
use sente_firmware::engine::{EngineReply, EngineRequest, RootMoves, ask};
use sente_firmware::game::{Game, Notation};
use sente_firmware::games::checkers::engine::perft;
use sente_firmware::games::checkers::search::greedy;
use sente_firmware::games::checkers::{Checkers, CheckersEngine};
use sente_firmware::search::Limits;

fn request(position: &str, limits: Limits) -> EngineReply {
    let req = EngineRequest {
        position,
        limits,
        level: 0,
        seed: 0,
        roots: RootMoves::All,
    };
    ask::<CheckersEngine>(&req).expect("valid request")
}

/// A two-player middle-game position: 20 plies of greedy play from the start.
fn middle() -> String {
    let mut pos = Checkers::start(2, 10).expect("start position");
    for _ in 0..20 {
        let mv = greedy(&pos).expect("game goes on");
        pos.make(mv);
    }
    let mut text = String::new();
    pos.write_position(&mut text).expect("write");
    text
}

fn bench(c: &mut Criterion) {
    let start = Checkers::start(2, 10).expect("start position");
    let middle = middle();
    c.bench_function("checkers perft 3 (2 players)", |b| {
        b.iter(|| perft(&mut start.clone(), 3))
    });
    c.bench_function("checkers search depth 5 from start", |b| {
        b.iter(|| {
            request(
                "start 2",
                Limits {
                    depth: 5,
                    ..Limits::default()
                },
            )
        })
    });
    c.bench_function("checkers search 20k nodes middle game", |b| {
        b.iter(|| {
            request(
                &middle,
                Limits {
                    nodes: 20_000,
                    ..Limits::default()
                },
            )
        })
    });
    c.bench_function("checkers search 20k nodes 6 players", |b| {
        b.iter(|| {
            request(
                "start 6",
                Limits {
                    nodes: 20_000,
                    ..Limits::default()
                },
            )
        })
    });
    c.bench_function("checkers greedy from start", |b| b.iter(|| greedy(&start)));
}

criterion_group!(benches, bench);
criterion_main!(benches);
