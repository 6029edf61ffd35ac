#!/usr/bin/env bash
# Usage: kill-tagged.sh [TAG [VARIABLE]]   (defaults: 1, VT_TEST_TAG)
# Kills every process that carries VARIABLE=TAG in its environment: the children tests start
# are tagged with their run's tag (`make test` gives each run its own), so whatever a crashed
# or interrupted run left behind is found here, whoever its parent was, and another run on the
# same machine is left alone. `kill-tagged.sh TAG VT_BENCH_TAG` does the same for
# `make bench`, which also gives each run its own tag.
# Prints what it killed or deleted; always exits 0.
tag=${1:-1}
variable=${2:-VT_TEST_TAG}
for environ in /proc/[0-9]*/environ; do
    pid=${environ#/proc/}; pid=${pid%/environ}
    [ "$pid" = "$$" ] && continue
    if { tr '\0' '\n' < "$environ"; } 2>/dev/null | grep -qxF "$variable=$tag"; then
        echo "killing leftover $variable process $pid: $(tr '\0' ' ' < /proc/$pid/cmdline 2>/dev/null | cut -c1-120)" >&2
        kill -KILL "$pid" 2>/dev/null || true
    fi
done
# The network namespaces a run's NetworkLab made (vt-TAG-N-HOST) and their /etc/netns folders,
# once the processes in them are gone: a crashed namespace test leaves them otherwise.
if [ "$variable" = VT_TEST_TAG ] && [ "$(id -u)" -eq 0 ] && command -v ip >/dev/null 2>&1; then
    for namespace in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^vt-${tag}-[0-9]+-[a-z]+$"); do
        echo "deleting leftover network namespace $namespace" >&2
        ip netns del "$namespace" 2>/dev/null || true
        rm -rf "/etc/netns/$namespace"
    done
fi
exit 0
