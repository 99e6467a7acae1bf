#!/bin/sh
# analyze-game over 20 games of greedy vs mcts:iterations=1000 (issue 46).
# Usage: run.sh CARCASSONNE_BINARY OUT_DIR  (run from the repository root)
set -eu
B=${1:-carcassonne}
OUT=${2:-experiments/analyze-greedy-vs-mcts/data}
mkdir -p "$OUT/analysis"
$B tournament --agents greedy,mcts:iterations=1000 --games 20 --players 2 --seed 46 --records --out "$OUT/run"
for g in $(seq 0 19); do
  $B analyze-game "$OUT/run/records.jsonl" --game "$g" \
    --agent mcts:iterations=2000,eval=models/value-2p.json --seed 46 \
    --out "$OUT/analysis/game-$g.json" --csv "$OUT/analysis/game-$g.csv"
done
