#!/bin/sh
# experiments/az-3p-zero: the commands behind this folder (from the
# repository's root, a release build of the commit named in README.md).
set -e
C=${C:-target/release/carcassonne}
$C improve --net --no-gate --players 3 \
    --agent az:root=gumbel,iterations=64,cap_full=0.25,cap_fast=16 \
    --games-per-gen 800 --generations 10 --seed 33 --threads 2 --out results/az3p
python3 experiments/az-gumbel-cap/summarize.py results/az3p > experiments/az-3p-zero/data/table.md
cp results/az3p/gen-10/net.safetensors p10.safetensors
# Equal time against plain mcts, 3 players, on two sets of decks.
for s in 81 82; do
  $C tournament --agents "az:time_ms=20,net=p10.safetensors,mcts:time_ms=20" --players 3 \
      --games 240 --seed $s --threads 1 --out p10-vs-mcts-20ms-$s
done
