#!/usr/bin/env bash
# Server instructions per request with tracing off, sampled at ratio 0 and at ratio 1:
# vt-testd under callgrind (on a `strip --strip-debug` copy: valgrind 3.19 rejects the toolchain's
# DWARF 5) answers N and then 3N echo requests from a small Python client over its Unix socket; the
# difference over 2N is the cost of one request, start-up and shutdown cancelling out.
#   scripts/trace-bench.sh [BIN_DIR] [N]     (default: the release build, N = 2000)
# The quick form of `make bench`'s `instructions` section (BENCH_SECTIONS=instructions), for vt-testd.
set -euo pipefail
bin=${1:-$(swift build -c release --show-bin-path)}
count=${2:-2000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$bin/vt-testd" "$work/vt-testd"
strip --strip-debug "$work/vt-testd"
cat > "$work/load.py" <<'PY'
import socket, struct, sys, time
path, count = sys.argv[1], int(sys.argv[2])
for _ in range(600):
    try:
        s = socket.socket(socket.AF_UNIX); s.connect(path); break
    except OSError:
        time.sleep(0.05)
op, body = b"echo.echo", b"\x0a\x05hello"
def frame(i):
    payload = struct.pack(">BBQH", 1, 1, i, len(op)) + op + struct.pack(">Q", 0) + b"\x00" + body
    return struct.pack(">I", len(payload)) + payload
buf = b""
for i in range(1, count + 1):
    s.sendall(frame(i))
    while True:
        if len(buf) >= 4 and len(buf) >= 4 + struct.unpack(">I", buf[:4])[0]:
            if buf[5] != 2: sys.exit("not a response")
            buf = buf[4 + struct.unpack(">I", buf[:4])[0]:]; break
        buf += s.recv(65536)
PY
# Total instructions of one daemon life serving $2 requests, with the environment $3.
instructions() {
    rm -rf "$work/s" && mkdir "$work/s"
    env VERTICALS_SOCKET_DIR="$work/s" VERTICALS_LOG_LEVEL=warning $3 \
        valgrind --tool=callgrind --callgrind-out-file="$work/cg.$1" "$work/vt-testd" echo >/dev/null 2>&1 &
    local pid=$!
    python3 "$work/load.py" "$work/s/echo.sock" "$2"
    kill -TERM $pid && wait $pid || true
    awk '/^(summary|totals):/ { print $2; exit }' "$work/cg.$1"
}
off=0
for row in "off VERTICALS_TRACING=off" "sampled-0 VERTICALS_TRACE_SAMPLE_RATIO=0" "sampled-1 VERTICALS_TRACE_SAMPLE_RATIO=1"; do
    set -- $row
    small=$(instructions "$1-small" "$count" "$2")
    large=$(instructions "$1-large" $((count * 3)) "$2")
    per=$(( (large - small) / (count * 2) ))
    [ "$1" = off ] && off=$per
    echo "$1: $per instructions per request ($(( (per - off) * 1000 / off )) per mille over off)"
done
