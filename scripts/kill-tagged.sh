#!/usr/bin/env bash
# Kills every process that carries VT_TEST_TAG=<tag> in its environment, <tag> being this
# shell's $VT_TEST_TAG (default 1): the children tests start are tagged, so whatever a crashed
# or interrupted test run left behind is found here, whoever its parent was. `make test` gives
# each run its own tag, so two runs on one machine never kill each other's daemons.
# Prints what it killed; always exits 0.
tag="VT_TEST_TAG=${VT_TEST_TAG:-1}"
for environ in /proc/[0-9]*/environ; do
    pid=${environ#/proc/}; pid=${pid%/environ}
    [ "$pid" = "$$" ] && continue
    if { tr '\0' '\n' < "$environ"; } 2>/dev/null | grep -qxF "$tag"; then
        echo "killing leftover test process $pid: $(tr '\0' ' ' < /proc/$pid/cmdline 2>/dev/null | cut -c1-120)" >&2
        kill -KILL "$pid" 2>/dev/null || true
    fi
done
exit 0
