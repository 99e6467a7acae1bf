#!/bin/sh
# experiments/az-ablations: policy-surprise weighting and the playout cap,
# each switched off against the Gumbel + cap recipe of models/az-3p and
# az-gifts, 2 players, from random weights, the same seed. From the
# repository's root with a release build of 4260dd0.
set -e
C=${C:-target/release/carcassonne}
R="improve --net --no-gate --games-per-gen 800 --window 4 --epochs 2 --seed 71 --threads 1 \
   --anchors greedy --gauntlet-games 20 --anchor-generation none"
CAP="az:root=gumbel,iterations=64,cap_full=0.25,cap_fast=16"
export RAYON_NUM_THREADS=1
$C $R --agent $CAP --surprise 0 --generations 20 --out results/abl/surprise-off
$C $R --agent $CAP --surprise 0.5 --generations 20 --out results/abl/surprise-on
$C $R --agent az:root=gumbel,iterations=64 --generations 10 --out results/abl/cap-off
# (the surprise runs were made with --generations 10, then
#  `improve --net --resume DIR --generations 20`: a resumed run trains
#  what the unbroken one does.)

# Head to head at the matches' budget (equal iterations: the options cost
# nothing in play), paired decks, seat rotation, 1000 games.
A="az:root=gumbel,iterations=64,gumbel_noise=0"
for k in 5 10 20; do
  $C tournament --agents "$A,net=results/abl/surprise-on/gen-$k/net.safetensors,$A,net=results/abl/surprise-off/gen-$k/net.safetensors" \
      --games 1000 --seed 301 --threads 1 --out experiments/az-ablations/data/surprise-on-vs-off-g$k
done
# The cap off at equal CPU: its generation K against the capped run's
# generation of about the same CPU-seconds (generations.csv, cpu_s summed).
