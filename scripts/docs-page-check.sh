#!/usr/bin/env bash
# docs-page-check.sh — the rendered API docs as a reader gets them: one archive of `make docs`
# served over HTTP on 127.0.0.1 (DocC's pages do not load from file://), a symbol's page opened in
# headless Chromium, and its declaration looked for in what the browser rendered.
#
#   scripts/docs-page-check.sh [PRODUCT [SYMBOL-PATH [TEXT]]]
#     default: VerticalsWire documentation/verticalswire/frameencoder "enum FrameEncoder"
#
# Needs `make docs` first, python3 and Debian's chromium (`apt-get install chromium`).
# Exit 0: the page shows TEXT. Exit 1: it does not. Exit 2: it could not run.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
product="${1:-VerticalsWire}"
page="${2:-documentation/verticalswire/frameencoder}"
text="${3:-enum FrameEncoder}"
fail() { echo "docs-page-check: $*" >&2; exit 2; }
archive="$repo/.build/docs/$product.doccarchive"
[[ -d "$archive" ]] || fail "no $archive: run make docs first"
browser="$(command -v chromium || command -v chromium-browser || true)"
[[ -n "$browser" ]] || fail "no chromium: apt-get install chromium"

# The archive is transformed for static hosting under /$product/: serve its parent folder's copy.
root="$(mktemp -d)"
profile="$(mktemp -d)"
server=""
cleanup() { [[ -z "$server" ]] || kill "$server" 2>/dev/null || true; rm -rf "$root" "$profile"; }
trap cleanup EXIT
cp -R "$archive" "$root/$product"
port_file="$root/port"
python3 - "$root" "$port_file" <<'PY' &
import functools, http.server, sys
root, port_file = sys.argv[1], sys.argv[2]
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=root)
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args): pass
handler = functools.partial(Quiet, directory=root)
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
open(port_file + ".tmp", "w").write(str(server.server_address[1]))
import os; os.rename(port_file + ".tmp", port_file)
server.serve_forever()
PY
server=$!
for _ in $(seq 1 100); do [[ -s "$port_file" ]] && break; kill -0 "$server" 2>/dev/null || fail "the HTTP server did not start"; sleep 0.1; done
[[ -s "$port_file" ]] || fail "the HTTP server did not say its port"
url="http://127.0.0.1:$(cat "$port_file")/$product/$page/"

dom="$(timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --user-data-dir="$profile" \
    --virtual-time-budget=15000 --dump-dom "$url" 2>/dev/null || true)"
[[ -n "$dom" ]] || fail "chromium rendered nothing for $url"
# The declaration is rendered as tokens in separate elements: compare the text alone.
rendered="$(printf '%s' "$dom" | python3 -c 'import html, re, sys; print(re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", sys.stdin.read()))))')"
if [[ "$(printf '%s' "$rendered" | tr -s ' ')" == *"$text"* ]]; then
    echo "docs-page-check: $url shows \"$text\""
else
    echo "docs-page-check: $url does not show \"$text\"; it shows: ${rendered: -1500}" >&2
    exit 1
fi
