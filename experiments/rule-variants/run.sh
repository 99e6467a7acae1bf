#!/usr/bin/env bash
# What the rule variants and a hand of tiles do: the commands of README.md (carcassonne = target/release/carcassonne,
# or `cargo install --path tournament`). Long: read README.md before running;
# a run refuses an --out folder that exists (move kept data aside first).
set -eu
carcassonne() { "${CARCASSONNE:-target/release/carcassonne}" "$@"; }
for R in final_incomplete=false hole_bonus=true start_in_bag=true table=9x9 table=9x9,table_closes=true table=7x7,unplaceable=return table=7x7,table_closes=true,unplaceable=return; do
  carcassonne tournament --agents greedy,random --games 400 --seed 11 --rules $R
  carcassonne tournament --agents mcts:iterations=30,greedy --games 100 --seed 11 --rules $R
done
for R in hand=1 hand=3 hand=3,hand_visible=true; do
  carcassonne tournament --agents greedy,random --games 200 --seed 1 --rules $R
  carcassonne tournament --agents mcts:iterations=100,greedy --games 40 --seed 1 --rules $R
done
