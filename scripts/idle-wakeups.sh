#!/usr/bin/env bash
# idle-wakeups.sh PID [SECONDS]: how often process PID wakes while idle, counted as the bench's
# idle row counts it (Benchmarks/Sources/vt-bench/Harness/ProcessStats.swift): the context switches
# (voluntary + involuntary) of all its threads over SECONDS (default 60), plus one for each thread
# that ended meanwhile, as wake-ups per minute. Leave the process alone while it counts (the bench
# first lets 10 s pass after the last call).
set -euo pipefail
pid=${1:?usage: idle-wakeups.sh PID [SECONDS]}
seconds=${2:-60}
[ -d "/proc/$pid" ] || { echo "idle-wakeups.sh: no process $pid" >&2; exit 1; }
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "idle-wakeups.sh: SECONDS must be a whole number above 0, not $seconds" >&2; exit 64; }

# "TID COUNT" per thread of $pid.
switches() {
    for status in /proc/"$pid"/task/*/status; do
        tid=${status#/proc/"$pid"/task/}; tid=${tid%/status}
        awk -v tid="$tid" '/^(non)?voluntary_ctxt_switches:/ { n += $2 } END { if (NR) print tid, n }' "$status" 2>/dev/null || true
    done
}

before=$(switches)
sleep "$seconds"
[ -d "/proc/$pid" ] || { echo "idle-wakeups.sh: process $pid ended while counting" >&2; exit 1; }
after=$(switches)
awk -v seconds="$seconds" -v threads="$(wc -l <<<"$after")" '
    NR == FNR { before[$1] = $2; next }
    { grown += $2 - ($1 in before ? before[$1] : 0); seen[$1] = 1 }
    END {
        for (tid in before) if (!(tid in seen)) grown += 1
        printf "%.1f wake-ups/min (%d context switches over %d s, %d threads)\n", grown * 60 / seconds, grown, seconds, threads
    }' <(echo "$before") <(echo "$after")
