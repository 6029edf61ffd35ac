#!/usr/bin/env bash
# The image of deploy/kubernetes/Containerfile, rehearsed without a registry or a cluster.
# Driven by Tests/SuiteDeployTests/KubernetesRehearsalTests.swift (`make kubernetes-rehearsal`), which parses
# the exported Containerfile and objects and hands this script only what they say: the script keeps no
# list of its own, and does the mechanics, as root.
#
#   kubernetes-rehearsal.sh base SUITE STAGE_FILE
#       The runtime stage below its COPY lines: `debootstrap --variant=minbase SUITE` (what Debian's
#       SUITE-slim image is made of), then the stage's RUN instruction (STAGE_FILE, its continuation
#       lines joined) run in it with chroot, as a build runs it. Cached in
#       $VT_REHEARSAL_CACHE (default /var/cache/verticals-rehearsal)/SUITE-<hash of suite, mirror and
#       STAGE_FILE>, so a second run downloads nothing and a changed package list builds anew.
#       Prints that folder on its last line. Exit 3: the mirror ($VT_REHEARSAL_MIRROR, default
#       http://deb.debian.org/debian) cannot be reached.
#
#   kubernetes-rehearsal.sh pod SPEC_FILE
#       One pod, as a container runtime would make it, in its own mount, network (loopback only)
#       and PID namespaces, so that nothing outlives it: the root is a read-only overlay of the
#       image's layers (SPEC's LAYERS over BASE) plus a layer of empty mount points; then /proc,
#       a minimal /dev and the pod's volumes (MOUNTS: `tmpfs:PATH` for an emptyDir, `ro:HOST:PATH`
#       for a Secret, `rw:HOST:PATH` for a claim). Every program runs with chroot into that root as
#       RUN_UID:RUN_GID (groups RUN_GROUPS), no capability, no_new_privs, with the environment of
#       ENV_FILE (the ConfigMap), the image's PATH and the user's HOME. In order: COMMAND --check;
#       COMMAND started; PROBE until it answers (at most READY_SECONDS); the daemon's credentials and
#       the libraries it mapped; PROBE again, and with STRANGER_ENV added (another vertical's
#       certificate) when set; EXEC when set (a `kubectl exec` in the running container); SIGTERM
#       (SIGKILL after STOP_SECONDS), then PROBE; COMMAND --check again; a write to the root. Each
#       step prints `== STEP STATUS` and then its output indented by three spaces.
set -uo pipefail

die() { echo "kubernetes-rehearsal: $*" >&2; exit 1; }
. "$(dirname "$0")/trusted-cache.sh"

# -- base ---------------------------------------------------------------------------------------
base() {
    local suite=$1 stage=$2
    local mirror=${VT_REHEARSAL_MIRROR:-http://deb.debian.org/debian}
    local cache=${VT_REHEARSAL_CACHE:-/var/cache/verticals-rehearsal}
    [ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mounts)"
    local key
    key=$({ echo "debootstrap --variant=minbase $suite $mirror"; cat "$stage"; } | sha256sum | cut -c1-16)
    local dir="$cache/$suite-$key"
    open_cache "$cache"
    if [ -d "$dir" ]; then
        echo "cached: $dir" >&2
        echo "$dir"
        return 0
    fi
    if ! command -v debootstrap >/dev/null 2>&1; then
        echo "installing debootstrap (apt-get)" >&2
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq debootstrap >&2 \
            || die "cannot install debootstrap"
    fi
    if ! wget -q -T 20 -t 2 -O /dev/null "$mirror/dists/$suite/Release"; then
        echo "kubernetes-rehearsal: cannot reach the Debian mirror $mirror (dists/$suite/Release)" >&2
        exit 3
    fi
    local building="$cache/.building-$suite-$key-$$"
    rm -rf "$building"
    local started=$SECONDS
    echo "debootstrap --variant=minbase $suite $building $mirror" >&2
    if ! debootstrap --variant=minbase "$suite" "$building" "$mirror" >"$building.log" 2>&1; then
        tail -20 "$building.log" >&2
        rm -rf "$building" "$building.log"
        die "debootstrap failed"
    fi
    echo "the stage's RUN, in the new root:" >&2
    printf '%s\n' "$(cat "$stage")" | sed 's/^/  /' >&2
    # As a build runs it: /bin/sh -c, as root, with the image's PATH; /proc only while it runs.
    if ! unshare --mount --propagation private -- bash -c '
            mount -t proc proc "$1/proc" && exec env -i DEBIAN_FRONTEND=noninteractive HOME=/root \
                PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin chroot "$1" /bin/sh -c "$2"' \
            _ "$building" "$(cat "$stage")" >"$building.log" 2>&1; then
        tail -20 "$building.log" >&2
        rm -rf "$building" "$building.log"
        die "the runtime stage's RUN failed in the new root"
    fi
    rm -f "$building.log"
    # What Debian's slim images keep out (their apt config docker-clean): the downloaded packages.
    rm -rf "$building"/var/cache/apt/archives/*.deb "$building"/var/cache/apt/*.bin
    mv -T "$building" "$dir"
    echo "built $dir in $((SECONDS - started)) s" >&2
    echo "$dir"
}

# -- pod ----------------------------------------------------------------------------------------
pod() {
    [ "$(id -u)" -eq 0 ] || die "needs root (namespaces, mounts, chroot)"
    # --kill-child: if this process is killed (the test's time limit), the pod's PID 1 goes with it,
    # and with it every process of the pod; the mounts live only in the pod's mount namespace.
    exec unshare --mount --propagation private --net --pid --fork --kill-child --mount-proc \
        -- bash "$0" pod-inside "$1"
}

# Becomes its arguments in the container: chroot into the pod's root, then its user with no
# capability left, not even in the bounding set (`drop: [ALL]`), and no_new_privs
# (`allowPrivilegeEscalation: false`), with the ConfigMap's environment only (plus the image's PATH,
# HOME and the run's test tag). setpriv is the root's own (util-linux is essential in Debian), as only
# root may chroot. Each program execs the next, so `launch … &` leaves the daemon's own pid in $!.
launch() {
    exec env -i "${environment[@]}" /usr/sbin/chroot "$root" /usr/bin/setpriv \
        --reuid="$RUN_UID" --regid="$RUN_GID" --groups="$RUN_GROUPS" \
        --inh-caps=-all --bounding-set=-all --no-new-privs -- "$@"
}

# Runs its arguments in the container and waits for them.
container() { (launch "$@"); }

# Prints `== NAME STATUS` and the command's output, indented.
step() {
    local name=$1 output status
    shift
    output=$("$@" 2>&1)
    status=$?
    echo "== $name $status"
    [ -z "$output" ] || sed 's/^/   /' <<<"$output"
    return 0
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

pod_inside() {
    STRANGER_ENV=() EXEC=()
    # shellcheck disable=SC1090
    source "$1"
    root="$WORK/root"
    local points="$WORK/mountpoints"
    mkdir -p "$root" "$points"
    ip link set lo up || die "cannot bring up loopback in the pod's network namespace"

    # The root: read-only, as readOnlyRootFilesystem: true. Mount points are made in a layer of
    # their own, as a runtime makes them, so the image's layers stay as built.
    local entry kind a b lower
    for entry in "${MOUNTS[@]}"; do
        mkdir -p "$points${entry##*:}"
    done
    lower="$points"
    for entry in "${LAYERS[@]}"; do lower+=":$entry"; done
    lower+=":$BASE"
    mount -t overlay overlay -o "ro,lowerdir=$lower" "$root" || die "cannot mount the overlay root"
    mount -t proc -o nosuid,nodev,noexec proc "$root/proc" || die "cannot mount /proc"
    mount -t tmpfs -o nosuid,noexec,mode=0755,size=64k tmpfs "$root/dev" || die "cannot mount /dev"
    for entry in null zero full random urandom; do
        touch "$root/dev/$entry" && mount --bind "/dev/$entry" "$root/dev/$entry" || die "cannot bind /dev/$entry"
    done
    for entry in "${MOUNTS[@]}"; do
        IFS=: read -r kind a b <<<"$entry"
        case $kind in
            tmpfs) mount -t tmpfs -o nosuid,nodev,mode=0777 tmpfs "$root$a" ;;
            ro) mount --bind "$a" "$root$b" && mount -o remount,bind,ro "$root$b" ;;
            rw) mount --bind "$a" "$root$b" ;;
            *) die "unknown mount $entry" ;;
        esac || die "cannot mount $entry"
    done

    mapfile -t environment <"$ENV_FILE"
    # What a runtime adds: the image's PATH, and HOME from the image's passwd entry of the user.
    local home
    home=$(awk -F: -v uid="$RUN_UID" '$3 == uid { print $6 }' "$root/etc/passwd")
    environment+=("PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" "HOME=${home:-/}" "VT_TEST_TAG=${VT_TEST_TAG:-1}")

    step check-before container "${COMMAND[@]}" --check

    local log="$WORK/daemon.log" started ready="" waited
    started=$(now_ms)
    launch "${COMMAND[@]}" >"$log" 2>&1 &
    local daemon=$!
    # Like the startup probe, but every 0.1 s: until it answers, the daemon ends, or READY_SECONDS.
    local deadline=$((SECONDS + READY_SECONDS))
    while [ $SECONDS -lt $deadline ] && kill -0 "$daemon" 2>/dev/null; do
        if container "${PROBE[@]}" >/dev/null 2>&1; then ready=yes; break; fi
        sleep 0.1
    done
    waited=$(($(now_ms) - started))
    echo "== ready ${ready:-no} $waited"

    echo "== process $daemon"
    grep -E '^(Uid|Gid|Groups|CapPrm|CapEff|CapBnd|NoNewPrivs):' "/proc/$daemon/status" | sed 's/^/   /'
    echo "== libraries $daemon"
    # What the daemon mapped, as seen from outside its chroot: every one must lie in the pod's root.
    awk '$6 ~ /\.so/ { print $6 }' "/proc/$daemon/maps" | sort -u | while read -r path; do
        case $path in
            "$root"/*) echo "   ${path#"$root"}" ;;
            *) echo "   outside: $path" ;;
        esac
    done

    step probe-healthy container "${PROBE[@]}"
    if [ "${#STRANGER_ENV[@]}" -gt 0 ]; then
        local own=("${environment[@]}")
        environment+=("${STRANGER_ENV[@]}")
        step probe-stranger container "${PROBE[@]}"
        environment=("${own[@]}")
    fi

    if [ "${#EXEC[@]}" -gt 0 ]; then
        step exec container "${EXEC[@]}"
    fi

    started=$(now_ms)
    kill -TERM "$daemon"
    (sleep "$STOP_SECONDS" && kill -KILL "$daemon") 2>/dev/null &
    local watchdog=$!
    wait "$daemon"
    local status=$?
    kill "$watchdog" 2>/dev/null
    echo "== stopped $status $(($(now_ms) - started))"

    step probe-stopped container "${PROBE[@]}"
    step check-after container "${COMMAND[@]}" --check
    step root-write touch "$root/usr/local/bin/.written"
    echo "== daemon-log 0"
    sed 's/^/   /' "$log"
}

case ${1:-} in
    base) shift; [ $# -eq 2 ] || die "usage: $0 base SUITE STAGE_FILE"; base "$@" ;;
    pod) shift; [ $# -eq 1 ] || die "usage: $0 pod SPEC_FILE"; pod "$1" ;;
    pod-inside) shift; pod_inside "$1" ;;
    *) die "usage: $0 base SUITE STAGE_FILE | pod SPEC_FILE" ;;
esac
