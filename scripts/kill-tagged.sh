#!/usr/bin/env bash
# Usage: kill-tagged.sh [TAG [VARIABLE]]   (defaults: 1, VT_TEST_TAG)
# Kills every process that carries VARIABLE=TAG in its environment: the children tests start
# are tagged with their run's tag (`make test` gives each run its own), so whatever a crashed
# or interrupted run left behind is found here, whoever its parent was, and another run on the
# same machine is left alone. `kill-tagged.sh TAG VT_BENCH_TAG` does the same for
# `make bench`, which also gives each run its own tag.
# A tag's own nested runs count as its: TAG also matches TAG+ANYTHING (a test that starts a run of
# its own to kill it, as SystemdHostsCleanupTests does, gives it such a tag).
# Prints what it killed or deleted; always exits 0.
tag=${1:-1}
variable=${2:-VT_TEST_TAG}
# Until a pass finds none (a parent killed in one pass may have started a child meanwhile), at most 5.
for _ in 1 2 3 4 5; do
    killed=0
    for environ in /proc/[0-9]*/environ; do
        pid=${environ#/proc/}; pid=${pid%/environ}
        [ "$pid" = "$$" ] && continue
        if { tr '\0' '\n' < "$environ"; } 2>/dev/null \
            | awk -v own="$variable=$tag" '$0 == own || index($0, own "+") == 1 { found = 1 } END { exit !found }'; then
            echo "killing leftover $variable process $pid: $(tr '\0' ' ' < /proc/$pid/cmdline 2>/dev/null | cut -c1-120)" >&2
            kill -KILL "$pid" 2>/dev/null || true
            killed=1
        fi
    done
    [ "$killed" = 0 ] && break
    sleep 0.1
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
# The systemd hosts a run's scripts/systemd-hosts.sh booted (their containers' PID 1s carry the tag,
# so they are killed above): their overlays, namespaces, veths and folders, from the folders it
# recorded under the tag. Only from a records folder that root alone can write: `down` removes WORK.
records=${VT_HOSTS_RECORDS:-/run/verticals-systemd-hosts}
if [ "$variable" = VT_TEST_TAG ] && [ "$(id -u)" -eq 0 ] && [ -d "$records" ]; then
    if [ "$(stat -c '%u %a' "$records")" = "0 700" ]; then
        for record in "$records/$tag"/* "$records/$tag+"*/*; do
            [ -f "$record" ] || continue
            work=$(head -1 "$record")
            case "$work" in
            /*/*) ;;
            *) echo "ignoring $record: $work is no work folder" >&2; rm -f "$record"; continue ;;
            esac
            echo "taking down leftover systemd hosts in $work" >&2
            VT_HOSTS_RECORDS=$records timeout 120 bash "$(dirname "$0")/systemd-hosts.sh" down "$work" || true
            rm -f "$record"
        done
        rmdir "$records/$tag" "$records/$tag+"* 2>/dev/null
    else
        echo "not trusting $records: it must be root's and mode 0700" >&2
    fi
fi
exit 0
