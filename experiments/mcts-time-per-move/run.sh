#!/usr/bin/env bash
# `mcts` against `greedy` by time per move; time controls; threads: the commands of README.md (carcassonne = target/release/carcassonne,
# or `cargo install --path tournament`). Long: read README.md before running;
# a run refuses an --out folder that exists (move kept data aside first).
set -eu
carcassonne() { "${CARCASSONNE:-target/release/carcassonne}" "$@"; }
for K in 1 2 3 4; do
  carcassonne tournament --agents mcts:iterations=66000,greedy --players 2 --games 400 --seed 71 --threads 2 --shard $K/4 --out experiments/mcts-time-per-move/shard-$K-of-4
done
carcassonne merge experiments/mcts-time-per-move/shard-{1,2,3,4}-of-4 --out experiments/mcts-time-per-move/merged
carcassonne tournament --agents mcts:iterations=6600,greedy --players 2 --games 200 --seed 61 --threads 2
carcassonne tournament --agents mcts:iterations=20000,greedy --players 2 --games 100 --seed 61 --threads 2
carcassonne tournament --agents mcts:iterations=940,threads=2,mcts:iterations=1000 --players 2 --games 400 --seed 41 --threads 2
cargo run --release -p carcassonne-agents --example time_control -- mcts:time_ms=1000 1
