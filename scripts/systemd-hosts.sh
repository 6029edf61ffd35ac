#!/usr/bin/env bash
# Two systemd hosts on one machine, as root: `scripts/systemd-hosts.sh up WORK` and `down WORK`.
# SystemdHostsRehearsalTests and SystemdHostsRestoreRehearsalTests (`make systemd-rehearsal`) drive it.
#
# `up WORK` makes two hosts from one manifest (VT_HOSTS_MANIFEST, default deploy/two-hosts.toml):
#   - a Debian bookworm root with systemd 252, made once by debootstrap and cached read-only in
#     $VT_HOSTS_CACHE (default /var/cache/verticals-systemd-hosts); each host is an overlay over it;
#   - in each: the debug build's programs in /usr/local/bin and /opt/swift's runtime libraries (the
#     programs' RUNPATH), the certificates `svc-supervisor certs` minted for the manifest in
#     /etc/verticals/certs (0700, root), and the units `export systemd --host a` (or b) writes, as
#     `make install` installs them, with verticals.target enabled;
#   - where the manifest names a `replica` (the units include a `-replica.service`): the `litestream`
#     found on PATH, as /usr/bin/litestream, where the units run it (its release package's place;
#     none on PATH: exit 2), and each folder replica's `path` (root's, 0755), as an operator mounts
#     the replica's disk there before the units make `path/NAME` in it;
#   - two network namespaces joined by a veth pair on 10.232.45.0/24 (host a .10, host b .11), which
#     nothing but these two hosts uses;
#   - `systemd-nspawn --boot` of each root in its namespace: systemd is PID 1.
# It waits until both have booted and every vertical (and Litestream unit) is active, each restore
# unit done, and writes WORK/hosts.env:
# HOST_A_PID, HOST_B_PID (each container's PID 1: `nsenter -t PID -a CMD` runs CMD inside it),
# HOST_A_NETNS, HOST_B_NETNS (for `ip netns exec`), CERTS (the minted folder, operator included).
#
# VT_HOSTS_ONE=1 boots one host instead (host a, HOST_A_PID only), with the one-host units of
# `export systemd` (no --host) of VT_HOSTS_MANIFEST, default deploy/suite.toml, in a network of its own.
#
# `down WORK` powers both off and removes every namespace, veth, mount and file `up` made; `up` calls
# it itself when it fails. Exit status 2: this machine cannot run it (not root, no systemd-nspawn and
# apt cannot install it, the Debian mirror unreachable, a replica and no litestream), with the reason on stderr.
#
# A run that is killed outright (SIGKILL of its test) runs no `down`. So with VT_TEST_TAG set, `up`
# first records WORK in $VT_HOSTS_RECORDS/TAG/ (default /run/verticals-systemd-hosts, root's, 0700),
# and each container's systemd carries the tag in its environment: `scripts/kill-tagged.sh TAG` kills
# the tagged processes (each container with its PID 1) and runs `down` for every WORK recorded.
set -euo pipefail
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:${PATH:-}"

die() { echo "systemd-hosts: $*" >&2; exit 1; }
cannot() { echo "systemd-hosts: cannot run here: $*" >&2; exit 2; }
checkout="$(cd "$(dirname "$0")/.." && pwd)"
command=${1:-}; work=${2:-}
[ -n "$command" ] && [ -n "$work" ] || die "usage: systemd-hosts.sh up|down WORK"
case "$work" in /*) ;; *) work="$PWD/$work" ;; esac
cache=${VT_HOSTS_CACHE:-/var/cache/verticals-systemd-hosts}
mirror=${VT_HOSTS_MIRROR:-$(grep -hoE '^URIs: *http[^ ]+/debian$' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1 | sed 's/^URIs: *//')}
mirror=${mirror:-http://deb.debian.org/debian}
one=${VT_HOSTS_ONE:-0}
hosts="a b"; [ "$one" = 1 ] && hosts="a"
if [ "$one" = 1 ]; then manifest=${VT_HOSTS_MANIFEST:-$checkout/deploy/suite.toml}; else manifest=${VT_HOSTS_MANIFEST:-$checkout/deploy/two-hosts.toml}; fi
runtime=/opt/swift/usr/lib/swift/linux
# What the programs link besides /opt/swift's runtime, and systemd itself.
packages=systemd,systemd-sysv,dbus,iproute2,libuv1,libsodium23,libsqlite3-0,libssl3,zlib1g,libstdc++6,libgcc-s1,libcurl4,libxml2
subnet=10.232.45
# Names of namespaces and veth ends (at most 15 characters): vt + 8 hex digits of the folder's path + a|b.
tag=$(echo "$work" | sha256sum | cut -c1-8)
# Where `up` records WORK under its run's tag (see above).
records=${VT_HOSTS_RECORDS:-/run/verticals-systemd-hosts}
run_tag=${VT_TEST_TAG:-}
case "$run_tag" in *[!A-Za-z0-9._+-]*) die "VT_TEST_TAG=$run_tag: only letters, digits and . _ + -" ;; esac

# The pids of the processes whose environment holds VT_SYSTEMD_HOSTS=TAG: each container's PID 1.
containers() {
    local environ pid
    for environ in /proc/[0-9]*/environ; do
        pid=${environ#/proc/}; pid=${pid%/environ}
        if { tr '\0' '\n' <"$environ"; } 2>/dev/null | grep -qxF "VT_SYSTEMD_HOSTS=$tag"; then echo "$pid"; fi
    done
}

down() {
    set +e
    for host in a b; do
        pidfile="$work/$host/nspawn.pid"
        nspawn=$(cat "$pidfile" 2>/dev/null)
        [ -n "$nspawn" ] && [ "$(cat "/proc/$nspawn/comm" 2>/dev/null)" = systemd-nspawn ] || continue
        # SIGTERM asks the container's systemd to power off; SIGKILL after 30 s.
        kill -TERM "$nspawn" 2>/dev/null
        for _ in $(seq 300); do kill -0 "$nspawn" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$nspawn" 2>/dev/null
        rm -f "$pidfile"
    done
    # A container whose systemd-nspawn was killed outright keeps running: SIGKILL of its PID 1 ends
    # every process in its PID namespace.
    for _ in $(seq 100); do
        pids=$(containers)
        [ -z "$pids" ] && break
        # shellcheck disable=SC2086
        kill -KILL $pids 2>/dev/null
        sleep 0.1
    done
    for host in a b; do
        root="$work/$host/root"
        if mountpoint -q "$root" 2>/dev/null; then umount "$root" 2>/dev/null || umount -l "$root"; fi
        ip netns del "vt${tag}$host" 2>/dev/null
        rm -rf "/etc/netns/vt${tag}$host"
        # A veth end still in this namespace (`up` killed before it moved it).
        ip link del "vt${tag}$host" 2>/dev/null
    done
    rm -rf "$work"
    rm -f "$records"/*/"$tag"
    rmdir "$records"/* 2>/dev/null
    return 0
}

if [ "$command" = down ]; then down; exit 0; fi
[ "$command" = up ] || die "unknown command $command (up or down)"

# -- can this machine run it -----------------------------------------------------------------------
[ "$(id -u)" -eq 0 ] || cannot "needs root (debootstrap, overlays, network namespaces, systemd-nspawn)"
if ! command -v systemd-nspawn >/dev/null 2>&1; then
    echo "installing systemd-container (apt-get)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq systemd-container >&2 \
        || cannot "no systemd-nspawn, and apt-get could not install systemd-container"
fi
command -v ip >/dev/null 2>&1 || cannot "no ip (iproute2)"
bin=${VT_HOSTS_BIN:-$(cd "$checkout" && swift build --show-bin-path)}
[ -x "$bin/svc-supervisor" ] || die "no programs in $bin: build first (swift build)"

# -- the cached root: debootstrap once -------------------------------------------------------------
key=$(echo "debootstrap --variant=minbase --include=$packages bookworm $mirror" | sha256sum | cut -c1-16)
base="$cache/bookworm-systemd-$key"
. "$checkout/scripts/trusted-cache.sh"
open_cache "$cache"
if [ ! -d "$base" ]; then
    command -v debootstrap >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq debootstrap >&2 \
        || cannot "no debootstrap, and apt-get could not install it"
    wget -q -T 20 -t 2 -O /dev/null "$mirror/dists/bookworm/Release" || cannot "the Debian mirror $mirror is unreachable"
    echo "debootstrap bookworm with systemd (once; cached in $base)" >&2
    building="$base.building.$$"
    rm -rf "$building"
    debootstrap --variant=minbase --include="$packages" bookworm "$building" "$mirror" >"$building.log" 2>&1 \
        || { tail -20 "$building.log" >&2; rm -rf "$building"; die "debootstrap failed"; }
    rm -f "$building.log"
    mv "$building" "$base"
fi
flock -u 9

# -- the hosts ---------------------------------------------------------------------------------------
trap 'status=$?; if [ $status -ne 0 ]; then down; fi; exit $status' EXIT
trap 'exit 130' INT TERM
if [ -n "$run_tag" ]; then
    install -d -m 0700 -o root -g root "$records" "$records/$run_tag"
    echo "$work" >"$records/$run_tag/$tag"
fi
mkdir -p "$work"
certs="$work/certs"
"$bin/svc-supervisor" certs "$certs" --manifest "$manifest" >/dev/null
for host in $hosts; do
    dir="$work/$host"; root="$dir/root"
    mkdir -p "$dir/upper" "$dir/work" "$root" "$dir/units"
    mount -t overlay overlay -o "lowerdir=$base,upperdir=$dir/upper,workdir=$dir/work" "$root"
    install -d -m 0755 "$root/usr/local/bin" "$root$runtime" "$root/etc/systemd/system/multi-user.target.wants" \
        "$root/etc/sysusers.d" "$root/etc/tmpfiles.d"
    for program in "$bin"/svc-*; do
        case "$(basename "$program")" in *.*) continue ;; esac
        if [ -f "$program" ] && [ -x "$program" ]; then install -m 0755 "$program" "$root/usr/local/bin/"; fi
    done
    cp -a "$runtime"/*.so "$root$runtime/"
    install -d -m 0700 "$root/etc/verticals/certs"
    cp -a "$certs"/. "$root/etc/verticals/certs/"
    rm -f "$root/etc/verticals/certs/ca.key"  # the CA's key stays off the hosts
    chown -R root:root "$root/etc/verticals/certs"
    placement=(--host "$host"); [ "$one" = 1 ] && placement=()
    "$bin/svc-supervisor" export systemd "${placement[@]}" --manifest "$manifest" --prefix /usr/local --out "$dir/units" >/dev/null
    install -m 0644 "$dir/units"/*.socket "$dir/units"/*.service "$dir/units"/*.target "$root/etc/systemd/system/"
    if compgen -G "$dir/units/*-replica.service" >/dev/null; then
        litestream=$(command -v litestream) || cannot "the manifest names a replica and no litestream is on PATH"
        install -m 0755 "$(readlink -f "$litestream")" "$root/usr/bin/litestream"
        # A folder replica's `path` is the operator's (the units make only `path/NAME`, as root).
        sed -n 's|^ExecStartPre=-+/bin/mkdir -m 0700 ||p' "$dir/units"/*-replica.service | while read -r folder; do
            install -d -m 0755 -o root -g root "$root$(dirname "$folder")"
        done
    fi
    install -m 0644 "$dir/units/sysusers.d/verticals.conf" "$root/etc/sysusers.d/verticals.conf"
    install -m 0644 "$dir/units/tmpfiles.d/verticals.conf" "$root/etc/tmpfiles.d/verticals.conf"
    ln -sf /etc/systemd/system/verticals.target "$root/etc/systemd/system/multi-user.target.wants/verticals.target"
    echo "host-$host" >"$root/etc/hostname"
    : >"$root/etc/machine-id"
done

# The network: a veth pair between the two hosts' namespaces, nothing else on it (one host: loopback only).
ip netns add "vt${tag}a"
ip -n "vt${tag}a" link set lo up
if [ "$one" != 1 ]; then
    ip netns add "vt${tag}b"
    ip link add "vt${tag}a" type veth peer name "vt${tag}b"
    ip link set "vt${tag}a" netns "vt${tag}a"
    ip link set "vt${tag}b" netns "vt${tag}b"
    for pair in a:10 b:11; do
        host=${pair%:*}; ns="vt${tag}$host"
        ip -n "$ns" link set lo up
        ip -n "$ns" addr add "$subnet.${pair#*:}/24" dev "$ns"
        ip -n "$ns" link set "$ns" up
    done
fi

# Under a host's own systemd, nspawn runs each container in a scope unit of its own; with no systemd
# (a container, a CI runner) there is no bus to ask, and it stays in the caller's cgroup (--keep-unit).
scope=(); [ -d /run/systemd/system ] || scope=(--keep-unit)
for host in $hosts; do
    dir="$work/$host"
    systemd-nspawn --quiet --register=no "${scope[@]}" --boot --directory="$dir/root" --machine="vt${tag}$host" \
        --network-namespace-path="/run/netns/vt${tag}$host" --console=passive \
        --setenv="VT_SYSTEMD_HOSTS=$tag" ${run_tag:+--setenv="VT_TEST_TAG=$run_tag"} \
        >"$dir/console.log" 2>&1 &
    echo $! >"$dir/nspawn.pid"
done

# Each container's PID 1 is the child of its systemd-nspawn.
leader() {
    local nspawn; nspawn=$(cat "$work/$1/nspawn.pid")
    for _ in $(seq 300); do
        kill -0 "$nspawn" 2>/dev/null || { cat "$work/$1/console.log" >&2; die "host $1's systemd-nspawn exited"; }
        child=$(ps -o pid= --ppid "$nspawn" | head -1 | tr -d ' ')
        if [ -n "$child" ] && [ "$(cat /proc/$child/comm 2>/dev/null)" = systemd ]; then echo "$child"; return; fi
        sleep 0.1
    done
    die "host $1's systemd never started"
}
pid_a=$(leader a); pid_b=""; [ "$one" = 1 ] || pid_b=$(leader b)
for pair in "a:$pid_a" ${pid_b:+"b:$pid_b"}; do
    host=${pair%:*}; pid=${pair#*:}
    for _ in $(seq 1200); do [ -S "/proc/$pid/root/run/systemd/private" ] && break; sleep 0.1; done
    state=$(timeout 180 nsenter -t "$pid" -a systemctl is-system-running --wait 2>/dev/null || true)
    # Every unit but the restore oneshots, which run before their vertical and are done (inactive).
    # `is-active` of several units succeeds when any is active: each one's state is counted instead.
    units=$(cd "$work/$host/units" && ls verticals-*.service verticals-*.socket | grep -v -- '-restore\.service$')
    all_active() {
        local states
        # shellcheck disable=SC2086
        states=$(nsenter -t "$pid" -a systemctl is-active verticals.target $units || true)
        [ "$(grep -cx active <<<"$states")" -eq "$(wc -w <<<"verticals.target $units")" ]
    }
    for _ in $(seq 600); do
        all_active && break
        # shellcheck disable=SC2086
        nsenter -t "$pid" -a systemctl is-failed --quiet $units && break
        sleep 0.1
    done
    if ! all_active; then
        nsenter -t "$pid" -a systemctl --no-pager --failed >&2 || true
        nsenter -t "$pid" -a journalctl --no-pager -n 60 >&2 || tail -40 "$work/$host/console.log" >&2
        die "host $host booted ($state) but verticals.target is not active"
    fi
    echo "host $host: systemd $(nsenter -t "$pid" -a systemctl --version | head -1 | cut -d' ' -f2) as PID 1 ($pid), $state" >&2
done
cat >"$work/hosts.env" <<EOF
HOST_A_PID=$pid_a
HOST_B_PID=$pid_b
HOST_A_NETNS=vt${tag}a
HOST_B_NETNS=vt${tag}b
CERTS=$certs
EOF
trap - EXIT
