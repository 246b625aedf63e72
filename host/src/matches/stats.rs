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

/// White's score per complete pair of games (same opening or dice, colours swapped).
///
/// The two games of a pair are not independent (they share their luck), so the pair,
/// not the game, is the independent sample: the error bar over pair scores is the
/// honest one. It is usually smaller than the per-game one, because the pairing cancels
/// part of the luck.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pairs {
    count: u32,
    sum: f64,
    sum_sq: f64,
    open: Option<f64>,
}

impl Pairs {
    /// Adds white's score of the next game (games come in order: 1 and 2 form a pair).
    pub fn add(&mut self, white_score: f64) {
        match self.open.take() {
            None => self.open = Some(white_score),
            Some(first) => {
                let pair = (first + white_score) / 2.0;
                self.count += 1;
                self.sum += pair;
                self.sum_sq += pair * pair;
            }
        }
    }

    /// Number of complete pairs.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// Mean score over complete pairs and its 95 % half-width; `None` under 2 pairs.
    pub fn score(&self) -> Option<(f64, f64)> {
        let n = f64::from(self.count);
        (self.count >= 2).then(|| (self.sum / n, error95(n, self.sum, self.sum_sq)))
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
    /// Host wall time waiting for the answers (link included).
    pub time: Duration,
}

impl Effort {
    /// Adds one answer.
    pub fn add(&mut self, nodes: u64, time: Duration) {
        self.moves += 1;
        self.nodes += nodes;
        self.time += time;
    }

    /// `"<n> moves, <nodes>/move, <ms>/move"`.
    pub fn line(&self) -> String {
        let n = self.moves.max(1);
        format!(
            "{} moves, {} nodes/move, {:.2} ms/move",
            self.moves,
            self.nodes / n,
            self.time.as_secs_f64() * 1000.0 / n as f64
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
        for s in [1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0] {
            p.add(s);
        }
        assert_eq!(p.count(), 4);
        let (m, err) = p.score().unwrap();
        assert!((m - 0.5).abs() < 1e-12);
        // Pair scores 0.5, 1, 0, 0.5: sample variance 1/6.
        let expect = 1.96 * ((1.0f64 / 6.0) / 4.0).sqrt();
        assert!((err - expect).abs() < 1e-12);
        let mut one = Pairs::default();
        one.add(1.0);
        one.add(0.0);
        assert_eq!(one.score(), None);
        // Perfectly balanced pairs: no spread.
        let mut even = Pairs::default();
        for s in [1.0, 0.0, 0.0, 1.0, 0.5, 0.5] {
            even.add(s);
        }
        assert_eq!(even.score(), Some((0.5, 0.0)));
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
        e.add(100, Duration::from_millis(2));
        e.add(300, Duration::from_millis(4));
        assert_eq!(e.line(), "2 moves, 200 nodes/move, 3.00 ms/move");
    }
}
