//! The numbers a match reports: the scored engine's results with 95 % error bars
//! (per game and per pair), Elo, game lengths and the engines' effort.

use std::fmt::Write as _;
use std::time::Duration;

/// 1.96: the two-sided 95 % quantile of the normal distribution.
const Z95: f64 = 1.96;

/// Half-width of the 95 % interval of the mean of `n` samples with sum `sum` and sum
/// of squares `sum_sq` (normal approximation, sample variance); 0 for fewer than 2.
fn error95(n: f64, sum: f64, sum_sq: f64) -> f64 {
    if n < 2.0 {
        return 0.0;
    }
    let mean = sum / n;
    let var = ((sum_sq - n * mean * mean) / (n - 1.0)).max(0.0);
    Z95 * (var / n).sqrt()
}

/// The white engine's results.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Games white won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games white lost.
    pub losses: u32,
}

impl Summary {
    /// Adds a game with white's score 1, ½ or 0.
    pub fn add(&mut self, white_score: f64) {
        if white_score >= 1.0 {
            self.wins += 1;
        } else if white_score <= 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Number of games.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game (0..1) and the half-width of its 95 % interval (normal
    /// approximation over the per-game scores, sample variance). `None` with no games.
    pub fn score(&self) -> Option<(f64, f64)> {
        let n = f64::from(self.games());
        if n == 0.0 {
            return None;
        }
        let (w, d) = (f64::from(self.wins), f64::from(self.draws));
        let sum = w + 0.5 * d;
        Some((sum / n, error95(n, sum, w + 0.25 * d)))
    }

    /// Elo difference (white minus black) and its 95 % error (delta method), defined
    /// when the score is strictly between 0 and 1.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let (m, err) = self.score()?;
        if m <= 0.0 || m >= 1.0 {
            return None;
        }
        let elo = -400.0 * (1.0 / m - 1.0).log10();
        let slope = 400.0 / (std::f64::consts::LN_10 * m * (1.0 - m));
        Some((elo, err * slope))
    }

    /// For a unanimous result (every game won, or every game lost, no draws) the normal
    /// approximation's error bar is 0, which claims too much: the exact two-sided 95 %
    /// Clopper-Pearson bound instead, `0.025^(1/n)` (lower bound of the score after `n`
    /// wins in `n` games; 1 minus it is the upper bound after `n` losses).
    pub fn unanimous_bound(&self) -> Option<f64> {
        let n = self.games();
        if n == 0 || self.draws > 0 || (self.wins != n && self.losses != n) {
            return None;
        }
        let bound = 0.025f64.powf(1.0 / f64::from(n));
        Some(if self.wins == n { bound } else { 1.0 - bound })
    }

    /// The closing report.
    pub fn report(&self, white: &str) -> String {
        let mut s = format!(
            "white ({white}): {} games, +{} ={} -{}",
            self.games(),
            self.wins,
            self.draws,
            self.losses
        );
        match (self.score(), self.unanimous_bound()) {
            (Some((m, _)), Some(bound)) => {
                let (lo, hi) = if m >= 1.0 { (bound, 1.0) } else { (0.0, bound) };
                let _ = write!(
                    s,
                    ", score {:.1} % (95 %: {:.1}–{:.1} %, exact)",
                    100.0 * m,
                    100.0 * lo,
                    100.0 * hi
                );
            }
            (Some((m, err)), None) => {
                let _ = write!(
                    s,
                    ", score {:.1} % ± {:.1} % (95 %)",
                    100.0 * m,
                    100.0 * err
                );
            }
            _ => {}
        }
        match self.elo() {
            Some((elo, err)) => {
                let elo = if elo.abs() < 0.5 { 0.0 } else { elo };
                let _ = write!(s, ", Elo {elo:+.0} ± {err:.0}");
            }
            None if self.games() > 0 => s.push_str(", Elo undefined (score 0 % or 100 %)"),
            None => {}
        }
        s
    }
}

/// White's results per complete pair of games (same opening or dice, colours
/// swapped), as a pentanomial: how many pairs scored 0, ½, 1, 1½ and 2 points.
///
/// The two games of a pair are not independent (they share their luck), so the pair,
/// not the game, is the independent sample: the error bar over pair scores is the
/// honest one. It is usually smaller than the per-game one, because the pairing cancels
/// part of the luck. Games may finish in any order (`--concurrency`): each is added
/// with its pair's number.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pairs {
    /// Pairs by white's points: `[0, ½, 1, 1½, 2]`.
    pub penta: [u32; 5],
    /// First games of pairs still waiting for their second: pair number, white's score.
    open: Vec<(u32, f64)>,
}

impl Pairs {
    /// Adds white's score of a game of pair `pair`.
    pub fn add(&mut self, pair: u32, white_score: f64) {
        match self.open.iter().position(|&(p, _)| p == pair) {
            None => self.open.push((pair, white_score)),
            Some(i) => {
                let (_, first) = self.open.swap_remove(i);
                let points = ((first + white_score) * 2.0).round() as usize;
                self.penta[points.min(4)] += 1;
            }
        }
    }

    /// Number of complete pairs.
    pub fn count(&self) -> u32 {
        self.penta.iter().sum()
    }

    /// Mean pair score (0..1) and variance of one pair's score; `None` with no pairs.
    fn moments(&self) -> Option<(f64, f64)> {
        let n = f64::from(self.count());
        if n == 0.0 {
            return None;
        }
        let value = |i: usize| i as f64 / 4.0;
        let mean = (0..5)
            .map(|i| f64::from(self.penta[i]) * value(i))
            .sum::<f64>()
            / n;
        let var = (0..5)
            .map(|i| f64::from(self.penta[i]) * (value(i) - mean).powi(2))
            .sum::<f64>()
            / n;
        Some((mean, var))
    }

    /// Mean score over complete pairs and its 95 % half-width; `None` under 2 pairs.
    pub fn score(&self) -> Option<(f64, f64)> {
        let n = f64::from(self.count());
        let (mean, var) = self.moments()?;
        (n >= 2.0).then(|| (mean, Z95 * (var * n / (n - 1.0) / n).sqrt()))
    }

    /// Elo difference from the pair scores and its 95 % half-width; `None` under 2
    /// pairs or at a score of 0 % or 100 %.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let (m, err) = self.score()?;
        if m <= 0.0 || m >= 1.0 {
            return None;
        }
        let lo = elo_of((m - err).max(1e-6));
        let hi = elo_of((m + err).min(1.0 - 1e-6));
        Some((elo_of(m), (hi - lo) / 2.0))
    }

    /// The log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`), logistic Elo,
    /// from the pentanomial (the generalised SPRT's normal approximation, as
    /// fishtest and fastchess compute it); 0 until both sides of the pentanomial
    /// have variance.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let Some((mean, var)) = self.moments() else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of(elo0), score_of(elo1));
        f64::from(self.count()) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }
}

/// Elo difference of an expected score (logistic).
pub fn elo_of(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score of an Elo difference (logistic).
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A sequential probability ratio test: `--sprt elo0=0,elo1=10[,alpha=0.05,beta=0.05]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// What an SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// Keep playing.
    Continue,
    /// H1 accepted: the first engine is at least `elo1` better (at the test's error rates).
    H1,
    /// H0 accepted: it is not `elo1` better.
    H0,
}

impl Sprt {
    /// Reads `elo0=…,elo1=…[,alpha=…,beta=…]`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut t = Self {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("--sprt: expected key=value, got {part:?}"))?;
            let v: f64 = v
                .parse()
                .map_err(|_| format!("--sprt: {k} must be a number, got {v:?}"))?;
            match k {
                "elo0" => t.elo0 = v,
                "elo1" => t.elo1 = v,
                "alpha" => t.alpha = v,
                "beta" => t.beta = v,
                _ => return Err(format!("--sprt: unknown key {k:?} (elo0 elo1 alpha beta)")),
            }
        }
        if !(t.elo0.is_finite() && t.elo1.is_finite() && t.elo0 < t.elo1) {
            return Err("--sprt needs elo0 < elo1, e.g. elo0=0,elo1=10".into());
        }
        if !(0.0 < t.alpha && t.alpha < 0.5 && 0.0 < t.beta && t.beta < 0.5) {
            return Err("--sprt: alpha and beta must lie between 0 and 0.5".into());
        }
        Ok(t)
    }

    /// The LLR bounds: (lower, upper).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The test's verdict on `pairs`.
    pub fn verdict(&self, pairs: &Pairs) -> Verdict {
        let llr = pairs.llr(self.elo0, self.elo1);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Verdict::H1
        } else if llr <= lo {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }

    /// `LLR 1.23 (−2.94, 2.94) [0, 10]`.
    pub fn line(&self, pairs: &Pairs) -> String {
        let (lo, hi) = self.bounds();
        format!(
            "SPRT [{}, {}] alpha {} beta {}: LLR {:.2} ({:.2}, {:.2})",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            pairs.llr(self.elo0, self.elo1),
            lo,
            hi
        )
    }
}

/// Game lengths, in the unit the game counts (plies; EinStein: cube steps).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lengths {
    /// Games counted.
    pub games: u32,
    /// Sum of the lengths.
    pub total: u64,
    /// Shortest game.
    pub min: usize,
    /// Longest game.
    pub max: usize,
}

impl Lengths {
    /// Adds a game of `length` plies.
    pub fn add(&mut self, length: usize) {
        self.min = if self.games == 0 {
            length
        } else {
            self.min.min(length)
        };
        self.max = self.max.max(length);
        self.games += 1;
        self.total += length as u64;
    }

    /// Average length; `None` with no games.
    pub fn mean(&self) -> Option<f64> {
        (self.games > 0).then(|| self.total as f64 / f64::from(self.games))
    }
}

/// One engine's effort over the match: its `go` answers (referee moves excluded).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effort {
    /// Requests answered.
    pub moves: u64,
    /// Nodes reported.
    pub nodes: u64,
    /// Sum of the depths reported.
    pub depth: u64,
    /// Host wall time waiting for the answers (link included).
    pub time: Duration,
    /// The longest answer.
    pub longest: Duration,
    /// Answers that came later than a fixed move time allows (`--movetime`
    /// plus `--time-margin`): not forfeits, but what a GUI would flag.
    pub late: u64,
}

impl Effort {
    /// Adds one answer.
    pub fn add(&mut self, nodes: u64, depth: u32, time: Duration) {
        self.moves += 1;
        self.nodes += nodes;
        self.depth += u64::from(depth);
        self.time += time;
        self.longest = self.longest.max(time);
    }

    /// Adds another effort (a game's, to the match's).
    pub fn merge(&mut self, other: &Effort) {
        self.moves += other.moves;
        self.nodes += other.nodes;
        self.depth += other.depth;
        self.time += other.time;
        self.longest = self.longest.max(other.longest);
        self.late += other.late;
    }

    /// `"<n> moves, <nodes>/move, depth <d>, <ms>/move (longest <ms>)"`, with
    /// `", <k> late"` inside the brackets when answers came late.
    pub fn line(&self) -> String {
        let n = self.moves.max(1);
        let late = match self.late {
            0 => String::new(),
            k => format!(", {k} late"),
        };
        format!(
            "{} moves, {} nodes/move, depth {:.1}, {:.2} ms/move (longest {} ms{late})",
            self.moves,
            self.nodes / n,
            self.depth as f64 / n as f64,
            self.time.as_secs_f64() * 1000.0 / n as f64,
            self.longest.as_millis()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_and_elo_error_bars() {
        let s = Summary {
            wins: 6,
            draws: 2,
            losses: 2,
        };
        let (m, err) = s.score().unwrap();
        assert!((m - 0.7).abs() < 1e-9);
        // Sample variance of six 1s, two ½s, two 0s around 0.7.
        let var: f64 = (6.0 * 0.09 + 2.0 * 0.04 + 2.0 * 0.49) / 9.0;
        assert!((err - 1.96 * (var / 10.0).sqrt()).abs() < 1e-9);
        let (elo, elo_err) = s.elo().unwrap();
        assert!((elo - 147.2).abs() < 0.1, "{elo}");
        assert!(elo_err > 100.0 && elo_err < 400.0, "{elo_err}");
        assert!(
            Summary {
                wins: 3,
                draws: 0,
                losses: 0
            }
            .elo()
            .is_none()
        );
        assert_eq!(Summary::default().score(), None);
        let all_draws = Summary {
            wins: 0,
            draws: 4,
            losses: 0,
        };
        assert_eq!(all_draws.elo(), Some((0.0, 0.0)));
        assert!(s.report("host").contains("score 70.0 %"));
        assert!(s.report("host").contains("+6 =2 -2"));
    }

    #[test]
    fn binomial_error_bar_at_known_points() {
        // 652 of 1000: p = 0.652, 1.96·sqrt(p(1-p)/n) with the sample variance's n-1.
        let s = Summary {
            wins: 652,
            draws: 0,
            losses: 348,
        };
        let (m, err) = s.score().unwrap();
        let expect = 1.96 * (0.652 * 0.348 / 999.0f64).sqrt();
        assert!((m - 0.652).abs() < 1e-12);
        assert!((err - expect).abs() < 1e-9, "{err} vs {expect}");
        assert!((err - 0.0295).abs() < 0.0005);
        // One game: no spread to measure.
        let one = Summary {
            wins: 1,
            draws: 0,
            losses: 0,
        };
        assert_eq!(one.score(), Some((1.0, 0.0)));
    }

    #[test]
    fn unanimous_results_get_an_exact_bound() {
        let all = Summary {
            wins: 200,
            draws: 0,
            losses: 0,
        };
        let lo = all.unanimous_bound().unwrap();
        // 0.025^(1/200) = 0.98172…
        assert!((lo - 0.981_72).abs() < 1e-5, "{lo}");
        assert!(
            all.report("host")
                .contains("score 100.0 % (95 %: 98.2–100.0 %, exact)"),
            "{}",
            all.report("host")
        );
        let none = Summary {
            wins: 0,
            draws: 0,
            losses: 10,
        };
        let hi = none.unanimous_bound().unwrap();
        assert!((hi - (1.0 - 0.025f64.powf(0.1))).abs() < 1e-12);
        assert!(
            none.report("b").contains("(95 %: 0.0–30.8 %, exact)"),
            "{}",
            none.report("b")
        );
        let mixed = Summary {
            wins: 9,
            draws: 1,
            losses: 0,
        };
        assert_eq!(mixed.unanimous_bound(), None);
        assert!(mixed.report("host").contains("±"));
    }

    #[test]
    fn pair_scores_and_their_error_bar() {
        let mut p = Pairs::default();
        // Pairs: (1,0) (1,1) (0,0) (1,0) and an unpaired last game.
        for (i, s) in [1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0]
            .into_iter()
            .enumerate()
        {
            p.add(i as u32 / 2, s);
        }
        assert_eq!(p.count(), 4);
        assert_eq!(p.penta, [1, 0, 2, 0, 1]);
        let (m, err) = p.score().unwrap();
        assert!((m - 0.5).abs() < 1e-12);
        // Pair scores 0.5, 1, 0, 0.5: sample variance 1/6.
        let expect = 1.96 * ((1.0f64 / 6.0) / 4.0).sqrt();
        assert!((err - expect).abs() < 1e-12);
        let mut one = Pairs::default();
        one.add(1, 1.0);
        one.add(1, 0.0);
        assert_eq!(one.score(), None);
        // Perfectly balanced pairs: no spread.
        let mut even = Pairs::default();
        for (i, s) in [1.0, 0.0, 0.0, 1.0, 0.5, 0.5].into_iter().enumerate() {
            even.add(i as u32 / 2, s);
        }
        assert_eq!(even.score(), Some((0.5, 0.0)));
        // Games of different pairs finishing out of order still pair up right.
        let mut shuffled = Pairs::default();
        for (pair, s) in [(2, 1.0), (1, 0.0), (2, 1.0), (1, 0.5)] {
            shuffled.add(pair, s);
        }
        assert_eq!(shuffled.penta, [0, 1, 0, 0, 1]);
    }

    #[test]
    fn sprt_accepts_and_rejects() {
        assert!(Sprt::parse("elo0=10,elo1=0").is_err());
        assert!(Sprt::parse("elo0=0,elo1=10,gamma=1").is_err());
        let t = Sprt::parse("elo0=0,elo1=10").unwrap();
        let (lo, hi) = t.bounds();
        assert!((hi - 2.944).abs() < 1e-3 && (lo + 2.944).abs() < 1e-3);
        // A clearly stronger engine: mostly 1½ and 2 point pairs.
        let strong = Pairs {
            penta: [5, 20, 100, 120, 55],
            ..Pairs::default()
        };
        assert_eq!(t.verdict(&strong), Verdict::H1);
        // An equal one, many pairs: H0.
        let equal = Pairs {
            penta: [90, 360, 900, 360, 90],
            ..Pairs::default()
        };
        assert_eq!(t.verdict(&equal), Verdict::H0);
        let few = Pairs {
            penta: [0, 1, 2, 1, 0],
            ..Pairs::default()
        };
        assert_eq!(t.verdict(&few), Verdict::Continue);
        assert!(t.line(&few).starts_with("SPRT [0, 10]"));
        assert!((score_of(elo_of(0.7)) - 0.7).abs() < 1e-12);
        let (elo, err) = strong.elo().unwrap();
        assert!(elo > 100.0 && err > 0.0, "{elo} {err}");
    }

    #[test]
    fn lengths_and_effort() {
        let mut l = Lengths::default();
        assert_eq!(l.mean(), None);
        for n in [60, 90, 120] {
            l.add(n);
        }
        assert_eq!((l.min, l.max, l.games, l.total), (60, 120, 3, 270));
        assert_eq!(l.mean(), Some(90.0));
        let mut e = Effort::default();
        e.add(100, 3, Duration::from_millis(2));
        e.add(300, 5, Duration::from_millis(4));
        assert_eq!(
            e.line(),
            "2 moves, 200 nodes/move, depth 4.0, 3.00 ms/move (longest 4 ms)"
        );
        let mut late = Effort {
            late: 1,
            ..Effort::default()
        };
        late.merge(&e);
        assert_eq!(
            late.line(),
            "2 moves, 200 nodes/move, depth 4.0, 3.00 ms/move (longest 4 ms, 1 late)"
        );
    }
}
