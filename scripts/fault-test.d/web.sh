# Web server cases of issue 41 for scripts/fault-test (sourced; needs
# python3): hostile requests against a live `carcassonne web` on
# 127.0.0.1 (a port of its own choosing), each followed by a plain
# request that must be answered within a second by the same process.
# Counts and times are bounded: at most 1,000 connections, a 200 MB
# header, a 200 MB records.jsonl.
WEBPY="$ROOT/scripts/fault-test.d/web_client.py"
# Most memory the server may take in any case (MB of VmHWM).
WEB_MAX_MB=${WEB_MAX_MB:-150}

# Start `carcassonne web` (extra options: $@); sets WEB_PID, WEB_PORT,
# WEB_URL, WEB_ERR.
web_start() {
    local log
    log=$(fresh web)
    "$BIN" web --port 0 --out "$log.out" "$@" >"$log.stdout" 2>"$log.stderr" &
    WEB_PID=$!
    WEB_ERR=$log.stderr
    for _ in $(seq 1 100); do
        grep -q "open http" "$log.stdout" 2>/dev/null && break
        sleep 0.1
    done
    WEB_URL=$(grep -o 'http://[^ ]*' "$log.stdout" | head -1)
    WEB_PORT=${WEB_URL##*:}; WEB_PORT=${WEB_PORT%/}
    [ -n "$WEB_URL" ] || { WHY="the server did not start: $(head -2 "$log.stderr")"; web_stop; return 1; }
}

web_stop() { kill "$WEB_PID" 2>/dev/null; wait "$WEB_PID" 2>/dev/null; return 0; }

webpy() { timeout 120 python3 "$WEBPY" "$WEB_PORT" "$@" --pid "$WEB_PID"; }

# The server is alive, answers GET / with 200 within a second, and has
# stayed under WEB_MAX_MB; else WHY says why and the server is stopped.
web_still_answers() {
    local line ms peak
    if ! kill -0 "$WEB_PID" 2>/dev/null; then
        wait "$WEB_PID"; WHY="$1: the server ended (exit $?): $(tail -1 "$WEB_ERR")"; return 1
    fi
    line=$(webpy get)
    ms=$(sed -n 's/.* ms=\([0-9]*\).*/\1/p' <<<"$line")
    peak=$(sed -n 's/.* peak_mb=\([0-9]*\).*/\1/p' <<<"$line")
    case "$line" in
        code=200*) ;;
        *) WHY="$1: then GET / gave: $line"; web_stop; return 1 ;;
    esac
    [ "${ms:-9999}" -lt 1000 ] || { WHY="$1: GET / took $ms ms"; web_stop; return 1; }
    [ "${peak:-9999}" -lt "$WEB_MAX_MB" ] || { WHY="$1: the server reached $peak MB"; web_stop; return 1; }
    echo "    $1: then GET / in $ms ms, server peak $peak MB" >&2
}

# Expect the code $1 from web_client.py's answer $2.
web_expect() {
    case "$2" in
        "code=$1"*) return 0 ;;
    esac
    WHY="expected $1, got: $2"; web_stop; return 1
}

case_web_huge_content_length() {
    local r
    web_start || return 1
    r=$(webpy raw "GET / HTTP/1.1\r\nHost: 127.0.0.1:$WEB_PORT\r\nContent-Length: 40000000000\r\n\r\n")
    web_expect 413 "$r" || return 1
    web_still_answers "Content-Length 40 GB" || return 1
    r=$(webpy raw "POST /api/new HTTP/1.1\r\nHost: 127.0.0.1:$WEB_PORT\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n")
    case "$r" in code=4*) ;; *) WHY="chunked and a length: $r"; web_stop; return 1 ;; esac
    web_still_answers "chunked and a length" || return 1
    web_stop
}

case_web_huge_header() {
    local r
    web_start || return 1
    r=$(webpy bighead 200)
    case "$r" in
        code=431*|code=closed*|code=400*) ;;
        *) WHY="a 200 MB header line: $r"; web_stop; return 1 ;;
    esac
    echo "    200 MB header: $r" >&2
    web_still_answers "200 MB header" || return 1
    web_stop
}

case_web_thousand_idle_connections() {
    local r
    web_start || return 1
    r=$(webpy idle 1000)
    echo "    1000 idle: $r" >&2
    case "$r" in
        opened=1000\ code=200*) ;;
        *) WHY="1,000 idle connections: $r"; web_stop; return 1 ;;
    esac
    [ "$(sed -n 's/.* ms=\([0-9]*\).*/\1/p' <<<"$r")" -lt 1000 ] || { WHY="slow under 1,000 idle: $r"; web_stop; return 1; }
    web_still_answers "1,000 idle connections" || return 1
    web_stop
}

# The common soft limit of 1,024 open files (issue 41: 513 idle
# connections ended the server): raised to the hard limit at start.
case_web_soft_file_limit() {
    local r soft
    (ulimit -Sn 1024; web_start && echo "$WEB_PID $WEB_PORT $WEB_ERR" >"$WORK/web-limit") || return 1
    read -r WEB_PID WEB_PORT WEB_ERR <"$WORK/web-limit"
    soft=$(awk '/Max open files/ {print $4}' "/proc/$WEB_PID/limits")
    echo "    soft limit of open files: 1024 -> $soft" >&2
    r=$(webpy idle 1000)
    case "$r" in
        opened=1000\ code=200*) ;;
        *) WHY="1,000 idle under a soft limit of 1024: $r"; web_stop; return 1 ;;
    esac
    web_still_answers "soft limit 1024" || return 1
    web_stop
}

# A hard limit of 300 open files: the connection cap fits under it;
# 1,000 connections are served, refused (503) or closed unanswered (past
# 64 refusals at once), never the end of the server.
case_web_hard_file_limit() {
    local r
    (ulimit -n 300; web_start && echo "$WEB_PID $WEB_PORT $WEB_ERR" >"$WORK/web-limit") || return 1
    read -r WEB_PID WEB_PORT WEB_ERR <"$WORK/web-limit"
    r=$(webpy idle 1000)
    echo "    1000 connections under 300 files: $r" >&2
    case "$r" in
        *code=200*|*code=503*|*code=closed*) ;;
        *) WHY="1,000 connections under a hard limit of 300: $r"; web_stop; return 1 ;;
    esac
    sleep 1.5
    web_still_answers "hard limit 300, connections closed" || return 1
    web_stop
}

case_web_rebinding_host() {
    local r
    web_start || return 1
    # Issue 41: a text/plain POST from another site rebound to 127.0.0.1.
    r=$(webpy get --method POST --path /api/new --host "attacker.example:$WEB_PORT" \
        --origin "http://attacker.example:$WEB_PORT" --body '{}')
    web_expect 403 "$r" || return 1
    r=$(webpy get --host "attacker.example:$WEB_PORT")
    web_expect 403 "$r" || return 1
    r=$(webpy raw "GET / HTTP/1.0\r\n\r\n")
    web_expect 403 "$r" || return 1
    [ -z "$(ls "$WEB_ERR" 2>/dev/null | xargs grep -l panicked)" ] || { WHY="a panic"; web_stop; return 1; }
    web_still_answers "bad Host" || return 1
    web_stop
}

case_web_foreign_origin() {
    local r
    web_start || return 1
    r=$(webpy get --method POST --path /api/new --page-token --origin "http://attacker.example" --body '{}')
    web_expect 403 "$r" || return 1
    r=$(webpy get --method POST --path /api/new --page-token --origin "null" --body '{}')
    web_expect 403 "$r" || return 1
    r=$(webpy get --method POST --path /api/new --page-token --origin "http://127.0.0.1:$WEB_PORT" --body '{}')
    web_expect 200 "$r" || return 1
    web_still_answers "foreign Origin" || return 1
    web_stop
}

case_web_missing_token() {
    local r
    web_start || return 1
    r=$(webpy get --method POST --path /api/new --body '{}')
    web_expect 403 "$r" || return 1
    r=$(webpy get --method POST --path /api/new --token 0123456789abcdef0123456789abcdef --body '{}')
    web_expect 403 "$r" || return 1
    r=$(webpy get --method POST --path //api/new --body '{}')
    web_expect 403 "$r" || return 1
    r=$(webpy get --method POST --path /api/new --page-token --body '{}')
    web_expect 200 "$r" || return 1
    web_still_answers "no token" || return 1
    web_stop
}

case_web_ipv6_loopback_url() {
    local r
    if ! python3 -c 'import socket; s=socket.socket(socket.AF_INET6); s.bind(("::1", 0))' 2>/dev/null; then
        echo "    skipped: no IPv6 loopback here" >&2; return 0
    fi
    web_start --host ::1 || return 1
    case "$WEB_URL" in
        "http://[::1]:$WEB_PORT/") ;;
        *) WHY="--host ::1 printed $WEB_URL"; web_stop; return 1 ;;
    esac
    r=$(webpy get --addr ::1)
    web_expect 200 "$r" || return 1
    web_stop
}

case_web_watch_big_records() {
    local d r n
    d=$(fresh watch); GAMES=4 run_small "$d"
    # About 200 MB of records: the four games again and again.
    n=$(wc -c <"$d/records.jsonl")
    n=$(( 200 * 1024 * 1024 / n + 1 ))
    for _ in $(seq 1 "$n"); do cat "$d/records.jsonl"; done >"$d/big"
    mv "$d/big" "$d/records.jsonl"
    web_start --watch "$d" || return 1
    r=$(webpy polls 8 /watch/status)
    echo "    8 polls of a $(( $(wc -c <"$d/records.jsonl") >> 20 )) MB records.jsonl: $r" >&2
    case "$r" in
        "code=200 records=$(( n * 4 )) "*) ;;
        *) WHY="watching a 200 MB records.jsonl: $r (want $(( n * 4 )) records)"; web_stop; return 1 ;;
    esac
    r=$(webpy get --page-token --path "/watch/game/$(( n * 4 - 1 ))")
    web_expect 200 "$r" || return 1
    web_still_answers "200 MB records.jsonl" || return 1
    web_stop
}
