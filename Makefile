# drivebench build. `make` builds, `make check` installs missing Debian
# packages (as root), builds and runs every test; `make demo` runs the
# quick suite on the default scratch target and writes the HTML report;
# `make asan` runs the tests under AddressSanitizer + UndefinedBehaviorSanitizer.

CC ?= cc
BUILD ?= build
PKGS := liburing sqlite3 libcjson blkid libcrypto fuse3
# Debian packages behind the libraries and tools above (see scripts/deps.sh).
CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -g -Wall -Wextra -Werror -Wshadow \
	-Wno-missing-field-initializers -Isrc
OPT ?= -O2
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CFLAGS += $(CFLAGS_BASE) $(OPT) $(PKG_CFLAGS) $(EXTRA_CFLAGS)
LDLIBS += $(PKG_LIBS) -laio -lpthread -lm -ldl
LDFLAGS += $(EXTRA_LDFLAGS)

LIB_SRC := $(shell find src -name '*.c' ! -path src/main.c | sort)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/src/main.o
# The MPI build (`make mpi`, below) compiles again only the sources that
# test DRIVEBENCH_MPI (MPI_OWN_SRC: src/ranks/); every other object is
# $(BUILD)'s, the same object it would compile (mpicc is the compiler with
# OpenMPI's include and library paths). A header testing it would make
# every source the MPI build's own.
MPI_OWN_SRC := $(if $(shell grep -rl --include='*.h' DRIVEBENCH_MPI src),$(LIB_SRC) src/main.c,\
	$(shell grep -l DRIVEBENCH_MPI $(LIB_SRC) src/main.c))
MPI_SHARED_OBJ := $(filter-out $(MPI_OWN_SRC:%.c=%.o),$(LIB_SRC:%.c=%.o) src/main.o)
# MPI_REUSE=DIR (make mpi's own make): the shared objects are DIR's
ifdef MPI_REUSE
LIB_OBJ := $(foreach o,$(LIB_SRC:%.c=%.o),\
	$(if $(filter $(o),$(MPI_SHARED_OBJ)),$(MPI_REUSE),$(BUILD))/$(o))
MAIN_OBJ := $(if $(filter src/main.o,$(MPI_SHARED_OBJ)),$(MPI_REUSE),$(BUILD))/src/main.o
endif
# The library is linked whole: the io layer registers its engine catalog
# with the job model from a constructor (job/engine_catalog.h), an object
# nothing else names.
WHOLE_LIB = -Wl,--whole-archive $(BUILD)/libdrivebench.a -Wl,--no-whole-archive
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TEST_HELPER_SRC := $(sort $(wildcard tests/unit/helpers/*.c))
TEST_HELPER_OBJ := $(TEST_HELPER_SRC:%.c=$(BUILD)/%.o)
# Fake libcufile / CUDA runtime / CUDA driver for test_cufile (dlopen'd from the test
# binary's fake/ directory). Built without EXTRA_CFLAGS: under `make asan`
# they run uninstrumented inside the sanitized test, which is fine.
FAKE_DIR := $(BUILD)/tests/fake
FAKE_LIBS := $(FAKE_DIR)/libcufile.so.0 $(FAKE_DIR)/libcufile-noasync.so.0 \
	$(FAKE_DIR)/libcudart.so.12 $(FAKE_DIR)/libcuda.so.1

.PHONY: all deps check test demo asan clean bench fuzz fuzz-build screenshots mpi

# libFuzzer targets (tests/fuzz/fuzz_NAME.c); `make fuzz` builds them with
# clang into build-fuzz/ and runs each FUZZ_SECONDS. The same harnesses are
# built with $(CC) as corpus replays (BUILD/fuzz/replay_NAME) for the tests.
FUZZ_TARGETS := jobfile suite options fio_import
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_REPLAY := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay_%)

all: $(BUILD)/drivebench $(TEST_BIN) $(FAKE_LIBS) $(FUZZ_REPLAY)

deps:
	@sh scripts/deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libdrivebench.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/drivebench: $(MAIN_OBJ) $(BUILD)/libdrivebench.a
	$(CC) $(LDFLAGS) -o $@ $(MAIN_OBJ) $(WHOLE_LIB) $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(TEST_HELPER_OBJ) $(BUILD)/libdrivebench.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(shell pkg-config --cflags cmocka) -o $@ $< \
		$(TEST_HELPER_OBJ) $(WHOLE_LIB) $(LDFLAGS) $(LDLIBS) \
		$(shell pkg-config --libs cmocka)

$(FAKE_DIR)/libcufile.so.0: tests/fake/fake_cufile.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -O1 -fPIC -shared -pthread -o $@ $<

$(FAKE_DIR)/libcufile-noasync.so.0: tests/fake/fake_cufile.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -O1 -fPIC -shared -DFAKE_CUFILE_NO_ASYNC -o $@ $<

$(FAKE_DIR)/libcudart.so.12: tests/fake/fake_cudart.c tests/fake/fake_cuda.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -O1 -fPIC -shared -pthread -o $@ $<

$(FAKE_DIR)/libcuda.so.1: tests/fake/fake_cuda_driver.c tests/fake/fake_cuda.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -O1 -fPIC -shared -pthread -o $@ $<

test: all
	@sh tests/run.sh $(BUILD)

# The MPI build (docs/distributed.md): the sources with mpicc and
# DRIVEBENCH_MPI into $(MPI_BUILD), copied to $(BUILD)/drivebench-mpi;
# those that never test DRIVEBENCH_MPI are $(BUILD)'s objects
# (MPI_SHARED_OBJ, above), not compiled twice. OpenMPI's packages are
# installed when missing; the plain build needs none.
MPI_BUILD ?= build-mpi
MPI_PKGS := libopenmpi-dev openmpi-bin
# check, asan and demo build with one compiler per core (CI has 2)
BUILD_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
mpi: $(MPI_SHARED_OBJ:%=$(BUILD)/%)
	@sh scripts/deps.sh $(MPI_PKGS)
	@$(MAKE) --no-print-directory BUILD=$(MPI_BUILD) MPI_REUSE=$(BUILD) CC=mpicc \
		EXTRA_CFLAGS="-DDRIVEBENCH_MPI $(EXTRA_CFLAGS)" $(MPI_BUILD)/drivebench
	@mkdir -p $(BUILD) && cp $(MPI_BUILD)/drivebench $(BUILD)/drivebench-mpi

check: deps
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) all mpi
	@sh tests/run.sh $(BUILD)

asan: deps
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) BUILD=build-asan MPI_BUILD=build-asan-mpi OPT=-O1 \
		EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		EXTRA_LDFLAGS="-fsanitize=address,undefined" all mpi
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
		TEST_LEAVE_OUT=tests/asan-leave-out.txt sh tests/run.sh build-asan

demo: deps
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) $(BUILD)/drivebench
	@DEMO_TARGET="$(DEMO_TARGET)" sh scripts/demo.sh $(BUILD)

# docs/images/report-*.png from the demo's report (make demo when missing)
screenshots: deps
	@$(MAKE) --no-print-directory $(BUILD)/drivebench
	@sh scripts/screenshots.sh $(BUILD)

bench: $(BUILD)/drivebench
	@sh bench/vs-fio.sh $(BUILD)/drivebench

$(BUILD)/fuzz/replay_%: tests/fuzz/replay.c tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h \
		$(BUILD)/libdrivebench.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ tests/fuzz/replay.c tests/fuzz/fuzz_$*.c \
		$(WHOLE_LIB) $(LDFLAGS) $(LDLIBS)

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h $(BUILD)/libdrivebench.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(WHOLE_LIB) \
		$(LDFLAGS) $(LDLIBS)

fuzz-build: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%) $(FUZZ_REPLAY)

fuzz:
	@sh scripts/deps.sh clang libclang-rt-dev
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=$(FUZZ_CC) OPT=-O1 \
		EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" \
		EXTRA_LDFLAGS="$(FUZZ_SAN)" fuzz-build
	@sh tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

clean:
	rm -rf build build-asan build-fuzz build-mpi build-asan-mpi

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
