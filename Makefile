# Verticals — the commands a newcomer needs. Each installs what is missing first.
#   make run     build and start the suite under svc-supervisor (deploy/suite.toml; Ctrl-C stops it)
#   make test    build and run every test, then EventLoop's lifetime tests under ASan
#   make contracts-update   after a deliberate contract change: rewrite Tests/Contracts' lock and golden fixtures
SWIFT       ?= swift
RUN_DIR     ?= $(CURDIR)/.run
TEST_FLAGS  ?=

.PHONY: all deps build release run test memcheck contracts-check contracts-update clean

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
# VT_TEST_TAG=1, and scripts/kill-tagged.sh removes what a crashed run left behind.
test: deps
	$(SWIFT) build --build-tests
	status=0; $(SWIFT) test --skip-build $(TEST_FLAGS) || status=$$?; bash scripts/kill-tagged.sh; exit $$status
	bash Tests/EventLoopTests/memcheck.sh

# Handle and buffer lifetimes under AddressSanitizer (LeakSanitizer included).
memcheck: deps
	bash Tests/EventLoopTests/memcheck.sh

# The contract lock and golden fixtures (Tests/Contracts/README.md). `update` refuses a breaking
# change (removed operation or field, reused tag, changed type, field made required, removed error
# code) and exits 1 naming it; ALLOW_BREAKING=1 passes --allow-breaking for a coordinated upgrade.
contracts-check: deps
	$(SWIFT) build --product vt-contracts
	"$$($(SWIFT) build --show-bin-path)/vt-contracts" check --root "$(CURDIR)"

contracts-update: deps
	$(SWIFT) build --product vt-contracts
	"$$($(SWIFT) build --show-bin-path)/vt-contracts" update --root "$(CURDIR)" $(if $(ALLOW_BREAKING),--allow-breaking)

clean:
	rm -rf .build .build-* "$(RUN_DIR)"
