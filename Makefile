# Everything a fresh machine needs comes from the pinned files in requirements/.
PYTHON ?= python3
# Material prints an advertisement for MkDocs 2 on every build; it is not a warning about this site.
export NO_MKDOCS_2_WARNING := 1
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: site serve test lint bench clean

# The main job: read backend/, refresh data/ and docs/, build the site into site/.
site: $(STAMP)
	$(BIN)/docgen extract
	$(BIN)/docgen render
	$(BIN)/mkdocs build --strict

serve: $(STAMP)
	$(BIN)/mkdocs serve

# The whole test suite, browser test included.
test: $(STAMP)
	bash scripts/ensure-chromium
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check generator backend tests benchmarks scripts
	$(BIN)/ruff format --check generator backend tests benchmarks scripts
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

$(STAMP): requirements/main.txt requirements/dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements/dev.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

clean:
	rm -rf $(VENV) site .pytest_cache .mypy_cache .ruff_cache
