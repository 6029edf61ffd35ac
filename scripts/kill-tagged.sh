#!/usr/bin/env bash
# Kills every process that carries VT_TEST_TAG=1 in its environment: the children tests
# start are tagged, so whatever a crashed or interrupted test run left behind is found
# here, whoever its parent was. Prints what it killed; always exits 0.
# `kill-tagged.sh VT_BENCH_TAG` does the same for what `make bench` started.
tag="${1:-VT_TEST_TAG}"
for environ in /proc/[0-9]*/environ; do
    pid=${environ#/proc/}; pid=${pid%/environ}
    [ "$pid" = "$$" ] && continue
    if { tr '\0' '\n' < "$environ"; } 2>/dev/null | grep -qx "$tag=1"; then
        echo "killing leftover $tag process $pid: $(tr '\0' ' ' < /proc/$pid/cmdline 2>/dev/null | cut -c1-120)" >&2
        kill -KILL "$pid" 2>/dev/null || true
    fi
done
exit 0
