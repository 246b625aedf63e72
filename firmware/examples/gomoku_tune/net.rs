//! `gomoku_tune net FILES… --only GROUP`: fits a [`Net`] (one hidden layer of
//! rectified units and a linear skip, on the host evaluation's features and
//! the threat mask's bits) to the games' results of one group of positions,
//! by minibatch Adam on the mean squared error of `σ(logit)` against the
//! result, every `--holdout`th game held out (the tuner's split), the epoch
//! with the lowest held-out loss kept. The logit is put in the evaluation's
//! units with the K at which today's linear weights for the group (without
//! their network) best fit the results, so that the search's margins keep
//! their meaning, and printed as a `Net` constant (`--name NAME`) on
//! standard output; the losses of today's linear weights, the fit and the
//! network as the engine computes it go to standard error, with today's
//! network's (if the group has one) on the same positions.
//!
//! Options: `--only free|renju-black|renju-white`, `--epochs N` (30),
//! `--seed S` (1), `--holdout N` (10), `--rate R` (0.001), `--cosine` (the
//! rate falls from R to 0 over the epochs along half a cosine), `--warm`
//! (start from today's network for the group instead of at random; its
//! code rows, with `--codes`, from zero), `--codes`
//! (the network reads the near points' codes too: a row of weights per code
//! and colour, [`CodeTable`], fitted from zero, written as 16-bit integers
//! to `--codes-out PATH` (`codes.bin`) and named in the constant as
//! `include_bytes!("nets/FILE")`), `--code-class K` (0: only the codes of a
//! colour's points of fine class `K` or more are read).
//! A network with codes is kept as its constant and its file, which the
//! constant reads at compile time (`host_net::code_rows`); no network the
//! engine selects reads codes today (session 61: a gain at equal nodes,
//! none at equal time; `docs/strength.md`).

use sente_firmware::games::gomoku::Rule;
use sente_firmware::games::gomoku::host_eval;
use sente_firmware::games::gomoku::host_net::{
    self, CODE_ROW, CODE_ROWS, CODE_TABLE_BYTES, CodeSums, CodeTable, HIDDEN, INPUTS, Net,
};

use super::{CODES, Data, GROUPS, evals, fit_k, load, mix, mse, parameters, sigmoid};

/// A seeded stream of numbers (SplitMix64 on a counter).
struct Stream(u64);

impl Stream {
    /// A uniform number in [0, 1).
    fn uniform(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(1);
        (mix(self.0) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A standard normal number (Box–Muller).
    fn normal(&mut self) -> f64 {
        let u = self.uniform().max(1e-300);
        let v = self.uniform();
        (-2.0 * u.ln()).sqrt() * (2.0 * core::f64::consts::PI * v).cos()
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        ((self.uniform() * n as f64) as usize).min(n - 1)
    }
}

/// The float network being fitted (standardised inputs).
#[derive(Clone)]
struct Model {
    /// `[hidden][input]`.
    w1: Vec<f64>,
    b1: Vec<f64>,
    w2: Vec<f64>,
    skip: Vec<f64>,
    bias: f64,
    /// `[code][hidden]`: each near point code's weight in each hidden unit.
    emb: Vec<f64>,
    /// Each code's weight in the score.
    cskip: Vec<f64>,
}

impl Model {
    fn zeros(codes: bool) -> Self {
        let n = if codes { 2 * CODES } else { 0 };
        Model {
            emb: vec![0.0; n * HIDDEN],
            cskip: vec![0.0; n],
            w1: vec![0.0; HIDDEN * INPUTS],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; HIDDEN],
            skip: vec![0.0; INPUTS],
            bias: 0.0,
        }
    }

    /// The parameters as one list of slices (the optimiser's view).
    fn parts(&mut self) -> [&mut [f64]; 7] {
        [
            &mut self.emb,
            &mut self.cskip,
            &mut self.w1,
            &mut self.b1,
            &mut self.w2,
            &mut self.skip,
            core::slice::from_mut(&mut self.bias),
        ]
    }

    /// The logit and the hidden sums of inputs `x`.
    fn forward(&self, x: &[f64], codes: &[(u32, f64)], a: &mut [f64; HIDDEN]) -> f64 {
        let mut z = self.bias + dot(&self.skip, x);
        for (j, a) in a.iter_mut().enumerate() {
            *a = self.b1[j] + dot(&self.w1[j * INPUTS..(j + 1) * INPUTS], x);
        }
        if !self.cskip.is_empty() {
            for &(c, n) in codes {
                let (c, n) = (c as usize, n.abs());
                z += self.cskip[c] * n;
                for (j, a) in a.iter_mut().enumerate() {
                    *a += self.emb[c * HIDDEN + j] * n;
                }
            }
        }
        for (j, a) in a.iter_mut().enumerate() {
            if *a > 0.0 {
                z += *a * self.w2[j];
            }
        }
        z
    }
}

/// The float model of `net` on inputs standardised by `mu` and `sd`, its
/// logit `k` times the engine's score (the export in [`fit`] undone); its
/// code rows, if `codes`, zero.
fn warm_model(net: &Net, codes: bool, k: f64, mu: &[f64; INPUTS], sd: &[f64; INPUTS]) -> Model {
    let mut m = Model::zeros(codes);
    m.bias = f64::from(net.bias) * k;
    for c in 0..INPUTS {
        m.skip[c] = f64::from(net.skip[c]) * k * sd[c];
        m.bias += f64::from(net.skip[c]) * k * mu[c];
    }
    for j in 0..HIDDEN {
        let mut b = f64::from(net.hidden_bias[j]);
        for c in 0..INPUTS {
            let w = f64::from(net.hidden[c][j]);
            m.w1[j * INPUTS + c] = w * sd[c];
            b += w * mu[c];
        }
        m.b1[j] = b;
        m.w2[j] = f64::from(net.out[j]) * k;
    }
    m
}

fn dot(w: &[f64], x: &[f64]) -> f64 {
    w.iter().zip(x).map(|(w, x)| w * x).sum()
}

/// Each position's inputs as the engine reads them.
fn raw_inputs(d: &Data, i: usize) -> [i32; INPUTS] {
    host_net::inputs_of(&d.x[i].map(|x| x as i32), d.mask[i])
}

/// Mean squared error of `σ(z)` against the results.
fn loss(z: impl Iterator<Item = (f64, f64)>) -> f64 {
    let (mut s, mut n) = (0.0, 0usize);
    for (z, y) in z {
        s += (sigmoid(z) - y).powi(2);
        n += 1;
    }
    s / n.max(1) as f64
}

/// `net`: the fit (see the module documentation).
pub fn fit(args: &[String]) {
    let (mut files, mut only, mut name) = (Vec::new(), String::from("free"), String::from("NET"));
    let (mut epochs, mut seed, mut holdout, mut rate) = (30usize, 1u64, 10u64, 1e-3f64);
    let mut cosine = false;
    let mut warm = false;
    let mut with_codes = false;
    let mut codes_out = String::from("codes.bin");
    let mut code_class = 0u8;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().expect("a value").clone();
        match a.as_str() {
            "--only" => only = value(),
            "--name" => name = value(),
            "--epochs" => epochs = value().parse().expect("N"),
            "--seed" => seed = value().parse().expect("S"),
            "--holdout" => holdout = value().parse().expect("N"),
            "--rate" => rate = value().parse().expect("R"),
            "--cosine" => cosine = true,
            "--warm" => warm = true,
            "--codes" => with_codes = true,
            "--codes-out" => codes_out = value(),
            "--code-class" => code_class = value().parse().expect("K"),
            _ => files.push(a.clone()),
        }
    }
    let group = GROUPS
        .iter()
        .position(|g| *g == only)
        .expect("--only free|renju-black|renju-white");
    let start = match group {
        0 => *host_eval::TUNED.weights(Rule::Free, 0),
        g => *host_eval::TUNED.weights(Rule::Renju, (g - 1) as u8),
    };
    let d = load(
        &files,
        if with_codes {
            usize::from(code_class)
        } else {
            usize::MAX
        },
    );
    let (train, held): (Vec<usize>, Vec<usize>) = (0..d.x.len())
        .filter(|&i| d.group[i] == group)
        .partition(|&i| !mix(d.game[i]).is_multiple_of(holdout));
    // Today's linear evaluation and its K.
    let w0 = parameters(&start);
    let today = |idx: &[usize]| evals(&d, idx, &w0);
    let results = |idx: &[usize]| idx.iter().map(|&i| d.result[i]).collect::<Vec<_>>();
    let k = fit_k(&today(&train), &results(&train));
    let today_loss = |idx: &[usize]| mse(&today(idx), &results(idx), k);
    eprintln!(
        "{only}: {} train, {} held out, K = {k:.7}; today's linear weights: train {:.5}, held out {:.5}",
        train.len(),
        held.len(),
        today_loss(&train),
        today_loss(&held)
    );
    // Standardised inputs.
    let raw: Vec<[i32; INPUTS]> = (0..d.x.len()).map(|i| raw_inputs(&d, i)).collect();
    let (mut mu, mut sd) = ([0.0; INPUTS], [0.0; INPUTS]);
    for &i in &train {
        for (m, &x) in mu.iter_mut().zip(&raw[i]) {
            *m += f64::from(x) / train.len() as f64;
        }
    }
    for &i in &train {
        for ((s, &x), m) in sd.iter_mut().zip(&raw[i]).zip(&mu) {
            *s += (f64::from(x) - m).powi(2) / train.len() as f64;
        }
    }
    // A constant input (the tempo's) is only centred: it is 0 after it.
    for s in &mut sd {
        *s = if *s > 1e-12 { s.sqrt() } else { 1.0 };
    }
    let net_loss = |net: &Net, idx: &[usize]| {
        loss(idx.iter().map(|&i| {
            let mut sums = CodeSums::default();
            if let Some(table) = &net.codes {
                for &(c, n) in &d.codes[i] {
                    table.add(c as usize, n.abs() as i32, &mut sums);
                }
            }
            (k * f64::from(net.score(&raw[i], &sums)), d.result[i])
        }))
    };
    // The positions' codes are read for this fit's class: today's network
    // is compared only if it reads the same ones.
    let same_codes = |net: &Net| {
        net.codes
            .is_none_or(|t| with_codes && t.min_class == code_class)
    };
    if let Some(net) = start.net.filter(|n| !same_codes(n)) {
        eprintln!(
            "today's network reads the codes of class {} or more: compare with --codes --code-class {0}",
            net.codes.map_or(0, |t| t.min_class)
        );
    }
    if let Some(net) = start.net.filter(|n| same_codes(n)) {
        eprintln!(
            "today's network: train {:.5}, held out {:.5}",
            net_loss(net, &train),
            net_loss(net, &held)
        );
    }
    let std_of = |i: usize| -> [f64; INPUTS] {
        core::array::from_fn(|c| (f64::from(raw[i][c]) - mu[c]) / sd[c])
    };
    let xs: Vec<[f64; INPUTS]> = (0..d.x.len()).map(std_of).collect();
    let model_loss = |m: &Model, idx: &[usize]| {
        let mut a = [0.0; HIDDEN];
        loss(
            idx.iter()
                .map(|&i| (m.forward(&xs[i], &d.codes[i], &mut a), d.result[i])),
        )
    };
    // He initialisation of the hidden layer, small output weights.
    let mut rng = Stream(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut m = Model::zeros(with_codes);
    for w in &mut m.w1 {
        *w = rng.normal() * (2.0 / INPUTS as f64).sqrt();
    }
    for w in &mut m.w2 {
        *w = rng.normal() * (1.0 / HIDDEN as f64).sqrt() * 0.1;
    }
    if warm {
        let net = start
            .net
            .expect("--warm needs today's network for the group");
        m = warm_model(net, with_codes, k, &mu, &sd);
        eprintln!(
            "warm start from today's network: held out {:.5}",
            model_loss(&m, &held)
        );
    }
    let (mut mom, mut vel) = (Model::zeros(with_codes), Model::zeros(with_codes));
    let (b1, b2, l2, batch) = (0.9f64, 0.999f64, 1e-5f64, 512usize);
    let mut order = train.clone();
    let mut best = (model_loss(&m, &held), m.clone(), 0);
    let mut t = 0i32;
    for epoch in 1..=epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let steps = order.len().div_ceil(batch);
        for (step, chunk) in order.chunks(batch).enumerate() {
            let progress = ((epoch - 1) * steps + step) as f64 / (epochs * steps) as f64;
            let rate = if cosine {
                rate * 0.5 * (1.0 + (core::f64::consts::PI * progress).cos())
            } else {
                rate
            };
            let mut g = Model::zeros(with_codes);
            let mut a = [0.0; HIDDEN];
            for &i in chunk {
                let x = &xs[i];
                let codes = &d.codes[i];
                let p = sigmoid(m.forward(x, codes, &mut a));
                let dz = 2.0 * (p - d.result[i]) * p * (1.0 - p) / chunk.len() as f64;
                g.bias += dz;
                if with_codes {
                    for &(c, n) in codes {
                        g.cskip[c as usize] += dz * n.abs();
                    }
                }
                for (gs, x) in g.skip.iter_mut().zip(x) {
                    *gs += dz * x;
                }
                for (j, &aj) in a.iter().enumerate() {
                    if aj <= 0.0 {
                        continue;
                    }
                    g.w2[j] += dz * aj;
                    let dh = dz * m.w2[j];
                    g.b1[j] += dh;
                    for (gw, x) in g.w1[j * INPUTS..(j + 1) * INPUTS].iter_mut().zip(x) {
                        *gw += dh * x;
                    }
                    if with_codes {
                        for &(c, n) in codes {
                            g.emb[c as usize * HIDDEN + j] += dh * n.abs();
                        }
                    }
                }
            }
            t += 1;
            let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
            let (mut mp, mut vp, mut gp) = (mom.parts(), vel.parts(), g.parts());
            for (((w, g), mo), ve) in m
                .parts()
                .iter_mut()
                .zip(gp.iter_mut())
                .zip(mp.iter_mut())
                .zip(vp.iter_mut())
            {
                for (((w, g), mo), ve) in w
                    .iter_mut()
                    .zip(g.iter())
                    .zip(mo.iter_mut())
                    .zip(ve.iter_mut())
                {
                    let g = g + l2 * *w;
                    *mo = b1 * *mo + (1.0 - b1) * g;
                    *ve = b2 * *ve + (1.0 - b2) * g * g;
                    *w -= rate * (*mo / c1) / ((*ve / c2).sqrt() + 1e-8);
                }
            }
        }
        let lh = model_loss(&m, &held);
        eprintln!("epoch {epoch}: held out {lh:.5}");
        if lh < best.0 {
            best = (lh, m.clone(), epoch);
        }
    }
    let (lh, m, epoch) = best;
    // The standardisation folded in, the score in the evaluation's units.
    let mut net = Net {
        hidden: [[0.0; HIDDEN]; INPUTS],
        hidden_bias: [0.0; HIDDEN],
        out: [0.0; HIDDEN],
        skip: [0.0; INPUTS],
        bias: 0.0,
        codes: None,
    };
    if with_codes {
        let (table, bytes) = code_table(&m, k, code_class);
        std::fs::write(&codes_out, bytes).expect("a writable --codes-out");
        net.codes = Some(table);
    }
    let mut bias = m.bias;
    for c in 0..INPUTS {
        net.skip[c] = (m.skip[c] / sd[c] / k) as f32;
        bias -= m.skip[c] * mu[c] / sd[c];
    }
    net.bias = (bias / k) as f32;
    for j in 0..HIDDEN {
        let mut b = m.b1[j];
        for c in 0..INPUTS {
            let w = m.w1[j * INPUTS + c] / sd[c];
            net.hidden[c][j] = w as f32;
            b -= w * mu[c];
        }
        net.hidden_bias[j] = b as f32;
        net.out[j] = (m.w2[j] / k) as f32;
    }
    let engine_loss = net_loss(&net, &held);
    eprintln!(
        "best epoch {epoch}: held out {lh:.5} (today's linear weights {:.5}), the network as the engine computes it {engine_loss:.5}",
        today_loss(&held)
    );
    let list = |v: &[f32]| {
        v.iter()
            .map(|n| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!(
        "/// `gomoku_tune net {} --only {only} --epochs {epochs} --seed {seed}` (best epoch \
         {epoch}): held-out loss against the results {:.5} (today's linear weights {:.5}), K = {k:.7}.",
        files
            .iter()
            .map(|f| f.rsplit('/').next().unwrap_or(f))
            .collect::<Vec<_>>()
            .join(" "),
        engine_loss,
        today_loss(&held)
    );
    println!("pub static {name}: Net = Net {{\n    hidden: [");
    for row in &net.hidden {
        println!("        [{}],", list(row));
    }
    let codes = net.codes.map_or(String::from("None"), |t| {
        format!(
            "Some(CodeTable {{\n        rows: &code_rows(include_bytes!(\"nets/{}\")),\n        hidden_scale: {:?},\n        skip_scale: {:?},\n        min_class: {},\n    }})",
            codes_out.rsplit('/').next().unwrap_or(&codes_out),
            t.hidden_scale,
            t.skip_scale,
            t.min_class
        )
    });
    println!(
        "    ],\n    hidden_bias: [{}],\n    out: [{}],\n    skip: [{}],\n    bias: {:?},\n    codes: {codes},\n}};",
        list(&net.hidden_bias),
        list(&net.out),
        list(&net.skip),
        net.bias
    );
}

/// The fitted code weights as a [`CodeTable`] and its file: hidden weights (logit
/// units) and score weights (over `k`, the evaluation's units) each scaled
/// so that the largest is ±32,767, rounded to the nearest step.
fn code_table(m: &Model, k: f64, min_class: u8) -> (CodeTable, Vec<u8>) {
    let largest = |v: &mut dyn Iterator<Item = f64>| v.fold(1e-12f64, |a, x| a.max(x.abs()));
    let hidden_scale = largest(&mut m.emb.iter().copied()) / 32_767.0;
    let skip_scale = largest(&mut m.cskip.iter().map(|w| w / k)) / 32_767.0;
    let mut bytes = Vec::with_capacity(CODE_ROWS * CODE_ROW * 2);
    for c in 0..CODE_ROWS {
        let row = m.emb[c * HIDDEN..(c + 1) * HIDDEN]
            .iter()
            .map(|w| w / hidden_scale)
            .chain(core::iter::once(m.cskip[c] / k / skip_scale));
        for v in row {
            bytes.extend_from_slice(&(v.round() as i16).to_le_bytes());
        }
    }
    let file: &[u8; CODE_TABLE_BYTES] = bytes.as_slice().try_into().expect("a whole table");
    let table = CodeTable {
        rows: Box::leak(Box::new(host_net::code_rows(file))),
        hidden_scale: hidden_scale as f32,
        skip_scale: skip_scale as f32,
        min_class,
    };
    (table, bytes)
}
