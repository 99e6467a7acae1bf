#!/bin/sh
# experiments/az-2p-raw: the commands behind this folder, from the
# repository's root. The first run (experiments/az-categories, `raw`)
# used a release build of d0d20fa; the second run a release build of
# 23bd501; the matches a release build of 4260dd0 (the first that does
# not compute the position features for a network that does not read
# them: the same moves at equal iterations, more iterations at equal time).
set -e
C=${C:-target/release/carcassonne}

# 1. From random weights, no hand-made features, the cheap Gumbel + cap
#    recipe: 16 generations (experiments/az-categories, run.sh).
RAYON_NUM_THREADS=1 $C improve --net --no-gate --players 2 --no-features \
    --agent az:root=gumbel,iterations=64,cap_full=0.25,cap_fast=16 --games-per-gen 800 \
    --seed 51 --threads 1 --generations 16 --out results/azraw

# 2. Its generation 16 goes on with the recipe of models/az-2p (PUCT 400
#    iterations, 1,600 games a generation, window 8, one epoch, search
#    values 0.5); the gauntlet is the value-model search alone.
RAYON_NUM_THREADS=1 $C improve --net --no-gate --out results/azraw-sv \
    --init results/azraw/gen-16/net.safetensors --agent az:iterations=400 --generations 40 \
    --games-per-gen 1600 --window 8 --epochs 1 --temp-moves 10 --search-value 0.5 --seed 63 \
    --threads 2 --anchors "mcts:depth=0,eval=models/value-2p.json" --gauntlet-games 100 \
    --anchor-generation none
