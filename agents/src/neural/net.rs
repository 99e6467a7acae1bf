//! The network: a trunk over the position, a value head per seat and a
//! policy head that scores each legal action from its features, on
//! candle (CPU).
//!
//! ```text
//! x    = [board window (WINDOW² × CELL_CHANNELS), globals]   (globals only
//!        when the network does not read the board: `NetConfig::board`)
//! h    = relu(W2 · relu(W1 · x))                          trunk, `hidden` wide
//! v    = tanh(Wv · h)            (6)                      value per seat-relative seat
//! lead = tanh(Wl · h)            (6)                      mean of tanh(margin/20) to each other seat
//! c    = Wc · h                  (`context`)              position context for the policy
//! m    = Wm · h                  (WINDOW² × `cell`)       an embedding of every window cell
//! k    = Wk · h                  (6 × CATEGORIES)         auxiliary: final points by category per seat
//!                                                         (only with `NetConfig::categories`)
//! per action a:  logit(a) = w2 · relu(P1 · [c, m[cell(a)], features(a)])
//! ```
//!
//! The policy is a softmax of the logits over the position's legal actions
//! only: an action that is not asked about gets no probability. Weights
//! are initialised from a seed ([`Net::new`]): uniform in ±1/√fan_in, as
//! PyTorch's `nn.Linear`, drawn by `rand_pcg` so the same seed gives the
//! same network on every machine.

use super::encode::{ACTION_FEATURES, BASE_GLOBALS, BOARD_FEATURES, CELLS, GLOBAL_FEATURES};
use candle_core::{DType, Device, Tensor, Var};
use candle_nn::{Linear, Module};
use engine::MAX_PLAYERS;
use rand::{Rng, SeedableRng};
use std::sync::OnceLock;

/// The sizes of a network (kept in its weights file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetConfig {
    /// Width of the trunk's two layers.
    pub hidden: usize,
    /// Width of the position context the policy sees.
    pub context: usize,
    /// Width of each window cell's embedding.
    pub cell: usize,
    /// Width of the policy's hidden layer.
    pub policy_hidden: usize,
    /// Whether the trunk reads the board window. Without it the trunk
    /// sees the globals only (the position features among them): a
    /// network that is cheaper to evaluate and, trained on few games,
    /// cannot learn a game's board by heart.
    pub board: bool,
    /// Whether the trunk reads the 40 hand-made position features (the
    /// last globals, `encode::BASE_GLOBALS..GLOBAL_FEATURES`). Without
    /// them the network learns from the raw inputs only: the board
    /// window, the scores, supplies, bag counts and the rest of the
    /// globals.
    pub features: bool,
    /// Whether the network has the auxiliary head `categories`: each
    /// seat's final points by category ([`CATEGORIES`]), trained beside
    /// the value (KataGo's score targets) to give the trunk more to
    /// learn from a game than its outcome. Play never reads it.
    pub categories: bool,
}

/// The scoring categories of the auxiliary head, in the order of its
/// outputs per seat: roads, cities, monasteries, farms, unopened gifts
/// (engine `Score`'s parts).
pub const CATEGORIES: usize = 5;

/// The auxiliary head's targets are points divided by this.
pub const CATEGORY_SCALE: f32 = 50.0;

impl Default for NetConfig {
    /// The default size: a 256-wide trunk.
    fn default() -> NetConfig {
        NetConfig {
            hidden: 256,
            context: 32,
            cell: 8,
            policy_hidden: 64,
            board: true,
            features: true,
            categories: false,
        }
    }
}

impl NetConfig {
    /// A tiny network for tests.
    pub const TINY: NetConfig = NetConfig {
        hidden: 16,
        context: 8,
        cell: 4,
        policy_hidden: 16,
        board: true,
        features: true,
        categories: false,
    };

    /// Inputs of the trunk's first layer: the board window (unless
    /// [`NetConfig::board`] is off) and the globals it reads
    /// ([`NetConfig::globals`]).
    pub fn inputs(&self) -> usize {
        if self.board {
            BOARD_FEATURES + self.globals()
        } else {
            self.globals()
        }
    }

    /// The globals the trunk reads: all of them, or without the position
    /// features ([`NetConfig::features`]) the first
    /// [`BASE_GLOBALS`] only.
    pub fn globals(&self) -> usize {
        if self.features {
            GLOBAL_FEATURES
        } else {
            BASE_GLOBALS
        }
    }

    /// The layers: name, inputs, outputs. The auxiliary `categories`
    /// layer, when there is one, comes last.
    pub fn layers(&self) -> Vec<(&'static str, usize, usize)> {
        let mut layers = vec![
            ("trunk1", self.inputs(), self.hidden),
            ("trunk2", self.hidden, self.hidden),
            ("value", self.hidden, MAX_PLAYERS),
            ("lead", self.hidden, MAX_PLAYERS),
            ("context", self.hidden, self.context),
            ("cells", self.hidden, CELLS * self.cell),
            (
                "policy1",
                self.context + self.cell + ACTION_FEATURES,
                self.policy_hidden,
            ),
            ("policy2", self.policy_hidden, 1),
        ];
        if self.categories {
            layers.push(("categories", self.hidden, MAX_PLAYERS * CATEGORIES));
        }
        layers
    }
}

/// A network's parameters.
///
/// The weights change only through [`Net::vars_mut`] (training holds
/// `&mut Net`): the copy of the weights the inference forward pass keeps
/// ([`super::fast::Packed`], made on its first use) is dropped there, so
/// a network trained in the same process is never evaluated with stale
/// weights. (candle's `Var::set` writes in place through a shared
/// handle: a clone of a parameter kept past that borrow and written later
/// would bypass this; nothing in this crate keeps one.)
pub struct Net {
    /// Its sizes.
    pub config: NetConfig,
    /// Parameters in the order of [`NetConfig::layers`]: weight
    /// (`[out, in]`) then bias (`[out]`) of each layer.
    vars: Vec<Var>,
    /// The weights laid out for [`super::fast::forward`], made on first
    /// use from `vars` and dropped whenever they may change.
    pub(super) packed: OnceLock<super::fast::Packed>,
}

/// A batch of inputs as tensors.
pub struct Batch {
    /// `[B, BOARD_FEATURES + GLOBAL_FEATURES]`.
    pub x: Tensor,
    /// `[M, ACTION_FEATURES]`.
    pub actions: Tensor,
    /// `[M]`: the position of each action.
    pub owner: Tensor,
    /// `[M]`: `position × CELLS + cell` of each action.
    pub cell: Tensor,
    /// Positions.
    pub positions: usize,
}

/// What the network says of a batch.
pub struct Output {
    /// `[B, 6]` values per seat-relative seat.
    pub value: Tensor,
    /// `[B, 6]` tanh'd final score leads per seat-relative seat.
    pub lead: Tensor,
    /// `[M]` one logit per action.
    pub logits: Tensor,
    /// `[B, 6 × CATEGORIES]`: each seat-relative seat's final points by
    /// category over [`CATEGORY_SCALE`], when the network has the head.
    pub categories: Option<Tensor>,
}

/// A candle error as one line (its first: candle adds a backtrace).
pub fn one_line(e: &candle_core::Error) -> String {
    e.to_string()
        .lines()
        .next()
        .unwrap_or("candle error")
        .to_string()
}

impl Net {
    /// A network of `config` with weights drawn from `seed`.
    pub fn new(config: NetConfig, seed: u64) -> Net {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let mut vars = Vec::new();
        for (_, inputs, outputs) in config.layers() {
            let bound = 1.0 / (inputs as f32).sqrt();
            let w: Vec<f32> = (0..inputs * outputs)
                .map(|_| rng.gen_range(-bound..bound))
                .collect();
            let b: Vec<f32> = (0..outputs).map(|_| rng.gen_range(-bound..bound)).collect();
            vars.push(Var::from_vec(w, (outputs, inputs), &Device::Cpu).expect("cpu tensor"));
            vars.push(Var::from_vec(b, outputs, &Device::Cpu).expect("cpu tensor"));
        }
        Net::from_vars(config, vars)
    }

    /// A network of `config` with parameters `vars`, in the order of
    /// [`Net::names`] (weight `[out, in]`, then bias `[out]`, of each
    /// layer). Their shapes are checked by the forward passes.
    pub fn from_vars(config: NetConfig, vars: Vec<Var>) -> Net {
        Net {
            config,
            vars,
            packed: OnceLock::new(),
        }
    }

    /// The parameters, to read (in the order of [`Net::names`]).
    pub fn tensors(&self) -> impl ExactSizeIterator<Item = &Tensor> + '_ {
        self.vars.iter().map(Var::as_tensor)
    }

    /// The parameters, to change (training): the inference copy of the
    /// weights is dropped, to be made again from the new weights on the
    /// next [`super::fast::forward`]. Call it again after every change
    /// made through handles kept from an earlier call.
    pub fn vars_mut(&mut self) -> &[Var] {
        self.packed.take();
        &self.vars
    }

    /// The parameters' names, in the order of [`Net::tensors`].
    pub fn names(config: &NetConfig) -> Vec<String> {
        config
            .layers()
            .iter()
            .flat_map(|(name, _, _)| [format!("{name}.weight"), format!("{name}.bias")])
            .collect()
    }

    fn linear(&self, layer: usize) -> Linear {
        Linear::new(
            self.vars[2 * layer].as_tensor().clone(),
            Some(self.vars[2 * layer + 1].as_tensor().clone()),
        )
    }

    /// The network's output on `batch`.
    ///
    /// # Errors
    /// A candle error: shapes that do not fit.
    pub fn forward(&self, batch: &Batch) -> candle_core::Result<Output> {
        // The board, then the globals with the position features last:
        // what the trunk reads is one run of columns.
        let first = if self.config.board { 0 } else { BOARD_FEATURES };
        let x = batch.x.narrow(1, first, self.config.inputs())?;
        let h = self.linear(0).forward(&x)?.relu()?;
        let h = self.linear(1).forward(&h)?.relu()?;
        let value = self.linear(2).forward(&h)?.tanh()?;
        let lead = self.linear(3).forward(&h)?.tanh()?;
        let categories = if self.config.categories {
            Some(self.linear(8).forward(&h)?)
        } else {
            None
        };
        let logits = if batch.actions.dim(0)? == 0 {
            Tensor::zeros(0, DType::F32, &Device::Cpu)?
        } else {
            let context = self.linear(4).forward(&h)?;
            let cells = self
                .linear(5)
                .forward(&h)?
                .reshape((batch.positions * CELLS, self.config.cell))?;
            let x = Tensor::cat(
                &[
                    &context.index_select(&batch.owner, 0)?,
                    &cells.index_select(&batch.cell, 0)?,
                    &batch.actions,
                ],
                1,
            )?;
            let x = self.linear(6).forward(&x)?.relu()?;
            self.linear(7).forward(&x)?.squeeze(1)?
        };
        Ok(Output {
            value,
            lead,
            logits,
            categories,
        })
    }
}

/// Build a [`Batch`] from rows: per position its board and globals, per
/// action its features, cell and position.
///
/// # Errors
/// A candle error: rows of the wrong sizes.
pub fn batch(
    board: Vec<f32>,
    globals: &[f32],
    actions: Vec<f32>,
    cells: &[u32],
    owners: &[u32],
) -> candle_core::Result<Batch> {
    let positions = globals.len() / GLOBAL_FEATURES;
    let m = cells.len();
    let dev = Device::Cpu;
    let b = Tensor::from_vec(board, (positions, BOARD_FEATURES), &dev)?;
    let g = Tensor::from_slice(globals, (positions, GLOBAL_FEATURES), &dev)?;
    let cell: Vec<u32> = cells
        .iter()
        .zip(owners)
        .map(|(&c, &o)| o * CELLS as u32 + c)
        .collect();
    Ok(Batch {
        x: Tensor::cat(&[&b, &g], 1)?,
        actions: Tensor::from_vec(actions, (m, ACTION_FEATURES), &dev)?,
        owner: Tensor::from_slice(owners, m, &dev)?,
        cell: Tensor::from_vec(cell, m, &dev)?,
        positions,
    })
}

/// Softmax of `logits` within each position's actions
/// (`offsets[i]..offsets[i + 1]`).
pub fn segment_softmax(logits: &[f32], offsets: &[usize]) -> Vec<f32> {
    let mut out = vec![0.0; logits.len()];
    for w in offsets.windows(2) {
        let (lo, hi) = (w[0], w[1]);
        if lo == hi {
            continue;
        }
        let max = logits[lo..hi].iter().copied().fold(f32::MIN, f32::max);
        let mut sum = 0.0;
        for k in lo..hi {
            out[k] = (logits[k] - max).exp();
            sum += out[k];
        }
        for o in &mut out[lo..hi] {
            *o /= sum;
        }
    }
    out
}
