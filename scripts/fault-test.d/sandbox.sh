# Sandbox and bots-file cases of issue 41 for scripts/fault-test (sourced;
# needs python3). The sandbox cases need bubblewrap: without it each one
# prints why it is skipped and holds (there is nothing to escape from).
ESCAPE="$ROOT/tournament/tests/bots/escape.py"

# bwrap usable here, or say why not.
sandbox_or_skip() {
    if ! command -v bwrap >/dev/null; then
        echo "skip   $1: bubblewrap (bwrap) is not installed" >&2; return 1
    fi
    if ! bwrap --unshare-all --ro-bind / / true 2>/dev/null; then
        echo "skip   $1: bwrap cannot create namespaces here" >&2; return 1
    fi
}

# The test bots in a folder every user may read (as root the bot runs as
# an unprivileged user).
readable_bots() {
    local d=$WORK/bots-readable
    mkdir -p "$d" && chmod 755 "$d" "$WORK"
    cp "$ESCAPE" "$ROOT/tournament/tests/bots/misbehave.py" "$d/" && chmod 644 "$d"/*.py
    echo "$d"
}

# A sandboxed escape.py run into $1 with extra spec limits $2, trying to
# start $3 processes; the probe lines of its logs on stdout.
escape_probes() {
    local out=$1 limits=$2 procs=$3 bots
    bots=$(readable_bots)
    timeout 120 "$BIN" tournament --games 2 --threads 1 --out "$out" --agents \
        "ext:sandbox=true,${limits}cmd=python3 $bots/escape.py results=$out other=$bots/misbehave.py canary=x port=1 mem=8192 procs=$procs",random \
        >/dev/null 2>&1 || { WHY="the run failed"; return 1; }
    cat "$out"/bots/*.log | grep '^probe '
}

case_sandbox_holds_as_root() {
    sandbox_or_skip sandbox_holds_as_root || return 0
    local probes p
    # The default limit is 256 processes: 300 must fail.
    probes=$(escape_probes "$(fresh sbx)" "" 300) || return 1
    for p in root capabilities proc_sys processes results other_bot; do
        if echo "$probes" | grep -q "^probe $p open"; then WHY="$p: open"; return 1; fi
        echo "$probes" | grep -q "^probe $p blocked" || { WHY="$p: not probed"; return 1; }
    done
}

case_sandbox_process_limit_is_a_parameter() {
    sandbox_or_skip sandbox_process_limit_is_a_parameter || return 0
    local probes
    probes=$(escape_probes "$(fresh sbx)" "nproc=400," 300) || return 1
    echo "$probes" | grep -q "^probe processes open" || { WHY="nproc=400 did not allow 300"; return 1; }
}

case_sandbox_refuses_root_and_system_binds() {
    sandbox_or_skip sandbox_refuses_root_and_system_binds || return 0
    local bots arg
    bots=$(readable_bots)
    for arg in / /etc /etc/shadow /proc/1 /root; do
        expect_err "would be given $arg (" "$BIN" tournament --games 2 --out "$(fresh b)" \
            --agents "ext:sandbox=true,cmd=python3 $bots/escape.py $arg",random || return 1
    done
}

case_sandbox_refuses_the_results_folder() {
    sandbox_or_skip sandbox_refuses_the_results_folder || return 0
    local bots parent
    bots=$(readable_bots)
    parent=$(fresh runs)
    mkdir -p "$parent"
    expect_err "results folder" "$BIN" tournament --games 2 --out "$parent/run" \
        --agents "ext:sandbox=true,cmd=python3 $bots/escape.py $parent",random || return 1
    [ ! -e "$parent/run/games.csv" ] || { WHY="the run started"; return 1; }
}

case_bots_file_zero_limits() {
    local f=$WORK/zero.json key
    for key in move_ms game_ms cpu_s mem_mb nproc; do
        printf '{"b": {"command": "python3", "args": ["%s"], "%s": 0}}' "$ESCAPE" "$key" > "$f"
        expect_err "$key must be a positive number" "$BIN" tournament --games 2 \
            --out "$(fresh z)" --agents "ext:name=b,bots=$f",random || return 1
    done
}

case_bots_file_missing_dir() {
    local f=$WORK/nodir.json
    printf '{"b": {"command": "python3", "args": ["bot.py"], "dir": "%s/absent"}}' "$WORK" > "$f"
    expect_err "is not a folder" "$BIN" tournament --games 2 --out "$(fresh z)" \
        --agents "ext:name=b,bots=$f",random
}
