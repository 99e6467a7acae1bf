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
#    same spec: SPRT (0, 30) up to 400 games on paired decks, then a
#    fixed 400-game match on other decks.
N=results/az2p-sv/gen-10/net.safetensors
Z=models/net-2p-zero.safetensors
$C tournament --agents "az:time_ms=20,net=results/az2p-sv/gen-9/net.safetensors,az:time_ms=20,net=$Z" \
    --games 400 --sprt 0,30 --seed 72 --threads 1 --out experiments/az-2p/data/g9-vs-zero-20ms
$C tournament --agents "az:time_ms=20,net=$N,az:time_ms=20,net=$Z" \
    --games 400 --sprt 0,30 --seed 74 --threads 1 --out experiments/az-2p/data/g10-vs-zero-20ms
$C tournament --agents "az:time_ms=20,net=$N,az:time_ms=20,net=$Z" \
    --games 400 --seed 76 --threads 1 --out experiments/az-2p/data/g10-vs-zero-20ms-400
$C tournament --agents "az:time_ms=100,net=$N,az:time_ms=100,net=$Z" \
    --games 400 --sprt 0,30 --seed 75 --threads 2 --out experiments/az-2p/data/g10-vs-zero-100ms
$C tournament --agents "az:time_ms=100,net=$N,az:time_ms=100,net=$Z" \
    --games 400 --seed 77 --threads 1 --out experiments/az-2p/data/g10-vs-zero-100ms-400
# Against the value-model search at 100 ms a move.
$C tournament --agents "az:time_ms=100,net=$N,mcts:depth=0,eval=models/value-2p.json,time_ms=100" \
    --games 200 --seed 78 --threads 1 --out experiments/az-2p/data/g10-vs-value-100ms
$C tournament --agents "az:time_ms=100,net=$N,mcts:depth=0,eval=models/value-2p.json,time_ms=100" \
    --games 200 --seed 79 --threads 1 --out experiments/az-2p/data/g10-vs-value-100ms-b

# 3. Tried: a last, slower pass over generation 10's window (learning
#    rate 2e-4, 2 epochs, from generation 10's weights), head to head at
#    equal iterations (equal time: the same network size).
mkdir -p data && for k in 3 4 5 6 7 8 9 10; do ln -s ../results/az2p-sv/gen-$k/selfplay/examples data/gen-$k; done
$C train-net --init $N --lr 0.0002 --epochs 2 --search-value 0.5 --seed 7 \
    --out g10-anneal.safetensors data/gen-3 data/gen-4 data/gen-5 data/gen-6 data/gen-7 data/gen-8 data/gen-9 data/gen-10
$C tournament --agents "az:iterations=400,net=g10-anneal.safetensors,az:iterations=400,net=$N" \
    --games 400 --seed 73 --threads 1 --out experiments/az-2p/data/g10-anneal-vs-g10
