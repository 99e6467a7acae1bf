#!/usr/bin/env bash
# The variants study of issue 44: for the base game, The Gifts and the
# seed's house rules (RULES.md §8), with 2 to 5 players, a tournament of
# greedy against mcts:iterations=200 (seat rotation, every deck played
# under every seating), then
#   carcassonne analyze  — first-seat advantage, the deck's share of the
#                          variance, game length, points by category;
#   carcassonne ratings  — mcts's Elo over greedy, one ladder per folder
#                          (rules and player counts are never pooled).
# Usage: experiments/variants-study/run.sh [CARCASSONNE] [OUT]
set -euo pipefail
bin=${1:-target/release/carcassonne}
out=${2:-results/variants-study}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
variants=(standard gifts=true final_incomplete=false hole_bonus=true start_in_bag=true "table=9x9,table_closes=true" hand=2)
# --games per seating: about 600 games at every player count (2 seats:
# 600; 3: x3; 4: x3; 5: x10 seatings of the two agents).
declare -A games=([2]=600 [3]=200 [4]=200 [5]=60)
folders=()
for rules in "${variants[@]}"; do
    for p in 2 3 4 5; do
        name="${rules//[=,]/-}-${p}p"
        args=(--agents greedy,mcts:iterations=200 --players "$p" --games "${games[$p]}" --seed 44 --threads 2)
        [ "$rules" = standard ] || args+=(--rules "$rules")
        if [ ! -f "$out/$name/summary.csv" ]; then
            "$bin" tournament "${args[@]}" --out "$out/$name" >/dev/null
        fi
        rm -rf "$out/$name-ratings"
        "$bin" ratings "$out/$name" --anchor greedy=0 --out "$out/$name-ratings" >/dev/null
        folders+=("$out/$name")
    done
done
rm -rf "$out/analysis"
"$bin" analyze "${folders[@]}" --out "$out/analysis" >/dev/null
python3 "$here/summarize.py" "$out" >"$out/table.md"
cat "$out/table.md"
