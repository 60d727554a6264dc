# Tally's two commands are `make run` (start tallyd) and `make test` (every
# test). Both first make sure the PostgreSQL server binaries are installed,
# because tallyd and the tests start a private PostgreSQL when DATABASE_URL is
# not set. `make run ARGS="--addr :9090"` passes ARGS to tallyd.

GO ?= go
PG_BIN := $(firstword $(wildcard /usr/lib/postgresql/*/bin/initdb) $(shell command -v initdb 2>/dev/null))

.PHONY: run test postgres-binaries test-tools chromium build vet generate generated bench node jstools types jscheck dice-model dice-eval vision-python

ARGS ?=
run: postgres-binaries
	$(GO) run ./cmd/tallyd $(ARGS)

build:
	$(GO) build -o bin/tallyd ./cmd/tallyd

test: postgres-binaries test-tools chromium generated jscheck
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 40m ./...

# bench measures Tally under load against pgbench on one durable PostgreSQL
# it starts for the purpose (BENCHMARKS.md); set CLIENTS, DURATION, RUNS or
# GAME (dice, or royale for Battleship Royale games), and BENCH_ARGS for
# more of tallybench's flags (--pin: the database on a CPU of its own).
CLIENTS ?= 32
DURATION ?= 30s
RUNS ?= 1
GAME ?= dice
bench: postgres-binaries
	$(GO) build -o bin/tallyd ./cmd/tallyd
	$(GO) run ./cmd/tallybench --tallyd bin/tallyd --clients $(CLIENTS) --duration $(DURATION) --runs $(RUNS) --game $(GAME) $(BENCH_ARGS)

# generate regenerates the query code (sqlc, a tool in go.mod) from
# db/migrations and db/queries.
generate:
	$(GO) generate ./db

# generated fails when the query code in db/internal/dbsqlc is not what
# db/migrations and db/queries generate: run `make generate` and commit.
generated:
	@$(GO) tool sqlc diff -f db/sqlc.yaml || { echo "db/internal/dbsqlc is stale: run make generate"; exit 1; }

# jscheck type-checks the phone app (api/web/app: plain ES modules with
# JSDoc, no build step) with tsc --noEmit (jsconfig.json for the page,
# jsconfig.worker.json for the service worker), lints it with ESLint
# (eslint.config.js), and fails when api/web/types/openapi.d.ts is not what
# openapi.yaml generates: run `make types` and commit.
jscheck: jstools
	@npx --no-install openapi-typescript openapi.yaml --default-non-nullable false -o $(JSTYPES_CHECK) >/dev/null 2>&1 || { echo "openapi-typescript failed"; exit 1; }
	@cmp -s $(JSTYPES_CHECK) api/web/types/openapi.d.ts || { rm -f $(JSTYPES_CHECK); echo "api/web/types/openapi.d.ts is stale: run make types"; exit 1; }
	@rm -f $(JSTYPES_CHECK)
	npx --no-install tsc --noEmit -p jsconfig.json
	npx --no-install tsc --noEmit -p jsconfig.worker.json
	npx --no-install eslint --max-warnings 0 api/web/app

JSTYPES_CHECK := node_modules/.cache/openapi.d.ts

# types regenerates the app's types from openapi.yaml.
types: jstools
	npm run -s types

# jstools installs the pinned checkers (package-lock.json) with npm ci when
# node_modules does not match the lock. node_modules gets a go.mod of its
# own, so that Go's ./... stops there: some npm packages carry Go code
# (flatted does), which go vet and go test would otherwise take for Tally's.
jstools: node
	@cmp -s package-lock.json node_modules/.tally-lock 2>/dev/null || \
		{ npm ci --no-audit --no-fund && cp package-lock.json node_modules/.tally-lock; }
	@test -f node_modules/go.mod || printf 'module tally.invalid/node_modules\n' > node_modules/go.mod

# node installs Debian's Node.js and npm when node is not found.
node:
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing nodejs and npm for the web app's type check and lint"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; \
		else \
			echo "The web app's checks need Node.js: install it (sudo apt-get install nodejs npm)."; exit 1; \
		fi; \
	fi

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

# test-tools installs what the README walk-through test pastes into bash.
test-tools:
	@missing=""; for t in curl jq; do command -v $$t >/dev/null || missing="$$missing $$t"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing$$missing for the README walk-through test"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
		else \
			echo "The tests need$$missing: install them (sudo apt-get install$$missing)."; exit 1; \
		fi; \
	fi

# chromium installs Debian's Chromium when no browser is found: the web app's
# browser tests (api/web/browsertest) drive it headless and fail without it.
chromium:
	@if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null && \
		! command -v google-chrome >/dev/null && [ -z "$$CHROMIUM" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing chromium for the web app's browser tests"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		else \
			echo "The browser tests need Chromium: install it (sudo apt-get install chromium) or set CHROMIUM."; exit 1; \
		fi; \
	fi

# dice-model trains the camera's dice reader and writes the app's model,
# api/web/app/dice.bin (vision/README.md): it draws the training scenes
# (DICE_SCENES, about 225 MB for each 1500, drawn once into vision/build/
# and kept: the detector's with cocked dice floating; the classifier's with
# them resting on the table, each die cut in the level view, dicetrain.level,
# with the wider layers, --wide),
# trains the centre detector and the face classifier side by side, picks
# the reader's thresholds on held-out training scenes (dicetrain.level
# check, check.py's rule) and exports all of it. Not part of test.
PYTHON ?= /usr/bin/python3
DICE_SCENES ?= 9000
DICE_DETECTOR_EPOCHS ?= 24
DICE_CLASSIFIER_SCENES ?= 9000
DICE_CLASSIFIER_EPOCHS ?= 8
dice-model: vision-python
	cd vision && $(PYTHON) -m dicetrain.train data --scenes $(DICE_SCENES)
	cd vision && $(PYTHON) -m dicetrain.level data --scenes $(DICE_CLASSIFIER_SCENES)
	cd vision && { $(PYTHON) -m dicetrain.level train --wide --scenes $(DICE_CLASSIFIER_SCENES) --epochs $(DICE_CLASSIFIER_EPOCHS) & c=$$!; \
		$(PYTHON) -m dicetrain.train detector --scenes $(DICE_SCENES) --epochs $(DICE_DETECTOR_EPOCHS) & d=$$!; wait $$c && wait $$d; }
	cd vision && $(PYTHON) -m dicetrain.level check --wide
	cd vision && $(PYTHON) -m dicetrain.level export --wide ../api/web/app/dice.bin

# dice-eval measures the reader as the app runs it, in headless Chromium, on
# test throws that a ray tracer draws (vision/dicetest, made once into
# vision/build/testset): dice and throws read right, refusals, and the time
# per reading with the CPU throttled 4x. It prints the figures for
# BENCHMARKS.md and writes them to artifacts/dice-eval.md.
dice-eval: vision-python chromium
	test -f vision/build/testset/truth.json || (cd vision && $(PYTHON) -m dicetest.make build/testset)
	$(GO) run ./vision/diceeval -set vision/build/testset -out artifacts/dice-eval.md

# vision-python installs Debian's PyTorch, OpenCV and NumPy for dice-model
# and dice-eval when they are missing.
vision-python:
	@if ! $(PYTHON) -c 'import torch, cv2, numpy' 2>/dev/null; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing Debian's python3-torch, python3-opencv and python3-numpy"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-torch python3-opencv python3-numpy >/dev/null; \
		else \
			echo "dice-model needs python3-torch, python3-opencv and python3-numpy (sudo apt-get install ...)"; exit 1; \
		fi; \
	fi
