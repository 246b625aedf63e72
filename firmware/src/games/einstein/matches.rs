//! Engine-against-engine matches through [`EinsteinEngine`]'s text interface: a quick
//! strength check that runs in debug builds, and `#[ignore]`d measurements for release
//! (`cargo test --release -p sente-firmware --lib games::einstein::matches -- --ignored --nocapture`).

use std::string::String;
use std::time::{Duration, Instant};

use super::board::Einstein;
use super::engine::EinsteinEngine;
use super::rng::SplitMix64;
use crate::engine::{EngineRequest, RootMoves};
use crate::game::{Game, Notation};
use crate::search::Limits;

use crate::engine::QuietPoll as Quiet;

/// One side of a match: a level and its limits, and the level that picks its setup.
#[derive(Clone, Copy, Debug)]
struct Player {
    level: u8,
    limits: Limits,
    setup_level: u8,
}

/// Step decisions (setups and forced answers included) of one player.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    steps: u64,
    nodes: u64,
    max_nodes: u64,
    time: Duration,
    max_time: Duration,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.steps += other.steps;
        self.nodes += other.nodes;
        self.max_nodes = self.max_nodes.max(other.max_nodes);
        self.time += other.time;
        self.max_time = self.max_time.max(other.max_time);
    }
}

/// Plays game number `game` (dice and engine seeds derived from it); returns the winner.
fn play(players: [Player; 2], game: u64, tally: &mut [Tally; 2]) -> u8 {
    let mut dice = SplitMix64::new(game ^ 0xd1ce_d1ce_0000_0000);
    let mut pos = Einstein::start();
    let mut ply = 0u64;
    loop {
        if let Some(w) = pos.winner() {
            return w;
        }
        if !pos.in_setup() && pos.roll().is_none() {
            pos.set_roll(dice.die());
        }
        let side = usize::from(pos.side_to_move());
        let p = players[side];
        let mut text = String::new();
        pos.write_position(&mut text).unwrap();
        let req = EngineRequest {
            position: &text,
            limits: p.limits,
            level: if pos.in_setup() {
                p.setup_level
            } else {
                p.level
            },
            seed: game.wrapping_mul(1000).wrapping_add(ply),
            roots: RootMoves::All,
        };
        let t = Instant::now();
        let r = crate::engine::ask_with::<EinsteinEngine>(&req, &mut Quiet).unwrap();
        let dt = t.elapsed();
        if !pos.in_setup() {
            let s = &mut tally[side];
            s.steps += 1;
            s.nodes += r.nodes;
            s.max_nodes = s.max_nodes.max(r.nodes);
            s.time += dt;
            s.max_time = s.max_time.max(dt);
        }
        let mv = pos.parse_move(&r.best).unwrap();
        pos.make(mv);
        ply += 1;
        assert!(ply < 1000, "game {game} does not end");
    }
}

/// Plays `games` games, `a` taking red in even games and blue in odd ones, on two
/// threads; returns `a`'s wins and both tallies.
fn run_match(a: Player, b: Player, games: u64, first: u64) -> (u64, [Tally; 2]) {
    let half = |parity: u64| {
        let mut wins = 0;
        let mut tally = [Tally::default(); 2];
        for g in (first..first + games).filter(|g| g % 2 == parity) {
            let mut t = [Tally::default(); 2];
            let a_side = (g % 2) as u8;
            let players = if a_side == 0 { [a, b] } else { [b, a] };
            if play(players, g, &mut t) == a_side {
                wins += 1;
            }
            tally[0].add(&t[usize::from(a_side)]);
            tally[1].add(&t[usize::from(1 - a_side)]);
        }
        (wins, tally)
    };
    let (x, y) = std::thread::scope(|s| {
        let h = s.spawn(|| half(1));
        (half(0), h.join().unwrap())
    });
    let mut tally = x.1;
    tally[0].add(&y.1[0]);
    tally[1].add(&y.1[1]);
    (x.0 + y.0, tally)
}

fn report(name: &str, wins: u64, games: u64, tally: &[Tally; 2]) -> f64 {
    let p = wins as f64 / games as f64;
    let err = 1.96 * (p * (1.0 - p) / games as f64).sqrt();
    std::println!(
        "{name}: {wins}/{games} = {:.1} % ± {:.1} % (95 %)",
        100.0 * p,
        100.0 * err
    );
    for (who, t) in ["A", "B"].iter().zip(tally) {
        let n = t.steps.max(1);
        std::println!(
            "  {who}: {} steps, nodes/step mean {} max {}, time/step mean {:?} max {:?}, {:.2} Mnodes/s",
            t.steps,
            t.nodes / n,
            t.max_nodes,
            t.time / n as u32,
            t.max_time,
            t.nodes as f64 / t.time.as_secs_f64().max(1e-9) / 1e6
        );
    }
    p
}

const STRONG: Player = Player {
    level: 0,
    limits: Limits {
        depth: 0,
        nodes: 0,
        ticks: 0,
    },
    setup_level: 0,
};
const SEED: Player = Player {
    level: 1,
    limits: Limits {
        depth: 0,
        nodes: 0,
        ticks: 0,
    },
    setup_level: 1,
};
const RANDOM: Player = Player {
    level: 2,
    limits: Limits {
        depth: 0,
        nodes: 0,
        ticks: 0,
    },
    setup_level: 2,
};

#[test]
fn shallow_strong_beats_random() {
    let shallow = Player {
        level: 0,
        limits: Limits {
            depth: 2,
            ..Limits::default()
        },
        setup_level: 0,
    };
    let games = 100;
    let (wins, tally) = run_match(shallow, RANDOM, games, 0);
    let p = report("strong depth 2 vs random", wins, games, &tally);
    assert!(p > 0.8, "{wins}/{games}");
}

#[test]
#[ignore = "measurement: run in release with --ignored --nocapture"]
fn measure_strong_vs_random() {
    let games = 1000;
    let (wins, tally) = run_match(STRONG, RANDOM, games, 10_000);
    let p = report("strong vs random", wins, games, &tally);
    assert!(p > 0.9);
}

#[test]
#[ignore = "measurement: run in release with --ignored --nocapture"]
fn measure_strong_vs_seed() {
    let games = 1000;
    let (wins, tally) = run_match(STRONG, SEED, games, 20_000);
    let p = report("strong vs seed level", wins, games, &tally);
    assert!(p > 0.5);
}

#[test]
#[ignore = "measurement: run in release with --ignored --nocapture"]
fn measure_seed_vs_random() {
    let games = 200;
    let (wins, tally) = run_match(SEED, RANDOM, games, 30_000);
    report("seed level vs random", wins, games, &tally);
}

#[test]
#[ignore = "measurement: run in release with --ignored --nocapture"]
fn measure_strong_setup_vs_random_setups() {
    let games = 1000;
    let random_setups = Player {
        setup_level: 2,
        ..STRONG
    };
    let (wins, tally) = run_match(STRONG, random_setups, games, 40_000);
    report(
        "strong, fixed setup vs strong, random setups",
        wins,
        games,
        &tally,
    );
}
