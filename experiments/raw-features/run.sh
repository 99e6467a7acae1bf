#!/usr/bin/env bash
# The hand-made position features as a network's inputs, ablated on the
# same teacher data (issue 43): three networks trained on one self-play
# data set of the value-model search, differing only in what the trunk
# reads, then matched at equal iterations on paired decks.
#
#   experiments/raw-features/run.sh BINARY OUT
set -euo pipefail
bin=$1
out=$2
mkdir -p "$out"
teacher="mcts:depth=0,eval=models/value-2p.json,iterations=400"
[ -d "$out/data" ] || "$bin" selfplay --agent "$teacher" --games 600 --seed 43 --out "$out/data" > "$out/selfplay.txt"
train() { # name, flags…
    local name=$1; shift
    [ -f "$out/$name.safetensors" ] || "$bin" train-net "$out/data" --out "$out/$name.safetensors" \
        --hidden 64 --epochs 8 --seed 7 "$@" > "$out/train-$name.txt"
}
train features --no-board                # the 40 position features, no board (net-2p's inputs)
train raw --no-features                  # the board window and the raw counts, no position features
train counts --no-board --no-features    # the raw counts alone (a floor)
match() { # name, agents
    [ -d "$out/$1" ] || "$bin" tournament --agents "$2" --games 200 --seed 44 --out "$out/$1" > "$out/$1.txt"
}
az() { echo "az:net=$out/$1.safetensors,iterations=200"; }
match raw-vs-features "$(az raw),$(az features)"
match counts-vs-features "$(az counts),$(az features)"
match raw-vs-greedy "$(az raw),greedy"
