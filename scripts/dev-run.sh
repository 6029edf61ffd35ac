#!/usr/bin/env bash
# `make run`: starts the reference suite in the foreground, in one run directory, until
# Ctrl-C. svc-supervisor takes this over once its daemon lands (issue 4); until then this
# small launcher starts each vertical with the environment the supervisor will give it
# (VERTICALS_RUN_DIR, VERTICALS_SOCKET_DIR, STATE_DIRECTORY), in dependency order, waits
# for each socket, prefixes each daemon's log lines with its name and keeps them in
# <run dir>/logs/<name>.log.
set -euo pipefail
run_dir=$(realpath -m "${1:-.run}")
bin=$(swift build ${SWIFT_BUILD_FLAGS:-} --show-bin-path)
verticals=(identity clinics notifications records appointments)

mkdir -p "$run_dir/sockets" "$run_dir/logs" "$run_dir/state"
chmod 0750 "$run_dir/sockets"

pids=()
stop() {
    trap - INT TERM EXIT
    echo
    echo "stopping the suite…"
    for (( i=${#pids[@]}-1; i>=0; i-- )); do kill -TERM "${pids[$i]}" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap stop INT TERM EXIT

for name in "${verticals[@]}"; do
    mkdir -p "$run_dir/state/$name"
    VERTICALS_RUN_DIR="$run_dir" VERTICALS_SOCKET_DIR="$run_dir/sockets" STATE_DIRECTORY="$run_dir/state/$name" \
        VERTICALS_ADMIN_EMAILS="${VERTICALS_ADMIN_EMAILS:-admin@example.org}" \
        "$bin/svc-$name" > >(sed -u "s/^/[$name] /" | tee -a "$run_dir/logs/$name.log") 2>&1 &
    pids+=($!)
    for _ in $(seq 1 100); do [ -S "$run_dir/sockets/$name.sock" ] && break; sleep 0.1; done
    [ -S "$run_dir/sockets/$name.sock" ] || { echo "$name did not start: see $run_dir/logs/$name.log" >&2; exit 1; }
    echo "[$name] ready on $run_dir/sockets/$name.sock"
done

cat <<EOT

The suite is up. In another terminal, try:
  $bin/svc-supervisor operations
  $bin/svc-supervisor call clinics nearest '{"latitude": 51.5074, "longitude": -0.1278, "limit": 3}'
  $bin/svc-supervisor call identity register '{"email": "ada@example.org", "password": "analytical-engine", "displayName": "Ada"}'
  $bin/svc-supervisor call identity login '{"email": "ada@example.org", "password": "analytical-engine"}'
Ctrl-C stops everything.
EOT
wait
