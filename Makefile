# gpuprof build. Targets:
#   make                 release build of ./gpuprof
#   make test            unit + golden + fuzz-corpus replay + shared-data tests
#   make check           what CI runs: set-up check, format-check,
#                        check-layers, then `test` on DEVELOPER=1 (-Werror)
#                        builds with gcc, with clang, and with gcc under the
#                        address/undefined sanitizers, and fuzz-smoke
#   make format          formats the C files in place (clang-format 14)
#   make format-check    fails, listing them, when C files differ from it
#   make check-layers    the include rules between src/ areas and the size
#                        limits (tools/check-layers.py; --rules prints them)
#   make bench           performance figures (see bench/README.md)
#   make wasm            the engine and command line in WebAssembly, for Node:
#                        build/wasm/gpuprof.js (emscripten; docs/wasm.md)
#   make site            the viewer as a static site on that engine: build/site/
#   make bench-site      the static site's import in headless chromium
#   make fuzz            libFuzzer builds of the fuzz targets (clang), short runs
#   make fuzz-smoke      each fuzz target 20 s from its corpus (part of check)
#   make demo            summary of the bundled example trace, then the viewer on it
#   make install PREFIX=/usr/local   binary, man page, completions, docs (DESTDIR too)
#   make uninstall       removes what install wrote (same PREFIX, DESTDIR)
#   make deb             build/gpuprof_VERSION_ARCH.deb (dpkg-deb; tools/deb.sh)
#   make man             man/gpuprof.1's generated parts from the declarations
#   make man-check       fails when man/gpuprof.1 differs from them (part of check)
# Variables: CC=gcc|clang, DEVELOPER=1 (-Werror), SANITIZE=address,undefined,
#   CLANG_FORMAT=clang-format

.SUFFIXES:

ifeq ($(origin CC),default)
CC := gcc
endif
PREFIX ?= /usr/local
PKG_CONFIG ?= pkg-config
PKGS := zlib libisal sqlite3 yaml-0.1
# libmicrohttpd: its header only; `gpuprof serve` opens the library itself
# (src/server/srv_mhd.h: linking it costs every command ~4 ms of start-up)
PKGS_HDR := libmicrohttpd
VERSION := 0.1.0
COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wformat=2 -Wvla -Wundef -Wno-unused-parameter
OPT ?= -O2 -g
CFLAGS_ALL := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Isrc $(WARN) $(OPT) -pthread \
	$(shell $(PKG_CONFIG) --cflags $(PKGS) $(PKGS_HDR) 2>/dev/null) $(CFLAGS)
LDLIBS_ALL := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null || echo -lz) -pthread -lm $(LDLIBS)

VARIANT := rel
ifneq ($(DEVELOPER),)
CFLAGS_ALL += -Werror
VARIANT := dev
endif
ifneq ($(SANITIZE),)
CFLAGS_ALL += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=$(SANITIZE)
VARIANT := san
endif
BUILD := build/$(VARIANT)-$(notdir $(CC))
BUILDINFO := -DGP_VERSION='"$(VERSION)"' -DGP_COMMIT='"$(COMMIT)"' \
	-DGP_BUILD='"$(VARIANT) $(notdir $(CC)) $(OPT)"'

LIB_SRC := $(sort $(filter-out src/cli/% src/server/% src/wasm/%,$(wildcard src/*/*.c)))
# the server and its embedded viewer (web/ -> build/assets.c) go only into
# the binary
# (src/cli/wasm_*.c: the WebAssembly build's own commands, see WASM_SWAP)
CLI_SRC := $(sort $(filter-out src/cli/wasm_%,$(wildcard src/cli/*.c)) $(wildcard src/server/*.c))
WEB_FILES := $(sort $(wildcard web/*.html web/*.js web/*.css web/*.svg web/*/*.js))
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
# the server's parsing without a socket (fuzz_http_query), linked into every target
FUZZ_SRV := src/server/srv_query.c
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o) $(BUILD)/assets.o
UNIT_OBJ := $(UNIT_SRC:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/libgpuprof.a
BIN := $(BUILD)/gpuprof
FUZZ_REPLAY := $(FUZZ_SRC:tests/fuzz/fuzz_%.c=$(BUILD)/fuzz-replay-%)
DEPS := $(LIB_OBJ:.o=.d) $(filter-out %/assets.d,$(CLI_OBJ:.o=.d)) $(UNIT_OBJ:.o=.d)

all: gpuprof

# ./gpuprof is the release (or DEVELOPER=1) build; sanitizer builds stay in build/.
# (phony, so switching between gcc/clang/DEVELOPER builds always updates it)
gpuprof: $(BIN)
ifeq ($(SANITIZE),)
	@cmp -s $(BIN) $@ || cp $(BIN) $@
endif

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

# the viewer's files as C arrays (tools/embed.c, a build-time tool)
build/embed: tools/embed.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -O1 -o $@ $<

build/assets.c: build/embed $(WEB_FILES)
	build/embed $@ web $(WEB_FILES)

$(BUILD)/assets.o: build/assets.c src/server/assets.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/src/cli/main.o: CFLAGS_ALL += $(BUILDINFO)
# --version names the commit: main.o depends on a stamp rewritten only when
# the commit changes (HEAD itself does not change when a branch moves).
COMMIT_STAMP := $(BUILD)/commit.stamp
$(shell mkdir -p $(BUILD) && (echo '$(COMMIT)' | cmp -s - $(COMMIT_STAMP) || echo '$(COMMIT)' > $(COMMIT_STAMP)))
$(BUILD)/src/cli/main.o: $(COMMIT_STAMP)

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(CLI_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(LDLIBS_ALL)

$(BUILD)/unit-tests: $(UNIT_OBJ) $(FUZZ_SRV:%.c=$(BUILD)/%.o) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(UNIT_OBJ) $(FUZZ_SRV:%.c=$(BUILD)/%.o) $(LIB) $(LDLIBS_ALL)

$(BUILD)/tests/unit/runner.o $(BUILD)/tests/unit/%.o: CFLAGS_ALL += -Itests/unit

$(BUILD)/fuzz-replay-%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(FUZZ_SRV:%.c=$(BUILD)/%.o) $(LIB)
	$(CC) $(CFLAGS_ALL) $(LDFLAGS) -o $@ $< tests/fuzz/replay.c $(FUZZ_SRV:%.c=$(BUILD)/%.o) $(LIB) $(LDLIBS_ALL)

test: $(BIN) $(BUILD)/unit-tests $(FUZZ_REPLAY)
	@BUILD=$(BUILD) GPUPROF=$(BIN) TEST_STAGES="$(TEST_STAGES)" SKIP_STAGES="$(SKIP_STAGES)" sh tests/run.sh

# The C files outside the binary and its tests, compiled with the same
# warnings (-Werror under DEVELOPER=1): the build tool and the benchmarks.
extras: $(BUILD)/inflate-bench
	$(CC) $(CFLAGS_ALL) -c -o /dev/null tools/embed.c
	$(CC) $(CFLAGS_ALL) -c -o /dev/null bench/rusage.c

# The WebAssembly build (docs/wasm.md): the command line without the server
# (but its query parsing, server/srv_query.c, and the trace's bytes,
# server/srv_answer.c, both socket-free, for the static site's API),
# one thread (GP_ONE_THREAD, core/threads.h), compiled by Debian's emscripten.
# The files of WASM_SWAP are replaced: io/gzip.c by src/wasm/gzip_seq.c,
# cli/cmd_serve.c by cli/wasm_serve.c (serve says it is not there); and
# src/wasm/ stands in for libc calls and the libraries: gzip read by
# io/inflate.c in the caller's thread, written as stored blocks; no SQLite
# or YAML (opening fails with one line). Their headers are Debian's own (zlib1g-dev, libisal-dev,
# libsqlite3-dev, libyaml-dev), copied into build/wasm/include so that emcc
# never sees the rest of /usr/include.
EMCC ?= emcc
WASM := build/wasm
WASM_SWAP := src/io/gzip.c src/cli/cmd_serve.c
WASM_SRC := $(sort $(filter-out $(WASM_SWAP) src/server/%,$(LIB_SRC) $(CLI_SRC)) \
	src/server/srv_query.c src/server/srv_answer.c $(wildcard src/wasm/*.c src/cli/wasm_*.c))
WASM_OBJ := $(WASM_SRC:%.c=$(WASM)/%.o)
WASM_HDRS := zlib.h zconf.h yaml.h sqlite3.h isa-l/igzip_lib.h isa-l/types.h
WASM_CFLAGS := -std=c11 -D_GNU_SOURCE -DGP_ONE_THREAD -msimd128 -msse2 -include src/wasm/libc_extra.h -Isrc -I$(WASM)/include $(WARN) -O2 \
	-DGP_VERSION='"$(VERSION)"' -DGP_COMMIT='"$(COMMIT)"' -DGP_BUILD='"wasm emcc -O2"'
# The module's memory grows by 5% past what is asked (emscripten's default
# 20%): the same speed here (growing in place costs no copy in V8), and a
# heap that stays near the engine's peak (docs/wasm.md, "Figures").
WASM_MEMORY := -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sMEMORY_GROWTH_GEOMETRIC_STEP=0.05
WASM_LDFLAGS := -O2 -sSINGLE_FILE=1 -sNODERAWFS=1 $(WASM_MEMORY) \
	-sEXIT_RUNTIME=1 -sTOTAL_STACK=1048576 --js-library src/wasm/noderawfs.js
WASM_ENV := NODE_PATH=/usr/share/nodejs

wasm: $(WASM)/gpuprof.js

$(WASM)/include/.stamp:
	@mkdir -p $(WASM)/include/isa-l
	@for h in $(WASM_HDRS); do cp /usr/include/$$h $(WASM)/include/$$h || exit 1; done
	@touch $@

$(WASM)/%.o: %.c $(WASM)/include/.stamp
	@mkdir -p $(@D)
	$(WASM_ENV) $(EMCC) $(WASM_CFLAGS) -MMD -MP -c $< -o $@

$(WASM)/gpuprof.js: $(WASM_OBJ) src/wasm/noderawfs.js
	$(WASM_ENV) $(EMCC) $(WASM_LDFLAGS) -o $@ $(WASM_OBJ)
-include $(WASM_OBJ:.o=.d)

# The static site (docs/wasm.md): the viewer's pages (web/), site/'s adapter
# (static_api.js, loaded before app.js) and worker, and the engine built
# for a Web Worker from the same objects: files read from File objects in
# slices (WORKERFS), the module inside engine.js.
SITE := build/site
SITE_LDFLAGS := -O2 -sSINGLE_FILE=1 -sENVIRONMENT=worker -sMODULARIZE=1 \
	-sEXPORT_NAME=gpuprofEngine -sINVOKE_RUN=0 -sEXIT_RUNTIME=0 $(WASM_MEMORY) \
	-sTOTAL_STACK=1048576 -sFORCE_FILESYSTEM=1 -lworkerfs.js \
	-sEXPORTED_FUNCTIONS=_main,_fflush,_malloc,_free,_gp_site_kind,_gp_site_open,_gp_site_push_begin,_gp_site_push_room,_gp_site_push_data,_gp_site_push_end,_gp_site_error,_gp_site_events,_gp_site_get,_gp_site_diff,_gp_site_dist,_gp_site_body,_gp_site_close \
	-sEXPORTED_RUNTIME_METHODS=callMain,FS,UTF8ToString,stringToUTF8,lengthBytesUTF8 --post-js site/engine_post.js
SITE_FILES := $(sort $(wildcard site/*.js))
SITE_TOOLS := site/engine_post.js site/single.mjs

site: $(SITE)/engine.js $(WEB_FILES) $(SITE_FILES) site/single.mjs
	@mkdir -p $(SITE)
	cp $(filter-out web/index.html,$(WEB_FILES)) $(filter-out $(SITE_TOOLS),$(SITE_FILES)) $(SITE)/
	sed 's|<script type="module" src="app.js"></script>|<script type="module" src="static_api.js"></script>\n&|' \
	  web/index.html >$(SITE)/index.html
	@grep -q static_api.js $(SITE)/index.html
	node site/single.mjs $(SITE)

$(SITE)/engine.js: $(WASM_OBJ) site/engine_post.js
	@mkdir -p $(@D)
	$(WASM_ENV) $(EMCC) $(SITE_LDFLAGS) -o $@ $(WASM_OBJ)

# check and demo install missing packages first (tools/setup.sh), then
# re-enter make so pkg-config is consulted after the install. Every build
# of check is a DEVELOPER=1 one: a warning of either compiler fails it.
# The gcc build runs every stage, the sanitizer build all but the two of
# the WebAssembly engine (wasm, website: built alike whatever the native
# flags); the clang build runs
# the stages that compare computed values (CLANG_STAGES), leaving the
# long-running server, browser, packaging and abuse stages, which test the
# same code paths, to the other two (this keeps CI within its half hour).
CLANG_STAGES := unit golden fuzz cli ncu shared hta tbsteps tbops tbmemory tbdist fleet fleetmerge stragglers synthfleet fleetv2 diff diffkinds nsys schemas
check: setup
	$(MAKE) format-check
	$(MAKE) check-layers
	$(MAKE) man-check
	$(MAKE) DEVELOPER=1 test extras
	$(MAKE) DEVELOPER=1 CC=clang TEST_STAGES="$(CLANG_STAGES)" test extras
	$(MAKE) DEVELOPER=1 SANITIZE=address,undefined SKIP_STAGES="wasm website" test
	$(MAKE) fuzz-smoke

# The viewer opens in the desktop's browser when there is a display; the
# URL is printed either way. DEMO_SERVE=no stops after the summary.
DEMO_SERVE ?= yes
demo: setup
	$(MAKE) gpuprof
	./gpuprof summary examples/resnet_like.json.gz
	@if [ "$(DEMO_SERVE)" != no ]; then \
		echo "gpuprof serve examples/resnet_like.json.gz (Ctrl-C to stop)"; \
		./gpuprof serve $$([ -n "$$DISPLAY$$WAYLAND_DISPLAY" ] && echo --open) examples/resnet_like.json.gz; \
	fi

setup:
	@sh tools/setup.sh

bench-serve: gpuprof
	GPUPROF=$(CURDIR)/gpuprof sh bench/serve.sh

bench-viewer: gpuprof
	cd tests/web && [ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund
	GPUPROF=$(CURDIR)/gpuprof node bench/viewer.mjs

bench-site: gpuprof site
	cd tests/web && [ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund
	GPUPROF=$(CURDIR)/gpuprof node bench/site.mjs

bench: gpuprof $(BUILD)/inflate-bench
	BUILD=$(BUILD) GPUPROF=$(CURDIR)/gpuprof sh bench/run.sh
	BUILD=$(BUILD) GPUPROF=$(CURDIR)/gpuprof sh bench/fleet.sh

bench-fleet: gpuprof
	BUILD=$(BUILD) GPUPROF=$(CURDIR)/gpuprof sh bench/fleet.sh

$(BUILD)/inflate-bench: bench/inflate_bench.c $(LIB)
	$(CC) $(CFLAGS_ALL) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS_ALL)

# libFuzzer builds: the library compiled once with coverage and the
# sanitizers (build/fuzz/), each target linked against it. `make fuzz` runs
# each target FUZZ_SECONDS (30) over a working corpus seeded from the
# committed one (which it does not change); `make fuzz-smoke` is the short
# run CI does (FUZZ_SMOKE_SECONDS=20) in a scratch folder, with a fixed seed
# (FUZZ_SMOKE_SEED=1): a run walks a prefix of one sequence of mutations, so
# a smoke of 60 s here has covered what CI's 20 s reach, and a failure is
# repeatable. Finding new bugs is `make fuzz`'s job. A crash stops either.
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Isrc -g -O1 -pthread \
	-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
	$(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=build/fuzz/%.o) $(FUZZ_SRV:%.c=build/fuzz/%.o)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/fuzz_%.c=build/fuzz/fuzz-%)
build/fuzz/src/%.o: src/%.c
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@
build/fuzz/libgpuprof.a: $(FUZZ_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^
build/fuzz/fuzz-%: tests/fuzz/fuzz_%.c build/fuzz/libgpuprof.a
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< build/fuzz/libgpuprof.a $(LDLIBS_ALL)
-include $(FUZZ_LIB_OBJ:.o=.d)

FUZZ_SECONDS ?= 30
fuzz: $(FUZZ_BIN)
	@for f in $(FUZZ_BIN); do n=$${f##*/fuzz-}; mkdir -p build/fuzz/corpus-$$n; \
	  echo "fuzzing $$n for $(FUZZ_SECONDS)s"; \
	  $$f -max_total_time=$(FUZZ_SECONDS) -max_len=65536 build/fuzz/corpus-$$n tests/fuzz/corpus/$$n || exit 1; done

fuzz-smoke: $(FUZZ_BIN)
	@for f in $(FUZZ_BIN); do n=$${f##*/fuzz-}; w=build/fuzz/smoke-$$n; rm -rf $$w; mkdir -p $$w; \
	  $$f -max_total_time=$${FUZZ_SMOKE_SECONDS:-20} -timeout=10 -seed=$${FUZZ_SMOKE_SEED:-1} -max_len=65536 -print_final_stats=1 $$w tests/fuzz/corpus/$$n \
	    >build/fuzz/smoke-$$n.log 2>&1 || { tail -n 40 build/fuzz/smoke-$$n.log; echo "fuzz-smoke: $$n failed"; exit 1; }; \
	  echo "fuzz-smoke: $$n: $$(grep -E '^stat::number_of_executed_units' build/fuzz/smoke-$$n.log | awk '{print $$2}') execs, \
$$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' build/fuzz/smoke-$$n.log | tail -n 1)"; rm -rf $$w; done

# make install / uninstall (DESTDIR, PREFIX): the binary, the man page, the
# completion scripts where bash-completion, zsh and fish look, the docs.
# uninstall removes exactly the files install wrote (and the doc folders).
DOC_FILES := README.md $(sort $(wildcard docs/*.md docs/schemas/*.json))
DOCDIR = $(PREFIX)/share/doc/gpuprof
COMP_BASH = $(PREFIX)/share/bash-completion/completions/gpuprof
COMP_ZSH = $(PREFIX)/share/zsh/vendor-completions/_gpuprof
COMP_FISH = $(PREFIX)/share/fish/vendor_completions.d/gpuprof.fish
INSTALLED = $(PREFIX)/bin/gpuprof $(PREFIX)/share/man/man1/gpuprof.1 $(COMP_BASH) $(COMP_ZSH) \
	$(COMP_FISH) $(DOC_FILES:%=$(DOCDIR)/%)

# INSTALL_BIN: the binary to install (tests/pkg installs the one it tests)
INSTALL_BIN ?= gpuprof

# the completion scripts, from the binary's declarations
completions: $(INSTALL_BIN)
	@mkdir -p build/completion
	$(INSTALL_BIN:gpuprof=./gpuprof) completion bash >build/completion/gpuprof
	$(INSTALL_BIN:gpuprof=./gpuprof) completion zsh >build/completion/_gpuprof
	$(INSTALL_BIN:gpuprof=./gpuprof) completion fish >build/completion/gpuprof.fish

install: $(INSTALL_BIN) completions
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(dir $(DESTDIR)$(COMP_BASH)) $(dir $(DESTDIR)$(COMP_ZSH)) $(dir $(DESTDIR)$(COMP_FISH)) \
	  $(sort $(dir $(DOC_FILES:%=$(DESTDIR)$(DOCDIR)/%)))
	install -m 755 $(INSTALL_BIN) $(DESTDIR)$(PREFIX)/bin/gpuprof
	install -m 644 man/gpuprof.1 $(DESTDIR)$(PREFIX)/share/man/man1/gpuprof.1
	install -m 644 build/completion/gpuprof $(DESTDIR)$(COMP_BASH)
	install -m 644 build/completion/_gpuprof $(DESTDIR)$(COMP_ZSH)
	install -m 644 build/completion/gpuprof.fish $(DESTDIR)$(COMP_FISH)
	@for f in $(DOC_FILES); do echo "install -m 644 $$f $(DESTDIR)$(DOCDIR)/$$f"; \
	  install -m 644 $$f $(DESTDIR)$(DOCDIR)/$$f || exit 1; done

uninstall:
	rm -f $(INSTALLED:%=$(DESTDIR)%)
	-printf '%s\n' $(sort $(filter-out $(DESTDIR)$(DOCDIR)/,$(dir $(DOC_FILES:%=$(DESTDIR)$(DOCDIR)/%)))) | \
	  sort -r | xargs rmdir 2>/dev/null; rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null; true

# build/gpuprof_VERSION_ARCH.deb: the install tree under /usr, packaged by
# tools/deb.sh (man page gzipped, copyright, Depends from dpkg-shlibdeps).
# DEB (the package) and DEB_ROOT (its install tree) may be given elsewhere,
# and INSTALL_BIN the binary (tests/pkg packages the one it tests)
DEB_ARCH = $(shell dpkg --print-architecture 2>/dev/null || echo unknown)
DEB := build/gpuprof_$(VERSION)_$(DEB_ARCH).deb
DEB_ROOT := build/deb-root
deb: $(INSTALL_BIN) completions
	rm -rf $(DEB_ROOT)
	$(MAKE) --no-print-directory install DESTDIR=$(abspath $(DEB_ROOT)) PREFIX=/usr
	sh tools/deb.sh $(DEB_ROOT) $(VERSION) $(DEB)

# man/gpuprof.1's generated parts (synopsis, each command's line and
# options, ENVIRONMENT) from the declarations: `make man` writes them,
# `make man-check` (part of check) fails when the page differs
# The JSON Schemas of the outputs and the viewer's column titles, both
# generated from the column declarations (the schemas stage fails on drift).
schemas: gpuprof
	/usr/bin/python3 tools/gen-schemas.py ./gpuprof
	/usr/bin/python3 tools/gen-titles.py

man: gpuprof
	sh tools/man.sh ./gpuprof man/gpuprof.1 >build/gpuprof.1.new
	mv build/gpuprof.1.new man/gpuprof.1

man-check: gpuprof
	sh tools/man.sh --check ./gpuprof man/gpuprof.1

clean:
	rm -rf build gpuprof

# The formatting is clang-format 14's (Debian 12's clang-format package,
# installed by tools/setup.sh) with .clang-format; other versions may
# format some lines differently.
CLANG_FORMAT ?= clang-format
FORMAT_FILES := $(sort $(wildcard src/*/*.[ch] tests/*/*.[ch] tools/*.[ch] bench/*.[ch]))
format:
	$(CLANG_FORMAT) -i $(FORMAT_FILES)

format-check:
	@command -v $(CLANG_FORMAT) >/dev/null || \
	  { echo "format-check: no $(CLANG_FORMAT) (tools/setup.sh installs it)"; exit 1; }
	@bad=; for f in $(FORMAT_FILES); do \
	  $(CLANG_FORMAT) --style=file "$$f" | cmp -s - "$$f" || bad="$$bad $$f"; done; \
	if [ -n "$$bad" ]; then \
	  echo "format-check: these files differ from $$($(CLANG_FORMAT) --version) (make format):"; \
	  printf '  %s\n' $$bad; \
	  $(CLANG_FORMAT) --version | grep -q ' 14\.' || echo "(the reference is clang-format 14)"; \
	  exit 1; fi; \
	echo "format-check: $(words $(FORMAT_FILES)) files formatted"

check-layers:
	@python3 tools/check-layers.py src

.PHONY: wasm site bench-site all gpuprof schemas test check extras setup demo bench bench-fleet bench-serve bench-viewer fuzz fuzz-smoke install \
	uninstall completions deb man man-check clean format format-check check-layers

-include $(DEPS)
