# Thin wrapper so a fresh Debian machine needs only two commands:
#   make run    - install what building and running need, build, run the quick default suite
#   make check  - install the test tools too, build, run every test (also under ASan+UBSan),
#                 and each libFuzzer target for FUZZ_TIME seconds
# scripts/bootstrap takes the profile: run for building and running, check for the rest.
# The real build is Meson; build/ is the normal tree, build-san/ the sanitized one.

BUILD ?= build
SAN_BUILD ?= build-san
FUZZ_BUILD ?= build-fuzz
# seconds each fuzz target runs in make check (bench/fuzz.sh runs them longer)
FUZZ_TIME ?= 20
MESON_FLAGS ?=
RUN_ARGS ?=
# what scripts/bootstrap installs: run (build and run) unless a target that
# tests or measures asks for check (a target's value holds for its prerequisites)
BOOTSTRAP_PROFILE ?= run
test test-san test-fuzz check bench: BOOTSTRAP_PROFILE = check

.PHONY: all bootstrap build run check test test-san test-fuzz format format-check bench clean man deb

all: build

bootstrap:
	@scripts/bootstrap $(BOOTSTRAP_PROFILE)

$(BUILD)/build.ninja:
	meson setup $(BUILD) $(MESON_FLAGS)

build: bootstrap $(BUILD)/build.ninja
	ninja -C $(BUILD)

run: build
	$(BUILD)/contend run --quick $(RUN_ARGS)

test: build
	meson test -C $(BUILD) --print-errorlogs

$(SAN_BUILD)/build.ninja:
	CC=clang meson setup $(SAN_BUILD) -Db_sanitize=address,undefined -Db_lundef=false \
		-Dbuildtype=debug $(MESON_FLAGS)

test-san: bootstrap $(SAN_BUILD)/build.ninja
	ninja -C $(SAN_BUILD)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		meson test -C $(SAN_BUILD) --print-errorlogs

$(FUZZ_BUILD)/build.ninja:
	CC=clang meson setup $(FUZZ_BUILD) -Dtests=false -Dfuzz=true \
		-Db_sanitize=address,undefined -Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link \
		$(MESON_FLAGS)

test-fuzz: bootstrap $(FUZZ_BUILD)/build.ninja
	ninja -C $(FUZZ_BUILD)
	tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_TIME)

# the Debian package of the tree, in build-deb/ (needs debhelper)
deb:
	scripts/deb

# the man page's list of the workloads' and loads' options, from their tables
man: build
	scripts/man-options $(BUILD)/contend docs/contend.1

format-check:
	@scripts/format-check

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

check: bootstrap format-check test test-san test-fuzz

bench: build
	bench/overhead.sh && bench/why.sh && bench/why-aa.sh && bench/figure.sh && bench/loads.sh && bench/stats.sh && bench/oltp.sh && bench/pgbench.sh && bench/latency.sh && bench/store.sh && bench/fuzz.sh && bench/faults.sh

clean:
	rm -rf $(BUILD) $(SAN_BUILD) $(FUZZ_BUILD)
