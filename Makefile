# Verticals — the commands a newcomer needs. Each installs what is missing first.
#   make run     build and start the suite under svc-supervisor (deploy/suite.toml; Ctrl-C stops it)
#   make test    build and run every test, then EventLoop's lifetime tests under ASan, then each fuzz target briefly
#   make install [PREFIX=/usr/local] [DESTDIR=] [MANIFEST=deploy/suite.toml] [HOST=NAME]
#                the release binaries, systemd units (those of HOST), sysusers/tmpfiles files, man pages
#                [FRAMEWORK_URL=URL FRAMEWORK_VERSION=X.Y.Z]   the release `svc-supervisor init` depends on by default
#   make format  format every Swift file as .swift-format says (make test fails when one is not)
#   make contracts-update   after a deliberate contract change: rewrite Tests/Contracts' lock and golden fixtures
#   make reference   after a change to the command line or a setting: regenerate docs/man and docs/reference
#   make kubernetes-export  after a manifest change: regenerate deploy/kubernetes (docs/kubernetes.md)
#   make kubernetes-rehearsal  as root: the image as a root file system, each vertical's --check and --probe in it
#   make systemd-rehearsal     as root: the suite on two systemd hosts (containers), units from export systemd --host;
#                              and on one, stores lost and brought back by the exported replica restore units
#   make failover-rehearsal    as root: host A killed whole under bookings, the suite restored on host B from its
#                              SFTP replicas, for FAILOVER_SECONDS (default 300); the acknowledged bookings lost
#   make image   as root: the image built with buildah from local bases, archived in .build/image, loaded and run
#   make soak    book under repeated kill -9 of the suite's daemons and the supervisor for SOAK_SECONDS (default 600)
#   make soak-versions  each vertical upgraded in turn between two builds, under mixed load for SOAK_SECONDS (default 600)
#   make fuzz    run each libFuzzer target (Fuzz/) for FUZZ_SECONDS (default 60) from its committed seeds
#   make simulate  the supervisor's core in a seeded simulation: SEEDS=N (default 10000) or SIMULATE_SECONDS=S
#   make fuzz-live  a live suite fuzzed from daemon.describe for FUZZ_SECONDS (FUZZ_SEED=S, REPLAY=HEX: docs/fuzz-live.md)
#   make fuzz-cost  release build: the costliest inputs searched for FUZZ_SECONDS, judged by the cost budgets (docs/fuzz-live.md)
#   make hummingbird-demo  a vertical that also serves GET /healthz over HTTP (Examples/HummingbirdDemo), in the foreground
#   make bench   release build, then every benchmark against its baseline (bench/results.json, bench/latency.png)
#   make docs    the framework's API documentation (DocC), warnings as errors, into .build/docs
#   make docs-check  the docs served on 127.0.0.1 and a symbol's page opened in headless Chromium
#   make docs-serve [PORT=8000]  the docs served on 127.0.0.1 to read in a browser (Ctrl-C stops it)
#   make api-check   before a release tag: the framework's public API against the last release (CHANGELOG.md)
#   make release-cut VERSION=X.Y.Z   date CHANGELOG's Unreleased, set the version, check, tag (CONTRIBUTING.md)
# SWIFT: from PATH, else /opt/swift, by the recipe a product made by `svc-supervisor init` carries
# as its swift.mk (the same file, so the two cannot find Swift differently).
include Shared/Scaffold/Templates/Product/swift.mk.template
# The Python tools `scripts/install-deps.sh --test` puts in the checkout's own virtual environment.
PYTHON_ENV  := $(CURDIR)/.build/venv
export PATH := $(PYTHON_ENV)/bin:$(PATH)
RUN_DIR     ?= $(CURDIR)/.run
TEST_FLAGS  ?=
PREFIX      ?= /usr/local
DESTDIR     ?=
# `make install`: the manifest whose units are installed (and copied to $(PREFIX)/etc/verticals),
# and the host of that manifest they are for (`export systemd --host`; empty: a one-host suite).
MANIFEST    ?= deploy/suite.toml
HOST        ?=
# The build `make install` installs from (debug is quicker to try the recipe with).
CONFIGURATION ?= release
# Release programs carry Swift's runtime and Foundation inside them. Loading libFoundation and ICU
# as shared libraries is most of what a short-lived process costs: a Foundation hello-world starts
# in 10 ms linked dynamically and 3 ms linked statically (2.6 ms without Foundation), and a whole
# `svc-supervisor call` drops from 20 to 16 ms (the bench's cli section measures it
# against a caller linked the same way). Debug builds (make build, make test) stay dynamic: they
# link faster. The linker's "mktemp is dangerous" warning comes from the toolchain's static
# Foundation (swift-foundation's temporary files), not from this package.
RELEASE_FLAGS ?= --static-swift-stdlib
# The framework release an installed `svc-supervisor init` makes a product depend on when given no
# --framework-url/--framework-path: `make release FRAMEWORK_URL=https://… FRAMEWORK_VERSION=X.Y.Z`.
# A C macro (-Xcc -D), because SwiftPM hands a value from its command line to the C compiler only,
# and so nothing is written into the checkout; Shared/CFrameworkDefaults reads it.
# Empty: init names no release of its own and asks for one of those flags.
FRAMEWORK_URL     ?=
FRAMEWORK_VERSION ?=
FRAMEWORK_FLAGS   := $(if $(FRAMEWORK_URL),-Xcc '-DVT_FRAMEWORK_URL="$(FRAMEWORK_URL)"') \
                     $(if $(FRAMEWORK_VERSION),-Xcc '-DVT_FRAMEWORK_VERSION="$(FRAMEWORK_VERSION)"')
PROGRAMS    := svc-identity svc-clinics svc-notifications svc-records svc-appointments svc-supervisor svc-supervisor-engine vt-exec
FUZZ_SECONDS ?= 60
SOAK_SECONDS ?= 600
# Seconds per fuzz target in `make test`: a smoke run that the targets build, load their seeds and run.
FUZZ_SMOKE_SECONDS ?= 3
# Seconds of the cost search in `make test`: its debug build, sizes and counts only, the phase with a
# hostile callee alone (every other vertical over Unix sockets, and the callee's callers), no ids learnt first.
FUZZ_COST_SMOKE_SECONDS ?= 10

.PHONY: all deps test-deps build format release exec-shim run test memcheck install reference contracts-check contracts-update kubernetes-export kubernetes-rehearsal systemd-rehearsal failover-rehearsal image fresh-debian-rehearsal fuzz fuzz-live fuzz-cost simulate soak soak-versions bench hummingbird-demo api-check release-cut docs docs-check docs-serve clean

all: build

# What building and running need; test-deps adds what the tests and checks use (Python tools from
# the Python package index, valgrind, …): scripts/install-deps.sh says which.
deps:
	@bash scripts/install-deps.sh

test-deps:
	@bash scripts/install-deps.sh --test

build: deps
	$(SWIFT) build
	$(MAKE) --no-print-directory exec-shim

# The toolchain's `swift format` over every tracked Swift file (scripts/format.sh).
format:
	SWIFT="$(SWIFT)" bash scripts/format.sh

# Program by program: a static build of every target would include VerticalsTesting, and the
# toolchain's static SDK has no Testing module to link it with.
SWIFT_PROGRAMS := $(filter-out vt-exec,$(PROGRAMS))
release: deps
	set -e; for program in $(SWIFT_PROGRAMS); do $(SWIFT) build -c release $(RELEASE_FLAGS) $(FRAMEWORK_FLAGS) --product $$program; done
	$(MAKE) --no-print-directory exec-shim CONFIG=release

# vt-exec again, with cc alone: SwiftPM links even a C executable against libswiftCore, which
# costs about 2 ms at every spawn (measured with farm-bench: 3 ms vs 1 ms for exec of /bin/true).
# Linked statically: no dynamic loader and no libc to map before it execs the service, which is
# on every restart's path (it calls nothing of libc's that needs NSS or dlopen).
CC     ?= cc
CONFIG ?= debug
exec-shim:
	$(CC) -O2 -Wall -static -o "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/vt-exec" Services/Supervisor/vt-exec/main.c

# The suite under svc-supervisor, in the foreground; Ctrl-C stops it in reverse dependency order.
# In another shell: svc-supervisor status (logs NAME -f, restart NAME, down …).
run: build
	"$$($(SWIFT) build --show-bin-path)/svc-supervisor" up --manifest deploy/suite.toml --run-dir "$(RUN_DIR)"

# Whatever happens, no test daemon outlives the run: every child a test starts carries the run's
# own VT_TEST_TAG, and scripts/kill-tagged.sh removes what a crashed run left behind (only its own).
# scripts/run-tests.sh: why the supervision engine's process tests run on their own.
# Its last line is what the run cost here: the time since the build started and the build folder's size.
test: test-deps
	@date +%s > .build/test-started
	SWIFT="$(SWIFT)" bash scripts/format.sh --check
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory exec-shim
	SWIFT="$(SWIFT)" bash scripts/reference.sh --check
	SWIFT="$(SWIFT)" bash scripts/docs.sh
	SWIFT="$(SWIFT)" bash scripts/run-tests.sh $(TEST_FLAGS)
	bash Tests/EventLoopTests/memcheck.sh
	bash scripts/fuzz.sh $(FUZZ_SMOKE_SECONDS)
	SWIFT="$(SWIFT)" bash scripts/fuzz-cost.sh debug $(FUZZ_COST_SMOKE_SECONDS) --sizes-only --transport hostile --learn-rounds 0
	@echo "make test took $$(( $$(date +%s) - $$(cat .build/test-started) )) s; the build folder holds $$(du -sh .build | cut -f1)"

# Handle and buffer lifetimes under AddressSanitizer (LeakSanitizer included).
memcheck: deps
	bash Tests/EventLoopTests/memcheck.sh

# Programs to $(PREFIX)/bin; units, sysusers.d and tmpfiles.d files, exported for $(PREFIX) from
# $(MANIFEST) (for host $(HOST) when given), to $(PREFIX)/lib/... (systemd reads
# /usr/local/lib/systemd/system too); manual pages to $(PREFIX)/share/man/man1, man5 and man8; the
# manifest to $(PREFIX)/etc/SUITE/suite.toml for the supervisor's unit (an existing one is kept).
# SUITE is the manifest's [suite] name (verticals when it gives none), which every file the export
# writes is named after. Certificates are not installed: docs/multi-host.md says where they go.
install: deps
	$(if $(filter release,$(CONFIGURATION)),$(MAKE) --no-print-directory release,$(SWIFT) build -c $(CONFIGURATION) $(FRAMEWORK_FLAGS))
	bash scripts/install-suite.sh "$$($(SWIFT) build -c $(CONFIGURATION) --show-bin-path)" "$(PREFIX)" "$(DESTDIR)" \
		"$(MANIFEST)" "$(HOST)" $(PROGRAMS)
	for section in 1 5 8; do install -d "$(DESTDIR)$(PREFIX)/share/man/man$$section"; \
		install -m 0644 docs/man/*.$$section "$(DESTDIR)$(PREFIX)/share/man/man$$section/"; done

# docs/man (svc-supervisor(1), a page per command), docs/reference/svc-supervisor.md and
# docs/reference/environment.md (from the settings declarations), generated
# from the command line's own tree and the declarations; `make test` fails while they differ from them.
reference: test-deps
	$(SWIFT) build
	SWIFT="$(SWIFT)" bash scripts/reference.sh

# The contract lock and golden fixtures (Tests/Contracts/README.md). `update` refuses a breaking
# change (removed operation or field, reused tag, changed type, field made required, removed error
# code) and exits 1 naming it; ALLOW_BREAKING=1 passes --allow-breaking for a coordinated upgrade.
contracts-check: deps
	$(SWIFT) build --product vt-contracts
	"$$($(SWIFT) build --show-bin-path)/vt-contracts" check --root "$(CURDIR)"

contracts-update: deps
	$(SWIFT) build --product vt-contracts
	"$$($(SWIFT) build --show-bin-path)/vt-contracts" update --root "$(CURDIR)" $(if $(ALLOW_BREAKING),--allow-breaking)

# deploy/kubernetes from deploy/suite.toml (a test fails while it is stale). For a cluster of your own,
# run the export with --namespace and --image into a folder of your own instead.
kubernetes-export: deps
	$(SWIFT) build --product svc-supervisor
	$(SWIFT) build --product svc-supervisor-engine
	"$$($(SWIFT) build --show-bin-path)/svc-supervisor" export kubernetes --manifest deploy/suite.toml --out deploy/kubernetes

# The image without a registry or a cluster, as root: the Containerfile's runtime stage as a root file
# system (debootstrap of its Debian base and its own RUN, downloaded once and cached in
# /var/cache/verticals-rehearsal), then each vertical's pod from it: --check, start, --probe, SIGTERM,
# --probe (scripts/kubernetes-rehearsal.sh, driven by KubernetesRehearsalTests; `make test` runs it too).
# REHEARSAL_BIN=DIR puts DIR's programs in the image instead of the debug build's, e.g. after
# `make release`: REHEARSAL_BIN="$(swift build -c release --show-bin-path)", linked as the image's are.
kubernetes-rehearsal: test-deps
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory exec-shim
	tag=rehearsal-$$$$; status=0; \
		VT_TEST_TAG=$$tag $(if $(REHEARSAL_BIN),VT_REHEARSAL_BIN="$(REHEARSAL_BIN)") $(SWIFT) test --skip-build --filter KubernetesRehearsalTests || status=$$?; \
		bash scripts/kill-tagged.sh "$$tag"; exit $$status

# As root: the suite on two systemd hosts from deploy/two-hosts.toml. Two `systemd-nspawn --boot` containers
# of a Debian bookworm root with systemd 252 (debootstrap once, cached in /var/cache/verticals-systemd-hosts),
# joined by a veth pair, each with the debug build's programs and the units `export systemd --host a|b`
# writes; then the booking journey from host b, the refused certificate and plain TCP, kill -9 of clinics
# on host a during bookings, and journals without priority noise (scripts/systemd-hosts.sh, driven by
# SystemdHostsRehearsalTests; `make test` runs it too). Then one host whose manifest replicates every store to
# a folder (with the litestream on PATH): a patient books, the stores are deleted with verticals.target stopped,
# and started again each verticals-NAME-restore.service brings its store back from the replica before its
# vertical serves the booking; a restore unit whose store is there is skipped; a replica holding another
# vertical's store fails its restore unit on --place-replica-copy's refusal, that vertical alone not started,
# until its own replica is back and systemctl start restores it (SystemdHostsRestoreRehearsalTests).
# Containers, namespaces and mounts are removed however it ends: a run killed outright leaves them to
# kill-tagged.sh, which SystemdHostsCleanupTests proves by killing one mid-boot.
systemd-rehearsal: test-deps
	$(SWIFT) build --build-tests
	tag=systemd-rehearsal-$$$$; status=0; \
		VT_TEST_TAG=$$tag $(SWIFT) test --skip-build \
			--filter 'SystemdHostsRehearsalTests|SystemdHostsRestoreRehearsalTests|SystemdHostsCleanupTests' || status=$$?; \
		bash scripts/kill-tagged.sh "$$tag"; exit $$status

# As root: a lost host, rehearsed (Tests/SuiteTests/LostHostRehearsalTests.swift). Two network namespaces:
# host A runs the reference suite, every store replicated by Litestream over SFTP to host B (Debian's
# sshd, started by the test), while a patient books slot after slot; A is killed whole (kill -9 to every
# process in its namespace) at a random moment in the second half of FAILOVER_SECONDS; B starts the same
# manifest on an empty run directory, each store restored from its replica before its vertical starts.
# It prints the bookings acknowledged and lost, how long before the kill the oldest lost one was
# acknowledged (it fails past the sync interval and one shipment), and the time from the kill to B
# serving. `make test` runs it for a few seconds.
FAILOVER_SECONDS ?= 300
failover-rehearsal: test-deps
	$(SWIFT) build --build-tests
	tag=failover-rehearsal-$$$$; status=0; \
		VT_TEST_TAG=$$tag VT_LOST_HOST_SECONDS=$(FAILOVER_SECONDS) $(SWIFT) test --skip-build --filter LostHostRehearsal || status=$$?; \
		bash scripts/kill-tagged.sh "$$tag"; exit $$status

# As root: deploy/kubernetes/Containerfile built for real with `buildah bud --isolation chroot`, a
# release build, from local bases made with debootstrap and cached in /var/cache/verticals-image-bases
# (the runtime's Debian root; the same with the Swift toolchain and the package mirror for the build);
# the image in docker-archive format in .build/image/ (for `kind load image-archive`, `k3s ctr images
# import`), loaded back with podman, inspected with skopeo, then each vertical's --check and --probe run
# from it (scripts/image.sh; docs/kubernetes.md). Not part of make test. IMAGE=REF names it otherwise.
IMAGE ?= $(shell sed -n 's/^ *image: *"\{0,1\}\([^"]*\)"\{0,1\}$$/\1/p' deploy/kubernetes/*.yaml | head -1)
image:
	bash scripts/image.sh deploy/kubernetes . "$(IMAGE)" deploy/suite.toml

# As root: the README's two commands on a stock Debian 12 (debootstrap --variant=minbase, cached in
# /var/cache/verticals-fresh-debian) with only the Swift toolchain added: install-deps, make build, and
# make run until svc-supervisor call answers (scripts/fresh-debian-rehearsal.sh). Not part of make test.
fresh-debian-rehearsal:
	bash scripts/fresh-debian-rehearsal.sh

# Rounds of booking while kill -9 takes appointments, identity, notifications and svc-supervisor;
# each round checks nothing was lost or doubled. Prints bookings, retries, errors by code,
# p50/p99 latency and each daemon's memory at start and end.
soak: test-deps
	$(SWIFT) build --build-tests
	tag=soak-$$$$-$$(date +%s); status=0; \
		VT_TEST_TAG=$$tag VT_SOAK_SECONDS=$(SOAK_SECONDS) $(SWIFT) test --skip-build --filter FaultInjectionTests || status=$$?; \
		bash scripts/kill-tagged.sh "$$tag"; exit $$status

# One vertical at a time between this build and one derived from it in a temporary copy (an
# optional field in every vertical, a store migration in two), under booking, login, search,
# records and inbox load, and a breaking build that must be refused. Prints calls made and failed,
# writes lost, p99 during the upgrades against the rest and every pair that met.
soak-versions: test-deps
	SOAK_SECONDS=$(SOAK_SECONDS) SWIFT=$(SWIFT) bash scripts/soak-versions.sh

# The decoders under libFuzzer + ASan: frame, envelope, every IOInterface body, the JSON of `call`, the
# manifest. Prints executions and coverage per target; a crash lands in .build-fuzz/crashes/.
fuzz: deps
	bash scripts/fuzz.sh $(FUZZ_SECONDS)

# The suite running: svc-supervisor up with deploy/suite.toml in a temporary run directory (its own
# suite pointer), every operation of every vertical learnt from daemon.describe and sent seeded edge
# values, with and without real sessions and ids, over Unix sockets, then TCP with mutual TLS, for
# FUZZ_SECONDS in all. Each failure prints its seed, its frame in hex and a `svc-supervisor call`
# line; FUZZ_SEED=S runs a seed again, REPLAY=HEX (or @FILE; REPLAY_AS=patient|admin puts a fresh
# token in it) sends one frame to a fresh suite. FUZZ_TRANSPORT=unix|tcp runs one. docs/fuzz-live.md.
fuzz-live: build
	tag=fuzz-live-$$$$; status=0; \
		VT_TEST_TAG=$$tag "$$($(SWIFT) build --show-bin-path)/vt-fuzz-live" --manifest deploy/suite.toml --seconds $(FUZZ_SECONDS) \
		$(if $(FUZZ_SEED),--seed $(FUZZ_SEED)) $(if $(FUZZ_TRANSPORT),--transport $(FUZZ_TRANSPORT)) \
		$(if $(REPLAY),--replay '$(REPLAY)' --replay-as $(or $(REPLAY_AS),none)) || status=$$?; \
		bash scripts/kill-tagged.sh $$tag; exit $$status

# The supervisor's core in a deterministic simulated world (vt-simulate): SEEDS seeds (default 10000), or
# SIMULATE_SECONDS of them, from FIRST_SEED, each checked against its invariants at every step. Prints
# seeds/s, steps, the state × event pairs reached, and each failure with its replay line and shrunk trace.
SEEDS ?=
SIMULATE_SECONDS ?=
FIRST_SEED ?= 1
simulate:
	$(SWIFT) build --product vt-simulate
	"$$($(SWIFT) build --show-bin-path)/vt-simulate" --first-seed $(FIRST_SEED) \
		$(if $(SIMULATE_SECONDS),--seconds $(SIMULATE_SECONDS),--seeds $(or $(SEEDS),10000))

# The cost search (docs/fuzz-live.md, "make fuzz-cost"): the release build under its own svc-supervisor
# up, every operation of every vertical and every built-in searched for the inputs that cost most
# (loop held, live heap left, answer size, descriptors left), over Unix sockets then TCP with mutual
# TLS, then with a hostile program in a callee's place over each, for FUZZ_SECONDS in all, and
# silent strangers held against each; judged by the cost budgets. Each input over budget prints a
# `make fuzz-cost REPLAY=HEX` line (REPLAY_AS=patient|admin puts a fresh token in it); FUZZ_SEED=S,
# FUZZ_TRANSPORT=unix|tcp|hostile|hostile-tcp picks one phase.
fuzz-cost: release
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product vt-fuzz-live
	SWIFT="$(SWIFT)" bash scripts/fuzz-cost.sh release $(FUZZ_SECONDS) \
		$(if $(FUZZ_SEED),--seed $(FUZZ_SEED)) $(if $(FUZZ_TRANSPORT),--transport $(FUZZ_TRANSPORT)) \
		$(if $(REPLAY),--replay '$(REPLAY)' --replay-as $(or $(REPLAY_AS),none))

# Benchmarks/ is its own package (make test never builds it). Every figure is a ratio against a
# baseline measured in the same run, interleaved, median [min–max] over BENCH_ROUNDS (default 5).
# Quick look: BENCH_ROUNDS=2 BENCH_IDLE_SECONDS=5 BENCH_KILLS=5 make bench (BENCH_SECTIONS=codec,rpc,...).
# As root the suites run as the bench's user (VERTICALS_SERVICE_USERS=off): a user per vertical
# could not reach the bench's 0700 temporary folders, and it measures routes, not users.
# Children carry this run's VT_BENCH_TAG, so nothing outlives an interrupted run, and another
# run's processes on the same machine are left alone.
# Examples/HummingbirdDemo, its own package (SwiftNIO is never part of the framework's build or of `make
# test`): the vertical `greeter` and Hummingbird's HTTP server in one ServiceGroup, in the foreground
# on the socket folder $(RUN_DIR)/sockets and GREETER_HTTP_PORT (default 8080). SIGTERM or Ctrl-C: one
# graceful shutdown, the vertical drained first.
hummingbird-demo: deps
	$(SWIFT) build --package-path Examples/HummingbirdDemo
	@mkdir -p "$(RUN_DIR)/sockets"
	VERTICALS_SOCKET_DIR="$(RUN_DIR)/sockets" VERTICALS_RUN_DIR="$(RUN_DIR)" \
		"$$($(SWIFT) build --package-path Examples/HummingbirdDemo --show-bin-path)/svc-greeter"

# Benchmarks/ depends on the framework by path, whose added source files a cached build plan does
# not see ("cannot find 'X' in scope" after a pull): its build is planned afresh, a few seconds.
bench: release test-deps
	@mkdir -p bench
	gcc -O2 -Wall -Wextra -o bench/uv_echo Benchmarks/CEcho/uv_echo.c $$(pkg-config --cflags --libs libuv)
	$(SWIFT) build -c release $(RELEASE_FLAGS) --disable-build-manifest-caching --package-path Benchmarks
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product vt-alloc-count
	@"$(PYTHON_ENV)/bin/python3" -c 'import matplotlib' 2>/dev/null || "$(PYTHON_ENV)/bin/python3" -m pip install --quiet matplotlib
	status=0; tag=bench-$$$$; VERTICALS_SERVICE_USERS=off VT_BENCH_TAG=$$tag VT_ROOT="$(CURDIR)" VT_BIN="$$($(SWIFT) build -c release --show-bin-path)" UV_ECHO="$(CURDIR)/bench/uv_echo" \
		"$$($(SWIFT) build -c release --package-path Benchmarks --show-bin-path)/vt-bench" || status=$$?; \
		bash scripts/kill-tagged.sh $$tag VT_BENCH_TAG; exit $$status
	"$(PYTHON_ENV)/bin/python3" Benchmarks/plot.py bench/results.json bench/latency.png

# The framework's library products, whose public API is a promise under semantic versioning
# (CHANGELOG.md). Not the reference suite's IOInterface or AppointmentsService: they are the example.
# The products checked: Package.swift's Verticals* library products (scripts/api-products.sh), the
# one list of the public API that docs/FRAMEWORK.md is tested against.
API_PRODUCTS ?= $(shell SWIFT="$(SWIFT)" bash scripts/api-products.sh)
# Run before tagging a release, not in every CI run (and not in `make test`): it builds the last
# tag's API baseline. API_BASELINE=v0.1.0 picks another tag; a clone with no tag compares against
# the commit before (API_BASELINE_REF=REF another), tagged as a release in a temporary bare
# repository by scripts/release-clone.sh, as `init`'s test makes one. A break in a 0.x release is allowed but
# must be in CHANGELOG.md. The script exits 1 on a break, 2 when the check cannot be made (make
# prints it as "Error 1" / "Error 2" and itself exits 2 for either).
# Not `swift package diagnose-api-breaking-changes`: it fails on this package with "redefinition of
# module 'CTOML'" (swiftlang/swift-package-manager#9254); scripts/api-check.sh runs the toolchain's
# swift-api-digester itself, with one build's search paths per dump (see its header).
docs: build test-deps
	SWIFT="$(SWIFT)" bash scripts/docs.sh

docs-check: docs
	bash scripts/docs-page-check.sh

docs-serve: docs
	bash scripts/docs-serve.sh $(or $(PORT),8000)

release-cut: test-deps
	bash scripts/release-cut.sh $(VERSION)

api-check: test-deps
	API_PRODUCTS="$(API_PRODUCTS)" API_BASELINE="$(API_BASELINE)" API_BASELINE_REF="$(API_BASELINE_REF)" SWIFT="$(SWIFT)" bash scripts/api-check.sh

clean:
	rm -rf .build .build-* Benchmarks/.build Examples/HummingbirdDemo/.build bench "$(RUN_DIR)"
