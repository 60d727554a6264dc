# Tally's two commands are `make run` (start tallyd) and `make test` (every
# test). Both first make sure the PostgreSQL server binaries are installed,
# because tallyd and the tests start a private PostgreSQL when DATABASE_URL is
# not set.

GO ?= go
PG_BIN := $(firstword $(wildcard /usr/lib/postgresql/*/bin/initdb) $(shell command -v initdb 2>/dev/null))

.PHONY: run test deps postgres-binaries build vet

run: postgres-binaries
	$(GO) run ./cmd/tallyd

build:
	$(GO) build -o bin/tallyd ./cmd/tallyd

test: postgres-binaries
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

vet:
	gofmt -l . | (! grep .) || (echo "gofmt would change the files above" && exit 1)
	$(GO) vet ./...

# postgres-binaries installs Debian's PostgreSQL server when no initdb is found.
postgres-binaries:
ifeq ($(PG_BIN),)
	@if [ "$$(id -u)" = 0 ]; then \
		echo "PostgreSQL server binaries not found: installing Debian's postgresql package"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	else \
		echo "PostgreSQL server binaries (initdb, postgres) not found."; \
		echo "Install them (Debian/Ubuntu: sudo apt-get install postgresql) or set DATABASE_URL."; \
		exit 1; \
	fi
endif
