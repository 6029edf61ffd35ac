#!/usr/bin/env bash
# api-check.sh — the framework's public API against a release tag (CHANGELOG.md).
#
#   scripts/api-check.sh                     against the last `v*` tag (git describe); in a clone with
#                                            none, against a release made as `init`'s test makes one:
#                                            scripts/release-clone.sh tags API_BASELINE_REF (default:
#                                            the commit that added CHANGELOG.md's latest release
#                                            section, the last release) in a temporary bare repository
#   API_BASELINE=v0.1.0 scripts/api-check.sh against that tag (or any commit-ish)
#   API_PRODUCTS="VerticalsWire …"           only those library products (default: scripts/api-products.sh,
#                                            Package.swift's Verticals* library products)
#   API_ALLOWLIST=path                       breakages to accept, one exact message a line
#                                            ("API breakage: func foo() has been removed")
#   API_REGENERATE=1                         rebuild the baseline's API dumps even if cached
#
# Exit 0: no module of those products breaks its API. Exit 1: at least one does (each breakage is
# printed under its module). Exit 2: the check could not be made (no baseline, a build or a dump failed,
# a product that exists nowhere); never "no breakage" for a module whose dump has no symbols.
#
# Why not `swift package diagnose-api-breaking-changes`: with this package it fails for every module
# ("baseline for X contains no symbols", clang "redefinition of module 'CTOML'") because SwiftPM's
# digester arguments name TOMLKit's C module twice: the checkout's own
# Sources/CTOML/include/CTOML/module.modulemap and the module map SwiftPM generates for it in
# CTOML.build (passing both by hand to swift-api-digester reproduces the error). That is the open
# swiftlang/swift-package-manager#9254. Its only options (--baseline-dir, --regenerate-baseline,
# --products/--targets, the global --scratch-path) do not change those arguments, so no flag
# combination avoids it. Even handed good baselines in --baseline-dir (this script's dumps, so it
# builds no baseline), it reports every declaration removed on an unchanged tree (59 in
# VerticalsWire with Swift 6.3.1): its dump of the current tree fails too, silently (presumably
# the same double CTOML map).
# This script does the same job with the toolchain's own swift-api-digester:
#
#   1. the baseline commit in a temporary git worktree, or a clone of the temporary release
#      (.build-api/baseline/src, removed on exit),
#      built with its own scratch path (.build-api/baseline/build); its dumps are cached per commit
#      in .build-api/baseline/<sha>/, so the next run against the same tag builds nothing old;
#   2. the working tree as it is (uncommitted changes included) built in .build-api/current, so a
#      developer's .build is left alone;
#   3. per Swift module of each product: `swift-api-digester -dump-sdk` with ONE build's search
#      paths: its Modules directory and the C module maps that build's compiles used (from its
#      llbuild manifest, debug.yaml), so each C module has one map (CTOML: the generated one);
#   4. `swift-api-digester -diagnose-sdk` on the two dumps (API, not ABI: no -abi); every
#      "API breakage:" line is a break.
#
# Products or modules new since the baseline have nothing to compare; a module the baseline had and
# the tree no longer has is a break. Run it before tagging a release, not in every CI run.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
swift="${SWIFT:-swift}"
work="$repo/.build-api"
fail() { echo "api-check: $*" >&2; exit 2; }

products="${API_PRODUCTS:-$(bash scripts/api-products.sh)}" || fail "cannot read the library products of Package.swift"
# One line of names, each between spaces: the matches below look for " NAME ", and
# scripts/api-products.sh prints a name a line (with newlines between, no product matched, and
# every baseline product passed for one new since it, with nothing compared).
products=" $(tr -s '[:space:]' ' ' <<< "$products" | sed 's/^ *//; s/ *$//') "
[[ -n "${products// /}" ]] || fail "Package.swift has no Verticals* library product to check"

baseline="${API_BASELINE:-$(git describe --tags --abbrev=0 --match 'v[0-9]*' 2>/dev/null || true)}"
release=""
if [[ -n "$baseline" ]]; then
    sha="$(git rev-parse --verify --quiet "$baseline^{commit}")" || fail "'$baseline' is not a tag or commit of this repository"
else
    # No release tag in this clone: a release made the way `init`'s test makes one, of the last
    # release (the commit that added CHANGELOG.md's latest release section) or API_BASELINE_REF,
    # in a bare repository of its own; this clone's tags stay as they are.
    last="$(awk '/^## Unreleased/ { after = 1; next } after && /^## [0-9]+\.[0-9]+\.[0-9]+ — / { print $2; exit }' CHANGELOG.md)"
    ref="${API_BASELINE_REF:-}"
    version=""
    if [[ -z "$ref" && -n "$last" ]]; then
        ref="$(git log --format=%H --reverse -S"## $last — " -- CHANGELOG.md | head -n 1)"
        version="$last"
    fi
    [[ -n "$ref" ]] || fail "no release tag (v*), and CHANGELOG.md names no release whose commit this clone has; name one with API_BASELINE_REF"
    release="$work/release.git"
    rm -rf "$release"
    mkdir -p "$work"
    trap 'rm -rf "$release"' EXIT
    tag="$(bash scripts/release-clone.sh "$release" "$version" "$ref")" || fail "no release tag (v*), and no release could be made of '$ref'.
  Fetch the tags (git fetch --tags), or name a tag or commit to compare with:
    make api-check API_BASELINE=v0.1.0    (a release)
    make api-check API_BASELINE_REF=HEAD~3 (a temporary release of that commit)"
    sha="$(git -C "$release" rev-parse --verify --quiet "$tag^{commit}")" || fail "$release has no $tag"
    baseline="$tag of $ref"
    echo "api-check: this clone has no release tag: the baseline is $ref, tagged $tag in a temporary bare repository"
fi

swift_bin="$(command -v "$swift")" || fail "'$swift' is not on PATH"
digester="${SWIFT_API_DIGESTER:-$(dirname "$(readlink -f "$swift_bin")")/swift-api-digester}"
[[ -x "$digester" ]] || fail "no swift-api-digester next to $swift_bin (set SWIFT_API_DIGESTER)"
triple="$("$swift" -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')"

echo "api-check: $products against $baseline (${sha:0:12})"
mkdir -p "$work"

# "product module" lines: the Swift modules of each library product of the package at $1 (built in
# scratch path $2). C and system-library targets have no Swift API to dump (SwiftPM skips them too).
product_modules() {
    "$swift" package --package-path "$1" --scratch-path "$2" describe --type json 2>"$2.describe.log" \
        | python3 -c '
import json, sys
package = json.load(sys.stdin)
swift = {t["name"] for t in package["targets"] if t.get("module_type") == "SwiftTarget"}
for product in package["products"]:
    if "library" in product["type"]:
        for target in product["targets"]:
            if target in swift:
                print(product["name"], target)
' || { cat "$2.describe.log" >&2; fail "swift package describe failed for $1"; }
}

# Builds each module named in $3… of the package at $1 in scratch path $2.
build_modules() {
    local package="$1" scratch="$2"; shift 2
    local module
    for module in "$@"; do
        echo "api-check: building $module in ${scratch#"$repo/"}"
        "$swift" build --package-path "$package" --scratch-path "$scratch" --target "$module" >"$scratch.build.log" 2>&1 \
            || { tail -40 "$scratch.build.log" >&2; fail "build of $module in $package failed (log: $scratch.build.log)"; }
    done
}

# Dumps module $3's public API, as built in scratch path $2 of package $1, to $4.
dump_module() {
    local package="$1" scratch="$2" module="$3" out="$4"
    local bin flags=() map
    bin="$("$swift" build --package-path "$package" --scratch-path "$scratch" --show-bin-path)"
    # The C module maps this build's own compiles used; one map per module, so no redefinition.
    while read -r map; do
        flags+=(-Xcc "-fmodule-map-file=$map")
    done < <(grep -o '"-fmodule-map-file=[^"]*"' "$scratch/debug.yaml" | sed 's/^"-fmodule-map-file=//; s/"$//' | sort -u)
    "$digester" -dump-sdk -module "$module" -target "$triple" -I "$bin/Modules" "${flags[@]}" \
        -module-cache-path "$scratch/api-module-cache" -o "$out" >"$out.log" 2>&1 \
        || { cat "$out.log" >&2; fail "swift-api-digester could not dump $module (${scratch#"$repo/"})"; }
    # The digester exits 0 with an empty dump when the module does not load: count what it found.
    local symbols
    symbols="$(python3 -c '
import json, sys
root = json.load(open(sys.argv[1])).get("ABIRoot", {})
print(sum(1 for c in root.get("children", []) if c.get("kind") != "Import"))
' "$out" 2>/dev/null || echo 0)"
    if [[ "$symbols" -eq 0 ]]; then
        cat "$out.log" >&2
        fail "the dump of $module (${scratch#"$repo/"}) has no public symbols: it did not load"
    fi
}

# The working tree: which modules each product has now.
current="$work/current"
mkdir -p "$current"
product_modules "$repo" "$current" >"$current.products"
declare -A now_modules=() then_modules=()
while read -r product module; do now_modules[$product]+="$module "; done <"$current.products"

# The baseline's modules of the wanted products, from products.all (all its library products).
cache="$work/baseline/$sha"
wanted_then() {
    local product module
    while read -r product module; do
        if [[ " $products " == *" $product "* ]]; then echo "$module"; fi
    done <"$cache/products.all" | sort -u
}
# Its dumps come from the cache (.complete is written after a whole run), else from a temporary
# worktree of that commit, built in its own scratch path.
fresh=1
if [[ -z "${API_REGENERATE:-}" && -f "$cache/.complete" ]]; then
    fresh=0
    for module in $(wanted_then); do [[ -s "$cache/$module.json" ]] || fresh=1; done
fi
if (( fresh )); then
    rm -rf "$cache"
    mkdir -p "$cache"
    source_dir="$work/baseline/src"
    cleanup() {
        git -C "$repo" worktree remove --force "$source_dir" >/dev/null 2>&1 || true
        rm -rf "$source_dir"
        git -C "$repo" worktree prune
        [[ -z "$release" ]] || rm -rf "$release"
    }
    trap cleanup EXIT
    rm -rf "$source_dir"
    git -C "$repo" worktree prune
    if [[ -n "$release" ]]; then
        git clone --quiet --branch "$tag" "$release" "$source_dir" 2>/dev/null || fail "cannot check out $tag from $release"
    else
        git worktree add --detach --quiet "$source_dir" "$sha"
    fi
    # The same dependency versions as the tree being checked (Package.resolved is not committed).
    if [[ -f "$repo/Package.resolved" ]]; then cp "$repo/Package.resolved" "$source_dir/Package.resolved"; fi
    scratch="$work/baseline/build"
    mkdir -p "$scratch"
    product_modules "$source_dir" "$scratch" >"$cache/products.all"
    mapfile -t wanted < <(wanted_then)
    if (( ${#wanted[@]} )); then
        build_modules "$source_dir" "$scratch" "${wanted[@]}"
        for module in "${wanted[@]}"; do dump_module "$source_dir" "$scratch" "$module" "$cache/$module.json"; done
    fi
    touch "$cache/.complete"
    cleanup
    trap - EXIT
else
    echo "api-check: baseline dumps of ${sha:0:12} from ${cache#"$repo/"} (API_REGENERATE=1 rebuilds them)"
fi
while read -r product module; do
    if [[ " $products " == *" $product "* ]]; then then_modules[$product]+="$module "; fi
done <"$cache/products.all"

# The working tree, built in its own scratch path, then dumped.
report="$work/report"
rm -rf "$report"
mkdir -p "$report"
to_build=()
for product in $products; do
    [[ -n "${now_modules[$product]:-}" || -n "${then_modules[$product]:-}" ]] \
        || fail "$product is not a library product here nor at $baseline (API_PRODUCTS)"
    to_build+=(${now_modules[$product]:-})
done
if (( ${#to_build[@]} )); then
    mapfile -t to_build < <(printf '%s\n' "${to_build[@]}" | sort -u)
    build_modules "$repo" "$current" "${to_build[@]}"
    for module in "${to_build[@]}"; do dump_module "$repo" "$current" "$module" "$report/$module.json"; done
fi

# Compare, module by module.
broken=0
# Prints break $2 of $1, and counts it unless API_ALLOWLIST lists it (the digester's own breaks
# are matched against the allowlist by the digester).
report_break() {
    if [[ -n "${API_ALLOWLIST:-}" ]] && grep -qxF "$2" "$API_ALLOWLIST"; then
        echo "$1: $2 (allowed)"
    else
        echo "$1: $2"
        broken=1
    fi
}
allowlist=()
if [[ -n "${API_ALLOWLIST:-}" ]]; then
    [[ -f "$API_ALLOWLIST" ]] || fail "API_ALLOWLIST=$API_ALLOWLIST is not a file"
    allowlist=(-breakage-allowlist-path "$API_ALLOWLIST")
fi
for product in $products; do
    if [[ -z "${then_modules[$product]:-}" ]]; then
        echo "$product: new product since $baseline, nothing to compare"
        continue
    fi
    for module in ${then_modules[$product]}; do
        if [[ " ${now_modules[$product]:-} " != *" $module "* ]]; then
            report_break "$product/$module" "API breakage: module $module is no longer in product $product"
            continue
        fi
        out="$report/$module.diagnose.txt"
        "$digester" -diagnose-sdk -input-paths "$cache/$module.json" -input-paths "$report/$module.json" \
            -compiler-style-diags "${allowlist[@]}" -o "$out" >"$out.log" 2>&1 \
            || { cat "$out.log" >&2; fail "swift-api-digester could not compare $module"; }
        label="$product/$module"
        [[ "$module" != "$product" ]] || label="$module"
        if grep -q 'API breakage:' "$out"; then
            echo "$label: $(grep -c 'API breakage:' "$out") breaking change(s):"
            grep 'API breakage:' "$out" | sed 's/^/  /'
            broken=1
        else
            echo "$label: no breaking changes"
        fi
    done
    for module in ${now_modules[$product]:-}; do
        [[ " ${then_modules[$product]} " == *" $module "* ]] || echo "$product/$module: new module since $baseline, nothing to compare"
    done
done
# A framework product the baseline had and the tree no longer has (not asked for by API_PRODUCTS).
if [[ -z "${API_PRODUCTS:-}" ]]; then
    while read -r product; do
        [[ "$product" == Verticals* && "$products" != *" $product "* ]] || continue
        report_break "$product" "API breakage: product $product was removed"
    done < <(cut -d' ' -f1 "$cache/products.all" | sort -u)
fi
if (( broken )); then
    echo "api-check: the API breaks against $baseline: list each break in CHANGELOG.md (allowed before 1.0 in a minor version)"
    exit 1
fi
echo "api-check: no breaking changes against $baseline"
