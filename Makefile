# Verticals — the commands a newcomer needs. Each installs what is missing first.
#   make run     build and start the suite on its embedded defaults (Ctrl-C stops it)
#   make test    build and run every test, then EventLoop's lifetime tests under ASan
SWIFT       ?= swift
RUN_DIR     ?= $(CURDIR)/.run
TEST_FLAGS  ?=

.PHONY: all deps build release run test memcheck clean

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

run: build
	@bash scripts/dev-run.sh "$(RUN_DIR)"

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build $(TEST_FLAGS)
	bash Tests/EventLoopTests/memcheck.sh

# Handle and buffer lifetimes under AddressSanitizer (LeakSanitizer included).
memcheck: deps
	bash Tests/EventLoopTests/memcheck.sh

clean:
	rm -rf .build .build-* "$(RUN_DIR)"
