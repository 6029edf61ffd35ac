#!/usr/bin/env bash
# `make run`: starts every daemon the package builds, in the foreground, in one run
# directory, until Ctrl-C. svc-supervisor takes this over once it lands (issue 4);
# until then this small launcher starts each daemon with the same environment the
# supervisor will give it (VERTICALS_RUN_DIR, VERTICALS_SOCKET_DIR, STATE_DIRECTORY).
set -euo pipefail
run_dir=${1:-.run}
mkdir -p "$run_dir/sockets" "$run_dir/logs" "$run_dir/state"
chmod 0750 "$run_dir/sockets"
bin=$(swift build --show-bin-path)

daemons=()
for exe in "$bin"/svc-*; do
    [ -x "$exe" ] && [ -f "$exe" ] && daemons+=("$exe")
done
if [ ${#daemons[@]} -eq 0 ]; then
    # No vertical is built yet: serve the test vertical so the spine can be tried.
    daemons=("$bin/vt-testd")
fi

pids=()
stop() {
    trap - INT TERM EXIT
    echo "stopping ${#pids[@]} daemon(s)…"
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait || true
}
trap stop INT TERM EXIT

for exe in "${daemons[@]}"; do
    name=$(basename "$exe"); name=${name#svc-}; [ "$name" = vt-testd ] && name=echo
    mkdir -p "$run_dir/state/$name"
    VERTICALS_RUN_DIR="$run_dir" VERTICALS_SOCKET_DIR="$run_dir/sockets" STATE_DIRECTORY="$run_dir/state/$name" \
        "$exe" ${name:+$([ "$(basename "$exe")" = vt-testd ] && echo "$name")} \
        > >(sed -u "s/^/[$name] /" | tee -a "$run_dir/logs/$name.log") 2>&1 &
    pids+=($!)
    echo "started $name (pid $!) on $run_dir/sockets/$name.sock"
done
echo "Ctrl-C stops everything."
wait
