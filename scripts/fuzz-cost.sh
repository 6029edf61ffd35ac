#!/usr/bin/env bash
# fuzz-cost.sh — the cost search of vt-fuzz-live (docs/fuzz-live.md, "make fuzz-cost") against
# deploy/suite.toml, in a build already made.
#
#   scripts/fuzz-cost.sh CONFIG SECONDS [OPTION...]   CONFIG: debug or release; OPTIONs go to vt-fuzz-live
#
# `make fuzz-cost` runs it on the release build with every budget; `make test` briefly on the debug
# build with --sizes-only (a debug build's loop holds say nothing of a release's). Every child carries
# this run's own VT_TEST_TAG, and whatever outlives the run is killed (only its own).
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
config="${1:?usage: fuzz-cost.sh CONFIG SECONDS [OPTION...]}"
seconds="${2:?usage: fuzz-cost.sh CONFIG SECONDS [OPTION...]}"
shift 2
swift="${SWIFT:-swift}"
bin="$("$swift" build --package-path "$repo" -c "$config" --show-bin-path)"
tag="fuzz-cost-$$"
cd "$repo" || exit 2
VT_TEST_TAG="$tag" "$bin/vt-fuzz-live" --cost --manifest deploy/suite.toml --seconds "$seconds" "$@"
status=$?
bash "$repo/scripts/kill-tagged.sh" "$tag" >/dev/null
exit $status
