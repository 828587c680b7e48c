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

.PHONY: all build test test-go test-cli-versions test-web test-e2e screenshots lint claude codex clis cli-versions deps go-deps staticcheck web demo bench clean drift

all: build

# The pinned CLIs, from npm, into tools/ (ignored by git).
claude: $(LAB_CLAUDE_BIN)
$(LAB_CLAUDE_BIN):
	CLAUDE_CODE_VERSION=$(CLAUDE_PINNED) bash scripts/install-claude.sh >/dev/null
codex: $(LAB_CODEX_BIN)
$(LAB_CODEX_BIN):
	CODEX_VERSION=$(CODEX_PINNED) bash scripts/install-codex.sh >/dev/null
clis: claude codex
# The other verified Claude Code versions CI runs the real-CLI tests on.
cli-versions:
	@for v in $(CLI_VERSIONS_EXTRA); do CLAUDE_CODE_VERSION=$$v bash scripts/install-claude.sh >/dev/null || exit 1; done

# Everything the tests fetch, at once: the CLIs from npm, the web app's
# packages, the Go modules (and a first compile), staticcheck. `make test`
# starts with it, so its parallel tracks never install the same thing twice.
deps:
	@$(MAKE) --no-print-directory -j5 clis cli-versions web/node_modules/.package-lock.json go-deps staticcheck
go-deps:
	$(GO) mod download
	$(GO) build ./...
STATICCHECK := $(CURDIR)/bin/staticcheck-v0.8.2
staticcheck: $(STATICCHECK)
$(STATICCHECK):
	mkdir -p $(@D)/.staticcheck
	GOBIN=$(CURDIR)/bin/.staticcheck $(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2
	mv $(CURDIR)/bin/.staticcheck/staticcheck $@
	rmdir $(CURDIR)/bin/.staticcheck

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

lint: staticcheck
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) ./...

# Most real-CLI tests wait on a CLI, so more packages run at once than
# there are cores (GO_TEST_P).
GO_TEST_P ?= 4
test-go: clis
	$(GO) test -count=1 -p $(GO_TEST_P) -timeout 20m ./...

# The tests that drive a Claude Code CLI's screens or read what it
# records, again against each verified version CI covers besides the pin
# (installed into tools/ when missing): pickers and every answer shape,
# permission prompts, replies as the input box draws them, interrupts,
# the live overlay's reading of the pane, resume, attach, the trust gate,
# captures, the slash menu, mode and model, attachments. What does not
# depend on the CLI's version (lab's own API, push, changes, peers, the
# Codex CLI, measurements) runs once, above.
CLI_VERSION_TESTS ?= ^(TestE2E|TestActor|TestPermission|TestLive|TestLook|TestResume|TestAttach|TestServeAnswersARealQuestion|TestServeRejectsAPlanWithFeedback|TestServeRestartKeepsPendingRun|TestServeShowsAPIRetriesAsAWarning|TestRunEndToEnd|TestStartWatch|TestBackToBack|TestRestartKeeps|TestCLIVersionOfTheRealCLI|TestRealCLI|TestCapture|TestMenuMatchesTable|TestServeSlashCommands|TestServeSwitchModeAndModel|TestServeAttachmentsClaude|TestPastedImagePathsAttach)
CLI_VERSION_SKIP ?= Codex|Timing|Fuzz
test-cli-versions: cli-versions
	@set -e; for v in $(CLI_VERSIONS_EXTRA); do \
		bin=$$(CLAUDE_CODE_VERSION=$$v bash scripts/install-claude.sh); \
		echo "== version-dependent real-CLI tests against Claude Code $$v"; \
		LAB_CLAUDE_BIN=$$bin $(GO) test -count=1 -p $(GO_TEST_P) -timeout 20m -run '$(CLI_VERSION_TESTS)' -skip '$(CLI_VERSION_SKIP)' $(CLI_PACKAGES); \
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

# Typecheck and unit-test the web app; check every browser suite in e2e/
# is in an npm e2e script.
test-web: web/node_modules/.package-lock.json
	cd web && npm run typecheck && npm test && node scripts/e2e-list.mjs

# The web app in real headless Chromium (Debian's /usr/bin/chromium):
# first the weight budget (the first paint's JavaScript at most 50 KB
# gzip, web/scripts/size.mjs), then against the real server (`lab demo`
# with real CLI runs), then browser-level component tests against a
# scripted API for states the real server cannot produce on demand (a 409
# race, a reader scrolled up when a new dialog arrives, paging 10,000
# messages). Their screenshots go to a temp folder, so a test run leaves
# the tree as it found it (`make screenshots` writes docs/screenshots/).
# (make test builds the web app and lab before its tracks fork, and runs
# this with E2E_BUILD=clis: rebuilding internal/webui/dist here while the
# Go track compiles the package that embeds it could fail that compile.)
E2E_BUILD ?= clis web build
test-e2e: $(E2E_BUILD)
	cd web && npm run size
	cd web && LAB_BIN=$(CURDIR)/bin/lab npm run e2e
	cd web && npm run e2e:mock

# The same suites, writing their screenshots into docs/screenshots/.
screenshots: clis web build
	cd web && LAB_SCREENSHOTS=1 LAB_BIN=$(CURDIR)/bin/lab npm run e2e
	cd web && LAB_SCREENSHOTS=1 npm run e2e:mock

# Everything CI runs: lint, the Go tests and the web suites as three
# tracks at once (scripts/test-all.sh), with each step's time.
test:
	@bash scripts/test-all.sh

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
