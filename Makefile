# lab's build and test entry points. `make demo` starts lab with the built-in
# scripted model; `make test` runs everything CI runs.

GO ?= go

# Claude Code CLI versions (internal/claude/versions.go holds the same;
# its TestPinAgreesEverywhere checks this file). The pin is what the tests,
# `make demo` and the browser suite use; OLDEST and NEWEST bound the
# versions lab was verified against (docs/cli-versions.md). LAB_CLAUDE_BIN
# selects the binary under test for the whole Go suite.
CLAUDE_PINNED ?= 2.1.332
CLAUDE_OLDEST ?= 2.1.328
CLAUDE_NEWEST ?= 2.1.332
claude_bin = $(CURDIR)/tools/claude-$(1)/node_modules/@anthropic-ai/claude-code/bin/claude.exe
export LAB_CLAUDE_BIN ?= $(call claude_bin,$(CLAUDE_PINNED))

# The pinned Codex CLI (internal/codex/versions.go holds the same). Its
# tests run it in a network namespace, which needs root (as CI runs).
CODEX_PINNED ?= 0.171.0
export LAB_CODEX_BIN ?= $(CURDIR)/tools/codex-$(CODEX_PINNED)/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex

# The Go packages whose tests drive the real CLI, and the versions besides
# the pin CI runs them against: the newest and the oldest verified.
CLI_PACKAGES := ./cmd/lab ./internal/chat ./internal/claude ./internal/claudetest ./internal/runs
CLI_VERSIONS_EXTRA := $(filter-out $(CLAUDE_PINNED),$(sort $(CLAUDE_NEWEST) $(CLAUDE_OLDEST)))

.PHONY: all build test test-go test-cli-versions test-web test-e2e screenshots lint claude codex clis web demo bench clean drift

all: build

# The pinned CLIs, from npm, into tools/ (ignored by git).
claude: $(LAB_CLAUDE_BIN)
$(LAB_CLAUDE_BIN):
	CLAUDE_CODE_VERSION=$(CLAUDE_PINNED) bash scripts/install-claude.sh >/dev/null
codex: $(LAB_CODEX_BIN)
$(LAB_CODEX_BIN):
	CODEX_VERSION=$(CODEX_PINNED) bash scripts/install-codex.sh >/dev/null
clis: claude codex

build:
	$(GO) build -o bin/lab ./cmd/lab

# Start lab with the built-in scripted models and the pinned CLIs: no API
# key needed. State lives in ~/.local/state/lab/demo (LAB_STATE_DIR
# overrides); the log prints a one-time setup link for choosing the password.
demo: web build clis
	./bin/lab demo $(DEMO_FLAGS)

# Start lab for real work: the claude and codex on your PATH, your own
# ~/.claude and ~/.codex (or CODEX_HOME).
run: web build
	./bin/lab serve $(SERVE_FLAGS)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

test-go: clis
	$(GO) test -count=1 -timeout 20m ./...

# The real-CLI packages again against each verified version CI covers
# besides the pin (installed into tools/ when missing).
test-cli-versions:
	@set -e; for v in $(CLI_VERSIONS_EXTRA); do \
		bin=$$(CLAUDE_CODE_VERSION=$$v bash scripts/install-claude.sh); \
		echo "== real-CLI packages against Claude Code $$v"; \
		LAB_CLAUDE_BIN=$$bin $(GO) test -count=1 -timeout 20m $(CLI_PACKAGES); \
	done

# Check a CLI version against lab: install it, run the real-CLI packages
# against it, re-capture the fixtures into a temporary folder and print a
# normalised diff against the committed fixtures of BASE (default: the
# pin). See docs/cli-versions.md.
drift:
	@test -n "$(V)" || { echo "usage: make drift V=<version> [BASE=<version>]"; exit 2; }
	@GO="$(GO)" CLI_PACKAGES="$(CLI_PACKAGES)" bash scripts/drift.sh "$(V)" "$(or $(BASE),$(CLAUDE_PINNED))"

# The web app (web/): install exactly the locked packages, build with Vite
# and copy the output where internal/webui embeds it. Run before `build` to
# get a binary with the real app; without it the binary serves a placeholder.
WEB_DIST := internal/webui/dist
web/node_modules/.package-lock.json: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

web: web/node_modules/.package-lock.json
	cd web && npm run build
	find $(WEB_DIST) -mindepth 1 ! -name .gitignore -exec rm -rf {} +
	cp -R web/dist/. $(WEB_DIST)/

# Typecheck and unit-test the web app.
test-web: web/node_modules/.package-lock.json
	cd web && npm run typecheck && npm test

# The web app in real headless Chromium (Debian's /usr/bin/chromium):
# first the weight budget (the first paint's JavaScript at most 50 KB
# gzip, web/scripts/size.mjs), then against the real server (`lab demo`
# with real CLI runs), then browser-level component tests against a
# scripted API for states the real server cannot produce on demand (a 409
# race, a reader scrolled up when a new dialog arrives, paging 10,000
# messages). Their screenshots go to a temp folder, so a test run leaves
# the tree as it found it (`make screenshots` writes docs/screenshots/).
test-e2e: clis web build
	cd web && npm run size
	cd web && LAB_BIN=$(CURDIR)/bin/lab npm run e2e
	cd web && npm run e2e:mock

# The same suites, writing their screenshots into docs/screenshots/.
screenshots: clis web build
	cd web && LAB_SCREENSHOTS=1 LAB_BIN=$(CURDIR)/bin/lab npm run e2e
	cd web && LAB_SCREENSHOTS=1 npm run e2e:mock

test: lint test-go test-cli-versions test-web test-e2e

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
