//! The host profile's evaluation: a linear sum of features with weights fitted
//! to self-play positions (`firmware/examples/gomoku_tune.rs`).
//!
//! Features, from the side to move's view:
//! * its stones' line patterns per direction ([`Histogram`]: how many
//!   stone-directions of each colour have each pattern), weighted separately for
//!   the side to move and for the opponent (a three of the side to move is
//!   nearly a four, the opponent's is a block to make);
//! * its and the opponent's empty near points by what a stone there would make
//!   ([`PointClasses`], the fine classes of [`super::point_class`]: from an
//!   open two or a closed three up to a four-three, an open four, a five),
//!   which the host keeps move by move beside the per-point patterns;
//! * the tempo and the side to move's open three (a straight four to come);
//! * which threats each side has ([`threat_mask`]: 11 bits), scored by a
//!   table ([`super::host_threats`]): the one term that is not a sum, since
//!   who moves first decides what two sides' threats are worth together;
//! * optionally a value per near point's pattern combination
//!   ([`HostWeights::codes`], [`point_class::code`]: Rapfi's "pcode")
//!   refining its class's weight (no kept weight set has them: session 35's
//!   fits did not gain at equal time);
//! * optionally a small network on these features ([`HostWeights::net`],
//!   [`super::host_net`]) whose score replaces the weights' sum.
//!
//! The board profile keeps [`super::eval::Eval::score`]: the host's searches
//! select these weights through `Settings::weights`.

use super::board::Board;
use super::eval::{Eval, FOUR_TO_MOVE, PatternSink};
use super::host_threats;
use super::lines::{PATTERNS, Pattern, Table};
use super::point_class;
use super::position::Gomoku;
use super::rules::Rule;
use crate::game::{MATE_BOUND, Score};

/// Classes of a point ([`point_class::NO_CLASS`] … [`point_class::A_FIVE`]).
pub const CLASSES: usize = point_class::CLASSES;

/// Stone-directions per colour (`[black, white]`) by line pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Histogram(pub [[u16; PATTERNS]; 2]);

impl Default for Histogram {
    fn default() -> Self {
        Histogram([[0; PATTERNS]; 2])
    }
}

impl PatternSink for Histogram {
    #[inline(always)]
    fn add_pattern(&mut self, side: u8, pattern: Pattern, sign: i32) {
        let c = &mut self.0[usize::from(side & 1)][usize::from(pattern) % PATTERNS];
        *c = if sign > 0 {
            c.wrapping_add(1)
        } else {
            c.wrapping_sub(1)
        };
    }
}

impl Histogram {
    /// Counts every stone of `board` under `rule` from scratch.
    pub fn from_board(board: &Board, rule: Rule) -> Self {
        let mut h = Histogram::default();
        super::eval::count_into(&mut h, board, rule);
        h
    }
}

/// An [`Eval`] and a [`Histogram`] updated together (the host's moves).
pub struct Both<'a>(pub &'a mut Eval, pub &'a mut Histogram);

impl PatternSink for Both<'_> {
    #[inline(always)]
    fn add_pattern(&mut self, side: u8, pattern: Pattern, sign: i32) {
        self.0.add_pattern(side, pattern, sign);
        self.1.add_pattern(side, pattern, sign);
    }
}

/// Empty near points per colour (`[black, white]`) by the fine class
/// ([`point_class`]) a stone of that colour would make there (renju's full
/// forbidden test not run).
pub type PointClasses = [[u16; CLASSES]; 2];

/// The evaluation's weights (centipawn-like units of [`Eval::score`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostWeights {
    /// The side to move's stone-directions by pattern.
    pub own: [i16; PATTERNS],
    /// The opponent's stone-directions by pattern (subtracted).
    pub opp: [i16; PATTERNS],
    /// The side to move's near points by class.
    pub own_points: [i16; CLASSES],
    /// The opponent's near points by class (subtracted).
    pub opp_points: [i16; CLASSES],
    /// The side to move's bonus.
    pub tempo: i16,
    /// The side to move's open three when the opponent has no four.
    pub three_to_move: i16,
    /// A score for each [`threat_mask`] (which threats each side has), in
    /// the spirit of Rapfi's classical threat table: what the counts above
    /// cannot say, e.g. that a side to move with an open three and a four
    /// point wins while the opponent without one only blocks. `None`: none.
    pub threat: Option<&'static [i16; THREATS]>,
    /// A value for each near point's [`point_class::code`] (the multiset of
    /// the four line patterns a stone there would make: Rapfi's "pcode"),
    /// added to its class's weight: `[0]` the side to move's points, `[1]`
    /// the opponent's (subtracted). `None`: none.
    pub codes: Option<&'static Codes>,
    /// A network on these features ([`super::host_net`]) whose score
    /// replaces the weights' sum (the codes still added). `None`: none.
    pub net: Option<&'static super::host_net::Net>,
}

/// Values by point code ([`HostWeights::codes`]): the side to move's, the
/// opponent's.
pub type Codes = [[i16; CODES]; 2];

/// Number of point codes ([`point_class::code`]).
pub const CODES: usize = point_class::CODES;

/// Number of [`threat_mask`] values.
pub const THREATS: usize = 1 << 11;

/// Which threats each side has, from its near points' fine classes, as 11
/// bits (the side to move's view): the opponent's five point (it has a
/// four), each side's straight-four point, four-plus point (a four with a
/// three or two), plain four point, three-plus point (an open three with
/// more, or two) and open-three point.
pub fn threat_mask(points: &PointClasses, to_move: u8) -> usize {
    use point_class::*;
    let (me, them) = (
        &points[usize::from(to_move & 1)],
        &points[usize::from((to_move ^ 1) & 1)],
    );
    let has = |side: &[u16; CLASSES], classes: &[PointClass]| {
        classes.iter().any(|&c| side[usize::from(c)] > 0)
    };
    let bits = [
        has(them, &[A_FIVE]),
        has(me, &[B_FLEX4]),
        has(them, &[B_FLEX4]),
        has(me, &[C_BLOCK4_FLEX3, D_BLOCK4_PLUS]),
        has(me, &[E_BLOCK4]),
        has(me, &[F_FLEX3_2X, G_FLEX3_PLUS]),
        has(me, &[H_FLEX3]),
        has(them, &[C_BLOCK4_FLEX3, D_BLOCK4_PLUS]),
        has(them, &[E_BLOCK4]),
        has(them, &[F_FLEX3_2X, G_FLEX3_PLUS]),
        has(them, &[H_FLEX3]),
    ];
    bits.iter()
        .enumerate()
        .fold(0, |m, (i, &b)| m | (usize::from(b) << i))
}

/// Number of weights (the tuner's parameters, in [`HostWeights::to_vec`]'s order).
pub const PARAMS: usize = 2 * PATTERNS + 2 * CLASSES + 2;

impl HostWeights {
    /// The weights as one list: `own`, `opp`, `own_points`, `opp_points`,
    /// `tempo`, `three_to_move`.
    pub fn to_vec(&self) -> [i16; PARAMS] {
        let mut v = [0; PARAMS];
        v[..PATTERNS].copy_from_slice(&self.own);
        v[PATTERNS..2 * PATTERNS].copy_from_slice(&self.opp);
        let c = 2 * PATTERNS;
        v[c..c + CLASSES].copy_from_slice(&self.own_points);
        v[c + CLASSES..c + 2 * CLASSES].copy_from_slice(&self.opp_points);
        v[PARAMS - 2] = self.tempo;
        v[PARAMS - 1] = self.three_to_move;
        v
    }

    /// `true` when a point class has a weight (the points must be counted).
    pub const fn uses_points(&self) -> bool {
        if self.threat.is_some() || self.codes.is_some() || self.net.is_some() {
            return true;
        }
        let mut i = 0;
        while i < CLASSES {
            if self.own_points[i] != 0 || self.opp_points[i] != 0 {
                return true;
            }
            i += 1;
        }
        false
    }

    /// The value of a near point of code `code` ([`HostWeights::codes`];
    /// `own`: the side to move's point), from the side to move's view.
    #[inline(always)]
    pub fn code_value(codes: &Codes, own: bool, code: u16) -> i32 {
        let v = i32::from(
            codes[usize::from(!own)]
                .get(usize::from(code))
                .copied()
                .unwrap_or(0),
        );
        if own { v } else { -v }
    }

    /// Score for `to_move`: a four of its own wins next move ([`FOUR_TO_MOVE`]);
    /// otherwise the weighted features (see [`features`]) and `codes`, the
    /// near points' [`HostWeights::code_value`]s added up (0 without codes);
    /// with a network, its score of the features and of `net_codes` (the
    /// near points' rows of its [`super::host_net::CodeTable`] added up, if
    /// it has one) and `codes`.
    pub fn score(
        &self,
        eval: &Eval,
        hist: &Histogram,
        points: &PointClasses,
        codes: i32,
        net_codes: &super::host_net::CodeSums,
        to_move: u8,
    ) -> Score {
        if eval.has_four(to_move) {
            return FOUR_TO_MOVE;
        }
        if let Some(net) = self.net {
            let x = super::host_net::inputs(eval, hist, points, to_move);
            return (net.score(&x, net_codes) + codes).clamp(-(MATE_BOUND - 1), MATE_BOUND - 1);
        }
        // The dot product of [`features`] and [`HostWeights::to_vec`], feature
        // by feature without either list.
        let (me, them) = (usize::from(to_move & 1), usize::from((to_move ^ 1) & 1));
        let mut score = i32::from(self.tempo);
        if eval.has_open_three(to_move) && !eval.has_four(to_move ^ 1) {
            score += i32::from(self.three_to_move);
        }
        let (own, opp) = (&hist.0[me], &hist.0[them]);
        for (((&n, &w), &m), &v) in own.iter().zip(&self.own).zip(opp).zip(&self.opp) {
            score += i32::from(n) * i32::from(w) - i32::from(m) * i32::from(v);
        }
        let (own, opp) = (&points[me], &points[them]);
        for (((&n, &w), &m), &v) in own
            .iter()
            .zip(&self.own_points)
            .zip(opp)
            .zip(&self.opp_points)
        {
            score += i32::from(n) * i32::from(w) - i32::from(m) * i32::from(v);
        }
        let score = score
            + self
                .threat
                .map_or(0, |t| i32::from(t[threat_mask(points, to_move) % THREATS]))
            + codes;
        score.clamp(-(MATE_BOUND - 1), MATE_BOUND - 1)
    }
}

/// The features of a position for `to_move` (the opponent's negated), in
/// [`HostWeights::to_vec`]'s order: the score is their dot product with the weights.
pub fn features(
    eval: &Eval,
    hist: &Histogram,
    points: &PointClasses,
    to_move: u8,
) -> [i32; PARAMS] {
    let (me, them) = (usize::from(to_move & 1), usize::from((to_move ^ 1) & 1));
    let mut x = [0i32; PARAMS];
    for p in 0..PATTERNS {
        x[p] = i32::from(hist.0[me][p]);
        x[PATTERNS + p] = -i32::from(hist.0[them][p]);
    }
    let c = 2 * PATTERNS;
    for k in 0..CLASSES {
        x[c + k] = i32::from(points[me][k]);
        x[c + CLASSES + k] = -i32::from(points[them][k]);
    }
    x[PARAMS - 2] = 1;
    x[PARAMS - 1] = i32::from(eval.has_open_three(to_move) && !eval.has_four(to_move ^ 1));
    x
}

/// Calls `f(side, patterns)` for each colour (`0` black, `1` white) of each
/// near point of `pos` (every empty point at most two points along a line
/// from a stone) with the four line patterns a stone of that colour there
/// would make, read from scratch.
fn for_each_near_patterns(pos: &Gomoku, mut f: impl FnMut(usize, [Pattern; 4])) {
    let tables = [
        Table::for_side(pos.rule(), 0),
        Table::for_side(pos.rule(), 1),
    ];
    super::search::for_each_near(pos, |p| {
        let lines = pos.board().lines(p);
        for (side, table) in tables.iter().enumerate() {
            f(
                side,
                core::array::from_fn(|d| table.pattern(&lines[d], side as u8)),
            );
        }
    });
}

/// The near points' classes of `pos` from scratch (what the host's searcher
/// counts from its kept per-point patterns): every empty point at most two
/// points along a line from a stone.
pub fn point_classes(pos: &Gomoku) -> PointClasses {
    let mut classes = [[0u16; CLASSES]; 2];
    for_each_near_patterns(pos, |side, patterns| {
        classes[side][usize::from(point_class::classify(patterns)) % CLASSES] += 1;
    });
    classes
}

/// Calls `f(side, class, code)` for each colour (`0` black, `1` white) of
/// each near point of `pos` ([`point_classes`]' points) with the point's
/// fine class and [`point_class::code`] for that colour.
pub fn point_codes(pos: &Gomoku, mut f: impl FnMut(usize, point_class::PointClass, u16)) {
    for_each_near_patterns(pos, |side, patterns| {
        f(
            side,
            point_class::classify(patterns),
            point_class::code(patterns),
        );
    });
}

/// The near points' [`HostWeights::code_value`]s of `pos` added up for
/// `to_move`, from scratch (0 without codes).
pub fn code_sum(weights: &HostWeights, pos: &Gomoku, to_move: u8) -> i32 {
    let Some(codes) = weights.codes else {
        return 0;
    };
    let mut sum = 0;
    point_codes(pos, |side, _, code| {
        sum += HostWeights::code_value(codes, side == usize::from(to_move & 1), code);
    });
    sum
}

/// What the evaluation reads of `pos`, counted from scratch: the pattern
/// sums, the stones' line patterns and the near points' classes.
fn from_scratch(pos: &Gomoku) -> (Eval, Histogram, PointClasses) {
    let (board, rule) = (pos.board(), pos.rule());
    let eval = Eval::from_board(board, rule);
    let hist = Histogram::from_board(board, rule);
    (eval, hist, point_classes(pos))
}

/// The features of `pos` for the side to move, from scratch (the tuner's).
pub fn position_features(pos: &Gomoku) -> [i32; PARAMS] {
    let (eval, hist, points) = from_scratch(pos);
    features(
        &eval,
        &hist,
        &points,
        crate::game::Game::player_to_move(pos),
    )
}

/// Today's [`Eval::score`] as weights (`STONE_VALUE` for both sides, no point
/// features): where the tuner starts.
pub const START: HostWeights = HostWeights {
    own: stone_values(),
    opp: stone_values(),
    own_points: [0; CLASSES],
    opp_points: [0; CLASSES],
    tempo: 20,
    three_to_move: 250,
    threat: None,
    codes: None,
    net: None,
};

/// Weights by kind of position: one set for the rules without forbidden
/// points (free, standard, caro), renju's by the colour to move (black's
/// forbidden points change what both sides' patterns are worth).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostEval {
    /// Free, standard and caro.
    pub free: HostWeights,
    /// Renju with black (`[0]`) or white (`[1]`) to move.
    pub renju: [HostWeights; 2],
}

impl HostEval {
    /// The same weights for every kind of position.
    pub const fn one(weights: HostWeights) -> Self {
        HostEval {
            free: weights,
            renju: [weights, weights],
        }
    }

    /// The weights that score a position of `rule` with `to_move` to move.
    #[inline(always)]
    pub fn weights(&self, rule: Rule, to_move: u8) -> &HostWeights {
        if rule.has_forbidden() {
            &self.renju[usize::from(to_move & 1)]
        } else {
            &self.free
        }
    }
}

/// The weights fitted by `gomoku_tune` (what `Settings::HOST` selects):
/// session 57's fit with a threat table for the rules without forbidden
/// points (at 200 ms a move +30 (+6 … +53) Elo against session 34's weights,
/// 400 paired games; those +71 ± 28 against session 26's), session 58's fits
/// with threat tables for renju, one per colour to move (at 200 ms a move
/// +45 (+14 … +77) Elo against session 36's, 400 paired games; those +47
/// (+21 … +72) against session 35's, 600 paired games), each with session
/// 60's network on its features ([`super::host_net`]: at 200 ms a move free
/// +41 (+14 … +69), renju +49 (+20 … +79), 400 paired games each; see
/// `docs/strength.md`, sessions 34–36, 57, 58 and 60).
pub const TUNED: HostEval = HostEval {
    free: TUNED_S60,
    renju: [TUNED_S60_BLACK, TUNED_S60_WHITE],
};

/// Session 60: [`TUNED_S57`] with a network on its features.
pub const TUNED_S60: HostWeights = HostWeights {
    net: Some(&super::host_net::FREE_NET),
    ..TUNED_S57
};

/// Session 60: [`TUNED_S58_BLACK`] with a network on its features.
pub const TUNED_S60_BLACK: HostWeights = HostWeights {
    net: Some(&super::host_net::RENJU_BLACK_NET),
    ..TUNED_S58_BLACK
};

/// Session 60: [`TUNED_S58_WHITE`] with a network on its features.
pub const TUNED_S60_WHITE: HostWeights = HostWeights {
    net: Some(&super::host_net::RENJU_WHITE_NET),
    ..TUNED_S58_WHITE
};

/// Session 26's fit: session 23's recipe (its 15,853 positions, one K,
/// started from its weights) with the fine point classes: held-out loss
/// 0.0569 (the coarse classes refitted) → 0.0506.
pub const TUNED_S26: HostWeights = HostWeights {
    own: [0, 0, 0, 1, 8, 12, 0, 47, 297, 347, 45, 400, 400, 0],
    opp: [0, 0, -1, 1, 2, 12, 9, 2, 54, 86, 45, 400, 400, 0],
    own_points: [-2, -3, -7, 0, 1, 12, 34, 55, -45, 19, 989, 0, 0],
    opp_points: [-1, -4, -4, -3, 0, -2, 13, 14, 18, 52, 144, -29, 0],
    tempo: 22,
    three_to_move: 531,
    threat: None,
    codes: None,
    net: None,
};

/// Session 23's weights for every rule (the host's level 2, the A/B
/// tests' reference).
pub const PREVIOUS: HostEval = HostEval::one(TUNED_S23);

/// Session 23's fit: one set for every rule (fitted on the coarse classes of
/// `lines::combine`, each fine class given its coarse class's weight: the
/// same scores).
pub const TUNED_S23: HostWeights = HostWeights {
    own: [0, 0, 1, 6, 9, 12, -3, 43, 242, 288, 45, 400, 400, 0],
    opp: [0, 0, -1, -2, 5, 12, 8, 1, 53, 85, 45, 400, 400, 0],
    own_points: point_class::from_coarse([-3, 22, -25, 57, 813, -15, 0]),
    opp_points: point_class::from_coarse([-2, 4, 28, 8, 148, -29, 0]),
    tempo: 16,
    three_to_move: 474,
    threat: None,
    codes: None,
    net: None,
};

/// Session 34's fit for the rules without forbidden points: the weights and
/// the threat table ([`host_threats::FREE`]) fitted together
/// (`gomoku_tune tune --start tuned --threat --steps 2000`, best step 1,340)
/// on 10,525 quiet positions of the first 542 games of `LABEL_NODES=20000
/// gomoku_tune gen free 1200 3401 openings/gomoku-100.txt` (self-play at
/// 3,000 nodes a move with session 26's weights, each position labelled by a
/// 20,000-node search): held-out loss 0.0670 (session 26's weights) → 0.0475
/// (the weights alone refitted: 0.0509; the table alone added: 0.0565).
pub const TUNED_S34: HostWeights = HostWeights {
    own: [0, 0, -1, -19, 9, 12, -2, 59, 453, 474, 45, 400, 400, 0],
    opp: [0, 0, -3, -10, 4, 12, 5, 25, 85, 99, 45, 400, 400, 0],
    own_points: [-7, -4, -12, 8, 14, 26, 55, 119, -39, 42, 1728, 758, 0],
    opp_points: [-5, -8, -9, 1, 2, 10, 28, 49, 5, 69, 266, 66, 0],
    tempo: 115,
    three_to_move: 683,
    threat: Some(&host_threats::FREE),
    codes: None,
    net: None,
};

/// Session 57's fit for the rules without forbidden points: session 34's
/// weights and threat table refitted together to the games' results
/// (`gomoku_tune tune --one-k --eval-k start --start tuned --only free
/// --threat --lambda 1 --steps 1200`, best step 1,200) on 184,697 positions
/// of 8,000 self-play games (`LABEL_NODES=20000 gomoku_tune gen free 4000
/// 5711 openings/gomoku-100.txt` and seed 5712, today's engine playing at
/// 3,000 nodes a move): held-out loss against the results 0.1556 → 0.1494.
/// Values per point code fitted on the same data to the 20,000-node
/// searches' scores (session 34's recipe) made a weaker engine (see
/// `docs/strength.md`, session 57).
pub const TUNED_S57: HostWeights = HostWeights {
    own: [0, 0, 4, -16, 4, 12, -24, 36, 616, 557, 45, 400, 400, 0],
    opp: [0, 0, 2, -5, -2, 12, -15, -6, 130, 167, 45, 400, 400, 0],
    own_points: [-11, -8, -11, 9, 25, 28, 82, 243, -39, 71, 2611, 1608, 0],
    opp_points: [-10, -13, -7, -2, 17, 13, 47, 71, 31, 108, 351, 58, 0],
    tempo: 207,
    three_to_move: 846,
    threat: Some(&host_threats::FREE_S57),
    codes: None,
    net: None,
};

/// Session 36's fit for renju with black to move: the weights and the threat
/// table ([`host_threats::RENJU_BLACK`]) fitted together (`gomoku_tune tune
/// --one-k --start tuned-black --only renju-black --threat --steps 5000`
/// from session 35's fit, best step 4,360) on the black-to-move positions
/// of 5,400 renju self-play games (`LABEL_NODES=20000`, openings
/// `openings/gomoku-100.txt`): session 34's first 496 of `gen renju 800
/// 3402`, session 35's 904 of `gen renju 2000 3501` and `3502`, and 4,000
/// of `gen renju 2000 3601` and `3602` (session 35's weights playing);
/// 110,599 positions of both colours. Held-out loss 0.0518 (session 35's
/// fit) → 0.0433.
pub const TUNED_S36_BLACK: HostWeights = HostWeights {
    own: [0, 0, -8, -42, 23, 12, -3, 12, 1114, 1406, 45, 400, 400, 0],
    opp: [0, 0, 0, -9, 5, 12, 3, -42, 42, 100, 45, 400, 400, 0],
    own_points: [-11, -7, -29, -5, 1, 18, 63, 56, 41, 215, 2747, -115, 0],
    opp_points: [-6, -18, -15, -26, -4, 2, 8, 15, 127, 230, 511, 48, 0],
    tempo: 356,
    three_to_move: 1530,
    threat: Some(&host_threats::RENJU_BLACK),
    codes: None,
    net: None,
};

/// Session 36's fit for renju with white to move: [`TUNED_S36_BLACK`]'s
/// recipe on the white-to-move positions (`--start tuned-white --only
/// renju-white`, best step 5,000): held-out loss 0.0550 (session 35's fit)
/// → 0.0443.
pub const TUNED_S36_WHITE: HostWeights = HostWeights {
    own: [0, 0, 4, -29, 18, 12, -10, 49, 670, 560, 45, 400, 400, 0],
    opp: [0, 0, -12, -22, 11, 12, -16, -36, 84, 188, 45, 400, 400, 0],
    own_points: [-9, -9, -22, -10, 9, 35, 49, 145, 8, 172, 2472, 2835, 0],
    opp_points: [-8, -16, -26, -17, -10, 8, 31, -26, 114, 224, 604, -80, 0],
    tempo: -156,
    three_to_move: 882,
    threat: Some(&host_threats::RENJU_WHITE),
    codes: None,
    net: None,
};

/// Session 58's fit for renju with black to move: session 36's weights and
/// table ([`TUNED_S36_BLACK`]) refitted to the games' results (`gomoku_tune
/// tune --one-k --eval-k start --start tuned-black --only renju-black
/// --threat --lambda 1 --steps 5000`, best step 3,720) on the black-to-move
/// positions of 8,000 renju self-play games (`LABEL_NODES=20000 gomoku_tune
/// gen renju 1500 5721|5722` and `gen renju 2500 5731|5732`, openings
/// `openings/gomoku-100.txt`; 176,395 positions of both colours): held-out
/// loss against the results 0.1534 → 0.1429. The fit grew the weights' size
/// by half (tempo 356 → 583): every value here is the fit's times 1 / 1.537,
/// the ratio of the two weight vectors' lengths, so that the search's fixed
/// margins (reverse futility's 64 a ply) see session 36's scale. At 200 ms a
/// move the scaled fit gained +45 (+14 … +77) Elo over 400 paired games, the
/// unscaled one −12 (`docs/strength.md`, session 58).
pub const TUNED_S58_BLACK: HostWeights = HostWeights {
    own: [0, 0, 5, -13, 13, 12, -18, 57, 1104, 1463, 45, 400, 400, 0],
    opp: [0, 0, 20, 3, 7, 12, 7, -53, 22, 114, 45, 400, 400, 0],
    own_points: [-16, -13, -19, 3, 24, 31, 97, 120, -38, 131, 2799, -218, 0],
    opp_points: [-14, -19, -13, -7, 18, 16, 38, 118, 159, 247, 389, -37, 0],
    tempo: 379,
    three_to_move: 1396,
    threat: Some(&host_threats::RENJU_BLACK_S58),
    codes: None,
    net: None,
};

/// Session 58's fit for renju with white to move: [`TUNED_S58_BLACK`]'s
/// recipe from [`TUNED_S36_WHITE`] (`--start tuned-white --only
/// renju-white`, best step 2,040): held-out loss 0.1539 → 0.1450; every value
/// the fit's times 1 / 1.359.
pub const TUNED_S58_WHITE: HostWeights = HostWeights {
    own: [0, 0, 21, -23, 19, 12, -7, 33, 677, 414, 45, 400, 400, 0],
    opp: [0, 0, 2, 3, 10, 12, -13, -12, 41, 163, 45, 400, 400, 0],
    own_points: [-16, -8, -21, 11, 26, 45, 81, 227, 15, 127, 2537, 2849, 0],
    opp_points: [-14, -18, -18, -9, 13, 15, 57, 21, 85, 205, 561, -108, 0],
    tempo: -4,
    three_to_move: 766,
    threat: Some(&host_threats::RENJU_WHITE_S58),
    codes: None,
    net: None,
};

/// [`super::lines::STONE_VALUE`] as 16-bit weights.
const fn stone_values() -> [i16; PATTERNS] {
    let mut v = [0i16; PATTERNS];
    let mut i = 0;
    while i < PATTERNS {
        v[i] = super::lines::STONE_VALUE[i] as i16;
        i += 1;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Notation};

    /// The threat mask reads the same threats from either side's view: the
    /// side to move's bits of one view are the opponent's bits of the other,
    /// and an open three shows as its side's straight-four point.
    #[test]
    fn threat_masks_of_both_views_agree() {
        // (own bit, the opponent's bit) pairs.
        const PAIRS: [(usize, usize); 5] = [(1, 2), (3, 7), (4, 8), (5, 9), (6, 10)];
        for text in [
            "free h8 a1 h9 a3 h10",
            "free h8 i9 h9 h10 g10 i8 i7 j9 k9 j8",
            "renju h8 h7 i9 g7 j10 k11 g9 f7 i7 i8 g8",
            "free h8 a1 i8 a3 j8 a5 k8",
        ] {
            let pos = Gomoku::parse_position(text).unwrap();
            let points = point_classes(&pos);
            let (black, white) = (threat_mask(&points, 0), threat_mask(&points, 1));
            for (own, opp) in PAIRS {
                assert_eq!(
                    black >> own & 1,
                    white >> opp & 1,
                    "{text}: bits {own}/{opp}"
                );
                assert_eq!(
                    white >> own & 1,
                    black >> opp & 1,
                    "{text}: bits {own}/{opp}"
                );
            }
        }
        // Black's open three h8-h10: black has straight-four points, white
        // (to move) sees them as the opponent's; nobody has a four yet.
        let pos = Gomoku::parse_position("free h8 a1 h9 a3 h10").unwrap();
        let mask = threat_mask(&point_classes(&pos), pos.player_to_move());
        assert_eq!(mask & 0b111, 0b100, "{mask:#b}");
    }

    /// The score is the dot product of the features and the weights, plus
    /// the threat table's entry (the tuner's model), for every weight set;
    /// with a network, the network's score of the same features.
    #[test]
    fn score_is_the_features_dot_product() {
        // A network that reads the near points' codes too.
        let coded: &'static super::super::host_net::Net =
            std::boxed::Box::leak(std::boxed::Box::new(super::super::host_net::Net {
                codes: Some(super::super::host_net::tests::test_table(
                    point_class::K_BLOCK3,
                )),
                ..super::super::host_net::FREE_NET
            }));
        for text in [
            "free h8a1i8c5j8e1",
            "free h8 i9 h9 h10 g10 i8 i7 j9 k9 j8",
            "free h8 i9 h9 h10 g10 i8 i7 j9 k9 j8 h7",
            "renju h8 h7 i9 g7 j10 k11 g9 f7 i7 i8 g8",
            "renju h8 h7 i9 g7 j10 k11 g9 f7 i7 i8",
            "free h8a1i8a3j8a5k8a7",
            "free h8 a1 h9 a3 h10",
        ] {
            let pos = Gomoku::parse_position(text).unwrap();
            let (eval, hist, points) = from_scratch(&pos);
            for me in 0..2 {
                for w in [
                    HostWeights {
                        net: Some(coded),
                        ..TUNED.free
                    },
                    TUNED.free,
                    TUNED.renju[0],
                    TUNED.renju[1],
                    TUNED_S57,
                    TUNED_S58_BLACK,
                    TUNED_S58_WHITE,
                    TUNED_S26,
                    START,
                ] {
                    if eval.has_four(me) {
                        continue;
                    }
                    let net_codes = w
                        .net
                        .and_then(|n| n.codes)
                        .map(|t| t.sums_of(&pos, me))
                        .unwrap_or_default();
                    if let Some(net) = w.net {
                        let x = super::super::host_net::inputs(&eval, &hist, &points, me);
                        let expected = (net.score(&x, &net_codes) + 7)
                            .clamp(-(MATE_BOUND - 1), MATE_BOUND - 1);
                        assert_eq!(
                            w.score(&eval, &hist, &points, 7, &net_codes, me),
                            expected,
                            "{text}"
                        );
                        continue;
                    }
                    let x = features(&eval, &hist, &points, me);
                    let dot: i32 = x
                        .iter()
                        .zip(w.to_vec().iter())
                        .map(|(&x, &w)| x * i32::from(w))
                        .sum();
                    let mask = threat_mask(&points, me);
                    let threat = w.threat.map_or(0, |t| i32::from(t[mask % THREATS]));
                    let expected = (dot + threat + 7).clamp(-(MATE_BOUND - 1), MATE_BOUND - 1);
                    assert_eq!(
                        w.score(&eval, &hist, &points, 7, &net_codes, me),
                        expected,
                        "{text}"
                    );
                }
            }
        }
    }

    /// With [`START`]'s weights the host's score is today's [`Eval::score`].
    #[test]
    fn start_weights_score_as_the_board() {
        for text in [
            "free h8a1i8c5j8e1",
            "free h8 i9 h9 h10 g10 i8 i7 j9 k9 j8",
            "renju h8 h7 i9 g7 j10 k11 g9 f7 i7 i8 g8",
            "free h8a1i8a3j8a5k8a7",
        ] {
            let pos = Gomoku::parse_position(text).unwrap();
            let (eval, hist, points) = from_scratch(&pos);
            let me = pos.player_to_move();
            assert_eq!(
                START.score(&eval, &hist, &points, 0, &Default::default(), me),
                eval.score(me),
                "{text}"
            );
        }
    }
}
