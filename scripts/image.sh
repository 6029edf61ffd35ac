#!/usr/bin/env bash
# The image of the Containerfile `svc-supervisor export kubernetes` writes, built for real without a
# registry and run, as root: `make image`, in this package and in a product `svc-supervisor init` made.
#
#   image.sh EXPORT_DIR CONTEXT TAG MANIFEST
#
# EXPORT_DIR holds the export (its Containerfile and one YAML file per vertical), CONTEXT is the build
# context (the package's root), TAG the image's name (e.g. localhost/verticals:0.1.0), MANIFEST the
# suite manifest the certificates are minted for. In order:
#
#   1. Local bases, made once and cached in $VT_IMAGE_CACHE (default /var/cache/verticals-image-bases),
#      each keyed by a hash of what made it:
#        runtime  `debootstrap --variant=minbase bookworm` from the Debian mirror apt uses, as
#                 debian:bookworm-slim is made (scripts/kubernetes-rehearsal.sh's `base` does it);
#        build    that root with the packages the Swift toolchain needs to build and link, then the
#                 toolchain itself ($VT_IMAGE_TOOLCHAIN, default /opt/swift), and the mirror of Swift
#                 packages with the git configuration that points SwiftPM at it (when the machine has
#                 them), standing in for the swift:6.3-bookworm image.
#      Each is imported into the local container storage as localhost/verticals-base-{runtime,build}:KEY.
#   2. `buildah bud --isolation chroot` of the Containerfile with those bases as its build arguments
#      (BUILD_IMAGE, RUNTIME_IMAGE): no container runtime and no registry. $VT_IMAGE_VOLUMES, a list
#      of folders, is mounted read-only at the same path while it builds (a product whose Package.swift
#      names the framework by its path).
#   3. The archive, docker-archive format, in CONTEXT/.build/image/NAME.tar (what `docker load`,
#      `kind load image-archive` and `ctr images import` take), loaded back with `podman load` and read
#      with `skopeo inspect`; its digests and size are printed.
#   4. The image run, not only built: the archive unpacked into a plain root (skopeo to an OCI layout,
#      then `umoci unpack`), and each vertical's pod run from that root by scripts/kubernetes-rehearsal.sh's `pod`, as its
#      StatefulSet says: its ConfigMap's environment, uid and gid of the image's USER, no capability,
#      read-only root, certificates minted by the image's own `svc-supervisor certs`. Each must pass
#      `--check`, answer `--probe` while it serves, stop with 0 on SIGTERM, fail `--probe` once
#      stopped, pass `--check` on the store it left, and map no library from outside the image.
#
# VT_IMAGE_BUILT=1 skips 1 and 2 and takes TAG as built already (to run the checks again after a fix
# outside the build context; a change inside it needs a new build).
#
# Prints each step's time; exits non-zero at the first failure, naming it. Nothing is left mounted or
# running, and the unpacked root is removed.
set -euo pipefail

die() { echo "image: $*" >&2; exit 1; }
[ $# -eq 4 ] || die "usage: $0 EXPORT_DIR CONTEXT TAG MANIFEST"
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, buildah's storage, mounts)"
export_dir=$(cd "$1" && pwd) context=$(cd "$2" && pwd) tag=$3 manifest=$(realpath "$4")
here="$(cd "$(dirname "$0")" && pwd)"
rehearsal="$here/kubernetes-rehearsal.sh"
. "$here/trusted-cache.sh"
containerfile="$export_dir/Containerfile"
[ -f "$containerfile" ] || die "no Containerfile in $export_dir (svc-supervisor export kubernetes writes it)"
cache=${VT_IMAGE_CACHE:-/var/cache/verticals-image-bases}
toolchain=${VT_IMAGE_TOOLCHAIN:-/opt/swift}
packages=/opt/swift-packages
mirror=${VT_IMAGE_MIRROR:-$(grep -hoE '^URIs: *http[^ ]+/debian$' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1 | sed 's/^URIs: *//')}
mirror=${mirror:-http://deb.debian.org/debian}
[ -x "$toolchain/usr/bin/swift" ] || die "no Swift toolchain at $toolchain (VT_IMAGE_TOOLCHAIN)"

step_started=0 all_started=$SECONDS
step() { step_started=$SECONDS; echo "== $*" >&2; }
took() { echo "   took $((SECONDS - step_started)) s" >&2; }

tools=()
for tool in buildah skopeo podman umoci debootstrap; do command -v "$tool" >/dev/null 2>&1 || tools+=("$tool"); done
if [ ${#tools[@]} -gt 0 ]; then
    echo "installing with apt-get: ${tools[*]}" >&2
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${tools[@]}" >&2 \
        || die "cannot install ${tools[*]}"
fi

work=$(mktemp -d /tmp/vt-image.XXXXXX)
trap 'rm -rf "$work"' EXIT

# -- 1. the bases -----------------------------------------------------------------------------------
# The packages the Swift toolchain needs on Debian 12 to build and link (scripts/install-deps.sh's
# list, less what only the tests use), and git for SwiftPM.
build_packages="binutils gcc git libc6-dev libstdc++-12-dev libgcc-12-dev libcurl4 libxml2 libncurses6 libsqlite3-0 libuuid1 tzdata pkg-config ca-certificates"
# A minbase root, then RUN; cached by kubernetes-rehearsal.sh in $cache by its suite, mirror and RUN text.
debian_root() {  # debian_root NAME RUN
    printf '%s\n' "$2" >"$work/$1.run"
    VT_REHEARSAL_CACHE=$cache VT_REHEARSAL_MIRROR=$mirror bash "$rehearsal" base bookworm "$work/$1.run" | tail -1
}
# Imports ROOT into the container storage as REF unless it is there.
import_base() {  # import_base ROOT REF PATH
    if buildah inspect --type image "$2" >/dev/null 2>&1; then return 0; fi
    echo "   importing $1 as $2" >&2
    tar --numeric-owner --xattrs -C "$1" -cf - . | podman import --quiet --change "ENV PATH=$3" - "$2" >/dev/null \
        || die "cannot import $1 as $2"
}
plain_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

make_bases() {
    step "bases (cached in $cache)"
    mkdir -p "$cache"
    trusted_cache "$cache" || exit 1
    runtime_root=$(debian_root runtime ': the runtime base, as debian:bookworm-slim is made') || die "cannot make the runtime base"
    runtime_ref="localhost/verticals-base-runtime:${runtime_root##*-}"
    import_base "$runtime_root" "$runtime_ref" "$plain_path"

    tools_root=$(debian_root build "apt-get update && apt-get install -y --no-install-recommends $build_packages && rm -rf /var/lib/apt/lists/*") \
        || die "cannot make the build base's Debian root"
    # The toolchain's version and folder, the package mirror's files and times, and the git redirection.
    gitconfig=$( { git config --system --get-regexp '^url\.' || true; git config --global --get-regexp '^url\.' || true; } 2>/dev/null | sort -u)
    build_key=$( {
        echo "$tools_root"; echo "$toolchain"; "$toolchain/usr/bin/swift" --version 2>&1
        echo "$gitconfig"; [ -d "$packages" ] && find "$packages" -printf '%P %T@ %s\n' | sort
    } | sha256sum | cut -c1-16)
    build_root="$cache/build-$build_key"
    exec 8>"$cache/.image-lock"
    flock -w 1800 8 || die "another run holds $cache/.image-lock"
    if [ ! -d "$build_root" ]; then
        echo "   $build_root: $tools_root, $toolchain and the package mirror" >&2
        rm -rf "$build_root.building"
        cp -a "$tools_root" "$build_root.building"
        mkdir -p "$build_root.building/opt"
        cp -a "$toolchain" "$build_root.building/opt/swift"
        if [ -d "$packages" ]; then
            cp -a "$packages" "$build_root.building$packages"
            # The same redirection the building host has: SwiftPM clones github.com from its mirror.
            echo "$gitconfig" | while read -r key value; do
                [ -n "$key" ] && printf '[url "%s"]\n\tinsteadOf = %s\n' "$(echo "$key" | sed 's/^url\.//; s/\.insteadof$//')" "$value"
            done >"$build_root.building/etc/gitconfig"
        fi
        mv -T "$build_root.building" "$build_root"
    fi
    flock -u 8
    build_ref="localhost/verticals-base-build:$build_key"
    import_base "$build_root" "$build_ref" "/opt/swift/usr/bin:$plain_path"
    echo "   build base $build_ref, runtime base $runtime_ref" >&2
    took
}

# -- 2. the build -----------------------------------------------------------------------------------
build_image() {
    step "buildah bud --isolation chroot -f $containerfile -t $tag $context"
    volumes=()
    for volume in ${VT_IMAGE_VOLUMES:-}; do volumes+=(--volume "$volume:$volume:ro"); done
    buildah bud --isolation chroot --pull=never --layers \
        --build-arg "BUILD_IMAGE=$build_ref" --build-arg "RUNTIME_IMAGE=$runtime_ref" \
        "${volumes[@]}" -f "$containerfile" -t "$tag" "$context" >"$work/build.log" 2>&1 \
        || { tail -40 "$work/build.log" >&2; die "the image's build failed (the log's end above)"; }
    took
}

if [ "${VT_IMAGE_BUILT:-0}" = 1 ]; then
    buildah inspect --type image "$tag" >/dev/null 2>&1 || die "VT_IMAGE_BUILT=1, but there is no image $tag"
else
    make_bases
    build_image
fi

# -- 3. the archive ---------------------------------------------------------------------------------
name=${tag##*/}; name=${name%%:*}
out="$context/.build/image"
archive="$out/$name.tar"
step "the archive $archive"
mkdir -p "$out"
rm -f "$archive"
buildah push --quiet "$tag" "docker-archive:$archive:$tag" >/dev/null || die "cannot write $archive"
loaded=$(podman load --quiet --input "$archive") || die "podman load refused $archive"
echo "   podman load: $loaded" >&2
inspected=$(skopeo inspect "docker-archive:$archive") || die "skopeo inspect refused $archive"
digest=$(sed -n 's/^ *"Digest": *"\(.*\)",*$/\1/p' <<<"$inspected" | head -1)
layers=$(grep -c '"sha256:' <<<"$(sed -n '/"Layers"/,/]/p' <<<"$inspected")" || true)
image_id=$(podman image inspect --format '{{.Id}}' "$tag")
echo "image $tag"
echo "  archive  $archive ($(stat -c %s "$archive") bytes, $(du -h "$archive" | cut -f1))"
echo "  digest   $digest (skopeo inspect), $layers layers"
echo "  id       sha256:$image_id"
echo "  sha256   $(sha256sum "$archive" | cut -d' ' -f1) (the file)"
took

# -- 4. the image, run ------------------------------------------------------------------------------
step "each vertical's pod, from the archive unpacked"
# Unpacked from the archive itself, into a plain folder: an OCI layout of it (skopeo), then its root
# file system (umoci), as a runtime unpacks what it pulled.
skopeo copy --quiet "docker-archive:$archive" "oci:$work/oci:image" || die "skopeo cannot copy $archive to an OCI layout"
umoci unpack --image "$work/oci:image" "$work/bundle" >/dev/null || die "umoci cannot unpack the image"
rm -rf "$work/oci"
root="$work/bundle/rootfs"
user=$(grep -E '^USER ' "$containerfile" | tail -1 | cut -d' ' -f2)
run_uid=${user%%:*} run_gid=${user##*:}
# Certificates from the image's own svc-supervisor, for the manifest's verticals.
mkdir -p "$work/mnt"
cp "$manifest" "$work/mnt/suite.toml"
# /proc as well: svc-supervisor finds svc-supervisor-engine beside itself through /proc/self/exe.
unshare --mount --propagation private -- bash -c 'mount --bind "$2" "$1/mnt" && mount -t proc proc "$1/proc" && exec chroot "$1" \
    /usr/local/bin/svc-supervisor certs /mnt/certs --manifest /mnt/suite.toml' _ "$root" "$work/mnt" >"$work/certs.log" 2>&1 \
    || { cat "$work/certs.log" >&2; die "the image's svc-supervisor certs failed"; }
failed=()
for file in "$export_dir"/*.yaml; do
    grep -q '^kind: ConfigMap' "$file" || continue
    vertical=$(awk '/^kind: StatefulSet|^kind: Deployment/{w=1} w&&/^  name: /{print $2; exit}' "$file")
    command=$(awk '/^ *command:$/{getline; print $2; exit}' "$file")
    [ -n "$vertical" ] && [ -n "$command" ] || continue
    pod="$work/pod-$vertical"
    mkdir -p "$pod/state"
    # The ConfigMap's data, one KEY=VALUE a line.
    awk '/^---/{c=0; d=0} /^kind: ConfigMap/{c=1} c&&d&&/^[^ ]/{d=0} c&&d&&/^  [A-Z0-9_]+: /{
            key=$1; sub(/:$/, "", key); value=substr($0, length($1) + 4); gsub(/^"|"$/, "", value); print key "=" value }
        c&&/^data:/{d=1}' "$file" >"$pod/env"
    state=$(sed -n 's/^STATE_DIRECTORY=//p' "$pod/env")
    sockets=$(sed -n 's/^VERTICALS_SOCKET_DIR=//p' "$pod/env")
    tls=$(sed -n 's/^VERTICALS_TLS_CERT=//p' "$pod/env")
    mounts=("tmpfs:/tmp")
    [ -n "$sockets" ] && mounts+=("tmpfs:$sockets")
    if [ -n "$tls" ]; then
        # The Secret as the kubelet mounts it: the files of group fsGroup, with the volume's mode.
        mkdir -p "$pod/tls"
        cp "$work/mnt/certs/$vertical/"{tls.crt,tls.key,ca.crt} "$pod/tls/"
        mode=$(awk '/defaultMode:/{print $2; exit}' "$file")  # decimal in the YAML
        chown "0:$run_gid" "$pod/tls/"* && chmod "$(printf '%o' "${mode:-288}")" "$pod/tls/"*
        mounts+=("ro:$pod/tls:${tls%/*}")
    fi
    if [ -n "$state" ]; then
        chown "0:$run_gid" "$pod/state" && chmod 2775 "$pod/state"
        mounts+=("rw:$pod/state:$state")
    fi
    {
        printf 'WORK=%q\nBASE=%q\nLAYERS=()\nENV_FILE=%q\n' "$pod" "$root" "$pod/env"
        printf 'RUN_UID=%q\nRUN_GID=%q\nRUN_GROUPS=%q\n' "$run_uid" "$run_gid" "$run_gid"
        printf 'MOUNTS=(%s)\n' "$(printf '%q ' "${mounts[@]}")"
        printf 'COMMAND=(%q)\nPROBE=(%q --probe)\nREADY_SECONDS=30\nSTOP_SECONDS=10\n' "$command" "$command"
    } >"$pod/spec"
    bash "$rehearsal" pod "$pod/spec" >"$pod/report" 2>&1 || true
    # What must hold, from the report's `== STEP STATUS` lines.
    problems=()
    grep -qx '== check-before 0' "$pod/report" || problems+=("--check failed on an empty store")
    grep -q '^== ready yes ' "$pod/report" || problems+=("--probe never answered")
    grep -qx '== probe-healthy 0' "$pod/report" || problems+=("--probe failed while it served")
    grep -q '^== stopped 0 ' "$pod/report" || problems+=("SIGTERM did not stop it with 0")
    grep -q '^== probe-stopped [1-9]' "$pod/report" || problems+=("--probe answered once it had stopped")
    grep -qx '== check-after 0' "$pod/report" || problems+=("--check failed on the store it left")
    ! grep -q '^   outside: ' "$pod/report" || problems+=("it mapped a library from outside the image")
    grep -qE "^   Uid:[[:space:]]+$run_uid[[:space:]]" "$pod/report" || problems+=("it did not run as uid $run_uid")
    libraries=$(awk '/^== /{inside=/^== libraries /; next} inside&&/^   \//{n++} END{print n+0}' "$pod/report")
    [ "$libraries" -gt 0 ] || problems+=("no library it mapped was seen")
    if [ ${#problems[@]} -eq 0 ]; then
        echo "  $vertical: --check, --probe serving (uid $run_uid, $libraries libraries, all the image's), SIGTERM 0, --probe stopped, --check again: passed"
    else
        echo "  $vertical: $(printf '%s; ' "${problems[@]}" | sed 's/; $//')" >&2
        sed 's/^/    /' "$pod/report" >&2
        failed+=("$vertical")
    fi
done
ls -d "$work"/pod-* >/dev/null 2>&1 || die "no vertical found in $export_dir (no ConfigMap with a command)"
took
[ ${#failed[@]} -eq 0 ] || die "from the image, failed: ${failed[*]}"
echo "image: built, archived, loaded and run in $((SECONDS - all_started)) s"
