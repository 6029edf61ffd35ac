#!/usr/bin/env bash
# api-products.sh — the framework's public API: its library products, one name a line, read from
# Package.swift (`swift package dump-package`), the one list. A library product is API when its name
# starts with "Verticals"; the reference suite's (IOInterface, the verticals) are the example, not
# API. make api-check checks these; FrameworkListTests holds docs/FRAMEWORK.md's table to the same rule.
set -euo pipefail
cd "$(dirname "$0")/.."
"${SWIFT:-swift}" package dump-package | python3 -c '
import json, sys
for product in json.load(sys.stdin)["products"]:
    if "library" in product["type"] and product["name"].startswith("Verticals"):
        print(product["name"])
'
