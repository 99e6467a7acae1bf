# Training cases of issue 41 (item 4, and `train F F` of item 5) for
# scripts/fault-test (sourced; needs python3, mkfifo, truncate): shards of
# NaN, infinite or implausible examples, a shard given twice, networks of
# NaN weights or that overflow, FIFOs and a 2 GB sparse file where a
# shard, a network or a value model is read. Every case must be refused
# in one line, in seconds, with nothing written.
TENSORS="$ROOT/scripts/fault-test.d/tensors.py"
TRAIN_DATA="$WORK/train-selfplay"
TRAIN_NET="$WORK/train-net.safetensors"

# A self-play folder of 2 short searched games (made once; callers run in
# subshells, so the path is fixed): its examples/ hold one shard per game.
train_data() {
    [ -d "$TRAIN_DATA" ] || "$BIN" selfplay --agent mcts:iterations=20 --games 2 --seed 3 \
        --out "$TRAIN_DATA" >/dev/null 2>&1
    echo "$TRAIN_DATA"
}

# The first shard of train_data.
train_shard() { ls "$(train_data)"/examples/*.safetensors | head -1; }

# A small network trained on train_data (made once).
train_net() {
    [ -f "$TRAIN_NET" ] || "$BIN" train-net "$(train_data)" --out "$TRAIN_NET" --epochs 1 \
        --hidden 8 --holdout 0 >/dev/null 2>&1
    echo "$TRAIN_NET"
}

# train-net on a copy of the shard with edit $2 must fail naming $1 and
# write nothing.
bad_shard() {
    local needle=$1 edit=$2 s out
    s=$(fresh bad).safetensors; out=$(fresh net).safetensors
    [ -f "$(train_shard)" ] || { WHY="no shard to edit (self-play failed)"; return 1; }
    python3 "$TENSORS" "$(train_shard)" "$s" "$edit" || { WHY="cannot edit the shard"; return 1; }
    expect_err "$needle" timeout 60 "$BIN" train-net "$s" --out "$out" --epochs 1 --hidden 8 \
        || { WHY="$edit: $WHY"; return 1; }
    [ ! -e "$out" ] || { WHY="$edit: a network was written"; return 1; }
}

case_train_nan_shards() {
    bad_shard "visits" "visits[0]=nan" || return 1
    bad_shard "visits" "visits[1]=inf" || return 1
    bad_shard "globals" "globals[170]=nan" || return 1
    bad_shard "actions" "actions[3]=-inf" || return 1
    bad_shard "score" "score[0]=nan" || return 1
    bad_shard "outcome" "outcome[1]=nan" || return 1
}

case_train_implausible_shards() {
    bad_shard "visits" "visits[0]=-1" || return 1
    bad_shard "score" "score[0]=1e30" || return 1
    bad_shard "players" "players[0]=0" || return 1
    bad_shard "metadata says players" "meta:players=3" || return 1
    bad_shard "metadata's rules" "meta:rules=gifts=true" || return 1
}

case_train_seven_players() {
    bad_shard "not 2 to 6" "players=7" || return 1
    bad_shard "not 2 to 6" "players=1000" || return 1
}

case_train_duplicate_shard() {
    local s d c
    s=$(train_shard); d=$(train_data)
    [ -f "$s" ] || { WHY="no shard"; return 1; }
    expect_err "given twice" "$BIN" train-net "$s" "$s" --out "$(fresh n)" || return 1
    expect_err "given twice" "$BIN" train-net "$d" "$s" --out "$(fresh n)" || return 1
    c=$(fresh copy).safetensors; cp "$s" "$c"
    expect_err "a copy of that shard" "$BIN" train-net "$s" "$c" --out "$(fresh n)" || return 1
}

case_train_fifo() {
    local f n m
    f=$(fresh fifo).safetensors; mkfifo "$f"
    expect_err "FIFO" timeout 20 "$BIN" train-net "$f" --out "$(fresh n)" || return 1
    n=$(train_net)
    [ -f "$n" ] || { WHY="no network (train-net failed)"; return 1; }
    expect_err "FIFO" timeout 20 "$BIN" train-net "$(train_data)" --init "$f" \
        --out "$(fresh n)" --epochs 1 || return 1
    expect_err "FIFO" timeout 20 "$BIN" play --agents "az:net=$f,random" --out "$(fresh g).json" || return 1
    m=$(fresh model).json; mkfifo "$m"
    expect_err "FIFO" timeout 20 "$BIN" play --agents "greedy:eval=$m,random" --out "$(fresh g).json" || return 1
    m=$(fresh fifo-sp); mkdir -p "$m"; mkfifo "$m/positions.csv"
    expect_err "FIFO" timeout 20 "$BIN" train "$m" --out "$(fresh model).json" || return 1
}

case_train_sparse_2gb() {
    local s
    s=$(fresh sparse).safetensors; truncate -s 2G "$s"
    expect_err "cap" timeout 20 "$BIN" train-net "$s" --out "$(fresh n)" || return 1
    if [ -x /usr/bin/time ]; then
        # Refused by its size: not read (c654257 read it whole, 2.1 GB RSS).
        /usr/bin/time -o "$WORK/rss" -f %M "$BIN" train-net "$s" --out "$(fresh n)" >/dev/null 2>&1
        [ "$(tail -1 "$WORK/rss")" -lt 200000 ] || { WHY="$(tail -1 "$WORK/rss") KB resident"; return 1; }
    fi
    expect_err "cap" timeout 20 "$BIN" play --agents "az:net=$s,random" --out "$(fresh g).json" || return 1
    s=$(fresh sparse).json; truncate -s 2G "$s"
    expect_err "cap" timeout 20 "$BIN" play --agents "greedy:eval=$s,random" --out "$(fresh g).json" || return 1
}

case_train_nan_network() {
    local n bad
    n=$(train_net)
    [ -f "$n" ] || { WHY="no network (train-net failed)"; return 1; }
    bad=$(fresh nan).safetensors
    python3 "$TENSORS" "$n" "$bad" "trunk2.weight[5]=nan"
    expect_err "finite" "$BIN" play --agents "az:net=$bad,random" --out "$(fresh g).json" || return 1
    expect_err "finite" "$BIN" train-net "$(train_data)" --init "$bad" \
        --out "$(fresh n)" --epochs 1 || return 1
}

case_train_overflowing_network() {
    local n bad
    n=$(train_net)
    [ -f "$n" ] || { WHY="no network (train-net failed)"; return 1; }
    bad=$(fresh huge).safetensors
    # Finite weights whose products overflow f32 in the trunk.
    python3 "$TENSORS" "$n" "$bad" "trunk1.weight=1e30"
    expect_err "overflows in its forward pass" "$BIN" play --agents "az:net=$bad,random" --out "$(fresh g).json" || return 1
}

case_train_diverging_network_not_written() {
    local out
    out=$(fresh div).safetensors
    expect_err "cannot be trusted" "$BIN" train-net "$(train_data)" --out "$out" --epochs 3 \
        --hidden 8 --holdout 0 --lr 1e30 || return 1
    [ ! -e "$out" ] && [ ! -e "$out.tmp" ] || { WHY="a network was written"; return 1; }
}

case_train_linear_twice() {
    local d c
    d=$(train_data)
    expect_err "given twice" "$BIN" train "$d" "$d" --out "$(fresh m).json" --holdout 0 || return 1
    expect_err "given twice" "$BIN" train "$d" "$d/." --out "$(fresh m).json" --holdout 0 || return 1
    c=$(fresh copy); cp -r "$d" "$c"
    expect_err "a copy of that folder" "$BIN" train "$d" "$c" --out "$(fresh m).json" --holdout 0 || return 1
}
