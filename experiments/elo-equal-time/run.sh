#!/usr/bin/env bash
# Elo of all agents at equal time per move: the commands of README.md (carcassonne = target/release/carcassonne,
# or `cargo install --path tournament`). Long: read README.md before running;
# a run refuses an --out folder that exists (move kept data aside first).
set -eu
carcassonne() { "${CARCASSONNE:-target/release/carcassonne}" "$@"; }
A=random,greedy,solver:tiles=1,star25,mcts:iterations=440,ismcts:iterations=440
carcassonne tournament --agents star25,mcts:iterations=1000 --games 8 --seed 3 --threads 1   # calibration
carcassonne tournament --agents $A --players 2 --games 60 --seed 82 --threads 1
carcassonne tournament --agents $A --players 3 --games 24 --seed 83 --threads 1
carcassonne tournament --agents $A --players 4 --games 24 --seed 84 --threads 1
