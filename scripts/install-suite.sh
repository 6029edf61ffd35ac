#!/usr/bin/env bash
# install-suite.sh — what `make install` does once the programs are built, the same for the
# framework's suite and for a product (both Makefiles run it): the programs to PREFIX/bin; the
# systemd files `svc-supervisor export systemd` writes for MANIFEST (for host HOST when given) to
# PREFIX/lib/systemd/system, sysusers.d and tmpfiles.d; the manifest to PREFIX/etc/SUITE/suite.toml,
# where the exported SUITE-supervisor.service reads it (an existing one is kept). SUITE is the
# manifest's [suite] name, which every file the export writes is named after. All under DESTDIR.
#
#   install-suite.sh BIN PREFIX DESTDIR MANIFEST HOST [PROGRAM...]
#
# BIN: the build's folder of programs; DESTDIR and HOST may be empty. PROGRAMs are names in BIN;
# without any, every svc-* program there and vt-exec.
set -euo pipefail
bin="${1:?usage: install-suite.sh BIN PREFIX DESTDIR MANIFEST HOST [PROGRAM...]}"
prefix="${2:?usage: install-suite.sh BIN PREFIX DESTDIR MANIFEST HOST [PROGRAM...]}"
destdir="$3"
manifest="${4:?usage: install-suite.sh BIN PREFIX DESTDIR MANIFEST HOST [PROGRAM...]}"
host="$5"
shift 5

units="$(mktemp -d -t vt-install.XXXXXX)"
trap 'rm -rf "$units"' EXIT
"$bin/svc-supervisor" export systemd --prefix "$prefix" --manifest "$manifest" --out "$units" \
    ${host:+--host "$host"} >/dev/null
suite="$(basename "$(ls "$units"/sysusers.d/*.conf)" .conf)"
root="$destdir$prefix"
install -d "$root/bin" "$root/lib/systemd/system" "$root/lib/sysusers.d" "$root/lib/tmpfiles.d" "$root/etc/$suite"

programs=("$@")
if [ "${#programs[@]}" -eq 0 ]; then
    for program in "$bin"/svc-* "$bin/vt-exec"; do
        [ -f "$program" ] && [ -x "$program" ] && programs+=("$(basename "$program")")
    done
fi
for program in "${programs[@]}"; do install -m 0755 "$bin/$program" "$root/bin/"; done
for unit in "$units"/*.socket "$units"/*.service "$units"/*.target "$units/$suite-secrets.conf"; do
    [ ! -e "$unit" ] || install -m 0644 "$unit" "$root/lib/systemd/system/"
done
install -m 0644 "$units/sysusers.d/$suite.conf" "$root/lib/sysusers.d/$suite.conf"
install -m 0644 "$units/tmpfiles.d/$suite.conf" "$root/lib/tmpfiles.d/$suite.conf"

installed="$root/etc/$suite/suite.toml"
if [ -e "$installed" ]; then
    echo "kept $installed (yours); the new one is $manifest"
else
    install -m 0644 "$manifest" "$installed"
fi
echo "installed $suite under $root${host:+, for host $host of $manifest}; next, as root:" \
    "systemd-sysusers $suite.conf; systemd-tmpfiles --create $suite.conf; systemctl daemon-reload;" \
    "systemctl enable --now $suite.target (docs/systemd.md)"
