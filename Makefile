# Verticals — the commands a newcomer needs. Each installs what is missing first.
#   make run     build and start the suite under svc-supervisor (deploy/suite.toml; Ctrl-C stops it)
#   make test    build and run every test, then EventLoop's lifetime tests under ASan
SWIFT       ?= swift
RUN_DIR     ?= $(CURDIR)/.run
TEST_FLAGS  ?=

.PHONY: all deps build release exec-shim run test memcheck clean

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build
	$(MAKE) --no-print-directory exec-shim

release: deps
	$(SWIFT) build -c release
	$(MAKE) --no-print-directory exec-shim CONFIG=release

# vt-exec again, with cc alone: SwiftPM links even a C executable against libswiftCore, which
# costs about 2 ms at every spawn (measured with farm-bench: 3 ms vs 1 ms for exec of /bin/true).
CC     ?= cc
CONFIG ?= debug
exec-shim:
	$(CC) -O2 -Wall -o "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/vt-exec" Services/Supervisor/ExecShim/main.c

# The suite under svc-supervisor, in the foreground; Ctrl-C stops it in reverse dependency order.
# In another shell: svc-supervisor status (logs NAME -f, restart NAME, down …).
run: build
	"$$($(SWIFT) build --show-bin-path)/svc-supervisor" up --manifest deploy/suite.toml --run-dir "$(RUN_DIR)"

# Whatever happens, no test daemon outlives the run: every child a test starts carries
# VT_TEST_TAG=1, and scripts/kill-tagged.sh removes what a crashed run left behind.
test: deps
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory exec-shim
	status=0; $(SWIFT) test --skip-build $(TEST_FLAGS) || status=$$?; bash scripts/kill-tagged.sh; exit $$status
	bash Tests/EventLoopTests/memcheck.sh

# Handle and buffer lifetimes under AddressSanitizer (LeakSanitizer included).
memcheck: deps
	bash Tests/EventLoopTests/memcheck.sh

clean:
	rm -rf .build .build-* "$(RUN_DIR)"
