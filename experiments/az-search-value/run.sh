#!/bin/sh
# experiments/az-search-value: the commands behind this folder (from the
# repository's root, a release build of 2c4110c, the first with
# --search-value).
set -e
C=${C:-target/release/carcassonne}

# 1. The ablation on the cheap recipe: experiments/az-no-gate's ungated run
#    (seed 31, results/gumbel-cap-ungated, the control) again with the
#    search's values weighing 0.5 in the value target. The control's
#    gauntlet has no run generation of its own (it predates
#    --anchor-generation), hence `none`.
RECIPE="az:root=gumbel,iterations=64,cap_full=0.25,cap_fast=16"
$C improve --net --no-gate --agent "$RECIPE" --games-per-gen 800 --window 4 \
    --search-value 0.5 --anchor-generation none \
    --generations 16 --seed 31 --threads 1 --out results/gumbel-sv
python3 experiments/az-no-gate/compare.py control results/gumbel-cap-ungated \
    sv results/gumbel-sv > experiments/az-search-value/data/table.md
# Head to head at the gauntlet's budget (same network size: equal
# iterations are equal time), generation by generation.
A=az:root=gumbel,iterations=64,gumbel_noise=0
for k in 4 8 12 16; do
  $C tournament --agents "$A,net=results/gumbel-sv/gen-$k/net.safetensors,$A,net=results/gumbel-cap-ungated/gen-$k/net.safetensors" \
      --games 400 --seed 99 --threads 1 --out sv-vs-control-g$k
done

# 2. The 2-player run: run B's PUCT recipe (models/net-2p-zero) with twice
#    the games a generation, a window of 8, one epoch, and the search's
#    values at 0.5.
RAYON_NUM_THREADS=1 $C improve --net --no-gate --out results/az2p-sv --agent az:iterations=400 \
    --no-board --hidden 64 --generations 40 --games-per-gen 1600 --window 8 --epochs 1 \
    --temp-moves 10 --search-value 0.5 --seed 61 --threads 2
