#!/bin/sh
# experiments/az-categories: the commands behind this folder (from the
# repository's root). The control run used a release build of d0d20fa,
# the categories run one of 592c1e1 (the first with --categories); the
# two differ in nothing else a run without the head does.
set -e
C=${C:-target/release/carcassonne}
R="improve --net --no-gate --players 2 --no-features --agent az:root=gumbel,iterations=64,cap_full=0.25,cap_fast=16 --games-per-gen 800 --seed 51 --threads 1"
$C $R --generations 16 --out results/azraw
$C $R --categories --generations 13 --out results/azcat
# Head to head at the gauntlet's budget (the head costs nothing in play,
# so equal iterations are equal time), generation by generation.
A=az:root=gumbel,iterations=64,gumbel_noise=0
$C tournament --agents "$A,net=results/azcat/gen-13/net.safetensors,$A,net=results/azraw/gen-13/net.safetensors" \
    --games 300 --seed 98 --threads 1 --out cat-vs-raw
for k in 6 8 10 12 13; do
  $C tournament --agents "$A,net=results/azcat/gen-$k/net.safetensors,$A,net=results/azraw/gen-$k/net.safetensors" \
      --games 1000 --seed 99 --threads 1 --out cat-vs-raw-g$k   # gen 13: data/cat-vs-raw-b (2 threads)
done
# Each against the value-model search at equal time.
$C tournament --agents "az:net=results/azraw/gen-16/net.safetensors,time_ms=20,mcts:depth=0,eval=models/value-2p.json,time_ms=20" \
    --games 100 --seed 97 --threads 1 --out raw-vs-value
$C tournament --agents "az:net=results/azcat/gen-13/net.safetensors,time_ms=20,mcts:depth=0,eval=models/value-2p.json,time_ms=20" \
    --games 100 --seed 97 --threads 1 --out cat-vs-value
$C tournament --agents "az:net=results/azcat/gen-13/net.safetensors,time_ms=20,mcts:depth=0,eval=models/value-2p.json,time_ms=20" \
    --games 300 --seed 100 --threads 2 --out cat-vs-value-b
