//! The network's forward pass for inference, in plain Rust, on a copy
//! of the weights laid out for it ([`Packed`]: every layer transposed,
//! input-major), kept in the [`Net`] and dropped whenever its weights may
//! change ([`Net::vars_mut`]), so a network trained in the same process
//! is never evaluated with stale weights.
//!
//! Why not candle's forward: profiled in an `az:net=` search (perf,
//! experiments/az-bootstrap), 84% of the time went to candle's matrix
//! products, and of that most was per-call overhead, not arithmetic:
//! `gemm` repacks the whole first-layer weight matrix (7,353 × hidden)
//! on every call (48% of the search), and candle asks for the core count
//! on every product (`num_cpus` reads /proc/cpuinfo: 13%). Here:
//!
//! - every layer is a sum over its **non-zero inputs** of contiguous
//!   rows of its transposed weights (`out += x_j · Wᵀ[j]`, vectorised
//!   over the outputs): the board window is mostly zeros (empty cells)
//!   and half a ReLU layer is, so most of the first layer's 7,353 rows
//!   are never read;
//! - the cell embeddings are computed **only for the cells the actions
//!   name** (a handful of the 225), not for the whole window;
//! - the policy's first layer is split by its input: the position's
//!   context part once per position, the cell part once per distinct
//!   cell, the bias plus the rows of an action's one-hot columns (kind,
//!   gift, meeple, rotation, slot, tile) once per distinct set of them in
//!   the position (a handful: rotations × meeples), and per action only
//!   its other non-zero features (offsets and gains, about five), summed
//!   with its ReLU and the logit's dot product in one pass held in
//!   registers (`policy_logit`);
//! - every dense layer sums over the list of its non-zero inputs, the
//!   second layer's listed once for all the heads and cells;
//! - buffers are reused between calls ([`Scratch`]).
//!
//! The trunk and the heads are summed **in the order of the plain
//! product** (input by input, from the first), so the values are those
//! of the straightforward dense evaluation exactly (a zero input adds a
//! zero, which changes no value). The logits add the policy layer's
//! parts in another order (the bias and the one-hot rows first), so they
//! equal the plain product's within 1e-5, not bit for bit (tests on every
//! decision of whole games with the shipped network and on random
//! inputs); the same inputs always give the same numbers, whatever the
//! batch, so a search reproduces for a seed.

use super::encode::{
    ActionInput, PositionInput, ACTION_FEATURES, BOARD_FEATURES, CELLS, CELL_CHANNELS,
    GLOBAL_FEATURES, ONE_HOT_FEATURES,
};
use super::error::InputError;
use super::evaluator::NetError;
use super::net::Net;
use candle_core::{Storage, Tensor};
use engine::MAX_PLAYERS;

/// A tensor's numbers, borrowed from candle's storage.
struct Weights<'a> {
    guards: Vec<std::sync::RwLockReadGuard<'a, Storage>>,
}

impl<'a> Weights<'a> {
    /// Lock every parameter of `net` for reading.
    fn of(net: &'a Net) -> Result<Weights<'a>, InputError> {
        let mut guards = Vec::with_capacity(net.tensors().len());
        for t in net.tensors() {
            let (guard, layout) = t.storage_and_layout();
            if !layout.is_contiguous() || layout.start_offset() != 0 {
                return Err(InputError(
                    "a parameter is not a contiguous tensor".to_string(),
                ));
            }
            guards.push(guard);
        }
        Ok(Weights { guards })
    }

    /// Parameter `k`'s numbers.
    fn slice(&self, k: usize) -> Result<&[f32], InputError> {
        match &*self.guards[k] {
            Storage::Cpu(c) => c
                .as_slice::<f32>()
                .map_err(|e| InputError(super::net::one_line(&e))),
            _ => Err(InputError("a parameter is not on the CPU".to_string())),
        }
    }
}

/// `w` (`[rows][cols]`, row-major) transposed: `[cols][rows]`.
fn transpose(w: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    let mut t = vec![0.0; w.len()];
    for (r, row) in w.chunks_exact(cols).enumerate() {
        for (c, &x) in row.iter().enumerate() {
            t[c * rows + r] = x;
        }
    }
    t
}

/// The network's weights laid out for the forward pass: each layer's
/// weights transposed (`[inputs][outputs]`), so that an input's
/// contribution to all outputs is one contiguous row. Made from the
/// network's parameters on the first forward pass ([`Net`] keeps it).
pub struct Packed {
    hidden: usize,
    context: usize,
    cell: usize,
    policy_hidden: usize,
    /// Whether the first layer reads the board window (else the globals
    /// only, and a position's board is not looked at).
    board: bool,
    /// How many of a position's globals the first layer reads
    /// ([`NetConfig::globals`]: without the position features, the first
    /// `BASE_GLOBALS`).
    globals: usize,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    wv: Vec<f32>,
    bv: Vec<f32>,
    wl: Vec<f32>,
    bl: Vec<f32>,
    wc: Vec<f32>,
    bc: Vec<f32>,
    /// `[CELLS][hidden][cell]`: each cell's embedding layer, transposed.
    wm: Vec<f32>,
    bm: Vec<f32>,
    /// The policy's first layer, transposed: `[context + cell +
    /// ACTION_FEATURES][policy_hidden]`.
    wp1: Vec<f32>,
    bp1: Vec<f32>,
    wp2: Vec<f32>,
    bp2: f32,
}

impl Packed {
    /// The weights of `net`, laid out.
    ///
    /// # Errors
    /// When the parameters are not plain CPU f32 tensors of the
    /// network's shapes.
    fn of(net: &Net) -> Result<Packed, InputError> {
        let w = Weights::of(net)?;
        let c = net.config;
        let layers = c.layers();
        // Layer `k`'s weight transposed, and its bias.
        let p = |k: usize| -> Result<(Vec<f32>, Vec<f32>), InputError> {
            let (weight, bias) = (w.slice(2 * k)?, w.slice(2 * k + 1)?);
            let (name, inputs, outputs) = layers[k];
            if weight.len() != inputs * outputs || bias.len() != outputs {
                return Err(InputError(format!("layer {name} has the wrong shape")));
            }
            Ok((transpose(weight, outputs, inputs), bias.to_vec()))
        };
        let (w1, b1) = p(0)?;
        let (w2, b2) = p(1)?;
        let (wv, bv) = p(2)?;
        let (wl, bl) = p(3)?;
        let (wc, bc) = p(4)?;
        let (wp1, bp1) = p(6)?;
        let (wp2, bp2) = p(7)?;
        // The cells' layer, cell by cell: `[cell][hidden]` rows of the
        // weight become `[hidden][cell]` blocks.
        let (cells_w, bm) = (w.slice(10)?, w.slice(11)?.to_vec());
        if cells_w.len() != CELLS * c.cell * c.hidden || bm.len() != CELLS * c.cell {
            return Err(InputError("layer cells has the wrong shape".to_string()));
        }
        let wm = cells_w
            .chunks_exact(c.cell * c.hidden)
            .flat_map(|block| transpose(block, c.cell, c.hidden))
            .collect();
        Ok(Packed {
            hidden: c.hidden,
            context: c.context,
            cell: c.cell,
            policy_hidden: c.policy_hidden,
            board: c.board,
            globals: c.globals(),
            w1,
            b1,
            w2,
            b2,
            wv,
            bv,
            wl,
            bl,
            wc,
            bc,
            wm,
            bm,
            wp1,
            bp1,
            wp2,
            bp2: bp2[0],
        })
    }

    /// The packed weights of `net`: kept in it, made on first use.
    fn get(net: &Net) -> Result<&Packed, InputError> {
        if let Some(p) = net.packed.get() {
            return Ok(p);
        }
        let packed = Packed::of(net)?;
        // Another thread may have made it meanwhile: the same numbers.
        let _ = net.packed.set(packed);
        Ok(net.packed.get().expect("set above"))
    }
}

/// Outputs summed at once, held in registers over all the inputs: 32
/// (eight SSE registers) reads an input's index and value once per 32
/// outputs, about a quarter fewer instructions than 16 for the 64-wide
/// layers; each output's sum keeps its order.
const BLOCK: usize = 32;

/// `out[o] += x · w[k · n + at + o]` for each `(k, x)` of `list`, in list
/// order, the `B` outputs held in registers over the whole list.
#[inline]
fn accumulate_block<const B: usize>(
    out: &mut [f32],
    list: &[(u32, f32)],
    w: &[f32],
    n: usize,
    at: usize,
) {
    let mut acc: [f32; B] = out[..B].try_into().expect("a block");
    for &(k, x) in list {
        let row: &[f32; B] = w[k as usize * n + at..][..B].try_into().expect("a block");
        for (a, w) in acc.iter_mut().zip(row) {
            *a += x * w;
        }
    }
    out[..B].copy_from_slice(&acc);
}

/// `out[o] += x · w[k · out.len() + o]` for each `(k, x)` of `list`, in
/// list order for every output: `BLOCK` outputs at a time (then 16, 8, 4
/// and one), kept in registers over the whole list (`w` is
/// `[inputs][out.len()]`).
fn accumulate(out: &mut [f32], list: &[(u32, f32)], w: &[f32]) {
    let n = out.len();
    let mut at = 0;
    while at + BLOCK <= n {
        accumulate_block::<BLOCK>(&mut out[at..], list, w, n, at);
        at += BLOCK;
    }
    if at + 16 <= n {
        accumulate_block::<16>(&mut out[at..], list, w, n, at);
        at += 16;
    }
    if at + 8 <= n {
        accumulate_block::<8>(&mut out[at..], list, w, n, at);
        at += 8;
    }
    if at + 4 <= n {
        accumulate_block::<4>(&mut out[at..], list, w, n, at);
        at += 4;
    }
    while at < n {
        accumulate_block::<1>(&mut out[at..], list, w, n, at);
        at += 1;
    }
}

/// The non-zero entries of `x` (index, value), in order, into `list`.
fn nonzero_into(x: &[f32], list: &mut Vec<(u32, f32)>) {
    list.clear();
    list.extend(
        x.iter()
            .enumerate()
            .filter(|&(_, &v)| v != 0.0)
            .map(|(j, &v)| (j as u32, v)),
    );
}

/// `out = b + Σ_j x_j · wt[j]` over the non-zero inputs `list` (index,
/// value; `wt` transposed, `[inputs][out.len()]`): the sum from −0 over
/// the inputs in order, then the bias, as the plain `bias + Σ w·x` does.
fn dense_list(wt: &[f32], b: &[f32], list: &[(u32, f32)], out: &mut [f32]) {
    out.fill(-0.0);
    accumulate(out, list, wt);
    // (Float addition commutes exactly: this is `bias + sum`.)
    for (o, bias) in out.iter_mut().zip(b) {
        *o += bias;
    }
}

/// [`dense_list`] over the non-zero entries of `x`.
fn dense(wt: &[f32], b: &[f32], x: &[f32], out: &mut [f32]) {
    let mut list = Vec::with_capacity(x.len());
    nonzero_into(x, &mut list);
    dense_list(wt, b, &list, out);
}

fn relu(v: &mut [f32]) {
    for x in v {
        *x = x.max(0.0);
    }
}

/// The buffers of [`forward_into`], reused between calls.
#[derive(Default)]
pub struct Scratch {
    h1: Vec<f32>,
    h2: Vec<f32>,
    context: Vec<f32>,
    /// The policy layer's sum over the context part.
    by_context: Vec<f32>,
    /// Per distinct cell of a position's actions, the policy layer's sum
    /// over the context and cell parts (`policy_hidden` each).
    by_cell: Vec<f32>,
    /// Window cell → its entry in `by_cell` (`u16::MAX`: none yet).
    cell_slot: Vec<u16>,
    /// The cells with an entry (to clear `cell_slot`).
    used: Vec<u32>,
    m: Vec<f32>,
    /// The one-hot sets of a position's actions seen so far (bit `j`:
    /// column `j` is 1) and, `policy_hidden` each, the policy layer's
    /// bias plus the rows of each set's columns.
    combo_keys: Vec<u64>,
    combos: Vec<f32>,
    /// The non-zero inputs of the first layer: index, value.
    list: Vec<(u32, f32)>,
    /// The non-zero inputs of the policy layer's context or cell part.
    parts: Vec<(u32, f32)>,
    /// The non-zero outputs of the first layer, then of the second.
    inputs: Vec<(u32, f32)>,
}

/// The action columns that may be one-hot (kind, gift, meeple,
/// rotation, slot, tile: 0–43); a 1 in one of them is added with the
/// policy layer's bias once per position and set of columns.
const ONE_HOT: usize = ONE_HOT_FEATURES;

/// Of an action's first [`ONE_HOT`] features, the columns that are 1
/// and those that are neither 0 nor 1 (bit `j`: column `j`); without
/// branches (which of them are zero varies from one action to the next).
/// About 15 instructions a column: the encoder gives the first set
/// instead ([`ActionEncoder::encode_in`](super::encode::ActionEncoder::encode_in)).
fn one_hot_bits(f: &[f32]) -> (u64, u64) {
    let (mut mask, mut odd) = (0u64, 0u64);
    for (j, &x) in f[..ONE_HOT].iter().enumerate() {
        mask |= u64::from(x == 1.0) << j;
        odd |= u64::from(x != 0.0 && x != 1.0) << j;
    }
    (mask, odd)
}

/// Lanes of an action logit's dot product: hidden unit `h` is added to
/// lane `h % LANES`, in the order of `h`, and the lanes summed at the end.
const LANES: usize = 8;

/// Policy hidden units summed at once (kept in registers): two rows of
/// lanes, so that an action's row index and weight are read once per 16
/// units rather than per 8. Each lane still adds its units in the order
/// of `h`, so the logit is the same number as 8 at a time.
const WIDE: usize = 2 * LANES;

/// `Σ_h w2[h] · relu(by_cell[h] + combo[h] + Σ_(j, x) x · w[j][h])`:
/// an action's logit less its bias, [`WIDE`] hidden units at a time held
/// in registers over all of its rows (`w` is `[ACTION_FEATURES][ph]`).
#[inline]
fn policy_logit(by_cell: &[f32], combo: &[f32], rest: &[(u32, f32)], w: &[f32], w2: &[f32]) -> f32 {
    let ph = by_cell.len();
    let mut dot = [0.0f32; LANES];
    let mut at = 0;
    while at + WIDE <= ph {
        policy_units::<WIDE>(&mut dot, at, by_cell, combo, rest, w, w2);
        at += WIDE;
    }
    while at + LANES <= ph {
        policy_units::<LANES>(&mut dot, at, by_cell, combo, rest, w, w2);
        at += LANES;
    }
    let mut sum: f32 = dot.iter().sum();
    for h in at..ph {
        let mut r = by_cell[h] + combo[h];
        for &(j, x) in rest {
            r += x * w[j as usize * ph + h];
        }
        sum += r.max(0.0) * w2[h];
    }
    sum
}

/// [`policy_logit`]'s hidden units `at..at + B` (`B` a multiple of
/// [`LANES`]), added to the lanes of `dot`.
#[inline(always)]
fn policy_units<const B: usize>(
    dot: &mut [f32; LANES],
    at: usize,
    by_cell: &[f32],
    combo: &[f32],
    rest: &[(u32, f32)],
    w: &[f32],
    w2: &[f32],
) {
    let ph = by_cell.len();
    let a: &[f32; B] = by_cell[at..][..B].try_into().expect("a chunk");
    let b: &[f32; B] = combo[at..][..B].try_into().expect("a chunk");
    let mut r = [0.0f32; B];
    for ((r, a), b) in r.iter_mut().zip(a).zip(b) {
        *r = a + b;
    }
    for &(j, x) in rest {
        let row: &[f32; B] = w[j as usize * ph + at..][..B].try_into().expect("a chunk");
        for (r, w) in r.iter_mut().zip(row) {
            *r += x * w;
        }
    }
    let w2: &[f32; B] = w2[at..][..B].try_into().expect("a chunk");
    for (lanes, w2) in r.chunks_exact(LANES).zip(w2.chunks_exact(LANES)) {
        for ((d, r), w2) in dot.iter_mut().zip(lanes).zip(w2) {
            *d += r.max(0.0) * w2;
        }
    }
}

/// The network's values (`[6]` per position, seat-relative, into
/// `values`: `(1 − lead)·value + lead·lead`, the value head blended with
/// the lead head by the weight `lead` in `[0, 1]`; the lead head is not
/// computed when `lead` is 0) and one logit per action (into `logits`),
/// for `positions`
/// and their actions: action `k`'s features are
/// `features[k * ACTION_FEATURES..][..ACTION_FEATURES]` and its window
/// cell `cells[k]`, and position `i`'s actions are
/// `offsets[i]..offsets[i + 1]`. `values` and `logits` are cleared first.
/// `one_hot`, when given, holds each action's one-hot set as the encoder
/// gives it ([`ActionEncoder::encode_in`](super::encode::ActionEncoder::encode_in):
/// bit `j` for a 1 in column `j` below [`ONE_HOT_FEATURES`], the others
/// of those columns 0), read instead of those columns (the same numbers;
/// checked in debug builds); else the columns are scanned.
///
/// # Errors
/// When the parameters are not plain CPU f32 tensors of the network's
/// shapes (a network built by [`Net::new`] or loaded always is), or the
/// inputs do not have the encoding's sizes.
#[allow(clippy::too_many_arguments)]
pub fn forward_into(
    net: &Net,
    positions: &[PositionInput],
    features: &[f32],
    cells: &[u32],
    offsets: &[usize],
    one_hot: Option<&[u64]>,
    scratch: &mut Scratch,
    lead: f32,
    values: &mut Vec<[f32; MAX_PLAYERS]>,
    logits: &mut Vec<f32>,
) -> Result<(), InputError> {
    let pk = Packed::get(net)?;
    let (hd, ph) = (pk.hidden, pk.policy_hidden);
    let actions = cells.len();
    if features.len() != actions * ACTION_FEATURES
        || offsets.len() != positions.len() + 1
        || offsets.last() != Some(&actions)
        || one_hot.is_some_and(|sets| sets.len() != actions)
    {
        return Err(InputError(
            "actions and offsets of the wrong sizes".to_string(),
        ));
    }
    let s = scratch;
    s.h1.resize(hd, 0.0);
    s.h2.resize(hd, 0.0);
    s.context.resize(pk.context, 0.0);
    s.by_context.resize(ph, 0.0);
    s.m.resize(pk.cell, 0.0);
    s.cell_slot.resize(CELLS, u16::MAX);
    values.clear();
    logits.clear();
    logits.resize(actions, 0.0);
    let (p_context, rest) = pk.wp1.split_at(pk.context * ph);
    let (p_cell, p_action) = rest.split_at(pk.cell * ph);
    for (i, pos) in positions.iter().enumerate() {
        if (pk.board && pos.board.len() != BOARD_FEATURES) || pos.globals.len() != GLOBAL_FEATURES {
            return Err(InputError("a position of the wrong size".to_string()));
        }
        // First layer, over the non-zero inputs only, in input order:
        // the board cell by cell (an empty cell, all its bits zero, is
        // skipped at once), then the globals.
        s.h1.copy_from_slice(&pk.b1);
        s.list.resize(BOARD_FEATURES + GLOBAL_FEATURES, (0, 0.0));
        let mut n = 0;
        let first_global = if pk.board {
            for (c, cell) in pos.board.chunks_exact(CELL_CHANNELS).enumerate() {
                if cell.iter().fold(0, |bits, x| bits | x.to_bits()) == 0 {
                    continue;
                }
                for (ch, &x) in cell.iter().enumerate() {
                    s.list[n] = ((c * CELL_CHANNELS + ch) as u32, x);
                    n += usize::from(x != 0.0);
                }
            }
            BOARD_FEATURES
        } else {
            0
        };
        for (j, &x) in pos.globals[..pk.globals].iter().enumerate() {
            s.list[n] = ((first_global + j) as u32, x);
            n += usize::from(x != 0.0);
        }
        accumulate(&mut s.h1, &s.list[..n], &pk.w1);
        relu(&mut s.h1);
        nonzero_into(&s.h1, &mut s.inputs);
        dense_list(&pk.w2, &pk.b2, &s.inputs, &mut s.h2);
        relu(&mut s.h2);
        // The second layer's non-zero outputs feed every head.
        nonzero_into(&s.h2, &mut s.inputs);
        let mut v = [0.0f32; MAX_PLAYERS];
        dense_list(&pk.wv, &pk.bv, &s.inputs, &mut v);
        for x in &mut v {
            *x = x.tanh();
        }
        if lead != 0.0 {
            let mut l = [0.0f32; MAX_PLAYERS];
            dense_list(&pk.wl, &pk.bl, &s.inputs, &mut l);
            for (x, l) in v.iter_mut().zip(l) {
                *x = (1.0 - lead) * *x + lead * l.tanh();
            }
        }
        values.push(v);
        let (lo, hi) = (offsets[i], offsets[i + 1]);
        if lo == hi {
            continue;
        }
        dense_list(&pk.wc, &pk.bc, &s.inputs, &mut s.context);
        // The policy layer's sum starts with the context part.
        s.by_context.fill(-0.0);
        nonzero_into(&s.context, &mut s.parts);
        accumulate(&mut s.by_context, &s.parts, p_context);
        for &c in &s.used {
            s.cell_slot[c as usize] = u16::MAX;
        }
        s.used.clear();
        s.by_cell.clear();
        s.combo_keys.clear();
        s.combos.clear();
        for k in lo..hi {
            let cell = cells[k] as usize;
            if cell >= CELLS {
                return Err(InputError(format!(
                    "an action's cell {cell} is outside the window"
                )));
            }
            if s.cell_slot[cell] == u16::MAX {
                // This cell's embedding, then the policy sum continued
                // over it.
                let wm = &pk.wm[cell * hd * pk.cell..][..hd * pk.cell];
                dense_list(wm, &pk.bm[cell * pk.cell..][..pk.cell], &s.inputs, &mut s.m);
                let at = s.by_cell.len();
                s.by_cell.extend_from_slice(&s.by_context);
                nonzero_into(&s.m, &mut s.parts);
                accumulate(&mut s.by_cell[at..], &s.parts, p_cell);
                s.cell_slot[cell] = s.used.len() as u16;
                s.used.push(cell as u32);
            }
            let by_cell = &s.by_cell[s.cell_slot[cell] as usize * ph..][..ph];
            // The action's features: the one-hot columns (a 1 in one of
            // the first `ONE_HOT` columns) as a set, the others listed.
            let f = &features[k * ACTION_FEATURES..][..ACTION_FEATURES];
            // The ones of the one-hot columns as a set (the encoder's, or
            // scanned), any other value there (none from the encoder)
            // and the later columns listed.
            let (mask, mut odd) = match one_hot {
                Some(sets) => {
                    debug_assert_eq!(one_hot_bits(f), (sets[k], 0), "action {k}'s one-hot set");
                    (sets[k], 0)
                }
                None => one_hot_bits(f),
            };
            let mut rest = [(0u32, 0.0f32); ACTION_FEATURES];
            let mut n = 0;
            while odd != 0 {
                let j = odd.trailing_zeros() as usize;
                odd &= odd - 1;
                rest[n] = (j as u32, f[j]);
                n += 1;
            }
            for (j, &x) in f.iter().enumerate().skip(ONE_HOT) {
                rest[n] = (j as u32, x);
                n += usize::from(x != 0.0);
            }
            // The bias and the one-hot rows summed once per set seen in
            // this position (a handful: rotations × meeples).
            let combo = match s.combo_keys.iter().position(|&m| m == mask) {
                Some(c) => c,
                None => {
                    let at = s.combos.len();
                    s.combos.extend_from_slice(&pk.bp1);
                    let sum = &mut s.combos[at..];
                    let mut bits = mask;
                    while bits != 0 {
                        let j = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        for (a, w) in sum.iter_mut().zip(&p_action[j * ph..][..ph]) {
                            *a += w;
                        }
                    }
                    s.combo_keys.push(mask);
                    s.combo_keys.len() - 1
                }
            };
            let combo = &s.combos[combo * ph..][..ph];
            logits[k] = pk.bp2 + policy_logit(by_cell, combo, &rest[..n], p_action, &pk.wp2);
        }
    }
    Ok(())
}

/// The largest magnitude an activation may reach on the inputs of
/// [`check_activations`]: a trained network's are of order 1 to 100; one
/// beyond 10¹⁵ on a plausible input is a step from overflowing `f32`
/// (3.4 × 10³⁸) on another.
pub const ACTIVATION_BOUND: f32 = 1e15;

/// Check every activation of the forward pass of `net` on `positions`
/// and their `actions` (position `i`'s are `offsets[i]..offsets[i + 1]`):
/// each layer's outputs before its ReLU or tanh, and each logit, finite
/// and at most [`ACTIVATION_BOUND`] in magnitude. The plain dense
/// computation, layer by layer (a zero input adds nothing, as in
/// [`forward_into`]).
///
/// # Errors
/// The first layer that overflows, naming it and the position, as one
/// line; or the errors of [`forward_into`].
pub fn check_activations(
    net: &Net,
    positions: &[PositionInput],
    actions: &[ActionInput],
    offsets: &[usize],
) -> Result<(), NetError> {
    let pk = Packed::get(net).map_err(|e| NetError::Format(e.0))?;
    if offsets.len() != positions.len() + 1 || offsets.last() != Some(&actions.len()) {
        return Err(NetError::Format(
            "actions and offsets of the wrong sizes".to_string(),
        ));
    }
    let check = |layer: &str, v: &[f32], i: usize| -> Result<(), NetError> {
        match v.iter().find(|x| !(x.is_finite() && x.abs() <= ACTIVATION_BOUND)) {
            Some(x) => Err(NetError::Unsound(format!(
                "overflows in its forward pass: layer `{layer}` reaches {x:e} on probe position {i} (the bound is {ACTIVATION_BOUND:e})"
            ))),
            None => Ok(()),
        }
    };
    let (hd, ph) = (pk.hidden, pk.policy_hidden);
    for (i, pos) in positions.iter().enumerate() {
        if (pk.board && pos.board.len() != BOARD_FEATURES) || pos.globals.len() != GLOBAL_FEATURES {
            return Err(NetError::Format("a position of the wrong size".to_string()));
        }
        let mut x = Vec::with_capacity(BOARD_FEATURES + GLOBAL_FEATURES);
        if pk.board {
            x.extend_from_slice(&pos.board);
        }
        x.extend_from_slice(&pos.globals[..pk.globals]);
        let mut h1 = vec![0.0; hd];
        dense(&pk.w1, &pk.b1, &x, &mut h1);
        check("trunk1", &h1, i)?;
        relu(&mut h1);
        let mut h2 = vec![0.0; hd];
        dense(&pk.w2, &pk.b2, &h1, &mut h2);
        check("trunk2", &h2, i)?;
        relu(&mut h2);
        let mut head = [0.0f32; MAX_PLAYERS];
        dense(&pk.wv, &pk.bv, &h2, &mut head);
        check("value", &head, i)?;
        dense(&pk.wl, &pk.bl, &h2, &mut head);
        check("lead", &head, i)?;
        let mut context = vec![0.0; pk.context];
        dense(&pk.wc, &pk.bc, &h2, &mut context);
        check("context", &context, i)?;
        for a in &actions[offsets[i]..offsets[i + 1]] {
            let cell = a.cell as usize;
            if cell >= CELLS || a.features.len() != ACTION_FEATURES {
                return Err(NetError::Format(
                    "an action of the wrong size or cell".to_string(),
                ));
            }
            let mut m = vec![0.0; pk.cell];
            dense(
                &pk.wm[cell * hd * pk.cell..][..hd * pk.cell],
                &pk.bm[cell * pk.cell..][..pk.cell],
                &h2,
                &mut m,
            );
            check("cells", &m, i)?;
            let input: Vec<f32> = context
                .iter()
                .chain(&m)
                .chain(&a.features)
                .copied()
                .collect();
            let mut r = vec![0.0; ph];
            dense(&pk.wp1, &pk.bp1, &input, &mut r);
            check("policy1", &r, i)?;
            relu(&mut r);
            let logit = pk.bp2 + pk.wp2.iter().zip(&r).map(|(w, r)| w * r).sum::<f32>();
            check("policy2", &[logit], i)?;
        }
    }
    Ok(())
}

/// The network's values (`[B][6]`, seat-relative) and one logit per
/// action, for positions and their actions (`actions[offsets[i]..offsets[i + 1]]`
/// are position `i`'s): [`forward_into`] with fresh buffers.
///
/// # Errors
/// As [`forward_into`].
pub fn forward(
    net: &Net,
    positions: &[PositionInput],
    actions: &[ActionInput],
    offsets: &[usize],
) -> Result<(Vec<[f32; MAX_PLAYERS]>, Vec<f32>), InputError> {
    let mut features = Vec::with_capacity(actions.len() * ACTION_FEATURES);
    for a in actions {
        if a.features.len() != ACTION_FEATURES {
            return Err(InputError("an action of the wrong size".to_string()));
        }
        features.extend_from_slice(&a.features);
    }
    let cells: Vec<u32> = actions.iter().map(|a| a.cell).collect();
    let (mut values, mut logits) = (Vec::new(), Vec::new());
    forward_into(
        net,
        positions,
        &features,
        &cells,
        offsets,
        None,
        &mut Scratch::default(),
        0.0,
        &mut values,
        &mut logits,
    )?;
    Ok((values, logits))
}

/// Candle's forward pass of `net` on the same inputs (the reference
/// [`forward`] is checked against, and the "before" of its speed).
///
/// # Errors
/// A candle error.
pub fn forward_candle(
    net: &Net,
    positions: &[PositionInput],
    actions: &[ActionInput],
    offsets: &[usize],
) -> candle_core::Result<(Vec<[f32; MAX_PLAYERS]>, Vec<f32>)> {
    let (values, _, logits) = candle_heads(net, positions, actions, offsets)?;
    Ok((values, logits))
}

/// Per position, six numbers: a head's rows.
type HeadRows = Vec<[f32; MAX_PLAYERS]>;

/// Candle's forward pass: the value and lead heads' rows and the logits.
fn candle_heads(
    net: &Net,
    positions: &[PositionInput],
    actions: &[ActionInput],
    offsets: &[usize],
) -> candle_core::Result<(HeadRows, HeadRows, Vec<f32>)> {
    let mut board = Vec::new();
    let mut globals = Vec::new();
    let mut features = Vec::new();
    let mut cells = Vec::new();
    let mut owners = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        board.extend_from_slice(&p.board);
        globals.extend_from_slice(&p.globals);
        for a in &actions[offsets[i]..offsets[i + 1]] {
            features.extend_from_slice(&a.features);
            cells.push(a.cell);
            owners.push(i as u32);
        }
    }
    let input = super::net::batch(board, &globals, features, &cells, &owners)?;
    let out = net.forward(&input)?;
    let rows = |t: &Tensor| -> candle_core::Result<HeadRows> {
        let rows = t.to_vec2::<f32>()?;
        Ok(rows
            .iter()
            .map(|r| {
                let mut v = [0.0; MAX_PLAYERS];
                v.copy_from_slice(&r[..MAX_PLAYERS]);
                v
            })
            .collect())
    };
    Ok((rows(&out.value)?, rows(&out.lead)?, to_vec(&out.logits)?))
}

fn to_vec(t: &Tensor) -> candle_core::Result<Vec<f32>> {
    t.to_vec1::<f32>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::neural::encode::{encode_actions, encode_position, BASE_GLOBALS};
    use crate::neural::NetConfig;
    use crate::test_support::{random_decisions, random_play_until};
    use engine::Rules;
    use rand::SeedableRng;

    /// The first plain-Rust forward pass (before [`Packed`]): strided
    /// columns of the first layer, dense row-by-row products. The packed
    /// pass must give exactly its numbers.
    fn forward_plain(
        net: &Net,
        positions: &[PositionInput],
        actions: &[ActionInput],
        offsets: &[usize],
    ) -> (Vec<[f32; MAX_PLAYERS]>, Vec<f32>) {
        fn affine(w: &[f32], b: &[f32], x: &[f32], out: &mut [f32]) {
            let n = x.len();
            for (o, (row, bias)) in out.iter_mut().zip(w.chunks_exact(n).zip(b)) {
                *o = bias + row.iter().zip(x).map(|(a, b)| a * b).sum::<f32>();
            }
        }
        let w = Weights::of(net).unwrap();
        let c = net.config;
        let inputs = c.layers()[0].1;
        let p = |k: usize| (w.slice(2 * k).unwrap(), w.slice(2 * k + 1).unwrap());
        let ((w1, b1), (w2, b2), (wv, bv)) = (p(0), p(1), p(2));
        let ((wc, bc), (wm, bm), (wp1, bp1), (wp2, bp2)) = (p(4), p(5), p(6), p(7));
        let mut values = Vec::new();
        let mut logits = vec![0.0f32; actions.len()];
        for (i, pos) in positions.iter().enumerate() {
            let mut h1 = b1.to_vec();
            let board: &[f32] = if c.board { &pos.board } else { &[] };
            let x = board.iter().chain(&pos.globals[..c.globals()]);
            for (k, &xk) in x.enumerate() {
                if xk != 0.0 {
                    for (h, row) in h1.iter_mut().zip(w1[k..].iter().step_by(inputs)) {
                        *h += xk * row;
                    }
                }
            }
            relu(&mut h1);
            let mut h2 = vec![0.0; c.hidden];
            affine(w2, b2, &h1, &mut h2);
            relu(&mut h2);
            let mut v = [0.0f32; MAX_PLAYERS];
            affine(wv, bv, &h2, &mut v);
            values.push(v.map(f32::tanh));
            let mut context = vec![0.0; c.context];
            affine(wc, bc, &h2, &mut context);
            for k in offsets[i]..offsets[i + 1] {
                let a = &actions[k];
                let rows = a.cell as usize * c.cell..(a.cell as usize + 1) * c.cell;
                let mut m = vec![0.0; c.cell];
                let wm = &wm[rows.start * c.hidden..rows.end * c.hidden];
                affine(wm, &bm[rows], &h2, &mut m);
                let z: Vec<f32> = [&context[..], &m, &a.features].concat();
                let mut r = vec![0.0; c.policy_hidden];
                affine(wp1, bp1, &z, &mut r);
                relu(&mut r);
                let mut logit = [0.0f32];
                affine(wp2, bp2, &r, &mut logit);
                logits[k] = logit[0];
            }
        }
        (values, logits)
    }

    /// Encoded decisions of random games (2–4 seats, several rules),
    /// every `every`-th of each game and its last.
    fn encoded(every: usize) -> (Vec<PositionInput>, Vec<ActionInput>, Vec<usize>) {
        let mut positions = Vec::new();
        let mut actions = Vec::new();
        let mut offsets = vec![0];
        for (rules, players, seed) in [
            ("", 2, 3u64),
            ("gifts=true", 3, 4),
            ("farmers=false", 4, 5),
            ("hand=2", 2, 6),
        ] {
            let rules: Rules = rules.parse().unwrap();
            for state in random_decisions(players, rules, seed, every) {
                let view = state.view(state.to_play());
                positions.push(encode_position(&view));
                actions.extend(encode_actions(&view, &state.legal_actions()));
                offsets.push(actions.len());
            }
        }
        (positions, actions, offsets)
    }

    /// Networks of every [`configs`] with initial weights, and the shipped
    /// `net-2p-zero`.
    fn initial_and_shipped() -> Vec<Net> {
        let shipped = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../models/net-2p-zero.safetensors"
        );
        let shipped = super::super::NetEvaluator::load(std::path::Path::new(shipped)).unwrap();
        let mut nets: Vec<Net> = configs().into_iter().map(|(c, s)| Net::new(c, s)).collect();
        nets.push(shipped.net);
        nets
    }

    /// The sizes the forward passes are compared on, with seeds.
    fn configs() -> [(NetConfig, u64); 4] {
        [
            (NetConfig::TINY, 1),
            (NetConfig::default(), 2),
            (
                NetConfig {
                    board: false,
                    ..NetConfig::default()
                },
                3,
            ),
            // The auxiliary head is not part of play: ignored here.
            (
                NetConfig {
                    categories: true,
                    ..NetConfig::TINY
                },
                4,
            ),
        ]
    }

    /// A network without the board gives the same numbers whatever the
    /// board input holds (and with none), and one with it does not.
    #[test]
    fn a_network_without_the_board_never_reads_it() {
        let (positions, actions, offsets) = encoded(13);
        let blank: Vec<PositionInput> = positions
            .iter()
            .map(|p| PositionInput {
                board: Vec::new(),
                globals: p.globals.clone(),
            })
            .collect();
        let zeros: Vec<PositionInput> = positions
            .iter()
            .map(|p| PositionInput {
                board: vec![0.0; p.board.len()],
                globals: p.globals.clone(),
            })
            .collect();
        for board in [false, true] {
            let net = Net::new(
                NetConfig {
                    board,
                    ..NetConfig::TINY
                },
                6,
            );
            let full = forward(&net, &positions, &actions, &offsets).unwrap();
            let without = forward(&net, &zeros, &actions, &offsets).unwrap();
            assert_eq!(full == without, !board, "board {board}");
            if !board {
                assert_eq!(forward(&net, &blank, &actions, &offsets).unwrap(), full);
                let candle = forward_candle(&net, &zeros, &actions, &offsets).unwrap();
                assert!(candle
                    .1
                    .iter()
                    .zip(&full.1)
                    .all(|(a, b)| (a - b).abs() < 1e-4));
            }
        }
    }

    /// A network without the position features gives the same numbers
    /// whatever those columns hold, in both forward passes, and one with
    /// them does not.
    #[test]
    fn a_network_without_the_features_never_reads_them() {
        let (positions, actions, offsets) = encoded(13);
        let scrambled: Vec<PositionInput> = positions
            .iter()
            .map(|p| {
                let mut globals = p.globals.clone();
                for (k, x) in globals[BASE_GLOBALS..].iter_mut().enumerate() {
                    *x = 3.0 - k as f32 * 0.25;
                }
                PositionInput {
                    board: p.board.clone(),
                    globals,
                }
            })
            .collect();
        for (board, features) in [(true, true), (true, false), (false, false)] {
            let net = Net::new(
                NetConfig {
                    board,
                    features,
                    ..NetConfig::TINY
                },
                6,
            );
            let full = forward(&net, &positions, &actions, &offsets).unwrap();
            let other = forward(&net, &scrambled, &actions, &offsets).unwrap();
            assert_eq!(
                full == other,
                !features,
                "board {board}, features {features}"
            );
            let candle = forward_candle(&net, &scrambled, &actions, &offsets).unwrap();
            assert!(candle
                .1
                .iter()
                .zip(&other.1)
                .all(|(a, b)| (a - b).abs() < 1e-4));
        }
    }

    #[test]
    fn the_fast_forward_pass_equals_candles() {
        let (positions, actions, offsets) = encoded(9);
        assert!(positions.len() > 30, "{} positions", positions.len());
        for (config, seed) in configs() {
            let net = Net::new(config, seed);
            let (v1, l1) = forward(&net, &positions, &actions, &offsets).unwrap();
            let (v2, l2) = forward_candle(&net, &positions, &actions, &offsets).unwrap();
            assert_eq!(l1.len(), l2.len());
            for (a, b) in v1.iter().flatten().zip(v2.iter().flatten()) {
                assert!((a - b).abs() < 1e-4, "value {a} against {b}");
            }
            for (a, b) in l1.iter().zip(&l2) {
                assert!((a - b).abs() < 1e-4, "logit {a} against {b}");
            }
        }
    }

    /// `lead=w` gives `(1 − w)·value + w·lead` of candle's two heads, and
    /// leaves the logits alone.
    #[test]
    fn the_lead_weight_blends_the_value_and_lead_heads() {
        let (positions, actions, offsets) = encoded(7);
        let features: Vec<f32> = actions.iter().flat_map(|a| a.features.clone()).collect();
        let cells: Vec<u32> = actions.iter().map(|a| a.cell).collect();
        for (config, seed) in configs() {
            let net = Net::new(config, seed);
            let (value, lead, logits) = candle_heads(&net, &positions, &actions, &offsets).unwrap();
            for w in [0.0f32, 0.3, 1.0] {
                let (mut v, mut l) = (Vec::new(), Vec::new());
                forward_into(
                    &net,
                    &positions,
                    &features,
                    &cells,
                    &offsets,
                    None,
                    &mut Scratch::default(),
                    w,
                    &mut v,
                    &mut l,
                )
                .unwrap();
                let expected = value.iter().flatten().zip(lead.iter().flatten());
                for (got, (a, b)) in v.iter().flatten().zip(expected) {
                    let want = (1.0 - w) * a + w * b;
                    assert!((got - want).abs() < 1e-4, "lead={w}: {got} against {want}");
                }
                assert!(l.iter().zip(&logits).all(|(a, b)| (a - b).abs() < 1e-4));
            }
            // The heads differ, so the test sees which one is used.
            let apart = value.iter().flatten().zip(lead.iter().flatten());
            assert!(apart.map(|(a, b)| (a - b).abs()).fold(0.0, f32::max) > 1e-3);
        }
    }

    /// The largest difference between two lists of logits.
    fn max_difference(a: &[f32], b: &[f32]) -> f32 {
        assert_eq!(a.len(), b.len());
        a.iter()
            .zip(b)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max)
    }

    /// The packed pass on every decision of whole games: the values bit
    /// for bit (as values: a zero's sign aside) those of the plain pass,
    /// the logits within 1e-5 (the policy layer adds the bias and the
    /// one-hot rows first, [`policy_logit`]), with the shipped network
    /// and with initial weights.
    #[test]
    fn the_packed_forward_pass_equals_the_plain_one() {
        let nets = initial_and_shipped();
        let (positions, actions, offsets) = encoded(1);
        assert!(actions.len() > 10_000, "{} actions", actions.len());
        for net in &nets {
            let (v1, l1) = forward(net, &positions, &actions, &offsets).unwrap();
            let (v2, l2) = forward_plain(net, &positions, &actions, &offsets);
            assert_eq!(v1, v2);
            let d = max_difference(&l1, &l2);
            assert!(d < 1e-5, "logits differ by {d}");
        }
    }

    /// The same on random inputs: positions and actions of random numbers
    /// (zeros, ones in the one-hot columns and other values anywhere),
    /// random cells.
    #[test]
    fn the_packed_forward_pass_equals_the_plain_one_on_random_inputs() {
        use rand::Rng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(45);
        let pick = |rng: &mut rand_pcg::Pcg64Mcg| match rng.gen_range(0..4) {
            0 | 1 => 0.0,
            2 => 1.0,
            _ => rng.gen_range(-2.0f32..2.0),
        };
        let mut positions = Vec::new();
        let mut actions = Vec::new();
        let mut offsets = vec![0];
        for _ in 0..40 {
            positions.push(PositionInput {
                board: (0..BOARD_FEATURES).map(|_| pick(&mut rng)).collect(),
                globals: (0..GLOBAL_FEATURES).map(|_| pick(&mut rng)).collect(),
            });
            for _ in 0..rng.gen_range(0..60) {
                actions.push(ActionInput {
                    features: (0..ACTION_FEATURES).map(|_| pick(&mut rng)).collect(),
                    cell: rng.gen_range(0..CELLS as u32),
                });
            }
            offsets.push(actions.len());
        }
        for (config, seed) in configs() {
            let net = Net::new(config, seed);
            let (v1, l1) = forward(&net, &positions, &actions, &offsets).unwrap();
            let (v2, l2) = forward_plain(&net, &positions, &actions, &offsets);
            assert_eq!(v1, v2);
            let d = max_difference(&l1, &l2);
            assert!(d < 1e-5, "logits differ by {d}");
        }
    }

    /// The encoder's one-hot sets read instead of the one-hot columns
    /// (the evaluator's way) give the numbers of the scan, bit for bit:
    /// every decision of four random games (2–4 seats, The Gifts, a
    /// hand), with the shipped network and initial ones.
    #[test]
    fn the_encoders_one_hot_sets_give_the_numbers_of_the_scan() {
        use crate::neural::encode::ActionEncoder;
        let nets = initial_and_shipped();
        let mut encoder = ActionEncoder::default();
        let (mut positions, mut features, mut cells, mut sets) = (vec![], vec![], vec![], vec![]);
        let mut offsets = vec![0];
        for (rules, players, seed) in [
            ("", 2, 3u64),
            ("gifts=true", 3, 4),
            ("farmers=false", 4, 5),
            ("hand=2", 2, 6),
        ] {
            let rules: Rules = rules.parse().unwrap();
            for state in random_decisions(players, rules, seed, 1) {
                let view = state.view(state.to_play());
                let mut end_now = view.end_now();
                let actions = state.legal_actions();
                encoder.encode_in(
                    &view,
                    &mut end_now,
                    &actions,
                    &mut features,
                    &mut cells,
                    &mut sets,
                );
                positions.push(encode_position(&view));
                offsets.push(cells.len());
            }
        }
        assert!(cells.len() > 10_000, "{} actions", cells.len());
        assert!(
            sets.iter().any(|s| s.count_ones() == 5),
            "placements with a meeple"
        );
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        for net in &nets {
            let run = |one_hot: Option<&[u64]>| {
                let (mut values, mut logits) = (Vec::new(), Vec::new());
                forward_into(
                    net,
                    &positions,
                    &features,
                    &cells,
                    &offsets,
                    one_hot,
                    &mut Scratch::default(),
                    0.5,
                    &mut values,
                    &mut logits,
                )
                .unwrap();
                (bits(values.as_flattened()), bits(&logits))
            };
            assert_eq!(run(Some(&sets)), run(None));
        }
    }

    /// [`accumulate`]'s register blocks (32, 16, 8, 4, 1 outputs) give
    /// every output the sum of the plain loop, in list order, bit for
    /// bit, for every width up to 100.
    #[test]
    fn accumulate_in_blocks_gives_the_plain_sums() {
        use rand::Rng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(32);
        for n in 1..=100 {
            let inputs = 50;
            let w: Vec<f32> = (0..inputs * n)
                .map(|_| rng.gen_range(-2.0f32..2.0))
                .collect();
            let list: Vec<(u32, f32)> = (0..rng.gen_range(0..60))
                .map(|_| (rng.gen_range(0..inputs as u32), rng.gen_range(-2.0f32..2.0)))
                .collect();
            let start: Vec<f32> = (0..n).map(|_| rng.gen_range(-1.0f32..1.0)).collect();
            let mut got = start.clone();
            accumulate(&mut got, &list, &w);
            let mut want = start;
            for (o, want) in want.iter_mut().enumerate() {
                for &(k, x) in &list {
                    *want += x * w[k as usize * n + o];
                }
            }
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&got), bits(&want), "{n} outputs");
        }
    }

    /// An action's logit summed [`WIDE`] hidden units at a time is the
    /// number the first version summed 8 at a time gave, bit for bit (the
    /// lanes add their units in the same order), for every width.
    #[test]
    fn the_policy_units_sixteen_at_a_time_give_the_logits_of_eight() {
        use rand::Rng;
        /// [`policy_logit`] as first written: 8 units at a time.
        fn by_eights(
            by_cell: &[f32],
            combo: &[f32],
            rest: &[(u32, f32)],
            w: &[f32],
            w2: &[f32],
        ) -> f32 {
            let ph = by_cell.len();
            let mut dot = [0.0f32; 8];
            let mut at = 0;
            while at + 8 <= ph {
                let mut r = [0.0f32; 8];
                for (i, r) in r.iter_mut().enumerate() {
                    *r = by_cell[at + i] + combo[at + i];
                }
                for &(j, x) in rest {
                    for (i, r) in r.iter_mut().enumerate() {
                        *r += x * w[j as usize * ph + at + i];
                    }
                }
                for (i, d) in dot.iter_mut().enumerate() {
                    *d += r[i].max(0.0) * w2[at + i];
                }
                at += 8;
            }
            let mut sum: f32 = dot.iter().sum();
            for h in at..ph {
                let mut r = by_cell[h] + combo[h];
                for &(j, x) in rest {
                    r += x * w[j as usize * ph + h];
                }
                sum += r.max(0.0) * w2[h];
            }
            sum
        }
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(16);
        for ph in [64, 16, 24, 40, 8, 13, 3, 1] {
            for _ in 0..200 {
                let mut v = |n: usize| -> Vec<f32> {
                    (0..n).map(|_| rng.gen_range(-3.0f32..3.0)).collect()
                };
                let (by_cell, combo, w2) = (v(ph), v(ph), v(ph));
                let w = v(ACTION_FEATURES * ph);
                let rest: Vec<(u32, f32)> = (0..rng.gen_range(0..8))
                    .map(|_| {
                        (
                            rng.gen_range(0..ACTION_FEATURES as u32),
                            rng.gen_range(-3.0f32..3.0),
                        )
                    })
                    .collect();
                let got = policy_logit(&by_cell, &combo, &rest, &w, &w2);
                let want = by_eights(&by_cell, &combo, &rest, &w, &w2);
                assert_eq!(
                    got.to_bits(),
                    want.to_bits(),
                    "{ph} units: {got} against {want}"
                );
            }
        }
    }

    /// A batch's buffers reused for another batch give what fresh ones
    /// give.
    #[test]
    fn reused_buffers_give_the_same_numbers() {
        let (positions, actions, offsets) = encoded(11);
        let net = Net::new(NetConfig::TINY, 3);
        let features: Vec<f32> = actions.iter().flat_map(|a| a.features.clone()).collect();
        let cells: Vec<u32> = actions.iter().map(|a| a.cell).collect();
        let mut scratch = Scratch::default();
        let (mut values, mut logits) = (Vec::new(), Vec::new());
        let half = positions.len() / 2;
        let (o1, o2) = (&offsets[..=half], &offsets[half..]);
        let cut = o1[half];
        forward_into(
            &net,
            &positions[..half],
            &features[..cut * ACTION_FEATURES],
            &cells[..cut],
            o1,
            None,
            &mut scratch,
            0.0,
            &mut values,
            &mut logits,
        )
        .unwrap();
        let rebased: Vec<usize> = o2.iter().map(|o| o - cut).collect();
        forward_into(
            &net,
            &positions[half..],
            &features[cut * ACTION_FEATURES..],
            &cells[cut..],
            &rebased,
            None,
            &mut scratch,
            0.0,
            &mut values,
            &mut logits,
        )
        .unwrap();
        let (v, l) = forward(&net, &positions[half..], &actions[cut..], &rebased).unwrap();
        assert_eq!((values, logits), (v, l));
    }

    /// Training changes the weights in place: the next forward pass uses
    /// the new weights, not the packed copy of the old ones.
    #[test]
    fn changed_weights_are_never_evaluated_stale() {
        let state = random_play_until(2, Rules::default(), 7, |s| s.turns() > 6);
        let view = state.view(state.to_play());
        let positions = [encode_position(&view)];
        let actions = encode_actions(&view, &state.legal_actions());
        let offsets = [0, actions.len()];
        let mut net = Net::new(NetConfig::TINY, 4);
        let before = forward(&net, &positions, &actions, &offsets).unwrap();
        let other = Net::new(NetConfig::TINY, 5);
        for (var, new) in net.vars_mut().iter().zip(other.tensors()) {
            var.set(new).unwrap();
        }
        let after = forward(&net, &positions, &actions, &offsets).unwrap();
        assert_ne!(before, after);
        assert_eq!(
            after,
            forward(&other, &positions, &actions, &offsets).unwrap()
        );
        assert_eq!(
            after.0,
            forward_plain(&net, &positions, &actions, &offsets).0
        );
    }
}
