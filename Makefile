# kerf: `make run` starts the service on the embedded default, `make test` installs, builds
# and runs every test, `make bench` prints the benchmark tables.
SHELL := /bin/bash
PORT ?= 8080
export PORT

.PHONY: install build run test typecheck lint chromium fonts render-tools render-exports bench bench-docs clean

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

install: node_modules/.installed

# asc leaves typed-array reads as calls where the incremental runtime's shadow stack makes the
# accessors too big for its inliner (every arr[i] in a hot loop paid a call); a second binaryen
# pass that inlines functions up to 64 bytes takes them in: the same results, 1.4-1.8 times less
# CPU (docs/engines/linear.md). A function with one caller is inlined only up to 200 bytes, as
# asc does: a loop inlined into a function called once runs in V8's baseline code throughout.
# Features as asc emits them, SIMD for the engines that use it. The engines depend on this
# Makefile, so a change of these flags rebuilds them.
WASM_INLINE = npx wasm-opt $@ -O3 -aimfs 64 -ocimfs 200 --enable-sign-ext --enable-mutable-globals --enable-nontrapping-float-to-int --enable-bulk-memory --enable-simd -o $@

build/engine.wasm: node_modules/.installed asconfig.json Makefile $(shell find engine-as -name '*.ts')
	npx asc engine-as/index.ts --config asconfig.json --target release
	$(WASM_INLINE)

# The linear, mesh (model analysis) and nesting engines each have their own entry
# engine-as/<name>.ts and config engine-as/<name>/asconfig.json (asc merges the root config's
# entries, so they cannot share it); each rebuilds when its folder or the common code changes.
.SECONDEXPANSION:
build/linear.wasm build/mesh.wasm build/nesting.wasm: build/%.wasm: node_modules/.installed Makefile engine-as/%/asconfig.json engine-as/%.ts $$(shell find engine-as/$$* engine-as/common -name '*.ts')
	npx asc --config engine-as/$*/asconfig.json --target release
	$(WASM_INLINE)

# The Redis adapters' Lua scripts are read beside the compiled code, so they are copied there.
# The engines' flat formats (engine-as/<engine>/format.ts, mesh/layout.ts) compile on both sides.
dist/.built: node_modules/.installed tsconfig.json $(shell find src bench -name '*.ts' -o -name '*.lua') $(wildcard engine-as/*/format.ts) engine-as/mesh/layout.ts
	npx tsc -p .
	rm -rf dist/src/storage/redis/lua && cp -r src/storage/redis/lua dist/src/storage/redis/lua
	touch $@

build: build/engine.wasm build/linear.wasm build/mesh.wasm build/nesting.wasm dist/.built

run: build fonts
	KERF_WEBHOOK_ALLOW_LOOPBACK=1 node dist/src/main.js

# The account page's browser tests drive Debian's Chromium (CI runs as root on Debian).
chromium:
	@command -v chromium >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)

# The PDF exports embed WenQuanYi Micro Hei (Debian fonts-wqy-microhei: Latin, Greek, Cyrillic
# and CJK in one face; Apache 2.0); without it they fall back to Helvetica's Western letters.
fonts:
	@test -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei)

# The tests themselves are type-checked too (tsconfig.test.json: src, bench and test, no output).
typecheck: node_modules/.installed
	npx tsc -p tsconfig.test.json

# typescript-eslint's recommended rules, and no import cycle among files (type imports count:
# dpdm follows them, eslint's no-cycle does not), in the service and in the engines.
lint: node_modules/.installed
	npx eslint .
	npx dpdm --no-tree --no-warning --exit-code circular:1 --tsconfig tsconfig.test.json 'src/**/*.ts' 'bench/**/*.ts' 'test/**/*.ts'
	npx dpdm --no-tree --no-warning --exit-code circular:1 'engine-as/**/*.ts'

test: build chromium fonts typecheck lint
	npx vitest run

# Every export of a few representative jobs rendered to PNG under out/exports/ (pdftoppm,
# rsvg-convert, ezdxf draw; CSV and the result viewer through Chromium), to look at.
render-tools:
	@command -v pdftoppm >/dev/null && command -v rsvg-convert >/dev/null && /usr/bin/python3 -c 'import ezdxf, matplotlib' 2>/dev/null \
	  || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils librsvg2-bin python3-ezdxf python3-matplotlib)

render-exports: build chromium fonts render-tools
	npx vitest run --config test/render/vitest.config.ts

bench: bench-api bench-engine bench-perfect-packing bench-linear bench-analysis bench-nesting bench-scale bench-accounts bench-delivery bench-layout-check

# Each bench-<name> runs bench/<name>.ts (see its file head for the settings):
#   api       the service's request rate beside a bare Fastify route
#   engine    guillotine engine on the public rectangle sets (BENCH_ENGINE_LIMIT_MS, BENCH_ENGINE_FULL=1)
#   perfect-packing  which small zero-waste instances guillotine cuts can tile exactly (exhaustive)
#   linear    linear (1D) engine on BPPLIB, a stratified sample by default (BENCH_LINEAR_FULL=1)
#   linear-proof  the linear engine's proof of one bar fewer alone on the BPPLIB instances above their LP bound (BENCH_PROOF_NODES)
#   analysis  model analysis: a generated 2,000,000-triangle binary STL (target: under 4 s and 1 GB)
#   nesting   nesting engine on the 13 ESICUP strip instances beside sparrow (BENCH_NESTING_SECONDS, default 60)
#   accounts  accounts over Redis: key lookup cost, issue/revoke propagation, reload time (BENCH_REDIS_URL)
#   scale     jobs per second over Redis with 1 and 2 worker processes (BENCH_REDIS_URL, BENCH_SCALE_JOBS)
#   delivery  webhook to a healthy receiver while 0, 1 and 16 receivers hang (BENCH_DELIVERY_SLOW, BENCH_DELIVERY_ROUNDS)
#   layout-check  the service's own layout check (src/result/check-layout.ts) timed beside its job, per stock and cut type
# Each run is recorded in bench/results/<name>.json (output, build, machine: bench/record.ts);
# `make bench-docs` rewrites the docs' marked bench sections from those recordings.
bench-docs: build
	node dist/bench/write-docs.js

bench-%: build
	node dist/bench/record.js $*

clean:
	rm -rf dist build node_modules/.installed
