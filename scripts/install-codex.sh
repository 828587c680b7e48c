#!/usr/bin/env bash
# Installs the pinned OpenAI Codex CLI from npm into tools/codex-<version>
# (ignored by git) and prints the path of its native binary. The npm
# package's launcher is a Node script; the binary lab runs lives in the
# platform package npm installs beside it as an optional dependency.
# Idempotent: a matching install is reused. Override the folder with
# LAB_TOOLS_DIR, the version with CODEX_VERSION.
set -euo pipefail
VERSION="${CODEX_VERSION:-0.171.0}"
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${LAB_TOOLS_DIR:-$root/tools}/codex-$VERSION"
bin="$dir/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"
reports() { "$bin" --version 2>/dev/null | grep -q "^codex-cli $VERSION\$"; }
if [ -x "$bin" ] && reports; then
  echo "$bin"; exit 0
fi
mkdir -p "$dir"
npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "@openai/codex@$VERSION" >&2
if ! reports; then
  echo "install-codex: $bin did not report version $VERSION" >&2
  exit 1
fi
echo "$bin"
