#!/usr/bin/env bash
# The strongest agent: `mcts` with the shipped value model at the leaves: the commands of README.md (carcassonne = target/release/carcassonne,
# or `cargo install --path tournament`). Long: read README.md before running;
# a run refuses an --out folder that exists (move kept data aside first).
set -eu
carcassonne() { "${CARCASSONNE:-target/release/carcassonne}" "$@"; }
M=models/value-2p.json
carcassonne tournament --agents "mcts:iterations=4400,eval=$M",greedy --players 2 --games 400 --seed 71 --threads 1 --out experiments/value-model-mcts/0.1s
for K in 1 2 3 4; do
  carcassonne tournament --agents "mcts:iterations=44000,eval=$M",greedy --players 2 --games 400 --seed 71 --threads 1 --shard $K/4 --out experiments/value-model-mcts/1s-shard-$K-of-4
done
carcassonne merge experiments/value-model-mcts/1s-shard-{1,2,3,4}-of-4 --out experiments/value-model-mcts/1s-merged
carcassonne tournament --agents "mcts:iterations=2000,eval=$M",mcts:iterations=2000 --players 2 --games 200 --seed 5 --threads 2 --out experiments/value-model-mcts/rules/base2p
carcassonne tournament --agents "mcts:iterations=2000,eval=$M",mcts:iterations=2000,greedy --players 3 --games 150 --seed 5 --threads 2 --out experiments/value-model-mcts/rules/3p
carcassonne tournament --agents "mcts:iterations=2000,eval=$M",mcts:iterations=2000 --players 2 --gifts --games 200 --seed 5 --threads 2 --out experiments/value-model-mcts/rules/gifts
