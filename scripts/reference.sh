#!/usr/bin/env bash
# reference.sh — the command-line reference, generated from svc-supervisor's ArgumentParser tree,
# and the ENVIRONMENT reference, generated from the settings declarations.
#
#   scripts/reference.sh           write docs/man/*.1 (one mdoc page per command, each option's
#                                  default included), docs/man/verticals-manifest.5 (the manifest's
#                                  keys), docs/man/verticals-daemon.8 (every daemon's options,
#                                  settings and exit statuses),
#                                  docs/reference/svc-supervisor.md (every command on one page) and
#                                  docs/reference/manifest.md (every manifest key, from the decoder's list),
#                                  docs/reference/environment.md (every variable each program reads),
#                                  and docs/FRAMEWORK.md's table of modules (scripts/framework-table.py)
#   scripts/reference.sh --check   generate into .build and fail, naming each page, when what is
#                                  committed differs from what the code gives now (make test runs it)
#
# The generators are swift-argument-parser's own plugins, generate-manual and
# generate-docc-reference: each builds the package's programs (debug: after `swift build` that is
# a no-op) and reads their `--experimental-dump-help`, so a page cannot lack a command or a flag
# the program offers. The environment reference comes from `vt-settings` (the supervisor's and every
# daemon's declarations) and each vertical's `svc-<name> --print-settings` (its own); svc-supervisor(1)
# gets the supervisor's as its ENVIRONMENT section. The pages' date is the release date of the current version in CHANGELOG.md
# (the current date for an unreleased one would change every page every day).
set -euo pipefail

cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
check=false
[ "${1:-}" = "--check" ] && check=true

program=svc-supervisor-engine
version="$("$SWIFT" build --show-bin-path)/svc-supervisor"
version="$("$version" --version | awk '{ print $2 }')"
# Between releases (X.Y.Z-dev) the pages keep the latest release's date until theirs is cut.
case "$version" in
    *-*) date="$(sed -n "s/^## [0-9][0-9.]* — \([0-9-]*\)\$/\1/p" CHANGELOG.md | head -1)" ;;
    *) date="$(sed -n "s/^## $version — \([0-9-]*\)\$/\1/p" CHANGELOG.md | head -1)" ;;
esac
if [ -z "$date" ]; then
    echo "reference: CHANGELOG.md has no '## $version — YYYY-MM-DD' heading for the pages' date" >&2
    exit 2
fi

# generate-docc-reference writes into each program's source folder: remove what it leaves there.
catalogs() { find Services Shared Tests -maxdepth 4 -type d -name '*.docc' -newer "$stamp" 2>/dev/null; }
stamp="$(mktemp)"
keys=""
cleanup() { catalogs | xargs -r rm -rf; rm -f "$stamp" "$keys"; }
trap cleanup EXIT

plugin() {
    if ! log="$("$SWIFT" package --allow-writing-to-package-directory "$@" --configuration debug 2>&1)"; then
        printf '%s\n' "$log" | grep -v "warning: .*unhandled\|CMakeLists.txt" >&2
        echo "reference: swift package $1 failed" >&2
        exit 2
    fi
}
plugin generate-manual --multi-page --section 1 --date "$date"
plugin generate-docc-reference --style github

pages=".build/plugins/GenerateManual/outputs/$program"
markdown="$(catalogs | grep "/$program.docc\$" | head -1)/svc-supervisor.md"
[ -d "$pages" ] && [ -f "$markdown" ] || { echo "reference: the plugins wrote no pages for $program" >&2; exit 2; }

# A command's "Exit status: …" paragraph (the root's is written from CLIExitStatus, the one list of
# statuses) becomes its page's EXIT STATUS section, in place of generate-manual's generic `.Ex -std`.
for page in "$pages"/*.1; do
    grep -q '^Exit status: ' "$page" || continue
    awk '
        { line[NR] = $0 }
        END {
            for (i = 1; i <= NR; i++) {
                if (!start && line[i] ~ /^Exit status: /) {
                    start = i; end = i
                    while (end < NR && line[end + 1] != "" && line[end + 1] !~ /^\./) end++
                }
            }
            for (i = 1; i <= NR; i++) {
                if (start && i >= start && i <= end) continue
                if (start && i == start - 1 && line[i] == "") continue
                if (start && line[i] == ".Ex -std") { for (j = start; j <= end; j++) print line[j]; continue }
                print line[i]
            }
        }' "$page" > "$page.exit" && mv "$page.exit" "$page"
done

bin="$("$SWIFT" build --show-bin-path)"
# The pages' date as generate-manual writes it (`.Dd November 23, 2026`), for the pages added below.
mandate="$(LC_ALL=C date -u -d "$date" '+%B %-d, %Y')"

# Every option's default (the plugins write none), from the program's own description of itself;
# each command's page points to the ENVIRONMENT of svc-supervisor(1) and to the pages below.
dump="$(mktemp)"
"$bin/$program" --experimental-dump-help >"$dump"
python3 scripts/reference-pages.py defaults "$dump" "$pages" "$markdown"
python3 scripts/reference-pages.py see-also "$pages"
rm -f "$dump"

# The manifest keys, from the decoder's own list (svc-supervisor check --list-keys).
keys="$(mktemp)"
"$bin/$program" check --list-keys > "$keys"
# verticals-manifest(5) from the same list, and verticals-daemon(8): every daemon's options,
# settings and exit statuses, from the declarations the daemons use.
python3 scripts/reference-pages.py manifest "$mandate" <"$keys" >"$pages/verticals-manifest.5"
"$bin/vt-settings" --daemon-page "$mandate" >"$pages/verticals-daemon.8"

# The ENVIRONMENT section goes before EXIT STATUS, where mdoc orders it.
section="$(mktemp)" environment="$(mktemp)"
trap 'cleanup; rm -f "$section" "$environment"' EXIT
"$bin/vt-settings" --mdoc >"$section"
awk -v file="$section" '/^\.Sh "EXIT STATUS"/ { while ((getline line < file) > 0) print line } { print }' \
    "$pages/svc-supervisor.1" >"$pages/svc-supervisor.1.new"
mv "$pages/svc-supervisor.1.new" "$pages/svc-supervisor.1"
{
    echo "# Environment"
    echo
    echo "<!-- Generated by scripts/reference.sh from the settings declarations: edit those, then run it. -->"
    echo
    echo "Every variable each program reads, with its type, default and allowed values. A daemon's"
    echo "\`--check\` and \`svc-supervisor check\` validate the same declarations, naming each value not allowed."
    echo
    "$bin/vt-settings"
    for main in Services/*/main; do
        name="$(basename "$(dirname "$main")" | tr '[:upper:]' '[:lower:]')"
        own="$("$bin/svc-$name" --print-settings)"
        [ -z "$own" ] || printf '\n%s\n' "$own"
    done
} >"$environment"

if $check; then
    stale=()
    cmp -s "$keys" docs/reference/manifest.md || stale+=(docs/reference/manifest.md)
    for page in "$pages"/*.[158]; do
        cmp -s "$page" "docs/man/$(basename "$page")" || stale+=("docs/man/$(basename "$page")")
    done
    for page in docs/man/*; do
        [ -e "$pages/$(basename "$page")" ] || stale+=("$page (no such command now)")
    done
    cmp -s "$markdown" docs/reference/svc-supervisor.md || stale+=(docs/reference/svc-supervisor.md)
    cmp -s "$environment" docs/reference/environment.md || stale+=(docs/reference/environment.md)
    "$SWIFT" package dump-package | python3 scripts/framework-table.py --check >/dev/null \
        || stale+=("docs/FRAMEWORK.md (its table of modules, from Package.swift)")
    if [ ${#stale[@]} -gt 0 ]; then
        echo "reference: these pages differ from what the command line gives now; run \`make reference\`:" >&2
        printf '  %s\n' "${stale[@]}" >&2
        exit 1
    fi
    echo "reference: $(ls "$pages"/*.[158] | wc -l) manual pages, the Markdown references and the manifest keys match the code"
else
    rm -rf docs/man && mkdir -p docs/man docs/reference
    cp "$pages"/*.[158] docs/man/
    cp "$markdown" docs/reference/svc-supervisor.md
    cp "$keys" docs/reference/manifest.md
    cp "$environment" docs/reference/environment.md
    "$SWIFT" package dump-package | python3 scripts/framework-table.py >/dev/null
    echo "wrote docs/man ($(ls docs/man | wc -l) pages), docs/reference/svc-supervisor.md, manifest.md and environment.md"
fi
