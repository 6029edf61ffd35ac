# Verticals — the commands a newcomer needs. Each installs what is missing first.
#   make run     build and start the suite under svc-supervisor (deploy/suite.toml; Ctrl-C stops it)
#   make test    build and run every test, then EventLoop's lifetime tests under ASan, then each fuzz target briefly
#   make soak    book under repeated kill -9 of the suite's daemons and the supervisor for SOAK_SECONDS (default 600)
#   make fuzz    run each libFuzzer target (Fuzz/) for FUZZ_SECONDS (default 60) from its committed seeds
SWIFT       ?= swift
RUN_DIR     ?= $(CURDIR)/.run
TEST_FLAGS  ?=
FUZZ_SECONDS ?= 60
SOAK_SECONDS ?= 600
# Seconds per fuzz target in `make test`: a smoke run that the targets build, load their seeds and run.
FUZZ_SMOKE_SECONDS ?= 3

.PHONY: all deps build release run test memcheck fuzz soak clean

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# The suite under svc-supervisor, in the foreground; Ctrl-C stops it in reverse dependency order.
# In another shell: svc-supervisor status (logs NAME -f, restart NAME, down …).
run: build
	"$$($(SWIFT) build --show-bin-path)/svc-supervisor" up --manifest deploy/suite.toml --run-dir "$(RUN_DIR)"

# Whatever happens, no test daemon outlives the run: every child a test starts carries
# VT_TEST_TAG=<this run's tag>, and scripts/kill-tagged.sh removes what a crashed run left behind
# (only this run's: other runs on the machine have their own tags).
test: deps
	$(SWIFT) build --build-tests
	tag=run-$$$$-$$(date +%s); status=0; VT_TEST_TAG=$$tag $(SWIFT) test --skip-build $(TEST_FLAGS) || status=$$?; \
		VT_TEST_TAG=$$tag bash scripts/kill-tagged.sh; exit $$status
	bash Tests/EventLoopTests/memcheck.sh
	bash scripts/fuzz.sh $(FUZZ_SMOKE_SECONDS)

# Handle and buffer lifetimes under AddressSanitizer (LeakSanitizer included).
memcheck: deps
	bash Tests/EventLoopTests/memcheck.sh

# Rounds of booking while kill -9 takes appointments, identity, notifications and svc-supervisor;
# each round checks nothing was lost or doubled. Prints bookings, retries, errors by code,
# p50/p99 latency and each daemon's memory at start and end.
soak: deps
	$(SWIFT) build --build-tests
	tag=soak-$$$$-$$(date +%s); status=0; \
		VT_TEST_TAG=$$tag VT_SOAK_SECONDS=$(SOAK_SECONDS) $(SWIFT) test --skip-build --filter FaultInjectionTests || status=$$?; \
		VT_TEST_TAG=$$tag bash scripts/kill-tagged.sh; exit $$status

# The decoders under libFuzzer + ASan: frame, envelope, every IOInterface body, the JSON of `call`, the
# manifest. Prints executions and coverage per target; a crash lands in .build-fuzz/crashes/.
fuzz: deps
	bash scripts/fuzz.sh $(FUZZ_SECONDS)

clean:
	rm -rf .build .build-* "$(RUN_DIR)"
