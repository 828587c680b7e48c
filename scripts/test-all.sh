#!/usr/bin/env bash
# `make test`: everything CI runs, in three tracks at once, each a row of
# make targets run in order:
#
#   lint  gofmt, go vet, staticcheck
#   go    the Go tests (real tmux, SQLite and CLIs), then the real-CLI
#         tests again on the other verified Claude Code versions
#   web   the web app's typecheck and unit tests, then the browser suites
#
# Most of a real-CLI test's time is spent waiting for a CLI or a browser,
# so the tracks overlap well even on two cores. What the tracks share
# (the pinned CLIs, npm packages, Go modules) is fetched first by `make
# deps`, so no two tracks ever install the same thing at once; the web
# app and lab are built before the tracks fork.
#
# Each step's output is kept in a file and printed whole when the step
# ends (so tracks never interleave mid-line), with its time. A failed step
# ends its own track; the others run to the end, so one run shows every
# failure. The summary at the end lists every step's time and result.
set -uo pipefail
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
logs=$(mktemp -d "${TMPDIR:-/tmp}/lab-test.XXXXXX")
trap 'rm -rf "$logs"' EXIT
t0=$(date +%s)

now() { echo $(($(date +%s) - t0)); }

# step TRACK TARGET: runs one make target, prints its log when it ends and
# records "TRACK TARGET SECONDS STATUS" in the summary.
step() {
  local track=$1 target=$2 start rc
  start=$(date +%s)
  echo "== [$track] $target started at $(now) s"
  $MAKE --no-print-directory "$target" >"$logs/$track.$target.log" 2>&1
  rc=$?
  local took=$(($(date +%s) - start)) status=ok
  [ $rc -eq 0 ] || status="FAILED ($rc)"
  {
    echo "== [$track] $target: $status in $took s (ended at $(now) s)"
    sed "s/^/[$track] /" "$logs/$track.$target.log"
    echo "== [$track] $target: end of output"
  } | flock "$logs/.print" cat
  echo "$track $target $took $status" >>"$logs/summary"
  return $rc
}

# track NAME TARGET...: the targets in order, stopping at the first failure.
track() {
  local name=$1 t
  shift
  for t in "$@"; do
    step "$name" "$t" || return 1
  done
}

# The web app is built into internal/webui/dist (which cmd/lab embeds)
# and lab with it once, before the tracks: the Go and lint tracks compile
# that package, and must not see the folder rewritten under them.
for t in deps web build; do
  step setup "$t" || { cat "$logs/summary"; exit 1; }
done
export E2E_BUILD=clis

track lint lint &
lint=$!
track go test-go test-cli-versions &
gotests=$!
track web test-web test-e2e &
web=$!

fail=0
for p in $lint $gotests $web; do
  wait "$p" || fail=1
done

echo
echo "== make test: $(now) s in all"
printf '%-6s %-18s %6s  %s\n' track step seconds result
while read -r tr tg s st; do
  printf '%-6s %-18s %6s  %s\n' "$tr" "$tg" "$s" "$st"
done <"$logs/summary"
exit $fail
