#!/bin/sh
# experiments/az-no-gate: the commands behind this folder (from the
# repository's root, a release build of the commit named in README.md).
set -e
C=${C:-target/release/carcassonne}
RECIPE="az:root=gumbel,iterations=64,cap_full=0.25,cap_fast=16"

# The ungated run (the gated one is experiments/az-gumbel-cap's, same seed).
$C improve --net --no-gate --agent "$RECIPE" --games-per-gen 800 \
    --generations 40 --seed 31 --threads 2 --out results/gumbel-cap-ungated
python3 experiments/az-no-gate/compare.py gated results/gumbel-cap \
    ungated results/gumbel-cap-ungated > experiments/az-no-gate/data/table.md

# Equal time against the shipped network (PUCT search, 20 ms a move):
# gated generations 13 and 18, ungated generation 13 (u13).
cp results/gumbel-cap-ungated/gen-13/net.safetensors u13.safetensors
for g in g13 g18 u13; do
  [ -f $g.safetensors ] || cp results/gumbel-cap/gen-${g#g}/net.safetensors $g.safetensors
  $C tournament --agents "az:time_ms=20,net=$g.safetensors,az:time_ms=20,net=models/net-2p-zero.safetensors" \
      --games 200 --seed 71 --threads 1 --out $g-vs-zero-20ms
done

# Capacity: networks 64 and 256 wide from random weights on the gated
# run's window at generation 17 (the example shards of generations 15-17,
# copied before pruning removed them), 10 epochs.
for h in 64 256; do
  $C train-net data/gen-15 data/gen-16 data/gen-17 --no-board --hidden $h \
      --epochs 10 --seed 5 --out h$h.safetensors > train-h$h.txt
done
