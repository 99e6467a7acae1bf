#!/usr/bin/env bash
# The az network trained on 2,500 self-play games of today's strongest
# agent (its teacher), `mcts:depth=0,eval=models/value-2p.json`, and its
# matches at equal time against the teacher and `greedy`; then a small
# Gifts and a small 3-player network against plain `mcts`.
# Writes into OUT (default results/az-teacher-data); the example shards
# are ≈ 1.7 MB a game (≈ 4.3 GB for the 2,500 games): delete them after.
# BIN: the binary (default target/release/carcassonne).
set -euo pipefail
bin=${BIN:-target/release/carcassonne}
out=${OUT:-results/az-teacher-data}
teacher="mcts:depth=0,eval=models/value-2p.json"
mkdir -p "$out"
run() { nice -n 5 "$bin" "$@"; }

# 1. Teacher self-play: 5 chunks of 500 games (seeds 101–105).
for s in 101 102 103 104 105; do
  run selfplay --agent "$teacher,iterations=400" --players 2 --games 500 \
    --seed "$s" --threads 2 --out "$out/sp-$s"
done

# 2. Training: trial networks on the first 1,000 games, then the full one.
export RAYON_NUM_THREADS=1
run train-net "$out/sp-101" --out "$out/trial-101-h64.safetensors" \
  --hidden 64 --epochs 2 --seed 1 | tee "$out/trial-101-h64.txt"
run train-net "$out/sp-101" "$out/sp-102" --out "$out/t1k-h32.safetensors" \
  --hidden 32 --epochs 2 --seed 1 | tee "$out/t1k-h32.txt"
run train-net "$out/sp-101" "$out/sp-102" --out "$out/t1k-h64-wd01.safetensors" \
  --hidden 64 --epochs 2 --weight-decay 0.1 --seed 1 | tee "$out/t1k-h64-wd01.txt"
net=$out/n2500-h32-e1.safetensors
run train-net "$out"/sp-10{1,2,3,4,5} --out "$net" --hidden 32 --epochs 1 --seed 1 \
  | tee "$out/n2500-h32-e1.txt"

# 3. Matches at 20 ms a move for both sides (paired decks, seats rotated).
for n in models/net-2p.safetensors "$out/t1k-h32.safetensors" "$net"; do
  b=$(basename "$n" .safetensors)
  run tournament --agents "az:net=$n,time_ms=20,$teacher,time_ms=20" --games 200 \
    --seed 23 --threads 2 --sprt 0,30 --out "$out/$b-vs-teacher"
done
for n in models/net-2p.safetensors "$net"; do
  b=$(basename "$n" .safetensors)
  run tournament --agents "az:net=$n,time_ms=20,greedy" --games 40 --seed 22 \
    --threads 2 --out "$out/$b-vs-greedy"
done
# Equal iterations instead of equal time (is the network better per node?).
run tournament --agents "az:net=$out/t1k-h32.safetensors,iterations=400,$teacher,iterations=400" \
  --games 40 --seed 24 --threads 1 --out "$out/t1k-h32-vs-teacher-400it"

# 4. The Gifts and 3 players: plain `mcts` data, a small network, a match
#    against plain `mcts` at 20 ms a move.
run selfplay --agent mcts:iterations=400 --players 2 --gifts --games 200 --seed 201 \
  --threads 2 --out "$out/sp-gifts-201"
run train-net "$out/sp-gifts-201" --out "$out/gifts-h32.safetensors" --hidden 32 --epochs 2 \
  --seed 1 | tee "$out/gifts-h32.txt"
run tournament --agents "az:net=$out/gifts-h32.safetensors,time_ms=20,mcts:time_ms=20" --gifts \
  --games 40 --seed 31 --threads 2 --out "$out/gifts-h32-vs-mcts"
run selfplay --agent mcts:iterations=400 --players 3 --games 201 --seed 301 --threads 2 \
  --out "$out/sp-3p-301"
run train-net "$out/sp-3p-301" --out "$out/3p-h32.safetensors" --hidden 32 --epochs 2 \
  --seed 1 | tee "$out/3p-h32.txt"
run tournament --agents "az:net=$out/3p-h32.safetensors,time_ms=20,mcts:time_ms=20" --players 3 \
  --games 42 --seed 32 --threads 2 --out "$out/3p-h32-vs-mcts"
