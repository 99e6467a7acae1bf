#!/usr/bin/env bash
# Tuning `mcts` at fixed iterations, then at equal time: the commands of README.md (carcassonne = target/release/carcassonne,
# or `cargo install --path tournament`). Long: read README.md before running;
# a run refuses an --out folder that exists (move kept data aside first).
set -eu
carcassonne() { "${CARCASSONNE:-target/release/carcassonne}" "$@"; }
for V in "" c=0.3 c=1.2 depth=0 depth=2 depth=8 scale=10 bias=1 bias=3 k=8 depth=2,k=8 k=16; do
  carcassonne tournament --agents "mcts:iterations=500${V:+,$V},greedy" --players 2 --games 200 --seed 1
done
carcassonne tournament --agents mcts:time_ms=50,depth=2,k=8,mcts:time_ms=50 --players 2 --games 200 --seed 1
