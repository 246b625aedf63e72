//! Tic-tac-toe: full-depth search from the empty board, and perft(9).
use criterion::{Criterion, criterion_group, criterion_main};
use sente_firmware::engine::perft;
use sente_firmware::games::tictactoe::TicTacToe;
use sente_firmware::search::{Limits, NoControl, negamax::search};

fn bench(c: &mut Criterion) {
    c.bench_function("ttt search empty board", |b| {
        b.iter(|| search(&mut TicTacToe::new(), Limits::default(), &mut NoControl))
    });
    c.bench_function("ttt perft 9", |b| {
        b.iter(|| perft(&mut TicTacToe::new(), 9))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
