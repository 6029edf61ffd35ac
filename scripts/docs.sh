#!/usr/bin/env bash
# docs.sh — the framework's API documentation: one DocC archive per library product, from the
# catalog in its target's folder (`Docs.docc`) and the symbol graph of the module as built.
#
#   scripts/docs.sh              every Verticals* library product, into .build/docs/<Product>.doccarchive
#   DOCS_PRODUCTS="VerticalsWire …" scripts/docs.sh   only those
#
# Warnings are errors: a doc comment's ``Symbol`` link that no longer resolves, or a catalog page
# naming a symbol that is gone, fails the run with the file and line. It reads the modules of the
# debug build (`swift build` first; `make docs` does) with the toolchain's own
# swift-symbolgraph-extract and `docc convert`, so nothing that depends on the framework has to
# resolve swift-docc-plugin. The archives are transformed for static hosting: serve
# .build/docs/<Product>.doccarchive over HTTP (DocC's pages do not load from file://) and open
# /documentation/<module>/.
#
# Exit 0: every archive built with no warning. Exit 1: a catalog or a doc comment has a problem
# (printed). Exit 2: it could not run (no build, no docc).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
swift="${SWIFT:-swift}"
fail() { echo "docs: $*" >&2; exit 2; }
toolchain="$(dirname "$(readlink -f "$(command -v "$swift")")")"
extract="$toolchain/swift-symbolgraph-extract"
docc="$toolchain/docc"
[[ -x "$extract" && -x "$docc" ]] || fail "no swift-symbolgraph-extract or docc beside $swift"
bin="$("$swift" build --show-bin-path)"
[[ -d "$bin/Modules" && -f "$repo/.build/debug.yaml" ]] || fail "build first: swift build (make docs does)"
triple="$(basename "$(dirname "$bin")")"
[[ "$triple" == *-* ]] || triple="x86_64-unknown-linux-gnu"

out="$repo/.build/docs"
graphs="$out/symbol-graphs"
rm -rf "$out"
mkdir -p "$graphs"

# "product module path": each Verticals* library product's Swift module and its folder.
mapfile -t products < <("$swift" package describe --type json 2>/dev/null | python3 -c '
import json, sys
package = json.load(sys.stdin)
swift = {t["name"]: t["path"] for t in package["targets"] if t.get("module_type") == "SwiftTarget"}
for product in package["products"]:
    if "library" in product["type"] and product["name"].startswith("Verticals"):
        for target in product["targets"]:
            if target in swift:
                print(product["name"], target, swift[target])
')
(( ${#products[@]} )) || fail "swift package describe named no Verticals* library product"

# The C module maps the build's own compiles used, one per module.
flags=()
while read -r map; do flags+=(-Xcc "-fmodule-map-file=$map"); done \
    < <(grep -o '"-fmodule-map-file=[^"]*"' "$repo/.build/debug.yaml" | sed 's/^"-fmodule-map-file=//; s/"$//' | sort -u)

status=0
built=0
for line in "${products[@]}"; do
    read -r product module path <<<"$line"
    if [[ -n "${DOCS_PRODUCTS:-}" && " $DOCS_PRODUCTS " != *" $product "* ]]; then continue; fi
    catalog="$path/Docs.docc"
    if [[ ! -d "$catalog" ]]; then
        echo "docs: $product has no catalog: add $catalog with an overview page (# \`\`$module\`\`)" >&2
        status=1
        continue
    fi
    mkdir -p "$graphs/$module"
    "$extract" -module-name "$module" -target "$triple" -I "$bin/Modules" "${flags[@]}" \
        -output-dir "$graphs/$module" -minimum-access-level public -skip-inherited-docs \
        -module-cache-path "$out/module-cache" >"$out/$module.extract.log" 2>&1 \
        || { cat "$out/$module.extract.log" >&2; fail "could not read the symbols of $module (is it built?)"; }
    if ! "$docc" convert "$catalog" --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.verticals.$module" \
        --transform-for-static-hosting --hosting-base-path "$product" \
        --warnings-as-errors --output-path "$out/$product.doccarchive" >"$out/$module.docc.log" 2>&1; then
        sed "s|$repo/||g" "$out/$module.docc.log" >&2
        echo "docs: $product: the problems above (fix the doc comment or the catalog page they name)" >&2
        status=1
        continue
    fi
    built=$((built + 1))
done
echo "docs: $built archives in ${out#"$repo/"}"
exit "$status"
