//! EinStein würfelt nicht!: strong search (depth 4), the seed level's Monte Carlo
//! choice and perft, from an opening position.
use criterion::{Criterion, criterion_group, criterion_main};
use sente_firmware::engine::{BoardGame, EngineReply, EngineRequest, RootMoves, ask as ask_engine};
use sente_firmware::games::einstein::EinsteinEngine;
use sente_firmware::search::Limits;

const OPENING: &str =
    "r:a5=6,b5=1,c5=5,a4=2,b4=4,a3=3 b:e1=1,d1=2,c1=3,e2=4,d2=5,e3=6 turn=r roll=4";

fn ask(level: u8, depth: u8) -> EngineReply {
    let req = EngineRequest {
        position: OPENING,
        limits: Limits {
            depth,
            ..Limits::default()
        },
        level,
        seed: 1,
        roots: RootMoves::All,
    };
    ask_engine::<EinsteinEngine>(&req).expect("valid request")
}

fn bench(c: &mut Criterion) {
    c.bench_function("einstein strong depth 4", |b| b.iter(|| ask(0, 4)));
    c.bench_function("einstein seed level M=100 N=7", |b| b.iter(|| ask(1, 0)));
    c.bench_function("einstein perft 6 after setup", |b| {
        b.iter(|| EinsteinEngine::perft(OPENING, 6))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
