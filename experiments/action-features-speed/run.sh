#!/bin/sh
# The per-action features with EndNow::effects against the reference that
# plays each placement on a copy (experiments/action-features-speed).
# Run from the repository root; CARGO_TARGET_DIR as you build.
set -e
T=${CARGO_TARGET_DIR:-target}
cargo build --release -p carcassonne --bin carcassonne --example action_features_speed --example mcts_speed
# Wall clock, both paths side by side in one process (3 runs).
for i in 1 2 3; do "$T/release/examples/action_features_speed" 4 both 2; done
# Instructions: positions only, the reference, the new path (one pass each).
for m in none copy new; do
  valgrind --tool=callgrind --callgrind-out-file="callgrind.$m" \
    "$T/release/examples/action_features_speed" 4 "$m" 2>&1 | grep Collected
done
# MCTS and greedy (what else uses the overlay): compare with a build of main.
valgrind --tool=callgrind --callgrind-out-file=callgrind.mcts \
  "$T/release/examples/mcts_speed" 1000 1 2>&1 | grep Collected
# Signatures (must equal those of main) and the bench's figure.
"$T/release/carcassonne" bench --games 2000 --rounds 3 --tournament-games 1000 \
  --ext-games 0 --selfplay-games 0 --json
