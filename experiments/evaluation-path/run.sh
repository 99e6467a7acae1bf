#!/usr/bin/env bash
# The evaluation path (issue 10): scoring many moves of one position: the commands of README.md (carcassonne = target/release/carcassonne,
# or `cargo install --path tournament`). Long: read README.md before running;
# a run refuses an --out folder that exists (move kept data aside first).
set -eu
carcassonne() { "${CARCASSONNE:-target/release/carcassonne}" "$@"; }
B=/work/wt-baseline/target/release   # 6a347b9
for r in 1 2 3 4 5; do
  $B/examples/mcts_speed; target/release/examples/mcts_speed
  for D in $B target/release; do
    time $D/carcassonne tournament --agents greedy,greedy --games 100 --threads 1 --seed 1 --out "$(mktemp -d)/gg"
  done
  $B/carcassonne bench --json --games 2000 --rounds 3 --tournament-games 0
  target/release/carcassonne bench --json --games 2000 --rounds 3 --tournament-games 0 --ext-games 0
done
valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes target/release/examples/mcts_speed
