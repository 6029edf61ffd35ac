# Verticals — the commands a newcomer needs. Each installs what is missing first.
#   make run     build and start the suite under svc-supervisor (deploy/suite.toml; Ctrl-C stops it)
#   make test    build and run every test, then EventLoop's lifetime tests under ASan
#   make bench   release build, then every benchmark against its baseline (bench/results.json, bench/latency.png)
SWIFT       ?= swift
RUN_DIR     ?= $(CURDIR)/.run
TEST_FLAGS  ?=

.PHONY: all deps build release run test memcheck bench clean

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

# Benchmarks/ is its own package (make test never builds it). Every figure is a ratio against a
# baseline measured in the same run, interleaved, median [min–max] over BENCH_ROUNDS (default 5).
# Quick look: BENCH_ROUNDS=2 BENCH_IDLE_SECONDS=5 BENCH_KILLS=5 make bench (BENCH_SECTIONS=codec,rpc,...).
# Children carry VT_BENCH_TAG=1, so nothing outlives an interrupted run.
bench: release
	@mkdir -p bench
	gcc -O2 -Wall -Wextra -o bench/uv_echo Benchmarks/CEcho/uv_echo.c $$(pkg-config --cflags --libs libuv)
	$(SWIFT) build -c release --package-path Benchmarks
	@python3 -c 'import matplotlib' 2>/dev/null || python3 -m pip install --quiet matplotlib
	status=0; VT_ROOT="$(CURDIR)" VT_BIN="$$($(SWIFT) build -c release --show-bin-path)" UV_ECHO="$(CURDIR)/bench/uv_echo" \
		"$$($(SWIFT) build -c release --package-path Benchmarks --show-bin-path)/vt-bench" || status=$$?; \
		bash scripts/kill-tagged.sh VT_BENCH_TAG; exit $$status
	python3 Benchmarks/plot.py bench/results.json bench/latency.png

clean:
	rm -rf .build .build-* Benchmarks/.build bench "$(RUN_DIR)"
