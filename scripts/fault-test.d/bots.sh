# Bot-process cases of issue 27 for scripts/fault-test (sourced; needs
# python3): a bot that stops reading, one that sleeps past its deadline,
# and the grandchildren a bot leaves (one in a session of its own).
BOT="$ROOT/tournament/tests/bots/misbehave.py"

# A 2-game match of a misbehaving bot (mode $2) against random into $1;
# it must end within 60 s.
bot_match() {
    timeout 60 "$BIN" tournament --agents "ext:move_ms=300,cmd=python3 $BOT $2",random \
        --games 2 --threads 1 --out "$1" >/dev/null 2>&1
    local rc=$?
    [ $rc -ne 124 ] || { WHY="mode $2: the run hung"; return 1; }
    [ -f "$1/games.csv" ] || { WHY="mode $2: no games.csv (exit $rc)"; return 1; }
}

case_bot_stops_reading() {
    local d
    d=$(fresh deaf)
    bot_match "$d" deaf || return 1
    grep -q timeout "$d/games.csv" || { WHY="no timeout forfeit"; return 1; }
}

case_bot_sleeps() {
    local d
    d=$(fresh sleep)
    bot_match "$d" sleep || return 1
    grep -q timeout "$d/games.csv" || { WHY="no timeout forfeit"; return 1; }
}

case_bot_grandchildren_killed() {
    local d pid
    d=$(fresh tree)
    bot_match "$d" exit || return 1
    sleep 1
    for pid in $(grep -ho '^pids .*' "$d"/bots/*.log | cut -d' ' -f2-); do
        if kill -0 "$pid" 2>/dev/null; then
            WHY="process $pid outlived the run"; kill -9 "$pid"; return 1
        fi
    done
}
