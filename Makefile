# morelli -- build, test, bench.
#
#   make            release engine: build/morelli (and build/match)
#   make pgo        the same, profile-guided (gcc; see "Profile-guided" below)
#   make test       the whole cmocka suite (gets cmocka when missing: tests/ensure-cmocka.sh)
#   make check      its quick tests only (about a minute here); make test-long the rest
#   make sanitize   the same suite under AddressSanitizer + UBSan
#   make test-clang the same suite built by clang
#   make test-native the same suite built for this machine's instructions
#   make tsan       searches (Threads=2, 4), test_threads and a match (concurrency 2) under ThreadSanitizer
#   make tables     Morris endgame table files up to 6 a side (docs/tables.md)
#   make test-tables  those files checked, all option sets (long)
#   make tables-full  the standard set's files up to 9 a side (hours; docs/tables.md)
#   make test-tables-tasks  tables built as GNU parallel and Slurm tasks, checked
#   make bench-check  the bench signature against bench/signature.txt
#   make bench      speed table (perft, search, playouts)
#   make run        a short engine-vs-engine game on the terminal
#   make doccheck   runs the commands README.md and docs/ show, as written
#   make tools      the tuning tools: build/eval_tune, build/search_tune
#   make web        the page in build/web/ (engine in WebAssembly, Morris tables; docs/web.md)
#   make web-serve  serve it on http://127.0.0.1:8000/
#   make test-web   play the page in Debian's chromium (tests/web/)
#   make format-check  the C sources against .clang-format; make format rewrites them
#   make install    the portable engine, runner, man pages, docs under PREFIX
#                   (/usr/local; DESTDIR= stages); make uninstall; make test-install
#   make ARCH=...   the release build for other CPUs (native by default; see ARCH)
#   make clean
#
# Parallel by default: as many jobs as processors (a -jN on the command line
# wins; the sub-makes share the top one's jobs).

# `make` alone builds the engine and the runner (the first rule below is not it).
.DEFAULT_GOAL := all

NPROC    := $(shell nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(NPROC)
endif
ifneq ($(filter clean,$(MAKECMDGOALS)),)
.NOTPARALLEL:
endif

# Each compile and link says one short line ("  CC  engine/game.c"); V=1
# shows the whole commands.
V ?= 0
ifeq ($(V),1)
Q :=
brief = @:
else
Q := @
brief = @printf '  %-3s %s\n' '$(1)' '$(2)'
endif

CC       ?= cc
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
BASE     := -std=c11 -D_GNU_SOURCE -pthread -MMD -MP
# The release build's instruction set, ARCH= on the command line:
#   native      this machine's (the default for a local build)
#   x86-64-v3   AVX2, BMI2 (x86 CPUs from about 2013 on)
#   x86-64-v2   SSE4.2, POPCNT (from about 2009 on): installs and images
#   x86-64      any 64-bit x86
#   generic     the compiler's default target (any CPU, e.g. ARM)
# Every choice searches the same nodes (bench signature); make bench-check
# ARCH=x86-64 checks it.  A change of ARCH rebuilds build/obj/.
ARCH     ?= native
ARCHES   := native x86-64-v3 x86-64-v2 x86-64 generic
ifeq ($(filter $(ARCH),$(ARCHES)),)
$(error ARCH=$(ARCH): not one of $(ARCHES))
endif
# The portable choice of `make install` and `make image` (DIST_ARCH=...).
DIST_ARCH ?= $(if $(filter x86_64 amd64,$(shell uname -m 2>/dev/null)),x86-64-v2,generic)
arch_flags = $(if $(filter generic,$(1)),,-march=$(1)) -DMORELLI_ARCH='"$(1)"'
RELOPT   := -O3 -flto=auto -fno-pie -no-pie
RELEASE  := $(RELOPT) $(call arch_flags,$(ARCH))
TESTOPT  := -O2 -g -Werror
TSANOPT  := -O1 -g -Werror -fsanitize=thread
CLANG    ?= clang
SANOPT   := -O1 -g -Werror -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
LDLIBS   := -lm -pthread

# The version the engine reports (--version, `id name`): `git describe` of the
# checkout, else (a tree without git) MORELLI_RELEASE.  Only protocol/version.c
# reads it; build/version.txt changes when it does, which rebuilds that file.
MORELLI_RELEASE := 1.0
MORELLI_VERSION := $(or $(shell git describe --always --dirty 2>/dev/null),$(MORELLI_RELEASE))
VERSION_DEF     := -DMORELLI_VERSION='"$(MORELLI_VERSION)"'
BASE     += $(VERSION_DEF)

# Layers: each folder compiles against its own headers and those of the layers
# below it, never above, so an #include that reaches up fails the build (and
# tests/layers.sh says which layer the header belongs to); the test flavours
# also check the objects' symbols (build/<flavour>/layers.ok).
#   engine/        the games, the search:   -Iengine
#   protocol/      the UGI front end:       -Iengine -Iprotocol
#   bench/match/   the match runner:        -Iengine -Ibench/match
#   bench/, tests/ benchmarks, tools, tests: all of them
layer_inc = $(if $(filter engine/%,$(1)),-Iengine,$(if $(filter protocol/%,$(1)),-Iengine -Iprotocol,$(if \
	$(filter bench/match/%,$(1)),-Iengine -Ibench/match,-Iengine -Iprotocol -Ibench -Ibench/match)))
# The compile command's tail: on failure, name a header of the wrong layer.
LAYER_HINT = || { sh tests/layers.sh include $< $(call layer_inc,$<); exit 1; }

# Library: every .c under engine/, protocol/ and bench/ (bench/match/ too) but
# the programs' entry points (main.c, *_main.c), so tests can link all of it.
LIB_SRC  := $(sort $(shell find engine protocol bench -name '*.c' ! -name main.c ! -name '*_main.c'))
TEST_SRC := $(sort $(wildcard tests/test_*.c))
TEST_SUP := $(sort $(filter-out $(TEST_SRC),$(wildcard tests/*.c)))

# --- release ---------------------------------------------------------------
build/version.txt: FORCE
	@mkdir -p build
	@[ "$$(cat $@ 2>/dev/null)" = '$(MORELLI_VERSION)' ] || echo '$(MORELLI_VERSION)' > $@
build/arch.txt: FORCE
	@mkdir -p build
	@[ "$$(cat $@ 2>/dev/null)" = '$(ARCH) $(CC)' ] || echo '$(ARCH) $(CC)' > $@
FORCE:
.PHONY: FORCE
# Every object folder (the release's, the profile run's, the portable one,
# the test flavours', the fuzzers', the page's) has its version.o.
OBJ_DIRS := obj pgo dist/obj test san clang native tsan fuzz
$(foreach d,$(OBJ_DIRS) web/obj,build/$(d)/protocol/version.o): build/version.txt

REL_OBJ  := $(LIB_SRC:%.c=build/obj/%.o)

all: build/morelli build/match

# Profile-guided: `make pgo` (or PGO=1; gcc only).  Not the default: measured
# on a 2-core machine, `build/morelli bench` ran at the same speed within the
# noise (nodes/s, profile over plain: 1.00, median of 20 alternating pairs;
# CPU seconds: 1.00, quartiles 0.95-1.03, 40 pairs), while the engine's build
# took 4 times as long (37 s against 9 s at -j2), since the objects are built
# twice with a training run between (README.md, "More").  The objects are first built instrumented in
# build/pgo/, that engine runs bench/pgo_train.sh (about 5 s), and build/obj/
# is compiled with the counts it left.  The instrumented objects take the
# release objects' names for their counts (-dumpbase: gcc names a static
# function's counts after the object), so each .gcda is written beside the
# object that reads it (-fprofile-correction: counts a thread left
# inconsistent are smoothed, not an error).  Any source changed rebuilds
# both passes; a plain `make` afterwards keeps the profile-guided objects
# until their sources change.
PGO ?= 0
pgo:
	@$(MAKE) --no-print-directory PGO=1 all

ifeq ($(PGO),1)
PGO_OBJ  := $(LIB_SRC:%.c=build/pgo/%.o) build/pgo/protocol/main.o
PGO_USE  := -fprofile-use -fprofile-partial-training -fprofile-correction -Wno-missing-profile

build/pgo/%.o: %.c build/arch.txt
	@mkdir -p $(dir $@) $(dir build/obj/$*)
	$(call brief,CC,$<)
	$(Q)$(CC) $(BASE) $(call layer_inc,$<) $(WARN) $(RELEASE) -fprofile-generate -fprofile-update=atomic \
		-dumpbase build/obj/$*.c -dumpbase-ext .c -MF build/pgo/$*.d $(CFLAGS) -c $< -o $@ $(LAYER_HINT)

build/pgo/morelli: $(PGO_OBJ)
	$(call brief,LD,$@)
	$(Q)$(CC) $(RELEASE) -fprofile-generate $(CFLAGS) $^ -o $@ $(LDLIBS) $(LDFLAGS)

build/pgo/profile: build/pgo/morelli bench/pgo_train.sh
	@find build/obj -name '*.gcda' -delete
	sh bench/pgo_train.sh build/pgo/morelli
	@touch $@

build/obj/%.o: %.c build/pgo/profile build/arch.txt
	@mkdir -p $(dir $@)
	$(call brief,CC,$<)
	$(Q)$(CC) $(BASE) $(call layer_inc,$<) $(WARN) $(RELEASE) $(PGO_USE) $(CFLAGS) -c $< -o $@ $(LAYER_HINT)
else
PGO_USE  :=

build/obj/%.o: %.c build/arch.txt
	@mkdir -p $(dir $@)
	$(call brief,CC,$<)
	$(Q)$(CC) $(BASE) $(call layer_inc,$<) $(WARN) $(RELEASE) $(CFLAGS) -c $< -o $@ $(LAYER_HINT)
endif

build/morelli: build/obj/protocol/main.o $(REL_OBJ)
	$(call brief,LD,$@ for ARCH=$(ARCH))
	$(Q)$(CC) $(RELEASE) $(PGO_USE) $(CFLAGS) $^ -o $@ $(LDLIBS) $(LDFLAGS)

build/match: build/obj/bench/match/match_main.o $(REL_OBJ)
	$(call brief,LD,$@)
	$(Q)$(CC) $(RELEASE) $(PGO_USE) $(CFLAGS) $^ -o $@ $(LDLIBS) $(LDFLAGS)

build/speed: build/obj/bench/speed_main.o $(REL_OBJ)
	$(call brief,LD,$@)
	$(Q)$(CC) $(RELEASE) $(PGO_USE) $(CFLAGS) $^ -o $@ $(LDLIBS) $(LDFLAGS)

# --- portable builds, install ---------------------------------------------
# build/dist/: the release build for DIST_ARCH (portable), the one `make install`
# copies; build/static/: the same objects linked statically, for `make image`.
DIST_FLAGS := $(RELOPT) $(call arch_flags,$(DIST_ARCH))
DIST_OBJ   := $(LIB_SRC:%.c=build/dist/obj/%.o)

build/dist/arch.txt: FORCE
	@mkdir -p build/dist
	@[ "$$(cat $@ 2>/dev/null)" = '$(DIST_ARCH) $(CC)' ] || echo '$(DIST_ARCH) $(CC)' > $@

build/dist/obj/%.o: %.c build/dist/arch.txt
	@mkdir -p $(dir $@)
	$(call brief,CC,$<)
	$(Q)$(CC) $(BASE) $(call layer_inc,$<) $(WARN) $(DIST_FLAGS) $(CFLAGS) -c $< -o $@ $(LAYER_HINT)

build/dist/morelli: build/dist/obj/protocol/main.o $(DIST_OBJ)
	$(call brief,LD,$@ for ARCH=$(DIST_ARCH))
	$(Q)$(CC) $(DIST_FLAGS) $(CFLAGS) $^ -o $@ $(LDLIBS) $(LDFLAGS)

build/dist/match: build/dist/obj/bench/match/match_main.o $(DIST_OBJ)
	$(call brief,LD,$@)
	$(Q)$(CC) $(DIST_FLAGS) $(CFLAGS) $^ -o $@ $(LDLIBS) $(LDFLAGS)

build/static/morelli: build/dist/obj/protocol/main.o $(DIST_OBJ)
	@mkdir -p $(dir $@)
	$(call brief,LD,$@ for ARCH=$(DIST_ARCH) static)
	$(Q)$(CC) $(DIST_FLAGS) -static $(CFLAGS) $^ -o $@ $(LDLIBS) $(LDFLAGS)

build/static/match: build/dist/obj/bench/match/match_main.o $(DIST_OBJ)
	@mkdir -p $(dir $@)
	$(call brief,LD,$@ static)
	$(Q)$(CC) $(DIST_FLAGS) -static $(CFLAGS) $^ -o $@ $(LDLIBS) $(LDFLAGS)

dist: build/dist/morelli build/dist/match

#   make install [PREFIX=/usr/local] [DESTDIR=]   make uninstall (the same)
# The engine as $(BINDIR)/morelli, the match runner as morelli-match, their
# manual pages (section 6) and the docs.  Every folder is checked writable
# before anything is copied.
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
DOCDIR  ?= $(PREFIX)/share/doc/morelli
MANPAGES := docs/man/morelli.6 docs/man/morelli-match.6
DOCS     := README.md $(sort $(wildcard docs/*.md docs/*.png))
INSTALL_DIRS = $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man6 $(DESTDIR)$(DOCDIR)

install: build/dist/morelli build/dist/match
	@for d in $(INSTALL_DIRS); do \
	    a=$$d; while [ ! -e "$$a" ]; do a=$$(dirname "$$a"); done; \
	    if [ ! -d "$$a" ] || ! t=$$(mktemp -p "$$a" .morelli-install.XXXXXX 2>/dev/null); then \
	        echo "make install: cannot write $$d ($$a is not a folder this user may write); nothing was copied" >&2; \
	        echo "make install: pick another PREFIX (e.g. PREFIX=$$HOME/.local) or run it as a user who may write there" >&2; \
	        exit 1; \
	    fi; \
	    rm -f "$$t"; \
	done
	install -d $(INSTALL_DIRS)
	install -m 755 build/dist/morelli $(DESTDIR)$(BINDIR)/morelli
	install -m 755 build/dist/match $(DESTDIR)$(BINDIR)/morelli-match
	install -m 644 $(MANPAGES) $(DESTDIR)$(MANDIR)/man6/
	install -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	@echo "make install: morelli and morelli-match in $(DESTDIR)$(BINDIR) (ARCH=$(DIST_ARCH)), man 6 morelli"

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/morelli $(DESTDIR)$(BINDIR)/morelli-match \
		$(addprefix $(DESTDIR)$(MANDIR)/man6/,$(notdir $(MANPAGES))) \
		$(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOCS)))
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null || true

print-dist-arch:
	@echo $(DIST_ARCH)

# Installs into a temporary DESTDIR and checks what is there (tests/install.sh).
test-install:
	+@sh tests/install.sh check

# The container image (FROM scratch: the static engine and runner) as an OCI
# archive, loaded into podman or docker when one runs here; test-image checks
# it and the Kubernetes manifests (tests/k8s.sh).
IMAGE_NAME ?= morelli:latest
image: build/static/morelli build/static/match
	@sh bench/match/shards/image.sh build/image/morelli-image.tar $(IMAGE_NAME) build/static/morelli build/static/match
	@if command -v podman > /dev/null && podman info > /dev/null 2>&1; then podman load -i build/image/morelli-image.tar; \
	elif command -v docker > /dev/null && docker info > /dev/null 2>&1; then docker load -i build/image/morelli-image.tar; \
	else echo "make image: no running podman or docker here: load it elsewhere with podman load -i, docker load -i or kind load image-archive"; fi

test-image: image
	+@sh tests/k8s.sh build/image/morelli-image.tar

# A one-node Slurm on this machine plays a sharded match (tests/slurm.sh;
# root: it installs slurm-wlm and munge when missing and stops what it starts).
test-slurm: all
	@sh tests/slurm.sh

.PHONY: dist install uninstall test-install print-dist-arch test-slurm image test-image

# --- tools (not part of `make` or `make test`) -----------------------------
#   make tools      build/eval_tune (docs/tuning.md), build/search_tune
TOOL_BINS := build/eval_tune build/search_tune

tools: $(TOOL_BINS)

$(TOOL_BINS): build/%: build/obj/bench/%_main.o $(REL_OBJ)
	$(call brief,LD,$@)
	$(Q)$(CC) $(RELEASE) $(PGO_USE) $(CFLAGS) $^ -o $@ $(LDLIBS) $(LDFLAGS)

# --- tests (one flavour per object directory) -------------------------------
# $(1): flavour name, $(2): compile flags, $(3): compiler (empty: $(CC))
define FLAVOUR
$(1)_LIB  := $$(LIB_SRC:%.c=build/$(1)/%.o)
$(1)_SUP  := $$(TEST_SUP:%.c=build/$(1)/%.o)
$(1)_BINS := $$(TEST_SRC:tests/%.c=build/$(1)/bin/%)
build/$(1)/%.o: %.c
	@mkdir -p $$(dir $$@)
	$$(call brief,CC,$$<)
	$$(Q)$(if $(3),$(3),$$(CC)) $$(BASE) $$(call layer_inc,$$<) $$(WARN) $(2) $$(CMOCKA_CFLAGS) $$(CFLAGS) -c $$< -o $$@ $$(LAYER_HINT)
build/$(1)/bin/%: build/$(1)/tests/%.o $$($(1)_SUP) $$($(1)_LIB) $$(wildcard build/cmocka.mk)
	@mkdir -p $$(dir $$@)
	$$(call brief,LD,$$@)
	$$(Q)$(if $(3),$(3),$$(CC)) $(2) $$(filter %.o,$$^) -o $$@ $$(CMOCKA_LDFLAGS) -lcmocka $$(LDLIBS) $$(LDFLAGS)
build/$(1)/morelli: build/$(1)/protocol/main.o $$($(1)_LIB)
	$$(call brief,LD,$$@)
	$$(Q)$(if $(3),$(3),$$(CC)) $(2) $$^ -o $$@ $$(LDLIBS) $$(LDFLAGS)
build/$(1)/match: build/$(1)/bench/match/match_main.o $$($(1)_LIB)
	$$(call brief,LD,$$@)
	$$(Q)$(if $(3),$(3),$$(CC)) $(2) $$^ -o $$@ $$(LDLIBS) $$(LDFLAGS)
build/$(1)/layers.ok: $$($(1)_LIB) tests/layers.sh
	@sh tests/layers.sh symbols build/$(1) && touch $$@
build/$(1)/all: build/$(1)/morelli $$($(1)_BINS) build/$(1)/layers.ok
	@:
.PHONY: build/$(1)/all
endef
$(eval $(call FLAVOUR,test,$(TESTOPT)))
$(eval $(call FLAVOUR,san,$(SANOPT)))
# The same suite built by clang (make test-clang), for this machine's
# instructions (make test-native: the AVX2, BMI2 paths the release build
# takes, which the plain -O2 builds leave out), and ThreadSanitizer (make tsan).
$(eval $(call FLAVOUR,clang,$(TESTOPT),$(CLANG)))
$(eval $(call FLAVOUR,native,$(TESTOPT) -march=native))
$(eval $(call FLAVOUR,tsan,$(TSANOPT)))

# A compiler, then cmocka: from the system, or apt-get as root, or else fetched
# into build/cmocka/ without root; that case writes build/cmocka.mk (the -I, -L
# and rpath flags), read here by the sub-make that builds the tests.
-include build/cmocka.mk
cmocka:
	@CC="$(CC)" sh tests/ensure-cmocka.sh "make cmocka"

# Tests find the engine binary of their flavour in MORELLI_BIN.
# Tiers: `make test` runs every test binary; `make check` the quick ones;
# `make test-long` the rest, TEST_LONG, the binaries that ran 8 s or more on a
# 2-core machine at load 3 (tests/run.sh gives each binary's seconds): the
# Morris endgame tables (test_morris, 52 s), Morelli's exact endings
# (test_morelli_solve, 28 s), whole matches at fixed move times (test_match,
# 8 s), the table files against the tables built in memory (test_tables_long,
# 54 s), the end of the placement played exactly (test_place, 12 s of CPU),
# `tables verify` on the files up to 4 a side it builds (test_tables_verify,
# 13 s of CPU).
# The quick ones took 22 s together.  Tests run with
# MORELLI_TABLES empty: no table files of the user's are read or written.
TEST_LONG_NAMES := test_morelli_solve test_morris test_match test_tables_long test_place \
                   test_tables_verify
TEST_LONG  := $(addprefix build/test/bin/,$(TEST_LONG_NAMES))
TEST_QUICK := $(filter-out $(TEST_LONG),$(test_BINS))
# $(1): the goal's name, $(2): the test binaries it builds and runs.
define RUN_TESTS
	@CC="$(CC)" sh tests/ensure-cmocka.sh "make $(1)"
	@$(MAKE) --no-print-directory build/test/morelli build/test/layers.ok $(2)
	@MORELLI_TABLES= MORELLI_BIN=build/test/morelli sh tests/run.sh $(2)
endef
test:
	$(call RUN_TESTS,test,$(test_BINS))
check:
	$(call RUN_TESTS,check,$(TEST_QUICK))
test-long:
	$(call RUN_TESTS,test-long,$(TEST_LONG))

sanitize:
	@CC="$(CC)" sh tests/ensure-cmocka.sh "make sanitize"
	@$(MAKE) --no-print-directory build/san/all
	@MORELLI_TABLES= MORELLI_BIN=build/san/morelli ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		MORELLI_SANITIZE=1 sh tests/run.sh $(san_BINS)

# The suite built by clang (CLANG=clang-NN to pick one).
test-clang:
	@CC="$(CLANG)" sh tests/ensure-cmocka.sh "make test-clang"
	@$(MAKE) --no-print-directory build/clang/all
	@MORELLI_TABLES= MORELLI_BIN=build/clang/morelli sh tests/run.sh $(clang_BINS)

# The suite built with -march=native: the code under __AVX2__ and __BMI2__
# that the release build runs.
test-native:
	@CC="$(CC)" sh tests/ensure-cmocka.sh "make test-native"
	@$(MAKE) --no-print-directory build/native/all
	@MORELLI_TABLES= MORELLI_BIN=build/native/morelli sh tests/run.sh $(native_BINS)

# ThreadSanitizer: searches with Threads=2 in every game, the threads test
# (helpers held while their search answers) and a match with concurrency 2
# (tests/tsan.sh); any report fails.
tsan:
	@CC="$(CC)" sh tests/ensure-cmocka.sh "make tsan"
	@$(MAKE) --no-print-directory build/tsan/morelli build/tsan/match build/tsan/bin/test_threads
	@sh tests/tsan.sh build/tsan

# Morris endgame table files (docs/tables.md): `make tables` builds every
# option set up to TABLES_UPTO pieces a side into TablePath's default
# directory (resumable: the classes on disk are kept); `make test-tables`
# checks the files of all four option sets against the tables built in
# memory and, on random positions of every class up to TABLES_UPTO a side,
# against their children (in a temporary directory).
TABLES_UPTO ?= 6
tables: build/morelli
	build/morelli tables build --upto $(TABLES_UPTO)

# `make tables-full`: the standard set (Diagonals=false Flying=true), every
# class up to 9 a side, into TablePath's default directory or TABLES_DIR
# (resumable; `build/morelli tables plan --upto 9 --diagonals false --flying
# true` says its disk and memory; TABLES_WDL_FROM=P builds the groups of
# more than P pieces win/draw/loss only).  `make test-tables-tasks` builds small
# classes as GNU parallel tasks and, as root with Slurm installed, as Slurm
# job arrays, and compares them with one plain build (tests/tables_tasks.sh).
tables-full: build/morelli
	build/morelli tables build --upto 9 --diagonals false --flying true $(if $(TABLES_DIR),--dir $(TABLES_DIR)) \
	    $(if $(TABLES_WDL_FROM),--wdl-from $(TABLES_WDL_FROM))

test-tables-tasks: build/morelli
	@sh tests/tables_tasks.sh

test-tables:
	@CC="$(CC)" sh tests/ensure-cmocka.sh "make test-tables"
	@$(MAKE) --no-print-directory build/test/bin/test_tables_long
	@MORELLI_TABLES= TABLES_SETS=all TABLES_UPTO=$(TABLES_UPTO) TEST_VERBOSE=1 \
		sh tests/run.sh build/test/bin/test_tables_long
.PHONY: tables test-tables tables-full test-tables-tasks

# The bench signature (nodes of `build/morelli bench`) against the number
# recorded in bench/signature.txt; a change that alters the search on purpose
# records the new number there.
bench-check: build/morelli
	@want=$$(grep -v '^#' bench/signature.txt | tr -d ' \n'); \
	got=$$(build/morelli bench 2>&1 | sed -n 's/^Nodes searched *: *//p'); \
	if [ "$$got" = "$$want" ]; then echo "bench signature $$got nodes, as recorded"; \
	else echo "bench signature $$got nodes, bench/signature.txt says $$want"; exit 1; fi

bench: all build/speed
	@build/speed bench/speed.txt
	@echo; echo "build/morelli bench (the search signature, bench/positions.txt):"
	@build/morelli bench 2>&1 | tail -n 3

# The tables of docs/benchmarks.md as Markdown (bench/report.sh: a minute
# or two; bench/report.sh --full measures longer).
bench-report: all build/speed
	@sh bench/report.sh
.PHONY: bench-report

run: all
	@build/match --demo

# Every short command of README.md and docs/*.md, run as written (tests/doccheck.pl).
doccheck: all
	@perl tests/doccheck.pl

clean:
	rm -rf build

# --- the web page (docs/web.md) ---------------------------------------------
# The engine compiled by clang for wasm32-wasi with Debian's wasi-libc
# (packages clang lld wasi-libc libclang-rt-dev-wasm32, installed by
# protocol/web/ensure-wasm.sh), no threads, plus the static page.
WEB_CC    ?= clang
WEB_PORT  ?= 8000
WEB_FLAGS := --target=wasm32-wasi --sysroot=/usr -std=c11 -D_GNU_SOURCE -Iprotocol/web/compat \
             -DUGI_NO_THREADS -Iengine -Iprotocol -MMD -MP -O3 $(WARN) $(VERSION_DEF)
# protocol/web/tb_files_web.c compiles the engine's table files for the module.
# (The `tables` command is native only.)
WEB_SRC   := $(filter-out protocol/bench_data.c engine/morris/morris_tb_files.c engine/morris/morris_tb_cmd.c engine/morris/morris_tb_verify.c,$(filter engine/% \
             protocol/%,$(LIB_SRC))) protocol/web/wasm_main.c
WEB_OBJ   := $(WEB_SRC:%.c=build/web/obj/%.o) build/web/obj/bench_data.o
WEB_FILES := $(addprefix build/web/,$(notdir $(wildcard protocol/web/*.html protocol/web/*.css protocol/web/*.js)))

web: web-tools build/web/morelli.wasm $(WEB_FILES) build/web/tables/tables.txt

# Every wasm compile and the link wait for the toolchain (order-only), so a
# parallel make on a machine without it installs it first.
web-tools:
	@sh protocol/web/ensure-wasm.sh

build/web/obj/%.o: %.c | web-tools
	@mkdir -p $(dir $@)
	$(call brief,CC,$<)
	$(Q)$(WEB_CC) $(WEB_FLAGS) -c $< -o $@

# bench/positions.txt as a C array (wasm has no .incbin).
build/web/obj/bench_data.c: bench/positions.txt
	@mkdir -p $(dir $@)
	{ echo '#include "ugi.h"'; echo 'static const char text[] = {'; \
	  od -An -v -tu1 $< | sed 's/  */,/g; s/^,//; s/$$/,/'; echo '0};'; \
	  echo 'const char *bench_positions_text(void) { return text; }'; } > $@

build/web/obj/bench_data.o: build/web/obj/bench_data.c | web-tools
	$(call brief,CC,$<)
	$(Q)$(WEB_CC) $(WEB_FLAGS) -c $< -o $@

build/web/morelli.wasm: $(WEB_OBJ) | web-tools
	$(call brief,LD,$@)
	$(Q)$(WEB_CC) --target=wasm32-wasi --sysroot=/usr -mexec-model=reactor -O3 $^ -o $@ -Wl,--strip-all \
		-lwasi-emulated-mman -lwasi-emulated-getpid

# The Morris endgame tables the page loads (docs/web.md): the classes of 3
# to WEB_TB_UPTO pieces a side (and at most WEB_TB_TOTAL on the board) of
# every option set, two bits an entry, gzipped, and their list tables.txt.
# build/web-tables/ keeps the byte-an-entry files they are made from; both
# are made once (build/tbpack: protocol/web/tbpack_main.c).
WEB_TB_UPTO  ?= 4
WEB_TB_TOTAL ?= 8
build/tbpack: build/obj/protocol/web/tbpack_main.o $(filter build/obj/engine/%,$(REL_OBJ))
	$(call brief,LD,$@)
	$(Q)$(CC) $(RELEASE) $(PGO_USE) $(CFLAGS) $^ -o $@ $(LDLIBS) $(LDFLAGS)

build/web/tables/tables.txt: build/tbpack
	$(call brief,GEN,build/web/tables)
	$(Q)rm -rf build/web/tables && build/tbpack --upto $(WEB_TB_UPTO) --total $(WEB_TB_TOTAL) \
		--threads $(NPROC) --diagonals both --flying both build/web-tables build/web/tables
	$(Q)cd build/web/tables && gzip -9 -n *.mtb && ls *.mtb.gz > tables.txt

build/web/%: protocol/web/%
	@mkdir -p $(dir $@)
	cp $< $@

web-serve: web
	@echo "make web-serve: http://127.0.0.1:$(WEB_PORT)/ (Ctrl-C ends it)"
	cd build/web && python3 -m http.server $(WEB_PORT) --bind 127.0.0.1

test-web: web build/morelli
	@sh tests/web/ensure-browser.sh
	@MORELLI_BIN=build/morelli node tests/web/test_wasm.js
	@MORELLI_BIN=build/morelli node tests/web/test_web.js

.PHONY: web web-tools web-serve test-web

# --- fuzzing (clang's libFuzzer; see docs/protocol.md) ----------------------
#   make fuzz                  build the harnesses, run each FUZZ_TIME seconds
#   make fuzz FUZZ_TIME=900    longer; new inputs collect in build/fuzz/corpus/
FUZZ_CC   ?= clang
FUZZ_TIME ?= 60
FUZZ_SAN  := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_LIB  := $(LIB_SRC:%.c=build/fuzz/%.o)
FUZZ_BINS := build/fuzz/fuzz_protocol build/fuzz/fuzz_fen build/fuzz/fuzz_tables

build/fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASE) $(call layer_inc,$<) $(WARN) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link -c $< -o $@

build/fuzz/fuzz_%: build/fuzz/tests/fuzz/fuzz_%.o $(FUZZ_LIB)
	$(FUZZ_CC) -g $(FUZZ_SAN) -fsanitize=fuzzer $^ -o $@ $(LDLIBS)

fuzz: $(FUZZ_BINS)
	@mkdir -p build/fuzz/corpus/protocol build/fuzz/corpus/fen
	nice build/fuzz/fuzz_protocol -max_total_time=$(FUZZ_TIME) -max_len=4096 -timeout=10 \
		-dict=tests/fuzz/protocol.dict build/fuzz/corpus/protocol tests/fuzz/seeds/protocol
	nice build/fuzz/fuzz_fen -max_total_time=$(FUZZ_TIME) -max_len=1024 -timeout=10 \
		build/fuzz/corpus/fen tests/fuzz/seeds/fen
	@mkdir -p build/fuzz/corpus/tables
	nice build/fuzz/fuzz_tables -max_total_time=$(FUZZ_TIME) -max_len=256 -timeout=10 \
		build/fuzz/corpus/tables tests/fuzz/seeds/tables

.PHONY: fuzz

# protocol/bench_data.c embeds bench/positions.txt with .incbin.
$(foreach d,$(OBJ_DIRS),build/$(d)/protocol/bench_data.o): bench/positions.txt

# --- format (.clang-format, written for clang-format 14 as Debian 12 has it) --
#   make format-check   lists the files clang-format would change, and how many lines
#   make format         rewrites them in place
CLANG_FORMAT ?= clang-format
FORMAT_SRC = $(shell git ls-files -- '*.c' '*.h' 2>/dev/null || find engine protocol bench tests -name '*.[ch]')

format-check:
	@command -v $(CLANG_FORMAT) >/dev/null || { echo "make format-check: no $(CLANG_FORMAT) (apt-get install clang-format)"; exit 1; }
	@$(CLANG_FORMAT) --version | grep -q ' version 14\.' || echo "make format-check: .clang-format was tuned with clang-format 14; this is $$($(CLANG_FORMAT) --version)"
	@n=0; files=0; for f in $(FORMAT_SRC); do \
	    c=$$($(CLANG_FORMAT) --style=file "$$f" | diff "$$f" - | grep -c '^<'); \
	    if [ "$$c" -gt 0 ]; then echo "  $$f: $$c lines"; n=$$((n + c)); files=$$((files + 1)); fi; \
	done; \
	if [ $$n -gt 0 ]; then echo "make format-check: $$n lines in $$files files differ from .clang-format (make format rewrites them)"; exit 1; fi; \
	echo "make format-check: every C file as .clang-format says"

format:
	@command -v $(CLANG_FORMAT) >/dev/null || { echo "make format: no $(CLANG_FORMAT) (apt-get install clang-format)"; exit 1; }
	@$(CLANG_FORMAT) -i --style=file $(FORMAT_SRC) && echo "make format: $(words $(FORMAT_SRC)) files formatted"

.SECONDARY:
.PHONY: all pgo test check test-long sanitize bench run clean cmocka tools test-clang test-native tsan \
	bench-check doccheck format format-check
-include $(shell find build -name '*.d' 2>/dev/null)
