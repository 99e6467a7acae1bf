#!/usr/bin/env bash
# The az pipeline end to end on a tiny budget: self-play with the
# uninformed search (uniform priors, zero values), a small network trained
# on it, and that network's search against random and greedy, beside the
# uninformed search against random. Writes into OUT (default: results/az-first-network).
set -euo pipefail
bin=${CARCASSONNE:-target/release/carcassonne}
out=${OUT:-results/az-first-network}
mkdir -p "$out"
"$bin" selfplay --agent az:iterations=100 --games 60 --seed 2 --out "$out/selfplay"
"$bin" train-net "$out/selfplay" --out "$out/net.safetensors" --epochs 3 --hidden 64 --seed 1 | tee "$out/train-net.txt"
net=$out/net.safetensors
"$bin" tournament --agents "az:net=$net,iterations=50,random" --games 100 --seed 3 --out "$out/net-vs-random"
"$bin" tournament --agents "az:net=$net,iterations=50,greedy" --games 100 --seed 4 --out "$out/net-vs-greedy"
"$bin" tournament --agents "az:iterations=50,random" --games 100 --seed 3 --out "$out/uniform-vs-random"
