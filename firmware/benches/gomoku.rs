//! Gomoku / renju: the strong level on middle-game positions, the host profile
//! on the same positions at a fixed node budget, the pattern level, renju
//! forbidden-point detection, and the VCF solver with its memo on the deep
//! reference puzzles.
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use sente_firmware::engine::{
    EngineReply, EngineRequest, Profile, QuietPoll, RootMoves, Workspace, ask as ask_engine, ask_in,
};
use sente_firmware::game::Notation;
use sente_firmware::games::gomoku::vcf::solve;
use sente_firmware::games::gomoku::{Gomoku, GomokuEngine, Point, write_point};
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

/// Nodes of each host-profile search in the benchmark.
const HOST_NODES: u64 = 20_000;

/// Words of the host profile's arena in the benchmark (its tables).
const HOST_ARENA_WORDS: usize = 1 << 21;

/// The host profile's answer to `position` at [`HOST_NODES`] nodes, with
/// `arena` (zeroed: a fresh transposition table) for its tables.
fn ask_host(position: &str, arena: &mut [u64]) -> EngineReply {
    let request = EngineRequest {
        position,
        limits: Limits {
            nodes: HOST_NODES,
            ..Limits::default()
        },
        level: 0,
        seed: 0,
        roots: RootMoves::All,
    };
    let mut work = Workspace::new(Profile::Host, arena);
    ask_in::<GomokuEngine>(&request, &mut QuietPoll, &mut work).expect("valid position")
}

fn ask(position: &str, level: u8) -> EngineReply {
    let request = EngineRequest {
        position,
        limits: Limits::default(),
        level,
        seed: 0,
        roots: RootMoves::All,
    };
    ask_engine::<GomokuEngine>(&request).expect("valid position")
}

/// The deep puzzles of `testdata/renju_vcf.txt` (black to move, as many
/// black stones as white) as renju positions.
fn deep_puzzles() -> Vec<(String, Gomoku)> {
    let text = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/renju_vcf.txt"
    ));
    let mut out = Vec::new();
    for case in text.split("\n# ").filter(|c| c.starts_with("deep_vcf")) {
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for line in case.lines().skip(1) {
            let mut parts = line.split_whitespace();
            let (Some(row), Some(cells)) = (parts.next(), parts.next()) else {
                continue;
            };
            let Ok(row) = row.parse::<u8>() else { continue };
            for (col, cell) in cells.bytes().enumerate() {
                let mut name = String::new();
                write_point((row - 1) * 15 + col as u8, &mut name).expect("on the board");
                match cell {
                    b'X' => black.push(name),
                    b'O' => white.push(name),
                    _ => {}
                }
            }
        }
        let stones: Vec<String> = black
            .iter()
            .zip(&white)
            .flat_map(|(b, w)| [b.clone(), w.clone()])
            .collect();
        let pos =
            Gomoku::parse_position(&format!("renju {}", stones.join(" "))).expect("valid puzzle");
        let name: Vec<&str> = case.split_whitespace().take(2).collect();
        out.push((name.join(" "), pos));
    }
    out
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
    for (i, pos) in middle.iter().enumerate() {
        let r = ask_host(pos, &mut vec![0u64; HOST_ARENA_WORDS]);
        println!(
            "{pos}: host profile plays {} ({} nodes, depth {})",
            r.best, r.nodes, r.depth
        );
        // A fresh table each search, made outside the timed part.
        c.bench_function(
            &format!("gomoku host profile middle game {i} ({HOST_NODES} nodes)"),
            |b| {
                b.iter_batched_ref(
                    || vec![0u64; HOST_ARENA_WORDS],
                    |arena| ask_host(pos, arena),
                    BatchSize::LargeInput,
                )
            },
        );
    }
    c.bench_function("gomoku level 1 (pattern)", |b| {
        b.iter(|| ask(&middle[0], 1))
    });
    let renju = Gomoku::parse_position(&middle[2]).expect("valid position");
    c.bench_function("gomoku renju forbidden points (whole board)", |b| {
        b.iter(|| renju.forbidden_points())
    });
    let mut memo = vec![0u64; 1 << 16];
    let mut line = [0 as Point; 225];
    for (name, pos) in deep_puzzles() {
        let solved = solve(&pos, 112, &mut memo, 0, &mut line);
        println!(
            "{name}: VCF {} ({} fours, {} nodes, memo 512 KB)",
            solved.won,
            solved.len.div_ceil(2),
            solved.nodes
        );
        c.bench_function(&format!("gomoku vcf solve {name} (memo 512 KB)"), |b| {
            b.iter(|| solve(&pos, 112, &mut memo, 0, &mut line))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
