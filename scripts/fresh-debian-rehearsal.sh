#!/usr/bin/env bash
# The README's two commands on a stock Debian 12, as root: `make fresh-debian-rehearsal`.
#
# A fresh `debootstrap --variant=minbase bookworm` root (downloaded once, cached read-only in
# $VT_FRESH_CACHE, default /var/cache/verticals-fresh-debian) gets only what a clean machine of this
# project's kind has besides Debian: the Swift toolchain at /opt/swift, and the local mirror of
# Swift packages with the git configuration that points SwiftPM at it, and the certificate
# authorities and pip settings of this machine's network (when this machine has them).
# Everything else must come from the checkout: in an overlay over that root, a clone of this
# checkout's HEAD runs scripts/install-deps.sh, then `make build`, then `make run` in the background
# until `svc-supervisor call` answers from it, then `svc-supervisor down`. Nothing is left mounted or
# running; the overlay is removed. Prints each step's time and exits non-zero at the first failure.
#
#   VT_FRESH_MIRROR   the Debian mirror (default: the first of this machine's apt sources, else deb.debian.org)
#   VT_FRESH_KEEP=1   keep the overlay's folder for a look afterwards (it is printed)
set -euo pipefail

die() { echo "fresh-debian-rehearsal: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mounts)"
checkout="$(cd "$(dirname "$0")/.." && pwd)"
cache=${VT_FRESH_CACHE:-/var/cache/verticals-fresh-debian}
mirror=${VT_FRESH_MIRROR:-$(grep -hoE '^URIs: *http[^ ]+/debian$' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1 | sed 's/^URIs: *//')}
mirror=${mirror:-http://deb.debian.org/debian}
toolchain=${VT_FRESH_TOOLCHAIN:-/opt/swift}
packages=/opt/swift-packages
[ -x "$toolchain/usr/bin/swift" ] || die "no Swift toolchain at $toolchain (VT_FRESH_TOOLCHAIN)"

step_started=0
step() { step_started=$(date +%s); echo "== $*" >&2; }
took() { echo "   took $(( $(date +%s) - step_started )) s" >&2; }

# -- the cached base: debootstrap once -------------------------------------------------------------
base="$cache/bookworm-minbase"
. "$checkout/scripts/trusted-cache.sh"
open_cache "$cache"
if [ ! -d "$base" ]; then
    step "debootstrap --variant=minbase bookworm $mirror (once; cached in $base)"
    command -v debootstrap >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2
    rm -rf "$base.building"
    debootstrap --variant=minbase bookworm "$base.building" "$mirror" >/dev/null
    mv "$base.building" "$base"
    took
fi
flock -u 9

# -- an overlay over it, with the toolchain and the package mirror ---------------------------------
work=$(mktemp -d /var/tmp/vt-fresh.XXXXXX)
root="$work/root"
mkdir -p "$work/upper" "$work/work" "$root"
mounts=()
cleanup() {
    set +e
    if [ -x "$root/bin/sh" ] && [ -d "$root/src" ]; then
        chroot "$root" /bin/sh -c 'cd /src && [ -S .run/supervisor.sock ] && PATH=/opt/swift/usr/bin:$PATH \
            "$(swift build --show-bin-path)/svc-supervisor" down --run-dir /src/.run' >/dev/null 2>&1
    fi
    [ -n "${run_pid:-}" ] && kill -TERM "$run_pid" 2>/dev/null && wait "$run_pid" 2>/dev/null
    for (( i=${#mounts[@]}-1; i>=0; i-- )); do umount -l "${mounts[$i]}" 2>/dev/null; done
    umount -l "$root" 2>/dev/null
    if [ "${VT_FRESH_KEEP:-0}" = 1 ]; then echo "kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
mount -t overlay overlay -o "lowerdir=$base,upperdir=$work/upper,workdir=$work/work" "$root"
bind() {  # bind SOURCE TARGET [ro]
    mkdir -p "$2"
    mount --bind "$1" "$2"; mounts+=("$2")
    [ "${3:-}" = ro ] && mount -o remount,bind,ro "$2"
    return 0
}
mount -t proc proc "$root/proc"; mounts+=("$root/proc")
bind /dev "$root/dev"
mount -t devpts devpts "$root/dev/pts" -o newinstance,ptmxmode=0666 2>/dev/null && mounts+=("$root/dev/pts") || true
bind /sys "$root/sys"  # read-write: svc-supervisor puts services with limits into cgroups
mkdir -p "$root/run" "$root/tmp"; chmod 1777 "$root/tmp"
bind "$toolchain" "$root/opt/swift" ro
cp /etc/resolv.conf "$root/etc/resolv.conf"
if [ -d "$packages" ]; then
    bind "$packages" "$root$packages" ro
    # The same redirection a clean machine of this kind has: SwiftPM clones github.com from the mirror.
    { git config --system --get-regexp '^url\.' || true; git config --global --get-regexp '^url\.' || true; } 2>/dev/null \
        | sort -u | while read -r key value; do
            printf '[url "%s"]\n\tinsteadOf = %s\n' "$(echo "$key" | sed 's/^url\.//; s/\.insteadof$//')" "$value"
        done > "$root/etc/gitconfig"
fi
# The certificate authorities and pip settings of this machine's network (a clean machine of its kind
# has them): Debian's ca-certificates, once install-deps installs it, takes the local ones in.
if [ -d /usr/local/share/ca-certificates ]; then
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp -a /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
fi
[ -f /etc/pip.conf ] && grep -v '^find-links' /etc/pip.conf > "$root/etc/pip.conf"
git clone -q --no-hardlinks "$checkout" "$root/src"
in_root() { chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$1"; }

# -- the README's steps ------------------------------------------------------------------------------
step "scripts/install-deps.sh on a stock root (needs git and make first: a minbase root has neither)"
in_root 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends git make >/dev/null'
in_root 'cd /src && bash scripts/install-deps.sh'
took

step "make build"
in_root 'cd /src && make build >/tmp/build.log 2>&1 || { tail -40 /tmp/build.log; exit 1; }'
took

step "make run, until svc-supervisor call answers"
in_root 'cd /src && exec make run >/tmp/run.log 2>&1' &
run_pid=$!
cli='cd /src && PATH=/opt/swift/usr/bin:$PATH && exec "$(swift build --show-bin-path)/svc-supervisor"'
answered=""
for _ in $(seq 1 600); do
    if answer=$(in_root "$cli call clinics nearest '{\"latitude\": 51.5, \"longitude\": -0.12, \"limit\": 1}' --run-dir /src/.run" 2>/dev/null); then answered=1; break; fi
    kill -0 "$run_pid" 2>/dev/null || break
    sleep 0.5
done
if [ -z "$answered" ]; then
    in_root 'tail -40 /tmp/run.log' >&2
    die "make run never answered svc-supervisor call clinics nearest"
fi
echo "$answer" | head -5 >&2
took
in_root "$cli down --run-dir /src/.run" >/dev/null
wait "$run_pid" 2>/dev/null || true
run_pid=""
echo "fresh-debian-rehearsal: passed" >&2
