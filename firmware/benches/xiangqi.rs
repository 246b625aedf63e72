//! Xiangqi: perft(4) from the opening (3,290,240 leaves) and fixed-depth searches.
//! perft(5) (133,312,995) is too slow for a bench loop; time it with
//! `cargo test --release -p sente-firmware --lib perft_5_from_start -- --ignored --nocapture`.
use criterion::{Criterion, criterion_group, criterion_main};
use sente_firmware::engine::{BoardGame, EngineReply, EngineRequest, RootMoves, ask};
use sente_firmware::games::xiangqi::XiangqiEngine;
use sente_firmware::search::Limits;

fn search(position: &str, depth: u8) -> EngineReply {
    let req = EngineRequest {
        position,
        limits: Limits {
            depth,
            ..Limits::default()
        },
        level: 2,
        seed: 0,
        roots: RootMoves::All,
    };
    ask::<XiangqiEngine>(&req).expect("search")
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("xiangqi");
    group.sample_size(10);
    group.bench_function("perft 4 start", |b| {
        b.iter(|| XiangqiEngine::perft("startpos", 4).expect("perft"))
    });
    group.bench_function("search depth 6 start", |b| b.iter(|| search("startpos", 6)));
    group.bench_function("search depth 6 middlegame", |b| {
        b.iter(|| {
            search(
                "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
                6,
            )
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
