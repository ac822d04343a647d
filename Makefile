# estafette build. `make` builds build/estafette; `make check` runs every test.
# Each module may add a fragment internal/<module>/module.mk declaring, for its
# cmocka test tests/unit/<name>_test.c, the modules it links:
#     TEST_DEPS_<name> := util dice
# Tests without such a line link every module.

# `make` alone builds the binary, whatever rules a module.mk declares first.
.DEFAULT_GOAL := all

PREFIX ?= /usr/local
DESTDIR ?=
B ?= build
CC ?= cc
PKGS := libgit2 libcurl jansson openssl gmime-3.0 zlib librsvg-2.0 cairo libpng
SHARED ?= $(abspath ../shared)

OPT ?= -O2 -g
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wformat=2 -Wvla -Wno-unused-parameter
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(OPT) $(WARN) -Iinternal \
	-DEST_SOURCE_DIR='"$(CURDIR)"' -DEST_DATADIR='"$(PREFIX)/share/estafette"' \
	$(shell pkg-config --cflags $(PKGS) 2>/dev/null) $(CFLAGS) $(EXTRA_CFLAGS)
ALL_LDFLAGS := $(LDFLAGS) $(EXTRA_CFLAGS)
LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
TEST_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null)
# The rulesets: every folder of internal/rulesets/ but common (docs/adding-a-ruleset.md).
RULESETS := $(filter-out common,$(notdir $(patsubst %/,%,$(wildcard internal/rulesets/*/))))

MODULES := util orders sshsig dice seal store render mail game turn intake step engine audit rulesets/common \
	$(addprefix rulesets/,$(RULESETS))
-include $(wildcard internal/*/module.mk internal/rulesets/*/module.mk)

module_srcs = $(wildcard $(foreach m,$(1),internal/$(m)/*.c))
module_objs = $(patsubst %.c,$(B)/%.o,$(call module_srcs,$(1)))

LIB_OBJS := $(call module_objs,$(MODULES))
CMD_OBJS := $(patsubst %.c,$(B)/%.o,$(wildcard cmd/estafette/*.c))
UNIT_TESTS := $(patsubst tests/unit/%_test.c,$(B)/tests/%_test,$(wildcard tests/unit/*_test.c))

.PHONY: all check check-tests sanitize demo demo-run deps install bench unit fuzz fuzz-run clean
.SECONDARY:
all: $(B)/estafette

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/estafette: $(CMD_OBJS) $(LIB_OBJS)
	@echo "  LD      $@"
	@$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

define unit_test_rule
$(B)/tests/$(1)_test: $(B)/tests/unit/$(1)_test.o $(call module_objs,$(or $(TEST_DEPS_$(subst -,_,$(1))),$(MODULES)))
	@mkdir -p $$(dir $$@)
	@echo "  LD      $$@"
	@$$(CC) $$(ALL_LDFLAGS) -o $$@ $$^ $$(LIBS) $$(TEST_LIBS)
endef
$(foreach t,$(patsubst tests/unit/%_test.c,%,$(wildcard tests/unit/*_test.c)),$(eval $(call unit_test_rule,$(t))))

unit: $(UNIT_TESTS)

# check, demo and sanitize install what they need first (make deps), then run
# make again: the compiler and linker flags come from pkg-config, which reads
# the packages deps may just have installed.

# Every test: cmocka units, then the integration scripts against the real
# binary, git, ssh-keygen and a loopback SMTP server.
check: deps
	@$(MAKE) --no-print-directory check-tests

check-tests: $(B)/estafette $(UNIT_TESTS)
	B=$(B) SHARED=$(SHARED) tests/run-tests.sh

# The sanitizers' run leaves out the long sweeps: each replays, dozens of times
# over, paths the other tests already take under the sanitizers, or waits on a
# browser; together they would treble its time. `make sanitize SANITIZE_SKIP=`
# runs every test.
SANITIZE_SKIP ?= integration/fault_points integration/batch_fault_points \
	integration/sealed_fault_points integration/shard_hosts \
	integration/site_browser integration/bench_smoke integration/sample_game
sanitize: deps
	@LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
		SKIP_TESTS="$(SANITIZE_SKIP)" \
		SKIP_WHY="a long sweep, left out of make sanitize (make sanitize SANITIZE_SKIP= runs it)" \
		$(MAKE) --no-print-directory check-tests B=build-san OPT="-O1 -g" EXTRA_CFLAGS="$(SAN_FLAGS)"

demo: deps
	@$(MAKE) --no-print-directory demo-run

demo-run: $(B)/estafette
	B=$(B) tests/demo.sh

BENCHES := $(patsubst tests/bench/%.c,$(B)/bench/%,$(wildcard tests/bench/*_bench.c))
$(B)/bench/%_bench: $(B)/tests/bench/%_bench.o $(call module_objs,util dice)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

bench: $(B)/estafette $(BENCHES)
	B=$(B) tests/bench/run.sh

# tests/integration/bench_smoke.sh runs the bench at tiny sizes.
check-tests: $(BENCHES)

# Fuzzing (tests/fuzz/README.md): each tests/fuzz/<target>_fuzz.c, built with
# clang -fsanitize=fuzzer,address,undefined into build-fuzz/ (its own objects),
# runs FUZZ_SECONDS on a copy of its corpus and fails on a crash, leak or
# timeout. `make check` links the same targets with gcc to the plain driver
# tests/fuzz/regress.c ($(B)/tests/fuzz/<target>_regress), and
# tests/integration/fuzz_regressions.sh replays every saved finding.
FUZZ_SECONDS ?= 60
FUZZ_B := build-fuzz
FUZZ_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_TARGETS := $(patsubst tests/fuzz/%_fuzz.c,%,$(wildcard tests/fuzz/*_fuzz.c))
FUZZ_DEPS_orders := util orders
FUZZ_DEPS_sshsig := util sshsig
FUZZ_DEPS_mail := util mail
FUZZ_DEPS_mustache := util render
# rules walks the ruleset registry, which the engine holds: it links the whole library.
FUZZ_DEPS_rules := $(MODULES)
FUZZ_REGRESS := $(patsubst %,$(B)/tests/fuzz/%_regress,$(FUZZ_TARGETS))

define fuzz_rules
$(B)/tests/fuzz/$(1)_regress: $(B)/tests/fuzz/$(1)_fuzz.o $(B)/tests/fuzz/regress.o $(call module_objs,$(FUZZ_DEPS_$(1)))
	@mkdir -p $$(dir $$@)
	@echo "  LD      $$@"
	@$$(CC) $$(ALL_LDFLAGS) -o $$@ $$^ $$(LIBS)

$(B)/fuzz/$(1)_fuzz: $(B)/tests/fuzz/$(1)_fuzz.o $(call module_objs,$(FUZZ_DEPS_$(1)))
	@mkdir -p $$(dir $$@)
	@echo "  LD      $$@"
	@$$(CC) $$(ALL_LDFLAGS) -fsanitize=fuzzer -o $$@ $$^ $$(LIBS)
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_rules,$(t))))
check-tests: $(FUZZ_REGRESS)

fuzz: deps
	@$(MAKE) --no-print-directory fuzz-run B=$(FUZZ_B) CC=clang OPT="-O1 -g" \
		EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_FLAGS)"

fuzz-run: $(patsubst %,$(B)/fuzz/%_fuzz,$(FUZZ_TARGETS))
	B=$(B) FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh $(FUZZ_TARGETS)

deps:
	@SHARED=$(SHARED) tests/deps.sh

install: $(B)/estafette
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/estafette
	install -m 0755 $(B)/estafette $(DESTDIR)$(PREFIX)/bin/estafette
	cp -R templates $(DESTDIR)$(PREFIX)/share/estafette/
	for n in $(RULESETS); do \
		install -d $(DESTDIR)$(PREFIX)/share/estafette/rulesets/$$n; \
		cp -R internal/rulesets/$$n/data $(DESTDIR)$(PREFIX)/share/estafette/rulesets/$$n/; \
		install -m 0644 internal/rulesets/$$n/README.md internal/rulesets/$$n/RULINGS.md \
			$(DESTDIR)$(PREFIX)/share/estafette/rulesets/$$n/; done

clean:
	rm -rf build build-san build-fuzz

-include $(shell find $(B) -name '*.d' 2>/dev/null)
