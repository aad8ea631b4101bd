#!/usr/bin/env bash
# Runs every `go test -fuzz` target in the module for the given time each.
set -euo pipefail
time=${1:-10s}
cd "$(dirname "$0")/.."
for pkg in $(go list ./...); do
  for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
    echo "== $pkg $target ($time)"
    go test -run='^$' -fuzz="^${target}\$" -fuzztime="$time" "$pkg"
  done
done
