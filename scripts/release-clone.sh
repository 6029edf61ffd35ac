#!/usr/bin/env bash
# release-clone.sh — a bare git repository holding one commit of this checkout tagged as a release
# (vX.Y.Z), standing in for the published repository: a product depends on it by file:// URL the
# way it would on the real one, and `make api-check` compares against it when no release tag exists.
#
#   scripts/release-clone.sh DEST [VERSION [REF]]
#
# DEST: a folder that does not exist yet. VERSION: X.Y.Z (default: the release VerticalsVersion.current
# is or will be, from Shared/Contract/Core/VerticalsVersion.swift: 0.2.0 for 0.2.0-dev). REF: the commit to tag (default: HEAD). Committed
# history only: uncommitted changes are not in the clone. Prints the tag; exit 2 when it cannot.
set -euo pipefail

fail() { echo "release-clone: $*" >&2; exit 2; }
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
(( $# >= 1 && $# <= 3 )) || fail "usage: scripts/release-clone.sh DEST [VERSION [REF]]"
dest="$1"
version="${2:-$(sed -n 's/.*static let current = "\([0-9][0-9.]*\)\(-[0-9A-Za-z.]*\)\{0,1\}".*/\1/p' "$repo/Shared/Contract/Core/VerticalsVersion.swift")}"
ref="${3:-HEAD}"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "'$version' is not a version X.Y.Z"
[[ ! -e "$dest" ]] || fail "$dest exists: name a folder that does not"
sha="$(git -C "$repo" rev-parse --verify --quiet "$ref^{commit}")" || fail "'$ref' is not a commit of $repo"

# A push, not a clone: the commit reaches the bare repository even when no branch holds it (a
# detached HEAD), and nothing else of this checkout's refs comes along.
git init --quiet --bare "$dest"
git -C "$repo" push --quiet "$dest" "$sha:refs/heads/main" "$sha:refs/tags/v$version" \
    || { rm -rf "$dest"; fail "could not push $ref to $dest"; }
git -C "$dest" symbolic-ref HEAD refs/heads/main
echo "v$version"
