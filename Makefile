# lab's build and test entry points. `make demo` starts lab with the built-in
# scripted model; `make test` runs everything CI runs.

GO ?= go
export LAB_CLAUDE_BIN ?= $(CURDIR)/tools/claude-2.1.328/node_modules/@anthropic-ai/claude-code/bin/claude.exe

.PHONY: all build test test-go lint claude web demo bench clean

all: build

# The pinned Claude Code CLI, from npm, into tools/ (ignored by git).
claude: $(LAB_CLAUDE_BIN)
$(LAB_CLAUDE_BIN):
	bash scripts/install-claude.sh >/dev/null

build:
	$(GO) build -o bin/lab ./cmd/lab

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

test-go: claude
	$(GO) test -count=1 -timeout 20m ./...

test: lint test-go

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
