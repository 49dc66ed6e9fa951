# kerf: `make run` starts the service on the embedded default, `make test` installs, builds
# and runs every test, `make bench` prints the benchmark tables.
SHELL := /bin/bash
PORT ?= 8080
export PORT

.PHONY: install build run test bench bench-api bench-engine clean

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

install: node_modules/.installed

build/engine.wasm: node_modules/.installed asconfig.json $(shell find engine-as -name '*.ts')
	npx asc engine-as/index.ts --config asconfig.json --target release

dist/.built: node_modules/.installed tsconfig.json $(shell find src bench -name '*.ts')
	npx tsc -p .
	touch $@

build: build/engine.wasm dist/.built

run: build
	node dist/src/main.js

test: build
	npx vitest run

bench: bench-api

bench-api: build
	node dist/bench/api.js

clean:
	rm -rf dist build node_modules/.installed
