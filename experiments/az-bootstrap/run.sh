#!/usr/bin/env bash
# A network bootstrapped from today's strongest search: self-play of
# `mcts:depth=0,eval=models/value-2p.json` (its root visits, with every
# legal action it never tried at 0 visits, and the games' outcomes) →
# `train-net` → `az:net=` against random, greedy and the teacher itself
# at equal time per move (paired decks, seats rotated; SPRT elo0=0,
# elo1=30 against the teacher). Writes into OUT (default
# results/az-bootstrap); models/net-2p.safetensors is OUT/net0.safetensors.
set -euo pipefail
bin=${CARCASSONNE:-target/debug/carcassonne}
out=${OUT:-results/az-bootstrap}
ms=${MS:-20}
teacher="mcts:depth=0,eval=models/value-2p.json"
mkdir -p "$out"
nice "$bin" selfplay --agent "$teacher,iterations=400" --players 2 --games 100 \
  --seed 11 --threads 2 --out "$out/selfplay-400"
nice "$bin" train-net "$out/selfplay-400" --out "$out/net0.safetensors" --epochs 4 \
  --hidden 64 --seed 1 | tee "$out/net0-train-net.txt"
net=$out/net0.safetensors
nice "$bin" tournament --agents "az:net=$net,time_ms=$ms,random" --games 40 --seed 21 \
  --threads 2 --out "$out/net0-vs-random"
nice "$bin" tournament --agents "az:net=$net,time_ms=$ms,greedy" --games 40 --seed 22 \
  --threads 2 --out "$out/net0-vs-greedy"
nice "$bin" tournament --agents "az:net=$net,time_ms=$ms,$teacher,time_ms=$ms" --games 100 \
  --seed 23 --threads 2 --sprt 0,30 --out "$out/net0-vs-teacher"
