#!/usr/bin/env bash
# Installs the pinned Claude Code CLI (or CLAUDE_CODE_VERSION) from npm into
# tools/claude-<version> (ignored by git) and prints the path of its binary.
# Idempotent: a matching install is reused. Override the folder with
# LAB_TOOLS_DIR. The pin here must match internal/claude/versions.go.
set -euo pipefail
VERSION="${CLAUDE_CODE_VERSION:-2.1.332}"
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${LAB_TOOLS_DIR:-$root/tools}/claude-$VERSION"
bin="$dir/node_modules/@anthropic-ai/claude-code/bin/claude.exe"
if [ -x "$bin" ] && "$bin" --version 2>/dev/null | grep -q "^$VERSION "; then
  echo "$bin"; exit 0
fi
mkdir -p "$dir"
npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "@anthropic-ai/claude-code@$VERSION" >&2
if ! "$bin" --version 2>/dev/null | grep -q "^$VERSION "; then
  echo "install-claude: $bin did not report version $VERSION" >&2
  exit 1
fi
echo "$bin"
