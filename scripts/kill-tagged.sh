#!/usr/bin/env bash
# Kills every process that carries VT_TEST_TAG=1 in its environment and belongs to this
# checkout (its program or its working directory lies inside it): the children tests start
# are tagged, so whatever a crashed or interrupted test run left behind is found here,
# whoever its parent was — and the test runs of other checkouts on the same machine are left
# alone. Prints what it killed; always exits 0.
root=$(cd "$(dirname "$0")/.." && pwd -P)
for environ in /proc/[0-9]*/environ; do
    pid=${environ#/proc/}; pid=${pid%/environ}
    [ "$pid" = "$$" ] && continue
    exe=$(readlink "/proc/$pid/exe" 2>/dev/null) || continue
    cwd=$(readlink "/proc/$pid/cwd" 2>/dev/null) || continue
    [[ "$exe" == "$root"/* || "$cwd" == "$root" || "$cwd" == "$root"/* ]] || continue
    if { tr '\0' '\n' < "$environ"; } 2>/dev/null | grep -qx 'VT_TEST_TAG=1'; then
        echo "killing leftover test process $pid: $(tr '\0' ' ' < /proc/$pid/cmdline 2>/dev/null | cut -c1-120)" >&2
        kill -KILL "$pid" 2>/dev/null || true
    fi
done
exit 0
