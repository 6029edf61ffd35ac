#!/usr/bin/env bash
# docs-serve.sh — the API documentation of `make docs`, served to read in a browser: every
# archive under /<Product>/ on 127.0.0.1 (DocC's pages do not load from file://), with a first
# page that links each product's documentation. Ctrl-C stops it.
#
#   scripts/docs-serve.sh [PORT]     default 8000
#
# Needs `make docs` first, and python3.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
port="${1:-8000}"
docs="$repo/.build/docs"
fail() { echo "docs-serve: $*" >&2; exit 2; }
[[ "$port" =~ ^[0-9]+$ ]] || fail "the port is a number, not '$port'"
compgen -G "$docs/*.doccarchive" >/dev/null || fail "no archive in $docs: run make docs first"

# Each archive is built for hosting under /<Product>/ (scripts/docs.sh): the site is a folder of
# links by those names, and an index.
site="$docs/site"
rm -rf "$site"
mkdir -p "$site"
{
    echo '<!doctype html><meta charset="utf-8"><title>Verticals API</title><h1>Verticals API</h1><ul>'
    for archive in "$docs"/*.doccarchive; do
        product="$(basename "$archive" .doccarchive)"
        ln -s "$archive" "$site/$product"
        module="$(ls "$archive/data/documentation" | sed -n 's/\.json$//p' | head -1)"
        echo "<li><a href=\"/$product/documentation/$module/\">$product</a></li>"
    done
    echo '</ul>'
} >"$site/index.html"
echo "docs-serve: http://127.0.0.1:$port/ (Ctrl-C stops it)"
exec python3 -m http.server --bind 127.0.0.1 --directory "$site" "$port"
