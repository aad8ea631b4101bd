#!/usr/bin/env bash
# Runs every `go test -fuzz` target in the module for the given time each
# (default 10s), then prints how many executions each target ran.
#
#   .ci/fuzz.sh 30s            # or: make fuzz FUZZTIME=30s
#   FUZZ_TARGETS='FuzzApply FuzzStream' .ci/fuzz.sh 2m   # only these
#   FUZZMINIMIZETIME=60s .ci/fuzz.sh 10m                  # go test's default
#
# Seed corpora are committed under <package>/testdata/fuzz/<FuzzName>/ (plain
# `go test` runs them too); what the fuzzer finds on top stays in the Go
# build cache ($(go env GOCACHE)/fuzz). A failing input is written to
# testdata/fuzz/<FuzzName>/ by go test, and the script exits non-zero.
set -euo pipefail
time=${1:-10s}
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
summary=()
total=0
failed=0
for pkg in $(go list ./...); do
  for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
    if [ -n "${FUZZ_TARGETS:-}" ] && ! grep -qw -- "$target" <<<"$FUZZ_TARGETS"; then
      continue
    fi
    echo "== $pkg $target ($time)"
    status=0
    # Minimising each new interesting input is capped (default 60s): on the
    # reducer targets, whose inputs are whole streams, it would take most of
    # a short session.
    go test -run='^$' -fuzz="^${target}\$" -fuzztime="$time" -fuzzminimizetime="${FUZZMINIMIZETIME:-5s}" "$pkg" 2>&1 | tee "$log" || status=$?
    # The last progress line: "fuzz: elapsed: 3s, execs: 12345 (4115/sec), ..."
    execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)
    execs=${execs:-0}
    total=$((total + execs))
    short=${pkg#github.com/agui-reducer/agui/}
    if [ "$status" -ne 0 ] && grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
      # The engine's own time-out (the fuzz time ran out while it was still
      # handling a new input), with no failing input: not a finding.
      summary+=("$(printf '%-22s %-16s %12s  (engine deadline)' "${pkg#github.com/agui-reducer/agui/}" "$target" "$execs")")
      continue
    fi
    if [ "$status" -ne 0 ]; then
      failed=1
      summary+=("$(printf '%-22s %-16s %12s  FAILED' "$short" "$target" "$execs")")
    else
      summary+=("$(printf '%-22s %-16s %12s' "$short" "$target" "$execs")")
    fi
  done
done
echo
echo "== fuzz executions ($time per target)"
printf '%s\n' "${summary[@]}"
printf '%-22s %-16s %12s\n' "total" "" "$total"
exit "$failed"
