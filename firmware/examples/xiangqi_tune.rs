//! Texel tuning of the xiangqi evaluation ([`eval::trace`] gives the features of
//! a position, [`WEIGHTS`] their middle-game / endgame values): two steps.
//!
//! 1. `extract GAMES.pgn… > POSITIONS`: replays the games (`sente match --out`
//!    PGN) and takes, for each position after the first `--skip` plies (default
//!    10) not in check, the quiet position a capture-only quiescence search on
//!    the static evaluation scores it by (itself, or the end of the captures it
//!    expects; left out if in check or seen before), and writes one
//!    `FEN;result;game` line each (result from red's side: 1, 0.5 or 0).
//! 2. `tune POSITIONS…`: fits the logistic scale K on the current weights, then
//!    runs full-batch Adam on the mean squared error between the game result and
//!    `1 / (1 + e^(-K·eval))`, with every tenth game held out (`--holdout N`: every
//!    N-th); keeps the step with the lowest held-out loss and prints the new
//!    `WEIGHTS` table (Rust, for `weights.rs`) on standard output, progress on
//!    standard error. `--steps N` (default 400), `--rate R` (Adam's step, cp,
//!    default 1), `--max-move M` (no weight moves more than M cp from where it
//!    started, default 150), `--l2 L` (adds `L·Σ(w - w0)²` to the loss: a pull
//!    towards the start, default 0), `--material 0` (material values kept as they
//!    are), `--k K` (fix K instead of fitting it), `--from P` (only parameters
//!    `P..` are tuned: new terms fitted beside the others as they are).
//!
//! `cargo run --release -p sente-firmware --example xiangqi_tune -- extract a.pgn b.pgn > pos.txt`
//! `cargo run --release -p sente-firmware --example xiangqi_tune -- tune pos.txt > table.rs`
use std::collections::HashSet;
use std::io::{BufRead, BufWriter, Write};

use sente_firmware::games::xiangqi::board::{Move, Position};
use sente_firmware::games::xiangqi::eval::{self, MAX_PHASE, eg, mg, param};
use sente_firmware::games::xiangqi::movegen::MAX_MOVES;
use sente_firmware::games::xiangqi::notation::parse_iccs;
use sente_firmware::games::xiangqi::weights::WEIGHTS;

/// A game read from a PGN file: its start position, moves (ICCS) and result
/// from red's side.
#[derive(Debug, PartialEq)]
struct Game {
    fen: Option<String>,
    moves: Vec<String>,
    result: f64,
}

/// The result of a PGN result string from red's side (`None`: unfinished).
fn result_of(text: &str) -> Option<f64> {
    match text {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// Reads the games of a PGN text (tags `FEN` and `Result`; moves in ICCS,
/// `h2e2` or `H2-E2`). Unfinished games are left out.
fn parse_pgn(text: &str) -> Vec<Game> {
    let mut games = Vec::new();
    let (mut fen, mut result, mut moves) = (None, None, Vec::new());
    let mut in_moves = false;
    for line in text.lines().map(str::trim) {
        if let Some(tag) = line.strip_prefix('[') {
            if in_moves {
                // A new game's tags without a result token: drop the last one.
                (fen, result, moves, in_moves) = (None, None, Vec::new(), false);
            }
            let (name, value) = tag.split_once(' ').unwrap_or((tag, ""));
            let value = value.trim_end_matches(']').trim_matches('"');
            match name {
                "FEN" => fen = Some(value.to_string()),
                "Result" => result = result_of(value),
                _ => {}
            }
            continue;
        }
        for token in line.split_ascii_whitespace() {
            in_moves = true;
            if token.ends_with('.') && token[..token.len() - 1].bytes().all(|b| b.is_ascii_digit())
            {
                continue;
            }
            if token == "*" || result_of(token).is_some() {
                if let Some(r) = result_of(token).or(result) {
                    games.push(Game {
                        fen: fen.take(),
                        moves: std::mem::take(&mut moves),
                        result: r,
                    });
                }
                (fen, result, moves, in_moves) = (None, None, Vec::new(), false);
                continue;
            }
            moves.push(token.replace('-', "").to_ascii_lowercase());
        }
    }
    games
}

/// Capture-only alpha-beta quiescence on the host profile's static evaluation (side to move's
/// view), at most `depth` captures deep; `pv` gets the captures of the line
/// it scores (empty: standing pat is best).
fn quiesce(pos: &mut Position, mut alpha: i32, beta: i32, depth: u8, pv: &mut Vec<Move>) -> i32 {
    pv.clear();
    let stand = eval::evaluate_host(pos);
    if stand >= beta || depth == 0 {
        return stand;
    }
    alpha = alpha.max(stand);
    let mut buf = [Move::default(); MAX_MOVES];
    let n = pos.legal_moves(&mut buf, false);
    let mut line = Vec::new();
    for &mv in &buf[..n] {
        if mv.captured == 0 {
            continue;
        }
        pos.make_raw(mv);
        let score = -quiesce(pos, -beta, -alpha, depth - 1, &mut line);
        pos.unmake_raw(mv);
        if score > alpha {
            alpha = score;
            pv.clear();
            pv.push(mv);
            pv.extend_from_slice(&line);
            if score >= beta {
                break;
            }
        }
    }
    alpha
}

/// The quiet position quiescence scores `pos` by: `pos` itself when no
/// sequence of captures changes its static evaluation, else the end of the
/// captures it expects (`None` when that position, or `pos`, is in check).
fn quiet_leaf(pos: &Position) -> Option<Position> {
    if pos.in_check() {
        return None;
    }
    let mut leaf = pos.clone();
    let mut pv = Vec::new();
    quiesce(&mut leaf, -30_000, 30_000, 8, &mut pv);
    for &mv in &pv {
        leaf.make_raw(mv);
    }
    (!leaf.in_check()).then_some(leaf)
}

/// Replays `games` and writes their quiet positions as `FEN;result;game` lines
/// (game numbers from `first_game`); returns how many were written.
fn extract(
    games: &[Game],
    first_game: usize,
    skip: usize,
    seen: &mut HashSet<u64>,
    out: &mut dyn Write,
) -> std::io::Result<usize> {
    let mut written = 0;
    for (g, game) in games.iter().enumerate() {
        let mut pos = match &game.fen {
            Some(f) => match Position::parse_fen(f) {
                Ok(p) => p,
                Err(_) => continue,
            },
            None => Position::start(),
        };
        for (ply, text) in game.moves.iter().enumerate() {
            if let Some(leaf) = (ply >= skip).then(|| quiet_leaf(&pos)).flatten()
                && seen.insert(leaf.key())
            {
                let mut fen = String::new();
                leaf.write_fen(&mut fen).expect("a String takes any text");
                writeln!(out, "{fen};{};{}", game.result, first_game + g)?;
                written += 1;
            }
            let Ok((from, to)) = parse_iccs(text) else {
                break;
            };
            let Some(mv) = pos.legal_move(from, to) else {
                break;
            };
            pos.make_raw(mv);
        }
    }
    Ok(written)
}

/// Positions as features: for position `i`, `params[start[i]..start[i + 1]]`
/// with `counts` (red's side), its phase and result.
#[derive(Default)]
struct Data {
    start: Vec<u32>,
    params: Vec<u16>,
    counts: Vec<i16>,
    phase: Vec<u8>,
    result: Vec<f32>,
}

impl Data {
    fn len(&self) -> usize {
        self.phase.len()
    }

    /// Adds a position with its result from red's side.
    fn push(&mut self, pos: &Position, result: f64) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        eval::trace(pos, &mut |p, c| {
            self.params.push(p as u16);
            self.counts.push(c as i16);
        });
        self.start.push(self.params.len() as u32);
        self.phase.push(eval::phase(pos) as u8);
        self.result.push(result as f32);
    }

    /// The evaluation of position `i` from red's side under `w` (`w[2p]`
    /// middle game, `w[2p + 1]` endgame of parameter `p`).
    fn eval(&self, i: usize, w: &[f64]) -> f64 {
        let ph = f64::from(self.phase[i]) / f64::from(MAX_PHASE);
        let (a, b) = (self.start[i] as usize, self.start[i + 1] as usize);
        let (mut m, mut e) = (0.0, 0.0);
        for j in a..b {
            let (p, c) = (usize::from(self.params[j]), f64::from(self.counts[j]));
            m += c * w[2 * p];
            e += c * w[2 * p + 1];
        }
        m * ph + e * (1.0 - ph)
    }

    /// Mean squared error of the positions `idx` under `w` and scale `k`,
    /// adding its gradient to `grad` when given.
    fn loss(&self, idx: &[u32], w: &[f64], k: f64, mut grad: Option<&mut [f64]>) -> f64 {
        let mut sum = 0.0;
        let n = idx.len().max(1) as f64;
        for &i in idx {
            let i = i as usize;
            let s = 1.0 / (1.0 + (-k * self.eval(i, w)).exp());
            let d = s - f64::from(self.result[i]);
            sum += d * d;
            if let Some(g) = grad.as_deref_mut() {
                let ph = f64::from(self.phase[i]) / f64::from(MAX_PHASE);
                let f = 2.0 * d * s * (1.0 - s) * k / n;
                let (a, b) = (self.start[i] as usize, self.start[i + 1] as usize);
                for j in a..b {
                    let (p, c) = (usize::from(self.params[j]), f64::from(self.counts[j]));
                    g[2 * p] += f * c * ph;
                    g[2 * p + 1] += f * c * (1.0 - ph);
                }
            }
        }
        sum / n
    }
}

/// The current weights as floats (`[mg, eg]` per parameter).
fn current() -> Vec<f64> {
    WEIGHTS
        .iter()
        .flat_map(|&p| [f64::from(mg(p)), f64::from(eg(p))])
        .collect()
}

/// The K in `[lo, hi]` minimising the loss (golden-section search).
fn fit_k(data: &Data, idx: &[u32], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (1e-4_f64, 0.05_f64);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - r * (hi - lo);
        let b = lo + r * (hi - lo);
        if data.loss(idx, w, a, None) < data.loss(idx, w, b, None) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Tuning settings.
struct Settings {
    steps: usize,
    rate: f64,
    max_move: f64,
    k: Option<f64>,
    holdout: u64,
    /// Weight of the penalty `Σ (w - w0)²` (a pull towards the start).
    l2: f64,
    /// Whether material values are tuned (else only the other parameters).
    material: bool,
    /// The first parameter tuned (the ones before it are kept).
    from: usize,
}

/// Runs Adam from `w0`; returns the weights with the lowest held-out loss.
fn tune(data: &Data, games: &[u64], w0: &[f64], s: &Settings) -> Vec<f64> {
    let (train, test): (Vec<u32>, Vec<u32>) =
        (0..data.len() as u32).partition(|&i| !mix(games[i as usize]).is_multiple_of(s.holdout));
    eprintln!(
        "{} positions: {} fitted, {} held out",
        data.len(),
        train.len(),
        test.len()
    );
    let k = s.k.unwrap_or_else(|| fit_k(data, &train, w0));
    let mut w = w0.to_vec();
    let (l0, t0) = (
        data.loss(&train, &w, k, None),
        data.loss(&test, &w, k, None),
    );
    eprintln!("K = {k:.6}; start: loss {l0:.6} fitted, {t0:.6} held out");
    let (mut best, mut best_loss, mut best_step) = (w.clone(), t0, 0);
    let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
    let (b1, b2) = (0.9_f64, 0.999_f64);
    for step in 1..=s.steps {
        let mut g = vec![0.0; w.len()];
        let l = data.loss(&train, &w, k, Some(&mut g));
        for p in 0..w.len() {
            if p / 2 == param::MATERIAL || (!s.material && p / 2 < param::PST) || p / 2 < s.from {
                continue; // the king's material is a constant
            }
            g[p] += 2.0 * s.l2 * (w[p] - w0[p]);
            m[p] = b1 * m[p] + (1.0 - b1) * g[p];
            v[p] = b2 * v[p] + (1.0 - b2) * g[p] * g[p];
            let mh = m[p] / (1.0 - b1.powi(step as i32));
            let vh = v[p] / (1.0 - b2.powi(step as i32));
            w[p] -= s.rate * mh / (vh.sqrt() + 1e-12);
            w[p] = w[p].clamp(w0[p] - s.max_move, w0[p] + s.max_move);
        }
        let t = data.loss(&test, &w, k, None);
        if t < best_loss {
            (best, best_loss, best_step) = (w.clone(), t, step);
        }
        if step % 20 == 0 || step == s.steps {
            eprintln!("step {step}: loss {l:.6} fitted, {t:.6} held out");
        }
    }
    if s.from > 0 {
        // The tuned parameters where the last step left them (the table
        // printed is the best held-out step's).
        for p in s.from..param::COUNT {
            eprintln!(
                "last step, parameter {p}: {:.1} {:.1}",
                w[2 * p],
                w[2 * p + 1]
            );
        }
    }
    let moved = best
        .iter()
        .zip(w0)
        .map(|(a, b)| (a.round() - b).abs())
        .fold(0.0, f64::max);
    eprintln!(
        "best held-out loss {best_loss:.6} at step {best_step} (fitted {:.6}); largest move {moved} cp",
        data.loss(&train, &best, k, None)
    );
    best
}

/// A 64-bit mixer (splitmix64's finaliser), for the held-out split.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The `WEIGHTS` table for `weights.rs`, laid out as there.
fn table(w: &[f64]) -> String {
    let v = |p: usize| (w[2 * p].round() as i32, w[2 * p + 1].round() as i32);
    let mut s = String::new();
    let row = |s: &mut String, from: usize, to: usize| {
        for chunk in (from..to).collect::<Vec<_>>().chunks(5) {
            let items: Vec<String> = chunk
                .iter()
                .map(|&p| format!("pair({}, {})", v(p).0, v(p).1))
                .collect();
            s.push_str(&format!("    {},\n", items.join(", ")));
        }
    };
    s.push_str("/// Every parameter of the evaluation, by [`param`] index.\n#[rustfmt::skip]\n");
    s.push_str("pub const WEIGHTS: [Pair; param::COUNT] = [\n");
    s.push_str("    // Material: king, advisor, elephant, horse, rook, cannon, pawn.\n");
    row(&mut s, param::MATERIAL, param::PST);
    let kinds = [
        "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn",
    ];
    for (k, name) in kinds.iter().enumerate() {
        s.push_str(&format!(
            "    // Piece-square table, {name}: ranks 0 (own back rank) to 9, files a..e (mirrored).\n"
        ));
        row(&mut s, param::PST + 50 * k, param::PST + 50 * (k + 1));
    }
    s.push_str("    // Rook mobility, 0..17 empty squares.\n");
    row(&mut s, param::ROOK_MOB, param::CANNON_MOB);
    s.push_str("    // Cannon mobility, 0..17 empty squares.\n");
    row(&mut s, param::CANNON_MOB, param::HORSE_MOB);
    s.push_str("    // Horse mobility, 0..8 moves.\n");
    row(&mut s, param::HORSE_MOB, param::ATTACK);
    s.push_str("    // Attack units in the enemy half, 0..15.\n");
    row(&mut s, param::ATTACK, param::NO_ADVISOR);
    let singles = [
        "no advisor (x units)",
        "no elephant (x units)",
        "hollow cannon",
        "screened cannon",
        "bottom cannon",
        "blocked horse",
        "linked pawns",
        "horse pair",
        "rook pair",
        "tempo",
        "central shape, hollow cannon",
        "side shape, central cannon",
        "side shape, central cannon, door attacked",
        "side shape, central cannon, rook on the back rank",
        "king on the palace centre with both advisors",
        "advisor missing against two rooks",
        "threat: their horse, rook or cannon attacked by our pawn",
        "threat: their rook attacked by our horse or cannon",
    ];
    debug_assert_eq!(param::NO_ADVISOR + singles.len(), param::COUNT);
    for (i, name) in singles.iter().enumerate() {
        let (a, b) = v(param::NO_ADVISOR + i);
        s.push_str(&format!("    pair({a}, {b}), // {name}\n"));
    }
    s.push_str("];\n");
    s
}

/// Reads `FEN;result[;game]` lines (result 1, 0.5, 0 or a PGN result, red's
/// side; without a game number each line is its own game).
fn load(paths: &[String]) -> (Data, Vec<u64>) {
    let mut data = Data::default();
    let mut games = Vec::new();
    for (f, path) in paths.iter().enumerate() {
        let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line.unwrap_or_else(|e| panic!("{path}: {e}"));
            let mut fields = line.split(';');
            let (Some(fen), Some(r)) = (fields.next(), fields.next()) else {
                continue;
            };
            let Some(r) = result_of(r.trim()).or_else(|| r.trim().parse().ok()) else {
                continue;
            };
            let Ok(pos) = Position::parse_fen(fen) else {
                continue;
            };
            let game = fields
                .next()
                .and_then(|g| g.trim().parse::<u64>().ok())
                .unwrap_or(n as u64 + (1 << 40));
            data.push(&pos, r);
            games.push(game | (f as u64) << 48);
        }
    }
    (data, games)
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: xiangqi_tune extract [--skip N] GAMES.pgn… | tune [--steps N] [--rate R] [--max-move M] [--l2 L] [--material 0|1] [--k K] [--holdout N] [--from P] POSITIONS…";
    let Some(mode) = args.first() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let mut files = Vec::new();
    let mut opts = std::collections::HashMap::new();
    let mut it = args[1..].iter();
    while let Some(a) = it.next() {
        if let Some(name) = a.strip_prefix("--") {
            let value = it.next().and_then(|v| v.parse::<f64>().ok());
            let Some(value) = value else {
                eprintln!("--{name} needs a number\n{usage}");
                std::process::exit(2);
            };
            opts.insert(name.to_string(), value);
        } else {
            files.push(a.clone());
        }
    }
    match mode.as_str() {
        "extract" => {
            let skip = opts.get("skip").copied().unwrap_or(10.0) as usize;
            let mut seen = HashSet::new();
            let out = std::io::stdout();
            let mut out = BufWriter::new(out.lock());
            let (mut games, mut positions) = (0, 0);
            for path in &files {
                let text = std::fs::read_to_string(path)?;
                let list = parse_pgn(&text);
                positions += extract(&list, games, skip, &mut seen, &mut out)?;
                games += list.len();
            }
            eprintln!("{games} games, {positions} quiet positions");
        }
        "tune" => {
            let (data, games) = load(&files);
            let settings = Settings {
                steps: opts.get("steps").copied().unwrap_or(400.0) as usize,
                rate: opts.get("rate").copied().unwrap_or(1.0),
                max_move: opts.get("max-move").copied().unwrap_or(150.0),
                k: opts.get("k").copied(),
                holdout: opts.get("holdout").copied().unwrap_or(10.0).max(2.0) as u64,
                l2: opts.get("l2").copied().unwrap_or(0.0),
                material: opts.get("material").copied().unwrap_or(1.0) != 0.0,
                from: opts.get("from").copied().unwrap_or(0.0) as usize,
            };
            let w = tune(&data, &games, &current(), &settings);
            print!("{}", table(&w));
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente_firmware::games::xiangqi::board::RED;

    const FENS: [&str; 4] = [
        "1nbak1C2/4a4/4c4/p3p3p/2p2NP2/5n3/P3c3P/4C4/4N4/2BAKAB2 w",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
        "3k5/4a4/4c4/9/4c4/9/9/4N4/4A4/3AK4 b",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
    ];

    fn tiny() -> Data {
        let mut d = Data::default();
        for (fen, r) in FENS.iter().zip([1.0, 0.0, 0.5, 0.5]) {
            d.push(&Position::parse_fen(fen).unwrap(), r);
        }
        d
    }

    /// The model's evaluation is the engine's, from red's side, up to the
    /// engine's integer rounding.
    #[test]
    fn the_model_gives_the_evaluation() {
        // The four positions, and one with threats both ways (the host
        // profile's terms, which the model fits).
        let threats = "3k5/9/9/3cPr3/9/2n6/2P1R4/9/9/4K4 w";
        let mut d = tiny();
        d.push(&Position::parse_fen(threats).unwrap(), 0.5);
        let w = current();
        for (i, fen) in FENS.iter().chain([&threats]).enumerate() {
            let pos = Position::parse_fen(fen).unwrap();
            let e = eval::evaluate_host(&pos);
            let red = if pos.side() == RED { e } else { -e };
            let model = d.eval(i, &w);
            assert!(
                (model - f64::from(red)).abs() <= 2.0,
                "{fen}: {model} vs {red}"
            );
        }
    }

    /// The analytic gradient matches central differences of the loss.
    #[test]
    fn the_gradient_matches_finite_differences() {
        let d = tiny();
        let idx: Vec<u32> = (0..d.len() as u32).collect();
        let w = current();
        let k = 0.004;
        let mut g = vec![0.0; w.len()];
        d.loss(&idx, &w, k, Some(&mut g));
        let mut checked = 0;
        for p in 0..w.len() {
            let h = 0.5;
            let (mut a, mut b) = (w.clone(), w.clone());
            a[p] += h;
            b[p] -= h;
            let num = (d.loss(&idx, &a, k, None) - d.loss(&idx, &b, k, None)) / (2.0 * h);
            assert!(
                (num - g[p]).abs() <= 1e-6 + 1e-3 * num.abs(),
                "parameter {p}: numeric {num}, analytic {}",
                g[p]
            );
            checked += usize::from(g[p] != 0.0);
        }
        assert!(checked > 50, "only {checked} parameters had a gradient");
    }

    /// Adam lowers the held-out loss when the held-out positions are the
    /// fitted ones (each position twice, once in each half).
    #[test]
    fn tuning_lowers_the_held_out_loss() {
        let one = tiny();
        let mut d = Data::default();
        for _ in 0..2 {
            for (fen, r) in FENS.iter().zip([1.0, 0.0, 0.5, 0.5]) {
                d.push(&Position::parse_fen(fen).unwrap(), r);
            }
        }
        let fitted = (0u64..).filter(|&g| !mix(g).is_multiple_of(2)).take(4);
        let held = (0u64..).filter(|&g| mix(g).is_multiple_of(2)).take(4);
        let games: Vec<u64> = fitted.chain(held).collect();
        let idx: Vec<u32> = (0..one.len() as u32).collect();
        let w0 = current();
        let k = 0.004;
        let s = Settings {
            steps: 50,
            rate: 1.0,
            max_move: 100.0,
            k: Some(k),
            holdout: 2,
            l2: 0.0,
            material: true,
            from: 0,
        };
        let w = tune(&d, &games, &w0, &s);
        assert!(one.loss(&idx, &w, k, None) < one.loss(&idx, &w0, k, None) * 0.99);
        let moved = w
            .iter()
            .zip(&w0)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(moved <= 100.0 + 1e-9, "moved {moved}");
    }

    #[test]
    fn games_are_read_and_replayed() {
        let pgn = "[Game \"Chinese Chess\"]\n[Result \"0-1\"]\n\n1. H2-E2 H9-G7 2. H0-G2 0-1\n\n\
                   [Result \"1/2-1/2\"]\n[FEN \"3k5/4a4/4c4/9/4c4/9/9/4N4/4A4/3AK4 b - - 0 1\"]\n\
                   1. e7e8 1/2-1/2\n[Result \"*\"]\n1. h2e2 *\n";
        let games = parse_pgn(pgn);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(games[0].result, 0.0);
        assert_eq!(games[1].result, 0.5);
        assert!(games[1].fen.is_some());
        let mut out = Vec::new();
        let n = extract(&games, 0, 0, &mut HashSet::new(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), n);
        assert!(text.starts_with("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"));
        assert!(text.lines().all(|l| l.split(';').count() == 3));
    }
}
