#!/usr/bin/env bash
# Installs what the project needs on a fresh Debian machine, and nothing when it is there.
# Called by `make run`, `make test` and .ci/run; safe to run again.
set -euo pipefail

need=()
pkg-config --exists libuv 2>/dev/null || need+=(libuv1-dev)
pkg-config --exists libsodium 2>/dev/null || need+=(libsodium-dev)
pkg-config --exists sqlite3 2>/dev/null || need+=(libsqlite3-dev)
pkg-config --exists zlib 2>/dev/null || need+=(zlib1g-dev)
pkg-config --exists openssl 2>/dev/null || need+=(libssl-dev)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
# callgrind counts the server instructions per request of `make bench` (its `instructions` section skips without it).
command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
# The network-namespace tests (root only): `ip netns` and veth pairs, and nftables for the NetworkPolicy rehearsal.
command -v ip >/dev/null 2>&1 || [ -x /usr/sbin/ip ] || [ -x /sbin/ip ] || need+=(iproute2)
command -v nft >/dev/null 2>&1 || [ -x /usr/sbin/nft ] || need+=(nftables)

# kubernetes-validate (PyPI; the Kubernetes schemas ship inside it): `make test` checks every object
# of `svc-supervisor export kubernetes` with it, offline (Tests/DeployTests/KubernetesValidateTests.swift).
kubernetes_validate_version=1.37.0
if ! command -v kubernetes-validate >/dev/null 2>&1; then
    echo "installing: kubernetes-validate==$kubernetes_validate_version (pip)" >&2
    python3 -m pip install --quiet "kubernetes-validate==$kubernetes_validate_version" \
        || echo "could not install kubernetes-validate: the Kubernetes validation test will fail saying so" >&2
fi

# opentelemetry-proto (PyPI): the OTLP receiver of the tracing export test decodes what the daemons send
# with the reference protobuf classes (Tests/SuiteTests/OTLPExportTests.swift, scripts/otlp-receiver.py).
opentelemetry_proto_version=1.45.2
if ! python3 -c "import opentelemetry.proto.collector.trace.v1.trace_service_pb2" >/dev/null 2>&1; then
    echo "installing: opentelemetry-proto==$opentelemetry_proto_version (pip)" >&2
    python3 -m pip install --quiet "opentelemetry-proto==$opentelemetry_proto_version" \
        || echo "could not install opentelemetry-proto: the OTLP export test will fail saying so" >&2
fi

if [ ${#need[@]} -eq 0 ]; then
    exit 0
fi

echo "installing: ${need[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "need root or sudo to install ${need[*]}" >&2; exit 1; }
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${need[@]}"
