//! Training a network on examples: AdamW on policy cross-entropy (against
//! the search's visit shares) plus the value and lead losses (squared
//! error per seat) and, for a network with the auxiliary head, the
//! category loss (squared error of each seat's final points by category
//! over [`CATEGORY_SCALE`], summed over the categories), with a held-out
//! split by game. The value target is the game's outcome, or a mix of it
//! and the search's value ([`TrainConfig::search_value`]).
//!
//! Deterministic for a seed: the split, the order of the batches and the
//! initial weights all come from it, and the arithmetic is the same on one
//! thread (candle's matrix products may split work over threads; set
//! `RAYON_NUM_THREADS=1` for bit-identical weights across machines).

use super::compact::Examples;
use super::data::{outcome_array, CATEGORY_TARGETS};
use super::encode::{BOARD_FEATURES, GLOBAL_FEATURES};
use super::error::TrainError;
use super::net::{batch, segment_softmax, Batch, Net, CATEGORIES, CATEGORY_SCALE};
use candle_core::{Device, Tensor};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use engine::MAX_PLAYERS;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// AdamW's learning rate.
    pub lr: f64,
    /// AdamW's weight decay.
    pub weight_decay: f64,
    /// The share of games held out (0 to 1).
    pub held_out: f64,
    /// The seed of the split and of the batches' order.
    pub seed: u64,
    /// Policy-surprise weighting (0: off, the default): each training
    /// position's losses are weighted `(1 − surprise) + surprise ·
    /// KL_i / mean KL`, with `KL_i` the divergence of its policy target
    /// from the network's prior as training starts (the network that
    /// played the games, when training starts from it), the mean over
    /// the training positions: the mean weight is 1. See
    /// [`surprise_weights`].
    pub surprise: f64,
    /// The weight `w` of the search's value in the value target (0: off,
    /// the default): the seat to play's target is `(1 − w)·outcome +
    /// w·search value` and, with two players, the other seat's `(1 −
    /// w)·outcome − w·search value` (the game is zero-sum); the other
    /// seats of larger games keep the outcome. The search's value is
    /// less noisy than one game's outcome, most of all early in the
    /// game. Every example needs one ([`super::data::Targets::search_value`]).
    /// The metrics measure the value against the outcome whatever `w`.
    pub search_value: f64,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            epochs: 10,
            batch: 64,
            lr: 1e-3,
            weight_decay: 1e-4,
            held_out: 0.1,
            seed: 1,
            surprise: 0.0,
            search_value: 0.0,
        }
    }
}

/// Losses and agreement of a network on some positions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Metrics {
    /// Positions measured.
    pub positions: usize,
    /// Mean policy cross-entropy against the visit shares (nats).
    pub policy_loss: f64,
    /// Mean squared error of the values, over the seats of each game.
    pub value_loss: f64,
    /// Mean squared error of the tanh'd leads.
    pub lead_loss: f64,
    /// The auxiliary head's loss: per seat, the squared errors of its
    /// final points by category over [`CATEGORY_SCALE`], summed over
    /// the categories; the mean over seats (`None` without the head).
    pub categories_loss: Option<f64>,
    /// Share of positions (with two or more actions) where the network's
    /// most likely action is the search's most visited.
    pub top1: f64,
    /// Share of positions whose seat to play's value has the sign of its
    /// target (targets of 0 left out: ties, a middle place), by game
    /// phase: turns 0–23, 24–47, 48 on.
    pub value_accuracy: [f64; 3],
}

impl Metrics {
    /// The sum minimised: policy + value + lead + categories.
    pub fn total(&self) -> f64 {
        self.policy_loss + self.value_loss + self.lead_loss + self.categories_loss.unwrap_or(0.0)
    }
}

/// What a training run reports.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrainReport {
    /// Positions trained on.
    pub train_positions: usize,
    /// Games and positions held out.
    pub held_out_games: usize,
    /// Positions held out.
    pub held_out_positions: usize,
    /// Metrics on the training positions after each epoch.
    pub train: Vec<Metrics>,
    /// Metrics on the held-out positions after each epoch (empty without
    /// held-out games).
    pub held_out: Vec<Metrics>,
}

/// Whether game `game` is held out for `config` (a hash of the game
/// number and seed, so the split keeps every position of a game
/// together and does not depend on the order of the data).
pub fn is_held_out(game: u32, config: &TrainConfig) -> bool {
    let mut h = (game as u64) ^ config.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^= h >> 31;
    (h as f64 / u64::MAX as f64) < config.held_out
}

/// The value target of every seat-relative seat from the final totals
/// ([`super::data::outcome_value`]; 0 past the seats). Computed here rather than read
/// from the shards' `outcome`, so data written before a change of that
/// definition trains towards the current one.
fn value_targets(scores: &[f32; MAX_PLAYERS], players: usize) -> [f32; MAX_PLAYERS] {
    let mut totals = [0u32; MAX_PLAYERS];
    for (total, &score) in totals.iter_mut().zip(scores).take(players) {
        *total = score as u32;
    }
    outcome_array(&totals[..players])
}

/// The lead target of every seat-relative seat (0 past the seats): the
/// mean, over the other seats, of `tanh((score − other's score) / 20)` —
/// the tanh'd final lead with two players; with more, the margin to each
/// other seat counts, as the place does in [`super::data::outcome_value`].
fn lead_targets(scores: &[f32; MAX_PLAYERS], players: usize) -> [f32; MAX_PLAYERS] {
    let mut out = [0.0; MAX_PLAYERS];
    if players < 2 {
        return out;
    }
    for k in 0..players {
        let sum: f32 = (0..players)
            .filter(|&j| j != k)
            .map(|j| ((scores[k] - scores[j]) / 20.0).tanh())
            .sum();
        out[k] = sum / (players - 1) as f32;
    }
    out
}

/// The rows of positions `idx` as a batch, with the targets.
struct Rows {
    batch: Batch,
    offsets: Vec<usize>,
    visits: Vec<f32>,
    outcome: Vec<f32>,
    lead: Vec<f32>,
    /// The category targets over [`CATEGORY_SCALE`] (0 for an example
    /// without them: a network that reads them refuses such data first).
    categories: Vec<f32>,
    mask: Vec<f32>,
    /// The mask times each position's weight (the value and lead losses'
    /// terms; the policy's weight is in `visits`).
    weighted: Vec<f32>,
}

/// The value targets of example `t` with the search's value weighing
/// `search_value` (see [`TrainConfig::search_value`]; an example without
/// one keeps the outcome).
fn mixed_value_targets(t: &super::data::Targets, search_value: f32) -> [f32; MAX_PLAYERS] {
    let players = t.players as usize;
    let mut out = value_targets(&t.scores, players);
    if let (Some(q), true) = (t.search_value, search_value > 0.0) {
        let w = search_value;
        out[0] = (1.0 - w) * out[0] + w * q;
        if players == 2 {
            out[1] = (1.0 - w) * out[1] - w * q;
        }
    }
    out
}

/// The rows of positions `idx` of `data`, each weighted by
/// `weights[i]` if given (indexed as `data`), the value targets mixing
/// in the search's values with weight `search_value`.
fn rows(
    data: &dyn Examples,
    idx: &[usize],
    weights: Option<&[f32]>,
    search_value: f32,
) -> candle_core::Result<Rows> {
    let mut board = Vec::with_capacity(idx.len() * BOARD_FEATURES);
    let mut globals = Vec::with_capacity(idx.len() * GLOBAL_FEATURES);
    let mut actions = Vec::new();
    let mut cells = Vec::new();
    let mut owners = Vec::new();
    let mut offsets = vec![0];
    let mut visits = Vec::new();
    let mut outcome = Vec::new();
    let mut lead = Vec::new();
    let mut categories = Vec::with_capacity(idx.len() * CATEGORY_TARGETS);
    let mut mask = Vec::new();
    let mut weighted = Vec::new();
    for (b, &i) in idx.iter().enumerate() {
        let w = weights.map_or(1.0, |w| w[i]);
        data.board_into(i, &mut board);
        globals.extend_from_slice(data.globals(i));
        let (lo, hi) = data.action_range(i);
        data.actions_into(lo, hi, &mut actions);
        cells.extend_from_slice(data.cells(lo, hi));
        owners.extend(std::iter::repeat_n(b as u32, hi - lo));
        visits.extend(data.visits(lo, hi).iter().map(|v| v * w));
        offsets.push(cells.len());
        let t = &data.targets()[i];
        let players = t.players as usize;
        outcome.extend(mixed_value_targets(t, search_value));
        lead.extend(lead_targets(&t.scores, players));
        categories.extend(
            t.categories
                .unwrap_or([0.0; CATEGORY_TARGETS])
                .map(|p| p / CATEGORY_SCALE),
        );
        mask.extend((0..MAX_PLAYERS).map(|k| (k < players) as u8 as f32));
        weighted.extend((0..MAX_PLAYERS).map(|k| (k < players) as u8 as f32 * w));
    }
    Ok(Rows {
        batch: batch(board, &globals, actions, &cells, &owners)?,
        offsets,
        visits,
        outcome,
        lead,
        categories,
        mask,
        weighted,
    })
}

/// The weight of each position of `data` (indexed as `data`) under
/// policy-surprise weighting of strength `surprise` in `[0, 1]`:
/// `(1 − surprise) + surprise · KL_i / mean KL`, where `KL_i =
/// Σ_a t(a) ln(t(a) / p(a))` is the divergence of the position's policy
/// target `t` from `net`'s prior `p`, the mean taken over positions
/// `idx` (the training positions), whose weights then average 1.
/// Positions outside `idx` weigh 1; so do all when `surprise` is 0 or
/// every KL is 0.
///
/// # Errors
/// A candle error.
pub fn surprise_weights(
    net: &Net,
    data: &dyn Examples,
    idx: &[usize],
    surprise: f64,
) -> candle_core::Result<Vec<f32>> {
    let mut weights = vec![1.0f32; data.len()];
    if surprise <= 0.0 || idx.is_empty() {
        return Ok(weights);
    }
    let mut kl = Vec::with_capacity(idx.len());
    for chunk in idx.chunks(256) {
        let r = rows(data, chunk, None, 0.0)?;
        let out = net.forward(&r.batch)?;
        let logits = out.logits.to_vec1::<f32>()?;
        let priors = segment_softmax(&logits, &r.offsets);
        for w in r.offsets.windows(2) {
            let d: f64 = (w[0]..w[1])
                .filter(|&k| r.visits[k] > 0.0)
                .map(|k| {
                    let t = f64::from(r.visits[k]);
                    t * (t / f64::from(priors[k]).max(1e-12)).ln()
                })
                .sum();
            kl.push(d.max(0.0));
        }
    }
    let mean = kl.iter().sum::<f64>() / kl.len() as f64;
    if mean <= 0.0 {
        return Ok(weights);
    }
    for (&i, d) in idx.iter().zip(&kl) {
        weights[i] = ((1.0 - surprise) + surprise * d / mean) as f32;
    }
    Ok(weights)
}

/// A network's losses on some rows (tensors, for the gradient), with
/// its logits and values.
struct Losses {
    policy: Tensor,
    value: Tensor,
    lead: Tensor,
    /// Only for a network with the auxiliary head.
    categories: Option<Tensor>,
    logits: Vec<f32>,
    values: Vec<f32>,
}

impl Losses {
    /// What training minimises: their sum.
    fn sum(&self) -> candle_core::Result<Tensor> {
        let sum = ((&self.policy + &self.value)? + &self.lead)?;
        match &self.categories {
            Some(c) => sum + c,
            None => Ok(sum),
        }
    }
}

/// The losses of `net` on `rows`, as tensors (for the gradient).
fn losses(net: &Net, rows: &Rows) -> candle_core::Result<Losses> {
    let dev = Device::Cpu;
    let out = net.forward(&rows.batch)?;
    let b = rows.batch.positions;
    let logits_now = out.logits.to_vec1::<f32>()?;
    // Each action's position's largest logit, a constant shift that keeps
    // exp() in range (log-softmax does not change with it).
    let mut shift = vec![0.0f32; logits_now.len()];
    for w in rows.offsets.windows(2) {
        let max = logits_now[w[0]..w[1]]
            .iter()
            .copied()
            .fold(f32::MIN, f32::max);
        shift[w[0]..w[1]].fill(max);
    }
    let m = logits_now.len();
    let policy = if m == 0 {
        Tensor::new(0f32, &dev)?
    } else {
        let shifted = (&out.logits - Tensor::from_vec(shift, m, &dev)?)?;
        let sums = Tensor::zeros(b, candle_core::DType::F32, &dev)?.index_add(
            &rows.batch.owner,
            &shifted.exp()?,
            0,
        )?;
        // Positions without actions have a sum of 0: log of 1 instead.
        let sums = sums.maximum(1e-30)?;
        let log_p = (&shifted - sums.log()?.index_select(&rows.batch.owner, 0)?)?;
        let visits = Tensor::from_slice(&rows.visits, m, &dev)?;
        ((log_p * visits)?.sum_all()?.neg()? / b as f64)?
    };
    // The weighted mask: the terms weighted, their count not.
    let mask = Tensor::from_slice(&rows.weighted, (b, MAX_PLAYERS), &dev)?;
    let seats = rows.mask.iter().sum::<f32>().max(1.0) as f64;
    let sq = |pred: &Tensor, target: &[f32]| -> candle_core::Result<Tensor> {
        let t = Tensor::from_slice(target, (b, MAX_PLAYERS), &dev)?;
        ((pred - t)?.sqr()? * &mask)?.sum_all()? / seats
    };
    let value = sq(&out.value, &rows.outcome)?;
    let lead = sq(&out.lead, &rows.lead)?;
    let categories = match &out.categories {
        Some(pred) => {
            // Each seat's mask over its categories.
            let mask = mask
                .unsqueeze(2)?
                .broadcast_as((b, MAX_PLAYERS, CATEGORIES))?
                .reshape((b, CATEGORY_TARGETS))?;
            let t = Tensor::from_slice(&rows.categories, (b, CATEGORY_TARGETS), &dev)?;
            Some((((pred - t)?.sqr()? * mask)?.sum_all()? / seats)?)
        }
        None => None,
    };
    let values = out.value.flatten_all()?.to_vec1::<f32>()?;
    Ok(Losses {
        policy,
        value,
        lead,
        categories,
        logits: logits_now,
        values,
    })
}

/// Measure `net` on positions `idx` of `data`.
///
/// # Errors
/// A candle error.
pub fn measure(net: &Net, data: &dyn Examples, idx: &[usize]) -> candle_core::Result<Metrics> {
    let mut sum = Metrics::default();
    let mut categories_loss = 0.0;
    let (mut agree, mut choices) = (0usize, 0usize);
    let mut right = [0usize; 3];
    let mut counted = [0usize; 3];
    for chunk in idx.chunks(256) {
        let r = rows(data, chunk, None, 0.0)?;
        let losses = losses(net, &r)?;
        let n = chunk.len() as f64;
        let scalar = |t: &Tensor| t.to_scalar::<f32>().map(|x| x as f64);
        sum.policy_loss += scalar(&losses.policy)? * n;
        let seats: f64 = r.mask.iter().map(|&x| x as f64).sum();
        sum.value_loss += scalar(&losses.value)? * seats;
        sum.lead_loss += scalar(&losses.lead)? * seats;
        if let Some(c) = &losses.categories {
            categories_loss += scalar(c)? * seats;
        }
        let (logits, values) = (&losses.logits, &losses.values);
        let priors = segment_softmax(logits, &r.offsets);
        for (b, &i) in chunk.iter().enumerate() {
            let (lo, hi) = (r.offsets[b], r.offsets[b + 1]);
            if hi - lo >= 2 {
                choices += 1;
                let argmax = |xs: &[f32]| {
                    (0..xs.len()).fold(0, |best, k| if xs[k] > xs[best] { k } else { best })
                };
                if argmax(&priors[lo..hi]) == argmax(&r.visits[lo..hi]) {
                    agree += 1;
                }
            }
            let t = &data.targets()[i];
            let phase = ((t.turn / 24) as usize).min(2);
            let target = r.outcome[b * MAX_PLAYERS];
            if target != 0.0 {
                counted[phase] += 1;
                if (values[b * MAX_PLAYERS] > 0.0) == (target > 0.0) {
                    right[phase] += 1;
                }
            }
        }
    }
    let seats: f64 = idx
        .iter()
        .map(|&i| data.targets()[i].players as f64)
        .sum::<f64>()
        .max(1.0);
    let n = idx.len().max(1) as f64;
    Ok(Metrics {
        positions: idx.len(),
        policy_loss: sum.policy_loss / n,
        value_loss: sum.value_loss / seats,
        lead_loss: sum.lead_loss / seats,
        categories_loss: net.config.categories.then_some(categories_loss / seats),
        top1: agree as f64 / choices.max(1) as f64,
        value_accuracy: [0, 1, 2].map(|k| right[k] as f64 / counted[k].max(1) as f64),
    })
}

/// Train `net` on `data` (see the module doc), calling `progress` after
/// each epoch with the epoch's metrics.
///
/// # Errors
/// One line: no training positions, examples without the board for a
/// network that reads it, an example without category targets for a
/// network with the categories head, an example without a search value
/// when training towards them, or a candle error.
pub fn train(
    net: &mut Net,
    data: &dyn Examples,
    config: &TrainConfig,
    mut progress: impl FnMut(usize, &Metrics, Option<&Metrics>),
) -> Result<TrainReport, TrainError> {
    let (held, mut trained): (Vec<usize>, Vec<usize>) =
        (0..data.len()).partition(|&i| is_held_out(data.targets()[i].game, config));
    if trained.is_empty() {
        return Err(TrainError::NoTrainingData);
    }
    if net.config.board && !data.has_board() {
        return Err(TrainError::NoBoard);
    }
    if net.config.categories {
        if let Some(example) = data.targets().iter().position(|t| t.categories.is_none()) {
            return Err(TrainError::NoCategories { example });
        }
    }
    if config.search_value > 0.0 {
        if let Some(example) = data.targets().iter().position(|t| t.search_value.is_none()) {
            return Err(TrainError::NoSearchValue { example });
        }
    }
    let mut held_games: Vec<u32> = held.iter().map(|&i| data.targets()[i].game).collect();
    held_games.dedup();
    held_games.sort_unstable();
    held_games.dedup();
    let params = ParamsAdamW {
        lr: config.lr,
        weight_decay: config.weight_decay,
        ..ParamsAdamW::default()
    };
    let mut opt = AdamW::new(net.vars_mut().to_vec(), params)?;
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(config.seed ^ 0x7261_696e);
    let mut report = TrainReport {
        train_positions: trained.len(),
        held_out_games: held_games.len(),
        held_out_positions: held.len(),
        ..TrainReport::default()
    };
    let surprise = (config.surprise > 0.0)
        .then(|| surprise_weights(net, data, &trained, config.surprise))
        .transpose()?;
    for epoch in 0..config.epochs {
        trained.shuffle(&mut rng);
        for chunk in trained.chunks(config.batch.max(1)) {
            let r = rows(data, chunk, surprise.as_deref(), config.search_value as f32)?;
            let mut step =
                || -> candle_core::Result<()> { opt.backward_step(&losses(net, &r)?.sum()?) };
            step()?;
            // The weights changed in place: drop the inference copy.
            net.vars_mut();
        }
        let mut sorted = trained.clone();
        sorted.sort_unstable();
        let t = measure(net, data, &sorted)?;
        let h = if held.is_empty() {
            None
        } else {
            Some(measure(net, data, &held)?)
        };
        progress(epoch + 1, &t, h.as_ref());
        report.train.push(t);
        report.held_out.extend(h);
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::neural::data::tests::random_examples;
    use crate::neural::net::NetConfig;

    fn weights(net: &Net) -> Vec<Vec<f32>> {
        net.tensors()
            .map(|v| v.flatten_all().unwrap().to_vec1::<f32>().unwrap())
            .collect()
    }

    #[test]
    fn three_player_targets_count_the_place_and_the_margin_to_each_seat() {
        let mut scores = [0.0; MAX_PLAYERS];
        scores[..3].copy_from_slice(&[50.0, 40.0, 10.0]);
        assert_eq!(value_targets(&scores, 3)[..4], [1.0, 0.0, -1.0, 0.0]);
        let t = |d: f32| (d / 20.0).tanh();
        let lead = lead_targets(&scores, 3);
        for (got, want) in lead.iter().zip([
            (t(10.0) + t(40.0)) / 2.0,
            (t(-10.0) + t(30.0)) / 2.0,
            (t(-40.0) + t(-30.0)) / 2.0,
            0.0,
        ]) {
            assert!((got - want).abs() < 1e-6, "{lead:?}");
        }
        // two players: the tanh'd lead itself, the winner 1
        assert_eq!(lead_targets(&scores, 2)[..2], [t(10.0), t(-10.0)]);
        assert_eq!(value_targets(&scores, 2)[..2], [1.0, -1.0]);
    }

    /// `epochs` of training to overfit a tiny data set: a high rate, no
    /// weight decay, nothing held out.
    fn overfit(epochs: usize) -> TrainConfig {
        TrainConfig {
            epochs,
            batch: 16,
            lr: 1e-2,
            weight_decay: 0.0,
            held_out: 0.0,
            seed: 2,
            ..TrainConfig::default()
        }
    }

    /// The seat to play's value target moves towards the search's value
    /// by its weight; with two players the other seat's moves the other
    /// way; larger games' other seats, and examples without a search
    /// value, keep the outcome.
    #[test]
    fn search_values_mix_into_the_value_targets_by_their_weight() {
        let data = random_examples(1, 2, 4, 3);
        let t = data.targets[0];
        let q = t.search_value.unwrap();
        let z = value_targets(&t.scores, 2);
        assert_ne!(q, z[0]);
        assert_eq!(mixed_value_targets(&t, 0.0), z);
        let half = mixed_value_targets(&t, 0.5);
        assert_eq!(half[0], 0.5 * z[0] + 0.5 * q);
        assert_eq!(half[1], 0.5 * z[1] - 0.5 * q);
        assert_eq!(half[2..], z[2..]);
        assert_eq!(mixed_value_targets(&t, 1.0)[..2], [q, -q]);
        let three = random_examples(1, 3, 4, 3).targets[1];
        let z3 = value_targets(&three.scores, 3);
        let mixed = mixed_value_targets(&three, 1.0);
        assert_eq!(mixed[0], three.search_value.unwrap());
        assert_eq!(mixed[1..], z3[1..]);
        let none = super::super::data::Targets {
            search_value: None,
            ..t
        };
        assert_eq!(mixed_value_targets(&none, 1.0), z);
    }

    /// Trained with the search's values weighing 1, the value head fits
    /// them rather than the outcomes; an example without one is refused,
    /// by its number.
    #[test]
    fn training_towards_search_values_fits_them_and_needs_them() {
        let mut data = random_examples(2, 2, 8, 3);
        let all: Vec<usize> = (0..data.len()).collect();
        // The squared error of the seat to play's value from each target.
        let errors = |net: &Net| {
            let r = rows(&data, &all, None, 1.0).unwrap();
            let out = net.forward(&r.batch).unwrap();
            let values = out.value.flatten_all().unwrap().to_vec1::<f32>().unwrap();
            let (mut to_search, mut to_outcome) = (0.0, 0.0);
            for (b, t) in data.targets.iter().enumerate() {
                let v = values[b * MAX_PLAYERS];
                to_search += (v - t.search_value.unwrap()).powi(2);
                to_outcome += (v - value_targets(&t.scores, 2)[0]).powi(2);
            }
            (to_search, to_outcome)
        };
        let fit = |w: f64| {
            let mut net = Net::new(NetConfig::TINY, 1);
            let config = TrainConfig {
                search_value: w,
                ..overfit(150)
            };
            train(&mut net, &data, &config, |_, _, _| {}).unwrap();
            errors(&net)
        };
        let (search, outcome) = fit(1.0);
        assert!(search < outcome / 10.0, "{search} vs {outcome}");
        let (search, outcome) = fit(0.0);
        assert!(outcome < search / 10.0, "{outcome} vs {search}");
        data.targets[6].search_value = None;
        let mut net = Net::new(NetConfig::TINY, 1);
        let config = TrainConfig {
            search_value: 0.5,
            ..overfit(1)
        };
        let e = train(&mut net, &data, &config, |_, _, _| {}).unwrap_err();
        assert!(
            e.to_string().starts_with("example 6 has no search value"),
            "{e}"
        );
        assert!(train(&mut net, &data, &overfit(1), |_, _, _| {}).is_ok());
    }

    #[test]
    fn a_tiny_network_overfits_a_tiny_data_set() {
        let data = random_examples(2, 2, 8, 3);
        let mut net = Net::new(NetConfig::TINY, 1);
        let config = overfit(150);
        let all: Vec<usize> = (0..data.len()).collect();
        let before = measure(&net, &data, &all).unwrap();
        let report = train(&mut net, &data, &config, |_, _, _| {}).unwrap();
        let after = report.train.last().unwrap();
        assert!(before.total() > 1.0, "{before:?}");
        assert!(after.total() < 0.1, "{after:?}");
        assert_eq!(after.top1, 1.0, "{after:?}");
        assert_eq!(after.categories_loss, None);
    }

    /// A network with the auxiliary head learns the category targets
    /// (their loss falls and counts in the total); it refuses examples
    /// without them, naming the first.
    #[test]
    fn the_categories_head_learns_its_targets_and_needs_them() {
        let mut data = random_examples(2, 2, 8, 3);
        let config = NetConfig {
            categories: true,
            ..NetConfig::TINY
        };
        let mut net = Net::new(config, 1);
        let train_config = overfit(100);
        let all: Vec<usize> = (0..data.len()).collect();
        let before = measure(&net, &data, &all).unwrap();
        let report = train(&mut net, &data, &train_config, |_, _, _| {}).unwrap();
        let after = report.train.last().unwrap();
        let (b, a) = (
            before.categories_loss.unwrap(),
            after.categories_loss.unwrap(),
        );
        assert!(a < b / 10.0, "categories loss {b} -> {a}");
        let rest = after.policy_loss + after.value_loss + after.lead_loss;
        assert!((after.total() - rest - a).abs() < 1e-9);
        data.targets[5].categories = None;
        let e = train(&mut net, &data, &train_config, |_, _, _| {}).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("example 5 has no category targets"),
            "{e}"
        );
    }

    #[test]
    fn the_same_seed_gives_the_same_weights() {
        let data = random_examples(3, 2, 5, 4);
        let config = TrainConfig {
            epochs: 2,
            batch: 4,
            held_out: 0.3,
            ..TrainConfig::default()
        };
        let run = |seed| {
            let mut net = Net::new(NetConfig::TINY, seed);
            let report = train(&mut net, &data, &config, |_, _, _| {}).unwrap();
            (weights(&net), report)
        };
        let (a, ra) = run(1);
        let (b, rb) = run(1);
        assert_eq!(a, b);
        assert_eq!(ra, rb);
        assert_ne!(a, run(2).0);
    }

    #[test]
    fn surprise_weights_follow_the_kl_average_1_and_are_off_by_default() {
        let data = random_examples(2, 2, 8, 3);
        let net = Net::new(NetConfig::TINY, 1);
        let all: Vec<usize> = (0..data.len()).collect();
        assert_eq!(TrainConfig::default().surprise, 0.0);
        assert!(surprise_weights(&net, &data, &all, 0.0)
            .unwrap()
            .iter()
            .all(|&w| w == 1.0));
        let w = surprise_weights(&net, &data, &all, 1.0).unwrap();
        let mean = w.iter().map(|&x| f64::from(x)).sum::<f64>() / w.len() as f64;
        assert!((mean - 1.0).abs() < 1e-4, "{mean}");
        assert!(w.iter().any(|&x| (x - 1.0).abs() > 0.05), "{w:?}");
        // The KL by hand: the weight of each position is its KL over the mean.
        let r = rows(&data, &all, None, 0.0).unwrap();
        let logits = net
            .forward(&r.batch)
            .unwrap()
            .logits
            .to_vec1::<f32>()
            .unwrap();
        let p = segment_softmax(&logits, &r.offsets);
        let kl: Vec<f64> = r
            .offsets
            .windows(2)
            .map(|o| {
                (o[0]..o[1])
                    .filter(|&k| r.visits[k] > 0.0)
                    .map(|k| {
                        f64::from(r.visits[k]) * (f64::from(r.visits[k]) / f64::from(p[k])).ln()
                    })
                    .sum()
            })
            .collect();
        let kl_mean = kl.iter().sum::<f64>() / kl.len() as f64;
        for (x, d) in w.iter().zip(&kl) {
            assert!(
                (f64::from(*x) - d / kl_mean).abs() < 1e-3,
                "{x} {d} {kl_mean}"
            );
        }
        // Half strength: halfway between 1 and the full weights.
        let h = surprise_weights(&net, &data, &all, 0.5).unwrap();
        for (x, y) in h.iter().zip(&w) {
            assert!((x - (0.5 + 0.5 * y)).abs() < 1e-5);
        }
        // Only the given positions are weighted; the others weigh 1.
        let some = surprise_weights(&net, &data, &all[..4], 1.0).unwrap();
        assert!(some[4..].iter().all(|&x| x == 1.0));
        // And the training differs with it.
        let config = TrainConfig {
            epochs: 1,
            batch: 8,
            held_out: 0.0,
            ..TrainConfig::default()
        };
        let run = |surprise| {
            let mut net = Net::new(NetConfig::TINY, 1);
            let c = TrainConfig {
                surprise,
                ..config.clone()
            };
            train(&mut net, &data, &c, |_, _, _| {}).unwrap();
            weights(&net)
        };
        assert_ne!(run(0.0), run(1.0));
    }

    #[test]
    fn held_out_games_stay_whole() {
        let config = TrainConfig {
            held_out: 0.5,
            ..TrainConfig::default()
        };
        let held = (0..1000).filter(|&g| is_held_out(g, &config)).count();
        assert!((400..600).contains(&held), "{held}");
        assert!(!(0..1000).any(|g| is_held_out(
            g,
            &TrainConfig {
                held_out: 0.0,
                ..config.clone()
            }
        )));
    }
}
