#!/usr/bin/env bash
# Usage: run-tests.sh [swift test flags...]   (from `make test` after the build; flags: TEST_FLAGS)
#
# Runs the test bundle twice: everything but the supervision engine's process tests, in
# parallel; then those, on their own. They measure how fast the supervisor reacts (backoff
# gaps, readiness and liveness deadlines) with the engine in the test process: beside the other
# suites' daemons they would decide by luck.
#
# Every child a test starts carries this run's own VT_TEST_TAG; whatever is left of them is
# killed at the end, and another run on the same machine is left alone. On a failure, the
# failed tests and their issues are printed again at the very end, where a CI log's tail shows.
#
# The tests that build or resolve a whole package with SwiftPM (`new` in a copy of this checkout,
# a product made by `init`, one resolved from a tagged release) run last, one at a time: each keeps both cores busy for minutes, and
# beside the parallel run they starved every process test of its time limit. Alone, they get every
# core (VT_BUILD_JOBS; a plain `swift test` builds them with one job).
set -u
swift=${SWIFT:-swift}
# The lifetime and echo tests hold thousands of descriptors at once; a login's soft limit is often 1,024.
source "$(dirname "$0")/descriptor-limit.sh"
tag="run-$$-$(date +%s)"
log=$(mktemp -t vt-test-log.XXXXXX)
# SwiftPM leaves a few empty TemporaryDirectory.* folders in TMPDIR at every `swift test`; they go
# with this run's own TMPDIR (short: a test that puts a socket under TMPDIR stays under 108 bytes).
TMPDIR=$(mktemp -d /tmp/vt-tmp.XXXXXX)
chmod 755 "$TMPDIR"  # as /tmp is to them: services a root test runs as their own users may look in it
export TMPDIR
trap 'rm -f "$log"; rm -rf "$TMPDIR"' EXIT
# Swift Testing starts every test case of the run at once unless told a width. The suites that
# block a thread run each test case on a thread of its own (their `.blocking` trait), so nothing
# else bounds how many daemons and commands run side by side: this does, a few per core, enough
# to overlap their waits without starving each other's time limits.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${VT_TEST_WIDTH:-$((4 * $(nproc)))}"
engine_suite=EngineProcessTests
builders=(NewCommandTests InitCommandTests)

status=0
run() {
    VT_TEST_TAG="$tag" "$swift" test --skip-build "$@" 2>&1 | tee -a "$log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
}
if [ "$#" -gt 0 ]; then
    run "$@"  # TEST_FLAGS (e.g. --filter X): one run, as asked
else
    run --skip "$engine_suite" --skip "$(IFS='|'; echo "${builders[*]}")"
    run --filter "$engine_suite"
    for builder in "${builders[@]}"; do VT_BUILD_JOBS=$(nproc) run --filter "$builder"; done
fi
bash "$(dirname "$0")/kill-tagged.sh" "$tag"

# What this run left out, and why: a test that needs root, or something this host lacks, skips
# and says so in place; here they are counted by reason, so a run as an ordinary user shows what
# root would add. Swift Testing marks a skipped test or suite with ➜.
skipped=$(grep -E '^➜ (Test|Suite) .* skipped' "$log")
if [ -n "$skipped" ]; then
    echo
    echo "==== $(grep -c . <<<"$skipped") tests and suites skipped as $(id -un) (uid $(id -u)), by reason ===="
    sed -E 's/^.* skipped(: )?//' <<<"$skipped" | sort | uniq -c | sort -rn
fi

if [ "$status" -ne 0 ]; then
    echo
    echo "==== failed tests and their issues (also above, in place) ===="
    # Swift Testing marks failures with ✘ (a recorded issue, a failed test or suite) and
    # continues an issue's message on lines marked ↳; XCTest says "error:" and "failed".
    grep -E '✘|↳|: error: |Test Case .* failed|Fatal error|Crash|signal [0-9]+' "$log" | head -200
fi
exit "$status"
