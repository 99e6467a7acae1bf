#!/bin/sh
# experiments/az-gifts-zero: the commands behind this folder (from the
# repository's root, a release build of the commit named in README.md).
set -e
C=${C:-target/release/carcassonne}
$C improve --net --no-gate --players 2 --gifts \
    --agent az:root=gumbel,iterations=64,cap_full=0.25,cap_fast=16 \
    --games-per-gen 800 --generations 15 --seed 41 --threads 1 --out results/azgifts
python3 experiments/az-gumbel-cap/summarize.py results/azgifts > experiments/az-gifts-zero/data/table.md
cp results/azgifts/gen-14/net.safetensors az-gifts.safetensors
# Equal time against plain mcts with The Gifts: an SPRT, then a fixed
# match on other decks.
$C tournament --agents "az:net=az-gifts.safetensors,time_ms=20,mcts:time_ms=20" --gifts \
    --games 600 --seed 93 --threads 1 --sprt 0,30 --out gifts-a
$C tournament --agents "az:net=az-gifts.safetensors,time_ms=20,mcts:time_ms=20" --gifts \
    --games 400 --seed 94 --threads 1 --out gifts-b
$C tournament --agents "az:net=az-gifts.safetensors,time_ms=100,mcts:time_ms=100" --gifts \
    --games 100 --seed 96 --threads 1 --out gifts-100ms
# Against the bootstrapped Gifts network at its best setting.
$C tournament --agents "az:net=az-gifts.safetensors,time_ms=20,az:net=models/net-gifts.safetensors,lead=0.5,time_ms=20" \
    --gifts --games 200 --seed 95 --threads 1 --out gifts-vs-net-gifts
