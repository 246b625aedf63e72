//! Texel tuning of the host's gomoku evaluation ([`host_eval`]: weights per line
//! pattern for the side to move and the opponent, per point class, tempo):
//! two steps.
//!
//! 1. `gen RULE GAMES SEED [OPENINGS] > POSITIONS`: host self-play at a fixed
//!    node count (`PLAY_NODES`, default 3,000) from the openings of `OPENINGS`
//!    (default `openings/gomoku.txt`, game `g` takes opening `g` modulo their
//!    number) followed by 1–3 random near moves (seeded by `SEED` and the game);
//!    each quiet position (no four on the board, not a leaf the search scores
//!    as won or lost by its threes) after the opening is labelled by a deeper
//!    host search (`LABEL_NODES`, default 12,000): one `position;result;score;game`
//!    line each (result and score from the side to move's view).
//!    `LABEL_NODES=0`: no label search (score 0), for fits to the results
//!    alone (`--lambda 1 --eval-k start`), several times faster.
//! 2. `tune POSITIONS…`: fits the logistic scale K of the label search's scores
//!    to the game results, per file (each file's engine scores on its own
//!    scale; `--one-k`: one K for all), labels each position
//!    `λ·result + (1 − λ)·σ(K·score)`
//!    (`--lambda λ`, default 0), then runs full-batch Adam on the mean squared
//!    error between the labels and `σ(K·eval)` (the last file's K, or
//!    `--eval-k K`'s; `--eval-k start`: the K at which the start's weights
//!    best fit the labels, so that the fit keeps their scale and the search's
//!    margins their meaning) with every tenth game held out
//!    (`--holdout N`), keeps the step with the lowest held-out loss and prints the
//!    weights (Rust, a `HostWeights` constant) on standard output, both losses
//!    on standard error, and the held-out loss of each group of positions
//!    (free = the rules without forbidden points, renju with black to move,
//!    renju with white to move; against the labels, the start's weights and the
//!    game results). `--steps N` (default 600), `--rate R` (default 1),
//!    `--no-points` (point classes left at zero), `--coarse` (the fine point
//!    classes of one coarse class, `point_class::coarse`, share one weight:
//!    the fit before the fine classes), `--start tuned|tuned-black|
//!    tuned-white|board|FILE` (start from `host_eval::TUNED`'s free, renju
//!    black or renju white weights, today's board evaluation (the default) or
//!    the constant an earlier `tune` printed to FILE; with `--steps 0` the
//!    losses of those weights), `--only GROUPS` (fit
//!    only the positions of these groups, comma-separated name prefixes:
//!    `free`, `renju`, `renju-black`, `renju-white`; K is still fitted on
//!    every position, so that the losses of fits on different groups compare),
//!    `--threat` (fit the threat table too: a score for each
//!    [`host_eval::threat_mask`], printed as a `THREAT` constant after the
//!    weights), `--threat-only` (fit only the threat table, the start's
//!    weights kept), `--threat-reg N` (the table's pull to zero, as strong as
//!    N positions; default 10), `--codes` (fit a value for each near point's
//!    [`point_class::code`] too, the side to move's and the opponent's,
//!    added to its class's weight: printed as a `CODES` constant),
//!    `--codes-only` (fit only the code values, the start's weights and
//!    table kept), `--code-reg N` (the code values' pull to zero, i.e. to
//!    their class's weight, as strong as N positions; default 10),
//!    `--code-class K` (only the codes of points of fine class `K` or more
//!    get values), `--games N` (only the first `N` games of each file, by the
//!    game numbers' last five digits).
//! 3. `net POSITIONS… --only GROUP`: fits a small network on the same
//!    features to the results of one group's positions (see
//!    `gomoku_tune/net.rs`), printed as a `host_net::Net` constant.
//!
//! `cargo run --release -p sente-firmware --example gomoku_tune -- gen free 300 1 > free.txt`
//! `cargo run --release -p sente-firmware --example gomoku_tune -- tune free.txt renju.txt`
//! `cargo run --release -p sente-firmware --example gomoku_tune -- net free.txt --only free`
use std::io::{BufRead, Write};

#[path = "gomoku_tune/net.rs"]
mod net;

use sente_firmware::engine::{
    EngineRequest, Poll, Profile, QuietPoll, RootMoves, Workspace, ask_in,
};
use sente_firmware::game::{Game, MATE_BOUND, Notation, Outcome};
use sente_firmware::games::gomoku::eval::Eval;
use sente_firmware::games::gomoku::host_eval::{
    self, CLASSES, CODES, Codes, HostWeights, PARAMS, START, THREATS, point_classes, point_codes,
    position_features, threat_mask,
};
use sente_firmware::games::gomoku::lines::PATTERNS;
use sente_firmware::games::gomoku::point_class;
use sente_firmware::games::gomoku::search::for_each_near;
use sente_firmware::games::gomoku::{Gomoku, Rule};
use sente_firmware::games::gomoku::{GomokuEngine, Point, parse_point};
use sente_firmware::search::Limits;

/// SplitMix64 step.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A number from the environment (or `default`).
fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).map_or(default, |v| v.parse().expect("a number"))
}

/// The position's text form.
fn text(pos: &Gomoku) -> String {
    let mut s = String::new();
    pos.write_position(&mut s).expect("writable");
    s
}

/// The host's answer at `nodes` nodes: best move and score.
fn search(pos: &Gomoku, nodes: u64, arena: &mut [u64]) -> (Option<Point>, i32) {
    let position = text(pos);
    let request = EngineRequest {
        position: &position,
        limits: Limits {
            nodes,
            ..Limits::default()
        },
        level: 0,
        seed: 0,
        roots: RootMoves::All,
    };
    let mut poll = QuietPoll;
    let poll: &mut dyn Poll = &mut poll;
    let reply = ask_in::<GomokuEngine>(&request, poll, &mut Workspace::new(Profile::Host, arena))
        .expect("a valid position");
    (pos.parse_move(&reply.best).ok(), reply.score)
}

/// A position the search's leaf would score by the evaluation: no four on the
/// board, and not an open three of the side to move the opponent cannot answer
/// with fours, nor two open threes of the opponent.
fn quiet(pos: &Gomoku) -> bool {
    let eval = Eval::from_board(pos.board(), pos.rule());
    let me = pos.player_to_move();
    let them = me ^ 1;
    !(eval.has_four(me)
        || eval.has_four(them)
        || eval.has_open_three(me) && !eval.has_three(them)
        || eval.open_threes(them) >= 2 && !eval.has_three(me))
}

/// `gen`: self-play games and their labelled quiet positions.
fn generate(rule: Rule, games: u64, seed: u64, openings: &str) {
    let play_nodes = env("PLAY_NODES", 3_000);
    let label_nodes = env("LABEL_NODES", 12_000);
    let text_in = std::fs::read_to_string(openings).expect("readable openings");
    let lines: Vec<Vec<Point>> = text_in
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            l.split_ascii_whitespace()
                .map(|m| parse_point(m).expect("a point"))
                .collect()
        })
        .collect();
    let mut arena = vec![0u64; 1 << 21];
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for g in 0..games {
        let mut rng = mix(seed.wrapping_mul(1_000_003) ^ g);
        let mut pos = Gomoku::new(rule);
        for &p in &lines[g as usize % lines.len()] {
            pos.make(p);
        }
        for _ in 0..1 + rng % 3 {
            rng = mix(rng);
            let mut near = Vec::new();
            for_each_near(&pos, |p| {
                if pos.is_legal(p) {
                    near.push(p);
                }
            });
            if near.is_empty() {
                break;
            }
            pos.make(near[(rng >> 8) as usize % near.len()]);
        }
        let start = pos.stones();
        let mut seen = Vec::new();
        let outcome = loop {
            if let Some(o) = pos.outcome() {
                break o;
            }
            if pos.stones() > start && quiet(&pos) {
                seen.push(pos);
            }
            match search(&pos, play_nodes, &mut arena).0 {
                Some(mv) if pos.is_legal(mv) => {
                    pos.make(mv);
                }
                _ => break Outcome::Draw,
            }
        };
        for p in &seen {
            let me = p.player_to_move();
            let result = match outcome {
                Outcome::Win(w) if w == me => 1.0,
                Outcome::Win(_) => 0.0,
                Outcome::Draw => 0.5,
            };
            let score = if label_nodes == 0 {
                0
            } else {
                search(p, label_nodes, &mut arena).1
            };
            writeln!(out, "{};{result};{score};{}", text(p), seed * 100_000 + g).expect("writable");
        }
        eprintln!(
            "game {g}: {} plies, {:?}, {} positions",
            pos.stones(),
            outcome,
            seen.len()
        );
    }
}

/// Positions with their features, results, label-search scores and games.
struct Data {
    x: Vec<[f64; PARAMS]>,
    /// Each position's [`threat_mask`].
    mask: Vec<usize>,
    /// Each position's near points by code ([`point_codes`]), as features of
    /// the code values: `(own code, count)` or `(CODES + opponent's code,
    /// −count)`.
    codes: Vec<Vec<(u32, f64)>>,
    result: Vec<f64>,
    score: Vec<f64>,
    game: Vec<u64>,
    /// [`group`] of each position.
    group: Vec<usize>,
    /// The file each position came from (its index among the arguments).
    file: Vec<usize>,
}

/// Names of the position groups ([`group`]).
const GROUPS: [&str; 3] = ["free", "renju-black", "renju-white"];

/// The group of `pos`: 0 without forbidden points (free, standard, caro),
/// 1 renju with black to move, 2 renju with white to move.
fn group(pos: &Gomoku) -> usize {
    if pos.rule().has_forbidden() {
        1 + usize::from(pos.player_to_move() & 1)
    } else {
        0
    }
}

/// Reads `position;result;score;game` lines.
fn load(paths: &[String], code_class: usize) -> Data {
    let mut d = Data {
        x: Vec::new(),
        mask: Vec::new(),
        codes: Vec::new(),
        result: Vec::new(),
        score: Vec::new(),
        game: Vec::new(),
        group: Vec::new(),
        file: Vec::new(),
    };
    for (file_index, path) in paths.iter().enumerate() {
        let file = std::fs::File::open(path).expect("readable positions");
        for line in std::io::BufReader::new(file).lines() {
            let line = line.expect("text");
            let f: Vec<&str> = line.split(';').collect();
            if f.len() != 4 {
                continue;
            }
            let pos = Gomoku::parse_position(f[0]).expect("a position");
            d.group.push(group(&pos));
            d.file.push(file_index);
            let feats = position_features(&pos);
            d.x.push(feats.map(f64::from));
            d.mask
                .push(threat_mask(&point_classes(&pos), pos.player_to_move()));
            let me = usize::from(pos.player_to_move() & 1);
            let mut counts = std::collections::BTreeMap::<u32, f64>::new();
            point_codes(&pos, |side, class, code| {
                if usize::from(class) < code_class {
                    return;
                }
                let (at, x) = if side == me {
                    (u32::from(code), 1.0)
                } else {
                    (CODES as u32 + u32::from(code), -1.0)
                };
                *counts.entry(at).or_default() += x;
            });
            d.codes.push(counts.into_iter().collect());
            d.result.push(f[1].parse().expect("result"));
            let s: f64 = f[2].parse().expect("score");
            // Mate scores: beyond any evaluation (σ of them is 0 or 1).
            let bound = f64::from(MATE_BOUND);
            d.score.push(if s.abs() >= bound {
                s.signum() * 4_000.0
            } else {
                s
            });
            d.game.push(f[3].parse().expect("game"));
        }
    }
    d
}

/// σ(x).
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of `σ(k·v)` against `y`.
fn mse(v: &[f64], y: &[f64], k: f64) -> f64 {
    v.iter()
        .zip(y)
        .map(|(&v, &y)| (sigmoid(k * v) - y).powi(2))
        .sum::<f64>()
        / v.len().max(1) as f64
}

/// The K of `σ(K·v)` that best predicts `y` (golden-section search on a log scale).
fn fit_k(v: &[f64], y: &[f64]) -> f64 {
    let (mut lo, mut hi) = ((1e-5f64).ln(), (1e-1f64).ln());
    for _ in 0..80 {
        let a = lo + (hi - lo) * 0.382;
        let b = lo + (hi - lo) * 0.618;
        if mse(v, y, a.exp()) < mse(v, y, b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Where the code values start among the parameters (after the linear
/// weights and the threat table).
const CODE_AT: usize = PARAMS + THREATS;

/// The evaluation of position `i` with weights `w` (the linear weights, the
/// threat table, the code values).
fn eval_of(d: &Data, i: usize, w: &[f64]) -> f64 {
    d.x[i].iter().zip(w).map(|(x, w)| x * w).sum::<f64>()
        + w[PARAMS + d.mask[i]]
        + d.codes[i]
            .iter()
            .map(|&(c, x)| x * w[CODE_AT + c as usize])
            .sum::<f64>()
}

/// `weights` as the tuner's parameters ([`eval_of`]'s `w`): the linear
/// weights, the threat table, the code values.
fn parameters(weights: &HostWeights) -> Vec<f64> {
    let mut w: Vec<f64> = weights.to_vec().iter().map(|&w| f64::from(w)).collect();
    w.extend((0..THREATS).map(|m| weights.threat.map_or(0.0, |t| f64::from(t[m]))));
    w.extend((0..2 * CODES).map(|c| {
        weights
            .codes
            .map_or(0.0, |t| f64::from(t[c / CODES][c % CODES]))
    }));
    w
}

/// The evaluation of every position with weights `w`.
fn evals(d: &Data, idx: &[usize], w: &[f64]) -> Vec<f64> {
    idx.iter().map(|&i| eval_of(d, i, w)).collect()
}

/// Parameters the tuner leaves alone: the patterns no quiet position has
/// (dead lines, overlines, fives) and the five class; all point classes with
/// `no_points`.
fn frozen(i: usize, no_points: bool, threat: bool, codes: bool) -> bool {
    let c = 2 * PATTERNS;
    match i {
        _ if i >= CODE_AT => !codes,
        _ if i >= PARAMS => !threat,
        _ if i < c => matches!(i % PATTERNS, 0 | 1 | 13),
        _ if i < c + 2 * CLASSES => no_points || (i - c) % CLASSES == CLASSES - 1,
        _ => false,
    }
}

/// The parameter whose weight `i` shares under `--coarse` (itself unless `i`
/// is a point class that is not the first of its coarse class).
fn tied_to(i: usize, coarse: bool) -> usize {
    let c = 2 * PATTERNS;
    if !coarse || i < c || i >= c + 2 * CLASSES || i >= PARAMS {
        return i;
    }
    let (side, k) = ((i - c) / CLASSES, (i - c) % CLASSES);
    let group = point_class::coarse(k as u8);
    let first = (0..CLASSES)
        .find(|&j| point_class::coarse(j as u8) == group)
        .unwrap_or(k);
    c + side * CLASSES + first
}

/// The weights as a Rust constant.
fn table(w: &[f64]) -> String {
    let r = |i: usize| w[i].round() as i64;
    let list = |from: usize, n: usize| {
        (from..from + n)
            .map(|i| r(i).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let c = 2 * PATTERNS;
    format!(
        "pub const WEIGHTS: HostWeights = HostWeights {{\n    own: [{}],\n    opp: [{}],\n    \
         own_points: [{}],\n    opp_points: [{}],\n    tempo: {},\n    three_to_move: {},\n}};",
        list(0, PATTERNS),
        list(PATTERNS, PATTERNS),
        list(c, CLASSES),
        list(c + CLASSES, CLASSES),
        r(PARAMS - 2),
        r(PARAMS - 1)
    ) + &format!(
        "\npub const THREAT: [i16; THREATS] = [{}];",
        list(PARAMS, THREATS)
    ) + &format!(
        "\npub const CODES: Codes = [[{}], [{}]];",
        list(CODE_AT, CODES),
        list(CODE_AT + CODES, CODES)
    )
}

/// The numbers of a printed list, in order.
fn numbers(text: &str) -> Vec<i16> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '-'))
        .filter(|t| !t.is_empty() && *t != "-")
        .map(|t| t.parse().expect("a weight"))
        .collect()
}

/// Weights printed by an earlier `tune`: the numbers of the `WEIGHTS`
/// constant, in order, the `THREAT` table's after its `= [` and the
/// `CODES` values' after theirs when the file has them (kept for the rest
/// of the run).
fn read_weights(path: &str) -> HostWeights {
    let text = std::fs::read_to_string(path).expect("readable weights");
    let (text, codes) = match text.split_once("pub const CODES") {
        Some((text, rest)) => (text.to_string(), rest.split_once("= [").map(|(_, t)| t)),
        None => (text.clone(), None),
    };
    let codes = codes.map(|t| {
        let v = numbers(t);
        assert_eq!(v.len(), 2 * CODES, "{path}: {} code values", 2 * CODES);
        let mut table: Codes = [[0; CODES]; 2];
        table[0].copy_from_slice(&v[..CODES]);
        table[1].copy_from_slice(&v[CODES..]);
        &*Box::leak(Box::new(table))
    });
    let (weights, threat) = match text.split_once("pub const THREAT") {
        Some((weights, rest)) => (weights, rest.split_once("= [").map(|(_, t)| t)),
        None => (text.as_str(), None),
    };
    let v = numbers(weights);
    assert_eq!(v.len(), PARAMS, "{path}: {PARAMS} weights");
    let mut w = START;
    w.own.copy_from_slice(&v[..PATTERNS]);
    w.opp.copy_from_slice(&v[PATTERNS..2 * PATTERNS]);
    let c = 2 * PATTERNS;
    w.own_points.copy_from_slice(&v[c..c + CLASSES]);
    w.opp_points
        .copy_from_slice(&v[c + CLASSES..c + 2 * CLASSES]);
    w.tempo = v[PARAMS - 2];
    w.three_to_move = v[PARAMS - 1];
    w.threat = threat.map(|t| {
        let table: [i16; THREATS] = numbers(t)
            .try_into()
            .unwrap_or_else(|v: Vec<i16>| panic!("{path}: {THREATS} threats, got {}", v.len()));
        &*Box::leak(Box::new(table))
    });
    w.codes = codes;
    w
}

/// The scale K at which the evaluation is fitted (`σ(K·eval)`).
enum EvalScale {
    /// The last file's K (the newest engine's scores).
    LastFile,
    /// `--eval-k K`.
    Fixed(f64),
    /// `--eval-k start`: the K at which the start's weights best fit the
    /// labels (their own scale).
    Start,
}

/// `tune`: the fit (see the module documentation).
fn tune(args: &[String]) {
    let mut files = Vec::new();
    let (mut holdout, mut steps, mut rate, mut lambda) = (10u64, 600usize, 1.0f64, 0.0f64);
    let (mut no_points, mut start, mut coarse) = (false, START, false);
    let mut only = Vec::new();
    let mut one_k = false;
    let mut eval_k = EvalScale::LastFile;
    let (mut threat, mut threat_reg, mut threat_only) = (false, 10.0f64, false);
    let (mut codes, mut code_reg, mut codes_only) = (false, 10.0f64, false);
    let (mut max_game, mut code_class) = (u64::MAX, 0);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().expect("a value").clone();
        match a.as_str() {
            "--holdout" => holdout = value().parse().expect("N"),
            "--steps" => steps = value().parse().expect("N"),
            "--rate" => rate = value().parse().expect("R"),
            "--lambda" => lambda = value().parse().expect("λ"),
            "--no-points" => no_points = true,
            "--coarse" => coarse = true,
            "--one-k" => one_k = true,
            "--eval-k" => {
                eval_k = match value().as_str() {
                    "start" => EvalScale::Start,
                    k => EvalScale::Fixed(k.parse().expect("K")),
                }
            }
            "--threat" => threat = true,
            "--threat-only" => (threat, threat_only) = (true, true),
            "--threat-reg" => threat_reg = value().parse().expect("N"),
            "--codes" => codes = true,
            "--codes-only" => (codes, codes_only) = (true, true),
            "--code-reg" => code_reg = value().parse().expect("N"),
            "--games" => max_game = value().parse().expect("N"),
            "--code-class" => code_class = value().parse().expect("K"),
            "--only" => {
                let v = value();
                only = (0..GROUPS.len())
                    .filter(|&g| v.split(',').any(|n| GROUPS[g].starts_with(n)))
                    .collect();
            }
            "--start" => {
                start = match value().as_str() {
                    "tuned" => *host_eval::TUNED.weights(Rule::Free, 0),
                    "tuned-black" => *host_eval::TUNED.weights(Rule::Renju, 0),
                    "tuned-white" => *host_eval::TUNED.weights(Rule::Renju, 1),
                    "board" => START,
                    path => read_weights(path),
                }
            }
            _ => files.push(a.clone()),
        }
    }
    let d = load(&files, code_class);
    let n = d.x.len();
    let (train, held): (Vec<usize>, Vec<usize>) = (0..n)
        .filter(|&i| only.is_empty() || only.contains(&d.group[i]))
        .filter(|&i| d.game[i] % 100_000 < max_game)
        .partition(|&i| !mix(d.game[i]).is_multiple_of(holdout));
    // Each file's label search has its own scale (the engine that made it):
    // its own K turns its scores into probabilities, unless `--one-k`. The
    // evaluation is fitted at the last file's scale (the newest engine's).
    let k_all = fit_k(&d.score, &d.result);
    let k_file: Vec<f64> = (0..files.len())
        .map(|f| {
            let idx: Vec<usize> = (0..n).filter(|&i| d.file[i] == f).collect();
            let pick = |v: &[f64]| idx.iter().map(|&i| v[i]).collect::<Vec<_>>();
            if one_k || idx.is_empty() {
                k_all
            } else {
                fit_k(&pick(&d.score), &pick(&d.result))
            }
        })
        .collect();
    for (f, k) in files.iter().zip(&k_file) {
        eprintln!("{f}: K = {k:.6}");
    }
    let label: Vec<f64> = (0..n)
        .map(|i| lambda * d.result[i] + (1.0 - lambda) * sigmoid(k_file[d.file[i]] * d.score[i]))
        .collect();
    let ys = |idx: &[usize]| idx.iter().map(|&i| label[i]).collect::<Vec<_>>();
    let (y_train, y_held) = (ys(&train), ys(&held));
    let w0 = parameters(&start);
    let k = match eval_k {
        EvalScale::Fixed(k) => k,
        EvalScale::Start => fit_k(&evals(&d, &train, &w0), &y_train),
        EvalScale::LastFile => k_file.last().copied().unwrap_or(k_all),
    };
    let all = CODE_AT + 2 * CODES;
    // The threat table's L2 pull to zero: as strong as `threat_reg`
    // positions scored exactly as the rest of the evaluation says
    // (σ′ ≈ ¼ near the middle: each pulls by about k²·t / 8).
    let pull = threat_reg * k * k / 8.0;
    // The code values' pull to zero (their class's weight), the same way.
    let code_pull = code_reg * k * k / 8.0;
    let search_loss = |idx: &[usize], y: &[f64]| {
        let v: Vec<f64> = idx
            .iter()
            .map(|&i| d.score[i] * k_file[d.file[i]] / k)
            .collect();
        mse(&v, y, k)
    };
    eprintln!(
        "{n} positions ({} train, {} held out), K = {k:.6}; label search's own loss vs results {:.5}",
        train.len(),
        held.len(),
        mse(&d.score, &d.result, k_all)
    );
    let loss = |w: &[f64], idx: &[usize], y: &[f64]| mse(&evals(&d, idx, w), y, k);
    eprintln!(
        "start: train {:.5}, held out {:.5} (labels vs themselves: search {:.5})",
        loss(&w0, &train, &y_train),
        loss(&w0, &held, &y_held),
        search_loss(&held, &y_held)
    );
    let mut w = w0.clone();
    let (mut m, mut v) = (vec![0.0; all], vec![0.0; all]);
    let (b1, b2) = (0.9f64, 0.999f64);
    let mut best = (loss(&w, &held, &y_held), w.clone(), 0);
    for step in 1..=steps {
        let mut grad = vec![0.0; all];
        for (j, &i) in train.iter().enumerate() {
            let e = eval_of(&d, i, &w);
            let s = sigmoid(k * e);
            let g = 2.0 * (s - y_train[j]) * s * (1.0 - s) * k;
            for (gp, x) in grad.iter_mut().zip(&d.x[i]) {
                *gp += g * x;
            }
            grad[PARAMS + d.mask[i]] += g;
            for &(c, x) in &d.codes[i] {
                grad[CODE_AT + c as usize] += g * x;
            }
        }
        for t in PARAMS..CODE_AT {
            grad[t] += pull * w[t];
        }
        for t in CODE_AT..all {
            grad[t] += code_pull * w[t];
        }
        for p in 0..PARAMS {
            let to = tied_to(p, coarse);
            if to != p {
                grad[to] += grad[p];
            }
        }
        for p in 0..all {
            if frozen(p, no_points, threat, codes)
                || tied_to(p, coarse) != p
                || threat_only && p < PARAMS
                || codes_only && p < CODE_AT
            {
                continue;
            }
            let g = grad[p] / train.len() as f64;
            m[p] = b1 * m[p] + (1.0 - b1) * g;
            v[p] = b2 * v[p] + (1.0 - b2) * g * g;
            let mh = m[p] / (1.0 - b1.powi(step as i32));
            let vh = v[p] / (1.0 - b2.powi(step as i32));
            w[p] -= rate * mh / (vh.sqrt() + 1e-12);
        }
        for p in 0..all {
            w[p] = w[tied_to(p, coarse)];
        }
        if step % 20 == 0 || step == steps {
            let (lt, lh) = (loss(&w, &train, &y_train), loss(&w, &held, &y_held));
            eprintln!("step {step}: train {lt:.5}, held out {lh:.5}");
            if lh < best.0 {
                best = (lh, w.clone(), step);
            }
        }
    }
    let w = best.1;
    eprintln!(
        "best step {}: train {:.5}, held out {:.5}",
        best.2,
        loss(&w, &train, &y_train),
        best.0
    );
    for (g, name) in GROUPS.iter().enumerate() {
        let idx: Vec<usize> = held.iter().copied().filter(|&i| d.group[i] == g).collect();
        if idx.is_empty() {
            continue;
        }
        let y: Vec<f64> = idx.iter().map(|&i| label[i]).collect();
        let r: Vec<f64> = idx.iter().map(|&i| d.result[i]).collect();
        eprintln!(
            "held out {name}: {} positions, loss {:.5} (start {:.5}), vs results {:.5}",
            idx.len(),
            loss(&w, &idx, &y),
            loss(&w0, &idx, &y),
            loss(&w, &idx, &r)
        );
    }
    println!("{}", table(&w));
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("gen") => {
            let rule = match args.get(1).map(String::as_str) {
                Some("renju") => Rule::Renju,
                Some("standard") => Rule::Standard,
                Some("caro") => Rule::Caro,
                _ => Rule::Free,
            };
            let games = args.get(2).map_or(100, |a| a.parse().expect("games"));
            let seed = args.get(3).map_or(1, |a| a.parse().expect("seed"));
            let openings = args.get(4).map_or("openings/gomoku.txt", String::as_str);
            generate(rule, games, seed, openings);
        }
        Some("tune") => tune(&args[1..]),
        Some("net") => net::fit(&args[1..]),
        _ => eprintln!(
            "usage: gomoku_tune gen RULE GAMES SEED [OPENINGS] | tune FILES… [options] | net FILES… --only GROUP [options]"
        ),
    }
}
