#!/usr/bin/env bash
# make soak-versions: the reference suite deployed one vertical at a time between this checkout's
# build and a second one derived from it (scripts/soak-versions-derive.py: an optional field in
# one Input of every vertical, a store migration in notifications and records), under mixed load,
# with a third build of clinics that breaks what appointments sends (Tests/SuiteTests/
# MixedVersionSoakTests.swift says the steps). The other builds are made in a copy of the working
# tree, in a temporary folder removed at the end. SOAK_SECONDS is the time under load.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
swift=${SWIFT:-swift}
work=$(mktemp -d "${TMPDIR:-/tmp}/soak-versions.XXXXXX")
# The new builds are described, and as root run, as the manifest's users: they must reach them.
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
mkdir "$work/copy" "$work/new"
git -C "$root" ls-files -z --cached --others --exclude-standard | (cd "$root" && tar --null -T - -cf -) | tar -xf - -C "$work/copy"
python3 "$root/scripts/soak-versions-derive.py" "$work/copy" additive
products=(svc-identity svc-clinics svc-notifications svc-records svc-appointments)
for product in "${products[@]}"; do "$swift" build --package-path "$work/copy" --product "$product"; done
bin=$("$swift" build --package-path "$work/copy" --show-bin-path)
for product in "${products[@]}"; do cp "$bin/$product" "$work/new/"; done
python3 "$root/scripts/soak-versions-derive.py" "$work/copy" breaking
"$swift" build --package-path "$work/copy" --product svc-clinics
cp "$bin/svc-clinics" "$work/breaking-clinics"

"$swift" build --package-path "$root" --build-tests
tag=soak-versions-$$-$(date +%s)
status=0
VT_TEST_TAG=$tag VT_SOAK_SECONDS=${SOAK_SECONDS:-600} VT_SOAK_VERSIONS_NEW="$work/new" \
    VT_SOAK_VERSIONS_BREAKING="$work/breaking-clinics" \
    "$swift" test --package-path "$root" --skip-build --filter MixedVersionSoakTests || status=$?
bash "$root/scripts/kill-tagged.sh" "$tag"
exit $status
