# Janggun build. `make` builds ./janggun optimised for this machine; `make test` builds and runs every
# test; `make run` builds and starts the engine. Missing Debian packages are installed first.
# ARCH=x86-64 (portable), x86-64-v2, x86-64-v3 (AVX2, BMI2) or x86-64-v4 (AVX-512) builds for other
# machines; OUT=DIR puts the binaries in DIR instead of the source tree.

CC       := gcc
MODE     ?= release
ARCH     ?= native
OUT      ?= .
PREFIX   ?= /usr/local
WARN     := -std=c17 -Wall -Wextra -Wshadow -Wstrict-prototypes
DEPFLAGS := -MMD -MP

ifeq ($(ARCH),native)
  BUILD  := build/$(MODE)
  MARCH  := -march=native
else ifneq ($(filter $(ARCH),x86-64 x86-64-v2 x86-64-v3 x86-64-v4),)
  BUILD  := build/$(MODE)-$(ARCH)
  MARCH  := -march=$(ARCH) -mtune=generic
else
  $(error ARCH must be native, x86-64, x86-64-v2, x86-64-v3 or x86-64-v4)
endif

ifeq ($(MODE),release)
  OPT    := -O3 $(MARCH) -DNDEBUG
  LIBS   := -ljemalloc
  SUFFIX :=
else ifeq ($(MODE),asan)
  OPT    := -O1 -g $(MARCH) -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
  LDOPT  := -fsanitize=address,undefined
  SUFFIX := -asan
else ifeq ($(MODE),tsan)
  OPT    := -O1 -g $(MARCH) -fsanitize=thread
  LDOPT  := -fsanitize=thread
  SUFFIX := -tsan
else ifeq ($(MODE),fuzz)
  # The fuzz targets (tests/fuzz/): libFuzzer needs clang; AddressSanitizer and UBSan as in asan.
  CC     := clang
  OPT    := -O1 -g $(MARCH) -fno-omit-frame-pointer -fsanitize=address,undefined,fuzzer-no-link \
            -fno-sanitize-recover=all
  LDOPT  := -fsanitize=address,undefined,fuzzer
  SUFFIX := -fuzz
else
  $(error MODE must be release, asan, tsan or fuzz)
endif
BIN       := $(OUT)/janggun$(SUFFIX)
MATCH_BIN := $(OUT)/janggun-match$(SUFFIX)
TUNE_BIN  := $(OUT)/janggun-tune$(SUFFIX)
TRAIN_BIN := $(OUT)/janggun-train$(SUFFIX)
GEN_BIN   := $(OUT)/janggun-gen$(SUFFIX)

CFLAGS  := $(WARN) $(OPT) $(DEPFLAGS)
LDFLAGS := $(LDOPT)

# The engine's ground floor (engine/base/), its rules core, then the game-record formats above the
# core (engine/records/, which the core never includes).
BASE_SRC     := $(wildcard engine/base/*.c)
CORE_SRC     := engine/bitboard.c engine/position.c engine/rules.c engine/movegen.c engine/move.c engine/perft.c \
                engine/referee.c engine/game.c
RECORDS_SRC  := $(wildcard engine/records/*.c)
ENGINE_SRC   := $(BASE_SRC) $(CORE_SRC) $(RECORDS_SRC)
EVAL_SRC     := $(wildcard eval/*.c)
SEARCH_SRC   := $(wildcard search/*.c)
PROTOCOL_SRC := $(filter-out protocol/main.c,$(wildcard protocol/*.c))
MAIN_SRC     := protocol/main.c
MATCH_SRC    := $(wildcard bench/match/*.c)
TRAIN_SRC    := $(wildcard bench/train/*.c)
GEN_SRC      := $(wildcard bench/gen/*.c)
UNIT_TESTS   := $(patsubst tests/%.c,%,$(wildcard tests/test_*.c))
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
WEIGHTS      := $(wildcard nets/janggun-*.weights)
NET          := $(wildcard nets/janggun-*.nnue)

ENGINE_OBJ   := $(ENGINE_SRC:%.c=$(BUILD)/%.o)
LIB_OBJ      := $(ENGINE_OBJ) $(EVAL_SRC:%.c=$(BUILD)/%.o) $(SEARCH_SRC:%.c=$(BUILD)/%.o) \
                $(PROTOCOL_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ     := $(MAIN_SRC:%.c=$(BUILD)/%.o)
TEST_BINS    := $(UNIT_TESTS:%=$(BUILD)/tests/%)
MATCH_OBJ    := $(MATCH_SRC:%.c=$(BUILD)/%.o)
TRAIN_OBJ    := $(TRAIN_SRC:%.c=$(BUILD)/%.o)
GEN_OBJ      := $(GEN_SRC:%.c=$(BUILD)/%.o)

DEB_PACKAGES := gcc make libc6-dev libcmocka-dev libjemalloc-dev liblzma-dev xz-utils git fairy-stockfish xboard xvfb xauth

.SECONDARY:

.PHONY: FORCE all deps run test install uninstall perft-full bench-perft asan test-asan tsan test-tsan format format-check deps-format clean weights-check net-check fuzz fuzz-all fuzz-minimise deps-fuzz

all: deps
	@$(MAKE) --no-print-directory $(BIN) $(MATCH_BIN) $(TUNE_BIN) $(TRAIN_BIN) $(GEN_BIN)

# Installs what is missing from Debian's packages (as root, or through sudo).
deps:
	@command -v dpkg >/dev/null 2>&1 || { echo "deps: not a Debian system, skipping package check"; exit 0; }; \
	missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg -s $$p 2>/dev/null | grep -q '^Status: install ok installed' || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing >/dev/null \
	  || { echo "deps: could not install$$missing"; exit 1; }; fi

$(BIN): $(LIB_OBJ) $(MAIN_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS) -llzma -lpthread -lm

# janggun-match, the tournament runner: the engine core and bench/match/ only (no search or protocol).
$(MATCH_BIN): $(ENGINE_OBJ) $(MATCH_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -llzma -lpthread -lm

# janggun-tune, Texel tuning of the weight file on real games (bench/tune.c): engine and eval only.
$(TUNE_BIN): $(ENGINE_OBJ) $(EVAL_SRC:%.c=$(BUILD)/%.o) $(BUILD)/bench/tune.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -llzma -lpthread -lm

# janggun-train, the network's trainer (bench/train/): engine and eval only.
$(TRAIN_BIN): $(ENGINE_OBJ) $(EVAL_SRC:%.c=$(BUILD)/%.o) $(TRAIN_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ -llzma -lpthread -lm

# janggun-gen, the training-data generator (bench/gen/): engine, eval, search and the packed records.
$(GEN_BIN): $(ENGINE_OBJ) $(EVAL_SRC:%.c=$(BUILD)/%.o) $(SEARCH_SRC:%.c=$(BUILD)/%.o) $(GEN_OBJ) \
            $(BUILD)/bench/train/packed.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS) -llzma -lpthread -lm

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# The version, from `git describe` (see engine/base/version.h); only engine/version.o depends on it, through
# a stamp rewritten when the text changes.
BASE_VERSION := 0.2
VERSION := $(shell v=$$(git -C "$(CURDIR)" describe --tags --match 'v[0-9]*' --dirty 2>/dev/null) \
             && echo "$${v\#v}" && exit; h=$$(git -C "$(CURDIR)" describe --always --dirty 2>/dev/null) \
             && echo "$(BASE_VERSION)-g$$h" && exit; echo "$(BASE_VERSION)")

$(BUILD)/version.stamp: FORCE
	@mkdir -p $(dir $@); echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@

$(BUILD)/engine/base/version.o: CFLAGS += -DJANGGUN_VERSION='"$(VERSION)"'
$(BUILD)/engine/base/version.o: $(BUILD)/version.stamp

# The evaluation's weight file is embedded by eval/weights_blob.c (.incbin). There must be exactly one,
# named nets/janggun-<first 12 hex digits of its sha256>.weights. An edit or a rename rebuilds the
# object: the name is kept in a stamp that is rewritten only when it changes.
weights-check:
	@set -- $(WEIGHTS); [ $$# -eq 1 ] || { echo "weights: need exactly one nets/janggun-*.weights, found $$#"; exit 1; }; \
	sum=$$(sha256sum "$$1" | cut -c1-12); [ "$$1" = "nets/janggun-$$sum.weights" ] \
	  || { echo "weights: $$1 does not match its sha256; rename it to nets/janggun-$$sum.weights"; exit 1; }

$(BUILD)/weights.name: weights-check
	@mkdir -p $(dir $@); echo '$(WEIGHTS)' | cmp -s - $@ || echo '$(WEIGHTS)' > $@

$(BUILD)/eval/weights_blob.o: CFLAGS += -DJANGGUN_WEIGHTS='"$(WEIGHTS)"'
$(BUILD)/eval/weights_blob.o: $(WEIGHTS) $(BUILD)/weights.name

# The net (eval/nnue_blob.c, .incbin) likewise: exactly one nets/janggun-<sha12>.nnue, named by the first
# 12 hex digits of its sha256.
net-check:
	@set -- $(NET); [ $$# -eq 1 ] || { echo "net: need exactly one nets/janggun-*.nnue, found $$#"; exit 1; }; \
	sum=$$(sha256sum "$$1" | cut -c1-12); [ "$$1" = "nets/janggun-$$sum.nnue" ] \
	  || { echo "net: $$1 does not match its sha256; rename it to nets/janggun-$$sum.nnue"; exit 1; }

$(BUILD)/net.name: net-check
	@mkdir -p $(dir $@); echo '$(NET)' | cmp -s - $@ || echo '$(NET)' > $@

$(BUILD)/eval/nnue_blob.o: CFLAGS += -DJANGGUN_NET='"$(NET)"'
$(BUILD)/eval/nnue_blob.o: $(NET) $(BUILD)/net.name

# janggun-match embeds the shipped openings file (bench/match/openings_blob.c).
OPENINGS := bench/data/openings.epd
$(BUILD)/bench/match/openings_blob.o: CFLAGS += -DJANGGUN_OPENINGS='"$(OPENINGS)"'
$(BUILD)/bench/match/openings_blob.o: $(OPENINGS)

# Tests find their data (tests/data/, bench/data/) through the source tree's absolute path.
$(BUILD)/tests/%.o: CFLAGS += -DJANGGUN_SOURCE_ROOT='"$(CURDIR)"'

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka $(LIBS) -llzma -lpthread -lm

# A fuzz target: its harness and the engine's library; libFuzzer brings main.
$(BUILD)/tests/fuzz/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ -llzma -lpthread -lm

$(BUILD)/tests/test_match: $(filter-out %/main.o,$(MATCH_OBJ))
$(BUILD)/tests/test_train: $(filter-out %/main.o,$(TRAIN_OBJ))

# The main job: the protocol loop on standard input (UCI, or UCCI after `ucci`).
run: all
	$(BIN)

test: deps
	@$(MAKE) --no-print-directory $(BIN) $(MATCH_BIN) $(TUNE_BIN) $(TRAIN_BIN) $(GEN_BIN) $(TEST_BINS)
	@tests/run.sh $(BUILD)/tests $(BIN)

# The engine, the tournament runner and the tuner in PREFIX/bin (DESTDIR for staged installs).
install: all
	install -d '$(DESTDIR)$(PREFIX)/bin'
	install -m 755 $(BIN) $(MATCH_BIN) $(TUNE_BIN) $(TRAIN_BIN) $(GEN_BIN) '$(DESTDIR)$(PREFIX)/bin/'

uninstall:
	rm -f '$(DESTDIR)$(PREFIX)/bin/$(notdir $(BIN))' '$(DESTDIR)$(PREFIX)/bin/$(notdir $(MATCH_BIN))' \
	  '$(DESTDIR)$(PREFIX)/bin/$(notdir $(TUNE_BIN))' '$(DESTDIR)$(PREFIX)/bin/$(notdir $(TRAIN_BIN))' \
	  '$(DESTDIR)$(PREFIX)/bin/$(notdir $(GEN_BIN))'

asan:
	@$(MAKE) --no-print-directory MODE=asan all

test-asan:
	@$(MAKE) --no-print-directory MODE=asan test

tsan:
	@$(MAKE) --no-print-directory MODE=tsan all

test-tsan:
	@$(MAKE) --no-print-directory MODE=tsan test

# Coverage-guided fuzzing (README.md, Reliability): `make fuzz TARGET=fen SECONDS=60` runs one target from
# its seed corpus; `make fuzz-all SECONDS=20` runs every target in turn (CI does). A finding stops the run
# with libFuzzer's report; its input is kept in build/fuzz/findings/TARGET/.
TARGET  ?=
SECONDS ?= 60
FUZZ_BUILD := build/fuzz$(if $(filter native,$(ARCH)),,-$(ARCH))
fuzz: deps-fuzz
	@[ -n "$(TARGET)" ] && [ -n "$(filter $(TARGET),$(FUZZ_TARGETS))" ] \
	  || { echo "fuzz: TARGET must be one of: $(FUZZ_TARGETS)"; exit 2; }
	@$(MAKE) --no-print-directory MODE=fuzz $(FUZZ_BUILD)/tests/fuzz/fuzz_$(TARGET)
	@tests/fuzz/run.sh $(FUZZ_BUILD)/tests/fuzz $(TARGET) $(SECONDS)

fuzz-all: deps-fuzz
	@$(MAKE) --no-print-directory MODE=fuzz $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/tests/fuzz/fuzz_%)
	@for t in $(FUZZ_TARGETS); do tests/fuzz/run.sh $(FUZZ_BUILD)/tests/fuzz $$t $(SECONDS) || exit 1; done

# `make fuzz-minimise TARGET=fen` keeps only the seeds that add coverage (tests/fuzz/minimise.sh).
fuzz-minimise: deps-fuzz
	@[ -n "$(TARGET)" ] && [ -n "$(filter $(TARGET),$(FUZZ_TARGETS))" ] \
	  || { echo "fuzz: TARGET must be one of: $(FUZZ_TARGETS)"; exit 2; }
	@$(MAKE) --no-print-directory MODE=fuzz $(FUZZ_BUILD)/tests/fuzz/fuzz_$(TARGET)
	@tests/fuzz/minimise.sh $(FUZZ_BUILD)/tests/fuzz $(TARGET)

deps-fuzz:
	@command -v clang >/dev/null 2>&1 || { sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  echo "deps: installing clang"; $$sudo apt-get update -qq \
	  && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq clang >/dev/null \
	  || { echo "deps: could not install clang"; exit 1; }; }

# Every line of the perft reference file at every depth it lists, up to depth 5.
perft-full: deps
	@$(MAKE) --no-print-directory $(BUILD)/tests/test_perft
	JANGGUN_PERFT_MAX_DEPTH=5 $(BUILD)/tests/test_perft

bench-perft: all
	@bench/perft_bench.sh $(BIN)

# The house style (.clang-format) on every C source the repository tracks (every *.c and *.h found
# when the tree is not a git checkout); format-check changes nothing and fails on a file that differs.
C_SOURCES = $(shell git ls-files '*.c' '*.h' 2>/dev/null || find engine eval search protocol bench tests -name '*.[ch]')

deps-format:
	@command -v clang-format >/dev/null 2>&1 || { sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  echo "deps: installing clang-format"; $$sudo apt-get update -qq \
	  && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq clang-format >/dev/null \
	  || { echo "deps: could not install clang-format"; exit 1; }; }

format: deps-format
	clang-format -i $(C_SOURCES)

format-check: deps-format
	@clang-format --dry-run --Werror $(C_SOURCES) && echo "format-check: $(words $(C_SOURCES)) files formatted"

clean:
	rm -rf build janggun janggun-asan janggun-tsan janggun-match janggun-match-asan janggun-match-tsan \
	  janggun-tune janggun-tune-asan janggun-tune-tsan janggun-train janggun-train-asan janggun-train-tsan \
	  janggun-gen janggun-gen-asan janggun-gen-tsan

-include $(shell find build -name '*.d' 2>/dev/null)
