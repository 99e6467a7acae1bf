#!/usr/bin/env bash
# Self-play learning: evidence for `selfplay` → `train` → `eval=` → `improve`: the commands of README.md (carcassonne = target/release/carcassonne,
# or `cargo install --path tournament`). Long: read README.md before running;
# a run refuses an --out folder that exists (move kept data aside first).
set -eu
carcassonne() { "${CARCASSONNE:-target/release/carcassonne}" "$@"; }
carcassonne selfplay --agent greedy --games 300 --players 2 --seed 1 --threads 2 --out results/ev/sp-greedy
carcassonne train results/ev/sp-greedy --out results/ev/model.json
carcassonne tournament --agents "mcts:time_ms=10,depth=0,eval=results/ev/model.json" --agents mcts:time_ms=10 --players 2 --games 400 --seed 1 --threads 2 --sprt 0,30
carcassonne tournament --agents "greedy:eval=results/ev/model.json" --agents greedy --players 2 --games 100 --seed 2
carcassonne improve --agent greedy --generations 3 --games-per-gen 100 --match-games 200 --seed 1 --threads 1 --out results/ev/improve
