#!/usr/bin/env bash
# make drift V=<version> [BASE=<version>]: checks a Claude Code release
# against lab. It installs the version into tools/, runs the real-CLI test
# packages against it, re-captures the transcripts, hook payloads and panes
# with the capture generators into a temporary folder (never over the
# committed fixtures), and prints a diff of both captures normalised (ids,
# times, paths, the version, the mascot and blank runs) against the
# committed fixture set of BASE, with the pane parser's reading of each
# pane. Exit status: non-zero when the tests or the captures failed; a diff
# alone is information, not failure. See docs/cli-versions.md.
set -uo pipefail
V="${1:?usage: drift.sh VERSION BASE}"
BASE="${2:?usage: drift.sh VERSION BASE}"
GO="${GO:-go}"
PKGS="${CLI_PACKAGES:-./cmd/lab ./internal/chat ./internal/claude ./internal/claudetest ./internal/runs}"
cd "$(dirname "$0")/.."

bin="$(CLAUDE_CODE_VERSION="$V" bash scripts/install-claude.sh)" || exit 1
tmp="$(mktemp -d "${TMPDIR:-/tmp}/lab-drift.XXXXXX")"
# DRIFT_KEEP=1 keeps the captures and normalised trees for a closer look.
if [ -n "${DRIFT_KEEP:-}" ]; then echo "keeping $tmp"; else trap 'rm -rf "$tmp"' EXIT; fi
status=0
start=$SECONDS

echo "== drift: Claude Code $V ($bin)"
echo "== 1/3 real-CLI packages against $V"
if LAB_CLAUDE_BIN="$bin" $GO test -count=1 -timeout 20m $PKGS; then
  echo "real-CLI packages: PASS on $V"
else
  echo "real-CLI packages: FAIL on $V"
  status=1
fi

echo "== 2/3 capturing $V into a temporary folder"
capture() {
  local log="$tmp/$1.log"; shift
  if ! LAB_CLAUDE_BIN="$bin" LAB_CAPTURE_DIR="$tmp/capture" $GO test -count=1 -timeout 20m "$@" >"$log" 2>&1; then
    echo "capture failed ($*):"; grep -E -- '--- FAIL|^\s+\S+_test.go:[0-9]+:' "$log" | head -40
    status=1
  fi
}
capture conversations ./internal/claudetest -run '^TestCapture$' -capture
capture panes ./internal/claude -run '^TestCapturePanes$' -capture-panes
echo "captured $(find "$tmp/capture" -type f 2>/dev/null | wc -l) files"

echo "== 3/3 normalised diff: committed $BASE fixtures (a/) against $V (b/)"
mkdir -p "$tmp/a" "$tmp/b"
$GO run ./internal/claudetest/drift/cmd/normfixtures -set "$BASE" -out "$tmp/a/$BASE" || exit 1
if [ -d "$tmp/capture" ]; then
  $GO run ./internal/claudetest/drift/cmd/normfixtures -version "$V" -in "$tmp/capture" -out "$tmp/b/$V" || exit 1
fi
# Compare like with like: only files both sides have, plus a list of the
# ones only one side has (a failed capture leaves gaps).
(cd "$tmp" && diff -ru "a/$BASE" "b/$V" | sed -e "s#^Only in a/$BASE#only in the $BASE fixtures:#" -e "s#^Only in b/$V#only in the $V capture:#")
changed=$(cd "$tmp" && diff -rq "a/$BASE" "b/$V" | grep -c '^Files ')
echo "== drift $V vs $BASE: $changed files differ after normalisation; $((SECONDS - start)) s"
exit $status
