#!/usr/bin/env bash
# format.sh — the toolchain's `swift format` over every tracked Swift file, with the root's
# .swift-format (4-space indent, lines up to 120 columns, the pretty printer only: no rule that
# rewrites code).
#
#   scripts/format.sh           format every tracked Swift file in place (`make format`)
#   scripts/format.sh --check   change nothing; fail, naming each file, when formatting would
#                               change one (make test runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"

mapfile -t files < <(git ls-files '*.swift')
[ "${#files[@]}" -gt 0 ] || { echo "format: no tracked Swift file" >&2; exit 1; }

if [ "${1:-}" != "--check" ]; then
    "$SWIFT" format format --in-place --parallel "${files[@]}"
    exit 0
fi

# Format a copy and compare: `swift format lint` would also apply the lint rules, and this is a
# format check, not a style lint.
copy=$(mktemp -d -t vt-format.XXXXXX)
trap 'rm -rf "$copy"' EXIT
cp .swift-format "$copy/"
printf '%s\0' "${files[@]}" | tar --null -T - -cf - | tar -C "$copy" -xf -
(cd "$copy" && "$SWIFT" format format --in-place --parallel "${files[@]}")
changed=()
for file in "${files[@]}"; do
    cmp -s "$file" "$copy/$file" || changed+=("$file")
done
if [ "${#changed[@]}" -gt 0 ]; then
    echo "format: ${#changed[@]} file(s) are not formatted; run \`make format\` and commit the result:" >&2
    printf '  %s\n' "${changed[@]}" >&2
    exit 1
fi
echo "format: ${#files[@]} Swift files formatted as .swift-format says"
