//! Training examples held compactly: what a window of self-play
//! generations costs in memory.
//!
//! A [`Dataset`] keeps a shard's arrays as written: each action's
//! [`ACTION_FEATURES`] numbers as `f32` (204 bytes) and each position's
//! whole board window ([`BOARD_FEATURES`] bytes), though most action
//! columns are one-hot and most window cells empty. Eight generations of
//! 1,600 two-player games (908 k positions) took 21 GB that way, more
//! than the machine had beside a run. [`CompactExamples`] keeps the same
//! examples in about a fifth of that (experiments/training-memory): an action's one-hot
//! columns as a bit set and only its other columns as numbers (an action
//! whose one-hot columns hold anything but 0 and 1 keeps them all), the
//! board's non-empty cells only, and no board at all for a network that
//! does not read it.
//!
//! Training reads both through [`Examples`], which gives back the
//! numbers of the shard bit for bit (tests below), so a network trains to
//! the same weights from either.

use super::data::{Dataset, Targets};
use super::encode::{
    ACTION_FEATURES, BOARD_FEATURES, CELLS, CELL_CHANNELS, GLOBAL_FEATURES, ONE_HOT_FEATURES,
};

/// What training reads of its examples, position by position: the
/// numbers of [`Dataset`]'s arrays, however they are held.
pub trait Examples {
    /// Positions held.
    fn len(&self) -> usize;
    /// No positions.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Every position's targets and origin.
    fn targets(&self) -> &[Targets];
    /// Whether the board windows are held ([`Examples::board_into`]
    /// gives zeros otherwise).
    fn has_board(&self) -> bool {
        true
    }
    /// The actions of position `i`, as a range of action rows.
    fn action_range(&self, i: usize) -> (usize, usize);
    /// Position `i`'s board window as the network reads it (each byte
    /// over 8), appended to `out`.
    fn board_into(&self, i: usize, out: &mut Vec<f32>);
    /// Position `i`'s globals.
    fn globals(&self, i: usize) -> &[f32];
    /// The features of actions `lo..hi`, appended to `out`.
    fn actions_into(&self, lo: usize, hi: usize, out: &mut Vec<f32>);
    /// The window cells of actions `lo..hi`.
    fn cells(&self, lo: usize, hi: usize) -> &[u32];
    /// The visit shares of actions `lo..hi`.
    fn visits(&self, lo: usize, hi: usize) -> &[f32];
}

impl Examples for Dataset {
    fn len(&self) -> usize {
        self.targets.len()
    }
    fn targets(&self) -> &[Targets] {
        &self.targets
    }
    fn action_range(&self, i: usize) -> (usize, usize) {
        Dataset::action_range(self, i)
    }
    fn board_into(&self, i: usize, out: &mut Vec<f32>) {
        out.extend(
            self.board[i * BOARD_FEATURES..][..BOARD_FEATURES]
                .iter()
                .map(|&v| v as f32 / 8.0),
        );
    }
    fn globals(&self, i: usize) -> &[f32] {
        &self.globals[i * GLOBAL_FEATURES..][..GLOBAL_FEATURES]
    }
    fn actions_into(&self, lo: usize, hi: usize, out: &mut Vec<f32>) {
        out.extend_from_slice(&self.actions[lo * ACTION_FEATURES..hi * ACTION_FEATURES]);
    }
    fn cells(&self, lo: usize, hi: usize) -> &[u32] {
        &self.cells[lo..hi]
    }
    fn visits(&self, lo: usize, hi: usize) -> &[f32] {
        &self.visits[lo..hi]
    }
}

/// An action's columns after the one-hot ones.
const REST: usize = ACTION_FEATURES - ONE_HOT_FEATURES;

/// Examples held compactly (see the module doc); fill it from shards
/// with [`CompactExamples::extend`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompactExamples {
    /// Whether the board windows are kept (else [`Examples::board_into`]
    /// gives zeros: for a network that does not read the board).
    keep_board: bool,
    /// Per position, its non-empty window cells are
    /// `board_start[i]..board_start[i + 1]` of `board_cells` and
    /// `board_bytes`.
    board_start: Vec<u32>,
    board_cells: Vec<u8>,
    board_bytes: Vec<[u8; CELL_CHANNELS]>,
    globals: Vec<f32>,
    /// Per action: the one-hot columns that are 1 (bit `j`: column `j`).
    one_hot: Vec<u64>,
    /// Per action: the columns from [`ONE_HOT_FEATURES`] on.
    rest: Vec<[f32; REST]>,
    /// The actions whose one-hot columns hold anything but 0 and 1
    /// (none from the encoder), in order, with those columns.
    odd: Vec<(u32, [f32; ONE_HOT_FEATURES])>,
    cells: Vec<u32>,
    offsets: Vec<u32>,
    visits: Vec<f32>,
    targets: Vec<Targets>,
}

// The window's cells are numbered in a byte.
const _: () = assert!(CELLS <= 256);

impl CompactExamples {
    /// No examples yet; `keep_board`: whether to keep the board windows
    /// (not needed for a network that does not read them).
    pub fn new(keep_board: bool) -> CompactExamples {
        CompactExamples {
            keep_board,
            board_start: vec![0],
            offsets: vec![0],
            ..CompactExamples::default()
        }
    }

    /// Append all of `data`'s examples.
    pub fn extend(&mut self, data: &Dataset) {
        if self.offsets.is_empty() {
            // (A `Default` one.)
            self.offsets.push(0);
            self.board_start.push(0);
        }
        for i in 0..data.len() {
            if self.keep_board {
                let board = &data.board[i * BOARD_FEATURES..][..BOARD_FEATURES];
                for (c, cell) in board.chunks_exact(CELL_CHANNELS).enumerate() {
                    if cell.iter().any(|&b| b != 0) {
                        self.board_cells.push(c as u8);
                        self.board_bytes
                            .push(cell.try_into().expect("a cell's channels"));
                    }
                }
            }
            self.board_start.push(self.board_cells.len() as u32);
            self.globals
                .extend_from_slice(&data.globals[i * GLOBAL_FEATURES..][..GLOBAL_FEATURES]);
            let (lo, hi) = data.action_range(i);
            for f in data.actions[lo * ACTION_FEATURES..hi * ACTION_FEATURES]
                .chunks_exact(ACTION_FEATURES)
            {
                let (one_hot, rest) = f.split_at(ONE_HOT_FEATURES);
                // Only +0 and 1 are kept as bits (a −0 is not a +0).
                let mut bits = 0u64;
                let mut odd = false;
                for (j, &x) in one_hot.iter().enumerate() {
                    bits |= u64::from(x == 1.0) << j;
                    odd |= x.to_bits() != 0 && x != 1.0;
                }
                if odd {
                    let k = self.one_hot.len() as u32;
                    self.odd
                        .push((k, one_hot.try_into().expect("the one-hot columns")));
                }
                self.one_hot.push(bits);
                self.rest.push(rest.try_into().expect("the other columns"));
            }
            self.cells.extend_from_slice(&data.cells[lo..hi]);
            self.visits.extend_from_slice(&data.visits[lo..hi]);
            self.offsets.push(self.cells.len() as u32);
            self.targets.push(data.targets[i]);
        }
    }
}

impl Examples for CompactExamples {
    fn len(&self) -> usize {
        self.targets.len()
    }
    fn has_board(&self) -> bool {
        self.keep_board
    }
    fn targets(&self) -> &[Targets] {
        &self.targets
    }
    fn action_range(&self, i: usize) -> (usize, usize) {
        (self.offsets[i] as usize, self.offsets[i + 1] as usize)
    }
    fn board_into(&self, i: usize, out: &mut Vec<f32>) {
        let at = out.len();
        out.resize(at + BOARD_FEATURES, 0.0);
        let window = &mut out[at..];
        let (lo, hi) = (
            self.board_start[i] as usize,
            self.board_start[i + 1] as usize,
        );
        for (&c, bytes) in self.board_cells[lo..hi]
            .iter()
            .zip(&self.board_bytes[lo..hi])
        {
            let cell = &mut window[c as usize * CELL_CHANNELS..][..CELL_CHANNELS];
            for (x, &b) in cell.iter_mut().zip(bytes) {
                *x = b as f32 / 8.0;
            }
        }
    }
    fn globals(&self, i: usize) -> &[f32] {
        &self.globals[i * GLOBAL_FEATURES..][..GLOBAL_FEATURES]
    }
    fn actions_into(&self, lo: usize, hi: usize, out: &mut Vec<f32>) {
        // The odd actions from `lo` on, met in order.
        let mut odd = self.odd[self.odd.partition_point(|(k, _)| (*k as usize) < lo)..].iter();
        let mut next_odd = odd.next();
        for k in lo..hi {
            match next_odd {
                Some((at, columns)) if *at as usize == k => {
                    out.extend_from_slice(columns);
                    next_odd = odd.next();
                }
                _ => {
                    let bits = self.one_hot[k];
                    out.extend((0..ONE_HOT_FEATURES).map(|j| ((bits >> j) & 1) as f32));
                }
            }
            out.extend_from_slice(&self.rest[k]);
        }
    }
    fn cells(&self, lo: usize, hi: usize) -> &[u32] {
        &self.cells[lo..hi]
    }
    fn visits(&self, lo: usize, hi: usize) -> &[f32] {
        &self.visits[lo..hi]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::neural::data::tests::random_examples;

    /// Every number [`Examples`] gives for `data`, in order.
    fn numbers(data: &dyn Examples) -> Vec<u32> {
        let mut all = Vec::new();
        for i in 0..data.len() {
            let (lo, hi) = data.action_range(i);
            let mut x = Vec::new();
            data.board_into(i, &mut x);
            x.extend_from_slice(data.globals(i));
            data.actions_into(lo, hi, &mut x);
            x.extend_from_slice(data.visits(lo, hi));
            all.extend(x.iter().map(|v| v.to_bits()));
            all.extend_from_slice(data.cells(lo, hi));
        }
        all
    }

    #[test]
    fn compact_examples_give_the_datasets_numbers_bit_for_bit() {
        let data = random_examples(4, 3, 10, 3);
        assert!(data.board.iter().any(|&b| b != 0));
        let mut compact = CompactExamples::new(true);
        // In two parts, as shards are added one by one.
        let (a, b) = split(&data, 17);
        compact.extend(&a);
        compact.extend(&b);
        assert_eq!(compact.len(), data.len());
        assert_eq!(compact.targets(), &data.targets[..]);
        assert_eq!(numbers(&compact), numbers(&data));
        // Far smaller than the shard's arrays.
        assert!(compact.board_bytes.len() * CELL_CHANNELS * 3 < data.board.len());
    }

    #[test]
    fn odd_one_hot_columns_are_kept_as_numbers() {
        let mut data = random_examples(2, 2, 6, 5);
        // A half, a −0 and a 2 where the encoder writes 0 or 1, in
        // several actions of several positions (and a last action).
        let m = data.cells.len();
        for (k, j, x) in [(0, 3, 0.5), (1, 0, -0.0), (7, 43, 2.0), (m - 1, 10, 0.25)] {
            data.actions[k * ACTION_FEATURES + j] = x;
        }
        let mut compact = CompactExamples::new(true);
        compact.extend(&data);
        assert_eq!(compact.odd.len(), 4);
        assert_eq!(numbers(&compact), numbers(&data));
        // Ranges that start past an odd action, and inside a run of them.
        for (lo, hi) in [(1, 3), (2, 8), (8, m)] {
            let (mut got, mut want) = (Vec::new(), Vec::new());
            compact.actions_into(lo, hi, &mut got);
            data.actions_into(lo, hi, &mut want);
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&got), bits(&want), "{lo}..{hi}");
        }
    }

    #[test]
    fn without_the_board_the_window_reads_empty() {
        let data = random_examples(2, 2, 3, 7);
        let mut compact = CompactExamples::new(false);
        compact.extend(&data);
        assert!(compact.board_bytes.is_empty());
        let mut board = Vec::new();
        compact.board_into(4, &mut board);
        assert_eq!(board, vec![0.0; BOARD_FEATURES]);
        let (mut got, mut want) = (Vec::new(), Vec::new());
        compact.actions_into(0, compact.cells.len(), &mut got);
        data.actions_into(0, data.cells.len(), &mut want);
        assert_eq!(got, want);
    }

    /// A network trained on the compact examples ends with the weights
    /// it gets from the data set, bit for bit: with the board (a network
    /// that reads it) and without (one that does not).
    #[test]
    fn training_on_compact_examples_gives_the_same_weights() {
        use crate::neural::net::{Net, NetConfig};
        use crate::neural::train::{train, TrainConfig};
        let data = random_examples(3, 2, 8, 11);
        let config = TrainConfig {
            epochs: 2,
            batch: 8,
            held_out: 0.3,
            ..TrainConfig::default()
        };
        let weights = |net: &Net| -> Vec<Vec<u32>> {
            net.tensors()
                .map(|t| {
                    let v = t.flatten_all().unwrap().to_vec1::<f32>().unwrap();
                    v.iter().map(|x| x.to_bits()).collect()
                })
                .collect()
        };
        for board in [true, false] {
            let net_config = NetConfig {
                board,
                ..NetConfig::TINY
            };
            let mut compact = CompactExamples::new(board);
            compact.extend(&data);
            let mut a = Net::new(net_config, 5);
            let mut b = Net::new(net_config, 5);
            let ra = train(&mut a, &data, &config, |_, _, _| {}).unwrap();
            let rb = train(&mut b, &compact, &config, |_, _, _| {}).unwrap();
            assert_eq!(weights(&a), weights(&b), "board {board}");
            assert_eq!(ra.held_out, rb.held_out, "board {board}");
        }
        // A network that reads the board is refused examples without it.
        let mut without = CompactExamples::new(false);
        without.extend(&data);
        let mut net = Net::new(NetConfig::TINY, 5);
        const { assert!(NetConfig::TINY.board) };
        let e = train(&mut net, &without, &config, |_, _, _| {}).unwrap_err();
        assert!(matches!(e, crate::neural::TrainError::NoBoard), "{e}");
    }

    /// `data`'s first `n` positions and the others, as two data sets.
    fn split(data: &Dataset, n: usize) -> (Dataset, Dataset) {
        let mut parts = (Dataset::default(), Dataset::default());
        for i in 0..data.len() {
            let one = single(data, i);
            if i < n {
                parts.0.extend(&one);
            } else {
                parts.1.extend(&one);
            }
        }
        parts
    }

    /// Position `i` of `data` alone.
    fn single(data: &Dataset, i: usize) -> Dataset {
        let (lo, hi) = data.action_range(i);
        Dataset {
            board: data.board[i * BOARD_FEATURES..][..BOARD_FEATURES].to_vec(),
            globals: data.globals(i).to_vec(),
            actions: data.actions[lo * ACTION_FEATURES..hi * ACTION_FEATURES].to_vec(),
            cells: data.cells[lo..hi].to_vec(),
            offsets: vec![0, (hi - lo) as u32],
            visits: data.visits[lo..hi].to_vec(),
            targets: vec![data.targets[i]],
        }
    }
}
