#!/usr/bin/env bash
# Sourced by the scripts that run tests (scripts/run-tests.sh, Tests/EventLoopTests/memcheck.sh):
# raises this shell's soft limit on open files (RLIMIT_NOFILE) to its hard limit, for it and every
# process it starts. A login gets PAM's limits, often a soft 1,024 under a hard limit far above it,
# and the tests that open thousands of connections at once need more than 1,024: with the soft
# limit raised they pass as the same user, with no privilege (any process may raise its soft limit
# up to its hard one). A hard limit of `unlimited` is capped at the kernel's fs.nr_open, above
# which the call fails.
raise_descriptor_limit() {
    local hard
    hard=$(ulimit -Hn)
    if [ "$hard" = unlimited ]; then hard=$(cat /proc/sys/fs/nr_open 2>/dev/null || echo 1048576); fi
    if [ "$(ulimit -Sn)" != "$hard" ] && ! ulimit -Sn "$hard" 2>/dev/null; then
        echo "$(basename "$0"): cannot raise the open-file limit from $(ulimit -Sn) to $hard;" \
            "tests that open many connections may fail" >&2
    fi
}
raise_descriptor_limit
