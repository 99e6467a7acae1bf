#!/usr/bin/env bash
# Tree reuse and the node arena (issue 10): the commands of README.md (carcassonne = target/release/carcassonne,
# or `cargo install --path tournament`). Long: read README.md before running;
# a run refuses an --out folder that exists (move kept data aside first).
set -eu
carcassonne() { "${CARCASSONNE:-target/release/carcassonne}" "$@"; }
valgrind --tool=cachegrind --cache-sim=yes target/release/examples/mcts_speed 3000
cargo run --release -p carcassonne-agents --example reuse_kept -- mcts:iterations=3000,reuse=true 4
cargo run --release -p carcassonne-agents --example reuse_kept -- mcts:iterations=500,reuse=true 10
carcassonne tournament --agents mcts:iterations=300,reuse=true,mcts:iterations=300 --players 2 --games 200 --seed 31 --threads 1
carcassonne tournament --agents mcts:iterations=300,greedy --players 2 --games 1000 --seed 12 --threads 1
