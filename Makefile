# Everything a fresh machine needs comes from the pinned files in requirements/.
PYTHON ?= python3
# Material prints an advertisement for MkDocs 2 on every build; it is not a warning about this site.
export NO_MKDOCS_2_WARNING := 1
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.bench-installed
# The pinned Node packages: the official TypeScript MCP client, the conformance suite and the Node 22 it needs.
NODE_DIR := clients
NODE_STAMP := $(NODE_DIR)/node_modules/.installed

.PHONY: site serve test lint bench bench-instructions clean node-packages

# The main job: read backend/, refresh data/ and docs/, build the site into site/.
site: $(STAMP)
	$(BIN)/docgen extract
	$(BIN)/docgen render
	$(BIN)/mkdocs build --strict

serve: $(STAMP)
	$(BIN)/mkdocs serve

# The whole test suite, browser test included.
test: $(STAMP) node-packages
	bash scripts/ensure-chromium
	$(BIN)/python -m pytest

# actionlint checks the workflow against GitHub's rules (runtimes of the actions used included). Its shellcheck
# and pyflakes hooks are off so that every machine gets the same verdict, whatever else is on PATH.
lint: $(STAMP)
	$(BIN)/ruff check docgen backend clients tests benchmarks scripts
	$(BIN)/ruff format --check docgen backend clients tests benchmarks scripts
	$(BIN)/mypy
	$(BIN)/actionlint -shellcheck= -pyflakes= .github/workflows/*.yml

bench: $(BENCH_STAMP)
	$(BIN)/python benchmarks/run.py

# The same comparisons (this repository, 10,000 sites, the FastAPI application) counted in instructions with
# valgrind (a system package): slower, but the counts repeat from run to run where CPU time does not.
bench-instructions: $(BENCH_STAMP)
	$(BIN)/python benchmarks/instructions.py

# The bench's own extra: cog, for its peer row.
$(BENCH_STAMP): $(STAMP) requirements/bench.txt
	$(BIN)/python -m pip install --quiet -r requirements/bench.txt
	touch $@

$(STAMP): requirements/main.txt requirements/dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements/dev.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	@# An editable install compiles nothing (a wheel's install would): compile docgen's modules once, so that
	@# every docgen run does not compile them from source (as it would with PYTHONDONTWRITEBYTECODE set).
	$(BIN)/python -m compileall -q docgen
	touch $@

# Without npm the Node packages are not installed, and the tests that need them are skipped (saying why).
node-packages:
	@if command -v npm >/dev/null 2>&1; then $(MAKE) -s --no-print-directory $(NODE_STAMP); else \
	  echo "make: npm not found: skipping the TypeScript client and conformance tests (install Node.js 20+ with npm to run them)"; fi

# npm ci installs exactly what package-lock.json records, from the npm registry, and runs no install scripts.
$(NODE_STAMP): $(NODE_DIR)/package.json $(NODE_DIR)/package-lock.json
	cd $(NODE_DIR) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

clean:
	rm -rf $(VENV) site .pytest_cache .mypy_cache .ruff_cache $(NODE_DIR)/node_modules
