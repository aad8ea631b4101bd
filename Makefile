# Two commands set everything up: `make run` (the demo) and `make test`.
GO        ?= go
WASM_PATH := $(shell $(GO) env GOROOT)/lib/wasm
FUZZTIME  ?= 10s

.PHONY: all test package test-adoption test-bundlers test-frameworks test-copilotkit test-go test-wasm test-js test-browser test-demo test-inspector bench-inspector test-robustness test-bench vet fuzz bench bench-legacy wasm run clean docs-figures docs-screenshots test-relay bench-relay

all: test

## test: everything CI runs (Go, Go under wasm, node, headless Chromium)
test: vet test-go test-wasm test-js test-browser test-demo test-inspector test-robustness test-bench test-adoption test-bundlers test-frameworks test-copilotkit

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || (echo "gofmt needed:"; gofmt -l .; exit 1)

test-go:
	$(GO) test -count=1 ./...

## test-relay: the relay alone (part of test-go): its stores against real
## bbolt files and Redis servers the tests start (/usr/bin/redis-server),
## and the command as processes killed mid-run (docs/relay.md), and its
## HTTP checks (httpguard)
test-relay:
	$(GO) test -count=1 ./relay/... ./httpguard/ ./cmd/agui-relay/

## bench-relay: the relay's benchmarks (docs/relay.md, "Figures"): loading
## a 10,000-message thread against replaying it, the overhead per event,
## events per second with 100 concurrent runs (memory, bbolt, Redis, and
## Redis's ratio to bbolt), 3,000 live streams on one instance on Redis; and
## the same thread loaded by the web package's loadThread from a real relay
## in Node, against replaying its SSE through the web reducer
## (bench/relay-thread.mjs, writes bench/results-relay.json)
bench-relay: wasm
	$(GO) test -run '^$$' -bench . -benchtime 3x ./relay/
	node bench/relay-thread.mjs

## wasm: web/dist/agui.wasm (+ .gz, .br) and the matching wasm_exec.js
wasm:
	$(GO) run ./cmd/wasm-build

## docs-figures: the documentation's changing figures from one source (the
## built module's sizes, kept in docs/figures.json, and bench/results*.json)
## into docs/figures.md and the pages' <!-- figure NAME --> regions; run it
## after make bench or a change that moves the module's size. go test
## ./docs/ fails when a page disagrees, web/test/unit/figures.test.mjs when the
## built module is more than 1% off the recorded sizes
docs-figures: wasm
	$(GO) run ./cmd/docs-figures

## docs-screenshots: docs/demo.png, docs/inspector.png and
## docs/tool-validation-demo.png taken from the
## current demo in headless Chromium, and the hash of the sources they show
## in docs/screenshots.json; go test ./docs/ fails when the page changed and
## they were not taken again (web/test/demo/screenshots.mjs)
docs-screenshots: wasm web/node_modules/.package-lock.json
	node web/test/demo/screenshots.mjs

## test-wasm: the bridge and the reducer as js/wasm under node
test-wasm:
	GOOS=js GOARCH=wasm $(GO) vet ./wasm/
	PATH="$(WASM_PATH):$$PATH" GOOS=js GOARCH=wasm $(GO) test -count=1 -short ./wasm/ ./reducer/...

## test-js: the web module under node against the built .wasm (web/test/unit),
## and the documentation's code (web/test/snippets)
test-js: wasm web/node_modules/.package-lock.json
	node --test --test-timeout=120000 web/test/unit/*.test.mjs web/test/snippets/*.test.mjs

## test-browser: headless Chromium (/usr/bin/chromium) via playwright-core
## (npm ci in web/ first)
test-browser: wasm web/node_modules/.package-lock.json
	node --test --test-timeout=180000 web/test/browser/*.test.mjs

## test-frameworks: the React, Svelte and Vue bindings in production builds
## of apps made from Vite's templates (web/test/frameworks; each fixture
## installs its packages from its package-lock.json, through npm's cache,
## and the package from its packed tarball), in headless Chromium
test-frameworks: package
	node --test --test-timeout=600000 web/test/frameworks/frameworks.e2e.mjs

## test-copilotkit: CopilotKit's React chat (Vite react-ts apps with their
## own package-lock.json, the package from its packed tarball) with the
## drop-in HttpAgent passed to its provider, in production builds against
## the demo server, in headless Chromium: text, a tool call, shared state and
## an interrupt render as with @ag-ui/client's HttpAgent, and (1.74) the
## conversation is kept across a reload through the demo server's relay
## (connectAgent). web/test/copilotkit: the 1.74 packages; web/test/copilotkit-v2: the current v2 client,
## @copilotkit/core 1.75 under @copilotkit/react-core/v2
test-copilotkit: package
	node --test --test-timeout=600000 web/test/copilotkit/copilotkit.e2e.mjs web/test/copilotkit-v2/copilotkit.e2e.mjs

## fuzz: each fuzz target of the module for FUZZTIME (default 10s), seeded
## from <package>/testdata/fuzz; prints the executions per target
## (make fuzz FUZZTIME=30s; .ci/run runs FUZZTIME=3s)
fuzz:
	bash .ci/fuzz.sh $(FUZZTIME)

## test-inspector: <agui-inspector> (web/test/inspector): its entry stays
## out of the main bundle, and in headless Chromium time travel at every
## event of the golden streams, live reducers, workers and agents,
## recordings, filters and the keyboard; a drop-in @ag-ui/client agent
## (its @ag-ui/client from bench/node_modules)
test-inspector: wasm web/node_modules/.package-lock.json bench/node_modules/.package-lock.json
	node --test --test-timeout=300000 web/test/inspector/*.test.mjs

## bench-inspector: the inspector with 100,000 events in headless Chromium:
## the time to jump to an event, and the longest task while the timeline
## scrolls (web/test/inspector/bench.mjs; prints, never fails on timings)
bench-inspector: wasm web/node_modules/.package-lock.json
	node web/test/inspector/bench.mjs

## test-robustness: the demo page is inert to hostile agent text (headless
## Chromium). The hostile-input suites run in test-go (reducer/hostile_test.go,
## reducer/robustness_test.go), test-js (web/test/unit/hostile.test.mjs,
## web/test/unit/memory.test.mjs) and test-browser (web/test/browser/hostile.test.mjs).
test-robustness: wasm web/node_modules/.package-lock.json
	cd web && node --test --test-timeout=120000 test/demo/hostile.e2e.mjs

## bench: the official @ag-ui/client reducer against ours on the same
## generated streams, side by side in one Node process and in headless
## Chromium, plus the native Go benchmarks (and the bridge's pacing under
## js/wasm: BridgePace), the module's sizes, its load
## time and its memory, and the drop-in agent against HttpAgent (Node and
## Chromium: conversations, large tool arguments, cold starts from esbuild
## production bundles, which web/node_modules provides) (bench/README.md); writes
## bench/results.json, bench/results-chromium.json,
## bench/results-agent.json and bench/results-relay.json (bench-relay's
## thread load in Node). Timings never gate make test.
bench: wasm bench/node_modules/.package-lock.json web/node_modules/.package-lock.json
	$(GO) test -run '^$$' -bench . -benchmem ./reducer/
	PATH="$(WASM_PATH):$$PATH" GOOS=js GOARCH=wasm $(GO) test -run '^$$' -bench BridgePace -benchtime 20x ./wasm/
	$(GO) test -run '^$$' -bench . -benchtime 3x ./relay/
	node bench/relay-thread.mjs
	node bench/node.mjs
	node bench/browser.mjs
	node bench/agent.mjs
	node bench/agent-takeover.mjs
	node bench/token-apply.mjs

## bench-legacy: the drop-in agent against HttpAgent of @ag-ui/client
## 0.0.48, whose subscriber rounds clone per subscriber (Node; minutes)
bench-legacy: wasm bench/node_modules/.package-lock.json bench/ag-ui-048/node_modules/.package-lock.json
	node bench/agent-legacy.mjs

## test-bench: the benchmark's correctness check (official and ours fold
## the same stream alike; no timing), the differential test against
## @ag-ui/client 1.0.0 (bench/differential.test.mjs; DIFF_STREAMS=n streams),
## the drop-in @ag-ui/client agent (web/src/ag-ui) against HttpAgent 1.0.0
## (web/test/ag-ui/*.test.mjs, its Node entry through the package's exports,
## its cold start in a production bundle in headless Chromium: esbuild and
## playwright-core from web/node_modules) and 0.0.59 (bench/ag-ui-059, its own lockfile), and a seconds-long run of
## the drop-in's benchmark code (bench/agent-bench.test.mjs; no timing)
test-bench: wasm web/node_modules/.package-lock.json bench/node_modules/.package-lock.json bench/ag-ui-059/node_modules/.package-lock.json web/test/ag-ui/node_modules/.package-lock.json
	node --test --test-timeout=300000 bench/*.test.mjs web/test/ag-ui/*.test.mjs bench/ag-ui-059/*.test.mjs

bench/node_modules/.package-lock.json: bench/package-lock.json
	cd bench && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund

web/test/ag-ui/node_modules/.package-lock.json: web/test/ag-ui/package-lock.json
	cd web/test/ag-ui && npm ci --no-audit --no-fund

bench/ag-ui-059/node_modules/.package-lock.json: bench/ag-ui-059/package-lock.json
	cd bench/ag-ui-059 && npm ci --no-audit --no-fund

bench/ag-ui-048/node_modules/.package-lock.json: bench/ag-ui-048/package-lock.json
	cd bench/ag-ui-048 && npm ci --no-audit --no-fund

## package: the npm package of web/ (build/agui-reducer-web-<version>.tgz):
## the ES modules and types, agui.wasm (+ .br, .gz), its Go glue and the
## worker entry; no tests, no demo
package: wasm web/node_modules/.package-lock.json
	cd web && node scripts/entries.mjs && node scripts/build-worker.mjs
	mkdir -p build
	cd web && npm pack --silent --pack-destination ../build

## test-adoption: the packed package added as users add it, with a plain
## `npm install <tarball>`, to apps pinned at the oldest and newest framework
## versions of its peer ranges (web/test/adoption/apps: React 18.0, 18.3,
## 19.0 and the latest, Vue 3.4 and the latest, Svelte 4.2, 5.0 and the latest,
## @ag-ui/client 0.0.59 and 1.0, each with its committed lockfile): no peer
## warning, the framework's version unmoved, npm ls clean, tsc --strict of the
## binding's use, the binding run in Node with the app's framework; the React 18 app builds README.md's React example with Vite
## and runs it in headless Chromium against the demo server, directly and
## through docs/demo.md's Vite proxy
test-adoption: package
	node --test --test-timeout=900000 web/test/adoption/adoption.test.mjs

## test-bundlers: the packed package (make package) installed into fresh
## apps made from Vite's, esbuild's and webpack 5's starting points, plus a
## plain page, built for production with no configuration for the package,
## and run against the demo server in headless Chromium, in main-thread and
## worker mode (web/test/bundlers); prints each build's download size. The
## fixtures' npm installs come from their committed lockfiles, cached in
## their node_modules.
test-bundlers: package
	node --test --test-timeout=900000 web/test/bundlers/bundlers.e2e.mjs

web/node_modules/.package-lock.json: web/package-lock.json
	cd web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund

clean:
	rm -rf web/dist test-output build

## run: build the wasm module and serve the demo page with a recorded AG-UI
## agent (flags: make run ARGS="-speed 0.5 -addr :8080 -scenario tools")
run:
	$(GO) run ./cmd/wasm-build
	$(GO) run ./cmd/agui-demo $(ARGS)

## test-demo: the demo server's Go test, then the page end to end in headless
## Chromium (web/test/demo; needs playwright-core in web/node_modules), its
## layout at 390×844, 768×1024 and 1280×800 included
test-demo: wasm web/node_modules/.package-lock.json
	$(GO) test -count=1 ./cmd/agui-demo/
	cd web && node --test test/demo/demo.e2e.mjs test/demo/resume.e2e.mjs test/demo/thread.e2e.mjs test/demo/layout.e2e.mjs
