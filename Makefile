# lab's build and test entry points. `make demo` starts lab with the built-in
# scripted model; `make test` runs everything CI runs.

GO ?= go
export LAB_CLAUDE_BIN ?= $(CURDIR)/tools/claude-2.1.328/node_modules/@anthropic-ai/claude-code/bin/claude.exe
export LAB_CODEX_BIN ?= $(CURDIR)/tools/codex-0.171.0/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex

.PHONY: all build test test-go test-web test-e2e lint claude codex clis web demo bench clean

all: build

# The pinned CLIs, from npm, into tools/ (ignored by git).
claude: $(LAB_CLAUDE_BIN)
$(LAB_CLAUDE_BIN):
	bash scripts/install-claude.sh >/dev/null
codex: $(LAB_CODEX_BIN)
$(LAB_CODEX_BIN):
	bash scripts/install-codex.sh >/dev/null
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
# first against the real server (`lab demo` with real CLI runs; writes
# docs/screenshots/), then browser-level component tests against a scripted
# API for states the real server cannot produce on demand (a 409 race, a
# reader scrolled up when a new dialog arrives, paging 10,000 messages).
test-e2e: clis web build
	cd web && LAB_BIN=$(CURDIR)/bin/lab npm run e2e
	cd web && npm run e2e:mock

test: lint test-go test-web test-e2e

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
