#!/usr/bin/env bash
# Strength of the research agents at small budgets: the commands of README.md (carcassonne = target/release/carcassonne,
# or `cargo install --path tournament`). Long: read README.md before running;
# a run refuses an --out folder that exists (move kept data aside first).
set -eu
carcassonne() { "${CARCASSONNE:-target/release/carcassonne}" "$@"; }
# Each row of the table is one of these (2 players, paired decks).
carcassonne tournament --agents mcts,greedy --players 2 --games 200 --seed 1
carcassonne tournament --agents mcts,greedy --players 2 --games 200 --seed 1 --gifts
carcassonne tournament --agents ismcts:iterations=300,mcts:iterations=300 --players 2 --games 3000 --seed 51 --gifts --sprt 0,20 --threads 2
carcassonne tournament --agents mcts:iterations=440,star25 --players 2 --games 400 --seed 81 --threads 1
for S in 85 86; do carcassonne tournament --agents mcts:iterations=19000,star25:depth=3 --players 2 --games 60 --seed $S --threads 1; done
carcassonne tournament --agents mcts:iterations=300,solver_tiles=1,mcts:iterations=300 --players 2 --games 100 --seed 1 --threads 2
