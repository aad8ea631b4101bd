# Two commands set everything up: `make run` (the demo) and `make test`.
GO        ?= go
WASM_PATH := $(shell $(GO) env GOROOT)/lib/wasm
FUZZTIME  ?= 10s

.PHONY: all test test-go test-wasm test-js test-browser vet fuzz fuzz-smoke bench wasm run clean

all: test

## test: everything CI runs (Go, Go under wasm, node, headless Chromium)
test: vet test-go

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || (echo "gofmt needed:"; gofmt -l .; exit 1)

test-go:
	$(GO) test -count=1 ./...

## fuzz: each fuzz target for FUZZTIME (default 10s)
fuzz:
	bash .ci/fuzz.sh $(FUZZTIME)

clean:
	rm -rf web/dist test-output
