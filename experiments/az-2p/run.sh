#!/bin/sh
# experiments/az-2p: the commands behind this folder, from the
# repository's root with a release build of 2c4110c (the run; the
# matches' agents play the same with any later build: nothing in the
# search or the forward pass changed since).
set -e
C=${C:-target/release/carcassonne}

# 1. The run (experiments/az-search-value, part 2): run B's PUCT recipe
#    (models/net-2p-zero) with twice the games a generation, a window of
#    8, one epoch, the search's values at 0.5 in the value target;
#    ungated, from random weights. Stopped and resumed between sessions
#    (`--resume results/az2p-sv --generations 40`): a resumed run trains
#    what the unbroken one does.
RAYON_NUM_THREADS=1 $C improve --net --no-gate --out results/az2p-sv --agent az:iterations=400 \
    --no-board --hidden 64 --generations 40 --games-per-gen 1600 --window 8 --epochs 1 \
    --temp-moves 10 --search-value 0.5 --seed 61 --threads 2
python3 experiments/az-search-value/run_table.py results/az2p-sv > experiments/az-2p/data/table.md

# 2. At equal time against the shipped net-2p-zero, both PUCT with the
#    same spec: SPRT (0, 30) up to 400 games on paired decks.
for k in 9; do
  $C tournament --agents "az:time_ms=20,net=results/az2p-sv/gen-$k/net.safetensors,az:time_ms=20,net=models/net-2p-zero.safetensors" \
      --games 400 --sprt 0,30 --seed 72 --threads 1 --out experiments/az-2p/data/g$k-vs-zero-20ms
done
