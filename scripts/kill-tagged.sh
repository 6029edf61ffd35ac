#!/usr/bin/env bash
# Usage: kill-tagged.sh [TAG]   (default 1)
# Kills every process that carries VT_TEST_TAG=TAG in its environment: the children tests
# start are tagged with their run's tag (`make test` gives each run its own), so whatever a
# crashed or interrupted run left behind is found here, whoever its parent was, and another
# run on the same machine is left alone. Prints what it killed; always exits 0.
tag=${1:-1}
for environ in /proc/[0-9]*/environ; do
    pid=${environ#/proc/}; pid=${pid%/environ}
    [ "$pid" = "$$" ] && continue
    if { tr '\0' '\n' < "$environ"; } 2>/dev/null | grep -qxF "VT_TEST_TAG=$tag"; then
        echo "killing leftover test process $pid: $(tr '\0' ' ' < /proc/$pid/cmdline 2>/dev/null | cut -c1-120)" >&2
        kill -KILL "$pid" 2>/dev/null || true
    fi
done
exit 0
