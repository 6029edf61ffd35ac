#!/usr/bin/env bash
# release-cut.sh — cut release X.Y.Z of the framework from a clean checkout, in one command.
#
#   scripts/release-cut.sh X.Y.Z [--date YYYY-MM-DD] [--next X.Y.Z-dev] [--no-checks]
#   make release-cut VERSION=X.Y.Z
#
# 1. Checks: a clean work tree; X.Y.Z a release later than CHANGELOG.md's latest; "Unreleased"
#    not empty; no tag vX.Y.Z yet.
# 2. Moves CHANGELOG.md's "Unreleased" changes under `## X.Y.Z — DATE` (today, UTC, unless --date),
#    leaves an empty "Unreleased" above it, and points the dependency example at X.Y.Z.
# 3. Sets the version in the one place it lives (Shared/Contract/Core/VerticalsVersion.swift) and
#    regenerates what names it (deploy/kubernetes, docs/reference and docs/man), then commits.
# 4. Unless --no-checks: `make api-check` against the last release, and the test that builds a
#    product from a release tag (InitCommandTests). A failed check stops here, before the tag: fix
#    it, amend the commit, run again with the same version. A release that may break the API (a
#    minor release before 1.0, or a major one) accepts the breaks docs/api-breaks/X.Y.Z.txt lists,
#    one digester message a line, each also described in CHANGELOG.md; any other break fails.
# 5. Tags vX.Y.Z locally (push it yourself), then starts the next version: --next, or the next
#    minor release with -dev (0.2.0 → 0.3.0-dev), committed as its own change.
#
# Exit 0: tagged. Exit 1: a check failed. Exit 2: it could not start (bad arguments, dirty tree).
set -euo pipefail

fail() { echo "release-cut: $*" >&2; exit 2; }
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
version="" date="$(date -u +%Y-%m-%d)" next="" checks=1
while (( $# > 0 )); do
    case "$1" in
        --date) date="${2:?--date needs YYYY-MM-DD}"; shift 2 ;;
        --next) next="${2:?--next needs X.Y.Z-dev}"; shift 2 ;;
        --no-checks) checks=0; shift ;;
        -*) fail "unknown option $1" ;;
        *) [[ -z "$version" ]] || fail "one version, please"; version="$1"; shift ;;
    esac
done
release_pattern='^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$'
[[ "$version" =~ $release_pattern ]] || fail "usage: scripts/release-cut.sh X.Y.Z [--date YYYY-MM-DD] [--next X.Y.Z-dev] [--no-checks]"
[[ "$date" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]] || fail "--date $date is not YYYY-MM-DD"
if [[ -z "$next" ]]; then
    IFS=. read -r major minor _ <<< "$version"
    next="$major.$((minor + 1)).0-dev"
fi
[[ "$next" =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)-dev$ ]] || fail "--next $next is not X.Y.Z-dev"
[[ -z "$(git status --porcelain)" ]] || fail "the work tree has changes: commit or stash them first"
git rev-parse --verify --quiet "refs/tags/v$version" >/dev/null && fail "v$version is tagged already"

changelog=CHANGELOG.md
version_file=Shared/Contract/Core/VerticalsVersion.swift
last="$(awk '/^## Unreleased/ { after = 1; next } after && /^## [0-9]+\.[0-9]+\.[0-9]+ — / { print $2; exit }' "$changelog")"
[[ -n "$last" ]] || fail "$changelog has no release heading (## X.Y.Z — DATE) after ## Unreleased"
newer() { [[ "$(printf '%s\n%s\n' "$1" "$2" | sort -t. -k1,1n -k2,2n -k3,3n | tail -n 1)" == "$1" && "$1" != "$2" ]]; }
newer "$version" "$last" || fail "$version is not later than the last release, $last"
# The last release: its tag, else the commit that added its CHANGELOG section.
baseline="$(git rev-parse --verify --quiet "refs/tags/v$last^{commit}" || git log --format=%H --reverse -S"## $last — " -- "$changelog" | head -n 1)"
[[ -n "$baseline" ]] || fail "no tag v$last and no commit that added its $changelog section: fetch the tags"
unreleased="$(awk '/^## Unreleased/ { on = 1; next } /^## / { on = 0 } on && /[^[:space:]]/' "$changelog" | wc -l)"
(( unreleased > 0 )) || fail "$changelog lists nothing under Unreleased: nothing to release"

# 2. The CHANGELOG: a dated section where "Unreleased" was, and the dependency example.
awk -v heading="## $version — $date" '
    /^## Unreleased$/ && !done { print; print ""; print heading; done = 1; next }
    { print }
' "$changelog" > "$changelog.new"
sed -i -E "s/(\.package\(url: \"[^\"]*\", from: \")[0-9]+\.[0-9]+\.[0-9]+(\"\))/\1$version\2/" "$changelog.new"
mv "$changelog.new" "$changelog"

# 3. The version, and what the tree generates from it.
set_version() {
    sed -i -E "s/(public static let current = \")[^\"]*(\")/\1$1\2/" "$version_file"
    grep -q "public static let current = \"$1\"" "$version_file" || fail "could not set the version in $version_file"
    if (( checks )); then
        make --no-print-directory kubernetes-export >/dev/null
        bash scripts/reference.sh >/dev/null
    fi
}
set_version "$version"
git add -A
git commit --quiet -m "Release $version: CHANGELOG's Unreleased changes dated, the version set"
echo "release-cut: committed release $version ($(git rev-parse --short HEAD))"

# 4. The checks a release must pass, before its tag.
if (( checks )); then
    echo "release-cut: make api-check against $last"
    breaks="docs/api-breaks/$version.txt"
    IFS=. read -r major minor patch <<< "$version"
    allowlist=""
    if [[ -f "$breaks" ]]; then
        (( (major == 0 && patch == 0) || (minor == 0 && patch == 0) )) \
            || { echo "release-cut: $version may not break the API, yet $breaks lists breaks" >&2; exit 1; }
        allowlist="$repo/$breaks"
    fi
    if ! API_BASELINE="$baseline" API_ALLOWLIST="$allowlist" make --no-print-directory api-check; then
        echo "release-cut: the API check failed: a break this release makes on purpose goes in $changelog and," \
            "as the check prints it, in $breaks (a minor release before 1.0, or a major one); amend, and run again" >&2
        exit 1
    fi
    echo "release-cut: a product from the release tag (InitCommandTests)"
    if ! make --no-print-directory test TEST_FLAGS="--filter InitCommandTests"; then
        echo "release-cut: a product made from the release does not build or run: fix, amend, and run again" >&2
        exit 1
    fi
fi

# 5. The tag, then the next version.
git tag -a "v$version" -m "Verticals $version"
echo "release-cut: tagged v$version (push it with: git push origin v$version)"
set_version "$next"
git commit --quiet -am "Start $next: HEAD calls itself the next release until it is cut"
echo "release-cut: HEAD is now $next"
