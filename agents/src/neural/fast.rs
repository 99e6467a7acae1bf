//! The network's forward pass for inference, in plain Rust on the
//! weights candle holds (read in place, never copied, so a network
//! trained in the same process is always evaluated with its current
//! weights).
//!
//! Why not candle's forward: profiled in an `az:net=` search (perf,
//! experiments/az-bootstrap), 84% of the time went to candle's matrix
//! products, and of that most was per-call overhead, not arithmetic:
//! `gemm` repacks the whole first-layer weight matrix (7,353 × hidden)
//! on every call (48% of the search), and candle asks for the core count
//! on every product (`num_cpus` reads /proc/cpuinfo: 13%). Here:
//!
//! - the first layer is **sparse in its input**: the board window is
//!   mostly zeros (empty cells), so `h1 = b + Σ x_i · W[:, i]` over the
//!   non-zero inputs only;
//! - the cell embeddings are computed **only for the cells the actions
//!   name** (a handful of the 225), not for the whole window;
//! - everything else is small dense products.
//!
//! The result equals candle's forward up to float rounding (a test
//! compares them).

use super::encode::{ActionInput, PositionInput, ACTION_FEATURES};
use super::net::Net;
use candle_core::{Storage, Tensor};
use engine::MAX_PLAYERS;

/// A tensor's numbers, borrowed from candle's storage.
struct Weights<'a> {
    guards: Vec<candle_core::StorageRef<'a>>,
}

impl<'a> Weights<'a> {
    /// Lock every parameter of `net` for reading.
    fn of(net: &'a Net) -> Result<Weights<'a>, String> {
        let mut guards = Vec::with_capacity(net.vars.len());
        for v in &net.vars {
            let (guard, layout) = v.as_tensor().storage_and_layout();
            if !layout.is_contiguous() || layout.start_offset() != 0 {
                return Err("a parameter is not a contiguous tensor".to_string());
            }
            guards.push(guard);
        }
        Ok(Weights { guards })
    }

    /// Parameter `k`'s numbers.
    fn slice(&self, k: usize) -> Result<&[f32], String> {
        match &*self.guards[k] {
            Storage::Cpu(c) => c.as_slice::<f32>().map_err(super::net::err),
            _ => Err("a parameter is not on the CPU".to_string()),
        }
    }
}

/// `out = W · x + b` for `W` of shape `[out.len(), x.len()]`.
fn affine(w: &[f32], b: &[f32], x: &[f32], out: &mut [f32]) {
    let n = x.len();
    for (o, (row, bias)) in out.iter_mut().zip(w.chunks_exact(n).zip(b)) {
        *o = bias + row.iter().zip(x).map(|(a, b)| a * b).sum::<f32>();
    }
}

fn relu(v: &mut [f32]) {
    for x in v {
        *x = x.max(0.0);
    }
}

/// The network's values (`[B][6]`, seat-relative) and one logit per
/// action, for positions and their actions (`actions[offsets[i]..offsets[i + 1]]`
/// are position `i`'s).
///
/// # Errors
/// When the parameters are not plain CPU f32 tensors of the network's
/// shapes (a network built by [`Net::new`] or loaded always is).
pub fn forward(
    net: &Net,
    positions: &[PositionInput],
    actions: &[ActionInput],
    offsets: &[usize],
) -> Result<(Vec<[f32; MAX_PLAYERS]>, Vec<f32>), String> {
    let w = Weights::of(net)?;
    let c = net.config;
    let layers = c.layers();
    let p = |k: usize| -> Result<(&[f32], &[f32]), String> {
        let (weight, bias) = (w.slice(2 * k)?, w.slice(2 * k + 1)?);
        let (_, inputs, outputs) = layers[k];
        if weight.len() != inputs * outputs || bias.len() != outputs {
            return Err(format!("layer {} has the wrong shape", layers[k].0));
        }
        Ok((weight, bias))
    };
    let (w1, b1) = p(0)?;
    let (w2, b2) = p(1)?;
    let (wv, bv) = p(2)?;
    let (wc, bc) = p(4)?;
    let (wm, bm) = p(5)?;
    let (wp1, bp1) = p(6)?;
    let (wp2, bp2) = p(7)?;
    let inputs = layers[0].1;
    let mut values = Vec::with_capacity(positions.len());
    let mut logits = vec![0.0f32; actions.len()];
    let mut h1 = vec![0.0f32; c.hidden];
    let mut h2 = vec![0.0f32; c.hidden];
    let mut context = vec![0.0f32; c.context];
    let mut z = vec![0.0f32; c.context + c.cell + ACTION_FEATURES];
    let mut r = vec![0.0f32; c.policy_hidden];
    // The cell embeddings of this position, computed on demand.
    let mut cells: Vec<(u32, Vec<f32>)> = Vec::new();
    for (i, pos) in positions.iter().enumerate() {
        if pos.board.len() + pos.globals.len() != inputs {
            return Err("a position of the wrong size".to_string());
        }
        // First layer, over the non-zero inputs only.
        h1.copy_from_slice(b1);
        let x = pos.board.iter().chain(&pos.globals);
        for (k, &xk) in x.enumerate() {
            if xk != 0.0 {
                for (h, row) in h1.iter_mut().zip(w1[k..].iter().step_by(inputs)) {
                    *h += xk * row;
                }
            }
        }
        relu(&mut h1);
        affine(w2, b2, &h1, &mut h2);
        relu(&mut h2);
        let mut v = [0.0f32; MAX_PLAYERS];
        affine(wv, bv, &h2, &mut v);
        for x in &mut v {
            *x = x.tanh();
        }
        values.push(v);
        let (lo, hi) = (offsets[i], offsets[i + 1]);
        if lo == hi {
            continue;
        }
        affine(wc, bc, &h2, &mut context);
        cells.clear();
        for (k, a) in actions[lo..hi].iter().enumerate() {
            let at = match cells.iter().position(|(cell, _)| *cell == a.cell) {
                Some(at) => at,
                None => {
                    let rows = a.cell as usize * c.cell..(a.cell as usize + 1) * c.cell;
                    let mut m = vec![0.0f32; c.cell];
                    affine(
                        &wm[rows.start * c.hidden..rows.end * c.hidden],
                        &bm[rows],
                        &h2,
                        &mut m,
                    );
                    cells.push((a.cell, m));
                    cells.len() - 1
                }
            };
            z[..c.context].copy_from_slice(&context);
            z[c.context..c.context + c.cell].copy_from_slice(&cells[at].1);
            z[c.context + c.cell..].copy_from_slice(&a.features);
            affine(wp1, bp1, &z, &mut r);
            relu(&mut r);
            let mut logit = [0.0f32];
            affine(wp2, bp2, &r, &mut logit);
            logits[lo + k] = logit[0];
        }
    }
    Ok((values, logits))
}

/// Candle's forward pass of `net` on the same inputs (the reference
/// [`forward`] is checked against, and the "before" of its speed).
///
/// # Errors
/// A candle error, as one line.
pub fn forward_candle(
    net: &Net,
    positions: &[PositionInput],
    actions: &[ActionInput],
    offsets: &[usize],
) -> Result<(Vec<[f32; MAX_PLAYERS]>, Vec<f32>), String> {
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
    let rows = out.value.to_vec2::<f32>().map_err(super::net::err)?;
    let values = rows
        .iter()
        .map(|r| {
            let mut v = [0.0; MAX_PLAYERS];
            v.copy_from_slice(&r[..MAX_PLAYERS]);
            v
        })
        .collect();
    let logits = to_vec(&out.logits)?;
    Ok((values, logits))
}

fn to_vec(t: &Tensor) -> Result<Vec<f32>, String> {
    t.to_vec1::<f32>().map_err(super::net::err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::neural::encode::{encode_actions, encode_position};
    use crate::neural::NetConfig;
    use crate::test_support::random_play_until;
    use engine::Rules;

    #[test]
    fn the_fast_forward_pass_equals_candles() {
        for (config, seed) in [(NetConfig::TINY, 1u64), (NetConfig::default(), 2)] {
            let net = Net::new(config, seed);
            let mut positions = Vec::new();
            let mut actions = Vec::new();
            let mut offsets = vec![0];
            for (rules, players, s) in [("", 2, 3u64), ("gifts=true", 3, 4), ("", 2, 5)] {
                let rules: Rules = rules.parse().unwrap();
                let state = random_play_until(players, rules, s, |st| st.turns() > 12);
                let view = state.view(state.to_play());
                positions.push(encode_position(&view));
                actions.extend(encode_actions(&view, &state.legal_actions()));
                offsets.push(actions.len());
            }
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
}
